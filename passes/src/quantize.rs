//! `quantize{mode=int8-weight|int8-dynamic|fp8}`: int8 (or fp8 e4m3)
//! quantization of the constant weights of graph matrix products, and with
//! `int8-dynamic` and `fp8` of their activations at run time.
//!
//! A `graph.matmul` whose right operand is a float `graph.constant` of rank 2
//! (`[K, N]`, or `[N, K]` under `transpose_b`) with at least `min-elements`
//! elements gets that weight as an i8 constant with one scale per output
//! channel (`max |w[:, n]| / 127`, symmetric, rounded to nearest even;
//! an all-zero channel gets scale 1). A weight holding NaN or an infinity
//! has no scale and is an error at its constant.
//!
//! `int8-weight` dequantizes the weight where the product reads it:
//! `cast(q) * broadcast(scale)`, in the weight's float type. Fusion makes
//! that the GEMM's prologue, so the kernel reads a quarter (f32) or half
//! (f16, bf16) of the weight's bytes; the product itself stays float.
//!
//! `int8-dynamic` quantizes the activation too, per row at run time, and
//! runs the product in integers: `s_row = max(max |a_row|, 1e-5) / 127`
//! (a row reduction), `q = clamp(round_even(a / s_row), -127, 127)` as i8
//! (elementwise), then the i8 x i8 -> i32 `graph.matmul` (tensor cores'
//! `mma.sync` s8 form) and `cast(acc) * s_row * s_col` in f32, cast to the
//! product's float type (the GEMM's epilogue). The scales and the
//! dequantization are f32 whatever the float type, as torchao computes
//! them. These are `torch.ao`'s (torchao's) dynamic int8 numerics, the
//! scheme of `int8_dynamic_activation_int8_weight` that Segment Anything's
//! acceleration used: symmetric, per-row (per-token) activation scales
//! clamped below at 1e-5 and levels -127..127 (`quantize_activation_per_token_absmax`),
//! per-output-channel weight scales `amax / 127` (`quantize_weight_per_channel_absmax`),
//! rounding half to even (`torch.round`), an i32 product (`torch._int_mm`)
//! scaled by both. A product under `transpose_a` quantizes its activation
//! along its contracted dimension all the same.
//!
//! The dynamic schemes (`int8-dynamic`, `fp8`) store the quantized weight
//! K-major, `[N, K]`, and multiply under `transpose_b`: a `[K, N]` weight
//! is transposed when it is quantized (at compile time, a constant), as
//! cuBLASLt's int8/fp8 GEMMs and `torch._scaled_mm` (column-major B) want
//! it, and as Hopper's 8-bit wgmma needs it (both operands K-major in
//! shared memory), so B's transfers are contiguous along K.
//!
//! With `report`, one line per weight: its shape, bytes before and after,
//! and the largest error of the dequantized weight.
//!
//! `fp8` is `torch._scaled_mm`'s e4m3 scheme with a per-tensor weight
//! scale and per-row activation scales: the weight becomes an `f8E4M3FN`
//! constant `w / s_w` with `s_w = amax(|w|) / 448` (rounded to f32; 1 for
//! an all-zero weight), rounded to nearest even and saturated to +-448;
//! the activation is quantized per row at run time like `int8-dynamic`'s
//! (`s_row = max(max |a_row|, 1e-5) / 448`, a row reduction), but with no
//! rounding step: `clamp(a / s_row, -448, 448)` cast to `f8E4M3FN` (the
//! cast rounds to nearest even; the clamp saturates, NaN stays NaN). The
//! product is e4m3 x e4m3 -> f32 (`mma.sync`'s fp8 form on sm_89+) and
//! the epilogue `acc * s_row * s_w` in f32, cast to the product's type;
//! `s_w` is kept as a per-channel vector of one value, so the epilogue is
//! `int8-dynamic`'s. (Per-tensor activation scales would need a reduction
//! over the whole activation before the GEMM; per-row ones are
//! `_scaled_mm`'s "rowwise" form and follow outliers more closely.)

use aic::interp::{Tensor, attr_of_tensor, tensor_of_attr};
use aic::ir::{Builder, Context, Op, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic::{Diagnostic, float::FloatKind};
use aic_dialects::graph;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "quantize",
    name: "Quantize",
    summary: "Quantize the constant weights of graph matrix products to int8 with per-channel scales (dequantized in the product's prologue), or weights and activations (per row, at run time) into an int8 product",
    anchor: None,
    options: &[
        OptSpec {
            name: "mode",
            kind: OptKind::Enum(&["int8-weight", "int8-dynamic", "fp8"]),
            default: "int8-weight",
            range: None,
            help: "int8-weight: weight-only int8, one scale per output channel; int8-dynamic: also the activations per row at run time, an i8 x i8 -> i32 product; fp8: an e4m3 weight with one scale per tensor, e4m3 activations with per-row scales at run time, an fp8 x fp8 -> f32 product",
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
            mode: match o.str("mode") {
                "int8-dynamic" => Mode::Int8Dynamic,
                "fp8" => Mode::Fp8,
                _ => Mode::Int8Weight,
            },
            min_elements: o.int("min-elements") as usize,
            report: o.bool("report"),
        })
    },
};

