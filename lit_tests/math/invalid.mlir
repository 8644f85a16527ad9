// The math dialect's verifier messages; mlir-opt-22 passes this file as well.
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

func.func @f(%i: i32) {
  // expected-error@+1 {{'math.sin' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = math.sin %i : i32
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error@+1 {{'math.powf' op operand #0 must be floating-point-like, but got 'memref<4xf32>'}}
  %0 = math.powf %m, %m : memref<4xf32>
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.absi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = math.absi %a : f32
  return
}

// -----

func.func @f(%a: vector<4xsi32>) {
  // expected-error@+1 {{'math.ctlz' op operand #0 must be signless-integer-like, but got 'vector<4xsi32>'}}
  %0 = math.ctlz %a : vector<4xsi32>
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.exp' op result #0 must be floating-point-like, but got 'i32'}}
  %0 = "math.exp"(%a) : (f32) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.exp' op requires the same type for all operands and results}}
  %0 = "math.exp"(%a) : (f32) -> f64
  return
}

// -----

func.func @f(%a: f32, %b: f64) {
  // expected-error@+1 {{'math.atan2' op requires the same type for all operands and results}}
  %0 = "math.atan2"(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @f(%a: f32, %b: f16) {
  // expected-error@+1 {{'math.fma' op requires the same type for all operands and results}}
  %0 = "math.fma"(%a, %a, %b) : (f32, f32, f16) -> f32
  return
}

// -----

func.func @f(%a: i32, %b: i64) {
  // expected-error@+1 {{'math.ipowi' op requires the same type for all operands and results}}
  %0 = "math.ipowi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.sin' op requires a single operand}}
  %0 = "math.sin"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.sin' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "math.sin"(%a) {fastmath = 1 : i32} : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.isnan' op result #0 must be bool-like, but got 'f32'}}
  %0 = "math.isnan"(%a) : (f32) -> f32
  return
}

// -----

func.func @f(%a: vector<4xf32>) {
  // expected-error@+1 {{'math.isinf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isinf"(%a) : (vector<4xf32>) -> i1
  return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error@+1 {{'math.isfinite' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isfinite"(%a) : (tensor<4xf32>) -> vector<4xi1>
  return
}

// -----

func.func @f(%a: f32, %i: i32) {
  // expected-error@+1 {{'math.fpowi' op failed to verify that all of {lhs, result} have same type}}
  %0 = "math.fpowi"(%a, %i) : (f32, i32) -> f64
  return
}

// -----

func.func @f(%a: f32, %i: i32) {
  // expected-error@+1 {{'math.fpowi' op operand #1 must be signless-integer-like, but got 'f32'}}
  %0 = "math.fpowi"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: vector<4xf32>, %i: i32) {
  // expected-error@+1 {{'math.fpowi' op requires the same shape for all operands and results}}
  %0 = "math.fpowi"(%a, %i) : (vector<4xf32>, i32) -> vector<4xf32>
  return
}

// -----

func.func @f(%a: vector<4xf32>, %i: vector<2xi32>) {
  // expected-error@+1 {{'math.fpowi' op requires the same shape for all operands and results}}
  %0 = math.fpowi %a, %i : vector<4xf32>, vector<2xi32>
  return
}

// -----

func.func @f(%a: vector<4xf32>, %i: tensor<4xi32>) {
  // expected-error@+1 {{'math.fpowi' op all non-scalar operands/results must have the same shape and base type}}
  %0 = math.fpowi %a, %i : vector<4xf32>, tensor<4xi32>
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.sincos' op failed to verify that all of {operand, sin, cos} have same type}}
  %0:2 = "math.sincos"(%a) : (f32) -> (f32, f64)
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.sincos' op expected 2 results}}
  %0 = "math.sincos"(%a) : (f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.clampf' op requires the same type for all operands and results}}
  %0 = "math.clampf"(%a, %a, %a) : (f32, f32, f32) -> f16
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'math.fma' op expected 3 operands, but found 2}}
  %0 = "math.fma"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{expected 'to'}}
  %0 = math.clampf %a [%a, %a] : f32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{expected '['}}
  %0 = math.clampf %a to %a, %a : f32
  return
}
