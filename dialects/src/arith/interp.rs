//! The arith ops' meaning for the reference interpreter, elementwise over
//! scalars, vectors and tensors. Binary ops apply their scalar definition
//! ([`super::scalar`], shared with the folders): integers with exact
//! wrap-around arithmetic, floats in `f64` rounded to the type.

use super::fold::int::apply_cmpi;
use super::scalar::{Bits, Cast, FloatRow, IntRow};
use aic::interp::{
    Data, Elem, Floats, IResult, Interp, InterpError, Ints, Tensor, attr_of_tensor, tensor_of_attr,
};
use aic::ir::{Context, Op};
use aic::types::Type;

fn result_type(ctx: &Context, op: Op, i: usize) -> Type {
    ctx.value_type(ctx.result(op, i))
}

fn width(e: Elem) -> u32 {
    match e {
        Elem::Int { width, .. } => width,
        _ => 64,
    }
}

/// `arith.constant`.
pub fn constant(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let ty = result_type(ctx, op, 0);
    let value = super::CONSTANT.attr(ctx, op, "value");
    value
        .and_then(|a| tensor_of_attr(ctx, a, ty))
        .map(|t| vec![t])
        .ok_or_else(|| InterpError::at(op, "unsupported constant"))
}

/// Integer binary ops (`addi` ... `shrui`, min/max, divisions), by their row.
pub fn int_binary(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    row: &IntRow,
) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let f = row.f;
    let e = args[0].elem(ctx);
    let w = width(e);
    let (Data::Int(a), Data::Int(b)) = (&args[0].data, &args[1].data) else {
        return Err(InterpError::at(op, "integer operands expected"));
    };
    let mut undefined = false;
    let out = Ints::from_fn(e, a.len().min(b.len()), |i| {
        let r = f(Bits::new(a.get(i).into(), w), Bits::new(b.get(i).into(), w));
        undefined |= r.is_none();
        e.wrap(r.unwrap_or(0))
    });
    if undefined {
        let name = ctx.op_name(op);
        return Err(InterpError::at(
            op,
            format!(
                "'{name}' is undefined here (division by zero, overflow or shift out of range)"
            ),
        ));
    }
    Ok(vec![Tensor::new(ctx, args[0].ty, Data::Int(out))])
}

/// Float binary ops, by their row.
pub fn float_binary(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    row: &FloatRow,
) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let f = row.f;
    let (Data::Float(a), Data::Float(b)) = (&args[0].data, &args[1].data) else {
        return Err(InterpError::at(op, "float operands expected"));
    };
    let out = Floats::from_fn(e.float_kind(), a.len().min(b.len()), |i| {
        f(a.get(i), b.get(i))
    });
    Ok(vec![Tensor::new(ctx, args[0].ty, Data::Float(out))])
}

/// `arith.negf`.
pub fn negf(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let Data::Float(a) = &args[0].data else {
        return Err(InterpError::at(op, "float operand expected"));
    };
    let out = Floats::from_iter(a.kind(), a.iter().map(|x| -x));
    Ok(vec![Tensor::new(it.ctx, args[0].ty, Data::Float(out))])
}

/// A comparison's predicate (`eq` / `false` when absent).
fn predicate(p: Option<i64>) -> i128 {
    i128::from(p.unwrap_or(0))
}

fn bools(ctx: &Context, op: Op, v: impl Iterator<Item = bool>) -> Tensor {
    let ty = result_type(ctx, op, 0);
    let e = Elem::of(ctx, ty).unwrap_or(Elem::Index);
    Tensor::new(ctx, ty, Data::from_i64s(e, v.map(|b| -i64::from(b))))
}

/// `arith.cmpi`.
pub fn cmpi(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let pred = predicate(super::CmpI(op).predicate(ctx));
    let w = width(args[0].elem(ctx));
    let (Data::Int(a), Data::Int(b)) = (&args[0].data, &args[1].data) else {
        return Err(InterpError::at(op, "integer operands expected"));
    };
    let v = a
        .iter()
        .zip(b.iter())
        .map(|(x, y)| apply_cmpi(pred, Bits::new(x.into(), w), Bits::new(y.into(), w)));
    Ok(vec![bools(ctx, op, v)])
}

