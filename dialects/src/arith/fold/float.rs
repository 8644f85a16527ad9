//! Folders of the float ops: IEEE arithmetic in the op's own float type with
//! LLVM `APFloat`'s NaN rules (a NaN operand propagates quieted, the left one
//! first; invalid operations give the positive default NaN), the identities MLIR
//! folds (`x + -0.0`, `x - +0.0`, `x * 1.0`, `x / 1.0`, `maxnumf(x, NaN)`, ...),
//! `negf` and `cmpf`.
//!
//! Arithmetic is computed in `f64` and rounded once into the op's type. For
//! formats of at most 24 significand bits that is exactly IEEE's correctly
//! rounded result (`f64` has more than twice the precision plus two bits, so the
//! double rounding is innocuous); `f64` itself uses the host's IEEE arithmetic.
//! `f80`, `f128` and the non-IEEE 8-bit formats are not constant-folded
//! (their identities still are).

use super::{Elem, Folded, elem_bits, fold_to_const, fold_to_value, is_scalar, result_type};
use crate::arith::scalar::{FloatRow, NanRule};
use crate::arith::{CmpF, MulF, NegF};
use aic::attributes::Attr;
use aic::float::FloatKind;
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use std::cmp::Ordering;

/// Whether `kind` has IEEE-style NaNs (a quiet bit) and is computed exactly
/// through `f64`.
pub(super) fn computable(kind: FloatKind) -> bool {
    use FloatKind::*;
    matches!(
        kind,
        F16 | BF16 | TF32 | F32 | F64 | F8E5M2 | F8E4M3 | F8E3M4
    )
}

/// The quiet bit of `kind`'s NaNs.
fn quiet_bit(kind: FloatKind) -> u128 {
    1u128 << (kind.precision() - 2)
}

/// `bits` with the quiet bit set when it is a NaN (APFloat's `makeQuiet`).
pub fn quieted(kind: FloatKind, bits: u128) -> u128 {
    if kind.is_nan(bits) {
        bits | quiet_bit(kind)
    } else {
        bits
    }
}

/// Whether `bits` is a signaling NaN.
pub fn is_signaling(kind: FloatKind, bits: u128) -> bool {
    kind.is_nan(bits) && bits & quiet_bit(kind) == 0
}

/// The positive quiet NaN APFloat produces for invalid operations.
fn default_nan(kind: FloatKind) -> u128 {
    if kind == FloatKind::F64 {
        0x7FF8_0000_0000_0000
    } else {
        kind.from_f64(f64::NAN)
    }
}

/// Round an `f64` result into `kind`, giving NaNs the default encoding.
fn round(kind: FloatKind, r: f64) -> u128 {
    if r.is_nan() {
        default_nan(kind)
    } else {
        kind.from_f64(r)
    }
}

/// A float binary operation's constant folding on bit patterns, `None` where
/// the type is not computed here: the op's scalar meaning
/// ([`crate::arith::scalar`]) on non-NaN operands, rounded once into `kind`,
/// and APFloat's rules for NaN operands.
pub fn apply_binary(row: &FloatRow, kind: FloatKind, a: u128, b: u128) -> Option<u128> {
    if !computable(kind) {
        return None;
    }
    let (nan, f) = (row.nan, row.f);
    let (an, bn) = (kind.is_nan(a), kind.is_nan(b));
    Some(match nan {
        // APFloat returns the first NaN operand, quieted.
        NanRule::Propagate if an => quieted(kind, a),
        NanRule::Propagate if bn => quieted(kind, b),
        NanRule::Number if is_signaling(kind, a) => quieted(kind, a),
        NanRule::Number if is_signaling(kind, b) => quieted(kind, b),
        NanRule::Number if an => b,
        NanRule::Number if bn => a,
        _ => round(kind, f(kind.to_f64(a), kind.to_f64(b))),
    })
}

/// `mulf(x, ±0)` is the `±0` given under `nnan` and `nsz`.
pub fn mulf_absorbs(ctx: &Context, op: Op, kind: FloatKind, c: u128) -> bool {
    let fm = super::flags(ctx, MulF(op).fastmath(ctx), &crate::arith::FASTMATH);
    fm & 0b1010 == 0b1010 && kind.to_f64(c) == 0.0
}

/// A test of a float op's constant right operand `c` (of `kind`): whether
/// the op folds to that operand.
pub type AbsorbsFn = fn(&Context, Op, FloatKind, u128) -> bool;

