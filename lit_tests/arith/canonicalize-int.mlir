// arith folders and canonicalization patterns (int family), checked with
// FileCheck and compared with mlir-opt-22 --canonicalize up to the order of
// hoisted constants (Inputs/norm.py names constants by value and sorts lines).
// RUN: aic-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: aic-opt %s --canonicalize --split-input-file | python3 %S/Inputs/norm.py > %t.aic
// RUN: mlir-opt %s --canonicalize --split-input-file | python3 %S/Inputs/norm.py > %t.ref
// RUN: diff %t.aic %t.ref

// CHECK-LABEL: func.func @addi_chains(
// CHECK-DAG: %c25_i32 = arith.constant 25 : i32
// CHECK-DAG: %c4_i32 = arith.constant 4 : i32
// CHECK-DAG: %c5_i32 = arith.constant 5 : i32
// CHECK-DAG: %c6_i32 = arith.constant 6 : i32
// CHECK: %0 = arith.addi %arg0, %c6_i32 overflow<nuw> : i32
// CHECK: %1 = arith.addi %arg0, %c4_i32 : i32
// CHECK: %2 = arith.subi %c6_i32, %arg0 overflow<nsw> : i32
// CHECK: %3 = arith.subi %c5_i32, %arg0 : i32
// CHECK: %4 = arith.muli %arg0, %c25_i32 : i32
// CHECK: return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
func.func @addi_chains(%x: i32) -> (i32, i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %0 = arith.addi %x, %c1 overflow<nsw, nuw> : i32
  %1 = arith.addi %0, %c5 overflow<nuw> : i32
  %2 = arith.subi %x, %c1 : i32
  %3 = arith.addi %2, %c5 : i32
  %4 = arith.subi %c1, %x overflow<nsw> : i32
  %5 = arith.addi %4, %c5 overflow<nsw> : i32
  %m = arith.constant -1 : i32
  %6 = arith.muli %x, %m : i32
  %7 = arith.addi %c5, %6 : i32
  %8 = arith.muli %x, %c5 : i32
  %9 = arith.muli %8, %c5 : i32
  return %1, %3, %5, %7, %9 : i32, i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @subi_chains(
// CHECK-DAG: %c0_i64 = arith.constant 0 : i64
// CHECK-DAG: %c12_i64 = arith.constant 12 : i64
// CHECK-DAG: %c6_i64 = arith.constant 6 : i64
// CHECK-DAG: %c-6_i64 = arith.constant -6 : i64
// CHECK: %0 = arith.addi %arg0, %c-6_i64 : i64
// CHECK: %1 = arith.subi %c6_i64, %arg0 : i64
// CHECK: %2 = arith.subi %arg0, %c12_i64 overflow<nsw> : i64
// CHECK: %3 = arith.subi %c-6_i64, %arg0 : i64
// CHECK: %4 = arith.subi %c12_i64, %arg0 : i64
// CHECK: %5 = arith.addi %arg0, %c6_i64 : i64
// CHECK: %6 = arith.subi %c0_i64, %arg1 : i64
// CHECK: return %0, %1, %2, %3, %4, %5, %6 : i64, i64, i64, i64, i64, i64, i64
func.func @subi_chains(%x: i64, %y: i64) -> (i64, i64, i64, i64, i64, i64, i64) {
  %c3 = arith.constant 3 : i64
  %c9 = arith.constant 9 : i64
  %a = arith.addi %x, %c3 : i64
  %0 = arith.subi %a, %c9 : i64
  %1 = arith.subi %c9, %a overflow<nsw> : i64
  %s = arith.subi %x, %c3 overflow<nsw> : i64
  %2 = arith.subi %s, %c9 overflow<nsw> : i64
  %t = arith.subi %c3, %x : i64
  %3 = arith.subi %t, %c9 : i64
  %4 = arith.subi %c9, %s : i64
  %5 = arith.subi %c9, %t : i64
  %u = arith.subi %x, %y : i64
  %6 = arith.subi %u, %x : i64
  return %0, %1, %2, %3, %4, %5, %6 : i64, i64, i64, i64, i64, i64, i64
}

// -----

// CHECK-LABEL: func.func @through_defs(
// CHECK-DAG: %c-1_i8 = arith.constant -1 : i8
// CHECK-DAG: %c0_i8 = arith.constant 0 : i8
// CHECK: %0 = arith.andi %arg0, %arg1 : i8
// CHECK: return %arg0, %arg1, %c0_i8, %c-1_i8, %arg0, %arg0, %0 : i8, i8, i8, i8, i8, i8, i8
func.func @through_defs(%a: i8, %b: i8) -> (i8, i8, i8, i8, i8, i8, i8) {
  %s = arith.subi %a, %b : i8
  %0 = arith.addi %s, %b : i8
  %p = arith.addi %a, %b : i8
  %1 = arith.subi %p, %a : i8
  %m1 = arith.constant -1 : i8
  %n = arith.xori %a, %m1 : i8
  %2 = arith.andi %a, %n : i8
  %3 = arith.ori %n, %a : i8
  %x = arith.xori %a, %b : i8
  %4 = arith.xori %x, %b : i8
  %mul = arith.muli %a, %b overflow<nuw> : i8
  %5 = arith.divui %mul, %b : i8
  %and = arith.andi %a, %b : i8
  %6 = arith.andi %a, %and : i8
  return %0, %1, %2, %3, %4, %5, %6 : i8, i8, i8, i8, i8, i8, i8
}

// -----

// CHECK-LABEL: func.func @cmpi(
// CHECK-DAG: %c7_i64 = arith.constant 7 : i64
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant dense<false> : vector<4xi1>
// CHECK-DAG: %false = arith.constant false
// CHECK-DAG: %c7_i32 = arith.constant 7 : i32
// CHECK-DAG: %true = arith.constant true
// CHECK: %0 = arith.cmpi sgt, %arg0, %c7_i32 : i32
// CHECK: %1 = arith.cmpi sle, %arg0, %c7_i32 : i32
// CHECK: %2 = arith.extsi %arg0 : i32 to i64
// CHECK: %3 = arith.cmpi eq, %2, %c7_i64 : i64
// CHECK: return %true, %0, %false, %arg1, %arg1, %arg1, %{{cst(_[0-9]+)?}}, %1, %3 : i1, i1, i1, i1, i1, i1, vector<4xi1>, i1, i1
func.func @cmpi(%a: i32, %b: i1, %v: vector<4xi32>) -> (i1, i1, i1, i1, i1, i1, vector<4xi1>, i1, i1) {
  %c7 = arith.constant 7 : i32
  %c9 = arith.constant 9 : i32
  %0 = arith.cmpi sle, %a, %a : i32
  %1 = arith.cmpi slt, %c7, %a : i32
  %2 = arith.cmpi ult, %c9, %c7 : i32
  %e = arith.extui %b : i1 to i32
  %c0 = arith.constant 0 : i32
  %3 = arith.cmpi ne, %e, %c0 : i32
  %f = arith.constant false
  %4 = arith.cmpi ne, %b, %f : i1
  %t = arith.constant true
  %5 = arith.cmpi eq, %b, %t : i1
  %6 = arith.cmpi ugt, %v, %v : vector<4xi32>
  %x = arith.cmpi sgt, %a, %c7 : i32
  %7 = arith.xori %x, %t : i1
  %s1 = arith.extsi %a : i32 to i64
  %s2 = arith.extsi %c7 : i32 to i64
  %8 = arith.cmpi eq, %s1, %s2 : i64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i1, i1, i1, i1, i1, i1, vector<4xi1>, i1, i1
}

// -----

// CHECK-LABEL: func.func @select(
// CHECK-DAG: %true = arith.constant true
// CHECK: %0 = arith.select %arg0, %arg3, %arg2 : i32
// CHECK: %1 = arith.select %arg0, %arg2, %arg3 : i32
// CHECK: %2 = arith.xori %arg0, %true : i1
// CHECK: %3 = arith.extui %arg1 : i1 to i32
// CHECK: return %arg2, %arg2, %arg0, %arg3, %0, %1, %arg3, %2, %3 : i32, i32, i1, i32, i32, i32, i32, i1, i32
func.func @select(%c: i1, %d: i1, %a: i32, %b: i32) -> (i32, i32, i1, i32, i32, i32, i32, i1, i32) {
  %t = arith.constant true
  %f = arith.constant false
  %0 = arith.select %c, %a, %a : i32
  %1 = arith.select %t, %a, %b : i32
  %2 = arith.select %c, %t, %f : i1
  %e = arith.cmpi eq, %a, %b : i32
  %3 = arith.select %e, %a, %b : i32
  %n = arith.xori %c, %t : i1
  %4 = arith.select %n, %a, %b : i32
  %s = arith.select %c, %a, %b : i32
  %5 = arith.select %c, %s, %b : i32
  %6 = arith.select %c, %b, %s : i32
  %7 = arith.select %c, %f, %t : i1
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %8 = arith.select %d, %one, %zero : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i1, i32, i32, i32, i32, i1, i32
}

// -----

// CHECK-LABEL: func.func @extended(
// CHECK-DAG: %c0_i32 = arith.constant 0 : i32
// CHECK-DAG: %true = arith.constant true
// CHECK-DAG: %c-2_i32 = arith.constant -2 : i32
// CHECK: %0 = arith.cmpi slt, %arg0, %c0_i32 : i32
// CHECK: %1 = arith.extsi %0 : i1 to i32
// CHECK: return %arg0, %true, %c-2_i32, %c0_i32, %1, %c0_i32, %arg0 : i32, i1, i32, i32, i32, i32, i32
func.func @extended(%a: i32, %b: i32) -> (i32, i1, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %m = arith.constant -1 : i32
  %s, %o = arith.addui_extended %a, %c0 : i32, i1
  %s2, %o2 = arith.addui_extended %m, %c1 : i32, i1
  %l, %h = arith.mului_extended %m, %m : i32
  %l2, %h2 = arith.mulsi_extended %m, %m : i32
  %l3, %h3 = arith.mulsi_extended %a, %c1 : i32
  return %s, %o2, %h, %h2, %h3, %s2, %l3 : i32, i1, i32, i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @splat(
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant dense<4464> : tensor<2xi16>
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant dense<-4> : vector<4xi32>
// CHECK-DAG: %{{cst(_[0-9]+)?}} = arith.constant dense<-1> : vector<4xi32>
// CHECK: %0 = arith.muli %arg0, %{{cst(_[0-9]+)?}} : vector<4xi32>
// CHECK: return %{{cst(_[0-9]+)?}}, %0, %{{cst(_[0-9]+)?}} : vector<4xi32>, vector<4xi32>, tensor<2xi16>
func.func @splat(%x: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, tensor<2xi16>) {
  %c = arith.constant dense<3> : vector<4xi32>
  %d = arith.constant dense<-4> : vector<4xi32>
  %0 = arith.addi %c, %d : vector<4xi32>
  %1 = arith.muli %x, %d : vector<4xi32>
  %z = arith.constant dense<0> : vector<4xi32>
  %2 = arith.addi %1, %z : vector<4xi32>
  %t = arith.constant dense<70000> : tensor<2xi32>
  %3 = arith.trunci %t : tensor<2xi32> to tensor<2xi16>
  return %0, %2, %3 : vector<4xi32>, vector<4xi32>, tensor<2xi16>
}

