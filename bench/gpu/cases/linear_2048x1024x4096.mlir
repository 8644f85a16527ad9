// A transformer's linear layer on the H200: F.linear(a, w, bias), M=2048 K=4096 N=1024, f16.
func.func @main(%a: tensor<2048x4096xf16>, %w: tensor<1024x4096xf16>, %b: tensor<1024xf16>) -> tensor<2048x1024xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<2048x4096xf16>, tensor<1024x4096xf16>) -> tensor<2048x1024xf16>
  %y = graph.bias_add %m, %b : (tensor<2048x1024xf16>, tensor<1024xf16>) -> tensor<2048x1024xf16>
  return %y : tensor<2048x1024xf16>
}
