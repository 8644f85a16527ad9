// The func dialect's verifier messages; mlir-opt-22 passes this file as well.
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @decl()

// -----

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0:
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @ret() -> i32 {
  %0 = "tt.a"() : () -> i64
  // expected-error@+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @ret}}
  return %0 : i64
}

// -----

func.func @ret_count() -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@ret_count) returns 1}}
  return
}

// -----

// expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

func.func @not_last() {
  // expected-error@+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "tt.x"() : () -> ()
}

// -----

func.func @succ() {
  // expected-error@+1 {{'func.return' op requires 0 successors but found 1}}
  "func.return"()[^bb1] : () -> ()
^bb1:
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @bad_call(%x: i64) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %r = call @callee(%x) : (i64) -> f32
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @bad_call(%x: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of operands for callee}}
  %r = call @callee(%x, %x) : (i32, i32) -> f32
  return
}

// -----

func.func private @callee(i32) -> f32

func.func @bad_result(%x: i32) {
  // expected-error@+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note@+2 {{      op result types: 'i32'}}
  // expected-note@+1 {{function result types: 'f32'}}
  %r = call @callee(%x) : (i32) -> i32
  return
}

// -----

func.func @no_callee() {
  // expected-error@+1 {{'nope' does not reference a valid function}}
  call @nope() : () -> ()
  return
}

// -----

// expected-error@+1 {{'func.call' op requires attribute 'callee'}}
"func.call"() : () -> ()

// -----

// expected-error@+1 {{'func.func' op requires attribute 'sym_name'}}
"func.func"() <{function_type = () -> ()}> ({
}) : () -> ()

// -----

func.func @outer() {
  // expected-error@+1 {{'func.func' op symbol's parent must have the SymbolTable trait}}
  func.func @inner() {
    return
  }
  return
}

// -----

func.func @iso(%a: i32) {
  "tt.wrapper"() ({
    // expected-note@+1 {{required by region isolation constraints}}
    "builtin.module"() ({
      // expected-error@+1 {{'tt.use' op using value defined outside the region}}
      "tt.use"(%a) : (i32) -> ()
    }) : () -> ()
  }) : () -> ()
  return
}
