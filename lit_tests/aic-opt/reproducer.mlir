// A failing pass leaves a reproducer: the IR before the failing pipeline step
// (the steps before it rerun) and the pipeline that reproduces the failure, cut
// after the failing pass, in MLIR's `{-# external_resources #-}` trailer;
// `--run-reproducer` runs it and fails the same way.
// RUN: rm -f %t.repro.mlir
// RUN: not aic-opt %s --pass-pipeline='builtin.module(cse,func.func(cse,canonicalize{max-num-rewrites=0 test-convergence},cse),symbol-dce)' --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: pattern application did not converge
// ERR: note: a reproducer of the failure was written to '{{.*}}.repro.mlir' (run it: aic-opt --run-reproducer {{.*}}.repro.mlir)
// RUN: FileCheck %s --check-prefix=REPRO < %t.repro.mlir
// REPRO:      func.func @f(
// REPRO:        %0 = arith.addi %arg0, %c0_i32 : i32
// REPRO-NEXT:   %1 = arith.muli %0, %0 : i32
// REPRO:      {-#
// REPRO-NEXT:   external_resources: {
// REPRO-NEXT:     mlir_reproducer: {
// REPRO-NEXT:       pipeline: "builtin.module(func.func(cse,canonicalize{max-num-rewrites=0 test-convergence}))",
// REPRO-NEXT:       disable_threading: true,
// REPRO-NEXT:       verify_each: true
// REPRO-NEXT:     }
// REPRO-NEXT:   }
// REPRO-NEXT: #-}
// RUN: not aic-opt --run-reproducer %t.repro.mlir --mlir-pass-pipeline-crash-reproducer=%t.again.mlir 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: error: pattern application did not converge
// Without the flag the reproducer goes to a new file in the temporary directory.
// RUN: not aic-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-num-rewrites=0 test-convergence}))' 2>&1 | FileCheck %s --check-prefix=TMP
// TMP: note: a reproducer of the failure was written to '{{.*}}aic-reproducer-{{[0-9]+}}-{{[0-9]+}}.mlir'
// With --verify-diagnostics, none is written.
// RUN: not aic-opt %s --verify-diagnostics --pass-pipeline='builtin.module(func.func(canonicalize{max-num-rewrites=0 test-convergence}))' 2>&1 | FileCheck %s --check-prefix=VD
// VD: error: unexpected error: pattern application did not converge
// VD-NOT: was written

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  %1 = arith.addi %a, %c0 : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
