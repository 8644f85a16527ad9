// RUN: not aic-opt --allow-unregistered-dialect --split-input-file %s 2>&1 | FileCheck %s

// CHECK: error: use of undeclared SSA value name '%nope'
// CHECK-NEXT: errors.mlir:5:7
"t.a"(%nope) : (i32) -> ()

// -----

// CHECK: error: redefinition of SSA value '%a'
// CHECK-NEXT: errors.mlir:12:1
%a = "t.a"() : () -> i32
%a = "t.a"() : () -> i32

// -----

// CHECK: error: integer constant out of range for attribute
// CHECK-NEXT: errors.mlir:18:14
"t.a"() {v = 300 : i8} : () -> ()

// -----

// CHECK: error: reference to an undefined block '^missing'
"t.r"() ({
  "t.br"()[^missing] : () -> ()
}) : () -> ()

// -----

// CHECK: error: expected '}' to end the region
"t.r"() ({
