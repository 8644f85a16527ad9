//! The elementwise ops' meaning: one hook per op family, given each op's
//! scalar functions ([`Unary`] rows here, [`kernels::Binary`] rows for the
//! binary ops), and `compare`, `select` and `clamp`.

use super::Res;
use crate::kernels::{
    self, Binary, C, at, bits, c_div, c_exp, c_log, c_sqrt, concat_data, convert as convert_data,
    is_bool, is_unsigned, out, result_elem, unsupported, value, width,
};
use crate::math::fold::libm;
use crate::stablehlo::quantize;
use crate::stablehlo::{Compare, ComparisonDirection as Direction, ComparisonType};
use aic::interp::{Complexes, Data, Elem, Floats, Interp, InterpError, Ints, Tensor};
use aic::ir::Op;

/// The scalar meaning of a unary elementwise op on each element kind (`None`
/// where the op does not take that kind).
pub struct Unary {
    /// On floats (computed in `f64`, rounded to the result type).
    pub float: Option<fn(f64) -> f64>,
    /// On complex numbers, to complex numbers.
    pub complex: Option<fn(C) -> C>,
    /// On complex numbers, to their real part's type (`abs`, `real`, `imag`).
    pub complex_real: Option<fn(C) -> f64>,
    /// On integers: the element type and the stored element, to the value the
    /// result wraps.
    pub int: Option<fn(Elem, i64) -> i128>,
}

impl Unary {
    /// A float function only.
    pub const fn float(f: fn(f64) -> f64) -> Unary {
        Unary {
            float: Some(f),
            complex: None,
            complex_real: None,
            int: None,
        }
    }
    /// A float and a complex function.
    pub const fn float_complex(f: fn(f64) -> f64, c: fn(C) -> C) -> Unary {
        Unary {
            complex: Some(c),
            ..Unary::float(f)
        }
    }
    /// An integer function only.
    pub const fn int(f: fn(Elem, i64) -> i128) -> Unary {
        Unary {
            float: None,
            complex: None,
            complex_real: None,
            int: Some(f),
        }
    }
}

fn c_sin(a: C) -> C {
    (a.0.sin() * a.1.cosh(), a.0.cos() * a.1.sinh())
}

fn c_cos(a: C) -> C {
    (a.0.cos() * a.1.cosh(), -a.0.sin() * a.1.sinh())
}

/// `abs`.
pub const ABS: Unary = Unary {
    float: Some(f64::abs),
    complex: None,
    complex_real: Some(|c| c.0.hypot(c.1)),
    int: Some(|e, x| value(e, x).abs()),
};
/// `cbrt`.
pub const CBRT: Unary = Unary::float_complex(f64::cbrt, |a| {
    let (r, t) = (a.0.hypot(a.1).cbrt(), a.1.atan2(a.0) / 3.0);
    (r * t.cos(), r * t.sin())
});
/// `ceil`.
pub const CEIL: Unary = Unary::float(f64::ceil);
/// `floor`.
pub const FLOOR: Unary = Unary::float(f64::floor);
/// `count_leading_zeros`.
pub const COUNT_LEADING_ZEROS: Unary =
    Unary::int(|e, x| i128::from(bits(e, x).leading_zeros() - (64 - width(e))));
/// `popcnt`.
pub const POPCNT: Unary = Unary::int(|e, x| i128::from(bits(e, x).count_ones()));
/// `not`: a predicate's negation, an integer's complement.
pub const NOT: Unary = Unary::int(|e, x| {
    if is_bool(e) {
        i128::from(x == 0)
    } else {
        i128::from(!x)
    }
});
/// `cosine`.
pub const COSINE: Unary = Unary::float_complex(|x| libm::cos(x), c_cos);
/// `sine`.
pub const SINE: Unary = Unary::float_complex(|x| libm::sin(x), c_sin);
/// `tan` (StableHLO's and chlo's).
pub const TAN: Unary = Unary::float_complex(|x| libm::tan(x), |a| c_div(c_sin(a), c_cos(a)));
/// `tanh`.
pub const TANH: Unary = Unary::float_complex(
    |x| libm::tanh(x),
    |a| {
        let e = c_exp((2.0 * a.0, 2.0 * a.1));
        c_div((e.0 - 1.0, e.1), (e.0 + 1.0, e.1))
    },
);
/// `exponential`.
pub const EXPONENTIAL: Unary = Unary::float_complex(|x| libm::exp(x), c_exp);
/// `exponential_minus_one`.
pub const EXPONENTIAL_MINUS_ONE: Unary = Unary::float_complex(
    |x| libm::expm1(x),
    |a| {
        let e = c_exp(a);
        (e.0 - 1.0, e.1)
    },
);
/// `log`.
pub const LOG: Unary = Unary::float_complex(|x| libm::log(x), c_log);
/// `log_plus_one`.
pub const LOG_PLUS_ONE: Unary =
    Unary::float_complex(|x| libm::log1p(x), |a| c_log((a.0 + 1.0, a.1)));
