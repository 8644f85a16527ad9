// Folding of the math ops: aic-opt and mlir-opt-22 pass the same checks (the
// constants' order aside, which is the rewrite driver's, checked with CHECK-DAG).
// Every folder MLIR 22 has, and the cases where it refuses or has none.
// RUN: aic-opt %s --canonicalize | FileCheck %s
// RUN: mlir-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @transcendental_f32(
// CHECK-DAG: %[[CST:.*]] = arith.constant 1.04719758 : f32
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 1.31695795 : f32
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 0.52359879 : f32
// CHECK-DAG: %[[CST_2:.*]] = arith.constant 0.481211841 : f32
// CHECK-DAG: %[[CST_3:.*]] = arith.constant 0.463647604 : f32
// CHECK-DAG: %[[CST_4:.*]] = arith.constant 0.549306154 : f32
// CHECK-DAG: %[[CST_5:.*]] = arith.constant 0.87758255 : f32
// CHECK-DAG: %[[CST_6:.*]] = arith.constant 1.12762594 : f32
// CHECK-DAG: %[[CST_7:.*]] = arith.constant 0.520499885 : f32
// CHECK-DAG: %[[CST_8:.*]] = arith.constant 0.479500115 : f32
// CHECK-DAG: %[[CST_9:.*]] = arith.constant 1.64872122 : f32
// CHECK-DAG: %[[CST_10:.*]] = arith.constant 1.41421354 : f32
// CHECK-DAG: %[[CST_11:.*]] = arith.constant 0.648721277 : f32
// CHECK-DAG: %[[CST_12:.*]] = arith.constant 0.693147182 : f32
// CHECK-DAG: %[[CST_13:.*]] = arith.constant 3.010300e-01 : f32
// CHECK-DAG: %[[CST_14:.*]] = arith.constant 0.405465096 : f32
// CHECK-DAG: %[[CST_15:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[CST_16:.*]] = arith.constant 0.47942555 : f32
// CHECK-DAG: %[[CST_17:.*]] = arith.constant 0.521095276 : f32
// CHECK-DAG: %[[CST_18:.*]] = arith.constant 0.546302497 : f32
// CHECK-DAG: %[[CST_19:.*]] = arith.constant 0.462117165 : f32
// CHECK-DAG: %[[CST_20:.*]] = arith.constant 0.244978666 : f32
// CHECK: return %[[CST]], %[[CST_0]], %[[CST_1]], %[[CST_2]], %[[CST_3]], %[[CST_4]], %[[CST_5]], %[[CST_6]], %[[CST_7]], %[[CST_8]], %[[CST_9]], %[[CST_10]], %[[CST_11]], %[[CST_12]], %[[CST_13]], %[[CST_14]], %[[CST_15]], %[[CST_16]], %[[CST_17]], %[[CST_10]], %[[CST_18]], %[[CST_19]], %[[CST_20]] : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
func.func @transcendental_f32() -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %x = arith.constant 0.5 : f32
  %y = arith.constant 2.0 : f32
  %0 = math.acos %x : f32
  %1 = math.acosh %y : f32
  %2 = math.asin %x : f32
  %3 = math.asinh %x : f32
  %4 = math.atan %x : f32
  %5 = math.atanh %x : f32
  %6 = math.cos %x : f32
  %7 = math.cosh %x : f32
  %8 = math.erf %x : f32
  %9 = math.erfc %x : f32
  %10 = math.exp %x : f32
  %11 = math.exp2 %x : f32
  %12 = math.expm1 %x : f32
  %13 = math.log %y : f32
  %14 = math.log10 %y : f32
  %15 = math.log1p %x : f32
  %16 = math.log2 %y : f32
  %17 = math.sin %x : f32
  %18 = math.sinh %x : f32
  %19 = math.sqrt %y : f32
  %20 = math.tan %x : f32
  %21 = math.tanh %x fastmath<fast> : f32
  %22 = math.atan2 %x, %y : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// CHECK-LABEL: func.func @transcendental_f64(
