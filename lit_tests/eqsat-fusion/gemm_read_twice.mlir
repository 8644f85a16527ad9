// A GEMM whose result its epilogue reads on two paths (GeLU-tanh as written,
// here with constants that are not GeLU's so that it is not raised: y times
// a function of y), at GPT-2's MLP size: fusion grows ONE kernel computing
// the GEMM once. (The paths used to meet as a kernel holding the GEMM and
// reading the same GEMM's result from a second kernel.)
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s
// CHECK: fusion.group vertical
// CHECK: graph.matmul
// CHECK-NOT: graph.matmul
// CHECK: graph.tanh
// CHECK-NOT: fusion.group
// CHECK: return
func.func @main(%x: tensor<8x1024x1024xf16>, %w: tensor<1024x4096xf16>, %b: tensor<4096xf16>) -> tensor<8x1024x4096xf16> {
  %m = graph.matmul %x, %w : (tensor<8x1024x1024xf16>, tensor<1024x4096xf16>) -> tensor<8x1024x4096xf16>
  %y = graph.bias_add %m, %b : (tensor<8x1024x4096xf16>, tensor<4096xf16>) -> tensor<8x1024x4096xf16>
  %h = graph.constant dense<0.5> : tensor<f16>
  %hb = graph.broadcast %h, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
  %o = graph.constant dense<1.0> : tensor<f16>
  %ob = graph.broadcast %o, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
  %k = graph.constant dense<0.04> : tensor<f16>
  %kb = graph.broadcast %k, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
  %c = graph.constant dense<0.6> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
  %s = graph.mul %y, %y : tensor<8x1024x4096xf16>
  %q = graph.mul %y, %s : tensor<8x1024x4096xf16>
  %kq = graph.mul %kb, %q : tensor<8x1024x4096xf16>
  %a = graph.add %y, %kq : tensor<8x1024x4096xf16>
  %ca = graph.mul %cb, %a : tensor<8x1024x4096xf16>
  %t = graph.tanh %ca : tensor<8x1024x4096xf16>
  %u = graph.add %ob, %t : tensor<8x1024x4096xf16>
  %v = graph.mul %hb, %u : tensor<8x1024x4096xf16>
  %r = graph.mul %y, %v : tensor<8x1024x4096xf16>
  return %r : tensor<8x1024x4096xf16>
}
