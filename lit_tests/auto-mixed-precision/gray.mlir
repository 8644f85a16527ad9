// Gray list: elementwise ops and views follow their neighbours. Between two
// reduced GEMMs the bias add, the GeLU and the transpose run in f16 (no cast
// between them); between black-list ops the add stays f32, since casting
// there would cost more than the bytes it saves.
// RUN: aic-opt %s --auto-mixed-precision | FileCheck %s

// CHECK-LABEL: func.func @between_gemms
// CHECK: %[[M:.*]] = graph.matmul {{.*}} -> tensor<64x256xf16>
// CHECK-NEXT: %[[B:.*]] = graph.bias_add %[[M]], {{.*}} : (tensor<64x256xf16>, tensor<256xf16>) -> tensor<64x256xf16>
// CHECK-NEXT: %[[G:.*]] = graph.gelu %[[B]] : tensor<64x256xf16>
// CHECK-NEXT: %[[T:.*]] = graph.transpose %[[G]], perm = [1, 0] : (tensor<64x256xf16>) -> tensor<256x64xf16>
// CHECK: graph.matmul {{.*}}, %[[T]] : {{.*}} -> tensor<128x64xf16>
func.func @between_gemms(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>, %b: tensor<256xf32>, %w2: tensor<128x256xf32>) -> tensor<128x64xf32> {
  %m = graph.matmul %x, %w : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %a = graph.bias_add %m, %b : (tensor<64x256xf32>, tensor<256xf32>) -> tensor<64x256xf32>
  %g = graph.gelu %a : tensor<64x256xf32>
  %t = graph.transpose %g, perm = [1, 0] : (tensor<64x256xf32>) -> tensor<256x64xf32>
  %m2 = graph.matmul %w2, %t : (tensor<128x256xf32>, tensor<256x64xf32>) -> tensor<128x64xf32>
  return %m2 : tensor<128x64xf32>
}

// CHECK-LABEL: func.func @between_statistics
// CHECK-NOT: graph.cast
// CHECK: graph.add %0, %arg1 : tensor<64x256xf32>
func.func @between_statistics(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %s = graph.softmax %x : tensor<64x256xf32>
  %a = graph.add %s, %y : tensor<64x256xf32>
  %t = graph.softmax %a : tensor<64x256xf32>
  return %t : tensor<64x256xf32>
}
