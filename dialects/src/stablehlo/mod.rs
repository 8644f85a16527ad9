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
//! `#stablehlo.conv<...>`) are kept as opaque text and read by [`attrs`].

pub mod attrs;
pub mod interp;
pub mod structured;
pub mod syntax;
pub mod verify;

use aic::asm::Directive;
use aic::constraints::{I32_ATTR, I64_ARRAY, I64_ATTR};
use aic::dialect::{
    AttrConstraint, AttrSpec, AttrSyntax, CustomAsm, Dialect, OpSpec, Traits, TypeConstraint,
    ValueSpec, tc,
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
    is_pred | is_int | is_float | is_complex
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

/// The attributes of `stablehlo` as values: its enums (its struct attributes stay
/// text, read by [`attrs`]).
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "stablehlo",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(ComparisonDirection::parse_attr(body)
            .or_else(|| ComparisonType::parse_attr(body))
            .or_else(|| Precision::parse_attr(body)))
    }),
};

/// `#stablehlo.conv<...>`, `#stablehlo.dot<...>`, ... (read by [`attrs`]).
pub const STRUCT_ATTR: AttrConstraint = AttrConstraint {
    desc: "StableHLO struct attribute",
    check: |a, _| matches!(a, aic::attributes::AttrKind::Opaque(_)),
    syntax: AttrSyntax::Full,
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

/// A StableHLO op: the shared verifier (type inference and the spec's
/// constraints, see [`verify`]) and directives.
pub const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        traits: PURE,
        directives: DIRECTIVES,
        verify: Some(verify::verify),
        ..OpSpec::new(name)
    }
}

// ---------------------------------------------------------------- elementwise ops

const UNARY_FMT: &str =
    "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))";
const BINARY_FMT: &str = "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))";

macro_rules! operand {
    ($c:expr) => {
        &[ValueSpec::one("operand", $c)]
    };
}
macro_rules! result {
    ($c:expr) => {
        &[ValueSpec::one("result", $c)]
    };
}
macro_rules! binary_operands {
    ($c:expr) => {
        &[ValueSpec::one("lhs", $c), ValueSpec::one("rhs", $c)]
    };
}

const fn unary(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        traits: SAME_ELEMENT,
        format: Some(UNARY_FMT),
        ..op(name, summary)
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
        ..op(name, summary)
    }
}

