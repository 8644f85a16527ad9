// Hopper's tensor memory accelerator and mbarriers: a tensor map of 64 x 64
// boxes of a 256 x 128 f16 tensor (a kernel parameter), an mbarrier made,
// armed for the box's 8192 bytes, a bulk tensor copy into the
// 128-byte-swizzled shared tile completing on it, and the wait for its
// phase 0, then an arrival; round trip in pretty and generic form, and the PTX.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --emit=llvm-ir %s -o %t.ll
// RUN: FileCheck %s --check-prefix=LL < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90a -mattr=+ptx80 %t.ll -o - | FileCheck %s --check-prefix=PTX

// The tensor map is a 128-byte parameter read in place (grid constant);
// coordinates go column first.
// LL: define ptx_kernel void @k(ptr addrspace(1) {{.*}}%arg0, ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %tensor_map0)
// PTX: .param .align 64 .b8 k_param_1[128]
// PTX: mbarrier.init.shared::cta.b64 [%r{{[0-9]+}}], %r{{[0-9]+}};
// PTX: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}], %r{{[0-9]+}};
// PTX: cvta.param.u64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
// PTX: mbarrier.try_wait.parity.shared::cta.b64 aic_done, [%r{{[0-9]+}}], %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX: mbarrier.arrive.shared::cta.b64 _, [%r{{[0-9]+}}];

// CHECK-LABEL: gpu.kernel @k
// CHECK: %[[M:.*]] = nvgpu.tma.create.descriptor %{{.*}} {globalShape = array<i64: 256, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// CHECK: %[[B:.*]] = gpu.shared offset = 8192 : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.init %[[B]][%{{.*}}], %{{.*}} : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[B]][%{{.*}}], %{{.*}} : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %[[M]][%{{.*}}, %{{.*}}], %[[B]][%{{.*}}] to %{{.*}}[%{{.*}}] : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, memref<1xi64, #gpu.address_space<workgroup>> -> memref<4096xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.try_wait.parity %[[B]][%{{.*}}], %{{.*}}, %{{.*}} : memref<1xi64, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.arrive %[[B]][%{{.*}}] : memref<1xi64, #gpu.address_space<workgroup>>
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 8208 {
^bb0(%g: memref<32768xf16>):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = arith.constant 8192 : index
  %ticks = arith.constant 1000000 : index
  %false = arith.constant false
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 256, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %s = gpu.shared offset = 0 : memref<4096xf16, #gpu.address_space<workgroup>>
  %bar = gpu.shared offset = 8192 : memref<1xi64, #gpu.address_space<workgroup>>
  nvgpu.mbarrier.init %bar[%c0], %c1 : memref<1xi64, #gpu.address_space<workgroup>>
  nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %bytes : memref<1xi64, #gpu.address_space<workgroup>>
  nvgpu.tma.async.load %map[%c64, %c0], %bar[%c0] to %s[%c0] : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, memref<1xi64, #gpu.address_space<workgroup>> -> memref<4096xf16, #gpu.address_space<workgroup>>
  nvgpu.mbarrier.try_wait.parity %bar[%c0], %false, %ticks : memref<1xi64, #gpu.address_space<workgroup>>
  nvgpu.mbarrier.arrive %bar[%c0] : memref<1xi64, #gpu.address_space<workgroup>>
  gpu.return
}
