// Split-K (a tuning's "split"): the GEMM's K loop in slices, as a first
// kernel batched over them (A's [M, K] read as [split, M, K/split], B's
// [K, N] as [split, K/split, N]) storing f32 partial products, and a second
// (splitk_*) summing each tile's partials and applying the epilogue (bias
// and GeLU here). Both carry the GEMM's tuning key, so aic-tune times them
// together. Each host run equals the interpreter: plain tiles, mma.sync's
// and wgmma's (a slice read at the wrong offset of K would not).
// RUN: printf '{"cpu/native/gemm/0x40x96x512/f16": {"bm": 16, "bn": 32, "bk": 32, "split": 4}}' > %t.json
// RUN: aic-opt %S/Inputs/split_k_gemm.mlir --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=cpu arch=native tuning=%t.json})' | FileCheck %s
// RUN: aic-run --target=host %S/Inputs/split_k_gemm.mlir --tuning=%t.json --entry=@main --check 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: aic-run --target=host --mma=nvgpu %S/Inputs/split_k_gemm.mlir --tuning=%t.json --entry=@main --check 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: printf '{"cpu/native/gemm/0x40x96x512/f16": {"bm": 64, "bn": 64, "bk": 64, "stages": 2, "threads": 128, "split": 2}}' > %t.wg.json
// RUN: aic-run --target=host --mma=wgmma %S/Inputs/split_k_gemm.mlir --tuning=%t.wg.json --entry=@main --check 2>&1 | FileCheck %s --check-prefix=RAN
// CHECK-LABEL: tile.kernel @gemm_2 grid = [3, 3, 4] {
// CHECK: ^bb0(%[[A:.*]]: memref<40x512xf16>, %[[B:.*]]: memref<96x512xf16>, %[[P:.*]]: memref<4x40x96xf32>):
// CHECK: %[[S:.*]] = tile.program_id 2
// CHECK: tile.for %c0 to %c128 step
// CHECK: tile.load %[[A]][%[[S]], %{{.*}}, %{{.*}}] through #coord.desc<[4, 40, 128] | pass [1] -> [0], unmerge [0, 2] -> [1] |
// CHECK: tile.load %[[B]][%[[S]], %{{.*}}, %{{.*}}] through #coord.desc<[4, 128, 96] | unmerge [0, 1] -> [0], pass [2] -> [1] |
// CHECK: tile.store %{{.*}}, %[[P]][%[[S]], %{{.*}}, %{{.*}}] : !tile.tile<16x32xf32>, memref<4x40x96xf32>
// CHECK: aic.kind = "gemm", aic.tune = "cpu/native/gemm/0x40x96x512/f16"
// CHECK-LABEL: tile.kernel @splitk_2 grid = [3] {
// CHECK: %[[P0:.*]] = tile.load %{{.*}} through #coord.desc<[40, 96] | embed<15360: 96, 1> [0, 1] -> [0]> : memref<4x40x96xf32>
// CHECK: %[[P1:.*]] = tile.load %{{.*}} through #coord.desc<[40, 96] | embed<15360: 96, 1, +3840> [0, 1] -> [0]>
// CHECK: %[[P2:.*]] = tile.load %{{.*}} through #coord.desc<[40, 96] | embed<15360: 96, 1, +7680> [0, 1] -> [0]>
// CHECK: %[[P3:.*]] = tile.load %{{.*}} through #coord.desc<[40, 96] | embed<15360: 96, 1, +11520> [0, 1] -> [0]>
// CHECK: tile.map %[[P0]], %[[P1]], %[[P2]], %[[P3]]
// CHECK-COUNT-3: arith.addf
// CHECK: math.exp2
// CHECK: tile.store %{{.*}} : !tile.tile<16x96xf16>, memref<40x96xf16>
// CHECK: aic.flops = 11520 : i64, aic.kind = "splitk", aic.tune = "cpu/native/gemm/0x40x96x512/f16"
// CHECK: %[[PARTS:.*]] = tile.launch @gemm_2({{.*}}) : {{.*}} -> tensor<4x40x96xf32>
// CHECK: tile.launch @splitk_2({{.*}}%[[PARTS]]) : {{.*}} -> tensor<40x96xf16>
// RAN: check: ok

