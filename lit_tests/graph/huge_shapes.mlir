// Element counts past an i64: the verifier compares only counts that fit
// (the reshape check multiplied with overflow, a panic in debug builds).
// RUN: aic-opt %s | FileCheck %s
// CHECK: graph.reshape %arg0 : (tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999x1xf32>
func.func @f(%x: tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999x1xf32> {
  %0 = graph.reshape %x : (tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999x1xf32>
  return %0 : tensor<99999999999x99999999999x1xf32>
}
