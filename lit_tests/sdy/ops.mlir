// Every sdy op and attribute form as Shardy prints it (JAX 0.10's exports and
// Shardy's own parse/print tests); printing is stable and the generic form
// reads back.
// RUN: aic-opt %s | FileCheck %s
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s

// CHECK: sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
sdy.mesh @mesh = <["x"=2, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}, {name = "y", size = 2 : i64}]}}
// CHECK-NEXT: sdy.mesh @empty = <[]>
sdy.mesh @empty = <[]>
// CHECK-NEXT: sdy.mesh @maximal = <[], device_ids=[3]>
sdy.mesh @maximal = <[], device_ids=[3]>
// CHECK-NEXT: sdy.mesh @permuted = <["a"=2], device_ids=[1, 0]>
sdy.mesh @permuted = <["a"=2], device_ids=[1, 0]>
// An iota device order is the default and is left out, as Shardy does.
// CHECK-NEXT: sdy.mesh @iota = <["a"=2, "b"=2]>
sdy.mesh @iota = <["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>
// CHECK-NEXT: sdy.mesh @big = <["a"=4, "b"=2]>
sdy.mesh @big = <["a"=4, "b"=2]>

// CHECK-LABEL: func.func public @args(
// CHECK-SAME{LITERAL}: %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}
// CHECK-SAME{LITERAL}: %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}>}
// CHECK-SAME{LITERAL}: %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@big, [{"a"}p0, {"b":(1)2}p1], unreduced={"a":(2)2}>}
// CHECK-SAME{LITERAL}: %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x", "y"}, {}]>}
// CHECK-SAME{LITERAL}: -> (tensor<8x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
func.func public @args(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}], replicated={"y"}>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@big, [{"a"}p0, {"b":(1)2}p1], unreduced={"a":(2)2}>}, %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x", "y"}, {}]>}) -> (tensor<8x16xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  return %arg0 : tensor<8x16xf32>
}

// The legacy GSPMD form is a string attribute and stays one.
// CHECK-LABEL: func.func @mhlo_sharding(
// CHECK-SAME: %arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}
func.func @mhlo_sharding(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{replicated}"}) {
  return %arg0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @constraints(
func.func @constraints(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x", "y"}]> : tensor<8x16xf32>
  // CHECK-NEXT{LITERAL}: %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"x"}p2]> : tensor<8x16xf32>
  // CHECK-NEXT{LITERAL}: %2 = sdy.reshard %1 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
  // CHECK-NEXT: sdy.sharding_group %2 group_id=0 : tensor<8x16xf32>
  // CHECK-NEXT: sdy.sharding_group %arg1 group_id=0 : tensor<8x16xf32>
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x", "y"}]> : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"x"}p2]> : tensor<8x16xf32>
  %2 = sdy.reshard %1 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
  sdy.sharding_group %2 group_id=0 : tensor<8x16xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x16xf32>
  %3 = stablehlo.add %2, %arg1 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @manual(
func.func @manual(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> tensor<4x16xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4x16xf32>, %arg3: tensor<16x16xf32>) {
  // CHECK-NEXT: %1 = stablehlo.dot_general %arg2, %arg3
  // CHECK-NEXT: %2 = "stablehlo.reduce_scatter"(%1)
  // CHECK: sdy.return %2 : tensor<2x16xf32>
  // CHECK-NEXT: } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4x16xf32>, %arg3: tensor<16x16xf32>) {
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0] : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %2 = "stablehlo.reduce_scatter"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x16xf32>) -> tensor<2x16xf32>
    sdy.return %2 : tensor<2x16xf32>
  } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// Partly manual, nested, and without operands or results.
// CHECK-LABEL: func.func @nested(
func.func @nested(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK-NEXT{LITERAL}: %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
  // CHECK-NEXT{LITERAL}: %1 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, []>] manual_axes={"y"} () {
  // CHECK-NEXT: %3 = stablehlo.partition_id : tensor<ui32>
  // CHECK: } : () -> tensor<ui32>
  // CHECK: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
  // CHECK-NEXT: sdy.return
  // CHECK-NEXT: } : () -> ()
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", ?}, {?}]>] out_shardings=[<@mesh, [{"x", ?}, {?}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
    %1 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, []>] manual_axes={"y"} () {
      %3 = stablehlo.partition_id : tensor<ui32>
      sdy.return %3 : tensor<ui32>
    } : () -> tensor<ui32>
    %2 = sdy.sharding_constraint %arg1 <@mesh, [{?}, {?}]> : tensor<4x16xf32>
    sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
      sdy.return
    } : () -> ()
    sdy.return %2 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
