//! Folders and canonicalisation patterns of the scf ops, as MLIR 22 has them:
//! static conditions and switch values pick their region, loops that run zero or
//! one time disappear, unused and forwarded loop-carried values and `scf.if`
//! results are dropped, trivial `scf.if`s become `arith.select`s.

use super::{
    Condition, ExecuteRegion, For, If, IndexSwitch, Parallel, Reduce, ReduceReturn, While, Yield,
    const_bool, const_int, switch_cases,
};
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Builder, Context, Op, OpState, Region, Value};
use aic::op_def::OpHandle;
use aic::rewrite::{FoldResult, OpPattern, RewritePattern, Rewriter};
use smallvec::SmallVec;

type Folded = Option<SmallVec<[FoldResult; 1]>>;

/// Patterns of `scf.execute_region`.
pub const EXECUTE_REGION: &[&dyn RewritePattern] = &[&OpPattern::<ExecuteRegion>::new(
    "SingleBlockExecuteInliner",
    single_block_execute_inliner,
)];

/// Patterns of `scf.for`.
pub const FOR: &[&dyn RewritePattern] = &[
    &OpPattern::<For>::new("ForOpIterArgsFolder", for_iter_args_folder),
    &OpPattern::<For>::new("SimplifyTrivialLoops", simplify_trivial_loops),
];

/// Patterns of `scf.if`.
pub const IF: &[&dyn RewritePattern] = &[
    &OpPattern::<If>::new("CombineIfs", combine_ifs),
    &OpPattern::<If>::new("CombineNestedIfs", combine_nested_ifs),
    &OpPattern::<If>::new("ConditionPropagation", condition_propagation),
    &OpPattern::<If>::new("ConvertTrivialIfToSelect", trivial_if_to_select),
    &OpPattern::<If>::new("RemoveEmptyElseBranch", remove_empty_else),
    &OpPattern::<If>::new("RemoveStaticCondition", remove_static_condition),
    &OpPattern::<If>::new("RemoveUnusedResults", remove_unused_if_results),
    &OpPattern::<If>::new(
        "ReplaceIfYieldWithConditionOrValue",
        replace_if_yield_with_condition_or_value,
    ),
];

/// Patterns of `scf.parallel`.
pub const PARALLEL: &[&dyn RewritePattern] = &[&OpPattern::<Parallel>::new(
    "ParallelOpSingleOrZeroIterationDimsFolder",
    parallel_single_or_zero_iterations,
)];

/// Patterns of `scf.while`.
pub const WHILE: &[&dyn RewritePattern] = &[
    &OpPattern::<While>::new(
        "RemoveLoopInvariantArgsFromBeforeBlock",
        while_invariant_args,
    ),
    &OpPattern::<While>::new("RemoveLoopInvariantValueYielded", while_invariant_yielded),
    &OpPattern::<While>::new("WhileConditionTruth", while_condition_truth),
    &OpPattern::<While>::new("WhileUnusedResult", while_unused_result),
    &OpPattern::<While>::new("WhileRemoveDuplicatedResults", while_duplicated_results),
    &OpPattern::<While>::new("WhileRemoveUnusedArgs", while_unused_args),
];

// ---------------------------------------------------------------- helpers

/// Replace `op` by the contents of its single-block region `r`: the block's ops
/// move before `op` (its arguments replaced by `args`) and the terminator's
/// operands replace the results (MLIR's `replaceOpWithRegion`).
fn replace_op_with_region(rw: &mut Rewriter<'_>, op: Op, r: Region, args: &[Value]) {
    let Some(b) = rw.ctx.entry_block(r) else {
        return;
    };
    let term = rw.ctx.last_op(b).expect("terminated block");
    rw.inline_block_before(b, op, args);
    let results = rw.ctx.operands(term).to_vec();
    rw.replace_op(op, &results);
    rw.erase_op(term);
}

/// An `i1` constant created before `at`.
fn bool_constant(rw: &mut Rewriter<'_>, at: Op, v: bool) -> Value {
    let ctx = &*rw.ctx;
    let i1 = ctx.int_type(1);
    let mut st = OpState::new(ctx.ident("arith.constant"), ctx.op(at).loc);
    st.result_types.push(i1);
    let value = ctx.attr(AttrKind::Integer {
        value: if v { -1 } else { 0 },
        ty: i1,
    });
    st.props = Some(ctx.dict_attr(vec![(ctx.ident("value"), value)]));
    let c = rw.create_before(at, st);
    rw.ctx.result(c, 0)
}

/// A copy of `op`'s name, operands, attributes and location with new result
/// types and `n` fresh regions, which take the blocks of `regions` in order.
fn rebuild(
    rw: &mut Rewriter<'_>,
    op: Op,
    operands: &[Value],
    types: &[aic::types::Type],
    regions: &[Region],
) -> Op {
    let ctx = &mut *rw.ctx;
    let d = ctx.op(op);
    let mut st = OpState::new(d.name, d.loc);
    st.operands.extend(operands.iter().copied());
    st.result_types.extend(types.iter().copied());
    st.attrs = d.attrs.clone();
    st.props = d.props;
    for &old in regions {
        let r = ctx.create_region();
        ctx.move_region_blocks(old, r);
        st.regions.push(r);
    }
    rw.create_before(op, st)
}

/// Whether `v` is defined in region `r` (directly in one of its blocks).
fn defined_in(ctx: &Context, v: Value, r: Region) -> bool {
    ctx.value_region(v) == Some(r)
}

