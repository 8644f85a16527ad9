// fusion-to-tile: causal attention over a dynamic sequence, as dynamic-dims
// leaves it: the causal select wrapped in the sequence's key mask
// select(key < len, ., -inf), len a kernel argument. The causal select is
// still found inside the other mask: the key loop stops after the block's
// last query (min(m0 + BM, Sk)), and the key mask is applied per element.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @attention_{{[0-9]+}}
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c{{[0-9]+}}
// CHECK: %[[HI:.*]] = arith.minsi %[[END]], %c40
// CHECK: tile.for %c0{{(_[0-9]+)?}} to %[[HI]] step
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: tile.reduce max
// CHECK-LABEL: func.func @main
// CHECK: tile.launch @attention_{{[0-9]+}}(%arg0, %arg1, %arg3, %arg2)
func.func @main(%q: tensor<1x4x40x8xf16>, %k: tensor<1x4x40x8xf16>, %v: tensor<1x4x40x8xf16>, %len: tensor<i32>) -> tensor<1x4x40x8xf16> {
  %s = graph.matmul %q, %k transpose_b : (tensor<1x4x40x8xf16>, tensor<1x4x40x8xf16>) -> tensor<1x4x40x40xf16>
  %i = graph.iota dim = 0 : tensor<40x40xi32>
  %j = graph.iota dim = 1 : tensor<40x40xi32>
  %p = graph.compare GE, %i, %j : (tensor<40x40xi32>, tensor<40x40xi32>) -> tensor<40x40xi1>
  %pb = graph.broadcast %p, dims = [2, 3] : (tensor<40x40xi1>) -> tensor<1x4x40x40xi1>
  %n = graph.constant dense<0xFC00> : tensor<f16>
  %nb = graph.broadcast %n, dims = [] : (tensor<f16>) -> tensor<1x4x40x40xf16>
  %z = graph.select %pb, %s, %nb : (tensor<1x4x40x40xi1>, tensor<1x4x40x40xf16>, tensor<1x4x40x40xf16>) -> tensor<1x4x40x40xf16>
  %kj = graph.iota dim = 3 : tensor<1x4x40x40xi32>
  %lb = graph.broadcast %len, dims = [] : (tensor<i32>) -> tensor<1x4x40x40xi32>
  %in = graph.compare LT, %kj, %lb : (tensor<1x4x40x40xi32>, tensor<1x4x40x40xi32>) -> tensor<1x4x40x40xi1>
  %m = graph.select %in, %z, %nb : (tensor<1x4x40x40xi1>, tensor<1x4x40x40xf16>, tensor<1x4x40x40xf16>) -> tensor<1x4x40x40xf16>
  %zf = graph.cast %m : (tensor<1x4x40x40xf16>) -> tensor<1x4x40x40xf32>
  %sm = graph.softmax %zf, axis = 3 : tensor<1x4x40x40xf32>
  %ph = graph.cast %sm : (tensor<1x4x40x40xf32>) -> tensor<1x4x40x40xf16>
  %o = graph.matmul %ph, %v : (tensor<1x4x40x40xf16>, tensor<1x4x40x8xf16>) -> tensor<1x4x40x8xf16>
  return %o : tensor<1x4x40x8xf16>
}
