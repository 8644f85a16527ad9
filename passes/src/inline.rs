//! `inline`: inline `func.call`s to functions with a single-block body, then erase
//! private functions left without uses, and canonicalise (MLIR's inliner default).
//!
//! As in MLIR, a call or callee marked `no_inline` stays, a callee is only inlined
//! when every op in it belongs to a dialect that allows inlining, and recursion is
//! not unrolled. Callees with several blocks need a branch dialect to be spliced
//! into the caller and are left alone for now. With remarks on (`--aic-remarks`),
//! every call left says why it stays.
//!
//! Functions are visited callers first (reverse post-order of the call graph), and
//! each is finished in one go: the calls that inlining exposes are inlined in
//! place, cloning the callee's own body, so a chain of calls costs its length. A
//! function that nothing refers to any more when its turn comes (a private callee
//! inlined everywhere) is not worth inlining into: it is swept. Like an inliner's
//! cost model, `max-size` bounds a function's growth: a call whose inlining would
//! take its function beyond that many ops stays (with a remark), so call trees that
//! double at every level cannot blow up.

use aic::attributes::AttrKind;
use aic::ir::{Context, InsertPoint, Op, ValueMap, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::rewrite::{GreedyConfig, PatternSet, apply_patterns_greedily};
use aic::symbol::{self, SymbolTables, Visibility};
use aic::{Diagnostic, Value};
use aic_dialects::func::{Call, Func, Return};
use std::collections::{HashMap, HashSet, VecDeque};

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

/// Options of the pass.
static OPTIONS: [OptSpec; 1] = [OptSpec {
    name: "max-size",
    kind: OptKind::Int,
    default: "20000",
    range: Some((1, i64::MAX)),
    help: "Leave a call when inlining it would grow its function beyond this many ops",
}];

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "inline",
    name: "Inliner",
    summary: "Inline function calls",
    anchor: None,
    options: &OPTIONS,
    create: |o: &PassOptions| {
        Box::new(Inline {
            max_size: usize::try_from(o.int("max-size")).unwrap_or(0),
        })
    },
};

struct Inline {
    /// Ops a function may grow to by inlining.
    max_size: usize,
}

fn has_unit(ctx: &Context, op: Op, name: &str) -> bool {
    let Some(id) = ctx.find_ident(name) else {
        return false;
    };
    ctx.inherent_attr(op, id)
        .is_some_and(|a| matches!(ctx.attr_kind(a), AttrKind::Unit))
}

/// Why a call stays (told in an optimisation remark).
#[derive(Clone)]
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
    /// The call came from inlining its callee into this function already.
    RecursiveThroughInlining,
    /// The callee has no body.
    Declaration,
    /// The callee's body has several blocks.
    SeveralBlocks,
    /// The callee holds this op, unregistered or of a dialect that does not allow inlining.
    NotMovable(Op),
    /// Inlining would grow the function `caller` to `size` ops, beyond `limit`.
    TooBig {
        caller: Option<Op>,
        size: usize,
        limit: usize,
    },
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
            NotInlined::RecursiveThroughInlining => {
                "the call comes from inlining its callee here already (recursion through several functions is not unrolled)".into()
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
            NotInlined::TooBig {
                caller,
                size,
                limit,
            } => {
                let name = caller
                    .and_then(|f| symbol::symbol_name(ctx, f))
                    .map_or_else(|| "its function".to_string(), |n| format!("@{n}"));
                format!("inlining it would grow {name} to {size} ops, beyond max-size={limit}")
            }
        }
    }
}

/// What the inliner knows about the module: symbol tables and, per callee, the
/// checks that do not depend on the call.
#[derive(Default)]
struct Callees {
    symbols: SymbolTables,
    /// The callee-only verdict for each function looked at.
    movable: HashMap<Op, Result<(), NotInlined>>,
}

impl Callees {
    /// The op a call names, if any.
    fn target(&mut self, ctx: &Context, call: Op) -> Option<Op> {
        let callee_ref = ctx
            .find_ident("callee")
            .and_then(|id| ctx.inherent_attr(call, id))?;
        self.symbols
            .lookup_nearest_symbol_from(ctx, call, callee_ref)
    }

