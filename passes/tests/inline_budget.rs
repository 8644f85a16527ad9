//! The inliner's growth is bounded and its work linear in what it inlines: a call
//! tree that doubles at every level stops at `max-size` ops, and a long chain of
//! calls is inlined in one pass over the call graph.

use aic::ir::WalkOrder;
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Ops of each name in the module after `pipeline`, and how long the passes took.
fn run(text: String, pipeline: &'static str) -> (Vec<(String, usize)>, Duration) {
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("input.mlir", text);
        let m = parse_module(&mut ctx, &sm, id).expect("parses");
        let pm = parse_pipeline(pipeline, &aic_passes::all_passes()).expect("pipeline");
        let start = Instant::now();
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, &mut ctx, m)
            .expect("inlines");
        let took = start.elapsed();
        let mut counts: Vec<(String, usize)> = Vec::new();
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
            let name = ctx.op_name(o).to_string();
            match counts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, c)) => *c += 1,
                None => counts.push((name, 1)),
            }
        });
        (counts, took)
    })
}

fn count(counts: &[(String, usize)], name: &str) -> usize {
    counts
        .iter()
        .find(|(n, _)| n == name)
        .map_or(0, |(_, c)| *c)
}

#[test]
fn doubling_call_tree_stops_at_the_size_budget() {
    // f0 calls f1 twice, f1 calls f2 twice, ... f24 adds: 2^24 adds if all inlined.
    let levels = 24;
    let mut text = String::new();
    for i in 0..levels {
        let vis = if i == 0 { "" } else { "private " };
        text += &format!(
            "func.func {vis}@f{i}(%x: f32) -> f32 {{\n  %a = call @f{n}(%x) : (f32) -> f32\n  \
             %b = call @f{n}(%a) : (f32) -> f32\n  return %b : f32\n}}\n",
            n = i + 1
        );
    }
    text += &format!(
        "func.func private @f{levels}(%x: f32) -> f32 {{\n  %y = arith.addf %x, %x : f32\n  return %y : f32\n}}\n"
    );
    let (counts, took) = run(text, "builtin.module(inline{max-size=2000})");
    let ops: usize = counts.iter().map(|(_, c)| c).sum();
    // Each function left holds at most max-size ops.
    let functions = count(&counts, "func.func");
    assert!(
        ops <= functions * 2001 + 1,
        "{ops} ops in {functions} functions"
    );
    assert!(count(&counts, "func.call") > 0, "the budget leaves calls");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn long_call_chain_inlines_in_linear_time() {
    // f0 calls f1 calls ... f1999, each after one multiplication.
    let n = 2000;
    let mut text = String::new();
    for i in 0..n {
        let vis = if i == 0 { "" } else { "private " };
        text += &format!(
            "func.func {vis}@f{i}(%x: f32) -> f32 {{\n  %y = arith.mulf %x, %x : f32\n  \
             %a = call @f{next}(%y) : (f32) -> f32\n  return %a : f32\n}}\n",
            next = i + 1
        );
    }
    text += &format!("func.func private @f{n}(%x: f32) -> f32 {{\n  return %x : f32\n}}\n");
    let (counts, took) = run(text, "builtin.module(inline)");
    assert_eq!(count(&counts, "func.func"), 1);
    assert_eq!(count(&counts, "func.call"), 0);
    assert_eq!(count(&counts, "arith.mulf"), n);
    // Quadratic inlining took seconds at this size in a debug build.
    assert!(took < Duration::from_secs(3), "took {took:?}");
}
