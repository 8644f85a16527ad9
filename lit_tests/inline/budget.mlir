// inline's size budget: a call tree that doubles at every level is inlined until
// the caller would pass max-size ops; the calls beyond stay, each with a remark.
// RUN: aic-opt %s --pass-pipeline='builtin.module(inline{max-size=12})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(inline{max-size=12})' --aic-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// Without the budget everything is inlined, as mlir-opt does.
// RUN: aic-opt %s --inline | FileCheck %s --check-prefix=ALL

// CHECK-LABEL: func.func @f0
// CHECK-COUNT-6: call @f4(
// CHECK-COUNT-5: call @f3(
// CHECK-NEXT: return
// CHECK: func.func private @f3
// CHECK-COUNT-4: arith.addf
// CHECK: func.func private @f4
// CHECK-COUNT-2: arith.addf
// REMARK: remark: inline: call to @f4 not inlined: inlining it would grow @f0 to 13 ops, beyond max-size=12
// REMARK: remark: inline: call to @f3 not inlined: inlining it would grow @f0 to 13 ops, beyond max-size=12
// ALL-LABEL: func.func @f0
// ALL-COUNT-32: arith.addf
// ALL-NOT: call
// ALL-NOT: func.func
func.func @f0(%x: f32) -> f32 {
  %a = call @f1(%x) : (f32) -> f32
  %b = call @f1(%a) : (f32) -> f32
  return %b : f32
}
func.func private @f1(%x: f32) -> f32 {
  %a = call @f2(%x) : (f32) -> f32
  %b = call @f2(%a) : (f32) -> f32
  return %b : f32
}
func.func private @f2(%x: f32) -> f32 {
  %a = call @f3(%x) : (f32) -> f32
  %b = call @f3(%a) : (f32) -> f32
  return %b : f32
}
func.func private @f3(%x: f32) -> f32 {
  %a = call @f4(%x) : (f32) -> f32
  %b = call @f4(%a) : (f32) -> f32
  return %b : f32
}
func.func private @f4(%x: f32) -> f32 {
  %a = call @f5(%x) : (f32) -> f32
  %b = call @f5(%a) : (f32) -> f32
  return %b : f32
}
func.func private @f5(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
