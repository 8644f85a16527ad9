// tile-to-gpu{mma=true}: the epilogue of a tensor-core gemm runs on the
// accumulator's fragments. Maps whose tile operands are fragments of one
// layout, or values computable at any element (loads and valids of the
// same shape, broadcast scalars, maps of those), give fragments; the lane
// computes each of its slots at the slot's (row, col): the bias (a row
// vector loaded through a broadcasting descriptor) and the residual are
// loaded there, not in the blocked layout first: no shared round trip
// and no barrier between the last mma.sync and the epilogue's arithmetic.
// The store of the result then goes through shared memory in 16-byte
// runs, masked (staged_store.mlir). An op that is not a map or a
// store (a reduction) still reads the accumulator in the blocked layout
// through shared memory. (The K step's two k16 steps are unrolled: 2 x 2
// mma.sync a warp.)
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-opt %s --tile-to-gpu | FileCheck %s --check-prefix=SIMT

// CHECK-LABEL: gpu.kernel @gemm_bias_add
// CHECK-NOT: ] : memref<32xf16>
// CHECK-COUNT-4: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.shared
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<32xf16>
// CHECK: arith.extf
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<1024xf16>
// CHECK: arith.addf
// CHECK: math.tanh
// CHECK: arith.truncf
// CHECK: gpu.barrier
// CHECK: gpu.shared offset = 0
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// CHECK: gpu.return

// The row sums read the scaled accumulator in the blocked layout.
// CHECK-LABEL: gpu.kernel @gemm_rowsum
// CHECK: nvgpu.mma.sync
// CHECK: arith.mulf
// CHECK: gpu.shared
// CHECK: gpu.barrier
// CHECK: gpu.return

// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: bar.sync
// PTX: div.rn.f32
// PTX: bar.sync
// PTX: st.shared.b32
// PTX: bar.sync
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32
// PTX: ret;
// PTX: .entry gemm_rowsum
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: bar.sync

// SIMT-NOT: nvgpu

// out = tanh(A B + bias[col] + res) as f16.
tile.kernel @gemm_bias_add grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %bias: memref<32xf16>, %res: memref<32x32xf16>, %out: memref<32x32xf16>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c32 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  %bt = tile.load %bias[%c0, %c0] through #coord.desc<[32, 32] | broadcast [0] -> [], pass [1] -> [0]> : memref<32xf16> -> !tile.tile<32x32xf16>
  %bf = tile.map %bt : (!tile.tile<32x32xf16>) -> !tile.tile<32x32xf32> {
  ^bb0(%x: f16):
    %e = arith.extf %x : f16 to f32
    tile.yield %e : f32
  }
  %rt = tile.load %res[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %y = tile.map %acc, %bf, %rt : (!tile.tile<32x32xf32>, !tile.tile<32x32xf32>, !tile.tile<32x32xf16>) -> !tile.tile<32x32xf32> {
  ^bb0(%x: f32, %p: f32, %r: f16):
    %re = arith.extf %r : f16 to f32
    %s = arith.addf %x, %p : f32
    %s2 = arith.addf %s, %re : f32
    tile.yield %s2 : f32
  }
  %g = tile.map %y : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = math.tanh %x : f32
    %h = arith.truncf %t : f32 to f16
    tile.yield %h : f16
  }
  tile.store %g, %out[%c0, %c0] : !tile.tile<32x32xf16>, memref<32x32xf16>
  tile.return
}

// out[i] = sum_j 2 (A B)[i, j].
tile.kernel @gemm_rowsum grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<32xf32>):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %d = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %tw = tile.broadcast %two, dims = [] : f32 -> !tile.tile<32x32xf32>
  %s = tile.map %d, %tw : (!tile.tile<32x32xf32>, !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%x: f32, %w: f32):
    %m = arith.mulf %x, %w : f32
    tile.yield %m : f32
  }
  %r = tile.reduce sum %s, axis = 1 : !tile.tile<32x32xf32> -> !tile.tile<32xf32>
  tile.store %r, %out[%c0] : !tile.tile<32xf32>, memref<32xf32>
  tile.return
}