// CHECK-DAG: %[[CST:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 0.64421768723769102 : f64
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 20.085536923187668 : f64
// CHECK-DAG: %[[CST_2:.*]] = arith.constant 1.0986122886681098 : f64
// CHECK-DAG: %[[CST_3:.*]] = arith.constant 0.34299999999999992 : f64
// CHECK-DAG: %[[CST_4:.*]] = arith.constant 0.67780119383741844 : f64
// CHECK-DAG: %[[CST_5:.*]] = arith.constant 1.8184464592320668 : f64
// CHECK: %0 = math.cbrt %[[CST]] : f64
// CHECK: return %[[CST_0]], %[[CST_1]], %[[CST_2]], %[[CST_3]], %[[CST_4]], %[[CST_5]], %0 : f64, f64, f64, f64, f64, f64, f64
func.func @transcendental_f64() -> (f64, f64, f64, f64, f64, f64, f64) {
  %x = arith.constant 0.7 : f64
  %y = arith.constant 3.0 : f64
  %0 = math.sin %x : f64
  %1 = math.exp %y : f64
  %2 = math.log %y : f64
  %3 = math.powf %x, %y : f64
  %4 = math.erf %x : f64
  %5 = math.asinh %y : f64
  %6 = math.cbrt %y : f64
  return %0, %1, %2, %3, %4, %5, %6 : f64, f64, f64, f64, f64, f64, f64
}

// Only f32 and f64 fold through the C library.
// CHECK-LABEL: func.func @transcendental_other_widths(
// CHECK-DAG: %[[CST:.*]] = arith.constant 5.000000e-01 : f16
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 5.000000e-01 : bf16
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 5.000000e-01 : f128
// CHECK: %0 = math.sin %[[CST]] : f16
// CHECK: %1 = math.exp %[[CST_0]] : bf16
// CHECK: %2 = math.log %[[CST_1]] : f128
// CHECK: %3 = math.round %[[CST]] : f16
// CHECK: %4 = math.trunc %[[CST]] : f16
// CHECK: return %0, %1, %2, %3, %4 : f16, bf16, f128, f16, f16
func.func @transcendental_other_widths() -> (f16, bf16, f128, f16, f16) {
  %h = arith.constant 0.5 : f16
  %b = arith.constant 0.5 : bf16
  %q = arith.constant 0.5 : f128
  %0 = math.sin %h : f16
  %1 = math.exp %b : bf16
  %2 = math.log %q : f128
  %3 = math.round %h : f16
  %4 = math.trunc %h : f16
  return %0, %1, %2, %3, %4 : f16, bf16, f128, f16, f16
}

// Logarithms and square roots of negative values (-0.0 and -NaN too) stay.
// CHECK-LABEL: func.func @negative_domain(
// CHECK-DAG: %[[CST:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[CST_0:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG: %[[CST_1:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[CST_2:.*]] = arith.constant 0xFFC00000 : f32
// CHECK-DAG: %[[CST_3:.*]] = arith.constant -4.000000e+00 : f64
// CHECK: %0 = math.log %[[CST_0]] : f32
// CHECK: %1 = math.log2 %[[CST_1]] : f32
// CHECK: %2 = math.log10 %[[CST_2]] : f32
// CHECK: %3 = math.sqrt %[[CST_1]] : f32
// CHECK: %4 = math.sqrt %[[CST_3]] : f64
// CHECK: %5 = math.log1p %[[CST_0]] : f32
// CHECK: %6 = math.log1p %[[CST_2]] : f32
// CHECK: return %0, %1, %2, %3, %4, %5, %[[CST]], %[[CST]], %6 : f32, f32, f32, f32, f64, f32, f32, f32, f32
func.func @negative_domain() -> (f32, f32, f32, f32, f64, f32, f32, f32, f32) {
  %m = arith.constant -2.0 : f32
  %mz = arith.constant -0.0 : f32
  %mn = arith.constant 0xFFC00000 : f32
  %pz = arith.constant 0.0 : f32
  %d = arith.constant -4.0 : f64
  %m1 = arith.constant -1.0 : f32
  %0 = math.log %m : f32
  %1 = math.log2 %mz : f32
  %2 = math.log10 %mn : f32
  %3 = math.sqrt %mz : f32
  %4 = math.sqrt %d : f64
  %5 = math.log1p %m : f32
  %6 = math.log1p %m1 : f32
  %7 = math.log %pz : f32
  %8 = math.log1p %mn : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f64, f32, f32, f32, f32
}

