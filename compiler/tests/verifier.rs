//! The verifier on small programs: every check fires with MLIR's message at the
//! right line, and valid IR (multi-block CFGs, unreachable blocks, graph regions,
//! deep nesting) passes.

use aic::dialect::{
    AttrSpec, Dialect, OpSpec, RegionSpec, Traits, TypeConstraint, ValueSpec, ac, tc,
};
use aic::syntax::{parse_module, with_parser_stack};
use aic::types::TypeKind;
use aic::verifier::verify;
use aic::{Context, DialectRegistry, SourceMap};
use std::sync::Arc;

const I32: TypeConstraint = TypeConstraint {
    desc: "32-bit signless integer",
    check: |t, _| matches!(t, TypeKind::Integer { width: 32, .. }),
    build: None,
};

/// A dialect for exercising spec-driven checks, in the spirit of MLIR's `test` dialect.
static TEST: Dialect = Dialect {
    name: "tv",
    description: "verifier test ops",
    ops: &[
        OpSpec {
            operands: &[ValueSpec::one("a", I32), ValueSpec::one("b", I32)],
            results: &[ValueSpec::one("r", I32)],
            traits: Traits::SAME_OPERANDS_AND_RESULT_TYPE,
            ..OpSpec::new("tv.add")
        },
        OpSpec {
            operands: &[ValueSpec::one("a", tc::ANY)],
            results: &[ValueSpec::variadic("r", tc::ANY)],
            ..OpSpec::new("tv.one_in")
        },
        OpSpec {
            operands: &[
                ValueSpec::variadic("xs", tc::ANY),
                ValueSpec::variadic("ys", tc::ANY),
            ],
            ..OpSpec::new("tv.two_groups")
        },
        OpSpec {
            operands: &[ValueSpec::optional("o", tc::ANY)],
            ..OpSpec::new("tv.opt")
        },
        OpSpec {
            attributes: &[AttrSpec::required("name", ac::STRING)],
            ..OpSpec::new("tv.attr")
        },
        OpSpec {
            successors: None,
            operands: &[ValueSpec::variadic("xs", tc::ANY)],
            traits: Traits::TERMINATOR,
            ..OpSpec::new("tv.br")
        },
        OpSpec {
            traits: Traits::TERMINATOR,
            parents: &["tv.container", "tv.other"],
            ..OpSpec::new("tv.end")
        },
        OpSpec {
            regions: &[RegionSpec::any("body")],
            ..OpSpec::new("tv.container")
        },
        OpSpec {
            regions: &[RegionSpec::any("body")],
            traits: Traits::ISOLATED_FROM_ABOVE.with(Traits::NO_TERMINATOR),
            ..OpSpec::new("tv.isolated")
        },
        OpSpec {
            regions: &[RegionSpec::any("body")],
            traits: Traits::GRAPH_REGION.with(Traits::NO_TERMINATOR),
            ..OpSpec::new("tv.graph")
        },
        OpSpec {
            traits: Traits::SYMBOL,
            attributes: &[AttrSpec::optional("sym_name", ac::STRING)],
            ..OpSpec::new("tv.sym")
        },
    ],
    materialize_constant: None,
};

/// Parse `text` with the test dialect registered (unregistered ops allowed) and hand
/// the result to `then`.
fn with_parsed<T: Send>(
    text: &str,
    then: impl FnOnce(&mut Context, &SourceMap, Result<aic::Op, aic::Diagnostic>) -> T + Send,
) -> T {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut reg = DialectRegistry::new();
        reg.register(&TEST);
        let mut ctx = Context::new(Arc::new(reg));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("v.mlir", text);
        let m = parse_module(&mut ctx, &sm, f);
        then(&mut ctx, &sm, m)
    })
}

/// Parse and verify; the error's message and 1-based line.
fn check(text: &str) -> Result<(), (String, usize)> {
    with_parsed(text, |ctx, sm, m| {
        let m = m.map_err(|d| (format!("parse: {}", d.message), 0))?;
        verify(ctx, m).map_err(|d| {
            let line = sm.line_of(ctx.uniquer(), d.at).map_or(0, |(_, l)| l);
            let notes: Vec<String> = d.notes.iter().map(|n| n.message.clone()).collect();
            (
                format!(
                    "{}{}",
                    d.message,
                    if notes.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", notes.join("; "))
                    }
                ),
                line,
            )
        })
    })
}

