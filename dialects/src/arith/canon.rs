//! MLIR 22's arith canonicalization patterns (`ArithCanonicalization.td` and the
//! hand-written `SelectToExtUI`), written with [`aic::pattern`].
//!
//! Slot conventions: values `0..=2` (`x`, `y`, `z`), constants `3`, `4`, ops
//! bound at `5`, `6`; attribute captures use `5..=7` of the attribute slots.
//! Overflow flags of a rewritten result are the intersection of the matched
//! ops' flags (MLIR's `mergeOverflowFlags`), or none where MLIR's TODO says so.

use super::fold::{Elem, elem_bits, make_const};
use super::{OVERFLOW, types::i1_same_shape};
use aic::attributes::{Attr, AttrKind};
use aic::ir::Context;
use aic::pattern::{Dst, Match, Pattern, Src, attr_of, op, root_type, same_type, type_of};
use aic::rewrite::RewritePattern;
use aic::types::Type;

const X: u8 = 0;
const Y: u8 = 1;
const Z: u8 = 2;
const C0: u8 = 3;
const C1: u8 = 4;
/// Attribute slots of the first and second matched op's flags / predicate.
const A0: u8 = 5;
const A1: u8 = 6;

type P = &'static dyn RewritePattern;

// ---------------------------------------------------------------- helpers

/// A scalar integer constant in slot `s` (DRR's `APIntAttr`), as bits.
fn int(ctx: &Context, m: &Match, s: u8) -> Option<u128> {
    let a = m.attr(s)?;
    matches!(ctx.attr_kind(a), AttrKind::Integer { .. }).then(|| elem_bits(ctx, a))?
}

/// `f(c_A, c_B)` as a constant of the root's type.
fn int_bin(ctx: &Context, m: &Match, a: u8, b: u8, f: fn(u128, u128) -> u128) -> Option<Attr> {
    let (a, b) = (int(ctx, m, a)?, int(ctx, m, b)?);
    make_const(ctx, root_type(ctx, m)?, f(a, b))
}

fn add_c0_c1(ctx: &Context, m: &Match) -> Option<Attr> {
    int_bin(ctx, m, C0, C1, u128::wrapping_add)
}
fn sub_c0_c1(ctx: &Context, m: &Match) -> Option<Attr> {
    int_bin(ctx, m, C0, C1, u128::wrapping_sub)
}
fn sub_c1_c0(ctx: &Context, m: &Match) -> Option<Attr> {
    int_bin(ctx, m, C1, C0, u128::wrapping_sub)
}
fn mul_c0_c1(ctx: &Context, m: &Match) -> Option<Attr> {
    int_bin(ctx, m, C0, C1, u128::wrapping_mul)
}

/// The bits of an overflow-flags attribute (absent: none).
fn ovf_bits(ctx: &Context, a: Option<Attr>) -> u32 {
    a.and_then(|a| OVERFLOW.value_of(ctx.attr_kind(a)))
        .unwrap_or(0)
}

/// The flags both matched ops carry (left out when none).
fn merge_ovf(ctx: &Context, m: &Match) -> Option<Attr> {
    let bits = ovf_bits(ctx, m.attr(A0)) & ovf_bits(ctx, m.attr(A1));
    (bits != 0).then(|| OVERFLOW.attr(ctx, bits))
}

/// The zero of the type of slot `x`.
fn zero_of_x(ctx: &Context, m: &Match) -> Option<Attr> {
    make_const(ctx, ctx.value_type(m.value(X)), 0)
}

/// The constant `c` of the type of the `y` value.
fn one_of_x(ctx: &Context, m: &Match) -> Option<Attr> {
    make_const(ctx, ctx.value_type(m.value(X)), 1)
}

fn i1_like_x(ctx: &Context, m: &Match) -> Option<Type> {
    Some(i1_same_shape(ctx, ctx.value_type(m.value(X))))
}

fn type_of_result_1(ctx: &Context, m: &Match) -> Option<Type> {
    Some(ctx.value_type(ctx.result(m.root(), 1)))
}

