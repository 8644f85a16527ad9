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
use aic::attributes::AttrKind;
use aic::dialect::{AttrSpec, Dialect, OpSpec, ValueSpec, tc};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::verifier::op_error;

use aic::constraints::{I64_ARRAY, VECTOR};

/// `vector.from_elements %a, %b, ... : vector<..>`: a vector of its
/// operands, in row-major order.
pub const FROM_ELEMENTS: OpSpec = OpSpec {
    summary: "a vector of scalars, in row-major order",
    operands: &[ValueSpec::variadic("elements", tc::ANY)],
    results: &[ValueSpec::one("result", VECTOR)],
    traits: aic::dialect::Traits::PURE,
    format: Some("$elements attr-dict `:` type($result)"),
    infer_operand: Some(|u, g, given| {
        // The groups: the elements, then the result.
        let v = given.get(1)?.as_ref()?.first()?;
        (g == 0).then(|| u.type_kind(*v).element_type()).flatten()
    }),
    verify: Some(verify),
    interpret: Some(interpret),
    ..OpSpec::new("vector.from_elements")
};

/// `vector.extract %v[i, j] : T from vector<..>`: one element.
pub const EXTRACT: OpSpec = OpSpec {
    summary: "one element of a vector, at static positions",
    operands: &[ValueSpec::one("source", VECTOR)],
    results: &[ValueSpec::one("result", tc::ANY)],
    attributes: &[AttrSpec::required("static_position", I64_ARRAY)],
    traits: aic::dialect::Traits::PURE,
    format: Some("$source `` $static_position attr-dict `:` type($result) `from` type($source)"),
    verify: Some(verify),
    interpret: Some(interpret),
    ..OpSpec::new("vector.extract")
};

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "vector",
    description: "vectors of registers: building one from scalars, extracting an element",
    ops: &[FROM_ELEMENTS, EXTRACT],
    materialize_constant: None,
};

/// The static positions of a `vector.extract`.
pub fn position(ctx: &Context, op: Op) -> Vec<i64> {
    let a = ctx
        .find_ident("static_position")
        .and_then(|i| ctx.inherent_attr(op, i));
    match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::DenseArray { values, .. }) => values.iter().map(|v| *v as i64).collect(),
        _ => Vec::new(),
    }
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

fn verify(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: String| op_error(ctx, op, m);
    match ctx.op_name(op) {
        "vector.from_elements" => {
            let ty = ctx.value_type(ctx.result(op, 0));
            let k = ctx.type_kind(ty);
            // A vector of more elements than an i64 counts has more than
            // any operand list.
            let n = k.shape().map_or(Ok(0), aic::shape::elements);
            let elem = k.element_type();
            if n != Ok(ctx.operands(op).len() as i64) {
                return Err(err(format!(
                    "has {} elements for a vector of {}",
                    ctx.operands(op).len(),
                    n.map_or_else(|_| aic::printer::type_text(ctx, ty), |n| n.to_string())
                )));
            }
            if ctx
                .operands(op)
                .iter()
                .any(|v| Some(ctx.value_type(*v)) != elem)
            {
                return Err(err("elements must have the vector's element type".into()));
            }
        }
        "vector.extract" => {
            let src = ctx.type_kind(ctx.value_type(ctx.operands(op)[0]));
            let shape = src.shape().unwrap_or(&[]).to_vec();
            let pos = position(ctx, op);
            if offset(&shape, &pos).is_none() {
                return Err(err(format!(
                    "position {pos:?} is not an element of a vector of shape {shape:?}"
                )));
            }
            if src.element_type() != Some(ctx.value_type(ctx.result(op, 0))) {
                return Err(err("the result must have the vector's element type".into()));
            }
        }
        _ => {}
    }
    Ok(())
}

fn interpret(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let ty = ctx.value_type(ctx.result(op, 0));
    match ctx.op_name(op) {
        "vector.from_elements" => {
            let e = Elem::of(&u, ty).unwrap_or(Elem::Index);
            let data = match e {
                Elem::Float(k) => Data::from_f64s(k, args.iter().flat_map(|a| a.to_f64s())),
                _ => Data::from_i64s(e, args.iter().flat_map(|a| a.to_i64s())),
            };
            Ok(vec![Tensor::new(&u, ty, data)])
        }
        "vector.extract" => {
            let at = offset(&args[0].shape, &position(ctx, op))
                .ok_or_else(|| InterpError::at(op, "position outside the vector"))?
                as usize;
            let data = match &args[0].data {
                d @ (Data::Int(_) | Data::Float(_)) => d.take([Some(at)].into_iter(), None),
                _ => return Err(InterpError::at(op, "unsupported element type")),
            };
            Ok(vec![Tensor::new(&u, ty, data)])
        }
        other => Err(InterpError::at(op, format!("no semantics for {other}"))),
    }
}
