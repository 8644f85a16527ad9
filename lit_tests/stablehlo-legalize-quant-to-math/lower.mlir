// stablehlo-legalize-quant-to-math: quantized arguments become their storage
// integers, uniform_quantize / uniform_dequantize become float arithmetic,
// moves of one quantized type move the integers, and a hybrid dot_general
// (float activations, per-channel int8 weights) reads its weight
// dequantized; the result lowers to graph ops and compiles for the host.
// RUN: aic-opt %s --stablehlo-legalize-quant-to-math | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(stablehlo-legalize-quant-to-math,stablehlo-to-graph)' | FileCheck %s --check-prefix=GRAPH
// RUN: aic-opt %s --stablehlo-legalize-quant-to-math > %t.mlir
// RUN: aic-run --target=host --check %t.mlir --entry=@main --args='[dense<[[0.1, -0.7, 1.3, 0.45], [2.2, -1.15, 0.0, 0.9]]> : tensor<2x4xf32>, dense<[[1, -2, 3], [4, 5, -6], [-7, 8, 9], [10, -11, 12]]> : tensor<4x3xi8>]' 2>&1 | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @main(%arg0: tensor<2x4xf32>, %arg1: tensor<4x3xi8>) -> (tensor<2x3xf32>, tensor<2x4xf32>)
// CHECK: stablehlo.divide
// CHECK: stablehlo.add
// CHECK: stablehlo.round_nearest_even
// CHECK: stablehlo.maximum
// CHECK: stablehlo.minimum
// CHECK: %[[Q:.*]] = stablehlo.convert %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xi8>
// CHECK: %[[R:.*]] = stablehlo.reshape %[[Q]] : (tensor<2x4xi8>) -> tensor<8xi8>
// CHECK: %[[B:.*]] = stablehlo.reshape %[[R]] : (tensor<8xi8>) -> tensor<2x4xi8>
// CHECK: stablehlo.convert %[[B]] : (tensor<2x4xi8>) -> tensor<2x4xf32>
// CHECK: stablehlo.subtract
// CHECK: stablehlo.multiply
// CHECK: %[[W:.*]] = stablehlo.convert %arg1 : (tensor<4x3xi8>) -> tensor<4x3xf32>
// CHECK: stablehlo.broadcast_in_dim {{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK: stablehlo.dot_general %arg0, {{.*}} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NOT: quant.uniform
// GRAPH: graph.round_even
// GRAPH: graph.matmul
// HOST: check: ok
func.func @main(%x: tensor<2x4xf32>, %w: tensor<4x3x!quant.uniform<i8:f32:1, {0.5,0.25,0.125}>>) -> (tensor<2x3xf32>, tensor<2x4xf32>) {
  %q = stablehlo.uniform_quantize %x : (tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32, 0.05:3>>
  %r = stablehlo.reshape %q : (tensor<2x4x!quant.uniform<i8:f32, 0.05:3>>) -> tensor<8x!quant.uniform<i8:f32, 0.05:3>>
  %b = stablehlo.reshape %r : (tensor<8x!quant.uniform<i8:f32, 0.05:3>>) -> tensor<2x4x!quant.uniform<i8:f32, 0.05:3>>
  %d = stablehlo.uniform_dequantize %b : (tensor<2x4x!quant.uniform<i8:f32, 0.05:3>>) -> tensor<2x4xf32>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3x!quant.uniform<i8:f32:1, {0.5,0.25,0.125}>>) -> tensor<2x3xf32>
  return %y, %d : tensor<2x3xf32>, tensor<2x4xf32>
}
