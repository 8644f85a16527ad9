// graph.sparse_matmul: a 2:4 weight given as values and metadata ([K/2, N],
// or [N, K/2] with transpose_b; i8 positions in each group of four along K);
// round trip and the interpreter's result (the dense product of the
// expanded weight).
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s | FileCheck %s --check-prefix=EXEC
// EXEC-DAG: PASS values
// EXEC-DAG: PASS batched
// EXEC: 2 passed, 0 failed

// CHECK-LABEL: func.func @syntax
// CHECK: graph.sparse_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x8xf16>, tensor<4x5xf16>, tensor<4x5xi8>) -> tensor<3x5xf16>
// CHECK: graph.sparse_matmul %{{.*}}, %{{.*}}, %{{.*}} transpose_b : (tensor<3x8xbf16>, tensor<5x4xbf16>, tensor<5x4xi8>) -> tensor<3x5xbf16>
func.func @syntax(%x: tensor<3x8xf16>, %v: tensor<4x5xf16>, %m: tensor<4x5xi8>, %y: tensor<3x8xbf16>, %vt: tensor<5x4xbf16>, %mt: tensor<5x4xi8>) -> (tensor<3x5xf16>, tensor<3x5xbf16>) {
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<3x8xf16>, tensor<4x5xf16>, tensor<4x5xi8>) -> tensor<3x5xf16>
  %1 = graph.sparse_matmul %y, %vt, %mt transpose_b : (tensor<3x8xbf16>, tensor<5x4xbf16>, tensor<5x4xi8>) -> tensor<3x5xbf16>
  return %0, %1 : tensor<3x5xf16>, tensor<3x5xbf16>
}

// K = 4, N = 2: column 0 keeps positions 0 and 3 (10, 30), column 1
// positions 1 and 2 (20, 40); row 0 of x gives 1·10 + 4·30 = 130 and
// 2·20 + 3·40 = 160, row 1 gives 290 and 400. The transposed form agrees.
func.func @values() {
  %x = graph.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %v = graph.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %m = graph.constant dense<[[0, 1], [3, 2]]> : tensor<2x2xi8>
  %vt = graph.constant dense<[[10.0, 30.0], [20.0, 40.0]]> : tensor<2x2xf32>
  %mt = graph.constant dense<[[0, 3], [1, 2]]> : tensor<2x2xi8>
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xi8>) -> tensor<2x2xf32>
  %1 = graph.sparse_matmul %x, %vt, %mt transpose_b : (tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x2xi8>) -> tensor<2x2xf32>
  check.expect_eq_const %0, dense<[[130.0, 160.0], [290.0, 400.0]]> : tensor<2x2xf32>
  check.expect_eq_const %1, dense<[[130.0, 160.0], [290.0, 400.0]]> : tensor<2x2xf32>
  return
}

// A batched lhs shares the weight.
func.func @batched() {
  %x = graph.constant dense<[[[1.0, 2.0, 3.0, 4.0]], [[5.0, 6.0, 7.0, 8.0]]]> : tensor<2x1x4xf32>
  %v = graph.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %m = graph.constant dense<[[0, 1], [3, 2]]> : tensor<2x2xi8>
  %0 = graph.sparse_matmul %x, %v, %m : (tensor<2x1x4xf32>, tensor<2x2xf32>, tensor<2x2xi8>) -> tensor<2x1x2xf32>
  check.expect_eq_const %0, dense<[[[130.0, 160.0]], [[290.0, 400.0]]]> : tensor<2x1x2xf32>
  return
}
