// The verifiers of the warp-specialisation ops: setmaxregister's count is
// a multiple of 8 from 24 to 256, and the ops run inside kernels; named
// barriers take i32 operands.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<4xf32>):
  // expected-error@+1 {{'nvvm.setmaxregister' op regCount must be a multiple of 8 from 24 to 256, not 236}}
  nvvm.setmaxregister increase 236
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<4xf32>):
  // expected-error@+1 {{'nvvm.setmaxregister' op regCount must be a multiple of 8 from 24 to 256, not 16}}
  nvvm.setmaxregister decrease 16
  gpu.return
}
// -----
func.func @f(%n: i32) {
  // expected-error@+1 {{'nvvm.barrier' op must be inside a gpu.kernel}}
  nvvm.barrier id = %n number_of_threads = %n
  return
}
// -----
func.func @g(%n: i32) {
  // expected-error@+1 {{'nvvm.barrier.arrive' op must be inside a gpu.kernel}}
  nvvm.barrier.arrive id = %n number_of_threads = %n
  return
}
// -----
gpu.kernel @k2 grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%x: memref<4xf32>):
  // expected-note@+1 {{prior use here}}
  %n = arith.constant 128 : index
  // expected-error@+1 {{use of value '%n' expects different type than prior uses: 'i32' vs 'index'}}
  nvvm.barrier.arrive id = %n number_of_threads = %n
  gpu.return
}
