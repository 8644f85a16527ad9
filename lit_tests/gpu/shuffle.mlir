// gpu.shuffle in upstream's form (mlir-opt-22 parses the same op), and its
// meaning in the interpreter's one-thread blocks: lane 0 reads itself when
// the source lane is 0 (valid), and keeps its value with valid = false
// when the source lane does not exist.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s --entry @main --args "[dense<[1.5, -2.0]> : tensor<2xf32>]" | FileCheck %s --check-prefix=VALUES

// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle down %{{.*}}, %{{.*}}, %{{.*}} : f32
// VALUES: dense<[1.500000e+00, 0.000000e+00]> : tensor<2xf32>
gpu.kernel @lanes grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%x: memref<2xf32>, %y: memref<2xf32>):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o0 = arith.constant 0 : i32
  %o1 = arith.constant 1 : i32
  %w = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %a = memref.load %x[%c0] : memref<2xf32>
  %v, %ok = gpu.shuffle xor %a, %o0, %w : f32
  %r0 = arith.select %ok, %v, %zero : f32
  memref.store %r0, %y[%c0] : memref<2xf32>
  %b = memref.load %x[%c1] : memref<2xf32>
  %u, %ok1 = gpu.shuffle down %b, %o1, %w : f32
  %r1 = arith.select %ok1, %u, %zero : f32
  memref.store %r1, %y[%c1] : memref<2xf32>
  gpu.return
}
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = gpu.launch @lanes(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
