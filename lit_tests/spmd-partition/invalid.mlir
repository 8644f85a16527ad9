// Shardings spmd-partition cannot apply: each error names what and why.
// RUN: not aic-opt %s --split-input-file --spmd-partition 2>&1 | FileCheck %s

// CHECK: error: 'func.func' op argument #0: dimension 0 of size 6 cannot be split into 4 shards along ["x"]: the sharding does not divide it
sdy.mesh @m = <["x"=4]>
func.func @f(%a: tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<6xf32> {
  return %a : tensor<6xf32>
}

// -----

// CHECK: error: 'func.func' op argument #0: sub-axis "x":(1)2 is not supported yet by spmd-partition
sdy.mesh @m = <["x"=4]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x":(1)2}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

// CHECK: error: 'func.return' op result #0: dimension 0 of size 3 cannot be split into 2 shards along ["x"]: the sharding does not divide it
sdy.mesh @m = <["x"=2]>
func.func @f(%a: tensor<3xf32>) -> (tensor<3xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  return %a : tensor<3xf32>
}
