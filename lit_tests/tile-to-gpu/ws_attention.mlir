// tile-to-gpu{mma=wgmma copy=tma_ws}: attention's loop over the keys
// warp-specialised in FlashAttention-3's form. The layout pass marks the
// loop `copy = tma_ws` where TMA can copy K and V (boxes of 2-D tensors,
// none reaching past the keys); the ragged loop (200 keys in blocks of 64)
// keeps cp.async. The block gets a producer warpgroup (256 threads for
// one consumer warpgroup): its first thread copies each key block's K
// and V with TMA onto the stage's full mbarrier (16384 bytes), waiting
// on the stage's empty mbarrier first. The consumers run the loop rotated:
// the first iteration is peeled (S = Q·Kᵀ waited for at once, P·V not
// yet issued); each later iteration issues S_j, then the previous
// iteration's P·V, waits for S_j alone (`wait.group 1`), runs the
// softmax, waits for P·V before O is rescaled and frees the previous
// stage; the last P·V is issued after the loop, which frees the last
// stage.
// RUN: aic-opt %s --tile-mma-layout=mma=wgmma --tile-shared-layout="mma=wgmma copy=tma_ws" | FileCheck %s --check-prefix=MARK
// RUN: aic-opt %s --tile-to-gpu="mma=wgmma copy=tma_ws" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout=mma=wgmma --tile-shared-layout="mma=wgmma copy=tma_ws" --tile-to-gpu=mma=wgmma | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --copy=tma_ws --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// MARK-LABEL: tile.kernel @attention_0
// MARK: tile.for {{.*}} stages = 3 copy = tma_ws {
// MARK-LABEL: tile.kernel @attention_ragged
// MARK-NOT: copy =
// MARK: tile.for {{.*}} stages = 3 {
// MARK-NOT: copy =

// CHECK-LABEL: gpu.kernel @attention_0 grid = [1, 1, 1] block = [256, 1, 1]
// CHECK-COUNT-3: nvgpu.mbarrier.init %{{.*}}, %c1 :
// CHECK-COUNT-3: nvgpu.mbarrier.init %{{.*}}, %c4 :
// The producer.
// CHECK: nvgpu.tma.create.descriptor %arg1 {globalShape = array<i64: 128, 64>, globalStrides = array<i64: 64, 1>}
// CHECK: nvgpu.tma.create.descriptor %arg2 {globalShape = array<i64: 128, 64>, globalStrides = array<i64: 64, 1>}
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c16384
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load
// The consumers: the peeled first iteration.
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.warpgroup.mma %
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvgpu.warpgroup.mma.register_a
// CHECK: scf.for %{{.*}} = %c1{{.*}} to %c2
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.warpgroup.mma %
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvgpu.warpgroup.mma.register_a {{.*}} {transposeB}
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: gpu.shuffle xor
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.mbarrier.arrive %
// The last P·V, after the loop.
// CHECK: nvgpu.warpgroup.mma.register_a
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.mbarrier.arrive %
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-NOT: gpu.barrier
// CHECK-LABEL: gpu.kernel @attention_ragged grid = [2, 1, 2] block = [128, 1, 1]
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: nvgpu.device_async_copy

// PTX-LABEL: .entry attention_0
// PTX: .reqntid 256, 1, 1
// PTX-NOT: setmaxnreg
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX-LABEL: .entry attention_ragged
// PTX: cp.async.cg.shared.global

