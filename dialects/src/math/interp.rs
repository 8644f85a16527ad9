//! The math ops' meaning for the reference interpreter: elementwise through the
//! C library in `f64` (the folders' functions), rounded to the element type.

use super::fold::libm;
use aic::interp::{Data, Floats, IResult, Interp, InterpError, Ints, Tensor};
use aic::ir::Op;

/// The float operand `i` of `op`.
fn floats(op: Op, args: &[Tensor], i: usize) -> IResult<&Floats> {
    args.get(i)
        .and_then(Tensor::as_floats)
        .ok_or_else(|| InterpError::at(op, "float operands expected"))
}

fn float_result(it: &Interp<'_>, args: &[Tensor], out: Floats) -> IResult<Vec<Tensor>> {
    Ok(vec![Tensor::new(it.ctx, args[0].ty, Data::Float(out))])
}

/// A unary float op computing `f` on each element (in `f64`, rounded to the
/// element type).
pub fn float_unary(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    f: fn(f64) -> f64,
) -> IResult<Vec<Tensor>> {
    let k = args[0].elem(it.ctx).float_kind();
    let a = floats(op, args, 0)?;
    float_result(it, args, Floats::from_iter(k, a.iter().map(f)))
}

/// A binary float op computing `f` on each pair of elements.
pub fn float_binary(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    f: fn(f64, f64) -> f64,
) -> IResult<Vec<Tensor>> {
    let k = args[0].elem(it.ctx).float_kind();
    let (a, b) = (floats(op, args, 0)?, floats(op, args, 1)?);
    let out = Floats::from_iter(k, a.iter().zip(b.iter()).map(|(x, y)| f(x, y)));
    float_result(it, args, out)
}

/// `math.fma`.
pub fn fma(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let k = args[0].elem(it.ctx).float_kind();
    let (a, b, c) = (
        floats(op, args, 0)?,
        floats(op, args, 1)?,
        floats(op, args, 2)?,
    );
    let out = Floats::from_fn(k, a.len(), |i| a.get(i).mul_add(b.get(i), c.get(i)));
    float_result(it, args, out)
}

/// `math.clampf`.
pub fn clampf(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let k = args[0].elem(it.ctx).float_kind();
    let (a, lo, hi) = (
        floats(op, args, 0)?,
        floats(op, args, 1)?,
        floats(op, args, 2)?,
    );
    let out = Floats::from_fn(k, a.len(), |i| a.get(i).max(lo.get(i)).min(hi.get(i)));
    float_result(it, args, out)
}

/// `math.fpowi`.
pub fn fpowi(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let k = args[0].elem(it.ctx).float_kind();
    let a = floats(op, args, 0)?;
    let p = args[1]
        .as_ints()
        .ok_or_else(|| InterpError::at(op, "'math.fpowi' expects an integer exponent"))?;
    let out = Floats::from_fn(k, a.len(), |i| a.get(i).powi(p.get(i) as i32));
    float_result(it, args, out)
}

/// The bit width of an integer operand and its low-`w`-bits mask.
fn int_operand<'a>(
    it: &Interp<'_>,
    op: Op,
    args: &'a [Tensor],
    i: usize,
) -> IResult<(aic::interp::Elem, u32, &'a Ints)> {
    let e = args[0].elem(it.ctx);
    let w = match e {
        aic::interp::Elem::Int { width, .. } => width,
        _ => 64,
    };
    let a = args
        .get(i)
        .and_then(Tensor::as_ints)
        .ok_or_else(|| InterpError::at(op, "integer operands expected"))?;
    Ok((e, w, a))
}

/// A unary integer op computing `f` on the low `w` bits of each element:
/// the folder's own function (see the op's `fold`).
pub fn int_unary(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    f: fn(u128, u32) -> u128,
) -> IResult<Vec<Tensor>> {
    let (e, w, a) = int_operand(it, op, args, 0)?;
    let mask = |x: i64| {
        if w >= 64 {
            x as u64
        } else {
            (x as u64) & ((1u64 << w) - 1)
        }
    };
    let out = Ints::from_iter(
        e,
        a.iter().map(|x| e.wrap(f(u128::from(mask(x)), w) as i128)),
    );
    Ok(vec![Tensor::new(it.ctx, args[0].ty, Data::Int(out))])
}

/// `math.ipowi`.
pub fn ipowi(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let (e, _, a) = int_operand(it, op, args, 0)?;
    let (_, _, b) = int_operand(it, op, args, 1)?;
    if b.iter().any(|p| p < 0) {
        return Err(InterpError::at(op, "'math.ipowi' with a negative exponent"));
    }
    let out = Ints::from_iter(
        e,
        a.iter().zip(b.iter()).map(|(x, p)| {
            let mut r: i128 = 1;
            for _ in 0..p {
                r = i128::from(e.wrap(r.wrapping_mul(i128::from(x))));
            }
            e.wrap(r)
        }),
    );
    Ok(vec![Tensor::new(it.ctx, args[0].ty, Data::Int(out))])
}

/// A float classification: `f` of each element, as an `i1`.
pub fn classify(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    f: fn(f64) -> bool,
) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let a = args[0]
        .as_floats()
        .ok_or_else(|| InterpError::at(op, "a float operand expected"))?;
    let ty = ctx.value_type(ctx.result(op, 0));
    let e = aic::interp::Elem::of(ctx, ty).unwrap_or(aic::interp::Elem::Index);
    let out = Data::from_i64s(e, a.iter().map(|x| -i64::from(f(x))));
    Ok(vec![Tensor::new(ctx, ty, out)])
}

/// `math.sincos`.
pub fn sincos(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let k = args[0].elem(ctx).float_kind();
    let a = args[0]
        .as_floats()
        .ok_or_else(|| InterpError::at(op, "a float operand expected"))?;
    let s = Floats::from_iter(k, a.iter().map(|x| libm::sin(x)));
    let c = Floats::from_iter(k, a.iter().map(|x| libm::cos(x)));
    Ok(vec![
        Tensor::new(ctx, args[0].ty, Data::Float(s)),
        Tensor::new(ctx, args[0].ty, Data::Float(c)),
    ])
}
