//! The graph ops' meaning for the reference interpreter, one hook per op (or
//! family) that its spec names, built on the tensor kernels StableHLO's
//! semantics use too (`crate::kernels`): `matmul` is a `dot_general`,
//! `conv2d` a `convolution`, the activations and normalisations are computed
//! in `f64` and rounded once to the element type; binary ops that mean what
//! an arith op means on floats apply its scalar definition
//! (`crate::arith::scalar`).

use super::verify::norm_axis;
use super::{
    Broadcast, Concat, Constant, Conv2d, ConvLayout, Layernorm, Matmul, Reduce, ReduceKind,
    Rmsnorm, Slice, Softmax, Split, Transpose,
};
use crate::kernels::{
    Binary, Combiner, ConvDims, ConvWindow, DotDims, Groups, at, broadcast_to, concat_along, conv,
    convert, count, dot, fold_floats, fold_ints, for_each_index, linear, offsets, out, permute,
    result_elem, result_shape, strided_slice, strides, take, unsupported,
};
use crate::math::fold::libm;
use aic::attributes::Attr;
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;

type Res = IResult<Vec<Tensor>>;

/// `sqrt(2 / pi)`, of GeLU's tanh approximation.
pub(super) const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

/// A binary op's meaning on float elements.
#[derive(Clone, Copy)]
pub enum Float {
    /// The arith op's scalar definition (`crate::arith::scalar`), where the
    /// graph op means the same.
    Arith(&'static crate::arith::scalar::FloatRow),
    /// A function of its own.
    Fn(fn(f64, f64) -> f64),
    /// No meaning on floats (a bitwise op).
    None,
}

impl Float {
    /// The function, if defined.
    pub fn function(self) -> Option<fn(f64, f64) -> f64> {
        match self {
            Float::Arith(row) => Some(row.f),
            Float::Fn(f) => Some(f),
            Float::None => None,
        }
    }
}

/// The single result of `op` holding `data`.
pub(super) fn single(ctx: &Context, op: Op, data: Data) -> Res {
    Ok(vec![out(ctx, op, 0, data)])
}

/// A unary elementwise op: `f` on each element, in `f64`, rounded once.
pub(super) fn unary(it: &mut Interp<'_>, op: Op, args: &[Tensor], f: fn(f64) -> f64) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let Data::Float(v) = &args[0].data else {
        return Err(unsupported(op, ctx, "non-float tensors"));
    };
    single(ctx, op, Data::from_f64s(er.float_kind(), v.iter().map(f)))
}

/// A binary elementwise op whose rank-0 operand broadcasts: `float` on float
/// elements, StableHLO's `int` (XLA's rules) on integers.
pub(super) fn binary(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    float: Float,
    int: &Binary,
) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let (x, y) = (&args[0], &args[1]);
    let n = x.len().max(y.len());
    let data = match (&x.data, &y.data) {
        (Data::Float(p), Data::Float(q)) => {
            let f = float
                .function()
                .ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::from_f64s(er.float_kind(), (0..n).map(|i| f(at(p, i), at(q, i))))
        }
        (Data::Int(p), Data::Int(q)) => {
            let e = x.elem(ctx);
            let f = int.int();
            Data::from_i64s(
                er,
                (0..n).map(|i| er.wrap(f.map_or(0, |f| f(e, at(p, i), at(q, i))))),
            )
        }
        _ => return Err(unsupported(op, ctx, "these operands")),
    };
    single(ctx, op, data)
}

/// `matmul` and `batch_matmul`: a `dot_general` contracting the last
/// dimension of the lhs (after `transpose_a`) with the rhs's second last
/// (after `transpose_b`), over the shared batch dimensions.
pub(super) fn matmul(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let (l, r) = (&args[0], &args[1]);
    let (la, lb) = (l.shape.len() as i64, r.shape.len() as i64);
    let (ta, tb) = match Matmul::of(ctx, op) {
        Some(m) => (m.transpose_a(ctx).is_some(), m.transpose_b(ctx).is_some()),
        None => (false, false),
    };
    let shared_weight = lb == 2 && la > 2;
    let d = DotDims {
        lhs_batch: if shared_weight {
            vec![]
        } else {
            (0..la - 2).collect()
        },
        rhs_batch: if shared_weight {
            vec![]
        } else {
            (0..lb - 2).collect()
        },
        lhs_contract: vec![if ta { la - 2 } else { la - 1 }],
        rhs_contract: vec![if tb { lb - 1 } else { lb - 2 }],
    };
    single(ctx, op, dot(ctx, l, r, &d, er))
}

