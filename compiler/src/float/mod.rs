//! MLIR/LLVM-compatible floating point semantics for every builtin float type.
//!
//! Values are carried as raw bit patterns in a `u128` (the low `bit_width`
//! bits), exactly like MLIR's `FloatAttr` stores an `APFloat` that bitcasts to
//! an `APInt`. Everything here is computed exactly with a small private bignum
//! so that `f80` and `f128` get the same treatment as the narrow formats: no
//! value is ever routed through host `f64` arithmetic unless MLIR itself does
//! so.
//!
//! Behaviour that is deliberately reproduced from LLVM/MLIR 22, even where it
//! looks odd:
//!
//! * MLIR's parser turns a decimal literal into a `double` first and then
//!   converts that `double` to the attribute type ([`parse_decimal`]). Hence
//!   `0.1 : f128` is the `f64` value `0.1` widened, and narrow types can see
//!   double rounding. [`parse_decimal_exact`] is the correctly rounded variant
//!   that `APFloat(semantics, string)` implements; the printer needs it for its
//!   round-trip check.
//! * `APFloat::toString` first truncates the exact decimal expansion with a
//!   bit-count estimate and only then rounds half-up on the remaining digits,
//!   so it is neither "round half even" nor always correctly rounded.
//!   [`print_mlir`] mirrors that algorithm step by step.

use std::cmp::Ordering;

/// Every builtin float type of MLIR.
// The variant names mirror MLIR's own spelling of the types, which is all
// upper case; renaming them to satisfy the lint would obscure that mapping.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    /// `f4E2M1FN`: 2 exponent bits, 1 mantissa bit, no infinity, no NaN.
    F4E2M1FN,
    /// `f6E2M3FN`: 2 exponent bits, 3 mantissa bits, no infinity, no NaN.
    F6E2M3FN,
    /// `f6E3M2FN`: 3 exponent bits, 2 mantissa bits, no infinity, no NaN.
    F6E3M2FN,
    /// `f8E5M2`: IEEE-style 8-bit float with infinities and NaNs.
    F8E5M2,
    /// `f8E4M3`: IEEE-style 8-bit float with infinities and NaNs.
    F8E4M3,
    /// `f8E4M3FN`: no infinity; NaN is exponent and mantissa all ones.
    F8E4M3FN,
    /// `f8E5M2FNUZ`: no infinity, no negative zero; NaN is `0x80`.
    F8E5M2FNUZ,
    /// `f8E4M3FNUZ`: no infinity, no negative zero; NaN is `0x80`.
    F8E4M3FNUZ,
    /// `f8E4M3B11FNUZ`: like `f8E4M3FNUZ` but with exponent bias 11.
    F8E4M3B11FNUZ,
    /// `f8E3M4`: IEEE-style 8-bit float with infinities and NaNs.
    F8E3M4,
    /// `f8E8M0FNU`: unsigned powers of two `2^-127 ..= 2^127`; `0xFF` is NaN.
    F8E8M0FNU,
    /// `bf16`: bfloat16.
    BF16,
    /// `f16`: IEEE binary16.
    F16,
    /// `tf32`: 19-bit TensorFloat (f32 range, f16 precision).
    TF32,
    /// `f32`: IEEE binary32.
    F32,
    /// `f64`: IEEE binary64.
    F64,
    /// `f80`: x87 extended precision with an explicit integer bit.
    F80,
    /// `f128`: IEEE binary128.
    F128,
}

/// How a format represents non-finite values (LLVM's `fltNonfiniteBehavior`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum NonFinite {
    Ieee754,
    NanOnly,
    FiniteOnly,
}

/// How NaN is encoded (LLVM's `fltNanEncoding`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum NanEncoding {
    Ieee,
    AllOnes,
    NegativeZero,
}

/// LLVM's `fltSemantics` for one format.
#[derive(Clone, Copy, Debug)]
struct Semantics {
    width: u32,
    precision: u32,
    max_exp: i32,
    min_exp: i32,
    non_finite: NonFinite,
    nan: NanEncoding,
    has_zero: bool,
    signed: bool,
}

const fn sem(width: u32, precision: u32, max_exp: i32, min_exp: i32) -> Semantics {
    Semantics {
        width,
        precision,
        max_exp,
        min_exp,
        non_finite: NonFinite::Ieee754,
        nan: NanEncoding::Ieee,
        has_zero: true,
        signed: true,
    }
}

const fn nan_only(mut s: Semantics, nan: NanEncoding) -> Semantics {
    s.non_finite = NonFinite::NanOnly;
    s.nan = nan;
    s
}

const fn finite_only(mut s: Semantics) -> Semantics {
    s.non_finite = NonFinite::FiniteOnly;
    s
}

impl FloatKind {
    /// All float kinds, in declaration order.
    pub const ALL: [FloatKind; 18] = [
        FloatKind::F4E2M1FN,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F8E5M2,
        FloatKind::F8E4M3,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E3M4,
        FloatKind::F8E8M0FNU,
        FloatKind::BF16,
        FloatKind::F16,
        FloatKind::TF32,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F80,
        FloatKind::F128,
    ];

