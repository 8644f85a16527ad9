//! What is known of an integer scalar from the arith ops that compute it:
//! an interval and a divisor ([`Span`]), as MLIR's integer range analysis
//! and `ValueBoundsOpInterface` give, for the questions lowerings ask of
//! index arithmetic (does a tile's origin stay a multiple of its rows and
//! below a bound?). Values no arith op computes (block arguments, other
//! dialects' ops) are asked of a caller's `leaf`.

use super::{AddI, Constant, DivUI, MaxSI, MinSI, MulI, RemUI, SubI, constant_int};
use aic::ir::{Context, Value};
use aic::op_def::OpHandle;

/// A value in `lo..=hi` that `multiple` divides (`multiple` 0: the value
/// is 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub lo: i64,
    pub hi: i64,
    pub multiple: i64,
}

impl Span {
    /// The constant `c`.
    pub fn constant(c: i64) -> Span {
        Span {
            lo: c,
            hi: c,
            multiple: c.checked_abs().unwrap_or(1),
        }
    }

    /// Any value in `lo..=hi`.
    pub fn range(lo: i64, hi: i64) -> Span {
        Span {
            lo,
            hi,
            multiple: 1,
        }
    }

    /// The values `from + k·step` (`k ≥ 0`, `step > 0`) below `end`: a
    /// loop's induction variable.
    pub fn stepping(from: Span, step: i64, end: Span) -> Span {
        Span {
            lo: from.lo,
            hi: end.hi.saturating_sub(1),
            multiple: gcd(from.multiple, step),
        }
    }

    /// Whether every value of the span is a multiple of `m`.
    pub fn divisible_by(&self, m: i64) -> bool {
        m != 0 && self.multiple % m == 0
    }
}

/// The greatest common divisor of the magnitudes of `a` and `b`
/// ([`aic::affine::gcd`]), 1 where it does not fit an `i64`.
fn gcd(a: i64, b: i64) -> i64 {
    i64::try_from(aic::affine::gcd(a.unsigned_abs(), b.unsigned_abs())).unwrap_or(1)
}

