// fusion-to-tile: an attention group (softmax(Q Kᵀ * s) V, fused by
// eqsat-fusion as a back-to-back GEMM) becomes one FlashAttention kernel:
// a block of query rows, a loop over key blocks carrying the running row
// maximum, denominator and output, keys past the end (70 is not a multiple
// of 64) masked to -inf, P V accumulated into the rescaled output, one
// reciprocal of the denominator a row at the end and a product per
// element, a masked store. exp(x - m) is exp2(fma(x, log2 e,
// -m log2 e)), -m log2 e computed once a row.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s

// CHECK-LABEL: tile.kernel @attention_0 grid = [1, 1, 2] {
// CHECK: %[[B:.*]] = tile.program_id 2 : index
// CHECK: tile.load %{{.*}}[%[[B]], %{{.*}}, %{{.*}}] {{.*}} -> !tile.tile<8x8xf32>
// CHECK: tile.transfer {{.*}} to shared depth = 1
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tile.for %{{.*}} to %c70 step %c64{{.*}} iter_args({{.*}} : !tile.tile<8xf32>, !tile.tile<8xf32>, !tile.tile<8x3xf32>)
// CHECK: tile.gemm {{.*}} level = block : !tile.tile<8x8xf32, shared>, !tile.tile<8x64xf32, shared>, !tile.tile<8x64xf32> -> !tile.tile<8x64xf32>
// CHECK: tile.iota dim = 1 : !tile.tile<8x64xindex>
// CHECK: arith.cmpi slt
// CHECK: arith.select %{{.*}}, %{{.*}}, %[[NINF]] : f32
// CHECK: tile.reduce max
// CHECK: arith.maximumf
// CHECK: %[[NML:.*]] = tile.map
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: %[[NMLB:.*]] = tile.broadcast %[[NML]], dims = [0] : !tile.tile<8xf32> -> !tile.tile<8x64xf32>
// CHECK: tile.map %{{.*}}, %[[NMLB]]
// CHECK: math.fma
// CHECK: math.exp2 %{{.*}} fastmath<afn> : f32
// CHECK: tile.reduce sum
// CHECK: tile.gemm {{.*}} : !tile.tile<8x64xf32>, !tile.tile<64x3xf32, shared>, !tile.tile<8x3xf32> -> !tile.tile<8x3xf32>
// CHECK: tile.yield
// CHECK: tile.map %{{.*}} : (!tile.tile<8xf32>) -> !tile.tile<8xf32>
// CHECK: arith.divf %cst{{.*}}, %{{.*}} : f32
// CHECK: tile.broadcast %{{.*}}, dims = [0] : !tile.tile<8xf32> -> !tile.tile<8x3xf32>
// CHECK: arith.mulf
// CHECK: tile.store
// CHECK-LABEL: func.func @attn
// CHECK: tile.launch @attention_0
// CHECK-NOT: fusion.group
func.func @attn(%q: tensor<2x5x8xf32>, %k: tensor<2x70x8xf32>, %v: tensor<2x70x3xf32>, %s: tensor<f32>) -> tensor<2x5x3xf32> {
  %sb = graph.broadcast %s, dims = [] : (tensor<f32>) -> tensor<2x5x70xf32>
  %qk = graph.matmul %q, %k transpose_b : (tensor<2x5x8xf32>, tensor<2x70x8xf32>) -> tensor<2x5x70xf32>
  %x = graph.mul %qk, %sb : tensor<2x5x70xf32>
  %p = graph.softmax %x, axis = 2 : tensor<2x5x70xf32>
  %o = graph.matmul %p, %v : (tensor<2x5x70xf32>, tensor<2x70x3xf32>) -> tensor<2x5x3xf32>
  return %o : tensor<2x5x3xf32>
}
