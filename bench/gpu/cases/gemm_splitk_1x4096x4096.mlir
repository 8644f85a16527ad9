// A decode step's projection: 1 token(s) through a 4096 x 4096 weight
// (F.linear without bias: torch.mm(a, w.t())), f16.
func.func @main(%a: tensor<1x4096xf16>, %w: tensor<4096x4096xf16>) -> tensor<1x4096xf16> {
  %m = graph.matmul %a, %w transpose_b : (tensor<1x4096xf16>, tensor<4096x4096xf16>) -> tensor<1x4096xf16>
  return %m : tensor<1x4096xf16>
}
