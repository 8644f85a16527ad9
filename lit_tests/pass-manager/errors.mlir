// Malformed pipelines, unknown passes and options: clear diagnostics, exit status 1.
// RUN: not aic-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not aic-opt %s --pass-pipeline='builtin.module(nope)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not aic-opt %s --pass-pipeline='builtin.module(cse{bogus=1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not aic-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not aic-opt %s --pass-pipeline='builtin.module(cse,)' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not aic-opt %s --pass-pipeline='builtin.module(cse)' --cse 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not aic-opt %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BOOL

// WRAP: error: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// UNKNOWN: error: 'nope' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: builtin.module(nope)
// UNKNOWN-NEXT: {{^}}               ^
// OPTION: error: <Pass-Options-Parser>: no such option bogus
// OPTION: failed to add `cse` with options `bogus=1`
// ANCHOR: error: can't run 'func.func' pass manager on 'builtin.module' op
// EMPTY: error: '' does not refer to a registered pass or pass pipeline
// BOTH: '--pass-pipeline' option can't be used with individual pass options
// BOOL: invalid value for --verify-each: 'maybe'

func.func @f() {
  return
}
