// dynamic-dims: `?` dims of a public function become their bounds; the
// function records each dim by name (`aic.arg_dims`, `aic.result_dims`) and
// the bounds (`aic.dim_bounds`). Unnamed dims are `argI.D`; JAX's names come
// from the `jax.global_constant` parameters their sizes are passed to, and
// shape assertions of equal sizes make two dims one. get_dimension_size,
// the shape arithmetic and dynamic_broadcast_in_dim/dynamic_reshape/
// dynamic_iota follow the sizes; the dynamic ops become their static
// namesakes and the assertions go. The rest of the pipeline down to tile
// kernels then sees a static program of the bounds' sizes.
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(dynamic-dims{bounds=b=8,s=4,arg0.0=4,arg0.1=4})' | FileCheck %s
// RUN: aic-opt %s --split-input-file --pass-pipeline='builtin.module(dynamic-dims{default-bound=8},stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile{target=cpu total=true})' | FileCheck %s --check-prefix=TILE

// CHECK-LABEL: func.func @rows(%arg0: tensor<4x16xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<4x16xf32>
// CHECK-SAME: aic.arg_dims = {{\[\[}}"arg0.0", "16"]], aic.dim_bounds = ["arg0.0=4"], aic.result_dims = {{\[\[}}"arg0.0", "16"]], aic.size_args = ["arg0.0"]
// CHECK-NOT: aic.dim_layout
// CHECK: stablehlo.reduce{{.*}} -> tensor<4xf32>
// CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [0] : (tensor<4xf32>) -> tensor<4x16xf32>
// CHECK-NOT: dynamic_broadcast_in_dim
// CHECK-NOT: get_dimension_size
// TILE-LABEL: func.func @rows(%arg0: tensor<8x16xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<8x16xf32>
// TILE: tile.launch @{{.*}}(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @rows(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x16xf32>, tensor<f32>) -> tensor<?xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c = stablehlo.constant dense<16> : tensor<1xi32>
  %shape = stablehlo.concatenate %n1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = stablehlo.dynamic_broadcast_in_dim %s, %shape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x16xf32>
  %y = stablehlo.divide %x, %b : tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// JAX's form: @main passes the sizes to the wrapped function, whose
// parameters name them; `b * s` rows reshaped and multiplied by a matrix.
// CHECK-LABEL: func.func public @main(%arg0: tensor<8x4x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<i32> {aic.size = "b"}, %arg3: tensor<i32> {aic.size = "s"}) -> tensor<8x4x32xf32>
// CHECK-SAME: aic.arg_dims = {{\[\[}}"b", "s", "16"], ["16", "32"]], aic.dim_bounds = ["b=8", "s=4"], aic.result_dims = {{\[\[}}"b", "s", "32"]], aic.size_args = ["b", "s"]
// CHECK-NOT: aic.dim_layout
// CHECK: call @wrapped(%arg2, %arg3, %arg0, %arg1)
// CHECK-NOT: shape_assertion
// CHECK-LABEL: func.func private @wrapped
// CHECK: stablehlo.reshape %{{.*}} : (tensor<8x4x16xf32>) -> tensor<32x16xf32>
// CHECK: stablehlo.dot_general{{.*}} -> tensor<32x32xf32>
// CHECK: stablehlo.reshape %{{.*}} : (tensor<32x32xf32>) -> tensor<8x4x32xf32>
// TILE-LABEL: func.func public @main(%arg0: tensor<8x8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<i32> {aic.size = "b"}, %arg3: tensor<i32> {aic.size = "s"}) -> tensor<8x8x32xf32>
// TILE: tile.launch @gemm_0(%arg0, %arg1) : (tensor<8x8x16xf32>, tensor<16x32xf32>) -> tensor<8x8x32xf32>
module {
  func.func public @main(%x: tensor<?x?x16xf32>, %w: tensor<16x32xf32>) -> tensor<?x?x32xf32> {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %b = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?x16xf32>) -> tensor<i32>
    %s = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?x16xf32>) -> tensor<i32>
    %ok = stablehlo.compare GE, %b, %c1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%ok, %b) {error_message = "b >= 1", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %y = call @wrapped(%b, %s, %x, %w) : (tensor<i32>, tensor<i32>, tensor<?x?x16xf32>, tensor<16x32xf32>) -> tensor<?x?x32xf32>
    return %y : tensor<?x?x32xf32>
  }
  func.func private @wrapped(%b: tensor<i32> {jax.global_constant = "b"}, %s: tensor<i32> {jax.global_constant = "s"}, %x: tensor<?x?x16xf32>, %w: tensor<16x32xf32>) -> tensor<?x?x32xf32> {
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
    %bs = stablehlo.multiply %b1, %s1 : tensor<1xi32>
    %c16 = stablehlo.constant dense<16> : tensor<1xi32>
    %c32 = stablehlo.constant dense<32> : tensor<1xi32>
    %shape = stablehlo.concatenate %bs, %c16, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %rows = stablehlo.dynamic_reshape %x, %shape : (tensor<?x?x16xf32>, tensor<2xi32>) -> tensor<?x16xf32>
    %p = stablehlo.dot_general %rows, %w, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
    %back = stablehlo.concatenate %b1, %s1, %c32, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %y = stablehlo.dynamic_reshape %p, %back : (tensor<?x32xf32>, tensor<3xi32>) -> tensor<?x?x32xf32>
    return %y : tensor<?x?x32xf32>
  }
}

