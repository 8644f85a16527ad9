//! The `graph` dialect: AI operators on tensors (matmul, conv2d, softmax,
//! layernorm, activations, ...) at the level fusion works on. Shapes are ranked
//! and static first; dynamic dimensions are representable (`?`) and verified
//! where they can be.
//!
//! Elementwise binary ops take operands of one shape, or a rank-0 operand that
//! broadcasts; `broadcast` (like StableHLO's `broadcast_in_dim`) does the rest.
//! Each op is declared with [`aic::op!`] (a typed handle: `Matmul::of`,
//! `Matmul::build`, ...) next to its interpreter hook ([`interp`]); its shape
//! rule ([`shapes`], which [`verify`] checks) and the class of work it does (what fusion and cost
//! models ask of it) are its row in [`SEMANTICS`], one row per op. Every op folds
//! through one hook ([`fold`]): ops of constants become `graph.constant`s,
//! chains of broadcasts, reshapes and exact casts compose.

pub mod fold;
pub mod interp;
pub mod precision;
pub mod scalar;
pub mod shapes;
pub mod sparse;
pub mod verify;

use crate::math;
use crate::stablehlo::{DIRECTIVES, TENSOR};
use aic::constraints::{I64_ARRAY, I64_ATTR};
use aic::dialect::{AttrConstraint, AttrSyntax, Dialect, OpSpec, Traits, TypeConstraint, ac};
use aic::types::TypeKind;
use interp::Float;
use scalar::{self as s, ScalarFn};
use shapes::ShapeFn;
pub use sparse::{SPARSE_MATMUL, SparseMatmul};
use std::collections::HashMap;
use std::sync::LazyLock;

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

aic::dialect_enum! {
    /// How `graph.scatter` combines an update with the element it lands on,
    /// `#graph<scatter add>`: `set` replaces it (JAX's `.at[].set`), the
    /// others combine (`.at[].add`, `.max`, `.min`).
    pub enum ScatterKind = "graph<scatter ", "scatter kind (set, add, max, min)" {
        /// Replace.
        Set = "set",
        /// Add.
        Add = "add",
        /// The maximum.
        Max = "max",
        /// The minimum.
        Min = "min",
    }
}

/// The attributes of `graph` as values: its enums.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "graph",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(ReduceKind::parse_attr(body)
            .or_else(|| ConvLayout::parse_attr(body))
            .or_else(|| ScatterKind::parse_attr(body)))
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

/// The base of every graph op's spec: pure, StableHLO's custom directives,
/// the shared verifier (the op's shape rule from [`SEMANTICS`]).
const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        traits: PURE,
        directives: DIRECTIVES,
        verify: Some(verify::verify),
        fold: Some(fold::fold),
        ..OpSpec::new(name)
    }
}

const UNARY_FMT: &str =
    "$x attr-dict `:` custom<SameOperandsAndResultType>(type($x), type($result))";
const BINARY_FMT: &str = "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))";
const FUNCTIONAL_X: &str = "$x attr-dict `:` functional-type(operands, results)";

/// Declares the unary elementwise ops: handle, spec constant, name, summary
/// and the op's meaning on one `f64` element.
macro_rules! unary_ops {
    ($($Handle:ident = $id:ident $name:literal $summary:literal $f:expr;)*) => {
        $(
            aic::op! {
                #[doc = concat!("`graph.", $name, "`: ", $summary)]
                pub $Handle = $id {
                    operands: [x: one(FLOAT_TENSOR)],
                    results: [result: one(TENSOR)],
                    spec: OpSpec {
                        traits: PURE.with(Traits::ELEMENTWISE),
                        format: Some(UNARY_FMT),
                        interpret: Some(|it, op, args| interp::unary(it, op, args, $f)),
                        ..op(concat!("graph.", $name), $summary)
                    },
                }
            }
        )*
        /// The unary elementwise ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

unary_ops! {
    Exp = EXP "exp" "e raised to each element" |x| libm::exp(x);
    Log = LOG "log" "natural logarithm of each element" |x| libm::log(x);
    Tanh = TANH "tanh" "hyperbolic tangent of each element" |x| libm::tanh(x);
    Sqrt = SQRT "sqrt" "square root of each element" f64::sqrt;
    Rsqrt = RSQRT "rsqrt" "reciprocal square root of each element" |x| 1.0 / x.sqrt();
    Neg = NEG "neg" "negation of each element" |x| -x;
    Abs = ABS "abs" "absolute value of each element" f64::abs;
    Relu = RELU "relu" "max(x, 0)" |x| if x > 0.0 || x.is_nan() { x } else { 0.0 };
    Sigmoid = SIGMOID "sigmoid" "1 / (1 + exp(-x))" |x| 1.0 / (1.0 + libm::exp(-x));
    Silu = SILU "silu" "x * sigmoid(x)" |x| x / (1.0 + libm::exp(-x));
    Gelu = GELU "gelu" "exact GeLU: x * (1 + erf(x / sqrt(2))) / 2"
        |x| 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2));
    GeluTanh = GELU_TANH "gelu_tanh" "GeLU's tanh approximation: x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2"
        |x| 0.5 * x * (1.0 + libm::tanh(interp::SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x)));
    FastGelu = FAST_GELU "fast_gelu" "GeLU's tanh approximation evaluated as x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)), AITemplate's and CK's FastGeLU"
        |x| x / (1.0 + libm::exp(-2.0 * (interp::SQRT_2_OVER_PI * (x + 0.044_715 * x * x * x))));
    Erf = ERF "erf" "error function of each element" |x| libm::erf(x);
    Erfc = ERFC "erfc" "complementary error function of each element" |x| libm::erfc(x);
    Sin = SIN "sin" "sine of each element" |x| libm::sin(x);
    Cos = COS "cos" "cosine of each element" |x| libm::cos(x);
    Floor = FLOOR "floor" "largest integer not above each element" f64::floor;
    Ceil = CEIL "ceil" "smallest integer not below each element" f64::ceil;
    RoundEven = ROUND_EVEN "round_even" "nearest integer to each element, halfway cases to even" f64::round_ties_even;
    Log1p = LOG1P "log1p" "log(1 + x) of each element" |x| libm::log1p(x);
    Expm1 = EXPM1 "expm1" "exp(x) - 1 of each element" |x| libm::expm1(x);
}

