// The StableHLO interpreter, op by op, with the spec's edge cases: integer
// wrap-around (i4, i8, ui8), XLA's division by zero, out-of-range shifts, NaN
// and infinities, -0.0, float rounding to f16/bf16/f8, empty tensors, complex
// numbers. An unsupported op (custom_call) and a failed check fail only their
// own function.
// RUN: not aic-run --interpret %s | FileCheck %s

// CHECK: PASS int_add_wraps
func.func @int_add_wraps() {
  %a = stablehlo.constant dense<[127, -128, 100]> : tensor<3xi8>
  %b = stablehlo.constant dense<[1, -1, 100]> : tensor<3xi8>
  %r = stablehlo.add %a, %b : tensor<3xi8>
  check.expect_eq_const %r, dense<[-128, 127, -56]> : tensor<3xi8>
  %m = stablehlo.multiply %a, %b : tensor<3xi8>
  check.expect_eq_const %m, dense<[127, -128, 16]> : tensor<3xi8>
  return
}

// CHECK: PASS i4_arithmetic
func.func @i4_arithmetic() {
  %a = stablehlo.constant dense<[7, -8, 3]> : tensor<3xi4>
  %b = stablehlo.constant dense<[1, -1, 2]> : tensor<3xi4>
  %s = stablehlo.add %a, %b : tensor<3xi4>
  check.expect_eq_const %s, dense<[-8, 7, 5]> : tensor<3xi4>
  %m = stablehlo.multiply %a, %b : tensor<3xi4>
  check.expect_eq_const %m, dense<[7, -8, 6]> : tensor<3xi4>
  %n = stablehlo.negate %a : tensor<3xi4>
  check.expect_eq_const %n, dense<[-7, -8, -3]> : tensor<3xi4>
  %c = stablehlo.convert %a : (tensor<3xi4>) -> tensor<3xi32>
  check.expect_eq_const %c, dense<[7, -8, 3]> : tensor<3xi32>
  return
}

// CHECK: PASS unsigned_ops
func.func @unsigned_ops() {
  %a = stablehlo.constant dense<[0, 200, 255]> : tensor<3xui8>
  %b = stablehlo.constant dense<[1, 3, 1]> : tensor<3xui8>
  %d = stablehlo.subtract %a, %b : tensor<3xui8>
  check.expect_eq_const %d, dense<[255, 197, 254]> : tensor<3xui8>
  %q = stablehlo.divide %a, %b : tensor<3xui8>
  check.expect_eq_const %q, dense<[0, 66, 255]> : tensor<3xui8>
  %s = stablehlo.shift_right_arithmetic %a, %b : tensor<3xui8>
  check.expect_eq_const %s, dense<[0, 249, 255]> : tensor<3xui8>
  %gt = stablehlo.compare GT, %a, %b : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
  check.expect_eq_const %gt, dense<[false, true, true]> : tensor<3xi1>
  %f = stablehlo.convert %a : (tensor<3xui8>) -> tensor<3xf32>
  check.expect_eq_const %f, dense<[0.0, 200.0, 255.0]> : tensor<3xf32>
  return
}

// CHECK: PASS division_by_zero_and_overflow
func.func @division_by_zero_and_overflow() {
  %a = stablehlo.constant dense<[7, -7, -2147483648]> : tensor<3xi32>
  %b = stablehlo.constant dense<[0, 0, -1]> : tensor<3xi32>
  %q = stablehlo.divide %a, %b : tensor<3xi32>
  check.expect_eq_const %q, dense<[-1, -1, -2147483648]> : tensor<3xi32>
  %r = stablehlo.remainder %a, %b : tensor<3xi32>
  check.expect_eq_const %r, dense<[7, -7, 0]> : tensor<3xi32>
  %abs = stablehlo.abs %a : tensor<3xi32>
  check.expect_eq_const %abs, dense<[7, 7, -2147483648]> : tensor<3xi32>
  return
}

