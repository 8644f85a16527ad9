module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x197x768xf16>, %arg1: tensor<768xf16>, %arg2: tensor<768xf16>, %arg3: tensor<768x2304xf16>, %arg4: tensor<2304xf16>, %arg5: tensor<768x768xf16>, %arg6: tensor<768xf16>, %arg7: tensor<768xf16>, %arg8: tensor<768xf16>, %arg9: tensor<768x3072xf16>, %arg10: tensor<3072xf16>, %arg11: tensor<3072x768xf16>, %arg12: tensor<768xf16>) -> (tensor<32x197x768xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<32x197x768xf16>) -> tensor<32x197x768xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<32x197x768xf32>, tensor<f32>) -> tensor<32x197xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<32x197xf32>) -> tensor<32x197x1xf32>
    %cst_0 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x197x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<32x197x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<32x197x1xf32>) -> tensor<32x197x768xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<32x197x768xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<32x197x768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<32x197x768xf32>, tensor<f32>) -> tensor<32x197xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<32x197xf32>) -> tensor<32x197x1xf32>
    %cst_2 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x197x1xf32>
    %11 = stablehlo.divide %9, %10 : tensor<32x197x1xf32>
    %12 = stablehlo.broadcast_in_dim %4, dims = [0, 1, 2] : (tensor<32x197x1xf32>) -> tensor<32x197x768xf32>
    %13 = stablehlo.subtract %0, %12 : tensor<32x197x768xf32>
    %cst_3 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x197x1xf32>
    %15 = stablehlo.add %11, %14 : tensor<32x197x1xf32>
    %16 = stablehlo.rsqrt %15 : tensor<32x197x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2] : (tensor<32x197x1xf32>) -> tensor<32x197x768xf32>
    %18 = stablehlo.multiply %13, %17 : tensor<32x197x768xf32>
    %19 = stablehlo.convert %arg1 : (tensor<768xf16>) -> tensor<768xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<32x197x768xf32>
    %22 = stablehlo.multiply %18, %21 : tensor<32x197x768xf32>
    %23 = stablehlo.convert %arg2 : (tensor<768xf16>) -> tensor<768xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<32x197x768xf32>
    %26 = stablehlo.add %22, %25 : tensor<32x197x768xf32>
    %27 = stablehlo.convert %26 : (tensor<32x197x768xf32>) -> tensor<32x197x768xf16>
    %28 = stablehlo.dot_general %27, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x197x768xf16>, tensor<768x2304xf16>) -> tensor<32x197x2304xf16>
    %29 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<2304xf16>) -> tensor<1x1x2304xf16>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<1x1x2304xf16>) -> tensor<32x197x2304xf16>
    %31 = stablehlo.add %28, %30 : tensor<32x197x2304xf16>
    %32 = stablehlo.slice %31 [0:32, 0:197, 0:768] : (tensor<32x197x2304xf16>) -> tensor<32x197x768xf16>
    %33 = stablehlo.slice %31 [0:32, 0:197, 768:1536] : (tensor<32x197x2304xf16>) -> tensor<32x197x768xf16>
    %34 = stablehlo.slice %31 [0:32, 0:197, 1536:2304] : (tensor<32x197x2304xf16>) -> tensor<32x197x768xf16>
    %35 = stablehlo.reshape %32 : (tensor<32x197x768xf16>) -> tensor<32x197x12x64xf16>
    %36 = stablehlo.transpose %35, dims = [0, 2, 1, 3] : (tensor<32x197x12x64xf16>) -> tensor<32x12x197x64xf16>
    %37 = stablehlo.reshape %33 : (tensor<32x197x768xf16>) -> tensor<32x197x12x64xf16>
    %38 = stablehlo.transpose %37, dims = [0, 2, 1, 3] : (tensor<32x197x12x64xf16>) -> tensor<32x12x197x64xf16>
    %39 = stablehlo.reshape %34 : (tensor<32x197x768xf16>) -> tensor<32x197x12x64xf16>
    %40 = stablehlo.transpose %39, dims = [0, 2, 1, 3] : (tensor<32x197x12x64xf16>) -> tensor<32x12x197x64xf16>
    %41 = stablehlo.transpose %38, dims = [0, 1, 3, 2] : (tensor<32x12x197x64xf16>) -> tensor<32x12x64x197xf16>
    %42 = stablehlo.dot_general %36, %41, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x12x197x64xf16>, tensor<32x12x64x197xf16>) -> tensor<32x12x197x197xf16>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f16>
    %43 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f16>) -> tensor<32x12x197x197xf16>
    %44 = stablehlo.divide %42, %43 : tensor<32x12x197x197xf16>
    %45 = stablehlo.convert %44 : (tensor<32x12x197x197xf16>) -> tensor<32x12x197x197xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_5) applies stablehlo.maximum across dimensions = [3] : (tensor<32x12x197x197xf32>, tensor<f32>) -> tensor<32x12x197xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x12x197xf32>
    %48 = stablehlo.maximum %47, %46 : tensor<32x12x197xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<32x12x197xf32>) -> tensor<32x12x197x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<32x12x197x1xf32>) -> tensor<32x12x197x197xf32>
    %51 = stablehlo.subtract %45, %50 : tensor<32x12x197x197xf32>
    %52 = stablehlo.exponential %51 : tensor<32x12x197x197xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %53 = stablehlo.reduce(%52 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<32x12x197x197xf32>, tensor<f32>) -> tensor<32x12x197xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<32x12x197xf32>) -> tensor<32x12x197x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2, 3] : (tensor<32x12x197x1xf32>) -> tensor<32x12x197x197xf32>
    %56 = stablehlo.divide %52, %55 : tensor<32x12x197x197xf32>
    %57 = stablehlo.convert %56 : (tensor<32x12x197x197xf32>) -> tensor<32x12x197x197xf16>
    %58 = stablehlo.dot_general %57, %40, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<32x12x197x197xf16>, tensor<32x12x197x64xf16>) -> tensor<32x12x197x64xf16>
    %59 = stablehlo.transpose %58, dims = [0, 2, 1, 3] : (tensor<32x12x197x64xf16>) -> tensor<32x197x12x64xf16>
    %60 = stablehlo.reshape %59 : (tensor<32x197x12x64xf16>) -> tensor<32x197x768xf16>
    %61 = stablehlo.dot_general %60, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x197x768xf16>, tensor<768x768xf16>) -> tensor<32x197x768xf16>
    %62 = stablehlo.add %arg0, %61 : tensor<32x197x768xf16>
    %63 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<768xf16>) -> tensor<1x1x768xf16>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<1x1x768xf16>) -> tensor<32x197x768xf16>
    %65 = stablehlo.add %62, %64 : tensor<32x197x768xf16>
    %66 = stablehlo.convert %65 : (tensor<32x197x768xf16>) -> tensor<32x197x768xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %67 = stablehlo.reduce(%66 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<32x197x768xf32>, tensor<f32>) -> tensor<32x197xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1] : (tensor<32x197xf32>) -> tensor<32x197x1xf32>
    %cst_9 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x197x1xf32>
    %70 = stablehlo.divide %68, %69 : tensor<32x197x1xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<32x197x1xf32>) -> tensor<32x197x768xf32>
    %72 = stablehlo.subtract %66, %71 : tensor<32x197x768xf32>
    %73 = stablehlo.multiply %72, %72 : tensor<32x197x768xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.reduce(%73 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<32x197x768xf32>, tensor<f32>) -> tensor<32x197xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<32x197xf32>) -> tensor<32x197x1xf32>
    %cst_11 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<32x197x1xf32>
    %77 = stablehlo.divide %75, %76 : tensor<32x197x1xf32>
    %78 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<32x197x1xf32>) -> tensor<32x197x768xf32>
    %79 = stablehlo.subtract %66, %78 : tensor<32x197x768xf32>
    %cst_12 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<32x197x1xf32>
    %81 = stablehlo.add %77, %80 : tensor<32x197x1xf32>
    %82 = stablehlo.rsqrt %81 : tensor<32x197x1xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<32x197x1xf32>) -> tensor<32x197x768xf32>
    %84 = stablehlo.multiply %79, %83 : tensor<32x197x768xf32>
    %85 = stablehlo.convert %arg7 : (tensor<768xf16>) -> tensor<768xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<32x197x768xf32>
    %88 = stablehlo.multiply %84, %87 : tensor<32x197x768xf32>
    %89 = stablehlo.convert %arg8 : (tensor<768xf16>) -> tensor<768xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<32x197x768xf32>
    %92 = stablehlo.add %88, %91 : tensor<32x197x768xf32>
    %93 = stablehlo.convert %92 : (tensor<32x197x768xf32>) -> tensor<32x197x768xf16>
    %94 = stablehlo.dot_general %93, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x197x768xf16>, tensor<768x3072xf16>) -> tensor<32x197x3072xf16>
    %95 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<3072xf16>) -> tensor<1x1x3072xf16>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1, 2] : (tensor<1x1x3072xf16>) -> tensor<32x197x3072xf16>
    %97 = stablehlo.add %94, %96 : tensor<32x197x3072xf16>
    %cst_13 = stablehlo.constant dense<5.000000e-01> : tensor<f16>
    %98 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f16>) -> tensor<32x197x3072xf16>
    %99 = stablehlo.multiply %98, %97 : tensor<32x197x3072xf16>
    %100 = stablehlo.negate %97 : tensor<32x197x3072xf16>
    %cst_14 = stablehlo.constant dense<7.070310e-01> : tensor<f16>
    %101 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f16>) -> tensor<32x197x3072xf16>
    %102 = stablehlo.multiply %100, %101 : tensor<32x197x3072xf16>
    %103 = chlo.erfc %102 : tensor<32x197x3072xf16> -> tensor<32x197x3072xf16>
    %104 = stablehlo.multiply %99, %103 : tensor<32x197x3072xf16>
    %105 = stablehlo.dot_general %104, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x197x3072xf16>, tensor<3072x768xf16>) -> tensor<32x197x768xf16>
    %106 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<768xf16>) -> tensor<1x1x768xf16>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<1x1x768xf16>) -> tensor<32x197x768xf16>
    %108 = stablehlo.add %105, %107 : tensor<32x197x768xf16>
    %109 = stablehlo.add %65, %108 : tensor<32x197x768xf16>
    return %109 : tensor<32x197x768xf16>
  }
}
