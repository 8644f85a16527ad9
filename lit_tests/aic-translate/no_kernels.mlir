// A program of arithmetic on scalars only compiles to one-element kernels
// (it was once refused: "the module has no gpu.kernel to compile"; then run
// whole by the interpreter): its plan runs them, with no tensor op left to
// the interpreter. A tensor op no generator lowers is an error instead
// (not_lowered.mlir). JAX's control-flow fixture keeps its loop and branch in
// the plan, and the tensor work of their bodies becomes kernels.
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=IR
// RUN: aic-translate --target=nvptx --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=obj %s -o %t.o
// RUN: aic-translate --target=nvptx --emit=bundle --verbose %s -o %t.bundle 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: aic-run --target=host %s --entry @main --args "[dense<3.0> : tensor<f32>]" --check 2>&1 | FileCheck %s --check-prefixes=CHECK,OK
// RUN: aic-translate --target=host --emit=llvm-ir %S/../../tools/tests/fixtures/jax/control_flow.mlir -o - | FileCheck %s --check-prefix=CF
// RUN: aic-translate --target=nvptx --emit=bundle %S/../../tools/tests/fixtures/jax/control_flow.mlir -o %t.cf.bundle
// CF: define {{.*}}@gemm_0
// IR: target triple
// IR: define {{.*}}@general_0
// PTX: .target sm_90
// PTX: .entry general_0
// PLAN: remark: @main: planned arena {{[0-9]+}} bytes for {{[0-9]+}} bytes of tensors {{.*}}: {{[0-9]+}} buffers, 1 launches, 0 aliases
// CHECK-NOT: warning
// CHECK: dense<7.000000e+00> : tensor<f32>
// OK: check: ok
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.add %a, %a : tensor<f32>
  %1 = stablehlo.add %0, %one : tensor<f32>
  return %1 : tensor<f32>
}