// A split that does not cut K into whole K steps (512 / 4 = 128, not whole
// steps of 96) is the cache's error, naming the entry; so is a split of a
// batched GEMM.
// RUN: printf '{"cpu/native/gemm/0x40x96x512/f16": {"bm": 16, "bn": 32, "bk": 96, "split": 4}}' > %t.bad.json
// RUN: not aic-run --target=host %S/Inputs/split_k_gemm.mlir --tuning=%t.bad.json --entry=@main 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: entry 'cpu/native/gemm/0x40x96x512/f16': 'split' 4: a K of 512 is not 4 slices of whole K steps of 96
// RUN: printf '{"cpu/native/gemm/3x80x64x16/f32": {"bm": 16, "bn": 16, "bk": 16, "split": 2}}' > %t.b.json
// RUN: not aic-run --target=host %S/../tile-to-gpu/Inputs/iota_bmm_f32.mlir --tuning=%t.b.json --entry=@main 2>&1 | FileCheck %s --check-prefix=BATCHED
// BATCHED: entry 'cpu/native/gemm/3x80x64x16/f32': 'split' 2: split-K needs one GEMM, not batched, without a row normalisation
// RUN: printf '{"cpu/native/gemm/0x40x96x512/f16": {"bm": 16, "bn": 32, "bk": 32, "split": 17}}' > %t.many.json
// RUN: not aic-run --target=host %S/Inputs/split_k_gemm.mlir --tuning=%t.many.json --entry=@main 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: entry 'cpu/native/gemm/0x40x96x512/f16': 'split' must be a number of K slices from 0 to 16

// The built-in choice on sm_90a (Signature::split_tiles, Tuning::few_rows):
// a GEMM whose widest tiles leave more than half the SMs idle and whose K
// loop is 2048 or longer runs in as many slices as fill a wave: 128 x 256
// tiles (8 x 4, in 4 slices of 4096) for 1024 x 1024 x 16384. Fewer than 128
// rows take one warpgroup's 64 rows, as narrow as fills the SMs: 128 tiles
// of 64 x 32 for 64 x 4096 x 4096 (not split), and 32 of them in 4 slices of
// 2048 for 64 x 1024 x 8192; 4 rows too where 64 x 32 tiles fill the SMs
// (192 of them for 4 x 6144 x 4096, in place of the matrix-vector tiles).
// A K of 1024 (256 x 512 x 1024, four tiles) is
// not split: the kernel summing the slices would cost what they save.
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true})' | FileCheck %s --check-prefix=HEUR
// HEUR-DAG: tile.kernel @[[LONG:gemm_[0-9]+]] grid = [8, 4, 4] threads = 256 {
// HEUR-DAG: tile.kernel @[[NARROW:gemm_[0-9]+]] grid = [1, 128] threads = 128 {
// HEUR-DAG: tile.kernel @[[ROWS:gemm_[0-9]+]] grid = [1, 32, 4] threads = 128 {
// HEUR-DAG: tile.kernel @[[SHORT:gemm_[0-9]+]] grid = [2, 2] threads = 256 {
// HEUR-DAG: tile.kernel @[[FOUR:gemm_[0-9]+]] grid = [1, 192] threads = 128 {
// HEUR-DAG: tile.kernel @splitk_{{[0-9]+}} grid = [512] {
// HEUR-DAG: tile.kernel @splitk_{{[0-9]+}} grid = [32] {
// HEUR-NOT: tile.kernel @splitk_
func.func @main(%a: tensor<64x4096xf16>, %w: tensor<4096x4096xf16>, %x: tensor<1024x16384xf16>, %y: tensor<16384x1024xf16>, %p: tensor<256x1024xf16>, %q: tensor<1024x512xf16>, %r: tensor<64x8192xf16>, %v: tensor<1024x8192xf16>, %f: tensor<4x4096xf16>, %z: tensor<4096x6144xf16>) -> (tensor<64x4096xf16>, tensor<1024x1024xf16>, tensor<256x512xf16>, tensor<64x1024xf16>, tensor<4x6144xf16>) {
  %s = graph.matmul %a, %w transpose_b : (tensor<64x4096xf16>, tensor<4096x4096xf16>) -> tensor<64x4096xf16>
  %b = graph.matmul %x, %y : (tensor<1024x16384xf16>, tensor<16384x1024xf16>) -> tensor<1024x1024xf16>
  %c = graph.matmul %p, %q : (tensor<256x1024xf16>, tensor<1024x512xf16>) -> tensor<256x512xf16>
  %d = graph.matmul %r, %v transpose_b : (tensor<64x8192xf16>, tensor<1024x8192xf16>) -> tensor<64x1024xf16>
  %e = graph.matmul %f, %z : (tensor<4x4096xf16>, tensor<4096x6144xf16>) -> tensor<4x6144xf16>
  return %s, %b, %c, %d, %e : tensor<64x4096xf16>, tensor<1024x1024xf16>, tensor<256x512xf16>, tensor<64x1024xf16>, tensor<4x6144xf16>
}
