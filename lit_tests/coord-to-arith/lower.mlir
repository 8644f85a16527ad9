// coord-to-arith: a descriptor becomes its index arithmetic. A transpose of
// a row-major buffer is a multiply-add with validity from the upper ranges;
// a pad adds a subtraction and its range check; a merge divides (one whose
// digits walk memory evenly folds into the embed instead: see the coord
// dialect's simplification tests).
// RUN: aic-opt %s --coord-to-arith | FileCheck %s
// RUN: aic-opt %s --coord-to-arith | aic-run --interpret - --entry @transpose --args "[5 : index, 2 : index]" | FileCheck %s --check-prefix=T

// CHECK-LABEL: func.func @transpose
// CHECK-NOT: coord.offset
// CHECK: %[[M:.*]] = arith.muli %arg1, %{{.*}} : index
// CHECK: %[[O:.*]] = arith.addi %arg0, %[[M]] : index
// CHECK: return %[[O]], %{{.*}} : index, i1
// T: 17 : index
// T-NEXT: true
func.func @transpose(%i: index, %j: index) -> (index, i1) {
  %o, %v = coord.offset %i, %j through #coord.desc<[6, 4] | pass [0] -> [1], pass [1] -> [0] | embed<24: 6, 1> [0, 1] -> [0]> : index, i1
  return %o, %v : index, i1
}

// CHECK-LABEL: func.func @pad_and_merge
// CHECK: arith.subi %arg0
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: arith.remsi
// CHECK: arith.divsi
// CHECK-NOT: coord.offset
func.func @pad_and_merge(%i: index, %j: index) -> (index, i1) {
  %o, %v = coord.offset %i, %j through #coord.desc<[5, 6] | pad<1, 1> [0] -> [0], merge<2, 3> [1] -> [1, 2] | embed<24: 8, 4, 1> [0, 1, 2] -> [0]> : index, i1
  return %o, %v : index, i1
}
