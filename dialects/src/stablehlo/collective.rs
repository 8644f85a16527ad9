//! StableHLO's collective ops: `all_gather`, `all_reduce`, `reduce_scatter`,
//! `all_to_all`, `collective_permute`, `collective_broadcast` and
//! `collective_reduce`. Spec, verifier and interpreter semantics together.
//!
//! A collective runs among the processes of its group: the spec's process
//! groups (`cross_replica`, `cross_partition`, `cross_replica_and_partition`,
//! `flattened_ids`) are computed from `replica_groups` (or
//! `source_target_pairs`), `channel_handle` and `use_global_device_ids`, and
//! the operands meet through [`aic::interp::Process::exchange`]. Outside
//! `interpreter.run_parallel` a run is one process (replica 0 of 1), where a
//! group of one gives each op its single-process meaning (`all_reduce` is the
//! identity, `all_gather` the operand, ...). None of them lowers to graph: a
//! compiled program has no other processes to talk to.

use super::attrs::ChannelHandle;
use super::interp::combine_processes;
use super::verify::{R, shape};
use super::{ELEMENTS_ATTR, TENSOR, op};
use crate::kernels::{concat_data, count, map_indices, strides, take};
use aic::constraints::{BOOL_ATTR, I64_ATTR};
use aic::dialect::{Dialect, OpSpec, Traits, ac, tc};
use aic::interp::{Data, IResult, Interp, InterpError, Queue, Tensor, tensor_of_attr};
use aic::ir::{Context, Op};
use aic::verifier::op_error;
use std::collections::HashMap;

type Res = IResult<Vec<Tensor>>;

/// Whether `op` is one of the collectives a launch plan runs as a step
/// between devices (`all_reduce`, `all_gather`, `reduce_scatter`,
/// `all_to_all`, `collective_permute`).
pub fn is_collective(ctx: &Context, op: Op) -> bool {
    use aic::op_def::OpHandle;
    AllReduce::is(ctx, op)
        || AllGather::is(ctx, op)
        || ReduceScatter::is(ctx, op)
        || AllToAll::is(ctx, op)
        || CollectivePermute::is(ctx, op)
}

/// Collectives have effects across processes: not pure, so that nothing
/// folds, moves or drops them.
const fn collective(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        traits: Traits::NONE,
        ..op(name, summary)
    }
}

aic::op! {
    /// `stablehlo.all_gather`: the group's operands concatenated along `all_gather_dim`.
    pub AllGather = ALL_GATHER {
        operands: [operands: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            all_gather_dim: required(I64_ATTR) as i64,
            replica_groups: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
            use_global_device_ids: optional(ac::UNIT) as bool,
        ],
        spec: OpSpec {
            verify: Some(verify_all_gather),
            interpret: Some(all_gather),
            ..collective("stablehlo.all_gather", "AllGather operation")
        },
    }
}

aic::op! {
    /// `stablehlo.all_reduce`: the group's operands reduced element by element.
    pub AllReduce = ALL_REDUCE {
        operands: [operands: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            replica_groups: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
            use_global_device_ids: optional(ac::UNIT) as bool,
        ],
        regions: [computation: sized],
        spec: OpSpec {
            verify: Some(verify_same_shapes),
            interpret: Some(all_reduce),
            ..collective("stablehlo.all_reduce", "AllReduce operation")
        },
    }
}

aic::op! {
    /// `stablehlo.reduce_scatter`: the group's reduction, split along
    /// `scatter_dimension`, each process keeping its part.
    pub ReduceScatter = REDUCE_SCATTER {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            scatter_dimension: required(I64_ATTR) as i64,
            replica_groups: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
            use_global_device_ids: optional(ac::UNIT) as bool,
        ],
        regions: [computation: sized],
        spec: OpSpec {
            verify: Some(verify_reduce_scatter),
            interpret: Some(reduce_scatter),
            ..collective("stablehlo.reduce_scatter", "ReduceScatter operation")
        },
    }
}

