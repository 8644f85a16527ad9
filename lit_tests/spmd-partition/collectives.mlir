// Each way a value changes layout, and the collective spmd-partition makes of
// it.
// RUN: aic-opt %s --split-input-file --spmd-partition | FileCheck %s

// Megatron: a column-parallel GEMM, then a row-parallel one; one all_reduce.
// CHECK-LABEL: module attributes {aic.partitioned, mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: func.func @mlp(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32> {sdy.sharding = {{.*}}}, %arg2: tensor<16x16xf32> {sdy.sharding = {{.*}}}) -> tensor<8x16xf32>
// CHECK-NEXT: %0 = stablehlo.dot_general %arg0, %arg1, {{.*}} -> tensor<8x16xf32>
// CHECK-NEXT: %1 = stablehlo.tanh %0 : tensor<8x16xf32>
// CHECK-NEXT: %2 = stablehlo.dot_general %1, %arg2, {{.*}} -> tensor<8x16xf32>
// CHECK-NEXT: %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>
// CHECK: stablehlo.add
// CHECK: return %3 : tensor<8x16xf32>
sdy.mesh @m = <["tp"=2]>
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"tp"}]>}, %w2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"tp"}, {}]>}) -> tensor<8x16xf32> {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %a = stablehlo.tanh %h : tensor<8x32xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A sharded argument returned replicated: all_gather, in shard order along
// the axis, one group per coordinate of the other axis.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %arg0: tensor<4x8xf32>
// CHECK-NEXT: %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %0 : tensor<8x8xf32>
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @gather(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

// A replicated argument (closed: propagation may not shard it) returned
// sharded: each device slices its part at the offset a table gives for its
// partition id.
// CHECK-LABEL: func.func @slice(
// CHECK-NEXT: %0 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<i32>
// CHECK: stablehlo.constant dense<[0, 4, 0, 4]> : tensor<4xi32>
// CHECK: stablehlo.dynamic_slice {{.*}}, %1, sizes = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<1xi32>
// CHECK: %[[S:.*]] = stablehlo.dynamic_slice %arg0, {{.*}} sizes = [8, 4] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[S]] : tensor<8x4xf32>
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @slice(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>}) {
  return %a : tensor<8x8xf32>
}

// -----

// A partial sum whose result is sharded along the same axis: reduce_scatter.
// CHECK-LABEL: func.func @scatter(
// CHECK: %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, {{.*}} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: "stablehlo.reduce_scatter"(%[[D]]) <{channel_handle = {{.*}}, scatter_dimension = 0 : i64, use_global_device_ids}>
// CHECK: (tensor<8x16xf32>) -> tensor<4x16xf32>
sdy.mesh @m = <["x"=2]>
func.func @scatter(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}, %b: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An axis moving from one dimension to another: all_to_all.
// CHECK-LABEL: func.func @move(
// CHECK-NEXT: %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
sdy.mesh @m = <["x"=2]>
func.func @move(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %a <@m, [{}, {"x"}]> : tensor<8x8xf32>
  %1 = stablehlo.exponential %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

// Data parallelism: a reduction over the sharded batch is a partial value,
// all-reduced with the reduction's own combiner.
// CHECK-LABEL: func.func @batch_max(
// CHECK: stablehlo.reduce(%arg0 init: %{{.*}}) applies stablehlo.maximum across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: "stablehlo.all_reduce"
// CHECK: stablehlo.maximum
sdy.mesh @m = <["dp"=2]>
func.func @batch_max(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"dp"}, {}]>}) -> tensor<8xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Heads split out of a sharded hidden dimension stay sharded; merged back,
// the hidden dimension is sharded again; no collective.
// CHECK-LABEL: func.func @heads(
// CHECK-NEXT: %0 = stablehlo.reshape %arg0 : (tensor<2x16xf32>) -> tensor<2x2x8xf32>
// CHECK-NEXT: %1 = stablehlo.transpose %0, dims = [1, 0, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
// CHECK-NEXT: %2 = stablehlo.exponential %1 : tensor<2x2x8xf32>
// CHECK-NEXT: %3 = stablehlo.transpose %2, dims = [1, 0, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
// CHECK-NEXT: %4 = stablehlo.reshape %3 : (tensor<2x2x8xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %4 : tensor<2x16xf32>
sdy.mesh @m = <["tp"=2]>
func.func @heads(%a: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"tp"}]>}) -> (tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"tp"}]>}) {
  %0 = stablehlo.reshape %a : (tensor<2x32xf32>) -> tensor<2x4x8xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0, 2] : (tensor<2x4x8xf32>) -> tensor<4x2x8xf32>
  %2 = stablehlo.exponential %1 : tensor<4x2x8xf32>
  %3 = stablehlo.transpose %2, dims = [1, 0, 2] : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>
  %4 = stablehlo.reshape %3 : (tensor<2x4x8xf32>) -> tensor<2x32xf32>
  return %4 : tensor<2x32xf32>
}

// -----

// A manual computation's body is inlined as the per-device code; its
// operands are sliced along the manual axes and its results carry its
// out-shardings.
// CHECK-LABEL: func.func @manual(
// CHECK-SAME: %arg0: tensor<4x8xf32>
// CHECK-NOT: sdy.manual_computation
// CHECK: %[[R:.*]] = "stablehlo.all_reduce"(%arg0)
// CHECK: return %[[R]] : tensor<4x8xf32>
sdy.mesh @m = <["x"=2]>
func.func @manual(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<4x8xf32> {
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}, {}]>] out_shardings=[<@m, [{}, {}]>] manual_axes={"x"} (%b: tensor<4x8xf32>) {
    %r = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %r : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Calls are inlined first (JAX keeps custom-JVP functions such as relu as
// calls), then partitioned.
// CHECK-LABEL: func.func @calls(
// CHECK-NOT: func.call
// CHECK: stablehlo.maximum %arg0, %{{.*}} : tensor<4xf32>
// CHECK: return {{.*}} : tensor<4xf32>
sdy.mesh @m = <["x"=2]>
func.func private @relu(%a: tensor<8xf32>) -> tensor<8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<8xf32>
  %r = stablehlo.maximum %a, %z : tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @calls(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = func.call @relu(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