    /// The callee to inline at `call`, or why it cannot be.
    fn inlinable_callee(&mut self, ctx: &Context, call: Op) -> Result<Op, NotInlined> {
        if has_unit(ctx, call, "no_inline") {
            return Err(NotInlined::CallMarked);
        }
        let f = self.target(ctx, call).ok_or(NotInlined::Unresolved)?;
        if !Func::is(ctx, f) {
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
        // Inlining moves only movable ops, so the verdict holds while the
        // callee's body grows.
        self.movable
            .entry(f)
            .or_insert_with(|| movable_body(ctx, f))
            .clone()
            .map(|()| f)
    }
}

/// Whether `f`'s body can be spliced into a caller.
fn movable_body(ctx: &Context, f: Op) -> Result<(), NotInlined> {
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
    unmovable.map_or(Ok(()), |o| Err(NotInlined::NotMovable(o)))
}

/// Remark on every call left in `root`, saying why it stays: `left` holds the
/// reasons found while inlining, the rest are found again here.
fn remark_on_calls_left(ctx: &Context, root: Op, left: &HashMap<Op, NotInlined>) {
    let mut callees = Callees::default();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, call| {
        if !Call::is(ctx, call) {
            return;
        }
        let why = match left.get(&call) {
            Some(why) => why.describe(ctx),
            None => match callees.inlinable_callee(ctx, call) {
                Err(why) => why.describe(ctx),
                // Unreachable in practice: every inlinable call left is in `left`.
                Ok(_) => return,
            },
        };
        let callee = Call(call)
            .callee(ctx)
            .map_or_else(|| "?".to_string(), |a| aic::printer::attr_text(ctx, a));
        ctx.remark(call, format_args!("call to {callee} not inlined: {why}"));
    });
}

/// Inline `f` at `call`; the clones of `f`'s ops, in order.
fn inline_call(ctx: &mut Context, call: Op, f: Op) -> Vec<Op> {
    let entry = ctx.entry_block(Func(f).body(ctx)).expect("checked");
    let mut map = ValueMap::default();
    for (a, v) in ctx
        .block_args(entry)
        .to_vec()
        .into_iter()
        .zip(Call(call).operands(ctx).to_vec())
    {
        map.values.insert(a, v);
    }
    let ops: Vec<Op> = ctx.block_ops(entry).collect();
    let (last, rest) = ops.split_last().expect("a function body ends in a return");
    let mut clones = Vec::with_capacity(rest.len());
    for &o in rest {
        let c = ctx.clone_op(o, &mut map);
        ctx.insert_op(InsertPoint::Before(call), c);
        clones.push(c);
    }
    let returned: Vec<Value> = Return(*last)
        .operands(ctx)
        .iter()
        .map(|v| map.value(*v))
        .collect();
    ctx.replace_op(call, &returned);
    clones
}

/// Ops nested in `op`, not counting `op` itself.
fn nested_ops(ctx: &Context, op: Op) -> usize {
    let mut n = 0usize;
    ctx.walk(op, WalkOrder::PreOrder, &mut |_, _| n += 1);
    n - 1
}

/// The `func.call`s nested in `ops` (the ops themselves included), in order.
fn calls_in(ctx: &Context, ops: &[Op]) -> Vec<Op> {
    let mut calls = Vec::new();
    for &op in ops {
        ctx.walk(op, WalkOrder::PreOrder, &mut |_, o| {
            if Call::is(ctx, o) {
                calls.push(o);
            }
        });
    }
    calls
}

/// The nearest `func.func` that holds `op`.
fn enclosing_function(ctx: &Context, op: Op) -> Option<Op> {
    let mut cur = ctx.parent_op(op);
    while let Some(c) = cur {
        if Func::is(ctx, c) {
            return Some(c);
        }
        cur = ctx.parent_op(c);
    }
    None
}

/// A step of an inlining chain inside one function: the callee whose body a
/// call came from, and the step before (MLIR's inline history).
struct Step {
    callee: Op,
    parent: Option<usize>,
    /// Whether every callee on the chain comes later in visiting order than the
    /// one before: then no callee can repeat on it.
    ascending: bool,
}

/// The inliner's state over one run.
struct Inliner<'a> {
    max_size: usize,
    callees: Callees,
    /// Visiting order of the functions (callers first).
    order: HashMap<Op, usize>,
    /// References to each function, as far as inlining changed them.
    uses: HashMap<Op, usize>,
    /// Ops in each function, kept as inlining grows it.
    size: HashMap<Op, usize>,
    /// Calls left for a reason only inlining knows.
    left: &'a mut HashMap<Op, NotInlined>,
}