aic::op! {
    /// `stablehlo.all_to_all`: each operand split along `split_dimension`,
    /// part `j` sent to the group's `j`-th process, the received parts
    /// concatenated along `concat_dimension`.
    pub AllToAll = ALL_TO_ALL {
        operands: [operands: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            split_dimension: required(I64_ATTR) as i64,
            concat_dimension: required(I64_ATTR) as i64,
            split_count: required(I64_ATTR) as i64,
            replica_groups: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
        ],
        spec: OpSpec {
            verify: Some(verify_all_to_all),
            interpret: Some(all_to_all),
            ..collective("stablehlo.all_to_all", "AllToAll operation")
        },
    }
}

aic::op! {
    /// `stablehlo.collective_permute`: each process receives the operand of
    /// the process that `source_target_pairs` sends to it (zeros if none).
    pub CollectivePermute = COLLECTIVE_PERMUTE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            source_target_pairs: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
        ],
        spec: OpSpec {
            traits: Traits::SAME_OPERANDS_AND_RESULT_TYPE,
            interpret: Some(collective_permute),
            ..collective("stablehlo.collective_permute", "CollectivePermute operation")
        },
    }
}

aic::op! {
    /// `stablehlo.collective_broadcast`: each group's root's operands to all
    /// of the group (zeros for processes in no group). The root is the
    /// group's first process, or with `has_dynamic_root` the last operand
    /// holds, per data operand (or one for all), the root's index in the group.
    pub CollectiveBroadcast = COLLECTIVE_BROADCAST {
        operands: [operands: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            replica_groups: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
            has_dynamic_root: optional(ac::UNIT) as bool,
        ],
        spec: OpSpec {
            verify: Some(verify_collective_broadcast),
            interpret: Some(collective_broadcast),
            ..collective("stablehlo.collective_broadcast", "CollectiveBroadcast operation")
        },
    }
}

aic::op! {
    /// `stablehlo.collective_reduce`: the group's reduction to its first
    /// process (the root); the others get zeros.
    pub CollectiveReduce = COLLECTIVE_REDUCE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            replica_groups: required(ELEMENTS_ATTR),
            channel_handle: optional(ChannelHandle::CONSTRAINT),
        ],
        regions: [computation: sized],
        spec: OpSpec {
            traits: Traits::SAME_OPERANDS_AND_RESULT_TYPE,
            interpret: Some(collective_reduce),
            ..collective("stablehlo.collective_reduce", "CollectiveReduce operation")
        },
    }
}

aic::op! {
    /// `stablehlo.send`: the inputs onto the channel, after the token.
    pub SendOp = SEND {
        operands: [inputs: variadic(tc::ANY), token: one(tc::ANY)],
        results: [result: one(tc::ANY)],
        attributes: [
            channel_handle: required(ChannelHandle::CONSTRAINT),
            is_host_transfer: optional(BOOL_ATTR) as bool,
            source_target_pairs: optional(ELEMENTS_ATTR),
        ],
        spec: OpSpec {
            interpret: Some(send),
            ..collective("stablehlo.send", "Send operation")
        },
    }
}

