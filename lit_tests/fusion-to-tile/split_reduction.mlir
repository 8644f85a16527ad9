// fusion-to-tile, GIoU (JAX's export at 2 x 2 box pairs): eqsat-fusion puts
// the slices of the boxes' last dim, the 31 elementwise ops and the mean in
// one group (views are accessors, not kernels); its output is a scalar, tiny
// against its input, so the reduction spreads over blocks: a first kernel of
// partial sums (here chunks of 2 of the 4 values, reduce-chunk=2; 1024 by
// default) and a second one finishing the mean. Both levels give the
// interpreter's value. The scalar constants (1e-7, 1) are literals in the
// kernels, not kernel arguments.
// RUN: aic-opt %s --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion)' | FileCheck %s --check-prefix=GROUP
// RUN: aic-opt %s --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{reduce-chunk=2})' | FileCheck %s
// RUN: aic-run --interpret %s --entry @main --args "[dense<[[[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 4.0, 3.0]], [[0.0, 1.0, 3.0, 5.0], [2.0, 2.0, 3.0, 3.0]]]> : tensor<2x2x4xf32>, dense<[[[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 1.0, 1.0]], [[0.0, 0.0, 3.0, 5.0], [2.5, 2.0, 4.0, 6.0]]]> : tensor<2x2x4xf32>]" | FileCheck %s --check-prefix=VALUES
// RUN: aic-opt %s --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{reduce-chunk=2})' | aic-run --interpret - --entry @main --args "[dense<[[[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 4.0, 3.0]], [[0.0, 1.0, 3.0, 5.0], [2.0, 2.0, 3.0, 3.0]]]> : tensor<2x2x4xf32>, dense<[[[1.0, 1.0, 3.0, 3.0], [0.0, 0.0, 1.0, 1.0]], [[0.0, 0.0, 3.0, 5.0], [2.5, 2.0, 4.0, 6.0]]]> : tensor<2x2x4xf32>]" | FileCheck %s --check-prefix=VALUES

// VALUES: dense<0.95165{{[0-9]*}}> : tensor<f32>

// GROUP: fusion.group reduction
// GROUP-NOT: fusion.group
// GROUP: graph.reduce mean
// GROUP-NOT: fusion.group

// CHECK-LABEL: tile.kernel @rows_0_parts grid = [1, 2] {
// CHECK: tile.load %arg{{[0-3]}}[{{.*}}] through #coord.desc<[1, 4] | {{.*}}embed<4: 1, +{{[123]}}> [2] -> [2] {{.*}} -> !tile.tile<1x2xf32>
// CHECK: arith.divf
// CHECK: tile.valid
// CHECK: arith.select
// CHECK: tile.reduce sum %{{.*}}, axis = 1 : !tile.tile<1x2xf32> -> !tile.tile<1xf32>
// CHECK: tile.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : !tile.tile<1xf32>, memref<2x1xf32>
// CHECK-LABEL: tile.kernel @rows_0 grid = [1] {
// CHECK: tile.reduce sum %{{.*}}, axis = 1 : !tile.tile<1x2xf32> -> !tile.tile<1xf32>
// CHECK: arith.constant 2.500000e-01
// CHECK-LABEL: func.func public @main
// CHECK-NEXT: %{{.*}} = graph.constant
// CHECK-NEXT: %{{.*}} = graph.constant
// CHECK-NEXT: %[[P:.*]] = tile.launch @rows_0_parts(%arg0, %arg1) :
// CHECK-NEXT: tile.launch @rows_0({{.*}}, %[[P]]) : {{.*}} -> tensor<f32>
// CHECK-NOT: tile.launch

module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x2x4xf32>, %arg1: tensor<2x2x4xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:2, 0:2, 0:1] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %2 = stablehlo.slice %arg0 [0:2, 0:2, 1:2] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %3 = stablehlo.reshape %2 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %4 = stablehlo.slice %arg0 [0:2, 0:2, 2:3] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %6 = stablehlo.slice %arg0 [0:2, 0:2, 3:4] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %7 = stablehlo.reshape %6 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %8 = stablehlo.slice %arg1 [0:2, 0:2, 0:1] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %9 = stablehlo.reshape %8 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %10 = stablehlo.slice %arg1 [0:2, 0:2, 1:2] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %11 = stablehlo.reshape %10 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %12 = stablehlo.slice %arg1 [0:2, 0:2, 2:3] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %13 = stablehlo.reshape %12 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %14 = stablehlo.slice %arg1 [0:2, 0:2, 3:4] : (tensor<2x2x4xf32>) -> tensor<2x2x1xf32>
    %15 = stablehlo.reshape %14 : (tensor<2x2x1xf32>) -> tensor<2x2xf32>
    %16 = stablehlo.subtract %5, %1 : tensor<2x2xf32>
    %17 = stablehlo.subtract %7, %3 : tensor<2x2xf32>
    %18 = stablehlo.multiply %16, %17 : tensor<2x2xf32>
    %19 = stablehlo.subtract %13, %9 : tensor<2x2xf32>
    %20 = stablehlo.subtract %15, %11 : tensor<2x2xf32>
    %21 = stablehlo.multiply %19, %20 : tensor<2x2xf32>
    %22 = stablehlo.minimum %5, %13 : tensor<2x2xf32>
    %23 = stablehlo.maximum %1, %9 : tensor<2x2xf32>
    %24 = stablehlo.subtract %22, %23 : tensor<2x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %26 = stablehlo.maximum %24, %25 : tensor<2x2xf32>
    %27 = stablehlo.minimum %7, %15 : tensor<2x2xf32>
    %28 = stablehlo.maximum %3, %11 : tensor<2x2xf32>
    %29 = stablehlo.subtract %27, %28 : tensor<2x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %31 = stablehlo.maximum %29, %30 : tensor<2x2xf32>
    %32 = stablehlo.multiply %26, %31 : tensor<2x2xf32>
    %33 = stablehlo.add %18, %21 : tensor<2x2xf32>
    %34 = stablehlo.subtract %33, %32 : tensor<2x2xf32>
    %cst_1 = stablehlo.constant dense<1.000000e-07> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %36 = stablehlo.add %34, %35 : tensor<2x2xf32>
    %37 = stablehlo.divide %32, %36 : tensor<2x2xf32>
    %38 = stablehlo.maximum %5, %13 : tensor<2x2xf32>
    %39 = stablehlo.minimum %1, %9 : tensor<2x2xf32>
    %40 = stablehlo.subtract %38, %39 : tensor<2x2xf32>
    %41 = stablehlo.maximum %7, %15 : tensor<2x2xf32>
    %42 = stablehlo.minimum %3, %11 : tensor<2x2xf32>
    %43 = stablehlo.subtract %41, %42 : tensor<2x2xf32>
    %44 = stablehlo.multiply %40, %43 : tensor<2x2xf32>
    %45 = stablehlo.subtract %44, %34 : tensor<2x2xf32>
    %cst_2 = stablehlo.constant dense<1.000000e-07> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %47 = stablehlo.add %44, %46 : tensor<2x2xf32>
    %48 = stablehlo.divide %45, %47 : tensor<2x2xf32>
    %49 = stablehlo.subtract %37, %48 : tensor<2x2xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %51 = stablehlo.subtract %50, %49 : tensor<2x2xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x2xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %53 = stablehlo.divide %52, %cst_5 : tensor<f32>
    return %53 : tensor<f32>
  }
}
