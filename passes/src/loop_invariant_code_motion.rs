//! `loop-invariant-code-motion`: move ops out of loop bodies when they compute the
//! same value on every iteration and may run where the loop might not have run
//! (effect-free and speculatable), innermost loops first, as MLIR does.

use aic::Diagnostic;
use aic::dialect::Traits;
use aic::ir::{Context, InsertPoint, Op, Region, WalkOrder};
use aic::pass::{Pass, PassInfo};
use aic::rewrite::{is_effect_free, is_speculatable};
use std::collections::VecDeque;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "loop-invariant-code-motion",
    name: "LoopInvariantCodeMotion",
    summary: "Hoist loop invariant instructions outside of the loop",
    anchor: None,
    options: &[],
    create: |_| Box::new(Licm),
};

struct Licm;

impl Pass for Licm {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic> {
        let mut loops = Vec::new();
        ctx.walk(op, WalkOrder::PostOrder, &mut |_, o| {
            if ctx.op_spec(o).is_some_and(|s| s.has(Traits::LOOP_LIKE)) {
                loops.push(o);
            }
        });
        let mut moved = 0;
        for l in loops {
            moved += hoist_invariants(ctx, l);
        }
        Ok(moved > 0)
    }
}

/// Move the invariant ops of every region of `lp` before it; the number moved.
pub fn hoist_invariants(ctx: &mut Context, lp: Op) -> usize {
    let mut moved = 0;
    for r in ctx.regions(lp).to_vec() {
        let mut work: VecDeque<Op> = ctx
            .region_blocks(r)
            .flat_map(|b| ctx.block_ops(b))
            .collect();
        while let Some(o) = work.pop_front() {
            if region_of(ctx, o) != Some(r) || !can_be_hoisted(ctx, o, lp) {
                continue;
            }
            ctx.detach_op(o);
            ctx.insert_op(InsertPoint::Before(lp), o);
            moved += 1;
            // Its users at the top level of the body may have become invariant.
            let users: Vec<Op> = ctx
                .results(o)
                .flat_map(|v| ctx.uses(v).iter().map(|u| u.op).collect::<Vec<_>>())
                .collect();
            work.extend(users.into_iter().filter(|u| region_of(ctx, *u) == Some(r)));
        }
    }
    moved
}

fn region_of(ctx: &Context, op: Op) -> Option<Region> {
    ctx.block_parent(ctx.parent_block(op)?)
}

/// Not a terminator, effect-free and speculatable, and every value it (or an op
/// nested in it) uses from above is defined outside the loop.
fn can_be_hoisted(ctx: &Context, op: Op, lp: Op) -> bool {
    if ctx.op_spec(op).is_none_or(|s| s.has(Traits::TERMINATOR)) {
        return false;
    }
    if !is_effect_free(ctx, op) || !is_speculatable(ctx, op) {
        return false;
    }
    let mut ok = true;
    ctx.walk(op, WalkOrder::PreOrder, &mut |_, child| {
        for &v in ctx.operands(child) {
            // Values defined inside `op` itself travel with it.
            if !ctx.is_defined_outside(v, op) {
                continue;
            }
            if !ctx.is_defined_outside(v, lp) {
                ok = false;
            }
        }
    });
    ok
}
