// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s

// CHECK: "t.types"() : () -> (i1, si8, ui16, i129, index, bf16, f8E4M3FN, tf32, complex<f64>, none)
"t.types"() : () -> (i1, si8, ui16, i129, index, bf16, f8E4M3FN, tf32, complex<f64>, none)
// CHECK: "t.shaped"() : () -> (tensor<*xf32>, tensor<f32>, tensor<4x?xi8, #t.enc>, memref<4x4xf32, strided<[4, 1], offset: ?>, 1>, memref<*xf32, 2>, vector<[4]x8xf32>)
"t.shaped"() : () -> (tensor<*xf32>, tensor<f32>, tensor<4x?xi8, #t.enc>, memref<4x4xf32, strided<[4, 1], offset: ?>, 1>, memref<*xf32, 2>, vector<[4]x8xf32>)
// CHECK: "t.other"() : () -> (tuple<i32, tuple<>>, !stablehlo.token, !t.ty<"a>b", (i32) -> i32>)
"t.other"() : () -> (tuple<i32, tuple<>>, !stablehlo.token, !t.ty<"a>b", (i32) -> i32>)
// CHECK: "t.fn"() {f = (i32) -> (i32, f32), g = () -> ()} : () -> ()
"t.fn"() {f = (i32) -> (i32, f32), g = () -> ()} : () -> ()
