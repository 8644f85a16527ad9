// A kernel whose consumer groups take turns and whose epilogue sums the
// accumulator's columns through shared memory (see ws_consumers.mlir).
tile.kernel @gemm grid = [3, 2] threads = 128 copy = tma_ws persistent = 2 consumers = 2 {
^bb0(%a: memref<384x256xf16>, %b: memref<256x256xf16>, %out: memref<384xf32>):
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
  %r = tile.reduce sum %acc, axis = 0 : !tile.tile<128x128xf32> -> !tile.tile<128xf32>
  tile.store %r, %out[%n0] : !tile.tile<128xf32>, memref<384xf32>
  tile.return
}

func.func @main() -> tensor<384xf32> {
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
  %res = tile.launch @gemm(%a, %b) : (tensor<384x256xf16>, tensor<256x256xf16>) -> tensor<384xf32>
  return %res : tensor<384xf32>
}
