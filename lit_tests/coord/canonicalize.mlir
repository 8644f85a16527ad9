// Canonicalisation simplifies descriptors: a merge undone by an unmerge
// cancels, a transpose stage folds into the embed it feeds, a frozen dim
// becomes an offset, trivial pads pass through, identity stages go.
// RUN: aic-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @simplify
// CHECK-NEXT: coord.offset %arg0 through #coord.desc<[12]> : index, i1
// CHECK-NEXT: coord.offset %arg1, %arg0 through #coord.desc<[4, 12] | embed<48: 1, 4> [0, 1] -> [0]> : index, i1
// CHECK-NEXT: coord.offset %arg0 through #coord.desc<[5] | embed<15: 1, +10> [0] -> [0]> : index, i1
func.func @simplify(%i: index, %j: index) -> (index, index, index) {
  %a, %va = coord.offset %i through #coord.desc<[12] | merge<3, 4> [0] -> [0, 1] | unmerge [0, 1] -> [0]> : index, i1
  %b, %vb = coord.offset %j, %i through #coord.desc<[4, 12] | pass [0] -> [1], pass [1] -> [0] | embed<48: 4, 1> [0, 1] -> [0]> : index, i1
  %c, %vc = coord.offset %i through #coord.desc<[5] | freeze<2, 3> [] -> [0], pad<0, 0> [0] -> [1] | embed<15: 5, 1> [0, 1] -> [0]> : index, i1
  return %a, %b, %c : index, index, index
}