/// Give the terminator of every block in `r` the operands `keep` selects.
fn filter_terminators(rw: &mut Rewriter<'_>, r: Region, keep: &[bool]) {
    let blocks: Vec<_> = rw.ctx.region_blocks(r).collect();
    for b in blocks {
        if let Some(t) = rw.ctx.last_op(b) {
            let kept: Vec<Value> = rw
                .ctx
                .operands(t)
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(v, _)| *v)
                .collect();
            rw.ctx.set_operands(t, &kept);
            rw.modified(t);
        }
    }
}

/// Replace each result of `op` by the matching entry of `new` (skipping `None`
/// for unused results) and erase `op`.
fn replace_results(rw: &mut Rewriter<'_>, op: Op, new: &[Option<Value>]) {
    let results: Vec<Value> = rw.ctx.results(op).collect();
    for (r, n) in results.into_iter().zip(new) {
        if let Some(n) = n {
            rw.replace_all_uses(r, *n);
        }
    }
    rw.erase_op(op);
}

// ---------------------------------------------------------------- scf.if

/// `scf.if (xor %c, true)` with an else branch: branch on `%c`, regions swapped.
pub fn fold_if(ctx: &mut Context, op: Op, _consts: &[Option<Attr>]) -> Folded {
    let if_ = If(op);
    ctx.entry_block(if_.else_region(ctx))?;
    let cond = if_.condition(ctx);
    let x = crate::arith::XOrI::defining(ctx, cond)?;
    let (lhs, rhs) = (x.lhs(ctx), x.rhs(ctx));
    if const_int(ctx, rhs).is_none_or(|v| v & 1 == 0) {
        return None;
    }
    ctx.set_operand(op, 0, lhs);
    ctx.op_mut(op).regions.swap(0, 1);
    Some(ctx.results(op).map(FoldResult::Value).collect())
}

/// Whether `op` is nested (at any depth) in region `r`.
fn in_region(ctx: &Context, op: Op, r: Region) -> bool {
    let mut cur = Some(op);
    while let Some(o) = cur {
        let reg = ctx.parent_block(o).and_then(|b| ctx.block_parent(b));
        if reg == Some(r) {
            return true;
        }
        cur = reg.and_then(|x| ctx.region_parent(x));
    }
    false
}

/// `%x` when `v` is `arith.xori %x, true`.
fn negation_of(ctx: &Context, v: Value) -> Option<Value> {
    let d = crate::arith::XOrI::defining(ctx, v)?;
    let (l, r) = (d.lhs(ctx), d.rhs(ctx));
    (const_int(ctx, r)? & 1 == 1).then_some(l)
}

/// The terminator of the single block of `r`, if it has one.
fn terminator(ctx: &Context, r: Region) -> Option<Op> {
    ctx.last_op(ctx.entry_block(r)?)
}

/// The `scf.yield` ending the single block of `r`.
fn yield_of(ctx: &Context, r: Region) -> Option<Yield> {
    terminator(ctx, r).and_then(|t| Yield::of(ctx, t))
}

/// An `scf.yield` of `values` at the end of `b`.
fn append_yield(rw: &mut Rewriter<'_>, b: aic::ir::Block, values: &[Value], loc: Attr) {
    let mut at_end = Builder::at_end(rw.ctx, b);
    at_end.loc = loc;
    let y = Yield::build(&mut at_end, values);
    rw.modified(y.0);
}

