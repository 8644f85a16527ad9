// Pass pipelines, implicit nesting and IR printing instrumentation, compared with
// mlir-opt-22 on the same input.
// RUN: aic-opt %s --cse --symbol-dce > %t.aic
// RUN: mlir-opt %s --cse --symbol-dce > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt %s --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' > %t.aic
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt %s --cse --symbol-dce --mlir-print-ir-after-all > %t.aic 2>&1
// RUN: mlir-opt %s --cse --symbol-dce --mlir-print-ir-after-all > %t.ref 2>&1
// RUN: diff %t.aic %t.ref
// RUN: aic-opt %s --mlir-print-ir-before=cse --mlir-print-ir-after-all --mlir-print-ir-after-change --cse --symbol-dce > %t.aic 2>&1
// RUN: mlir-opt %s --mlir-print-ir-before=cse --mlir-print-ir-after-all --mlir-print-ir-after-change --cse --symbol-dce > %t.ref 2>&1
// RUN: diff %t.aic %t.ref
// RUN: aic-opt %s --cse --symbol-dce --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: aic-opt %s --cse --verify-each=false --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
// RUN: aic-opt --list-passes | FileCheck %s --check-prefix=LIST

// DUMP: // -----// IR Dump After CSE (cse) //----- //
// DUMP: // -----// IR Dump After SymbolDCE (symbol-dce) //----- //
// DUMP-NOT: func.func private @dead

// TIME: ... Execution time report ...
// TIME: Total Execution Time:
// TIME: Parser
// TIME-NEXT: CSE
// TIME-NEXT: Output
// TIME-NEXT: Total

// LIST: --cse
// LIST: --symbol-dce

module {
  func.func private @dead()
  func.func private @used()
  func.func @main(%a: i32) -> (f32, f32) {
    call @used() : () -> ()
    %0 = builtin.unrealized_conversion_cast %a : i32 to f32
    %1 = builtin.unrealized_conversion_cast %a : i32 to f32
    return %0, %1 : f32, f32
  }
}
