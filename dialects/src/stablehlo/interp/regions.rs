//! The ops with regions or dimension numbers: `dot_general` and `dot`,
//! `convolution`, the reductions and window ops, `gather`, `scatter`, `sort`,
//! control flow, `map`, `composite`, and chlo's `top_k`.

use super::elementwise::total_key;
use super::{Res, need_ints};
use crate::kernels::{
    self, Binary, Combiner, ConvWindow, Groups, concat_data, conv, convert, count, fold_floats,
    fold_ints, for_each_index, linear, map_indices, offsets, out, remap, result_elem, result_shape,
    strides, take, to_f64, unsupported, value,
};
use crate::stablehlo::attrs::{ConvDims, DotDims, GatherDims, ScatterDims};
use crate::stablehlo::structured::DotGeneral;
use aic::constraints::{i64_array_attr, int_value, op_attr};
use aic::dialect::OpSpec;
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Ints, Tensor};
use aic::ir::{Context, Op, Region};
use aic::types::{Type, TypeKind};

/// `dot_general`.
pub fn dot_general(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let d = DotGeneral(op)
        .dot_dimension_numbers(ctx)
        .and_then(|a| DotDims::of(ctx, a))
        .ok_or_else(|| InterpError::at(op, "malformed dot_dimension_numbers"))?;
    contract(it, op, args, d)
}

/// `dot`: `dot_general` contracting the lhs's last dimension with the rhs's first.
pub fn dot(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let (l, r) = (&args[0], &args[1]);
    let d = DotDims {
        lhs_contract: if l.shape.is_empty() {
            vec![]
        } else {
            vec![l.shape.len() as i64 - 1]
        },
        rhs_contract: if r.shape.is_empty() { vec![] } else { vec![0] },
        ..Default::default()
    };
    contract(it, op, args, &d)
}

fn contract(it: &mut Interp<'_>, op: Op, args: &[Tensor], d: &DotDims) -> Res {
    let ctx = it.ctx;
    if crate::stablehlo::quantize::is_quantized(ctx, op) {
        return crate::stablehlo::quantize::dequantize_contract(ctx, op, args, |a, b, e| {
            kernels::dot(ctx, a, b, d, e)
        });
    }
    let er = result_elem(ctx, op, 0)?;
    let data = kernels::dot(ctx, &args[0], &args[1], d, er);
    Ok(vec![out(ctx, op, 0, data)])
}

/// `convolution`.
pub fn convolution(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let padding = i64_array_attr(it.ctx, op, "padding");
    convolution_padded(it.ctx, op, args, padding)
}

/// `convolution` and `dynamic_conv`: the window attributes from `op`, the
/// padding (`[lo, hi]` per spatial dimension, flattened) given.
pub fn convolution_padded(
    ctx: &Context,
    op: Op,
    args: &[Tensor],
    padding: Option<Vec<i64>>,
) -> Res {
    let (x, k) = (&args[0], &args[1]);
    let d = op_attr(ctx, op, "dimension_numbers")
        .and_then(|a| ConvDims::of(ctx, a))
        .ok_or_else(|| InterpError::at(op, "malformed dimension_numbers"))?;
    let ns = d.in_spatial.len();
    let get = |name: &str, default: i64| {
        i64_array_attr(ctx, op, name).unwrap_or_else(|| vec![default; ns])
    };
    let stride = get("window_strides", 1);
    let lhs_dil = get("lhs_dilation", 1);
    let rhs_dil = get("rhs_dilation", 1);
    let rev = get("window_reversal", 0);
    let padding = padding.unwrap_or_else(|| vec![0; 2 * ns]);
    let fgc = op_attr(ctx, op, "feature_group_count")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(1)
        .max(1);
    let bgc = op_attr(ctx, op, "batch_group_count")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(1)
        .max(1);
    let oshape = result_shape(ctx, op, 0)?;
    let er = result_elem(ctx, op, 0)?;
    if matches!(x.data, Data::Complex(_)) {
        return Err(unsupported(op, ctx, "complex numbers"));
    }
    let w = ConvWindow {
        stride,
        padding,
        lhs_dil,
        rhs_dil,
        rev,
        fgc,
        bgc,
    };
    if crate::stablehlo::quantize::is_quantized(ctx, op) {
        return crate::stablehlo::quantize::dequantize_contract(ctx, op, args, |x, k, e| {
            conv(ctx, x, k, d, &w, &oshape, e)
        });
    }
    Ok(vec![out(ctx, op, 0, conv(ctx, x, k, d, &w, &oshape, er))])
}

// ---------------------------------------------------------------- regions

/// A scalar (rank-0) tensor of `t`'s element type holding element `i` of `t`.
fn scalar_at(ctx: &Context, t: &Tensor, i: usize, ty: Type) -> Tensor {
    let data = take(&t.data, &[Some(i)], None);
    let _ = ctx;
    Tensor {
        ty,
        shape: Vec::new(),
        data,
    }
}

/// The rank-0 tensor type of `t`'s element type.
fn scalar_type(ctx: &Context, t: Type) -> Type {
    let elem = ctx.type_kind(t).element_type().unwrap_or(t);
    ctx.uniquer().ty(TypeKind::Tensor {
        shape: Default::default(),
        elem,
        encoding: None,
    })
}

