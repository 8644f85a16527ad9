// tile-to-gpu{mma=wgmma} runs the one gemm of a cp.async-pipelined K loop
// on Hopper's warpgroup MMA where it qualifies: a warpgroup (128 threads)
// per 64 rows, A and B left in shared rings in the 128-byte-swizzled
// layout (no padding; each ring 1024-byte aligned, chunk c of a 128-byte
// line at c ^ line % 8), read through descriptors (stride byte offset
// 1024). One stage is copied before the loop (depth 3 keeps depth - 2
// ahead); iteration i waits for its stage (numGroups = depth - 3),
// fences the copies for the async proxy, syncs, starts iteration i + 1's
// copies, issues its four k16 steps (m64n64k16) as one wgmma group and
// waits until at most that group is in flight; the accumulator is a
// vector carried through the loop and settled by a wait for all groups
// after it. B read through a transposing descriptor (contiguous along K)
// is K-major; a row-major B is N-major (transposeB, 64-column atoms K x
// 128 bytes apart).
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90a %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=SM90
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" | not aic-translate --target=nvptx --arch=sm_90 --emit=asm - -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: gpu.kernel @gemm_bt grid = [1, 1, 1] block = [128, 1, 1] shared = 49152
// CHECK: %[[SA:.*]] = gpu.shared offset = 0 : memref<12288xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = gpu.shared offset = 24576 : memref<12288xf16, #gpu.address_space<workgroup>>
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SA]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SB]][%{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK: %[[G0:.*]] = nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_create_group
// CHECK: %[[V0:.*]] = vector.from_elements {{.*}} : vector<32xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[V:.*]] = %[[V0]], %[[T:.*]] = %[[G0]]) -> (vector<32xf32>, !nvgpu.device.async.token) {
// CHECK-NEXT: nvgpu.device_async_wait %[[T]] {numGroups = 0 : i32}
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %[[SA]][%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %[[SB]][%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
// CHECK: %[[D1:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[V]] : vector<32xf32> -> vector<32xf32>
// CHECK: %[[D2:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D1]] : vector<32xf32> -> vector<32xf32>
// CHECK: %[[D3:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D2]] : vector<32xf32> -> vector<32xf32>
// CHECK: %[[D4:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D3]] : vector<32xf32> -> vector<32xf32>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT: scf.yield %[[D4]], %[[G]] : vector<32xf32>, !nvgpu.device.async.token
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK: vector.extract
// CHECK: math.tanh
// CHECK-LABEL: gpu.kernel @gemm_b
// CHECK: nvgpu.warpgroup.generate.descriptor %{{.*}}[%{{.*}}] {leadingByteOffset = 8192 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
// CHECK: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {transposeB} : vector<32xf32> -> vector<32xf32>
// CHECK-LABEL: gpu.kernel @k32
// CHECK-NOT: nvgpu.warpgroup.mma
// CHECK: nvgpu.mma.sync

// PTX: .extern .shared .align 1024 .b8 aic_shared[];
// PTX: cp.async.wait_group 0;
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NEXT: bar.sync 0;
// PTX: wgmma.fence.sync.aligned;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;

// sm_90 has no wgmma: the default pipeline keeps mma.sync there, and
// wgmma ops are an error.
// SM90-NOT: wgmma
// SM90: mma.sync.aligned.m16n8k16
// ERR: 'nvvm.wgmma.fence.aligned' needs --arch=sm_90a, not sm_90

// out = tanh(A B) with B given as 64x128 (N x K).
tile.kernel @gemm_bt grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<64x128xf16>, %out: memref<64x64xf16>):
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
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %g = tile.map %acc : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
  ^bb0(%x: f32):
    %t = math.tanh %x : f32
    %h = arith.truncf %t : f32 to f16
    tile.yield %h : f16
  }
  tile.store %g, %out[%c0, %c0] : !tile.tile<64x64xf16>, memref<64x64xf16>
  tile.return
}

// out = A B with B given as 128x64 (K x N).
tile.kernel @gemm_b grid = [1] {
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

// A K step of 32 (not a 128-byte swizzled line) keeps mma.sync.
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
