// aic-run's test mode: every public function without arguments runs; checks
// decide PASS or FAIL; an unsupported op or undefined behaviour fails only its
// function.
// RUN: not aic-run --interpret --allow-unregistered-dialect --split-input-file %s | FileCheck %s

// CHECK: PASS loop_sum
func.func @loop_sum() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 11 : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%a = %c0) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %s = arith.addi %a, %ii : i32
    scf.yield %s : i32
  }
  %c55 = arith.constant 55 : i32
  %ok = arith.cmpi eq, %r, %c55 : i32
  scf.if %ok {
  } else {
    %bad = arith.constant dense<1> : tensor<1xi32>
    check.expect_eq_const %bad, dense<0> : tensor<1xi32>
  }
  return
}

// -----

// CHECK: PASS elementwise
func.func @elementwise() {
  %a = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.constant dense<[4, 5, 6]> : tensor<3xi32>
  %c = arith.addi %a, %b : tensor<3xi32>
  check.expect_eq_const %c, dense<[5, 7, 9]> : tensor<3xi32>
  %f = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = math.exp %f : tensor<2xf32>
  check.expect_almost_eq_const %e, dense<[2.718282, 7.389056]> : tensor<2xf32>
  check.expect_close %e, %e, max_ulp_difference = 0 : tensor<2xf32>, tensor<2xf32>
  return
}

// CHECK: PASS wrap_around
func.func @wrap_around() {
  %a = arith.constant dense<[1, -128]> : tensor<2xi8>
  %b = arith.constant dense<[127, -1]> : tensor<2xi8>
  %c = arith.addi %a, %b : tensor<2xi8>
  check.expect_eq_const %c, dense<[-128, 127]> : tensor<2xi8>
  %m = arith.muli %a, %b : tensor<2xi8>
  check.expect_eq_const %m, dense<[127, -128]> : tensor<2xi8>
  return
}

// CHECK: PASS ieee
func.func @ieee() {
  %z = arith.constant dense<[0.0, -0.0, 1.0]> : tensor<3xf32>
  %o = arith.constant dense<[0.0, 0.0, 0.0]> : tensor<3xf32>
  %d = arith.divf %z, %o : tensor<3xf32>
  %nan = arith.cmpf uno, %d, %d : tensor<3xf32>
  check.expect_eq_const %nan, dense<[true, true, false]> : tensor<3xi1>
  %mx = arith.maximumf %z, %o : tensor<3xf32>
  check.expect_eq_const %mx, dense<[0.0, 0.0, 1.0]> : tensor<3xf32>
  %big = arith.constant 3.0e38 : f32
  %inf = arith.mulf %big, %big : f32
  %isinf = math.isinf %inf : f32
  %t = arith.constant true
  %ok = arith.cmpi eq, %isinf, %t : i1
  scf.if %ok {
  } else {
    %bad = arith.constant dense<1> : tensor<1xi32>
    check.expect_eq_const %bad, dense<0> : tensor<1xi32>
  }
  return
}

// CHECK: FAIL mismatch: check.expect_eq_const failed at element 1: got 4, expected 5
func.func @mismatch() {
  %a = arith.constant dense<[1, 2]> : tensor<2xi32>
  %c = arith.addi %a, %a : tensor<2xi32>
  check.expect_eq_const %c, dense<[2, 5]> : tensor<2xi32>
  return
}

// CHECK: FAIL division_by_zero: 'arith.divsi' is undefined here
func.func @division_by_zero() {
  %a = arith.constant 1 : i32
  %z = arith.constant 0 : i32
  %c = arith.divsi %a, %z : i32
  return
}

// CHECK: FAIL unsupported: unsupported op 'tt.mystery'
func.func @unsupported() {
  "tt.mystery"() : () -> ()
  return
}

// Functions with arguments and private ones are not tests.
// CHECK-NOT: has_args
func.func @has_args(%x: i32) {
  return
}

// -----

// CHECK: PASS control_flow
func.func @control_flow() {
  %c3 = arith.constant 3 : i32
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  // Count down from 3 with scf.while; sum with scf.if on parity.
  %r:2 = scf.while (%n = %c3, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi sgt, %n, %c0 : i32
    scf.condition(%more) %n, %acc : i32, i32
  } do {
  ^bb0(%n: i32, %acc: i32):
    %odd = arith.andi %n, %c1 : i32
    %is = arith.cmpi ne, %odd, %c0 : i32
    %add = scf.if %is -> (i32) {
      scf.yield %n : i32
    } else {
      scf.yield %c0 : i32
    }
    %acc2 = arith.addi %acc, %add : i32
    %n2 = arith.subi %n, %c1 : i32
    scf.yield %n2, %acc2 : i32, i32
  }
  %c4 = arith.constant 4 : i32
  %ok = arith.cmpi eq, %r#1, %c4 : i32
  scf.if %ok {
  } else {
    %bad = arith.constant dense<1> : tensor<1xi32>
    check.expect_eq_const %bad, dense<0> : tensor<1xi32>
  }
  return
}

// CHECK: 5 passed, 3 failed
