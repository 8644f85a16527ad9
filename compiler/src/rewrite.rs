//! Rewriting: folding hooks, rewrite patterns and MLIR's greedy pattern driver.
//!
//! An op spec may declare a [`FoldFn`] (what its results fold to, given the
//! constant values of its operands) and canonicalisation [`RewritePattern`]s. The
//! greedy driver keeps a worklist of ops and, until nothing changes or the iteration
//! limit is hit, erases trivially dead ops, folds ops (materialising constants
//! through the dialect's hook, uniqued and hoisted to the start of the enclosing
//! isolated region's entry block, as MLIR's `OperationFolder` does) and applies the
//! matching patterns by decreasing benefit. Patterns edit the IR through a
//! [`Rewriter`], which puts every op it touches back on the worklist.

use crate::attributes::{Attr, Ident};
use crate::dialect::Traits;
use crate::intern::FxBuild;
use crate::ir::{Context, InsertPoint, Op, OpState, Value, WalkOrder};
use crate::types::Type;
use smallvec::SmallVec;
use std::collections::HashMap;

/// What one result of a folded op becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldResult {
    /// A constant, materialised by the op's dialect.
    Attr(Attr),
    /// An existing value.
    Value(Value),
}

/// A folding hook: given the op and the constant value of each operand (`None`
/// where not constant), the replacement of every result, or `None` when it does
/// not fold. Returning the op's own results means it was updated in place.
pub type FoldFn = fn(&mut Context, Op, &[Option<Attr>]) -> Option<SmallVec<[FoldResult; 1]>>;

/// Builds the constant op for a folded value (see `Dialect::materialize_constant`).
pub type MaterializeFn = fn(&Context, Attr, Type, Attr) -> Option<OpState>;

/// A rewrite rooted at ops of one name (or any op).
pub trait RewritePattern: Send + Sync {
    /// The op name the pattern matches, `None` for any op.
    fn root(&self) -> Option<&'static str>;
    /// Patterns with higher benefit are tried first.
    fn benefit(&self) -> u16 {
        1
    }
    /// Try to rewrite `op`; `true` when the IR changed (only through `rw`).
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool;
}

/// A pattern written as a function: the shape of most hand-written patterns,
/// declared in one `const` (`FnPattern { root: "scf.if", apply: ..., ..FnPattern::DEFAULT }`).
#[derive(Clone, Copy)]
pub struct FnPattern {
    /// Name, for debugging and documentation.
    pub name: &'static str,
    /// Root op name.
    pub root: &'static str,
    /// Benefit.
    pub benefit: u16,
    /// The rewrite: `true` when it changed the IR.
    pub apply: fn(&mut Rewriter<'_>, Op) -> bool,
}

impl RewritePattern for FnPattern {
    fn root(&self) -> Option<&'static str> {
        Some(self.root)
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool {
        (self.apply)(rw, op)
    }
}

/// A pattern rooted at one op kind, written as a function of its typed handle
/// (see [`op!`](crate::op!)): `OpPattern::<Gemm>::new("GemmOfZero", rewrite)`.
pub struct OpPattern<H> {
    /// Name, for debugging and documentation.
    pub name: &'static str,
    /// Benefit.
    pub benefit: u16,
    /// The rewrite: `true` when it changed the IR.
    pub apply: fn(&mut Rewriter<'_>, H) -> bool,
}

impl<H> OpPattern<H> {
    /// A pattern of benefit 1.
    pub const fn new(name: &'static str, apply: fn(&mut Rewriter<'_>, H) -> bool) -> Self {
        OpPattern {
            name,
            benefit: 1,
            apply,
        }
    }
}

impl<H: crate::op_def::OpHandle + Send + Sync> RewritePattern for OpPattern<H> {
    fn root(&self) -> Option<&'static str> {
        Some(H::SPEC.name)
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool {
        (self.apply)(rw, H::wrap(op))
    }
}

/// Edits the IR on behalf of patterns, telling the driver what changed.
pub struct Rewriter<'c> {
    /// The IR.
    pub ctx: &'c mut Context,
    touched: Vec<Op>,
}

