// White list: matrix products run in the reduced type (f32 accumulation in
// the kernel), their f32 operands cast once, and their results cast up where
// a black-list op (here softmax) reads them; f32 in and out.
// RUN: aic-opt %s --auto-mixed-precision | FileCheck %s
// RUN: aic-opt %s --auto-mixed-precision=dtype=bf16 | FileCheck %s --check-prefix=BF16

// CHECK-LABEL: func.func @mlp
// CHECK-DAG: %[[W:.*]] = graph.cast %arg1 : (tensor<768x768xf32>) -> tensor<768x768xf16>
// CHECK-DAG: %[[X:.*]] = graph.cast %arg0 : (tensor<512x768xf32>) -> tensor<512x768xf16>
// CHECK: %[[M:.*]] = graph.matmul %[[X]], %[[W]] : (tensor<512x768xf16>, tensor<768x768xf16>) -> tensor<512x768xf16>
// CHECK: %[[UP:.*]] = graph.cast %[[M]] : (tensor<512x768xf16>) -> tensor<512x768xf32>
// CHECK: graph.softmax %[[UP]] : tensor<512x768xf32>
// BF16-LABEL: func.func @mlp
// BF16: graph.matmul {{.*}} : (tensor<512x768xbf16>, tensor<768x768xbf16>) -> tensor<512x768xbf16>
// BF16: graph.softmax {{.*}} : tensor<512x768xf32>
func.func @mlp(%x: tensor<512x768xf32>, %w: tensor<768x768xf32>) -> tensor<512x768xf32> {
  %m = graph.matmul %x, %w : (tensor<512x768xf32>, tensor<768x768xf32>) -> tensor<512x768xf32>
  %s = graph.softmax %m : tensor<512x768xf32>
  return %s : tensor<512x768xf32>
}

// A convolution is on the white list too.
// CHECK-LABEL: func.func @conv
// CHECK: graph.conv2d {{.*}} : (tensor<8x32x32x64xf16>, tensor<3x3x64x64xf16>) -> tensor<8x30x30x64xf16>
func.func @conv(%x: tensor<8x32x32x64xf32>, %w: tensor<3x3x64x64xf32>) -> tensor<8x30x30x64xf32> {
  %c = graph.conv2d %x, %w, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<8x32x32x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x30x30x64xf32>
  return %c : tensor<8x30x30x64xf32>
}

// A product too small to gain what its casts cost stays f32.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT: graph.cast
// CHECK: graph.matmul %arg0, %arg1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @tiny(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = graph.matmul %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// Programs already in another precision are left alone.
// CHECK-LABEL: func.func @half
// CHECK-NOT: graph.cast
func.func @half(%x: tensor<512x768xf16>, %w: tensor<768x768xf16>) -> tensor<512x768xf16> {
  %m = graph.matmul %x, %w : (tensor<512x768xf16>, tensor<768x768xf16>) -> tensor<512x768xf16>
  return %m : tensor<512x768xf16>
}

// An f16 value the program casts up is read as it was (the round trip is exact).
// CHECK-LABEL: func.func @round_trip
// CHECK-NOT: graph.cast %arg0
// CHECK: graph.matmul %arg0, {{.*}} : (tensor<512x768xf16>, tensor<768x768xf16>) -> tensor<512x768xf16>
func.func @round_trip(%x: tensor<512x768xf16>, %w: tensor<768x768xf32>) -> tensor<512x768xf32> {
  %c = graph.cast %x : (tensor<512x768xf16>) -> tensor<512x768xf32>
  %m = graph.matmul %c, %w : (tensor<512x768xf32>, tensor<768x768xf32>) -> tensor<512x768xf32>
  return %m : tensor<512x768xf32>
}
