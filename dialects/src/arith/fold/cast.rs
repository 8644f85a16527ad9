//! Folders of the casts: constant folding (integer extension and truncation,
//! int/float conversions, lossless float conversions, bit casts) and the
//! cast-of-cast chains MLIR folds (`extsi(extsi x)`, `trunci(ext x)`,
//! `truncf(extf x)`, ...), some of them in place by skipping the inner cast.

use super::float::computable;
use super::{Elem, Folded, elem_bits, fold_to_const, fold_to_value, mask, result_type};
use crate::arith::scalar::Cast;
use crate::arith::{ExtF, ExtSI, ExtUI, TruncF, TruncI};
use aic::attributes::Attr;
use aic::float::FloatKind;
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use aic::rewrite::FoldResult;
use smallvec::smallvec;

/// A fold that updated `op` in place (its operand now skips an inner cast).
fn in_place(ctx: &mut Context, op: Op, new_input: Value) -> Folded {
    ctx.set_operand(op, 0, new_input);
    Some(smallvec![FoldResult::Value(ctx.result(op, 0))])
}

/// The element bits of the constant operand and the input and result element kinds.
fn operand(
    ctx: &Context,
    op: Op,
    input: Value,
    consts: &[Option<Attr>],
) -> Option<(u128, Elem, Elem)> {
    let bits = elem_bits(ctx, consts[0]?)?;
    let from = Elem::of(ctx, ctx.value_type(input))?;
    Some((bits, from, Elem::of(ctx, result_type(ctx, op))?))
}

/// Sign-extend the low `from` bits of `v` to `to` bits.
fn sext(v: u128, from: u32, to: u32) -> u128 {
    let s = if from >= 128 {
        v as i128
    } else {
        ((v << (128 - from)) as i128) >> (128 - from)
    };
    (s as u128) & mask(to)
}

/// An integer-to-integer cast: `signed` extension (or truncation) to the result width.
fn int_cast(ctx: &Context, op: Op, input: Value, consts: &[Option<Attr>], signed: bool) -> Folded {
    let (v, from, to) = operand(ctx, op, input, consts)?;
    let r = if signed {
        sext(v, from.width(), to.width())
    } else {
        v & mask(to.width())
    };
    fold_to_const(ctx, result_type(ctx, op), r)
}

/// A cast of a constant by its meaning `cast`.
pub fn constant_cast(
    ctx: &mut Context,
    op: Op,
    input: Value,
    consts: &[Option<Attr>],
    cast: Cast,
) -> Folded {
    match cast {
        Cast::Int { signed } => int_cast(ctx, op, input, consts, signed),
        Cast::IntToFloat { signed } => int_to_fp(ctx, op, input, consts, signed),
        Cast::FloatToInt { signed } => fp_to_int(ctx, op, input, consts, signed),
        Cast::Float => float_cast(ctx, op, input, consts),
        Cast::Bits => {
            let (v, _, _) = operand(ctx, op, input, consts)?;
            fold_to_const(ctx, result_type(ctx, op), v)
        }
    }
}

/// `ext(ext x)`, the inner extension of the same kind taking `inner`, skips
/// the inner cast; constants extend.
fn ext(
    ctx: &mut Context,
    op: Op,
    input: Value,
    inner: Option<Value>,
    consts: &[Option<Attr>],
    cast: Cast,
) -> Folded {
    if let Some(x) = inner {
        return in_place(ctx, op, x);
    }
    constant_cast(ctx, op, input, consts, cast)
}

/// `arith.extui`
pub fn extui(
    ctx: &mut Context,
    op: Op,
    input: Value,
    consts: &[Option<Attr>],
    cast: Cast,
) -> Folded {
    let inner = ExtUI::defining(ctx, input).map(|e| e.in_(ctx));
    ext(ctx, op, input, inner, consts, cast)
}

/// `arith.extsi`
pub fn extsi(
    ctx: &mut Context,
    op: Op,
    input: Value,
    consts: &[Option<Attr>],
    cast: Cast,
) -> Folded {
    let inner = ExtSI::defining(ctx, input).map(|e| e.in_(ctx));
    ext(ctx, op, input, inner, consts, cast)
}

/// `arith.trunci`: through an extension, truncate its source instead (or take it
/// when it has the result's type); `trunci(trunci x)` truncates `x`; constants.
pub fn trunci(ctx: &mut Context, op: Op, x: Value, consts: &[Option<Attr>], cast: Cast) -> Folded {
    let inner = ExtUI::defining(ctx, x)
        .map(|e| e.in_(ctx))
        .or_else(|| ExtSI::defining(ctx, x).map(|e| e.in_(ctx)));
    if let Some(src) = inner {
        let u = ctx.uniquer();
        let src_elem = aic_elem(ctx, ctx.value_type(src));
        let dst_elem = aic_elem(ctx, result_type(ctx, op));
        let w = |t| super::super::types::int_or_float_width(u, t).unwrap_or(0);
        if w(src_elem) > w(dst_elem) {
            return in_place(ctx, op, src);
        }
        if src_elem == dst_elem {
            return fold_to_value(src);
        }
    }
    if let Some(inner) = TruncI::defining(ctx, x) {
        let src = inner.in_(ctx);
        return in_place(ctx, op, src);
    }
    constant_cast(ctx, op, x, consts, cast)
}

