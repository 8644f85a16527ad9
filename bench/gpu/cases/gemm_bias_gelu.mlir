// GEMM + bias + GeLU (tanh), M=4096 K=1024 N=4096, f16: F.gelu(F.linear(a, w, bias), approximate="tanh").
func.func @main(%a: tensor<4096x1024xf16>, %w: tensor<4096x1024xf16>, %b: tensor<4096xf16>) -> tensor<4096x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<4096x1024xf16>, tensor<4096x1024xf16>) -> tensor<4096x4096xf16>
  %y = graph.bias_add %m, %b : (tensor<4096x4096xf16>, tensor<4096xf16>) -> tensor<4096x4096xf16>
  %g = graph.gelu_tanh %y : tensor<4096x4096xf16>
  return %g : tensor<4096x4096xf16>
}
