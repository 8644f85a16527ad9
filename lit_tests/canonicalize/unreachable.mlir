// canonicalize erases blocks their region's entry cannot reach, in every region,
// whatever the region-simplify level (as mlir-opt-22 does).
// RUN: aic-opt %s --allow-unregistered-dialect --canonicalize > %t.aic
// RUN: mlir-opt %s --allow-unregistered-dialect --canonicalize > %t.ref
// RUN: diff %t.aic %t.ref
// RUN: aic-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s
// CHECK-NOT: tt.x
// CHECK-NOT: ^bb2
func.func @f() {
  "tt.r"() ({
    "tt.br"()[^bb2] : () -> ()
  ^bb1:
    "tt.x"() : () -> ()
    "tt.br"()[^bb2] : () -> ()
  ^bb2:
    "tt.y"() : () -> ()
  }) : () -> ()
  "tt.br"()[^bb2] : () -> ()
^bb1:
  "tt.br"()[^bb1] : () -> ()
^bb2:
  return
}
