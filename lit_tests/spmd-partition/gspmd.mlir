// GSPMD's mhlo.sharding strings (a JAX export without Shardy) are read as
// shardings over a mesh of the module's mhlo.num_partitions, one axis per
// prime factor; custom_call @Sharding is a sharding constraint.
// RUN: aic-opt %s --split-input-file --spmd-partition | FileCheck %s

// Rows over all four devices, columns over the first axis (replicated
// along the second), a transposed iota for the result, and a replicated
// constraint.
// CHECK-LABEL: module @jit_f attributes {aic.partitioned
// CHECK-NEXT: sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=2]>
// CHECK-NEXT{LITERAL}: func.func public @main(%arg0: tensor<1x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}, {}]>}, %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"_axis_0"}]>}) -> (tensor<2x4xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>})
// CHECK-NOT: custom_call
// CHECK: return
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<4x8xf32> {mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<4x8xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.tanh %1 : tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
}

// -----

// Megatron in GSPMD's words, two partitions: one all_reduce; a maximal
// sharding is computed on every device (the same value).
// CHECK-LABEL: module @jit_mlp
// CHECK: sdy.mesh @mesh = <["_axis_0"=2]>
// CHECK: "stablehlo.all_reduce"
// CHECK-NOT: "stablehlo.all_
// CHECK: return
module @jit_mlp attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<4x8xf32> {mhlo.sharding = "{maximal device=0}"}, %w1: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,2]0,1}"}, %w2: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2] metadata={op_name=\"w2\"}}"}) -> (tensor<4x8xf32> {mhlo.sharding = "{replicated}"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %a = stablehlo.tanh %h : tensor<4x16xf32>
    %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
    return %y : tensor<4x8xf32>
  }
}
