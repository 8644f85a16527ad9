//! The general code generator: any group the specialised generators
//! decline, as a grid over its output's elements (Inductor's pointwise and
//! reduction kernels, for what templates do not cover). A block computes a
//! tile of `[B]` consecutive elements of the flattened output by evaluating
//! the group's DAG at their indices:
//!
//! - elementwise ops by their scalar lowering (`graph::SEMANTICS`' `scalar`
//!   column) in `tile.map`s, in compute types;
//! - views (broadcast, reshape, transpose, slice, split, concat) as index
//!   arithmetic: the value viewed is evaluated through a composed
//!   descriptor, and only group inputs are ever read (through the whole
//!   composition); concat parts and padded convolution windows are masked
//!   with `tile.valid`;
//! - reductions (`graph.reduce` over any axes, softmax, layernorm, rmsnorm)
//!   and contractions (matmul, convolution) as `tile.for` loops over the
//!   reduced extent, one step an element, carrying a `[B]` accumulator: the
//!   index space gains the loop's dim in front, its origin the induction
//!   variable;
//! - `graph.iota` and constants from the element's coordinates.
//!
//! Slow but total: every index a value is needed at is recomputed there.

mod irregular;

use super::*;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::coord::{Step, Transform};
use aic_dialects::graph::{self, Class, ReduceKind, scalar};
use std::collections::HashMap;

/// The most output elements a block computes.
const BLOCK: i64 = 1024;

/// The most elements of a constant inside a group that a kernel rebuilds
/// from its index (by selects); larger ones must be kernel arguments.
const SMALL_CONSTANT: i64 = 64;

/// Lower `group` as one kernel per distinct output element count, each a
/// grid of blocks of consecutive output elements. A group of scalars only
/// with `scalars` (a one-element kernel), else it is left to the host
/// program.
pub(super) fn general(
    ctx: &mut Context,
    group: Op,
    func: Op,
    n_kernel: usize,
    scalars: bool,
) -> Result<(), Skip> {
    let b = ctx
        .regions(group)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .ok_or("a group without a body")?;
    let inputs = ctx.block_args(b).to_vec();
    let mut yields = Vec::new();
    for o in ctx.block_ops(b).collect::<Vec<_>>() {
        if let Some(y) = fusion::Yield::of(ctx, o) {
            yields = y.results(ctx).to_vec();
        } else {
            supported(ctx, o)?;
        }
    }
    for v in inputs.iter().chain(&yields) {
        storable(ctx, ctx.value_type(*v))?;
    }
    // Scalars are the host program's arithmetic (loop counters and
    // conditions), not kernels, unless asked for (so that a plan holds no
    // tensor op the interpreter would run).
    if !scalars && yields.iter().all(|y| shape(ctx, *y).is_empty()) {
        return Err("a group of scalars (the host program's arithmetic)".into());
    }
    // Results of one element count share a kernel.
    let mut parts: Vec<(i64, Vec<usize>)> = Vec::new();
    for (i, y) in yields.iter().enumerate() {
        let n: i64 = shape(ctx, *y).iter().product();
        match parts.iter_mut().find(|(m, _)| *m == n) {
            Some((_, is)) => is.push(i),
            None => parts.push((n, vec![i])),
        }
    }
    let loc = ctx.op(group).loc;
    let args = ctx.operands(group).to_vec();
    let mut built = Vec::new();
    for (j, (total, outs)) in parts.iter().enumerate() {
        let out_tys: Vec<Type> = outs
            .iter()
            .map(|i| ctx.value_type(ctx.result(group, *i)))
            .collect();
        let (kb, bufs) = kernel_block(ctx, group, &out_tys, loc);
        let tile_len = (*total).clamp(1, BLOCK);
        let mut g = Gen {
            inputs: &inputs,
            bufs: &bufs,
            tile_len,
            scopes: vec![HashMap::new()],
        };
        let mut e = Builder {
            ctx: &mut *ctx,
            ip: InsertPoint::End(kb),
            loc,
        };
        let o0 = block_start(&mut e, 0, tile_len);
        let sp = Iter {
            lens: vec![*total],
            origin: vec![o0],
        };
        for (k, i) in outs.iter().enumerate() {
            let y = yields[*i];
            let ys = shape(e.ctx, y);
            let view = Desc::reshape(&ys, &[*total]);
            let t = g.eval(&mut e, &sp, y, &view)?;
            let elem = elem_of(e.ctx, y);
            let calc = calc_of(e.ctx, elem);
            // The output's buffer is its flattened elements in order.
            let desc = Desc::row_major(&[*total]);
            let buf = bufs[inputs.len() + k];
            store(&mut e, t, buf, &[o0], &[tile_len], &desc, calc, elem);
        }
        ret(&mut e);
        let name = if parts.len() == 1 {
            format!("general_{n_kernel}")
        } else {
            format!("general_{n_kernel}_{j}")
        };
        let grid = [(total + tile_len - 1) / tile_len];
        built.push((kb, name, grid, out_tys));
    }
    // Only now, with every kernel built, is the function changed.
    for ((kb, name, grid, out_tys), (_, outs)) in built.into_iter().zip(&parts) {
        add_kernel(ctx, func, kb, &name, &grid, loc);
        let launch = add_launch(ctx, group, &args, &name, &out_tys, loc);
        for (k, i) in outs.iter().enumerate() {
            let (old, new) = (ctx.result(group, *i), ctx.result(launch, k));
            ctx.replace_all_uses(old, new);
        }
    }
    ctx.erase_op(group);
    Ok(())
}

/// Whether the general generator takes `op` alone: an op it evaluates
/// element by element, of operands and results it stores.
pub(super) fn takes(ctx: &Context, op: Op) -> bool {
    supported(ctx, op).is_ok()
        && ctx
            .operands(op)
            .iter()
            .all(|v| storable(ctx, ctx.value_type(*v)).is_ok())
}

