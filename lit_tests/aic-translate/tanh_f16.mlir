// A tanh the program declares on f16 owes only f16's precision: fusion-to-tile
// marks its f32 tanh `fastmath<afn>`, and NVPTX divides approximately inside
// the rational function, then saturates to exactly +-1 beyond the clamp (the
// approximate quotient can miss 1 there by an ulp, which 1 + tanh(x) would
// turn into a nonzero tail).
// RUN: aic-opt --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100})' %s | FileCheck %s --check-prefix=TILE
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// TILE: math.tanh %{{.*}} fastmath<afn> : f32

// PTX-LABEL: .entry elementwise_0(
// PTX-NOT: div.rn
// PTX: div.approx.f32
// PTX: setp.ge.f32 [[SAT:%p[0-9]+]], {{.*}}0f40FCF84F
// PTX: selp.f32 [[ONE:%r[0-9]+]], 0fBF800000, 0f3F800000
// PTX: selp.f32 {{%r[0-9]+}}, [[ONE]], {{%r[0-9]+}}, [[SAT]]
// PTX-NOT: div.rn

func.func @main(%h: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %t = graph.tanh %h : tensor<64x256xf16>
  return %t : tensor<64x256xf16>
}
