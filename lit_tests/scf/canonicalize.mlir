// scf's folders and canonicalisation patterns: aic-opt --canonicalize prints
// exactly what mlir-opt-22 --canonicalize prints.
// RUN: aic-opt --allow-unregistered-dialect --canonicalize %s | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect --canonicalize %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --canonicalize %s > %t.mlir
// RUN: diff %t.aic %t.mlir

// CHECK-LABEL: func.func @static_if
// CHECK-NOT: scf.if
// CHECK: arith.addf
// CHECK: arith.mulf
func.func @static_if(%x: f32, %y: f32) -> (f32, f32) {
  %t = arith.constant true
  %f = arith.constant false
  %a = scf.if %t -> (f32) {
    %s = arith.addf %x, %y : f32
    scf.yield %s : f32
  } else {
    scf.yield %y : f32
  }
  %b = scf.if %f -> (f32) {
    scf.yield %x : f32
  } else {
    %m = arith.mulf %x, %y : f32
    scf.yield %m : f32
  }
  scf.if %f {
    "tt.side"() : () -> ()
  }
  return %a, %b : f32, f32
}

// CHECK-LABEL: func.func @unused
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK-NOT: arith.addf
func.func @unused(%c: i1, %x: f32, %y: f32) -> f32 {
  %a, %b = scf.if %c -> (f32, f32) {
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %x, %y : f32
    scf.yield %s, %m : f32, f32
  } else {
    %s = arith.subf %x, %y : f32
    scf.yield %s, %s : f32, f32
  }
  return %b : f32
}

// CHECK-LABEL: func.func @empty_else
// CHECK: scf.if
// CHECK-NOT: else
func.func @empty_else(%c: i1) {
  scf.if %c {
    "tt.a"() : () -> ()
  } else {
  }
  return
}

// CHECK-LABEL: func.func @propagate
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: "tt.use"(%[[T]])
// CHECK: "tt.use"(%[[F]])
func.func @propagate(%c: i1) {
  scf.if %c {
    "tt.use"(%c) : (i1) -> ()
  } else {
    "tt.use"(%c) : (i1) -> ()
  }
  return
}

// CHECK-LABEL: func.func @not_cond
// CHECK-NEXT: scf.if %arg0 {
// CHECK-NEXT: "tt.b"
func.func @not_cond(%c: i1) {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  scf.if %n {
    "tt.a"() : () -> ()
  } else {
    "tt.b"() : () -> ()
  }
  return
}

// CHECK-LABEL: func.func @loops
// CHECK-COUNT-1: scf.for
// CHECK: return %arg0, %arg0, %{{.*}}, %arg0
func.func @loops(%x: f32, %n: index) -> (f32, f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %a = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %b = scf.for %i = %c4 to %c0 step %c1 iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %c = scf.for %i = %c0 to %c4 step %c10 iter_args(%acc = %x) -> (f32) {
    "tt.use"(%i) : (index) -> ()
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %d = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    "tt.use"(%i) : (index) -> ()
    scf.yield %acc : f32
  }
  return %a, %b, %c, %d : f32, f32, f32, f32
}

// CHECK-LABEL: func.func @for_unused
// CHECK: scf.for {{.*}} -> (f32, f32)
func.func @for_unused(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a, %b = scf.for %i = %c0 to %n step %c1 iter_args(%p = %x, %q = %x) -> (f32, f32) {
    %s = arith.addf %p, %p : f32
    %t = "tt.op"(%q) : (f32) -> f32
    scf.yield %s, %t : f32, f32
  }
  return %b : f32
}

// CHECK-LABEL: func.func @for_empty
// CHECK-NEXT: return
func.func @for_empty(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}

// CHECK-LABEL: func.func @exec
// CHECK-NOT: scf.execute_region
func.func @exec(%x: f32) -> f32 {
  %r = scf.execute_region -> f32 {
    %s = arith.addf %x, %x : f32
    scf.yield %s : f32
  }
  %q = scf.execute_region -> f32 no_inline {
    scf.yield %r : f32
  }
  return %q : f32
}

