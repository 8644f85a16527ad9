//! The arith ops' scalar meaning, defined once: one row per op, which the
//! constant folders ([`super::fold`]) and the interpreter ([`super::interp`])
//! both read. An integer op is a function of two [`Bits`] (`None` where MLIR
//! leaves the result undefined and does not fold: division by zero, signed
//! overflow, shifts out of range); a float op is a function of two `f64`
//! values plus the rule its NaN operands follow, which the folder applies to
//! bit patterns (payloads, quieting) and the interpreter never needs.
//!
//! Beside its function a row holds the algebra the folders use instead of
//! tables of op names: the right identity (`x + 0`), the absorbing element
//! (`x * 0`), what `x op x` is (idempotent or self-inverse); the tests check
//! every column against the row's own function. Each op's spec names its row
//! (`arith.addi`'s hooks read [`ADDI`]); a cast's spec names its [`Cast`].

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
    if w == 0 {
        0
    } else {
        ((1u128 << (w - 1)) - 1) as i128
    }
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

/// A right operand with a special meaning for some op, at the op's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// `0`.
    Zero,
    /// `1`.
    One,
    /// All bits set (`-1`, the unsigned maximum).
    AllOnes,
    /// The smallest signed value.
    SignedMin,
    /// The largest signed value.
    SignedMax,
}

impl Special {
    /// The value at width `w`.
    pub fn bits(self, w: u32) -> Bits {
        Bits::new(
            match self {
                Special::Zero => 0,
                Special::One => 1,
                Special::AllOnes => -1,
                Special::SignedMin if w == 0 => 0,
                Special::SignedMin => 1i128.wrapping_shl(w - 1),
                Special::SignedMax => signed_max(w),
            },
            w,
        )
    }
    /// Whether `c` is this value (at its own width).
    pub fn is(self, c: Bits) -> bool {
        c.u == self.bits(c.w).u
    }
}

/// A right operand for which `x op a` is `a` whatever `x` (a right absorbing
/// element), and what MLIR's folder answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absorbing {
    /// The constant operand itself (`muli(x, 0)` is that `0`).
    Operand(Special),
    /// A constant attribute of its value (`ori(x, -1)`: MLIR's `adaptor.getRhs()`).
    Attr(Special),
}

impl Absorbing {
    /// The absorbing value.
    pub fn elem(self) -> Special {
        match self {
            Absorbing::Operand(s) | Absorbing::Attr(s) => s,
        }
    }
}

/// What `x op x` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameOperands {
    /// `x` (the op is idempotent).
    Operand,
    /// `0` (the op is self-inverse).
    Zero,
}

/// An integer binary op's meaning: its function, and the algebra its folder
/// uses (each column is checked against `f` by this module's tests).
#[derive(Clone, Copy)]
pub struct IntRow {
    /// The result on two constants.
    pub f: IntFn,
    /// The right identity `e`: `x op e` is `x`.
    pub identity: Option<Special>,
    /// The right absorbing element.
    pub absorbing: Option<Absorbing>,
    /// A right operand `z` for which `x op z` is `0` (`x % 1`).
    pub zero_by: Option<Special>,
    /// What `x op x` is.
    pub same: Option<SameOperands>,
}

/// A row with function `f` and no algebra.
const fn int(f: IntFn) -> IntRow {
    IntRow {
        f,
        identity: None,
        absorbing: None,
        zero_by: None,
        same: None,
    }
}

/// A row whose right identity is `e`.
const fn with_identity(e: Special, f: IntFn) -> IntRow {
    IntRow {
        identity: Some(e),
        ..int(f)
    }
}

/// An idempotent row with right identity `e` and absorbing element `a`.
const fn lattice(e: Special, a: Absorbing, f: IntFn) -> IntRow {
    IntRow {
        identity: Some(e),
        absorbing: Some(a),
        same: Some(SameOperands::Operand),
        ..int(f)
    }
}

use Special::{AllOnes, One, SignedMax, SignedMin, Zero};