/// A [`Build`](crate::ir::Build) that creates ops through a [`Rewriter`]
/// before an op (so the driver revisits them), with that op's location.
pub struct RewriteBuilder<'r, 'c> {
    /// The rewriter.
    pub rw: &'r mut Rewriter<'c>,
    before: Op,
}

impl crate::ir::Build for RewriteBuilder<'_, '_> {
    fn context(&self) -> &Context {
        self.rw.ctx
    }
    fn location(&self) -> crate::attributes::Attr {
        self.rw.ctx.op(self.before).loc
    }
    fn insert_state(&mut self, st: OpState) -> Op {
        self.rw.create_before(self.before, st)
    }
}

impl<'c> Rewriter<'c> {
    /// A builder that creates ops before `op` through this rewriter.
    pub fn before(&mut self, op: Op) -> RewriteBuilder<'_, 'c> {
        RewriteBuilder {
            rw: self,
            before: op,
        }
    }
}

impl Rewriter<'_> {
    /// Create an op before `before`.
    pub fn create_before(&mut self, before: Op, st: OpState) -> Op {
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(InsertPoint::Before(before), op);
        self.touched.push(op);
        op
    }
    /// Replace the results of `op` by `new` and erase it.
    pub fn replace_op(&mut self, op: Op, new: &[Value]) {
        // The users of the old results see new operands: they may fold now. (Users
        // the new values already had are unaffected.)
        self.note_operand_defs(op);
        let results: Vec<Value> = self.ctx.results(op).collect();
        for r in results {
            for u in self.ctx.uses(r).to_vec() {
                self.touched.push(u.op);
            }
        }
        self.ctx.replace_op(op, new);
    }
    /// Erase `op`, whose results must be unused.
    pub fn erase_op(&mut self, op: Op) {
        self.note_operand_defs(op);
        self.ctx.erase_op(op);
    }
    /// Record that `op` was changed in place.
    pub fn modified(&mut self, op: Op) {
        self.touched.push(op);
    }
    /// Replace every use of `old` by `new`; the users are revisited.
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        for u in self.ctx.uses(old) {
            self.touched.push(u.op);
        }
        self.ctx.replace_all_uses(old, new);
    }
    /// Move the ops of block `b` before `before`, its arguments replaced by
    /// `args` (MLIR's `inlineBlockBefore`); the moved ops are revisited.
    pub fn inline_block_before(&mut self, b: crate::ir::Block, before: Op, args: &[Value]) {
        self.touched.extend(self.ctx.block_ops(b));
        for &a in self.ctx.block_args(b) {
            self.touched.extend(self.ctx.uses(a).iter().map(|u| u.op));
        }
        self.ctx.inline_block(b, InsertPoint::Before(before), args);
    }
    /// Move the ops of block `b` to the end of block `into` (MLIR's `mergeBlocks`).
    pub fn merge_blocks(&mut self, b: crate::ir::Block, into: crate::ir::Block, args: &[Value]) {
        self.touched.extend(self.ctx.block_ops(b));
        for &a in self.ctx.block_args(b) {
            self.touched.extend(self.ctx.uses(a).iter().map(|u| u.op));
        }
        self.ctx.inline_block(b, InsertPoint::End(into), args);
    }
    fn note_operand_defs(&mut self, op: Op) {
        for v in self.ctx.operands(op).to_vec() {
            if let Some(d) = self.ctx.defining_op(v) {
                self.touched.push(d);
            }
        }
    }
}

/// The constant an op stands for, when it is constant-like (its `value` attribute).
pub fn constant_value(ctx: &Context, op: Op) -> Option<Attr> {
    let spec = ctx.op_spec(op)?;
    if !spec.has(Traits::CONSTANT_LIKE) {
        return None;
    }
    spec.attr(ctx, op, "value")
}

