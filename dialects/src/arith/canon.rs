//! MLIR 22's arith canonicalization patterns (`ArithCanonicalization.td` and the
//! hand-written `SelectToExtUI`), written with [`aic::pattern`]: one rule per
//! pattern in the e-graph's rule syntax, and the natives the rules name.
//!
//! Overflow flags of a rewritten result are the intersection of the matched
//! ops' flags (MLIR's `mergeOverflowFlags`), or none where MLIR's TODO says so.

use super::fold::{Elem, elem_bits, make_const};
use super::{OVERFLOW, types::i1_same_shape};
use aic::attributes::{Attr, AttrKind};
use aic::ir::Context;
use aic::pattern::{Args, Native, Natives, Pattern};
use aic::rewrite::RewritePattern;
use aic::types::Type;

type P = &'static dyn RewritePattern;

// ---------------------------------------------------------------- natives

/// The functions the rules below name.
static NATIVES: &Natives = &[
    ("add", Native::Attr(add)),
    ("sub", Native::Attr(sub)),
    ("mul", Native::Attr(mul)),
    ("merge_ovf", Native::Attr(merge_ovf)),
    ("nonempty_ovf", Native::Attr(nonempty_ovf)),
    ("nonempty_fastmath", Native::Attr(nonempty_fastmath)),
    ("zero", Native::Attr(zero)),
    ("one", Native::Attr(one)),
    ("inverted", Native::Attr(inverted)),
    ("slt", Native::Attr(slt)),
    ("i1_like", Native::Type(i1_like)),
    ("result_1_type", Native::Type(result_1_type)),
    ("same_type", Native::Pred(same_type)),
    ("has_root_type", Native::Pred(has_root_type)),
    ("scalar_int", Native::Pred(scalar_int)),
    ("all_ones", Native::Pred(all_ones)),
    ("is_one", Native::Pred(is_one)),
    ("bits_one", Native::Pred(bits_one)),
    ("bits_zero", Native::Pred(bits_zero)),
    ("is_true", Native::Pred(is_true)),
    ("is_false", Native::Pred(is_false)),
    ("wide_int_result", Native::Pred(wide_int_result)),
    ("result_1_unused", Native::Pred(result_1_unused)),
    ("eq_or_ne", Native::Pred(eq_or_ne)),
    ("absent", Native::Pred(absent)),
    ("ext_trunc_widths", Native::Pred(ext_trunc_widths)),
    (
        "shift_is_truncated_width",
        Native::Pred(shift_is_truncated_width),
    ),
];

/// A scalar integer constant (DRR's `APIntAttr`), as bits.
fn int(ctx: &Context, a: Option<Attr>) -> Option<u128> {
    let a = a?;
    matches!(ctx.attr_kind(a), AttrKind::Integer { .. }).then(|| elem_bits(ctx, a))?
}

/// `f(a, b)` of two integer constants, as a constant of the root's type.
fn int_bin(ctx: &Context, a: &Args, f: fn(u128, u128) -> u128) -> Option<Attr> {
    let (x, y) = (int(ctx, a.attr(0))?, int(ctx, a.attr(1))?);
    make_const(ctx, a.root_type(ctx), f(x, y))
}

/// `@add(?a, ?b)`: `a + b` with the root's type.
fn add(ctx: &Context, a: &Args) -> Option<Attr> {
    int_bin(ctx, a, u128::wrapping_add)
}
/// `@sub(?a, ?b)`: `a - b` with the root's type.
fn sub(ctx: &Context, a: &Args) -> Option<Attr> {
    int_bin(ctx, a, u128::wrapping_sub)
}
/// `@mul(?a, ?b)`: `a * b` with the root's type.
fn mul(ctx: &Context, a: &Args) -> Option<Attr> {
    int_bin(ctx, a, u128::wrapping_mul)
}

/// The bits of an overflow-flags attribute (absent: none).
fn ovf_bits(ctx: &Context, a: Option<Attr>) -> u32 {
    a.and_then(|a| OVERFLOW.bits_of(ctx.attr_kind(a)))
        .unwrap_or(0)
}

