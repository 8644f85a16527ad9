//! StableHLO's linear-algebra ops: `fft` (FFT, IFFT, RFFT, IRFFT over the
//! innermost one to three dimensions) and `triangular_solve` (batched
//! triangular systems, on either side, with the matrix as is, transposed or
//! adjoint). Spec, verifier and interpreter semantics together; neither lowers
//! to graph, so both stay interpreted.
//!
//! The interpreter computes in `f64` complex arithmetic and rounds to the
//! result type once. The transform is a direct DFT per line (O(n²) per line
//! of length n): it is the spec's definition, exact enough for the reference
//! interpreter, and needs no FFT library for the sizes tests and models use.

use super::verify::{R, elem, shape};
use super::{FP_COMPLEX_TENSOR, op};
use crate::kernels::{C, c_div, c_mul, count, out, result_elem, result_shape, unsupported};
use aic::constraints::{BOOL_ATTR, I64_ARRAY};
use aic::dialect::{Dialect, OpSpec};
use aic::interp::{Data, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::types::{DYNAMIC, TypeKind};
use aic::verifier::op_error;

type Res = IResult<Vec<Tensor>>;

aic::dialect_enum! {
    /// `#stablehlo<fft_type FFT>`, written `FFT` in `fft`'s syntax.
    pub enum FftType = "stablehlo<fft_type ", "XLA fast fourier transform type." {
        /// Complex to complex, forward.
        Fft = "FFT",
        /// Complex to complex, inverse (scaled by 1/n).
        Ifft = "IFFT",
        /// Real to complex, forward (the non-redundant half).
        Rfft = "RFFT",
        /// Complex to real, inverse of RFFT.
        Irfft = "IRFFT",
    }
}

aic::dialect_enum! {
    /// `#stablehlo<transpose NO_TRANSPOSE>`: how `triangular_solve` uses its matrix.
    pub enum Transpose = "stablehlo<transpose ", "Transpose options" {
        /// Not a valid choice (the verifier rejects it).
        Invalid = "TRANSPOSE_INVALID",
        /// The matrix as is.
        No = "NO_TRANSPOSE",
        /// Its transpose.
        Transpose = "TRANSPOSE",
        /// Its conjugate transpose.
        Adjoint = "ADJOINT",
    }
}

aic::op! {
    /// `stablehlo.fft %x, type = FFT, length = [n, ...]`.
    pub Fft = FFT {
        operands: [operand: one(FP_COMPLEX_TENSOR)],
        results: [result: one(FP_COMPLEX_TENSOR)],
        attributes: [
            fft_type: required(FftType::CONSTRAINT) as FftType,
            fft_length: required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some(
                "$operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length attr-dict `:` functional-type(operands, results)",
            ),
            verify: Some(verify_fft),
            interpret: Some(fft),
            ..op("stablehlo.fft", "Fft operation")
        },
    }
}

aic::op! {
    /// `stablehlo.triangular_solve`: solves `op(a) x = b` (left side) or
    /// `x op(a) = b` for `x`, `a` triangular (generic syntax only, as stablehlo-opt).
    pub TriangularSolve = TRIANGULAR_SOLVE {
        operands: [a: one(FP_COMPLEX_TENSOR), b: one(FP_COMPLEX_TENSOR)],
        results: [result: one(FP_COMPLEX_TENSOR)],
        attributes: [
            left_side: required(BOOL_ATTR) as bool,
            lower: required(BOOL_ATTR) as bool,
            unit_diagonal: required(BOOL_ATTR) as bool,
            transpose_a: required(Transpose::CONSTRAINT) as Transpose,
        ],
        spec: OpSpec {
            verify: Some(verify_triangular_solve),
            interpret: Some(triangular_solve),
            ..op("stablehlo.triangular_solve", "TriangularSolve operation")
        },
    }
}

// ---------------------------------------------------------------- verifiers

fn is_complex(ctx: &Context, t: aic::types::Type) -> bool {
    matches!(ctx.type_kind(elem(ctx, t)), TypeKind::Complex(_))
}

/// `fft`: the spec's constraints C1–C5 on ranks, lengths and element types.
fn verify_fft(ctx: &Context, op: Op) -> R<()> {
    let f = Fft(op);
    let (x, y) = (f.operand(ctx), f.result(ctx));
    let len = f.fft_length(ctx).unwrap_or_default();
    let kind = f.fft_type(ctx).unwrap_or(FftType::Fft);
    let err = |m: String| Err(op_error(ctx, op, m));
    if !(1..=3).contains(&len.len()) {
        return err(format!(
            "fft_length must have 1 to 3 sizes, got {} (C1)",
            len.len()
        ));
    }
    let (cx, cy) = (
        is_complex(ctx, ctx.value_type(x)),
        is_complex(ctx, ctx.value_type(y)),
    );
    let want = match kind {
        FftType::Fft | FftType::Ifft => (true, true),
        FftType::Rfft => (false, true),
        FftType::Irfft => (true, false),
    };
    if (cx, cy) != want {
        let what = |c: bool| if c { "complex" } else { "floating-point" };
        return err(format!(
            "{} expects a {} operand and a {} result (C2, C4)",
            kind.keyword(),
            what(want.0),
            what(want.1)
        ));
    }
    let (Some(sx), Some(sy)) = (shape(ctx, x), shape(ctx, y)) else {
        return Ok(());
    };
    if sx.len() < len.len() || sx.len() != sy.len() {
        return err(format!(
            "operand rank {} and result rank {} must agree and be at least the {} transformed dimensions (C3)",
            sx.len(),
            sy.len(),
            len.len()
        ));
    }
    let k = sx.len() - len.len();
    let half = |n: i64| if n == 0 { 0 } else { n / 2 + 1 };
    // The operand's and the result's innermost sizes for each kind.
    let (ix, iy): (Vec<i64>, Vec<i64>) = match kind {
        FftType::Fft | FftType::Ifft => (len.clone(), len.clone()),
        FftType::Rfft => {
            let mut r = len.clone();
            *r.last_mut().expect("1 to 3 sizes") = half(len[len.len() - 1]);
            (len.clone(), r)
        }
        FftType::Irfft => {
            let mut r = len.clone();
            *r.last_mut().expect("1 to 3 sizes") = half(len[len.len() - 1]);
            (r, len.clone())
        }
    };
    let fits = |s: &[i64], want: &[i64]| s.iter().zip(want).all(|(a, b)| *a == DYNAMIC || a == b);
    if !fits(&sx[k..], &ix) || !fits(&sy[k..], &iy) || !fits(&sx[..k], &sy[..k]) {
        return err(format!(
            "shapes {sx:?} -> {sy:?} do not fit {} with fft_length {len:?} (C3, C5)",
            kind.keyword()
        ));
    }
    let (ex, ey) = (elem(ctx, ctx.value_type(x)), elem(ctx, ctx.value_type(y)));
    let part = |t| match ctx.type_kind(t) {
        TypeKind::Complex(p) => *p,
        _ => t,
    };
    if part(ex) != part(ey) {
        return err(
            "operand and result must have the same floating-point precision (C2, C4)".into(),
        );
    }
    Ok(())
}

/// `triangular_solve`: square matrices, matching batch and solve dimensions,
/// the result typed as `b`, and a valid `transpose_a`.
fn verify_triangular_solve(ctx: &Context, op: Op) -> R<()> {
    let t = TriangularSolve(op);
    let err = |m: String| Err(op_error(ctx, op, m));
    if t.transpose_a(ctx) == Some(Transpose::Invalid) {
        return err("transpose_a must not be TRANSPOSE_INVALID (C5)".into());
    }
    let (ta, tb, tr) = (
        ctx.value_type(t.a(ctx)),
        ctx.value_type(t.b(ctx)),
        ctx.value_type(t.result(ctx)),
    );
    if elem(ctx, ta) != elem(ctx, tb) || tb != tr {
        return err(
            "a, b and the result must have one element type, and the result b's type (C1, C6)"
                .into(),
        );
    }
    let (Some(sa), Some(sb)) = (shape(ctx, t.a(ctx)), shape(ctx, t.b(ctx))) else {
        return Ok(());
    };
    let r = sa.len();
    if r < 2 || sb.len() != r {
        return err(format!(
            "a and b must have one rank of at least 2, got {} and {} (C2)",
            r,
            sb.len()
        ));
    }
    let known = |a: i64, b: i64| a == DYNAMIC || b == DYNAMIC || a == b;
    if !known(sa[r - 2], sa[r - 1]) {
        return err(format!("a must be square, got {sa:?} (C3)"));
    }
    let left = t.left_side(ctx).unwrap_or(true);
    let m = if left { sb[r - 2] } else { sb[r - 1] };
    if !known(m, sa[r - 1]) || !sa[..r - 2].iter().zip(&sb).all(|(x, y)| known(*x, *y)) {
        return err(format!(
            "b {sb:?} does not fit a {sa:?} on the {} side (C4)",
            if left { "left" } else { "right" }
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- semantics

/// The tensor's elements as complex numbers (a real's imaginary part 0).
fn complexes(op: Op, ctx: &Context, t: &Tensor) -> IResult<Vec<C>> {
    match &t.data {
        Data::Complex(v) => Ok(v.to_vec()),
        Data::Float(v) => Ok(v.iter().map(|x| (x, 0.0)).collect()),
        _ => Err(unsupported(op, ctx, "integers")),
    }
}

/// `v` (of `shape`) transformed along `axis` in place: the DFT, or the
/// inverse DFT scaled by 1/n.
fn dft_along(v: &mut [C], shape: &[i64], axis: usize, inverse: bool) {
    let n = shape[axis].max(0) as usize;
    let inner = count(&shape[axis + 1..]).max(1);
    let outer = count(&shape[..axis]).max(1);
    if n == 0 || v.is_empty() {
        return;
    }
    let sign = if inverse { 1.0 } else { -1.0 };
    let twiddle: Vec<C> = (0..n)
        .map(|j| {
            let a = sign * 2.0 * std::f64::consts::PI * j as f64 / n as f64;
            (a.cos(), a.sin())
        })
        .collect();
    let mut line = vec![(0.0, 0.0); n];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * n + k) * inner + i;
            for (k, l) in line.iter_mut().enumerate() {
                *l = v[at(k)];
            }
            for k in 0..n {
                let mut acc = (0.0, 0.0);
                for (j, x) in line.iter().enumerate() {
                    let w = twiddle[(j * k) % n];
                    let p = c_mul(*x, w);
                    acc = (acc.0 + p.0, acc.1 + p.1);
                }
                if inverse {
                    acc = (acc.0 / n as f64, acc.1 / n as f64);
                }
                v[at(k)] = acc;
            }
        }
    }
}

/// `fft`.
fn fft(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let f = Fft(op);
    let kind = f.fft_type(ctx).unwrap_or(FftType::Fft);
    let len = f.fft_length(ctx).unwrap_or_default();
    let x = &args[0];
    let rank = x.shape.len();
    let axes = rank - len.len().min(rank)..rank;
    let out_shape = result_shape(ctx, op, 0)?;
    let er = result_elem(ctx, op, 0)?;
    // The innermost sizes the transform expects (the verifier saw only the
    // static ones).
    let half = |n: i64| if n == 0 { 0 } else { n / 2 + 1 };
    let mut want_in = len.clone();
    let mut want_out = len.clone();
    match kind {
        FftType::Rfft => *want_out.last_mut().unwrap_or(&mut 0) = half(len[len.len() - 1]),
        FftType::Irfft => *want_in.last_mut().unwrap_or(&mut 0) = half(len[len.len() - 1]),
        _ => {}
    }
    if len.is_empty()
        || rank < len.len()
        || out_shape.len() != rank
        || x.shape[axes.start..] != want_in[..]
        || out_shape[axes.start..] != want_out[..]
        || x.shape[..axes.start] != out_shape[..axes.start]
    {
        return Err(InterpError::at(
            op,
            format!(
                "shapes {:?} -> {out_shape:?} do not fit {} with fft_length {len:?}",
                x.shape,
                kind.keyword()
            ),
        ));
    }
    let mut v = complexes(op, ctx, x)?;
    let shape = x.shape.clone();
    match kind {
        FftType::Fft | FftType::Ifft => {
            for a in axes {
                dft_along(&mut v, &shape, a, kind == FftType::Ifft);
            }
        }
        FftType::Rfft => {
            for a in axes {
                dft_along(&mut v, &shape, a, false);
            }
            // Keep the first n/2 + 1 of the innermost dimension.
            let (n, h) = (shape[rank - 1] as usize, out_shape[rank - 1] as usize);
            v = v
                .chunks(n.max(1))
                .flat_map(|c| c[..h.min(c.len())].to_vec())
                .collect();
        }
        FftType::Irfft => {
            for a in axes.start..rank - 1 {
                dft_along(&mut v, &shape, a, true);
            }
            // The full spectrum of each innermost line from its Hermitian half.
            let (h, n) = (shape[rank - 1] as usize, out_shape[rank - 1] as usize);
            let mut full = Vec::with_capacity(v.len() / h.max(1) * n);
            for c in v.chunks(h.max(1)) {
                full.extend((0..n).map(|k| {
                    if k < h {
                        c[k]
                    } else {
                        let (re, im) = c[n - k];
                        (re, -im)
                    }
                }));
            }
            v = full;
            dft_along(&mut v, &out_shape, rank - 1, true);
        }
    }
    let data = match er {
        aic::interp::Elem::Complex(k) => Data::from_complex(k, v),
        e => Data::from_f64s(e.float_kind(), v.iter().map(|c| c.0)),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// `triangular_solve`: substitution per batch, in complex arithmetic.
fn triangular_solve(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let t = TriangularSolve(op);
    let left = t.left_side(ctx).unwrap_or(true);
    let lower = t.lower(ctx).unwrap_or(true);
    let unit = t.unit_diagonal(ctx).unwrap_or(false);
    let how = t.transpose_a(ctx).unwrap_or(Transpose::No);
    let (a, b) = (complexes(op, ctx, &args[0])?, complexes(op, ctx, &args[1])?);
    let (sa, sb) = (&args[0].shape, &args[1].shape);
    let r = sa.len();
    let fits = r >= 2
        && sb.len() == r
        && sa[r - 2] == sa[r - 1]
        && sa[..r - 2] == sb[..r - 2]
        && sa[r - 1] == if left { sb[r - 2] } else { sb[r - 1] };
    if !fits {
        return Err(InterpError::at(
            op,
            format!("b {sb:?} does not fit a {sa:?}"),
        ));
    }
    let m = sa[r - 1] as usize;
    let (rows, cols) = (sb[r - 2] as usize, sb[r - 1] as usize);
    let batches = count(&args[0].shape[..r - 2]).max(1);
    let mut x = vec![(0.0, 0.0); b.len()];
    for g in 0..batches {
        let a = &a[g * m * m..(g + 1) * m * m];
        // op(a) restricted to its triangle, as a dense matrix.
        let tri = |i: usize, j: usize| -> C {
            if i == j && unit {
                return (1.0, 0.0);
            }
            let keep = if lower { j <= i } else { j >= i };
            if keep { a[i * m + j] } else { (0.0, 0.0) }
        };
        let opa = |i: usize, j: usize| -> C {
            match how {
                Transpose::No | Transpose::Invalid => tri(i, j),
                Transpose::Transpose => tri(j, i),
                Transpose::Adjoint => {
                    let (re, im) = tri(j, i);
                    (re, -im)
                }
            }
        };
        let eff_lower = lower == matches!(how, Transpose::No | Transpose::Invalid);
        let bg = &b[g * rows * cols..(g + 1) * rows * cols];
        let xg = &mut x[g * rows * cols..(g + 1) * rows * cols];
        // Left: op(a) X = B, column by column. Right: X op(a) = B, i.e.
        // op(a)ᵀ Xᵀ = Bᵀ, row by row (op(a)ᵀ has the other triangle).
        let (systems, mat): (usize, Box<dyn Fn(usize, usize) -> C>) = if left {
            (cols, Box::new(opa))
        } else {
            (rows, Box::new(move |i, j| opa(j, i)))
        };
        let fwd = if left { eff_lower } else { !eff_lower };
        let idx = |s: usize, i: usize| if left { i * cols + s } else { s * cols + i };
        for s in 0..systems {
            let order: Box<dyn Iterator<Item = usize>> = if fwd {
                Box::new(0..m)
            } else {
                Box::new((0..m).rev())
            };
            for i in order {
                let mut acc = bg[idx(s, i)];
                let known: Box<dyn Iterator<Item = usize>> = if fwd {
                    Box::new(0..i)
                } else {
                    Box::new(i + 1..m)
                };
                for j in known {
                    let p = c_mul(mat(i, j), xg[idx(s, j)]);
                    acc = (acc.0 - p.0, acc.1 - p.1);
                }
                xg[idx(s, i)] = c_div(acc, mat(i, i));
            }
        }
    }
    let er = result_elem(ctx, op, 0)?;
    let data = match er {
        aic::interp::Elem::Complex(k) => Data::from_complex(k, x),
        e => Data::from_f64s(e.float_kind(), x.iter().map(|c| c.0)),
    };
    Ok(vec![out(ctx, op, 0, data)])
}

/// StableHLO's linear-algebra ops.
pub const OPS: &[OpSpec] = &[FFT, TRIANGULAR_SOLVE];

/// The `stablehlo` dialect's linear-algebra part.
pub static LINALG: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dft_then_inverse_is_the_identity() {
        let shape = [2, 5];
        let v0: Vec<C> = (0..10)
            .map(|i| (i as f64 * 0.7 - 2.0, (i * i) as f64 * 0.1))
            .collect();
        let mut v = v0.clone();
        dft_along(&mut v, &shape, 1, false);
        dft_along(&mut v, &shape, 0, false);
        assert!((v[0].0 - v0.iter().map(|c| c.0).sum::<f64>()).abs() < 1e-9);
        dft_along(&mut v, &shape, 0, true);
        dft_along(&mut v, &shape, 1, true);
        for (a, b) in v.iter().zip(&v0) {
            assert!((a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9);
        }
    }
}