/// `arith.addi`
pub const ADDI: IntRow = with_identity(Zero, |a, b| Some(a.u.wrapping_add(b.u) as i128));
/// `arith.subi`
pub const SUBI: IntRow = IntRow {
    same: Some(SameOperands::Zero),
    ..with_identity(Zero, |a, b| Some(a.u.wrapping_sub(b.u) as i128))
};
/// `arith.muli`
pub const MULI: IntRow = IntRow {
    absorbing: Some(Absorbing::Operand(Zero)),
    ..with_identity(One, |a, b| Some(a.u.wrapping_mul(b.u) as i128))
};
/// `arith.andi`
pub const ANDI: IntRow = lattice(AllOnes, Absorbing::Operand(Zero), |a, b| {
    Some((a.u & b.u) as i128)
});
/// `arith.ori`
pub const ORI: IntRow = lattice(Zero, Absorbing::Attr(AllOnes), |a, b| {
    Some((a.u | b.u) as i128)
});
/// `arith.xori`
pub const XORI: IntRow = IntRow {
    same: Some(SameOperands::Zero),
    ..with_identity(Zero, |a, b| Some((a.u ^ b.u) as i128))
};
/// `arith.maxsi`
pub const MAXSI: IntRow = lattice(SignedMin, Absorbing::Operand(SignedMax), |a, b| {
    Some(a.s.max(b.s))
});
/// `arith.minsi`
pub const MINSI: IntRow = lattice(SignedMax, Absorbing::Operand(SignedMin), |a, b| {
    Some(a.s.min(b.s))
});
/// `arith.maxui`
pub const MAXUI: IntRow = lattice(Zero, Absorbing::Operand(AllOnes), |a, b| {
    Some(a.u.max(b.u) as i128)
});
/// `arith.minui`
pub const MINUI: IntRow = lattice(AllOnes, Absorbing::Operand(Zero), |a, b| {
    Some(a.u.min(b.u) as i128)
});
/// `arith.divui`
pub const DIVUI: IntRow = with_identity(One, |a, b| (b.u != 0).then(|| (a.u / b.u) as i128));
/// `arith.remui`
pub const REMUI: IntRow = IntRow {
    zero_by: Some(One),
    ..int(|a, b| (b.u != 0).then(|| (a.u % b.u) as i128))
};
/// `arith.ceildivui`
pub const CEILDIVUI: IntRow = with_identity(One, |a, b| {
    (b.u != 0).then(|| (a.u / b.u + u128::from(!a.u.is_multiple_of(b.u))) as i128)
});
/// `arith.remsi`: `min % -1` is 0; only the quotients overflow.
pub const REMSI: IntRow = IntRow {
    zero_by: Some(One),
    ..int(|a, b| (b.s != 0).then(|| if b.s == -1 { 0 } else { a.s % b.s }))
};
/// `arith.ceildivsi`
pub const CEILDIVSI: IntRow = with_identity(One, |a, b| {
    signed_div_defined(a, b).then(|| {
        let (q, r) = (a.s / b.s, a.s % b.s);
        q + i128::from(r != 0 && (r > 0) == (b.s > 0))
    })
});
/// `arith.floordivsi`
pub const FLOORDIVSI: IntRow = with_identity(One, |a, b| {
    (signed_div_defined(a, b) && !floor_overflows(a, b)).then(|| {
        let (q, r) = (a.s / b.s, a.s % b.s);
        q - i128::from(r != 0 && (r < 0) != (b.s < 0))
    })
});
/// `arith.divsi`
pub const DIVSI: IntRow = with_identity(One, |a, b| {
    (b.s != 0 && !(a.min_signed() && b.s == -1)).then(|| a.s / b.s)
});
/// `arith.shli`
pub const SHLI: IntRow = with_identity(Zero, |a, b| {
    (b.u < u128::from(a.w)).then(|| (a.u << b.u) as i128)
});
/// `arith.shrui`
pub const SHRUI: IntRow = with_identity(Zero, |a, b| {
    (b.u < u128::from(a.w)).then(|| (a.u >> b.u) as i128)
});
/// `arith.shrsi`
pub const SHRSI: IntRow = with_identity(Zero, |a, b| (b.u < u128::from(a.w)).then(|| a.s >> b.u));

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

/// A right operand with a special meaning for some float op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSpecial {
    /// `-0.0`.
    NegZero,
    /// `+0.0`.
    PosZero,
    /// `1.0`.
    One,
    /// `-inf`.
    NegInf,
    /// `+inf`.
    PosInf,
    /// Any NaN.
    NaN,
}

impl FloatSpecial {
    /// The value (a quiet NaN for [`FloatSpecial::NaN`]).
    pub fn value(self) -> f64 {
        match self {
            FloatSpecial::NegZero => -0.0,
            FloatSpecial::PosZero => 0.0,
            FloatSpecial::One => 1.0,
            FloatSpecial::NegInf => f64::NEG_INFINITY,
            FloatSpecial::PosInf => f64::INFINITY,
            FloatSpecial::NaN => f64::NAN,
        }
    }
    /// Whether the bit pattern `c` of a `kind` value is this value (signed
    /// zeros by their sign; infinities only where `kind` has them).
    pub fn is(self, kind: aic::float::FloatKind, c: u128) -> bool {
        if self == FloatSpecial::NaN {
            return kind.is_nan(c);
        }
        let v = self.value();
        c == kind.from_f64(v)
            && !kind.is_nan(c)
            && match self {
                FloatSpecial::NegZero | FloatSpecial::PosZero => {
                    kind.to_f64(c).is_sign_negative() == v.is_sign_negative()
                }
                FloatSpecial::NegInf | FloatSpecial::PosInf => kind.is_inf(c),
                _ => true,
            }
    }
}

