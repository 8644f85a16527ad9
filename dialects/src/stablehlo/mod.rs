//! The `stablehlo` dialect: StableHLO's ops with the pretty syntax JAX and XLA
//! print (`jax.jit(f).lower(...).as_text()`) and the generic form, type
//! inference and the spec's constraints as verifiers (see [`verify`]), and the
//! ops' meaning for the reference interpreter (see [`interp`]).
//!
//! The dialect is declared in parts (see `DialectRegistry::register`): this
//! module's [`DIALECT`] holds the elementwise, constant and shape ops;
//! [`structured::STRUCTURED`] holds the ops with dimension numbers, windows and
//! regions (dot_general, convolution, reduce, gather, scatter, sort, control flow).
//!
//! Dialect attributes (`#stablehlo<comparison_direction LT>`, `#stablehlo.dot<...>`,
//! `#stablehlo.conv<...>`) are typed values: the enums here, the struct
//! attributes in [`attrs`].

pub mod attrs;
pub mod collective;
pub mod dynamic;
pub mod interp;
pub mod linalg;
pub mod quantize;
pub mod structured;
pub mod syntax;
pub mod verify;

use crate::kernels;
use interp::elementwise as el;

use aic::asm::Directive;
use aic::constraints::{I32_ATTR, I64_ARRAY, I64_ATTR};
use aic::dialect::{
    AttrConstraint, AttrSyntax, CustomAsm, Dialect, OpSpec, Traits, TypeConstraint, tc,
};
use aic::ir::Uniquer;
use aic::types::{Signedness, TypeKind};

// ---------------------------------------------------------------- type constraints

/// The element type of a tensor type.
fn tensor_elem<'u>(t: &TypeKind, u: &'u Uniquer) -> Option<&'u TypeKind> {
    match t {
        TypeKind::Tensor { elem, .. } | TypeKind::UnrankedTensor(elem) => Some(u.type_kind(*elem)),
        _ => None,
    }
}

