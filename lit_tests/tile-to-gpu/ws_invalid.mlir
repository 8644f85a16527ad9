// tile-to-gpu follows warp-specialised loops written in the IR (`copy =
// tma_ws`) only where the producer warpgroup can run them: loops directly in
// the kernel's body, one after another on one ring (its fills numbered on
// from one loop to the next, as a causal attention's unmasked and diagonal
// key loops), no other kind of TMA loop beside them, and in a persistent
// kernel one loop of constant bounds and no store staged in the rings the
// producer refills. (The layout passes write tma_ws on one GEMM loop at
// most, and stage no store of a persistent kernel.)
// Both loops tma_ws: one producer copies both loops' stages, 2 then 2 more.
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | sed -e 's/stages = 3 {/stages = 3 copy = tma_ws {/' -e 's/ staged : / : /' > %t0.mlir
// RUN: aic-opt %t0.mlir --tile-to-gpu="mma=wgmma threads=128" | FileCheck %s --check-prefix=CHAIN
// One tma_ws, the other tma:
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | sed -e '0,/stages = 3 {/s//stages = 3 copy = tma_ws {/' -e 's/stages = 3 {/stages = 3 copy = tma {/' -e 's/ staged : / : /' > %t.mlir
// RUN: not aic-opt %t.mlir --tile-to-gpu="mma=wgmma threads=128" 2>&1 | FileCheck %s
// Both tma_ws, the second in 2 stages (one ring must have one depth):
// RUN: sed -e '0,/copy = tma_ws/! s/stages = 3 copy = tma_ws/stages = 2 copy = tma_ws/' %t0.mlir > %t4.mlir
// RUN: not aic-opt %t4.mlir --tile-to-gpu="mma=wgmma threads=128" 2>&1 | FileCheck %s --check-prefix=STAGES
// Persistent, a store staged:
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | sed -e 's/stages = 3 {/stages = 3 copy = tma_ws {/' -e 's/grid = \[1\] {/grid = [1] persistent = 2 {/' > %t2.mlir
// RUN: not aic-opt %t2.mlir --tile-to-gpu="mma=wgmma threads=128" 2>&1 | FileCheck %s --check-prefix=PERSIST
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128" | sed -e '0,/stages = 3 {/s//stages = 3 copy = tma_ws {/' -e 's/grid = \[1\] {/grid = [1] persistent = 2 {/' > %t3.mlir
// A persistent kernel's staged store stages in a region of its own (the
// scratch region past the rings and their mbarriers), since the producer
// refills the rings for the next tile while the consumers store one:
// RUN: aic-opt %t3.mlir --tile-to-gpu="mma=wgmma threads=128" | FileCheck %s --check-prefix=STAGED
// RUN: aic-opt %s --tile-mma-layout="mma=wgmma threads=128" --tile-shared-layout="mma=wgmma threads=128 copy=tma_ws" | FileCheck %s --check-prefix=MARK

// CHAIN-LABEL: gpu.kernel @two
// CHAIN-SAME: block = [256, 1, 1]
// CHAIN-COUNT-4: nvgpu.tma.async.load
// CHAIN-NOT: nvgpu.tma.async.load
// CHAIN: nvgpu.warpgroup.mma
// CHAIN: nvgpu.warpgroup.mma
// CHAIN: gpu.return
// CHECK: error: 'tile.for' op tile-to-gpu: a warp-specialised loop (copy = tma_ws) must be its kernel's only kind of TMA loop
// STAGES: error: 'tile.for' op tile-to-gpu: the warp-specialised loops (copy = tma_ws) of a kernel fill one ring: their stages must be alike
// PERSIST: error: 'tile.for' op tile-to-gpu: a persistent warp-specialised kernel must have one loop of constant bounds (copy = tma_ws)
// STAGED: gpu.kernel @two grid = [1, 1, 1] block = [256, 1, 1] shared = 66608
// STAGED: gpu.shared offset = 49152 : memref<6xi64
// STAGED: %[[ST:.*]] = gpu.shared offset = 49200 : memref<4352xf32
// STAGED: vector.store %{{.*}}, %[[ST]][%{{.*}}] {alignment = 8 : i64}
// STAGED: nvvm.barrier
// STAGED: vector.load %[[ST]]
// STAGED-NOT: gpu.shared offset = 0 : memref<4352xf32
// MARK-COUNT-2: stages = 3 copy = tma {
// MARK-NOT: tma_ws
tile.kernel @two grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<64x128xf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[128, 64] | embed<8192: 1, 128> [0, 1] -> [0]> : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  %acc2 = tile.for %c0 to %c128 step %c64 iter_args(%acc : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[128, 64] | embed<8192: 1, 128> [0, 1] -> [0]> : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc2, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}
