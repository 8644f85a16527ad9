//! Types and attributes parsed with the pest grammar print back as mlir-opt-22
//! prints them; malformed input gets a diagnostic with a span, never a panic.

use aic::Uniquer;
use aic::printer::{attr_text, type_text};
use aic::syntax::{Aliases, parse_attribute, parse_type};

/// (input, what mlir-opt-22 prints for it)
const TYPES: &[(&str, &str)] = &[
    ("i32", "i32"),
    ("si8", "si8"),
    ("ui64", "ui64"),
    ("i129", "i129"),
    ("index", "index"),
    ("bf16", "bf16"),
    ("f8E4M3FN", "f8E4M3FN"),
    ("f8E5M2FNUZ", "f8E5M2FNUZ"),
    ("f4E2M1FN", "f4E2M1FN"),
    ("tf32", "tf32"),
    ("none", "none"),
    ("complex<f32>", "complex<f32>"),
    ("tensor<4x?xf32>", "tensor<4x?xf32>"),
    ("tensor<f32>", "tensor<f32>"),
    ("tensor<*xf32>", "tensor<*xf32>"),
    ("tensor<4x?xf32, #t.e>", "tensor<4x?xf32, #t.e>"),
    (
        "memref<4x4xf32, strided<[4, 1], offset: ?>, 1>",
        "memref<4x4xf32, strided<[4, 1], offset: ?>, 1>",
    ),
    ("memref<*xf32, 2>", "memref<*xf32, 2>"),
    (
        "memref<?x8xf32, affine_map<(d0, d1) -> (d1, d0)>>",
        "memref<?x8xf32, affine_map<(d0, d1) -> (d1, d0)>>",
    ),
    ("vector<[4]x8xf32>", "vector<[4]x8xf32>"),
    ("vector<f32>", "vector<f32>"),
    ("tuple<i32, f32>", "tuple<i32, f32>"),
    ("tuple<>", "tuple<>"),
    ("(i32) -> (i32, f32)", "(i32) -> (i32, f32)"),
    ("(i32) -> (f32)", "(i32) -> f32"),
    ("() -> ()", "() -> ()"),
    ("(i32) -> ((i32) -> i1)", "(i32) -> ((i32) -> i1)"),
    ("!stablehlo.token", "!stablehlo.token"),
    (
        "!t.ty<1, [2], \"a>b\", (i32) -> i32>",
        "!t.ty<1, [2], \"a>b\", (i32) -> i32>",
    ),
    ("tensor< 2xf32 >", "tensor<2xf32>"),
];

