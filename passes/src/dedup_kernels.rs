//! `dedup-kernels`: one `tile.kernel` for each set of identical ones, which
//! every launch of them then runs.
//!
//! A model of repeated layers (a 12-layer encoder) fuses into the same groups
//! in every layer, and fusion-to-tile makes a kernel per group: twelve copies
//! of each, which tile-to-gpu, coord-to-arith and LLVM would each lower again.
//! Two kernels are the same when they print the same but for their names
//! (body, types and attributes such as the kernel kind and FLOP count); the
//! first in the module stays, the others are erased, and the launches that
//! named them name it.

use aic::Diagnostic;
use aic::attributes::Attr;
use aic::ir::{Context, Op, WalkOrder};
use aic::op_def::{FromAttr, OpHandle};
use aic::pass::{Pass, PassInfo, PassOptions};
use aic_dialects::tile;
use std::collections::HashMap;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "dedup-kernels",
    name: "DedupKernels",
    summary: "Merge identical tile kernels into one that all their launches run",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Box::new(DedupKernels),
};

struct DedupKernels;

impl Pass for DedupKernels {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let Some(body) = ctx.regions(root).first().and_then(|r| ctx.entry_block(*r)) else {
            return Ok(false);
        };
        let kernels: Vec<Op> = ctx
            .block_ops(body)
            .filter(|o| tile::Kernel::is(ctx, *o))
            .collect();
        // Each kernel's text without its name, to the first kernel printing
        // so; each other kernel's name, to a reference to that first one.
        let u = ctx.uniquer().clone();
        let mut first: HashMap<String, Attr> = HashMap::new();
        let mut renamed: HashMap<String, Attr> = HashMap::new();
        let mut dead = Vec::new();
        for k in kernels {
            let Some(name) = aic::symbol::symbol_name(ctx, k).map(str::to_string) else {
                continue;
            };
            let text = aic::op_printer::print_op(ctx, k, aic::op_printer::PrintOptions::default());
            let key = text.replacen(&format!("@{name}"), "@", 1);
            match first.get(&key) {
                Some(keep) => {
                    renamed.insert(name, *keep);
                    dead.push(k);
                }
                None => {
                    first.insert(key, u.flat_symbol_ref(&name));
                }
            }
        }
        if dead.is_empty() {
            return Ok(false);
        }
        let mut ops = Vec::new();
        ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| ops.push(o));
        let attr = ctx.ident("kernel");
        for o in ops {
            let keep = tile::Launch::of(ctx, o)
                .and_then(|l| l.kernel(ctx))
                .and_then(|k| String::from_attr(ctx, k))
                .and_then(|name| renamed.get(&name).copied());
            if let Some(keep) = keep {
                ctx.set_inherent_attr(o, attr, keep);
            }
        }
        for k in dead {
            ctx.erase_op(k);
        }
        Ok(true)
    }
}
