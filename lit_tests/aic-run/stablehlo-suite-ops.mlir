// The interpreter semantics of fft, triangular_solve, the dynamic ops, the
// collectives over interpreter.run_parallel's processes, send/recv, probes,
// chlo.mulhi and complex maximum/minimum/atan2, on small cases worked out by
// hand. A collective among several processes outside run_parallel, and a
// dynamic op whose runtime shape contradicts its type, fail their function.
// RUN: not aic-run --interpret %s | FileCheck %s

// CHECK: PASS fft_forward_and_inverse
func.func @fft_forward_and_inverse() {
  %x = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f64>>
  %f = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %f, dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)]> : tensor<4xcomplex<f64>>
  %i = stablehlo.fft %f, type = IFFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  check.expect_almost_eq_const %i, dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f64>>
  %m = stablehlo.constant dense<[[(1.0, 0.0), (2.0, 0.0)], [(3.0, 0.0), (4.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %g = stablehlo.fft %m, type = FFT, length = [2, 2] : (tensor<2x2xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
  check.expect_almost_eq_const %g, dense<[[(10.0, 0.0), (-2.0, 0.0)], [(-4.0, 0.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  return
}

// CHECK: PASS rfft_and_irfft
func.func @rfft_and_irfft() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<2x4xf32>
  %f = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
  check.expect_almost_eq_const %f, dense<[[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0)], [(4.0, 0.0), (0.0, 0.0), (0.0, 0.0)]]> : tensor<2x3xcomplex<f32>>
  %i = stablehlo.fft %f, type = IRFFT, length = [4] : (tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32>
  check.expect_almost_eq_const %i, dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<2x4xf32>
  return
}

// CHECK: PASS triangular_solve_sides_and_transposes
func.func @triangular_solve_sides_and_transposes() {
  // The 99 lies outside the lower triangle: never read.
  %a = stablehlo.constant dense<[[2.0, 99.0], [1.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[2.0], [9.0]]> : tensor<2x1xf32>
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_almost_eq_const %0, dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %1 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_almost_eq_const %1, dense<[[-0.125], [2.25]]> : tensor<2x1xf32>
  %c = stablehlo.constant dense<[[4.0, 8.0]]> : tensor<1x2xf32>
  %2 = "stablehlo.triangular_solve"(%a, %c) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  check.expect_almost_eq_const %2, dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %u = stablehlo.constant dense<[[5.0, 0.0], [3.0, 7.0]]> : tensor<2x2xf32>
  %d = stablehlo.constant dense<[[1.0], [5.0]]> : tensor<2x1xf32>
  %3 = "stablehlo.triangular_solve"(%u, %d) {left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_almost_eq_const %3, dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  return
}

// CHECK: PASS complex_order_and_atan2
func.func @complex_order_and_atan2() {
  %a = stablehlo.constant dense<[(1.0, 5.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %b = stablehlo.constant dense<[(1.0, 2.0), (-1.0, 9.0)]> : tensor<2xcomplex<f32>>
  %max = stablehlo.maximum %a, %b : tensor<2xcomplex<f32>>
  check.expect_eq_const %max, dense<[(1.0, 5.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
  %min = stablehlo.minimum %a, %b : tensor<2xcomplex<f32>>
  check.expect_eq_const %min, dense<[(1.0, 2.0), (-1.0, 9.0)]> : tensor<2xcomplex<f32>>
  %y = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f64>>
  %t = stablehlo.atan2 %y, %y : tensor<complex<f64>>
  check.expect_almost_eq_const %t, dense<(0.78539816339744828, 0.0)> : tensor<complex<f64>>
  return
}

// CHECK: PASS reduce_precision_nan_without_mantissa
func.func @reduce_precision_nan_without_mantissa() {
  %x = stablehlo.constant dense<[0x7FF8000000000001, 0xFFF8000000000001]> : tensor<2xf64>
  %r = stablehlo.reduce_precision %x, format = e5m0 : tensor<2xf64>
  check.expect_eq_const %r, dense<[0x7FF0000000000000, 0xFFF0000000000000]> : tensor<2xf64>
  %s = stablehlo.reduce_precision %x, format = e5m2 : tensor<2xf64>
  %nan = stablehlo.compare NE, %s, %s : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
  check.expect_eq_const %nan, dense<true> : tensor<2xi1>
  return
}

// CHECK: PASS dynamic_ops
func.func @dynamic_ops() {
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %i, dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>
  %x = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %r = stablehlo.dynamic_reshape %x, %shape : (tensor<6xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %v = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %v, %shape, dims = [0] : (tensor<2xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[7, 7, 7], [8, 8, 8]]> : tensor<2x3xi32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %lo = stablehlo.constant dense<[1]> : tensor<1xi64>
  %hi = stablehlo.constant dense<[0]> : tensor<1xi64>
  %in = stablehlo.constant dense<[1]> : tensor<1xi64>
  %p = stablehlo.dynamic_pad %v, %zero, %lo, %hi, %in : (tensor<2xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi32>
  check.expect_eq_const %p, dense<[0, 7, 0, 8]> : tensor<4xi32>
  %start = stablehlo.constant dense<[[1], [5]]> : tensor<2x1xi64>
  %sizes = stablehlo.constant dense<[2]> : tensor<1xi64>
  %g = "stablehlo.dynamic_gather"(%x, %start, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>} : (tensor<6xi32>, tensor<2x1xi64>, tensor<1xi64>) -> tensor<2x2xi32>
  // The second start is clamped to 4 so that the slice fits.
  check.expect_eq_const %g, dense<[[2, 3], [5, 6]]> : tensor<2x2xi32>
  %img = stablehlo.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %k = stablehlo.constant dense<1.0> : tensor<2x2x1x1xf32>
  %pad = stablehlo.constant dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>
  %c = "stablehlo.dynamic_conv"(%img, %k, %pad) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64} : (tensor<1x2x2x1xf32>, tensor<2x2x1x1xf32>, tensor<2x2xi64>) -> tensor<1x2x1x1xf32>
  check.expect_almost_eq_const %c, dense<[[[[3.0]], [[10.0]]]]> : tensor<1x2x1x1xf32>
  // real_dynamic_slice: rows 1..3 of every other column, as [2, 2].
  %m = stablehlo.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %s0 = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %s1 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %s2 = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %rds = stablehlo.real_dynamic_slice %m, %s0, %s1, %s2 : (tensor<3x4xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xi32>
  check.expect_eq_const %rds, dense<[[5, 7], [9, 11]]> : tensor<2x2xi32>
  return
}

// CHECK: PASS dynamic_result_types
func.func @dynamic_result_types() {
  // `?` dimensions take the runtime shape.
  %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<?x?xi32>
  %d = stablehlo.get_dimension_size %i, dim = 1 : (tensor<?x?xi32>) -> tensor<i32>
  check.expect_eq_const %d, dense<3> : tensor<i32>
  %a = stablehlo.add %i, %i : tensor<?x?xi32>
  %r = stablehlo.dynamic_reshape %a, %shape : (tensor<?x?xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[0, 2, 4], [0, 2, 4]]> : tensor<2x3xi32>
  return
}

// CHECK: FAIL dynamic_shape_contradicts_type: the result's shape is [3, 2], its type says [2, 3]
func.func @dynamic_shape_contradicts_type() {
  %shape = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<2x3xi32>
  return
}

// CHECK: PASS mulhi
func.func @mulhi() {
  %a = stablehlo.constant dense<[1073741824, -1, 100]> : tensor<3xi32>
  %b = stablehlo.constant dense<[4, 1, 100]> : tensor<3xi32>
  %h = "chlo.mulhi"(%a, %b) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %h, dense<[1, -1, 0]> : tensor<3xi32>
  %c = stablehlo.constant dense<[200, 15]> : tensor<2xui8>
  %u = "chlo.mulhi"(%c, %c) : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  check.expect_eq_const %u, dense<[156, 0]> : tensor<2xui8>
  return
}

// CHECK: PASS probes
func.func @probes() {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %p0 = interpreter.probe %a, probe_id = "a" : tensor<2xf32>
  %b = stablehlo.add %p0, %p0 : tensor<2xf32>
  %p1 = interpreter.probe %b, probe_id = "a" : tensor<2xf32>
  check.expect_serialized_eq %a, probe_id = "a" : tensor<2xf32>
  check.expect_serialized_eq %b, probe_id = "a", iter = 1 : tensor<2xf32>
  return
}

// CHECK: FAIL probe_never_recorded: no value was probed as "b" (iteration 0) in this run
func.func @probe_never_recorded() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  check.expect_serialized_eq %a, probe_id = "b" : tensor<i32>
  return
}

// CHECK: PASS collectives_alone
func.func @collectives_alone() {
  // One process: a group of itself.
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  check.expect_eq_const %r, dense<[1, 2]> : tensor<2xi32>
  %id = stablehlo.replica_id : tensor<ui32>
  check.expect_eq_const %id, dense<0> : tensor<ui32>
  return
}

// CHECK: FAIL collective_needs_processes: replica 1 is out of range [0, 1)
func.func @collective_needs_processes() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<4xi32>
  return
}

func.func private @collect(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<8xi32>, tensor<2xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %sum = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  %all = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<8xi32>
  %part = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<2xi32>
  %swap = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  %perm = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  %bc = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  return %sum, %all, %part, %swap, %perm, %bc : tensor<4xi32>, tensor<8xi32>, tensor<2xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// CHECK: PASS collectives_of_two_replicas
func.func @collectives_of_two_replicas() {
  %x0 = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %x1 = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %r:12 = "interpreter.run_parallel"(%x0, %x1) {programs = [[@collect], [@collect]]} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<8xi32>, tensor<2xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<8xi32>, tensor<2xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %r#0, dense<[11, 22, 33, 44]> : tensor<4xi32>
  check.expect_eq_const %r#6, dense<[11, 22, 33, 44]> : tensor<4xi32>
  check.expect_eq_const %r#1, dense<[1, 2, 3, 4, 10, 20, 30, 40]> : tensor<8xi32>
  check.expect_eq_const %r#7, dense<[1, 2, 3, 4, 10, 20, 30, 40]> : tensor<8xi32>
  check.expect_eq_const %r#2, dense<[11, 22]> : tensor<2xi32>
  check.expect_eq_const %r#8, dense<[33, 44]> : tensor<2xi32>
  check.expect_eq_const %r#3, dense<[1, 2, 10, 20]> : tensor<4xi32>
  check.expect_eq_const %r#9, dense<[3, 4, 30, 40]> : tensor<4xi32>
  check.expect_eq_const %r#4, dense<0> : tensor<4xi32>
  check.expect_eq_const %r#10, dense<[1, 2, 3, 4]> : tensor<4xi32>
  check.expect_eq_const %r#5, dense<[10, 20, 30, 40]> : tensor<4xi32>
  check.expect_eq_const %r#11, dense<[10, 20, 30, 40]> : tensor<4xi32>
  return
}

func.func private @ids() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r, %p : tensor<ui32>, tensor<ui32>
}

// CHECK: PASS replicas_and_partitions
func.func @replicas_and_partitions() {
  %r:8 = "interpreter.run_parallel"() {programs = [[@ids, @ids], [@ids, @ids]]} : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %r#0, dense<0> : tensor<ui32>
  check.expect_eq_const %r#1, dense<0> : tensor<ui32>
  check.expect_eq_const %r#2, dense<0> : tensor<ui32>
  check.expect_eq_const %r#3, dense<1> : tensor<ui32>
  check.expect_eq_const %r#4, dense<1> : tensor<ui32>
  check.expect_eq_const %r#5, dense<0> : tensor<ui32>
  check.expect_eq_const %r#6, dense<1> : tensor<ui32>
  check.expect_eq_const %r#7, dense<1> : tensor<ui32>
  return
}

func.func private @sender(%t: !stablehlo.token) -> !stablehlo.token {
  %x = stablehlo.constant dense<[5, 6]> : tensor<2xi32>
  %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  return %s : !stablehlo.token
}

func.func private @receiver(%t: !stablehlo.token) -> (tensor<2xi32>, !stablehlo.token) {
  %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>} : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  return %r#0, %r#1 : tensor<2xi32>, !stablehlo.token
}

// CHECK: PASS send_then_recv
func.func @send_then_recv() {
  %t = stablehlo.after_all : !stablehlo.token
  %r:3 = "interpreter.run_parallel"(%t, %t) {programs = [[@sender], [@receiver]]} : (!stablehlo.token, !stablehlo.token) -> (!stablehlo.token, tensor<2xi32>, !stablehlo.token)
  check.expect_eq_const %r#1, dense<[5, 6]> : tensor<2xi32>
  return
}

// CHECK: PASS quantize_and_dequantize
func.func @quantize_and_dequantize() {
  %x = stablehlo.constant dense<[1.0, -2.2, 100.0, 0.25]> : tensor<4xf32>
  // x / 0.5 - 3, rounded to even (-2.5 to -2), clamped to 127.
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
  %s = stablehlo.bitcast_convert %q : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xi8>
  check.expect_eq_const %s, dense<[-1, -7, 127, -2]> : tensor<4xi8>
  %d = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<4xf32>
  check.expect_eq_const %d, dense<[1.0, -2.0, 65.0, 0.5]> : tensor<4xf32>
  %m = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %p = stablehlo.uniform_quantize %m : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0,2.0:1}>>
  %ps = stablehlo.bitcast_convert %p : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0,2.0:1}>>) -> tensor<2x2xi8>
  check.expect_eq_const %ps, dense<[[2, 2], [6, 3]]> : tensor<2x2xi8>
  return
}

// CHECK: PASS quantized_elementwise
func.func @quantized_elementwise() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:0>>
  %m = stablehlo.multiply %q, %q : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>, tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<2x!quant.uniform<i8:f32, 0.25:0>>
  %s = stablehlo.bitcast_convert %m : (tensor<2x!quant.uniform<i8:f32, 0.25:0>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[9, 16]> : tensor<2xi8>
  return
}

// Quantized contractions mean the spec's dequantize_op_quantize: the
// operands' values contracted, the result quantized to its type
// (1.5 * 1.5 + (-2) * (-2) = 6.25 = 25 * 0.25), or kept as floats for a
// hybrid op (float activations, quantized weights, as JAX exports
// weight-only quantization).
// CHECK: PASS quantized_dot
func.func @quantized_dot() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:0>>
  %d = stablehlo.dot_general %q, %q, contracting_dims = [0] x [0] : (tensor<2x!quant.uniform<i8:f32, 0.5:0>>, tensor<2x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<!quant.uniform<i32:f32, 0.25:0>>
  %s = stablehlo.bitcast_convert %d : (tensor<!quant.uniform<i32:f32, 0.25:0>>) -> tensor<i32>
  check.expect_eq_const %s, dense<25> : tensor<i32>
  return
}

// CHECK: PASS hybrid_quantized_dot
func.func @hybrid_quantized_dot() {
  %x = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %w = stablehlo.constant dense<[[0.5, -1.0], [1.5, 2.0]]> : tensor<2x2xf32>
  %q = stablehlo.uniform_quantize %w : (tensor<2x2xf32>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0,0.25:0}>>
  %d = stablehlo.dot_general %x, %q, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0,0.25:0}>>) -> tensor<1x2xf32>
  check.expect_eq_const %d, dense<[[3.5, 3.0]]> : tensor<1x2xf32>
  return
}

// CHECK: PASS quantized_convolution
func.func @quantized_convolution() {
  %x = stablehlo.constant dense<[[[[1.0], [2.0], [3.0]]]]> : tensor<1x1x3x1xf32>
  %k = stablehlo.constant dense<[[[[0.5]], [[1.0]]]]> : tensor<1x2x1x1xf32>
  %qx = stablehlo.uniform_quantize %x : (tensor<1x1x3x1xf32>) -> tensor<1x1x3x1x!quant.uniform<i8:f32, 0.5:0>>
  %qk = stablehlo.uniform_quantize %k : (tensor<1x2x1x1xf32>) -> tensor<1x2x1x1x!quant.uniform<i8:f32, 0.5:0>>
  %c = stablehlo.convolution(%qx, %qk) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x3x1x!quant.uniform<i8:f32, 0.5:0>>, tensor<1x2x1x1x!quant.uniform<i8:f32, 0.5:0>>) -> tensor<1x1x2x1x!quant.uniform<i32:f32, 0.25:0>>
  %s = stablehlo.bitcast_convert %c : (tensor<1x1x2x1x!quant.uniform<i32:f32, 0.25:0>>) -> tensor<1x1x2x1xi32>
  // [1*0.5 + 2*1, 2*0.5 + 3*1] = [2.5, 4] = [10, 16] * 0.25
  check.expect_eq_const %s, dense<[[[[10], [16]]]]> : tensor<1x1x2x1xi32>
  return
}

// A reduction over quantized values requantizes after every step, as its
// body's op does, instead of summing storage integers:
// 0 + 1.5 = 1.5, 1.5 - 2.0 = -0.5 (storage -1 + zero point 1 = 0 would be
// 0.5 if the integers 4, -3 and 1 were summed).
// CHECK: PASS quantized_reduce
func.func @quantized_reduce() {
  %x = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zq = stablehlo.uniform_quantize %z : (tensor<f32>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %r = stablehlo.reduce(%q init: %zq) applies stablehlo.add across dimensions = [0] : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %d = stablehlo.uniform_dequantize %r : (tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<f32>
  check.expect_eq_const %d, dense<-0.5> : tensor<f32>
  return
}

// CHECK: PASS scan_reverse_along_rows
func.func @scan_reverse_along_rows() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c = stablehlo.constant dense<0> : tensor<2xi32>
  %r:2 = chlo.scan(%x) inits(%c) dimension = 1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xi32>, %acc: tensor<2xi32>):
    %s = stablehlo.add %a, %acc : tensor<2xi32>
    stablehlo.return %s, %s : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2x3xi32>, tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2xi32>)
  check.expect_eq_const %r#0, dense<[[6, 5, 3], [15, 11, 6]]> : tensor<2x3xi32>
  check.expect_eq_const %r#1, dense<[6, 15]> : tensor<2xi32>
  return
}

// CHECK: PASS ragged_dot_groups_of_rows
func.func @ragged_dot_groups_of_rows() {
  %l = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  // Group 0 picks the first column, group 1 the second.
  %r = stablehlo.constant dense<[[[1.0], [0.0]], [[0.0], [1.0]]]> : tensor<2x2x1xf32>
  %g = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %0 = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  check.expect_eq_const %0, dense<[[1.0], [3.0], [6.0]]> : tensor<3x1xf32>
  // Rows beyond the groups are 0.
  %h = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %1 = "chlo.ragged_dot"(%l, %r, %h) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<3x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  check.expect_eq_const %1, dense<[[1.0], [4.0], [0.0]]> : tensor<3x1xf32>
  return
}

// CHECK: FAIL dynamic_iota_negative_size: output_shape holds a negative size -2
func.func @dynamic_iota_negative_size() {
  %shape = stablehlo.constant dense<[-2, 3]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x3xi32>
  return
}

// CHECK: FAIL dynamic_iota_too_large: a result of shape [4611686018427387904, 4] is too large
func.func @dynamic_iota_too_large() {
  %shape = stablehlo.constant dense<[4611686018427387904, 4]> : tensor<2xi64>
  %i = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xi32>
  return
}

// CHECK: FAIL dynamic_pad_overflow: padding [9223372036854775807], [1], [0] gives no valid shape for [2]
func.func @dynamic_pad_overflow() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %lo = stablehlo.constant dense<[9223372036854775807]> : tensor<1xi64>
  %hi = stablehlo.constant dense<[1]> : tensor<1xi64>
  %in = stablehlo.constant dense<[0]> : tensor<1xi64>
  %p = stablehlo.dynamic_pad %x, %z, %lo, %hi, %in : (tensor<2xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
  return
}

func.func private @gather_len2(%x: tensor<2xi32>) -> tensor<4xi32> {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<4xi32>
  return %g : tensor<4xi32>
}

func.func private @gather_len3(%x: tensor<3xi32>) -> tensor<6xi32> {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xi32>) -> tensor<6xi32>
  return %g : tensor<6xi32>
}

// CHECK: FAIL collective_of_unlike_values: the processes of group [0, 1] hand in values of different shapes or types
func.func @collective_of_unlike_values() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@gather_len2], [@gather_len3]]} : (tensor<2xi32>, tensor<3xi32>) -> (tensor<4xi32>, tensor<6xi32>)
  return
}

// CHECK: FAIL scan_output_not_a_slice: the body's output 0 is not a slice of []
func.func @scan_output_not_a_slice() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %c = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
  %r:2 = chlo.scan(%x) inits(%c) dimension = 0 {
  ^bb0(%a: tensor<i32>, %acc: tensor<2xi32>):
    stablehlo.return %acc, %acc : tensor<2xi32>, tensor<2xi32>
  } : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  return
}

// CHECK: FAIL real_dynamic_slice_past_the_end: dimension 0: start 1, limit 4 and stride 1 do not slice a dimension of 3
func.func @real_dynamic_slice_past_the_end() {
  %m = stablehlo.constant dense<0> : tensor<3x4xi32>
  %s0 = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %s1 = stablehlo.constant dense<[4, 4]> : tensor<2xi64>
  %s2 = stablehlo.constant dense<[1, 1]> : tensor<2xi64>
  %r = stablehlo.real_dynamic_slice %m, %s0, %s1, %s2 : (tensor<3x4xi32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xi32>
  return
}