// Halfway cases: round goes away from zero, roundeven to even.
// CHECK-LABEL: func.func @rounding(
// CHECK-DAG: %[[CST:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[CST_1:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-DAG: %[[CST_2:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG: %[[CST_3:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[CST_4:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[CST_5:.*]] = arith.constant -3.000000e+00 : f64
// CHECK-DAG: %[[CST_6:.*]] = arith.constant -4.000000e+00 : f64
// CHECK: return %[[CST]], %[[CST_0]], %[[CST_1]], %[[CST_2]], %[[CST_3]], %[[CST_4]], %[[CST_4]], %[[CST_3]], %[[CST_5]], %[[CST_6]] : f32, f32, f32, f32, f32, f32, f32, f32, f64, f64
func.func @rounding() -> (f32, f32, f32, f32, f32, f32, f32, f32, f64, f64) {
  %a = arith.constant 2.5 : f32
  %b = arith.constant -2.5 : f32
  %c = arith.constant -0.5 : f32
  %0 = math.round %a : f32
  %1 = math.roundeven %a : f32
  %2 = math.round %b : f32
  %3 = math.roundeven %b : f32
  %4 = math.round %c : f32
  %5 = math.roundeven %c : f32
  %6 = math.ceil %c : f32
  %7 = math.floor %c : f32
  %d = arith.constant -3.75 : f64
  %8 = math.trunc %d : f64
  %9 = math.floor %d : f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f32, f32, f32, f32, f32, f32, f32, f32, f64, f64
}

// ceil, floor, roundeven, absf and copysign are exact in every float type.
// CHECK-LABEL: func.func @exact_all_widths(
// CHECK-DAG: %[[CST:.*]] = arith.constant 3.000000e+00 : f16
// CHECK-DAG: %[[CST_0:.*]] = arith.constant -2.000000e+00 : bf16
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 2.000000e+00 : f128
// CHECK-DAG: %[[CST_2:.*]] = arith.constant -7.000000e+00 : f80
// CHECK-DAG: %[[CST_3:.*]] = arith.constant 1.000000e+00 : f8E4M3FN
// CHECK-DAG: %[[CST_4:.*]] = arith.constant -2.500000e+00 : f16
// CHECK-DAG: %[[CST_5:.*]] = arith.constant -1.500000e+00 : bf16
// CHECK: return %[[CST]], %[[CST_0]], %[[CST_1]], %[[CST_2]], %[[CST_3]], %[[CST_4]], %[[CST_5]], %[[CST_1]] : f16, bf16, f128, f80, f8E4M3FN, f16, bf16, f128
func.func @exact_all_widths() -> (f16, bf16, f128, f80, f8E4M3FN, f16, bf16, f128) {
  %h = arith.constant 2.5 : f16
  %b = arith.constant -1.5 : bf16
  %q = arith.constant 2.5 : f128
  %x = arith.constant -7.25 : f80
  %e = arith.constant 1.25 : f8E4M3FN
  %0 = math.ceil %h : f16
  %1 = math.roundeven %b : bf16
  %2 = math.floor %q : f128
  %3 = math.ceil %x : f80
  %4 = math.floor %e : f8E4M3FN
  %5 = math.absf %h : f16
  %mh = arith.constant -0.0 : f16
  %6 = math.copysign %h, %mh : f16
  %7 = math.absf %x : f80
  %8 = math.copysign %b, %b : bf16
  %9 = math.roundeven %q : f128
  return %0, %1, %2, %3, %4, %6, %8, %9 : f16, bf16, f128, f80, f8E4M3FN, f16, bf16, f128
}

