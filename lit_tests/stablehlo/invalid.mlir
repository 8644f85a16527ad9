// StableHLO verifier and parser diagnostics: each names the violated
// constraint of the StableHLO specification where there is one ("(C2)").
// RUN: aic-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.add' op requires the same shape for all operands and results}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.add' op requires the same element type for all operands and results}}
  %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{'stablehlo.sine' op operand #0 must be tensor of floating-point or complex values, but got 'tensor<2xi32>'}}
  %0 = stablehlo.sine %a : tensor<2xi32>
  return %0 : tensor<2xi32>
}
// -----
func.func @f(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions size (2) does not match operand rank (1) (C2)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions [2] out of bounds for result rank 2 (C3)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'stablehlo.broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (2) (C5)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'stablehlo.transpose' op permutation [0, 0] is not a permutation of [0, 2) (C2)}}
  %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'stablehlo.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>' (C3)}}
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'stablehlo.reshape' op number of output elements (5) doesn't match expected number of elements (6) (C2)}}
  %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.slice' op limit index 6 is larger than dimension size 4 in dimension 0 (C3)}}
  %0 = stablehlo.slice %a [3:6] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.slice' op stride must be positive but got 0 in dimension 0 (C4)}}
  %0 = stablehlo.slice %a [0:4:0] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'stablehlo.slice' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>' (C5)}}
  %0 = stablehlo.slice %a [0:4:2] : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'stablehlo.concatenate' op shapes of operand (0) and (1) do not match at non-concat index: [2, 3] != [2, 4] at non-concat index 1 (C2)}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'stablehlo.concatenate' op dimension 2 is out of range [0, 2) (C4)}}
  %0 = stablehlo.concatenate %a, %a, dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @f(%a: tensor<2xf32>, %p: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.pad' op interior_padding must be non-negative, got -1 in dimension 0 (C3)}}
  %0 = stablehlo.pad %a, %p, low = [0], high = [0], interior = [-1] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<2xf32>, %p: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.pad' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>' (C4)}}
  %0 = stablehlo.pad %a, %p, low = [1], high = [0], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'stablehlo.reverse' op dimensions should be unique. Got: [1, 1] (C2)}}
  %0 = stablehlo.reverse %a, dims = [1, 1] : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'stablehlo.dot_general' op contracting dimension sizes must match for lhs/rhs: 3 != 4 (C10)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'stablehlo.dot_general' op lhs_contracting_dimensions value [2] is out of range: [0, 2) (C6)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<5x2xf32> {
  // expected-error@+1 {{'stablehlo.dot_general' op inferred type(s) 'tensor<2x5xf32>' are incompatible with return type(s) of operation 'tensor<5x2xf32>' (C12)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.reduce' op Out-of-bounds dimension [2] for input-tensor rank: 2 (C4)}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // expected-error@+1 {{'stablehlo.reduce' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>' (C7)}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero region, producing single result}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.subtract across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f() -> tensor<4xi32> {
  // expected-error@+1 {{'stablehlo.iota' op iota dimension 1 is out of the range [0, 1) of the output rank (C1)}}
  %0 = stablehlo.iota dim = 1 : tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @f(%t: tuple<tensor<f32>>) -> tensor<f32> {
  // expected-error@+1 {{'stablehlo.get_tuple_element' op index 1 is out of bounds of operand with size 1 (C1)}}
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>>) -> tensor<f32>
  return %0 : tensor<f32>
}
// -----
func.func @f(%a: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error@+1 {{expected comparison_direction to be one of: EQ, NE, GE, GT, LE, LT}}
  %0 = stablehlo.compare LTE, %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
// -----
func.func @f(%a: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{invalid convolution dimension numbers: each of input/kernel/output needs its two non-spatial dimensions (b/f, i/o) once and spatial dimensions 0..n-1 once}}
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
// -----
func.func @f(%a: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{Unexpected keyword stride}}
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
// -----
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{expected exponent mantissa in format e#m#, saw e5x10}}
  %0 = stablehlo.reduce_precision %a, format = e5x10 : tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @f(%a: tensor<1x8x8x4xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{'stablehlo.convolution' op kernel input feature size 3 must equal the input feature size 4 / feature_group_count 1 (C14)}}
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
// -----
func.func @f(%a: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error@+1 {{'stablehlo.convolution' op inferred type(s) 'tensor<1x3x3x16xf32>' are incompatible with return type(s) of operation 'tensor<1x8x8x16xf32>' (C25)}}
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
// -----
func.func @f(%a: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{'stablehlo.convolution' op window_strides must have 2 elements, got 1 (C2)}}
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'stablehlo.gather' op slice size 5 of dimension 1 is out of range [0, 4] (C21)}}
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'stablehlo.gather' op start_index_map [2] out of range [0, 2) (C19)}}
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'stablehlo.gather' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>' (C22)}}
  %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'stablehlo.scatter' op update_window_dims [2] must be unique and in [0, 2) (C7, C8)}}
  %0 = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// -----
func.func @f(%a: tensor<3x4xf32>, %i: tensor<i32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'stablehlo.dynamic_slice' op slice size 5 of dimension 1 is out of range [0, 4] (C4)}}
  %0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [2, 5] : (tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.reduce_window' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>' (C15)}}
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.sort' op dimension 1 is out of range [-1, 1) (C4)}}
  %0 = "stablehlo.sort"(%a) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'stablehlo.sort' op region #0 must return (tensor<i1>) but returns (tensor<f32>) (C5)}}
  %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%i: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'stablehlo.while' op region #0 must return (tensor<i1>) but returns (tensor<i32>) (C1)}}
  %0 = stablehlo.while(%x = %i) : tensor<i32>
    cond {
      stablehlo.return %x : tensor<i32>
    } do {
      stablehlo.return %x : tensor<i32>
    }
  return %0 : tensor<i32>
}
// -----
func.func @f(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {
  // expected-error@+1 {{'stablehlo.if' op region #1 must return (tensor<f32>) but returns (tensor<i32>) (C3)}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<f32>
  }, {
    stablehlo.return %b : tensor<i32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}
// -----
func.func @f(%p: tensor<2xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'stablehlo.select' op requires the same shape for all operands and results}}
  %0 = stablehlo.select %p, %a, %a : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @f(%a: tensor<2xf32>) -> tensor<2xi16> {
  // expected-error@+1 {{'stablehlo.bitcast_convert' op cannot bitcast 'tensor<2xf32>' to 'tensor<2xi16>' (C1)}}
  %0 = stablehlo.bitcast_convert %a : (tensor<2xf32>) -> tensor<2xi16>
  return %0 : tensor<2xi16>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{'stablehlo.reduce' op region #0 must return (tensor<f32>) but returns (tensor<i1>) (C6)}}
  %0 = stablehlo.reduce(%a init: %z) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    reducer(%x: tensor<f32>, %y: tensor<f32>)  {
      %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }
  return %0 : tensor<2xf32>
}
