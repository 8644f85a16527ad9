//! Bad input of every kind the foundation issue lists gets a rendered diagnostic
//! with a span, never a panic: each case's rendering is an insta snapshot.

use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use std::sync::Arc;

/// Parse `text` as aic-opt does and return the rendered diagnostic, if any.
fn diagnose(text: String) -> Option<String> {
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("input.mlir", text);
        match parse_module(&mut ctx, &sm, f) {
            Ok(_) => None,
            Err(d) => Some(sm.render(ctx.uniquer(), &d)),
        }
    })
}

fn check(name: &str, text: &str) {
    let rendered = diagnose(text.to_string())
        .unwrap_or_else(|| panic!("case '{name}' parsed without a diagnostic"));
    insta::assert_snapshot!(name, rendered);
}

#[test]
fn truncated_file() {
    check(
        "truncated_file",
        "func.func @f(%a: i32) -> i32 {\n  return %a : i32\n",
    );
    check("truncated_generic_op", "\"t.a\"(");
}

#[test]
fn unbalanced_brackets() {
    check("unbalanced_brackets", "\"t.a\"() {x = [1, 2} : () -> ()\n");
    check(
        "unbalanced_region",
        "\"t.r\"() ({\n  \"t.a\"() : () -> ()\n) : () -> ()\n",
    );
}

#[test]
fn unknown_type() {
    check("unknown_type", "\"t.a\"() : () -> foo32\n");
    check("too_wide_integer_type", "\"t.a\"() : () -> i99999999\n");
}

#[test]
fn huge_integers() {
    check(
        "huge_integer_attribute",
        "\"t.a\"() {v = 99999999999999999999999999999999999999999 : i64} : () -> ()\n",
    );
    check(
        "integer_out_of_range",
        "\"t.a\"() {v = 256 : i8} : () -> ()\n",
    );
}

#[test]
fn deep_nesting() {
    let n = 10_000;
    let regions = "\"t.r\"() ({\n".repeat(n) + &"}) : () -> ()\n".repeat(n);
    check("deep_region_nesting", &regions);
    let arrays = format!(
        "\"t.a\"() {{x = {}{}}} : () -> ()\n",
        "[\n".repeat(n),
        "]".repeat(n)
    );
    check("deep_attribute_nesting", &arrays);
    let types = format!(
        "\"t.a\"() : () -> {}i32{}\n",
        "tuple<\n".repeat(n),
        ">".repeat(n)
    );
    check("deep_type_nesting", &types);
    let fn_types = format!(
        "\"t.a\"() : () -> {}i32{}\n",
        "(() ->\n".repeat(n),
        ")".repeat(n)
    );
    check("deep_function_type_nesting", &fn_types);
}

#[test]
fn undefined_values() {
    check("undefined_value", "\"t.a\"(%x) : (i32) -> ()\n");
    check(
        "undefined_value_in_custom_op",
        "func.func @f() -> i32 {\n  return %nope : i32\n}\n",
    );
    check(
        "undefined_block",
        "\"t.r\"() ({\n  \"t.br\"()[^nowhere] : () -> ()\n}) : () -> ()\n",
    );
}

#[test]
fn type_mismatches() {
    check(
        "use_type_mismatch",
        "%a = \"t.a\"() : () -> i32\n\"t.b\"(%a) : (f32) -> ()\n",
    );
    check(
        "operand_count_mismatch",
        "%a = \"t.a\"() : () -> i32\n\"t.b\"(%a) : (i32, i32) -> ()\n",
    );
    check("result_count_mismatch", "%a, %b = \"t.a\"() : () -> i32\n");
}

#[test]
fn custom_syntax_errors() {
    check("unknown_custom_op", "func.func @f() {\n  frobnicate\n}\n");
    check("bad_signature", "func.func @f(%a: i32, i64) {\n}\n");
    check(
        "inferred_attribute_in_dict",
        "func.func @f() attributes {sym_name = \"g\"}\n",
    );
    check("missing_symbol", "func.func f()\n");
    check("empty_function_body", "func.func @f() {\n}\n");
}

#[test]
fn arbitrary_prefixes_never_panic() {
    let text = "module {\n  func.func @f(%a: i32 {t.x = 1}, %b: f32) -> (i32, f32) attributes {t.y} {\n    %0:2 = call @f(%a, %b) : (i32, f32) -> (i32, f32)\n    %c = builtin.unrealized_conversion_cast %a : i32 to i64\n    return %0#0, %0#1 : i32, f32\n  }\n}\n";
    for end in 0..text.len() {
        let _ = diagnose(text[..end].to_string());
    }
}
