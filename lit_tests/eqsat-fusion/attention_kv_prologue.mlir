// Attention streams K and V along its key loop through a copy ring on
// warpgroup MMA (h100), which takes plain loads only: a K computed in the
// kernel (a RoPE rotation, here a scale and a cast) would go through
// registers, and, staged as parts, overflow shared memory (a Llama block
// after auto-mixed-precision asked 240128 bytes of 232448). With 1024 keys
// K is computed by a kernel of its own; Q (read once a block) keeps its
// prologue, and without warpgroup MMA K's does too.
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion=wgmma=false | FileCheck %s --check-prefix=MMA

// CHECK-LABEL: func.func @main
// CHECK: fusion.group elementwise
// CHECK-NOT: graph.matmul
// CHECK: fusion.yield
// CHECK: fusion.group b2b_gemm
// CHECK: graph.mul
// CHECK: graph.matmul
// CHECK: graph.softmax
// CHECK: graph.matmul
// CHECK: fusion.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
// MMA-LABEL: func.func @main
// MMA-NEXT: fusion.group b2b_gemm
// MMA-NOT: fusion.group
// MMA: return
func.func @main(%q: tensor<8x1024x64xf16>, %k: tensor<8x1024x64xf32>, %v: tensor<8x1024x64xf16>, %s: tensor<f16>, %r: tensor<f32>) -> tensor<8x1024x64xf16> {
  %sq = graph.broadcast %s, dims = [] : (tensor<f16>) -> tensor<8x1024x64xf16>
  %qs = graph.mul %q, %sq : tensor<8x1024x64xf16>
  %rb = graph.broadcast %r, dims = [] : (tensor<f32>) -> tensor<8x1024x64xf32>
  %kr = graph.mul %k, %rb : tensor<8x1024x64xf32>
  %kh = graph.cast %kr : (tensor<8x1024x64xf32>) -> tensor<8x1024x64xf16>
  %qk = graph.matmul %qs, %kh transpose_b : (tensor<8x1024x64xf16>, tensor<8x1024x64xf16>) -> tensor<8x1024x1024xf16>
  %p = graph.softmax %qk, axis = 2 : tensor<8x1024x1024xf16>
  %o = graph.matmul %p, %v : (tensor<8x1024x1024xf16>, tensor<8x1024x64xf16>) -> tensor<8x1024x64xf16>
  return %o : tensor<8x1024x64xf16>
}
