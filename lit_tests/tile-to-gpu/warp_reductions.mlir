// tile-to-gpu{warp=W}: a row reduction whose rows are whole multiples of
// what the block holds at once folds each thread's partial across its warp
// by butterfly shuffles (offsets W/2 down to 1), the warps' sums through
// shared memory, and leaves the row's result in every thread; its loops
// over a thread's elements are unrolled (no scf.for is left). Without
// warps the partials go through shared memory only.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu="threads=32 warp=8" | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu="threads=32 warp=0" | FileCheck %s --check-prefix=NOWARP

// CHECK: gpu.kernel @rows_0 grid = [1, 1, 1] block = [32, 1, 1]
// CHECK-NOT: scf.for
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32, %c8_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32, %c8_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c8_i32 : f32
// CHECK: scf.if
// CHECK: gpu.barrier
// CHECK-NOT: scf.for
// CHECK: gpu.return
// NOWARP-NOT: gpu.shuffle
func.func @softmax(%x: tensor<1x256xf32>) -> tensor<1x256xf32> {
  %y = graph.softmax %x, axis = 1 : tensor<1x256xf32>
  return %y : tensor<1x256xf32>
}
