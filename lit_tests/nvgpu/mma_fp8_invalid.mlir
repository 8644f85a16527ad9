// mma.sync m16n8k32 on fp8: A and B f8E4M3FN or f8E5M2 bytes, an f32 accumulator.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @bad_acc grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%ga: memref<32xf8E4M3FN>, %gb: memref<32xf8E4M3FN>, %gc: memref<32xi32>):
  %t = gpu.thread_id x
  %x = memref.load %ga[%t] : memref<32xf8E4M3FN>
  %y = memref.load %gb[%t] : memref<32xf8E4M3FN>
  %z = memref.load %gc[%t] : memref<32xi32>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : vector<4x4xf8E4M3FN>
  %b = vector.from_elements %y, %y, %y, %y, %y, %y, %y, %y : vector<2x4xf8E4M3FN>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xi32>
  // expected-error@+1 {{'nvgpu.mma.sync' op mmaShape [16, 8, 32] on floats expects (vector<4x4xT>, vector<2x4xU>, vector<2x2xf32>) -> vector<2x2xf32> for T, U f8E4M3FN or f8E5M2, not (vector<4x4xf8E4M3FN>, vector<2x4xf8E4M3FN>, vector<2x2xi32>) -> vector<2x2xi32>}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FN>, vector<2x4xf8E4M3FN>, vector<2x2xi32>) -> vector<2x2xi32>
  gpu.return
}

// -----

gpu.kernel @bad_format grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%ga: memref<32xf8E4M3FNUZ>, %gb: memref<32xf8E4M3FN>, %gc: memref<32xf32>):
  %t = gpu.thread_id x
  %x = memref.load %ga[%t] : memref<32xf8E4M3FNUZ>
  %y = memref.load %gb[%t] : memref<32xf8E4M3FN>
  %z = memref.load %gc[%t] : memref<32xf32>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : vector<4x4xf8E4M3FNUZ>
  %b = vector.from_elements %y, %y, %y, %y, %y, %y, %y, %y : vector<2x4xf8E4M3FN>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{for T, U f8E4M3FN or f8E5M2, not (vector<4x4xf8E4M3FNUZ>}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FNUZ>, vector<2x4xf8E4M3FN>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}

// -----

gpu.kernel @mixed grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%ga: memref<32xf8E4M3FN>, %gb: memref<32xi8>, %gc: memref<32xf32>):
  %t = gpu.thread_id x
  %x = memref.load %ga[%t] : memref<32xf8E4M3FN>
  %y = memref.load %gb[%t] : memref<32xi8>
  %z = memref.load %gc[%t] : memref<32xf32>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : vector<4x4xf8E4M3FN>
  %b = vector.from_elements %y, %y, %y, %y, %y, %y, %y, %y : vector<2x4xi8>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sync' op mmaShape [16, 8, 32] on floats expects}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x4xf8E4M3FN>, vector<2x4xi8>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
