// fusion-to-tile, memory fusion as addressing:
// - a strided, padded NHWC convolution + bias + ReLU is an implicit GEMM:
//   the input is read through the im2col descriptor (merges, strided
//   embeds, padding), never materialised; the bias through a stride-0 view;
// - an elementwise group reads a transposed input through a transposing
//   descriptor and a bias vector through a broadcast.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | aic-run --interpret - --entry @ew --args "[dense<1.0> : tensor<4x6xf32>, dense<0.0> : tensor<6x4xf32>, dense<[0.0, 1.0, 0.0, 1.0, 0.0, 1.0]> : tensor<6xf32>]" | FileCheck %s --check-prefix=VALUES

// CHECK-LABEL: tile.kernel @gemm_0 grid = [1, 1] {
// CHECK: tile.for %{{.*}} to %c27
// CHECK: tile.load %arg0[{{.*}}] through #coord.desc<[9, 27] | merge<1, 3, 3> [0] -> [0, 1, 2], merge<3, 3, 3> [1] -> [3, 4, 5] | pass [0] -> [0], embed<8: 2, 1> [1, 3] -> [1], embed<8: 2, 1> [2, 4] -> [2], pass [5] -> [3] | pass [0] -> [0], pad<1, 1> [1] -> [1], pad<1, 1> [2] -> [2], pass [3] -> [3]
// CHECK: tile.gemm
// CHECK: tile.load %arg2[{{.*}}] through #coord.desc<[9, 4] | {{.*}}broadcast [2] -> [], pass [3] -> [0]> : memref<4xf32> -> !tile.tile<16x4xf32>
// CHECK: arith.maximumf
// CHECK: tile.store
// CHECK-LABEL: func.func @conv
// CHECK-NEXT: tile.launch @gemm_0(%arg0, %arg1, %arg2)
func.func @conv(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %c = graph.conv2d %x, %w, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %a = graph.bias_add %c, %b : (tensor<1x3x3x4xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  %r = graph.relu %a : tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// CHECK-LABEL: tile.kernel @elementwise_1 grid = [1] {
// CHECK: tile.load %arg0[{{.*}}] through #coord.desc<[4, 6] | embed<24: 1, 4> [0, 1] -> [0]> : memref<6x4xf32> -> !tile.tile<4x6xf32>
// CHECK: tile.load %arg1[{{.*}}] through #coord.desc<[4, 6] | broadcast [0] -> [], pass [1] -> [0]> : memref<6xf32> -> !tile.tile<4x6xf32>
// CHECK: math.exp
// CHECK: tile.store
// CHECK-LABEL: func.func @ew
// CHECK-NEXT: tile.launch @elementwise_1
// VALUES: dense<{{\[\[}}1.000000e+00, 2.71828175, 1.000000e+00, 2.71828175, 1.000000e+00, 2.71828175], [1.000000e+00
func.func @ew(%x: tensor<4x6xf32>, %y: tensor<6x4xf32>, %s: tensor<6xf32>) -> tensor<4x6xf32> {
  %t = graph.transpose %y, perm = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %b = graph.broadcast %s, dims = [1] : (tensor<6xf32>) -> tensor<4x6xf32>
  %m = graph.mul %x, %t : tensor<4x6xf32>
  %a = graph.add %m, %b : tensor<4x6xf32>
  %e = graph.exp %a : tensor<4x6xf32>
  return %e : tensor<4x6xf32>
}

// A depthwise (grouped) convolution is a batched implicit GEMM: the group is
// the grid's third axis and the leading index of every view.
// CHECK-LABEL: tile.kernel @gemm_2 grid = [1, 1, 4] {
// CHECK: %[[G:.*]] = tile.program_id 2 : index
// CHECK: tile.load %arg0[%[[G]], {{.*}}] through #coord.desc<[4, 9, 9] | {{.*}}> : memref<1x5x5x4xf32> -> !tile.tile<16x16xf32>
// CHECK: tile.load %arg1[%[[G]], {{.*}}] through #coord.desc<[4, 9, 1] | {{.*}}> : memref<3x3x1x4xf32> -> !tile.tile<16x1xf32>
// CHECK: tile.store %{{.*}}, %arg2[%[[G]], {{.*}}] through #coord.desc<[4, 9, 1] | {{.*}}> : !tile.tile<16x1xf32>, memref<1x3x3x4xf32>
func.func @depthwise(%x: tensor<1x5x5x4xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32> {
  %c = graph.conv2d %x, %w, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0], groups = 4 : (tensor<1x5x5x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32>
  return %c : tensor<1x3x3x4xf32>
}
