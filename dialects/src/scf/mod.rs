//! The `scf` dialect (structured control flow) with exactly MLIR 22's syntax:
//! `for` (with `iter_args`), `if` (with results), `while`/`condition`,
//! `parallel`/`reduce`/`reduce.return`, `execute_region`, `index_switch` and
//! `yield`. Control flow between the ops and their regions is declared through
//! [`RegionBranch`], which the verifier, SCCP and LICM share; the folders and
//! canonicalisation patterns are in [`canonicalize`].

pub mod build;
pub mod canonicalize;
mod interp;

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind, Ident};
use aic::dialect::{
    AttrConstraint, AttrSyntax, BranchPoint, CustomAsm, Dialect, OpSpec, RegionBranch, Traits,
    TypeConstraint, ac, tc,
};
use aic::ir::{Context, Op, OpState, Region, Value};
use aic::op_def::OpHandle;
use aic::op_printer::OpPrinter;
use aic::syntax::parser::{Argument, OpParser, UnresolvedOperand};
use aic::types::{Signedness, Type, TypeKind};
use aic::verifier::{op_error, quoted_type};
use aic::{Where, rewrite::constant_value};
use smallvec::{SmallVec, smallvec};
use std::ops::Range;

type R<T> = Result<T, Diagnostic>;

// ---------------------------------------------------------------- constraints

