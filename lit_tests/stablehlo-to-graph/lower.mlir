// stablehlo-to-graph: the ops with a graph counterpart lower one for one
// (reductions from their identity, dot_general in matrix-product form,
// 2-d convolutions in NHWC or NCHW, a result in the other layout through a
// transpose, chlo's erf, erfc and square; integer abs as max(x, 0 - x));
// the others (a convolution with an input dilation) stay, and so do the
// bodies of the StableHLO ops that stay.
// RUN: aic-opt %s --stablehlo-to-graph | FileCheck %s

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT: %0 = graph.add %arg0, %arg1 : tensor<4x8xf32>
// CHECK-NEXT: %1 = graph.mul %0, %arg1 : tensor<4x8xf32>
// CHECK-NEXT: %2 = graph.exp %1 : tensor<4x8xf32>
// CHECK-NEXT: %3 = graph.sigmoid %2 : tensor<4x8xf32>
// CHECK-NEXT: %4 = graph.neg %3 : tensor<4x8xf32>
// CHECK-NEXT: %5 = graph.constant dense<0> : tensor<4x8xi32>
// CHECK-NEXT: %6 = graph.sub %5, %arg2 : tensor<4x8xi32>
// CHECK-NEXT: %7 = graph.max %arg2, %6 : tensor<4x8xi32>
// CHECK-NEXT: %8 = graph.cast %4 : (tensor<4x8xf32>) -> tensor<4x8xf16>
// CHECK-NEXT: %9 = graph.cast %8 : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK-NEXT: return %9, %7 : tensor<4x8xf32>, tensor<4x8xi32>
func.func @elementwise(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = stablehlo.add %x, %y : tensor<4x8xf32>
  %1 = stablehlo.multiply %0, %y : tensor<4x8xf32>
  %2 = stablehlo.exponential %1 : tensor<4x8xf32>
  %3 = stablehlo.logistic %2 : tensor<4x8xf32>
  %4 = stablehlo.negate %3 : tensor<4x8xf32>
  %5 = stablehlo.abs %i : tensor<4x8xi32>
  %6 = stablehlo.convert %4 : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %7 = stablehlo.convert %6 : (tensor<4x8xf16>) -> tensor<4x8xf32>
  return %7, %5 : tensor<4x8xf32>, tensor<4x8xi32>
}

