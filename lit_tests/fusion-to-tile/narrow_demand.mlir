// fusion-to-tile: an op the program declares on f16 (or bf16) is computed
// in f32, so only f16's precision is asked of it: the math functions its
// scalar lowering emits are marked fastmath<afn> and its divisions
// fastmath<arcp> (targets may then divide approximately, div.approx.f32 on
// NVPTX). The same ops declared on f32 keep exact flags; flags a lowering
// set itself (the tanh GeLU's afn exp2 and division) stay.
// RUN: aic-opt %s --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @gemm_0
// CHECK: tile.gemm
// CHECK: math.erf %{{.*}} fastmath<afn> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<arcp> : f32
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<arcp,afn> : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tile.store

// CHECK-LABEL: tile.kernel @gemm_1
// CHECK: tile.gemm
// CHECK: math.erf %{{.*}} : f32
// CHECK-NOT: fastmath
// CHECK: tile.store
func.func @main(%x: tensor<64x64xf16>, %w: tensor<64x64xf16>, %d: tensor<64x64xf16>,
                %x32: tensor<64x64xf32>, %w32: tensor<64x64xf32>, %d32: tensor<64x64xf32>)
    -> (tensor<64x64xf16>, tensor<64x64xf32>) {
  %g = fusion.group vertical (%a = %x, %b = %w, %q = %d) : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16> {
    %m = graph.matmul %a, %b : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
    %e = graph.gelu %m : (tensor<64x64xf16>) -> tensor<64x64xf16>
    %v = graph.div %q, %e : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
    %t = graph.gelu_tanh %v : (tensor<64x64xf16>) -> tensor<64x64xf16>
    fusion.yield %t : tensor<64x64xf16>
  }
  %h = fusion.group vertical (%a = %x32, %b = %w32, %q = %d32) : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
    %m = graph.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %e = graph.gelu %m : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %v = graph.div %q, %e : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    fusion.yield %v : tensor<64x64xf32>
  }
  return %g, %h : tensor<64x64xf16>, tensor<64x64xf32>
}
