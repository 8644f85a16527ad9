//! The `graph` dialect: AI operators on tensors (matmul, conv2d, softmax,
//! layernorm, activations, ...) at the level fusion works on. Shapes are ranked
//! and static first; dynamic dimensions are representable (`?`) and verified
//! where they can be.
//!
//! Elementwise binary ops take operands of one shape, or a rank-0 operand that
//! broadcasts; `broadcast` (like StableHLO's `broadcast_in_dim`) does the rest.
//! The verifiers infer result shapes (see [`verify`]) and the ops run in the
//! reference interpreter (see [`interp`]).

pub mod interp;
pub mod verify;

use crate::stablehlo::{DIRECTIVES, TENSOR};
use aic::constraints::{I64_ARRAY, I64_ATTR};
use aic::dialect::{
    AttrConstraint, AttrSpec, AttrSyntax, Dialect, OpSpec, Traits, TypeConstraint, ValueSpec, ac,
};
use aic::types::TypeKind;

/// Float tensors (activations, normalisations).
const FLOAT_TENSOR: TypeConstraint = TypeConstraint {
    desc: "tensor of floating-point values",
    check: |t, u| match t {
        TypeKind::Tensor { elem, .. } | TypeKind::UnrankedTensor(elem) => {
            matches!(u.type_kind(*elem), TypeKind::Float(_))
        }
        _ => false,
    },
    build: None,
};

aic::dialect_enum! {
    /// How `graph.reduce` combines, `#graph<reduce sum>`.
    pub enum ReduceKind = "graph<reduce ", "reduction kind (sum, max, min, mean)" {
        /// The sum.
        Sum = "sum",
        /// The maximum.
        Max = "max",
        /// The minimum.
        Min = "min",
        /// The mean.
        Mean = "mean",
    }
}

aic::dialect_enum! {
    /// A convolution's layout, `#graph<layout NHWC>`: `NHWC` (filter `HWIO`) or
    /// `NCHW` (filter `OIHW`).
    pub enum ConvLayout = "graph<layout ", "convolution layout (NHWC, NCHW)" {
        /// Channels last.
        Nhwc = "NHWC",
        /// Channels first.
        Nchw = "NCHW",
    }
}

/// The attributes of `graph` as values: its enums.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "graph",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(ReduceKind::parse_attr(body).or_else(|| ConvLayout::parse_attr(body)))
    }),
};
const F32_ATTR: AttrConstraint = AttrConstraint {
    desc: "32-bit float attribute",
    check: |a, u| {
        matches!(a, aic::attributes::AttrKind::Float { ty, .. }
            if matches!(u.type_kind(*ty), TypeKind::Float(aic::float::FloatKind::F32)))
    },
    syntax: AttrSyntax::Full,
};

fn epsilon_default(u: &aic::ir::Uniquer) -> aic::attributes::Attr {
    let f32t = u.ty(TypeKind::Float(aic::float::FloatKind::F32));
    u.attr(aic::attributes::AttrKind::Float {
        bits: u128::from(1.0e-5f32.to_bits()),
        ty: f32t,
    })
}

fn one_i64(u: &aic::ir::Uniquer) -> aic::attributes::Attr {
    u.attr(aic::attributes::AttrKind::Integer {
        value: 1,
        ty: u.int_type(64),
    })
}

fn minus_one_i64(u: &aic::ir::Uniquer) -> aic::attributes::Attr {
    u.attr(aic::attributes::AttrKind::Integer {
        value: -1,
        ty: u.int_type(64),
    })
}

const PURE: Traits = Traits::PURE.with(Traits::NO_MEMORY_EFFECT);

/// A graph op: the shared verifier, interpreter semantics and directives.
const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        traits: PURE,
        directives: DIRECTIVES,
        verify: Some(verify::verify),
        interpret: Some(interp::interpret),
        ..OpSpec::new(name)
    }
}

const X: &[ValueSpec] = &[ValueSpec::one("x", TENSOR)];
const FX: &[ValueSpec] = &[ValueSpec::one("x", FLOAT_TENSOR)];
const LR: &[ValueSpec] = &[ValueSpec::one("lhs", TENSOR), ValueSpec::one("rhs", TENSOR)];
const RESULT: &[ValueSpec] = &[ValueSpec::one("result", TENSOR)];

