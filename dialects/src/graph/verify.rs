//! The graph ops' verifier and type inference: each op's result type follows
//! from its operands and attributes by the shape rule of its row in
//! [`super::SEMANTICS`] ([`infer`]); the verifier reports a result that does
//! not match the way MLIR's type inference does, and any malformed attribute
//! by name.

use super::shapes::{Query, Shapes};
use super::{
    BatchMatmul, CAST, COMPARE, CONSTANT, Cast, Compare, DynamicSlice, DynamicUpdateSlice, Gather,
    IOTA, Matmul, SELECT, Scatter, Select, Sort, SparseMatmul,
};
use crate::stablehlo::verify::{dims_compatible, elem, shape};
use aic::Diagnostic;
use aic::constraints::op_attr as attr;
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic::verifier::{op_error, quoted_type};

type R<T> = Result<T, Diagnostic>;

/// `axis` normalised against `rank` (negative counts from the end).
pub fn norm_axis(axis: i64, rank: usize) -> Option<usize> {
    let a = if axis < 0 { axis + rank as i64 } else { axis };
    (0..rank as i64).contains(&a).then_some(a as usize)
}

/// The result shapes of `op`, or why its operands and attributes are wrong.
/// `None` where an operand is unranked.
pub fn infer(ctx: &Context, op: Op) -> Shapes {
    let Some(sem) = super::semantics(ctx.op_name(op)) else {
        return Ok(None);
    };
    let ops = ctx.operands(op);
    let shapes: Vec<Vec<i64>> = match ops.iter().map(|v| shape(ctx, *v)).collect() {
        Some(s) => s,
        None => return Ok(None),
    };
    let lookup = |n: &str| attr(ctx, op, n);
    let q = Query {
        u: ctx.uniquer(),
        attr: &lookup,
        results: ctx.results(op).map(|v| shape(ctx, v)).collect(),
    };
    (sem.shapes)(&q, &shapes)
}

/// Where the integer index operands of `op` begin, if it reads indices
/// (the dynamic slices' starts, a gather's indices).
fn indexed_from(ctx: &Context, op: Op) -> Option<usize> {
    if DynamicSlice::is(ctx, op) || Gather::is(ctx, op) {
        Some(1)
    } else if DynamicUpdateSlice::is(ctx, op) {
        Some(2)
    } else {
        None
    }
}

/// The graph ops' verifier: the result types against the op's shape rule,
/// and the element types.
pub fn verify(ctx: &Context, op: Op) -> R<()> {
    let inferred = infer(ctx, op).map_err(|m| op_error(ctx, op, m))?;
    if let Some(shapes) = inferred {
        for (i, (r, s)) in ctx.results(op).zip(&shapes).enumerate() {
            let rt = ctx.value_type(r);
            let Some(actual) = ctx.type_kind(rt).shape() else {
                continue;
            };
            if !dims_compatible(actual, s) {
                let t = ctx.uniquer().ty(TypeKind::Tensor {
                    shape: s.iter().copied().collect(),
                    elem: elem(ctx, rt),
                    encoding: None,
                });
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "inferred type {} of result #{i} is incompatible with its type {}",
                        quoted_type(ctx, t),
                        quoted_type(ctx, rt)
                    ),
                ));
            }
        }
    }
    // Every op but `cast` keeps the element type of its first operand;
    // `compare` gives `i1`, and `select` chooses by an `i1` predicate.
    let ops = ctx.operands(op);
    let (same, i1): (Vec<Value>, Vec<Value>) = if Cast::is(ctx, op) {
        (Vec::new(), Vec::new())
    } else if Compare::is(ctx, op) {
        (ops.to_vec(), ctx.results(op).collect())
    } else if Select::is(ctx, op) {
        (
            ops[1..].iter().copied().chain(ctx.results(op)).collect(),
            ops[..1].to_vec(),
        )
    } else if Sort::is(ctx, op) {
        // Each result has its operand's type.
        for (i, (o, r)) in ops.iter().zip(ctx.results(op)).enumerate() {
            if elem(ctx, ctx.value_type(*o)) != elem(ctx, ctx.value_type(r)) {
                return Err(op_error(
                    ctx,
                    op,
                    format!("result #{i} must have the element type of operand #{i}"),
                ));
            }
        }
        if ops.len() != ctx.num_results(op) {
            return Err(op_error(ctx, op, "needs one result per operand"));
        }
        (Vec::new(), Vec::new())
    } else if Scatter::is(ctx, op) {
        if !matches!(
            ctx.type_kind(elem(ctx, ctx.value_type(ops[1]))),
            TypeKind::Integer { .. }
        ) {
            return Err(op_error(ctx, op, "requires integer indices"));
        }
        (
            [ops[0], ops[2]]
                .into_iter()
                .chain(ctx.results(op))
                .collect(),
            Vec::new(),
        )
    } else if SparseMatmul::is(ctx, op) {
        // Floats of one type for the lhs, values and result; i8 metadata.
        let i8t = ctx.uniquer().int_type(8);
        if elem(ctx, ctx.value_type(ops[2])) != i8t {
            return Err(op_error(ctx, op, "requires i8 metadata"));
        }
        let e = elem(ctx, ctx.value_type(ops[0]));
        if !matches!(ctx.type_kind(e), TypeKind::Float(_)) {
            return Err(op_error(ctx, op, "requires floating-point operands"));
        }
        (vec![ops[0], ops[1], ctx.result(op, 0)], Vec::new())
    } else if Matmul::is(ctx, op) || BatchMatmul::is(ctx, op) {
        // Operands of one element type; the result of it, or of the
        // widened type of `widened_product` (i8 x i8 -> i32, fp8 -> f32).
        let (l, r) = (
            elem(ctx, ctx.value_type(ops[0])),
            elem(ctx, ctx.value_type(ops[1])),
        );
        let res = elem(ctx, ctx.value_type(ctx.result(op, 0)));
        if l != r {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "requires operands of one element type, but got {} and {}",
                    quoted_type(ctx, l),
                    quoted_type(ctx, r)
                ),
            ));
        }
        if res != l && super::widened_product(ctx.uniquer(), l) != Some(res) {
            let wide = super::widened_product(ctx.uniquer(), l)
                .map(|w| format!(" or {}", quoted_type(ctx, w)))
                .unwrap_or_default();
            return Err(op_error(
                ctx,
                op,
                format!(
                    "result element type {} must be the operands' {}{wide}",
                    quoted_type(ctx, res),
                    quoted_type(ctx, l)
                ),
            ));
        }
        (Vec::new(), Vec::new())
    } else if let Some(n) = indexed_from(ctx, op) {
        // Indices are integers of any width.
        if ops[n..].iter().any(|v| {
            !matches!(
                ctx.type_kind(elem(ctx, ctx.value_type(*v))),
                TypeKind::Integer { .. }
            )
        }) {
            return Err(op_error(ctx, op, "requires integer indices"));
        }
        (
            ops[..n].iter().copied().chain(ctx.results(op)).collect(),
            Vec::new(),
        )
    } else {
        (
            ops.iter().copied().chain(ctx.results(op)).collect(),
            Vec::new(),
        )
    };
    if let Some(first) = same.first() {
        let e = elem(ctx, ctx.value_type(*first));
        if same.iter().any(|v| elem(ctx, ctx.value_type(*v)) != e) {
            return Err(op_error(
                ctx,
                op,
                "requires the same element type for all operands and results",
            ));
        }
    }
    let bool_ty = ctx.uniquer().int_type(1);
    if i1.iter().any(|v| elem(ctx, ctx.value_type(*v)) != bool_ty) {
        return Err(op_error(ctx, op, "requires an i1 predicate"));
    }
    Ok(())
}