// CHECK-LABEL: func.func @shapes(
// CHECK-NEXT: %0 = graph.broadcast %arg1, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = graph.transpose %0, perm = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %2 = graph.reshape %1 : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %3 = graph.slice %2 [0:4, 0:8:2] : (tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %4 = graph.concat %3, %3, axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %5 = graph.concat %4, %arg0, axis = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %5 : tensor<8x8xf32>
func.func @shapes(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.reshape %1 : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %3 = stablehlo.slice %2 [0:4, 0:8:2] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  %4 = stablehlo.concatenate %3, %3, dim = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %5 = stablehlo.concatenate %4, %x, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT: %0 = graph.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = graph.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %2 = graph.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %3 = graph.reduce sum %arg0, axes = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: %4 = graph.reduce max %arg0, axes = [0] : (tensor<4x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %5 = stablehlo.reduce(%arg0 init: %2) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %3, %4, %5 : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
func.func @reductions(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = stablehlo.reduce(%x init: %one) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @matmuls(
// CHECK-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: %1 = graph.matmul %arg0, %arg2 : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: %2 = graph.matmul %arg0, %arg3 transpose_b : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: %3 = graph.matmul %arg0, %arg0 transpose_a : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
// Any other dot_general (einsum's bqhd,bkhd->bhqk, batch dims that do not
// lead): both operands transposed to batch-major matrices, the rhs kept
// K-innermost under transpose_b, so that each transpose is a cheap view.
// CHECK-NEXT: %4 = graph.transpose %arg4, perm = [0, 2, 1, 3] : (tensor<2x4x3x8xf32>) -> tensor<2x3x4x8xf32>
// CHECK-NEXT: %5 = graph.transpose %arg4, perm = [0, 2, 1, 3] : (tensor<2x4x3x8xf32>) -> tensor<2x3x4x8xf32>
// CHECK-NEXT: %6 = graph.matmul %4, %5 transpose_b : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x4x4xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %6 : tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x8x8xf32>, tensor<2x3x4x4xf32>
func.func @matmuls(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %w: tensor<8x16xf32>, %wt: tensor<16x8xf32>, %q: tensor<2x4x3x8xf32>) -> (tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x8x8xf32>, tensor<2x3x4x4xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  %1 = stablehlo.dot_general %a, %w, contracting_dims = [2] x [0] : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %2 = stablehlo.dot_general %a, %wt, contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  %3 = stablehlo.dot_general %a, %a, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x8x8xf32>
  %4 = stablehlo.dot_general %q, %q, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<2x4x3x8xf32>, tensor<2x4x3x8xf32>) -> tensor<2x3x4x4xf32>
  return %0, %1, %2, %3, %4 : tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x4x16xf32>, tensor<2x8x8xf32>, tensor<2x3x4x4xf32>
}

// einsum's bhqk,bkhd->bqhd (P V with V's heads inside) and a contraction of
// two dims at once: the free and contracted dims each merged by a reshape,
// and the product reshaped back to the dot's result.
// CHECK-LABEL: func.func @einsums(
// CHECK-NEXT: %0 = graph.transpose %arg1, perm = [0, 2, 1, 3] : (tensor<2x5x3x8xf32>) -> tensor<2x3x5x8xf32>
// CHECK-NEXT: %1 = graph.matmul %arg0, %0 : (tensor<2x3x4x5xf32>, tensor<2x3x5x8xf32>) -> tensor<2x3x4x8xf32>
// CHECK-NEXT: %2 = graph.reshape %arg2 : (tensor<4x3x8xf32>) -> tensor<4x24xf32>
// CHECK-NEXT: %3 = graph.reshape %arg3 : (tensor<3x8x6xf32>) -> tensor<24x6xf32>
// CHECK-NEXT: %4 = graph.matmul %2, %3 : (tensor<4x24xf32>, tensor<24x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %1, %4
func.func @einsums(%p: tensor<2x3x4x5xf32>, %v: tensor<2x5x3x8xf32>, %x: tensor<4x3x8xf32>, %w: tensor<3x8x6xf32>) -> (tensor<2x3x4x8xf32>, tensor<4x6xf32>) {
  %0 = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<2x3x4x5xf32>, tensor<2x5x3x8xf32>) -> tensor<2x3x4x8xf32>
  %1 = stablehlo.dot_general %x, %w, contracting_dims = [1, 2] x [0, 1] : (tensor<4x3x8xf32>, tensor<3x8x6xf32>) -> tensor<4x6xf32>
  return %0, %1 : tensor<2x3x4x8xf32>, tensor<4x6xf32>
}

// CHECK-LABEL: func.func @convolutions(
// CHECK-NEXT: %0 = graph.conv2d %arg0, %arg1, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT: %1 = graph.conv2d %arg2, %arg3, layout = NCHW, strides = [1, 1], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x8x8xf32>
// CHECK-NEXT: %2 = graph.conv2d %arg2, %arg3, layout = NCHW, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>
// CHECK-NEXT: %3 = graph.transpose %2, perm = [0, 2, 3, 1] : (tensor<1x16x6x6xf32>) -> tensor<1x6x6x16xf32>
// CHECK-NEXT: %4 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x13x13xf32>
// CHECK-NEXT: return %0, %1, %3, %4 : tensor<1x4x4x16xf32>, tensor<1x16x8x8xf32>, tensor<1x6x6x16xf32>, tensor<1x16x13x13xf32>
func.func @convolutions(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>, %n: tensor<1x3x8x8xf32>, %ko: tensor<16x3x3x3xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x16x8x8xf32>, tensor<1x6x6x16xf32>, tensor<1x16x13x13xf32>) {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %1 = stablehlo.convolution(%n, %ko) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x8x8xf32>
  %2 = stablehlo.convolution(%n, %ko) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x6x6x16xf32>
  %3 = stablehlo.convolution(%n, %ko) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x13x13xf32>
  return %0, %1, %2, %3 : tensor<1x4x4x16xf32>, tensor<1x16x8x8xf32>, tensor<1x6x6x16xf32>, tensor<1x16x13x13xf32>
}

// CHECK-LABEL: func.func @chlo(
// CHECK-NEXT: %0 = graph.erf %arg0 : tensor<4xf32>
// CHECK-NEXT: %1 = graph.erfc %arg0 : tensor<4xf32>
// CHECK-NEXT: %2 = graph.mul %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT: return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
func.func @chlo(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf32>
  %2 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// A causal mask as JAX writes it: iotas, a compare, a select; and the
// remaining elementwise ops with graph counterparts. A comparison in total
// order stays.
// CHECK-LABEL: func.func @masks(
// CHECK-NEXT: %0 = graph.iota dim = 0 : tensor<4x4xi32>
// CHECK-NEXT: %1 = graph.iota dim = 1 : tensor<4x4xi32>
// CHECK-NEXT: %2 = graph.compare GE, %0, %1 : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
// CHECK-NEXT: %3 = graph.select %2, %arg0, %arg1 : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %4 = graph.sin %3 : tensor<4x4xf32>
// CHECK-NEXT: %5 = graph.cos %4 : tensor<4x4xf32>
// CHECK-NEXT: %6 = graph.floor %5 : tensor<4x4xf32>
// CHECK-NEXT: %7 = graph.ceil %6 : tensor<4x4xf32>
// CHECK-NEXT: %8 = graph.log1p %7 : tensor<4x4xf32>
// CHECK-NEXT: %9 = graph.expm1 %8 : tensor<4x4xf32>
// CHECK-NEXT: %10 = graph.rem %9, %arg1 : tensor<4x4xf32>
// CHECK-NEXT: %11 = graph.not %2 : tensor<4x4xi1>
// CHECK-NEXT: %12 = graph.and %2, %11 : tensor<4x4xi1>
// CHECK-NEXT: %13 = graph.or %12, %2 : tensor<4x4xi1>
// CHECK-NEXT: %14 = graph.xor %13, %2 : tensor<4x4xi1>
// CHECK-NEXT: %15 = stablehlo.compare LT, %10, %arg1, TOTALORDER : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
// CHECK-NEXT: return %10, %14, %15
func.func @masks(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xi1>) {
  %0 = stablehlo.iota dim = 0 : tensor<4x4xi32>
  %1 = stablehlo.iota dim = 1 : tensor<4x4xi32>
  %2 = stablehlo.compare GE, %0, %1, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  %3 = stablehlo.select %2, %x, %y : tensor<4x4xi1>, tensor<4x4xf32>
  %4 = stablehlo.sine %3 : tensor<4x4xf32>
  %5 = stablehlo.cosine %4 : tensor<4x4xf32>
  %6 = stablehlo.floor %5 : tensor<4x4xf32>
  %7 = stablehlo.ceil %6 : tensor<4x4xf32>
  %8 = stablehlo.log_plus_one %7 : tensor<4x4xf32>
  %9 = stablehlo.exponential_minus_one %8 : tensor<4x4xf32>
  %10 = stablehlo.remainder %9, %y : tensor<4x4xf32>
  %11 = stablehlo.not %2 : tensor<4x4xi1>
  %12 = stablehlo.and %2, %11 : tensor<4x4xi1>
  %13 = stablehlo.or %12, %2 : tensor<4x4xi1>
  %14 = stablehlo.xor %13, %2 : tensor<4x4xi1>
  %15 = stablehlo.compare LT, %10, %y, TOTALORDER : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
  return %10, %14, %15 : tensor<4x4xf32>, tensor<4x4xi1>, tensor<4x4xi1>
}