/// What `quantize` makes of a product (its `mode`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// The weight in int8, dequantized before a float product.
    Int8Weight,
    /// Weight and activation in int8, an integer product.
    Int8Dynamic,
    /// Weight (per tensor) and activation (per row) in `f8E4M3FN`, an
    /// fp8 x fp8 -> f32 product.
    Fp8,
}

impl Mode {
    /// Whether the activation is quantized at run time too.
    fn dynamic(self) -> bool {
        self != Mode::Int8Weight
    }
}

/// The largest finite `f8E4M3FN` (the fp8 scheme's levels: -448..448).
pub const E4M3_MAX: f64 = 448.0;

/// Per-tensor `f8E4M3FN` of `w`: the scale `amax / 448` (1 for an
/// all-zero weight) rounded to f32, the values `w / scale` rounded to
/// nearest even (saturated to +-448), and the largest absolute error of
/// `q * scale`; `None` if an element is NaN or infinite.
pub fn quantize_fp8_per_tensor(w: &[f64]) -> Option<(Vec<f64>, f64, f64)> {
    if w.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let amax = w.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let scale = if amax > 0.0 {
        f64::from((amax / E4M3_MAX) as f32)
    } else {
        1.0
    };
    let k = FloatKind::F8E4M3FN;
    let mut err = 0.0f64;
    let q = w
        .iter()
        .map(|x| {
            let q = k.to_f64(k.from_f64((x / scale).clamp(-E4M3_MAX, E4M3_MAX)));
            err = err.max((q * scale - x).abs());
            q
        })
        .collect();
    Some((q, scale, err))
}

struct Quantize {
    mode: Mode,
    min_elements: usize,
    report: bool,
}

/// Activation scales are at least this over 127 (torchao's clamp), so an
/// all-zero row quantizes to zeros.
pub const ACTIVATION_EPS: f64 = 1e-5;

/// The largest int8 level of the symmetric schemes (-127..127).
const LEVELS: f64 = 127.0;

/// A matmul's weight, quantized per output channel.
struct Quantized {
    /// The i8 constant (the weight's shape) and the per-channel scales.
    q: Value,
    scales: Value,
    /// The channel axis of the weight (0: rows, under `transpose_b`).
    axis: usize,
    /// Whether `q` is stored `[N, K]` though the weight was `[K, N]` (the
    /// dynamic schemes': their product then reads it under `transpose_b`).
    transposed: bool,
    /// The weight's float type (tensor) and element kind.
    ty: Type,
    kind: FloatKind,
    /// `[rows, cols]`, the channels, the largest error and the largest |w|.
    shape: (usize, usize),
    channels: usize,
    err: f64,
    amax: f64,
}

