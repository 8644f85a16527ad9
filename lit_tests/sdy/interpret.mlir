// The interpreter runs a manual computation once per device of its mesh, each
// a process with its slices of the operands; the results are put together
// from the devices' slices (a replicated result from any device).
// RUN: aic-run --interpret %s | FileCheck %s
// CHECK: PASS psum_over_x
// CHECK: PASS nested
// CHECK: 2 passed, 0 failed

sdy.mesh @m = <["x"=2, "y"=2]>

func.func @psum_over_x() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}, {"y"}]>] out_shardings=[<@m, [{}, {"y"}]>] manual_axes={"x", "y"} (%b: tensor<1x1xf32>) {
    %r = "stablehlo.all_reduce"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<1x1xf32>) -> tensor<1x1xf32>
    sdy.return %r : tensor<1x1xf32>
  } : (tensor<2x2xf32>) -> tensor<1x2xf32>
  check.expect_eq_const %0, dense<[[4.0, 6.0]]> : tensor<1x2xf32>
  return
}

// Partly manual along "x", with a nested manual computation along "y" whose
// result is gathered from the processes that differ only in "y".
func.func @nested() {
  %a = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{"x"}]>] manual_axes={"x"} (%b: tensor<4xi32>) {
    %1 = sdy.manual_computation(%b) in_shardings=[<@m, [{"y"}]>] out_shardings=[<@m, [{"y"}]>] manual_axes={"y"} (%c: tensor<2xi32>) {
      %id = stablehlo.partition_id : tensor<ui32>
      %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
      %bi = stablehlo.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<2xi32>
      %k = stablehlo.constant dense<100> : tensor<2xi32>
      %m = stablehlo.multiply %bi, %k : tensor<2xi32>
      %s = stablehlo.add %c, %m : tensor<2xi32>
      sdy.return %s : tensor<2xi32>
    } : (tensor<4xi32>) -> tensor<4xi32>
    sdy.return %1 : tensor<4xi32>
  } : (tensor<8xi32>) -> tensor<8xi32>
  check.expect_eq_const %0, dense<[0, 1, 102, 103, 204, 205, 306, 307]> : tensor<8xi32>
  return
}
