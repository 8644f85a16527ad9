//! Moving a value from one layout to another with StableHLO collectives
//! (see the pass's documentation for the order of the steps).

use super::{Dist, Partitioner, shards, with_shape};
use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::interp::{Tensor, attr_of_tensor};
use aic::ir::{Builder, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::{DialectObject, Type, TypeKind};
use aic_dialects::stablehlo::attrs::ChannelHandle;
use aic_dialects::stablehlo::collective::{AllGather, AllReduce, AllToAll, ReduceScatter};
use aic_dialects::stablehlo::structured::{PartitionId, Return};
use aic_dialects::stablehlo::{
    Add, BroadcastInDim, Constant, Convert, DynamicSlice, Maximum, Minimum, Reshape,
};

/// How partial values combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// `stablehlo.add`
    Sum,
    /// `stablehlo.maximum`
    Max,
    /// `stablehlo.minimum`
    Min,
}

impl Reduction {
    /// The reduction binary op `op` computes, if it is one of these.
    pub fn of_op(ctx: &Context, op: Op) -> Option<Reduction> {
        use aic_dialects::stablehlo::{Add, Maximum, Minimum};
        if Add::is(ctx, op) {
            Some(Reduction::Sum)
        } else if Maximum::is(ctx, op) {
            Some(Reduction::Max)
        } else if Minimum::is(ctx, op) {
            Some(Reduction::Min)
        } else {
            None
        }
    }
}

