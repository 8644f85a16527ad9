//! The arith ops' scalar meaning, defined once: one row per op, which the
//! constant folders ([`super::fold`]) and the interpreter ([`super::interp`])
//! both read. An integer op is a function of two [`Bits`] (`None` where MLIR
//! leaves the result undefined and does not fold: division by zero, signed
//! overflow, shifts out of range); a float op is a function of two `f64`
//! values plus the rule its NaN operands follow, which the folder applies to
//! bit patterns (payloads, quieting) and the interpreter never needs.

use std::collections::HashMap;
use std::sync::LazyLock;

/// Two's-complement view of a value of `w` bits.
#[derive(Clone, Copy)]
pub struct Bits {
    /// The unsigned value.
    pub u: u128,
    /// The signed value.
    pub s: i128,
    /// The width.
    pub w: u32,
}

impl Bits {
    /// The `w`-bit value of `v`'s low bits.
    pub fn new(v: i128, w: u32) -> Bits {
        let mask = if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        };
        let u = (v as u128) & mask;
        let s = if w >= 128 || w == 0 {
            v
        } else {
            ((u << (128 - w)) as i128) >> (128 - w)
        };
        Bits { u, s, w }
    }
    /// Whether this is the smallest signed value.
    pub fn min_signed(self) -> bool {
        self.w > 0 && self.u == 1u128 << (self.w - 1)
    }
}

/// The largest signed value of `w` bits (0 for i1, whose values are 0 and -1).
pub fn signed_max(w: u32) -> i128 {
    if w == 0 { 0 } else { (1i128 << (w - 1)) - 1 }
}

/// An integer binary op's meaning: the result (its low bits count), or `None`
/// where it is undefined.
pub type IntFn = fn(Bits, Bits) -> Option<i128>;

/// Whether MLIR's floordivsi fold overflows in its intermediate sums: `-a + b - 1`
/// for a negative `a` and positive `b`, `a - b - 1` for a positive `a` and negative `b`.
fn floor_overflows(a: Bits, b: Bits) -> bool {
    if a.s == 0 {
        return false;
    }
    let max = signed_max(a.w);
    match (a.s > 0, b.s > 0) {
        (false, true) => -a.s + b.s - 1 > max,
        (true, false) => a.s - b.s - 1 > max,
        _ => false,
    }
}

/// MLIR computes ceildivsi and floordivsi through negations and sums and
/// refuses on any overflow.
fn signed_div_defined(a: Bits, b: Bits) -> bool {
    b.s != 0 && !a.min_signed() && !b.min_signed()
}

/// The integer binary ops, one row each.
pub const INT_BINARY: &[(&str, IntFn)] = &[
    (super::ADDI.name, |a, b| Some(a.u.wrapping_add(b.u) as i128)),
    (super::SUBI.name, |a, b| Some(a.u.wrapping_sub(b.u) as i128)),
    (super::MULI.name, |a, b| Some(a.u.wrapping_mul(b.u) as i128)),
    (super::ANDI.name, |a, b| Some((a.u & b.u) as i128)),
    (super::ORI.name, |a, b| Some((a.u | b.u) as i128)),
    (super::XORI.name, |a, b| Some((a.u ^ b.u) as i128)),
    (super::MAXSI.name, |a, b| Some(a.s.max(b.s))),
    (super::MINSI.name, |a, b| Some(a.s.min(b.s))),
    (super::MAXUI.name, |a, b| Some(a.u.max(b.u) as i128)),
    (super::MINUI.name, |a, b| Some(a.u.min(b.u) as i128)),
    (super::DIVUI.name, |a, b| {
        (b.u != 0).then(|| (a.u / b.u) as i128)
    }),
    (super::REMUI.name, |a, b| {
        (b.u != 0).then(|| (a.u % b.u) as i128)
    }),
    (super::CEILDIVUI.name, |a, b| {
        (b.u != 0).then(|| (a.u / b.u + u128::from(!a.u.is_multiple_of(b.u))) as i128)
    }),
    // min % -1 is 0; only the quotients overflow.
    (super::REMSI.name, |a, b| {
        (b.s != 0).then(|| if b.s == -1 { 0 } else { a.s % b.s })
    }),
    (super::CEILDIVSI.name, |a, b| {
        signed_div_defined(a, b).then(|| {
            let (q, r) = (a.s / b.s, a.s % b.s);
            q + i128::from(r != 0 && (r > 0) == (b.s > 0))
        })
    }),
    (super::FLOORDIVSI.name, |a, b| {
        (signed_div_defined(a, b) && !floor_overflows(a, b)).then(|| {
            let (q, r) = (a.s / b.s, a.s % b.s);
            q - i128::from(r != 0 && (r < 0) != (b.s < 0))
        })
    }),
    (super::DIVSI.name, |a, b| {
        (b.s != 0 && !(a.min_signed() && b.s == -1)).then(|| a.s / b.s)
    }),
    (super::SHLI.name, |a, b| {
        (b.u < u128::from(a.w)).then(|| (a.u << b.u) as i128)
    }),
    (super::SHRUI.name, |a, b| {
        (b.u < u128::from(a.w)).then(|| (a.u >> b.u) as i128)
    }),
    (super::SHRSI.name, |a, b| {
        (b.u < u128::from(a.w)).then(|| a.s >> b.u)
    }),
];

