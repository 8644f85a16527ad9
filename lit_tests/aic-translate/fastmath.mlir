// Quotients that need not be exactly rounded take NVPTX's div.approx.f32:
// GeLU's tanh approximation marks its tanh `fastmath<afn>` (fusion-to-tile),
// so the rational function inside tanh divides approximately; a plain f32
// tanh keeps the IEEE division.
// RUN: aic-opt --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{target=h100})' %s | FileCheck %s --check-prefix=TILE
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// TILE-COUNT-1: math.tanh %{{.*}} fastmath<afn> : f32
// TILE-NOT: math.tanh %{{.*}} fastmath<afn>

// PTX-LABEL: .entry elementwise_0(
// PTX-NOT: div.approx
// PTX: div.rn.f32
// PTX-LABEL: .entry elementwise_1(
// PTX-NOT: div.rn
// PTX: div.approx.f32
// The approximate tanh saturates to exactly ±1 beyond its clamp, so that
// GeLU's 1 + tanh(x) vanishes there.
// PTX: setp.ge.f32 {{.*}}0f40FCF84F
// PTX: copysign.f32
// PTX-NOT: div.rn

func.func @main(%x: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %t = graph.tanh %x : tensor<64x256xf32>
  %e = graph.gelu_tanh %x : tensor<64x256xf32>
  return %t, %e : tensor<64x256xf32>, tensor<64x256xf32>
}
