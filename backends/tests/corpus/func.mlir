// builtin and func programs for the MLIR conformance test (one per chunk).
func.func @empty() {
  return
}

// -----

func.func private @decl(i32, f32) -> (i64, tensor<4x?xf32>)
func.func nested @nested_decl() attributes {llvm.emit_c_interface}
func.func @call(%a: i32, %b: f32) -> i64 {
  %0:2 = call @decl(%a, %b) : (i32, f32) -> (i64, tensor<4x?xf32>)
  return %0#0 : i64
}

// -----

func.func @arg_attrs(%a: i32 {test.attr = 1 : i64}, %b: memref<4x4xf32, strided<[4, 1], offset: ?>>) -> (f32 {test.res}) {
  %0 = "builtin.unrealized_conversion_cast"(%a) : (i32) -> f32
  return %0 : f32
}

// -----

func.func @cfg(%c: i1, %x: i32) -> i32 {
  "func.call"(%x) <{callee = @cfg_helper}> : (i32) -> ()
  return %x : i32
}
func.func private @cfg_helper(i32)

// -----

module @outer attributes {test.flag} {
  module @inner {
    func.func private @f() -> index
  }
  func.func @g() -> index {
    %0 = func.call @h() : () -> index
    return %0 : index
  }
  func.func private @h() -> index
}

// -----

func.func @types(%a: tensor<*xbf16>, %b: vector<[4]x8xf8E4M3FN>, %c: complex<f64>, %d: tuple<i1, ui8, si16>, %e: memref<2x3xi4, 1>, %f: none, %g: tensor<2xi32, "enc">) -> memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>> {
  %0 = builtin.unrealized_conversion_cast %a, %b : tensor<*xbf16>, vector<[4]x8xf8E4M3FN> to memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return %0 : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
}

// -----

func.func @attrs() attributes {a = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, b = dense<1.5> : tensor<3xf32>, c = array<i64: 1, 2, 3>, d = [1 : i8, "s", unit, @sym, @a::@b], e = {x = 0x7FC00000 : f32, y = -0.0 : f64}, f = affine_set<(d0) : (d0 - 1 >= 0)>, g = dense<(1.0, 2.0)> : tensor<complex<f32>>, h = "esc\"aped\n", i = true, j = 18446744073709551615 : ui64} {
  return
}

// -----

func.func @locations(%a: i32 loc("x.py":3:4)) -> i32 {
  %0 = "builtin.unrealized_conversion_cast"(%a) : (i32) -> i32 loc(callsite("f"("a.py":1:2) at fused<"meta">["b.py":3:4, unknown]))
  return %0 : i32 loc("r"("c.py":5:6 to :9))
} loc(fused["d.py":1:1, "e.py":2:2])

// -----

func.func @no_inline_call() {
  func.call @no_inline_call() {no_inline} : () -> ()
  return
}

// -----

func.func private @escapes() attributes {foo.s = "a\\b\"c\n\tz", foo.t = "\00\FF"}
