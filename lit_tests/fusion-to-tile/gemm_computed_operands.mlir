// A GEMM operand computed in the kernel (a splat, an exp of a load) is zero
// outside its bounds, as a loaded one is: with K = 13 and K steps of 16, the
// three elements of the tail would otherwise add to every product where
// both operands are nonzero there. Compiled for the host and checked against
// the interpreter, on SIMT loops and on (emulated) tensor cores.
// RUN: aic-run --target=host --entry=@splats --check %s 2>&1 | FileCheck %s
// RUN: aic-run --target=host --threads=128 --entry=@splats --check %s 2>&1 | FileCheck %s
// RUN: aic-run --target=host --entry=@exp_prologue --args "[dense<0.5> : tensor<21x13xf32>]" --check %s 2>&1 | FileCheck %s
// CHECK: check: ok

func.func @splats() -> tensor<21x37xf32> {
  %a = stablehlo.constant dense<3.0> : tensor<21x13xf32>
  %b = stablehlo.constant dense<-2.0> : tensor<13x37xf32>
  %m = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<21x13xf32>, tensor<13x37xf32>) -> tensor<21x37xf32>
  return %m : tensor<21x37xf32>
}

func.func @exp_prologue(%x: tensor<21x13xf32>) -> tensor<21x37xf32> {
  %e = stablehlo.exponential %x : tensor<21x13xf32>
  %b = stablehlo.constant dense<0.25> : tensor<13x37xf32>
  %m = stablehlo.dot_general %e, %b, contracting_dims = [1] x [0] : (tensor<21x13xf32>, tensor<13x37xf32>) -> tensor<21x37xf32>
  return %m : tensor<21x37xf32>
}
