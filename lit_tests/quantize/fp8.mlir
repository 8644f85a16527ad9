// quantize{mode=fp8}: a matmul's constant float weight becomes an
// f8E4M3FN constant with one f32 scale for the whole tensor (amax / 448,
// repeated per output channel), and its activation is quantized per row
// at run time: s_row = max(max |x_row|, 1e-5) / 448, q = clamp(x / s_row,
// -448, 448) cast to f8E4M3FN (rounding to nearest even, saturated; NaN
// stays NaN); the product is e4m3 x e4m3 -> f32 (mma.sync's fp8 form),
// scaled back by both scales in f32 and cast to the product's type. The
// weight is stored K-major, [N, K], read under transpose_b (as
// torch._scaled_mm's column-major B, and wgmma's 8-bit forms need).
// RUN: aic-opt %s "--quantize=mode=fp8 min-elements=1" | FileCheck %s
// RUN: aic-opt %s "--quantize=mode=fp8 min-elements=1 report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: aic-opt %s "--quantize=mode=fp8 min-elements=1" | aic-run --interpret - | FileCheck %s --check-prefix=EXEC
// RUN: aic-opt %s "--quantize=mode=fp8 min-elements=1" | aic-translate --target=nvptx --arch=sm_90 --emit=asm - -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: func.func @plain
// CHECK-DAG: %[[Q:.*]] = graph.constant dense<{{.*}}> : tensor<32x64xf8E4M3FN>
// CHECK-DAG: %[[SC:.*]] = graph.constant dense<{{.*}}> : tensor<32xf32>
// CHECK: %[[X:.*]] = graph.cast %arg0 : (tensor<48x64xf16>) -> tensor<48x64xf32>
// CHECK: %[[ABS:.*]] = graph.abs %[[X]] : tensor<48x64xf32>
// CHECK: %[[AMAX:.*]] = graph.reduce max %[[ABS]], axes = [1] : (tensor<48x64xf32>) -> tensor<48xf32>
// CHECK: %[[AM:.*]] = graph.max %[[AMAX]], %{{.*}} : tensor<48xf32>
// CHECK: %[[L:.*]] = graph.constant dense<4.480000e+02> : tensor<48xf32>
// CHECK: %[[SR:.*]] = graph.div %[[AM]], %[[L]] : tensor<48xf32>
// CHECK: %[[SB:.*]] = graph.broadcast %[[SR]], dims = [0] : (tensor<48xf32>) -> tensor<48x64xf32>
// CHECK: %[[D:.*]] = graph.div %[[X]], %[[SB]] : tensor<48x64xf32>
// CHECK-NOT: graph.round_even
// CHECK: %[[LO:.*]] = graph.constant dense<-4.480000e+02> : tensor<48x64xf32>
// CHECK: %[[HI:.*]] = graph.constant dense<4.480000e+02> : tensor<48x64xf32>
// CHECK: %[[C1:.*]] = graph.max %[[D]], %[[LO]] : tensor<48x64xf32>
// CHECK: %[[C2:.*]] = graph.min %[[C1]], %[[HI]] : tensor<48x64xf32>
// CHECK: %[[QX:.*]] = graph.cast %[[C2]] : (tensor<48x64xf32>) -> tensor<48x64xf8E4M3FN>
// CHECK: %[[ACC:.*]] = graph.matmul %[[QX]], %[[Q]] transpose_b : (tensor<48x64xf8E4M3FN>, tensor<32x64xf8E4M3FN>) -> tensor<48x32xf32>
// CHECK-NOT: graph.cast %[[ACC]]
// CHECK: %[[BR:.*]] = graph.broadcast %[[SR]], dims = [0] : (tensor<48xf32>) -> tensor<48x32xf32>
// CHECK: %[[BC:.*]] = graph.broadcast %[[SC]], dims = [1] : (tensor<32xf32>) -> tensor<48x32xf32>
// CHECK: %[[M1:.*]] = graph.mul %[[ACC]], %[[BR]] : tensor<48x32xf32>
// CHECK: %[[M2:.*]] = graph.mul %[[M1]], %[[BC]] : tensor<48x32xf32>
// CHECK: %[[Y:.*]] = graph.cast %[[M2]] : (tensor<48x32xf32>) -> tensor<48x32xf16>
// CHECK: return %[[Y]] : tensor<48x32xf16>
// REPORT: quantize: 64x32xf16 weight of a matmul to f8E4M3FN with one per-tensor scale, activations per row at run time, an fp8 product: 4096 bytes before, 2052 after; largest error {{.*}}
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
func.func @plain(%x: tensor<48x64xf16>) -> tensor<48x32xf16> {
  %w = graph.constant dense<0.75> : tensor<64x32xf16>
  %y = graph.matmul %x, %w : (tensor<48x64xf16>, tensor<64x32xf16>) -> tensor<48x32xf16>
  return %y : tensor<48x32xf16>
}

// Exact cases: values that are e4m3 levels times their scale quantize
// exactly. x's rows have amax 448 and 224 (s_row = 1, 0.5), an all-zero
// row gives zeros; w's amax is 448 (s_w = 1); y = x w.
// EXEC: PASS exact
func.func @exact() {
  %x = graph.constant dense<[[448.0, -64.0, 0.0, 1.0], [224.0, 0.5, -3.0, 0.0], [0.0, 0.0, 0.0, 0.0]]> : tensor<3x4xf32>
  %w = graph.constant dense<[[1.0, 2.0, 0.0], [-1.0, 0.0, 448.0], [0.0, -2.0, 0.0], [1.0, 2.0, 0.0]]> : tensor<4x3xf32>
  %y = graph.matmul %x, %w : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %y, dense<[[513.0, 898.0, -28672.0], [223.5, 454.0, 224.0], [0.0, 0.0, 0.0]]> : tensor<3x3xf32>
  return
}
