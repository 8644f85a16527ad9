// tile-to-nki on a general kernel (a stable sort of rows by rank
// counting, JAX's total-order comparator): integer logic on the Vector
// engine (bitwise xor/and/or, arithmetic shifts, a logical shift as an
// arithmetic one with the top bits cleared), f32 bits seen as i32 by
// nki.bitcast, NaN tests as x != x, a remainder as a - b*trunc(a/b), a
// comparison of two loop positions computed as index arithmetic and used as
// a scalar operand, and 64-bit counts held in i32. Launched on a tensor the
// lowered kernel sorts each row (zeros, NaN and ties included).
// RUN: aic-opt %s --tile-to-nki | FileCheck %s
// RUN: aic-opt %s --tile-to-nki | aic-run --interpret - | FileCheck %s --check-prefix=EXEC

// CHECK-LABEL: nki.kernel @general_0 grid = [1] arch = trn1 {
// CHECK: nki.tensor_scalar divide %{{.*}}, 5.000000e+00 : f32 : !nki.tile<1x30xi32, sbuf> -> !nki.tile<1x30xi32, sbuf>
// CHECK: nki.tensor_scalar multiply %{{.*}}, 5.000000e+00 : f32
// CHECK: nki.tensor_tensor subtract
// CHECK: nki.memset 0.000000e+00 : f32 : !nki.tile<1x30xi32, sbuf>
// CHECK: nki.tensor_tensor not_equal %[[V:.*]], %[[V]] : !nki.tile<1x30xf32, sbuf>, !nki.tile<1x30xf32, sbuf> -> !nki.tile<1x30xi1, sbuf>
// CHECK: nki.bitcast %{{.*}} : !nki.tile<1x30xf32, sbuf> -> !nki.tile<1x30xi32, sbuf>
// CHECK: nki.tensor_scalar right_shift %{{.*}}, 3.100000e+01 : f32
// CHECK: nki.tensor_scalar right_shift %{{.*}}, 1.000000e+00 : f32
// CHECK: nki.tensor_scalar bitwise_and %{{.*}}, 2147483647 : i32
// CHECK: nki.tensor_tensor bitwise_xor
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK: %[[FLAG:.*]] = arith.index_castui %[[LT]] : i1 to index
// CHECK: nki.tensor_scalar bitwise_and %{{.*}}, 0.000000e+00 : f32 plus %[[FLAG]] : !nki.tile<1x30xi1, sbuf> -> !nki.tile<1x30xi1, sbuf>
// CHECK: nki.tensor_tensor bitwise_or %{{.*}}, %{{.*}} : !nki.tile<1x30xi1, sbuf>, !nki.tile<1x30xi1, sbuf> -> !nki.tile<1x30xi1, sbuf>
// CHECK: nki.copy %{{.*}} : !nki.tile<1x30xi1, sbuf> -> !nki.tile<1x30xi32, sbuf>