    /// The type keyword exactly as MLIR spells it (`f8E4M3FN`, `bf16`, ...).
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F4E2M1FN => "f4E2M1FN",
            FloatKind::F6E2M3FN => "f6E2M3FN",
            FloatKind::F6E3M2FN => "f6E3M2FN",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E4M3 => "f8E4M3",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E5M2FNUZ => "f8E5M2FNUZ",
            FloatKind::F8E4M3FNUZ => "f8E4M3FNUZ",
            FloatKind::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            FloatKind::F8E3M4 => "f8E3M4",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
            FloatKind::BF16 => "bf16",
            FloatKind::F16 => "f16",
            FloatKind::TF32 => "tf32",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F80 => "f80",
            FloatKind::F128 => "f128",
        }
    }

    /// The kind whose [`keyword`](Self::keyword) is `s` (case-sensitive, as in
    /// MLIR), or `None`.
    pub fn from_keyword(s: &str) -> Option<FloatKind> {
        FloatKind::ALL.into_iter().find(|k| k.keyword() == s)
    }

    /// Storage width in bits (`tf32` is 19, `f80` is 80).
    pub fn bit_width(self) -> u32 {
        self.sem().width
    }

    /// Significand bits including the implicit (or, for `f80`, explicit)
    /// integer bit, i.e. LLVM's `fltSemantics::precision`.
    pub fn precision(self) -> u32 {
        self.sem().precision
    }

    /// Whether the format can represent infinities.
    pub fn has_inf(self) -> bool {
        self.sem().non_finite == NonFinite::Ieee754
    }

    /// Whether the format can represent NaN.
    pub fn has_nan(self) -> bool {
        self.sem().non_finite != NonFinite::FiniteOnly
    }

    /// Converts `v` to this format's bit pattern the way LLVM's
    /// `APFloat::convert(.., rmNearestTiesToEven, ..)` does: round to nearest
    /// even; overflow gives infinity, or NaN for formats without infinity, or
    /// saturates to the largest finite value for formats without NaN
    /// (`f4E2M1FN`, `f6*`). Negative zero becomes `+0` in the FNUZ formats.
    ///
    /// Cases LLVM leaves undefined (it hits `llvm_unreachable` or keeps a
    /// state that cannot be bitcast) are given these values instead: NaN into
    /// a format without NaN gives `+0`; infinity into such a format saturates;
    /// a negative non-zero value into the unsigned `f8E8M0FNU` gives NaN.
    /// `F64` returns the bits of `v` unchanged.
    pub fn from_f64(self, v: f64) -> u128 {
        let raw = u128::from(v.to_bits());
        if self == FloatKind::F64 {
            return raw;
        }
        // The hardware conversion rounds to nearest-even and keeps the sign and
        // the top payload bits of NaNs, as APFloat's does.
        if self == FloatKind::F32 {
            return u128::from((v as f32).to_bits());
        }
        let (neg, class) = decode(FloatKind::F64, raw);
        match class {
            Class::Zero => zero_bits(self, neg),
            Class::Inf => match self.sem().non_finite {
                NonFinite::Ieee754 => inf_bits(self, neg),
                NonFinite::NanOnly => nan_bits(self, neg),
                NonFinite::FiniteOnly => largest_bits(self, neg),
            },
            Class::Nan => convert_nan(self, neg, raw & mask(52)),
            Class::Finite { mant, exp } => round_pack(self, neg, &Big::from_u128(mant), exp, false),
        }
    }

    /// The value of `bits` as an `f64`. Exact for every format except `f80`
    /// and `f128`, which are rounded to nearest even (overflowing to
    /// infinity). NaNs come back as a quiet `f64` NaN with the same sign;
    /// the payload is not preserved.
    pub fn to_f64(self, bits: u128) -> f64 {
        if self == FloatKind::F64 {
            return f64::from_bits(bits as u64);
        }
        if self == FloatKind::F32 {
            return f64::from(f32::from_bits(bits as u32));
        }
        let (neg, class) = decode(self, bits);
        let sign = if neg { -1.0 } else { 1.0 };
        match class {
            Class::Zero => sign * 0.0,
            Class::Inf => sign * f64::INFINITY,
            Class::Nan => sign * f64::NAN,
            Class::Finite { mant, exp } => {
                let b = round_pack(FloatKind::F64, neg, &Big::from_u128(mant), exp, false);
                f64::from_bits(b as u64)
            }
        }
    }

    /// Whether `bits` encodes a NaN in this format.
    pub fn is_nan(self, bits: u128) -> bool {
        matches!(decode(self, bits).1, Class::Nan)
    }

    /// Whether every value of `self` is exactly a value of `other` (LLVM's
    /// `APFloatBase::isRepresentableBy`: exponent range and precision both fit).
    pub fn is_representable_by(self, other: FloatKind) -> bool {
        let (a, b) = (self.sem(), other.sem());
        a.max_exp <= b.max_exp && a.min_exp >= b.min_exp && a.precision <= b.precision
    }

    /// Whether `bits` encodes an infinity in this format.
    pub fn is_inf(self, bits: u128) -> bool {
        matches!(decode(self, bits).1, Class::Inf)
    }

    fn sem(self) -> Semantics {
        use NanEncoding::{AllOnes, NegativeZero};
        match self {
            FloatKind::F4E2M1FN => finite_only(sem(4, 2, 2, 0)),
            FloatKind::F6E2M3FN => finite_only(sem(6, 4, 2, 0)),
            FloatKind::F6E3M2FN => finite_only(sem(6, 3, 4, -2)),
            FloatKind::F8E5M2 => sem(8, 3, 15, -14),
            FloatKind::F8E4M3 => sem(8, 4, 7, -6),
            FloatKind::F8E4M3FN => nan_only(sem(8, 4, 8, -6), AllOnes),
            FloatKind::F8E5M2FNUZ => nan_only(sem(8, 3, 15, -15), NegativeZero),
            FloatKind::F8E4M3FNUZ => nan_only(sem(8, 4, 7, -7), NegativeZero),
            FloatKind::F8E4M3B11FNUZ => nan_only(sem(8, 4, 4, -10), NegativeZero),
            FloatKind::F8E3M4 => sem(8, 5, 3, -2),
            FloatKind::F8E8M0FNU => Semantics {
                has_zero: false,
                signed: false,
                ..nan_only(sem(8, 1, 127, -127), AllOnes)
            },
            FloatKind::BF16 => sem(16, 8, 127, -126),
            FloatKind::F16 => sem(16, 11, 15, -14),
            FloatKind::TF32 => sem(19, 11, 127, -126),
            FloatKind::F32 => sem(32, 24, 127, -126),
            FloatKind::F64 => sem(64, 53, 1023, -1022),
            FloatKind::F80 => sem(80, 64, 16383, -16382),
            FloatKind::F128 => sem(128, 113, 16383, -16382),
        }
    }

    /// Width of the stored significand field. `f80` stores its integer bit.
    fn frac_bits(self) -> u32 {
        if self == FloatKind::F80 {
            64
        } else {
            self.precision() - 1
        }
    }

    fn exp_bits(self) -> u32 {
        let s = self.sem();
        s.width - self.frac_bits() - u32::from(s.signed)
    }

    fn bias(self) -> i32 {
        // E8M0 has no subnormals, so its all-zero exponent is already a normal
        // number (2^-127) rather than the usual "minExponent - 1".
        if self == FloatKind::F8E8M0FNU {
            127
        } else {
            1 - self.sem().min_exp
        }
    }
}

