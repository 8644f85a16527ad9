//! The graph ops' meaning for the reference interpreter, built on the tensor
//! kernels StableHLO's semantics use too (`crate::kernels`): `matmul` is a
//! `dot_general`, `conv2d` a `convolution`, the activations and normalisations
//! are computed in `f64` and rounded once to the element type.

use super::ReduceKind;
use super::verify::{norm_axis, word};
use crate::kernels::{
    ConvDims, ConvWindow, DotDims, Groups, at, broadcast_to, concat_along, conv, convert, count,
    dot, float_binary, fold_floats, fold_ints, for_each_index, int_binary, linear, offsets, out,
    permute, result_elem, result_shape, strided_slice, strides, take, unsupported,
};
use crate::math::fold::libm;
use aic::constraints::{i64_array_attr, int_attr};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};

type Res = IResult<Vec<Tensor>>;

const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

/// The `f64` function of a unary graph op.
fn unary_fn(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "exp" => |x| libm::exp(x),
        "log" => |x| libm::log(x),
        "tanh" => |x| libm::tanh(x),
        "sqrt" => f64::sqrt,
        "rsqrt" => |x| 1.0 / x.sqrt(),
        "neg" => |x| -x,
        "abs" => f64::abs,
        "relu" => |x| if x > 0.0 || x.is_nan() { x } else { 0.0 },
        "sigmoid" => |x| 1.0 / (1.0 + libm::exp(-x)),
        "silu" => |x| x / (1.0 + libm::exp(-x)),
        "gelu" => |x| 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2)),
        "erf" => |x| libm::erf(x),
        "erfc" => |x| libm::erfc(x),
        "gelu_tanh" => {
            |x| 0.5 * x * (1.0 + libm::tanh(SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x)))
        }
        "fast_gelu" => |x| {
            let u = SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x);
            x / (1.0 + libm::exp(-2.0 * u))
        },
        _ => return None,
    })
}

/// StableHLO's name of a binary graph op.
fn binary_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "add" => "add",
        "sub" => "subtract",
        "mul" => "multiply",
        "div" => "divide",
        "max" => "maximum",
        "min" => "minimum",
        "pow" => "power",
        _ => return None,
    })
}

