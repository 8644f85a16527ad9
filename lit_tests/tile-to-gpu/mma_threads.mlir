// A tile kernel's own `threads` (fusion-to-tile's choice for its tiles)
// overrides tile-to-gpu's option: @wide runs in blocks of 256 threads, its
// 64 x 128 accumulator over 2 x 4 warps of 32 x 32 (2 m16 x 4 n8 tiles,
// 32 slots a lane), its pipelined copies 2 and 1 chunks a thread; @narrow
// keeps the option's 128.
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.kernel @wide grid = [1, 1, 1] block = [256, 1, 1]
// CHECK: memref.alloca() : memref<32xf32>
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.device_async_create_group
// CHECK: scf.for
// CHECK-COUNT-2: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-2: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK-COUNT-8: nvgpu.mma.sync
// CHECK-LABEL: gpu.kernel @narrow grid = [1, 1, 1] block = [128, 1, 1]

// PTX-LABEL: .entry wide
// PTX: .reqntid 256, 1, 1
// PTX: cp.async.cg.shared.global
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: .entry narrow
// PTX: .reqntid 128, 1, 1

tile.kernel @wide grid = [1] threads = 256 {
^bb0(%a: memref<64x64xf16>, %b: memref<64x128xf16>, %out: memref<64x128xf32>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x128xf32>
  %acc = tile.for %c0 to %c64 step %c32 iter_args(%init : !tile.tile<64x128xf32>) -> !tile.tile<64x128xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x128xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x64xf16> -> !tile.tile<64x32xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x32xf16> -> !tile.tile<64x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<64x128xf16> -> !tile.tile<32x128xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<32x128xf16> -> !tile.tile<32x128xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x32xf16, shared>, !tile.tile<32x128xf16, shared>, !tile.tile<64x128xf32> -> !tile.tile<64x128xf32>
    tile.yield %d : !tile.tile<64x128xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x128xf32>, memref<64x128xf32>
  tile.return
}

tile.kernel @narrow grid = [1] {
^bb0(%x: memref<256xf32>, %y: memref<256xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : memref<256xf32> -> !tile.tile<256xf32>
  tile.store %t, %y[%c0] : !tile.tile<256xf32>, memref<256xf32>
  tile.return
}