/// An integer predicate attribute (`cmpi`'s are i64 enum values).
fn pred_attr(ctx: &Context, v: i128) -> Attr {
    ctx.attr(AttrKind::Integer {
        value: v,
        ty: ctx.int_type(64),
    })
}

fn pred_value(ctx: &Context, a: Option<Attr>) -> Option<i128> {
    match ctx.attr_kind(a?) {
        AttrKind::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// MLIR's `invertPredicate`: the negation (`slt` becomes `sge`).
fn inverted_pred(ctx: &Context, m: &Match) -> Option<Attr> {
    const INV: [i128; 10] = [1, 0, 5, 4, 3, 2, 9, 8, 7, 6];
    Some(pred_attr(ctx, INV[pred_value(ctx, m.attr(A0))? as usize]))
}

fn slt(ctx: &Context, _: &Match) -> Option<Attr> {
    Some(pred_attr(ctx, 2))
}

/// The element bits of the (scalar or splat) integer constant in slot `s`.
fn int_or_splat(ctx: &Context, m: &Match, s: u8) -> Option<(u128, u32)> {
    let a = m.attr(s)?;
    let Elem::Int(w) = Elem::of(ctx, ctx.value_type(m.value(s)))? else {
        return None;
    };
    Some((elem_bits(ctx, a)?, w))
}

/// `IsScalarOrSplatNegativeOne`
fn c0_all_ones(ctx: &Context, m: &Match) -> bool {
    int_or_splat(ctx, m, C0).is_some_and(|(b, w)| b == super::fold::mask(w))
}

/// `ConstantAttr<I1Attr, v>` on the constants in slots C0 and C1.
fn i1_consts(ctx: &Context, m: &Match, c0: i128, c1: i128) -> bool {
    let is = |s: u8, v: i128| {
        m.attr(s).is_some_and(|a| {
            matches!(ctx.attr_kind(a), AttrKind::Integer { value, ty }
                if *value == v && *ty == ctx.int_type(1))
        })
    };
    is(C0, c0) && is(C1, c1)
}

fn scalar_int_width(ctx: &Context, t: Type) -> i64 {
    match Elem::of(ctx, t) {
        Some(e)
            if !matches!(
                ctx.type_kind(super::types::element_or_self(ctx, t)),
                aic::TypeKind::Index
            ) =>
        {
            i64::from(e.width())
        }
        _ => -1,
    }
}

/// `getScalarOrElementWidth` of the value in `s` (`-1` for `index`).
fn width(ctx: &Context, v: aic::Value) -> i64 {
    scalar_int_width(ctx, ctx.value_type(v))
}

/// `ValueWiderThan(ext, tr)` and `ValueWiderThan(tr, x)` for `trunci(ext(x))`.
fn ext_trunc_widths(ctx: &Context, m: &Match) -> bool {
    let (ext, tr, x) = (
        width(ctx, m.value(5)),
        width(ctx, ctx.result(m.root(), 0)),
        width(ctx, m.value(X)),
    );
    ext > tr && tr > 0 && tr > x && x > 0
}

/// `TruncationMatchesShiftAmount(x, tr, c0)`
fn shift_is_truncated_width(ctx: &Context, m: &Match) -> bool {
    let diff = width(ctx, m.value(X)) - width(ctx, ctx.result(m.root(), 0));
    int_or_splat(ctx, m, C0).is_some_and(|(b, _)| i128::try_from(b).ok() == Some(i128::from(diff)))
}

fn result_1_unused(ctx: &Context, m: &Match) -> bool {
    ctx.uses(ctx.result(m.root(), 1)).is_empty()
}

fn eq_or_ne(ctx: &Context, m: &Match) -> bool {
    matches!(pred_value(ctx, m.attr(A0)), Some(0 | 1))
}

fn no_rounding_mode(_: &Context, m: &Match) -> bool {
    m.attr(A0).is_none()
}

/// `IsScalarOrSplatOne`: 1, and strictly positive (so not i1's all-ones).
fn c0_is_one(ctx: &Context, m: &Match) -> bool {
    int_or_splat(ctx, m, C0).is_some_and(|(b, w)| b == 1 && w > 1)
}

/// `SelectToExtUI`'s guards: an integer result wider than i1, and the constants.
fn select_ext(ctx: &Context, m: &Match, t: u128, f: u128) -> bool {
    let ty = ctx.value_type(ctx.result(m.root(), 0));
    matches!(ctx.type_kind(ty), aic::TypeKind::Integer { width, .. } if *width != 1)
        && int_or_splat(ctx, m, C0).is_some_and(|(b, _)| b == t)
        && int_or_splat(ctx, m, C1).is_some_and(|(b, _)| b == f)
}

// ---------------------------------------------------------------- addi

const OVF: &[(&str, u8)] = &[("overflowFlags", A0)];
const OVF1: &[(&str, u8)] = &[("overflowFlags", A1)];
const MERGED: &[(&str, aic::pattern::AttrFn)] = &[("overflowFlags", merge_ovf)];

/// `x op c0`, capturing the op's overflow flags.
const fn with_const(name: &'static str) -> Src {
    op(name, &[Src::Val(X), Src::Const(C0)]).attrs(OVF)
}

/// `addi(addi(x, c0), c1) -> addi(x, c0 + c1)`
const ADDI_ADD_CONSTANT: Pattern = Pattern::new(
    "AddIAddConstant",
    op("arith.addi", &[with_const("arith.addi"), Src::Const(C1)]).attrs(OVF1),
    &[Dst::op_with(
        "arith.addi",
        &[Dst::Val(X), Dst::constant(add_c0_c1, root_type)],
        MERGED,
        root_type,
    )],
);

/// `addi(subi(x, c0), c1) -> addi(x, c1 - c0)`
const ADDI_SUB_CONSTANT_RHS: Pattern = Pattern::new(
    "AddISubConstantRHS",
    op("arith.addi", &[with_const("arith.subi"), Src::Const(C1)]).attrs(OVF1),
    &[Dst::op_with(
        "arith.addi",
        &[Dst::Val(X), Dst::constant(sub_c1_c0, root_type)],
        MERGED,
        root_type,
    )],
);

const C0_MINUS_X: &[Src] = &[Src::Const(C0), Src::Val(X)];

/// `addi(subi(c0, x), c1) -> subi(c0 + c1, x)`
const ADDI_SUB_CONSTANT_LHS: Pattern = Pattern::new(
    "AddISubConstantLHS",
    op(
        "arith.addi",
        &[op("arith.subi", C0_MINUS_X).attrs(OVF), Src::Const(C1)],
    )
    .attrs(OVF1),
    &[Dst::op_with(
        "arith.subi",
        &[Dst::constant(add_c0_c1, root_type), Dst::Val(X)],
        MERGED,
        root_type,
    )],
);

/// `addi(x, muli(y, -1)) -> subi(x, y)`
const ADDI_MUL_NEG_ONE_RHS: Pattern = Pattern::new(
    "AddIMulNegativeOneRhs",
    op(
        "arith.addi",
        &[
            Src::Val(X),
            op("arith.muli", &[Src::Val(Y), Src::Const(C0)]),
        ],
    ),
    &[Dst::op(
        "arith.subi",
        &[Dst::Val(X), Dst::Val(Y)],
        root_type,
    )],
)
.when(&[c0_all_ones]);

/// `addi(muli(x, -1), y) -> subi(y, x)`
const ADDI_MUL_NEG_ONE_LHS: Pattern = Pattern::new(
    "AddIMulNegativeOneLhs",
    op(
        "arith.addi",
        &[
            op("arith.muli", &[Src::Val(X), Src::Const(C0)]),
            Src::Val(Y),
        ],
    ),
    &[Dst::op(
        "arith.subi",
        &[Dst::Val(Y), Dst::Val(X)],
        root_type,
    )],
)
.when(&[c0_all_ones]);

/// The patterns of `arith.addi`, in MLIR's order.
pub const ADDI: &[P] = &[
    &ADDI_ADD_CONSTANT,
    &ADDI_SUB_CONSTANT_RHS,
    &ADDI_SUB_CONSTANT_LHS,
    &ADDI_MUL_NEG_ONE_RHS,
    &ADDI_MUL_NEG_ONE_LHS,
];

// ---------------------------------------------------------------- subi

/// `subi(addi(x, c0), c1) -> addi(x, c0 - c1)` (flags dropped, as MLIR does)
const SUBI_RHS_ADD_CONSTANT: Pattern = Pattern::new(
    "SubIRHSAddConstant",
    op("arith.subi", &[with_const("arith.addi"), Src::Const(C1)]),
    &[Dst::op(
        "arith.addi",
        &[Dst::Val(X), Dst::constant(sub_c0_c1, root_type)],
        root_type,
    )],
);

/// `subi(c1, addi(x, c0)) -> subi(c1 - c0, x)`
const SUBI_LHS_ADD_CONSTANT: Pattern = Pattern::new(
    "SubILHSAddConstant",
    op("arith.subi", &[Src::Const(C1), with_const("arith.addi")]).attrs(OVF1),
    &[Dst::op_with(
        "arith.subi",
        &[Dst::constant(sub_c1_c0, root_type), Dst::Val(X)],
        MERGED,
        root_type,
    )],
);

/// `subi(subi(x, c0), c1) -> subi(x, c0 + c1)`
const SUBI_RHS_SUB_CONSTANT_RHS: Pattern = Pattern::new(
    "SubIRHSSubConstantRHS",
    op("arith.subi", &[with_const("arith.subi"), Src::Const(C1)]).attrs(OVF1),
    &[Dst::op_with(
        "arith.subi",
        &[Dst::Val(X), Dst::constant(add_c0_c1, root_type)],
        MERGED,
        root_type,
    )],
);

/// `subi(subi(c0, x), c1) -> subi(c0 - c1, x)`
const SUBI_RHS_SUB_CONSTANT_LHS: Pattern = Pattern::new(
    "SubIRHSSubConstantLHS",
    op(
        "arith.subi",
        &[op("arith.subi", C0_MINUS_X).attrs(OVF), Src::Const(C1)],
    )
    .attrs(OVF1),
    &[Dst::op_with(
        "arith.subi",
        &[Dst::constant(sub_c0_c1, root_type), Dst::Val(X)],
        MERGED,
        root_type,
    )],
);

/// `subi(c1, subi(x, c0)) -> subi(c0 + c1, x)`
const SUBI_LHS_SUB_CONSTANT_RHS: Pattern = Pattern::new(
    "SubILHSSubConstantRHS",
    op("arith.subi", &[Src::Const(C1), with_const("arith.subi")]).attrs(OVF1),
    &[Dst::op_with(
        "arith.subi",
        &[Dst::constant(add_c0_c1, root_type), Dst::Val(X)],
        MERGED,
        root_type,
    )],
);

/// `subi(c1, subi(c0, x)) -> addi(x, c1 - c0)`
const SUBI_LHS_SUB_CONSTANT_LHS: Pattern = Pattern::new(
    "SubILHSSubConstantLHS",
    op(
        "arith.subi",
        &[Src::Const(C1), op("arith.subi", C0_MINUS_X).attrs(OVF)],
    )
    .attrs(OVF1),
    &[Dst::op_with(
        "arith.addi",
        &[Dst::Val(X), Dst::constant(sub_c1_c0, root_type)],
        MERGED,
        root_type,
    )],
);

/// `subi(subi(x, y), x) -> subi(0, y)`
const SUBI_SUBI_LHS_RHS_LHS: Pattern = Pattern::new(
    "SubISubILHSRHSLHS",
    op(
        "arith.subi",
        &[
            op("arith.subi", &[Src::Val(X), Src::Val(Y)]).attrs(OVF),
            Src::Val(X),
        ],
    )
    .attrs(OVF1),
    &[Dst::op_with(
        "arith.subi",
        &[Dst::constant(zero_of_y, type_of::<Y>), Dst::Val(Y)],
        MERGED,
        root_type,
    )],
);

fn zero_of_y(ctx: &Context, m: &Match) -> Option<Attr> {
    make_const(ctx, ctx.value_type(m.value(Y)), 0)
}

/// The patterns of `arith.subi`.
pub const SUBI: &[P] = &[
    &SUBI_RHS_ADD_CONSTANT,
    &SUBI_LHS_ADD_CONSTANT,
    &SUBI_RHS_SUB_CONSTANT_RHS,
    &SUBI_RHS_SUB_CONSTANT_LHS,
    &SUBI_LHS_SUB_CONSTANT_RHS,
    &SUBI_LHS_SUB_CONSTANT_LHS,
    &SUBI_SUBI_LHS_RHS_LHS,
];

// ---------------------------------------------------------------- muli and extended

/// `muli(muli(x, c0), c1) -> muli(x, c0 * c1)`
const MULI_MULI_CONSTANT: Pattern = Pattern::new(
    "MulIMulIConstant",
    op("arith.muli", &[with_const("arith.muli"), Src::Const(C1)]).attrs(OVF1),
    &[Dst::op_with(
        "arith.muli",
        &[Dst::Val(X), Dst::constant(mul_c0_c1, root_type)],
        MERGED,
        root_type,
    )],
);

/// The patterns of `arith.muli`.
pub const MULI: &[P] = &[&MULI_MULI_CONSTANT];

const X_Y: &[Src] = &[Src::Val(X), Src::Val(Y)];
const DX_DY: &[Dst] = &[Dst::Val(X), Dst::Val(Y)];

/// `addui_extended(x, y) -> [addi(x, y), x]` when the overflow bit is unused.
const ADDUI_EXTENDED_TO_ADDI: Pattern = Pattern::new(
    "AddUIExtendedToAddI",
    op("arith.addui_extended", X_Y),
    &[Dst::op("arith.addi", DX_DY, type_of::<X>), Dst::Val(X)],
)
.when(&[result_1_unused]);

/// The patterns of `arith.addui_extended`.
pub const ADDUI_EXTENDED: &[P] = &[&ADDUI_EXTENDED_TO_ADDI];

/// `mul?i_extended(x, y) -> [muli(x, y), x]` when the high half is unused.
macro_rules! mul_extended_to_muli {
    ($name:expr $(,)?) => {
        Pattern::new(
            "MulXIExtendedToMulI",
            op($name, X_Y),
            &[Dst::op("arith.muli", DX_DY, type_of::<X>), Dst::Val(X)],
        )
        .when(&[result_1_unused])
    };
}

/// `mulsi_extended(x, 1) -> [x, extsi(cmpi slt, x, 0)]`
const MULSI_EXTENDED_RHS_ONE: Pattern = Pattern::new(
    "MulSIExtendedRHSOne",
    op("arith.mulsi_extended", &[Src::Val(X), Src::Const(C0)]),
    &[
        Dst::Val(X),
        Dst::op(
            "arith.extsi",
            &[Dst::op_with(
                "arith.cmpi",
                &[Dst::Val(X), Dst::constant(zero_of_x, type_of::<X>)],
                &[("predicate", slt)],
                i1_like_x,
            )],
            type_of_result_1,
        ),
    ],
)
.when(&[c0_is_one]);

/// The patterns of `arith.mulsi_extended`.
pub const MULSI_EXTENDED: &[P] = &[
    &mul_extended_to_muli!("arith.mulsi_extended"),
    &MULSI_EXTENDED_RHS_ONE,
];
/// The patterns of `arith.mului_extended`.
pub const MULUI_EXTENDED: &[P] = &[&mul_extended_to_muli!("arith.mului_extended")];

// ---------------------------------------------------------------- bitwise

/// `xori(cmpi(pred, a, b), true) -> cmpi(!pred, a, b)`
const XORI_NOT_CMPI: Pattern = Pattern::new(
    "XOrINotCmpI",
    op(
        "arith.xori",
        &[
            op("arith.cmpi", X_Y).attrs(&[("predicate", A0)]),
            Src::Const(C1),
        ],
    ),
    &[Dst::op_with(
        "arith.cmpi",
        DX_DY,
        &[("predicate", inverted_pred)],
        root_type,
    )],
)
.when(&[c1_is_true]);

fn c1_is_true(ctx: &Context, m: &Match) -> bool {
    m.attr(C1).is_some_and(|a| {
        matches!(ctx.attr_kind(a), AttrKind::Integer { value: 1, ty } if *ty == ctx.int_type(1))
    })
}

/// `op(ext(x), ext(y)) -> ext(op(x, y))` for two extensions of one type.
macro_rules! of_ext {
    ($name:expr, $bin:expr, $ext:expr $(,)?) => {
        Pattern::new(
            $name,
            op($bin, &[op($ext, &[Src::Val(X)]), op($ext, &[Src::Val(Y)])]),
            &[Dst::op(
                $ext,
                &[Dst::op($bin, DX_DY, type_of::<X>)],
                root_type,
            )],
        )
        .when(&[same_type::<X, Y>])
    };
}

/// The patterns of `arith.xori`.
pub const XORI: &[P] = &[
    &XORI_NOT_CMPI,
    &of_ext!("XOrIOfExtUI", "arith.xori", "arith.extui"),
    &of_ext!("XOrIOfExtSI", "arith.xori", "arith.extsi"),
];
/// The patterns of `arith.andi`.
pub const ANDI: &[P] = &[
    &of_ext!("AndOfExtUI", "arith.andi", "arith.extui"),
    &of_ext!("AndOfExtSI", "arith.andi", "arith.extsi"),
];
/// The patterns of `arith.ori`.
pub const ORI: &[P] = &[
    &of_ext!("OrOfExtUI", "arith.ori", "arith.extui"),
    &of_ext!("OrOfExtSI", "arith.ori", "arith.extsi"),
];

// ---------------------------------------------------------------- cmpi

/// `cmpi(eq|ne, ext(a), ext(b)) -> cmpi(eq|ne, a, b)`
macro_rules! cmpi_ext {
    ($name:expr, $ext:expr $(,)?) => {
        Pattern::new(
            $name,
            op(
                "arith.cmpi",
                &[op($ext, &[Src::Val(X)]), op($ext, &[Src::Val(Y)])],
            )
            .attrs(&[("predicate", A0)]),
            &[Dst::op_with(
                "arith.cmpi",
                DX_DY,
                &[("predicate", attr_of::<A0>)],
                root_type,
            )],
        )
        .when(&[same_type::<X, Y>, eq_or_ne])
    };
}

/// The patterns of `arith.cmpi`.
pub const CMPI: &[P] = &[
    &cmpi_ext!("CmpIExtSI", "arith.extsi"),
    &cmpi_ext!("CmpIExtUI", "arith.extui"),
];

// ---------------------------------------------------------------- select

/// `select(pred, select(pred, a, b), c) -> select(pred, a, c)`
const REDUNDANT_SELECT_TRUE: Pattern = Pattern::new(
    "RedundantSelectTrue",
    op(
        "arith.select",
        &[
            Src::Val(Z),
            op("arith.select", &[Src::Val(Z), Src::Val(X), Src::Any]),
            Src::Val(Y),
        ],
    ),
    &[Dst::op(
        "arith.select",
        &[Dst::Val(Z), Dst::Val(X), Dst::Val(Y)],
        root_type,
    )],
);

/// `select(pred, a, select(pred, b, c)) -> select(pred, a, c)`
const REDUNDANT_SELECT_FALSE: Pattern = Pattern::new(
    "RedundantSelectFalse",
    op(
        "arith.select",
        &[
            Src::Val(Z),
            Src::Val(X),
            op("arith.select", &[Src::Val(Z), Src::Any, Src::Val(Y)]),
        ],
    ),
    &[Dst::op(
        "arith.select",
        &[Dst::Val(Z), Dst::Val(X), Dst::Val(Y)],
        root_type,
    )],
);

/// `select(not(pred), a, b) -> select(pred, b, a)`
const SELECT_NOT_COND: Pattern = Pattern::new(
    "SelectNotCond",
    op(
        "arith.select",
        &[
            op("arith.xori", &[Src::Val(Z), Src::Const(C0)]),
            Src::Val(X),
            Src::Val(Y),
        ],
    ),
    &[Dst::op(
        "arith.select",
        &[Dst::Val(Z), Dst::Val(Y), Dst::Val(X)],
        root_type,
    )],
)
.when(&[|ctx, m| int(ctx, m, C0).is_some() && c0_all_ones(ctx, m)]);

const SELECT_CONSTS: &[Src] = &[Src::Val(X), Src::Const(C0), Src::Const(C1)];

/// `select(pred, false, true) -> xori(pred, true)`
const SELECT_I1_TO_NOT: Pattern = Pattern::new(
    "SelectI1ToNot",
    op("arith.select", SELECT_CONSTS),
    &[Dst::op(
        "arith.xori",
        &[Dst::Val(X), Dst::constant(one_of_x, type_of::<X>)],
        type_of::<X>,
    )],
)
.when(&[|ctx, m| i1_consts(ctx, m, 0, 1)]);

/// `select(pred, 1, 0) -> extui(pred)` (hand-written in MLIR: benefit 1).
const SELECT_TO_EXTUI: Pattern = Pattern::new(
    "SelectToExtUI",
    op("arith.select", SELECT_CONSTS),
    &[Dst::op("arith.extui", &[Dst::Val(X)], root_type)],
)
.when(&[|ctx, m| select_ext(ctx, m, 1, 0)]);

/// `select(pred, 0, 1) -> extui(xori(pred, true))`
const SELECT_TO_EXTUI_NOT: Pattern = Pattern::new(
    "SelectToExtUI",
    op("arith.select", SELECT_CONSTS),
    &[Dst::op(
        "arith.extui",
        &[Dst::op(
            "arith.xori",
            &[Dst::Val(X), Dst::constant(one_of_x, type_of::<X>)],
            type_of::<X>,
        )],
        root_type,
    )],
)
.when(&[|ctx, m| select_ext(ctx, m, 0, 1)]);

/// The patterns of `arith.select`, in MLIR's order.
pub const SELECT: &[P] = &[
    &REDUNDANT_SELECT_FALSE,
    &REDUNDANT_SELECT_TRUE,
    &SELECT_NOT_COND,
    &SELECT_I1_TO_NOT,
    &SELECT_TO_EXTUI,
    &SELECT_TO_EXTUI_NOT,
];

// ---------------------------------------------------------------- casts

/// `outer(inner(x)) -> x` when that has the root's type.
macro_rules! cast_roundtrip {
    ($name:expr, $cast:expr $(,)?) => {
        Pattern::new(
            $name,
            op($cast, &[op($cast, &[Src::Val(X)])]),
            &[Dst::Val(X)],
        )
        .when(&[|ctx, m| ctx.value_type(m.value(X)) == ctx.value_type(ctx.result(m.root(), 0))])
    };
}

/// `outer(inner(x)) -> result(x)` with the root's type.
macro_rules! cast_skip {
    ($name:expr, $outer:expr, $inner:expr, $result:expr $(,)?) => {
        Pattern::new(
            $name,
            op($outer, &[op($inner, &[Src::Val(X)])]),
            &[Dst::op($result, &[Dst::Val(X)], root_type)],
        )
    };
}

/// The patterns of `arith.index_cast`.
pub const INDEX_CAST: &[P] = &[
    &cast_roundtrip!("IndexCastOfIndexCast", "arith.index_cast"),
    &cast_skip!(
        "IndexCastOfExtSI",
        "arith.index_cast",
        "arith.extsi",
        "arith.index_cast",
    ),
];
/// The patterns of `arith.index_castui`.
pub const INDEX_CASTUI: &[P] = &[
    &cast_roundtrip!("IndexCastUIOfIndexCastUI", "arith.index_castui"),
    &cast_skip!(
        "IndexCastUIOfExtUI",
        "arith.index_castui",
        "arith.extui",
        "arith.index_castui",
    ),
];
/// The patterns of `arith.bitcast`.
pub const BITCAST: &[P] = &[&cast_skip!(
    "BitcastOfBitcast",
    "arith.bitcast",
    "arith.bitcast",
    "arith.bitcast",
)];
/// The patterns of `arith.extsi`.
pub const EXTSI: &[P] = &[&cast_skip!(
    "ExtSIOfExtUI",
    "arith.extsi",
    "arith.extui",
    "arith.extui",
)];

/// `trunci(ext(x)) -> ext(x)` when only extension bits are truncated.
macro_rules! trunc_ext {
    ($name:expr, $ext:expr $(,)?) => {
        Pattern::new(
            $name,
            op("arith.trunci", &[op($ext, &[Src::Val(X)]).bind(5)]),
            &[Dst::op($ext, &[Dst::Val(X)], root_type)],
        )
        .when(&[ext_trunc_widths])
    };
}

/// `trunci(shrsi(x, c)) -> trunci(shrui(x, c))` when the shift drops exactly the
/// truncated bits.
const TRUNCI_SHRSI: Pattern = Pattern::new(
    "TruncIShrSIToTrunciShrUI",
    op(
        "arith.trunci",
        &[op("arith.shrsi", &[Src::Val(X), Src::Const(C0)])],
    )
    .attrs(&[("overflowFlags", A0)]),
    &[Dst::op_with(
        "arith.trunci",
        &[Dst::op(
            "arith.shrui",
            &[Dst::Val(X), Dst::constant(attr_of::<C0>, type_of::<C0>)],
            type_of::<X>,
        )],
        &[("overflowFlags", nonempty_ovf_a0)],
        root_type,
    )],
)
.when(&[shift_is_truncated_width]);

fn nonempty_ovf_a0(ctx: &Context, m: &Match) -> Option<Attr> {
    (ovf_bits(ctx, m.attr(A0)) != 0).then(|| m.attr(A0))?
}

/// The patterns of `arith.trunci`.
pub const TRUNCI: &[P] = &[
    &trunc_ext!("TruncIExtSIToExtSI", "arith.extsi"),
    &trunc_ext!("TruncIExtUIToExtUI", "arith.extui"),
    &TRUNCI_SHRSI,
];

/// `truncf(?itofp(x)) -> ?itofp(x)` with the default rounding mode.
macro_rules! truncf_itofp {
    ($name:expr, $cast:expr $(,)?) => {
        Pattern::new(
            $name,
            op("arith.truncf", &[op($cast, &[Src::Val(X)])]).attrs(&[("roundingmode", A0)]),
            &[Dst::op($cast, &[Dst::Val(X)], root_type)],
        )
        .when(&[no_rounding_mode])
    };
}

/// The patterns of `arith.truncf`.
pub const TRUNCF: &[P] = &[
    &truncf_itofp!("TruncFSIToFPToSIToFP", "arith.sitofp"),
    &truncf_itofp!("TruncFUIToFPToUIToFP", "arith.uitofp"),
];

// ---------------------------------------------------------------- float

/// `op(negf(x), negf(y)) -> op(x, y)`, keeping the root's fast-math flags.
macro_rules! of_negf {
    ($name:expr, $bin:expr $(,)?) => {
        Pattern::new(
            $name,
            op(
                $bin,
                &[
                    op("arith.negf", &[Src::Val(X)]),
                    op("arith.negf", &[Src::Val(Y)]),
                ],
            )
            .attrs(&[("fastmath", A0)]),
            &[Dst::op_with(
                $bin,
                DX_DY,
                &[("fastmath", nonempty_fastmath)],
                root_type,
            )],
        )
        .when(&[same_type::<X, Y>])
    };
}

fn nonempty_fastmath(ctx: &Context, m: &Match) -> Option<Attr> {
    let a = m.attr(A0)?;
    (super::FASTMATH.value_of(ctx.attr_kind(a)) != Some(0)).then_some(a)
}

/// The patterns of `arith.mulf`.
pub const MULF: &[P] = &[&of_negf!("MulFOfNegF", "arith.mulf")];
/// The patterns of `arith.divf`.
pub const DIVF: &[P] = &[&of_negf!("DivFOfNegF", "arith.divf")];