// NaN payloads: sign ops keep them, roundings quiet signalling NaNs.
// CHECK-LABEL: func.func @nans(
// CHECK-DAG: %[[CST:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 0xFF800001 : f32
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 0x7FC00001 : f32
// CHECK-DAG: %[[CST_2:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[CST_3:.*]] = arith.constant 0xFFC00000 : f32
// CHECK-DAG: %[[CST_4:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: return %[[CST]], %[[CST_0]], %[[CST_1]], %[[CST_2]], %[[CST_3]], %[[CST_4]] : f32, f32, f32, f32, f32, f32
func.func @nans() -> (f32, f32, f32, f32, f32, f32) {
  %s = arith.constant 0x7F800001 : f32
  %n = arith.constant 0xFFC00000 : f32
  %mz = arith.constant -0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %0 = math.absf %n : f32
  %1 = math.copysign %s, %mz : f32
  %2 = math.ceil %s : f32
  %3 = math.floor %inf : f32
  %4 = math.sin %inf : f32
  %5 = math.absf %mz : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}

// atan2(0, 0) is NaN in every float type.
// CHECK-LABEL: func.func @atan2_zeros(
// CHECK-DAG: %[[CST:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 0x7E00 : f16
// CHECK-DAG: %[[CST_2:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %0 = math.atan2 %[[CST_0]], %[[CST]] : f16
// CHECK: return %[[CST_1]], %[[CST_2]], %0 : f16, f32, f16
func.func @atan2_zeros() -> (f16, f32, f16) {
  %z = arith.constant 0.0 : f16
  %mz = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f16
  %0 = math.atan2 %z, %z : f16
  %1 = math.atan2 %mz, %mz : f32
  %2 = math.atan2 %one, %z : f16
  return %0, %1, %2 : f16, f32, f16
}

// CHECK-LABEL: func.func @powf(
// CHECK-DAG: %[[CST:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-DAG: %[[CST_0:.*]] = arith.constant 1.024000e+03 : f32
// CHECK-DAG: %[[CST_1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %0 = math.powf %[[CST]], %[[CST]] : f16
// CHECK: return %[[CST_0]], %[[CST_1]], %0 : f32, f32, f16
func.func @powf() -> (f32, f32, f16) {
  %a = arith.constant 2.0 : f32
  %b = arith.constant 10.0 : f32
  %z = arith.constant 0.0 : f32
  %h = arith.constant 2.0 : f16
  %0 = math.powf %a, %b : f32
  %1 = math.powf %z, %z : f32
  %2 = math.powf %h, %h : f16
  return %0, %1, %2 : f32, f32, f16
}

// CHECK-LABEL: func.func @integers(
// CHECK-DAG: %[[C5_I32:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[CM128_I8:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[C8_I8:.*]] = arith.constant 8 : i8
// CHECK-DAG: %[[C32_I32:.*]] = arith.constant 32 : i32
// CHECK-DAG: %[[C58_I64:.*]] = arith.constant 58 : i64
// CHECK-DAG: %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C15_I16:.*]] = arith.constant 15 : i16
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK: return %[[C5_I32]], %[[CM128_I8]], %[[C8_I8]], %[[C32_I32]], %[[C32_I32]], %[[C58_I64]], %[[C0_I32]], %[[C15_I16]], %[[C3]], %[[TRUE]], %[[TRUE]] : i32, i8, i8, i32, i32, i64, i32, i16, index, i1, i1
func.func @integers() -> (i32, i8, i8, i32, i32, i64, i32, i16, index, i1, i1) {
  %a = arith.constant -5 : i32
  %min = arith.constant -128 : i8
  %c = arith.constant 255 : i8
  %z = arith.constant 0 : i32
  %k = arith.constant 40 : i64
  %s = arith.constant 1 : i16
  %x = arith.constant 7 : index
  %t = arith.constant true
  %0 = math.absi %a : i32
  %1 = math.absi %min : i8
  %2 = math.ctpop %c : i8
  %3 = math.ctlz %z : i32
  %4 = math.cttz %z : i32
  %5 = math.ctlz %k : i64
  %6 = math.cttz %a : i32
  %7 = math.ctlz %s : i16
  %8 = math.ctpop %x : index
  %9 = math.absi %t : i1
  %10 = math.ctpop %t : i1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, i8, i8, i32, i32, i64, i32, i16, index, i1, i1
}

