// Sharding groups whose members cannot share one sharding: an error at the
// group op, naming the group.
// RUN: not aic-opt %s --split-input-file --spmd-partition 2>&1 | FileCheck %s

// CHECK: error: 'sdy.sharding_group' op the members of sharding group 0 have different shardings before propagation
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) -> tensor<8x4xf32> {
  sdy.sharding_group %a group_id=0 : tensor<8x4xf32>
  sdy.sharding_group %b group_id=0 : tensor<8x4xf32>
  return %a : tensor<8x4xf32>
}

// -----

// CHECK: error: 'sdy.sharding_group' op the members of sharding group 3 differ in shape
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8x4xf32>, %b: tensor<4x8xf32>) -> tensor<8x4xf32> {
  sdy.sharding_group %a group_id=3 : tensor<8x4xf32>
  sdy.sharding_group %b group_id=3 : tensor<4x8xf32>
  return %a : tensor<8x4xf32>
}

// -----

// Two groups sharing a value merge, so %a and %c must agree.
// CHECK: error: 'sdy.sharding_group' op the members of sharding group {{[0-9]}} have different shardings before propagation
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}, %b: tensor<8x4xf32>, %c: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> tensor<8x4xf32> {
  sdy.sharding_group %a group_id=0 : tensor<8x4xf32>
  sdy.sharding_group %b group_id=0 : tensor<8x4xf32>
  sdy.sharding_group %b group_id=1 : tensor<8x4xf32>
  sdy.sharding_group %c group_id=1 : tensor<8x4xf32>
  return %a : tensor<8x4xf32>
}