module {
  tile.kernel @attention_0 grid = [1, 1, 1] {
  ^bb0(%arg0: memref<1x64x64xf16>, %arg1: memref<1x128x64xf16>, %arg2: memref<1x128x64xf16>, %arg3: memref<1x64x64xf16>):
    %0 = tile.program_id 0 : index
    %c64 = arith.constant 64 : index
    %1 = arith.muli %0, %c64 : index
    %2 = tile.program_id 2 : index
    %c0 = arith.constant 0 : index
    %3 = tile.load %arg0[%2, %1, %c0] : memref<1x64x64xf16> -> !tile.tile<64x64xf16>
    %4 = tile.transfer %3 to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %5 = tile.broadcast %cst, dims = [] : f32 -> !tile.tile<64xf32>
    %6 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<64xf32>
    %7 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<64x64xf32>
    %c128 = arith.constant 128 : index
    %c64_1 = arith.constant 64 : index
    %8:3 = tile.for %c0 to %c128 step %c64_1 iter_args(%5, %6, %7 : !tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64x64xf32> {
    ^bb0(%arg4: index, %arg5: !tile.tile<64xf32>, %arg6: !tile.tile<64xf32>, %arg7: !tile.tile<64x64xf32>):
      %12 = tile.load %arg1[%2, %c0, %arg4] through #coord.desc<[1, 64, 128] | embed<8192: 8192, 1, 64> [0, 1, 2] -> [0]> : memref<1x128x64xf16> -> !tile.tile<64x64xf16>
      %13 = tile.transfer %12 to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
      %14 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<64x64xf32>
      %15 = tile.gemm %4, %13, %14 level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
      %16 = tile.reduce max %15, axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
      %17 = tile.map %arg5, %16 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg8: f32, %arg9: f32):
        %29 = arith.maximumf %arg8, %arg9 : f32
        tile.yield %29 : f32
      }
      %18 = tile.broadcast %17, dims = [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
      %19 = tile.map %15, %18 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg8: f32, %arg9: f32):
        %29 = arith.subf %arg8, %arg9 : f32
        %30 = math.exp %29 : f32
        tile.yield %30 : f32
      }
      %20 = tile.map %arg5, %17 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg8: f32, %arg9: f32):
        %29 = arith.subf %arg8, %arg9 : f32
        %30 = math.exp %29 : f32
        tile.yield %30 : f32
      }
      %21 = tile.reduce sum %19, axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
      %22 = tile.map %arg6, %20, %21 : (!tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg8: f32, %arg9: f32, %arg10: f32):
        %29 = arith.mulf %arg8, %arg9 : f32
        %30 = arith.addf %29, %arg10 : f32
        tile.yield %30 : f32
      }
      %23 = tile.broadcast %20, dims = [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
      %24 = tile.map %arg7, %23 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg8: f32, %arg9: f32):
        %29 = arith.mulf %arg8, %arg9 : f32
        tile.yield %29 : f32
      }
      %25 = tile.load %arg2[%2, %arg4, %c0] : memref<1x128x64xf16> -> !tile.tile<64x64xf16>
      %26 = tile.transfer %25 to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
      %27 = tile.map %19 : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
      ^bb0(%arg8: f32):
        %29 = arith.truncf %arg8 : f32 to f16
        tile.yield %29 : f16
      }
      %28 = tile.gemm %27, %26, %24 level = block : !tile.tile<64x64xf16>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
      tile.yield %17, %22, %28 : !tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64x64xf32>
    }
    %9 = tile.broadcast %8#1, dims = [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %10 = tile.map %8#2, %9 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %12 = arith.divf %arg4, %arg5 : f32
      tile.yield %12 : f32
    }
    %11 = tile.map %10 : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
    ^bb0(%arg4: f32):
      %12 = arith.truncf %arg4 : f32 to f16
      tile.yield %12 : f16
    }
    tile.store %11, %arg3[%2, %1, %c0] : !tile.tile<64x64xf16>, memref<1x64x64xf16>
    tile.return
  }
  tile.kernel @attention_ragged grid = [2, 1, 2] {
  ^bb0(%arg0: memref<f16>, %arg1: memref<1x2x128x64xf16>, %arg2: memref<1x2x200x64xf16>, %arg3: memref<1x2x200x64xf16>, %arg4: memref<1x2x128x64xf16>):
    %0 = tile.program_id 0 : index
    %c64 = arith.constant 64 : index
    %1 = arith.muli %0, %c64 : index
    %2 = tile.program_id 2 : index
    %c0 = arith.constant 0 : index
    %3 = tile.load %arg1[%2, %1, %c0] through #coord.desc<[2, 128, 64] | merge<1, 2> [0] -> [0, 1], pass [1] -> [2], pass [2] -> [3] | embed<16384: 16384, 8192, 64, 1> [0, 1, 2, 3] -> [0]> : memref<1x2x128x64xf16> -> !tile.tile<64x64xf16>
    %4 = tile.transfer %3 to shared depth = 1 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.44269502 : f32
    %cst_2 = arith.constant -1.44269502 : f32
    %5 = tile.broadcast %cst, dims = [] : f32 -> !tile.tile<64xf32>
    %6 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<64xf32>
    %7 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<64x64xf32>
    %c200 = arith.constant 200 : index
    %c64_3 = arith.constant 64 : index
    %8:3 = tile.for %c0 to %c200 step %c64_3 iter_args(%5, %6, %7 : !tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64x64xf32> {
    ^bb0(%arg5: index, %arg6: !tile.tile<64xf32>, %arg7: !tile.tile<64xf32>, %arg8: !tile.tile<64x64xf32>):
      %12 = tile.load %arg2[%2, %c0, %arg5] through #coord.desc<[2, 64, 200] | merge<1, 2> [0] -> [0, 1], pass [1] -> [3], pass [2] -> [2] | embed<25600: 25600, 12800, 64, 1> [0, 1, 2, 3] -> [0]> : memref<1x2x200x64xf16> -> !tile.tile<64x64xf16>
      %13 = tile.transfer %12 to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
      %14 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<64x64xf32>
      %15 = tile.gemm %4, %13, %14 level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
      %16 = tile.load %arg0[%2, %1, %arg5] through #coord.desc<[2, 128, 200] | merge<1, 2> [0] -> [0, 1], pass [1] -> [2], pass [2] -> [3] | broadcast [0] -> [], broadcast [1] -> [], broadcast [2] -> [], broadcast [3] -> []> : memref<f16> -> !tile.tile<64x64xf16>
      %17 = tile.map %16 : (!tile.tile<64x64xf16>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg9: f16):
        %35 = arith.extf %arg9 : f16 to f32
        tile.yield %35 : f32
      }
      %18 = tile.map %15, %17 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg9: f32, %arg10: f32):
        %35 = arith.mulf %arg9, %arg10 : f32
        tile.yield %35 : f32
      }
      %19 = tile.iota dim = 1 : !tile.tile<64x64xindex>
      %20 = tile.map %18, %19 : (!tile.tile<64x64xf32>, !tile.tile<64x64xindex>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg9: f32, %arg10: index):
        %35 = arith.addi %arg10, %arg5 : index
        %36 = arith.cmpi slt, %35, %c200 : index
        %37 = arith.select %36, %arg9, %cst : f32
        tile.yield %37 : f32
      }
      %21 = tile.reduce max %20, axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
      %22 = tile.map %arg6, %21 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg9: f32, %arg10: f32):
        %35 = arith.maximumf %arg9, %arg10 : f32
        tile.yield %35 : f32
      }
      %23 = tile.map %22 : (!tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg9: f32):
        %35 = arith.mulf %arg9, %cst_2 : f32
        tile.yield %35 : f32
      }
      %24 = tile.broadcast %23, dims = [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
      %25 = tile.map %20, %24 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg9: f32, %arg10: f32):
        %35 = math.fma %arg9, %cst_1, %arg10 : f32
        %36 = math.exp2 %35 : f32
        tile.yield %36 : f32
      }
      %26 = tile.map %arg6, %23 : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg9: f32, %arg10: f32):
        %35 = math.fma %arg9, %cst_1, %arg10 : f32
        %36 = math.exp2 %35 : f32
        tile.yield %36 : f32
      }
      %27 = tile.reduce sum %25, axis = 1 : !tile.tile<64x64xf32> -> !tile.tile<64xf32>
      %28 = tile.map %arg7, %26, %27 : (!tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%arg9: f32, %arg10: f32, %arg11: f32):
        %35 = arith.mulf %arg9, %arg10 : f32
        %36 = arith.addf %35, %arg11 : f32
        tile.yield %36 : f32
      }
      %29 = tile.broadcast %26, dims = [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
      %30 = tile.map %arg8, %29 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%arg9: f32, %arg10: f32):
        %35 = arith.mulf %arg9, %arg10 : f32
        tile.yield %35 : f32
      }
      %31 = tile.load %arg3[%2, %arg5, %c0] through #coord.desc<[2, 200, 64] | merge<1, 2> [0] -> [0, 1], pass [1] -> [2], pass [2] -> [3] | embed<25600: 25600, 12800, 64, 1> [0, 1, 2, 3] -> [0]> : memref<1x2x200x64xf16> -> !tile.tile<64x64xf16>
      %32 = tile.transfer %31 to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
      %33 = tile.map %25 : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
      ^bb0(%arg9: f32):
        %35 = arith.truncf %arg9 : f32 to f16
        tile.yield %35 : f16
      }
      %34 = tile.gemm %33, %32, %30 level = block : !tile.tile<64x64xf16>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
      tile.yield %22, %28, %34 : !tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64x64xf32>
    }
    %9 = tile.broadcast %8#1, dims = [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %10 = tile.map %8#2, %9 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%arg5: f32, %arg6: f32):
      %12 = arith.divf %arg5, %arg6 : f32
      tile.yield %12 : f32
    }
    %11 = tile.map %10 : (!tile.tile<64x64xf32>) -> !tile.tile<64x64xf16> {
    ^bb0(%arg5: f32):
      %12 = arith.truncf %arg5 : f32 to f16
      tile.yield %12 : f16
    }
    tile.store %11, %arg4[%2, %1, %c0] through #coord.desc<[2, 128, 64] | merge<1, 2> [0] -> [0, 1], pass [1] -> [2], pass [2] -> [3] | embed<16384: 16384, 8192, 64, 1> [0, 1, 2, 3] -> [0]> : !tile.tile<64x64xf16>, memref<1x2x128x64xf16>
    tile.return
  }
}
