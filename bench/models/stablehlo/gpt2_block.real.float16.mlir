module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x1024x1024xf16>, %arg1: tensor<1024xf16>, %arg2: tensor<1024xf16>, %arg3: tensor<1024x3072xf16>, %arg4: tensor<3072xf16>, %arg5: tensor<1024x1024xf16>, %arg6: tensor<1024xf16>, %arg7: tensor<1024xf16>, %arg8: tensor<1024xf16>, %arg9: tensor<1024x4096xf16>, %arg10: tensor<4096xf16>, %arg11: tensor<4096x1024xf16>, %arg12: tensor<1024xf16>) -> (tensor<8x1024x1024xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x1024xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<8x1024x1024xf32>, tensor<f32>) -> tensor<8x1024xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %cst_0 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1024x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<8x1024x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<8x1024x1024xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<8x1024x1024xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<8x1024x1024xf32>, tensor<f32>) -> tensor<8x1024xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %cst_2 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1024x1xf32>
    %11 = stablehlo.divide %9, %10 : tensor<8x1024x1xf32>
    %12 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %13 = stablehlo.subtract %0, %12 : tensor<8x1024x1024xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1024x1xf32>
    %15 = stablehlo.add %11, %14 : tensor<8x1024x1xf32>
    %16 = stablehlo.rsqrt %15 : tensor<8x1024x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %18 = stablehlo.multiply %13, %17 : tensor<8x1024x1024xf32>
    %19 = stablehlo.convert %arg1 : (tensor<1024xf16>) -> tensor<1024xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<8x1024x1024xf32>
    %22 = stablehlo.multiply %18, %21 : tensor<8x1024x1024xf32>
    %23 = stablehlo.convert %arg2 : (tensor<1024xf16>) -> tensor<1024xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<8x1024x1024xf32>
    %26 = stablehlo.add %22, %25 : tensor<8x1024x1024xf32>
    %27 = stablehlo.convert %26 : (tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf16>
    %28 = stablehlo.dot_general %27, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x1024x1024xf16>, tensor<1024x3072xf16>) -> tensor<8x1024x3072xf16>
    %29 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<3072xf16>) -> tensor<1x1x3072xf16>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<1x1x3072xf16>) -> tensor<8x1024x3072xf16>
    %31 = stablehlo.add %28, %30 : tensor<8x1024x3072xf16>
    %32 = stablehlo.slice %31 [0:8, 0:1024, 0:1024] : (tensor<8x1024x3072xf16>) -> tensor<8x1024x1024xf16>
    %33 = stablehlo.slice %31 [0:8, 0:1024, 1024:2048] : (tensor<8x1024x3072xf16>) -> tensor<8x1024x1024xf16>
    %34 = stablehlo.slice %31 [0:8, 0:1024, 2048:3072] : (tensor<8x1024x3072xf16>) -> tensor<8x1024x1024xf16>
    %35 = stablehlo.reshape %32 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x16x64xf16>
    %36 = stablehlo.transpose %35, dims = [0, 2, 1, 3] : (tensor<8x1024x16x64xf16>) -> tensor<8x16x1024x64xf16>
    %37 = stablehlo.reshape %33 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x16x64xf16>
    %38 = stablehlo.transpose %37, dims = [0, 2, 1, 3] : (tensor<8x1024x16x64xf16>) -> tensor<8x16x1024x64xf16>
    %39 = stablehlo.reshape %34 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x16x64xf16>
    %40 = stablehlo.transpose %39, dims = [0, 2, 1, 3] : (tensor<8x1024x16x64xf16>) -> tensor<8x16x1024x64xf16>
    %41 = stablehlo.transpose %38, dims = [0, 1, 3, 2] : (tensor<8x16x1024x64xf16>) -> tensor<8x16x64x1024xf16>
    %42 = stablehlo.dot_general %36, %41, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x16x1024x64xf16>, tensor<8x16x64x1024xf16>) -> tensor<8x16x1024x1024xf16>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f16>
    %43 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f16>) -> tensor<8x16x1024x1024xf16>
    %44 = stablehlo.divide %42, %43 : tensor<8x16x1024x1024xf16>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %45 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %46 = call @tril(%45) : (tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %cst_5 = stablehlo.constant dense<0xFC00> : tensor<f16>
    %47 = call @_where(%46, %44, %cst_5) : (tensor<1024x1024xi1>, tensor<8x16x1024x1024xf16>, tensor<f16>) -> tensor<8x16x1024x1024xf16>
    %48 = stablehlo.convert %47 : (tensor<8x16x1024x1024xf16>) -> tensor<8x16x1024x1024xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<8x16x1024x1024xf32>, tensor<f32>) -> tensor<8x16x1024xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<8x16x1024xf32>
    %51 = stablehlo.maximum %50, %49 : tensor<8x16x1024xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] : (tensor<8x16x1024xf32>) -> tensor<8x16x1024x1xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<8x16x1024x1xf32>) -> tensor<8x16x1024x1024xf32>
    %54 = stablehlo.subtract %48, %53 : tensor<8x16x1024x1024xf32>
    %55 = stablehlo.exponential %54 : tensor<8x16x1024x1024xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_8) applies stablehlo.add across dimensions = [3] : (tensor<8x16x1024x1024xf32>, tensor<f32>) -> tensor<8x16x1024xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1, 2] : (tensor<8x16x1024xf32>) -> tensor<8x16x1024x1xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3] : (tensor<8x16x1024x1xf32>) -> tensor<8x16x1024x1024xf32>
    %59 = stablehlo.divide %55, %58 : tensor<8x16x1024x1024xf32>
    %60 = stablehlo.convert %59 : (tensor<8x16x1024x1024xf32>) -> tensor<8x16x1024x1024xf16>
    %61 = stablehlo.dot_general %60, %40, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x16x1024x1024xf16>, tensor<8x16x1024x64xf16>) -> tensor<8x16x1024x64xf16>
    %62 = stablehlo.transpose %61, dims = [0, 2, 1, 3] : (tensor<8x16x1024x64xf16>) -> tensor<8x1024x16x64xf16>
    %63 = stablehlo.reshape %62 : (tensor<8x1024x16x64xf16>) -> tensor<8x1024x1024xf16>
    %64 = stablehlo.dot_general %63, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x1024x1024xf16>, tensor<1024x1024xf16>) -> tensor<8x1024x1024xf16>
    %65 = stablehlo.add %arg0, %64 : tensor<8x1024x1024xf16>
    %66 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<1024xf16>) -> tensor<1x1x1024xf16>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<1x1x1024xf16>) -> tensor<8x1024x1024xf16>
    %68 = stablehlo.add %65, %67 : tensor<8x1024x1024xf16>
    %69 = stablehlo.convert %68 : (tensor<8x1024x1024xf16>) -> tensor<8x1024x1024xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%69 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<8x1024x1024xf32>, tensor<f32>) -> tensor<8x1024xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %cst_10 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<8x1024x1xf32>
    %73 = stablehlo.divide %71, %72 : tensor<8x1024x1xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %75 = stablehlo.subtract %69, %74 : tensor<8x1024x1024xf32>
    %76 = stablehlo.multiply %75, %75 : tensor<8x1024x1024xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.reduce(%76 init: %cst_11) applies stablehlo.add across dimensions = [2] : (tensor<8x1024x1024xf32>, tensor<f32>) -> tensor<8x1024xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<8x1024xf32>) -> tensor<8x1024x1xf32>
    %cst_12 = stablehlo.constant dense<1.024000e+03> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<8x1024x1xf32>
    %80 = stablehlo.divide %78, %79 : tensor<8x1024x1xf32>
    %81 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %82 = stablehlo.subtract %69, %81 : tensor<8x1024x1024xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x1024x1xf32>
    %84 = stablehlo.add %80, %83 : tensor<8x1024x1xf32>
    %85 = stablehlo.rsqrt %84 : tensor<8x1024x1xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0, 1, 2] : (tensor<8x1024x1xf32>) -> tensor<8x1024x1024xf32>
    %87 = stablehlo.multiply %82, %86 : tensor<8x1024x1024xf32>
    %88 = stablehlo.convert %arg7 : (tensor<1024xf16>) -> tensor<1024xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<8x1024x1024xf32>
    %91 = stablehlo.multiply %87, %90 : tensor<8x1024x1024xf32>
    %92 = stablehlo.convert %arg8 : (tensor<1024xf16>) -> tensor<1024xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [2] : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x1024xf32>) -> tensor<8x1024x1024xf32>
    %95 = stablehlo.add %91, %94 : tensor<8x1024x1024xf32>
    %96 = stablehlo.convert %95 : (tensor<8x1024x1024xf32>) -> tensor<8x1024x1024xf16>
    %97 = stablehlo.dot_general %96, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x1024x1024xf16>, tensor<1024x4096xf16>) -> tensor<8x1024x4096xf16>
    %98 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<4096xf16>) -> tensor<1x1x4096xf16>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2] : (tensor<1x1x4096xf16>) -> tensor<8x1024x4096xf16>
    %100 = stablehlo.add %97, %99 : tensor<8x1024x4096xf16>
    %101 = stablehlo.multiply %100, %100 : tensor<8x1024x4096xf16>
    %102 = stablehlo.multiply %101, %100 : tensor<8x1024x4096xf16>
    %cst_14 = stablehlo.constant dense<4.470830e-02> : tensor<f16>
    %103 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
    %104 = stablehlo.multiply %103, %102 : tensor<8x1024x4096xf16>
    %105 = stablehlo.add %100, %104 : tensor<8x1024x4096xf16>
    %cst_15 = stablehlo.constant dense<7.978520e-01> : tensor<f16>
    %106 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
    %107 = stablehlo.multiply %106, %105 : tensor<8x1024x4096xf16>
    %108 = stablehlo.tanh %107 : tensor<8x1024x4096xf16>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %109 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
    %110 = stablehlo.add %109, %108 : tensor<8x1024x4096xf16>
    %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f16>
    %111 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f16>) -> tensor<8x1024x4096xf16>
    %112 = stablehlo.multiply %111, %110 : tensor<8x1024x4096xf16>
    %113 = stablehlo.multiply %100, %112 : tensor<8x1024x4096xf16>
    %114 = stablehlo.dot_general %113, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x1024x4096xf16>, tensor<4096x1024xf16>) -> tensor<8x1024x1024xf16>
    %115 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<1024xf16>) -> tensor<1x1x1024xf16>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1, 2] : (tensor<1x1x1024xf16>) -> tensor<8x1024x1024xf16>
    %117 = stablehlo.add %114, %116 : tensor<8x1024x1024xf16>
    %118 = stablehlo.add %68, %117 : tensor<8x1024x1024xf16>
    return %118 : tensor<8x1024x1024xf16>
  }
  func.func private @tril(%arg0: tensor<1024x1024xi1>) -> tensor<1024x1024xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<1024x1024xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1024x1024xi32>
    %2 = stablehlo.add %0, %1 : tensor<1024x1024xi32>
    %3 = stablehlo.iota dim = 1 : tensor<1024x1024xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<1024x1024xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<1024x1024xi1>, tensor<1024x1024xi1>
    return %6 : tensor<1024x1024xi1>
  }
  func.func private @_where(%arg0: tensor<1024x1024xi1>, %arg1: tensor<8x16x1024x1024xf16>, %arg2: tensor<f16>) -> tensor<8x16x1024x1024xf16> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<1024x1024xi1>) -> tensor<8x16x1024x1024xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f16>) -> tensor<8x16x1024x1024xf16>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<8x16x1024x1024xi1>, tensor<8x16x1024x1024xf16>
    return %2 : tensor<8x16x1024x1024xf16>
  }
}