impl Inliner<'_> {
    fn size_of(&mut self, ctx: &Context, f: Op) -> usize {
        *self.size.entry(f).or_insert_with(|| nested_ops(ctx, f))
    }

    /// Whether `callee` repeats on the chain ending at `step` of `history`.
    fn on_chain(history: &[Step], step: Option<usize>, callee: Op) -> bool {
        let mut cur = step;
        while let Some(i) = cur {
            if history[i].callee == callee {
                return true;
            }
            cur = history[i].parent;
        }
        false
    }

    /// Inline the calls in `caller` (or those outside any function when
    /// `None`), and the calls that doing so exposes. Whether anything changed.
    fn run_on(&mut self, ctx: &mut Context, caller: Option<Op>, calls: Vec<Op>) -> bool {
        let mut history: Vec<Step> = Vec::new();
        let mut work: VecDeque<(Op, Option<usize>)> =
            calls.into_iter().map(|c| (c, None)).collect();
        let mut changed = false;
        while let Some((call, step)) = work.pop_front() {
            if ctx.is_erased(call) {
                continue;
            }
            let f = match self.callees.inlinable_callee(ctx, call) {
                Ok(f) => f,
                Err(_) => continue,
            };
            let rank = |o: Option<Op>, me: &Self| o.and_then(|o| me.order.get(&o).copied());
            let from = step.map(|i| history[i].callee).or(caller);
            let ascending = step.is_none_or(|i| history[i].ascending)
                && matches!((rank(from, self), rank(Some(f), self)), (Some(a), Some(b)) if a < b);
            if !ascending && Self::on_chain(&history, step, f) {
                self.left.insert(call, NotInlined::RecursiveThroughInlining);
                continue;
            }
            let grows_by = self.size_of(ctx, f).saturating_sub(2);
            if let Some(c) = caller {
                let size = self.size_of(ctx, c);
                if grows_by > 0 && size + grows_by > self.max_size {
                    self.left.insert(
                        call,
                        NotInlined::TooBig {
                            caller,
                            size: size + grows_by,
                            limit: self.max_size,
                        },
                    );
                    continue;
                }
                *self.size.get_mut(&c).expect("sized") += grows_by;
            }
            if let Some(n) = self.uses.get_mut(&f) {
                *n = n.saturating_sub(1);
            }
            let clones = inline_call(ctx, call, f);
            changed = true;
            history.push(Step {
                callee: f,
                parent: step,
                ascending,
            });
            let here = Some(history.len() - 1);
            for c in calls_in(ctx, &clones) {
                if let Some(g) = self.callees.target(ctx, c) {
                    *self.uses.entry(g).or_default() += 1;
                }
                work.push_back((c, here));
            }
        }
        changed
    }
}

impl Pass for Inline {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut left = HashMap::new();
        let mut inliner = Inliner {
            max_size: self.max_size,
            callees: Callees::default(),
            order: HashMap::new(),
            uses: HashMap::new(),
            size: HashMap::new(),
            left: &mut left,
        };
        // Functions already dead are not worth inlining into (MLIR skips them too).
        let graph = CallGraph::new(ctx, root, &mut inliner.callees);
        let dead_before: HashSet<Op> = graph.dead(ctx, &HashSet::new()).into_iter().collect();
        inliner.uses = graph.uses.clone();
        let order = graph.callers_first();
        inliner.order = order.iter().enumerate().map(|(i, &f)| (f, i)).collect();
        let mut changed = inliner.run_on(ctx, None, graph.calls_outside.clone());
        for f in order {
            let dead = symbol::visibility(ctx, f) == Some(Visibility::Private)
                && inliner.uses.get(&f).copied().unwrap_or(0) == 0;
            if dead_before.contains(&f) {
                continue;
            }
            if dead {
                // Its body is as it was: what it refers to loses those uses.
                for t in graph.refs.get(&f).into_iter().flatten() {
                    if let Some(n) = inliner.uses.get_mut(t) {
                        *n = n.saturating_sub(1);
                    }
                }
                continue;
            }
            changed |= inliner.run_on(ctx, Some(f), calls_in(ctx, &[f]));
        }
        // One sweep, as MLIR's inliner: a function only a function dead before
        // the pass called survives. A function dead by inlining (or never
        // inlined into because it was) takes its references with it.
        let graph = CallGraph::new(ctx, root, &mut Callees::default());
        let dead = graph.dead(ctx, &dead_before);
        changed |= !dead.is_empty();
        for f in dead {
            ctx.erase_op(f);
        }
        let patterns = PatternSet::canonicalization(ctx);
        let (canon, _) = apply_patterns_greedily(ctx, root, &patterns, GreedyConfig::default());
        if ctx.remarks_enabled() {
            left.retain(|call, _| !ctx.is_erased(*call));
            remark_on_calls_left(ctx, root, &left);
        }
        Ok(changed | canon)
    }
}