/// Parse a decimal float literal as MLIR's lexer accepts it (`1.5`,
/// `-2.0e-3`; `1e10` is not a float literal in MLIR but is accepted here too;
/// `inf`/`nan` are rejected) into bits of `kind`. Returns `None` on malformed
/// input.
///
/// This reproduces MLIR 22 exactly rather than rounding directly into `kind`:
/// `Parser::parseFloatFromLiteral` reads the literal as a correctly rounded
/// `double` and then converts it with round-to-nearest-even (see
/// [`FloatKind::from_f64`]). So `0.1` parsed as `f128` is the widened `f64`
/// value, and out-of-range literals become infinity/NaN rather than errors.
/// For the single-rounding result use [`parse_decimal_exact`].
///
/// Accepted syntax: `-? [0-9]+ ('.' [0-9]*)? ([eE] [+-]? [0-9]+)?`.
pub fn parse_decimal(kind: FloatKind, text: &str) -> Option<u128> {
    let lit = lex_decimal(text)?;
    let magnitude = if lit.digits.is_empty() {
        0.0
    } else {
        let b = decimal_to_bits(FloatKind::F64, false, &lit.digits, lit.exp10);
        f64::from_bits(b as u64)
    };
    // MLIR negates the parsed double before converting; RNE is symmetric so
    // this matches converting the signed value.
    let v = if lit.neg { -magnitude } else { magnitude };
    Some(kind.from_f64(v))
}

/// Parse a decimal literal (same syntax as [`parse_decimal`]) correctly
/// rounded (nearest, ties to even) straight into `kind`, as LLVM's
/// `APFloat(semantics, string)` does. Overflow follows the same rules as
/// [`FloatKind::from_f64`].
pub fn parse_decimal_exact(kind: FloatKind, text: &str) -> Option<u128> {
    let lit = lex_decimal(text)?;
    if lit.digits.is_empty() {
        return Some(zero_bits(kind, lit.neg));
    }
    Some(decimal_to_bits(kind, lit.neg, &lit.digits, lit.exp10))
}

/// Interpret a hexadecimal integer literal (`0x7FC00000`) as the raw bit
/// pattern of `kind`: MLIR accepts `0x...` float attributes only when the hex
/// value fits the bit width. Return None if it does not fit.
///
/// Leading zeros are allowed (MLIR checks the value's active bits, not the
/// digit count). The input must be non-empty and consist of hex digits only.
pub fn from_hex_bits(kind: FloatKind, hex_digits_without_0x: &str) -> Option<u128> {
    let digits = hex_digits_without_0x;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 32 {
        return None;
    }
    let value = if significant.is_empty() {
        0
    } else {
        u128::from_str_radix(significant, 16).ok()?
    };
    let active_bits = 128 - value.leading_zeros();
    (active_bits <= kind.bit_width()).then_some(value)
}

