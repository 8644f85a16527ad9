// tile-to-gpu: loads and stores move a thread's runs of neighbouring
// elements as one aligned vector where memory is contiguous along the
// tile's last dim in aligned runs of 8 (a view of the buffer's rows, or
// attention's heads split off the columns) and the origin there is a
// multiple of the run: here runs of 8 halves (16 bytes) in the blocked
// layout of 64 threads, and a tensor-core accumulator's neighbouring
// column pair (4 bytes) through a head-splitting view. A transposing view
// (columns 64 elements apart), or an origin that is not a multiple of the
// run, keeps element accesses; so does a fragment stored through a plain
// row-major view, whose neighbouring stores LLVM merges itself (keeping
// each by the arithmetic that computes it). A loaded run goes masked and
// whole into the thread's array (a vector load LLVM saw read only by
// element extracts, it split into 2-byte loads). The PTX has the 16-byte
// accesses.
// RUN: aic-opt %s --tile-to-gpu=threads=64 | FileCheck %s
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s --check-prefix=MMA
// RUN: aic-translate --target=nvptx --arch=sm_90 --threads=64 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.kernel @rows_copy
// CHECK: %[[LD:.*]] = vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<2048xf16>, vector<8xf16>
// CHECK: %[[KEPT:.*]] = arith.select %{{.*}}, %[[LD]], %{{.*}} : vector<8xf16>
// CHECK: vector.store %[[KEPT]], %alloca[%{{.*}}] {alignment = 2 : i64} : memref<8xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<2048xf16>, vector<8xf16>
// CHECK-LABEL: gpu.kernel @transposed
// CHECK: vector.load %{{.*}} : memref<4096xf16>, vector<8xf16>
// CHECK-NOT: vector.store %{{.*}} : memref<4096xf16>
// CHECK: memref.store %{{.*}} : memref<4096xf16>
// CHECK-NOT: vector.store %{{.*}} : memref<4096xf16>
// CHECK-LABEL: gpu.kernel @odd_origin
// CHECK-NOT: vector.load
// CHECK: gpu.return

// MMA-LABEL: gpu.kernel @gemm_heads
// MMA: nvgpu.mma.sync
// MMA: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 4 : i64} : memref<1024xf16>, vector<2xf16>
// MMA-LABEL: gpu.kernel @gemm_rows
// MMA: nvgpu.mma.sync
// MMA-NOT: vector.store
// MMA: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1024xf16>
// MMA: gpu.return

// PTX-LABEL: .entry rows_copy
// PTX: ld.global.nc.v4.b32
// PTX: st.global.v4.b32

// y = 2x over an 8x64 tile of a 32x64 buffer.
tile.kernel @rows_copy grid = [4] {
^bb0(%x: memref<32x64xf16>, %y: memref<32x64xf16>):
  %p = tile.program_id 0 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %r = arith.muli %p, %c8 : index
  %t = tile.load %x[%r, %c0] : memref<32x64xf16> -> !tile.tile<8x64xf16>
  %d = tile.map %t : (!tile.tile<8x64xf16>) -> !tile.tile<8x64xf16> {
  ^bb0(%a: f16):
    %s = arith.addf %a, %a : f16
    tile.yield %s : f16
  }
  tile.store %d, %y[%r, %c0] : !tile.tile<8x64xf16>, memref<32x64xf16>
  tile.return
}

// The tile stored transposed: its columns 64 elements apart in memory.
tile.kernel @transposed grid = [1] {
^bb0(%x: memref<64x64xf16>, %y: memref<64x64xf16>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<64x64xf16> -> !tile.tile<8x64xf16>
  tile.store %t, %y[%c0, %c0] through #coord.desc<[8, 64] | embed<4096: 1, 64> [0, 1] -> [0]> : !tile.tile<8x64xf16>, memref<64x64xf16>
  tile.return
}

// A tile at column 3: its runs straddle the aligned ones.
tile.kernel @odd_origin grid = [1] {
^bb0(%x: memref<8x72xf16>, %y: memref<8x64xf16>):
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %t = tile.load %x[%c0, %c3] : memref<8x72xf16> -> !tile.tile<8x64xf16>
  tile.store %t, %y[%c0, %c0] : !tile.tile<8x64xf16>, memref<8x64xf16>
  tile.return
}

// A 32x32 product stored as [2 heads, 32 rows, 16] (BERT's Q): columns
// split into heads of 16, each head's rows contiguous; from column 2
// (masked past the last).
tile.kernel @gemm_heads grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<2x32x16xf16>):
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %acc = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %h = tile.map %acc : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c2] through #coord.desc<[32, 32] | pass [0] -> [0], merge<2, 16> [1] -> [1, 2] | embed<1024: 16, 512, 1> [0, 1, 2] -> [0]> : !tile.tile<32x32xf16>, memref<2x32x16xf16>
  tile.return
}

// The same product stored row-major.
tile.kernel @gemm_rows grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<32x32xf16>):
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %acc = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %h = tile.map %acc : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c2] : !tile.tile<32x32xf16>, memref<32x32xf16>
  tile.return
}