/// The `func.func`s of a module and the symbol references between them.
struct CallGraph {
    /// The functions, in module order.
    functions: Vec<Op>,
    /// For each function, the functions its ops refer to (with repeats).
    refs: HashMap<Op, Vec<Op>>,
    /// References to each function from anywhere.
    uses: HashMap<Op, usize>,
    /// Calls outside any function.
    calls_outside: Vec<Op>,
}

impl CallGraph {
    fn new(ctx: &Context, root: Op, callees: &mut Callees) -> Self {
        let mut g = CallGraph {
            functions: Vec::new(),
            refs: HashMap::new(),
            uses: HashMap::new(),
            calls_outside: Vec::new(),
        };
        ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
            if Func::is(ctx, o) {
                g.functions.push(o);
            }
            let holder = enclosing_function(ctx, o);
            if Call::is(ctx, o) && holder.is_none() {
                g.calls_outside.push(o);
            }
            let mut attrs: Vec<aic::Attr> = ctx.op(o).attrs.iter().map(|(_, v)| *v).collect();
            if let Some(p) = ctx.op(o).props {
                attrs.extend(ctx.dict_entries(p).iter().map(|(_, v)| *v));
            }
            for a in attrs {
                if let AttrKind::SymbolRef { .. } = ctx.attr_kind(a)
                    && let Some(t) = callees.symbols.lookup_nearest_symbol_from(ctx, o, a)
                {
                    *g.uses.entry(t).or_default() += 1;
                    if let Some(h) = holder {
                        g.refs.entry(h).or_default().push(t);
                    }
                }
            }
        });
        g
    }

    /// Private functions with a body that nothing refers to, once the ones
    /// found dead are gone; references from `keep_refs` count even when they
    /// are dead themselves.
    fn dead(&self, ctx: &Context, keep_refs: &HashSet<Op>) -> Vec<Op> {
        let mut uses = self.uses.clone();
        let candidate = |f: Op| {
            symbol::visibility(ctx, f) == Some(Visibility::Private)
                && ctx
                    .regions(f)
                    .first()
                    .is_some_and(|r| ctx.entry_block(*r).is_some())
        };
        let mut work: Vec<Op> = self
            .functions
            .iter()
            .copied()
            .filter(|f| candidate(*f) && uses.get(f).copied().unwrap_or(0) == 0)
            .collect();
        let mut dead = HashSet::new();
        while let Some(f) = work.pop() {
            if !dead.insert(f) || keep_refs.contains(&f) {
                continue;
            }
            for t in self.refs.get(&f).into_iter().flatten() {
                let n = uses.get_mut(t).expect("counted");
                *n -= 1;
                if *n == 0 && candidate(*t) {
                    work.push(*t);
                }
            }
        }
        // Module order, so that erasing is deterministic.
        self.functions
            .iter()
            .copied()
            .filter(|f| dead.contains(f))
            .collect()
    }

    /// The functions, callers before callees where the calls allow (reverse
    /// post-order of a depth-first walk over the references, without recursion).
    fn callers_first(&self) -> Vec<Op> {
        let is_function: HashSet<Op> = self.functions.iter().copied().collect();
        let mut visited = HashSet::new();
        let mut post = Vec::with_capacity(self.functions.len());
        for &start in &self.functions {
            if !visited.insert(start) {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            while let Some((f, next)) = stack.last_mut() {
                let succ = self.refs.get(f).map_or(&[][..], |v| v.as_slice());
                if let Some(&t) = succ.get(*next) {
                    *next += 1;
                    if is_function.contains(&t) && visited.insert(t) {
                        stack.push((t, 0));
                    }
                } else {
                    post.push(*f);
                    stack.pop();
                }
            }
        }
        post.reverse();
        post
    }
}
