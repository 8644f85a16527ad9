// dynamic-dims' errors name the op that would mix the rows of a dynamic
// dimension (a reduction or contraction over it, a broadcast along one of
// several, an iota along one of several), a dynamic dim after a static one,
// a size used as a value, an op aic does not follow, a missing bound.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(dynamic-dims{default-bound=8})' --verify-diagnostics

func.func @reduce_over_rows(%x: tensor<?x16xf32>) -> tensor<16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error@+1 {{'stablehlo.reduce' op mixes the rows of dynamic dimensions [arg0.0] (result 0 [16])}}
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

func.func @contract_rows(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<16x16xf32> {
  // expected-error@+1 {{'stablehlo.dot_general' op mixes the rows of dynamic dimensions [arg0.0]}}
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

// expected-error@+1 {{'func.func' op argument 0: dynamic dimension 'arg0.1' follows a static one in [4, arg0.1]: only leading dimensions may be dynamic}}
func.func @inner(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  return %x : tensor<4x?xf32>
}

// -----

func.func @size_as_value(%x: tensor<?x16xf32>) -> tensor<i32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
  // expected-error@+1 {{'stablehlo.add' op uses the size of a dynamic dimension as a value: aic compiles sizes used only as shapes}}
  %m = stablehlo.add %n, %n : tensor<i32>
  return %m : tensor<i32>
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
  // expected-error@+1 {{'stablehlo.dynamic_broadcast_in_dim' op mixes the rows of dynamic dimensions [arg0.0]}}
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
