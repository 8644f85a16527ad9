// Two warp-specialised GEMM loops one after another (`copy = tma_ws` on
// both, as a causal attention's two key loops are): one producer copies both
// loops' stages, 4 then 3 iterations on a ring of 3 (the fills numbered on
// from the first loop, wrapping the ring), and the consumers accumulate
// A·Bᵀ over K then over K's last three blocks again. Compiled for the host,
// the warp-specialised kernel equals the reference interpreter.
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | sed -e 's/stages = 3 {/stages = 3 copy = tma_ws {/' -e 's/ staged : / : /' > %t.mlir
// RUN: FileCheck %s --check-prefix=MARK < %t.mlir
// RUN: aic-run --target=host --mma=wgmma --threads=128 --warp=32 --check %t.mlir --entry=@main 2>&1 | FileCheck %s
// MARK-COUNT-2: stages = 3 copy = tma_ws {
// CHECK: check: ok

tile.kernel @two grid = [1] {
^bb0(%a: memref<64x256xf16>, %b: memref<64x256xf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c256 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x256xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[256, 64] | embed<16384: 1, 256> [0, 1] -> [0]> : memref<64x256xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %acc2 = tile.for %c64 to %c256 step %c64 iter_args(%acc : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x256xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[256, 64] | embed<16384: 1, 256> [0, 1] -> [0]> : memref<64x256xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc2, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}

func.func @main() -> tensor<64x64xf32> {
  %i = stablehlo.iota dim = 0 : tensor<64x256xf16>
  %j = stablehlo.iota dim = 1 : tensor<64x256xf16>
  %c = stablehlo.constant dense<0.015625> : tensor<64x256xf16>
  %s = stablehlo.subtract %i, %j : tensor<64x256xf16>
  %a = stablehlo.multiply %s, %c : tensor<64x256xf16>
  %t = stablehlo.add %i, %j : tensor<64x256xf16>
  %b = stablehlo.multiply %t, %c : tensor<64x256xf16>
  %r = tile.launch @two(%a, %b) : (tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
