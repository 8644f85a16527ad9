// fusion-to-tile: any elementwise graph op in any position, through the
// graph dialect's scalar lowering, values in their own compute types. A
// GEMM whose A is cast from f32 (the cast's rounding to f16 in f32, then
// the store to shared f16) and whose epilogue compares (i1), selects and
// casts to f32; a splat constant is a literal in the map body, not an argument.
// RUN: aic-opt %s --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @gemm_0
// CHECK: ^bb0(%arg0: memref<8x16xf32>, %arg1: memref<16x8xf16>, %arg2: memref<8x8xf16>, %arg3: memref<8x8xf32>):
// CHECK: tile.load %arg0{{.*}} -> !tile.tile<{{.*}}xf32>
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tile.gemm
// CHECK: -> !tile.tile<8x8xi1>
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: arith.cmpf oge
// CHECK: arith.select
// CHECK: tile.store %{{.*}}, %arg3
// CHECK-LABEL: func.func @main
// CHECK: tile.launch @gemm_0(%arg0, %arg1, %arg2)
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x8xf16>, %y: tensor<8x8xf16>) -> tensor<8x8xf32> {
  %c = graph.constant dense<2.5e-01> : tensor<f16>
  %g = fusion.group vertical (%a = %x, %b = %w, %k = %c, %z = %y) : (tensor<8x16xf32>, tensor<16x8xf16>, tensor<f16>, tensor<8x8xf16>) -> tensor<8x8xf32> {
    %h = graph.cast %a : (tensor<8x16xf32>) -> tensor<8x16xf16>
    %m = graph.matmul %h, %b : (tensor<8x16xf16>, tensor<16x8xf16>) -> tensor<8x8xf16>
    %kb = graph.broadcast %k, dims = [] : (tensor<f16>) -> tensor<8x8xf16>
    %p = graph.compare GE, %m, %kb : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xi1>
    %s = graph.select %p, %kb, %z : (tensor<8x8xi1>, tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
    %f = graph.cast %s : (tensor<8x8xf16>) -> tensor<8x8xf32>
    fusion.yield %f : tensor<8x8xf32>
  }
  return %g : tensor<8x8xf32>
}