fn is_i1(t: &TypeKind) -> bool {
    matches!(
        t,
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// `I1`.
const I1: TypeConstraint = TypeConstraint {
    desc: "1-bit signless integer",
    check: |t, _| is_i1(t),
    build: Some(|u| u.int_type(1)),
};

/// `AnySignlessIntegerOrIndex`.
const INT_OR_INDEX: TypeConstraint = TypeConstraint {
    desc: "signless integer or index",
    check: |t, _| {
        matches!(
            t,
            TypeKind::Index
                | TypeKind::Integer {
                    signedness: Signedness::Signless,
                    ..
                }
        )
    },
    build: None,
};

/// `DenseI64ArrayAttr`.
const I64_ARRAY: AttrConstraint = AttrConstraint {
    desc: "i64 dense array attribute",
    check: |a, u| matches!(a, AttrKind::DenseArray { elem, .. } if *elem == u.int_type(64)),
    syntax: AttrSyntax::Full,
};

/// Ops a region of which the region-branch machinery treats as running again.
const LOOP: Traits = Traits::RECURSIVE_MEMORY_EFFECTS.with(Traits::LOOP_LIKE);
/// What `SingleBlockImplicitTerminator` implies: `SingleBlock`.
const IMPLICIT: Traits = Traits::SINGLE_BLOCK;

// ---------------------------------------------------------------- op specs

aic::op! {
    /// `scf.condition`: ends the `before` region of `scf.while`, choosing between
    /// running `after` and leaving the loop.
    pub Condition = CONDITION {
        operands: [condition: one(I1), args: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "loop continuation condition",
            traits: Traits::PURE.with(Traits::TERMINATOR),
            parents: &[WHILE.name],
            format: Some("`(` $condition `)` attr-dict ($args^ `:` type($args))?"),
            forwarded_operands: Some(|ctx, op| 1..ctx.operands(op).len()),
            ..OpSpec::new("scf.condition")
        },
    }
}

aic::op! {
    /// `scf.execute_region`: runs its region once, in place.
    pub ExecuteRegion = EXECUTE_REGION {
        results: [results: variadic(tc::ANY)],
        attributes: [no_inline: optional(ac::UNIT)],
        regions: [region: any],
        spec: OpSpec {
            summary: "operation that executes its region exactly once",
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            custom: Some(CustomAsm {
                parse: parse_execute_region,
                print: print_execute_region,
            }),
            verify: Some(verify_execute_region),
            region_branch: Some(&ONCE_BRANCH),
            canonicalize: canonicalize::EXECUTE_REGION,
            interpret: Some(interp::execute_region),
            ..OpSpec::new("scf.execute_region")
        },
    }
}

aic::op! {
    /// `scf.for`: a counted loop with loop-carried values.
    pub For = FOR {
        operands: [
            lower_bound = "lowerBound": one(INT_OR_INDEX),
            upper_bound = "upperBound": one(INT_OR_INDEX),
            step: one(INT_OR_INDEX),
            init_args = "initArgs": variadic(tc::ANY),
        ],
        results: [results: variadic(tc::ANY)],
        attributes: [unsigned_cmp = "unsignedCmp": optional(ac::UNIT)],
        regions: [region: sized],
        spec: OpSpec {
            summary: "for operation",
            traits: LOOP.with(IMPLICIT),
            custom: Some(CustomAsm {
                parse: parse_for,
                print: print_for,
            }),
            verify: Some(verify_for),
            verify_regions: Some(verify_for_regions),
            implicit_terminator: Some("scf.yield"),
            region_branch: Some(&FOR_BRANCH),
            canonicalize: canonicalize::FOR,
            interpret: Some(interp::for_),
            ..OpSpec::new("scf.for")
        },
    }
}

aic::op! {
    /// `scf.if`: runs one of two regions.
    pub If = IF {
        operands: [condition: one(I1)],
        results: [results: variadic(tc::ANY)],
        regions: [then_region = "thenRegion": sized, else_region = "elseRegion": any],
        spec: OpSpec {
            summary: "if-then-else operation",
            traits: Traits::RECURSIVE_MEMORY_EFFECTS
                .with(Traits::RECURSIVELY_SPECULATABLE)
                .with(Traits::NO_REGION_ARGUMENTS)
                .with(IMPLICIT),
            custom: Some(CustomAsm {
                parse: parse_if,
                print: print_if,
            }),
            verify: Some(verify_if),
            implicit_terminator: Some("scf.yield"),
            region_branch: Some(&IF_BRANCH),
            fold: Some(canonicalize::fold_if),
            canonicalize: canonicalize::IF,
            interpret: Some(interp::if_),
            ..OpSpec::new("scf.if")
        },
    }
}

aic::op! {
    /// `scf.index_switch`: runs the region of the case equal to its argument, or the
    /// default region.
    pub IndexSwitch = INDEX_SWITCH {
        operands: [arg: one(tc::INDEX)],
        results: [results: variadic(tc::ANY)],
        attributes: [cases: required(I64_ARRAY) as Vec<i64>],
        regions: [
            default_region = "defaultRegion": sized,
            case_regions = "caseRegions": variadic_sized,
        ],
        spec: OpSpec {
            summary: "switch-case operation on an index argument",
            traits: Traits::RECURSIVE_MEMORY_EFFECTS.with(IMPLICIT),
            custom: Some(CustomAsm {
                parse: parse_index_switch,
                print: print_index_switch,
            }),
            verify: Some(verify_index_switch),
            implicit_terminator: Some("scf.yield"),
            region_branch: Some(&SWITCH_BRANCH),
            canonicalize: canonicalize::INDEX_SWITCH,
            interpret: Some(interp::index_switch),
            ..OpSpec::new("scf.index_switch")
        },
    }
}

aic::op! {
    /// `scf.parallel`: a multi-dimensional loop whose iterations may run in any
    /// order, combining values through `scf.reduce`.
    pub Parallel = PARALLEL {
        operands: [
            lower_bound = "lowerBound": variadic(tc::INDEX),
            upper_bound = "upperBound": variadic(tc::INDEX),
            step: variadic(tc::INDEX),
            init_vals = "initVals": variadic(tc::ANY),
        ],
        results: [results: variadic(tc::ANY)],
        regions: [region: sized],
        spec: OpSpec {
            summary: "parallel for operation",
            traits: LOOP.with(IMPLICIT),
            custom: Some(CustomAsm {
                parse: parse_parallel,
                print: print_parallel,
            }),
            verify: Some(verify_parallel),
            implicit_terminator: Some("scf.reduce"),
            region_branch: Some(&PARALLEL_BRANCH),
            canonicalize: canonicalize::PARALLEL,
            interpret: Some(interp::parallel),
            ..OpSpec::new("scf.parallel")
        },
    }
}

aic::op! {
    /// `scf.reduce`: ends an `scf.parallel` body, one reduction region per value.
    pub Reduce = REDUCE {
        operands: [operands: variadic(tc::ANY)],
        regions: [reductions: variadic_sized],
        spec: OpSpec {
            summary: "reduce operation for scf.parallel",
            traits: Traits::TERMINATOR.with(Traits::RECURSIVE_MEMORY_EFFECTS),
            parents: &[PARALLEL.name],
            format: Some("(`(` $operands^ `:` type($operands) `)`)? $reductions attr-dict"),
            verify_regions: Some(verify_reduce),
            forwarded_operands: Some(|_, _| 0..0),
            ..OpSpec::new("scf.reduce")
        },
    }
}

aic::op! {
    /// `scf.reduce.return`: ends a reduction region with the combined value.
    pub ReduceReturn = REDUCE_RETURN {
        operands: [result: one(tc::ANY)],
        spec: OpSpec {
            summary: "terminator for reduce operation",
            traits: Traits::PURE.with(Traits::TERMINATOR),
            parents: &[REDUCE.name],
            format: Some("$result attr-dict `:` type($result)"),
            verify: Some(verify_reduce_return),
            ..OpSpec::new("scf.reduce.return")
        },
    }
}

aic::op! {
    /// `scf.while`: a loop whose `before` region computes the condition and the
    /// values passed on, and whose `after` region is the body.
    pub While = WHILE {
        operands: [inits: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        regions: [before: sized, after: sized],
        spec: OpSpec {
            summary: "a generic 'while' loop",
            traits: LOOP,
            custom: Some(CustomAsm {
                parse: parse_while,
                print: print_while,
            }),
            verify: Some(verify_while),
            region_branch: Some(&WHILE_BRANCH),
            canonicalize: canonicalize::WHILE,
            interpret: Some(interp::while_),
            ..OpSpec::new("scf.while")
        },
    }
}

aic::op! {
    /// `scf.yield`: ends a region of an scf op, passing values back to it.
    pub Yield = YIELD {
        operands: [results: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "loop yield and termination operation",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[
                EXECUTE_REGION.name,
                FOR.name,
                IF.name,
                INDEX_SWITCH.name,
                WHILE.name,
            ],
            format: Some("attr-dict ($results^ `:` type($results))?"),
            ..OpSpec::new("scf.yield")
        },
    }
}

/// The `scf` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "scf",
    description: "structured control flow: loops, conditionals, switches",
    ops: &[
        CONDITION,
        EXECUTE_REGION,
        FOR,
        IF,
        INDEX_SWITCH,
        PARALLEL,
        REDUCE,
        REDUCE_RETURN,
        WHILE,
        YIELD,
    ],
    materialize_constant: None,
};

// ---------------------------------------------------------------- control flow

fn no_range<T>(_: &Context, _: Op, _: T) -> Range<usize> {
    0..0
}

fn all_args(ctx: &Context, op: Op, i: usize) -> Range<usize> {
    let n = ctx
        .regions(op)
        .get(i)
        .and_then(|r| ctx.entry_block(*r))
        .map_or(0, |b| ctx.block_args(b).len());
    0..n
}

fn all_operands(ctx: &Context, op: Op, _: BranchPoint) -> Range<usize> {
    0..ctx.operands(op).len()
}

/// The boolean a constant stands for.
pub fn const_bool(ctx: &Context, a: Option<Attr>) -> Option<bool> {
    match ctx.attr_kind(a?) {
        AttrKind::Integer { value, .. } => Some(*value != 0),
        _ => None,
    }
}

/// Regions entered once from the parent and left back to it.
static ONCE_BRANCH: RegionBranch = RegionBranch {
    successors: |_, _, from, _| match from {
        BranchPoint::Parent => smallvec![BranchPoint::Region(0)],
        BranchPoint::Region(_) => smallvec![BranchPoint::Parent],
    },
    region_inputs: no_range,
    entry_operands: no_range,
    forwards_results: true,
};

static FOR_BRANCH: RegionBranch = RegionBranch {
    successors: |_, _, _, _| smallvec![BranchPoint::Region(0), BranchPoint::Parent],
    region_inputs: |ctx, op, i| {
        let n = all_args(ctx, op, i).end;
        n.min(1)..n
    },
    entry_operands: |ctx, op, _| {
        let n = ctx.operands(op).len();
        n - For(op).init_args(ctx).len()..n
    },
    forwards_results: true,
};

static IF_BRANCH: RegionBranch = RegionBranch {
    successors: |ctx, op, from, consts| {
        if from != BranchPoint::Parent {
            return smallvec![BranchPoint::Parent];
        }
        let has_else = ctx
            .regions(op)
            .get(1)
            .is_some_and(|r| ctx.entry_block(*r).is_some());
        let cond = const_bool(ctx, consts.first().copied().flatten());
        let mut out = SmallVec::new();
        if cond != Some(false) {
            out.push(BranchPoint::Region(0));
        }
        if cond != Some(true) {
            out.push(if has_else {
                BranchPoint::Region(1)
            } else {
                BranchPoint::Parent
            });
        }
        out
    },
    region_inputs: no_range,
    entry_operands: no_range,
    forwards_results: true,
};

static SWITCH_BRANCH: RegionBranch = RegionBranch {
    successors: |ctx, op, from, consts| {
        if from != BranchPoint::Parent {
            return smallvec![BranchPoint::Parent];
        }
        let n = ctx.regions(op).len();
        let value = consts
            .first()
            .copied()
            .flatten()
            .and_then(|a| match ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => Some(*value as i64),
                _ => None,
            });
        match value {
            None => (0..n).map(BranchPoint::Region).collect(),
            Some(v) => {
                let i = switch_cases(ctx, op)
                    .iter()
                    .position(|c| *c == v)
                    .map_or(0, |i| i + 1);
                smallvec![BranchPoint::Region(i)]
            }
        }
    },
    region_inputs: no_range,
    entry_operands: no_range,
    forwards_results: true,
};

static PARALLEL_BRANCH: RegionBranch = RegionBranch {
    successors: |_, _, _, _| smallvec![BranchPoint::Region(0), BranchPoint::Parent],
    region_inputs: no_range,
    entry_operands: no_range,
    forwards_results: false,
};

static WHILE_BRANCH: RegionBranch = RegionBranch {
    successors: |ctx, _, from, consts| match from {
        BranchPoint::Parent | BranchPoint::Region(1) => smallvec![BranchPoint::Region(0)],
        BranchPoint::Region(_) => match const_bool(ctx, consts.first().copied().flatten()) {
            Some(true) => smallvec![BranchPoint::Region(1)],
            Some(false) => smallvec![BranchPoint::Parent],
            None => smallvec![BranchPoint::Parent, BranchPoint::Region(1)],
        },
    },
    region_inputs: all_args,
    entry_operands: all_operands,
    forwards_results: true,
};

/// The case values of an `scf.index_switch`.
pub fn switch_cases(ctx: &Context, op: Op) -> Vec<i64> {
    IndexSwitch(op).cases(ctx).unwrap_or_default()
}

/// The integer a value is a constant of.
pub fn const_int(ctx: &Context, v: Value) -> Option<i128> {
    let a = constant_value(ctx, ctx.defining_op(v)?)?;
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

// ---------------------------------------------------------------- shared syntax

/// `-> type` or `-> (types)` if an arrow follows.
fn parse_optional_arrow_types(p: &mut OpParser<'_, '_>) -> R<Vec<Type>> {
    if !p.eat_token("->") {
        return Ok(Vec::new());
    }
    parse_type_list_maybe_parens(p)
}

fn parse_type_list_maybe_parens(p: &mut OpParser<'_, '_>) -> R<Vec<Type>> {
    if p.eat_token("(") {
        if p.eat_token(")") {
            return Ok(Vec::new());
        }
        let ts = p.parse_type_list()?;
        p.expect_token(")")?;
        Ok(ts)
    } else {
        Ok(vec![p.parse_type()?])
    }
}

/// ` -> types` when there are any (MLIR's `printOptionalArrowTypeList`).
fn print_optional_arrow_types(pr: &mut OpPrinter<'_>, ts: &[Type]) {
    if !ts.is_empty() {
        pr.out.push_str(" -> ");
        pr.result_types(ts);
    }
}

/// Resolve `us` with `tys`, one to one.
fn resolve_all<'s>(
    p: &mut OpParser<'s, '_>,
    us: &[UnresolvedOperand<'s>],
    tys: &[Type],
) -> R<Vec<Value>> {
    us.iter()
        .zip(tys)
        .map(|(u, t)| p.resolve_operand(u, *t))
        .collect()
}

/// The optional trailing attribute dictionary of a custom op, split into
/// inherent (`props`) and discardable attributes.
fn finish_attrs(
    p: &mut OpParser<'_, '_>,
    spec: &OpSpec,
    keyword: bool,
    mut props: Vec<(Ident, Attr)>,
    st: &mut OpState,
) -> R<()> {
    if !keyword || p.eat_keyword("attributes") {
        let dict = p.parse_optional_attr_dict()?;
        aic::asm::split_attr_dict(&p.uniquer(), spec, dict, &mut props, st);
    }
    if !props.is_empty() {
        st.props = Some(p.uniquer().dict_attr(props));
    }
    Ok(())
}

/// A region whose implicit terminator is left out when it has no operands and
/// no attributes (what MLIR's generated printers do).
fn print_region_eliding(pr: &mut OpPrinter<'_>, r: Region) {
    let ctx = pr.ctx();
    let show = ctx
        .entry_block(r)
        .and_then(|b| ctx.last_op(b))
        .is_none_or(|t| {
            !ctx.operands(t).is_empty() || !ctx.op(t).attrs.is_empty() || ctx.op(t).props.is_some()
        });
    pr.region(r, false, show);
}

fn unit_prop(p: &OpParser<'_, '_>, name: &str) -> (Ident, Attr) {
    (p.uniquer().ident(name), p.unit_attr())
}

fn segment_sizes(p: &OpParser<'_, '_>, sizes: &[usize]) -> (Ident, Attr) {
    let u = p.uniquer();
    let values = sizes.iter().map(|s| *s as u64).collect();
    (
        u.ident("operandSegmentSizes"),
        u.attr(AttrKind::DenseArray {
            elem: u.int_type(32),
            values,
        }),
    )
}

// ---------------------------------------------------------------- scf.for

fn parse_for<'s>(p: &mut OpParser<'s, '_>, st: &mut OpState) -> R<()> {
    let mut props = Vec::new();
    if p.eat_keyword("unsigned") {
        props.push(unit_prop(p, "unsignedCmp"));
    }
    let iv = p.parse_operand()?;
    p.expect_token("=")?;
    let lb = p.parse_operand()?;
    p.expect_keyword("to")?;
    let ub = p.parse_operand()?;
    p.expect_keyword("step")?;
    let step = p.parse_operand()?;
    let (mut inner, mut outer, mut types) = (Vec::new(), Vec::new(), Vec::new());
    if p.eat_keyword("iter_args") {
        (inner, outer) = p.parse_assignment_list()?;
        p.expect_token("->")?;
        types = parse_type_list_maybe_parens(p)?;
    }
    if inner.len() != types.len() {
        return Err(Diagnostic::error(
            "custom op 'scf.for' mismatch in number of loop-carried values and defined values",
        )
        .at_loc(st.loc));
    }
    let ty = if p.eat_token(":") {
        p.parse_type()?
    } else {
        p.uniquer().ty(TypeKind::Index)
    };
    for u in [&lb, &ub, &step] {
        let v = p.resolve_operand(u, ty)?;
        st.operands.push(v);
    }
    st.operands.extend(resolve_all(p, &outer, &types)?);
    st.result_types.extend(types.iter().copied());
    let mut args = vec![Argument::named(&iv, ty)];
    args.extend(
        inner
            .iter()
            .zip(&types)
            .map(|(u, t)| Argument::named(u, *t)),
    );
    let body = p.parse_region(&args)?;
    st.regions.push(body);
    finish_attrs(p, &FOR, false, props, st)
}

fn print_for(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    let for_ = For(op);
    let body = for_.region(ctx);
    let args: Vec<Value> = ctx
        .entry_block(body)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default();
    if for_.unsigned_cmp(ctx).is_some() {
        pr.out.push_str(" unsigned");
    }
    pr.out.push(' ');
    if let Some(iv) = args.first() {
        pr.value(*iv);
    }
    pr.out.push_str(" = ");
    pr.value(for_.lower_bound(ctx));
    pr.out.push_str(" to ");
    pr.value(for_.upper_bound(ctx));
    pr.out.push_str(" step ");
    pr.value(for_.step(ctx));
    let inits = for_.init_args(ctx);
    if !inits.is_empty() {
        pr.out.push_str(" iter_args(");
        pr.assignments(args.get(1..).unwrap_or(&[]), inits);
        pr.out.push_str(") -> (");
        let tys: Vec<Type> = inits.iter().map(|v| ctx.value_type(*v)).collect();
        pr.types(&tys);
        pr.out.push(')');
    }
    pr.out.push(' ');
    let ty = ctx.value_type(for_.lower_bound(ctx));
    if !matches!(ctx.type_kind(ty), TypeKind::Index) {
        pr.out.push_str(" : ");
        pr.ty(ty);
        pr.out.push(' ');
    }
    pr.region(body, false, !inits.is_empty());
    pr.attr_dict(op, &["unsignedCmp"], false);
}

fn verify_for(ctx: &Context, op: Op) -> R<()> {
    let for_ = For(op);
    let (a, b, c) = (
        ctx.value_type(for_.lower_bound(ctx)),
        ctx.value_type(for_.upper_bound(ctx)),
        ctx.value_type(for_.step(ctx)),
    );
    if a != b || b != c {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that all of {lowerBound, upperBound, step} have same type",
        ));
    }
    if for_.init_args(ctx).len() != ctx.num_results(op) {
        return Err(op_error(
            ctx,
            op,
            "mismatch in number of loop-carried values and defined values",
        ));
    }
    Ok(())
}

