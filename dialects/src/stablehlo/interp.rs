//! StableHLO's (and chlo's) meaning for the reference interpreter, following
//! the StableHLO specification: integers wrap to their width (XLA's rules for
//! division and remainder by zero and for out-of-range shifts), floats are
//! computed in `f64` and rounded to the element type, NaNs propagate through
//! `maximum`/`minimum`, and `compare` has the spec's total order.
//!
//! The ops that move data (broadcast, transpose, slice, pad, gather, ...) map
//! output indices to input indices and copy; `dot_general`, `convolution` and
//! the reductions with a known combiner run typed loops over `f64`/`i64`
//! buffers, so their inner loops do no dynamic dispatch. Reductions whose body
//! is not a single known op, `sort`'s comparator, `scatter`'s update, `map`
//! and the window ops run their regions per element.

use super::attrs::{ConvDims, DotDims, GatherDims, ScatterDims};
use super::{ComparisonDirection as Direction, ComparisonType};
use crate::kernels::{
    C, ConvWindow, Groups, at, bits, broadcast_to, c_mul, concat_along, concat_data, conv, convert,
    count, dot, float_binary, fold_floats, fold_ints, for_each_index, int_binary, is_bool,
    is_unsigned, linear, offsets, out, permute, remap, result_elem, result_shape, result_type,
    strided_slice, strides, take, to_f64, unsupported, value, width,
};
use crate::math::fold::libm;
use aic::constraints::{i64_array_attr, int_value, op_attr};
use aic::interp::{
    Complexes, Data, Elem, Floats, IResult, Interp, InterpError, InterpretFn, Ints, Tensor,
};
use aic::ir::{Context, Op, Region};
use aic::types::{Type, TypeKind};

type Res = IResult<Vec<Tensor>>;

