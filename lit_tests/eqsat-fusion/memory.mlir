// Memory fusion: data movement between kernels becomes addressing. A
// concatenation feeding a GEMM is absorbed into the GEMM's kernel (it reads
// through the view), a transpose of its operand becomes its flag, a split
// becomes slices that their readers absorb, and no copy kernel is left.
// RUN: aic-opt %s --split-input-file --eqsat-fusion | FileCheck %s
// RUN: aic-opt %s --split-input-file --eqsat-fusion --eqsat-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @views_into_gemm
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK: graph.concat
// CHECK: graph.matmul {{.*}} transpose_b
// CHECK: graph.relu
// CHECK: fusion.yield
// CHECK-NOT: fusion.group
// CHECK: return %[[G]]
// REPORT: kernels: 4 before, 1 after
func.func @views_into_gemm(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>, %w: tensor<64x32xf32>) -> tensor<32x64xf32> {
  %c = graph.concat %a, %b, axis = 0 : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
  %t = graph.transpose %w, perm = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
  %m = graph.matmul %c, %t : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = graph.relu %m : tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// CHECK-LABEL: func.func @split
// CHECK-NOT: graph.split
// CHECK: %[[G:.*]] = fusion.group elementwise
// CHECK: graph.slice
// CHECK: graph.slice
// CHECK: graph.add
// CHECK: return %[[G]]
// REPORT: kernels: 3 before, 1 after
func.func @split(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  %a, %b = graph.split %x, axis = 1 : (tensor<8x16xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %s = graph.add %a, %b : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
