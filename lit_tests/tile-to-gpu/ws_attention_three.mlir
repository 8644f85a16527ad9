// Attention warp-specialised on three consumer warpgroups (a tuning
// entry's 192-query blocks, the built-in choice at head dim 64 over long
// sequences without a mask): 512 threads, the producer warpgroup's
// registers cut to 32 and the consumers' raised to 160 (`setmaxnreg`), the
// block's 64K registers between them; the consumers do not take turns
// issuing (no named-barrier arrivals: three in turn measured slower), and
// their block syncs are of 384 threads. Q is copied once by cp.async in
// 16-byte chunks straight into wgmma's swizzle. 320 queries: the second
// block's rows are partial. K and V's 64 x 64 boxes (8192 bytes each) fill
// chunks of 16 bytes that 384 threads do not divide, which the pipeline
// accepts (TMA copies them; cp.async's last round would be partial). The
// host run against the interpreter is in tools/tests/host_target.rs.
// RUN: printf '{"h100/sm_90a/attention/2x320x256x64x64/f16": {"bm": 192, "bn": 64, "bk": 16, "stages": 3, "threads": 384, "copy": "tma_ws"}}' > %t.json
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json},tile-mma-layout{mma=wgmma},tile-shared-layout{mma=wgmma})' | FileCheck %s --check-prefix=LAYOUT
// RUN: aic-opt %s --pass-pipeline='builtin.module(eqsat-fusion{wgmma=true},fusion-to-tile{target=h100 arch=sm_90a wgmma=true tuning=%t.json},tile-to-gpu{mma=wgmma warp=32})' | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --tuning=%t.json --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// LAYOUT: tile.kernel @attention_0 grid = [2, 1, 2] threads = 384 copy = tma_ws {
// LAYOUT: tile.for {{.*}} !tile.tile<192x64xf32, wgmma<64, 64, 16>> stages = 3 copy = tma_ws {

// CHECK-LABEL: gpu.kernel @attention_0 grid = [2, 1, 2] block = [512, 1, 1]
// CHECK: nvvm.setmaxregister decrease 32
// CHECK: nvgpu.tma.async.load
// CHECK: nvvm.setmaxregister increase 160
// Q, once: cp.async in 16-byte chunks straight into wgmma's swizzle (the
// partial block's rows past the end zero-filled), then fenced for wgmma.
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c384_i32
// CHECK: nvgpu.device_async_copy {{.*}}, %{{.*}} {bypassL1} : memref<40960xf16> to memref<{{[0-9]+}}xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK-NEXT: nvvm.fence.proxy
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %c384_i32
// CHECK: nvgpu.warpgroup.mma %
// CHECK: nvgpu.warpgroup.mma.register_a
// CHECK-NOT: nvvm.barrier.arrive
// CHECK: gpu.return

// PTX-LABEL: .entry attention_0
// PTX: .reqntid 512, 1, 1
// PTX: setmaxnreg.dec.sync.aligned.u32 32;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: setmaxnreg.inc.sync.aligned.u32 160;
// PTX: cp.async.cg.shared.global [%{{.*}}], [%{{.*}}], 16, %{{.*}};
// PTX: cp.async.wait_group 0;
// PTX-NEXT: fence.proxy.async.shared::cta;
// PTX-NOT: bar.arrive
// PTX: ret;

func.func @main(%q: tensor<2x320x64xf16>, %k: tensor<2x256x64xf16>, %v: tensor<2x256x64xf16>) -> tensor<2x320x64xf16> {
  %s = graph.constant dense<0.125> : tensor<f16>
  %sb = graph.broadcast %s, dims = [] : (tensor<f16>) -> tensor<2x320x256xf16>
  %qk = graph.matmul %q, %k transpose_b : (tensor<2x320x64xf16>, tensor<2x256x64xf16>) -> tensor<2x320x256xf16>
  %x = graph.mul %qk, %sb : tensor<2x320x256xf16>
  %p = graph.softmax %x, axis = 2 : tensor<2x320x256xf16>
  %o = graph.matmul %p, %v : (tensor<2x320x256xf16>, tensor<2x256x64xf16>) -> tensor<2x320x64xf16>
  return %o : tensor<2x320x64xf16>
}
