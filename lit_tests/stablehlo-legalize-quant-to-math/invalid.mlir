// What the lowering cannot do is an error at the op.
// RUN: aic-opt %s --stablehlo-legalize-quant-to-math --split-input-file --verify-diagnostics

func.func @unsigned(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.uniform_quantize' op unsigned quantized storage is not supported yet by stablehlo-legalize-quant-to-math}}
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.5:3>>
  %d = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<u8:f32, 0.5:3>>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @reduce(%x: tensor<4xf32>) -> tensor<f32> {
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zq = stablehlo.uniform_quantize %z : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  // expected-error@+1 {{'stablehlo.reduce' op quantized values in ops with regions are not supported yet by stablehlo-legalize-quant-to-math}}
  %r = stablehlo.reduce(%q init: %zq) applies stablehlo.add across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %d = stablehlo.uniform_dequantize %r : (tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<f32>
  return %d : tensor<f32>
}