/// The interpreter semantics of the op named `name`.
pub fn semantics(name: &str) -> Option<InterpretFn> {
    let short = name
        .strip_prefix("stablehlo.")
        .or_else(|| name.strip_prefix("chlo."))?;
    if name.starts_with("chlo.") {
        return match short {
            "top_k" => Some(top_k),
            _ if float_fn(name).is_some()
                || matches!(short, "is_inf" | "is_neg_inf" | "is_pos_inf") =>
            {
                Some(unary)
            }
            _ => None,
        };
    }
    Some(match short {
        "constant" => constant,
        "iota" => iota,
        "abs"
        | "cbrt"
        | "ceil"
        | "convert"
        | "count_leading_zeros"
        | "cosine"
        | "exponential"
        | "exponential_minus_one"
        | "floor"
        | "imag"
        | "is_finite"
        | "log"
        | "log_plus_one"
        | "logistic"
        | "not"
        | "negate"
        | "popcnt"
        | "real"
        | "round_nearest_afz"
        | "round_nearest_even"
        | "rsqrt"
        | "sign"
        | "sine"
        | "sqrt"
        | "tan"
        | "tanh" => unary,
        "add"
        | "subtract"
        | "multiply"
        | "divide"
        | "remainder"
        | "power"
        | "maximum"
        | "minimum"
        | "atan2"
        | "and"
        | "or"
        | "xor"
        | "shift_left"
        | "shift_right_arithmetic"
        | "shift_right_logical"
        | "complex" => binary,
        "compare" => compare,
        "select" => select,
        "clamp" => clamp,
        "broadcast_in_dim" => broadcast_in_dim,
        "broadcast" => broadcast,
        "reshape" | "optimization_barrier" => |it, op, args| {
            Ok(args
                .iter()
                .enumerate()
                .map(|(i, a)| retype(it.ctx, op, i, a))
                .collect())
        },
        "transpose" => transpose,
        "slice" => slice,
        "dynamic_slice" => dynamic_slice,
        "dynamic_update_slice" => dynamic_update_slice,
        "concatenate" => concatenate,
        "pad" => pad,
        "reverse" => reverse,
        "bitcast_convert" => bitcast_convert,
        "reduce_precision" => reduce_precision,
        "get_dimension_size" => get_dimension_size,
        "dot_general" | "dot" => dot_general,
        "convolution" => convolution,
        "reduce" => reduce,
        "reduce_window" => reduce_window,
        "select_and_scatter" => select_and_scatter,
        "gather" => gather,
        "scatter" => scatter,
        "sort" => sort,
        "while" => while_,
        "if" => if_,
        "case" => case,
        "map" => map,
        "custom_call" => |it, op, _| {
            let target = op_attr(it.ctx, op, "call_target_name")
                .and_then(|a| it.ctx.attr_str(a).map(str::to_string))
                .unwrap_or_default();
            Err(InterpError::at(
                op,
                format!("unsupported op 'stablehlo.custom_call' (call target '{target}')"),
            ))
        },
        "composite" => composite,
        "tuple" => |it, op, args| {
            let ty = it.ctx.value_type(it.ctx.result(op, 0));
            Ok(vec![Tensor {
                ty,
                shape: Vec::new(),
                data: Data::Tuple(args.to_vec()),
            }])
        },
        "get_tuple_element" => |it, op, args| {
            let i = op_attr(it.ctx, op, "index")
                .and_then(|a| int_value(it.ctx, a))
                .unwrap_or(0);
            match &args[0].data {
                Data::Tuple(v) if (i as usize) < v.len() => Ok(vec![v[i as usize].clone()]),
                _ => Err(InterpError::at(op, "tuple index out of range")),
            }
        },
        "replica_id" | "partition_id" => |it, op, _| {
            let e = result_elem(it.ctx, op, 0)?;
            Ok(vec![out(it.ctx, op, 0, Data::from_i64s(e, [0]))])
        },
        "create_token" => {
            |it, op, _| Ok(vec![out(it.ctx, op, 0, Data::Int(Ints::I64(Vec::new())))])
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------- helpers

fn need_ints(ctx: &Context, op: Op, name: &str) -> IResult<Vec<i64>> {
    i64_array_attr(ctx, op, name)
        .ok_or_else(|| InterpError::at(op, format!("missing or malformed '{name}'")))
}

fn retype(ctx: &Context, op: Op, i: usize, t: &Tensor) -> Tensor {
    out(ctx, op, i, t.data.clone())
}

// ---------------------------------------------------------------- constant, iota

fn constant(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
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

fn iota(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> Res {
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

// ---------------------------------------------------------------- elementwise

/// The `f64` function of a float unary op.
pub(crate) fn float_fn(name: &str) -> Option<fn(f64) -> f64> {
    let short = name.rsplit('.').next().unwrap_or(name);
    Some(match short {
        "abs" => f64::abs,
        "cbrt" => f64::cbrt,
        "ceil" => f64::ceil,
        "floor" => f64::floor,
        "cosine" => |x| libm::cos(x),
        "sine" => |x| libm::sin(x),
        "tan" => |x| libm::tan(x),
        "tanh" => |x| libm::tanh(x),
        "exponential" => |x| libm::exp(x),
        "exponential_minus_one" => |x| libm::expm1(x),
        "log" => |x| libm::log(x),
        "log_plus_one" => |x| libm::log1p(x),
        "logistic" => |x| 1.0 / (1.0 + libm::exp(-x)),
        "negate" => |x| -x,
        "round_nearest_afz" => f64::round,
        "round_nearest_even" => f64::round_ties_even,
        "rsqrt" => |x| 1.0 / x.sqrt(),
        "sqrt" => f64::sqrt,
        "sign" => |x| {
            if x.is_nan() || x == 0.0 {
                x
            } else {
                x.signum()
            }
        },
        "real" => |x| x,
        "imag" => |_| 0.0,
        "acos" => |x| libm::acos(x),
        "acosh" => |x| libm::acosh(x),
        "asin" => |x| libm::asin(x),
        "asinh" => |x| libm::asinh(x),
        "atan" => |x| libm::atan(x),
        "atanh" => |x| libm::atanh(x),
        "cosh" => |x| libm::cosh(x),
        "sinh" => |x| libm::sinh(x),
        "erf" => |x| libm::erf(x),
        "erfc" => |x| libm::erfc(x),
        "erf_inv" => erf_inv,
        "lgamma" => |x| libm::lgamma(x),
        "digamma" => digamma,
        "square" => |x| x * x,
        "bessel_i1e" => bessel_i1e,
        "conj" => |x| x,
        _ => return None,
    })
}

/// The inverse error function: Giles' approximation refined by two Newton steps.
fn erf_inv(y: f64) -> f64 {
    if y.is_nan() || !(-1.0..=1.0).contains(&y) {
        return f64::NAN;
    }
    if y == 1.0 {
        return f64::INFINITY;
    }
    if y == -1.0 {
        return f64::NEG_INFINITY;
    }
    let w = -((1.0 - y) * (1.0 + y)).ln();
    let mut x = if w < 5.0 {
        let w = w - 2.5;
        let mut p = 2.810_226_36e-08;
        for c in [
            3.432_739_39e-07,
            -3.523_387_7e-06,
            -4.391_506_54e-06,
            0.000_218_580_87,
            -0.001_253_725_03,
            -0.004_177_681_64,
            0.246_640_727,
            1.501_409_41,
        ] {
            p = c + p * w;
        }
        p * y
    } else {
        let w = w.sqrt() - 3.0;
        let mut p = -0.000_200_214_257;
        for c in [
            0.000_100_950_558,
            0.001_349_343_22,
            -0.003_673_428_44,
            0.005_739_507_73,
            -0.007_622_461_3,
            0.009_438_870_47,
            1.001_674_06,
            2.832_976_82,
        ] {
            p = c + p * w;
        }
        p * y
    };
    for _ in 0..2 {
        let err = libm::erf(x) - y;
        x -= err / (2.0 / std::f64::consts::PI.sqrt() * (-x * x).exp());
    }
    x
}

/// The digamma function (asymptotic series after shifting the argument up).
fn digamma(mut x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x <= 0.0 && x == x.floor() {
        return f64::NAN;
    }
    let mut r = 0.0;
    if x < 0.0 {
        // Reflection: psi(1-x) - psi(x) = pi cot(pi x).
        return digamma(1.0 - x) - std::f64::consts::PI / (std::f64::consts::PI * x).tan();
    }
    while x < 12.0 {
        r -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    r + x.ln()
        - 0.5 / x
        - f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f * (1.0 / 240.0 - f / 132.0))))
}

/// `exp(-|x|) * I1(x)` by its power series (small and moderate `x`) or the
/// asymptotic expansion.
fn bessel_i1e(x: f64) -> f64 {
    let ax = x.abs();
    if ax < 15.0 {
        let (mut term, mut sum) = (x / 2.0, x / 2.0);
        for k in 1..60 {
            term *= (x / 2.0) * (x / 2.0) / (k as f64 * (k as f64 + 1.0));
            sum += term;
        }
        sum * (-ax).exp()
    } else {
        let mut s = 1.0;
        let mut t = 1.0;
        for k in 1..8 {
            let k = k as f64;
            t *= -(4.0 - (2.0 * k - 1.0).powi(2)) / (k * 8.0 * ax);
            s += t;
        }
        x.signum() * s / (2.0 * std::f64::consts::PI * ax).sqrt()
    }
}

fn c_div(a: C, b: C) -> C {
    let d = b.0 * b.0 + b.1 * b.1;
    ((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
}

fn c_exp(a: C) -> C {
    let m = a.0.exp();
    (m * a.1.cos(), m * a.1.sin())
}

fn c_log(a: C) -> C {
    (a.0.hypot(a.1).ln(), a.1.atan2(a.0))
}

fn c_sqrt(a: C) -> C {
    let r = a.0.hypot(a.1);
    let re = ((r + a.0) / 2.0).sqrt();
    let im = ((r - a.0) / 2.0).sqrt().copysign(a.1);
    (re, im)
}

fn c_sin(a: C) -> C {
    (a.0.sin() * a.1.cosh(), a.0.cos() * a.1.sinh())
}

fn c_cos(a: C) -> C {
    (a.0.cos() * a.1.cosh(), -a.0.sin() * a.1.sinh())
}

/// The complex function of a unary op on complex elements.
fn complex_fn(short: &str) -> Option<fn(C) -> C> {
    Some(match short {
        "negate" => |a| (-a.0, -a.1),
        "exponential" => c_exp,
        "exponential_minus_one" => |a| {
            let e = c_exp(a);
            (e.0 - 1.0, e.1)
        },
        "log" => c_log,
        "log_plus_one" => |a| c_log((a.0 + 1.0, a.1)),
        "sqrt" => c_sqrt,
        "rsqrt" => |a| c_div((1.0, 0.0), c_sqrt(a)),
        "sine" => c_sin,
        "cosine" => c_cos,
        "tan" => |a| c_div(c_sin(a), c_cos(a)),
        "tanh" => |a| {
            let e = c_exp((2.0 * a.0, 2.0 * a.1));
            c_div((e.0 - 1.0, e.1), (e.0 + 1.0, e.1))
        },
        "logistic" => |a| {
            c_div((1.0, 0.0), {
                let e = c_exp((-a.0, -a.1));
                (1.0 + e.0, e.1)
            })
        },
        "sign" => |a| {
            let m = a.0.hypot(a.1);
            if m == 0.0 {
                (0.0, 0.0)
            } else {
                (a.0 / m, a.1 / m)
            }
        },
        "conj" => |a| (a.0, -a.1),
        "cbrt" => |a| {
            let (r, t) = (a.0.hypot(a.1).cbrt(), a.1.atan2(a.0) / 3.0);
            (r * t.cos(), r * t.sin())
        },
        _ => return None,
    })
}

/// Unary elementwise ops (StableHLO and chlo).
fn unary(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let name = ctx.op_name(op);
    let short = name.rsplit('.').next().unwrap_or(name);
    let a = &args[0];
    let ea = a.elem(ctx);
    let er = result_elem(ctx, op, 0)?;
    if short == "convert" {
        return Ok(vec![out(ctx, op, 0, convert(&a.data, ea, er))]);
    }
    let data = match (&a.data, short) {
        (Data::Float(v), "is_finite") => {
            Data::from_i64s(er, v.iter().map(|x| er.wrap(i128::from(x.is_finite()))))
        }
        (Data::Float(v), "is_inf") => {
            Data::from_i64s(er, v.iter().map(|x| er.wrap(i128::from(x.is_infinite()))))
        }
        (Data::Float(v), "is_pos_inf") => Data::from_i64s(
            er,
            v.iter().map(|x| er.wrap(i128::from(x == f64::INFINITY))),
        ),
        (Data::Float(v), "is_neg_inf") => Data::from_i64s(
            er,
            v.iter()
                .map(|x| er.wrap(i128::from(x == f64::NEG_INFINITY))),
        ),
        (Data::Float(v), _) => {
            let f = float_fn(name).ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::from_f64s(er.float_kind(), v.iter().map(f))
        }
        (Data::Complex(v), "abs") => {
            Data::from_f64s(er.float_kind(), v.iter().map(|c| c.0.hypot(c.1)))
        }
        (Data::Complex(v), "real") => Data::from_f64s(er.float_kind(), v.iter().map(|c| c.0)),
        (Data::Complex(v), "imag") => Data::from_f64s(er.float_kind(), v.iter().map(|c| c.1)),
        (Data::Complex(v), _) => {
            let f = complex_fn(short).ok_or_else(|| unsupported(op, ctx, "complex numbers"))?;
            Data::from_complex(er.float_kind(), v.iter().map(f))
        }
        (Data::Int(v), _) => {
            let w = width(ea);
            let f: Box<dyn Fn(i64) -> i128> = match short {
                "abs" => Box::new(move |x| value(ea, x).abs()),
                "negate" => Box::new(move |x| -value(ea, x)),
                "not" => Box::new(move |x| {
                    if is_bool(ea) {
                        i128::from(x == 0)
                    } else {
                        i128::from(!x)
                    }
                }),
                "sign" => Box::new(move |x| value(ea, x).signum()),
                "popcnt" => Box::new(move |x| i128::from(bits(ea, x).count_ones())),
                "count_leading_zeros" => {
                    Box::new(move |x| i128::from(bits(ea, x).leading_zeros() - (64 - w)))
                }
                _ => return Err(unsupported(op, ctx, "integers")),
            };
            Data::from_i64s(er, v.iter().map(|x| er.wrap(f(x))))
        }
        (Data::Tuple(_), _) => return Err(unsupported(op, ctx, "tuples")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

fn complex_binary(short: &str) -> Option<fn(C, C) -> C> {
    Some(match short {
        "add" => |a, b| (a.0 + b.0, a.1 + b.1),
        "subtract" => |a, b| (a.0 - b.0, a.1 - b.1),
        "multiply" => c_mul,
        "divide" => c_div,
        "power" => |a, b| {
            if a == (0.0, 0.0) {
                return if b == (0.0, 0.0) {
                    (1.0, 0.0)
                } else {
                    (0.0, 0.0)
                };
            }
            c_exp(c_mul(b, c_log(a)))
        },
        _ => return None,
    })
}

/// Binary elementwise ops.
fn binary(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let short = ctx.op_name(op).rsplit('.').next().unwrap_or_default();
    let (a, b) = (&args[0], &args[1]);
    let e = a.elem(ctx);
    let er = result_elem(ctx, op, 0)?;
    let n = a.len().max(b.len());
    let data = match (&a.data, &b.data) {
        (Data::Float(x), Data::Float(y)) if short == "complex" => {
            Data::Complex(Complexes::from_fn(er.float_kind(), n, |i| {
                (at(x, i), at(y, i))
            }))
        }
        (Data::Int(x), Data::Int(y)) => {
            if int_binary(short, e, 0, 0).is_none() {
                return Err(unsupported(op, ctx, "integers"));
            }
            Data::Int(Ints::from_fn(er, n, |i| {
                er.wrap(int_binary(short, e, at(x, i), at(y, i)).unwrap_or(0))
            }))
        }
        (Data::Float(x), Data::Float(y)) => {
            let f = float_binary(short).ok_or_else(|| unsupported(op, ctx, "floats"))?;
            Data::Float(Floats::from_fn(er.float_kind(), n, |i| {
                f(at(x, i), at(y, i))
            }))
        }
        (Data::Complex(x), Data::Complex(y)) => {
            let f = complex_binary(short).ok_or_else(|| unsupported(op, ctx, "complex numbers"))?;
            Data::Complex(Complexes::from_fn(er.float_kind(), n, |i| {
                f(at(x, i), at(y, i))
            }))
        }
        _ => return Err(InterpError::at(op, "operands of different element kinds")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// The spec's total order on floats: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
fn total_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 { b ^ i64::MAX } else { b }
}

fn compare(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let dir = op_attr(ctx, op, "comparison_direction")
        .and_then(|a| Direction::of(ctx, a))
        .ok_or_else(|| InterpError::at(op, "missing comparison_direction"))?;
    let ty = op_attr(ctx, op, "compare_type")
        .and_then(|a| ComparisonType::of(ctx, a))
        .unwrap_or(ComparisonType::NoType);
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

fn select(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn clamp(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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
                float_binary("maximum").unwrap_or(f64::max),
                float_binary("minimum").unwrap_or(f64::min),
            );
            Data::Float(Floats::from_fn(e.float_kind(), n, |i| {
                mn(mx(v.get(i), at(l, i)), at(h, i))
            }))
        }
        _ => return Err(unsupported(op, ctx, "these operands")),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

// ---------------------------------------------------------------- data movement

fn broadcast_in_dim(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let dims = need_ints(it.ctx, op, "broadcast_dimensions")?;
    Ok(vec![broadcast_to(it.ctx, op, &args[0], &dims)?])
}

fn broadcast(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let a = &args[0];
    let st = strides(&a.shape);
    let extra = result_shape(ctx, op, 0)?.len() - a.shape.len();
    Ok(vec![remap(ctx, op, a, None, |i| {
        Some(linear(&i[extra..], &st))
    })?])
}

fn transpose(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let perm = need_ints(it.ctx, op, "permutation")?;
    Ok(vec![permute(it.ctx, op, &args[0], &perm)?])
}

fn slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn dynamic_slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn dynamic_update_slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn concatenate(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let d = op_attr(ctx, op, "dimension")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(0) as usize;
    Ok(vec![concat_along(ctx, op, args, d)?])
}

fn pad(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let lo = need_ints(ctx, op, "edge_padding_low")?;
    let interior = need_ints(ctx, op, "interior_padding")?;
    let a = &args[0];
    let st = strides(&a.shape);
    Ok(vec![remap(ctx, op, a, Some(&args[1]), |i| {
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

fn reverse(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn bitcast_convert(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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
/// even; overflow to infinity, values below the normal range to zero).
pub fn reduce_precision_value(x: f64, e: u32, m: u32) -> f64 {
    if x.is_nan() {
        return x;
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

fn reduce_precision(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn get_dimension_size(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let d = op_attr(ctx, op, "dimension")
        .and_then(|a| int_value(ctx, a))
        .unwrap_or(0) as usize;
    let n = args[0].shape.get(d).copied().unwrap_or(0);
    let e = result_elem(ctx, op, 0)?;
    Ok(vec![out(ctx, op, 0, Data::from_i64s(e, [n]))])
}

// ---------------------------------------------------------------- dot_general, convolution

fn dot_general(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (l, r) = (&args[0], &args[1]);
    let d = if ctx.op_name(op) == "stablehlo.dot" {
        DotDims {
            lhs_contract: if l.shape.is_empty() {
                vec![]
            } else {
                vec![l.shape.len() as i64 - 1]
            },
            rhs_contract: if r.shape.is_empty() { vec![] } else { vec![0] },
            ..Default::default()
        }
    } else {
        op_attr(ctx, op, "dot_dimension_numbers")
            .and_then(|a| DotDims::of(ctx, a))
            .ok_or_else(|| InterpError::at(op, "malformed dot_dimension_numbers"))?
    };
    let er = result_elem(ctx, op, 0)?;
    let data = dot(ctx, l, r, &d, er);
    Ok(vec![out(ctx, op, 0, data)])
}

fn convolution(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
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
    let padding = i64_array_attr(ctx, op, "padding").unwrap_or_else(|| vec![0; 2 * ns]);
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
    Ok(vec![out(ctx, op, 0, conv(ctx, x, k, &d, &w, &oshape, er))])
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

/// The known combiner of a region whose body is one binary op on its two
/// arguments (`stablehlo.add`, ...), for the fast reduction path.
fn simple_combiner(ctx: &Context, r: Region) -> Option<&'static str> {
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
    Some(match ctx.op_name(inner) {
        "stablehlo.add" => "add",
        "stablehlo.multiply" => "multiply",
        "stablehlo.maximum" => "maximum",
        "stablehlo.minimum" => "minimum",
        "stablehlo.and" => "and",
        "stablehlo.or" => "or",
        "stablehlo.xor" => "xor",
        _ => return None,
    })
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
        && let Some(name) = simple_combiner(ctx, body)
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

fn reduce(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn reduce_window(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn select_and_scatter(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn gather(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let (a, ind) = (&args[0], &args[1]);
    let d = op_attr(ctx, op, "dimension_numbers")
        .and_then(|x| GatherDims::of(ctx, x))
        .ok_or_else(|| InterpError::at(op, "malformed dimension_numbers"))?;
    let sizes = need_ints(ctx, op, "slice_sizes")?;
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

fn scatter(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let n = (args.len() - 1) / 2;
    let inputs = &args[..n];
    let ind = &args[n];
    let updates = &args[n + 1..];
    let d = op_attr(ctx, op, "scatter_dimension_numbers")
        .and_then(|x| ScatterDims::of(ctx, x))
        .ok_or_else(|| InterpError::at(op, "malformed scatter_dimension_numbers"))?;
    let ie = ind.elem(ctx);
    let ivd = d.index_vector_dim as usize;
    let a = &inputs[0];
    let st = strides(&a.shape);
    let ushape = updates[0].shape.clone();
    let scatter_dims: Vec<usize> = (0..ushape.len())
        .filter(|k| !d.update_window_dims.contains(&(*k as i64)))
        .collect();
    let window_operand_dims: Vec<usize> = (0..a.shape.len())
        .filter(|k| {
            !d.inserted_window_dims.contains(&(*k as i64))
                && !d.input_batching_dims.contains(&(*k as i64))
        })
        .collect();
    let ind_batch_dims: Vec<usize> = (0..ind.shape.len()).filter(|k| *k != ivd).collect();
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
        let batch: Vec<i64> = scatter_dims.iter().map(|k| ui[*k]).collect();
        let start = index_vector(ind, ie, ivd, &batch);
        let mut full = vec![0i64; a.shape.len()];
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
        let idx = u;
        u += 1;
        // Out-of-bounds updates are skipped, as the spec says.
        if full.iter().zip(&a.shape).any(|(x, s)| *x < 0 || x >= s) {
            return;
        }
        let dst = linear(&full, &st);
        if let (Some(name), 1) = (fast, n) {
            let e = a.elem(ctx);
            let cur = &result[0][dst];
            let upd = scalar_at(ctx, &updates[0], idx, tys[0]);
            let data = match (&cur.data, &upd.data) {
                (Data::Float(x), Data::Float(y)) => Data::from_f64s(
                    e.float_kind(),
                    [float_binary(name).map_or(y.get(0), |f| f(x.get(0), y.get(0)))],
                ),
                (Data::Int(x), Data::Int(y)) => Data::from_i64s(
                    e,
                    [e.wrap(int_binary(name, e, x.get(0), y.get(0)).unwrap_or(0))],
                ),
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

fn sort(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn while_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn if_(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let r = ctx.regions(op)[if truth(&args[0]) { 0 } else { 1 }];
    run(it, op, r, Vec::new(), ctx.num_results(op))
}

fn case(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn map(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

fn composite(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let f = op_attr(ctx, op, "decomposition")
        .and_then(|c| aic::symbol::lookup_nearest_symbol_from(ctx, op, c))
        .ok_or_else(|| InterpError::at(op, "composite with an unknown decomposition"))?;
    it.call(f, args.to_vec())
}

fn top_k(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
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

    #[test]
    fn special_functions_match_known_values() {
        assert!((erf_inv(0.5) - 0.476_936_276_204_47).abs() < 1e-12);
        assert!((digamma(1.0) + 0.577_215_664_901_532_9).abs() < 1e-12);
        assert!((bessel_i1e(1.0) - 0.207_910_415_349_92).abs() < 1e-9);
        assert!(erf_inv(1.5).is_nan());
    }

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
