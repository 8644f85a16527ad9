// cse merges an op that only reads memory (a tile load) with an identical
// read earlier in its block when nothing between them may write: pure ops
// and maps (whose bodies are pure) keep the earlier read available; a store,
// or a loop whose body stores, ends it. Reads in different blocks stay.
// RUN: aic-opt %s --cse | FileCheck %s

// CHECK-LABEL: tile.kernel @reads
// CHECK: %[[A:.*]] = tile.load %arg0[%{{.*}}] : memref<8xf32> -> !tile.tile<8xf32>
// CHECK-NOT: tile.load %arg0
// CHECK: tile.map %[[A]], %[[A]]
// CHECK: tile.store
// CHECK: %[[B:.*]] = tile.load %arg0[%{{.*}}] : memref<8xf32> -> !tile.tile<8xf32>
// CHECK: tile.map %[[A]], %[[B]]
// CHECK: tile.for
// CHECK: tile.load %arg0
// CHECK: tile.store
// CHECK: tile.load %arg0
// CHECK: tile.return
tile.kernel @reads grid = [1] {
^bb0(%x: memref<8xf32>, %y: memref<8xf32>):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tile.load %x[%c0] : memref<8xf32> -> !tile.tile<8xf32>
  %s = tile.map %a : (!tile.tile<8xf32>) -> !tile.tile<8xf32> {
  ^bb0(%e: f32):
    %n = arith.negf %e : f32
    tile.yield %n : f32
  }
  %b = tile.load %x[%c0] : memref<8xf32> -> !tile.tile<8xf32>
  %m = tile.map %a, %b : (!tile.tile<8xf32>, !tile.tile<8xf32>) -> !tile.tile<8xf32> {
  ^bb0(%e: f32, %f: f32):
    %p = arith.mulf %e, %f : f32
    tile.yield %p : f32
  }
  tile.store %m, %x[%c0] : !tile.tile<8xf32>, memref<8xf32>
  // After the store the buffer may differ: read again.
  %c = tile.load %x[%c0] : memref<8xf32> -> !tile.tile<8xf32>
  %m2 = tile.map %a, %c : (!tile.tile<8xf32>, !tile.tile<8xf32>) -> !tile.tile<8xf32> {
  ^bb0(%e: f32, %f: f32):
    %p = arith.addf %e, %f : f32
    tile.yield %p : f32
  }
  %r = tile.for %c0 to %c2 step %c1 iter_args(%m2 : !tile.tile<8xf32>) -> !tile.tile<8xf32> {
  ^bb0(%i: index, %acc: !tile.tile<8xf32>):
    %d = tile.load %x[%c0] : memref<8xf32> -> !tile.tile<8xf32>
    tile.store %acc, %y[%c0] : !tile.tile<8xf32>, memref<8xf32>
    tile.yield %d : !tile.tile<8xf32>
  }
  // The loop body stores: its run of reads ends there.
  %e2 = tile.load %x[%c0] : memref<8xf32> -> !tile.tile<8xf32>
  tile.store %e2, %y[%c0] : !tile.tile<8xf32>, memref<8xf32>
  tile.return
}
