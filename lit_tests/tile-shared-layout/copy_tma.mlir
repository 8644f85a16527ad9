// tile-shared-layout{copy=tma}: a pipelined K loop whose one gemm runs on
// wgmma and whose loads are boxes of 2-D tensors gets `copy = tma` (TMA
// fills its ring); a loop that keeps mma.sync (a K step of 32) does not,
// and without the option (or without wgmma) nothing says tma. tile-to-gpu
// follows the IR: its copy=tma gives what the two layout passes give, and
// lowers the loop to tensor maps, mbarriers and bulk tensor copies.
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128 copy=tma" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128 copy=tma" | aic-opt | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | FileCheck %s --check-prefix=OFF
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" --tile-shared-layout="mma=nvgpu threads=128 copy=tma" | FileCheck %s --check-prefix=OFF
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128 copy=tma" --tile-to-gpu="mma=wgmma threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128 copy=tma" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: FileCheck %s --check-prefix=GPU < %t.whole
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128 copy=tma_empty" | FileCheck %s --check-prefix=EMPTY
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128 copy=tma_ws persistent=1" | FileCheck %s --check-prefix=MARK
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128 copy=tma_ws persistent=1" | aic-opt | FileCheck %s --check-prefix=MARK
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128 copy=tma_ws" | FileCheck %s --check-prefix=WS
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128 warp=32 copy=tma_ws persistent=1" | FileCheck %s --check-prefix=PERSIST

// CHECK-LABEL: tile.kernel @bt
// CHECK: tile.for {{.*}} -> !tile.tile<64x64xf32, wgmma<64, 64, 16>> stages = 3 copy = tma {
// CHECK-LABEL: tile.kernel @k32
// CHECK: tile.for {{.*}} stages = 2 {
// OFF-NOT: copy = tma

// A's box is 64 rows of A (64 x 128, row-major), B's 64 columns of the N x K
// buffer (rows of K): 64 x 64 each, 128-byte swizzled; thread 0 makes the
// mbarriers, then starts stage 0 (3 stages: one ahead) expecting 16384 bytes.
// GPU-LABEL: gpu.kernel @bt
// GPU: %[[MA:.*]] = nvgpu.tma.create.descriptor %arg0 {globalShape = array<i64: 64, 128>, globalStrides = array<i64: 128, 1>} : memref<8192xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// GPU: %[[MB:.*]] = nvgpu.tma.create.descriptor %arg1 {globalShape = array<i64: 64, 128>, globalStrides = array<i64: 128, 1>}
// GPU: %[[BARS:.*]] = gpu.shared offset = {{[0-9]+}} : memref<3xi64, #gpu.address_space<workgroup>>
// GPU: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %{{.*}} : memref<3xi64, #gpu.address_space<workgroup>>
// GPU: gpu.barrier
// GPU: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%{{.*}}], %c16384
// GPU: nvgpu.tma.async.load %[[MA]][%{{.*}}, %{{.*}}], %[[BARS]][%{{.*}}] to %{{.*}}[%{{.*}}]
// GPU: nvgpu.tma.async.load %[[MB]][%{{.*}}, %{{.*}}], %[[BARS]][%{{.*}}] to %{{.*}}[%{{.*}}]
// GPU: scf.for
// GPU: nvgpu.mbarrier.try_wait.parity %[[BARS]][%{{.*}}], %{{.*}}, %{{.*}} : memref<3xi64, #gpu.address_space<workgroup>>
// GPU: gpu.barrier
// GPU: nvgpu.tma.async.load
// GPU: nvgpu.warpgroup.mma
// GPU-NOT: nvgpu.device_async_copy
// GPU-LABEL: gpu.kernel @k32
// GPU: nvgpu.device_async_copy

// tma_empty: 3 full and 3 empty mbarriers, the empty ones for the 4 warps;
// thread 0 waits on a stage's empty mbarrier before refilling it, lane 0
// of each warp arrives on it once the stage's wgmmas are done, and no
// block barrier runs in the loop.
// EMPTY-LABEL: gpu.kernel @bt
// EMPTY: %[[BARS:.*]] = gpu.shared offset = {{[0-9]+}} : memref<6xi64, #gpu.address_space<workgroup>>
// EMPTY-COUNT-3: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %c1
// EMPTY-COUNT-3: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %c4
// EMPTY: scf.for
// EMPTY: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// EMPTY-NOT: gpu.barrier
// EMPTY: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// EMPTY-NOT: gpu.barrier
// EMPTY: nvgpu.tma.async.load
// EMPTY-NOT: gpu.barrier
// EMPTY: nvgpu.warpgroup.mma
// EMPTY-NOT: gpu.barrier
// EMPTY: nvgpu.mbarrier.arrive %[[BARS]][%{{.*}}] : memref<6xi64, #gpu.address_space<workgroup>>
// EMPTY: scf.yield

