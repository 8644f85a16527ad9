//! StableHLO's constraints as verifiers. Each check names the constraint of the
//! StableHLO specification it enforces (`(C2)` is constraint 2 of the op's
//! section), and ops whose result type follows from their operands and
//! attributes report a mismatch the way MLIR's type inference does. Each op's
//! spec names its verifier here (`verify: Some(verify::iota)`); the structured
//! ops' verifiers are in `structured.rs`.

mod structured;

pub use structured::*;

use super::structured::{GetTupleElement, Map, Reduce, While};
use super::{
    BitcastConvert, BroadcastInDim, DynamicUpdateSlice, GetDimensionSize, Iota, Pad, Reshape,
    Reverse, Select, Slice, Transpose,
};
use crate::quant::UniformQuantized;
use aic::Diagnostic;
use aic::constraints::{i64_array_attr, int_attr};
use aic::dialect::Traits;
use aic::ir::{Context, Op, Value};
use aic::types::{DYNAMIC, Type, TypeKind};
use aic::verifier::{op_error, quoted_type};

pub(super) type R<T> = Result<T, Diagnostic>;

/// A ranked shape, or `None` for an unranked tensor.
pub(crate) fn shape(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    ctx.type_kind(ctx.value_type(v))
        .shape()
        .map(<[i64]>::to_vec)
}

pub(crate) fn elem(ctx: &Context, t: Type) -> Type {
    ctx.type_kind(t).element_type().unwrap_or(t)
}

pub(crate) fn dims_compatible(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| *x == *y || *x == DYNAMIC || *y == DYNAMIC)
}

pub(crate) fn list(v: &[i64]) -> String {
    let items: Vec<String> = v
        .iter()
        .map(|d| {
            if *d == DYNAMIC {
                "?".to_string()
            } else {
                d.to_string()
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// Compare an inferred result shape with the op's result type.
pub(super) fn expect_shape(ctx: &Context, op: Op, inferred: &[i64], c: &str) -> R<()> {
    let r = ctx.result(op, 0);
    let rt = ctx.value_type(r);
    let Some(actual) = shape(ctx, r) else {
        return Ok(());
    };
    if !dims_compatible(inferred, &actual) {
        let u = ctx.uniquer();
        let t = u.ty(TypeKind::Tensor {
            shape: inferred.iter().copied().collect(),
            elem: elem(ctx, rt),
            encoding: None,
        });
        return Err(op_error(
            ctx,
            op,
            format!(
                "inferred type(s) {} are incompatible with return type(s) of operation {} ({c})",
                quoted_type(ctx, t),
                quoted_type(ctx, rt)
            ),
        ));
    }
    Ok(())
}

pub(super) fn unique(v: &[i64]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.windows(2).all(|w| w[0] != w[1])
}

pub(super) fn in_range(v: &[i64], n: usize) -> bool {
    v.iter().all(|d| *d >= 0 && (*d as usize) < n)
}

/// `iota`.
pub fn iota(ctx: &Context, op: Op) -> R<()> {
    let i = Iota(op);
    let rank = shape(ctx, i.output(ctx)).map_or(0, |s| s.len());
    let d = i.iota_dimension(ctx).unwrap_or(0);
    if d < 0 || d as usize >= rank {
        return Err(op_error(
            ctx,
            op,
            format!("iota dimension {d} is out of the range [0, {rank}) of the output rank (C1)"),
        ));
    }
    Ok(())
}

/// `reshape`.
pub fn reshape(ctx: &Context, op: Op) -> R<()> {
    let r = Reshape(op);
    let (a, b) = (
        ctx.value_type(r.operand(ctx)),
        ctx.value_type(r.result(ctx)),
    );
    let (na, nb) = (
        ctx.type_kind(a).num_elements(),
        ctx.type_kind(b).num_elements(),
    );
    if let (Some(na), Some(nb)) = (na, nb)
        && na != nb
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "number of output elements ({nb}) doesn't match expected number of elements ({na}) (C2)"
            ),
        ));
    }
    Ok(())
}

