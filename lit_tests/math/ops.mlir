// The math dialect's syntax: every op of MLIR 22 in custom and generic form;
// aic prints what mlir-opt prints, in both forms, and reads its own output back.
// RUN: aic-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect %s | aic-opt --allow-unregistered-dialect | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect %s > %t.mlir
// RUN: diff %t.aic %t.mlir
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.aic.generic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.mlir.generic
// RUN: diff %t.aic.generic %t.mlir.generic
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s | aic-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @float_unary(
func.func @float_unary(%a: f32, %v: vector<4xf64>, %t: tensor<?xf16>) {
  // CHECK-NEXT: %0 = math.absf %arg0 : f32
  %0 = math.absf %a : f32
  // CHECK-NEXT: %1 = math.acos %arg1 : vector<4xf64>
  %1 = math.acos %v : vector<4xf64>
  // CHECK-NEXT: %2 = math.acosh %arg2 fastmath<nnan> : tensor<?xf16>
  %2 = math.acosh %t fastmath<nnan> : tensor<?xf16>
  // CHECK-NEXT: %3 = math.asin %arg0 fastmath<fast> : f32
  %3 = math.asin %a fastmath<fast> : f32
  // CHECK-NEXT: %4 = math.asinh %arg0 : f32
  %4 = math.asinh %a : f32
  // CHECK-NEXT: %5 = math.atan %arg0 fastmath<nnan,ninf> : f32
  %5 = math.atan %a fastmath<nnan,ninf> : f32
  // CHECK-NEXT: %6 = math.atanh %arg0 : f32
  %6 = math.atanh %a : f32
  // CHECK-NEXT: %7 = math.cbrt %arg0 : f32
  %7 = math.cbrt %a : f32
  // CHECK-NEXT: %8 = math.ceil %arg1 : vector<4xf64>
  %8 = math.ceil %v : vector<4xf64>
  // CHECK-NEXT: %9 = math.cos %arg0 : f32
  %9 = math.cos %a : f32
  // CHECK-NEXT: %10 = math.cosh %arg0 : f32
  %10 = math.cosh %a : f32
  // CHECK-NEXT: %11 = math.erf %arg0 : f32
  %11 = math.erf %a : f32
  // CHECK-NEXT: %12 = math.erfc %arg0 : f32
  %12 = math.erfc %a : f32
  // CHECK-NEXT: %13 = math.exp %arg0 fastmath<afn> : f32
  %13 = math.exp %a fastmath<afn> : f32
  // CHECK-NEXT: %14 = math.exp2 %arg0 : f32
  %14 = math.exp2 %a : f32
  // CHECK-NEXT: %15 = math.expm1 %arg0 : f32
  %15 = math.expm1 %a : f32
  // CHECK-NEXT: %16 = math.floor %arg2 : tensor<?xf16>
  %16 = math.floor %t : tensor<?xf16>
  // CHECK-NEXT: %17 = math.log %arg0 : f32
  %17 = math.log %a : f32
  // CHECK-NEXT: %18 = math.log10 %arg0 : f32
  %18 = math.log10 %a : f32
  // CHECK-NEXT: %19 = math.log1p %arg0 : f32
  %19 = math.log1p %a : f32
  // CHECK-NEXT: %20 = math.log2 %arg0 : f32
  %20 = math.log2 %a : f32
  // CHECK-NEXT: %21 = math.round %arg0 : f32
  %21 = math.round %a : f32
  // CHECK-NEXT: %22 = math.roundeven %arg0 : f32
  %22 = math.roundeven %a : f32
  // CHECK-NEXT: %23 = math.rsqrt %arg0 fastmath<fast> : f32
  %23 = math.rsqrt %a fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  // CHECK-NEXT: %24 = math.sin %arg0 : f32
  %24 = math.sin %a : f32
  // CHECK-NEXT: %25 = math.sinh %arg0 : f32
  %25 = math.sinh %a : f32
  // CHECK-NEXT: %26 = math.sqrt %arg0 {tt.note} : f32
  %26 = math.sqrt %a {tt.note} : f32
  // CHECK-NEXT: %27 = math.tan %arg0 : f32
  %27 = math.tan %a : f32
  // CHECK-NEXT: %28 = math.tanh %arg0 : f32
  %28 = math.tanh %a fastmath<none> : f32
  // CHECK-NEXT: %29 = math.trunc %arg0 : f32
  %29 = math.trunc %a : f32
  // CHECK-NEXT: %30 = math.sin %arg0 : f32
  %30 = "math.sin"(%a) : (f32) -> f32
  // CHECK-NEXT: %31 = math.cos %arg0 fastmath<contract> : f32
  %31 = "math.cos"(%a) <{fastmath = #arith.fastmath<contract>}> : (f32) -> f32
  // CHECK-NEXT: "tt.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31) : (f32, vector<4xf64>, tensor<?xf16>, f32, f32, f32, f32, f32, vector<4xf64>, f32, f32, f32, f32, f32, f32, f32, tensor<?xf16>, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> ()
  "tt.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31) : (f32, vector<4xf64>, tensor<?xf16>, f32, f32, f32, f32, f32, vector<4xf64>, f32, f32, f32, f32, f32, f32, f32, tensor<?xf16>, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> ()
  return
}

// CHECK-LABEL: func.func @float_binary(
func.func @float_binary(%a: f32, %b: f32, %c: f32, %v: vector<[4]xbf16>, %t: tensor<*xf64>) {
  // CHECK-NEXT: %0 = math.atan2 %arg0, %arg1 : f32
  %0 = math.atan2 %a, %b : f32
  // CHECK-NEXT: %1 = math.copysign %arg3, %arg3 fastmath<nsz> : vector<[4]xbf16>
  %1 = math.copysign %v, %v fastmath<nsz> : vector<[4]xbf16>
  // CHECK-NEXT: %2 = math.powf %arg4, %arg4 : tensor<*xf64>
  %2 = math.powf %t, %t : tensor<*xf64>
  // CHECK-NEXT: %3 = math.fma %arg0, %arg1, %arg2 : f32
  %3 = math.fma %a, %b, %c : f32
  // CHECK-NEXT: %4 = math.fma %arg3, %arg3, %arg3 fastmath<contract> : vector<[4]xbf16>
  %4 = math.fma %v, %v, %v fastmath<contract> : vector<[4]xbf16>
  // CHECK-NEXT: %5 = math.clampf %arg0 to [%arg1, %arg2] : f32
  %5 = math.clampf %a to [%b, %c] : f32
  // CHECK-NEXT: %6 = math.clampf %arg4 to [%arg4, %arg4] fastmath<nnan> : tensor<*xf64>
  %6 = math.clampf %t to [%t, %t] fastmath<nnan> : tensor<*xf64>
  // CHECK-NEXT: "tt.use"(%0, %1, %2, %3, %4, %5, %6) : (f32, vector<[4]xbf16>, tensor<*xf64>, f32, vector<[4]xbf16>, f32, tensor<*xf64>) -> ()
  "tt.use"(%0, %1, %2, %3, %4, %5, %6) : (f32, vector<[4]xbf16>, tensor<*xf64>, f32, vector<[4]xbf16>, f32, tensor<*xf64>) -> ()
  return
}

// CHECK-LABEL: func.func @powers(
func.func @powers(%a: f32, %i: i32, %v: vector<2xf16>, %w: vector<2xi64>, %x: index) {
  // CHECK-NEXT: %0 = math.fpowi %arg0, %arg1 : f32, i32
  %0 = math.fpowi %a, %i : f32, i32
  // CHECK-NEXT: %1 = math.fpowi %arg2, %arg3 fastmath<fast> : vector<2xf16>, vector<2xi64>
  %1 = math.fpowi %v, %w fastmath<fast> : vector<2xf16>, vector<2xi64>
  // CHECK-NEXT: %2 = math.fpowi %arg0, %arg4 : f32, index
  %2 = math.fpowi %a, %x : f32, index
  // CHECK-NEXT: %3 = math.ipowi %arg1, %arg1 : i32
  %3 = math.ipowi %i, %i : i32
  // CHECK-NEXT: %4 = math.ipowi %arg3, %arg3 : vector<2xi64>
  %4 = math.ipowi %w, %w : vector<2xi64>
  // CHECK-NEXT: %5 = math.ipowi %arg4, %arg4 : index
  %5 = math.ipowi %x, %x : index
  // CHECK-NEXT: "tt.use"(%0, %1, %2, %3, %4, %5) : (f32, vector<2xf16>, f32, i32, vector<2xi64>, index) -> ()
  "tt.use"(%0, %1, %2, %3, %4, %5) : (f32, vector<2xf16>, f32, i32, vector<2xi64>, index) -> ()
  return
}

// CHECK-LABEL: func.func @integer(
func.func @integer(%i: i32, %v: vector<4xi8>, %t: tensor<2x?xi1>, %x: index) {
  // CHECK-NEXT: %0 = math.absi %arg0 : i32
  %0 = math.absi %i : i32
  // CHECK-NEXT: %1 = math.ctlz %arg1 : vector<4xi8>
  %1 = math.ctlz %v : vector<4xi8>
  // CHECK-NEXT: %2 = math.cttz %arg2 : tensor<2x?xi1>
  %2 = math.cttz %t : tensor<2x?xi1>
  // CHECK-NEXT: %3 = math.ctpop %arg3 : index
  %3 = math.ctpop %x : index
  // CHECK-NEXT: %4 = math.absi %arg0 {tt.note = 1 : i64} : i32
  %4 = "math.absi"(%i) {tt.note = 1} : (i32) -> i32
  // CHECK-NEXT: "tt.use"(%0, %1, %2, %3, %4) : (i32, vector<4xi8>, tensor<2x?xi1>, index, i32) -> ()
  "tt.use"(%0, %1, %2, %3, %4) : (i32, vector<4xi8>, tensor<2x?xi1>, index, i32) -> ()
  return
}

// CHECK-LABEL: func.func @classification(
func.func @classification(%a: f32, %v: vector<4xf16>, %t: tensor<?x3xf64>, %u: tensor<*xbf16>) {
  // CHECK-NEXT: %0 = math.isfinite %arg0 : f32
  %0 = math.isfinite %a : f32
  // CHECK-NEXT: %1 = math.isinf %arg1 : vector<4xf16>
  %1 = math.isinf %v : vector<4xf16>
  // CHECK-NEXT: %2 = math.isnan %arg2 : tensor<?x3xf64>
  %2 = math.isnan %t : tensor<?x3xf64>
  // CHECK-NEXT: %3 = math.isnormal %arg3 : tensor<*xbf16>
  %3 = math.isnormal %u : tensor<*xbf16>
  // CHECK-NEXT: %4 = math.isnan %arg0 {fastmath = #arith.fastmath<nnan>} : f32
  %4 = math.isnan %a {fastmath = #arith.fastmath<nnan>} : f32
  // CHECK-NEXT: %5 = math.isinf %arg0 {fastmath = #arith.fastmath<ninf>} : f32
  %5 = "math.isinf"(%a) <{fastmath = #arith.fastmath<ninf>}> : (f32) -> i1
  // CHECK-NEXT: "tt.use"(%0, %1, %2, %3, %4, %5) : (i1, vector<4xi1>, tensor<?x3xi1>, tensor<*xi1>, i1, i1) -> ()
  "tt.use"(%0, %1, %2, %3, %4, %5) : (i1, vector<4xi1>, tensor<?x3xi1>, tensor<*xi1>, i1, i1) -> ()
  return
}

// CHECK-LABEL: func.func @sincos(
func.func @sincos(%a: f32, %v: vector<3xf64>) {
  // CHECK-NEXT: %sin, %cos = math.sincos %arg0 : f32
  %0:2 = math.sincos %a : f32
  // CHECK-NEXT: %sin_0, %cos_1 = math.sincos %arg1 fastmath<afn> : vector<3xf64>
  %s, %c = math.sincos %v fastmath<afn> : vector<3xf64>
  // CHECK-NEXT: %sin_2, %cos_3 = math.sincos %arg0 : f32
  %1:2 = "math.sincos"(%a) : (f32) -> (f32, f32)
  // CHECK-NEXT: "tt.use"(%sin, %cos, %sin_0, %cos_1, %cos_3) : (f32, f32, vector<3xf64>, vector<3xf64>, f32) -> ()
  "tt.use"(%0#0, %0#1, %s, %c, %1#1) : (f32, f32, vector<3xf64>, vector<3xf64>, f32) -> ()
  return
}
