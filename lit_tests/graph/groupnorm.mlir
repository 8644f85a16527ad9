// graph.groupnorm: syntax (epsilon printed only when not the default), the
// generic form, and its meaning in the interpreter: 1 batch element, 2
// positions, 4 channels in 2 groups; group 0 holds 1, 2 (channel 0) and 3, 4
// (channel 1): mean 2.5, variance 1.25, so 1 becomes -1.5/sqrt(1.25 + eps)
// = -1.3416; channel 1 is scaled by 2 and shifted by 1 (3 becomes
// 2 * 0.4472 + 1 = 1.8944). Group 1 is constant: (x - mean) is 0, so only
// the shift remains.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s --entry @main --args "[dense<[[[1.0, 3.0, 7.0, 7.0], [2.0, 4.0, 7.0, 7.0]]]> : tensor<1x2x4xf32>, dense<[1.0, 2.0, 1.0, 1.0]> : tensor<4xf32>, dense<[0.0, 1.0, 0.5, 0.5]> : tensor<4xf32>]" | FileCheck %s --check-prefix=VALUES

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: %0 = graph.groupnorm %arg0, %arg1, %arg2, groups = 2 : (tensor<1x2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
// CHECK-NEXT: %1 = graph.groupnorm %arg0, %arg1, %arg2, groups = 4 {epsilon = 9.99999997E-7 : f32} : (tensor<1x2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
// VALUES: dense<{{\[\[\[}}-1.34163{{[0-9]*}}, 1.89442{{[0-9]*}}, 5.000000e-01, 5.000000e-01], [-0.44721{{[0-9]*}}, 3.68327{{[0-9]*}}, 5.000000e-01, 5.000000e-01]]]> : tensor<1x2x4xf32>
func.func @main(%x: tensor<1x2x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<1x2x4xf32> {
  %0 = graph.groupnorm %x, %g, %b, groups = 2 : (tensor<1x2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
  %1 = graph.groupnorm %x, %g, %b, groups = 4 {epsilon = 1.0e-6 : f32} : (tensor<1x2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}