/// Consecutive `scf.if`s on the same (or negated) condition merge into one.
fn combine_ifs(rw: &mut Rewriter<'_>, next_if: If) -> bool {
    let next = next_if.0;
    let ctx = &*rw.ctx;
    let Some(prev_if) = ctx.prev_op(next).and_then(|p| If::of(ctx, p)) else {
        return false;
    };
    let prev = prev_if.0;
    let (pc, nc) = (prev_if.condition(ctx), next_if.condition(ctx));
    let (mut next_then, mut next_else) = (None, None);
    let next_blocks = (
        ctx.entry_block(next_if.then_region(ctx)),
        ctx.entry_block(next_if.else_region(ctx)),
    );
    if nc == pc {
        (next_then, next_else) = next_blocks;
    }
    if negation_of(ctx, nc) == Some(pc) || negation_of(ctx, pc) == Some(nc) {
        (next_else, next_then) = next_blocks;
    }
    if next_then.is_none() && next_else.is_none() {
        return false;
    }
    let (prev_then_r, prev_else_r) = (prev_if.then_region(ctx), prev_if.else_region(ctx));
    let (Some(prev_then), prev_else) = (ctx.entry_block(prev_then_r), ctx.entry_block(prev_else_r))
    else {
        return false;
    };
    let then_yield = ctx.last_op(prev_then).expect("yield");
    let else_yield = prev_else.and_then(|b| ctx.last_op(b));
    let then_vals = ctx.operands(then_yield).to_vec();
    let else_vals = else_yield
        .map(|y| ctx.operands(y).to_vec())
        .unwrap_or_default();
    let prev_results: Vec<Value> = ctx.results(prev).collect();
    for (i, r) in prev_results.iter().enumerate() {
        let uses = rw.ctx.uses(*r).to_vec();
        for u in uses {
            let region_of = |b: Option<aic::ir::Block>| b.and_then(|b| rw.ctx.block_parent(b));
            let new = if region_of(next_then).is_some_and(|nr| in_region(rw.ctx, u.op, nr)) {
                then_vals.get(i).copied()
            } else if region_of(next_else).is_some_and(|nr| in_region(rw.ctx, u.op, nr)) {
                else_vals.get(i).copied()
            } else {
                None
            };
            if let Some(v) = new {
                rw.ctx.set_operand(u.op, u.index as usize, v);
                rw.modified(u.op);
            }
        }
    }
    let ctx = &*rw.ctx;
    let mut types: Vec<_> = prev_results.iter().map(|r| ctx.value_type(*r)).collect();
    types.extend(ctx.results(next).map(|r| ctx.value_type(r)));
    let combined = If::build(&mut rw.before(next), pc, &types);
    let (then_r, else_r) = (combined.then_region(rw.ctx), combined.else_region(rw.ctx));
    rw.ctx.move_region_blocks(prev_then_r, then_r);
    if let Some(nt) = next_then {
        let y2 = rw.ctx.last_op(nt).expect("yield");
        let mut vals = then_vals.clone();
        vals.extend(rw.ctx.operands(y2).iter().copied());
        let yloc = rw.ctx.op(y2).loc;
        rw.merge_blocks(nt, prev_then, &[]);
        rw.erase_op(then_yield);
        rw.erase_op(y2);
        append_yield(rw, prev_then, &vals, yloc);
    }
    rw.ctx.move_region_blocks(prev_else_r, else_r);
    if let Some(ne) = next_else {
        match prev_else {
            None => {
                let r = rw.ctx.block_parent(ne).expect("region");
                rw.ctx.move_region_blocks(r, else_r);
            }
            Some(pe) => {
                let y1 = else_yield.expect("yield");
                let y2 = rw.ctx.last_op(ne).expect("yield");
                let mut vals = else_vals.clone();
                vals.extend(rw.ctx.operands(y2).iter().copied());
                let yloc = rw.ctx.op(y2).loc;
                rw.merge_blocks(ne, pe, &[]);
                rw.erase_op(y1);
                rw.erase_op(y2);
                append_yield(rw, pe, &vals, yloc);
            }
        }
    }
    let all = combined.results(rw.ctx);
    let p = prev_results.len();
    rw.replace_op(prev, &all[..p]);
    rw.replace_op(next, &all[p..]);
    true
}

/// `scf.if %a { scf.if %b { ... } }` becomes `scf.if (%a and %b) { ... }`.
fn combine_nested_ifs(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let ctx = &*rw.ctx;
    let outer_then = if_.then_region(ctx);
    let Some(then_b) = ctx.entry_block(outer_then) else {
        return false;
    };
    let Some(nested_if) = ctx.first_op(then_b).and_then(|n| If::of(ctx, n)) else {
        return false;
    };
    let nested = nested_if.0;
    let then_yield = ctx.last_op(then_b).expect("yield");
    if ctx.next_op(nested) != Some(then_yield) {
        return false;
    }
    let else_b = ctx.entry_block(if_.else_region(ctx));
    if else_b.is_some_and(|b| ctx.first_op(b) != ctx.last_op(b)) {
        return false;
    }
    let nested_else = ctx.entry_block(nested_if.else_region(ctx));
    if nested_else.is_some_and(|b| ctx.first_op(b) != ctx.last_op(b)) {
        return false;
    }
    let Some(nested_then) = ctx.entry_block(nested_if.then_region(ctx)) else {
        return false;
    };
    let mut then_vals = ctx.operands(then_yield).to_vec();
    let else_vals = else_b
        .and_then(|b| ctx.last_op(b))
        .map(|y| ctx.operands(y).to_vec())
        .unwrap_or_default();
    let nested_then_yield = ctx.last_op(nested_then).expect("yield");
    let nested_else_vals = nested_else
        .and_then(|b| ctx.last_op(b))
        .map(|y| ctx.operands(y).to_vec())
        .unwrap_or_default();
    let mut upgrade = Vec::new();
    for (i, slot) in then_vals.iter_mut().enumerate() {
        let v = *slot;
        if let aic::ir::ValueDef::Result(d, k) = ctx.value_def(v)
            && d == nested
        {
            if nested_else_vals.get(k as usize) != else_vals.get(i) {
                return false;
            }
            *slot = Yield(nested_then_yield).results(ctx)[k as usize];
            continue;
        }
        if defined_in(ctx, v, outer_then) {
            return false;
        }
        upgrade.push(i);
    }
    let loc = ctx.op(op).loc;
    let (c1, c2) = (if_.condition(ctx), nested_if.condition(ctx));
    let mut and = OpState::new(ctx.ident("arith.andi"), loc);
    and.operands.extend([c1, c2]);
    and.result_types.push(ctx.int_type(1));
    let types: Vec<_> = ctx.results(op).map(|r| ctx.value_type(r)).collect();
    let and = rw.create_before(op, and);
    let cond = rw.ctx.result(and, 0);
    let new_if = If::build(&mut rw.before(op), cond, &types);
    let (new, then_r, else_r) = (
        new_if.0,
        new_if.then_region(rw.ctx),
        new_if.else_region(rw.ctx),
    );
    let mut results = new_if.results(rw.ctx);
    let nb = rw.ctx.create_block(&[]);
    rw.ctx.append_block(then_r, nb);
    for &i in &upgrade {
        let ctx = &*rw.ctx;
        let mut sel = OpState::new(ctx.ident("arith.select"), loc);
        sel.operands.extend([c1, then_vals[i], else_vals[i]]);
        sel.result_types.push(ctx.value_type(then_vals[i]));
        let s = rw.create_before(new, sel);
        results[i] = rw.ctx.result(s, 0);
    }
    let yloc = rw.ctx.op(nested_then_yield).loc;
    rw.merge_blocks(nested_then, nb, &[]);
    rw.erase_op(nested_then_yield);
    append_yield(rw, nb, &then_vals, yloc);
    if !else_vals.is_empty() {
        let eb = rw.ctx.create_block(&[]);
        rw.ctx.append_block(else_r, eb);
        append_yield(rw, eb, &else_vals, loc);
    }
    rw.replace_op(op, &results);
    true
}

