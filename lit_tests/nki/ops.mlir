// The nki dialect: every op in a kernel; the text round-trips (pretty and
// generic), and launched on tensors each kernel computes what the check
// says: a row softmax over [P, F] tiles (Vector reductions, a Scalar exp
// with a fused bias, per-partition scalars), a matmul accumulated in PSUM
// over a sequential K loop with a transposed operand, and the GpSimd ops.
// RUN: aic-opt %s | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s --check-prefix=ROUND
// RUN: aic-run --interpret %s | FileCheck %s

// ROUND-LABEL: nki.kernel @softmax grid = [2] arch = trn1 {
// ROUND: nki.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<6x5xf32> -> !nki.tile<3x5xf32, sbuf>
// ROUND: nki.tensor_reduce max %{{.*}} : !nki.tile<3x5xf32, sbuf> -> !nki.tile<3x1xf32, sbuf>
// ROUND: nki.tensor_tensor subtract %{{.*}}, %{{.*}} : !nki.tile<3x5xf32, sbuf>, !nki.tile<3x1xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
// ROUND: nki.activation exp %{{.*}} scale = 1.000000e+00 : f32 bias = 0.000000e+00 : f32 : !nki.tile<3x5xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
// ROUND: nki.tensor_scalar divide %{{.*}}, 1.000000e+00 : f32 engine = gpsimd {reverse = true}
// ROUND: nki.free_broadcast %{{.*}} : !nki.tile<3x1xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
// ROUND: nki.store
nki.kernel @softmax grid = [2] arch = trn1 {
^bb0(%x: memref<6x5xf32>, %y: memref<6x5xf32>):
  %p = nki.program_id 0 : index
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %row = arith.muli %p, %c3 : index
  %t = nki.load %x[%row, %c0] : memref<6x5xf32> -> !nki.tile<3x5xf32, sbuf>
  %m = nki.tensor_reduce max %t : !nki.tile<3x5xf32, sbuf> -> !nki.tile<3x1xf32, sbuf>
  %d = nki.tensor_tensor subtract %t, %m : !nki.tile<3x5xf32, sbuf>, !nki.tile<3x1xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
  %e = nki.activation exp %d scale = 1.0 : f32 bias = 0.0 : f32 : !nki.tile<3x5xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
  %s = nki.tensor_reduce add %e : !nki.tile<3x5xf32, sbuf> -> !nki.tile<3x1xf32, sbuf>
  %r = nki.tensor_scalar divide %s, 1.0 : f32 engine = gpsimd {reverse = true} : !nki.tile<3x1xf32, sbuf> -> !nki.tile<3x1xf32, sbuf>
  %rb = nki.free_broadcast %r : !nki.tile<3x1xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
  %o = nki.tensor_tensor multiply %e, %rb engine = vector : !nki.tile<3x5xf32, sbuf>, !nki.tile<3x5xf32, sbuf> -> !nki.tile<3x5xf32, sbuf>
  nki.store %o, %y[%row, %c0] : !nki.tile<3x5xf32, sbuf>, memref<6x5xf32>
  nki.return
}

// CHECK: PASS softmax_rows
func.func @softmax_rows() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 0.0, 0.0, 0.0, 0.0], [-1.0, 1.0, -1.0, 1.0, 0.0], [9.0, 9.0, 9.0, 9.0, 9.0], [1.0, 0.0, 0.0, 0.0, 0.0], [2.0, 2.0, 2.0, 2.0, 2.0]]> : tensor<6x5xf32>
  %y = nki.launch @softmax(%x) : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %ref = graph.softmax %x {axis = 1 : i64} : (tensor<6x5xf32>) -> tensor<6x5xf32>
  check.expect_almost_eq %y, %ref : tensor<6x5xf32>
  return
}

// ROUND-LABEL: nki.kernel @matmul grid = [1] arch = trn2 {
// ROUND: nki.memset 0.000000e+00 : f32 : !nki.tile<3x4xf32, psum>
// ROUND: nki.sequential_range 0 to 6 step 2 iter_args(%{{.*}} : !nki.tile<3x4xf32, psum>) -> !nki.tile<3x4xf32, psum> {
// ROUND: nki.transpose %{{.*}} : !nki.tile<3x2xbf16, sbuf> -> !nki.tile<2x3xbf16, psum>
// ROUND: nki.copy %{{.*}} engine = scalar : !nki.tile<2x3xbf16, psum> -> !nki.tile<2x3xbf16, sbuf>
// ROUND: nki.matmul %{{.*}}, %{{.*}}, %{{.*}} : !nki.tile<2x3xbf16, sbuf>, !nki.tile<2x4xbf16, sbuf>, !nki.tile<3x4xf32, psum> -> !nki.tile<3x4xf32, psum>
// ROUND: nki.yield %{{.*}} : !nki.tile<3x4xf32, psum>
nki.kernel @matmul grid = [1] arch = trn2 {
^bb0(%a: memref<3x6xbf16>, %b: memref<6x4xbf16>, %c: memref<3x4xf32>):
  %c0 = arith.constant 0 : index
  %z = nki.memset 0.0 : f32 : !nki.tile<3x4xf32, psum>
  %acc = nki.sequential_range 0 to 6 step 2 iter_args(%z : !nki.tile<3x4xf32, psum>) -> !nki.tile<3x4xf32, psum> {
  ^bb0(%k: index, %in: !nki.tile<3x4xf32, psum>):
    %at = nki.load %a[%c0, %k] : memref<3x6xbf16> -> !nki.tile<3x2xbf16, sbuf>
    %tp = nki.transpose %at : !nki.tile<3x2xbf16, sbuf> -> !nki.tile<2x3xbf16, psum>
    %ts = nki.copy %tp engine = scalar : !nki.tile<2x3xbf16, psum> -> !nki.tile<2x3xbf16, sbuf>
    %bt = nki.load %b[%k, %c0] : memref<6x4xbf16> -> !nki.tile<2x4xbf16, sbuf>
    %o = nki.matmul %ts, %bt, %in : !nki.tile<2x3xbf16, sbuf>, !nki.tile<2x4xbf16, sbuf>, !nki.tile<3x4xf32, psum> -> !nki.tile<3x4xf32, psum>
    nki.yield %o : !nki.tile<3x4xf32, psum>
  }
  %s = nki.copy %acc : !nki.tile<3x4xf32, psum> -> !nki.tile<3x4xf32, sbuf>
  nki.store %s, %c[%c0, %c0] : !nki.tile<3x4xf32, sbuf>, memref<3x4xf32>
  nki.return
}

