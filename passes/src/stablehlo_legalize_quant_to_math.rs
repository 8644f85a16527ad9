//! `stablehlo-legalize-quant-to-math` (upstream StableHLO's pass of that
//! name, aic's subset): StableHLO programs on `!quant.uniform` tensors, as
//! JAX and TF export them, become programs on their storage integers and
//! expressed floats, which `stablehlo-to-graph` then lowers like any other.
//!
//! - A quantized function argument or result becomes its storage tensor
//!   (`tensor<4x!quant.uniform<i8:f32, 0.5:-3>>` -> `tensor<4xi8>`): the
//!   same bytes, so callers pass what they passed before.
//! - `uniform_quantize x` becomes `clamp(round_nearest_even(x / scale +
//!   zero_point), min, max)` converted to the storage type;
//!   `uniform_dequantize q` becomes `(convert(q) - zero_point) * scale`;
//!   per-axis scales and zero points are a constant broadcast along the axis.
//! - Data movement (`reshape`, `transpose`, `broadcast_in_dim`, `slice`,
//!   `concatenate`) whose operands and result share one quantized type moves
//!   the storage integers.
//! - Any other op with quantized operands or results (`dot_general`,
//!   `convolution`, the elementwise ops; hybrid ones with float operands)
//!   is the spec's dequantize-op-quantize: its quantized operands
//!   dequantized, the op on the expressed floats, its quantized results
//!   quantized.
//!
//! What it cannot lower is an error at the op: unsigned storage, and
//! quantized values in ops with regions (`reduce`, `sort`, ...).

use aic::Diagnostic;
use aic::attributes::Attr;
use aic::interp::{Tensor, attr_of_tensor};
use aic::ir::{Builder, Context, Op, OpState, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::types::Type;
use aic::verifier::op_error;
use aic_dialects::quant::UniformQuantized;
use aic_dialects::{func, stablehlo as shlo};
use std::collections::HashMap;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "stablehlo-legalize-quant-to-math",
    name: "StablehloLegalizeQuantToMath",
    summary: "Lower StableHLO ops on !quant.uniform tensors to integer and float arithmetic on their storage and expressed types",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Box::new(Legalize),
};

struct Legalize;

/// The ops that only move elements: on one quantized type they move the
/// storage integers.
const MOVES: &[&aic::dialect::OpSpec] = &[
    &shlo::RESHAPE,
    &shlo::TRANSPOSE,
    &shlo::BROADCAST_IN_DIM,
    &shlo::SLICE,
    &shlo::CONCATENATE,
];

/// A quantized value's parameters and shape.
#[derive(Clone)]
struct Quant {
    q: UniformQuantized,
    shape: Vec<i64>,
}

/// `t`'s quantized element type and shape, if it is a tensor of one.
fn quant_of(ctx: &Context, t: Type) -> Option<Quant> {
    let q = UniformQuantized::of(ctx.uniquer(), t)?.clone();
    let shape = ctx.type_kind(t).shape()?.to_vec();
    Some(Quant { q, shape })
}

/// Builds the arithmetic before one op.
struct Emit<'a> {
    b: Builder<'a>,
}

