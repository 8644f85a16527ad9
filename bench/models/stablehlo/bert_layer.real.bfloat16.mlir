module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x512x768xbf16>, %arg1: tensor<8x512xi32>, %arg2: tensor<768x768xbf16>, %arg3: tensor<768xbf16>, %arg4: tensor<768x768xbf16>, %arg5: tensor<768xbf16>, %arg6: tensor<768x768xbf16>, %arg7: tensor<768xbf16>, %arg8: tensor<768x768xbf16>, %arg9: tensor<768xbf16>, %arg10: tensor<768xbf16>, %arg11: tensor<768xbf16>, %arg12: tensor<768x3072xbf16>, %arg13: tensor<3072xbf16>, %arg14: tensor<3072x768xbf16>, %arg15: tensor<768xbf16>, %arg16: tensor<768xbf16>, %arg17: tensor<768xbf16>) -> (tensor<8x512x768xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %2 = stablehlo.subtract %1, %0 : tensor<8x512xbf16>
    %cst_0 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %4 = stablehlo.multiply %2, %3 : tensor<8x512xbf16>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %6 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %7 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %9 = stablehlo.add %6, %8 : tensor<8x512x768xbf16>
    %10 = stablehlo.reshape %9 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %11 = stablehlo.transpose %10, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %12 = stablehlo.dot_general %arg0, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %13 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %15 = stablehlo.add %12, %14 : tensor<8x512x768xbf16>
    %16 = stablehlo.reshape %15 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %17 = stablehlo.transpose %16, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %18 = stablehlo.dot_general %arg0, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %19 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %21 = stablehlo.add %18, %20 : tensor<8x512x768xbf16>
    %22 = stablehlo.reshape %21 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %23 = stablehlo.transpose %22, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %24 = stablehlo.transpose %17, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %25 = stablehlo.dot_general %11, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_1 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %26 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %27 = stablehlo.divide %25, %26 : tensor<8x12x512x512xbf16>
    %28 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %29 = stablehlo.add %27, %28 : tensor<8x12x512x512xbf16>
    %30 = stablehlo.convert %29 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_2) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %33 = stablehlo.maximum %32, %31 : tensor<8x12x512xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %36 = stablehlo.subtract %30, %35 : tensor<8x12x512x512xf32>
    %37 = stablehlo.exponential %36 : tensor<8x12x512x512xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%37 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %41 = stablehlo.divide %37, %40 : tensor<8x12x512x512xf32>
    %42 = stablehlo.convert %41 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %43 = stablehlo.dot_general %42, %23, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %44 = stablehlo.transpose %43, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %45 = stablehlo.reshape %44 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %46 = stablehlo.dot_general %45, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %47 = stablehlo.add %arg0, %46 : tensor<8x512x768xbf16>
    %48 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %50 = stablehlo.add %47, %49 : tensor<8x512x768xbf16>
    %51 = stablehlo.convert %50 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_6 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %55 = stablehlo.divide %53, %54 : tensor<8x512x1xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %57 = stablehlo.subtract %51, %56 : tensor<8x512x768xf32>
    %58 = stablehlo.multiply %57, %57 : tensor<8x512x768xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%58 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_8 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %62 = stablehlo.divide %60, %61 : tensor<8x512x1xf32>
    %63 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %64 = stablehlo.subtract %51, %63 : tensor<8x512x768xf32>
    %cst_9 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %66 = stablehlo.add %62, %65 : tensor<8x512x1xf32>
    %67 = stablehlo.rsqrt %66 : tensor<8x512x1xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %69 = stablehlo.multiply %64, %68 : tensor<8x512x768xf32>
    %70 = stablehlo.convert %arg10 : (tensor<768xbf16>) -> tensor<768xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %73 = stablehlo.multiply %69, %72 : tensor<8x512x768xf32>
    %74 = stablehlo.convert %arg11 : (tensor<768xbf16>) -> tensor<768xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %77 = stablehlo.add %73, %76 : tensor<8x512x768xf32>
    %78 = stablehlo.convert %77 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %79 = stablehlo.dot_general %78, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %80 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %82 = stablehlo.add %79, %81 : tensor<8x512x3072xbf16>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %83 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %84 = stablehlo.multiply %83, %82 : tensor<8x512x3072xbf16>
    %85 = stablehlo.negate %82 : tensor<8x512x3072xbf16>
    %cst_11 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %86 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %87 = stablehlo.multiply %85, %86 : tensor<8x512x3072xbf16>
    %88 = chlo.erfc %87 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %89 = stablehlo.multiply %84, %88 : tensor<8x512x3072xbf16>
    %90 = stablehlo.dot_general %89, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %91 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %93 = stablehlo.add %90, %92 : tensor<8x512x768xbf16>
    %94 = stablehlo.add %78, %93 : tensor<8x512x768xbf16>
    %95 = stablehlo.convert %94 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_13 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %99 = stablehlo.divide %97, %98 : tensor<8x512x1xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %101 = stablehlo.subtract %95, %100 : tensor<8x512x768xf32>
    %102 = stablehlo.multiply %101, %101 : tensor<8x512x768xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %103 = stablehlo.reduce(%102 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_15 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %106 = stablehlo.divide %104, %105 : tensor<8x512x1xf32>
    %107 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %108 = stablehlo.subtract %95, %107 : tensor<8x512x768xf32>
    %cst_16 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %110 = stablehlo.add %106, %109 : tensor<8x512x1xf32>
    %111 = stablehlo.rsqrt %110 : tensor<8x512x1xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %113 = stablehlo.multiply %108, %112 : tensor<8x512x768xf32>
    %114 = stablehlo.convert %arg16 : (tensor<768xbf16>) -> tensor<768xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %117 = stablehlo.multiply %113, %116 : tensor<8x512x768xf32>
    %118 = stablehlo.convert %arg17 : (tensor<768xbf16>) -> tensor<768xf32>
    %119 = stablehlo.broadcast_in_dim %118, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %121 = stablehlo.add %117, %120 : tensor<8x512x768xf32>
    %122 = stablehlo.convert %121 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    return %122 : tensor<8x512x768xbf16>
  }
}
