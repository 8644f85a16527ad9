// The tile dialect: a tiled GEMM with a ReLU epilogue (K loop, staging into
// shared memory, a block-level GEMM, masked loads and stores at the ragged
// edges, a store through a descriptor; its tiles' order grouped, which does
// not change what it computes) and a row reduction (in blocks of its own
// size); the text round-trips, and launched on tensors each kernel
// computes what the graph ops compute.
// RUN: aic-opt %s | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-run --interpret %s | FileCheck %s

// ROUND-LABEL: tile.kernel @gemm_relu grid = [2, 3] group = 2 {
// ROUND: tile.for
// ROUND: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} level = block : !tile.tile<32x8xf32, shared>, !tile.tile<8x16xf32, shared>, !tile.tile<32x16xf32> -> !tile.tile<32x16xf32>
// ROUND: tile.map
// ROUND: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] through #coord.desc<[40, 36] | embed<1440: 36, 1> [0, 1] -> [0]>
// ROUND-LABEL: tile.kernel @row_sum grid = [3] threads = 64 {
// ROUND: tile.reduce sum %{{.*}}, axis = 1 : !tile.tile<4x8xf32> -> !tile.tile<4xf32>

tile.kernel @gemm_relu grid = [2, 3] group = 2 {
^bb0(%a: memref<40x24xf32>, %b: memref<24x36xf32>, %c: memref<40x36xf32>):
  %pm = tile.program_id 0 : index
  %pn = tile.program_id 1 : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c24 = arith.constant 24 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %m0 = arith.muli %pm, %c32 : index
  %n0 = arith.muli %pn, %c16 : index
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x16xf32>
  %acc = tile.for %c0 to %c24 step %c8 iter_args(%acc0 : !tile.tile<32x16xf32>) -> !tile.tile<32x16xf32> {
  ^bb0(%k: index, %acc_i: !tile.tile<32x16xf32>):
    %ta = tile.load %a[%m0, %k] : memref<40x24xf32> -> !tile.tile<32x8xf32>
    %tb = tile.load %b[%k, %n0] : memref<24x36xf32> -> !tile.tile<8x16xf32>
    %sa = tile.transfer %ta to shared depth = 2 : !tile.tile<32x8xf32> -> !tile.tile<32x8xf32, shared>
    %sb = tile.transfer %tb to shared depth = 2 : !tile.tile<8x16xf32> -> !tile.tile<8x16xf32, shared>
    %r = tile.gemm %sa, %sb, %acc_i level = block : !tile.tile<32x8xf32, shared>, !tile.tile<8x16xf32, shared>, !tile.tile<32x16xf32> -> !tile.tile<32x16xf32>
    tile.yield %r : !tile.tile<32x16xf32>
  }
  %e = tile.map %acc : (!tile.tile<32x16xf32>) -> !tile.tile<32x16xf32> {
  ^bb0(%x: f32):
    %y = arith.maximumf %x, %zero : f32
    tile.yield %y : f32
  }
  tile.store %e, %c[%m0, %n0] through #coord.desc<[40, 36] | embed<1440: 36, 1> [0, 1] -> [0]> : !tile.tile<32x16xf32>, memref<40x36xf32>
  tile.return
}

// CHECK: PASS gemm_relu_matches_graph
func.func @gemm_relu_matches_graph() {
  %i = stablehlo.iota dim = 0 : tensor<40x24xf32>
  %j = stablehlo.iota dim = 1 : tensor<40x24xf32>
  %a = stablehlo.subtract %i, %j : tensor<40x24xf32>
  %k = stablehlo.iota dim = 0 : tensor<24x36xf32>
  %l = stablehlo.iota dim = 1 : tensor<24x36xf32>
  %m = stablehlo.multiply %k, %l : tensor<24x36xf32>
  %c5 = stablehlo.constant dense<5.0> : tensor<24x36xf32>
  %b = stablehlo.remainder %m, %c5 : tensor<24x36xf32>
  %c = tile.launch @gemm_relu(%a, %b) : (tensor<40x24xf32>, tensor<24x36xf32>) -> tensor<40x36xf32>
  %mm = graph.matmul %a, %b : (tensor<40x24xf32>, tensor<24x36xf32>) -> tensor<40x36xf32>
  %ref = graph.relu %mm : tensor<40x36xf32>
  check.expect_eq %c, %ref : tensor<40x36xf32>
  return
}