impl Emit<'_> {
    fn op(
        &mut self,
        spec: &'static aic::dialect::OpSpec,
        operands: &[Value],
        attrs: &[(&str, Option<Attr>)],
        ty: Type,
    ) -> Value {
        let op = aic::op_def::build(&mut self.b, spec, &[operands], attrs, &[&[ty]]);
        self.b.ctx.result(op, 0)
    }

    /// `values` (one per index of the quantized axis, or one) as a float
    /// tensor of `shape` and element type `elem`.
    fn broadcast(&mut self, values: &[f64], axis: Option<i64>, shape: &[i64], elem: Type) -> Value {
        let u = self.b.ctx.uniquer().clone();
        let (cshape, dims): (Vec<i64>, Vec<i64>) = match axis {
            Some(a) if values.len() > 1 => (vec![values.len() as i64], vec![a]),
            _ => (Vec::new(), Vec::new()),
        };
        let vals: Vec<f64> = if cshape.is_empty() {
            values[..1].to_vec()
        } else {
            values.to_vec()
        };
        let cty = self.b.ctx.uniquer().tensor_type(&cshape, elem);
        let value = attr_of_tensor(&u, &Tensor::from_f64s(&u, cty, vals));
        let c = self.op(&shlo::CONSTANT, &[], &[("value", Some(value))], cty);
        let ty = self.b.ctx.uniquer().tensor_type(shape, elem);
        let dims = u.i64_array(&dims);
        self.op(
            &shlo::BROADCAST_IN_DIM,
            &[c],
            &[("broadcast_dimensions", Some(dims))],
            ty,
        )
    }

    fn scales(&mut self, q: &Quant) -> Value {
        let s: Vec<f64> = q.q.scales.iter().map(|b| f64::from_bits(*b)).collect();
        self.broadcast(&s, q.q.axis, &q.shape, q.q.expressed)
    }

    /// The zero points as floats, or `None` if all are zero.
    fn zero_points(&mut self, q: &Quant) -> Option<Value> {
        if q.q.zero_points.iter().all(|z| *z == 0) {
            return None;
        }
        let z: Vec<f64> = q.q.zero_points.iter().map(|z| *z as f64).collect();
        Some(self.broadcast(&z, q.q.axis, &q.shape, q.q.expressed))
    }

    /// `(convert(v) - zero_point) * scale`.
    fn dequantize(&mut self, v: Value, q: &Quant) -> Value {
        let fty = self.b.ctx.uniquer().tensor_type(&q.shape, q.q.expressed);
        let mut f = self.op(&shlo::CONVERT, &[v], &[], fty);
        if let Some(z) = self.zero_points(q) {
            f = self.op(&shlo::SUBTRACT, &[f, z], &[], fty);
        }
        let s = self.scales(q);
        self.op(&shlo::MULTIPLY, &[f, s], &[], fty)
    }

    /// `convert(clamp(round_nearest_even(x / scale + zero_point)))` of a
    /// float `x` (of `q`'s expressed type).
    fn quantize(&mut self, x: Value, q: &Quant) -> Value {
        let fty = self.b.ctx.uniquer().tensor_type(&q.shape, q.q.expressed);
        let x = if self.b.ctx.value_type(x) == fty {
            x
        } else {
            self.op(&shlo::CONVERT, &[x], &[], fty)
        };
        let s = self.scales(q);
        let mut y = self.op(&shlo::DIVIDE, &[x, s], &[], fty);
        if let Some(z) = self.zero_points(q) {
            y = self.op(&shlo::ADD, &[y, z], &[], fty);
        }
        y = self.op(&shlo::ROUND_NEAREST_EVEN, &[y], &[], fty);
        let lo = self.broadcast(&[q.q.range.0 as f64], None, &q.shape, q.q.expressed);
        let hi = self.broadcast(&[q.q.range.1 as f64], None, &q.shape, q.q.expressed);
        y = self.op(&shlo::MAXIMUM, &[y, lo], &[], fty);
        y = self.op(&shlo::MINIMUM, &[y, hi], &[], fty);
        let sty = self.b.ctx.uniquer().tensor_type(&q.shape, q.q.storage);
        self.op(&shlo::CONVERT, &[y], &[], sty)
    }
}

