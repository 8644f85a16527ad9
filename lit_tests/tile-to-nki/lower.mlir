// tile-to-nki: a GEMM kernel (K loop carrying the accumulator, a bias read
// through a broadcasting descriptor, a tanh epilogue) and a softmax row
// kernel become nki kernels: the accumulator and what carries it in PSUM,
// A transposed on the Tensor engine, map bodies as Vector and Scalar
// instructions, row statistics as [P, 1] columns broadcast along the free
// axis. Launched on tensors, the lowered kernels compute what the tile
// kernels compute (checked against the graph ops).
// RUN: aic-opt %s --tile-to-nki | FileCheck %s
// RUN: aic-opt %s --tile-to-nki=arch=trn2 | FileCheck %s --check-prefix=TRN2
// RUN: aic-opt %s --tile-to-nki | aic-run --interpret - | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: nki.kernel @gemm_0 grid = [1, 1] arch = trn1 {
// CHECK: %[[Z:.*]] = nki.memset 0.000000e+00 : f32 : !nki.tile<8x8xf32, psum>
// CHECK: nki.sequential_range 0 to 3 step 4 iter_args(%[[Z]] : !nki.tile<8x8xf32, psum>) -> !nki.tile<8x8xf32, psum> {
// CHECK: nki.load %{{.*}} : memref<5x3xf32> -> !nki.tile<8x4xf32, sbuf>
// CHECK: nki.transpose %{{.*}} : !nki.tile<8x4xf32, sbuf> -> !nki.tile<4x8xf32, psum>
// CHECK: nki.copy %{{.*}} : !nki.tile<4x8xf32, psum> -> !nki.tile<4x8xf32, sbuf>
// CHECK: nki.matmul %{{.*}}, %{{.*}}, %{{.*}} : !nki.tile<4x8xf32, sbuf>, !nki.tile<4x8xf32, sbuf>, !nki.tile<8x8xf32, psum> -> !nki.tile<8x8xf32, psum>
// CHECK: nki.load %{{.*}} through #coord.desc<[5, 7] | broadcast [0] -> [], pass [1] -> [0]> : memref<7xf32> -> !nki.tile<8x8xf32, sbuf>
// CHECK: nki.tensor_tensor add %{{.*}}, %{{.*}} : !nki.tile<8x8xf32, psum>, !nki.tile<8x8xf32, sbuf> -> !nki.tile<8x8xf32, sbuf>
// CHECK: nki.activation tanh %{{.*}} scale = 1.000000e+00 : f32 bias = 0.000000e+00 : f32
// CHECK: nki.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !nki.tile<8x8xf32, sbuf>, memref<5x7xf32>
// CHECK: } {aic.flops = 526 : i64, aic.kind = "gemm"
// CHECK-LABEL: nki.kernel @rows_0 grid = [1] arch = trn1 {
// CHECK: nki.tensor_reduce max %{{.*}} : !nki.tile<4x10xf32, sbuf> -> !nki.tile<4x1xf32, sbuf>
// CHECK: nki.free_broadcast %{{.*}} : !nki.tile<4x1xf32, sbuf> -> !nki.tile<4x10xf32, sbuf>
// CHECK: nki.activation exp %{{.*}} scale = 0.693147182 : f32
// CHECK: nki.tensor_scalar divide %{{.*}}, 1.000000e+00 : f32 {reverse = true}
// CHECK: nki.launch @gemm_0
// CHECK: nki.launch @rows_0
// TRN2: nki.kernel @gemm_0 grid = [1, 1] arch = trn2 {
// TRN2: nki.kernel @rows_0 grid = [1] arch = trn2 {
// EXEC: PASS lowered_kernels

