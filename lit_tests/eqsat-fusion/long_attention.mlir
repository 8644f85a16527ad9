// Attention over rows too long for a block (4096 keys: a GEMM + softmax
// kernel would hold 64 x 4096 floats) still fuses back to back: the
// GEMM + softmax body is kept as a step of the search (at an infinite cost,
// never a kernel alone), and the second GEMM makes the softmax online, so
// the kernel holds rows of the 64-wide result only.
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s
// CHECK: fusion.group b2b_gemm
// CHECK-NOT: fusion.group
// CHECK-LABEL: func.func @gemm_softmax
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.softmax
func.func @main(%q: tensor<2x4096x64xf16>, %k: tensor<2x4096x64xf16>, %v: tensor<2x4096x64xf16>, %s: tensor<f16>) -> tensor<2x4096x64xf16> {
  %sb = graph.broadcast %s, dims = [] : (tensor<f16>) -> tensor<2x4096x4096xf16>
  %qk = graph.matmul %q, %k transpose_b : (tensor<2x4096x64xf16>, tensor<2x4096x64xf16>) -> tensor<2x4096x4096xf16>
  %x = graph.mul %qk, %sb : tensor<2x4096x4096xf16>
  %p = graph.softmax %x, axis = 2 : tensor<2x4096x4096xf16>
  %o = graph.matmul %p, %v : (tensor<2x4096x4096xf16>, tensor<2x4096x64xf16>) -> tensor<2x4096x64xf16>
  return %o : tensor<2x4096x64xf16>
}

// Without a second GEMM, the long rows do not fit: the GEMM stays apart
// from the softmax.
func.func @gemm_softmax(%q: tensor<2x4096x64xf16>, %k: tensor<2x4096x64xf16>) -> tensor<2x4096x4096xf16> {
  %qk = graph.matmul %q, %k transpose_b : (tensor<2x4096x64xf16>, tensor<2x4096x64xf16>) -> tensor<2x4096x4096xf16>
  %p = graph.softmax %qk, axis = 2 : tensor<2x4096x4096xf16>
  return %p : tensor<2x4096x4096xf16>
}
