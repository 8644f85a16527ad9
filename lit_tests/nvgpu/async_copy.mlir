// nvgpu's asynchronous copies (upstream MLIR's ops and token type): a copy
// of 8 halves (16 bytes) from global to shared memory, one that zero-fills
// past srcElements and bypasses L1, a group of both, and waits. They
// round-trip, compile to cp.async for NVIDIA (llc accepts the LLVM IR for
// sm_80), are copied at once on the host (zero-filling past srcElements),
// and are errors on AMD.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=llvm-ir %s -o %t.ll
// RUN: FileCheck %s --check-prefix=LL < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_80 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST
// RUN: not aic-translate --target=amdgpu --emit=llvm-ir %s -o - 2>&1 | FileCheck %s --check-prefix=AMD

// CHECK: %[[T:.*]] = nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 8 : memref<256xf16> to memref<512xf16, #gpu.address_space<workgroup>>
// CHECK: %[[T2:.*]] = nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 8, %{{.*}} {bypassL1} : memref<256xf16> to memref<512xf16, #gpu.address_space<workgroup>>
// CHECK: %[[G:.*]] = nvgpu.device_async_create_group %[[T]], %[[T2]]
// CHECK: nvgpu.device_async_wait %[[G]] {numGroups = 1 : i32}
// CHECK: nvgpu.device_async_wait %[[G]]{{$}}

// LL: call void @llvm.nvvm.cp.async.ca.shared.global.16.s(ptr addrspace(3) {{.*}}, ptr addrspace(1) {{.*}}, i32 16)
// LL: call void @llvm.nvvm.cp.async.cg.shared.global.16.s(
// LL: call void @llvm.nvvm.cp.async.commit.group()
// LL: call void @llvm.nvvm.cp.async.wait.group(i32 1)
// LL: call void @llvm.nvvm.cp.async.wait.group(i32 0)

// PTX: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group {{.*}}1;
// PTX: cp.async.wait_group {{.*}}0;
// HOST-NOT: cp.async
// HOST: define
// HOST: load <8 x half>
// HOST: store <8 x half>
// AMD: 'nvgpu.device_async_copy' runs on NVIDIA tensor cores (--target=nvptx, or emulated on the host), not on amdgpu

gpu.kernel @cp grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %s = gpu.shared offset = 0 : memref<512xf16, #gpu.address_space<workgroup>>
  %t = nvgpu.device_async_copy %g[%c8], %s[%c0], 8 : memref<256xf16> to memref<512xf16, #gpu.address_space<workgroup>>
  %t2 = nvgpu.device_async_copy %g[%c0], %s[%c8], 8, %c0 {bypassL1} : memref<256xf16> to memref<512xf16, #gpu.address_space<workgroup>>
  %grp = nvgpu.device_async_create_group %t, %t2
  nvgpu.device_async_wait %grp {numGroups = 1 : i32}
  nvgpu.device_async_wait %grp
  gpu.return
}