/// `arith.cmpf` (predicates in MLIR's order: false, oeq, ogt, ..., uno, true).
pub fn cmpf(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let pred = predicate(super::CmpF(op).predicate(ctx));
    let (Data::Float(a), Data::Float(b)) = (&args[0].data, &args[1].data) else {
        return Err(InterpError::at(op, "float operands expected"));
    };
    let v = a
        .iter()
        .zip(b.iter())
        .map(|(x, y)| super::fold::float::apply_cmpf(pred, x.partial_cmp(&y)));
    Ok(vec![bools(ctx, op, v)])
}

/// `arith.select`: a scalar condition picks a whole operand, a shaped one
/// picks element by element.
pub fn select(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let Data::Int(cond) = &args[0].data else {
        return Err(InterpError::at(op, "select of a non-integer condition"));
    };
    if cond.len() == 1 && args[0].shape.is_empty() {
        return Ok(vec![if cond.get(0) != 0 {
            args[1].clone()
        } else {
            args[2].clone()
        }]);
    }
    let (a, b) = (&args[1].data, &args[2].data);
    if std::mem::discriminant(a) != std::mem::discriminant(b) || matches!(a, Data::Tuple(_)) {
        return Err(InterpError::at(op, "select of mismatched values"));
    }
    // Both operands side by side; element `i` comes from one of them.
    let mut both = a.clone();
    both.extend_from(b);
    let off = a.len();
    let idx = (0..off).map(|i| Some(if cond.at(i) != 0 { i } else { off + i }));
    let data = both.take(idx, None);
    Ok(vec![Tensor::new(ctx, args[1].ty, data)])
}

/// The casts: integer width changes, index casts, int <-> float, float width
/// changes and bitcasts, by their meaning `cast`.
pub fn cast(it: &mut Interp<'_>, op: Op, args: &[Tensor], cast: Cast) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let to_ty = result_type(ctx, op, 0);
    let from = args[0].elem(ctx);
    let Some(to) = Elem::of(ctx, to_ty) else {
        return Err(InterpError::at(op, "unsupported cast target"));
    };
    let unsigned_src = matches!(
        cast,
        Cast::Int { signed: false } | Cast::IntToFloat { signed: false }
    );
    // Integers as the source reads them.
    let read = |x: i64| -> i128 {
        if unsigned_src {
            let w = width(from);
            if w >= 64 {
                x as u64 as i128
            } else {
                (x as u64 & ((1u64 << w) - 1)) as i128
            }
        } else {
            x as i128
        }
    };
    let data = match cast {
        Cast::Int { .. } => {
            let Data::Int(a) = &args[0].data else {
                return Err(InterpError::at(op, "integer operand expected"));
            };
            Data::from_i64s(to, a.iter().map(|x| to.wrap(read(x))))
        }
        Cast::IntToFloat { .. } => {
            let Data::Int(a) = &args[0].data else {
                return Err(InterpError::at(op, "integer operand expected"));
            };
            Data::from_f64s(to.float_kind(), a.iter().map(|x| read(x) as f64))
        }
        Cast::FloatToInt { .. } => {
            let Data::Float(a) = &args[0].data else {
                return Err(InterpError::at(op, "float operand expected"));
            };
            if a.iter().any(|x| !x.is_finite()) {
                let name = ctx.op_name(op);
                return Err(InterpError::at(
                    op,
                    format!("'{name}' of a non-finite value"),
                ));
            }
            Data::from_i64s(to, a.iter().map(|x| to.wrap(x.trunc() as i128)))
        }
        Cast::Float => {
            let Data::Float(a) = &args[0].data else {
                return Err(InterpError::at(op, "float operand expected"));
            };
            Data::from_f64s(to.float_kind(), a.iter())
        }
        Cast::Bits => {
            // Through the bit patterns the two types share.
            let t = attr_of_tensor(ctx, &args[0]);
            let bits = tensor_bits(ctx, t);
            return Ok(vec![from_bits(ctx, to_ty, to, &bits)]);
        }
    };
    Ok(vec![Tensor::new(ctx, to_ty, data)])
}

