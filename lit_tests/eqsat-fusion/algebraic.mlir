// eqsat-fusion with the algebraic rule set alone: double negations and the like go,
// a rule never changes a type, ops the rules do not know stay, and the report
// says how saturation went.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{rules=algebraic})' | FileCheck %s
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{rules=algebraic report=true target=trn1})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @negations
// CHECK-DAG: %[[A:.*]] = graph.add %arg{{[01]}}, %arg{{[01]}} : tensor<4xf32>
// CHECK-DAG: %[[B:.*]] = graph.abs %arg0 : tensor<4xf32>
// CHECK: %[[C:.*]] = graph.mul %{{[0-9]+}}, %{{[0-9]+}} : tensor<4xf32>
// CHECK-NEXT: return %[[C]] : tensor<4xf32>
// REPORT: eqsat-fusion: 7 ops, {{[0-9]+}} iterations, {{[0-9]+}} e-nodes (0 fused alternatives), {{[0-9]+}} e-classes, stop: Some(Saturated), {{.*}} ms (saturate {{.*}}, fuse {{.*}}); modelled time on trn1: 70.000 us before, 30.000 us after; kernels: 7 before, 3 after; HBM bytes: 256 before, 128 after
func.func @negations(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %n = graph.neg %y : tensor<4xf32>
  %s = graph.sub %x, %n : tensor<4xf32>
  %nx = graph.neg %x : tensor<4xf32>
  %nnx = graph.neg %nx : tensor<4xf32>
  %a = graph.abs %nx : tensor<4xf32>
  %aa = graph.abs %a : tensor<4xf32>
  %r = graph.mul %s, %aa : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A scalar operand broadcasts; commuting keeps the result type, dropping a
// negation of a scalar would not apply where types differ.
// CHECK-LABEL: func.func @scalars
// CHECK-NEXT: %[[M:.*]] = graph.mul %arg0, %arg1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[M]] : tensor<4xf32>
func.func @scalars(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %nx = graph.neg %x : tensor<4xf32>
  %ns = graph.neg %s : tensor<f32>
  %r = graph.mul %nx, %ns : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Ops outside the graph dialect, and ops with regions, split runs and stay.
// CHECK-LABEL: func.func @barriers
// CHECK: stablehlo.custom_call @side_effect
// CHECK: %[[N:.*]] = graph.exp
// CHECK-NOT: graph.neg
// CHECK: return %[[N]]
func.func @barriers(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n = graph.neg %x : tensor<4xf32>
  %c = stablehlo.custom_call @side_effect(%n) : (tensor<4xf32>) -> tensor<4xf32>
  %a = graph.neg %c : tensor<4xf32>
  %b = graph.neg %a : tensor<4xf32>
  %e = graph.exp %b : tensor<4xf32>
  return %e : tensor<4xf32>
}
