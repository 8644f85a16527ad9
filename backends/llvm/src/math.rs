//! The `math` dialect in LLVM IR.
//!
//! On the host every function is the C library's (`expf`, `tanhf`, `erff`,
//! ...), which the JIT resolves in the process. GPUs have no C library here
//! (no libdevice, no ROCm device libs), and LLVM 22's NVPTX backend cannot
//! select `llvm.exp`, `llvm.log`, `llvm.pow`, `llvm.sin`, ... at all (it aborts
//! the process), so those are expanded in IR from what each GPU does natively:
//!
//! | op | NVPTX | AMDGPU | max error on H100 (f32; † `bench/gpu/bench.py math`, 2^20 inputs, else an earlier check on 64k) |
//! |---|---|---|---|
//! | exp | `ex2.approx` of `x·log2 e`, the product's rounding error corrected | `llvm.exp` | 2.9 ulp † |
//! | exp2 | `ex2.approx` (`llvm.exp2`); `ex2.approx.ftz` where approximate (below) | `llvm.exp2` | 2.0 ulp |
//! | log, log2, log10 | musl's `logf` (reduction to [√½, √2], minimax polynomial) | `llvm.log`, ... | 0.75 †, 1.5, 1.8 ulp |
//! | log1p, expm1 | Goldberg's and Kahan's tricks over `log` and `exp` | same | 1.9, 3.3 ulp |
//! | tanh | Eigen's rational approximation on [-7.9, 7.9] | same | 4.57 ulp † |
//! | erf | Eigen's rational approximation on [-4, 4] | same | 5.49 ulp † |
//! | erfc | Numerical Recipes' `erfcc` (t·exp(P(t) - x²), t = 1/(1 + \|x\|/2)) | same | not yet measured on the GPU; 1.2e-7 relative in exact arithmetic |
//! | powf | `exp2(y·log2 |x|)`, log2 in extended precision (musl's reduction) and the product's rounding error corrected; negative `x` only with integral `y` (else NaN) | same | 4.8 ulp |
//! | sin, cos | reduced to [-π, π] (Cody–Waite), then `sin.approx`/`cos.approx` | `llvm.sin`/`llvm.cos` | 4.4e-7 absolute for \|x\| ≤ 100 |
//!
//! (The AMDGPU column was compiled and checked with LLVM's tools, not run.)
//! f16 and bf16 are computed in f32 and rounded back; on NVPTX their
//! divisions, and those of ops marked `fastmath<afn>`, are `div.approx.f32`
//! (see `Lower::fdiv`; tanh and erf within about 2 more ulp), and their exp2
//! (exp's too) flushes results below 2^-126 to zero. Kernel
//! generators mark `afn` the f32 functions of ops the program declares on
//! f16 or bf16 (`graph::scalar::lower`), as exact GeLU's erf in a GEMM
//! epilogue whose accumulator stays f32. f64 has only the
//! exactly rounded operations on GPUs (sqrt, fma, abs, rounding, copysign):
//! its transcendental functions are errors there.

use crate::emit::{Llvm, Lower};
use crate::ops::Emit;
use crate::target::Target;
use aic::ir::Op;
use aic_dialects::math as d;
use inkwell::values::{BasicValue, BasicValueEnum, FloatValue, IntValue};
use inkwell::{FloatPredicate, IntPredicate};

/// Float arithmetic in f32 with errors as text: the expansions read like the
/// formulas they implement.
pub(crate) struct F<'l, 'a, 'ctx> {
    l: &'l Lower<'a, 'ctx>,
    /// The result is rounded to f16 or bf16, or the op's fast-math flags
    /// include `afn`: divisions may be approximate ([`Lower::fdiv`]).
    approx: bool,
}

pub(crate) type R<'ctx> = Result<FloatValue<'ctx>, String>;

