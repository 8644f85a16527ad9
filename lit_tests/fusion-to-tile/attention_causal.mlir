// fusion-to-tile: attention as JAX writes it becomes one attention kernel.
// The causal mask select(iota_q >= iota_k, s, -inf) is computed from the
// block's query and key indices (no mask buffer read), and the key loop
// stops after the block's last query (min(m0 + BM, Sk)): fully masked key
// blocks are skipped. The scale is a literal, the softmax runs in f32 (the
// casts), P is rounded to f16 before P V, and the grouped K/V heads are read
// from the shared head through the broadcast's descriptor. Blocks run the
// heaviest query blocks first, heads in groups of G (here all 4: their K and
// V fit the group's bytes): the L-th block of the grid (L = z * blocks + x)
// is the r = L mod (G * blocks)-th of group g = L / (G * blocks) and takes
// query block blocks - 1 - r / G of head g * G + r mod G.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @attention_{{[0-9]+}}
// CHECK: %[[Z:.*]] = tile.program_id 2
// CHECK: %[[ZL:.*]] = arith.muli %[[Z]], %c1
// CHECK: %[[L:.*]] = arith.addi %[[ZL]]
// CHECK: %[[G:.*]] = arith.divui %[[L]], %c4
// CHECK: %[[R:.*]] = arith.remui %[[L]], %c4
// CHECK: %[[STEP:.*]] = arith.divui %[[R]], %[[CG:c4_[0-9]+]]
// CHECK: %[[Q:.*]] = arith.subi %c0, %[[STEP]]
// CHECK: %[[M0:.*]] = arith.muli %[[Q]], %c64
// CHECK: %[[IN:.*]] = arith.remui %[[R]], %[[CG]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %[[CG]]
// CHECK: %[[HEAD:.*]] = arith.addi %[[FIRST]], %[[IN]]
// CHECK: tile.load %{{.*}}[%[[HEAD]], %[[M0]],
// CHECK: %[[END:.*]] = arith.addi %[[M0]], %c{{[0-9]+}}
// CHECK: %[[HI:.*]] = arith.minsi %[[END]], %c40
// CHECK: tile.for %c0{{(_[0-9]+)?}} to %[[HI]] step
// CHECK: tile.gemm
// CHECK: tile.iota dim = 0 : !tile.tile<{{.*}}xindex>
// CHECK: arith.index_cast
// CHECK: tile.iota dim = 1 : !tile.tile<{{.*}}xindex>
// CHECK: arith.cmpi sge
// CHECK: arith.divf %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.select
// CHECK: tile.reduce max
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tile.gemm
// CHECK: tile.yield
// CHECK-LABEL: func.func @main
// CHECK-NOT: fusion.group
// CHECK: tile.launch @attention_
func.func @main(%q: tensor<1x4x40x8xf16>, %k: tensor<1x2x40x8xf16>, %v: tensor<1x2x40x8xf16>) -> tensor<1x4x40x8xf16> {
  %kb = graph.broadcast %k, dims = [0, 1, 3, 4] : (tensor<1x2x40x8xf16>) -> tensor<1x2x2x40x8xf16>
  %kr = graph.reshape %kb : (tensor<1x2x2x40x8xf16>) -> tensor<1x4x40x8xf16>
  %vb = graph.broadcast %v, dims = [0, 1, 3, 4] : (tensor<1x2x40x8xf16>) -> tensor<1x2x2x40x8xf16>
  %vr = graph.reshape %vb : (tensor<1x2x2x40x8xf16>) -> tensor<1x4x40x8xf16>
  %s = graph.matmul %q, %kr transpose_b : (tensor<1x4x40x8xf16>, tensor<1x4x40x8xf16>) -> tensor<1x4x40x40xf16>
  %c = graph.constant dense<4.0> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<1x4x40x40xf16>
  %x = graph.div %s, %cb : tensor<1x4x40x40xf16>
  %i = graph.iota dim = 0 : tensor<40x40xi32>
  %j = graph.iota dim = 1 : tensor<40x40xi32>
  %p = graph.compare GE, %i, %j : (tensor<40x40xi32>, tensor<40x40xi32>) -> tensor<40x40xi1>
  %pb = graph.broadcast %p, dims = [2, 3] : (tensor<40x40xi1>) -> tensor<1x4x40x40xi1>
  %n = graph.constant dense<0xFC00> : tensor<f16>
  %nb = graph.broadcast %n, dims = [] : (tensor<f16>) -> tensor<1x4x40x40xf16>
  %z = graph.select %pb, %x, %nb : (tensor<1x4x40x40xi1>, tensor<1x4x40x40xf16>, tensor<1x4x40x40xf16>) -> tensor<1x4x40x40xf16>
  %zf = graph.cast %z : (tensor<1x4x40x40xf16>) -> tensor<1x4x40x40xf32>
  %sm = graph.softmax %zf, axis = 3 : tensor<1x4x40x40xf32>
  %ph = graph.cast %sm : (tensor<1x4x40x40xf32>) -> tensor<1x4x40x40xf16>
  %o = graph.matmul %ph, %vr : (tensor<1x4x40x40xf16>, tensor<1x4x40x8xf16>) -> tensor<1x4x40x8xf16>
  return %o : tensor<1x4x40x8xf16>
}