module {
  tile.kernel @gemm_0 grid = [1, 1] {
  ^bb0(%arg0: memref<5x3xf32>, %arg1: memref<3x7xf32>, %arg2: memref<7xf32>, %arg3: memref<5x7xf32>):
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c8 = arith.constant 8 : index
    %0 = tile.program_id 0 : index
    %1 = arith.muli %0, %c8 : index
    %2 = tile.program_id 1 : index
    %3 = arith.muli %2, %c8 : index
    %4 = tile.broadcast %cst, dims = [] : f32 -> !tile.tile<8x8xf32>
    %5 = tile.for %c0 to %c3 step %c4 iter_args(%4 : !tile.tile<8x8xf32>) -> !tile.tile<8x8xf32> {
    ^bb0(%arg4: index, %arg5: !tile.tile<8x8xf32>):
      %9 = tile.load %arg0[%1, %arg4] : memref<5x3xf32> -> !tile.tile<8x4xf32>
      %10 = tile.transfer %9 to shared depth = 2 : !tile.tile<8x4xf32> -> !tile.tile<8x4xf32, shared>
      %11 = tile.load %arg1[%arg4, %3] : memref<3x7xf32> -> !tile.tile<4x8xf32>
      %12 = tile.transfer %11 to shared depth = 2 : !tile.tile<4x8xf32> -> !tile.tile<4x8xf32, shared>
      %13 = tile.gemm %10, %12, %arg5 level = block : !tile.tile<8x4xf32, shared>, !tile.tile<4x8xf32, shared>, !tile.tile<8x8xf32> -> !tile.tile<8x8xf32>
      tile.yield %13 : !tile.tile<8x8xf32>
    }
    %6 = tile.load %arg2[%1, %3] through #coord.desc<[5, 7] | broadcast [0] -> [], pass [1] -> [0]> : memref<7xf32> -> !tile.tile<8x8xf32>
    %7 = tile.map %5, %6 : (!tile.tile<8x8xf32>, !tile.tile<8x8xf32>) -> !tile.tile<8x8xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %9 = arith.addf %arg4, %arg5 : f32
      tile.yield %9 : f32
    }
    %8 = tile.map %7 : (!tile.tile<8x8xf32>) -> !tile.tile<8x8xf32> {
    ^bb0(%arg4: f32):
      %9 = math.tanh %arg4 : f32
      tile.yield %9 : f32
    }
    tile.store %8, %arg3[%1, %3] : !tile.tile<8x8xf32>, memref<5x7xf32>
    tile.return
  } {aic.flops = 526 : i64, aic.kind = "gemm", aic.tune = "trn1/trn1/gemm/0x5x7x3/f32"}
  tile.kernel @rows_0 grid = [1] {
  ^bb0(%arg0: memref<4x10xf32>, %arg1: memref<4x10xf32>):
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 1.44269502 : f32
    %cst_1 = arith.constant -1.44269502 : f32
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %0 = tile.program_id 0 : index
    %1 = arith.muli %0, %c4 : index
    %2 = tile.load %arg0[%1, %c0] : memref<4x10xf32> -> !tile.tile<4x10xf32>
    %3 = tile.reduce max %2, axis = 1 : !tile.tile<4x10xf32> -> !tile.tile<4xf32>
    %4 = tile.map %3 : (!tile.tile<4xf32>) -> !tile.tile<4xf32> {
    ^bb0(%arg2: f32):
      %11 = arith.mulf %arg2, %cst_1 : f32
      tile.yield %11 : f32
    }
    %5 = tile.broadcast %4, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x10xf32>
    %6 = tile.map %2, %5 : (!tile.tile<4x10xf32>, !tile.tile<4x10xf32>) -> !tile.tile<4x10xf32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %11 = math.fma %arg2, %cst_0, %arg3 : f32
      %12 = math.exp2 %11 : f32
      tile.yield %12 : f32
    }
    %7 = tile.reduce sum %6, axis = 1 : !tile.tile<4x10xf32> -> !tile.tile<4xf32>
    %8 = tile.map %7 : (!tile.tile<4xf32>) -> !tile.tile<4xf32> {
    ^bb0(%arg2: f32):
      %11 = arith.divf %cst, %arg2 : f32
      tile.yield %11 : f32
    }
    %9 = tile.broadcast %8, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x10xf32>
    %10 = tile.map %6, %9 : (!tile.tile<4x10xf32>, !tile.tile<4x10xf32>) -> !tile.tile<4x10xf32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %11 = arith.mulf %arg2, %arg3 : f32
      tile.yield %11 : f32
    }
    tile.store %10, %arg1[%1, %c0] : !tile.tile<4x10xf32>, memref<4x10xf32>
    tile.return
  } {aic.flops = 321 : i64, aic.kind = "rows"}
  func.func @lowered_kernels() {
    %a = stablehlo.constant dense<[[1.0, 2.0, -1.0], [0.5, 0.0, 1.0], [0.25, -0.5, 2.0], [1.0, 1.0, 1.0], [-2.0, 0.5, 0.0]]> : tensor<5x3xf32>
    %b = stablehlo.constant dense<[[0.1, 0.2, 0.3, -0.4, 0.5, 0.6, 0.7], [1.0, -1.0, 0.5, 0.25, 0.0, 0.1, -0.2], [0.3, 0.3, -0.3, 0.3, 0.3, 0.3, 0.3]]> : tensor<3x7xf32>
    %c = stablehlo.constant dense<[0.0, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3]> : tensor<7xf32>
    %g = tile.launch @gemm_0(%a, %b, %c) : (tensor<5x3xf32>, tensor<3x7xf32>, tensor<7xf32>) -> tensor<5x7xf32>
    %m = graph.matmul %a, %b : (tensor<5x3xf32>, tensor<3x7xf32>) -> tensor<5x7xf32>
    %cb = graph.broadcast %c, dims = [1] : (tensor<7xf32>) -> tensor<5x7xf32>
    %s = graph.add %m, %cb : tensor<5x7xf32>
    %t = graph.tanh %s : tensor<5x7xf32>
    check.expect_almost_eq %g, %t : tensor<5x7xf32>
    %x = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [-1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0], [5.0, 4.0, 3.0, 2.0, 1.0, 0.0, -1.0, -2.0, -3.0, -4.0]]> : tensor<4x10xf32>
    %y = tile.launch @rows_0(%x) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %r = graph.softmax %x, axis = 1 : tensor<4x10xf32>
    check.expect_almost_eq %y, %r : tensor<4x10xf32>
    return
  }
}
