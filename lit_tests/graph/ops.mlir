// Every graph op in its pretty syntax, and fusion groups; the generic form
// parses too, and printing is stable.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT: %0 = graph.exp %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %1 = graph.log %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %2 = graph.tanh %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %3 = graph.sqrt %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %4 = graph.rsqrt %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %5 = graph.neg %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %6 = graph.abs %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %7 = graph.relu %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %8 = graph.sigmoid %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %9 = graph.silu %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %10 = graph.gelu %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %11 = graph.gelu_tanh %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %12 = graph.fast_gelu %arg0 : tensor<2x3xf32>
// CHECK-NEXT: %13 = graph.add %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: %14 = graph.sub %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: %15 = graph.mul %arg0, %arg2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %16 = graph.div %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %17 = graph.max %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: %18 = graph.min %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: %19 = graph.pow %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: %20 = graph.add %arg0, %arg1 : tensor<2x3xf32>
// CHECK-NEXT: return
func.func @elementwise(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %s: tensor<f32>) {
  %0 = graph.exp %x : tensor<2x3xf32>
  %1 = graph.log %x : tensor<2x3xf32>
  %2 = graph.tanh %x : tensor<2x3xf32>
  %3 = graph.sqrt %x : tensor<2x3xf32>
  %4 = graph.rsqrt %x : tensor<2x3xf32>
  %5 = graph.neg %x : tensor<2x3xf32>
  %6 = graph.abs %x : tensor<2x3xf32>
  %7 = graph.relu %x : tensor<2x3xf32>
  %8 = graph.sigmoid %x : tensor<2x3xf32>
  %9 = graph.silu %x : tensor<2x3xf32>
  %10 = graph.gelu %x : tensor<2x3xf32>
  %11 = graph.gelu_tanh %x : tensor<2x3xf32>
  %12 = graph.fast_gelu %x : tensor<2x3xf32>
  %13 = graph.add %x, %y : tensor<2x3xf32>
  %14 = graph.sub %x, %y : tensor<2x3xf32>
  %15 = graph.mul %x, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %16 = graph.div %s, %x : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %17 = graph.max %x, %y : tensor<2x3xf32>
  %18 = graph.min %x, %y : tensor<2x3xf32>
  %19 = graph.pow %x, %y : tensor<2x3xf32>
  %20 = "graph.add"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @structured(
// CHECK-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %1 = graph.matmul %arg0, %arg0 transpose_b : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
// CHECK-NEXT: %2 = graph.matmul %arg0, %arg0 transpose_a : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
// CHECK-NEXT: %3 = graph.batch_matmul %1, %arg0 : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
// CHECK-NEXT: %4 = graph.bias_add %0, %arg2 : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %5 = graph.conv2d %arg3, %arg4, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x8x8x3xf16>, tensor<3x3x3x16xf16>) -> tensor<1x4x4x16xf16>
// CHECK-NEXT: %6 = graph.conv2d %arg5, %arg6, layout = NCHW, strides = [1, 1], dilations = [2, 2], padding = [0, 0, 0, 0], groups = 2 : (tensor<2x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x5x5xf32>
// CHECK-NEXT: %7 = graph.softmax %0 : tensor<4x8x32xf32>
// CHECK-NEXT: %8 = graph.softmax %0, axis = 1 : tensor<4x8x32xf32>
// CHECK-NEXT: %9 = graph.constant dense<1.000000e+00> : tensor<32xf32>
// CHECK-NEXT: %10 = graph.layernorm %0, %9, %arg2 : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %11 = graph.layernorm %0, %9, %arg2 {epsilon = 9.99999997E-7 : f32} : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %12 = graph.rmsnorm %0, %9 : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %13 = graph.reduce sum %0, axes = [2] : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %14 = graph.reduce mean %0, axes = [-1] keep_dims : (tensor<4x8x32xf32>) -> tensor<4x8x1xf32>
// CHECK-NEXT: %15 = graph.reduce max %0, axes = [0, 1] : (tensor<4x8x32xf32>) -> tensor<32xf32>
// CHECK-NEXT: %16 = graph.transpose %0, perm = [0, 2, 1] : (tensor<4x8x32xf32>) -> tensor<4x32x8xf32>
// CHECK-NEXT: %17 = graph.reshape %0 : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: %18 = graph.broadcast %arg2, dims = [2] : (tensor<32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT: %19 = graph.slice %0 [0:4, 2:8:3, 0:32] : (tensor<4x8x32xf32>) -> tensor<4x2x32xf32>
// CHECK-NEXT: %20 = graph.concat %0, %0, axis = -1 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x64xf32>
// CHECK-NEXT: %21:3 = graph.split %0, axis = 2 : (tensor<4x8x32xf32>) -> (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x16xf32>)
// CHECK-NEXT: %22 = graph.cast %0 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
// CHECK-NEXT: %23 = graph.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-NEXT: %24 = graph.matmul %arg0, %arg1 : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<?x8x32xf32>
// CHECK-NEXT: return
func.func @structured(%a: tensor<4x8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>, %img: tensor<1x8x8x3xf16>, %k: tensor<3x3x3x16xf16>, %nchw: tensor<2x4x9x9xf32>, %ko: tensor<8x2x3x3xf32>) {
  %0 = graph.matmul %a, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
  %1 = graph.matmul %a, %a transpose_b : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %2 = graph.matmul %a, %a transpose_a : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  %3 = graph.batch_matmul %1, %a : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %4 = graph.bias_add %0, %b : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %5 = graph.conv2d %img, %k, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x8x8x3xf16>, tensor<3x3x3x16xf16>) -> tensor<1x4x4x16xf16>
  %6 = graph.conv2d %nchw, %ko, layout = NCHW, strides = [1, 1], dilations = [2, 2], padding = [0, 0, 0, 0], groups = 2 : (tensor<2x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x5x5xf32>
  %7 = graph.softmax %0 : tensor<4x8x32xf32>
  %8 = graph.softmax %0, axis = 1 : tensor<4x8x32xf32>
  %g = graph.constant dense<1.0> : tensor<32xf32>
  %9 = graph.layernorm %0, %g, %b : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %10 = graph.layernorm %0, %g, %b {epsilon = 1.0e-06 : f32} : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %11 = graph.rmsnorm %0, %g : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %12 = graph.reduce sum %0, axes = [2] : (tensor<4x8x32xf32>) -> tensor<4x8xf32>
  %13 = graph.reduce mean %0, axes = [-1] keep_dims : (tensor<4x8x32xf32>) -> tensor<4x8x1xf32>
  %14 = graph.reduce max %0, axes = [0, 1] : (tensor<4x8x32xf32>) -> tensor<32xf32>
  %15 = graph.transpose %0, perm = [0, 2, 1] : (tensor<4x8x32xf32>) -> tensor<4x32x8xf32>
  %16 = graph.reshape %0 : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
  %17 = graph.broadcast %b, dims = [2] : (tensor<32xf32>) -> tensor<4x8x32xf32>
  %18 = graph.slice %0 [0:4, 2:8:3, 0:32] : (tensor<4x8x32xf32>) -> tensor<4x2x32xf32>
  %19 = graph.concat %0, %0, axis = -1 : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x64xf32>
  %20:3 = graph.split %0, axis = 2 : (tensor<4x8x32xf32>) -> (tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8x16xf32>)
  %21 = graph.cast %0 : (tensor<4x8x32xf32>) -> tensor<4x8x32xbf16>
  %22 = graph.constant dense<[1, 2]> : tensor<2xi32>
  %23 = graph.matmul %a, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<?x8x32xf32>
  return
}

// CHECK-LABEL: func.func @fusion(
// CHECK-NEXT: %0:2 = fusion.group horizontal (%arg2 = %arg0, %arg3 = %arg1) {cost = 2.500000e-06 : f64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
// CHECK-NEXT: %2 = graph.matmul %arg2, %arg3 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %3 = graph.neg %arg2 : tensor<2x3xf32>
// CHECK-NEXT: fusion.yield %2, %3 : tensor<2x4xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %1 = fusion.group elementwise () : () -> tensor<f32> {
// CHECK-NEXT: %2 = graph.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: fusion.yield %2 : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: return %0#0, %0#1 : tensor<2x4xf32>, tensor<2x3xf32>
func.func @fusion(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
  %0:2 = fusion.group horizontal (%a = %x, %b = %w) {cost = 2.5e-06 : f64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
    %m = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %n = graph.neg %a : tensor<2x3xf32>
    fusion.yield %m, %n : tensor<2x4xf32>, tensor<2x3xf32>
  }
  %1 = fusion.group elementwise () : () -> tensor<f32> {
    %c = graph.constant dense<1.0> : tensor<f32>
    fusion.yield %c : tensor<f32>
  }
  return %0#0, %0#1 : tensor<2x4xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @predicates(
// CHECK-NEXT: %0 = graph.iota dim = 1 : tensor<2x3xi32>
// CHECK-NEXT: %1 = graph.compare LT, %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %2 = graph.not %1 : tensor<2x3xi1>
// CHECK-NEXT: %3 = graph.and %1, %2 : tensor<2x3xi1>
// CHECK-NEXT: %4 = graph.select %3, %arg0, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %5 = graph.rem %0, %0 : tensor<2x3xi32>
// CHECK-NEXT: %6 = graph.sin %4 : tensor<2x3xf32>
// CHECK-NEXT: return %6, %5
func.func @predicates(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %i = graph.iota dim = 1 : tensor<2x3xi32>
  %c = graph.compare LT, %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %n = graph.not %c : tensor<2x3xi1>
  %k = graph.and %c, %n : tensor<2x3xi1>
  %s = graph.select %k, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = graph.rem %i, %i : tensor<2x3xi32>
  %t = graph.sin %s : tensor<2x3xf32>
  return %t, %r : tensor<2x3xf32>, tensor<2x3xi32>
}
