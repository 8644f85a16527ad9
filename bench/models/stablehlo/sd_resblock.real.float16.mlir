module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x64x64x320xf16>, %arg1: tensor<2x1280xf16>, %arg2: tensor<320xf32>, %arg3: tensor<320xf32>, %arg4: tensor<3x3x320x320xf16>, %arg5: tensor<320xf16>, %arg6: tensor<1280x320xf16>, %arg7: tensor<320xf16>, %arg8: tensor<320xf32>, %arg9: tensor<320xf32>, %arg10: tensor<3x3x320x320xf16>, %arg11: tensor<320xf16>) -> (tensor<2x64x64x320xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<2x64x64x320xf16>) -> tensor<2x64x64x320xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x64x64x320xf32>) -> tensor<2x64x64x32x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<2x64x64x32x10xf32>, tensor<f32>) -> tensor<2x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<2x32xf32>) -> tensor<2x1x1x32x1xf32>
    %cst_0 = stablehlo.constant dense<4.096000e+04> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x1x1x32x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<2x1x1x32x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3, 4] : (tensor<2x1x1x32x1xf32>) -> tensor<2x64x64x32x10xf32>
    %7 = stablehlo.subtract %1, %6 : tensor<2x64x64x32x10xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<2x64x64x32x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<2x64x64x32x10xf32>, tensor<f32>) -> tensor<2x32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 3] : (tensor<2x32xf32>) -> tensor<2x1x1x32x1xf32>
    %cst_2 = stablehlo.constant dense<4.096000e+04> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x1x1x32x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x1x1x32x1xf32>
    %13 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3, 4] : (tensor<2x1x1x32x1xf32>) -> tensor<2x64x64x32x10xf32>
    %14 = stablehlo.subtract %1, %13 : tensor<2x64x64x32x10xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x1x1x32x1xf32>
    %16 = stablehlo.add %12, %15 : tensor<2x1x1x32x1xf32>
    %17 = stablehlo.rsqrt %16 : tensor<2x1x1x32x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3, 4] : (tensor<2x1x1x32x1xf32>) -> tensor<2x64x64x32x10xf32>
    %19 = stablehlo.multiply %14, %18 : tensor<2x64x64x32x10xf32>
    %20 = stablehlo.reshape %19 : (tensor<2x64x64x32x10xf32>) -> tensor<2x64x64x320xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<320xf32>) -> tensor<1x1x1x320xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<1x1x1x320xf32>) -> tensor<2x64x64x320xf32>
    %23 = stablehlo.multiply %20, %22 : tensor<2x64x64x320xf32>
    %24 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<320xf32>) -> tensor<1x1x1x320xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<1x1x1x320xf32>) -> tensor<2x64x64x320xf32>
    %26 = stablehlo.add %23, %25 : tensor<2x64x64x320xf32>
    %27 = stablehlo.convert %26 : (tensor<2x64x64x320xf32>) -> tensor<2x64x64x320xf16>
    %28 = call @silu(%27) : (tensor<2x64x64x320xf16>) -> tensor<2x64x64x320xf16>
    %29 = stablehlo.convolution(%28, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x64x64x320xf16>, tensor<3x3x320x320xf16>) -> tensor<2x64x64x320xf16>
    %30 = stablehlo.broadcast_in_dim %arg5, dims = [3] : (tensor<320xf16>) -> tensor<1x1x1x320xf16>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2, 3] : (tensor<1x1x1x320xf16>) -> tensor<2x64x64x320xf16>
    %32 = stablehlo.add %29, %31 : tensor<2x64x64x320xf16>
    %33 = call @silu_0(%arg1) : (tensor<2x1280xf16>) -> tensor<2x1280xf16>
    %34 = stablehlo.dot_general %33, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x1280xf16>, tensor<1280x320xf16>) -> tensor<2x320xf16>
    %35 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<320xf16>) -> tensor<1x320xf16>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1] : (tensor<1x320xf16>) -> tensor<2x320xf16>
    %37 = stablehlo.add %34, %36 : tensor<2x320xf16>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 3] : (tensor<2x320xf16>) -> tensor<2x1x1x320xf16>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2, 3] : (tensor<2x1x1x320xf16>) -> tensor<2x64x64x320xf16>
    %40 = stablehlo.add %32, %39 : tensor<2x64x64x320xf16>
    %41 = stablehlo.convert %40 : (tensor<2x64x64x320xf16>) -> tensor<2x64x64x320xf32>
    %42 = stablehlo.reshape %41 : (tensor<2x64x64x320xf32>) -> tensor<2x64x64x32x10xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_4) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<2x64x64x32x10xf32>, tensor<f32>) -> tensor<2x32xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 3] : (tensor<2x32xf32>) -> tensor<2x1x1x32x1xf32>
    %cst_5 = stablehlo.constant dense<4.096000e+04> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x1x1x32x1xf32>
    %46 = stablehlo.divide %44, %45 : tensor<2x1x1x32x1xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3, 4] : (tensor<2x1x1x32x1xf32>) -> tensor<2x64x64x32x10xf32>
    %48 = stablehlo.subtract %42, %47 : tensor<2x64x64x32x10xf32>
    %49 = stablehlo.multiply %48, %48 : tensor<2x64x64x32x10xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_6) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<2x64x64x32x10xf32>, tensor<f32>) -> tensor<2x32xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 3] : (tensor<2x32xf32>) -> tensor<2x1x1x32x1xf32>
    %cst_7 = stablehlo.constant dense<4.096000e+04> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x1x1x32x1xf32>
    %53 = stablehlo.divide %51, %52 : tensor<2x1x1x32x1xf32>
    %54 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2, 3, 4] : (tensor<2x1x1x32x1xf32>) -> tensor<2x64x64x32x10xf32>
    %55 = stablehlo.subtract %42, %54 : tensor<2x64x64x32x10xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2x1x1x32x1xf32>
    %57 = stablehlo.add %53, %56 : tensor<2x1x1x32x1xf32>
    %58 = stablehlo.rsqrt %57 : tensor<2x1x1x32x1xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2, 3, 4] : (tensor<2x1x1x32x1xf32>) -> tensor<2x64x64x32x10xf32>
    %60 = stablehlo.multiply %55, %59 : tensor<2x64x64x32x10xf32>
    %61 = stablehlo.reshape %60 : (tensor<2x64x64x32x10xf32>) -> tensor<2x64x64x320xf32>
    %62 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<320xf32>) -> tensor<1x1x1x320xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2, 3] : (tensor<1x1x1x320xf32>) -> tensor<2x64x64x320xf32>
    %64 = stablehlo.multiply %61, %63 : tensor<2x64x64x320xf32>
    %65 = stablehlo.broadcast_in_dim %arg9, dims = [3] : (tensor<320xf32>) -> tensor<1x1x1x320xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2, 3] : (tensor<1x1x1x320xf32>) -> tensor<2x64x64x320xf32>
    %67 = stablehlo.add %64, %66 : tensor<2x64x64x320xf32>
    %68 = stablehlo.convert %67 : (tensor<2x64x64x320xf32>) -> tensor<2x64x64x320xf16>
    %69 = call @silu(%68) : (tensor<2x64x64x320xf16>) -> tensor<2x64x64x320xf16>
    %70 = stablehlo.convolution(%69, %arg10) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x64x64x320xf16>, tensor<3x3x320x320xf16>) -> tensor<2x64x64x320xf16>
    %71 = stablehlo.broadcast_in_dim %arg11, dims = [3] : (tensor<320xf16>) -> tensor<1x1x1x320xf16>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2, 3] : (tensor<1x1x1x320xf16>) -> tensor<2x64x64x320xf16>
    %73 = stablehlo.add %70, %72 : tensor<2x64x64x320xf16>
    %74 = stablehlo.add %arg0, %73 : tensor<2x64x64x320xf16>
    return %74 : tensor<2x64x64x320xf16>
  }
  func.func private @silu(%arg0: tensor<2x64x64x320xf16>) -> tensor<2x64x64x320xf16> {
    %0 = stablehlo.negate %arg0 : tensor<2x64x64x320xf16>
    %1 = stablehlo.exponential %0 : tensor<2x64x64x320xf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<2x64x64x320xf16>
    %3 = stablehlo.add %2, %1 : tensor<2x64x64x320xf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<2x64x64x320xf16>
    %5 = stablehlo.divide %4, %3 : tensor<2x64x64x320xf16>
    %6 = stablehlo.multiply %arg0, %5 : tensor<2x64x64x320xf16>
    return %6 : tensor<2x64x64x320xf16>
  }
  func.func private @silu_0(%arg0: tensor<2x1280xf16>) -> tensor<2x1280xf16> {
    %0 = stablehlo.negate %arg0 : tensor<2x1280xf16>
    %1 = stablehlo.exponential %0 : tensor<2x1280xf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<2x1280xf16>
    %3 = stablehlo.add %2, %1 : tensor<2x1280xf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<2x1280xf16>
    %5 = stablehlo.divide %4, %3 : tensor<2x1280xf16>
    %6 = stablehlo.multiply %arg0, %5 : tensor<2x1280xf16>
    return %6 : tensor<2x1280xf16>
  }
}
