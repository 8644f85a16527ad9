//! Horizontal fusion of the extracted program: sibling kernels whose GEMM
//! reads the same value (Q/K/V projections with their epilogues), or whose
//! reductions read the same value (sibling statistics or normalisations of
//! one tensor), become one multi-result `fusion.group` of kind `horizontal`,
//! which launches once and reads the shared operand once; independent
//! reductions of one form over different tensors (sibling layernorms) are
//! batched into one launch the same way. It runs on the program extraction built
//! rather than in the e-graph, because an e-node has one result and a
//! horizontal kernel several (the e-graph form, one GEMM of concatenated
//! weights sliced per sibling, is the `horizontal-gemm` rule of
//! `fusion.rules`).

use super::cost::{Target, standalone_time, type_bytes};
use super::fuse::{MAX_BODY, MAX_SIBLINGS, Role, is_index_only, role};
use super::{append_yield, build_group_op, short_name};
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use aic_dialects::fusion::{FusionKind, Group, Yield};
use std::collections::{HashMap, HashSet};

/// A kernel that may join siblings: its op, the value its anchor (its one
/// GEMM's first operand, or its reductions' input) reads, and the anchor's
/// role (GEMMs join GEMMs, reductions reductions).
struct Candidate {
    op: Op,
    shared: Value,
    anchor: Role,
}

/// The ops of a kernel's body (a group's region, or the op itself).
fn body_ops(ctx: &Context, op: Op) -> Vec<Op> {
    let Some(g) = Group::of(ctx, op) else {
        return vec![op];
    };
    let Some(b) = ctx.entry_block(g.body(ctx)) else {
        return Vec::new();
    };
    ctx.block_ops(b).filter(|o| !Yield::is(ctx, *o)).collect()
}

/// The kernel `op` as a candidate: one GEMM and no reduction, its first
/// operand an input of the kernel (Q/K/V projections), its output too
/// small to fill `target` alone ([`Target::gemm_alone_elems`]); or no GEMM
/// and reductions that all read one input of the kernel (the statistics of
/// one tensor, sibling normalisations).
fn candidate(ctx: &Context, op: Op, target: &Target) -> Option<Candidate> {
    let ops = body_ops(ctx, op);
    let of_role = |r: Role| -> Vec<Op> {
        ops.iter()
            .copied()
            .filter(|o| role(ctx.op_name(*o)) == r)
            .collect()
    };
    let (gemms, reductions) = (of_role(Role::Gemm), of_role(Role::Reduction));
    let (read, anchor) = match (gemms.as_slice(), reductions.as_slice()) {
        ([g], []) => {
            // A sparse product has no siblings (see `legality`).
            let sparse = usize::from(aic_dialects::graph::SparseMatmul::is(ctx, *g));
            if !crate::legality::sparse_gemms_fit(2, sparse) {
                return None;
            }
            let out = ctx.results(*g).next()?;
            let elems = ctx
                .uniquer()
                .type_kind(ctx.value_type(out))
                .shape()
                .map_or(0.0, |s| s.iter().map(|d| (*d).max(1) as f64).product());
            if elems >= target.gemm_alone_elems {
                return None;
            }
            (*ctx.operands(*g).first()?, Role::Gemm)
        }
        ([], [r, rest @ ..]) => {
            let x = *ctx.operands(*r).first()?;
            if rest.iter().any(|o| ctx.operands(*o).first() != Some(&x)) {
                return None;
            }
            (x, Role::Reduction)
        }
        _ => return None,
    };
    let shared = if let Some(g) = Group::of(ctx, op) {
        // A block argument of the group stands for the group's operand.
        let b = ctx.entry_block(g.body(ctx))?;
        let i = ctx.block_args(b).iter().position(|v| *v == read)?;
        *g.inputs(ctx).get(i)?
    } else {
        read
    };
    Some(Candidate { op, shared, anchor })
}

