// A program with nothing to compile into a kernel (arithmetic on scalars)
// compiles to a module with no kernels, whose host-side program the
// interpreter runs whole (it was refused: "the module has no gpu.kernel to
// compile"). A tensor op no generator lowers is an error instead
// (not_lowered.mlir). JAX's control-flow fixture keeps its loop and branch on
// the host, and the tensor work of their bodies becomes kernels.
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=IR
// RUN: aic-translate --target=nvptx --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=obj %s -o %t.o
// RUN: aic-translate --target=nvptx --emit=bundle %s -o %t.bundle
// RUN: aic-run --target=cuda %t.bundle --entry @main --args "[dense<3.0> : tensor<f32>]" | FileCheck %s
// RUN: aic-run --target=host %s --entry @main --args "[dense<3.0> : tensor<f32>]" --check 2>&1 | FileCheck %s --check-prefixes=CHECK,OK
// RUN: aic-translate --target=host --emit=llvm-ir %S/../../tools/tests/fixtures/jax/control_flow.mlir -o - | FileCheck %s --check-prefix=CF
// RUN: aic-translate --target=nvptx --emit=bundle %S/../../tools/tests/fixtures/jax/control_flow.mlir -o %t.cf.bundle
// CF: define {{.*}}@gemm_0
// IR: target triple
// IR-NOT: define
// PTX: .target sm_90
// PTX-NOT: .entry
// CHECK: dense<7.000000e+00> : tensor<f32>
// OK: check: ok
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.add %a, %a : tensor<f32>
  %1 = stablehlo.add %0, %one : tensor<f32>
  return %1 : tensor<f32>
}
