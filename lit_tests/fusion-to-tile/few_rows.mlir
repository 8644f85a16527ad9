// A GEMM of a few rows with a long K loop (SD's time embedding, silu(temb)
// @ W + b): its prologue would keep the loop from pipelining
// (legality::prologue_fits), so eqsat-fusion leaves it a kernel of its own,
// and fusion-to-tile given the group whole splits it; the GEMM reads A as
// it lies and, on h100, takes 16-row tiles (tensor cores) with long K steps.
// With a short K loop the prologue stays fused.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(fusion-to-tile{target=h100 arch=sm_90a wgmma=true total=true})' | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: tile.kernel @elementwise_0
// CHECK: math.exp
// CHECK-LABEL: tile.kernel @gemm_1 grid = [1, 10]
// CHECK: tile.for %{{.*}} to %c1280 step %c256
// CHECK-NOT: math.exp
// CHECK: aic.tune = "h100/sm_90a/gemm/0x2x320x1280/f16"
// CHECK-LABEL: func.func @temb
// CHECK: tile.launch @elementwise_0
// CHECK: tile.launch @gemm_1
func.func @temb(%x: tensor<2x1280xf16>, %w: tensor<1280x320xf16>) -> tensor<2x320xf16> {
  %0 = graph.silu %x : tensor<2x1280xf16>
  %1 = graph.matmul %0, %w : (tensor<2x1280xf16>, tensor<1280x320xf16>) -> tensor<2x320xf16>
  return %1 : tensor<2x320xf16>
}

// -----

// SPLIT-LABEL: tile.kernel @elementwise_1
// SPLIT: math.exp
// SPLIT-LABEL: tile.kernel @gemm_2 grid = [1, 10]
// SPLIT-NOT: math.exp
// SPLIT: aic.tune = "h100/sm_90a/gemm/0x2x320x1280/f16"
// SPLIT-LABEL: func.func @temb_group
// SPLIT: tile.launch @elementwise_1
// SPLIT: tile.launch @gemm_2
func.func @temb_group(%x: tensor<2x1280xf16>, %w: tensor<1280x320xf16>) -> tensor<2x320xf16> {
  %0 = fusion.group vertical (%a = %x, %b = %w) : (tensor<2x1280xf16>, tensor<1280x320xf16>) -> tensor<2x320xf16> {
    %1 = graph.silu %a : tensor<2x1280xf16>
    %2 = graph.matmul %1, %b : (tensor<2x1280xf16>, tensor<1280x320xf16>) -> tensor<2x320xf16>
    fusion.yield %2 : tensor<2x320xf16>
  }
  return %0 : tensor<2x320xf16>
}

// -----

// CHECK-LABEL: tile.kernel @gemm_0
// CHECK: math.exp
// CHECK-LABEL: func.func @short_k
// CHECK-NEXT: tile.launch @gemm_0
func.func @short_k(%x: tensor<2x64xf16>, %w: tensor<64x320xf16>) -> tensor<2x320xf16> {
  %0 = graph.silu %x : tensor<2x64xf16>
  %1 = graph.matmul %0, %w : (tensor<2x64xf16>, tensor<64x320xf16>) -> tensor<2x320xf16>
  return %1 : tensor<2x320xf16>
}