/// The reduction bodies with a fast path: the op, its combiner for
/// [`fold_floats`]/[`fold_ints`] and its scalar meaning.
const COMBINERS: &[(&OpSpec, Combiner, &Binary)] = &[
    (&super::super::ADD, Combiner::Add, &kernels::ADD),
    (
        &super::super::MULTIPLY,
        Combiner::Multiply,
        &kernels::MULTIPLY,
    ),
    (&super::super::MAXIMUM, Combiner::Maximum, &kernels::MAXIMUM),
    (&super::super::MINIMUM, Combiner::Minimum, &kernels::MINIMUM),
    (&super::super::AND, Combiner::And, &kernels::AND),
    (&super::super::OR, Combiner::Or, &kernels::OR),
    (&super::super::XOR, Combiner::Xor, &kernels::XOR),
];

/// The known combiner of a region whose body is one binary op on its two
/// arguments (`stablehlo.add`, ...), for the fast reduction path.
fn simple_combiner(ctx: &Context, r: Region) -> Option<(Combiner, &'static Binary)> {
    let b = ctx.entry_block(r)?;
    let ops: Vec<Op> = ctx.block_ops(b).collect();
    let [inner, ret] = ops[..] else { return None };
    let args = ctx.block_args(b);
    if args.len() != 2 || ctx.operands(ret) != [ctx.result(inner, 0)] {
        return None;
    }
    let o = ctx.operands(inner);
    if o.len() != 2
        || !((o[0] == args[0] && o[1] == args[1]) || (o[0] == args[1] && o[1] == args[0]))
    {
        return None;
    }
    // On quantized values the body requantizes after every step (the
    // spec's dequantize_op_quantize), which the integer loops would skip.
    if crate::stablehlo::quantize::is_quantized(ctx, inner) {
        return None;
    }
    let name = ctx.op_name(inner);
    COMBINERS
        .iter()
        .find(|(spec, _, _)| spec.name == name)
        .map(|&(_, w, f)| (w, f))
}

/// Run a region on scalars, checking it returns `n` values.
fn run(it: &mut Interp<'_>, op: Op, r: Region, args: Vec<Tensor>, n: usize) -> Res {
    let v = it.run_region(r, args)?;
    if v.len() != n {
        return Err(InterpError::at(
            op,
            format!("region returned {} values, expected {n}", v.len()),
        ));
    }
    Ok(v)
}

/// Combine the groups of elements of `inputs` starting from `inits` with
/// `body`: typed loops when there is one input and `body` is a known
/// combiner, else the region per element.
fn combine_groups(
    it: &mut Interp<'_>,
    op: Op,
    body: Region,
    inputs: &[&Tensor],
    inits: &[&Tensor],
    groups: &Groups,
) -> IResult<Vec<Data>> {
    let ctx = it.ctx;
    if inputs.len() == 1
        && let Some((name, _)) = simple_combiner(ctx, body)
    {
        let e = inputs[0].elem(ctx);
        let fast = match (&inputs[0].data, &inits[0].data) {
            (Data::Float(v), Data::Float(i0)) if !i0.is_empty() => {
                fold_floats(name, e, groups, v, i0.get(0))
                    .map(|r| Data::from_f64s(e.float_kind(), r))
            }
            (Data::Int(v), Data::Int(i0)) if !i0.is_empty() => {
                fold_ints(name, e, groups, v, i0.get(0)).map(|r| Data::from_i64s(e, r))
            }
            _ => None,
        };
        if let Some(d) = fast {
            return Ok(vec![d]);
        }
    }
    combine_slow(it, op, body, inputs, inits, groups)
}

fn combine_slow(
    it: &mut Interp<'_>,
    op: Op,
    body: Region,
    inputs: &[&Tensor],
    inits: &[&Tensor],
    groups: &Groups,
) -> IResult<Vec<Data>> {
    let ctx = it.ctx;
    let n = inputs.len();
    let tys: Vec<Type> = inits.iter().map(|t| scalar_type(ctx, t.ty)).collect();
    let mut outs: Vec<Vec<Tensor>> = vec![Vec::with_capacity(groups.len()); n];
    for gi in 0..groups.len() {
        let g = groups.members(gi);
        let mut acc: Vec<Tensor> = inits
            .iter()
            .zip(&tys)
            .map(|(t, ty)| Tensor {
                ty: *ty,
                shape: Vec::new(),
                data: t.data.clone(),
            })
            .collect();
        for i in &g {
            let mut a = acc.clone();
            for (k, t) in inputs.iter().enumerate() {
                a.push(match i {
                    Some(i) => scalar_at(ctx, t, *i, tys[k]),
                    None => acc[k].clone(),
                });
            }
            acc = run(it, op, body, a, n)?;
        }
        for (k, t) in acc.into_iter().enumerate() {
            outs[k].push(t);
        }
    }
    Ok(outs
        .into_iter()
        .map(|ts| {
            let parts: Vec<&Data> = ts.iter().map(|t| &t.data).collect();
            concat_data(&parts)
        })
        .collect())
}

