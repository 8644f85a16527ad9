// quantize{mode=int8-dynamic}: a matmul's constant weight becomes an i8
// constant with one f32 scale per output channel, and its activation is
// quantized per row at run time: s_row = max(max |x_row|, 1e-5) / 127, q =
// clamp(round_even(x / s_row), -127, 127) as i8; the product is i8 x i8 ->
// i32, scaled back by both scales in f32 and cast to the product's type.
// A batched activation keeps its batch dims; under transpose_b the
// channels are the weight's rows. The quantized weight is stored K-major,
// [N, K] (a [K, N] weight transposed: column n of w is row n of q), and
// the product reads it under transpose_b. --quantize=report=true tells
// the bytes.
// RUN: aic-opt %s "--quantize=mode=int8-dynamic min-elements=1" | FileCheck %s
// RUN: aic-opt %s "--quantize=mode=int8-dynamic min-elements=1 report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: aic-opt %s "--quantize=mode=int8-dynamic min-elements=1" | aic-run --interpret - | FileCheck %s --check-prefix=EXEC
// RUN: aic-opt %s "--quantize=mode=int8-dynamic" | FileCheck %s --check-prefix=SMALL

// CHECK-LABEL: func.func @plain
// CHECK-DAG: %[[Q:.*]] = graph.constant dense<{{\[}}[127, 32, -127, 64], [-32, 127, 32, -127], [0, 0, 0, 0]]> : tensor<3x4xi8>
// CHECK-DAG: %[[SC:.*]] = graph.constant dense<{{.*}}> : tensor<3xf32>
// CHECK: %[[X:.*]] = graph.cast %arg0 : (tensor<2x4xf16>) -> tensor<2x4xf32>
// CHECK: %[[ABS:.*]] = graph.abs %[[X]] : tensor<2x4xf32>
// CHECK: %[[AMAX:.*]] = graph.reduce max %[[ABS]], axes = [1] : (tensor<2x4xf32>) -> tensor<2xf32>
// CHECK: %[[EPS:.*]] = graph.constant dense<9.99999974E-6> : tensor<2xf32>
// CHECK: %[[AM:.*]] = graph.max %[[AMAX]], %[[EPS]] : tensor<2xf32>
// CHECK: %[[L:.*]] = graph.constant dense<1.270000e+02> : tensor<2xf32>
// CHECK: %[[SR:.*]] = graph.div %[[AM]], %[[L]] : tensor<2xf32>
// CHECK: %[[SB:.*]] = graph.broadcast %[[SR]], dims = [0] : (tensor<2xf32>) -> tensor<2x4xf32>
// CHECK: %[[D:.*]] = graph.div %[[X]], %[[SB]] : tensor<2x4xf32>
// CHECK: %[[R:.*]] = graph.round_even %[[D]] : tensor<2x4xf32>
// CHECK: %[[LO:.*]] = graph.constant dense<-1.270000e+02> : tensor<2x4xf32>
// CHECK: %[[HI:.*]] = graph.constant dense<1.270000e+02> : tensor<2x4xf32>
// CHECK: %[[C1:.*]] = graph.max %[[R]], %[[LO]] : tensor<2x4xf32>
// CHECK: %[[C2:.*]] = graph.min %[[C1]], %[[HI]] : tensor<2x4xf32>
// CHECK: %[[QX:.*]] = graph.cast %[[C2]] : (tensor<2x4xf32>) -> tensor<2x4xi8>
// CHECK: %[[ACC:.*]] = graph.matmul %[[QX]], %[[Q]] transpose_b : (tensor<2x4xi8>, tensor<3x4xi8>) -> tensor<2x3xi32>
// CHECK: %[[F:.*]] = graph.cast %[[ACC]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK: %[[BR:.*]] = graph.broadcast %[[SR]], dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
// CHECK: %[[BC:.*]] = graph.broadcast %[[SC]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[M1:.*]] = graph.mul %[[F]], %[[BR]] : tensor<2x3xf32>
// CHECK: %[[M2:.*]] = graph.mul %[[M1]], %[[BC]] : tensor<2x3xf32>
// CHECK: %[[Y:.*]] = graph.cast %[[M2]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK: return %[[Y]] : tensor<2x3xf16>
// REPORT: quantize: 4x3xf16 weight of a matmul to int8 with 3 per-channel scales, activations per row at run time, an int8 product: 24 bytes before, 24 after; largest error {{.*}}
// SMALL-LABEL: func.func @plain
// SMALL-NOT: i8
// SMALL: graph.matmul %arg0, %{{.*}} : (tensor<2x4xf16>, tensor<4x3xf16>) -> tensor<2x3xf16>
func.func @plain(%x: tensor<2x4xf16>) -> tensor<2x3xf16> {
  %w = graph.constant dense<[[1.0, -0.5, 0.0], [0.25, 2.0, 0.0], [-1.0, 0.5, 0.0], [0.5, -2.0, 0.0]]> : tensor<4x3xf16>
  %y = graph.matmul %x, %w : (tensor<2x4xf16>, tensor<4x3xf16>) -> tensor<2x3xf16>
  return %y : tensor<2x3xf16>
}

// CHECK-LABEL: func.func @batched_transposed
// CHECK: graph.reduce max %{{.*}}, axes = [2] : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
// CHECK: graph.broadcast %{{.*}}, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
// CHECK: graph.matmul %{{.*}}, %{{.*}} transpose_b : (tensor<2x3x4xi8>, tensor<5x4xi8>) -> tensor<2x3x5xi32>
// CHECK: graph.broadcast %{{.*}}, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x5xf32>
// CHECK: graph.broadcast %{{.*}}, dims = [2] : (tensor<5xf32>) -> tensor<2x3x5xf32>
// CHECK-NOT: graph.cast %{{.*}} -> tensor<2x3x5xf32>
func.func @batched_transposed(%x: tensor<2x3x4xf32>) -> tensor<2x3x5xf32> {
  %w = graph.constant dense<0.5> : tensor<5x4xf32>
  %y = graph.matmul %x, %w transpose_b : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// Exact cases: rows whose values are multiples of their scale quantize
// exactly (the weight's channels too), an all-zero row gives zeros.
// x = [[127, -64, 0, 1], [0, 0, 0, 0]], s_row = [1, 1e-5 / 127];
// w's channels [1, -1, 0, 1] (s = 1/127), [2, 0, -2, 2] (s = 2/127),
// [0, 0, 0, 0] (s = 1); y = x w.
// EXEC: PASS exact
func.func @exact() {
  %x = graph.constant dense<[[127.0, -64.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<2x4xf32>
  %w = graph.constant dense<[[1.0, 2.0, 0.0], [-1.0, 0.0, 0.0], [0.0, -2.0, 0.0], [1.0, 2.0, 0.0]]> : tensor<4x3xf32>
  %y = graph.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const %y, dense<[[192.0, 256.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  return
}
