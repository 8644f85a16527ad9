// cse: identical pure ops are merged when one dominates the other; side effects,
// different operands or attributes, and isolated regions keep ops apart.
// RUN: aic-opt %s --allow-unregistered-dialect --cse | FileCheck %s
// RUN: aic-opt %s --allow-unregistered-dialect --cse > %t.aic
// RUN: mlir-opt %s --allow-unregistered-dialect --cse > %t.ref
// RUN: diff %t.aic %t.ref

// CHECK-LABEL: func.func @merge
// CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %arg0 : i32 to f32
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %arg0 : i32 to f64
// CHECK-NEXT: return %[[A]], %[[A]], %[[B]]
func.func @merge(%a: i32) -> (f32, f32, f64) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to f32
  %1 = builtin.unrealized_conversion_cast %a : i32 to f32
  %2 = builtin.unrealized_conversion_cast %a : i32 to f64
  return %0, %1, %2 : f32, f32, f64
}

// Unregistered ops may have side effects: never merged.
// CHECK-LABEL: func.func @effects
// CHECK: "tt.op"
// CHECK: "tt.op"
func.func @effects() -> (i32, i32) {
  %0 = "tt.op"() : () -> i32
  %1 = "tt.op"() : () -> i32
  return %0, %1 : i32, i32
}

// Regions of an op whose semantics are unknown (unregistered) start a fresh scope,
// as in MLIR: the inner cast is not merged with the outer one.
// CHECK-LABEL: func.func @nested
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast
// CHECK: "tt.region"() ({
// CHECK-NEXT: %[[Y:.*]] = builtin.unrealized_conversion_cast
// CHECK-NEXT: "tt.use"(%[[Y]])
func.func @nested(%a: i32) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to f32
  "tt.region"() ({
    %1 = builtin.unrealized_conversion_cast %a : i32 to f32
    "tt.use"(%1) : (f32) -> ()
  }) : () -> ()
  "tt.use"(%0) : (f32) -> ()
  return
}
