// The built-in wgmma GEMM tiles on sm_90a (Tuning::heuristic_wgmma): 128 x
// 256 blocks of two warpgroups; a short K loop (at most 1024) over two and a
// half waves of tiles or more (512 here) runs warp-specialised and
// persistent, in 3 stages; a
// GEMM whose A outgrows the L2 (8192 x 8192) takes its tiles in groups of 16
// rows; one wave of tiles (BERT's 4096 x 768 x 768) neither, nor GPT-2's
// 8192 x 1024 x 1024 (256 tiles, under two and a half waves).
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true},tile-mma-layout{mma=wgmma},tile-shared-layout{mma=wgmma})' | FileCheck %s --check-prefix=LAYOUT
// CHECK-DAG: tile.kernel @[[SHORT:.*]] grid = [32, 16] threads = 256 copy = tma_ws persistent = 132 {
// CHECK-DAG: tile.kernel @[[BIG:.*]] grid = [64, 32] threads = 256 group = 16 {
// CHECK-DAG: tile.kernel @[[BERT:.*]] grid = [32, 4] threads = 256 {
// CHECK-DAG: tile.kernel @[[GPT:.*]] grid = [64, 4] threads = 256 {
// The persistent one's loop takes 3 stages, its store staged beside them.
// LAYOUT: tile.kernel {{.*}} grid = [32, 16] threads = 256 copy = tma_ws persistent = 132 {
// LAYOUT: tile.for {{.*}} stages = 3 copy = tma_ws {
// LAYOUT: tile.store {{.*}} staged

func.func @main(%a: tensor<4096x1024xf16>, %w: tensor<1024x4096xf16>, %x: tensor<8192x8192xf16>, %y: tensor<8192x8192xf16>, %h: tensor<4096x768xf16>, %v: tensor<768x768xf16>, %g: tensor<8192x1024xf16>, %u: tensor<1024x1024xf16>) -> (tensor<4096x4096xf16>, tensor<8192x8192xf16>, tensor<4096x768xf16>, tensor<8192x1024xf16>) {
  %s = graph.matmul %a, %w : (tensor<4096x1024xf16>, tensor<1024x4096xf16>) -> tensor<4096x4096xf16>
  %b = graph.matmul %x, %y : (tensor<8192x8192xf16>, tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  %e = graph.matmul %h, %v : (tensor<4096x768xf16>, tensor<768x768xf16>) -> tensor<4096x768xf16>
  %p = graph.matmul %g, %u : (tensor<8192x1024xf16>, tensor<1024x1024xf16>) -> tensor<8192x1024xf16>
  return %s, %b, %e, %p : tensor<4096x4096xf16>, tensor<8192x8192xf16>, tensor<4096x768xf16>, tensor<8192x1024xf16>
}
