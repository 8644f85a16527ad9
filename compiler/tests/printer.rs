//! Types and attributes print exactly as mlir-opt-22 prints them (expected
//! strings were taken from `mlir-opt-22 --mlir-print-op-generic` output).

use aic::attributes::{AttrKind, DenseData, LocKind};
use aic::float::FloatKind;
use aic::printer::{attr_text, type_text};
use aic::types::{DYNAMIC, Signedness, TypeKind};
use aic::{Attr, Uniquer};

#[test]
fn builtin_types_print_like_mlir() {
    let u = Uniquer::default();
    let f32t = u.ty(TypeKind::Float(FloatKind::F32));
    let i32t = u.int_type(32);
    let enc = u.attr(AttrKind::Opaque("t.e".into()));
    let cases: Vec<(TypeKind, &str)> = vec![
        (
            TypeKind::Integer {
                width: 8,
                signedness: Signedness::Unsigned,
            },
            "ui8",
        ),
        (
            TypeKind::Integer {
                width: 129,
                signedness: Signedness::Signless,
            },
            "i129",
        ),
        (TypeKind::Float(FloatKind::F8E4M3FN), "f8E4M3FN"),
        (
            TypeKind::Tensor {
                shape: [4, DYNAMIC][..].into(),
                elem: f32t,
                encoding: Some(enc),
            },
            "tensor<4x?xf32, #t.e>",
        ),
        (
            TypeKind::Tensor {
                shape: [][..].into(),
                elem: f32t,
                encoding: None,
            },
            "tensor<f32>",
        ),
        (TypeKind::UnrankedTensor(f32t), "tensor<*xf32>"),
        (
            TypeKind::Vector {
                shape: [4, 8][..].into(),
                scalable: [true, false][..].into(),
                elem: f32t,
            },
            "vector<[4]x8xf32>",
        ),
        (TypeKind::Tuple([i32t, f32t][..].into()), "tuple<i32, f32>"),
        (
            TypeKind::Function {
                inputs: [i32t][..].into(),
                results: [i32t, f32t][..].into(),
            },
            "(i32) -> (i32, f32)",
        ),
        (
            TypeKind::Function {
                inputs: [][..].into(),
                results: [][..].into(),
            },
            "() -> ()",
        ),
        (
            TypeKind::Function {
                inputs: [i32t][..].into(),
                results: [f32t][..].into(),
            },
            "(i32) -> f32",
        ),
        (TypeKind::Complex(f32t), "complex<f32>"),
        (
            TypeKind::Opaque("stablehlo.token".into()),
            "!stablehlo.token",
        ),
    ];
    for (k, want) in cases {
        assert_eq!(type_text(&u, u.ty(k)), want);
    }
    let strided = u.attr(AttrKind::Strided {
        offset: DYNAMIC,
        strides: [4, 1][..].into(),
    });
    let space = u.attr(AttrKind::Integer {
        value: 1,
        ty: u.int_type(64),
    });
    let m = u.ty(TypeKind::MemRef {
        shape: [4, 4][..].into(),
        elem: f32t,
        layout: Some(strided),
        memory_space: Some(space),
    });
    assert_eq!(
        type_text(&u, m),
        "memref<4x4xf32, strided<[4, 1], offset: ?>, 1>"
    );
}

