// RUN: not aic-opt %s 2>&1 | FileCheck %s
// CHECK: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
"t.a"() : () -> ()