/// Declares the binary elementwise ops: handle, spec constant, name,
/// summary, traits, the meaning on float elements ([`Float`]) and StableHLO's
/// meaning on integer elements (a row of `crate::kernels`, XLA's rules).
macro_rules! binary_ops {
    ($($Handle:ident = $id:ident $name:literal $summary:literal $traits:expr, $float:expr, $int:expr;)*) => {
        $(
            aic::op! {
                #[doc = concat!("`graph.", $name, "`: ", $summary)]
                pub $Handle = $id {
                    operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
                    results: [result: one(TENSOR)],
                    spec: OpSpec {
                        traits: $traits,
                        format: Some(BINARY_FMT),
                        interpret: Some(|it, op, args| interp::binary(it, op, args, $float, $int)),
                        ..op(concat!("graph.", $name), $summary)
                    },
                }
            }
        )*
        /// The binary elementwise ops.
        pub const BINARY_OPS: &[OpSpec] = &[$($id),*];
        /// The meaning of each binary op on float elements, one row per op.
        const BINARY_FLOAT: &[(&OpSpec, Float)] = &[$((&$id, $float)),*];
    };
}

const COMMUTATIVE: Traits = PURE.with(Traits::COMMUTATIVE);

binary_ops! {
    Add = ADD "add" "elementwise sum" COMMUTATIVE, Float::Arith(&crate::arith::scalar::ADDF), &crate::kernels::ADD;
    Sub = SUB "sub" "elementwise difference" PURE, Float::Arith(&crate::arith::scalar::SUBF), &crate::kernels::SUBTRACT;
    Mul = MUL "mul" "elementwise product" COMMUTATIVE, Float::Arith(&crate::arith::scalar::MULF), &crate::kernels::MULTIPLY;
    Div = DIV "div" "elementwise quotient" PURE, Float::Arith(&crate::arith::scalar::DIVF), &crate::kernels::DIVIDE;
    Max = MAX "max" "elementwise maximum (NaN propagates)" COMMUTATIVE,
        Float::Arith(&crate::arith::scalar::MAXIMUMF), &crate::kernels::MAXIMUM;
    Min = MIN "min" "elementwise minimum (NaN propagates)" COMMUTATIVE,
        Float::Arith(&crate::arith::scalar::MINIMUMF), &crate::kernels::MINIMUM;
    Pow = POW "pow" "elementwise power" PURE, Float::Fn(|a, b| libm::pow(a, b)), &crate::kernels::POWER;
    Rem = REM "rem" "elementwise remainder (the sign of the dividend, as C's fmod and %)" PURE,
        Float::Fn(|a, b| a % b), &crate::kernels::REMAINDER;
    And = AND "and" "elementwise bitwise and (logical on i1)" COMMUTATIVE, Float::None, &crate::kernels::AND;
    Or = OR "or" "elementwise bitwise or (logical on i1)" COMMUTATIVE, Float::None, &crate::kernels::OR;
    Xor = XOR "xor" "elementwise bitwise exclusive or (logical on i1)" COMMUTATIVE, Float::None, &crate::kernels::XOR;
}

use crate::math::fold::libm;

/// The meaning on float elements of the binary elementwise op `name` (what
/// its interpreter hook computes), for folders.
pub fn float_binary(name: &str) -> Option<fn(f64, f64) -> f64> {
    BINARY_FLOAT
        .iter()
        .find(|(s, _)| s.name == name)
        .and_then(|(_, f)| f.function())
}

aic::op! {
    /// `graph.matmul`: `[..., M, K] x [..., K, N] -> [..., M, N]`; the rhs may omit
    /// the batch dimensions (a shared weight). `transpose_a`/`transpose_b` swap the
    /// last two dimensions of an operand first.
    pub Matmul = MATMUL {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            transpose_a: optional(ac::UNIT) as bool,
            transpose_b: optional(ac::UNIT) as bool,
        ],
        spec: OpSpec {
            format: Some(
                "$lhs `,` $rhs (`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)? attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::matmul),
            ..op(
                "graph.matmul",
                "matrix product with optional batch dimensions",
            )
        },
    }
}

