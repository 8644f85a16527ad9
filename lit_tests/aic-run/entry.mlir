// aic-run with --entry: arguments from .npy files or MLIR literals, results
// printed or written as .npy files (read back here through a second run).
// RUN: aic-run --interpret %s --entry=@square --input %S/Inputs/x_f32.npy --input %S/Inputs/n_i32.npy | FileCheck %s --check-prefix=NPY
// NPY: dense<[1.000000e+00, 4.000000e+00, 1.225000e+01]> : tensor<3xf32>
// NPY-NEXT: 49 : i32
// RUN: aic-run --interpret %s --entry @square --args "[dense<[2.0, 0.5, -1.0]> : tensor<3xf32>, -3 : i32]" | FileCheck %s --check-prefix=ARGS
// ARGS: dense<[4.000000e+00, 2.500000e-01, 1.000000e+00]> : tensor<3xf32>
// ARGS-NEXT: 9 : i32
// RUN: rm -rf %t && aic-run --interpret %s --entry=@square --input %S/Inputs/x_f32.npy --input %S/Inputs/n_i32.npy --output-dir %t
// RUN: aic-run --interpret %s --entry=@square --input %t/result0.npy --input %t/result1.npy | FileCheck %s --check-prefix=TWICE
// TWICE: dense<[1.000000e+00, 1.600000e+01, 150.0625]> : tensor<3xf32>
// TWICE-NEXT: 2401 : i32
// RUN: aic-run --interpret %s --entry=@negate --input %S/Inputs/m_i8.npy | FileCheck %s --check-prefix=I8
// I8: dense<{{\[}}[-1, 2], [-127, -128]]> : tensor<2x2xi8>
// RUN: aic-run --interpret %s --entry=@flip --input %S/Inputs/b.npy | FileCheck %s --check-prefix=BOOL
// BOOL: dense<[false, true, false]> : tensor<3xi1>

// Bad input: the argument is named, exit status 1.
// RUN: not aic-run --interpret %s --entry=@square --input %S/Inputs/x_f64.npy --input %S/Inputs/n_i32.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: --input {{.*}}x_f64.npy (argument 0): dtype '<f8' does not match the argument's element type ('<f4')
// RUN: not aic-run --interpret %s --entry=@square --input %S/Inputs/short_f32.npy --input %S/Inputs/n_i32.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: (argument 0): shape [2] does not match the argument's shape [3]
// RUN: not aic-run --interpret %s --entry=@square --input %S/Inputs/x_f32.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: the entry function takes 2 arguments, 1 given
// RUN: not aic-run --interpret %s --entry=@nope 2>&1 | FileCheck %s --check-prefix=NOFN
// NOFN: no function named '@nope'
// RUN: not aic-run --interpret %s --entry=@square --args "[dense<[1.0]> : tensor<1xf32>, 1 : i32]" 2>&1 | FileCheck %s --check-prefix=LIT
// LIT: --args: value 0 has type tensor<1xf32>, argument 0 is tensor<3xf32>

func.func @square(%x: tensor<3xf32>, %n: i32) -> (tensor<3xf32>, i32) {
  %y = arith.mulf %x, %x : tensor<3xf32>
  %m = arith.muli %n, %n : i32
  return %y, %m : tensor<3xf32>, i32
}

func.func @negate(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  %z = arith.constant dense<0> : tensor<2x2xi8>
  %y = arith.subi %z, %x : tensor<2x2xi8>
  return %y : tensor<2x2xi8>
}

func.func @flip(%x: tensor<3xi1>) -> tensor<3xi1> {
  %t = arith.constant dense<true> : tensor<3xi1>
  %y = arith.xori %x, %t : tensor<3xi1>
  return %y : tensor<3xi1>
}
