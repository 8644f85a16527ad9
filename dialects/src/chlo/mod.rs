//! The `chlo` ops JAX emits next to StableHLO (`erf`, `erfc`, `erf_inv`, `tan`,
//! `square`, `top_k`, `lgamma`, `digamma`, `bessel_i1e`, ...), parsed and
//! printed with their syntax (`chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`).
//! The elementwise ones have their meaning for the interpreter beside their
//! specs, through StableHLO's elementwise hooks.

use crate::math::fold::libm;
use crate::stablehlo::attrs::{join, opt_ints, struct_fields};
use crate::stablehlo::interp::{self, Unary, elementwise};
use crate::stablehlo::{TENSOR, op};
use aic::attributes::Attr;
use aic::constraints::{BOOL_ATTR, I64_ATTR};
use aic::dialect::{AttrConstraint, AttrSyntax, Dialect, OpSpec, Traits, ac};
use aic::ir::Uniquer;
use aic::types::{DialectObject, DialectValue};

const UNARY_FMT: &str = "$operand attr-dict `:` type($operand) `->` type($result)";

const fn unary(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        format: Some(UNARY_FMT),
        verify: None,
        ..op(name, summary)
    }
}

macro_rules! chlo_unary {
    ($($Handle:ident = $id:ident $name:literal $summary:literal, $meaning:expr;)*) => {
        $(
            aic::op! {
                #[doc = concat!("`chlo.", $name, "`: ", $summary)]
                pub $Handle = $id {
                    operands: [operand: one(TENSOR)],
                    results: [result: one(TENSOR)],
                    spec: OpSpec {
                        interpret: Some($meaning),
                        ..unary(concat!("chlo.", $name), $summary)
                    },
                }
            }
        )*
        /// The unary elementwise chlo ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

/// The hook of a unary op whose meaning is the float function `$f`.
macro_rules! float {
    ($f:expr) => {
        |it, op, args| interp::unary(it, op, args, &Unary::float($f))
    };
}

/// The hook of a float predicate `$p`.
macro_rules! predicate {
    ($p:expr) => {
        |it, op, args| interp::predicate(it, op, args, $p)
    };
}

chlo_unary! {
    Acos = ACOS "acos" "Acos operator", float!(|x| libm::acos(x));
    Acosh = ACOSH "acosh" "Acosh operation", float!(|x| libm::acosh(x));
    Asin = ASIN "asin" "Asin operator", float!(|x| libm::asin(x));
    Asinh = ASINH "asinh" "Asinh operation", float!(|x| libm::asinh(x));
    Atan = ATAN "atan" "Atan operator", float!(|x| libm::atan(x));
    Atanh = ATANH "atanh" "Atanh operator", float!(|x| libm::atanh(x));
    BesselI1e = BESSEL_I1E "bessel_i1e" "Bessel function of order 1", float!(bessel_i1e);
    Conj = CONJ "conj" "Conj operator",
        |it, op, args| interp::unary(it, op, args, &Unary::float_complex(|x| x, |a| (a.0, -a.1)));
    Cosh = COSH "cosh" "Cosh operator", float!(|x| libm::cosh(x));
    Sinh = SINH "sinh" "Sinh operation", float!(|x| libm::sinh(x));
    Tan = TAN "tan" "Tan operation", |it, op, args| interp::unary(it, op, args, &elementwise::TAN);
    Digamma = DIGAMMA "digamma" "Digamma function", float!(digamma);
    Erf = ERF "erf" "Erfc operator", float!(|x| libm::erf(x));
    ErfInv = ERF_INV "erf_inv" "Inverse Erf", float!(erf_inv);
    Erfc = ERFC "erfc" "Erfc operator", float!(|x| libm::erfc(x));
    IsInf = IS_INF "is_inf" "IsInf predicate", predicate!(f64::is_infinite);
    IsNegInf = IS_NEG_INF "is_neg_inf" "IsNegInf predicate", predicate!(|x| x == f64::NEG_INFINITY);
    IsPosInf = IS_POS_INF "is_pos_inf" "IsPosInf predicate", predicate!(|x| x == f64::INFINITY);
    Lgamma = LGAMMA "lgamma" "Lgamma function", float!(|x| libm::lgamma(x));
    Square = SQUARE "square" "Square operation", float!(|x| x * x);
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

aic::op! {
    /// `chlo.top_k`: the `k` largest entries of the last dimension and their indices.
    pub TopK = TOP_K {
        operands: [operand: one(TENSOR)],
        results: [values: one(TENSOR), indices: one(TENSOR)],
        attributes: [k: required(I64_ATTR), is_stable: optional(BOOL_ATTR)],
        spec: OpSpec {
            interpret: Some(interp::top_k),
            format: Some(
                "`(`$operand `,` `k` `=` $k (`,` `is_stable` `=` $is_stable^)? `)` attr-dict `:` type($operand) `->` `(`type($values)`,` type($indices)`)`",
            ),
            verify: None,
            ..op(
                "chlo.top_k",
                "Finds values and indices of the `k` largest elements",
            )
        },
    }
}

/// `chlo.next_after`, `chlo.polygamma`, `chlo.zeta`: two-operand functions.
const fn binary(name: &'static str, summary: &'static str, format: &'static str) -> OpSpec {
    OpSpec {
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        format: Some(format),
        verify: None,
        ..op(name, summary)
    }
}

aic::op! {
    /// `chlo.next_after`
    pub NextAfter = NEXT_AFTER {
        operands: [x: one(TENSOR), y: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: binary(
        "chlo.next_after",
        "Returns the next representable value of `x` in the direction of `y`",
        "$x `,` $y attr-dict `:` type($x) `,` type($y) `->` type(results)",
    ),
    }
}
aic::op! {
    /// `chlo.polygamma`
    pub Polygamma = POLYGAMMA {
        operands: [n: one(TENSOR), x: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: binary(
        "chlo.polygamma",
        "Polygamma function",
        "$n `,` $x attr-dict `:` type($n) `,` type($x) `->` type(results)",
    ),
    }
}
aic::op! {
    /// `chlo.zeta`
    pub Zeta = ZETA {
        operands: [x: one(TENSOR), q: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: binary(
        "chlo.zeta",
        "Hurwitz zeta function",
        "$x `,` $q attr-dict `:` type($x) `,` type($q) `->` type(results)",
    ),
    }
}

aic::op! {
    /// `chlo.mulhi`: the high half of each integer product (the width's
    /// upper bits of the double-width product, signed or unsigned).
    pub Mulhi = MULHI {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            traits: Traits::PURE.with(Traits::ELEMENTWISE).with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
            interpret: Some(interp::mulhi),
            ..binary(
                "chlo.mulhi",
                "Returns the high bits of the product of two integers",
                "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type(results)",
            )
        },
    }
}

aic::op! {
    /// `chlo.scan(%xs) inits(%cs) dimension = d { body } : (...) -> (...)`:
    /// a prefix computation along one dimension with carries (see
    /// `stablehlo::interp::scan`).
    pub Scan = SCAN {
        operands: [inputs: variadic(TENSOR), inits: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            dimension: required(I64_ATTR) as i64,
            is_reverse: optional(BOOL_ATTR) as bool,
            is_associative: optional(BOOL_ATTR) as bool,
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::RECURSIVE_MEMORY_EFFECTS,
            format: Some(
                "`(` $inputs `)` `inits` `(` $inits `)` `dimension` `=` $dimension attr-dict-with-keyword $body `:` functional-type(operands, results)",
            ),
            verify: Some(verify_scan),
            interpret: Some(|it, op, args| {
                let s = Scan(op);
                let ctx = it.ctx;
                let n = s.inputs(ctx).len();
                let dim = s.dimension(ctx).unwrap_or(0).max(0) as usize;
                let reverse = s.is_reverse(ctx).unwrap_or(false);
                interp::scan(it, op, s.body(ctx), args.split_at(n), dim, reverse)
            }),
            ..op("chlo.scan", "Scan operation")
        },
    }
}

/// `chlo.scan`: an input, the dimension within its rank, and as many results
/// as region returns beyond the carries.
fn verify_scan(ctx: &aic::Context, op: aic::ir::Op) -> Result<(), aic::Diagnostic> {
    let s = Scan(op);
    let err = |m: String| Err(aic::verifier::op_error(ctx, op, m));
    let Some(first) = s.inputs(ctx).first() else {
        return err("expects at least one input".into());
    };
    let d = s.dimension(ctx).unwrap_or(0);
    if let Some(shape) = ctx.type_kind(ctx.value_type(*first)).shape()
        && (d < 0 || d as usize >= shape.len())
    {
        return err(format!(
            "dimension {d} is out of range [0, {})",
            shape.len()
        ));
    }
    if s.results(ctx).len() < s.inits(ctx).len() {
        return err(format!(
            "{} results cannot hold {} carries",
            s.results(ctx).len(),
            s.inits(ctx).len()
        ));
    }
    Ok(())
}

aic::dialect_enum! {
    /// `#chlo<precision HIGH>`, an operand's precision in `chlo.ragged_dot`.
    pub enum Precision = "chlo<precision ", "Precision config" {
        /// The backend's default.
        Default = "DEFAULT",
        /// Higher.
        High = "HIGH",
        /// The highest.
        Highest = "HIGHEST",
    }
}

const RAGGED_KEYS: [&str; 6] = [
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
    "lhs_ragged_dimensions",
    "rhs_group_dimensions",
];

/// `#chlo.ragged_dot<...>`: `chlo.ragged_dot`'s dimension numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RaggedDotDims {
    /// The dimensions in [`RAGGED_KEYS`]' order.
    pub dims: [Vec<i64>; 6],
}

impl RaggedDotDims {
    /// The constraint of an attribute holding ragged-dot dimension numbers.
    pub const CONSTRAINT: AttrConstraint = AttrConstraint {
        desc: "Attribute that models the dimension information for ragged dot",
        check: |a, _| a.dialect_value::<RaggedDotDims>().is_some(),
        syntax: AttrSyntax::Full,
    };
    /// The dimension numbers `a` holds, if it is a `#chlo.ragged_dot<...>`.
    pub fn of(u: &Uniquer, a: Attr) -> Option<&RaggedDotDims> {
        u.dialect_attr(a)
    }
    fn parse_body(body: &str) -> Result<RaggedDotDims, String> {
        let f = struct_fields("chlo.ragged_dot", body, &RAGGED_KEYS)?;
        let mut dims: [Vec<i64>; 6] = Default::default();
        for (k, d) in dims.iter_mut().enumerate() {
            *d = opt_ints(RAGGED_KEYS[k], f[k])?;
        }
        Ok(RaggedDotDims { dims })
    }
}

impl DialectValue for RaggedDotDims {
    fn print(&self, _: &Uniquer, out: &mut String) {
        let parts: Vec<String> = RAGGED_KEYS
            .iter()
            .zip(&self.dims)
            .map(|(k, d)| format!("{k} = [{}]", join(d)))
            .collect();
        out.push_str(&format!("chlo.ragged_dot<{}>", parts.join(", ")));
    }
}

/// The attributes of `chlo`: its precision keyword and ragged-dot dimensions.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "chlo",
    parse_type: None,
    parse_attr: Some(|_, body| {
        if let Some(v) = Precision::parse_attr(body) {
            return Ok(Some(v));
        }
        match body
            .strip_prefix("chlo.ragged_dot<")
            .and_then(|b| b.strip_suffix('>'))
        {
            Some(b) => RaggedDotDims::parse_body(b).map(|d| Some(DialectObject::new(d))),
            None => Ok(None),
        }
    }),
};

aic::op! {
    /// `chlo.ragged_dot`: a dot product whose lhs is split into groups along
    /// one dimension, each group multiplied by its own rhs slice (generic
    /// syntax). The interpreter runs the mode where the ragged dimension is
    /// a free lhs dimension.
    pub RaggedDot = RAGGED_DOT {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR), group_sizes: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            ragged_dot_dimension_numbers: required(RaggedDotDims::CONSTRAINT),
            precision_config: optional(ac::ANY),
        ],
        spec: OpSpec {
            verify: Some(verify_ragged_dot),
            interpret: Some(ragged_dot),
            ..op("chlo.ragged_dot", "Computes a matmul over a single ragged dimension")
        },
    }
}

fn ragged_dims(ctx: &aic::Context, op: aic::ir::Op) -> Option<&RaggedDotDims> {
    RaggedDot(op)
        .ragged_dot_dimension_numbers(ctx)
        .and_then(|a| RaggedDotDims::of(ctx, a))
}

fn verify_ragged_dot(ctx: &aic::Context, op: aic::ir::Op) -> Result<(), aic::Diagnostic> {
    let r = RaggedDot(op);
    let err = |m: String| Err(aic::verifier::op_error(ctx, op, m));
    let Some(d) = ragged_dims(ctx, op) else {
        return err("malformed ragged_dot_dimension_numbers".into());
    };
    let [lb, rb, lc, rc, lr, rg] = &d.dims;
    if lb.len() != rb.len() || lc.len() != rc.len() {
        return err("batching and contracting dimensions must pair up".into());
    }
    if lr.len() != 1 || rg.len() > 1 {
        return err(format!(
            "one lhs ragged dimension and at most one rhs group dimension, got {} and {}",
            lr.len(),
            rg.len()
        ));
    }
    let rank = |v| ctx.type_kind(ctx.value_type(v)).shape().map(<[i64]>::len);
    for (dims, v, what) in [
        (lb.iter().chain(lc).chain(lr), r.lhs(ctx), "lhs"),
        (rb.iter().chain(rc).chain(rg), r.rhs(ctx), "rhs"),
    ] {
        if let Some(n) = rank(v) {
            for x in dims {
                if *x < 0 || *x as usize >= n {
                    return err(format!("{what} dimension {x} is out of range [0, {n})"));
                }
            }
        }
    }
    Ok(())
}

fn ragged_dot(
    it: &mut aic::interp::Interp<'_>,
    op: aic::ir::Op,
    args: &[aic::interp::Tensor],
) -> aic::interp::IResult<Vec<aic::interp::Tensor>> {
    let ctx = it.ctx;
    let d = ragged_dims(ctx, op)
        .ok_or_else(|| aic::interp::InterpError::at(op, "malformed dimension numbers"))?;
    let [lb, rb, lc, rc, lr, rg] = &d.dims;
    let (ragged, Some(group)) = (lr[0], rg.first().copied()) else {
        return Err(aic::interp::InterpError::at(
            op,
            "ragged_dot without an rhs group dimension (ragged contracting or batch dimensions) is not supported by the interpreter",
        ));
    };
    if lc.contains(&ragged) || lb.contains(&ragged) {
        return Err(aic::interp::InterpError::at(
            op,
            "ragged_dot along a contracting or batch dimension is not supported by the interpreter",
        ));
    }
    // The rhs's dimensions once its group dimension is dropped.
    let shift = |v: &Vec<i64>| -> Vec<i64> {
        v.iter()
            .map(|x| if *x > group { x - 1 } else { *x })
            .collect()
    };
    let dims = crate::stablehlo::attrs::DotDims {
        lhs_batch: lb.clone(),
        rhs_batch: shift(rb),
        lhs_contract: lc.clone(),
        rhs_contract: shift(rc),
    };
    interp::ragged_dot_free(ctx, op, args, &dims, ragged, group)
}

/// The `chlo` dialect (elementwise ops).
pub static DIALECT: Dialect = Dialect {
    name: "chlo",
    description: "client HLO ops JAX emits alongside StableHLO",
    ops: UNARY_OPS,
    materialize_constant: None,
};

/// The `chlo` dialect (the other ops).
pub static OTHERS: Dialect = Dialect {
    name: "chlo",
    description: "client HLO ops JAX emits alongside StableHLO",
    ops: &[TOP_K, NEXT_AFTER, POLYGAMMA, ZETA, MULHI, SCAN, RAGGED_DOT],
    materialize_constant: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_functions_match_known_values() {
        assert!((erf_inv(0.5) - 0.476_936_276_204_47).abs() < 1e-12);
        assert!((digamma(1.0) + 0.577_215_664_901_532_9).abs() < 1e-12);
        assert!((bessel_i1e(1.0) - 0.207_910_415_349_92).abs() < 1e-9);
        assert!(erf_inv(1.5).is_nan());
    }
}
