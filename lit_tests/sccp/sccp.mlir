// sccp: sparse conditional constant propagation through arith folds, scf region
// branches (only regions that can run) and calls of private functions; the
// output is identical to mlir-opt-22 --sccp.
// RUN: aic-opt --allow-unregistered-dialect --sccp %s | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect --sccp %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --sccp %s > %t.mlir
// RUN: diff %t.aic %t.mlir

// CHECK-LABEL: func.func @simple
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[B:.*]] = arith.muli %{{.*}}, %arg0
// CHECK: return %[[C3]], %[[B]]
// CHECK-LABEL: func.func @branchy
// CHECK-NEXT: %[[C15:.*]] = arith.constant 15 : i32
// CHECK: return %[[C15]]
// CHECK-LABEL: func.func @loop
// The iter_arg stays 7 in one loop, varies in the other.
// CHECK: %[[R2:.*]] = scf.for
// CHECK: arith.addi %{{.*}}, %[[R2]]
// CHECK-LABEL: func.func @while_loop
// The body never runs: the result is the initial value.
// CHECK: return %c3_i32
func.func @simple(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = arith.addi %c1, %c2 : i32
  %b = arith.muli %a, %x : i32
  %d = arith.subi %x, %x : i32
  return %a, %b : i32, i32
}
func.func @branchy(%x: i32, %c: i1) -> i32 {
  %t = arith.constant true
  %c5 = arith.constant 5 : i32
  %r = scf.if %t -> (i32) {
    %q = arith.addi %c5, %c5 : i32
    scf.yield %q : i32
  } else {
    scf.yield %x : i32
  }
  %s = scf.if %c -> (i32) {
    scf.yield %c5 : i32
  } else {
    scf.yield %c5 : i32
  }
  %u = arith.addi %r, %s : i32
  return %u : i32
}
func.func @loop(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 7 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %k) -> (i32) {
    %z = arith.constant 0 : i32
    %b = arith.addi %a, %z : i32
    scf.yield %b : i32
  }
  %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %k) -> (i32) {
    %one = arith.constant 1 : i32
    %b = arith.addi %a, %one : i32
    scf.yield %b : i32
  }
  %s = arith.addi %r, %r2 : i32
  return %s : i32
}
func.func @while_loop() -> i32 {
  %k = arith.constant 3 : i32
  %f = arith.constant false
  %r = scf.while (%a = %k) : (i32) -> i32 {
    scf.condition(%f) %a : i32
  } do {
  ^bb0(%b: i32):
    %n = "tt.next"(%b) : (i32) -> i32
    scf.yield %n : i32
  }
  return %r : i32
}
func.func @cfg(%c: i1) -> i32 {
  %k = arith.constant 3 : i32
  "tt.br"(%c)[^bb1, ^bb2] : (i1) -> ()
^bb1:
  %a = arith.addi %k, %k : i32
  "tt.ret"(%a) : (i32) -> ()
^bb2:
  "tt.ret"(%k) : (i32) -> ()
}
// CHECK-LABEL: func.func private @dead
// CHECK: arith.addi
func.func private @dead(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = arith.addi %c1, %c2 : i32
  return %a : i32
}
func.func private @callee(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  return %a : i32
}
// CHECK-LABEL: func.func @caller
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5
// CHECK: return %[[C5]]
func.func @caller() -> i32 {
  %c4 = arith.constant 4 : i32
  %r = func.call @callee(%c4) : (i32) -> i32
  return %r : i32
}
func.func @sw(%x: f32) -> f32 {
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %r = scf.index_switch %c2 -> f32
  case 1 {
    scf.yield %x : f32
  }
  case 2 {
    %s = arith.addi %one, %one : i32
    scf.yield %x : f32
  }
  default {
    scf.yield %x : f32
  }
  return %r : f32
}
func.func @par(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 2 : i32
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%k) -> i32 {
    %m = arith.muli %k, %k : i32
    scf.reduce(%m : i32) {
    ^bb0(%l: i32, %q: i32):
      %t = arith.addi %l, %q : i32
      scf.reduce.return %t : i32
    }
  }
  return %r : i32
}
