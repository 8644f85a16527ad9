//! The `chlo` ops JAX emits next to StableHLO (`erf`, `erfc`, `erf_inv`, `tan`,
//! `square`, `top_k`, `lgamma`, `digamma`, `bessel_i1e`, ...), parsed and
//! printed with their syntax (`chlo.erf %x : tensor<4xf32> -> tensor<4xf32>`).
//! The elementwise ones have interpreter semantics beside the StableHLO ones.

use crate::stablehlo::{TENSOR, op};
use aic::constraints::{BOOL_ATTR, I64_ATTR};
use aic::dialect::{AttrSpec, Dialect, OpSpec, Traits, ValueSpec};

const UNARY_FMT: &str = "$operand attr-dict `:` type($operand) `->` type($result)";

const OPERAND: &[ValueSpec] = &[ValueSpec::one("operand", TENSOR)];
const RESULT: &[ValueSpec] = &[ValueSpec::one("result", TENSOR)];

const fn unary(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        operands: OPERAND,
        results: RESULT,
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        format: Some(UNARY_FMT),
        verify: None,
        ..op(name, summary)
    }
}

macro_rules! chlo_unary {
    ($($id:ident $name:literal $summary:literal;)*) => {
        $(
            #[doc = concat!("`chlo.", $name, "`: ", $summary)]
            pub const $id: OpSpec = unary(concat!("chlo.", $name), $summary);
        )*
        /// The unary elementwise chlo ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

chlo_unary! {
    ACOS "acos" "Acos operator";
    ACOSH "acosh" "Acosh operation";
    ASIN "asin" "Asin operator";
    ASINH "asinh" "Asinh operation";
    ATAN "atan" "Atan operator";
    ATANH "atanh" "Atanh operator";
    BESSEL_I1E "bessel_i1e" "Bessel function of order 1";
    CONJ "conj" "Conj operator";
    COSH "cosh" "Cosh operator";
    SINH "sinh" "Sinh operation";
    TAN "tan" "Tan operation";
    DIGAMMA "digamma" "Digamma function";
    ERF "erf" "Erfc operator";
    ERF_INV "erf_inv" "Inverse Erf";
    ERFC "erfc" "Erfc operator";
    IS_INF "is_inf" "IsInf predicate";
    IS_NEG_INF "is_neg_inf" "IsNegInf predicate";
    IS_POS_INF "is_pos_inf" "IsPosInf predicate";
    LGAMMA "lgamma" "Lgamma function";
    SQUARE "square" "Square operation";
}

/// `chlo.top_k`: the `k` largest entries of the last dimension and their indices.
pub const TOP_K: OpSpec = OpSpec {
    operands: &[ValueSpec::one("operand", TENSOR)],
    results: &[
        ValueSpec::one("values", TENSOR),
        ValueSpec::one("indices", TENSOR),
    ],
    attributes: &[
        AttrSpec::required("k", I64_ATTR),
        AttrSpec::optional("is_stable", BOOL_ATTR),
    ],
    format: Some(
        "`(`$operand `,` `k` `=` $k (`,` `is_stable` `=` $is_stable^)? `)` attr-dict `:` type($operand) `->` `(`type($values)`,` type($indices)`)`",
    ),
    verify: None,
    ..op(
        "chlo.top_k",
        "Finds values and indices of the `k` largest elements",
    )
};

/// `chlo.next_after`, `chlo.polygamma`, `chlo.zeta`: two-operand functions.
const fn binary(name: &'static str, summary: &'static str, format: &'static str) -> OpSpec {
    OpSpec {
        traits: Traits::PURE.with(Traits::ELEMENTWISE),
        format: Some(format),
        verify: None,
        ..op(name, summary)
    }
}

/// `chlo.next_after`
pub const NEXT_AFTER: OpSpec = OpSpec {
    operands: &[ValueSpec::one("x", TENSOR), ValueSpec::one("y", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    ..binary(
        "chlo.next_after",
        "Returns the next representable value of `x` in the direction of `y`",
        "$x `,` $y attr-dict `:` type($x) `,` type($y) `->` type(results)",
    )
};
/// `chlo.polygamma`
pub const POLYGAMMA: OpSpec = OpSpec {
    operands: &[ValueSpec::one("n", TENSOR), ValueSpec::one("x", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    ..binary(
        "chlo.polygamma",
        "Polygamma function",
        "$n `,` $x attr-dict `:` type($n) `,` type($x) `->` type(results)",
    )
};
/// `chlo.zeta`
pub const ZETA: OpSpec = OpSpec {
    operands: &[ValueSpec::one("x", TENSOR), ValueSpec::one("q", TENSOR)],
    results: &[ValueSpec::one("result", TENSOR)],
    ..binary(
        "chlo.zeta",
        "Hurwitz zeta function",
        "$x `,` $q attr-dict `:` type($x) `,` type($q) `->` type(results)",
    )
};

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
