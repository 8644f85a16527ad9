// inline: single-block callees are inlined into their callers (not through
// no_inline, not declarations), dead private functions are erased, and the result
// is canonicalised; compared with mlir-opt-22.
// RUN: aic-opt %s --inline | FileCheck %s
// RUN: aic-opt %s --inline > %t.aic
// RUN: mlir-opt %s --inline > %t.ref
// RUN: diff %t.aic %t.ref

// CHECK-NOT: @pair
// CHECK-NOT: @dead_unused
// CHECK-NOT: @chain_dead(
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[K:.*]] = call @keep(%arg0)
// CHECK-NEXT: %[[D:.*]] = call @decl(%arg0)
// CHECK-NEXT: call @id(%arg0) {no_inline}
// CHECK-NEXT: return %arg1, %arg0, %[[K]], %[[D]]
// Only functions dead before the sweep go: a callee of a dead function stays.
// CHECK: func.func private @chain_dead2()
func.func private @id(%x: i32) -> i32 {
  return %x : i32
}
func.func private @dead_unused() {
  return
}
func.func private @pair(%x: i32, %y: f32) -> (f32, i32) {
  %r = call @id(%x) : (i32) -> i32
  return %y, %r : f32, i32
}
func.func private @keep(%x: i32) -> i32 attributes {no_inline} {
  return %x : i32
}
func.func private @decl(i32) -> i32
func.func @main(%a: i32, %b: f32) -> (f32, i32, i32, i32) {
  %0:2 = call @pair(%a, %b) : (i32, f32) -> (f32, i32)
  %1 = call @keep(%a) : (i32) -> i32
  %2 = call @decl(%a) : (i32) -> i32
  %3 = call @id(%a) {no_inline} : (i32) -> i32
  return %0#0, %0#1, %1, %2 : f32, i32, i32, i32
}
func.func private @chain_dead() {
  call @chain_dead2() : () -> ()
  return
}
func.func private @chain_dead2() {
  return
}
