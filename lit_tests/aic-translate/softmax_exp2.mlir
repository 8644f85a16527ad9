// Online softmax's exp2 may flush results below 2^-126 to zero: each is a
// weight in sums that also hold the row maximum's weight 1 (fusion-to-tile
// marks attention's exp2 `fastmath<afn>`), so NVPTX takes one
// `ex2.approx.ftz.f32` for it instead of `ex2.approx.f32` and the compare
// and two multiplies that keep subnormal results. A plain f32 softmax, whose
// outputs may be subnormal, keeps the exact form.
// RUN: aic-opt --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100})' %s | FileCheck %s --check-prefix=TILE
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// TILE-LABEL: tile.kernel @attention_0
// TILE: math.exp2 %{{.*}} fastmath<afn> : f32
// TILE-LABEL: tile.kernel @rows_1
// TILE-NOT: fastmath<afn>
// TILE: math.exp2 %{{.*}} : f32
// TILE-NOT: fastmath<afn>
// TILE-LABEL: func.func @main

// PTX-LABEL: .entry attention_0(
// PTX-NOT: ex2.approx.f32
// PTX: ex2.approx.ftz.f32
// PTX-NOT: ex2.approx.f32
// PTX-LABEL: .entry rows_1(
// PTX-NOT: ex2.approx.ftz
// PTX: ex2.approx.f32
// PTX-NOT: ex2.approx.ftz

func.func @main(%q: tensor<2x70x64xf32>, %k: tensor<2x70x64xf32>, %v: tensor<2x70x64xf32>, %x: tensor<64x256xf32>) -> (tensor<2x70x64xf32>, tensor<64x256xf32>) {
  %s = graph.matmul %q, %k transpose_b : (tensor<2x70x64xf32>, tensor<2x70x64xf32>) -> tensor<2x70x70xf32>
  %c = graph.constant dense<1.250000e-01> : tensor<f32>
  %cb = graph.broadcast %c, dims = [] : (tensor<f32>) -> tensor<2x70x70xf32>
  %y = graph.mul %s, %cb : tensor<2x70x70xf32>
  %p = graph.softmax %y, axis = 2 : tensor<2x70x70xf32>
  %o = graph.matmul %p, %v : (tensor<2x70x70xf32>, tensor<2x70x64xf32>) -> tensor<2x70x64xf32>
  %r = graph.softmax %x, axis = 1 : tensor<64x256xf32>
  return %o, %r : tensor<2x70x64xf32>, tensor<64x256xf32>
}
