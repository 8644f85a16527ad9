// LayerNorm over 1024 features, 32768 rows, f16 (epsilon 1e-5, as F.layer_norm).
func.func @main(%x: tensor<32768x1024xf16>, %g: tensor<1024xf16>, %b: tensor<1024xf16>) -> tensor<32768x1024xf16> {
  %y = graph.layernorm %x, %g, %b : (tensor<32768x1024xf16>, tensor<1024xf16>, tensor<1024xf16>) -> tensor<32768x1024xf16>
  return %y : tensor<32768x1024xf16>
}
