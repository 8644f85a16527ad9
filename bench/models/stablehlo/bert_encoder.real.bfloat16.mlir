module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x512x768xbf16>, %arg1: tensor<8x512xi32>, %arg2: tensor<768x768xbf16>, %arg3: tensor<768xbf16>, %arg4: tensor<768x768xbf16>, %arg5: tensor<768xbf16>, %arg6: tensor<768x768xbf16>, %arg7: tensor<768xbf16>, %arg8: tensor<768x768xbf16>, %arg9: tensor<768xbf16>, %arg10: tensor<768xbf16>, %arg11: tensor<768xbf16>, %arg12: tensor<768x3072xbf16>, %arg13: tensor<3072xbf16>, %arg14: tensor<3072x768xbf16>, %arg15: tensor<768xbf16>, %arg16: tensor<768xbf16>, %arg17: tensor<768xbf16>, %arg18: tensor<768x768xbf16>, %arg19: tensor<768xbf16>, %arg20: tensor<768x768xbf16>, %arg21: tensor<768xbf16>, %arg22: tensor<768x768xbf16>, %arg23: tensor<768xbf16>, %arg24: tensor<768x768xbf16>, %arg25: tensor<768xbf16>, %arg26: tensor<768xbf16>, %arg27: tensor<768xbf16>, %arg28: tensor<768x3072xbf16>, %arg29: tensor<3072xbf16>, %arg30: tensor<3072x768xbf16>, %arg31: tensor<768xbf16>, %arg32: tensor<768xbf16>, %arg33: tensor<768xbf16>, %arg34: tensor<768x768xbf16>, %arg35: tensor<768xbf16>, %arg36: tensor<768x768xbf16>, %arg37: tensor<768xbf16>, %arg38: tensor<768x768xbf16>, %arg39: tensor<768xbf16>, %arg40: tensor<768x768xbf16>, %arg41: tensor<768xbf16>, %arg42: tensor<768xbf16>, %arg43: tensor<768xbf16>, %arg44: tensor<768x3072xbf16>, %arg45: tensor<3072xbf16>, %arg46: tensor<3072x768xbf16>, %arg47: tensor<768xbf16>, %arg48: tensor<768xbf16>, %arg49: tensor<768xbf16>, %arg50: tensor<768x768xbf16>, %arg51: tensor<768xbf16>, %arg52: tensor<768x768xbf16>, %arg53: tensor<768xbf16>, %arg54: tensor<768x768xbf16>, %arg55: tensor<768xbf16>, %arg56: tensor<768x768xbf16>, %arg57: tensor<768xbf16>, %arg58: tensor<768xbf16>, %arg59: tensor<768xbf16>, %arg60: tensor<768x3072xbf16>, %arg61: tensor<3072xbf16>, %arg62: tensor<3072x768xbf16>, %arg63: tensor<768xbf16>, %arg64: tensor<768xbf16>, %arg65: tensor<768xbf16>, %arg66: tensor<768x768xbf16>, %arg67: tensor<768xbf16>, %arg68: tensor<768x768xbf16>, %arg69: tensor<768xbf16>, %arg70: tensor<768x768xbf16>, %arg71: tensor<768xbf16>, %arg72: tensor<768x768xbf16>, %arg73: tensor<768xbf16>, %arg74: tensor<768xbf16>, %arg75: tensor<768xbf16>, %arg76: tensor<768x3072xbf16>, %arg77: tensor<3072xbf16>, %arg78: tensor<3072x768xbf16>, %arg79: tensor<768xbf16>, %arg80: tensor<768xbf16>, %arg81: tensor<768xbf16>, %arg82: tensor<768x768xbf16>, %arg83: tensor<768xbf16>, %arg84: tensor<768x768xbf16>, %arg85: tensor<768xbf16>, %arg86: tensor<768x768xbf16>, %arg87: tensor<768xbf16>, %arg88: tensor<768x768xbf16>, %arg89: tensor<768xbf16>, %arg90: tensor<768xbf16>, %arg91: tensor<768xbf16>, %arg92: tensor<768x3072xbf16>, %arg93: tensor<3072xbf16>, %arg94: tensor<3072x768xbf16>, %arg95: tensor<768xbf16>, %arg96: tensor<768xbf16>, %arg97: tensor<768xbf16>, %arg98: tensor<768x768xbf16>, %arg99: tensor<768xbf16>, %arg100: tensor<768x768xbf16>, %arg101: tensor<768xbf16>, %arg102: tensor<768x768xbf16>, %arg103: tensor<768xbf16>, %arg104: tensor<768x768xbf16>, %arg105: tensor<768xbf16>, %arg106: tensor<768xbf16>, %arg107: tensor<768xbf16>, %arg108: tensor<768x3072xbf16>, %arg109: tensor<3072xbf16>, %arg110: tensor<3072x768xbf16>, %arg111: tensor<768xbf16>, %arg112: tensor<768xbf16>, %arg113: tensor<768xbf16>, %arg114: tensor<768x768xbf16>, %arg115: tensor<768xbf16>, %arg116: tensor<768x768xbf16>, %arg117: tensor<768xbf16>, %arg118: tensor<768x768xbf16>, %arg119: tensor<768xbf16>, %arg120: tensor<768x768xbf16>, %arg121: tensor<768xbf16>, %arg122: tensor<768xbf16>, %arg123: tensor<768xbf16>, %arg124: tensor<768x3072xbf16>, %arg125: tensor<3072xbf16>, %arg126: tensor<3072x768xbf16>, %arg127: tensor<768xbf16>, %arg128: tensor<768xbf16>, %arg129: tensor<768xbf16>, %arg130: tensor<768x768xbf16>, %arg131: tensor<768xbf16>, %arg132: tensor<768x768xbf16>, %arg133: tensor<768xbf16>, %arg134: tensor<768x768xbf16>, %arg135: tensor<768xbf16>, %arg136: tensor<768x768xbf16>, %arg137: tensor<768xbf16>, %arg138: tensor<768xbf16>, %arg139: tensor<768xbf16>, %arg140: tensor<768x3072xbf16>, %arg141: tensor<3072xbf16>, %arg142: tensor<3072x768xbf16>, %arg143: tensor<768xbf16>, %arg144: tensor<768xbf16>, %arg145: tensor<768xbf16>, %arg146: tensor<768x768xbf16>, %arg147: tensor<768xbf16>, %arg148: tensor<768x768xbf16>, %arg149: tensor<768xbf16>, %arg150: tensor<768x768xbf16>, %arg151: tensor<768xbf16>, %arg152: tensor<768x768xbf16>, %arg153: tensor<768xbf16>, %arg154: tensor<768xbf16>, %arg155: tensor<768xbf16>, %arg156: tensor<768x3072xbf16>, %arg157: tensor<3072xbf16>, %arg158: tensor<3072x768xbf16>, %arg159: tensor<768xbf16>, %arg160: tensor<768xbf16>, %arg161: tensor<768xbf16>, %arg162: tensor<768x768xbf16>, %arg163: tensor<768xbf16>, %arg164: tensor<768x768xbf16>, %arg165: tensor<768xbf16>, %arg166: tensor<768x768xbf16>, %arg167: tensor<768xbf16>, %arg168: tensor<768x768xbf16>, %arg169: tensor<768xbf16>, %arg170: tensor<768xbf16>, %arg171: tensor<768xbf16>, %arg172: tensor<768x3072xbf16>, %arg173: tensor<3072xbf16>, %arg174: tensor<3072x768xbf16>, %arg175: tensor<768xbf16>, %arg176: tensor<768xbf16>, %arg177: tensor<768xbf16>, %arg178: tensor<768x768xbf16>, %arg179: tensor<768xbf16>, %arg180: tensor<768x768xbf16>, %arg181: tensor<768xbf16>, %arg182: tensor<768x768xbf16>, %arg183: tensor<768xbf16>, %arg184: tensor<768x768xbf16>, %arg185: tensor<768xbf16>, %arg186: tensor<768xbf16>, %arg187: tensor<768xbf16>, %arg188: tensor<768x3072xbf16>, %arg189: tensor<3072xbf16>, %arg190: tensor<3072x768xbf16>, %arg191: tensor<768xbf16>, %arg192: tensor<768xbf16>, %arg193: tensor<768xbf16>) -> (tensor<8x512x768xbf16> {jax.result_info = "result"}) {
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
    %123 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %124 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %125 = stablehlo.subtract %124, %123 : tensor<8x512xbf16>
    %cst_18 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %126 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %127 = stablehlo.multiply %125, %126 : tensor<8x512xbf16>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %129 = stablehlo.dot_general %122, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %130 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %131 = stablehlo.broadcast_in_dim %130, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %132 = stablehlo.add %129, %131 : tensor<8x512x768xbf16>
    %133 = stablehlo.reshape %132 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %134 = stablehlo.transpose %133, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %135 = stablehlo.dot_general %122, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %136 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %138 = stablehlo.add %135, %137 : tensor<8x512x768xbf16>
    %139 = stablehlo.reshape %138 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %140 = stablehlo.transpose %139, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %141 = stablehlo.dot_general %122, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %142 = stablehlo.broadcast_in_dim %arg23, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %144 = stablehlo.add %141, %143 : tensor<8x512x768xbf16>
    %145 = stablehlo.reshape %144 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %146 = stablehlo.transpose %145, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %147 = stablehlo.transpose %140, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %148 = stablehlo.dot_general %134, %147, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_19 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %149 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %150 = stablehlo.divide %148, %149 : tensor<8x12x512x512xbf16>
    %151 = stablehlo.broadcast_in_dim %128, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %152 = stablehlo.add %150, %151 : tensor<8x12x512x512xbf16>
    %153 = stablehlo.convert %152 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_20 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %154 = stablehlo.reduce(%153 init: %cst_20) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_21 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %155 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %156 = stablehlo.maximum %155, %154 : tensor<8x12x512xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %159 = stablehlo.subtract %153, %158 : tensor<8x12x512x512xf32>
    %160 = stablehlo.exponential %159 : tensor<8x12x512x512xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %161 = stablehlo.reduce(%160 init: %cst_22) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %164 = stablehlo.divide %160, %163 : tensor<8x12x512x512xf32>
    %165 = stablehlo.convert %164 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %166 = stablehlo.dot_general %165, %146, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %167 = stablehlo.transpose %166, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %168 = stablehlo.reshape %167 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %169 = stablehlo.dot_general %168, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %170 = stablehlo.add %122, %169 : tensor<8x512x768xbf16>
    %171 = stablehlo.broadcast_in_dim %arg25, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %172 = stablehlo.broadcast_in_dim %171, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %173 = stablehlo.add %170, %172 : tensor<8x512x768xbf16>
    %174 = stablehlo.convert %173 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.reduce(%174 init: %cst_23) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_24 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %178 = stablehlo.divide %176, %177 : tensor<8x512x1xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %180 = stablehlo.subtract %174, %179 : tensor<8x512x768xf32>
    %181 = stablehlo.multiply %180, %180 : tensor<8x512x768xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %182 = stablehlo.reduce(%181 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_26 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %184 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %185 = stablehlo.divide %183, %184 : tensor<8x512x1xf32>
    %186 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %187 = stablehlo.subtract %174, %186 : tensor<8x512x768xf32>
    %cst_27 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %188 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %189 = stablehlo.add %185, %188 : tensor<8x512x1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<8x512x1xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %192 = stablehlo.multiply %187, %191 : tensor<8x512x768xf32>
    %193 = stablehlo.convert %arg26 : (tensor<768xbf16>) -> tensor<768xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %196 = stablehlo.multiply %192, %195 : tensor<8x512x768xf32>
    %197 = stablehlo.convert %arg27 : (tensor<768xbf16>) -> tensor<768xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %200 = stablehlo.add %196, %199 : tensor<8x512x768xf32>
    %201 = stablehlo.convert %200 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %202 = stablehlo.dot_general %201, %arg28, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %203 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %205 = stablehlo.add %202, %204 : tensor<8x512x3072xbf16>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %206 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %207 = stablehlo.multiply %206, %205 : tensor<8x512x3072xbf16>
    %208 = stablehlo.negate %205 : tensor<8x512x3072xbf16>
    %cst_29 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %209 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %210 = stablehlo.multiply %208, %209 : tensor<8x512x3072xbf16>
    %211 = chlo.erfc %210 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %212 = stablehlo.multiply %207, %211 : tensor<8x512x3072xbf16>
    %213 = stablehlo.dot_general %212, %arg30, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %214 = stablehlo.broadcast_in_dim %arg31, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %215 = stablehlo.broadcast_in_dim %214, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %216 = stablehlo.add %213, %215 : tensor<8x512x768xbf16>
    %217 = stablehlo.add %201, %216 : tensor<8x512x768xbf16>
    %218 = stablehlo.convert %217 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %219 = stablehlo.reduce(%218 init: %cst_30) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %220 = stablehlo.broadcast_in_dim %219, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_31 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %221 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %222 = stablehlo.divide %220, %221 : tensor<8x512x1xf32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %224 = stablehlo.subtract %218, %223 : tensor<8x512x768xf32>
    %225 = stablehlo.multiply %224, %224 : tensor<8x512x768xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %226 = stablehlo.reduce(%225 init: %cst_32) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_33 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %229 = stablehlo.divide %227, %228 : tensor<8x512x1xf32>
    %230 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %231 = stablehlo.subtract %218, %230 : tensor<8x512x768xf32>
    %cst_34 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %233 = stablehlo.add %229, %232 : tensor<8x512x1xf32>
    %234 = stablehlo.rsqrt %233 : tensor<8x512x1xf32>
    %235 = stablehlo.broadcast_in_dim %234, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %236 = stablehlo.multiply %231, %235 : tensor<8x512x768xf32>
    %237 = stablehlo.convert %arg32 : (tensor<768xbf16>) -> tensor<768xf32>
    %238 = stablehlo.broadcast_in_dim %237, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %239 = stablehlo.broadcast_in_dim %238, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %240 = stablehlo.multiply %236, %239 : tensor<8x512x768xf32>
    %241 = stablehlo.convert %arg33 : (tensor<768xbf16>) -> tensor<768xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %243 = stablehlo.broadcast_in_dim %242, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %244 = stablehlo.add %240, %243 : tensor<8x512x768xf32>
    %245 = stablehlo.convert %244 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %246 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %247 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %248 = stablehlo.subtract %247, %246 : tensor<8x512xbf16>
    %cst_36 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %249 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %250 = stablehlo.multiply %248, %249 : tensor<8x512xbf16>
    %251 = stablehlo.broadcast_in_dim %250, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %252 = stablehlo.dot_general %245, %arg34, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %253 = stablehlo.broadcast_in_dim %arg35, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %254 = stablehlo.broadcast_in_dim %253, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %255 = stablehlo.add %252, %254 : tensor<8x512x768xbf16>
    %256 = stablehlo.reshape %255 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %257 = stablehlo.transpose %256, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %258 = stablehlo.dot_general %245, %arg36, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %259 = stablehlo.broadcast_in_dim %arg37, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %260 = stablehlo.broadcast_in_dim %259, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %261 = stablehlo.add %258, %260 : tensor<8x512x768xbf16>
    %262 = stablehlo.reshape %261 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %263 = stablehlo.transpose %262, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %264 = stablehlo.dot_general %245, %arg38, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %265 = stablehlo.broadcast_in_dim %arg39, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %266 = stablehlo.broadcast_in_dim %265, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %267 = stablehlo.add %264, %266 : tensor<8x512x768xbf16>
    %268 = stablehlo.reshape %267 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %269 = stablehlo.transpose %268, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %270 = stablehlo.transpose %263, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %271 = stablehlo.dot_general %257, %270, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_37 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %272 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %273 = stablehlo.divide %271, %272 : tensor<8x12x512x512xbf16>
    %274 = stablehlo.broadcast_in_dim %251, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %275 = stablehlo.add %273, %274 : tensor<8x12x512x512xbf16>
    %276 = stablehlo.convert %275 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_38 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %277 = stablehlo.reduce(%276 init: %cst_38) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_39 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %278 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %279 = stablehlo.maximum %278, %277 : tensor<8x12x512xf32>
    %280 = stablehlo.broadcast_in_dim %279, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %281 = stablehlo.broadcast_in_dim %280, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %282 = stablehlo.subtract %276, %281 : tensor<8x12x512x512xf32>
    %283 = stablehlo.exponential %282 : tensor<8x12x512x512xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %284 = stablehlo.reduce(%283 init: %cst_40) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %285 = stablehlo.broadcast_in_dim %284, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %286 = stablehlo.broadcast_in_dim %285, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %287 = stablehlo.divide %283, %286 : tensor<8x12x512x512xf32>
    %288 = stablehlo.convert %287 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %289 = stablehlo.dot_general %288, %269, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %290 = stablehlo.transpose %289, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %291 = stablehlo.reshape %290 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %292 = stablehlo.dot_general %291, %arg40, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %293 = stablehlo.add %245, %292 : tensor<8x512x768xbf16>
    %294 = stablehlo.broadcast_in_dim %arg41, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %295 = stablehlo.broadcast_in_dim %294, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %296 = stablehlo.add %293, %295 : tensor<8x512x768xbf16>
    %297 = stablehlo.convert %296 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %298 = stablehlo.reduce(%297 init: %cst_41) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %299 = stablehlo.broadcast_in_dim %298, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_42 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %300 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %301 = stablehlo.divide %299, %300 : tensor<8x512x1xf32>
    %302 = stablehlo.broadcast_in_dim %301, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %303 = stablehlo.subtract %297, %302 : tensor<8x512x768xf32>
    %304 = stablehlo.multiply %303, %303 : tensor<8x512x768xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %305 = stablehlo.reduce(%304 init: %cst_43) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %306 = stablehlo.broadcast_in_dim %305, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_44 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %307 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %308 = stablehlo.divide %306, %307 : tensor<8x512x1xf32>
    %309 = stablehlo.broadcast_in_dim %301, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %310 = stablehlo.subtract %297, %309 : tensor<8x512x768xf32>
    %cst_45 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %311 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %312 = stablehlo.add %308, %311 : tensor<8x512x1xf32>
    %313 = stablehlo.rsqrt %312 : tensor<8x512x1xf32>
    %314 = stablehlo.broadcast_in_dim %313, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %315 = stablehlo.multiply %310, %314 : tensor<8x512x768xf32>
    %316 = stablehlo.convert %arg42 : (tensor<768xbf16>) -> tensor<768xf32>
    %317 = stablehlo.broadcast_in_dim %316, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %318 = stablehlo.broadcast_in_dim %317, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %319 = stablehlo.multiply %315, %318 : tensor<8x512x768xf32>
    %320 = stablehlo.convert %arg43 : (tensor<768xbf16>) -> tensor<768xf32>
    %321 = stablehlo.broadcast_in_dim %320, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %323 = stablehlo.add %319, %322 : tensor<8x512x768xf32>
    %324 = stablehlo.convert %323 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %325 = stablehlo.dot_general %324, %arg44, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %326 = stablehlo.broadcast_in_dim %arg45, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %327 = stablehlo.broadcast_in_dim %326, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %328 = stablehlo.add %325, %327 : tensor<8x512x3072xbf16>
    %cst_46 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %329 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %330 = stablehlo.multiply %329, %328 : tensor<8x512x3072xbf16>
    %331 = stablehlo.negate %328 : tensor<8x512x3072xbf16>
    %cst_47 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %332 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %333 = stablehlo.multiply %331, %332 : tensor<8x512x3072xbf16>
    %334 = chlo.erfc %333 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %335 = stablehlo.multiply %330, %334 : tensor<8x512x3072xbf16>
    %336 = stablehlo.dot_general %335, %arg46, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %337 = stablehlo.broadcast_in_dim %arg47, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %338 = stablehlo.broadcast_in_dim %337, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %339 = stablehlo.add %336, %338 : tensor<8x512x768xbf16>
    %340 = stablehlo.add %324, %339 : tensor<8x512x768xbf16>
    %341 = stablehlo.convert %340 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %342 = stablehlo.reduce(%341 init: %cst_48) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %343 = stablehlo.broadcast_in_dim %342, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_49 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %344 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %345 = stablehlo.divide %343, %344 : tensor<8x512x1xf32>
    %346 = stablehlo.broadcast_in_dim %345, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %347 = stablehlo.subtract %341, %346 : tensor<8x512x768xf32>
    %348 = stablehlo.multiply %347, %347 : tensor<8x512x768xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %349 = stablehlo.reduce(%348 init: %cst_50) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %350 = stablehlo.broadcast_in_dim %349, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_51 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %351 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %352 = stablehlo.divide %350, %351 : tensor<8x512x1xf32>
    %353 = stablehlo.broadcast_in_dim %345, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %354 = stablehlo.subtract %341, %353 : tensor<8x512x768xf32>
    %cst_52 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %355 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %356 = stablehlo.add %352, %355 : tensor<8x512x1xf32>
    %357 = stablehlo.rsqrt %356 : tensor<8x512x1xf32>
    %358 = stablehlo.broadcast_in_dim %357, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %359 = stablehlo.multiply %354, %358 : tensor<8x512x768xf32>
    %360 = stablehlo.convert %arg48 : (tensor<768xbf16>) -> tensor<768xf32>
    %361 = stablehlo.broadcast_in_dim %360, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %362 = stablehlo.broadcast_in_dim %361, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %363 = stablehlo.multiply %359, %362 : tensor<8x512x768xf32>
    %364 = stablehlo.convert %arg49 : (tensor<768xbf16>) -> tensor<768xf32>
    %365 = stablehlo.broadcast_in_dim %364, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %366 = stablehlo.broadcast_in_dim %365, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %367 = stablehlo.add %363, %366 : tensor<8x512x768xf32>
    %368 = stablehlo.convert %367 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %369 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_53 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %370 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %371 = stablehlo.subtract %370, %369 : tensor<8x512xbf16>
    %cst_54 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %372 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %373 = stablehlo.multiply %371, %372 : tensor<8x512xbf16>
    %374 = stablehlo.broadcast_in_dim %373, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %375 = stablehlo.dot_general %368, %arg50, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %376 = stablehlo.broadcast_in_dim %arg51, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %377 = stablehlo.broadcast_in_dim %376, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %378 = stablehlo.add %375, %377 : tensor<8x512x768xbf16>
    %379 = stablehlo.reshape %378 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %380 = stablehlo.transpose %379, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %381 = stablehlo.dot_general %368, %arg52, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %382 = stablehlo.broadcast_in_dim %arg53, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %383 = stablehlo.broadcast_in_dim %382, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %384 = stablehlo.add %381, %383 : tensor<8x512x768xbf16>
    %385 = stablehlo.reshape %384 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %386 = stablehlo.transpose %385, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %387 = stablehlo.dot_general %368, %arg54, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %388 = stablehlo.broadcast_in_dim %arg55, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %389 = stablehlo.broadcast_in_dim %388, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %390 = stablehlo.add %387, %389 : tensor<8x512x768xbf16>
    %391 = stablehlo.reshape %390 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %392 = stablehlo.transpose %391, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %393 = stablehlo.transpose %386, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %394 = stablehlo.dot_general %380, %393, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_55 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %395 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %396 = stablehlo.divide %394, %395 : tensor<8x12x512x512xbf16>
    %397 = stablehlo.broadcast_in_dim %374, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %398 = stablehlo.add %396, %397 : tensor<8x12x512x512xbf16>
    %399 = stablehlo.convert %398 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_56 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %400 = stablehlo.reduce(%399 init: %cst_56) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_57 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %401 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %402 = stablehlo.maximum %401, %400 : tensor<8x12x512xf32>
    %403 = stablehlo.broadcast_in_dim %402, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %404 = stablehlo.broadcast_in_dim %403, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %405 = stablehlo.subtract %399, %404 : tensor<8x12x512x512xf32>
    %406 = stablehlo.exponential %405 : tensor<8x12x512x512xf32>
    %cst_58 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %407 = stablehlo.reduce(%406 init: %cst_58) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %408 = stablehlo.broadcast_in_dim %407, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %409 = stablehlo.broadcast_in_dim %408, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %410 = stablehlo.divide %406, %409 : tensor<8x12x512x512xf32>
    %411 = stablehlo.convert %410 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %412 = stablehlo.dot_general %411, %392, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %413 = stablehlo.transpose %412, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %414 = stablehlo.reshape %413 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %415 = stablehlo.dot_general %414, %arg56, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %416 = stablehlo.add %368, %415 : tensor<8x512x768xbf16>
    %417 = stablehlo.broadcast_in_dim %arg57, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %418 = stablehlo.broadcast_in_dim %417, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %419 = stablehlo.add %416, %418 : tensor<8x512x768xbf16>
    %420 = stablehlo.convert %419 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_59 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %421 = stablehlo.reduce(%420 init: %cst_59) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %422 = stablehlo.broadcast_in_dim %421, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_60 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %423 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %424 = stablehlo.divide %422, %423 : tensor<8x512x1xf32>
    %425 = stablehlo.broadcast_in_dim %424, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %426 = stablehlo.subtract %420, %425 : tensor<8x512x768xf32>
    %427 = stablehlo.multiply %426, %426 : tensor<8x512x768xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %428 = stablehlo.reduce(%427 init: %cst_61) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %429 = stablehlo.broadcast_in_dim %428, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_62 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %430 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %431 = stablehlo.divide %429, %430 : tensor<8x512x1xf32>
    %432 = stablehlo.broadcast_in_dim %424, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %433 = stablehlo.subtract %420, %432 : tensor<8x512x768xf32>
    %cst_63 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %434 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %435 = stablehlo.add %431, %434 : tensor<8x512x1xf32>
    %436 = stablehlo.rsqrt %435 : tensor<8x512x1xf32>
    %437 = stablehlo.broadcast_in_dim %436, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %438 = stablehlo.multiply %433, %437 : tensor<8x512x768xf32>
    %439 = stablehlo.convert %arg58 : (tensor<768xbf16>) -> tensor<768xf32>
    %440 = stablehlo.broadcast_in_dim %439, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %441 = stablehlo.broadcast_in_dim %440, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %442 = stablehlo.multiply %438, %441 : tensor<8x512x768xf32>
    %443 = stablehlo.convert %arg59 : (tensor<768xbf16>) -> tensor<768xf32>
    %444 = stablehlo.broadcast_in_dim %443, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %445 = stablehlo.broadcast_in_dim %444, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %446 = stablehlo.add %442, %445 : tensor<8x512x768xf32>
    %447 = stablehlo.convert %446 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %448 = stablehlo.dot_general %447, %arg60, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %449 = stablehlo.broadcast_in_dim %arg61, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %450 = stablehlo.broadcast_in_dim %449, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %451 = stablehlo.add %448, %450 : tensor<8x512x3072xbf16>
    %cst_64 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %452 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %453 = stablehlo.multiply %452, %451 : tensor<8x512x3072xbf16>
    %454 = stablehlo.negate %451 : tensor<8x512x3072xbf16>
    %cst_65 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %455 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %456 = stablehlo.multiply %454, %455 : tensor<8x512x3072xbf16>
    %457 = chlo.erfc %456 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %458 = stablehlo.multiply %453, %457 : tensor<8x512x3072xbf16>
    %459 = stablehlo.dot_general %458, %arg62, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %460 = stablehlo.broadcast_in_dim %arg63, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %461 = stablehlo.broadcast_in_dim %460, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %462 = stablehlo.add %459, %461 : tensor<8x512x768xbf16>
    %463 = stablehlo.add %447, %462 : tensor<8x512x768xbf16>
    %464 = stablehlo.convert %463 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %465 = stablehlo.reduce(%464 init: %cst_66) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %466 = stablehlo.broadcast_in_dim %465, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_67 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %467 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %468 = stablehlo.divide %466, %467 : tensor<8x512x1xf32>
    %469 = stablehlo.broadcast_in_dim %468, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %470 = stablehlo.subtract %464, %469 : tensor<8x512x768xf32>
    %471 = stablehlo.multiply %470, %470 : tensor<8x512x768xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %472 = stablehlo.reduce(%471 init: %cst_68) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %473 = stablehlo.broadcast_in_dim %472, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_69 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %474 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %475 = stablehlo.divide %473, %474 : tensor<8x512x1xf32>
    %476 = stablehlo.broadcast_in_dim %468, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %477 = stablehlo.subtract %464, %476 : tensor<8x512x768xf32>
    %cst_70 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %478 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %479 = stablehlo.add %475, %478 : tensor<8x512x1xf32>
    %480 = stablehlo.rsqrt %479 : tensor<8x512x1xf32>
    %481 = stablehlo.broadcast_in_dim %480, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %482 = stablehlo.multiply %477, %481 : tensor<8x512x768xf32>
    %483 = stablehlo.convert %arg64 : (tensor<768xbf16>) -> tensor<768xf32>
    %484 = stablehlo.broadcast_in_dim %483, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %485 = stablehlo.broadcast_in_dim %484, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %486 = stablehlo.multiply %482, %485 : tensor<8x512x768xf32>
    %487 = stablehlo.convert %arg65 : (tensor<768xbf16>) -> tensor<768xf32>
    %488 = stablehlo.broadcast_in_dim %487, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %489 = stablehlo.broadcast_in_dim %488, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %490 = stablehlo.add %486, %489 : tensor<8x512x768xf32>
    %491 = stablehlo.convert %490 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %492 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_71 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %493 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %494 = stablehlo.subtract %493, %492 : tensor<8x512xbf16>
    %cst_72 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %495 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %496 = stablehlo.multiply %494, %495 : tensor<8x512xbf16>
    %497 = stablehlo.broadcast_in_dim %496, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %498 = stablehlo.dot_general %491, %arg66, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %499 = stablehlo.broadcast_in_dim %arg67, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %500 = stablehlo.broadcast_in_dim %499, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %501 = stablehlo.add %498, %500 : tensor<8x512x768xbf16>
    %502 = stablehlo.reshape %501 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %503 = stablehlo.transpose %502, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %504 = stablehlo.dot_general %491, %arg68, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %505 = stablehlo.broadcast_in_dim %arg69, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %506 = stablehlo.broadcast_in_dim %505, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %507 = stablehlo.add %504, %506 : tensor<8x512x768xbf16>
    %508 = stablehlo.reshape %507 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %509 = stablehlo.transpose %508, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %510 = stablehlo.dot_general %491, %arg70, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %511 = stablehlo.broadcast_in_dim %arg71, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %512 = stablehlo.broadcast_in_dim %511, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %513 = stablehlo.add %510, %512 : tensor<8x512x768xbf16>
    %514 = stablehlo.reshape %513 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %515 = stablehlo.transpose %514, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %516 = stablehlo.transpose %509, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %517 = stablehlo.dot_general %503, %516, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_73 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %518 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %519 = stablehlo.divide %517, %518 : tensor<8x12x512x512xbf16>
    %520 = stablehlo.broadcast_in_dim %497, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %521 = stablehlo.add %519, %520 : tensor<8x12x512x512xbf16>
    %522 = stablehlo.convert %521 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_74 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %523 = stablehlo.reduce(%522 init: %cst_74) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_75 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %524 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %525 = stablehlo.maximum %524, %523 : tensor<8x12x512xf32>
    %526 = stablehlo.broadcast_in_dim %525, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %527 = stablehlo.broadcast_in_dim %526, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %528 = stablehlo.subtract %522, %527 : tensor<8x12x512x512xf32>
    %529 = stablehlo.exponential %528 : tensor<8x12x512x512xf32>
    %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %530 = stablehlo.reduce(%529 init: %cst_76) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %531 = stablehlo.broadcast_in_dim %530, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %532 = stablehlo.broadcast_in_dim %531, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %533 = stablehlo.divide %529, %532 : tensor<8x12x512x512xf32>
    %534 = stablehlo.convert %533 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %535 = stablehlo.dot_general %534, %515, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %536 = stablehlo.transpose %535, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %537 = stablehlo.reshape %536 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %538 = stablehlo.dot_general %537, %arg72, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %539 = stablehlo.add %491, %538 : tensor<8x512x768xbf16>
    %540 = stablehlo.broadcast_in_dim %arg73, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %541 = stablehlo.broadcast_in_dim %540, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %542 = stablehlo.add %539, %541 : tensor<8x512x768xbf16>
    %543 = stablehlo.convert %542 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_77 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %544 = stablehlo.reduce(%543 init: %cst_77) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %545 = stablehlo.broadcast_in_dim %544, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_78 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %546 = stablehlo.broadcast_in_dim %cst_78, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %547 = stablehlo.divide %545, %546 : tensor<8x512x1xf32>
    %548 = stablehlo.broadcast_in_dim %547, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %549 = stablehlo.subtract %543, %548 : tensor<8x512x768xf32>
    %550 = stablehlo.multiply %549, %549 : tensor<8x512x768xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %551 = stablehlo.reduce(%550 init: %cst_79) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %552 = stablehlo.broadcast_in_dim %551, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_80 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %553 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %554 = stablehlo.divide %552, %553 : tensor<8x512x1xf32>
    %555 = stablehlo.broadcast_in_dim %547, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %556 = stablehlo.subtract %543, %555 : tensor<8x512x768xf32>
    %cst_81 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %557 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %558 = stablehlo.add %554, %557 : tensor<8x512x1xf32>
    %559 = stablehlo.rsqrt %558 : tensor<8x512x1xf32>
    %560 = stablehlo.broadcast_in_dim %559, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %561 = stablehlo.multiply %556, %560 : tensor<8x512x768xf32>
    %562 = stablehlo.convert %arg74 : (tensor<768xbf16>) -> tensor<768xf32>
    %563 = stablehlo.broadcast_in_dim %562, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %564 = stablehlo.broadcast_in_dim %563, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %565 = stablehlo.multiply %561, %564 : tensor<8x512x768xf32>
    %566 = stablehlo.convert %arg75 : (tensor<768xbf16>) -> tensor<768xf32>
    %567 = stablehlo.broadcast_in_dim %566, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %568 = stablehlo.broadcast_in_dim %567, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %569 = stablehlo.add %565, %568 : tensor<8x512x768xf32>
    %570 = stablehlo.convert %569 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %571 = stablehlo.dot_general %570, %arg76, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %572 = stablehlo.broadcast_in_dim %arg77, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %573 = stablehlo.broadcast_in_dim %572, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %574 = stablehlo.add %571, %573 : tensor<8x512x3072xbf16>
    %cst_82 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %575 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %576 = stablehlo.multiply %575, %574 : tensor<8x512x3072xbf16>
    %577 = stablehlo.negate %574 : tensor<8x512x3072xbf16>
    %cst_83 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %578 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %579 = stablehlo.multiply %577, %578 : tensor<8x512x3072xbf16>
    %580 = chlo.erfc %579 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %581 = stablehlo.multiply %576, %580 : tensor<8x512x3072xbf16>
    %582 = stablehlo.dot_general %581, %arg78, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %583 = stablehlo.broadcast_in_dim %arg79, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %584 = stablehlo.broadcast_in_dim %583, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %585 = stablehlo.add %582, %584 : tensor<8x512x768xbf16>
    %586 = stablehlo.add %570, %585 : tensor<8x512x768xbf16>
    %587 = stablehlo.convert %586 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_84 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %588 = stablehlo.reduce(%587 init: %cst_84) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %589 = stablehlo.broadcast_in_dim %588, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_85 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %590 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %591 = stablehlo.divide %589, %590 : tensor<8x512x1xf32>
    %592 = stablehlo.broadcast_in_dim %591, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %593 = stablehlo.subtract %587, %592 : tensor<8x512x768xf32>
    %594 = stablehlo.multiply %593, %593 : tensor<8x512x768xf32>
    %cst_86 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %595 = stablehlo.reduce(%594 init: %cst_86) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %596 = stablehlo.broadcast_in_dim %595, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_87 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %597 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %598 = stablehlo.divide %596, %597 : tensor<8x512x1xf32>
    %599 = stablehlo.broadcast_in_dim %591, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %600 = stablehlo.subtract %587, %599 : tensor<8x512x768xf32>
    %cst_88 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %601 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %602 = stablehlo.add %598, %601 : tensor<8x512x1xf32>
    %603 = stablehlo.rsqrt %602 : tensor<8x512x1xf32>
    %604 = stablehlo.broadcast_in_dim %603, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %605 = stablehlo.multiply %600, %604 : tensor<8x512x768xf32>
    %606 = stablehlo.convert %arg80 : (tensor<768xbf16>) -> tensor<768xf32>
    %607 = stablehlo.broadcast_in_dim %606, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %608 = stablehlo.broadcast_in_dim %607, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %609 = stablehlo.multiply %605, %608 : tensor<8x512x768xf32>
    %610 = stablehlo.convert %arg81 : (tensor<768xbf16>) -> tensor<768xf32>
    %611 = stablehlo.broadcast_in_dim %610, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %612 = stablehlo.broadcast_in_dim %611, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %613 = stablehlo.add %609, %612 : tensor<8x512x768xf32>
    %614 = stablehlo.convert %613 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %615 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_89 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %616 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %617 = stablehlo.subtract %616, %615 : tensor<8x512xbf16>
    %cst_90 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %618 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %619 = stablehlo.multiply %617, %618 : tensor<8x512xbf16>
    %620 = stablehlo.broadcast_in_dim %619, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %621 = stablehlo.dot_general %614, %arg82, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %622 = stablehlo.broadcast_in_dim %arg83, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %623 = stablehlo.broadcast_in_dim %622, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %624 = stablehlo.add %621, %623 : tensor<8x512x768xbf16>
    %625 = stablehlo.reshape %624 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %626 = stablehlo.transpose %625, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %627 = stablehlo.dot_general %614, %arg84, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %628 = stablehlo.broadcast_in_dim %arg85, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %629 = stablehlo.broadcast_in_dim %628, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %630 = stablehlo.add %627, %629 : tensor<8x512x768xbf16>
    %631 = stablehlo.reshape %630 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %632 = stablehlo.transpose %631, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %633 = stablehlo.dot_general %614, %arg86, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %634 = stablehlo.broadcast_in_dim %arg87, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %635 = stablehlo.broadcast_in_dim %634, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %636 = stablehlo.add %633, %635 : tensor<8x512x768xbf16>
    %637 = stablehlo.reshape %636 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %638 = stablehlo.transpose %637, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %639 = stablehlo.transpose %632, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %640 = stablehlo.dot_general %626, %639, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_91 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %641 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %642 = stablehlo.divide %640, %641 : tensor<8x12x512x512xbf16>
    %643 = stablehlo.broadcast_in_dim %620, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %644 = stablehlo.add %642, %643 : tensor<8x12x512x512xbf16>
    %645 = stablehlo.convert %644 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_92 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %646 = stablehlo.reduce(%645 init: %cst_92) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_93 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %647 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %648 = stablehlo.maximum %647, %646 : tensor<8x12x512xf32>
    %649 = stablehlo.broadcast_in_dim %648, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %650 = stablehlo.broadcast_in_dim %649, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %651 = stablehlo.subtract %645, %650 : tensor<8x12x512x512xf32>
    %652 = stablehlo.exponential %651 : tensor<8x12x512x512xf32>
    %cst_94 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %653 = stablehlo.reduce(%652 init: %cst_94) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %654 = stablehlo.broadcast_in_dim %653, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %655 = stablehlo.broadcast_in_dim %654, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %656 = stablehlo.divide %652, %655 : tensor<8x12x512x512xf32>
    %657 = stablehlo.convert %656 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %658 = stablehlo.dot_general %657, %638, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %659 = stablehlo.transpose %658, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %660 = stablehlo.reshape %659 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %661 = stablehlo.dot_general %660, %arg88, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %662 = stablehlo.add %614, %661 : tensor<8x512x768xbf16>
    %663 = stablehlo.broadcast_in_dim %arg89, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %664 = stablehlo.broadcast_in_dim %663, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %665 = stablehlo.add %662, %664 : tensor<8x512x768xbf16>
    %666 = stablehlo.convert %665 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %667 = stablehlo.reduce(%666 init: %cst_95) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %668 = stablehlo.broadcast_in_dim %667, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_96 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %669 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %670 = stablehlo.divide %668, %669 : tensor<8x512x1xf32>
    %671 = stablehlo.broadcast_in_dim %670, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %672 = stablehlo.subtract %666, %671 : tensor<8x512x768xf32>
    %673 = stablehlo.multiply %672, %672 : tensor<8x512x768xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %674 = stablehlo.reduce(%673 init: %cst_97) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %675 = stablehlo.broadcast_in_dim %674, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_98 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %676 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %677 = stablehlo.divide %675, %676 : tensor<8x512x1xf32>
    %678 = stablehlo.broadcast_in_dim %670, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %679 = stablehlo.subtract %666, %678 : tensor<8x512x768xf32>
    %cst_99 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %680 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %681 = stablehlo.add %677, %680 : tensor<8x512x1xf32>
    %682 = stablehlo.rsqrt %681 : tensor<8x512x1xf32>
    %683 = stablehlo.broadcast_in_dim %682, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %684 = stablehlo.multiply %679, %683 : tensor<8x512x768xf32>
    %685 = stablehlo.convert %arg90 : (tensor<768xbf16>) -> tensor<768xf32>
    %686 = stablehlo.broadcast_in_dim %685, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %687 = stablehlo.broadcast_in_dim %686, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %688 = stablehlo.multiply %684, %687 : tensor<8x512x768xf32>
    %689 = stablehlo.convert %arg91 : (tensor<768xbf16>) -> tensor<768xf32>
    %690 = stablehlo.broadcast_in_dim %689, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %691 = stablehlo.broadcast_in_dim %690, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %692 = stablehlo.add %688, %691 : tensor<8x512x768xf32>
    %693 = stablehlo.convert %692 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %694 = stablehlo.dot_general %693, %arg92, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %695 = stablehlo.broadcast_in_dim %arg93, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %696 = stablehlo.broadcast_in_dim %695, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %697 = stablehlo.add %694, %696 : tensor<8x512x3072xbf16>
    %cst_100 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %698 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %699 = stablehlo.multiply %698, %697 : tensor<8x512x3072xbf16>
    %700 = stablehlo.negate %697 : tensor<8x512x3072xbf16>
    %cst_101 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %701 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %702 = stablehlo.multiply %700, %701 : tensor<8x512x3072xbf16>
    %703 = chlo.erfc %702 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %704 = stablehlo.multiply %699, %703 : tensor<8x512x3072xbf16>
    %705 = stablehlo.dot_general %704, %arg94, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %706 = stablehlo.broadcast_in_dim %arg95, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %707 = stablehlo.broadcast_in_dim %706, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %708 = stablehlo.add %705, %707 : tensor<8x512x768xbf16>
    %709 = stablehlo.add %693, %708 : tensor<8x512x768xbf16>
    %710 = stablehlo.convert %709 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_102 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %711 = stablehlo.reduce(%710 init: %cst_102) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %712 = stablehlo.broadcast_in_dim %711, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_103 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %713 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %714 = stablehlo.divide %712, %713 : tensor<8x512x1xf32>
    %715 = stablehlo.broadcast_in_dim %714, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %716 = stablehlo.subtract %710, %715 : tensor<8x512x768xf32>
    %717 = stablehlo.multiply %716, %716 : tensor<8x512x768xf32>
    %cst_104 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %718 = stablehlo.reduce(%717 init: %cst_104) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %719 = stablehlo.broadcast_in_dim %718, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_105 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %720 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %721 = stablehlo.divide %719, %720 : tensor<8x512x1xf32>
    %722 = stablehlo.broadcast_in_dim %714, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %723 = stablehlo.subtract %710, %722 : tensor<8x512x768xf32>
    %cst_106 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %724 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %725 = stablehlo.add %721, %724 : tensor<8x512x1xf32>
    %726 = stablehlo.rsqrt %725 : tensor<8x512x1xf32>
    %727 = stablehlo.broadcast_in_dim %726, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %728 = stablehlo.multiply %723, %727 : tensor<8x512x768xf32>
    %729 = stablehlo.convert %arg96 : (tensor<768xbf16>) -> tensor<768xf32>
    %730 = stablehlo.broadcast_in_dim %729, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %731 = stablehlo.broadcast_in_dim %730, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %732 = stablehlo.multiply %728, %731 : tensor<8x512x768xf32>
    %733 = stablehlo.convert %arg97 : (tensor<768xbf16>) -> tensor<768xf32>
    %734 = stablehlo.broadcast_in_dim %733, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %735 = stablehlo.broadcast_in_dim %734, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %736 = stablehlo.add %732, %735 : tensor<8x512x768xf32>
    %737 = stablehlo.convert %736 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %738 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_107 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %739 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %740 = stablehlo.subtract %739, %738 : tensor<8x512xbf16>
    %cst_108 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %741 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %742 = stablehlo.multiply %740, %741 : tensor<8x512xbf16>
    %743 = stablehlo.broadcast_in_dim %742, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %744 = stablehlo.dot_general %737, %arg98, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %745 = stablehlo.broadcast_in_dim %arg99, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %746 = stablehlo.broadcast_in_dim %745, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %747 = stablehlo.add %744, %746 : tensor<8x512x768xbf16>
    %748 = stablehlo.reshape %747 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %749 = stablehlo.transpose %748, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %750 = stablehlo.dot_general %737, %arg100, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %751 = stablehlo.broadcast_in_dim %arg101, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %752 = stablehlo.broadcast_in_dim %751, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %753 = stablehlo.add %750, %752 : tensor<8x512x768xbf16>
    %754 = stablehlo.reshape %753 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %755 = stablehlo.transpose %754, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %756 = stablehlo.dot_general %737, %arg102, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %757 = stablehlo.broadcast_in_dim %arg103, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %758 = stablehlo.broadcast_in_dim %757, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %759 = stablehlo.add %756, %758 : tensor<8x512x768xbf16>
    %760 = stablehlo.reshape %759 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %761 = stablehlo.transpose %760, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %762 = stablehlo.transpose %755, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %763 = stablehlo.dot_general %749, %762, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_109 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %764 = stablehlo.broadcast_in_dim %cst_109, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %765 = stablehlo.divide %763, %764 : tensor<8x12x512x512xbf16>
    %766 = stablehlo.broadcast_in_dim %743, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %767 = stablehlo.add %765, %766 : tensor<8x12x512x512xbf16>
    %768 = stablehlo.convert %767 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_110 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %769 = stablehlo.reduce(%768 init: %cst_110) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_111 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %770 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %771 = stablehlo.maximum %770, %769 : tensor<8x12x512xf32>
    %772 = stablehlo.broadcast_in_dim %771, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %773 = stablehlo.broadcast_in_dim %772, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %774 = stablehlo.subtract %768, %773 : tensor<8x12x512x512xf32>
    %775 = stablehlo.exponential %774 : tensor<8x12x512x512xf32>
    %cst_112 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %776 = stablehlo.reduce(%775 init: %cst_112) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %777 = stablehlo.broadcast_in_dim %776, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %778 = stablehlo.broadcast_in_dim %777, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %779 = stablehlo.divide %775, %778 : tensor<8x12x512x512xf32>
    %780 = stablehlo.convert %779 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %781 = stablehlo.dot_general %780, %761, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %782 = stablehlo.transpose %781, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %783 = stablehlo.reshape %782 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %784 = stablehlo.dot_general %783, %arg104, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %785 = stablehlo.add %737, %784 : tensor<8x512x768xbf16>
    %786 = stablehlo.broadcast_in_dim %arg105, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %787 = stablehlo.broadcast_in_dim %786, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %788 = stablehlo.add %785, %787 : tensor<8x512x768xbf16>
    %789 = stablehlo.convert %788 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_113 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %790 = stablehlo.reduce(%789 init: %cst_113) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %791 = stablehlo.broadcast_in_dim %790, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_114 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %792 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %793 = stablehlo.divide %791, %792 : tensor<8x512x1xf32>
    %794 = stablehlo.broadcast_in_dim %793, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %795 = stablehlo.subtract %789, %794 : tensor<8x512x768xf32>
    %796 = stablehlo.multiply %795, %795 : tensor<8x512x768xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %797 = stablehlo.reduce(%796 init: %cst_115) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %798 = stablehlo.broadcast_in_dim %797, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_116 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %799 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %800 = stablehlo.divide %798, %799 : tensor<8x512x1xf32>
    %801 = stablehlo.broadcast_in_dim %793, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %802 = stablehlo.subtract %789, %801 : tensor<8x512x768xf32>
    %cst_117 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %803 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %804 = stablehlo.add %800, %803 : tensor<8x512x1xf32>
    %805 = stablehlo.rsqrt %804 : tensor<8x512x1xf32>
    %806 = stablehlo.broadcast_in_dim %805, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %807 = stablehlo.multiply %802, %806 : tensor<8x512x768xf32>
    %808 = stablehlo.convert %arg106 : (tensor<768xbf16>) -> tensor<768xf32>
    %809 = stablehlo.broadcast_in_dim %808, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %810 = stablehlo.broadcast_in_dim %809, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %811 = stablehlo.multiply %807, %810 : tensor<8x512x768xf32>
    %812 = stablehlo.convert %arg107 : (tensor<768xbf16>) -> tensor<768xf32>
    %813 = stablehlo.broadcast_in_dim %812, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %814 = stablehlo.broadcast_in_dim %813, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %815 = stablehlo.add %811, %814 : tensor<8x512x768xf32>
    %816 = stablehlo.convert %815 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %817 = stablehlo.dot_general %816, %arg108, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %818 = stablehlo.broadcast_in_dim %arg109, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %819 = stablehlo.broadcast_in_dim %818, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %820 = stablehlo.add %817, %819 : tensor<8x512x3072xbf16>
    %cst_118 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %821 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %822 = stablehlo.multiply %821, %820 : tensor<8x512x3072xbf16>
    %823 = stablehlo.negate %820 : tensor<8x512x3072xbf16>
    %cst_119 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %824 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %825 = stablehlo.multiply %823, %824 : tensor<8x512x3072xbf16>
    %826 = chlo.erfc %825 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %827 = stablehlo.multiply %822, %826 : tensor<8x512x3072xbf16>
    %828 = stablehlo.dot_general %827, %arg110, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %829 = stablehlo.broadcast_in_dim %arg111, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %830 = stablehlo.broadcast_in_dim %829, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %831 = stablehlo.add %828, %830 : tensor<8x512x768xbf16>
    %832 = stablehlo.add %816, %831 : tensor<8x512x768xbf16>
    %833 = stablehlo.convert %832 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %834 = stablehlo.reduce(%833 init: %cst_120) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %835 = stablehlo.broadcast_in_dim %834, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_121 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %836 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %837 = stablehlo.divide %835, %836 : tensor<8x512x1xf32>
    %838 = stablehlo.broadcast_in_dim %837, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %839 = stablehlo.subtract %833, %838 : tensor<8x512x768xf32>
    %840 = stablehlo.multiply %839, %839 : tensor<8x512x768xf32>
    %cst_122 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %841 = stablehlo.reduce(%840 init: %cst_122) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %842 = stablehlo.broadcast_in_dim %841, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_123 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %843 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %844 = stablehlo.divide %842, %843 : tensor<8x512x1xf32>
    %845 = stablehlo.broadcast_in_dim %837, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %846 = stablehlo.subtract %833, %845 : tensor<8x512x768xf32>
    %cst_124 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %847 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %848 = stablehlo.add %844, %847 : tensor<8x512x1xf32>
    %849 = stablehlo.rsqrt %848 : tensor<8x512x1xf32>
    %850 = stablehlo.broadcast_in_dim %849, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %851 = stablehlo.multiply %846, %850 : tensor<8x512x768xf32>
    %852 = stablehlo.convert %arg112 : (tensor<768xbf16>) -> tensor<768xf32>
    %853 = stablehlo.broadcast_in_dim %852, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %854 = stablehlo.broadcast_in_dim %853, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %855 = stablehlo.multiply %851, %854 : tensor<8x512x768xf32>
    %856 = stablehlo.convert %arg113 : (tensor<768xbf16>) -> tensor<768xf32>
    %857 = stablehlo.broadcast_in_dim %856, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %858 = stablehlo.broadcast_in_dim %857, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %859 = stablehlo.add %855, %858 : tensor<8x512x768xf32>
    %860 = stablehlo.convert %859 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %861 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_125 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %862 = stablehlo.broadcast_in_dim %cst_125, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %863 = stablehlo.subtract %862, %861 : tensor<8x512xbf16>
    %cst_126 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %864 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %865 = stablehlo.multiply %863, %864 : tensor<8x512xbf16>
    %866 = stablehlo.broadcast_in_dim %865, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %867 = stablehlo.dot_general %860, %arg114, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %868 = stablehlo.broadcast_in_dim %arg115, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %869 = stablehlo.broadcast_in_dim %868, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %870 = stablehlo.add %867, %869 : tensor<8x512x768xbf16>
    %871 = stablehlo.reshape %870 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %872 = stablehlo.transpose %871, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %873 = stablehlo.dot_general %860, %arg116, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %874 = stablehlo.broadcast_in_dim %arg117, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %875 = stablehlo.broadcast_in_dim %874, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %876 = stablehlo.add %873, %875 : tensor<8x512x768xbf16>
    %877 = stablehlo.reshape %876 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %878 = stablehlo.transpose %877, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %879 = stablehlo.dot_general %860, %arg118, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %880 = stablehlo.broadcast_in_dim %arg119, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %881 = stablehlo.broadcast_in_dim %880, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %882 = stablehlo.add %879, %881 : tensor<8x512x768xbf16>
    %883 = stablehlo.reshape %882 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %884 = stablehlo.transpose %883, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %885 = stablehlo.transpose %878, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %886 = stablehlo.dot_general %872, %885, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_127 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %887 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %888 = stablehlo.divide %886, %887 : tensor<8x12x512x512xbf16>
    %889 = stablehlo.broadcast_in_dim %866, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %890 = stablehlo.add %888, %889 : tensor<8x12x512x512xbf16>
    %891 = stablehlo.convert %890 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_128 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %892 = stablehlo.reduce(%891 init: %cst_128) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_129 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %893 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %894 = stablehlo.maximum %893, %892 : tensor<8x12x512xf32>
    %895 = stablehlo.broadcast_in_dim %894, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %896 = stablehlo.broadcast_in_dim %895, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %897 = stablehlo.subtract %891, %896 : tensor<8x12x512x512xf32>
    %898 = stablehlo.exponential %897 : tensor<8x12x512x512xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %899 = stablehlo.reduce(%898 init: %cst_130) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %900 = stablehlo.broadcast_in_dim %899, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %901 = stablehlo.broadcast_in_dim %900, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %902 = stablehlo.divide %898, %901 : tensor<8x12x512x512xf32>
    %903 = stablehlo.convert %902 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %904 = stablehlo.dot_general %903, %884, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %905 = stablehlo.transpose %904, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %906 = stablehlo.reshape %905 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %907 = stablehlo.dot_general %906, %arg120, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %908 = stablehlo.add %860, %907 : tensor<8x512x768xbf16>
    %909 = stablehlo.broadcast_in_dim %arg121, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %910 = stablehlo.broadcast_in_dim %909, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %911 = stablehlo.add %908, %910 : tensor<8x512x768xbf16>
    %912 = stablehlo.convert %911 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_131 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %913 = stablehlo.reduce(%912 init: %cst_131) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %914 = stablehlo.broadcast_in_dim %913, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_132 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %915 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %916 = stablehlo.divide %914, %915 : tensor<8x512x1xf32>
    %917 = stablehlo.broadcast_in_dim %916, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %918 = stablehlo.subtract %912, %917 : tensor<8x512x768xf32>
    %919 = stablehlo.multiply %918, %918 : tensor<8x512x768xf32>
    %cst_133 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %920 = stablehlo.reduce(%919 init: %cst_133) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %921 = stablehlo.broadcast_in_dim %920, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_134 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %922 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %923 = stablehlo.divide %921, %922 : tensor<8x512x1xf32>
    %924 = stablehlo.broadcast_in_dim %916, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %925 = stablehlo.subtract %912, %924 : tensor<8x512x768xf32>
    %cst_135 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %926 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %927 = stablehlo.add %923, %926 : tensor<8x512x1xf32>
    %928 = stablehlo.rsqrt %927 : tensor<8x512x1xf32>
    %929 = stablehlo.broadcast_in_dim %928, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %930 = stablehlo.multiply %925, %929 : tensor<8x512x768xf32>
    %931 = stablehlo.convert %arg122 : (tensor<768xbf16>) -> tensor<768xf32>
    %932 = stablehlo.broadcast_in_dim %931, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %933 = stablehlo.broadcast_in_dim %932, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %934 = stablehlo.multiply %930, %933 : tensor<8x512x768xf32>
    %935 = stablehlo.convert %arg123 : (tensor<768xbf16>) -> tensor<768xf32>
    %936 = stablehlo.broadcast_in_dim %935, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %937 = stablehlo.broadcast_in_dim %936, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %938 = stablehlo.add %934, %937 : tensor<8x512x768xf32>
    %939 = stablehlo.convert %938 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %940 = stablehlo.dot_general %939, %arg124, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %941 = stablehlo.broadcast_in_dim %arg125, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %942 = stablehlo.broadcast_in_dim %941, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %943 = stablehlo.add %940, %942 : tensor<8x512x3072xbf16>
    %cst_136 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %944 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %945 = stablehlo.multiply %944, %943 : tensor<8x512x3072xbf16>
    %946 = stablehlo.negate %943 : tensor<8x512x3072xbf16>
    %cst_137 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %947 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %948 = stablehlo.multiply %946, %947 : tensor<8x512x3072xbf16>
    %949 = chlo.erfc %948 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %950 = stablehlo.multiply %945, %949 : tensor<8x512x3072xbf16>
    %951 = stablehlo.dot_general %950, %arg126, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %952 = stablehlo.broadcast_in_dim %arg127, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %953 = stablehlo.broadcast_in_dim %952, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %954 = stablehlo.add %951, %953 : tensor<8x512x768xbf16>
    %955 = stablehlo.add %939, %954 : tensor<8x512x768xbf16>
    %956 = stablehlo.convert %955 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_138 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %957 = stablehlo.reduce(%956 init: %cst_138) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %958 = stablehlo.broadcast_in_dim %957, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_139 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %959 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %960 = stablehlo.divide %958, %959 : tensor<8x512x1xf32>
    %961 = stablehlo.broadcast_in_dim %960, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %962 = stablehlo.subtract %956, %961 : tensor<8x512x768xf32>
    %963 = stablehlo.multiply %962, %962 : tensor<8x512x768xf32>
    %cst_140 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %964 = stablehlo.reduce(%963 init: %cst_140) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %965 = stablehlo.broadcast_in_dim %964, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_141 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %966 = stablehlo.broadcast_in_dim %cst_141, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %967 = stablehlo.divide %965, %966 : tensor<8x512x1xf32>
    %968 = stablehlo.broadcast_in_dim %960, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %969 = stablehlo.subtract %956, %968 : tensor<8x512x768xf32>
    %cst_142 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %970 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %971 = stablehlo.add %967, %970 : tensor<8x512x1xf32>
    %972 = stablehlo.rsqrt %971 : tensor<8x512x1xf32>
    %973 = stablehlo.broadcast_in_dim %972, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %974 = stablehlo.multiply %969, %973 : tensor<8x512x768xf32>
    %975 = stablehlo.convert %arg128 : (tensor<768xbf16>) -> tensor<768xf32>
    %976 = stablehlo.broadcast_in_dim %975, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %977 = stablehlo.broadcast_in_dim %976, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %978 = stablehlo.multiply %974, %977 : tensor<8x512x768xf32>
    %979 = stablehlo.convert %arg129 : (tensor<768xbf16>) -> tensor<768xf32>
    %980 = stablehlo.broadcast_in_dim %979, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %981 = stablehlo.broadcast_in_dim %980, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %982 = stablehlo.add %978, %981 : tensor<8x512x768xf32>
    %983 = stablehlo.convert %982 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %984 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_143 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %985 = stablehlo.broadcast_in_dim %cst_143, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %986 = stablehlo.subtract %985, %984 : tensor<8x512xbf16>
    %cst_144 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %987 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %988 = stablehlo.multiply %986, %987 : tensor<8x512xbf16>
    %989 = stablehlo.broadcast_in_dim %988, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %990 = stablehlo.dot_general %983, %arg130, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %991 = stablehlo.broadcast_in_dim %arg131, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %992 = stablehlo.broadcast_in_dim %991, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %993 = stablehlo.add %990, %992 : tensor<8x512x768xbf16>
    %994 = stablehlo.reshape %993 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %995 = stablehlo.transpose %994, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %996 = stablehlo.dot_general %983, %arg132, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %997 = stablehlo.broadcast_in_dim %arg133, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %998 = stablehlo.broadcast_in_dim %997, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %999 = stablehlo.add %996, %998 : tensor<8x512x768xbf16>
    %1000 = stablehlo.reshape %999 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1001 = stablehlo.transpose %1000, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1002 = stablehlo.dot_general %983, %arg134, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1003 = stablehlo.broadcast_in_dim %arg135, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1004 = stablehlo.broadcast_in_dim %1003, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1005 = stablehlo.add %1002, %1004 : tensor<8x512x768xbf16>
    %1006 = stablehlo.reshape %1005 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1007 = stablehlo.transpose %1006, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1008 = stablehlo.transpose %1001, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %1009 = stablehlo.dot_general %995, %1008, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_145 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %1010 = stablehlo.broadcast_in_dim %cst_145, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %1011 = stablehlo.divide %1009, %1010 : tensor<8x12x512x512xbf16>
    %1012 = stablehlo.broadcast_in_dim %989, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %1013 = stablehlo.add %1011, %1012 : tensor<8x12x512x512xbf16>
    %1014 = stablehlo.convert %1013 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_146 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1015 = stablehlo.reduce(%1014 init: %cst_146) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_147 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1016 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %1017 = stablehlo.maximum %1016, %1015 : tensor<8x12x512xf32>
    %1018 = stablehlo.broadcast_in_dim %1017, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1019 = stablehlo.broadcast_in_dim %1018, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1020 = stablehlo.subtract %1014, %1019 : tensor<8x12x512x512xf32>
    %1021 = stablehlo.exponential %1020 : tensor<8x12x512x512xf32>
    %cst_148 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1022 = stablehlo.reduce(%1021 init: %cst_148) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %1023 = stablehlo.broadcast_in_dim %1022, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1024 = stablehlo.broadcast_in_dim %1023, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1025 = stablehlo.divide %1021, %1024 : tensor<8x12x512x512xf32>
    %1026 = stablehlo.convert %1025 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %1027 = stablehlo.dot_general %1026, %1007, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1028 = stablehlo.transpose %1027, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %1029 = stablehlo.reshape %1028 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %1030 = stablehlo.dot_general %1029, %arg136, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1031 = stablehlo.add %983, %1030 : tensor<8x512x768xbf16>
    %1032 = stablehlo.broadcast_in_dim %arg137, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1033 = stablehlo.broadcast_in_dim %1032, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1034 = stablehlo.add %1031, %1033 : tensor<8x512x768xbf16>
    %1035 = stablehlo.convert %1034 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_149 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1036 = stablehlo.reduce(%1035 init: %cst_149) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1037 = stablehlo.broadcast_in_dim %1036, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_150 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1038 = stablehlo.broadcast_in_dim %cst_150, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1039 = stablehlo.divide %1037, %1038 : tensor<8x512x1xf32>
    %1040 = stablehlo.broadcast_in_dim %1039, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1041 = stablehlo.subtract %1035, %1040 : tensor<8x512x768xf32>
    %1042 = stablehlo.multiply %1041, %1041 : tensor<8x512x768xf32>
    %cst_151 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1043 = stablehlo.reduce(%1042 init: %cst_151) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1044 = stablehlo.broadcast_in_dim %1043, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_152 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1045 = stablehlo.broadcast_in_dim %cst_152, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1046 = stablehlo.divide %1044, %1045 : tensor<8x512x1xf32>
    %1047 = stablehlo.broadcast_in_dim %1039, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1048 = stablehlo.subtract %1035, %1047 : tensor<8x512x768xf32>
    %cst_153 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1049 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1050 = stablehlo.add %1046, %1049 : tensor<8x512x1xf32>
    %1051 = stablehlo.rsqrt %1050 : tensor<8x512x1xf32>
    %1052 = stablehlo.broadcast_in_dim %1051, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1053 = stablehlo.multiply %1048, %1052 : tensor<8x512x768xf32>
    %1054 = stablehlo.convert %arg138 : (tensor<768xbf16>) -> tensor<768xf32>
    %1055 = stablehlo.broadcast_in_dim %1054, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1056 = stablehlo.broadcast_in_dim %1055, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1057 = stablehlo.multiply %1053, %1056 : tensor<8x512x768xf32>
    %1058 = stablehlo.convert %arg139 : (tensor<768xbf16>) -> tensor<768xf32>
    %1059 = stablehlo.broadcast_in_dim %1058, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1060 = stablehlo.broadcast_in_dim %1059, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1061 = stablehlo.add %1057, %1060 : tensor<8x512x768xf32>
    %1062 = stablehlo.convert %1061 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1063 = stablehlo.dot_general %1062, %arg140, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1064 = stablehlo.broadcast_in_dim %arg141, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %1065 = stablehlo.broadcast_in_dim %1064, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1066 = stablehlo.add %1063, %1065 : tensor<8x512x3072xbf16>
    %cst_154 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %1067 = stablehlo.broadcast_in_dim %cst_154, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1068 = stablehlo.multiply %1067, %1066 : tensor<8x512x3072xbf16>
    %1069 = stablehlo.negate %1066 : tensor<8x512x3072xbf16>
    %cst_155 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %1070 = stablehlo.broadcast_in_dim %cst_155, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1071 = stablehlo.multiply %1069, %1070 : tensor<8x512x3072xbf16>
    %1072 = chlo.erfc %1071 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %1073 = stablehlo.multiply %1068, %1072 : tensor<8x512x3072xbf16>
    %1074 = stablehlo.dot_general %1073, %arg142, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %1075 = stablehlo.broadcast_in_dim %arg143, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1076 = stablehlo.broadcast_in_dim %1075, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1077 = stablehlo.add %1074, %1076 : tensor<8x512x768xbf16>
    %1078 = stablehlo.add %1062, %1077 : tensor<8x512x768xbf16>
    %1079 = stablehlo.convert %1078 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_156 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1080 = stablehlo.reduce(%1079 init: %cst_156) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1081 = stablehlo.broadcast_in_dim %1080, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_157 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1082 = stablehlo.broadcast_in_dim %cst_157, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1083 = stablehlo.divide %1081, %1082 : tensor<8x512x1xf32>
    %1084 = stablehlo.broadcast_in_dim %1083, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1085 = stablehlo.subtract %1079, %1084 : tensor<8x512x768xf32>
    %1086 = stablehlo.multiply %1085, %1085 : tensor<8x512x768xf32>
    %cst_158 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1087 = stablehlo.reduce(%1086 init: %cst_158) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1088 = stablehlo.broadcast_in_dim %1087, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_159 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1089 = stablehlo.broadcast_in_dim %cst_159, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1090 = stablehlo.divide %1088, %1089 : tensor<8x512x1xf32>
    %1091 = stablehlo.broadcast_in_dim %1083, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1092 = stablehlo.subtract %1079, %1091 : tensor<8x512x768xf32>
    %cst_160 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1093 = stablehlo.broadcast_in_dim %cst_160, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1094 = stablehlo.add %1090, %1093 : tensor<8x512x1xf32>
    %1095 = stablehlo.rsqrt %1094 : tensor<8x512x1xf32>
    %1096 = stablehlo.broadcast_in_dim %1095, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1097 = stablehlo.multiply %1092, %1096 : tensor<8x512x768xf32>
    %1098 = stablehlo.convert %arg144 : (tensor<768xbf16>) -> tensor<768xf32>
    %1099 = stablehlo.broadcast_in_dim %1098, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1100 = stablehlo.broadcast_in_dim %1099, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1101 = stablehlo.multiply %1097, %1100 : tensor<8x512x768xf32>
    %1102 = stablehlo.convert %arg145 : (tensor<768xbf16>) -> tensor<768xf32>
    %1103 = stablehlo.broadcast_in_dim %1102, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1104 = stablehlo.broadcast_in_dim %1103, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1105 = stablehlo.add %1101, %1104 : tensor<8x512x768xf32>
    %1106 = stablehlo.convert %1105 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1107 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_161 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1108 = stablehlo.broadcast_in_dim %cst_161, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %1109 = stablehlo.subtract %1108, %1107 : tensor<8x512xbf16>
    %cst_162 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %1110 = stablehlo.broadcast_in_dim %cst_162, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %1111 = stablehlo.multiply %1109, %1110 : tensor<8x512xbf16>
    %1112 = stablehlo.broadcast_in_dim %1111, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %1113 = stablehlo.dot_general %1106, %arg146, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1114 = stablehlo.broadcast_in_dim %arg147, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1115 = stablehlo.broadcast_in_dim %1114, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1116 = stablehlo.add %1113, %1115 : tensor<8x512x768xbf16>
    %1117 = stablehlo.reshape %1116 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1118 = stablehlo.transpose %1117, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1119 = stablehlo.dot_general %1106, %arg148, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1120 = stablehlo.broadcast_in_dim %arg149, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1121 = stablehlo.broadcast_in_dim %1120, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1122 = stablehlo.add %1119, %1121 : tensor<8x512x768xbf16>
    %1123 = stablehlo.reshape %1122 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1124 = stablehlo.transpose %1123, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1125 = stablehlo.dot_general %1106, %arg150, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1126 = stablehlo.broadcast_in_dim %arg151, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1127 = stablehlo.broadcast_in_dim %1126, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1128 = stablehlo.add %1125, %1127 : tensor<8x512x768xbf16>
    %1129 = stablehlo.reshape %1128 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1130 = stablehlo.transpose %1129, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1131 = stablehlo.transpose %1124, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %1132 = stablehlo.dot_general %1118, %1131, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_163 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %1133 = stablehlo.broadcast_in_dim %cst_163, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %1134 = stablehlo.divide %1132, %1133 : tensor<8x12x512x512xbf16>
    %1135 = stablehlo.broadcast_in_dim %1112, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %1136 = stablehlo.add %1134, %1135 : tensor<8x12x512x512xbf16>
    %1137 = stablehlo.convert %1136 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_164 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1138 = stablehlo.reduce(%1137 init: %cst_164) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_165 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1139 = stablehlo.broadcast_in_dim %cst_165, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %1140 = stablehlo.maximum %1139, %1138 : tensor<8x12x512xf32>
    %1141 = stablehlo.broadcast_in_dim %1140, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1142 = stablehlo.broadcast_in_dim %1141, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1143 = stablehlo.subtract %1137, %1142 : tensor<8x12x512x512xf32>
    %1144 = stablehlo.exponential %1143 : tensor<8x12x512x512xf32>
    %cst_166 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1145 = stablehlo.reduce(%1144 init: %cst_166) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %1146 = stablehlo.broadcast_in_dim %1145, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1147 = stablehlo.broadcast_in_dim %1146, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1148 = stablehlo.divide %1144, %1147 : tensor<8x12x512x512xf32>
    %1149 = stablehlo.convert %1148 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %1150 = stablehlo.dot_general %1149, %1130, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1151 = stablehlo.transpose %1150, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %1152 = stablehlo.reshape %1151 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %1153 = stablehlo.dot_general %1152, %arg152, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1154 = stablehlo.add %1106, %1153 : tensor<8x512x768xbf16>
    %1155 = stablehlo.broadcast_in_dim %arg153, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1156 = stablehlo.broadcast_in_dim %1155, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1157 = stablehlo.add %1154, %1156 : tensor<8x512x768xbf16>
    %1158 = stablehlo.convert %1157 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_167 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1159 = stablehlo.reduce(%1158 init: %cst_167) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1160 = stablehlo.broadcast_in_dim %1159, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_168 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1161 = stablehlo.broadcast_in_dim %cst_168, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1162 = stablehlo.divide %1160, %1161 : tensor<8x512x1xf32>
    %1163 = stablehlo.broadcast_in_dim %1162, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1164 = stablehlo.subtract %1158, %1163 : tensor<8x512x768xf32>
    %1165 = stablehlo.multiply %1164, %1164 : tensor<8x512x768xf32>
    %cst_169 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1166 = stablehlo.reduce(%1165 init: %cst_169) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1167 = stablehlo.broadcast_in_dim %1166, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_170 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1168 = stablehlo.broadcast_in_dim %cst_170, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1169 = stablehlo.divide %1167, %1168 : tensor<8x512x1xf32>
    %1170 = stablehlo.broadcast_in_dim %1162, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1171 = stablehlo.subtract %1158, %1170 : tensor<8x512x768xf32>
    %cst_171 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1172 = stablehlo.broadcast_in_dim %cst_171, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1173 = stablehlo.add %1169, %1172 : tensor<8x512x1xf32>
    %1174 = stablehlo.rsqrt %1173 : tensor<8x512x1xf32>
    %1175 = stablehlo.broadcast_in_dim %1174, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1176 = stablehlo.multiply %1171, %1175 : tensor<8x512x768xf32>
    %1177 = stablehlo.convert %arg154 : (tensor<768xbf16>) -> tensor<768xf32>
    %1178 = stablehlo.broadcast_in_dim %1177, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1179 = stablehlo.broadcast_in_dim %1178, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1180 = stablehlo.multiply %1176, %1179 : tensor<8x512x768xf32>
    %1181 = stablehlo.convert %arg155 : (tensor<768xbf16>) -> tensor<768xf32>
    %1182 = stablehlo.broadcast_in_dim %1181, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1183 = stablehlo.broadcast_in_dim %1182, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1184 = stablehlo.add %1180, %1183 : tensor<8x512x768xf32>
    %1185 = stablehlo.convert %1184 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1186 = stablehlo.dot_general %1185, %arg156, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1187 = stablehlo.broadcast_in_dim %arg157, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %1188 = stablehlo.broadcast_in_dim %1187, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1189 = stablehlo.add %1186, %1188 : tensor<8x512x3072xbf16>
    %cst_172 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %1190 = stablehlo.broadcast_in_dim %cst_172, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1191 = stablehlo.multiply %1190, %1189 : tensor<8x512x3072xbf16>
    %1192 = stablehlo.negate %1189 : tensor<8x512x3072xbf16>
    %cst_173 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %1193 = stablehlo.broadcast_in_dim %cst_173, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1194 = stablehlo.multiply %1192, %1193 : tensor<8x512x3072xbf16>
    %1195 = chlo.erfc %1194 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %1196 = stablehlo.multiply %1191, %1195 : tensor<8x512x3072xbf16>
    %1197 = stablehlo.dot_general %1196, %arg158, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %1198 = stablehlo.broadcast_in_dim %arg159, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1199 = stablehlo.broadcast_in_dim %1198, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1200 = stablehlo.add %1197, %1199 : tensor<8x512x768xbf16>
    %1201 = stablehlo.add %1185, %1200 : tensor<8x512x768xbf16>
    %1202 = stablehlo.convert %1201 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_174 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1203 = stablehlo.reduce(%1202 init: %cst_174) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1204 = stablehlo.broadcast_in_dim %1203, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_175 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1205 = stablehlo.broadcast_in_dim %cst_175, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1206 = stablehlo.divide %1204, %1205 : tensor<8x512x1xf32>
    %1207 = stablehlo.broadcast_in_dim %1206, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1208 = stablehlo.subtract %1202, %1207 : tensor<8x512x768xf32>
    %1209 = stablehlo.multiply %1208, %1208 : tensor<8x512x768xf32>
    %cst_176 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1210 = stablehlo.reduce(%1209 init: %cst_176) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1211 = stablehlo.broadcast_in_dim %1210, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_177 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1212 = stablehlo.broadcast_in_dim %cst_177, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1213 = stablehlo.divide %1211, %1212 : tensor<8x512x1xf32>
    %1214 = stablehlo.broadcast_in_dim %1206, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1215 = stablehlo.subtract %1202, %1214 : tensor<8x512x768xf32>
    %cst_178 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1216 = stablehlo.broadcast_in_dim %cst_178, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1217 = stablehlo.add %1213, %1216 : tensor<8x512x1xf32>
    %1218 = stablehlo.rsqrt %1217 : tensor<8x512x1xf32>
    %1219 = stablehlo.broadcast_in_dim %1218, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1220 = stablehlo.multiply %1215, %1219 : tensor<8x512x768xf32>
    %1221 = stablehlo.convert %arg160 : (tensor<768xbf16>) -> tensor<768xf32>
    %1222 = stablehlo.broadcast_in_dim %1221, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1223 = stablehlo.broadcast_in_dim %1222, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1224 = stablehlo.multiply %1220, %1223 : tensor<8x512x768xf32>
    %1225 = stablehlo.convert %arg161 : (tensor<768xbf16>) -> tensor<768xf32>
    %1226 = stablehlo.broadcast_in_dim %1225, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1227 = stablehlo.broadcast_in_dim %1226, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1228 = stablehlo.add %1224, %1227 : tensor<8x512x768xf32>
    %1229 = stablehlo.convert %1228 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1230 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_179 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1231 = stablehlo.broadcast_in_dim %cst_179, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %1232 = stablehlo.subtract %1231, %1230 : tensor<8x512xbf16>
    %cst_180 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %1233 = stablehlo.broadcast_in_dim %cst_180, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %1234 = stablehlo.multiply %1232, %1233 : tensor<8x512xbf16>
    %1235 = stablehlo.broadcast_in_dim %1234, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %1236 = stablehlo.dot_general %1229, %arg162, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1237 = stablehlo.broadcast_in_dim %arg163, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1238 = stablehlo.broadcast_in_dim %1237, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1239 = stablehlo.add %1236, %1238 : tensor<8x512x768xbf16>
    %1240 = stablehlo.reshape %1239 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1241 = stablehlo.transpose %1240, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1242 = stablehlo.dot_general %1229, %arg164, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1243 = stablehlo.broadcast_in_dim %arg165, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1244 = stablehlo.broadcast_in_dim %1243, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1245 = stablehlo.add %1242, %1244 : tensor<8x512x768xbf16>
    %1246 = stablehlo.reshape %1245 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1247 = stablehlo.transpose %1246, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1248 = stablehlo.dot_general %1229, %arg166, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1249 = stablehlo.broadcast_in_dim %arg167, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1250 = stablehlo.broadcast_in_dim %1249, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1251 = stablehlo.add %1248, %1250 : tensor<8x512x768xbf16>
    %1252 = stablehlo.reshape %1251 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1253 = stablehlo.transpose %1252, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1254 = stablehlo.transpose %1247, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %1255 = stablehlo.dot_general %1241, %1254, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_181 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %1256 = stablehlo.broadcast_in_dim %cst_181, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %1257 = stablehlo.divide %1255, %1256 : tensor<8x12x512x512xbf16>
    %1258 = stablehlo.broadcast_in_dim %1235, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %1259 = stablehlo.add %1257, %1258 : tensor<8x12x512x512xbf16>
    %1260 = stablehlo.convert %1259 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_182 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1261 = stablehlo.reduce(%1260 init: %cst_182) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_183 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1262 = stablehlo.broadcast_in_dim %cst_183, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %1263 = stablehlo.maximum %1262, %1261 : tensor<8x12x512xf32>
    %1264 = stablehlo.broadcast_in_dim %1263, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1265 = stablehlo.broadcast_in_dim %1264, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1266 = stablehlo.subtract %1260, %1265 : tensor<8x12x512x512xf32>
    %1267 = stablehlo.exponential %1266 : tensor<8x12x512x512xf32>
    %cst_184 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1268 = stablehlo.reduce(%1267 init: %cst_184) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %1269 = stablehlo.broadcast_in_dim %1268, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1270 = stablehlo.broadcast_in_dim %1269, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1271 = stablehlo.divide %1267, %1270 : tensor<8x12x512x512xf32>
    %1272 = stablehlo.convert %1271 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %1273 = stablehlo.dot_general %1272, %1253, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1274 = stablehlo.transpose %1273, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %1275 = stablehlo.reshape %1274 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %1276 = stablehlo.dot_general %1275, %arg168, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1277 = stablehlo.add %1229, %1276 : tensor<8x512x768xbf16>
    %1278 = stablehlo.broadcast_in_dim %arg169, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1279 = stablehlo.broadcast_in_dim %1278, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1280 = stablehlo.add %1277, %1279 : tensor<8x512x768xbf16>
    %1281 = stablehlo.convert %1280 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_185 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1282 = stablehlo.reduce(%1281 init: %cst_185) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1283 = stablehlo.broadcast_in_dim %1282, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_186 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1284 = stablehlo.broadcast_in_dim %cst_186, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1285 = stablehlo.divide %1283, %1284 : tensor<8x512x1xf32>
    %1286 = stablehlo.broadcast_in_dim %1285, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1287 = stablehlo.subtract %1281, %1286 : tensor<8x512x768xf32>
    %1288 = stablehlo.multiply %1287, %1287 : tensor<8x512x768xf32>
    %cst_187 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1289 = stablehlo.reduce(%1288 init: %cst_187) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1290 = stablehlo.broadcast_in_dim %1289, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_188 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1291 = stablehlo.broadcast_in_dim %cst_188, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1292 = stablehlo.divide %1290, %1291 : tensor<8x512x1xf32>
    %1293 = stablehlo.broadcast_in_dim %1285, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1294 = stablehlo.subtract %1281, %1293 : tensor<8x512x768xf32>
    %cst_189 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1295 = stablehlo.broadcast_in_dim %cst_189, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1296 = stablehlo.add %1292, %1295 : tensor<8x512x1xf32>
    %1297 = stablehlo.rsqrt %1296 : tensor<8x512x1xf32>
    %1298 = stablehlo.broadcast_in_dim %1297, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1299 = stablehlo.multiply %1294, %1298 : tensor<8x512x768xf32>
    %1300 = stablehlo.convert %arg170 : (tensor<768xbf16>) -> tensor<768xf32>
    %1301 = stablehlo.broadcast_in_dim %1300, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1302 = stablehlo.broadcast_in_dim %1301, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1303 = stablehlo.multiply %1299, %1302 : tensor<8x512x768xf32>
    %1304 = stablehlo.convert %arg171 : (tensor<768xbf16>) -> tensor<768xf32>
    %1305 = stablehlo.broadcast_in_dim %1304, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1306 = stablehlo.broadcast_in_dim %1305, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1307 = stablehlo.add %1303, %1306 : tensor<8x512x768xf32>
    %1308 = stablehlo.convert %1307 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1309 = stablehlo.dot_general %1308, %arg172, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1310 = stablehlo.broadcast_in_dim %arg173, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %1311 = stablehlo.broadcast_in_dim %1310, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1312 = stablehlo.add %1309, %1311 : tensor<8x512x3072xbf16>
    %cst_190 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %1313 = stablehlo.broadcast_in_dim %cst_190, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1314 = stablehlo.multiply %1313, %1312 : tensor<8x512x3072xbf16>
    %1315 = stablehlo.negate %1312 : tensor<8x512x3072xbf16>
    %cst_191 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %1316 = stablehlo.broadcast_in_dim %cst_191, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1317 = stablehlo.multiply %1315, %1316 : tensor<8x512x3072xbf16>
    %1318 = chlo.erfc %1317 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %1319 = stablehlo.multiply %1314, %1318 : tensor<8x512x3072xbf16>
    %1320 = stablehlo.dot_general %1319, %arg174, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %1321 = stablehlo.broadcast_in_dim %arg175, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1322 = stablehlo.broadcast_in_dim %1321, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1323 = stablehlo.add %1320, %1322 : tensor<8x512x768xbf16>
    %1324 = stablehlo.add %1308, %1323 : tensor<8x512x768xbf16>
    %1325 = stablehlo.convert %1324 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_192 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1326 = stablehlo.reduce(%1325 init: %cst_192) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1327 = stablehlo.broadcast_in_dim %1326, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_193 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1328 = stablehlo.broadcast_in_dim %cst_193, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1329 = stablehlo.divide %1327, %1328 : tensor<8x512x1xf32>
    %1330 = stablehlo.broadcast_in_dim %1329, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1331 = stablehlo.subtract %1325, %1330 : tensor<8x512x768xf32>
    %1332 = stablehlo.multiply %1331, %1331 : tensor<8x512x768xf32>
    %cst_194 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1333 = stablehlo.reduce(%1332 init: %cst_194) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1334 = stablehlo.broadcast_in_dim %1333, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_195 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1335 = stablehlo.broadcast_in_dim %cst_195, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1336 = stablehlo.divide %1334, %1335 : tensor<8x512x1xf32>
    %1337 = stablehlo.broadcast_in_dim %1329, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1338 = stablehlo.subtract %1325, %1337 : tensor<8x512x768xf32>
    %cst_196 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1339 = stablehlo.broadcast_in_dim %cst_196, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1340 = stablehlo.add %1336, %1339 : tensor<8x512x1xf32>
    %1341 = stablehlo.rsqrt %1340 : tensor<8x512x1xf32>
    %1342 = stablehlo.broadcast_in_dim %1341, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1343 = stablehlo.multiply %1338, %1342 : tensor<8x512x768xf32>
    %1344 = stablehlo.convert %arg176 : (tensor<768xbf16>) -> tensor<768xf32>
    %1345 = stablehlo.broadcast_in_dim %1344, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1346 = stablehlo.broadcast_in_dim %1345, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1347 = stablehlo.multiply %1343, %1346 : tensor<8x512x768xf32>
    %1348 = stablehlo.convert %arg177 : (tensor<768xbf16>) -> tensor<768xf32>
    %1349 = stablehlo.broadcast_in_dim %1348, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1350 = stablehlo.broadcast_in_dim %1349, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1351 = stablehlo.add %1347, %1350 : tensor<8x512x768xf32>
    %1352 = stablehlo.convert %1351 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1353 = stablehlo.convert %arg1 : (tensor<8x512xi32>) -> tensor<8x512xbf16>
    %cst_197 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %1354 = stablehlo.broadcast_in_dim %cst_197, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %1355 = stablehlo.subtract %1354, %1353 : tensor<8x512xbf16>
    %cst_198 = stablehlo.constant dense<-9.984000e+03> : tensor<bf16>
    %1356 = stablehlo.broadcast_in_dim %cst_198, dims = [] : (tensor<bf16>) -> tensor<8x512xbf16>
    %1357 = stablehlo.multiply %1355, %1356 : tensor<8x512xbf16>
    %1358 = stablehlo.broadcast_in_dim %1357, dims = [0, 3] : (tensor<8x512xbf16>) -> tensor<8x1x1x512xbf16>
    %1359 = stablehlo.dot_general %1352, %arg178, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1360 = stablehlo.broadcast_in_dim %arg179, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1361 = stablehlo.broadcast_in_dim %1360, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1362 = stablehlo.add %1359, %1361 : tensor<8x512x768xbf16>
    %1363 = stablehlo.reshape %1362 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1364 = stablehlo.transpose %1363, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1365 = stablehlo.dot_general %1352, %arg180, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1366 = stablehlo.broadcast_in_dim %arg181, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1367 = stablehlo.broadcast_in_dim %1366, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1368 = stablehlo.add %1365, %1367 : tensor<8x512x768xbf16>
    %1369 = stablehlo.reshape %1368 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1370 = stablehlo.transpose %1369, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1371 = stablehlo.dot_general %1352, %arg182, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1372 = stablehlo.broadcast_in_dim %arg183, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1373 = stablehlo.broadcast_in_dim %1372, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1374 = stablehlo.add %1371, %1373 : tensor<8x512x768xbf16>
    %1375 = stablehlo.reshape %1374 : (tensor<8x512x768xbf16>) -> tensor<8x512x12x64xbf16>
    %1376 = stablehlo.transpose %1375, dims = [0, 2, 1, 3] : (tensor<8x512x12x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1377 = stablehlo.transpose %1370, dims = [0, 1, 3, 2] : (tensor<8x12x512x64xbf16>) -> tensor<8x12x64x512xbf16>
    %1378 = stablehlo.dot_general %1364, %1377, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x64xbf16>, tensor<8x12x64x512xbf16>) -> tensor<8x12x512x512xbf16>
    %cst_199 = stablehlo.constant dense<8.000000e+00> : tensor<bf16>
    %1379 = stablehlo.broadcast_in_dim %cst_199, dims = [] : (tensor<bf16>) -> tensor<8x12x512x512xbf16>
    %1380 = stablehlo.divide %1378, %1379 : tensor<8x12x512x512xbf16>
    %1381 = stablehlo.broadcast_in_dim %1358, dims = [0, 1, 2, 3] : (tensor<8x1x1x512xbf16>) -> tensor<8x12x512x512xbf16>
    %1382 = stablehlo.add %1380, %1381 : tensor<8x12x512x512xbf16>
    %1383 = stablehlo.convert %1382 : (tensor<8x12x512x512xbf16>) -> tensor<8x12x512x512xf32>
    %cst_200 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1384 = stablehlo.reduce(%1383 init: %cst_200) applies stablehlo.maximum across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %cst_201 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1385 = stablehlo.broadcast_in_dim %cst_201, dims = [] : (tensor<f32>) -> tensor<8x12x512xf32>
    %1386 = stablehlo.maximum %1385, %1384 : tensor<8x12x512xf32>
    %1387 = stablehlo.broadcast_in_dim %1386, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1388 = stablehlo.broadcast_in_dim %1387, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1389 = stablehlo.subtract %1383, %1388 : tensor<8x12x512x512xf32>
    %1390 = stablehlo.exponential %1389 : tensor<8x12x512x512xf32>
    %cst_202 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1391 = stablehlo.reduce(%1390 init: %cst_202) applies stablehlo.add across dimensions = [3] : (tensor<8x12x512x512xf32>, tensor<f32>) -> tensor<8x12x512xf32>
    %1392 = stablehlo.broadcast_in_dim %1391, dims = [0, 1, 2] : (tensor<8x12x512xf32>) -> tensor<8x12x512x1xf32>
    %1393 = stablehlo.broadcast_in_dim %1392, dims = [0, 1, 2, 3] : (tensor<8x12x512x1xf32>) -> tensor<8x12x512x512xf32>
    %1394 = stablehlo.divide %1390, %1393 : tensor<8x12x512x512xf32>
    %1395 = stablehlo.convert %1394 : (tensor<8x12x512x512xf32>) -> tensor<8x12x512x512xbf16>
    %1396 = stablehlo.dot_general %1395, %1376, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<8x12x512x512xbf16>, tensor<8x12x512x64xbf16>) -> tensor<8x12x512x64xbf16>
    %1397 = stablehlo.transpose %1396, dims = [0, 2, 1, 3] : (tensor<8x12x512x64xbf16>) -> tensor<8x512x12x64xbf16>
    %1398 = stablehlo.reshape %1397 : (tensor<8x512x12x64xbf16>) -> tensor<8x512x768xbf16>
    %1399 = stablehlo.dot_general %1398, %arg184, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x768xbf16>) -> tensor<8x512x768xbf16>
    %1400 = stablehlo.add %1352, %1399 : tensor<8x512x768xbf16>
    %1401 = stablehlo.broadcast_in_dim %arg185, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1402 = stablehlo.broadcast_in_dim %1401, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1403 = stablehlo.add %1400, %1402 : tensor<8x512x768xbf16>
    %1404 = stablehlo.convert %1403 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_203 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1405 = stablehlo.reduce(%1404 init: %cst_203) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1406 = stablehlo.broadcast_in_dim %1405, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_204 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1407 = stablehlo.broadcast_in_dim %cst_204, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1408 = stablehlo.divide %1406, %1407 : tensor<8x512x1xf32>
    %1409 = stablehlo.broadcast_in_dim %1408, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1410 = stablehlo.subtract %1404, %1409 : tensor<8x512x768xf32>
    %1411 = stablehlo.multiply %1410, %1410 : tensor<8x512x768xf32>
    %cst_205 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1412 = stablehlo.reduce(%1411 init: %cst_205) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1413 = stablehlo.broadcast_in_dim %1412, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_206 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1414 = stablehlo.broadcast_in_dim %cst_206, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1415 = stablehlo.divide %1413, %1414 : tensor<8x512x1xf32>
    %1416 = stablehlo.broadcast_in_dim %1408, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1417 = stablehlo.subtract %1404, %1416 : tensor<8x512x768xf32>
    %cst_207 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1418 = stablehlo.broadcast_in_dim %cst_207, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1419 = stablehlo.add %1415, %1418 : tensor<8x512x1xf32>
    %1420 = stablehlo.rsqrt %1419 : tensor<8x512x1xf32>
    %1421 = stablehlo.broadcast_in_dim %1420, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1422 = stablehlo.multiply %1417, %1421 : tensor<8x512x768xf32>
    %1423 = stablehlo.convert %arg186 : (tensor<768xbf16>) -> tensor<768xf32>
    %1424 = stablehlo.broadcast_in_dim %1423, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1425 = stablehlo.broadcast_in_dim %1424, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1426 = stablehlo.multiply %1422, %1425 : tensor<8x512x768xf32>
    %1427 = stablehlo.convert %arg187 : (tensor<768xbf16>) -> tensor<768xf32>
    %1428 = stablehlo.broadcast_in_dim %1427, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1429 = stablehlo.broadcast_in_dim %1428, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1430 = stablehlo.add %1426, %1429 : tensor<8x512x768xf32>
    %1431 = stablehlo.convert %1430 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    %1432 = stablehlo.dot_general %1431, %arg188, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x768xbf16>, tensor<768x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1433 = stablehlo.broadcast_in_dim %arg189, dims = [2] : (tensor<3072xbf16>) -> tensor<1x1x3072xbf16>
    %1434 = stablehlo.broadcast_in_dim %1433, dims = [0, 1, 2] : (tensor<1x1x3072xbf16>) -> tensor<8x512x3072xbf16>
    %1435 = stablehlo.add %1432, %1434 : tensor<8x512x3072xbf16>
    %cst_208 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %1436 = stablehlo.broadcast_in_dim %cst_208, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1437 = stablehlo.multiply %1436, %1435 : tensor<8x512x3072xbf16>
    %1438 = stablehlo.negate %1435 : tensor<8x512x3072xbf16>
    %cst_209 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %1439 = stablehlo.broadcast_in_dim %cst_209, dims = [] : (tensor<bf16>) -> tensor<8x512x3072xbf16>
    %1440 = stablehlo.multiply %1438, %1439 : tensor<8x512x3072xbf16>
    %1441 = chlo.erfc %1440 : tensor<8x512x3072xbf16> -> tensor<8x512x3072xbf16>
    %1442 = stablehlo.multiply %1437, %1441 : tensor<8x512x3072xbf16>
    %1443 = stablehlo.dot_general %1442, %arg190, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x512x3072xbf16>, tensor<3072x768xbf16>) -> tensor<8x512x768xbf16>
    %1444 = stablehlo.broadcast_in_dim %arg191, dims = [2] : (tensor<768xbf16>) -> tensor<1x1x768xbf16>
    %1445 = stablehlo.broadcast_in_dim %1444, dims = [0, 1, 2] : (tensor<1x1x768xbf16>) -> tensor<8x512x768xbf16>
    %1446 = stablehlo.add %1443, %1445 : tensor<8x512x768xbf16>
    %1447 = stablehlo.add %1431, %1446 : tensor<8x512x768xbf16>
    %1448 = stablehlo.convert %1447 : (tensor<8x512x768xbf16>) -> tensor<8x512x768xf32>
    %cst_210 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1449 = stablehlo.reduce(%1448 init: %cst_210) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1450 = stablehlo.broadcast_in_dim %1449, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_211 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1451 = stablehlo.broadcast_in_dim %cst_211, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1452 = stablehlo.divide %1450, %1451 : tensor<8x512x1xf32>
    %1453 = stablehlo.broadcast_in_dim %1452, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1454 = stablehlo.subtract %1448, %1453 : tensor<8x512x768xf32>
    %1455 = stablehlo.multiply %1454, %1454 : tensor<8x512x768xf32>
    %cst_212 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1456 = stablehlo.reduce(%1455 init: %cst_212) applies stablehlo.add across dimensions = [2] : (tensor<8x512x768xf32>, tensor<f32>) -> tensor<8x512xf32>
    %1457 = stablehlo.broadcast_in_dim %1456, dims = [0, 1] : (tensor<8x512xf32>) -> tensor<8x512x1xf32>
    %cst_213 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1458 = stablehlo.broadcast_in_dim %cst_213, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1459 = stablehlo.divide %1457, %1458 : tensor<8x512x1xf32>
    %1460 = stablehlo.broadcast_in_dim %1452, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1461 = stablehlo.subtract %1448, %1460 : tensor<8x512x768xf32>
    %cst_214 = stablehlo.constant dense<9.99999996E-13> : tensor<f32>
    %1462 = stablehlo.broadcast_in_dim %cst_214, dims = [] : (tensor<f32>) -> tensor<8x512x1xf32>
    %1463 = stablehlo.add %1459, %1462 : tensor<8x512x1xf32>
    %1464 = stablehlo.rsqrt %1463 : tensor<8x512x1xf32>
    %1465 = stablehlo.broadcast_in_dim %1464, dims = [0, 1, 2] : (tensor<8x512x1xf32>) -> tensor<8x512x768xf32>
    %1466 = stablehlo.multiply %1461, %1465 : tensor<8x512x768xf32>
    %1467 = stablehlo.convert %arg192 : (tensor<768xbf16>) -> tensor<768xf32>
    %1468 = stablehlo.broadcast_in_dim %1467, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1469 = stablehlo.broadcast_in_dim %1468, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1470 = stablehlo.multiply %1466, %1469 : tensor<8x512x768xf32>
    %1471 = stablehlo.convert %arg193 : (tensor<768xbf16>) -> tensor<768xf32>
    %1472 = stablehlo.broadcast_in_dim %1471, dims = [2] : (tensor<768xf32>) -> tensor<1x1x768xf32>
    %1473 = stablehlo.broadcast_in_dim %1472, dims = [0, 1, 2] : (tensor<1x1x768xf32>) -> tensor<8x512x768xf32>
    %1474 = stablehlo.add %1470, %1473 : tensor<8x512x768xf32>
    %1475 = stablehlo.convert %1474 : (tensor<8x512x768xf32>) -> tensor<8x512x768xbf16>
    return %1475 : tensor<8x512x768xbf16>
  }
}
