// Plain GEMM C = A B, 8192x8192x8192, f16 operands and result, f32 accumulation (as torch.mm).
func.func @main(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
  %c = graph.matmul %a, %b : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  return %c : tensor<8192x8192xf16>
}
