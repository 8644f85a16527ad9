//! Folders of the integer ops: binary arithmetic (constant folding with
//! wrap-around at the type's width, and the identities MLIR folds: `x + 0`,
//! `x * 1`, `x ^ x`, `(a - b) + b`, ...), `cmpi`, `select` and the extended
//! arithmetic ops. Division and shifts do not fold where MLIR refuses: by zero,
//! signed overflow, shift amounts not below the width.

use super::{
    Elem, Folded, def_op, elem_bits, enum_attr, fold_to_const, fold_to_value, make_const, mask,
    result_type,
};
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Context, Op, Value};
use aic::rewrite::FoldResult;
use smallvec::smallvec;

pub use crate::arith::scalar::Bits;
use crate::arith::scalar::{self, signed_max};

/// Constant-fold `name` on `a` and `b` by its scalar meaning
/// ([`crate::arith::scalar`]); `None` where MLIR does not fold.
pub(crate) fn fold_consts(name: &str, a: Bits, b: Bits) -> Option<i128> {
    scalar::int_binary(name)?(a, b)
}

/// What `op(x, c)` folds to for a constant right operand `c`: the left operand
/// (`Some(None)`), the constant operand itself when MLIR returns it (`Some(Some(c))`
/// with `c` the operand's own value, see [`int_binary`]), another constant, or
/// nothing.
fn fold_right_identity(name: &str, c: Bits) -> Option<Option<i128>> {
    let ones = c.u == Bits::new(-1, c.w).u;
    match (name, c.u) {
        ("arith.addi" | "arith.subi" | "arith.ori" | "arith.xori", 0) => Some(None),
        ("arith.shli" | "arith.shrui" | "arith.shrsi", 0) => Some(None),
        (
            "arith.muli" | "arith.divsi" | "arith.divui" | "arith.ceildivsi" | "arith.ceildivui"
            | "arith.floordivsi",
            1,
        ) => Some(None),
        ("arith.muli" | "arith.andi", 0) => Some(Some(c.s)),
        ("arith.remsi" | "arith.remui", 1) => Some(Some(0)),
        ("arith.andi", _) if ones => Some(None),
        ("arith.ori", _) if ones => Some(Some(c.s)),
        // Extremes of the signed and unsigned orders.
        ("arith.maxui" | "arith.minui", _) if c.u == 0 || ones => {
            if (name == "arith.maxui") == (c.u == 0) {
                Some(None)
            } else {
                Some(Some(c.s))
            }
        }
        ("arith.maxsi" | "arith.minsi", _) if c.min_signed() || c.s == signed_max(c.w) => {
            let is_max = c.s == signed_max(c.w);
            if (name == "arith.minsi") == is_max {
                Some(None)
            } else {
                Some(Some(c.s))
            }
        }
        _ => None,
    }
}

/// What `op(x, x)` folds to: `x` (`Some(None)`) or a constant.
fn fold_same_operands(name: &str) -> Option<Option<i128>> {
    match name {
        "arith.andi" | "arith.ori" | "arith.maxsi" | "arith.maxui" | "arith.minsi"
        | "arith.minui" => Some(None),
        "arith.subi" | "arith.xori" => Some(Some(0)),
        _ => None,
    }
}

/// The folding hook of every integer binary op.
pub fn int_binary(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let ty = result_type(ctx, op);
    let Some(Elem::Int(w)) = Elem::of(ctx, ty) else {
        return None;
    };
    let name = ctx.op_spec(op)?.name;
    let int = |a: Option<Attr>| Some(Bits::new(elem_bits(ctx, a?)? as i128, w));
    let (a, b) = (int(consts[0]), int(consts[1]));
    let (lhs, rhs) = (ctx.operands(op)[0], ctx.operands(op)[1]);
    // As in MLIR's folders, identities on the right operand come first, then
    // folds through the operands' defining ops, then constant folding, then
    // `op(x, x)`.
    // Where the identity yields the constant operand itself, MLIR's folders
    // return that operand (`x * 0` is the `0` given), not a new constant.
    if let Some(c) = b
        && let Some(Some(v)) = fold_right_identity(name, c)
        && v == c.s
        // `ori` alone returns the attribute (MLIR's `adaptor.getRhs()`).
        && name != "arith.ori"
    {
        return fold_to_value(rhs);
    }
    let outcome = b
        .and_then(|c| fold_right_identity(name, c))
        .map(Ok)
        .or_else(|| fold_through_defs(ctx, name, lhs, rhs).map(Err))
        .or_else(|| match (a, b) {
            (Some(a), Some(b)) => fold_consts(name, a, b).map(Some).map(Ok),
            _ => None,
        })
        .or_else(|| {
            (lhs == rhs)
                .then(|| fold_same_operands(name))
                .flatten()
                .map(Ok)
        })?;
    match outcome {
        Ok(None) => fold_to_value(lhs),
        Ok(Some(v)) => fold_to_const(ctx, ty, v as u128),
        Err(v) => fold_to_value(v),
    }
}