/// Why `op` cannot be evaluated element by element, if it cannot.
fn supported(ctx: &Context, op: Op) -> Result<(), Skip> {
    let name = ctx.op_name(op);
    let sem = graph::semantics(name).ok_or_else(|| format!("{name} is not a graph op"))?;
    for r in ctx.results(op) {
        storable(ctx, ctx.value_type(r)).map_err(|e| format!("{name}: {e}"))?;
    }
    match sem.class {
        Class::Elementwise if sem.scalar.is_none() => Err(format!("{name} has no scalar lowering")),
        Class::Constant if graph::Constant::is(ctx, op) => {
            let n: i64 = shape(ctx, ctx.result(op, 0)).iter().product();
            let splat = constant_values(ctx, op).is_some_and(|v| v.len() == 1);
            if splat || n <= SMALL_CONSTANT {
                Ok(())
            } else {
                Err(format!(
                    "a constant of {n} elements inside the group (not a kernel argument)"
                ))
            }
        }
        _ => Ok(()),
    }
}

/// Why a kernel cannot hold elements of tensor type `ty`, if it cannot:
/// floats and signless integers (`i1` included) only.
fn storable(ctx: &Context, ty: Type) -> Result<(), Skip> {
    let elem = ctx.type_kind(ty).element_type().unwrap_or(ty);
    match ctx.type_kind(elem) {
        TypeKind::Float(_) => Ok(()),
        TypeKind::Integer { signedness, .. } if *signedness == aic::types::Signedness::Signless => {
            Ok(())
        }
        _ => Err(format!(
            "elements of type {} are not generated",
            aic::printer::type_text(ctx.uniquer(), elem)
        )),
    }
}

/// The element type of tensor value `v`.
fn elem_of(ctx: &Context, v: Value) -> Type {
    let t = ctx.value_type(v);
    ctx.type_kind(t).element_type().unwrap_or(t)
}

/// The compute type of storage type `elem`.
fn calc_of(ctx: &Context, elem: Type) -> Type {
    scalar::compute_type(ctx.uniquer(), elem)
}

/// A constant's values (one for a splat), if it holds numbers.
fn constant_values(ctx: &Context, op: Op) -> Option<Vec<f64>> {
    let c = graph::Constant::of(ctx, op)?;
    let a = c.value(ctx)?;
    let u = ctx.uniquer();
    if let aic::attributes::AttrKind::DenseElements {
        ty,
        data: aic::attributes::DenseData::Raw { splat: true, .. },
    } = u.attr_kind(a)
    {
        let one = u.ty(TypeKind::Tensor {
            shape: Default::default(),
            elem: ctx.type_kind(*ty).element_type()?,
            encoding: None,
        });
        return Some(aic::interp::tensor_of_attr(u, a, one)?.to_f64s());
    }
    let ty = ctx.value_type(c.result(ctx));
    Some(aic::interp::tensor_of_attr(u, a, ty)?.to_f64s())
}

/// The index space a tile is evaluated in: the loop dims of the enclosing
/// reductions (innermost first), then the flattened output; and the
/// origin of the tile in it (the loops' induction variables, then the
/// block's first output element). The tile covers `[B]` elements of the
/// last dim.
struct Iter {
    lens: Vec<i64>,
    origin: Vec<Value>,
}

impl Iter {
    /// The space inside a loop of `k` steps at induction variable `iv`.
    fn inner(&self, k: i64, iv: Value) -> Iter {
        Iter {
            lens: [&[k], &self.lens[..]].concat(),
            origin: [&[iv], &self.origin[..]].concat(),
        }
    }
}

/// One step of a descriptor stage.
fn step(t: Transform, upper: Vec<usize>, lower: Vec<usize>) -> Step {
    Step { t, upper, lower }
}

/// `view` (from an index space to a shape) seen from the space with a dim
/// of `k` in front, that dim kept in front of the shape.
fn lift(view: &Desc, k: i64) -> Desc {
    let shift = |d: &[usize]| d.iter().map(|x| x + 1).collect::<Vec<_>>();
    Desc {
        upper: [&[k], &view.upper[..]].concat(),
        stages: view
            .stages
            .iter()
            .map(|s| {
                std::iter::once(step(Transform::Pass, vec![0], vec![0]))
                    .chain(
                        s.iter()
                            .map(|st| step(st.t.clone(), shift(&st.upper), shift(&st.lower))),
                    )
                    .collect()
            })
            .collect(),
    }
}

/// From `[K] ++ r` to a shape `s`: `K` delinearised over `s`'s dims
/// `axes` (`K` is their element count), `r`'s dim `i` giving `s`'s dim
/// `place[i]` (or none: it is dropped), and any other dim of `s` at 0.
fn gather(k: i64, r: &[i64], s: &[i64], axes: &[usize], place: &[Option<usize>]) -> Desc {
    let mut steps = vec![match axes {
        [] => step(Transform::Broadcast, vec![0], vec![]),
        [a] => step(Transform::Pass, vec![0], vec![*a]),
        _ => step(
            Transform::Merge {
                lens: axes.iter().map(|a| s[*a]).collect(),
            },
            vec![0],
            axes.to_vec(),
        ),
    }];
    // Dims of `s` nothing gives are at 0.
    steps.extend(place_steps(s, place, 1, axes));
    Desc {
        upper: [&[k], r].concat(),
        stages: vec![steps],
    }
}

/// The steps placing upper dim `first + i` at dim `place[i]` of a shape
/// `xs` (or dropping it), then freezing at 0 every dim of `xs` neither
/// placed nor among `given` (dims earlier steps give).
fn place_steps(xs: &[i64], place: &[Option<usize>], first: usize, given: &[usize]) -> Vec<Step> {
    let mut steps: Vec<Step> = place
        .iter()
        .enumerate()
        .map(|(i, p)| match p {
            Some(d) => step(Transform::Pass, vec![first + i], vec![*d]),
            None => step(Transform::Broadcast, vec![first + i], vec![]),
        })
        .collect();
    for (d, len) in xs.iter().enumerate() {
        if !given.contains(&d) && !place.contains(&Some(d)) {
            steps.push(step(
                Transform::Freeze {
                    value: 0,
                    len: *len,
                },
                vec![],
                vec![d],
            ));
        }
    }
    steps
}

