//! Typed op handles made by `aic::op!`: accessors by group (single, optional,
//! variadic, segmented), typed attributes, regions, recognition, and builders
//! whose ops print as the parser reads them.

use aic::dialect::{Dialect, OpSpec, Traits, ac, tc};
use aic::ir::{Builder, Context, Op};
use aic::op_def::OpHandle;
use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{DialectRegistry, SourceMap};
use std::sync::Arc;

const I64: aic::dialect::AttrConstraint = ac::ANY;

aic::op! {
    /// `th.add`: two operands, one result.
    pub Add = ADD {
        operands: [lhs: one(tc::ANY), rhs: one(tc::ANY)],
        results: [sum: one(tc::ANY)],
        spec: OpSpec::new("th.add"),
    }
}

aic::op! {
    /// `th.mix`: a variadic group between single ones, an optional result.
    pub Mix = MIX {
        operands: [first: one(tc::ANY), middle = "midDle": variadic(tc::ANY), last: one(tc::ANY)],
        results: [out: variadic(tc::ANY)],
        attributes: [
            axis: required(I64) as i64,
            dims: optional(I64) as Vec<i64>,
            note: optional(ac::STRING),
        ],
        regions: [body: any, cases = "caseRegions": variadic_sized],
        spec: OpSpec::new("th.mix"),
    }
}

aic::op! {
    /// `th.seg`: two variadic groups, so segment sizes.
    pub Seg = SEG {
        operands: [xs: variadic(tc::ANY), ys: variadic(tc::ANY), maybe: optional(tc::ANY)],
        results: [r: optional(tc::ANY)],
        attributes: [
            flag: optional(ac::UNIT) as bool,
            mode: defaulted(ac::STRING, |u| u.string_attr("fast")) as String,
        ],
        spec: OpSpec::new("th.seg"),
    }
}

aic::op! {
    /// `th.v`: a value.
    pub V = VALUE {
        results: [v: one(tc::ANY)],
        spec: OpSpec::new("th.v"),
    }
}

aic::op! {
    /// `th.t`: nothing.
    pub T = NOTHING {
        spec: OpSpec { traits: Traits::TERMINATOR, ..OpSpec::new("th.t") },
    }
}

static TH: Dialect = Dialect {
    name: "th",
    description: "op handle tests",
    ops: &[ADD, MIX, SEG, VALUE, NOTHING],
    materialize_constant: None,
};

fn with_module(text: &str, f: impl FnOnce(&mut Context, Op) + Send + 'static) {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut reg = DialectRegistry::new();
        reg.register(&TH);
        let mut ctx = Context::new(Arc::new(reg));
        let mut sm = SourceMap::new();
        let file = sm.add("t.mlir", text);
        let m = parse_module(&mut ctx, &sm, file).expect("parses");
        aic::verifier::verify(&ctx, m).expect("verifies");
        f(&mut ctx, m)
    })
}

fn ops_of(ctx: &Context, m: Op) -> Vec<Op> {
    let body = ctx.regions(m)[0];
    let block = ctx.entry_block(body).unwrap();
    ctx.block_ops(block).collect()
}

#[test]
fn accessors_follow_the_groups() {
    let text = r#"
%a = "th.v"() : () -> i32
%b = "th.v"() : () -> i32
%c = "th.v"() : () -> i32
%d = "th.v"() : () -> i32
%s = "th.add"(%a, %b) : (i32, i32) -> i32
%o:2 = "th.mix"(%a, %b, %c, %d) <{axis = 3 : i64, dims = array<i64: 4, 5>}> ({
  "th.t"() : () -> ()
}, {
  "th.t"() : () -> ()
}, {
  "th.t"() : () -> ()
}) : (i32, i32, i32, i32) -> (i32, i32)
%r = "th.seg"(%a, %b, %c, %d) <{operandSegmentSizes = array<i32: 1, 2, 1>, flag}> : (i32, i32, i32, i32) -> i32
"#;
    with_module(text, |ctx, m| {
        let ops = ops_of(ctx, m);
        let v = |i: usize| ctx.result(ops[i], 0);
        let add = Add::of(ctx, ops[4]).expect("an add");
        assert!(Mix::of(ctx, ops[4]).is_none());
        assert_eq!((add.lhs(ctx), add.rhs(ctx)), (v(0), v(1)));
        assert_eq!(add.sum(ctx), ctx.result(ops[4], 0));
        assert_eq!(Add::defining(ctx, add.sum(ctx)), Some(add));

        let mix = Mix::of(ctx, ops[5]).expect("a mix");
        assert_eq!(mix.first(ctx), v(0));
        assert_eq!(mix.middle(ctx), &[v(1), v(2)]);
        assert_eq!(mix.last(ctx), v(3));
        assert_eq!(mix.out(ctx).len(), 2);
        assert_eq!(mix.axis(ctx), Some(3));
        assert_eq!(mix.dims(ctx), Some(vec![4, 5]));
        assert_eq!(mix.note(ctx), None);
        assert_eq!(mix.body(ctx), ctx.regions(ops[5])[0]);
        assert_eq!(mix.cases(ctx), &ctx.regions(ops[5])[1..]);
        assert_eq!(MIX.operands[1].name, "midDle");
        assert!(MIX.regions[1].variadic && MIX.regions[1].single_block);

        let seg = Seg::of(ctx, ops[6]).expect("a seg");
        assert_eq!(seg.xs(ctx), &[v(0)]);
        assert_eq!(seg.ys(ctx), &[v(1), v(2)]);
        assert_eq!(seg.maybe(ctx), Some(v(3)));
        assert_eq!(seg.r(ctx), Some(ctx.result(ops[6], 0)));
        assert_eq!(seg.flag(ctx), Some(true));
    });
}