impl Partitioner<'_> {
    /// `v` (laid out as its [`Dist`]) laid out with `to` axes per dimension
    /// and no pending reduction, made before `at`.
    pub(crate) fn reshard(
        &mut self,
        ctx: &mut Context,
        at: Op,
        v: Value,
        to: &[Vec<String>],
    ) -> Result<Value, Diagnostic> {
        let from = self.dist_of(ctx, v);
        if from.dims == to && from.partial.is_none() {
            return Ok(v);
        }
        let key = (v, to.to_vec());
        let top = ctx.parent_block(at) == Some(self.entry);
        if top && let Some(hit) = self.cache.get(&key) {
            return Ok(*hit);
        }
        let mut cur = from.clone();
        cur.partial = None;
        let mut val = v;
        if let Some((axes, kind)) = &from.partial {
            // A reduce_scatter where the target splits a dimension along
            // exactly the pending axes.
            let scatter = (kind == &Reduction::Sum)
                .then(|| {
                    (0..to.len()).find(|d| {
                        &to[*d] == axes
                            && cur.dims[*d].is_empty()
                            && cur.local(self.mesh)[*d] % shards(self.mesh, axes) == 0
                    })
                })
                .flatten();
            val = match scatter {
                Some(d) => {
                    let r = self.reduce_scatter(ctx, at, val, &cur, d, axes);
                    cur.dims[d] = axes.clone();
                    r
                }
                None => self.all_reduce(ctx, at, val, axes, *kind),
            };
            self.dist.insert(val, cur.clone());
        }
        // Axes moving between dimensions: all_to_all.
        for d1 in 0..to.len() {
            let axes = cur.dims[d1].clone();
            if axes.is_empty() || to[d1] == axes {
                continue;
            }
            let Some(d2) = (0..to.len()).find(|d2| {
                *d2 != d1
                    && to[*d2] == axes
                    && cur.dims[*d2].is_empty()
                    && to[d1].is_empty()
                    && cur.local(self.mesh)[*d2] % shards(self.mesh, &axes) == 0
            }) else {
                continue;
            };
            val = self.all_to_all(ctx, at, val, &cur, d1, d2, &axes);
            cur.dims[d1].clear();
            cur.dims[d2] = axes;
            self.dist.insert(val, cur.clone());
        }
        // Axes a dimension loses: all_gather.
        for (d, want) in to.iter().enumerate() {
            if cur.dims[d].is_empty() || &cur.dims[d] == want {
                continue;
            }
            let axes = std::mem::take(&mut cur.dims[d]);
            val = self.all_gather(ctx, at, val, &cur, d, &axes);
            self.dist.insert(val, cur.clone());
        }
        // Axes a dimension gains: this device's slice.
        for (d, want) in to.iter().enumerate() {
            if want.is_empty() || &cur.dims[d] == want {
                continue;
            }
            let mut next = cur.clone();
            next.dims[d] = want.clone();
            val = self.slice(ctx, at, val, &cur, &next, d);
            cur = next;
            self.dist.insert(val, cur.clone());
        }
        if top {
            self.cache.insert(key, val);
        }
        Ok(val)
    }

    fn channel(&mut self, ctx: &Context) -> Attr {
        self.channels += 1;
        ctx.uniquer()
            .attr(AttrKind::Dialect(DialectObject::new(ChannelHandle {
                handle: self.channels,
                kind: 1,
            })))
    }

    /// The device groups of a collective along `axes`: devices alike on the
    /// other axes, each group in shard order along `axes` (major first).
    fn groups(&self, ctx: &Context, axes: &[String]) -> Attr {
        let mesh = self.mesh;
        let ids = mesh.ids();
        let others: Vec<usize> = (0..mesh.axes.len())
            .filter(|k| !axes.contains(&mesh.axes[*k].0))
            .collect();
        // Per group: the other axes' coordinates, and (shard index, device id)
        // of each member.
        type Group = (Vec<i64>, Vec<(i64, i64)>);
        let mut groups: Vec<Group> = Vec::new();
        for p in 0..mesh.devices() {
            let key: Vec<i64> = others.iter().map(|k| mesh.coord(p, *k)).collect();
            let mut idx = 0;
            for a in axes {
                let k = mesh.axis_index(a).expect("checked axes");
                idx = idx * mesh.axes[k].1 + mesh.coord(p, k);
            }
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.1.push((idx, ids[p as usize])),
                None => groups.push((key, vec![(idx, ids[p as usize])])),
            }
        }
        let rows: Vec<Vec<i64>> = groups
            .into_iter()
            .map(|(_, mut m)| {
                m.sort();
                m.into_iter().map(|x| x.1).collect()
            })
            .collect();
        let u = ctx.uniquer();
        let ty = u.ty(TypeKind::Tensor {
            shape: [rows.len() as i64, rows[0].len() as i64]
                .into_iter()
                .collect(),
            elem: u.int_type(64),
            encoding: None,
        });
        attr_of_tensor(u, &Tensor::from_i64s(u, ty, rows.into_iter().flatten()))
    }

    fn typed(&self, ctx: &Context, v: Value, d: &Dist) -> Type {
        with_shape(ctx, ctx.value_type(v), &d.local(self.mesh))
    }

    fn all_reduce(
        &mut self,
        ctx: &mut Context,
        at: Op,
        v: Value,
        axes: &[String],
        kind: Reduction,
    ) -> Value {
        let groups = self.groups(ctx, axes);
        let ch = self.channel(ctx);
        let ty = ctx.value_type(v);
        let unit = ctx.uniquer().attr(AttrKind::Unit);
        let mut b = Builder::before(ctx, at);
        let op = AllReduce::build(&mut b, &[v], groups, Some(ch), Some(unit), &[ty]).0;
        self.combiner(ctx, op, ty, kind);
        ctx.result(op, 0)
    }

    /// Fill the (empty) combining region of a collective.
    fn combiner(&self, ctx: &mut Context, op: Op, ty: Type, kind: Reduction) {
        let elem = ctx.type_kind(ty).element_type().unwrap_or(ty);
        let scalar = with_shape(ctx, ty, &[]);
        let _ = elem;
        let loc = ctx.op(op).loc;
        let block = ctx.create_block(&[(scalar, Some(loc)), (scalar, Some(loc))]);
        let region = ctx.regions(op)[0];
        ctx.append_block(region, block);
        let args = ctx.block_args(block).to_vec();
        let mut b = Builder::at_end(ctx, block);
        let r = match kind {
            Reduction::Sum => Add::build(&mut b, args[0], args[1], scalar).0,
            Reduction::Max => Maximum::build(&mut b, args[0], args[1], scalar).0,
            Reduction::Min => Minimum::build(&mut b, args[0], args[1], scalar).0,
        };
        let out = b.ctx.result(r, 0);
        Return::build(&mut b, &[out]);
    }

    fn reduce_scatter(
        &mut self,
        ctx: &mut Context,
        at: Op,
        v: Value,
        cur: &Dist,
        d: usize,
        axes: &[String],
    ) -> Value {
        let groups = self.groups(ctx, axes);
        let ch = self.channel(ctx);
        let mut next = cur.clone();
        next.dims[d] = axes.to_vec();
        let ty = self.typed(ctx, v, &next);
        let u = ctx.uniquer().clone();
        let dim = int64(&u, d as i64);
        let unit = u.attr(AttrKind::Unit);
        let mut b = Builder::before(ctx, at);
        let op = ReduceScatter::build(&mut b, v, dim, groups, Some(ch), Some(unit), ty).0;
        self.combiner(ctx, op, ty, Reduction::Sum);
        ctx.result(op, 0)
    }

    fn all_gather(
        &mut self,
        ctx: &mut Context,
        at: Op,
        v: Value,
        after: &Dist,
        d: usize,
        axes: &[String],
    ) -> Value {
        let groups = self.groups(ctx, axes);
        let ch = self.channel(ctx);
        let ty = self.typed(ctx, v, after);
        let u = ctx.uniquer().clone();
        let dim = int64(&u, d as i64);
        let unit = u.attr(AttrKind::Unit);
        let mut b = Builder::before(ctx, at);
        let op = AllGather::build(&mut b, &[v], dim, groups, Some(ch), Some(unit), &[ty]).0;
        ctx.result(op, 0)
    }

    #[allow(clippy::too_many_arguments)]
    fn all_to_all(
        &mut self,
        ctx: &mut Context,
        at: Op,
        v: Value,
        cur: &Dist,
        d1: usize,
        d2: usize,
        axes: &[String],
    ) -> Value {
        let groups = self.groups(ctx, axes);
        let ch = self.channel(ctx);
        let mut next = cur.clone();
        next.dims[d1].clear();
        next.dims[d2] = axes.to_vec();
        let ty = self.typed(ctx, v, &next);
        let u = ctx.uniquer().clone();
        let n = shards(self.mesh, axes);
        let mut b = Builder::before(ctx, at);
        let op = AllToAll::build(
            &mut b,
            &[v],
            int64(&u, d2 as i64),
            int64(&u, d1 as i64),
            int64(&u, n),
            groups,
            Some(ch),
            &[ty],
        )
        .0;
        ctx.result(op, 0)
    }

    /// This device's partition id as a `tensor<i32>`, made once at the
    /// function's entry.
    fn partition(&mut self, ctx: &mut Context) -> Value {
        if let Some(p) = self.pid {
            return p;
        }
        let u = ctx.uniquer().clone();
        let ui32 = u.ty(TypeKind::Integer {
            width: 32,
            signedness: aic::types::Signedness::Unsigned,
        });
        let i32s = with_shape(
            ctx,
            u.ty(TypeKind::Tensor {
                shape: Default::default(),
                elem: u.int_type(32),
                encoding: None,
            }),
            &[],
        );
        let u32s = u.ty(TypeKind::Tensor {
            shape: Default::default(),
            elem: ui32,
            encoding: None,
        });
        let mut b = match ctx.first_op(self.entry) {
            Some(first) => Builder::before(ctx, first),
            None => Builder::at_end(ctx, self.entry),
        };
        let id = PartitionId::build(&mut b, u32s).0;
        let id = b.ctx.result(id, 0);
        let c = Convert::build(&mut b, id, i32s).0;
        let v = b.ctx.result(c, 0);
        self.pid = Some(v);
        v
    }

    /// This device's part of dimension `d` (`next` adds its axes to `cur`).
    fn slice(
        &mut self,
        ctx: &mut Context,
        at: Op,
        v: Value,
        cur: &Dist,
        next: &Dist,
        d: usize,
    ) -> Value {
        let ty = self.typed(ctx, v, next);
        // A broadcast of what is not split along `d` is made again at the
        // local shape.
        if let Some(bc) = BroadcastInDim::defining(ctx, v)
            && let Some(dims) = bc.broadcast_dimensions(ctx)
        {
            let operand = bc.operand(ctx);
            let oshape = super::static_shape(ctx, ctx.value_type(operand)).unwrap_or_default();
            let od = self.dist_of(ctx, operand);
            let fine = od.partial.is_none()
                && od.dims.iter().all(Vec::is_empty)
                && next.dims.iter().enumerate().all(|(r, axes)| {
                    axes.is_empty()
                        || dims
                            .iter()
                            .position(|x| *x as usize == r)
                            .is_none_or(|k| oshape[k] == 1)
                });
            if fine {
                let a = ctx.uniquer().i64_array(&dims);
                let mut b = Builder::before(ctx, at);
                let op = BroadcastInDim::build(&mut b, operand, a, ty).0;
                return ctx.result(op, 0);
            }
        }
        // So is a splat constant.
        if let Some(c) = Constant::defining(ctx, v)
            && let Some(t) = aic::rewrite::constant_value(ctx, c.op())
                .and_then(|a| aic::interp::tensor_of_attr(ctx.uniquer(), a, ctx.value_type(v)))
            && let Some(first) = (!t.data.is_empty()).then(|| t.data.f64_at(0))
            && (0..t.data.len()).all(|i| t.data.f64_at(i).to_bits() == first.to_bits())
        {
            let u = ctx.uniquer().clone();
            let n: i64 = next.local(self.mesh).iter().product();
            let local = Tensor {
                ty,
                shape: next.local(self.mesh),
                data: t.data.take((0..n as usize).map(|_| Some(0)), None),
            };
            let a = attr_of_tensor(&u, &local);
            let mut b = Builder::before(ctx, at);
            let op = Constant::build(&mut b, a, ty).0;
            return ctx.result(op, 0);
        }
        let pid = self.partition(ctx);
        let mesh = self.mesh;
        let axes = &next.dims[d];
        let local = next.local(mesh)[d];
        let ids = mesh.ids();
        let mut table = vec![0i64; ids.len()];
        for (p, id) in ids.iter().enumerate() {
            let mut idx = 0;
            for a in axes {
                let k = mesh.axis_index(a).expect("checked axes");
                idx = idx * mesh.axes[k].1 + mesh.coord(p as i64, k);
            }
            table[*id as usize] = idx * local;
        }
        let u = ctx.uniquer().clone();
        let tty = u.ty(TypeKind::Tensor {
            shape: [ids.len() as i64].into_iter().collect(),
            elem: u.int_type(32),
            encoding: None,
        });
        let one = with_shape(ctx, tty, &[1]);
        let scalar = with_shape(ctx, tty, &[]);
        let table = attr_of_tensor(&u, &Tensor::from_i64s(&u, tty, table));
        let zero = attr_of_tensor(&u, &Tensor::from_i64s(&u, scalar, [0]));
        let _ = cur;
        let mut b = Builder::before(ctx, at);
        let t = Constant::build(&mut b, table, tty).0;
        let t = b.ctx.result(t, 0);
        let off = DynamicSlice::build(&mut b, t, &[pid], u.i64_array(&[1]), one).0;
        let off = b.ctx.result(off, 0);
        let off = Reshape::build(&mut b, off, scalar).0;
        let off = b.ctx.result(off, 0);
        let z = Constant::build(&mut b, zero, scalar).0;
        let z = b.ctx.result(z, 0);
        let rank = next.global.len();
        let starts: Vec<Value> = (0..rank).map(|k| if k == d { off } else { z }).collect();
        let sizes = self.typed_shape(next);
        let op = DynamicSlice::build(&mut b, v, &starts, u.i64_array(&sizes), ty).0;
        ctx.result(op, 0)
    }

    fn typed_shape(&self, d: &Dist) -> Vec<i64> {
        d.local(self.mesh)
    }
}

fn int64(u: &aic::ir::Uniquer, v: i64) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: u.int_type(64),
    })
}