/// `logistic`.
pub const LOGISTIC: Unary = Unary::float_complex(
    |x| 1.0 / (1.0 + libm::exp(-x)),
    |a| {
        c_div((1.0, 0.0), {
            let e = c_exp((-a.0, -a.1));
            (1.0 + e.0, e.1)
        })
    },
);
/// `negate`.
pub const NEGATE: Unary = Unary {
    int: Some(|e, x| -value(e, x)),
    ..Unary::float_complex(|x| -x, |a| (-a.0, -a.1))
};
/// `real`.
pub const REAL: Unary = Unary {
    complex_real: Some(|c| c.0),
    ..Unary::float(|x| x)
};
/// `imag`.
pub const IMAG: Unary = Unary {
    complex_real: Some(|c| c.1),
    ..Unary::float(|_| 0.0)
};
/// `round_nearest_afz`.
pub const ROUND_NEAREST_AFZ: Unary = Unary::float(f64::round);
/// `round_nearest_even`.
pub const ROUND_NEAREST_EVEN: Unary = Unary::float(f64::round_ties_even);
/// `rsqrt`.
pub const RSQRT: Unary = Unary::float_complex(|x| 1.0 / x.sqrt(), |a| c_div((1.0, 0.0), c_sqrt(a)));
/// `sqrt`.
pub const SQRT: Unary = Unary::float_complex(f64::sqrt, c_sqrt);
/// `sign`.
pub const SIGN: Unary = Unary {
    int: Some(|e, x| value(e, x).signum()),
    ..Unary::float_complex(
        |x| {
            if x.is_nan() || x == 0.0 {
                x
            } else {
                x.signum()
            }
        },
        |a| {
            let m = a.0.hypot(a.1);
            if m == 0.0 {
                (0.0, 0.0)
            } else {
                (a.0 / m, a.1 / m)
            }
        },
    )
};

/// `chlo.mulhi`: the high half of each integer product.
pub fn mulhi(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    binary(it, op, args, &kernels::MULHI)
}

