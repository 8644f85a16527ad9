// A warpgroup-MMA GEMM (f16/bf16 on sm_90a) with a long K loop takes no
// prologue on A: A reaches shared memory by TMA or cp.async only as a plain
// load, and a prologue (a norm's scale) would route it through registers and
// unpipeline the loop (a GPT block's projections ran at 62 TFLOP/s so). The
// group is split: the prologue's ops are kernels of their own, the GEMM
// reads A as it lies. Without warpgroup MMA (wgmma=false) or with a short K
// loop the prologue stays fused.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_80 total=true})' | FileCheck %s --check-prefix=MMA

// CHECK-LABEL: tile.kernel @elementwise_
// CHECK: arith.mulf
// CHECK-LABEL: tile.kernel @gemm_
// CHECK: %[[A:.*]] = tile.load %arg0
// CHECK-NEXT: tile.transfer %[[A]] to shared
// CHECK-NOT: arith.mulf
// CHECK: aic.tune = "h100/sm_90a/gemm/0x512x1024x1024/bf16"
// CHECK-LABEL: func.func @scaled
// CHECK: tile.launch @elementwise_
// CHECK: tile.launch @gemm_
// MMA-LABEL: tile.kernel @gemm_0
// MMA: arith.mulf
// MMA-LABEL: func.func @scaled
// MMA-NEXT: tile.launch @gemm_0
func.func @scaled(%x: tensor<512x1024xbf16>, %g: tensor<1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<512x1024xbf16> {
  %gb = graph.broadcast %g, dims = [1] : (tensor<1024xbf16>) -> tensor<512x1024xbf16>
  %0 = graph.mul %x, %gb : tensor<512x1024xbf16>
  %1 = graph.matmul %0, %w : (tensor<512x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<512x1024xbf16>
  return %1 : tensor<512x1024xbf16>
}

// -----

// CHECK-LABEL: tile.kernel @gemm_0
// CHECK: arith.mulf
// CHECK-LABEL: func.func @short_k
// CHECK-NEXT: tile.launch @gemm_0
func.func @short_k(%x: tensor<512x256xbf16>, %g: tensor<256xbf16>, %w: tensor<256x1024xbf16>) -> tensor<512x1024xbf16> {
  %gb = graph.broadcast %g, dims = [1] : (tensor<256xbf16>) -> tensor<512x256xbf16>
  %0 = graph.mul %x, %gb : tensor<512x256xbf16>
  %1 = graph.matmul %0, %w : (tensor<512x256xbf16>, tensor<256x1024xbf16>) -> tensor<512x1024xbf16>
  return %1 : tensor<512x1024xbf16>
}
