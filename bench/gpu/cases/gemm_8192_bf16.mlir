// Plain GEMM C = A B, 8192x8192x8192, bf16 operands and result, f32 accumulation (as torch.mm).
func.func @main(%a: tensor<8192x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %c = graph.matmul %a, %b : (tensor<8192x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16>
  return %c : tensor<8192x8192xbf16>
}