// CHECK: PASS bits
func.func @bits() {
  %a = stablehlo.constant dense<[1, -1, 255, 0]> : tensor<4xi32>
  %n = stablehlo.constant dense<[4, 1, 32, 33]> : tensor<4xi32>
  %l = stablehlo.shift_left %a, %n : tensor<4xi32>
  check.expect_eq_const %l, dense<[16, -2, 0, 0]> : tensor<4xi32>
  %ra = stablehlo.shift_right_arithmetic %a, %n : tensor<4xi32>
  check.expect_eq_const %ra, dense<[0, -1, 0, 0]> : tensor<4xi32>
  %rl = stablehlo.shift_right_logical %a, %n : tensor<4xi32>
  check.expect_eq_const %rl, dense<[0, 2147483647, 0, 0]> : tensor<4xi32>
  %p = stablehlo.popcnt %a : tensor<4xi32>
  check.expect_eq_const %p, dense<[1, 32, 8, 0]> : tensor<4xi32>
  %z = stablehlo.count_leading_zeros %a : tensor<4xi32>
  check.expect_eq_const %z, dense<[31, 0, 24, 32]> : tensor<4xi32>
  %x = stablehlo.not %a : tensor<4xi32>
  check.expect_eq_const %x, dense<[-2, 0, -256, -1]> : tensor<4xi32>
  %t = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %nt = stablehlo.not %t : tensor<2xi1>
  check.expect_eq_const %nt, dense<[false, true]> : tensor<2xi1>
  %pw = stablehlo.constant dense<[2, 2, -1, 3]> : tensor<4xi32>
  %e = stablehlo.constant dense<[10, -1, -3, 0]> : tensor<4xi32>
  %pr = stablehlo.power %pw, %e : tensor<4xi32>
  check.expect_eq_const %pr, dense<[1024, 0, -1, 1]> : tensor<4xi32>
  return
}

