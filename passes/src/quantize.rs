//! `quantize{mode=int8-weight}`: weight-only int8 quantization of the
//! constant weights of graph matrix products.
//!
//! A `graph.matmul` whose right operand is a float `graph.constant` of rank 2
//! (`[K, N]`, or `[N, K]` under `transpose_b`) with at least `min-elements`
//! elements gets that weight as an i8 constant with one scale per output
//! channel (`max |w[:, n]| / 127`, symmetric, rounded to nearest even;
//! an all-zero channel gets scale 1), dequantized where the product reads
//! it: `cast(q) * broadcast(scale)`, in the weight's float type. Fusion
//! makes that the GEMM's prologue, so the kernel reads a quarter (f32) or
//! half (f16, bf16) of the weight's bytes. A weight holding NaN or an
//! infinity has no scale and is an error at its constant.
//!
//! With `report`, one line per weight: its shape, bytes before and after,
//! and the largest error of the dequantized weight.
//!
//! Not built yet (issue 25): dynamic int8 (`int8-dynamic`: per-row
//! activation scales, s8 x s8 -> s32 GEMMs on `mma.sync`) and fp8 (e4m3 /
//! e5m2 on wgmma); graph products take one element type, so both need
//! mixed-type GEMMs first.

use aic::interp::{Tensor, attr_of_tensor, tensor_of_attr};
use aic::ir::{Builder, Context, Op, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic::{Diagnostic, float::FloatKind};
use aic_dialects::graph;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "quantize",
    name: "Quantize",
    summary: "Quantize the constant weights of graph matrix products to int8 with per-channel scales, dequantized in the product's prologue",
    anchor: None,
    options: &[
        OptSpec {
            name: "mode",
            kind: OptKind::Enum(&["int8-weight"]),
            default: "int8-weight",
            range: None,
            help: "int8-weight: weight-only int8, one scale per output channel",
        },
        OptSpec {
            name: "min-elements",
            kind: OptKind::UInt,
            default: "4096",
            range: Some((1, i64::MAX)),
            help: "Leave weights with fewer elements in their float type",
        },
        OptSpec {
            name: "report",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Print each quantized weight's bytes and largest error to standard error",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(Quantize {
            min_elements: o.int("min-elements") as usize,
            report: o.bool("report"),
        })
    },
};

struct Quantize {
    min_elements: usize,
    report: bool,
}

/// Symmetric int8 of `w` (`[rows, cols]`, row-major) with one scale per
/// channel along `axis` (0: rows, 1: columns): the i8 values, the scales,
/// and the largest absolute error of the dequantized weight; `None` if an
/// element is NaN or infinite.
pub fn quantize_per_channel(
    w: &[f64],
    rows: usize,
    cols: usize,
    axis: usize,
) -> Option<(Vec<i64>, Vec<f64>, f64)> {
    if w.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let channels = if axis == 0 { rows } else { cols };
    let channel = |i: usize| if axis == 0 { i / cols } else { i % cols };
    let mut amax = vec![0.0f64; channels];
    for (i, x) in w.iter().enumerate() {
        let c = channel(i);
        amax[c] = amax[c].max(x.abs());
    }
    let scales: Vec<f64> = amax
        .iter()
        .map(|a| if *a > 0.0 { a / 127.0 } else { 1.0 })
        .collect();
    let mut err = 0.0f64;
    let q: Vec<i64> = w
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let s = scales[channel(i)];
            let q = (x / s).round_ties_even().clamp(-127.0, 127.0);
            err = err.max((q * s - x).abs());
            q as i64
        })
        .collect();
    Some((q, scales, err))
}

/// `t`'s shape and float element kind, for a ranked float tensor.
fn float_tensor(ctx: &Context, t: Type) -> Option<(Vec<i64>, FloatKind, Type)> {
    match ctx.type_kind(t) {
        TypeKind::Tensor { shape, elem, .. } => match ctx.type_kind(*elem) {
            TypeKind::Float(k) => Some((shape.to_vec(), *k, *elem)),
            _ => None,
        },
        _ => None,
    }
}