tile.kernel @general_0 grid = [1] {
^bb0(%arg0: memref<6x5xf32>, %arg1: memref<6x5xf32>):
  %c1_i32 = arith.constant 1 : i32
  %c31_i32 = arith.constant 31 : i32
  %cst = arith.constant 0x7FC00000 : f32
  %c0_i64 = arith.constant 0 : i64
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %cst_0 = arith.constant 0.000000e+00 : f32
  %c30 = arith.constant 30 : index
  %0 = tile.program_id 0 : index
  %1 = arith.muli %0, %c30 : index
  %2 = tile.iota dim = 0 : !tile.tile<30xindex>
  %3 = tile.map %2 : (!tile.tile<30xindex>) -> !tile.tile<30xindex> {
  ^bb0(%arg2: index):
    %6 = arith.addi %1, %arg2 : index
    %7 = arith.remsi %6, %c5 : index
    tile.yield %7 : index
  }
  %4 = tile.broadcast %cst_0, dims = [] : f32 -> !tile.tile<30xf32>
  %5 = tile.for %c0 to %c5 step %c1 iter_args(%4 : !tile.tile<30xf32>) -> !tile.tile<30xf32> {
  ^bb0(%arg2: index, %arg3: !tile.tile<30xf32>):
    %6 = tile.load %arg0[%arg2, %1] through #coord.desc<[5, 30] | pass [0] -> [0], merge<6, 5> [1] -> [1, 2] | pass [0] -> [1], pass [1] -> [0], broadcast [2] -> [] | embed<30: 5, 1> [0, 1] -> [0]> : memref<6x5xf32> -> !tile.tile<30xf32>
    %7 = tile.broadcast %c0_i64, dims = [] : i64 -> !tile.tile<30xi64>
    %8 = tile.for %c0 to %c5 step %c1 iter_args(%7 : !tile.tile<30xi64>) -> !tile.tile<30xi64> {
    ^bb0(%arg4: index, %arg5: !tile.tile<30xi64>):
      %11 = tile.load %arg0[%arg4, %arg2, %1] through #coord.desc<[5, 5, 30] | pass [0] -> [0], pass [1] -> [1], merge<6, 5> [2] -> [2, 3] | pass [0] -> [1], broadcast [1] -> [], pass [2] -> [0], broadcast [3] -> [] | embed<30: 5, 1> [0, 1] -> [0]> : memref<6x5xf32> -> !tile.tile<30xf32>
      %12 = tile.map %11, %6 : (!tile.tile<30xf32>, !tile.tile<30xf32>) -> !tile.tile<30xi64> {
      ^bb0(%arg6: f32, %arg7: f32):
        %14 = arith.cmpf oeq, %arg6, %cst_0 : f32
        %15 = arith.select %14, %cst_0, %arg6 : f32
        %16 = arith.cmpf uno, %15, %15 : f32
        %17 = arith.select %16, %cst, %15 : f32
        %18 = arith.bitcast %17 : f32 to i32
        %19 = arith.shrsi %18, %c31_i32 : i32
        %20 = arith.shrui %19, %c1_i32 : i32
        %21 = arith.xori %18, %20 : i32
        %22 = arith.cmpf oeq, %arg7, %cst_0 : f32
        %23 = arith.select %22, %cst_0, %arg7 : f32
        %24 = arith.cmpf uno, %23, %23 : f32
        %25 = arith.select %24, %cst, %23 : f32
        %26 = arith.bitcast %25 : f32 to i32
        %27 = arith.shrsi %26, %c31_i32 : i32
        %28 = arith.shrui %27, %c1_i32 : i32
        %29 = arith.xori %26, %28 : i32
        %30 = arith.cmpi slt, %21, %29 : i32
        %31 = arith.cmpi eq, %21, %29 : i32
        %32 = arith.cmpi slt, %arg4, %arg2 : index
        %33 = arith.andi %31, %32 : i1
        %34 = arith.ori %30, %33 : i1
        %35 = arith.extui %34 : i1 to i64
        tile.yield %35 : i64
      }
      %13 = tile.map %arg5, %12 : (!tile.tile<30xi64>, !tile.tile<30xi64>) -> !tile.tile<30xi64> {
      ^bb0(%arg6: i64, %arg7: i64):
        %14 = arith.addi %arg6, %arg7 : i64
        tile.yield %14 : i64
      }
      tile.yield %13 : !tile.tile<30xi64>
    }
    %9 = tile.map %8, %3 : (!tile.tile<30xi64>, !tile.tile<30xindex>) -> !tile.tile<30xi1> {
    ^bb0(%arg4: i64, %arg5: index):
      %11 = arith.index_cast %arg5 : index to i64
      %12 = arith.cmpi eq, %arg4, %11 : i64
      tile.yield %12 : i1
    }
    %10 = tile.map %arg3, %6, %9 : (!tile.tile<30xf32>, !tile.tile<30xf32>, !tile.tile<30xi1>) -> !tile.tile<30xf32> {
    ^bb0(%arg4: f32, %arg5: f32, %arg6: i1):
      %11 = arith.select %arg6, %arg5, %arg4 : f32
      tile.yield %11 : f32
    }
    tile.yield %10 : !tile.tile<30xf32>
  }
  tile.store %5, %arg1[%1] through #coord.desc<[30] | embed<30: 1> [0] -> [0]> : !tile.tile<30xf32>, memref<6x5xf32>
  tile.return
} {aic.flops = 31 : i64, aic.kind = "general"}
// EXEC: PASS sorted_rows
func.func @sorted_rows() {
  %x = stablehlo.constant dense<[[3.0, 1.0, 2.0, 0.0, -1.0], [0.0, -0.0, 0.0, 5.0, -5.0], [0x7FC00000, 1.0, -2.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0, 1.0], [-3.0, -2.0, -1.0, 0.0, 1.0], [9.0, 8.0, 7.0, 6.0, 5.0]]> : tensor<6x5xf32>
  %y = tile.launch @general_0(%x) : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %want = stablehlo.constant dense<[[-1.0, 0.0, 1.0, 2.0, 3.0], [-5.0, 0.0, -0.0, 0.0, 5.0], [-2.0, 0.5, 1.0, 1.0, 0x7FC00000], [1.0, 1.0, 1.0, 1.0, 1.0], [-3.0, -2.0, -1.0, 0.0, 1.0], [5.0, 6.0, 7.0, 8.0, 9.0]]> : tensor<6x5xf32>
  check.expect_eq %y, %want : tensor<6x5xf32>
  return
}