fn remove_static_condition(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let cond = if_.condition(rw.ctx);
    let Some(c) = const_int(rw.ctx, cond).map(|v| v != 0) else {
        return false;
    };
    let (then_r, else_r) = (if_.then_region(rw.ctx), if_.else_region(rw.ctx));
    let has_else = rw.ctx.entry_block(else_r).is_some();
    if c {
        replace_op_with_region(rw, op, then_r, &[]);
    } else if has_else {
        replace_op_with_region(rw, op, else_r, &[]);
    } else {
        rw.erase_op(op);
    }
    true
}

fn remove_unused_if_results(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let ctx = &*rw.ctx;
    let used: Vec<bool> = ctx.results(op).map(|r| !ctx.uses(r).is_empty()).collect();
    if used.iter().all(|u| *u) {
        return false;
    }
    let types: Vec<_> = ctx
        .results(op)
        .zip(&used)
        .filter(|(_, u)| **u)
        .map(|(r, _)| ctx.value_type(r))
        .collect();
    let regions = [if_.then_region(ctx), if_.else_region(ctx)];
    let cond = if_.condition(ctx);
    let new = If(rebuild(rw, op, &[cond], &types, &regions));
    for r in [new.then_region(rw.ctx), new.else_region(rw.ctx)] {
        filter_terminators(rw, r, &used);
    }
    let mut next = 0;
    let repl: Vec<Option<Value>> = used
        .iter()
        .map(|u| {
            u.then(|| {
                next += 1;
                rw.ctx.result(new.0, next - 1)
            })
        })
        .collect();
    replace_results(rw, op, &repl);
    true
}

fn trivial_if_to_select(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let ctx = &*rw.ctx;
    if ctx.num_results(op) == 0 {
        return false;
    }
    let regions = [if_.then_region(ctx), if_.else_region(ctx)];
    let (Some(t), Some(e)) = (yield_of(ctx, regions[0]), yield_of(ctx, regions[1])) else {
        return false;
    };
    let (tv, ev) = (t.results(ctx).to_vec(), e.results(ctx).to_vec());
    let keep: Vec<bool> = tv
        .iter()
        .zip(&ev)
        .map(|(a, b)| defined_in(ctx, *a, regions[0]) || defined_in(ctx, *b, regions[1]))
        .collect();
    if keep.iter().all(|k| *k) {
        return false;
    }
    let types: Vec<_> = ctx
        .results(op)
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(r, _)| ctx.value_type(r))
        .collect();
    let cond = if_.condition(ctx);
    let loc = ctx.op(op).loc;
    let new = rebuild(rw, op, &[cond], &types, &regions);
    let mut results = Vec::new();
    let mut next = 0;
    for (i, k) in keep.iter().enumerate() {
        if *k {
            results.push(Some(rw.ctx.result(new, next)));
            next += 1;
        } else if tv[i] == ev[i] {
            results.push(Some(tv[i]));
        } else {
            let ctx = &*rw.ctx;
            let mut st = OpState::new(ctx.ident("arith.select"), loc);
            st.operands.extend([cond, tv[i], ev[i]]);
            st.result_types.push(ctx.value_type(tv[i]));
            let s = rw.create_before(new, st);
            results.push(Some(rw.ctx.result(s, 0)));
        }
    }
    let new_if = If(new);
    for r in [new_if.then_region(rw.ctx), new_if.else_region(rw.ctx)] {
        filter_terminators(rw, r, &keep);
    }
    replace_results(rw, op, &results);
    true
}

fn replace_if_yield_with_condition_or_value(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let ctx = &*rw.ctx;
    if ctx.num_results(op) == 0 {
        return false;
    }
    let (then_r, else_r) = (if_.then_region(ctx), if_.else_region(ctx));
    let (Some(t), Some(e)) = (yield_of(ctx, then_r), yield_of(ctx, else_r)) else {
        return false;
    };
    let (tv, ev) = (t.results(ctx).to_vec(), e.results(ctx).to_vec());
    let results = if_.results(ctx);
    let cond = if_.condition(ctx);
    let mut changed = false;
    for ((a, b), r) in tv.into_iter().zip(ev).zip(results) {
        if rw.ctx.uses(r).is_empty() {
            continue;
        }
        if a == b {
            rw.replace_all_uses(r, a);
            changed = true;
            continue;
        }
        let as_bool = |v| {
            let d = rw.ctx.defining_op(v)?;
            let c = aic::rewrite::constant_value(rw.ctx, d)?;
            if rw.ctx.int_type(1) != rw.ctx.value_type(v) {
                return None;
            }
            const_bool(rw.ctx, Some(c))
        };
        match (as_bool(a), as_bool(b)) {
            (Some(false), Some(true)) => {
                let one = bool_constant(rw, op, true);
                let ctx = &*rw.ctx;
                let mut st = OpState::new(ctx.ident("arith.xori"), ctx.op(op).loc);
                st.operands.extend([cond, one]);
                st.result_types.push(ctx.int_type(1));
                let x = rw.create_before(op, st);
                let nv = rw.ctx.result(x, 0);
                rw.replace_all_uses(r, nv);
                changed = true;
            }
            (Some(true), Some(false)) => {
                rw.replace_all_uses(r, cond);
                changed = true;
            }
            _ => {}
        }
    }
    changed
}

