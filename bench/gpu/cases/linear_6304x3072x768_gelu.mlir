// A transformer's linear layer on the H200: F.linear(a, w, bias) then GeLU (tanh), M=6304 K=768 N=3072, f16.
func.func @main(%a: tensor<6304x768xf16>, %w: tensor<3072x768xf16>, %b: tensor<3072xf16>) -> tensor<6304x3072xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<6304x768xf16>, tensor<3072x768xf16>) -> tensor<6304x3072xf16>
  %y = graph.bias_add %m, %b : (tensor<6304x3072xf16>, tensor<3072xf16>) -> tensor<6304x3072xf16>
  %g = graph.gelu_tanh %y : tensor<6304x3072xf16>
  return %g : tensor<6304x3072xf16>
}
