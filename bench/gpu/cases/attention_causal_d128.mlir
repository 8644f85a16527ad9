// Causal attention as JAX writes it (jax.nn.dot_product_attention's math form), batch 4, 16 heads,
// 4096 tokens, head dim 128, f16: scores Q Kᵀ / √128 (√128 = 1.131250e+01 in f16), the mask
// select(iota_q >= iota_k, s, -inf), the softmax in f32 between casts, then P V in f16.
func.func @main(%q: tensor<4x16x4096x128xf16>, %k: tensor<4x16x4096x128xf16>, %v: tensor<4x16x4096x128xf16>) -> tensor<4x16x4096x128xf16> {
  %s = graph.matmul %q, %k transpose_b : (tensor<4x16x4096x128xf16>, tensor<4x16x4096x128xf16>) -> tensor<4x16x4096x4096xf16>
  %c = graph.constant dense<1.131250e+01> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<4x16x4096x4096xf16>
  %x = graph.div %s, %cb : tensor<4x16x4096x4096xf16>
  %i = graph.iota dim = 0 : tensor<4096x4096xi32>
  %j = graph.iota dim = 1 : tensor<4096x4096xi32>
  %p = graph.compare GE, %i, %j : (tensor<4096x4096xi32>, tensor<4096x4096xi32>) -> tensor<4096x4096xi1>
  %pb = graph.broadcast %p, dims = [2, 3] : (tensor<4096x4096xi1>) -> tensor<4x16x4096x4096xi1>
  %n = graph.constant dense<0xFC00> : tensor<f16>
  %nb = graph.broadcast %n, dims = [] : (tensor<f16>) -> tensor<4x16x4096x4096xf16>
  %z = graph.select %pb, %x, %nb : (tensor<4x16x4096x4096xi1>, tensor<4x16x4096x4096xf16>, tensor<4x16x4096x4096xf16>) -> tensor<4x16x4096x4096xf16>
  %zf = graph.cast %z : (tensor<4x16x4096x4096xf16>) -> tensor<4x16x4096x4096xf32>
  %sm = graph.softmax %zf, axis = 3 : tensor<4x16x4096x4096xf32>
  %ph = graph.cast %sm : (tensor<4x16x4096x4096xf32>) -> tensor<4x16x4096x4096xf16>
  %o = graph.matmul %ph, %v : (tensor<4x16x4096x4096xf16>, tensor<4x16x4096x128xf16>) -> tensor<4x16x4096x128xf16>
  return %o : tensor<4x16x4096x128xf16>
}
