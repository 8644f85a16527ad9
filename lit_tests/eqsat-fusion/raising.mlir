// The raising rules: JAX's decompositions become graph ops again. A double
// broadcast of a bias composes into one and adding it along the last
// dimension is graph.bias_add; softmax, means, layer and RMS normalisation,
// the GeLUs, relu and silu are recognised; near misses (another axis,
// another count, another constant) stay as they are.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(eqsat-fusion{rules=algebraic,raising},canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @dense
// CHECK-NEXT: %[[M:.*]] = graph.matmul %arg0, %arg1
// CHECK-NEXT: %[[B:.*]] = graph.bias_add %[[M]], %arg2 : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
// CHECK-NEXT: return %[[B]]
func.func @dense(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<2x8x32xf32> {
  %m = graph.matmul %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  %b1 = graph.broadcast %b, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
  %b2 = graph.broadcast %b1, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
  %r = graph.add %m, %b2 : tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// CHECK-LABEL: func.func @not_a_bias
// CHECK: graph.broadcast %arg1, dims = [0]
// CHECK-NOT: graph.bias_add
func.func @not_a_bias(%x: tensor<4x4xf32>, %v: tensor<4xf32>) -> tensor<4x4xf32> {
  %b = graph.broadcast %v, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
  %r = graph.add %x, %b : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// JAX's softmax: the maximum guarded by max(-inf, m), both reductions kept
// as a size-1 dimension and broadcast back.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[S:.*]] = graph.softmax %arg0, axis = 1 : tensor<4x10xf32>
// CHECK-NEXT: return %[[S]]
func.func @softmax(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %1 = graph.reduce max %arg0, axes = [1] : (tensor<4x10xf32>) -> tensor<4xf32>
  %2 = graph.constant dense<0xFF800000> : tensor<f32>
  %3 = graph.broadcast %2, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %4 = graph.max %3, %1 : tensor<4xf32>
  %5 = graph.broadcast %4, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %6 = graph.broadcast %5, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
  %7 = graph.sub %arg0, %6 : tensor<4x10xf32>
  %8 = graph.exp %7 : tensor<4x10xf32>
  %10 = graph.reduce sum %8, axes = [1] : (tensor<4x10xf32>) -> tensor<4xf32>
  %11 = graph.broadcast %10, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %12 = graph.broadcast %11, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
  %13 = graph.div %8, %12 : tensor<4x10xf32>
  return %13 : tensor<4x10xf32>
}

// The maximum over one axis, the sum over another: not a softmax.
// CHECK-LABEL: func.func @not_softmax
// CHECK-NOT: graph.softmax
// CHECK: return
func.func @not_softmax(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = graph.reduce max %x, axes = [1] : (tensor<4x4xf32>) -> tensor<4xf32>
  %mb = graph.broadcast %m, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
  %d = graph.sub %x, %mb : tensor<4x4xf32>
  %e = graph.exp %d : tensor<4x4xf32>
  %s = graph.reduce sum %e, axes = [0] : (tensor<4x4xf32>) -> tensor<4xf32>
  %sb = graph.broadcast %s, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
  %r = graph.div %e, %sb : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// A sum divided by the number of elements summed is a mean, with the
// reduced dimensions kept or not; divided by anything else it is not.
// CHECK-LABEL: func.func @means
// CHECK-DAG: graph.reduce mean %arg0, axes = [1] : (tensor<4x16xf32>) -> tensor<4xf32>
// CHECK-DAG: graph.reduce mean %arg0, axes = [1] keep_dims : (tensor<4x16xf32>) -> tensor<4x1xf32>
// CHECK-DAG: graph.div
// CHECK: return
func.func @means(%x: tensor<4x16xf32>) -> (tensor<4xf32>, tensor<4x1xf32>, tensor<4xf32>) {
  %s = graph.reduce sum %x, axes = [1] : (tensor<4x16xf32>) -> tensor<4xf32>
  %n = graph.constant dense<1.600000e+01> : tensor<f32>
  %nb = graph.broadcast %n, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %m = graph.div %s, %nb : tensor<4xf32>
  %k = graph.broadcast %s, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %nk = graph.broadcast %n, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %mk = graph.div %k, %nk : tensor<4x1xf32>
  %w = graph.constant dense<1.500000e+01> : tensor<f32>
  %wb = graph.broadcast %w, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %v = graph.div %s, %wb : tensor<4xf32>
  return %m, %mk, %v : tensor<4xf32>, tensor<4x1xf32>, tensor<4xf32>
}

// -----

// A sum broadcast back over the whole row, then divided by the count, is the
// mean's broadcast, not a mean with its axes kept (whose axis has extent 1):
// it stays (a square shape once made it a mean of the wrong type).
// CHECK-LABEL: func.func @spread_mean
// CHECK-NOT: graph.reduce mean
// CHECK: graph.div
func.func @spread_mean(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = graph.reduce sum %x, axes = [1] : (tensor<8x8xf32>) -> tensor<8xf32>
  %b = graph.broadcast %s, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %n = graph.constant dense<8.000000e+00> : tensor<f32>
  %nb = graph.broadcast %n, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %m = graph.div %b, %nb : tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

// JAX's layer normalisation (flax.linen.LayerNorm) over the last dimension;
// its epsilon, 1e-5, is the default and not printed.
// CHECK-LABEL: func.func @layernorm
// CHECK-NEXT: %[[L:.*]] = graph.layernorm %arg0, %arg1, %arg2 : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[L]]
func.func @layernorm(%arg0: tensor<4x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> tensor<4x16xf32> {
  %1 = graph.reduce sum %arg0, axes = [1] : (tensor<4x16xf32>) -> tensor<4xf32>
  %2 = graph.broadcast %1, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %3 = graph.constant dense<1.600000e+01> : tensor<f32>
  %4 = graph.broadcast %3, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %5 = graph.div %2, %4 : tensor<4x1xf32>
  %6 = graph.broadcast %5, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x16xf32>
  %7 = graph.sub %arg0, %6 : tensor<4x16xf32>
  %8 = graph.mul %7, %7 : tensor<4x16xf32>
  %10 = graph.reduce sum %8, axes = [1] : (tensor<4x16xf32>) -> tensor<4xf32>
  %11 = graph.broadcast %10, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %14 = graph.div %11, %4 : tensor<4x1xf32>
  %17 = graph.constant dense<9.99999974E-6> : tensor<f32>
  %18 = graph.broadcast %17, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
  %19 = graph.add %14, %18 : tensor<4x1xf32>
  %20 = graph.rsqrt %19 : tensor<4x1xf32>
  %21 = graph.broadcast %20, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x16xf32>
  %22 = graph.mul %7, %21 : tensor<4x16xf32>
  %23 = graph.broadcast %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
  %24 = graph.broadcast %23, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<4x16xf32>
  %25 = graph.mul %22, %24 : tensor<4x16xf32>
  %26 = graph.broadcast %arg2, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
  %27 = graph.broadcast %26, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<4x16xf32>
  %28 = graph.add %25, %27 : tensor<4x16xf32>
  return %28 : tensor<4x16xf32>
}

// RMS normalisation: x * rsqrt(mean(x^2) + eps) * gamma.
// CHECK-LABEL: func.func @rmsnorm
// CHECK-NEXT: %[[R:.*]] = graph.rmsnorm %arg0, %arg1 {epsilon = 9.99999997E-7 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @rmsnorm(%x: tensor<2x8xf32>, %g: tensor<8xf32>) -> tensor<2x8xf32> {
  %sq = graph.mul %x, %x : tensor<2x8xf32>
  %m = graph.reduce mean %sq, axes = [1] keep_dims : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %e = graph.constant dense<1.0e-6> : tensor<f32>
  %eb = graph.broadcast %e, dims = [] : (tensor<f32>) -> tensor<2x1xf32>
  %v = graph.add %m, %eb : tensor<2x1xf32>
  %r = graph.rsqrt %v : tensor<2x1xf32>
  %rb = graph.broadcast %r, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x8xf32>
  %n = graph.mul %x, %rb : tensor<2x8xf32>
  %gb = graph.broadcast %g, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
  %y = graph.mul %n, %gb : tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// GeLU as JAX writes it exactly (erfc), as PyTorch does (erf), and its tanh
// approximation; with 0.8 for sqrt(2/pi) it is not a GeLU.
// CHECK-LABEL: func.func @gelus
// CHECK-DAG: %[[A:.*]] = graph.gelu %arg0 : tensor<8xf32>
// CHECK-DAG: %[[B:.*]] = graph.gelu %arg1 : tensor<8xf32>
// CHECK-DAG: %[[C:.*]] = graph.gelu_tanh %arg2 : tensor<8xf32>
// CHECK-DAG: graph.tanh
// CHECK: return %[[A]], %[[B]], %[[C]], %{{.*}}
func.func @gelus(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8xf32>, %w: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %h = graph.constant dense<5.000000e-01> : tensor<f32>
  %hb = graph.broadcast %h, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %s = graph.constant dense<0.707106769> : tensor<f32>
  %sb = graph.broadcast %s, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %one = graph.constant dense<1.000000e+00> : tensor<f32>
  %oneb = graph.broadcast %one, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %a0 = graph.mul %hb, %x : tensor<8xf32>
  %a1 = graph.neg %x : tensor<8xf32>
  %a2 = graph.mul %a1, %sb : tensor<8xf32>
  %a3 = graph.erfc %a2 : tensor<8xf32>
  %a = graph.mul %a0, %a3 : tensor<8xf32>
  %b0 = graph.mul %y, %hb : tensor<8xf32>
  %b1 = graph.mul %y, %sb : tensor<8xf32>
  %b2 = graph.erf %b1 : tensor<8xf32>
  %b3 = graph.add %b2, %oneb : tensor<8xf32>
  %b = graph.mul %b0, %b3 : tensor<8xf32>
  %k = graph.constant dense<4.471500e-02> : tensor<f32>
  %kb = graph.broadcast %k, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %c = graph.constant dense<0.797884583> : tensor<f32>
  %cb = graph.broadcast %c, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %c0 = graph.mul %z, %z : tensor<8xf32>
  %c1 = graph.mul %c0, %z : tensor<8xf32>
  %c2 = graph.mul %kb, %c1 : tensor<8xf32>
  %c3 = graph.add %z, %c2 : tensor<8xf32>
  %c4 = graph.mul %cb, %c3 : tensor<8xf32>
  %c5 = graph.tanh %c4 : tensor<8xf32>
  %c6 = graph.add %oneb, %c5 : tensor<8xf32>
  %c7 = graph.mul %hb, %c6 : tensor<8xf32>
  %cz = graph.mul %z, %c7 : tensor<8xf32>
  %e = graph.constant dense<8.000000e-01> : tensor<f32>
  %eb = graph.broadcast %e, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %d0 = graph.mul %w, %w : tensor<8xf32>
  %d1 = graph.mul %d0, %w : tensor<8xf32>
  %d2 = graph.mul %kb, %d1 : tensor<8xf32>
  %d3 = graph.add %w, %d2 : tensor<8xf32>
  %d4 = graph.mul %eb, %d3 : tensor<8xf32>
  %d5 = graph.tanh %d4 : tensor<8xf32>
  %d6 = graph.add %oneb, %d5 : tensor<8xf32>
  %d7 = graph.mul %hb, %d6 : tensor<8xf32>
  %dw = graph.mul %w, %d7 : tensor<8xf32>
  return %a, %b, %cz, %dw : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// relu is max(x, 0), silu x * sigmoid(x).
// CHECK-LABEL: func.func @activations
// CHECK-DAG: %[[R:.*]] = graph.relu %arg0
// CHECK-DAG: %[[S:.*]] = graph.silu %arg0
// CHECK: return %[[R]], %[[S]]
func.func @activations(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %z = graph.constant dense<0.000000e+00> : tensor<f32>
  %zb = graph.broadcast %z, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %r = graph.max %x, %zb : tensor<8xf32>
  %s = graph.sigmoid %x : tensor<8xf32>
  %y = graph.mul %s, %x : tensor<8xf32>
  return %r, %y : tensor<8xf32>, tensor<8xf32>
}