/// Whether `op` depends on any of `others` through operands defined in its
/// block (a sibling that reads another cannot share its kernel).
fn depends_on(ctx: &Context, op: Op, others: &HashSet<Op>) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![op];
    while let Some(o) = stack.pop() {
        for v in ctx.operands(o) {
            if let Some(d) = ctx.defining_op(*v)
                && seen.insert(d)
            {
                if others.contains(&d) {
                    return true;
                }
                stack.push(d);
            }
        }
    }
    false
}

/// One horizontal kernel made.
pub struct Joined {
    /// How many kernels it replaced.
    pub kernels: usize,
    /// The modelled time saved, seconds.
    pub saving: f64,
    /// HBM bytes saved (reads of the shared operand).
    pub bytes: f64,
    /// Its line in the report.
    pub line: String,
}

/// Join the sibling kernels among `ops` (one block's ops, in order).
pub fn fuse(ctx: &mut Context, ops: &[Op], target: &Target) -> Vec<Joined> {
    let pos: HashMap<Op, usize> = ops.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    let mut buckets: Vec<((Value, Role), Vec<Op>)> = Vec::new();
    let mut reductions: Vec<Op> = Vec::new();
    for &op in ops {
        if let Some(c) = candidate(ctx, op, target) {
            if c.anchor == Role::Reduction {
                reductions.push(op);
            }
            let key = (c.shared, c.anchor);
            match buckets.iter_mut().find(|(k, _)| *k == key) {
                Some((_, m)) => m.push(c.op),
                None => buckets.push((key, vec![c.op])),
            }
        }
    }
    let mut out = Vec::new();
    let mut joined: HashSet<Op> = HashSet::new();
    for ((shared, _), members) in buckets {
        let set = siblings(ctx, &pos, members);
        if set.len() >= 2 {
            let x = type_bytes(ctx.uniquer(), ctx.value_type(shared));
            // The joint kernel saves a launch and a read of the shared
            // operand per sibling beyond the first.
            let saving = (set.len() - 1) as f64 * (target.launch_s + x / target.bytes_per_s);
            joined.extend(set.iter().copied());
            out.push(Joined {
                kernels: set.len(),
                saving,
                bytes: (set.len() - 1) as f64 * x,
                line: join(ctx, &set, saving, target),
            });
        }
    }
    // Independent reductions of the same form over different tensors
    // (sibling layernorms) batch into one launch.
    type Form = Vec<(String, Vec<aic::Type>)>;
    let mut forms: Vec<(Form, Vec<Op>)> = Vec::new();
    for op in reductions {
        if joined.contains(&op) {
            continue;
        }
        let form: Form = body_ops(ctx, op)
            .iter()
            .map(|o| {
                let types = ctx
                    .operands(*o)
                    .iter()
                    .copied()
                    .chain(ctx.results(*o))
                    .map(|v| ctx.value_type(v))
                    .collect();
                (ctx.op_name(*o).to_string(), types)
            })
            .collect();
        match forms.iter_mut().find(|(f, _)| *f == form) {
            Some((_, m)) => m.push(op),
            None => forms.push((form, vec![op])),
        }
    }
    for (_, members) in forms {
        let set = siblings(ctx, &pos, members);
        if set.len() >= 2 {
            let saving = (set.len() - 1) as f64 * target.launch_s;
            out.push(Joined {
                kernels: set.len(),
                saving,
                bytes: 0.0,
                line: join(ctx, &set, saving, target),
            });
        }
    }
    out
}

/// The kernels of `members` (in program order) that can share one kernel,
/// chosen greedily: a member joins while it reads none of the set, its
/// operands are computed before the set's first kernel (where the joint
/// kernel goes), and the body stays small.
fn siblings(ctx: &Context, pos: &HashMap<Op, usize>, members: Vec<Op>) -> Vec<Op> {
    let mut set: Vec<Op> = Vec::new();
    let mut compute = 0;
    for m in members {
        let first = set.first().map_or(pos[&m], |f| pos[f]);
        let in_time = ctx.operands(m).iter().all(|v| {
            ctx.defining_op(*v)
                .is_none_or(|d| pos.get(&d).is_none_or(|p| *p < first))
        });
        let size = body_ops(ctx, m)
            .iter()
            .filter(|o| !is_index_only(ctx.op_name(**o)))
            .count();
        let others: HashSet<Op> = set.iter().copied().collect();
        if set.len() < MAX_SIBLINGS
            && compute + size <= MAX_BODY
            && in_time
            && !depends_on(ctx, m, &others)
        {
            set.push(m);
            compute += size;
        }
    }
    set
}

