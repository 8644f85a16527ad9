func.func @main() -> tensor<384x256xf16> {
  %i = graph.iota dim = 0 : tensor<384x64xi32>
  %k = graph.iota dim = 1 : tensor<384x64xi32>
  %s = graph.mul %i, %k : tensor<384x64xi32>
  %s2 = graph.add %s, %i : tensor<384x64xi32>
  %f = graph.cast %s2 : (tensor<384x64xi32>) -> tensor<384x64xf32>
  %sa = graph.sin %f : tensor<384x64xf32>
  %a = graph.cast %sa : (tensor<384x64xf32>) -> tensor<384x64xf16>
  %k2 = graph.iota dim = 0 : tensor<64x256xi32>
  %j = graph.iota dim = 1 : tensor<64x256xi32>
  %d = graph.mul %j, %k2 : tensor<64x256xi32>
  %d2 = graph.add %d, %j : tensor<64x256xi32>
  %g = graph.cast %d2 : (tensor<64x256xi32>) -> tensor<64x256xf32>
  %sb = graph.sin %g : tensor<64x256xf32>
  %b = graph.cast %sb : (tensor<64x256xf32>) -> tensor<64x256xf16>
  %c = graph.matmul %a, %b : (tensor<384x64xf16>, tensor<64x256xf16>) -> tensor<384x256xf16>
  return %c : tensor<384x256xf16>
}
