// A 128 x 128 accumulator on one warpgroup (tile-to-gpu{mma=wgmma}, 128
// threads): two m64 row blocks, each its own wgmma accumulator. Row block
// `mi` reads A's 8-line groups 2j + mi (a stride byte offset of two 1024-byte
// atoms, the second block's descriptor one atom on), so that warp w holds
// the tile's rows 32w .. 32w + 31 (mma.sync's fragments, two m16 blocks a
// warp: block h, half mi) and the epilogue and stores are mma.sync's.
// Compiled for the host with the ring filled by cp.async, TMA and a
// warp-specialised producer (persistent too), each run equals the reference
// interpreter (a row block's registers put in the wrong fragment slots would
// not).
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma" | FileCheck %s
// RUN: aic-run --target=host --mma=wgmma --warp=32 --check %s --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: aic-run --target=host --mma=wgmma --warp=32 --copy=tma --check %s --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: aic-run --target=host --mma=wgmma --warp=32 --copy=tma_ws --persistent=4 --check %s --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// CHECK-LABEL: gpu.kernel @gemm grid = [3, 2, 1] block = [128, 1, 1]
// CHECK: scf.for {{.*}} iter_args(%[[V0:.*]] = %{{.*}}, %[[V1:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<64xf32>, vector<64xf32>, !nvgpu.device.async.token) {
// CHECK: %[[A0:.*]] = nvgpu.warpgroup.generate.descriptor %[[SA:.*]][%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 2048 : i64, swizzle = 128 : i64}
// CHECK: %[[A1:.*]] = nvgpu.warpgroup.generate.descriptor %[[SA]][%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 2048 : i64, swizzle = 128 : i64}
// CHECK: %[[B:.*]] = nvgpu.warpgroup.generate.descriptor
// CHECK: %{{.*}} = nvgpu.warpgroup.mma %[[A0]], %[[B]], %[[V0]] {transposeB} : vector<64xf32> -> vector<64xf32>
// CHECK: %{{.*}} = nvgpu.warpgroup.mma %[[A1]], %[[B]], %[[V1]] {transposeB} : vector<64xf32> -> vector<64xf32>
// RAN: check: ok

tile.kernel @gemm grid = [3, 2] threads = 128 {
^bb0(%a: memref<384x256xf16>, %b: memref<256x256xf16>, %out: memref<384x256xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %px = tile.program_id 0 : index
  %py = tile.program_id 1 : index
  %m0 = arith.muli %px, %c128 : index
  %n0 = arith.muli %py, %c128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<128x128xf32>
  %acc = tile.for %c0 to %c256 step %c64 iter_args(%init : !tile.tile<128x128xf32>) -> !tile.tile<128x128xf32> {
  ^bb0(%kk: index, %c: !tile.tile<128x128xf32>):
    %ta = tile.load %a[%m0, %kk] : memref<384x256xf16> -> !tile.tile<128x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<128x64xf16> -> !tile.tile<128x64xf16, shared>
    %tb = tile.load %b[%kk, %n0] : memref<256x256xf16> -> !tile.tile<64x128xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x128xf16> -> !tile.tile<64x128xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<128x64xf16, shared>, !tile.tile<64x128xf16, shared>, !tile.tile<128x128xf32> -> !tile.tile<128x128xf32>
    tile.yield %d : !tile.tile<128x128xf32>
  }
  tile.store %acc, %out[%m0, %n0] : !tile.tile<128x128xf32>, memref<384x256xf32>
  tile.return
}

func.func @main() -> tensor<384x256xf32> {
  %i = stablehlo.iota dim = 0 : tensor<384x256xf16>
  %j = stablehlo.iota dim = 1 : tensor<384x256xf16>
  %c = stablehlo.constant dense<0.0078125> : tensor<384x256xf16>
  %s = stablehlo.subtract %i, %j : tensor<384x256xf16>
  %s2 = stablehlo.multiply %s, %c : tensor<384x256xf16>
  %a = stablehlo.sine %s2 : tensor<384x256xf16>
  %i2 = stablehlo.iota dim = 0 : tensor<256x256xf16>
  %j2 = stablehlo.iota dim = 1 : tensor<256x256xf16>
  %c2 = stablehlo.constant dense<0.0078125> : tensor<256x256xf16>
  %t = stablehlo.add %i2, %j2 : tensor<256x256xf16>
  %t2 = stablehlo.multiply %t, %c2 : tensor<256x256xf16>
  %b = stablehlo.cosine %t2 : tensor<256x256xf16>
  %r = tile.launch @gemm(%a, %b) : (tensor<384x256xf16>, tensor<256x256xf16>) -> tensor<384x256xf32>
  return %r : tensor<384x256xf32>
}
