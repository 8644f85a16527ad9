//! `sccp`: sparse conditional constant propagation, as MLIR's pass does it. A
//! forward data-flow analysis gives every value a lattice value (not yet known,
//! a constant of some dialect, or overdefined) while it discovers which regions
//! can run: region-branching ops ([`aic::dialect::RegionBranch`]) only enter the
//! regions their constant operands allow, and join the values their terminators
//! forward. Then values proven constant are replaced by constants materialised
//! at the top of the enclosing isolated region, and ops left dead are erased.
//!
//! Calls are followed into private functions whose every use is a `func.call`
//! (their arguments join the call operands, the calls' results join what they
//! return; with no live call they stay dead); other functions are entered with
//! overdefined arguments, and calls to them return overdefined results.

use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::attributes::{Attr, Ident};
use aic::dialect::{BranchPoint, Traits, forwarded_operands};
use aic::ir::{Block, Context, InsertPoint, Op, Region, Value};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo};
use aic::rewrite::{
    FoldResult, constant_insertion_block, constant_value, is_trivially_dead, materialize_constant,
};
use aic::symbol;
use aic::types::Type;
use aic_dialects::func::{Call, Func, Return};
use std::collections::{HashMap, HashSet, VecDeque};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "sccp",
    name: "SCCP",
    summary: "Sparse Conditional Constant Propagation",
    anchor: None,
    options: &[],
    create: |_| Box::new(Sccp),
};

struct Sccp;

impl Pass for Sccp {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic> {
        let mut solver = Solver::default();
        solver.run(ctx, op);
        Ok(rewrite(ctx, op, &solver))
    }
}

/// What is known of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lattice {
    /// Not reached yet (the bottom).
    Unknown,
    /// Always this constant, as materialised by this dialect.
    Constant(Attr, Ident),
    /// Any value (the top).
    Overdefined,
}

impl Lattice {
    fn join(self, other: Lattice) -> Lattice {
        match (self, other) {
            (Lattice::Unknown, x) | (x, Lattice::Unknown) => x,
            (a, b) if a == b => a,
            _ => Lattice::Overdefined,
        }
    }
}

#[derive(Default)]
struct Solver {
    values: HashMap<Value, Lattice>,
    live_blocks: HashSet<Block>,
    work: VecDeque<Op>,
    queued: HashSet<Op>,
    /// Private functions only ever called directly, with their calls.
    internal: HashMap<Op, Vec<Op>>,
    /// The internal function each call calls.
    callee: HashMap<Op, Op>,
}

impl Solver {
    fn get(&self, v: Value) -> Lattice {
        self.values.get(&v).copied().unwrap_or(Lattice::Unknown)
    }

    /// Join `l` into the lattice of `v`; its users are revisited on change.
    fn join(&mut self, ctx: &Context, v: Value, l: Lattice) {
        let old = self.get(v);
        let new = old.join(l);
        if new != old {
            self.values.insert(v, new);
            for u in ctx.uses(v) {
                self.enqueue(ctx, u.op);
            }
        }
    }

    fn enqueue(&mut self, ctx: &Context, op: Op) {
        let live = ctx
            .parent_block(op)
            .is_some_and(|b| self.live_blocks.contains(&b));
        if live && self.queued.insert(op) {
            self.work.push_back(op);
        }
    }

