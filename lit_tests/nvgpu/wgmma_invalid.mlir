// The verifiers of Hopper's warpgroup MMA ops: descriptors of f16, bf16 or
// fp8 matrices in shared memory with 128-byte swizzling and 16-byte-aligned strides,
// wgmma accumulators of N/2 f32 for N a multiple of 8 up to 256, and the
// nvvm synchronisation ops inside kernels with the kinds aic translates.
// The 8-bit forms (fp8 abType, k32) read B K-major only (no transposeB),
// take no register A, and bType names an fp8 B beside an fp8 A only.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'nvgpu.warpgroup.generate.descriptor' op the matrix must be a memref in #gpu.address_space<workgroup>}}
  %d = nvgpu.warpgroup.generate.descriptor %g[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<256xf16> -> i64
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 1024 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf32, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.warpgroup.generate.descriptor' op describes f16, bf16 or fp8 (f8E4M3FN, f8E5M2) matrices, not f32}}
  %d = nvgpu.warpgroup.generate.descriptor %s[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<256xf32, #gpu.address_space<workgroup>> -> i64
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.warpgroup.generate.descriptor' op swizzle 64 is not supported: only 128}}
  %d = nvgpu.warpgroup.generate.descriptor %s[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 64 : i64} : memref<256xf16, #gpu.address_space<workgroup>> -> i64
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<256xf16, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.warpgroup.generate.descriptor' op strideByteOffset must be a multiple of 16 below 2^18, not 1000}}
  %d = nvgpu.warpgroup.generate.descriptor %s[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1000 : i64, swizzle = 128 : i64} : memref<256xf16, #gpu.address_space<workgroup>> -> i64
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %c = vector.from_elements %f, %f, %f, %f, %f, %f : vector<6xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma' op expects an accumulator vector<Kxf32> of K = N/2 for N a multiple of 8 from 8 to 256, and a result of its type, not vector<6xf32> -> vector<6xf32>}}
  %d = nvgpu.warpgroup.mma %z, %z, %c : vector<6xf32> -> vector<6xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %c = vector.from_elements %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f : vector<256xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma' op expects an accumulator vector<Kxf32> of K = N/2 for N a multiple of 8 from 8 to 256, and a result of its type, not vector<256xf32> -> vector<256xf32>}}
  %d = nvgpu.warpgroup.mma %z, %z, %c : vector<256xf32> -> vector<256xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %c = vector.from_elements %f, %f, %f, %f, %f, %f, %f, %f : vector<8xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma' op attribute 'abType' failed to satisfy constraint: type attribute of f16, bf16, f8E4M3FN or f8E5M2}}
  %d = nvgpu.warpgroup.mma %z, %z, %c {abType = f32} : vector<8xf32> -> vector<8xf32>
  gpu.return
}
// -----
func.func @f() {
  // expected-error@+1 {{'nvvm.wgmma.fence.aligned' op must be inside a gpu.kernel}}
  nvvm.wgmma.fence.aligned
  return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  // expected-error@+1 {{'nvvm.wgmma.wait.group.sync.aligned' op group must not be negative}}
  nvvm.wgmma.wait.group.sync.aligned -1
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  // expected-error@+1 {{'nvvm.fence.proxy' op only kind #nvvm.proxy_kind<async.shared> with space #nvvm.shared_space<cta> is supported}}
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%h: memref<8xf16>, %g: memref<32xf32>):
  %c0 = arith.constant 0 : index
  %x = memref.load %h[%c0] : memref<8xf16>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<4x2xf16>
  %db = arith.constant 0 : i64
  %z = memref.load %g[%c0] : memref<32xf32>
  %c = vector.from_elements %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z : vector<32xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma.register_a' op expects A as vector<4x2xbf16> (abType), not vector<4x2xf16>}}
  %d = nvgpu.warpgroup.mma.register_a %a, %db, %c {abType = bf16} : vector<4x2xf16>, vector<32xf32> -> vector<32xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%h: memref<8xf16>, %g: memref<32xf32>):
  %c0 = arith.constant 0 : index
  %x = memref.load %h[%c0] : memref<8xf16>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<8xf16>
  %db = arith.constant 0 : i64
  %z = memref.load %g[%c0] : memref<32xf32>
  %c = vector.from_elements %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z, %z : vector<32xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma.register_a' op expects A as vector<4x2xf16> (abType), not vector<8xf16>}}
  %d = nvgpu.warpgroup.mma.register_a %a, %db, %c : vector<8xf16>, vector<32xf32> -> vector<32xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %c = vector.from_elements %f, %f, %f, %f, %f, %f, %f, %f : vector<8xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma' op reads 8-bit B K-major only: transposeB is for 16-bit types}}
  %d = nvgpu.warpgroup.mma %z, %z, %c {abType = f8E4M3FN, transposeB} : vector<8xf32> -> vector<8xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %c = vector.from_elements %f, %f, %f, %f, %f, %f, %f, %f : vector<8xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma' op bType needs an fp8 abType}}
  %d = nvgpu.warpgroup.mma %z, %z, %c {bType = f8E5M2} : vector<8xf32> -> vector<8xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>):
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %c = vector.from_elements %f, %f, %f, %f, %f, %f, %f, %f : vector<8xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma' op attribute 'bType' failed to satisfy constraint: type attribute of f8E4M3FN or f8E5M2}}
  %d = nvgpu.warpgroup.mma %z, %z, %c {abType = f8E4M3FN, bType = f16} : vector<8xf32> -> vector<8xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 0 {
^bb0(%g: memref<256xf16>, %h: memref<8xf8E4M3FN>):
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %f = arith.constant 0.0 : f32
  %x = memref.load %h[%c0] : memref<8xf8E4M3FN>
  %a = vector.from_elements %x, %x, %x, %x, %x, %x, %x, %x : vector<4x2xf8E4M3FN>
  %c = vector.from_elements %f, %f, %f, %f, %f, %f, %f, %f : vector<8xf32>
  // expected-error@+1 {{'nvgpu.warpgroup.mma.register_a' op takes A from registers in 16-bit types only}}
  %d = nvgpu.warpgroup.mma.register_a %a, %z, %c {abType = f8E4M3FN} : vector<4x2xf8E4M3FN>, vector<8xf32> -> vector<8xf32>
  gpu.return
}
// -----
gpu.kernel @k grid = [1, 1, 1] block = [128, 1, 1] shared = 512 {
^bb0(%g: memref<256xf16>):
  %c0 = arith.constant 0 : index
  %s = gpu.shared offset = 0 : memref<512xi8, #gpu.address_space<workgroup>>
  // expected-error@+1 {{'nvgpu.warpgroup.generate.descriptor' op describes f16, bf16 or fp8 (f8E4M3FN, f8E5M2) matrices, not i8}}
  %d = nvgpu.warpgroup.generate.descriptor %s[%c0] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64} : memref<512xi8, #gpu.address_space<workgroup>> -> i64
  gpu.return
}
