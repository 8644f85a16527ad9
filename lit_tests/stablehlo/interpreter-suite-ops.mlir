// The StableHLO ops that StableHLO's interpreter suite needs beyond the
// common set: fft, triangular_solve, the dynamic ops, the collectives,
// send/recv, infeed/outfeed, after_all, chlo.mulhi, and the interpreter test
// dialect (run_parallel, probe, print) with check.expect_serialized_eq,
// quantized types with uniform_quantize/uniform_dequantize, chlo.scan and
// chlo.ragged_dot.
// Pretty where StableHLO has a pretty form, generic otherwise; the generic
// form parses back to the same.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s

// CHECK-LABEL: func.func @linalg(
// CHECK-NEXT: %0 = stablehlo.fft %arg0, type = FFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
// CHECK-NEXT: %1 = stablehlo.fft %arg1, type = RFFT, length = [4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
// CHECK-NEXT: %2 = stablehlo.fft %1, type = IRFFT, length = [4] : (tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32>
// CHECK-NEXT: %3 = "stablehlo.triangular_solve"(%arg2, %arg3) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<2x3x3xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: return %0, %1, %2, %3 : tensor<2x4xcomplex<f32>>, tensor<2x3xcomplex<f32>>, tensor<2x4xf32>, tensor<2x3x5xf32>
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT: %0 = stablehlo.dynamic_iota %arg1, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
// CHECK-NEXT: %1 = stablehlo.dynamic_reshape %arg0, %arg1 : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: %2 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: %3 = stablehlo.dynamic_pad %arg0, %arg2, %arg3, %arg3, %arg3 : (tensor<?x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: %4 = "stablehlo.dynamic_gather"(%arg0, %arg4, %arg5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<3x2xi64>, tensor<2xi64>) -> tensor<3x4xf32>
// CHECK-NEXT: %5 = "stablehlo.dynamic_conv"(%arg8, %arg6, %arg7) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64}> : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
// CHECK-NEXT: %6 = stablehlo.real_dynamic_slice %arg0, %arg3, %arg1, %arg1 : (tensor<?x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: return
// CHECK-LABEL: func.func @collectives(
// CHECK-NEXT: %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %1 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %12 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %12 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %2 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK-NEXT: %12 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: stablehlo.return %12 : tensor<f32>
// CHECK-NEXT: }) : (tensor<2x4xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %3 = "stablehlo.all_to_all"(%arg0) <{concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<2x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %4 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %5 = "stablehlo.collective_broadcast"(%arg0) <{replica_groups = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %6 = "stablehlo.send"(%arg0, %arg1) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true}> : (tensor<2x4xf32>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: %7:2 = "stablehlo.recv"(%6) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
// CHECK-NEXT: %8:2 = "stablehlo.infeed"(%7#1) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
// CHECK-NEXT: %9 = "stablehlo.outfeed"(%8#0, %8#1) : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: %10 = stablehlo.after_all %9, %arg1 : !stablehlo.token
// CHECK-NEXT: %11 = stablehlo.after_all : !stablehlo.token
// CHECK-NEXT: return %10 : !stablehlo.token
// CHECK-LABEL: func.func @test_dialect(
// CHECK-NEXT: %0 = interpreter.probe %arg0, probe_id = "x/0" : tensor<3xi32>
// CHECK-NEXT: check.expect_serialized_eq %0, probe_id = "x/0" : tensor<3xi32>
// CHECK-NEXT: check.expect_serialized_eq %0, probe_id = "x/0", iter = 0 : tensor<3xi32>
// CHECK-NEXT: interpreter.print %0 : tensor<3xi32>
// CHECK-NEXT: %1:2 = "interpreter.run_parallel"(%arg0, %arg0) <{programs = {{\[\[}}@id], [@id]]}> : (tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
// CHECK-NEXT: %2 = chlo.mulhi %arg0, %arg0 : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
// CHECK-NEXT: return %2 : tensor<3xi32>
// CHECK-LABEL: func.func private @id(
// CHECK-NEXT: return %arg0 : tensor<3xi32>