// CHECK: PASS matmul_accumulates
func.func @matmul_accumulates() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.5, -1.0, 0.25, 2.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<3x6xbf16>
  %b = stablehlo.constant dense<[[1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 0.5, 1.0], [0.0, 3.0, 0.0, 1.0], [1.0, 0.0, -1.0, 1.0]]> : tensor<6x4xbf16>
  %c = nki.launch @matmul(%a, %b) : (tensor<3x6xbf16>, tensor<6x4xbf16>) -> tensor<3x4xf32>
  %ref = stablehlo.constant dense<[[18.0, 20.0, 1.0, 21.0], [5.75, -0.75, 1.25, 2.75], [5.0, 5.0, 2.5, 6.0]]> : tensor<3x4xf32>
  check.expect_eq %c, %ref : tensor<3x4xf32>
  return
}

// ROUND-LABEL: nki.kernel @gpsimd grid = [1] arch = trn1 {
// ROUND: nki.iota dim = 0 : !nki.tile<4x4xf32, sbuf>
// ROUND: nki.tensor_scalar add %{{.*}}, 0.000000e+00 : f32 plus %{{.*}} : !nki.tile<4x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
// ROUND: nki.affine_select %{{.*}} where [1, -1, 0] else -1.000000e+04 : f32
// ROUND: nki.partition_reduce add %{{.*}} : !nki.tile<4x4xf32, sbuf> -> !nki.tile<1x4xf32, sbuf>
// ROUND: nki.partition_broadcast %{{.*}} : !nki.tile<1x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
// ROUND: nki.select
// ROUND: nki.affine_range 0 to 4 step 2 {
nki.kernel @gpsimd grid = [1] arch = trn1 {
^bb0(%y: memref<4x4xf32>, %z: memref<4x4xf32>):
  %c0 = arith.constant 0 : index
  %i0 = nki.iota dim = 0 : !nki.tile<4x4xf32, sbuf>
  %i = nki.tensor_scalar add %i0, 0.0 : f32 plus %c0 : !nki.tile<4x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
  %m = nki.affine_select %i where [1, -1, 0] else -10000.0 : f32 : !nki.tile<4x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
  %s = nki.partition_reduce add %m : !nki.tile<4x4xf32, sbuf> -> !nki.tile<1x4xf32, sbuf>
  %b = nki.partition_broadcast %s : !nki.tile<1x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
  %zero = nki.memset 0.0 : f32 engine = gpsimd : !nki.tile<4x4xf32, sbuf>
  %pos = nki.tensor_tensor is_gt %m, %zero : !nki.tile<4x4xf32, sbuf>, !nki.tile<4x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
  %r = nki.select %pos, %b, %zero : !nki.tile<4x4xf32, sbuf>, !nki.tile<4x4xf32, sbuf>, !nki.tile<4x4xf32, sbuf> -> !nki.tile<4x4xf32, sbuf>
  nki.store %r, %y[%c0, %c0] : !nki.tile<4x4xf32, sbuf>, memref<4x4xf32>
  nki.affine_range 0 to 4 step 2 {
  ^bb0(%j: index):
    %h = nki.load %y[%j, %c0] : memref<4x4xf32> -> !nki.tile<2x4xf32, sbuf>
    nki.store %h, %z[%j, %c0] : !nki.tile<2x4xf32, sbuf>, memref<4x4xf32>
    nki.yield
  }
  nki.return
}

// The iota's elements on and below the diagonal are kept (p >= f), the
// rest filled with -10000; the column sums (6, -9994, -19995, -29997) are
// kept where the kept value is positive.
// CHECK: PASS gpsimd_ops
func.func @gpsimd_ops() {
  %y, %z = nki.launch @gpsimd() : () -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %ref = stablehlo.constant dense<[[0.0, 0.0, 0.0, 0.0], [6.0, -9994.0, 0.0, 0.0], [6.0, -9994.0, -19995.0, 0.0], [6.0, -9994.0, -19995.0, -29997.0]]> : tensor<4x4xf32>
  check.expect_eq %y, %ref : tensor<4x4xf32>
  check.expect_eq %z, %ref : tensor<4x4xf32>
  return
}
