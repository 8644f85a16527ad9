//! The `math` dialect with exactly MLIR 22's syntax: elementwise mathematical
//! functions on floats (`sin`, `exp`, `powf`, `fma`, ...) and integers (`absi`,
//! `ctlz`, `ipowi`, ...), and the float classifications (`isnan`, ...). The float
//! ops carry `#arith.fastmath<...>` flags, the `arith` dialect's attribute.
//!
//! Folding follows MLIR's `MathOps.cpp` (see [`fold`]): the transcendental
//! functions fold only `f32` and `f64`, through the C library as MLIR does; the
//! rounding, sign and bit-counting ops fold every width; `cbrt`, `rsqrt`, `fma`,
//! `clampf`, `fpowi` and `sincos` do not fold.

pub(crate) mod fold;
mod interp;

use crate::arith::types::{
    BOOL_LIKE, FLOAT_LIKE, SIGNLESS_INT_OR_INDEX_LIKE, element_or_self, i1_same_shape,
};
use crate::arith::{FASTMATH_ATTR, fastmath_none};
use aic::Diagnostic;
use aic::dialect::{Dialect, OpSpec, Traits};
use aic::ir::{Context, Op, Value};
use aic::rewrite::FoldFn;
use aic::types::Type;
use aic::verifier::op_error;

type R<T> = Result<T, Diagnostic>;

// ---------------------------------------------------------------- shared pieces

/// Traits of every math op (`Math_Op`): pure and elementwise-mappable.
const MATH: Traits = Traits::PURE.with(Traits::ELEMENTWISE);
/// Ops whose operands and result share one type.
const MATH_SAME: Traits = MATH.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE);

const UNARY_FORMAT: &str = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
const BINARY_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";

/// The spec of a float op of `traits` with `format`, besides its groups.
const fn float_op(
    name: &'static str,
    summary: &'static str,
    traits: Traits,
    format: &'static str,
    fold: Option<FoldFn>,
) -> OpSpec {
    OpSpec {
        summary,
        traits,
        format: Some(format),
        fold,
        ..OpSpec::new(name)
    }
}

