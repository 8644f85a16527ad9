// The amdgpu verifier and parser: mfma accepts the f16 instructions aic
// translates (32x32x8 and 16x16x16) with their fragment types, one block and
// no lane broadcasts; a malformed shape is a parse error.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'amdgpu.mfma' op shape 16x16x8 is not supported: only 32x32x8, 16x16x16}}
  %d = amdgpu.mfma 16x16x8 %a * %a + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
// -----
func.func @f(%a: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'amdgpu.mfma' op 32x32x8 expects vector<4xf16>, vector<4xf16>, vector<16xf32> -> vector<16xf32>, not vector<4xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>}}
  %d = amdgpu.mfma 32x32x8 %a * %a + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
// -----
func.func @f(%a: vector<8xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'amdgpu.mfma' op 16x16x16 expects vector<4xf16>, vector<4xf16>, vector<4xf32> -> vector<4xf32>, not vector<8xf16>, vector<8xf16>, vector<4xf32> -> vector<4xf32>}}
  %d = amdgpu.mfma 16x16x16 %a * %a + %c blgp = none : vector<8xf16>, vector<8xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
// -----
func.func @f(%a: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'amdgpu.mfma' op cbsz = 1 is not supported: only 0}}
  %d = amdgpu.mfma 16x16x16 %a * %a + %c {cbsz = 1 : i32} blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
// -----
func.func @f(%a: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{'amdgpu.mfma' op blgp = bcast_first_32 is not supported: only none}}
  %d = amdgpu.mfma 16x16x16 %a * %a + %c blgp = bcast_first_32 : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
// -----
func.func @f(%a: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{expected the shape MxNxK}}
  %d = amdgpu.mfma 16x16 %a * %a + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
// -----
func.func @f(%a: vector<4xf16>, %c: vector<4xf32>) -> vector<4xf32> {
  // expected-error@+1 {{expected blgp to be one of: none, bcast_first_32, bcast_second_32, rotate_16_right, bcast_first_16, bcast_second_16, bcast_third_16, bcast_fourth_16}}
  %d = amdgpu.mfma 16x16x16 %a * %a + %c blgp = sideways : vector<4xf16>, vector<4xf16>, vector<4xf32>
  return %d : vector<4xf32>
}
