// eqsat-fusion leaves a fusion group it is given alone (one formed by an
// earlier run, or by hand): it fuses only the ops outside groups, and a
// second run changes nothing (fusing inside a group would nest groups that
// no generator lowers).
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion | aic-opt --eqsat-fusion | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK: %[[G:.*]] = fusion.group elementwise
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.neg
// CHECK-NEXT: fusion.yield
// CHECK: fusion.group elementwise (%{{.*}} = %[[G]]
// CHECK-NEXT: graph.tanh
// CHECK-NEXT: graph.abs
// CHECK-NEXT: fusion.yield
// CHECK-NOT: fusion.group
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = fusion.group elementwise (%a = %x) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    %1 = graph.exp %a : tensor<64x64xf32>
    %2 = graph.neg %1 : tensor<64x64xf32>
    fusion.yield %2 : tensor<64x64xf32>
  }
  %3 = graph.tanh %0 : tensor<64x64xf32>
  %4 = graph.abs %3 : tensor<64x64xf32>
  return %4 : tensor<64x64xf32>
}
