// tile-to-gpu: tile kernels become one thread's program. A GEMM's tiles are
// spread over the block's threads in private arrays; its K loop stages A and
// B into shared memory between barriers, and the block GEMM reads them
// there; the bias is a masked load (a select on a clamped offset), the
// store a masked scf.if. A softmax's row reductions read the tile from a
// shared scratch region. With one thread a block the interpreter runs the
// result, which gives the graph program's values.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu=threads=1 --coord-to-arith --canonicalize | aic-run --interpret - --entry @dense --args "[dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>, dense<[0.5, -10.0]> : tensor<2xf32>]" | FileCheck %s --check-prefix=VALUES
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu=threads=1 | aic-run --interpret - --entry @softmax --args "[dense<[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>]" | FileCheck %s --check-prefix=SOFTMAX

// CHECK: gpu.kernel @gemm_0 grid = [1, 1, 1] block = [128, 1, 1] shared = {{[1-9][0-9]*}} {
// CHECK: ^bb0(%{{.*}}: memref<6xf32>, %{{.*}}: memref<6xf32>, %{{.*}}: memref<2xf32>, %{{.*}}: memref<4xf32>):
// CHECK: memref.alloca() : memref<1xf32>
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id x
// CHECK: gpu.block_id y
// CHECK: scf.for
// CHECK: gpu.shared offset = 0 : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: coord.offset
// CHECK: arith.select
// CHECK: memref.load
// CHECK: gpu.barrier
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: scf.if
// CHECK: memref.store
// CHECK: gpu.return
// CHECK-LABEL: func.func @dense
// CHECK: gpu.launch @gemm_0(%arg0, %arg1, %arg2) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
// VALUES: dense<{{\[\[}}4.500000e+00, 0.000000e+00], [1.050000e+01, 1.000000e+00]]> : tensor<2x2xf32>
func.func @dense(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %a = graph.bias_add %m, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// CHECK: gpu.kernel @rows_1
// CHECK: gpu.shared
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// SOFTMAX: dense<{{\[\[}}0.0900305{{[0-9]*}}, 0.244728{{[0-9]*}}, 0.665240{{[0-9]*}}], [0.333333{{[0-9]*}}, 0.333333{{[0-9]*}}, 0.333333{{[0-9]*}}]]> : tensor<2x3xf32>
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = graph.softmax %x : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