// tma_ws: the loop is warp-specialised and, with persistent, the kernel
// runs on that many blocks (here 1 for @rows' 2 tiles); @k32 keeps cp.async.
// MARK-LABEL: tile.kernel @bt grid = [1] persistent = 1 {
// MARK: stages = 3 copy = tma_ws {
// MARK-LABEL: tile.kernel @k32 grid = [1] {
// MARK-LABEL: tile.kernel @rows grid = [2] persistent = 1 {
// MARK: stages = 3 copy = tma_ws {

// tma_ws: a producer warpgroup beyond the kernel's 128 threads. Thread 0
// makes 3 full and 3 empty mbarriers for the whole block, then the block
// splits: thread 128 alone (the producer's first) waits for each stage to
// be empty and copies into it; the consumers wait on full mbarriers, run
// the wgmmas and free each stage (lane 0 of each warp), the last one after
// the loop; no block barrier after the split. One consumer warpgroup keeps
// its registers (no setmaxregister).
// WS-LABEL: gpu.kernel @bt grid = [1, 1, 1] block = [256, 1, 1]
// WS: %[[TID:.*]] = gpu.thread_id x
// WS: %[[BARS:.*]] = gpu.shared offset = {{[0-9]+}} : memref<6xi64, #gpu.address_space<workgroup>>
// WS-COUNT-3: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %c1
// WS-COUNT-3: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %c4
// WS: gpu.barrier
// WS-NOT: nvvm.setmaxregister
// WS: %[[P:.*]] = arith.cmpi uge, %[[TID]], %c128
// WS-NEXT: scf.if %[[P]] {
// WS: %[[LEAD:.*]] = arith.cmpi eq, %[[TID]], %c128{{.*}} : index
// WS-NEXT: scf.if %[[LEAD]] {
// WS: nvgpu.tma.create.descriptor
// WS: scf.for
// WS: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// WS: nvgpu.mbarrier.arrive.expect_tx %[[BARS]]
// WS: nvgpu.tma.async.load
// WS: nvgpu.tma.async.load
// WS-NOT: nvgpu.warpgroup.mma
// WS: %[[C:.*]] = arith.cmpi ult, %[[TID]], %c128
// WS-NEXT: scf.if %[[C]] {
// WS-NOT: nvgpu.tma.async.load
// WS-NOT: gpu.barrier
// WS: scf.for
// WS: nvgpu.mbarrier.try_wait.parity %[[BARS]]
// WS: nvgpu.warpgroup.mma
// WS: nvgpu.mbarrier.arrive %[[BARS]]
// WS: scf.yield
// WS: nvvm.wgmma.wait.group.sync.aligned 0
// WS: nvgpu.mbarrier.arrive %[[BARS]]
// WS-NOT: gpu.barrier
// WS: gpu.return

// persistent = 1: one block takes both of @rows' tiles: the producer and
// the consumers each loop over them from the block's id in steps of 1, the
// program id (the tile) read from the loop; the epilogue's reduction meets
// on named barrier 1 of the 128 consumers.
// PERSIST-LABEL: gpu.kernel @rows grid = [1, 1, 1] block = [256, 1, 1]
// PERSIST: scf.if
// PERSIST: %[[PB:.*]] = gpu.block_id x
// PERSIST: scf.for %[[PT:.*]] = %[[PB]] to %c2{{(_[0-9]+)?}} step %c1
// PERSIST: nvgpu.tma.async.load
// PERSIST: scf.if
// PERSIST: %[[CB:.*]] = gpu.block_id x
// PERSIST: scf.for %[[CT:.*]] = %[[CB]] to %c2 step %c1
// PERSIST: nvgpu.warpgroup.mma
// PERSIST: nvvm.barrier id = %c1_i32{{.*}} number_of_threads = %c128_i32
// PERSIST-NOT: gpu.barrier
// PERSIST: gpu.return

// out = A B with B given as 64x128 (N x K).
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
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

// A K step of 32 keeps mma.sync under wgmma: no TMA.
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

// Row sums of A B, a 64-row block a tile: the epilogue's reduction
// exchanges through shared memory between barriers.
tile.kernel @rows grid = [2] {
^bb0(%a: memref<128x128xf16>, %b: memref<64x128xf16>, %out: memref<128xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %pid = tile.program_id 0 : index
  %row = arith.muli %pid, %c64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%row, %kk] : memref<128x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[128, 64] | embed<8192: 1, 128> [0, 1] -> [0]> : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %r = tile.reduce sum %acc, axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
  tile.store %r, %out[%row] : !tile.tile<64xf32>, memref<128xf32>
  tile.return
}
