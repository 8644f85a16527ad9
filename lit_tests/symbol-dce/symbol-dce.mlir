// symbol-dce: non-public symbols that live code does not reference are erased,
// transitively and through nested symbol tables.
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --symbol-dce | FileCheck %s
// RUN: aic-opt %s --allow-unregistered-dialect --split-input-file --symbol-dce > %t.aic
// RUN: mlir-opt %s --allow-unregistered-dialect --split-input-file --symbol-dce > %t.ref
// RUN: diff %t.aic %t.ref

// CHECK-NOT: @dead
// CHECK-NOT: @only_from_dead
// CHECK-DAG: func.func private @live
// CHECK-DAG: func.func @public
module {
  func.func private @dead() {
    call @only_from_dead() : () -> ()
    return
  }
  func.func private @only_from_dead()
  func.func private @live()
  func.func @public() {
    call @live() : () -> ()
    return
  }
}

// -----

// CHECK: // -----
// CHECK: module @m
// CHECK: func.func nested @used_inner
// CHECK-NOT: @unused_inner
module {
  module @m {
    func.func nested @used_inner()
    func.func nested @unused_inner()
  }
  func.func @public() {
    "tt.use"() {ref = @m::@used_inner} : () -> ()
    return
  }
}
