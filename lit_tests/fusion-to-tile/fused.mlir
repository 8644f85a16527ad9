// fusion-to-tile on GEMM groups beyond a plain epilogue:
// - sibling GEMMs reading one input (horizontal fusion) become one kernel
//   with two results: one K loop loads A once and runs both block GEMMs;
//   f16 operands accumulate in f32 and are rounded once at the store;
// - BERT's FFN2: a bias + GeLU prologue on A applied to the loaded tile, the
//   GEMM, bias, residual and a layernorm over whole rows (the block is as
//   wide as the row, 7);
// - a batched GEMM: the batch is a grid axis.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @gemm_0 grid = [1, 1] {
// CHECK: tile.for {{.*}} iter_args(%[[Z:.*]], %[[Z]] : !tile.tile<32x16xf32>, !tile.tile<32x16xf32>)
// CHECK: tile.gemm %[[A:.*]], %{{.*}}, %{{.*}} level = block : !tile.tile<32x16xf16, shared>, !tile.tile<16x16xf16, shared>, !tile.tile<32x16xf32> -> !tile.tile<32x16xf32>
// CHECK: tile.gemm %[[A]], %{{.*}}, %{{.*}} level = block : !tile.tile<32x16xf16, shared>, !tile.tile<16x16xf16, shared>, !tile.tile<32x16xf32> -> !tile.tile<32x16xf32>
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tile.store {{.*}} : !tile.tile<32x16xf16>, memref<2x9x16xf16>
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tile.store {{.*}} : !tile.tile<32x16xf16>, memref<2x9x16xf16>
// CHECK-LABEL: func.func @qkv
// CHECK: %[[R:.*]]:2 = tile.launch @gemm_0(%arg0, %arg1, %arg2, %arg3, %arg4) : ({{.*}}) -> (tensor<2x9x16xf16>, tensor<2x9x16xf16>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @qkv(%x: tensor<2x9x16xf16>, %wq: tensor<16x16xf16>, %bq: tensor<16xf16>, %wk: tensor<16x16xf16>, %bk: tensor<16xf16>) -> (tensor<2x9x16xf16>, tensor<2x9x16xf16>) {
  %mq = graph.matmul %x, %wq : (tensor<2x9x16xf16>, tensor<16x16xf16>) -> tensor<2x9x16xf16>
  %q = graph.bias_add %mq, %bq : (tensor<2x9x16xf16>, tensor<16xf16>) -> tensor<2x9x16xf16>
  %mk = graph.matmul %x, %wk : (tensor<2x9x16xf16>, tensor<16x16xf16>) -> tensor<2x9x16xf16>
  %k = graph.bias_add %mk, %bk : (tensor<2x9x16xf16>, tensor<16xf16>) -> tensor<2x9x16xf16>
  return %q, %k : tensor<2x9x16xf16>, tensor<2x9x16xf16>
}

// CHECK-LABEL: tile.kernel @gemm_1 grid = [1, 1] {
// CHECK: tile.for {{.*}} iter_args({{.*}} : !tile.tile<16x7xf32>)
// CHECK: tile.load %arg1[{{.*}}] through #coord.desc<[10, 12] | merge<2, 5> [0] -> [0, 1], pass [1] -> [2] | broadcast [0] -> [], broadcast [1] -> [], pass [2] -> [0]> : memref<12xf32> -> !tile.tile<16x16xf32>
// CHECK: math.erf
// CHECK: tile.transfer
// CHECK: tile.gemm {{.*}} : !tile.tile<16x16xf32, shared>, !tile.tile<16x7xf32, shared>, !tile.tile<16x7xf32> -> !tile.tile<16x7xf32>
// CHECK: tile.reduce sum {{.*}}, axis = 1 : !tile.tile<16x7xf32> -> !tile.tile<16xf32>
// CHECK: tile.reduce sum {{.*}}, axis = 1 : !tile.tile<16x7xf32> -> !tile.tile<16xf32>
// CHECK: math.rsqrt
// CHECK: tile.store
// CHECK-LABEL: func.func @ffn2
// CHECK-NEXT: tile.launch @gemm_1
// CHECK-NEXT: return
func.func @ffn2(%h: tensor<2x5x12xf32>, %b1: tensor<12xf32>, %w: tensor<12x7xf32>, %b2: tensor<7xf32>, %res: tensor<2x5x7xf32>, %g: tensor<7xf32>, %b: tensor<7xf32>) -> tensor<2x5x7xf32> {
  %a = graph.bias_add %h, %b1 : (tensor<2x5x12xf32>, tensor<12xf32>) -> tensor<2x5x12xf32>
  %e = graph.gelu %a : tensor<2x5x12xf32>
  %m = graph.matmul %e, %w : (tensor<2x5x12xf32>, tensor<12x7xf32>) -> tensor<2x5x7xf32>
  %c = graph.bias_add %m, %b2 : (tensor<2x5x7xf32>, tensor<7xf32>) -> tensor<2x5x7xf32>
  %r = graph.add %res, %c : tensor<2x5x7xf32>
  %l = graph.layernorm %r, %g, %b : (tensor<2x5x7xf32>, tensor<7xf32>, tensor<7xf32>) -> tensor<2x5x7xf32>
  return %l : tensor<2x5x7xf32>
}

// CHECK-LABEL: tile.kernel @gemm_2 grid = [1, 1, 3] {
// CHECK: %[[B:.*]] = tile.program_id 2 : index
// CHECK: tile.load %arg0[%[[B]], {{.*}}] : memref<3x5x7xf32> -> !tile.tile<8x8xf32>
// CHECK: tile.load %arg1[%[[B]], {{.*}}] through #coord.desc<[3, 7, 4] | {{.*}}> : memref<3x4x7xf32> -> !tile.tile<8x4xf32>
// CHECK: tile.store %{{.*}}, %arg2[%[[B]], %{{.*}}, %{{.*}}] : !tile.tile<8x4xf32>, memref<3x5x4xf32>
func.func @bmm(%a: tensor<3x5x7xf32>, %b: tensor<3x4x7xf32>) -> tensor<3x5x4xf32> {
  %m = graph.matmul %a, %b transpose_b : (tensor<3x5x7xf32>, tensor<3x4x7xf32>) -> tensor<3x5x4xf32>
  return %m : tensor<3x5x4xf32>
}
