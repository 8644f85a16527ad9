// The raising rules (opt-in: `rules=algebraic,raising`): JAX's double
// broadcast of a bias composes into one, and adding it along the last
// dimension becomes graph.bias_add.
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{rules=algebraic,raising},canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @dense
// CHECK-NEXT: %[[M:.*]] = graph.matmul %arg0, %arg1
// CHECK-NEXT: %[[B:.*]] = graph.bias_add %[[M]], %arg2 : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
// CHECK-NEXT: return %[[B]]
func.func @dense(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<2x8x32xf32> {
  %m = graph.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  %b1 = graph.broadcast %b, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
  %b2 = graph.broadcast %b1, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
  %r = graph.add %m, %b2 : tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// CHECK-LABEL: func.func @not_a_bias
// CHECK: graph.broadcast %arg1, dims = [0]
// CHECK-NOT: graph.bias_add
func.func @not_a_bias(%x: tensor<4x4xf32>, %v: tensor<4xf32>) -> tensor<4x4xf32> {
  %b = graph.broadcast %v, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
  %r = graph.add %x, %b : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
