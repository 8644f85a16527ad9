// tile-shared-layout{threads=T mma=M}: a store of a tensor-core
// accumulator (mma.sync's or wgmma's fragments, or an epilogue's maps of
// them) after the K loops gets `staged` where memory takes 16-byte runs
// along the tile's rows (a row-major result, or heads split off the
// columns), the origin there is a multiple of the run, the rings of the
// finished loops are free and hold the staging tile: tile-to-gpu then
// copies it through them in whole runs (tile-to-gpu/staged_store.mlir).
// A tile transferred outside any loop frees its region after its last
// reader (an attention's Q after its key loop). Through a transposing
// view, before a shared tile's last reader, on AMD's matrix cores or
// without matrix units nothing is staged.
// tile-to-gpu follows the IR: run after the layout passes it gives what it
// gives deciding them itself.
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" --tile-shared-layout="mma=nvgpu threads=128" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=amdgpu threads=128" --tile-shared-layout="mma=amdgpu threads=128" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --tile-mma-layout="mma=false threads=128" --tile-shared-layout="mma=false threads=128" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | aic-opt | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" --tile-to-gpu="mma=wgmma threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" -o %t.whole
// RUN: diff %t.split %t.whole

// CHECK-LABEL: tile.kernel @rows
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] staged : !tile.tile<64x64xf16>, memref<64x64xf16>
// CHECK-LABEL: tile.kernel @heads
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] through #coord.desc<{{.*}}> staged : !tile.tile<64x64xf16>, memref<2x64x32xf16>
// CHECK-LABEL: tile.kernel @transposed
// CHECK-NOT: staged
// CHECK-LABEL: tile.kernel @once
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] staged : !tile.tile<64x64xf16>, memref<64x64xf16>
// CHECK-LABEL: tile.kernel @reread
// CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !tile.tile<64x64xf16>, memref<64x64xf16>
// CHECK: tile.gemm

// NONE-NOT: staged

// A 64x64 product in f16, row-major.
tile.kernel @rows grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<64x64xf16>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<128x64xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %h = tile.map %acc : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] : !tile.tile<64x64xf16>, memref<64x64xf16>
  tile.return
}

// Stored as [2 heads, 64 rows, 32]: columns split into heads.
tile.kernel @heads grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<2x64x32xf16>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<128x64xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %h = tile.map %acc : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] through #coord.desc<[64, 64] | pass [0] -> [0], merge<2, 32> [1] -> [1, 2] | embed<4096: 32, 2048, 1> [0, 1, 2] -> [0]> : !tile.tile<64x64xf16>, memref<2x64x32xf16>
  tile.return
}

// Stored transposed: the columns 64 elements apart.
tile.kernel @transposed grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<64x64xf16>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<128x64xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %h = tile.map %acc : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] through #coord.desc<[64, 64] | embed<4096: 1, 64> [0, 1] -> [0]> : !tile.tile<64x64xf16>, memref<64x64xf16>
  tile.return
}

// A and B transferred once, outside any loop, and read before the store.
tile.kernel @once grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<64x64xf16>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : memref<64x128xf16> -> !tile.tile<64x64xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<128x64xf16> -> !tile.tile<64x64xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
  %acc = tile.gemm %sa, %sb, %init level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
  %h = tile.map %acc : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] : !tile.tile<64x64xf16>, memref<64x64xf16>
  tile.return
}

// A and B read again after the first store: their regions are in use.
tile.kernel @reread grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<64x64xf16>, %out2: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %ta = tile.load %a[%c0, %c0] : memref<64x128xf16> -> !tile.tile<64x64xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<128x64xf16> -> !tile.tile<64x64xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
  %acc = tile.gemm %sa, %sb, %init level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
  %h = tile.map %acc : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] : !tile.tile<64x64xf16>, memref<64x64xf16>
  %e = tile.gemm %sa, %sb, %acc level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
  tile.store %e, %out2[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

