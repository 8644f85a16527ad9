// GEMM, layernorm, GEMM at ViT-B's width (768): a chain's block would hold
// 64 rows of 768 fp32 accumulators and stage both GEMMs' 768-wide B tiles,
// more than an H100 block's shared memory (the GEMM chain generator declines
// it), so the cost model does not make it one kernel: the first GEMM with
// its layernorm, then the second GEMM. At width 64 the chain is one kernel.
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s
// CHECK-LABEL: func.func @wide
// CHECK-NOT: fusion.group b2b_gemm
// CHECK-LABEL: func.func @narrow
// CHECK: fusion.group b2b_gemm
func.func @wide(%x: tensor<4096x768xf16>, %w1: tensor<768x768xf16>, %g: tensor<768xf16>, %b: tensor<768xf16>, %w2: tensor<768x3072xf16>) -> tensor<4096x3072xf16> {
  %y = graph.matmul %x, %w1 : (tensor<4096x768xf16>, tensor<768x768xf16>) -> tensor<4096x768xf16>
  %n = graph.layernorm %y, %g, %b : (tensor<4096x768xf16>, tensor<768xf16>, tensor<768xf16>) -> tensor<4096x768xf16>
  %z = graph.matmul %n, %w2 : (tensor<4096x768xf16>, tensor<768x3072xf16>) -> tensor<4096x3072xf16>
  return %z : tensor<4096x3072xf16>
}
func.func @narrow(%x: tensor<4096x64xf16>, %w1: tensor<64x64xf16>, %g: tensor<64xf16>, %b: tensor<64xf16>, %w2: tensor<64x256xf16>) -> tensor<4096x256xf16> {
  %y = graph.matmul %x, %w1 : (tensor<4096x64xf16>, tensor<64x64xf16>) -> tensor<4096x64xf16>
  %n = graph.layernorm %y, %g, %b : (tensor<4096x64xf16>, tensor<64xf16>, tensor<64xf16>) -> tensor<4096x64xf16>
  %z = graph.matmul %n, %w2 : (tensor<4096x64xf16>, tensor<64x256xf16>) -> tensor<4096x256xf16>
  return %z : tensor<4096x256xf16>
}
