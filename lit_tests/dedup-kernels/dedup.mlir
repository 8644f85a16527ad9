// dedup-kernels: kernels that print the same but for their names become one
// (the first), and every launch of the others runs it; a kernel that differs
// in anything (here a threads count) stays. The results are unchanged.
// RUN: aic-opt %s --pass-pipeline='builtin.module(dedup-kernels)' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(dedup-kernels)' | aic-run --interpret - | FileCheck %s --check-prefix=SAME
// RUN: aic-opt %s --pass-pipeline='builtin.module(dedup-kernels,dedup-kernels)' | FileCheck %s

// CHECK: tile.kernel @row_sum_0 grid = [3] threads = 64 {
// CHECK-NOT: tile.kernel @row_sum_1
// CHECK: tile.kernel @row_sum_2 grid = [3] threads = 32 {
// CHECK-NOT: tile.kernel @row_sum_3
// CHECK-LABEL: func.func @layers
// CHECK: tile.launch @row_sum_0(%{{.*}}) : (tensor<10x8xf32>) -> tensor<10x1xf32>
// CHECK: tile.launch @row_sum_0(%{{.*}}) : (tensor<10x8xf32>) -> tensor<10x1xf32>
// CHECK: tile.launch @row_sum_2(%{{.*}}) : (tensor<10x8xf32>) -> tensor<10x1xf32>
// CHECK: tile.launch @row_sum_2(%{{.*}}) : (tensor<10x8xf32>) -> tensor<10x1xf32>

tile.kernel @row_sum_0 grid = [3] threads = 64 {
^bb0(%x: memref<10x8xf32>, %y: memref<10x1xf32>):
  %p = tile.program_id 0 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %p, %c4 : index
  %t = tile.load %x[%r0, %c0] : memref<10x8xf32> -> !tile.tile<4x8xf32>
  %s = tile.reduce sum %t, axis = 1 : !tile.tile<4x8xf32> -> !tile.tile<4xf32>
  %b = tile.broadcast %s, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x1xf32>
  tile.store %b, %y[%r0, %c0] : !tile.tile<4x1xf32>, memref<10x1xf32>
  tile.return
}

tile.kernel @row_sum_1 grid = [3] threads = 64 {
^bb0(%x: memref<10x8xf32>, %y: memref<10x1xf32>):
  %p = tile.program_id 0 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %p, %c4 : index
  %t = tile.load %x[%r0, %c0] : memref<10x8xf32> -> !tile.tile<4x8xf32>
  %s = tile.reduce sum %t, axis = 1 : !tile.tile<4x8xf32> -> !tile.tile<4xf32>
  %b = tile.broadcast %s, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x1xf32>
  tile.store %b, %y[%r0, %c0] : !tile.tile<4x1xf32>, memref<10x1xf32>
  tile.return
}

tile.kernel @row_sum_2 grid = [3] threads = 32 {
^bb0(%x: memref<10x8xf32>, %y: memref<10x1xf32>):
  %p = tile.program_id 0 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %p, %c4 : index
  %t = tile.load %x[%r0, %c0] : memref<10x8xf32> -> !tile.tile<4x8xf32>
  %s = tile.reduce sum %t, axis = 1 : !tile.tile<4x8xf32> -> !tile.tile<4xf32>
  %b = tile.broadcast %s, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x1xf32>
  tile.store %b, %y[%r0, %c0] : !tile.tile<4x1xf32>, memref<10x1xf32>
  tile.return
}

tile.kernel @row_sum_3 grid = [3] threads = 32 {
^bb0(%x: memref<10x8xf32>, %y: memref<10x1xf32>):
  %p = tile.program_id 0 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %r0 = arith.muli %p, %c4 : index
  %t = tile.load %x[%r0, %c0] : memref<10x8xf32> -> !tile.tile<4x8xf32>
  %s = tile.reduce sum %t, axis = 1 : !tile.tile<4x8xf32> -> !tile.tile<4xf32>
  %b = tile.broadcast %s, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x1xf32>
  tile.store %b, %y[%r0, %c0] : !tile.tile<4x1xf32>, memref<10x1xf32>
  tile.return
}

// SAME: PASS layers
func.func @layers() {
  %i = stablehlo.iota dim = 0 : tensor<10x8xf32>
  %j = stablehlo.iota dim = 1 : tensor<10x8xf32>
  %x = stablehlo.multiply %i, %j : tensor<10x8xf32>
  %y0 = tile.launch @row_sum_0(%x) : (tensor<10x8xf32>) -> tensor<10x1xf32>
  %y1 = tile.launch @row_sum_1(%x) : (tensor<10x8xf32>) -> tensor<10x1xf32>
  %y2 = tile.launch @row_sum_2(%x) : (tensor<10x8xf32>) -> tensor<10x1xf32>
  %y3 = tile.launch @row_sum_3(%x) : (tensor<10x8xf32>) -> tensor<10x1xf32>
  %s = graph.reduce sum %x, axes = [1] keep_dims : (tensor<10x8xf32>) -> tensor<10x1xf32>
  check.expect_eq %y0, %s : tensor<10x1xf32>
  check.expect_eq %y1, %s : tensor<10x1xf32>
  check.expect_eq %y2, %s : tensor<10x1xf32>
  check.expect_eq %y3, %s : tensor<10x1xf32>
  return
}
