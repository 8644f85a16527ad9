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
// REPORT: eqsat-fusion: 7 ops, {{[0-9]+}} iterations, {{[0-9]+}} e-nodes (0 fused alternatives), {{[0-9]+}} e-classes, stop: saturated, {{.*}} ms (saturate {{.*}}, fuse {{.*}}); modelled time on trn1: 70.000 us before, 30.000 us after; kernels: 7 before, 3 after; HBM bytes: 256 before, 128 after
// REPORT-SAME: ; rules fired: {{.*}}neg-neg ×{{[0-9]+}}, abs-neg ×{{[0-9]+}}, abs-abs ×{{[0-9]+}}, sub-neg ×{{[0-9]+}}
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

// -----

// Data movement collapses: a transpose and its inverse are the identity, two
// transposes one, a chain of reshapes one reshape (or none).
// CHECK-LABEL: func.func @movement
// CHECK-DAG: graph.transpose %arg0, perm = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-DAG: graph.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<24xf32>
// CHECK-NOT: graph.transpose
// CHECK-NOT: graph.reshape
// CHECK: return %arg0,
func.func @movement(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<2x3x4xf32>) {
  %t = graph.transpose %x, perm = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %tt = graph.transpose %t, perm = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %u = graph.transpose %t, perm = [2, 1, 0] : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %r = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %rr = graph.reshape %r : (tensor<6x4xf32>) -> tensor<24xf32>
  %back = graph.reshape %r : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  return %tt, %u, %rr, %back : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<2x3x4xf32>
}

// -----

// A transpose of a matmul operand's last two dimensions is its flag (and a
// set flag is cleared); other permutations stay transposes.
// CHECK-LABEL: func.func @matmul_flags
// CHECK: %[[M:.*]] = graph.matmul %arg0, %arg1 transpose_b : (tensor<2x8x16xf32>, tensor<2x32x16xf32>) -> tensor<2x8x32xf32>
// CHECK: %[[N:.*]] = graph.matmul %arg0, %arg2 : (tensor<2x8x16xf32>, tensor<2x16x32xf32>) -> tensor<2x8x32xf32>
// CHECK-NOT: graph.transpose
// CHECK: return %[[M]], %[[N]]
func.func @matmul_flags(%a: tensor<2x8x16xf32>, %b: tensor<2x32x16xf32>, %c: tensor<2x16x32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8x32xf32>) {
  %bt = graph.transpose %b, perm = [0, 2, 1] : (tensor<2x32x16xf32>) -> tensor<2x16x32xf32>
  %m = graph.matmul %a, %bt : (tensor<2x8x16xf32>, tensor<2x16x32xf32>) -> tensor<2x8x32xf32>
  %ct = graph.transpose %c, perm = [0, 2, 1] : (tensor<2x16x32xf32>) -> tensor<2x32x16xf32>
  %n = graph.matmul %a, %ct transpose_b : (tensor<2x8x16xf32>, tensor<2x32x16xf32>) -> tensor<2x8x32xf32>
  return %m, %n : tensor<2x8x32xf32>, tensor<2x8x32xf32>
}

// CHECK-LABEL: func.func @batch_permute_stays
// CHECK: graph.transpose %arg1, perm = [1, 0, 2]
func.func @batch_permute_stays(%a: tensor<2x8x16xf32>, %b: tensor<2x2x16xf32>) -> tensor<2x8x16xf32> {
  %bt = graph.transpose %b, perm = [1, 0, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %m = graph.matmul %a, %bt transpose_b : (tensor<2x8x16xf32>, tensor<2x2x16xf32>) -> tensor<2x8x2xf32>
  %r = graph.matmul %m, %bt : (tensor<2x8x2xf32>, tensor<2x2x16xf32>) -> tensor<2x8x16xf32>
  return %r : tensor<2x8x16xf32>
}

// -----

// Broadcasts sink below the ops on them, scalar constants fold, and
// multiplying by one goes: x * (2 * 0.5) is x.
// CHECK-LABEL: func.func @constants
// CHECK-NOT: graph.mul
// CHECK: return %arg0
func.func @constants(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %two = graph.constant dense<2.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %tb = graph.broadcast %two, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
  %hb = graph.broadcast %half, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
  %one = graph.mul %tb, %hb : tensor<4x4xf32>
  %r = graph.mul %x, %one : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @sunk
// CHECK: %[[E:.*]] = graph.exp %arg0 : tensor<4xf32>
// CHECK: %[[B:.*]] = graph.broadcast %[[E]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: return %[[B]]
func.func @sunk(%v: tensor<4xf32>) -> tensor<3x4xf32> {
  %b = graph.broadcast %v, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
  %e = graph.exp %b : tensor<3x4xf32>
  return %e : tensor<3x4xf32>
}

// -----

// Integers reassociate (exactly), floats do not; max and min reassociate
// and are idempotent: max(max(x, y), x) is max(x, y).
// CHECK-LABEL: func.func @assoc
// CHECK: graph.add {{.*}} : tensor<4xi32>
// CHECK: %[[I2:.*]] = graph.add {{.*}} : tensor<4xi32>
// CHECK-NOT: tensor<4xi32>{{$}}
// CHECK: %[[F:.*]] = graph.add {{.*}} : tensor<4xf32>
// CHECK: %[[F2:.*]] = graph.add {{.*}} : tensor<4xf32>
// CHECK: %[[G:.*]] = graph.add {{.*}} : tensor<4xf32>
// CHECK: %[[G2:.*]] = graph.add {{.*}} : tensor<4xf32>
// CHECK: %[[M:.*]] = graph.max %arg{{[34]}}, %arg{{[34]}} : tensor<4xf32>
// CHECK-NOT: graph.max
// CHECK: return %[[I2]], %[[I2]], %[[F2]], %[[G2]], %[[M]]
func.func @assoc(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi32>, %x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s = graph.add %a, %b : tensor<4xi32>
  %t = graph.add %s, %c : tensor<4xi32>
  %u = graph.add %b, %c : tensor<4xi32>
  %v = graph.add %a, %u : tensor<4xi32>
  %fs = graph.add %x, %y : tensor<4xf32>
  %ft = graph.add %fs, %z : tensor<4xf32>
  %fu = graph.add %y, %z : tensor<4xf32>
  %fv = graph.add %x, %fu : tensor<4xf32>
  %m = graph.max %x, %y : tensor<4xf32>
  %n = graph.max %m, %x : tensor<4xf32>
  return %t, %v, %ft, %fv, %n : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
