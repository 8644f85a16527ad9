module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x16x64xbf16>, %arg1: tensor<2x16xi32>, %arg2: tensor<64x64xbf16>, %arg3: tensor<64xbf16>, %arg4: tensor<64x64xbf16>, %arg5: tensor<64xbf16>, %arg6: tensor<64x64xbf16>, %arg7: tensor<64xbf16>, %arg8: tensor<64x64xbf16>, %arg9: tensor<64xbf16>, %arg10: tensor<64xbf16>, %arg11: tensor<64xbf16>, %arg12: tensor<64x128xbf16>, %arg13: tensor<128xbf16>, %arg14: tensor<128x64xbf16>, %arg15: tensor<64xbf16>, %arg16: tensor<64xbf16>, %arg17: tensor<64xbf16>, %arg18: tensor<64x64xbf16>, %arg19: tensor<64xbf16>, %arg20: tensor<64x64xbf16>, %arg21: tensor<64xbf16>, %arg22: tensor<64x64xbf16>, %arg23: tensor<64xbf16>, %arg24: tensor<64x64xbf16>, %arg25: tensor<64xbf16>, %arg26: tensor<64xbf16>, %arg27: tensor<64xbf16>, %arg28: tensor<64x128xbf16>, %arg29: tensor<128xbf16>, %arg30: tensor<128x64xbf16>, %arg31: tensor<64xbf16>, %arg32: tensor<64xbf16>, %arg33: tensor<64xbf16>) -> (tensor<2x16x64xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<2x16xi32>) -> tensor<2x16xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<2x16xbf16>
    %2 = stablehlo.subtract %1, %0 : tensor<2x16xbf16>
    %cst_0 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<2x16xbf16>
    %4 = stablehlo.multiply %2, %3 : tensor<2x16xbf16>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<2x16xbf16>) -> tensor<2x1x1x16xbf16>
    %6 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %7 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %9 = stablehlo.add %6, %8 : tensor<2x16x64xbf16>
    %10 = stablehlo.reshape %9 : (tensor<2x16x64xbf16>) -> tensor<2x16x2x32xbf16>
    %11 = stablehlo.transpose %10, dims = [0, 2, 1, 3] : (tensor<2x16x2x32xbf16>) -> tensor<2x2x16x32xbf16>
    %12 = stablehlo.dot_general %arg0, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %13 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %15 = stablehlo.add %12, %14 : tensor<2x16x64xbf16>
    %16 = stablehlo.reshape %15 : (tensor<2x16x64xbf16>) -> tensor<2x16x2x32xbf16>
    %17 = stablehlo.transpose %16, dims = [0, 2, 1, 3] : (tensor<2x16x2x32xbf16>) -> tensor<2x2x16x32xbf16>
    %18 = stablehlo.dot_general %arg0, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %19 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %21 = stablehlo.add %18, %20 : tensor<2x16x64xbf16>
    %22 = stablehlo.reshape %21 : (tensor<2x16x64xbf16>) -> tensor<2x16x2x32xbf16>
    %23 = stablehlo.transpose %22, dims = [0, 2, 1, 3] : (tensor<2x16x2x32xbf16>) -> tensor<2x2x16x32xbf16>
    %24 = stablehlo.transpose %17, dims = [0, 1, 3, 2] : (tensor<2x2x16x32xbf16>) -> tensor<2x2x32x16xbf16>
    %25 = stablehlo.dot_general %11, %24, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x32xbf16>, tensor<2x2x32x16xbf16>) -> tensor<2x2x16x16xbf16>
    %cst_1 = stablehlo.constant dense<5.656250e+00> : tensor<bf16>
    %26 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<2x2x16x16xbf16>
    %27 = stablehlo.divide %25, %26 : tensor<2x2x16x16xbf16>
    %28 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2, 3] : (tensor<2x1x1x16xbf16>) -> tensor<2x2x16x16xbf16>
    %29 = stablehlo.add %27, %28 : tensor<2x2x16x16xbf16>
    %30 = stablehlo.convert %29 : (tensor<2x2x16x16xbf16>) -> tensor<2x2x16x16xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_2) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x2x16xf32>
    %33 = stablehlo.maximum %32, %31 : tensor<2x2x16xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x1xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2, 3] : (tensor<2x2x16x1xf32>) -> tensor<2x2x16x16xf32>
    %36 = stablehlo.subtract %30, %35 : tensor<2x2x16x16xf32>
    %37 = stablehlo.exponential %36 : tensor<2x2x16x16xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%37 init: %cst_4) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x1xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 2, 3] : (tensor<2x2x16x1xf32>) -> tensor<2x2x16x16xf32>
    %41 = stablehlo.divide %37, %40 : tensor<2x2x16x16xf32>
    %42 = stablehlo.convert %41 : (tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xbf16>
    %43 = stablehlo.dot_general %42, %23, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x16xbf16>, tensor<2x2x16x32xbf16>) -> tensor<2x2x16x32xbf16>
    %44 = stablehlo.transpose %43, dims = [0, 2, 1, 3] : (tensor<2x2x16x32xbf16>) -> tensor<2x16x2x32xbf16>
    %45 = stablehlo.reshape %44 : (tensor<2x16x2x32xbf16>) -> tensor<2x16x64xbf16>
    %46 = stablehlo.dot_general %45, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %47 = stablehlo.add %arg0, %46 : tensor<2x16x64xbf16>
    %48 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %50 = stablehlo.add %47, %49 : tensor<2x16x64xbf16>
    %51 = stablehlo.convert %50 : (tensor<2x16x64xbf16>) -> tensor<2x16x64xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%51 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_6 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %55 = stablehlo.divide %53, %54 : tensor<2x16x1xf32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %57 = stablehlo.subtract %51, %56 : tensor<2x16x64xf32>
    %58 = stablehlo.multiply %57, %57 : tensor<2x16x64xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.reduce(%58 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_8 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %62 = stablehlo.divide %60, %61 : tensor<2x16x1xf32>
    %63 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %64 = stablehlo.subtract %51, %63 : tensor<2x16x64xf32>
    %cst_9 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %66 = stablehlo.add %62, %65 : tensor<2x16x1xf32>
    %67 = stablehlo.rsqrt %66 : tensor<2x16x1xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %69 = stablehlo.multiply %64, %68 : tensor<2x16x64xf32>
    %70 = stablehlo.convert %arg10 : (tensor<64xbf16>) -> tensor<64xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %73 = stablehlo.multiply %69, %72 : tensor<2x16x64xf32>
    %74 = stablehlo.convert %arg11 : (tensor<64xbf16>) -> tensor<64xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %77 = stablehlo.add %73, %76 : tensor<2x16x64xf32>
    %78 = stablehlo.convert %77 : (tensor<2x16x64xf32>) -> tensor<2x16x64xbf16>
    %79 = stablehlo.dot_general %78, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x128xbf16>) -> tensor<2x16x128xbf16>
    %80 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<2x16x128xbf16>
    %82 = stablehlo.add %79, %81 : tensor<2x16x128xbf16>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %83 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %84 = stablehlo.multiply %83, %82 : tensor<2x16x128xbf16>
    %85 = stablehlo.negate %82 : tensor<2x16x128xbf16>
    %cst_11 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %86 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %87 = stablehlo.multiply %85, %86 : tensor<2x16x128xbf16>
    %88 = chlo.erfc %87 : tensor<2x16x128xbf16> -> tensor<2x16x128xbf16>
    %89 = stablehlo.multiply %84, %88 : tensor<2x16x128xbf16>
    %90 = stablehlo.dot_general %89, %arg14, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xbf16>, tensor<128x64xbf16>) -> tensor<2x16x64xbf16>
    %91 = stablehlo.broadcast_in_dim %arg15, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %93 = stablehlo.add %90, %92 : tensor<2x16x64xbf16>
    %94 = stablehlo.add %78, %93 : tensor<2x16x64xbf16>
    %95 = stablehlo.convert %94 : (tensor<2x16x64xbf16>) -> tensor<2x16x64xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %96 = stablehlo.reduce(%95 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_13 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %99 = stablehlo.divide %97, %98 : tensor<2x16x1xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %101 = stablehlo.subtract %95, %100 : tensor<2x16x64xf32>
    %102 = stablehlo.multiply %101, %101 : tensor<2x16x64xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %103 = stablehlo.reduce(%102 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_15 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %106 = stablehlo.divide %104, %105 : tensor<2x16x1xf32>
    %107 = stablehlo.broadcast_in_dim %99, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %108 = stablehlo.subtract %95, %107 : tensor<2x16x64xf32>
    %cst_16 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %110 = stablehlo.add %106, %109 : tensor<2x16x1xf32>
    %111 = stablehlo.rsqrt %110 : tensor<2x16x1xf32>
    %112 = stablehlo.broadcast_in_dim %111, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %113 = stablehlo.multiply %108, %112 : tensor<2x16x64xf32>
    %114 = stablehlo.convert %arg16 : (tensor<64xbf16>) -> tensor<64xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %117 = stablehlo.multiply %113, %116 : tensor<2x16x64xf32>
    %118 = stablehlo.convert %arg17 : (tensor<64xbf16>) -> tensor<64xf32>
    %119 = stablehlo.broadcast_in_dim %118, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %121 = stablehlo.add %117, %120 : tensor<2x16x64xf32>
    %122 = stablehlo.convert %121 : (tensor<2x16x64xf32>) -> tensor<2x16x64xbf16>
    %123 = stablehlo.convert %arg1 : (tensor<2x16xi32>) -> tensor<2x16xbf16>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %124 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<bf16>) -> tensor<2x16xbf16>
    %125 = stablehlo.subtract %124, %123 : tensor<2x16xbf16>
    %cst_18 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %126 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<bf16>) -> tensor<2x16xbf16>
    %127 = stablehlo.multiply %125, %126 : tensor<2x16xbf16>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 3] : (tensor<2x16xbf16>) -> tensor<2x1x1x16xbf16>
    %129 = stablehlo.dot_general %122, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %130 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %131 = stablehlo.broadcast_in_dim %130, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %132 = stablehlo.add %129, %131 : tensor<2x16x64xbf16>
    %133 = stablehlo.reshape %132 : (tensor<2x16x64xbf16>) -> tensor<2x16x2x32xbf16>
    %134 = stablehlo.transpose %133, dims = [0, 2, 1, 3] : (tensor<2x16x2x32xbf16>) -> tensor<2x2x16x32xbf16>
    %135 = stablehlo.dot_general %122, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %136 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %138 = stablehlo.add %135, %137 : tensor<2x16x64xbf16>
    %139 = stablehlo.reshape %138 : (tensor<2x16x64xbf16>) -> tensor<2x16x2x32xbf16>
    %140 = stablehlo.transpose %139, dims = [0, 2, 1, 3] : (tensor<2x16x2x32xbf16>) -> tensor<2x2x16x32xbf16>
    %141 = stablehlo.dot_general %122, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %142 = stablehlo.broadcast_in_dim %arg23, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %144 = stablehlo.add %141, %143 : tensor<2x16x64xbf16>
    %145 = stablehlo.reshape %144 : (tensor<2x16x64xbf16>) -> tensor<2x16x2x32xbf16>
    %146 = stablehlo.transpose %145, dims = [0, 2, 1, 3] : (tensor<2x16x2x32xbf16>) -> tensor<2x2x16x32xbf16>
    %147 = stablehlo.transpose %140, dims = [0, 1, 3, 2] : (tensor<2x2x16x32xbf16>) -> tensor<2x2x32x16xbf16>
    %148 = stablehlo.dot_general %134, %147, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x32xbf16>, tensor<2x2x32x16xbf16>) -> tensor<2x2x16x16xbf16>
    %cst_19 = stablehlo.constant dense<5.656250e+00> : tensor<bf16>
    %149 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<bf16>) -> tensor<2x2x16x16xbf16>
    %150 = stablehlo.divide %148, %149 : tensor<2x2x16x16xbf16>
    %151 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2, 3] : (tensor<2x1x1x16xbf16>) -> tensor<2x2x16x16xbf16>
    %152 = stablehlo.add %150, %151 : tensor<2x2x16x16xbf16>
    %153 = stablehlo.convert %152 : (tensor<2x2x16x16xbf16>) -> tensor<2x2x16x16xf32>
    %cst_20 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %154 = stablehlo.reduce(%153 init: %cst_20) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %cst_21 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<2x2x16xf32>
    %156 = stablehlo.maximum %155, %154 : tensor<2x2x16xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x1xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2, 3] : (tensor<2x2x16x1xf32>) -> tensor<2x2x16x16xf32>
    %159 = stablehlo.subtract %153, %158 : tensor<2x2x16x16xf32>
    %160 = stablehlo.exponential %159 : tensor<2x2x16x16xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%160 init: %cst_22) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x1xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2, 3] : (tensor<2x2x16x1xf32>) -> tensor<2x2x16x16xf32>
    %164 = stablehlo.divide %160, %163 : tensor<2x2x16x16xf32>
    %165 = stablehlo.convert %164 : (tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xbf16>
    %166 = stablehlo.dot_general %165, %146, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x2x16x16xbf16>, tensor<2x2x16x32xbf16>) -> tensor<2x2x16x32xbf16>
    %167 = stablehlo.transpose %166, dims = [0, 2, 1, 3] : (tensor<2x2x16x32xbf16>) -> tensor<2x16x2x32xbf16>
    %168 = stablehlo.reshape %167 : (tensor<2x16x2x32xbf16>) -> tensor<2x16x64xbf16>
    %169 = stablehlo.dot_general %168, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x64xbf16>) -> tensor<2x16x64xbf16>
    %170 = stablehlo.add %122, %169 : tensor<2x16x64xbf16>
    %171 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %172 = stablehlo.broadcast_in_dim %171, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %173 = stablehlo.add %170, %172 : tensor<2x16x64xbf16>
    %174 = stablehlo.convert %173 : (tensor<2x16x64xbf16>) -> tensor<2x16x64xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.reduce(%174 init: %cst_23) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_24 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %178 = stablehlo.divide %176, %177 : tensor<2x16x1xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %180 = stablehlo.subtract %174, %179 : tensor<2x16x64xf32>
    %181 = stablehlo.multiply %180, %180 : tensor<2x16x64xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %182 = stablehlo.reduce(%181 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_26 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %184 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %185 = stablehlo.divide %183, %184 : tensor<2x16x1xf32>
    %186 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %187 = stablehlo.subtract %174, %186 : tensor<2x16x64xf32>
    %cst_27 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %188 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %189 = stablehlo.add %185, %188 : tensor<2x16x1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<2x16x1xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %192 = stablehlo.multiply %187, %191 : tensor<2x16x64xf32>
    %193 = stablehlo.convert %arg26 : (tensor<64xbf16>) -> tensor<64xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %196 = stablehlo.multiply %192, %195 : tensor<2x16x64xf32>
    %197 = stablehlo.convert %arg27 : (tensor<64xbf16>) -> tensor<64xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %200 = stablehlo.add %196, %199 : tensor<2x16x64xf32>
    %201 = stablehlo.convert %200 : (tensor<2x16x64xf32>) -> tensor<2x16x64xbf16>
    %202 = stablehlo.dot_general %201, %arg28, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x64xbf16>, tensor<64x128xbf16>) -> tensor<2x16x128xbf16>
    %203 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<128xbf16>) -> tensor<1x1x128xbf16>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1, 2] : (tensor<1x1x128xbf16>) -> tensor<2x16x128xbf16>
    %205 = stablehlo.add %202, %204 : tensor<2x16x128xbf16>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %206 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %207 = stablehlo.multiply %206, %205 : tensor<2x16x128xbf16>
    %208 = stablehlo.negate %205 : tensor<2x16x128xbf16>
    %cst_29 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %209 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<bf16>) -> tensor<2x16x128xbf16>
    %210 = stablehlo.multiply %208, %209 : tensor<2x16x128xbf16>
    %211 = chlo.erfc %210 : tensor<2x16x128xbf16> -> tensor<2x16x128xbf16>
    %212 = stablehlo.multiply %207, %211 : tensor<2x16x128xbf16>
    %213 = stablehlo.dot_general %212, %arg30, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16x128xbf16>, tensor<128x64xbf16>) -> tensor<2x16x64xbf16>
    %214 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<64xbf16>) -> tensor<1x1x64xbf16>
    %215 = stablehlo.broadcast_in_dim %214, dims = [0, 1, 2] : (tensor<1x1x64xbf16>) -> tensor<2x16x64xbf16>
    %216 = stablehlo.add %213, %215 : tensor<2x16x64xbf16>
    %217 = stablehlo.add %201, %216 : tensor<2x16x64xbf16>
    %218 = stablehlo.convert %217 : (tensor<2x16x64xbf16>) -> tensor<2x16x64xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %219 = stablehlo.reduce(%218 init: %cst_30) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %220 = stablehlo.broadcast_in_dim %219, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_31 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %222 = stablehlo.divide %220, %221 : tensor<2x16x1xf32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %224 = stablehlo.subtract %218, %223 : tensor<2x16x64xf32>
    %225 = stablehlo.multiply %224, %224 : tensor<2x16x64xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %226 = stablehlo.reduce(%225 init: %cst_32) applies stablehlo.add across dimensions = [2] : (tensor<2x16x64xf32>, tensor<f32>) -> tensor<2x16xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %cst_33 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %229 = stablehlo.divide %227, %228 : tensor<2x16x1xf32>
    %230 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %231 = stablehlo.subtract %218, %230 : tensor<2x16x64xf32>
    %cst_34 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<2x16x1xf32>
    %233 = stablehlo.add %229, %232 : tensor<2x16x1xf32>
    %234 = stablehlo.rsqrt %233 : tensor<2x16x1xf32>
    %235 = stablehlo.broadcast_in_dim %234, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x64xf32>
    %236 = stablehlo.multiply %231, %235 : tensor<2x16x64xf32>
    %237 = stablehlo.convert %arg32 : (tensor<64xbf16>) -> tensor<64xf32>
    %238 = stablehlo.broadcast_in_dim %237, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %239 = stablehlo.broadcast_in_dim %238, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %240 = stablehlo.multiply %236, %239 : tensor<2x16x64xf32>
    %241 = stablehlo.convert %arg33 : (tensor<64xbf16>) -> tensor<64xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %243 = stablehlo.broadcast_in_dim %242, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x16x64xf32>
    %244 = stablehlo.add %240, %243 : tensor<2x16x64xf32>
    %245 = stablehlo.convert %244 : (tensor<2x16x64xf32>) -> tensor<2x16x64xbf16>
    return %245 : tensor<2x16x64xbf16>
  }
}