fn remove_empty_else(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let ctx = &*rw.ctx;
    if ctx.num_results(op) != 0 {
        return false;
    }
    let Some(b) = ctx.entry_block(if_.else_region(ctx)) else {
        return false;
    };
    if ctx.first_op(b) != ctx.last_op(b) {
        return false;
    }
    rw.ctx.erase_blocks(&[b]);
    rw.modified(op);
    true
}

fn condition_propagation(rw: &mut Rewriter<'_>, if_: If) -> bool {
    let op = if_.0;
    let ctx = &*rw.ctx;
    let cond = if_.condition(ctx);
    if const_int(ctx, cond).is_some() {
        return false;
    }
    let regions = [if_.then_region(ctx), if_.else_region(ctx)];
    let inside = |ctx: &Context, user: Op, r: Region| {
        let mut cur = Some(user);
        while let Some(o) = cur {
            let b = ctx.parent_block(o);
            let reg = b.and_then(|b| ctx.block_parent(b));
            if reg == Some(r) {
                return true;
            }
            cur = reg.and_then(|x| ctx.region_parent(x));
        }
        false
    };
    // MLIR's use lists hold the newest use first.
    let uses: Vec<_> = ctx.uses(cond).iter().rev().copied().collect();
    let (mut t, mut f) = (None, None);
    let mut changed = false;
    for u in uses {
        let which = if inside(rw.ctx, u.op, regions[0]) {
            true
        } else if inside(rw.ctx, u.op, regions[1]) {
            false
        } else {
            continue;
        };
        let slot = if which { &mut t } else { &mut f };
        let v = match *slot {
            Some(v) => v,
            None => {
                let v = bool_constant(rw, op, which);
                *(if which { &mut t } else { &mut f }) = Some(v);
                v
            }
        };
        rw.ctx.set_operand(u.op, u.index as usize, v);
        rw.modified(u.op);
        changed = true;
    }
    changed
}

// ---------------------------------------------------------------- scf.index_switch

/// Patterns of `scf.index_switch`.
pub const INDEX_SWITCH: &[&dyn RewritePattern] = &[&OpPattern::<IndexSwitch>::new(
    "FoldConstantCase",
    fold_constant_case,
)];

/// With a constant argument the chosen region replaces the switch (a pattern,
/// not a folder, so that switches without results go too).
fn fold_constant_case(rw: &mut Rewriter<'_>, switch: IndexSwitch) -> bool {
    let op = switch.0;
    let ctx = &*rw.ctx;
    let Some(v) = const_int(ctx, switch.arg(ctx)) else {
        return false;
    };
    let region = switch_cases(ctx, op)
        .iter()
        .position(|c| i128::from(*c) == v)
        .map_or(switch.default_region(ctx), |i| switch.case_regions(ctx)[i]);
    replace_op_with_region(rw, op, region, &[]);
    true
}

// ---------------------------------------------------------------- scf.execute_region

fn single_block_execute_inliner(rw: &mut Rewriter<'_>, exec: ExecuteRegion) -> bool {
    let op = exec.0;
    let ctx = &*rw.ctx;
    let r = exec.region(ctx);
    let Some(b) = ctx.entry_block(r) else {
        return false;
    };
    if ctx.next_block(b).is_some() {
        return false;
    }
    if ctx.last_op(b).is_none_or(|t| !Yield::is(ctx, t)) {
        return false;
    }
    replace_op_with_region(rw, op, r, &[]);
    true
}

// ---------------------------------------------------------------- scf.for

fn for_iter_args_folder(rw: &mut Rewriter<'_>, for_: For) -> bool {
    let op = for_.0;
    let ctx = &*rw.ctx;
    let region = for_.region(ctx);
    let Some(body) = ctx.entry_block(region) else {
        return false;
    };
    let Some(term) = ctx.last_op(body) else {
        return false;
    };
    let inits = for_.init_args(ctx).to_vec();
    let args = ctx.block_args(body)[1..].to_vec();
    let results: Vec<Value> = ctx.results(op).collect();
    let yielded = ctx.operands(term).to_vec();
    if yielded.len() != inits.len() {
        return false;
    }
    let forwarded: Vec<bool> = (0..inits.len())
        .map(|i| {
            args[i] == yielded[i]
                || (ctx.uses(args[i]).is_empty()
                    && (inits[i] == yielded[i] || ctx.uses(results[i]).is_empty()))
        })
        .collect();
    if !forwarded.iter().any(|f| *f) {
        return false;
    }
    // The kept values go on; forwarded ones are replaced by their init value.
    let keep: Vec<bool> = forwarded.iter().map(|f| !f).collect();
    let mut operands = vec![for_.lower_bound(ctx), for_.upper_bound(ctx), for_.step(ctx)];
    operands.extend(
        inits
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(v, _)| *v),
    );
    let types: Vec<_> = inits
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| ctx.value_type(*v))
        .collect();
    let new = For(rebuild(rw, op, &operands, &types, &[region]));
    // Forwarded block arguments become their init values; then the block loses them.
    for (i, f) in forwarded.iter().enumerate() {
        if *f {
            rw.replace_all_uses(args[i], inits[i]);
        }
    }
    filter_terminators(rw, new.region(rw.ctx), &keep);
    remove_block_args(rw.ctx, body, 1, &keep);
    let mut next = 0;
    let repl: Vec<Option<Value>> = keep
        .iter()
        .enumerate()
        .map(|(i, k)| {
            Some(if *k {
                next += 1;
                rw.ctx.result(new.0, next - 1)
            } else {
                inits[i]
            })
        })
        .collect();
    replace_results(rw, op, &repl);
    true
}

