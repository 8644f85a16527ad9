// Dynamic dimensions and element counts past an i64: fusion-to-tile leaves
// such groups as they are, with a remark saying why (sizing them panicked
// in Desc::row_major and the GEMM generator). eqsat-fusion's own lit inputs
// with dynamic shapes lower without a panic too.
// RUN: aic-opt %s --split-input-file --eqsat-fusion --fusion-to-tile | FileCheck %s
// RUN: aic-opt %s --split-input-file --eqsat-fusion --fusion-to-tile --aic-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: aic-opt %S/../eqsat-fusion/limits.mlir --split-input-file --eqsat-fusion --fusion-to-tile | FileCheck %s --check-prefix=LIMITS
// RUN: aic-opt %S/../graph/ops.mlir --eqsat-fusion --fusion-to-tile | FileCheck %s --check-prefix=OPS

// REMARK: remark: fusion-to-tile: group left as it is (the interpreter still runs it): dynamic dimensions are not supported yet by fusion-to-tile (tensor<?x4xf32>)
// CHECK-LABEL: func.func @elementwise
// CHECK: fusion.group elementwise
// LIMITS-LABEL: func.func @dynamic
// LIMITS: fusion.group elementwise
// OPS: graph.matmul {{.*}} -> tensor<?x8x32xf32>
func.func @elementwise(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = graph.exp %x : tensor<?x4xf32>
  %b = graph.neg %a : tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}

// -----

// REMARK: remark: fusion-to-tile: group left as it is (the interpreter still runs it): dynamic dimensions are not supported yet by fusion-to-tile (tensor<?x8x32xf32>)
// CHECK-LABEL: func.func @matmul
// CHECK: graph.matmul
func.func @matmul(%a: tensor<4x8x16xf32>, %w: tensor<16x32xf32>) -> tensor<?x8x32xf32> {
  %0 = graph.matmul %a, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<?x8x32xf32>
  return %0 : tensor<?x8x32xf32>
}

// -----

// REMARK: remark: fusion-to-tile: group left as it is (the interpreter still runs it): tensor<99999999999x99999999999xf32> has more elements than fusion-to-tile can address
// CHECK-LABEL: func.func @huge
func.func @huge(%x: tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32> {
  %a = graph.exp %x : tensor<99999999999x99999999999xf32>
  %b = graph.neg %a : tensor<99999999999x99999999999xf32>
  return %b : tensor<99999999999x99999999999xf32>
}