/// Print a float exactly the way MLIR's AsmPrinter `printFloatValue` does.
///
/// 1. Finite values are formatted with `APFloat::toString(6, 0, false)`
///    (`1.000000e+00`); if that string parses back (correctly rounded, see
///    [`parse_decimal_exact`]) to the same value it is used.
/// 2. Otherwise `APFloat::toString()` with its defaults is used if the result
///    contains a `.` (`0.100000000000000005551115123125782702`, `1.5E+20`).
/// 3. Otherwise (infinities, NaNs, or integers such as `16777217`) the bit
///    pattern is printed as `0x` plus upper-case hex digits, sign included,
///    zero-padded to `ceil(bit_width / 4)` digits. MLIR does not pad, but
///    every pattern that can reach this step (non-finite encodings, and
///    integers of at least 10^7 in formats of 32 bits or more) has a non-zero
///    leading digit, so the output is the same.
///
/// Bits above the format's width are ignored.
pub fn print_mlir(kind: FloatKind, bits: u128) -> String {
    let bits = bits & mask(kind.bit_width());
    let (neg, class) = decode(kind, bits);
    let finite = match class {
        Class::Zero => Some((0, 0)),
        Class::Finite { mant, exp } => Some((mant, exp)),
        Class::Inf | Class::Nan => None,
    };
    if let Some((mant, exp)) = finite {
        let precision = kind.precision();
        let short = ap_to_string(neg, mant, exp, precision, 6, 0, false);
        // APFloat compares by value (category, sign, exponent, significand),
        // so compare against the canonical encoding: this matters for f80
        // pseudo-denormals, which read back as the equivalent normal number.
        let canonical = match class {
            Class::Finite { mant, exp } => round_pack(kind, neg, &Big::from_u128(mant), exp, false),
            _ => zero_bits(kind, neg),
        };
        if parse_decimal_exact(kind, &short) == Some(canonical) {
            return short;
        }
        let long = ap_to_string(neg, mant, exp, precision, 0, 3, true);
        if long.contains('.') {
            return long;
        }
    }
    // MLIR prints `bitcastToAPInt()`, i.e. the bits re-encoded from the
    // APFloat. That only differs from the input for f80 NaNs, where APFloat
    // classifies pseudo-NaNs, pseudo-infinities and unnormals as NaN and the
    // re-encoding forces the all-ones exponent.
    let shown = match (kind, class) {
        (FloatKind::F80, Class::Nan) => (bits & (1 << 79)) | (0x7FFF << 64) | (bits & mask(64)),
        _ => bits,
    };
    let width = kind.bit_width().div_ceil(4) as usize;
    format!("0x{shown:0width$X}")
}

// ---------------------------------------------------------------------------
// Bit-level classification and encoding.
// ---------------------------------------------------------------------------

/// The category of a decoded value; finite values are `mant * 2^exp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Zero,
    Inf,
    Nan,
    Finite { mant: u128, exp: i64 },
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn sign_bit(kind: FloatKind, neg: bool) -> u128 {
    if neg && kind.sem().signed {
        1 << (kind.bit_width() - 1)
    } else {
        0
    }
}

/// Splits `bits` into sign and category, following LLVM's
/// `initFrom*APInt` for each format.
fn decode(kind: FloatKind, bits: u128) -> (bool, Class) {
    let s = kind.sem();
    let bits = bits & mask(s.width);
    let neg = s.signed && (bits >> (s.width - 1)) & 1 == 1;
    let frac_bits = kind.frac_bits();
    let exp_mask = mask(kind.exp_bits());
    let e = (bits >> frac_bits) & exp_mask;
    let f = bits & mask(frac_bits);
    let p = s.precision;
    let unit_shift = i64::from(p) - 1;

    match kind {
        FloatKind::F8E8M0FNU => {
            let class = if e == exp_mask {
                Class::Nan
            } else {
                Class::Finite {
                    mant: 1,
                    exp: e as i64 - 127,
                }
            };
            return (false, class);
        }
        FloatKind::F80 => {
            // x87 oddities: an all-ones exponent is infinity only with exactly
            // the integer bit set; pseudo-NaNs, pseudo-infinities and
            // unnormals (integer bit clear) are all NaN for APFloat.
            let int_bit = f >> 63 == 1;
            let class = if e == 0 && f == 0 {
                Class::Zero
            } else if e == exp_mask && f == 1 << 63 {
                Class::Inf
            } else if e == exp_mask || (e != 0 && !int_bit) {
                Class::Nan
            } else if e == 0 {
                Class::Finite {
                    mant: f,
                    exp: -16382 - 63,
                }
            } else {
                Class::Finite {
                    mant: f,
                    exp: e as i64 - 16383 - 63,
                }
            };
            return (neg, class);
        }
        _ => {}
    }

    let class = match (s.non_finite, s.nan) {
        (NonFinite::Ieee754, _) if e == exp_mask => {
            if f == 0 {
                Class::Inf
            } else {
                Class::Nan
            }
        }
        (NonFinite::NanOnly, NanEncoding::AllOnes) if e == exp_mask && f == mask(frac_bits) => {
            Class::Nan
        }
        (NonFinite::NanOnly, NanEncoding::NegativeZero) if neg && e == 0 && f == 0 => Class::Nan,
        _ if e == 0 && f == 0 => Class::Zero,
        _ if e == 0 => Class::Finite {
            mant: f,
            exp: i64::from(s.min_exp) - unit_shift,
        },
        _ => Class::Finite {
            mant: f | 1 << (p - 1),
            exp: e as i64 - i64::from(kind.bias()) - unit_shift,
        },
    };
    (neg, class)
}

