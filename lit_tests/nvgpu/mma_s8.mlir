// mma.sync's integer form, m16n8k32 s8 x s8 + s32: fragments of i8 (four
// to a 32-bit register: A vector<4x4xi8>, B vector<2x4xi8>) and an i32
// accumulator in f32's layout. It round-trips, compiles to PTX's
// mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 (llc accepts the LLVM IR
// for sm_80), and is emulated on the host in i32 arithmetic.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST

// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// LLVM: call { i32, i32, i32, i32 } @llvm.nvvm.mma.m16n8k32.row.col.s8(i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 0, i32 0, i32 0, i32 0)
// HOST-NOT: llvm.nvvm
// HOST: call void @aic_host_barrier()
// HOST: sext {{.*}}i8
// HOST: mul {{.*}}i32
// HOST: call void @aic_host_barrier()

// CHECK: gpu.kernel @mma_s8 grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
// CHECK: %[[A:.*]] = vector.from_elements {{.*}} : vector<4x4xi8>
// CHECK: %[[B:.*]] = vector.from_elements {{.*}} : vector<2x4xi8>
// CHECK: %[[C:.*]] = vector.from_elements {{.*}} : vector<2x2xi32>
// CHECK: %[[D:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %[[C]]) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
// CHECK: vector.extract %[[D]][1, 0] : i32 from vector<2x2xi32>
gpu.kernel @mma_s8 grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
^bb0(%in: memref<32xi8>, %out: memref<32xi32>):
  %t = gpu.thread_id x
  %x = memref.load %in[%t] : memref<32xi8>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : vector<4x4xi8>
  %b = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<2x4xi8>
  %z = arith.constant 0 : i32
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xi32>
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
  %y = vector.extract %d[1, 0] : i32 from vector<2x2xi32>
  memref.store %y, %out[%t] : memref<32xi32>
  gpu.return
}
