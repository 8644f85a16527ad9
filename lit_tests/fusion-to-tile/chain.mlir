// fusion-to-tile on two GEMMs in a row (eqsat's b2b group of an
// out-projection, residual and layernorm feeding FFN1): a block of rows
// runs the first K loop with a block as wide as the row, normalises in
// registers, then walks the second GEMM's 70 columns 64 at a time with the
// normalised rows as A; nothing between the GEMMs reaches memory.
// RUN: aic-opt %s --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @gemm_chain_0 grid = [1] {
// CHECK: tile.for {{.*}} iter_args({{.*}} : !tile.tile<32x16xf32>)
// CHECK: tile.gemm {{.*}} : !tile.tile<32x16xf32, shared>, !tile.tile<16x16xf32, shared>, !tile.tile<32x16xf32> -> !tile.tile<32x16xf32>
// CHECK: tile.reduce sum
// CHECK: math.rsqrt
// CHECK: tile.for %{{.*}} to %c70 step %c64 {
// CHECK: tile.gemm {{.*}} : !tile.tile<32x16xf32>, !tile.tile<16x64xf32, shared>, !tile.tile<32x64xf32> -> !tile.tile<32x64xf32>
// CHECK: math.erf
// CHECK: tile.store {{.*}} : !tile.tile<32x64xf32>, memref<2x9x70xf32>
// CHECK-LABEL: func.func @main
// CHECK-NEXT: tile.launch @gemm_chain_0
func.func @main(%x: tensor<2x9x16xf32>, %w1: tensor<16x16xf32>, %b1: tensor<16xf32>, %res: tensor<2x9x16xf32>, %g: tensor<16xf32>, %be: tensor<16xf32>, %w2: tensor<16x70xf32>, %b2: tensor<70xf32>) -> tensor<2x9x70xf32> {
  %0 = fusion.group b2b_gemm (%a0 = %x, %a1 = %w1, %a2 = %b1, %a3 = %res, %a4 = %g, %a5 = %be, %a6 = %w2, %a7 = %b2) : (tensor<2x9x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<2x9x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16x70xf32>, tensor<70xf32>) -> tensor<2x9x70xf32> {
    %m = graph.matmul %a0, %a1 : (tensor<2x9x16xf32>, tensor<16x16xf32>) -> tensor<2x9x16xf32>
    %b = graph.bias_add %m, %a2 : (tensor<2x9x16xf32>, tensor<16xf32>) -> tensor<2x9x16xf32>
    %r = graph.add %a3, %b : tensor<2x9x16xf32>
    %l = graph.layernorm %r, %a4, %a5 : (tensor<2x9x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x9x16xf32>
    %f = graph.matmul %l, %a6 : (tensor<2x9x16xf32>, tensor<16x70xf32>) -> tensor<2x9x70xf32>
    %c = graph.bias_add %f, %a7 : (tensor<2x9x70xf32>, tensor<70xf32>) -> tensor<2x9x70xf32>
    %y = graph.gelu %c : tensor<2x9x70xf32>
    fusion.yield %y : tensor<2x9x70xf32>
  }
  return %0 : tensor<2x9x70xf32>
}
