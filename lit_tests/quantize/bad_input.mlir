// Under quantize{mode=int8-dynamic} as under int8-weight, a weight holding
// NaN or an infinity has no scale: an error at its constant, exit 1; the
// IR is not written. A product whose operands are of an unsupported
// quantized type (unsigned bytes into i32) is an error at the op.
// RUN: not aic-opt %s --split-input-file "--quantize=mode=int8-dynamic min-elements=1" 2>&1 | FileCheck %s
// RUN: aic-opt %s --split-input-file --verify-diagnostics "--quantize=mode=int8-dynamic min-elements=1"

// CHECK: error: 'graph.constant' op cannot quantize a weight holding NaN or infinity: it has no scale
// CHECK-NEXT: --> {{.*}}bad_input.mlir:15:8
// CHECK: error: 'graph.constant' op cannot quantize a weight holding NaN or infinity: it has no scale
// CHECK: error: 'graph.matmul' op result element type 'i32' must be the operands' 'ui8'
// CHECK-NOT: module
func.func @nan(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.constant' op cannot quantize a weight holding NaN or infinity: it has no scale}}
  %w = graph.constant dense<[[0.5, 0x7FC00000], [1.0, -1.0]]> : tensor<2x2xf32>
  %y = graph.matmul %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

func.func @inf(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  // expected-error@+1 {{'graph.constant' op cannot quantize a weight holding NaN or infinity: it has no scale}}
  %w = graph.constant dense<[[0.5, 0x7C00], [1.0, -1.0]]> : tensor<2x2xf16>
  %y = graph.matmul %x, %w transpose_b : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  return %y : tensor<2x2xf16>
}

// -----

func.func @unsigned(%a: tensor<2x3xui8>, %b: tensor<3x2xui8>) -> tensor<2x2xi32> {
  // expected-error@+1 {{'graph.matmul' op result element type 'i32' must be the operands' 'ui8'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xui8>, tensor<3x2xui8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}
