// fusion-to-tile{wgmma=true} chooses warpgroup-MMA tiles for an fp8 GEMM
// (f8E4M3FN A and B into f32) as for f16: 128-row blocks of two
// warpgroups (256 threads), 4 stages, but a K step of 128 (a 128-byte
// swizzled line of bytes); B given [N, K] under transpose_b is read
// through a transposing view (contiguous along K), so tile-to-gpu runs
// it on wgmma e4m3. Without wgmma mma.sync's byte tiles: the f16
// heuristic's blocks with K steps of 64 (Signature::byte_sized).
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true},tile-to-gpu{mma=wgmma threads=128})' | FileCheck %s --check-prefix=GPU
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_90a total=true})' | FileCheck %s --check-prefix=SYNC

// CHECK: tile.kernel @gemm_0 grid = [32, 16] threads = 256
// CHECK: tile.for %{{.*}} to %{{.*}} step %c128{{.*}} iter_args
// CHECK: tile.transfer %{{.*}} to shared depth = 4 : !tile.tile<128x128xf8E4M3FN>
// CHECK: tile.transfer %{{.*}} to shared depth = 4 : !tile.tile<128x256xf8E4M3FN>
// GPU: gpu.kernel @gemm_0 grid = [32, 16, 1] block = [256, 1, 1] shared = 196608
// GPU: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {abType = f8E4M3FN} : vector<128xf32> -> vector<128xf32>
// SYNC: tile.for %{{.*}} to %{{.*}} step %c64 iter_args
// SYNC: tile.gemm
func.func @main(%xq: tensor<4096x4096xf8E4M3FN>, %wq: tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf32> {
  %y = graph.matmul %xq, %wq transpose_b : (tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
