// mma.sp's 2:4-sparse form, m16n8k32 f16/bf16 + f32 with sparsity selector
// 0: A compressed (vector<4x2xT>: two kept values of each of four groups),
// B vector<4x2xT>, C vector<2x2xf32> and the lane's .b32 metadata register.
// It round-trips, compiles to PTX's
// mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32 (llc accepts the LLVM IR
// for sm_80), and is emulated on the host (A's dense rows rebuilt from the
// metadata codes, then summed in f32).
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST

// PTX-LABEL: .entry mma_sp_f16
// PTX: mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {{[{].*[}]}}, {{[{].*[}]}}, {{[{].*[}]}}, {{[{].*[}]}}, %r{{[0-9]+}}, 0x0;
// PTX-LABEL: .entry mma_sp_bf16
// PTX: mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32
// HOST-NOT: llvm.nvvm
// HOST-NOT: mma.sp
// HOST: call void @aic_host_barrier()
// HOST: lshr i32
// HOST: select i1
// HOST: call void @aic_host_barrier()
// HOST: fmul float
// HOST: call void @aic_host_barrier()

// CHECK-LABEL: gpu.kernel @mma_sp_f16
// CHECK: %[[D:.*]] = nvgpu.mma.sp.sync(%{{.*}}, %{{.*}}, %{{.*}}) metadata(%{{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: vector.extract %[[D]][1, 0] : f32 from vector<2x2xf32>
gpu.kernel @mma_sp_f16 grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
^bb0(%in: memref<32xf16>, %meta: memref<32xi32>, %out: memref<32xf32>):
  %t = gpu.thread_id x
  %x = memref.load %in[%t] : memref<32xf16>
  %e = memref.load %meta[%t] : memref<32xi32>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<4x2xf16>
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  %d = nvgpu.mma.sp.sync(%a, %a, %c) metadata(%e) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %y = vector.extract %d[1, 0] : f32 from vector<2x2xf32>
  memref.store %y, %out[%t] : memref<32xf32>
  gpu.return
}

// CHECK-LABEL: gpu.kernel @mma_sp_bf16
// CHECK: nvgpu.mma.sp.sync({{.*}}) metadata(%{{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x2xbf16>, vector<4x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
gpu.kernel @mma_sp_bf16 grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
^bb0(%in: memref<32xbf16>, %meta: memref<32xi32>, %out: memref<32xf32>):
  %t = gpu.thread_id x
  %x = memref.load %in[%t] : memref<32xbf16>
  %e = memref.load %meta[%t] : memref<32xi32>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<4x2xbf16>
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  %d = nvgpu.mma.sp.sync(%a, %a, %c) metadata(%e) {mmaShape = [16, 8, 32]} : (vector<4x2xbf16>, vector<4x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  %y = vector.extract %d[0, 1] : f32 from vector<2x2xf32>
  memref.store %y, %out[%t] : memref<32xf32>
  gpu.return
}