/// The folds MLIR makes by looking at the operands' defining ops:
/// `(a - b) + b`, `(a + b) - b`, `x & ~x`, `a & (a & b)`, `x | ~x`,
/// `(x ^ a) ^ a`, and `(a * b) / b` when the multiplication cannot wrap.
fn fold_through_defs(ctx: &Context, name: &str, lhs: Value, rhs: Value) -> Option<Value> {
    let operands = |o: Op| (ctx.operands(o)[0], ctx.operands(o)[1]);
    let is_ones = |v: Value| {
        ctx.defining_op(v)
            .and_then(|d| aic::rewrite::constant_value(ctx, d))
            .and_then(|c| elem_bits(ctx, c))
            .zip(Elem::of(ctx, ctx.value_type(v)))
            .is_some_and(|(b, e)| b == mask(e.width()))
    };
    // `xori(x, -1)` with `x` = `of`: the `xori` op.
    let not_of = |v: Value, of: Value| {
        def_op(ctx, v, "arith.xori").filter(|x| {
            let (a, b) = operands(*x);
            a == of && is_ones(b)
        })
    };
    match name {
        "arith.addi" => {
            if let Some(s) = def_op(ctx, lhs, "arith.subi")
                && operands(s).1 == rhs
            {
                return Some(operands(s).0);
            }
            let s = def_op(ctx, rhs, "arith.subi")?;
            (operands(s).1 == lhs).then(|| operands(s).0)
        }
        "arith.subi" => {
            let a = def_op(ctx, lhs, "arith.addi")?;
            let (x, y) = operands(a);
            if y == rhs {
                Some(x)
            } else {
                (x == rhs).then_some(y)
            }
        }
        "arith.andi" => {
            // `and(x, not x)` is zero: a constant, not a value; see `int_binary_defs_zero`.
            for (prev, other) in [(lhs, rhs), (rhs, lhs)] {
                if let Some(p) = def_op(ctx, prev, "arith.andi") {
                    let (a, b) = operands(p);
                    if other == a || other == b {
                        return Some(prev);
                    }
                }
            }
            None
        }
        "arith.ori" => not_of(rhs, lhs)
            .or_else(|| not_of(lhs, rhs))
            .map(|x| operands(x).1),
        "arith.xori" => {
            if let Some(p) = def_op(ctx, lhs, "arith.xori") {
                let (a, b) = operands(p);
                if b == rhs {
                    return Some(a);
                }
                if a == rhs {
                    return Some(b);
                }
            }
            let p = def_op(ctx, rhs, "arith.xori")?;
            let (a, b) = operands(p);
            if b == lhs {
                Some(a)
            } else {
                (a == lhs).then_some(b)
            }
        }
        "arith.divui" | "arith.divsi" => {
            let m = def_op(ctx, lhs, "arith.muli")?;
            let need = if name == "arith.divui" { 2 } else { 1 };
            let have = super::flags(ctx, m, "overflowFlags", &crate::arith::OVERFLOW);
            if have & need != need {
                return None;
            }
            let (a, b) = operands(m);
            if a == rhs {
                Some(b)
            } else {
                (b == rhs).then_some(a)
            }
        }
        _ => None,
    }
}

/// `and(x, not x)` and `and(not x, x)`: zero (MLIR checks these between the
/// identities and the other folds through defining ops).
fn and_with_not(ctx: &Context, lhs: Value, rhs: Value) -> bool {
    let is_not_of = |v: Value, of: Value| {
        def_op(ctx, v, "arith.xori").is_some_and(|x| {
            let (a, b) = (ctx.operands(x)[0], ctx.operands(x)[1]);
            a == of
                && ctx
                    .defining_op(b)
                    .and_then(|d| aic::rewrite::constant_value(ctx, d))
                    .and_then(|c| elem_bits(ctx, c))
                    .zip(Elem::of(ctx, ctx.value_type(b)))
                    .is_some_and(|(bits, e)| bits == mask(e.width()))
        })
    };
    is_not_of(rhs, lhs) || is_not_of(lhs, rhs)
}

