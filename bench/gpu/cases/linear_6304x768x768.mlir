// A transformer's linear layer on the H200: F.linear(a, w, bias), M=6304 K=768 N=768, f16.
func.func @main(%a: tensor<6304x768xf16>, %w: tensor<768x768xf16>, %b: tensor<768xf16>) -> tensor<6304x768xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<6304x768xf16>, tensor<768x768xf16>) -> tensor<6304x768xf16>
  %y = graph.bias_add %m, %b : (tensor<6304x768xf16>, tensor<768xf16>) -> tensor<6304x768xf16>
  return %y : tensor<6304x768xf16>
}
