// Fusion discovered in the e-graph: a dense layer with bias and activation
// becomes one vertical kernel, a softmax one graph.softmax (raised; without
// the raising rules, two reduction kernels), elementwise
// chains one kernel; ops whose result type is not a function of their
// operands (two reshapes of one value) stay distinct; output is deterministic.
// RUN: aic-opt %s --split-input-file --eqsat-fusion | FileCheck %s
// RUN: aic-opt %s --split-input-file --eqsat-fusion > %t.1 && aic-opt %s --split-input-file --eqsat-fusion > %t.2 && diff %t.1 %t.2
// RUN: aic-opt %s --split-input-file --eqsat-fusion --mlir-print-op-generic | aic-opt --split-input-file | FileCheck %s
// RUN: aic-opt %s --split-input-file --eqsat-fusion --eqsat-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: aic-opt %s --split-input-file --eqsat-fusion='rules=algebraic,fusion' | FileCheck %s --check-prefix=NORAISE

// CHECK-LABEL: func.func @dense
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK: graph.matmul
// CHECK: graph.bias_add
// CHECK: graph.relu
// CHECK: fusion.yield
// CHECK: return %[[G]]
// REPORT: kernels: 3 before, 1 after
// REPORT-NEXT: fused vertical [matmul bias_add relu]: {{[0-9.]+}} us, unfused {{[0-9.]+}} us, saving {{[0-9.]+}} us
func.func @dense(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8x32xf32> {
  %m = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %a = graph.bias_add %m, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %r = graph.relu %a : tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[S:.*]] = graph.softmax %arg0, axis = 1 : tensor<4x10xf32>
// CHECK-NEXT: return %[[S]]
// REPORT: kernels: 7 before, 1 after
// NORAISE-LABEL: func.func @softmax
// NORAISE-COUNT-2: fusion.group reduction
// NORAISE-NOT: fusion.group
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %m = graph.reduce max %x, axes = [1] : (tensor<4x10xf32>) -> tensor<4xf32>
  %mb = graph.broadcast %m, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
  %d = graph.sub %x, %mb : tensor<4x10xf32>
  %e = graph.exp %d : tensor<4x10xf32>
  %s = graph.reduce sum %e, axes = [1] : (tensor<4x10xf32>) -> tensor<4xf32>
  %sb = graph.broadcast %s, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
  %r = graph.div %e, %sb : tensor<4x10xf32>
  return %r : tensor<4x10xf32>
}

// -----

// CHECK-LABEL: func.func @reshapes
// NORAISE-LABEL: func.func @reshapes
// CHECK-DAG: graph.reshape %arg0 : (tensor<2x6xf32>) -> tensor<3x4xf32>
// CHECK-DAG: graph.reshape %arg0 : (tensor<2x6xf32>) -> tensor<4x3xf32>
func.func @reshapes(%x: tensor<2x6xf32>) -> (tensor<3x4xf32>, tensor<4x3xf32>) {
  %a = graph.reshape %x : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %b = graph.reshape %x : (tensor<2x6xf32>) -> tensor<4x3xf32>
  return %a, %b : tensor<3x4xf32>, tensor<4x3xf32>
}

// -----

// Composable Kernel's GEMM+Add+Add+FastGeLU: the two residual adds and the
// activation are the GEMM's epilogue, one kernel.
// CHECK-LABEL: func.func @gemm_add_add_fastgelu
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK: graph.matmul
// CHECK: graph.add
// CHECK: graph.add
// CHECK: graph.fast_gelu
// CHECK: fusion.yield
// CHECK: return %[[G]]
// REPORT: kernels: 4 before, 1 after
func.func @gemm_add_add_fastgelu(%a: tensor<64x128xf16>, %b: tensor<128x256xf16>, %d0: tensor<64x256xf16>, %d1: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %m = graph.matmul %a, %b : (tensor<64x128xf16>, tensor<128x256xf16>) -> tensor<64x256xf16>
  %e0 = graph.add %m, %d0 : tensor<64x256xf16>
  %e1 = graph.add %e0, %d1 : tensor<64x256xf16>
  %g = graph.fast_gelu %e1 : tensor<64x256xf16>
  return %g : tensor<64x256xf16>
}

// -----

// A convolution with bias and relu (NHWC) is one kernel too.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK: graph.conv2d
// CHECK: graph.bias_add
// CHECK: graph.relu
// CHECK: return %[[G]]
// REPORT: kernels: 3 before, 1 after
func.func @conv_bias_relu(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<1x16x16x16xf32> {
  %c = graph.conv2d %x, %w, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<1x16x16x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x16x16x16xf32>
  %a = graph.bias_add %c, %b : (tensor<1x16x16x16xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
  %r = graph.relu %a : tensor<1x16x16x16xf32>
  return %r : tensor<1x16x16x16xf32>
}
