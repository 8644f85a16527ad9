// The built-in wgmma GEMM tiles on sm_90a (Tuning::heuristic_wgmma,
// Tuning::ping_pong): 128 x 256 blocks of two warpgroups; a short K loop (at
// most 1024) over two 64 x 256 tiles an SM or more (4096 x 4096 x 1024: 1024
// tiles; GPT-2's 8192 x 1024 x 1024: 512) runs warp-specialised and
// persistent with two consumer warpgroups taking turns, each its own 64 x
// 256 tiles, in 4 stages, each warpgroup's store staged beside them; a GEMM
// whose A outgrows the L2 (8192 x 8192) takes its tiles in groups of 16
// rows; fewer tiles (BERT's 4096 x 768 x 768, 192) neither.
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true},tile-mma-layout{mma=wgmma},tile-shared-layout{mma=wgmma})' | FileCheck %s --check-prefix=LAYOUT
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true},tile-to-gpu{mma=wgmma})' | FileCheck %s --check-prefix=GPU
// CHECK-DAG: tile.kernel @[[SHORT:.*]] grid = [64, 16] threads = 128 copy = tma_ws persistent = 132 consumers = 2 {
// CHECK-DAG: tile.kernel @[[BIG:.*]] grid = [64, 32] threads = 256 group = 16 {
// CHECK-DAG: tile.kernel @[[BERT:.*]] grid = [32, 4] threads = 256 {
// CHECK-DAG: tile.kernel @[[GPT:.*]] grid = [128, 4] threads = 128 copy = tma_ws persistent = 132 consumers = 2 {
// LAYOUT: tile.kernel {{.*}} grid = [64, 16] threads = 128 copy = tma_ws persistent = 132 consumers = 2 {
// LAYOUT: tile.for {{.*}} stages = 4 copy = tma_ws {
// LAYOUT: tile.store {{.*}} staged
// Three warpgroups a block (two consumers and the producer); each
// consumer's staging tile (64 rows of 256 + 8) its own: 4 stages of 40 KiB,
// their mbarriers, then two staging tiles.
// GPU: gpu.kernel @gemm_0 grid = [132, 1, 1] block = [384, 1, 1] shared = 231488 {
// GPU: gpu.shared offset = 163904 : memref<33792xf16

func.func @main(%a: tensor<4096x1024xf16>, %w: tensor<1024x4096xf16>, %x: tensor<8192x8192xf16>, %y: tensor<8192x8192xf16>, %h: tensor<4096x768xf16>, %v: tensor<768x768xf16>, %g: tensor<8192x1024xf16>, %u: tensor<1024x1024xf16>) -> (tensor<4096x4096xf16>, tensor<8192x8192xf16>, tensor<4096x768xf16>, tensor<8192x1024xf16>) {
  %s = graph.matmul %a, %w : (tensor<4096x1024xf16>, tensor<1024x4096xf16>) -> tensor<4096x4096xf16>
  %b = graph.matmul %x, %y : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  %e = graph.matmul %h, %v : (tensor<4096x768xf16>, tensor<768x768xf16>) -> tensor<4096x768xf16>
  %p = graph.matmul %g, %u : (tensor<8192x1024xf16>, tensor<1024x1024xf16>) -> tensor<8192x1024xf16>
  return %s, %b, %e, %p : tensor<4096x4096xf16>, tensor<8192x8192xf16>, tensor<4096x768xf16>, tensor<8192x1024xf16>
}
