// The tile verifier: shapes, levels and spaces, ranks of loads and stores,
// kernels and launches.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

// expected-error@+1 {{'tile.kernel' op threads 0 must be positive}}
tile.kernel @k grid = [1] threads = 0 {
^bb0(%a: memref<8x8xf32>):
  tile.return
}
// -----

tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x4xf32>
  %y = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x4xf32>
  // expected-error@+1 {{'tile.gemm' op shapes [8, 4] x [8, 4] + [8, 4] do not form a matrix product}}
  %r = tile.gemm %x, %y, %x level = warp : !tile.tile<8x4xf32>, !tile.tile<8x4xf32>, !tile.tile<8x4xf32> -> !tile.tile<8x4xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tile.load' op a tile of rank 3 at an origin of 2 indices under a descriptor of rank 2}}
  %t = tile.load %a[%c0, %c0] : memref<8x8xf32> -> !tile.tile<1x8x8xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tile.load' op the descriptor addresses 16 elements but the buffer has 64}}
  %t = tile.load %a[%c0, %c0] through #coord.desc<[4, 4] | embed<16: 4, 1> [0, 1] -> [0]> : memref<8x8xf32> -> !tile.tile<4x4xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : memref<8x8xf32> -> !tile.tile<4x4xf32>
  // expected-error@+1 {{'tile.transfer' op the result must be the same tile in the named space}}
  %s = tile.transfer %t to shared depth = 2 : !tile.tile<4x4xf32> -> !tile.tile<4x4xf32>
  tile.return
}
// -----
func.func @f() -> index {
  // expected-error@+1 {{'tile.program_id' op must be inside a tile.kernel}}
  %p = tile.program_id 0 : index
  return %p : index
}
// -----
// expected-error@+1 {{'tile.kernel' op grid [0] must have 1 to 3 positive sizes}}
tile.kernel @k grid = [0] {
^bb0(%a: memref<8xf32>):
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8xf32>, %b: memref<8xf32>):
  tile.return
}
func.func @f(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tile.launch' op inputs and results must match the kernel's buffers in order, shape and element type}}
  %y = tile.launch @k(%x) : (tensor<8xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : memref<8x8xf32> -> !tile.tile<4x4xf32>
  // expected-error@+1 {{'tile.reduce' op reducing [4, 4] along 1 gives [4]}}
  %r = tile.reduce max %t, axis = 1 : !tile.tile<4x4xf32> -> !tile.tile<4x4xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  // expected-error@+1 {{'tile.iota' op dim 2 out of range for a tile of rank 2}}
  %i = tile.iota dim = 2 : !tile.tile<8x8xindex>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  // expected-error@+1 {{'tile.iota' op an iota's elements are indices or integers}}
  %i = tile.iota dim = 0 : !tile.tile<8x8xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.broadcast' op bad layout: [8, 12] is not a whole number of 16x8 fragments}}
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x12xf32, mma<16, 8, 16>>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.broadcast' op bad layout: a swizzle is for shared tiles}}
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x8xf32, swizzle<3, 4, 3>>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.broadcast' op bad layout: [8, 48] is not rows of a multiple of 2 each a multiple of 32x1 elements}}
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x48xf32, warp_rows<32, 1, 2>>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.broadcast' op bad layout: warp rows are for register tiles}}
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x64xf32, shared, warp_rows<32, 1, 2>>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.broadcast' op malformed tile type}}
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x64xf32, warp_rows<32, 0, 2>>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  // expected-error@+1 {{'tile.broadcast' op malformed tile type}}
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x8xf32, shared, blocked>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<16x16xf32>
  // expected-error@+1 {{'tile.convert_layout' op the result must be the same tile in the same space, only its layout changed}}
  %y = tile.convert_layout %x : !tile.tile<16x16xf32> -> !tile.tile<16x8xf32, mma<16, 8, 16>>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<16x16xf32>
  // expected-error@+1 {{'tile.convert_layout' op the result must be the same tile in the same space, only its layout changed}}
  %y = tile.convert_layout %x : !tile.tile<16x16xf32> -> !tile.tile<16x16xf32, shared>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x8xf32>
  // expected-error@+1 {{'tile.convert_layout' op bad layout: [8, 8] is not a whole number of 16x8 fragments}}
  %y = tile.convert_layout %x : !tile.tile<8x8xf32> -> !tile.tile<8x8xf32, mma<16, 8, 16>>
  tile.return
}
// -----

tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  %i = arith.constant 0 : i8
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x8xf32>
  %v = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x8xf32>
  %m = tile.broadcast %i, dims = [] : i8 -> !tile.tile<8x8xi8>
  // expected-error@+1 {{'tile.sparse_gemm' op shapes [8, 8] x 2:4[8, 8] + [8, 8] do not form a 2:4-sparse matrix product}}
  %r = tile.sparse_gemm %x, %v, %m, %x level = block : !tile.tile<8x8xf32>, !tile.tile<8x8xf32>, !tile.tile<8x8xi8>, !tile.tile<8x8xf32> -> !tile.tile<8x8xf32>
  tile.return
}
// -----

tile.kernel @k grid = [1] {
^bb0(%a: memref<8x8xf32>):
  %z = arith.constant 0.0 : f32
  %x = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x8xf32>
  %v = tile.broadcast %z, dims = [] : f32 -> !tile.tile<4x8xf32>
  // expected-error@+1 {{'tile.sparse_gemm' op the metadata must be an integer tile of the values' shape}}
  %r = tile.sparse_gemm %x, %v, %v, %x level = block : !tile.tile<8x8xf32>, !tile.tile<4x8xf32>, !tile.tile<4x8xf32>, !tile.tile<8x8xf32> -> !tile.tile<8x8xf32>
  tile.return
}
// -----

// expected-error@+1 {{'tile.kernel' op persistent 0 must be a positive number of blocks}}
tile.kernel @k grid = [4] persistent = 0 {
^bb0(%a: memref<8xf32>):
  tile.return
}
// -----

// expected-error@+1 {{'tile.kernel' op group 0 must be a positive number of tiles}}
tile.kernel @k grid = [4, 2] group = 0 {
^bb0(%a: memref<8xf32>):
  tile.return
}
// -----

// expected-error@+1 {{'tile.kernel' op consumers 3 must be 2 (two groups taking turns)}}
tile.kernel @k grid = [4] persistent = 2 consumers = 3 {
^bb0(%a: memref<8xf32>):
  tile.return
}
// -----

// expected-error@+1 {{'tile.kernel' op consumers taking turns need a persistent kernel (persistent = p)}}
tile.kernel @k grid = [4] consumers = 2 {
^bb0(%a: memref<8xf32>):
  tile.return
}
