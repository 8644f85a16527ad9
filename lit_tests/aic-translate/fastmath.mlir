// Quotients that need not be exactly rounded take NVPTX's div.approx.f32:
// GeLU's tanh approximation, x / (1 + 2^(-2 log2(e) u)), marks its exp2 and
// division `fastmath<afn>` (the graph op's scalar lowering), so they are
// ex2.approx.ftz and div.approx with no tanh expansion; a plain f32 tanh
// keeps the IEEE division inside its rational function.
// RUN: aic-opt --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{target=h100})' %s | FileCheck %s --check-prefix=TILE
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// TILE-NOT: math.tanh %{{.*}} fastmath<afn>
// TILE: math.exp2 %{{.*}} fastmath<afn> : f32
// TILE: arith.divf %{{.*}} fastmath<afn> : f32

// PTX-LABEL: .entry elementwise_0(
// PTX-NOT: div.approx
// PTX: div.rn.f32
// PTX-LABEL: .entry elementwise_1(
// PTX-NOT: div.rn
// PTX: ex2.approx.ftz.f32
// PTX-NEXT: add.rn.f32
// PTX-NEXT: div.approx.f32
// PTX-NOT: div.rn

func.func @main(%x: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %t = graph.tanh %x : tensor<64x256xf32>
  %e = graph.gelu_tanh %x : tensor<64x256xf32>
  return %t, %e : tensor<64x256xf32>, tensor<64x256xf32>
}
