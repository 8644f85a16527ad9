// quantize{mode=fp8}: a weight holding NaN or an infinity has no
// per-tensor scale: an error at its constant (exit 1).
// RUN: aic-opt %s "--quantize=mode=fp8 min-elements=1" --verify-diagnostics
// RUN: not aic-opt %s "--quantize=mode=fp8 min-elements=1" 2>&1 | FileCheck %s
// CHECK: error: 'graph.constant' op cannot quantize a weight holding NaN or infinity: it has no scale

func.func @inf(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.constant' op cannot quantize a weight holding NaN or infinity: it has no scale}}
  %w = graph.constant dense<[[1.0, 0x7F800000], [0.5, 2.0]]> : tensor<2x2xf32>
  %y = graph.matmul %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
