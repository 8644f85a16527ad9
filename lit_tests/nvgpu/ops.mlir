// The nvgpu dialect: ldmatrix loads fragments of 8x8 matrices from shared
// memory, mma.sync multiplies them on tensor cores (upstream MLIR's names,
// attributes and fragment types; a flat buffer takes one index), and the
// vector ops build and take apart fragments. It round-trips, compiles to
// ldmatrix and mma.sync for NVIDIA (llc accepts the LLVM IR for sm_80), is
// emulated on the host (the warp's lanes exchange fragments through memory
// between barriers), and is an error on AMD.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST
// RUN: not aic-translate --target=amdgpu --emit=llvm-ir %s -o - 2>&1 | FileCheck %s --check-prefix=AMD

// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// HOST-NOT: llvm.nvvm
// HOST: call void @aic_host_barrier()
// HOST: inttoptr
// HOST: fmul
// HOST: call void @aic_host_barrier()
// AMD: 'nvgpu.ldmatrix' runs on NVIDIA tensor cores (--target=nvptx, or emulated on the host), not on amdgpu

// CHECK: gpu.kernel @mma grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
// CHECK: %[[A:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 4 : i32, transpose = false} : memref<256xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[B:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}] {numTiles = 2 : i32, transpose = true} : memref<128xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK: %[[C:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<2x2xf32>
// CHECK: %[[D:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %[[C]]) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: vector.extract %[[D]][1, 0] : f32 from vector<2x2xf32>
gpu.kernel @mma grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
^bb0(%out: memref<128xf32>):
  %t = gpu.thread_id x
  %sa = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  %sb = gpu.shared offset = 512 : memref<128xf16, #gpu.address_space<workgroup>>
  %a = nvgpu.ldmatrix %sa[%t] {numTiles = 4 : i32, transpose = false} : memref<256xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
  %b = nvgpu.ldmatrix %sb[%t] {numTiles = 2 : i32, transpose = true} : memref<128xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %x = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
  memref.store %x, %out[%t] : memref<128xf32>
  gpu.return
}
