// mma.sync m16n8k32 takes i8 fragments into an i32 accumulator only.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %z = arith.constant 0.0 : f32
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %b = vector.from_elements %h, %h, %h, %h : vector<2x2xf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sync' op mmaShape [16, 8, 32] expects (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>, not (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %x = arith.constant 1 : i8
  %z = arith.constant 0 : i32
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x, %x : vector<4x4xi8>
  %b = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<2x4xi8>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xi32>
  // expected-error@+1 {{'nvgpu.mma.sync' op mmaShape [16, 8, 64] is not supported: only [16, 8, 16] (f16, bf16) and [16, 8, 32] (i8)}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 64]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
  gpu.return
}