/// `i1`, StableHLO's pred.
pub fn is_pred(k: &TypeKind) -> bool {
    matches!(
        k,
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// A StableHLO integer: signless or unsigned, 2 to 64 bits.
pub fn is_int(k: &TypeKind) -> bool {
    matches!(k, TypeKind::Integer { width, signedness } if matches!(width, 2 | 4 | 8 | 16 | 32 | 64) && *signedness != Signedness::Signed)
}

fn is_float(k: &TypeKind) -> bool {
    matches!(k, TypeKind::Float(_))
}

fn is_complex(k: &TypeKind) -> bool {
    matches!(k, TypeKind::Complex(_))
}

/// A quantized integer (`!quant.uniform<...>`).
fn is_quant(k: &TypeKind) -> bool {
    k.dialect_value::<crate::quant::UniformQuantized>()
        .is_some()
}

macro_rules! tensor_of {
    ($desc:expr, $($pred:ident)|+) => {
        TypeConstraint {
            desc: $desc,
            check: |t, u| tensor_elem(t, u).is_some_and(|e| $($pred(e))||+),
            build: None,
        }
    };
}

/// Any StableHLO tensor.
pub const TENSOR: TypeConstraint = tensor_of!(
    "tensor of pred (AKA boolean or 1-bit integer), integer, floating-point or complex values",
    is_pred | is_int | is_float | is_complex | is_quant
);
const FP_TENSOR: TypeConstraint = tensor_of!("tensor of floating-point values", is_float);
const FP_COMPLEX_TENSOR: TypeConstraint = tensor_of!(
    "tensor of floating-point or complex values",
    is_float | is_complex
);
const INT_TENSOR: TypeConstraint = tensor_of!("tensor of integer values", is_int);
const PRED_INT_TENSOR: TypeConstraint = tensor_of!(
    "tensor of pred (AKA boolean or 1-bit integer) or integer values",
    is_pred | is_int
);
const NUMERIC_TENSOR: TypeConstraint = tensor_of!(
    "tensor of integer, floating-point or complex values",
    is_int | is_float | is_complex
);
const PRED_TENSOR: TypeConstraint = tensor_of!(
    "tensor of pred (AKA boolean or 1-bit integer) values",
    is_pred
);

// ---------------------------------------------------------------- attribute constraints

/// `array<i1: ...>`.
pub const BOOL_ARRAY: AttrConstraint = AttrConstraint {
    desc: "i1 dense array attribute",
    check: |a, _| matches!(a, aic::attributes::AttrKind::DenseArray { .. }),
    syntax: AttrSyntax::Full,
};
/// A string attribute.
pub const STRING_ATTR: AttrConstraint = AttrConstraint {
    desc: "string attribute",
    check: |a, _| matches!(a, aic::attributes::AttrKind::String { .. }),
    syntax: AttrSyntax::Full,
};
/// Dense elements (constants, padding).
pub const ELEMENTS_ATTR: AttrConstraint = AttrConstraint {
    desc: "constant vector/tensor attribute",
    check: |a, _| {
        matches!(
            a,
            aic::attributes::AttrKind::DenseElements { .. }
                | aic::attributes::AttrKind::DenseResource { .. }
        )
    },
    syntax: AttrSyntax::Full,
};
/// Any attribute.
pub const ANY_ATTR: AttrConstraint = AttrConstraint {
    desc: "attribute",
    check: |_, _| true,
    syntax: AttrSyntax::Full,
};

aic::dialect_enum! {
    /// `#stablehlo<comparison_direction LT>`, written `LT`.
    pub enum ComparisonDirection = "stablehlo<comparison_direction ", "Which comparison operation to perform." {
        /// Equal.
        Eq = "EQ",
        /// Not equal.
        Ne = "NE",
        /// Greater or equal.
        Ge = "GE",
        /// Greater.
        Gt = "GT",
        /// Less or equal.
        Le = "LE",
        /// Less.
        Lt = "LT",
    }
}

aic::dialect_enum! {
    /// `#stablehlo<comparison_type FLOAT>`, written `FLOAT`.
    pub enum ComparisonType = "stablehlo<comparison_type ", "Which comparison type to use." {
        /// By the element type.
        NoType = "NOTYPE",
        /// Floating point, NaN unordered.
        Float = "FLOAT",
        /// Floating point in IEEE total order.
        TotalOrder = "TOTALORDER",
        /// Signed integers.
        Signed = "SIGNED",
        /// Unsigned integers.
        Unsigned = "UNSIGNED",
    }
}

aic::dialect_enum! {
    /// `#stablehlo<precision HIGH>`, an operand's precision in a dot or convolution.
    pub enum Precision = "stablehlo<precision ", "Precision config" {
        /// The backend's default.
        Default = "DEFAULT",
        /// Higher.
        High = "HIGH",
        /// The highest.
        Highest = "HIGHEST",
    }
}

/// The attributes of `stablehlo` as values: its enums and its struct attributes
/// (see [`attrs`]).
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "stablehlo",
    parse_type: None,
    parse_attr: Some(|u, body| {
        match ComparisonDirection::parse_attr(body)
            .or_else(|| ComparisonType::parse_attr(body))
            .or_else(|| Precision::parse_attr(body))
            .or_else(|| linalg::FftType::parse_attr(body))
            .or_else(|| linalg::Transpose::parse_attr(body))
        {
            Some(v) => Ok(Some(v)),
            None => attrs::parse_attr(u, body),
        }
    }),
};

// ---------------------------------------------------------------- directives

/// Every custom directive StableHLO's formats use.
pub const DIRECTIVES: &[Directive] = &[
    syntax::SAME_TYPE,
    syntax::SELECT_TYPE,
    syntax::COMPLEX_TYPE,
    syntax::TUPLE_TYPE,
    syntax::PAIRWISE_TYPE,
    syntax::OPERANDS_WITH_ATTRIBUTE,
    syntax::SLICE_RANGES,
    syntax::CONV_DIMS,
    syntax::WINDOW_ATTRS,
    syntax::CUSTOM_CALL_TARGET,
    syntax::PRECISION_CONFIG,
    syntax::PRECISION_AND_ALGORITHM,
    syntax::DOT_DIMS,
    syntax::EXPONENT_MANTISSA,
];

/// Traits of StableHLO's pure ops.
const PURE: Traits = Traits::PURE.with(Traits::NO_MEMORY_EFFECT);
/// Traits of the elementwise ops.
const ELEMENTWISE: Traits = PURE.with(Traits::ELEMENTWISE);
/// Traits of the elementwise ops whose operands and results share one element type.
const SAME_ELEMENT: Traits = ELEMENTWISE.with(Traits::SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE);

/// A StableHLO op: pure, with StableHLO's directives (each op names its
/// verifier and its meaning for the interpreter).
pub const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        traits: PURE,
        directives: DIRECTIVES,
        ..OpSpec::new(name)
    }
}

