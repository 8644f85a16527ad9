// tile-to-gpu{mma=wgmma} runs an fp8 gemm (f8E4M3FN / f8E5M2 A and B, f32
// accumulator) on wgmma's k32 form where B is K-major (read through a
// transposing descriptor: memory contiguous along K, an N x K buffer):
// A's and B's byte tiles are staged by 16-byte cp.async copies (16
// elements each) into rings in the 128-byte swizzle of 8-bit elements
// (swizzle<3, 4, 3>: 128-element lines, 16-element units), each K step of
// 128 four m64n64k32 wgmmas naming A's format and B's where it differs.
// B N-major (a K x N buffer) has no 8-bit wgmma (PTX's 8-bit forms take
// no transpose): that gemm keeps mma.sync, its K loop a cp.async pipeline
// whose rings its fragments are gathered from (its fp8 form makes the
// module PTX ISA 8.4; wgmma e4m3 alone needs 8.0).
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | FileCheck %s --check-prefix=LAYOUT
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" --tile-to-gpu="mma=wgmma threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// LAYOUT-LABEL: tile.kernel @fp8_bt
// LAYOUT: tile.for {{.*}} stages = 3
// LAYOUT: tile.transfer {{.*}} -> !tile.tile<64x128xf8E4M3FN, shared, swizzle<3, 4, 3>>
// LAYOUT: tile.transfer {{.*}} -> !tile.tile<128x64xf8E5M2, shared, swizzle<3, 4, 3, trans>>
// LAYOUT: tile.gemm {{.*}} -> !tile.tile<64x64xf32, wgmma<64, 64, 16>>
// LAYOUT-LABEL: tile.kernel @fp8_b
// LAYOUT-NOT: swizzle
// LAYOUT: tile.for {{.*}} stages = 3
// LAYOUT-NOT: swizzle
// LAYOUT: tile.gemm {{.*}} -> !tile.tile<64x64xf32, mma<16, 8, 32, {{.*}}>>

// CHECK-LABEL: gpu.kernel @fp8_bt grid = [1, 1, 1] block = [128, 1, 1] shared = 49152
// CHECK: %[[SA:.*]] = gpu.shared offset = 0 : memref<24576xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = gpu.shared offset = 24576 : memref<24576xf8E5M2, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SA]][%{{.*}}], 16, %{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SB]][%{{.*}}], 16, %{{.*}} {bypassL1}
// CHECK: scf.for
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %[[SA]][%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %[[SB]][%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
// CHECK: %[[D1:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %{{.*}} {abType = f8E4M3FN, bType = f8E5M2} : vector<32xf32> -> vector<32xf32>
// CHECK: %[[D2:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D1]] {abType = f8E4M3FN, bType = f8E5M2}
// CHECK: %[[D3:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D2]] {abType = f8E4M3FN, bType = f8E5M2}
// CHECK: %[[D4:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D3]] {abType = f8E4M3FN, bType = f8E5M2}
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-LABEL: gpu.kernel @fp8_b
// CHECK-NOT: nvgpu.warpgroup.mma
// CHECK: nvgpu.device_async_copy
// CHECK-NOT: nvgpu.warpgroup.mma
// CHECK: nvgpu.mma.sync

// PTX: .version 8.4
// PTX-LABEL: .entry fp8_bt(
// PTX: cp.async.cg.shared.global [%rd{{.*}}], [%rd{{[0-9]+}}], 16, {{.*}};
// PTX: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// PTX-LABEL: .entry fp8_b(
// PTX-NOT: wgmma
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32

// out = A B with B given as 64x256 (N x K).
tile.kernel @fp8_bt grid = [1] {
^bb0(%a: memref<64x256xf8E4M3FN>, %b: memref<64x256xf8E5M2>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c256 step %c128 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x256xf8E4M3FN> -> !tile.tile<64x128xf8E4M3FN>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x128xf8E4M3FN> -> !tile.tile<64x128xf8E4M3FN, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[256, 64] | embed<16384: 1, 256> [0, 1] -> [0]> : memref<64x256xf8E5M2> -> !tile.tile<128x64xf8E5M2>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<128x64xf8E5M2> -> !tile.tile<128x64xf8E5M2, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x128xf8E4M3FN, shared>, !tile.tile<128x64xf8E5M2, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

// out = A B with B given as 256x64 (K x N): N-major, no 8-bit wgmma.
tile.kernel @fp8_b grid = [1] {
^bb0(%a: memref<64x256xf8E4M3FN>, %b: memref<256x64xf8E4M3FN>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c256 step %c128 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x256xf8E4M3FN> -> !tile.tile<64x128xf8E4M3FN>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x128xf8E4M3FN> -> !tile.tile<64x128xf8E4M3FN, shared>
    %tb = tile.load %b[%kk, %c0] : memref<256x64xf8E4M3FN> -> !tile.tile<128x64xf8E4M3FN>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<128x64xf8E4M3FN> -> !tile.tile<128x64xf8E4M3FN, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x128xf8E4M3FN, shared>, !tile.tile<128x64xf8E4M3FN, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}
