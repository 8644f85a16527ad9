// The gpu verifier: kernel sizes, flat buffers, shared views inside the
// kernel's shared memory, launches that match their kernel, and the
// interpreter's one-thread limit.
// RUN: aic-opt %s --split-input-file --verify-diagnostics
// RUN: not aic-run --interpret %S/ops.mlir --entry @two --args "[dense<1.0> : tensor<4xf32>]" 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: the interpreter runs gpu kernels of one thread per block, and this one has 2

// expected-error@+1 {{'gpu.kernel' op block [0, 1, 1] must be three positive sizes}}
gpu.kernel @k grid = [1, 1, 1] block = [0, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  gpu.return
}
// -----
// expected-error@+1 {{'gpu.kernel' op arguments must be flat (rank-1) memref buffers}}
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<2x4xf32>):
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 16 {
^bb0(%a: memref<8xf32>):
  // expected-error@+1 {{'gpu.shared' op the view ends at byte 20 but the kernel has 16 bytes of shared memory}}
  %s = gpu.shared offset = 4 : memref<4xf32, #gpu.address_space<workgroup>>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 16 {
^bb0(%a: memref<8xf32>):
  // expected-error@+1 {{'gpu.shared' op the view must be a memref in #gpu.address_space<workgroup>}}
  %s = gpu.shared offset = 0 : memref<4xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>, %b: memref<8xf32>):
  gpu.return
}
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'gpu.launch' op inputs and results must match the kernel's buffers in order, size and element type}}
  %r = gpu.launch @k(%x) : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// -----
// expected-error@+1 {{'gpu.barrier' op must be inside a gpu.kernel}}
gpu.barrier
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<8xf32>
  %o = arith.constant 1 : i64
  %w = arith.constant 32 : i32
  // expected-error@+1 {{'gpu.shuffle' op operand #1 must be i32, but got 'i64'}}
  %v:2 = "gpu.shuffle"(%x, %o, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i64, i32) -> (f32, i1)
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%a: memref<8xf32>):
  // expected-error@+1 {{'gpu.lane_id' op upper_bound must be a positive lane count}}
  %l = gpu.lane_id upper_bound 0
  gpu.return
}
