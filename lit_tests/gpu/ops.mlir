// The gpu dialect: a kernel as one thread's program (block and thread ids,
// shared memory views, barriers, memref loads and stores), launched on
// tensors. It round-trips, and the interpreter runs a kernel of one thread
// per block (each block doubles its half through shared memory).
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s --entry @main --args "[dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>]" | FileCheck %s --check-prefix=VALUES

// CHECK: gpu.kernel @double grid = [2, 1, 1] block = [1, 1, 1] shared = 16 {
// CHECK: gpu.block_id x
// CHECK: gpu.thread_id x
// CHECK: gpu.shared offset = 0 : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: gpu.return
// CHECK: gpu.launch @double(%{{.*}}) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// VALUES: dense<{{\[\[}}2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00], [1.000000e+01, 1.200000e+01, 1.400000e+01, 1.600000e+01]]> : tensor<2x4xf32>
gpu.kernel @double grid = [2, 1, 1] block = [1, 1, 1] shared = 16 {
^bb0(%x: memref<8xf32>, %y: memref<8xf32>):
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %s = gpu.shared offset = 0 : memref<4xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %b, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %at = arith.addi %base, %i : index
    %v = memref.load %x[%at] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %s[%i] : memref<4xf32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.for %i = %c0 to %c4 step %c1 {
    %at = arith.addi %base, %i : index
    %v = memref.load %s[%i] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%at] : memref<8xf32>
  }
  gpu.return
}
func.func @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = gpu.launch @double(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

gpu.kernel @pair grid = [1, 1, 1] block = [2, 1, 1] shared = 0 {
^bb0(%x: memref<4xf32>, %y: memref<4xf32>):
  gpu.return
}
func.func @two(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = gpu.launch @pair(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
