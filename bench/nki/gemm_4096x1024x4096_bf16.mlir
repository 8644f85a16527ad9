// A bf16 GEMM of 4096x1024 by 1024x4096 (fp32 accumulation, a bf16
// result), for nki-sim's modelled Tensor-engine figures.
func.func @main(%a: tensor<4096x1024xbf16>, %b: tensor<1024x4096xbf16>) -> tensor<4096x4096xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4096x1024xbf16>, tensor<1024x4096xbf16>) -> tensor<4096x4096xbf16>
  return %0 : tensor<4096x4096xbf16>
}
