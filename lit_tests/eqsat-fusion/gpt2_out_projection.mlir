// A GPT-2 block (8 x 1024 tokens, f16, as JAX exports it, after
// stablehlo-to-graph and canonicalize): `x + a @ wo + bo` is one GEMM kernel
// that adds the residual and the bias, read by the second layernorm and the
// last residual add. Extraction used to stop at a local optimum where the
// GEMM added the residual and a kernel of its own added the bias (every
// value the program computed was free to its readers, so reading the bare
// sum looked cheaper than the fused GEMM); swapping one class's node now
// drops the bare sum. Seven kernels, none of them elementwise.
// RUN: aic-opt --eqsat-fusion %s | FileCheck %s
// RUN: aic-opt --eqsat-fusion %s | FileCheck %s --check-prefix=NOEW

// NOEW-NOT: fusion.group elementwise

// CHECK-LABEL: func.func public @main
// CHECK: fusion.group reduction
// CHECK: fusion.group vertical
// CHECK: fusion.group b2b_gemm
// CHECK: fusion.group vertical
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.matmul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.bias_add
// CHECK-NEXT: fusion.yield
// CHECK: fusion.group reduction
// CHECK: fusion.group vertical
// CHECK: fusion.group vertical
// CHECK-NOT: fusion.group
// CHECK: return
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x1024x1024xf16>, %arg1: tensor<1024xf16>, %arg2: tensor<1024xf16>, %arg3: tensor<1024x3072xf16>, %arg4: tensor<3072xf16>, %arg5: tensor<1024x1024xf16>, %arg6: tensor<1024xf16>, %arg7: tensor<1024xf16>, %arg8: tensor<1024xf16>, %arg9: tensor<1024x4096xf16>, %arg10: tensor<4096xf16>, %arg11: tensor<4096x1024xf16>, %arg12: tensor<1024xf16>) -> (tensor<8x1024x1024xf16> {jax.result_info = "result"}) {
    %0 = graph.constant dense<5.000000e-01> : tensor<8x1024x4096xf16>
    %1 = graph.constant dense<1.000000e+00> : tensor<8x1024x4096xf16>
    %2 = graph.constant dense<7.978520e-01> : tensor<8x1024x4096xf16>
    %3 = graph.constant dense<4.470830e-02> : tensor<8x1024x4096xf16>
    %4 = graph.constant dense<0xFF800000> : tensor<8x16x1024xf32>
    %5 = graph.constant dense<0xFC00> : tensor<8x16x1024x1024xf16>
    %6 = graph.constant dense<false> : tensor<1024x1024xi1>
    %7 = graph.constant dense<0> : tensor<1024x1024xi32>
    %8 = graph.constant dense<true> : tensor<1024x1024xi1>
    %9 = graph.constant dense<8.000000e+00> : tensor<8x16x1024x1024xf16>
    %10 = graph.constant dense<9.99999974E-6> : tensor<8x1024x1xf32>
    %11 = graph.constant dense<1.024000e+03> : tensor<8x1024x1xf32>
    %12 = graph.cast %arg0 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x1024xf32>
    %13 = graph.reduce sum %12, axes = [2] : (tensor<8x1024x1024xf32>) -> tensor<8x1024xf32>
    %14 = graph.broadcast %13, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %15 = graph.div %14, %11 : tensor<8x1024x1xf32>
    %16 = graph.broadcast %15, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %17 = graph.sub %12, %16 : tensor<8x1024x1024xf32>
    %18 = graph.mul %17, %17 : tensor<8x1024x1024xf32>
    %19 = graph.reduce sum %18, axes = [2] : (tensor<8x1024x1024xf32>) -> tensor<8x1024xf32>
    %20 = graph.broadcast %19, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %21 = graph.div %20, %11 : tensor<8x1024x1xf32>
    %22 = graph.broadcast %15, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %23 = graph.sub %12, %22 : tensor<8x1024x1024xf32>
    %24 = graph.add %21, %10 : tensor<8x1024x1xf32>
    %25 = graph.rsqrt %24 : tensor<8x1024x1xf32>
    %26 = graph.broadcast %25, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %27 = graph.mul %23, %26 : tensor<8x1024x1024xf32>
    %28 = graph.cast %arg1 : (tensor<1024xf16>) -> tensor<1024xf32>
    %29 = graph.broadcast %28, dims = [2] : (tensor<1024xf32>) -> tensor<8x1024x1024xf32>
    %30 = graph.mul %27, %29 : tensor<8x1024x1024xf32>
    %31 = graph.cast %arg2 : (tensor<1024xf16>) -> tensor<1024xf32>
    %32 = graph.broadcast %31, dims = [2] : (tensor<1024xf32>) -> tensor<8x1024x1024xf32>
    %33 = graph.add %30, %32 : tensor<8x1024x1024xf32>
    %34 = graph.cast %33 : (tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf16>
    %35 = graph.matmul %34, %arg3 : (tensor<8x1024x1024xf16>, tensor<1024x3072xf16>) -> tensor<8x1024x3072xf16>
    %36 = graph.broadcast %arg4, dims = [2] : (tensor<3072xf16>) -> tensor<8x1024x3072xf16>
    %37 = graph.add %35, %36 : tensor<8x1024x3072xf16>
    %38 = graph.slice %37 [0:8, 0:1024, 0:1024] : (tensor<8x1024x3072xf16>) -> tensor<8x1024x1024xf16>
    %39 = graph.slice %37 [0:8, 0:1024, 1024:2048] : (tensor<8x1024x3072xf16>) -> tensor<8x1024x1024xf16>
    %40 = graph.slice %37 [0:8, 0:1024, 2048:3072] : (tensor<8x1024x3072xf16>) -> tensor<8x1024x1024xf16>
    %41 = graph.reshape %38 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x16x64xf16>
    %42 = graph.transpose %41, perm = [0, 2, 1, 3] : (tensor<8x1024x16x64xf16>) -> tensor<8x16x1024x64xf16>
    %43 = graph.reshape %39 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x16x64xf16>
    %44 = graph.transpose %43, perm = [0, 2, 1, 3] : (tensor<8x1024x16x64xf16>) -> tensor<8x16x1024x64xf16>
    %45 = graph.reshape %40 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x16x64xf16>
    %46 = graph.transpose %45, perm = [0, 2, 1, 3] : (tensor<8x1024x16x64xf16>) -> tensor<8x16x1024x64xf16>
    %47 = graph.transpose %44, perm = [0, 1, 3, 2] : (tensor<8x16x1024x64xf16>) -> tensor<8x16x64x1024xf16>
    %48 = graph.matmul %42, %47 : (tensor<8x16x1024x64xf16>, tensor<8x16x64x1024xf16>) -> tensor<8x16x1024x1024xf16>
    %49 = graph.div %48, %9 : tensor<8x16x1024x1024xf16>
    %50 = graph.iota dim = 0 : tensor<1024x1024xi32>
    %51 = graph.add %50, %7 : tensor<1024x1024xi32>
    %52 = graph.iota dim = 1 : tensor<1024x1024xi32>
    %53 = graph.compare GE, %51, %52 : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi1>
    %54 = graph.select %53, %8, %6 : (tensor<1024x1024xi1>, tensor<1024x1024xi1>, tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %55 = graph.broadcast %54, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<8x16x1024x1024xi1>
    %56 = graph.select %55, %49, %5 : (tensor<8x16x1024x1024xi1>, tensor<8x16x1024x1024xf16>, tensor<8x16x1024x1024xf16>) -> tensor<8x16x1024x1024xf16>
    %57 = graph.cast %56 : (tensor<8x16x1024x1024xf16>) -> tensor<8x16x1024x1024xf32>
    %58 = graph.reduce max %57, axes = [3] : (tensor<8x16x1024x1024xf32>) -> tensor<8x16x1024xf32>
    %59 = graph.max %58, %4 : tensor<8x16x1024xf32>
    %60 = graph.broadcast %59, dims = [0, 1, 2] : (tensor<8x16x1024xf32>) -> tensor<8x16x1024x1024xf32>
    %61 = graph.sub %57, %60 : tensor<8x16x1024x1024xf32>
    %62 = graph.exp %61 : tensor<8x16x1024x1024xf32>
    %63 = graph.reduce sum %62, axes = [3] : (tensor<8x16x1024x1024xf32>) -> tensor<8x16x1024xf32>
    %64 = graph.broadcast %63, dims = [0, 1, 2] : (tensor<8x16x1024xf32>) -> tensor<8x16x1024x1024xf32>
    %65 = graph.div %62, %64 : tensor<8x16x1024x1024xf32>
    %66 = graph.cast %65 : (tensor<8x16x1024x1024xf32>) -> tensor<8x16x1024x1024xf16>
    %67 = graph.matmul %66, %46 : (tensor<8x16x1024x1024xf16>, tensor<8x16x1024x64xf16>) -> tensor<8x16x1024x64xf16>
    %68 = graph.transpose %67, perm = [0, 2, 1, 3] : (tensor<8x16x1024x64xf16>) -> tensor<8x1024x16x64xf16>
    %69 = graph.reshape %68 : (tensor<8x1024x16x64xf16>) -> tensor<8x1024x1024xf16>
    %70 = graph.matmul %69, %arg5 : (tensor<8x1024x1024xf16>, tensor<1024x1024xf16>) -> tensor<8x1024x1024xf16>
    %71 = graph.add %arg0, %70 : tensor<8x1024x1024xf16>
    %72 = graph.broadcast %arg6, dims = [2] : (tensor<1024xf16>) -> tensor<8x1024x1024xf16>
    %73 = graph.add %71, %72 : tensor<8x1024x1024xf16>
    %74 = graph.cast %73 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x1024xf32>
    %75 = graph.reduce sum %74, axes = [2] : (tensor<8x1024x1024xf32>) -> tensor<8x1024xf32>
    %76 = graph.broadcast %75, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %77 = graph.div %76, %11 : tensor<8x1024x1xf32>
    %78 = graph.broadcast %77, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %79 = graph.sub %74, %78 : tensor<8x1024x1024xf32>
    %80 = graph.mul %79, %79 : tensor<8x1024x1024xf32>
    %81 = graph.reduce sum %80, axes = [2] : (tensor<8x1024x1024xf32>) -> tensor<8x1024xf32>
    %82 = graph.broadcast %81, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %83 = graph.div %82, %11 : tensor<8x1024x1xf32>
    %84 = graph.broadcast %77, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %85 = graph.sub %74, %84 : tensor<8x1024x1024xf32>
    %86 = graph.add %83, %10 : tensor<8x1024x1xf32>
    %87 = graph.rsqrt %86 : tensor<8x1024x1xf32>
    %88 = graph.broadcast %87, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %89 = graph.mul %85, %88 : tensor<8x1024x1024xf32>
    %90 = graph.cast %arg7 : (tensor<1024xf16>) -> tensor<1024xf32>
    %91 = graph.broadcast %90, dims = [2] : (tensor<1024xf32>) -> tensor<8x1024x1024xf32>
    %92 = graph.mul %89, %91 : tensor<8x1024x1024xf32>
    %93 = graph.cast %arg8 : (tensor<1024xf16>) -> tensor<1024xf32>
    %94 = graph.broadcast %93, dims = [2] : (tensor<1024xf32>) -> tensor<8x1024x1024xf32>
    %95 = graph.add %92, %94 : tensor<8x1024x1024xf32>
    %96 = graph.cast %95 : (tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf16>
    %97 = graph.matmul %96, %arg9 : (tensor<8x1024x1024xf16>, tensor<1024x4096xf16>) -> tensor<8x1024x4096xf16>
    %98 = graph.broadcast %arg10, dims = [2] : (tensor<4096xf16>) -> tensor<8x1024x4096xf16>
    %99 = graph.add %97, %98 : tensor<8x1024x4096xf16>
    %100 = graph.mul %99, %99 : tensor<8x1024x4096xf16>
    %101 = graph.mul %100, %99 : tensor<8x1024x4096xf16>
    %102 = graph.mul %101, %3 : tensor<8x1024x4096xf16>
    %103 = graph.add %99, %102 : tensor<8x1024x4096xf16>
    %104 = graph.mul %103, %2 : tensor<8x1024x4096xf16>
    %105 = graph.tanh %104 : tensor<8x1024x4096xf16>
    %106 = graph.add %105, %1 : tensor<8x1024x4096xf16>
    %107 = graph.mul %106, %0 : tensor<8x1024x4096xf16>
    %108 = graph.mul %99, %107 : tensor<8x1024x4096xf16>
    %109 = graph.matmul %108, %arg11 : (tensor<8x1024x4096xf16>, tensor<4096x1024xf16>) -> tensor<8x1024x1024xf16>
    %110 = graph.broadcast %arg12, dims = [2] : (tensor<1024xf16>) -> tensor<8x1024x1024xf16>
    %111 = graph.add %109, %110 : tensor<8x1024x1024xf16>
    %112 = graph.add %73, %111 : tensor<8x1024x1024xf16>
    return %112 : tensor<8x1024x1024xf16>
  }
}