/// `x` and `y` combined as `how` says (floats or signless integers).
fn combine(s: &mut Builder<'_>, how: Combine, float: bool, x: Value, y: Value) -> Value {
    match (how, float) {
        (Combine::Sum, true) => ab::binary::<arith::AddF>(s, x, y),
        (Combine::Sum, false) => ab::binary::<arith::AddI>(s, x, y),
        (Combine::Max, true) => ab::binary::<arith::MaximumF>(s, x, y),
        (Combine::Max, false) => ab::binary::<arith::MaxSI>(s, x, y),
        (Combine::Min, true) => ab::binary::<arith::MinimumF>(s, x, y),
        (Combine::Min, false) => ab::binary::<arith::MinSI>(s, x, y),
    }
}

/// From a shape `rs` to a shape `xs` with no loop dim: `rs`'s dim `i`
/// gives `xs`'s dim `place[i]` (or none: it is dropped), every dim of `xs`
/// no dim gives is frozen at 0.
fn placed(rs: &[i64], xs: &[i64], place: &[Option<usize>]) -> Desc {
    Desc {
        upper: rs.to_vec(),
        stages: vec![place_steps(xs, place, 0, &[])],
    }
}

/// The row-major strides of `lens`.
fn strides_of(lens: &[i64]) -> Vec<i64> {
    let mut st = vec![1; lens.len()];
    for i in (0..lens.len().saturating_sub(1)).rev() {
        st[i] = st[i + 1] * lens[i + 1];
    }
    st
}

/// A map body's computation on one element, which may fail.
type ElemFn<'f> = dyn FnMut(&mut Builder<'_>, &[Value]) -> Result<Value, Skip> + 'f;

/// How a reduction combines.
#[derive(Clone, Copy)]
enum Combine {
    Sum,
    Max,
    Min,
}

/// The kernel being built: the group's inputs and the kernel's buffers,
/// the tile length, and the tiles computed so far (by value and view), a
/// scope per loop body.
struct Gen<'a> {
    inputs: &'a [Value],
    bufs: &'a [Value],
    tile_len: i64,
    scopes: Vec<HashMap<(Value, Desc), Value>>,
}

/// One step of [`Gen::carried_loop`]: the generator, the loop body's
/// builder, the space inside, the induction variable and the carried value
/// to the next value.
type StepFn<'f, 'a> =
    dyn FnMut(&mut Gen<'a>, &mut Builder<'_>, &Iter, Value, Value) -> Result<Value, Skip> + 'f;

impl<'a> Gen<'a> {
    /// The register tile type of `[B]` elements of `elem`.
    fn ty(&self, b: &Builder<'_>, elem: Type) -> Type {
        tile::plain_tile(
            b.ctx.uniquer(),
            vec![self.tile_len],
            elem,
            tile::Space::Register,
        )
    }

    /// A map of `xs` (of element types `elems`) giving elements of `elem`,
    /// whose body `f` may fail.
    fn map(
        &self,
        b: &mut Builder<'_>,
        xs: &[Value],
        elems: &[Type],
        elem: Type,
        f: &mut ElemFn<'_>,
    ) -> Result<Value, Skip> {
        let ty = self.ty(b, elem);
        let mut failed = None;
        let r = map_typed(b, xs, elems, ty, &mut |s, a| match f(s, a) {
            Ok(v) => v,
            Err(e) => {
                failed = Some(e);
                a[0]
            }
        });
        failed.map_or(Ok(r), Err)
    }

    /// The scalar `x` spread over a tile.
    fn splat(&self, b: &mut Builder<'_>, x: Value) -> Value {
        let ty = self.ty(b, b.ctx.value_type(x));
        spread(b, x, ty, &[])
    }

    /// Each element's offset under `desc` (from the space `sp`): an index
    /// tile.
    fn offsets(&self, b: &mut Builder<'_>, sp: &Iter, desc: &Desc) -> Result<Value, Skip> {
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let ity = self.ty(b, index);
        let pos = iota(b, 0, ity);
        let (lead, last) = sp.origin.split_at(sp.origin.len() - 1);
        let d = coord::desc_attr(b.ctx.uniquer(), desc);
        self.map(b, &[pos], &[index], index, &mut |s, a| {
            let flat = ab::binary::<arith::AddI>(s, last[0], a[0]);
            let at: Vec<Value> = lead.iter().copied().chain([flat]).collect();
            let i1t = s.ctx.uniquer().int_type(1);
            Ok(coord::Offset::build(s, &at, d, index, i1t).offset(s.ctx))
        })
    }

    /// The tile of `v` at the indices `view` maps the space `sp` to (`v`'s
    /// shape), in `v`'s compute type.
    fn eval(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        v: Value,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let view = view.simplify();
        let key = (v, view.clone());
        if let Some(t) = self.scopes.iter().rev().find_map(|s| s.get(&key)) {
            return Ok(*t);
        }
        let t = self.compute(b, sp, v, &view)?;
        self.scopes.last_mut().expect("a scope").insert(key, t);
        Ok(t)
    }

    /// [`Gen::eval`] zeroed where `view` is not valid (padding).
    fn eval_masked(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        v: Value,
        view: &Desc,
    ) -> Result<Value, Skip> {
        self.eval_filled(b, sp, v, view, None)
    }

    /// [`Gen::eval`] with `fill` (a tile of `v`'s compute type; zero if
    /// `None`) where `view` is not valid (padding).
    fn eval_filled(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        v: Value,
        view: &Desc,
        fill: Option<Value>,
    ) -> Result<Value, Skip> {
        let t = self.eval(b, sp, v, view)?;
        let calc = calc_of(b.ctx, elem_of(b.ctx, v));
        let ok = valid(b, &sp.origin, &[self.tile_len], &view.simplify());
        let i1t = b.ctx.uniquer().int_type(1);
        match fill {
            Some(f) => self.map(b, &[ok, t, f], &[i1t, calc, calc], calc, &mut |s, a| {
                Ok(ab::select(s, a[0], a[1], a[2]))
            }),
            None => self.map(b, &[ok, t], &[i1t, calc], calc, &mut |s, a| {
                let z = ab::number(s, 0.0, calc);
                Ok(ab::select(s, a[0], a[1], z))
            }),
        }
    }

