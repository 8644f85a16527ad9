// mhlo.sharding strings spmd-partition cannot read: an error at the op,
// quoting the string and saying why.
// RUN: not aic-opt %s --split-input-file --spmd-partition 2>&1 | FileCheck %s

// CHECK: error: 'func.func' op argument #0: mhlo.sharding "{manual}": "manual" sharding is not supported
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%a: tensor<8xf32> {mhlo.sharding = "{manual}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// CHECK: error: 'func.func' op result #0: mhlo.sharding "{devices=[2,1]1,0}": an explicit device order other than 0 to 1 is not supported
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%a: tensor<8x2xf32>) -> (tensor<8x2xf32> {mhlo.sharding = "{devices=[2,1]1,0}"}) {
    return %a : tensor<8x2xf32>
  }
}

// -----

// CHECK: error: 'func.func' op argument #1: mhlo.sharding "{devices=[4]<=[4]}": a tile assignment of 4 devices in a module of 2 partitions
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// CHECK: error: 'stablehlo.custom_call' op mhlo.sharding "{devices=[3,1]<=[3]}": a tile assignment of 3 devices in a module of 2 partitions
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%a: tensor<6x2xf32>) -> tensor<6x2xf32> {
    %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[3,1]<=[3]}"} : (tensor<6x2xf32>) -> tensor<6x2xf32>
    return %0 : tensor<6x2xf32>
  }
}

// -----

// CHECK: error: 'stablehlo.custom_call' op custom_call @SPMDFullToShardShape (GSPMD's form of shard_map) is not supported: export with Shardy, whose sdy.manual_computation spmd-partition reads
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%a: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<4xf32> {
    %0 = stablehlo.custom_call @SPMDFullToShardShape(%a) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// CHECK: error: 'builtin.module' op mhlo.sharding attributes need the module's mhlo.num_partitions (how many devices to partition for)
module {
  func.func @f(%a: tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
    return %a : tensor<8xf32>
  }
}

// -----

// A dimension the tiles do not divide: the partitioner's error, as for sdy.
// CHECK: error: 'func.func' op argument #0: dimension 0 of size 3 cannot be split into 2 shards along ["_axis_0"]: the sharding does not divide it
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @f(%a: tensor<3xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<3xf32> {
    return %a : tensor<3xf32>
  }
}
