// The arith dialect's syntax: aic prints what mlir-opt prints, in both forms,
// and reads its own output back.
// RUN: aic-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect %s | aic-opt --allow-unregistered-dialect | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect %s > %t.mlir
// RUN: diff %t.aic %t.mlir
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.aic.generic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.mlir.generic
// RUN: diff %t.aic.generic %t.mlir.generic
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s | aic-opt --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK-NEXT: %c42_i32 = arith.constant 42 : i32
  %0 = arith.constant 42 : i32
  // CHECK-NEXT: %c-1_i8 = arith.constant -1 : i8
  %1 = arith.constant 255 : i8
  // CHECK-NEXT: %c7 = arith.constant 7 : index
  %2 = arith.constant 7 : index
  // CHECK-NEXT: %true = arith.constant true
  %3 = arith.constant true
  // CHECK-NEXT: %false = arith.constant false
  %4 = arith.constant 0 : i1
  // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f32
  %5 = arith.constant 1.5 : f32
  // CHECK-NEXT: %cst_0 = arith.constant dense<1> : vector<4xi32>
  %6 = arith.constant dense<1> : vector<4xi32>
  // CHECK-NEXT: %cst_1 = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>
  %7 = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  // CHECK-NEXT: %c42_i32_2 = arith.constant {tt.note} 42 : i32
  %8 = arith.constant {tt.note} 42 : i32
  // CHECK-NEXT: %c0_i64 = arith.constant 0 : i64
  %9 = "arith.constant"() <{value = 0 : i64}> : () -> i64
  // CHECK-NEXT: "tt.use"
  "tt.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9) : (i32, i8, index, i1, i1, f32, vector<4xi32>, tensor<2xf64>, i32, i64) -> ()
  return
}

