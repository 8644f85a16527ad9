// Buckets: a copy of the entry and what it calls per combination of smaller
// bounds (here 2 and 4, beside the bound 8), each made static at
// its own bounds; the entry lists them for the run time.
// RUN: aic-opt %s --pass-pipeline='builtin.module(dynamic-dims{bounds=arg0.0=8 buckets=arg0.0=2,arg0.0=4})' | FileCheck %s
// RUN: not aic-opt %s --pass-pipeline='builtin.module(dynamic-dims{bounds=arg0.0=8 buckets=t=2})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: dynamic-dims buckets name 't', which is not a dynamic dimension of the function

// CHECK-LABEL: func.func public @entry(%arg0: tensor<8x4xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<8x4xf32>
// CHECK-SAME: aic.dim_buckets = {{\[\[}}"entry__arg0_02", "arg0.0=2"], ["entry__arg0_04", "arg0.0=4"]]
// CHECK: call @inner(%arg0)
// CHECK-LABEL: func.func public @entry__arg0_04(%arg0: tensor<4x4xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<4x4xf32>
// CHECK-SAME: aic.dim_bounds = ["arg0.0=4"]
// CHECK: call @inner__arg0_04(%arg0)
// CHECK-LABEL: func.func public @entry__arg0_02(%arg0: tensor<2x4xf32>
// CHECK: call @inner__arg0_02(%arg0)
// CHECK-LABEL: func.func private @inner(%arg0: tensor<8x4xf32>)
// CHECK-LABEL: func.func private @inner__arg0_04(%arg0: tensor<4x4xf32>)
// CHECK-LABEL: func.func private @inner__arg0_02(%arg0: tensor<2x4xf32>)
module {
  func.func public @entry(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %y = call @inner(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %y : tensor<?x4xf32>
  }
  func.func private @inner(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %y = stablehlo.exponential %x : tensor<?x4xf32>
    return %y : tensor<?x4xf32>
  }
}
