// The whole path on StableHLO as JAX exports it: legalised to graph ops,
// fused by equality saturation, lowered to tile kernels, and interpreted
// block by block: the same values as interpreting the StableHLO directly.
// RUN: aic-opt %s --stablehlo-to-graph --eqsat-fusion --fusion-to-tile | FileCheck %s --check-prefix=IR
// RUN: aic-opt %s --stablehlo-to-graph --eqsat-fusion --fusion-to-tile | aic-run --interpret - --entry @main --args "[dense<[[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]> : tensor<2x3xf32>, dense<[[1.0, 2.0, 0.0, -1.0], [0.0, 1.0, 1.0, 2.0], [-1.0, 0.0, 3.0, 1.0]]> : tensor<3x4xf32>, dense<[0.5, -0.5, 1.0, 0.0]> : tensor<4xf32>]" | FileCheck %s
// RUN: aic-run --interpret %s --entry @main --args "[dense<[[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]> : tensor<2x3xf32>, dense<[[1.0, 2.0, 0.0, -1.0], [0.0, 1.0, 1.0, 2.0], [-1.0, 0.0, 3.0, 1.0]]> : tensor<3x4xf32>, dense<[0.5, -0.5, 1.0, 0.0]> : tensor<4xf32>]" | FileCheck %s

// IR: tile.kernel @gemm_{{[0-9]+}}
// IR: tile.gemm
// IR-LABEL: func.func public @main
// IR: tile.launch
// IR-NOT: stablehlo.
// CHECK: dense<{{\[\[}}0.000000e+00, 0.000000e+00, 8.000000e+00, 0.000000e+00], [2.000000e+00, 4.500000e+00, 2.000000e+00, 6.500000e+00]]> : tensor<2x4xf32>
module @jit_dense {
  func.func public @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.add %0, %1 : tensor<2x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %4 = stablehlo.maximum %2, %3 : tensor<2x4xf32>
    return %4 : tensor<2x4xf32>
  }
}