/// The graph ops' interpreter hook.
pub fn interpret(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let name = ctx.op_name(op).strip_prefix("graph.").unwrap_or_default();
    let er = result_elem(ctx, op, 0)?;
    if let Some(f) = unary_fn(name) {
        let Data::Float(v) = &args[0].data else {
            return Err(unsupported(op, ctx, "non-float tensors"));
        };
        return Ok(vec![out(
            ctx,
            op,
            0,
            Data::from_f64s(er.float_kind(), v.iter().map(f)),
        )]);
    }
    if let Some(b) = binary_name(name) {
        return Ok(vec![out(
            ctx,
            op,
            0,
            elementwise(ctx, op, b, &args[0], &args[1], er)?,
        )]);
    }
    let data = match name {
        "matmul" | "batch_matmul" => {
            let (l, r) = (&args[0], &args[1]);
            let (la, lb) = (l.shape.len() as i64, r.shape.len() as i64);
            let has = |a: &str| ctx.op_spec(op).and_then(|s| s.attr(ctx, op, a)).is_some();
            let (ta, tb) = (has("transpose_a"), has("transpose_b"));
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
            dot(ctx, l, r, &d, er)
        }
        "conv2d" => {
            let nhwc = word(ctx, op, "layout") != Some(super::ConvLayout::Nchw);
            let dims = if nhwc {
                "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
            } else {
                "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]"
            };
            let d = ConvDims::parse_compact(dims).expect("fixed layouts parse");
            let p = i64_array_attr(ctx, op, "padding").unwrap_or_default();
            let w = ConvWindow {
                stride: i64_array_attr(ctx, op, "strides").unwrap_or_default(),
                padding: p,
                lhs_dil: vec![1, 1],
                rhs_dil: i64_array_attr(ctx, op, "dilations").unwrap_or_default(),
                rev: vec![0, 0],
                fgc: int_attr(ctx, op, "groups").unwrap_or(1),
                bgc: 1,
            };
            let oshape = result_shape(ctx, op, 0)?;
            conv(ctx, &args[0], &args[1], &d, &w, &oshape, er)
        }
        "bias_add" => {
            let (x, b) = (&args[0], &args[1]);
            let n = b.len().max(1);
            match (&x.data, &b.data) {
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
            }
        }
        "softmax" => {
            let x = &args[0];
            let axis = norm_axis(int_attr(ctx, op, "axis").unwrap_or(-1), x.shape.len())
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
            Data::Float(o)
        }
        "layernorm" | "rmsnorm" => {
            let x = &args[0];
            let Data::Float(v) = &x.data else {
                return Err(unsupported(op, ctx, "non-float tensors"));
            };
            let gamma = args[1].to_f64s();
            let beta = args.get(2).map(|b| b.to_f64s());
            let eps = epsilon(ctx, op);
            let n = gamma.len().max(1);
            let mut o = v.clone();
            let all = v.to_vec();
            for (r, row) in all.chunks(n).enumerate() {
                let k = n as f64;
                let (mean, var) = if name == "layernorm" {
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
            Data::Float(o)
        }
        "reduce" => reduce(ctx, op, &args[0], er)?,
        "transpose" => {
            return Ok(vec![permute(
                ctx,
                op,
                &args[0],
                &i64_array_attr(ctx, op, "perm").unwrap_or_default(),
            )?]);
        }
        "reshape" => args[0].data.clone(),
        "broadcast" => {
            return Ok(vec![broadcast_to(
                ctx,
                op,
                &args[0],
                &i64_array_attr(ctx, op, "dims").unwrap_or_default(),
            )?]);
        }
        "slice" => {
            let (start, step) = (
                i64_array_attr(ctx, op, "start").unwrap_or_default(),
                i64_array_attr(ctx, op, "strides").unwrap_or_default(),
            );
            return Ok(vec![strided_slice(ctx, op, &args[0], &start, &step)?]);
        }
        "concat" => {
            let axis = norm_axis(int_attr(ctx, op, "axis").unwrap_or(0), args[0].shape.len())
                .ok_or_else(|| InterpError::at(op, "axis out of range"))?;
            return Ok(vec![concat_along(ctx, op, args, axis)?]);
        }
        "split" => {
            let x = &args[0];
            let axis = norm_axis(int_attr(ctx, op, "axis").unwrap_or(0), x.shape.len())
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
            return Ok(results);
        }
        "cast" => convert(&args[0].data, args[0].elem(ctx), er),
        "constant" => {
            let v = ctx
                .op_spec(op)
                .and_then(|s| s.attr(ctx, op, "value"))
                .ok_or_else(|| InterpError::at(op, "constant without a value"))?;
            let t = aic::interp::tensor_of_attr(ctx, v, ctx.value_type(ctx.result(op, 0)))
                .ok_or_else(|| InterpError::at(op, "unsupported constant"))?;
            return Ok(vec![t]);
        }
        _ => {
            return Err(InterpError::at(
                op,
                format!("unsupported op '{}'", ctx.op_name(op)),
            ));
        }
    };
    Ok(vec![out(ctx, op, 0, data)])
}

fn epsilon(ctx: &Context, op: Op) -> f64 {
    ctx.op_spec(op)
        .and_then(|s| s.attr(ctx, op, "epsilon"))
        .and_then(|a| match ctx.attr_kind(a) {
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

/// A binary op whose rank-0 operand broadcasts.
fn elementwise(ctx: &Context, op: Op, b: &str, x: &Tensor, y: &Tensor, er: Elem) -> IResult<Data> {
    let n = x.len().max(y.len());
    Ok(match (&x.data, &y.data) {
        (Data::Float(p), Data::Float(q)) => {
            let f = float_binary(b).ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::from_f64s(er.float_kind(), (0..n).map(|i| f(at(p, i), at(q, i))))
        }
        (Data::Int(p), Data::Int(q)) => {
            let e = x.elem(ctx);
            Data::from_i64s(
                er,
                (0..n).map(|i| er.wrap(int_binary(b, e, at(p, i), at(q, i)).unwrap_or(0))),
            )
        }
        _ => return Err(unsupported(op, ctx, "these operands")),
    })
}

fn reduce(ctx: &Context, op: Op, x: &Tensor, er: Elem) -> IResult<Data> {
    let kind = word(ctx, op, "kind").unwrap_or(ReduceKind::Sum);
    let axes: Vec<i64> = i64_array_attr(ctx, op, "axes")
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
        ReduceKind::Max => "maximum",
        ReduceKind::Min => "minimum",
        _ => "add",
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
