// Without eqsat-fusion every kernel-sized graph op is a group of one: a
// matmul, a tensor add, a ReLU and a softmax become four kernels, and the
// program computes what it computed.
// RUN: aic-opt %s --fusion-to-tile | FileCheck %s
// RUN: aic-opt %s --fusion-to-tile | aic-run --interpret - --entry @f --args "[dense<[[1.0, 2.0], [3.0, -4.0]]> : tensor<2x2xf32>, dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>]" | FileCheck %s --check-prefix=VALUES
// RUN: aic-run --interpret %s --entry @f --args "[dense<[[1.0, 2.0], [3.0, -4.0]]> : tensor<2x2xf32>, dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf32>]" | FileCheck %s --check-prefix=VALUES

// CHECK: tile.kernel @gemm_0
// CHECK: tile.kernel @elementwise_1
// CHECK: tile.kernel @elementwise_2
// CHECK: tile.kernel @rows_3
// CHECK-LABEL: func.func @f
// CHECK-COUNT-4: tile.launch
// CHECK-NOT: graph.
// VALUES: dense<{{\[\[}}0.11920{{[0-9]*}}, {{(8.8079[0-9]*e-01|0.88079[0-9]*)}}], [0.99752{{[0-9]*}}, 0.0024726{{[0-9]*}}]]> : tensor<2x2xf32>
func.func @f(%x: tensor<2x2xf32>, %w: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %m = graph.matmul %x, %w : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %a = graph.add %m, %x : tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32>
  %s = graph.softmax %r : tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
