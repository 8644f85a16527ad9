// Graph folds under --canonicalize: ops of constants become constants (a
// splat stays a splat however large; other results up to 65,536 elements),
// broadcast and reshape chains compose, a cast after an exact cast composes.
// Each fold has a near miss that must stay.
// RUN: aic-opt %s --canonicalize | FileCheck %s
// RUN: aic-opt %s --canonicalize | aic-opt --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @cast_of_constant(
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @cast_of_constant() -> tensor<2xf32> {
  %c = graph.constant dense<[1.0, 2.5]> : tensor<2xf16>
  %0 = graph.cast %c : (tensor<2xf16>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A splat of a huge type: folded without materialising its elements.
// CHECK-LABEL: func.func @broadcast_of_splat(
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<5.000000e-01> : tensor<4096x4096xf16>
// CHECK-NEXT: return %[[C]]
func.func @broadcast_of_splat() -> tensor<4096x4096xf16> {
  %c = graph.constant dense<0.5> : tensor<f16>
  %0 = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<4096x4096xf16>
  return %0 : tensor<4096x4096xf16>
}

// CHECK-LABEL: func.func @views_of_splat(
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<3> : tensor<4x2xi32>
// CHECK-NEXT: return %[[C]]
func.func @views_of_splat() -> tensor<4x2xi32> {
  %c = graph.constant dense<3> : tensor<2x8xi32>
  %0 = graph.reshape %c : (tensor<2x8xi32>) -> tensor<8x2xi32>
  %1 = graph.transpose %0, perm = [1, 0] : (tensor<8x2xi32>) -> tensor<2x8xi32>
  %2 = graph.slice %1 [0:2, 0:8:2] : (tensor<2x8xi32>) -> tensor<2x4xi32>
  %3 = graph.transpose %2, perm = [1, 0] : (tensor<2x4xi32>) -> tensor<4x2xi32>
  return %3 : tensor<4x2xi32>
}

// Small dense constants: every view evaluates.
// CHECK-LABEL: func.func @views_of_dense(
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<{{\[}}[1, 3], [1, 3]]> : tensor<2x2xi32>
// CHECK-NEXT: return %[[C]]
func.func @views_of_dense() -> tensor<2x2xi32> {
  %c = graph.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %0 = graph.transpose %c, perm = [1, 0] : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %1 = graph.slice %0 [1:2, 0:2] : (tensor<2x2xi32>) -> tensor<1x2xi32>
  %2 = graph.reshape %1 : (tensor<1x2xi32>) -> tensor<2xi32>
  %3 = graph.broadcast %2, dims = [1] : (tensor<2xi32>) -> tensor<2x2xi32>
  return %3 : tensor<2x2xi32>
}

// A big broadcast of a constant that is not a splat stays.
// CHECK-LABEL: func.func @big_dense_broadcast(
// CHECK: graph.constant dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: graph.broadcast
func.func @big_dense_broadcast() -> tensor<65537x2xf32> {
  %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = graph.broadcast %c, dims = [1] : (tensor<2xf32>) -> tensor<65537x2xf32>
  return %0 : tensor<65537x2xf32>
}

// An iota stays an op (kernels compute it from their indices), and so does a
// causal mask computed from iotas.
// CHECK-LABEL: func.func @iota(
// CHECK-NEXT: graph.iota dim = 1 : tensor<2x3xi32>
func.func @iota() -> tensor<2x3xi32> {
  %0 = graph.iota dim = 1 : tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @causal_mask(
// CHECK: graph.iota dim = 0
// CHECK: graph.iota dim = 1
// CHECK: graph.compare GE
// CHECK: graph.select
func.func @causal_mask() -> tensor<3x3xi1> {
  %t = graph.constant dense<true> : tensor<i1>
  %f = graph.constant dense<false> : tensor<i1>
  %r = graph.iota dim = 0 : tensor<3x3xi32>
  %c = graph.iota dim = 1 : tensor<3x3xi32>
  %ge = graph.compare GE, %r, %c : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %tb = graph.broadcast %t, dims = [] : (tensor<i1>) -> tensor<3x3xi1>
  %fb = graph.broadcast %f, dims = [] : (tensor<i1>) -> tensor<3x3xi1>
  %0 = graph.select %ge, %tb, %fb : (tensor<3x3xi1>, tensor<3x3xi1>, tensor<3x3xi1>) -> tensor<3x3xi1>
  return %0 : tensor<3x3xi1>
}

// Elementwise ops of splats stay splats, whatever the size (the op on one
// element, rounded as the op rounds: 1/3 in f16).
// CHECK-LABEL: func.func @elementwise_of_splats(
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<3.332520e-01> : tensor<1024x1024xf16>
// CHECK-NEXT: return %[[C]]
func.func @elementwise_of_splats() -> tensor<1024x1024xf16> {
  %a = graph.constant dense<1.0> : tensor<1024x1024xf16>
  %b = graph.constant dense<3.0> : tensor<f16>
  %0 = graph.div %a, %b : (tensor<1024x1024xf16>, tensor<f16>) -> tensor<1024x1024xf16>
  %1 = graph.exp %0 : tensor<1024x1024xf16>
  %2 = graph.log %1 : tensor<1024x1024xf16>
  return %2 : tensor<1024x1024xf16>
}

// CHECK-LABEL: func.func @elementwise_of_dense(
// CHECK-NEXT: %[[C:.*]] = graph.constant dense<[2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: return %[[C]]
func.func @elementwise_of_dense() -> tensor<3xf32> {
  %a = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.add %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// A dense operand above the bound: the elementwise op stays.
// CHECK-LABEL: func.func @big_dense_elementwise(
// CHECK: graph.neg
func.func @big_dense_elementwise(%x: tensor<65537xf32>) -> tensor<65537xf32> {
  %r = graph.iota dim = 0 : tensor<65537xi32>
  %f = graph.cast %r : (tensor<65537xi32>) -> tensor<65537xf32>
  %0 = graph.neg %f : tensor<65537xf32>
  return %0 : tensor<65537xf32>
}

// CHECK-LABEL: func.func @broadcast_of_broadcast(
// CHECK-NEXT: %[[B:.*]] = graph.broadcast %arg0, dims = [2] : (tensor<64xf32>) -> tensor<2x16x64xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<64xf32>) -> tensor<2x16x64xf32> {
  %0 = graph.broadcast %x, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
  %1 = graph.broadcast %0, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
  return %1 : tensor<2x16x64xf32>
}

// CHECK-LABEL: func.func @reshape_of_reshape(
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]], %arg0
func.func @reshape_of_reshape(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>) {
  %0 = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = graph.reshape %0 : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = graph.reshape %1 : (tensor<4x6xf32>) -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x6xf32>, tensor<2x3x4xf32>
}

// f16 -> f32 -> f16 is the identity; f16 -> f32 -> bf16 is f16 -> bf16;
// i8 -> i32 -> f32 is i8 -> f32.
// CHECK-LABEL: func.func @exact_cast_of_cast(
// CHECK-NEXT: %[[B:.*]] = graph.cast %arg0 : (tensor<4xf16>) -> tensor<4xbf16>
// CHECK-NEXT: %[[F:.*]] = graph.cast %arg1 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT: return %arg0, %[[B]], %[[F]]
func.func @exact_cast_of_cast(%x: tensor<4xf16>, %i: tensor<4xi8>) -> (tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>) {
  %0 = graph.cast %x : (tensor<4xf16>) -> tensor<4xf32>
  %1 = graph.cast %0 : (tensor<4xf32>) -> tensor<4xf16>
  %2 = graph.cast %0 : (tensor<4xf32>) -> tensor<4xbf16>
  %3 = graph.cast %i : (tensor<4xi8>) -> tensor<4xi32>
  %4 = graph.cast %3 : (tensor<4xi32>) -> tensor<4xf32>
  return %1, %2, %4 : tensor<4xf16>, tensor<4xbf16>, tensor<4xf32>
}

// f32 -> f16 rounds, so f32 -> f16 -> f32 stays; so do i32 -> f32 (not
// exact above 2^24) and a negative i8 through ui16.
// CHECK-LABEL: func.func @inexact_cast_of_cast(
// CHECK-NEXT: graph.cast %arg0 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: graph.cast %{{.*}} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: graph.cast %arg1 : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: graph.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: graph.cast %arg2 : (tensor<4xi8>) -> tensor<4xui16>
// CHECK-NEXT: graph.cast %{{.*}} : (tensor<4xui16>) -> tensor<4xi32>
func.func @inexact_cast_of_cast(%x: tensor<4xf32>, %i: tensor<4xi32>, %j: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  %1 = graph.cast %0 : (tensor<4xf16>) -> tensor<4xf32>
  %2 = graph.cast %i : (tensor<4xi32>) -> tensor<4xf32>
  %3 = graph.cast %2 : (tensor<4xf32>) -> tensor<4xi32>
  %4 = graph.cast %j : (tensor<4xi8>) -> tensor<4xui16>
  %5 = graph.cast %4 : (tensor<4xui16>) -> tensor<4xi32>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4xi32>
}
