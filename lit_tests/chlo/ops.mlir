// The chlo ops JAX emits, in their pretty syntax.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s

// CHECK-LABEL: func.func @chlo(
// CHECK-NEXT: %0 = chlo.erf %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %1 = chlo.erfc %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %2 = chlo.erf_inv %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %3 = chlo.tan %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %4 = chlo.square %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %5 = chlo.lgamma %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %6 = chlo.digamma %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %7 = chlo.bessel_i1e %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %8 = chlo.is_inf %arg0 : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT: %9 = chlo.acosh %arg0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %10:2 = chlo.top_k(%arg1, k = 2) : tensor<3x4xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
// CHECK-NEXT: %11 = chlo.next_after %arg0, %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %12 = chlo.polygamma %arg0, %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %13 = chlo.zeta %arg0, %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: return
func.func @chlo(%f: tensor<4xf32>, %m: tensor<3x4xf32>) {
  %0 = chlo.erf %f : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erfc %f : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.erf_inv %f : tensor<4xf32> -> tensor<4xf32>
  %3 = chlo.tan %f : tensor<4xf32> -> tensor<4xf32>
  %4 = chlo.square %f : tensor<4xf32> -> tensor<4xf32>
  %5 = chlo.lgamma %f : tensor<4xf32> -> tensor<4xf32>
  %6 = chlo.digamma %f : tensor<4xf32> -> tensor<4xf32>
  %7 = chlo.bessel_i1e %f : tensor<4xf32> -> tensor<4xf32>
  %8 = "chlo.is_inf"(%f) : (tensor<4xf32>) -> tensor<4xi1>
  %9 = chlo.acosh %f : tensor<4xf32> -> tensor<4xf32>
  %10:2 = chlo.top_k(%m, k = 2) : tensor<3x4xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  %11 = chlo.next_after %f, %f : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %12 = chlo.polygamma %f, %f : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %13 = chlo.zeta %f, %f : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}
