// A GSPMD export partitioned for four devices equals the unpartitioned
// program, in the interpreter and on the host target (integer-valued data,
// so every order of summation is exact).
// DEFINE: %{args} = "[dense<[[1.0, 2.0, 0.0, -1.0], [0.0, 1.0, 3.0, 2.0], [2.0, 2.0, 1.0, 0.0], [1.0, -1.0, 1.0, -1.0]]> : tensor<4x4xf32>, dense<[[1.0, 0.0, 2.0, 1.0, 0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0, 2.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 1.0], [2.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 2.0]]> : tensor<4x8xf32>]"
// RUN: aic-opt %s --spmd-partition -o %t.mlir
// RUN: aic-run --interpret --entry=@main --args=%{args} %s > %t.ref
// RUN: aic-run --interpret --entry=@main --args=%{args} %t.mlir > %t.interp
// RUN: diff %t.ref %t.interp
// RUN: aic-run --target=host --entry=@main --args=%{args} %t.mlir > %t.host 2> %t.err
// RUN: diff %t.ref %t.host
// RUN: not grep warning %t.err
// RUN: FileCheck %s --input-file=%t.ref
// CHECK: dense<{{.*}}> : tensor<4x8xf32>
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<4x8xf32> {mhlo.sharding = "{devices=[1,2,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<4x8xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.negate %1 : tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
}