/// The folding hook of `arith.andi`: as [`int_binary`], and
/// `x & ~x` folds to zero.
pub fn andi(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let (lhs, rhs) = (ctx.operands(op)[0], ctx.operands(op)[1]);
    let right_identity = consts[1].and_then(|c| elem_bits(ctx, c)).is_some_and(|b| {
        b == 0 || Elem::of(ctx, ctx.value_type(rhs)).is_some_and(|e| b == mask(e.width()))
    });
    if !right_identity && and_with_not(ctx, lhs, rhs) {
        return fold_to_const(ctx, result_type(ctx, op), 0);
    }
    int_binary(ctx, op, consts)
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
    let pred = enum_attr(ctx, op, "predicate")?;
    let (lhs, rhs) = (ctx.operands(op)[0], ctx.operands(op)[1]);
    let ty = result_type(ctx, op);
    if lhs == rhs {
        return fold_to_const(ctx, ty, u128::from(matches!(pred, 0 | 3 | 5 | 7 | 9)));
    }
    let Some(Elem::Int(w)) = Elem::of(ctx, ctx.value_type(lhs)) else {
        return None;
    };
    let rhs_bits = consts[1].and_then(|c| elem_bits(ctx, c));
    if rhs_bits == Some(0) && pred == 1 {
        for ext in ["arith.extsi", "arith.extui"] {
            if let Some(e) = def_op(ctx, lhs, ext) {
                let src = ctx.operands(e)[0];
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
    let [cond, t, f] = [0, 1, 2].map(|i| ctx.operands(op)[i]);
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
    if let Some(cmp) = def_op(ctx, cond, "arith.cmpi") {
        let pred = enum_attr(ctx, cmp, "predicate")?;
        let (a, b) = (ctx.operands(cmp)[0], ctx.operands(cmp)[1]);
        if (pred == 0 || pred == 1) && ((a == t && b == f) || (b == t && a == f)) {
            return fold_to_value(if pred == 1 { t } else { f });
        }
    }
    None
}

/// `arith.addui_extended`: `x + 0` is `x` without overflow; constants fold to the
/// sum and its carry.
pub fn addui_extended(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let ty = result_type(ctx, op);
    let ovf_ty = ctx.value_type(ctx.result(op, 1));
    let Some(Elem::Int(w)) = Elem::of(ctx, ty) else {
        return None;
    };
    let b = consts[1].and_then(|c| elem_bits(ctx, c));
    if b == Some(0) {
        let lhs = ctx.operands(op)[0];
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

/// `arith.mulsi_extended` and `arith.mului_extended`: by zero (both results zero),
/// by one (unsigned only: `x` and zero), and constant folding of the low and
/// high halves.
pub fn mul_extended(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let ty = result_type(ctx, op);
    let Some(Elem::Int(w)) = Elem::of(ctx, ty) else {
        return None;
    };
    let signed = ctx.op_name(op) == "arith.mulsi_extended";
    let b = consts[1].and_then(|c| elem_bits(ctx, c));
    let zero = || make_const(ctx, ty, 0).map(FoldResult::Attr);
    if b == Some(0) {
        return Some(smallvec![zero()?, zero()?]);
    }
    if b == Some(1) && !signed {
        return Some(smallvec![FoldResult::Value(ctx.operands(op)[0]), zero()?]);
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

    #[test]
    fn wraps_and_refuses_like_mlir() {
        let b = |v| Bits::new(v, 8);
        assert_eq!(
            fold_consts("arith.addi", b(127), b(1)).map(|v| Bits::new(v, 8).s),
            Some(-128)
        );
        assert_eq!(fold_consts("arith.divsi", b(-128), b(-1)), None);
        assert_eq!(fold_consts("arith.divui", b(5), b(0)), None);
        assert_eq!(fold_consts("arith.shli", b(1), b(8)), None);
        assert_eq!(fold_consts("arith.floordivsi", b(-7), b(2)), Some(-4));
        assert_eq!(fold_consts("arith.ceildivsi", b(7), b(2)), Some(4));
        assert_eq!(
            fold_consts("arith.maxui", b(-1), b(1)).map(|v| Bits::new(v, 8).u),
            Some(255)
        );
        assert_eq!(fold_consts("arith.shrsi", b(-8), b(1)), Some(-4));
    }
}