/// Whether `op` can be erased when its results are unused: it is not a terminator
/// and has no memory effects (MLIR's `wouldOpBeTriviallyDead`).
pub fn is_trivially_dead(ctx: &Context, op: Op) -> bool {
    ctx.op_spec(op).is_some_and(|s| !s.has(Traits::TERMINATOR))
        && ctx.results(op).all(|r| ctx.uses(r).is_empty())
        && is_effect_free(ctx, op)
}

/// Whether `op` reads and writes no memory: `Pure` or `NoMemoryEffect`, or with
/// `RecursiveMemoryEffects` when everything nested in it is effect-free.
pub fn is_effect_free(ctx: &Context, op: Op) -> bool {
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        let Some(s) = ctx.op_spec(o) else {
            return false;
        };
        if s.has(Traits::PURE) || s.has(Traits::NO_MEMORY_EFFECT) {
            continue;
        }
        if !s.has(Traits::RECURSIVE_MEMORY_EFFECTS) {
            return false;
        }
        for &r in ctx.regions(o) {
            for b in ctx.region_blocks(r) {
                stack.extend(ctx.block_ops(b));
            }
        }
    }
    true
}

/// Whether `op` may be executed where it would not have been (hoisted out of a
/// loop or a branch): `Pure`, or `RecursivelySpeculatable` with everything nested
/// speculatable (MLIR's `isSpeculatable`).
pub fn is_speculatable(ctx: &Context, op: Op) -> bool {
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        let Some(s) = ctx.op_spec(o) else {
            return false;
        };
        if s.has(Traits::PURE) {
            continue;
        }
        if !s.has(Traits::RECURSIVELY_SPECULATABLE) {
            return false;
        }
        for &r in ctx.regions(o) {
            for b in ctx.region_blocks(r) {
                stack.extend(ctx.block_ops(b));
            }
        }
    }
    true
}

/// Patterns grouped by root op name, each list by decreasing benefit.
#[derive(Default)]
pub struct PatternSet {
    by_root: HashMap<&'static str, Vec<&'static dyn RewritePattern>>,
    any: Vec<&'static dyn RewritePattern>,
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a pattern.
    pub fn add(&mut self, p: &'static dyn RewritePattern) {
        let list = match p.root() {
            Some(r) => self.by_root.entry(r).or_default(),
            None => &mut self.any,
        };
        list.push(p);
        list.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
    }
    /// The canonicalisation patterns of every op in the context's registry.
    pub fn canonicalization(ctx: &Context) -> Self {
        let mut s = PatternSet::new();
        for d in ctx.registry().dialects() {
            for op in d.ops {
                for p in op.canonicalize {
                    s.add(*p);
                }
            }
        }
        s
    }
    fn for_op(&self, name: &str) -> impl Iterator<Item = &'static dyn RewritePattern> + '_ {
        self.by_root
            .get(name)
            .into_iter()
            .flatten()
            .chain(self.any.iter())
            .copied()
    }
}

/// How the greedy driver runs.
#[derive(Clone, Copy, Debug)]
pub struct GreedyConfig {
    /// Passes over the IR before giving up on reaching a fixed point.
    pub max_iterations: u32,
    /// Whether to fold ops (and erase trivially dead ones).
    pub fold: bool,
    /// Process ops top-down (parents and earlier ops first) rather than bottom-up.
    pub top_down: bool,
    /// Rewrites allowed per iteration (`None`: a generous bound proportional to the
    /// size of the IR, so that a pattern that always fires cannot loop forever).
    pub max_rewrites: Option<u64>,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            max_iterations: 10,
            fold: true,
            top_down: true,
            max_rewrites: None,
        }
    }
}

