// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s
// RUN: aic-opt --allow-unregistered-dialect %s | aic-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s

// CHECK-LABEL: "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{function_type = (i32, tensor<2x?xf32>) -> i32, sym_name = "f"}> ({
// CHECK-NEXT:   ^bb0(%arg0: i32, %arg1: tensor<2x?xf32>):
// CHECK-NEXT:     %[[P:[0-9]+]]:2 = "t.pair"(%arg0) : (i32) -> (i32, i32)
// CHECK-NEXT:     "t.br"(%[[P]]#1)[^bb1] : (i32) -> ()
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     "func.return"(%[[P]]#0) : (i32) -> ()
// CHECK-NEXT:   }) : () -> ()
"func.func"() <{sym_name = "f", function_type = (i32, tensor<2x?xf32>) -> i32}> ({
^entry(%x: i32, %t: tensor<2x?xf32>):
  %p:2 = "t.pair"(%x) : (i32) -> (i32, i32)
  "t.br"(%p#1)[^exit] : (i32) -> ()
^exit:
  "func.return"(%p#0) : (i32) -> ()
}) : () -> ()

// Attributes print sorted, with MLIR's spelling of each builtin form.
// CHECK: "t.attrs"() {a = 1 : i64, b = -1 : i8, c = 1.000000e-01 : f32, d = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi16>, e = array<i32: 1, 2>, f = @sym::@nested, g, h = "esc\0A"} : () -> ()
"t.attrs"() {h = "esc\n", g, f = @sym::@nested, e = array<i32: 1, 2>, d = dense<[[1,2],[3,4]]> : tensor<2x2xi16>, c = 0.1 : f32, b = 255 : i8, a = 1} : () -> ()

// Forward references resolve to later definitions.
// CHECK: "t.use"(%[[L:[0-9]+]]) : (f32) -> ()
// CHECK-NEXT: %[[L]] = "t.def"() : () -> f32
"t.use"(%late) : (f32) -> ()
%late = "t.def"() : () -> f32
