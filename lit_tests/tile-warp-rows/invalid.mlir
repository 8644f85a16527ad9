// Warp rows tile-to-gpu cannot follow are errors naming why: a tile of the
// row tile's size laid out otherwise (maps read their operands' slots as
// their own), warp rows in a kernel with a gemm.
// RUN: not aic-opt %s --split-input-file --tile-to-gpu="threads=64 warp=32" 2>&1 | FileCheck %s

// CHECK: error: 'tile.load' op tile-to-gpu: a tile of [4, 512] laid out otherwise beside warp rows of [4, 512]: every tile of 2048 elements must be laid out alike
tile.kernel @mixed grid = [1] {
^bb0(%x: memref<4x512xf32>, %y: memref<4x512xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<4x512xf32> -> !tile.tile<4x512xf32, warp_rows<32, 8, 2>>
  %u = tile.load %y[%c0, %c0] : memref<4x512xf32> -> !tile.tile<4x512xf32>
  %d = tile.map %t, %u : (!tile.tile<4x512xf32, warp_rows<32, 8, 2>>, !tile.tile<4x512xf32>) -> !tile.tile<4x512xf32, warp_rows<32, 8, 2>> {
  ^bb0(%v: f32, %w: f32):
    %q = arith.addf %v, %w : f32
    tile.yield %q : f32
  }
  tile.store %d, %y[%c0, %c0] : !tile.tile<4x512xf32, warp_rows<32, 8, 2>>, memref<4x512xf32>
  tile.return
}

// -----

// CHECK: error: 'tile.broadcast' op tile-to-gpu: warp rows in a kernel with loops, gemms or shared tiles
tile.kernel @gemm grid = [1] {
^bb0(%x: memref<64x64xf32>, %w: memref<64x256xf32>, %y: memref<64x256xf32>):
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : memref<64x64xf32> -> !tile.tile<64x64xf32>
  %b = tile.load %w[%c0, %c0] : memref<64x256xf32> -> !tile.tile<64x256xf32>
  %z = arith.constant 0.0 : f32
  %acc = tile.broadcast %z, dims = [] : f32 -> !tile.tile<64x256xf32, warp_rows<32, 8, 2>>
  %r = tile.gemm %a, %b, %acc level = block : !tile.tile<64x64xf32>, !tile.tile<64x256xf32>, !tile.tile<64x256xf32, warp_rows<32, 8, 2>> -> !tile.tile<64x256xf32, warp_rows<32, 8, 2>>
  tile.store %r, %y[%c0, %c0] : !tile.tile<64x256xf32, warp_rows<32, 8, 2>>, memref<64x256xf32>
  tile.return
}
