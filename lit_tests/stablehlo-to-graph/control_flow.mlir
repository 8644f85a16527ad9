// The bodies of while, if and case are program like a function's body:
// their ops become graph ops (the terminators stay stablehlo.return), while
// the ops of a reduction's body belong to their reduce. A dot_general
// with a vector operand (matrix-vector, vector-matrix, a dot product) is a
// graph.matmul between reshapes to one row or column.
// RUN: aic-opt %s --stablehlo-to-graph | FileCheck %s
// RUN: aic-run --interpret %s | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @loop(
// CHECK: stablehlo.while
// CHECK: cond {
// CHECK-NEXT: %{{.*}} = graph.compare LT, %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return
// CHECK: } do {
// CHECK: graph.add %{{.*}}, %{{.*}} : tensor<i32>
// CHECK: graph.exp %{{.*}} : tensor<4xf32>
// CHECK: graph.reduce sum %{{.*}}, axes = [0] : (tensor<4xf32>) -> tensor<f32>
// CHECK: stablehlo.return
// CHECK: "stablehlo.case"
// CHECK: graph.neg
// CHECK: stablehlo.return
// CHECK: graph.mul
// CHECK: stablehlo.return
func.func @loop(%x: tensor<4xf32>, %n: tensor<i32>, %k: tensor<i32>) -> (tensor<4xf32>, tensor<f32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r:3 = stablehlo.while(%i = %c, %v = %x, %s = %z) : tensor<i32>, tensor<4xf32>, tensor<f32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.exponential %v : tensor<4xf32>
    %t = stablehlo.reduce(%w init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %u = stablehlo.add %s, %t : tensor<f32>
    stablehlo.return %j, %w, %u : tensor<i32>, tensor<4xf32>, tensor<f32>
  }
  %y = "stablehlo.case"(%k) ({
    %a = stablehlo.negate %r#1 : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %b = stablehlo.multiply %r#1, %r#1 : tensor<4xf32>
    stablehlo.return %b : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %y, %r#2 : tensor<4xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @vector_dots(
// CHECK: %[[C:.*]] = graph.reshape %arg1 : (tensor<6xf32>) -> tensor<6x1xf32>
// CHECK: %[[MV:.*]] = graph.matmul %arg0, %[[C]] : (tensor<4x6xf32>, tensor<6x1xf32>) -> tensor<4x1xf32>
// CHECK: graph.reshape %[[MV]] : (tensor<4x1xf32>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = graph.reshape %arg2 : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK: graph.matmul %[[R]], %arg0 : (tensor<1x4xf32>, tensor<4x6xf32>) -> tensor<1x6xf32>
// CHECK: graph.matmul %{{.*}}, %{{.*}} : (tensor<1x6xf32>, tensor<6x1xf32>) -> tensor<1x1xf32>
// CHECK: graph.reshape %{{.*}} : (tensor<1x1xf32>) -> tensor<f32>
// CHECK: graph.matmul %arg0, %{{.*}} transpose_a : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<6x1xf32>
// CHECK-NOT: stablehlo.dot_general
func.func @vector_dots(%a: tensor<4x6xf32>, %x: tensor<6xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<6xf32>) {
  %0 = stablehlo.dot_general %a, %x, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4xf32>
  %1 = stablehlo.dot_general %y, %a, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4x6xf32>) -> tensor<6xf32>
  %2 = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<6xf32>, tensor<6xf32>) -> tensor<f32>
  %3 = stablehlo.dot_general %a, %y, contracting_dims = [0] x [0] : (tensor<4x6xf32>, tensor<4xf32>) -> tensor<6xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<6xf32>
}

// EXEC: PASS converted_dots_equal_dot_general
func.func @converted_dots_equal_dot_general() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 1.0, 0.0, 1.0, 0.0, 1.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [-1.0, 0.0, 1.0, 0.0, -1.0, 0.0]]> : tensor<4x6xf32>
  %x = stablehlo.constant dense<[1.0, -1.0, 2.0, 0.5, 0.0, 3.0]> : tensor<6xf32>
  %y = stablehlo.constant dense<[1.0, 2.0, -1.0, 0.5]> : tensor<4xf32>
  %r:4 = func.call @vector_dots(%a, %x, %y) : (tensor<4x6xf32>, tensor<6xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<6xf32>)
  %w0 = stablehlo.constant dense<[25.0, 2.5, 11.0, 1.0]> : tensor<4xf32>
  check.expect_almost_eq %r#0, %w0 : tensor<4xf32>
  %w1 = stablehlo.constant dense<[-1.5, 2.0, 1.5, 4.0, 2.5, 6.0]> : tensor<6xf32>
  check.expect_almost_eq %r#1, %w1 : tensor<6xf32>
  %w2 = stablehlo.constant dense<15.25> : tensor<f32>
  check.expect_almost_eq %r#2, %w2 : tensor<f32>
  check.expect_almost_eq %r#3, %w1 : tensor<6xf32>
  return
}
