// tile.sparse_gemm: acc + A x W with W 2:4 sparse along K, given as its
// kept values and their positions ([K/2, N] tiles). The text round-trips,
// and a K loop of it (ragged M, N and K tiles: padding is zero values at
// position 0 and adds nothing) computes what graph.sparse_matmul does.
// RUN: aic-opt %s | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-run --interpret %s | FileCheck %s

// ROUND-LABEL: tile.kernel @sparse grid = [2, 2] {
// ROUND: tile.for
// ROUND: tile.sparse_gemm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} level = block : !tile.tile<4x8xf32, shared>, !tile.tile<4x8xf32, shared>, !tile.tile<4x8xi8, shared>, !tile.tile<4x8xf32> -> !tile.tile<4x8xf32>
tile.kernel @sparse grid = [2, 2] {
^bb0(%a: memref<5x24xf32>, %v: memref<12x10xf32>, %m: memref<12x10xi8>, %c: memref<5x10xf32>):
  %pm = tile.program_id 0 : index
  %pn = tile.program_id 1 : index
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %cK = arith.constant 24 : index
  %m0 = arith.muli %pm, %c4 : index
  %n0 = arith.muli %pn, %c8 : index
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<4x8xf32>
  %acc = tile.for %c0 to %cK step %c8 iter_args(%acc0 : !tile.tile<4x8xf32>) -> !tile.tile<4x8xf32> {
  ^bb0(%k: index, %acc_i: !tile.tile<4x8xf32>):
    %kh = arith.divui %k, %c2 : index
    %ta = tile.load %a[%m0, %k] : memref<5x24xf32> -> !tile.tile<4x8xf32>
    %tv = tile.load %v[%kh, %n0] : memref<12x10xf32> -> !tile.tile<4x8xf32>
    %tm = tile.load %m[%kh, %n0] : memref<12x10xi8> -> !tile.tile<4x8xi8>
    %sa = tile.transfer %ta to shared depth = 2 : !tile.tile<4x8xf32> -> !tile.tile<4x8xf32, shared>
    %sv = tile.transfer %tv to shared depth = 2 : !tile.tile<4x8xf32> -> !tile.tile<4x8xf32, shared>
    %sm = tile.transfer %tm to shared depth = 2 : !tile.tile<4x8xi8> -> !tile.tile<4x8xi8, shared>
    %r = tile.sparse_gemm %sa, %sv, %sm, %acc_i level = block : !tile.tile<4x8xf32, shared>, !tile.tile<4x8xf32, shared>, !tile.tile<4x8xi8, shared>, !tile.tile<4x8xf32> -> !tile.tile<4x8xf32>
    tile.yield %r : !tile.tile<4x8xf32>
  }
  tile.store %acc, %c[%m0, %n0] : !tile.tile<4x8xf32>, memref<5x10xf32>
  tile.return
}

// CHECK: PASS sparse_matches_graph
func.func @sparse_matches_graph() {
  %i = stablehlo.iota dim = 0 : tensor<5x24xf32>
  %j = stablehlo.iota dim = 1 : tensor<5x24xf32>
  %a = stablehlo.subtract %i, %j : tensor<5x24xf32>
  %v = graph.constant dense<[[1.0, -1.5, -0.5, 1.0, 2.0, -1.5, 1.0, 2.0, -1.0, 0.0], [-2.0, 0.5, -2.0, -1.5, 1.0, -0.5, -2.0, -1.0, 2.0, 2.0], [-0.5, -1.5, 2.0, 1.5, -1.0, 0.0, 1.5, 2.0, -1.0, -1.5], [0.5, -2.0, 1.0, 0.5, -0.5, 2.0, 0.0, 1.0, 1.5, 2.0], [0.5, -1.5, -1.5, 1.5, 0.5, -1.0, -0.5, -0.5, -1.5, 2.0], [1.5, 0.0, -2.0, 0.0, -2.0, -1.5, 0.0, 1.0, -1.0, 0.0], [2.0, 1.0, -1.0, -0.5, -1.0, -1.0, 0.5, 2.0, 1.0, 1.0], [0.0, -0.5, -1.0, -2.0, 0.0, 1.0, -1.0, 1.0, -1.5, -2.0], [-0.5, 0.5, -1.0, -2.0, 1.0, 0.5, 1.5, 0.0, 0.5, -1.0], [1.5, -2.0, 2.0, -1.5, -1.0, 1.5, 1.5, -1.5, 0.0, 2.0], [2.0, 2.0, -1.5, 0.5, -0.5, -0.5, -2.0, 0.0, 0.5, -1.5], [0.5, -2.0, 0.0, -0.5, -0.5, -0.5, -2.0, -0.5, 0.5, -0.5]]> : tensor<12x10xf32>
  %m = graph.constant dense<[[0, 0, 0, 0, 0, 0, 0, 0, 1, 0], [2, 2, 2, 1, 1, 2, 2, 1, 2, 2], [0, 0, 1, 1, 0, 0, 1, 0, 1, 0], [1, 2, 3, 2, 2, 2, 3, 3, 3, 3], [1, 0, 2, 2, 2, 1, 0, 1, 1, 1], [2, 3, 3, 3, 3, 3, 3, 2, 3, 3], [1, 1, 0, 1, 2, 0, 2, 0, 1, 2], [3, 3, 1, 2, 3, 2, 3, 1, 3, 3], [0, 0, 0, 0, 1, 1, 0, 1, 0, 2], [1, 1, 3, 1, 2, 2, 3, 3, 1, 3], [0, 1, 2, 0, 2, 1, 1, 1, 1, 0], [3, 2, 3, 2, 3, 3, 3, 2, 2, 3]]> : tensor<12x10xi8>
  %c = tile.launch @sparse(%a, %v, %m) : (tensor<5x24xf32>, tensor<12x10xf32>, tensor<12x10xi8>) -> tensor<5x10xf32>
  %ref = graph.sparse_matmul %a, %v, %m : (tensor<5x24xf32>, tensor<12x10xf32>, tensor<12x10xi8>) -> tensor<5x10xf32>
  check.expect_eq %c, %ref : tensor<5x10xf32>
  return
}
