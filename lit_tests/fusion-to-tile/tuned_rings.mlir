// fusion-to-tile: a tuning-cache entry's ring copy and persistent blocks
// (aic-tune's warp-specialised candidates) become the tile kernel's `copy`
// and `persistent`, and the layout passes carry the copy to the kernel's
// pipelined loop with no `copy` option of their own: the attention's key
// loop and the GEMM's K loop are warp-specialised, the GEMM persistent.
// An entry whose choice cannot be done falls back: the attention over 200
// keys in blocks of 64 (a box would reach into the next batch) keeps
// cp.async, and its `persistent` goes.
// RUN: printf '{"h100/sm_90a/attention/2x256x256x64x64/f16": {"bm": 128, "bn": 64, "bk": 16, "stages": 3, "threads": 256, "copy": "tma_ws"}, "h100/sm_90a/gemm/0x256x256x128/f16": {"bm": 128, "bn": 128, "bk": 64, "stages": 3, "threads": 256, "copy": "tma_ws", "persistent": 2}, "h100/sm_90a/attention/2x256x200x64x64/f16": {"bm": 128, "bn": 64, "bk": 16, "stages": 3, "threads": 256, "copy": "tma_ws", "persistent": 4}}' > %t.json
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json})' | aic-opt | FileCheck %s --check-prefix=TILE
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json},tile-mma-layout{mma=wgmma},tile-shared-layout{mma=wgmma})' | FileCheck %s --check-prefix=LAYOUT
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json},tile-to-gpu{mma=wgmma})' | FileCheck %s --check-prefix=GPU
// RUN: printf '{"h100/sm_90a/attention/2x256x256x64x64/f16": {"bm": 128, "bn": 64, "bk": 16, "copy": "dma"}}' > %t.bad.json
// RUN: not aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.bad.json})' 2>&1 | FileCheck %s --check-prefix=BAD

// TILE: tile.kernel @attention_0 grid = [2, 1, 2] threads = 256 copy = tma_ws {
// TILE: tile.kernel @gemm_1 grid = [2, 2] threads = 256 copy = tma_ws persistent = 2 {
// TILE: tile.kernel @attention_2 grid = [2, 1, 2] threads = 256 copy = tma_ws persistent = 4 {

// LAYOUT-LABEL: tile.kernel @attention_0 grid = [2, 1, 2] threads = 256 copy = tma_ws {
// LAYOUT: tile.for {{.*}} stages = 3 copy = tma_ws {
// LAYOUT-LABEL: tile.kernel @gemm_1 grid = [2, 2] threads = 256 copy = tma_ws persistent = 2 {
// LAYOUT: tile.for {{.*}} stages = 3 copy = tma_ws {
// LAYOUT-LABEL: tile.kernel @attention_2 grid = [2, 1, 2] threads = 256 copy = tma_ws {
// LAYOUT-NOT: copy = tma
// LAYOUT: tile.for {{.*}} stages = 3 {

// GPU: gpu.kernel @attention_0 grid = [2, 1, 2] block = [384, 1, 1]
// GPU: nvgpu.tma.async.load
// GPU: gpu.kernel @gemm_1 grid = [2, 1, 1] block = [384, 1, 1]
// GPU: nvgpu.tma.async.load
// GPU: gpu.kernel @attention_2 grid = [2, 1, 2] block = [256, 1, 1]
// GPU-NOT: nvgpu.tma.async.load
// GPU: nvgpu.device_async_copy

// BAD: entry 'h100/sm_90a/attention/2x256x256x64x64/f16': 'copy' must be one of cp_async, tma, tma_empty, tma_ws

func.func public @main(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>, %v: tensor<1x2x256x64xf16>, %a: tensor<256x128xf16>, %w: tensor<128x256xf16>, %k2: tensor<1x2x200x64xf16>, %v2: tensor<1x2x200x64xf16>) -> (tensor<1x2x256x64xf16>, tensor<256x256xf16>, tensor<1x2x256x64xf16>) {
  %s = graph.matmul %q, %k transpose_b : (tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>) -> tensor<1x2x256x256xf16>
  %c = graph.constant dense<1.250000e-01> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<1x2x256x256xf16>
  %x = graph.mul %s, %cb : tensor<1x2x256x256xf16>
  %p = graph.softmax %x, axis = 3 : tensor<1x2x256x256xf16>
  %o = graph.matmul %p, %v : (tensor<1x2x256x256xf16>, tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16>
  %m = graph.matmul %a, %w : (tensor<256x128xf16>, tensor<128x256xf16>) -> tensor<256x256xf16>
  %s2 = graph.matmul %q, %k2 transpose_b : (tensor<1x2x256x64xf16>, tensor<1x2x200x64xf16>) -> tensor<1x2x256x200xf16>
  %cb2 = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<1x2x256x200xf16>
  %x2 = graph.mul %s2, %cb2 : tensor<1x2x256x200xf16>
  %p2 = graph.softmax %x2, axis = 3 : tensor<1x2x256x200xf16>
  %o2 = graph.matmul %p2, %v2 : (tensor<1x2x256x200xf16>, tensor<1x2x200x64xf16>) -> tensor<1x2x256x64xf16>
  return %o, %m, %o2 : tensor<1x2x256x64xf16>, tensor<256x256xf16>, tensor<1x2x256x64xf16>
}
