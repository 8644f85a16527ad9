// A transformer's linear layer on the H200: F.linear(a, w, bias), M=8192 K=1024 N=1024, f16.
func.func @main(%a: tensor<8192x1024xf16>, %w: tensor<1024x1024xf16>, %b: tensor<1024xf16>) -> tensor<8192x1024xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<8192x1024xf16>, tensor<1024x1024xf16>) -> tensor<8192x1024xf16>
  %y = graph.bias_add %m, %b : (tensor<8192x1024xf16>, tensor<1024xf16>) -> tensor<8192x1024xf16>
  return %y : tensor<8192x1024xf16>
}
