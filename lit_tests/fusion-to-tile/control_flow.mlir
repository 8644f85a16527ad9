// Kernels inside control flow: the bodies of a while and of a case get
// their groups lowered and launched where they are, the host program keeps
// the loop and the branch; with scalars=true (as the compile pipelines run
// it) the loop's scalar test and counter become one-element kernels too (so
// that a plan runs them, not the interpreter); with total=true a tensor op
// no generator lowers inside a loop's body is an error at the op.
// RUN: aic-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(stablehlo-to-graph,eqsat-fusion,fusion-to-tile{total=true scalars=true})' | FileCheck %s

// CHECK-LABEL: func.func @loop(
// CHECK: stablehlo.while
// CHECK: cond {
// CHECK: tile.launch @general_{{[0-9]+}}(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: } do {
// CHECK: tile.launch @general_{{[0-9]+}}(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: tile.launch @{{.*}}(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: stablehlo.return
// CHECK: "stablehlo.case"
// CHECK: tile.launch
// CHECK: stablehlo.return
// CHECK: tile.launch
// CHECK: stablehlo.return
func.func @loop(%x: tensor<4xf32>, %n: tensor<i32>, %k: tensor<i32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.tanh %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  %y = "stablehlo.case"(%k) ({
    %a = stablehlo.negate %r#1 : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %b = stablehlo.multiply %r#1, %r#1 : tensor<4xf32>
    stablehlo.return %b : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @unlowered(%x: tensor<4x4xf32>, %n: tensor<i32>) -> tensor<4x4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4x4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    // expected-error@+1 {{'stablehlo.custom_call' op cannot be compiled: no kernel generator lowers it: no graph op expresses it (stablehlo-to-graph left it)}}
    %w = stablehlo.custom_call @mystery(%v) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4x4xf32>
  }
  return %r#1 : tensor<4x4xf32>
}
