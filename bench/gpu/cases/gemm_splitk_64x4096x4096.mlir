// A decode step's projection: 64 tokens through a 4096 x 4096 weight
// (F.linear without bias: torch.mm(a, w.t())), f16. Its wide tiles leave
// SMs idle: the heuristic takes 128 of 64 x 32 (before: 4 slices of 64 x
// 128 tiles, split-K).
func.func @main(%a: tensor<64x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<64x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<64x4096xf16>, tensor<4096x4096xf16>) -> tensor<64x4096xf16>
  return %m : tensor<64x4096xf16>
}