/// What a float op does with NaN operands (the folder's concern: the
/// interpreter computes on `f64` values directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NanRule {
    /// The first NaN operand, quieted (arithmetic, `maximumf`, `minimumf`).
    Propagate,
    /// A signaling NaN wins, quieted; otherwise a quiet NaN loses to the
    /// number (`maxnumf`, `minnumf`, IEEE 754-2019).
    Number,
}

/// A float binary op's meaning on `f64` values; the folder rounds its
/// result into the op's type, and hands it only non-NaN operands.
pub type FloatFn = fn(f64, f64) -> f64;

/// The larger (`max`) or smaller of two values, `+0` above `-0`; the first
/// on a tie.
fn pick(max: bool, x: f64, y: f64) -> f64 {
    if x == y {
        // +0 is larger than -0.
        if x.is_sign_negative() == max { y } else { x }
    } else if max {
        x.max(y)
    } else {
        x.min(y)
    }
}

/// The float binary ops, one row each.
pub const FLOAT_BINARY: &[(&str, NanRule, FloatFn)] = &[
    (super::ADDF.name, NanRule::Propagate, |x, y| x + y),
    (super::SUBF.name, NanRule::Propagate, |x, y| x - y),
    (super::MULF.name, NanRule::Propagate, |x, y| x * y),
    (super::DIVF.name, NanRule::Propagate, |x, y| x / y),
    // APFloat's `mod`: the remainder of truncated division, with the sign of
    // the dividend (C's fmod, which Rust's `%` is).
    (super::REMF.name, NanRule::Propagate, |x, y| x % y),
    // llvm::maximum / minimum: NaN propagating, -0 below +0.
    (super::MAXIMUMF.name, NanRule::Propagate, |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            pick(true, x, y)
        }
    }),
    (super::MINIMUMF.name, NanRule::Propagate, |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            pick(false, x, y)
        }
    }),
    // llvm::maxnum / minnum: a NaN operand yields the other one.
    (super::MAXNUMF.name, NanRule::Number, |x, y| {
        pick(true, x, y)
    }),
    (super::MINNUMF.name, NanRule::Number, |x, y| {
        pick(false, x, y)
    }),
];

static INT: LazyLock<HashMap<&'static str, IntFn>> =
    LazyLock::new(|| INT_BINARY.iter().copied().collect());

static FLOAT: LazyLock<HashMap<&'static str, (NanRule, FloatFn)>> =
    LazyLock::new(|| FLOAT_BINARY.iter().map(|&(n, r, f)| (n, (r, f))).collect());

/// The meaning of integer binary op `name`.
pub fn int_binary(name: &str) -> Option<IntFn> {
    INT.get(name).copied()
}

/// The meaning of float binary op `name`.
pub fn float_binary(name: &str) -> Option<(NanRule, FloatFn)> {
    FLOAT.get(name).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_an_op_once() {
        let names: Vec<&str> = INT_BINARY
            .iter()
            .map(|r| r.0)
            .chain(FLOAT_BINARY.iter().map(|r| r.0))
            .collect();
        let set: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(set.len(), names.len());
        let reg = crate::all_dialects();
        for n in names {
            assert!(reg.op(n).is_some(), "{n}");
        }
    }

    #[test]
    fn max_and_min_order_signed_zeros_and_nans() {
        let max = float_binary("arith.maxnumf").unwrap().1;
        assert!(max(-0.0, 0.0).is_sign_positive() && max(0.0, -0.0).is_sign_positive());
        assert_eq!(max(f64::NAN, 1.0), 1.0);
        let min = float_binary("arith.minimumf").unwrap().1;
        assert!(min(0.0, -0.0).is_sign_negative() && min(1.0, f64::NAN).is_nan());
        assert_eq!(min(2.0, 1.0), 1.0);
    }
}