    /// The coordinate along dim `dim` of a value of shape `rs` seen
    /// through `view`: an index tile (the offset in a space of that dim
    /// alone).
    fn coord(
        &self,
        b: &mut Builder<'_>,
        sp: &Iter,
        rs: &[i64],
        dim: usize,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let pick = Desc {
            upper: rs.to_vec(),
            stages: vec![
                (0..rs.len())
                    .map(|i| {
                        if i == dim {
                            step(Transform::Pass, vec![i], vec![0])
                        } else {
                            step(Transform::Broadcast, vec![i], vec![])
                        }
                    })
                    .collect(),
            ],
        };
        self.offsets(b, sp, &over(&pick, view)?)
    }

    fn compute(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        v: Value,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let elem = elem_of(b.ctx, v);
        let calc = calc_of(b.ctx, elem);
        let vs = shape(b.ctx, v);
        // A group input: read through the view.
        if let Some(i) = self.inputs.iter().position(|x| *x == v) {
            // Read in order as the output is flattened, the buffer is flat.
            let n: i64 = vs.iter().product();
            let flat = view.upper.len() == 1
                && view.upper[0] == n
                && *view == Desc::reshape(&vs, &view.upper).simplify();
            let d = if flat {
                Desc::row_major(&view.upper)
            } else {
                over(&Desc::row_major(&vs), view)?
            };
            return Ok(load(
                b,
                self.bufs[i],
                &sp.origin,
                &[self.tile_len],
                &d,
                calc,
            ));
        }
        let op = b.ctx.defining_op(v).ok_or("a value of no op")?;
        let name = b.ctx.op_name(op);
        let sem = graph::semantics(name).ok_or_else(|| format!("{name} is not a graph op"))?;
        // Views: the viewed value at the composed indices.
        if let Some((x, d)) = views::view_desc(b.ctx, op) {
            return self.eval(b, sp, x, &d.compose(view).map_err(|e| e.to_string())?);
        }
        if let Some(s) = graph::Split::of(b.ctx, op) {
            let x = s.x(b.ctx);
            let xs = shape(b.ctx, x);
            let axis = norm_axis(s.axis(b.ctx).unwrap_or(0), xs.len())?;
            let mut begin = vec![0; xs.len()];
            for r in b.ctx.results(op) {
                if r == v {
                    break;
                }
                begin[axis] += shape(b.ctx, r)[axis];
            }
            let d = Desc::slice(&xs, &begin, &vs);
            return self.eval(b, sp, x, &d.compose(view).map_err(|e| e.to_string())?);
        }
        if let Some(c) = graph::Concat::of(b.ctx, op) {
            let parts = c.inputs(b.ctx).to_vec();
            let axis = norm_axis(c.axis(b.ctx).unwrap_or(0), vs.len())?;
            let mut acc: Option<Value> = None;
            let mut before = 0;
            let i1t = b.ctx.uniquer().int_type(1);
            for p in parts {
                let ps = shape(b.ctx, p);
                let d = Desc::concat_part(&ps, axis, before, vs[axis]);
                let d = d.compose(view).map_err(|e| e.to_string())?.simplify();
                before += ps[axis];
                let t = self.eval(b, sp, p, &d)?;
                acc = Some(match acc {
                    None => t,
                    Some(a) => {
                        let ok = valid(b, &sp.origin, &[self.tile_len], &d);
                        self.map(b, &[ok, t, a], &[i1t, calc, calc], calc, &mut |s, x| {
                            Ok(ab::select(s, x[0], x[1], x[2]))
                        })?
                    }
                });
            }
            return acc.ok_or_else(|| "a concat of nothing".into());
        }
        match sem.class {
            Class::Elementwise => self.elementwise(b, sp, op, view),
            Class::Constant => self.constant(b, sp, op, view),
            Class::Reduction => self.reduction(b, sp, op, view),
            Class::Contraction => self.contraction(b, sp, op, view),
            Class::Irregular => self.irregular(b, sp, v, view),
            _ => Err(format!("{name} is not generated")),
        }
    }

    /// An elementwise op: its operands at the same indices (a rank-0 one
    /// everywhere, a bias along the last dim), then its scalar lowering.
    fn elementwise(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        op: Op,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let name = b.ctx.op_name(op).to_string();
        if graph::semantics(&name).and_then(|s| s.scalar).is_none() {
            return Err(format!("{name} has no scalar lowering"));
        }
        let r = b.ctx.result(op, 0);
        let rs = shape(b.ctx, r);
        let mut xs = Vec::new();
        let mut elems = Vec::new();
        for x in b.ctx.operands(op).to_vec() {
            let s = shape(b.ctx, x);
            let d = if s == rs {
                view.clone()
            } else if graph::BiasAdd::is(b.ctx, op) && rs.last().is_some_and(|n| s == [*n]) {
                Desc::broadcast(&s, &rs, &[rs.len() - 1])
                    .compose(view)
                    .map_err(|e| e.to_string())?
            } else if s.is_empty() {
                Desc::broadcast(&s, &rs, &[])
                    .compose(view)
                    .map_err(|e| e.to_string())?
            } else {
                return Err(format!("{name} of an operand of shape {s:?}"));
            };
            xs.push(self.eval(b, sp, x, &d)?);
            elems.push(calc_of(b.ctx, elem_of(b.ctx, x)));
        }
        let calc = calc_of(b.ctx, elem_of(b.ctx, r));
        self.map(b, &xs, &elems, calc, &mut |s, a| {
            graph::scalar::lower(s, op, a)
        })
    }

