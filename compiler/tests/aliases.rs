//! Alias ordering rules (expected texts from mlir-opt-22 on the same input).

use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, DialectRegistry, SourceMap};
use std::sync::Arc;

fn print(text: &str, generic: bool) -> String {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("in.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        print_op(
            &ctx,
            m,
            PrintOptions {
                generic,
                ..Default::default()
            },
        )
    })
}

#[test]
fn types_first_then_names_then_depth() {
    let got = print(
        r#""x.a"() {a = [affine_map<(d0) -> (d0 + 1)>], t = tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16,i17>, u = tuple<i1,i2,i3,i4,i5,i6,i7,i8,i9,i10,i11,i12,i13,i14,i15,i16>, w = loc(fused<[affine_map<(d0)->(d0+2)>]>["a":1:1]), x = loc(callsite("b":1:1 at "c":1:1))} : () -> ()"#,
        false,
    );
    assert_eq!(
        got,
        r#"!tuple = tuple<i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16, i17>
#loc = loc("a":1:1)
#loc1 = loc("b":1:1)
#loc2 = loc("c":1:1)
#map = affine_map<(d0) -> (d0 + 1)>
#map1 = affine_map<(d0) -> (d0 + 2)>
#loc3 = loc(callsite(#loc1 at #loc2))
#loc4 = loc(fused<[#map1]>[#loc])
module {
  "x.a"() {a = [#map], t = !tuple, u = tuple<i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16>, w = #loc4, x = #loc3} : () -> ()
}
"#
    );
}

#[test]
fn generic_walk_visits_regions_first_and_skips_unregistered_properties() {
    let src = r#""x.a"() <{p = affine_map<(d0) -> (d0 + 1)>}> ({
  "x.b"() {q = affine_map<(d0) -> (d0 + 2)>} : () -> ()
}) {r = affine_map<(d0) -> (d0 + 3)>} : () -> (memref<2xf32, affine_map<(d0) -> (d0 + 4)>>)"#;
    let want = r#"#map = affine_map<(d0) -> (d0 + 2)>
#map1 = affine_map<(d0) -> (d0 + 4)>
#map2 = affine_map<(d0) -> (d0 + 3)>
"builtin.module"() ({
  %0 = "x.a"() <{p = affine_map<(d0) -> (d0 + 1)>}> ({
    "x.b"() {q = #map} : () -> ()
  }) {r = #map2} : () -> memref<2xf32, #map1>
}) : () -> ()
"#;
    assert_eq!(print(src, true), want);
}

#[test]
fn no_aliases_no_definitions() {
    assert_eq!(
        print(
            r#""x.a"() {t = memref<2xf32, affine_map<(d0) -> (d0)>>} : () -> ()"#,
            false
        ),
        "module {\n  \"x.a\"() {t = memref<2xf32>} : () -> ()\n}\n"
    );
}