/// The zero LLVM produces for a zero result: FNUZ formats have no negative
/// zero, and E8M0 has no zero at all (LLVM substitutes its smallest value,
/// whose encoding is `0x00`).
fn zero_bits(kind: FloatKind, neg: bool) -> u128 {
    let s = kind.sem();
    if !s.has_zero || s.nan == NanEncoding::NegativeZero {
        0
    } else {
        sign_bit(kind, neg)
    }
}

fn inf_bits(kind: FloatKind, neg: bool) -> u128 {
    let int_bit = if kind == FloatKind::F80 { 1 << 63 } else { 0 };
    sign_bit(kind, neg) | mask(kind.exp_bits()) << kind.frac_bits() | int_bit
}

/// The NaN LLVM's `makeNaN(/*SNaN=*/false, neg)` produces.
fn nan_bits(kind: FloatKind, neg: bool) -> u128 {
    let s = kind.sem();
    match s.nan {
        NanEncoding::NegativeZero => 1 << (s.width - 1),
        // All ones below the sign bit; E8M0 has no sign bit, so that is 0xFF.
        NanEncoding::AllOnes => sign_bit(kind, neg) | mask(s.width - u32::from(s.signed)),
        NanEncoding::Ieee => inf_bits(kind, neg) | 1 << (s.precision - 2),
    }
}

fn largest_bits(kind: FloatKind, neg: bool) -> u128 {
    let s = kind.sem();
    let mut m = mask(s.precision);
    // When NaN is "all ones", the all-ones significand at the top exponent is
    // taken, so the largest finite value has the last bit clear.
    if s.nan == NanEncoding::AllOnes && s.precision > 1 {
        m -= 1;
    }
    encode_finite(
        kind,
        neg,
        m,
        i64::from(s.max_exp) - i64::from(s.precision) + 1,
    )
}

/// Converts an f64 NaN (fraction field `frac52`) like `IEEEFloat::convert`:
/// the payload keeps its top bits and the result is always quiet.
fn convert_nan(kind: FloatKind, neg: bool, frac52: u128) -> u128 {
    let s = kind.sem();
    match s.non_finite {
        NonFinite::NanOnly => nan_bits(kind, neg),
        NonFinite::FiniteOnly => 0,
        NonFinite::Ieee754 => {
            let fb = s.precision - 1;
            let payload = if fb >= 52 {
                frac52 << (fb - 52)
            } else {
                frac52 >> (52 - fb)
            };
            inf_bits(kind, neg) | payload | 1 << (s.precision - 2)
        }
    }
}

/// Encodes a finite non-zero value `m * 2^unit` that is already rounded:
/// `m < 2^precision`, and `m` is normalised unless `unit` is the subnormal
/// unit.
fn encode_finite(kind: FloatKind, neg: bool, m: u128, unit: i64) -> u128 {
    let s = kind.sem();
    let p = s.precision;
    let top = unit + i64::from(p) - 1;
    let biased = if m >> (p - 1) != 0 {
        (top + i64::from(kind.bias())) as u128
    } else {
        0
    };
    let field = if kind == FloatKind::F80 {
        m
    } else {
        m & mask(p - 1)
    };
    sign_bit(kind, neg) | biased << kind.frac_bits() | field
}

/// Rounds `(n + sticky * epsilon) * 2^e` to nearest-even in `kind` and
/// encodes it, with LLVM's overflow and underflow conventions. `sticky` says
/// that the true value is slightly above `n * 2^e`; when it is set, `n` must
/// extend at least one bit below the rounding position so the half-way bit is
/// exact.
fn round_pack(kind: FloatKind, neg: bool, n: &Big, e: i64, sticky: bool) -> u128 {
    let s = kind.sem();
    let p = i64::from(s.precision);
    let max_exp = i64::from(s.max_exp);
    if n.is_zero() {
        return zero_bits(kind, neg);
    }
    let top = e + n.bit_len() as i64 - 1;
    if top > max_exp {
        return overflow_bits(kind, neg);
    }
    let mut unit = top.max(i64::from(s.min_exp)) - (p - 1);
    let shift = unit - e;
    let mut m;
    if shift <= 0 {
        debug_assert!(!sticky, "sticky bit without guard bits");
        m = n.to_u128() << (-shift);
    } else {
        let shift = shift as u64;
        m = n.shr(shift).to_u128();
        let half = n.bit(shift - 1);
        let rest = sticky || n.any_bits_below(shift - 1);
        if half && (rest || m & 1 == 1) {
            m += 1;
            if m >> p != 0 {
                m >>= 1;
                unit += 1;
            }
        }
    }
    if m == 0 {
        return zero_bits(kind, neg);
    }
    if m >> (p - 1) != 0 {
        let top = unit + p - 1;
        let hits_nan =
            s.nan == NanEncoding::AllOnes && p > 1 && top == max_exp && m == mask(s.precision);
        if top > max_exp || hits_nan {
            return overflow_bits(kind, neg);
        }
    }
    if neg && !s.signed {
        // LLVM keeps the sign in the APFloat but cannot encode it; NaN is the
        // only honest bit pattern for a negative E8M0 value.
        return nan_bits(kind, false);
    }
    encode_finite(kind, neg, m, unit)
}