/// Drop the arguments of `b` from `skip` on that `keep` does not select (they
/// must be unused), by moving its ops to a fresh block with the kept arguments.
fn remove_block_args(ctx: &mut Context, b: aic::ir::Block, skip: usize, keep: &[bool]) {
    let args = ctx.block_args(b).to_vec();
    let r = ctx.block_parent(b).expect("block in a region");
    let kept: Vec<(aic::types::Type, Option<Attr>)> = args
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < skip || keep[i - skip])
        .map(|(_, a)| (ctx.value_type(*a), ctx.value(*a).loc))
        .collect();
    let nb = ctx.create_block(&kept);
    let new_args = ctx.block_args(nb).to_vec();
    let mut map = Vec::with_capacity(args.len());
    let mut next = 0;
    for (i, &a) in args.iter().enumerate() {
        if i < skip || keep[i - skip] {
            map.push(new_args[next]);
            next += 1;
        } else {
            // Unused: any value of the right type will do.
            map.push(a);
        }
    }
    ctx.detach_block(b);
    ctx.append_block(r, nb);
    // Replacing an unused argument by itself is a no-op.
    ctx.inline_block(b, aic::ir::InsertPoint::End(nb), &map);
}

/// A constant as the signed value of its type's width.
fn signed(ctx: &Context, v: Value, c: i128) -> i128 {
    let w = match ctx.type_kind(ctx.value_type(v)) {
        aic::types::TypeKind::Integer { width, .. } => *width,
        _ => 64,
    };
    if w >= 128 || w == 0 {
        return c;
    }
    let s = 128 - w;
    (c << s) >> s
}

fn simplify_trivial_loops(rw: &mut Rewriter<'_>, for_: For) -> bool {
    let op = for_.0;
    let ctx = &*rw.ctx;
    let (lb, ub, step) = (for_.lower_bound(ctx), for_.upper_bound(ctx), for_.step(ctx));
    let inits = for_.init_args(ctx).to_vec();
    let region = for_.region(ctx);
    if lb == ub {
        rw.replace_op(op, &inits);
        return true;
    }
    // MLIR 22 computes the difference from constant bounds only.
    let (Some(l), Some(u)) = (const_int(ctx, lb), const_int(ctx, ub)) else {
        return false;
    };
    let Some(diff) = Some(signed(ctx, ub, u) - signed(ctx, lb, l)) else {
        return false;
    };
    if diff <= 0 {
        rw.replace_op(op, &inits);
        return true;
    }
    let Some(step_v) = const_int(ctx, step).map(|s| signed(ctx, step, s)) else {
        return false;
    };
    if step_v >= diff {
        let mut args = vec![lb];
        args.extend(inits);
        replace_op_with_region(rw, op, region, &args);
        return true;
    }
    let Some(body) = ctx.entry_block(region) else {
        return false;
    };
    if ctx.first_op(body) != ctx.last_op(body) {
        return false;
    }
    let Some(term) = ctx.last_op(body) else {
        return false;
    };
    let yielded = ctx.operands(term).to_vec();
    if yielded.iter().any(|v| !ctx.is_defined_outside(*v, op)) {
        return false;
    }
    rw.replace_op(op, &yielded);
    true
}

// ---------------------------------------------------------------- scf.parallel

/// MLIR's `constantTripCount`: 0 for equal bounds, else from constant bounds
/// and a positive constant step.
fn trip_count(ctx: &Context, lb: Value, ub: Value, step: Value) -> Option<i128> {
    if lb == ub {
        return Some(0);
    }
    let (l, u, s) = (
        const_int(ctx, lb)?,
        const_int(ctx, ub)?,
        const_int(ctx, step)?,
    );
    let (l, u, s) = (signed(ctx, lb, l), signed(ctx, ub, u), signed(ctx, step, s));
    if s <= 0 {
        return None;
    }
    Some(if u <= l { 0 } else { (u - l + s - 1) / s })
}

