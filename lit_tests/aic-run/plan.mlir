// aic-run --target runs a compiled function as its plan: --bench times it (a
// wall clock on the host) and prints a per-kernel table, --trace writes a
// Chrome-trace JSON of one run's kernels. A loop is part of the plan (its
// test and counter kernels too), timed like the rest. A function whose host
// program keeps tensor ops that are not kernels runs in the interpreter, with
// a warning naming them.
// RUN: rm -f %t.json
// RUN: aic-run --target=host %s --entry @dense --args "[dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>, dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>]" --check --bench=3 --trace=%t.json 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: aic-run --target=host %s --entry @looped --args "[dense<[1.0, 2.0]> : tensor<2xf32>, dense<2> : tensor<i32>]" --check --bench=2 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not aic-run --target=host %s --entry @mystery --args "[dense<[1.0, 2.0]> : tensor<2xf32>, dense<2> : tensor<i32>]" --check 2>&1 | FileCheck %s --check-prefix=HOSTOPS
// RUN: not aic-run --target=host %s --entry @mystery --args "[dense<[1.0, 2.0]> : tensor<2xf32>, dense<2> : tensor<i32>]" --bench 2>&1 | FileCheck %s --check-prefix=NOPLAN
// RUN: not aic-run --interpret %s --bench 2>&1 | FileCheck %s --check-prefix=NOTARGET
// CHECK: dense<{{\[\[}}0.268941{{[0-9]*}}, 0.731058{{[0-9]*}}], [0.268941{{[0-9]*}}, 0.731058{{[0-9]*}}]]> : tensor<2x2xf32>
// CHECK-NEXT: dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: bench: @dense on the host (wall clock, {{[0-9]+}} launches, arena {{[0-9]+}} bytes): 3 runs after 10 warm-up: median {{[0-9.]+}} ms a run
// CHECK-NEXT: kernel{{ +}}kind{{ +}}time (us){{ +}}share  rate
// CHECK-NEXT: gemm_0{{ +}}gemm{{ +}}{{[0-9.]+}}{{ *}}{{[0-9.]+}}%  {{[0-9.]+}} TFLOP/s
// CHECK-NEXT: total{{ +}}{{[0-9.]+}}{{ +}}100.0%
// CHECK: check: ok
// TRACE: {"displayTimeUnit":"ms","traceEvents":[{"args":{"block":[1,1,1],"bytes":{{[0-9]+}},"flops":{{[0-9]+}},"grid":[{{[0-9,]+}}]},"cat":"gemm","dur":{{[0-9.e-]+}},"name":"gemm_0","ph":"X","pid":1,"tid":1,"ts":0.0}
// LOOP-NOT: warning
// LOOP: dense<[4.000000e+00, 8.000000e+00]> : tensor<2xf32>
// LOOP-NEXT: bench: @looped on the host (wall clock, 3 launches, arena {{[0-9]+}} bytes): 2 runs after 10 warm-up
// LOOP: check: ok
// HOSTOPS: aic-run: warning: @mystery: 1 tensor op runs on the host interpreter: stablehlo.custom_call at {{.*}}plan.mlir:{{[0-9]+}}:{{[0-9]+}}
// NOPLAN: aic-run: --bench and --trace time a plan, and @mystery has none
// NOTARGET: aic-run: --bench and --trace need --target
func.func @dense(%x: tensor<6xf32>, %w: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>) {
  %r = graph.reshape %x : (tensor<6xf32>) -> tensor<2x3xf32>
  %m = graph.matmul %r, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %s = graph.softmax %m, axis = 1 : tensor<2x2xf32>
  return %s, %r : tensor<2x2xf32>, tensor<2x3xf32>
}

func.func @looped(%x: tensor<2xf32>, %n: tensor<i32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<2xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.add %v, %v : tensor<2xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}

func.func @mystery(%x: tensor<2xf32>, %n: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %e = stablehlo.exponential %x : tensor<2xf32>
  %c = stablehlo.custom_call @mystery(%n) : (tensor<i32>) -> tensor<i32>
  return %e, %c : tensor<2xf32>, tensor<i32>
}
