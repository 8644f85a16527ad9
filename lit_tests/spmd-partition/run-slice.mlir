// A device's local slice needs its partition id: on the host target the
// plan gives each device's arena its id (a per-device constant), so the
// slicing runs as kernels in the plan, not in the interpreter, and the
// result equals the unpartitioned program's. Four devices on a 2x2 mesh,
// each slicing its rows and then its columns of a replicated argument.
// DEFINE: %{args} = "[dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0], [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0], [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]]> : tensor<4x6xf32>, dense<[[2.0, 1.0, 0.0, -1.0, -2.0, 3.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [0.0, 2.0, 4.0, 6.0, 8.0, 10.0], [3.0, 3.0, 2.0, 2.0, 1.0, 1.0]]> : tensor<4x6xf32>]"
// RUN: aic-opt %s --spmd-partition -o %t.mlir
// RUN: FileCheck %s --check-prefix=PART --input-file=%t.mlir
// RUN: aic-run --interpret --entry=@main --args=%{args} %s > %t.ref
// RUN: aic-run --interpret --entry=@main --args=%{args} %t.mlir > %t.interp
// RUN: diff %t.ref %t.interp
// RUN: aic-run --target=host --entry=@main --args=%{args} %t.mlir > %t.host 2> %t.err
// RUN: diff %t.ref %t.host
// RUN: not grep warning %t.err
// PART: stablehlo.partition_id
// PART: stablehlo.dynamic_slice %arg0

sdy.mesh @m = <["x"=2, "y"=2]>
func.func @main(%a: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}, %b: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<4x6xf32> {
  %e = stablehlo.exponential %a : tensor<4x6xf32>
  %c = sdy.sharding_constraint %e <@m, [{"x"}, {"y"}]> : tensor<4x6xf32>
  %s = stablehlo.multiply %c, %b : tensor<4x6xf32>
  return %s : tensor<4x6xf32>
}
