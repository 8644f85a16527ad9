// --eqsat-report (or report=true) prints each changed run's choice and each
// function's largest error against the f32 program on random inputs.
// RUN: aic-opt %s --auto-mixed-precision --eqsat-report 2>&1 >/dev/null | FileCheck %s
// RUN: aic-opt %s --pass-pipeline='builtin.module(auto-mixed-precision{dtype=bf16 report=true seed=3})' 2>&1 >/dev/null | FileCheck %s --check-prefix=BF16

// CHECK: auto-mixed-precision: 3 ops, {{[0-9]+}} e-nodes, {{[0-9]+}} e-classes; 2 in f16: [matmul relu]; f32: [softmax]; casts: 3; modelled time on h100: {{[0-9.]+}} us before, {{[0-9.]+}} us after
// CHECK: auto-mixed-precision: @main: largest error against f32 on random inputs (seed 0): {{[0-9.]+}}e-{{[3-5]}} absolute, {{[0-9.]+}}e-{{[3-5]}} relative to the largest result
// BF16: 2 in bf16: [matmul relu]
// BF16: @main: largest error against f32 on random inputs (seed 3): {{[0-9.]+}}e-{{[2-4]}} absolute
func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %m = graph.matmul %x, %w : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %r = graph.relu %m : tensor<64x256xf32>
  %s = graph.softmax %r : tensor<64x256xf32>
  return %s : tensor<64x256xf32>
}

// A program too large to interpret for the report is not measured, and says so.
// RUN: aic-opt %s --pass-pipeline='builtin.module(auto-mixed-precision{report=true report-flops=1000})' 2>&1 >/dev/null | FileCheck %s --check-prefix=LIMIT
// LIMIT: auto-mixed-precision: @main: accuracy not measured ({{.*}} operations, over report-flops=1000)
