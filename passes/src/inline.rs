//! `inline`: inline `func.call`s to functions with a single-block body, then erase
//! private functions left without uses, and canonicalise (MLIR's inliner default).
//!
//! As in MLIR, a call or callee marked `no_inline` stays, a callee is only inlined
//! when every op in it belongs to a dialect that allows inlining, and recursion is
//! not unrolled. Callees with several blocks need a branch dialect to be spliced
//! into the caller and are left alone for now. With remarks on (`--aic-remarks`),
//! every call left says why it stays.

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

/// Why a call stays (told in an optimisation remark).
enum NotInlined {
    /// The call is marked `no_inline`.
    CallMarked,
    /// The call names no visible symbol.
    Unresolved,
    /// The callee is another op than `func.func`.
    NotAFunction(Op),
    /// The callee is marked `no_inline`.
    CalleeMarked,
    /// The call sits inside its callee.
    Recursive,
    /// The callee has no body.
    Declaration,
    /// The callee's body has several blocks.
    SeveralBlocks,
    /// The callee holds this op, unregistered or of a dialect that does not allow inlining.
    NotMovable(Op),
}

impl NotInlined {
    /// The reason in words.
    fn describe(&self, ctx: &Context) -> String {
        match self {
            NotInlined::CallMarked => "the call is marked no_inline".into(),
            NotInlined::Unresolved => "no function of that name is visible".into(),
            NotInlined::NotAFunction(f) => {
                format!("the callee is a '{}', not a func.func", ctx.op_name(*f))
            }
            NotInlined::CalleeMarked => "the callee is marked no_inline".into(),
            NotInlined::Recursive => {
                "the call is inside its callee (recursion is not unrolled)".into()
            }
            NotInlined::Declaration => "the callee is a declaration, without a body".into(),
            NotInlined::SeveralBlocks => "the callee has several blocks (not supported yet)".into(),
            NotInlined::NotMovable(o) if ctx.op_spec(*o).is_none() => {
                format!("the callee holds the unregistered op '{}'", ctx.op_name(*o))
            }
            NotInlined::NotMovable(o) => format!(
                "the callee holds '{}', whose dialect does not allow inlining",
                ctx.op_name(*o)
            ),
        }
    }
}

/// The callee to inline at `call`, or why it cannot be.
fn inlinable_callee(ctx: &Context, call: Op) -> Result<Op, NotInlined> {
    if has_unit(ctx, call, "no_inline") {
        return Err(NotInlined::CallMarked);
    }
    let f = ctx
        .find_ident("callee")
        .and_then(|id| ctx.inherent_attr(call, id))
        .and_then(|callee_ref| symbol::lookup_nearest_symbol_from(ctx, call, callee_ref))
        .ok_or(NotInlined::Unresolved)?;
    if ctx.op_name(f) != "func.func" {
        return Err(NotInlined::NotAFunction(f));
    }
    if has_unit(ctx, f, "no_inline") {
        return Err(NotInlined::CalleeMarked);
    }
    // No self-recursion: the call must not sit inside its callee.
    let mut cur = Some(call);
    while let Some(c) = cur {
        if c == f {
            return Err(NotInlined::Recursive);
        }
        cur = ctx.parent_op(c);
    }
    let mut blocks = ctx
        .regions(f)
        .first()
        .map(|&body| ctx.region_blocks(body))
        .into_iter()
        .flatten();
    if blocks.next().is_none() {
        return Err(NotInlined::Declaration);
    }
    if blocks.next().is_some() {
        return Err(NotInlined::SeveralBlocks);
    }
    let mut unmovable = None;
    ctx.walk(f, WalkOrder::PreOrder, &mut |_, o| {
        if o != f && unmovable.is_none() {
            let dialect = ctx.op_name(o).split('.').next().unwrap_or("");
            if ctx.op_spec(o).is_none() || !INLINABLE_DIALECTS.contains(&dialect) {
                unmovable = Some(o);
            }
        }
    });
    unmovable.map_or(Ok(f), |o| Err(NotInlined::NotMovable(o)))
}

/// Remark on every call left in `root`, saying why it stays.
fn remark_on_calls_left(ctx: &Context, root: Op, rounds_exhausted: bool) {
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, call| {
        if ctx.op_name(call) != "func.call" {
            return;
        }
        let why = match inlinable_callee(ctx, call) {
            Err(why) => why.describe(ctx),
            Ok(_) if rounds_exhausted => {
                format!("the inliner stopped after {ROUNDS} rounds (recursion through several functions)")
            }
            // Unreachable in practice: an inlinable call left after a round
            // without change.
            Ok(_) => return,
        };
        let callee = ctx
            .find_ident("callee")
            .and_then(|id| ctx.inherent_attr(call, id))
            .map_or_else(|| "?".to_string(), |a| aic::printer::attr_text(ctx, a));
        ctx.remark(call, format_args!("call to {callee} not inlined: {why}"));
    });
}

/// Rounds of inlining at most (calls exposed by inlining go in the next round).
const ROUNDS: usize = 8;

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
        let mut rounds_exhausted = true;
        for _ in 0..ROUNDS {
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
                if let Ok(f) = inlinable_callee(ctx, call) {
                    inline_call(ctx, call, f);
                    round = true;
                }
            }
            changed |= round;
            if !round {
                rounds_exhausted = false;
                break;
            }
        }
        // One sweep, as MLIR's inliner: a function only a dead one called survives.
        changed |= erase_dead_private_functions(ctx, root);
        let patterns = PatternSet::canonicalization(ctx);
        let (canon, _) = apply_patterns_greedily(ctx, root, &patterns, GreedyConfig::default());
        if ctx.remarks_enabled() {
            remark_on_calls_left(ctx, root, rounds_exhausted);
        }
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
