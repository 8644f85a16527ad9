// gpu.lane_id (upstream's text): the thread's lane in its warp, whose size
// upper_bound gives. It round-trips; NVPTX reads the lane register for
// warps of 32 and computes the thread index modulo the warp otherwise (as
// AMDGPU and the host do).
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST

// CHECK: gpu.kernel @lanes grid = [1, 1, 1] block = [64, 1, 1] shared = 0 {
// CHECK: gpu.lane_id upper_bound 32
// CHECK: gpu.lane_id upper_bound 16
// PTX-DAG: and.b64 {{.*}}, 15;
// PTX-DAG: mov.u32 {{.*}}, %laneid;
// HOST-DAG: and i64 {{.*}}, 15
// HOST-DAG: and i64 {{.*}}, 31
gpu.kernel @lanes grid = [1, 1, 1] block = [64, 1, 1] shared = 0 {
^bb0(%x: memref<64xindex>, %y: memref<64xindex>):
  %t = gpu.thread_id x
  %l = gpu.lane_id upper_bound 32
  %h = gpu.lane_id upper_bound 16
  %s = arith.addi %l, %h : index
  %v = memref.load %x[%t] : memref<64xindex>
  %w = arith.addi %v, %s : index
  memref.store %w, %y[%t] : memref<64xindex>
  gpu.return
}
