//! Splitting a group no generator takes whole, around its contractions.
//!
//! A group holding a matmul (or a convolution, or a group norm) among other
//! ops that its template declines (a RoPE epilogue's slices and concat, a
//! prologue on A of a long warpgroup-MMA K loop, sibling GEMMs on warpgroup
//! MMA) would have the general generator run the contraction on scalars. It
//! is split instead, by *levels*: a contraction's level is one more than the
//! highest level it reads, any other op's the highest it reads, and an op
//! that reads no contraction at all (a broadcast of a bias, a cast of a
//! weight) takes the lowest level of its users, so it lands where it is used
//! and a view is never materialised on its own. The ops of one level that
//! are not contractions fall into connected pieces (by def-use); each piece
//! that reads exactly one contraction of its own level is that
//! contraction's epilogue and joins it, every other piece is a group of its
//! own (a prologue, a SwiGLU product of two GEMMs), and so is every
//! contraction. The pieces are ordered by level, so no group reads one made
//! after it.
//!
//! Where the groups so formed would be the whole group again (one
//! contraction with its epilogue, which its template declined), the
//! epilogue is detached: the contraction alone and its epilogue as a group
//! of its own. Each new group then goes through the generators like any
//! other (and may be split again).

use super::*;
use aic_dialects::graph::{self, Class};

/// Whether `o` is an op its own template computes with loops the general
/// generator must not nest: a contraction or a group norm.
fn heavy(ctx: &Context, o: Op) -> bool {
    graph::semantics(ctx.op_name(o)).is_some_and(|s| s.class == Class::Contraction)
        || graph::Groupnorm::is(ctx, o)
}

/// The piece (union-find root in `p`) op `i` is in.
fn root(p: &[usize], mut i: usize) -> usize {
    while p[i] != i {
        i = p[i];
    }
    i
}

/// `group` split by levels (see the module's comment) into groups placed
/// before it, which is erased; gives the new groups, or `None` (nothing
/// done) where the group holds no contraction or would not be split.
pub(super) fn split_levels(ctx: &mut Context, group: Op) -> Option<Vec<Op>> {
    let b = ctx
        .regions(group)
        .first()
        .and_then(|r| ctx.entry_block(*r))?;
    let ops: Vec<Op> = ctx
        .block_ops(b)
        .filter(|o| !fusion::Yield::is(ctx, *o))
        .collect();
    if !ops.iter().any(|o| heavy(ctx, *o)) || ops.len() < 2 {
        return None;
    }
    let index: HashMap<Op, usize> = ops.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    let producer = |v: Value| ctx.defining_op(v).and_then(|d| index.get(&d).copied());
    // Forward: levels from the contractions read.
    let mut level: Vec<Option<i64>> = vec![None; ops.len()];
    for (i, &o) in ops.iter().enumerate() {
        let read = ctx
            .operands(o)
            .iter()
            .filter_map(|v| producer(*v).and_then(|p| level[p]))
            .max();
        level[i] = if heavy(ctx, o) {
            Some(read.unwrap_or(0) + 1)
        } else {
            read
        };
    }
    // Backward: an op reading no contraction goes where it is used.
    for i in (0..ops.len()).rev() {
        if level[i].is_some() {
            continue;
        }
        let mut at: Option<i64> = None;
        for r in ctx.results(ops[i]) {
            for u in ctx.uses(r) {
                let want = match index.get(&u.op).copied() {
                    Some(j) if heavy(ctx, ops[j]) => level[j].map(|l| l - 1),
                    Some(j) => level[j],
                    // The yield: a result of the group.
                    None => Some(0),
                };
                at = match (at, want) {
                    (Some(a), Some(w)) => Some(a.min(w)),
                    (a, w) => a.or(w),
                };
            }
        }
        level[i] = Some(at.unwrap_or(0));
    }
    let level: Vec<i64> = level.into_iter().map(|l| l.unwrap_or(0)).collect();
    // Pieces: the non-contractions of one level joined by def-use.
    let mut piece: Vec<usize> = (0..ops.len()).collect();
    for (i, &o) in ops.iter().enumerate() {
        if heavy(ctx, o) {
            continue;
        }
        for v in ctx.operands(o) {
            if let Some(p) = producer(*v)
                && !heavy(ctx, ops[p])
                && level[p] == level[i]
            {
                let (a, c) = (root(&piece, p), root(&piece, i));
                piece[a] = c;
            }
        }
    }
    let mut parts = partition(ctx, &ops, &level, &piece, &producer, true);
    if parts.len() == 1 {
        parts = partition(ctx, &ops, &level, &piece, &producer, false);
    }
    if parts.len() == 1 {
        return None;
    }
    Some(rebuild(ctx, group, &ops, &parts))
}