fn overflow_bits(kind: FloatKind, neg: bool) -> u128 {
    match kind.sem().non_finite {
        NonFinite::Ieee754 => inf_bits(kind, neg),
        NonFinite::NanOnly => nan_bits(kind, neg && kind.sem().signed),
        NonFinite::FiniteOnly => largest_bits(kind, neg),
    }
}

// ---------------------------------------------------------------------------
// Decimal input.
// ---------------------------------------------------------------------------

/// A lexed decimal literal: `(-1)^neg * digits * 10^exp10`, where `digits`
/// has no leading or trailing zeros (empty means zero).
struct DecimalLiteral {
    neg: bool,
    digits: Vec<u8>,
    exp10: i64,
}

fn lex_decimal(text: &str) -> Option<DecimalLiteral> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let neg = bytes.first() == Some(&b'-');
    if neg {
        i += 1;
    }
    let mut all_digits = Vec::new();
    let int_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        all_digits.push(bytes[i] - b'0');
        i += 1;
    }
    if i == int_start {
        return None;
    }
    let mut frac_len = 0i64;
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            all_digits.push(bytes[i] - b'0');
            frac_len += 1;
            i += 1;
        }
    }
    let mut exp = 0i64;
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        let exp_neg = i < bytes.len() && bytes[i] == b'-';
        if i < bytes.len() && (bytes[i] == b'-' || bytes[i] == b'+') {
            i += 1;
        }
        let exp_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            // Saturate: anything this large over/underflows every format, and
            // the cap keeps later exponent arithmetic far from i64 limits.
            exp = (exp * 10 + i64::from(bytes[i] - b'0')).min(1_000_000_000);
            i += 1;
        }
        if i == exp_start {
            return None;
        }
        if exp_neg {
            exp = -exp;
        }
    }
    if i != bytes.len() {
        return None;
    }
    let first = all_digits.iter().position(|&d| d != 0);
    let digits = match first {
        None => Vec::new(),
        Some(first) => {
            let last = all_digits.iter().rposition(|&d| d != 0).unwrap_or(first);
            exp += (all_digits.len() - 1 - last) as i64;
            all_digits[first..=last].to_vec()
        }
    };
    Some(DecimalLiteral {
        neg,
        digits,
        exp10: exp - frac_len,
    })
}

/// More significant digits than any halfway point between two f128 values
/// needs (about 11,500), so collapsing the rest into a sticky digit cannot
/// change the rounding.
const MAX_DECIMAL_DIGITS: usize = 12_000;

/// Correctly rounds the non-zero decimal `digits * 10^exp10` into `kind`.
fn decimal_to_bits(kind: FloatKind, neg: bool, digits: &[u8], exp10: i64) -> u128 {
    let s = kind.sem();
    let mut exp10 = exp10;
    let mut digits = digits.to_vec();
    if digits.len() > MAX_DECIMAL_DIGITS {
        let dropped = digits.len() - MAX_DECIMAL_DIGITS;
        digits.truncate(MAX_DECIMAL_DIGITS);
        // Trailing zeros were stripped, so something non-zero was dropped.
        digits.push(1);
        exp10 += dropped as i64 - 1;
    }

    // Cheap range checks first, so that huge exponents never reach the
    // bignum code. 42039/12655 is a lower bound of log2(10).
    let magnitude = exp10 + digits.len() as i64; // value < 10^magnitude
    if (magnitude - 1) * 42039 >= 12655 * (i64::from(s.max_exp) + 1) {
        return overflow_bits(kind, neg);
    }
    let half_smallest = i64::from(s.min_exp) - i64::from(s.precision);
    if magnitude * 42039 <= 12655 * half_smallest {
        return zero_bits(kind, neg);
    }

    let mut n = Big::zero();
    for chunk in digits.chunks(19) {
        let mut v = 0u64;
        for &d in chunk {
            v = v * 10 + u64::from(d);
        }
        n.mul_small(10u64.pow(chunk.len() as u32));
        n.add_small(v);
    }

    if exp10 >= 0 {
        let n = n.mul(&Big::pow5(exp10 as u64));
        return round_pack(kind, neg, &n, exp10, false);
    }
    // digits / 10^k = (digits / 5^k) * 2^-k. Scale numerator or denominator
    // so that the quotient has precision + 3 or + 4 bits: enough guard bits
    // for round_pack, and small enough that the bit-by-bit division is cheap.
    let k = (-exp10) as u64;
    let mut a = n;
    let mut b = Big::pow5(k);
    let mut e = exp10;
    let target = i64::from(s.precision) + 3;
    let diff = a.bit_len() as i64 - b.bit_len() as i64;
    if diff < target {
        a = a.shl((target - diff) as u64);
        e -= target - diff;
    } else if diff > target {
        b = b.shl((diff - target) as u64);
        e += diff - target;
    }
    let (q, r) = a.div_rem(&b);
    round_pack(kind, neg, &q, e, !r.is_zero())
}

// ---------------------------------------------------------------------------
// Decimal output: a transcription of LLVM's `toStringImpl`.
// ---------------------------------------------------------------------------

