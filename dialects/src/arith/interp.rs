//! The arith ops' meaning for the reference interpreter, elementwise over
//! scalars, vectors and tensors. Integer ops share the folders' exact
//! wrap-around arithmetic; float ops compute in `f64` and round to the type.

use super::fold::int::{Bits, apply_cmpi, fold_consts};
use aic::interp::{
    Data, Elem, IResult, Interp, InterpError, Tensor, attr_of_tensor, tensor_of_attr,
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

/// Integer binary ops (`addi` ... `shrui`, min/max, divisions).
pub fn int_binary(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let name = ctx.op_name(op);
    let e = args[0].elem(ctx);
    let w = width(e);
    let (a, b) = (args[0].ints(), args[1].ints());
    let mut out = Vec::with_capacity(a.len());
    for (x, y) in a.iter().zip(b) {
        let r = fold_consts(name, Bits::new(*x as i128, w), Bits::new(*y as i128, w)).ok_or_else(
            || {
                InterpError::at(
                    op,
                    format!("'{name}' is undefined here (division by zero, overflow or shift out of range)"),
                )
            },
        )?;
        out.push(e.wrap(r));
    }
    Ok(vec![Tensor::new(ctx, args[0].ty, Data::Int(out))])
}

/// Float binary ops.
pub fn float_binary(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let f: fn(f64, f64) -> f64 = match ctx.op_name(op) {
        "arith.addf" => |x, y| x + y,
        "arith.subf" => |x, y| x - y,
        "arith.mulf" => |x, y| x * y,
        "arith.divf" => |x, y| x / y,
        "arith.remf" => |x, y| x % y,
        "arith.maximumf" => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if x == y {
                // +0 is larger than -0.
                if x.is_sign_negative() { y } else { x }
            } else {
                x.max(y)
            }
        },
        "arith.minimumf" => |x, y| {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if x == y {
                if x.is_sign_negative() { x } else { y }
            } else {
                x.min(y)
            }
        },
        // A NaN operand yields the other one; +0 is larger than -0 (APFloat's
        // `maxnum`/`minnum`, which the folders follow).
        "arith.maxnumf" => |x, y| {
            if x == y && x == 0.0 {
                if x.is_sign_negative() { y } else { x }
            } else {
                x.max(y)
            }
        },
        "arith.minnumf" => |x, y| {
            if x == y && x == 0.0 {
                if x.is_sign_negative() { x } else { y }
            } else {
                x.min(y)
            }
        },
        n => return Err(InterpError::at(op, format!("unsupported op '{n}'"))),
    };
    let out = args[0]
        .floats()
        .iter()
        .zip(args[1].floats())
        .map(|(x, y)| e.round(f(*x, *y)))
        .collect();
    Ok(vec![Tensor::new(ctx, args[0].ty, Data::Float(out))])
}

/// `arith.negf`.
pub fn negf(it: &mut Interp<'_>, _op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let out = args[0].floats().iter().map(|x| -x).collect();
    Ok(vec![Tensor::new(it.ctx, args[0].ty, Data::Float(out))])
}

fn predicate(ctx: &Context, op: Op, spec: &aic::OpSpec) -> i128 {
    match spec.attr(ctx, op, "predicate").map(|a| ctx.attr_kind(a)) {
        Some(aic::AttrKind::Integer { value, .. }) => *value,
        _ => 0,
    }
}

fn bools(ctx: &Context, op: Op, v: Vec<bool>) -> Tensor {
    Tensor::new(
        ctx,
        result_type(ctx, op, 0),
        Data::Int(v.into_iter().map(|b| -i64::from(b)).collect()),
    )
}

/// `arith.cmpi` and `arith.cmpf`.
pub fn compare(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    if it.ctx.op_name(op) == "arith.cmpi" {
        cmpi(it, op, args)
    } else {
        cmpf(it, op, args)
    }
}

/// `arith.cmpi`.
fn cmpi(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let pred = predicate(ctx, op, &super::CMPI);
    let w = width(args[0].elem(ctx));
    let v = args[0]
        .ints()
        .iter()
        .zip(args[1].ints())
        .map(|(x, y)| apply_cmpi(pred, Bits::new(*x as i128, w), Bits::new(*y as i128, w)))
        .collect();
    Ok(vec![bools(ctx, op, v)])
}

/// `arith.cmpf` (predicates in MLIR's order: false, oeq, ogt, ..., uno, true).
fn cmpf(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let pred = predicate(ctx, op, &super::CMPF);
    let v = args[0]
        .floats()
        .iter()
        .zip(args[1].floats())
        .map(|(x, y)| super::fold::float::apply_cmpf(pred, x.partial_cmp(y)))
        .collect();
    Ok(vec![bools(ctx, op, v)])
}

