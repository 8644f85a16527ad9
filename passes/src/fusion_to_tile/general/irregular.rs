//! The general generator's irregular ops (`graph::Class::Irregular`):
//!
//! - `pad`: a view of its operand through padding descriptors (interior
//!   padding as a merge whose remainder must be 0), the value where the
//!   view is not valid;
//! - `reduce_window`: a loop over the window's elements, read through a
//!   strided, padded descriptor (the padding reads `init`), combined from
//!   `init`;
//! - the data-dependent ones (`dynamic_slice`, `dynamic_update_slice`,
//!   `gather`): each element's position along the indexed dims is computed
//!   from the indices (an index tile), and a loop over those dims of the
//!   source picks the element whose position it is (slow but total: no
//!   load at computed addresses is needed);
//! - `scatter`: a loop over the updates, in order, each combined into the
//!   element it lands on (its position from the indices and its window);
//! - `sort`: a loop over the line's positions picking the one whose rank
//!   (a loop counting the keys before it in total order, ties by position)
//!   is the element's index.

use super::*;

/// Which elements a step of [`Gen::gather_loop`] reaches: an `i1` tile
/// from the space inside the loop and its induction variable.
type HitFn<'f, 'g> =
    dyn FnMut(&mut Gen<'g>, &mut Builder<'_>, &Iter, Value) -> Result<Value, Skip> + 'f;

impl<'g> Gen<'g> {
    /// An op of class `Irregular` at the indices `view` maps the space to.
    pub(super) fn irregular(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        v: Value,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let op = b.ctx.defining_op(v).ok_or("a value of no op")?;
        if let Some(p) = graph::Pad::of(b.ctx, op) {
            return self.pad(b, sp, p, view);
        }
        if let Some(r) = graph::ReduceWindow::of(b.ctx, op) {
            return self.reduce_window(b, sp, r, view);
        }
        if let Some(d) = graph::DynamicSlice::of(b.ctx, op) {
            return self.dynamic_slice(b, sp, d, view);
        }
        if let Some(d) = graph::DynamicUpdateSlice::of(b.ctx, op) {
            return self.dynamic_update_slice(b, sp, d, view);
        }
        if let Some(g) = graph::Gather::of(b.ctx, op) {
            return self.gather(b, sp, g, view);
        }
        if let Some(sc) = graph::Scatter::of(b.ctx, op) {
            return self.scatter(b, sp, sc, view);
        }
        if let Some(so) = graph::Sort::of(b.ctx, op) {
            let k = b
                .ctx
                .results(op)
                .position(|r| r == v)
                .ok_or("a value of no result")?;
            return self.sort(b, sp, so, k, view);
        }
        Err(format!("{} is not generated", b.ctx.op_name(op)))
    }

    /// The rank-0 `v` at every index of a value of shape `rs` seen
    /// through `view`.
    fn scalar_everywhere(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        v: Value,
        rs: &[i64],
        view: &Desc,
    ) -> Result<Value, Skip> {
        let d = over(&Desc::broadcast(&[], rs, &[]), view)?;
        self.eval(b, sp, v, &d)
    }

    /// The integer tile `t` (of compute type `ty`) as indices, clamped to
    /// `[0, hi]`.
    fn as_index(&self, b: &mut Builder<'_>, t: Value, ty: Type, hi: i64) -> Result<Value, Skip> {
        if !matches!(b.ctx.type_kind(ty), TypeKind::Integer { .. }) {
            return Err("indices that are not integers".into());
        }
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        self.map(b, &[t], &[ty], index, &mut |s, a| {
            let i = ab::cast::<arith::IndexCast>(s, a[0], index);
            let (zero, top) = (ab::index(s, 0), ab::index(s, hi));
            let low = ab::cmpi(s, ab::CmpIPredicate::Slt, i, zero);
            let i = ab::select(s, low, zero, i);
            let high = ab::cmpi(s, ab::CmpIPredicate::Sgt, i, top);
            Ok(ab::select(s, high, top, i))
        })
    }

