// Bad input for eqsat-fusion: a tiny node limit, dynamic shapes and ops the
// rules do not know. The pass still succeeds with a correct, less fused
// program, and the report says why saturation and fusion stopped.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{node-limit=8})' --eqsat-report 2>%t.report | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.report

// CHECK-LABEL: func.func @limited
// CHECK: return
// REPORT: stop: node limit (8 e-nodes), fusion growth stopped at the node limit
func.func @limited(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %a = graph.add %x, %y : tensor<8xf32>
  %b = graph.mul %a, %y : tensor<8xf32>
  %c = graph.max %b, %x : tensor<8xf32>
  %d = graph.min %c, %y : tensor<8xf32>
  %e = graph.exp %d : tensor<8xf32>
  %f = graph.neg %e : tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// Dynamic dimensions: shapes stay as written, fusion still applies.
// CHECK-LABEL: func.func @dynamic
// CHECK: fusion.group elementwise
// CHECK-SAME: (tensor<?x4xf32>) -> tensor<?x4xf32>
// REPORT: kernels: 2 before, 1 after
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = graph.exp %x : tensor<?x4xf32>
  %b = graph.neg %a : tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
