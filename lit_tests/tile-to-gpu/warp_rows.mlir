// tile-to-gpu{warp=W}: a row kernel whose blocked layout would spread a row
// over several warps (512 columns in runs of 8 over 64 lanes) gives each
// warp whole rows instead when the block's warps divide its rows: warp w
// holds rows w, w + 2 of the 4 in runs of 8 at lane * 8 and lane * 8 + 256
// (the lane from gpu.lane_id), and reduces them by butterfly shuffles
// alone: no shared memory, no barrier, no loop; on NVPTX the lane is the
// lane register and a thread's runs move as 16-byte loads and stores (the
// lane's offsets kept apart from the thread index's bits). Rows of 1024
// two at a time go a warp each in blocks of 64 threads, but keep the
// blocked layout in blocks of 128 (their warps' sums meet in shared
// memory behind a barrier).
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu="threads=64 warp=32" | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --threads=64 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_90 --threads=64 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --tile-to-gpu="threads=128 warp=32" | FileCheck %s --check-prefix=BLOCKED

// CHECK-LABEL: gpu.kernel @rows_0 grid = [2, 1, 1] block = [64, 1, 1] shared = 0 {
// CHECK-NOT: scf.for
// CHECK: gpu.lane_id upper_bound 32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NOT: gpu.barrier
// CHECK-NOT: gpu.shared
// CHECK: gpu.return
// CHECK-LABEL: gpu.kernel @rows_1 grid = [2048, 1, 1] block = [64, 1, 1] shared = 0 {
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

// PTX-LABEL: .entry rows_0(
// PTX: %laneid
// PTX-COUNT-8: ld.global.nc.v4.b32
// PTX-NOT: bar.sync
// PTX: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// PTX-NOT: bar.sync
// PTX-COUNT-8: st.global.v4.b32
// PTX-NOT: bar.sync
// PTX: ret;

// BLOCKED-LABEL: gpu.kernel @rows_1 grid = [2048, 1, 1] block = [128, 1, 1] shared = 64 {
// BLOCKED-NOT: gpu.lane_id
// BLOCKED: gpu.barrier
func.func @softmax(%x: tensor<8x512xf32>, %z: tensor<4096x1024xf16>) -> (tensor<8x512xf32>, tensor<4096x1024xf16>) {
  %y = graph.softmax %x, axis = 1 : tensor<8x512xf32>
  %w = graph.softmax %z, axis = 1 : tensor<4096x1024xf16>
  return %y, %w : tensor<8x512xf32>, tensor<4096x1024xf16>
}
