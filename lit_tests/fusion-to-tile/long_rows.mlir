// RUN: aic-opt --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{target=h100})' %s | FileCheck %s
// An elementwise kernel's rows need not stay whole: a row longer than a
// block's share (2048 elements) spreads over a second grid axis, the last
// block partial. A 1-D tensor is one such row.

// CHECK-LABEL: tile.kernel @elementwise_0 grid = [1, 3]
// CHECK: %[[R:.*]] = tile.program_id 0
// CHECK: %[[C:.*]] = tile.program_id 1
// CHECK: %[[C2048:.*]] = arith.constant 2048 : index
// CHECK: %[[C0:.*]] = arith.muli %[[C]], %[[C2048]]
// CHECK: tile.load %arg0[%{{.*}}, %[[C0]]] {{.*}} -> !tile.tile<1x2048xf32>
// CHECK: tile.store {{.*}}[%{{.*}}, %[[C0]]] {{.*}} : !tile.tile<1x2048xf32>
// Rows that fit keep one grid axis.
// CHECK-LABEL: tile.kernel @elementwise_1 grid = [8]
// CHECK-NOT: tile.program_id 1
// CHECK: !tile.tile<2x1024xf32>
func.func @main(%x: tensor<4099xf32>, %y: tensor<16x1024xf32>) -> (tensor<4099xf32>, tensor<16x1024xf32>) {
  %t = graph.tanh %x : tensor<4099xf32>
  %u = graph.tanh %y : tensor<16x1024xf32>
  return %t, %u : tensor<4099xf32>, tensor<16x1024xf32>
}
