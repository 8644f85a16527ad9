// Nested pipelines run on sibling functions in parallel by default, as in
// mlir-opt; the output equals the single-threaded run and mlir-opt-22's.
// RUN: aic-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' %s > %t.par
// RUN: aic-opt --mlir-disable-threading --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' %s > %t.seq
// RUN: mlir-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)' %s > %t.mlir
// RUN: diff %t.par %t.seq
// RUN: diff %t.par %t.mlir
// RUN: FileCheck %s < %t.par

// CHECK-LABEL: func.func @f0
// CHECK-NOT: arith.addi %arg0, %c0
func.func @f0(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c1 : i32
  %z = arith.muli %x, %c1 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f1(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c2 : i32
  %z = arith.muli %x, %c2 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f2(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c3 : i32
  %z = arith.muli %x, %c3 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f3(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c4 : i32
  %z = arith.muli %x, %c4 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f4(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c5 : i32
  %z = arith.muli %x, %c5 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f5(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c6 = arith.constant 6 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c6 : i32
  %z = arith.muli %x, %c6 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f6(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c7 : i32
  %z = arith.muli %x, %c7 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
func.func @f7(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c8 : i32
  %z = arith.muli %x, %c8 : i32
  %s = arith.addi %y, %z : i32
  %t = arith.addi %b, %a : i32
  %u = arith.addi %a, %b : i32
  %r = arith.subi %t, %u : i32
  %q = arith.addi %s, %r : i32
  return %q : i32
}
