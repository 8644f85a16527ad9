// Attribute and location aliases: aic prints the same #map/#set/#loc definitions
// as mlir-opt, in the same order and place, in all four printing modes, and reads
// mlir-opt's deferred location aliases back.
// RUN: aic-opt --allow-unregistered-dialect %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect %s > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-debuginfo %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %s > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-op-generic %s > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %s > %t.dbg
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-debuginfo %t.dbg > %t.again
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %t.dbg > %t.ref
// RUN: diff %t.again %t.ref
// RUN: aic-opt --allow-unregistered-dialect %s | FileCheck %s

// CHECK: #map = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map1 = affine_map<(d0) -> (d0 + 3)>
// CHECK: #set = affine_set<(d0) : (d0 >= 0)>
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @f(%arg0: i32, %arg1: memref<2x2xf32, #map>) attributes {m = #map1, s = #set}
#user = affine_map<(d0, d1) -> (d1, d0)>
func.func @f(%a: i32 loc("x.py":1:2), %b: memref<2x2xf32, #user>) attributes {m = affine_map<(d0) -> (d0 + 3)>, s = affine_set<(d0) : (d0 >= 0)>} {
  "t.r"() ({
  ^bb0(%c: memref<4xf32, affine_map<(d0) -> (d0 * 5)>> loc(unknown)):
    "t.a"() {k = [affine_map<(d0) -> (d0 * 7)>]} : () -> () loc(callsite("foo"("a.py":3:4) at fused["b.py":5:6, "c.py":7:8]))
  }) : () -> () loc("n"("q.py":9:9))
  %0 = "t.b"() : () -> memref<2x2xf32, #user>
  return loc(unknown)
} loc(fused<affine_map<(d0) -> (d0 * 9)>>["z.py":1:1])
"t.c"() {t = tuple<i32, f32, i64, i64, i64, i64, i64>} : () -> ()
