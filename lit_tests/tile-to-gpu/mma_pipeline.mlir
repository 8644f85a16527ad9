// tile-to-gpu{mma=true} pipelines a K loop of tensor-core gemms whose
// operands it loads itself (depth = 3): each transfer gets a ring of 3
// padded shared buffers, filled by 16-byte cp.async copies
// (nvgpu.device_async_copy, 8 halves, zero-filling where the chunk is
// outside the buffer or past the last iteration). Two groups start before
// the loop. A loop of one gemm loads its fragments a k16 step ahead: before
// the loop the block waits for stage 0 (at most one younger group in
// flight), syncs, starts iteration 2's copies and loads stage 0's first
// fragments; iteration i runs its first mma.sync on the fragments carried
// in, and before its last one waits for stage i + 1, syncs, starts the
// copies for iteration i + 3 (into the buffer stage i has finished with)
// and loads stage i + 1's first fragments. B read through a transposing
// descriptor (contiguous along K) is stored N x K and read by ldmatrix
// without .trans; a row-major B keeps ldmatrix.trans.
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-opt %s --tile-to-gpu | FileCheck %s --check-prefix=SIMT

// A: 3 x 32 rows x 40 halves; B^T: 3 x 32 columns x 40; no scratch, the
// epilogue runs on the accumulator's fragments.
// CHECK-LABEL: gpu.kernel @gemm_bt grid = [1, 1, 1] block = [128, 1, 1] shared = 15360
// CHECK: %[[SA:.*]] = gpu.shared offset = 0 : memref<3840xf16, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = gpu.shared offset = 7680 : memref<3840xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SA]][%{{.*}}], 8, %{{.*}} {bypassL1} : memref<2048xf16> to memref<3840xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SB]][%{{.*}}], 8, %{{.*}} {bypassL1} : memref<2048xf16> to memref<3840xf16, #gpu.address_space<workgroup>>
// CHECK: %[[G0:.*]] = nvgpu.device_async_create_group
// CHECK: %[[G1:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[G1]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[G2:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.ldmatrix %[[SA]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[SB]][%{{.*}}] {numTiles = 4 : i32, transpose = false}
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[T:.*]] = %[[G2]]) -> (!nvgpu.device.async.token) {
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[SA]]
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.mma.sync
// CHECK: nvgpu.device_async_wait %[[T]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.ldmatrix %[[SA]]
// CHECK: nvgpu.mma.sync
// CHECK: scf.yield %[[G]] : !nvgpu.device.async.token
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK: math.tanh
// CHECK-LABEL: gpu.kernel @gemm_b
// CHECK: nvgpu.device_async_copy
// CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 4 : i32, transpose = true}

// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group {{.*}}1;
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SIMT-NOT: nvgpu

// out = tanh(A B) with B given as 32x64 (N x K).
tile.kernel @gemm_bt grid = [1] {
^bb0(%a: memref<32x64xf16>, %b: memref<32x64xf16>, %out: memref<32x32xf16>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c64 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x64xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[64, 32] | embed<2048: 1, 64> [0, 1] -> [0]> : memref<32x64xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  %g = tile.map %acc : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = math.tanh %x : f32
    %h = arith.truncf %t : f32 to f16
    tile.yield %h : f16
  }
  tile.store %g, %out[%c0, %c0] : !tile.tile<32x32xf16>, memref<32x32xf16>
  tile.return
}

tile.kernel @gemm_b grid = [1] {
^bb0(%a: memref<32x64xf16>, %b: memref<64x32xf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c64 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x64xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 2 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<64x32xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 2 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}