fn parallel_single_or_zero_iterations(rw: &mut Rewriter<'_>, par: Parallel) -> bool {
    let op = par.0;
    let ctx = &*rw.ctx;
    let (lbs, ubs, steps) = (
        par.lower_bound(ctx).to_vec(),
        par.upper_bound(ctx).to_vec(),
        par.step(ctx).to_vec(),
    );
    let inits = par.init_vals(ctx).to_vec();
    let region = par.region(ctx);
    let Some(body) = ctx.entry_block(region) else {
        return false;
    };
    let ivs = ctx.block_args(body).to_vec();
    let n = lbs.len();
    let mut keep = vec![true; n];
    for i in 0..n {
        let (lb, ub, step) = (lbs[i], ubs[i], steps[i]);
        match trip_count(ctx, lb, ub, step) {
            Some(0) => {
                rw.replace_op(op, &inits);
                return true;
            }
            Some(1) => keep[i] = false,
            _ => {}
        }
    }
    if keep.iter().all(|k| *k) {
        return false;
    }
    for i in 0..n {
        if !keep[i] {
            rw.replace_all_uses(ivs[i], lbs[i]);
        }
    }
    if keep.iter().all(|k| !k) {
        // One iteration in all: the body runs in place, then each reduction
        // combines the initial value with the value reduced.
        let reduce = Reduce(rw.ctx.last_op(body).expect("a terminator"));
        let args = rw.ctx.block_args(body).to_vec();
        rw.inline_block_before(body, op, &args);
        let operands = reduce.operands(rw.ctx).to_vec();
        let regions = reduce.reductions(rw.ctx).to_vec();
        let mut results = Vec::new();
        for (i, r) in regions.into_iter().enumerate() {
            let b = rw.ctx.entry_block(r).expect("reduction block");
            let ret = ReduceReturn(rw.ctx.last_op(b).expect("a terminator"));
            rw.inline_block_before(b, op, &[inits[i], operands[i]]);
            results.push(ret.result(rw.ctx));
            rw.erase_op(ret.0);
        }
        rw.erase_op(reduce.0);
        rw.replace_op(op, &results);
        return true;
    }
    let pick = |vs: &[Value]| -> Vec<Value> {
        vs.iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(v, _)| *v)
            .collect()
    };
    let (lbs, ubs, steps) = (pick(&lbs), pick(&ubs), pick(&steps));
    let mut operands = lbs.clone();
    operands.extend(ubs);
    operands.extend(steps);
    operands.extend(inits.iter().copied());
    let types: Vec<_> = rw.ctx.results(op).map(|r| rw.ctx.value_type(r)).collect();
    let new = rebuild(rw, op, &operands, &types, &[region]);
    let m = lbs.len() as u64;
    let u = rw.ctx.uniquer().clone();
    let sizes = u.attr(AttrKind::DenseArray {
        elem: u.int_type(32),
        values: vec![m, m, m, inits.len() as u64].into(),
    });
    rw.ctx
        .set_inherent_attr(new, u.ident("operandSegmentSizes"), sizes);
    remove_block_args(rw.ctx, body, 0, &keep);
    let results: Vec<Value> = rw.ctx.results(new).collect();
    rw.replace_op(op, &results);
    true
}

// ---------------------------------------------------------------- scf.while

fn while_condition_truth(rw: &mut Rewriter<'_>, while_: While) -> bool {
    let op = while_.0;
    let ctx = &*rw.ctx;
    let Some(term) = terminator(ctx, while_.before(ctx)).and_then(|t| Condition::of(ctx, t)) else {
        return false;
    };
    let Some(after) = ctx.entry_block(while_.after(ctx)) else {
        return false;
    };
    let cond = term.condition(ctx);
    let pairs: Vec<(Value, Value)> = term
        .args(ctx)
        .iter()
        .copied()
        .zip(ctx.block_args(after).iter().copied())
        .collect();
    let mut truth = None;
    let mut changed = false;
    for (v, arg) in pairs {
        if v == cond && !rw.ctx.uses(arg).is_empty() {
            let t = match truth {
                Some(t) => t,
                None => {
                    let t = bool_constant(rw, op, true);
                    truth = Some(t);
                    t
                }
            };
            rw.replace_all_uses(arg, t);
            changed = true;
        }
    }
    changed
}

/// The parts of an `scf.while` the while patterns look at.
struct WhileParts {
    inits: Vec<Value>,
    before: aic::ir::Block,
    after: aic::ir::Block,
    cond: Condition,
    yield_: Yield,
}

fn while_parts(ctx: &Context, while_: While) -> Option<WhileParts> {
    let before = ctx.entry_block(while_.before(ctx))?;
    let after = ctx.entry_block(while_.after(ctx))?;
    let cond = ctx.last_op(before).and_then(|t| Condition::of(ctx, t))?;
    let yield_ = ctx.last_op(after).and_then(|t| Yield::of(ctx, t))?;
    Some(WhileParts {
        inits: while_.inits(ctx).to_vec(),
        before,
        after,
        cond,
        yield_,
    })
}

