// A tensor-parallel MLP, partitioned for two devices, gives the unpartitioned
// program's result in the interpreter (one process per device) and on the host
// target (compiled kernels, the all_reduce a step of the launch plan between
// the devices' arenas). Integer-valued data, so every order of summation is exact.
// DEFINE: %{args} = "[dense<[[1.0, 2.0, 0.0, -1.0], [0.0, 1.0, 3.0, 2.0]]> : tensor<2x4xf32>, dense<[[1.0, 0.0, 2.0, 1.0, 0.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 0.0, 2.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 1.0], [2.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 2.0]]> : tensor<4x8xf32>, dense<[[1.0, 0.0, 1.0, 2.0], [0.0, 1.0, 2.0, 0.0], [1.0, 1.0, 0.0, 1.0], [2.0, 0.0, 1.0, 1.0], [0.0, 2.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 2.0, 1.0]]> : tensor<8x4xf32>]"
// RUN: aic-opt %s --spmd-partition -o %t.mlir
// RUN: aic-run --interpret --entry=@mlp --args=%{args} %s > %t.ref
// RUN: aic-run --interpret --entry=@mlp --args=%{args} %t.mlir > %t.interp
// RUN: diff %t.ref %t.interp
// RUN: aic-run --target=host --entry=@mlp --args=%{args} %t.mlir > %t.host 2> %t.err
// RUN: diff %t.ref %t.host
// RUN: FileCheck %s --input-file=%t.ref
// RUN: not grep warning %t.err
// CHECK: dense<{{.*}}> : tensor<2x4xf32>

sdy.mesh @m = <["tp"=2]>
func.func @mlp(%x: tensor<2x4xf32>, %w1: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"tp"}]>}, %w2: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"tp"}, {}]>}) -> tensor<2x4xf32> {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<2x8xf32>
  %a = stablehlo.maximum %h, %z : tensor<2x8xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