/// Replace the kernels `set` by one horizontal `fusion.group` before the
/// first; the report line.
fn join(ctx: &mut Context, set: &[Op], saving: f64, target: &Target) -> String {
    let loc = ctx.op(set[0]).loc;
    let mut inputs: Vec<Value> = Vec::new();
    for &m in set {
        for v in ctx.operands(m).to_vec() {
            if !inputs.contains(&v) {
                inputs.push(v);
            }
        }
    }
    let types: Vec<(aic::Type, Option<aic::Attr>)> = inputs
        .iter()
        .map(|v| (ctx.value_type(*v), Some(loc)))
        .collect();
    let block = ctx.create_block(&types);
    let args: Vec<Value> = ctx.block_args(block).to_vec();
    let arg_of = |v: Value| args[inputs.iter().position(|x| *x == v).expect("an input")];
    let mut results: Vec<Value> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut cost = 0.0;
    for &m in set {
        if let Some(g) = Group::of(ctx, m) {
            cost += group_cost(ctx, g);
            let inner = ctx.entry_block(g.body(ctx)).expect("a group has a body");
            let outer: Vec<Value> = g.inputs(ctx).to_vec();
            for (old, v) in ctx.block_args(inner).to_vec().into_iter().zip(outer) {
                ctx.replace_all_uses(old, arg_of(v));
            }
            for o in ctx.block_ops(inner).collect::<Vec<_>>() {
                if let Some(y) = Yield::of(ctx, o) {
                    results.extend(y.results(ctx).iter().copied());
                    continue;
                }
                names.push(short_name(ctx.op_name(o)).to_string());
                ctx.detach_op(o);
                ctx.append_op(block, o);
            }
        } else {
            let kids: Vec<aic::Type> = ctx.operands(m).iter().map(|v| ctx.value_type(*v)).collect();
            let out = ctx.value_type(ctx.result(m, 0));
            cost += standalone_time(ctx.uniquer(), target, ctx.op_name(m), &kids, Some(out));
            let mut map = aic::ir::ValueMap::default();
            for v in ctx.operands(m).to_vec() {
                map.values.insert(v, arg_of(v));
            }
            let o = ctx.clone_op(m, &mut map);
            ctx.append_op(block, o);
            names.push(short_name(ctx.op_name(o)).to_string());
            results.push(ctx.result(o, 0));
        }
    }
    append_yield(ctx, block, loc, &results);
    let joint = (cost - saving).max(0.0);
    let types: Vec<aic::Type> = results.iter().map(|v| ctx.value_type(*v)).collect();
    let group = build_group_op(
        ctx,
        (set[0], loc),
        FusionKind::Horizontal,
        joint,
        &inputs,
        block,
        &types,
    );
    let g = group.op();
    let mut k = 0;
    for &m in set {
        for r in ctx.results(m).collect::<Vec<_>>() {
            ctx.replace_all_uses(r, ctx.result(g, k));
            k += 1;
        }
    }
    for &m in set.iter().rev() {
        ctx.erase_op(m);
    }
    format!(
        "fused horizontal [{}]: {:.3} us, as {} kernels {:.3} us, saving {:.3} us",
        names.join(" "),
        joint * 1e6,
        set.len(),
        cost * 1e6,
        saving * 1e6
    )
}

/// The modelled cost a group records (0 for one without).
fn group_cost(ctx: &Context, g: Group) -> f64 {
    let u = ctx.uniquer();
    g.cost(ctx)
        .and_then(|a| match u.attr_kind(a) {
            aic::AttrKind::Float { bits, .. } => Some(f64::from_bits(*bits as u64)),
            _ => None,
        })
        .unwrap_or(0.0)
}
