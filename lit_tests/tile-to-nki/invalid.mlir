// tile-to-nki's errors name the op it cannot lower: tiles of three dims, a
// tile of more rows than a NeuronCore has partitions, a loop with bounds
// computed at run time, tiles that do not fit SBUF together.
// RUN: aic-opt %s --split-input-file --tile-to-nki --verify-diagnostics

tile.kernel @k grid = [1] {
^bb0(%a: memref<2x4x4xf32>, %b: memref<2x4x4xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tile.load' op cannot lower to nki: a tile of shape [2, 4, 4]: only matrices and vectors map to partitions}}
  %t = tile.load %a[%c0, %c0, %c0] : memref<2x4x4xf32> -> !tile.tile<2x4x4xf32>
  tile.store %t, %b[%c0, %c0, %c0] : !tile.tile<2x4x4xf32>, memref<2x4x4xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<256x4xf32>, %b: memref<256x4xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tile.load' op cannot lower to nki: a tile of 256 rows: at most 128 partitions, and the lowering does not split tiles}}
  %t = tile.load %a[%c0, %c0] : memref<256x4xf32> -> !tile.tile<256x4xf32>
  tile.store %t, %b[%c0, %c0] : !tile.tile<256x4xf32>, memref<256x4xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<8x4xf32>, %b: memref<8x4xf32>):
  %c0 = arith.constant 0 : index
  %p = tile.program_id 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %i = tile.broadcast %z, dims = [] : f32 -> !tile.tile<8x4xf32>
  // expected-error@+1 {{'tile.for' op cannot lower to nki: a loop whose bounds are not constants}}
  %r = tile.for %c0 to %p step %c1 iter_args(%i : !tile.tile<8x4xf32>) -> !tile.tile<8x4xf32> {
  ^bb0(%k: index, %acc: !tile.tile<8x4xf32>):
    tile.yield %acc : !tile.tile<8x4xf32>
  }
  tile.store %r, %b[%c0, %c0] : !tile.tile<8x4xf32>, memref<8x4xf32>
  tile.return
}
// -----
tile.kernel @k grid = [1] {
^bb0(%a: memref<128x30000xf32>, %b: memref<128x30000xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : memref<128x30000xf32> -> !tile.tile<128x30000xf32>
  %u = tile.map %t : (!tile.tile<128x30000xf32>) -> !tile.tile<128x30000xf32> {
  ^bb0(%v: f32):
    // expected-error@+1 {{'nki.activation' op the tiles live here need 240000 bytes per partition of SBUF, more than trn1's 196608}}
    %e = math.exp %v : f32
    tile.yield %e : f32
  }
  tile.store %u, %b[%c0, %c0] : !tile.tile<128x30000xf32>, memref<128x30000xf32>
  tile.return
}
