// fusion-to-tile{target=h100}: an f16 attention whose grid still gives
// each of the H100's 132 SMs two blocks takes 128 queries a block and 128
// keys a step (head dim 64) in 2 stages (the tensor-core loop of tile-to-gpu); an f32 one, or one
// on another target, keeps 64 x 64 in 3 stages.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile=target=h100 | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile=target=mi300 | FileCheck %s --check-prefix=MI300
// For Hopper's warpgroup MMA (wgmma=true, tile-to-gpu's mma=wgmma on sm_90a)
// the f16 block of 128 queries is two warpgroups of 64 (threads = 256),
// 128 keys a step (head dims that are whole 128-byte rows); over 4096 keys
// or more the loop is warp-specialised (`copy = tma_ws`), in 4 stages at head
// dim 64 (3 at 128, where 4 do not fit in shared memory), and at head dim
// 64 without a mask a block is three warpgroups, 192 queries (4096 of them
// in 22 blocks, the last partial); f32 keeps its tiles.
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 wgmma=true})' | FileCheck %s --check-prefix=WGMMA
// WGMMA-LABEL: tile.kernel @attention_0 grid = [22, 1, 64] threads = 384 copy = tma_ws {
// WGMMA: tile.transfer {{.*}} to shared depth = 1 : !tile.tile<192x64xf16>
// WGMMA: tile.for
// WGMMA: tile.transfer {{.*}} to shared depth = 4 : !tile.tile<64x128xf16>
// WGMMA: tile.gemm {{.*}} -> !tile.tile<192x128xf32>
// WGMMA-LABEL: tile.kernel @attention_1 grid = [64, 1, 64] {
// Over at most 512 keys (head dim 64) a block is one warpgroup: 64 queries,
// 128 threads, 128 keys a step.
// WGMMA-LABEL: tile.kernel @attention_2 grid = [8, 1, 96] threads = 128 {
// WGMMA: tile.transfer {{.*}} to shared depth = 1 : !tile.tile<64x64xf16>
// WGMMA: tile.for
// WGMMA: tile.transfer {{.*}} to shared depth = 2 : !tile.tile<64x128xf16>
// WGMMA: tile.gemm {{.*}} -> !tile.tile<64x128xf32>

// CHECK-LABEL: tile.kernel @attention_0 grid = [32, 1, 64] {
// CHECK: tile.load {{.*}} -> !tile.tile<128x64xf16>
// CHECK: tile.transfer {{.*}} to shared depth = 1 : !tile.tile<128x64xf16>
// CHECK: tile.for
// CHECK: tile.transfer {{.*}} to shared depth = 2 : !tile.tile<64x128xf16>
// CHECK: tile.gemm {{.*}} -> !tile.tile<128x128xf32>
// CHECK-LABEL: tile.kernel @attention_1 grid = [64, 1, 64] {
// CHECK: tile.transfer {{.*}} to shared depth = 3 : !tile.tile<64x64xf32>
// MI300-LABEL: tile.kernel @attention_0 grid = [64, 1, 64] {
func.func @attn_f16(%q: tensor<4x16x4096x64xf16>, %k: tensor<4x16x4096x64xf16>, %v: tensor<4x16x4096x64xf16>) -> tensor<4x16x4096x64xf16> {
  %qk = graph.matmul %q, %k transpose_b : (tensor<4x16x4096x64xf16>, tensor<4x16x4096x64xf16>) -> tensor<4x16x4096x4096xf16>
  %p = graph.softmax %qk, axis = 3 : tensor<4x16x4096x4096xf16>
  %o = graph.matmul %p, %v : (tensor<4x16x4096x4096xf16>, tensor<4x16x4096x64xf16>) -> tensor<4x16x4096x64xf16>
  return %o : tensor<4x16x4096x64xf16>
}

func.func @attn_f32(%q: tensor<4x16x4096x64xf32>, %k: tensor<4x16x4096x64xf32>, %v: tensor<4x16x4096x64xf32>) -> tensor<4x16x4096x64xf32> {
  %qk = graph.matmul %q, %k transpose_b : (tensor<4x16x4096x64xf32>, tensor<4x16x4096x64xf32>) -> tensor<4x16x4096x4096xf32>
  %p = graph.softmax %qk, axis = 3 : tensor<4x16x4096x4096xf32>
  %o = graph.matmul %p, %v : (tensor<4x16x4096x4096xf32>, tensor<4x16x4096x64xf32>) -> tensor<4x16x4096x64xf32>
  return %o : tensor<4x16x4096x64xf32>
}

func.func @attn_short(%q: tensor<8x12x512x64xf16>, %k: tensor<8x12x512x64xf16>, %v: tensor<8x12x512x64xf16>) -> tensor<8x12x512x64xf16> {
  %qk = graph.matmul %q, %k transpose_b : (tensor<8x12x512x64xf16>, tensor<8x12x512x64xf16>) -> tensor<8x12x512x512xf16>
  %p = graph.softmax %qk, axis = 3 : tensor<8x12x512x512xf16>
  %o = graph.matmul %p, %v : (tensor<8x12x512x512xf16>, tensor<8x12x512x64xf16>) -> tensor<8x12x512x64xf16>
  return %o : tensor<8x12x512x64xf16>
}
