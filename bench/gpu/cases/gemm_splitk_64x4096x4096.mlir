// A decode step's projection: 64 tokens through a 4096 x 4096 weight
// (F.linear without bias: torch.mm(a, w.t())), f16. 64 tiles of 64 x 64
// leave half the SMs idle: the heuristic splits K in two.
func.func @main(%a: tensor<64x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<64x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<64x4096xf16>, tensor<4096x4096xf16>) -> tensor<64x4096xf16>
  return %m : tensor<64x4096xf16>
}
