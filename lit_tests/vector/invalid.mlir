// The vector loads' and stores' verifier: one index per memref dimension,
// a rank-1 vector of the memref's element type, an alignment that is a
// power of two.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'vector.load' op the vector's element type must be the memref's}}
  %v = vector.load %a[%c0] : memref<8xf32>, vector<2xf16>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<8xf32>, vector<2xf32>
  // expected-error@+1 {{'vector.store' op alignment 12 is not a positive power of two}}
  vector.store %v, %a[%c0] {alignment = 12 : i64} : memref<8xf32>, vector<2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'vector.load' op the vector must have rank 1}}
  %v = vector.load %a[%c0] : memref<8xf32>, vector<2x2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'vector.load' op 2 indices for a memref of rank 1 (one per dimension, at least one)}}
  %v = vector.load %a[%c0, %c0] : memref<8xf32>, vector<2xf32>
  gpu.return
}