/// Apply `patterns` and folding to everything nested in `root` until nothing
/// changes; returns whether anything changed and whether a fixed point was reached.
pub fn apply_patterns_greedily(
    ctx: &mut Context,
    root: Op,
    patterns: &PatternSet,
    config: GreedyConfig,
) -> (bool, bool) {
    let mut folder = ConstantFolder::default();
    let mut changed_any = false;
    for _ in 0..config.max_iterations.max(1) {
        // Unreachable blocks go first, as in MLIR's driver.
        let mut changed = erase_unreachable_blocks(ctx, root);
        let mut all: Vec<Op> = Vec::new();
        let order = if config.top_down {
            WalkOrder::PreOrder
        } else {
            WalkOrder::PostOrder
        };
        ctx.walk(root, order, &mut |_, o| {
            if o != root {
                all.push(o);
            }
        });
        // As MLIR's driver does, constants are uniqued and hoisted in walk order
        // while the worklist is filled, so processing cannot reverse their order.
        let mut worklist: Vec<Op> = Vec::with_capacity(all.len());
        for o in all {
            if ctx.is_erased(o) {
                continue;
            }
            if config.fold
                && let Some(c) = constant_value(ctx, o)
            {
                let mut rw = Rewriter {
                    ctx,
                    touched: Vec::new(),
                };
                if !folder.adopt(&mut rw, o, c) {
                    changed = true;
                    continue;
                }
            }
            worklist.push(o);
        }
        // Popped from the back: top-down runs in walk order; bottom-up pops the
        // post-order list from its end, as MLIR's driver does.
        if config.top_down {
            worklist.reverse();
        }
        // Whether an op is on the worklist, by op index.
        let mut queued = vec![false; ctx.num_ops_allocated()];
        for o in &worklist {
            queued[o.index()] = true;
        }
        // A pattern that always fires would requeue its op forever: bound the work
        // of one iteration (generously) so that such cycles end as non-convergence.
        let mut budget = config
            .max_rewrites
            .map_or(16 * worklist.len() + 1024, |m| m as usize);
        while let Some(op) = worklist.pop() {
            if budget == 0 {
                return (true, false);
            }
            budget -= 1;
            queued[op.index()] = false;
            if ctx.is_erased(op) {
                continue;
            }
            let mut rw = Rewriter {
                ctx,
                touched: Vec::new(),
            };
            let did = process(&mut rw, op, patterns, config, &mut folder);
            changed |= did;
            for t in rw.touched {
                if t.index() >= queued.len() {
                    queued.resize(rw.ctx.num_ops_allocated(), false);
                }
                if !rw.ctx.is_erased(t) && t != root && !queued[t.index()] {
                    queued[t.index()] = true;
                    worklist.push(t);
                }
            }
        }
        changed_any |= changed;
        if !changed {
            return (changed_any, true);
        }
    }
    (changed_any, false)
}

/// Erase the blocks of every multi-block region below `root` that its entry block
/// cannot reach; `true` if any went.
pub fn erase_unreachable_blocks(ctx: &mut Context, root: Op) -> bool {
    let mut regions = Vec::new();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
        for &r in ctx.regions(o) {
            if ctx.region_blocks(r).nth(1).is_some() {
                regions.push(r);
            }
        }
    });
    let mut any = false;
    for r in regions {
        let Some(entry) = ctx.entry_block(r) else {
            continue;
        };
        let mut seen = HashMap::<crate::ir::Block, ()>::new();
        let mut stack = vec![entry];
        seen.insert(entry, ());
        while let Some(b) = stack.pop() {
            let succs: Vec<_> = ctx
                .block_ops(b)
                .flat_map(|o| ctx.successors(o).to_vec())
                .collect();
            for s in succs {
                if seen.insert(s, ()).is_none() {
                    stack.push(s);
                }
            }
        }
        let dead: Vec<_> = ctx
            .region_blocks(r)
            .filter(|b| !seen.contains_key(b))
            .collect();
        if !dead.is_empty() {
            ctx.erase_blocks(&dead);
            any = true;
        }
    }
    any
}

