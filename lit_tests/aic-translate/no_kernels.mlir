// A program with nothing to compile into a kernel (a lone sort; JAX's
// control-flow fixture, loops and conditionals on scalars) compiles to a
// module with no kernels, whose host-side program the interpreter runs
// whole (it was refused: "the module has no gpu.kernel to compile").
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=IR
// RUN: aic-translate --target=nvptx --emit=asm %s -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=obj %s -o %t.o
// RUN: aic-translate --target=nvptx --emit=bundle %s -o %t.bundle
// RUN: aic-run --target=cuda %t.bundle --entry @main --args "[dense<[3.0, 1.0, 2.0, 5.0, 4.0]> : tensor<5xf32>]" | FileCheck %s
// RUN: aic-run --target=host %s --entry @main --args "[dense<[3.0, 1.0, 2.0, 5.0, 4.0]> : tensor<5xf32>]" --check 2>&1 | FileCheck %s --check-prefixes=CHECK,OK
// RUN: aic-translate --target=host --emit=llvm-ir %S/../../tools/tests/fixtures/jax/control_flow.mlir -o - | FileCheck %s --check-prefix=IR
// RUN: aic-translate --target=nvptx --emit=bundle %S/../../tools/tests/fixtures/jax/control_flow.mlir -o %t.cf.bundle
// IR: target triple
// IR-NOT: define
// PTX: .target sm_90
// PTX-NOT: .entry
// CHECK: dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<5xf32>
// OK: check: ok
func.func @main(%a: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
