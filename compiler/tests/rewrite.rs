//! The pattern API and the greedy driver on a small test dialect: folding with
//! constant materialisation (uniqued, hoisted), dead-op erasure, patterns by
//! benefit, side effects respected, and the iteration limit.

use aic::attributes::{Attr, AttrKind};
use aic::dialect::{AttrSpec, Dialect, OpSpec, Traits, ValueSpec, ac, tc};
use aic::ir::{Context, Op, OpState};
use aic::op_printer::{PrintOptions, print_op};
use aic::rewrite::{
    FoldResult, GreedyConfig, PatternSet, RewritePattern, Rewriter, apply_patterns_greedily,
};
use aic::syntax::{parse_module, with_parser_stack};
use aic::types::Type;
use aic::{DialectRegistry, SourceMap};
use smallvec::{SmallVec, smallvec};
use std::sync::Arc;

fn int_of(ctx: &Context, a: Attr) -> Option<i128> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// `tr.add`: folds constants, and `x + 0` to `x`.
fn fold_add(ctx: &mut Context, op: Op, c: &[Option<Attr>]) -> Option<SmallVec<[FoldResult; 1]>> {
    let ty = ctx.value_type(ctx.result(op, 0));
    match (
        c[0].and_then(|a| int_of(ctx, a)),
        c[1].and_then(|a| int_of(ctx, a)),
    ) {
        (Some(x), Some(y)) => Some(smallvec![FoldResult::Attr(
            ctx.attr(AttrKind::Integer { value: x + y, ty })
        )]),
        (_, Some(0)) => Some(smallvec![FoldResult::Value(ctx.operands(op)[0])]),
        _ => None,
    }
}

/// `tr.neg(tr.neg(x))` is `x`.
struct DoubleNeg;
impl RewritePattern for DoubleNeg {
    fn root(&self) -> Option<&'static str> {
        Some("tr.neg")
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool {
        let inner = rw.ctx.operands(op)[0];
        let Some(d) = rw
            .ctx
            .defining_op(inner)
            .filter(|d| rw.ctx.op_name(*d) == "tr.neg")
        else {
            return false;
        };
        let x = rw.ctx.operands(d)[0];
        rw.replace_op(op, &[x]);
        true
    }
}

/// `tr.flip` swaps between two attribute values forever: never converges.
struct Flip;
impl RewritePattern for Flip {
    fn root(&self) -> Option<&'static str> {
        Some("tr.flip")
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool {
        let k = rw.ctx.ident("state");
        let now = rw
            .ctx
            .attr_of(op, k)
            .and_then(|a| int_of(rw.ctx, a))
            .unwrap_or(0);
        let ty = rw.ctx.int_type(64);
        let next = rw.ctx.attr(AttrKind::Integer { value: 1 - now, ty });
        rw.ctx.set_attr(op, k, next);
        rw.modified(op);
        true
    }
}

fn materialize(ctx: &Context, value: Attr, ty: Type, loc: Attr) -> Option<OpState> {
    let mut st = OpState::new(ctx.ident("tr.const"), loc);
    st.result_types.push(ty);
    st.props = Some(ctx.dict_attr(vec![(ctx.ident("value"), value)]));
    Some(st)
}

static TR: Dialect = Dialect {
    name: "tr",
    description: "rewrite test ops",
    ops: &[
        OpSpec {
            results: &[ValueSpec::one("r", tc::ANY)],
            attributes: &[AttrSpec::required("value", ac::ANY)],
            traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
            ..OpSpec::new("tr.const")
        },
        OpSpec {
            operands: &[ValueSpec::one("a", tc::ANY), ValueSpec::one("b", tc::ANY)],
            results: &[ValueSpec::one("r", tc::ANY)],
            traits: Traits::PURE,
            fold: Some(fold_add),
            ..OpSpec::new("tr.add")
        },
        OpSpec {
            operands: &[ValueSpec::one("a", tc::ANY)],
            results: &[ValueSpec::one("r", tc::ANY)],
            traits: Traits::PURE,
            canonicalize: &[&DoubleNeg],
            ..OpSpec::new("tr.neg")
        },
        OpSpec {
            canonicalize: &[&Flip],
            ..OpSpec::new("tr.flip")
        },
        OpSpec {
            operands: &[ValueSpec::variadic("xs", tc::ANY)],
            results: &[ValueSpec::variadic("rs", tc::ANY)],
            ..OpSpec::new("tr.effect")
        },
    ],
    materialize_constant: Some(materialize),
};

/// Canonicalise `text` (generic form) and return the printed result and whether the
/// driver converged.
fn canonicalize(text: &str, max_iterations: u32) -> (String, bool) {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut reg = DialectRegistry::new();
        reg.register(&TR);
        let mut ctx = Context::new(Arc::new(reg));
        let mut sm = SourceMap::new();
        let f = sm.add("r.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let patterns = PatternSet::canonicalization(&ctx);
        let config = GreedyConfig {
            max_iterations,
            ..GreedyConfig::default()
        };
        let (_, converged) = apply_patterns_greedily(&mut ctx, m, &patterns, config);
        aic::verifier::verify(&ctx, m).expect("still valid");
        (print_op(&ctx, m, PrintOptions::default()), converged)
    })
}

const PROGRAM: &str = r#"
%x = "tr.effect"() : () -> i32
%one = "tr.const"() <{value = 1 : i32}> : () -> i32
%two = "tr.const"() <{value = 2 : i32}> : () -> i32
%zero = "tr.const"() <{value = 0 : i32}> : () -> i32
%three = "tr.add"(%one, %two) : (i32, i32) -> i32
%x0 = "tr.add"(%x, %zero) : (i32, i32) -> i32
%again = "tr.add"(%two, %one) : (i32, i32) -> i32
%n = "tr.neg"(%x0) : (i32) -> i32
%nn = "tr.neg"(%n) : (i32) -> i32
%unused = "tr.add"(%x, %x) : (i32, i32) -> i32
"tr.effect"(%three, %again, %nn) : (i32, i32, i32) -> ()
"tr.effect"() : () -> ()
"#;

#[test]
fn folds_materialises_uniques_and_erases_dead_ops() {
    let (out, converged) = canonicalize(PROGRAM, 10);
    assert!(converged);
    // 1 + 2 and 2 + 1 fold to one materialised constant 3, hoisted to the top;
    // x + 0 is x; neg(neg(x)) is x; unused pure ops and the used-up constants go.
    let want = "module {
  %0 = \"tr.const\"() <{value = 3 : i32}> : () -> i32
  %1 = \"tr.effect\"() : () -> i32
  \"tr.effect\"(%0, %0, %1) : (i32, i32, i32) -> ()
  \"tr.effect\"() : () -> ()
}
";
    assert_eq!(out, want);
}

#[test]
fn iteration_limit_stops_cycles() {
    let (_, converged) = canonicalize("\"tr.flip\"() : () -> ()", 3);
    assert!(!converged, "a pattern that always fires cannot converge");
    let (_, converged) = canonicalize("\"tr.effect\"() : () -> ()", 3);
    assert!(converged);
}