/// `reverse`.
pub fn reverse(ctx: &Context, op: Op) -> R<()> {
    let r = Reverse(op);
    let rank = shape(ctx, r.operand(ctx)).map_or(usize::MAX, |s| s.len());
    let dims = r.dimensions(ctx).unwrap_or_default();
    if !unique(&dims) {
        return Err(op_error(
            ctx,
            op,
            format!("dimensions should be unique. Got: {} (C2)", list(&dims)),
        ));
    }
    if !in_range(&dims, rank) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "all dimensions should be between [0, {rank}). Got: {} (C3)",
                list(&dims)
            ),
        ));
    }
    Ok(())
}

/// `reduce`: the shapes, then the body's signature.
pub fn reduce(ctx: &Context, op: Op) -> R<()> {
    reduce_shapes(ctx, op)?;
    let all = Reduce(op).inputs_and_init_values(ctx);
    let scalars: Vec<Type> = all[all.len() / 2..]
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let mut args = scalars.clone();
    args.extend(scalars.iter().copied());
    region_type(ctx, op, 0, &args, &scalars, "C6")
}

/// `dynamic_update_slice`.
pub fn dynamic_update_slice(ctx: &Context, op: Op) -> R<()> {
    let d = DynamicUpdateSlice(op);
    let (Some(a), Some(u)) = (shape(ctx, d.operand(ctx)), shape(ctx, d.update(ctx))) else {
        return Ok(());
    };
    if u.len() != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "update rank {} does not match operand rank {} (C3)",
                u.len(),
                a.len()
            ),
        ));
    }
    let starts = d.start_indices(ctx).len();
    if starts != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!("expects {} start indices, got {starts} (C4)", a.len()),
        ));
    }
    if let Some(i) = (0..a.len()).find(|i| a[*i] != DYNAMIC && u[*i] > a[*i]) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "update dimension {i} of size {} exceeds the operand's {} (C6)",
                u[i], a[i]
            ),
        ));
    }
    Ok(())
}

/// `while`: the condition and body take the operands' types, the condition
/// returns `tensor<i1>`, the body and the results the operands' types.
pub fn while_(ctx: &Context, op: Op) -> R<()> {
    let tys: Vec<Type> = While(op)
        .operand(ctx)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let i1 = ctx.uniquer().ty(TypeKind::Tensor {
        shape: Default::default(),
        elem: ctx.int_type(1),
        encoding: None,
    });
    region_type(ctx, op, 0, &tys, &[i1], "C1")?;
    region_type(ctx, op, 1, &tys, &tys, "C2")?;
    results_are(ctx, op, &tys, "C3")
}

/// `if` and `case`: every branch returns the results' types.
pub fn branches(ctx: &Context, op: Op) -> R<()> {
    let regions = ctx.regions(op).len();
    if regions == 0 {
        return Err(op_error(ctx, op, "expects at least one branch (C1)"));
    }
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    for r in 0..regions {
        region_type(ctx, op, r, &[], &outs, "C3")?;
    }
    Ok(())
}

/// `map`.
pub fn map(ctx: &Context, op: Op) -> R<()> {
    let m = Map(op);
    let inputs = m.inputs(ctx);
    let scalars: Vec<Type> = inputs
        .iter()
        .map(|v| scalar_of(ctx, ctx.value_type(*v)))
        .collect();
    let out = scalar_of(ctx, ctx.value_type(m.result(ctx)));
    region_type(ctx, op, 0, &scalars, &[out], "C5")?;
    let rank = inputs
        .first()
        .and_then(|v| shape(ctx, *v))
        .map_or(0, |s| s.len());
    let dims = i64_array_attr(ctx, op, "dimensions").unwrap_or_default();
    if dims != (0..rank as i64).collect::<Vec<_>>() {
        return Err(op_error(
            ctx,
            op,
            format!("dimensions must be [0, ..., {}] (C4)", rank as i64 - 1),
        ));
    }
    Ok(())
}

