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
use aic::dialect::{AttrSpec, Dialect, OpSpec, Traits, ValueSpec};
use aic::ir::{Context, Op};
use aic::rewrite::FoldFn;
use aic::types::Type;
use aic::verifier::op_error;

type R<T> = Result<T, Diagnostic>;

// ---------------------------------------------------------------- shared pieces

/// Traits of every math op (`Math_Op`): pure and elementwise-mappable.
const MATH: Traits = Traits::PURE.with(Traits::ELEMENTWISE);
/// Ops whose operands and result share one type.
const MATH_SAME: Traits = MATH.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE);

const FASTMATH_ATTRS: &[AttrSpec] = &[AttrSpec::defaulted(
    "fastmath",
    FASTMATH_ATTR,
    fastmath_none,
)];

const FLOAT_OPERAND: &[ValueSpec] = &[ValueSpec::one("operand", FLOAT_LIKE)];
const INT_OPERAND: &[ValueSpec] = &[ValueSpec::one("operand", SIGNLESS_INT_OR_INDEX_LIKE)];
const FLOAT_OPERANDS: &[ValueSpec] = &[
    ValueSpec::one("lhs", FLOAT_LIKE),
    ValueSpec::one("rhs", FLOAT_LIKE),
];
const FLOAT_RESULT: &[ValueSpec] = &[ValueSpec::one("result", FLOAT_LIKE)];
const BOOL_RESULT: &[ValueSpec] = &[ValueSpec::one("result", BOOL_LIKE)];
const INT_RESULT: &[ValueSpec] = &[ValueSpec::one("result", SIGNLESS_INT_OR_INDEX_LIKE)];

const UNARY_FORMAT: &str = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";
const BINARY_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";

/// A unary float op (`Math_FloatUnaryOp`).
const fn float_unary(name: &'static str, summary: &'static str, fold: Option<FoldFn>) -> OpSpec {
    OpSpec {
        summary,
        operands: FLOAT_OPERAND,
        results: FLOAT_RESULT,
        attributes: FASTMATH_ATTRS,
        traits: MATH_SAME,
        format: Some(UNARY_FORMAT),
        fold,
        interpret: Some(interp::float_op),
        ..OpSpec::new(name)
    }
}

/// A binary float op (`Math_FloatBinaryOp`).
const fn float_binary(name: &'static str, summary: &'static str, fold: Option<FoldFn>) -> OpSpec {
    OpSpec {
        summary,
        operands: FLOAT_OPERANDS,
        results: FLOAT_RESULT,
        attributes: FASTMATH_ATTRS,
        traits: MATH_SAME,
        format: Some(BINARY_FORMAT),
        fold,
        interpret: Some(interp::float_op),
        ..OpSpec::new(name)
    }
}

/// A ternary float op (`Math_FloatTernaryOp`) with its operands and format.
const fn float_ternary(
    name: &'static str,
    summary: &'static str,
    operands: &'static [ValueSpec],
    format: &'static str,
) -> OpSpec {
    OpSpec {
        summary,
        operands,
        results: FLOAT_RESULT,
        attributes: FASTMATH_ATTRS,
        traits: MATH_SAME,
        format: Some(format),
        interpret: Some(interp::float_op),
        ..OpSpec::new(name)
    }
}

/// A unary integer op (`Math_IntegerUnaryOp`).
const fn int_unary(name: &'static str, summary: &'static str, fold: FoldFn) -> OpSpec {
    OpSpec {
        summary,
        operands: INT_OPERAND,
        results: INT_RESULT,
        traits: MATH_SAME,
        format: Some("$operand attr-dict `:` type($result)"),
        fold: Some(fold),
        interpret: Some(interp::int_op),
        ..OpSpec::new(name)
    }
}