fn process(
    rw: &mut Rewriter<'_>,
    op: Op,
    patterns: &PatternSet,
    config: GreedyConfig,
    folder: &mut ConstantFolder,
) -> bool {
    if config.fold {
        if is_trivially_dead(rw.ctx, op) {
            rw.erase_op(op);
            return true;
        }
        // Constants were made known when the worklist was filled; folding one
        // would only rematerialise it.
        if constant_value(rw.ctx, op).is_some() {
            return false;
        }
        if try_fold(rw, op, folder) {
            return true;
        }
    }
    // Registered names are static; unregistered ops only see root-less patterns.
    let name = rw.ctx.op_spec(op).map_or("", |s| s.name);
    for p in patterns.for_op(name) {
        if p.match_and_rewrite(rw, op) {
            return true;
        }
    }
    false
}

fn try_fold(rw: &mut Rewriter<'_>, op: Op, folder: &mut ConstantFolder) -> bool {
    let Some(fold) = rw.ctx.op_spec(op).and_then(|s| s.fold) else {
        return false;
    };
    let consts: SmallVec<[Option<Attr>; 4]> = rw
        .ctx
        .operands(op)
        .iter()
        .map(|v| {
            rw.ctx
                .defining_op(*v)
                .and_then(|d| constant_value(rw.ctx, d))
        })
        .collect();
    let Some(results) = fold(rw.ctx, op, &consts) else {
        // MLIR's `Commutative` fold: constants move to the right-hand side.
        let commutative = rw
            .ctx
            .op_spec(op)
            .is_some_and(|s| s.has(Traits::COMMUTATIVE));
        if commutative && consts.len() == 2 && consts[0].is_some() && consts[1].is_none() {
            let ops = rw.ctx.operands(op).to_vec();
            rw.ctx.set_operands(op, &[ops[1], ops[0]]);
            rw.modified(op);
            return true;
        }
        return false;
    };
    let own: SmallVec<[Value; 2]> = rw.ctx.results(op).collect();
    if results.len() == own.len()
        && results
            .iter()
            .zip(&own)
            .all(|(r, o)| *r == FoldResult::Value(*o))
    {
        rw.modified(op);
        return true;
    }
    let mut values = Vec::with_capacity(results.len());
    for (r, o) in results.iter().zip(&own) {
        match r {
            FoldResult::Value(v) => values.push(*v),
            FoldResult::Attr(a) => {
                let ty = rw.ctx.value_type(*o);
                match folder.materialize(rw, op, *a, ty) {
                    Some(v) => values.push(v),
                    None => return false,
                }
            }
        }
    }
    rw.replace_op(op, &values);
    true
}

/// The block constants used by `op` are materialised in: the entry block of the
/// region of the closest isolated-from-above ancestor (MLIR's
/// `OperationFolder::getInsertionRegion`).
pub fn constant_insertion_block(ctx: &Context, op: Op) -> Option<crate::ir::Block> {
    ConstantFolder::insertion_block(ctx, op)
}

/// The constant op `dialect` materialises for `value` of type `ty` (its
/// `materialize_constant` hook), not yet created.
pub fn materialize_constant(
    ctx: &Context,
    dialect: &str,
    value: Attr,
    ty: Type,
    loc: Attr,
) -> Option<OpState> {
    let registry = ctx.registry().clone();
    let d = registry.dialects().iter().find(|d| d.name == dialect)?;
    (d.materialize_constant?)(ctx, value, ty, loc)
}

/// Uniqued constants per insertion block, like MLIR's `OperationFolder`.
#[derive(Default)]
struct ConstantFolder {
    /// (entry block of the insertion region, dialect, value, type) -> constant op.
    known: HashMap<(u32, Ident, Attr, Type), Op, FxBuild>,
    /// Constants the folder owns (uniqued or materialised by it): a constant placed
    /// right after one of them is in place.
    owned: std::collections::HashSet<Op, FxBuild>,
}

