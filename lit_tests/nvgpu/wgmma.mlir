// Hopper's warpgroup MMA: descriptors of 128-byte-swizzled shared matrices
// and wgmma m64nNk16 on them (m64nNk32 on fp8), round trip in pretty and
// generic form.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=llvm-ir %s -o %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90a %t.ll -o - | FileCheck %s --check-prefix=PTX

// The descriptors: (address & 0x3FFFF) >> 4, then 1 (16 bytes) or 512
// (8192) at bit 16, 64 (1024) at bit 32 and the 128-byte swizzle (1) at
// bit 62: 0x4000004000010000 and 0x4000004002000000, the second's start 64
// halves on (128 bytes: 8 added, a constant on the buffer's part). The mma: the
// accumulator's 64 registers, the two descriptors, scale-d (false for the
// first, whose accumulator is a constant zero it need not read; true for
// the second), A and B unscaled, A K-major, B N-major (1) or K-major (0).
// PTX: .extern .shared .align 1024 .b8 aic_shared[];
// PTX-DAG: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611686293305360384;
// PTX-DAG: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611686293338849288;
// PTX: wgmma.fence.sync.aligned;
// PTX: setp.ne.b32 p, 0, 0;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{(%r[0-9]+, ){63}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 1;
// PTX: setp.ne.b32 p, 1, 0;
// PTX-NEXT: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// PTX: wgmma.commit_group.sync.aligned;
// PTX: wgmma.wait_group.sync.aligned 1;
// PTX: fence.proxy.async.shared::cta;

// CHECK-LABEL: gpu.kernel @k
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}[%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<8192xf16, #gpu.address_space<workgroup>> -> i64
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}[%{{.*}}] {leadingByteOffset = 8192 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[D:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %{{.*}} {transposeB} : vector<64xf32> -> vector<64xf32>
// CHECK: nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[D]] : vector<64xf32> -> vector<64xf32>
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 16384 {
^bb0(%g: memref<64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = gpu.shared offset = 0 : memref<8192xf16, #gpu.address_space<workgroup>>
  %da = nvgpu.warpgroup.generate.descriptor %s[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<8192xf16, #gpu.address_space<workgroup>> -> i64
  %db = nvgpu.warpgroup.generate.descriptor %s[%c64] {leadingByteOffset = 8192 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<8192xf16, #gpu.address_space<workgroup>> -> i64
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z : vector<64xf32>
  nvvm.wgmma.fence.aligned
  %d = nvgpu.warpgroup.mma %da, %db, %c {transposeB} : vector<64xf32> -> vector<64xf32>
  %e = nvgpu.warpgroup.mma %da, %db, %d : vector<64xf32> -> vector<64xf32>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 1
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  %x = vector.extract %e[0] : f32 from vector<64xf32>
  memref.store %x, %g[%c0] : memref<64xf32>
  gpu.return
}

// The register-A form (aic's, FlashAttention-3's P·V): A as this thread's
// mma.sync-layout fragment, four .b32 registers of two halves, then B's
// descriptor; scale-d true, A and B unscaled, B N-major (transposeB): PTX's
// form has no transpose immediate for A.
// PTX-LABEL: .entry ra
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{(%r[0-9]+, ){31}%r[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX: wgmma.wait_group.sync.aligned 0;
// CHECK-LABEL: gpu.kernel @ra
// CHECK: %[[D:.*]] = nvgpu.warpgroup.mma.register_a %{{.*}}, %{{.*}}, %{{.*}} {abType = bf16, transposeB} : vector<4x2xbf16>, vector<32xf32> -> vector<32xf32>
// CHECK: nvgpu.warpgroup.mma.register_a %{{.*}}, %{{.*}}, %[[D]] {abType = bf16} : vector<4x2xbf16>, vector<32xf32> -> vector<32xf32>
gpu.kernel @ra grid = [1, 1, 1] block = [128, 1, 1] shared = 8192 {
^bb0(%g: memref<32xf32>, %h: memref<8xbf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<4096xbf16, #gpu.address_space<workgroup>>
  %db = nvgpu.warpgroup.generate.descriptor %s[%c0] {leadingByteOffset = 8192 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<4096xbf16, #gpu.address_space<workgroup>> -> i64
  %x = memref.load %h[%c0] : memref<8xbf16>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<4x2xbf16>
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z : vector<32xf32>
  nvvm.wgmma.fence.aligned
  %d = nvgpu.warpgroup.mma.register_a %a, %db, %c {abType = bf16, transposeB} : vector<4x2xbf16>, vector<32xf32> -> vector<32xf32>
  %e = nvgpu.warpgroup.mma.register_a %a, %db, %d {abType = bf16} : vector<4x2xbf16>, vector<32xf32> -> vector<32xf32>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  %y = vector.extract %e[0] : f32 from vector<32xf32>
  memref.store %y, %g[%c0] : memref<32xf32>
  gpu.return
}

// The 8-bit forms: fp8 matrices (abType, and bType where B's format
// differs) of k32, both K-major (no transpose immediates in PTX's form).
// PTX-LABEL: .entry fp8
// PTX: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{{(%r[0-9]+, ){63}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// PTX: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// PTX: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e5m2 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// CHECK-LABEL: gpu.kernel @fp8
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}[%{{.*}}] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<16384xf8E4M3FN, #gpu.address_space<workgroup>> -> i64
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}[%{{.*}}] {{.*}} : memref<16384xf8E5M2, #gpu.address_space<workgroup>> -> i64
// CHECK: %[[D:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DA]], %{{.*}} {abType = f8E4M3FN} : vector<64xf32> -> vector<64xf32>
// CHECK: %[[E:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[D]] {abType = f8E4M3FN, bType = f8E5M2} : vector<64xf32> -> vector<64xf32>
// CHECK: nvgpu.warpgroup.mma %[[DB]], %[[DB]], %[[E]] {abType = f8E5M2} : vector<64xf32> -> vector<64xf32>
gpu.kernel @fp8 grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<64xf32>):
  %c0 = arith.constant 0 : index
  %sa = gpu.shared offset = 0 : memref<16384xf8E4M3FN, #gpu.address_space<workgroup>>
  %sb = gpu.shared offset = 16384 : memref<16384xf8E5M2, #gpu.address_space<workgroup>>
  %da = nvgpu.warpgroup.generate.descriptor %sa[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<16384xf8E4M3FN, #gpu.address_space<workgroup>> -> i64
  %db = nvgpu.warpgroup.generate.descriptor %sb[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<16384xf8E5M2, #gpu.address_space<workgroup>> -> i64
  %z = arith.constant 0.0 : f32
  %c = vector.from_elements %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z : vector<64xf32>
  nvvm.wgmma.fence.aligned
  %d = nvgpu.warpgroup.mma %da, %da, %c {abType = f8E4M3FN} : vector<64xf32> -> vector<64xf32>
  %e = nvgpu.warpgroup.mma %da, %db, %d {abType = f8E4M3FN, bType = f8E5M2} : vector<64xf32> -> vector<64xf32>
  %f = nvgpu.warpgroup.mma %db, %db, %e {abType = f8E5M2} : vector<64xf32> -> vector<64xf32>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  %x = vector.extract %f[0] : f32 from vector<64xf32>
  memref.store %x, %g[%c0] : memref<64xf32>
  gpu.return
}
