// A tensor op no kernel generator lowers is a compile error naming the op,
// where it is and why, and the tools exit 1: the interpreter is never a
// run-time fallback for a tensor op (it stays the reference: aic-run
// --interpret runs uncompiled IR, and --check compares against it).
// RUN: not aic-translate --target=nvptx --emit=asm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVPTX
// RUN: not aic-translate --target=host --emit=obj %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not aic-run --target=host %s --entry @main --args "[dense<1.0> : tensor<5xf32>]" 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: not aic-run --target=cuda %s --entry @main --args "[dense<1.0> : tensor<5xf32>]" 2>&1 | FileCheck %s --check-prefix=EXEC
// RUN: aic-opt --verify-diagnostics --pass-pipeline='builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{total=true})' %s
// NVPTX: aic-translate: {{.*}}not_lowered.mlir:[[@LINE+6]]:8: 'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it: no graph op expresses it (stablehlo-to-graph left it)
// HOST: aic-translate: {{.*}}not_lowered.mlir:[[@LINE+5]]:8: 'stablehlo.custom_call' op cannot be compiled
// EXEC: aic-run: {{.*}}not_lowered.mlir:[[@LINE+4]]:8: 'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it
// EXEC-NOT: check:
func.func @main(%a: tensor<5xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it: no graph op expresses it (stablehlo-to-graph left it)}}
  %0 = stablehlo.custom_call @mystery(%a) : (tensor<5xf32>) -> tensor<5xf32>
  %1 = stablehlo.exponential %0 : tensor<5xf32>
  return %1 : tensor<5xf32>
}