const UNARY_FMT: &str =
    "$x attr-dict `:` custom<SameOperandsAndResultType>(type($x), type($result))";
const BINARY_FMT: &str = "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))";

const fn unary(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        operands: FX,
        results: RESULT,
        traits: PURE.with(Traits::ELEMENTWISE),
        format: Some(UNARY_FMT),
        ..op(name, summary)
    }
}

const fn binary(name: &'static str, summary: &'static str, commutative: bool) -> OpSpec {
    OpSpec {
        operands: LR,
        results: RESULT,
        traits: if commutative {
            PURE.with(Traits::COMMUTATIVE)
        } else {
            PURE
        },
        format: Some(BINARY_FMT),
        ..op(name, summary)
    }
}

macro_rules! unary_ops {
    ($($id:ident $name:literal $summary:literal;)*) => {
        $(
            #[doc = concat!("`graph.", $name, "`: ", $summary)]
            pub const $id: OpSpec = unary(concat!("graph.", $name), $summary);
        )*
        /// The unary elementwise ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

unary_ops! {
    EXP "exp" "e raised to each element";
    LOG "log" "natural logarithm of each element";
    TANH "tanh" "hyperbolic tangent of each element";
    SQRT "sqrt" "square root of each element";
    RSQRT "rsqrt" "reciprocal square root of each element";
    NEG "neg" "negation of each element";
    ABS "abs" "absolute value of each element";
    RELU "relu" "max(x, 0)";
    SIGMOID "sigmoid" "1 / (1 + exp(-x))";
    SILU "silu" "x * sigmoid(x)";
    GELU "gelu" "exact GeLU: x * (1 + erf(x / sqrt(2))) / 2";
    GELU_TANH "gelu_tanh" "GeLU's tanh approximation: x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2";
    FAST_GELU "fast_gelu" "GeLU's tanh approximation evaluated as x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)), AITemplate's and CK's FastGeLU";
    ERF "erf" "error function of each element";
    ERFC "erfc" "complementary error function of each element";
}

macro_rules! binary_ops {
    ($($id:ident $name:literal $summary:literal $comm:literal;)*) => {
        $(
            #[doc = concat!("`graph.", $name, "`: ", $summary)]
            pub const $id: OpSpec = binary(concat!("graph.", $name), $summary, $comm);
        )*
        /// The binary elementwise ops.
        pub const BINARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

binary_ops! {
    ADD "add" "elementwise sum" true;
    SUB "sub" "elementwise difference" false;
    MUL "mul" "elementwise product" true;
    DIV "div" "elementwise quotient" false;
    MAX "max" "elementwise maximum (NaN propagates)" true;
    MIN "min" "elementwise minimum (NaN propagates)" true;
    POW "pow" "elementwise power" false;
}

/// `graph.matmul`: `[..., M, K] x [..., K, N] -> [..., M, N]`; the rhs may omit
/// the batch dimensions (a shared weight). `transpose_a`/`transpose_b` swap the
/// last two dimensions of an operand first.
pub const MATMUL: OpSpec = OpSpec {
    operands: LR,
    results: RESULT,
    attributes: &[
        AttrSpec::optional("transpose_a", ac::UNIT),
        AttrSpec::optional("transpose_b", ac::UNIT),
    ],
    format: Some(
        "$lhs `,` $rhs (`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)? attr-dict `:` functional-type(operands, results)",
    ),
    ..op(
        "graph.matmul",
        "matrix product with optional batch dimensions",
    )
};

/// `graph.batch_matmul`: `graph.matmul` on rank-3 operands with one batch dimension.
pub const BATCH_MATMUL: OpSpec = OpSpec {
    operands: LR,
    results: RESULT,
    format: Some("$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"),
    ..op(
        "graph.batch_matmul",
        "batched matrix product: [B, M, K] x [B, K, N]",
    )
};

/// `graph.conv2d`: 2-d convolution in `NHWC` (filter `HWIO`) or `NCHW` (filter
/// `OIHW`) layout with strides, dilations, padding `[top, bottom, left, right]`
/// and groups.
pub const CONV2D: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("input", TENSOR),
        ValueSpec::one("filter", TENSOR),
    ],
    results: RESULT,
    attributes: &[
        AttrSpec::required("layout", ConvLayout::CONSTRAINT),
        AttrSpec::required("strides", I64_ARRAY),
        AttrSpec::required("dilations", I64_ARRAY),
        AttrSpec::required("padding", I64_ARRAY),
        AttrSpec::defaulted("groups", I64_ATTR, one_i64),
    ],
    format: Some(
        "$input `,` $filter `,` `layout` `=` $layout `,` `strides` `=` $strides `,` `dilations` `=` $dilations `,` `padding` `=` $padding (`,` `groups` `=` $groups^)? attr-dict `:` functional-type(operands, results)",
    ),
    ..op("graph.conv2d", "2-d convolution")
};

/// `graph.bias_add`: `x[..., N] + bias[N]`.
pub const BIAS_ADD: OpSpec = OpSpec {
    operands: &[ValueSpec::one("x", TENSOR), ValueSpec::one("bias", TENSOR)],
    results: RESULT,
    format: Some("$x `,` $bias attr-dict `:` functional-type(operands, results)"),
    ..op("graph.bias_add", "adds a bias along the last dimension")
};

/// `graph.softmax` along `axis` (negative counts from the end).
pub const SOFTMAX: OpSpec = OpSpec {
    operands: FX,
    results: RESULT,
    attributes: &[AttrSpec::defaulted("axis", I64_ATTR, minus_one_i64)],
    format: Some(
        "$x (`,` `axis` `=` $axis^)? attr-dict `:` custom<SameOperandsAndResultType>(type($x), type($result))",
    ),
    ..op("graph.softmax", "softmax along an axis")
};

/// `graph.layernorm`: normalise over the trailing dimensions `gamma` spans,
/// then scale by `gamma` and shift by `beta`.
pub const LAYERNORM: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("x", FLOAT_TENSOR),
        ValueSpec::one("gamma", FLOAT_TENSOR),
        ValueSpec::one("beta", FLOAT_TENSOR),
    ],
    results: RESULT,
    attributes: &[AttrSpec::defaulted("epsilon", F32_ATTR, epsilon_default)],
    format: Some("$x `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)"),
    ..op("graph.layernorm", "layer normalisation")
};