func.func @linalg(%c: tensor<2x4xcomplex<f32>>, %r: tensor<2x4xf32>, %a: tensor<2x3x3xf32>, %b: tensor<2x3x5xf32>) -> (tensor<2x4xcomplex<f32>>, tensor<2x3xcomplex<f32>>, tensor<2x4xf32>, tensor<2x3x5xf32>) {
  %0 = stablehlo.fft %c, type = FFT, length = [2, 4] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>>
  %1 = stablehlo.fft %r, type = RFFT, length = [4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  %2 = stablehlo.fft %1, type = IRFFT, length = [4] : (tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32>
  %3 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = false, unit_diagonal = true, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x3x3xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0, %1, %2, %3 : tensor<2x4xcomplex<f32>>, tensor<2x3xcomplex<f32>>, tensor<2x4xf32>, tensor<2x3x5xf32>
}
func.func @dynamic(%x: tensor<?x4xf32>, %s: tensor<2xi64>, %p: tensor<f32>, %lo: tensor<2xi64>, %i: tensor<3x2xi64>, %sz: tensor<2xi64>, %k: tensor<3x3x1x1xf32>, %pad: tensor<2x2xi64>, %img: tensor<1x4x4x1xf32>) {
  %0 = stablehlo.dynamic_iota %s, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
  %1 = stablehlo.dynamic_reshape %x, %s : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %2 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = stablehlo.dynamic_pad %x, %p, %lo, %lo, %lo : (tensor<?x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %4 = "stablehlo.dynamic_gather"(%x, %i, %sz) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>} : (tensor<?x4xf32>, tensor<3x2xi64>, tensor<2xi64>) -> tensor<3x4xf32>
  %5 = "stablehlo.dynamic_conv"(%img, %k, %pad) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>, tensor<2x2xi64>) -> tensor<1x4x4x1xf32>
  %6 = stablehlo.real_dynamic_slice %x, %lo, %s, %s : (tensor<?x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}
func.func @collectives(%x: tensor<2x4xf32>, %t: !stablehlo.token) -> !stablehlo.token {
  %0 = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, use_global_device_ids} : (tensor<2x4xf32>) -> tensor<2x8xf32>
  %1 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %3 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %4 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %5 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %6 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 2>, is_host_transfer = true} : (tensor<2x4xf32>, !stablehlo.token) -> !stablehlo.token
  %7:2 = "stablehlo.recv"(%6) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2x4xf32>, !stablehlo.token)
  %8:2 = "stablehlo.infeed"(%7#1) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %9 = "stablehlo.outfeed"(%8#0, %8#1) : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  %10 = stablehlo.after_all %9, %t : !stablehlo.token
  %11 = stablehlo.after_all : !stablehlo.token
  return %10 : !stablehlo.token
}
func.func @test_dialect(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = interpreter.probe %x, probe_id = "x/0" : tensor<3xi32>
  check.expect_serialized_eq %0, probe_id = "x/0" : tensor<3xi32>
  check.expect_serialized_eq %0, probe_id = "x/0", iter = 0 : tensor<3xi32>
  interpreter.print %0 : tensor<3xi32>
  %1:2 = "interpreter.run_parallel"(%x, %x) {programs = [[@id], [@id]]} : (tensor<3xi32>, tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  %2 = "chlo.mulhi"(%x, %x) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %2 : tensor<3xi32>
}
func.func private @id(%x: tensor<3xi32>) -> tensor<3xi32> {
  return %x : tensor<3xi32>
}

// CHECK-LABEL: func.func @q(
// CHECK-NEXT: %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
// CHECK-NEXT: %1 = stablehlo.uniform_quantize %0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<u8<1:254>:f32:1, {0.25:10,1.0:1,2.5:3}>>
// CHECK-NEXT: %2 = stablehlo.add %0, %0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:0>>
// CHECK-NEXT: %3 = stablehlo.uniform_dequantize %2 : (tensor<2x3x!quant.uniform<i8:f32, 0.25:0>>) -> tensor<2x3xf32>
// CHECK-NEXT: %4:2 = chlo.scan(%arg0) inits(%3) dimension = 0 attributes {is_reverse = true} {
// CHECK-NEXT: ^bb0(%arg1: tensor<3xf32>, %arg2: tensor<2x3xf32>):
// CHECK-NEXT: stablehlo.return %arg1, %arg2 : tensor<3xf32>, tensor<2x3xf32>
// CHECK-NEXT: } : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: return %3 : tensor<2x3xf32>
func.func @q(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<u8<1:254>:f32:1, {0.25:10,1.0:1,2.5:3}>>
  %2 = stablehlo.add %0, %0 : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25:0>>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<2x3x!quant.uniform<i8:f32, 0.25:0>>) -> tensor<2x3xf32>
  %4:2 = chlo.scan(%x) inits(%3) dimension = 0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<3xf32>, %c: tensor<2x3xf32>):
    stablehlo.return %a, %c : tensor<3xf32>, tensor<2x3xf32>
  } : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %3 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @ragged(
// CHECK-NEXT: %0 = "chlo.ragged_dot"(%arg0, %arg1, %arg2) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}> : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
// CHECK-NEXT: return %0 : tensor<3x1xf32>
func.func @ragged(%l: tensor<3x2xf32>, %r: tensor<2x2x1xf32>, %g: tensor<2xi64>) -> tensor<3x1xf32> {
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>, precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]} : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
