//! `inline`: inline `func.call`s to functions with a single-block body, then erase
//! private functions left without uses, and canonicalise (MLIR's inliner default).
//!
//! As in MLIR, a call or callee marked `no_inline` stays, a callee is only inlined
//! when every op in it belongs to a dialect that allows inlining, and recursion is
//! not unrolled. Callees with several blocks need a branch dialect to be spliced
//! into the caller and are left alone for now.

use aic::attributes::AttrKind;
use aic::ir::{Context, InsertPoint, Op, ValueMap, WalkOrder};
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::rewrite::{GreedyConfig, PatternSet, apply_patterns_greedily};
use aic::symbol::{self, Visibility};
use aic::{Diagnostic, Value};

/// Dialects whose ops may be moved into a caller (those with MLIR inliner interfaces).
const INLINABLE_DIALECTS: &[&str] = &[
    "func",
    "arith",
    "math",
    "scf",
    "stablehlo",
    "chlo",
    "graph",
    "fusion",
];

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "inline",
    name: "Inliner",
    summary: "Inline function calls",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Box::new(Inline),
};

struct Inline;

fn has_unit(ctx: &Context, op: Op, name: &str) -> bool {
    let Some(id) = ctx.find_ident(name) else {
        return false;
    };
    ctx.inherent_attr(op, id)
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Unit))
}

/// The callee to inline at `call`, if it can be.
fn inlinable_callee(ctx: &Context, call: Op) -> Option<Op> {
    if has_unit(ctx, call, "no_inline") {
        return None;
    }
    let callee_ref = ctx.inherent_attr(call, ctx.find_ident("callee")?)?;
    let f = symbol::lookup_nearest_symbol_from(ctx, call, callee_ref)?;
    if ctx.op_name(f) != "func.func" || has_unit(ctx, f, "no_inline") {
        return None;
    }
    // No self-recursion: the call must not sit inside its callee.
    let mut cur = Some(call);
    while let Some(c) = cur {
        if c == f {
            return None;
        }
        cur = ctx.parent_op(c);
    }
    let body = *ctx.regions(f).first()?;
    let mut blocks = ctx.region_blocks(body);
    let _entry = blocks.next()?;
    if blocks.next().is_some() {
        return None;
    }
    let mut ok = true;
    ctx.walk(f, WalkOrder::PreOrder, &mut |_, o| {
        if o != f {
            let dialect = ctx.op_name(o).split('.').next().unwrap_or("");
            ok &= ctx.op_spec(o).is_some() && INLINABLE_DIALECTS.contains(&dialect);
        }
    });
    ok.then_some(f)
}

fn inline_call(ctx: &mut Context, call: Op, f: Op) {
    let body = ctx.regions(f)[0];
    let entry = ctx.entry_block(body).expect("checked");
    let mut map = ValueMap::default();
    for (a, v) in ctx
        .block_args(entry)
        .to_vec()
        .into_iter()
        .zip(ctx.operands(call).to_vec())
    {
        map.values.insert(a, v);
    }
    let ops: Vec<Op> = ctx.block_ops(entry).collect();
    let (last, rest) = ops.split_last().expect("a function body ends in a return");
    for &o in rest {
        let c = ctx.clone_op(o, &mut map);
        ctx.insert_op(InsertPoint::Before(call), c);
    }
    let returned: Vec<Value> = ctx.operands(*last).iter().map(|v| map.value(*v)).collect();
    ctx.replace_op(call, &returned);
}

impl Pass for Inline {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut changed = false;
        // Functions already dead are not worth inlining into (MLIR skips them too).
        let dead_before = dead_private_functions(ctx, root);
        // Calls exposed by inlining are inlined in later rounds; recursion through
        // several functions is bounded by the round limit.
        for _ in 0..8 {
            let mut calls = Vec::new();
            ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
                if ctx.op_name(o) == "func.call" {
                    calls.push(o);
                }
            });
            let mut round = false;
            for call in calls {
                if ctx.is_erased(call) || inside_any(ctx, call, &dead_before) {
                    continue;
                }
                if let Some(f) = inlinable_callee(ctx, call) {
                    inline_call(ctx, call, f);
                    round = true;
                }
            }
            changed |= round;
            if !round {
                break;
            }
        }
        // One sweep, as MLIR's inliner: a function only a dead one called survives.
        changed |= erase_dead_private_functions(ctx, root);
        let patterns = PatternSet::canonicalization(ctx);
        let (canon, _) = apply_patterns_greedily(ctx, root, &patterns, GreedyConfig::default());
        Ok(changed | canon)
    }
}

/// Whether `op` is nested in one of `ops`.
fn inside_any(ctx: &Context, op: Op, ops: &[Op]) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(c) = cur {
        if ops.contains(&c) {
            return true;
        }
        cur = ctx.parent_op(c);
    }
    false
}

/// Erase private functions with a body that nothing refers to any more.
fn erase_dead_private_functions(ctx: &mut Context, root: Op) -> bool {
    let dead = dead_private_functions(ctx, root);
    let any = !dead.is_empty();
    for f in dead {
        ctx.erase_op(f);
    }
    any
}

/// Private functions with a body that nothing refers to.
fn dead_private_functions(ctx: &Context, root: Op) -> Vec<Op> {
    let mut used = std::collections::HashSet::new();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
        let mut attrs: Vec<aic::Attr> = ctx.op(o).attrs.iter().map(|(_, v)| *v).collect();
        if let Some(p) = ctx.op(o).props {
            attrs.extend(ctx.dict_entries(p).iter().map(|(_, v)| *v));
        }
        for a in attrs {
            if let AttrKind::SymbolRef { .. } = ctx.attr_kind(a)
                && let Some(t) = symbol::lookup_nearest_symbol_from(ctx, o, a)
            {
                used.insert(t);
            }
        }
    });
    let mut dead = Vec::new();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
        if ctx.op_name(o) == "func.func"
            && symbol::visibility(ctx, o) == Some(Visibility::Private)
            && ctx
                .regions(o)
                .first()
                .is_some_and(|r| ctx.entry_block(*r).is_some())
            && !used.contains(&o)
        {
            dead.push(o);
        }
    });
    dead
}
