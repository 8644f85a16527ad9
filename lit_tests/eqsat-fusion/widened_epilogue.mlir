// A widened product (e4m3 x e4m3 -> f32, i8 x i8 -> i32) takes its
// dequantising epilogue (row and column scales, the cast to f16): the cost
// model prices the product with its own result type, which does not follow
// from its operands (it once priced it as writing nothing, and the epilogue
// stayed a kernel apart, reading and writing the f32 result again).
// RUN: aic-opt %s --split-input-file --eqsat-fusion | FileCheck %s

// CHECK-LABEL: func.func @fp8
// CHECK: fusion.group vertical
// CHECK: graph.matmul
// CHECK: graph.cast {{.*}} -> tensor<4096x4096xf16>
// CHECK-NEXT: fusion.yield
// CHECK-NOT: fusion.group
// CHECK: return
func.func @fp8(%q: tensor<4096x4096xf8E4M3FN>, %wq: tensor<4096x4096xf8E4M3FN>, %s: tensor<4096xf32>, %ws: tensor<4096xf32>) -> tensor<4096x4096xf16> {
  %acc = graph.matmul %q, %wq transpose_b : (tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf32>
  %br = graph.broadcast %s, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %bc = graph.broadcast %ws, dims = [1] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %m1 = graph.mul %acc, %br : tensor<4096x4096xf32>
  %m2 = graph.mul %m1, %bc : tensor<4096x4096xf32>
  %y = graph.cast %m2 : (tensor<4096x4096xf32>) -> tensor<4096x4096xf16>
  return %y : tensor<4096x4096xf16>
}

// -----

// CHECK-LABEL: func.func @int8
// CHECK: fusion.group vertical
// CHECK: graph.matmul
// CHECK: graph.cast {{.*}} -> tensor<2048x2048xf16>
// CHECK-NEXT: fusion.yield
// CHECK-NOT: fusion.group
// CHECK: return
func.func @int8(%q: tensor<2048x2048xi8>, %wq: tensor<2048x2048xi8>, %s: tensor<2048xf32>) -> tensor<2048x2048xf16> {
  %acc = graph.matmul %q, %wq : (tensor<2048x2048xi8>, tensor<2048x2048xi8>) -> tensor<2048x2048xi32>
  %f = graph.cast %acc : (tensor<2048x2048xi32>) -> tensor<2048x2048xf32>
  %br = graph.broadcast %s, dims = [0] : (tensor<2048xf32>) -> tensor<2048x2048xf32>
  %m1 = graph.mul %f, %br : tensor<2048x2048xf32>
  %y = graph.cast %m1 : (tensor<2048x2048xf32>) -> tensor<2048x2048xf16>
  return %y : tensor<2048x2048xf16>
}

// -----

// Dynamic int8 (quantize{mode=int8-dynamic}'s program at 4096^3): the
// per-row quantization of A is a kernel of its own, not the GEMM's
// prologue, since every block column would recompute its six ops an
// element on the vector lanes (priced at their rate, not the tensor cores':
// 0.5 ms more on the H100); the scaling joins the GEMM's epilogue.
// CHECK-LABEL: func.func @main
// CHECK: fusion.group reduction
// CHECK: graph.reduce max
// CHECK: fusion.group elementwise
// CHECK: graph.round_even
// CHECK: fusion.group vertical
// CHECK-NOT: graph.round_even
// CHECK: graph.matmul
// CHECK: fusion.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @main(%x: tensor<4096x4096xf16>, %wq: tensor<4096x4096xi8>, %ws: tensor<4096xf32>) -> tensor<4096x4096xf16> {
  %w_x = graph.cast %x : (tensor<4096x4096xf16>) -> tensor<4096x4096xf32>
  %w_abs = graph.abs %w_x : tensor<4096x4096xf32>
  %w_amax = graph.reduce max %w_abs, axes = [1] : (tensor<4096x4096xf32>) -> tensor<4096xf32>
  %w_eps = graph.constant dense<1.0e-05> : tensor<4096xf32>
  %w_am = graph.max %w_amax, %w_eps : tensor<4096xf32>
  %w_levels = graph.constant dense<127.0> : tensor<4096xf32>
  %w_s = graph.div %w_am, %w_levels : tensor<4096xf32>
  %w_sb = graph.broadcast %w_s, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %w_d = graph.div %w_x, %w_sb : tensor<4096x4096xf32>
  %w_r = graph.round_even %w_d : tensor<4096x4096xf32>
  %w_lo = graph.constant dense<-127.0> : tensor<4096x4096xf32>
  %w_hi = graph.constant dense<127.0> : tensor<4096x4096xf32>
  %w_c1 = graph.max %w_r, %w_lo : tensor<4096x4096xf32>
  %w_c2 = graph.min %w_c1, %w_hi : tensor<4096x4096xf32>
  %w_q = graph.cast %w_c2 : (tensor<4096x4096xf32>) -> tensor<4096x4096xi8>
  %w_acc = graph.matmul %w_q, %wq : (tensor<4096x4096xi8>, tensor<4096x4096xi8>) -> tensor<4096x4096xi32>
  %w_f = graph.cast %w_acc : (tensor<4096x4096xi32>) -> tensor<4096x4096xf32>
  %w_br = graph.broadcast %w_s, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %w_bc = graph.broadcast %ws, dims = [1] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %w_m1 = graph.mul %w_f, %w_br : tensor<4096x4096xf32>
  %w_m2 = graph.mul %w_m1, %w_bc : tensor<4096x4096xf32>
  %w_y = graph.cast %w_m2 : (tensor<4096x4096xf32>) -> tensor<4096x4096xf16>
  return %w_y : tensor<4096x4096xf16>
}