/// Lower the quantized values of function `f`.
fn legalize(ctx: &mut Context, f: Op) -> Result<bool, Diagnostic> {
    let Some(&body) = ctx.regions(f).first() else {
        return Ok(false);
    };
    let Some(entry) = ctx.entry_block(body) else {
        return Ok(false);
    };
    // The quantized parameters of values now held as storage integers.
    let mut held: HashMap<Value, Quant> = HashMap::new();
    let mut changed = false;
    let unsigned = |ctx: &Context, op: Op, q: &Quant| -> Result<(), Diagnostic> {
        if q.q.signed {
            Ok(())
        } else {
            Err(op_error(
                ctx,
                op,
                "unsigned quantized storage is not supported yet by stablehlo-legalize-quant-to-math",
            ))
        }
    };
    for a in ctx.block_args(entry).to_vec() {
        if let Some(q) = quant_of(ctx, ctx.value_type(a)) {
            unsigned(ctx, f, &q)?;
            let st = ctx.uniquer().tensor_type(&q.shape, q.q.storage);
            ctx.set_value_type(a, st);
            held.insert(a, q);
            changed = true;
        }
    }
    let ops: Vec<Op> = ctx.block_ops(entry).collect();
    for op in ops {
        let results: Vec<Value> = ctx.results(op).collect();
        let out_q: Vec<Option<Quant>> = results
            .iter()
            .map(|r| quant_of(ctx, ctx.value_type(*r)))
            .collect();
        let operands: Vec<Value> = ctx.operands(op).to_vec();
        let in_q: Vec<Option<Quant>> = operands.iter().map(|v| held.get(v).cloned()).collect();
        if out_q.iter().all(Option::is_none) && in_q.iter().all(Option::is_none) {
            // Quantized values inside regions are not lowered.
            let mut nested = None;
            if !ctx.regions(op).is_empty() {
                ctx.walk(op, WalkOrder::PreOrder, &mut |_, o| {
                    if nested.is_none()
                        && o != op
                        && ctx
                            .results(o)
                            .any(|v| quant_of(ctx, ctx.value_type(v)).is_some())
                    {
                        nested = Some(o);
                    }
                });
            }
            if let Some(o) = nested {
                return Err(op_error(
                    ctx,
                    o,
                    "quantized values in regions are not supported yet by stablehlo-legalize-quant-to-math",
                ));
            }
            continue;
        }
        if func::Return::is(ctx, op) {
            continue;
        }
        for q in out_q.iter().chain(&in_q).flatten() {
            unsigned(ctx, op, q)?;
        }
        changed = true;
        // Moves of one quantized type move the storage integers.
        let all_q: Vec<&Quant> = out_q.iter().chain(&in_q).flatten().collect();
        let name = ctx.op_name(op);
        if MOVES.iter().any(|s| s.name == name)
            && in_q.iter().all(Option::is_some)
            && out_q.iter().all(Option::is_some)
            && all_q.windows(2).all(|w| w[0].q == w[1].q)
        {
            for (r, q) in results.iter().zip(out_q) {
                let q = q.expect("checked");
                let st = ctx.uniquer().tensor_type(&q.shape, q.q.storage);
                ctx.set_value_type(*r, st);
                held.insert(*r, q);
            }
            continue;
        }
        if !ctx.regions(op).is_empty() {
            return Err(op_error(
                ctx,
                op,
                "quantized values in ops with regions are not supported yet by stablehlo-legalize-quant-to-math",
            ));
        }
        let loc = ctx.op(op).loc;
        let mut e = Emit {
            b: Builder::before(ctx, op),
        };
        e.b.loc = loc;
        let new: Vec<Value> = if shlo::quantize::UniformQuantize::is(e.b.ctx, op) {
            let x = match &in_q[0] {
                Some(q) => e.dequantize(operands[0], q),
                None => operands[0],
            };
            vec![e.quantize(x, out_q[0].as_ref().expect("a quantized result (verified)"))]
        } else if shlo::quantize::UniformDequantize::is(e.b.ctx, op) {
            vec![e.dequantize(
                operands[0],
                in_q[0].as_ref().expect("a quantized operand (verified)"),
            )]
        } else {
            // dequantize-op-quantize.
            let args: Vec<Value> = operands
                .iter()
                .zip(&in_q)
                .map(|(v, q)| match q {
                    Some(q) => e.dequantize(*v, q),
                    None => *v,
                })
                .collect();
            let types: Vec<Type> = results
                .iter()
                .zip(&out_q)
                .map(|(r, q)| match q {
                    Some(q) => e.b.ctx.uniquer().tensor_type(&q.shape, q.q.expressed),
                    None => e.b.ctx.value_type(*r),
                })
                .collect();
            let d = e.b.ctx.op(op);
            let mut st = OpState::new(d.name, loc);
            st.props = d.props;
            st.attrs = d.attrs.clone();
            st.operands.extend(args);
            st.result_types.extend(types);
            let clone = e.b.ctx.create_op(st);
            e.b.ctx.insert_op(aic::ir::InsertPoint::Before(op), clone);
            let outs: Vec<Value> = e.b.ctx.results(clone).collect();
            outs.iter()
                .zip(&out_q)
                .map(|(v, q)| match q {
                    Some(q) => e.quantize(*v, q),
                    None => *v,
                })
                .collect()
        };
        for ((old, new), q) in results.iter().zip(&new).zip(&out_q) {
            ctx.replace_all_uses(*old, *new);
            if let Some(q) = q {
                held.insert(*new, q.clone());
            }
        }
        ctx.erase_op(op);
    }
    if changed {
        // The signature: the entry block's argument types and the returned
        // values' types.
        let ins: Vec<Type> = ctx
            .block_args(entry)
            .iter()
            .map(|a| ctx.value_type(*a))
            .collect();
        let outs: Vec<Type> = ctx
            .block_ops(entry)
            .filter(|o| func::Return::is(ctx, *o))
            .last()
            .map(|r| ctx.operands(r).iter().map(|v| ctx.value_type(*v)).collect())
            .unwrap_or_default();
        let u = ctx.uniquer().clone();
        let fty = u.function_type(&ins, &outs);
        let name = u.ident("function_type");
        ctx.set_inherent_attr(f, name, u.attr(aic::AttrKind::Type(fty)));
    }
    Ok(changed)
}

impl Pass for Legalize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut funcs = Vec::new();
        ctx.walk(root, WalkOrder::PreOrder, &mut |_, op| {
            if func::Func::is(ctx, op) {
                funcs.push(op);
            }
        });
        let mut changed = false;
        for f in funcs {
            changed |= legalize(ctx, f)?;
        }
        Ok(changed)
    }
}
