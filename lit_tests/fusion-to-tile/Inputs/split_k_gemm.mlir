// A skinny f16 GEMM with a long K (40 x 512 by 512 x 96, B transposed in
// memory) and a bias + GeLU epilogue, its operands from iotas.
func.func @main() -> tensor<40x96xf16> {
  %i = graph.iota dim = 0 : tensor<40x512xi32>
  %k = graph.iota dim = 1 : tensor<40x512xi32>
  %s = graph.mul %i, %k : tensor<40x512xi32>
  %s2 = graph.add %s, %k : tensor<40x512xi32>
  %f = graph.cast %s2 : (tensor<40x512xi32>) -> tensor<40x512xf32>
  %sa = graph.sin %f : tensor<40x512xf32>
  %a = graph.cast %sa : (tensor<40x512xf32>) -> tensor<40x512xf16>
  %j = graph.iota dim = 0 : tensor<96x512xi32>
  %k2 = graph.iota dim = 1 : tensor<96x512xi32>
  %d = graph.mul %j, %k2 : tensor<96x512xi32>
  %d2 = graph.add %d, %j : tensor<96x512xi32>
  %g = graph.cast %d2 : (tensor<96x512xi32>) -> tensor<96x512xf32>
  %sb = graph.cos %g : tensor<96x512xf32>
  %b = graph.cast %sb : (tensor<96x512xf32>) -> tensor<96x512xf16>
  %c = graph.matmul %a, %b {transpose_b} : (tensor<40x512xf16>, tensor<96x512xf16>) -> tensor<40x96xf16>
  %n = graph.iota dim = 0 : tensor<96xi32>
  %nf = graph.cast %n : (tensor<96xi32>) -> tensor<96xf32>
  %bs = graph.sin %nf : tensor<96xf32>
  %bias = graph.cast %bs : (tensor<96xf32>) -> tensor<96xf16>
  %y = graph.bias_add %c, %bias : (tensor<40x96xf16>, tensor<96xf16>) -> tensor<40x96xf16>
  %z = graph.gelu_tanh %y : tensor<40x96xf16>
  return %z : tensor<40x96xf16>
}
