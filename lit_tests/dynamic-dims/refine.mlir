// dynamic-dims{shapes=...}: the module refined to one call's argument
// shapes (what aic-run --interpret and --check do before interpreting a
// function with `?` dims): every type at the sizes, no function attributes,
// and JAX's shape assertions evaluated (a false one is an error with its
// message).
// RUN: aic-opt %s --pass-pipeline='builtin.module(dynamic-dims{shapes=3x16})' | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(dynamic-dims{shapes=3x16})' | aic-run --interpret - --entry=@rows --args='[dense<2.0> : tensor<3x16xf32>]' | FileCheck %s --check-prefix=EXEC
// RUN: not aic-opt %s --pass-pipeline='builtin.module(dynamic-dims{shapes=0x16})' 2>&1 | FileCheck %s --check-prefix=ASSERT

// CHECK-LABEL: func.func @rows(%arg0: tensor<3x16xf32>) -> tensor<3x16xf32> {
// CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [0] : (tensor<3xf32>) -> tensor<3x16xf32>
// EXEC: dense<6.250000e-02> : tensor<3x16xf32>
// ASSERT: error: 'stablehlo.custom_call' op rows must be at least 1 (got 0)
func.func @rows(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
  %ok = stablehlo.compare GE, %n, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %n) {error_message = "rows must be at least 1 (got {0})", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x16xf32>, tensor<f32>) -> tensor<?xf32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<16> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x16xf32>
  %y = stablehlo.divide %x, %b : tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