/// `arith.select`: a scalar condition picks a whole operand, a shaped one
/// picks element by element.
pub fn select(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let cond = args[0].ints();
    if cond.len() == 1 && args[0].shape.is_empty() {
        return Ok(vec![if cond[0] != 0 {
            args[1].clone()
        } else {
            args[2].clone()
        }]);
    }
    let pick = |i: usize| cond[i] != 0;
    let data = match (&args[1].data, &args[2].data) {
        (Data::Int(a), Data::Int(b)) => Data::Int(
            (0..a.len())
                .map(|i| if pick(i) { a[i] } else { b[i] })
                .collect(),
        ),
        (Data::Float(a), Data::Float(b)) => Data::Float(
            (0..a.len())
                .map(|i| if pick(i) { a[i] } else { b[i] })
                .collect(),
        ),
        (Data::Complex(a), Data::Complex(b)) => Data::Complex(
            (0..a.len())
                .map(|i| if pick(i) { a[i] } else { b[i] })
                .collect(),
        ),
        _ => return Err(InterpError::at(op, "select of mismatched values")),
    };
    Ok(vec![Tensor::new(ctx, args[1].ty, data)])
}

/// The casts: integer width changes, index casts, int <-> float, float width
/// changes and bitcasts.
pub fn cast(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let to_ty = result_type(ctx, op, 0);
    let from = args[0].elem(ctx);
    let Some(to) = Elem::of(ctx, to_ty) else {
        return Err(InterpError::at(op, "unsupported cast target"));
    };
    let name = ctx.op_name(op);
    let unsigned_src = matches!(name, "arith.extui" | "arith.index_castui" | "arith.uitofp");
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
    let data = match name {
        "arith.extsi" | "arith.extui" | "arith.trunci" | "arith.index_cast"
        | "arith.index_castui" => {
            Data::Int(args[0].ints().iter().map(|x| to.wrap(read(*x))).collect())
        }
        "arith.sitofp" | "arith.uitofp" => Data::Float(
            args[0]
                .ints()
                .iter()
                .map(|x| to.round(read(*x) as f64))
                .collect(),
        ),
        "arith.fptosi" | "arith.fptoui" => {
            let mut v = Vec::with_capacity(args[0].len());
            for x in args[0].floats() {
                if !x.is_finite() {
                    return Err(InterpError::at(
                        op,
                        format!("'{name}' of a non-finite value"),
                    ));
                }
                v.push(to.wrap(x.trunc() as i128));
            }
            Data::Int(v)
        }
        "arith.extf" | "arith.truncf" => {
            Data::Float(args[0].floats().iter().map(|x| to.round(*x)).collect())
        }
        "arith.bitcast" => {
            // Through the bit patterns the two types share.
            let t = attr_of_tensor(ctx, &args[0]);
            let bits = tensor_bits(ctx, t);
            let tmp = Tensor::new(ctx, to_ty, Data::Int(Vec::new()));
            return Ok(vec![from_bits(ctx, &tmp, to, &bits)]);
        }
        n => return Err(InterpError::at(op, format!("unsupported op '{n}'"))),
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

fn from_bits(ctx: &Context, like: &Tensor, to: Elem, bits: &[u128]) -> Tensor {
    let data = match to {
        Elem::Float(k) => Data::Float(bits.iter().map(|b| k.to_f64(*b)).collect()),
        _ => Data::Int(bits.iter().map(|b| to.wrap(*b as i128)).collect()),
    };
    Tensor::new(ctx, like.ty, data)
}

/// `arith.addui_extended`, `arith.mulsi_extended`, `arith.mului_extended`.
pub fn extended(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let w = width(e);
    let name = ctx.op_name(op);
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for (x, y) in args[0].ints().iter().zip(args[1].ints()) {
        let (a, b) = (Bits::new(*x as i128, w), Bits::new(*y as i128, w));
        match name {
            "arith.addui_extended" => {
                let s = a.u.wrapping_add(b.u);
                let sum = Bits::new(s as i128, w);
                lo.push(e.wrap(sum.s));
                hi.push(-i64::from(sum.u < a.u));
            }
            _ => {
                let p: i128 = if name == "arith.mulsi_extended" {
                    a.s.wrapping_mul(b.s)
                } else {
                    (a.u.wrapping_mul(b.u)) as i128
                };
                lo.push(e.wrap(p));
                let high = if name == "arith.mulsi_extended" {
                    p >> w
                } else {
                    ((p as u128) >> w) as i128
                };
                hi.push(e.wrap(high));
            }
        }
    }
    let t1 = Tensor::new(ctx, result_type(ctx, op, 0), Data::Int(lo));
    let t2 = Tensor::new(ctx, result_type(ctx, op, 1), Data::Int(hi));
    Ok(vec![t1, t2])
}