fn tensor_bits(ctx: &Context, a: aic::Attr) -> Vec<u128> {
    match ctx.attr_kind(a) {
        aic::AttrKind::Integer { value, .. } => vec![*value as u128],
        aic::AttrKind::Float { bits, .. } => vec![*bits],
        aic::AttrKind::DenseElements {
            ty,
            data: aic::attributes::DenseData::Raw { splat, bytes },
        } => {
            let et = ctx.type_kind(*ty).element_type().expect("shaped");
            let w = aic::printer::scalar_bytes(ctx, et).max(1);
            let n: usize = ctx
                .type_kind(*ty)
                .shape()
                .map_or(1, |s| s.iter().product::<i64>() as usize);
            (0..n)
                .map(|i| {
                    let j = if *splat { 0 } else { i };
                    bytes[j * w..(j + 1) * w]
                        .iter()
                        .rev()
                        .fold(0u128, |acc, b| (acc << 8) | u128::from(*b))
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

fn from_bits(ctx: &Context, ty: Type, to: Elem, bits: &[u128]) -> Tensor {
    let data = match to {
        Elem::Float(k) => Data::from_f64s(k, bits.iter().map(|b| k.to_f64(*b))),
        _ => Data::from_i64s(to, bits.iter().map(|b| to.wrap(*b as i128))),
    };
    Tensor::new(ctx, ty, data)
}

/// The two results of an extended op, `lo` of the operands' type.
fn pair(ctx: &Context, op: Op, e: Elem, lo: Vec<i64>, hi: Vec<i64>) -> Vec<Tensor> {
    let t1 = Tensor::new(ctx, result_type(ctx, op, 0), Data::from_i64s(e, lo));
    let ty1 = result_type(ctx, op, 1);
    let e1 = Elem::of(ctx, ty1).unwrap_or(e);
    let t2 = Tensor::new(ctx, ty1, Data::from_i64s(e1, hi));
    vec![t1, t2]
}

/// `arith.addui_extended`: the sum and its carry.
pub fn addui_extended(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let w = width(e);
    let (Data::Int(xs), Data::Int(ys)) = (&args[0].data, &args[1].data) else {
        return Err(InterpError::at(op, "integer operands expected"));
    };
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for (x, y) in xs.iter().zip(ys.iter()) {
        let (a, b) = (Bits::new(x.into(), w), Bits::new(y.into(), w));
        let sum = Bits::new(a.u.wrapping_add(b.u) as i128, w);
        lo.push(e.wrap(sum.s));
        hi.push(-i64::from(sum.u < a.u));
    }
    Ok(pair(ctx, op, e, lo, hi))
}

/// `arith.mulsi_extended` (`signed`) and `arith.mului_extended`: the low and
/// high halves of the product.
pub fn mul_extended(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    signed: bool,
) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let w = width(e);
    let (Data::Int(xs), Data::Int(ys)) = (&args[0].data, &args[1].data) else {
        return Err(InterpError::at(op, "integer operands expected"));
    };
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for (x, y) in xs.iter().zip(ys.iter()) {
        let (a, b) = (Bits::new(x.into(), w), Bits::new(y.into(), w));
        let p: i128 = if signed {
            a.s.wrapping_mul(b.s)
        } else {
            (a.u.wrapping_mul(b.u)) as i128
        };
        lo.push(e.wrap(p));
        let high = if signed {
            p >> w
        } else {
            ((p as u128) >> w) as i128
        };
        hi.push(e.wrap(high));
    }
    Ok(pair(ctx, op, e, lo, hi))
}
