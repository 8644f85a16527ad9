// Shapes compiled code cannot size are errors naming the type, never panics:
// dynamic dimensions (through fusion-to-tile they panicked in
// Desc::row_major), element counts past an i64 (a multiply overflow), and
// the interpreter's arguments of a dynamic type (a panic sizing --args),
// a kernel buffer of a dynamic size or of more bytes than an i64 offset
// reaches (a panic in the manifest's buffer sizes).
// RUN: split-file %s %t
// RUN: not aic-translate --target=host --emit=llvm-ir %t/dynamic.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not aic-run --target=host --entry @f %t/dynamic.mlir 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not aic-run --interpret --entry @f --args "[dense<1.0> : tensor<3x4xf32>]" %t/dynamic.mlir 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not aic-translate --target=host --emit=llvm-ir %t/matmul.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not aic-translate --target=host --emit=llvm-ir %t/huge.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not aic-run --target=host --entry @f %t/huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not aic-translate --target=host --emit=llvm-ir %t/kernel.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not aic-translate --target=nvptx --emit=asm %t/bytes.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// DYNAMIC: dynamic.mlir:1:14: dynamic dimensions are not supported yet by code generation (tensor<?x4xf32>)
// ARGS: aic-run: argument 0: dynamic dimensions are not supported yet by aic-run's arguments (tensor<?x4xf32>)
// MATMUL: matmul.mlir:2:8: dynamic dimensions are not supported yet by code generation (tensor<?x8x32xf32>)
// HUGE: tensor<99999999999x99999999999xf32> has more elements than code generation can address
// KERNEL: dynamic dimensions are not supported yet by code generation (memref<?xf32>)
// BYTES: aic-translate: kernel @k: argument 0: memref<4611686018427387904xf32> has more bytes than a kernel buffer can address (2^63)

//--- dynamic.mlir
func.func @f(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %a = graph.exp %x : tensor<?x4xf32>
  %b = graph.neg %a : tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
//--- matmul.mlir
func.func @f(%a: tensor<4x8x16xf32>, %w: tensor<16x32xf32>) -> tensor<?x8x32xf32> {
  %0 = graph.matmul %a, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<?x8x32xf32>
  return %0 : tensor<?x8x32xf32>
}
//--- huge.mlir
func.func @f(%x: tensor<99999999999x99999999999xf32>) -> tensor<99999999999x99999999999xf32> {
  %0 = stablehlo.add %x, %x : tensor<99999999999x99999999999xf32>
  return %0 : tensor<99999999999x99999999999xf32>
}
//--- kernel.mlir
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<?xf32>):
  gpu.return
}
//--- bytes.mlir
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<4611686018427387904xf32>):
  gpu.return
}
