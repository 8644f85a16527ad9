// The vector dialect's loads and stores of consecutive elements: they
// round-trip in upstream syntax, the interpreter runs them (a kernel that
// swaps the halves of each row of four, two elements at a time), and they
// become one LLVM vector access each (16 bytes of f16 here). aic-translate
// compiles a module's kernels, not a function launching them, so the
// kernels are cut out for it.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s --entry @main --args "[dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>]" | FileCheck %s --check-prefix=VALUES
// RUN: sed -n '/^gpu.kernel/,/^}/p' %s > %t.mlir
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=llvm-ir %t.mlir -o - | FileCheck %s --check-prefix=LLVM
// RUN: aic-translate --target=nvptx --arch=sm_90 --emit=asm %t.mlir -o - | FileCheck %s --check-prefix=PTX

// CHECK: %{{.*}} = vector.load %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<8xf32>, vector<2xf32>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<8xf32>, vector<2xf32>
// CHECK: %{{.*}} = vector.load %{{.*}}[%{{.*}}] : memref<64xf16>, vector<8xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<64xf16>, vector<8xf16>
// VALUES: dense<{{\[\[}}3.000000e+00, 4.000000e+00, 1.000000e+00, 2.000000e+00], [7.000000e+00, 8.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x4xf32>
// LLVM-LABEL: define {{.*}} @swap
// LLVM: load <2 x float>, ptr addrspace(1)
// LLVM: store <2 x float> %{{.*}}, ptr addrspace(1)
// LLVM-LABEL: define {{.*}} @copy16
// LLVM: load <8 x half>, ptr addrspace(1)
// LLVM: store <8 x half> %{{.*}}, ptr addrspace(1) %{{.*}}, align 16
// PTX-LABEL: .entry copy16
// PTX: ld.global.nc.v4.b32
// PTX: st.global.v4.b32
gpu.kernel @swap grid = [2, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%x: memref<8xf32>, %y: memref<8xf32>):
  %b = gpu.block_id x
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %lo = arith.muli %b, %c4 : index
  %hi = arith.addi %lo, %c2 : index
  %u = vector.load %x[%lo] {alignment = 8 : i64} : memref<8xf32>, vector<2xf32>
  %v = vector.load %x[%hi] {alignment = 8 : i64} : memref<8xf32>, vector<2xf32>
  vector.store %v, %y[%lo] {alignment = 8 : i64} : memref<8xf32>, vector<2xf32>
  vector.store %u, %y[%hi] {alignment = 8 : i64} : memref<8xf32>, vector<2xf32>
  gpu.return
}

gpu.kernel @copy16 grid = [8, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%x: memref<64xf16>, %y: memref<64xf16>):
  %b = gpu.block_id x
  %c8 = arith.constant 8 : index
  %at = arith.muli %b, %c8 : index
  %v = vector.load %x[%at] : memref<64xf16>, vector<8xf16>
  vector.store %v, %y[%at] {alignment = 16 : i64} : memref<64xf16>, vector<8xf16>
  gpu.return
}

func.func @main(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = gpu.launch @swap(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