/// `conv2d`: a `convolution` in the op's layout.
pub(super) fn conv2d(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let c = Conv2d(op);
    let nhwc = c.layout(ctx) != Some(ConvLayout::Nchw);
    let dims = if nhwc {
        "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
    } else {
        "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
    };
    let d = ConvDims::parse_compact(dims).expect("fixed layouts parse");
    let w = ConvWindow {
        stride: c.strides(ctx).unwrap_or_default(),
        padding: c.padding(ctx).unwrap_or_default(),
        lhs_dil: vec![1, 1],
        rhs_dil: c.dilations(ctx).unwrap_or_default(),
        rev: vec![0, 0],
        fgc: c.groups(ctx).unwrap_or(1),
        bgc: 1,
    };
    let oshape = result_shape(ctx, op, 0)?;
    single(ctx, op, conv(ctx, &args[0], &args[1], &d, &w, &oshape, er))
}

/// `bias_add`: the bias repeats along the last dimension.
pub(super) fn bias_add(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let (x, b) = (&args[0], &args[1]);
    let n = b.len().max(1);
    let data = match (&x.data, &b.data) {
        (Data::Float(v), Data::Float(c)) => Data::from_f64s(
            er.float_kind(),
            v.iter().enumerate().map(|(i, a)| a + c.get(i % n)),
        ),
        (Data::Int(v), Data::Int(c)) => Data::from_i64s(
            er,
            v.iter()
                .enumerate()
                .map(|(i, a)| er.wrap(i128::from(a) + i128::from(c.get(i % n)))),
        ),
        _ => return Err(unsupported(op, ctx, "these operands")),
    };
    single(ctx, op, data)
}

/// `softmax` along its axis, in `f64`, the maximum subtracted first.
pub(super) fn softmax(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let x = &args[0];
    let axis = norm_axis(Softmax(op).axis(ctx).unwrap_or(-1), x.shape.len())
        .ok_or_else(|| InterpError::at(op, "axis out of range"))?;
    let Data::Float(v) = &x.data else {
        return Err(unsupported(op, ctx, "non-float tensors"));
    };
    let mut o = v.clone();
    for line in lines(&x.shape, axis) {
        let m = line.iter().fold(f64::NEG_INFINITY, |m, i| m.max(v.get(*i)));
        let e: Vec<f64> = line.iter().map(|i| libm::exp(v.get(*i) - m)).collect();
        let s: f64 = e.iter().sum();
        for (i, ei) in line.iter().zip(e) {
            o.set(*i, ei / s);
        }
    }
    single(ctx, op, Data::Float(o))
}

/// `layernorm`: each row centred, scaled to unit variance, then by `gamma`
/// and shifted by `beta`.
pub(super) fn layernorm(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let eps = Layernorm(op).epsilon(it.ctx);
    normalise(it.ctx, op, args, eps, true)
}

/// `rmsnorm`: each row scaled to unit mean square, then by `gamma`.
pub(super) fn rmsnorm(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let eps = Rmsnorm(op).epsilon(it.ctx);
    normalise(it.ctx, op, args, eps, false)
}

