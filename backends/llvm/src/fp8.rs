//! The 8-bit floats `f8E4M3FN` and `f8E5M2` in kernels.
//!
//! LLVM has no 8-bit float type, so an fp8 value is its byte: the type is
//! `i8` in registers and in memory (loads and stores move bytes, fragments
//! are `<N x i8>` like s8's). `arith.extf` from fp8 decodes the byte into
//! an f32 ([`decode`], exact) and goes on to the wider format from there;
//! `arith.truncf` to fp8 rounds an f32 (a 16-bit source is widened first,
//! exactly; an f64 source is rounded to f32 first, a double rounding that
//! can be one unit off at rare ties, as the host's f64 -> f16 already is)
//! to the nearest byte, ties to even ([`encode`]). Both are integer code on
//! the f32's bits (plus one exact f32 multiply), so the host and NVPTX run
//! the same instructions; `cvt.rn.satfinite.e4m3x2.f32` is not used since
//! it saturates where `arith.truncf` does not.
//!
//! The semantics are those of [`aic::float::FloatKind::from_f64`] and
//! `to_f64` (LLVM's APFloat, so the reference interpreter's): an overflow
//! gives NaN (`0x7f`) in `f8E4M3FN`, which has no infinity, and infinity in
//! `f8E5M2`; NaNs keep their sign (and in `f8E5M2` the top payload bit).
//! Saturation to the finite range, where a scheme wants it (`quantize
//! {mode=fp8}`), is an explicit clamp before the `truncf`. The tests run all
//! 256 bytes of each format and edge f32 values through both.

use crate::emit::{Llvm, Lower};
use aic::Type;
use aic::float::FloatKind;
use aic::types::TypeKind;
use inkwell::IntPredicate;
use inkwell::values::{FloatValue, IntValue};

/// The fp8 formats aic-llvm stores: those the tensor cores take.
pub(crate) fn format(ir: &aic::Context, t: Type) -> Option<Fp8> {
    match ir.type_kind(t) {
        TypeKind::Float(FloatKind::F8E4M3FN) => Some(Fp8::E4M3FN),
        TypeKind::Float(FloatKind::F8E5M2) => Some(Fp8::E5M2),
        _ => None,
    }
}

/// One of the two fp8 formats, with its field widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fp8 {
    E4M3FN,
    E5M2,
}

impl Fp8 {
    fn kind(self) -> FloatKind {
        match self {
            Fp8::E4M3FN => FloatKind::F8E4M3FN,
            Fp8::E5M2 => FloatKind::F8E5M2,
        }
    }

    /// Stored mantissa bits.
    fn mant(self) -> u32 {
        self.kind().precision() - 1
    }

    /// Exponent bias.
    fn bias(self) -> u32 {
        match self {
            Fp8::E4M3FN => 7,
            Fp8::E5M2 => 15,
        }
    }

    /// The largest finite magnitude's byte (448 and 57344).
    fn max_finite(self) -> u64 {
        match self {
            Fp8::E4M3FN => 0x7e,
            Fp8::E5M2 => 0x7b,
        }
    }
}

fn c<'ctx>(l: &Lower<'_, 'ctx>, v: u64) -> IntValue<'ctx> {
    l.i32().const_int(v, false)
}

/// The f32 value of fp8 byte `x` (an `i8`), exactly.
pub(crate) fn decode<'ctx>(
    l: &Lower<'_, 'ctx>,
    f: Fp8,
    x: IntValue<'ctx>,
) -> Result<FloatValue<'ctx>, String> {
    let b = &l.b;
    let i32t = l.i32();
    let (m, bias) = (f.mant(), f.bias());
    let u = b.build_int_z_extend(x, i32t, "").llvm()?;
    let sign = b
        .build_left_shift(b.build_and(u, c(l, 0x80), "").llvm()?, c(l, 24), "")
        .llvm()?;
    let mag = b.build_and(u, c(l, 0x7f), "").llvm()?;
    // Normal: the fields move up and the exponent is rebiased.
    let normal = b
        .build_int_add(
            b.build_left_shift(mag, c(l, u64::from(23 - m)), "")
                .llvm()?,
            c(l, u64::from(127 - bias) << 23),
            "",
        )
        .llvm()?;
    // Subnormal (and zero): mantissa x 2^(1 - bias - m), exact in f32.
    let unit = f32::powi(2.0, 1 - bias as i32 - m as i32);
    let sub = b
        .build_float_mul(
            b.build_unsigned_int_to_float(mag, l.f32(), "").llvm()?,
            l.f32().const_float(f64::from(unit)),
            "",
        )
        .llvm()?;
    let sub = b.build_bit_cast(sub, i32t, "").llvm()?.into_int_value();
    let is_sub = b
        .build_int_compare(IntPredicate::ULT, mag, c(l, 1 << m), "")
        .llvm()?;
    let mut bits = b
        .build_select(is_sub, sub, normal, "")
        .llvm()?
        .into_int_value();
    // The top exponent: E4M3FN's 0x7f is its NaN; E5M2's is infinity or NaN.
    let top = u64::from(0x7f_u32 >> m << m);
    match f {
        Fp8::E4M3FN => {
            let nan = b
                .build_int_compare(IntPredicate::EQ, mag, c(l, 0x7f), "")
                .llvm()?;
            bits = b
                .build_select(nan, c(l, 0x7fc0_0000), bits, "")
                .llvm()?
                .into_int_value();
        }
        Fp8::E5M2 => {
            let inf = b
                .build_int_compare(IntPredicate::EQ, mag, c(l, top), "")
                .llvm()?;
            let nan = b
                .build_int_compare(IntPredicate::UGT, mag, c(l, top), "")
                .llvm()?;
            bits = b
                .build_select(inf, c(l, 0x7f80_0000), bits, "")
                .llvm()?
                .into_int_value();
            bits = b
                .build_select(nan, c(l, 0x7fc0_0000), bits, "")
                .llvm()?
                .into_int_value();
        }
    }
    let bits = b.build_or(bits, sign, "").llvm()?;
    Ok(b.build_bit_cast(bits, l.f32(), "")
        .llvm()?
        .into_float_value())
}

