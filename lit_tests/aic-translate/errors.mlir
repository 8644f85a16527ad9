// aic-translate's errors: an unsupported target or arch, and a kernel that
// needs more shared memory than the arch has (a tile kernel, as any level is
// taken, staging 256 x 256 floats in shared memory); each names what and
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
// SHARED: aic-translate: kernel 'stage' needs 262144 bytes of shared memory but sm_90 allows 232448 a block
// LDS: aic-translate: kernel 'stage' needs 262144 bytes of shared memory but gfx942 allows 65536 a block

tile.kernel @stage grid = [1] {
^bb0(%x: memref<256x256xf32>, %y: memref<256x256xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<256x256xf32> -> !tile.tile<256x256xf32>
  %s = tile.transfer %t to shared depth = 1 : !tile.tile<256x256xf32> -> !tile.tile<256x256xf32, shared>
  %r = tile.transfer %s to register depth = 1 : !tile.tile<256x256xf32, shared> -> !tile.tile<256x256xf32>
  tile.store %r, %y[%c0, %c0] : !tile.tile<256x256xf32>, memref<256x256xf32>
  tile.return
}
func.func @main(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %y = tile.launch @stage(%x) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