// CHECK-LABEL: func.func @switch
// CHECK-NEXT: %[[S:.*]] = arith.addf
// CHECK-NEXT: return %[[S]]
func.func @switch(%x: f32, %y: f32) -> f32 {
  %c5 = arith.constant 5 : index
  %r = scf.index_switch %c5 -> f32
  case 2 {
    scf.yield %x : f32
  }
  case 5 {
    %s = arith.addf %x, %y : f32
    scf.yield %s : f32
  }
  default {
    scf.yield %y : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @while
// CHECK: scf.while : () -> () {
// CHECK: "tt.use"(%true)
func.func @while(%x: f32) -> f32 {
  %r:2 = scf.while (%a = %x) : (f32) -> (i1, f32) {
    %c = "tt.cond"(%a) : (f32) -> i1
    scf.condition(%c) %c, %a : i1, f32
  } do {
  ^bb0(%c: i1, %b: f32):
    "tt.use"(%c) : (i1) -> ()
    scf.yield %b : f32
  }
  %s:2 = scf.while (%a = %x) : (f32) -> (f32, f32) {
    %c = "tt.cond"(%a) : (f32) -> i1
    scf.condition(%c) %a, %a : f32, f32
  } do {
  ^bb0(%b: f32, %d: f32):
    scf.yield %b : f32
  }
  return %s#0 : f32
}

// CHECK-LABEL: func.func @par
// CHECK-NEXT: return %arg1
func.func @par(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.parallel (%i) = (%c0) to (%c0) step (%c1) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%l: f32, %r2: f32):
      %t = arith.addf %l, %r2 : f32
      scf.reduce.return %t : f32
    }
  }
  return %r : f32
}

// CHECK-LABEL: func.func @combine
// CHECK: %[[R:.*]]:2 = scf.if %arg0 -> (f32, f32)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @combine(%c: i1, %x: f32, %y: f32) -> (f32, f32) {
  %a = scf.if %c -> (f32) {
    %s = "tt.a"() : () -> f32
    scf.yield %s : f32
  } else {
    %s = "tt.b"() : () -> f32
    scf.yield %s : f32
  }
  %b = scf.if %c -> (f32) {
    %s = "tt.c"(%a) : (f32) -> f32
    scf.yield %s : f32
  } else {
    %s = "tt.d"(%a) : (f32) -> f32
    scf.yield %s : f32
  }
  return %a, %b : f32, f32
}

// CHECK-LABEL: func.func @nested
// CHECK: %[[C:.*]] = arith.andi %arg0, %arg1
// CHECK: scf.if %[[C]]
func.func @nested(%c: i1, %d: i1) {
  scf.if %c {
    scf.if %d {
      "tt.a"() : () -> ()
    }
  }
  return
}

// CHECK-LABEL: func.func @while_inv
// CHECK: scf.while (%{{.*}} = %arg0) : (f32) -> f32
func.func @while_inv(%x: f32, %y: f32) -> f32 {
  %r:2 = scf.while (%a = %x, %b = %y) : (f32, f32) -> (f32, f32) {
    %c = "tt.cond"(%a, %b) : (f32, f32) -> i1
    scf.condition(%c) %a, %b : f32, f32
  } do {
  ^bb0(%p: f32, %q: f32):
    %n = "tt.next"(%p) : (f32) -> f32
    scf.yield %n, %q : f32, f32
  }
  return %r#0 : f32
}

// CHECK-LABEL: func.func @par1
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c8) step (%c1)
// CHECK-NEXT: "tt.use"(%c0, %[[I]])
func.func @par1(%x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c8) step (%c1, %c1) {
    "tt.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// CHECK-LABEL: func.func @loop_in_if
// CHECK-NEXT: %cst = arith.constant 1.0
func.func @loop_in_if(%c: i1, %n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %c -> (f32) {
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
      %t = arith.constant 1.0 : f32
      %s = arith.addf %a, %t : f32
      scf.yield %s : f32
    }
    scf.yield %l : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @ub_plus
// CHECK: scf.for
func.func @ub_plus(%lb: index, %x: f32) -> f32 {
  %c1 = arith.constant 1 : index
  %ub = arith.addi %lb, %c1 : index
  %r = scf.for %i = %lb to %ub step %c1 iter_args(%a = %x) -> (f32) {
    %s = "tt.f"(%a, %i) : (f32, index) -> f32
    scf.yield %s : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @i32_loop
// CHECK-NEXT: return %arg0
func.func @i32_loop(%x: f32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cm = arith.constant -5 : i32
  %r = scf.for %i = %c0 to %cm step %c1 iter_args(%a = %x) -> (f32) : i32 {
    %s = "tt.f"(%a, %i) : (f32, i32) -> f32
    scf.yield %s : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @switch_nores
// CHECK-NEXT: "tt.one"
// CHECK-NEXT: return
func.func @switch_nores(%n: index) {
  %c1 = arith.constant 1 : index
  scf.index_switch %c1
  case 1 {
    "tt.one"() : () -> ()
    scf.yield
  }
  default {
    "tt.def"() : () -> ()
    scf.yield
  }
  return
}