/// `x` (an f32) rounded to the nearest fp8 byte, ties to even; an overflow
/// gives the format's overflow byte (NaN for E4M3FN, infinity for E5M2).
pub(crate) fn encode<'ctx>(
    l: &Lower<'_, 'ctx>,
    f: Fp8,
    x: FloatValue<'ctx>,
) -> Result<IntValue<'ctx>, String> {
    let b = &l.b;
    let (m, bias) = (f.mant(), f.bias());
    let u = b.build_bit_cast(x, l.i32(), "").llvm()?.into_int_value();
    let sign = b
        .build_right_shift(
            b.build_and(u, c(l, 0x8000_0000), "").llvm()?,
            c(l, 24),
            false,
            "",
        )
        .llvm()?;
    let a = b.build_and(u, c(l, 0x7fff_ffff), "").llvm()?;
    // Normal results: rebias, then round the dropped 23 - m bits to even.
    let shift = u64::from(23 - m);
    let t = b
        .build_int_sub(a, c(l, u64::from(127 - bias) << 23), "")
        .llvm()?;
    let odd = b
        .build_and(
            b.build_right_shift(t, c(l, shift), false, "").llvm()?,
            c(l, 1),
            "",
        )
        .llvm()?;
    let t = b
        .build_int_add(
            b.build_int_add(t, c(l, (1 << (shift - 1)) - 1), "")
                .llvm()?,
            odd,
            "",
        )
        .llvm()?;
    let normal = b.build_right_shift(t, c(l, shift), false, "").llvm()?;
    let over = b
        .build_int_compare(IntPredicate::UGT, normal, c(l, f.max_finite()), "")
        .llvm()?;
    let overflow = (f.kind().from_f64(f64::INFINITY) & 0x7f) as u64;
    let normal = b
        .build_select(over, c(l, overflow), normal, "")
        .llvm()?
        .into_int_value();
    // Below the smallest normal: the f32 significand (implicit bit set)
    // shifted down to units of the subnormal step 2^(1 - bias - m),
    // rounded to even. f32 subnormals are far below half a step: 0.
    let sig = b
        .build_or(
            b.build_and(a, c(l, 0x7f_ffff), "").llvm()?,
            c(l, 0x80_0000),
            "",
        )
        .llvm()?;
    let e = b.build_right_shift(a, c(l, 23), false, "").llvm()?;
    // shift = (23 - m) + (1 - bias) - (e - 127) = 151 - m - bias - e, at least 24 - m here.
    let sh = b
        .build_int_sub(c(l, u64::from(151 - m - bias)), e, "")
        .llvm()?;
    let big = b
        .build_int_compare(IntPredicate::UGT, sh, c(l, 31), "")
        .llvm()?;
    let sh = b
        .build_select(big, c(l, 31), sh, "")
        .llvm()?
        .into_int_value();
    let q = b.build_right_shift(sig, sh, false, "").llvm()?;
    let one = c(l, 1);
    let low_mask = b
        .build_int_sub(b.build_left_shift(one, sh, "").llvm()?, one, "")
        .llvm()?;
    let rem = b.build_and(sig, low_mask, "").llvm()?;
    let half = b
        .build_left_shift(one, b.build_int_sub(sh, one, "").llvm()?, "")
        .llvm()?;
    let gt = b
        .build_int_compare(IntPredicate::UGT, rem, half, "")
        .llvm()?;
    let tie = b
        .build_int_compare(IntPredicate::EQ, rem, half, "")
        .llvm()?;
    let q_odd = b
        .build_int_compare(
            IntPredicate::NE,
            b.build_and(q, one, "").llvm()?,
            c(l, 0),
            "",
        )
        .llvm()?;
    let up = b
        .build_or(gt, b.build_and(tie, q_odd, "").llvm()?, "")
        .llvm()?;
    let sub = b
        .build_int_add(q, b.build_int_z_extend(up, l.i32(), "").llvm()?, "")
        .llvm()?;
    let is_sub = b
        .build_int_compare(IntPredicate::ULT, a, c(l, u64::from(128 - bias) << 23), "")
        .llvm()?;
    let mag = b
        .build_select(is_sub, sub, normal, "")
        .llvm()?
        .into_int_value();
    // NaN: E4M3FN's one NaN; E5M2 keeps the f32's top payload bit, quiet.
    let nan = match f {
        Fp8::E4M3FN => c(l, 0x7f),
        Fp8::E5M2 => b
            .build_or(
                b.build_and(b.build_right_shift(a, c(l, 21), false, "").llvm()?, one, "")
                    .llvm()?,
                c(l, 0x7e),
                "",
            )
            .llvm()?,
    };
    let is_nan = b
        .build_int_compare(IntPredicate::UGT, a, c(l, 0x7f80_0000), "")
        .llvm()?;
    let mag = b
        .build_select(is_nan, nan, mag, "")
        .llvm()?
        .into_int_value();
    let bits = b.build_or(mag, sign, "").llvm()?;
    b.build_int_truncate(bits, l.cx.i8_type(), "").llvm()
}
