// Propagation in both directions (Shardy's): shardings flow from results,
// constraints and sharded consumers back to producers and to the arguments
// the user left open, with user priorities and sharding groups.
// RUN: aic-opt %s --split-input-file --spmd-partition | FileCheck %s

// Only the result is annotated: the rows of %x follow it back through the
// tanh, the add and the GEMM, so each device computes its rows and nothing
// is exchanged.
// CHECK-LABEL: func.func @result_only(
// CHECK-SAME: %arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg1: tensor<8x6xf32>, %arg2: tensor<6xf32>) -> (tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
// CHECK-NOT: stablehlo.all_
// CHECK-NOT: stablehlo.dynamic_slice
// CHECK: return
sdy.mesh @m = <["x"=2]>
func.func @result_only(%x: tensor<12x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>) -> (tensor<12x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<12x8xf32>, tensor<8x6xf32>) -> tensor<12x6xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<6xf32>) -> tensor<12x6xf32>
  %s = stablehlo.add %h, %bb : tensor<12x6xf32>
  %t = stablehlo.tanh %s : tensor<12x6xf32>
  return %t : tensor<12x6xf32>
}

// -----

// Only the row-parallel weight is annotated: its contracting dimension
// shards the activation, and backward through the tanh the first GEMM's
// weight becomes column-parallel. One all_reduce, as Megatron's.
// CHECK-LABEL: func.func @megatron_from_w2(
// CHECK-SAME: %arg0: tensor<4x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"tp"}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"tp"}, {}]>})
// CHECK: stablehlo.dot_general
// CHECK: stablehlo.tanh {{.*}} : tensor<4x8xf32>
// CHECK: stablehlo.dot_general
// CHECK-NEXT: "stablehlo.all_reduce"
// CHECK-NOT: stablehlo.all_
// CHECK: return
sdy.mesh @m = <["tp"=2]>
func.func @megatron_from_w2(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"tp"}, {}]>}) -> tensor<4x8xf32> {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = stablehlo.tanh %h : tensor<4x16xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Priorities: the p0 result sharding reaches the argument first; the p1 one
// then finds "x" taken and gets an all_to_all instead.
// CHECK-LABEL: func.func @priorities(
// CHECK-SAME: %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>})
// CHECK: %[[N:.*]] = stablehlo.negate
// CHECK: %[[A:.*]] = "stablehlo.all_to_all"(%[[N]]) {{.*}} : (tensor<8x4xf32>) -> tensor<4x8xf32>
// CHECK: return %[[A]]
sdy.mesh @m = <["x"=2]>
func.func @priorities(%a: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}p1, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}p0]>}) {
  %e = stablehlo.exponential %a : tensor<8x8xf32>
  %n = stablehlo.negate %e : tensor<8x8xf32>
  %m = stablehlo.abs %e : tensor<8x8xf32>
  return %n, %m : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Without priorities the first result, met first in program order, wins.
// CHECK-LABEL: func.func @no_priorities(
// CHECK-SAME: %arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
// CHECK: %[[M:.*]] = stablehlo.abs
// CHECK: %[[A:.*]] = "stablehlo.all_to_all"(%[[M]]) {{.*}} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: return %{{.*}}, %[[A]]
sdy.mesh @m = <["x"=2]>
func.func @no_priorities(%a: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) {
  %e = stablehlo.exponential %a : tensor<8x8xf32>
  %n = stablehlo.negate %e : tensor<8x8xf32>
  %m = stablehlo.abs %e : tensor<8x8xf32>
  return %n, %m : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A sharding group: %e joins %a's sharding, and backward so does %b.
// CHECK-LABEL: func.func @group(
// CHECK-SAME: %arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg2: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
// CHECK-NOT: sdy.sharding_group
// CHECK: stablehlo.exponential %arg1 : tensor<4x4xf32>
sdy.mesh @m = <["x"=2]>
func.func @group(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = stablehlo.exponential %b : tensor<8x4xf32>
  sdy.sharding_group %a group_id=0 : tensor<8x4xf32>
  sdy.sharding_group %e group_id=0 : tensor<8x4xf32>
  %s = stablehlo.add %e, %c : tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

// A later constraint shards its producer: the exponential runs on each
// device's rows of the (closed, replicated) argument.
// CHECK-LABEL: func.func @constraint_backward(
// CHECK: %[[S:.*]] = stablehlo.dynamic_slice %arg0, {{.*}} sizes = [4, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
// CHECK-NEXT: stablehlo.exponential %[[S]] : tensor<4x4xf32>
sdy.mesh @m = <["x"=2]>
func.func @constraint_backward(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> tensor<8x4xf32> {
  %e = stablehlo.exponential %a : tensor<8x4xf32>
  %c = sdy.sharding_constraint %e <@m, [{"x"}, {}]> : tensor<8x4xf32>
  %n = stablehlo.negate %c : tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// -----

// Closed dimensions are not changed, and an axis is used once per tensor:
// %w's closed replicated columns stay whole.
// CHECK-LABEL: func.func @closed(
// CHECK-SAME: %arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>})
sdy.mesh @m = <["x"=2]>
func.func @closed(%x: tensor<8x8xf32>, %w: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
