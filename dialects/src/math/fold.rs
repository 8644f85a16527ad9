//! Folders of the math ops, as MLIR 22's `MathOps.cpp` folds them through
//! `CommonFolders.h`: scalars, splats and dense elements alike (a splat stays a
//! splat; dense results whose elements are all equal become one).
//!
//! The transcendental functions fold `f32` and `f64` only, with the C library's
//! result (`sinf`, `sin`, ...), which is exactly what MLIR computes on the same
//! machine; `log`, `log2`, `log10` and `sqrt` refuse negative operands
//! (including `-0.0` and negative NaNs), `log1p` refuses operands below `-1`.
//! `absf`, `copysign`, `ceil`, `floor` and `roundeven` are exact for every width,
//! as APFloat's `clearSign`, `copySign` and `roundToIntegral` are; `round` and
//! `trunc` go through `roundf`/`round` and `truncf`/`trunc`, so `f32` and `f64` only.
//! The integer ops fold at their width; the classifications fold scalars and
//! splats.

use aic::attributes::{Attr, AttrKind, DenseData};
use aic::float::FloatKind;
use aic::ir::{Context, Op};
use aic::printer::scalar_bytes;
use aic::rewrite::FoldResult;
use aic::syntax::normalize_int;
use aic::types::{Signedness, Type, TypeKind};
use smallvec::{SmallVec, smallvec};

type Folded = Option<SmallVec<[FoldResult; 1]>>;

/// The C library's functions MLIR folds with (glibc's, on Linux: the same
/// library `mlir-opt` calls, so the same bits).
pub(crate) mod libm {
    unsafe extern "C" {
        pub(crate) safe fn acos(x: f64) -> f64;
        pub(crate) safe fn acosf(x: f32) -> f32;
        pub(crate) safe fn acosh(x: f64) -> f64;
        pub(crate) safe fn acoshf(x: f32) -> f32;
        pub(crate) safe fn asin(x: f64) -> f64;
        pub(crate) safe fn asinf(x: f32) -> f32;
        pub(crate) safe fn asinh(x: f64) -> f64;
        pub(crate) safe fn asinhf(x: f32) -> f32;
        pub(crate) safe fn atan(x: f64) -> f64;
        pub(crate) safe fn atanf(x: f32) -> f32;
        pub(crate) safe fn atanh(x: f64) -> f64;
        pub(crate) safe fn atanhf(x: f32) -> f32;
        pub(crate) safe fn atan2(y: f64, x: f64) -> f64;
        pub(crate) safe fn atan2f(y: f32, x: f32) -> f32;
        pub(crate) safe fn cos(x: f64) -> f64;
        pub(crate) safe fn cosf(x: f32) -> f32;
        pub(crate) safe fn cosh(x: f64) -> f64;
        pub(crate) safe fn coshf(x: f32) -> f32;
        pub(crate) safe fn erf(x: f64) -> f64;
        pub(crate) safe fn erff(x: f32) -> f32;
        pub(crate) safe fn erfc(x: f64) -> f64;
        pub(crate) safe fn erfcf(x: f32) -> f32;
        pub(crate) safe fn exp(x: f64) -> f64;
        pub(crate) safe fn expf(x: f32) -> f32;
        pub(crate) safe fn exp2(x: f64) -> f64;
        pub(crate) safe fn exp2f(x: f32) -> f32;
        pub(crate) safe fn expm1(x: f64) -> f64;
        pub(crate) safe fn expm1f(x: f32) -> f32;
        pub(crate) safe fn log(x: f64) -> f64;
        pub(crate) safe fn logf(x: f32) -> f32;
        pub(crate) safe fn log10(x: f64) -> f64;
        pub(crate) safe fn log10f(x: f32) -> f32;
        pub(crate) safe fn log1p(x: f64) -> f64;
        pub(crate) safe fn log1pf(x: f32) -> f32;
        pub(crate) safe fn log2(x: f64) -> f64;
        pub(crate) safe fn log2f(x: f32) -> f32;
        pub(crate) safe fn pow(x: f64, y: f64) -> f64;
        pub(crate) safe fn powf(x: f32, y: f32) -> f32;
        pub(crate) safe fn round(x: f64) -> f64;
        pub(crate) safe fn roundf(x: f32) -> f32;
        pub(crate) safe fn lgamma(x: f64) -> f64;
        pub(crate) safe fn sin(x: f64) -> f64;
        pub(crate) safe fn sinf(x: f32) -> f32;
        pub(crate) safe fn sinh(x: f64) -> f64;
        pub(crate) safe fn sinhf(x: f32) -> f32;
        pub(crate) safe fn sqrt(x: f64) -> f64;
        pub(crate) safe fn sqrtf(x: f32) -> f32;
        pub(crate) safe fn tan(x: f64) -> f64;
        pub(crate) safe fn tanf(x: f32) -> f32;
        pub(crate) safe fn tanh(x: f64) -> f64;
        pub(crate) safe fn tanhf(x: f32) -> f32;
        pub(crate) safe fn trunc(x: f64) -> f64;
        pub(crate) safe fn truncf(x: f32) -> f32;
    }
}

