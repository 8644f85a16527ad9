// StableHLO's pad, dynamic_slice, dynamic_update_slice and gather become
// their graph ops with the same attributes; reduce_window with an
// add/maximum/minimum body and no base dilation becomes graph.reduce_window
// (JAX's cumsum on the CPU and GPU, max pooling); any other reduce_window
// stays.
// RUN: aic-opt %s --stablehlo-to-graph | FileCheck %s

// CHECK-LABEL: func.func @irregular(
// CHECK-NEXT: %0 = graph.pad %arg0, %arg2, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<10x8xf32>
// CHECK-NEXT: %1 = graph.dynamic_slice %arg0, %arg3, %arg3, sizes = [2, 7] : (tensor<5x7xf32>, tensor<i32>, tensor<i32>) -> tensor<2x7xf32>
// CHECK-NEXT: %2 = graph.dynamic_update_slice %arg0, %1, %arg3, %arg3 : (tensor<5x7xf32>, tensor<2x7xf32>, tensor<i32>, tensor<i32>) -> tensor<5x7xf32>
// CHECK-NEXT: %3 = graph.gather %arg0, %arg1 {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 7>} : (tensor<5x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>
// CHECK-NEXT: %4 = graph.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %5 = graph.reduce_window sum %arg0, %4, window = [1, 7], strides = [1, 1], dilations = [1, 1], padding = [0, 0, 6, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
// CHECK-NEXT: %6 = graph.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT: %7 = graph.reduce_window max %arg0, %6, window = [2, 3], strides = [2, 2], dilations = [1, 2], padding = [1, 0, 0, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<3x2xf32>
// CHECK-NEXT: %8 = "stablehlo.reduce_window"(%arg0, %4)
// CHECK: stablehlo.multiply
func.func @irregular(%a: tensor<5x7xf32>, %i: tensor<3x1xi32>, %v: tensor<f32>, %s: tensor<i32>) -> (tensor<10x8xf32>, tensor<5x7xf32>, tensor<3x7xf32>, tensor<5x7xf32>, tensor<3x2xf32>, tensor<5x7xf32>) {
  %p = stablehlo.pad %a, %v, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<10x8xf32>
  %d = stablehlo.dynamic_slice %a, %s, %s, sizes = [2, 7] : (tensor<5x7xf32>, tensor<i32>, tensor<i32>) -> tensor<2x7xf32>
  %u = stablehlo.dynamic_update_slice %a, %d, %s, %s : (tensor<5x7xf32>, tensor<2x7xf32>, tensor<i32>, tensor<i32>) -> tensor<5x7xf32>
  %g = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 7>}> : (tensor<5x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %c = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = "stablehlo.reduce_window"(%a, %ninf) <{padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, window_dilations = array<i64: 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<3x2xf32>
  %prod = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 0], [6, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 7>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  return %p, %u, %g, %c, %m, %prod : tensor<10x8xf32>, tensor<5x7xf32>, tensor<3x7xf32>, tensor<5x7xf32>, tensor<3x2xf32>, tensor<5x7xf32>
}

// A scatter setting (JAX's .at[].set) or adding (.at[].add) becomes
// graph.scatter; one with another body (a product) stays.
// CHECK-LABEL: func.func @scatter(
// CHECK-NEXT: %0 = graph.scatter set %arg0, %arg1, %arg2 {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: %1 = graph.scatter add %0, %arg1, %arg2 {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: %2 = "stablehlo.scatter"(%1, %arg1, %arg2)
func.func @scatter(%a: tensor<5x3xf32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  %s = "stablehlo.scatter"(%a, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %t = "stablehlo.scatter"(%s, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %m = "stablehlo.scatter"(%t, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %m : tensor<5x3xf32>
}

// A sort by LT or GT of its first operand's pair in total order (jnp.sort,
// jnp.argsort) becomes graph.sort; the operands swapped flip the order; a
// float comparison that is not in total order (NaN unordered) stays.
// CHECK-LABEL: func.func @sort(
// CHECK-NEXT: %0 = graph.sort %arg0, dim = 1 : (tensor<3x6xf32>) -> tensor<3x6xf32>
// CHECK-NEXT: %1:2 = graph.sort %arg0, %arg1, dim = 0 descending : (tensor<3x6xf32>, tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
// CHECK-NEXT: %2 = graph.sort %arg1, dim = 1 descending : (tensor<3x6xi32>) -> tensor<3x6xi32>
// CHECK-NEXT: %3 = "stablehlo.sort"(%arg0)
func.func @sort(%a: tensor<3x6xf32>, %i: tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>, tensor<3x6xi32>, tensor<3x6xf32>) {
  %s = "stablehlo.sort"(%a) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<3x6xf32>) -> tensor<3x6xf32>
  %r:2 = "stablehlo.sort"(%a, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):
    %c = stablehlo.compare GT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<3x6xf32>, tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
  %t = "stablehlo.sort"(%i) <{dimension = -1 : i64}> ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %c = stablehlo.compare LT, %y, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<3x6xi32>) -> tensor<3x6xi32>
  %f = "stablehlo.sort"(%a) <{dimension = 1 : i64}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<3x6xf32>) -> tensor<3x6xf32>
  return %s, %r#1, %t, %f : tensor<3x6xf32>, tensor<3x6xi32>, tensor<3x6xi32>, tensor<3x6xf32>
}