// -----

// One private function called twice with the same dims (JAX calls one
// `@relu` per use) is analysed once; called with other dims it is an error
// (see invalid.mlir).
// CHECK-LABEL: func.func public @twice(%arg0: tensor<4x4xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<4x4xf32>
// CHECK: call @relu(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: call @relu(%{{.*}}) : (tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: func.func private @relu(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32>
// TILE-LABEL: func.func public @twice(%arg0: tensor<8x4xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<8x4xf32>
module {
  func.func public @twice(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %a = call @relu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %b = call @relu(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %b : tensor<?x4xf32>
  }
  func.func private @relu(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
    %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
    %c4 = stablehlo.constant dense<4> : tensor<1xi32>
    %shape = stablehlo.concatenate %n1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %zz = stablehlo.dynamic_broadcast_in_dim %zb, %shape, dims = [0, 1] : (tensor<1x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    %y = stablehlo.maximum %x, %zz : tensor<?x4xf32>
    return %y : tensor<?x4xf32>
  }
}

// -----

// A reduction over a dynamic dim reads its operand masked to the size (the
// compiler's size argument against an iota, the init value past it), and
// the tensors are padded in place in each dim (aic.dim_layout).
// CHECK-LABEL: func.func @sum_over_rows(%arg0: tensor<4x16xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<16xf32>
// CHECK-SAME: aic.dim_layout = "in-place"
// CHECK: %[[IOTA:.*]] = stablehlo.iota dim = 0 : tensor<4x16xi32>
// CHECK: %[[N:.*]] = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<4x16xi32>
// CHECK: %[[IN:.*]] = stablehlo.compare LT, %[[IOTA]], %[[N]], SIGNED
// CHECK: %[[ZERO:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
// CHECK: %[[X:.*]] = stablehlo.select %[[IN]], %arg0, %[[ZERO]]
// CHECK: stablehlo.reduce(%[[X]] init:
// The kernels read the size: the reduction's takes the size argument.
// TILE-LABEL: func.func @sum_over_rows(
// TILE: tile.launch @rows_0(%{{.*}}, %arg1, %arg0)
func.func @sum_over_rows(%x: tensor<?x16xf32>) -> tensor<16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x16xf32>, tensor<f32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// A dynamic dim after a static one: padded in place.
// CHECK-LABEL: func.func @inner(%arg0: tensor<4x4xf32>, %arg1: tensor<i32> {aic.size = "arg0.1"}) -> tensor<4x4xf32>
// CHECK-SAME: aic.dim_layout = "in-place"
func.func @inner(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %y = stablehlo.exponential %x : tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// A size read as a value is the size argument.
// CHECK-LABEL: func.func @size_as_value(%arg0: tensor<4x16xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"}) -> tensor<i32>
// CHECK-NEXT: %0 = stablehlo.add %arg1, %arg1 : tensor<i32>
// CHECK-NEXT: return %0
func.func @size_as_value(%x: tensor<?x16xf32>) -> tensor<i32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
  %m = stablehlo.add %n, %n : tensor<i32>
  return %m : tensor<i32>
}

// -----

// Softmax attention over a dynamic number of keys: the scores are masked
// with -inf once, where they are made; exp(-inf - max) = 0 past the size,
// so the sum and P need no mask of their own; nor does V, an argument (zero
// past the size, so finite): each product past the size is 0 * finite.
// CHECK-LABEL: func.func @softmax_attention(%arg0: tensor<4x4xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<i32> {aic.size = "arg0.1"})
// CHECK: %[[S:.*]] = stablehlo.select %{{.*}}, %arg0, %{{.*}} : tensor<4x4xi1>, tensor<4x4xf32>
// CHECK: stablehlo.reduce(%[[S]] init:
// CHECK-NOT: stablehlo.select
// CHECK: %[[D:.*]] = stablehlo.subtract %[[S]],
// CHECK: stablehlo.dot_general %{{.*}}, %arg1, contracting_dims = [1] x [0]
func.func @softmax_attention(%s: tensor<4x?xf32>, %v: tensor<?x8xf32>) -> tensor<4x8xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x?xf32>, tensor<f32>) -> tensor<4xf32>
  %k = stablehlo.get_dimension_size %s, dim = 1 : (tensor<4x?xf32>) -> tensor<i32>
  %kv = stablehlo.get_dimension_size %v, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %eq = stablehlo.compare EQ, %k, %kv, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%eq) {error_message = "keys", has_side_effect = true} : (tensor<i1>) -> ()
  %k1 = stablehlo.reshape %k : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %shape = stablehlo.concatenate %c4, %k1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %mb = stablehlo.dynamic_broadcast_in_dim %m, %shape, dims = [0] : (tensor<4xf32>, tensor<2xi32>) -> tensor<4x?xf32>
  %d = stablehlo.subtract %s, %mb : tensor<4x?xf32>
  %e = stablehlo.exponential %d : tensor<4x?xf32>
  %t = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x?xf32>, tensor<f32>) -> tensor<4xf32>
  %tb = stablehlo.dynamic_broadcast_in_dim %t, %shape, dims = [0] : (tensor<4xf32>, tensor<2xi32>) -> tensor<4x?xf32>
  %p = stablehlo.divide %e, %tb : tensor<4x?xf32>
  %o = stablehlo.dot_general %p, %v, contracting_dims = [1] x [0] : (tensor<4x?xf32>, tensor<?x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// The same with V's padding not known finite (a log of an argument, -inf
// at the zeros past the size): V is masked with zeros for the contraction.
// A layer norm's (x - mean) * rsqrt(var + eps) with a positive epsilon is
// known finite, and needs none.
// CHECK-LABEL: func.func @softmax_attention_log_v(
// CHECK: %[[L:.*]] = stablehlo.log %arg1
// CHECK: %[[V:.*]] = stablehlo.select %{{.*}}, %[[L]], %{{.*}} : tensor<4x8xi1>, tensor<4x8xf32>
// CHECK: stablehlo.dot_general %{{.*}}, %[[V]], contracting_dims = [1] x [0]
// CHECK: %[[R:.*]] = stablehlo.rsqrt
// CHECK-NEXT: %[[N:.*]] = stablehlo.multiply %{{.*}}, %[[R]] : tensor<4x8xf32>
// CHECK-NOT: stablehlo.select
// CHECK: stablehlo.dot_general %{{.*}}, %[[N]], contracting_dims = [1] x [0]
func.func @softmax_attention_log_v(%s: tensor<4x?xf32>, %v: tensor<?x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x?xf32>, tensor<f32>) -> tensor<4xf32>
  %k = stablehlo.get_dimension_size %s, dim = 1 : (tensor<4x?xf32>) -> tensor<i32>
  %kv = stablehlo.get_dimension_size %v, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %eq = stablehlo.compare EQ, %k, %kv, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%eq) {error_message = "keys", has_side_effect = true} : (tensor<i1>) -> ()
  %k1 = stablehlo.reshape %k : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %shape = stablehlo.concatenate %c4, %k1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %mb = stablehlo.dynamic_broadcast_in_dim %m, %shape, dims = [0] : (tensor<4xf32>, tensor<2xi32>) -> tensor<4x?xf32>
  %d = stablehlo.subtract %s, %mb : tensor<4x?xf32>
  %e = stablehlo.exponential %d : tensor<4x?xf32>
  %t = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x?xf32>, tensor<f32>) -> tensor<4xf32>
  %tb = stablehlo.dynamic_broadcast_in_dim %t, %shape, dims = [0] : (tensor<4xf32>, tensor<2xi32>) -> tensor<4x?xf32>
  %p = stablehlo.divide %e, %tb : tensor<4x?xf32>
  %lv = stablehlo.log %v : tensor<?x8xf32>
  %o = stablehlo.dot_general %p, %lv, contracting_dims = [1] x [0] : (tensor<4x?xf32>, tensor<?x8xf32>) -> tensor<4x8xf32>
  // A layer norm over the static dim of each row of V.
  %sum = stablehlo.reduce(%v init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  %n = stablehlo.get_dimension_size %v, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %vshape = stablehlo.concatenate %n1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %eight = stablehlo.constant dense<8.0> : tensor<f32>
  %eightb = stablehlo.dynamic_broadcast_in_dim %eight, %vshape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x8xf32>
  %sumb = stablehlo.dynamic_broadcast_in_dim %sum, %vshape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %mean = stablehlo.divide %sumb, %eightb : tensor<?x8xf32>
  %c = stablehlo.subtract %v, %mean : tensor<?x8xf32>
  %sq = stablehlo.multiply %c, %c : tensor<?x8xf32>
  %ss = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x8xf32>, tensor<f32>) -> tensor<?xf32>
  %ssb = stablehlo.dynamic_broadcast_in_dim %ss, %vshape, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x8xf32>
  %var = stablehlo.divide %ssb, %eightb : tensor<?x8xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<f32>
  %epsb = stablehlo.dynamic_broadcast_in_dim %eps, %vshape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x8xf32>
  %ve = stablehlo.add %var, %epsb : tensor<?x8xf32>
  %r = stablehlo.rsqrt %ve : tensor<?x8xf32>
  %normed = stablehlo.multiply %c, %r : tensor<?x8xf32>
  %o2 = stablehlo.dot_general %p, %normed, contracting_dims = [1] x [0] : (tensor<4x?xf32>, tensor<?x8xf32>) -> tensor<4x8xf32>
  return %o, %o2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// jnp.split and x[..., :k] of symbolic shapes: real_dynamic_slice with bounds