/// `APFloat::toString` for the value `(-1)^neg * mant * 2^exp` of a format
/// with `precision` significand bits (`mant == 0` is zero).
fn ap_to_string(
    neg: bool,
    mant: u128,
    exp: i64,
    precision: u32,
    format_precision: u32,
    max_padding: u32,
    truncate_zero: bool,
) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if mant == 0 {
        if max_padding != 0 {
            out.push('0');
        } else if truncate_zero {
            out.push_str("0.0E+0");
        } else {
            out.push_str("0.0");
            for _ in 1..format_precision {
                out.push('0');
            }
            out.push_str("e+00");
        }
        return out;
    }

    // Default precision depends only on the format (Steele & White bound).
    let fp = if format_precision == 0 {
        2 + precision * 59 / 196
    } else {
        format_precision
    };

    // Turn mant * 2^exp into sig * 10^exp exactly.
    let tz = mant.trailing_zeros();
    let mut exp = exp + i64::from(tz);
    let mut sig = Big::from_u128(mant >> tz);
    if exp > 0 {
        sig = sig.shl(exp as u64);
        exp = 0;
    } else if exp < 0 {
        sig = sig.mul(&Big::pow5((-exp) as u64));
    }

    // LLVM first *truncates* decimal digits based on a bit-count estimate and
    // only rounds afterwards, which can leave exactly `fp` digits and so turn
    // rounding into truncation. Reproduce that rather than rounding exactly.
    let bits = sig.bit_len();
    let bits_required = (u64::from(fp) * 196).div_ceil(59);
    if bits > bits_required {
        let tens = (bits - bits_required) * 59 / 196;
        if tens > 0 {
            exp += tens as i64;
            sig = sig.div_rem(&Big::pow5(tens).shl(tens)).0;
        }
    }

    // Digits least significant first, as LLVM keeps them; trailing zeros are
    // folded into the exponent.
    let mut buffer: Vec<u8> = Vec::new();
    for &d in sig.to_decimal().iter().rev() {
        if buffer.is_empty() && d == 0 {
            exp += 1;
        } else {
            buffer.push(b'0' + d);
        }
    }
    adjust_digits_to_precision(&mut buffer, &mut exp, fp as usize);
    let nd = buffer.len();

    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        // Don't pad with zeros that would look like significant digits.
        exp > i64::from(max_padding) || nd as i64 + exp > i64::from(fp)
    } else {
        let msd = exp + nd as i64 - 1;
        msd < 0 && -msd > i64::from(max_padding)
    };

    if scientific {
        let exp = exp + nd as i64 - 1;
        out.push(char::from(buffer[nd - 1]));
        out.push('.');
        if nd == 1 && truncate_zero {
            out.push('0');
        } else {
            out.extend(buffer[..nd - 1].iter().rev().map(|&b| char::from(b)));
        }
        if !truncate_zero && fp as usize + 1 > nd {
            for _ in 0..fp as usize + 1 - nd {
                out.push('0');
            }
        }
        out.push(if truncate_zero { 'E' } else { 'e' });
        out.push(if exp >= 0 { '+' } else { '-' });
        let digits = exp.unsigned_abs().to_string();
        if !truncate_zero && digits.len() < 2 {
            out.push('0');
        }
        out.push_str(&digits);
        return out;
    }

    let msb_first = buffer.iter().rev().map(|&b| char::from(b));
    if exp >= 0 {
        out.extend(msb_first);
        for _ in 0..exp {
            out.push('0');
        }
        return out;
    }
    let whole = exp + nd as i64;
    if whole > 0 {
        let whole = whole as usize;
        let digits: Vec<char> = msb_first.collect();
        out.extend(&digits[..whole]);
        out.push('.');
        out.extend(&digits[whole..]);
    } else {
        out.push_str("0.");
        for _ in 0..-whole {
            out.push('0');
        }
        out.extend(msb_first);
    }
    out
}

/// LLVM's digit-level `AdjustToPrecision`: keep `fp` significant digits of the
/// least-significant-first `buffer`, rounding half up on the first dropped
/// digit only, and drop the trailing zeros that creates.
fn adjust_digits_to_precision(buffer: &mut Vec<u8>, exp: &mut i64, fp: usize) {
    let n = buffer.len();
    if n <= fp {
        return;
    }
    let mut first = n - fp;
    if buffer[first - 1] < b'5' {
        while first < n && buffer[first] == b'0' {
            first += 1;
        }
        *exp += first as i64;
        buffer.drain(..first);
        return;
    }
    let mut i = first;
    while i < n {
        if buffer[i] == b'9' {
            first += 1;
        } else {
            buffer[i] += 1;
            break;
        }
        i += 1;
    }
    if first == n {
        *exp += first as i64;
        buffer.clear();
        buffer.push(b'1');
        return;
    }
    *exp += first as i64;
    buffer.drain(..first);
}

// ---------------------------------------------------------------------------
// Minimal unsigned bignum: just what exact binary<->decimal conversion needs.
// ---------------------------------------------------------------------------

/// Little-endian 64-bit limbs without high zero limbs (zero is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u64>);

impl Big {
    fn zero() -> Big {
        Big(Vec::new())
    }

