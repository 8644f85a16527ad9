// Fusion never computes a GEMM twice: a fused QKV projection split three
// ways stays one GEMM (with its bias) whose three readers take their slices
// as views, never three copies of the whole GEMM, each sliced (nor three
// GEMMs of the weight's columns, which run slower). A GEMM + GeLU whose
// epilogue reads x several times is still one kernel computing the GEMM once.
// RUN: aic-opt %s --eqsat-fusion | FileCheck %s

// CHECK-LABEL: func.func @split_qkv
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK-NEXT: graph.matmul {{.*}} -> tensor<256x192xf16>
// CHECK-NOT: graph.matmul
// CHECK-COUNT-3: graph.slice %{{.*}} : (tensor<256x192xf16>) -> tensor<256x64xf16>
// CHECK: return
func.func @split_qkv(%x: tensor<256x64xf16>, %w: tensor<64x192xf16>, %b: tensor<192xf16>) -> (tensor<256x64xf16>, tensor<256x64xf16>, tensor<256x64xf16>) {
  %m = graph.matmul %x, %w : (tensor<256x64xf16>, tensor<64x192xf16>) -> tensor<256x192xf16>
  %a = graph.bias_add %m, %b : (tensor<256x192xf16>, tensor<192xf16>) -> tensor<256x192xf16>
  %q = graph.slice %a [0:256, 0:64] : (tensor<256x192xf16>) -> tensor<256x64xf16>
  %k = graph.slice %a [0:256, 64:128] : (tensor<256x192xf16>) -> tensor<256x64xf16>
  %v = graph.slice %a [0:256, 128:192] : (tensor<256x192xf16>) -> tensor<256x64xf16>
  %q2 = graph.tanh %q : tensor<256x64xf16>
  %k2 = graph.exp %k : tensor<256x64xf16>
  %v2 = graph.neg %v : tensor<256x64xf16>
  return %q2, %k2, %v2 : tensor<256x64xf16>, tensor<256x64xf16>, tensor<256x64xf16>
}

// CHECK-LABEL: func.func @gemm_gelu
// CHECK: %[[G:.*]] = fusion.group vertical
// CHECK: graph.matmul
// CHECK-NOT: graph.matmul
// CHECK: graph.tanh
// CHECK: fusion.yield
// CHECK-NOT: fusion.group
// CHECK: return %[[G]]
func.func @gemm_gelu(%x: tensor<256x64xf16>, %w: tensor<64x128xf16>) -> tensor<256x128xf16> {
  %c = graph.constant dense<0.0447> : tensor<256x128xf16>
  %h = graph.constant dense<0.5> : tensor<256x128xf16>
  %one = graph.constant dense<1.0> : tensor<256x128xf16>
  %m = graph.matmul %x, %w : (tensor<256x64xf16>, tensor<64x128xf16>) -> tensor<256x128xf16>
  %x2 = graph.mul %m, %m : tensor<256x128xf16>
  %x3 = graph.mul %m, %x2 : tensor<256x128xf16>
  %cx3 = graph.mul %c, %x3 : tensor<256x128xf16>
  %in = graph.add %m, %cx3 : tensor<256x128xf16>
  %t = graph.tanh %in : tensor<256x128xf16>
  %t1 = graph.add %one, %t : tensor<256x128xf16>
  %hx = graph.mul %h, %m : tensor<256x128xf16>
  %y = graph.mul %hx, %t1 : tensor<256x128xf16>
  return %y : tensor<256x128xf16>
}
