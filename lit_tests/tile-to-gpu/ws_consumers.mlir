// Two consumer groups taking turns (`tile.kernel ... consumers = 2`,
// CUTLASS's ping-pong): a persistent warp-specialised kernel's block runs a
// producer warpgroup and two consumer warpgroups of the kernel's 128
// threads each. Group g (thread id / 128) takes every other tile of the
// block's, from its g-th on (the tile loop from block + g·P, step 2P), sees
// its id in the group, and runs its K loop in turns: it waits on named
// barrier 2 + g, arrives on the other's (3 - g) once its wgmmas are issued,
// and group 1 arrives on barrier 2 before its first tile (group 0 on its own
// barrier, at once complete: no branch on the group); after the tile loop
// each group waits once more where the turns given outnumber those taken.
// Each group stages its stores in a tile of its own (two staging tiles of
// 128 x 136 halves beside the rings). Compiled for the host on 1, 2, 3 and
// 5 blocks (one to three tiles a group, odd and even counts), each run
// equals the reference interpreter; a kernel whose consumers take turns
// without a warp-specialised loop is an error, and so is one whose
// epilogue would exchange values through the scratch region both groups
// would share (a column sum).
// RUN: aic-opt %s --tile-mma-layout=mma=wgmma --tile-shared-layout=mma=wgmma --tile-to-gpu=mma=wgmma | FileCheck %s
// RUN: aic-run --target=host --mma=wgmma --warp=32 --check %s --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: sed 's/persistent = 2 /persistent = 1 /' %s > %t1.mlir && aic-run --target=host --mma=wgmma --warp=32 --check %t1.mlir --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: sed 's/persistent = 2 /persistent = 3 /' %s > %t3.mlir && aic-run --target=host --mma=wgmma --warp=32 --check %t3.mlir --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: sed 's/persistent = 2 /persistent = 5 /' %s > %t5.mlir && aic-run --target=host --mma=wgmma --warp=32 --check %t5.mlir --entry=@main 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: sed 's/copy = tma_ws //' %s > %tc.mlir && not aic-opt %tc.mlir --tile-to-gpu=mma=wgmma 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not aic-opt %S/Inputs/ws_consumers_reduce.mlir --tile-mma-layout=mma=wgmma --tile-shared-layout=mma=wgmma --tile-to-gpu=mma=wgmma 2>&1 | FileCheck %s --check-prefix=SCRATCH
// CHECK-LABEL: gpu.kernel @gemm grid = [2, 1, 1] block = [384, 1, 1]
// CHECK: %[[TID:.*]] = gpu.thread_id x
// The producer: its first thread (256) copies every tile's stages.
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: %[[PB:.*]] = gpu.block_id x
// CHECK: scf.for %{{.*}} = %[[PB]] to %c6 step %c2 {
// CHECK: nvvm.setmaxregister increase 232
// CHECK: %[[G:.*]] = arith.divui %[[TID]], %c128
// CHECK: arith.remui %[[TID]], %c128
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: scf.for %{{.*}} = %{{.*}} to %c6 step %c4 {
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: scf.for {{.*}} -> (vector<64xf32>, vector<64xf32>) {
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %c256_i32
// Group g's staging tile starts g · 128 · 136 halves into both groups'.
// CHECK: gpu.shared offset = {{[0-9]+}} : memref<34816xf16
// CHECK: arith.muli %[[G]], %c17408
// CHECK: gpu.block_id x
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
// RAN: check: ok
// SCRATCH: error: 'tile.kernel' op tile-to-gpu: consumer groups taking turns (consumers = 2) exchange nothing through shared memory but their staged stores
// ERR: error: 'tile.kernel' op tile-to-gpu: consumers taking turns (consumers = 2) need a warp-specialised loop (copy = tma_ws)

tile.kernel @gemm grid = [3, 2] threads = 128 copy = tma_ws persistent = 2 consumers = 2 {
^bb0(%a: memref<384x256xf16>, %b: memref<256x256xf16>, %out: memref<384x256xf16>):
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
  %h = tile.map %acc : (!tile.tile<128x128xf32>) -> !tile.tile<128x128xf16> {
  ^bb0(%x: f32):
    %y = arith.truncf %x : f32 to f16
    tile.yield %y : f16
  }
  tile.store %h, %out[%m0, %n0] : !tile.tile<128x128xf16>, memref<384x256xf16>
  tile.return
}

func.func @main() -> tensor<384x256xf16> {
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
  %r = tile.launch @gemm(%a, %b) : (tensor<384x256xf16>, tensor<256x256xf16>) -> tensor<384x256xf16>
  return %r : tensor<384x256xf16>
}