    /// `graph.iota` (each element's coordinate along its dim) or a
    /// constant (a splat, or a small one picked by the element's offset).
    fn constant(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        op: Op,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let r = b.ctx.result(op, 0);
        let rs = shape(b.ctx, r);
        let calc = calc_of(b.ctx, elem_of(b.ctx, r));
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let to_calc = move |s: &mut Builder<'_>, x: Value| {
            let i64t = s.ctx.uniquer().int_type(64);
            match s.ctx.type_kind(calc) {
                TypeKind::Float(_) => {
                    let i = ab::cast::<arith::IndexCast>(s, x, i64t);
                    ab::cast::<arith::SIToFP>(s, i, calc)
                }
                _ => ab::cast::<arith::IndexCast>(s, x, calc),
            }
        };
        if let Some(io) = graph::Iota::of(b.ctx, op) {
            let dim = norm_axis(io.dim(b.ctx).unwrap_or(0), rs.len())?;
            let at = self.coord(b, sp, &rs, dim, view)?;
            return self.map(b, &[at], &[index], calc, &mut |s, a| Ok(to_calc(s, a[0])));
        }
        let vals = constant_values(b.ctx, op).ok_or("a constant of no numbers")?;
        if let [x] = vals[..] {
            let c = ab::number(b, x, calc);
            return Ok(self.splat(b, c));
        }
        let d = over(&Desc::row_major(&rs), view)?;
        let at = self.offsets(b, sp, &d)?;
        self.map(b, &[at], &[index], calc, &mut |s, a| {
            let mut acc = ab::number(s, vals[0], calc);
            for (i, x) in vals.iter().enumerate().skip(1) {
                let (k, c) = (ab::index(s, i as i64), ab::number(s, *x, calc));
                let hit = ab::cmpi(s, ab::CmpIPredicate::Eq, a[0], k);
                acc = ab::select(s, hit, c, acc);
            }
            Ok(acc)
        })
    }

    /// A loop of `k` steps combining `f(space inside, builder)` into an
    /// accumulator of `calc` starting at `init`.
    fn fold(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        k: i64,
        calc: Type,
        how: Combine,
        f: &mut dyn FnMut(&mut Self, &mut Builder<'_>, &Iter) -> Result<Value, Skip>,
    ) -> Result<Value, Skip> {
        let float = matches!(b.ctx.type_kind(calc), TypeKind::Float(_));
        let init = match (how, float) {
            (Combine::Sum, _) => ab::number(b, 0.0, calc),
            (Combine::Max, true) => ab::number(b, f64::NEG_INFINITY, calc),
            (Combine::Min, true) => ab::number(b, f64::INFINITY, calc),
            (Combine::Max, false) | (Combine::Min, false) => {
                let w = match b.ctx.type_kind(calc) {
                    TypeKind::Integer { width, .. } => *width,
                    _ => 64,
                };
                let (lo, hi) = if w == 1 {
                    (0, 1)
                } else {
                    (
                        -(1i64 << (w.min(64) - 1)),
                        (1i64 << (w.min(64) - 1)).wrapping_sub(1),
                    )
                };
                let v = if matches!(how, Combine::Max) { lo } else { hi };
                ab::int(b, v, calc)
            }
        };
        let init = self.splat(b, init);
        let ty = self.ty(b, calc);
        self.carried_loop(b, sp, k, (init, ty), &mut |g, ib, inner, _, acc| {
            let x = f(g, ib, inner)?;
            g.map(ib, &[acc, x], &[calc, calc], calc, &mut |s, a| {
                Ok(combine(s, how, float, a[0], a[1]))
            })
        })
    }

    /// A loop of `k` steps carrying a tile of type `ty` from `init`: `next`
    /// computes each step's value from the space inside, the induction
    /// variable and the carried value, its values scoped to the loop body.
    pub(super) fn carried_loop(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        k: i64,
        (init, ty): (Value, Type),
        next: &mut StepFn<'_, 'a>,
    ) -> Result<Value, Skip> {
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let loc = b.loc;
        let body = b.ctx.create_block(&[(index, Some(loc)), (ty, Some(loc))]);
        let (iv, acc) = (b.ctx.block_args(body)[0], b.ctx.block_args(body)[1]);
        let inner = sp.inner(k, iv);
        self.scopes.push(HashMap::new());
        let stepped = {
            let mut ib = inside(b, body);
            let x = next(self, &mut ib, &inner, iv, acc);
            if let Ok(n) = x {
                yield_(&mut ib, &[n]);
            }
            x
        };
        self.scopes.pop();
        stepped?;
        let (lo, hi, one) = (ab::index(b, 0), ab::index(b, k), ab::index(b, 1));
        let l = for_loop(b, (lo, hi, one), &[init], &[ty], body);
        Ok(b.ctx.results(l.op()).next().expect("one result"))
    }

    /// `t` scaled by `1 / n` (floats) or divided by `n` (integers).
    fn mean(&self, b: &mut Builder<'_>, t: Value, n: i64, calc: Type) -> Result<Value, Skip> {
        self.map(b, &[t], &[calc], calc, &mut |s, a| {
            Ok(match s.ctx.type_kind(calc) {
                TypeKind::Float(_) => {
                    let k = ab::number(s, 1.0 / n.max(1) as f64, calc);
                    ab::binary::<arith::MulF>(s, a[0], k)
                }
                _ => {
                    let k = ab::int(s, n.max(1), calc);
                    ab::binary::<arith::DivSI>(s, a[0], k)
                }
            })
        })
    }

    /// The reductions: `graph.reduce` over its axes, softmax along its
    /// axis, layernorm and rmsnorm over the trailing dims `gamma` spans.
    fn reduction(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        op: Op,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let r = b.ctx.result(op, 0);
        let rs = shape(b.ctx, r);
        let calc = calc_of(b.ctx, elem_of(b.ctx, r));
        let x = b.ctx.operands(op)[0];
        let xs = shape(b.ctx, x);
        let xcalc = calc_of(b.ctx, elem_of(b.ctx, x));
        // Over `axes` of x, seen from the result's indices (`place`).
        let row = |axes: &[usize], place: &[Option<usize>]| -> Result<(i64, Desc), Skip> {
            let k: i64 = axes.iter().map(|a| xs[*a]).product();
            let g = gather(k, &rs, &xs, axes, place);
            Ok((k, over(&g, &lift(view, k))?))
        };
        if let Some(red) = graph::Reduce::of(b.ctx, op) {
            let mut axes = Vec::new();
            for a in red.axes(b.ctx).unwrap_or_default() {
                axes.push(norm_axis(a, xs.len())?);
            }
            axes.sort_unstable();
            axes.dedup();
            let keep = red.keep_dims(b.ctx).unwrap_or(false);
            let kept: Vec<usize> = (0..xs.len()).filter(|d| !axes.contains(d)).collect();
            let place: Vec<Option<usize>> = if keep {
                (0..xs.len())
                    .map(|d| (!axes.contains(&d)).then_some(d))
                    .collect()
            } else {
                kept.iter().map(|d| Some(*d)).collect()
            };
            let (k, d) = row(&axes, &place)?;
            let kind = red.kind(b.ctx).unwrap_or(ReduceKind::Sum);
            let how = match kind {
                ReduceKind::Max => Combine::Max,
                ReduceKind::Min => Combine::Min,
                ReduceKind::Sum | ReduceKind::Mean => Combine::Sum,
            };
            let s = self.fold(b, sp, k, calc, how, &mut |g, ib, inner| {
                let t = g.eval(ib, inner, x, &d)?;
                convert_to(g, ib, t, xcalc, calc, b_elem(ib, x), b_elem(ib, r))
            })?;
            return if kind == ReduceKind::Mean {
                self.mean(b, s, k, calc)
            } else {
                Ok(s)
            };
        }
        let dropped = |axes: &[usize]| -> Vec<Option<usize>> {
            (0..xs.len())
                .map(|d| (!axes.contains(&d)).then_some(d))
                .collect()
        };
        let here = self.eval(b, sp, x, view)?;
        if let Some(sm) = graph::Softmax::of(b.ctx, op) {
            let axis = norm_axis(sm.axis(b.ctx).unwrap_or(-1), xs.len())?;
            let (k, d) = row(&[axis], &dropped(&[axis]))?;
            let m = self.fold(b, sp, k, calc, Combine::Max, &mut |g, ib, inner| {
                g.eval(ib, inner, x, &d)
            })?;
            let s = self.fold(b, sp, k, calc, Combine::Sum, &mut |g, ib, inner| {
                let t = g.eval(ib, inner, x, &d)?;
                g.map(ib, &[t, m], &[calc, calc], calc, &mut |s, a| {
                    let e = ab::binary::<arith::SubF>(s, a[0], a[1]);
                    Ok(ab::unary::<aic_dialects::math::Exp>(s, e))
                })
            })?;
            return self.map(b, &[here, m, s], &[calc; 3], calc, &mut |s, a| {
                let e = ab::binary::<arith::SubF>(s, a[0], a[1]);
                let e = ab::unary::<aic_dialects::math::Exp>(s, e);
                Ok(ab::binary::<arith::DivF>(s, e, a[2]))
            });
        }
        // The normalisations: over the trailing dims gamma spans.
        let ops = b.ctx.operands(op).to_vec();
        let gamma = ops[1];
        let gs = shape(b.ctx, gamma);
        let lead = xs.len().saturating_sub(gs.len());
        let axes: Vec<usize> = (lead..xs.len()).collect();
        let (k, d) = row(&axes, &dropped(&axes))?;
        // gamma (and beta) along the trailing dims of the result.
        let trail = Desc {
            upper: rs.clone(),
            stages: vec![
                (0..rs.len())
                    .map(|i| {
                        if i < lead {
                            step(Transform::Broadcast, vec![i], vec![])
                        } else {
                            step(Transform::Pass, vec![i], vec![i - lead])
                        }
                    })
                    .collect(),
            ],
        };
        let tv = over(&trail, view)?;
        let eps = {
            let e = if let Some(l) = graph::Layernorm::of(b.ctx, op) {
                l.epsilon(b.ctx)
            } else {
                graph::Rmsnorm::of(b.ctx, op).and_then(|r| r.epsilon(b.ctx))
            };
            match e.map(|a| b.ctx.uniquer().attr_kind(a).clone()) {
                Some(aic::attributes::AttrKind::Float { bits, .. }) => {
                    f32::from_bits(bits as u32) as f64
                }
                _ => 1e-5,
            }
        };
        let centre = graph::Layernorm::is(b.ctx, op);
        let mean = if centre {
            let s = self.fold(b, sp, k, calc, Combine::Sum, &mut |g, ib, inner| {
                g.eval(ib, inner, x, &d)
            })?;
            Some(self.mean(b, s, k, calc)?)
        } else {
            None
        };
        let sq = self.fold(b, sp, k, calc, Combine::Sum, &mut |g, ib, inner| {
            let t = g.eval(ib, inner, x, &d)?;
            let (xs, es) = match mean {
                Some(m) => (vec![t, m], vec![calc, calc]),
                None => (vec![t], vec![calc]),
            };
            g.map(ib, &xs, &es, calc, &mut |s, a| {
                let c = match a.get(1) {
                    Some(m) => ab::binary::<arith::SubF>(s, a[0], *m),
                    None => a[0],
                };
                Ok(ab::binary::<arith::MulF>(s, c, c))
            })
        })?;
        let var = self.mean(b, sq, k, calc)?;
        let gt = self.eval(b, sp, gamma, &tv)?;
        let mut xs_ = vec![here, var, gt];
        if let Some(m) = mean {
            xs_.push(m);
        }
        if let Some(beta) = ops.get(2) {
            let bt = self.eval(b, sp, *beta, &tv)?;
            xs_.push(bt);
        }
        let n = xs_.len();
        self.map(b, &xs_, &vec![calc; n], calc, &mut |s, a| {
            let e = ab::number(s, eps, calc);
            let v = ab::binary::<arith::AddF>(s, a[1], e);
            let inv = ab::unary::<aic_dialects::math::Rsqrt>(s, v);
            let c = if centre {
                ab::binary::<arith::SubF>(s, a[0], a[3])
            } else {
                a[0]
            };
            let y = ab::binary::<arith::MulF>(s, c, inv);
            let y = ab::binary::<arith::MulF>(s, y, a[2]);
            Ok(match a.get(4) {
                Some(bt) => ab::binary::<arith::AddF>(s, y, *bt),
                None => y,
            })
        })
    }

    /// Matrix products and convolutions: loops over the contracted
    /// elements accumulating products in the result's compute type.
    fn contraction(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        op: Op,
        view: &Desc,
    ) -> Result<Value, Skip> {
        if graph::SparseMatmul::is(b.ctx, op) {
            return Err("a 2:4-sparse product (the GEMM generator's alone)".into());
        }
        let r = b.ctx.result(op, 0);
        let rs = shape(b.ctx, r);
        let rr = rs.len();
        let calc = calc_of(b.ctx, elem_of(b.ctx, r));
        let float = matches!(b.ctx.type_kind(calc), TypeKind::Float(_));
        let (l, w) = (b.ctx.operands(op)[0], b.ctx.operands(op)[1]);
        let (ls, ws) = (shape(b.ctx, l), shape(b.ctx, w));
        let (lc, wc) = (
            calc_of(b.ctx, elem_of(b.ctx, l)),
            calc_of(b.ctx, elem_of(b.ctx, w)),
        );
        // From `[K] ++ result` to each operand, and whether the lhs view pads.
        let (k, dl, dw, padded) = if let Some(c) = graph::Conv2d::of(b.ctx, op) {
            let (k, dl, dw) = conv_views(b.ctx, c, &ls, &ws, &rs)?;
            (k, dl, dw, true)
        } else {
            if rr < 2 || ls.len() < 2 || ws.len() < 2 {
                return Err("a matrix product of vectors".into());
            }
            let (ta, tb) = match graph::Matmul::of(b.ctx, op) {
                Some(m) => (
                    m.transpose_a(b.ctx).unwrap_or(false),
                    m.transpose_b(b.ctx).unwrap_or(false),
                ),
                None => (false, false),
            };
            let (la, lw) = (ls.len(), ws.len());
            let k = if ta { ls[la - 2] } else { ls[la - 1] };
            let lsteps = matmul_side(
                &rs,
                &ls,
                if ta { la - 2 } else { la - 1 },
                if ta { la - 1 } else { la - 2 },
                true,
            )?;
            let wsteps = matmul_side(
                &rs,
                &ws,
                if tb { lw - 1 } else { lw - 2 },
                if tb { lw - 2 } else { lw - 1 },
                false,
            )?;
            let up = [&[k], &rs[..]].concat();
            let dl = Desc {
                upper: up.clone(),
                stages: vec![lsteps],
            };
            let dw = Desc {
                upper: up,
                stages: vec![wsteps],
            };
            (k, dl, dw, false)
        };
        let lifted = lift(view, k);
        let (dl, dw) = (over(&dl, &lifted)?, over(&dw, &lifted)?);
        self.fold(b, sp, k, calc, Combine::Sum, &mut |g, ib, inner| {
            let a = if padded {
                g.eval_masked(ib, inner, l, &dl)?
            } else {
                g.eval(ib, inner, l, &dl)?
            };
            let c = g.eval(ib, inner, w, &dw)?;
            g.map(ib, &[a, c], &[lc, wc], calc, &mut |s, x| {
                let (p, q) = (widen(s, x[0], calc), widen(s, x[1], calc));
                Ok(if float {
                    ab::binary::<arith::MulF>(s, p, q)
                } else {
                    ab::binary::<arith::MulI>(s, p, q)
                })
            })
        })
    }
}