/// Rebuild an `scf.while` without some loop-carried values (`before[i]`: the
/// value that replaces before-argument `i`, dropping it with its init and yield
/// operand) and without some results (`after[j]`: dropped, with the value that
/// replaces after-argument `j` and result `j`, `None` when both are unused).
fn rebuild_while(
    rw: &mut Rewriter<'_>,
    while_: While,
    before: &[Option<Value>],
    after: &[Option<Option<Value>>],
) {
    let op = while_.0;
    let w = while_parts(rw.ctx, while_).expect("well-formed scf.while");
    let keep_before: Vec<bool> = before.iter().map(Option::is_none).collect();
    let keep_after: Vec<bool> = after.iter().map(Option::is_none).collect();
    let before_args = rw.ctx.block_args(w.before).to_vec();
    let after_args = rw.ctx.block_args(w.after).to_vec();
    for (a, r) in before_args.iter().zip(before) {
        if let Some(v) = r {
            rw.replace_all_uses(*a, *v);
        }
    }
    for (a, r) in after_args.iter().zip(after) {
        if let Some(Some(v)) = r {
            rw.replace_all_uses(*a, *v);
        }
    }
    filter_terminators(rw, while_.after(rw.ctx), &keep_before);
    let cond_keep: Vec<bool> = std::iter::once(true)
        .chain(keep_after.iter().copied())
        .collect();
    let cond_ops: Vec<Value> = rw
        .ctx
        .operands(w.cond.0)
        .iter()
        .zip(&cond_keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect();
    rw.ctx.set_operands(w.cond.0, &cond_ops);
    rw.modified(w.cond.0);
    let inits: Vec<Value> = w
        .inits
        .iter()
        .zip(&keep_before)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect();
    let results: Vec<Value> = rw.ctx.results(op).collect();
    let types: Vec<_> = results
        .iter()
        .zip(&keep_after)
        .filter(|(_, k)| **k)
        .map(|(r, _)| rw.ctx.value_type(*r))
        .collect();
    let regions = [while_.before(rw.ctx), while_.after(rw.ctx)];
    let new = rebuild(rw, op, &inits, &types, &regions);
    remove_block_args(rw.ctx, w.before, 0, &keep_before);
    remove_block_args(rw.ctx, w.after, 0, &keep_after);
    let mut next = 0;
    let repl: Vec<Option<Value>> = after
        .iter()
        .map(|d| match d {
            None => {
                next += 1;
                Some(rw.ctx.result(new, next - 1))
            }
            Some(v) => *v,
        })
        .collect();
    replace_results(rw, op, &repl);
}

fn while_invariant_args(rw: &mut Rewriter<'_>, while_: While) -> bool {
    let op = while_.0;
    let ctx = &*rw.ctx;
    let Some(w) = while_parts(ctx, while_) else {
        return false;
    };
    let before_args = ctx.block_args(w.before);
    let cond_args = w.cond.args(ctx);
    let yielded = w.yield_.results(ctx);
    if yielded.len() != w.inits.len() {
        return false;
    }
    let repl: Vec<Option<Value>> = (0..w.inits.len())
        .map(|i| {
            let (init, y) = (w.inits[i], yielded[i]);
            let invariant = y == init
                || matches!(ctx.value_def(y), aic::ir::ValueDef::Arg(b, k) if b == w.after
                    && cond_args.get(k as usize).is_some_and(|c| *c == before_args[i] || *c == init));
            invariant.then_some(init)
        })
        .collect();
    if repl.iter().all(Option::is_none) {
        return false;
    }
    let n = ctx.num_results(op);
    rebuild_while(rw, while_, &repl, &vec![None; n]);
    true
}

fn while_invariant_yielded(rw: &mut Rewriter<'_>, while_: While) -> bool {
    let ctx = &*rw.ctx;
    let Some(w) = while_parts(ctx, while_) else {
        return false;
    };
    let after: Vec<Option<Option<Value>>> = w
        .cond
        .args(ctx)
        .iter()
        .map(|v| {
            let inside = match ctx.value_def(*v) {
                aic::ir::ValueDef::Arg(b, _) => b == w.before,
                aic::ir::ValueDef::Result(d, _) => ctx.parent_block(d) == Some(w.before),
                aic::ir::ValueDef::Placeholder => true,
            };
            (!inside).then_some(Some(*v))
        })
        .collect();
    if after.iter().all(Option::is_none) {
        return false;
    }
    let n = w.inits.len();
    rebuild_while(rw, while_, &vec![None; n], &after);
    true
}

fn while_unused_result(rw: &mut Rewriter<'_>, while_: While) -> bool {
    let op = while_.0;
    let ctx = &*rw.ctx;
    let Some(w) = while_parts(ctx, while_) else {
        return false;
    };
    let after_args = ctx.block_args(w.after);
    let after: Vec<Option<Option<Value>>> = ctx
        .results(op)
        .zip(after_args)
        .map(|(r, a)| (ctx.uses(r).is_empty() && ctx.uses(*a).is_empty()).then_some(None))
        .collect();
    if after.iter().all(Option::is_none) {
        return false;
    }
    rebuild_while(rw, while_, &vec![None; w.inits.len()], &after);
    true
}

fn while_duplicated_results(rw: &mut Rewriter<'_>, while_: While) -> bool {
    let op = while_.0;
    let ctx = &*rw.ctx;
    let Some(w) = while_parts(ctx, while_) else {
        return false;
    };
    let args = w.cond.args(ctx).to_vec();
    let first: Vec<usize> = args
        .iter()
        .map(|a| args.iter().position(|b| b == a).expect("present"))
        .collect();
    if first.iter().enumerate().all(|(i, f)| i == *f) {
        return false;
    }
    let after_args = ctx.block_args(w.after).to_vec();
    let results: Vec<Value> = ctx.results(op).collect();
    let mut after = vec![None; args.len()];
    for (j, &k) in first.iter().enumerate() {
        if j != k {
            rw.replace_all_uses(after_args[j], after_args[k]);
            rw.replace_all_uses(results[j], results[k]);
            after[j] = Some(None);
        }
    }
    rebuild_while(rw, while_, &vec![None; w.inits.len()], &after);
    true
}

fn while_unused_args(rw: &mut Rewriter<'_>, while_: While) -> bool {
    let op = while_.0;
    let ctx = &*rw.ctx;
    let Some(w) = while_parts(ctx, while_) else {
        return false;
    };
    let before: Vec<Option<Value>> = ctx
        .block_args(w.before)
        .iter()
        .zip(&w.inits)
        .map(|(a, i)| ctx.uses(*a).is_empty().then_some(*i))
        .collect();
    if before.iter().all(Option::is_none) {
        return false;
    }
    rebuild_while(rw, while_, &before, &vec![None; ctx.num_results(op)]);
    true
}
