//! StableHLO's dynamic ops: `dynamic_iota`, `dynamic_reshape`,
//! `dynamic_broadcast_in_dim`, `dynamic_pad`, `dynamic_gather`,
//! `dynamic_conv` and `real_dynamic_slice`, each its static namesake with one
//! attribute (the output shape, the padding, the slice sizes, the slice's
//! bounds) given as a tensor operand instead.
//!
//! Their interpreter semantics read that operand at run time and reuse the
//! static op's kernel; where the result type has `?` dimensions the runtime
//! shape fills them, and a static dimension must agree with it. Compilation
//! of dynamic shapes is another matter: `stablehlo-to-graph` lowers
//! `dynamic_iota`, `dynamic_reshape` and `dynamic_broadcast_in_dim` only where
//! every shape is static (they are then their static namesakes); the rest
//! stay interpreted.

use super::attrs::{ConvDims, GatherDims};
use super::interp::{convolution_padded, gather_sized, pad_by};
use super::verify::{R, shape};
use super::{ANY_ATTR, BOOL_ARRAY, INT_TENSOR, TENSOR, op};
use crate::kernels::{broadcast_onto, check_shape, count, result_elem, shaped};
use aic::constraints::{BOOL_ATTR, I64_ARRAY, I64_ATTR};
use aic::dialect::{Dialect, OpSpec};
use aic::interp::{Data, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Value};
use aic::types::DYNAMIC;
use aic::verifier::op_error;

type Res = IResult<Vec<Tensor>>;

const FN_TYPE: &str = "operands attr-dict `:` functional-type(operands, results)";