/// The span of integer scalar `v`, through the arith ops that compute it
/// (constants, add, sub, mul, unsigned div and rem by a positive constant
/// of a non-negative value, signed min and max); `leaf` gives the spans
/// of other values. None where nothing bounds it, or a bound overflows.
pub fn span(ctx: &Context, v: Value, leaf: &dyn Fn(Value) -> Option<Span>) -> Option<Span> {
    if let Some(c) = constant_int(ctx, v) {
        return Some(Span::constant(c));
    }
    let Some(op) = ctx.defining_op(v) else {
        return leaf(v);
    };
    if Constant::of(ctx, op).is_some() {
        return None;
    }
    let both = |l: Value, r: Value| Some((span(ctx, l, leaf)?, span(ctx, r, leaf)?));
    if let Some(o) = AddI::of(ctx, op) {
        let (a, b) = both(o.lhs(ctx), o.rhs(ctx))?;
        return Some(Span {
            lo: a.lo.checked_add(b.lo)?,
            hi: a.hi.checked_add(b.hi)?,
            multiple: gcd(a.multiple, b.multiple),
        });
    }
    if let Some(o) = SubI::of(ctx, op) {
        let (a, b) = both(o.lhs(ctx), o.rhs(ctx))?;
        return Some(Span {
            lo: a.lo.checked_sub(b.hi)?,
            hi: a.hi.checked_sub(b.lo)?,
            multiple: gcd(a.multiple, b.multiple),
        });
    }
    if let Some(o) = MulI::of(ctx, op) {
        let (a, b) = both(o.lhs(ctx), o.rhs(ctx))?;
        let corners = [
            a.lo.checked_mul(b.lo)?,
            a.lo.checked_mul(b.hi)?,
            a.hi.checked_mul(b.lo)?,
            a.hi.checked_mul(b.hi)?,
        ];
        return Some(Span {
            lo: *corners.iter().min()?,
            hi: *corners.iter().max()?,
            multiple: a.multiple.checked_mul(b.multiple).unwrap_or(1),
        });
    }
    if let Some(o) = DivUI::of(ctx, op) {
        let (a, c) = (span(ctx, o.lhs(ctx), leaf)?, constant_int(ctx, o.rhs(ctx))?);
        if a.lo < 0 || c <= 0 {
            return None;
        }
        let multiple = if a.multiple % c == 0 {
            a.multiple / c
        } else {
            1
        };
        return Some(Span {
            lo: a.lo / c,
            hi: a.hi / c,
            multiple,
        });
    }
    if let Some(o) = RemUI::of(ctx, op) {
        let (a, c) = (span(ctx, o.lhs(ctx), leaf)?, constant_int(ctx, o.rhs(ctx))?);
        if a.lo < 0 || c <= 0 {
            return None;
        }
        // x - c·q, both multiples of gcd(multiple, c).
        return Some(Span {
            lo: 0,
            hi: a.hi.min(c - 1),
            multiple: gcd(a.multiple, c),
        });
    }
    let min = MinSI::of(ctx, op).map(|o| (o.lhs(ctx), o.rhs(ctx), true));
    let max = MaxSI::of(ctx, op).map(|o| (o.lhs(ctx), o.rhs(ctx), false));
    if let Some((l, r, is_min)) = min.or(max) {
        let (a, b) = both(l, r)?;
        let pick = |x: i64, y: i64| if is_min { x.min(y) } else { x.max(y) };
        return Some(Span {
            lo: pick(a.lo, b.lo),
            hi: pick(a.hi, b.hi),
            multiple: gcd(a.multiple, b.multiple),
        });
    }
    leaf(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::build::{binary, index};
    use aic::ir::Builder;
    use std::sync::Arc;

    /// The causal attention's bounds as fusion-to-tile writes them: the
    /// query block `(31 - L / 64) · 128` of a grid position `L` in
    /// `0..2048`, the unmasked keys' end `min(⌊(m0 + 1) / 128⌋ · 128,
    /// 4096, min(m0 + 128, 4096))`: multiples of 128 in `0..=4096`.
    #[test]
    fn spans_follow_index_arithmetic() {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        // A block whose argument stands for a grid position, known to
        // `leaf` only.
        let idx = ctx.ty(aic::types::TypeKind::Index);
        let block = ctx.create_block(&[(idx, None)]);
        let l = ctx.block_args(block)[0];
        let mut b = Builder::at_end(&mut ctx, block);
        let (c31, c64, c128, c4096, c1) = (
            index(&mut b, 31),
            index(&mut b, 64),
            index(&mut b, 128),
            index(&mut b, 4096),
            index(&mut b, 1),
        );
        let q = binary::<DivUI>(&mut b, l, c64);
        let r = binary::<SubI>(&mut b, c31, q);
        let m0 = binary::<MulI>(&mut b, r, c128);
        let end = binary::<AddI>(&mut b, m0, c128);
        let hi = binary::<MinSI>(&mut b, end, c4096);
        let k = binary::<AddI>(&mut b, m0, c1);
        let blocks = binary::<DivUI>(&mut b, k, c128);
        let mid = binary::<MulI>(&mut b, blocks, c128);
        let mid = binary::<MinSI>(&mut b, mid, c4096);
        let mid = binary::<MinSI>(&mut b, mid, hi);
        let rem = binary::<RemUI>(&mut b, mid, c64);
        let max = binary::<MaxSI>(&mut b, m0, c4096);
        let leaf = |v: Value| (v == l).then(|| Span::range(0, 2047));
        let ctx = &ctx;
        assert_eq!(span(ctx, l, &|_| None), None);
        assert_eq!(span(ctx, c128, &|_| None), Some(Span::constant(128)));
        assert_eq!(span(ctx, q, &leaf), Some(Span::range(0, 31)), "a quotient");
        let m0s = span(ctx, m0, &leaf).expect("m0");
        assert_eq!((m0s.lo, m0s.hi), (0, 31 * 128));
        assert!(m0s.divisible_by(128) && !m0s.divisible_by(256));
        let mids = span(ctx, mid, &leaf).expect("mid");
        assert_eq!((mids.lo, mids.hi), (0, 31 * 128));
        assert!(mids.divisible_by(128), "{mids:?}");
        let his = span(ctx, hi, &leaf).expect("hi");
        assert_eq!((his.lo, his.hi), (128, 4096));
        assert_eq!(span(ctx, rem, &leaf).map(|s| (s.lo, s.hi)), Some((0, 63)));
        let maxs = span(ctx, max, &leaf).expect("max");
        assert_eq!((maxs.lo, maxs.hi, maxs.multiple), (4096, 4096, 128));
        // Unknown leaves and negative dividends give nothing.
        assert_eq!(span(ctx, mid, &|_| None), None);
        let iv = Span::stepping(mids, 128, his);
        assert_eq!((iv.lo, iv.hi), (0, 4095));
        assert!(iv.divisible_by(128) && !Span::stepping(mids, 64, his).divisible_by(128));
        let neg = |v: Value| (v == l).then(|| Span::range(-5, 5));
        assert_eq!(span(ctx, q, &neg), None);
    }
}
