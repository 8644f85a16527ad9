// Structural verifier messages (dominance, blocks, regions, symbols) on builtin and
// unregistered ops; mlir-opt-22 passes this file as well.
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

func.func @use_before_def() {
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "tt.use"(%0) : (i32) -> ()
  // expected-note@+1 {{operand defined here (op in the same block)}}
  %0 = "tt.def"() : () -> i32
  return
}

// -----

func.func @other_branch() {
  "tt.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  // expected-note@+1 {{operand defined here (op in the same region)}}
  %1 = "tt.def"() : () -> i32
  "tt.br"()[^bb2] : () -> ()
^bb2:
  // expected-error@+1 {{operand #0 does not dominate this use}}
  "tt.use"(%1) : (i32) -> ()
  return
}

// -----

func.func @later_in_parent() {
  "tt.region"() ({
    // expected-error@+1 {{operand #0 does not dominate this use}}
    "tt.use"(%1) : (i32) -> ()
    "tt.y"() : () -> ()
  }) : () -> ()
  // expected-note@+1 {{operand defined here (op in a parent region)}}
  %1 = "tt.def"() : () -> i32
  return
}

// -----

func.func @self_use() {
  // expected-error@+2 {{operand #0 does not dominate this use}}
  // expected-note@+1 {{operand defined here (op in the same block)}}
  %0 = "tt.a"(%0) : (i32) -> i32
  return
}

// -----

func.func @cfg_ok(%c: i1) {
  %0 = "tt.def"() : () -> i32
  "tt.cond_br"(%c)[^bb1, ^bb2] : (i1) -> ()
^bb1:
  "tt.use"(%0) : (i32) -> ()
  "tt.br"()[^bb3] : () -> ()
^bb2:
  "tt.br"()[^bb3] : () -> ()
^bb3:
  "tt.use"(%0) : (i32) -> ()
  return
}

// -----

// Graph regions (module bodies) need no dominance.
module {
  "tt.use"(%late) : (i32) -> ()
  %late = "tt.def"() : () -> i32
}

// -----

// expected-note@+1 {{required by region isolation constraints}}
module {
  // expected-error@+1 {{'tt.use' op using value defined outside the region}}
  "tt.use"(%outer) : (i32) -> ()
}
%outer = "tt.def"() : () -> i32

// -----

// expected-error@+1 {{entry block of region may not have predecessors}}
func.func @entry_pred() {
^bb0:
  "tt.br"()[^bb0] : () -> ()
}

// -----

// expected-error@+1 {{empty block: expect at least a terminator}}
func.func @empty() {
^bb0:
}

// -----

func.func @middle() {
  // expected-error@+1 {{operation with block successors must terminate its parent block}}
  "tt.br"()[^bb1] : () -> ()
  "tt.x"() : () -> ()
^bb1:
  return
}

// -----

// expected-error@+1 {{'builtin.module' op expects region #0 to have 0 or 1 blocks}}
"builtin.module"() ({
^bb0:
^bb1:
}) : () -> ()

// -----

// expected-error@+1 {{'builtin.module' op requires one region}}
"builtin.module"() : () -> ()

// -----

module {
  // expected-note@+1 {{see existing symbol definition here}}
  func.func private @dup()
  // expected-error@+1 {{redefinition of symbol named 'dup'}}
  func.func private @dup()
}

// -----

// expected-error@+1 {{'builtin.module' op can only contain attributes with dialect-prefixed names, found: 'flag'}}
module attributes {flag} {
}

// -----

module @a {
  module @b {
    func.func private @f()
  }
  // Nested symbol references resolve through inner tables; a missing one is reported.
  func.func @g() {
    // expected-error@+1 {{'func.call' op 'b' does not reference a valid function}}
    func.call @b() : () -> ()
    return
  }
}

// -----

// expected-error@+1 {{'builtin.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks}}
"builtin.module"() ({
}) : () -> ()
