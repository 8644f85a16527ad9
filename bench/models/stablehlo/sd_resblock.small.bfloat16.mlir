module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x8x8x64xbf16>, %arg1: tensor<1x32xbf16>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<3x3x64x64xbf16>, %arg5: tensor<64xbf16>, %arg6: tensor<32x64xbf16>, %arg7: tensor<64xbf16>, %arg8: tensor<64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<3x3x64x64xbf16>, %arg11: tensor<64xbf16>) -> (tensor<1x8x8x64xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x8x8x64xf32>) -> tensor<1x8x8x32x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<1x8x8x32x2xf32>, tensor<f32>) -> tensor<1x32xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<1x32xf32>) -> tensor<1x1x1x32x1xf32>
    %cst_0 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x32x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<1x1x1x32x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x1xf32>) -> tensor<1x8x8x32x2xf32>
    %7 = stablehlo.subtract %1, %6 : tensor<1x8x8x32x2xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<1x8x8x32x2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<1x8x8x32x2xf32>, tensor<f32>) -> tensor<1x32xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 3] : (tensor<1x32xf32>) -> tensor<1x1x1x32x1xf32>
    %cst_2 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x1x1x32x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<1x1x1x32x1xf32>
    %13 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x1xf32>) -> tensor<1x8x8x32x2xf32>
    %14 = stablehlo.subtract %1, %13 : tensor<1x8x8x32x2xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x1x1x32x1xf32>
    %16 = stablehlo.add %12, %15 : tensor<1x1x1x32x1xf32>
    %17 = stablehlo.rsqrt %16 : tensor<1x1x1x32x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x1xf32>) -> tensor<1x8x8x32x2xf32>
    %19 = stablehlo.multiply %14, %18 : tensor<1x8x8x32x2xf32>
    %20 = stablehlo.reshape %19 : (tensor<1x8x8x32x2xf32>) -> tensor<1x8x8x64xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<1x8x8x64xf32>
    %23 = stablehlo.multiply %20, %22 : tensor<1x8x8x64xf32>
    %24 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<1x8x8x64xf32>
    %26 = stablehlo.add %23, %25 : tensor<1x8x8x64xf32>
    %27 = stablehlo.convert %26 : (tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xbf16>
    %28 = call @silu(%27) : (tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xbf16>
    %29 = stablehlo.convolution(%28, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x64xbf16>, tensor<3x3x64x64xbf16>) -> tensor<1x8x8x64xbf16>
    %30 = stablehlo.broadcast_in_dim %arg5, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<1x8x8x64xbf16>
    %32 = stablehlo.add %29, %31 : tensor<1x8x8x64xbf16>
    %33 = call @silu_0(%arg1) : (tensor<1x32xbf16>) -> tensor<1x32xbf16>
    %34 = stablehlo.dot_general %33, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x32xbf16>, tensor<32x64xbf16>) -> tensor<1x64xbf16>
    %35 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xbf16>) -> tensor<1x64xbf16>
    %36 = stablehlo.add %34, %35 : tensor<1x64xbf16>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 3] : (tensor<1x64xbf16>) -> tensor<1x1x1x64xbf16>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<1x8x8x64xbf16>
    %39 = stablehlo.add %32, %38 : tensor<1x8x8x64xbf16>
    %40 = stablehlo.convert %39 : (tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xf32>
    %41 = stablehlo.reshape %40 : (tensor<1x8x8x64xf32>) -> tensor<1x8x8x32x2xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.reduce(%41 init: %cst_4) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<1x8x8x32x2xf32>, tensor<f32>) -> tensor<1x32xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 3] : (tensor<1x32xf32>) -> tensor<1x1x1x32x1xf32>
    %cst_5 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x1x1x32x1xf32>
    %45 = stablehlo.divide %43, %44 : tensor<1x1x1x32x1xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x1xf32>) -> tensor<1x8x8x32x2xf32>
    %47 = stablehlo.subtract %41, %46 : tensor<1x8x8x32x2xf32>
    %48 = stablehlo.multiply %47, %47 : tensor<1x8x8x32x2xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_6) applies stablehlo.add across dimensions = [1, 2, 4] : (tensor<1x8x8x32x2xf32>, tensor<f32>) -> tensor<1x32xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 3] : (tensor<1x32xf32>) -> tensor<1x1x1x32x1xf32>
    %cst_7 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x1x1x32x1xf32>
    %52 = stablehlo.divide %50, %51 : tensor<1x1x1x32x1xf32>
    %53 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x1xf32>) -> tensor<1x8x8x32x2xf32>
    %54 = stablehlo.subtract %41, %53 : tensor<1x8x8x32x2xf32>
    %cst_8 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<1x1x1x32x1xf32>
    %56 = stablehlo.add %52, %55 : tensor<1x1x1x32x1xf32>
    %57 = stablehlo.rsqrt %56 : tensor<1x1x1x32x1xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2, 3, 4] : (tensor<1x1x1x32x1xf32>) -> tensor<1x8x8x32x2xf32>
    %59 = stablehlo.multiply %54, %58 : tensor<1x8x8x32x2xf32>
    %60 = stablehlo.reshape %59 : (tensor<1x8x8x32x2xf32>) -> tensor<1x8x8x64xf32>
    %61 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<1x8x8x64xf32>
    %63 = stablehlo.multiply %60, %62 : tensor<1x8x8x64xf32>
    %64 = stablehlo.broadcast_in_dim %arg9, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<1x8x8x64xf32>
    %66 = stablehlo.add %63, %65 : tensor<1x8x8x64xf32>
    %67 = stablehlo.convert %66 : (tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xbf16>
    %68 = call @silu(%67) : (tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xbf16>
    %69 = stablehlo.convolution(%68, %arg10) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x64xbf16>, tensor<3x3x64x64xbf16>) -> tensor<1x8x8x64xbf16>
    %70 = stablehlo.broadcast_in_dim %arg11, dims = [3] : (tensor<64xbf16>) -> tensor<1x1x1x64xbf16>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xbf16>) -> tensor<1x8x8x64xbf16>
    %72 = stablehlo.add %69, %71 : tensor<1x8x8x64xbf16>
    %73 = stablehlo.add %arg0, %72 : tensor<1x8x8x64xbf16>
    return %73 : tensor<1x8x8x64xbf16>
  }
  func.func private @silu(%arg0: tensor<1x8x8x64xbf16>) -> tensor<1x8x8x64xbf16> {
    %0 = stablehlo.negate %arg0 : tensor<1x8x8x64xbf16>
    %1 = stablehlo.exponential %0 : tensor<1x8x8x64xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<1x8x8x64xbf16>
    %3 = stablehlo.add %2, %1 : tensor<1x8x8x64xbf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<1x8x8x64xbf16>
    %5 = stablehlo.divide %4, %3 : tensor<1x8x8x64xbf16>
    %6 = stablehlo.multiply %arg0, %5 : tensor<1x8x8x64xbf16>
    return %6 : tensor<1x8x8x64xbf16>
  }
  func.func private @silu_0(%arg0: tensor<1x32xbf16>) -> tensor<1x32xbf16> {
    %0 = stablehlo.negate %arg0 : tensor<1x32xbf16>
    %1 = stablehlo.exponential %0 : tensor<1x32xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<1x32xbf16>
    %3 = stablehlo.add %2, %1 : tensor<1x32xbf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<1x32xbf16>
    %5 = stablehlo.divide %4, %3 : tensor<1x32xbf16>
    %6 = stablehlo.multiply %arg0, %5 : tensor<1x32xbf16>
    return %6 : tensor<1x32xbf16>
  }
}