/// `get_dimension_size`.
pub fn get_dimension_size(ctx: &Context, op: Op) -> R<()> {
    let g = GetDimensionSize(op);
    let rank = shape(ctx, g.operand(ctx)).map_or(usize::MAX, |s| s.len());
    let d = g.dimension(ctx).unwrap_or(0);
    if d < 0 || d as usize >= rank {
        return Err(op_error(
            ctx,
            op,
            format!("dimension {d} is out of range [0, {rank}) (C1)"),
        ));
    }
    Ok(())
}

/// `bitcast_convert`: the same bits, the last dimension absorbing a change of width.
pub fn bitcast_convert(ctx: &Context, op: Op) -> R<()> {
    let b = BitcastConvert(op);
    let (x, y) = (b.operand(ctx), b.result(ctx));
    let (a, r) = (ctx.value_type(x), ctx.value_type(y));
    let (na, nr) = (elem_bits(ctx, a), elem_bits(ctx, r));
    let (Some(sa), Some(sr)) = (shape(ctx, x), shape(ctx, y)) else {
        return Ok(());
    };
    let ok = if na == nr {
        dims_compatible(&sa, &sr)
    } else if na > nr {
        sr.len() == sa.len() + 1
            && dims_compatible(&sa, &sr[..sa.len()])
            && sr[sa.len()] * nr as i64 == na as i64
    } else {
        sa.len() == sr.len() + 1
            && dims_compatible(&sr, &sa[..sr.len()])
            && sa[sr.len()] * na as i64 == nr as i64
    };
    if !ok {
        return Err(op_error(
            ctx,
            op,
            format!(
                "cannot bitcast {} to {} (C1)",
                quoted_type(ctx, a),
                quoted_type(ctx, r)
            ),
        ));
    }
    Ok(())
}

/// `get_tuple_element`.
pub fn get_tuple_element(ctx: &Context, op: Op) -> R<()> {
    let g = GetTupleElement(op);
    let t = ctx.value_type(g.operand(ctx));
    let n = match ctx.type_kind(t) {
        TypeKind::Tuple(e) => e.len() as i64,
        _ => return Err(op_error(ctx, op, "operand must be a tuple")),
    };
    let i = int_attr(ctx, op, "index").unwrap_or(0);
    if i < 0 || i >= n {
        return Err(op_error(
            ctx,
            op,
            format!("index {i} is out of bounds of operand with size {n} (C1)"),
        ));
    }
    Ok(())
}

/// The elementwise ops: operands and results of one shape (rank-0 ones
/// allowed where `scalar_ok`), and of one element type where the op has the trait.
fn same_shapes(ctx: &Context, op: Op, scalar_ok: bool) -> R<Vec<Type>> {
    let mut values: Vec<Value> = ctx.operands(op).to_vec();
    values.extend(ctx.results(op));
    let shapes: Vec<Vec<i64>> = values.iter().filter_map(|v| shape(ctx, *v)).collect();
    let full: Vec<&Vec<i64>> = shapes
        .iter()
        .filter(|s| !(scalar_ok && s.is_empty()))
        .collect();
    if full.windows(2).any(|w| !dims_compatible(w[0], w[1])) {
        return Err(op_error(
            ctx,
            op,
            "requires the same shape for all operands and results",
        ));
    }
    let types: Vec<Type> = values
        .iter()
        .map(|v| elem(ctx, ctx.value_type(*v)))
        .collect();
    let same_element = ctx
        .op_spec(op)
        .is_some_and(|s| s.has(Traits::SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE));
    // Quantized types agree when their storage and expressed types do (their
    // scales and zero points may differ).
    let compatible = |a: Type, b: Type| {
        a == b
            || matches!(
                (ctx.dialect_type::<UniformQuantized>(a), ctx.dialect_type::<UniformQuantized>(b)),
                (Some(x), Some(y)) if x.storage == y.storage && x.expressed == y.expressed
            )
    };
    if same_element && types.windows(2).any(|w| !compatible(w[0], w[1])) {
        return Err(op_error(
            ctx,
            op,
            "requires the same element type for all operands and results",
        ));
    }
    Ok(types)
}