/// A float binary op's meaning: its NaN rule, its function, and the algebra
/// its folder uses (each column is checked against `f` by this module's tests).
#[derive(Clone, Copy)]
pub struct FloatRow {
    /// What the op does with NaN operands.
    pub nan: NanRule,
    /// The result on two non-NaN values (the interpreter passes NaNs too).
    pub f: FloatFn,
    /// The right identity `e`: `x op e` is `x`.
    pub identity: Option<FloatSpecial>,
    /// Whether `x op x` is `x`.
    pub idempotent: bool,
}

/// A NaN-propagating row with function `f` and right identity `e`.
const fn float(e: Option<FloatSpecial>, f: FloatFn) -> FloatRow {
    FloatRow {
        nan: NanRule::Propagate,
        f,
        identity: e,
        idempotent: false,
    }
}

/// `arith.addf`
pub const ADDF: FloatRow = float(Some(FloatSpecial::NegZero), |x, y| x + y);
/// `arith.subf`
pub const SUBF: FloatRow = float(Some(FloatSpecial::PosZero), |x, y| x - y);
/// `arith.mulf`
pub const MULF: FloatRow = float(Some(FloatSpecial::One), |x, y| x * y);
/// `arith.divf`
pub const DIVF: FloatRow = float(Some(FloatSpecial::One), |x, y| x / y);
/// `arith.remf`: APFloat's `mod`, the remainder of truncated division, with
/// the sign of the dividend (C's fmod, which Rust's `%` is).
pub const REMF: FloatRow = float(None, |x, y| x % y);
/// `arith.maximumf`: llvm::maximum, NaN propagating, -0 below +0.
pub const MAXIMUMF: FloatRow = FloatRow {
    idempotent: true,
    ..float(Some(FloatSpecial::NegInf), |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            pick(true, x, y)
        }
    })
};
/// `arith.minimumf`: llvm::minimum.
pub const MINIMUMF: FloatRow = FloatRow {
    idempotent: true,
    ..float(Some(FloatSpecial::PosInf), |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else {
            pick(false, x, y)
        }
    })
};
/// `arith.maxnumf`: llvm::maxnum, a NaN operand yields the other one.
pub const MAXNUMF: FloatRow = FloatRow {
    nan: NanRule::Number,
    f: |x, y| pick(true, x, y),
    identity: Some(FloatSpecial::NaN),
    idempotent: true,
};
/// `arith.minnumf`: llvm::minnum.
pub const MINNUMF: FloatRow = FloatRow {
    nan: NanRule::Number,
    f: |x, y| pick(false, x, y),
    identity: Some(FloatSpecial::NaN),
    idempotent: true,
};

/// What an arith cast does to each element, which its folder (on bit
/// patterns) and its interpreter (on values) both follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cast {
    /// Integer to integer (extensions, truncation, index casts): the source
    /// read as a signed or unsigned value, then wrapped to the result width.
    Int {
        /// Whether the source is read signed (sign extension).
        signed: bool,
    },
    /// Integer to float, the source read signed or unsigned, rounded to nearest.
    IntToFloat {
        /// Whether the source is read signed.
        signed: bool,
    },
    /// Float to integer, truncated toward zero; out of range is undefined.
    FloatToInt {
        /// Whether the result is read signed.
        signed: bool,
    },
    /// Float to float (`extf`, `truncf`).
    Float,
    /// The same bits, retyped (`bitcast`).
    Bits,
}

#[cfg(test)]
mod tests {
    use super::*;

    const INTS: &[(&str, IntRow)] = &[
        ("addi", ADDI),
        ("subi", SUBI),
        ("muli", MULI),
        ("andi", ANDI),
        ("ori", ORI),
        ("xori", XORI),
        ("maxsi", MAXSI),
        ("minsi", MINSI),
        ("maxui", MAXUI),
        ("minui", MINUI),
        ("divui", DIVUI),
        ("remui", REMUI),
        ("ceildivui", CEILDIVUI),
        ("remsi", REMSI),
        ("ceildivsi", CEILDIVSI),
        ("floordivsi", FLOORDIVSI),
        ("divsi", DIVSI),
        ("shli", SHLI),
        ("shrui", SHRUI),
        ("shrsi", SHRSI),
    ];