impl ConstantFolder {
    /// The block constants near `op` go to: the entry block of the region of the
    /// closest isolated-from-above ancestor (or the outermost region).
    fn insertion_block(ctx: &Context, op: Op) -> Option<crate::ir::Block> {
        let mut cur = op;
        loop {
            let parent = ctx.parent_op(cur);
            let isolated = parent.is_none_or(|p| {
                ctx.op_spec(p)
                    .is_none_or(|s| s.has(Traits::ISOLATED_FROM_ABOVE))
            });
            if isolated {
                let r = ctx.block_parent(ctx.parent_block(cur)?)?;
                return ctx.entry_block(r);
            }
            cur = parent.expect("checked");
        }
    }

    fn key(
        ctx: &Context,
        block: crate::ir::Block,
        op: Op,
        value: Attr,
    ) -> Option<(u32, Ident, Attr, Type)> {
        let dialect = ctx.op_name(op).split('.').next()?;
        let ty = ctx.value_type(ctx.results(op).next()?);
        Some((block.0, ctx.ident(dialect), value, ty))
    }

    /// An existing constant op (MLIR's `OperationFolder::insertKnownConstant`):
    /// replaced by an equal one the folder knows (`false`), or made known and moved
    /// to the front of its insertion block unless it is already at the front or
    /// right after another owned constant (`true`).
    fn adopt(&mut self, rw: &mut Rewriter<'_>, op: Op, value: Attr) -> bool {
        let Some(block) = Self::insertion_block(rw.ctx, op) else {
            return true;
        };
        let Some(op_block) = rw.ctx.parent_block(op) else {
            return true;
        };
        let after_owned = |ctx: &Context, owned: &std::collections::HashSet<Op, FxBuild>| {
            ctx.prev_op(op).is_some_and(|p| owned.contains(&p))
        };
        if self.owned.contains(&op) {
            if rw.ctx.first_op(op_block) != Some(op) && !after_owned(rw.ctx, &self.owned) {
                Self::move_to_front(rw.ctx, op, op_block);
                rw.ctx.op_mut(op).loc = rw.ctx.unknown_loc();
            }
            return true;
        }
        let Some(k) = Self::key(rw.ctx, block, op, value) else {
            return true;
        };
        if let Some(&existing) = self.known.get(&k)
            && !rw.ctx.is_erased(existing)
            && existing != op
        {
            let v: Vec<Value> = rw.ctx.results(existing).collect();
            rw.replace_op(op, &v);
            rw.ctx.op_mut(existing).loc = rw.ctx.unknown_loc();
            return false;
        }
        if op_block != block {
            Self::move_to_front(rw.ctx, op, block);
            rw.ctx.op_mut(op).loc = rw.ctx.unknown_loc();
        } else if rw.ctx.first_op(block) != Some(op) && !after_owned(rw.ctx, &self.owned) {
            Self::move_to_front(rw.ctx, op, block);
        }
        self.known.insert(k, op);
        self.owned.insert(op);
        true
    }

    fn move_to_front(ctx: &mut Context, op: Op, block: crate::ir::Block) {
        ctx.detach_op(op);
        match ctx.first_op(block) {
            Some(f) => ctx.insert_op(InsertPoint::Before(f), op),
            None => ctx.insert_op(InsertPoint::End(block), op),
        }
    }

    /// The value of a constant for `op`'s result of type `ty`, materialised by
    /// `op`'s dialect right before `op`. As in MLIR's greedy driver it is neither
    /// uniqued nor hoisted now: the next iteration's walk does that, so constants
    /// end up in the order they were folded.
    fn materialize(
        &mut self,
        rw: &mut Rewriter<'_>,
        op: Op,
        value: Attr,
        ty: Type,
    ) -> Option<Value> {
        let dialect_name = rw.ctx.op_name(op).split('.').next()?.to_string();
        let registry = rw.ctx.registry().clone();
        let dialect = registry
            .dialects()
            .iter()
            .find(|d| d.name == dialect_name)?;
        let st = (dialect.materialize_constant?)(rw.ctx, value, ty, rw.ctx.op(op).loc)?;
        let c = rw.create_before(op, st);
        rw.ctx.results(c).next()
    }
}