/// The elementwise ops (see [`same_shapes`]).
pub fn elementwise(ctx: &Context, op: Op) -> R<()> {
    same_shapes(ctx, op, false).map(|_| ())
}

/// `compare`: elementwise, both operands of one element type.
pub fn compare(ctx: &Context, op: Op) -> R<()> {
    let types = same_shapes(ctx, op, false)?;
    if types[0] != types[1] {
        return Err(op_error(
            ctx,
            op,
            "requires the same element type for all operands (C1)",
        ));
    }
    Ok(())
}

/// `clamp`: elementwise, with scalar bounds allowed.
pub fn clamp(ctx: &Context, op: Op) -> R<()> {
    same_shapes(ctx, op, true).map(|_| ())
}

/// `select`: elementwise with a scalar predicate allowed; both branches of one type.
pub fn select(ctx: &Context, op: Op) -> R<()> {
    let types = same_shapes(ctx, op, true)?;
    let s = Select(op);
    if let (Some(p), Some(t)) = (shape(ctx, s.pred(ctx)), shape(ctx, s.on_true(ctx)))
        && !p.is_empty()
        && !dims_compatible(&p, &t)
    {
        return Err(op_error(
            ctx,
            op,
            "requires the predicate to be a scalar or have the shape of on_true (C1)",
        ));
    }
    if types[1] != types[2] {
        return Err(op_error(
            ctx,
            op,
            "requires the same type for on_true and on_false (C2)",
        ));
    }
    Ok(())
}

/// `broadcast_in_dim`.
pub fn broadcast_in_dim(ctx: &Context, op: Op) -> R<()> {
    let (Some(a), Some(r)) = (
        shape(ctx, BroadcastInDim(op).operand(ctx)),
        shape(ctx, ctx.result(op, 0)),
    ) else {
        return Ok(());
    };
    let dims = i64_array_attr(ctx, op, "broadcast_dimensions").unwrap_or_default();
    if dims.len() != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "broadcast_dimensions size ({}) does not match operand rank ({}) (C2)",
                dims.len(),
                a.len()
            ),
        ));
    }
    if !in_range(&dims, r.len()) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "broadcast_dimensions {} out of bounds for result rank {} (C3)",
                list(&dims),
                r.len()
            ),
        ));
    }
    if !unique(&dims) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "broadcast_dimensions should not have duplicates: {} (C4)",
                list(&dims)
            ),
        ));
    }
    for (i, d) in dims.iter().enumerate() {
        let (x, y) = (a[i], r[*d as usize]);
        if x != 1 && x != DYNAMIC && y != DYNAMIC && x != y {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "size of operand dimension {i} ({x}) is not equal to 1 or size of result dimension {d} ({y}) (C5)"
                ),
            ));
        }
    }
    Ok(())
}

/// `transpose`.
pub fn transpose(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, Transpose(op).operand(ctx)) else {
        return Ok(());
    };
    let perm = i64_array_attr(ctx, op, "permutation").unwrap_or_default();
    if perm.len() != a.len() || !in_range(&perm, a.len()) || !unique(&perm) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "permutation {} is not a permutation of [0, {}) (C2)",
                list(&perm),
                a.len()
            ),
        ));
    }
    let inferred: Vec<i64> = perm.iter().map(|p| a[*p as usize]).collect();
    expect_shape(ctx, op, &inferred, "C3")
}

