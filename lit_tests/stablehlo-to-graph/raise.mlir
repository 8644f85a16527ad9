// With `raise`, lowering is followed by the e-graph's algebraic and raising
// rules: JAX's softmax (reduce-max guarded by max(-inf, m), subtract, exp,
// reduce-sum, divide) comes out as one graph.softmax. Without it, the
// decomposition stays.
// RUN: aic-opt %s --stablehlo-to-graph=raise=true | FileCheck %s
// RUN: aic-opt %s --stablehlo-to-graph | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: func.func public @main
// CHECK-NEXT: %[[S:.*]] = graph.softmax %arg0, axis = 1 : tensor<4x10xf32>
// CHECK-NEXT: return %[[S]]
// PLAIN: graph.reduce max
// PLAIN: graph.exp
// PLAIN-NOT: graph.softmax
func.func public @main(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %2 = stablehlo.maximum %1, %0 : tensor<4xf32>
  %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
  %5 = stablehlo.subtract %arg0, %4 : tensor<4x10xf32>
  %6 = stablehlo.exponential %5 : tensor<4x10xf32>
  %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
  %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
  %10 = stablehlo.divide %6, %9 : tensor<4x10xf32>
  return %10 : tensor<4x10xf32>
}
