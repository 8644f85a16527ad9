// tile-to-gpu follows the matrix layouts written in a gemm's types and
// rejects those it cannot follow: wgmma's on a gemm that is not the one
// gemm of a pipelined loop, mma.sync's fragments on AMD's matrix units.
// RUN: not aic-opt %s --tile-to-gpu="mma=wgmma threads=128" 2>&1 | FileCheck %s --check-prefix=WG
// RUN: not aic-opt %s --tile-to-gpu="mma=amdgpu threads=128" 2>&1 | FileCheck %s --check-prefix=AMD
// RUN: aic-opt %s --tile-to-gpu="mma=false threads=128" -o /dev/null

// WG: error: 'tile.gemm' op tile-to-gpu: a wgmma layout on a gemm that is not the one gemm of a pipelined loop
// AMD: error: 'tile.gemm' op tile-to-gpu: the gemm's layout (!tile.tile<64x64xf32, wgmma<64, 64, 16>>) does not fit this gemm on these matrix units in blocks of 128 threads

tile.kernel @unpipelined grid = [1] {
^bb0(%a: memref<64x64xf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<64x64xf16> -> !tile.tile<64x64xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32, wgmma<64, 64, 16>>
  %d = tile.gemm %sa, %sa, %init level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32, wgmma<64, 64, 16>> -> !tile.tile<64x64xf32, wgmma<64, 64, 16>>
  tile.store %d, %out[%c0, %c0] : !tile.tile<64x64xf32, wgmma<64, 64, 16>>, memref<64x64xf32>
  tile.return
}