/// The parts (op indices, in order) of the split, ordered so that no part
/// reads a later one: pieces of level `l` after the contractions of level
/// `l` (with the epilogues that join them where `attach`).
fn partition(
    ctx: &Context,
    ops: &[Op],
    level: &[i64],
    piece: &[usize],
    producer: &dyn Fn(Value) -> Option<usize>,
    attach: bool,
) -> Vec<Vec<usize>> {
    // Each piece's key: the contraction it joins, or itself.
    let mut owner: HashMap<usize, usize> = HashMap::new();
    for (i, &o) in ops.iter().enumerate() {
        if !heavy(ctx, o) {
            let r = root(piece, i);
            owner.entry(r).or_insert(r);
        }
    }
    if attach {
        // The contractions of its own level each piece reads.
        let mut reads: HashMap<usize, HashSet<usize>> = HashMap::new();
        for (i, &o) in ops.iter().enumerate() {
            if heavy(ctx, o) {
                continue;
            }
            let r = root(piece, i);
            for v in ctx.operands(o) {
                if let Some(p) = producer(*v)
                    && heavy(ctx, ops[p])
                    && level[p] == level[i]
                {
                    reads.entry(r).or_default().insert(p);
                }
            }
        }
        for (r, cs) in reads {
            if cs.len() == 1 {
                owner.insert(r, *cs.iter().next().expect("one contraction"));
            }
        }
    }
    // Parts by key, in order: (level, contraction parts first), then source order.
    let mut parts: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, &o) in ops.iter().enumerate() {
        let key = if heavy(ctx, o) {
            i
        } else {
            owner[&root(piece, i)]
        };
        parts.entry(key).or_default().push(i);
    }
    let mut parts: Vec<(usize, Vec<usize>)> = parts.into_iter().collect();
    parts.sort_by_key(|(key, members)| {
        let contraction = heavy(ctx, ops[*key]);
        (level[*key] * 2 - i64::from(contraction), members[0])
    });
    parts.into_iter().map(|(_, m)| m).collect()
}

/// Replace `group` by one group per part (each cloning its ops, reading the
/// group's operands and the earlier parts' results, yielding what later
/// parts or the group's results read); gives the new groups.
fn rebuild(ctx: &mut Context, group: Op, ops: &[Op], parts: &[Vec<usize>]) -> Vec<Op> {
    let b = ctx
        .regions(group)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .expect("a group has a body");
    // Values of the old body as values outside it.
    let mut outer: HashMap<Value, Value> = HashMap::new();
    for (a, v) in ctx
        .block_args(b)
        .to_vec()
        .into_iter()
        .zip(ctx.operands(group).to_vec())
    {
        outer.insert(a, v);
    }
    let part_of: HashMap<Op, usize> = parts
        .iter()
        .enumerate()
        .flat_map(|(p, m)| m.iter().map(move |i| (ops[*i], p)))
        .collect();
    let mut made = Vec::new();
    for (p, members) in parts.iter().enumerate() {
        let mine: Vec<Op> = members.iter().map(|i| ops[*i]).collect();
        // Inputs: values read from outside the part.
        let mut ins: Vec<Value> = Vec::new();
        for &o in &mine {
            for v in ctx.operands(o).to_vec() {
                let inside = ctx
                    .defining_op(v)
                    .is_some_and(|d| part_of.get(&d) == Some(&p));
                if !inside && !ins.contains(&v) {
                    ins.push(v);
                }
            }
        }
        // Results: values read outside the part (later parts, the yield).
        let mut outs: Vec<Value> = Vec::new();
        for &o in &mine {
            for r in ctx.results(o).collect::<Vec<_>>() {
                if ctx.uses(r).iter().any(|u| part_of.get(&u.op) != Some(&p)) {
                    outs.push(r);
                }
            }
        }
        let operands: Vec<Value> = ins.iter().map(|v| outer[v]).collect();
        let g = group_of(ctx, &mine, &ins, &operands, &outs, group);
        for (i, v) in outs.iter().enumerate() {
            outer.insert(*v, ctx.result(g, i));
        }
        made.push(g);
    }
    let y = ctx
        .block_ops(b)
        .find(|o| fusion::Yield::is(ctx, *o))
        .expect("a group's yield");
    let ys = ctx.operands(y).to_vec();
    for (i, v) in ys.into_iter().enumerate() {
        let old = ctx.result(group, i);
        ctx.replace_all_uses(old, outer[&v]);
    }
    ctx.erase_op(group);
    made
}
