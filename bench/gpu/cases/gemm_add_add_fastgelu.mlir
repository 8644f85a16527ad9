// Composable Kernel's E = FastGeLU(A B + D0 + D1), M=3840 N=4096 K=4096, f16.
func.func @main(%a: tensor<3840x4096xf16>, %b: tensor<4096x4096xf16>, %d0: tensor<3840x4096xf16>, %d1: tensor<3840x4096xf16>) -> tensor<3840x4096xf16> {
  %m = graph.matmul %a, %b : (tensor<3840x4096xf16>, tensor<4096x4096xf16>) -> tensor<3840x4096xf16>
  %x = graph.add %m, %d0 : tensor<3840x4096xf16>
  %y = graph.add %x, %d1 : tensor<3840x4096xf16>
  %g = graph.gelu_tanh %y : tensor<3840x4096xf16>
  return %g : tensor<3840x4096xf16>
}
