// fusion-to-tile{wgmma=true}: Hopper's form of a causal f16 attention whose
// head dim is whole 128-byte rows (64). The key blocks wholly below a block's
// first query run in a loop of their own with no mask (no iota, no compare),
// from 0 to the last whole block there (clipped to the block's last key); the
// diagonal blocks (and a ragged last one) run masked in a second loop from
// there on, carrying the first's maxima, sums and output. The constant scale
// 1/8 is folded into exp2's fma: log2(e)/8 = 0.180336878, the maxima taken of
// the unscaled scores, no multiply of the scores. Without wgmma=true, one
// masked loop and the scale multiplied in.
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 wgmma=true})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100})' | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: tile.kernel @attention_0
// CHECK-DAG: %[[C:.*]] = arith.constant 0.180336878 : f32
// CHECK-DAG: %[[NC:.*]] = arith.constant -0.180336878 : f32
// CHECK: %[[HI:.*]] = arith.minsi %{{.*}}, %c320 : index
// CHECK: %[[MID:.*]] = arith.minsi %{{.*}}, %[[HI]] : index
// CHECK: %[[A:.*]]:3 = tile.for %c0 to %[[MID]] step
// CHECK-NOT: tile.iota
// CHECK-NOT: arith.cmpi
// CHECK: tile.gemm
// CHECK-NOT: tile.iota
// CHECK: math.fma %{{.*}}, %[[C]], %{{.*}} : f32
// CHECK-NOT: tile.iota
// CHECK: tile.gemm
// CHECK: tile.yield
// CHECK: tile.for %[[MID]] to %[[HI]] step %{{.*}} iter_args(%[[A]]#0, %[[A]]#1, %[[A]]#2
// CHECK: tile.gemm
// CHECK: tile.iota
// CHECK: arith.cmpi sge
// CHECK: tile.gemm
// CHECK: tile.yield
// PLAIN-LABEL: tile.kernel @attention_0
// PLAIN: tile.for
// PLAIN: tile.iota
// PLAIN: arith.constant 1.250000e-01
// PLAIN-NOT: tile.for
// PLAIN: tile.return
func.func public @main(%q: tensor<1x2x320x64xf16>, %k: tensor<1x2x320x64xf16>, %v: tensor<1x2x320x64xf16>) -> tensor<1x2x320x64xf16> {
  %qk = graph.matmul %q, %k transpose_b : (tensor<1x2x320x64xf16>, tensor<1x2x320x64xf16>) -> tensor<1x2x320x320xf16>
  %c = graph.constant dense<0.125> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<1x2x320x320xf16>
  %x = graph.mul %qk, %cb : tensor<1x2x320x320xf16>
  %i = graph.iota dim = 0 : tensor<320x320xi32>
  %j = graph.iota dim = 1 : tensor<320x320xi32>
  %p = graph.compare GE, %i, %j : (tensor<320x320xi32>, tensor<320x320xi32>) -> tensor<320x320xi1>
  %pb = graph.broadcast %p, dims = [2, 3] : (tensor<320x320xi1>) -> tensor<1x2x320x320xi1>
  %n = graph.constant dense<0xFC00> : tensor<f16>
  %nb = graph.broadcast %n, dims = [] : (tensor<f16>) -> tensor<1x2x320x320xf16>
  %z = graph.select %pb, %x, %nb : (tensor<1x2x320x320xi1>, tensor<1x2x320x320xf16>, tensor<1x2x320x320xf16>) -> tensor<1x2x320x320xf16>
  %sm = graph.softmax %z, axis = 3 : tensor<1x2x320x320xf16>
  %o = graph.matmul %sm, %v : (tensor<1x2x320x320xf16>, tensor<1x2x320x64xf16>) -> tensor<1x2x320x64xf16>
  return %o : tensor<1x2x320x64xf16>
}