// CHECK: PASS float_specials
func.func @float_specials() {
  %a = stablehlo.constant dense<[0x7FC00000, 1.0, -1.0, 0.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[1.0, 0.0, 0.0, 0.0]> : tensor<4xf32>
  %mx = stablehlo.maximum %a, %b : tensor<4xf32>
  check.expect_eq_const %mx, dense<[0x7FC00000, 1.0, 0.0, 0.0]> : tensor<4xf32>
  %mn = stablehlo.minimum %a, %b : tensor<4xf32>
  check.expect_eq_const %mn, dense<[0x7FC00000, 0.0, -1.0, 0.0]> : tensor<4xf32>
  %d = stablehlo.divide %a, %b : tensor<4xf32>
  check.expect_eq_const %d, dense<[0x7FC00000, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<4xf32>
  %f = stablehlo.is_finite %d : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %f, dense<false> : tensor<4xi1>
  %s = stablehlo.sqrt %a : tensor<4xf32>
  check.expect_eq_const %s, dense<[0x7FC00000, 1.0, 0x7FC00000, 0.0]> : tensor<4xf32>
  %l = stablehlo.log %b : tensor<4xf32>
  check.expect_eq_const %l, dense<[0.0, 0xFF800000, 0xFF800000, 0xFF800000]> : tensor<4xf32>
  %neg0 = stablehlo.constant dense<[-0.0, 2.5, -2.5, 0x7FC00000]> : tensor<4xf32>
  %sg = stablehlo.sign %neg0 : tensor<4xf32>
  check.expect_eq_const %sg, dense<[-0.0, 1.0, -1.0, 0x7FC00000]> : tensor<4xf32>
  %ra = stablehlo.round_nearest_afz %neg0 : tensor<4xf32>
  check.expect_eq_const %ra, dense<[-0.0, 3.0, -3.0, 0x7FC00000]> : tensor<4xf32>
  %re = stablehlo.round_nearest_even %neg0 : tensor<4xf32>
  check.expect_eq_const %re, dense<[-0.0, 2.0, -2.0, 0x7FC00000]> : tensor<4xf32>
  %big = stablehlo.constant dense<3.0e38> : tensor<f32>
  %ov = stablehlo.add %big, %big : tensor<f32>
  check.expect_eq_const %ov, dense<0x7F800000> : tensor<f32>
  return
}

// CHECK: PASS compare_orders
func.func @compare_orders() {
  %a = stablehlo.constant dense<[0x7FC00000, -0.0, 0x7FC00000, 1.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[0x7FC00000, 0.0, 0x7F800000, 1.0]> : tensor<4xf32>
  %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %eq, dense<[false, true, false, true]> : tensor<4xi1>
  %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %ne, dense<[true, false, true, false]> : tensor<4xi1>
  %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, true, false, false]> : tensor<4xi1>
  %gt = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %gt, dense<[false, false, true, false]> : tensor<4xi1>
  return
}

// CHECK: PASS conversions
func.func @conversions() {
  %f = stablehlo.constant dense<[1.9, -1.9, 3.0e9, 0x7FC00000]> : tensor<4xf32>
  %i = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi32>
  check.expect_eq_const %i, dense<[1, -1, 2147483647, 0]> : tensor<4xi32>
  %b = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %b, dense<true> : tensor<4xi1>
  %n = stablehlo.constant dense<[2049, 65520, 0, 5]> : tensor<4xi32>
  %h = stablehlo.convert %n : (tensor<4xi32>) -> tensor<4xf16>
  check.expect_eq_const %h, dense<[2048.0, 0x7C00, 0.0, 5.0]> : tensor<4xf16>
  %bf = stablehlo.constant dense<[1.00390625, 1.01171875]> : tensor<2xf32>
  %r = stablehlo.convert %bf : (tensor<2xf32>) -> tensor<2xbf16>
  check.expect_eq_const %r, dense<[1.0, 1.015625]> : tensor<2xbf16>
  %f8 = stablehlo.constant dense<[448.0, 0.3]> : tensor<2xf32>
  %e = stablehlo.convert %f8 : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
  check.expect_eq_const %e, dense<[448.0, 0.3125]> : tensor<2xf8E4M3FN>
  %t = stablehlo.convert %n : (tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const %t, dense<[true, true, false, true]> : tensor<4xi1>
  %bc = stablehlo.constant dense<1.0> : tensor<f32>
  %bits = stablehlo.bitcast_convert %bc : (tensor<f32>) -> tensor<i32>
  check.expect_eq_const %bits, dense<1065353216> : tensor<i32>
  %halves = stablehlo.bitcast_convert %bc : (tensor<f32>) -> tensor<2xui16>
  check.expect_eq_const %halves, dense<[0, 16256]> : tensor<2xui16>
  %rp = stablehlo.constant dense<[65520.0, 1.0e-8, 1.00048828125]> : tensor<3xf32>
  %p = stablehlo.reduce_precision %rp, format = e5m10 : tensor<3xf32>
  check.expect_eq_const %p, dense<[0x7F800000, 0.0, 1.0]> : tensor<3xf32>
  return
}

// CHECK: PASS empty_tensors
func.func @empty_tensors() {
  %e = stablehlo.constant dense<> : tensor<0xf32>
  %s = stablehlo.add %e, %e : tensor<0xf32>
  check.expect_eq_const %s, dense<> : tensor<0xf32>
  %z = stablehlo.constant dense<5.0> : tensor<f32>
  %r = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<0xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %r, dense<5.0> : tensor<f32>
  %one = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %c = stablehlo.concatenate %e, %one, %e, dim = 0 : (tensor<0xf32>, tensor<1xf32>, tensor<0xf32>) -> tensor<1xf32>
  check.expect_eq_const %c, dense<[1.0]> : tensor<1xf32>
  %m = stablehlo.constant dense<> : tensor<2x0xi32>
  %t = stablehlo.transpose %m, dims = [1, 0] : (tensor<2x0xi32>) -> tensor<0x2xi32>
  check.expect_eq_const %t, dense<> : tensor<0x2xi32>
  return
}

// CHECK: PASS shape_ops
func.func @shape_ops() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %t, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
  %r = stablehlo.reshape %a : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %v = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %b = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[10, 10, 10], [20, 20, 20]]> : tensor<2x3xi32>
  %one = stablehlo.constant dense<[[7], [8]]> : tensor<2x1xi32>
  %b1 = stablehlo.broadcast_in_dim %one, dims = [0, 1] : (tensor<2x1xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b1, dense<[[7, 7, 7], [8, 8, 8]]> : tensor<2x3xi32>
  %s = stablehlo.slice %a [0:2, 0:3:2] : (tensor<2x3xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %s, dense<[[1, 3], [4, 6]]> : tensor<2x2xi32>
  %rv = stablehlo.reverse %a, dims = [1] : tensor<2x3xi32>
  check.expect_eq_const %rv, dense<[[3, 2, 1], [6, 5, 4]]> : tensor<2x3xi32>
  %c = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  check.expect_eq_const %c, dense<[[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]> : tensor<2x6xi32>
  %pv = stablehlo.constant dense<0> : tensor<i32>
  %p = stablehlo.pad %a, %pv, low = [1, -1], high = [0, 1], interior = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<3x5xi32>
  check.expect_eq_const %p, dense<[[0, 0, 0, 0, 0], [0, 2, 0, 3, 0], [0, 5, 0, 6, 0]]> : tensor<3x5xi32>
  %i5 = stablehlo.constant dense<5> : tensor<i64>
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %ds = stablehlo.dynamic_slice %a, %i5, %i5, sizes = [1, 2] : (tensor<2x3xi32>, tensor<i64>, tensor<i64>) -> tensor<1x2xi32>
  check.expect_eq_const %ds, dense<[[5, 6]]> : tensor<1x2xi32>
  %u = stablehlo.constant dense<[[0, 0]]> : tensor<1x2xi32>
  %dus = stablehlo.dynamic_update_slice %a, %u, %i0, %i5 : (tensor<2x3xi32>, tensor<1x2xi32>, tensor<i64>, tensor<i64>) -> tensor<2x3xi32>
  check.expect_eq_const %dus, dense<[[1, 0, 0], [4, 5, 6]]> : tensor<2x3xi32>
  %io = stablehlo.iota dim = 1 : tensor<2x3xf32>
  check.expect_eq_const %io, dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf32>
  %bc = stablehlo.broadcast %v, sizes = [2] : (tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %bc, dense<[[10, 20], [10, 20]]> : tensor<2x2xi32>
  %gd = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xi32>) -> tensor<i32>
  check.expect_eq_const %gd, dense<3> : tensor<i32>
  return
}

// CHECK: PASS select_clamp
func.func @select_clamp() {
  %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[-1.0, -2.0, -3.0]> : tensor<3xf32>
  %s = stablehlo.select %p, %a, %b : tensor<3xi1>, tensor<3xf32>
  check.expect_eq_const %s, dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %s2 = stablehlo.select %f, %a, %b : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  check.expect_eq_const %s2, dense<[-1.0, -2.0, -3.0]> : tensor<3xf32>
  %lo = stablehlo.constant dense<1.5> : tensor<f32>
  %hi = stablehlo.constant dense<2.5> : tensor<f32>
  %c = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %c, dense<[1.5, 2.0, 2.5]> : tensor<3xf32>
  return
}

// CHECK: PASS complex_numbers
func.func @complex_numbers() {
  %re = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %im = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %z = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  %p = stablehlo.multiply %z, %z : tensor<2xcomplex<f32>>
  check.expect_eq_const %p, dense<[(-3.0, 4.0), (-7.0, 24.0)]> : tensor<2xcomplex<f32>>
  %a = stablehlo.abs %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_almost_eq_const %a, dense<[2.236068, 5.0]> : tensor<2xf32>
  %i = stablehlo.imag %p : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const %i, dense<[4.0, 24.0]> : tensor<2xf32>
  %e = stablehlo.exponential %z : tensor<2xcomplex<f32>>
  %er = stablehlo.real %e : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_almost_eq_const %er, dense<[-1.1312044, -13.128783]> : tensor<2xf32>
  return
}

// CHECK: PASS transcendental
func.func @transcendental() {
  %x = stablehlo.constant dense<[0.0, 0.5, 1.0, -2.0]> : tensor<4xf32>
  %t = stablehlo.tanh %x : tensor<4xf32>
  check.expect_almost_eq_const %t, dense<[0.0, 0.46211716, 0.7615942, -0.9640276]> : tensor<4xf32>
  %l = stablehlo.logistic %x : tensor<4xf32>
  check.expect_almost_eq_const %l, dense<[0.5, 0.62245935, 0.7310586, 0.11920292]> : tensor<4xf32>
  %e = stablehlo.exponential_minus_one %x : tensor<4xf32>
  check.expect_almost_eq_const %e, dense<[0.0, 0.6487213, 1.7182819, -0.86466473]> : tensor<4xf32>
  %c = stablehlo.cbrt %x : tensor<4xf32>
  check.expect_almost_eq_const %c, dense<[0.0, 0.7937005, 1.0, -1.2599211]> : tensor<4xf32>
  %a = stablehlo.atan2 %x, %x : tensor<4xf32>
  check.expect_almost_eq_const %a, dense<[0.0, 0.7853982, 0.7853982, -2.3561945]> : tensor<4xf32>
  %erf = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %erf, dense<[0.0, 0.5204999, 0.8427008, -0.9953223]> : tensor<4xf32>
  %sq = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  check.expect_eq_const %sq, dense<[0.0, 0.25, 1.0, 4.0]> : tensor<4xf32>
  %ei = chlo.erf_inv %erf : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %ei, dense<[0.0, 0.5, 1.0, -2.0]> : tensor<4xf32>
  %lg = chlo.lgamma %c : tensor<4xf32> -> tensor<4xf32>
  %pos = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.5]> : tensor<4xf32>
  %lgp = chlo.lgamma %pos : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %lgp, dense<[0.0, 0.0, 0.6931472, 2.4537366]> : tensor<4xf32>
  %dg = chlo.digamma %pos : tensor<4xf32> -> tensor<4xf32>
  check.expect_almost_eq_const %dg, dense<[-0.5772157, 0.4227843, 0.9227843, 1.3888709]> : tensor<4xf32>
  return
}

// CHECK: PASS dot_and_conv
func.func @dot_and_conv() {
  %a = stablehlo.constant dense<[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]> : tensor<2x2x2xi32>
  %d = stablehlo.dot_general %a, %a, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x2xi32>, tensor<2x2x2xi32>) -> tensor<2x2x2xi32>
  check.expect_eq_const %d, dense<[[[7, 10], [15, 22]], [[67, 78], [91, 106]]]> : tensor<2x2x2xi32>
  %m = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %v = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %mv = stablehlo.dot %m, %v : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %mv, dense<[3.0, 7.0]> : tensor<2xf32>
  %big = stablehlo.constant dense<[100, 100]> : tensor<2xi8>
  %acc = stablehlo.dot_general %big, %big, contracting_dims = [0] x [0] : (tensor<2xi8>, tensor<2xi8>) -> tensor<i32>
  check.expect_eq_const %acc, dense<20000> : tensor<i32>
  // A 1-d convolution of [1..5] with [1, 2], stride 2, padding 1 on each side.
  %x = stablehlo.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0]]]> : tensor<1x5x1xf32>
  %k = stablehlo.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xf32>, tensor<2x1x1xf32>) -> tensor<1x3x1xf32>
  check.expect_eq_const %c, dense<[[[2.0], [8.0], [14.0]]]> : tensor<1x3x1xf32>
  // lhs dilation 2 inserts holes ([1, 0, 2, 0, 3, ...]); the kernel is reversed.
  %c2 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {lhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x1xf32>, tensor<2x1x1xf32>) -> tensor<1x8x1xf32>
  check.expect_eq_const %c2, dense<[[[2.0], [2.0], [4.0], [3.0], [6.0], [4.0], [8.0], [5.0]]]> : tensor<1x8x1xf32>
  // Two feature groups: each output channel sees one input channel.
  %x2 = stablehlo.constant dense<[[[1.0, 10.0], [2.0, 20.0]]]> : tensor<1x2x2xf32>
  %k2 = stablehlo.constant dense<[[[1.0, 1.0]]]> : tensor<1x1x2xf32>
  %g = stablehlo.convolution(%x2, %k2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x2x2xf32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
  check.expect_eq_const %g, dense<[[[1.0, 10.0], [2.0, 20.0]]]> : tensor<1x2x2xf32>
  return
}