/// `groupnorm`: each batch element's group of channels centred and scaled to
/// unit variance over all its elements, then each channel scaled by `gamma`
/// and shifted by `beta`.
pub(super) fn groupnorm(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let g = super::Groupnorm(op);
    let x = &args[0];
    let Data::Float(v) = &x.data else {
        return Err(unsupported(op, ctx, "non-float tensors"));
    };
    let (gamma, beta) = (args[1].to_f64s(), args[2].to_f64s());
    let eps = epsilon(ctx, g.epsilon(ctx));
    let groups = usize::try_from(g.groups(ctx).unwrap_or(1))
        .unwrap_or(1)
        .max(1);
    let c = gamma.len().max(1);
    let cg = (c / groups).max(1);
    let all = v.to_vec();
    let batch = *x.shape.first().unwrap_or(&1) as usize;
    let per = all.len() / batch.max(1);
    let mut o = v.clone();
    for b in 0..batch {
        let part = &all[b * per..(b + 1) * per];
        for k in 0..groups {
            // The group's elements: channels k*cg.. of every position.
            let idx = || (0..per / c).flat_map(move |p| (0..cg).map(move |j| p * c + k * cg + j));
            let n = (per / c * cg) as f64;
            let mean = idx().map(|i| part[i]).sum::<f64>() / n;
            let var = idx()
                .map(|i| (part[i] - mean) * (part[i] - mean))
                .sum::<f64>()
                / n;
            let inv = 1.0 / (var + eps).sqrt();
            for i in idx() {
                let ch = i % c;
                o.set(b * per + i, (part[i] - mean) * inv * gamma[ch] + beta[ch]);
            }
        }
    }
    single(ctx, op, Data::Float(o))
}

/// The normalisations over the trailing dimensions `gamma` spans; `centre`
/// subtracts the mean first (layernorm); `eps` is the `epsilon` attribute.
fn normalise(ctx: &Context, op: Op, args: &[Tensor], eps: Option<Attr>, centre: bool) -> Res {
    let x = &args[0];
    let Data::Float(v) = &x.data else {
        return Err(unsupported(op, ctx, "non-float tensors"));
    };
    let gamma = args[1].to_f64s();
    let beta = args.get(2).map(|b| b.to_f64s());
    let eps = epsilon(ctx, eps);
    let n = gamma.len().max(1);
    let mut o = v.clone();
    let all = v.to_vec();
    for (r, row) in all.chunks(n).enumerate() {
        let k = n as f64;
        let (mean, var) = if centre {
            let mean = row.iter().sum::<f64>() / k;
            (
                mean,
                row.iter().map(|a| (a - mean) * (a - mean)).sum::<f64>() / k,
            )
        } else {
            (0.0, row.iter().map(|a| a * a).sum::<f64>() / k)
        };
        let inv = 1.0 / (var + eps).sqrt();
        for (i, a) in row.iter().enumerate() {
            let shift = beta.as_ref().map_or(0.0, |b| b[i]);
            o.set(r * n + i, (a - mean) * inv * gamma[i] + shift);
        }
    }
    single(ctx, op, Data::Float(o))
}

/// `transpose`: result dimension `i` is operand dimension `perm[i]`.
pub(super) fn transpose(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let perm = Transpose(op).perm(ctx).unwrap_or_default();
    Ok(vec![permute(ctx, op, &args[0], &perm)?])
}

/// `reshape`: the same elements in the same order.
pub(super) fn reshape(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    single(it.ctx, op, args[0].data.clone())
}

/// `broadcast`: operand dimension `k` becomes result dimension `dims[k]`.
pub(super) fn broadcast(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let dims = Broadcast(op).dims(ctx).unwrap_or_default();
    Ok(vec![broadcast_to(ctx, op, &args[0], &dims)?])
}

/// `slice`: a strided slice (the result type gives the limits).
pub(super) fn slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let s = Slice(op);
    let (start, step) = (
        s.start(ctx).unwrap_or_default(),
        s.strides(ctx).unwrap_or_default(),
    );
    Ok(vec![strided_slice(ctx, op, &args[0], &start, &step)?])
}

/// `concat` along its axis.
pub(super) fn concat(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let axis = norm_axis(Concat(op).axis(ctx).unwrap_or(0), args[0].shape.len())
        .ok_or_else(|| InterpError::at(op, "axis out of range"))?;
    Ok(vec![concat_along(ctx, op, args, axis)?])
}

/// `split`: consecutive pieces along the axis, sized by the result types.
pub(super) fn split(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let x = &args[0];
    let axis = norm_axis(Split(op).axis(ctx).unwrap_or(0), x.shape.len())
        .ok_or_else(|| InterpError::at(op, "axis out of range"))?;
    let st = strides(&x.shape);
    let mut start = 0i64;
    let mut results = Vec::new();
    for k in 0..ctx.num_results(op) {
        let shape = result_shape(ctx, op, k)?;
        let mut idx = Vec::with_capacity(count(&shape));
        for_each_index(&shape, |i| {
            let mut j = i.to_vec();
            j[axis] += start;
            idx.push(Some(linear(&j, &st)));
        });
        start += shape[axis];
        results.push(out(ctx, op, k, take(&x.data, &idx, None)));
    }
    Ok(results)
}

