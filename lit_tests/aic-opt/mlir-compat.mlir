// aic's generic output equals mlir-opt's on the same file.
// RUN: aic-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.aic
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.mlir
// RUN: diff %t.aic %t.mlir
"func.func"() <{function_type = (i1) -> i32, sym_name = "g"}> ({
^bb0(%c: i1):
  %r = "t.region"(%c) ({
  ^bb0(%x: i32):
    "t.y"(%x) : (i32) -> ()
  }, {
    %q = "t.c"() : () -> i32
    "t.y"(%q) : (i32) -> ()
  }) {k = [1, 2.5, "s"], m = {z = unit, a = 3 : ui8}} : (i1) -> i32
  %iso = "t.isolated"() ({
  ^bb0(%m: i32):
    %d = "t.d"() : () -> i32
    "t.y"(%d) : (i32) -> ()
  }) : () -> i32
  "func.return"(%r) : (i32) -> ()
}) : () -> ()
