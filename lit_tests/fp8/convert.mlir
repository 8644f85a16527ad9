// fp8 in kernels: f8E4M3FN / f8E5M2 buffers are bytes; arith.extf from fp8
// decodes the byte into f32 and arith.truncf to fp8 rounds an f32 to the
// nearest byte (ties to even) in integer code, the same on the host and on
// NVPTX (no fp8 cvt instruction, no library call). The host JIT runs of
// every byte are in backends/llvm/tests/llvm.rs (bit-exact against
// aic::float and the interpreter).
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=llvm-ir %s -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// RUN: llc -march=nvptx64 -mcpu=sm_90 %t.ll -o - | FileCheck %s --check-prefix=PTX
// RUN: aic-translate --target=host --emit=llvm-ir %s -o - | FileCheck %s --check-prefix=HOST

// LLVM-LABEL: define ptx_kernel void @fp8_cast(
// LLVM: load float
// LLVM: store i8
// LLVM: store float
// PTX: .entry fp8_cast
// PTX-NOT: cvt.rn.satfinite
// PTX-NOT: call
// HOST-NOT: call {{.*}}@__
gpu.kernel @fp8_cast grid = [1, 1, 1] block = [8, 1, 1] shared = 0 {
^bb0(%x: memref<8xf32>, %q: memref<8xf8E4M3FN>, %w: memref<8xf32>):
  %t = gpu.thread_id x
  %v = memref.load %x[%t] : memref<8xf32>
  %h = arith.truncf %v : f32 to f16
  %e = arith.truncf %h : f16 to f8E5M2
  %b = arith.truncf %v : f32 to f8E4M3FN
  memref.store %b, %q[%t] : memref<8xf8E4M3FN>
  %back = arith.extf %b : f8E4M3FN to f32
  %e32 = arith.extf %e : f8E5M2 to f32
  %s = arith.addf %back, %e32 : f32
  memref.store %s, %w[%t] : memref<8xf32>
  gpu.return
}