/// `cast`: StableHLO's `convert`.
pub(super) fn cast(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    single(ctx, op, convert(&args[0].data, args[0].elem(ctx), er))
}

/// `constant`: its value.
pub(super) fn constant(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let v = Constant(op)
        .value(ctx)
        .ok_or_else(|| InterpError::at(op, "constant without a value"))?;
    let t = aic::interp::tensor_of_attr(ctx, v, ctx.value_type(ctx.result(op, 0)))
        .ok_or_else(|| InterpError::at(op, "unsupported constant"))?;
    Ok(vec![t])
}

/// The value of an `epsilon` attribute (1e-5 where absent).
pub fn epsilon(ctx: &Context, eps: Option<Attr>) -> f64 {
    eps.and_then(|a| match ctx.attr_kind(a) {
        aic::attributes::AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
            aic::types::TypeKind::Float(k) => Some(k.to_f64(*bits)),
            _ => None,
        },
        _ => None,
    })
    .unwrap_or(1e-5)
}

/// The linear indices of every line of `shape` along `axis`.
fn lines(shape: &[i64], axis: usize) -> Vec<Vec<usize>> {
    let st = strides(shape);
    let mut outer = shape.to_vec();
    outer[axis] = 1;
    let mut v = Vec::new();
    for_each_index(&outer, |i| {
        let base = linear(i, &st);
        v.push(
            (0..shape[axis] as usize)
                .map(|k| base + k * st[axis])
                .collect(),
        );
    });
    v
}

/// `reduce`: the kind's combiner over the axes; sums accumulate in `f64`.
pub(super) fn reduce(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    single(ctx, op, reduce_data(ctx, op, &args[0], er)?)
}

fn reduce_data(ctx: &Context, op: Op, x: &Tensor, er: Elem) -> IResult<Data> {
    let kind = Reduce(op).kind(ctx).unwrap_or(ReduceKind::Sum);
    let axes: Vec<i64> = Reduce(op)
        .axes(ctx)
        .unwrap_or_default()
        .iter()
        .filter_map(|a| norm_axis(*a, x.shape.len()).map(|v| v as i64))
        .collect();
    let keep: Vec<i64> = (0..x.shape.len() as i64)
        .filter(|i| !axes.contains(i))
        .collect();
    let st = strides(&x.shape);
    let inner = offsets(&x.shape, &st, &axes);
    let outer = offsets(&x.shape, &st, &keep);
    let n = inner.len();
    let groups = Groups::Product { outer, inner };
    let combiner = match kind {
        ReduceKind::Max => Combiner::Maximum,
        ReduceKind::Min => Combiner::Minimum,
        _ => Combiner::Add,
    };
    let e = x.elem(ctx);
    let data = match &x.data {
        Data::Float(v) => {
            let init = match kind {
                ReduceKind::Max => f64::NEG_INFINITY,
                ReduceKind::Min => f64::INFINITY,
                _ => 0.0,
            };
            // Sums accumulate in f64 and round once, as a fused reduction does.
            let acc = fold_floats(
                combiner,
                Elem::Float(aic::float::FloatKind::F64),
                &groups,
                v,
                init,
            )
            .ok_or_else(|| unsupported(op, ctx, "floats"))?;
            let scale = if kind == ReduceKind::Mean {
                1.0 / n.max(1) as f64
            } else {
                1.0
            };
            Data::from_f64s(er.float_kind(), acc.into_iter().map(|a| a * scale))
        }
        Data::Int(v) => {
            let init = match kind {
                ReduceKind::Max => i64::MIN,
                ReduceKind::Min => i64::MAX,
                _ => 0,
            };
            let acc = fold_ints(combiner, e, &groups, v, init)
                .ok_or_else(|| unsupported(op, ctx, "this integer type"))?;
            Data::from_i64s(
                er,
                acc.into_iter().map(|a| {
                    let a = i128::from(a);
                    er.wrap(if kind == ReduceKind::Mean {
                        a / n.max(1) as i128
                    } else {
                        a
                    })
                }),
            )
        }
        _ => return Err(unsupported(op, ctx, "complex numbers")),
    };
    Ok(data)
}

