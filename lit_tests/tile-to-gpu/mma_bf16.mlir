// tile-to-gpu{mma=true}: a bf16 x bf16 -> f32 tile.gemm runs on tensor cores
// as an f16 one does (mma.mlir): the same ldmatrix fragments, of bf16, and
// mma.sync's .bf16 form. With mma=wgmma the pipelined loop's gemm runs on
// warpgroup MMA's .bf16 form (abType = bf16; wgmma.mlir has the f16 one).
// A gemm mixing f16 and bf16 keeps the SIMT loops.
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma threads=128" | FileCheck %s --check-prefix=WG
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90a %t.ll -o - | FileCheck %s --check-prefix=PTX90A

// CHECK-LABEL: gpu.kernel @gemm
// CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<1280xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<1280xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-LABEL: gpu.kernel @wide
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-LABEL: gpu.kernel @mixed
// CHECK-NOT: nvgpu
// CHECK: gpu.return

// WG-LABEL: gpu.kernel @wide
// WG: nvgpu.warpgroup.generate.descriptor %{{.*}}[%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>> -> i64
// WG: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {abType = bf16, transposeB} : vector<32xf32> -> vector<32xf32>

// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX90A: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16

tile.kernel @gemm grid = [1] {
^bb0(%a: memref<32x64xbf16>, %b: memref<64x32xbf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c64 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x64xbf16> -> !tile.tile<32x32xbf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xbf16> -> !tile.tile<32x32xbf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<64x32xbf16> -> !tile.tile<32x32xbf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xbf16> -> !tile.tile<32x32xbf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xbf16, shared>, !tile.tile<32x32xbf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// out = A B, pipelined in 3 stages: wgmma's shape under mma=wgmma.
tile.kernel @wide grid = [1] {
^bb0(%a: memref<64x128xbf16>, %b: memref<128x64xbf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xbf16> -> !tile.tile<64x64xbf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xbf16> -> !tile.tile<64x64xbf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<128x64xbf16> -> !tile.tile<64x64xbf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xbf16> -> !tile.tile<64x64xbf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xbf16, shared>, !tile.tile<64x64xbf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

tile.kernel @mixed grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xbf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xbf16> -> !tile.tile<32x32xbf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xbf16> -> !tile.tile<32x32xbf16, shared>
  %d = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xbf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %d, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}
