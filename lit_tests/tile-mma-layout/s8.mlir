// An i8 x i8 -> i32 gemm on tensor cores: tile-mma-layout gives its
// accumulator chain mma.sync's s8 layout, mma<16, 8, 32, wm, wn> (f32's
// fragments, a k32 instruction), and tile-to-gpu runs each k32 step as
// nvgpu.mma.sync of shape [16, 8, 32] on fragments gathered from the
// shared tiles (aic-translate/int8_gemm.mlir checks the PTX);
// deciding the layout itself it gives the same; without matrix units the
// gemm is SIMT loops summing sign-extended bytes in i32.
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" | FileCheck %s
// RUN: aic-opt %s --tile-mma-layout="mma=nvgpu threads=128" --tile-to-gpu="mma=nvgpu threads=128" -o %t.split
// RUN: aic-opt %s --tile-to-gpu="mma=nvgpu threads=128" -o %t.whole
// RUN: diff %t.split %t.whole
// RUN: FileCheck %s --check-prefix=GPU < %t.whole
// RUN: aic-opt %s --tile-to-gpu="mma=false threads=128" | FileCheck %s --check-prefix=SIMT

// CHECK: tile.broadcast %{{.*}} : i32 -> !tile.tile<64x64xi32, mma<16, 8, 32, 2, 2>>
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} level = block : !tile.tile<64x32xi8, shared>, !tile.tile<32x64xi8, shared>, !tile.tile<64x64xi32, mma<16, 8, 32, 2, 2>> -> !tile.tile<64x64xi32, mma<16, 8, 32, 2, 2>>

// GPU: gpu.kernel @gemm_0
// GPU-COUNT-8: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
// GPU-NOT: nvgpu.mma.sync

// SIMT-NOT: nvgpu.mma.sync
// SIMT: arith.extsi %{{.*}} : i8 to i32
// SIMT: arith.muli %{{.*}}, %{{.*}} : i32

module {
  tile.kernel @gemm_0 grid = [1, 1] {
  ^bb0(%arg0: memref<64x96xi8>, %arg1: memref<96x64xi8>, %arg2: memref<64xf32>, %arg3: memref<64x64xf32>):
    %0 = tile.program_id 0 : index
    %c64 = arith.constant 64 : index
    %1 = arith.muli %0, %c64 : index
    %2 = tile.program_id 1 : index
    %c64_0 = arith.constant 64 : index
    %3 = arith.muli %2, %c64_0 : index
    %c0_i32 = arith.constant 0 : i32
    %4 = tile.broadcast %c0_i32, dims = [] : i32 -> !tile.tile<64x64xi32>
    %c0 = arith.constant 0 : index
    %c96 = arith.constant 96 : index
    %c32 = arith.constant 32 : index
    %5 = tile.for %c0 to %c96 step %c32 iter_args(%4 : !tile.tile<64x64xi32>) -> !tile.tile<64x64xi32> {
    ^bb0(%arg4: index, %arg5: !tile.tile<64x64xi32>):
      %9 = tile.load %arg0[%1, %arg4] : memref<64x96xi8> -> !tile.tile<64x32xi8>
      %10 = tile.transfer %9 to shared depth = 3 : !tile.tile<64x32xi8> -> !tile.tile<64x32xi8, shared>
      %11 = tile.load %arg1[%arg4, %3] : memref<96x64xi8> -> !tile.tile<32x64xi8>
      %12 = tile.transfer %11 to shared depth = 3 : !tile.tile<32x64xi8> -> !tile.tile<32x64xi8, shared>
      %13 = tile.gemm %10, %12, %arg5 level = block : !tile.tile<64x32xi8, shared>, !tile.tile<32x64xi8, shared>, !tile.tile<64x64xi32> -> !tile.tile<64x64xi32>
      tile.yield %13 : !tile.tile<64x64xi32>
    }
    %6 = tile.map %5 : (!tile.tile<64x64xi32>) -> !tile.tile<64x64xf32> {
    ^bb0(%arg4: i32):
      %9 = arith.sitofp %arg4 : i32 to f32
      tile.yield %9 : f32
    }
    %7 = tile.load %arg2[%1, %3] through #coord.desc<[64, 64] | broadcast [0] -> [], pass [1] -> [0]> : memref<64xf32> -> !tile.tile<64x64xf32>
    %8 = tile.map %6, %7 : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %9 = arith.mulf %arg4, %arg5 : f32
      tile.yield %9 : f32
    }
    tile.store %8, %arg3[%1, %3] : !tile.tile<64x64xf32>, memref<64x64xf32>
    tile.return
  } {aic.flops = 794625 : i64, aic.kind = "gemm", aic.tune = "h100/sm_90/gemm/0x64x64x96/i8"}
  func.func @main(%arg0: tensor<64x96xi8>, %arg1: tensor<96x64xi8>, %arg2: tensor<64xf32>) -> tensor<64x64xf32> {
    %0 = tile.launch @gemm_0(%arg0, %arg1, %arg2) : (tensor<64x96xi8>, tensor<96x64xi8>, tensor<64xf32>) -> tensor<64x64xf32>
    return %0 : tensor<64x64xf32>
  }
}

