// Ops that extraction builds carry the fused locations of the original ops
// they stand for: a double negation folded away leaves its location on the
// value it equals, and a fused kernel is located at all the ops it holds.
// RUN: aic-opt %s --eqsat-fusion=rules=algebraic --mlir-print-debuginfo | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --mlir-print-debuginfo | FileCheck %s --check-prefix=FUSED

// CHECK: graph.matmul {{.*}} loc(#[[MM:loc[0-9]+]])
// CHECK: graph.bias_add {{.*}} loc(#[[BN:loc[0-9]+]])
// CHECK: graph.relu {{.*}} loc(#[[RELU:loc[0-9]+]])
// CHECK-DAG: #[[MM]] = loc("dense.mm")
// CHECK-DAG: #[[BIAS:loc[0-9]+]] = loc("dense.bias")
// CHECK-DAG: #[[N2:loc[0-9]+]] = loc("n2")
// CHECK-DAG: #[[RELU]] = loc("dense.relu")
// CHECK-DAG: #[[BN]] = loc(fused[#[[BIAS]], #[[N2]]])

// FUSED: fusion.group vertical
// FUSED: } loc(#[[G:loc[0-9]+]])
// FUSED: #[[G]] = loc(fused[#{{loc[0-9]+}}, #{{loc[0-9]+}}, #{{loc[0-9]+}}, #{{loc[0-9]+}}])
func.func @dense(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %m = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc("dense.mm")
  %a = graph.bias_add %m, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32> loc("dense.bias")
  %n = graph.neg %a : tensor<8x32xf32> loc("n1")
  %nn = graph.neg %n : tensor<8x32xf32> loc("n2")
  %r = graph.relu %nn : tensor<8x32xf32> loc("dense.relu")
  return %r : tensor<8x32xf32>
}
