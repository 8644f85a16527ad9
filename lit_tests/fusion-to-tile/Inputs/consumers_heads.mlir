// GPT-2's attention output projection: its A read with the heads merged
// (8 x 16 x 1024 x 64 as 8192 x 1024), which no 2-D tensor map describes,
// and the same GEMM of a plain A.
func.func public @main(%x: tensor<8x16x1024x64xf16>, %w: tensor<1024x1024xf16>, %a: tensor<8192x1024xf16>) -> (tensor<8192x1024xf16>, tensor<8192x1024xf16>) {
  %t = graph.transpose %x, perm = [0, 2, 1, 3] : (tensor<8x16x1024x64xf16>) -> tensor<8x1024x16x64xf16>
  %r = graph.reshape %t : (tensor<8x1024x16x64xf16>) -> tensor<8192x1024xf16>
  %m = graph.matmul %r, %w : (tensor<8192x1024xf16>, tensor<1024x1024xf16>) -> tensor<8192x1024xf16>
  %p = graph.matmul %a, %w : (tensor<8192x1024xf16>, tensor<1024x1024xf16>) -> tensor<8192x1024xf16>
  return %m, %p : tensor<8192x1024xf16>, tensor<8192x1024xf16>
}
