// aic-translate's --copy and --persistent: a GEMM on sm_90a warp-specialised
// (a producer warpgroup: 128 threads beyond the consumers', registers moved
// by setmaxnreg) and persistent (132 blocks looping over the tiles); bad
// flags are errors that say what is expected.
// RUN: aic-translate --target=nvptx --arch=sm_90a --copy=tma_ws --persistent=132 --emit=bundle %s -o %t.bundle
// RUN: grep -a -o '"grid":\[[0-9,]*\],"block":\[[0-9,]*\]' %t.bundle | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90a --copy=tma_ws --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: not aic-translate --target=nvptx --arch=sm_90a --persistent=4 --emit=asm %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=NOWS
// RUN: not aic-translate --target=nvptx --arch=sm_90a --copy=tma_ws --persistent=0 --emit=asm %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not aic-translate --target=nvptx --arch=sm_90a --copy=tma_wss --emit=asm %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// 2048 x 2048 in 128 x 256 tiles: 128 tiles on 128 blocks (fewer than 132).
// CHECK: "grid":[128,1,1],"block":[384,1,1]
// PTX: .reqntid 384, 1, 1
// PTX-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// NOWS: aic-translate: persistent kernels need --copy=tma_ws (a producer warpgroup)
// ZERO: aic-translate: --persistent: expected 1 to 1048576, got '0'
// UNKNOWN: aic-translate: unknown ring copy 'tma_wss': expected one of cp_async, tma, tma_empty, tma_ws
func.func @main(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>) -> tensor<2048x2048xf16> {
  %c = graph.matmul %a, %b : (tensor<2048x1024xf16>, tensor<1024x2048xf16>) -> tensor<2048x2048xf16>
  return %c : tensor<2048x2048xf16>
}
