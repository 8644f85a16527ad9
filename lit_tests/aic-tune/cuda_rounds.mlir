// aic-tune for a GPU, where the compiling machine (LLVM) and the timing one
// (the GPU) differ: --emit-rounds compiles one bundle a round and
// rounds.json (the candidates of each kernel signature, the heuristic's
// first, and each round's picks); --measure times them where the GPU is. On
// sm_90a an f16 GEMM's candidates are warpgroup tiles (threads = 2 x bm), the
// heuristic's 128 x 256 x 64 in 4 stages first (four tiles, one wave: not
// persistent), then the same warp-specialised and persistent, and
// persistent in 3 stages. A candidate is [bm, bn, bk, stages, threads,
// copy, persistent, group, split, consumers], copy 0 for tile-to-gpu's option (this
// GEMM's four tiles are one wave: no group; its K of 128 is too short to
// split).
// RUN: rm -rf %t && mkdir -p %t
// RUN: aic-tune %s --target=cuda --arch=sm_90a --emit-rounds=%t/rounds 2> %t/progress.txt
// RUN: FileCheck %s --check-prefix=PROGRESS < %t/progress.txt
// RUN: FileCheck %s --check-prefix=ROUNDS < %t/rounds/rounds.json
// RUN: test -f %t/rounds/round-0.bundle && test -f %t/rounds/round-1.bundle
// PROGRESS: aic-tune: 1 kernels, 1 signatures to tune, [[N:[0-9]+]] rounds
// PROGRESS: aic-tune: round 1/[[N]] (1 kernel signatures): compiled
// PROGRESS: aic-tune: [[N]] rounds in {{.*}}rounds; time them where the GPU is: aic-tune --measure=
// ROUNDS: "arch": "sm_90a",
// ROUNDS: "h100/sm_90a/gemm/0x256x256x128/f16": {
// ROUNDS-NEXT: "candidates": [
// ROUNDS-NEXT: [
// ROUNDS-NEXT: 128,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 64,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 0,
// ROUNDS-NEXT: 0,
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: ],
// The same tiles warp-specialised (copy 4: tma_ws), then persistent on
// 132 blocks.
// ROUNDS-NEXT: [
// ROUNDS-NEXT: 128,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 64,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 0,
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: ],
// ROUNDS-NEXT: [
// ROUNDS-NEXT: 128,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 64,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 132,
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: ],
// Persistent in 3 stages (room for the epilogue's staging tile).
// ROUNDS-NEXT: [
// ROUNDS-NEXT: 128,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 64,
// ROUNDS-NEXT: 3,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 132,
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: ],
// Then two consumer warpgroups taking turns (consumers 2), each its own
// 64 x 256 tiles, persistent.
// ROUNDS-NEXT: [
// ROUNDS-NEXT: 64,
// ROUNDS-NEXT: 256,
// ROUNDS-NEXT: 64,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 128,
// ROUNDS-NEXT: 4,
// ROUNDS-NEXT: 132,
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 0
// ROUNDS-NEXT: 2
// ROUNDS-NEXT: ],
// ROUNDS: "picks": {
// ROUNDS-NEXT: "h100/sm_90a/gemm/0x256x256x128/f16": 0
// ROUNDS-NEXT: },
// ROUNDS-NEXT: "bundle": "round-0.bundle"

// Without a GPU every round fails to run: each is reported, no cache is
// written, and the exit status says so.
// RUN: env CUDA_VISIBLE_DEVICES= LD_LIBRARY_PATH=%t not aic-tune --measure=%t/rounds -o %t/cache.json > %t/summary.txt 2> %t/measure.txt
// RUN: FileCheck %s --check-prefix=NOGPU < %t/measure.txt
// RUN: FileCheck %s --check-prefix=SKIPPED < %t/summary.txt
// RUN: not test -e %t/cache.json
// NOGPU: aic-tune: round 1/{{[0-9]+}} (1 kernel signatures): failed:
// NOGPU: aic-tune: no candidate could be timed: round 1:
// SKIPPED: candidate 0 ({{[0-9 ]+}}) skipped: round 1:

func.func @main(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf16> {
  %c = graph.matmul %a, %b : (tensor<256x128xf16>, tensor<128x256xf16>) -> tensor<256x256xf16>
  return %c : tensor<256x256xf16>
}