// ---------------------------------------------------------------- constants

/// A constant operand: its type and its elements' bit patterns (one for a
/// scalar or a splat). Integers are masked to their width.
struct Const {
    ty: Type,
    scalar: bool,
    vals: Vec<u128>,
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Width and signedness of an integer or index type.
fn int_type(k: &TypeKind) -> Option<(u32, Signedness)> {
    match k {
        TypeKind::Integer { width, signedness } if *width <= 128 => Some((*width, *signedness)),
        TypeKind::Index => Some((64, Signedness::Signless)),
        _ => None,
    }
}

fn elem_type(ctx: &Context, ty: Type) -> Type {
    ctx.type_kind(ty).element_type().unwrap_or(ty)
}

fn read(ctx: &Context, a: Option<Attr>) -> Option<Const> {
    match ctx.attr_kind(a?) {
        AttrKind::Float { bits, ty } => Some(Const {
            ty: *ty,
            scalar: true,
            vals: vec![*bits],
        }),
        AttrKind::Integer { value, ty } => {
            let (w, _) = int_type(ctx.type_kind(*ty))?;
            Some(Const {
                ty: *ty,
                scalar: true,
                vals: vec![*value as u128 & mask(w)],
            })
        }
        AttrKind::DenseElements {
            ty,
            data: DenseData::Raw { splat, bytes },
        } => {
            let elem = elem_type(ctx, *ty);
            let w = match ctx.type_kind(elem) {
                TypeKind::Float(k) => k.bit_width(),
                k => int_type(k)?.0,
            };
            let esize = scalar_bytes(ctx.uniquer(), elem);
            if esize == 0 || esize > 16 {
                return None;
            }
            let n = if *splat {
                1
            } else {
                ctx.type_kind(*ty).num_elements()? as usize
            };
            let vals = bytes
                .chunks(esize)
                .take(n)
                .map(|c| {
                    let mut b = [0u8; 16];
                    b[..c.len()].copy_from_slice(c);
                    u128::from_le_bytes(b) & mask(w)
                })
                .collect::<Vec<_>>();
            (vals.len() == n).then_some(Const {
                ty: *ty,
                scalar: false,
                vals,
            })
        }
        _ => None,
    }
}

/// The attribute of type `ty` holding `vals` (one value for a splat).
fn write(ctx: &Context, ty: Type, vals: &[u128]) -> Option<Attr> {
    let elem = elem_type(ctx, ty);
    let int = int_type(ctx.type_kind(elem));
    let norm = |v: u128| match int {
        Some((w, s)) => normalize_int(v as i128, w, s) as u128,
        None => v,
    };
    if elem == ty {
        let v = *vals.first()?;
        return Some(ctx.attr(match int {
            Some(_) => AttrKind::Integer {
                value: norm(v) as i128,
                ty,
            },
            None => AttrKind::Float { bits: v, ty },
        }));
    }
    let n = ctx.type_kind(ty).num_elements()? as usize;
    let splat = n > 1 && vals.iter().all(|v| *v == vals[0]);
    let vals = if splat || n == 1 { &vals[..1] } else { vals };
    let esize = scalar_bytes(ctx.uniquer(), elem);
    let bytes = vals
        .iter()
        .flat_map(|v| norm(*v).to_le_bytes()[..esize.min(16)].to_vec())
        .collect::<Vec<u8>>();
    Some(ctx.attr(AttrKind::DenseElements {
        ty,
        data: DenseData::Raw {
            splat,
            bytes: bytes.into(),
        },
    }))
}

fn float_kind(ctx: &Context, ty: Type) -> Option<FloatKind> {
    match ctx.type_kind(elem_type(ctx, ty)) {
        TypeKind::Float(k) => Some(*k),
        _ => None,
    }
}

/// One fold result replacing the op's only result.
fn result(ctx: &Context, ty: Type, vals: &[u128]) -> Folded {
    Some(smallvec![FoldResult::Attr(write(ctx, ty, vals)?)])
}

/// MLIR's `constFoldUnaryOpConditional<FloatAttr>`: `f` on every element, no
/// fold if it refuses any.
pub(super) fn unary_float(
    ctx: &mut Context,
    _op: Op,
    consts: &[Option<Attr>],
    f: fn(FloatKind, u128) -> Option<u128>,
) -> Folded {
    let a = read(ctx, consts.first().copied().flatten())?;
    let k = float_kind(ctx, a.ty)?;
    let vals = a
        .vals
        .iter()
        .map(|b| f(k, *b))
        .collect::<Option<Vec<_>>>()?;
    result(ctx, a.ty, &vals)
}

/// Both operands' elements, a splat paired with every element of the other.
fn zip(a: &Const, b: &Const) -> Option<Vec<(u128, u128)>> {
    if a.ty != b.ty || a.scalar != b.scalar {
        return None;
    }
    let n = a.vals.len().max(b.vals.len());
    let at = |c: &Const, i: usize| c.vals.get(i).or(c.vals.first()).copied();
    (0..n).map(|i| Some((at(a, i)?, at(b, i)?))).collect()
}

/// MLIR's `constFoldBinaryOpConditional<FloatAttr>`.
pub(super) fn binary_float(
    ctx: &mut Context,
    _op: Op,
    consts: &[Option<Attr>],
    f: fn(FloatKind, u128, u128) -> Option<u128>,
) -> Folded {
    let a = read(ctx, consts.first().copied().flatten())?;
    let b = read(ctx, consts.get(1).copied().flatten())?;
    let k = float_kind(ctx, a.ty)?;
    let vals = zip(&a, &b)?
        .into_iter()
        .map(|(x, y)| f(k, x, y))
        .collect::<Option<Vec<_>>>()?;
    result(ctx, a.ty, &vals)
}

/// MLIR's `constFoldUnaryOp<IntegerAttr>`: `f(value, width)` on every element.
pub(super) fn unary_int(
    ctx: &mut Context,
    _op: Op,
    consts: &[Option<Attr>],
    f: fn(u128, u32) -> u128,
) -> Folded {
    let a = read(ctx, consts.first().copied().flatten())?;
    let (w, _) = int_type(ctx.type_kind(elem_type(ctx, a.ty)))?;
    let vals: Vec<u128> = a.vals.iter().map(|v| f(*v, w) & mask(w)).collect();
    result(ctx, a.ty, &vals)
}

/// `math.ipowi`'s folder.
pub(super) fn ipowi(ctx: &mut Context, _op: Op, consts: &[Option<Attr>]) -> Folded {
    let a = read(ctx, consts.first().copied().flatten())?;
    let b = read(ctx, consts.get(1).copied().flatten())?;
    let (w, _) = int_type(ctx.type_kind(elem_type(ctx, a.ty)))?;
    let vals = zip(&a, &b)?
        .into_iter()
        .map(|(x, y)| ipow(x, y, w))
        .collect::<Option<Vec<_>>>()?;
    result(ctx, a.ty, &vals)
}

/// The classification folders: a scalar or a splat only, as an `i1` of the
/// result's shape.
pub(super) fn classify(
    ctx: &mut Context,
    op: Op,
    consts: &[Option<Attr>],
    f: fn(FloatKind, u128) -> bool,
) -> Folded {
    let a = read(ctx, consts.first().copied().flatten())?;
    let k = float_kind(ctx, a.ty)?;
    if a.vals.len() != 1 {
        return None;
    }
    let ty = ctx.value_type(ctx.result(op, 0));
    result(ctx, ty, &[u128::from(f(k, a.vals[0]))])
}

// ---------------------------------------------------------------- float elements

fn is_fnuz(k: FloatKind) -> bool {
    matches!(
        k,
        FloatKind::F8E5M2FNUZ | FloatKind::F8E4M3FNUZ | FloatKind::F8E4M3B11FNUZ
    )
}

fn sign_mask(k: FloatKind) -> u128 {
    1u128 << (k.bit_width() - 1)
}

/// Whether the format has a sign bit (all but `f8E8M0FNU`).
fn signed(k: FloatKind) -> bool {
    k != FloatKind::F8E8M0FNU
}

/// APFloat's `isNegative`: the sign bit (FNUZ NaNs, whose encoding is a
/// negative zero, count as positive).
pub(super) fn is_negative(k: FloatKind, b: u128) -> bool {
    signed(k) && b & sign_mask(k) != 0 && !(is_fnuz(k) && k.is_nan(b))
}

/// APFloat's `isZero`.
fn is_zero(k: FloatKind, b: u128) -> bool {
    signed(k) && !k.is_nan(b) && b & !sign_mask(k) == 0
}

/// Width of the stored significand field (`f80` stores its integer bit).
fn frac_field(k: FloatKind) -> u32 {
    if k == FloatKind::F80 {
        64
    } else {
        k.precision() - 1
    }
}

/// APFloat's `isNormal`: finite, non-zero, not denormal.
pub(super) fn is_normal(k: FloatKind, b: u128) -> bool {
    if k.is_nan(b) || k.is_inf(b) || is_zero(k, b) {
        return false;
    }
    // `f8E8M0FNU` has no denormals; elsewhere a zero exponent field is one.
    let exp_bits = k.bit_width() - frac_field(k) - u32::from(signed(k));
    k == FloatKind::F8E8M0FNU || (b >> frac_field(k)) & mask(exp_bits) != 0
}

/// APFloat's `clearSign`: NaN payloads are kept.
pub(super) fn abs(k: FloatKind, b: u128) -> u128 {
    if !signed(k) || (is_fnuz(k) && k.is_nan(b)) {
        b
    } else {
        b & !sign_mask(k)
    }
}

/// APFloat's `copySign`: `a`'s magnitude with `b`'s sign.
pub(super) fn copysign(k: FloatKind, a: u128, b: u128) -> u128 {
    if !signed(k) || (is_fnuz(k) && (k.is_nan(a) || is_zero(k, a))) {
        return a;
    }
    let sign = if is_negative(k, b) { sign_mask(k) } else { 0 };
    (a & !sign_mask(k)) | sign
}

/// A C library function of `f64`.
type Unary64 = extern "C" fn(f64) -> f64;
/// A C library function of `f32`.
type Unary32 = extern "C" fn(f32) -> f32;

/// A unary function from the C library: `f32` and `f64` only.
pub(super) fn libm(k: FloatKind, b: u128, d: Unary64, s: Unary32) -> Option<u128> {
    match k {
        FloatKind::F64 => Some(u128::from(d(f64::from_bits(b as u64)).to_bits())),
        FloatKind::F32 => Some(u128::from(s(f32::from_bits(b as u32)).to_bits())),
        _ => None,
    }
}

/// `math.log1p`: no fold where `a + 1` is negative (as APFloat adds, a NaN
/// keeps its sign).
pub(super) fn log1p(k: FloatKind, b: u128) -> Option<u128> {
    let below = match k {
        FloatKind::F64 => (f64::from_bits(b as u64) + 1.0).is_sign_negative(),
        FloatKind::F32 => (f32::from_bits(b as u32) + 1.0).is_sign_negative(),
        _ => return None,
    };
    if below {
        return None;
    }
    libm(k, b, libm::log1p, libm::log1pf)
}

/// `math.atan2`: `atan2(±0, ±0)` is NaN in every float type; otherwise the C
/// library's, `f32` and `f64` only.
pub(super) fn atan2(k: FloatKind, y: u128, x: u128) -> Option<u128> {
    if is_zero(k, y) && is_zero(k, x) {
        return k.has_nan().then(|| k.from_f64(f64::NAN));
    }
    binary_libm(k, y, x, libm::atan2, libm::atan2f)
}

/// `math.powf`: the C library's `pow`, `f32` and `f64` only.
pub(super) fn powf(k: FloatKind, a: u128, b: u128) -> Option<u128> {
    binary_libm(k, a, b, libm::pow, libm::powf)
}

fn binary_libm(
    k: FloatKind,
    a: u128,
    b: u128,
    d: extern "C" fn(f64, f64) -> f64,
    s: extern "C" fn(f32, f32) -> f32,
) -> Option<u128> {
    match k {
        FloatKind::F64 => Some(u128::from(
            d(f64::from_bits(a as u64), f64::from_bits(b as u64)).to_bits(),
        )),
        FloatKind::F32 => Some(u128::from(
            s(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits(),
        )),
        _ => None,
    }
}

/// Rounding directions of APFloat's `roundToIntegral` that the math ops use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Rounding {
    /// `TowardPositive` (`ceil`).
    Up,
    /// `TowardNegative` (`floor`).
    Down,
    /// `NearestTiesToEven` (`roundeven`).
    NearestEven,
}

/// APFloat's `roundToIntegral`: exact in every float type; signalling NaNs
/// become quiet, other NaNs and infinities stay, zeros keep their sign.
pub(super) fn round_to_integral(k: FloatKind, b: u128, mode: Rounding) -> Option<u128> {
    if k.is_nan(b) {
        // IEEE formats have a quiet bit: the top bit of the fraction.
        return Some(if k.has_inf() {
            b | 1u128 << (frac_field(k) - if k == FloatKind::F80 { 2 } else { 1 })
        } else {
            b
        });
    }
    if matches!(k, FloatKind::F80 | FloatKind::F128) {
        return Some(round_wide(k, b, mode));
    }
    // Every other format is exactly an f64, and so is its integral rounding.
    let v = k.to_f64(b);
    let r = match mode {
        Rounding::Up => v.ceil(),
        Rounding::Down => v.floor(),
        Rounding::NearestEven => v.round_ties_even(),
    };
    Some(k.from_f64(r))
}

/// `roundToIntegral` on the bits of `f80` or `f128` (15-bit exponent, bias
/// 16383), which do not fit an `f64`.
fn round_wide(k: FloatKind, b: u128, mode: Rounding) -> u128 {
    // Fraction bits below the integer bit; f80 stores that bit, f128 does not.
    let (fb, explicit) = if k == FloatKind::F80 {
        (63u32, 1u32)
    } else {
        (112, 0)
    };
    let exp_shift = fb + explicit;
    let sign = b & sign_mask(k);
    let field = (b >> exp_shift) & 0x7fff;
    let stored = b & mask(exp_shift);
    if field == 0x7fff || (field == 0 && stored == 0) {
        return b;
    }
    let sig = if explicit == 1 || field == 0 {
        stored
    } else {
        stored | 1 << fb
    };
    let e = field.max(1) as i64 - 16383;
    if e >= i64::from(fb) {
        return b;
    }
    let neg = sign != 0;
    let pack = |e: i64, sig: u128| {
        let m = if explicit == 1 { sig } else { sig & mask(fb) };
        sign | ((e + 16383) as u128) << exp_shift | m
    };
    if e < 0 {
        let more_than_half = e == -1 && sig != 1 << fb;
        let up = match mode {
            Rounding::Up => !neg,
            Rounding::Down => neg,
            Rounding::NearestEven => more_than_half,
        };
        return if up { pack(0, 1 << fb) } else { sign };
    }
    let shift = fb - e as u32;
    let frac = sig & mask(shift);
    let mut int = sig >> shift;
    let half = 1u128 << (shift - 1);
    let inc = frac != 0
        && match mode {
            Rounding::Up => !neg,
            Rounding::Down => neg,
            Rounding::NearestEven => frac > half || (frac == half && int & 1 == 1),
        };
    int += u128::from(inc);
    let (mut sig, mut e) = (int << shift, e);
    if sig >> (fb + 1) != 0 {
        sig >>= 1;
        e += 1;
    }
    pack(e, sig)
}

// ---------------------------------------------------------------- integer elements

fn negative(v: u128, w: u32) -> bool {
    w > 0 && v >> (w - 1) & 1 == 1
}

/// APInt's `abs`: the minimum signed value stays.
pub(super) fn absi(v: u128, w: u32) -> u128 {
    if negative(v, w) {
        (!v).wrapping_add(1) & mask(w)
    } else {
        v
    }
}

/// Leading zeros within `w` bits.
pub(super) fn ctlz(v: u128, w: u32) -> u128 {
    u128::from(v.leading_zeros() - (128 - w))
}

/// Trailing zeros within `w` bits (`w` for zero).
pub(super) fn cttz(v: u128, w: u32) -> u128 {
    u128::from(if v == 0 { w } else { v.trailing_zeros() })
}

/// Set bits.
pub(super) fn ctpop(v: u128, _w: u32) -> u128 {
    u128::from(v.count_ones())
}

/// MLIR 22's `IPowIOp` fold: `x ** 0 = 1`; negative powers give 0 except for
/// bases 1 and -1, and `0 ** negative` does not fold; otherwise wrapping
/// square-and-multiply.
fn ipow(base: u128, power: u128, w: u32) -> Option<u128> {
    let m = mask(w);
    let one = 1 & m;
    if power == 0 {
        return Some(one);
    }
    if negative(power, w) {
        return if base == 0 {
            None
        } else if base == one {
            Some(one)
        } else if base != m {
            Some(0)
        } else if power & 1 == 1 {
            Some(m)
        } else {
            Some(one)
        };
    }
    let (mut result, mut b, mut p) = (one, base, power);
    loop {
        if p & 1 == 1 {
            result = result.wrapping_mul(b) & m;
        }
        p >>= 1;
        if p == 0 {
            return Some(result);
        }
        b = b.wrapping_mul(b) & m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F32: FloatKind = FloatKind::F32;
    const F64: FloatKind = FloatKind::F64;

    fn f(v: f32) -> u128 {
        u128::from(v.to_bits())
    }
    fn d(v: f64) -> u128 {
        u128::from(v.to_bits())
    }

    #[test]
    fn round_vs_roundeven_on_halfway_cases() {
        let even = |v: f64| round_to_integral(F64, d(v), Rounding::NearestEven).map(|b| b as u64);
        let away = |v: f64| libm(F64, d(v), libm::round, libm::roundf).map(|b| b as u64);
        for (v, e, a) in [
            (0.5, 0.0, 1.0),
            (1.5, 2.0, 2.0),
            (2.5, 2.0, 3.0),
            (-2.5, -2.0, -3.0),
            (-0.5, -0.0, -1.0),
        ] {
            assert_eq!(even(v), Some(f64::to_bits(e)), "roundeven {v}");
            assert_eq!(away(v), Some(f64::to_bits(a)), "round {v}");
        }
        // -0.5 rounds to -0.0, not +0.0.
        assert_eq!(even(-0.5), Some((-0.0f64).to_bits()));
    }

    #[test]
    fn ceil_floor_keep_signed_zeros_and_quiet_nans() {
        let up = |b| round_to_integral(F32, b, Rounding::Up);
        assert_eq!(up(f(-0.5)), Some(f(-0.0)));
        assert_eq!(up(f(-0.0)), Some(f(-0.0)));
        assert_eq!(up(f(f32::INFINITY)), Some(f(f32::INFINITY)));
        assert_eq!(round_to_integral(F32, f(0.5), Rounding::Down), Some(f(0.0)));
        // A signalling NaN becomes quiet with its payload; MLIR prints 0x7FC00001.
        assert_eq!(up(0x7F80_0001), Some(0x7FC0_0001));
        assert_eq!(up(0xFFC0_0000), Some(0xFFC0_0000));
        // Narrow formats go through f64 exactly.
        let h = FloatKind::F16;
        assert_eq!(
            round_to_integral(h, h.from_f64(2.5), Rounding::NearestEven),
            Some(h.from_f64(2.0))
        );
    }

    #[test]
    fn wide_formats_round_on_their_bits() {
        for k in [FloatKind::F80, FloatKind::F128] {
            let r = |v: f64, m| k.to_f64(round_to_integral(k, k.from_f64(v), m).unwrap());
            assert_eq!(r(2.5, Rounding::Up), 3.0);
            assert_eq!(r(2.5, Rounding::NearestEven), 2.0);
            assert_eq!(r(3.5, Rounding::NearestEven), 4.0);
            assert_eq!(r(-2.5, Rounding::Down), -3.0);
            assert_eq!(r(0.75, Rounding::NearestEven), 1.0);
            assert_eq!(r(0.5, Rounding::NearestEven), 0.0);
            assert_eq!(r(-0.25, Rounding::Up).to_bits(), (-0.0f64).to_bits());
            assert_eq!(r(1.0e30, Rounding::Up), 1.0e30);
            assert_eq!(r(1.75, Rounding::Up), 2.0);
            assert_eq!(r(-1.0, Rounding::Down), -1.0);
        }
    }

    #[test]
    fn sign_ops_keep_nan_payloads() {
        assert_eq!(abs(F32, 0xFF80_0001), 0x7F80_0001);
        assert_eq!(abs(F32, f(-0.0)), f(0.0));
        assert_eq!(copysign(F32, 0x7F80_0001, f(-0.0)), 0xFF80_0001);
        assert_eq!(copysign(F32, f(-3.0), f(0.0)), f(3.0));
        // FNUZ NaN (0x80) is not a negative zero.
        let k = FloatKind::F8E4M3FNUZ;
        assert_eq!(abs(k, 0x80), 0x80);
        assert!(!is_negative(k, 0x80));
    }

    #[test]
    fn logs_refuse_negative_zero_and_log1p_refuses_below_minus_one() {
        assert!(is_negative(F32, f(-0.0)));
        assert!(is_negative(F32, 0xFFC0_0000));
        assert_eq!(log1p(F32, f(-2.0)), None);
        assert_eq!(log1p(F32, f(-1.0)), Some(f(f32::NEG_INFINITY)));
        assert_eq!(log1p(F32, 0xFFC0_0000), None);
        assert_eq!(log1p(FloatKind::F16, 0), None);
    }

    #[test]
    fn atan2_of_zeros_is_nan_in_every_type() {
        assert_eq!(atan2(F32, f(0.0), f(-0.0)), Some(0x7FC0_0000));
        assert_eq!(atan2(FloatKind::F16, 0, 0x8000), Some(0x7E00));
        assert_eq!(atan2(FloatKind::F16, 0x3C00, 0), None);
    }

    #[test]
    fn classifications() {
        assert!(is_normal(F32, f(1.0)));
        assert!(!is_normal(F32, 1));
        assert!(!is_normal(F32, f(-0.0)));
        assert!(!is_normal(F32, f(f32::INFINITY)));
        assert!(!is_normal(F32, f(f32::NAN)));
        assert!(is_normal(FloatKind::F80, FloatKind::F80.from_f64(1.5)));
    }

    #[test]
    fn integers() {
        assert_eq!(absi(0x80, 8), 0x80);
        assert_eq!(absi(0xFF, 8), 1);
        assert_eq!(absi(1, 1), 1);
        assert_eq!(ctlz(0, 32), 32);
        assert_eq!(ctlz(1, 32), 31);
        assert_eq!(cttz(0, 8), 8);
        assert_eq!(cttz(8, 8), 3);
        assert_eq!(ctpop(0xFF, 8), 8);
        assert_eq!(ipow(3, 4, 32), Some(81));
        assert_eq!(ipow(2, 8, 8), Some(0));
        assert_eq!(ipow(0, 0xFF, 8), None);
        assert_eq!(ipow(0xFF, 0xFF, 8), Some(0xFF));
        assert_eq!(ipow(0xFF, 0xFE, 8), Some(1));
        assert_eq!(ipow(5, 0xFF, 8), Some(0));
        assert_eq!(ipow(1, 1, 1), Some(1));
    }
}
