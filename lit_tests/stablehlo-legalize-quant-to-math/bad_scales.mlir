// A quantized type's scale of zero, NaN or below zero has no meaning (a
// division by it, or an infinity of levels): an error at the type, where
// the op names it, and exit 1; so is a storage type the lowering does not
// take.
// RUN: aic-opt %s --split-input-file --verify-diagnostics
// RUN: not aic-opt %s --split-input-file --stablehlo-legalize-quant-to-math 2>&1 | FileCheck %s

// CHECK: error: malformed !quant.uniform<i8:f32, 0.0:3>: scales must be positive and finite
// CHECK: error: malformed !quant.uniform<i8:f32, nan:3>: scales must be positive and finite
// CHECK: error: malformed !quant.uniform<i8:f32:1, {0.5:0,-0.25:0}>: scales must be positive and finite
// CHECK: error: malformed !quant.uniform<i8:f32, inf:0>: scales must be positive and finite

func.func @zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{malformed !quant.uniform<i8:f32, 0.0:3>: scales must be positive and finite}}
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.0:3>>
  return %x : tensor<4xf32>
}

// -----

func.func @nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{malformed !quant.uniform<i8:f32, nan:3>: scales must be positive and finite}}
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, nan:3>>
  return %x : tensor<4xf32>
}

// -----

func.func @negative_channel(%w: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{malformed !quant.uniform<i8:f32:1, {0.5:0,-0.25:0}>: scales must be positive and finite}}
  %q = stablehlo.uniform_quantize %w : (tensor<4x2xf32>) -> tensor<4x2x!quant.uniform<i8:f32:1, {0.5:0,-0.25:0}>>
  return %w : tensor<4x2xf32>
}

// -----

func.func @infinite(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{malformed !quant.uniform<i8:f32, inf:0>: scales must be positive and finite}}
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, inf:0>>
  return %x : tensor<4xf32>
}
