module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x256x4xf32>, %arg1: tensor<1024x256x4xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1024, 0:256, 0:1] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %2 = stablehlo.slice %arg0 [0:1024, 0:256, 1:2] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %4 = stablehlo.slice %arg0 [0:1024, 0:256, 2:3] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %6 = stablehlo.slice %arg0 [0:1024, 0:256, 3:4] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %7 = stablehlo.reshape %6 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %8 = stablehlo.slice %arg1 [0:1024, 0:256, 0:1] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %9 = stablehlo.reshape %8 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %10 = stablehlo.slice %arg1 [0:1024, 0:256, 1:2] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %11 = stablehlo.reshape %10 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %12 = stablehlo.slice %arg1 [0:1024, 0:256, 2:3] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %13 = stablehlo.reshape %12 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %14 = stablehlo.slice %arg1 [0:1024, 0:256, 3:4] : (tensor<1024x256x4xf32>) -> tensor<1024x256x1xf32>
    %15 = stablehlo.reshape %14 : (tensor<1024x256x1xf32>) -> tensor<1024x256xf32>
    %16 = stablehlo.subtract %5, %1 : tensor<1024x256xf32>
    %17 = stablehlo.subtract %7, %3 : tensor<1024x256xf32>
    %18 = stablehlo.multiply %16, %17 : tensor<1024x256xf32>
    %19 = stablehlo.subtract %13, %9 : tensor<1024x256xf32>
    %20 = stablehlo.subtract %15, %11 : tensor<1024x256xf32>
    %21 = stablehlo.multiply %19, %20 : tensor<1024x256xf32>
    %22 = stablehlo.minimum %5, %13 : tensor<1024x256xf32>
    %23 = stablehlo.maximum %1, %9 : tensor<1024x256xf32>
    %24 = stablehlo.subtract %22, %23 : tensor<1024x256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %26 = stablehlo.maximum %24, %25 : tensor<1024x256xf32>
    %27 = stablehlo.minimum %7, %15 : tensor<1024x256xf32>
    %28 = stablehlo.maximum %3, %11 : tensor<1024x256xf32>
    %29 = stablehlo.subtract %27, %28 : tensor<1024x256xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %31 = stablehlo.maximum %29, %30 : tensor<1024x256xf32>
    %32 = stablehlo.multiply %26, %31 : tensor<1024x256xf32>
    %33 = stablehlo.add %18, %21 : tensor<1024x256xf32>
    %34 = stablehlo.subtract %33, %32 : tensor<1024x256xf32>
    %cst_1 = stablehlo.constant dense<1.000000e-07> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %36 = stablehlo.add %34, %35 : tensor<1024x256xf32>
    %37 = stablehlo.divide %32, %36 : tensor<1024x256xf32>
    %38 = stablehlo.maximum %5, %13 : tensor<1024x256xf32>
    %39 = stablehlo.minimum %1, %9 : tensor<1024x256xf32>
    %40 = stablehlo.subtract %38, %39 : tensor<1024x256xf32>
    %41 = stablehlo.maximum %7, %15 : tensor<1024x256xf32>
    %42 = stablehlo.minimum %3, %11 : tensor<1024x256xf32>
    %43 = stablehlo.subtract %41, %42 : tensor<1024x256xf32>
    %44 = stablehlo.multiply %40, %43 : tensor<1024x256xf32>
    %45 = stablehlo.subtract %44, %34 : tensor<1024x256xf32>
    %cst_2 = stablehlo.constant dense<1.000000e-07> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %47 = stablehlo.add %44, %46 : tensor<1024x256xf32>
    %48 = stablehlo.divide %45, %47 : tensor<1024x256xf32>
    %49 = stablehlo.subtract %37, %48 : tensor<1024x256xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %51 = stablehlo.subtract %50, %49 : tensor<1024x256xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_4) applies stablehlo.add across dimensions = [0, 1] : (tensor<1024x256xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<2.621440e+05> : tensor<f32>
    %53 = stablehlo.divide %52, %cst_5 : tensor<f32>
    return %53 : tensor<f32>
  }
}
