// Products that widen: i8 x i8 -> i32 (exact integer accumulation, the
// interpreter's semantics and mma.sync's s8 form) and the fp8 formats
// f8E4M3FN / f8E5M2 into f32; round trip and the interpreter's result.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s | FileCheck %s --check-prefix=EXEC
// EXEC-DAG: PASS extremes
// EXEC-DAG: PASS fp8_values
// EXEC: 2 passed, 0 failed

// CHECK-LABEL: func.func @int8
// CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
// CHECK: graph.matmul %{{.*}}, %{{.*}} transpose_b : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x2xi32>
// CHECK: graph.batch_matmul %{{.*}}, %{{.*}} : (tensor<1x2x3xi8>, tensor<1x3x2xi8>) -> tensor<1x2x2xi32>
func.func @int8(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %bt: tensor<2x3xi8>, %c: tensor<1x2x3xi8>, %d: tensor<1x3x2xi8>) -> (tensor<2x2xi32>, tensor<2x2xi32>, tensor<1x2x2xi32>) {
  %0 = graph.matmul %a, %b : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  %1 = graph.matmul %a, %bt transpose_b : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x2xi32>
  %2 = graph.batch_matmul %c, %d : (tensor<1x2x3xi8>, tensor<1x3x2xi8>) -> tensor<1x2x2xi32>
  return %0, %1, %2 : tensor<2x2xi32>, tensor<2x2xi32>, tensor<1x2x2xi32>
}

// CHECK-LABEL: func.func @fp8
// CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x4xf8E4M3FN>, tensor<4x3xf8E4M3FN>) -> tensor<2x3xf32>
// CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<2x4xf8E5M2>, tensor<4x3xf8E5M2>) -> tensor<2x3xf32>
func.func @fp8(%a: tensor<2x4xf8E4M3FN>, %b: tensor<4x3xf8E4M3FN>, %c: tensor<2x4xf8E5M2>, %d: tensor<4x3xf8E5M2>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.matmul %a, %b : (tensor<2x4xf8E4M3FN>, tensor<4x3xf8E4M3FN>) -> tensor<2x3xf32>
  %1 = graph.matmul %c, %d : (tensor<2x4xf8E5M2>, tensor<4x3xf8E5M2>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// The extremes accumulate exactly in i32: (-128)(-128) + 127·127 + (-128)·127
// = 16384 + 16129 - 16256 = 16257.
func.func @extremes() {
  %a = graph.constant dense<[[-128, 127, -128], [127, 127, 127]]> : tensor<2x3xi8>
  %b = graph.constant dense<[[-128, 0], [127, -128], [127, 0]]> : tensor<3x2xi8>
  %0 = graph.matmul %a, %b : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  check.expect_eq_const %0, dense<[[16257, -16256], [16002, -16256]]> : tensor<2x2xi32>
  return
}

// e4m3 products summed in f32: 1.5 · 2 + 0.25 · (-4) = 2, 448 · 2 = 896;
// 1.5 · 448 + 0.25 = 672.25, 448 · 448 = 200704 (e4m3's largest, squared).
func.func @fp8_values() {
  %a = graph.constant dense<[[1.5, 0.25], [448.0, 0.0]]> : tensor<2x2xf8E4M3FN>
  %b = graph.constant dense<[[2.0], [-4.0]]> : tensor<2x1xf8E4M3FN>
  %c = graph.constant dense<[[448.0], [1.0]]> : tensor<2x1xf8E4M3FN>
  %0 = graph.matmul %a, %b : (tensor<2x2xf8E4M3FN>, tensor<2x1xf8E4M3FN>) -> tensor<2x1xf32>
  %1 = graph.matmul %a, %c : (tensor<2x2xf8E4M3FN>, tensor<2x1xf8E4M3FN>) -> tensor<2x1xf32>
  check.expect_eq_const %0, dense<[[2.0], [896.0]]> : tensor<2x1xf32>
  check.expect_eq_const %1, dense<[[672.25], [200704.0]]> : tensor<2x1xf32>
  return
}
