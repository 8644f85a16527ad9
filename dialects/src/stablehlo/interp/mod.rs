//! StableHLO's (and chlo's) meaning for the reference interpreter, following
//! the StableHLO specification: integers wrap to their width (XLA's rules for
//! division and remainder by zero and for out-of-range shifts), floats are
//! computed in `f64` and rounded to the element type, NaNs propagate through
//! `maximum`/`minimum`, and `compare` has the spec's total order.
//!
//! Each op's spec names its hook here (`interpret: Some(interp::iota)`); the
//! elementwise ops share one hook per family, given the op's scalar functions
//! ([`elementwise::Unary`] rows, [`crate::kernels::Binary`] rows, which take
//! arith's scalar definitions where StableHLO's meaning is arith's).
//!
//! The ops that move data (broadcast, transpose, slice, pad, gather, ...) map
//! output indices to input indices and copy; `dot_general`, `convolution` and
//! the reductions with a known combiner run typed loops over `f64`/`i64`
//! buffers, so their inner loops do no dynamic dispatch. Reductions whose body
//! is not a single known op, `sort`'s comparator, `scatter`'s update, `map`
//! and the window ops run their regions per element (see [`regions`]).

pub mod elementwise;
pub mod regions;

pub(crate) use elementwise::binary;
pub use elementwise::{Unary, clamp, compare, complex, convert, mulhi, predicate, select, unary};
pub use regions::*;

use crate::kernels::{
    C, bits, broadcast_to, check_shape, concat_along, concat_data, count, for_each_index, linear,
    out, permute, remap, remap_to, result_elem, result_shape, result_type, strided_slice, strides,
    take, unsupported, value,
};
use aic::constraints::{i64_array_attr, int_value, op_attr};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Ints, Tensor};
use aic::ir::{Context, Op};

type Res = IResult<Vec<Tensor>>;

// ---------------------------------------------------------------- helpers

pub(crate) fn need_ints(ctx: &Context, op: Op, name: &str) -> IResult<Vec<i64>> {
    i64_array_attr(ctx, op, name)
        .ok_or_else(|| InterpError::at(op, format!("missing or malformed '{name}'")))
}

fn retype(ctx: &Context, op: Op, i: usize, t: &Tensor) -> Tensor {
    out(ctx, op, i, t.data.clone())
}

// ---------------------------------------------------------------- constant, iota

/// `constant`.
pub fn constant(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let v =
        op_attr(ctx, op, "value").ok_or_else(|| InterpError::at(op, "constant without a value"))?;
    let t = aic::interp::tensor_of_attr(ctx, v, result_type(ctx, op, 0)).ok_or_else(|| {
        InterpError::at(
            op,
            "unsupported constant (only dense elements are interpreted)",
        )
    })?;
    Ok(vec![t])
}

/// `iota`.
pub fn iota(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let shape = result_shape(ctx, op, 0)?;
    let d = op_attr(ctx, op, "iota_dimension")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(0) as usize;
    let e = result_elem(ctx, op, 0)?;
    // Element `i`'s index along `d`, without a vector of positions.
    let n = count(&shape);
    let size = shape.get(d).map_or(1, |s| (*s).max(1) as usize);
    let stride = shape.get(d + 1..).map_or(1, count).max(1);
    let data = Data::from_fn(e, n, |i| ((i / stride) % size) as f64);
    Ok(vec![out(ctx, op, 0, data)])
}

/// `reshape` and `optimization_barrier`: the operands' data under the results' types.
pub fn retype_all(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    Ok(args
        .iter()
        .enumerate()
        .map(|(i, a)| retype(it.ctx, op, i, a))
        .collect())
}

/// `custom_call`: JAX's `shape_assertion` (a predicate over dimension
/// sizes: an error with its `error_message`, `{k}` standing for the `k`-th
/// operand after the predicate, when false) and GSPMD's `Sharding` (a
/// sharding annotation, the identity on values); any other target is
/// reported unsupported, naming it.
pub fn custom_call(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let target = op_attr(it.ctx, op, "call_target_name")
        .and_then(|a| it.ctx.attr_str(a).map(str::to_string))
        .unwrap_or_default();
    if target == "Sharding" && args.len() == 1 && it.ctx.num_results(op) == 1 {
        return Ok(args.to_vec());
    }
    if target == "shape_assertion" && !args.is_empty() {
        if args[0].data.f64_at(0) != 0.0 {
            return Ok(Vec::new());
        }
        let mut m = op_attr(it.ctx, op, "error_message")
            .and_then(|a| it.ctx.attr_str(a).map(str::to_string))
            .unwrap_or_else(|| "shape assertion failed".into());
        for (k, a) in args[1..].iter().enumerate() {
            m = m.replace(&format!("{{{k}}}"), &a.data.f64_at(0).to_string());
        }
        return Err(InterpError::at(op, m));
    }
    Err(InterpError::at(
        op,
        format!("unsupported op 'stablehlo.custom_call' (call target '{target}')"),
    ))
}

