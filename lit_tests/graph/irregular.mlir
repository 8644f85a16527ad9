// The irregular graph ops (pad, dynamic slices, gather, reduce_window) in
// their pretty syntax; the generic form parses too, and printing is stable.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s

// CHECK-LABEL: func.func @irregular(
// CHECK-NEXT: %0 = graph.pad %arg0, %arg2, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<10x8xf32>
// CHECK-NEXT: %1 = graph.dynamic_slice %arg0, %arg3, %arg3, sizes = [2, 7] : (tensor<5x7xf32>, tensor<i32>, tensor<i32>) -> tensor<2x7xf32>
// CHECK-NEXT: %2 = graph.dynamic_update_slice %arg0, %1, %arg3, %arg3 : (tensor<5x7xf32>, tensor<2x7xf32>, tensor<i32>, tensor<i32>) -> tensor<5x7xf32>
// CHECK-NEXT: %3 = graph.gather %arg0, %arg1 {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 7>} : (tensor<5x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>
// CHECK-NEXT: %4 = graph.reduce_window sum %arg0, %arg2, window = [1, 7], strides = [1, 1], dilations = [1, 1], padding = [0, 0, 6, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
// CHECK-NEXT: %5 = graph.reduce_window max %arg0, %arg2, window = [2, 3], strides = [2, 2], dilations = [1, 2], padding = [1, 0, 0, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<3x2xf32>
func.func @irregular(%a: tensor<5x7xf32>, %i: tensor<3x1xi32>, %v: tensor<f32>, %s: tensor<i32>) -> (tensor<10x8xf32>, tensor<5x7xf32>, tensor<3x7xf32>, tensor<5x7xf32>, tensor<3x2xf32>) {
  %p = graph.pad %a, %v, low = [1, -1], high = [0, 2], interior = [1, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<10x8xf32>
  %d = graph.dynamic_slice %a, %s, %s, sizes = [2, 7] : (tensor<5x7xf32>, tensor<i32>, tensor<i32>) -> tensor<2x7xf32>
  %u = graph.dynamic_update_slice %a, %d, %s, %s : (tensor<5x7xf32>, tensor<2x7xf32>, tensor<i32>, tensor<i32>) -> tensor<5x7xf32>
  %g = graph.gather %a, %i {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 7>} : (tensor<5x7xf32>, tensor<3x1xi32>) -> tensor<3x7xf32>
  %c = graph.reduce_window sum %a, %v, window = [1, 7], strides = [1, 1], dilations = [1, 1], padding = [0, 0, 6, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  %m = graph.reduce_window max %a, %v, window = [2, 3], strides = [2, 2], dilations = [1, 2], padding = [1, 0, 0, 0] : (tensor<5x7xf32>, tensor<f32>) -> tensor<3x2xf32>
  return %p, %u, %g, %c, %m : tensor<10x8xf32>, tensor<5x7xf32>, tensor<3x7xf32>, tensor<5x7xf32>, tensor<3x2xf32>
}

// CHECK-LABEL: func.func @scatter(
// CHECK-NEXT: %0 = graph.scatter set %arg0, %arg1, %arg2 {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: %1 = graph.scatter add %0, %arg1, %arg2 {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
func.func @scatter(%a: tensor<5x3xf32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>) -> tensor<5x3xf32> {
  %s = graph.scatter set %a, %i, %u {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  %t = graph.scatter add %s, %i, %u {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %t : tensor<5x3xf32>
}

// CHECK-LABEL: func.func @sort(
// CHECK-NEXT: %0 = graph.sort %arg0, dim = 1 : (tensor<3x6xf32>) -> tensor<3x6xf32>
// CHECK-NEXT: %1:2 = graph.sort %arg0, %arg1, dim = 0 descending : (tensor<3x6xf32>, tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
func.func @sort(%a: tensor<3x6xf32>, %i: tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>) {
  %s = graph.sort %a, dim = 1 : (tensor<3x6xf32>) -> tensor<3x6xf32>
  %r:2 = graph.sort %a, %i, dim = 0 descending : (tensor<3x6xf32>, tensor<3x6xi32>) -> (tensor<3x6xf32>, tensor<3x6xi32>)
  return %s, %r#1 : tensor<3x6xf32>, tensor<3x6xi32>
}