/// The type of a graph e-node (see `aic::eqsat::InferFn`): the op's result
/// type from its properties and operand types, where it follows from them.
/// Other dialects' ops and the graph ops whose result shape is not a function
/// of their operands (`reshape`, `broadcast`, `split`, `cast`) give `None`.
pub fn infer_type(
    u: &aic::ir::Uniquer,
    op: &str,
    props: Option<aic::attributes::Attr>,
    operands: &[Type],
) -> Option<Type> {
    let sem = super::semantics(op)?;
    let lookup = |n: &str| -> Option<aic::attributes::Attr> {
        let p = props?;
        u.dict_entries(p)
            .iter()
            .find(|(k, _)| u.str(*k) == n)
            .map(|(_, v)| *v)
    };
    if sem.spec.name == CONSTANT.name {
        let attrs = props
            .map(|p| u.dict_entries(p).to_vec())
            .unwrap_or_default();
        return (CONSTANT.infer_results?)(u, operands, &attrs)?
            .first()
            .copied();
    }
    // A cast's and an iota's result type is not a function of their operands,
    // nor a product's whose operands may widen (i8 x i8 -> i8 or i32).
    if sem.spec.name == CAST.name || sem.spec.name == IOTA.name {
        return None;
    }
    if (sem.spec.name == super::MATMUL.name || sem.spec.name == super::BATCH_MATMUL.name)
        && operands
            .first()
            .and_then(|t| u.type_kind(*t).element_type())
            .is_some_and(|e| super::widened_product(u, e).is_some())
    {
        return None;
    }
    let shapes: Vec<Vec<i64>> = operands
        .iter()
        .map(|t| u.type_kind(*t).shape().map(<[i64]>::to_vec))
        .collect::<Option<_>>()?;
    let q = Query {
        u,
        attr: &lookup,
        results: None,
    };
    let shape = (sem.shapes)(&q, &shapes).ok()??.into_iter().next()?;
    // `compare` gives predicates; `select` the type of what it chooses from.
    let elem = if sem.spec.name == COMPARE.name {
        u.int_type(1)
    } else {
        let from = if sem.spec.name == SELECT.name { 1 } else { 0 };
        operands
            .get(from)
            .and_then(|t| u.type_kind(*t).element_type())?
    };
    Some(u.ty(TypeKind::Tensor {
        shape: shape.into_iter().collect(),
        elem,
        encoding: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::types::TypeKind;

    /// A comparison infers truth values, a selection the type of what it
    /// selects (e-graph classes hold these types).
    #[test]
    fn compare_and_select_infer_their_element_types() {
        let ctx = Context::new(std::sync::Arc::new(crate::all_dialects()));
        let u = ctx.uniquer();
        let t = |elem| {
            u.ty(TypeKind::Tensor {
                shape: [2, 3].into_iter().collect(),
                elem,
                encoding: None,
            })
        };
        let (i1, i32t) = (t(u.int_type(1)), t(u.int_type(32)));
        let f32t = t(u.ty(TypeKind::Float(aic::float::FloatKind::F32)));
        assert_eq!(
            infer_type(u, super::super::COMPARE.name, None, &[i32t, i32t]),
            Some(i1)
        );
        assert_eq!(
            infer_type(u, super::super::SELECT.name, None, &[i1, f32t, f32t]),
            Some(f32t)
        );
        assert_eq!(
            infer_type(u, super::super::ADD.name, None, &[f32t, f32t]),
            Some(f32t)
        );
    }
}