/// A splat constant of tensor type `ty` holding `v`.
fn splat(b: &mut Builder<'_>, ty: Type, v: f64) -> Value {
    let u = b.ctx.uniquer().clone();
    let elem = u.type_kind(ty).element_type().unwrap_or(ty);
    let one = u.ty(TypeKind::Tensor {
        shape: Default::default(),
        elem,
        encoding: None,
    });
    let t = Tensor::from_f64s(&u, one, [v]);
    let bytes = match u.attr_kind(attr_of_tensor(&u, &t)) {
        aic::attributes::AttrKind::DenseElements {
            data: aic::attributes::DenseData::Raw { bytes, .. },
            ..
        } => bytes.clone(),
        _ => unreachable!("a dense attribute of numbers"),
    };
    let value = aic_dialects::graph::fold::splat(&u, ty, &bytes);
    graph::Constant::build(b, value, ty).result(b.ctx)
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
    /// The weight of `mm` quantized, if it qualifies: its i8 constant and
    /// scales are built before `mm` (nothing reads them yet).
    fn quantize_weight(
        &self,
        ctx: &mut Context,
        mm: graph::Matmul,
    ) -> Result<Option<Quantized>, Diagnostic> {
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
        if rows < 0 || cols < 0 {
            return Ok(None);
        }
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
        let w = t.to_f64s();
        let quantized = if self.mode == Mode::Fp8 {
            // One scale for the tensor, repeated per output channel so that
            // the epilogue is int8-dynamic's.
            let channels = if axis == 0 { rows } else { cols };
            quantize_fp8_per_tensor(&w).map(|(q, s, e)| (Levels::Fp8(q), vec![s; channels], e))
        } else {
            quantize_per_channel(&w, rows, cols, axis).map(|(q, s, e)| (Levels::Int(q), s, e))
        };
        let Some((q, scales, err)) = quantized else {
            return Err(aic::verifier::op_error(
                ctx,
                c.op(),
                "cannot quantize a weight holding NaN or infinity: it has no scale",
            ));
        };
        let loc = ctx.op(mm.op()).loc;
        // Dynamic products scale in f32 (see the module's comment).
        let scale_elem = match self.mode {
            Mode::Int8Weight => elem,
            Mode::Int8Dynamic | Mode::Fp8 => u.ty(TypeKind::Float(FloatKind::F32)),
        };
        // The integer and fp8 products read the weight K-major, `[N, K]`
        // under `transpose_b` (what cuBLASLt's and torch._scaled_mm's fp8
        // GEMMs and wgmma's 8-bit forms require: B's runs contiguous along
        // K): a `[K, N]` weight is stored transposed.
        let transposed = self.mode.dynamic() && axis == 1;
        let q = match q {
            Levels::Int(q) if transposed => Levels::Int(transpose(&q, rows, cols)),
            Levels::Fp8(q) if transposed => Levels::Fp8(transpose(&q, rows, cols)),
            q => q,
        };
        let qshape = if transposed {
            vec![shape[1], shape[0]]
        } else {
            shape.clone()
        };
        let (qty, qt) = match q {
            Levels::Int(q) => {
                let qty = u.tensor_type(&qshape, u.int_type(8));
                (qty, Tensor::from_i64s(&u, qty, q))
            }
            Levels::Fp8(q) => {
                let qty = u.tensor_type(&qshape, u.ty(TypeKind::Float(FloatKind::F8E4M3FN)));
                (qty, Tensor::from_f64s(&u, qty, q))
            }
        };
        let sty = u.tensor_type(&[scales.len() as i64], scale_elem);
        let qattr = attr_of_tensor(&u, &qt);
        let sattr = attr_of_tensor(&u, &Tensor::from_f64s(&u, sty, scales.iter().copied()));
        let mut b = Builder::before(ctx, mm.op());
        b.loc = loc;
        let qc = graph::Constant::build(&mut b, qattr, qty).result(b.ctx);
        let sc = graph::Constant::build(&mut b, sattr, sty).result(b.ctx);
        Ok(Some(Quantized {
            q: qc,
            scales: sc,
            axis,
            transposed,
            ty,
            kind,
            shape: (rows, cols),
            channels: scales.len(),
            err,
            amax: w.iter().fold(0.0f64, |m, x| m.max(x.abs())),
        }))
    }

    /// Quantize the weight of `mm` (and with `int8-dynamic` its
    /// activation) if it qualifies; its report line.
    fn weight(&self, ctx: &mut Context, mm: graph::Matmul) -> Result<Option<String>, Diagnostic> {
        // A dynamic product needs its activation's shape.
        let lhs_shape = ctx
            .type_kind(ctx.value_type(mm.lhs(ctx)))
            .shape()
            .map(<[i64]>::to_vec);
        if self.mode.dynamic()
            && !lhs_shape.is_some_and(|s| s.len() >= 2 && s.iter().all(|d| *d >= 0))
        {
            return Ok(None);
        }
        let rhs = mm.rhs(ctx);
        let Some(qw) = self.quantize_weight(ctx, mm)? else {
            return Ok(None);
        };
        match self.mode {
            Mode::Int8Weight => int8_weight(ctx, mm, &qw),
            Mode::Int8Dynamic => dynamic(ctx, mm, &qw, Scheme::INT8),
            Mode::Fp8 => dynamic(ctx, mm, &qw, Scheme::FP8),
        }
        if ctx.uses(rhs).is_empty()
            && let Some(c) = graph::Constant::defining(ctx, rhs)
        {
            ctx.erase_op(c.op());
        }
        let (rows, cols) = qw.shape;
        let width = f64::from(qw.kind.bit_width()) / 8.0;
        let elems = (rows * cols) as f64;
        if self.mode == Mode::Fp8 {
            return Ok(Some(format!(
                "quantize: {rows}x{cols}x{} weight of a matmul to f8E4M3FN with one per-tensor scale, activations per row at run time, an fp8 product: {} bytes before, {} after; largest error {:.3e} ({:.3e} of the largest weight)",
                qw.kind.keyword(),
                elems * width,
                elems + 4.0,
                qw.err,
                if qw.amax > 0.0 { qw.err / qw.amax } else { 0.0 }
            )));
        }
        let scale_width = match self.mode {
            Mode::Int8Weight => width,
            Mode::Int8Dynamic | Mode::Fp8 => 4.0,
        };
        let what = match self.mode {
            Mode::Int8Weight => "",
            Mode::Int8Dynamic | Mode::Fp8 => ", activations per row at run time, an int8 product",
        };
        Ok(Some(format!(
            "quantize: {rows}x{cols}x{} weight of a matmul to int8 with {} per-channel scales{what}: {} bytes before, {} after; largest error {:.3e} ({:.3e} of the largest weight)",
            qw.kind.keyword(),
            qw.channels,
            elems * width,
            elems + qw.channels as f64 * scale_width,
            qw.err,
            if qw.amax > 0.0 { qw.err / qw.amax } else { 0.0 }
        )))
    }
}