/// Generates `pub const NAME: OpSpec = unary(...)` lines; a row whose element
/// types differ names its traits (`, ELEMENTWISE`).
macro_rules! unary_ops {
    ($($id:ident $name:literal $summary:literal $operand:ident -> $result:ident $(, $traits:expr)?;)*) => {
        $(
            #[doc = concat!("`stablehlo.", $name, "`: ", $summary)]
            pub const $id: OpSpec = OpSpec {
                operands: operand!($operand),
                results: result!($result),
                $(traits: $traits,)?
                ..unary(concat!("stablehlo.", $name), $summary)
            };
        )*
        /// The unary elementwise ops.
        pub const UNARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

unary_ops! {
    ABS "abs" "Abs operation" NUMERIC_TENSOR -> NUMERIC_TENSOR, ELEMENTWISE;
    CBRT "cbrt" "Cbrt operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    CEIL "ceil" "Ceil operation" FP_TENSOR -> FP_TENSOR;
    CONVERT "convert" "Convert operation" TENSOR -> TENSOR, ELEMENTWISE;
    COUNT_LEADING_ZEROS "count_leading_zeros" "Clz operation" INT_TENSOR -> INT_TENSOR;
    COSINE "cosine" "Cosine operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    EXPONENTIAL "exponential" "Exp operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    EXPONENTIAL_MINUS_ONE "exponential_minus_one" "Expm1 operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    FLOOR "floor" "Floor operation" FP_TENSOR -> FP_TENSOR;
    IMAG "imag" "Imag operation" FP_COMPLEX_TENSOR -> FP_TENSOR, ELEMENTWISE;
    LOG "log" "Log operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    LOG_PLUS_ONE "log_plus_one" "Log1p operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    LOGISTIC "logistic" "Logistic operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    NOT "not" "Not operation" PRED_INT_TENSOR -> PRED_INT_TENSOR;
    NEGATE "negate" "Neg operation" NUMERIC_TENSOR -> NUMERIC_TENSOR;
    POPCNT "popcnt" "PopulationCount operation" INT_TENSOR -> INT_TENSOR;
    REAL "real" "Real operation" FP_COMPLEX_TENSOR -> FP_TENSOR, ELEMENTWISE;
    ROUND_NEAREST_AFZ "round_nearest_afz" "Round operation" FP_TENSOR -> FP_TENSOR;
    ROUND_NEAREST_EVEN "round_nearest_even" "RoundNearestEven operation" FP_TENSOR -> FP_TENSOR;
    RSQRT "rsqrt" "Rsqrt operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    SIGN "sign" "Sign operation" NUMERIC_TENSOR -> NUMERIC_TENSOR;
    SINE "sine" "Sine operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    SQRT "sqrt" "Sqrt operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    TAN "tan" "Tan operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
    TANH "tanh" "Tanh operation" FP_COMPLEX_TENSOR -> FP_COMPLEX_TENSOR;
}

aic::op! {
    /// `stablehlo.is_finite`: whether each element is finite.
    pub IsFinite = IS_FINITE {
        operands: [x: one(FP_TENSOR)],
        results: [y: one(PRED_TENSOR)],
        spec: OpSpec {
            traits: ELEMENTWISE,
            format: Some("operands attr-dict `:` functional-type(operands, results)"),
            ..op("stablehlo.is_finite", "IsFinite operation")
        },
    }
}

macro_rules! binary_ops {
    ($($id:ident $name:literal $summary:literal $c:ident $comm:literal;)*) => {
        $(
            #[doc = concat!("`stablehlo.", $name, "`: ", $summary)]
            pub const $id: OpSpec = OpSpec {
                operands: binary_operands!($c),
                results: result!($c),
                ..binary(concat!("stablehlo.", $name), $summary, $comm)
            };
        )*
        /// The binary elementwise ops.
        pub const BINARY_OPS: &[OpSpec] = &[$($id),*];
    };
}

binary_ops! {
    ADD "add" "Add operation" TENSOR true;
    ATAN2 "atan2" "Atan2 operation" FP_COMPLEX_TENSOR false;
    DIVIDE "divide" "Div operation" NUMERIC_TENSOR false;
    MAXIMUM "maximum" "Max operation" TENSOR true;
    MINIMUM "minimum" "Min operation" TENSOR true;
    MULTIPLY "multiply" "Mul operation" TENSOR true;
    POWER "power" "Power operation" NUMERIC_TENSOR false;
    REMAINDER "remainder" "Rem operation" NUMERIC_TENSOR false;
    SHIFT_LEFT "shift_left" "ShiftLeft operation" INT_TENSOR false;
    SHIFT_RIGHT_ARITHMETIC "shift_right_arithmetic" "ShiftRightArithmetic operation" INT_TENSOR false;
    SHIFT_RIGHT_LOGICAL "shift_right_logical" "ShiftRightLogical operation" INT_TENSOR false;
    SUBTRACT "subtract" "Subtract operation" NUMERIC_TENSOR false;
    AND "and" "And operation" PRED_INT_TENSOR true;
    OR "or" "Or operation" PRED_INT_TENSOR true;
    XOR "xor" "Xor operation" PRED_INT_TENSOR true;
}

/// `stablehlo.complex`: a complex number from real and imaginary parts.
pub const COMPLEX: OpSpec = OpSpec {
    operands: binary_operands!(FP_TENSOR),
    results: result!(FP_COMPLEX_TENSOR),
    traits: ELEMENTWISE,
    format: Some(
        "operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))",
    ),
    ..op("stablehlo.complex", "Complex operation")
};

/// `stablehlo.compare`.
pub const COMPARE: OpSpec = OpSpec {
    operands: binary_operands!(TENSOR),
    results: result!(PRED_TENSOR),
    attributes: &[
        AttrSpec::required("comparison_direction", ComparisonDirection::CONSTRAINT),
        AttrSpec::optional("compare_type", ComparisonType::CONSTRAINT),
    ],
    traits: ELEMENTWISE,
    format: Some(
        "$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? attr-dict `:` functional-type(operands, results)",
    ),
    ..op("stablehlo.compare", "Compare operation")
};

/// `stablehlo.select`.
pub const SELECT: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("pred", PRED_TENSOR),
        ValueSpec::one("on_true", TENSOR),
        ValueSpec::one("on_false", TENSOR),
    ],
    results: result!(TENSOR),
    format: Some(
        "operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))",
    ),
    ..op("stablehlo.select", "Select operation")
};

/// `stablehlo.clamp`.
pub const CLAMP: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("min", TENSOR),
        ValueSpec::one("operand", TENSOR),
        ValueSpec::one("max", TENSOR),
    ],
    results: result!(TENSOR),
    format: Some(
        "$min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))",
    ),
    ..op("stablehlo.clamp", "Clamp operation")
};

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
            ..op("stablehlo.constant", "Constant operation")
        },
    }
}

aic::op! {
    /// `stablehlo.iota`.
    pub Iota = IOTA {
        results: [output: one(TENSOR)],
        attributes: [iota_dimension: required(I64_ATTR)],
        spec: OpSpec {
            format: Some("`dim` `=` $iota_dimension attr-dict `:` type($output)"),
            ..op("stablehlo.iota", "Iota operation")
        },
    }
}

/// A shape op: one tensor result, the given operands, attributes and format.
macro_rules! shape_op {
    ($name:literal, $summary:literal, $operands:expr, $attrs:expr, $format:literal $(,)?) => {
        OpSpec {
            operands: $operands,
            results: result!(TENSOR),
            attributes: $attrs,
            format: Some($format),
            ..op($name, $summary)
        }
    };
}