// computed from the sizes, and a dynamic_gather of the slice form (constant
// starts, every dim an offset dim), each a static slice that keeps the
// dynamic dims whole.
// CHECK-LABEL: func.func @slices(%arg0: tensor<4x12xf32>, %arg1: tensor<i32> {aic.size = "arg0.0"})
// CHECK-NOT: dynamic
// CHECK: %[[A:.*]] = stablehlo.slice %arg0 [0:4, 4:8] : (tensor<4x12xf32>) -> tensor<4x4xf32>
// CHECK-NOT: dynamic
// CHECK: %[[B:.*]] = stablehlo.slice %arg0 [0:4, 6:8] : (tensor<4x12xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @slices(%x: tensor<?x12xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>) {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x12xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c0 = stablehlo.constant dense<0> : tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %c2 = stablehlo.constant dense<2> : tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %c8 = stablehlo.constant dense<8> : tensor<1xi32>
  %start = stablehlo.concatenate %c0, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %limit = stablehlo.concatenate %n1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %step = stablehlo.concatenate %c1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %a = stablehlo.real_dynamic_slice %x, %start, %limit, %step : (tensor<?x12xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %k = stablehlo.constant dense<6> : tensor<i32>
  %i = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %c2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b = "stablehlo.dynamic_gather"(%x, %i, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<?x12xf32>, tensor<1xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %a, %b : tensor<?x4xf32>, tensor<?x2xf32>
}

