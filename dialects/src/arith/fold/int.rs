//! Folders of the integer ops: binary arithmetic (constant folding with
//! wrap-around at the type's width, and the identities MLIR folds: `x + 0`,
//! `x * 1`, `x ^ x`, `(a - b) + b`, ...), `cmpi`, `select` and the extended
//! arithmetic ops. Division and shifts do not fold where MLIR refuses: by zero,
//! signed overflow, shift amounts not below the width.

use super::{Elem, Folded, elem_bits, fold_to_const, fold_to_value, make_const, mask, result_type};
use crate::arith::scalar::{Absorbing, IntRow, SameOperands};
use crate::arith::{AddI, AndI, CmpI, ExtSI, ExtUI, MulI, SubI, XOrI};
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use aic::rewrite::FoldResult;
use smallvec::smallvec;

pub use crate::arith::scalar::Bits;

/// What an integer binary op folds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Right {
    /// The left operand (`x + 0`).
    Lhs,
    /// The constant right operand itself (`x * 0` is the `0` given).
    Rhs,
    /// Another value (through defining ops: `(a - b) + b` is `a`).
    Value(Value),
    /// A constant.
    Const(i128),
}

/// What `op(x, c)` folds to for a constant right operand `c`, read off the
/// op's row: its right identity, absorbing element or a zero.
fn fold_right(row: &IntRow, c: Bits) -> Option<Right> {
    if row.identity.is_some_and(|e| e.is(c)) {
        return Some(Right::Lhs);
    }
    match row.absorbing {
        Some(Absorbing::Operand(a)) if a.is(c) => return Some(Right::Rhs),
        Some(Absorbing::Attr(a)) if a.is(c) => return Some(Right::Const(c.s)),
        _ => {}
    }
    row.zero_by
        .is_some_and(|z| z.is(c))
        .then_some(Right::Const(0))
}

/// What a fold through the operands' defining ops gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Through {
    /// An existing value.
    Value(Value),
    /// Zero (`x & ~x`).
    Zero,
}

/// An op's folds through its operands' defining ops, given `lhs` and `rhs`.
pub type DefsFn = fn(&Context, Value, Value) -> Option<Through>;

/// The folding hook of every integer binary op: `row` is its scalar
/// meaning and algebra, `defs` its folds through defining ops.
pub fn int_binary(
    ctx: &mut Context,
    op: Op,
    consts: &[Option<Attr>],
    [lhs, rhs]: [Value; 2],
    row: &IntRow,
    defs: Option<DefsFn>,
) -> Folded {
    let ty = result_type(ctx, op);
    let Some(Elem::Int(w)) = Elem::of(ctx, ty) else {
        return None;
    };
    let int = |a: Option<Attr>| Some(Bits::new(elem_bits(ctx, a?)? as i128, w));
    let (a, b) = (int(consts[0]), int(consts[1]));
    // As in MLIR's folders, identities on the right operand come first, then
    // folds through the operands' defining ops, then constant folding, then
    // `op(x, x)`.
    let outcome = b
        .and_then(|c| fold_right(row, c))
        .or_else(|| {
            defs.and_then(|f| f(ctx, lhs, rhs)).map(|t| match t {
                Through::Value(v) => Right::Value(v),
                Through::Zero => Right::Const(0),
            })
        })
        .or_else(|| Some(Right::Const((row.f)(a?, b?)?)))
        .or_else(|| {
            (lhs == rhs).then_some(row.same).flatten().map(|s| match s {
                SameOperands::Operand => Right::Lhs,
                SameOperands::Zero => Right::Const(0),
            })
        })?;
    match outcome {
        Right::Lhs => fold_to_value(lhs),
        Right::Rhs => fold_to_value(rhs),
        Right::Value(v) => fold_to_value(v),
        Right::Const(v) => fold_to_const(ctx, ty, v as u128),
    }
}

/// Whether `v` is a constant with every bit set.
fn is_ones(ctx: &Context, v: Value) -> bool {
    ctx.defining_op(v)
        .and_then(|d| aic::rewrite::constant_value(ctx, d))
        .and_then(|c| elem_bits(ctx, c))
        .zip(Elem::of(ctx, ctx.value_type(v)))
        .is_some_and(|(b, e)| b == mask(e.width()))
}

/// The `xori(of, -1)` defining `v`, if `v` is `not of`.
fn not_of(ctx: &Context, v: Value, of: Value) -> Option<XOrI> {
    XOrI::defining(ctx, v).filter(|x| x.lhs(ctx) == of && is_ones(ctx, x.rhs(ctx)))
}

