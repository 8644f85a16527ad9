// The verifiers of the TMA and mbarrier ops: tensor maps over a kernel's
// global buffer arguments with boxes of at most 256 a side whose rows fit
// the swizzle, tensors inside their buffers with contiguous columns and
// rows 16-byte aligned; loads of two coordinates into shared memory of the
// box's elements; mbarriers as shared memref<Nxi64>.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<32768xf16>):
  // expected-error @+1 {{a box row of 256 bytes is longer than its swizzle (128 bytes)}}
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 256, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  gpu.return
}

// -----

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<32768xf16>):
  // expected-error @+1 {{globalShape [512, 128] does not fit the buffer of 32768 elements}}
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 512, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  gpu.return
}

// -----

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<32768xf16>):
  // expected-error @+1 {{globalStrides [100, 1]: columns contiguous, rows at least a row apart and a multiple of 16 bytes}}
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 256, 100>, globalStrides = array<i64: 100, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  gpu.return
}

// -----

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<32768xf16>):
  // expected-error @+1 {{box [512, 64]: each side from 1 to 256}}
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 256, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<512x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  gpu.return
}

// -----

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<32768xf16>):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bar = gpu.shared offset = 0 : memref<2xi32, #gpu.address_space<workgroup>>
  // expected-error @+1 {{mbarriers must be a memref<Nxi64> in #gpu.address_space<workgroup>}}
  nvgpu.mbarrier.init %bar[%c0], %c1 : memref<2xi32, #gpu.address_space<workgroup>>
  gpu.return
}

// -----

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 32768 {
^bb0(%g: memref<32768xf16>):
  %c0 = arith.constant 0 : index
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 256, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  %s = gpu.shared offset = 0 : memref<4096xf32, #gpu.address_space<workgroup>>
  %bar = gpu.shared offset = 16384 : memref<1xi64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{the destination's elements are not the box's}}
  nvgpu.tma.async.load %map[%c0, %c0], %bar[%c0] to %s[%c0] : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, memref<1xi64, #gpu.address_space<workgroup>> -> memref<4096xf32, #gpu.address_space<workgroup>>
  gpu.return
}

// -----

func.func @f(%g: memref<32768xf16>) {
  // expected-error @+1 {{must be inside a gpu.kernel}}
  %map = nvgpu.tma.create.descriptor %g {globalShape = array<i64: 256, 128>, globalStrides = array<i64: 128, 1>} : memref<32768xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
  return
}