/// `stablehlo.broadcast_in_dim`.
pub const BROADCAST_IN_DIM: OpSpec = shape_op!(
    "stablehlo.broadcast_in_dim",
    "BroadcastInDim operation",
    operand!(TENSOR),
    &[AttrSpec::required("broadcast_dimensions", I64_ARRAY)],
    "$operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.broadcast`.
pub const BROADCAST: OpSpec = shape_op!(
    "stablehlo.broadcast",
    "Broadcast operation",
    operand!(TENSOR),
    &[AttrSpec::required("broadcast_sizes", I64_ARRAY)],
    "$operand `,` `sizes` `=` $broadcast_sizes attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.reshape`.
pub const RESHAPE: OpSpec = shape_op!(
    "stablehlo.reshape",
    "Reshape operation",
    operand!(TENSOR),
    &[],
    "operands attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.transpose`.
pub const TRANSPOSE: OpSpec = shape_op!(
    "stablehlo.transpose",
    "Transpose operation",
    operand!(TENSOR),
    &[AttrSpec::required("permutation", I64_ARRAY)],
    "$operand `,` `dims` `=` $permutation attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.reverse`.
pub const REVERSE: OpSpec = shape_op!(
    "stablehlo.reverse",
    "Reverse operation",
    operand!(TENSOR),
    &[AttrSpec::required("dimensions", I64_ARRAY)],
    "$operand `,` `dims` `=` $dimensions attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))",
);
/// `stablehlo.slice`.
pub const SLICE: OpSpec = shape_op!(
    "stablehlo.slice",
    "Slice operation",
    operand!(TENSOR),
    &[
        AttrSpec::required("start_indices", I64_ARRAY),
        AttrSpec::required("limit_indices", I64_ARRAY),
        AttrSpec::required("strides", I64_ARRAY),
    ],
    "$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.dynamic_slice`.
pub const DYNAMIC_SLICE: OpSpec = shape_op!(
    "stablehlo.dynamic_slice",
    "DynamicSlice operation",
    &[
        ValueSpec::one("operand", TENSOR),
        ValueSpec::variadic("start_indices", INT_TENSOR),
    ],
    &[AttrSpec::required("slice_sizes", I64_ARRAY)],
    "$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.dynamic_update_slice`.
pub const DYNAMIC_UPDATE_SLICE: OpSpec = shape_op!(
    "stablehlo.dynamic_update_slice",
    "DynamicUpdateSlice operation",
    &[
        ValueSpec::one("operand", TENSOR),
        ValueSpec::one("update", TENSOR),
        ValueSpec::variadic("start_indices", INT_TENSOR),
    ],
    &[],
    "operands attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.concatenate`.
pub const CONCATENATE: OpSpec = shape_op!(
    "stablehlo.concatenate",
    "Concatenate operation",
    &[ValueSpec::variadic("inputs", TENSOR)],
    &[AttrSpec::required("dimension", I64_ATTR)],
    "custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.pad`.
pub const PAD: OpSpec = shape_op!(
    "stablehlo.pad",
    "Pad operation",
    &[
        ValueSpec::one("operand", TENSOR),
        ValueSpec::one("padding_value", TENSOR),
    ],
    &[
        AttrSpec::required("edge_padding_low", I64_ARRAY),
        AttrSpec::required("edge_padding_high", I64_ARRAY),
        AttrSpec::required("interior_padding", I64_ARRAY),
    ],
    "$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.bitcast_convert`.
pub const BITCAST_CONVERT: OpSpec = shape_op!(
    "stablehlo.bitcast_convert",
    "BitcastConvert operation",
    operand!(TENSOR),
    &[],
    "operands attr-dict `:` functional-type(operands, results)",
);
/// `stablehlo.reduce_precision`.
pub const REDUCE_PRECISION: OpSpec = OpSpec {
    operands: operand!(FP_TENSOR),
    results: &[ValueSpec::one("output", FP_TENSOR)],
    attributes: &[
        AttrSpec::required("exponent_bits", I32_ATTR),
        AttrSpec::required("mantissa_bits", I32_ATTR),
    ],
    traits: SAME_ELEMENT,
    format: Some(
        "$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))",
    ),
    ..op("stablehlo.reduce_precision", "ReducePrecision operation")
};
/// `stablehlo.get_dimension_size`.
pub const GET_DIMENSION_SIZE: OpSpec = OpSpec {
    operands: operand!(TENSOR),
    results: result!(INT_TENSOR),
    attributes: &[AttrSpec::required("dimension", I64_ATTR)],
    format: Some(
        "$operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)",
    ),
    ..op("stablehlo.get_dimension_size", "GetDimensionSize operation")
};

/// Ops of the first part.
const OTHER_OPS: &[OpSpec] = &[
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
