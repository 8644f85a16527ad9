// coord.offset with every transform in its descriptor: the text round-trips
// (pretty and generic), and the interpreter evaluates the descriptor.
// RUN: aic-opt %s | aic-opt | FileCheck %s
// RUN: aic-opt %s --mlir-print-op-generic | aic-opt | FileCheck %s
// RUN: aic-run --interpret %s --entry @transpose --args "[5 : index, 2 : index]" | FileCheck %s --check-prefix=T
// RUN: aic-run --interpret %s --entry @padded --args "[0 : index, 3 : index]" | FileCheck %s --check-prefix=PAD

// CHECK-LABEL: func.func @all_transforms
// CHECK: coord.offset %arg0, %arg1, %arg2 through #coord.desc<[2, 5, 6] | pass [0] -> [0], pad<1, 1> [1] -> [1], merge<3, 2> [2] -> [2, 3] | pass [0] -> [0], slice<1, 4> [1] -> [1], vectorize<2> [2, 3] -> [2], freeze<0, 1> [] -> [3] | broadcast [0] -> [], embed<24: 6, 1> [1, 2] -> [0], unmerge [3] -> [1]> : index, i1
func.func @all_transforms(%i: index, %j: index, %k: index) -> (index, i1) {
  %o, %v = coord.offset %i, %j, %k through #coord.desc<[2, 5, 6] | pass [0] -> [0], pad<1, 1> [1] -> [1], merge<3, 2> [2] -> [2, 3] | pass [0] -> [0], slice<1, 4> [1] -> [1], vectorize<2> [2, 3] -> [2], freeze<0, 1> [] -> [3] | broadcast [0] -> [], embed<24: 6, 1> [1, 2] -> [0], unmerge [3] -> [1]> : index, i1
  return %o, %v : index, i1
}

// The transpose of a row-major 4x6 buffer: (5, 2) is element 2 * 6 + 5.
// T: 17 : index
// T-NEXT: true
func.func @transpose(%i: index, %j: index) -> (index, i1) {
  %o, %v = coord.offset %i, %j through #coord.desc<[6, 4] | pass [0] -> [1], pass [1] -> [0] | embed<24: 6, 1> [0, 1] -> [0]> : index, i1
  return %o, %v : index, i1
}

// A 3x4 buffer padded by one row above: row 0 is padding (invalid).
// PAD: false
func.func @padded(%i: index, %j: index) -> (index, i1) {
  %o, %v = coord.offset %i, %j through #coord.desc<[4, 4] | pad<1, 0> [0] -> [0], pass [1] -> [1] | embed<12: 4, 1> [0, 1] -> [0]> : index, i1
  return %o, %v : index, i1
}
