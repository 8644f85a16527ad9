// fusion-to-tile's GEMM generator on a 2:4-sparse product with a batched
// lhs (its batch dims fold into M) and a ReLU prologue on A: one kernel, a
// K loop loading A (computed), the values and positions tiles ([K/2, N]
// through the view that transposes their [N, K/2] store) and a
// tile.sparse_gemm; the host run matches the interpreter.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s
// RUN: aic-run --target=host --check %s --entry=@main --args='[dense<[[[1.0,-2.0,3.0,4.0,5.0,-6.0,7.0,8.0],[0.5,0.25,1.0,2.0,0.0,1.0,3.0,1.0],[1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0],[2.0,1.0,-1.0,1.0,1.0,3.0,1.0,1.0],[1.0,1.0,1.0,1.0,1.0,1.0,1.0,-4.0]],[[1.0,-2.0,3.0,4.0,5.0,-6.0,7.0,8.0],[0.5,0.25,1.0,2.0,0.0,1.0,3.0,1.0],[1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0],[2.0,1.0,-1.0,1.0,1.0,3.0,1.0,1.0],[1.0,1.0,1.0,1.0,1.0,1.0,1.0,-4.0]]]> : tensor<2x5x8xf32>]' 2>&1 | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: tile.kernel @gemm_0
// CHECK-NEXT: ^bb0(%[[V:.*]]: memref<3x4xf32>, %[[M:.*]]: memref<3x4xi8>, %[[X:.*]]: memref<2x5x8xf32>, %{{.*}}: memref<2x5x3xf32>)
// CHECK: tile.for
// CHECK: tile.load %[[X]][{{.*}}] through #coord.desc<[10, 8] | embed<80: 8, 1> [0, 1] -> [0]>
// CHECK: arith.maximumf
// CHECK: tile.load %[[V]][{{.*}}] through #coord.desc<[4, 3] | embed<12: 1, 4> [0, 1] -> [0]>
// CHECK: tile.load %[[M]][{{.*}}] through #coord.desc<[4, 3] | embed<12: 1, 4> [0, 1] -> [0]>
// CHECK: tile.sparse_gemm
// CHECK-NOT: tile.kernel
// HOST: check: ok
func.func @main(%x: tensor<2x5x8xf32>) -> tensor<2x5x3xf32> {
  %v = graph.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.5, -1.0, 2.0, 1.5], [-2.0, 1.0, 0.25, 3.0]]> : tensor<3x4xf32>
  %m = graph.constant dense<[[0, 2, 1, 3], [1, 3, 0, 1], [0, 1, 2, 3]]> : tensor<3x4xi8>
  %r = graph.relu %x : tensor<2x5x8xf32>
  %y = graph.sparse_matmul %r, %v, %m transpose_b : (tensor<2x5x8xf32>, tensor<3x4xf32>, tensor<3x4xi8>) -> tensor<2x5x3xf32>
  return %y : tensor<2x5x3xf32>
}
