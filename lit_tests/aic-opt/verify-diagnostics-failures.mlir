// RUN: not aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics 2>&1 | FileCheck %s
// What --verify-diagnostics reports when diagnostics and annotations disagree.
// mlir-opt-22 prints the same lines for this file, in the same order: a split
// file is checked as a whole, so malformed annotations of all chunks come first,
// then unexpected diagnostics, then annotations that nothing produced.

// Malformed annotations: broken -re patterns are errors; a bad offset makes the
// line no annotation at all, so it even is the line that @above refers to (and
// the error there is expected).
func.func @malformed() {
  // expected-error-re {{unclosed {{[a-z]+}}
  // CHECK: verify-diagnostics-failures.mlir:[[@LINE-1]]:6: error: found start of regex with no end '}}'
  // CHECK-NEXT: // expected-error-re {{[{][{]}}unclosed
  // CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~~~~{{$}}
  // expected-error-re {{bad {{[a-z}} regex}}
  // CHECK: verify-diagnostics-failures.mlir:[[@LINE-1]]:6: error: invalid regex:
  "test.op"(%x) : (i32) -> () // expected-error@+x {{use of undeclared}}
  // expected-error@above {{use of undeclared}}
  return
}

// -----

// An error without an annotation.
func.func @unexpected() {
  "test.op"(%x) : (i32) -> ()
  return
}
// CHECK: verify-diagnostics-failures.mlir:[[@LINE-3]]:13: error: unexpected error: use of undeclared SSA value name
// CHECK-NEXT: "test.op"(%x) : (i32) -> ()
// CHECK-NEXT: {{^}}            ^{{$}}

// -----

// An annotation on the wrong line: the error is unexpected, the annotation not produced.
func.func @wrong_line() {
  // expected-error@+2 {{use of undeclared SSA value name}}
  "test.op"(%x) : (i32) -> ()
  return
}
// CHECK: verify-diagnostics-failures.mlir:[[@LINE-3]]:13: error: unexpected error: use of undeclared SSA value name

// -----

// The right message with the wrong severity.
func.func @near_miss() {
  "test.op"(%x) : (i32) -> () // expected-warning {{use of undeclared}}
  return
}
// CHECK: verify-diagnostics-failures.mlir:[[@LINE-3]]:34: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK-NEXT: "test.op"(%x) : (i32) -> () // expected-warning
// CHECK-NEXT: {{^}}                                 ^{{$}}

// -----

// Annotations that nothing produces, of each severity and designator; a
// diagnostic satisfies one annotation only.
func.func @not_produced() {
  "test.op"(%x) : (i32) -> () // expected-error {{use of undeclared}}
  // expected-error@-1 {{SSA value}}
  // expected-remark@above {{a remark}}
  // expected-note@unknown {{a note}}
  return
}
// expected-warning@below {{dangling}}

// CHECK: verify-diagnostics-failures.mlir:37:6: error: expected error "use of undeclared SSA value name" was not produced
// CHECK-NEXT: // expected-error@+2 {{[{][{]}}use of undeclared SSA value name
// CHECK-NEXT: {{^}}     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
// CHECK: verify-diagnostics-failures.mlir:47:34: error: expected warning "use of undeclared" was not produced
// CHECK: verify-diagnostics-failures.mlir:60:6: error: expected error "SSA value" was not produced
// CHECK: verify-diagnostics-failures.mlir:61:6: error: expected remark "a remark" was not produced
// CHECK: verify-diagnostics-failures.mlir:65:4: error: expected warning "dangling" was not produced
// CHECK: <unknown>:0: error: expected note "a note" was not produced