    /// The start `start` (a rank-0 integer) of a window of `size` in a dim
    /// of `len`, clamped so that the window fits: an index tile.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        start: Value,
        len: i64,
        size: i64,
        rs: &[i64],
        view: &Desc,
    ) -> Result<Value, Skip> {
        let t = self.scalar_everywhere(b, sp, start, rs, view)?;
        let ty = calc_of(b.ctx, elem_of(b.ctx, start));
        self.as_index(b, t, ty, (len - size).max(0))
    }

    /// `sum(ts[i] * strides[i])` of index tiles `ts`, or -1 where `ok` (an
    /// `i1` tile) does not hold.
    fn linear(
        &self,
        b: &mut Builder<'_>,
        ts: &[Value],
        strides: &[i64],
        ok: Option<Value>,
    ) -> Result<Value, Skip> {
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let i1t = b.ctx.uniquer().int_type(1);
        let mut xs = ts.to_vec();
        let mut es = vec![index; ts.len()];
        if let Some(o) = ok {
            xs.push(o);
            es.push(i1t);
        }
        let n = ts.len();
        self.map(b, &xs, &es, index, &mut |s, a| {
            let mut acc = ab::index(s, 0);
            for (t, st) in a[..n].iter().zip(strides) {
                let k = ab::index(s, *st);
                let p = ab::binary::<arith::MulI>(s, *t, k);
                acc = ab::binary::<arith::AddI>(s, acc, p);
            }
            Ok(match a.get(n) {
                Some(ok) => {
                    let none = ab::index(s, -1);
                    ab::select(s, *ok, acc, none)
                }
                None => acc,
            })
        })
    }

    /// A loop over the `k` positions of `src` (read through `d`, from
    /// `[k] ++` the space) keeping, from `init`, the element at the
    /// position `target` (an index tile; -1: none) names.
    #[allow(clippy::too_many_arguments)]
    fn pick(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        k: i64,
        init: Value,
        target: Value,
        src: Value,
        d: &Desc,
    ) -> Result<Value, Skip> {
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let i1t = b.ctx.uniquer().int_type(1);
        self.gather_loop(b, sp, k, init, src, d, None, &mut |g, ib, _, iv| {
            g.map(ib, &[target], &[index], i1t, &mut |s, a| {
                Ok(ab::cmpi(s, ab::CmpIPredicate::Eq, a[0], iv))
            })
        })
    }

    /// A loop over the `k` positions of `src` (read through `d`, from
    /// `[k] ++` the space) combining, from `init`, the elements where
    /// `hit` (an `i1` tile computed in the loop from the space inside and
    /// the induction variable) holds: replacing the value (`how` `None`),
    /// or combined with it.
    #[allow(clippy::too_many_arguments)]
    fn gather_loop(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        k: i64,
        init: Value,
        src: Value,
        d: &Desc,
        how: Option<Combine>,
        hit: &mut HitFn<'_, 'g>,
    ) -> Result<Value, Skip> {
        let calc = calc_of(b.ctx, elem_of(b.ctx, src));
        let float = matches!(b.ctx.type_kind(calc), TypeKind::Float(_));
        let ty = self.ty(b, calc);
        let i1t = b.ctx.uniquer().int_type(1);
        self.carried_loop(b, sp, k, (init, ty), &mut |g, ib, inner, iv, acc| {
            let h = hit(g, ib, inner, iv)?;
            let x = g.eval(ib, inner, src, d)?;
            g.map(ib, &[acc, x, h], &[calc, calc, i1t], calc, &mut |s, a| {
                let new = match how {
                    None => a[1],
                    Some(c) => combine(s, c, float, a[0], a[1]),
                };
                Ok(ab::select(s, a[2], new, a[0]))
            })
        })
    }

    /// `graph.scatter`: a loop over the updates, in order, combining those
    /// that land on each element (out of bounds ones land nowhere).
    fn scatter(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        sc: graph::Scatter,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let (x, ind, upd) = (sc.x(b.ctx), sc.indices(b.ctx), sc.updates(b.ctx));
        let (xs, is, us) = (shape(b.ctx, x), shape(b.ctx, ind), shape(b.ctx, upd));
        let dims = sc
            .scatter_dimension_numbers(b.ctx)
            .and_then(|a| aic_dialects::stablehlo::attrs::ScatterDims::of(b.ctx.uniquer(), a))
            .cloned()
            .ok_or("a scatter without dimension numbers")?;
        if !dims.input_batching_dims.is_empty() {
            return Err("a scatter with input batching dims is not generated".into());
        }
        let how = match sc.kind(b.ctx).unwrap_or(graph::ScatterKind::Set) {
            graph::ScatterKind::Set => None,
            graph::ScatterKind::Add => Some(Combine::Sum),
            graph::ScatterKind::Max => Some(Combine::Max),
            graph::ScatterKind::Min => Some(Combine::Min),
        };
        let ivd = dims.index_vector_dim as usize;
        let scatter: Vec<usize> = (0..us.len())
            .filter(|d| !dims.update_window_dims.contains(&(*d as i64)))
            .collect();
        let ind_batch: Vec<usize> = (0..is.len()).filter(|d| *d != ivd).collect();
        let window: Vec<usize> = (0..xs.len())
            .filter(|d| !dims.inserted_window_dims.contains(&(*d as i64)))
            .collect();
        let all: Vec<usize> = (0..us.len()).collect();
        let k: i64 = us.iter().product();
        let here = Desc::row_major(&xs);
        // Each element's own offset, and the update at each step.
        let own = self.offsets(b, sp, &over(&here, view)?)?;
        let lifted = lift(view, k);
        let du = over(&gather(k, &xs, &us, &all, &vec![None; xs.len()]), &lifted)?;
        let init = self.eval(b, sp, x, view)?;
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let i1t = b.ctx.uniquer().int_type(1);
        let ity = calc_of(b.ctx, elem_of(b.ctx, ind));
        if !matches!(b.ctx.type_kind(ity), TypeKind::Integer { .. }) {
            return Err("indices that are not integers".into());
        }
        let strides = strides_of(&xs);
        self.gather_loop(b, sp, k, init, upd, &du, how, &mut |g, ib, inner, _| {
            // The operand position of the update: its start from the
            // indices plus its window coordinate, per operand dim.
            let mut parts: Vec<Option<Value>> = vec![None; xs.len()];
            for (c, d) in dims.scatter_dims_to_operand_dims.iter().enumerate() {
                let mut steps: Vec<Step> = (0..us.len())
                    .map(|u| match scatter.iter().position(|s| *s == u) {
                        Some(j) => step(Transform::Pass, vec![u], vec![ind_batch[j]]),
                        None => step(Transform::Broadcast, vec![u], vec![]),
                    })
                    .collect();
                if ivd < is.len() {
                    steps.push(step(
                        Transform::Freeze {
                            value: c as i64,
                            len: is[ivd],
                        },
                        vec![],
                        vec![ivd],
                    ));
                }
                let to_ind = Desc {
                    upper: us.clone(),
                    stages: vec![steps],
                };
                let v = g.eval(ib, inner, ind, &over(&to_ind, &du)?)?;
                let t = g.map(ib, &[v], &[ity], index, &mut |s, a| {
                    Ok(ab::cast::<arith::IndexCast>(s, a[0], index))
                })?;
                parts[*d as usize] = Some(t);
            }
            for (j, w) in dims.update_window_dims.iter().enumerate() {
                let d = *window
                    .get(j)
                    .ok_or("a scatter of more window dims than the operand's")?;
                let c = g.coord(ib, inner, &us, *w as usize, &du)?;
                parts[d] = Some(match parts[d] {
                    None => c,
                    Some(p) => g.map(ib, &[p, c], &[index, index], index, &mut |s, a| {
                        Ok(ab::binary::<arith::AddI>(s, a[0], a[1]))
                    })?,
                });
            }
            let mut ins = vec![own];
            let mut used = Vec::new();
            for (d, p) in parts.iter().enumerate() {
                if let Some(p) = p {
                    ins.push(*p);
                    used.push(d);
                }
            }
            let n = ins.len();
            g.map(ib, &ins, &vec![index; n], i1t, &mut |s, a| {
                let mut at = ab::index(s, 0);
                let mut ok: Option<Value> = None;
                for (t, d) in a[1..].iter().zip(&used) {
                    let (zero, len) = (ab::index(s, 0), ab::index(s, xs[*d]));
                    let ge = ab::cmpi(s, ab::CmpIPredicate::Sge, *t, zero);
                    let lt = ab::cmpi(s, ab::CmpIPredicate::Slt, *t, len);
                    let inb = ab::binary::<arith::AndI>(s, ge, lt);
                    ok = Some(match ok {
                        None => inb,
                        Some(o) => ab::binary::<arith::AndI>(s, o, inb),
                    });
                    let st = ab::index(s, strides[*d]);
                    let p = ab::binary::<arith::MulI>(s, *t, st);
                    at = ab::binary::<arith::AddI>(s, at, p);
                }
                let same = ab::cmpi(s, ab::CmpIPredicate::Eq, at, a[0]);
                Ok(match ok {
                    Some(o) => ab::binary::<arith::AndI>(s, o, same),
                    None => same,
                })
            })
        })
    }

    /// `graph.pad`: the operand through the padding, the value elsewhere.
    fn pad(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        p: graph::Pad,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let (x, value) = (p.x(b.ctx), p.value(b.ctx));
        let (xs, rs) = (shape(b.ctx, x), shape(b.ctx, p.result(b.ctx)));
        let lo = p.edge_padding_low(b.ctx).unwrap_or_default();
        let hi = p.edge_padding_high(b.ctx).unwrap_or_default();
        let int = p.interior_padding(b.ctx).unwrap_or_default();
        let fill = self.scalar_everywhere(b, sp, value, &rs, view)?;
        match pad_desc(&xs, &rs, &lo, &hi, &int) {
            Some(d) => {
                let d = over(&d, view)?;
                self.eval_filled(b, sp, x, &d, Some(fill))
            }
            // No element of the operand is left: all padding.
            None => Ok(fill),
        }
    }

    /// `graph.reduce_window`: a loop over each window's elements.
    fn reduce_window(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        r: graph::ReduceWindow,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let (x, init) = (r.x(b.ctx), r.init(b.ctx));
        let (xs, rs) = (shape(b.ctx, x), shape(b.ctx, r.result(b.ctx)));
        let calc = calc_of(b.ctx, elem_of(b.ctx, x));
        let float = matches!(b.ctx.type_kind(calc), TypeKind::Float(_));
        let w = r.window_dimensions(b.ctx).unwrap_or_default();
        let st = r.window_strides(b.ctx).unwrap_or_default();
        let dil = r.window_dilations(b.ctx).unwrap_or_default();
        let pad = r.padding(b.ctx).unwrap_or_default();
        let n = xs.len();
        if w.len() != n || st.len() != n || dil.len() != n || pad.len() != 2 * n {
            return Err("a window reduction of malformed attributes".into());
        }
        if pad.iter().any(|p| *p < 0) {
            return Err("a window reduction with negative padding".into());
        }
        let how = match r.kind(b.ctx).unwrap_or(ReduceKind::Sum) {
            ReduceKind::Max => Combine::Max,
            ReduceKind::Min => Combine::Min,
            ReduceKind::Sum => Combine::Sum,
            ReduceKind::Mean => return Err("a window mean".into()),
        };
        let k: i64 = w.iter().product();
        // [K] ++ result: the window's position, then each dim's padded
        // coordinate `o * stride + w * dilation`, then the operand inside
        // the padding.
        let mut s1 = vec![step(
            Transform::Merge { lens: w.clone() },
            vec![0],
            (n..2 * n).collect(),
        )];
        let mut s2 = Vec::new();
        let mut s3 = Vec::new();
        for d in 0..n {
            s1.push(step(Transform::Pass, vec![d + 1], vec![d]));
            let span = ((rs[d] - 1) * st[d] + (w[d] - 1) * dil[d] + 1)
                .max(xs[d] + pad[2 * d] + pad[2 * d + 1])
                .max(xs[d] + pad[2 * d]);
            s2.push(step(
                Transform::Embed {
                    len: span,
                    strides: vec![st[d], dil[d]],
                    offset: 0,
                },
                vec![d, n + d],
                vec![d],
            ));
            s3.push(step(
                Transform::Pad {
                    lo: pad[2 * d],
                    hi: span - pad[2 * d] - xs[d],
                },
                vec![d],
                vec![d],
            ));
        }
        let desc = Desc {
            upper: [&[k], &rs[..]].concat(),
            stages: vec![s1, s2, s3],
        };
        desc.lens()?;
        let d = over(&desc, &lift(view, k))?;
        let init = self.scalar_everywhere(b, sp, init, &rs, view)?;
        let s = self.fold(b, sp, k, calc, how, &mut |g, ib, inner| {
            g.eval_filled(ib, inner, x, &d, Some(init))
        })?;
        self.map(b, &[s, init], &[calc, calc], calc, &mut |s, a| {
            Ok(combine(s, how, float, a[0], a[1]))
        })
    }

    /// `graph.dynamic_slice`: along the dims the window does not cover,
    /// the element at the window's start plus the index.
    fn dynamic_slice(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        ds: graph::DynamicSlice,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let x = ds.x(b.ctx);
        let (xs, rs) = (shape(b.ctx, x), shape(b.ctx, ds.result(b.ctx)));
        let starts = ds.start_indices(b.ctx).to_vec();
        let dynamic: Vec<usize> = (0..xs.len()).filter(|d| rs[*d] < xs[*d]).collect();
        let place: Vec<Option<usize>> = (0..rs.len())
            .map(|d| (!dynamic.contains(&d)).then_some(d))
            .collect();
        if dynamic.is_empty() {
            return self.eval(b, sp, x, &over(&placed(&rs, &xs, &place), view)?);
        }
        let mut at = Vec::new();
        for d in &dynamic {
            let s = self.start(b, sp, starts[*d], xs[*d], rs[*d], &rs, view)?;
            let c = self.coord(b, sp, &rs, *d, view)?;
            let index = b.ctx.uniquer().ty(TypeKind::Index);
            at.push(self.map(b, &[s, c], &[index, index], index, &mut |s, a| {
                Ok(ab::binary::<arith::AddI>(s, a[0], a[1]))
            })?);
        }
        let lens: Vec<i64> = dynamic.iter().map(|d| xs[*d]).collect();
        let target = self.linear(b, &at, &strides_of(&lens), None)?;
        let k: i64 = lens.iter().product();
        let d = over(&gather(k, &rs, &xs, &dynamic, &place), &lift(view, k))?;
        let calc = calc_of(b.ctx, elem_of(b.ctx, x));
        let zero = ab::number(b, 0.0, calc);
        let init = self.splat(b, zero);
        self.pick(b, sp, k, init, target, x, &d)
    }

    /// `graph.dynamic_update_slice`: the operand, but inside the window,
    /// where the update's element at the index less the start.
    fn dynamic_update_slice(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        du: graph::DynamicUpdateSlice,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let (x, u) = (du.x(b.ctx), du.update(b.ctx));
        let (xs, us) = (shape(b.ctx, x), shape(b.ctx, u));
        let starts = du.start_indices(b.ctx).to_vec();
        let dynamic: Vec<usize> = (0..xs.len()).filter(|d| us[*d] < xs[*d]).collect();
        if dynamic.is_empty() {
            // The update covers the whole operand.
            return self.eval(b, sp, u, view);
        }
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let i1t = b.ctx.uniquer().int_type(1);
        let mut rel = Vec::new();
        let mut inside_all: Option<Value> = None;
        for d in &dynamic {
            let s = self.start(b, sp, starts[*d], xs[*d], us[*d], &xs, view)?;
            let c = self.coord(b, sp, &xs, *d, view)?;
            let len = us[*d];
            let r = self.map(b, &[c, s], &[index, index], index, &mut |s, a| {
                Ok(ab::binary::<arith::SubI>(s, a[0], a[1]))
            })?;
            let ok = self.map(b, &[r], &[index], i1t, &mut |s, a| {
                let (zero, n) = (ab::index(s, 0), ab::index(s, len));
                let ge = ab::cmpi(s, ab::CmpIPredicate::Sge, a[0], zero);
                let lt = ab::cmpi(s, ab::CmpIPredicate::Slt, a[0], n);
                Ok(ab::binary::<arith::AndI>(s, ge, lt))
            })?;
            inside_all = Some(match inside_all {
                None => ok,
                Some(p) => self.map(b, &[p, ok], &[i1t, i1t], i1t, &mut |s, a| {
                    Ok(ab::binary::<arith::AndI>(s, a[0], a[1]))
                })?,
            });
            rel.push(r);
        }
        let lens: Vec<i64> = dynamic.iter().map(|d| us[*d]).collect();
        let target = self.linear(b, &rel, &strides_of(&lens), inside_all)?;
        let k: i64 = lens.iter().product();
        let place: Vec<Option<usize>> = (0..xs.len())
            .map(|d| (!dynamic.contains(&d)).then_some(d))
            .collect();
        let d = over(&gather(k, &xs, &us, &dynamic, &place), &lift(view, k))?;
        let init = self.eval(b, sp, x, view)?;
        self.pick(b, sp, k, init, target, u, &d)
    }

    /// `graph.gather`: each element's slice start from the indices (at its
    /// batch coordinates), plus its offset in the slice.
    fn gather(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        g: graph::Gather,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let (x, ind) = (g.x(b.ctx), g.indices(b.ctx));
        let (xs, is, rs) = (
            shape(b.ctx, x),
            shape(b.ctx, ind),
            shape(b.ctx, g.result(b.ctx)),
        );
        let dims = g
            .dimension_numbers(b.ctx)
            .and_then(|a| aic_dialects::stablehlo::attrs::GatherDims::of(b.ctx.uniquer(), a))
            .cloned()
            .ok_or("a gather without dimension numbers")?;
        let sizes = g.slice_sizes(b.ctx).unwrap_or_default();
        if !dims.operand_batching_dims.is_empty() {
            return Err("a gather with operand batching dims is not generated".into());
        }
        let ivd = dims.index_vector_dim as usize;
        let batch: Vec<usize> = (0..rs.len())
            .filter(|d| !dims.offset_dims.contains(&(*d as i64)))
            .collect();
        let ind_batch: Vec<usize> = (0..is.len()).filter(|d| *d != ivd).collect();
        // The operand dims the offset dims give, in order.
        let kept: Vec<usize> = (0..xs.len())
            .filter(|d| !dims.collapsed_slice_dims.contains(&(*d as i64)))
            .collect();
        let offset_of = |d: usize| -> Option<usize> {
            kept.iter()
                .position(|k| *k == d)
                .map(|j| dims.offset_dims[j] as usize)
        };
        // Indexed dims whose windows do not cover them.
        let mut dynamic = Vec::new();
        let mut component = Vec::new();
        for (k, d) in dims.start_index_map.iter().enumerate() {
            let d = *d as usize;
            if xs[d] > sizes[d] && !dynamic.contains(&d) {
                dynamic.push(d);
                component.push(k);
            }
        }
        let mut place = vec![None; rs.len()];
        for d in 0..xs.len() {
            if !dynamic.contains(&d)
                && let Some(o) = offset_of(d)
            {
                place[o] = Some(d);
            }
        }
        if dynamic.is_empty() {
            return self.eval(b, sp, x, &over(&placed(&rs, &xs, &place), view)?);
        }
        // Component `k` of the index vector at each element's batch coordinates.
        let index_view = |k: usize| -> Desc {
            let mut steps: Vec<Step> = (0..rs.len())
                .map(|i| match batch.iter().position(|b| *b == i) {
                    Some(j) => step(Transform::Pass, vec![i], vec![ind_batch[j]]),
                    None => step(Transform::Broadcast, vec![i], vec![]),
                })
                .collect();
            if ivd < is.len() {
                steps.push(step(
                    Transform::Freeze {
                        value: k as i64,
                        len: is[ivd],
                    },
                    vec![],
                    vec![ivd],
                ));
            }
            Desc {
                upper: rs.clone(),
                stages: vec![steps],
            }
        };
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let ity = calc_of(b.ctx, elem_of(b.ctx, ind));
        let mut at = Vec::new();
        for (d, k) in dynamic.iter().zip(&component) {
            let v = self.eval(b, sp, ind, &over(&index_view(*k), view)?)?;
            let s = self.as_index(b, v, ity, (xs[*d] - sizes[*d]).max(0))?;
            at.push(match offset_of(*d) {
                Some(o) => {
                    let c = self.coord(b, sp, &rs, o, view)?;
                    self.map(b, &[s, c], &[index, index], index, &mut |s, a| {
                        Ok(ab::binary::<arith::AddI>(s, a[0], a[1]))
                    })?
                }
                None => s,
            });
        }
        let lens: Vec<i64> = dynamic.iter().map(|d| xs[*d]).collect();
        let target = self.linear(b, &at, &strides_of(&lens), None)?;
        let k: i64 = lens.iter().product();
        let d = over(&gather(k, &rs, &xs, &dynamic, &place), &lift(view, k))?;
        let calc = calc_of(b.ctx, elem_of(b.ctx, x));
        let zero = ab::number(b, 0.0, calc);
        let init = self.splat(b, zero);
        self.pick(b, sp, k, init, target, x, &d)
    }
}

