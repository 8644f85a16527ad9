// Products that widen take i8 (signed or signless) into i32 and
// f8E4M3FN / f8E5M2 into f32 only: other mixes are errors at the op.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

func.func @mixed(%a: tensor<2x3xi8>, %b: tensor<3x2xf16>) -> tensor<2x2xi32> {
  // expected-error@+1 {{'graph.matmul' op requires operands of one element type, but got 'i8' and 'f16'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xi8>, tensor<3x2xf16>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @unsigned(%a: tensor<2x3xui8>, %b: tensor<3x2xui8>) -> tensor<2x2xi32> {
  // expected-error@+1 {{'graph.matmul' op result element type 'i32' must be the operands' 'ui8'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xui8>, tensor<3x2xui8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @int4(%a: tensor<2x3xi4>, %b: tensor<3x2xi4>) -> tensor<2x2xi32> {
  // expected-error@+1 {{'graph.matmul' op result element type 'i32' must be the operands' 'i4'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xi4>, tensor<3x2xi4>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @int8_to_i16(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>) -> tensor<2x2xi16> {
  // expected-error@+1 {{'graph.matmul' op result element type 'i16' must be the operands' 'i8' or 'i32'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi16>
  return %0 : tensor<2x2xi16>
}

// -----

func.func @fnuz(%a: tensor<2x3xf8E4M3FNUZ>, %b: tensor<3x2xf8E4M3FNUZ>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.matmul' op result element type 'f32' must be the operands' 'f8E4M3FNUZ'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf8E4M3FNUZ>, tensor<3x2xf8E4M3FNUZ>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @half_to_f32(%a: tensor<2x3xf16>, %b: tensor<3x2xf16>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.matmul' op result element type 'f32' must be the operands' 'f16'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf16>, tensor<3x2xf16>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @batched(%a: tensor<2x2x3xi8>, %b: tensor<2x3x2xi8>) -> tensor<2x2x2xf32> {
  // expected-error@+1 {{'graph.batch_matmul' op result element type 'f32' must be the operands' 'i8' or 'i32'}}
  %0 = graph.batch_matmul %a, %b : (tensor<2x2x3xi8>, tensor<2x3x2xi8>) -> tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}
