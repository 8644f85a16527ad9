// canonicalize: folding (here builtin.unrealized_conversion_cast's folds) and
// dead-op erasure, compared with mlir-opt-22 on the same input; options parse as
// MLIR's do.
// RUN: aic-opt %s --canonicalize | FileCheck %s
// RUN: aic-opt %s --canonicalize > %t.aic
// RUN: mlir-opt %s --canonicalize > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=4 region-simplify=disabled top-down=false}))' > %t.aic
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=4 region-simplify=disabled top-down=false}))' > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: not aic-opt %s --pass-pipeline='builtin.module(canonicalize{region-simplify=false})' 2>&1 | FileCheck %s --check-prefix=ENUM
// RUN: not aic-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %s --check-prefix=INT

// ENUM: for the --region-simplify option: Cannot find option named 'false'!
// INT: for the --max-iterations option: 'abc' value invalid for long argument!

// CHECK-LABEL: func.func @roundtrip(
// CHECK-NEXT: return %arg0 : i32
func.func @roundtrip(%a: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to f32
  %1 = builtin.unrealized_conversion_cast %0 : f32 to i32
  return %1 : i32
}
// CHECK-LABEL: func.func @identity(
func.func @identity(%a: i32, %b: f32) -> (i32, f32) {
  %0:2 = builtin.unrealized_conversion_cast %a, %b : i32, f32 to i32, f32
  return %0#0, %0#1 : i32, f32
}
// CHECK-LABEL: func.func @dead(
// CHECK-NEXT: return
func.func @dead(%a: i32) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to f32
  %1 = builtin.unrealized_conversion_cast %0 : f32 to i64
  return
}
// CHECK-LABEL: func.func @partial(
func.func @partial(%a: i32) -> (i64, f32) {
  %0 = builtin.unrealized_conversion_cast %a : i32 to f32
  %1 = builtin.unrealized_conversion_cast %0 : f32 to i64
  return %1, %0 : i64, f32
}
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: return %arg0 : i32
func.func @chain(%a: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to f32
  %1 = builtin.unrealized_conversion_cast %0 : f32 to i64
  %2 = builtin.unrealized_conversion_cast %1 : i64 to f32
  %3 = builtin.unrealized_conversion_cast %2 : f32 to i32
  return %3 : i32
}
