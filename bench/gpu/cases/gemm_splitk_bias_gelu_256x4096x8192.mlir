// 256 rows through an 8192 -> 4096 layer with bias and GeLU (tanh), f16:
// F.gelu(F.linear(a, w, bias), approximate="tanh"). 64 tiles of 128 x 128:
// the heuristic splits K in two, the epilogue in the kernel that sums the
// partial products.
func.func @main(%a: tensor<256x8192xf16>, %w: tensor<4096x8192xf16>, %b: tensor<4096xf16>) -> tensor<256x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<256x8192xf16>, tensor<4096x8192xf16>) -> tensor<256x4096xf16>
  %y = graph.bias_add %m, %b : (tensor<256x4096xf16>, tensor<4096xf16>) -> tensor<256x4096xf16>
  %g = graph.gelu_tanh %y : tensor<256x4096xf16>
  return %g : tensor<256x4096xf16>
}