impl Quantize {
    /// Quantize the weight of `mm` if it qualifies; its report line.
    fn weight(&self, ctx: &mut Context, mm: graph::Matmul) -> Result<Option<String>, Diagnostic> {
        let rhs = mm.rhs(ctx);
        let Some(c) = graph::Constant::defining(ctx, rhs) else {
            return Ok(None);
        };
        let ty = ctx.value_type(rhs);
        let Some((shape, kind, elem)) = float_tensor(ctx, ty) else {
            return Ok(None);
        };
        let [rows, cols] = shape[..] else {
            return Ok(None);
        };
        let (rows, cols) = (rows as usize, cols as usize);
        if rows.saturating_mul(cols) < self.min_elements {
            return Ok(None);
        }
        let u = ctx.uniquer().clone();
        let Some(value) = graph::CONSTANT.attr(ctx, c.op(), "value") else {
            return Ok(None);
        };
        let Some(t) = tensor_of_attr(&u, value, ty) else {
            return Ok(None);
        };
        // The output channels: columns of [K, N], rows of a transposed [N, K].
        let axis = if mm.transpose_b(ctx).is_some() { 0 } else { 1 };
        let Some((q, scales, err)) = quantize_per_channel(&t.to_f64s(), rows, cols, axis) else {
            return Err(aic::verifier::op_error(
                ctx,
                c.op(),
                "cannot quantize a weight holding NaN or infinity: it has no scale",
            ));
        };
        let loc = ctx.op(mm.op()).loc;
        let i8t = u.int_type(8);
        let qty = u.ty(TypeKind::Tensor {
            shape: shape.iter().copied().collect(),
            elem: i8t,
            encoding: None,
        });
        let sty = u.ty(TypeKind::Tensor {
            shape: [scales.len() as i64].into_iter().collect(),
            elem,
            encoding: None,
        });
        let qattr = attr_of_tensor(&u, &Tensor::from_i64s(&u, qty, q));
        let sattr = attr_of_tensor(&u, &Tensor::from_f64s(&u, sty, scales.iter().copied()));
        let dims = u.i64_array(&[axis as i64]);
        let mut b = Builder::before(ctx, mm.op());
        b.loc = loc;
        let qc = graph::Constant::build(&mut b, qattr, qty).result(b.ctx);
        let sc = graph::Constant::build(&mut b, sattr, sty).result(b.ctx);
        let wf = graph::Cast::build(&mut b, qc, ty).result(b.ctx);
        let sb = graph::Broadcast::build(&mut b, sc, dims, ty).result(b.ctx);
        let w = graph::Mul::build(&mut b, wf, sb, ty).result(b.ctx);
        ctx.set_operand(mm.op(), 1, w);
        if ctx.uses(rhs).is_empty() {
            ctx.erase_op(c.op());
        }
        let amax = t.to_f64s().iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let width = f64::from(kind.bit_width()) / 8.0;
        let elems = (rows * cols) as f64;
        Ok(Some(format!(
            "quantize: {rows}x{cols}x{} weight of a matmul to int8 with {} per-channel scales: {} bytes before, {} after; largest error {err:.3e} ({:.3e} of the largest weight)",
            kind.keyword(),
            scales.len(),
            elems * width,
            elems + scales.len() as f64 * width,
            if amax > 0.0 { err / amax } else { 0.0 }
        )))
    }
}

impl Pass for Quantize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        rewrite_matmuls(ctx, root, self.report, &mut |ctx, mm| self.weight(ctx, mm))
    }
}

/// A rewrite of one matmul's weight: its report line where it changed it.
pub(crate) type WeightRewrite<'a> =
    dyn FnMut(&mut Context, graph::Matmul) -> Result<Option<String>, Diagnostic> + 'a;

/// Apply `rewrite` to every matmul under `root` (collected first, so that
/// it may change the IR): it gives a report line where it changed one,
/// printed with `report`. Whether any changed. `quantize` and `sparsify`
/// rewrite their weights so.
pub(crate) fn rewrite_matmuls(
    ctx: &mut Context,
    root: Op,
    report: bool,
    rewrite: &mut WeightRewrite<'_>,
) -> Result<bool, Diagnostic> {
    let mut gemms = Vec::new();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, op| {
        if let Some(m) = graph::Matmul::of(ctx, op) {
            gemms.push(m);
        }
    });
    let mut changed = false;
    for mm in gemms {
        if let Some(line) = rewrite(ctx, mm)? {
            changed = true;
            if report {
                eprintln!("{line}");
            }
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_channel_scales_round_to_even_and_bound_the_error() {
        // [2, 3], channels are columns.
        let w = [1.0, -0.5, 0.0, 0.25, 2.0, 0.0];
        let (q, s, err) = quantize_per_channel(&w, 2, 3, 1).expect("finite");
        assert_eq!(s, vec![1.0 / 127.0, 2.0 / 127.0, 1.0]);
        assert_eq!(q, vec![127, -32, 0, 32, 127, 0]);
        for (i, x) in w.iter().enumerate() {
            assert!((q[i] as f64 * s[i % 3] - x).abs() <= s[i % 3] / 2.0 + 1e-12);
        }
        assert!(err <= 1.0 / 254.0 + 1e-12, "{err}");
        // Channels as rows.
        let (_, s, _) = quantize_per_channel(&w, 2, 3, 0).expect("finite");
        assert_eq!(s, vec![1.0 / 127.0, 2.0 / 127.0]);
        assert!(quantize_per_channel(&[1.0, f64::NAN], 1, 2, 1).is_none());
        assert!(quantize_per_channel(&[1.0, f64::INFINITY], 1, 2, 1).is_none());
    }
}