    /// Find the private functions all of whose uses are direct calls.
    fn find_internal_functions(&mut self, ctx: &Context, root: Op) {
        let mut funcs: HashMap<&str, Vec<Op>> = HashMap::new();
        let mut refs: HashMap<Ident, usize> = HashMap::new();
        let mut calls: Vec<(Op, Ident)> = Vec::new();
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if Func::is(ctx, o)
                && symbol::visibility(ctx, o) == Some(symbol::Visibility::Private)
                && let Some(n) = symbol::symbol_name(ctx, o)
            {
                funcs.entry(n).or_default().push(o);
            }
            let mut found_refs = Vec::new();
            let d = ctx.op(o);
            if let Some(p) = d.props {
                symbol::symbol_refs(ctx, p, &mut found_refs);
            }
            for (_, v) in d.attrs.iter() {
                symbol::symbol_refs(ctx, *v, &mut found_refs);
            }
            // Symbols by the name they are rooted at.
            let found: Vec<Ident> = found_refs
                .iter()
                .filter_map(|r| match ctx.attr_kind(*r) {
                    AttrKind::SymbolRef { root, .. } => Some(*root),
                    _ => None,
                })
                .collect();
            for r in &found {
                *refs.entry(*r).or_default() += 1;
            }
            if Call::is(ctx, o)
                && let Some(&callee) = found.first()
            {
                calls.push((o, callee));
            }
        });
        let mut by_name: HashMap<Ident, usize> = HashMap::new();
        for (_, c) in &calls {
            *by_name.entry(*c).or_default() += 1;
        }
        for (name, fs) in funcs {
            let id = ctx.ident(name);
            // Ambiguous names and other uses (references taken) keep callers unknown.
            if fs.len() != 1 || refs.get(&id) != by_name.get(&id) {
                continue;
            }
            let f = fs[0];
            let cs: Vec<Op> = calls
                .iter()
                .filter(|(_, c)| *c == id)
                .map(|(o, _)| *o)
                .collect();
            for &c in &cs {
                self.callee.insert(c, f);
            }
            self.internal.insert(f, cs);
        }
    }

    fn run(&mut self, ctx: &Context, root: Op) {
        self.find_internal_functions(ctx, root);
        // The top-level regions run, with arguments from outside.
        for &r in ctx.regions(root) {
            self.mark_region_live(ctx, r, true);
        }
        while let Some(op) = self.work.pop_front() {
            self.queued.remove(&op);
            self.visit(ctx, op);
        }
    }

    /// Make the blocks of `r` live (its entry, and what its branches reach).
    /// With `args_overdefined`, the entry arguments come from outside.
    fn mark_region_live(&mut self, ctx: &Context, r: Region, args_overdefined: bool) {
        let Some(entry) = ctx.entry_block(r) else {
            return;
        };
        if args_overdefined {
            for &a in ctx.block_args(entry) {
                self.join(ctx, a, Lattice::Overdefined);
            }
        }
        self.mark_block_live(ctx, entry);
    }

    fn mark_block_live(&mut self, ctx: &Context, b: Block) {
        if !self.live_blocks.insert(b) {
            return;
        }
        // Arguments of other blocks come from branches this analysis does not
        // interpret.
        let entry = ctx.block_parent(b).and_then(|r| ctx.entry_block(r)) == Some(b);
        if !entry {
            for &a in ctx.block_args(b) {
                self.join(ctx, a, Lattice::Overdefined);
            }
        }
        for o in ctx.block_ops(b) {
            self.enqueue(ctx, o);
        }
    }

    fn visit(&mut self, ctx: &Context, op: Op) {
        for &s in ctx.successors(op) {
            self.mark_block_live(ctx, s);
        }
        let spec = ctx.op_spec(op);
        if let Some(rb) = spec.and_then(|s| s.region_branch) {
            // Which regions run depends on operands not reached yet: wait.
            if self.any_unknown(ctx, op) {
                return;
            }
            let consts = self.operand_constants(ctx, op);
            for to in (rb.successors)(ctx, op, BranchPoint::Parent, &consts) {
                let range = (rb.entry_operands)(ctx, op, to);
                let forwarded = ctx.operands(op).get(range).unwrap_or_default().to_vec();
                self.forward(ctx, op, to, &forwarded);
            }
            // Results the regions do not forward are computed otherwise.
            if !rb.forwards_results {
                for r in ctx.results(op) {
                    self.join(ctx, r, Lattice::Overdefined);
                }
            }
            return;
        }
        if !ctx.regions(op).is_empty() {
            for r in ctx.results(op) {
                self.join(ctx, r, Lattice::Overdefined);
            }
            // Functions with known callers run when a call does.
            if !self.internal.contains_key(&op) {
                for &r in ctx.regions(op) {
                    self.mark_region_live(ctx, r, true);
                }
            }
            return;
        }
        if let Some(&f) = self.callee.get(&op) {
            self.visit_call(ctx, op, f);
            return;
        }
        if spec.is_some_and(|s| s.has(Traits::TERMINATOR)) {
            self.visit_terminator(ctx, op);
            return;
        }
        self.visit_plain(ctx, op);
    }

    /// Values flow along the edge into `to`: the inputs of a region (which becomes
    /// live) or the results of `op`.
    fn forward(&mut self, ctx: &Context, op: Op, to: BranchPoint, values: &[Value]) {
        let Some(rb) = ctx.op_spec(op).and_then(|s| s.region_branch) else {
            return;
        };
        let inputs = rb.inputs(ctx, op, to);
        for (i, input) in inputs.iter().enumerate() {
            let l = values.get(i).map_or(Lattice::Overdefined, |v| self.get(*v));
            self.join(ctx, *input, l);
        }
        if let BranchPoint::Region(i) = to {
            let r = ctx.regions(op)[i];
            if let Some(entry) = ctx.entry_block(r) {
                // Entry arguments that receive nothing (induction variables) vary.
                let range = (rb.region_inputs)(ctx, op, i);
                for (k, &a) in ctx.block_args(entry).iter().enumerate() {
                    if !range.contains(&k) {
                        self.join(ctx, a, Lattice::Overdefined);
                    }
                }
            }
            self.mark_region_live(ctx, r, false);
        }
    }

    fn visit_terminator(&mut self, ctx: &Context, term: Op) {
        let Some(parent) = ctx.parent_op(term) else {
            return;
        };
        if let Some(calls) = self.internal.get(&parent) {
            if let Some(ret) = Return::of(ctx, term) {
                let vals: Vec<Lattice> = ret.operands(ctx).iter().map(|v| self.get(*v)).collect();
                for c in calls.clone() {
                    for (r, l) in ctx.results(c).zip(&vals) {
                        self.join(ctx, r, *l);
                    }
                }
            }
            return;
        }
        let Some(rb) = ctx.op_spec(parent).and_then(|s| s.region_branch) else {
            return;
        };
        let Some(range) = forwarded_operands(ctx, term) else {
            return;
        };
        let Some(region) = ctx.parent_block(term).and_then(|b| ctx.block_parent(b)) else {
            return;
        };
        let Some(i) = ctx.regions(parent).iter().position(|r| *r == region) else {
            return;
        };
        if self.any_unknown(ctx, term) {
            return;
        }
        let consts = self.operand_constants(ctx, term);
        let values = ctx.operands(term).get(range).unwrap_or_default().to_vec();
        for to in (rb.successors)(ctx, parent, BranchPoint::Region(i), &consts) {
            self.forward(ctx, parent, to, &values);
        }
    }

    /// A live call of an internal function: the callee runs with the call's
    /// operands, and the call returns what its live returns return.
    fn visit_call(&mut self, ctx: &Context, call: Op, f: Op) {
        let body = Func(f).body(ctx);
        let Some(entry) = ctx.entry_block(body) else {
            for r in ctx.results(call) {
                self.join(ctx, r, Lattice::Overdefined);
            }
            return;
        };
        let args = ctx.block_args(entry).to_vec();
        for (a, v) in args.iter().zip(Call(call).operands(ctx)) {
            let l = self.get(*v);
            self.join(ctx, *a, l);
        }
        self.mark_region_live(ctx, body, false);
        let blocks: Vec<Block> = ctx.region_blocks(body).collect();
        for b in blocks {
            if !self.live_blocks.contains(&b) {
                continue;
            }
            if let Some(ret) = ctx.last_op(b).and_then(|t| Return::of(ctx, t)) {
                let vals: Vec<Lattice> = ret.operands(ctx).iter().map(|v| self.get(*v)).collect();
                for (r, l) in ctx.results(call).zip(vals) {
                    self.join(ctx, r, l);
                }
            }
        }
    }

    fn any_unknown(&self, ctx: &Context, op: Op) -> bool {
        ctx.operands(op)
            .iter()
            .any(|v| self.get(*v) == Lattice::Unknown)
    }

    /// The constant each operand is known to be (`None` otherwise).
    fn operand_constants(&self, ctx: &Context, op: Op) -> Vec<Option<Attr>> {
        ctx.operands(op)
            .iter()
            .map(|v| match self.get(*v) {
                Lattice::Constant(a, _) => Some(a),
                _ => None,
            })
            .collect()
    }

    fn visit_plain(&mut self, ctx: &Context, op: Op) {
        let results: Vec<Value> = ctx.results(op).collect();
        if results.is_empty() {
            return;
        }
        let dialect = ctx.ident(ctx.op_name(op).split('.').next().unwrap_or(""));
        if let Some(c) = constant_value(ctx, op) {
            for r in results {
                self.join(ctx, r, Lattice::Constant(c, dialect));
            }
            return;
        }
        // Operands not reached yet: wait for them.
        if self.any_unknown(ctx, op) {
            return;
        }
        let Some(fold) = ctx.op_spec(op).and_then(|s| s.fold) else {
            for r in results {
                self.join(ctx, r, Lattice::Overdefined);
            }
            return;
        };
        let consts = self.operand_constants(ctx, op);
        // Folders may update ops in place; the constants given need not be the
        // op's real operands, so the fold runs on a scratch copy of the op.
        let mut scratch = Context::with_uniquer(ctx.uniquer().clone(), ctx.registry().clone());
        let copy = {
            let d = ctx.op(op);
            let mut st = aic::ir::OpState::new(d.name, d.loc);
            let mut seen: HashMap<Value, Value> = HashMap::new();
            for &v in ctx.operands(op) {
                // The same value stays the same (`x - x`).
                let p = *seen
                    .entry(v)
                    .or_insert_with(|| scratch.create_placeholder(ctx.value_type(v)));
                st.operands.push(p);
            }
            st.result_types
                .extend(results.iter().map(|r| ctx.value_type(*r)));
            st.attrs = d.attrs.clone();
            st.props = d.props;
            scratch.create_op(st)
        };
        let folded = fold(&mut scratch, copy, &consts);
        let copy_results: Vec<Value> = scratch.results(copy).collect();
        let copy_operands = scratch.operands(copy).to_vec();
        match folded {
            Some(fr) if fr.len() == results.len() => {
                for ((r, f), own) in results.iter().zip(fr).zip(&copy_results) {
                    let l = match f {
                        FoldResult::Attr(a) => Lattice::Constant(a, dialect),
                        // Folded to one of its operands: that operand's value.
                        FoldResult::Value(v) => match copy_operands.iter().position(|o| *o == v) {
                            Some(i) if v != *own => self.get(ctx.operands(op)[i]),
                            _ => Lattice::Overdefined,
                        },
                    };
                    self.join(ctx, *r, l);
                }
            }
            _ => {
                for r in results {
                    self.join(ctx, r, Lattice::Overdefined);
                }
            }
        }
    }
}

