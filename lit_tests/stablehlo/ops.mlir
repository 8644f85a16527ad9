// Every StableHLO op in its pretty syntax (and the generic-only ops in the
// generic form), as stablehlo-opt prints them; the generic form parses too, and
// printing is stable.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s

// CHECK-LABEL: func.func @unary(
// CHECK-NEXT: %0 = stablehlo.abs %arg0 : tensor<2xi32>
// CHECK-NEXT: %1 = stablehlo.abs %arg2 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT: %2 = stablehlo.cbrt %arg1 : tensor<2xf32>
// CHECK-NEXT: %3 = stablehlo.ceil %arg1 : tensor<2xf32>
// CHECK-NEXT: %4 = stablehlo.convert %arg0 : (tensor<2xi32>) -> tensor<2xf32>
// CHECK-NEXT: %5 = stablehlo.convert %arg1 : tensor<2xf32>
// CHECK-NEXT: %6 = stablehlo.count_leading_zeros %arg0 : tensor<2xi32>
// CHECK-NEXT: %7 = stablehlo.cosine %arg1 : tensor<2xf32>
// CHECK-NEXT: %8 = stablehlo.exponential %arg2 : tensor<2xcomplex<f32>>
// CHECK-NEXT: %9 = stablehlo.exponential_minus_one %arg1 : tensor<2xf32>
// CHECK-NEXT: %10 = stablehlo.floor %arg1 : tensor<2xf32>
// CHECK-NEXT: %11 = stablehlo.imag %arg2 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT: %12 = stablehlo.is_finite %arg1 : (tensor<2xf32>) -> tensor<2xi1>
// CHECK-NEXT: %13 = stablehlo.log %arg1 : tensor<2xf32>
// CHECK-NEXT: %14 = stablehlo.log_plus_one %arg1 : tensor<2xf32>
// CHECK-NEXT: %15 = stablehlo.logistic %arg1 : tensor<2xf32>
// CHECK-NEXT: %16 = stablehlo.not %arg0 : tensor<2xi32>
// CHECK-NEXT: %17 = stablehlo.negate %arg1 : tensor<2xf32>
// CHECK-NEXT: %18 = stablehlo.popcnt %arg0 : tensor<2xi32>
// CHECK-NEXT: %19 = stablehlo.real %arg2 : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
// CHECK-NEXT: %20 = stablehlo.round_nearest_afz %arg1 : tensor<2xf32>
// CHECK-NEXT: %21 = stablehlo.round_nearest_even %arg1 : tensor<2xf32>
// CHECK-NEXT: %22 = stablehlo.rsqrt %arg1 : tensor<2xf32>
// CHECK-NEXT: %23 = stablehlo.sign %arg1 : tensor<2xf32>
// CHECK-NEXT: %24 = stablehlo.sine %arg1 : tensor<2xf32>
// CHECK-NEXT: %25 = stablehlo.sqrt %arg1 : tensor<2xf32>
// CHECK-NEXT: %26 = stablehlo.tan %arg1 : tensor<2xf32>
// CHECK-NEXT: %27 = stablehlo.tanh %arg1 : tensor<2xf32>
// CHECK-NEXT: %28 = stablehlo.reduce_precision %arg1, format = e5m10 : tensor<2xf32>
// CHECK-NEXT: %29 = stablehlo.bitcast_convert %arg1 : (tensor<2xf32>) -> tensor<2xi32>
// CHECK-NEXT: %30 = stablehlo.bitcast_convert %arg1 : (tensor<2xf32>) -> tensor<2x2xi16>
// CHECK-NEXT: return
func.func @unary(%i: tensor<2xi32>, %f: tensor<2xf32>, %c: tensor<2xcomplex<f32>>) {
  %0 = "stablehlo.abs"(%i) : (tensor<2xi32>) -> tensor<2xi32>
  %1 = stablehlo.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %2 = stablehlo.cbrt %f : tensor<2xf32>
  %3 = stablehlo.ceil %f : tensor<2xf32>
  %4 = stablehlo.convert %i : (tensor<2xi32>) -> tensor<2xf32>
  %5 = stablehlo.convert %f : tensor<2xf32>
  %6 = stablehlo.count_leading_zeros %i : tensor<2xi32>
  %7 = stablehlo.cosine %f : tensor<2xf32>
  %8 = stablehlo.exponential %c : tensor<2xcomplex<f32>>
  %9 = stablehlo.exponential_minus_one %f : tensor<2xf32>
  %10 = stablehlo.floor %f : tensor<2xf32>
  %11 = stablehlo.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %12 = stablehlo.is_finite %f : (tensor<2xf32>) -> tensor<2xi1>
  %13 = stablehlo.log %f : tensor<2xf32>
  %14 = stablehlo.log_plus_one %f : tensor<2xf32>
  %15 = stablehlo.logistic %f : tensor<2xf32>
  %16 = stablehlo.not %i : tensor<2xi32>
  %17 = stablehlo.negate %f : tensor<2xf32>
  %18 = stablehlo.popcnt %i : tensor<2xi32>
  %19 = stablehlo.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %20 = stablehlo.round_nearest_afz %f : tensor<2xf32>
  %21 = stablehlo.round_nearest_even %f : tensor<2xf32>
  %22 = stablehlo.rsqrt %f : tensor<2xf32>
  %23 = stablehlo.sign %f : tensor<2xf32>
  %24 = stablehlo.sine %f : tensor<2xf32>
  %25 = stablehlo.sqrt %f : tensor<2xf32>
  %26 = stablehlo.tan %f : tensor<2xf32>
  %27 = stablehlo.tanh %f : tensor<2xf32>
  %28 = stablehlo.reduce_precision %f, format = e5m10 : tensor<2xf32>
  %29 = stablehlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2xi32>
  %30 = stablehlo.bitcast_convert %f : (tensor<2xf32>) -> tensor<2x2xi16>
  return
}

