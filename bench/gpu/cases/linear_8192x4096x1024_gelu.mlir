// A transformer's linear layer on the H200: F.linear(a, w, bias) then GeLU (tanh), M=8192 K=1024 N=4096, f16.
func.func @main(%a: tensor<8192x1024xf16>, %w: tensor<4096x1024xf16>, %b: tensor<4096xf16>) -> tensor<8192x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<8192x1024xf16>, tensor<4096x1024xf16>) -> tensor<8192x4096xf16>
  %y = graph.bias_add %m, %b : (tensor<8192x4096xf16>, tensor<4096xf16>) -> tensor<8192x4096xf16>
  %g = graph.gelu_tanh %y : tensor<8192x4096xf16>
  return %g : tensor<8192x4096xf16>
}