/// The wider element type a matrix product of `operand` elements may give
/// (beside `operand` itself): `i32` for signed (or signless) `i8` operands (exact integer
/// accumulation, `mma.sync`'s s8 form), `f32` for the fp8 formats
/// `f8E4M3FN` and `f8E5M2` (wgmma's e4m3/e5m2 forms accumulate in f32).
/// The one rule of mixed-width products: the verifier, the e-graph's type
/// inference and the GEMM lowerings read it.
pub fn widened_product(u: &aic::ir::Uniquer, operand: aic::Type) -> Option<aic::Type> {
    use aic::float::FloatKind;
    match u.type_kind(operand) {
        TypeKind::Integer {
            width: 8,
            signedness: aic::types::Signedness::Signless | aic::types::Signedness::Signed,
        } => Some(u.int_type(32)),
        TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2) => {
            Some(u.ty(TypeKind::Float(FloatKind::F32)))
        }
        _ => None,
    }
}

aic::op! {
    /// `graph.batch_matmul`: `graph.matmul` on rank-3 operands with one batch dimension.
    pub BatchMatmul = BATCH_MATMUL {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::matmul),
            ..op(
                "graph.batch_matmul",
                "batched matrix product: [B, M, K] x [B, K, N]",
            )
        },
    }
}

