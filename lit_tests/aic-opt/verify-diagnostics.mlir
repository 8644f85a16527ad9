// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics | FileCheck %s
// Every annotation form of --verify-diagnostics, on parse errors whose message
// and position agree with mlir-opt's (this file passes mlir-opt-22 as well).

// CHECK: func.func @ok
func.func @ok() {
  return
}

// -----

// An annotation on the line of the error.
func.func @same_line() {
  "test.op"(%x) : (i32) -> () // expected-error {{use of undeclared SSA value name}}
  return
}

// -----

func.func @plus() {
  // expected-error@+1 {{use of undeclared SSA value name}}
  "test.op"(%x) : (i32) -> ()
  return
}

// -----

func.func @plus_more() {
  // expected-error @+3 {{use of undeclared SSA value name}}

  "test.op"() : () -> ()
  "test.op"(%x) : (i32) -> ()
  return
}

// -----

func.func @minus() {
  "test.op"(%x) : (i32) -> ()

  // expected-error@-2 {{use of undeclared SSA value name}}
  return
}

// -----

func.func @above() -> i32 {
  return %q : i32
  // expected-error@above {{use of undeclared SSA value name}}
}

// -----

func.func @below() {
  ^bb1:
  // expected-error@below {{reference to an undefined block}}
  "test.br"()[^bb9] : () -> ()
}

// -----

func.func @regex() {
  // expected-error-re@+1 {{use of undeclared SSA {{[a-z]+}} name}}
  "test.op"(%x) : (i32) -> ()
  return
}

// -----

func.func @regex_below() {
  // expected-error-re@below {{{{^}}use of {{(un)?declared}} SSA value name}}
  "test.op"(%x) : (i32) -> ()
  return
}

// -----

// A substring of the message is enough.
func.func @substring() {
  "test.op"(%x) : (i32) -> () // expected-error {{undeclared}}
  return
}

// -----

// Chunks that parse are printed as usual.
// CHECK: func.func @last
func.func @last() {
  return
}

// -----

// Notes point at the earlier definition or use.
// expected-note@+1 {{previously defined here}}
%a = "test.a"() : () -> i32
// expected-error@+1 {{redefinition of SSA value '%a'}}
%a = "test.a"() : () -> i32

// -----

// expected-note@+1 {{previously used here with type 'i32'}}
"test.use"(%v) : (i32) -> ()
// expected-error@+1 {{definition of SSA value '%v#0' has type 'i64'}}
%v = "test.def"() : () -> i64

// -----

// expected-error@+2 {{region entry argument '%a' is already in use}}
// expected-note@+1 {{previously referenced here}}
func.func @dup(%a: i32, %a: i32) {
  return
}

// -----

// An error at the end of the input points at the last token's end.
// expected-error@+1 {{expected non-function type}}
"test.op"() : () -> (
