// Softmax over the last dim, 65536 rows of 1024, f16.
func.func @main(%x: tensor<65536x1024xf16>) -> tensor<65536x1024xf16> {
  %y = graph.softmax %x, axis = 1 : tensor<65536x1024xf16>
  return %y : tensor<65536x1024xf16>
}