// CHECK-LABEL: func.func @integer
func.func @integer(%a: i32, %b: i32, %v: vector<4xi64>, %t: tensor<?xindex>, %x: index) {
  // CHECK-NEXT: %0 = arith.addi %arg0, %arg1 : i32
  %0 = arith.addi %a, %b : i32
  // CHECK-NEXT: %1 = arith.subi %arg2, %arg2 : vector<4xi64>
  %1 = arith.subi %v, %v : vector<4xi64>
  // CHECK-NEXT: %2 = arith.muli %arg3, %arg3 : tensor<?xindex>
  %2 = arith.muli %t, %t : tensor<?xindex>
  // CHECK-NEXT: %3 = arith.divsi %arg4, %arg4 : index
  %3 = arith.divsi %x, %x : index
  // CHECK-NEXT: %4 = arith.divui %arg0, %arg1 : i32
  %4 = arith.divui %a, %b : i32
  // CHECK-NEXT: %5 = arith.ceildivsi %arg2, %arg2 : vector<4xi64>
  %5 = arith.ceildivsi %v, %v : vector<4xi64>
  // CHECK-NEXT: %6 = arith.ceildivui %arg3, %arg3 : tensor<?xindex>
  %6 = arith.ceildivui %t, %t : tensor<?xindex>
  // CHECK-NEXT: %7 = arith.floordivsi %arg4, %arg4 : index
  %7 = arith.floordivsi %x, %x : index
  // CHECK-NEXT: %8 = arith.remsi %arg0, %arg1 : i32
  %8 = arith.remsi %a, %b : i32
  // CHECK-NEXT: %9 = arith.remui %arg2, %arg2 : vector<4xi64>
  %9 = arith.remui %v, %v : vector<4xi64>
  // CHECK-NEXT: %10 = arith.andi %arg3, %arg3 : tensor<?xindex>
  %10 = arith.andi %t, %t : tensor<?xindex>
  // CHECK-NEXT: %11 = arith.ori %arg4, %arg4 : index
  %11 = arith.ori %x, %x : index
  // CHECK-NEXT: %12 = arith.xori %arg0, %arg1 : i32
  %12 = arith.xori %a, %b : i32
  // CHECK-NEXT: %13 = arith.shli %arg2, %arg2 : vector<4xi64>
  %13 = arith.shli %v, %v : vector<4xi64>
  // CHECK-NEXT: %14 = arith.shrsi %arg3, %arg3 : tensor<?xindex>
  %14 = arith.shrsi %t, %t : tensor<?xindex>
  // CHECK-NEXT: %15 = arith.shrui %arg4, %arg4 : index
  %15 = arith.shrui %x, %x : index
  // CHECK-NEXT: %16 = arith.maxsi %arg0, %arg1 : i32
  %16 = arith.maxsi %a, %b : i32
  // CHECK-NEXT: %17 = arith.maxui %arg2, %arg2 : vector<4xi64>
  %17 = arith.maxui %v, %v : vector<4xi64>
  // CHECK-NEXT: %18 = arith.minsi %arg3, %arg3 : tensor<?xindex>
  %18 = arith.minsi %t, %t : tensor<?xindex>
  // CHECK-NEXT: %19 = arith.minui %arg4, %arg4 : index
  %19 = arith.minui %x, %x : index
  // CHECK-NEXT: %20 = arith.addi %arg0, %arg1 overflow<nsw> : i32
  %20 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %21 = arith.addi %arg0, %arg1 overflow<nuw> : i32
  %21 = arith.addi %a, %b overflow<nuw> : i32
  // CHECK-NEXT: %22 = arith.addi %arg0, %arg1 overflow<nsw, nuw> : i32
  %22 = arith.addi %a, %b overflow<nsw, nuw> : i32
  // CHECK-NEXT: %23 = arith.subi %arg0, %arg1 overflow<nsw> : i32
  %23 = arith.subi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %24 = arith.subi %arg0, %arg1 overflow<nuw> : i32
  %24 = arith.subi %a, %b overflow<nuw> : i32
  // CHECK-NEXT: %25 = arith.subi %arg0, %arg1 overflow<nsw, nuw> : i32
  %25 = arith.subi %a, %b overflow<nsw, nuw> : i32
  // CHECK-NEXT: %26 = arith.muli %arg0, %arg1 overflow<nsw> : i32
  %26 = arith.muli %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %27 = arith.muli %arg0, %arg1 overflow<nuw> : i32
  %27 = arith.muli %a, %b overflow<nuw> : i32
  // CHECK-NEXT: %28 = arith.muli %arg0, %arg1 overflow<nsw, nuw> : i32
  %28 = arith.muli %a, %b overflow<nsw, nuw> : i32
  // CHECK-NEXT: %29 = arith.shli %arg0, %arg1 overflow<nsw> : i32
  %29 = arith.shli %a, %b overflow<nsw> : i32
  // CHECK-NEXT: %30 = arith.shli %arg0, %arg1 overflow<nuw> : i32
  %30 = arith.shli %a, %b overflow<nuw> : i32
  // CHECK-NEXT: %31 = arith.shli %arg0, %arg1 overflow<nsw, nuw> : i32
  %31 = arith.shli %a, %b overflow<nsw, nuw> : i32
  // CHECK-NEXT: %32 = arith.divsi %arg0, %arg1 exact : i32
  %32 = arith.divsi %a, %b exact : i32
  // CHECK-NEXT: %33 = arith.divui %arg0, %arg1 exact : i32
  %33 = arith.divui %a, %b exact : i32
  // CHECK-NEXT: %34 = arith.shrsi %arg0, %arg1 exact : i32
  %34 = arith.shrsi %a, %b exact : i32
  // CHECK-NEXT: %35 = arith.shrui %arg0, %arg1 exact : i32
  %35 = arith.shrui %a, %b exact : i32
  return
}