/// The steps from `[K] ++ result` (of shape `rs`: batch.., M, N) to a
/// matrix product's operand of `shape`: K to its dim `kd`, M (the lhs) or
/// N (the rhs) to its dim `own`, the other dropped; its batch dims align
/// at the right of the result's (missing or unit ones broadcast).
fn matmul_side(
    rs: &[i64],
    shape: &[i64],
    kd: usize,
    own: usize,
    lhs: bool,
) -> Result<Vec<Step>, Skip> {
    let rr = rs.len();
    let (rb, nb) = (rr - 2, shape.len() - 2);
    if nb > rb {
        return Err("a matrix product with more operand batch dims than the result's".into());
    }
    let mut steps = vec![step(Transform::Pass, vec![0], vec![kd])];
    for (i, len) in rs[..rb].iter().enumerate() {
        match i.checked_sub(rb - nb) {
            Some(j) if shape[j] == *len => steps.push(step(Transform::Pass, vec![i + 1], vec![j])),
            Some(j) => {
                steps.push(step(Transform::Broadcast, vec![i + 1], vec![]));
                steps.push(step(
                    Transform::Freeze {
                        value: 0,
                        len: shape[j],
                    },
                    vec![],
                    vec![j],
                ));
            }
            None => steps.push(step(Transform::Broadcast, vec![i + 1], vec![])),
        }
    }
    let (m, n) = (rr - 1, rr);
    if lhs {
        steps.push(step(Transform::Pass, vec![m], vec![own]));
        steps.push(step(Transform::Broadcast, vec![n], vec![]));
    } else {
        steps.push(step(Transform::Broadcast, vec![m], vec![]));
        steps.push(step(Transform::Pass, vec![n], vec![own]));
    }
    Ok(steps)
}