// CHECK-LABEL: func.func @binary(
// CHECK-NEXT: %0 = stablehlo.add %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %1 = stablehlo.add %arg0, %arg0 : tensor<2xi1>
// CHECK-NEXT: %2 = stablehlo.and %arg1, %arg1 : tensor<2xi32>
// CHECK-NEXT: %3 = stablehlo.atan2 %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %4 = stablehlo.complex %arg3, %arg3 : tensor<2xcomplex<f32>>
// CHECK-NEXT: %5 = stablehlo.divide %arg2, %arg2 : tensor<2xui8>
// CHECK-NEXT: %6 = stablehlo.maximum %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %7 = stablehlo.minimum %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %8 = stablehlo.multiply %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %9 = stablehlo.or %arg0, %arg0 : tensor<2xi1>
// CHECK-NEXT: %10 = stablehlo.power %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %11 = stablehlo.remainder %arg1, %arg1 : tensor<2xi32>
// CHECK-NEXT: %12 = stablehlo.shift_left %arg1, %arg1 : tensor<2xi32>
// CHECK-NEXT: %13 = stablehlo.shift_right_arithmetic %arg1, %arg1 : tensor<2xi32>
// CHECK-NEXT: %14 = stablehlo.shift_right_logical %arg1, %arg1 : tensor<2xi32>
// CHECK-NEXT: %15 = stablehlo.subtract %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: %16 = stablehlo.xor %arg0, %arg0 : tensor<2xi1>
// CHECK-NEXT: %17 = stablehlo.compare EQ, %arg3, %arg3, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
// CHECK-NEXT: %18 = stablehlo.compare GE, %arg1, %arg1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
// CHECK-NEXT: %19 = stablehlo.compare NE, %arg2, %arg2 : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
// CHECK-NEXT: %20 = stablehlo.select %arg0, %arg3, %arg3 : tensor<2xi1>, tensor<2xf32>
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: %21 = stablehlo.select %c, %arg3, %arg3 : tensor<i1>, tensor<2xf32>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %22 = stablehlo.clamp %cst, %arg3, %cst : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
// CHECK-NEXT: %23 = stablehlo.clamp %arg3, %arg3, %arg3 : tensor<2xf32>
// CHECK-NEXT: return
func.func @binary(%p: tensor<2xi1>, %i: tensor<2xi32>, %u: tensor<2xui8>, %f: tensor<2xf32>) {
  %0 = stablehlo.add %f, %f : tensor<2xf32>
  %1 = "stablehlo.add"(%p, %p) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %2 = stablehlo.and %i, %i : tensor<2xi32>
  %3 = stablehlo.atan2 %f, %f : tensor<2xf32>
  %4 = stablehlo.complex %f, %f : tensor<2xcomplex<f32>>
  %5 = stablehlo.divide %u, %u : tensor<2xui8>
  %6 = stablehlo.maximum %f, %f : tensor<2xf32>
  %7 = stablehlo.minimum %f, %f : tensor<2xf32>
  %8 = stablehlo.multiply %f, %f : tensor<2xf32>
  %9 = stablehlo.or %p, %p : tensor<2xi1>
  %10 = stablehlo.power %f, %f : tensor<2xf32>
  %11 = stablehlo.remainder %i, %i : tensor<2xi32>
  %12 = stablehlo.shift_left %i, %i : tensor<2xi32>
  %13 = stablehlo.shift_right_arithmetic %i, %i : tensor<2xi32>
  %14 = stablehlo.shift_right_logical %i, %i : tensor<2xi32>
  %15 = stablehlo.subtract %f, %f : tensor<2xf32>
  %16 = stablehlo.xor %p, %p : tensor<2xi1>
  %17 = stablehlo.compare  EQ, %f, %f,  FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %18 = "stablehlo.compare"(%i, %i) {comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type SIGNED>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %19 = stablehlo.compare NE, %u, %u : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  %20 = stablehlo.select %p, %f, %f : tensor<2xi1>, tensor<2xf32>
  %s = stablehlo.constant dense<true> : tensor<i1>
  %21 = stablehlo.select %s, %f, %f : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %22 = stablehlo.clamp %z, %f, %z : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %23 = stablehlo.clamp %f, %f, %f : tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @constants(
// CHECK-NEXT: %c = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT: %cst = stablehlo.constant dense<1.500000e+00> : tensor<2x2xf32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT: %cst_1 = stablehlo.constant {note = "x"} dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>
// CHECK-NEXT: %cst_2 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK-NEXT: %c_3 = stablehlo.constant dense<[1, -2]> : tensor<2xi4>
// CHECK-NEXT: %0 = stablehlo.iota dim = 1 : tensor<2x3xf32>
// CHECK-NEXT: %1 = stablehlo.iota dim = 0 : tensor<4xui32>
// CHECK-NEXT: %2 = stablehlo.replica_id : tensor<ui32>
// CHECK-NEXT: %3 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %4 = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT: return
func.func @constants() {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %1 = stablehlo.constant dense<1.500000e+00> : tensor<2x2xf32>
  %2 = "stablehlo.constant"() <{value = dense<[true, false]> : tensor<2xi1>}> : () -> tensor<2xi1>
  %3 = stablehlo.constant {note = "x"} dense<(1.0, 2.0)> : tensor<complex<f32>>
  %4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %5 = stablehlo.constant dense<[1, -2]> : tensor<2xi4>
  %6 = stablehlo.iota dim = 1 : tensor<2x3xf32>
  %7 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xui32>
  %8 = stablehlo.replica_id : tensor<ui32>
  %9 = stablehlo.partition_id : tensor<ui32>
  %10 = stablehlo.create_token : !stablehlo.token
  return
}

// CHECK-LABEL: func.func @shapes(
// CHECK-NEXT: %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = stablehlo.broadcast %arg1, sizes = [4] : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %2 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %3 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %4 = stablehlo.reverse %arg0, dims = [0, 1] : tensor<2x3xf32>
// CHECK-NEXT: %5 = stablehlo.slice %arg0 [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %6 = stablehlo.slice %arg0 [1:2, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %7 = stablehlo.dynamic_slice %arg0, %arg2, %arg2, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
// CHECK-NEXT: %8 = stablehlo.dynamic_update_slice %arg0, %7, %arg2, %arg2 : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf32>
// CHECK-NEXT: %9 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %10 = stablehlo.pad %arg0, %arg3, low = [0, 1], high = [1, -1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK-NEXT: %11 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
// CHECK-NEXT: return
func.func @shapes(%a: tensor<2x3xf32>, %v: tensor<3xf32>, %i: tensor<i64>, %pv: tensor<f32>) {
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "stablehlo.broadcast"(%v) {broadcast_sizes = array<i64: 4>} : (tensor<3xf32>) -> tensor<4x3xf32>
  %2 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = stablehlo.reverse %a, dims = [0, 1] : tensor<2x3xf32>
  %5 = stablehlo.slice %a [0:2, 0:3:2] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  %6 = "stablehlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %7 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
  %8 = stablehlo.dynamic_update_slice %a, %7, %i, %i : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf32>
  %9 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %10 = stablehlo.pad %a, %pv, low = [0, 1], high = [1, -1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  %11 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  return
}

// CHECK-LABEL: func.func @structured(
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %arg2, %arg2, contracting_dims = [1] x [1] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %2 = stablehlo.dot %arg2, %arg2, precision = [HIGH, HIGHEST] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %3 = stablehlo.dot %arg2, %arg2 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %4 = stablehlo.convolution(%arg3, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}1, 1], [1, 1{{\]\]}}, lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT: %5 = stablehlo.convolution(%arg3, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
// CHECK-NEXT: %6 = stablehlo.custom_call @foo(%arg2) {backend_config = "", has_side_effect = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %7 = stablehlo.custom_call @"not-an-id"(%arg2, %arg2) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1xf32>
// CHECK-NEXT: %8 = stablehlo.composite "my.op" %arg2 {composite_attributes = {k = 1 : i32}, decomposition = @dec, version = 1 : i32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %9 = stablehlo.tuple %arg2, %arg2 : tuple<tensor<3x4xf32>, tensor<3x4xf32>>
// CHECK-NEXT: %10 = stablehlo.get_tuple_element %9[1] : (tuple<tensor<3x4xf32>, tensor<3x4xf32>>) -> tensor<3x4xf32>
// CHECK-NEXT: %11 = stablehlo.tuple : tuple<>
// CHECK-NEXT: stablehlo.optimization_barrier()
// CHECK-NEXT: %12 = stablehlo.optimization_barrier %arg2 : tensor<3x4xf32>
// CHECK-NEXT: %13:2 = stablehlo.optimization_barrier %arg2, %arg0 : tensor<3x4xf32>, tensor<2x3x4xf32>
// CHECK-NEXT: return
func.func @structured(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = "stablehlo.dot_general"(%m, %m) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
  %2 = stablehlo.dot %m, %m, precision = [HIGH, HIGHEST] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
  %3 = "stablehlo.dot"(%m, %m) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
  %4 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %5 = "stablehlo.convolution"(%img, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  %6 = stablehlo.custom_call @foo(%m) {backend_config = "", has_side_effect = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %7 = stablehlo.custom_call @"not-an-id"(%m, %m) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1xf32>
  %8 = stablehlo.composite "my.op" %m {composite_attributes = {k = 1 : i32}, decomposition = @dec, version = 1 : i32} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %9 = stablehlo.tuple %m, %m : tuple<tensor<3x4xf32>, tensor<3x4xf32>>
  %10 = stablehlo.get_tuple_element %9[1] : (tuple<tensor<3x4xf32>, tensor<3x4xf32>>) -> tensor<3x4xf32>
  %11 = stablehlo.tuple : tuple<>
  stablehlo.optimization_barrier()
  %12 = stablehlo.optimization_barrier %m : tensor<3x4xf32>
  %13:2 = stablehlo.optimization_barrier %m, %a : tensor<3x4xf32>, tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func private @dec(
// CHECK-NEXT: return %arg0 : tensor<3x4xf32>
func.func private @dec(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  return %x : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @regions(
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT: %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %2 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: reducer(%arg4: tensor<f32>, %arg5: tensor<f32>)  {
// CHECK-NEXT: %10 = stablehlo.maximum %arg5, %arg4 : tensor<f32>
// CHECK-NEXT: stablehlo.return %10 : tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %3:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
// CHECK-NEXT: reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {
// CHECK-NEXT: %10 = stablehlo.add %arg4, %arg6 : tensor<f32>
// CHECK-NEXT: %11 = stablehlo.add %arg5, %arg7 : tensor<i32>
// CHECK-NEXT: stablehlo.return %10, %11 : tensor<f32>, tensor<i32>
// CHECK-NEXT: }
// CHECK-NEXT: %4 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<{{\[\[}}1, 0], [0, 0{{\]\]}}> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %10 = stablehlo.add %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %10 : tensor<f32>
// CHECK-NEXT: }) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: %5 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %10 = stablehlo.compare LT, %arg4, %arg5, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %10 : tensor<i1>
// CHECK-NEXT: }) : (tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %6:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %cst) : tensor<i32>, tensor<f32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c_1 = stablehlo.constant dense<10> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %10 : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %c_1 = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %10 = stablehlo.add %iterArg, %c_1 : tensor<i32>
// CHECK-NEXT: stablehlo.return %10, %iterArg_0 : tensor<i32>, tensor<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %7 = "stablehlo.if"(%arg2) ({
// CHECK-NEXT: stablehlo.return %cst : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: stablehlo.return %cst_0 : tensor<f32>
// CHECK-NEXT: }) : (tensor<i1>) -> tensor<f32>
// CHECK-NEXT: %8 = "stablehlo.case"(%arg3) ({
// CHECK-NEXT: stablehlo.return %cst : tensor<f32>
// CHECK-NEXT: }, {
// CHECK-NEXT: stablehlo.return %cst : tensor<f32>
// CHECK-NEXT: }) : (tensor<i32>) -> tensor<f32>
// CHECK-NEXT: %9 = "stablehlo.map"(%arg0, %arg0) <{dimensions = array<i64: 0, 1>}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %10 = stablehlo.multiply %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %10 : tensor<f32>
// CHECK-NEXT: }) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return
func.func @regions(%m: tensor<3x4xf32>, %n: tensor<3x4xi32>, %p: tensor<i1>, %idx: tensor<i32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = "stablehlo.reduce"(%m, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
  %2 = stablehlo.reduce(%m init: %z) across dimensions = [0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
    reducer(%x: tensor<f32>, %y: tensor<f32>)  {
      %s = stablehlo.maximum %y, %x : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  %3:2 = stablehlo.reduce(%m init: %z), (%n init: %zi) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
    reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
      %s = stablehlo.add %a, %c : tensor<f32>
      %t = stablehlo.add %b, %d : tensor<i32>
      stablehlo.return %s, %t : tensor<f32>, tensor<i32>
    }
  %4 = "stablehlo.reduce_window"(%m, %z) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  %5 = "stablehlo.sort"(%m) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %6:2 = stablehlo.while(%iterArg = %zi, %acc = %z) : tensor<i32>, tensor<f32>
    cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %lt = stablehlo.compare LT, %iterArg, %ten, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n1 = stablehlo.add %iterArg, %one : tensor<i32>
      stablehlo.return %n1, %acc : tensor<i32>, tensor<f32>
    }
  %7 = "stablehlo.if"(%p) ({
    stablehlo.return %z : tensor<f32>
  }, {
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %one : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  %8 = "stablehlo.case"(%idx) ({
    stablehlo.return %z : tensor<f32>
  }, {
    stablehlo.return %z : tensor<f32>
  }) : (tensor<i32>) -> tensor<f32>
  %9 = "stablehlo.map"(%m, %m) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @gather_scatter(
// CHECK-NEXT: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
// CHECK-NEXT: %1 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %3 = stablehlo.add %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %3 : tensor<f32>
// CHECK-NEXT: }) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %2 = "stablehlo.select_and_scatter"(%arg0, %arg3, %cst) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %3 = stablehlo.compare GE, %arg4, %arg5 : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT: stablehlo.return %3 : tensor<i1>
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
// CHECK-NEXT: %3 = stablehlo.add %arg4, %arg5 : tensor<f32>
// CHECK-NEXT: stablehlo.return %3 : tensor<f32>
// CHECK-NEXT: }) : (tensor<3x4xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: return
func.func @gather_scatter(%m: tensor<3x4xf32>, %ind: tensor<2x1xi32>, %upd: tensor<2x4xf32>, %src: tensor<3x2xf32>) {
  %0 = "stablehlo.gather"(%m, %ind) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  %1 = "stablehlo.scatter"(%m, %ind, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = "stablehlo.select_and_scatter"(%m, %src, %z) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %ge = stablehlo.compare GE, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @dot_algorithm(
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return
func.func @dot_algorithm(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
