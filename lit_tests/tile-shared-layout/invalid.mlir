// tile-to-gpu follows the shared layouts and stages written in the IR and
// rejects those it cannot follow: stages on a loop cp.async cannot
// pipeline (or on AMD's matrix units), a swizzled tile read by mma.sync,
// a transposed tile no pipeline stages, a padded tile a gemm off matrix
// units reads, a loop staging byte tiles for a gemm not on wgmma, a staged
// store whose rings are in use; a padded
// row shorter than the tile's, or fewer than 2 stages, is a verifier error.
// RUN: not aic-opt %s --split-input-file --tile-to-gpu="mma=nvgpu threads=128" 2>&1 | FileCheck %s
// RUN: not aic-opt %s --split-input-file --tile-to-gpu="mma=amdgpu threads=128" 2>&1 | FileCheck %s --check-prefix=AMD

// CHECK: error: 'tile.for' op tile-to-gpu: a loop of 2 stages whose transfers cp.async cannot pipeline on these matrix units
// AMD: error: 'tile.for' op tile-to-gpu: a loop of 2 stages whose transfers cp.async cannot pipeline on these matrix units
tile.kernel @staged_f32 grid = [1] {
^bb0(%a: memref<32x64xf32>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c64 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> stages = 2 {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x64xf32> -> !tile.tile<32x32xf32>
    %sa = tile.transfer %ta to shared depth = 2 : !tile.tile<32x32xf32> -> !tile.tile<32x32xf32, shared>
    %d = tile.gemm %sa, %sa, %c level = block : !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// -----

// CHECK: error: 'tile.transfer' op tile-to-gpu: a laid-out shared tile read other than as A or B of wgmma gemms
tile.kernel @swizzled_mma grid = [1] {
^bb0(%a: memref<32x32xf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared, swizzle<3, 3, 3>>
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %d = tile.gemm %sa, %sa, %init level = block : !tile.tile<32x32xf16, shared, swizzle<3, 3, 3>>, !tile.tile<32x32xf16, shared, swizzle<3, 3, 3>>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %d, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// -----

// CHECK: error: 'tile.transfer' op tile-to-gpu: a transposed or swizzled shared tile that no pipeline stages
tile.kernel @trans_unstaged grid = [1] {
^bb0(%a: memref<32x32xf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared, padded<40, trans>>
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %d = tile.gemm %sa, %sa, %init level = block : !tile.tile<32x32xf16, shared, padded<40, trans>>, !tile.tile<32x32xf16, shared, padded<40, trans>>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %d, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// -----

// CHECK: error: 'tile.transfer' op tile-to-gpu: a laid-out shared tile read other than as A or B of matrix-unit gemms
tile.kernel @padded_f32 grid = [1] {
^bb0(%a: memref<32x32xf32>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf32> -> !tile.tile<32x32xf32>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf32> -> !tile.tile<32x32xf32, shared, padded<40>>
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %d = tile.gemm %sa, %sa, %init level = block : !tile.tile<32x32xf32, shared, padded<40>>, !tile.tile<32x32xf32, shared, padded<40>>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %d, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// -----

// CHECK: error: 'tile.transfer' op bad layout: lines 24 apart overlap lines of 32
tile.kernel @short grid = [1] {
^bb0(%a: memref<32x32xf16>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared, padded<24>>
  tile.return
}

// -----

// CHECK: error: 'tile.for' op stages 1 must be at least 2
tile.kernel @one_stage grid = [1] {
^bb0(%a: memref<32x64xf16>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  tile.for %c0 to %c64 step %c32 stages = 1 {
  ^bb0(%kk: index):
    tile.yield
  }
  tile.return
}

// -----

// Byte tiles (fp8, i8) staged for mma.sync's gathers need lines of whole
// 16-byte copies: padded<136> rows of bytes are 8 bytes off.
// CHECK: error: 'tile.transfer' op tile-to-gpu: a staged tile whose lines (136 elements) are not whole 16-byte copies of 16 elements
tile.kernel @staged_bytes_mma grid = [1] {
^bb0(%arg0: memref<64x256xf8E4M3FN>, %arg1: memref<64x256xf8E5M2>, %arg2: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tile.broadcast %cst, dims = [] : f32 -> !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>>
  %1 = tile.for %c0 to %c256 step %c128 iter_args(%0 : !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>>) -> !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>> stages = 3 {
  ^bb0(%arg3: index, %arg4: !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>>):
    %2 = tile.load %arg0[%c0, %arg3] : memref<64x256xf8E4M3FN> -> !tile.tile<64x128xf8E4M3FN>
    %3 = tile.transfer %2 to shared depth = 3 : !tile.tile<64x128xf8E4M3FN> -> !tile.tile<64x128xf8E4M3FN, shared, padded<136>>
    %4 = tile.load %arg1[%arg3, %c0] through #coord.desc<[256, 64] | embed<16384: 1, 256> [0, 1] -> [0]> : memref<64x256xf8E5M2> -> !tile.tile<128x64xf8E5M2>
    %5 = tile.transfer %4 to shared depth = 3 : !tile.tile<128x64xf8E5M2> -> !tile.tile<128x64xf8E5M2, shared, padded<136, trans>>
    %6 = tile.gemm %3, %5, %arg4 level = block : !tile.tile<64x128xf8E4M3FN, shared, padded<136>>, !tile.tile<128x64xf8E5M2, shared, padded<136, trans>>, !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>> -> !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>>
    tile.yield %6 : !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>>
  }
  tile.store %1, %arg2[%c0, %c0] : !tile.tile<64x64xf32, mma<16, 8, 32, 2, 2>>, memref<64x64xf32>
  tile.return
}

// -----

// A staged store whose rings are still in use (A and B read again after
// it).
// CHECK: error: 'tile.store' op tile-to-gpu: a staged store whose memory does not take 16-byte runs, or whose staging tile the free rings of finished K loops (a persistent kernel's: the shared memory beside its rings) do not hold
tile.kernel @staged_rings_in_use grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<32x32xf16>, %out2: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared, padded<40>>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared, padded<40>>
  %d = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf16, shared, padded<40>>, !tile.tile<32x32xf16, shared, padded<40>>, !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>> -> !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>
  %h = tile.map %d : (!tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] staged : !tile.tile<32x32xf16>, memref<32x32xf16>
  %e = tile.gemm %sa, %sb, %d level = block : !tile.tile<32x32xf16, shared, padded<40>>, !tile.tile<32x32xf16, shared, padded<40>>, !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>> -> !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>
  tile.store %e, %out2[%c0, %c0] : !tile.tile<32x32xf32, mma<16, 8, 16, 2, 2>>, memref<32x32xf32>
  tile.return
}
