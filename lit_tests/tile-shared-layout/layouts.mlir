// tile-shared-layout{threads=T mma=M}: around the gemms whose types put
// them on matrix units (tile-mma-layout), the shared tiles they read get
// their stored layout written into the transfer's result type, and the K
// loops cp.async pipelines get `stages`. mma.sync's operands have rows
// padded by 8 halves for ldmatrix (padded<N + 8>); a pipelined B that
// memory holds contiguous along K is stored transposed (padded<K + 8,
// trans>); the one gemm of a pipelined loop on Hopper's warpgroup MMA reads
// A and B in wgmma's 128-byte swizzle (swizzle<3, 3, 3>, B transposed
// swizzle<3, 3, 3, trans>). The stages are the least depth a loop's
// transfers ask for. MFMA's operands are padded, never pipelined; a
// shared tile a gemm off matrix units reads keeps no layout; without
// matrix units nothing changes. tile-to-gpu follows the IR: run after the
// two layout passes it gives what it gives deciding them itself.
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" --tile-shared-layout="mma=nvgpu threads=128" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | FileCheck %s --check-prefix=WG
// RUN: aic-opt %s --tile-mma-layout="mma=amdgpu threads=128" --tile-shared-layout="mma=amdgpu threads=128" | FileCheck %s --check-prefix=AMD
// RUN: aic-opt %s --tile-mma-layout="mma=false threads=128" --tile-shared-layout="mma=false threads=128" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --tile-shared-layout="mma=nvgpu threads=128" | FileCheck %s --check-prefix=NONE
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | aic-opt | FileCheck %s --check-prefix=WG
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" --tile-shared-layout="mma=nvgpu threads=128" --tile-to-gpu="mma=nvgpu threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=nvgpu threads=128" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" --tile-to-gpu="mma=wgmma threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: aic-opt %s --tile-mma-layout="mma=amdgpu threads=128" --tile-shared-layout="mma=amdgpu threads=128" --tile-to-gpu="mma=amdgpu threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=amdgpu threads=128" -o %t.whole
// RUN: diff %t.split %t.whole

// CHECK-LABEL: tile.kernel @bt
// CHECK: tile.for {{.*}} -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>> stages = 3 {
// CHECK: tile.transfer %{{.*}} to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared, padded<72>>
// CHECK: tile.transfer %{{.*}} to shared depth = 4 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared, padded<72, trans>>
// CHECK-LABEL: tile.kernel @k32
// CHECK: tile.for {{.*}} stages = 2 {
// CHECK: -> !tile.tile<64x32xf16, shared, padded<40>>
// CHECK: -> !tile.tile<32x64xf16, shared, padded<72>>
// CHECK-LABEL: tile.kernel @once
// CHECK: %[[SA:.*]] = tile.transfer %{{.*}} -> !tile.tile<32x32xf16, shared, padded<40>>
// CHECK: %[[SF:.*]] = tile.transfer %{{.*}} -> !tile.tile<32x32xf32, shared>{{$}}
// CHECK: tile.gemm %[[SA]], %[[SA]]
// CHECK-NOT: stages

// WG-LABEL: tile.kernel @bt
// WG: tile.for {{.*}} -> !tile.tile<64x64xf32, wgmma<64, 64, 16>> stages = 3 {
// WG: -> !tile.tile<64x64xf16, shared, swizzle<3, 3, 3>>
// WG: -> !tile.tile<64x64xf16, shared, swizzle<3, 3, 3, trans>>
// WG-LABEL: tile.kernel @k32
// WG: tile.for {{.*}} -> !tile.tile<64x64xf32, mma<16, 8, 16, 2, 2>> stages = 2 {
// WG: -> !tile.tile<64x32xf16, shared, padded<40>>
// WG: -> !tile.tile<32x64xf16, shared, padded<72>>

// AMD-NOT: stages
// AMD-LABEL: tile.kernel @bt
// AMD: -> !tile.tile<64x64xf16, shared, padded<72>>
// AMD: -> !tile.tile<64x64xf16, shared, padded<72>>
// AMD-NOT: stages

// NONE-NOT: padded<
// NONE-NOT: swizzle<
// NONE-NOT: stages

// out = A B with B given as 64x128 (N x K), A's transfer 3 deep, B's 4.
tile.kernel @bt grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<64x128xf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[128, 64] | embed<8192: 1, 128> [0, 1] -> [0]> : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 4 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

// A K step of 32 keeps mma.sync under wgmma; 2 stages.
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
    %sa = tile.transfer %ta to shared depth = 2 : !tile.tile<64x32xf16> -> !tile.tile<64x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<128x64xf16> -> !tile.tile<32x64xf16>
    %sb = tile.transfer %tb to shared depth = 2 : !tile.tile<32x64xf16> -> !tile.tile<32x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x32xf16, shared>, !tile.tile<32x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

// No loop: padded, not staged; the f32 gemm's tile (off matrix units)
// keeps no layout.
tile.kernel @once grid = [1] {
^bb0(%a: memref<32x32xf16>, %f: memref<32x32xf32>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tf = tile.load %f[%c0, %c0] : memref<32x32xf32> -> !tile.tile<32x32xf32>
  %sf = tile.transfer %tf to shared depth = 1 : !tile.tile<32x32xf32> -> !tile.tile<32x32xf32, shared>
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %d = tile.gemm %sa, %sa, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %e = tile.gemm %sf, %sf, %d level = block : !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %e, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}
