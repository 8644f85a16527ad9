//! The `arith` dialect with exactly MLIR 22's syntax: integer and floating-point
//! arithmetic, comparisons, `select`, casts and `constant`, with the `fastmath`,
//! integer-overflow, `exact` and rounding-mode flags, and MLIR's folders and
//! canonicalization patterns.

pub mod types;

pub mod bounds;
pub mod build;
mod canon;
mod fold;
mod interp;
pub mod scalar;
use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::dialect::{
    AttrConstraint, AttrSyntax, BitEnum, CustomAsm, Dialect, OpSpec, Traits, ac, tc,
};
use aic::ir::{Context, Op, OpState, Uniquer};
use aic::op_def::OpHandle;
use aic::op_printer::OpPrinter;
use aic::syntax::parser::OpParser;
use aic::types::{Type, TypeKind};
use aic::verifier::{op_error, quoted_type};
use types::*;

type R<T> = Result<T, Diagnostic>;

// ---------------------------------------------------------------- attributes

/// `#arith.fastmath<...>`: floating-point fast-math flags.
pub static FASTMATH: BitEnum = BitEnum {
    attr: "arith.fastmath",
    none: "none",
    bits: &[
        ("reassoc", 1),
        ("nnan", 2),
        ("ninf", 4),
        ("nsz", 8),
        ("arcp", FASTMATH_ARCP),
        ("contract", 32),
        ("afn", FASTMATH_AFN),
    ],
    groups: &[("fast", 127)],
    separator: ",",
};

/// The `arcp` bit of [`FASTMATH`]: a quotient may be a product with a reciprocal.
pub const FASTMATH_ARCP: u32 = 16;
/// The `afn` bit of [`FASTMATH`]: functions may be approximated.
pub const FASTMATH_AFN: u32 = 64;

/// `#arith.overflow<...>`: integer overflow flags.
pub static OVERFLOW: BitEnum = BitEnum {
    attr: "arith.overflow",
    none: "none",
    bits: &[("nsw", 1), ("nuw", 2)],
    groups: &[],
    separator: ", ",
};

/// The attributes of `arith` as values: its bit enums.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "arith",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(FASTMATH
            .parse_attr(body)
            .or_else(|| OVERFLOW.parse_attr(body)))
    }),
};