/// The `cols x rows` transpose of row-major `rows x cols` values `v`.
fn transpose<T: Copy>(v: &[T], rows: usize, cols: usize) -> Vec<T> {
    (0..cols)
        .flat_map(|c| (0..rows).map(move |r| v[r * cols + c]))
        .collect()
}

/// `int8-weight`: `mm` reads `cast(q) * broadcast(scale)`.
fn int8_weight(ctx: &mut Context, mm: graph::Matmul, qw: &Quantized) {
    let u = ctx.uniquer().clone();
    let dims = u.i64_array(&[qw.axis as i64]);
    let loc = ctx.op(mm.op()).loc;
    let mut b = Builder::before(ctx, mm.op());
    b.loc = loc;
    let wf = graph::Cast::build(&mut b, qw.q, qw.ty).result(b.ctx);
    let sb = graph::Broadcast::build(&mut b, qw.scales, dims, qw.ty).result(b.ctx);
    let w = graph::Mul::build(&mut b, wf, sb, qw.ty).result(b.ctx);
    ctx.set_operand(mm.op(), 1, w);
}

/// A weight's quantized values: int8 levels or `f8E4M3FN` values.
enum Levels {
    Int(Vec<i64>),
    Fp8(Vec<f64>),
}

/// How a dynamic scheme quantizes its activation and multiplies.
#[derive(Clone, Copy)]
struct Scheme {
    /// The largest level (+-).
    levels: f64,
    /// Round to an integer (int8) before the cast; fp8's cast rounds.
    round: bool,
    /// Whether the quantized type is int8 (else `f8E4M3FN`, into f32).
    int: bool,
}

impl Scheme {
    const INT8: Scheme = Scheme {
        levels: LEVELS,
        round: true,
        int: true,
    };
    const FP8: Scheme = Scheme {
        levels: E4M3_MAX,
        round: false,
        int: false,
    };
}