/// MLIR's `LoopLikeOpInterface` checks, then `ForOp::verifyRegions`.
fn verify_for_regions(ctx: &Context, op: Op) -> R<()> {
    let for_ = For(op);
    let Some(body) = ctx.entry_block(for_.region(ctx)) else {
        return Ok(());
    };
    let args = ctx.block_args(body);
    let inits = for_.init_args(ctx);
    let iter_args = args.get(1..).unwrap_or_default();
    let results: Vec<Value> = ctx.results(op).collect();
    let yielded: Vec<Value> = ctx
        .last_op(body)
        .and_then(|t| Yield::of(ctx, t))
        .map(|y| y.results(ctx).to_vec())
        .unwrap_or_default();
    let e = |m: String| Err(op_error(ctx, op, m));
    if inits.len() != iter_args.len() {
        return e(format!(
            "different number of inits and region iter_args: {} != {}",
            inits.len(),
            iter_args.len()
        ));
    }
    if !yielded.is_empty() && iter_args.len() != yielded.len() {
        return e(format!(
            "different number of region iter_args and yielded values: {} != {}",
            iter_args.len(),
            yielded.len()
        ));
    }
    if results.len() != iter_args.len() {
        return e(format!(
            "different number of loop results and region iter_args: {} != {}",
            results.len(),
            iter_args.len()
        ));
    }
    let t = |v: &Value| ctx.value_type(*v);
    let pairs: [(&[Value], &[Value], &str, &str); 3] = [
        (inits, iter_args, "init", "region iter_arg"),
        (iter_args, &yielded, "region iter_arg", "yielded value"),
        (iter_args, &results, "region iter_arg", "loop result"),
    ];
    for (xs, ys, a, b) in pairs {
        for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
            if t(x) != t(y) {
                return e(format!(
                    "{i}-th {a} and {i}-th {b} have different type: {} != {}",
                    quoted_type(ctx, t(x)),
                    quoted_type(ctx, t(y))
                ));
            }
        }
    }
    if args
        .first()
        .is_none_or(|iv| t(iv) != t(&for_.lower_bound(ctx)))
    {
        return e("expected induction variable to be same type as bounds and step".into());
    }
    Ok(())
}