/// `(a - b) + b` and `b + (a - b)` are `a`.
pub fn addi_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    if let Some(s) = SubI::defining(ctx, lhs)
        && s.rhs(ctx) == rhs
    {
        return Some(Through::Value(s.lhs(ctx)));
    }
    let s = SubI::defining(ctx, rhs)?;
    (s.rhs(ctx) == lhs).then(|| Through::Value(s.lhs(ctx)))
}

/// `(x + y) - y` is `x`, `(x + y) - x` is `y`.
pub fn subi_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    let a = AddI::defining(ctx, lhs)?;
    let (x, y) = (a.lhs(ctx), a.rhs(ctx));
    if y == rhs {
        Some(Through::Value(x))
    } else {
        (x == rhs).then_some(Through::Value(y))
    }
}

/// `x & ~x` and `~x & x` are zero (MLIR checks these right after the
/// identities); `a & (a & b)` is `a & b`.
pub fn andi_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    if not_of(ctx, rhs, lhs).is_some() || not_of(ctx, lhs, rhs).is_some() {
        return Some(Through::Zero);
    }
    for (prev, other) in [(lhs, rhs), (rhs, lhs)] {
        if let Some(p) = AndI::defining(ctx, prev)
            && (other == p.lhs(ctx) || other == p.rhs(ctx))
        {
            return Some(Through::Value(prev));
        }
    }
    None
}

/// `x | ~x` and `~x | x` are all ones (the `-1` of the `not`).
pub fn ori_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    not_of(ctx, rhs, lhs)
        .or_else(|| not_of(ctx, lhs, rhs))
        .map(|x| Through::Value(x.rhs(ctx)))
}

/// `(x ^ a) ^ a` is `x`, on either side.
pub fn xori_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    let other = |x: XOrI, v: Value| {
        let (a, b) = (x.lhs(ctx), x.rhs(ctx));
        if b == v {
            Some(a)
        } else {
            (a == v).then_some(b)
        }
    };
    XOrI::defining(ctx, lhs)
        .and_then(|x| other(x, rhs))
        .or_else(|| other(XOrI::defining(ctx, rhs)?, lhs))
        .map(Through::Value)
}

/// `(a * b) / b` is `a` when the multiplication carries the overflow flags
/// `need` (`nuw` for unsigned division, `nsw` for signed).
fn div_of_mul(ctx: &Context, lhs: Value, rhs: Value, need: u32) -> Option<Through> {
    let m = MulI::defining(ctx, lhs)?;
    let have = super::flags(ctx, m.overflow_flags(ctx), &crate::arith::OVERFLOW);
    if have & need != need {
        return None;
    }
    let (a, b) = (m.lhs(ctx), m.rhs(ctx));
    if a == rhs {
        Some(Through::Value(b))
    } else {
        (b == rhs).then_some(Through::Value(a))
    }
}

/// `(a * b) / b` is `a` under `nuw`.
pub fn divui_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    div_of_mul(ctx, lhs, rhs, 2)
}

/// `(a * b) / b` is `a` under `nsw`.
pub fn divsi_defs(ctx: &Context, lhs: Value, rhs: Value) -> Option<Through> {
    div_of_mul(ctx, lhs, rhs, 1)
}

/// MLIR's `arith.cmpi` predicates applied to two `w`-bit values.
pub fn apply_cmpi(pred: i128, a: Bits, b: Bits) -> bool {
    match pred {
        0 => a.u == b.u,
        1 => a.u != b.u,
        2 => a.s < b.s,
        3 => a.s <= b.s,
        4 => a.s > b.s,
        5 => a.s >= b.s,
        6 => a.u < b.u,
        7 => a.u <= b.u,
        8 => a.u > b.u,
        _ => a.u >= b.u,
    }
}

/// The predicate with its operands swapped (`slt` becomes `sgt`; `eq`, `ne` stay).
fn swapped_cmpi(pred: i128) -> i128 {
    match pred {
        2..=9 => {
            // slt<->sgt, sle<->sge, ult<->ugt, ule<->uge: pairs two apart.
            let base = if pred < 6 { 2 } else { 6 };
            base + (pred - base + 2) % 4
        }
        p => p,
    }
}

