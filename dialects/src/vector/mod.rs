//! The part of upstream MLIR's `vector` dialect that register fragments
//! need (the operands and results of `nvgpu` ops), in upstream syntax:
//!
//! ```mlir
//! %v = vector.from_elements %a, %b, %c, %d : vector<2x2xf32>
//! %x = vector.extract %v[1, 0] : f32 from vector<2x2xf32>
//! ```
//!
//! `vector.extract` takes static positions only (upstream also allows SSA
//! positions) and always extracts one element.

use aic::Diagnostic;
use aic::dialect::{Dialect, OpSpec, tc};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;
use aic::verifier::op_error;

use aic::constraints::{I64_ARRAY, VECTOR};

aic::op! {
    /// `vector.from_elements %a, %b, ... : vector<..>`: a vector of its
    /// operands, in row-major order.
    pub FromElements = FROM_ELEMENTS {
        operands: [elements: variadic(tc::ANY)],
        results: [result: one(VECTOR)],
        spec: OpSpec {
            summary: "a vector of scalars, in row-major order",
            traits: aic::dialect::Traits::PURE,
            format: Some("$elements attr-dict `:` type($result)"),
            infer_operand: Some(|u, g, given| {
                // The groups: the elements, then the result.
                let v = given.get(1)?.as_ref()?.first()?;
                (g == 0).then(|| u.type_kind(*v).element_type()).flatten()
            }),
            verify: Some(verify_from_elements),
            interpret: Some(interpret_from_elements),
            ..OpSpec::new("vector.from_elements")
        },
    }
}

aic::op! {
    /// `vector.extract %v[i, j] : T from vector<..>`: one element.
    pub Extract = EXTRACT {
        operands: [source: one(VECTOR)],
        results: [result: one(tc::ANY)],
        attributes: [static_position: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            summary: "one element of a vector, at static positions",
            traits: aic::dialect::Traits::PURE,
            format: Some("$source `` $static_position attr-dict `:` type($result) `from` type($source)"),
            verify: Some(verify_extract),
            interpret: Some(interpret_extract),
            ..OpSpec::new("vector.extract")
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "vector",
    description: "vectors of registers: building one from scalars, extracting an element",
    ops: &[FROM_ELEMENTS, EXTRACT],
    materialize_constant: None,
};

/// The static positions of a `vector.extract` (none for another op).
pub fn position(ctx: &Context, op: Op) -> Vec<i64> {
    Extract::of(ctx, op)
        .and_then(|e| e.static_position(ctx))
        .unwrap_or_default()
}

/// The row-major offset of `pos` in `shape`, if inside.
pub fn offset(shape: &[i64], pos: &[i64]) -> Option<i64> {
    if pos.len() != shape.len() {
        return None;
    }
    let mut at = 0;
    for (p, s) in pos.iter().zip(shape) {
        if *p < 0 || p >= s {
            return None;
        }
        at = at * s + p;
    }
    Some(at)
}

/// `vector.from_elements`: one element per lane, of the vector's element type.
fn verify_from_elements(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let from = FromElements(op);
    let ty = ctx.value_type(from.result(ctx));
    let k = ctx.type_kind(ty);
    let elements = from.elements(ctx);
    // A vector of more elements than an i64 counts has more than
    // any operand list.
    let n = k.shape().map_or(Ok(0), aic::shape::elements);
    let elem = k.element_type();
    if n != Ok(elements.len() as i64) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "has {} elements for a vector of {}",
                elements.len(),
                n.map_or_else(|_| aic::printer::type_text(ctx, ty), |n| n.to_string())
            ),
        ));
    }
    if elements.iter().any(|v| Some(ctx.value_type(*v)) != elem) {
        return Err(op_error(
            ctx,
            op,
            "elements must have the vector's element type",
        ));
    }
    Ok(())
}

/// `vector.extract`: the position inside the vector, the result of its
/// element type.
fn verify_extract(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let extract = Extract(op);
    let src = ctx.type_kind(ctx.value_type(extract.source(ctx)));
    let shape = src.shape().unwrap_or(&[]).to_vec();
    let pos = extract.static_position(ctx).unwrap_or_default();
    if offset(&shape, &pos).is_none() {
        return Err(op_error(
            ctx,
            op,
            format!("position {pos:?} is not an element of a vector of shape {shape:?}"),
        ));
    }
    if src.element_type() != Some(ctx.value_type(extract.result(ctx))) {
        return Err(op_error(
            ctx,
            op,
            "the result must have the vector's element type",
        ));
    }
    Ok(())
}

/// `vector.from_elements`: the vector of the operands.
fn interpret_from_elements(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer();
    let ty = ctx.value_type(FromElements(op).result(ctx));
    let e = Elem::of(u, ty).unwrap_or(Elem::Index);
    let data = match e {
        Elem::Float(k) => Data::from_f64s(k, args.iter().flat_map(|a| a.to_f64s())),
        _ => Data::from_i64s(e, args.iter().flat_map(|a| a.to_i64s())),
    };
    Ok(vec![Tensor::new(u, ty, data)])
}

/// `vector.extract`: the element at the position.
fn interpret_extract(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let extract = Extract(op);
    let ty = ctx.value_type(extract.result(ctx));
    let pos = extract.static_position(ctx).unwrap_or_default();
    let at = offset(&args[0].shape, &pos)
        .ok_or_else(|| InterpError::at(op, "position outside the vector"))? as usize;
    let data = match &args[0].data {
        d @ (Data::Int(_) | Data::Float(_)) => d.take([Some(at)].into_iter(), None),
        _ => return Err(InterpError::at(op, "unsupported element type")),
    };
    Ok(vec![Tensor::new(ctx.uniquer(), ty, data)])
}
