// eqsat-fusion keeps a 2:4-sparse product (graph.sparse_matmul) and fuses
// it like a matmul: its bias and ReLU epilogue join it, but it anchors a
// kernel of its own (legality::sparse_gemms_fit), so a dense GEMM reading
// the same A stays a kernel apart instead of a horizontal sibling.
// sparse-gemm=false (and targets without a sparse GEMM, trn1) expand it to
// a dense matmul first.
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion=target=trn1 | FileCheck %s --check-prefix=DENSE
// RUN: aic-opt %s --eqsat-fusion=sparse-gemm=false | FileCheck %s --check-prefix=DENSE
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s --check-prefix=TILE

// CHECK-LABEL: func.func @main
// CHECK: fusion.group vertical
// CHECK-NEXT: graph.sparse_matmul
// CHECK-NEXT: graph.bias_add
// CHECK-NEXT: graph.relu
// CHECK-NEXT: fusion.yield
// CHECK: fusion.group vertical
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.relu
// CHECK-NEXT: fusion.yield
// CHECK-NOT: horizontal
// DENSE-LABEL: func.func @main
// DENSE-NOT: graph.sparse_matmul
// DENSE: graph.matmul
// TILE: tile.kernel @gemm_0
// TILE: tile.sparse_gemm
// TILE: tile.map
// TILE: tile.store
// TILE: tile.kernel @gemm_1
// TILE-NOT: tile.sparse_gemm
// TILE: tile.gemm
func.func @main(%x: tensor<64x64xf16>, %v: tensor<32x32xf16>, %m: tensor<32x32xi8>, %w: tensor<64x32xf16>, %b: tensor<32xf16>) -> (tensor<64x32xf16>, tensor<64x32xf16>) {
  %y = graph.sparse_matmul %x, %v, %m : (tensor<64x64xf16>, tensor<32x32xf16>, tensor<32x32xi8>) -> tensor<64x32xf16>
  %bb = graph.broadcast %b, dims = [1] : (tensor<32xf16>) -> tensor<64x32xf16>
  %s = graph.add %y, %bb : tensor<64x32xf16>
  %r = graph.relu %s : tensor<64x32xf16>
  %d = graph.matmul %x, %w : (tensor<64x64xf16>, tensor<64x32xf16>) -> tensor<64x32xf16>
  %e = graph.relu %d : tensor<64x32xf16>
  return %r, %e : tensor<64x32xf16>, tensor<64x32xf16>
}