// CHECK-LABEL: func.func @extended
func.func @extended(%a: i32, %b: i32, %v: vector<4xi8>) {
  // CHECK-NEXT: %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
  %0:2 = arith.addui_extended %a, %b : i32, i1
  // CHECK-NEXT: %sum_0, %overflow_1 = arith.addui_extended %arg2, %arg2 : vector<4xi8>, vector<4xi1>
  %1:2 = arith.addui_extended %v, %v : vector<4xi8>, vector<4xi1>
  // CHECK-NEXT: %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
  %2:2 = arith.mulsi_extended %a, %b : i32
  // CHECK-NEXT: %low_2, %high_3 = arith.mului_extended %arg2, %arg2 : vector<4xi8>
  %3:2 = arith.mului_extended %v, %v : vector<4xi8>
  // CHECK-NEXT: "tt.use"(%sum, %overflow_1, %high, %low_2)
  "tt.use"(%0#0, %1#1, %2#1, %3#0) : (i32, vector<4xi1>, i32, vector<4xi8>) -> ()
  return
}

// CHECK-LABEL: func.func @float
func.func @float(%a: f32, %b: f32, %v: vector<4xf16>, %t: tensor<2x?xbf16>) {
  // CHECK-NEXT: %0 = arith.addf %arg0, %arg1 : f32
  %0 = arith.addf %a, %b : f32
  // CHECK-NEXT: %1 = arith.addf %arg0, %arg1 fastmath<fast> : f32
  %1 = arith.addf %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %2 = arith.subf %arg2, %arg2 : vector<4xf16>
  %2 = arith.subf %v, %v : vector<4xf16>
  // CHECK-NEXT: %3 = arith.subf %arg2, %arg2 fastmath<fast> : vector<4xf16>
  %3 = arith.subf %v, %v fastmath<fast> : vector<4xf16>
  // CHECK-NEXT: %4 = arith.mulf %arg3, %arg3 : tensor<2x?xbf16>
  %4 = arith.mulf %t, %t : tensor<2x?xbf16>
  // CHECK-NEXT: %5 = arith.mulf %arg3, %arg3 fastmath<fast> : tensor<2x?xbf16>
  %5 = arith.mulf %t, %t fastmath<fast> : tensor<2x?xbf16>
  // CHECK-NEXT: %6 = arith.divf %arg0, %arg1 : f32
  %6 = arith.divf %a, %b : f32
  // CHECK-NEXT: %7 = arith.divf %arg0, %arg1 fastmath<fast> : f32
  %7 = arith.divf %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %8 = arith.remf %arg2, %arg2 : vector<4xf16>
  %8 = arith.remf %v, %v : vector<4xf16>
  // CHECK-NEXT: %9 = arith.remf %arg2, %arg2 fastmath<fast> : vector<4xf16>
  %9 = arith.remf %v, %v fastmath<fast> : vector<4xf16>
  // CHECK-NEXT: %10 = arith.maximumf %arg3, %arg3 : tensor<2x?xbf16>
  %10 = arith.maximumf %t, %t : tensor<2x?xbf16>
  // CHECK-NEXT: %11 = arith.maximumf %arg3, %arg3 fastmath<fast> : tensor<2x?xbf16>
  %11 = arith.maximumf %t, %t fastmath<fast> : tensor<2x?xbf16>
  // CHECK-NEXT: %12 = arith.minimumf %arg0, %arg1 : f32
  %12 = arith.minimumf %a, %b : f32
  // CHECK-NEXT: %13 = arith.minimumf %arg0, %arg1 fastmath<fast> : f32
  %13 = arith.minimumf %a, %b fastmath<fast> : f32
  // CHECK-NEXT: %14 = arith.maxnumf %arg2, %arg2 : vector<4xf16>
  %14 = arith.maxnumf %v, %v : vector<4xf16>
  // CHECK-NEXT: %15 = arith.maxnumf %arg2, %arg2 fastmath<fast> : vector<4xf16>
  %15 = arith.maxnumf %v, %v fastmath<fast> : vector<4xf16>
  // CHECK-NEXT: %16 = arith.minnumf %arg3, %arg3 : tensor<2x?xbf16>
  %16 = arith.minnumf %t, %t : tensor<2x?xbf16>
  // CHECK-NEXT: %17 = arith.minnumf %arg3, %arg3 fastmath<fast> : tensor<2x?xbf16>
  %17 = arith.minnumf %t, %t fastmath<fast> : tensor<2x?xbf16>
  // CHECK-NEXT: %18 = arith.negf %arg0 : f32
  %18 = arith.negf %a : f32
  // CHECK-NEXT: %19 = arith.negf %arg2 fastmath<nnan,nsz> : vector<4xf16>
  %19 = arith.negf %v fastmath<nnan,nsz> : vector<4xf16>
  return
}

// CHECK-LABEL: func.func @compare
func.func @compare(%a: i32, %b: i32, %f: f64, %v: vector<4xf32>, %t: tensor<?xindex>) {
  // CHECK-NEXT: %0 = arith.cmpi eq, %arg0, %arg1 : i32
  %0 = arith.cmpi eq, %a, %b : i32
  // CHECK-NEXT: %1 = arith.cmpi ne, %arg4, %arg4 : tensor<?xindex>
  %1 = arith.cmpi ne, %t, %t : tensor<?xindex>
  // CHECK-NEXT: %2 = arith.cmpi slt, %arg0, %arg1 : i32
  %2 = arith.cmpi slt, %a, %b : i32
  // CHECK-NEXT: %3 = arith.cmpi sle, %arg4, %arg4 : tensor<?xindex>
  %3 = arith.cmpi sle, %t, %t : tensor<?xindex>
  // CHECK-NEXT: %4 = arith.cmpi sgt, %arg0, %arg1 : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  // CHECK-NEXT: %5 = arith.cmpi sge, %arg4, %arg4 : tensor<?xindex>
  %5 = arith.cmpi sge, %t, %t : tensor<?xindex>
  // CHECK-NEXT: %6 = arith.cmpi ult, %arg0, %arg1 : i32
  %6 = arith.cmpi ult, %a, %b : i32
  // CHECK-NEXT: %7 = arith.cmpi ule, %arg4, %arg4 : tensor<?xindex>
  %7 = arith.cmpi ule, %t, %t : tensor<?xindex>
  // CHECK-NEXT: %8 = arith.cmpi ugt, %arg0, %arg1 : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  // CHECK-NEXT: %9 = arith.cmpi uge, %arg4, %arg4 : tensor<?xindex>
  %9 = arith.cmpi uge, %t, %t : tensor<?xindex>
  // CHECK-NEXT: %10 = arith.cmpf false, %arg2, %arg2 fastmath<nnan> : f64
  %10 = arith.cmpf false, %f, %f fastmath<nnan> : f64
  // CHECK-NEXT: %11 = arith.cmpf oeq, %arg3, %arg3 : vector<4xf32>
  %11 = arith.cmpf oeq, %v, %v : vector<4xf32>
  // CHECK-NEXT: %12 = arith.cmpf ogt, %arg2, %arg2 : f64
  %12 = arith.cmpf ogt, %f, %f : f64
  // CHECK-NEXT: %13 = arith.cmpf oge, %arg3, %arg3 fastmath<nnan> : vector<4xf32>
  %13 = arith.cmpf oge, %v, %v fastmath<nnan> : vector<4xf32>
  // CHECK-NEXT: %14 = arith.cmpf olt, %arg2, %arg2 : f64
  %14 = arith.cmpf olt, %f, %f : f64
  // CHECK-NEXT: %15 = arith.cmpf ole, %arg3, %arg3 : vector<4xf32>
  %15 = arith.cmpf ole, %v, %v : vector<4xf32>
  // CHECK-NEXT: %16 = arith.cmpf one, %arg2, %arg2 fastmath<nnan> : f64
  %16 = arith.cmpf one, %f, %f fastmath<nnan> : f64
  // CHECK-NEXT: %17 = arith.cmpf ord, %arg3, %arg3 : vector<4xf32>
  %17 = arith.cmpf ord, %v, %v : vector<4xf32>
  // CHECK-NEXT: %18 = arith.cmpf ueq, %arg2, %arg2 : f64
  %18 = arith.cmpf ueq, %f, %f : f64
  // CHECK-NEXT: %19 = arith.cmpf ugt, %arg3, %arg3 fastmath<nnan> : vector<4xf32>
  %19 = arith.cmpf ugt, %v, %v fastmath<nnan> : vector<4xf32>
  // CHECK-NEXT: %20 = arith.cmpf uge, %arg2, %arg2 : f64
  %20 = arith.cmpf uge, %f, %f : f64
  // CHECK-NEXT: %21 = arith.cmpf ult, %arg3, %arg3 : vector<4xf32>
  %21 = arith.cmpf ult, %v, %v : vector<4xf32>
  // CHECK-NEXT: %22 = arith.cmpf ule, %arg2, %arg2 fastmath<nnan> : f64
  %22 = arith.cmpf ule, %f, %f fastmath<nnan> : f64
  // CHECK-NEXT: %23 = arith.cmpf une, %arg3, %arg3 : vector<4xf32>
  %23 = arith.cmpf une, %v, %v : vector<4xf32>
  // CHECK-NEXT: %24 = arith.cmpf uno, %arg2, %arg2 : f64
  %24 = arith.cmpf uno, %f, %f : f64
  // CHECK-NEXT: %25 = arith.cmpf true, %arg3, %arg3 fastmath<nnan> : vector<4xf32>
  %25 = arith.cmpf true, %v, %v fastmath<nnan> : vector<4xf32>
  return
}

// CHECK-LABEL: func.func @select
func.func @select(%c: i1, %a: i32, %b: i32, %vc: vector<4xi1>, %v: vector<4xf32>, %tc: tensor<?xi1>, %t: tensor<?xf32>) {
  // CHECK-NEXT: %0 = arith.select %arg0, %arg1, %arg2 : i32
  %0 = arith.select %c, %a, %b : i32
  // CHECK-NEXT: %1 = arith.select %arg0, %arg4, %arg4 : vector<4xf32>
  %1 = arith.select %c, %v, %v : vector<4xf32>
  // CHECK-NEXT: %2 = arith.select %arg3, %arg4, %arg4 : vector<4xi1>, vector<4xf32>
  %2 = arith.select %vc, %v, %v : vector<4xi1>, vector<4xf32>
  // CHECK-NEXT: %3 = arith.select %arg5, %arg6, %arg6 {tt.k = 1 : i64} : tensor<?xi1>, tensor<?xf32>
  %3 = arith.select %tc, %t, %t {tt.k = 1} : tensor<?xi1>, tensor<?xf32>
  // CHECK-NEXT: %4 = arith.select %arg0, %arg1, %arg2 : i32
  %4 = "arith.select"(%c, %a, %b) : (i1, i32, i32) -> i32
  return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%i: i32, %f: f32, %x: index, %vi: vector<4xi16>, %vf: vector<4xf64>, %ti: tensor<?xi8>, %m: memref<4xi32>) {
  // CHECK-NEXT: %0 = arith.extsi %arg0 : i32 to i64
  %0 = arith.extsi %i : i32 to i64
  // CHECK-NEXT: %1 = arith.extui %arg3 : vector<4xi16> to vector<4xi32>
  %1 = arith.extui %vi : vector<4xi16> to vector<4xi32>
  // CHECK-NEXT: %2 = arith.trunci %arg0 : i32 to i8
  %2 = arith.trunci %i : i32 to i8
  // CHECK-NEXT: %3 = arith.trunci %arg5 : tensor<?xi8> to tensor<?xi1>
  %3 = arith.trunci %ti : tensor<?xi8> to tensor<?xi1>
  // CHECK-NEXT: %4 = arith.extf %arg1 : f32 to f64
  %4 = arith.extf %f : f32 to f64
  // CHECK-NEXT: %5 = arith.truncf %arg4 : vector<4xf64> to vector<4xf16>
  %5 = arith.truncf %vf : vector<4xf64> to vector<4xf16>
  // CHECK-NEXT: %6 = arith.fptosi %arg1 : f32 to i32
  %6 = arith.fptosi %f : f32 to i32
  // CHECK-NEXT: %7 = arith.fptoui %arg4 : vector<4xf64> to vector<4xi8>
  %7 = arith.fptoui %vf : vector<4xf64> to vector<4xi8>
  // CHECK-NEXT: %8 = arith.sitofp %arg0 : i32 to f32
  %8 = arith.sitofp %i : i32 to f32
  // CHECK-NEXT: %9 = arith.uitofp %arg3 : vector<4xi16> to vector<4xf32>
  %9 = arith.uitofp %vi : vector<4xi16> to vector<4xf32>
  // CHECK-NEXT: %10 = arith.index_cast %arg2 : index to i32
  %10 = arith.index_cast %x : index to i32
  // CHECK-NEXT: %11 = arith.index_cast %arg0 : i32 to index
  %11 = arith.index_cast %i : i32 to index
  // CHECK-NEXT: %12 = arith.index_castui %arg2 : index to i64
  %12 = arith.index_castui %x : index to i64
  // CHECK-NEXT: %13 = arith.index_cast %arg6 : memref<4xi32> to memref<4xindex>
  %13 = arith.index_cast %m : memref<4xi32> to memref<4xindex>
  // CHECK-NEXT: %14 = arith.bitcast %arg0 : i32 to f32
  %14 = arith.bitcast %i : i32 to f32
  // CHECK-NEXT: %15 = arith.bitcast %arg4 : vector<4xf64> to vector<4xi64>
  %15 = arith.bitcast %vf : vector<4xf64> to vector<4xi64>
  // CHECK-NEXT: %16 = arith.bitcast %arg6 : memref<4xi32> to memref<4xf32>
  %16 = arith.bitcast %m : memref<4xi32> to memref<4xf32>
  // CHECK-NEXT: %17 = arith.trunci %arg0 overflow<nsw, nuw> : i32 to i16
  %17 = arith.trunci %i overflow<nsw, nuw> : i32 to i16
  // CHECK-NEXT: %18 = arith.extf %arg1 fastmath<fast> : f32 to f64
  %18 = arith.extf %f fastmath<fast> : f32 to f64
  // CHECK-NEXT: %19 = arith.extf %arg1 fastmath<none> : f32 to f64
  %19 = arith.extf %f fastmath<none> : f32 to f64
  // CHECK-NEXT: %20 = arith.truncf %arg1 to_nearest_even : f32 to bf16
  %20 = arith.truncf %f to_nearest_even : f32 to bf16
  // CHECK-NEXT: %21 = arith.truncf %arg1 downward : f32 to bf16
  %21 = arith.truncf %f downward : f32 to bf16
  // CHECK-NEXT: %22 = arith.truncf %arg1 upward : f32 to bf16
  %22 = arith.truncf %f upward : f32 to bf16
  // CHECK-NEXT: %23 = arith.truncf %arg1 toward_zero : f32 to bf16
  %23 = arith.truncf %f toward_zero : f32 to bf16
  // CHECK-NEXT: %24 = arith.truncf %arg1 to_nearest_away : f32 to bf16
  %24 = arith.truncf %f to_nearest_away : f32 to bf16
  // CHECK-NEXT: %25 = arith.truncf %arg1 upward fastmath<ninf> : f32 to f16
  %25 = arith.truncf %f upward fastmath<ninf> : f32 to f16
  // CHECK-NEXT: %26 = arith.truncf %arg1 fastmath<ninf> : f32 to f16
  %26 = arith.truncf %f fastmath<ninf> : f32 to f16
  return
}

// Flags written in any order print in MLIR's; generic properties too.
// CHECK-LABEL: func.func @flags
func.func @flags(%a: f32, %i: i32) {
  // CHECK-NEXT: %0 = arith.mulf %arg0, %arg0 fastmath<nnan,ninf,contract> : f32
  %0 = arith.mulf %a, %a fastmath<contract, ninf, nnan> : f32
  // CHECK-NEXT: %1 = arith.mulf %arg0, %arg0 fastmath<fast> : f32
  %1 = "arith.mulf"(%a, %a) <{fastmath = #arith.fastmath<afn,contract,arcp,nsz,ninf,nnan,reassoc>}> : (f32, f32) -> f32
  // CHECK-NEXT: %2 = arith.mulf %arg0, %arg0 : f32
  %2 = arith.mulf %a, %a fastmath<none> : f32
  // CHECK-NEXT: %3 = arith.muli %arg1, %arg1 overflow<nsw, nuw> : i32
  %3 = "arith.muli"(%i, %i) <{overflowFlags = #arith.overflow<nuw,nsw>}> : (i32, i32) -> i32
  // CHECK-NEXT: %4 = arith.muli %arg1, %arg1 : i32
  %4 = "arith.muli"(%i, %i) : (i32, i32) -> i32
  // CHECK-NEXT: %5 = arith.addf %arg0, %arg0 fastmath<reassoc> {tt.k} : f32
  %5 = arith.addf %a, %a fastmath<reassoc> {tt.k} : f32
  return
}
