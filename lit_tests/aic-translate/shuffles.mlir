// Reductions shuffle across warps on both GPUs: NVPTX's shfl.sync
// butterflies (warps of 32, the nvptx default), and on AMDGPU (wavefronts
// of 64, the amdgpu default) each lane finds itself with mbcnt and reads
// its source lane with ds_bpermute; --warp=0 keeps the partials in shared
// memory only.
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=amdgpu --arch=gfx942 --emit=asm %s -o - | FileCheck %s --check-prefix=AMD
// RUN: aic-translate --target=amdgpu --arch=gfx90a --emit=obj %s -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
// RUN: aic-translate --target=nvptx --warp=0 --emit=asm %s -o - | FileCheck %s --check-prefix=NONE

// PTX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// AMD: v_mbcnt_lo_u32_b32
// AMD: v_mbcnt_hi_u32_b32
// AMD: ds_bpermute_b32
// NOTES: .wavefront_size: 64
// NONE-NOT: shfl.sync
func.func @main(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %y = graph.softmax %x, axis = 1 : tensor<64x1024xf32>
  return %y : tensor<64x1024xf32>
}