aic::op! {
    /// `stablehlo.recv`: values off the channel, then a token.
    pub RecvOp = RECV {
        operands: [token: one(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [
            channel_handle: required(ChannelHandle::CONSTRAINT),
            is_host_transfer: optional(BOOL_ATTR) as bool,
            source_target_pairs: optional(ELEMENTS_ATTR),
        ],
        spec: OpSpec {
            interpret: Some(recv),
            ..collective("stablehlo.recv", "Recv operation")
        },
    }
}

aic::op! {
    /// `stablehlo.infeed`: the next infeed values, then a token.
    pub Infeed = INFEED {
        operands: [token: one(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [infeed_config: optional(ac::STRING), layout: optional(ac::ANY)],
        spec: OpSpec {
            interpret: Some(infeed),
            ..collective("stablehlo.infeed", "Infeed operation")
        },
    }
}

aic::op! {
    /// `stablehlo.outfeed`: the inputs to the outfeed, after the token.
    pub Outfeed = OUTFEED {
        operands: [inputs: variadic(tc::ANY), token: one(tc::ANY)],
        results: [result: one(tc::ANY)],
        attributes: [outfeed_config: optional(ac::STRING)],
        spec: OpSpec {
            interpret: Some(outfeed),
            ..collective("stablehlo.outfeed", "Outfeed operation")
        },
    }
}

// ---------------------------------------------------------------- verifiers

fn dim_in_range(ctx: &Context, op: Op, what: &str, d: i64, rank: usize) -> R<()> {
    if d < 0 || d as usize >= rank {
        return Err(op_error(
            ctx,
            op,
            format!("{what} {d} is out of range [0, {rank})"),
        ));
    }
    Ok(())
}

/// The operand and result counts agree (and, for `all_reduce`, the shapes).
fn verify_same_shapes(ctx: &Context, op: Op) -> R<()> {
    let (ops, res) = (ctx.operands(op), ctx.results(op).collect::<Vec<_>>());
    if ops.len() != res.len() {
        return Err(op_error(
            ctx,
            op,
            format!("{} operands but {} results", ops.len(), res.len()),
        ));
    }
    for (a, b) in ops.iter().zip(&res) {
        if let (Some(x), Some(y)) = (shape(ctx, *a), shape(ctx, *b))
            && x != y
        {
            return Err(op_error(
                ctx,
                op,
                format!("operand shape {x:?} and result shape {y:?} differ"),
            ));
        }
    }
    Ok(())
}

fn verify_collective_broadcast(ctx: &Context, op: Op) -> R<()> {
    let c = CollectiveBroadcast(op);
    let data = c.operands(ctx).len() - usize::from(c.has_dynamic_root(ctx).unwrap_or(false));
    if data != c.results(ctx).len() || data == 0 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "{data} data operands (the root index after them with has_dynamic_root) but {} results",
                c.results(ctx).len()
            ),
        ));
    }
    Ok(())
}

fn verify_all_gather(ctx: &Context, op: Op) -> R<()> {
    let g = AllGather(op);
    let d = g.all_gather_dim(ctx).unwrap_or(0);
    for v in g.operands(ctx) {
        if let Some(s) = shape(ctx, *v) {
            dim_in_range(ctx, op, "all_gather_dim", d, s.len())?;
        }
    }
    if g.operands(ctx).len() != g.results(ctx).len() {
        return Err(op_error(ctx, op, "as many results as operands are needed"));
    }
    Ok(())
}

fn verify_reduce_scatter(ctx: &Context, op: Op) -> R<()> {
    let r = ReduceScatter(op);
    if let Some(s) = shape(ctx, r.operand(ctx)) {
        dim_in_range(
            ctx,
            op,
            "scatter_dimension",
            r.scatter_dimension(ctx).unwrap_or(0),
            s.len(),
        )?;
    }
    Ok(())
}

