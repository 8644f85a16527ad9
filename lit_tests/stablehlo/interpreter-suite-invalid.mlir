// Verifier diagnostics of fft, triangular_solve, the dynamic ops, the
// collectives and the interpreter test dialect.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.fft' op FFT expects a complex operand and a complex result (C2, C4)}}
  %0 = stablehlo.fft %a, type = FFT, length = [4] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<8xf32>) -> tensor<4xcomplex<f32>> {
  // expected-error@+1 {{'stablehlo.fft' op shapes [8] -> [4] do not fit RFFT with fft_length [8] (C3, C5)}}
  %0 = stablehlo.fft %a, type = RFFT, length = [8] : (tensor<8xf32>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @f(%a: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  // expected-error@+1 {{'stablehlo.fft' op fft_length must have 1 to 3 sizes, got 4 (C1)}}
  %0 = stablehlo.fft %a, type = IFFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  return %0 : tensor<2x2x2x2xcomplex<f32>>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'stablehlo.triangular_solve' op a must be square, got [3, 4] (C3)}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x4xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'stablehlo.triangular_solve' op b [3, 2] does not fit a [3, 3] on the right side (C4)}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'stablehlo.triangular_solve' op transpose_a must not be TRANSPOSE_INVALID (C5)}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%s: tensor<3xi64>) -> tensor<?x?xi32> {
  // expected-error@+1 {{'stablehlo.dynamic_iota' op output_shape has 3 entries, but the rank is 2}}
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<3xi64>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
// -----
func.func @f(%s: tensor<2xi64>) -> tensor<?x?xi32> {
  // expected-error@+1 {{'stablehlo.dynamic_iota' op iota_dimension 2 is out of range [0, 2) (C1)}}
  %0 = stablehlo.dynamic_iota %s, dim = 2 : (tensor<2xi64>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}
// -----
func.func @f(%x: tensor<2x3xf32>, %s: tensor<1xi64>) -> tensor<5xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_reshape' op operand [2, 3] and result [5] have different element counts (C2)}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
// -----
func.func @f(%x: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_broadcast_in_dim' op operand dimension 0 of size 3 cannot broadcast to size 4 (C5)}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
// -----
func.func @f(%x: tensor<3xf32>, %p: tensor<1xf32>, %l: tensor<1xi64>) -> tensor<?xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_pad' op padding_value must be a 0-D tensor (C1)}}
  %0 = stablehlo.dynamic_pad %x, %p, %l, %l, %l : (tensor<3xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
// -----
func.func @f(%x: tensor<2x4xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{'stablehlo.all_gather' op all_gather_dim 2 is out of range [0, 2)}}
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 2 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
// -----
func.func @f(%x: tensor<2x3xf32>) -> tensor<4x1xf32> {
  // expected-error@+1 {{'stablehlo.all_to_all' op dimension 1 of size 3 is not divisible by split_count 2}}
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
// -----
func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'stablehlo.all_reduce' op operand shape [2] and result shape [3] differ}}
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @f(%x: tensor<2xf32>, %r: tensor<1xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.collective_broadcast' op 2 data operands (the root index after them with has_dynamic_root) but 1 results}}
  %0 = "stablehlo.collective_broadcast"(%x, %r) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xf32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f() {
  // expected-error@+1 {{'interpreter.run_parallel' op 'programs' must be a non-empty array of equally long, non-empty arrays of symbol references}}
  "interpreter.run_parallel"() {programs = [[@g, @g], [@g]]} : () -> ()
  return
}
func.func private @g() {
  return
}
// -----
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op expects a quantized operand (C1)}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%x: tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2xf64> {
  // expected-error@+1 {{'stablehlo.uniform_dequantize' op the result's element type must be the operand's expressed type (C2)}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}
// -----
func.func @f(%x: tensor<2xf32>) -> tensor<2xi8> {
  // expected-error@+1 {{'stablehlo.uniform_quantize' op expects a float or quantized operand and a quantized result (C1)}}
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
// -----
func.func @f(%a: tensor<2x!quant.uniform<i8:f32, 0.5:0>>, %b: tensor<2x!quant.uniform<i16:f32, 0.5:0>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:0>> {
  // expected-error@+1 {{'stablehlo.add' op requires the same element type for all operands and results}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>, tensor<2x!quant.uniform<i16:f32, 0.5:0>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:0>>
  return %0 : tensor<2x!quant.uniform<i8:f32, 0.5:0>>
}
// -----
// expected-error@+1 {{malformed !quant.uniform<i8:f32, 0.0:0>: scales must be positive and finite}}
func.func @f(%x: tensor<2x!quant.uniform<i8:f32, 0.0:0>>) {
  return
}
// -----
func.func @f(%x: tensor<4xi32>, %c: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  // expected-error@+1 {{'chlo.scan' op dimension 1 is out of range [0, 1)}}
  %0:2 = chlo.scan(%x) inits(%c) dimension = 1 {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a, %b : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  return %0#0, %0#1 : tensor<4xi32>, tensor<i32>
}
// -----
func.func @f(%l: tensor<3x2xf32>, %r: tensor<2x2x1xf32>, %g: tensor<2xi64>) -> tensor<3x1xf32> {
  // expected-error@+1 {{'chlo.ragged_dot' op rhs dimension 3 is out of range [0, 3)}}
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [3]>} : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
// -----
func.func @f(%l: tensor<3x2xf32>, %r: tensor<2x2x1xf32>, %g: tensor<2xi64>) -> tensor<3x1xf32> {
  // expected-error@+1 {{unknown field 'lhs_ragged_dims' in #chlo.ragged_dot<...>}}
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_ragged_dims = [0]>} : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
