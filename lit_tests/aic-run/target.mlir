// aic-run --target=host compiles the kernels (JIT) and runs the program, each
// launch on its kernel, the rest in the interpreter; --check compares with
// the reference interpreter. Without a CUDA driver, --target=cuda says so.
// RUN: aic-run --target=host %s --entry @dense --args "[dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>, dense<[0.5, -10.0]> : tensor<2xf32>]" --check 2>&1 | FileCheck %s
// RUN: aic-run --target=host %s --entry @softmax --args "[dense<[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>]" --check 2>&1 | FileCheck %s --check-prefix=SOFTMAX
// RUN: not aic-run --target=cuda %s --entry @softmax --args "[dense<[[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>]" 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not aic-run --target=metal %s --entry @softmax 2>&1 | FileCheck %s --check-prefix=TARGET
// CHECK: dense<{{\[\[}}4.500000e+00, 0.000000e+00], [1.050000e+01, 1.000000e+00]]> : tensor<2x2xf32>
// CHECK: check: ok
// SOFTMAX: dense<{{\[\[}}0.0900305{{[0-9]*}}, 0.244728{{[0-9]*}}, 0.665240{{[0-9]*}}], [0.333333{{[0-9]*}}, 0.333333{{[0-9]*}}, 0.333333{{[0-9]*}}]]> : tensor<2x3xf32>
// SOFTMAX: check: ok
// CUDA: aic-run: CUDA driver not found
// TARGET: aic-run: unsupported target 'metal': expected host or cuda
func.func @dense(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> tensor<2x2xf32> {
  %m = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %a = graph.bias_add %m, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r = graph.relu %a : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = graph.softmax %x, axis = 1 : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