/// `compare`: StableHLO's `compare` with its default comparison type.
pub(super) fn compare(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let dir = super::Compare::wrap(op)
        .direction(it.ctx)
        .ok_or_else(|| InterpError::at(op, "missing direction"))?;
    crate::stablehlo::interp::elementwise::compare_by(
        it,
        op,
        args,
        dir,
        crate::stablehlo::ComparisonType::NoType,
    )
}

/// `iota`: each element's index along `dim`.
pub(super) fn iota(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let shape = result_shape(ctx, op, 0)?;
    let d = super::Iota::wrap(op).dim(ctx).unwrap_or(0).max(0) as usize;
    let e = result_elem(ctx, op, 0)?;
    let n = count(&shape);
    let size = shape.get(d).map_or(1, |s| (*s).max(1) as usize);
    let stride = shape.get(d + 1..).map_or(1, count).max(1);
    single(
        ctx,
        op,
        Data::from_fn(e, n, |i| ((i / stride) % size) as f64),
    )
}

/// `reduce_window`: each window's elements (the padding reads `init`)
/// combined from `init`; sums accumulate in `f64` and round once.
pub(super) fn reduce_window(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let rw = super::ReduceWindow(op);
    let (x, init) = (&args[0], &args[1]);
    let er = result_elem(ctx, op, 0)?;
    let oshape = result_shape(ctx, op, 0)?;
    let w = rw.window_dimensions(ctx).unwrap_or_default();
    let s = rw.window_strides(ctx).unwrap_or_default();
    let dil = rw.window_dilations(ctx).unwrap_or_default();
    let pad = rw.padding(ctx).unwrap_or_default();
    let r = x.shape.len();
    if w.len() != r || s.len() != r || dil.len() != r || pad.len() != 2 * r {
        return Err(InterpError::at(op, "malformed window attributes"));
    }
    let st = strides(&x.shape);
    let mut lists = Vec::new();
    for_each_index(&oshape, |o| {
        let mut elems = Vec::new();
        for_each_index(&w, |k| {
            let mut lin = 0;
            for d in 0..r {
                let p = o[d] * s[d] + k[d] * dil[d] - pad[2 * d];
                if p < 0 || p >= x.shape[d] {
                    elems.push(None);
                    return;
                }
                lin += p as usize * st[d];
            }
            elems.push(Some(lin));
        });
        lists.push(elems);
    });
    let groups = Groups::Lists(lists);
    let kind = rw.kind(ctx).unwrap_or(ReduceKind::Sum);
    let combiner = match kind {
        ReduceKind::Max => Combiner::Maximum,
        ReduceKind::Min => Combiner::Minimum,
        _ => Combiner::Add,
    };
    let e = x.elem(ctx);
    let data = match (&x.data, &init.data) {
        (Data::Float(v), Data::Float(i)) => {
            let acc = fold_floats(
                combiner,
                Elem::Float(aic::float::FloatKind::F64),
                &groups,
                v,
                i.first(),
            )
            .ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::from_f64s(er.float_kind(), acc)
        }
        (Data::Int(v), Data::Int(i)) => {
            let acc = fold_ints(combiner, e, &groups, v, i.first())
                .ok_or_else(|| unsupported(op, ctx, "this integer type"))?;
            Data::from_i64s(er, acc.into_iter().map(|a| er.wrap(i128::from(a))))
        }
        _ => return Err(unsupported(op, ctx, "these element types")),
    };
    single(ctx, op, data)
}

