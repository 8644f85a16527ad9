// fusion-to-tile: a GEMM group with a bias and a ReLU becomes a tile kernel
// (a grid of blocks, a K loop staging A and B into shared memory, a block
// GEMM, the epilogue as tile.map, a masked store) launched on the group's
// inputs; interpreted, it gives the layer's values. A softmax (an op of its
// own) becomes a row kernel: exp(x - m) as exp2(fma(x, log2 e, -m log2 e)),
// and the row's sum inverted once (one divide a row, a multiply an
// element). A group the specialised generators decline (a reduction
// broadcast back) goes to the general generator, with no remark.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | aic-run --interpret - --entry @dense --args "[dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>, dense<[0.5, -10.0]> : tensor<2xf32>]" | FileCheck %s --check-prefix=VALUES
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile --aic-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --allow-empty

// CHECK: tile.kernel @gemm_0 grid = [1, 1] {
// CHECK: tile.for
// CHECK: tile.transfer {{.*}} to shared depth = 3
// CHECK: tile.gemm {{.*}} level = block
// CHECK: tile.yield
// CHECK: tile.load %arg2[{{.*}}] through #coord.desc<[2, 2] | broadcast [0] -> [], pass [1] -> [0]> : memref<2xf32> -> !tile.tile<2x2xf32>
// CHECK: tile.map
// CHECK: arith.addf
// CHECK: tile.map
// CHECK: arith.maximumf
// CHECK: tile.store
// CHECK-LABEL: func.func @dense
// CHECK: %[[L:.*]] = tile.launch @gemm_0(%arg0, %arg1, %arg2) : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
// CHECK: return %[[L]]
// VALUES: dense<{{\[\[}}4.500000e+00, 0.000000e+00], [1.050000e+01, 1.000000e+00]]> : tensor<2x2xf32>
func.func @dense(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %a = graph.bias_add %m, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// REMARK-NOT: group left as it is
// CHECK-LABEL: func.func @rowmax
// CHECK: tile.launch @general_1
func.func @rowmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %m = graph.reduce max %x, axes = [1] : (tensor<4x10xf32>) -> tensor<4xf32>
  %b = graph.broadcast %m, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
  %d = graph.sub %x, %b : tensor<4x10xf32>
  return %d : tensor<4x10xf32>
}

// A tuning cache entry for this target, template and shape replaces the
// heuristic's tiles (here 1x1 blocks over the 2x2 result: a 2x2 grid).
// RUN: printf '{"h100/gemm/2x2x3": {"bm": 1, "bn": 1, "bk": 2, "stages": 1}}' > %t.json
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile=tuning=%t.json | FileCheck %s --check-prefix=TUNED
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile=tuning=%t.json | aic-run --interpret - --entry @dense --args "[dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>, dense<[0.5, -10.0]> : tensor<2xf32>]" | FileCheck %s --check-prefix=VALUES
// RUN: printf '{"h100/gemm/2x2x3": {"bm": 0}}' > %t.bad.json
// RUN: not aic-opt %s --eqsat-fusion --fusion-to-tile=tuning=%t.bad.json 2>&1 | FileCheck %s --check-prefix=BAD
// TUNED: tile.kernel @gemm_0 grid = [2, 2]
// TUNED: depth = 1
// BAD: error: {{.*}}.bad.json: entry 'h100/gemm/2x2x3': needs bm, bn and bk
// The kernel names its tuning-cache key: target, architecture (the pass's
// `arch`, else the target's name) and signature (template, batch x M x N x
// K, element types). An entry under that key is read before an older
// cache's target/gemm/MxNxK entry.
// RUN: aic-opt %s --eqsat-fusion --fusion-to-tile | FileCheck %s --check-prefix=KEY
// RUN: aic-opt %s --eqsat-fusion '--fusion-to-tile=arch=sm_90a' | FileCheck %s --check-prefix=KEYARCH
// KEY: aic.kind = "gemm", aic.tune = "h100/h100/gemm/0x2x2x3/f32"
// KEYARCH: aic.kind = "gemm", aic.tune = "h100/sm_90a/gemm/0x2x2x3/f32"
// RUN: printf '{"h100/sm_90a/gemm/0x2x2x3/f32": {"bm": 2, "bn": 1, "bk": 2}, "h100/gemm/2x2x3": {"bm": 1, "bn": 1, "bk": 2}}' > %t.key.json
// RUN: aic-opt %s --eqsat-fusion '--fusion-to-tile=arch=sm_90a tuning=%t.key.json' | FileCheck %s --check-prefix=BYKEY
// BYKEY: tile.kernel @gemm_0 grid = [1, 2]

// CHECK: tile.kernel @rows_{{[0-9]+}} grid = [1] {
// CHECK: tile.reduce max {{.*}}, axis = 1 : !tile.tile<4x10xf32> -> !tile.tile<4xf32>
// CHECK: arith.constant -1.44269502 : f32
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: math.exp2
// CHECK: tile.reduce sum
// CHECK: tile.map %{{.*}} : (!tile.tile<4xf32>) -> !tile.tile<4xf32>
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: tile.map {{.*}} -> !tile.tile<4x10xf32>
// CHECK: arith.mulf
// CHECK-LABEL: func.func @softmax
// CHECK: tile.launch @rows_
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %s = graph.softmax %x : tensor<4x10xf32>
  return %s : tensor<4x10xf32>
}