fn verify_all_to_all(ctx: &Context, op: Op) -> R<()> {
    let a = AllToAll(op);
    let n = a.split_count(ctx).unwrap_or(1);
    if n <= 0 {
        return Err(op_error(
            ctx,
            op,
            format!("split_count must be positive, got {n}"),
        ));
    }
    for v in a.operands(ctx) {
        if let Some(s) = shape(ctx, *v) {
            let sd = a.split_dimension(ctx).unwrap_or(0);
            dim_in_range(ctx, op, "split_dimension", sd, s.len())?;
            dim_in_range(
                ctx,
                op,
                "concat_dimension",
                a.concat_dimension(ctx).unwrap_or(0),
                s.len(),
            )?;
            if s[sd as usize] >= 0 && s[sd as usize] % n != 0 {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "dimension {sd} of size {} is not divisible by split_count {n}",
                        s[sd as usize]
                    ),
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- process groups

/// How `replica_groups` name processes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Grouping {
    /// Replica ids; a group per partition.
    CrossReplica,
    /// Partition ids; a group per replica.
    CrossPartition,
    /// Replica ids, each with all partitions.
    CrossReplicaAndPartition,
    /// Flat process ids.
    FlattenedIds,
}

/// Whether `op` has a channel (a `channel_handle` whose handle is above 0).
fn has_channel(ctx: &Context, op: Op) -> bool {
    ctx.op_spec(op)
        .and_then(|s| s.attr(ctx, op, "channel_handle"))
        .and_then(|a| ChannelHandle::of(ctx, a))
        .is_some_and(|c| c.handle > 0)
}

/// The rows of a 2-D integer attribute (`replica_groups`,
/// `source_target_pairs`); `-1` entries pad short rows and are dropped.
fn rows(ctx: &Context, op: Op, name: &str) -> IResult<Vec<Vec<i64>>> {
    let a = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, name))
        .ok_or_else(|| InterpError::at(op, format!("missing '{name}'")))?;
    let aic::attributes::AttrKind::DenseElements { ty, .. } = ctx.attr_kind(a) else {
        return Err(InterpError::at(
            op,
            format!("'{name}' must be dense elements"),
        ));
    };
    let t = tensor_of_attr(ctx, a, *ty)
        .ok_or_else(|| InterpError::at(op, format!("malformed '{name}'")))?;
    let v = t.to_i64s();
    let width = match t.shape.as_slice() {
        [_, w] => *w as usize,
        [] | [_] => v.len(),
        _ => return Err(InterpError::at(op, format!("'{name}' must be 2-D"))),
    };
    if width == 0 {
        return Ok(Vec::new());
    }
    Ok(v.chunks(width)
        .map(|r| r.iter().copied().filter(|x| *x >= 0).collect())
        .collect())
}

/// The process groups (flat ids) `groups` mean under `how`, as the spec
/// computes them for this process's replica and partition.
fn process_groups(
    it: &Interp<'_>,
    op: Op,
    groups: &[Vec<i64>],
    how: Grouping,
) -> IResult<Vec<Vec<usize>>> {
    let p = &it.process;
    let (nr, np) = (p.replicas as i64, p.partitions as i64);
    let bad = |x: i64, n: i64, what: &str| {
        if x < 0 || x >= n {
            Err(InterpError::at(
                op,
                format!("{what} {x} is out of range [0, {n})"),
            ))
        } else {
            Ok(())
        }
    };
    // No groups: one group of all replicas (or partitions, or processes).
    let all = |n: i64| vec![(0..n).collect::<Vec<_>>()];
    let groups: Vec<Vec<i64>> = if groups.iter().all(Vec::is_empty) {
        match how {
            Grouping::CrossPartition => all(np),
            Grouping::FlattenedIds => all(nr * np),
            _ => all(nr),
        }
    } else {
        groups.to_vec()
    };
    let mut out = Vec::new();
    for g in &groups {
        let mut ids = Vec::new();
        match how {
            Grouping::CrossReplica => {
                for r in g {
                    bad(*r, nr, "replica")?;
                    ids.push((r * np) as usize + p.partition);
                }
            }
            Grouping::CrossPartition => {
                for q in g {
                    bad(*q, np, "partition")?;
                    ids.push(p.replica * np as usize + *q as usize);
                }
            }
            Grouping::CrossReplicaAndPartition => {
                for q in 0..np {
                    for r in g {
                        bad(*r, nr, "replica")?;
                        ids.push((r * np + q) as usize);
                    }
                }
            }
            Grouping::FlattenedIds => {
                for x in g {
                    bad(*x, nr * np, "process id")?;
                    ids.push(*x as usize);
                }
            }
        }
        out.push(ids);
    }
    Ok(out)
}

/// The group of this process among `groups`, if any.
fn my_group(it: &Interp<'_>, groups: Vec<Vec<usize>>) -> Option<Vec<usize>> {
    let me = it.process.flat_id();
    groups.into_iter().find(|g| g.contains(&me))
}