/// `slice`.
pub fn slice(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, Slice(op).operand(ctx)) else {
        return Ok(());
    };
    let start = i64_array_attr(ctx, op, "start_indices").unwrap_or_default();
    let limit = i64_array_attr(ctx, op, "limit_indices").unwrap_or_default();
    let strides = i64_array_attr(ctx, op, "strides").unwrap_or_default();
    if start.len() != a.len() || limit.len() != a.len() || strides.len() != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "the number of start, limit and stride indices must equal the operand rank {} (C2)",
                a.len()
            ),
        ));
    }
    let mut inferred = Vec::new();
    for i in 0..a.len() {
        if start[i] < 0 {
            return Err(op_error(
                ctx,
                op,
                format!("negative start index {} in dimension {i} (C3)", start[i]),
            ));
        }
        if a[i] != DYNAMIC && limit[i] > a[i] {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "limit index {} is larger than dimension size {} in dimension {i} (C3)",
                    limit[i], a[i]
                ),
            ));
        }
        if start[i] > limit[i] {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "start index {} is larger than limit index {} in dimension {i} (C3)",
                    start[i], limit[i]
                ),
            ));
        }
        if strides[i] <= 0 {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "stride must be positive but got {} in dimension {i} (C4)",
                    strides[i]
                ),
            ));
        }
        inferred.push((limit[i] - start[i] + strides[i] - 1) / strides[i]);
    }
    expect_shape(ctx, op, &inferred, "C5")
}

/// `concatenate`.
pub fn concatenate(ctx: &Context, op: Op) -> R<()> {
    let shapes: Vec<Vec<i64>> = ctx
        .operands(op)
        .iter()
        .filter_map(|v| shape(ctx, *v))
        .collect();
    let Some(first) = shapes.first() else {
        return Ok(());
    };
    let d = int_attr(ctx, op, "dimension").unwrap_or(0);
    if d < 0 || d as usize >= first.len() {
        return Err(op_error(
            ctx,
            op,
            format!("dimension {d} is out of range [0, {}) (C4)", first.len()),
        ));
    }
    let d = d as usize;
    let mut total = 0i64;
    for (k, s) in shapes.iter().enumerate() {
        if s.len() != first.len() {
            return Err(op_error(
                ctx,
                op,
                format!("operands (0) and ({k}) do not match rank (C2)"),
            ));
        }
        for i in 0..s.len() {
            if i != d && s[i] != first[i] && s[i] != DYNAMIC && first[i] != DYNAMIC {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "shapes of operand (0) and ({k}) do not match at non-concat index: {} != {} at non-concat index {i} (C2)",
                        list(first),
                        list(s)
                    ),
                ));
            }
        }
        total = if s[d] == DYNAMIC || total == DYNAMIC {
            DYNAMIC
        } else {
            total + s[d]
        };
    }
    let mut inferred = first.clone();
    inferred[d] = total;
    expect_shape(ctx, op, &inferred, "C6")
}

/// `pad`.
pub fn pad(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, Pad(op).operand(ctx)) else {
        return Ok(());
    };
    let lo = i64_array_attr(ctx, op, "edge_padding_low").unwrap_or_default();
    let hi = i64_array_attr(ctx, op, "edge_padding_high").unwrap_or_default();
    let interior = i64_array_attr(ctx, op, "interior_padding").unwrap_or_default();
    if lo.len() != a.len() || hi.len() != a.len() || interior.len() != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "edge_padding_low, edge_padding_high and interior_padding must have the operand's rank {} (C2)",
                a.len()
            ),
        ));
    }
    if let Some(i) = interior.iter().position(|x| *x < 0) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "interior_padding must be non-negative, got {} in dimension {i} (C3)",
                interior[i]
            ),
        ));
    }
    let inferred: Vec<i64> = (0..a.len())
        .map(|i| {
            if a[i] == DYNAMIC {
                DYNAMIC
            } else {
                lo[i] + a[i] + hi[i] + (a[i] - 1).max(0) * interior[i]
            }
        })
        .collect();
    if let Some(i) = inferred.iter().position(|d| *d < 0 && *d != DYNAMIC) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "padding results in a negative size {} in dimension {i} (C4)",
                inferred[i]
            ),
        ));
    }
    expect_shape(ctx, op, &inferred, "C4")
}