/// `tuple`.
pub fn tuple(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ty = it.ctx.value_type(it.ctx.result(op, 0));
    Ok(vec![Tensor {
        ty,
        shape: Vec::new(),
        data: Data::Tuple(args.to_vec()),
    }])
}

/// `get_tuple_element`.
pub fn get_tuple_element(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let i = op_attr(it.ctx, op, "index")
        .and_then(|a| int_value(it.ctx, a))
        .unwrap_or(0);
    match &args[0].data {
        Data::Tuple(v) if (i as usize) < v.len() => Ok(vec![v[i as usize].clone()]),
        _ => Err(InterpError::at(op, "tuple index out of range")),
    }
}

/// `replica_id`: this process's replica (0 outside `interpreter.run_parallel`).
pub fn replica_id(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let e = result_elem(it.ctx, op, 0)?;
    let id = it.process.replica as i64;
    Ok(vec![out(it.ctx, op, 0, Data::from_i64s(e, [id]))])
}

/// `partition_id`: this process's partition (0 outside `interpreter.run_parallel`).
pub fn partition_id(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    let e = result_elem(it.ctx, op, 0)?;
    let id = it.process.partition as i64;
    Ok(vec![out(it.ctx, op, 0, Data::from_i64s(e, [id]))])
}

/// `create_token`.
pub fn create_token(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
    Ok(vec![out(it.ctx, op, 0, Data::Int(Ints::I64(Vec::new())))])
}

// ---------------------------------------------------------------- data movement

/// `broadcast_in_dim`.
pub fn broadcast_in_dim(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let dims = need_ints(it.ctx, op, "broadcast_dimensions")?;
    Ok(vec![broadcast_to(it.ctx, op, &args[0], &dims)?])
}

/// `broadcast`.
pub fn broadcast(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = &args[0];
    let st = strides(&a.shape);
    let extra = result_shape(ctx, op, 0)?.len() - a.shape.len();
    Ok(vec![remap(ctx, op, a, None, |i| {
        Some(linear(&i[extra..], &st))
    })?])
}

/// `transpose`.
pub fn transpose(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let perm = need_ints(it.ctx, op, "permutation")?;
    Ok(vec![permute(it.ctx, op, &args[0], &perm)?])
}

/// `slice`.
pub fn slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let start = need_ints(it.ctx, op, "start_indices")?;
    let step = need_ints(it.ctx, op, "strides")?;
    Ok(vec![strided_slice(it.ctx, op, &args[0], &start, &step)?])
}

/// Start indices clamped so that a slice of `sizes` fits in `shape`.
fn clamped_starts(shape: &[i64], sizes: &[i64], starts: &[Tensor], e: &[Elem]) -> Vec<i64> {
    (0..shape.len())
        .map(|k| {
            let v = starts.get(k).map_or(0, |t| value(e[k], t.first_int()));
            v.clamp(0, i128::from((shape[k] - sizes[k]).max(0))) as i64
        })
        .collect()
}

/// `dynamic_slice`.
pub fn dynamic_slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let sizes = need_ints(ctx, op, "slice_sizes")?;
    let a = &args[0];
    let es: Vec<Elem> = args[1..].iter().map(|t| t.elem(ctx)).collect();
    let starts = clamped_starts(&a.shape, &sizes, &args[1..], &es);
    let st = strides(&a.shape);
    Ok(vec![remap(ctx, op, a, None, |i| {
        Some(
            (0..i.len())
                .map(|k| (starts[k] + i[k]) as usize * st[k])
                .sum(),
        )
    })?])
}

