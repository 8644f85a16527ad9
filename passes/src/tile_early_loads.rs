//! `tile-early-loads`: each tile kernel's loads issued as early as their
//! operands allow, so that their memory latency overlaps the work before
//! their first use instead of following it. A `tile.load` in a kernel's
//! body moves up past effect-free ops, to just after the op defining one
//! of its operands or the load before it (loads keep their order); never
//! above a loop (whose body may be pipelined, and across which a loaded
//! tile would hold registers) or another op with effects, and not at all
//! where the kernel writes its buffer.
//!
//! Why: a row kernel's epilogue reads other inputs after its reductions
//! (layernorm's scale and shift after the mean and the variance, each a
//! block barrier), and the GPU lowering issues each load where it stands,
//! so that every block waited for those reads after its barriers
//! (layernorm 32768 x 1024 f16 on an H200: 93-95% of copy bandwidth, 97%
//! with its loads first; bench/gpu/RESULTS.md).

use aic::Diagnostic;
use aic::dialect::Traits;
use aic::ir::{Context, InsertPoint, Op, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo};
use aic::rewrite::is_effect_free;
use aic_dialects::tile;
use std::collections::HashSet;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "tile-early-loads",
    name: "TileEarlyLoads",
    summary: "Move each tile kernel's loads up to just after their operands' definitions (past effect-free ops, never above a loop or another load), so that their latency overlaps the work before their use",
    anchor: None,
    options: &[],
    create: |_| Box::new(EarlyLoads),
};

struct EarlyLoads;

impl Pass for EarlyLoads {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut kernels = Vec::new();
        ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(ctx, o) {
                kernels.push(o);
            }
        });
        let mut changed = false;
        for k in kernels {
            changed |= hoist_loads(ctx, k);
        }
        Ok(changed)
    }
}

/// Moves the loads of kernel `k`'s body up (see the module's doc);
/// whether it moved any.
fn hoist_loads(ctx: &mut Context, k: Op) -> bool {
    let Some(body) = ctx.regions(k).first().and_then(|r| ctx.entry_block(*r)) else {
        return false;
    };
    let mut written: HashSet<Value> = HashSet::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if let Some(s) = tile::Store::of(ctx, o) {
            written.insert(s.buffer(ctx));
        }
    });
    let mut moved = false;
    let ops: Vec<Op> = ctx.block_ops(body).collect();
    for op in ops {
        let Some(ld) = tile::Load::of(ctx, op) else {
            continue;
        };
        if written.contains(&ld.buffer(ctx)) {
            continue;
        }
        let operands = ctx.operands(op).to_vec();
        let mut to = None;
        let mut prev = ctx.prev_op(op);
        while let Some(p) = prev {
            let defines = ctx.results(p).any(|r| operands.contains(&r));
            let looped = ctx.op_spec(p).is_some_and(|s| s.has(Traits::LOOP_LIKE));
            if defines || looped || !is_effect_free(ctx, p) {
                break;
            }
            to = Some(p);
            prev = ctx.prev_op(p);
        }
        if let Some(p) = to {
            ctx.detach_op(op);
            ctx.insert_op(InsertPoint::Before(p), op);
            moved = true;
        }
    }
    moved
}