/// The grouping of `all_gather`, `all_reduce` and `reduce_scatter`.
fn reduction_grouping(ctx: &Context, op: Op, global: bool) -> Grouping {
    match (has_channel(ctx, op), global) {
        (false, _) => Grouping::CrossReplica,
        (true, false) => Grouping::CrossReplicaAndPartition,
        (true, true) => Grouping::FlattenedIds,
    }
}

/// The grouping of `all_to_all`, `collective_permute` and `collective_broadcast`.
fn channel_grouping(ctx: &Context, op: Op) -> Grouping {
    if has_channel(ctx, op) {
        Grouping::CrossPartition
    } else {
        Grouping::CrossReplica
    }
}

/// How many exchanges this process had with each group: its `n`-th meets
/// the other members' `n`-th, whichever op (or program) they run.
#[derive(Default)]
struct Runs(HashMap<Vec<usize>, u64>);

/// The operands of every process of `group` (this one's being `mine`), in
/// the group's order.
pub(crate) fn exchange(
    it: &mut Interp<'_>,
    op: Op,
    group: &[usize],
    mine: Vec<Tensor>,
) -> IResult<Vec<Vec<Tensor>>> {
    let runs = it.extensions.get_mut::<Runs>();
    let seq = runs.0.entry(group.to_vec()).or_default();
    let n = *seq;
    *seq += 1;
    let ty = it.ctx.value_type(it.ctx.result(op, 0));
    let packed = Tensor {
        ty,
        shape: Vec::new(),
        data: Data::Tuple(mine),
    };
    let all = it.process.exchange(op, n, group, packed)?;
    let all: Vec<Vec<Tensor>> = all
        .into_iter()
        .map(|t| match t.data {
            Data::Tuple(v) => v,
            _ => Vec::new(),
        })
        .collect();
    // The processes of a group must hand in alike values (they may run
    // different programs).
    let me = &all[group
        .iter()
        .position(|g| *g == it.process.flat_id())
        .unwrap_or(0)];
    let alike = |v: &Vec<Tensor>| {
        v.len() == me.len()
            && v.iter()
                .zip(me)
                .all(|(a, b)| a.shape == b.shape && a.elem(it.ctx) == b.elem(it.ctx))
    };
    if !all.iter().all(alike) {
        return Err(InterpError::at(
            op,
            format!("the processes of group {group:?} hand in values of different shapes or types"),
        ));
    }
    Ok(all)
}

/// The group of the op's `replica_groups` this process is in (itself alone
/// where it is in none).
fn group_of(it: &Interp<'_>, op: Op, how: Grouping) -> IResult<Option<Vec<usize>>> {
    let groups = rows(it.ctx, op, "replica_groups")?;
    let pg = process_groups(it, op, &groups, how)?;
    Ok(my_group(it, pg))
}

fn not_in_group(it: &Interp<'_>, op: Op) -> InterpError {
    InterpError::at(
        op,
        format!(
            "process (replica {}, partition {}) is in no group of 'replica_groups'",
            it.process.replica, it.process.partition
        ),
    )
}

// ---------------------------------------------------------------- tensor helpers

/// The slice `[start, start + len)` of `t` along `dim`.
fn slice_along(t: &Tensor, dim: usize, start: i64, len: i64) -> Tensor {
    let mut shape = t.shape.clone();
    shape[dim] = len;
    let st = strides(&t.shape);
    let idx: Vec<Option<usize>> = map_indices(&shape, |i| {
        Some(
            i.iter()
                .enumerate()
                .map(|(k, x)| (if k == dim { x + start } else { *x }) as usize * st[k])
                .sum(),
        )
    })
    .collect();
    Tensor {
        ty: t.ty,
        data: take(&t.data, &idx, None),
        shape,
    }
}

