// tile-mma-layout{threads=T mma=M}: the gemms matrix units run get their
// accumulator's fragment layout written into the types of the whole
// accumulator chain: the loop's start (a scalar broadcast takes it
// itself), carried value (block argument and result) and the gemm's
// result. mma.sync by a 2x2 grid of warps is mma<16, 8, 16, 2, 2>; the one
// gemm of a pipelined loop with a K step of 64 on Hopper's warpgroup MMA is
// wgmma<64, 64, 16> (a K step of 32 keeps mma.sync); MFMA's 32x32x8 tiles
// by 1x2 wavefronts mma<32, 32, 8, 1, 2>; without matrix units nothing
// changes. A gemm accumulating onto another's result in the same layout
// reads it as it is (one in another layout would read it through a
// tile.convert_layout). tile-to-gpu follows the layouts: run after this
// pass it gives what it gives deciding them itself; a layout that does not
// fit its blocks is an error.
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" | FileCheck %s --check-prefix=WG
// RUN: aic-opt %s --tile-mma-layout="mma=amdgpu threads=128" | FileCheck %s --check-prefix=AMD
// RUN: aic-opt %s --tile-mma-layout="mma=false threads=128" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" | aic-opt | FileCheck %s --check-prefix=WG
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-to-gpu="mma=wgmma threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: aic-opt %s --tile-mma-layout="mma=amdgpu threads=128" --tile-to-gpu="mma=amdgpu threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=amdgpu threads=128" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: not aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" --tile-to-gpu="mma=nvgpu threads=256" 2>&1 | FileCheck %s --check-prefix=MISFIT

// CHECK-LABEL: tile.kernel @k64
// CHECK: tile.broadcast %{{.*}} : f32 -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>
// CHECK: tile.for {{.*}} iter_args(%{{.*}} : !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>) -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>> {
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>):
// CHECK: tile.gemm {{.*}} !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>> -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>
// CHECK: tile.store %{{.*}} : !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>, memref<64x64xf32>
// CHECK-LABEL: tile.kernel @k32
// CHECK: tile.gemm {{.*}} -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>
// CHECK-LABEL: tile.kernel @chained
// CHECK: %[[FIRST:.*]] = tile.gemm {{.*}} -> !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %[[FIRST]] {{.*}} -> !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>

// WG-LABEL: tile.kernel @k64
// WG: tile.broadcast %{{.*}} : f32 -> !tile.tile<64x64xf32, wgmma<64, 64, 16>>
// WG: tile.gemm {{.*}} -> !tile.tile<64x64xf32, wgmma<64, 64, 16>>
// WG-LABEL: tile.kernel @k32
// WG: tile.gemm {{.*}} -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>

// AMD-LABEL: tile.kernel @k64
// AMD: tile.gemm {{.*}} -> !tile.tile<64x64xf32, mma<32, 32, 8, 1, 2>>

// NONE-NOT: mma<
// NONE-NOT: wgmma<

// MISFIT: error: 'tile.gemm' op tile-to-gpu: the gemm's layout (!tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>>) does not fit this gemm on these matrix units in blocks of 256 threads

tile.kernel @k64 grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<64x64xf32>):
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
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

tile.kernel @k32 grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<128x64xf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c32 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x32xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x32xf16> -> !tile.tile<64x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<128x64xf16> -> !tile.tile<32x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<32x64xf16> -> !tile.tile<32x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x32xf16, shared>, !tile.tile<32x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

tile.kernel @chained grid = [1] {
^bb0(%a: memref<32x32xf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %d = tile.gemm %sa, %sa, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %e = tile.gemm %sa, %sa, %d level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %e, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}