tile.kernel @row_sum grid = [3] threads = 64 {
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

// CHECK: PASS row_sum_matches_graph
func.func @row_sum_matches_graph() {
  %i = stablehlo.iota dim = 0 : tensor<10x8xf32>
  %j = stablehlo.iota dim = 1 : tensor<10x8xf32>
  %x = stablehlo.multiply %i, %j : tensor<10x8xf32>
  %y = tile.launch @row_sum(%x) : (tensor<10x8xf32>) -> tensor<10x1xf32>
  %s = graph.reduce sum %x, axes = [1] keep_dims : (tensor<10x8xf32>) -> tensor<10x1xf32>
  check.expect_eq %y, %s : tensor<10x1xf32>
  return
}

// Layouts travel with tile types: mma fragments in registers, a swizzle in
// shared memory (values unchanged).
// ROUND-LABEL: tile.kernel @layouts grid = [1] {
// ROUND: tile.transfer %{{.*}} to shared depth = 1 : !tile.tile<16x16xf32> -> !tile.tile<16x16xf32, shared, swizzle<3, 4, 3>>
// ROUND: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} level = warp : !tile.tile<16x16xf32, shared, swizzle<3, 4, 3>>, !tile.tile<16x16xf32, shared, swizzle<3, 4, 3>>, !tile.tile<16x16xf32, mma<16, 8, 16>> -> !tile.tile<16x16xf32, mma<16, 8, 16>>
tile.kernel @layouts grid = [1] {
^bb0(%a: memref<16x16xf32>, %c: memref<16x16xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %a[%c0, %c0] : memref<16x16xf32> -> !tile.tile<16x16xf32>
  %s = tile.transfer %t to shared depth = 1 : !tile.tile<16x16xf32> -> !tile.tile<16x16xf32, shared, swizzle<3, 4, 3>>
  %z = arith.constant 0.0 : f32
  %acc = tile.broadcast %z, dims = [] : f32 -> !tile.tile<16x16xf32, mma<16, 8, 16>>
  %r = tile.gemm %s, %s, %acc level = warp : !tile.tile<16x16xf32, shared, swizzle<3, 4, 3>>, !tile.tile<16x16xf32, shared, swizzle<3, 4, 3>>, !tile.tile<16x16xf32, mma<16, 8, 16>> -> !tile.tile<16x16xf32, mma<16, 8, 16>>
  %o = tile.map %r : (!tile.tile<16x16xf32, mma<16, 8, 16>>) -> !tile.tile<16x16xf32> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  tile.store %o, %c[%c0, %c0] : !tile.tile<16x16xf32>, memref<16x16xf32>
  tile.return
}

// CHECK: PASS layouts_change_no_value
func.func @layouts_change_no_value() {
  %i = stablehlo.iota dim = 0 : tensor<16x16xf32>
  %j = stablehlo.iota dim = 1 : tensor<16x16xf32>
  %a = stablehlo.subtract %i, %j : tensor<16x16xf32>
  %c = tile.launch @layouts(%a) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %ref = graph.matmul %a, %a : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  check.expect_eq %c, %ref : tensor<16x16xf32>
  return
}

// Warp rows: each row of a register tile held by one warp (lanes, run,
// warps); a row reduction and its broadcast back compute what they compute
// without the layout.
// ROUND-LABEL: tile.kernel @warp_rows grid = [1] {
// ROUND: tile.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x64xf32> -> !tile.tile<4x64xf32, warp_rows<8, 2, 2>>
// ROUND: tile.reduce sum %{{.*}}, axis = 1 : !tile.tile<4x64xf32, warp_rows<8, 2, 2>> -> !tile.tile<4xf32>
tile.kernel @warp_rows grid = [1] {
^bb0(%x: memref<4x64xf32>, %y: memref<4x64xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<4x64xf32> -> !tile.tile<4x64xf32, warp_rows<8, 2, 2>>
  %s = tile.reduce sum %t, axis = 1 : !tile.tile<4x64xf32, warp_rows<8, 2, 2>> -> !tile.tile<4xf32>
  %b = tile.broadcast %s, dims = [0] : !tile.tile<4xf32> -> !tile.tile<4x64xf32, warp_rows<8, 2, 2>>
  %d = tile.map %t, %b : (!tile.tile<4x64xf32, warp_rows<8, 2, 2>>, !tile.tile<4x64xf32, warp_rows<8, 2, 2>>) -> !tile.tile<4x64xf32, warp_rows<8, 2, 2>> {
  ^bb0(%v: f32, %w: f32):
    %q = arith.divf %v, %w : f32
    tile.yield %q : f32
  }
  tile.store %d, %y[%c0, %c0] : !tile.tile<4x64xf32, warp_rows<8, 2, 2>>, memref<4x64xf32>
  tile.return
}

// CHECK: PASS warp_rows_change_no_value
func.func @warp_rows_change_no_value() {
  %x = stablehlo.constant dense<2.0> : tensor<4x64xf32>
  %y = tile.launch @warp_rows(%x) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %ref = stablehlo.constant dense<0.015625> : tensor<4x64xf32>
  check.expect_eq %y, %ref : tensor<4x64xf32>
  return
}

// tile.convert_layout: the same tile in another layout, where a value leaves
// the layout decided for it (here warp rows read back blocked, and a blocked
// tile given mma fragments); it changes no value.
// ROUND-LABEL: tile.kernel @convert grid = [1] {
// ROUND: tile.convert_layout %{{.*}} : !tile.tile<4x64xf32, warp_rows<8, 2, 2>> -> !tile.tile<4x64xf32>
// ROUND: tile.convert_layout %{{.*}} : !tile.tile<16x16xf32> -> !tile.tile<16x16xf32, mma<16, 8, 16>>
tile.kernel @convert grid = [1] {
^bb0(%x: memref<4x64xf32>, %y: memref<4x64xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<4x64xf32> -> !tile.tile<4x64xf32, warp_rows<8, 2, 2>>
  %b = tile.convert_layout %t : !tile.tile<4x64xf32, warp_rows<8, 2, 2>> -> !tile.tile<4x64xf32>
  %z = arith.constant 0.0 : f32
  %acc = tile.broadcast %z, dims = [] : f32 -> !tile.tile<16x16xf32>
  %f = tile.convert_layout %acc : !tile.tile<16x16xf32> -> !tile.tile<16x16xf32, mma<16, 8, 16>>
  tile.store %b, %y[%c0, %c0] : !tile.tile<4x64xf32>, memref<4x64xf32>
  tile.return
}

// CHECK: PASS convert_layout_changes_no_value
func.func @convert_layout_changes_no_value() {
  %i = stablehlo.iota dim = 1 : tensor<4x64xf32>
  %y = tile.launch @convert(%i) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  check.expect_eq %y, %i : tensor<4x64xf32>
  return
}

// A causal mask from iotas, and a rank-2 tile read at (batch, row, col) of a
// rank-3 buffer: the tile covers the trailing dims.
// ROUND-LABEL: tile.kernel @causal grid = [2] {
// ROUND: tile.iota dim = 0 : !tile.tile<4x4xindex>
// ROUND: tile.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x4xf32> -> !tile.tile<4x4xf32>
tile.kernel @causal grid = [2] {
^bb0(%x: memref<2x4x4xf32>, %y: memref<2x4x4xf32>):
  %b = tile.program_id 0 : index
  %c0 = arith.constant 0 : index
  %r = tile.iota dim = 0 : !tile.tile<4x4xindex>
  %c = tile.iota dim = 1 : !tile.tile<4x4xindex>
  %t = tile.load %x[%b, %c0, %c0] : memref<2x4x4xf32> -> !tile.tile<4x4xf32>
  %z = arith.constant 0.0 : f32
  %m = tile.map %t, %r, %c : (!tile.tile<4x4xf32>, !tile.tile<4x4xindex>, !tile.tile<4x4xindex>) -> !tile.tile<4x4xf32> {
  ^bb0(%v: f32, %i: index, %j: index):
    %keep = arith.cmpi sle, %j, %i : index
    %w = arith.select %keep, %v, %z : f32
    tile.yield %w : f32
  }
  tile.store %m, %y[%b, %c0, %c0] : !tile.tile<4x4xf32>, memref<2x4x4xf32>
  tile.return
}

// CHECK: PASS causal_mask
func.func @causal_mask() {
  %x = stablehlo.constant dense<1.0> : tensor<2x4x4xf32>
  %y = tile.launch @causal(%x) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x4x4xi64>
  %j = stablehlo.iota dim = 2 : tensor<2x4x4xi64>
  %keep = stablehlo.compare LE, %j, %i : (tensor<2x4x4xi64>, tensor<2x4x4xi64>) -> tensor<2x4x4xi1>
  %zero = stablehlo.constant dense<0.0> : tensor<2x4x4xf32>
  %ref = stablehlo.select %keep, %x, %zero : tensor<2x4x4xi1>, tensor<2x4x4xf32>
  check.expect_eq %y, %ref : tensor<2x4x4xf32>
  return
}

// A padded view's validity zeroes a value computed from it: relu(x + 1)
// over x padded by one on each side is 0 in the padding, not 1.
// ROUND-LABEL: tile.kernel @padded grid = [1] {
// ROUND: tile.valid %{{.*}} through #coord.desc<[6] | pad<1, 1> [0] -> [0]> : !tile.tile<6xi1>
tile.kernel @padded grid = [1] {
^bb0(%x: memref<4xf32>, %y: memref<6xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] through #coord.desc<[6] | pad<1, 1> [0] -> [0] | embed<4: 1> [0] -> [0]> : memref<4xf32> -> !tile.tile<6xf32>
  %ok = tile.valid %c0 through #coord.desc<[6] | pad<1, 1> [0] -> [0]> : !tile.tile<6xi1>
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %r = tile.map %t, %ok : (!tile.tile<6xf32>, !tile.tile<6xi1>) -> !tile.tile<6xf32> {
  ^bb0(%v: f32, %in: i1):
    %a = arith.addf %v, %one : f32
    %m = arith.maximumf %a, %zero : f32
    %w = arith.select %in, %m, %zero : f32
    tile.yield %w : f32
  }
  tile.store %r, %y[%c0] : !tile.tile<6xf32>, memref<6xf32>
  tile.return
}

// CHECK: PASS padded_values_are_zero
func.func @padded_values_are_zero() {
  %x = stablehlo.constant dense<[1.0, -5.0, 2.0, 3.0]> : tensor<4xf32>
  %y = tile.launch @padded(%x) : (tensor<4xf32>) -> tensor<6xf32>
  %ref = stablehlo.constant dense<[0.0, 2.0, 0.0, 3.0, 4.0, 0.0]> : tensor<6xf32>
  check.expect_eq %y, %ref : tensor<6xf32>
  return
}