/// `parts` (one shape but along `dim`) joined along `dim`.
fn concat(parts: &[Tensor], dim: usize) -> Tensor {
    let first = &parts[0];
    let mut shape = first.shape.clone();
    shape[dim] = parts.iter().map(|p| p.shape[dim]).sum();
    // Offsets of each part in the parts' concatenated buffers.
    let mut base = Vec::with_capacity(parts.len());
    let mut at = 0;
    for p in parts {
        base.push(at);
        at += p.len();
    }
    let sts: Vec<Vec<usize>> = parts.iter().map(|p| strides(&p.shape)).collect();
    let idx: Vec<Option<usize>> = map_indices(&shape, |i| {
        let (mut k, mut x) = (0, i[dim]);
        while x >= parts[k].shape[dim] {
            x -= parts[k].shape[dim];
            k += 1;
        }
        let lin: usize = i
            .iter()
            .enumerate()
            .map(|(d, v)| (if d == dim { x } else { *v }) as usize * sts[k][d])
            .sum();
        Some(base[k] + lin)
    })
    .collect();
    let all = concat_data(&parts.iter().map(|p| &p.data).collect::<Vec<_>>());
    Tensor {
        ty: first.ty,
        data: take(&all, &idx, None),
        shape,
    }
}

/// Zeros of `like`'s type.
fn zeros(ctx: &Context, like: &Tensor) -> Tensor {
    Tensor {
        ty: like.ty,
        shape: like.shape.clone(),
        data: Data::from_fn(like.elem(ctx), count(&like.shape), |_| 0.0),
    }
}

/// `t` under result `i`'s type.
fn as_result(ctx: &Context, op: Op, i: usize, mut t: Tensor) -> Tensor {
    t.ty = ctx.value_type(ctx.result(op, i));
    t
}

// ---------------------------------------------------------------- semantics

fn all_gather(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let g = AllGather(op);
    let dim = g.all_gather_dim(ctx).unwrap_or(0) as usize;
    let how = reduction_grouping(ctx, op, g.use_global_device_ids(ctx).unwrap_or(false));
    let group = group_of(it, op, how)?.ok_or_else(|| not_in_group(it, op))?;
    let all = exchange(it, op, &group, args.to_vec())?;
    Ok((0..args.len())
        .map(|k| {
            let parts: Vec<Tensor> = all.iter().map(|p| p[k].clone()).collect();
            as_result(ctx, op, k, concat(&parts, dim))
        })
        .collect())
}

fn all_reduce(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = AllReduce(op);
    let how = reduction_grouping(ctx, op, a.use_global_device_ids(ctx).unwrap_or(false));
    let group = group_of(it, op, how)?.ok_or_else(|| not_in_group(it, op))?;
    let all = exchange(it, op, &group, args.to_vec())?;
    // The computation reduces each operand on its own.
    (0..args.len())
        .map(|k| {
            let parts: Vec<Vec<Tensor>> = all.iter().map(|p| vec![p[k].clone()]).collect();
            let t = combine_processes(it, op, a.computation(ctx), &parts)?.remove(0);
            Ok(as_result(ctx, op, k, t))
        })
        .collect()
}

fn reduce_scatter(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let r = ReduceScatter(op);
    let dim = r.scatter_dimension(ctx).unwrap_or(0) as usize;
    let how = reduction_grouping(ctx, op, r.use_global_device_ids(ctx).unwrap_or(false));
    let group = group_of(it, op, how)?.ok_or_else(|| not_in_group(it, op))?;
    let me = it.process.flat_id();
    let pos = group.iter().position(|g| *g == me).unwrap_or(0);
    let all = exchange(it, op, &group, args.to_vec())?;
    let reduced = combine_processes(it, op, r.computation(ctx), &all)?.remove(0);
    let n = group.len() as i64;
    let size = reduced.shape[dim];
    if size % n != 0 {
        return Err(InterpError::at(
            op,
            format!("dimension {dim} of size {size} does not split into {n} parts"),
        ));
    }
    let part = slice_along(&reduced, dim, pos as i64 * (size / n), size / n);
    Ok(vec![as_result(ctx, op, 0, part)])
}