/// `graph.rmsnorm`: `x / sqrt(mean(x^2) + epsilon) * gamma` over the trailing
/// dimensions `gamma` spans.
pub const RMSNORM: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("x", FLOAT_TENSOR),
        ValueSpec::one("gamma", FLOAT_TENSOR),
    ],
    results: RESULT,
    attributes: &[AttrSpec::defaulted("epsilon", F32_ATTR, epsilon_default)],
    format: Some("$x `,` $gamma attr-dict `:` functional-type(operands, results)"),
    ..op("graph.rmsnorm", "root-mean-square normalisation")
};

/// `graph.reduce sum|max|min|mean %x, axes = [...]`, optionally `keep_dims`.
pub const REDUCE: OpSpec = OpSpec {
    operands: X,
    results: RESULT,
    attributes: &[
        AttrSpec::required("kind", ReduceKind::CONSTRAINT),
        AttrSpec::required("axes", I64_ARRAY),
        AttrSpec::optional("keep_dims", ac::UNIT),
    ],
    format: Some(
        "$kind $x `,` `axes` `=` $axes (`keep_dims` $keep_dims^)? attr-dict `:` functional-type(operands, results)",
    ),
    ..op("graph.reduce", "reduction over axes")
};

/// `graph.transpose %x, perm = [...]`: result dimension `i` is operand dimension `perm[i]`.
pub const TRANSPOSE: OpSpec = OpSpec {
    operands: X,
    results: RESULT,
    attributes: &[AttrSpec::required("perm", I64_ARRAY)],
    format: Some("$x `,` `perm` `=` $perm attr-dict `:` functional-type(operands, results)"),
    ..op("graph.transpose", "permutes dimensions")
};

/// `graph.reshape`.
pub const RESHAPE: OpSpec = OpSpec {
    operands: X,
    results: RESULT,
    format: Some("$x attr-dict `:` functional-type(operands, results)"),
    ..op("graph.reshape", "same elements, another shape")
};

