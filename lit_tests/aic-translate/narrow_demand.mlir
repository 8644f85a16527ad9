// Exact GeLU as JAX exports it (x * erfc(-x / sqrt 2) / 2) on an f16 GEMM:
// the epilogue computes in f32 on the accumulator, but the program asks for
// f16, so fusion-to-tile marks erf `fastmath<afn>` and NVPTX divides with
// div.approx.f32 inside it, never the IEEE division (which ptxas expands to
// some 40 instructions an element, after the K loop). The same GeLU on f32
// keeps div.rn.f32.
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s

// CHECK-LABEL: .entry gemm_0(
// CHECK: mma.sync
// CHECK-NOT: div.rn.f32
// CHECK: div.approx.f32
// CHECK-NOT: div.rn.f32
// CHECK-LABEL: .entry gemm_1(
// CHECK-NOT: div.approx.f32
// CHECK: div.rn.f32
// CHECK-NOT: div.approx.f32
// CHECK: ret;

func.func public @main(%x: tensor<64x64xf16>, %w: tensor<64x128xf16>, %x32: tensor<64x64xf32>, %w32: tensor<64x128xf32>) -> (tensor<64x128xf16>, tensor<64x128xf32>) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x64xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  %h = stablehlo.constant dense<5.000000e-01> : tensor<64x128xf16>
  %s = stablehlo.constant dense<7.070310e-01> : tensor<64x128xf16>
  %1 = stablehlo.multiply %h, %0 : tensor<64x128xf16>
  %2 = stablehlo.negate %0 : tensor<64x128xf16>
  %3 = stablehlo.multiply %2, %s : tensor<64x128xf16>
  %4 = chlo.erfc %3 : tensor<64x128xf16> -> tensor<64x128xf16>
  %5 = stablehlo.multiply %1, %4 : tensor<64x128xf16>
  %6 = stablehlo.dot_general %x32, %w32, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32>
  %h32 = stablehlo.constant dense<5.000000e-01> : tensor<64x128xf32>
  %s32 = stablehlo.constant dense<0.707106769> : tensor<64x128xf32>
  %7 = stablehlo.multiply %h32, %6 : tensor<64x128xf32>
  %8 = stablehlo.negate %6 : tensor<64x128xf32>
  %9 = stablehlo.multiply %8, %s32 : tensor<64x128xf32>
  %10 = chlo.erfc %9 : tensor<64x128xf32> -> tensor<64x128xf32>
  %11 = stablehlo.multiply %7, %10 : tensor<64x128xf32>
  return %5, %11 : tensor<64x128xf16>, tensor<64x128xf32>
}
