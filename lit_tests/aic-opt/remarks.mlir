// Optimisation remarks: `--aic-remarks` prints, at each call `inline` leaves, why
// it stays; `--aic-remarks=<passes>` keeps those of the passes named; remarks
// print when the pipeline fails too, and --verify-diagnostics checks them.
// RUN: aic-opt %s --allow-unregistered-dialect --inline --aic-remarks 2>&1 >/dev/null | FileCheck %s
// RUN: aic-opt %s --allow-unregistered-dialect --inline --aic-remarks --verify-diagnostics
// RUN: aic-opt %s --allow-unregistered-dialect --inline --aic-remarks=cse,inline 2>&1 >/dev/null | FileCheck %s
// RUN: aic-opt %s --allow-unregistered-dialect --inline 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: aic-opt %s --allow-unregistered-dialect --inline --aic-remarks=cse 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF --allow-empty
// RUN: not aic-opt %s --allow-unregistered-dialect --aic-remarks --pass-pipeline='builtin.module(inline,canonicalize{max-num-rewrites=0 test-convergence})' 2>&1 >/dev/null | FileCheck %s --check-prefix=FAIL
// RUN: not aic-opt %s --aic-remarks=nope 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: remark: inline: call to @rec not inlined: the call is inside its callee (recursion is not unrolled)
// CHECK-NEXT: remarks.mlir:[[# @LINE + 8]]:8
// CHECK: remark: inline: call to @decl not inlined: the callee is a declaration, without a body
// CHECK: remark: inline: call to @keep not inlined: the callee is marked no_inline
// CHECK: remark: inline: call to @keep not inlined: the call is marked no_inline
// CHECK: remark: inline: call to @odd not inlined: the callee holds the unregistered op 'test.op'
// CHECK-NOT: remark:
// OFF-NOT: remark:
func.func @rec(%x: i32) -> i32 {
  %r = call @rec(%x) : (i32) -> i32 // expected-remark {{call to @rec not inlined: the call is inside its callee}}
  return %r : i32
}
func.func private @decl(i32) -> i32
func.func private @keep(%x: i32) -> i32 attributes {no_inline} {
  return %x : i32
}
func.func private @odd(%x: i32) -> i32 {
  %r = "test.op"(%x) : (i32) -> i32
  return %r : i32
}
func.func private @id(%x: i32) -> i32 {
  return %x : i32
}
func.func @main(%a: i32) -> (i32, i32, i32, i32, i32) {
  // expected-remark@+1 {{inline: call to @decl not inlined: the callee is a declaration, without a body}}
  %0 = call @decl(%a) : (i32) -> i32
  %1 = call @keep(%a) : (i32) -> i32 // expected-remark {{the callee is marked no_inline}}
  %2 = call @keep(%a) {no_inline} : (i32) -> i32 // expected-remark {{the call is marked no_inline}}
  %3 = call @odd(%a) : (i32) -> i32 // expected-remark {{the callee holds the unregistered op 'test.op'}}
  %4 = call @id(%a) : (i32) -> i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// FAIL: remark: inline: call to @rec not inlined
// FAIL: remark: inline: call to @odd not inlined
// FAIL: error: pattern application did not converge
// BAD: for the --aic-remarks option: 'nope' is not a registered pass