/// A unary float op (`Math_FloatUnaryOp`).
macro_rules! float_unary_op {
    (
        $(#[$m:meta])*
        $H:ident = $S:ident($name:literal, $summary:literal, $fold:expr, $f:expr $(,)?) $(;)?
    ) => {
        aic::op! {
            $(#[$m])*
            pub $H = $S {
                operands: [operand: one(FLOAT_LIKE)],
                results: [result: one(FLOAT_LIKE)],
                attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
                spec: OpSpec {
                    interpret: Some(|it, op, args| interp::float_unary(it, op, args, $f)),
                    ..float_op($name, $summary, MATH_SAME, UNARY_FORMAT, $fold)
                },
            }
        }
    };
}

/// A binary float op (`Math_FloatBinaryOp`).
macro_rules! float_binary_op {
    (
        $(#[$m:meta])*
        $H:ident = $S:ident($name:literal, $summary:literal, $fold:expr, $f:expr $(,)?) $(;)?
    ) => {
        aic::op! {
            $(#[$m])*
            pub $H = $S {
                operands: [lhs: one(FLOAT_LIKE), rhs: one(FLOAT_LIKE)],
                results: [result: one(FLOAT_LIKE)],
                attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
                spec: OpSpec {
                    interpret: Some(|it, op, args| interp::float_binary(it, op, args, $f)),
                    ..float_op($name, $summary, MATH_SAME, BINARY_FORMAT, $fold)
                },
            }
        }
    };
}

/// A unary integer op (`Math_IntegerUnaryOp`).
macro_rules! int_unary_op {
    (
        $(#[$m:meta])*
        $H:ident = $S:ident($name:literal, $summary:literal, $f:expr $(,)?) $(;)?
    ) => {
        aic::op! {
            $(#[$m])*
            pub $H = $S {
                operands: [operand: one(SIGNLESS_INT_OR_INDEX_LIKE)],
                results: [result: one(SIGNLESS_INT_OR_INDEX_LIKE)],
                spec: OpSpec {
                    summary: $summary,
                    traits: MATH_SAME,
                    format: Some("$operand attr-dict `:` type($result)"),
                    // One scalar definition serves the folder and the interpreter.
                    fold: Some(|c, o, k| fold::unary_int(c, o, k, $f)),
                    interpret: Some(|it, op, args| interp::int_unary(it, op, args, $f)),
                    ..OpSpec::new($name)
                },
            }
        }
    };
}

/// A float classification (`Math_FloatClassificationOp`): an `i1` of the
/// operand's shape.
macro_rules! classification_op {
    (
        $(#[$m:meta])*
        $H:ident = $S:ident($name:literal, $summary:literal, $fold:expr, $f:expr $(,)?) $(;)?
    ) => {
        aic::op! {
            $(#[$m])*
            pub $H = $S {
                operands: [operand: one(FLOAT_LIKE)],
                results: [result: one(BOOL_LIKE)],
                attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
                spec: OpSpec {
                    summary: $summary,
                    traits: MATH,
                    format: Some("$operand attr-dict `:` type($operand)"),
                    verify: Some(|ctx, op| {
                        let c = $H(op);
                        verify_classification(ctx, op, c.operand(ctx), c.result(ctx))
                    }),
                    infer_results: Some(|u, ops, _| Some(vec![i1_same_shape(u, *ops.first()?)])),
                    fold: Some($fold),
                    interpret: Some(|it, op, args| interp::classify(it, op, args, $f)),
                    ..OpSpec::new($name)
                },
            }
        }
    };
}

/// A unary float fold through the C library, for `f32` and `f64` only.
macro_rules! libm {
    ($d:ident, $s:ident) => {
        Some(|c, o, k| {
            fold::unary_float(c, o, k, |t, b| {
                fold::libm(t, b, fold::libm::$d, fold::libm::$s)
            })
        })
    };
}

/// Like [`libm!`], but negative operands (`-0.0` and negative NaNs too) do not fold.
macro_rules! libm_nonneg {
    ($d:ident, $s:ident) => {
        Some(|c, o, k| {
            fold::unary_float(c, o, k, |t, b| {
                if fold::is_negative(t, b) {
                    return None;
                }
                fold::libm(t, b, fold::libm::$d, fold::libm::$s)
            })
        })
    };
}

/// A unary float fold computed exactly for every width.
macro_rules! exact {
    ($f:expr) => {
        Some(|c, o, k| fold::unary_float(c, o, k, $f))
    };
}

// ---------------------------------------------------------------- float unary ops

float_unary_op! {
    /// `math.absf`
    Absf = ABSF(
        "math.absf",
        "floating point absolute-value operation",
        exact!(|t, b| Some(fold::abs(t, b))),
        f64::abs,
    );
}

float_unary_op! {
    /// `math.acos`
    Acos = ACOS("math.acos", "arcus cosine of the specified value", libm!(acos, acosf), |x| fold::libm::acos(x));
}

float_unary_op! {
    /// `math.acosh`
    Acosh = ACOSH(
        "math.acosh",
        "Hyperbolic arcus cosine of the given value",
        libm!(acosh, acoshf),
        |x| fold::libm::acosh(x),
    );
}

float_unary_op! {
    /// `math.asin`
    Asin = ASIN("math.asin", "arcus sine of the given value", libm!(asin, asinf), |x| fold::libm::asin(x));
}

float_unary_op! {
    /// `math.asinh`
    Asinh = ASINH(
        "math.asinh",
        "hyperbolic arcus sine of the given value",
        libm!(asinh, asinhf),
        |x| fold::libm::asinh(x),
    );
}

float_unary_op! {
    /// `math.atan`
    Atan = ATAN("math.atan", "arcus tangent of the given value", libm!(atan, atanf), |x| fold::libm::atan(x));
}

float_unary_op! {
    /// `math.atanh`
    Atanh = ATANH(
        "math.atanh",
        "hyperbolic arcus tangent of the given value",
        libm!(atanh, atanhf),
        |x| fold::libm::atanh(x),
    );
}

float_unary_op! {
    /// `math.cbrt` (MLIR 22 has no folder for it).
    Cbrt = CBRT("math.cbrt", "cube root of the specified value", None, f64::cbrt);
}

float_unary_op! {
    /// `math.ceil`
    Ceil = CEIL(
        "math.ceil",
        "ceiling of the specified value",
        exact!(|t, b| fold::round_to_integral(t, b, fold::Rounding::Up)),
        f64::ceil,
    );
}

float_unary_op! {
    /// `math.cos`
    Cos = COS("math.cos", "cosine of the specified value", libm!(cos, cosf), |x| fold::libm::cos(x));
}

float_unary_op! {
    /// `math.cosh`
    Cosh = COSH(
        "math.cosh",
        "hyperbolic cosine of the specified value",
        libm!(cosh, coshf),
        |x| fold::libm::cosh(x),
    );
}

float_unary_op! {
    /// `math.erf`
    Erf = ERF("math.erf", "error function of the specified value", libm!(erf, erff), |x| fold::libm::erf(x));
}

float_unary_op! {
    /// `math.erfc`
    Erfc = ERFC(
        "math.erfc",
        "complementary error function of the specified value",
        libm!(erfc, erfcf),
        |x| fold::libm::erfc(x),
    );
}

float_unary_op! {
    /// `math.exp`
    Exp = EXP("math.exp", "base-e exponential of the specified value", libm!(exp, expf), |x| fold::libm::exp(x));
}

float_unary_op! {
    /// `math.exp2`
    Exp2 = EXP2(
        "math.exp2",
        "base-2 exponential of the specified value",
        libm!(exp2, exp2f),
        |x| fold::libm::exp2(x),
    );
}

float_unary_op! {
    /// `math.expm1`
    Expm1 = EXPM1(
        "math.expm1",
        "base-e exponential of the specified value minus 1",
        libm!(expm1, expm1f),
        |x| fold::libm::expm1(x),
    );
}

float_unary_op! {
    /// `math.floor`
    Floor = FLOOR(
        "math.floor",
        "floor of the specified value",
        exact!(|t, b| fold::round_to_integral(t, b, fold::Rounding::Down)),
        f64::floor,
    );
}

float_unary_op! {
    /// `math.log`
    Log = LOG(
        "math.log",
        "base-e logarithm of the specified value",
        libm_nonneg!(log, logf),
        |x| fold::libm::log(x),
    );
}

float_unary_op! {
    /// `math.log10`
    Log10 = LOG10(
        "math.log10",
        "base-10 logarithm of the specified value",
        libm_nonneg!(log10, log10f),
        |x| fold::libm::log10(x),
    );
}

float_unary_op! {
    /// `math.log1p`: folds unless `operand + 1` is negative.
    Log1p = LOG1P(
        "math.log1p",
        "Computes the natural logarithm of one plus the given value",
        exact!(fold::log1p),
        |x| fold::libm::log1p(x),
    );
}

float_unary_op! {
    /// `math.log2`
    Log2 = LOG2(
        "math.log2",
        "base-2 logarithm of the specified value",
        libm_nonneg!(log2, log2f),
        |x| fold::libm::log2(x),
    );
}

float_unary_op! {
    /// `math.round`: halfway cases away from zero; folds `f32` and `f64` only.
    Round = ROUND("math.round", "round of the specified value", libm!(round, roundf), |x| fold::libm::round(x));
}

float_unary_op! {
    /// `math.roundeven`: halfway cases to even.
    Roundeven = ROUNDEVEN(
        "math.roundeven",
        "round of the specified value with halfway cases to even",
        exact!(|t, b| fold::round_to_integral(t, b, fold::Rounding::NearestEven)),
        f64::round_ties_even,
    );
}

float_unary_op! {
    /// `math.rsqrt` (MLIR 22 has no folder for it).
    Rsqrt = RSQRT(
        "math.rsqrt",
        "reciprocal of sqrt (1 / sqrt of the specified value)",
        None,
        |x| 1.0 / x.sqrt(),
    );
}

float_unary_op! {
    /// `math.sin`
    Sin = SIN("math.sin", "sine of the specified value", libm!(sin, sinf), |x| fold::libm::sin(x));
}

float_unary_op! {
    /// `math.sinh`
    Sinh = SINH(
        "math.sinh",
        "hyperbolic sine of the specified value",
        libm!(sinh, sinhf),
        |x| fold::libm::sinh(x),
    );
}

float_unary_op! {
    /// `math.sqrt`
    Sqrt = SQRT("math.sqrt", "sqrt of the specified value", libm_nonneg!(sqrt, sqrtf), |x| fold::libm::sqrt(x));
}

float_unary_op! {
    /// `math.tan`
    Tan = TAN("math.tan", "tangent of the specified value", libm!(tan, tanf), |x| fold::libm::tan(x));
}

float_unary_op! {
    /// `math.tanh`
    Tanh = TANH(
        "math.tanh",
        "hyperbolic tangent of the specified value",
        libm!(tanh, tanhf),
        |x| fold::libm::tanh(x),
    );
}

float_unary_op! {
    /// `math.trunc`: folds `f32` and `f64` only.
    Trunc = TRUNC("math.trunc", "trunc of the specified value", libm!(trunc, truncf), |x| fold::libm::trunc(x));
}

// ---------------------------------------------------------------- float binary and ternary ops

float_binary_op! {
    /// `math.atan2`
    Atan2 = ATAN2(
        "math.atan2",
        "2-argument arcus tangent of the given values",
        Some(|c, o, k| fold::binary_float(c, o, k, fold::atan2)),
        |x, y| fold::libm::atan2(x, y),
    );
}

float_binary_op! {
    /// `math.copysign`
    Copysign = COPYSIGN(
        "math.copysign",
        "A copysign operation",
        Some(|c, o, k| fold::binary_float(c, o, k, |t, a, b| Some(fold::copysign(t, a, b)))),
        f64::copysign,
    );
}

float_binary_op! {
    /// `math.powf`
    Powf = POWF(
        "math.powf",
        "floating point raised to the power of operation",
        Some(|c, o, k| fold::binary_float(c, o, k, fold::powf)),
        |x, y| fold::libm::pow(x, y),
    );
}

aic::op! {
    /// `math.fma` (MLIR 22 has no folder for it).
    pub Fma = FMA {
        operands: [a: one(FLOAT_LIKE), b: one(FLOAT_LIKE), c: one(FLOAT_LIKE)],
        results: [result: one(FLOAT_LIKE)],
        attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
        spec: OpSpec {
            interpret: Some(interp::fma),
            ..float_op(
            "math.fma",
            "floating point fused multipy-add operation",
            MATH_SAME,
            "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
            None,
        )
        },
    }
}

aic::op! {
    /// `math.clampf`
    pub Clampf = CLAMPF {
        operands: [value: one(FLOAT_LIKE), min: one(FLOAT_LIKE), max: one(FLOAT_LIKE)],
        results: [result: one(FLOAT_LIKE)],
        attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
        spec: OpSpec {
            interpret: Some(interp::clampf),
            ..float_op(
            "math.clampf",
            "floating point clamping operation",
            MATH_SAME,
            "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
            None,
        )
        },
    }
}

aic::op! {
    /// `math.fpowi`: a float to a signed integer power.
    pub Fpowi = FPOWI {
        operands: [lhs: one(FLOAT_LIKE), rhs: one(SIGNLESS_INT_OR_INDEX_LIKE)],
        results: [result: one(FLOAT_LIKE)],
        attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
        spec: OpSpec {
            verify: Some(verify_fpowi),
            infer_results: Some(|_, ops, _| Some(vec![*ops.first()?])),
            interpret: Some(interp::fpowi),
            ..float_op(
                "math.fpowi",
                "floating point raised to the signed integer power",
                MATH,
                "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)",
                None,
            )
        },
    }
}

aic::op! {
    /// `math.sincos`: sine and cosine in one op.
    pub Sincos = SINCOS {
        operands: [operand: one(FLOAT_LIKE)],
        results: [sin: one(FLOAT_LIKE), cos: one(FLOAT_LIKE)],
        attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
        spec: OpSpec {
            verify: Some(verify_sincos),
            infer_results: Some(|_, ops, _| Some(vec![*ops.first()?; 2])),
            result_names: Some(|_, _| vec![Some("sin".into()), Some("cos".into())]),
            interpret: Some(interp::sincos),
            ..float_op(
                "math.sincos",
                "sine and cosine of the specified value",
                MATH,
                "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)",
                None,
            )
        },
    }
}

// ---------------------------------------------------------------- integer ops

int_unary_op! {
    /// `math.absi`
    Absi = ABSI(
        "math.absi",
        "integer absolute-value operation",
        fold::absi,
    );
}

int_unary_op! {
    /// `math.ctlz`
    Ctlz = CTLZ(
        "math.ctlz",
        "counts the leading zeros an integer value",
        fold::ctlz,
    );
}

int_unary_op! {
    /// `math.cttz`
    Cttz = CTTZ(
        "math.cttz",
        "counts the trailing zeros an integer value",
        fold::cttz,
    );
}

int_unary_op! {
    /// `math.ctpop`
    Ctpop = CTPOP(
        "math.ctpop",
        "counts the number of set bits of an integer value",
        fold::ctpop,
    );
}

aic::op! {
    /// `math.ipowi`
    pub Ipowi = IPOWI {
        operands: [lhs: one(SIGNLESS_INT_OR_INDEX_LIKE), rhs: one(SIGNLESS_INT_OR_INDEX_LIKE)],
        results: [result: one(SIGNLESS_INT_OR_INDEX_LIKE)],
        spec: OpSpec {
            summary: "signed integer raised to the power of operation",
            traits: MATH_SAME,
            format: Some("$lhs `,` $rhs attr-dict `:` type($result)"),
            fold: Some(fold::ipowi),
            interpret: Some(interp::ipowi),
            ..OpSpec::new("math.ipowi")
        },
    }
}

// ---------------------------------------------------------------- classifications

classification_op! {
    /// `math.isfinite`
    Isfinite = ISFINITE(
        "math.isfinite",
        "returns true if the operand classifies as finite",
        |c,
        o,
        k| fold::classify(c, o, k, |t, b| !t.is_nan(b) && !t.is_inf(b)),
        f64::is_finite,
    );
}

classification_op! {
    /// `math.isinf`
    Isinf = ISINF(
        "math.isinf",
        "returns true if the operand classifies as infinite",
        |c,
        o,
        k| fold::classify(c, o, k, |t, b| t.is_inf(b)),
        f64::is_infinite,
    );
}

classification_op! {
    /// `math.isnan`
    Isnan = ISNAN(
        "math.isnan",
        "returns true if the operand classifies as NaN",
        |c,
        o,
        k| fold::classify(c, o, k, |t, b| t.is_nan(b)),
        f64::is_nan,
    );
}

classification_op! {
    /// `math.isnormal`
    Isnormal = ISNORMAL(
        "math.isnormal",
        "returns true if the operand classifies as normal",
        |c,
        o,
        k| fold::classify(c, o, k, fold::is_normal),
        f64::is_normal,
    );
}

/// The `math` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "math",
    description: "mathematical functions on integers and floats",
    ops: &[
        ABSF, ABSI, ACOS, ACOSH, ASIN, ASINH, ATAN, ATAN2, ATANH, CBRT, CEIL, CLAMPF, COPYSIGN,
        COS, COSH, CTLZ, CTPOP, CTTZ, ERF, ERFC, EXP, EXP2, EXPM1, FLOOR, FMA, FPOWI, IPOWI,
        ISFINITE, ISINF, ISNAN, ISNORMAL, LOG, LOG10, LOG1P, LOG2, POWF, ROUND, ROUNDEVEN, RSQRT,
        SIN, SINCOS, SINH, SQRT, TAN, TANH, TRUNC,
    ],
    // MLIR's `MathDialect::materializeConstant` defers to `arith.constant`.
    materialize_constant: Some(crate::arith::materialize_constant),
};

// ---------------------------------------------------------------- verification

/// `TypesMatchWith<"result type has i1 element type and same shape as operands">`.
fn verify_classification(ctx: &Context, op: Op, operand: Value, result: Value) -> R<()> {
    let operand = ctx.value_type(operand);
    if ctx.value_type(result) != i1_same_shape(ctx.uniquer(), operand) {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that result type has i1 element type and same shape as operands",
        ));
    }
    Ok(())
}

/// `AllTypesMatch<["lhs", "result"]>`, then `SameOperandsAndResultShape`.
fn verify_fpowi(ctx: &Context, op: Op) -> R<()> {
    let fpowi = Fpowi(op);
    let lhs = ctx.value_type(fpowi.lhs(ctx));
    if ctx.value_type(fpowi.result(ctx)) != lhs {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that all of {lhs, result} have same type",
        ));
    }
    verify_same_shape(ctx, op)
}

/// `AllTypesMatch<["operand", "sin", "cos"]>`, then `SameOperandsAndResultShape`.
fn verify_sincos(ctx: &Context, op: Op) -> R<()> {
    let sincos = Sincos(op);
    let operand = ctx.value_type(sincos.operand(ctx));
    if [sincos.sin(ctx), sincos.cos(ctx)]
        .iter()
        .any(|r| ctx.value_type(*r) != operand)
    {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that all of {operand, sin, cos} have same type",
        ));
    }
    verify_same_shape(ctx, op)
}

/// MLIR's `SameOperandsAndResultShape`: all scalars, or all shaped with
/// compatible shapes (equal ranks, dimensions equal or dynamic).
fn verify_same_shape(ctx: &Context, op: Op) -> R<()> {
    let u = ctx.uniquer();
    let types: Vec<Type> = ctx
        .operands(op)
        .iter()
        .map(|v| ctx.value_type(*v))
        .chain(ctx.results(op).map(|v| ctx.value_type(v)))
        .collect();
    let shaped = |t: Type| element_or_self(u, t) != t;
    let ranked: Vec<&[i64]> = types
        .iter()
        .filter_map(|t| u.type_kind(*t).shape())
        .collect();
    let scalars = types.iter().filter(|t| !shaped(**t)).count();
    let dims_ok = ranked.iter().all(|s| {
        s.len() == ranked[0].len()
            && s.iter()
                .zip(ranked[0])
                .all(|(a, b)| a == b || *a == aic::types::DYNAMIC || *b == aic::types::DYNAMIC)
    });
    if (scalars != 0 && scalars != types.len()) || !dims_ok {
        return Err(op_error(
            ctx,
            op,
            "requires the same shape for all operands and results",
        ));
    }
    Ok(())
}
