// Column 1 keeps position 2 twice: not an mma.sp index pair.
func.func @bad() {
  %x = graph.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %v = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %m = graph.constant dense<[[0, 2], [1, 2]]> : tensor<2x2xi8>
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<1x4xf32>, tensor<2x2xf32>, tensor<2x2xi8>) -> tensor<1x2xf32>
  return
}
