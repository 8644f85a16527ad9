//! StableHLO's quantization ops, `uniform_quantize` and `uniform_dequantize`,
//! and the rule its other ops follow on quantized tensors (the spec's
//! `dequantize_op_quantize`): the elementwise ops compute on the values the
//! operands stand for and quantize the result to its type. Elements of a
//! quantized type are held as their storage integers
//! ([`crate::quant::UniformQuantized`]); data movement (reshape, transpose,
//! slices, bitcast_convert, ...) moves them as they are. Neither op lowers to
//! graph: they stay interpreted.

use super::verify::R;
use super::{TENSOR, op};
use crate::kernels::{result_elem, result_shape, shaped};
use crate::quant::UniformQuantized;
use aic::dialect::{Dialect, OpSpec};
use aic::float::FloatKind;
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;

type Res = IResult<Vec<Tensor>>;

aic::op! {
    /// `stablehlo.uniform_quantize`: floats (or values of another quantized
    /// type) to the result's quantized type.
    pub UniformQuantize = UNIFORM_QUANTIZE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("$operand attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify_uniform_quantize),
            interpret: Some(uniform_quantize),
            ..op("stablehlo.uniform_quantize", "UniformQuantize operation")
        },
    }
}

aic::op! {
    /// `stablehlo.uniform_dequantize`: quantized values to their expressed floats.
    pub UniformDequantize = UNIFORM_DEQUANTIZE {
        operands: [operand: one(TENSOR)],
        results: [result: one(TENSOR)],
        spec: OpSpec {
            format: Some("$operand attr-dict `:` functional-type(operands, results)"),
            verify: Some(verify_uniform_dequantize),
            interpret: Some(uniform_dequantize),
            ..op("stablehlo.uniform_dequantize", "UniformDequantize operation")
        },
    }
}

fn elem_kind(ctx: &Context, t: Type) -> &TypeKind {
    ctx.type_kind(ctx.type_kind(t).element_type().unwrap_or(t))
}

fn same_shape(ctx: &Context, op: Op) -> R<()> {
    let (a, b) = (
        ctx.value_type(ctx.operands(op)[0]),
        ctx.value_type(ctx.result(op, 0)),
    );
    if ctx.type_kind(a).shape() != ctx.type_kind(b).shape() {
        return Err(op_error(
            ctx,
            op,
            "operand and result must have one shape (C1)",
        ));
    }
    Ok(())
}

fn verify_uniform_quantize(ctx: &Context, op: Op) -> R<()> {
    same_shape(ctx, op)?;
    let (a, b) = (
        ctx.value_type(ctx.operands(op)[0]),
        ctx.value_type(ctx.result(op, 0)),
    );
    let ok_in =
        matches!(elem_kind(ctx, a), TypeKind::Float(_)) || UniformQuantized::of(ctx, a).is_some();
    if !ok_in || UniformQuantized::of(ctx, b).is_none() {
        return Err(op_error(
            ctx,
            op,
            "expects a float or quantized operand and a quantized result (C1)",
        ));
    }
    Ok(())
}

fn verify_uniform_dequantize(ctx: &Context, op: Op) -> R<()> {
    same_shape(ctx, op)?;
    let (a, b) = (
        ctx.value_type(ctx.operands(op)[0]),
        ctx.value_type(ctx.result(op, 0)),
    );
    let Some(q) = UniformQuantized::of(ctx, a) else {
        return Err(op_error(ctx, op, "expects a quantized operand (C1)"));
    };
    if ctx.type_kind(b).element_type() != Some(q.expressed) {
        return Err(op_error(
            ctx,
            op,
            "the result's element type must be the operand's expressed type (C2)",
        ));
    }
    Ok(())
}

/// The values the elements of `t` stand for: its floats, or its quantized
/// values dequantized; `None` for other element types.
pub(crate) fn values(ctx: &Context, t: &Tensor) -> Option<Vec<f64>> {
    match UniformQuantized::of(ctx, t.ty) {
        Some(q) => Some(q.dequantize(&t.shape, &t.to_i64s())),
        None => t.as_floats().map(|f| f.to_vec()),
    }
}