aic::op! {
    /// `stablehlo.dynamic_iota %shape, dim = d : (tensor<Nxi64>) -> tensor<...>`.
    pub DynamicIota = DYNAMIC_IOTA {
        operands: [output_shape: one(INT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [iota_dimension: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some("$output_shape `,` `dim` `=` $iota_dimension attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify_dynamic_iota),
            interpret: Some(dynamic_iota),
            ..op("stablehlo.dynamic_iota", "DynamicIota operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_reshape %x, %shape : (...) -> ...`.
    pub DynamicReshape = DYNAMIC_RESHAPE {
        operands: [operand: one(TENSOR), output_shape: one(INT_TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some(FN_TYPE),
            verify: Some(verify_dynamic_reshape),
            interpret: Some(dynamic_reshape),
            ..op("stablehlo.dynamic_reshape", "DynamicReshape operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [...] : (...) -> ...`.
    pub DynamicBroadcastInDim = DYNAMIC_BROADCAST_IN_DIM {
        operands: [operand: one(TENSOR), output_dimensions: one(INT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            broadcast_dimensions: required(I64_ARRAY) as Vec<i64>,
            known_expanding_dimensions: optional(I64_ARRAY) as Vec<i64>,
            known_nonexpanding_dimensions: optional(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            format: Some("$operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify_dynamic_broadcast_in_dim),
            interpret: Some(dynamic_broadcast_in_dim),
            ..op("stablehlo.dynamic_broadcast_in_dim", "DynamicBroadcastInDim operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_pad %x, %value, %low, %high, %interior : (...) -> ...`.
    pub DynamicPad = DYNAMIC_PAD {
        operands: [
            operand: one(TENSOR),
            padding_value: one(TENSOR),
            edge_padding_low: one(INT_TENSOR),
            edge_padding_high: one(INT_TENSOR),
            interior_padding: one(INT_TENSOR),
        ],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some(FN_TYPE),
            verify: Some(verify_dynamic_pad),
            interpret: Some(dynamic_pad),
            ..op("stablehlo.dynamic_pad", "DynamicPad operation")
        },
    }
}

aic::op! {
    /// `stablehlo.real_dynamic_slice`: `slice` with its start and limit
    /// indices and strides operands (what `jnp.split` of a symbolic shape
    /// exports).
    pub RealDynamicSlice = REAL_DYNAMIC_SLICE {
        operands: [
            operand: one(TENSOR),
            start_indices: one(INT_TENSOR),
            limit_indices: one(INT_TENSOR),
            strides: one(INT_TENSOR),
        ],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some(FN_TYPE),
            verify: Some(verify_real_dynamic_slice),
            interpret: Some(real_dynamic_slice),
            ..op("stablehlo.real_dynamic_slice", "RealDynamicSlice operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_gather`: `gather` with its slice sizes an operand
    /// (generic syntax, as stablehlo-opt prints it).
    pub DynamicGather = DYNAMIC_GATHER {
        operands: [operand: one(TENSOR), start_indices: one(INT_TENSOR), slice_sizes: one(INT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            dimension_numbers: required(GatherDims::CONSTRAINT),
            indices_are_sorted: optional(BOOL_ATTR),
        ],
        spec: OpSpec {
            verify: Some(verify_dynamic_gather),
            interpret: Some(dynamic_gather),
            ..op("stablehlo.dynamic_gather", "DynamicGather operation")
        },
    }
}

aic::op! {
    /// `stablehlo.dynamic_conv`: `convolution` with its padding an operand
    /// (`tensor<Sx2xi64>`; generic syntax).
    pub DynamicConv = DYNAMIC_CONV {
        operands: [lhs: one(TENSOR), rhs: one(TENSOR), padding: one(INT_TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            window_strides: optional(I64_ARRAY) as Vec<i64>,
            lhs_dilation: optional(I64_ARRAY) as Vec<i64>,
            rhs_dilation: optional(I64_ARRAY) as Vec<i64>,
            window_reversal: optional(BOOL_ARRAY),
            dimension_numbers: required(ConvDims::CONSTRAINT),
            feature_group_count: required(I64_ATTR) as i64,
            batch_group_count: required(I64_ATTR) as i64,
            precision_config: optional(ANY_ATTR),
        ],
        spec: OpSpec {
            verify: Some(verify_dynamic_conv),
            interpret: Some(dynamic_conv),
            ..op("stablehlo.dynamic_conv", "DynamicConv operation")
        },
    }
}

// ---------------------------------------------------------------- verifiers

/// A shape operand: rank 1, and (when both are static) as many entries as
/// `rank`.
fn shape_operand(ctx: &Context, op: Op, v: Value, what: &str, rank: Option<usize>) -> R<()> {
    let Some(s) = shape(ctx, v) else {
        return Ok(());
    };
    if s.len() != 1 {
        return Err(op_error(
            ctx,
            op,
            format!("{what} must be a 1-D tensor, got rank {}", s.len()),
        ));
    }
    if let Some(r) = rank
        && s[0] != DYNAMIC
        && s[0] as usize != r
    {
        return Err(op_error(
            ctx,
            op,
            format!("{what} has {} entries, but the rank is {r}", s[0]),
        ));
    }
    Ok(())
}

fn rank(ctx: &Context, v: Value) -> Option<usize> {
    shape(ctx, v).map(|s| s.len())
}

fn verify_dynamic_iota(ctx: &Context, op: Op) -> R<()> {
    let i = DynamicIota(op);
    let r = rank(ctx, i.result(ctx));
    shape_operand(ctx, op, i.output_shape(ctx), "output_shape", r)?;
    let d = i.iota_dimension(ctx).unwrap_or(0);
    if let Some(r) = r
        && (d < 0 || d as usize >= r)
    {
        return Err(op_error(
            ctx,
            op,
            format!("iota_dimension {d} is out of range [0, {r}) (C1)"),
        ));
    }
    Ok(())
}

fn verify_dynamic_reshape(ctx: &Context, op: Op) -> R<()> {
    let d = DynamicReshape(op);
    let (x, y) = (d.operand(ctx), d.result(ctx));
    shape_operand(ctx, op, d.output_shape(ctx), "output_shape", rank(ctx, y))?;
    if let (Some(a), Some(b)) = (shape(ctx, x), shape(ctx, y))
        && !a.contains(&DYNAMIC)
        && !b.contains(&DYNAMIC)
        && count(&a) != count(&b)
    {
        return Err(op_error(
            ctx,
            op,
            format!("operand {a:?} and result {b:?} have different element counts (C2)"),
        ));
    }
    Ok(())
}

fn verify_dynamic_broadcast_in_dim(ctx: &Context, op: Op) -> R<()> {
    let b = DynamicBroadcastInDim(op);
    let (x, y) = (b.operand(ctx), b.result(ctx));
    shape_operand(
        ctx,
        op,
        b.output_dimensions(ctx),
        "output_dimensions",
        rank(ctx, y),
    )?;
    let dims = b.broadcast_dimensions(ctx).unwrap_or_default();
    let (Some(a), Some(r)) = (shape(ctx, x), shape(ctx, y)) else {
        return Ok(());
    };
    if dims.len() != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "broadcast_dimensions has {} entries, the operand's rank is {} (C2)",
                dims.len(),
                a.len()
            ),
        ));
    }
    for (k, d) in dims.iter().enumerate() {
        if *d < 0 || *d as usize >= r.len() {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "broadcast dimension {d} is out of range [0, {}) (C3)",
                    r.len()
                ),
            ));
        }
        let (s, t) = (a[k], r[*d as usize]);
        if s != DYNAMIC && t != DYNAMIC && s != 1 && s != t {
            return Err(op_error(
                ctx,
                op,
                format!("operand dimension {k} of size {s} cannot broadcast to size {t} (C5)"),
            ));
        }
    }
    Ok(())
}

/// That each of `indices` holds one index per dimension of `operand` and
/// that `result` has `operand`'s rank (a padding's or slice's operands).
fn per_dim_operands(
    ctx: &Context,
    op: Op,
    operand: Value,
    indices: [(Value, &str); 3],
    result: Value,
) -> R<()> {
    let r = rank(ctx, operand);
    for (v, what) in indices {
        shape_operand(ctx, op, v, what, r)?;
    }
    if let (Some(a), Some(b)) = (r, rank(ctx, result))
        && a != b
    {
        return Err(op_error(
            ctx,
            op,
            format!("operand rank {a} and result rank {b} differ"),
        ));
    }
    Ok(())
}

fn verify_dynamic_pad(ctx: &Context, op: Op) -> R<()> {
    let p = DynamicPad(op);
    per_dim_operands(
        ctx,
        op,
        p.operand(ctx),
        [
            (p.edge_padding_low(ctx), "edge_padding_low"),
            (p.edge_padding_high(ctx), "edge_padding_high"),
            (p.interior_padding(ctx), "interior_padding"),
        ],
        p.result(ctx),
    )?;
    if let Some(s) = shape(ctx, p.padding_value(ctx))
        && !s.is_empty()
    {
        return Err(op_error(ctx, op, "padding_value must be a 0-D tensor (C1)"));
    }
    Ok(())
}

fn verify_real_dynamic_slice(ctx: &Context, op: Op) -> R<()> {
    let d = RealDynamicSlice(op);
    per_dim_operands(
        ctx,
        op,
        d.operand(ctx),
        [
            (d.start_indices(ctx), "start_indices"),
            (d.limit_indices(ctx), "limit_indices"),
            (d.strides(ctx), "strides"),
        ],
        d.result(ctx),
    )
}

fn verify_dynamic_gather(ctx: &Context, op: Op) -> R<()> {
    let g = DynamicGather(op);
    shape_operand(
        ctx,
        op,
        g.slice_sizes(ctx),
        "slice_sizes",
        rank(ctx, g.operand(ctx)),
    )
}

fn verify_dynamic_conv(ctx: &Context, op: Op) -> R<()> {
    let c = DynamicConv(op);
    let spatial = rank(ctx, c.lhs(ctx)).map(|r| r.saturating_sub(2));
    if let Some(s) = shape(ctx, c.padding(ctx)) {
        let ok = s.len() == 2
            && (s[1] == DYNAMIC || s[1] == 2)
            && spatial.is_none_or(|n| s[0] == DYNAMIC || s[0] as usize == n);
        if !ok {
            return Err(op_error(
                ctx,
                op,
                format!("padding must be a tensor of [spatial dimensions, 2], got {s:?}"),
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- semantics

/// A shape operand's values, each a size.
fn sizes(op: Op, t: &Tensor, what: &str) -> IResult<Vec<i64>> {
    let v = t.to_i64s();
    if let Some(d) = v.iter().find(|d| **d < 0) {
        return Err(InterpError::at(
            op,
            format!("{what} holds a negative size {d}"),
        ));
    }
    Ok(v)
}

fn dynamic_iota(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let shape = sizes(op, &args[0], "output_shape")?;
    let d = DynamicIota(op).iota_dimension(ctx).unwrap_or(0).max(0) as usize;
    let e = result_elem(ctx, op, 0)?;
    check_shape(op, &shape, e, it.max_bytes)?;
    let n = count(&shape);
    let size = shape.get(d).map_or(1, |s| (*s).max(1) as usize);
    let stride = shape.get(d + 1..).map_or(1, count).max(1);
    let data = Data::from_fn(e, n, |i| ((i / stride) % size) as f64);
    Ok(vec![shaped(ctx, op, &shape, data)?])
}

fn dynamic_reshape(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let shape = sizes(op, &args[1], "output_shape")?;
    if count(&shape) != args[0].len() {
        return Err(InterpError::at(
            op,
            format!("cannot reshape {} elements to {shape:?}", args[0].len()),
        ));
    }
    Ok(vec![shaped(it.ctx, op, &shape, args[0].data.clone())?])
}

fn dynamic_broadcast_in_dim(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let shape = sizes(op, &args[1], "output_dimensions")?;
    let dims = DynamicBroadcastInDim(op)
        .broadcast_dimensions(ctx)
        .unwrap_or_default();
    let a = &args[0];
    check_shape(op, &shape, a.elem(ctx), it.max_bytes)?;
    if dims.len() != a.shape.len() {
        return Err(InterpError::at(
            op,
            "one broadcast dimension per operand dimension is needed",
        ));
    }
    for (k, d) in dims.iter().enumerate() {
        let t = usize::try_from(*d)
            .ok()
            .and_then(|d| shape.get(d))
            .copied()
            .unwrap_or(-1);
        if a.shape[k] != 1 && a.shape[k] != t {
            return Err(InterpError::at(
                op,
                format!(
                    "operand dimension {k} of size {} cannot broadcast to size {t}",
                    a.shape[k]
                ),
            ));
        }
    }
    Ok(vec![broadcast_onto(ctx, op, a, &dims, &shape)?])
}

fn dynamic_pad(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let (lo, hi, interior) = (args[2].to_i64s(), args[3].to_i64s(), args[4].to_i64s());
    pad_by(it.ctx, op, &args[..2], (&lo, &hi, &interior), it.max_bytes)
}

fn real_dynamic_slice(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let a = &args[0];
    let (start, limit, step) = (args[1].to_i64s(), args[2].to_i64s(), args[3].to_i64s());
    let r = a.shape.len();
    if start.len() != r || limit.len() != r || step.len() != r {
        return Err(InterpError::at(
            op,
            "start, limit and strides need one index per operand dimension",
        ));
    }
    let mut shape = Vec::with_capacity(r);
    for k in 0..r {
        let (s, l, t) = (start[k], limit[k], step[k]);
        if t <= 0 || s < 0 || l < s || l > a.shape[k] {
            return Err(InterpError::at(
                op,
                format!(
                    "dimension {k}: start {s}, limit {l} and stride {t} do not slice a dimension of {}",
                    a.shape[k]
                ),
            ));
        }
        shape.push((l - s + t - 1) / t);
    }
    let st = crate::kernels::strides(&a.shape);
    Ok(vec![crate::kernels::remap_to(
        it.ctx,
        op,
        &shape,
        a,
        None,
        |i| {
            Some(
                (0..i.len())
                    .map(|k| (start[k] + i[k] * step[k]) as usize * st[k])
                    .sum(),
            )
        },
    )?])
}

fn dynamic_gather(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let sizes = sizes(op, &args[2], "slice_sizes")?;
    if sizes.len() != args[0].shape.len() {
        return Err(InterpError::at(
            op,
            "slice_sizes must have one size per operand dimension",
        ));
    }
    gather_sized(it.ctx, op, &args[..2], &sizes)
}

fn dynamic_conv(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let padding = args[2].to_i64s();
    if padding.len() != 2 * args[0].shape.len().saturating_sub(2) {
        return Err(InterpError::at(
            op,
            "padding needs a [low, high] pair per spatial dimension",
        ));
    }
    convolution_padded(it.ctx, op, &args[..2], Some(padding))
}

/// StableHLO's dynamic ops.
pub const OPS: &[OpSpec] = &[
    DYNAMIC_IOTA,
    DYNAMIC_RESHAPE,
    DYNAMIC_BROADCAST_IN_DIM,
    DYNAMIC_PAD,
    DYNAMIC_GATHER,
    DYNAMIC_CONV,
    REAL_DYNAMIC_SLICE,
];

/// The `stablehlo` dialect's dynamic ops.
pub static DYNAMIC_OPS: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};
