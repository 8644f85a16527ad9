// A graph program's i8 x i8 -> i32 product with a dequantizing epilogue
// (cast, a per-column scale) compiles to one GEMM kernel on tensor cores'
// s8 form for NVIDIA, and runs on the host, the warp's mma.sync emulated,
// as the interpreter says.
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=nvptx --arch=sm_80 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-run --target=host --mma=nvgpu %s --entry=@main --args="[dense<-7> : tensor<64x96xi8>, dense<5> : tensor<96x64xi8>, dense<0.5> : tensor<64xf32>]" --check 2>&1 | FileCheck %s --check-prefix=HOST

// PTX: .entry gemm_0
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX-NOT: .entry
// HOST: dense<-1.680000e+03> : tensor<64x64xf32>
// HOST: check: ok
func.func @main(%a: tensor<64x96xi8>, %b: tensor<96x64xi8>, %s: tensor<64xf32>) -> tensor<64x64xf32> {
  %y = graph.matmul %a, %b : (tensor<64x96xi8>, tensor<96x64xi8>) -> tensor<64x64xi32>
  %f = graph.cast %y : (tensor<64x64xi32>) -> tensor<64x64xf32>
  %c = graph.broadcast %s, dims = [1] : (tensor<64xf32>) -> tensor<64x64xf32>
  %m = graph.mul %f, %c : tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