/// An elementwise StableHLO op: shapes (and, with the trait, element types)
/// agree (see [`verify::elementwise`]).
const fn elementwise_op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        traits: ELEMENTWISE,
        verify: Some(verify::elementwise),
        ..op(name, summary)
    }
}

// ---------------------------------------------------------------- elementwise ops

const UNARY_FMT: &str =
    "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))";
const BINARY_FMT: &str = "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))";

const fn unary(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        traits: SAME_ELEMENT,
        format: Some(UNARY_FMT),
        ..elementwise_op(name, summary)
    }
}

const fn binary(name: &'static str, summary: &'static str, commutative: bool) -> OpSpec {
    OpSpec {
        traits: if commutative {
            SAME_ELEMENT.with(Traits::COMMUTATIVE)
        } else {
            SAME_ELEMENT
        },
        format: Some(BINARY_FMT),
        ..elementwise_op(name, summary)
    }
}

/// Declares the unary elementwise ops with `aic::op!`, each with its scalar
/// meaning (an [`interp::Unary`] row, or a hook of its own); a row whose
/// element types differ names its traits (`, ELEMENTWISE`).
macro_rules! unary_ops {
    ($($Handle:ident = $id:ident $name:literal $summary:literal $operand:ident -> $result:ident, $meaning:expr $(, $traits:expr)?;)*) => {
        $(
            aic::op! {
                #[doc = concat!("`stablehlo.", $name, "`: ", $summary)]
                pub $Handle = $id {
                    operands: [operand: one($operand)],
                    results: [result: one($result)],
                    spec: OpSpec {
                        $(traits: $traits,)?
                        interpret: Some($meaning),
                        ..unary(concat!("stablehlo.", $name), $summary)
                    },
                }
            }
        )*
        /// The unary elementwise ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

/// The hook of a unary op with scalar functions `el::$f`.
macro_rules! un {
    ($f:ident) => {
        |it, op, args| interp::unary(it, op, args, &el::$f)
    };
}

unary_ops! {
    Abs = ABS "abs" "Abs operation" NUMERIC_TENSOR -> NUMERIC_TENSOR, un!(ABS), ELEMENTWISE;
    Cbrt = CBRT "cbrt" "Cbrt operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(CBRT);
    Ceil = CEIL "ceil" "Ceil operation" FP_TENSOR -> FP_TENSOR, un!(CEIL);
    Convert = CONVERT "convert" "Convert operation" TENSOR -> TENSOR, interp::convert, ELEMENTWISE;
    CountLeadingZeros = COUNT_LEADING_ZEROS "count_leading_zeros" "Clz operation" INT_TENSOR -> INT_TENSOR, un!(COUNT_LEADING_ZEROS);
    Cosine = COSINE "cosine" "Cosine operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(COSINE);
    Exponential = EXPONENTIAL "exponential" "Exp operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(EXPONENTIAL);
    ExponentialMinusOne = EXPONENTIAL_MINUS_ONE "exponential_minus_one" "Expm1 operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(EXPONENTIAL_MINUS_ONE);
    Floor = FLOOR "floor" "Floor operation" FP_TENSOR -> FP_TENSOR, un!(FLOOR);
    Imag = IMAG "imag" "Imag operation" FP_COMPLEX_TENSOR -> FP_TENSOR, un!(IMAG), ELEMENTWISE;
    Log = LOG "log" "Log operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(LOG);
    LogPlusOne = LOG_PLUS_ONE "log_plus_one" "Log1p operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(LOG_PLUS_ONE);
    Logistic = LOGISTIC "logistic" "Logistic operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(LOGISTIC);
    Not = NOT "not" "Not operation" PRED_INT_TENSOR -> PRED_INT_TENSOR, un!(NOT);
    Negate = NEGATE "negate" "Neg operation" NUMERIC_TENSOR -> NUMERIC_TENSOR, un!(NEGATE);
    Popcnt = POPCNT "popcnt" "PopulationCount operation" INT_TENSOR -> INT_TENSOR, un!(POPCNT);
    Real = REAL "real" "Real operation" FP_COMPLEX_TENSOR -> FP_TENSOR, un!(REAL), ELEMENTWISE;
    RoundNearestAfz = ROUND_NEAREST_AFZ "round_nearest_afz" "Round operation" FP_TENSOR -> FP_TENSOR, un!(ROUND_NEAREST_AFZ);
    RoundNearestEven = ROUND_NEAREST_EVEN "round_nearest_even" "RoundNearestEven operation" FP_TENSOR -> FP_TENSOR, un!(ROUND_NEAREST_EVEN);
    Rsqrt = RSQRT "rsqrt" "Rsqrt operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(RSQRT);
    Sign = SIGN "sign" "Sign operation" NUMERIC_TENSOR -> NUMERIC_TENSOR, un!(SIGN);
    Sine = SINE "sine" "Sine operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(SINE);
    Sqrt = SQRT "sqrt" "Sqrt operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(SQRT);
    Tan = TAN "tan" "Tan operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(TAN);
    Tanh = TANH "tanh" "Tanh operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR, un!(TANH);
}

aic::op! {
    /// `stablehlo.is_finite`: whether each element is finite.
    pub IsFinite = IS_FINITE {
        operands: [x: one(FP_TENSOR)],
        results: [y: one(PRED_TENSOR)],
        spec: OpSpec {
            traits: ELEMENTWISE,
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            interpret: Some(|it, op, args| interp::predicate(it, op, args, f64::is_finite)),
            ..elementwise_op("stablehlo.is_finite", "IsFinite operation")
        },
    }
}

/// Declares the binary elementwise ops with `aic::op!`, each with its scalar
/// meaning (a [`kernels::Binary`](crate::kernels) row).
macro_rules! binary_ops {
    ($($Handle:ident = $id:ident $name:literal $summary:literal $c:ident $comm:literal;)*) => {
        $(
            aic::op! {
                #[doc = concat!("`stablehlo.", $name, "`: ", $summary)]
                pub $Handle = $id {
                    operands: [lhs: one($c), rhs: one($c)],
                    results: [result: one($c)],
                    spec: OpSpec {
                        interpret: Some(|it, op, args| interp::binary(it, op, args, &kernels::$id)),
                        ..binary(concat!("stablehlo.", $name), $summary, $comm)
                    },
                }
            }
        )*
        /// The binary elementwise ops.
        pub const BINARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

binary_ops! {
    Add = ADD "add" "Add operation" TENSOR true;
    Atan2 = ATAN2 "atan2" "Atan2 operation" FP_COMPLEX_TENSOR false;
    Divide = DIVIDE "divide" "Div operation" NUMERIC_TENSOR false;
    Maximum = MAXIMUM "maximum" "Max operation" TENSOR true;
    Minimum = MINIMUM "minimum" "Min operation" TENSOR true;
    Multiply = MULTIPLY "multiply" "Mul operation" TENSOR true;
    Power = POWER "power" "Power operation" NUMERIC_TENSOR false;
    Remainder = REMAINDER "remainder" "Rem operation" NUMERIC_TENSOR false;
    ShiftLeft = SHIFT_LEFT "shift_left" "ShiftLeft operation" INT_TENSOR false;
    ShiftRightArithmetic = SHIFT_RIGHT_ARITHMETIC "shift_right_arithmetic" "ShiftRightArithmetic operation" INT_TENSOR false;
    ShiftRightLogical = SHIFT_RIGHT_LOGICAL "shift_right_logical" "ShiftRightLogical operation" INT_TENSOR false;
    Subtract = SUBTRACT "subtract" "Subtract operation" NUMERIC_TENSOR false;
    And = AND "and" "And operation" PRED_INT_TENSOR true;
    Or = OR "or" "Or operation" PRED_INT_TENSOR true;
    Xor = XOR "xor" "Xor operation" PRED_INT_TENSOR true;
}

aic::op! {
    /// `stablehlo.complex`: a complex number from real and imaginary parts.
    pub Complex = COMPLEX {
        operands: [lhs: one(FP_TENSOR), rhs: one(FP_TENSOR)],
        results: [result: one(FP_COMPLEX_TENSOR)],
        spec: OpSpec {
            traits: ELEMENTWISE,
            format: Some(
                "operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))",
            ),
            interpret: Some(interp::complex),
            ..elementwise_op("stablehlo.complex", "Complex operation")
        },
    }
}

aic::op! {
    /// `stablehlo.compare`.
    pub Compare = COMPARE {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR)],
        results: [result: one(PRED_TENSOR)],
        attributes: [
            comparison_direction: required(ComparisonDirection::CONSTRAINT) as ComparisonDirection,
            compare_type: optional(ComparisonType::CONSTRAINT) as ComparisonType,
        ],
        spec: OpSpec {
            traits: ELEMENTWISE,
            format: Some(
                "$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict `:` functional-type(operands, results)",
            ),
            verify: Some(verify::compare),
            interpret: Some(interp::compare),
            ..elementwise_op("stablehlo.compare", "Compare operation")
        },
    }
}

aic::op! {
    /// `stablehlo.select`.
    pub Select = SELECT {
        operands: [pred: one(PRED_TENSOR), on_true: one(TENSOR), on_false: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some(
                "operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))",
            ),
            verify: Some(verify::select),
            interpret: Some(interp::select),
            ..op("stablehlo.select", "Select operation")
        },
    }
}

aic::op! {
    /// `stablehlo.clamp`.
    pub Clamp = CLAMP {
        operands: [min: one(TENSOR), operand: one(TENSOR), max: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some(
                "$min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))",
            ),
            verify: Some(verify::clamp),
            interpret: Some(interp::clamp),
            ..op("stablehlo.clamp", "Clamp operation")
        },
    }
}

// ---------------------------------------------------------------- constant and shape ops

aic::op! {
    /// `stablehlo.constant`.
    pub Constant = CONSTANT {
        results: [output: one(tc::ANY)],
        attributes: [value: required(ELEMENTS_ATTR)],
        spec: OpSpec {
            traits: PURE.with(Traits::CONSTANT_LIKE),
            // `%c` for integer constants and `%cst` for the others, as stablehlo-opt names them.
            result_names: Some(|ctx, op| {
                let t = ctx.value_type(ctx.result(op, 0));
                let e = ctx.type_kind(t).element_type().unwrap_or(t);
                let int = matches!(ctx.type_kind(e), TypeKind::Integer { .. } | TypeKind::Index);
                vec![Some(if int { "c" } else { "cst" }.to_string())]
            }),
            custom: Some(CustomAsm {
                parse: |p, st| syntax::parse_constant(p, st, &CONSTANT),
                print: |pr, op| syntax::print_constant(pr, op, &CONSTANT),
            }),
            interpret: Some(interp::constant),
            ..op("stablehlo.constant", "Constant operation")
        },
    }
}

aic::op! {
    /// `stablehlo.iota`.
    pub Iota = IOTA {
        results: [output: one(TENSOR)],
        attributes: [iota_dimension: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some("`dim` `=` $iota_dimension attr-dict `:` type($output)"),
            verify: Some(verify::iota),
            interpret: Some(interp::iota),
            ..op("stablehlo.iota", "Iota operation")
        },
    }
}

aic::op! {
    /// `stablehlo.broadcast_in_dim`.
    pub BroadcastInDim = BROADCAST_IN_DIM {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [broadcast_dimensions: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::broadcast_in_dim),
            interpret: Some(interp::broadcast_in_dim),
            ..op("stablehlo.broadcast_in_dim", "BroadcastInDim operation")
        },
    }
}

aic::op! {
    /// `stablehlo.broadcast`.
    pub Broadcast = BROADCAST {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [broadcast_sizes: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$operand `,` `sizes` `=` $broadcast_sizes attr-dict `:` functional-type(operands, results)"),
            interpret: Some(interp::broadcast),
            ..op("stablehlo.broadcast", "Broadcast operation")
        },
    }
}

aic::op! {
    /// `stablehlo.reshape`.
    pub Reshape = RESHAPE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::reshape),
            interpret: Some(interp::retype_all),
            ..op("stablehlo.reshape", "Reshape operation")
        },
    }
}