/// The element type of `t` (or `t`).
fn aic_elem(ctx: &Context, t: aic::Type) -> aic::Type {
    super::super::types::element_or_self(ctx.uniquer(), t)
}

/// The bits of the float nearest (ties to even) to the integer `-m` or `m`.
pub fn int_to_float(kind: FloatKind, neg: bool, m: u128) -> Option<u128> {
    if !computable(kind) {
        return None;
    }
    let p = kind.precision();
    let len = 128 - m.leading_zeros();
    // Round the magnitude to `p` significant bits; the result is exact in f64
    // (p <= 53), so the conversion below rounds nothing more.
    let (q, shift) = if len > p {
        let shift = len - p;
        let (q, rem, half) = (m >> shift, m & mask(shift), 1u128 << (shift - 1));
        let up = rem > half || (rem == half && q & 1 == 1);
        (q + u128::from(up), shift)
    } else {
        (m, 0)
    };
    let v = (q as f64) * 2f64.powi(shift as i32);
    Some(kind.from_f64(if neg { -v } else { v }))
}

/// `arith.sitofp` and `arith.uitofp` on constants.
fn int_to_fp(ctx: &Context, op: Op, input: Value, consts: &[Option<Attr>], signed: bool) -> Folded {
    let (v, from, to) = operand(ctx, op, input, consts)?;
    let Elem::Float(kind) = to else { return None };
    let w = from.width();
    let (neg, m) = if signed && w > 0 && (v >> (w - 1)) & 1 == 1 {
        (true, (!sext(v, w, 128)).wrapping_add(1))
    } else {
        (false, v)
    };
    fold_to_const(ctx, result_type(ctx, op), int_to_float(kind, neg, m)?)
}

/// The `w`-bit integer a float truncates to (toward zero), `None` where APFloat's
/// `convertToInteger` reports an invalid operation: NaN, infinity, out of range.
pub fn float_to_int(kind: FloatKind, bits: u128, w: u32, signed: bool) -> Option<u128> {
    if matches!(kind, FloatKind::F80 | FloatKind::F128) {
        return None;
    }
    let t = kind.to_f64(bits).trunc();
    if !t.is_finite() || w == 0 || w > 128 {
        return None;
    }
    let two = |e: u32| 2f64.powi(e as i32);
    if signed {
        if t < -two(w - 1) || t >= two(w - 1) {
            return None;
        }
        Some((t as i128 as u128) & mask(w))
    } else {
        if t < 0.0 || t >= two(w) {
            return None;
        }
        Some(t as u128)
    }
}

/// `arith.fptosi` and `arith.fptoui` on constants.
fn fp_to_int(ctx: &Context, op: Op, input: Value, consts: &[Option<Attr>], signed: bool) -> Folded {
    let (v, from, to) = operand(ctx, op, input, consts)?;
    let Elem::Float(kind) = from else { return None };
    fold_to_const(
        ctx,
        result_type(ctx, op),
        float_to_int(kind, v, to.width(), signed)?,
    )
}

/// `bits` of `from` converted to `to` when that loses nothing (MLIR's
/// `convertFloatValue`): `None` for inexact results, overflow, infinities or
/// NaNs the target cannot hold, and signaling NaNs.
pub fn convert_float(from: FloatKind, to: FloatKind, bits: u128) -> Option<u128> {
    if !computable(from) || !computable(to) {
        return None;
    }
    if from.is_nan(bits) {
        if super::float::is_signaling(from, bits) {
            return None;
        }
        let (fb, tb) = (from.precision() - 1, to.precision() - 1);
        let payload = bits & mask(fb);
        let payload = if tb >= fb {
            payload << (tb - fb)
        } else if payload & mask(fb - tb) == 0 {
            payload >> (fb - tb)
        } else {
            return None;
        };
        let sign = (bits >> (from.bit_width() - 1)) & 1;
        let inf = to.from_f64(f64::INFINITY);
        return Some(inf | payload | (sign << (to.bit_width() - 1)));
    }
    let v = from.to_f64(bits);
    let r = to.from_f64(v);
    (to.to_f64(r).to_bits() == v.to_bits()).then_some(r)
}

/// Whether fast-math flags `fm` hold `contract`.
fn contract(ctx: &Context, fm: Option<Attr>) -> bool {
    super::flags(ctx, fm, &crate::arith::FASTMATH) & 32 != 0
}

/// Lossless float conversion of a constant operand.
fn float_cast(ctx: &Context, op: Op, input: Value, consts: &[Option<Attr>]) -> Folded {
    let (v, Elem::Float(from), Elem::Float(to)) = operand(ctx, op, input, consts)? else {
        return None;
    };
    fold_to_const(ctx, result_type(ctx, op), convert_float(from, to, v)?)
}

