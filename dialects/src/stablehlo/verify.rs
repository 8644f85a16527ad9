//! StableHLO's constraints as verifiers. Each check names the constraint of the
//! StableHLO specification it enforces (`(C2)` is constraint 2 of the op's
//! section), and ops whose result type follows from their operands and
//! attributes report a mismatch the way MLIR's type inference does.

use super::attrs::{DotDims, i64s, int};
use aic::Diagnostic;
use aic::ir::{Context, Op, Value};
use aic::types::{DYNAMIC, Type, TypeKind};
use aic::verifier::{op_error, quoted_type};

type R<T> = Result<T, Diagnostic>;

/// A ranked shape, or `None` for an unranked tensor.
fn shape(ctx: &Context, v: Value) -> Option<Vec<i64>> {
    ctx.type_kind(ctx.value_type(v))
        .shape()
        .map(<[i64]>::to_vec)
}

fn elem(ctx: &Context, t: Type) -> Type {
    ctx.type_kind(t).element_type().unwrap_or(t)
}

fn dims_compatible(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| *x == *y || *x == DYNAMIC || *y == DYNAMIC)
}

fn list(v: &[i64]) -> String {
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
fn expect_shape(ctx: &Context, op: Op, inferred: &[i64], c: &str) -> R<()> {
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

fn attr_ints(ctx: &Context, op: Op, name: &str) -> Option<Vec<i64>> {
    let a = ctx.op_spec(op)?.attr(ctx, op, name)?;
    i64s(ctx, a)
}

fn attr_int(ctx: &Context, op: Op, name: &str) -> Option<i64> {
    int(ctx, ctx.op_spec(op)?.attr(ctx, op, name)?)
}

fn unique(v: &[i64]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.windows(2).all(|w| w[0] != w[1])
}

fn in_range(v: &[i64], n: usize) -> bool {
    v.iter().all(|d| *d >= 0 && (*d as usize) < n)
}

/// Ops whose operands and results share one element type.
const SAME_ELEMENT: &[&str] = &[
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

/// The shared verifier of StableHLO ops.
pub fn verify(ctx: &Context, op: Op) -> R<()> {
    let full = ctx.op_name(op);
    let name = full.strip_prefix("stablehlo.").unwrap_or(full);
    let spec_elementwise = ctx
        .op_spec(op)
        .is_some_and(|s| s.has(aic::dialect::Traits::ELEMENTWISE));
    if spec_elementwise || matches!(name, "select" | "clamp") {
        elementwise(ctx, op, name)?;
    }
    match name {
        "iota" => {
            let rank = shape(ctx, ctx.result(op, 0)).map_or(0, |s| s.len());
            let d = attr_int(ctx, op, "iota_dimension").unwrap_or(0);
            if d < 0 || d as usize >= rank {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "iota dimension {d} is out of the range [0, {rank}) of the output rank (C1)"
                    ),
                ));
            }
        }
        "broadcast_in_dim" => broadcast_in_dim(ctx, op)?,
        "transpose" => transpose(ctx, op)?,
        "reshape" => {
            let (a, b) = (
                ctx.value_type(ctx.operands(op)[0]),
                ctx.value_type(ctx.result(op, 0)),
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
        }
        "slice" => slice(ctx, op)?,
        "concatenate" => concatenate(ctx, op)?,
        "pad" => pad(ctx, op)?,
        "reverse" => {
            let rank = shape(ctx, ctx.operands(op)[0]).map_or(usize::MAX, |s| s.len());
            let dims = attr_ints(ctx, op, "dimensions").unwrap_or_default();
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
        }
        "dot_general" => dot_general(ctx, op)?,
        "reduce" => reduce(ctx, op)?,
        "get_tuple_element" => {
            let t = ctx.value_type(ctx.operands(op)[0]);
            let n = match ctx.type_kind(t) {
                TypeKind::Tuple(e) => e.len() as i64,
                _ => return Err(op_error(ctx, op, "operand must be a tuple")),
            };
            let i = attr_int(ctx, op, "index").unwrap_or(0);
            if i < 0 || i >= n {
                return Err(op_error(
                    ctx,
                    op,
                    format!("index {i} is out of bounds of operand with size {n} (C1)"),
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

fn elementwise(ctx: &Context, op: Op, name: &str) -> R<()> {
    let mut values: Vec<Value> = ctx.operands(op).to_vec();
    values.extend(ctx.results(op));
    let shapes: Vec<Vec<i64>> = values.iter().filter_map(|v| shape(ctx, *v)).collect();
    // select and clamp allow a scalar predicate / bounds.
    let scalar_ok = matches!(name, "select" | "clamp");
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
    if SAME_ELEMENT.contains(&name) && types.windows(2).any(|w| w[0] != w[1]) {
        return Err(op_error(
            ctx,
            op,
            "requires the same element type for all operands and results",
        ));
    }
    if name == "compare" && types[0] != types[1] {
        return Err(op_error(
            ctx,
            op,
            "requires the same element type for all operands (C1)",
        ));
    }
    if matches!(name, "select") && types[1] != types[2] {
        return Err(op_error(
            ctx,
            op,
            "requires the same type for on_true and on_false (C2)",
        ));
    }
    Ok(())
}

fn broadcast_in_dim(ctx: &Context, op: Op) -> R<()> {
    let (Some(a), Some(r)) = (
        shape(ctx, ctx.operands(op)[0]),
        shape(ctx, ctx.result(op, 0)),
    ) else {
        return Ok(());
    };
    let dims = attr_ints(ctx, op, "broadcast_dimensions").unwrap_or_default();
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

fn transpose(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, ctx.operands(op)[0]) else {
        return Ok(());
    };
    let perm = attr_ints(ctx, op, "permutation").unwrap_or_default();
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

fn slice(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, ctx.operands(op)[0]) else {
        return Ok(());
    };
    let start = attr_ints(ctx, op, "start_indices").unwrap_or_default();
    let limit = attr_ints(ctx, op, "limit_indices").unwrap_or_default();
    let strides = attr_ints(ctx, op, "strides").unwrap_or_default();
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

fn concatenate(ctx: &Context, op: Op) -> R<()> {
    let shapes: Vec<Vec<i64>> = ctx
        .operands(op)
        .iter()
        .filter_map(|v| shape(ctx, *v))
        .collect();
    let Some(first) = shapes.first() else {
        return Ok(());
    };
    let d = attr_int(ctx, op, "dimension").unwrap_or(0);
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

fn pad(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, ctx.operands(op)[0]) else {
        return Ok(());
    };
    let lo = attr_ints(ctx, op, "edge_padding_low").unwrap_or_default();
    let hi = attr_ints(ctx, op, "edge_padding_high").unwrap_or_default();
    let interior = attr_ints(ctx, op, "interior_padding").unwrap_or_default();
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

fn dot_general(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let (Some(l), Some(r)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
        return Ok(());
    };
    let Some(d) = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "dot_dimension_numbers"))
        .and_then(|a| DotDims::of(ctx, a))
    else {
        return Err(op_error(
            ctx,
            op,
            "malformed dot_dimension_numbers (expected #stablehlo.dot<...>)",
        ));
    };
    if d.lhs_batch.len() != d.rhs_batch.len() {
        return Err(op_error(
            ctx,
            op,
            "lhs and rhs should have the same number of batching dimensions (C1)",
        ));
    }
    if d.lhs_contract.len() != d.rhs_contract.len() {
        return Err(op_error(
            ctx,
            op,
            "lhs and rhs should have the same number of contracting dimensions (C2)",
        ));
    }
    let lhs_all: Vec<i64> = d.lhs_batch.iter().chain(&d.lhs_contract).copied().collect();
    let rhs_all: Vec<i64> = d.rhs_batch.iter().chain(&d.rhs_contract).copied().collect();
    if !unique(&lhs_all) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "has duplicated dimension from lhs_batching_dimensions and lhs_contracting_dimensions: {} (C3)",
                list(&lhs_all)
            ),
        ));
    }
    if !unique(&rhs_all) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "has duplicated dimension from rhs_batching_dimensions and rhs_contracting_dimensions: {} (C4)",
                list(&rhs_all)
            ),
        ));
    }
    if !in_range(&d.lhs_batch, l.len()) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "lhs_batching_dimensions value {} is out of range: [0, {}) (C5)",
                list(&d.lhs_batch),
                l.len()
            ),
        ));
    }
    if !in_range(&d.lhs_contract, l.len()) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "lhs_contracting_dimensions value {} is out of range: [0, {}) (C6)",
                list(&d.lhs_contract),
                l.len()
            ),
        ));
    }
    if !in_range(&d.rhs_batch, r.len()) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "rhs_batching_dimensions value {} is out of range: [0, {}) (C7)",
                list(&d.rhs_batch),
                r.len()
            ),
        ));
    }
    if !in_range(&d.rhs_contract, r.len()) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "rhs_contracting_dimensions value {} is out of range: [0, {}) (C8)",
                list(&d.rhs_contract),
                r.len()
            ),
        ));
    }
    for (a, b) in d.lhs_batch.iter().zip(&d.rhs_batch) {
        let (x, y) = (l[*a as usize], r[*b as usize]);
        if x != y && x != DYNAMIC && y != DYNAMIC {
            return Err(op_error(
                ctx,
                op,
                format!("batching dimension sizes must match for lhs/rhs: {x} != {y} (C9)"),
            ));
        }
    }
    for (a, b) in d.lhs_contract.iter().zip(&d.rhs_contract) {
        let (x, y) = (l[*a as usize], r[*b as usize]);
        if x != y && x != DYNAMIC && y != DYNAMIC {
            return Err(op_error(
                ctx,
                op,
                format!("contracting dimension sizes must match for lhs/rhs: {x} != {y} (C10)"),
            ));
        }
    }
    let mut inferred: Vec<i64> = d.lhs_batch.iter().map(|i| l[*i as usize]).collect();
    inferred.extend(
        (0..l.len() as i64)
            .filter(|i| !lhs_all.contains(i))
            .map(|i| l[i as usize]),
    );
    inferred.extend(
        (0..r.len() as i64)
            .filter(|i| !rhs_all.contains(i))
            .map(|i| r[i as usize]),
    );
    expect_shape(ctx, op, &inferred, "C12")
}

fn reduce(ctx: &Context, op: Op) -> R<()> {
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
    let dims = attr_ints(ctx, op, "dimensions").unwrap_or_default();
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
