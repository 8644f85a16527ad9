// A transformer's linear layer on the H200: F.linear(a, w, bias), M=6304 K=768 N=2304, f16.
func.func @main(%a: tensor<6304x768xf16>, %w: tensor<2304x768xf16>, %b: tensor<2304xf16>) -> tensor<6304x2304xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<6304x768xf16>, tensor<2304x768xf16>) -> tensor<6304x2304xf16>
  %y = graph.bias_add %m, %b : (tensor<6304x2304xf16>, tensor<2304xf16>) -> tensor<6304x2304xf16>
  return %y : tensor<6304x2304xf16>
}
