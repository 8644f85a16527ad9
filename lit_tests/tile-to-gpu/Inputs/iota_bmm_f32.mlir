func.func @main() -> tensor<3x80x64xf32> {
  %i = graph.iota dim = 1 : tensor<3x80x16xi32>
  %k = graph.iota dim = 2 : tensor<3x80x16xi32>
  %z = graph.iota dim = 0 : tensor<3x80x16xi32>
  %s = graph.add %i, %k : tensor<3x80x16xi32>
  %s2 = graph.mul %s, %z : tensor<3x80x16xi32>
  %s3 = graph.add %s2, %i : tensor<3x80x16xi32>
  %a = graph.cast %s3 : (tensor<3x80x16xi32>) -> tensor<3x80x16xf32>
  %k2 = graph.iota dim = 1 : tensor<3x16x64xi32>
  %j = graph.iota dim = 2 : tensor<3x16x64xi32>
  %d = graph.sub %j, %k2 : tensor<3x16x64xi32>
  %b = graph.cast %d : (tensor<3x16x64xi32>) -> tensor<3x16x64xf32>
  %c = graph.matmul %a, %b : (tensor<3x80x16xf32>, tensor<3x16x64xf32>) -> tensor<3x80x64xf32>
  return %c : tensor<3x80x64xf32>
}
