// tile-to-gpu: a tensor-core accumulator stored to memory that takes
// 16-byte runs along its columns goes through shared memory: after a
// barrier (every thread past its last read of the K loop's rings) the
// lanes write their neighbouring column pairs into a row-major staging
// tile at offset 0, the rings' region, its rows padded by one run; after
// a second barrier each thread copies runs of 8 halves (4 floats) from it
// to memory as one aligned vector, consecutive threads consecutive runs.
// Through a view that splits the columns into heads the runs stay inside
// a head. Where the rings are still in use (a shared tile read again
// after the store), where the runs straddle aligned ones (an odd origin), or
// where a transposing view scatters the columns, the lanes store their
// elements themselves. The PTX has the staging and the 16-byte stores.
// RUN: aic-opt %s --tile-to-gpu=mma=true | FileCheck %s
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %s -o - | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.kernel @rows
// CHECK: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK: %[[STAGE:.*]] = gpu.shared offset = 0 : memref<1280xf16, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.*}}, %[[STAGE]][%{{.*}}] {alignment = 4 : i64} : memref<1280xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK: gpu.barrier
// CHECK: vector.load %[[STAGE]][%{{.*}}] {alignment = 16 : i64} : memref<1280xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>
// CHECK: gpu.barrier
// CHECK: gpu.return

// CHECK-LABEL: gpu.kernel @heads
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1280xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1024xf16>, vector<8xf16>

// CHECK-LABEL: gpu.kernel @floats
// CHECK: gpu.shared offset = 0 : memref<1152xf32, #gpu.address_space<workgroup>>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1152xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>

// CHECK-LABEL: gpu.kernel @reread
// CHECK: nvgpu.mma.sync
// CHECK-NOT: vector.load
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<1024xf16>
// CHECK: gpu.return

// CHECK-LABEL: gpu.kernel @odd_origin
// CHECK: nvgpu.mma.sync
// CHECK-NOT: vector.load
// CHECK: gpu.return

// PTX-LABEL: .entry rows
// PTX: st.shared.b32
// PTX: bar.sync
// PTX: ld.shared.v4.b32
// PTX: st.global.v4.b32

// A 32x32 product stored row-major.
tile.kernel @rows grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<32x32xf16>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c32 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  %h = tile.map %acc : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] : !tile.tile<32x32xf16>, memref<32x32xf16>
  tile.return
}

// The same product stored as [2 heads, 32 rows, 16] (BERT's Q).
tile.kernel @heads grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<2x32x16xf16>):
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c32 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  %h = tile.map %acc : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] through #coord.desc<[32, 32] | pass [0] -> [0], merge<2, 16> [1] -> [1, 2] | embed<1024: 16, 512, 1> [0, 1, 2] -> [0]> : !tile.tile<32x32xf16>, memref<2x32x16xf16>
  tile.return
}

// The f32 accumulator itself, runs of 4 floats (K steps of 64: the rings
// hold its staging tile).
tile.kernel @floats grid = [1] {
^bb0(%a: memref<32x64xf16>, %b: memref<64x32xf16>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c64 step %c64 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x64xf16> -> !tile.tile<32x64xf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x64xf16> -> !tile.tile<32x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<64x32xf16> -> !tile.tile<64x32xf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<64x32xf16> -> !tile.tile<64x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x64xf16, shared>, !tile.tile<64x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// A and B read again after the first store: their regions are in use.
tile.kernel @reread grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<32x32xf16>, %out2: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tb = tile.load %b[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %d = tile.gemm %sa, %sb, %init level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %h = tile.map %d : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c0] : !tile.tile<32x32xf16>, memref<32x32xf16>
  %e = tile.gemm %sa, %sb, %d level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %e, %out2[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}

// The product stored from column 2 of a wider buffer: its runs of 8
// straddle the aligned ones.
tile.kernel @odd_origin grid = [1] {
^bb0(%a: memref<32x32xf16>, %b: memref<32x32xf16>, %out: memref<32x40xf16>):
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<32x32xf32>
  %acc = tile.for %c0 to %c32 step %c32 iter_args(%init : !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
  ^bb0(%kk: index, %c: !tile.tile<32x32xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %tb = tile.load %b[%kk, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
    %sb = tile.transfer %tb to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    tile.yield %d : !tile.tile<32x32xf32>
  }
  %h = tile.map %acc : (!tile.tile<32x32xf32>) -> !tile.tile<32x32xf16> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to f16
    tile.yield %t : f16
  }
  tile.store %h, %out[%c0, %c2] : !tile.tile<32x32xf16>, memref<32x40xf16>
  tile.return
}