#[test]
fn builders_make_ops_that_print_as_parsed() {
    let text = r#"
%a = "th.v"() : () -> i32
%b = "th.v"() : () -> i32
"#;
    with_module(text, |ctx, m| {
        let ops = ops_of(ctx, m);
        let (a, b) = (ctx.result(ops[0], 0), ctx.result(ops[1], 0));
        let i32t = ctx.value_type(a);
        let u = ctx.uniquer().clone();
        let block = ctx.entry_block(ctx.regions(m)[0]).unwrap();
        let mut bld = Builder::at_end(ctx, block);
        let add = Add::build(&mut bld, a, b, i32t);
        let axis = u.attr(aic::AttrKind::Integer {
            value: 7,
            ty: u.int_type(64),
        });
        let sum = add.sum(bld.ctx);
        let mix = Mix::build(
            &mut bld,
            a,
            &[b],
            sum,
            axis,
            Some(u.i64_array(&[1])),
            None,
            &[i32t],
        );
        let seg = Seg::build(&mut bld, &[a, b], &[], Some(a), None, None, None);
        assert_eq!(seg.mode(bld.ctx).as_deref(), Some("fast"));
        assert_eq!(mix.axis(bld.ctx), Some(7));
        assert_eq!(seg.ys(bld.ctx), &[] as &[aic::Value]);
        assert_eq!(seg.maybe(bld.ctx), Some(a));
        assert_eq!(seg.r(bld.ctx), None);
        aic::verifier::verify(ctx, m).expect("built ops verify");
        let printed = print_op(ctx, m, PrintOptions::default());
        assert!(
            printed.contains(r#""th.add"(%0, %1) : (i32, i32) -> i32"#),
            "{printed}"
        );
        assert!(
            printed.contains("<{axis = 7 : i64, dims = array<i64: 1>}>"),
            "{printed}"
        );
        assert!(
            printed.contains("operandSegmentSizes = array<i32: 2, 0, 1>"),
            "{printed}"
        );
        // The printed module parses again to the same text.
        with_module(&printed.clone(), move |ctx2, m2| {
            assert_eq!(print_op(ctx2, m2, PrintOptions::default()), printed);
        });
    });
}

/// `th.add(x, x)` becomes `th.seg(xs = [x], ys = [x])`, built through the
/// rewriter so the driver sees it.
fn add_of_same(rw: &mut aic::rewrite::Rewriter<'_>, add: Add) -> bool {
    let (x, y) = (add.lhs(rw.ctx), add.rhs(rw.ctx));
    if x != y {
        return false;
    }
    let ty = rw.ctx.value_type(add.sum(rw.ctx));
    let mode = rw.ctx.string_attr("slow");
    let seg = Seg::build(
        &mut rw.before(add.0),
        &[x],
        &[y],
        None,
        None,
        Some(mode),
        Some(ty),
    );
    let r = seg.r(rw.ctx).expect("built with a result");
    rw.replace_op(add.0, &[r]);
    true
}

static ADD_OF_SAME: aic::rewrite::OpPattern<Add> =
    aic::rewrite::OpPattern::new("AddOfSame", add_of_same);

#[test]
fn typed_patterns_build_through_the_rewriter() {
    let text = r#"
%a = "th.v"() : () -> i32
%b = "th.v"() : () -> i32
%s = "th.add"(%a, %a) : (i32, i32) -> i32
%t = "th.add"(%a, %b) : (i32, i32) -> i32
"th.add"(%s, %t) : (i32, i32) -> i32
"#;
    with_module(text, |ctx, m| {
        let mut patterns = aic::rewrite::PatternSet::new();
        patterns.add(&ADD_OF_SAME);
        let config = aic::rewrite::GreedyConfig::default();
        aic::rewrite::apply_patterns_greedily(ctx, m, &patterns, config);
        aic::verifier::verify(ctx, m).expect("still valid");
        let printed = print_op(ctx, m, PrintOptions::default());
        assert_eq!(printed.matches("\"th.seg\"").count(), 1, "{printed}");
        assert_eq!(printed.matches("\"th.add\"").count(), 2, "{printed}");
        assert!(
            printed.contains("operandSegmentSizes = array<i32: 1, 1, 0>"),
            "{printed}"
        );
    });
}

aic::op_kinds! {
    /// The kinds the dispatch test tells apart.
    enum Kind { Add, Seg }
}

#[test]
fn op_kinds_dispatch_on_typed_handles() {
    let text = r#"
%a = "th.v"() : () -> i32
%s = "th.add"(%a, %a) : (i32, i32) -> i32
%r = "th.seg"(%a, %a) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> i32
"#;
    with_module(text, |ctx, m| {
        let ops = ops_of(ctx, m);
        assert_eq!(Kind::of(ctx, ops[0]), None);
        match Kind::of(ctx, ops[1]) {
            Some(Kind::Add(add)) => assert_eq!(add.lhs(ctx), ctx.result(ops[0], 0)),
            other => panic!("an add, not {other:?}"),
        }
        assert_eq!(Kind::of(ctx, ops[2]), Some(Kind::Seg(Seg(ops[2]))));
    });
}
