// amdgpu.mfma in a kernel: on AMDGPU the llvm.amdgcn.mfma intrinsic of its
// shape (no lane broadcasts: cbsz, abid, blgp 0), v_mfma in the code; on the
// host an emulation through memory between two barriers (no intrinsic); on
// NVIDIA an error.
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=LL
// RUN: aic-translate --target=amdgpu --arch=gfx90a --emit=asm %s -o - | FileCheck %s --check-prefix=ASM
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST
// RUN: not aic-translate --target=nvptx --emit=llvm-ir %s -o - 2>&1 | FileCheck %s --check-prefix=NV

// LL: call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %{{.*}}, <4 x half> %{{.*}}, <4 x float> {{.*}}, i32 0, i32 0, i32 0)
// LL: call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %{{.*}}, <4 x half> %{{.*}}, <16 x float> %{{.*}}, i32 0, i32 0, i32 0)
// ASM: v_mfma_f32_16x16x16f16
// ASM: v_mfma_f32_32x32x8f16
// HOST-NOT: llvm.amdgcn
// HOST: call void @aic_host_barrier()
// HOST: fmul
// HOST: call void @aic_host_barrier()
// NV: 'amdgpu.mfma' runs on AMD matrix cores (--target=amdgpu) or emulated on the host, not on nvptx

gpu.kernel @mfma grid = [1, 1, 1] block = [64, 1, 1] shared = 0 {
^bb0(%x: memref<64xf16>, %out: memref<1024xf32>):
  %t = gpu.thread_id x
  %h = memref.load %x[%t] : memref<64xf16>
  %z = arith.constant 0.0 : f32
  %a = vector.from_elements %h, %h, %h, %h : vector<4xf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<4xf32>
  %d = amdgpu.mfma 16x16x16 %a * %a + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  %x0 = vector.extract %d[0] : f32 from vector<4xf32>
  %c16 = vector.from_elements %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0, %x0 : vector<16xf32>
  %e = amdgpu.mfma 32x32x8 %a * %a + %c16 blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
  %y = vector.extract %e[15] : f32 from vector<16xf32>
  memref.store %y, %out[%t] : memref<1024xf32>
  gpu.return
}
