// fusion-to-tile's general code generator: what the specialised generators
// decline becomes a grid over the output's elements, each block a tile of
// consecutive elements of the flattened output, the group's DAG evaluated
// at their indices: elementwise ops by their scalar lowering in tile.map,
// views as descriptors on the loads, reductions and products as tile.for
// loops over the reduced extent carrying a tile accumulator, iota from the
// element's coordinates (coord.offset), a masked store.
// RUN: aic-opt %s --split-input-file --fusion-to-tile | FileCheck %s
// RUN: aic-opt %s --split-input-file --fusion-to-tile="general-only=true" | FileCheck %s --check-prefix=ONLY
// RUN: aic-opt %s --split-input-file --fusion-to-tile --aic-remarks 2>&1 | FileCheck %s --check-prefix=REMARKS

// A cast between element types inside an elementwise DAG: the elementwise
// generator takes it; alone, the general generator's kernel is f16 in,
// computed in f32, i32 out.
// ONLY-LABEL: tile.kernel @general_0 grid = [4] {
// ONLY: %[[P:.*]] = tile.program_id 0 : index
// ONLY: %[[B:.*]] = arith.muli %[[P]], %c1024
// ONLY: tile.load %{{.*}}[%[[B]]] through #coord.desc<[3500] | embed<3500: 1> [0] -> [0]> : memref<5x700xf16> -> !tile.tile<1024xf16>
// ONLY: arith.extf
// ONLY: tile.map
// ONLY: math.exp
// ONLY: tile.map
// ONLY: arith.fptosi {{.*}} : f32 to i32
// ONLY: tile.store %{{.*}}, %{{.*}}[%{{.*}}] {{.*}}: !tile.tile<1024xi32>, memref<5x700xi32>
// CHECK-LABEL: tile.kernel @elementwise_0
// CHECK-LABEL: func.func @cast
// CHECK: tile.launch @elementwise_0
// CHECK-NOT: fusion.group
// REMARKS-NOT: left as it is
func.func @cast(%x: tensor<5x700xf16>) -> tensor<5x700xi32> {
  %r = fusion.group elementwise (%a = %x) : (tensor<5x700xf16>) -> tensor<5x700xi32> {
    %e = graph.exp %a : tensor<5x700xf16>
    %c = graph.cast %e : (tensor<5x700xf16>) -> tensor<5x700xi32>
    fusion.yield %c : tensor<5x700xi32>
  }
  return %r : tensor<5x700xi32>
}

// -----

// A sum over the leading axis of a transpose (not a row reduction): a loop
// of 7 steps, the transposed input read through a descriptor whose first
// upper dim is the loop's.
// ONLY-LABEL: tile.kernel @general_0 grid = [1] {
// ONLY: %[[P:.*]] = tile.program_id 0 : index
// ONLY: %[[B:.*]] = arith.muli %[[P]], %c3
// ONLY: tile.for %c0 to %c7 step %c1 iter_args(%{{.*}} : !tile.tile<3xf32>) -> !tile.tile<3xf32> {
// ONLY: ^bb0(%[[K:.*]]: index, %{{.*}}: !tile.tile<3xf32>):
// ONLY: tile.load %{{.*}}[%[[K]], %[[B]]] through #coord.desc<[7, 3]
// ONLY: arith.addf
// ONLY: tile.yield
// ONLY: tile.store
func.func @sum(%x: tensor<3x7xf32>) -> tensor<3xf32> {
  %r = fusion.group reduction (%a = %x) : (tensor<3x7xf32>) -> tensor<3xf32> {
    %t = graph.transpose %a, perm = [1, 0] : (tensor<3x7xf32>) -> tensor<7x3xf32>
    %s = graph.reduce sum %t, axes = [0] : (tensor<7x3xf32>) -> tensor<3xf32>
    fusion.yield %s : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// An iota on its own is a kernel: each element's coordinate along its dim.
// CHECK-LABEL: tile.kernel @general_0 grid = [1] {
// CHECK: tile.iota dim = 0 : !tile.tile<12xindex>
// CHECK: tile.map
// CHECK: coord.offset
// CHECK: arith.index_cast {{.*}} : index to i32
// CHECK-LABEL: func.func @iota
// CHECK: tile.launch @general_0() : () -> tensor<3x4xi32>
func.func @iota() -> tensor<3x4xi32> {
  %i = graph.iota dim = 1 : tensor<3x4xi32>
  return %i : tensor<3x4xi32>
}