/// The folding hook of the float binary ops: `row` is the op's scalar
/// meaning and algebra, `absorbs` its own absorbing rule.
pub fn float_binary(
    ctx: &mut Context,
    op: Op,
    consts: &[Option<Attr>],
    [lhs, rhs]: [Value; 2],
    row: &FloatRow,
    absorbs: Option<AbsorbsFn>,
) -> Folded {
    let ty = result_type(ctx, op);
    let Some(Elem::Float(kind)) = Elem::of(ctx, ty) else {
        return None;
    };
    // An idempotent op of a value with itself is the value (checked before
    // the constants).
    if lhs == rhs && row.idempotent {
        return fold_to_value(rhs);
    }
    let b = consts[1].and_then(|c| elem_bits(ctx, c));
    if let Some(c) = b {
        if row.identity.is_some_and(|e| e.is(kind, c)) {
            return fold_to_value(lhs);
        }
        if absorbs.is_some_and(|f| f(ctx, op, kind, c)) {
            return fold_to_value(rhs);
        }
    }
    let a = consts[0].and_then(|c| elem_bits(ctx, c))?;
    fold_to_const(ctx, ty, apply_binary(row, kind, a, b?)?)
}

/// `arith.negf`: `negf(negf(x))` is `x`; constants flip their sign bit (NaNs
/// included, unquieted, as APFloat's negation does).
pub fn negf(ctx: &mut Context, op: Op, x: Value, consts: &[Option<Attr>]) -> Folded {
    if let Some(inner) = NegF::defining(ctx, x) {
        return fold_to_value(inner.operand(ctx));
    }
    let ty = result_type(ctx, op);
    let Some(Elem::Float(kind)) = Elem::of(ctx, ty) else {
        return None;
    };
    if !computable(kind) {
        return None;
    }
    let a = consts[0].and_then(|c| elem_bits(ctx, c))?;
    fold_to_const(ctx, ty, a ^ (1u128 << (kind.bit_width() - 1)))
}

/// MLIR's `arith.cmpf` predicates on an IEEE comparison (`None`: unordered).
pub fn apply_cmpf(pred: i128, ord: Option<Ordering>) -> bool {
    use Ordering::*;
    match pred {
        0 => false,
        1 => ord == Some(Equal),
        2 => ord == Some(Greater),
        3 => matches!(ord, Some(Greater | Equal)),
        4 => ord == Some(Less),
        5 => matches!(ord, Some(Less | Equal)),
        6 => matches!(ord, Some(Less | Greater)),
        7 => ord.is_some(),
        8 => matches!(ord, None | Some(Equal)),
        9 => matches!(ord, None | Some(Greater)),
        10 => ord != Some(Less),
        11 => matches!(ord, None | Some(Less)),
        12 => ord != Some(Greater),
        13 => ord != Some(Equal),
        14 => ord.is_none(),
        _ => true,
    }
}