const ATTRS: &[(&str, &str)] = &[
    ("42", "42 : i64"),
    ("-5 : i8", "-5 : i8"),
    ("255 : i8", "-1 : i8"),
    ("255 : ui8", "255 : ui8"),
    (
        "340282366920938463463374607431768211455 : i128",
        "-1 : i128",
    ),
    ("true", "true"),
    ("1 : i1", "true"),
    ("unit", "unit"),
    ("3.0", "3.000000e+00 : f64"),
    ("2.5 : f64", "2.500000e+00 : f64"),
    ("0.1 : f32", "1.000000e-01 : f32"),
    ("0x7FC00000 : f32", "0x7FC00000 : f32"),
    (
        "[1, 2 : i32, 3.0, \"s\"]",
        "[1, 2 : i32, 3.000000e+00, \"s\"]",
    ),
    ("{b = 1, a = 2, w}", "{a = 2 : i64, b = 1 : i64, w}"),
    ("{\"x y\" = 1}", "{\"x y\" = 1 : i64}"),
    ("\"es\\\"c\\n\\t\\01\"", "\"es\\22c\\0A\\09\\01\""),
    ("\"s\" : i32", "\"s\" : i32"),
    ("@a::@b", "@a::@b"),
    ("@\"with space\"", "@\"with space\""),
    (
        "dense<[[1,2],[3,4]]> : tensor<2x2xi8>",
        "dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>",
    ),
    (
        "dense<1.0> : tensor<4xf32>",
        "dense<1.000000e+00> : tensor<4xf32>",
    ),
    (
        "dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>",
        "dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>",
    ),
    (
        "dense<\"0x0100000002000000\"> : tensor<2xi32>",
        "dense<[1, 2]> : tensor<2xi32>",
    ),
    (
        "dense<[true, false]> : tensor<2xi1>",
        "dense<[true, false]> : tensor<2xi1>",
    ),
    ("dense<> : tensor<0xi32>", "dense<> : tensor<0xi32>"),
    (
        "dense<[\"a\", \"b\"]> : tensor<2x!t.str>",
        "dense<[\"a\", \"b\"]> : tensor<2x!t.str>",
    ),
    (
        "dense_resource<blob1> : tensor<4xi32>",
        "dense_resource<blob1> : tensor<4xi32>",
    ),
    ("array<i64: 1, 2>", "array<i64: 1, 2>"),
    ("array<i1: true, false>", "array<i1: true, false>"),
    ("array<f32>", "array<f32>"),
    ("array<i8: -1, 3>", "array<i8: -1, 3>"),
    (
        "affine_map<(d0) -> (d0 + 1)>",
        "affine_map<(d0) -> (d0 + 1)>",
    ),
    (
        "affine_set<(d0) : (d0 >= 0)>",
        "affine_set<(d0) : (d0 >= 0)>",
    ),
    ("#t.enc<\"x\">", "#t.enc<\"x\">"),
    (
        "#stablehlo<comparison_direction EQ>",
        "#stablehlo<comparison_direction EQ>",
    ),
    ("tensor<2xf32>", "tensor<2xf32>"),
    ("loc(unknown)", "loc(unknown)"),
    ("loc(\"a.mlir\":1:2)", "loc(\"a.mlir\":1:2)"),
    ("loc(\"a.mlir\":1:2 to :5)", "loc(\"a.mlir\":1:2 to :5)"),
    ("loc(\"a\"(\"b.mlir\":3:4))", "loc(\"a\"(\"b.mlir\":3:4))"),
    (
        "loc(callsite(\"f\" at \"g\"))",
        "loc(callsite(\"f\" at \"g\"))",
    ),
    // MLIR's FusedLoc::get drops unknown parts and unwraps a lone location.
    ("loc(fused[\"a\", unknown])", "loc(\"a\")"),
    (
        "loc(fused<\"m\">[unknown, unknown])",
        "loc(fused<\"m\">[unknown])",
    ),
    ("loc(fused<\"m\">[\"a\"])", "loc(fused<\"m\">[\"a\"])"),
];

