//! `symbol-dce`: erase symbols that are not public and not referenced from live code.
//!
//! Liveness spreads from everything that is not a non-public symbol: the symbol
//! references (`@f`, `@m::@f`, anywhere in attributes or properties) found in live
//! ops make their targets live, whose bodies are then scanned in turn.

use aic::Diagnostic;
use aic::ir::{Context, Op, WalkOrder};
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::symbol::{self, Visibility};
use std::collections::HashSet;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "symbol-dce",
    name: "SymbolDCE",
    summary: "Eliminate dead symbols",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Box::new(SymbolDce),
};

struct SymbolDce;

fn is_removable(ctx: &Context, op: Op) -> bool {
    symbol::symbol_name(ctx, op).is_some()
        && ctx.op_spec(op).is_some_and(|s| s.has(aic::Traits::SYMBOL))
        && symbol::visibility(ctx, op) != Some(Visibility::Public)
}

/// Symbol references inside an attribute, depth first.
impl Pass for SymbolDce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut live: HashSet<Op> = HashSet::new();
        let mut work = vec![root];
        while let Some(scan) = work.pop() {
            // Walk `scan` without entering non-public symbols that are not live yet.
            let mut stack = vec![scan];
            while let Some(o) = stack.pop() {
                if o != scan && is_removable(ctx, o) && !live.contains(&o) {
                    continue;
                }
                let mut refs = Vec::new();
                for (_, v) in ctx.op(o).attrs.iter() {
                    symbol::symbol_refs(ctx, *v, &mut refs);
                }
                if let Some(p) = ctx.op(o).props {
                    symbol::symbol_refs(ctx, p, &mut refs);
                }
                for r in refs {
                    let Some(target) = symbol::lookup_nearest_symbol_from(ctx, o, r) else {
                        continue;
                    };
                    // Every enclosing symbol up to the table that resolved it is used too.
                    let mut cur = Some(target);
                    while let Some(t) = cur {
                        if t == root || !live.insert(t) {
                            break;
                        }
                        if is_removable(ctx, t) {
                            work.push(t);
                        }
                        cur = ctx.parent_op(t);
                    }
                }
                for &r in ctx.regions(o) {
                    for b in ctx.region_blocks(r) {
                        stack.extend(ctx.block_ops(b));
                    }
                }
            }
        }
        let mut dead = Vec::new();
        ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
            if o != root && is_removable(ctx, o) && !live.contains(&o) {
                dead.push(o);
            }
        });
        // Outer dead symbols take their nested ones with them.
        let dead_set: HashSet<Op> = dead.iter().copied().collect();
        let mut changed = false;
        for o in dead {
            let mut p = ctx.parent_op(o);
            let mut inside_dead = false;
            while let Some(q) = p {
                inside_dead |= dead_set.contains(&q);
                p = ctx.parent_op(q);
            }
            if !inside_dead {
                ctx.erase_op(o);
                changed = true;
            }
        }
        Ok(changed)
    }
}
