// Raising a group norm as JAX and Flax write it, channels last: the input
// cast to f32 and reshaped to [N, H, W, G, C/G], mean and variance over
// (1, 2, 4) kept as [N, 1, 1, G, 1], the normalised value reshaped back,
// scaled and shifted per channel. It becomes one graph.groupnorm of the f32
// input, with its group count and epsilon; the casts stay around it. A
// statistic over another set of axes (here without the channels inside the
// group) is no group norm and stays as it is.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{rules=algebraic,raising},canonicalize)' | FileCheck %s
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{rules=algebraic,raising},canonicalize)' | aic-opt --split-input-file --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 total=true})' | FileCheck %s --check-prefix=TILE

// CHECK-LABEL: func.func @groupnorm
// CHECK: %[[X:.*]] = graph.cast %arg0 : (tensor<1x2x2x8xf16>) -> tensor<1x2x2x8xf32>
// CHECK-NEXT: %[[G:.*]] = graph.groupnorm %[[X]], %arg1, %arg2, groups = 4 {epsilon = 9.99999997E-7 : f32} : (tensor<1x2x2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x2x2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = graph.cast %[[G]] : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf16>
// CHECK-NEXT: return %[[Y]]
// TILE-LABEL: tile.kernel @groupnorm_0_stats grid = [1, 1]
// TILE: tile.reduce sum %{{.*}}, axis = 0 : !tile.tile<4x8xf32> -> !tile.tile<8xf32>
// TILE-LABEL: tile.kernel @groupnorm_0_scale grid = [1, 4]
// TILE: math.rsqrt
// TILE-LABEL: tile.kernel @groupnorm_0 grid = [1, 1]
// TILE: tile.store %{{.*}} : !tile.tile<4x8xf16>, memref<1x2x2x8xf16>
// TILE: func.func @groupnorm
// TILE-NEXT: %[[S:.*]]:2 = tile.launch @groupnorm_0_stats(%arg0, %arg1, %arg2)
// TILE-NEXT: %[[C:.*]]:2 = tile.launch @groupnorm_0_scale(%arg0, %arg1, %arg2, %[[S]]#0, %[[S]]#1)
// TILE-NEXT: tile.launch @groupnorm_0(%arg0, %arg1, %arg2, %[[C]]#0, %[[C]]#1)
func.func @groupnorm(%arg0: tensor<1x2x2x8xf16>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<1x2x2x8xf16> {
  %2 = graph.constant dense<9.99999997E-7> : tensor<1x1x1x4x1xf32>
  %3 = graph.constant dense<8.000000e+00> : tensor<1x1x1x4x1xf32>
  %4 = graph.cast %arg0 : (tensor<1x2x2x8xf16>) -> tensor<1x2x2x8xf32>
  %5 = graph.reshape %4 : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x4x2xf32>
  %6 = graph.reduce sum %5, axes = [1, 2, 4] : (tensor<1x2x2x4x2xf32>) -> tensor<1x4xf32>
  %7 = graph.broadcast %6, dims = [0, 3] : (tensor<1x4xf32>) -> tensor<1x1x1x4x1xf32>
  %8 = graph.div %7, %3 : tensor<1x1x1x4x1xf32>
  %9 = graph.broadcast %8, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x4x1xf32>) -> tensor<1x2x2x4x2xf32>
  %10 = graph.sub %5, %9 : tensor<1x2x2x4x2xf32>
  %11 = graph.mul %10, %10 : tensor<1x2x2x4x2xf32>
  %12 = graph.reduce sum %11, axes = [1, 2, 4] : (tensor<1x2x2x4x2xf32>) -> tensor<1x4xf32>
  %13 = graph.broadcast %12, dims = [0, 3] : (tensor<1x4xf32>) -> tensor<1x1x1x4x1xf32>
  %14 = graph.div %13, %3 : tensor<1x1x1x4x1xf32>
  %17 = graph.add %14, %2 : tensor<1x1x1x4x1xf32>
  %18 = graph.rsqrt %17 : tensor<1x1x1x4x1xf32>
  %19 = graph.broadcast %18, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x4x1xf32>) -> tensor<1x2x2x4x2xf32>
  %20 = graph.mul %10, %19 : tensor<1x2x2x4x2xf32>
  %21 = graph.reshape %20 : (tensor<1x2x2x4x2xf32>) -> tensor<1x2x2x8xf32>
  %22 = graph.broadcast %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x2x2x8xf32>
  %23 = graph.mul %21, %22 : tensor<1x2x2x8xf32>
  %24 = graph.broadcast %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x2x2x8xf32>
  %25 = graph.add %23, %24 : tensor<1x2x2x8xf32>
  %26 = graph.cast %25 : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf16>
  return %26 : tensor<1x2x2x8xf16>
}

// -----

// CHECK-LABEL: func.func @not_groupnorm
// CHECK-NOT: graph.groupnorm
// CHECK: return
func.func @not_groupnorm(%arg0: tensor<1x2x2x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> tensor<1x2x2x8xf32> {
  %2 = graph.constant dense<9.99999997E-7> : tensor<1x1x1x4x2xf32>
  %3 = graph.constant dense<4.000000e+00> : tensor<1x1x1x4x2xf32>
  %5 = graph.reshape %arg0 : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x4x2xf32>
  %6 = graph.reduce sum %5, axes = [1, 2] : (tensor<1x2x2x4x2xf32>) -> tensor<1x4x2xf32>
  %7 = graph.broadcast %6, dims = [0, 3, 4] : (tensor<1x4x2xf32>) -> tensor<1x1x1x4x2xf32>
  %8 = graph.div %7, %3 : tensor<1x1x1x4x2xf32>
  %9 = graph.broadcast %8, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x4x2xf32>) -> tensor<1x2x2x4x2xf32>
  %10 = graph.sub %5, %9 : tensor<1x2x2x4x2xf32>
  %11 = graph.mul %10, %10 : tensor<1x2x2x4x2xf32>
  %12 = graph.reduce sum %11, axes = [1, 2] : (tensor<1x2x2x4x2xf32>) -> tensor<1x4x2xf32>
  %13 = graph.broadcast %12, dims = [0, 3, 4] : (tensor<1x4x2xf32>) -> tensor<1x1x1x4x2xf32>
  %14 = graph.div %13, %3 : tensor<1x1x1x4x2xf32>
  %17 = graph.add %14, %2 : tensor<1x1x1x4x2xf32>
  %18 = graph.rsqrt %17 : tensor<1x1x1x4x2xf32>
  %19 = graph.broadcast %18, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x4x2xf32>) -> tensor<1x2x2x4x2xf32>
  %20 = graph.mul %10, %19 : tensor<1x2x2x4x2xf32>
  %21 = graph.reshape %20 : (tensor<1x2x2x4x2xf32>) -> tensor<1x2x2x8xf32>
  %22 = graph.broadcast %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x2x2x8xf32>
  %23 = graph.mul %21, %22 : tensor<1x2x2x8xf32>
  %24 = graph.broadcast %arg2, dims = [3] : (tensor<8xf32>) -> tensor<1x2x2x8xf32>
  %25 = graph.add %23, %24 : tensor<1x2x2x8xf32>
  return %25 : tensor<1x2x2x8xf32>
}