/// `reduce`.
pub fn reduce(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let n = args.len() / 2;
    let dims = need_ints(ctx, op, "dimensions")?;
    let a = &args[0];
    let keep: Vec<i64> = (0..a.shape.len() as i64)
        .filter(|i| !dims.contains(i))
        .collect();
    let st = strides(&a.shape);
    let inner = offsets(&a.shape, &st, &dims);
    let outer = offsets(&a.shape, &st, &keep);
    let groups = Groups::Product { outer, inner };
    let body = ctx.regions(op)[0];
    let inputs: Vec<&Tensor> = args[..n].iter().collect();
    let inits: Vec<&Tensor> = args[n..].iter().collect();
    let datas = combine_groups(it, op, body, &inputs, &inits, &groups)?;
    Ok(datas
        .into_iter()
        .enumerate()
        .map(|(k, d)| out(ctx, op, k, d))
        .collect())
}

/// Window geometry shared by reduce_window and select_and_scatter.
struct Window {
    dims: Vec<i64>,
    strides: Vec<i64>,
    base_dil: Vec<i64>,
    win_dil: Vec<i64>,
    pad_lo: Vec<i64>,
}

impl Window {
    fn of(ctx: &Context, op: Op, rank: usize) -> IResult<Window> {
        let get = |name: &str| i64_array_attr(ctx, op, name).unwrap_or_else(|| vec![1; rank]);
        let pad = i64_array_attr(ctx, op, "padding").unwrap_or_else(|| vec![0; 2 * rank]);
        Ok(Window {
            dims: need_ints(ctx, op, "window_dimensions")?,
            strides: get("window_strides"),
            base_dil: get("base_dilations"),
            win_dil: get("window_dilations"),
            pad_lo: (0..rank)
                .map(|k| pad.get(2 * k).copied().unwrap_or(0))
                .collect(),
        })
    }
    /// The input elements of the window at output index `o` (`None` for padding
    /// and the holes of base dilation).
    fn elements(&self, shape: &[i64], st: &[usize], o: &[i64]) -> Vec<Option<usize>> {
        let mut v = Vec::new();
        for_each_index(&self.dims, |w| {
            let mut lin = 0;
            for k in 0..shape.len() {
                let p = o[k] * self.strides[k] + w[k] * self.win_dil[k] - self.pad_lo[k];
                if p < 0 || p % self.base_dil[k] != 0 || p / self.base_dil[k] >= shape[k] {
                    v.push(None);
                    return;
                }
                lin += (p / self.base_dil[k]) as usize * st[k];
            }
            v.push(Some(lin));
        });
        v
    }
}

/// `reduce_window`.
pub fn reduce_window(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let n = args.len() / 2;
    let a = &args[0];
    let w = Window::of(ctx, op, a.shape.len())?;
    let st = strides(&a.shape);
    let oshape = result_shape(ctx, op, 0)?;
    let mut lists = Vec::new();
    for_each_index(&oshape, |o| lists.push(w.elements(&a.shape, &st, o)));
    let groups = Groups::Lists(lists);
    let body = ctx.regions(op)[0];
    let inputs: Vec<&Tensor> = args[..n].iter().collect();
    let inits: Vec<&Tensor> = args[n..].iter().collect();
    let datas = combine_groups(it, op, body, &inputs, &inits, &groups)?;
    Ok(datas
        .into_iter()
        .enumerate()
        .map(|(k, d)| out(ctx, op, k, d))
        .collect())
}

