// Alias rules beyond the basics, each byte-identical to mlir-opt-22 in all four
// printing modes: `!tuple` for tuples of more than 16 types (types first at equal
// depth), depth counting non-aliased values with aliases inside (an array in fused
// metadata), the generic walk's order (regions, operand and result types, then a
// registered op's inherent and discardable attributes merged by name; unregistered
// ops' properties never visited), unvisited region-argument attributes, identity
// memref layouts left out.
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

// CHECK: !tuple = tuple<i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17>
// CHECK-NEXT: #loc = loc("a":1:1)
// CHECK: #map = affine_map<(d0) -> (d0 + 1)>
// CHECK: !tuple1 = tuple<!tuple, i2, i3
// CHECK: #loc{{[0-9]+}} = loc(callsite(
// CHECK: #loc{{[0-9]+}} = loc(fused<[#map{{[0-9]*}}]>[#loc])
// CHECK: module {
// CHECK: func.func @args(%arg0: i32 {x.m = affine_map<(d0) -> (d0 + 20)>}) -> (i32 {x.r = #map{{[0-9]+}}})
// CHECK: "x.e"() {m = memref<2x3xf32>
!big = tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16,i17>
!nest = tuple<!big,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16,i17>
!small = tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16>
func.func @f(%a: !big, %b: !nest) -> tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16,memref<2xf32, affine_map<(d0) -> (d0 + 1)>>> {
  %0 = "x.a"(%a) {t = [!small], d = dense<1> : tensor<2xi32, affine_map<(d0) -> (d0 + 4)>>} : (!big) -> tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16,memref<2xf32, affine_map<(d0) -> (d0 + 1)>>> loc(fused<"meta">["a":1:1])
  "x.b"() {w = loc(fused<[affine_map<(d0) -> (d0 + 2)>]>["a":1:1]), x = loc(callsite("b":1:1 at "c":1:1)), z = loc("m"(callsite("e":1:1 at "f":1:1)))} : () -> () loc(callsite("a":1:1 at "b":1:1))
  "x.c"() ({
  ^bb0(%x: i32 loc("b":1:1)):
    "x.d"() : () -> () loc("c":1:1)
  ^bb1(%y: memref<4xf32, affine_map<(d0) -> (d0 + 5)>> loc("c":1:1)):
    "x.d"() : () -> () loc("d"("c":1:1))
  }) : () -> () loc("d"(unknown))
  return %0 : tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16,memref<2xf32, affine_map<(d0) -> (d0 + 1)>>> loc(unknown)
}
func.func @h() -> memref<2xf32, affine_map<(d0) -> (d0 + 10)>> {
  "x.y"() {q = affine_map<(d0) -> (d0 + 11)>} : () -> ()
  %0 = "x.a"() : () -> memref<2xf32, affine_map<(d0) -> (d0 + 10)>>
  return %0 : memref<2xf32, affine_map<(d0) -> (d0 + 10)>>
}
func.func private @d(memref<2xf32, affine_map<(d0) -> (d0 + 12)>>) attributes {a = affine_map<(d0) -> (d0 + 13)>, z = affine_map<(d0) -> (d0 + 14)>}
"x.p"() <{p = affine_map<(d0) -> (d0 + 15)>}> ({
  "x.q"() {q = affine_map<(d0) -> (d0 + 16)>} : () -> ()
}) {r = affine_map<(d0) -> (d0 + 17)>} : () -> (memref<2xf32, affine_map<(d0) -> (d0 + 18)>>)
"x.p"() <{p = affine_map<(d0) -> (d0 + 19)>}> {q = affine_map<(d0) -> (d0 + 19)>} : () -> ()
func.func @args(%a: i32 {x.m = affine_map<(d0) -> (d0 + 20)>}) -> (i32 {x.r = affine_map<(d0) -> (d0 + 21)>}) {
  %0 = arith.addi %a, %a {x = affine_map<(d0) -> (d0 + 22)>} : i32
  return %0 : i32
}
func.func private @decl(i32 {x.m = affine_map<(d0) -> (d0 + 23)>})
"x.e"() {m = memref<2x3xf32, affine_map<(d0, d1) -> (d0, d1)>>, n = memref<2x3xf32, affine_map<(d0, d1) -> (d1, d0)>>, s = affine_set<(d0) : (d0 >= 0)>, ty = (memref<2xf32, affine_map<(d0) -> (d0 + 24)>>) -> complex<f32>} : () -> ()