/// `graph.broadcast %x, dims = [...]`: operand dimension `i` becomes result
/// dimension `dims[i]` (size 1 stretches).
pub const BROADCAST: OpSpec = OpSpec {
    operands: X,
    results: RESULT,
    attributes: &[AttrSpec::required("dims", I64_ARRAY)],
    format: Some("$x `,` `dims` `=` $dims attr-dict `:` functional-type(operands, results)"),
    ..op("graph.broadcast", "broadcast into a larger shape")
};

/// `graph.slice %x [0:2, 1:5:2]`.
pub const SLICE: OpSpec = OpSpec {
    operands: X,
    results: RESULT,
    attributes: &[
        AttrSpec::required("start", I64_ARRAY),
        AttrSpec::required("limit", I64_ARRAY),
        AttrSpec::required("strides", I64_ARRAY),
    ],
    format: Some(
        "$x custom<SliceRanges>($start, $limit, $strides) attr-dict `:` functional-type(operands, results)",
    ),
    ..op("graph.slice", "strided slice")
};

/// `graph.concat %a, %b, axis = 0`.
pub const CONCAT: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs", TENSOR)],
    results: RESULT,
    attributes: &[AttrSpec::required("axis", I64_ATTR)],
    format: Some(
        "custom<VariadicOperandWithAttribute>($inputs) `axis` `=` $axis attr-dict `:` functional-type(operands, results)",
    ),
    ..op("graph.concat", "concatenation along an axis")
};

/// `graph.split %x, axis = 0`: the result types give the sizes.
pub const SPLIT: OpSpec = OpSpec {
    operands: X,
    results: &[ValueSpec::variadic("results", TENSOR)],
    attributes: &[AttrSpec::required("axis", I64_ATTR)],
    format: Some("$x `,` `axis` `=` $axis attr-dict `:` functional-type(operands, results)"),
    ..op("graph.split", "splits along an axis")
};

/// `graph.cast`: element type conversion (StableHLO's `convert` rules).
pub const CAST: OpSpec = OpSpec {
    operands: X,
    results: RESULT,
    traits: PURE.with(Traits::ELEMENTWISE),
    format: Some(FUNCTIONAL_X),
    ..op("graph.cast", "converts the element type")
};

const FUNCTIONAL_X: &str = "$x attr-dict `:` functional-type(operands, results)";

/// `graph.constant dense<...> : tensor<...>`.
pub const CONSTANT: OpSpec = OpSpec {
    results: RESULT,
    attributes: &[AttrSpec::required("value", crate::stablehlo::ELEMENTS_ATTR)],
    traits: PURE.with(Traits::CONSTANT_LIKE),
    format: Some("attr-dict $value"),
    infer_results: Some(|u, _, attrs| {
        let v = attrs.iter().find(|(k, _)| u.str(*k) == "value")?.1;
        match u.attr_kind(v) {
            aic::attributes::AttrKind::DenseElements { ty, .. } => Some(vec![*ty]),
            _ => None,
        }
    }),
    ..op("graph.constant", "a constant tensor")
};

/// The graph ops that are neither unary nor binary elementwise.
const OTHER_OPS: &[OpSpec] = &[
    MATMUL,
    BATCH_MATMUL,
    CONV2D,
    BIAS_ADD,
    SOFTMAX,
    LAYERNORM,
    RMSNORM,
    REDUCE,
    TRANSPOSE,
    RESHAPE,
    BROADCAST,
    SLICE,
    CONCAT,
    SPLIT,
    CAST,
    CONSTANT,
];

/// The `graph` dialect (elementwise ops).
pub static DIALECT: Dialect = Dialect {
    name: "graph",
    description: "AI operators on tensors, the level fusion works on",
    ops: UNARY_OPS,
    materialize_constant: None,
};

/// The `graph` dialect (binary elementwise ops).
pub static BINARY: Dialect = Dialect {
    name: "graph",
    description: "AI operators on tensors, the level fusion works on",
    ops: BINARY_OPS,
    materialize_constant: None,
};

/// The `graph` dialect (the other ops).
pub static OTHERS: Dialect = Dialect {
    name: "graph",
    description: "AI operators on tensors, the level fusion works on",
    ops: OTHER_OPS,
    materialize_constant: None,
};
