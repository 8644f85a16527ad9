// Black list: statistics, reductions and transcendental functions stay f32
// even between reduced GEMMs; their operands are cast up and their results
// cast down once for the next GEMM.
// RUN: aic-opt %s --auto-mixed-precision | FileCheck %s

// CHECK-LABEL: func.func @exp_between_gemms
// CHECK: %[[M:.*]] = graph.matmul {{.*}} -> tensor<256x256xf16>
// CHECK: %[[UP:.*]] = graph.cast %[[M]] : (tensor<256x256xf16>) -> tensor<256x256xf32>
// CHECK: %[[E:.*]] = graph.exp %[[UP]] : tensor<256x256xf32>
// CHECK: %[[DOWN:.*]] = graph.cast %[[E]] : (tensor<256x256xf32>) -> tensor<256x256xf16>
// CHECK: graph.matmul %[[DOWN]], {{.*}} -> tensor<256x256xf16>
func.func @exp_between_gemms(%x: tensor<256x256xf32>, %w: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %m = graph.matmul %x, %w : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %e = graph.exp %m : tensor<256x256xf32>
  %m2 = graph.matmul %e, %w : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %m2 : tensor<256x256xf32>
}

// CHECK-LABEL: func.func @statistics
// CHECK: graph.matmul {{.*}} -> tensor<256x256xf16>
// CHECK: graph.layernorm {{.*}} : (tensor<256x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<256x256xf32>
// CHECK: graph.reduce sum {{.*}} : (tensor<256x256xf32>) -> tensor<256xf32>
func.func @statistics(%x: tensor<256x256xf32>, %w: tensor<256x256xf32>, %g: tensor<256xf32>, %b: tensor<256xf32>) -> tensor<256xf32> {
  %m = graph.matmul %x, %w : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %n = graph.layernorm %m, %g, %b : (tensor<256x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<256x256xf32>
  %r = graph.reduce sum %n, axes = [1] : (tensor<256x256xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