impl Gen<'_> {
    /// Result `k` of `graph.sort`: along the dim, the operand's element at
    /// the position whose key ranks at this element's index.
    fn sort(
        &mut self,
        b: &mut Builder<'_>,
        sp: &Iter,
        so: graph::Sort,
        k: usize,
        view: &Desc,
    ) -> Result<Value, Skip> {
        let inputs = so.inputs(b.ctx).to_vec();
        let (keys, src) = (inputs[0], inputs[k]);
        let xs = shape(b.ctx, keys);
        let dim = norm_axis(so.dimension(b.ctx).unwrap_or(0), xs.len())?;
        let descending = so.descending(b.ctx).unwrap_or(false);
        let kc = calc_of(b.ctx, elem_of(b.ctx, keys));
        let bits = match b.ctx.type_kind(kc) {
            TypeKind::Float(f) => Some(f.bit_width()),
            TypeKind::Integer { width, .. } if *width > 1 => None,
            _ => return Err("a sort of keys that are not numbers".into()),
        };
        let n = xs[dim];
        let index = b.ctx.uniquer().ty(TypeKind::Index);
        let i1t = b.ctx.uniquer().int_type(1);
        let i64t = b.ctx.uniquer().int_type(64);
        // From `[n] ++` a space of the shape: the line's position `n` at
        // `dim`, the other dims as they are (and a dim dropped after `n`).
        let place: Vec<Option<usize>> = (0..xs.len()).map(|d| (d != dim).then_some(d)).collect();
        let at_m = over(&gather(n, &xs, &xs, &[dim], &place), &lift(view, n))?;
        let lifted = lift(view, n);
        let rest = [&[n], &xs[..]].concat();
        let place_t: Vec<Option<usize>> = std::iter::once(None).chain(place.clone()).collect();
        let at_t = over(&gather(n, &rest, &xs, &[dim], &place_t), &lift(&lifted, n))?;
        let j = self.coord(b, sp, &xs, dim, view)?;
        let zero = ab::number(b, 0.0, calc_of(b.ctx, elem_of(b.ctx, src)));
        let init = self.splat(b, zero);
        let canonical = so.canonical(b.ctx).unwrap_or(false);
        // A key's bits as a signed integer ordered as the keys' total order
        // (canonical: -0 as +0, every NaN as +NaN first).
        let ordered = move |s: &mut Builder<'_>, x: Value| -> Value {
            let Some(w) = bits else { return x };
            let x = if canonical {
                let ty = s.ctx.value_type(x);
                let zero = ab::number(s, 0.0, ty);
                let nan = ab::number(s, f64::NAN, ty);
                let z = ab::cmpf(s, ab::CmpFPredicate::Oeq, x, zero);
                let x = ab::select(s, z, zero, x);
                let n = ab::cmpf(s, ab::CmpFPredicate::Uno, x, x);
                ab::select(s, n, nan, x)
            } else {
                x
            };
            let it = s.ctx.uniquer().int_type(w);
            let raw = ab::cast::<arith::Bitcast>(s, x, it);
            let sh = ab::int(s, i64::from(w) - 1, it);
            let sign = ab::binary::<arith::ShRSI>(s, raw, sh);
            let one = ab::int(s, 1, it);
            let mask = ab::binary::<arith::ShRUI>(s, sign, one);
            ab::binary::<arith::XOrI>(s, raw, mask)
        };
        self.gather_loop(b, sp, n, init, src, &at_m, None, &mut |g, ib, inner, m| {
            let km = g.eval(ib, inner, keys, &at_m)?;
            let rank = g.fold(ib, inner, n, i64t, Combine::Sum, &mut |g2, ib2, inner2| {
                let t = inner2.origin[0];
                let kt = g2.eval(ib2, inner2, keys, &at_t)?;
                g2.map(ib2, &[kt, km], &[kc, kc], i64t, &mut |s, a| {
                    let (x, y) = (ordered(s, a[0]), ordered(s, a[1]));
                    let before = if descending {
                        ab::cmpi(s, ab::CmpIPredicate::Sgt, x, y)
                    } else {
                        ab::cmpi(s, ab::CmpIPredicate::Slt, x, y)
                    };
                    let tie = ab::cmpi(s, ab::CmpIPredicate::Eq, x, y);
                    let earlier = ab::cmpi(s, ab::CmpIPredicate::Slt, t, m);
                    let tie = ab::binary::<arith::AndI>(s, tie, earlier);
                    let counts = ab::binary::<arith::OrI>(s, before, tie);
                    let (one, none) = (ab::int(s, 1, i64t), ab::int(s, 0, i64t));
                    Ok(ab::select(s, counts, one, none))
                })
            })?;
            g.map(ib, &[rank, j], &[i64t, index], i1t, &mut |s, a| {
                let j = ab::cast::<arith::IndexCast>(s, a[1], i64t);
                Ok(ab::cmpi(s, ab::CmpIPredicate::Eq, a[0], j))
            })
        })
    }
}