/// A unary elementwise op with scalar functions `f`.
pub fn unary(it: &mut Interp<'_>, op: Op, args: &[Tensor], f: &Unary) -> Res {
    let ctx = it.ctx;
    if quantize::is_quantized(ctx, op) {
        let g = f
            .float
            .ok_or_else(|| unsupported(op, ctx, "quantized values"))?;
        return quantize::dequantize_op_quantize(ctx, op, args, |x| g(x[0]));
    }
    let a = &args[0];
    let ea = a.elem(ctx);
    let er = result_elem(ctx, op, 0)?;
    let data = match &a.data {
        Data::Float(v) => {
            let g = f.float.ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::from_f64s(er.float_kind(), v.iter().map(g))
        }
        Data::Complex(v) => match (f.complex_real, f.complex) {
            (Some(g), _) => Data::from_f64s(er.float_kind(), v.iter().map(g)),
            (None, Some(g)) => Data::from_complex(er.float_kind(), v.iter().map(g)),
            (None, None) => return Err(unsupported(op, ctx, "complex numbers")),
        },
        Data::Int(v) => {
            let g = f.int.ok_or_else(|| unsupported(op, ctx, "integers"))?;
            Data::from_i64s(er, v.iter().map(|x| er.wrap(g(ea, x))))
        }
        Data::Tuple(_) => return Err(unsupported(op, ctx, "tuples")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// A float predicate (`is_finite`, chlo's `is_inf`, ...).
pub fn predicate(it: &mut Interp<'_>, op: Op, args: &[Tensor], p: fn(f64) -> bool) -> Res {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let data = match &args[0].data {
        Data::Float(v) => Data::from_i64s(er, v.iter().map(|x| er.wrap(i128::from(p(x))))),
        Data::Complex(_) => return Err(unsupported(op, ctx, "complex numbers")),
        Data::Int(_) => return Err(unsupported(op, ctx, "integers")),
        Data::Tuple(_) => return Err(unsupported(op, ctx, "tuples")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// `convert`.
pub fn convert(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    if quantize::is_quantized(ctx, op) {
        return Err(unsupported(
            op,
            ctx,
            "quantized values (use uniform_dequantize)",
        ));
    }
    let a = &args[0];
    let er = result_elem(ctx, op, 0)?;
    Ok(vec![out(
        ctx,
        op,
        0,
        convert_data(&a.data, a.elem(ctx), er),
    )])
}

/// A binary elementwise op with scalar functions `f` (rank-0 operands broadcast).
pub(crate) fn binary(it: &mut Interp<'_>, op: Op, args: &[Tensor], f: &Binary) -> Res {
    let ctx = it.ctx;
    if quantize::is_quantized(ctx, op) {
        let g = f
            .float()
            .ok_or_else(|| unsupported(op, ctx, "quantized values"))?;
        return quantize::dequantize_op_quantize(ctx, op, args, |x| g(x[0], x[1]));
    }
    let (a, b) = (&args[0], &args[1]);
    let e = a.elem(ctx);
    let er = result_elem(ctx, op, 0)?;
    let n = a.len().max(b.len());
    let data = match (&a.data, &b.data) {
        (Data::Int(x), Data::Int(y)) => {
            let g = f.int().ok_or_else(|| unsupported(op, ctx, "integers"))?;
            Data::Int(Ints::from_fn(er, n, |i| er.wrap(g(e, at(x, i), at(y, i)))))
        }
        (Data::Float(x), Data::Float(y)) => {
            let g = f.float().ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::Float(Floats::from_fn(er.float_kind(), n, |i| {
                g(at(x, i), at(y, i))
            }))
        }
        (Data::Complex(x), Data::Complex(y)) => {
            let g = f
                .complex
                .ok_or_else(|| unsupported(op, ctx, "complex numbers"))?;
            Data::Complex(Complexes::from_fn(er.float_kind(), n, |i| {
                g(at(x, i), at(y, i))
            }))
        }
        _ => return Err(InterpError::at(op, "operands of different element kinds")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// No scalar meaning on any element kind.
const NO_BINARY: Binary = Binary {
    int: None,
    float: None,
    complex: None,
};

/// `complex`: a complex number from real and imaginary parts.
pub fn complex(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (a, b) = (&args[0], &args[1]);
    let (Data::Float(x), Data::Float(y)) = (&a.data, &b.data) else {
        return binary(it, op, args, &NO_BINARY);
    };
    let er = result_elem(ctx, op, 0)?;
    let n = a.len().max(b.len());
    let data = Data::Complex(Complexes::from_fn(er.float_kind(), n, |i| {
        (at(x, i), at(y, i))
    }));
    Ok(vec![out(ctx, op, 0, data)])
}

/// The spec's total order on floats: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
pub(crate) fn total_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 { b ^ i64::MAX } else { b }
}

/// `compare`.
pub fn compare(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let cmp = Compare(op);
    let dir = cmp
        .comparison_direction(ctx)
        .ok_or_else(|| InterpError::at(op, "missing comparison_direction"))?;
    let ty = cmp.compare_type(ctx).unwrap_or(ComparisonType::NoType);
    compare_by(it, op, args, dir, ty)
}

/// `compare` in direction `dir` under comparison type `ty` (also
/// `graph.compare`'s meaning, with the default type).
pub fn compare_by(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
    dir: Direction,
    ty: ComparisonType,
) -> Res {
    let ctx = it.ctx;
    let (a, b) = (&args[0], &args[1]);
    let e = a.elem(ctx);
    let er = result_elem(ctx, op, 0)?;
    let n = a.len().max(b.len());
    let test = |o: std::cmp::Ordering| -> bool {
        use std::cmp::Ordering::*;
        match dir {
            Direction::Eq => o == Equal,
            Direction::Ne => o != Equal,
            Direction::Lt => o == Less,
            Direction::Le => o != Greater,
            Direction::Gt => o == Greater,
            Direction::Ge => o != Less,
        }
    };
    let data = match (&a.data, &b.data) {
        (Data::Int(x), Data::Int(y)) => Ints::from_fn(er, n, |i| {
            let (p, q) = (at(x, i), at(y, i));
            let o = if ty == ComparisonType::Unsigned || is_unsigned(e) || is_bool(e) {
                bits(e, p).cmp(&bits(e, q))
            } else {
                p.cmp(&q)
            };
            er.wrap(i128::from(test(o)))
        }),
        (Data::Float(x), Data::Float(y)) => Ints::from_fn(er, n, |i| {
            let (p, q) = (at(x, i), at(y, i));
            let t = if ty == ComparisonType::TotalOrder {
                test(total_key(p).cmp(&total_key(q)))
            } else {
                match p.partial_cmp(&q) {
                    Some(o) => test(o),
                    None => dir == Direction::Ne,
                }
            };
            er.wrap(i128::from(t))
        }),
        (Data::Complex(x), Data::Complex(y)) => Ints::from_fn(er, n, |i| {
            let eq = at(x, i) == at(y, i);
            er.wrap(i128::from(if dir == Direction::Eq { eq } else { !eq }))
        }),
        _ => return Err(InterpError::at(op, "operands of different element kinds")),
    };
    Ok(vec![out(ctx, op, 0, Data::Int(data))])
}

/// `select`.
pub fn select(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let p = args[0]
        .as_ints()
        .ok_or_else(|| InterpError::at(op, "select of a non-integer predicate"))?;
    let n = args[1].len().max(args[2].len());
    // Operand 1 and 2 side by side; element `i` comes from one of them.
    let both = concat_data(&[&args[1].data, &args[2].data]);
    let off = args[1].len();
    let idx = (0..n).map(|i| {
        let from_true = at(p, i) != 0;
        let (t, k) = if from_true {
            (&args[1], 0)
        } else {
            (&args[2], off)
        };
        Some(k + if t.len() == 1 { 0 } else { i })
    });
    Ok(vec![out(ctx, op, 0, both.take(idx, None))])
}

/// `clamp`.
pub fn clamp(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (lo, x, hi) = (&args[0], &args[1], &args[2]);
    let e = x.elem(ctx);
    let n = x.len();
    let data = match (&lo.data, &x.data, &hi.data) {
        (Data::Int(l), Data::Int(v), Data::Int(h)) => Data::Int(Ints::from_fn(e, n, |i| {
            let (a, b, c) = (value(e, at(l, i)), value(e, v.get(i)), value(e, at(h, i)));
            e.wrap(b.max(a).min(c))
        })),
        (Data::Float(l), Data::Float(v), Data::Float(h)) => {
            let (mx, mn) = (
                kernels::MAXIMUM.float().unwrap_or(f64::max),
                kernels::MINIMUM.float().unwrap_or(f64::min),
            );
            Data::Float(Floats::from_fn(e.float_kind(), n, |i| {
                mn(mx(v.get(i), at(l, i)), at(h, i))
            }))
        }
        _ => return Err(unsupported(op, ctx, "these operands")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_order_puts_nans_at_the_ends() {
        let v = [f64::NAN, -f64::NAN, -0.0, 0.0, f64::INFINITY, -1.0];
        let mut s = v.to_vec();
        s.sort_by_key(|x| total_key(*x));
        assert!(s[0].is_nan() && s[0].is_sign_negative());
        assert_eq!(s[1], -1.0);
        assert!(s[2] == 0.0 && s[2].is_sign_negative());
        assert!(s[5].is_nan() && s[5].is_sign_positive());
    }
}
