// nvgpu.mma.sp.sync takes m16n8k32 only, A and B of vector<4x2xT> (T f16 or
// bf16) and an f32 accumulator (the metadata register is an i32 by its syntax).
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %hb = arith.constant 0.0 : bf16
  %z = arith.constant 0.0 : f32
  %e = arith.constant 0 : i32
  %e16 = arith.constant 0 : i16
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %ab = vector.from_elements %hb, %hb, %hb, %hb, %hb, %hb, %hb, %hb : vector<4x2xbf16>
  %b = vector.from_elements %h, %h, %h, %h : vector<2x2xf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sp.sync' op mmaShape [16, 8, 16] is not supported: only [16, 8, 32] (f16, bf16)}}
  %d = nvgpu.mma.sp.sync(%a, %a, %c) metadata(%e) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %hb = arith.constant 0.0 : bf16
  %z = arith.constant 0.0 : f32
  %e = arith.constant 0 : i32
  %e16 = arith.constant 0 : i16
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %ab = vector.from_elements %hb, %hb, %hb, %hb, %hb, %hb, %hb, %hb : vector<4x2xbf16>
  %b = vector.from_elements %h, %h, %h, %h : vector<2x2xf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sp.sync' op expects (vector<4x2xT>, vector<4x2xT>, vector<2x2xf32>) -> vector<2x2xf32> for T f16 or bf16, not (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>}}
  %d = nvgpu.mma.sp.sync(%a, %b, %c) metadata(%e) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %hb = arith.constant 0.0 : bf16
  %z = arith.constant 0.0 : f32
  %e = arith.constant 0 : i32
  %e16 = arith.constant 0 : i16
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %ab = vector.from_elements %hb, %hb, %hb, %hb, %hb, %hb, %hb, %hb : vector<4x2xbf16>
  %b = vector.from_elements %h, %h, %h, %h : vector<2x2xf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sp.sync' op expects (vector<4x2xT>, vector<4x2xT>, vector<2x2xf32>) -> vector<2x2xf32> for T f16 or bf16, not (vector<4x2xf16>, vector<4x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>}}
  %d = nvgpu.mma.sp.sync(%a, %ab, %c) metadata(%e) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<4x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
