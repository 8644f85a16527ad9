// mma.sync's fp8 form, m16n8k32 e4m3/e5m2 x e4m3/e5m2 + f32 (sm_89+):
// A and B in s8's byte layout (A vector<4x4xf8E4M3FN>, B vector<2x4xT>),
// the f32 accumulator in the m16n8 layout. It round-trips, compiles to PTX's
// mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 in a PTX ISA 8.4
// module (llc accepts the LLVM IR for sm_89), and is emulated on the host:
// the bytes decoded to f32 and summed in f32.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=llvm-ir %s -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_89 -mattr=+ptx84 %t.ll -o - | FileCheck %s --check-prefix=PTX89
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST
// RUN: not aic-translate --target=nvptx --arch=sm_80 --emit=asm %s -o - 2>&1 | FileCheck %s --check-prefix=SM80

// PTX: .version 8.4
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
// PTX89: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// LLVM: call { float, float, float, float } @llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32(i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, i32 %{{.*}}, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 0.000000e+00)
// LLVM: @llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e5m2.f32
// HOST-NOT: llvm.nvvm
// HOST: call void @aic_host_barrier()
// HOST: fmul
// HOST: fadd
// HOST: call void @aic_host_barrier()
// SM80: fp8 mma.sync needs sm_89 or newer, not sm_80

// CHECK: gpu.kernel @mma_fp8 grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
// CHECK: %[[A:.*]] = vector.from_elements {{.*}} : vector<4x4xf8E4M3FN>
// CHECK: %[[B:.*]] = vector.from_elements {{.*}} : vector<2x4xf8E4M3FN>
// CHECK: %[[D:.*]] = nvgpu.mma.sync(%[[A]], %[[B]], %{{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FN>, vector<2x4xf8E4M3FN>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FN>, vector<2x4xf8E5M2>, vector<2x2xf32>) -> vector<2x2xf32>
gpu.kernel @mma_fp8 grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%in: memref<32xf8E4M3FN>, %in2: memref<32xf8E5M2>, %out: memref<32xf32>):
  %t = gpu.thread_id x
  %x = memref.load %in[%t] : memref<32xf8E4M3FN>
  %w = memref.load %in2[%t] : memref<32xf8E5M2>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : vector<4x4xf8E4M3FN>
  %b = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<2x4xf8E4M3FN>
  %b2 = vector.from_elements %w, %w, %w, %w, %w, %w, %w, %w : vector<2x4xf8E5M2>
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FN>, vector<2x4xf8E4M3FN>, vector<2x2xf32>) -> vector<2x2xf32>
  %d2 = nvgpu.mma.sync(%a, %b2, %d) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FN>, vector<2x4xf8E5M2>, vector<2x2xf32>) -> vector<2x2xf32>
  %y = vector.extract %d2[1, 0] : f32 from vector<2x2xf32>
  memref.store %y, %out[%t] : memref<32xf32>
  gpu.return
}
