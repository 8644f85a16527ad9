// fusion-to-tile's tiles for one f16 GEMM on h100 (tensor cores): where
// 128 x 256 blocks still give each of the 132 SMs two, the kernel takes
// them with a K step of 64 and records blocks of 256 threads (8 warps of
// 64 x 64) for tile-to-gpu; where only 128 x 128 blocks do, it keeps those
// and the target's threads; a tuning cache entry may set the threads too.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s
// RUN: printf '{"h100/gemm/4096x4096x1024": {"bm": 64, "bn": 128, "bk": 32, "stages": 4, "threads": 128}}' > %t.json
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile=tuning=%t.json | FileCheck %s --check-prefix=TUNED

// CHECK-LABEL: tile.kernel @gemm_0 grid = [32, 16] threads = 256 {
// CHECK: tile.transfer %{{.*}} to shared depth = 3 : !tile.tile<128x64xf16> -> !tile.tile<128x64xf16, shared>
// CHECK: tile.transfer %{{.*}} to shared depth = 3 : !tile.tile<64x256xf16> -> !tile.tile<64x256xf16, shared>
// CHECK: tile.gemm {{.*}} -> !tile.tile<128x256xf32>
// CHECK-LABEL: tile.kernel @gemm_1 grid = [16, 32] {
// CHECK: tile.gemm {{.*}} -> !tile.tile<128x128xf32>
// TUNED-LABEL: tile.kernel @gemm_0 grid = [64, 32] threads = 128 {
// TUNED: tile.transfer %{{.*}} to shared depth = 4 : !tile.tile<64x32xf16> -> !tile.tile<64x32xf16, shared>
func.func @wide(%a: tensor<4096x1024xf16>, %w: tensor<1024x4096xf16>) -> tensor<4096x4096xf16> {
  %m = graph.matmul %a, %w : (tensor<4096x1024xf16>, tensor<1024x4096xf16>) -> tensor<4096x4096xf16>
  %g = graph.gelu_tanh %m : tensor<4096x4096xf16>
  return %g : tensor<4096x4096xf16>
}

func.func @narrower(%a: tensor<2048x1024xf16>, %w: tensor<1024x4096xf16>) -> tensor<2048x4096xf16> {
  %m = graph.matmul %a, %w : (tensor<2048x1024xf16>, tensor<1024x4096xf16>) -> tensor<2048x4096xf16>
  %g = graph.gelu_tanh %m : tensor<2048x4096xf16>
  return %g : tensor<2048x4096xf16>
}
