// tile-to-gpu{mma=true}: an f16 x f16 -> f32 tile.gemm runs on tensor cores.
// The block's 4 warps each own a 16x16 block of the 32x32 accumulator, which
// they keep as mma fragments across the K loop; ldmatrix reads A (x4) and B
// (x4.trans) from shared tiles whose rows are padded by 8 halves (32x40);
// the epilogue (tanh, truncf) runs on the fragments, and the store goes
// through the shared rings, free after the loop, in 16-byte runs
// (mma_epilogue.mlir and staged_store.mlir have more). The two
// k16 steps of a K step are unrolled (2 x 2 mma.sync a warp). (depth = 1:
// copies are not pipelined; mma_pipeline.mlir has the
// cp.async pipeline.) An f32 gemm, or mma=false, keeps the SIMT loops. aic-translate
// turns it on for NVIDIA only (AMD gets MFMA: mfma.mlir): the PTX has ldmatrix and mma.sync, the host
// none.
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s
// RUN: aic-opt %s --tile-to-gpu | FileCheck %s --check-prefix=SIMT
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: gpu.kernel @gemm grid = [1, 1, 1] block = [128, 1, 1]
// CHECK: memref.alloca() : memref<8xf32>
// CHECK: scf.for
// CHECK: gpu.shared offset = 0 : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.shared offset = 2560 : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: scf.for
// CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<1280xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<1280xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: vector.from_elements %{{.*}} : vector<2x2xf16>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: vector.extract %{{.*}}[1, 1] : f32 from vector<2x2xf32>
// CHECK-COUNT-3: nvgpu.mma.sync
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.shared
// CHECK: math.tanh
// CHECK: arith.truncf
// CHECK: gpu.barrier
// CHECK: gpu.shared offset = 0 : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 4 : i64} : memref<1280xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK: gpu.barrier
// CHECK: vector.load
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// CHECK: gpu.barrier
// CHECK-NEXT: gpu.return
// CHECK-LABEL: gpu.kernel @gemm_f32
// CHECK-NOT: nvgpu
// CHECK: gpu.return

// SIMT-NOT: nvgpu
// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// HOST-NOT: mma
// HOST: define

tile.kernel @gemm grid = [1] {
^bb0(%a: memref<32x64xf16>, %b: memref<64x32xf16>, %out: memref<32x32xf16>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c64 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x64xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<64x32xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
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

tile.kernel @gemm_f32 grid = [1] {
^bb0(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf32> -> !tile.tile<32x32xf32>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf32> -> !tile.tile<32x32xf32, shared>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xf32> -> !tile.tile<32x32xf32>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf32> -> !tile.tile<32x32xf32, shared>
  %d = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %d, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}
