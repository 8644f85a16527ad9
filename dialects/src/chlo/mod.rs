//! The `chlo` ops JAX emits next to StableHLO (`erf`, `erfc`, `erf_inv`, `tan`,
//! `square`, `top_k`, `lgamma`, `digamma`, `bessel_i1e`, ...), parsed and
//! printed with their syntax (`chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`).
//! The elementwise ones have interpreter semantics beside the StableHLO ones.

use crate::stablehlo::{TENSOR, op};
use aic::constraints::{BOOL_ATTR, I64_ATTR};
use aic::dialect::{Dialect, OpSpec, Traits};

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
    ($($Handle:ident = $id:ident $name:literal $summary:literal;)*) => {
        $(
            aic::op! {
                #[doc = concat!("`chlo.", $name, "`: ", $summary)]
                pub $Handle = $id {
                    operands: [operand: one(TENSOR)],
                    results: [result: one(TENSOR)],
                    spec: unary(concat!("chlo.", $name), $summary),
                }
            }
        )*
        /// The unary elementwise chlo ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

chlo_unary! {
    Acos = ACOS "acos" "Acos operator";
    Acosh = ACOSH "acosh" "Acosh operation";
    Asin = ASIN "asin" "Asin operator";
    Asinh = ASINH "asinh" "Asinh operation";
    Atan = ATAN "atan" "Atan operator";
    Atanh = ATANH "atanh" "Atanh operator";
    BesselI1e = BESSEL_I1E "bessel_i1e" "Bessel function of order 1";
    Conj = CONJ "conj" "Conj operator";
    Cosh = COSH "cosh" "Cosh operator";
    Sinh = SINH "sinh" "Sinh operation";
    Tan = TAN "tan" "Tan operation";
    Digamma = DIGAMMA "digamma" "Digamma function";
    Erf = ERF "erf" "Erfc operator";
    ErfInv = ERF_INV "erf_inv" "Inverse Erf";
    Erfc = ERFC "erfc" "Erfc operator";
    IsInf = IS_INF "is_inf" "IsInf predicate";
    IsNegInf = IS_NEG_INF "is_neg_inf" "IsNegInf predicate";
    IsPosInf = IS_POS_INF "is_pos_inf" "IsPosInf predicate";
    Lgamma = LGAMMA "lgamma" "Lgamma function";
    Square = SQUARE "square" "Square operation";
}

aic::op! {
    /// `chlo.top_k`: the `k` largest entries of the last dimension and their indices.
    pub TopK = TOP_K {
        operands: [operand: one(TENSOR)],
        results: [values: one(TENSOR), indices: one(TENSOR)],
        attributes: [k: required(I64_ATTR), is_stable: optional(BOOL_ATTR)],
        spec: OpSpec {
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
    ops: &[TOP_K, NEXT_AFTER, POLYGAMMA, ZETA],
    materialize_constant: None,
};