/// Replace values proven constant, walking blocks as MLIR's SCCP does; constants
/// are uniqued per insertion block and created at its front.
fn rewrite(ctx: &mut Context, root: Op, solver: &Solver) -> bool {
    let mut created: HashMap<(Block, Ident, Attr, Type), Value> = HashMap::new();
    let mut changed = false;
    let mut blocks: Vec<Block> = Vec::new();
    let push_regions = |ctx: &Context, op: Op, blocks: &mut Vec<Block>| {
        for &r in ctx.regions(op) {
            let bs: Vec<Block> = ctx.region_blocks(r).collect();
            blocks.extend(bs.into_iter().rev());
        }
    };
    push_regions(ctx, root, &mut blocks);
    while let Some(b) = blocks.pop() {
        let ops: Vec<Op> = ctx.block_ops(b).collect();
        for op in ops {
            let results: Vec<Value> = ctx.results(op).collect();
            let mut all = !results.is_empty();
            for r in results {
                all &= replace_with_constant(ctx, solver, r, op, &mut created, &mut changed);
            }
            if all && is_trivially_dead(ctx, op) {
                ctx.erase_op(op);
                changed = true;
                continue;
            }
            push_regions(ctx, op, &mut blocks);
        }
        let args = ctx.block_args(b).to_vec();
        if let Some(first) = ctx.first_op(b) {
            for a in args {
                replace_with_constant(ctx, solver, a, first, &mut created, &mut changed);
            }
        }
    }
    changed
}

fn replace_with_constant(
    ctx: &mut Context,
    solver: &Solver,
    v: Value,
    near: Op,
    created: &mut HashMap<(Block, Ident, Attr, Type), Value>,
    changed: &mut bool,
) -> bool {
    let Lattice::Constant(a, dialect) = solver.get(v) else {
        return false;
    };
    let ty = ctx.value_type(v);
    let Some(block) = constant_insertion_block(ctx, near) else {
        return false;
    };
    let key = (block, dialect, a, ty);
    let c = match created.get(&key) {
        Some(c) => *c,
        None => {
            let loc = ctx.unknown_loc();
            let Some(st) = materialize_constant(ctx, ctx.str(dialect), a, ty, loc) else {
                return false;
            };
            let op = ctx.create_op(st);
            match ctx.first_op(block) {
                Some(f) => ctx.insert_op(InsertPoint::Before(f), op),
                None => ctx.insert_op(InsertPoint::End(block), op),
            }
            let c = ctx.result(op, 0);
            created.insert(key, c);
            c
        }
    };
    if !ctx.uses(v).is_empty() {
        *changed = true;
    }
    ctx.replace_all_uses(v, c);
    true
}