/// `arith.cmpi`: equal operands, `ext(i1) != 0`, `x != false` and `x == true` on
/// i1, constants moved to the right (swapping the predicate), then constant folding.
pub fn cmpi(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let c = CmpI(op);
    let pred = i128::from(c.predicate(ctx)?);
    let (lhs, rhs) = (c.lhs(ctx), c.rhs(ctx));
    let ty = result_type(ctx, op);
    if lhs == rhs {
        return fold_to_const(ctx, ty, u128::from(matches!(pred, 0 | 3 | 5 | 7 | 9)));
    }
    let Some(Elem::Int(w)) = Elem::of(ctx, ctx.value_type(lhs)) else {
        return None;
    };
    let rhs_bits = consts[1].and_then(|c| elem_bits(ctx, c));
    if rhs_bits == Some(0) && pred == 1 {
        let exts = [
            ExtSI::defining(ctx, lhs).map(|e| e.in_(ctx)),
            ExtUI::defining(ctx, lhs).map(|e| e.in_(ctx)),
        ];
        for src in exts.into_iter().flatten() {
            // MLIR asks `getIntegerWidth`, which knows integers and vectors only.
            let src_ty = ctx.value_type(src);
            let is_i1 = match ctx.type_kind(src_ty) {
                aic::TypeKind::Integer { width: 1, .. } => true,
                aic::TypeKind::Vector { elem, .. } => ctx.int_type(1) == *elem,
                _ => false,
            };
            if is_i1 {
                return fold_to_value(src);
            }
        }
        if w == 1 {
            return fold_to_value(lhs);
        }
    }
    if rhs_bits == Some(1) && w == 1 && pred == 0 {
        return fold_to_value(lhs);
    }
    match (consts[0], consts[1]) {
        (Some(_), None) => {
            let swapped = swapped_cmpi(pred);
            if swapped != pred {
                let a = ctx.attr(AttrKind::Integer {
                    value: swapped,
                    ty: ctx.int_type(64),
                });
                let name = ctx.ident("predicate");
                ctx.set_inherent_attr(op, name, a);
            }
            ctx.set_operands(op, &[rhs, lhs]);
            Some(smallvec![FoldResult::Value(ctx.result(op, 0))])
        }
        (Some(a), Some(b)) => {
            let (a, b) = (elem_bits(ctx, a)?, elem_bits(ctx, b)?);
            let r = apply_cmpi(pred, Bits::new(a as i128, w), Bits::new(b as i128, w));
            fold_to_const(ctx, ty, u128::from(r))
        }
        _ => None,
    }
}

/// `arith.select`: equal branches, constant conditions, `select(c, true, false)`
/// on i1, and `select(a == b, a, b)`-style selects through `cmpi eq/ne`.
pub fn select(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let s = crate::arith::Select(op);
    let [cond, t, f] = [s.condition(ctx), s.true_value(ctx), s.false_value(ctx)];
    if t == f {
        return fold_to_value(t);
    }
    let bits = |i: usize| consts[i].and_then(|c| elem_bits(ctx, c));
    match bits(0) {
        Some(1) => return fold_to_value(t),
        Some(0) => return fold_to_value(f),
        _ => {}
    }
    let ty = result_type(ctx, op);
    if ctx.type_kind(ty) == &aic::TypeKind::int(1) && bits(1) == Some(1) && bits(2) == Some(0) {
        return fold_to_value(cond);
    }
    if let Some(cmp) = CmpI::defining(ctx, cond) {
        let pred = cmp.predicate(ctx)?;
        let (a, b) = (cmp.lhs(ctx), cmp.rhs(ctx));
        if (pred == 0 || pred == 1) && ((a == t && b == f) || (b == t && a == f)) {
            return fold_to_value(if pred == 1 { t } else { f });
        }
    }
    None
}

/// `arith.addui_extended`: `x + 0` is `x` without overflow; constants fold to the
/// sum and its carry.
pub fn addui_extended(ctx: &mut Context, op: Op, lhs: Value, consts: &[Option<Attr>]) -> Folded {
    let ty = result_type(ctx, op);
    let ovf_ty = ctx.value_type(ctx.result(op, 1));
    let Some(Elem::Int(w)) = Elem::of(ctx, ty) else {
        return None;
    };
    let b = consts[1].and_then(|c| elem_bits(ctx, c));
    if b == Some(0) {
        return Some(smallvec![
            FoldResult::Value(lhs),
            FoldResult::Attr(make_const(ctx, ovf_ty, 0)?)
        ]);
    }
    let a = consts[0].and_then(|c| elem_bits(ctx, c))?;
    let sum = a.wrapping_add(b?) & mask(w);
    Some(smallvec![
        FoldResult::Attr(make_const(ctx, ty, sum)?),
        FoldResult::Attr(make_const(ctx, ovf_ty, u128::from(sum < a))?)
    ])
}

