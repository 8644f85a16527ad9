// tile-to-gpu{mma=amdgpu}: an f16 x f16 -> f32 tile.gemm runs on AMD matrix
// cores. With 4 wavefronts of 64 (256 threads) each owns a 16x16 block of
// the 32x32 accumulator and runs mfma 16x16x16, 4 f32 a lane; with one
// (64 threads) it owns all of it and runs 32x32x8, 16 a lane. Either way the
// accumulator stays in the mfma C/D layout across the K loop (allocated
// once, no shared memory nor barrier between the gemm and the store) and the
// epilogue (tanh, truncf, store) runs on it, each lane storing its own
// elements. Each lane reads its four halves of A and of B from the shared
// tiles (rows padded by 8 halves, 32x40) with plain loads: no ldmatrix, and
// no cp.async pipeline on AMD. An f32 gemm keeps the SIMT loops, and
// mma=true still means NVIDIA's tensor cores. aic-translate turns it on for
// AMD: gfx90a and gfx942 code has v_mfma.
// RUN: aic-opt %s --tile-to-gpu="threads=256 warp=64 mma=amdgpu" | FileCheck %s
// RUN: aic-opt %s --tile-to-gpu="threads=64 warp=64 mma=amdgpu" | FileCheck %s --check-prefix=W1
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s --check-prefix=NV
// RUN: aic-translate --target=amdgpu --arch=gfx90a --emit=asm %s -o - | FileCheck %s --check-prefix=GFX90A
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=asm %s -o - | FileCheck %s --check-prefix=GFX942

// CHECK-LABEL: gpu.kernel @gemm grid = [1, 1, 1] block = [256, 1, 1]
// CHECK: memref.alloca() : memref<4xf32>
// CHECK: scf.for
// CHECK: gpu.shared offset = 0 : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: gpu.shared offset = 2560 : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-COUNT-4: memref.load %{{.*}}[%{{.*}}] : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: %[[A:.*]] = vector.from_elements %{{.*}} : vector<4xf16>
// CHECK-COUNT-4: memref.load %{{.*}}[%{{.*}}] : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = vector.from_elements %{{.*}} : vector<4xf16>
// CHECK: %[[C:.*]] = vector.from_elements %{{.*}} : vector<4xf32>
// CHECK: amdgpu.mfma 16x16x16 %[[A]] * %[[B]] + %[[C]] blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
// CHECK: vector.extract %{{.*}}[3] : f32 from vector<4xf32>
// CHECK-NOT: amdgpu.mfma
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.shared
// CHECK: math.tanh
// CHECK: arith.truncf
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1024xf16>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
// CHECK-LABEL: gpu.kernel @gemm_f32
// CHECK-NOT: amdgpu
// CHECK: gpu.return

// W1-LABEL: gpu.kernel @gemm grid = [1, 1, 1] block = [64, 1, 1]
// W1: memref.alloca() : memref<16xf32>
// W1: amdgpu.mfma 32x32x8 %{{.*}} * %{{.*}} + %{{.*}} blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
// W1-NOT: amdgpu.mfma
// W1: math.tanh

// NV-NOT: amdgpu
// NV: nvgpu.mma.sync
// NV-NOT: amdgpu

// GFX90A: v_mfma_f32_16x16x16f16
// GFX942: v_mfma_f32_16x16x16_f16

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