/// The element type of tensor `v` (for [`convert_to`]).
fn b_elem(b: &Builder<'_>, v: Value) -> Type {
    elem_of(b.ctx, v)
}

/// Tile `t` of compute type `from` (storage `sf`) as compute type `to`
/// (storage `st`), StableHLO's conversion.
fn convert_to(
    g: &Gen<'_>,
    b: &mut Builder<'_>,
    t: Value,
    from: Type,
    to: Type,
    sf: Type,
    st: Type,
) -> Result<Value, Skip> {
    if from == to {
        return Ok(t);
    }
    g.map(b, &[t], &[from], to, &mut |s, a| {
        scalar::convert(s, a[0], sf, st)
    })
}

/// `x` widened to `ty` when it is a narrower float (products of mixed
/// operands) or a narrower integer (sign-extended: i8 products into i32),
/// else as it is.
fn widen(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let from = b.ctx.value_type(x);
    match (b.ctx.type_kind(from), b.ctx.type_kind(ty)) {
        (TypeKind::Float(a), TypeKind::Float(c)) if a.bit_width() < c.bit_width() => {
            ab::cast::<arith::ExtF>(b, x, ty)
        }
        (TypeKind::Float(a), TypeKind::Float(c)) if a.bit_width() > c.bit_width() => {
            ab::cast::<arith::TruncF>(b, x, ty)
        }
        // A widened product's i8 operands (signed) into its i32 sums.
        (TypeKind::Integer { width: a, .. }, TypeKind::Integer { width: c, .. }) if a < c => {
            ab::cast::<arith::ExtSI>(b, x, ty)
        }
        _ => x,
    }
}