/// `arith.cmpf` of two scalar constants; a NaN on either side decides alone
/// (MLIR folds `cmpf(NaN, x)` even for a non-constant `x`).
pub fn cmpf(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let c = CmpF(op);
    let pred = i128::from(c.predicate(ctx)?);
    let Some(Elem::Float(kind)) = Elem::of(ctx, ctx.value_type(c.lhs(ctx))) else {
        return None;
    };
    if matches!(kind, FloatKind::F80 | FloatKind::F128) {
        return None;
    }
    // Only `FloatAttr`s: MLIR does not fold splats here.
    let scalar = |i: usize| {
        consts[i]
            .filter(|c| is_scalar(ctx, *c))
            .and_then(|c| elem_bits(ctx, c))
    };
    let (a, b) = (scalar(0), scalar(1));
    let nan = a
        .filter(|a| kind.is_nan(*a))
        .or(b.filter(|b| kind.is_nan(*b)));
    let ord = if nan.is_some() {
        None
    } else {
        kind.to_f64(a?).partial_cmp(&kind.to_f64(b?))
    };
    fold_to_const(ctx, result_type(ctx, op), u128::from(apply_cmpf(pred, ord)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::scalar;

    const F32: FloatKind = FloatKind::F32;
    fn f(v: f32) -> u128 {
        u128::from(v.to_bits())
    }

    #[test]
    fn nan_rules_match_apfloat() {
        let (inf, snan, nnan) = (0x7F80_0000u128, 0x7F80_0001u128, 0xFFC0_0005u128);
        // Invalid operations: the positive default NaN.
        assert_eq!(
            apply_binary(&scalar::SUBF, F32, inf, inf),
            Some(0x7FC0_0000)
        );
        assert_eq!(
            apply_binary(&scalar::MULF, F32, f(0.0), inf),
            Some(0x7FC0_0000)
        );
        assert_eq!(
            apply_binary(&scalar::REMF, F32, f(1.0), f(0.0)),
            Some(0x7FC0_0000)
        );
        // NaN operands propagate quieted, sign kept, left first.
        assert_eq!(
            apply_binary(&scalar::ADDF, F32, f(1.0), snan),
            Some(0x7FC0_0001)
        );
        assert_eq!(apply_binary(&scalar::SUBF, F32, f(1.0), nnan), Some(nnan));
        assert_eq!(apply_binary(&scalar::ADDF, F32, nnan, snan), Some(nnan));
        assert_eq!(
            apply_binary(&scalar::MINIMUMF, F32, f(1.0), snan),
            Some(0x7FC0_0001)
        );
        assert_eq!(
            apply_binary(&scalar::MINNUMF, F32, snan, f(1.0)),
            Some(0x7FC0_0001)
        );
        assert_eq!(
            apply_binary(&scalar::MINNUMF, F32, 0x7FC0_0000, f(1.0)),
            Some(f(1.0))
        );
    }

    #[test]
    fn signed_zeros_and_infinities() {
        let (z, nz) = (f(0.0), f(-0.0));
        assert_eq!(apply_binary(&scalar::MAXNUMF, F32, z, nz), Some(z));
        assert_eq!(apply_binary(&scalar::MAXNUMF, F32, nz, z), Some(z));
        assert_eq!(apply_binary(&scalar::MINIMUMF, F32, z, nz), Some(nz));
        assert_eq!(apply_binary(&scalar::MAXIMUMF, F32, nz, z), Some(z));
        assert_eq!(apply_binary(&scalar::REMF, F32, nz, f(1.0)), Some(nz));
        assert_eq!(
            apply_binary(&scalar::DIVF, F32, f(1.0), nz),
            Some(f(f32::NEG_INFINITY))
        );
        assert_eq!(apply_binary(&scalar::ADDF, F32, f(-1.0), f(1.0)), Some(z));
        assert_eq!(
            apply_binary(&scalar::MULF, F32, f(f32::MAX), f(2.0)),
            Some(f(f32::INFINITY))
        );
    }

    #[test]
    fn rounds_once_in_the_op_type() {
        // 1 + 2^-24 is a tie in f32: to even, 1.0; 1 + 3*2^-24 rounds up.
        let e = f32::EPSILON / 2.0;
        assert_eq!(apply_binary(&scalar::ADDF, F32, f(1.0), f(e)), Some(f(1.0)));
        assert_eq!(
            apply_binary(&scalar::ADDF, F32, f(1.0), f(3.0 * e)),
            Some(f(1.0 + 4.0 * e))
        );
        assert_eq!(
            apply_binary(&scalar::DIVF, F32, f(1.0), f(3.0)),
            Some(f(1.0 / 3.0))
        );
        // f16: 2049 is not representable; 2048 + 1 ties to 2048.
        let h = FloatKind::F16;
        let r = apply_binary(&scalar::ADDF, h, h.from_f64(2048.0), h.from_f64(1.0)).unwrap();
        assert_eq!(h.to_f64(r), 2048.0);
        // bf16 overflow goes to infinity.
        let b = FloatKind::BF16;
        let max = b.from_f64(3.3895313892515355e38);
        let r = apply_binary(&scalar::MULF, b, max, b.from_f64(2.0)).unwrap();
        assert!(b.is_inf(r));
        // f64 natively.
        let d = FloatKind::F64;
        let r = apply_binary(&scalar::ADDF, d, d.from_f64(0.1), d.from_f64(0.2)).unwrap();
        assert_eq!(d.to_f64(r), 0.1 + 0.2);
        assert_eq!(apply_binary(&scalar::ADDF, FloatKind::F128, 0, 0), None);
    }

    #[test]
    fn cmpf_predicates_order_nans() {
        assert!(apply_cmpf(14, None) && !apply_cmpf(7, None));
        assert!(apply_cmpf(8, None) && !apply_cmpf(1, None) && apply_cmpf(13, None));
        assert!(apply_cmpf(1, Some(Ordering::Equal)) && !apply_cmpf(6, Some(Ordering::Equal)));
        assert!(apply_cmpf(10, Some(Ordering::Equal)) && !apply_cmpf(11, Some(Ordering::Equal)));
    }
}
