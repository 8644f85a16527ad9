module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x2048x4096xbf16>, %arg1: tensor<4096xbf16>, %arg2: tensor<4096x4096xbf16>, %arg3: tensor<4096x1024xbf16>, %arg4: tensor<4096x1024xbf16>, %arg5: tensor<4096x4096xbf16>, %arg6: tensor<4096xbf16>, %arg7: tensor<4096x14336xbf16>, %arg8: tensor<4096x14336xbf16>, %arg9: tensor<14336x4096xbf16>) -> (tensor<1x2048x4096xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<1x2048x4096xbf16>) -> tensor<1x2048x4096xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<1x2048x4096xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<1x2048x4096xf32>, tensor<f32>) -> tensor<1x2048xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x2048xf32>) -> tensor<1x2048x1xf32>
    %cst_0 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x2048x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<1x2048x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x2048x1xf32>
    %7 = stablehlo.add %5, %6 : tensor<1x2048x1xf32>
    %8 = stablehlo.rsqrt %7 : tensor<1x2048x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x2048x1xf32>) -> tensor<1x2048x4096xf32>
    %10 = stablehlo.multiply %0, %9 : tensor<1x2048x4096xf32>
    %11 = stablehlo.convert %arg1 : (tensor<4096xbf16>) -> tensor<4096xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [2] : (tensor<4096xf32>) -> tensor<1x1x4096xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<1x1x4096xf32>) -> tensor<1x2048x4096xf32>
    %14 = stablehlo.multiply %10, %13 : tensor<1x2048x4096xf32>
    %15 = stablehlo.convert %14 : (tensor<1x2048x4096xf32>) -> tensor<1x2048x4096xbf16>
    %16 = stablehlo.iota dim = 0 : tensor<2048xi32>
    %17 = stablehlo.dot_general %15, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<1x2048x4096xbf16>
    %18 = stablehlo.reshape %17 : (tensor<1x2048x4096xbf16>) -> tensor<1x2048x32x128xbf16>
    %19 = stablehlo.transpose %18, dims = [0, 2, 1, 3] : (tensor<1x2048x32x128xbf16>) -> tensor<1x32x2048x128xbf16>
    %20 = stablehlo.iota dim = 0 : tensor<64xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %22 = stablehlo.multiply %21, %20 : tensor<64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %24 = stablehlo.add %23, %22 : tensor<64xf32>
    %cst_4 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %26 = stablehlo.divide %24, %25 : tensor<64xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %28 = stablehlo.power %27, %26 : tensor<64xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %30 = stablehlo.divide %29, %28 : tensor<64xf32>
    %31 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2048xi32>) -> tensor<2048x1xi32>
    %32 = stablehlo.convert %31 : (tensor<2048x1xi32>) -> tensor<2048x1xf32>
    %33 = stablehlo.broadcast_in_dim %30, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<2048x1xf32>) -> tensor<2048x64xf32>
    %35 = stablehlo.broadcast_in_dim %33, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<2048x64xf32>
    %36 = stablehlo.multiply %34, %35 : tensor<2048x64xf32>
    %37 = stablehlo.cosine %36 : tensor<2048x64xf32>
    %38 = stablehlo.sine %36 : tensor<2048x64xf32>
    %39 = stablehlo.convert %19 : (tensor<1x32x2048x128xbf16>) -> tensor<1x32x2048x128xf32>
    %40 = stablehlo.slice %39 [0:1, 0:32, 0:2048, 0:64] : (tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x64xf32>
    %41 = stablehlo.slice %39 [0:1, 0:32, 0:2048, 64:128] : (tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x64xf32>
    %42 = stablehlo.broadcast_in_dim %37, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x32x2048x64xf32>
    %44 = stablehlo.multiply %40, %43 : tensor<1x32x2048x64xf32>
    %45 = stablehlo.broadcast_in_dim %38, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x32x2048x64xf32>
    %47 = stablehlo.multiply %41, %46 : tensor<1x32x2048x64xf32>
    %48 = stablehlo.subtract %44, %47 : tensor<1x32x2048x64xf32>
    %49 = stablehlo.broadcast_in_dim %37, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x32x2048x64xf32>
    %51 = stablehlo.multiply %41, %50 : tensor<1x32x2048x64xf32>
    %52 = stablehlo.broadcast_in_dim %38, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x32x2048x64xf32>
    %54 = stablehlo.multiply %40, %53 : tensor<1x32x2048x64xf32>
    %55 = stablehlo.add %51, %54 : tensor<1x32x2048x64xf32>
    %56 = stablehlo.concatenate %48, %55, dim = 3 : (tensor<1x32x2048x64xf32>, tensor<1x32x2048x64xf32>) -> tensor<1x32x2048x128xf32>
    %57 = stablehlo.convert %56 : (tensor<1x32x2048x128xf32>) -> tensor<1x32x2048x128xbf16>
    %58 = stablehlo.dot_general %15, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<1x2048x1024xbf16>
    %59 = stablehlo.reshape %58 : (tensor<1x2048x1024xbf16>) -> tensor<1x2048x8x128xbf16>
    %60 = stablehlo.transpose %59, dims = [0, 2, 1, 3] : (tensor<1x2048x8x128xbf16>) -> tensor<1x8x2048x128xbf16>
    %61 = stablehlo.iota dim = 0 : tensor<64xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %63 = stablehlo.multiply %62, %61 : tensor<64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %65 = stablehlo.add %64, %63 : tensor<64xf32>
    %cst_9 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %67 = stablehlo.divide %65, %66 : tensor<64xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %69 = stablehlo.power %68, %67 : tensor<64xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %71 = stablehlo.divide %70, %69 : tensor<64xf32>
    %72 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2048xi32>) -> tensor<2048x1xi32>
    %73 = stablehlo.convert %72 : (tensor<2048x1xi32>) -> tensor<2048x1xf32>
    %74 = stablehlo.broadcast_in_dim %71, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %75 = stablehlo.broadcast_in_dim %73, dims = [0, 1] : (tensor<2048x1xf32>) -> tensor<2048x64xf32>
    %76 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<2048x64xf32>
    %77 = stablehlo.multiply %75, %76 : tensor<2048x64xf32>
    %78 = stablehlo.cosine %77 : tensor<2048x64xf32>
    %79 = stablehlo.sine %77 : tensor<2048x64xf32>
    %80 = stablehlo.convert %60 : (tensor<1x8x2048x128xbf16>) -> tensor<1x8x2048x128xf32>
    %81 = stablehlo.slice %80 [0:1, 0:8, 0:2048, 0:64] : (tensor<1x8x2048x128xf32>) -> tensor<1x8x2048x64xf32>
    %82 = stablehlo.slice %80 [0:1, 0:8, 0:2048, 64:128] : (tensor<1x8x2048x128xf32>) -> tensor<1x8x2048x64xf32>
    %83 = stablehlo.broadcast_in_dim %78, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x8x2048x64xf32>
    %85 = stablehlo.multiply %81, %84 : tensor<1x8x2048x64xf32>
    %86 = stablehlo.broadcast_in_dim %79, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x8x2048x64xf32>
    %88 = stablehlo.multiply %82, %87 : tensor<1x8x2048x64xf32>
    %89 = stablehlo.subtract %85, %88 : tensor<1x8x2048x64xf32>
    %90 = stablehlo.broadcast_in_dim %78, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x8x2048x64xf32>
    %92 = stablehlo.multiply %82, %91 : tensor<1x8x2048x64xf32>
    %93 = stablehlo.broadcast_in_dim %79, dims = [2, 3] : (tensor<2048x64xf32>) -> tensor<1x1x2048x64xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2, 3] : (tensor<1x1x2048x64xf32>) -> tensor<1x8x2048x64xf32>
    %95 = stablehlo.multiply %81, %94 : tensor<1x8x2048x64xf32>
    %96 = stablehlo.add %92, %95 : tensor<1x8x2048x64xf32>
    %97 = stablehlo.concatenate %89, %96, dim = 3 : (tensor<1x8x2048x64xf32>, tensor<1x8x2048x64xf32>) -> tensor<1x8x2048x128xf32>
    %98 = stablehlo.convert %97 : (tensor<1x8x2048x128xf32>) -> tensor<1x8x2048x128xbf16>
    %99 = stablehlo.dot_general %15, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<1x2048x1024xbf16>
    %100 = stablehlo.reshape %99 : (tensor<1x2048x1024xbf16>) -> tensor<1x2048x8x128xbf16>
    %101 = stablehlo.transpose %100, dims = [0, 2, 1, 3] : (tensor<1x2048x8x128xbf16>) -> tensor<1x8x2048x128xbf16>
    %102 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 3, 4] : (tensor<1x8x2048x128xbf16>) -> tensor<1x8x4x2048x128xbf16>
    %103 = stablehlo.reshape %102 : (tensor<1x8x4x2048x128xbf16>) -> tensor<1x32x2048x128xbf16>
    %104 = stablehlo.broadcast_in_dim %101, dims = [0, 1, 3, 4] : (tensor<1x8x2048x128xbf16>) -> tensor<1x8x4x2048x128xbf16>
    %105 = stablehlo.reshape %104 : (tensor<1x8x4x2048x128xbf16>) -> tensor<1x32x2048x128xbf16>
    %106 = stablehlo.transpose %103, dims = [0, 1, 3, 2] : (tensor<1x32x2048x128xbf16>) -> tensor<1x32x128x2048xbf16>
    %107 = stablehlo.reshape %57 : (tensor<1x32x2048x128xbf16>) -> tensor<32x2048x128xbf16>
    %108 = stablehlo.reshape %106 : (tensor<1x32x128x2048xbf16>) -> tensor<32x128x2048xbf16>
    %109 = stablehlo.dot_general %107, %108, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048x128xbf16>, tensor<32x128x2048xbf16>) -> tensor<32x2048x2048xbf16>
    %110 = stablehlo.broadcast_in_dim %109, dims = [1, 2, 3] : (tensor<32x2048x2048xbf16>) -> tensor<1x32x2048x2048xbf16>
    %cst_12 = stablehlo.constant dense<1.131250e+01> : tensor<bf16>
    %111 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<bf16>) -> tensor<1x32x2048x2048xbf16>
    %112 = stablehlo.divide %110, %111 : tensor<1x32x2048x2048xbf16>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %113 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<2048x2048xi1>
    %114 = call @tril(%113) : (tensor<2048x2048xi1>) -> tensor<2048x2048xi1>
    %cst_13 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %115 = call @_where(%114, %112, %cst_13) : (tensor<2048x2048xi1>, tensor<1x32x2048x2048xbf16>, tensor<bf16>) -> tensor<1x32x2048x2048xbf16>
    %116 = stablehlo.convert %115 : (tensor<1x32x2048x2048xbf16>) -> tensor<1x32x2048x2048xf32>
    %cst_14 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %117 = stablehlo.reduce(%116 init: %cst_14) applies stablehlo.maximum across dimensions = [3] : (tensor<1x32x2048x2048xf32>, tensor<f32>) -> tensor<1x32x2048xf32>
    %cst_15 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1x32x2048xf32>
    %119 = stablehlo.maximum %118, %117 : tensor<1x32x2048xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1, 2] : (tensor<1x32x2048xf32>) -> tensor<1x32x2048x1xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0, 1, 2, 3] : (tensor<1x32x2048x1xf32>) -> tensor<1x32x2048x2048xf32>
    %122 = stablehlo.subtract %116, %121 : tensor<1x32x2048x2048xf32>
    %123 = stablehlo.exponential %122 : tensor<1x32x2048x2048xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %124 = stablehlo.reduce(%123 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<1x32x2048x2048xf32>, tensor<f32>) -> tensor<1x32x2048xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0, 1, 2] : (tensor<1x32x2048xf32>) -> tensor<1x32x2048x1xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1, 2, 3] : (tensor<1x32x2048x1xf32>) -> tensor<1x32x2048x2048xf32>
    %127 = stablehlo.divide %123, %126 : tensor<1x32x2048x2048xf32>
    %128 = stablehlo.convert %127 : (tensor<1x32x2048x2048xf32>) -> tensor<1x32x2048x2048xbf16>
    %129 = stablehlo.reshape %128 : (tensor<1x32x2048x2048xbf16>) -> tensor<32x2048x2048xbf16>
    %130 = stablehlo.reshape %105 : (tensor<1x32x2048x128xbf16>) -> tensor<32x2048x128xbf16>
    %131 = stablehlo.dot_general %129, %130, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048x2048xbf16>, tensor<32x2048x128xbf16>) -> tensor<32x2048x128xbf16>
    %132 = stablehlo.broadcast_in_dim %131, dims = [1, 2, 3] : (tensor<32x2048x128xbf16>) -> tensor<1x32x2048x128xbf16>
    %133 = stablehlo.transpose %132, dims = [0, 2, 1, 3] : (tensor<1x32x2048x128xbf16>) -> tensor<1x2048x32x128xbf16>
    %134 = stablehlo.reshape %133 : (tensor<1x2048x32x128xbf16>) -> tensor<1x2048x4096xbf16>
    %135 = stablehlo.dot_general %134, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<1x2048x4096xbf16>
    %136 = stablehlo.add %arg0, %135 : tensor<1x2048x4096xbf16>
    %137 = stablehlo.convert %136 : (tensor<1x2048x4096xbf16>) -> tensor<1x2048x4096xf32>
    %138 = stablehlo.multiply %137, %137 : tensor<1x2048x4096xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %139 = stablehlo.reduce(%138 init: %cst_17) applies stablehlo.add across dimensions = [2] : (tensor<1x2048x4096xf32>, tensor<f32>) -> tensor<1x2048xf32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1] : (tensor<1x2048xf32>) -> tensor<1x2048x1xf32>
    %cst_18 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<1x2048x1xf32>
    %142 = stablehlo.divide %140, %141 : tensor<1x2048x1xf32>
    %cst_19 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %143 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<1x2048x1xf32>
    %144 = stablehlo.add %142, %143 : tensor<1x2048x1xf32>
    %145 = stablehlo.rsqrt %144 : tensor<1x2048x1xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<1x2048x1xf32>) -> tensor<1x2048x4096xf32>
    %147 = stablehlo.multiply %137, %146 : tensor<1x2048x4096xf32>
    %148 = stablehlo.convert %arg6 : (tensor<4096xbf16>) -> tensor<4096xf32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [2] : (tensor<4096xf32>) -> tensor<1x1x4096xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<1x1x4096xf32>) -> tensor<1x2048x4096xf32>
    %151 = stablehlo.multiply %147, %150 : tensor<1x2048x4096xf32>
    %152 = stablehlo.convert %151 : (tensor<1x2048x4096xf32>) -> tensor<1x2048x4096xbf16>
    %153 = stablehlo.dot_general %152, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x4096xbf16>, tensor<4096x14336xbf16>) -> tensor<1x2048x14336xbf16>
    %154 = call @silu(%153) : (tensor<1x2048x14336xbf16>) -> tensor<1x2048x14336xbf16>
    %155 = stablehlo.dot_general %152, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x4096xbf16>, tensor<4096x14336xbf16>) -> tensor<1x2048x14336xbf16>
    %156 = stablehlo.multiply %154, %155 : tensor<1x2048x14336xbf16>
    %157 = stablehlo.dot_general %156, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x2048x14336xbf16>, tensor<14336x4096xbf16>) -> tensor<1x2048x4096xbf16>
    %158 = stablehlo.add %136, %157 : tensor<1x2048x4096xbf16>
    return %158 : tensor<1x2048x4096xbf16>
  }
  func.func private @tril(%arg0: tensor<2048x2048xi1>) -> tensor<2048x2048xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<2048x2048xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2048x2048xi32>
    %2 = stablehlo.add %0, %1 : tensor<2048x2048xi32>
    %3 = stablehlo.iota dim = 1 : tensor<2048x2048xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<2048x2048xi32>, tensor<2048x2048xi32>) -> tensor<2048x2048xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<2048x2048xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<2048x2048xi1>, tensor<2048x2048xi1>
    return %6 : tensor<2048x2048xi1>
  }
  func.func private @_where(%arg0: tensor<2048x2048xi1>, %arg1: tensor<1x32x2048x2048xbf16>, %arg2: tensor<bf16>) -> tensor<1x32x2048x2048xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<2048x2048xi1>) -> tensor<1x32x2048x2048xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<bf16>) -> tensor<1x32x2048x2048xbf16>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<1x32x2048x2048xi1>, tensor<1x32x2048x2048xbf16>
    return %2 : tensor<1x32x2048x2048xbf16>
  }
  func.func private @silu(%arg0: tensor<1x2048x14336xbf16>) -> tensor<1x2048x14336xbf16> {
    %0 = stablehlo.negate %arg0 : tensor<1x2048x14336xbf16>
    %1 = stablehlo.exponential %0 : tensor<1x2048x14336xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<1x2048x14336xbf16>
    %3 = stablehlo.add %2, %1 : tensor<1x2048x14336xbf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<1x2048x14336xbf16>
    %5 = stablehlo.divide %4, %3 : tensor<1x2048x14336xbf16>
    %6 = stablehlo.multiply %arg0, %5 : tensor<1x2048x14336xbf16>
    return %6 : tensor<1x2048x14336xbf16>
  }
}
