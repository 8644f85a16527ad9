// The interpreter's budgets: a loop that never ends stops after --max-steps
// ops with an error at the loop (each test function has its own budget, so
// one endless test does not keep the others from running), and a tensor
// larger than --max-memory (default: half of the machine) is an error naming
// its size instead of an abort in the allocator.

// Test mode: both endless loops fail, the finite one after them passes.
// RUN: not aic-run --interpret --max-steps=1000 %s 2>&1 | FileCheck %s --check-prefix=TESTS
// TESTS: FAIL endless_scf: interpreter stopped after 1000 steps (--max-steps) (at 'scf.while')
// TESTS: FAIL endless_stablehlo: interpreter stopped after 1000 steps (--max-steps) (at 'stablehlo.while')
// TESTS: FAIL huge_iota: 'stablehlo.iota' result: tensor<1000000000000xf32> needs 4000000000000 bytes, more than the interpreter's limit of {{[0-9]+}} bytes (--max-memory)
// TESTS: FAIL huge_constant: 'stablehlo.constant' result: tensor<1000000000000xf32> needs 4000000000000 bytes
// TESTS: PASS finite
// TESTS: 1 passed, 4 failed

// Entry mode.
// RUN: not aic-run --interpret --max-steps=1000 --entry=@endless_scf %s 2>&1 | FileCheck %s --check-prefix=SCF
// SCF: aic-run: interpreter stopped after 1000 steps (--max-steps) (at 'scf.while')
// RUN: not aic-run --interpret --max-steps=1000 --entry=@endless_stablehlo %s 2>&1 | FileCheck %s --check-prefix=HLO
// HLO: aic-run: interpreter stopped after 1000 steps (--max-steps) (at 'stablehlo.while')
// RUN: not aic-run --interpret --entry=@huge_iota %s 2>&1 | FileCheck %s --check-prefix=IOTA
// IOTA: aic-run: 'stablehlo.iota' result: tensor<1000000000000xf32> needs 4000000000000 bytes, more than the interpreter's limit of {{[0-9]+}} bytes (--max-memory) (at 'stablehlo.iota')

// A splat argument too large for the limit is refused before it is built.
// RUN: not aic-run --interpret --entry=@id --args "[dense<1.0> : tensor<1000000000000xf32>]" %s 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: aic-run: --args: value 0: tensor<1000000000000xf32> needs 4000000000000 bytes, more than the interpreter's limit of {{[0-9]+}} bytes (--max-memory)
// RUN: not aic-run --interpret --max-memory=64 --entry=@id --args "[dense<1.0> : tensor<1000000000000xf32>]" %s 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: limit of 64 bytes (--max-memory)

// Within the limits the same program runs.
// RUN: aic-run --interpret --max-memory=32 --entry=@small %s | FileCheck %s --check-prefix=OK
// OK: dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<8xf32>
// RUN: not aic-run --interpret --max-memory=31 --entry=@small %s 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: tensor<8xf32> needs 32 bytes, more than the interpreter's limit of 31 bytes

// Bad flag values are refused.
// RUN: not aic-run --interpret --max-steps=0 %s 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: --max-steps: expected 1 to

func.func @endless_scf() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %r = scf.while (%n = %c0) : (i32) -> i32 {
    scf.condition(%true) %n : i32
  } do {
  ^bb0(%m: i32):
    %next = arith.addi %m, %c1 : i32
    scf.yield %next : i32
  }
  return
}

func.func @endless_stablehlo() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w = stablehlo.while(%i = %zero) : tensor<i32>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n : tensor<i32>
    }
  return
}

func.func @huge_iota() {
  %0 = stablehlo.iota dim = 0 : tensor<1000000000000xf32>
  return
}

func.func @huge_constant() {
  %0 = stablehlo.constant dense<1.0> : tensor<1000000000000xf32>
  return
}

func.func @finite() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %w = stablehlo.while(%i = %zero) : tensor<i32>
    cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n : tensor<i32>
    }
  check.expect_eq_const %w, dense<10> : tensor<i32>
  return
}

func.func private @id(%x: tensor<1000000000000xf32>) -> tensor<1000000000000xf32> {
  return %x : tensor<1000000000000xf32>
}

func.func private @small() -> tensor<8xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
