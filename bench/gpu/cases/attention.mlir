// Attention as JAX writes it, softmax(Q Kᵀ · s) V with s = 1/√64 a constant (rounded to f16: 0.125),
// batch 4, 16 heads, 4096 tokens, head dim 64, f16: what SDPA computes with scale=s. The form
// with s an input is attention_scale_input.mlir.
func.func @main(%q: tensor<4x16x4096x64xf16>, %k: tensor<4x16x4096x64xf16>, %v: tensor<4x16x4096x64xf16>) -> tensor<4x16x4096x64xf16> {
  %s = graph.constant dense<0.125> : tensor<f16>
  %sb = graph.broadcast %s, dims = [] : (tensor<f16>) -> tensor<4x16x4096x4096xf16>
  %qk = graph.matmul %q, %k transpose_b : (tensor<4x16x4096x64xf16>, tensor<4x16x4096x64xf16>) -> tensor<4x16x4096x4096xf16>
  %x = graph.mul %qk, %sb : tensor<4x16x4096x4096xf16>
  %p = graph.softmax %x, axis = 3 : tensor<4x16x4096x4096xf16>
  %o = graph.matmul %p, %v : (tensor<4x16x4096x4096xf16>, tensor<4x16x4096x64xf16>) -> tensor<4x16x4096x64xf16>
  return %o : tensor<4x16x4096x64xf16>
}
