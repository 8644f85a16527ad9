// Forms JAX exports that had no graph op: integer abs (max(x, 0 - x)),
// sign (selects by compares), argmax/argmin (a reduce of values and their
// iota by JAX's reducer: the extreme, then the smallest index holding it or
// a NaN), sort with JAX's comparator (keys canonicalised: -0 as +0, NaNs as
// +NaN), and a convolution writing NCHW input into an NHWC result (a
// transpose after the NCHW conv2d).
// RUN: aic-opt %s --stablehlo-to-graph | FileCheck %s

// CHECK-LABEL: func.func @abs_sign(
// CHECK-NEXT: %0 = graph.constant dense<0> : tensor<6xi32>
// CHECK-NEXT: %1 = graph.sub %0, %arg0 : tensor<6xi32>
// CHECK-NEXT: %2 = graph.max %arg0, %1 : tensor<6xi32>
// CHECK-NEXT: %3 = graph.constant dense<0.000000e+00> : tensor<6xf32>
// CHECK-NEXT: %4 = graph.constant dense<1.000000e+00> : tensor<6xf32>
// CHECK-NEXT: %5 = graph.constant dense<-1.000000e+00> : tensor<6xf32>
// CHECK-NEXT: %6 = graph.compare GT, %arg1, %3 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
// CHECK-NEXT: %7 = graph.compare LT, %arg1, %3 : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
// CHECK-NEXT: %8 = graph.select %7, %5, %arg1 : (tensor<6xi1>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: %9 = graph.select %6, %4, %8 : (tensor<6xi1>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
func.func @abs_sign(%a: tensor<6xi32>, %b: tensor<6xf32>) -> (tensor<6xi32>, tensor<6xf32>) {
  %0 = stablehlo.abs %a : tensor<6xi32>
  %1 = stablehlo.sign %b : tensor<6xf32>
  return %0, %1 : tensor<6xi32>, tensor<6xf32>
}

// CHECK-LABEL: func.func @argmax(
// CHECK: %[[M:.*]] = graph.reduce max %arg0, axes = [0] : (tensor<6x5xf32>) -> tensor<5xf32>
// CHECK-NEXT: %[[B:.*]] = graph.broadcast %[[M]], dims = [1] : (tensor<5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[EQ:.*]] = graph.compare EQ, %arg0, %[[B]]
// CHECK-NEXT: %[[NAN:.*]] = graph.compare NE, %arg0, %arg0
// CHECK-NEXT: %[[HIT:.*]] = graph.or %[[EQ]], %[[NAN]] : tensor<6x5xi1>
// CHECK-NEXT: %[[BIG:.*]] = graph.constant dense<6> : tensor<6x5xi32>
// CHECK-NEXT: %[[SEL:.*]] = graph.select %[[HIT]], %{{.*}}, %[[BIG]]
// CHECK-NEXT: %{{.*}} = graph.reduce min %[[SEL]], axes = [0] : (tensor<6x5xi32>) -> tensor<5xi32>
func.func @argmax(%arg0: tensor<6x5xf32>) -> tensor<5xi32> {
  %0 = stablehlo.iota dim = 0 : tensor<6x5xi32>
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<6x5xf32>, tensor<6x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
   reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
    %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
  }
  return %1#1 : tensor<5xi32>
}

// CHECK-LABEL: func.func @sort(
// CHECK: graph.sort %arg0, dim = 1 canonical : (tensor<6x5xf32>) -> tensor<6x5xf32>
func.func @sort(%arg0: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<6x5xf32>) -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// CHECK-LABEL: func.func @patches(
// CHECK-NEXT: %0 = graph.conv2d %arg0, %arg1, layout = NCHW, strides = [4, 4], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<1x3x16x16xf32>, tensor<32x3x4x4xf32>) -> tensor<1x32x4x4xf32>
// CHECK-NEXT: %1 = graph.transpose %0, perm = [0, 2, 3, 1] : (tensor<1x32x4x4xf32>) -> tensor<1x4x4x32xf32>
func.func @patches(%arg0: tensor<1x3x16x16xf32>, %arg1: tensor<32x3x4x4xf32>) -> tensor<1x4x4x32xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x16x16xf32>, tensor<32x3x4x4xf32>) -> tensor<1x4x4x32xf32>
  return %0 : tensor<1x4x4x32xf32>
}