/// `dynamic_update_slice`.
pub fn dynamic_update_slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (a, u) = (&args[0], &args[1]);
    let es: Vec<Elem> = args[2..].iter().map(|t| t.elem(ctx)).collect();
    let starts = clamped_starts(&a.shape, &u.shape, &args[2..], &es);
    let (sa, su) = (strides(&a.shape), strides(&u.shape));
    let mut idx: Vec<Option<usize>> = (0..a.len()).map(Some).collect();
    let mut from_update = vec![None; a.len()];
    for_each_index(&u.shape, |i| {
        let dst: usize = (0..i.len())
            .map(|k| (starts[k] + i[k]) as usize * sa[k])
            .sum();
        from_update[dst] = Some(linear(i, &su));
    });
    let merged = concat_data(&[&a.data, &u.data]);
    let off = a.len();
    for (k, f) in from_update.into_iter().enumerate() {
        if let Some(j) = f {
            idx[k] = Some(off + j);
        }
    }
    Ok(vec![out(ctx, op, 0, take(&merged, &idx, None))])
}

/// `concatenate`.
pub fn concatenate(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let d = op_attr(ctx, op, "dimension")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(0) as usize;
    Ok(vec![concat_along(ctx, op, args, d)?])
}

/// `pad`.
pub fn pad(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let lo = need_ints(ctx, op, "edge_padding_low")?;
    let hi = need_ints(ctx, op, "edge_padding_high")?;
    let interior = need_ints(ctx, op, "interior_padding")?;
    pad_by(ctx, op, args, (&lo, &hi, &interior), it.max_bytes)
}

/// `pad` and `dynamic_pad`: `args[0]` padded with `args[1]` by the given
/// amounts; the result's shape follows from them (a dynamic result type
/// takes it).
pub fn pad_by(
    ctx: &Context,
    op: Op,
    args: &[Tensor],
    (lo, hi, interior): (&[i64], &[i64], &[i64]),
    max_bytes: Option<u64>,
) -> Res {
    let a = &args[0];
    let rank = a.shape.len();
    if lo.len() != rank || hi.len() != rank || interior.len() != rank {
        return Err(InterpError::at(
            op,
            format!("padding amounts must have {rank} entries"),
        ));
    }
    if interior.iter().any(|i| *i < 0) {
        return Err(InterpError::at(op, "interior padding must not be negative"));
    }
    let shape: Vec<i64> = (0..rank)
        .map(|k| {
            (a.shape[k] - 1)
                .max(0)
                .checked_mul(interior[k])
                .and_then(|x| x.checked_add(a.shape[k]))
                .and_then(|x| x.checked_add(lo[k]))
                .and_then(|x| x.checked_add(hi[k]))
                .unwrap_or(-1)
        })
        .collect();
    if shape.iter().any(|d| *d < 0) {
        return Err(InterpError::at(
            op,
            format!(
                "padding {lo:?}, {hi:?}, {interior:?} gives no valid shape for {:?}",
                a.shape
            ),
        ));
    }
    check_shape(op, &shape, a.elem(ctx), max_bytes)?;
    let st = strides(&a.shape);
    Ok(vec![remap_to(ctx, op, &shape, a, Some(&args[1]), |i| {
        let mut lin = 0;
        for k in 0..i.len() {
            let p = i[k] - lo[k];
            let step = interior[k] + 1;
            if p < 0 || p % step != 0 || p / step >= a.shape[k] {
                return None;
            }
            lin += (p / step) as usize * st[k];
        }
        Some(lin)
    })?])
}

/// `reverse`.
pub fn reverse(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let dims = need_ints(ctx, op, "dimensions")?;
    let a = &args[0];
    let st = strides(&a.shape);
    Ok(vec![remap(ctx, op, a, None, |i| {
        Some(
            (0..i.len())
                .map(|k| {
                    let x = if dims.contains(&(k as i64)) {
                        a.shape[k] - 1 - i[k]
                    } else {
                        i[k]
                    };
                    x as usize * st[k]
                })
                .sum(),
        )
    })?])
}

/// The bit pattern of element `i` of `t` in its element width.
fn elem_bits(e: Elem, d: &Data, i: usize) -> u128 {
    match (d, e) {
        (Data::Int(v), _) => u128::from(bits(e, v.get(i))),
        (Data::Float(v), Elem::Float(k)) => v.bits(k, i),
        (Data::Complex(v), Elem::Complex(k)) => {
            let (re, im) = v.get(i);
            k.from_f64(re) | (k.from_f64(im) << k.bit_width())
        }
        _ => 0,
    }
}

fn elem_width(e: Elem) -> u32 {
    match e {
        Elem::Int { width, .. } => width,
        Elem::Index => 64,
        Elem::Float(k) => k.bit_width(),
        Elem::Complex(k) => 2 * k.bit_width(),
    }
}