/// `values` (of `shape`) as result 0 of `op`: quantized to its type, or
/// rounded to its float type.
pub(crate) fn to_result(ctx: &Context, op: Op, shape: &[i64], values: &[f64]) -> IResult<Tensor> {
    let ty = ctx.value_type(ctx.result(op, 0));
    let e = result_elem(ctx, op, 0)?;
    let data = match UniformQuantized::of(ctx, ty) {
        Some(q) => Data::from_i64s(e, q.quantize(shape, values)),
        None => Data::from_f64s(e.float_kind(), values.iter().copied()),
    };
    shaped(ctx, op, shape, data)
}

/// Whether `op` has a quantized operand or result: then its elementwise
/// meaning is `dequantize_op_quantize`.
pub(crate) fn is_quantized(ctx: &Context, op: Op) -> bool {
    ctx.operands(op)
        .iter()
        .copied()
        .chain(ctx.results(op))
        .any(|v| UniformQuantized::of(ctx, ctx.value_type(v)).is_some())
}

/// An elementwise op on quantized tensors: `f` on the operands' values,
/// quantized to the result type.
pub(crate) fn dequantize_op_quantize(
    ctx: &Context,
    op: Op,
    args: &[Tensor],
    f: impl Fn(&[f64]) -> f64,
) -> Res {
    let vals: Vec<Vec<f64>> = args
        .iter()
        .map(|t| {
            values(ctx, t).ok_or_else(|| {
                InterpError::at(op, "quantized ops take quantized or float operands")
            })
        })
        .collect::<IResult<_>>()?;
    let n = args.first().map_or(0, Tensor::len);
    let mut x = vec![0.0; vals.len()];
    let out: Vec<f64> = (0..n)
        .map(|i| {
            for (k, v) in vals.iter().enumerate() {
                x[k] = v[i];
            }
            f(&x)
        })
        .collect();
    Ok(vec![to_result(ctx, op, &args[0].shape, &out)?])
}

/// A contraction (`dot_general`, `convolution`) with quantized operands or
/// result: the spec's `dequantize_op_quantize`, `f` computing on the
/// operands' values in f64 and the result quantized to its type (or rounded
/// to its float type, for a hybrid op with a float result).
pub(crate) fn dequantize_contract(
    ctx: &Context,
    op: Op,
    args: &[Tensor],
    f: impl Fn(&Tensor, &Tensor, Elem) -> Data,
) -> Res {
    let u = ctx.uniquer();
    let f64t = u.ty(TypeKind::Float(FloatKind::F64));
    let expressed = |t: &Tensor| -> IResult<Tensor> {
        let v = values(ctx, t)
            .ok_or_else(|| InterpError::at(op, "quantized ops take quantized or float operands"))?;
        let ty = u.ty(TypeKind::Tensor {
            shape: t.shape.iter().copied().collect(),
            elem: f64t,
            encoding: None,
        });
        Ok(Tensor::new(u, ty, Data::from_f64s(FloatKind::F64, v)))
    };
    let (a, b) = (expressed(&args[0])?, expressed(&args[1])?);
    let data = f(&a, &b, Elem::Float(FloatKind::F64));
    let vals: Vec<f64> = (0..data.len()).map(|i| data.f64_at(i)).collect();
    Ok(vec![to_result(ctx, op, &result_shape(ctx, op, 0)?, &vals)?])
}

fn uniform_quantize(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    let ctx = it.ctx;
    let v = values(ctx, &args[0])
        .ok_or_else(|| InterpError::at(op, "expects float or quantized elements"))?;
    Ok(vec![to_result(ctx, op, &args[0].shape, &v)?])
}

fn uniform_dequantize(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> Res {
    uniform_quantize(it, op, args)
}

/// StableHLO's quantization ops.
pub const OPS: &[OpSpec] = &[UNIFORM_QUANTIZE, UNIFORM_DEQUANTIZE];

/// The `stablehlo` dialect's quantization ops.
pub static QUANTIZATION: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};
