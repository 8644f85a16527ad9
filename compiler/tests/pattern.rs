//! The declarative pattern API (`aic::pattern`) on a small test dialect:
//! nested matches with constants, a capture used twice, constraints, new constants
//! computed from captures, and DRR's benefit.

use aic::attributes::{Attr, AttrKind};
use aic::dialect::{AttrSpec, Dialect, OpSpec, Traits, ValueSpec, ac, tc};
use aic::ir::{Context, OpState};
use aic::op_printer::{PrintOptions, print_op};
use aic::pattern::{Args, Native, Natives, Pattern};
use aic::rewrite::{GreedyConfig, PatternSet, RewritePattern, apply_patterns_greedily};
use aic::syntax::{parse_module, with_parser_stack};
use aic::types::Type;
use aic::{DialectRegistry, SourceMap};
use std::sync::Arc;

fn int(ctx: &Context, a: Option<Attr>) -> Option<i128> {
    match ctx.attr_kind(a?) {
        AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// `c0 + c1` with the root's type.
fn sum(ctx: &Context, a: &Args) -> Option<Attr> {
    let ty = a.root_type(ctx);
    Some(ctx.attr(AttrKind::Integer {
        value: int(ctx, a.attr(0))? + int(ctx, a.attr(1))?,
        ty,
    }))
}

fn is_i8(ctx: &Context, a: &Args) -> bool {
    a.type_of(ctx, 0) == ctx.int_type(8)
}

static NATIVES: &Natives = &[("sum", Native::Attr(sum)), ("is_i8", Native::Pred(is_i8))];

const REASSOC_TEXT: &str = "AddAddConstant: (p.add (p.add ?x (const ?c0)) (const ?c1)) \
    => (p.add ?x (const @sum(?c0, ?c1)) -> ?x)";

/// `add(add(x, c0), c1) -> add(x, c0 + c1)`
static REASSOC: Pattern = Pattern::new(REASSOC_TEXT, NATIVES);

/// `sub(x, x) -> x` only when `x` is an i8 (a name used twice, and a constraint).
static SUB_SELF: Pattern = Pattern::new("SubSelf: (p.sub ?x ?x) => ?x if is_i8(?x)", NATIVES);

fn materialize(ctx: &Context, value: Attr, ty: Type, loc: Attr) -> Option<OpState> {
    let mut st = OpState::new(ctx.ident("p.const"), loc);
    st.result_types.push(ty);
    st.props = Some(ctx.dict_attr(vec![(ctx.ident("value"), value)]));
    Some(st)
}

const TWO: &[ValueSpec] = &[ValueSpec::one("a", tc::ANY), ValueSpec::one("b", tc::ANY)];
const ONE: &[ValueSpec] = &[ValueSpec::one("r", tc::ANY)];

static P: Dialect = Dialect {
    name: "p",
    description: "pattern test ops",
    ops: &[
        OpSpec {
            results: ONE,
            attributes: &[AttrSpec::required("value", ac::ANY)],
            traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
            ..OpSpec::new("p.const")
        },
        OpSpec {
            operands: TWO,
            results: ONE,
            traits: Traits::PURE,
            canonicalize: &[&REASSOC],
            ..OpSpec::new("p.add")
        },
        OpSpec {
            operands: TWO,
            results: ONE,
            traits: Traits::PURE,
            canonicalize: &[&SUB_SELF],
            ..OpSpec::new("p.sub")
        },
    ],
    materialize_constant: Some(materialize),
};

fn canonicalize(text: &str) -> String {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut reg = DialectRegistry::new();
        reg.register(&P);
        let mut ctx = Context::new(Arc::new(reg));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("p.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let patterns = PatternSet::canonicalization(&ctx);
        apply_patterns_greedily(&mut ctx, m, &patterns, GreedyConfig::default());
        print_op(&ctx, m, PrintOptions::default())
    })
}

#[test]
fn nested_match_builds_op_and_constant() {
    let out = canonicalize(
        r#"
"test.use"() ({
^bb0(%x: i32):
  %c1 = "p.const"() <{value = 1 : i32}> : () -> i32
  %c2 = "p.const"() <{value = 2 : i32}> : () -> i32
  %a = "p.add"(%x, %c1) : (i32, i32) -> i32
  %b = "p.add"(%a, %c2) : (i32, i32) -> i32
  "test.sink"(%b) : (i32) -> ()
}) : () -> ()
"#,
    );
    assert!(out.contains("value = 3 : i32"), "{out}");
    assert!(out.contains(r#""p.add"(%arg0, %"#), "{out}");
    assert_eq!(out.matches("p.add").count(), 1, "{out}");
}

#[test]
fn repeated_capture_and_constraint() {
    let same = canonicalize(
        r#"
"test.use"() ({
^bb0(%x: i8, %y: i8, %z: i32):
  %a = "p.sub"(%x, %x) : (i8, i8) -> i8
  %b = "p.sub"(%x, %y) : (i8, i8) -> i8
  %c = "p.sub"(%z, %z) : (i32, i32) -> i32
  "test.sink"(%a, %b, %c) : (i8, i8, i32) -> ()
}) : () -> ()
"#,
    );
    // Only `sub(x, x)` on i8 goes: `sub(x, y)` differs, `sub(z, z)` fails the constraint.
    assert_eq!(same.matches("p.sub").count(), 2, "{same}");
    assert!(same.contains(r#""test.sink"(%arg0, "#), "{same}");
}

#[test]
fn benefit_counts_source_ops() {
    assert_eq!(REASSOC.benefit(), 2);
    assert_eq!(SUB_SELF.benefit(), 1);
    assert_eq!(
        Pattern::new(REASSOC_TEXT, NATIVES)
            .with_benefit(5)
            .benefit(),
        5
    );
    assert_eq!(RewritePattern::root(&REASSOC), Some("p.add"));
}