// CHECK: PASS reductions
func.func @reductions() {
  %a = stablehlo.constant dense<[[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]]> : tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_eq_const %s, dense<[8.0, 10.0]> : tensor<2xf32>
  %m = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %m, dense<7.0> : tensor<f32>
  %idx = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%a init: %ninf), (%idx init: %zi) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {
      %gt = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %x, %y : tensor<i1>, tensor<f32>
      %k = stablehlo.select %gt, %i, %j : tensor<i1>, tensor<i32>
      stablehlo.return %v, %k : tensor<f32>, tensor<i32>
    }
  check.expect_eq_const %r#0, dense<[5.0, 7.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[1, 0]> : tensor<2xi32>
  // Prefix sums with reduce_window, padding the front with init values.
  %v = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %cs = "stablehlo.reduce_window"(%v, %zi) <{padding = dense<[[3, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 4>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %t = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %cs, dense<[1, 3, 6, 10]> : tensor<4xi32>
  // Max pooling 2 with stride 2, and its gradient with select_and_scatter.
  %mp = "stablehlo.reduce_window"(%v, %zi) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %t = stablehlo.maximum %p, %q : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) : (tensor<4xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %mp, dense<[2, 4]> : tensor<2xi32>
  %src = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %grad = "stablehlo.select_and_scatter"(%v, %src, %zi) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %ge = stablehlo.compare GE, %p, %q : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %t = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) : (tensor<4xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>
  check.expect_eq_const %grad, dense<[0, 10, 0, 20]> : tensor<4xi32>
  return
}

// CHECK: PASS gather_scatter
func.func @gather_scatter() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %ind = stablehlo.constant dense<[[2], [0], [7]]> : tensor<3x1xi32>
  %g = "stablehlo.gather"(%a, %ind) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<3x2xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %g, dense<[[5, 6], [1, 2], [5, 6]]> : tensor<3x2xi32>
  %upd = stablehlo.constant dense<[[10, 10], [20, 20], [30, 30]]> : tensor<3x2xi32>
  %s = "stablehlo.scatter"(%a, %ind, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %t = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) : (tensor<3x2xi32>, tensor<3x1xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %s, dense<[[21, 22], [3, 4], [15, 16]]> : tensor<3x2xi32>
  %rep = "stablehlo.scatter"(%a, %ind, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    stablehlo.return %y : tensor<i32>
  }) : (tensor<3x2xi32>, tensor<3x1xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const %rep, dense<[[20, 20], [3, 4], [10, 10]]> : tensor<3x2xi32>
  return
}

// CHECK: PASS sorting
func.func @sorting() {
  %k = stablehlo.constant dense<[3.0, 0x7FC00000, -1.0, 3.0, -0.0, 0.0]> : tensor<6xf32>
  %v = stablehlo.iota dim = 0 : tensor<6xi32>
  %s:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  check.expect_eq_const %s#0, dense<[-1.0, -0.0, 0.0, 3.0, 3.0, 0x7FC00000]> : tensor<6xf32>
  check.expect_eq_const %s#1, dense<[2, 4, 5, 0, 3, 1]> : tensor<6xi32>
  %m = stablehlo.constant dense<[[3, 1, 2], [0, 5, 4]]> : tensor<2x3xi32>
  %r = "stablehlo.sort"(%m) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[3, 2, 1], [5, 4, 0]]> : tensor<2x3xi32>
  %tk:2 = chlo.top_k(%m, k = 2) : tensor<2x3xi32> -> (tensor<2x2xi32>, tensor<2x2xi32>)
  check.expect_eq_const %tk#0, dense<[[3, 2], [5, 4]]> : tensor<2x2xi32>
  check.expect_eq_const %tk#1, dense<[[0, 2], [1, 2]]> : tensor<2x2xi32>
  return
}

// CHECK: PASS control_flow
func.func @control_flow() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w:2 = stablehlo.while(%i = %zero, %acc = %zero) : tensor<i32>, tensor<i32>
    cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      %s = stablehlo.add %acc, %n : tensor<i32>
      stablehlo.return %n, %s : tensor<i32>, tensor<i32>
    }
  check.expect_eq_const %w#1, dense<55> : tensor<i32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %r = "stablehlo.if"(%t) ({
    stablehlo.return %one : tensor<i32>
  }, {
    stablehlo.return %zero : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  check.expect_eq_const %r, dense<1> : tensor<i32>
  %nine = stablehlo.constant dense<9> : tensor<i32>
  %c = "stablehlo.case"(%nine) ({
    stablehlo.return %zero : tensor<i32>
  }, {
    stablehlo.return %one : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %c, dense<1> : tensor<i32>
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %m = "stablehlo.map"(%v, %v) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.multiply %a, %b : tensor<i32>
    stablehlo.return %p : tensor<i32>
  }) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %m, dense<[1, 4, 9]> : tensor<3xi32>
  %tp = stablehlo.tuple %v, %one : tuple<tensor<3xi32>, tensor<i32>>
  %e = stablehlo.get_tuple_element %tp[1] : (tuple<tensor<3xi32>, tensor<i32>>) -> tensor<i32>
  check.expect_eq_const %e, dense<1> : tensor<i32>
  %ob = stablehlo.optimization_barrier %v : tensor<3xi32>
  check.expect_eq %ob, %v : tensor<3xi32>
  %cp = stablehlo.composite "my.double" %v {decomposition = @double} : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %cp, dense<[2, 4, 6]> : tensor<3xi32>
  return
}

