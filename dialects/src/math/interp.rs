//! The math ops' meaning for the reference interpreter: elementwise through the
//! C library in `f64` (the folders' functions), rounded to the element type.

use super::fold::{self, libm};
use aic::interp::{Data, Floats, IResult, Interp, InterpError, Ints, Tensor};
use aic::ir::Op;

fn unary_fn(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "math.absf" => f64::abs,
        "math.acos" => |x| libm::acos(x),
        "math.acosh" => |x| libm::acosh(x),
        "math.asin" => |x| libm::asin(x),
        "math.asinh" => |x| libm::asinh(x),
        "math.atan" => |x| libm::atan(x),
        "math.atanh" => |x| libm::atanh(x),
        "math.cbrt" => f64::cbrt,
        "math.ceil" => f64::ceil,
        "math.cos" => |x| libm::cos(x),
        "math.cosh" => |x| libm::cosh(x),
        "math.erf" => |x| libm::erf(x),
        "math.erfc" => |x| libm::erfc(x),
        "math.exp" => |x| libm::exp(x),
        "math.exp2" => |x| libm::exp2(x),
        "math.expm1" => |x| libm::expm1(x),
        "math.floor" => f64::floor,
        "math.log" => |x| libm::log(x),
        "math.log10" => |x| libm::log10(x),
        "math.log1p" => |x| libm::log1p(x),
        "math.log2" => |x| libm::log2(x),
        "math.round" => |x| libm::round(x),
        "math.roundeven" => f64::round_ties_even,
        "math.rsqrt" => |x| 1.0 / x.sqrt(),
        "math.sin" => |x| libm::sin(x),
        "math.sinh" => |x| libm::sinh(x),
        "math.sqrt" => |x| libm::sqrt(x),
        "math.tan" => |x| libm::tan(x),
        "math.tanh" => |x| libm::tanh(x),
        "math.trunc" => |x| libm::trunc(x),
        _ => return None,
    })
}

fn binary_fn(name: &str) -> Option<fn(f64, f64) -> f64> {
    Some(match name {
        "math.atan2" => |x, y| libm::atan2(x, y),
        "math.copysign" => f64::copysign,
        "math.powf" => |x, y| libm::pow(x, y),
        _ => return None,
    })
}

/// The unary integer ops' scalar meaning on the low `w` bits: the folders'
/// functions, which the ops' fold hooks also apply.
fn int_unary_fn(name: &str) -> Option<fn(u128, u32) -> u128> {
    [
        (super::ABSI.name, fold::absi as fn(u128, u32) -> u128),
        (super::CTLZ.name, fold::ctlz),
        (super::CTTZ.name, fold::cttz),
        (super::CTPOP.name, fold::ctpop),
    ]
    .into_iter()
    .find_map(|(n, f)| (n == name).then_some(f))
}

/// Float ops of one, two or three operands (`fma`, `clampf`).
pub fn float_op(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let name = ctx.op_name(op);
    let k = args[0].elem(ctx).float_kind();
    let fl = |i: usize| {
        args.get(i)
            .and_then(Tensor::as_floats)
            .ok_or_else(|| InterpError::at(op, format!("'{name}' expects float operands")))
    };
    let a = fl(0)?;
    let n = a.len();
    let out = if let Some(f) = unary_fn(name) {
        Floats::from_iter(k, a.iter().map(f))
    } else if let Some(f) = binary_fn(name) {
        let b = fl(1)?;
        Floats::from_iter(k, a.iter().zip(b.iter()).map(|(x, y)| f(x, y)))
    } else if name == "math.fma" {
        let (b, c) = (fl(1)?, fl(2)?);
        Floats::from_fn(k, n, |i| a.get(i).mul_add(b.get(i), c.get(i)))
    } else if name == "math.clampf" {
        let (lo, hi) = (fl(1)?, fl(2)?);
        Floats::from_fn(k, n, |i| a.get(i).max(lo.get(i)).min(hi.get(i)))
    } else if name == "math.fpowi" {
        let p = args[1]
            .as_ints()
            .ok_or_else(|| InterpError::at(op, "'math.fpowi' expects an integer exponent"))?;
        Floats::from_fn(k, n, |i| a.get(i).powi(p.get(i) as i32))
    } else {
        return Err(InterpError::at(op, format!("unsupported op '{name}'")));
    };
    Ok(vec![Tensor::new(ctx, args[0].ty, Data::Float(out))])
}

/// Integer ops: absi, ctlz, cttz, ctpop, ipowi.
pub fn int_op(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let w = match e {
        aic::interp::Elem::Int { width, .. } => width,
        _ => 64,
    };
    let mask = |x: i64| {
        if w >= 64 {
            x as u64
        } else {
            (x as u64) & ((1u64 << w) - 1)
        }
    };
    let name = ctx.op_name(op);
    let ints = |i: usize| {
        args.get(i)
            .and_then(Tensor::as_ints)
            .ok_or_else(|| InterpError::at(op, format!("'{name}' expects integer operands")))
    };
    let a = ints(0)?;
    let out = match name {
        _ if let Some(f) = int_unary_fn(name) => Ints::from_iter(
            e,
            a.iter().map(|x| e.wrap(f(u128::from(mask(x)), w) as i128)),
        ),
        "math.ipowi" => {
            let b = ints(1)?;
            if b.iter().any(|p| p < 0) {
                return Err(InterpError::at(op, "'math.ipowi' with a negative exponent"));
            }
            Ints::from_iter(
                e,
                a.iter().zip(b.iter()).map(|(x, p)| {
                    let mut r: i128 = 1;
                    for _ in 0..p {
                        r = i128::from(e.wrap(r.wrapping_mul(i128::from(x))));
                    }
                    e.wrap(r)
                }),
            )
        }
        _ => return Err(InterpError::at(op, format!("unsupported op '{name}'"))),
    };
    Ok(vec![Tensor::new(ctx, args[0].ty, Data::Int(out))])
}

/// isnan, isinf, isfinite, isnormal.
pub fn classify(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let f: fn(f64) -> bool = match ctx.op_name(op) {
        "math.isnan" => f64::is_nan,
        "math.isinf" => f64::is_infinite,
        "math.isfinite" => f64::is_finite,
        _ => f64::is_normal,
    };
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
