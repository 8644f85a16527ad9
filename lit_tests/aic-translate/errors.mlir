// aic-translate's errors: an unsupported target or arch, and a kernel that
// needs more shared memory than the arch has (a softmax over rows of 100000
// floats exchanges whole rows through shared memory); each names what and
// why, and exits 1.
// RUN: not aic-translate --target=vulkan --emit=asm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not aic-translate --target=nvptx --arch=sm_10 --emit=asm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not aic-translate --target=amdgpu --arch=gfx1100 --emit=obj %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMDARCH
// RUN: not aic-translate --target=nvptx --emit=exe %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not aic-translate --target=amdgpu --arch=gfx942 --emit=obj %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LDS
// TARGET: aic-translate: unsupported target 'vulkan'
// ARCH: aic-translate: unsupported arch 'sm_10' for nvptx
// AMDARCH: aic-translate: unsupported arch 'gfx1100' for amdgpu
// EMIT: aic-translate: unsupported --emit 'exe'
// SHARED: aic-translate: kernel 'rows_{{[0-9]+}}' needs {{[0-9]+}} bytes of shared memory but sm_90 allows 232448 a block
// LDS: aic-translate: kernel 'rows_{{[0-9]+}}' needs {{[0-9]+}} bytes of shared memory but gfx942 allows 65536 a block

func.func @wide(%x: tensor<2x100000xf32>) -> tensor<2x100000xf32> {
  %y = graph.softmax %x, axis = 1 : tensor<2x100000xf32>
  return %y : tensor<2x100000xf32>
}