// ---------------------------------------------------------------- scf.if

fn parse_if(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    let cond = p.parse_operand()?;
    let i1 = p.uniquer().int_type(1);
    let c = p.resolve_operand(&cond, i1)?;
    st.operands.push(c);
    st.result_types.extend(parse_optional_arrow_types(p)?);
    let then = p.parse_region(&[])?;
    st.regions.push(then);
    if p.eat_keyword("else") {
        let r = p.parse_region(&[])?;
        st.regions.push(r);
    } else {
        st.num_regions = 1;
    }
    finish_attrs(p, &IF, false, Vec::new(), st)
}

fn print_if(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    pr.out.push(' ');
    let if_ = If(op);
    pr.value(if_.condition(ctx));
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if !results.is_empty() {
        pr.out.push_str(" -> (");
        pr.types(&results);
        pr.out.push(')');
    }
    let terms = !results.is_empty();
    pr.out.push(' ');
    pr.region(if_.then_region(ctx), false, terms);
    let e = if_.else_region(ctx);
    if ctx.entry_block(e).is_some() {
        pr.out.push_str(" else ");
        pr.region(e, false, terms);
    }
    pr.attr_dict(op, &[], false);
}

fn verify_if(ctx: &Context, op: Op) -> R<()> {
    let blocks = ctx.region_blocks(If(op).else_region(ctx)).count();
    if ctx.num_results(op) != 0 && blocks == 0 {
        return Err(op_error(
            ctx,
            op,
            "must have an else block if defining values",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- scf.while

fn parse_while<'s>(p: &mut OpParser<'s, '_>, st: &mut OpState) -> R<()> {
    let (inner, outer) = if p.peek_byte() == Some(b'(') {
        p.parse_assignment_list()?
    } else {
        (Vec::new(), Vec::new())
    };
    p.expect_token(":")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let Some((ins, outs)) = p.function_type_parts(fty) else {
        return Err(p.error_at(at, "invalid kind of type specified: expected function type"));
    };
    if ins.len() != outer.len() {
        return Err(p.custom_error(
            at,
            format!(
                "expected as many input types as operands (expected {} got {})",
                outer.len(),
                ins.len()
            ),
        ));
    }
    st.operands.extend(resolve_all(p, &outer, &ins)?);
    st.result_types.extend(outs);
    let args: Vec<Argument> = inner
        .iter()
        .zip(&ins)
        .map(|(u, t)| Argument::named(u, *t))
        .collect();
    let before = p.parse_region(&args)?;
    st.regions.push(before);
    p.expect_keyword("do")?;
    let after = p.parse_region(&[])?;
    st.regions.push(after);
    finish_attrs(p, &WHILE, true, Vec::new(), st)
}

fn print_while(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    let while_ = While(op);
    let (before, after) = (while_.before(ctx), while_.after(ctx));
    let inits = while_.inits(ctx);
    let before_args: Vec<Value> = ctx
        .entry_block(before)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default();
    if !inits.is_empty() {
        pr.out.push_str(" (");
        pr.assignments(&before_args, inits);
        pr.out.push(')');
    }
    pr.out.push_str(" : ");
    let ins: Vec<Type> = inits.iter().map(|v| ctx.value_type(*v)).collect();
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    pr.functional_type(&ins, &outs);
    pr.out.push(' ');
    pr.region(before, false, true);
    pr.out.push_str(" do ");
    pr.region(after, true, true);
    pr.attr_dict(op, &[], true);
}

/// The terminator of region `i`, which must be `name` (MLIR's
/// `verifyAndGetTerminator`).
fn expect_terminator<T: OpHandle>(ctx: &Context, op: Op, region: Region, msg: &str) -> R<T> {
    let last = ctx.entry_block(region).and_then(|b| ctx.last_op(b));
    match last {
        Some(t) if T::is(ctx, t) => Ok(T::wrap(t)),
        Some(t) => {
            Err(op_error(ctx, op, msg).with_note("terminator here", Where::Loc(ctx.op(t).loc)))
        }
        None => Err(op_error(ctx, op, msg)),
    }
}

fn verify_while(ctx: &Context, op: Op) -> R<()> {
    let while_ = While(op);
    expect_terminator::<Condition>(
        ctx,
        op,
        while_.before(ctx),
        "expects the 'before' region to terminate with 'scf.condition'",
    )?;
    expect_terminator::<Yield>(
        ctx,
        op,
        while_.after(ctx),
        "expects the 'after' region to terminate with 'scf.yield'",
    )?;
    Ok(())
}

// ---------------------------------------------------------------- scf.parallel

fn parse_parallel<'s>(p: &mut OpParser<'s, '_>, st: &mut OpState) -> R<()> {
    p.expect_token("(")?;
    let ivs = p.parse_operand_list()?;
    p.expect_token(")")?;
    let index = p.uniquer().ty(TypeKind::Index);
    let mut lists = Vec::new();
    for (i, kw) in ["=", "to", "step"].into_iter().enumerate() {
        let ok = if i == 0 {
            p.eat_token(kw)
        } else {
            p.eat_keyword(kw)
        };
        if !ok {
            return Err(p.error_here(format!("expected '{kw}'")));
        }
        let at = p.pos();
        p.expect_token("(")?;
        let list = p.parse_operand_list()?;
        p.expect_token(")")?;
        if list.len() != ivs.len() {
            return Err(p.error_at(at, format!("expected {} operands", ivs.len())));
        }
        let vs = resolve_all(p, &list, &vec![index; list.len()])?;
        st.operands.extend(vs);
        lists.push(list.len());
    }
    let mut inits = Vec::new();
    if p.eat_keyword("init") {
        p.expect_token("(")?;
        inits = p.parse_operand_list()?;
        p.expect_token(")")?;
    }
    let types = parse_optional_arrow_types(p)?;
    let args: Vec<Argument> = ivs.iter().map(|u| Argument::named(u, index)).collect();
    let body = p.parse_region(&args)?;
    st.regions.push(body);
    lists.push(inits.len());
    let props = vec![segment_sizes(p, &lists)];
    finish_attrs(p, &PARALLEL, false, props, st)?;
    if inits.len() != types.len() {
        let at = p.pos();
        return Err(p.error_at(
            at,
            format!(
                "{} operands present, but expected {}",
                inits.len(),
                types.len()
            ),
        ));
    }
    st.operands.extend(resolve_all(p, &inits, &types)?);
    st.result_types.extend(types);
    Ok(())
}

fn print_parallel(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    let par = Parallel(op);
    let body = par.region(ctx);
    let ivs: Vec<Value> = ctx
        .entry_block(body)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default();
    pr.out.push_str(" (");
    pr.values(&ivs);
    let (lbs, ubs, steps) = (
        par.lower_bound(ctx).to_vec(),
        par.upper_bound(ctx).to_vec(),
        par.step(ctx).to_vec(),
    );
    for (head, vs) in [(") = (", lbs), (") to (", ubs), (") step (", steps)] {
        pr.out.push_str(head);
        pr.values(&vs);
    }
    pr.out.push(')');
    let inits = par.init_vals(ctx).to_vec();
    let inits = &inits[..];
    if !inits.is_empty() {
        pr.out.push_str(" init (");
        pr.values(inits);
        pr.out.push(')');
    }
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    print_optional_arrow_types(pr, &outs);
    pr.out.push(' ');
    pr.region(body, false, true);
    pr.attr_dict(op, &["operandSegmentSizes"], false);
}

fn verify_parallel(ctx: &Context, op: Op) -> R<()> {
    let par = Parallel(op);
    let steps = par.step(ctx);
    let e = |m: String| Err(op_error(ctx, op, m));
    if steps.is_empty() {
        return e("needs at least one tuple element for lowerBound, upperBound and step".into());
    }
    if steps
        .iter()
        .any(|s| const_int(ctx, *s).is_some_and(|c| c <= 0))
    {
        return e("constant step operand must be positive".into());
    }
    let Some(body) = ctx.entry_block(par.region(ctx)) else {
        return Ok(());
    };
    let args = ctx.block_args(body);
    if args.len() != steps.len() {
        return e(format!(
            "expects the same number of induction variables: {} as bound and step values: {}",
            args.len(),
            steps.len()
        ));
    }
    if args
        .iter()
        .any(|a| !matches!(ctx.type_kind(ctx.value_type(*a)), TypeKind::Index))
    {
        return e("expects arguments for the induction variable to be of index type".into());
    }
    let reduce = expect_terminator::<Reduce>(
        ctx,
        op,
        par.region(ctx),
        "expects body to terminate with 'scf.reduce'",
    )?;
    let (results, reductions, inits) = (
        ctx.num_results(op),
        reduce.reductions(ctx).len(),
        par.init_vals(ctx).len(),
    );
    if results != reductions {
        return e(format!(
            "expects number of results: {results} to be the same as number of reductions: {reductions}"
        ));
    }
    if results != inits {
        return e(format!(
            "expects number of results: {results} to be the same as number of initial values: {inits}"
        ));
    }
    for (i, (r, o)) in ctx.results(op).zip(reduce.operands(ctx)).enumerate() {
        let (rt, ot) = (ctx.value_type(r), ctx.value_type(*o));
        if rt != ot {
            return Err(op_error(
                ctx,
                reduce.0,
                format_args!(
                    "expects type of {i}-th reduction operand: {} to be the same as the {i}-th result type: {}",
                    quoted_type(ctx, ot),
                    quoted_type(ctx, rt)
                ),
            ));
        }
    }
    Ok(())
}

fn verify_reduce(ctx: &Context, op: Op) -> R<()> {
    let reduce = Reduce(op);
    for (i, (&r, &v)) in reduce
        .reductions(ctx)
        .iter()
        .zip(reduce.operands(ctx))
        .enumerate()
    {
        let ty = ctx.value_type(v);
        let Some(b) = ctx.entry_block(r) else {
            continue;
        };
        let Some(last) = ctx.last_op(b) else {
            return Err(op_error(
                ctx,
                op,
                format_args!("{i}-th reduction has an empty body"),
            ));
        };
        let args = ctx.block_args(b);
        if args.len() != 2 || args.iter().any(|a| ctx.value_type(*a) != ty) {
            return Err(op_error(
                ctx,
                op,
                format_args!(
                    "expected two block arguments with type {} in the {i}-th reduction region",
                    quoted_type(ctx, ty)
                ),
            ));
        }
        if !ReduceReturn::is(ctx, last) {
            return Err(op_error(
                ctx,
                op,
                "reduction bodies must be terminated with an 'scf.reduce.return' op",
            ));
        }
    }
    Ok(())
}

fn verify_reduce_return(ctx: &Context, op: Op) -> R<()> {
    let Some(b) = ctx.parent_block(op) else {
        return Ok(());
    };
    let Some(&a) = ctx.block_args(b).first() else {
        return Ok(());
    };
    let (want, got) = (
        ctx.value_type(a),
        ctx.value_type(ReduceReturn(op).result(ctx)),
    );
    if want != got {
        return Err(op_error(
            ctx,
            op,
            format_args!(
                "must have type {} (the type of the reduction inputs)",
                quoted_type(ctx, want)
            ),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- scf.execute_region

fn parse_execute_region(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    st.result_types.extend(parse_optional_arrow_types(p)?);
    let mut props = Vec::new();
    if p.eat_keyword("no_inline") {
        props.push(unit_prop(p, "no_inline"));
    }
    let r = p.parse_region(&[])?;
    st.regions.push(r);
    finish_attrs(p, &EXECUTE_REGION, false, props, st)
}

fn print_execute_region(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    print_optional_arrow_types(pr, &outs);
    let exec = ExecuteRegion(op);
    if exec.no_inline(ctx).is_some() {
        pr.out.push_str(" no_inline");
    }
    pr.out.push(' ');
    pr.region(exec.region(ctx), false, true);
    pr.attr_dict(op, &["no_inline"], false);
}

fn verify_execute_region(ctx: &Context, op: Op) -> R<()> {
    let Some(b) = ctx.entry_block(ExecuteRegion(op).region(ctx)) else {
        return Err(op_error(ctx, op, "region needs to have at least one block"));
    };
    if !ctx.block_args(b).is_empty() {
        return Err(op_error(ctx, op, "region cannot have any arguments"));
    }
    Ok(())
}

// ---------------------------------------------------------------- scf.index_switch

fn parse_index_switch(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    let arg = p.parse_operand()?;
    let index = p.uniquer().ty(TypeKind::Index);
    let v = p.resolve_operand(&arg, index)?;
    st.operands.push(v);
    let dict = p.parse_optional_attr_dict()?;
    if p.eat_token("->") {
        st.result_types.extend(p.parse_type_list()?);
    }
    let mut cases = Vec::new();
    let mut regions = Vec::new();
    while p.eat_keyword("case") {
        cases.push(p.parse_integer()?);
        regions.push(p.parse_region(&[])?);
    }
    if !p.eat_keyword("default") {
        return Err(p.error_here("expected 'default'"));
    }
    let default = p.parse_region(&[])?;
    st.regions.push(default);
    st.regions.extend(regions);
    let u = p.uniquer();
    let cases_attr = u.attr(AttrKind::DenseArray {
        elem: u.int_type(64),
        values: cases.iter().map(|c| *c as u64).collect(),
    });
    let mut props = vec![(u.ident("cases"), cases_attr)];
    aic::asm::split_attr_dict(&u, &INDEX_SWITCH, dict, &mut props, st);
    st.props = Some(u.dict_attr(props));
    Ok(())
}

fn print_index_switch(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    pr.out.push(' ');
    let switch = IndexSwitch(op);
    pr.value(switch.arg(ctx));
    pr.attr_dict(op, &["cases"], false);
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if !outs.is_empty() {
        pr.out.push_str(" -> ");
        pr.types(&outs);
    }
    pr.out.push(' ');
    let cases = switch.case_regions(ctx).to_vec();
    for (c, r) in switch_cases(ctx, op).into_iter().zip(&cases) {
        pr.newline();
        pr.out.push_str(&format!("case {c} "));
        print_region_eliding(pr, *r);
    }
    pr.newline();
    pr.out.push_str("default ");
    print_region_eliding(pr, switch.default_region(ctx));
}

fn verify_index_switch(ctx: &Context, op: Op) -> R<()> {
    let cases = switch_cases(ctx, op);
    let regions = ctx.regions(op);
    let e = |m: String| Err(op_error(ctx, op, m));
    if cases.len() != regions.len() - 1 {
        return e(format!(
            "has {} case regions but {} case values",
            regions.len() - 1,
            cases.len()
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for c in &cases {
        if !seen.insert(*c) {
            return e(format!("has duplicate case value: {c}"));
        }
    }
    let results: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    for (i, &r) in regions.iter().enumerate() {
        let name = if i == 0 {
            "default region".to_string()
        } else {
            format!("case region #{}", i - 1)
        };
        let Some(last) = ctx.entry_block(r).and_then(|b| ctx.last_op(b)) else {
            continue;
        };
        let Some(last) = Yield::of(ctx, last) else {
            return e(format!(
                "expected region to end with scf.yield, but got {}",
                ctx.op_name(last)
            ));
        };
        let yielded = last.results(ctx);
        let at = Where::Loc(ctx.op(last.0).loc);
        if yielded.len() != results.len() {
            return Err(op_error(
                ctx,
                op,
                format_args!(
                    "expected each region to return {} values, but {name} returns {}",
                    results.len(),
                    yielded.len()
                ),
            )
            .with_note("see yield operation here", at));
        }
        for (j, (t, v)) in results.iter().zip(yielded).enumerate() {
            let vt = ctx.value_type(*v);
            if *t != vt {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!(
                        "expected result #{j} of each region to be {}",
                        quoted_type(ctx, *t)
                    ),
                )
                .with_note(format!("{name} returns {} here", quoted_type(ctx, vt)), at));
            }
        }
    }
    Ok(())
}
