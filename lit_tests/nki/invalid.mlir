// The nki verifier: partition and matmul free-size limits, PSUM banks,
// SBUF and PSUM capacity per arch, dtype rules, engines and DMA rules.
// RUN: aic-opt %s --split-input-file --verify-diagnostics

nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<256x8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'nki.load' op a tile of 256 partitions: the partition dimension is at most 128}}
  %t = nki.load %a[%c0, %c0] : memref<256x8xf32> -> !nki.tile<256x8xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %s = nki.memset 0.0 : f32 : !nki.tile<64x256xbf16, sbuf>
  %m = nki.memset 0.0 : f32 : !nki.tile<64x8xbf16, sbuf>
  %z = nki.memset 0.0 : f32 : !nki.tile<128x8xf32, psum>
  // expected-error@+1 {{'nki.matmul' op the stationary free size 256 is over 128}}
  %r = nki.matmul %s, %m, %z : !nki.tile<64x256xbf16, sbuf>, !nki.tile<64x8xbf16, sbuf>, !nki.tile<128x8xf32, psum> -> !nki.tile<128x8xf32, psum>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %s = nki.memset 0.0 : f32 : !nki.tile<64x128xbf16, sbuf>
  %m = nki.memset 0.0 : f32 : !nki.tile<64x1024xbf16, sbuf>
  %z = nki.memset 0.0 : f32 : !nki.tile<128x1024xf32, sbuf>
  // expected-error@+1 {{'nki.matmul' op the moving free size 1024 is over 512}}
  %r = nki.matmul %s, %m, %z : !nki.tile<64x128xbf16, sbuf>, !nki.tile<64x1024xbf16, sbuf>, !nki.tile<128x1024xf32, sbuf> -> !nki.tile<128x1024xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  // expected-error@+1 {{'nki.memset' op a tile of 4096 bytes per partition does not fit a PSUM bank of trn1 (2048 bytes)}}
  %z = nki.memset 0.0 : f32 : !nki.tile<128x1024xf32, psum>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %s = nki.memset 0.0 : f32 : !nki.tile<64x128xbf16, sbuf>
  %m = nki.memset 0.0 : f32 : !nki.tile<64x8xf32, sbuf>
  %z = nki.memset 0.0 : f32 : !nki.tile<128x8xf32, psum>
  // expected-error@+1 {{'nki.matmul' op stationary and moving are both bf16, fp16 or fp32}}
  %r = nki.matmul %s, %m, %z : !nki.tile<64x128xbf16, sbuf>, !nki.tile<64x8xf32, sbuf>, !nki.tile<128x8xf32, psum> -> !nki.tile<128x8xf32, psum>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %s = nki.memset 0.0 : f32 : !nki.tile<64x128xbf16, sbuf>
  %m = nki.memset 0.0 : f32 : !nki.tile<32x8xbf16, sbuf>
  %z = nki.memset 0.0 : f32 : !nki.tile<128x8xf32, psum>
  // expected-error@+1 {{'nki.matmul' op stationary and moving contract over their partitions: 64 and 32}}
  %r = nki.matmul %s, %m, %z : !nki.tile<64x128xbf16, sbuf>, !nki.tile<32x8xbf16, sbuf>, !nki.tile<128x8xf32, psum> -> !nki.tile<128x8xf32, psum>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %s = nki.memset 0.0 : f32 : !nki.tile<64x128xbf16, sbuf>
  %m = nki.memset 0.0 : f32 : !nki.tile<64x8xbf16, sbuf>
  %z = nki.memset 0.0 : f32 : !nki.tile<128x8xbf16, psum>
  // expected-error@+1 {{'nki.matmul' op the accumulator and result are the same fp32 PSUM tile of [128, 8]}}
  %r = nki.matmul %s, %m, %z : !nki.tile<64x128xbf16, sbuf>, !nki.tile<64x8xbf16, sbuf>, !nki.tile<128x8xbf16, psum> -> !nki.tile<128x8xbf16, psum>
  nki.return
}
// -----
// Two tiles of 160000 bytes a partition fit SBUF alone but not together.
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 1.0 : f32 : !nki.tile<128x40000xf32, sbuf>
  // expected-error@+1 {{'nki.memset' op the tiles live here need 320000 bytes per partition of SBUF, more than trn1's 196608}}
  %y = nki.memset 2.0 : f32 : !nki.tile<128x40000xf32, sbuf>
  %z = nki.tensor_tensor add %x, %y : !nki.tile<128x40000xf32, sbuf>, !nki.tile<128x40000xf32, sbuf> -> !nki.tile<128x40000xf32, sbuf>
  nki.return
}
// -----
// 200000 bytes a partition fit trn2's SBUF (224 KiB) but not trn1's (192 KiB).
nki.kernel @k2 grid = [1] arch = trn2 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 1.0 : f32 : !nki.tile<128x25000xf32, sbuf>
  %y = nki.memset 2.0 : f32 : !nki.tile<128x25000xf32, sbuf>
  %z = nki.tensor_reduce add %x : !nki.tile<128x25000xf32, sbuf> -> !nki.tile<128x1xf32, sbuf>
  %w = nki.tensor_reduce add %y : !nki.tile<128x25000xf32, sbuf> -> !nki.tile<128x1xf32, sbuf>
  nki.return
}
nki.kernel @k1 grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 1.0 : f32 : !nki.tile<128x25000xf32, sbuf>
  // expected-error@+1 {{'nki.memset' op the tiles live here need 200000 bytes per partition of SBUF, more than trn1's 196608}}
  %y = nki.memset 2.0 : f32 : !nki.tile<128x25000xf32, sbuf>
  %z = nki.tensor_reduce add %x : !nki.tile<128x25000xf32, sbuf> -> !nki.tile<128x1xf32, sbuf>
  %w = nki.tensor_reduce add %y : !nki.tile<128x25000xf32, sbuf> -> !nki.tile<128x1xf32, sbuf>
  nki.return
}
// -----
// Nine accumulators of one bank each live at once: PSUM has eight.
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %z0 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z1 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z2 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z3 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z4 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z5 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z6 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %z7 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  // expected-error@+1 {{'nki.memset' op the tiles live here need 18432 bytes per partition of PSUM, more than trn1's 16384}}
  %z8 = nki.memset 0.0 : f32 : !nki.tile<128x512xf32, psum>
  %r = nki.sequential_range 0 to 1 step 1 iter_args(%z0 : !nki.tile<128x512xf32, psum>) -> !nki.tile<128x512xf32, psum> {
  ^bb0(%i: index, %c: !nki.tile<128x512xf32, psum>):
    %s1 = nki.tensor_tensor add %z1, %z2 : !nki.tile<128x512xf32, psum>, !nki.tile<128x512xf32, psum> -> !nki.tile<128x512xf32, sbuf>
    %s2 = nki.tensor_tensor add %z3, %z4 : !nki.tile<128x512xf32, psum>, !nki.tile<128x512xf32, psum> -> !nki.tile<128x512xf32, sbuf>
    %s3 = nki.tensor_tensor add %z5, %z6 : !nki.tile<128x512xf32, psum>, !nki.tile<128x512xf32, psum> -> !nki.tile<128x512xf32, sbuf>
    %s4 = nki.tensor_tensor add %z7, %z8 : !nki.tile<128x512xf32, psum>, !nki.tile<128x512xf32, psum> -> !nki.tile<128x512xf32, sbuf>
    nki.yield %c : !nki.tile<128x512xf32, psum>
  }
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %z = nki.memset 0.0 : f32 : !nki.tile<8x8xf32, psum>
  // expected-error@+1 {{'nki.copy' op the GpSimd engine cannot access PSUM}}
  %s = nki.copy %z engine = gpsimd : !nki.tile<8x8xf32, psum> -> !nki.tile<8x8xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'nki.load' op DMA moves SBUF tiles}}
  %t = nki.load %a[%c0, %c0] : memref<8x8xf32> -> !nki.tile<8x8xf32, psum>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'nki.load' op a DMA does not convert: the tile and the tensor have different element types}}
  %t = nki.load %a[%c0, %c0] : memref<8x8xf32> -> !nki.tile<8x8xbf16, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 0.0 : f32 : !nki.tile<8x8xf32, sbuf>
  // expected-error@+1 {{'nki.activation' op an activation writes a float SBUF tile}}
  %y = nki.activation exp %x scale = 1.0 : f32 bias = 0.0 : f32 : !nki.tile<8x8xf32, sbuf> -> !nki.tile<8x8xi32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 0.0 : f32 : !nki.tile<8x8xf32, sbuf>
  %y = nki.memset 0.0 : f32 : !nki.tile<8x4xf32, sbuf>
  // expected-error@+1 {{'nki.tensor_tensor' op operand shape [8, 4] is not the result's [8, 8]}}
  %z = nki.tensor_tensor add %x, %y : !nki.tile<8x8xf32, sbuf>, !nki.tile<8x4xf32, sbuf> -> !nki.tile<8x8xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 0.0 : f32 : !nki.tile<8x8xf32, sbuf>
  // expected-error@+1 {{'nki.tensor_tensor' op runs on the vector or gpsimd engine, not tensor}}
  %z = nki.tensor_tensor add %x, %x engine = tensor : !nki.tile<8x8xf32, sbuf>, !nki.tile<8x8xf32, sbuf> -> !nki.tile<8x8xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 0.0 : f32 : !nki.tile<8x4xf32, sbuf>
  // expected-error@+1 {{'nki.transpose' op the result is the SBUF [P, F] tile as a PSUM [F, P] tile of its element type}}
  %z = nki.transpose %x : !nki.tile<8x4xf32, sbuf> -> !nki.tile<8x4xf32, psum>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  // expected-error@+1 {{'nki.affine_range' op bounds 0 to 4 step 0: the step must be positive and the range not reversed}}
  nki.affine_range 0 to 4 step 0 {
  ^bb0(%i: index):
    nki.yield
  }
  nki.return
}
// -----
func.func @f() -> index {
  // expected-error@+1 {{'nki.program_id' op must be inside an nki.kernel}}
  %p = nki.program_id 0 : index
  return %p : index
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 0.0 : f32 : !nki.tile<8x8xf32, sbuf>
  // expected-error@+1 {{'nki.tensor_reduce' op reducing [8, 8] gives an SBUF tile of [8, 1]}}
  %z = nki.tensor_reduce add %x : !nki.tile<8x8xf32, sbuf> -> !nki.tile<1x8xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 1.0 : f32 : !nki.tile<8x8xf32, sbuf>
  // expected-error@+1 {{'nki.tensor_scalar' op bitwise_and needs integer tiles, not f32}}
  %y = nki.tensor_scalar bitwise_and %x, 1.0 : f32 : !nki.tile<8x8xf32, sbuf> -> !nki.tile<8x8xf32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 1.0 : f32 : !nki.tile<8x8xi32, sbuf>
  // expected-error@+1 {{'nki.tensor_scalar' op an integer operator's immediate must be a whole number}}
  %y = nki.tensor_scalar left_shift %x, 1.5 : f32 : !nki.tile<8x8xi32, sbuf> -> !nki.tile<8x8xi32, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  %x = nki.memset 1.0 : f32 : !nki.tile<8x8xf32, sbuf>
  // expected-error@+1 {{'nki.bitcast' op a bitcast is between element types of one width}}
  %y = nki.bitcast %x : !nki.tile<8x8xf32, sbuf> -> !nki.tile<8x8xi16, sbuf>
  nki.return
}
// -----
nki.kernel @k grid = [1] arch = trn1 {
^bb0(%a: memref<8x8xf32>):
  // expected-error@+1 {{'nki.memset' op tile elements are NKI dtypes (f32, f16, bf16, fp8, integers of 8, 16 or 32 bits, i1), not i64}}
  %x = nki.memset 1.0 : f32 : !nki.tile<8x8xi64, sbuf>
  nki.return
}
