//! The math ops' meaning for the reference interpreter: elementwise through the
//! C library in `f64` (the folders' functions), rounded to the element type.

use super::fold::libm;
use aic::interp::{Data, IResult, Interp, InterpError, Tensor};
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

/// Float ops of one, two or three operands (`fma`, `clampf`).
pub fn float_op(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let name = ctx.op_name(op);
    let e = args[0].elem(ctx);
    let a = args[0].floats();
    let out: Vec<f64> = if let Some(f) = unary_fn(name) {
        a.iter().map(|x| e.round(f(*x))).collect()
    } else if let Some(f) = binary_fn(name) {
        let b = args[1].floats();
        a.iter().zip(b).map(|(x, y)| e.round(f(*x, *y))).collect()
    } else if name == "math.fma" {
        let (b, c) = (args[1].floats(), args[2].floats());
        (0..a.len())
            .map(|i| e.round(a[i].mul_add(b[i], c[i])))
            .collect()
    } else if name == "math.clampf" {
        let (lo, hi) = (args[1].floats(), args[2].floats());
        (0..a.len()).map(|i| a[i].max(lo[i]).min(hi[i])).collect()
    } else if name == "math.fpowi" {
        let p = args[1].ints();
        (0..a.len())
            .map(|i| e.round(a[i].powi(p[i] as i32)))
            .collect()
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
    let a = args[0].ints();
    let out: Vec<i64> = match name {
        "math.absi" => a.iter().map(|x| e.wrap((*x as i128).abs())).collect(),
        "math.ctpop" => a.iter().map(|x| i64::from(mask(*x).count_ones())).collect(),
        "math.ctlz" => a
            .iter()
            .map(|x| i64::from(mask(*x).leading_zeros()) - (64 - i64::from(w)))
            .collect(),
        "math.cttz" => a
            .iter()
            .map(|x| i64::from(mask(*x).trailing_zeros().min(w)))
            .collect(),
        "math.ipowi" => {
            let b = args[1].ints();
            let mut v = Vec::with_capacity(a.len());
            for (x, p) in a.iter().zip(b) {
                if *p < 0 {
                    return Err(InterpError::at(op, "'math.ipowi' with a negative exponent"));
                }
                let mut r: i128 = 1;
                for _ in 0..*p {
                    r = i128::from(e.wrap(r.wrapping_mul(*x as i128)));
                }
                v.push(e.wrap(r));
            }
            v
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
    let out = args[0].floats().iter().map(|x| -i64::from(f(*x))).collect();
    let ty = ctx.value_type(ctx.result(op, 0));
    Ok(vec![Tensor::new(ctx, ty, Data::Int(out))])
}

/// `math.sincos`.
pub fn sincos(it: &mut Interp<'_>, _op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let e = args[0].elem(ctx);
    let a = args[0].floats();
    let s = a.iter().map(|x| e.round(libm::sin(*x))).collect();
    let c = a.iter().map(|x| e.round(libm::cos(*x))).collect();
    Ok(vec![
        Tensor::new(ctx, args[0].ty, Data::Float(s)),
        Tensor::new(ctx, args[0].ty, Data::Float(c)),
    ])
}