/// `select_and_scatter`.
pub fn select_and_scatter(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (a, source, init) = (&args[0], &args[1], &args[2]);
    let rank = a.shape.len();
    let mut w = Window::of(ctx, op, rank).or_else(|_| {
        Ok::<Window, InterpError>(Window {
            dims: vec![1; rank],
            strides: vec![1; rank],
            base_dil: vec![1; rank],
            win_dil: vec![1; rank],
            pad_lo: vec![0; rank],
        })
    })?;
    w.base_dil = vec![1; rank];
    w.win_dil = vec![1; rank];
    let st = strides(&a.shape);
    let (sel, scat) = (ctx.regions(op)[0], ctx.regions(op)[1]);
    let ty = scalar_type(ctx, a.ty);
    let tyi = scalar_type(ctx, init.ty);
    let mut result: Vec<Tensor> = (0..a.len())
        .map(|_| Tensor {
            ty: tyi,
            shape: Vec::new(),
            data: init.data.clone(),
        })
        .collect();
    let mut k = 0usize;
    let mut failure = None;
    for_each_index(&source.shape, |o| {
        if failure.is_some() {
            return;
        }
        let mut chosen: Option<usize> = None;
        for e in w.elements(&a.shape, &st, o).into_iter().flatten() {
            chosen = match chosen {
                None => Some(e),
                Some(c) => {
                    match run(
                        it,
                        op,
                        sel,
                        vec![scalar_at(ctx, a, c, ty), scalar_at(ctx, a, e, ty)],
                        1,
                    ) {
                        Ok(r) => {
                            if r[0].first_int() != 0 {
                                Some(c)
                            } else {
                                Some(e)
                            }
                        }
                        Err(err) => {
                            failure = Some(err);
                            return;
                        }
                    }
                }
            };
        }
        if let Some(c) = chosen {
            match run(
                it,
                op,
                scat,
                vec![result[c].clone(), scalar_at(ctx, source, k, tyi)],
                1,
            ) {
                Ok(mut r) => result[c] = r.remove(0),
                Err(err) => failure = Some(err),
            }
        }
        k += 1;
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let parts: Vec<&Data> = result.iter().map(|t| &t.data).collect();
    Ok(vec![out(ctx, op, 0, concat_data(&parts))])
}

/// The start-index vector at `batch` (an index of the indices tensor with the
/// index-vector dimension left out).
fn index_vector(ind: &Tensor, e: Elem, ivd: usize, batch: &[i64]) -> Vec<i64> {
    let st = strides(&ind.shape);
    let rank = ind.shape.len();
    let n = if ivd < rank { ind.shape[ivd] } else { 1 };
    (0..n)
        .map(|k| {
            let mut full = Vec::with_capacity(rank);
            let mut bi = batch.iter();
            for d in 0..rank {
                if d == ivd {
                    full.push(k);
                } else {
                    full.push(*bi.next().unwrap_or(&0));
                }
            }
            value(e, ind.as_ints().map_or(0, |v| v.get(linear(&full, &st)))) as i64
        })
        .collect()
}

/// `gather`.
pub fn gather(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let sizes = need_ints(it.ctx, op, "slice_sizes")?;
    gather_sized(it.ctx, op, args, &sizes)
}

/// `gather` and `dynamic_gather`: the dimension numbers from `op`, the slice
/// sizes given.
pub fn gather_sized(ctx: &Context, op: Op, args: &[Tensor], sizes: &[i64]) -> Res {
    let (a, ind) = (&args[0], &args[1]);
    let d = op_attr(ctx, op, "dimension_numbers")
        .and_then(|x| GatherDims::of(ctx, x))
        .ok_or_else(|| InterpError::at(op, "malformed dimension_numbers"))?;
    let ie = ind.elem(ctx);
    let ivd = d.index_vector_dim as usize;
    let st = strides(&a.shape);
    let oshape = result_shape(ctx, op, 0)?;
    let batch_dims: Vec<usize> = (0..oshape.len())
        .filter(|k| !d.offset_dims.contains(&(*k as i64)))
        .collect();
    // Operand dims that are not collapsed or batching, in order: the offset dims map onto them.
    let offset_operand_dims: Vec<usize> = (0..a.shape.len())
        .filter(|k| {
            !d.collapsed_slice_dims.contains(&(*k as i64))
                && !d.operand_batching_dims.contains(&(*k as i64))
        })
        .collect();
    let ind_batch_rank = if ivd < ind.shape.len() {
        ind.shape.len() - 1
    } else {
        ind.shape.len()
    };
    let ind_batch_dims: Vec<usize> = (0..ind.shape.len()).filter(|k| *k != ivd).collect();
    let _ = ind_batch_rank;
    Ok(vec![remap(ctx, op, a, None, |o| {
        let batch: Vec<i64> = batch_dims.iter().map(|k| o[*k]).collect();
        let start = index_vector(ind, ie, ivd, &batch);
        let mut full = vec![0i64; a.shape.len()];
        for (k, opd) in d.start_index_map.iter().enumerate() {
            let opd = *opd as usize;
            full[opd] = start
                .get(k)
                .copied()
                .unwrap_or(0)
                .clamp(0, (a.shape[opd] - sizes[opd]).max(0));
        }
        for (k, opd) in d.operand_batching_dims.iter().enumerate() {
            let idim = d.start_indices_batching_dims[k] as usize;
            let pos = ind_batch_dims.iter().position(|x| *x == idim).unwrap_or(0);
            full[*opd as usize] = batch.get(pos).copied().unwrap_or(0);
        }
        for (k, od) in d.offset_dims.iter().enumerate() {
            if let Some(opd) = offset_operand_dims.get(k) {
                full[*opd] += o[*od as usize];
            }
        }
        Some(linear(&full, &st))
    })?])
}

/// `scatter`.
pub fn scatter(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let n = (args.len() - 1) / 2;
    let inputs = &args[..n];
    let ind = &args[n];
    let updates = &args[n + 1..];
    let d = op_attr(ctx, op, "scatter_dimension_numbers")
        .and_then(|x| ScatterDims::of(ctx, x))
        .ok_or_else(|| InterpError::at(op, "malformed scatter_dimension_numbers"))?;
    let ie = ind.elem(ctx);
    let a = &inputs[0];
    let st = strides(&a.shape);
    let ushape = updates[0].shape.clone();
    let body = ctx.regions(op)[0];
    let tys: Vec<Type> = inputs.iter().map(|t| scalar_type(ctx, t.ty)).collect();
    let mut result: Vec<Vec<Tensor>> = inputs
        .iter()
        .zip(&tys)
        .map(|(t, ty)| (0..t.len()).map(|i| scalar_at(ctx, t, i, *ty)).collect())
        .collect();
    let fast = simple_combiner(ctx, body);
    let mut u = 0usize;
    let mut failure = None;
    for_each_index(&ushape, |ui| {
        if failure.is_some() {
            return;
        }
        let idx = u;
        u += 1;
        // Out-of-bounds updates are skipped, as the spec says.
        let Some(full) = scatter_destination(d, ind, ie, &a.shape, ui) else {
            return;
        };
        let dst = linear(&full, &st);
        if let (Some((_, f)), 1) = (fast, n) {
            let e = a.elem(ctx);
            let cur = &result[0][dst];
            let upd = scalar_at(ctx, &updates[0], idx, tys[0]);
            let data = match (&cur.data, &upd.data) {
                (Data::Float(x), Data::Float(y)) => Data::from_f64s(
                    e.float_kind(),
                    [f.float().map_or(y.get(0), |g| g(x.get(0), y.get(0)))],
                ),
                (Data::Int(x), Data::Int(y)) => {
                    Data::from_i64s(e, [e.wrap(f.int().map_or(0, |g| g(e, x.get(0), y.get(0))))])
                }
                _ => upd.data.clone(),
            };
            result[0][dst] = Tensor {
                ty: tys[0],
                shape: Vec::new(),
                data,
            };
            return;
        }
        let mut a_args: Vec<Tensor> = (0..n).map(|k| result[k][dst].clone()).collect();
        a_args.extend((0..n).map(|k| scalar_at(ctx, &updates[k], idx, tys[k])));
        match run(it, op, body, a_args, n) {
            Ok(r) => {
                for (k, t) in r.into_iter().enumerate() {
                    result[k][dst] = t;
                }
            }
            Err(e) => failure = Some(e),
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(result
        .into_iter()
        .enumerate()
        .map(|(k, ts)| {
            let parts: Vec<&Data> = ts.iter().map(|t| &t.data).collect();
            out(ctx, op, k, concat_data(&parts))
        })
        .collect())
}

/// Where the update at index `ui` of a scatter of dimension numbers `d`
/// lands in an operand of `shape`, the indices `ind` (of elements `ie`)
/// giving its start; `None` out of bounds (the update is skipped).
pub(crate) fn scatter_destination(
    d: &ScatterDims,
    ind: &Tensor,
    ie: Elem,
    shape: &[i64],
    ui: &[i64],
) -> Option<Vec<i64>> {
    let ivd = d.index_vector_dim as usize;
    let batch: Vec<i64> = (0..ui.len())
        .filter(|k| !d.update_window_dims.contains(&(*k as i64)))
        .map(|k| ui[k])
        .collect();
    let window_operand_dims: Vec<usize> = (0..shape.len())
        .filter(|k| {
            !d.inserted_window_dims.contains(&(*k as i64))
                && !d.input_batching_dims.contains(&(*k as i64))
        })
        .collect();
    let ind_batch_dims: Vec<usize> = (0..ind.shape.len()).filter(|k| *k != ivd).collect();
    let start = index_vector(ind, ie, ivd, &batch);
    let mut full = vec![0i64; shape.len()];
    for (k, opd) in d.scatter_dims_to_operand_dims.iter().enumerate() {
        full[*opd as usize] = start.get(k).copied().unwrap_or(0);
    }
    for (k, opd) in d.input_batching_dims.iter().enumerate() {
        let idim = d.scatter_indices_batching_dims[k] as usize;
        let pos = ind_batch_dims.iter().position(|x| *x == idim).unwrap_or(0);
        full[*opd as usize] = batch.get(pos).copied().unwrap_or(0);
    }
    for (k, wd) in d.update_window_dims.iter().enumerate() {
        if let Some(opd) = window_operand_dims.get(k) {
            full[*opd] += ui[*wd as usize];
        }
    }
    full.iter()
        .zip(shape)
        .all(|(x, s)| (0..*s).contains(x))
        .then_some(full)
}

/// `sort`.
pub fn sort(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = &args[0];
    let rank = a.shape.len() as i64;
    let mut dim = op_attr(ctx, op, "dimension")
        .and_then(|x| int_value(ctx, x))
        .unwrap_or(-1);
    if dim < 0 {
        dim += rank;
    }
    let dim = dim.clamp(0, (rank - 1).max(0)) as usize;
    let st = strides(&a.shape);
    let body = ctx.regions(op)[0];
    let tys: Vec<Type> = args.iter().map(|t| scalar_type(ctx, t.ty)).collect();
    let mut outer_shape = a.shape.clone();
    if !outer_shape.is_empty() {
        outer_shape[dim] = 1;
    }
    let len = a.shape.get(dim).copied().unwrap_or(1) as usize;
    let mut perm: Vec<usize> = (0..a.len()).collect();
    let mut failure: Option<InterpError> = None;
    let mut lines: Vec<Vec<usize>> = Vec::new();
    for_each_index(&outer_shape, |o| {
        let base = linear(o, &st);
        lines.push(
            (0..len)
                .map(|k| base + k * st.get(dim).copied().unwrap_or(1))
                .collect(),
        );
    });
    for line in lines {
        let mut order: Vec<usize> = line.clone();
        // A stable merge sort driven by the comparator region (true: lhs < rhs).
        let mut less = |x: usize, y: usize, it: &mut Interp<'_>| -> bool {
            if failure.is_some() {
                return false;
            }
            let mut r_args = Vec::with_capacity(2 * args.len());
            for (k, t) in args.iter().enumerate() {
                r_args.push(scalar_at(ctx, t, x, tys[k]));
                r_args.push(scalar_at(ctx, t, y, tys[k]));
            }
            match run(it, op, body, r_args, 1) {
                Ok(r) => r[0].first_int() != 0,
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        };
        let mut width = 1;
        let n = order.len();
        let mut buf = order.clone();
        while width < n {
            let mut i = 0;
            while i < n {
                let (mid, end) = ((i + width).min(n), (i + 2 * width).min(n));
                let (mut p, mut q, mut k) = (i, mid, i);
                while p < mid && q < end {
                    if less(order[q], order[p], it) {
                        buf[k] = order[q];
                        q += 1;
                    } else {
                        buf[k] = order[p];
                        p += 1;
                    }
                    k += 1;
                }
                buf[k..k + mid - p].copy_from_slice(&order[p..mid]);
                let k2 = k + mid - p;
                buf[k2..k2 + end - q].copy_from_slice(&order[q..end]);
                i += 2 * width;
            }
            std::mem::swap(&mut order, &mut buf);
            width *= 2;
        }
        for (slot, src) in line.iter().zip(order) {
            perm[*slot] = src;
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let idx: Vec<Option<usize>> = perm.into_iter().map(Some).collect();
    Ok(args
        .iter()
        .enumerate()
        .map(|(k, t)| out(ctx, op, k, take(&t.data, &idx, None)))
        .collect())
}

fn truth(t: &Tensor) -> bool {
    t.first_int() != 0
}

/// `while`.
pub fn while_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (cond, body) = (ctx.regions(op)[0], ctx.regions(op)[1]);
    let mut vals = args.to_vec();
    loop {
        let c = run(it, op, cond, vals.clone(), 1)?;
        if !truth(&c[0]) {
            return Ok(vals);
        }
        vals = run(it, op, body, vals, args.len())?;
    }
}

/// `if`.
pub fn if_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let r = ctx.regions(op)[if truth(&args[0]) { 0 } else { 1 }];
    run(it, op, r, Vec::new(), ctx.num_results(op))
}

/// `case`.
pub fn case(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let regions = ctx.regions(op);
    let e = args[0].elem(ctx);
    let i = value(e, args[0].first_int());
    // An out-of-range index selects the last branch.
    let k = if i < 0 || i as usize >= regions.len() {
        regions.len() - 1
    } else {
        i as usize
    };
    run(it, op, regions[k], Vec::new(), ctx.num_results(op))
}

/// `map`.
pub fn map(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let body = ctx.regions(op)[0];
    let tys: Vec<Type> = args.iter().map(|t| scalar_type(ctx, t.ty)).collect();
    let n = args.first().map_or(0, Tensor::len);
    let mut outs = Vec::with_capacity(n);
    for i in 0..n {
        let a: Vec<Tensor> = args
            .iter()
            .enumerate()
            .map(|(k, t)| scalar_at(ctx, t, i, tys[k]))
            .collect();
        outs.push(run(it, op, body, a, 1)?.remove(0));
    }
    let parts: Vec<&Data> = outs.iter().map(|t| &t.data).collect();
    let data = if parts.is_empty() {
        convert(
            &args
                .first()
                .map_or(Data::Int(Ints::I64(Vec::new())), |t| t.data.clone()),
            result_elem(ctx, op, 0)?,
            result_elem(ctx, op, 0)?,
        )
    } else {
        concat_data(&parts)
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// The operands of several processes (`parts[j]`: process `j`'s, one tensor
/// per operand, all of one shape) combined element by element with the
/// reduction `body`, in process order: `body(body(p0, p1), p2) ...`, as the
/// cross-process reductions (`all_reduce`, `reduce_scatter`) define it.
pub(crate) fn combine_processes(
    it: &mut Interp<'_>,
    op: Op,
    body: Region,
    parts: &[Vec<Tensor>],
) -> Res {
    let ctx = it.ctx;
    let Some((first, rest)) = parts.split_first() else {
        return Err(InterpError::at(op, "a reduction over no processes"));
    };
    if rest.is_empty() {
        return Ok(first.clone());
    }
    let n = first.len();
    let tys: Vec<Type> = first.iter().map(|t| scalar_type(ctx, t.ty)).collect();
    let mut outs: Vec<Vec<Tensor>> = vec![Vec::new(); n];
    for i in 0..first.first().map_or(0, Tensor::len) {
        let mut acc: Vec<Tensor> = (0..n)
            .map(|k| scalar_at(ctx, &first[k], i, tys[k]))
            .collect();
        for p in rest {
            let mut a = acc;
            a.extend((0..n).map(|k| scalar_at(ctx, &p[k], i, tys[k])));
            acc = run(it, op, body, a, n)?;
        }
        for (k, v) in acc.into_iter().enumerate() {
            outs[k].push(v);
        }
    }
    Ok(first
        .iter()
        .zip(outs)
        .map(|(t, vals)| {
            let parts: Vec<&Data> = vals.iter().map(|v| &v.data).collect();
            let data = if parts.is_empty() {
                t.data.clone()
            } else {
                concat_data(&parts)
            };
            Tensor {
                ty: t.ty,
                shape: t.shape.clone(),
                data,
            }
        })
        .collect())
}

/// `composite`.
pub fn composite(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let f = op_attr(ctx, op, "decomposition")
        .and_then(|c| aic::symbol::lookup_nearest_symbol_from(ctx, op, c))
        .ok_or_else(|| InterpError::at(op, "composite with an unknown decomposition"))?;
    it.call(f, args.to_vec())
}

/// `chlo.scan`: `inputs` sliced along `dim`, step by step (from the end when
/// `reverse`), each step's slices and the carries (starting at `inits`) given
/// to `body`, which returns that step's outputs then the new carries. The
/// results: each output's slices stacked along `dim`, then the last carries.
pub fn scan(
    it: &mut Interp<'_>,
    op: Op,
    body: Region,
    (inputs, inits): (&[Tensor], &[Tensor]),
    dim: usize,
    reverse: bool,
) -> Res {
    let ctx = it.ctx;
    let Some(first) = inputs.first() else {
        return Err(InterpError::at(op, "a scan needs an input"));
    };
    if dim >= first.shape.len() || inputs.iter().any(|t| t.shape != first.shape) {
        return Err(InterpError::at(
            op,
            format!("inputs must share one shape with a dimension {dim}"),
        ));
    }
    let len = first.shape[dim];
    let mut inner_shape = first.shape.clone();
    inner_shape.remove(dim);
    let st = strides(&first.shape);
    // The linear indices of the slice at position `s` along `dim`.
    let slice_idx = |s: i64| -> Vec<Option<usize>> {
        map_indices(&inner_shape, |i| {
            let mut full = i.to_vec();
            full.insert(dim, s);
            Some(linear(&full, &st))
        })
        .collect()
    };
    let slice_tys: Vec<Type> = inputs
        .iter()
        .map(|t| {
            let elem = ctx.type_kind(t.ty).element_type().unwrap_or(t.ty);
            ctx.uniquer().ty(TypeKind::Tensor {
                shape: inner_shape.iter().copied().collect(),
                elem,
                encoding: None,
            })
        })
        .collect();
    let n_results = ctx.results(op).len();
    let n_out = n_results
        .checked_sub(inits.len())
        .ok_or_else(|| InterpError::at(op, "fewer results than carries"))?;
    let mut carries = inits.to_vec();
    let mut steps: Vec<Option<Vec<Tensor>>> = vec![None; len.max(0) as usize];
    let order: Vec<i64> = if reverse {
        (0..len).rev().collect()
    } else {
        (0..len).collect()
    };
    for s in order {
        let idx = slice_idx(s);
        let mut args: Vec<Tensor> = inputs
            .iter()
            .zip(&slice_tys)
            .map(|(t, ty)| Tensor {
                ty: *ty,
                shape: inner_shape.clone(),
                data: take(&t.data, &idx, None),
            })
            .collect();
        args.extend(carries);
        let mut out = run(it, op, body, args, n_results)?;
        carries = out.split_off(n_out);
        if let Some(bad) = out.iter().position(|o| o.len() != count(&inner_shape)) {
            return Err(InterpError::at(
                op,
                format!("the body's output {bad} is not a slice of {inner_shape:?}"),
            ));
        }
        steps[s as usize] = Some(out);
    }
    let steps: Vec<Vec<Tensor>> = steps.into_iter().flatten().collect();
    let mut results = Vec::with_capacity(n_results);
    for j in 0..n_out {
        let parts: Vec<&Data> = steps.iter().map(|o| &o[j].data).collect();
        let slice_len = count(&inner_shape);
        let shape = result_shape(ctx, op, j)?;
        let mut expect = inner_shape.clone();
        expect.insert(dim, len);
        if shape != expect {
            return Err(InterpError::at(
                op,
                format!("result {j} has shape {shape:?}, the scan makes {expect:?}"),
            ));
        }
        let data = if parts.is_empty() {
            Data::empty(result_elem(ctx, op, j)?)
        } else {
            let all = concat_data(&parts);
            let ist = strides(&inner_shape);
            let idx: Vec<Option<usize>> = map_indices(&shape, |i| {
                let mut rest = i.to_vec();
                let step = rest.remove(dim) as usize;
                Some(step * slice_len + linear(&rest, &ist))
            })
            .collect();
            take(&all, &idx, None)
        };
        results.push(out(ctx, op, j, data));
    }
    results.extend(carries.into_iter().enumerate().map(|(k, mut t)| {
        t.ty = ctx.value_type(ctx.result(op, n_out + k));
        t
    }));
    Ok(results)
}

/// `chlo.ragged_dot` with the ragged dimension among the lhs's free
/// dimensions (the mode CHLO calls 1): the lhs is split along `ragged` into
/// consecutive groups of `group_sizes`, group `g` multiplied by the rhs's
/// `group`-th dimension's slice `g` (`d` names the rhs's dimensions with that
/// dimension dropped); rows beyond the groups are 0.
pub fn ragged_dot_free(
    ctx: &Context,
    op: Op,
    args: &[Tensor],
    d: &DotDims,
    ragged: i64,
    group: i64,
) -> Res {
    let (lhs, rhs, sizes) = (&args[0], &args[1], args[2].to_i64s());
    let er = result_elem(ctx, op, 0)?;
    let oshape = result_shape(ctx, op, 0)?;
    // Paired dimensions agree and the result is the product's shape.
    let (ls, mut rs) = (&lhs.shape, rhs.shape.clone());
    if (group as usize) < rs.len() {
        rs.remove(group as usize);
    }
    let size = |s: &[i64], d: i64| usize::try_from(d).ok().and_then(|d| s.get(d)).copied();
    let paired = |a: &[i64], b: &[i64]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| size(ls, *x).is_some() && size(ls, *x) == size(&rs, *y))
    };
    let free = |s: &[i64], skip: &[&[i64]]| -> Vec<i64> {
        (0..s.len() as i64)
            .filter(|i| skip.iter().all(|k| !k.contains(i)))
            .map(|i| s[i as usize])
            .collect()
    };
    let product: Vec<i64> = d
        .lhs_batch
        .iter()
        .filter_map(|x| size(ls, *x))
        .chain(free(ls, &[&d.lhs_batch, &d.lhs_contract]))
        .chain(free(&rs, &[&d.rhs_batch, &d.rhs_contract]))
        .collect();
    if !paired(&d.lhs_batch, &d.rhs_batch)
        || !paired(&d.lhs_contract, &d.rhs_contract)
        || product != oshape
    {
        return Err(InterpError::at(
            op,
            format!(
                "lhs {ls:?} and rhs {:?} do not make a {oshape:?} ragged product",
                rhs.shape
            ),
        ));
    }
    let g_dim = group as usize;
    let groups = rhs.shape.get(g_dim).copied().unwrap_or(0);
    if sizes.len() as i64 != groups || sizes.iter().any(|s| *s < 0) {
        return Err(InterpError::at(
            op,
            format!("group_sizes {sizes:?} must be {groups} sizes, none negative"),
        ));
    }
    // Where the ragged dimension lands in the result: after the batch
    // dimensions, among the lhs's free dimensions.
    let free: Vec<i64> = (0..lhs.shape.len() as i64)
        .filter(|i| !d.lhs_batch.contains(i) && !d.lhs_contract.contains(i))
        .collect();
    let pos = d.lhs_batch.len()
        + free.iter().position(|x| *x == ragged).ok_or_else(|| {
            InterpError::at(op, "the ragged dimension must be a free lhs dimension")
        })?;
    let mut rshape = rhs.shape.clone();
    rshape.remove(g_dim);
    let rst = strides(&rhs.shape);
    let mut result = Data::from_fn(er, count(&oshape), |_| 0.0);
    let mut start = 0i64;
    for (g, size) in sizes.iter().enumerate() {
        // The rhs's slice `g` along its group dimension.
        let idx: Vec<Option<usize>> = map_indices(&rshape, |i| {
            let mut full = i.to_vec();
            full.insert(g_dim, g as i64);
            Some(linear(&full, &rst))
        })
        .collect();
        let slice = Tensor {
            ty: rhs.ty,
            shape: rshape.clone(),
            data: take(&rhs.data, &idx, None),
        };
        let full = kernels::dot(ctx, lhs, &slice, d, er);
        // This group's rows from `full`, the others as they were.
        let n = count(&oshape);
        let both = concat_data(&[&result, &full]);
        let pick: Vec<Option<usize>> =
            map_indices(&oshape, |i| (start..start + size).contains(&i[pos]))
                .enumerate()
                .map(|(k, mine)| Some(if mine { n + k } else { k }))
                .collect();
        result = take(&both, &pick, None);
        start += size;
    }
    Ok(vec![out(ctx, op, 0, result)])
}

/// `top_k`.
pub fn top_k(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = &args[0];
    let k = op_attr(ctx, op, "k")
        .and_then(|x| int_value(ctx, x))
        .unwrap_or(1)
        .max(0) as usize;
    let last = a.shape.last().copied().unwrap_or(1) as usize;
    let rows = a.len() / last.max(1);
    let e = a.elem(ctx);
    let key = |i: usize| -> f64 {
        match &a.data {
            Data::Float(v) => v.get(i),
            Data::Int(v) => to_f64(e, v.get(i)),
            _ => 0.0,
        }
    };
    let (mut idx, mut pos) = (Vec::new(), Vec::new());
    for r in 0..rows {
        let mut order: Vec<usize> = (0..last).collect();
        // Largest first; NaN counts as largest; ties keep the lower index.
        order.sort_by_key(|x| std::cmp::Reverse(total_key(key(r * last + *x))));
        for j in order.into_iter().take(k) {
            idx.push(Some(r * last + j));
            pos.push(j as i64);
        }
    }
    let ei = result_elem(ctx, op, 1)?;
    Ok(vec![
        out(ctx, op, 0, take(&a.data, &idx, None)),
        out(
            ctx,
            op,
            1,
            Data::from_i64s(ei, pos.into_iter().map(|p| ei.wrap(i128::from(p)))),
        ),
    ])
}