/// The view from a pad's result (shape `rs`) to its operand (`xs`): per
/// dim, the edges padded (or cut: a slice), then, with interior padding
/// `p`, the position split into the element and its `p + 1` slots of which
/// only the first is valid. `None` where a dim keeps no operand element
/// (the result is all padding).
fn pad_desc(xs: &[i64], rs: &[i64], lo: &[i64], hi: &[i64], int: &[i64]) -> Option<Desc> {
    let n = xs.len();
    let (mut s1, mut s2, mut s3, mut s4, mut s5) = (vec![], vec![], vec![], vec![], vec![]);
    // Stage 3 gives each interior-padded dim two lower dims (element,
    // slot), the others one; the slots come after all elements.
    let holes: Vec<usize> = (0..n).filter(|d| int[*d] > 0).collect();
    for d in 0..n {
        let p = int[d];
        let t = xs[d] * (p + 1);
        let (a, cut) = (lo[d].max(0), (-lo[d]).max(0));
        let h = (hi[d] - p).max(0);
        let l1 = rs[d] - a - h;
        if l1 < 1 || xs[d] < 1 || l1 + cut > t {
            return None;
        }
        s1.push(step(Transform::Pad { lo: a, hi: h }, vec![d], vec![d]));
        s2.push(step(
            Transform::Slice { begin: cut, len: t },
            vec![d],
            vec![d],
        ));
        match holes.iter().position(|x| *x == d) {
            Some(j) => {
                s3.push(step(
                    Transform::Merge {
                        lens: vec![xs[d], p + 1],
                    },
                    vec![d],
                    vec![d, n + j],
                ));
                s4.push(step(Transform::Pass, vec![d], vec![d]));
                s4.push(step(
                    Transform::Pad { lo: 0, hi: p },
                    vec![n + j],
                    vec![n + j],
                ));
                s5.push(step(Transform::Pass, vec![d], vec![d]));
                s5.push(step(Transform::Broadcast, vec![n + j], vec![]));
            }
            None => {
                s3.push(step(Transform::Pass, vec![d], vec![d]));
                s4.push(step(Transform::Pass, vec![d], vec![d]));
                s5.push(step(Transform::Pass, vec![d], vec![d]));
            }
        }
    }
    let stages = if holes.is_empty() {
        vec![s1, s2]
    } else {
        vec![s1, s2, s3, s4, s5]
    };
    let d = Desc {
        upper: rs.to_vec(),
        stages,
    };
    d.lens().ok()?;
    Some(d)
}
