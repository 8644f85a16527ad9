// A tuning's "consumers": 2 (two consumer warpgroups taking turns, each its
// own tiles: CUTLASS's ping-pong) is written as the GEMM kernel's
// `consumers = 2`, beside its persistent block count; tile-to-gpu then runs
// three warpgroups a block (two consumers and the producer). A kernel whose
// loop cannot be warp-specialised drops it with `persistent` (fusion-to-tile
// writes what the cache says; the layout passes decide). Entries the
// kernel cannot take are the cache's errors, naming the entry: a count other
// than 2 (or 0, 1), no persistent kernel, or a kernel that is not a GEMM.
// RUN: printf '{"h100/sm_90a/gemm/0x512x512x128/f16": {"bm": 64, "bn": 256, "bk": 64, "stages": 4, "threads": 128, "copy": "tma_ws", "persistent": 3, "consumers": 2}}' > %t.json
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json},tile-to-gpu{mma=wgmma})' | FileCheck %s --check-prefix=GPU
// CHECK: tile.kernel @gemm_0 grid = [8, 2] threads = 128 copy = tma_ws persistent = 3 consumers = 2 {
// CHECK: aic.tune = "h100/sm_90a/gemm/0x512x512x128/f16"
// GPU: gpu.kernel @gemm_0 grid = [3, 1, 1] block = [384, 1, 1]
// The built-in choice (Tuning::ping_pong) takes turns only where TMA can
// copy both operands: a GEMM whose A is read with its heads merged (no 2-D
// tensor map describes it) keeps the cooperative tiles.
// RUN: aic-opt %S/Inputs/consumers_heads.mlir --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true})' | FileCheck %s --check-prefix=HEADS
// HEADS: tile.kernel @gemm_0 grid = [64, 4] threads = 256 {
// HEADS: tile.load %arg0[{{.*}}] through #coord.desc<[8192, 1024] | unmerge
// HEADS: tile.kernel @gemm_1 grid = [128, 4] threads = 128 copy = tma_ws persistent = 132 consumers = 2 {
// RUN: printf '{"h100/sm_90a/gemm/0x512x512x128/f16": {"bm": 64, "bn": 256, "bk": 64, "threads": 128, "copy": "tma_ws", "persistent": 3, "consumers": 3}}' > %t.three.json
// RUN: not aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.three.json})' 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: entry 'h100/sm_90a/gemm/0x512x512x128/f16': 'consumers' must be 2 (two groups taking turns), 1 or 0
// RUN: printf '{"h100/sm_90a/gemm/0x512x512x128/f16": {"bm": 64, "bn": 256, "bk": 64, "threads": 128, "copy": "tma_ws", "consumers": 2}}' > %t.lone.json
// RUN: not aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.lone.json})' 2>&1 | FileCheck %s --check-prefix=LONE
// LONE: entry 'h100/sm_90a/gemm/0x512x512x128/f16': 'consumers' 2 needs a persistent kernel ("persistent": blocks)
// RUN: printf '{"h100/sm_90a/attention/2x256x256x64x64/f16": {"bm": 128, "bn": 64, "bk": 16, "stages": 3, "threads": 128, "copy": "tma_ws", "persistent": 4, "consumers": 2}}' > %t.attn.json
// RUN: not aic-opt %S/tuned_rings.mlir --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.attn.json})' 2>&1 | FileCheck %s --check-prefix=ATTN
// ATTN: entry 'h100/sm_90a/attention/2x256x256x64x64/f16': 'consumers' 2: consumers taking turns need a GEMM without a row normalisation

func.func public @main(%a: tensor<512x128xf16>, %w: tensor<128x512xf16>) -> tensor<512x512xf16> {
  %m = graph.matmul %a, %w : (tensor<512x128xf16>, tensor<128x512xf16>) -> tensor<512x512xf16>
  return %m : tensor<512x512xf16>
}