aic::op! {
    /// `graph.conv2d`: 2-d convolution in `NHWC` (filter `HWIO`) or `NCHW` (filter
    /// `OIHW`) layout with strides, dilations, padding `[top, bottom, left, right]`
    /// and groups.
    pub Conv2d = CONV2D {
        operands: [input: one(TENSOR), filter: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            layout: required(ConvLayout::CONSTRAINT) as ConvLayout,
            strides: required(I64_ARRAY) as Vec<i64>,
            dilations: required(I64_ARRAY) as Vec<i64>,
            padding: required(I64_ARRAY) as Vec<i64>,
            groups: defaulted(I64_ATTR, one_i64) as i64,
        ],
        spec: OpSpec {
            format: Some(
                "$input `,` $filter `,` `layout` `=` $layout `,` `strides` `=` $strides `,` `dilations` `=` $dilations `,` `padding` `=` $padding (`,` `groups` `=` $groups^)? attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::conv2d),
            ..op("graph.conv2d", "2-d convolution")
        },
    }
}

aic::op! {
    /// `graph.bias_add`: `x[..., N] + bias[N]`.
    pub BiasAdd = BIAS_ADD {
        operands: [x: one(TENSOR), bias: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("$x `,` $bias attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::bias_add),
            ..op("graph.bias_add", "adds a bias along the last dimension")
        },
    }
}

aic::op! {
    /// `graph.softmax` along `axis` (negative counts from the end).
    pub Softmax = SOFTMAX {
        operands: [x: one(FLOAT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [axis: defaulted(I64_ATTR, minus_one_i64) as i64],
        spec: OpSpec {
            format: Some(
                "$x (`,` `axis` `=` $axis^)? attr-dict `:` custom<SameOperandsAndResultType>(type($x), type($result))",
            ),
            interpret: Some(interp::softmax),
            ..op("graph.softmax", "softmax along an axis")
        },
    }
}

aic::op! {
    /// `graph.layernorm`: normalise over the trailing dimensions `gamma` spans,
    /// then scale by `gamma` and shift by `beta`.
    pub Layernorm = LAYERNORM {
        operands: [x: one(FLOAT_TENSOR), gamma: one(FLOAT_TENSOR), beta: one(FLOAT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [epsilon: defaulted(F32_ATTR, epsilon_default)],
        spec: OpSpec {
            format: Some("$x `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::layernorm),
            ..op("graph.layernorm", "layer normalisation")
        },
    }
}

aic::op! {
    /// `graph.groupnorm`: `x` of shape `[N, ..., C]` (channels last) with its
    /// `C` channels in `groups` groups of consecutive channels; each group of
    /// each batch element is normalised over all its elements (every dim but
    /// the first and the channels outside the group), then each channel is
    /// scaled by `gamma` and shifted by `beta` (vectors of `C`).
    pub Groupnorm = GROUPNORM {
        operands: [x: one(FLOAT_TENSOR), gamma: one(FLOAT_TENSOR), beta: one(FLOAT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [groups: required(I64_ATTR) as i64, epsilon: defaulted(F32_ATTR, epsilon_default)],
        spec: OpSpec {
            format: Some("$x `,` $gamma `,` $beta `,` `groups` `=` $groups attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::groupnorm),
            ..op("graph.groupnorm", "group normalisation (channels last)")
        },
    }
}

aic::op! {
    /// `graph.rmsnorm`: `x / sqrt(mean(x^2) + epsilon) * gamma` over the trailing
    /// dimensions `gamma` spans.
    pub Rmsnorm = RMSNORM {
        operands: [x: one(FLOAT_TENSOR), gamma: one(FLOAT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [epsilon: defaulted(F32_ATTR, epsilon_default)],
        spec: OpSpec {
            format: Some("$x `,` $gamma attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::rmsnorm),
            ..op("graph.rmsnorm", "root-mean-square normalisation")
        },
    }
}

aic::op! {
    /// `graph.reduce sum|max|min|mean %x, axes = [...]`, optionally `keep_dims`.
    pub Reduce = REDUCE {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            kind: required(ReduceKind::CONSTRAINT) as ReduceKind,
            axes: required(I64_ARRAY) as Vec<i64>,
            keep_dims: optional(ac::UNIT) as bool,
        ],
        spec: OpSpec {
            format: Some(
                "$kind $x `,` `axes` `=` $axes (`keep_dims` $keep_dims^)? attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::reduce),
            ..op("graph.reduce", "reduction over axes")
        },
    }
}

aic::op! {
    /// `graph.transpose %x, perm = [...]`: result dimension `i` is operand dimension `perm[i]`.
    pub Transpose = TRANSPOSE {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [perm: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$x `,` `perm` `=` $perm attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::transpose),
            ..op("graph.transpose", "permutes dimensions")
        },
    }
}

aic::op! {
    /// `graph.reshape`.
    pub Reshape = RESHAPE {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some(FUNCTIONAL_X),
            interpret: Some(interp::reshape),
            ..op("graph.reshape", "same elements, another shape")
        },
    }
}

aic::op! {
    /// `graph.broadcast %x, dims = [...]`: operand dimension `i` becomes result
    /// dimension `dims[i]` (size 1 stretches).
    pub Broadcast = BROADCAST {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [dims: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$x `,` `dims` `=` $dims attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::broadcast),
            ..op("graph.broadcast", "broadcast into a larger shape")
        },
    }
}

aic::op! {
    /// `graph.slice %x [0:2, 1:5:2]`.
    pub Slice = SLICE {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            start: required(I64_ARRAY) as Vec<i64>,
            limit: required(I64_ARRAY) as Vec<i64>,
            strides: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some(
                "$x custom<SliceRanges>($start, $limit, $strides) attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::slice),
            ..op("graph.slice", "strided slice")
        },
    }
}

aic::op! {
    /// `graph.concat %a, %b, axis = 0`.
    pub Concat = CONCAT {
        operands: [inputs: variadic(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [axis: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some(
                "custom<VariadicOperandWithAttribute>($inputs) `axis` `=` $axis attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::concat),
            ..op("graph.concat", "concatenation along an axis")
        },
    }
}

aic::op! {
    /// `graph.split %x, axis = 0`: the result types give the sizes.
    pub Split = SPLIT {
        operands: [x: one(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [axis: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some("$x `,` `axis` `=` $axis attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::split),
            ..op("graph.split", "splits along an axis")
        },
    }
}

aic::op! {
    /// `graph.cast`: element type conversion (StableHLO's `convert` rules).
    pub Cast = CAST {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            traits: PURE.with(Traits::ELEMENTWISE),
            format: Some(FUNCTIONAL_X),
            interpret: Some(interp::cast),
            ..op("graph.cast", "converts the element type")
        },
    }
}

aic::op! {
    /// `graph.not %x`: bitwise complement, logical negation on `i1`.
    pub Not = NOT {
        operands: [x: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            traits: PURE.with(Traits::ELEMENTWISE),
            format: Some(UNARY_FMT),
            interpret: Some(|it, op, args| {
                crate::stablehlo::interp::elementwise::unary(it, op, args, &crate::stablehlo::interp::elementwise::NOT)
            }),
            ..op("graph.not", "elementwise complement")
        },
    }
}

aic::op! {
    /// `graph.compare LT, %a, %b`: an `i1` tensor, StableHLO's `compare`
    /// (floats compare as IEEE: NaN is unequal to everything; integers as
    /// their signedness says, `i1` as unsigned).
    pub Compare = COMPARE {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            direction: required(crate::stablehlo::ComparisonDirection::CONSTRAINT)
                as crate::stablehlo::ComparisonDirection,
        ],
        spec: OpSpec {
            traits: PURE.with(Traits::ELEMENTWISE),
            format: Some("$direction `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::compare),
            ..op("graph.compare", "elementwise comparison")
        },
    }
}

aic::op! {
    /// `graph.select %pred, %a, %b`: `a` where `pred` holds, else `b` (a
    /// rank-0 operand broadcasts).
    pub Select = SELECT {
        operands: [pred: one(TENSOR), on_true: one(TENSOR), on_false: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            traits: PURE.with(Traits::ELEMENTWISE),
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            interpret: Some(crate::stablehlo::interp::elementwise::select),
            ..op("graph.select", "elementwise choice")
        },
    }
}

aic::op! {
    /// `graph.iota dim = 1 : tensor<4x8xi32>`: each element's index along
    /// `dim`.
    pub Iota = IOTA {
        results: [result: one(TENSOR)],
        attributes: [dim: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some("`dim` `=` $dim attr-dict `:` type($result)"),
            interpret: Some(interp::iota),
            ..op("graph.iota", "indices along a dimension")
        },
    }
}

aic::op! {
    /// `graph.constant dense<...> : tensor<...>`.
    pub Constant = CONSTANT {
        results: [result: one(TENSOR)],
        attributes: [value: required(crate::stablehlo::ELEMENTS_ATTR)],
        spec: OpSpec {
            traits: PURE.with(Traits::CONSTANT_LIKE),
            format: Some("attr-dict $value"),
            infer_results: Some(|u, _, attrs| {
                let v = attrs.iter().find(|(k, _)| u.str(*k) == "value")?.1;
                match u.attr_kind(v) {
                    aic::attributes::AttrKind::DenseElements { ty, .. } => Some(vec![*ty]),
                    _ => None,
                }
            }),
            interpret: Some(interp::constant),
            ..op("graph.constant", "a constant tensor")
        },
    }
}

aic::op! {
    /// `graph.pad %x, %value, low = [..], high = [..], interior = [..]`:
    /// `x` with `interior` copies of the rank-0 `value` between neighbouring
    /// elements of each dim and `low`/`high` at its edges (a negative edge
    /// cuts elements off), StableHLO's `pad`.
    pub Pad = PAD {
        operands: [x: one(TENSOR), value: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            edge_padding_low: required(I64_ARRAY) as Vec<i64>,
            edge_padding_high: required(I64_ARRAY) as Vec<i64>,
            interior_padding: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some(
                "$x `,` $value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(crate::stablehlo::interp::pad),
            ..op("graph.pad", "pads at the edges and between elements")
        },
    }
}

aic::op! {
    /// `graph.dynamic_slice %x, %i, %j, sizes = [..]`: the window of `sizes`
    /// of `x` starting at the rank-0 integer starts, each clamped so that the
    /// window fits (StableHLO's `dynamic_slice`).
    pub DynamicSlice = DYNAMIC_SLICE {
        operands: [x: one(TENSOR), start_indices: variadic(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [slice_sizes: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some(
                "$x `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(crate::stablehlo::interp::dynamic_slice),
            ..op("graph.dynamic_slice", "a window at computed starts")
        },
    }
}

aic::op! {
    /// `graph.dynamic_update_slice %x, %update, %i, %j`: `x` with `update`
    /// written at the rank-0 integer starts, each clamped so that it fits
    /// (StableHLO's `dynamic_update_slice`).
    pub DynamicUpdateSlice = DYNAMIC_UPDATE_SLICE {
        operands: [x: one(TENSOR), update: one(TENSOR), start_indices: variadic(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            interpret: Some(crate::stablehlo::interp::dynamic_update_slice),
            ..op("graph.dynamic_update_slice", "writes a window at computed starts")
        },
    }
}

aic::op! {
    /// `graph.gather %x, %indices {dimension_numbers = #stablehlo.gather<..>,
    /// slice_sizes = array<i64: ..>}`: StableHLO's `gather` (slices of `x`
    /// at starts read from `indices`, clamped to fit).
    pub Gather = GATHER {
        operands: [x: one(TENSOR), indices: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            dimension_numbers: required(crate::stablehlo::attrs::GatherDims::CONSTRAINT),
            slice_sizes: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some("$x `,` $indices attr-dict `:` functional-type(operands, results)"),
            interpret: Some(crate::stablehlo::interp::gather),
            ..op("graph.gather", "slices at starts read from a tensor")
        },
    }
}

aic::op! {
    /// `graph.reduce_window sum|max|min %x, %init, window = [..], strides =
    /// [..], dilations = [..], padding = [lo0, hi0, lo1, hi1, ..]`: each
    /// window of `x` (padded with `init`) combined from the rank-0 `init`,
    /// StableHLO's `reduce_window` with an `add`/`maximum`/`minimum` body
    /// (pooling; JAX's `cumsum` on the CPU and GPU).
    pub ReduceWindow = REDUCE_WINDOW {
        operands: [x: one(TENSOR), init: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            kind: required(ReduceKind::CONSTRAINT) as ReduceKind,
            window_dimensions: required(I64_ARRAY) as Vec<i64>,
            window_strides: required(I64_ARRAY) as Vec<i64>,
            window_dilations: required(I64_ARRAY) as Vec<i64>,
            padding: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some(
                "$kind $x `,` $init `,` `window` `=` $window_dimensions `,` `strides` `=` $window_strides `,` `dilations` `=` $window_dilations `,` `padding` `=` $padding attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::reduce_window),
            ..op("graph.reduce_window", "a reduction over each window")
        },
    }
}

aic::op! {
    /// `graph.scatter set|add|max|min %x, %indices, %updates
    /// {scatter_dimension_numbers = #stablehlo.scatter<..>}`: `x` with each
    /// update combined into the element it lands on, in order (StableHLO's
    /// `scatter` of one input; updates out of bounds are skipped).
    pub Scatter = SCATTER {
        operands: [x: one(TENSOR), indices: one(TENSOR), updates: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            kind: required(ScatterKind::CONSTRAINT) as ScatterKind,
            scatter_dimension_numbers: required(crate::stablehlo::attrs::ScatterDims::CONSTRAINT),
        ],
        spec: OpSpec {
            format: Some(
                "$kind $x `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::scatter),
            ..op("graph.scatter", "combines updates into elements at indices read from a tensor")
        },
    }
}

aic::op! {
    /// `graph.sort %keys, %values.., dim = 1 (descending)? (canonical)?`:
    /// every operand reordered along `dim` as a stable sort of the first in
    /// IEEE total order (`-NaN < -inf < .. < -0 < +0 < .. < inf < NaN`;
    /// integers signed) orders it, ascending or descending; `canonical`
    /// compares float keys with `-0` as `+0` and every NaN as `+NaN`, as
    /// JAX's comparator does (StableHLO's `sort` with a `LT` or `GT`
    /// comparator of the first operand: `jnp.sort`, `jnp.argsort`).
    pub Sort = SORT {
        operands: [inputs: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            dimension: required(I64_ATTR) as i64,
            descending: optional(ac::UNIT) as bool,
            canonical: optional(ac::UNIT) as bool,
        ],
        spec: OpSpec {
            format: Some(
                "custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension (`descending` $descending^)? (`canonical` $canonical^)? attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interp::sort),
            ..op("graph.sort", "a stable sort along a dim by the first operand")
        },
    }
}

/// The graph ops that are neither unary nor binary elementwise.
const OTHER_OPS: &[OpSpec] = &[
    MATMUL,
    BATCH_MATMUL,
    SPARSE_MATMUL,
    CONV2D,
    BIAS_ADD,
    SOFTMAX,
    LAYERNORM,
    GROUPNORM,
    RMSNORM,
    REDUCE,
    TRANSPOSE,
    RESHAPE,
    BROADCAST,
    SLICE,
    CONCAT,
    SPLIT,
    CAST,
    NOT,
    COMPARE,
    SELECT,
    IOTA,
    CONSTANT,
    PAD,
    DYNAMIC_SLICE,
    DYNAMIC_UPDATE_SLICE,
    GATHER,
    REDUCE_WINDOW,
    SCATTER,
    SORT,
];

// ---------------------------------------------------------------- semantics

/// The work a graph op does, as fusion and cost models see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Computes each result element from the operand elements at the same
    /// position (a rank-0 operand broadcasts; `bias_add`'s bias repeats).
    Elementwise,
    /// A matrix product or convolution: contracts dimensions of two operands.
    Contraction,
    /// Combines elements along some dimensions (`reduce`, `softmax`, the
    /// normalisations).
    Reduction,
    /// Only re-indexes its operands (a view a kernel absorbs into its
    /// addressing): `broadcast`, `reshape`, `transpose`, `slice`, `concat`.
    View,
    /// Divides its operand into several results (`split`).
    Partition,
    /// A constant (`constant`).
    Constant,
    /// Work fusion and the specialised generators do not model: padding,
    /// data-dependent addressing (`gather`, `scatter`, the dynamic slices),
    /// windows (`reduce_window`) and sorts; a kernel of its own, from the
    /// general generator.
    Irregular,
}

/// One graph op's meaning besides its spec: its shape rule and its class.
pub struct Semantics {
    /// The op.
    pub spec: &'static OpSpec,
    /// The work it does.
    pub class: Class,
    /// Whether it evaluates a transcendental function per element (`exp`,
    /// `tanh`, the activations built on them, `softmax`, the
    /// normalisations): cost models count such an element as several
    /// operations.
    pub transcendental: bool,
    /// Its result shapes from its operand shapes and attributes.
    pub shapes: ShapeFn,
    /// An elementwise op's meaning on one element as arith and math ops
    /// ([`scalar`]), which kernel generators emit; `None` for the other
    /// classes.
    pub scalar: Option<ScalarFn>,
}

const fn row(spec: &'static OpSpec, class: Class, shapes: ShapeFn) -> Semantics {
    Semantics {
        spec,
        class,
        transcendental: false,
        shapes,
        scalar: None,
    }
}

/// A row of an op that evaluates a transcendental function per element.
const fn heavy(spec: &'static OpSpec, class: Class, shapes: ShapeFn) -> Semantics {
    Semantics {
        transcendental: true,
        ..row(spec, class, shapes)
    }
}

/// A row of an elementwise op lowering on one element by `f`.
const fn ew(spec: &'static OpSpec, shapes: ShapeFn, f: ScalarFn) -> Semantics {
    Semantics {
        scalar: Some(f),
        ..row(spec, Elementwise, shapes)
    }
}

/// [`ew`] of an op that evaluates a transcendental function per element.
const fn ew_heavy(spec: &'static OpSpec, f: ScalarFn) -> Semantics {
    Semantics {
        transcendental: true,
        ..ew(spec, shapes::same, f)
    }
}

use Class::{Constant as Const, Contraction, Elementwise, Irregular, Partition, Reduction, View};

/// Every graph op's [`Semantics`], one row per op.
pub static SEMANTICS: &[Semantics] = &[
    ew_heavy(&EXP, s::float_unary::<math::Exp>),
    ew_heavy(&LOG, s::float_unary::<math::Log>),
    ew_heavy(&TANH, s::float_unary::<math::Tanh>),
    ew(&SQRT, shapes::same, s::float_unary::<math::Sqrt>),
    ew(&RSQRT, shapes::same, s::float_unary::<math::Rsqrt>),
    ew(&NEG, shapes::same, s::neg),
    ew(&ABS, shapes::same, s::abs),
    ew(&RELU, shapes::same, s::relu),
    ew_heavy(&SIGMOID, s::sigmoid),
    ew_heavy(&SILU, s::silu),
    ew_heavy(&GELU, s::gelu),
    ew_heavy(&GELU_TANH, s::gelu_tanh),
    ew_heavy(&FAST_GELU, s::fast_gelu),
    ew(&ERF, shapes::same, s::float_unary::<math::Erf>),
    ew(&ERFC, shapes::same, s::float_unary::<math::Erfc>),
    ew_heavy(&SIN, s::float_unary::<math::Sin>),
    ew_heavy(&COS, s::float_unary::<math::Cos>),
    ew(&FLOOR, shapes::same, s::float_unary::<math::Floor>),
    ew(&CEIL, shapes::same, s::float_unary::<math::Ceil>),
    ew(&ROUND_EVEN, shapes::same, s::float_unary::<math::Roundeven>),
    ew_heavy(&LOG1P, s::float_unary::<math::Log1p>),
    ew_heavy(&EXPM1, s::float_unary::<math::Expm1>),
    ew(&ADD, shapes::binary, s::add),
    ew(&SUB, shapes::binary, s::sub),
    ew(&MUL, shapes::binary, s::mul),
    ew(&DIV, shapes::binary, s::div),
    ew(&MAX, shapes::binary, s::max),
    ew(&MIN, shapes::binary, s::min),
    ew(&POW, shapes::binary, s::pow),
    ew(&REM, shapes::binary, s::rem),
    ew(&AND, shapes::binary, s::AND),
    ew(&OR, shapes::binary, s::OR),
    ew(&XOR, shapes::binary, s::XOR),
    row(&MATMUL, Contraction, shapes::matmul),
    row(&BATCH_MATMUL, Contraction, shapes::batch_matmul),
    row(&SPARSE_MATMUL, Contraction, sparse::shapes),
    row(&CONV2D, Contraction, shapes::conv2d),
    ew(&BIAS_ADD, shapes::bias_add, s::bias_add),
    heavy(&SOFTMAX, Reduction, shapes::softmax),
    heavy(&LAYERNORM, Reduction, shapes::norm),
    heavy(&GROUPNORM, Reduction, shapes::groupnorm),
    heavy(&RMSNORM, Reduction, shapes::norm),
    row(&REDUCE, Reduction, shapes::reduce),
    row(&TRANSPOSE, View, shapes::transpose),
    row(&RESHAPE, View, shapes::reshape),
    row(&BROADCAST, View, shapes::broadcast),
    row(&SLICE, View, shapes::slice),
    row(&CONCAT, View, shapes::concat),
    row(&SPLIT, Partition, shapes::split),
    ew(&CAST, shapes::same, s::cast),
    ew(&NOT, shapes::same, s::not),
    ew(&COMPARE, shapes::binary, s::compare),
    ew(&SELECT, shapes::select, s::select),
    row(&IOTA, Const, shapes::constant),
    row(&CONSTANT, Const, shapes::constant),
    row(&PAD, Irregular, shapes::pad),
    row(&DYNAMIC_SLICE, Irregular, shapes::dynamic_slice),
    row(
        &DYNAMIC_UPDATE_SLICE,
        Irregular,
        shapes::dynamic_update_slice,
    ),
    row(&GATHER, Irregular, shapes::gather),
    row(&REDUCE_WINDOW, Irregular, shapes::reduce_window),
    row(&SCATTER, Irregular, shapes::scatter),
    row(&SORT, Irregular, shapes::sort),
];

static BY_NAME: LazyLock<HashMap<&'static str, &'static Semantics>> =
    LazyLock::new(|| SEMANTICS.iter().map(|s| (s.spec.name, s)).collect());

/// The [`Semantics`] of the op named `name`, if it is a graph op.
pub fn semantics(name: &str) -> Option<&'static Semantics> {
    BY_NAME.get(name).copied()
}

/// The `graph` dialect (elementwise ops).
pub static DIALECT: Dialect = Dialect {
    name: "graph",
    description: "AI operators on tensors, the level fusion works on",
    ops: UNARY_OPS,
    materialize_constant: Some(fold::materialize_constant),
};

/// The `graph` dialect (binary elementwise ops).
pub static BINARY: Dialect = Dialect {
    name: "graph",
    description: "AI operators on tensors, the level fusion works on",
    ops: BINARY_OPS,
    materialize_constant: Some(fold::materialize_constant),
};

/// The `graph` dialect (the other ops).
pub static OTHERS: Dialect = Dialect {
    name: "graph",
    description: "AI operators on tensors, the level fusion works on",
    ops: OTHER_OPS,
    materialize_constant: Some(fold::materialize_constant),
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every graph op has one row of semantics, and every row is a graph op.
    #[test]
    fn every_op_has_one_row() {
        let ops: Vec<&str> = [UNARY_OPS, BINARY_OPS, OTHER_OPS]
            .iter()
            .flat_map(|g| g.iter().map(|s| s.name))
            .collect();
        for name in &ops {
            let rows = SEMANTICS.iter().filter(|s| s.spec.name == *name).count();
            assert_eq!(rows, 1, "{name} has {rows} rows");
        }
        assert_eq!(SEMANTICS.len(), ops.len());
        assert_eq!(semantics(MATMUL.name).map(|s| s.class), Some(Contraction));
        assert_eq!(semantics(SLICE.name).map(|s| s.class), Some(View));
        assert!(semantics("arith.addf").is_none());
    }

    /// The widened products: i8 (signless, signed) into i32, e4m3 and e5m2
    /// into f32, nothing else.
    #[test]
    fn widened_products() {
        use aic::float::FloatKind as K;
        use aic::types::Signedness as S;
        let u = aic::ir::Uniquer::default();
        let int = |width, signedness| u.ty(TypeKind::Integer { width, signedness });
        let float = |k| u.ty(TypeKind::Float(k));
        let (i32t, f32t) = (int(32, S::Signless), float(K::F32));
        assert_eq!(widened_product(&u, int(8, S::Signless)), Some(i32t));
        assert_eq!(widened_product(&u, int(8, S::Signed)), Some(i32t));
        assert_eq!(widened_product(&u, int(8, S::Unsigned)), None);
        assert_eq!(widened_product(&u, int(4, S::Signless)), None);
        assert_eq!(widened_product(&u, int(16, S::Signless)), None);
        assert_eq!(widened_product(&u, float(K::F8E4M3FN)), Some(f32t));
        assert_eq!(widened_product(&u, float(K::F8E5M2)), Some(f32t));
        assert_eq!(widened_product(&u, float(K::F8E4M3FNUZ)), None);
        assert_eq!(widened_product(&u, float(K::F16)), None);
    }

    /// The interpreter's i8 x i8 -> i32 product is exact: random bytes
    /// against an i64 product, the extremes included, plain and transposed.
    #[test]
    fn int8_products_interpret_exactly() {
        use aic::interp::{Interp, Tensor};
        let (m, k, n) = (5usize, 67usize, 3usize);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut byte = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            match seed % 8 {
                0 => -128i64,
                1 => 127,
                _ => (seed >> 8) as u8 as i8 as i64,
            }
        };
        let a: Vec<i64> = (0..m * k).map(|_| byte()).collect();
        let b: Vec<i64> = (0..k * n).map(|_| byte()).collect();
        let src = format!(
            "func.func @f(%a: tensor<{m}x{k}xi8>, %b: tensor<{k}x{n}xi8>, %bt: tensor<{n}x{k}xi8>) -> (tensor<{m}x{n}xi32>, tensor<{m}x{n}xi32>) {{
  %0 = graph.matmul %a, %b : (tensor<{m}x{k}xi8>, tensor<{k}x{n}xi8>) -> tensor<{m}x{n}xi32>
  %1 = graph.matmul %a, %bt transpose_b : (tensor<{m}x{k}xi8>, tensor<{n}x{k}xi8>) -> tensor<{m}x{n}xi32>
  return %0, %1 : tensor<{m}x{n}xi32>, tensor<{m}x{n}xi32>
}}"
        );
        let (ia, ib) = (a.clone(), b.clone());
        let got = aic::syntax::with_parser_stack(move || {
            let mut ctx = aic::Context::new(std::sync::Arc::new(crate::all_dialects()));
            let mut sm = aic::SourceMap::new();
            let file = sm.add("s.mlir", src);
            let md = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
            aic::verifier::verify(&ctx, md).expect("verifies");
            let f = ctx
                .block_ops(ctx.entry_block(ctx.regions(md)[0]).unwrap())
                .next()
                .unwrap();
            let (ins, _) = crate::func::function_type(&ctx, f).expect("signature");
            let u = ctx.uniquer().clone();
            let bt: Vec<i64> = (0..n * k).map(|e| ib[(e % k) * n + e / k]).collect();
            let args = vec![
                Tensor::from_i64s(&u, ins[0], ia),
                Tensor::from_i64s(&u, ins[1], ib),
                Tensor::from_i64s(&u, ins[2], bt),
            ];
            let r = Interp::new(&ctx).call(f, args).expect("runs");
            (r[0].to_i64s(), r[1].to_i64s())
        });
        let want: Vec<i64> = (0..m * n)
            .map(|e| (0..k).map(|t| a[(e / n) * k + t] * b[t * n + e % n]).sum())
            .collect();
        assert_eq!(got.0, want);
        assert_eq!(got.1, want);
    }

    /// Handles read their groups by name, typed attributes included, and
    /// builders make ops that verify and print as written.
    #[test]
    fn handles_read_and_build() {
        use aic::op_def::OpHandle;
        let src = "func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %b transpose_b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}"
        .to_string();
        let printed = aic::syntax::with_parser_stack(move || {
            let mut ctx = aic::Context::new(std::sync::Arc::new(crate::all_dialects()));
            let mut sm = aic::SourceMap::new();
            let file = sm.add("s.mlir", src);
            let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
            let (mut mm, mut ret) = (None, None);
            ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
                if let Some(h) = Matmul::of(&ctx, o) {
                    mm = Some(h);
                }
                if crate::func::Return::is(&ctx, o) {
                    ret = Some(o);
                }
            });
            let (mm, ret) = (mm.expect("a matmul"), ret.expect("a return"));
            assert_eq!(mm.transpose_b(&ctx), Some(true));
            assert_eq!(mm.transpose_a(&ctx), None);
            assert!(!Transpose::is(&ctx, mm.op()));
            let x = mm.result(&ctx);
            let t = ctx.uniquer().ty(TypeKind::Tensor {
                shape: [4, 2].into_iter().collect(),
                elem: ctx
                    .uniquer()
                    .ty(TypeKind::Float(aic::float::FloatKind::F32)),
                encoding: None,
            });
            let perm = ctx.uniquer().i64_array(&[1, 0]);
            let mut b = aic::ir::Builder::before(&mut ctx, ret);
            let tr = Transpose::build(&mut b, x, perm, t);
            assert_eq!(tr.perm(&ctx), Some(vec![1, 0]));
            assert_eq!(tr.x(&ctx), x);
            aic::verifier::verify(&ctx, m).expect("verifies");
            aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default())
        });
        assert!(
            printed.contains(
                "graph.transpose %0, perm = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>"
            ),
            "{printed}"
        );
    }
}