/// `scatter`: each update, in order, combined into the element it lands on
/// (skipped out of bounds).
pub(super) fn scatter(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    use super::ScatterKind;
    let ctx = it.ctx;
    let (x, ind, upd) = (&args[0], &args[1], &args[2]);
    let s = super::Scatter(op);
    let d = s
        .scatter_dimension_numbers(ctx)
        .and_then(|a| crate::stablehlo::attrs::ScatterDims::of(ctx, a))
        .ok_or_else(|| InterpError::at(op, "malformed scatter_dimension_numbers"))?;
    let kind = s.kind(ctx).unwrap_or(ScatterKind::Set);
    let (ie, e) = (ind.elem(ctx), x.elem(ctx));
    let st = strides(&x.shape);
    let mut dest = Vec::new();
    for_each_index(&upd.shape, |ui| {
        dest.push(
            crate::stablehlo::interp::regions::scatter_destination(d, ind, ie, &x.shape, ui)
                .map(|full| linear(&full, &st)),
        );
    });
    let data = match (&x.data, &upd.data) {
        (Data::Float(a), Data::Float(u)) => {
            let mut v: Vec<f64> = (0..x.len()).map(|i| a.get(i)).collect();
            for (k, t) in dest.iter().enumerate() {
                if let Some(t) = t {
                    let (cur, new) = (v[*t], u.get(k));
                    v[*t] = match kind {
                        ScatterKind::Set => new,
                        ScatterKind::Add => e.round(cur + new),
                        ScatterKind::Max => {
                            crate::kernels::MAXIMUM.float().map_or(new, |f| f(cur, new))
                        }
                        ScatterKind::Min => {
                            crate::kernels::MINIMUM.float().map_or(new, |f| f(cur, new))
                        }
                    };
                }
            }
            Data::from_f64s(e.float_kind(), v)
        }
        (Data::Int(a), Data::Int(u)) => {
            let mut v: Vec<i64> = (0..x.len()).map(|i| a.get(i)).collect();
            for (k, t) in dest.iter().enumerate() {
                if let Some(t) = t {
                    let (cur, new) = (v[*t], u.get(k));
                    v[*t] = match kind {
                        ScatterKind::Set => new,
                        ScatterKind::Add => e.wrap(i128::from(cur) + i128::from(new)),
                        ScatterKind::Max => crate::kernels::MAXIMUM
                            .int()
                            .map_or(new, |f| e.wrap(f(e, cur, new))),
                        ScatterKind::Min => crate::kernels::MINIMUM
                            .int()
                            .map_or(new, |f| e.wrap(f(e, cur, new))),
                    };
                }
            }
            Data::from_i64s(e, v)
        }
        _ => return Err(unsupported(op, ctx, "these element types")),
    };
    single(ctx, op, data)
}

/// `sort`: each line along the dim ordered stably by the first operand in
/// total order (descending: reversed comparisons, still stable), every
/// operand permuted alike.
pub(super) fn sort(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let s = super::Sort(op);
    let keys = &args[0];
    let dim = norm_axis(s.dimension(ctx).unwrap_or(0), keys.shape.len())
        .ok_or_else(|| InterpError::at(op, "dim out of range"))?;
    let descending = s.descending(ctx).unwrap_or(false);
    // Keys in total order: floats by their IEEE total order, integers by value.
    let cmp: Box<dyn Fn(usize, usize) -> std::cmp::Ordering> = match &keys.data {
        Data::Float(v) => {
            let canonical = s.canonical(ctx).unwrap_or(false);
            let k: Vec<f64> = (0..keys.len())
                .map(|i| {
                    let x = v.get(i);
                    match x {
                        _ if canonical && x.is_nan() => f64::NAN.abs(),
                        _ if canonical && x == 0.0 => 0.0,
                        _ => x,
                    }
                })
                .collect();
            Box::new(move |a, b| k[a].total_cmp(&k[b]))
        }
        Data::Int(v) => {
            let e = keys.elem(ctx);
            let k: Vec<i128> = (0..keys.len())
                .map(|i| crate::kernels::value(e, v.get(i)))
                .collect();
            Box::new(move |a, b| k[a].cmp(&k[b]))
        }
        _ => return Err(unsupported(op, ctx, "complex keys")),
    };
    let mut perm: Vec<usize> = (0..keys.len()).collect();
    for line in lines(&keys.shape, dim) {
        let mut order = line.clone();
        order.sort_by(|a, b| {
            let o = cmp(*a, *b);
            if descending { o.reverse() } else { o }
        });
        for (dst, src) in line.iter().zip(order) {
            perm[*dst] = src;
        }
    }
    let idx: Vec<Option<usize>> = perm.into_iter().map(Some).collect();
    Ok(args
        .iter()
        .enumerate()
        .map(|(k, t)| out(ctx, op, k, take(&t.data, &idx, None)))
        .collect())
}