// CHECK-LABEL: func.func @ipowi(
// CHECK-DAG: %[[C59049_I32:.*]] = arith.constant 59049 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[CM13_I8:.*]] = arith.constant -13 : i8
// CHECK-DAG: %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[CM1_I32:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[C1024_I32:.*]] = arith.constant 1024 : i32
// CHECK-DAG: %[[C1_I32:.*]] = arith.constant 1 : i32
// CHECK: %0 = math.ipowi %[[C0_I32]], %[[CM1_I32]] : i32
// CHECK: return %[[C1024_I32]], %[[C1_I32]], %0, %[[CM1_I32]], %[[C0_I32]], %[[C1_I32]], %[[CM13_I8]], %[[TRUE]], %[[C59049_I32]] : i32, i32, i32, i32, i32, i32, i8, i1, i32
func.func @ipowi() -> (i32, i32, i32, i32, i32, i32, i8, i1, i32) {
  %two = arith.constant 2 : i32
  %ten = arith.constant 10 : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %m3 = arith.constant -3 : i32
  %b8 = arith.constant 3 : i8
  %e8 = arith.constant 5 : i8
  %t = arith.constant true
  %0 = math.ipowi %two, %ten : i32
  %1 = math.ipowi %zero, %zero : i32
  %2 = math.ipowi %zero, %m1 : i32
  %3 = math.ipowi %m1, %m3 : i32
  %4 = math.ipowi %two, %m1 : i32
  %5 = math.ipowi %one, %m3 : i32
  %6 = math.ipowi %b8, %e8 : i8
  %7 = math.ipowi %t, %t : i1
  %8 = math.ipowi %m3, %ten : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i8, i1, i32
}