aic::op! {
    /// `stablehlo.transpose`.
    pub Transpose = TRANSPOSE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [permutation: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::transpose),
            interpret: Some(interp::transpose),
            ..op("stablehlo.transpose", "Transpose operation")
        },
    }
}

aic::op! {
    /// `stablehlo.reverse`.
    pub Reverse = REVERSE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [dimensions: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$operand `,` `dims` `=` $dimensions attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"),
            verify: Some(verify::reverse),
            interpret: Some(interp::reverse),
            ..op("stablehlo.reverse", "Reverse operation")
        },
    }
}

aic::op! {
    /// `stablehlo.slice`.
    pub Slice = SLICE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            start_indices: required(I64_ARRAY) as Vec<i64>,
            limit_indices: required(I64_ARRAY) as Vec<i64>,
            strides: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some("$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::slice),
            interpret: Some(interp::slice),
            ..op("stablehlo.slice", "Slice operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_slice`.
    pub DynamicSlice = DYNAMIC_SLICE {
        operands: [operand: one(TENSOR), start_indices: variadic(INT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [slice_sizes: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            format: Some("$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::dynamic_slice),
            interpret: Some(interp::dynamic_slice),
            ..op("stablehlo.dynamic_slice", "DynamicSlice operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_update_slice`.
    pub DynamicUpdateSlice = DYNAMIC_UPDATE_SLICE {
        operands: [operand: one(TENSOR), update: one(TENSOR), start_indices: variadic(INT_TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::dynamic_update_slice),
            interpret: Some(interp::dynamic_update_slice),
            ..op("stablehlo.dynamic_update_slice", "DynamicUpdateSlice operation")
        },
    }
}

aic::op! {
    /// `stablehlo.concatenate`.
    pub Concatenate = CONCATENATE {
        operands: [inputs: variadic(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [dimension: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some("custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::concatenate),
            interpret: Some(interp::concatenate),
            ..op("stablehlo.concatenate", "Concatenate operation")
        },
    }
}

aic::op! {
    /// `stablehlo.pad`.
    pub Pad = PAD {
        operands: [operand: one(TENSOR), padding_value: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            edge_padding_low: required(I64_ARRAY) as Vec<i64>,
            edge_padding_high: required(I64_ARRAY) as Vec<i64>,
            interior_padding: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some("$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::pad),
            interpret: Some(interp::pad),
            ..op("stablehlo.pad", "Pad operation")
        },
    }
}

aic::op! {
    /// `stablehlo.bitcast_convert`.
    pub BitcastConvert = BITCAST_CONVERT {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify::bitcast_convert),
            interpret: Some(interp::bitcast_convert),
            ..op("stablehlo.bitcast_convert", "BitcastConvert operation")
        },
    }
}

aic::op! {
    /// `stablehlo.reduce_precision`.
    pub ReducePrecision = REDUCE_PRECISION {
        operands: [operand: one(FP_TENSOR)],
        results: [output: one(FP_TENSOR)],
        attributes: [
            exponent_bits: required(I32_ATTR) as i64,
            mantissa_bits: required(I32_ATTR) as i64,
        ],
        spec: OpSpec {
            traits: SAME_ELEMENT,
            format: Some(
                "$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))",
            ),
            interpret: Some(interp::reduce_precision),
            ..elementwise_op("stablehlo.reduce_precision", "ReducePrecision operation")
        },
    }
}

aic::op! {
    /// `stablehlo.get_dimension_size`.
    pub GetDimensionSize = GET_DIMENSION_SIZE {
        operands: [operand: one(TENSOR)],
        results: [result: one(INT_TENSOR)],
        attributes: [dimension: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some(
                "$operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)",
            ),
            verify: Some(verify::get_dimension_size),
            interpret: Some(interp::get_dimension_size),
            ..op("stablehlo.get_dimension_size", "GetDimensionSize operation")
        },
    }
}

/// Ops of the first part.
pub(crate) const OTHER_OPS: &[OpSpec] = &[
    IS_FINITE,
    COMPLEX,
    COMPARE,
    SELECT,
    CLAMP,
    CONSTANT,
    IOTA,
    BROADCAST_IN_DIM,
    BROADCAST,
    RESHAPE,
    TRANSPOSE,
    REVERSE,
    SLICE,
    DYNAMIC_SLICE,
    DYNAMIC_UPDATE_SLICE,
    CONCATENATE,
    PAD,
    BITCAST_CONVERT,
    REDUCE_PRECISION,
    GET_DIMENSION_SIZE,
];

/// The `stablehlo` dialect (elementwise ops).
pub static DIALECT: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: UNARY_OPS,
    materialize_constant: None,
};

/// The `stablehlo` dialect (binary elementwise ops).
pub static BINARY: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: BINARY_OPS,
    materialize_constant: None,
};

/// The `stablehlo` dialect (constant, compare, select and shape ops).
pub static SHAPE: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OTHER_OPS,
    materialize_constant: None,
};