#[track_caller]
fn fails(text: &str, msg: &str, line: usize) {
    match check(text) {
        Ok(()) => panic!("verified, expected '{msg}':\n{text}"),
        Err((m, l)) => {
            assert!(m.contains(msg), "got '{m}', want '{msg}'");
            assert_eq!(l, line, "'{m}' at line {l}, want {line}");
        }
    }
}

#[track_caller]
fn passes(text: &str) {
    if let Err((m, l)) = check(text) {
        panic!("line {l}: {m}\n{text}");
    }
}

#[test]
fn counts_types_and_attributes_follow_the_spec() {
    let pre = "%a = \"t.i\"() : () -> i32\n%f = \"t.f\"() : () -> f32\n";
    fails(
        &format!("{pre}%r = \"tv.add\"(%a) : (i32) -> i32"),
        "'tv.add' op expected 2 operands, but found 1",
        3,
    );
    fails(
        &format!("{pre}\"tv.add\"(%a, %a) : (i32, i32) -> ()"),
        "'tv.add' op requires one result",
        3,
    );
    fails(
        &format!("{pre}%r = \"tv.add\"(%a, %f) : (i32, f32) -> i32"),
        "operand #1 must be 32-bit signless integer, but got 'f32'",
        3,
    );
    fails(
        &format!("{pre}\"tv.one_in\"() : () -> ()"),
        "requires a single operand",
        3,
    );
    fails(
        &format!("{pre}\"tv.opt\"(%a, %a) : (i32, i32) -> ()"),
        "operand group starting at #0 requires 0 or 1 element, but found 2",
        3,
    );
    fails(
        &format!("{pre}\"tv.two_groups\"(%a) : (i32) -> ()"),
        "requires attribute 'operandSegmentSizes'",
        3,
    );
    fails(
        &format!(
            "{pre}\"tv.two_groups\"(%a) <{{operandSegmentSizes = array<i32: 1, 1>}}> : (i32) -> ()"
        ),
        "operand count (1) does not match with the total size (2) specified in attribute 'operandSegmentSizes'",
        3,
    );
    passes(&format!(
        "{pre}\"tv.two_groups\"(%a, %f, %f) <{{operandSegmentSizes = array<i32: 1, 2>}}> : (i32, f32, f32) -> ()"
    ));
    fails(
        &format!("{pre}\"tv.attr\"() : () -> ()"),
        "'tv.attr' op requires attribute 'name'",
        3,
    );
    fails(
        &format!("{pre}\"tv.attr\"() {{name = 1}} : () -> ()"),
        "attribute 'name' failed to satisfy constraint: string attribute",
        3,
    );
    fails("\"tv.container\"() : () -> ()", "requires one region", 1);
    fails(
        "\"tv.attr\"() ({}) {name = \"x\"} : () -> ()",
        "requires zero regions",
        1,
    );
    fails(
        "\"tv.sym\"() : () -> ()",
        "requires string attribute 'sym_name'",
        1,
    );
}

#[test]
fn traits_are_checked() {
    fails(
        "%a = \"t.i\"() : () -> i32\n%f = \"t.f\"() : () -> f32\n%r = \"tv.add\"(%a, %a) : (i32, i32) -> f32",
        "result #0 must be 32-bit signless integer, but got 'f32'",
        3,
    );
    fails(
        "\"tv.end\"() : () -> ()",
        "expects parent op to be one of 'tv.container, tv.other'",
        1,
    );
    fails(
        "\"tv.container\"() ({\n  \"tv.end\"() : () -> ()\n  \"t.x\"() : () -> ()\n}) : () -> ()",
        "'tv.end' op must be the last operation in the parent block",
        2,
    );
    fails(
        "\"tv.container\"() ({\n  \"tv.attr\"() {name = \"n\"} : () -> ()\n}) : () -> ()",
        "block with no terminator, has \"tv.attr\"",
        2,
    );
    fails(
        "\"tv.container\"() ({\n^bb0:\n}) : () -> ()",
        "empty block: expect at least a terminator",
        1,
    );
    passes("\"tv.container\"() ({\n  \"tv.end\"() : () -> ()\n}) : () -> ()");
    // Regions of unregistered ops and NoTerminator ops need no terminator.
    passes("\"t.any\"() ({\n  \"tv.attr\"() {name = \"n\"} : () -> ()\n}) : () -> ()");
    passes("\"tv.isolated\"() ({\n  \"tv.attr\"() {name = \"n\"} : () -> ()\n}) : () -> ()");
}

