// The verifiers of the warp-specialisation ops: setmaxregister's count is
// a multiple of 8 from 24 to 256, and both ops run inside kernels.
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
