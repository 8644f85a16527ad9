// A long-K GEMM (a weight gradient's shape): 1024 x 16384 by 16384 x 1024,
// f16. Its 64 tiles of 128 x 128 fill half the SMs: the heuristic splits K
// in two.
func.func @main(%a: tensor<1024x16384xf16>, %b: tensor<16384x1024xf16>) -> tensor<1024x1024xf16> {
  %m = graph.matmul %a, %b : (tensor<1024x16384xf16>, tensor<16384x1024xf16>) -> tensor<1024x1024xf16>
  return %m : tensor<1024x1024xf16>
}
