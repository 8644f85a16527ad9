// The nvgpu verifier: ldmatrix from shared memory with 16-bit elements and a
// fragment of its numTiles, mma.sync of shape m16n8k16 on f16 fragments with
// an f32 accumulator, both inside a kernel; and the vector ops' shapes.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>, %i: memref<1xindex>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'nvgpu.ldmatrix' op the source must be a memref in #gpu.address_space<workgroup>}}
  %a = nvgpu.ldmatrix %g[%c0] {numTiles = 4 : i32, transpose = false} : memref<256xf16> -> vector<4x2xf16>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 1024 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf32, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.ldmatrix' op loads 16-bit elements (f16, bf16), not f32}}
  %a = nvgpu.ldmatrix %s[%c0] {numTiles = 4 : i32, transpose = false} : memref<256xf32, #gpu.address_space<workgroup>> -> vector<4x2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.ldmatrix' op numTiles must be 1, 2 or 4, not 3}}
  %a = nvgpu.ldmatrix %s[%c0] {numTiles = 3 : i32, transpose = false} : memref<256xf16, #gpu.address_space<workgroup>> -> vector<3x2xf16>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.ldmatrix' op the result must be vector<4x2xf16>, not vector<2x2xf16>}}
  %a = nvgpu.ldmatrix %s[%c0] {numTiles = 4 : i32, transpose = false} : memref<256xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %z = arith.constant 0.0 : f32
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %b = vector.from_elements %h, %h, %h, %h : vector<2x2xf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sync' op mmaShape [16, 8, 8] is not supported: only [16, 8, 16]}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %b = vector.from_elements %h, %h, %h, %h : vector<2x2xf16>
  // expected-error@+1 {{'nvgpu.mma.sync' op expects (vector<4x2xT>, vector<2x2xT>, vector<2x2xf32>) -> vector<2x2xf32> for T f16 or bf16, not (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>}}
  %d = nvgpu.mma.sync(%a, %b, %b) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %h = arith.constant 0.0 : f16
  %bh = arith.constant 0.0 : bf16
  %z = arith.constant 0.0 : f32
  %a = vector.from_elements %h, %h, %h, %h, %h, %h, %h, %h : vector<4x2xf16>
  %b = vector.from_elements %bh, %bh, %bh, %bh : vector<2x2xbf16>
  %c = vector.from_elements %z, %z, %z, %z : vector<2x2xf32>
  // expected-error@+1 {{'nvgpu.mma.sync' op expects (vector<4x2xT>, vector<2x2xT>, vector<2x2xf32>) -> vector<2x2xf32> for T f16 or bf16, not (vector<4x2xf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
  gpu.return
}
// -----
func.func @outside(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  // expected-error@+1 {{'nvgpu.mma.sync' op must be inside a gpu.kernel}}
  %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
  return %d : vector<2x2xf32>
}
// -----
func.func @extract(%v: vector<2x2xf32>) -> f32 {
  // expected-error@+1 {{'vector.extract' op position [2, 0] is not an element of a vector of shape [2, 2]}}
  %x = vector.extract %v[2, 0] : f32 from vector<2x2xf32>
  return %x : f32
}
// -----
func.func @from(%x: f32) -> vector<2x2xf32> {
  // expected-error@+1 {{'vector.from_elements' op has 3 elements for a vector of 4}}
  %v = vector.from_elements %x, %x, %x : vector<2x2xf32>
  return %v : vector<2x2xf32>
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.device_async_copy' op the destination must be a memref in #gpu.address_space<workgroup>}}
  %t = nvgpu.device_async_copy %s[%c0], %g[%c0], 8 : memref<256xf16, #gpu.address_space<workgroup>> to memref<256xf16>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.device_async_copy' op copies 4, 8 or 16 bytes, not 6 (3 elements of 16 bits)}}
  %t = nvgpu.device_async_copy %g[%c0], %s[%c0], 3 : memref<256xf16> to memref<256xf16, #gpu.address_space<workgroup>>
  gpu.return
}
