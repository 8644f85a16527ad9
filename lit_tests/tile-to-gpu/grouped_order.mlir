// A tuning's `group` (Triton's GROUP_SIZE_M): the GEMM's tile kernel says
// `group = g`, and tile-to-gpu maps each block's place in launch order (or a
// persistent block's current tile) to tiles `g` rows of tiles at a time down
// axis 0, every column of a group before the next group, the last group
// shorter where `g` does not divide the rows. Each run on the host equals the
// interpreter (a tile computed twice, or not at all, would not).
// RUN: printf '{"cpu/native/gemm/0x80x64x16/f32": {"bm": 16, "bn": 16, "bk": 16, "group": 2}}' > %t.json
// RUN: aic-opt %S/Inputs/iota_gemm_f32.mlir --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=cpu arch=native tuning=%t.json})' | FileCheck %s --check-prefix=TILE
// RUN: aic-opt %S/Inputs/iota_gemm_f32.mlir --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=cpu arch=native tuning=%t.json},tile-to-gpu)' | FileCheck %s --check-prefix=GPU
// RUN: aic-run --target=host %S/Inputs/iota_gemm_f32.mlir --tuning=%t.json --entry=@main --check 2>&1 | FileCheck %s --check-prefix=RAN
// TILE: tile.kernel @gemm_0 grid = [5, 4] group = 2 {
// The launch grid is the tile grid; block (x, y) is tile t = x + 5 y in
// launch order: group t / 8 (2 rows of 4 columns), its first row 2 (t / 8),
// its height min(5 - first, 2), row first + t % 8 % height, column
// t % 8 / height.
// GPU-LABEL: gpu.kernel @gemm_0 grid = [5, 4, 1]
// GPU: %[[X:.*]] = gpu.block_id x
// GPU: %[[Y:.*]] = gpu.block_id y
// GPU: %[[C5:.*]] = arith.constant 5 : index
// GPU: %[[Y5:.*]] = arith.muli %[[Y]], %[[C5]]
// GPU: %[[T:.*]] = arith.addi %[[X]], %[[Y5]]
// GPU: %[[Z:.*]] = gpu.block_id z
// GPU: %[[ZT:.*]] = arith.addi %[[T]],
// GPU: %[[R:.*]] = arith.remui %[[ZT]],
// GPU: %[[C8:.*]] = arith.constant 8 : index
// GPU: %[[WHICH:.*]] = arith.divui %[[R]], %[[C8]]
// GPU: %[[IN:.*]] = arith.remui %[[R]], %[[C8]]
// GPU: %[[C2:.*]] = arith.constant 2 : index
// GPU: %[[FIRST:.*]] = arith.muli %[[WHICH]], %[[C2]]
// GPU: %[[LEFT:.*]] = arith.subi %{{.*}}, %[[FIRST]]
// GPU: %[[H:.*]] = arith.minsi %[[LEFT]], %[[C2]]
// GPU: %[[DOWN:.*]] = arith.remui %[[IN]], %[[H]]
// GPU: arith.addi %[[FIRST]], %[[DOWN]]
// The column: the same group and height (computed again), then the place
// in the group over the height.
// GPU: %[[H2:.*]] = arith.minsi
// GPU: arith.divui %{{.*}}, %[[H2]]
// RAN: check: ok

// The same on warpgroup MMA, warp-specialised and persistent on 5 blocks:
// a block's tile loop reads its tile through the same order (4 column
// tiles of 64, 3 rows of 128 in groups of 2).
// RUN: printf '{"cpu/native/gemm/0x384x256x64/f16": {"bm": 128, "bn": 64, "bk": 64, "stages": 2, "threads": 256, "group": 2, "copy": "tma_ws", "persistent": 5}}' > %t.ws.json
// RUN: aic-opt %S/Inputs/iota_gemm_f16.mlir --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=cpu arch=native wgmma=true tuning=%t.ws.json})' | FileCheck %s --check-prefix=WS
// RUN: aic-run --target=host --mma=wgmma %S/Inputs/iota_gemm_f16.mlir --tuning=%t.ws.json --entry=@main --check 2>&1 | FileCheck %s --check-prefix=RAN
// RUN: aic-opt %S/Inputs/iota_gemm_f16.mlir --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=cpu arch=native wgmma=true tuning=%t.ws.json},tile-mma-layout{mma=wgmma threads=256},tile-shared-layout{mma=wgmma threads=256})' | FileCheck %s --check-prefix=WS-STAGED
// WS: tile.kernel @gemm_0 grid = [3, 4] threads = 256 copy = tma_ws persistent = 5 group = 2 {
// Its epilogue stages beside the rings (a region of its own, the producer
// refilling the rings for the next tile meanwhile), which the host run
// above checks too.
// WS-STAGED: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] staged : !tile.tile<128x64xf16>, memref<384x256xf16>

// Batched (a grid of three planes): each plane in turn, grouped alike.
// RUN: printf '{"cpu/native/gemm/3x80x64x16/f32": {"bm": 16, "bn": 16, "bk": 16, "group": 2}}' > %t.b.json
// RUN: aic-opt %S/Inputs/iota_bmm_f32.mlir --pass-pipeline='builtin.module(eqsat-fusion,fusion-to-tile{target=cpu arch=native tuning=%t.b.json})' | FileCheck %s --check-prefix=BATCH
// RUN: aic-run --target=host %S/Inputs/iota_bmm_f32.mlir --tuning=%t.b.json --entry=@main --check 2>&1 | FileCheck %s --check-prefix=RAN
// BATCH: tile.kernel @gemm_0 grid = [5, 4, 3] group = 2 {

// A group that is not a number of tiles is the cache's error, naming the entry.
// RUN: printf '{"cpu/native/gemm/0x80x64x16/f32": {"bm": 16, "bn": 16, "bk": 16, "group": -2}}' > %t.bad.json
// RUN: not aic-run --target=host %S/Inputs/iota_gemm_f32.mlir --tuning=%t.bad.json --entry=@main 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: entry 'cpu/native/gemm/0x80x64x16/f32': 'group' must be a number of tiles from 0 to 65536
