// The interpreter refuses a vector load or store that runs past the
// memref's last dimension (the last element of a vector of 4 at 6 of 8).
// RUN: not aic-run --interpret %s --entry @past --args "[dense<1.0> : tensor<8xf32>]" 2>&1 | FileCheck %s
// CHECK: a vector of 4 at [6] is out of bounds of [8]
gpu.kernel @over grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>, %b: memref<8xf32>):
  %c6 = arith.constant 6 : index
  %v = vector.load %a[%c6] : memref<8xf32>, vector<4xf32>
  vector.store %v, %b[%c6] : memref<8xf32>, vector<4xf32>
  gpu.return
}
func.func @past(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = gpu.launch @over(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