func.func private @double(%x: tensor<3xi32>) -> tensor<3xi32> {
  %y = stablehlo.add %x, %x : tensor<3xi32>
  return %y : tensor<3xi32>
}

// f8E4M3FN has no infinity (overflow and NaN give its NaN, 0x7F/0xFF); f8E5M2
// overflows to infinity; 2^-10 is halfway to E4M3FN's smallest subnormal and
// rounds to even (zero); i2 wraps; ui64 compares and converts unsigned.
// CHECK: PASS narrow_and_wide_types
func.func @narrow_and_wide_types() {
  %f = stablehlo.constant dense<[1.0e5, -1.0e5, 0x7FC00000, 0.0009765625]> : tensor<4xf32>
  %a = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  check.expect_eq_const %a, dense<[0x7F, 0xFF, 0x7F, 0.0]> : tensor<4xf8E4M3FN>
  %b = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xf8E5M2>
  check.expect_eq_const %b, dense<[0x7C, 0xFC, 0x7E, 0.0009765625]> : tensor<4xf8E5M2>
  %c = stablehlo.convert %a : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  %n = stablehlo.is_finite %c : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %n, dense<[false, false, false, true]> : tensor<4xi1>
  %d = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xf64>
  %e = stablehlo.convert %d : (tensor<4xf64>) -> tensor<4xcomplex<f64>>
  %r = stablehlo.real %e : (tensor<4xcomplex<f64>>) -> tensor<4xf64>
  check.expect_eq %r, %d : tensor<4xf64>
  %i2 = stablehlo.constant dense<[1, -2]> : tensor<2xi2>
  %s = stablehlo.add %i2, %i2 : tensor<2xi2>
  check.expect_eq_const %s, dense<[-2, 0]> : tensor<2xi2>
  %u64 = stablehlo.constant dense<[18446744073709551615, 1]> : tensor<2xui64>
  %one = stablehlo.constant dense<1> : tensor<2xui64>
  %uc = stablehlo.compare GT, %u64, %one : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
  check.expect_eq_const %uc, dense<[true, false]> : tensor<2xi1>
  %uf = stablehlo.convert %u64 : (tensor<2xui64>) -> tensor<2xf32>
  check.expect_eq_const %uf, dense<[1.8446744e19, 1.0]> : tensor<2xf32>
  return
}