// CHECK-LABEL: func.func @classification(
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK: return %[[TRUE]], %[[FALSE]], %[[TRUE]], %[[TRUE]], %[[FALSE]], %[[TRUE]], %[[FALSE]], %[[FALSE]], %[[FALSE]] : i1, i1, i1, i1, i1, i1, i1, i1, i1
func.func @classification() -> (i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %den = arith.constant 1.0e-40 : f32
  %h = arith.constant 6.0e-5 : f16
  %0 = math.isfinite %one : f32
  %1 = math.isfinite %inf : f32
  %2 = math.isinf %inf : f32
  %3 = math.isnan %nan : f32
  %4 = math.isnan %one : f32
  %5 = math.isnormal %one : f32
  %6 = math.isnormal %den : f32
  %7 = math.isnormal %h : f16
  %8 = math.isnormal %nan : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// Splats stay splats, dense elements fold elementwise (and become a splat when
// all results are equal); classifications fold splats only.
// CHECK-LABEL: func.func @shaped(
// CHECK-DAG: %[[CST:.*]] = arith.constant dense<[1.500000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG: %[[CST_0:.*]] = arith.constant dense<[7.3890562, 0.0497870669]> : vector<2xf32>
// CHECK-DAG: %[[CST_1:.*]] = arith.constant dense<[2, 16]> : tensor<2xi16>
// CHECK-DAG: %[[CST_2:.*]] = arith.constant dense<7> : vector<4xi32>
// CHECK-DAG: %[[CST_3:.*]] = arith.constant dense<1.500000e+00> : tensor<1xf32>
// CHECK-DAG: %[[CST_4:.*]] = arith.constant dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG: %[[CST_5:.*]] = arith.constant dense<3.000000e+00> : vector<4xf32>
// CHECK-DAG: %[[CST_6:.*]] = arith.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[CST_7:.*]] = arith.constant dense<[2.000000e+00, -2.000000e+00, 3.000000e+00]> : tensor<3xf64>
// CHECK-DAG: %[[CST_8:.*]] = arith.constant dense<false> : vector<4xi1>
// CHECK: %0 = math.isnan %[[CST_4]] : tensor<2xf32>
// CHECK: return %[[CST_5]], %[[CST_6]], %[[CST_7]], %[[CST_8]], %0, %[[CST_3]], %[[CST_2]], %[[CST_1]], %[[CST_0]], %[[CST]] : vector<4xf32>, tensor<2xf32>, tensor<3xf64>, vector<4xi1>, tensor<2xi1>, tensor<1xf32>, vector<4xi32>, tensor<2xi16>, vector<2xf32>, tensor<2xf32>
func.func @shaped() -> (vector<4xf32>, tensor<2xf32>, tensor<3xf64>, vector<4xi1>, tensor<2xi1>, tensor<1xf32>, vector<4xi32>, tensor<2xi16>, vector<2xf32>, tensor<2xf32>) {
  %s = arith.constant dense<2.5> : vector<4xf32>
  %d = arith.constant dense<[1.5, 1.25]> : tensor<2xf32>
  %e = arith.constant dense<[1.5, -2.5, 3.0]> : tensor<3xf64>
  %n = arith.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %one = arith.constant dense<-1.5> : tensor<1xf32>
  %i = arith.constant dense<-7> : vector<4xi32>
  %j = arith.constant dense<[3, -1]> : tensor<2xi16>
  %v = arith.constant dense<[2.0, -3.0]> : vector<2xf32>
  %0 = math.ceil %s : vector<4xf32>
  %1 = math.ceil %d : tensor<2xf32>
  %2 = math.roundeven %e : tensor<3xf64>
  %3 = math.isnan %s : vector<4xf32>
  %4 = math.isnan %n : tensor<2xf32>
  %5 = math.absf %one : tensor<1xf32>
  %6 = math.absi %i : vector<4xi32>
  %7 = math.ctpop %j : tensor<2xi16>
  %8 = math.copysign %s, %s : vector<4xf32>
  %9 = math.exp %v : vector<2xf32>
  %10 = math.powf %d, %n : tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %9, %10 : vector<4xf32>, tensor<2xf32>, tensor<3xf64>, vector<4xi1>, tensor<2xi1>, tensor<1xf32>, vector<4xi32>, tensor<2xi16>, vector<2xf32>, tensor<2xf32>
}

// No folders in MLIR 22: cbrt, rsqrt, fma, clampf, fpowi, sincos.
// CHECK-LABEL: func.func @no_folders(
// CHECK-DAG: %[[CST:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-DAG: %[[C2_I32:.*]] = arith.constant 2 : i32
// CHECK: %0 = math.cbrt %[[CST]] : f32
// CHECK: %1 = math.rsqrt %[[CST]] : f32
// CHECK: %2 = math.fma %[[CST]], %[[CST]], %[[CST]] : f32
// CHECK: %3 = math.clampf %[[CST]] to [%[[CST]], %[[CST]]] : f32
// CHECK: %4 = math.fpowi %[[CST]], %[[C2_I32]] : f32, i32
// CHECK: %sin, %cos = math.sincos %[[CST]] : f32
// CHECK: return %0, %1, %2, %3, %4, %sin, %cos : f32, f32, f32, f32, f32, f32, f32
func.func @no_folders() -> (f32, f32, f32, f32, f32, f32, f32) {
  %a = arith.constant 8.0 : f32
  %i = arith.constant 2 : i32
  %0 = math.cbrt %a : f32
  %1 = math.rsqrt %a : f32
  %2 = math.fma %a, %a, %a : f32
  %3 = math.clampf %a to [%a, %a] : f32
  %4 = math.fpowi %a, %i : f32, i32
  %5:2 = math.sincos %a : f32
  return %0, %1, %2, %3, %4, %5#0, %5#1 : f32, f32, f32, f32, f32, f32, f32
}

// Unused math ops are pure and go away.
// CHECK-LABEL: func.func @dead(
// CHECK: return
func.func @dead(%a: f32, %i: i32) {
  %0 = math.sin %a : f32
  %1 = math.ctlz %i : i32
  %2:2 = math.sincos %a : f32
  return
}