/// `arith.cmpi` predicates, by value.
pub const CMPI_PREDICATES: &[&str] = &[
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// `arith.cmpf` predicates, by value.
pub const CMPF_PREDICATES: &[&str] = &[
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// Rounding modes of `arith.truncf`, by value.
pub const ROUNDING_MODES: &[&str] = &[
    "to_nearest_even",
    "downward",
    "upward",
    "toward_zero",
    "to_nearest_away",
];

/// The `fastmath` attribute constraint (MLIR's `Arith_FastMathAttr`), shared
/// with the `math` dialect's ops.
pub const FASTMATH_ATTR: AttrConstraint = AttrConstraint {
    desc: "Floating point fast math flags",
    check: |a, _| FASTMATH.bits_of(a).is_some(),
    syntax: AttrSyntax::BitEnum(&FASTMATH),
};

const OVERFLOW_ATTR: AttrConstraint = AttrConstraint {
    desc: "Integer overflow arith flags",
    check: |a, _| OVERFLOW.bits_of(a).is_some(),
    syntax: AttrSyntax::BitEnum(&OVERFLOW),
};

fn enum_value(a: &AttrKind, u: &Uniquer, width: u32, cases: usize) -> bool {
    matches!(a, AttrKind::Integer { value, ty }
        if *ty == u.int_type(width) && (0..cases as i128).contains(value))
}

const CMPI_PREDICATE: AttrConstraint = AttrConstraint {
    desc: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
    check: |a, u| enum_value(a, u, 64, CMPI_PREDICATES.len()),
    syntax: AttrSyntax::Enum(|u| u.int_type(64), CMPI_PREDICATES),
};

const CMPF_PREDICATE: AttrConstraint = AttrConstraint {
    desc: "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
    check: |a, u| enum_value(a, u, 64, CMPF_PREDICATES.len()),
    syntax: AttrSyntax::Enum(|u| u.int_type(64), CMPF_PREDICATES),
};

const ROUNDING_MODE: AttrConstraint = AttrConstraint {
    desc: "Floating point rounding mode",
    check: |a, u| enum_value(a, u, 32, ROUNDING_MODES.len()),
    syntax: AttrSyntax::Enum(|u| u.int_type(32), ROUNDING_MODES),
};

/// A typed attribute (MLIR's `TypedAttrInterface`).
const TYPED_ATTR: AttrConstraint = AttrConstraint {
    desc: "TypedAttr instance",
    check: |a, _| {
        matches!(
            a,
            AttrKind::Integer { .. }
                | AttrKind::Float { .. }
                | AttrKind::String { .. }
                | AttrKind::DenseElements { .. }
                | AttrKind::DenseResource { .. }
                | AttrKind::Opaque(_)
        )
    },
    syntax: AttrSyntax::Full,
};

/// `#arith.fastmath<none>`, the default of every `fastmath` attribute.
pub fn fastmath_none(u: &Uniquer) -> Attr {
    FASTMATH.attr(u, 0)
}

fn overflow_none(u: &Uniquer) -> Attr {
    OVERFLOW.attr(u, 0)
}

/// The type of a typed attribute (`none` for an untyped string).
pub fn attr_type(u: &Uniquer, a: Attr) -> Option<Type> {
    match u.attr_kind(a) {
        AttrKind::Integer { ty, .. }
        | AttrKind::Float { ty, .. }
        | AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseResource { ty, .. } => Some(*ty),
        AttrKind::String { ty, .. } => Some(ty.unwrap_or_else(|| u.ty(TypeKind::None))),
        _ => None,
    }
}

/// The integer an `arith.constant` scalar `v` holds (an index or an
/// integer that fits i64), if one makes it.
pub fn constant_int(ctx: &Context, v: aic::ir::Value) -> Option<i64> {
    let a = Constant::defining(ctx, v)?.value(ctx)?;
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// The number an `arith.constant` scalar `v` holds (a float, an integer or
/// a bool), if one makes it.
pub fn constant_number(ctx: &Context, v: aic::ir::Value) -> Option<f64> {
    let a = Constant::defining(ctx, v)?.value(ctx)?;
    match ctx.attr_kind(a) {
        AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
            TypeKind::Float(k) => Some(k.to_f64(*bits)),
            _ => None,
        },
        AttrKind::Integer { value, .. } => Some(*value as f64),
        AttrKind::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

// ---------------------------------------------------------------- op specs

/// Traits of every arith op: elementwise-mappable over vectors and tensors.
const ARITH: Traits = Traits::ELEMENTWISE;
/// Binary and unary arithmetic: one type throughout.
const ARITH_SAME: Traits = ARITH.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE);

const BINARY_FORMAT: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const OVERFLOW_FORMAT: &str =
    "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)";
const EXACT_FORMAT: &str = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)";
const FLOAT_FORMAT: &str = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)";

/// An op's folder and interpreter, both reading its scalar row
/// ([`scalar`]): made by [`int_hooks!`] and [`float_hooks!`].
struct Hooks {
    fold: aic::rewrite::FoldFn,
    interpret: aic::interp::InterpretFn,
}

/// The hooks of integer binary op `$h` with scalar row `$row` and,
/// optionally, its folds through the operands' defining ops.
macro_rules! int_hooks {
    ($h:ident, $row:expr) => {
        int_hooks!(@ $h, $row, None)
    };
    ($h:ident, $row:expr, $defs:expr) => {
        int_hooks!(@ $h, $row, Some($defs))
    };
    (@ $h:ident, $row:expr, $defs:expr) => {
        Hooks {
            fold: |ctx, op, consts| {
                let operands = [$h(op).lhs(ctx), $h(op).rhs(ctx)];
                fold::int_binary(ctx, op, consts, operands, &$row, $defs)
            },
            interpret: |it, op, args| interp::int_binary(it, op, args, &$row),
        }
    };
}

/// The hooks of float binary op `$h` with scalar row `$row` and, optionally,
/// a test of its right operand that folds the op to that operand.
macro_rules! float_hooks {
    ($h:ident, $row:expr) => {
        float_hooks!(@ $h, $row, None)
    };
    ($h:ident, $row:expr, $absorbs:expr) => {
        float_hooks!(@ $h, $row, Some($absorbs))
    };
    (@ $h:ident, $row:expr, $absorbs:expr) => {
        Hooks {
            fold: |ctx, op, consts| {
                let operands = [$h(op).lhs(ctx), $h(op).rhs(ctx)];
                fold::float_binary(ctx, op, consts, operands, &$row, $absorbs)
            },
            interpret: |it, op, args| interp::float_binary(it, op, args, &$row),
        }
    };
}

/// An integer binary op (`Arith_IntBinaryOp`).
const fn int_binary(
    name: &'static str,
    summary: &'static str,
    traits: Traits,
    hooks: Hooks,
) -> OpSpec {
    OpSpec {
        summary,
        // Every arith op is free of memory effects (MLIR's `NoMemoryEffect`), even
        // those not speculatable (division).
        traits: traits.with(ARITH_SAME).with(Traits::NO_MEMORY_EFFECT),
        format: Some(BINARY_FORMAT),
        fold: Some(hooks.fold),
        interpret: Some(hooks.interpret),
        ..OpSpec::new(name)
    }
}

/// An integer binary op with overflow flags (`Arith_IntBinaryOpWithOverflowFlags`).
const fn int_overflow(
    name: &'static str,
    summary: &'static str,
    traits: Traits,
    hooks: Hooks,
) -> OpSpec {
    OpSpec {
        format: Some(OVERFLOW_FORMAT),
        ..int_binary(name, summary, traits.with(Traits::PURE), hooks)
    }
}

/// An integer binary op with an `exact` flag (`Arith_IntBinaryOpWithExactFlag`).
const fn int_exact(
    name: &'static str,
    summary: &'static str,
    traits: Traits,
    hooks: Hooks,
) -> OpSpec {
    OpSpec {
        format: Some(EXACT_FORMAT),
        ..int_binary(name, summary, traits, hooks)
    }
}

/// A float binary op with fast-math flags (`Arith_FloatBinaryOp`).
const fn float_binary(
    name: &'static str,
    summary: &'static str,
    traits: Traits,
    hooks: Hooks,
) -> OpSpec {
    OpSpec {
        summary,
        traits: traits.with(ARITH_SAME).with(Traits::PURE),
        format: Some(FLOAT_FORMAT),
        fold: Some(hooks.fold),
        interpret: Some(hooks.interpret),
        ..OpSpec::new(name)
    }
}

const P: Traits = Traits::PURE;
const PC: Traits = Traits::PURE.with(Traits::COMMUTATIVE);
const C: Traits = Traits::COMMUTATIVE;
const N: Traits = Traits::NONE;

/// Declares the ops of one family: the family's groups (in braces), then one
/// row per op, `Handle = CONSTANT: spec;`.
macro_rules! family {
    ($groups:tt; $($(#[$m:meta])* $handle:ident = $spec_const:ident: $spec:expr;)*) => {
        $(family!(@op $groups $(#[$m])* $handle $spec_const $spec);)*
    };
    (@op {$($groups:tt)*} $(#[$m:meta])* $handle:ident $spec_const:ident $spec:expr) => {
        aic::op! {
            $(#[$m])*
            pub $handle = $spec_const {
                $($groups)*
                spec: $spec,
            }
        }
    };
}

family! {
    {
        operands: [
            lhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
            rhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
        results: [result: one(SIGNLESS_INT_OR_INDEX_LIKE)],
        attributes: [overflow_flags = "overflowFlags": defaulted(OVERFLOW_ATTR, overflow_none)],
    };
    /// `arith.addi`
    AddI = ADDI: OpSpec {
        canonicalize: canon::ADDI,
        ..int_overflow("arith.addi", "integer addition operation", C, int_hooks!(AddI, scalar::ADDI, fold::addi_defs))
    };
    /// `arith.subi`
    SubI = SUBI: OpSpec {
        canonicalize: canon::SUBI,
        ..int_overflow("arith.subi", "Integer subtraction operation.", N, int_hooks!(SubI, scalar::SUBI, fold::subi_defs))
    };
    /// `arith.muli`
    MulI = MULI: OpSpec {
        canonicalize: canon::MULI,
        ..int_overflow("arith.muli", "Integer multiplication operation.", C, int_hooks!(MulI, scalar::MULI))
    };
    /// `arith.shli`
    ShLI = SHLI: int_overflow("arith.shli", "integer left-shift", N, int_hooks!(ShLI, scalar::SHLI));
}

family! {
    {
        operands: [
            lhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
            rhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
        results: [result: one(SIGNLESS_INT_OR_INDEX_LIKE)],
        attributes: [is_exact = "isExact": optional(ac::UNIT)],
    };
    /// `arith.divui`
    DivUI = DIVUI: int_exact("arith.divui", "unsigned integer division operation", N, int_hooks!(DivUI, scalar::DIVUI, fold::divui_defs));
    /// `arith.divsi`
    DivSI = DIVSI: int_exact("arith.divsi", "signed integer division operation", N, int_hooks!(DivSI, scalar::DIVSI, fold::divsi_defs));
    /// `arith.shrui`
    ShRUI = SHRUI: int_exact("arith.shrui", "unsigned integer right-shift", P, int_hooks!(ShRUI, scalar::SHRUI));
    /// `arith.shrsi`
    ShRSI = SHRSI: int_exact("arith.shrsi", "signed integer right-shift", P, int_hooks!(ShRSI, scalar::SHRSI));
}

family! {
    {
        operands: [
            lhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
            rhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
        results: [result: one(SIGNLESS_INT_OR_INDEX_LIKE)],
    };
    /// `arith.ceildivui`
    CeilDivUI = CEILDIVUI: int_binary(
        "arith.ceildivui",
        "unsigned ceil integer division operation",
        N, int_hooks!(CeilDivUI, scalar::CEILDIVUI));
    /// `arith.ceildivsi`
    CeilDivSI = CEILDIVSI: int_binary(
        "arith.ceildivsi",
        "signed ceil integer division operation",
        N, int_hooks!(CeilDivSI, scalar::CEILDIVSI));
    /// `arith.floordivsi`
    FloorDivSI = FLOORDIVSI: int_binary(
        "arith.floordivsi",
        "signed floor integer division operation",
        N, int_hooks!(FloorDivSI, scalar::FLOORDIVSI));
    /// `arith.remui`
    RemUI = REMUI: int_binary(
        "arith.remui",
        "unsigned integer division remainder operation",
        N, int_hooks!(RemUI, scalar::REMUI));
    /// `arith.remsi`
    RemSI = REMSI: int_binary(
        "arith.remsi",
        "signed integer division remainder operation",
        N, int_hooks!(RemSI, scalar::REMSI));
    /// `arith.andi`
    AndI = ANDI: OpSpec {
        canonicalize: canon::ANDI,
        ..int_binary("arith.andi", "integer binary and", PC, int_hooks!(AndI, scalar::ANDI, fold::andi_defs))
    };
    /// `arith.ori`
    OrI = ORI: OpSpec {
        canonicalize: canon::ORI,
        ..int_binary("arith.ori", "integer binary or", PC, int_hooks!(OrI, scalar::ORI, fold::ori_defs))
    };
    /// `arith.xori`
    XOrI = XORI: OpSpec {
        canonicalize: canon::XORI,
        ..int_binary("arith.xori", "integer binary xor", PC, int_hooks!(XOrI, scalar::XORI, fold::xori_defs))
    };
    /// `arith.maxsi`
    MaxSI = MAXSI: int_binary("arith.maxsi", "signed integer maximum operation", PC, int_hooks!(MaxSI, scalar::MAXSI));
    /// `arith.maxui`
    MaxUI = MAXUI: int_binary("arith.maxui", "unsigned integer maximum operation", PC, int_hooks!(MaxUI, scalar::MAXUI));
    /// `arith.minsi`
    MinSI = MINSI: int_binary("arith.minsi", "signed integer minimum operation", PC, int_hooks!(MinSI, scalar::MINSI));
    /// `arith.minui`
    MinUI = MINUI: int_binary("arith.minui", "unsigned integer minimum operation", PC, int_hooks!(MinUI, scalar::MINUI));
}

family! {
    {
        operands: [lhs: one(FLOAT_LIKE), rhs: one(FLOAT_LIKE)],
        results: [result: one(FLOAT_LIKE)],
        attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
    };
    /// `arith.addf`
    AddF = ADDF: float_binary("arith.addf", "floating point addition operation", C, float_hooks!(AddF, scalar::ADDF));
    /// `arith.subf`
    SubF = SUBF: float_binary("arith.subf", "floating point subtraction operation", N, float_hooks!(SubF, scalar::SUBF));
    /// `arith.mulf`
    MulF = MULF: OpSpec {
        canonicalize: canon::MULF,
        ..float_binary("arith.mulf", "floating point multiplication operation", C, float_hooks!(MulF, scalar::MULF, fold::mulf_absorbs))
    };
    /// `arith.divf`
    DivF = DIVF: OpSpec {
        canonicalize: canon::DIVF,
        ..float_binary("arith.divf", "floating point division operation", N, float_hooks!(DivF, scalar::DIVF))
    };
    /// `arith.remf`
    RemF = REMF: float_binary(
        "arith.remf",
        "floating point division remainder operation",
        N, float_hooks!(RemF, scalar::REMF));
    /// `arith.maximumf`
    MaximumF = MAXIMUMF: float_binary("arith.maximumf", "floating-point maximum operation", C, float_hooks!(MaximumF, scalar::MAXIMUMF));
    /// `arith.maxnumf`
    MaxNumF = MAXNUMF: float_binary("arith.maxnumf", "floating-point maximum operation", C, float_hooks!(MaxNumF, scalar::MAXNUMF));
    /// `arith.minimumf`
    MinimumF = MINIMUMF: float_binary("arith.minimumf", "floating-point minimum operation", C, float_hooks!(MinimumF, scalar::MINIMUMF));
    /// `arith.minnumf`
    MinNumF = MINNUMF: float_binary("arith.minnumf", "floating-point minimum operation", C, float_hooks!(MinNumF, scalar::MINNUMF));
}

aic::op! {
    /// `arith.negf`
    pub NegF = NEGF {
        operands: [operand: one(FLOAT_LIKE)],
        results: [result: one(FLOAT_LIKE)],
        attributes: [fastmath: defaulted(FASTMATH_ATTR, fastmath_none)],
        spec: OpSpec {
            summary: "floating point negation",
            traits: ARITH_SAME.with(Traits::PURE),
            format: Some("$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"),
            fold: Some(|ctx, op, consts| fold::negf(ctx, op, NegF(op).operand(ctx), consts)),
            interpret: Some(interp::negf),
            ..OpSpec::new("arith.negf")
        },
    }
}

aic::op! {
    /// `arith.addui_extended`
    pub AddUIExtended = ADDUI_EXTENDED {
        operands: [
            lhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
            rhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
        results: [sum: one(SIGNLESS_INT_OR_INDEX_LIKE), overflow: one(BOOL_LIKE)],
        spec: OpSpec {
            canonicalize: canon::ADDUI_EXTENDED,
            summary: "extended unsigned integer addition operation returning sum and overflow bit",
            traits: PC.with(ARITH).with(Traits::SAME_OPERANDS_TYPE),
            format: Some("$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"),
            verify: Some(verify_addui_extended),
            fold: Some(|ctx, op, consts| {
                fold::addui_extended(ctx, op, AddUIExtended(op).lhs(ctx), consts)
            }),
            interpret: Some(interp::addui_extended),
            result_names: Some(|_, _| vec![Some("sum".into()), Some("overflow".into())]),
            ..OpSpec::new("arith.addui_extended")
        },
    }
}

/// `arith.mulsi_extended` or `arith.mului_extended`, with the hooks of
/// its signedness.
const fn mul_extended(name: &'static str, summary: &'static str, hooks: Hooks) -> OpSpec {
    OpSpec {
        summary,
        traits: PC.with(ARITH).with(Traits::SAME_OPERANDS_TYPE),
        format: Some("$lhs `,` $rhs attr-dict `:` type($lhs)"),
        fold: Some(hooks.fold),
        interpret: Some(hooks.interpret),
        infer_results: Some(|_, ops, _| Some(vec![*ops.first()?; 2])),
        result_names: Some(|_, _| vec![Some("low".into()), Some("high".into())]),
        ..OpSpec::new(name)
    }
}

family! {
    {
        operands: [
            lhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
            rhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
        results: [
            low: one(SIGNLESS_INT_OR_INDEX_LIKE),
            high: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
    };
    /// `arith.mulsi_extended`
    MulSIExtended = MULSI_EXTENDED: OpSpec {
        canonicalize: canon::MULSI_EXTENDED,
        verify: Some(|ctx, op| {
            let h = MulSIExtended(op);
            verify_mul_extended(ctx, op, [h.lhs(ctx), h.rhs(ctx), h.low(ctx), h.high(ctx)])
        }),
        ..mul_extended(
            "arith.mulsi_extended",
            "extended signed integer multiplication operation",
            Hooks {
                fold: |ctx, op, consts| {
                    fold::mul_extended(ctx, op, MulSIExtended(op).lhs(ctx), consts, true)
                },
                interpret: |it, op, args| interp::mul_extended(it, op, args, true),
            },
        )
    };
    /// `arith.mului_extended`
    MulUIExtended = MULUI_EXTENDED: OpSpec {
        canonicalize: canon::MULUI_EXTENDED,
        verify: Some(|ctx, op| {
            let h = MulUIExtended(op);
            verify_mul_extended(ctx, op, [h.lhs(ctx), h.rhs(ctx), h.low(ctx), h.high(ctx)])
        }),
        ..mul_extended(
            "arith.mului_extended",
            "extended unsigned integer multiplication operation",
            Hooks {
                fold: |ctx, op, consts| {
                    fold::mul_extended(ctx, op, MulUIExtended(op).lhs(ctx), consts, false)
                },
                interpret: |it, op, args| interp::mul_extended(it, op, args, false),
            },
        )
    };
}

aic::op! {
    /// `arith.constant`
    pub Constant = CONSTANT {
        results: [result: one(tc::ANY)],
        attributes: [value: required(TYPED_ATTR)],
        spec: OpSpec {
            summary: "integer or floating point constant",
            traits: Traits::PURE.with(Traits::CONSTANT_LIKE),
            format: Some("attr-dict $value"),
            verify: Some(verify_constant),
            infer_results: Some(|u, _, attrs| {
                let v = attrs.iter().find(|(k, _)| u.str(*k) == "value")?.1;
                Some(vec![attr_type(u, v)?])
            }),
            result_names: Some(constant_names),
            interpret: Some(interp::constant),
            ..OpSpec::new("arith.constant")
        },
    }
}

const fn compare(
    name: &'static str,
    summary: &'static str,
    format: &'static str,
    hooks: Hooks,
) -> OpSpec {
    OpSpec {
        summary,
        traits: P.with(ARITH).with(Traits::SAME_OPERANDS_TYPE),
        format: Some(format),
        fold: Some(hooks.fold),
        interpret: Some(hooks.interpret),
        infer_results: Some(|u, ops, _| Some(vec![i1_same_shape(u, *ops.first()?)])),
        ..OpSpec::new(name)
    }
}

aic::op! {
    /// `arith.cmpi`
    pub CmpI = CMPI {
        operands: [
            lhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
            rhs: one(SIGNLESS_INT_OR_INDEX_LIKE),
        ],
        results: [result: one(BOOL_LIKE)],
        attributes: [predicate: required(CMPI_PREDICATE) as i64],
        spec: OpSpec {
            canonicalize: canon::CMPI,
            verify: Some(|ctx, op| verify_compare(ctx, op, CmpI(op).lhs(ctx))),
            ..compare(
                "arith.cmpi",
                "integer comparison operation",
                "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
                Hooks {
                    fold: fold::cmpi,
                    interpret: interp::cmpi,
                },
            )
        },
    }
}

aic::op! {
    /// `arith.cmpf`
    pub CmpF = CMPF {
        operands: [lhs: one(FLOAT_LIKE), rhs: one(FLOAT_LIKE)],
        results: [result: one(BOOL_LIKE)],
        attributes: [
            predicate: required(CMPF_PREDICATE) as i64,
            fastmath: defaulted(FASTMATH_ATTR, fastmath_none),
        ],
        spec: OpSpec {
            verify: Some(|ctx, op| verify_compare(ctx, op, CmpF(op).lhs(ctx))),
            ..compare(
            "arith.cmpf",
            "floating-point comparison operation",
            "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)",
            Hooks {
                fold: fold::cmpf,
                interpret: interp::cmpf,
            },
        )},
    }
}

aic::op! {
    /// `arith.select`
    pub Select = SELECT {
        operands: [condition: one(BOOL_LIKE), true_value: one(tc::ANY), false_value: one(tc::ANY)],
        results: [result: one(tc::ANY)],
        spec: OpSpec {
            canonicalize: canon::SELECT,
            summary: "select operation",
            traits: P.with(ARITH),
            custom: Some(CustomAsm {
                parse: parse_select,
                print: print_select,
            }),
            verify: Some(verify_select),
            fold: Some(fold::select),
            interpret: Some(interp::select),
            ..OpSpec::new("arith.select")
        },
    }
}

// ---------------------------------------------------------------- casts

/// What a cast requires of its element types (MLIR's `areCastCompatible`).
#[derive(Clone, Copy)]
enum CastRule {
    /// Integer or float widths: result wider (`true`) or narrower (`false`).
    Width(bool),
    /// Between `index` and a signless integer.
    Index,
    /// Between integers and floats of one bit width.
    Bits,
    /// Anything the type constraints allow.
    Any,
}

const CAST_FORMAT: &str = "$in attr-dict `:` type($in) `to` type($out)";

/// Declares a cast: its handle and spec, its types, the [`CastRule`] its
/// verifier checks, the [`scalar::Cast`] its folder and interpreter follow,
/// its folder (given the op, its input, the constants and the cast) and
/// its canonicalization patterns.
macro_rules! cast_op {
    ($handle:ident = $id:ident, $name:literal, $summary:literal, $from:expr, $to:expr, $rule:expr, $cast:expr, $fold:expr, $canon:expr) => {
        cast_op!(@op $handle $id, $name, $summary, $from, $to, $rule, $cast, $fold, $canon, [], CAST_FORMAT);
    };
    ($handle:ident = $id:ident, $name:literal, $summary:literal, $from:expr, $to:expr, $rule:expr, $cast:expr, $fold:expr, $canon:expr, [$($attrs:tt)*], $format:expr) => {
        cast_op!(@op $handle $id, $name, $summary, $from, $to, $rule, $cast, $fold, $canon, [$($attrs)*], $format);
    };
    (@op $handle:ident $id:ident, $name:literal, $summary:literal, $from:expr, $to:expr, $rule:expr, $cast:expr, $fold:expr, $canon:expr, [$($attrs:tt)*], $format:expr) => {
        aic::op! {
            #[doc = concat!("`", $name, "`")]
            pub $handle = $id {
                operands: [in_ = "in": one($from)],
                results: [out: one($to)],
                attributes: [$($attrs)*],
                spec: OpSpec {
                    summary: $summary,
                    traits: P.with(ARITH),
                    format: Some($format),
                    verify: Some(|ctx, op| verify_cast(ctx, op, $handle(op).in_(ctx), $rule)),
                    fold: Some(|ctx, op, consts| {
                        $fold(ctx, op, $handle(op).in_(ctx), consts, $cast)
                    }),
                    interpret: Some(|it, op, args| interp::cast(it, op, args, $cast)),
                    canonicalize: $canon,
                    ..OpSpec::new($name)
                },
            }
        }
    };
}

const INT: aic::dialect::TypeConstraint = SIGNLESS_FIXED_WIDTH_INT_LIKE;

cast_op!(
    ExtUI = EXTUI,
    "arith.extui",
    "integer zero extension operation",
    INT,
    INT,
    CastRule::Width(true),
    scalar::Cast::Int { signed: false },
    fold::extui,
    &[]
);
cast_op!(
    ExtSI = EXTSI,
    "arith.extsi",
    "integer sign extension operation",
    INT,
    INT,
    CastRule::Width(true),
    scalar::Cast::Int { signed: true },
    fold::extsi,
    canon::EXTSI
);
cast_op!(
    TruncI = TRUNCI,
    "arith.trunci",
    "integer truncation operation",
    INT,
    INT,
    CastRule::Width(false),
    scalar::Cast::Int { signed: false },
    fold::trunci,
    canon::TRUNCI,
    [overflow_flags = "overflowFlags": defaulted(OVERFLOW_ATTR, overflow_none)],
    "$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)"
);
cast_op!(
    ExtF = EXTF,
    "arith.extf",
    "cast from floating-point to wider floating-point",
    FLOAT_LIKE,
    FLOAT_LIKE,
    CastRule::Width(true),
    scalar::Cast::Float,
    fold::extf,
    &[],
    [fastmath: optional(FASTMATH_ATTR)],
    "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"
);
cast_op!(
    TruncF = TRUNCF,
    "arith.truncf",
    "cast from floating-point to narrower floating-point",
    FLOAT_LIKE,
    FLOAT_LIKE,
    CastRule::Width(false),
    scalar::Cast::Float,
    fold::truncf,
    canon::TRUNCF,
    [roundingmode: optional(ROUNDING_MODE), fastmath: optional(FASTMATH_ATTR)],
    "$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"
);
cast_op!(
    UIToFP = UITOFP,
    "arith.uitofp",
    "cast from unsigned integer type to floating-point",
    INT,
    FLOAT_LIKE,
    CastRule::Any,
    scalar::Cast::IntToFloat { signed: false },
    fold::constant_cast,
    &[]
);
cast_op!(
    SIToFP = SITOFP,
    "arith.sitofp",
    "cast from integer type to floating-point",
    INT,
    FLOAT_LIKE,
    CastRule::Any,
    scalar::Cast::IntToFloat { signed: true },
    fold::constant_cast,
    &[]
);
cast_op!(
    FPToUI = FPTOUI,
    "arith.fptoui",
    "cast from floating-point type to integer type",
    FLOAT_LIKE,
    INT,
    CastRule::Any,
    scalar::Cast::FloatToInt { signed: false },
    fold::constant_cast,
    &[]
);
cast_op!(
    FPToSI = FPTOSI,
    "arith.fptosi",
    "cast from floating-point type to integer type",
    FLOAT_LIKE,
    INT,
    CastRule::Any,
    scalar::Cast::FloatToInt { signed: true },
    fold::constant_cast,
    &[]
);
cast_op!(
    IndexCast = INDEX_CAST,
    "arith.index_cast",
    "cast between index and integer types",
    INDEX_CAST_T,
    INDEX_CAST_T,
    CastRule::Index,
    scalar::Cast::Int { signed: true },
    fold::constant_cast,
    canon::INDEX_CAST
);
cast_op!(
    IndexCastUI = INDEX_CASTUI,
    "arith.index_castui",
    "unsigned cast between index and integer types",
    INDEX_CAST_T,
    INDEX_CAST_T,
    CastRule::Index,
    scalar::Cast::Int { signed: false },
    fold::constant_cast,
    canon::INDEX_CASTUI
);
cast_op!(
    Bitcast = BITCAST,
    "arith.bitcast",
    "bitcast between values of equal bit width",
    BITCAST_T,
    BITCAST_T,
    CastRule::Bits,
    scalar::Cast::Bits,
    fold::bitcast,
    canon::BITCAST
);

const INDEX_CAST_T: aic::dialect::TypeConstraint = types::INDEX_CAST;
const BITCAST_T: aic::dialect::TypeConstraint = types::BITCAST;

/// The `arith` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "arith",
    description: "integer and floating-point arithmetic",
    ops: &[
        CONSTANT,
        ADDI,
        SUBI,
        MULI,
        DIVSI,
        DIVUI,
        CEILDIVSI,
        CEILDIVUI,
        FLOORDIVSI,
        REMSI,
        REMUI,
        ANDI,
        ORI,
        XORI,
        SHLI,
        SHRSI,
        SHRUI,
        MAXSI,
        MAXUI,
        MINSI,
        MINUI,
        ADDUI_EXTENDED,
        MULSI_EXTENDED,
        MULUI_EXTENDED,
        ADDF,
        SUBF,
        MULF,
        DIVF,
        REMF,
        MAXIMUMF,
        MINIMUMF,
        MAXNUMF,
        MINNUMF,
        NEGF,
        CMPI,
        CMPF,
        SELECT,
        EXTSI,
        EXTUI,
        EXTF,
        TRUNCI,
        TRUNCF,
        FPTOSI,
        FPTOUI,
        SITOFP,
        UITOFP,
        INDEX_CAST,
        INDEX_CASTUI,
        BITCAST,
    ],
    materialize_constant: Some(materialize_constant),
};

// ---------------------------------------------------------------- names

/// MLIR's `arith::ConstantOp::getAsmResultNames`: `%c42_i32`, `%c7` (index),
/// `%true`/`%false`, and `%cst` for everything else.
fn constant_names(ctx: &Context, op: Op) -> Vec<Option<String>> {
    let u = ctx.uniquer();
    let ty = ctx.value_type(ctx.result(op, 0));
    let value = CONSTANT.attr(ctx, op, "value").map(|a| u.attr_kind(a));
    let name = match value {
        Some(AttrKind::Integer { value, .. }) => match u.type_kind(ty) {
            TypeKind::Integer { width: 1, .. } => {
                if *value != 0 { "true" } else { "false" }.to_string()
            }
            TypeKind::Integer { .. } => {
                let mut t = String::new();
                aic::printer::write_type(u, ty, &mut t);
                format!("c{value}_{t}")
            }
            _ => format!("c{value}"),
        },
        _ => "cst".to_string(),
    };
    vec![Some(name)]
}

// ---------------------------------------------------------------- select syntax

fn parse_select(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    let at = p.pos();
    let operands = p.parse_operand_list()?;
    if operands.len() != 3 {
        return Err(p.error_at(
            at,
            format!("expected 3 operands but found {}", operands.len()),
        ));
    }
    let dict = p.parse_optional_attr_dict()?;
    p.expect_token(":")?;
    let mut result = p.parse_type()?;
    let condition = if p.eat_token(",") {
        std::mem::replace(&mut result, p.parse_type()?)
    } else {
        p.uniquer().int_type(1)
    };
    for (u, t) in operands.iter().zip([condition, result, result]) {
        let v = p.resolve_operand(u, t)?;
        st.operands.push(v);
    }
    st.result_types.push(result);
    let mut inherent = Vec::new();
    aic::asm::split_attr_dict(&p.uniquer(), &SELECT, dict, &mut inherent, st);
    Ok(())
}

fn print_select(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    pr.out.push(' ');
    let operands = ctx.operands(op).to_vec();
    pr.values(&operands);
    pr.attr_dict(op, &[], false);
    pr.out.push_str(" : ");
    let cond = ctx.value_type(operands[0]);
    if ctx.uniquer().type_kind(cond).shape().is_some()
        || matches!(
            ctx.uniquer().type_kind(cond),
            TypeKind::UnrankedTensor(_) | TypeKind::UnrankedMemRef { .. }
        )
    {
        pr.ty(cond);
        pr.out.push_str(", ");
    }
    pr.ty(ctx.value_type(ctx.result(op, 0)));
}

// ---------------------------------------------------------------- verification

fn all_same_type(ctx: &Context, op: Op, values: &[aic::Value], names: &str) -> R<()> {
    let first = ctx.value_type(values[0]);
    if values.iter().any(|v| ctx.value_type(*v) != first) {
        return Err(op_error(
            ctx,
            op,
            format_args!("failed to verify that all of {{{names}}} have same type"),
        ));
    }
    Ok(())
}

fn verify_addui_extended(ctx: &Context, op: Op) -> R<()> {
    let h = AddUIExtended(op);
    let vals = [h.lhs(ctx), h.rhs(ctx), h.sum(ctx)];
    all_same_type(ctx, op, &vals, "lhs, rhs, sum")
}

/// `vals`: the lhs, rhs, low and high of an extended multiplication.
fn verify_mul_extended(ctx: &Context, op: Op, vals: [aic::Value; 4]) -> R<()> {
    all_same_type(ctx, op, &vals, "lhs, rhs, low, high")
}

/// A comparison whose left operand is `lhs`.
fn verify_compare(ctx: &Context, op: Op, lhs: aic::Value) -> R<()> {
    let u = ctx.uniquer();
    let lhs = ctx.value_type(lhs);
    if ctx.value_type(ctx.result(op, 0)) != i1_same_shape(u, lhs) {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that result type has i1 element type and same shape as operands",
        ));
    }
    Ok(())
}

fn verify_constant(ctx: &Context, op: Op) -> R<()> {
    let u = ctx.uniquer();
    let Some(value) = CONSTANT.attr(ctx, op, "value") else {
        return Ok(());
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    if attr_type(u, value) != Some(ty) {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that all of {value, result} have same type",
        ));
    }
    if let TypeKind::Integer { signedness, .. } = u.type_kind(ty)
        && *signedness != aic::types::Signedness::Signless
    {
        return Err(op_error(ctx, op, "integer return type must be signless"));
    }
    if !matches!(
        u.attr_kind(value),
        AttrKind::Integer { .. }
            | AttrKind::Float { .. }
            | AttrKind::DenseElements { .. }
            | AttrKind::DenseResource { .. }
    ) {
        return Err(op_error(
            ctx,
            op,
            "value must be an integer, float, or elements attribute",
        ));
    }
    Ok(())
}

fn verify_select(ctx: &Context, op: Op) -> R<()> {
    let u = ctx.uniquer();
    let s = Select(op);
    all_same_type(
        ctx,
        op,
        &[s.true_value(ctx), s.false_value(ctx), s.result(ctx)],
        "true_value, false_value, result",
    )?;
    let cond = u.type_kind(ctx.value_type(s.condition(ctx)));
    let result = u.type_kind(ctx.value_type(ctx.result(op, 0)));
    let is_i1 = matches!(
        cond,
        TypeKind::Integer {
            width: 1,
            signedness: aic::types::Signedness::Signless
        }
    );
    let same_shape = matches!((cond.shape(), result.shape()), (Some(a), Some(b)) if a == b);
    if !is_i1 && !same_shape {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that condition is signless i1 or has matching shape",
        ));
    }
    Ok(())
}

/// The checks every arith cast makes, in MLIR's order: tensor dimensions, shapes
/// (`SameOperandsAndResultShape`), then the op's `areCastCompatible`.
fn verify_cast(ctx: &Context, op: Op, input: aic::Value, rule: CastRule) -> R<()> {
    let u = ctx.uniquer();
    let from = ctx.value_type(input);
    let to = ctx.value_type(ctx.result(op, 0));
    let (fk, tk) = (u.type_kind(from), u.type_kind(to));
    let tensor_dims = |k: &TypeKind| match k {
        TypeKind::Tensor { shape, .. } => Some(shape.to_vec()),
        _ => None,
    };
    if tensor_dims(fk).unwrap_or_default() != tensor_dims(tk).unwrap_or_default() {
        return Err(op_error(
            ctx,
            op,
            "failed to verify that input and output have the same tensor dimensions",
        ));
    }
    let shaped = |k: &TypeKind| {
        k.shape().is_some()
            || matches!(
                k,
                TypeKind::UnrankedTensor(_) | TypeKind::UnrankedMemRef { .. }
            )
    };
    let compatible_shapes = match (fk.shape(), tk.shape()) {
        (Some(a), Some(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| x == y || *x == aic::types::DYNAMIC || *y == aic::types::DYNAMIC)
        }
        _ => shaped(fk) == shaped(tk),
    };
    if !compatible_shapes {
        return Err(op_error(
            ctx,
            op,
            "requires the same shape for all operands and results",
        ));
    }
    let (fe, te) = (element_or_self(u, from), element_or_self(u, to));
    let ok = match rule {
        CastRule::Width(wider) => {
            let same_kind =
                std::mem::discriminant(u.type_kind(fe)) == std::mem::discriminant(u.type_kind(te));
            match (int_or_float_width(u, fe), int_or_float_width(u, te)) {
                (Some(a), Some(b)) if same_kind => {
                    if wider {
                        b > a
                    } else {
                        b < a
                    }
                }
                _ => false,
            }
        }
        CastRule::Index => {
            let (a, b) = (u.type_kind(fe), u.type_kind(te));
            let int = |k: &TypeKind| {
                matches!(
                    k,
                    TypeKind::Integer {
                        signedness: aic::types::Signedness::Signless,
                        ..
                    }
                )
            };
            (matches!(a, TypeKind::Index) && int(b)) || (int(a) && matches!(b, TypeKind::Index))
        }
        CastRule::Bits => {
            matches!((int_or_float_width(u, fe), int_or_float_width(u, te)), (Some(a), Some(b)) if a == b)
        }
        CastRule::Any => true,
    };
    if !ok {
        return Err(op_error(
            ctx,
            op,
            format_args!(
                "operand type {} and result type {} are cast incompatible",
                quoted_type(ctx, from),
                quoted_type(ctx, to)
            ),
        ));
    }
    Ok(())
}

/// Folded constants become `arith.constant` when the value is a typed attribute
/// of the result type (integers, floats, dense elements), as MLIR's arith does
/// (`arith::ConstantOp::materialize`, which the `math` dialect reuses).
pub fn materialize_constant(
    ctx: &Context,
    value: aic::Attr,
    ty: aic::types::Type,
    loc: aic::Attr,
) -> Option<aic::ir::OpState> {
    let typed = match ctx.attr_kind(value) {
        aic::AttrKind::Integer { ty: t, .. } | aic::AttrKind::Float { ty: t, .. } => *t == ty,
        aic::AttrKind::DenseElements { ty: t, .. } => *t == ty,
        _ => false,
    };
    if !typed {
        return None;
    }
    let mut st = aic::ir::OpState::new(ctx.ident("arith.constant"), loc);
    st.result_types.push(ty);
    st.props = Some(ctx.dict_attr(vec![(ctx.ident("value"), value)]));
    Some(st)
}
