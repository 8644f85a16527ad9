// The scf dialect's syntax: aic prints what mlir-opt prints, in both forms,
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
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-debuginfo %s > %t.aic.loc
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %s > %t.mlir.loc
// RUN: diff %t.aic.loc %t.mlir.loc

// CHECK-LABEL: func.func @loops
func.func @loops(%lb: index, %ub: index, %s: index, %x: f32, %i: i32) -> f32 {
  // CHECK: %[[R:.*]]:2 = scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (f32, f32) {
  // CHECK-NEXT: %[[Y:.*]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK-NEXT: scf.yield %[[Y]], %[[A]] : f32, f32
  %r:2 = scf.for %iv = %lb to %ub step %s iter_args(%a = %x, %b = %x) -> (f32, f32) {
    %y = arith.addf %a, %b : f32
    scf.yield %y, %a : f32, f32
  }
  // The implicit terminator is left out.
  // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-NEXT: }
  scf.for %iv = %lb to %ub step %s {
  }
  // CHECK: scf.for unsigned %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}}  : i32 {
  // CHECK-NEXT: "tt.use"(%[[J]]) : (i32) -> ()
  // CHECK-NEXT: } {tt.attr}
  scf.for unsigned %iv = %i to %i step %i : i32 {
    "tt.use"(%iv) : (i32) -> ()
  } {tt.attr}
  // A single result without parentheses.
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
  %one = scf.for %iv = %lb to %ub step %s iter_args(%a = %x) -> f32 {
    scf.yield %a : f32
  }
  // CHECK: %{{.*}}:2 = scf.while (%[[W0:.*]] = %{{.*}}, %[[W1:.*]] = %{{.*}}) : (f32, i32) -> (f32, i32) {
  // CHECK-NEXT: scf.condition(%{{.*}}) %[[W0]], %[[W1]] : f32, i32
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32):
  %c = "tt.cond"() : () -> i1
  %w:2 = scf.while (%arg1 = %x, %arg2 = %i) : (f32, i32) -> (f32, i32) {
    scf.condition(%c) %arg1, %arg2 : f32, i32
  } do {
  ^bb0(%a1: f32, %a2: i32):
    scf.yield %a1, %a2 : f32, i32
  } attributes {tt.w}
  // CHECK: scf.while : () -> () {
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  // CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) init (%{{.*}}) -> f32 {
  // CHECK: scf.reduce(%{{.*}} : f32) {
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK: scf.reduce.return %{{.*}} : f32
  %p = scf.parallel (%i0, %i1) = (%lb, %lb) to (%ub, %ub) step (%s, %s) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r2: f32):
      %t = arith.addf %l, %r2 : f32
      scf.reduce.return %t : f32
    }
  }
  // Two reductions, one region each.
  // CHECK: scf.reduce(%{{.*}}, %{{.*}} : f32, i32) {
  // CHECK: }, {
  %p2:2 = scf.parallel (%i0) = (%lb) to (%ub) step (%s) init (%x, %i) -> (f32, i32) {
    scf.reduce(%x, %i : f32, i32) {
    ^bb0(%l: f32, %r2: f32):
      scf.reduce.return %l : f32
    }, {
    ^bb0(%l: i32, %r2: i32):
      scf.reduce.return %r2 : i32
    }
  }
  // The implicit scf.reduce is printed.
  // CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
  // CHECK-NEXT: "tt.c"() : () -> ()
  // CHECK-NEXT: scf.reduce
  scf.parallel (%i0) = (%lb) to (%ub) step (%s) {
    "tt.c"() : () -> ()
  }
  return %r#0 : f32
}

// CHECK-LABEL: func.func @branches
func.func @branches(%c: i1, %x: f32, %n: index) -> f32 {
  // CHECK: %{{.*}} = scf.if %{{.*}} -> (f32) {
  // CHECK-NEXT: scf.yield %{{.*}} : f32
  // CHECK-NEXT: } else {
  %q = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %x : f32
  }
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: "tt.a"() : () -> ()
  // CHECK-NEXT: }
  scf.if %c {
    "tt.a"() : () -> ()
  }
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: } else {
  // CHECK-NEXT: "tt.b"() : () -> ()
  // CHECK-NEXT: } {tt.if}
  scf.if %c {
  } else {
    "tt.b"() : () -> ()
  } {tt.if}
  // CHECK: %{{.*}} = scf.execute_region -> f32 no_inline {
  %e = scf.execute_region -> f32 no_inline {
    scf.yield %x : f32
  }
  // CHECK: scf.execute_region -> (f32, i1) {
  // CHECK: ^bb1:
  %e2:2 = scf.execute_region -> (f32, i1) {
    "tt.br"()[^bb1] : () -> ()
  ^bb1:
    scf.yield %x, %c : f32, i1
  } {tt.e}
  // CHECK: %{{.*}} = scf.index_switch %{{.*}} -> f32 
  // CHECK-NEXT: case 2 {
  // CHECK: case -5 {
  // CHECK: default {
  %sw = scf.index_switch %n -> f32
  case 2 {
    scf.yield %x : f32
  }
  case -5 {
    scf.yield %x : f32
  }
  default {
    scf.yield %x : f32
  }
  // CHECK: scf.index_switch %{{.*}} {tt.s}
  // CHECK-NEXT: default {
  // CHECK-NEXT: }
  scf.index_switch %n {tt.s}
  default {
  }
  return %q : f32
}