/// Axis `a` (negative from the end) of a rank-`rank` shape.
fn norm_axis(a: i64, rank: usize) -> Result<usize, Skip> {
    let r = rank as i64;
    let n = if a < 0 { a + r } else { a };
    if (0..r.max(1)).contains(&n) {
        Ok(n as usize)
    } else {
        Err(format!("axis {a} out of range for rank {rank}"))
    }
}

/// A convolution's reduction length and the views from `[K] ++ result` to
/// its input (padded: invalid in the padding) and its filter.
fn conv_views(
    ctx: &Context,
    c: graph::Conv2d,
    ls: &[i64],
    ws: &[i64],
    rs: &[i64],
) -> Result<(i64, Desc, Desc), Skip> {
    let nhwc = c.layout(ctx) != Some(graph::ConvLayout::Nchw);
    let strides = c.strides(ctx).unwrap_or_else(|| vec![1, 1]);
    let dil = c.dilations(ctx).unwrap_or_else(|| vec![1, 1]);
    let pad = c.padding(ctx).unwrap_or_else(|| vec![0; 4]);
    let groups = c.groups(ctx).unwrap_or(1).max(1);
    if ls.len() != 4
        || ws.len() != 4
        || rs.len() != 4
        || strides.len() != 2
        || dil.len() != 2
        || pad.len() != 4
    {
        return Err("a convolution of unexpected ranks".into());
    }
    if pad.iter().any(|p| *p < 0) {
        return Err("a convolution with negative padding".into());
    }
    // Dims of input, filter and result by role.
    let (h, w, ch) = if nhwc {
        (ls[1], ls[2], ls[3])
    } else {
        (ls[2], ls[3], ls[1])
    };
    let (kh, kw, cg) = if nhwc {
        (ws[0], ws[1], ws[2])
    } else {
        (ws[2], ws[3], ws[1])
    };
    let (oh, ow, co) = if nhwc {
        (rs[1], rs[2], rs[3])
    } else {
        (rs[2], rs[3], rs[1])
    };
    if cg * groups != ch || co % groups != 0 {
        return Err("a grouped convolution whose channels do not divide".into());
    }
    let k = kh * kw * cg;
    // Upper dims: 0 = k, then the result's (n, oh, ow, co) in its layout.
    let (u_oh, u_ow, u_co) = if nhwc { (2, 3, 4) } else { (3, 4, 2) };
    let up = [&[k], rs].concat();
    // Stage 1 lower: 0 n, 1 oh, 2 ow, 3 kh, 4 kw, 5 c, 6 g, 7 co_g.
    let s1 = vec![
        step(
            Transform::Merge {
                lens: vec![kh, kw, cg],
            },
            vec![0],
            vec![3, 4, 5],
        ),
        step(Transform::Pass, vec![1], vec![0]),
        step(Transform::Pass, vec![u_oh], vec![1]),
        step(Transform::Pass, vec![u_ow], vec![2]),
        step(
            Transform::Merge {
                lens: vec![groups, co / groups],
            },
            vec![u_co],
            vec![6, 7],
        ),
    ];
    let span = |o: i64, s: i64, kk: i64, d: i64, lo: i64, hi: i64, len: i64| {
        (len + lo + hi)
            .max((o - 1) * s + (kk - 1) * d + 1)
            .max(lo + len)
    };
    let hp = span(oh, strides[0], kh, dil[0], pad[0], pad[1], h);
    let wp = span(ow, strides[1], kw, dil[1], pad[2], pad[3], w);
    // Stage 2 lower: the padded input [n, hp, wp, ch] in its layout.
    let (l_h, l_w, l_c) = if nhwc { (1, 2, 3) } else { (2, 3, 1) };
    let s2 = vec![
        step(Transform::Pass, vec![0], vec![0]),
        step(
            Transform::Embed {
                len: hp,
                strides: vec![strides[0], dil[0]],
                offset: 0,
            },
            vec![1, 3],
            vec![l_h],
        ),
        step(
            Transform::Embed {
                len: wp,
                strides: vec![strides[1], dil[1]],
                offset: 0,
            },
            vec![2, 4],
            vec![l_w],
        ),
        step(
            Transform::Embed {
                len: ch,
                strides: vec![cg, 1],
                offset: 0,
            },
            vec![6, 5],
            vec![l_c],
        ),
        step(Transform::Broadcast, vec![7], vec![]),
    ];
    let s3 = vec![
        step(Transform::Pass, vec![0], vec![0]),
        step(
            Transform::Pad {
                lo: pad[0],
                hi: hp - pad[0] - h,
            },
            vec![l_h],
            vec![l_h],
        ),
        step(
            Transform::Pad {
                lo: pad[2],
                hi: wp - pad[2] - w,
            },
            vec![l_w],
            vec![l_w],
        ),
        step(Transform::Pass, vec![l_c], vec![l_c]),
    ];
    let input = Desc {
        upper: up.clone(),
        stages: vec![s1, s2, s3],
    };
    // The filter: (kh, kw, c, co) in HWIO or OIHW.
    let (f_kh, f_kw, f_c, f_o) = if nhwc { (0, 1, 2, 3) } else { (2, 3, 1, 0) };
    let filter = Desc {
        upper: up,
        stages: vec![vec![
            step(
                Transform::Merge {
                    lens: vec![kh, kw, cg],
                },
                vec![0],
                vec![f_kh, f_kw, f_c],
            ),
            step(Transform::Broadcast, vec![1], vec![]),
            step(Transform::Broadcast, vec![u_oh], vec![]),
            step(Transform::Broadcast, vec![u_ow], vec![]),
            step(Transform::Pass, vec![u_co], vec![f_o]),
        ]],
    };
    input.lens()?;
    filter.lens()?;
    Ok((k, input, filter))
}
