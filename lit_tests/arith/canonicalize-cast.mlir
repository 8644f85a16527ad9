// arith folders and canonicalization patterns (cast family), checked with
// FileCheck and compared with mlir-opt-22 --canonicalize up to the order of
// hoisted constants (Inputs/norm.py names constants by value and sorts lines).
// RUN: aic-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: aic-opt %s --canonicalize --split-input-file | python3 %S/Inputs/norm.py > %t.aic
// RUN: mlir-opt %s --canonicalize --split-input-file | python3 %S/Inputs/norm.py > %t.ref
// RUN: diff %t.aic %t.ref

// CHECK-LABEL: func.func @constants(
// CHECK-DAG: %c-1077936128_i32 = arith.constant -1077936128 : i32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant -1.500000e+00 : f16
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant -1.500000e+00 : f64
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 1.000000e-01 : f64
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant -1.500000e+00 : f32
// CHECK-DAG: %c-5_i64 = arith.constant -5 : i64
// CHECK-DAG: %c4294967291_i64 = arith.constant 4294967291 : i64
// CHECK-DAG: %c-5_i8 = arith.constant -5 : i8
// CHECK-DAG: %c-5 = arith.constant -5 : index
// CHECK-DAG: %c4294967291 = arith.constant 4294967291 : index
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant -5.000000e+00 : f32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0x7C00 : f16
// CHECK-DAG: %c-1_i8 = arith.constant -1 : i8
// CHECK: %0 = arith.fptoui %{{cst(_[0-9]+)?}} : f32 to i8
// CHECK: %1 = arith.truncf %{{cst(_[0-9]+)?}} : f64 to f32
// CHECK: return %c-5_i64, %c4294967291_i64, %c-5_i8, %c-5, %c4294967291, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %c-1_i8, %0, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %c-1077936128_i32, %1 : i64, i64, i8, index, index, f32, f16, i8, i8, f64, f16, i32, f32
func.func @constants() -> (i64, i64, i8, index, index, f32, f16, i8, i8, f64, f16, i32, f32) {
  %m = arith.constant -5 : i32
  %0 = arith.extsi %m : i32 to i64
  %1 = arith.extui %m : i32 to i64
  %2 = arith.trunci %m : i32 to i8
  %3 = arith.index_cast %m : i32 to index
  %4 = arith.index_castui %m : i32 to index
  %5 = arith.sitofp %m : i32 to f32
  %big = arith.constant 65520 : i32
  %6 = arith.uitofp %big : i32 to f16
  %f = arith.constant -1.5 : f32
  %7 = arith.fptosi %f : f32 to i8
  %8 = arith.fptoui %f : f32 to i8
  %9 = arith.extf %f : f32 to f64
  %10 = arith.truncf %f : f32 to f16
  %11 = arith.bitcast %f : f32 to i32
  %tenth = arith.constant 0.1 : f64
  %12 = arith.truncf %tenth : f64 to f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : i64, i64, i8, index, index, f32, f16, i8, i8, f64, f16, i32, f32
}

// -----

// CHECK-LABEL: func.func @chains(
// CHECK-DAG: %c16_i32 = arith.constant 16 : i32
// CHECK: %0 = arith.extsi %arg0 : i8 to i64
// CHECK: %1 = arith.extui %arg0 : i8 to i64
// CHECK: %2 = arith.extsi %arg0 : i8 to i16
// CHECK: %3 = arith.index_cast %arg0 : i8 to index
// CHECK: %4 = arith.index_castui %arg0 : i8 to index
// CHECK: %5 = arith.bitcast %arg3 : f32 to i32
// CHECK: %6 = arith.extui %arg1 : i32 to i64
// CHECK: %7 = arith.shrui %arg1, %c16_i32 : i32
// CHECK: %8 = arith.trunci %7 : i32 to i16
// CHECK: return %0, %1, %2, %arg0, %arg1, %3, %4, %5, %arg3, %arg3, %arg4, %6, %8 : i64, i64, i16, i8, i32, index, index, i32, f32, f32, f16, i64, i16
func.func @chains(%i: i8, %j: i32, %k: index, %f: f32, %h: f16) -> (i64, i64, i16, i8, i32, index, index, i32, f32, f32, f16, i64, i16) {
  %0 = arith.extsi %i : i8 to i16
  %1 = arith.extsi %0 : i16 to i64
  %2 = arith.extui %i : i8 to i16
  %3 = arith.extsi %2 : i16 to i64
  %4 = arith.extsi %i : i8 to i32
  %5 = arith.trunci %4 : i32 to i16
  %6 = arith.trunci %4 : i32 to i8
  %7 = arith.index_cast %j : i32 to index
  %8 = arith.index_cast %7 : index to i32
  %9 = arith.index_cast %0 : i16 to index
  %10 = arith.index_castui %2 : i16 to index
  %11 = arith.bitcast %f : f32 to i32
  %12 = arith.bitcast %11 : i32 to f32
  %e = arith.extf %h : f16 to f32
  %13 = arith.truncf %e : f32 to f16
  %t = arith.truncf %f fastmath<contract> : f32 to f16
  %14 = arith.extf %t fastmath<contract> : f16 to f32
  %w = arith.extui %j : i32 to i64
  %t2 = arith.trunci %w : i64 to i48
  %15 = arith.extsi %t2 : i48 to i64
  %c16 = arith.constant 16 : i32
  %sh = arith.shrsi %j, %c16 : i32
  %16 = arith.trunci %sh : i32 to i16
  return %1, %3, %5, %6, %8, %9, %10, %11, %12, %14, %13, %15, %16 : i64, i64, i16, i8, i32, index, index, i32, f32, f32, f16, i64, i16
}

// -----

// CHECK-LABEL: func.func @int_fp(
// CHECK-DAG: %true = arith.constant true
// CHECK: %0 = arith.sitofp %arg0 : i8 to f16
// CHECK: %1 = arith.uitofp %arg0 : i8 to f64
// CHECK: %2 = arith.truncf %1 to_nearest_even : f64 to f32
// CHECK: return %0, %true, %2 : f16, i1, f32
func.func @int_fp(%i: i8, %f: f64) -> (f16, i1, f32) {
  %s = arith.sitofp %i : i8 to f64
  %0 = arith.truncf %s : f64 to f16
  %e1 = arith.extui %i : i8 to i32
  %e2 = arith.extui %i : i8 to i32
  %x = arith.xori %e1, %e2 : i32
  %c = arith.constant 0 : i32
  %1 = arith.cmpi eq, %x, %c : i32
  %u = arith.uitofp %i : i8 to f64
  %2 = arith.truncf %u to_nearest_even : f64 to f32
  return %0, %1, %2 : f16, i1, f32
}

