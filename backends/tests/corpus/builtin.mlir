// Signatures and attributes of every builtin kind, for the MLIR conformance test.
func.func private @t0(i1) -> i1

// -----

func.func private @t1(i17) -> i17

// -----

func.func private @t2(si8) -> si8

// -----

func.func private @t3(ui64) -> ui64

// -----

func.func private @t4(index) -> index

// -----

func.func private @t5(f16) -> f16

// -----

func.func private @t6(bf16) -> bf16

// -----

func.func private @t7(tf32) -> tf32

// -----

func.func private @t8(f64) -> f64

// -----

func.func private @t9(f8E5M2) -> f8E5M2

// -----

func.func private @t10(f8E4M3FNUZ) -> f8E4M3FNUZ

// -----

func.func private @t11(f4E2M1FN) -> f4E2M1FN

// -----

func.func private @t12(complex<f32>) -> complex<f32>

// -----

func.func private @t13(tensor<2x?x3xf32>) -> tensor<2x?x3xf32>

// -----

func.func private @t14(tensor<*xi8>) -> tensor<*xi8>

// -----

func.func private @t15(tensor<4xf32, "enc">) -> tensor<4xf32, "enc">

// -----

func.func private @t16(memref<?x?xf32>) -> memref<?x?xf32>

// -----

func.func private @t17(memref<4xf32, 2>) -> memref<4xf32, 2>

// -----

func.func private @t18(memref<4x4xf32, strided<[8, 1]>>) -> memref<4x4xf32, strided<[8, 1]>>

// -----

func.func private @t19(memref<*xf32>) -> memref<*xf32>

// -----

func.func private @t20(vector<4xf32>) -> vector<4xf32>

// -----

func.func private @t21(vector<2x[4]xi1>) -> vector<2x[4]xi1>

// -----

func.func private @t22(tuple<>) -> tuple<>

// -----

func.func private @t23(tuple<i32, tuple<f32>>) -> tuple<i32, tuple<f32>>

// -----

func.func private @t24(none) -> none

// -----

func.func private @t25((i32) -> f32) -> ((i32) -> f32)

// -----

func.func private @t26(() -> ()) -> (() -> ())

// -----

func.func private @a0() attributes {x = 1 : i32}

// -----

func.func private @a1() attributes {x = -7 : si8}

// -----

func.func private @a2() attributes {x = 0xFF : ui8}

// -----

func.func private @a3() attributes {x = 3.5 : f16}

// -----

func.func private @a4() attributes {x = 1.0e+10 : f64}

// -----

func.func private @a5() attributes {x = "text"}

// -----

func.func private @a6() attributes {x = []}

// -----

func.func private @a7() attributes {x = [1, [2, 3]]}

// -----

func.func private @a8() attributes {x = {}}

// -----

func.func private @a9() attributes {x = {k = @s}}

// -----

func.func private @a10() attributes {x = dense<0> : tensor<2x2xi8>}

// -----

func.func private @a11() attributes {x = dense<[true, false]> : tensor<2xi1>}

// -----

func.func private @a12() attributes {x = dense<"0x0100000002000000"> : tensor<2xi32>}

// -----

func.func private @a13() attributes {x = array<f32: 1.0, 2.5>}

// -----

func.func private @a14() attributes {x = array<i1: true>}

// -----

func.func private @a15() attributes {x = affine_map<(d0, d1)[s0] -> (d0 floordiv 2, d1 mod s0)>}

// -----

func.func private @a16() attributes {x = affine_set<(d0)[s0] : (d0 == 0, s0 - d0 >= 0)>}

// -----

func.func private @a17() attributes {x = i32}

// -----

func.func private @a18() attributes {x = unit}

// -----

func.func private @a19() attributes {x = @a::@b::@c}

// -----

func.func private @a20() attributes {x = -0.0 : bf16}

// -----

func.func private @a21() attributes {x = 0x7C00 : f16}

// -----

func.func private @a22() attributes {x = dense<(1, 2)> : tensor<complex<i32>>}

// -----

func.func private @a23() attributes {x = strided<[?, 1], offset: 4>}

// -----

module {
}
