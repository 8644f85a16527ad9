// A tensor op no kernel generator lowers is a compile error naming the op,
// where it is and why, and the tools exit 1: the interpreter is never a
// run-time fallback for a tensor op (it stays the reference: aic-run
// --interpret runs uncompiled IR, and --check compares against it). Here a
// custom call (no graph op expresses it) and a gather with operand batching
// dims (a graph op the general generator declines).
// RUN: not aic-translate --target=nvptx --emit=asm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVPTX
// RUN: not aic-translate --target=host --emit=obj %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not aic-run --target=host %s --entry @main --args "[dense<1.0> : tensor<5xf32>]" 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: not aic-run --target=cuda %s --entry @main --args "[dense<1.0> : tensor<5xf32>]" 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: aic-run --interpret %s --entry @batched --args "[dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>, dense<[[[2], [0]], [[1], [7]]]> : tensor<2x2x1xi32>]" | FileCheck %s --check-prefix=INTERP
// RUN: aic-opt --verify-diagnostics --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{total=true})' %s
// NVPTX: aic-translate: {{.*}}not_lowered.mlir:[[@LINE+9]]:8: 'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it: no graph op expresses it (stablehlo-to-graph left it)
// NVPTX-NEXT: {{.*}}not_lowered.mlir:[[@LINE+15]]:8: 'graph.gather' op cannot be compiled: no kernel generator lowers it: a gather with operand batching dims is not generated
// HOST: aic-translate: {{.*}}not_lowered.mlir:[[@LINE+7]]:8: 'stablehlo.custom_call' op cannot be compiled
// HOST-NEXT: {{.*}}not_lowered.mlir:[[@LINE+13]]:8: 'graph.gather' op cannot be compiled
// EXEC: aic-run: {{.*}}not_lowered.mlir:[[@LINE+5]]:8: 'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it
// EXEC-NOT: check:
// INTERP: dense<{{\[\[\[}}5.000000e+00, 6.000000e+00], [1.000000e+00, 2.000000e+00]], {{\[\[}}9.000000e+00, 1.000000e+01], [1.100000e+01, 1.200000e+01]]]> : tensor<2x2x2xf32>
func.func @main(%a: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it: no graph op expresses it (stablehlo-to-graph left it)}}
  %0 = stablehlo.custom_call @mystery(%a) : (tensor<5xf32>) -> tensor<5xf32>
  %1 = stablehlo.exponential %0 : tensor<5xf32>
  return %1 : tensor<5xf32>
}

func.func @batched(%x: tensor<2x3x2xf32>, %i: tensor<2x2x1xi32>) -> tensor<2x2x2xf32> {
  // expected-error @+1 {{'graph.gather' op cannot be compiled: no kernel generator lowers it: a gather with operand batching dims is not generated}}
  %g = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 2>}> : (tensor<2x3x2xf32>, tensor<2x2x1xi32>) -> tensor<2x2x2xf32>
  return %g : tensor<2x2x2xf32>
}