#[test]
fn builtin_attributes_print_like_mlir() {
    let u = Uniquer::default();
    let i64t = u.int_type(64);
    let i8t = u.int_type(8);
    let f32t = u.ty(TypeKind::Float(FloatKind::F32));
    let f64t = u.ty(TypeKind::Float(FloatKind::F64));
    let int = |v: i128, t| u.attr(AttrKind::Integer { value: v, ty: t });
    let one_f64 = u.attr(AttrKind::Float {
        bits: 3.0f64.to_bits().into(),
        ty: f64t,
    });
    let arr = u.attr(AttrKind::Array(
        [
            int(1, i64t),
            int(2, u.int_type(32)),
            one_f64,
            u.string_attr("s"),
        ][..]
            .into(),
    ));
    assert_eq!(attr_text(&u, arr), r#"[1, 2 : i32, 3.000000e+00, "s"]"#);
    assert_eq!(attr_text(&u, int(42, i64t)), "42 : i64");
    assert_eq!(attr_text(&u, int(-5, i8t)), "-5 : i8");
    let ui8 = u.ty(TypeKind::Integer {
        width: 8,
        signedness: Signedness::Unsigned,
    });
    assert_eq!(attr_text(&u, int(-1, ui8)), "255 : ui8");
    assert_eq!(attr_text(&u, int(1, u.int_type(1))), "true");
    let nan = u.attr(AttrKind::Float {
        bits: 0x7FC0_0000,
        ty: f32t,
    });
    assert_eq!(attr_text(&u, nan), "0x7FC00000 : f32");
    let s = u.attr(AttrKind::String {
        value: b"es\"c\n\t\x01".as_slice().into(),
        ty: None,
    });
    assert_eq!(attr_text(&u, s), r#""es\22c\0A\09\01""#);
    let (a, b) = (u.ident("b"), u.ident("a"));
    let d = u.dict_attr(vec![
        (a, int(1, i64t)),
        (b, int(2, i64t)),
        (u.ident("w"), u.attr(AttrKind::Unit)),
    ]);
    assert_eq!(attr_text(&u, d), "{a = 2 : i64, b = 1 : i64, w}");
    let sym = u.attr(AttrKind::SymbolRef {
        root: u.ident("a"),
        nested: [u.ident("b")][..].into(),
    });
    assert_eq!(attr_text(&u, sym), "@a::@b");
    let da = u.attr(AttrKind::DenseArray {
        elem: i64t,
        values: [1, 2][..].into(),
    });
    assert_eq!(attr_text(&u, da), "array<i64: 1, 2>");
    let db = u.attr(AttrKind::DenseArray {
        elem: u.int_type(1),
        values: [1, 0][..].into(),
    });
    assert_eq!(attr_text(&u, db), "array<i1: true, false>");
    let de = u.attr(AttrKind::DenseArray {
        elem: f32t,
        values: [][..].into(),
    });
    assert_eq!(attr_text(&u, de), "array<f32>");
}

#[test]
fn dense_elements_print_nested_splat_and_complex() {
    let u = Uniquer::default();
    let i8t = u.int_type(8);
    let f32t = u.ty(TypeKind::Float(FloatKind::F32));
    let t22 = u.ty(TypeKind::Tensor {
        shape: [2, 2][..].into(),
        elem: i8t,
        encoding: None,
    });
    let d = u.attr(AttrKind::DenseElements {
        ty: t22,
        data: DenseData::Raw {
            splat: false,
            bytes: [1, 2, 3, 4][..].into(),
        },
    });
    assert_eq!(attr_text(&u, d), "dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>");
    let t4 = u.ty(TypeKind::Tensor {
        shape: [4][..].into(),
        elem: f32t,
        encoding: None,
    });
    let splat = u.attr(AttrKind::DenseElements {
        ty: t4,
        data: DenseData::Raw {
            splat: true,
            bytes: 1.0f32.to_le_bytes().into(),
        },
    });
    assert_eq!(attr_text(&u, splat), "dense<1.000000e+00> : tensor<4xf32>");
    let c = u.ty(TypeKind::Complex(f32t));
    let tc = u.ty(TypeKind::Tensor {
        shape: [1][..].into(),
        elem: c,
        encoding: None,
    });
    let bytes: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let cd = u.attr(AttrKind::DenseElements {
        ty: tc,
        data: DenseData::Raw {
            splat: false,
            bytes: bytes.into(),
        },
    });
    // One element is a splat to MLIR, which prints it without brackets.
    assert_eq!(
        attr_text(&u, cd),
        "dense<(1.000000e+00,2.000000e+00)> : tensor<1xcomplex<f32>>"
    );
}

#[test]
fn locations_print_like_mlir() {
    let u = Uniquer::default();
    let file = u.attr(AttrKind::Location(LocKind::FileLineCol {
        file: u.ident("a.mlir"),
        line: 3,
        col: 7,
        end: None,
    }));
    assert_eq!(attr_text(&u, file), r#"loc("a.mlir":3:7)"#);
    let unknown: Attr = u.unknown_loc();
    let named = u.attr(AttrKind::Location(LocKind::Name {
        name: u.ident("a"),
        child: Some(unknown),
    }));
    assert_eq!(attr_text(&u, named), r#"loc("a")"#);
    let named_file = u.attr(AttrKind::Location(LocKind::Name {
        name: u.ident("n"),
        child: Some(file),
    }));
    let call = u.attr(AttrKind::Location(LocKind::CallSite {
        callee: named_file,
        caller: unknown,
    }));
    assert_eq!(
        attr_text(&u, call),
        r#"loc(callsite("n"("a.mlir":3:7) at unknown))"#
    );
    let fused = u.attr(AttrKind::Location(LocKind::Fused {
        metadata: None,
        locs: [file, unknown][..].into(),
    }));
    assert_eq!(attr_text(&u, fused), r#"loc(fused["a.mlir":3:7, unknown])"#);
}

#[test]
fn affine_maps_print_inside_attributes() {
    let u = Uniquer::default();
    let m = aic::affine::parse_affine_map("(d0) -> (d0 + 2 + 3)").unwrap();
    assert_eq!(
        attr_text(&u, u.attr(AttrKind::AffineMap(m))),
        "affine_map<(d0) -> (d0 + 5)>"
    );
}
