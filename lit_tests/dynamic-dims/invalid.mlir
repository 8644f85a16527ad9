// dynamic-dims' errors name the op: dynamic dims of different names that
// meet (an elementwise op, a contraction, a broadcast), an op aic does not
// follow, a reduction from an init that is not a constant, a function that
// needs both layouts (a reshape merging two dynamic dims, which needs them
// packed at the front, and a reduction over one, which needs them padded in
// place), a callee called with other dims.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(dynamic-dims{default-bound=8})' --verify-diagnostics

func.func @contract_rows(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<16x16xf32> {
  // expected-error@+1 {{'stablehlo.dot_general' op contracts dimension 'arg0.0' with 'arg1.0': dynamic dimensions of different names cannot meet}}
  %p = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<16x16xf32>
  return %p : tensor<16x16xf32>
}

// -----

func.func @different_dims(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<?x16xf32> {
  // expected-error@+1 {{'stablehlo.add' op combines operands of dims [arg0.0, 16] and [arg1.0, 16]: dynamic dimensions of different names (or sizes) cannot meet}}
  %s = stablehlo.add %x, %y : tensor<?x16xf32>
  return %s : tensor<?x16xf32>
}

// -----

func.func @sort_rows(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'stablehlo.sort' op cannot take dynamic dimensions (arg0.0)}}
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

func.func @broadcast_along_one_of_two(%x: tensor<?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %b = stablehlo.get_dimension_size %y, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %s = stablehlo.get_dimension_size %y, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %s1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  // expected-error@+1 {{'stablehlo.dynamic_broadcast_in_dim' op moves elements along dynamic dimension 'arg0.0' of [arg0.0]}}
  %r = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

module {
  func.func public @other_dims(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %a = call @id(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    // expected-error@+1 {{'func.call' op a function with dynamic dimensions is called with other dims than before: inline it first}}
    %b = call @id(%y) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %b : tensor<?x4xf32>
  }
  func.func private @id(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    return %x : tensor<?x4xf32>
  }
}

// -----

func.func @init_not_constant(%x: tensor<?x16xf32>, %z: tensor<f32>) -> tensor<16xf32> {
  // expected-error@+1 {{'stablehlo.reduce' op reduces over dynamic dimension 'arg0.0' from an init value that is not a constant}}
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

func.func @both_layouts(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x?xf32>, tensor<f32>) -> tensor<?xf32>
  %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %c = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %n = stablehlo.multiply %b, %c : tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  // expected-error@+1 {{'stablehlo.dynamic_reshape' op reshapes [arg0.0, arg0.1] to [arg0.0*arg0.1]: merging or splitting a dynamic dimension with one before it would interleave its padding with data, which needs the dynamic dimensions packed at the front of each tensor, while another op ('stablehlo.reduce' at}}
  %r = stablehlo.dynamic_reshape %x, %n1 : (tensor<?x?xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %s, %r : tensor<?xf32>, tensor<?xf32>
}
