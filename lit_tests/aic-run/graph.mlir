// The graph ops in the reference interpreter (expected values from NumPy), and
// a fusion group running its body.
// RUN: aic-run --interpret %s | FileCheck %s

// CHECK: PASS dense_layer
func.func @dense_layer() {
  %x = graph.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]]> : tensor<2x3xf32>
  %w = graph.constant dense<[[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<3x4xf32>
  %b = graph.constant dense<[0.5, 0.5, -0.5, -0.5]> : tensor<4xf32>
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %mb = graph.bias_add %m, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %r = graph.relu %mb : tensor<2x4xf32>
  check.expect_eq_const %r, dense<[[4.5, 1.5, 3.5, 0.5], [0.0, 0.0, 0.0, 0.0]]> : tensor<2x4xf32>
  %wt = graph.transpose %w, perm = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %m2 = graph.matmul %x, %wt transpose_b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  check.expect_eq %m2, %m : tensor<2x4xf32>
  %x3 = graph.reshape %x : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %m3 = graph.matmul %x3, %w : (tensor<1x2x3xf32>, tensor<3x4xf32>) -> tensor<1x2x4xf32>
  %w3 = graph.reshape %w : (tensor<3x4xf32>) -> tensor<1x3x4xf32>
  %m4 = graph.batch_matmul %x3, %w3 : (tensor<1x2x3xf32>, tensor<1x3x4xf32>) -> tensor<1x2x4xf32>
  check.expect_eq %m3, %m4 : tensor<1x2x4xf32>
  return
}

// CHECK: PASS normalisations_and_activations
func.func @normalisations_and_activations() {
  %x = graph.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]]> : tensor<2x3xf32>
  %s = graph.softmax %x : tensor<2x3xf32>
  check.expect_almost_eq_const %s, dense<[[0.11849965, 0.00589975, 0.87560058], [0.54654938, 0.33149898, 0.12195165]]> : tensor<2x3xf32>
  %s0 = graph.softmax %x, axis = 0 : tensor<2x3xf32>
  %one = graph.reduce sum %s0, axes = [0] : (tensor<2x3xf32>) -> tensor<3xf32>
  check.expect_almost_eq_const %one, dense<1.0> : tensor<3xf32>
  %g = graph.constant dense<1.0> : tensor<3xf32>
  %z = graph.constant dense<0.0> : tensor<3xf32>
  %ln = graph.layernorm %x, %g, %z : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %ln, dense<[[0.16222121, -1.29776978, 1.13554847], [1.06903112, 0.26725778, -1.33628881]]> : tensor<2x3xf32>
  %rms = graph.rmsnorm %x, %g : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %rms, dense<[[0.46290955, -0.9258191, 1.38872862], [0.77458739, 0.0, -1.54917479]]> : tensor<2x3xf32>
  %ge = graph.gelu %x : tensor<2x3xf32>
  check.expect_almost_eq_const %ge, dense<[[0.84134477, -0.04550026, 2.99595022], [0.34573123, 0.0, -0.15865526]]> : tensor<2x3xf32>
  %gt = graph.gelu_tanh %x : tensor<2x3xf32>
  check.expect_almost_eq_const %gt, dense<[[0.84119201, -0.04540235, 2.99636269], [0.34571403, 0.0, -0.15880799]]> : tensor<2x3xf32>
  %fg = graph.fast_gelu %x : tensor<2x3xf32>
  check.expect_almost_eq %fg, %gt : tensor<2x3xf32>
  %si = graph.silu %x : tensor<2x3xf32>
  check.expect_almost_eq_const %si, dense<[[0.7310586, -0.23840587, 2.85772252], [0.31122968, 0.0, -0.2689414]]> : tensor<2x3xf32>
  return
}

// CHECK: PASS shapes_and_reductions
func.func @shapes_and_reductions() {
  %x = graph.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]]> : tensor<2x3xf32>
  %mean = graph.reduce mean %x, axes = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const %mean, dense<[0.66666669, -0.16666667]> : tensor<2xf32>
  %mx = graph.reduce max %x, axes = [0] keep_dims : (tensor<2x3xf32>) -> tensor<1x3xf32>
  check.expect_eq_const %mx, dense<[[1.0, 0.0, 3.0]]> : tensor<1x3xf32>
  %sp:2 = graph.split %x, axis = 1 : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>)
  check.expect_eq_const %sp#0, dense<[[1.0], [0.5]]> : tensor<2x1xf32>
  %cc = graph.concat %sp#0, %sp#1, axis = 1 : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
  check.expect_eq %cc, %x : tensor<2x3xf32>
  %sl = graph.slice %x [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %sl, dense<[[1.0, 3.0], [0.5, -1.0]]> : tensor<2x2xf32>
  %v = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %bc = graph.broadcast %v, dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
  %sum = graph.add %x, %bc : tensor<2x3xf32>
  check.expect_eq_const %sum, dense<[[2.0, -1.0, 4.0], [2.5, 2.0, 1.0]]> : tensor<2x3xf32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %h = graph.mul %half, %x : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %h, dense<[[0.5, -1.0, 1.5], [0.25, 0.0, -0.5]]> : tensor<2x3xf32>
  %i = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  check.expect_eq_const %i, dense<[[1, -2, 3], [0, 0, -1]]> : tensor<2x3xi32>
  %is = graph.reduce sum %i, axes = [0, 1] : (tensor<2x3xi32>) -> tensor<i32>
  check.expect_eq_const %is, dense<1> : tensor<i32>
  return
}

// CHECK: PASS convolutions
func.func @convolutions() {
  %img = graph.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]> : tensor<1x1x3x3xf32>
  %k = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %c = graph.conv2d %img, %k, layout = NCHW, strides = [1, 1], dilations = [1, 1], padding = [1, 0, 1, 0] : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  check.expect_eq_const %c, dense<[[[[0.0, 1.0, 3.0], [3.0, 8.0, 12.0], [9.0, 20.0, 24.0]]]]> : tensor<1x1x3x3xf32>
  %nhwc = graph.transpose %img, perm = [0, 2, 3, 1] : (tensor<1x1x3x3xf32>) -> tensor<1x3x3x1xf32>
  %kh = graph.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c2 = graph.conv2d %nhwc, %kh, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [0, 1, 0, 1] : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_eq_const %c2, dense<[[[[8.0], [7.0]], [[13.0], [8.0]]]]> : tensor<1x2x2x1xf32>
  %two = graph.concat %nhwc, %nhwc, axis = 3 : (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>) -> tensor<1x3x3x2xf32>
  %dw = graph.constant dense<[[[[1.0, -1.0]]]]> : tensor<1x1x1x2xf32>
  %g = graph.conv2d %two, %dw, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0], groups = 2 : (tensor<1x3x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %neg = graph.neg %nhwc : tensor<1x3x3x1xf32>
  %want = graph.concat %nhwc, %neg, axis = 3 : (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq %g, %want : tensor<1x3x3x2xf32>
  return
}

// CHECK: PASS fusion_group
func.func @fusion_group() {
  %x = graph.constant dense<[[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]]> : tensor<2x3xf32>
  %w = graph.constant dense<1.0> : tensor<3x4xf32>
  %0 = fusion.group vertical (%a = %x, %b = %w) {cost = 1.5e-06 : f64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32> {
    %m = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %r = graph.relu %m : tensor<2x4xf32>
    fusion.yield %r : tensor<2x4xf32>
  }
  check.expect_eq_const %0, dense<[[2.0, 2.0, 2.0, 2.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<2x4xf32>
  return
}

// CHECK: 5 passed, 0 failed