fn reduce_shapes(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    if ops.is_empty() || !ops.len().is_multiple_of(2) {
        return Err(op_error(
            ctx,
            op,
            "requires as many init values as inputs (C3)",
        ));
    }
    let n = ops.len() / 2;
    let Some(a) = shape(ctx, ops[0]) else {
        return Ok(());
    };
    let dims = i64_array_attr(ctx, op, "dimensions").unwrap_or_default();
    if !in_range(&dims, a.len()) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "Out-of-bounds dimension {} for input-tensor rank: {} (C4)",
                list(&dims),
                a.len()
            ),
        ));
    }
    if !unique(&dims) {
        return Err(op_error(
            ctx,
            op,
            format!("Duplicate reduction dimension: {} (C5)", list(&dims)),
        ));
    }
    for v in &ops[n..] {
        if shape(ctx, *v).is_some_and(|s| !s.is_empty()) {
            return Err(op_error(
                ctx,
                op,
                "init values must be 0-dimensional tensors (C6)",
            ));
        }
    }
    if ctx.num_results(op) != n {
        return Err(op_error(
            ctx,
            op,
            format!("expected {n} results, found {} (C3)", ctx.num_results(op)),
        ));
    }
    let inferred: Vec<i64> = (0..a.len() as i64)
        .filter(|i| !dims.contains(i))
        .map(|i| a[i as usize])
        .collect();
    expect_shape(ctx, op, &inferred, "C7")
}

pub(super) fn scalar_of(ctx: &Context, t: Type) -> Type {
    ctx.uniquer().ty(TypeKind::Tensor {
        shape: Default::default(),
        elem: elem(ctx, t),
        encoding: None,
    })
}

pub(super) fn elem_bits(ctx: &Context, t: Type) -> u32 {
    match ctx.type_kind(elem(ctx, t)) {
        TypeKind::Integer { width, .. } => *width,
        TypeKind::Index => 64,
        TypeKind::Float(k) => k.bit_width(),
        TypeKind::Complex(e) => 2 * elem_bits(ctx, *e),
        TypeKind::Dialect(d) => d.storage_type().map_or(0, |s| elem_bits(ctx, s)),
        _ => 0,
    }
}

pub(super) fn types_text(ctx: &Context, tys: &[Type]) -> String {
    let items: Vec<String> = tys
        .iter()
        .map(|t| aic::printer::type_text(ctx.uniquer(), *t))
        .collect();
    format!("({})", items.join(", "))
}

/// Region `r` of `op` takes `args` and returns `outs` (a spec constraint `c`).
pub(super) fn region_type(
    ctx: &Context,
    op: Op,
    r: usize,
    args: &[Type],
    outs: &[Type],
    c: &str,
) -> R<()> {
    let Some(region) = ctx.regions(op).get(r) else {
        return Ok(());
    };
    let Some(b) = ctx.entry_block(*region) else {
        return Ok(());
    };
    let got: Vec<Type> = ctx
        .block_args(b)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    if got != args {
        return Err(op_error(
            ctx,
            op,
            format!(
                "region #{r} must take {} but takes {} ({c})",
                types_text(ctx, args),
                types_text(ctx, &got)
            ),
        ));
    }
    if let Some(t) = ctx.last_op(b) {
        let ret: Vec<Type> = ctx.operands(t).iter().map(|v| ctx.value_type(*v)).collect();
        if ret != outs {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "region #{r} must return {} but returns {} ({c})",
                    types_text(ctx, outs),
                    types_text(ctx, &ret)
                ),
            ));
        }
    }
    Ok(())
}

