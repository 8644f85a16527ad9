// Graph and fusion verifier and parser diagnostics: shape inference mismatches,
// malformed attributes, region contracts.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.matmul' op contracted dimensions differ: 3 != 4}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.matmul' op inferred type 'tensor<2x5xf32>' of result #0 is incompatible with its type 'tensor<2x4xf32>'}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.add' op operand shapes [2, 3] and [2, 4] must be equal (or one of rank 0)}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.add' op requires the same element type for all operands and results}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error@+1 {{'graph.exp' op operand #0 must be tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = graph.exp %a : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
// -----
func.func @f(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{'graph.conv2d' op filter input channels 3 times groups 1 must equal the input channels 4}}
  %0 = graph.conv2d %x, %k, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<1x8x8x4xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
// -----
func.func @f(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error@+1 {{'graph.conv2d' op inferred type 'tensor<1x6x6x16xf32>' of result #0 is incompatible with its type 'tensor<1x8x8x16xf32>'}}
  %0 = graph.conv2d %x, %k, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
// -----
func.func @f(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
  // expected-error@+1 {{expected layout to be one of: NHWC, NCHW}}
  %0 = graph.conv2d %x, %k, layout = NCWH, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  return %0 : tensor<1x6x6x16xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'graph.bias_add' op bias [4] must be a vector of the last dimension of [4, 8]}}
  %0 = graph.bias_add %x, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'graph.softmax' op axis 2 is out of range for rank 2}}
  %0 = graph.softmax %x, axis = 2 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>, %g: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'graph.rmsnorm' op scale and shift [4] must match the trailing dimensions of [4, 8]}}
  %0 = graph.rmsnorm %x, %g : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.reduce' op axes [1, 1] must be distinct and in range for rank 2}}
  %0 = graph.reduce sum %x, axes = [1, 1] : (tensor<4x8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'graph.reduce' op inferred type 'tensor<4xf32>' of result #0 is incompatible with its type 'tensor<8xf32>'}}
  %0 = graph.reduce sum %x, axes = [1] : (tensor<4x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'graph.transpose' op perm [1, 1] is not a permutation of [0, 2)}}
  %0 = graph.transpose %x, perm = [1, 1] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<5x6xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 32 elements into 30}}
  %0 = graph.reshape %x : (tensor<4x8xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
// -----
func.func @f(%x: tensor<3xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'graph.broadcast' op operand dimension 0 of size 3 cannot broadcast to result dimension 1}}
  %0 = graph.broadcast %x, dims = [1] : (tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{'graph.slice' op slice 3:5:1 is out of range for dimension 0 of size 4}}
  %0 = graph.slice %x [3:5, 0:8] : (tensor<4x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>, %y: tensor<3x7xf32>) -> tensor<7x8xf32> {
  // expected-error@+1 {{'graph.concat' op shapes [4, 8] and [3, 7] differ outside the concatenation axis}}
  %0 = graph.concat %x, %y, axis = 0 : (tensor<4x8xf32>, tensor<3x7xf32>) -> tensor<7x8xf32>
  return %0 : tensor<7x8xf32>
}
// -----
func.func @f(%x: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  // expected-error@+1 {{'graph.split' op result sizes along axis 1 add up to 6, not 8}}
  %0:2 = graph.split %x, axis = 1 : (tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xf32>
}
// -----
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'fusion.group' op requires 'fusion.yield' to yield values of the result types}}
  %0 = fusion.group vertical (%a = %x) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
    %n = graph.neg %a : tensor<2x3xf32>
    fusion.yield %a, %n : tensor<2x3xf32>, tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-note@+1 {{required by region isolation constraints}}
  %0 = fusion.group vertical (%a = %x) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-error@+1 {{'graph.neg' op using value defined outside the region}}
    %n = graph.neg %x : tensor<2x3xf32>
    fusion.yield %n : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{expected a fusion kind, one of: vertical, horizontal, memory, b2b_gemm, reduction, elementwise}}
  %0 = fusion.group sideways (%a = %x) : (tensor<2x3xf32>) -> tensor<2x3xf32> {
    fusion.yield %a : tensor<2x3xf32>
  }
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%p: tensor<2x3xi32>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.select' op requires an i1 predicate}}
  %0 = graph.select %p, %a, %a : (tensor<2x3xi32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) -> tensor<2x3xi1> {
  // expected-error@+1 {{'graph.compare' op requires the same element type for all operands and results}}
  %0 = graph.compare EQ, %a, %b : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
// -----
func.func @f(%p: tensor<2x3xi1>, %a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.select' op operand shapes [2, 3], [2, 4] and [2, 4] must be equal (or of rank 0)}}
  %0 = graph.select %p, %a, %a : (tensor<2x3xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %v: tensor<f32>) -> tensor<5x7xf32> {
  // expected-error@+1 {{'graph.pad' op interior padding -1 of dim 0 is negative}}
  %0 = graph.pad %a, %v, low = [0, 0], high = [0, 0], interior = [-1, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %s: tensor<i32>) -> tensor<6x7xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op slice sizes [6, 7] must fit the operand [5, 7]}}
  %0 = graph.dynamic_slice %a, %s, %s, sizes = [6, 7] : (tensor<5x7xf32>, tensor<i32>, tensor<i32>) -> tensor<6x7xf32>
  return %0 : tensor<6x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %s: tensor<f32>) -> tensor<2x7xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op requires integer indices}}
  %0 = graph.dynamic_slice %a, %s, %s, sizes = [2, 7] : (tensor<5x7xf32>, tensor<f32>, tensor<f32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %u: tensor<2x7xf32>, %s: tensor<i32>) -> tensor<5x7xf32> {
  // expected-error@+1 {{'graph.dynamic_update_slice' op needs 2 start indices of rank 0, one per dim}}
  %0 = graph.dynamic_update_slice %a, %u, %s : (tensor<5x7xf32>, tensor<2x7xf32>, tensor<i32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %i: tensor<3x2xi32>) -> tensor<3x7xf32> {
  // expected-error@+1 {{'graph.gather' op index vectors of 2 components for a start index map of 1}}
  %0 = graph.gather %a, %i {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 7>} : (tensor<5x7xf32>, tensor<3x2xi32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %i: tensor<3x1xi32>) -> tensor<3x7xf32> {
  // expected-error@+1 {{'graph.gather' op inferred type 'tensor<3x1x7xf32>' of result #0 is incompatible with its type 'tensor<3x7xf32>'}}
  %0 = graph.gather %a, %i {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 7>} : (tensor<5x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>
  return %0 : tensor<3x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %v: tensor<f32>) -> tensor<5x7xf32> {
  // expected-error@+1 {{'graph.reduce_window' op window, strides and dilations need 2 entries, padding 4}}
  %0 = graph.reduce_window sum %a, %v, window = [1, 7], strides = [1, 1], dilations = [1, 1], padding = [0, 6] : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}
// -----
func.func @f(%a: tensor<5x7xf32>, %v: tensor<f32>) -> tensor<5x7xf32> {
  // expected-error@+1 {{'graph.reduce_window' op a window reduction sums, or takes the max or min}}
  %0 = graph.reduce_window mean %a, %v, window = [1, 1], strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  return %0 : tensor<5x7xf32>
}
// -----
func.func @f(%a: tensor<5x3xf32>, %i: tensor<4x1xi32>, %u: tensor<3x3xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter' op the updates' scatter dims [3] differ from the indices' batch dims [4]}}
  %0 = graph.scatter add %a, %i, %u {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<3x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
// -----
func.func @f(%a: tensor<5x3xf32>, %i: tensor<4x1xf32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter' op requires integer indices}}
  %0 = graph.scatter set %a, %i, %u {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}
// -----
func.func @f(%a: tensor<3x6xf32>) -> tensor<3x6xf32> {
  // expected-error@+1 {{'graph.sort' op dim 2 is out of range for rank 2}}
  %0 = graph.sort %a, dim = 2 : (tensor<3x6xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}
// -----
func.func @f(%a: tensor<3x6xf32>, %i: tensor<3x5xi32>) -> tensor<3x6xf32> {
  // expected-error@+1 {{'graph.sort' op the operands must have one shape}}
  %0:2 = graph.sort %a, %i, dim = 1 : (tensor<3x6xf32>, tensor<3x5xi32>) -> (tensor<3x6xf32>, tensor<3x5xi32>)
  return %0#0 : tensor<3x6xf32>
}
// -----
func.func @f(%x: tensor<2x4x4x12xf32>, %g: tensor<12xf32>) -> tensor<2x4x4x12xf32> {
  // expected-error@+1 {{'graph.groupnorm' op 5 groups do not divide the 12 channels of [2, 4, 4, 12]}}
  %0 = graph.groupnorm %x, %g, %g, groups = 5 : (tensor<2x4x4x12xf32>, tensor<12xf32>, tensor<12xf32>) -> tensor<2x4x4x12xf32>
  return %0 : tensor<2x4x4x12xf32>
}
// -----
func.func @f(%x: tensor<2x4x4x12xf32>, %g: tensor<4xf32>) -> tensor<2x4x4x12xf32> {
  // expected-error@+1 {{'graph.groupnorm' op scale and shift [4] must be vectors of the 12 channels}}
  %0 = graph.groupnorm %x, %g, %g, groups = 3 : (tensor<2x4x4x12xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x4x12xf32>
  return %0 : tensor<2x4x4x12xf32>
}
// -----
func.func @f(%x: tensor<12xf32>, %g: tensor<12xf32>) -> tensor<12xf32> {
  // expected-error@+1 {{'graph.groupnorm' op the input [12] must have a batch and a channel dimension}}
  %0 = graph.groupnorm %x, %g, %g, groups = 3 : (tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
  return %0 : tensor<12xf32>
}