/// `arith.mulsi_extended` (`signed`) and `arith.mului_extended`: by zero
/// (both results zero), by one (unsigned only: `x` and zero), and constant
/// folding of the low and high halves.
pub fn mul_extended(
    ctx: &mut Context,
    op: Op,
    lhs: Value,
    consts: &[Option<Attr>],
    signed: bool,
) -> Folded {
    let ty = result_type(ctx, op);
    let Some(Elem::Int(w)) = Elem::of(ctx, ty) else {
        return None;
    };
    let b = consts[1].and_then(|c| elem_bits(ctx, c));
    let zero = || make_const(ctx, ty, 0).map(FoldResult::Attr);
    if b == Some(0) {
        return Some(smallvec![zero()?, zero()?]);
    }
    if b == Some(1) && !signed {
        return Some(smallvec![FoldResult::Value(lhs), zero()?]);
    }
    let (a, b) = (
        Bits::new(consts[0].and_then(|c| elem_bits(ctx, c))? as i128, w),
        Bits::new(b? as i128, w),
    );
    let (lo, hi) = wide_mul(a, b, signed);
    Some(smallvec![
        FoldResult::Attr(make_const(ctx, ty, lo)?),
        FoldResult::Attr(make_const(ctx, ty, hi)?)
    ])
}

/// The low and high `w` bits of the `2w`-bit product of two `w`-bit values.
fn wide_mul(a: Bits, b: Bits, signed: bool) -> (u128, u128) {
    let w = a.w;
    if w <= 64 {
        let p: i128 = if signed {
            a.s * b.s
        } else {
            (a.u * b.u) as i128
        };
        let p = p as u128;
        return (p & mask(w), (p >> w) & mask(w));
    }
    // Schoolbook on 64-bit limbs for 65..=128 bits: the unsigned product, then
    // the signed correction `hi -= (a<0 ? b : 0) + (b<0 ? a : 0)`.
    let (al, ah) = (a.u as u64 as u128, a.u >> 64);
    let (bl, bh) = (b.u as u64 as u128, b.u >> 64);
    let ll = al * bl;
    let lh = al * bh;
    let hl = ah * bl;
    let hh = ah * bh;
    let mid = (ll >> 64) + (lh as u64 as u128) + (hl as u64 as u128);
    let lo128 = (ll as u64 as u128) | (mid << 64);
    let hi128 = hh + (lh >> 64) + (hl >> 64) + (mid >> 64);
    // Split the 256-bit product at bit w.
    let lo = lo128 & mask(w);
    let mut hi = if w == 128 {
        hi128
    } else {
        (lo128 >> w) | (hi128 << (128 - w))
    } & mask(w);
    if signed {
        if a.s < 0 {
            hi = hi.wrapping_sub(b.u) & mask(w);
        }
        if b.s < 0 {
            hi = hi.wrapping_sub(a.u) & mask(w);
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::arith::scalar;

    #[test]
    fn wraps_and_refuses_like_mlir() {
        let b = |v| Bits::new(v, 8);
        assert_eq!(
            (scalar::ADDI.f)(b(127), b(1)).map(|v| Bits::new(v, 8).s),
            Some(-128)
        );
        assert_eq!((scalar::DIVSI.f)(b(-128), b(-1)), None);
        assert_eq!((scalar::DIVUI.f)(b(5), b(0)), None);
        assert_eq!((scalar::SHLI.f)(b(1), b(8)), None);
        assert_eq!((scalar::FLOORDIVSI.f)(b(-7), b(2)), Some(-4));
        assert_eq!((scalar::CEILDIVSI.f)(b(7), b(2)), Some(4));
        assert_eq!(
            (scalar::MAXUI.f)(b(-1), b(1)).map(|v| Bits::new(v, 8).u),
            Some(255)
        );
        assert_eq!((scalar::SHRSI.f)(b(-8), b(1)), Some(-4));
    }

    #[test]
    fn right_operands_fold_by_the_rows() {
        let b = |v| Bits::new(v, 8);
        assert_eq!(fold_right(&scalar::ADDI, b(0)), Some(Right::Lhs));
        assert_eq!(fold_right(&scalar::ADDI, b(1)), None);
        assert_eq!(fold_right(&scalar::MULI, b(0)), Some(Right::Rhs));
        assert_eq!(fold_right(&scalar::ORI, b(-1)), Some(Right::Const(-1)));
        assert_eq!(fold_right(&scalar::REMUI, b(1)), Some(Right::Const(0)));
        assert_eq!(fold_right(&scalar::MAXSI, b(-128)), Some(Right::Lhs));
        assert_eq!(fold_right(&scalar::MAXSI, b(127)), Some(Right::Rhs));
        assert_eq!(fold_right(&scalar::MINUI, b(-1)), Some(Right::Lhs));
    }
}
