// The scf dialect's verifier and parser messages; mlir-opt-22 passes this file
// as well.
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'i32'}}
  %r = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.for %iv = %lb to %lb step %lb iter_args(%a = %x) -> (f32) {
    // expected-note@+1 {{region branch point}}
    scf.yield
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  // expected-error@-1 {{'scf.for' op 0-th init and 0-th region iter_arg have different type: 'f32' != 'i32'}}
  ^bb0(%i: index, %a: i32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (index, index, index, f32) -> (f32)
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  // expected-error@-1 {{'scf.for' op different number of inits and region iter_args: 1 != 2}}
  ^bb0(%i: index, %a: f32, %b: f32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (index, index, index, f32) -> (f32)
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  // expected-error@-1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
  ^bb0(%i: i32, %a: f32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (index, index, index, f32) -> (f32)
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %0 = "scf.for"(%lb, %lb, %lb, %x) ({
  // expected-error@-1 {{'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'f32' != 'i32'}}
  ^bb0(%i: index, %a: f32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (index, index, index, f32) -> (i32)
  return
}

// -----

func.func @f(%lb: index, %i: i32) {
  // expected-error@+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %i, %lb) ({
  ^bb0(%j: index):
    "scf.yield"() : () -> ()
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  "scf.for"(%x, %x, %x) ({
  ^bb0(%j: f32):
    "scf.yield"() : () -> ()
  }) : (f32, f32, f32) -> ()
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{custom op 'scf.for' mismatch in number of loop-carried values and defined values}}
  %r = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (f32, f32) {
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{expected '{' to begin a region}}
  %r = scf.for %i = %lb to %lb step %lb -> (f32) {
  }
  return
}

// -----

func.func @f(%lb: index, %i: i32) {
  // expected-note@-1 {{prior use here}}
  // expected-error@+1 {{use of value '%i' expects different type than prior uses: 'index' vs 'i32'}}
  scf.for %j = %lb to %i step %lb {
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op must have an else block if defining values}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'i1' should match successor input type #0 'f32'}}
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    // expected-note@+1 {{region branch point}}
    scf.yield %c : i1
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
  %r = scf.if %c -> (f32) {
    // expected-note@+1 {{region branch point}}
    scf.yield %x, %x : f32, f32
  } else {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i32) {
  // expected-error@+1 {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "scf.if"(%c) ({
    "scf.yield"() : () -> ()
  }, {}) : (i32) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+2 {{'scf.if' op expects regions to end with 'scf.yield', found 'tt.x'}}
  // expected-note@+1 {{in custom textual format, the absence of terminator implies 'scf.yield'}}
  "scf.if"(%c) ({
    "tt.x"() : () -> ()
  }, {}) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op region #0 ('thenRegion') failed to verify constraint: region with 1 blocks}}
  "scf.if"(%c) ({
  }, {}) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.if' op region #0 should have no arguments}}
  "scf.if"(%c) ({
  ^bb0(%a: f32):
    "scf.yield"() : () -> ()
  }, {}) : (i1) -> ()
  return
}

// -----

func.func @f(%c: i1) {
  scf.if %c {
    // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'i1' should match successor input type #0 'f32'}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    // expected-note@+1 {{region branch point}}
    scf.yield %c : i1
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: successor operand type #0 'f32' should match successor input type #0 'i1'}}
  %r = scf.while (%a = %x) : (f32) -> i1 {
    // expected-note@+1 {{region branch point}}
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: i1):
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from parent to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %0 = "scf.while"(%x) ({
  // expected-note@-1 {{region branch point}}
  ^bb0(%a: i32):
    "scf.condition"(%c, %x) : (i1, f32) -> ()
  }, {
  ^bb0(%a: f32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (f32) -> (f32)
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: region branch point has 1 operands, but region successor needs 2 inputs}}
  %0 = "scf.while"(%x) ({
  ^bb0(%a: f32):
    // expected-note@+1 {{region branch point}}
    "scf.condition"(%c, %x) : (i1, f32) -> ()
  }, {
  ^bb0(%a: f32, %b: f32):
    "scf.yield"(%x) : (f32) -> ()
  }) : (f32) -> (f32)
  return
}

// -----

func.func @f(%c: i1, %x: f32) {
  // expected-error@+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  %r = scf.while (%a = %x) : (f32) -> f32 {
    // expected-note@+1 {{terminator here}}
    "tt.x"() : () -> ()
  } do {
  ^bb0(%b: f32):
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{custom op 'scf.while' expected as many input types as operands (expected 1 got 2)}}
  %r = scf.while (%a = %x) : (f32, f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%c)
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// -----

func.func @f(%lb: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.parallel' op constant step operand must be positive}}
  scf.parallel (%i) = (%lb) to (%lb) step (%c0) {
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'index' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%lb : index) {
    ^bb0(%a: index, %b: index):
      scf.reduce.return %a : index
    }
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%a: f32):
      scf.reduce.return %a : f32
    }
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      // expected-error@+1 {{'scf.reduce.return' op must have type 'f32' (the type of the reduction inputs)}}
      scf.reduce.return %lb : index
    }
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      "tt.x"() : () -> ()
    }
  }
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op expects the same number of induction variables: 2 as bound and step values: 1}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index, %j: index):
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step}}
  "scf.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
    "scf.reduce"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    // expected-note@+1 {{terminator here}}
    "tt.x"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %r = "scf.parallel"(%lb, %lb, %lb) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.reduce"() : () -> ()
  }) : (index, index, index) -> (f32)
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.reduce' op expects parent op 'scf.parallel'}}
  "scf.reduce"() : () -> ()
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.index_switch' op expected result #0 of each region to be 'f32'}}
  %r = scf.index_switch %lb -> f32
  case 1 {
    // expected-note@+1 {{case region #0 returns 'index' here}}
    scf.yield %lb : index
  }
  default {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.index_switch' op has duplicate case value: 1}}
  %r = scf.index_switch %lb -> f32
  case 1 {
    scf.yield %x : f32
  }
  case 1 {
    scf.yield %x : f32
  }
  default {
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  // expected-error@+1 {{'scf.index_switch' op expected each region to return 1 values, but default region returns 2}}
  %r = scf.index_switch %lb -> f32
  default {
    // expected-note@+1 {{see yield operation here}}
    scf.yield %x, %x : f32, f32
  }
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.index_switch' op has 0 case regions but 1 case values}}
  "scf.index_switch"(%lb) <{cases = array<i64: 1>}> ({
    "scf.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error@+1 {{'scf.execute_region' op region cannot have any arguments}}
  %r = scf.execute_region -> f32 {
  ^bb0(%a: f32):
    scf.yield %x : f32
  }
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.execute_region' op region needs to have at least one block}}
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'scf.execute_region' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = "scf.execute_region"() ({
    // expected-note@+1 {{region branch point}}
    "scf.yield"() : () -> ()
  }) : () -> (f32)
  return
}

// -----

func.func @f(%c: i1) {
  // expected-error@+1 {{'scf.if' op expects region #1 to have 0 or 1 blocks}}
  "scf.if"(%c) ({
    "scf.yield"() : () -> ()
  }, {
    "scf.yield"() : () -> ()
  ^bb1:
    "scf.yield"() : () -> ()
  }) : (i1) -> ()
  return
}

// -----

func.func @f(%lb: index) {
  // expected-error@+1 {{'scf.for' op expects a non-empty block}}
  "scf.for"(%lb, %lb, %lb) ({
  ^bb0(%i: index):
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @f(%lb: index, %x: f32) {
  %r = scf.parallel (%i) = (%lb) to (%lb) step (%lb) init (%x) -> f32 {
    // expected-error@+1 {{empty block: expect at least a terminator}}
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
    }
  }
  return
}
