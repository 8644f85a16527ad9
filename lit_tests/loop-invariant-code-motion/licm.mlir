// loop-invariant-code-motion: invariant, effect-free, speculatable ops leave loop
// bodies (innermost loops first); output identical to mlir-opt-22's.
// RUN: aic-opt --allow-unregistered-dialect --loop-invariant-code-motion %s | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect --loop-invariant-code-motion %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --loop-invariant-code-motion %s > %t.mlir
// RUN: diff %t.aic %t.mlir

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[INV:.*]] = arith.mulf %arg3, %arg4
// CHECK-NEXT: %[[INV2:.*]] = arith.addf %[[INV]], %arg4
// CHECK-NEXT: %[[C:.*]] = arith.constant 3.0
// CHECK-NEXT: %[[K:.*]] = arith.mulf %[[INV2]], %[[C]]
// CHECK-NEXT: scf.if
// CHECK: scf.for
// Division may trap and unregistered ops may have effects: they stay.
// CHECK: arith.divsi
// CHECK: "tt.op"
func.func @f(%lb: index, %ub: index, %s: index, %x: f32, %y: f32, %n: i32, %d: i32, %arg_c: i1) -> f32 {
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
    %inv = arith.mulf %x, %y : f32
    %inv2 = arith.addf %inv, %y : f32
    %var = arith.addf %a, %inv2 : f32
    %div = arith.divsi %n, %d : i32
    %c = arith.constant 3.0 : f32
    %side = "tt.op"(%inv) : (f32) -> f32
    %in = scf.for %j = %lb to %ub step %s iter_args(%b = %var) -> (f32) {
      %k = arith.mulf %inv2, %c : f32
      %t = arith.addf %b, %k : f32
      scf.yield %t : f32
    }
    %sel = scf.if %arg_c -> (f32) {
      %q = arith.mulf %x, %x : f32
      scf.yield %q : f32
    } else {
      scf.yield %y : f32
    }
    scf.yield %in : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @while
// CHECK-NEXT: %[[M:.*]] = arith.mulf %arg0, %arg0
// CHECK-NEXT: scf.while
func.func @while(%x: f32) -> f32 {
  %r = scf.while (%a = %x) : (f32) -> f32 {
    %m = arith.mulf %x, %x : f32
    %c = "tt.cond"(%a, %m) : (f32, f32) -> i1
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    %n = arith.addf %b, %b : f32
    scf.yield %n : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @parallel
// CHECK-NEXT: arith.addi %arg1, %arg1
// CHECK-NEXT: scf.parallel
func.func @parallel(%lb: index, %n: index) {
  scf.parallel (%i) = (%lb) to (%n) step (%lb) {
    %s = arith.addi %n, %n : index
    "tt.use"(%s, %i) : (index, index) -> ()
  }
  return
}
