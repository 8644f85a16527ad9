// The arith dialect's verifier messages; mlir-opt-22 passes this file as well.
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

func.func @f(%i: f32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %i, %i : f32
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %i, %i : i32
  return
}

// -----

func.func @f(%i: i32, %j: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%i, %j) : (i32, i64) -> i32
  return
}

// -----

func.func @f(%i: vector<4xi32>) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%i, %i) : (vector<4xi32>, vector<4xi32>) -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = "s"}> : () -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = "arith.constant"() <{value = 1 : ui32}> : () -> ui32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = "arith.constant"() <{value = "s" : i32}> : () -> i32
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%i, %i) <{predicate = 2 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @f(%i: vector<4xi32>) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%i, %i) <{predicate = 2 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  return
}

// -----

func.func @f(%c: vector<2xi1>, %i: vector<4xi32>) {
  // expected-error@+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %i, %i : vector<2xi1>, vector<4xi32>
  return
}

// -----

func.func @f(%c: i1, %i: i32, %j: i64) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %i, %j) : (i1, i32, i64) -> i32
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%i, %i, %i) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0:2 = "arith.mulsi_extended"(%i, %i) : (i32, i32) -> (i32, i64)
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.addui_extended' op failed to verify that all of {lhs, rhs, sum} have same type}}
  %0:2 = "arith.addui_extended"(%i, %i) : (i32, i32) -> (i64, i1)
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.addui_extended' op result #1 must be bool-like, but got 'i32'}}
  %0:2 = "arith.addui_extended"(%i, %i) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i8' are cast incompatible}}
  %0 = arith.extsi %i : i32 to i8
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %i : i32 to i32
  return
}

// -----

func.func @f(%i: vector<2xi32>) {
  // expected-error@+1 {{'arith.trunci' op operand type 'vector<2xi32>' and result type 'vector<2xi64>' are cast incompatible}}
  %0 = arith.trunci %i : vector<2xi32> to vector<2xi64>
  return
}

// -----

func.func @f(%i: f32) {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %i : f32 to f16
  return
}

// -----

func.func @f(%i: f32) {
  // expected-error@+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %i : f32 to f64
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' are cast incompatible}}
  %0 = arith.bitcast %i : i32 to f64
  return
}

// -----

func.func @f(%i: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %i : i32 to i64
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'arith.index_cast' op result #0 must be signless-integer-like or memref of signless-integer, but got 'f32'}}
  %0 = arith.index_cast %i : index to f32
  return
}

// -----

func.func @f(%i: index) {
  // expected-error@+1 {{'arith.extsi' op operand #0 must be signless-fixed-width-integer-like, but got 'index'}}
  %0 = arith.extsi %i : index to i64
  return
}

// -----

func.func @f(%i: vector<4xi32>) {
  // expected-error@+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = "arith.extsi"(%i) : (vector<4xi32>) -> i64
  return
}

// -----

func.func @f(%i: tensor<4xi32>) {
  // expected-error@+1 {{'arith.extsi' op failed to verify that input and output have the same tensor dimensions}}
  %0 = "arith.extsi"(%i) : (tensor<4xi32>) -> tensor<?xi64>
  return
}

// -----

func.func @f(%i: vector<4xf32>) {
  // expected-error@+1 {{'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'vector<4xf32>'}}
  %0 = arith.sitofp %i : vector<4xf32> to vector<4xf32>
  return
}

// -----

func.func @f(%c: vector<4xi1>, %t: tensor<4xi32>) {
  // expected-error@+1 {{'arith.select' op all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.select %c, %t, %t : vector<4xi1>, tensor<4xi32>
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i64
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{'arith.addui_extended' op failed to verify that all of {lhs, rhs, sum} have same type}}
  %0:2 = "arith.addui_extended"(%a, %b) : (i32, i32) -> (i64, i1)
  return
}

// -----

func.func @f(%a: i32, %b: i32) {
  // expected-error@+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0:2 = "arith.mulsi_extended"(%a, %b) : (i32, i32) -> (i32, i64)
  return
}
