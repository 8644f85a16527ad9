//! `cse`: common subexpression elimination. An op without side effects (the `Pure`
//! trait), regions or successors is replaced by an identical op that dominates it:
//! same name, operands, result types, properties and attributes.
//!
//! Scopes follow dominance conservatively: a block sees the ops before it in its
//! block and, through its region's parent op, in the enclosing blocks; each block of
//! a multi-block region starts from its parent's scope only, and isolated-from-above
//! or unregistered ops start a fresh scope.

use aic::dialect::Traits;
use aic::ir::{Block, Context, Op};
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::{Diagnostic, Value};
use std::collections::HashMap;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "cse",
    name: "CSE",
    summary: "Eliminate common sub-expressions",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Box::new(Cse),
};

struct Cse;

/// What makes two ops interchangeable.
type Key = Vec<u32>;

fn key(ctx: &Context, op: Op) -> Option<Key> {
    let spec = ctx.op_spec(op)?;
    if !(spec.has(Traits::PURE) || spec.has(Traits::NO_MEMORY_EFFECT))
        || !ctx.regions(op).is_empty()
        || !ctx.successors(op).is_empty()
        || ctx.num_results(op) == 0
    {
        return None;
    }
    let d = ctx.op(op);
    let mut k = vec![d.name.0, ctx.operands(op).len() as u32];
    k.extend(ctx.operands(op).iter().map(|v| v.0));
    k.extend(ctx.results(op).map(|r| ctx.value_type(r).0));
    k.push(d.props.map_or(u32::MAX, |p| p.0));
    for (name, value) in d.attrs.iter() {
        k.push(name.0);
        k.push(value.0);
    }
    Some(k)
}

impl Pass for Cse {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic> {
        let mut changed = false;
        // (block, scope snapshot): blocks still to process with the table they see.
        let mut work: Vec<(Block, HashMap<Key, Op>)> = Vec::new();
        for &r in ctx.regions(op) {
            for b in ctx.region_blocks(r) {
                work.push((b, HashMap::new()));
            }
        }
        while let Some((b, mut table)) = work.pop() {
            let ops: Vec<Op> = ctx.block_ops(b).collect();
            for o in ops {
                // Like MLIR's CSE, drop side-effect-free ops nobody uses on the way.
                if aic::rewrite::is_trivially_dead(ctx, o) {
                    ctx.erase_op(o);
                    changed = true;
                    continue;
                }
                if let Some(k) = key(ctx, o) {
                    match table.get(&k) {
                        Some(&existing) => {
                            let new: Vec<Value> = ctx.results(existing).collect();
                            ctx.replace_op(o, &new);
                            changed = true;
                            continue;
                        }
                        None => {
                            table.insert(k, o);
                        }
                    }
                }
                let inherit = ctx
                    .op_spec(o)
                    .is_some_and(|s| !s.has(Traits::ISOLATED_FROM_ABOVE));
                for &r in ctx.regions(o) {
                    for nb in ctx.region_blocks(r) {
                        let scope = if inherit {
                            table.clone()
                        } else {
                            HashMap::new()
                        };
                        work.push((nb, scope));
                    }
                }
            }
        }
        Ok(changed)
    }
}