fn all_to_all(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = AllToAll(op);
    let (sd, cd) = (
        a.split_dimension(ctx).unwrap_or(0) as usize,
        a.concat_dimension(ctx).unwrap_or(0) as usize,
    );
    let n = a.split_count(ctx).unwrap_or(1).max(1);
    let group = group_of(it, op, channel_grouping(ctx, op))?.ok_or_else(|| not_in_group(it, op))?;
    if group.len() as i64 != n {
        return Err(InterpError::at(
            op,
            format!("split_count {n} but a group of {} processes", group.len()),
        ));
    }
    let me = it.process.flat_id();
    let pos = group.iter().position(|g| *g == me).unwrap_or(0) as i64;
    let all = exchange(it, op, &group, args.to_vec())?;
    Ok((0..args.len())
        .map(|k| {
            let len = args[k].shape[sd] / n;
            let parts: Vec<Tensor> = all
                .iter()
                .map(|p| slice_along(&p[k], sd, pos * len, len))
                .collect();
            as_result(ctx, op, k, concat(&parts, cd))
        })
        .collect())
}

fn collective_permute(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let how = channel_grouping(ctx, op);
    let pairs = rows(ctx, op, "source_target_pairs")?;
    // Everyone of this process's replica (or partition) meets; each reads its source's operand.
    let p = &it.process;
    let (count_ids, me_id) = match how {
        Grouping::CrossPartition => (p.partitions, p.partition),
        _ => (p.replicas, p.replica),
    };
    let ids: Vec<Vec<i64>> = vec![(0..count_ids as i64).collect()];
    let group = process_groups(it, op, &ids, how)?.remove(0);
    let all = exchange(it, op, &group, args.to_vec())?;
    let source = pairs
        .iter()
        .find(|pr| pr.len() == 2 && pr[1] == me_id as i64)
        .map(|pr| pr[0] as usize);
    let t = match source {
        Some(s) if s < all.len() => all[s][0].clone(),
        _ => zeros(ctx, &args[0]),
    };
    Ok(vec![as_result(ctx, op, 0, t)])
}

fn collective_broadcast(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let dynamic = CollectiveBroadcast(op)
        .has_dynamic_root(ctx)
        .unwrap_or(false);
    let (data, roots) = if dynamic {
        let (d, r) = args.split_at(args.len().saturating_sub(1));
        (d, r.first().map(Tensor::to_i64s).unwrap_or_default())
    } else {
        (args, vec![0])
    };
    let Some(group) = group_of(it, op, channel_grouping(ctx, op))? else {
        return data
            .iter()
            .enumerate()
            .map(|(k, t)| Ok(as_result(ctx, op, k, zeros(ctx, t))))
            .collect();
    };
    let all = exchange(it, op, &group, data.to_vec())?;
    (0..data.len())
        .map(|k| {
            let root = roots.get(k).or(roots.first()).copied().unwrap_or(0);
            let from = usize::try_from(root)
                .ok()
                .and_then(|r| all.get(r))
                .ok_or_else(|| {
                    InterpError::at(
                        op,
                        format!("root {root} is not in a group of {}", all.len()),
                    )
                })?;
            Ok(as_result(ctx, op, k, from[k].clone()))
        })
        .collect()
}

fn collective_reduce(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let c = CollectiveReduce(op);
    let Some(group) = group_of(it, op, channel_grouping(ctx, op))? else {
        return Ok(vec![as_result(ctx, op, 0, zeros(ctx, &args[0]))]);
    };
    let all = exchange(it, op, &group, args.to_vec())?;
    let t = if group[0] == it.process.flat_id() {
        combine_processes(it, op, c.computation(ctx), &all)?.remove(0)
    } else {
        zeros(ctx, &args[0])
    };
    Ok(vec![as_result(ctx, op, 0, t)])
}

