// tile-warp-rows{threads=T warp=W}: a row kernel whose blocked layout would
// spread a row over several warps gets its row tiles laid out a warp per
// row, warp_rows<lanes, run, warps>, written into every tile of the row
// tile's size (loads, maps, broadcasts back, stores); the reduced tiles
// keep no layout. Rows of 512 in blocks of 64 threads: two warps, runs of
// 8. Rows of 1024 two at a time go a warp each in blocks of 64 threads but
// keep the blocked layout in blocks of 128 (a row spans 128 threads, the
// block's warps do not divide the rows); without warps, or one thread,
// nothing changes. tile-to-gpu follows the layout: run after this pass it
// gives what it gives deciding the layout itself.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-warp-rows="threads=64 warp=32" | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-warp-rows="threads=128 warp=32" | FileCheck %s --check-prefix=T128
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-warp-rows="threads=128 warp=0" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-warp-rows="threads=1 warp=32" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-warp-rows="threads=64 warp=32" --tile-to-gpu="threads=64 warp=32" -o %t.split
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu="threads=64 warp=32" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: not aic-opt %s --eqsat-fusion --fusion-to-tile --tile-warp-rows="threads=64 warp=32" --tile-to-gpu="threads=128 warp=32" 2>&1 | FileCheck %s --check-prefix=MISFIT

// CHECK-LABEL: tile.kernel @rows_0 grid = [2] {
// CHECK: tile.load %{{.*}} : memref<8x512xf32> -> !tile.tile<4x512xf32, warp_rows<32, 8, 2>>
// CHECK: tile.reduce max %{{.*}}, axis = 1 : !tile.tile<4x512xf32, warp_rows<32, 8, 2>> -> !tile.tile<4xf32>
// CHECK: tile.map %{{.*}} : (!tile.tile<4xf32>) -> !tile.tile<4xf32> {
// CHECK: tile.broadcast %{{.*}}, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x512xf32, warp_rows<32, 8, 2>>
// CHECK: tile.store %{{.*}} : !tile.tile<4x512xf32, warp_rows<32, 8, 2>>, memref<8x512xf32>
// CHECK-LABEL: tile.kernel @rows_1 grid = [2048] {
// CHECK: tile.load %{{.*}} : memref<4096x1024xf16> -> !tile.tile<2x1024xf16, warp_rows<32, 8, 2>>
// CHECK: tile.map %{{.*}} : (!tile.tile<2x1024xf16, warp_rows<32, 8, 2>>) -> !tile.tile<2x1024xf32, warp_rows<32, 8, 2>> {
// CHECK: tile.store %{{.*}} : !tile.tile<2x1024xf16, warp_rows<32, 8, 2>>, memref<4096x1024xf16>

// T128-LABEL: tile.kernel @rows_0 grid = [2] {
// T128: tile.load %{{.*}} : memref<8x512xf32> -> !tile.tile<4x512xf32, warp_rows<32, 8, 4>>
// T128-LABEL: tile.kernel @rows_1 grid = [2048] {
// T128-NOT: warp_rows
// T128: tile.return

// NONE-NOT: warp_rows

// MISFIT: error: 'tile.load' op tile-to-gpu: warp_rows<32, 8, 2> does not fit blocks of 128 threads in warps of 32 (runs of 8)
func.func @softmax(%x: tensor<8x512xf32>, %z: tensor<4096x1024xf16>) -> (tensor<8x512xf32>, tensor<4096x1024xf16>) {
  %y = graph.softmax %x, axis = 1 : tensor<8x512xf32>
  %w = graph.softmax %z, axis = 1 : tensor<4096x1024xf16>
  return %y, %w : tensor<8x512xf32>, tensor<4096x1024xf16>
}