/// `@merge_ovf(?f0, ?f1)`: the flags both matched ops carry (left out when none).
fn merge_ovf(ctx: &Context, a: &Args) -> Option<Attr> {
    let bits = ovf_bits(ctx, a.attr(0)) & ovf_bits(ctx, a.attr(1));
    (bits != 0).then(|| OVERFLOW.attr(ctx, bits))
}

/// `@nonempty_ovf(?f)`: the flags, left out when there are none.
fn nonempty_ovf(ctx: &Context, a: &Args) -> Option<Attr> {
    (ovf_bits(ctx, a.attr(0)) != 0).then(|| a.attr(0))?
}

/// `@nonempty_fastmath(?f)`: the fast-math flags, left out when there are none.
fn nonempty_fastmath(ctx: &Context, a: &Args) -> Option<Attr> {
    let f = a.attr(0)?;
    (super::FASTMATH.bits_of(ctx.attr_kind(f)) != Some(0)).then_some(f)
}

/// `@zero(?x)`: the zero of `x`'s type.
fn zero(ctx: &Context, a: &Args) -> Option<Attr> {
    make_const(ctx, a.type_of(ctx, 0), 0)
}

/// `@one(?x)`: the one of `x`'s type.
fn one(ctx: &Context, a: &Args) -> Option<Attr> {
    make_const(ctx, a.type_of(ctx, 0), 1)
}

/// `@i1_like(?x)`: i1 of `x`'s shape.
fn i1_like(ctx: &Context, a: &Args) -> Option<Type> {
    Some(i1_same_shape(ctx, a.type_of(ctx, 0)))
}

