// graph.sparse_matmul's verifier: K a multiple of 4 whose half the values
// hold, values and metadata of one shape, i8 metadata, float operands of one
// type. Metadata that is not two increasing positions in 0..4 is an error
// where the program runs (the interpreter), at the op.
// RUN: aic-opt %s --split-input-file --verify-diagnostics
// RUN: not aic-run --interpret %S/Inputs/sparse_matmul_bad_meta.mlir 2>&1 | FileCheck %s
// CHECK: FAIL bad: metadata at [0, 1] and the next row of its group are not two increasing positions in 0..4 (at 'graph.sparse_matmul')

func.func @k_not_multiple_of_4(%x: tensor<2x6xf32>, %v: tensor<3x2xf32>, %m: tensor<3x2xi8>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.sparse_matmul' op contracted dimension 6 must be a multiple of 4 (2:4 groups)}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x6xf32>, tensor<3x2xf32>, tensor<3x2xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @not_half(%x: tensor<2x8xf32>, %v: tensor<8x2xf32>, %m: tensor<8x2xi8>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.sparse_matmul' op values hold 8 rows of the contracted dimension, not half of 8}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x8xf32>, tensor<8x2xf32>, tensor<8x2xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @shapes_differ(%x: tensor<2x8xf32>, %v: tensor<4x2xf32>, %m: tensor<4x3xi8>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.sparse_matmul' op values [4, 2] and metadata [4, 3] must have one shape}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x8xf32>, tensor<4x2xf32>, tensor<4x3xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @meta_i32(%x: tensor<2x8xf32>, %v: tensor<4x2xf32>, %m: tensor<4x2xi32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.sparse_matmul' op requires i8 metadata}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x8xf32>, tensor<4x2xf32>, tensor<4x2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @mixed(%x: tensor<2x8xf16>, %v: tensor<4x2xf32>, %m: tensor<4x2xi8>) -> tensor<2x2xf16> {
  // expected-error@+1 {{'graph.sparse_matmul' op requires the same element type for all operands and results}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x8xf16>, tensor<4x2xf32>, tensor<4x2xi8>) -> tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

func.func @ints(%x: tensor<2x8xi8>, %v: tensor<4x2xi8>, %m: tensor<4x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'graph.sparse_matmul' op requires floating-point operands}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x8xi8>, tensor<4x2xi8>, tensor<4x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

func.func @wrong_result(%x: tensor<2x8xf32>, %v: tensor<4x3xf32>, %m: tensor<4x3xi8>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.sparse_matmul' op}}
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x8xf32>, tensor<4x3xf32>, tensor<4x3xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
