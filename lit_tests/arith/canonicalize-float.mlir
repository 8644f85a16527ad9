// arith folders and canonicalization patterns (float family), checked with
// FileCheck and compared with mlir-opt-22 --canonicalize up to the order of
// hoisted constants (Inputs/norm.py names constants by value and sorts lines).
// RUN: aic-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: aic-opt %s --canonicalize --split-input-file | python3 %S/Inputs/norm.py > %t.aic
// RUN: mlir-opt %s --canonicalize --split-input-file | python3 %S/Inputs/norm.py > %t.ref
// RUN: diff %t.aic %t.ref

// CHECK-LABEL: func.func @identities(
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0.000000e+00 : f32
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %{{cst(_[0-9]+)?}}, %arg1, %arg0 : f32, f32, f32, f32, f32, f32, f32, vector<2xf32>, f32
func.func @identities(%x: f32, %v: vector<2xf32>) -> (f32, f32, f32, f32, f32, f32, f32, vector<2xf32>, f32) {
  %nz = arith.constant -0.0 : f32
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.addf %x, %nz : f32
  %1 = arith.subf %x, %z : f32
  %2 = arith.mulf %x, %one : f32
  %3 = arith.divf %x, %one : f32
  %4 = arith.maximumf %x, %ninf : f32
  %5 = arith.maxnumf %x, %nan : f32
  %6 = arith.mulf %x, %z fastmath<nnan,nsz> : f32
  %s = arith.constant dense<1.0> : vector<2xf32>
  %7 = arith.mulf %v, %s : vector<2xf32>
  %n = arith.negf %x : f32
  %8 = arith.negf %n : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f32, vector<2xf32>, f32
}

// -----

// CHECK-LABEL: func.func @ieee(
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0x7FC00001 : f32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0.333333343 : f32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0xFF800001 : f32
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 2.048000e+03 : f16
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0x7F80 : bf16
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant 0.30000000000000004 : f64
// CHECK: return %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}}, %{{cst(_[0-9]+)?}} : f32, f32, f32, f32, f32, f32, f16, bf16, f64
func.func @ieee(%x: f32) -> (f32, f32, f32, f32, f32, f32, f16, bf16, f64) {
  %inf = arith.constant 0x7F800000 : f32
  %snan = arith.constant 0x7F800001 : f32
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %0 = arith.subf %inf, %inf : f32
  %1 = arith.addf %one, %snan : f32
  %2 = arith.minimumf %nz, %z : f32
  %3 = arith.divf %one, %three : f32
  %4 = arith.remf %nz, %one : f32
  %5 = arith.negf %snan : f32
  %h1 = arith.constant 2048.0 : f16
  %h2 = arith.constant 1.0 : f16
  %6 = arith.addf %h1, %h2 : f16
  %b = arith.constant 3.0e+38 : bf16
  %7 = arith.mulf %b, %b : bf16
  %d1 = arith.constant 0.1 : f64
  %d2 = arith.constant 0.2 : f64
  %8 = arith.addf %d1, %d2 : f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : f32, f32, f32, f32, f32, f32, f16, bf16, f64
}

// -----

// CHECK-LABEL: func.func @cmpf(
// CHECK-DAG: %true = arith.constant true
// CHECK-DAG: %false = arith.constant false
// CHECK: return %true, %false, %true, %false, %true : i1, i1, i1, i1, i1
func.func @cmpf(%x: f32) -> (i1, i1, i1, i1, i1) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %0 = arith.cmpf uno, %x, %nan : f32
  %1 = arith.cmpf ord, %nan, %x : f32
  %2 = arith.cmpf olt, %one, %two : f32
  %3 = arith.cmpf une, %one, %one : f32
  %4 = arith.cmpf ueq, %nan, %one : f32
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @negf_patterns(
// CHECK: %0 = arith.mulf %arg0, %arg1 fastmath<fast> : f32
// CHECK: %1 = arith.divf %arg0, %arg1 : f32
// CHECK: return %0, %1 : f32, f32
func.func @negf_patterns(%x: f32, %y: f32) -> (f32, f32) {
  %a = arith.negf %x : f32
  %b = arith.negf %y : f32
  %0 = arith.mulf %a, %b fastmath<fast> : f32
  %1 = arith.divf %a, %b : f32
  return %0, %1 : f32, f32
}

