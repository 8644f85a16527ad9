//! `cse`: common subexpression elimination. An op without side effects (the `Pure`
//! trait), regions or successors is replaced by an identical op that dominates it:
//! same name, operands, result types, properties and attributes. An op that only
//! reads memory (`ReadOnly`, a tile load) is replaced by an identical read
//! earlier in its own block with no op between them that may write (any op
//! neither pure, effect-free nor read-only, or holding regions), as MLIR's CSE
//! does with reads.
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

/// The default inherent attributes of each op kind, as (name, value) ids.
type Defaults = HashMap<&'static str, Vec<(u32, u32)>>;

/// Whether `op` may write memory (what ends a block's run of reusable reads):
/// an unregistered op, one with effects, or one whose regions' ops may.
fn may_write(ctx: &Context, op: Op) -> bool {
    let Some(s) = ctx.op_spec(op) else {
        return true;
    };
    if s.has(Traits::PURE) || s.has(Traits::NO_MEMORY_EFFECT) {
        return false;
    }
    if s.has(Traits::READ_ONLY) {
        return !ctx.regions(op).is_empty();
    }
    if s.has(Traits::RECURSIVE_MEMORY_EFFECTS) {
        return ctx.regions(op).iter().any(|r| {
            ctx.region_blocks(*r)
                .any(|b| ctx.block_ops(b).any(|o| may_write(ctx, o)))
        });
    }
    true
}

fn key(ctx: &Context, op: Op, defaults: &mut Defaults) -> Option<Key> {
    let spec = ctx.op_spec(op)?;
    let effects_ok =
        spec.has(Traits::PURE) || spec.has(Traits::NO_MEMORY_EFFECT) || spec.has(Traits::READ_ONLY);
    if !effects_ok
        || !ctx.regions(op).is_empty()
        || !ctx.successors(op).is_empty()
        || ctx.num_results(op) == 0
    {
        return None;
    }
    let d = ctx.op(op);
    let mut k = vec![d.name.0, ctx.operands(op).len() as u32];
    let start = k.len();
    k.extend(ctx.operands(op).iter().map(|v| v.0));
    // Operands of commutative ops compare as multisets, as in MLIR's
    // `OperationEquivalence`.
    if spec.has(Traits::COMMUTATIVE) {
        k[start..].sort_unstable();
    }
    k.extend(ctx.results(op).map(|r| ctx.value_type(r).0));
    // Inherent attributes compare with defaults filled in: a default written out
    // and one left implicit are the same op.
    let mut props: Vec<(u32, u32)> = d
        .props
        .map(|p| {
            ctx.dict_entries(p)
                .iter()
                .map(|(k, v)| (k.0, v.0))
                .collect()
        })
        .unwrap_or_default();
    let defs = defaults.entry(spec.name).or_insert_with(|| {
        spec.attributes
            .iter()
            .filter_map(|a| Some((ctx.ident(a.name).0, a.default?(ctx.uniquer()).0)))
            .collect()
    });
    for &(id, v) in defs.iter() {
        if !props.iter().any(|(k, _)| *k == id) {
            props.push((id, v));
        }
    }
    props.sort_unstable();
    k.push(props.len() as u32);
    for (n, v) in props {
        k.push(n);
        k.push(v);
    }
    for (name, value) in d.attrs.iter() {
        k.push(name.0);
        k.push(value.0);
    }
    Some(k)
}

/// A scoped table of available ops: entries made inside a region are undone
/// when the walk leaves it (MLIR's `ScopedHashTable`), so nested regions cost
/// nothing to enter.
#[derive(Default)]
struct Scoped {
    map: HashMap<Key, Op>,
    log: Vec<(Key, Option<Op>)>,
}

impl Scoped {
    fn insert(&mut self, k: Key, op: Op) {
        let old = self.map.insert(k.clone(), op);
        self.log.push((k, old));
    }
    fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            let (k, old) = self.log.pop().expect("longer than mark");
            match old {
                Some(o) => self.map.insert(k, o),
                None => self.map.remove(&k),
            };
        }
    }
}

/// A block being walked: its ops, the next one, and how to restore the table;
/// the reads available since the block's last possible write.
struct Frame {
    ops: Vec<Op>,
    next: usize,
    mark: usize,
    fresh: bool,
    started: bool,
    reads: HashMap<Key, Op>,
}

impl Pass for Cse {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, op: Op) -> Result<bool, Diagnostic> {
        let mut changed = false;
        let mut tables: Vec<Scoped> = vec![Scoped::default()];
        let mut defaults = Defaults::new();
        let mut frames: Vec<Frame> = Vec::new();
        let push_blocks =
            |ctx: &Context, o: Op, tables: &mut Vec<Scoped>, frames: &mut Vec<Frame>| {
                // Isolated-from-above and unregistered ops start from nothing.
                let fresh = ctx
                    .op_spec(o)
                    .is_none_or(|s| s.has(Traits::ISOLATED_FROM_ABOVE));
                let mark = tables.last().map_or(0, |t| t.log.len());
                let blocks: Vec<Block> = ctx
                    .regions(o)
                    .iter()
                    .flat_map(|r| ctx.region_blocks(*r))
                    .collect();
                for b in blocks.into_iter().rev() {
                    frames.push(Frame {
                        ops: ctx.block_ops(b).collect(),
                        next: 0,
                        mark,
                        fresh,
                        started: false,
                        reads: HashMap::new(),
                    });
                }
            };
        push_blocks(ctx, op, &mut tables, &mut frames);
        while let Some(f) = frames.last_mut() {
            if !f.started {
                f.started = true;
                if f.fresh {
                    tables.push(Scoped::default());
                }
            }
            if f.next == f.ops.len() {
                let f = frames.pop().expect("non-empty");
                if f.fresh {
                    tables.pop();
                } else if let Some(t) = tables.last_mut() {
                    t.undo_to(f.mark);
                }
                continue;
            }
            let o = f.ops[f.next];
            f.next += 1;
            if ctx.is_erased(o) {
                continue;
            }
            // Like MLIR's CSE, drop side-effect-free ops nobody uses on the way.
            if aic::rewrite::is_trivially_dead(ctx, o) {
                ctx.erase_op(o);
                changed = true;
                continue;
            }
            let read = ctx.op_spec(o).is_some_and(|s| s.has(Traits::READ_ONLY));
            if may_write(ctx, o) {
                f.reads.clear();
            }
            if read && let Some(k) = key(ctx, o, &mut defaults) {
                if let Some(&existing) = f.reads.get(&k) {
                    let new: Vec<Value> = ctx.results(existing).collect();
                    ctx.replace_op(o, &new);
                    changed = true;
                    continue;
                }
                f.reads.insert(k, o);
            } else if let Some(k) = key(ctx, o, &mut defaults) {
                let table = tables.last_mut().expect("a scope");
                if let Some(&existing) = table.map.get(&k) {
                    let new: Vec<Value> = ctx.results(existing).collect();
                    ctx.replace_op(o, &new);
                    changed = true;
                    continue;
                }
                table.insert(k, o);
            }
            if !ctx.regions(o).is_empty() {
                push_blocks(ctx, o, &mut tables, &mut frames);
            }
        }
        Ok(changed)
    }
}