impl<'ctx> F<'_, '_, 'ctx> {
    fn c(&self, v: f64) -> FloatValue<'ctx> {
        self.l.f32().const_float(v)
    }
    fn add(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> R<'ctx> {
        self.l.b.build_float_add(a, b, "").llvm()
    }
    fn sub(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> R<'ctx> {
        self.l.b.build_float_sub(a, b, "").llvm()
    }
    fn mul(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> R<'ctx> {
        self.l.b.build_float_mul(a, b, "").llvm()
    }
    fn div(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> R<'ctx> {
        self.l.fdiv(a, b, self.approx)
    }
    fn neg(&self, a: FloatValue<'ctx>) -> R<'ctx> {
        self.l.b.build_float_neg(a, "").llvm()
    }
    /// `a·b + c` rounded once.
    fn fma(&self, a: FloatValue<'ctx>, b: FloatValue<'ctx>, c: FloatValue<'ctx>) -> R<'ctx> {
        self.l.fcall("llvm.fma.f32", &[a, b, c])
    }
    fn abs(&self, a: FloatValue<'ctx>) -> R<'ctx> {
        self.l.fcall("llvm.fabs.f32", &[a])
    }
    fn call(&self, name: &str, a: FloatValue<'ctx>) -> R<'ctx> {
        self.l.fcall(name, &[a])
    }
    fn cmp(
        &self,
        p: FloatPredicate,
        a: FloatValue<'ctx>,
        b: FloatValue<'ctx>,
    ) -> Result<IntValue<'ctx>, String> {
        self.l.b.build_float_compare(p, a, b, "").llvm()
    }
    fn sel(&self, c: IntValue<'ctx>, a: FloatValue<'ctx>, b: FloatValue<'ctx>) -> R<'ctx> {
        Ok(self
            .l
            .b
            .build_select(c, a, b, "")
            .llvm()?
            .into_float_value())
    }
    fn and(&self, a: IntValue<'ctx>, b: IntValue<'ctx>) -> Result<IntValue<'ctx>, String> {
        self.l.b.build_and(a, b, "").llvm()
    }
    fn bits(&self, a: FloatValue<'ctx>) -> Result<IntValue<'ctx>, String> {
        Ok(self
            .l
            .b
            .build_bit_cast(a, self.l.i32(), "")
            .llvm()?
            .into_int_value())
    }
    fn float_of(&self, a: IntValue<'ctx>) -> R<'ctx> {
        Ok(self
            .l
            .b
            .build_bit_cast(a, self.l.f32(), "")
            .llvm()?
            .into_float_value())
    }
    fn i(&self, v: i64) -> IntValue<'ctx> {
        self.l.i32().const_int(v as u64, true)
    }
    /// `x·p(x²)/q(x²)` with the polynomials' coefficients from the highest degree.
    fn odd_rational(&self, x: FloatValue<'ctx>, p: &[f64], q: &[f64]) -> R<'ctx> {
        let x2 = self.mul(x, x)?;
        let horner = |cs: &[f64]| -> R<'ctx> {
            let mut acc = self.c(cs[0]);
            for c in &cs[1..] {
                acc = self.fma(x2, acc, self.c(*c))?;
            }
            Ok(acc)
        };
        let num = self.mul(x, horner(p)?)?;
        self.div(num, horner(q)?)
    }
    fn clamp(&self, x: FloatValue<'ctx>, lim: f64) -> R<'ctx> {
        let hi = self.l.fcall("llvm.minnum.f32", &[x, self.c(lim)])?;
        self.l.fcall("llvm.maxnum.f32", &[hi, self.c(-lim)])
    }

    // ---------------------------------------------------------- expansions

    /// `exp2(t)·2^err` ≈ `exp2(t)·(1 + err·ln 2)`. The correction is dropped
    /// beyond |t| = 256, where exp2 has over- or underflowed anyway and `err`
    /// may be large or NaN (t infinite), so that inf and 0 stay exact.
    fn exp2_corrected(&self, t: FloatValue<'ctx>, err: FloatValue<'ctx>) -> R<'ctx> {
        let e = self.exp2(t)?;
        let c = self.mul(err, self.c(std::f64::consts::LN_2))?;
        let finite = self.cmp(FloatPredicate::OLT, self.abs(t)?, self.c(256.0))?;
        let c = self.sel(finite, c, self.c(0.0))?;
        self.mul(e, self.add(self.c(1.0), c)?)
    }

    /// e^x on NVPTX: exp2 of x·log2(e), with the rounding error of that
    /// product (and of log2(e) in f32) carried into a first-order correction.
    fn exp_nvptx(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        const LOG2E_HI: f64 = 1.442_695_021_629_333_5;
        const LOG2E_LO: f64 = 1.925_962_991_126_617_5e-8;
        let t = self.mul(x, self.c(LOG2E_HI))?;
        let err = self.fma(x, self.c(LOG2E_HI), self.neg(t)?)?;
        let err = self.fma(x, self.c(LOG2E_LO), err)?;
        self.exp2_corrected(t, err)
    }

    /// musl's `logf` reduction: `x = 2^k·m` with `m` in [√½, √2]; returns
    /// `k` and the parts of `log(m) = f - hfsq + s·(hfsq + R)`.
    fn log_parts(&self, x: FloatValue<'ctx>) -> Result<[FloatValue<'ctx>; 5], String> {
        let b = &self.l.b;
        let ix = self.bits(x)?;
        // Subnormals are scaled into the normal range first.
        let sub = b
            .build_int_compare(IntPredicate::ULT, ix, self.i(0x0080_0000), "")
            .llvm()?;
        let scaled = self.mul(x, self.c(33_554_432.0))?;
        let xs = self.sel(sub, scaled, x)?;
        let kadj = b
            .build_select(sub, self.i(-25), self.i(0), "")
            .llvm()?
            .into_int_value();
        let ix = b
            .build_int_add(self.bits(xs)?, self.i(0x3f80_0000 - 0x3f35_04f3), "")
            .llvm()?;
        let k = b.build_right_shift(ix, self.i(23), false, "").llvm()?;
        let k = b.build_int_sub(k, self.i(0x7f), "").llvm()?;
        let k = b.build_int_add(k, kadj, "").llvm()?;
        let m = b.build_and(ix, self.i(0x007f_ffff), "").llvm()?;
        let m = self.float_of(b.build_int_add(m, self.i(0x3f35_04f3), "").llvm()?)?;
        let f = self.sub(m, self.c(1.0))?;
        let s = self.div(f, self.add(self.c(2.0), f)?)?;
        let z = self.mul(s, s)?;
        let w = self.mul(z, z)?;
        // Lg1..Lg4 of musl (0xaaaaaa.0p-24, 0xccce13.0p-25, 0x91e9ee.0p-25, 0xf89e26.0p-26).
        let t1 = self.mul(
            w,
            self.fma(w, self.c(0.242_790_788_41), self.c(0.400_009_721_52))?,
        )?;
        let t2 = self.mul(
            z,
            self.fma(w, self.c(0.284_987_866_88), self.c(0.666_666_626_93))?,
        )?;
        let r = self.add(t2, t1)?;
        let hfsq = self.mul(self.mul(self.c(0.5), f)?, f)?;
        let dk = b.build_signed_int_to_float(k, self.l.f32(), "").llvm()?;
        Ok([dk, f, s, hfsq, r])
    }

    /// The special cases of a logarithm: NaN for negative `x`, -inf at zero,
    /// `x` itself for +inf and NaN.
    fn log_special(&self, x: FloatValue<'ctx>, r: FloatValue<'ctx>) -> R<'ctx> {
        let b = &self.l.b;
        let ix = self.bits(x)?;
        let big = b
            .build_int_compare(IntPredicate::UGE, ix, self.i(0x7f80_0000), "")
            .llvm()?;
        let r = self.sel(big, x, r)?;
        let neg = self.cmp(FloatPredicate::OLT, x, self.c(0.0))?;
        let r = self.sel(neg, self.c(f64::NAN), r)?;
        let zero = self.cmp(FloatPredicate::OEQ, x, self.c(0.0))?;
        self.sel(zero, self.c(f64::NEG_INFINITY), r)
    }

    /// musl's `logf`: within 1 ulp.
    fn log_nvptx(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        const LN2_HI: f64 = 6.931_381_225_6e-1;
        const LN2_LO: f64 = 9.058_000_614_5e-6;
        let [dk, f, s, hfsq, r] = self.log_parts(x)?;
        let a = self.mul(s, self.add(hfsq, r)?)?;
        let a = self.fma(dk, self.c(LN2_LO), a)?;
        let a = self.add(self.sub(a, hfsq)?, f)?;
        let a = self.fma(dk, self.c(LN2_HI), a)?;
        self.log_special(x, a)
    }

    /// log2 from the same reduction: exact at powers of two.
    fn log2_nvptx(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        let [dk, f, s, hfsq, r] = self.log_parts(x)?;
        let lm = self.add(self.sub(self.mul(s, self.add(hfsq, r)?)?, hfsq)?, f)?;
        let a = self.fma(lm, self.c(std::f64::consts::LOG2_E), dk)?;
        self.log_special(x, a)
    }

    /// log2(x) as an unevaluated sum `hi + lo` (about 40 bits): what `pow`
    /// needs, since an error in log2(x) is multiplied by y. Same reduction as
    /// `log2_nvptx`, with the product by log2(e) and the sum with `k` kept
    /// exact (fma and Fast2Sum: |k| ≥ |p| whenever k ≠ 0).
    fn log2_hi_lo(
        &self,
        x: FloatValue<'ctx>,
    ) -> Result<(FloatValue<'ctx>, FloatValue<'ctx>), String> {
        const LOG2E_HI: f64 = 1.442_695_021_629_333_5;
        const LOG2E_LO: f64 = 1.925_962_991_126_617_5e-8;
        let [dk, f, s, hfsq, r] = self.log_parts(x)?;
        let lm = self.add(self.sub(self.mul(s, self.add(hfsq, r)?)?, hfsq)?, f)?;
        let p = self.mul(lm, self.c(LOG2E_HI))?;
        let plo = self.fma(lm, self.c(LOG2E_HI), self.neg(p)?)?;
        let plo = self.fma(lm, self.c(LOG2E_LO), plo)?;
        let hi = self.add(dk, p)?;
        let e = self.sub(p, self.sub(hi, dk)?)?;
        let lo = self.add(e, plo)?;
        let special = self.log_special(x, hi)?;
        // Where a special case replaced hi (0, inf, NaN), lo means nothing.
        let same = self.cmp(FloatPredicate::OEQ, special, hi)?;
        Ok((special, self.sel(same, lo, self.c(0.0))?))
    }

    /// 2^t: `llvm.exp2` (NVPTX's `ex2.approx.f32`, whose subnormal results
    /// cost a compare and two predicated multiplies around the MUFU
    /// instruction), or where approximation is allowed on NVPTX
    /// `ex2.approx.ftz.f32`, results below 2^-126 flushed to zero: invisible
    /// once rounded to f16 or bf16 (below their subnormals), and what
    /// `fastmath<afn>` asks for in f32.
    fn exp2(&self, t: FloatValue<'ctx>) -> R<'ctx> {
        match self.l.target {
            Target::Nvptx { .. } if self.approx => self.call("llvm.nvvm.ex2.approx.ftz.f32", t),
            _ => self.call("llvm.exp2.f32", t),
        }
    }

    fn exp(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        match self.l.target {
            Target::Nvptx { .. } => self.exp_nvptx(x),
            _ => self.call("llvm.exp.f32", x),
        }
    }

    fn log(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        match self.l.target {
            Target::Nvptx { .. } => self.log_nvptx(x),
            _ => self.call("llvm.log.f32", x),
        }
    }

    fn log2(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        match self.l.target {
            Target::Nvptx { .. } => self.log2_nvptx(x),
            _ => self.call("llvm.log2.f32", x),
        }
    }

    /// Goldberg's log1p: `log(u)·x/(u - 1)` with `u = 1 + x` cancels the
    /// rounding of `u`.
    fn log1p(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        let u = self.add(self.c(1.0), x)?;
        let d = self.sub(u, self.c(1.0))?;
        let r = self.div(self.mul(self.log(u)?, x)?, d)?;
        let one = self.cmp(FloatPredicate::OEQ, u, self.c(1.0))?;
        let r = self.sel(one, x, r)?;
        let inf = self.cmp(FloatPredicate::OEQ, u, self.c(f64::INFINITY))?;
        self.sel(inf, u, r)
    }

    /// Kahan's expm1: `(u - 1)·x/log(u)` with `u = e^x`.
    fn expm1(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        let u = self.exp(x)?;
        let um1 = self.sub(u, self.c(1.0))?;
        let r = self.div(self.mul(um1, x)?, self.log(u)?)?;
        let one = self.cmp(FloatPredicate::OEQ, u, self.c(1.0))?;
        let r = self.sel(one, x, r)?;
        let m1 = self.cmp(FloatPredicate::OEQ, um1, self.c(-1.0))?;
        let r = self.sel(m1, self.c(-1.0), r)?;
        let inf = self.cmp(FloatPredicate::OEQ, u, self.c(f64::INFINITY))?;
        self.sel(inf, u, r)
    }

    /// Eigen's (and XLA's) f32 tanh: a rational function on [-7.9, 7.9],
    /// where tanh reaches ±1 in f32; `x` itself below 4e-4.
    fn tanh(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        const LIM: f64 = 7.905_311_107_635_498;
        let xc = self.clamp(x, LIM)?;
        let p = [
            -2.760_768_477_423_55e-16,
            2.000_187_904_824_77e-13,
            -8.604_671_522_137_35e-11,
            5.122_297_090_371_14e-8,
            1.485_722_357_179_79e-5,
            6.372_619_288_754_36e-4,
            4.893_524_558_917_86e-3,
        ];
        let q = [
            1.198_258_394_667_02e-6,
            1.185_347_056_866_54e-4,
            2.268_434_632_439_00e-3,
            4.893_525_185_543_85e-3,
        ];
        let mut r = self.odd_rational(xc, &p, &q)?;
        if self.approx {
            // The approximate quotient can miss ±1 at the clamp by an ulp,
            // which `1 + tanh(x)` (a GeLU written with tanh) would turn into a nonzero tail.
            let sat = self.cmp(FloatPredicate::OGE, self.abs(x)?, self.c(LIM))?;
            let one = self.l.fcall("llvm.copysign.f32", &[self.c(1.0), x])?;
            r = self.sel(sat, one, r)?;
        }
        let tiny = self.cmp(FloatPredicate::OLT, self.abs(x)?, self.c(4e-4))?;
        self.sel(tiny, x, r)
    }

    /// Eigen's (and XLA's) f32 erf: a rational function on [-4, 4], where
    /// erf reaches ±1 in f32.
    fn erf(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        let xc = self.clamp(x, 4.0)?;
        let p = [
            -2.726_142_258_013_06e-10,
            2.770_681_424_959_02e-8,
            -2.101_024_020_825_08e-6,
            -5.692_506_394_623_46e-5,
            -7.349_906_303_268_55e-4,
            -2.954_599_808_540_25e-3,
            -1.609_603_332_624_15e-2,
        ];
        let q = [
            -1.456_607_184_649_96e-5,
            -2.133_740_552_789_05e-4,
            -1.682_826_974_382_03e-3,
            -7.373_329_167_204_68e-3,
            -1.426_473_905_141_89e-2,
        ];
        let r = self.odd_rational(xc, &p, &q)?;
        // NaN passes the clamp as a bound; keep it NaN.
        let nan = self.cmp(FloatPredicate::UNO, x, x)?;
        self.sel(nan, x, r)
    }

    /// erfc by the Chebyshev fit of Numerical Recipes' `erfcc` (relative
    /// error under 1.2e-7 in exact arithmetic, for every x): with
    /// t = 1/(1 + |x|/2), erfc(|x|) = t·exp(P(t) - x²), and erfc(-x) =
    /// 2 - erfc(x). Unlike `1 - erf(x)` it keeps its relative accuracy in the
    /// right tail (exact GeLU as JAX writes it is x·erfc(-x/√2)/2); rounding
    /// x² in f32 adds about 6e-8·x² relative error there.
    fn erfc(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        const C: [f64; 10] = [
            -1.265_512_23,
            1.000_023_68,
            0.374_091_96,
            0.096_784_18,
            -0.186_288_06,
            0.278_868_07,
            -1.135_203_98,
            1.488_515_87,
            -0.822_152_23,
            0.170_872_77,
        ];
        let z = self.abs(x)?;
        let t = self.div(self.c(1.0), self.fma(z, self.c(0.5), self.c(1.0))?)?;
        let mut p = self.c(C[9]);
        for &k in C[..9].iter().rev() {
            p = self.fma(p, t, self.c(k))?;
        }
        let e = self.exp(self.sub(p, self.mul(z, z)?)?)?;
        let r = self.mul(t, e)?;
        let neg = self.cmp(FloatPredicate::OLT, x, self.c(0.0))?;
        self.sel(neg, self.sub(self.c(2.0), r)?, r)
    }

    /// x^y = 2^(y·log2|x|) with log2 in extended precision (`log2_hi_lo`)
    /// and the product's rounding error corrected; the sign from an odd integral `y`; negative `x`
    /// with a non-integral `y` is NaN, and `x^0 = 1^y = 1`.
    fn pow(&self, x: FloatValue<'ctx>, y: FloatValue<'ctx>) -> R<'ctx> {
        let ax = self.abs(x)?;
        let (l, llo) = self.log2_hi_lo(ax)?;
        let t = self.mul(y, l)?;
        let err = self.fma(y, l, self.neg(t)?)?;
        let err = self.fma(y, llo, err)?;
        let r = self.exp2_corrected(t, err)?;
        let yi = self.call("llvm.trunc.f32", y)?;
        let is_int = self.cmp(FloatPredicate::OEQ, yi, y)?;
        let half = self.mul(y, self.c(0.5))?;
        let half_int = self.cmp(
            FloatPredicate::OEQ,
            self.call("llvm.trunc.f32", half)?,
            half,
        )?;
        let odd = self.and(is_int, self.l.b.build_not(half_int, "").llvm()?)?;
        let sign = self
            .l
            .b
            .build_int_compare(IntPredicate::SLT, self.bits(x)?, self.i(0), "")
            .llvm()?;
        let r = self.sel(self.and(sign, odd)?, self.neg(r)?, r)?;
        let neg = self.cmp(FloatPredicate::OLT, x, self.c(0.0))?;
        let not_int = self.l.b.build_not(is_int, "").llvm()?;
        let r = self.sel(self.and(neg, not_int)?, self.c(f64::NAN), r)?;
        // |x| = 1 and y = ±inf: log2 gives 0, 0·inf NaN; the answer is 1.
        let unit = self.cmp(FloatPredicate::OEQ, ax, self.c(1.0))?;
        let yinf = self.cmp(FloatPredicate::OEQ, self.abs(y)?, self.c(f64::INFINITY))?;
        let r = self.sel(self.and(unit, yinf)?, self.c(1.0), r)?;
        let y0 = self.cmp(FloatPredicate::OEQ, y, self.c(0.0))?;
        let x1 = self.cmp(FloatPredicate::OEQ, x, self.c(1.0))?;
        let one = self.l.b.build_or(y0, x1, "").llvm()?;
        self.sel(one, self.c(1.0), r)
    }

    /// log10: on NVPTX the natural logarithm times log10(e).
    fn log10(&self, x: FloatValue<'ctx>) -> R<'ctx> {
        match self.l.target {
            Target::Nvptx { .. } => self.mul(self.log_nvptx(x)?, self.c(std::f64::consts::LOG10_E)),
            _ => self.call("llvm.log10.f32", x),
        }
    }

    /// sin or cos: on NVPTX reduced, then the hardware approximation.
    fn sincos(&self, x: FloatValue<'ctx>, cos: bool) -> R<'ctx> {
        match self.l.target {
            Target::Nvptx { .. } => self.sincos_nvptx(x, cos),
            _ if cos => self.call("llvm.cos.f32", x),
            _ => self.call("llvm.sin.f32", x),
        }
    }

    /// sin or cos on NVPTX: `x` reduced by the nearest multiple of 2π (2π
    /// split in three parts, Cody–Waite), then the hardware approximation,
    /// which is accurate on [-π, π].
    fn sincos_nvptx(&self, x: FloatValue<'ctx>, cos: bool) -> R<'ctx> {
        let k = self.call(
            "llvm.rint.f32",
            self.mul(x, self.c(0.159_154_936_671_257_02))?,
        )?;
        let nk = self.neg(k)?;
        let r = self.fma(nk, self.c(6.28125), x)?;
        let r = self.fma(nk, self.c(1.935_307_169_333_100_3e-3), r)?;
        let r = self.fma(nk, self.c(1.025_337_627_302_835_8e-11), r)?;
        let name = if cos {
            "llvm.nvvm.cos.approx.f"
        } else {
            "llvm.nvvm.sin.approx.f"
        };
        self.call(name, r)
    }
}

/// A float classification.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Class {
    Nan,
    Inf,
    Finite,
    Normal,
}

/// A GPU expansion of a C library function, on f32 operands.
pub(crate) type Device = for<'l, 'a, 'ctx> fn(&F<'l, 'a, 'ctx>, &[FloatValue<'ctx>]) -> R<'ctx>;

/// How a math op is emitted.
#[derive(Clone, Copy)]
pub(crate) enum Math {
    /// An integer intrinsic `llvm.<name>.iN`; `flag`: it takes LLVM's
    /// `i1 false` poison flag after the operand.
    IntIntrinsic {
        name: &'static str,
        flag: bool,
    },
    /// A float classification (an `i1`).
    Classify(Class),
    /// An exactly rounded float intrinsic every target selects (`llvm.<name>.<type>`).
    Exact(&'static str),
    Rsqrt,
    Fma,
    Copysign,
    Clampf,
    /// A C library function of `arity` operands (`c`, `<c>f` for f32) on the
    /// host; on GPUs its f32 expansion, where there is one.
    Libm {
        c: &'static str,
        arity: usize,
        device: Option<Device>,
    },
}

const fn row(spec: &aic::OpSpec, m: Math) -> (&'static str, Emit) {
    (spec.name, Emit::Math(m))
}

const fn libm(spec: &aic::OpSpec, c: &'static str, device: Option<Device>) -> (&'static str, Emit) {
    row(
        spec,
        Math::Libm {
            c,
            arity: 1,
            device,
        },
    )
}

/// The math ops aic-llvm translates.
pub(crate) const ROWS: &[(&str, Emit)] = &[
    row(
        &d::ABSI,
        Math::IntIntrinsic {
            name: "abs",
            flag: true,
        },
    ),
    row(
        &d::CTLZ,
        Math::IntIntrinsic {
            name: "ctlz",
            flag: true,
        },
    ),
    row(
        &d::CTTZ,
        Math::IntIntrinsic {
            name: "cttz",
            flag: true,
        },
    ),
    row(
        &d::CTPOP,
        Math::IntIntrinsic {
            name: "ctpop",
            flag: false,
        },
    ),
    row(&d::ISNAN, Math::Classify(Class::Nan)),
    row(&d::ISINF, Math::Classify(Class::Inf)),
    row(&d::ISFINITE, Math::Classify(Class::Finite)),
    row(&d::ISNORMAL, Math::Classify(Class::Normal)),
    row(&d::ABSF, Math::Exact("fabs")),
    row(&d::SQRT, Math::Exact("sqrt")),
    row(&d::FLOOR, Math::Exact("floor")),
    row(&d::CEIL, Math::Exact("ceil")),
    row(&d::TRUNC, Math::Exact("trunc")),
    row(&d::ROUND, Math::Exact("round")),
    row(&d::ROUNDEVEN, Math::Exact("roundeven")),
    row(&d::RSQRT, Math::Rsqrt),
    row(&d::FMA, Math::Fma),
    row(&d::COPYSIGN, Math::Copysign),
    row(&d::CLAMPF, Math::Clampf),
    libm(&d::EXP, "exp", Some(|f, x| f.exp(x[0]))),
    libm(&d::EXP2, "exp2", Some(|f, x| f.exp2(x[0]))),
    libm(&d::EXPM1, "expm1", Some(|f, x| f.expm1(x[0]))),
    libm(&d::LOG, "log", Some(|f, x| f.log(x[0]))),
    libm(&d::LOG2, "log2", Some(|f, x| f.log2(x[0]))),
    libm(&d::LOG10, "log10", Some(|f, x| f.log10(x[0]))),
    libm(&d::LOG1P, "log1p", Some(|f, x| f.log1p(x[0]))),
    libm(&d::TANH, "tanh", Some(|f, x| f.tanh(x[0]))),
    libm(&d::SINH, "sinh", None),
    libm(&d::COSH, "cosh", None),
    libm(&d::ERF, "erf", Some(|f, x| f.erf(x[0]))),
    libm(&d::ERFC, "erfc", Some(|f, x| f.erfc(x[0]))),
    libm(&d::SIN, "sin", Some(|f, x| f.sincos(x[0], false))),
    libm(&d::COS, "cos", Some(|f, x| f.sincos(x[0], true))),
    libm(&d::TAN, "tan", None),
    libm(&d::ASIN, "asin", None),
    libm(&d::ACOS, "acos", None),
    libm(&d::ATAN, "atan", None),
    libm(&d::ASINH, "asinh", None),
    libm(&d::ACOSH, "acosh", None),
    libm(&d::ATANH, "atanh", None),
    libm(&d::CBRT, "cbrt", None),
    row(
        &d::POWF,
        Math::Libm {
            c: "pow",
            arity: 2,
            device: Some(|f, x| f.pow(x[0], x[1])),
        },
    ),
    row(
        &d::ATAN2,
        Math::Libm {
            c: "atan2",
            arity: 2,
            device: None,
        },
    ),
];

/// The value of math op `op`, emitted as `m` says.
pub(crate) fn emit<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    m: Math,
) -> Result<BasicValueEnum<'ctx>, String> {
    let ir = l.ir;
    let name = ir.op_name(op);
    let args = ir.operands(op);
    for &v in args {
        l.ty(op, ir.value_type(v))?;
    }
    let operand = |i: usize| -> Result<BasicValueEnum<'ctx>, String> {
        let v = *args
            .get(i)
            .ok_or_else(|| l.err(op, format!("{name} lacks operand {i}")))?;
        l.val_of(op, v)
    };
    // Integer ops and float classification first.
    match m {
        Math::IntIntrinsic { name, flag } => {
            let x = operand(0)?.into_int_value();
            let w = x.get_type().get_bit_width();
            let f = l.cx.bool_type().const_zero().as_basic_value_enum();
            let args: &[BasicValueEnum] = if flag { &[x.into(), f] } else { &[x.into()] };
            let r = l.call(
                &format!("llvm.{name}.i{w}"),
                Some(x.get_type().into()),
                args,
            )?;
            return r.ok_or_else(|| l.err(op, "internal error: an intrinsic returned nothing"));
        }
        Math::Classify(c) => return classify(l, operand(0)?.into_float_value(), c),
        _ => {}
    }
    let mut xs = Vec::new();
    let mut back = None;
    for i in 0..args.len() {
        let BasicValueEnum::FloatValue(f) = operand(i)? else {
            return Err(l.err(op, format!("{name} on a non-float operand")));
        };
        let (w, to) = l.widen(f)?;
        if i == 0 {
            back = to;
        }
        xs.push(w);
    }
    if xs.is_empty() {
        return Err(l.err(op, format!("{name} without operands")));
    }
    let r = float(l, op, m, &xs, back)?;
    Ok(l.narrow(r, back)?.as_basic_value_enum())
}

/// `isnan`, `isinf`, `isfinite`, `isnormal` of `x`.
fn classify<'ctx>(
    l: &Lower<'_, 'ctx>,
    x: FloatValue<'ctx>,
    c: Class,
) -> Result<BasicValueEnum<'ctx>, String> {
    let (x, _) = l.widen(x)?;
    let t = x.get_type();
    let b = &l.b;
    let ax = l.fcall(&format!("llvm.fabs.{}", l.fsuffix(t)), &[x])?;
    let inf = t.const_float(f64::INFINITY);
    let r = match c {
        Class::Nan => b.build_float_compare(FloatPredicate::UNO, x, x, ""),
        Class::Inf => b.build_float_compare(FloatPredicate::OEQ, ax, inf, ""),
        Class::Finite => b.build_float_compare(FloatPredicate::OLT, ax, inf, ""),
        Class::Normal => {
            let min = if t == l.cx.f64_type() {
                f64::MIN_POSITIVE
            } else {
                f64::from(f32::MIN_POSITIVE)
            };
            let lo = b
                .build_float_compare(FloatPredicate::OGE, ax, t.const_float(min), "")
                .llvm()?;
            let hi = b
                .build_float_compare(FloatPredicate::OLT, ax, inf, "")
                .llvm()?;
            b.build_and(lo, hi, "")
        }
    }
    .llvm()?;
    Ok(r.into())
}

/// A float math op on `xs` (widened to f32 where 16-bit; `back` the format
/// the result returns to).
fn float<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    m: Math,
    xs: &[FloatValue<'ctx>],
    back: Option<inkwell::types::FloatType<'ctx>>,
) -> R<'ctx> {
    let name = l.ir.op_name(op);
    let t = xs[0].get_type();
    let s = l.fsuffix(t);
    let arity = |n: usize| -> Result<(), String> {
        if xs.len() == n {
            Ok(())
        } else {
            Err(l.err(op, format!("{name} takes {n} operands")))
        }
    };
    let (c, n, device) = match m {
        Math::Exact(i) => {
            arity(1)?;
            return l.fcall(&format!("llvm.{i}.{s}"), &[xs[0]]);
        }
        Math::Rsqrt => {
            arity(1)?;
            let sq = l.fcall(&format!("llvm.sqrt.{s}"), &[xs[0]])?;
            return l.b.build_float_div(t.const_float(1.0), sq, "").llvm();
        }
        Math::Fma => {
            arity(3)?;
            return l.fcall(&format!("llvm.fma.{s}"), xs);
        }
        Math::Copysign => {
            arity(2)?;
            return l.fcall(&format!("llvm.copysign.{s}"), xs);
        }
        Math::Clampf => {
            arity(3)?;
            let lo = l.fcall(&format!("llvm.maxnum.{s}"), &[xs[0], xs[1]])?;
            return l.fcall(&format!("llvm.minnum.{s}"), &[lo, xs[2]]);
        }
        Math::Libm { c, arity, device } => (c, arity, device),
        Math::IntIntrinsic { .. } | Math::Classify(_) => return Err(l.err_cannot(op)),
    };
    if matches!(l.target, Target::Host) {
        arity(n)?;
        let sym = if t == l.cx.f64_type() {
            c.to_string()
        } else {
            format!("{c}f")
        };
        return l.fcall(&sym, xs);
    }
    let unsupported = || {
        l.err(
            op,
            format!(
                "{name} on {s} is not supported for {} (no device math library)",
                l.target.name()
            ),
        )
    };
    match device {
        Some(expand) if t != l.cx.f64_type() => {
            arity(n)?;
            let f = F {
                l,
                approx: back.is_some() || l.fastmath_has(op, aic_dialects::arith::FASTMATH_AFN),
            };
            expand(&f, xs)
        }
        _ => Err(unsupported()),
    }
}