/// `arith.extf`: `extf(truncf x)` is `x` when both carry `contract`; constants
/// widen when exact.
pub fn extf(
    ctx: &mut Context,
    op: Op,
    input: Value,
    consts: &[Option<Attr>],
    cast: Cast,
) -> Folded {
    if let Some(t) = TruncF::defining(ctx, input) {
        let x = t.in_(ctx);
        if ctx.value_type(x) == result_type(ctx, op)
            && contract(ctx, t.fastmath(ctx))
            && contract(ctx, ExtF(op).fastmath(ctx))
        {
            return fold_to_value(x);
        }
    }
    constant_cast(ctx, op, input, consts, cast)
}

/// `arith.truncf`: through an `extf` that lost nothing, truncate its source (or
/// take it when it has the result type); constants narrow when exact.
pub fn truncf(
    ctx: &mut Context,
    op: Op,
    input: Value,
    consts: &[Option<Attr>],
    cast: Cast,
) -> Folded {
    let res = Elem::of(ctx, result_type(ctx, op));
    if let Some(e) = ExtF::defining(ctx, input) {
        let src = e.in_(ctx);
        let kinds = (
            Elem::of(ctx, ctx.value_type(src)),
            Elem::of(ctx, ctx.value_type(e.out(ctx))),
            res,
        );
        if let (Some(Elem::Float(s)), Some(Elem::Float(mid)), Some(Elem::Float(r))) = kinds
            && s.is_representable_by(mid)
        {
            if s.bit_width() > r.bit_width() {
                return in_place(ctx, op, src);
            }
            if s == r {
                return fold_to_value(src);
            }
        }
    }
    constant_cast(ctx, op, input, consts, cast)
}

/// `arith.bitcast` of a constant: the same bits, retyped. Otherwise a bitcast to
/// its own type is its input (the fold every `CastOpInterface` op gets).
pub fn bitcast(ctx: &mut Context, op: Op, x: Value, consts: &[Option<Attr>], cast: Cast) -> Folded {
    if operand(ctx, op, x, consts).is_some() {
        return constant_cast(ctx, op, x, consts, cast);
    }
    (ctx.value_type(x) == result_type(ctx, op))
        .then(|| fold_to_value(x))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_to_float_rounds_once_to_nearest_even() {
        let f = FloatKind::F32;
        // 2^24 + 1 ties to 2^24; 2^24 + 3 ties up to 2^24 + 4.
        assert_eq!(
            int_to_float(f, false, (1 << 24) + 1),
            Some(u128::from(16777216f32.to_bits()))
        );
        assert_eq!(
            int_to_float(f, false, (1 << 24) + 3),
            Some(u128::from(16777220f32.to_bits()))
        );
        // A double rounding through f64 would get this one wrong.
        let m = (1u128 << 60) + (1 << 36) + 1;
        assert_eq!(
            int_to_float(f, false, m),
            Some(u128::from((m as f32).to_bits()))
        );
        assert_eq!(
            int_to_float(f, true, 1),
            Some(u128::from((-1f32).to_bits()))
        );
        assert_eq!(int_to_float(FloatKind::F16, false, 65520), Some(0x7C00));
        assert_eq!(
            int_to_float(FloatKind::F64, false, u128::MAX),
            Some(u128::from(2f64.powi(128).to_bits()))
        );
    }

    #[test]
    fn float_to_int_refuses_invalid() {
        let f = FloatKind::F32;
        let b = |v: f32| u128::from(v.to_bits());
        assert_eq!(float_to_int(f, b(-1.5), 8, true), Some(0xFF));
        assert_eq!(float_to_int(f, b(-0.5), 8, false), Some(0));
        assert_eq!(float_to_int(f, b(-1.0), 8, false), None);
        assert_eq!(float_to_int(f, b(128.0), 8, true), None);
        assert_eq!(float_to_int(f, b(255.9), 8, false), Some(255));
        assert_eq!(float_to_int(f, b(f32::NAN), 32, true), None);
        assert_eq!(float_to_int(f, b(f32::INFINITY), 32, true), None);
        assert_eq!(float_to_int(f, b(-1.0), 1, true), Some(1));
    }

    #[test]
    fn float_conversions_only_when_exact() {
        let (h, f, d) = (FloatKind::F16, FloatKind::F32, FloatKind::F64);
        assert_eq!(
            convert_float(f, d, 0x3F80_0000),
            Some(0x3FF0_0000_0000_0000)
        );
        assert_eq!(convert_float(d, f, d.from_f64(0.1)), None);
        assert_eq!(convert_float(f, h, f.from_f64(65536.0)), None);
        assert_eq!(convert_float(f, h, f.from_f64(-0.0)), Some(0x8000));
        // Quiet NaNs keep sign and payload; signaling ones refuse.
        assert_eq!(
            convert_float(f, d, 0xFFC0_0001),
            Some(0xFFF8_0000_2000_0000)
        );
        assert_eq!(convert_float(f, d, 0x7F80_0001), None);
        assert_eq!(convert_float(d, f, 0x7FF8_0000_0000_0001), None);
    }
}
