// The GEMM of gemm_bias_gelu alone (no bias, no GeLU): M=4096 K=1024 N=4096, f16, W transposed (torch.mm(a, w.t())).
func.func @main(%a: tensor<4096x1024xf16>, %w: tensor<4096x1024xf16>) -> tensor<4096x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<4096x1024xf16>, tensor<4096x1024xf16>) -> tensor<4096x4096xf16>
  return %m : tensor<4096x4096xf16>
}