/// `int8-dynamic` and `fp8`: `mm` becomes the product of its activation
/// quantized per row and the quantized weight (i8 into i32, or e4m3 into
/// f32), scaled back by both scales in f32 and cast to its float type;
/// its uses read that.
fn dynamic(ctx: &mut Context, mm: graph::Matmul, qw: &Quantized, scheme: Scheme) {
    let u = ctx.uniquer().clone();
    let f32 = u.ty(TypeKind::Float(FloatKind::F32));
    let (x, r) = (mm.lhs(ctx), mm.result(ctx));
    let (xt, rt) = (ctx.value_type(x), ctx.value_type(r));
    let xs = ctx
        .type_kind(xt)
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    let rs = ctx
        .type_kind(rt)
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    let rank = xs.len();
    let ta = mm.transpose_a(ctx).is_some();
    // The weight is `[N, K]`: given so, or stored transposed.
    let tb = mm.transpose_b(ctx).is_some() || qw.transposed;
    // The activation's contracted axis; its rows are the others.
    let kax = if ta { rank - 2 } else { rank - 1 };
    let rows: Vec<i64> = (0..rank as i64).filter(|d| *d != kax as i64).collect();
    let row_shape: Vec<i64> = rows.iter().map(|d| xs[*d as usize]).collect();
    let loc = ctx.op(mm.op()).loc;
    let mut b = Builder::before(ctx, mm.op());
    b.loc = loc;
    let x32t = u.tensor_type(&xs, f32);
    let x32 = if xt == x32t {
        x
    } else {
        graph::Cast::build(&mut b, x, x32t).result(b.ctx)
    };
    // s_row = max(max |x_row|, eps) / 127.
    let rowt = u.tensor_type(&row_shape, f32);
    let ax = graph::Abs::build(&mut b, x32, x32t).result(b.ctx);
    let kind = graph::ReduceKind::Max.attr(&u);
    let axes = u.i64_array(&[kax as i64]);
    let amax = graph::Reduce::build(&mut b, ax, kind, axes, None, rowt).result(b.ctx);
    let eps = splat(&mut b, rowt, ACTIVATION_EPS);
    let amax = graph::Max::build(&mut b, amax, eps, rowt).result(b.ctx);
    let levels = splat(&mut b, rowt, scheme.levels);
    let s_row = graph::Div::build(&mut b, amax, levels, rowt).result(b.ctx);
    // q = clamp(round_even(x / s_row), -127, 127) as i8, or
    // clamp(x / s_row, -448, 448) as f8E4M3FN (the cast rounds to even;
    // the clamp saturates, NaN stays NaN).
    let rows_attr = u.i64_array(&rows);
    let sx = graph::Broadcast::build(&mut b, s_row, rows_attr, x32t).result(b.ctx);
    let d = graph::Div::build(&mut b, x32, sx, x32t).result(b.ctx);
    let q = if scheme.round {
        graph::RoundEven::build(&mut b, d, x32t).result(b.ctx)
    } else {
        d
    };
    let lo = splat(&mut b, x32t, -scheme.levels);
    let hi = splat(&mut b, x32t, scheme.levels);
    let q = graph::Max::build(&mut b, q, lo, x32t).result(b.ctx);
    let q = graph::Min::build(&mut b, q, hi, x32t).result(b.ctx);
    let q_elem = if scheme.int {
        u.int_type(8)
    } else {
        u.ty(TypeKind::Float(FloatKind::F8E4M3FN))
    };
    let q = graph::Cast::build(&mut b, q, u.tensor_type(&xs, q_elem)).result(b.ctx);
    // The integer product, then cast(acc) * s_row * s_col.
    let unit = u.attr(aic::attributes::AttrKind::Unit);
    let acc_t = u.tensor_type(&rs, if scheme.int { u.int_type(32) } else { f32 });
    let acc = graph::Matmul::build(
        &mut b,
        q,
        qw.q,
        ta.then_some(unit),
        tb.then_some(unit),
        acc_t,
    )
    .result(b.ctx);
    let r32t = u.tensor_type(&rs, f32);
    let accf = if acc_t == r32t {
        acc
    } else {
        graph::Cast::build(&mut b, acc, r32t).result(b.ctx)
    };
    let out_rows: Vec<i64> = (0..rs.len() as i64 - 1).collect();
    let out_rows = u.i64_array(&out_rows);
    let sr = graph::Broadcast::build(&mut b, s_row, out_rows, r32t).result(b.ctx);
    let col = u.i64_array(&[rs.len() as i64 - 1]);
    let sc = graph::Broadcast::build(&mut b, qw.scales, col, r32t).result(b.ctx);
    let y = graph::Mul::build(&mut b, accf, sr, r32t).result(b.ctx);
    let y = graph::Mul::build(&mut b, y, sc, r32t).result(b.ctx);
    let y = if rt == r32t {
        y
    } else {
        graph::Cast::build(&mut b, y, rt).result(b.ctx)
    };
    ctx.replace_all_uses(r, y);
    ctx.erase_op(mm.op());
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

    #[test]
    fn fp8_per_tensor_scale_saturates_and_rounds_to_even() {
        // amax 896: scale 2; 896 / 2 = 448 (the largest e4m3), 17 / 2 = 8.5
        // lies between the levels 8 and 9: ties to the even mantissa, 8.
        let (q, s, err) = quantize_fp8_per_tensor(&[896.0, -17.0, 0.0, 0.3]).expect("finite");
        assert_eq!(s, 2.0);
        assert_eq!(q[..3], [448.0, -8.0, 0.0]);
        // 0.15 -> the nearest e4m3 (0.15625 = 5 / 32).
        assert_eq!(q[3], 0.15625);
        assert!((err - 1.0).abs() < 1e-12, "{err}");
        // Every value is an e4m3 level.
        let k = FloatKind::F8E4M3FN;
        assert!(q.iter().all(|v| k.to_f64(k.from_f64(*v)) == *v));
        // An all-zero weight has scale 1; NaN and infinity none.
        assert_eq!(quantize_fp8_per_tensor(&[0.0, 0.0]).unwrap().1, 1.0);
        assert!(quantize_fp8_per_tensor(&[1.0, f64::NAN]).is_none());
        assert!(quantize_fp8_per_tensor(&[f64::NEG_INFINITY]).is_none());
    }
}
