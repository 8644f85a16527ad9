func.func @main() -> tensor<80x64xf32> {
  %i = graph.iota dim = 0 : tensor<80x16xi32>
  %k = graph.iota dim = 1 : tensor<80x16xi32>
  %s = graph.add %i, %k : tensor<80x16xi32>
  %a = graph.cast %s : (tensor<80x16xi32>) -> tensor<80x16xf32>
  %k2 = graph.iota dim = 0 : tensor<16x64xi32>
  %j = graph.iota dim = 1 : tensor<16x64xi32>
  %d = graph.sub %j, %k2 : tensor<16x64xi32>
  %b = graph.cast %d : (tensor<16x64xi32>) -> tensor<16x64xf32>
  %c = graph.matmul %a, %b : (tensor<80x16xf32>, tensor<16x64xf32>) -> tensor<80x64xf32>
  return %c : tensor<80x64xf32>
}
