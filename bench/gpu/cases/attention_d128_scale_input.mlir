// Attention softmax(Q Kᵀ s) V with the scale an f16 input (s = 1/√128 rounded to f16 at run time: the compiler cannot fold it), batch 4, 16 heads, 4096 tokens, head dim 128, f16.
func.func @main(%q: tensor<4x16x4096x128xf16>, %k: tensor<4x16x4096x128xf16>, %v: tensor<4x16x4096x128xf16>, %s: tensor<f16>) -> tensor<4x16x4096x128xf16> {
  %sb = graph.broadcast %s, dims = [] : (tensor<f16>) -> tensor<4x16x4096x4096xf16>
  %qk = graph.matmul %q, %k transpose_b : (tensor<4x16x4096x128xf16>, tensor<4x16x4096x128xf16>) -> tensor<4x16x4096x4096xf16>
  %x = graph.mul %qk, %sb : tensor<4x16x4096x4096xf16>
  %p = graph.softmax %x, axis = 3 : tensor<4x16x4096x4096xf16>
  %o = graph.matmul %p, %v : (tensor<4x16x4096x4096xf16>, tensor<4x16x4096x128xf16>) -> tensor<4x16x4096x128xf16>
  return %o : tensor<4x16x4096x128xf16>
}
