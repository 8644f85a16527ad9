// A warpgroup-MMA GEMM (f16/bf16 on sm_90a) with a long K loop takes no
// prologue on A, nor on B when it has more than a few rows: operands reach
// shared memory by TMA or cp.async only as plain loads, and a prologue (a
// norm's scale, auto-mixed-precision's cast of an f32 weight) would route
// them through registers and unpipeline the loop (a GPT block's projections
// ran at 62 TFLOP/s so). eqsat-fusion leaves the prologue a kernel of its
// own (legality::prologue_fits); given such a group whole, fusion-to-tile
// splits it. Without warpgroup MMA (wgmma=false) or with a short K loop
// the prologue stays fused.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{wgmma=false},fusion-to-tile{target=h100 arch=sm_80 total=true})' | FileCheck %s --check-prefix=MMA
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s --check-prefix=SPLIT

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

// -----

// auto-mixed-precision's form: an f32 weight cast to bf16 on B. The cast is a
// kernel of its own (the weight written once in bf16), the GEMM pipelines.
// CHECK-LABEL: tile.kernel @elementwise_
// CHECK: arith.truncf
// CHECK-LABEL: tile.kernel @gemm_
// CHECK-NOT: 1024x1024xf32
// CHECK: aic.tune = "h100/sm_90a/gemm/0x512x1024x1024/bf16"
// CHECK-LABEL: func.func @cast_weight
// CHECK: tile.launch @elementwise_{{.*}}(%arg1)
// CHECK: tile.launch @gemm_
// MMA-LABEL: tile.kernel @gemm_0
// MMA: arith.truncf
// MMA-LABEL: func.func @cast_weight
// MMA-NEXT: tile.launch @gemm_0
func.func @cast_weight(%x: tensor<512x1024xbf16>, %w: tensor<1024x1024xf32>) -> tensor<512x1024xbf16> {
  %0 = graph.cast %w : (tensor<1024x1024xf32>) -> tensor<1024x1024xbf16>
  %1 = graph.matmul %x, %0 : (tensor<512x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<512x1024xbf16>
  return %1 : tensor<512x1024xbf16>
}

// -----

// The same group given to fusion-to-tile whole is split around the GEMM.
// SPLIT-LABEL: tile.kernel @elementwise_
// SPLIT: arith.truncf
// SPLIT-LABEL: tile.kernel @gemm_
// SPLIT-NOT: 1024x1024xf32
// SPLIT: aic.tune = "h100/sm_90a/gemm/0x512x1024x1024/bf16"
// SPLIT-LABEL: func.func @cast_weight_group
func.func @cast_weight_group(%x: tensor<512x1024xbf16>, %w: tensor<1024x1024xf32>) -> tensor<512x1024xbf16> {
  %0 = fusion.group vertical (%a = %x, %b = %w) : (tensor<512x1024xbf16>, tensor<1024x1024xf32>) -> tensor<512x1024xbf16> {
    %1 = graph.cast %b : (tensor<1024x1024xf32>) -> tensor<1024x1024xbf16>
    %2 = graph.matmul %a, %1 : (tensor<512x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<512x1024xbf16>
    fusion.yield %2 : tensor<512x1024xbf16>
  }
  return %0 : tensor<512x1024xbf16>
}

// -----

// A convolution's implicit GEMM fills a copy ring as well: a ReLU on the
// input of a 3x3 convolution (K = 3 * 3 * 64) is not its prologue (ResNet's
// took 140 us so on the H100, against 27.5 with the ReLU in the producing
// convolution's epilogue); here, with no producer to join, it is a kernel
// of its own. A 1x1 convolution (K = 64) keeps it.
// CHECK-LABEL: func.func @conv_relu
// CHECK: tile.launch @elementwise_
// CHECK-NEXT: tile.launch @gemm_
// CHECK-NEXT: return
// MMA-LABEL: func.func @conv_relu
// MMA-NEXT: tile.launch @gemm_
// MMA-NEXT: return
func.func @conv_relu(%x: tensor<8x56x56x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<8x56x56x64xf16> {
  %0 = graph.relu %x : tensor<8x56x56x64xf16>
  %1 = graph.conv2d %0, %w, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [1, 1, 1, 1] : (tensor<8x56x56x64xf16>, tensor<3x3x64x64xf16>) -> tensor<8x56x56x64xf16>
  return %1 : tensor<8x56x56x64xf16>
}

// -----

// CHECK-LABEL: func.func @conv1x1_relu
// CHECK-NEXT: tile.launch @gemm_
// CHECK-NEXT: return
func.func @conv1x1_relu(%x: tensor<8x56x56x64xf16>, %w: tensor<1x1x64x256xf16>) -> tensor<8x56x56x256xf16> {
  %0 = graph.relu %x : tensor<8x56x56x64xf16>
  %1 = graph.conv2d %0, %w, layout = NHWC, strides = [1, 1], dilations = [1, 1], padding = [0, 0, 0, 0] : (tensor<8x56x56x64xf16>, tensor<1x1x64x256xf16>) -> tensor<8x56x56x256xf16>
  return %1 : tensor<8x56x56x256xf16>
}
