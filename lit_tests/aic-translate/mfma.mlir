// A GEMM with a bias + GeLU epilogue compiled for AMD GPUs runs on the matrix
// cores: the default amdgpu pipeline lowers its f16 tile.gemm to amdgpu.mfma
// (wavefronts of 64), which becomes llvm.amdgcn.mfma.* and v_mfma on gfx90a
// and gfx942; the code object's metadata names the kernel, its LDS and
// wavefront size. The same program on NVIDIA runs mma.sync, and on the host
// (no matrix units unless asked for) neither.
// RUN: aic-translate --target=amdgpu --arch=gfx90a --emit=asm %s -o - | FileCheck %s --check-prefix=GFX90A
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=asm %s -o - | FileCheck %s --check-prefix=GFX942
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=LL
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=obj %s -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: aic-translate --target=amdgpu --arch=gfx90a --emit=obj %s -o %t90a.hsaco
// RUN: llvm-readelf --notes %t90a.hsaco | FileCheck %s --check-prefix=NOTES90A
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST

// GFX90A: v_mfma_f32_{{32x32x8|16x16x16}}f16
// GFX942: v_mfma_f32_{{32x32x8|16x16x16}}_f16
// LL: call <{{16|4}} x float> @llvm.amdgcn.mfma.f32.{{32x32x8|16x16x16}}f16(<4 x half> %{{.*}}, <4 x half> %{{.*}}, <{{16|4}} x float> %{{.*}}, i32 0, i32 0, i32 0)
// NOTES: .group_segment_fixed_size: {{[1-9][0-9]*}}
// NOTES: .name: gemm_0
// NOTES: .wavefront_size: 64
// NOTES: amdhsa.target: amdgcn-amd-amdhsa--gfx942
// NOTES90A: .name: gemm_0
// NOTES90A: amdhsa.target: amdgcn-amd-amdhsa--gfx90a
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// HOST-NOT: mfma
// HOST: define
func.func @main(%x: tensor<256x128xf16>, %w: tensor<128x256xf16>, %b: tensor<256xf16>) -> tensor<256x256xf16> {
  %m = graph.matmul %x, %w : (tensor<256x128xf16>, tensor<128x256xf16>) -> tensor<256x256xf16>
  %a = graph.bias_add %m, %b : (tensor<256x256xf16>, tensor<256xf16>) -> tensor<256x256xf16>
  %g = graph.gelu_tanh %a : tensor<256x256xf16>
  return %g : tensor<256x256xf16>
}