/// A float classification (`Math_FloatClassificationOp`): an `i1` of the
/// operand's shape.
const fn classification(name: &'static str, summary: &'static str, fold: FoldFn) -> OpSpec {
    OpSpec {
        summary,
        operands: FLOAT_OPERAND,
        results: BOOL_RESULT,
        attributes: FASTMATH_ATTRS,
        traits: MATH,
        format: Some("$operand attr-dict `:` type($operand)"),
        verify: Some(verify_classification),
        infer_results: Some(|u, ops, _| Some(vec![i1_same_shape(u, *ops.first()?)])),
        fold: Some(fold),
        interpret: Some(interp::classify),
        ..OpSpec::new(name)
    }
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

/// `math.absf`
pub const ABSF: OpSpec = float_unary(
    "math.absf",
    "floating point absolute-value operation",
    exact!(|t, b| Some(fold::abs(t, b))),
);
/// `math.acos`
pub const ACOS: OpSpec = float_unary(
    "math.acos",
    "arcus cosine of the specified value",
    libm!(acos, acosf),
);
/// `math.acosh`
pub const ACOSH: OpSpec = float_unary(
    "math.acosh",
    "Hyperbolic arcus cosine of the given value",
    libm!(acosh, acoshf),
);
/// `math.asin`
pub const ASIN: OpSpec = float_unary(
    "math.asin",
    "arcus sine of the given value",
    libm!(asin, asinf),
);
/// `math.asinh`
pub const ASINH: OpSpec = float_unary(
    "math.asinh",
    "hyperbolic arcus sine of the given value",
    libm!(asinh, asinhf),
);
/// `math.atan`
pub const ATAN: OpSpec = float_unary(
    "math.atan",
    "arcus tangent of the given value",
    libm!(atan, atanf),
);
/// `math.atanh`
pub const ATANH: OpSpec = float_unary(
    "math.atanh",
    "hyperbolic arcus tangent of the given value",
    libm!(atanh, atanhf),
);
/// `math.cbrt` (MLIR 22 has no folder for it).
pub const CBRT: OpSpec = float_unary("math.cbrt", "cube root of the specified value", None);
/// `math.ceil`
pub const CEIL: OpSpec = float_unary(
    "math.ceil",
    "ceiling of the specified value",
    exact!(|t, b| fold::round_to_integral(t, b, fold::Rounding::Up)),
);
/// `math.cos`
pub const COS: OpSpec = float_unary(
    "math.cos",
    "cosine of the specified value",
    libm!(cos, cosf),
);
/// `math.cosh`
pub const COSH: OpSpec = float_unary(
    "math.cosh",
    "hyperbolic cosine of the specified value",
    libm!(cosh, coshf),
);
/// `math.erf`
pub const ERF: OpSpec = float_unary(
    "math.erf",
    "error function of the specified value",
    libm!(erf, erff),
);
/// `math.erfc`
pub const ERFC: OpSpec = float_unary(
    "math.erfc",
    "complementary error function of the specified value",
    libm!(erfc, erfcf),
);
/// `math.exp`
pub const EXP: OpSpec = float_unary(
    "math.exp",
    "base-e exponential of the specified value",
    libm!(exp, expf),
);
/// `math.exp2`
pub const EXP2: OpSpec = float_unary(
    "math.exp2",
    "base-2 exponential of the specified value",
    libm!(exp2, exp2f),
);
/// `math.expm1`
pub const EXPM1: OpSpec = float_unary(
    "math.expm1",
    "base-e exponential of the specified value minus 1",
    libm!(expm1, expm1f),
);
/// `math.floor`
pub const FLOOR: OpSpec = float_unary(
    "math.floor",
    "floor of the specified value",
    exact!(|t, b| fold::round_to_integral(t, b, fold::Rounding::Down)),
);
/// `math.log`
pub const LOG: OpSpec = float_unary(
    "math.log",
    "base-e logarithm of the specified value",
    libm_nonneg!(log, logf),
);
/// `math.log10`
pub const LOG10: OpSpec = float_unary(
    "math.log10",
    "base-10 logarithm of the specified value",
    libm_nonneg!(log10, log10f),
);
/// `math.log1p`: folds unless `operand + 1` is negative.
pub const LOG1P: OpSpec = float_unary(
    "math.log1p",
    "Computes the natural logarithm of one plus the given value",
    exact!(fold::log1p),
);
/// `math.log2`
pub const LOG2: OpSpec = float_unary(
    "math.log2",
    "base-2 logarithm of the specified value",
    libm_nonneg!(log2, log2f),
);
/// `math.round`: halfway cases away from zero; folds `f32` and `f64` only.
pub const ROUND: OpSpec = float_unary(
    "math.round",
    "round of the specified value",
    libm!(round, roundf),
);
/// `math.roundeven`: halfway cases to even.
pub const ROUNDEVEN: OpSpec = float_unary(
    "math.roundeven",
    "round of the specified value with halfway cases to even",
    exact!(|t, b| fold::round_to_integral(t, b, fold::Rounding::NearestEven)),
);
/// `math.rsqrt` (MLIR 22 has no folder for it).
pub const RSQRT: OpSpec = float_unary(
    "math.rsqrt",
    "reciprocal of sqrt (1 / sqrt of the specified value)",
    None,
);
/// `math.sin`
pub const SIN: OpSpec = float_unary("math.sin", "sine of the specified value", libm!(sin, sinf));
/// `math.sinh`
pub const SINH: OpSpec = float_unary(
    "math.sinh",
    "hyperbolic sine of the specified value",
    libm!(sinh, sinhf),
);
/// `math.sqrt`
pub const SQRT: OpSpec = float_unary(
    "math.sqrt",
    "sqrt of the specified value",
    libm_nonneg!(sqrt, sqrtf),
);
/// `math.tan`
pub const TAN: OpSpec = float_unary(
    "math.tan",
    "tangent of the specified value",
    libm!(tan, tanf),
);
/// `math.tanh`
pub const TANH: OpSpec = float_unary(
    "math.tanh",
    "hyperbolic tangent of the specified value",
    libm!(tanh, tanhf),
);
/// `math.trunc`: folds `f32` and `f64` only.
pub const TRUNC: OpSpec = float_unary(
    "math.trunc",
    "trunc of the specified value",
    libm!(trunc, truncf),
);

// ---------------------------------------------------------------- float binary and ternary ops

/// `math.atan2`
pub const ATAN2: OpSpec = float_binary(
    "math.atan2",
    "2-argument arcus tangent of the given values",
    Some(|c, o, k| fold::binary_float(c, o, k, fold::atan2)),
);
/// `math.copysign`
pub const COPYSIGN: OpSpec = float_binary(
    "math.copysign",
    "A copysign operation",
    Some(|c, o, k| fold::binary_float(c, o, k, |t, a, b| Some(fold::copysign(t, a, b)))),
);
/// `math.powf`
pub const POWF: OpSpec = float_binary(
    "math.powf",
    "floating point raised to the power of operation",
    Some(|c, o, k| fold::binary_float(c, o, k, fold::powf)),
);

/// `math.fma` (MLIR 22 has no folder for it).
pub const FMA: OpSpec = float_ternary(
    "math.fma",
    "floating point fused multipy-add operation",
    &[
        ValueSpec::one("a", FLOAT_LIKE),
        ValueSpec::one("b", FLOAT_LIKE),
        ValueSpec::one("c", FLOAT_LIKE),
    ],
    "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
);
/// `math.clampf`
pub const CLAMPF: OpSpec = float_ternary(
    "math.clampf",
    "floating point clamping operation",
    &[
        ValueSpec::one("value", FLOAT_LIKE),
        ValueSpec::one("min", FLOAT_LIKE),
        ValueSpec::one("max", FLOAT_LIKE),
    ],
    "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)",
);

/// `math.fpowi`: a float to a signed integer power.
pub const FPOWI: OpSpec = OpSpec {
    summary: "floating point raised to the signed integer power",
    operands: &[
        ValueSpec::one("lhs", FLOAT_LIKE),
        ValueSpec::one("rhs", SIGNLESS_INT_OR_INDEX_LIKE),
    ],
    results: FLOAT_RESULT,
    attributes: FASTMATH_ATTRS,
    traits: MATH,
    format: Some(
        "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)",
    ),
    verify: Some(verify_fpowi),
    infer_results: Some(|_, ops, _| Some(vec![*ops.first()?])),
    interpret: Some(interp::float_op),
    ..OpSpec::new("math.fpowi")
};

/// `math.sincos`: sine and cosine in one op.
pub const SINCOS: OpSpec = OpSpec {
    summary: "sine and cosine of the specified value",
    operands: FLOAT_OPERAND,
    results: &[
        ValueSpec::one("sin", FLOAT_LIKE),
        ValueSpec::one("cos", FLOAT_LIKE),
    ],
    attributes: FASTMATH_ATTRS,
    traits: MATH,
    format: Some(UNARY_FORMAT_OF_OPERAND),
    verify: Some(verify_sincos),
    infer_results: Some(|_, ops, _| Some(vec![*ops.first()?; 2])),
    result_names: Some(|_, _| vec![Some("sin".into()), Some("cos".into())]),
    interpret: Some(interp::sincos),
    ..OpSpec::new("math.sincos")
};

const UNARY_FORMAT_OF_OPERAND: &str =
    "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)";

// ---------------------------------------------------------------- integer ops

/// `math.absi`
pub const ABSI: OpSpec = int_unary(
    "math.absi",
    "integer absolute-value operation",
    |c, o, k| fold::unary_int(c, o, k, fold::absi),
);
/// `math.ctlz`
pub const CTLZ: OpSpec = int_unary(
    "math.ctlz",
    "counts the leading zeros an integer value",
    |c, o, k| fold::unary_int(c, o, k, fold::ctlz),
);
/// `math.cttz`
pub const CTTZ: OpSpec = int_unary(
    "math.cttz",
    "counts the trailing zeros an integer value",
    |c, o, k| fold::unary_int(c, o, k, fold::cttz),
);
/// `math.ctpop`
pub const CTPOP: OpSpec = int_unary(
    "math.ctpop",
    "counts the number of set bits of an integer value",
    |c, o, k| fold::unary_int(c, o, k, fold::ctpop),
);

/// `math.ipowi`
pub const IPOWI: OpSpec = OpSpec {
    summary: "signed integer raised to the power of operation",
    operands: &[
        ValueSpec::one("lhs", SIGNLESS_INT_OR_INDEX_LIKE),
        ValueSpec::one("rhs", SIGNLESS_INT_OR_INDEX_LIKE),
    ],
    results: INT_RESULT,
    traits: MATH_SAME,
    format: Some("$lhs `,` $rhs attr-dict `:` type($result)"),
    fold: Some(fold::ipowi),
    interpret: Some(interp::int_op),
    ..OpSpec::new("math.ipowi")
};

// ---------------------------------------------------------------- classifications

/// `math.isfinite`
pub const ISFINITE: OpSpec = classification(
    "math.isfinite",
    "returns true if the operand classifies as finite",
    |c, o, k| fold::classify(c, o, k, |t, b| !t.is_nan(b) && !t.is_inf(b)),
);
/// `math.isinf`
pub const ISINF: OpSpec = classification(
    "math.isinf",
    "returns true if the operand classifies as infinite",
    |c, o, k| fold::classify(c, o, k, |t, b| t.is_inf(b)),
);
/// `math.isnan`
pub const ISNAN: OpSpec = classification(
    "math.isnan",
    "returns true if the operand classifies as NaN",
    |c, o, k| fold::classify(c, o, k, |t, b| t.is_nan(b)),
);
/// `math.isnormal`
pub const ISNORMAL: OpSpec = classification(
    "math.isnormal",
    "returns true if the operand classifies as normal",
    |c, o, k| fold::classify(c, o, k, fold::is_normal),
);

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
fn verify_classification(ctx: &Context, op: Op) -> R<()> {
    let operand = ctx.value_type(ctx.operands(op)[0]);
    if ctx.value_type(ctx.result(op, 0)) != i1_same_shape(ctx.uniquer(), operand) {
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
    let lhs = ctx.value_type(ctx.operands(op)[0]);
    if ctx.value_type(ctx.result(op, 0)) != lhs {
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
    let operand = ctx.value_type(ctx.operands(op)[0]);
    if ctx.results(op).any(|r| ctx.value_type(r) != operand) {
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
