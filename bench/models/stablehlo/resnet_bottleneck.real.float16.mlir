module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x56x56x256xf16>, %arg1: tensor<1x1x256x64xf16>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<3x3x64x64xf16>, %arg5: tensor<64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<1x1x64x256xf16>, %arg8: tensor<256xf32>, %arg9: tensor<256xf32>) -> (tensor<32x56x56x256xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x56x56x256xf16>, tensor<1x1x256x64xf16>) -> tensor<32x56x56x64xf16>
    %1 = stablehlo.convert %0 : (tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<32x56x56x64xf32>
    %4 = stablehlo.multiply %1, %3 : tensor<32x56x56x64xf32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<32x56x56x64xf32>
    %7 = stablehlo.add %4, %6 : tensor<32x56x56x64xf32>
    %8 = stablehlo.convert %7 : (tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf16>
    %9 = call @relu(%8) : (tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
    %10 = stablehlo.convolution(%9, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x56x56x64xf16>, tensor<3x3x64x64xf16>) -> tensor<32x56x56x64xf16>
    %11 = stablehlo.convert %10 : (tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf32>
    %12 = stablehlo.broadcast_in_dim %arg5, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<32x56x56x64xf32>
    %14 = stablehlo.multiply %11, %13 : tensor<32x56x56x64xf32>
    %15 = stablehlo.broadcast_in_dim %arg6, dims = [3] : (tensor<64xf32>) -> tensor<1x1x1x64xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<1x1x1x64xf32>) -> tensor<32x56x56x64xf32>
    %17 = stablehlo.add %14, %16 : tensor<32x56x56x64xf32>
    %18 = stablehlo.convert %17 : (tensor<32x56x56x64xf32>) -> tensor<32x56x56x64xf16>
    %19 = call @relu(%18) : (tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
    %20 = stablehlo.convolution(%19, %arg7) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<32x56x56x64xf16>, tensor<1x1x64x256xf16>) -> tensor<32x56x56x256xf16>
    %21 = stablehlo.convert %20 : (tensor<32x56x56x256xf16>) -> tensor<32x56x56x256xf32>
    %22 = stablehlo.broadcast_in_dim %arg8, dims = [3] : (tensor<256xf32>) -> tensor<1x1x1x256xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2, 3] : (tensor<1x1x1x256xf32>) -> tensor<32x56x56x256xf32>
    %24 = stablehlo.multiply %21, %23 : tensor<32x56x56x256xf32>
    %25 = stablehlo.broadcast_in_dim %arg9, dims = [3] : (tensor<256xf32>) -> tensor<1x1x1x256xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2, 3] : (tensor<1x1x1x256xf32>) -> tensor<32x56x56x256xf32>
    %27 = stablehlo.add %24, %26 : tensor<32x56x56x256xf32>
    %28 = stablehlo.convert %27 : (tensor<32x56x56x256xf32>) -> tensor<32x56x56x256xf16>
    %29 = stablehlo.add %28, %arg0 : tensor<32x56x56x256xf16>
    %30 = call @relu_0(%29) : (tensor<32x56x56x256xf16>) -> tensor<32x56x56x256xf16>
    return %30 : tensor<32x56x56x256xf16>
  }
  func.func private @relu(%arg0: tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<32x56x56x64xf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x56x56x64xf16>
    return %1 : tensor<32x56x56x64xf16>
  }
  func.func private @relu_0(%arg0: tensor<32x56x56x256xf16>) -> tensor<32x56x56x256xf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<32x56x56x256xf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x56x56x256xf16>
    return %1 : tensor<32x56x56x256xf16>
  }
}
