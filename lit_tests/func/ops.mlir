// The func dialect's custom syntax: aic prints what mlir-opt prints, in both forms,
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

// CHECK-LABEL: func.func private @decl(i32 {test.a = 1 : i32}, tensor<4x?xf32>) -> (f32 {test.r}) attributes {test.z = "s"}
func.func private @decl(i32 {test.a = 1 : i32}, tensor<4x?xf32>) -> (f32 {test.r}) attributes {test.z = "s"}

// CHECK-LABEL: func.func private @fnres() -> ((i32) -> i32)
func.func private @fnres() -> ((i32) -> i32)

// CHECK-LABEL: func.func @"quoted name"(%arg0: i32) -> (i32, f32) attributes {no_inline} {
// CHECK-NEXT:    %0 = "test.make"() : () -> tensor<4x?xf32>
// CHECK-NEXT:    %1 = call @decl(%arg0, %0) : (i32, tensor<4x?xf32>) -> f32
// CHECK-NEXT:    %2:2 = call @"quoted name"(%arg0) : (i32) -> (i32, f32)
// CHECK-NEXT:    call @noargs() {late.b = 2 : i64, no_inline, test.k = 1 : i64} : () -> ()
// CHECK-NEXT:    return %2#0, %1 : i32, f32
// CHECK-NEXT:  }
func.func @"quoted name"(%x: i32) -> (i32, f32) attributes {no_inline} {
  %t = "test.make"() : () -> tensor<4x?xf32>
  %0 = call @decl(%x, %t) : (i32, tensor<4x?xf32>) -> f32
  %r:2 = func.call @"quoted name"(%x) : (i32) -> (i32, f32)
  func.call @noargs() {test.k = 1, no_inline, late.b = 2} : () -> ()
  "func.return"(%r#0, %0) : (i32, f32) -> ()
}

// Sibling regions restart numbering; ops of other dialects keep their prefix.
// CHECK-LABEL: func.func @noargs() {
// CHECK-NEXT:    %0:2 = builtin.unrealized_conversion_cast to i32, i64
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      %1 = "test.op"() : () -> i32
// CHECK:         ^bb0(%arg0: i32, %arg1: f32):
// CHECK:         return
func.func @noargs() {
  %c:2 = builtin.unrealized_conversion_cast to i32, i64
  "test.region"() ({
    %x = "test.op"() : () -> i32
    "test.ret"() : () -> ()
  }, {
    ^bb0(%a: i32, %b: f32):
    "test.y"(%a) : (i32) -> ()
  }) : () -> ()
  return
}

// CHECK-LABEL: func.func public @cfg(%arg0: i32) -> i32 {
// CHECK-NEXT:    "test.br"(%arg0)[^bb1] : (i32) -> ()
// CHECK-NEXT:  ^bb1(%0: i32):  // pred: ^bb0
// CHECK-NEXT:    return %0 : i32
func.func public @cfg(%a: i32) -> i32 {
  "test.br"(%a)[^next] : (i32) -> ()
^next(%b: i32):
  return %b : i32
}

// CHECK-LABEL: module @inner attributes {test.flag} {
// CHECK-NEXT:    %0 = "test.a"() : () -> i32
// CHECK-NEXT:    %1 = unrealized_conversion_cast %0 : i32 to i64
module @inner attributes {test.flag} {
  %a = "test.a"() : () -> i32
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
}