#[test]
fn dominance_across_blocks_uses_a_dominator_tree() {
    // A diamond: the value from ^bb1 does not dominate ^bb3, the entry's does.
    let diamond = |use_in_bb3: &str| {
        format!(
            "\"tv.container\"() ({{\n  %e = \"t.e\"() : () -> i32\n  \"tv.br\"()[^bb1, ^bb2] : () -> ()\n\
             ^bb1:\n  %x = \"t.x\"() : () -> i32\n  \"tv.br\"()[^bb3] : () -> ()\n\
             ^bb2:\n  \"tv.br\"()[^bb3] : () -> ()\n\
             ^bb3:\n  \"t.use\"({use_in_bb3}) : (i32) -> ()\n  \"tv.end\"() : () -> ()\n}}) : () -> ()"
        )
    };
    passes(&diamond("%e"));
    fails(
        &diamond("%x"),
        "operand #0 does not dominate this use [operand defined here (op in the same region)]",
        10,
    );
    // Uses in unreachable blocks are exempt; loops back-edge fine.
    passes(
        "\"tv.container\"() ({\n  \"tv.br\"()[^bb2] : () -> ()\n^bb1:\n  \"t.use\"(%y) : (i32) -> ()\n  \"tv.br\"()[^bb2] : () -> ()\n\
         ^bb2:\n  %y = \"t.y\"() : () -> i32\n  \"tv.br\"()[^bb2] : () -> ()\n}) : () -> ()",
    );
    // A block argument dominates its block; a value used in its own op's region does not.
    fails(
        "\"tv.container\"() ({\n  %r = \"t.r\"() ({\n    \"t.use\"(%r) : (i32) -> ()\n  }) : () -> i32\n  \"tv.end\"() : () -> ()\n}) : () -> ()",
        "operand #0 does not dominate this use",
        3,
    );
}

#[test]
fn graph_regions_and_isolation() {
    passes(
        "\"tv.graph\"() ({\n  \"t.use\"(%later) : (i32) -> ()\n  %later = \"t.def\"() : () -> i32\n}) : () -> ()",
    );
    fails(
        "%a = \"t.def\"() : () -> i32\n\"tv.isolated\"() ({\n  \"t.use\"(%a) : (i32) -> ()\n}) : () -> ()",
        "'t.use' op using value defined outside the region [required by region isolation constraints]",
        3,
    );
    fails(
        "\"tv.container\"() ({\n^bb0:\n  \"tv.br\"()[^bb1] : () -> ()\n^bb1:\n  \"tv.br\"()[^bb0] : () -> ()\n}) : () -> ()",
        "entry block of region may not have predecessors",
        1,
    );
    fails(
        "\"tv.container\"() ({\n  \"tv.br\"()[^bb1] : () -> ()\n  \"tv.end\"() : () -> ()\n^bb1:\n  \"tv.end\"() : () -> ()\n}) : () -> ()",
        "operation with block successors must terminate its parent block",
        2,
    );
}

#[test]
fn symbol_tables_reject_duplicates() {
    fails(
        "module {\n  \"tv.sym\"() {sym_name = \"s\"} : () -> ()\n  \"tv.sym\"() {sym_name = \"s\"} : () -> ()\n}",
        "redefinition of symbol named 's' [see existing symbol definition here]",
        3,
    );
    fails(
        "\"tv.container\"() ({\n  \"tv.sym\"() {sym_name = \"s\"} : () -> ()\n  \"tv.end\"() : () -> ()\n}) : () -> ()",
        "symbol's parent must have the SymbolTable trait",
        2,
    );
    passes(
        "module {\n  module @a {\n    \"tv.sym\"() {sym_name = \"s\"} : () -> ()\n  }\n  \"tv.sym\"() {sym_name = \"s\"} : () -> ()\n}",
    );
}

#[test]
fn unregistered_ops_need_permission() {
    let msg = with_parsed("\"tv.nope\"() : () -> ()", |ctx, _, m| {
        let m = m.expect("parses when allowed");
        ctx.allow_unregistered = false;
        verify(ctx, m).expect_err("rejected").message
    });
    assert!(
        msg.contains("unregistered operation 'tv.nope' found in dialect ('tv')"),
        "{msg}"
    );
}

#[test]
fn deep_nesting_verifies_without_recursion() {
    let n = 900;
    let text = "\"t.r\"() ({\n".repeat(n) + &"}) : () -> ()\n".repeat(n);
    passes(&text);
}