/// The grid of this run, for ops that talk to other processes or the host.
fn grid<'a>(it: &'a Interp<'_>, op: Op) -> IResult<&'a aic::interp::Grid> {
    it.process.grid.as_deref().ok_or_else(|| {
        InterpError::at(
            op,
            "no other process or host to talk to (run it under interpreter.run_parallel)",
        )
    })
}

/// The channel of a send or recv.
fn channel(ctx: &Context, op: Op) -> Queue {
    let h = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "channel_handle"))
        .and_then(|a| ChannelHandle::of(ctx, a))
        .map_or(0, |c| c.handle);
    Queue::Channel(h)
}

/// A token (no elements) of result `i`'s type.
fn token(ctx: &Context, op: Op, i: usize) -> Tensor {
    Tensor {
        ty: ctx.value_type(ctx.result(op, i)),
        shape: Vec::new(),
        data: Data::Int(aic::interp::Ints::I64(Vec::new())),
    }
}

/// The inputs (all but the trailing token) as one queued value.
fn packed(ctx: &Context, op: Op, inputs: &[Tensor]) -> Tensor {
    Tensor {
        ty: ctx.value_type(ctx.result(op, 0)),
        shape: Vec::new(),
        data: Data::Tuple(inputs.to_vec()),
    }
}

/// The queued value's tensors as the results but the trailing token.
fn unpacked(ctx: &Context, op: Op, t: Tensor) -> Res {
    let n = ctx.results(op).len();
    let Data::Tuple(mut v) = t.data else {
        return Err(InterpError::at(op, "a malformed queued value"));
    };
    if v.len() + 1 != n {
        return Err(InterpError::at(
            op,
            format!("{} values arrived for {} results", v.len(), n - 1),
        ));
    }
    for (k, x) in v.iter_mut().enumerate() {
        x.ty = ctx.value_type(ctx.result(op, k));
    }
    v.push(token(ctx, op, n - 1));
    Ok(v)
}

fn send(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let value = packed(ctx, op, &args[..args.len() - 1]);
    grid(it, op)?.push(channel(ctx, op), value);
    Ok(vec![token(ctx, op, 0)])
}

fn recv(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let t = grid(it, op)?.pop(op, channel(ctx, op))?;
    unpacked(ctx, op, t)
}

fn infeed(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let t = grid(it, op)?.pop(op, Queue::Infeed)?;
    unpacked(it.ctx, op, t)
}

fn outfeed(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let value = packed(ctx, op, &args[..args.len() - 1]);
    grid(it, op)?.push(Queue::Outfeed, value);
    Ok(vec![token(ctx, op, 0)])
}

/// StableHLO's collective ops.
pub const OPS: &[OpSpec] = &[
    SEND,
    RECV,
    INFEED,
    OUTFEED,
    ALL_GATHER,
    ALL_REDUCE,
    REDUCE_SCATTER,
    ALL_TO_ALL,
    COLLECTIVE_PERMUTE,
    COLLECTIVE_BROADCAST,
    COLLECTIVE_REDUCE,
];

/// The `stablehlo` dialect's collective ops.
pub static COLLECTIVES: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_concatenate_back() {
        let ctx = Context::new(std::sync::Arc::new(crate::all_dialects()));
        let ty = ctx.uniquer().int_type(32);
        let t = Tensor {
            ty,
            shape: vec![2, 6],
            data: Data::from_i64s(aic::interp::Elem::of(&ctx, ty).unwrap(), 0..12),
        };
        let parts: Vec<Tensor> = (0..3).map(|k| slice_along(&t, 1, 2 * k, 2)).collect();
        assert_eq!(parts[1].to_i64s(), vec![2, 3, 8, 9]);
        assert_eq!(concat(&parts, 1), t);
        let rows = concat(&parts, 0);
        assert_eq!(rows.shape, vec![6, 2]);
        assert_eq!(rows.to_i64s()[..4], [0, 1, 6, 7]);
    }
}
