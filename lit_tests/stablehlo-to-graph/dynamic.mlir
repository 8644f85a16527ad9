// stablehlo-to-graph: dynamic_iota, dynamic_reshape and
// dynamic_broadcast_in_dim whose shapes are all static are their static
// namesakes (the shape operand is left for DCE); with a `?` they stay. The
// lowered function computes what the interpreter computes on the source.
// RUN: aic-opt %s --stablehlo-to-graph | FileCheck %s
// RUN: aic-run --interpret %s | FileCheck %s --check-prefix=EXEC
// RUN: aic-opt %s --stablehlo-to-graph | aic-run --interpret - | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @dynamic_static(
// CHECK-NEXT: %0 = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT: %1 = graph.iota dim = 1 : tensor<2x3xi32>
// CHECK-NEXT: %2 = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK-NEXT: %3 = graph.reshape %2 : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %4 = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: %5 = graph.broadcast %4, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %6 = stablehlo.dynamic_broadcast_in_dim %4, %0, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
// EXEC: PASS dynamic_static
func.func @dynamic_static() {
  %s = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %0 = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<2x3xi32>
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>
  %1 = stablehlo.dynamic_reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %v = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %2 = stablehlo.dynamic_broadcast_in_dim %v, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %3 = stablehlo.dynamic_broadcast_in_dim %v, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  check.expect_eq_const %0, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  check.expect_eq_const %1, dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  check.expect_eq_const %2, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %4 = stablehlo.dynamic_reshape %3, %s : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  check.expect_eq_const %4, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  return
}