    fn from_u128(v: u128) -> Big {
        let mut b = Big(vec![v as u64, (v >> 64) as u64]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn bit_len(&self) -> u64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as u64 - 1) * 64 + u64::from(64 - top.leading_zeros()),
        }
    }

    fn bit(&self, i: u64) -> bool {
        let limb = (i / 64) as usize;
        limb < self.0.len() && (self.0[limb] >> (i % 64)) & 1 == 1
    }

    /// Whether any of bits `0..i` is set.
    fn any_bits_below(&self, i: u64) -> bool {
        let full = ((i / 64) as usize).min(self.0.len());
        if self.0[..full].iter().any(|&l| l != 0) {
            return true;
        }
        let rem = i % 64;
        full < self.0.len() && rem > 0 && self.0[full] & ((1u64 << rem) - 1) != 0
    }

    fn to_u128(&self) -> u128 {
        debug_assert!(self.0.len() <= 2, "value does not fit in u128");
        let lo = self.0.first().copied().unwrap_or(0);
        let hi = self.0.get(1).copied().unwrap_or(0);
        u128::from(hi) << 64 | u128::from(lo)
    }

    fn shl(&self, n: u64) -> Big {
        if self.is_zero() {
            return Big::zero();
        }
        let limbs = (n / 64) as usize;
        let bits = (n % 64) as u32;
        let mut out = vec![0u64; limbs];
        if bits == 0 {
            out.extend_from_slice(&self.0);
        } else {
            let mut carry = 0u64;
            for &l in &self.0 {
                out.push(l << bits | carry);
                carry = l >> (64 - bits);
            }
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn shr(&self, n: u64) -> Big {
        let limbs = (n / 64) as usize;
        if limbs >= self.0.len() {
            return Big::zero();
        }
        let bits = (n % 64) as u32;
        let src = &self.0[limbs..];
        let out = if bits == 0 {
            src.to_vec()
        } else {
            (0..src.len())
                .map(|i| src[i] >> bits | src.get(i + 1).map_or(0, |&h| h << (64 - bits)))
                .collect()
        };
        let mut b = Big(out);
        b.trim();
        b
    }

    fn shr1(&mut self) {
        let len = self.0.len();
        for i in 0..len {
            let high = if i + 1 < len { self.0[i + 1] << 63 } else { 0 };
            self.0[i] = self.0[i] >> 1 | high;
        }
        self.trim();
    }

    fn mul_small(&mut self, m: u64) {
        let mut carry = 0u128;
        for l in &mut self.0 {
            let v = u128::from(*l) * u128::from(m) + carry;
            *l = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            self.0.push(carry as u64);
        }
        self.trim();
    }

    fn add_small(&mut self, a: u64) {
        let mut carry = a;
        for l in &mut self.0 {
            if carry == 0 {
                return;
            }
            let (v, overflow) = l.overflowing_add(carry);
            *l = v;
            carry = u64::from(overflow);
        }
        if carry != 0 {
            self.0.push(carry);
        }
    }

    fn mul(&self, other: &Big) -> Big {
        if self.is_zero() || other.is_zero() {
            return Big::zero();
        }
        let mut out = vec![0u64; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &b) in other.0.iter().enumerate() {
                let v = u128::from(a) * u128::from(b) + u128::from(out[i + j]) + carry;
                out[i + j] = v as u64;
                carry = v >> 64;
            }
            out[i + other.0.len()] = carry as u64;
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn pow5(k: u64) -> Big {
        // 5^27 is the largest power of five that fits in a u64.
        let mut r = Big::from_u128(1);
        let mut k = k;
        while k >= 27 {
            r.mul_small(5u64.pow(27));
            k -= 27;
        }
        r.mul_small(5u64.pow(k as u32));
        r
    }

    fn cmp_mag(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self -= other`; requires `self >= other`.
    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = false;
        for i in 0..self.0.len() {
            let b = other.0.get(i).copied().unwrap_or(0);
            let (v, o1) = self.0[i].overflowing_sub(b);
            let (v, o2) = v.overflowing_sub(u64::from(borrow));
            self.0[i] = v;
            borrow = o1 || o2;
        }
        debug_assert!(!borrow, "bignum subtraction underflow");
        self.trim();
    }

    /// Shift-and-subtract division. Its cost is linear in the number of
    /// quotient bits, which every caller keeps near 128.
    fn div_rem(&self, d: &Big) -> (Big, Big) {
        if self.cmp_mag(d) == Ordering::Less {
            return (Big::zero(), self.clone());
        }
        let shift = self.bit_len() - d.bit_len();
        let mut ds = d.shl(shift);
        let mut rem = self.clone();
        let mut q = vec![0u64; (shift / 64 + 1) as usize];
        for i in (0..=shift).rev() {
            if rem.cmp_mag(&ds) != Ordering::Less {
                rem.sub_assign(&ds);
                q[(i / 64) as usize] |= 1 << (i % 64);
            }
            ds.shr1();
        }
        let mut q = Big(q);
        q.trim();
        (q, rem)
    }

    fn div_small(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for l in self.0.iter_mut().rev() {
            let cur = rem << 64 | u128::from(*l);
            *l = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        self.trim();
        rem as u64
    }

    /// Decimal digits (values 0..=9), most significant first.
    fn to_decimal(&self) -> Vec<u8> {
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.is_zero() {
            chunks.push(n.div_small(CHUNK));
        }
        let mut digits = Vec::new();
        for (i, c) in chunks.iter().rev().enumerate() {
            let s = if i == 0 {
                c.to_string()
            } else {
                format!("{c:019}")
            };
            digits.extend(s.bytes().map(|b| b - b'0'));
        }
        if digits.is_empty() {
            digits.push(0);
        }
        digits
    }
}

#[cfg(test)]
mod tests;