/// `@result_1_type()`: the type of the root's second result.
fn result_1_type(ctx: &Context, a: &Args) -> Option<Type> {
    Some(ctx.value_type(ctx.result(a.root(), 1)))
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

/// `@inverted(?p)`: MLIR's `invertPredicate`, the negation (`slt` becomes `sge`).
fn inverted(ctx: &Context, a: &Args) -> Option<Attr> {
    const INV: [i128; 10] = [1, 0, 5, 4, 3, 2, 9, 8, 7, 6];
    Some(pred_attr(ctx, INV[pred_value(ctx, a.attr(0))? as usize]))
}

/// `@slt()`: the `slt` predicate.
fn slt(ctx: &Context, _: &Args) -> Option<Attr> {
    Some(pred_attr(ctx, 2))
}

/// `same_type(?x, ?y)`
fn same_type(ctx: &Context, a: &Args) -> bool {
    a.type_of(ctx, 0) == a.type_of(ctx, 1)
}

/// `has_root_type(?x)`: `x` has the type of the root's result.
fn has_root_type(ctx: &Context, a: &Args) -> bool {
    a.type_of(ctx, 0) == a.root_type(ctx)
}

/// The element bits of the (scalar or splat) integer constant argument `i`.
fn int_or_splat(ctx: &Context, a: &Args, i: usize) -> Option<(u128, u32)> {
    let c = a.attr(i)?;
    let Elem::Int(w) = Elem::of(ctx, a.type_of(ctx, i))? else {
        return None;
    };
    Some((elem_bits(ctx, c)?, w))
}

/// `scalar_int(?c)`: a scalar integer constant.
fn scalar_int(ctx: &Context, a: &Args) -> bool {
    int(ctx, a.attr(0)).is_some()
}

/// `all_ones(?c)`: `IsScalarOrSplatNegativeOne`.
fn all_ones(ctx: &Context, a: &Args) -> bool {
    int_or_splat(ctx, a, 0).is_some_and(|(b, w)| b == super::fold::mask(w))
}

/// `is_one(?c)`: `IsScalarOrSplatOne`, 1 and strictly positive (so not i1's all-ones).
fn is_one(ctx: &Context, a: &Args) -> bool {
    int_or_splat(ctx, a, 0).is_some_and(|(b, w)| b == 1 && w > 1)
}

/// `bits_one(?c)`: a scalar or splat integer whose bits are 1.
fn bits_one(ctx: &Context, a: &Args) -> bool {
    int_or_splat(ctx, a, 0).is_some_and(|(b, _)| b == 1)
}

/// `bits_zero(?c)`: a scalar or splat integer zero.
fn bits_zero(ctx: &Context, a: &Args) -> bool {
    int_or_splat(ctx, a, 0).is_some_and(|(b, _)| b == 0)
}

/// `ConstantAttr<I1Attr, v>`
fn i1_is(ctx: &Context, a: &Args, v: i128) -> bool {
    a.attr(0).is_some_and(|c| {
        matches!(ctx.attr_kind(c), AttrKind::Integer { value, ty }
            if *value == v && *ty == ctx.int_type(1))
    })
}

/// `is_true(?c)`: the i1 constant true.
fn is_true(ctx: &Context, a: &Args) -> bool {
    i1_is(ctx, a, 1)
}

/// `is_false(?c)`: the i1 constant false.
fn is_false(ctx: &Context, a: &Args) -> bool {
    i1_is(ctx, a, 0)
}

/// `wide_int_result()`: `SelectToExtUI`'s guard, an integer result wider than i1.
fn wide_int_result(ctx: &Context, a: &Args) -> bool {
    matches!(ctx.type_kind(a.root_type(ctx)), aic::TypeKind::Integer { width, .. } if *width != 1)
}

/// `result_1_unused()`: nothing uses the root's second result.
fn result_1_unused(ctx: &Context, a: &Args) -> bool {
    ctx.uses(ctx.result(a.root(), 1)).is_empty()
}

/// `eq_or_ne(?p)`: an `eq` or `ne` predicate.
fn eq_or_ne(ctx: &Context, a: &Args) -> bool {
    matches!(pred_value(ctx, a.attr(0)), Some(0 | 1))
}

/// `absent(?a)`: the op does not carry the attribute.
fn absent(_: &Context, a: &Args) -> bool {
    a.attr(0).is_none()
}

/// `getScalarOrElementWidth` of a type (`-1` for `index`).
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

/// `ext_trunc_widths(?ext, ?x)`: `ValueWiderThan(ext, tr)` and
/// `ValueWiderThan(tr, x)` for `trunci(ext(x))`.
fn ext_trunc_widths(ctx: &Context, a: &Args) -> bool {
    let (ext, tr, x) = (
        scalar_int_width(ctx, a.type_of(ctx, 0)),
        scalar_int_width(ctx, a.root_type(ctx)),
        scalar_int_width(ctx, a.type_of(ctx, 1)),
    );
    ext > tr && tr > 0 && tr > x && x > 0
}

/// `shift_is_truncated_width(?x, ?c)`: `TruncationMatchesShiftAmount(x, tr, c)`.
fn shift_is_truncated_width(ctx: &Context, a: &Args) -> bool {
    let diff = scalar_int_width(ctx, a.type_of(ctx, 0)) - scalar_int_width(ctx, a.root_type(ctx));
    int_or_splat(ctx, a, 1).is_some_and(|(b, _)| i128::try_from(b).ok() == Some(i128::from(diff)))
}

/// A pattern of this file: its rule and [`NATIVES`].
macro_rules! rule {
    ($($text:expr),+ $(,)?) => {
        Pattern::new(concat!($($text),+), NATIVES)
    };
}

// ---------------------------------------------------------------- addi

/// `addi(addi(x, c0), c1) -> addi(x, c0 + c1)`
static ADDI_ADD_CONSTANT: Pattern = rule!(
    "AddIAddConstant: (arith.addi (arith.addi ?x (const ?c0) :overflowFlags ?f0) (const ?c1) :overflowFlags ?f1)",
    " => (arith.addi ?x (const @add(?c0, ?c1)) :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `addi(subi(x, c0), c1) -> addi(x, c1 - c0)`
static ADDI_SUB_CONSTANT_RHS: Pattern = rule!(
    "AddISubConstantRHS: (arith.addi (arith.subi ?x (const ?c0) :overflowFlags ?f0) (const ?c1) :overflowFlags ?f1)",
    " => (arith.addi ?x (const @sub(?c1, ?c0)) :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `addi(subi(c0, x), c1) -> subi(c0 + c1, x)`
static ADDI_SUB_CONSTANT_LHS: Pattern = rule!(
    "AddISubConstantLHS: (arith.addi (arith.subi (const ?c0) ?x :overflowFlags ?f0) (const ?c1) :overflowFlags ?f1)",
    " => (arith.subi (const @add(?c0, ?c1)) ?x :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `addi(x, muli(y, -1)) -> subi(x, y)`
static ADDI_MUL_NEG_ONE_RHS: Pattern = rule!(
    "AddIMulNegativeOneRhs: (arith.addi ?x (arith.muli ?y (const ?c0)))",
    " => (arith.subi ?x ?y) if all_ones(?c0)",
);

/// `addi(muli(x, -1), y) -> subi(y, x)`
static ADDI_MUL_NEG_ONE_LHS: Pattern = rule!(
    "AddIMulNegativeOneLhs: (arith.addi (arith.muli ?x (const ?c0)) ?y)",
    " => (arith.subi ?y ?x) if all_ones(?c0)",
);

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
static SUBI_RHS_ADD_CONSTANT: Pattern = rule!(
    "SubIRHSAddConstant: (arith.subi (arith.addi ?x (const ?c0)) (const ?c1))",
    " => (arith.addi ?x (const @sub(?c0, ?c1)))",
);

/// `subi(c1, addi(x, c0)) -> subi(c1 - c0, x)`
static SUBI_LHS_ADD_CONSTANT: Pattern = rule!(
    "SubILHSAddConstant: (arith.subi (const ?c1) (arith.addi ?x (const ?c0) :overflowFlags ?f0) :overflowFlags ?f1)",
    " => (arith.subi (const @sub(?c1, ?c0)) ?x :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `subi(subi(x, c0), c1) -> subi(x, c0 + c1)`
static SUBI_RHS_SUB_CONSTANT_RHS: Pattern = rule!(
    "SubIRHSSubConstantRHS: (arith.subi (arith.subi ?x (const ?c0) :overflowFlags ?f0) (const ?c1) :overflowFlags ?f1)",
    " => (arith.subi ?x (const @add(?c0, ?c1)) :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `subi(subi(c0, x), c1) -> subi(c0 - c1, x)`
static SUBI_RHS_SUB_CONSTANT_LHS: Pattern = rule!(
    "SubIRHSSubConstantLHS: (arith.subi (arith.subi (const ?c0) ?x :overflowFlags ?f0) (const ?c1) :overflowFlags ?f1)",
    " => (arith.subi (const @sub(?c0, ?c1)) ?x :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `subi(c1, subi(x, c0)) -> subi(c0 + c1, x)`
static SUBI_LHS_SUB_CONSTANT_RHS: Pattern = rule!(
    "SubILHSSubConstantRHS: (arith.subi (const ?c1) (arith.subi ?x (const ?c0) :overflowFlags ?f0) :overflowFlags ?f1)",
    " => (arith.subi (const @add(?c0, ?c1)) ?x :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `subi(c1, subi(c0, x)) -> addi(x, c1 - c0)`
static SUBI_LHS_SUB_CONSTANT_LHS: Pattern = rule!(
    "SubILHSSubConstantLHS: (arith.subi (const ?c1) (arith.subi (const ?c0) ?x :overflowFlags ?f0) :overflowFlags ?f1)",
    " => (arith.addi ?x (const @sub(?c1, ?c0)) :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// `subi(subi(x, y), x) -> subi(0, y)`
static SUBI_SUBI_LHS_RHS_LHS: Pattern = rule!(
    "SubISubILHSRHSLHS: (arith.subi (arith.subi ?x ?y :overflowFlags ?f0) ?x :overflowFlags ?f1)",
    " => (arith.subi (const @zero(?y) -> ?y) ?y :overflowFlags @merge_ovf(?f0, ?f1))",
);

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
static MULI_MULI_CONSTANT: Pattern = rule!(
    "MulIMulIConstant: (arith.muli (arith.muli ?x (const ?c0) :overflowFlags ?f0) (const ?c1) :overflowFlags ?f1)",
    " => (arith.muli ?x (const @mul(?c0, ?c1)) :overflowFlags @merge_ovf(?f0, ?f1))",
);

/// The patterns of `arith.muli`.
pub const MULI: &[P] = &[&MULI_MULI_CONSTANT];

/// `addui_extended(x, y) -> [addi(x, y), x]` when the overflow bit is unused.
static ADDUI_EXTENDED_TO_ADDI: Pattern = rule!(
    "AddUIExtendedToAddI: (arith.addui_extended ?x ?y)",
    " => (arith.addi ?x ?y -> ?x), ?x if result_1_unused()",
);

/// The patterns of `arith.addui_extended`.
pub const ADDUI_EXTENDED: &[P] = &[&ADDUI_EXTENDED_TO_ADDI];

/// `mul?i_extended(x, y) -> [muli(x, y), x]` when the high half is unused.
static MULSI_EXTENDED_TO_MULI: Pattern = rule!(
    "MulXIExtendedToMulI: (arith.mulsi_extended ?x ?y)",
    " => (arith.muli ?x ?y -> ?x), ?x if result_1_unused()",
);
static MULUI_EXTENDED_TO_MULI: Pattern = rule!(
    "MulXIExtendedToMulI: (arith.mului_extended ?x ?y)",
    " => (arith.muli ?x ?y -> ?x), ?x if result_1_unused()",
);

/// `mulsi_extended(x, 1) -> [x, extsi(cmpi slt, x, 0)]`
static MULSI_EXTENDED_RHS_ONE: Pattern = rule!(
    "MulSIExtendedRHSOne: (arith.mulsi_extended ?x (const ?c0))",
    " => ?x, (arith.extsi (arith.cmpi ?x (const @zero(?x) -> ?x) :predicate @slt() -> @i1_like(?x))",
    " -> @result_1_type()) if is_one(?c0)",
);

/// The patterns of `arith.mulsi_extended`.
pub const MULSI_EXTENDED: &[P] = &[&MULSI_EXTENDED_TO_MULI, &MULSI_EXTENDED_RHS_ONE];
/// The patterns of `arith.mului_extended`.
pub const MULUI_EXTENDED: &[P] = &[&MULUI_EXTENDED_TO_MULI];

// ---------------------------------------------------------------- bitwise

/// `xori(cmpi(pred, a, b), true) -> cmpi(!pred, a, b)`
static XORI_NOT_CMPI: Pattern = rule!(
    "XOrINotCmpI: (arith.xori (arith.cmpi ?x ?y :predicate ?p) (const ?c1))",
    " => (arith.cmpi ?x ?y :predicate @inverted(?p)) if is_true(?c1)",
);

/// `op(ext(x), ext(y)) -> ext(op(x, y))` for two extensions of one type.
macro_rules! of_ext {
    ($name:literal, $bin:literal, $ext:literal $(,)?) => {
        rule!(
            $name,
            ": (",
            $bin,
            " (",
            $ext,
            " ?x) (",
            $ext,
            " ?y))",
            " => (",
            $ext,
            " (",
            $bin,
            " ?x ?y -> ?x)) if same_type(?x, ?y)",
        )
    };
}

static XORI_OF_EXTUI: Pattern = of_ext!("XOrIOfExtUI", "arith.xori", "arith.extui");
static XORI_OF_EXTSI: Pattern = of_ext!("XOrIOfExtSI", "arith.xori", "arith.extsi");
static AND_OF_EXTUI: Pattern = of_ext!("AndOfExtUI", "arith.andi", "arith.extui");
static AND_OF_EXTSI: Pattern = of_ext!("AndOfExtSI", "arith.andi", "arith.extsi");
static OR_OF_EXTUI: Pattern = of_ext!("OrOfExtUI", "arith.ori", "arith.extui");
static OR_OF_EXTSI: Pattern = of_ext!("OrOfExtSI", "arith.ori", "arith.extsi");

/// The patterns of `arith.xori`.
pub const XORI: &[P] = &[&XORI_NOT_CMPI, &XORI_OF_EXTUI, &XORI_OF_EXTSI];
/// The patterns of `arith.andi`.
pub const ANDI: &[P] = &[&AND_OF_EXTUI, &AND_OF_EXTSI];
/// The patterns of `arith.ori`.
pub const ORI: &[P] = &[&OR_OF_EXTUI, &OR_OF_EXTSI];

// ---------------------------------------------------------------- cmpi

/// `cmpi(eq|ne, ext(a), ext(b)) -> cmpi(eq|ne, a, b)`
macro_rules! cmpi_ext {
    ($name:literal, $ext:literal $(,)?) => {
        rule!(
            $name,
            ": (arith.cmpi (",
            $ext,
            " ?x) (",
            $ext,
            " ?y) :predicate ?p)",
            " => (arith.cmpi ?x ?y :predicate ?p) if same_type(?x, ?y), eq_or_ne(?p)",
        )
    };
}

static CMPI_EXTSI: Pattern = cmpi_ext!("CmpIExtSI", "arith.extsi");
static CMPI_EXTUI: Pattern = cmpi_ext!("CmpIExtUI", "arith.extui");

/// The patterns of `arith.cmpi`.
pub const CMPI: &[P] = &[&CMPI_EXTSI, &CMPI_EXTUI];

// ---------------------------------------------------------------- select

/// `select(pred, select(pred, a, b), c) -> select(pred, a, c)`
static REDUNDANT_SELECT_TRUE: Pattern = rule!(
    "RedundantSelectTrue: (arith.select ?z (arith.select ?z ?x _) ?y)",
    " => (arith.select ?z ?x ?y)",
);

/// `select(pred, a, select(pred, b, c)) -> select(pred, a, c)`
static REDUNDANT_SELECT_FALSE: Pattern = rule!(
    "RedundantSelectFalse: (arith.select ?z ?x (arith.select ?z _ ?y))",
    " => (arith.select ?z ?x ?y)",
);

/// `select(not(pred), a, b) -> select(pred, b, a)`
static SELECT_NOT_COND: Pattern = rule!(
    "SelectNotCond: (arith.select (arith.xori ?z (const ?c0)) ?x ?y)",
    " => (arith.select ?z ?y ?x) if scalar_int(?c0), all_ones(?c0)",
);

/// `select(pred, false, true) -> xori(pred, true)`
static SELECT_I1_TO_NOT: Pattern = rule!(
    "SelectI1ToNot: (arith.select ?x (const ?c0) (const ?c1))",
    " => (arith.xori ?x (const @one(?x) -> ?x) -> ?x) if is_false(?c0), is_true(?c1)",
);

/// `select(pred, 1, 0) -> extui(pred)` (hand-written in MLIR: benefit 1).
static SELECT_TO_EXTUI: Pattern = rule!(
    "SelectToExtUI: (arith.select ?x (const ?c0) (const ?c1))",
    " => (arith.extui ?x) if wide_int_result(), bits_one(?c0), bits_zero(?c1)",
);

/// `select(pred, 0, 1) -> extui(xori(pred, true))`
static SELECT_TO_EXTUI_NOT: Pattern = rule!(
    "SelectToExtUI: (arith.select ?x (const ?c0) (const ?c1))",
    " => (arith.extui (arith.xori ?x (const @one(?x) -> ?x) -> ?x))",
    " if wide_int_result(), bits_zero(?c0), bits_one(?c1)",
);

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
static INDEX_CAST_OF_INDEX_CAST: Pattern = rule!(
    "IndexCastOfIndexCast: (arith.index_cast (arith.index_cast ?x)) => ?x if has_root_type(?x)",
);
static INDEX_CASTUI_OF_INDEX_CASTUI: Pattern = rule!(
    "IndexCastUIOfIndexCastUI: (arith.index_castui (arith.index_castui ?x)) => ?x if has_root_type(?x)",
);

/// `outer(inner(x)) -> result(x)` with the root's type.
static INDEX_CAST_OF_EXTSI: Pattern =
    rule!("IndexCastOfExtSI: (arith.index_cast (arith.extsi ?x)) => (arith.index_cast ?x)");
static INDEX_CASTUI_OF_EXTUI: Pattern =
    rule!("IndexCastUIOfExtUI: (arith.index_castui (arith.extui ?x)) => (arith.index_castui ?x)");
static BITCAST_OF_BITCAST: Pattern =
    rule!("BitcastOfBitcast: (arith.bitcast (arith.bitcast ?x)) => (arith.bitcast ?x)");
static EXTSI_OF_EXTUI: Pattern =
    rule!("ExtSIOfExtUI: (arith.extsi (arith.extui ?x)) => (arith.extui ?x)");

/// The patterns of `arith.index_cast`.
pub const INDEX_CAST: &[P] = &[&INDEX_CAST_OF_INDEX_CAST, &INDEX_CAST_OF_EXTSI];
/// The patterns of `arith.index_castui`.
pub const INDEX_CASTUI: &[P] = &[&INDEX_CASTUI_OF_INDEX_CASTUI, &INDEX_CASTUI_OF_EXTUI];
/// The patterns of `arith.bitcast`.
pub const BITCAST: &[P] = &[&BITCAST_OF_BITCAST];
/// The patterns of `arith.extsi`.
pub const EXTSI: &[P] = &[&EXTSI_OF_EXTUI];

/// `trunci(ext(x)) -> ext(x)` when only extension bits are truncated.
static TRUNCI_EXTSI: Pattern = rule!(
    "TruncIExtSIToExtSI: (arith.trunci ?e=(arith.extsi ?x))",
    " => (arith.extsi ?x) if ext_trunc_widths(?e, ?x)",
);
static TRUNCI_EXTUI: Pattern = rule!(
    "TruncIExtUIToExtUI: (arith.trunci ?e=(arith.extui ?x))",
    " => (arith.extui ?x) if ext_trunc_widths(?e, ?x)",
);

/// `trunci(shrsi(x, c)) -> trunci(shrui(x, c))` when the shift drops exactly the
/// truncated bits.
static TRUNCI_SHRSI: Pattern = rule!(
    "TruncIShrSIToTrunciShrUI: (arith.trunci (arith.shrsi ?x (const ?c0)) :overflowFlags ?f)",
    " => (arith.trunci (arith.shrui ?x (const ?c0 -> ?c0) -> ?x) :overflowFlags @nonempty_ovf(?f))",
    " if shift_is_truncated_width(?x, ?c0)",
);

/// The patterns of `arith.trunci`.
pub const TRUNCI: &[P] = &[&TRUNCI_EXTSI, &TRUNCI_EXTUI, &TRUNCI_SHRSI];

/// `truncf(?itofp(x)) -> ?itofp(x)` with the default rounding mode.
static TRUNCF_SITOFP: Pattern = rule!(
    "TruncFSIToFPToSIToFP: (arith.truncf (arith.sitofp ?x) :roundingmode ?r)",
    " => (arith.sitofp ?x) if absent(?r)",
);
static TRUNCF_UITOFP: Pattern = rule!(
    "TruncFUIToFPToUIToFP: (arith.truncf (arith.uitofp ?x) :roundingmode ?r)",
    " => (arith.uitofp ?x) if absent(?r)",
);

/// The patterns of `arith.truncf`.
pub const TRUNCF: &[P] = &[&TRUNCF_SITOFP, &TRUNCF_UITOFP];

// ---------------------------------------------------------------- float

/// `op(negf(x), negf(y)) -> op(x, y)`, keeping the root's fast-math flags.
static MULF_OF_NEGF: Pattern = rule!(
    "MulFOfNegF: (arith.mulf (arith.negf ?x) (arith.negf ?y) :fastmath ?f)",
    " => (arith.mulf ?x ?y :fastmath @nonempty_fastmath(?f)) if same_type(?x, ?y)",
);
static DIVF_OF_NEGF: Pattern = rule!(
    "DivFOfNegF: (arith.divf (arith.negf ?x) (arith.negf ?y) :fastmath ?f)",
    " => (arith.divf ?x ?y :fastmath @nonempty_fastmath(?f)) if same_type(?x, ?y)",
);

/// The patterns of `arith.mulf`.
pub const MULF: &[P] = &[&MULF_OF_NEGF];
/// The patterns of `arith.divf`.
pub const DIVF: &[P] = &[&DIVF_OF_NEGF];

#[cfg(test)]
mod tests {
    /// Builds every canonicalization pattern of every dialect (a pattern whose
    /// text does not read fails here, naming the problem), and checks each is
    /// listed on the op it is rooted at.
    #[test]
    fn every_pattern_reads_and_roots_at_its_op() {
        let registry = crate::all_dialects();
        let mut n = 0;
        for d in registry.dialects() {
            for op in d.ops {
                for p in op.canonicalize {
                    assert_eq!(p.root(), Some(op.name), "a pattern of {}", op.name);
                    assert!(p.benefit() > 0, "a pattern of {}", op.name);
                    n += 1;
                }
            }
        }
        assert!(n >= 45, "{n} patterns");
    }
}