#[test]
fn types_round_trip_as_mlir_prints_them() {
    let u = Uniquer::default();
    let al = Aliases::default();
    for (input, want) in TYPES {
        let t = parse_type(&u, &al, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(type_text(&u, t), *want, "printing {input}");
        // The printed form parses to the same interned type.
        assert_eq!(parse_type(&u, &al, want).unwrap(), t, "re-parsing {want}");
    }
}

#[test]
fn attributes_round_trip_as_mlir_prints_them() {
    let u = Uniquer::default();
    let al = Aliases::default();
    for (input, want) in ATTRS {
        let a = parse_attribute(&u, &al, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(attr_text(&u, a), *want, "printing {input}");
        assert_eq!(
            parse_attribute(&u, &al, want).unwrap(),
            a,
            "re-parsing {want}"
        );
    }
}

#[test]
fn aliases_resolve_and_unknown_ones_are_errors() {
    let u = Uniquer::default();
    let mut al = Aliases::default();
    al.types.insert(
        "tok".into(),
        parse_type(&u, &Aliases::default(), "i32").unwrap(),
    );
    al.attrs.insert(
        "map".into(),
        parse_attribute(&u, &Aliases::default(), "affine_map<(d0) -> (d0)>").unwrap(),
    );
    assert_eq!(
        type_text(&u, parse_type(&u, &al, "tensor<2x!tok>").unwrap()),
        "tensor<2xi32>"
    );
    assert_eq!(
        attr_text(&u, parse_attribute(&u, &al, "[#map]").unwrap()),
        "[affine_map<(d0) -> (d0)>]"
    );
    let e = parse_attribute(&u, &al, "#nope").unwrap_err();
    assert_eq!(e.message, "undefined symbol alias id 'nope'");
}

/// (input, expected message, expected byte offset of the span)
const BAD: &[(&str, &str, usize)] = &[
    ("256 : i8", "integer constant out of range for attribute", 0),
    (
        "-1 : ui8",
        "negative integer literal not valid for unsigned integer type",
        0,
    ),
    (
        "999999999999999999999999999999999999999999 : i32",
        "integer constant out of range for attribute",
        0,
    ),
    (
        "1 : f32",
        "unexpected decimal integer literal for a floating point value",
        0,
    ),
    (
        "dense<[1, 2, 3]> : tensor<2xi32>",
        "inferred shape of elements literal ([3]) does not match type ([2])",
        6,
    ),
    (
        "dense<[[1], [2, 3]]> : tensor<2x2xi32>",
        "tensor literal is invalid; ranks are not consistent between elements",
        12,
    ),
    (
        "dense<\"0x01\"> : tensor<2xi32>",
        "hex data has 1 bytes, expected 8",
        6,
    ),
    (
        "dense<1> : tensor<?xi32>",
        "dense elements attribute requires a static shape",
        11,
    ),
    (
        "array<i7: 1>",
        "expected integer or float type of width 1, 8, 16, 32 or 64 in array<...>",
        0,
    ),
    (
        "{a = 1, a = 2}",
        "duplicate key 'a' in dictionary attribute",
        8,
    ),
    (
        "affine_map<(d0) -> (d1)>",
        "use of undeclared identifier 'd1'",
        20,
    ),
    ("[1, 2", "expected", 4),
    ("\"bad \\q escape\"", "unknown escape in string literal", 0),
];

#[test]
fn bad_attributes_get_spanned_diagnostics() {
    let u = Uniquer::default();
    let al = Aliases::default();
    for (input, msg, at) in BAD {
        let e = parse_attribute(&u, &al, input).expect_err(input);
        assert!(
            e.message.contains(msg),
            "{input}: got '{}', want '{msg}'",
            e.message
        );
        match e.at {
            aic::Where::Span { start, .. } => {
                assert_eq!(start, *at, "{input}: span of '{}'", e.message)
            }
            other => panic!("{input}: no span: {other:?}"),
        }
    }
    for bad_ty in [
        "tensor<4xf32",
        "vector<?xf32>",
        "i99999999",
        "tensor<[4]xf32>",
        "memref<4xf32, 1, 2, 3>",
    ] {
        assert!(
            parse_type(&u, &al, bad_ty).is_err(),
            "{bad_ty} should not parse"
        );
    }
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    aic::syntax::with_parser_stack(|| {
        let u = Uniquer::default();
        let al = Aliases::default();
        let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
        let e = parse_attribute(&u, &al, &deep).expect_err("too deep");
        assert!(e.message.contains("nesting deeper than"), "{}", e.message);
        let at_limit = aic::syntax::MAX_NESTING;
        let ok = format!("{}1{}", "[".repeat(at_limit), "]".repeat(at_limit));
        assert!(
            parse_attribute(&u, &al, &ok).is_ok(),
            "nesting at the limit parses"
        );
    });
}

#[test]
fn arbitrary_bytes_never_panic() {
    let u = Uniquer::default();
    let al = Aliases::default();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let alphabet = b"[]{}()<>,:=@#!\"\\x?-+.0123456789aefilnstuxdr ";
    for case in 0..3000 {
        let (input, _) = ATTRS[case % ATTRS.len()];
        let mut bytes = input.as_bytes().to_vec();
        for _ in 0..3 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let pos = (seed as usize) % (bytes.len() + 1);
            let c = alphabet[(seed >> 32) as usize % alphabet.len()];
            match seed % 3 {
                0 if pos < bytes.len() => bytes[pos] = c,
                1 if pos < bytes.len() => {
                    bytes.remove(pos);
                }
                _ => bytes.insert(pos, c),
            }
        }
        let Ok(s) = std::str::from_utf8(&bytes) else {
            continue;
        };
        if let Ok(a) = parse_attribute(&u, &al, s) {
            // Whatever parses prints to text that parses to the same attribute.
            let printed = attr_text(&u, a);
            let again = parse_attribute(&u, &al, &printed)
                .unwrap_or_else(|e| panic!("{s:?} -> {printed:?}: {e}"));
            assert_eq!(again, a, "{s:?} -> {printed:?}");
        }
    }
}
