//! Moving subtrees between contexts, and nested pipelines run on several threads:
//! an extracted and restored subtree prints exactly as before, and a parallel run
//! gives the same IR and the same (first in IR order) failure as a sequential one.

use aic::dialect::{Dialect, OpSpec, RegionSpec, Traits};
use aic::op_printer::{PrintOptions, print_op};
use aic::pass::{
    Instrumentation, OpPassManager, Pass, PassEntry, PassFilter, PassInfo, PassRunner,
};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, Diagnostic, DialectRegistry, Op, SourceMap};
use std::sync::Arc;

/// An isolated-from-above op with a body, like `func.func`.
const FN: OpSpec = OpSpec {
    regions: &[RegionSpec::any("body")],
    traits: Traits::ISOLATED_FROM_ABOVE.with(Traits::NO_TERMINATOR),
    ..OpSpec::new("th.fn")
};

static TH: Dialect = Dialect {
    name: "th",
    description: "test dialect for threading",
    ops: &[FN],
    materialize_constant: None,
};

/// Erases the first op of each `th.fn` body (with a remark), and fails on a
/// `th.fn` marked `bad`.
struct Trim;

static TRIM: PassInfo = PassInfo {
    flag: "test-trim",
    name: "TestTrim",
    summary: "erase the first op of a th.fn body; fail on th.fn {bad}",
    anchor: Some("th.fn"),
    options: &[],
    create: |_| Box::new(Trim),
};

impl Pass for Trim {
    fn info(&self) -> &'static PassInfo {
        &TRIM
    }
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic> {
        if ctx
            .find_ident("bad")
            .and_then(|b| ctx.attr_of(op, b))
            .is_some()
        {
            return Err(Diagnostic::error("bad function").at_loc(ctx.op(op).loc));
        }
        let body = ctx.regions(op)[0];
        let first = ctx.entry_block(body).and_then(|b| ctx.first_op(b));
        match first {
            Some(f) if ctx.results(f).all(|r| ctx.uses(r).is_empty()) => {
                ctx.remark(f, format_args!("erased '{}'", ctx.op_name(f)));
                ctx.erase_op(f);
                Ok(true)
            }
            _ => Ok(false),
        }
    }
}

const PROGRAM: &str = r#"
"th.fn"() ({
^bb0(%x: i32):
  %a = "t.a"(%x) : (i32) -> i32
  "t.br"(%a)[^bb2] : (i32) -> ()
^bb1:
  "t.use"(%b) : (i32) -> ()
  "t.end"() : () -> ()
^bb2:
  %b = "t.b"() : () -> i32
  "t.br"()[^bb1] : () -> ()
}) {sym = 0} : () -> ()
"#;

fn parse(text: &str) -> (Context, Op, SourceMap) {
    let mut reg = DialectRegistry::new();
    reg.register(&TH);
    let mut ctx = Context::new(Arc::new(reg));
    ctx.allow_unregistered = true;
    let mut sm = SourceMap::new();
    let f = sm.add("t.mlir", text.to_string());
    let m = parse_module(&mut ctx, &sm, f).expect("parses");
    (ctx, m, sm)
}

fn print(ctx: &Context, m: Op) -> String {
    print_op(
        ctx,
        m,
        PrintOptions {
            generic: true,
            debuginfo: true,
        },
    )
}

#[test]
fn extract_and_restore_keep_the_ir() {
    let (before, after, inner_same) = with_parser_stack(|| {
        let (mut ctx, m, _) = parse(PROGRAM);
        let before = print(&ctx, m);
        let f = ctx
            .block_ops(ctx.entry_block(ctx.regions(m)[0]).expect("body"))
            .next()
            .expect("th.fn");
        let (sub, op) = ctx.extract(f);
        // The copy is a faithful, self-contained replica.
        let inner_same = print(&sub, op) == print(&ctx, f);
        ctx.restore_extracted(f, &sub, op);
        aic::verifier::verify(&ctx, m).expect("still valid");
        (before, print(&ctx, m), inner_same)
    });
    assert!(inner_same);
    assert_eq!(after, before);
}

fn run(text: String, threading: bool) -> (String, Option<String>) {
    let (ir, err, _) = run_with_remarks(text, threading, PassFilter::None);
    (ir, err)
}

/// The IR after the run, its error, and the remarks (rendered) it emitted.
fn run_with_remarks(
    text: String,
    threading: bool,
    remarks: PassFilter,
) -> (String, Option<String>, Vec<String>) {
    with_parser_stack(move || {
        let (mut ctx, m, sm) = parse(&text);
        ctx.set_remarks(remarks);
        let mut pm = OpPassManager::new("builtin.module");
        pm.add_pass(PassEntry {
            pass: (TRIM.create)(&aic::pass::PassOptions::default()),
            options_text: String::new(),
        });
        let inst = Instrumentation {
            threading,
            ..Instrumentation::default()
        };
        let mut sink = std::io::sink();
        let mut runner = PassRunner::new(&inst, &mut sink);
        let err = runner
            .run(&pm, &mut ctx, m)
            .err()
            .map(|d| sm.render(ctx.uniquer(), &d));
        let remarks = ctx
            .take_remarks()
            .iter()
            .map(|d| sm.render(ctx.uniquer(), d))
            .collect();
        (print(&ctx, m), err, remarks)
    })
}

fn many(n: usize, bad: &[usize]) -> String {
    (0..n)
        .map(|i| {
            let attr = if bad.contains(&i) { ", bad" } else { "" };
            format!(
                "\"th.fn\"() ({{\n^bb0(%x: i32):\n  \"t.z{i}\"() : () -> ()\n  %a = \"t.a{i}\"(%x) : (i32) -> i32\n  \"t.use\"(%a) : (i32) -> ()\n  \"t.end\"() : () -> ()\n}}) {{n = {i}{attr}}} : () -> ()\n"
            )
        })
        .collect()
}

#[test]
fn parallel_runs_equal_sequential_ones() {
    let text = many(64, &[]);
    let (seq, e1) = run(text.clone(), false);
    let (par, e2) = run(text, true);
    assert!(e1.is_none() && e2.is_none());
    assert_eq!(par, seq);
    // The pass did run on every function.
    assert!(!seq.contains("t.z0\"") && seq.contains("t.a0\""));
}

#[test]
fn the_first_failure_in_ir_order_is_reported() {
    let text = many(64, &[41, 17, 50]);
    let (_, e1) = run(text.clone(), false);
    let (_, e2) = run(text, true);
    let (e1, e2) = (e1.expect("fails"), e2.expect("fails"));
    assert_eq!(e1, e2);
    assert!(e1.contains("bad function"), "{e1}");
    // Function 17 is the first bad one: line 1 + 17 * 7.
    assert!(e1.contains("t.mlir:120:1"), "{e1}");
}

#[test]
fn remarks_of_parallel_runs_come_in_ir_order() {
    let text = many(40, &[]);
    let (_, _, seq) = run_with_remarks(text.clone(), false, PassFilter::All);
    let (_, _, par) = run_with_remarks(text.clone(), true, PassFilter::All);
    assert_eq!(seq.len(), 40);
    assert_eq!(par, seq);
    assert!(
        seq[0].starts_with("remark: test-trim: erased 't.z0'"),
        "{}",
        seq[0]
    );
    // Function 3's first op is on line 3 + 3 * 7.
    assert!(seq[3].contains("t.mlir:24:3"), "{}", seq[3]);
    // Only the passes asked for speak.
    let (_, _, other) = run_with_remarks(text, true, PassFilter::Flags(vec!["cse".into()]));
    assert!(other.is_empty());
}