    const FLOATS: &[(&str, FloatRow)] = &[
        ("addf", ADDF),
        ("subf", SUBF),
        ("mulf", MULF),
        ("divf", DIVF),
        ("remf", REMF),
        ("maximumf", MAXIMUMF),
        ("minimumf", MINIMUMF),
        ("maxnumf", MAXNUMF),
        ("minnumf", MINNUMF),
    ];

    /// Sample values of `w` bits: small ones, both extremes, a pattern.
    fn samples(w: u32) -> Vec<Bits> {
        let mut v = vec![0, 1, 2, 3, 5, -1, -2, -7, 0x5a5a, signed_max(w)];
        v.push(Special::SignedMin.bits(w).s);
        v.into_iter().map(|x| Bits::new(x, w)).collect()
    }

    #[test]
    fn int_columns_agree_with_the_functions() {
        for (name, row) in INTS {
            for w in [1, 8, 32, 64, 128] {
                let eq =
                    |r: Option<i128>, want: Bits| r.is_none_or(|r| Bits::new(r, w).u == want.u);
                for x in samples(w) {
                    if let Some(e) = row.identity {
                        assert!(eq((row.f)(x, e.bits(w)), x), "{name} i{w} identity");
                    }
                    if let Some(a) = row.absorbing {
                        let a = a.elem().bits(w);
                        assert!(eq((row.f)(x, a), a), "{name} i{w} absorbing");
                    }
                    if let Some(z) = row.zero_by {
                        let r = (row.f)(x, z.bits(w));
                        assert!(eq(r, Bits::new(0, w)), "{name} i{w} zero");
                    }
                    match row.same {
                        Some(SameOperands::Operand) => {
                            assert!(eq((row.f)(x, x), x), "{name} i{w} idempotent")
                        }
                        Some(SameOperands::Zero) => {
                            assert!(eq((row.f)(x, x), Bits::new(0, w)), "{name} i{w} x-x")
                        }
                        None => {}
                    }
                }
            }
        }
    }

    #[test]
    fn int_columns_are_not_vacuous() {
        // Where a column holds, the function is defined on most samples: a
        // row whose function refused everything would pass the check above.
        for (name, row) in INTS {
            let defined = samples(32)
                .into_iter()
                .filter(|&x| (row.f)(x, Bits::new(3, 32)).is_some())
                .count();
            assert!(defined >= 9, "{name}");
        }
        // A wrong column fails: `x * 0` is not `x`.
        let x = Bits::new(5, 8);
        assert_ne!((MULI.f)(x, Special::Zero.bits(8)), Some(5));
        assert_eq!(Special::SignedMin.bits(8).s, -128);
        assert_eq!(Special::SignedMax.bits(1).u, 0);
        assert!(Special::AllOnes.is(Bits::new(255, 8)) && !Special::AllOnes.is(Bits::new(127, 8)));
    }

    #[test]
    fn float_columns_agree_with_the_functions() {
        let xs = [
            0.0,
            -0.0,
            1.0,
            -2.5,
            3.0e10,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e-310,
        ];
        for (name, row) in FLOATS {
            for x in xs {
                match row.identity {
                    // NaN is an identity exactly when a NaN operand yields the other.
                    Some(FloatSpecial::NaN) => assert_eq!(row.nan, NanRule::Number, "{name}"),
                    Some(e) => {
                        let r = (row.f)(x, e.value());
                        assert_eq!(r.to_bits(), x.to_bits(), "{name} identity on {x}");
                    }
                    None => {}
                }
                if row.idempotent {
                    assert_eq!((row.f)(x, x).to_bits(), x.to_bits(), "{name} on {x}");
                }
            }
        }
        let f32k = aic::float::FloatKind::F32;
        let bits = |v: f32| u128::from(v.to_bits());
        assert!(FloatSpecial::NegZero.is(f32k, bits(-0.0)));
        assert!(!FloatSpecial::NegZero.is(f32k, bits(0.0)));
        assert!(FloatSpecial::NegInf.is(f32k, bits(f32::NEG_INFINITY)));
        assert!(
            FloatSpecial::NaN.is(f32k, 0x7FC0_0000) && !FloatSpecial::One.is(f32k, 0x7FC0_0000)
        );
    }

    #[test]
    fn max_and_min_order_signed_zeros_and_nans() {
        let max = MAXNUMF.f;
        assert!(max(-0.0, 0.0).is_sign_positive() && max(0.0, -0.0).is_sign_positive());
        assert_eq!(max(f64::NAN, 1.0), 1.0);
        let min = MINIMUMF.f;
        assert!(min(0.0, -0.0).is_sign_negative() && min(1.0, f64::NAN).is_nan());
        assert_eq!(min(2.0, 1.0), 1.0);
    }
}