fn from_bits(e: Elem, b: u128) -> (i64, f64, C) {
    match e {
        Elem::Float(k) => (0, k.to_f64(b), (0.0, 0.0)),
        Elem::Complex(k) => {
            let w = k.bit_width();
            let m = (1u128 << w) - 1;
            (0, 0.0, (k.to_f64(b & m), k.to_f64((b >> w) & m)))
        }
        _ => (e.wrap(b as i128), 0.0, (0.0, 0.0)),
    }
}

/// `bitcast_convert`.
pub fn bitcast_convert(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = &args[0];
    let (ea, er) = (a.elem(ctx), result_elem(ctx, op, 0)?);
    let (wa, wr) = (elem_width(ea), elem_width(er));
    let n = count(&result_shape(ctx, op, 0)?);
    // The input as one little-endian bit string, re-read in the result's width.
    let mut stream: Vec<bool> = Vec::with_capacity(a.len() * wa as usize);
    for i in 0..a.len() {
        let b = elem_bits(ea, &a.data, i);
        stream.extend((0..wa).map(|k| (b >> k) & 1 == 1));
    }
    let vals: Vec<(i64, f64, C)> = (0..n)
        .map(|i| {
            let b = (0..wr).fold(0u128, |acc, k| {
                acc | (u128::from(
                    stream
                        .get(i * wr as usize + k as usize)
                        .copied()
                        .unwrap_or(false),
                ) << k)
            });
            from_bits(er, b)
        })
        .collect();
    let k = er.float_kind();
    let data = match er {
        Elem::Float(_) => Data::from_f64s(k, vals.iter().map(|v| v.1)),
        Elem::Complex(_) => Data::from_complex(k, vals.iter().map(|v| v.2)),
        _ => Data::from_i64s(er, vals.iter().map(|v| v.0)),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// `x` rounded to a float with `e` exponent and `m` mantissa bits (ties to
/// even; overflow to infinity, values below the normal range to zero). A NaN
/// stays a NaN unless no mantissa bits are left to hold it: then it is an
/// infinity of its sign, as in XLA.
pub fn reduce_precision_value(x: f64, e: u32, m: u32) -> f64 {
    if x.is_nan() {
        return if m == 0 { f64::INFINITY.copysign(x) } else { x };
    }
    let mut b = x.to_bits();
    if m < 52 {
        let shift = 52 - m;
        let last = (b >> shift) & 1;
        let bias = (1u64 << (shift - 1)) - 1 + last;
        b = (b + bias) & !((1u64 << shift) - 1);
    }
    let y = f64::from_bits(b);
    if e < 11 {
        let max_exp = (1i64 << (e - 1)) - 1;
        let min_exp = 1 - max_exp;
        let exp = ((b >> 52) & 0x7ff) as i64 - 1023;
        if y.is_infinite() || exp > max_exp {
            return f64::INFINITY.copysign(x);
        }
        if exp < min_exp {
            return 0.0f64.copysign(x);
        }
    }
    y
}

/// `reduce_precision`.
pub fn reduce_precision(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let e = op_attr(ctx, op, "exponent_bits")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(8)
        .clamp(1, 11) as u32;
    let m = op_attr(ctx, op, "mantissa_bits")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(23)
        .clamp(0, 52) as u32;
    let er = result_elem(ctx, op, 0)?;
    let v = args[0]
        .as_floats()
        .ok_or_else(|| unsupported(op, ctx, "non-floats"))?;
    Ok(vec![out(
        ctx,
        op,
        0,
        Data::from_f64s(
            er.float_kind(),
            v.iter().map(|x| reduce_precision_value(x, e, m)),
        ),
    )])
}

/// `get_dimension_size`.
pub fn get_dimension_size(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let d = op_attr(ctx, op, "dimension")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(0) as usize;
    let n = args[0].shape.get(d).copied().unwrap_or(0);
    let e = result_elem(ctx, op, 0)?;
    Ok(vec![out(ctx, op, 0, Data::from_i64s(e, [n]))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_precision_rounds_and_saturates_like_the_format() {
        // To bf16's layout (8 exponent, 7 mantissa bits).
        assert_eq!(reduce_precision_value(1.0 + 1.0 / 256.0, 8, 7), 1.0);
        assert_eq!(
            reduce_precision_value(1.0 + 3.0 / 256.0, 8, 7),
            1.0 + 4.0 / 256.0
        );
        // To f16's layout: 65520 overflows, tiny values flush to zero.
        assert_eq!(reduce_precision_value(65520.0, 5, 10), f64::INFINITY);
        assert_eq!(reduce_precision_value(-1e-8, 5, 10), -0.0);
        assert!(reduce_precision_value(f64::NAN, 5, 10).is_nan());
    }
}