pub(super) fn results_are(ctx: &Context, op: Op, tys: &[Type], c: &str) -> R<()> {
    let got: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if got != tys {
        return Err(op_error(
            ctx,
            op,
            format!(
                "result types {} must be {} ({c})",
                types_text(ctx, &got),
                types_text(ctx, tys)
            ),
        ));
    }
    Ok(())
}

/// Sizes of a `[n, 2]` padding attribute as (low, high) pairs.
pub(super) fn padding_pairs(ctx: &Context, op: Op, rank: usize, c: &str) -> R<Vec<(i64, i64)>> {
    let Some(p) = i64_array_attr(ctx, op, "padding") else {
        return Ok(vec![(0, 0); rank]);
    };
    if p.len() != 2 * rank {
        return Err(op_error(
            ctx,
            op,
            format!("padding must have shape [{rank}, 2] ({c})"),
        ));
    }
    Ok(p.chunks(2).map(|w| (w[0], w[1])).collect())
}

pub(super) fn sized(
    ctx: &Context,
    op: Op,
    name: &str,
    n: usize,
    default: i64,
    c_size: &str,
    c_pos: Option<&str>,
) -> R<Vec<i64>> {
    let v = i64_array_attr(ctx, op, name).unwrap_or_else(|| vec![default; n]);
    if v.len() != n {
        return Err(op_error(
            ctx,
            op,
            format!("{name} must have {n} elements, got {} ({c_size})", v.len()),
        ));
    }
    if let Some(c) = c_pos
        && let Some(x) = v.iter().find(|x| **x <= 0)
    {
        return Err(op_error(
            ctx,
            op,
            format!("{name} must be positive, got {x} ({c})"),
        ));
    }
    Ok(v)
}

/// Windows along one dimension: (size - dilated window) / stride + 1, or 0.
pub(super) fn num_windows(
    size: i64,
    lo: i64,
    hi: i64,
    base_dil: i64,
    win: i64,
    win_dil: i64,
    stride: i64,
) -> i64 {
    if size == DYNAMIC {
        return DYNAMIC;
    }
    let padded = if size == 0 {
        0
    } else {
        (size - 1) * base_dil + 1
    } + lo
        + hi;
    let window = (win - 1) * win_dil + 1;
    if padded < window {
        0
    } else {
        (padded - window) / stride + 1
    }
}

#[cfg(test)]
mod trait_tests {
    use super::Traits;

    /// The ops that carry `SameOperandsAndResultElementType`: those MLIR's
    /// StableHLO gives the trait.
    #[test]
    fn same_element_type_ops() {
        use crate::stablehlo::{BINARY_OPS, OTHER_OPS, UNARY_OPS};
        let mut named: Vec<&str> = [UNARY_OPS, BINARY_OPS, OTHER_OPS]
            .into_iter()
            .flatten()
            .filter(|s| s.traits.has(Traits::SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE))
            .filter_map(|s| s.name.strip_prefix("stablehlo."))
            .collect();
        named.sort_unstable();
        let mut want = vec![
            "add",
            "and",
            "atan2",
            "cbrt",
            "ceil",
            "count_leading_zeros",
            "cosine",
            "divide",
            "exponential",
            "exponential_minus_one",
            "floor",
            "log",
            "log_plus_one",
            "logistic",
            "maximum",
            "minimum",
            "multiply",
            "negate",
            "not",
            "or",
            "popcnt",
            "power",
            "remainder",
            "round_nearest_afz",
            "round_nearest_even",
            "rsqrt",
            "shift_left",
            "shift_right_arithmetic",
            "shift_right_logical",
            "sign",
            "sine",
            "sqrt",
            "subtract",
            "tan",
            "tanh",
            "xor",
            "reduce_precision",
        ];
        want.sort_unstable();
        assert_eq!(named, want);
    }
}
