//! The arith dialect through aic's parser, verifier and printer: default-valued
//! flags, bit-enum keyword order, inferred result types and result names.

use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use std::sync::Arc;

/// Parse, verify and print `text` (pretty and generic).
fn roundtrip(text: &str) -> (String, String) {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("a.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        verify(&ctx, m).expect("verifies");
        let pretty = print_op(&ctx, m, PrintOptions::default());
        let generic = print_op(
            &ctx,
            m,
            PrintOptions {
                generic: true,
                ..Default::default()
            },
        );
        (pretty, generic)
    })
}

#[test]
fn default_flags_are_stored_and_elided() {
    let (pretty, generic) = roundtrip(
        "func.func @f(%a: f32, %i: i32) {\n  %0 = arith.addf %a, %a : f32\n  %1 = arith.addi %i, %i : i32\n  return\n}",
    );
    assert!(
        pretty.contains("%0 = arith.addf %arg0, %arg0 : f32"),
        "{pretty}"
    );
    assert!(
        generic.contains("<{fastmath = #arith.fastmath<none>}>"),
        "{generic}"
    );
    assert!(
        generic.contains("<{overflowFlags = #arith.overflow<none>}>"),
        "{generic}"
    );
}

#[test]
fn bit_enums_print_in_declaration_order_with_groups() {
    let (pretty, _) = roundtrip(
        "func.func @f(%a: f32, %i: i32) {\n  %0 = arith.mulf %a, %a fastmath<ninf, nnan> : f32\n  %1 = \"arith.mulf\"(%a, %a) <{fastmath = #arith.fastmath<afn,contract,arcp,nsz,ninf,nnan,reassoc>}> : (f32, f32) -> f32\n  %2 = arith.muli %i, %i overflow<nuw, nsw> : i32\n  return\n}",
    );
    assert!(pretty.contains("fastmath<nnan,ninf> : f32"), "{pretty}");
    assert!(pretty.contains("fastmath<fast> : f32"), "{pretty}");
    assert!(pretty.contains("overflow<nsw, nuw> : i32"), "{pretty}");
}

#[test]
fn results_are_inferred_and_named_as_mlir_names_them() {
    let (pretty, generic) = roundtrip(
        "func.func @f(%i: i32, %v: vector<2xf32>) {\n  %0 = arith.constant 3 : i32\n  %1 = arith.constant 3 : i32\n  %2 = arith.cmpf olt, %v, %v : vector<2xf32>\n  %3:2 = arith.mulsi_extended %i, %i : i32\n  \"tt.use\"(%3#1) : (i32) -> ()\n  return\n}",
    );
    assert!(
        pretty.contains("%c3_i32 = arith.constant 3 : i32"),
        "{pretty}"
    );
    assert!(
        pretty.contains("%c3_i32_0 = arith.constant 3 : i32"),
        "{pretty}"
    );
    assert!(pretty.contains("%0 = arith.cmpf olt"), "{pretty}");
    assert!(
        pretty.contains("%low, %high = arith.mulsi_extended"),
        "{pretty}"
    );
    assert!(pretty.contains("\"tt.use\"(%high)"), "{pretty}");
    assert!(
        generic.contains("(vector<2xf32>, vector<2xf32>) -> vector<2xi1>"),
        "{generic}"
    );
    assert!(generic.contains("\"tt.use\"(%3#1)"), "{generic}");
}
