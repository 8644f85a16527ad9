//! `func.call` verification looks callees up through symbol tables indexed once per
//! verification: a module of many calls verifies in linear time (each call used to
//! scan the module, which made a 10,000-function chain take seconds).

use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `f0` calls `f1` calls ... `f{n-1}`.
fn chain(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        let vis = if i == 0 { "" } else { "private " };
        if i + 1 < n {
            text += &format!(
                "func.func {vis}@f{i}(%x: i32) -> i32 {{\n  %y = func.call @f{}(%x) : (i32) -> i32\n  return %y : i32\n}}\n",
                i + 1
            );
        } else {
            text += &format!("func.func {vis}@f{i}(%x: i32) -> i32 {{\n  return %x : i32\n}}\n");
        }
    }
    text
}

#[test]
fn ten_thousand_calls_verify_in_linear_time() {
    let took = with_parser_stack(|| {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("chain.mlir", chain(10_000));
        let m = parse_module(&mut ctx, &sm, id).expect("parses");
        let start = Instant::now();
        aic::verifier::verify(&ctx, m).expect("verifies");
        start.elapsed()
    });
    // About 0.1 s in a debug build; quadratic lookups took about 10 s.
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[test]
fn a_call_to_a_missing_or_mistyped_function_is_still_an_error() {
    let check = |text: &'static str, want: &'static str| {
        with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let id = sm.add("bad.mlir", text.to_string());
            let m = parse_module(&mut ctx, &sm, id).expect("parses");
            let e = aic::verifier::verify(&ctx, m).expect_err("invalid call");
            assert!(e.message.contains(want), "{}", e.message);
        })
    };
    check(
        "func.func @f(%x: i32) -> i32 {\n  %y = func.call @g(%x) : (i32) -> i32\n  return %y : i32\n}\n",
        "'g' does not reference a valid function",
    );
    check(
        "func.func @g(%x: f32) -> f32 {\n  return %x : f32\n}\n\
         func.func @f(%x: i32) -> i32 {\n  %y = func.call @g(%x) : (i32) -> i32\n  return %y : i32\n}\n",
        "operand type mismatch",
    );
}

#[test]
fn the_interpreter_looks_callees_up_once_per_table() {
    // 4,000 functions, and 20,000 calls of the last one from a loop: each call
    // used to scan the module (about 9 s in a debug build), now it is a lookup.
    let mut text = String::new();
    for i in 0..4_000 {
        text += &format!("func.func private @f{i}(%x: i32) -> i32 {{\n  return %x : i32\n}}\n");
    }
    text += "func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 20000 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 7 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (i32) {
    %t = func.call @f3999(%s) : (i32) -> i32
    scf.yield %t : i32
  }
  return %r : i32
}
";
    let (took, result) = with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("calls.mlir", text);
        let m = parse_module(&mut ctx, &sm, id).expect("parses");
        let body = ctx.entry_block(ctx.regions(m)[0]).expect("body");
        let main = ctx.block_ops(body).last().expect("@main");
        let start = Instant::now();
        let r = aic::interp::Interp::new(&ctx)
            .call(main, Vec::new())
            .expect("runs");
        (start.elapsed(), r[0].first_int())
    });
    assert_eq!(result, 7);
    assert!(took < Duration::from_secs(4), "took {took:?}");
}