// The other elementwise ops on floats, integers, predicates and complex numbers.
// CHECK: PASS more_elementwise
func.func @more_elementwise() {
  %x = stablehlo.constant dense<[0.5, -1.5, 2.0, 0.0]> : tensor<4xf32>
  %c = stablehlo.cosine %x : tensor<4xf32>
  check.expect_almost_eq_const %c, dense<[0.87758255, 0.0707372, -0.41614684, 1.0]> : tensor<4xf32>
  %s = stablehlo.sine %x : tensor<4xf32>
  check.expect_almost_eq_const %s, dense<[0.47942555, -0.997495, 0.9092974, 0.0]> : tensor<4xf32>
  %t = stablehlo.tan %x : tensor<4xf32>
  check.expect_almost_eq_const %t, dense<[0.5463025, -14.10142, -2.1850398, 0.0]> : tensor<4xf32>
  %e = stablehlo.exponential %x : tensor<4xf32>
  check.expect_almost_eq_const %e, dense<[1.6487212, 0.22313017, 7.389056, 1.0]> : tensor<4xf32>
  %l = stablehlo.log_plus_one %x : tensor<4xf32>
  check.expect_almost_eq_const %l, dense<[0.4054651, 0x7FC00000, 1.0986123, 0.0]> : tensor<4xf32>
  %r = stablehlo.rsqrt %x : tensor<4xf32>
  check.expect_almost_eq_const %r, dense<[1.4142135, 0x7FC00000, 0.70710677, 0x7F800000]> : tensor<4xf32>
  %ce = stablehlo.ceil %x : tensor<4xf32>
  check.expect_eq_const %ce, dense<[1.0, -1.0, 2.0, 0.0]> : tensor<4xf32>
  %fl = stablehlo.floor %x : tensor<4xf32>
  check.expect_eq_const %fl, dense<[0.0, -2.0, 2.0, 0.0]> : tensor<4xf32>
  %n = stablehlo.negate %x : tensor<4xf32>
  check.expect_eq_const %n, dense<[-0.5, 1.5, -2.0, -0.0]> : tensor<4xf32>
  %a = stablehlo.abs %n : tensor<4xf32>
  check.expect_eq_const %a, dense<[0.5, 1.5, 2.0, 0.0]> : tensor<4xf32>
  %three = stablehlo.constant dense<[3.0, 3.0, -3.0, 3.0]> : tensor<4xf32>
  %rem = stablehlo.remainder %three, %x : tensor<4xf32>
  check.expect_eq_const %rem, dense<[0.0, 0.0, -1.0, 0x7FC00000]> : tensor<4xf32>
  %p = stablehlo.power %x, %three : tensor<4xf32>
  check.expect_eq_const %p, dense<[0.125, -3.375, 0.125, 0.0]> : tensor<4xf32>
  %d = stablehlo.subtract %x, %three : tensor<4xf32>
  check.expect_eq_const %d, dense<[-2.5, -4.5, 5.0, -3.0]> : tensor<4xf32>
  %i = stablehlo.constant dense<[12, -5, 0, 7]> : tensor<4xi32>
  %j = stablehlo.constant dense<[10, 3, -1, 7]> : tensor<4xi32>
  %and = stablehlo.and %i, %j : tensor<4xi32>
  check.expect_eq_const %and, dense<[8, 3, 0, 7]> : tensor<4xi32>
  %or = stablehlo.or %i, %j : tensor<4xi32>
  check.expect_eq_const %or, dense<[14, -5, -1, 7]> : tensor<4xi32>
  %xor = stablehlo.xor %i, %j : tensor<4xi32>
  check.expect_eq_const %xor, dense<[6, -8, -1, 0]> : tensor<4xi32>
  %mn = stablehlo.minimum %i, %j : tensor<4xi32>
  check.expect_eq_const %mn, dense<[10, -5, -1, 7]> : tensor<4xi32>
  %mx = stablehlo.maximum %i, %j : tensor<4xi32>
  check.expect_eq_const %mx, dense<[12, 3, 0, 7]> : tensor<4xi32>
  %sg = stablehlo.sign %i : tensor<4xi32>
  check.expect_eq_const %sg, dense<[1, -1, 0, 1]> : tensor<4xi32>
  %q = stablehlo.divide %i, %j : tensor<4xi32>
  check.expect_eq_const %q, dense<[1, -1, 0, 1]> : tensor<4xi32>
  %m = stablehlo.remainder %i, %j : tensor<4xi32>
  check.expect_eq_const %m, dense<[2, -2, 0, 0]> : tensor<4xi32>
  %pt = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %pf = stablehlo.constant dense<[true, true]> : tensor<2xi1>
  %pa = stablehlo.add %pt, %pf : tensor<2xi1>
  check.expect_eq_const %pa, dense<[true, true]> : tensor<2xi1>
  %pm = stablehlo.multiply %pt, %pf : tensor<2xi1>
  check.expect_eq_const %pm, dense<[true, false]> : tensor<2xi1>
  %px = stablehlo.xor %pt, %pf : tensor<2xi1>
  check.expect_eq_const %px, dense<[false, true]> : tensor<2xi1>
  %cx = stablehlo.constant dense<[(1.0, 1.0), (0.0, 2.0)]> : tensor<2xcomplex<f64>>
  %cl = stablehlo.log %cx : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %cl, dense<[(0.34657359, 0.78539816), (0.69314718, 1.57079633)]> : tensor<2xcomplex<f64>>
  %cs = stablehlo.sqrt %cx : tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %cs, dense<[(1.09868411, 0.45508986), (1.0, 1.0)]> : tensor<2xcomplex<f64>>
  %cd = stablehlo.divide %cx, %cx : tensor<2xcomplex<f64>>
  check.expect_eq_const %cd, dense<[(1.0, 0.0), (1.0, 0.0)]> : tensor<2xcomplex<f64>>
  return
}

// CHECK: FAIL custom_call_is_unsupported: unsupported op 'stablehlo.custom_call' (call target 'foo')
func.func @custom_call_is_unsupported() {
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %r = stablehlo.custom_call @foo(%v) : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// CHECK: FAIL a_failing_check: check.expect_eq_const failed at element 2: got 3, expected 4
func.func @a_failing_check() {
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  check.expect_eq_const %v, dense<[1, 2, 4]> : tensor<3xi32>
  return
}

// CHECK: 20 passed, 2 failed
