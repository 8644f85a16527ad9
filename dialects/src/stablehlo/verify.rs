//! StableHLO's constraints as verifiers. Each check names the constraint of the
//! StableHLO specification it enforces (`(C2)` is constraint 2 of the op's
//! section), and ops whose result type follows from their operands and
//! attributes report a mismatch the way MLIR's type inference does.

use super::attrs::DotDims;
use aic::Diagnostic;
use aic::constraints::{i64_array_attr, int_attr};
use aic::dialect::Traits;
use aic::ir::{Context, Op, Value};
use aic::types::{DYNAMIC, Type, TypeKind};
use aic::verifier::{op_error, quoted_type};

type R<T> = Result<T, Diagnostic>;

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

fn unique(v: &[i64]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.windows(2).all(|w| w[0] != w[1])
}

fn in_range(v: &[i64], n: usize) -> bool {
    v.iter().all(|d| *d >= 0 && (*d as usize) < n)
}

/// The shared verifier of StableHLO ops.
pub fn verify(ctx: &Context, op: Op) -> R<()> {
    let full = ctx.op_name(op);
    let name = full.strip_prefix("stablehlo.").unwrap_or(full);
    let spec_elementwise = ctx.op_spec(op).is_some_and(|s| s.has(Traits::ELEMENTWISE));
    if spec_elementwise || matches!(name, "select" | "clamp") {
        elementwise(ctx, op, name)?;
    }
    match name {
        "iota" => {
            let rank = shape(ctx, ctx.result(op, 0)).map_or(0, |s| s.len());
            let d = int_attr(ctx, op, "iota_dimension").unwrap_or(0);
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
            let dims = i64_array_attr(ctx, op, "dimensions").unwrap_or_default();
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
        "reduce" => {
            reduce(ctx, op)?;
            let n = ctx.operands(op).len() / 2;
            let scalars: Vec<Type> = ctx.operands(op)[n..]
                .iter()
                .map(|v| ctx.value_type(*v))
                .collect();
            let mut args = scalars.clone();
            args.extend(scalars.iter().copied());
            region_type(ctx, op, 0, &args, &scalars, "C6")?;
        }
        "convolution" => convolution(ctx, op)?,
        "gather" => gather(ctx, op)?,
        "scatter" => scatter(ctx, op)?,
        "dynamic_slice" => dynamic_slice(ctx, op)?,
        "dynamic_update_slice" => {
            let ops = ctx.operands(op);
            let (Some(a), Some(u)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
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
            if ops.len() - 2 != a.len() {
                return Err(op_error(
                    ctx,
                    op,
                    format!(
                        "expects {} start indices, got {} (C4)",
                        a.len(),
                        ops.len() - 2
                    ),
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
        }
        "reduce_window" => reduce_window(ctx, op)?,
        "select_and_scatter" => select_and_scatter(ctx, op)?,
        "sort" => sort(ctx, op)?,
        "while" => {
            let tys: Vec<Type> = ctx
                .operands(op)
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
            results_are(ctx, op, &tys, "C3")?;
        }
        "if" | "case" => {
            let regions = ctx.regions(op).len();
            if regions == 0 {
                return Err(op_error(ctx, op, "expects at least one branch (C1)"));
            }
            let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
            for r in 0..regions {
                region_type(ctx, op, r, &[], &outs, "C3")?;
            }
        }
        "map" => {
            let ops = ctx.operands(op);
            let scalars: Vec<Type> = ops
                .iter()
                .map(|v| scalar_of(ctx, ctx.value_type(*v)))
                .collect();
            let out = scalar_of(ctx, ctx.value_type(ctx.result(op, 0)));
            region_type(ctx, op, 0, &scalars, &[out], "C5")?;
            let rank = shape(ctx, ops[0]).map_or(0, |s| s.len());
            let dims = i64_array_attr(ctx, op, "dimensions").unwrap_or_default();
            if dims != (0..rank as i64).collect::<Vec<_>>() {
                return Err(op_error(
                    ctx,
                    op,
                    format!("dimensions must be [0, ..., {}] (C4)", rank as i64 - 1),
                ));
            }
        }
        "get_dimension_size" => {
            let rank = shape(ctx, ctx.operands(op)[0]).map_or(usize::MAX, |s| s.len());
            let d = int_attr(ctx, op, "dimension").unwrap_or(0);
            if d < 0 || d as usize >= rank {
                return Err(op_error(
                    ctx,
                    op,
                    format!("dimension {d} is out of range [0, {rank}) (C1)"),
                ));
            }
        }
        "bitcast_convert" => {
            let (a, r) = (
                ctx.value_type(ctx.operands(op)[0]),
                ctx.value_type(ctx.result(op, 0)),
            );
            let (na, nr) = (elem_bits(ctx, a), elem_bits(ctx, r));
            let (Some(sa), Some(sr)) = (
                shape(ctx, ctx.operands(op)[0]),
                shape(ctx, ctx.result(op, 0)),
            ) else {
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
        }
        "get_tuple_element" => {
            let t = ctx.value_type(ctx.operands(op)[0]);
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
    let same_element = ctx
        .op_spec(op)
        .is_some_and(|s| s.has(Traits::SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE));
    if same_element && types.windows(2).any(|w| w[0] != w[1]) {
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
    if name == "select" {
        let (p, t) = (
            shape(ctx, ctx.operands(op)[0]),
            shape(ctx, ctx.operands(op)[1]),
        );
        if let (Some(p), Some(t)) = (p, t)
            && !p.is_empty()
            && !dims_compatible(&p, &t)
        {
            return Err(op_error(
                ctx,
                op,
                "requires the predicate to be a scalar or have the shape of on_true (C1)",
            ));
        }
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

fn transpose(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, ctx.operands(op)[0]) else {
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

fn slice(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, ctx.operands(op)[0]) else {
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

fn concatenate(ctx: &Context, op: Op) -> R<()> {
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

fn pad(ctx: &Context, op: Op) -> R<()> {
    let Some(a) = shape(ctx, ctx.operands(op)[0]) else {
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

fn scalar_of(ctx: &Context, t: Type) -> Type {
    ctx.uniquer().ty(TypeKind::Tensor {
        shape: Default::default(),
        elem: elem(ctx, t),
        encoding: None,
    })
}

fn elem_bits(ctx: &Context, t: Type) -> u32 {
    match ctx.type_kind(elem(ctx, t)) {
        TypeKind::Integer { width, .. } => *width,
        TypeKind::Index => 64,
        TypeKind::Float(k) => k.bit_width(),
        TypeKind::Complex(e) => 2 * elem_bits(ctx, *e),
        _ => 0,
    }
}

fn types_text(ctx: &Context, tys: &[Type]) -> String {
    let items: Vec<String> = tys
        .iter()
        .map(|t| aic::printer::type_text(ctx.uniquer(), *t))
        .collect();
    format!("({})", items.join(", "))
}

/// Region `r` of `op` takes `args` and returns `outs` (a spec constraint `c`).
fn region_type(ctx: &Context, op: Op, r: usize, args: &[Type], outs: &[Type], c: &str) -> R<()> {
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

fn results_are(ctx: &Context, op: Op, tys: &[Type], c: &str) -> R<()> {
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
fn padding_pairs(ctx: &Context, op: Op, rank: usize, c: &str) -> R<Vec<(i64, i64)>> {
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

fn sized(
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
fn num_windows(
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

fn convolution(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let (Some(l), Some(k)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
        return Ok(());
    };
    let Some(d) = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "dimension_numbers"))
        .and_then(|a| super::attrs::ConvDims::of(ctx, a))
    else {
        return Err(op_error(
            ctx,
            op,
            "malformed dimension_numbers (expected #stablehlo.conv<...>)",
        ));
    };
    let n = l.len();
    if k.len() != n {
        return Err(op_error(
            ctx,
            op,
            format!(
                "lhs and rhs must have the same rank, got {n} and {} (C1)",
                k.len()
            ),
        ));
    }
    if n < 2 {
        return Err(op_error(ctx, op, "operands must have rank at least 2 (C1)"));
    }
    let ns = n - 2;
    for (what, len, c) in [
        ("input_spatial_dimensions", d.in_spatial.len(), "C12"),
        ("kernel_spatial_dimensions", d.k_spatial.len(), "C17"),
        ("output_spatial_dimensions", d.out_spatial.len(), "C19"),
    ] {
        if len != ns {
            return Err(op_error(
                ctx,
                op,
                format!("{what} must have {ns} dimensions, got {len} ({c})"),
            ));
        }
    }
    let all_in = [d.in_batch, d.in_feature]
        .into_iter()
        .chain(d.in_spatial.iter().copied())
        .collect::<Vec<_>>();
    let all_k = [d.k_in, d.k_out]
        .into_iter()
        .chain(d.k_spatial.iter().copied())
        .collect::<Vec<_>>();
    let all_out = [d.out_batch, d.out_feature]
        .into_iter()
        .chain(d.out_spatial.iter().copied())
        .collect::<Vec<_>>();
    if !unique(&all_in) || !in_range(&all_in, n) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "input dimension numbers {} must be a permutation of [0, {n}) (C13)",
                list(&all_in)
            ),
        ));
    }
    if !unique(&all_k) || !in_range(&all_k, n) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "kernel dimension numbers {} must be a permutation of [0, {n}) (C18)",
                list(&all_k)
            ),
        ));
    }
    if !unique(&all_out) || !in_range(&all_out, n) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "output dimension numbers {} must be a permutation of [0, {n}) (C20)",
                list(&all_out)
            ),
        ));
    }
    let stride = sized(ctx, op, "window_strides", ns, 1, "C2", Some("C3"))?;
    let pad = padding_pairs(ctx, op, ns, "C4")?;
    let lhs_dil = sized(ctx, op, "lhs_dilation", ns, 1, "C5", Some("C6"))?;
    let rhs_dil = sized(ctx, op, "rhs_dilation", ns, 1, "C7", Some("C8"))?;
    sized(ctx, op, "window_reversal", ns, 0, "C9", None)?;
    let fgc = int_attr(ctx, op, "feature_group_count").unwrap_or(1);
    let bgc = int_attr(ctx, op, "batch_group_count").unwrap_or(1);
    if fgc <= 0 {
        return Err(op_error(
            ctx,
            op,
            format!("feature_group_count must be positive, got {fgc} (C21)"),
        ));
    }
    if bgc <= 0 {
        return Err(op_error(
            ctx,
            op,
            format!("batch_group_count must be positive, got {bgc} (C22)"),
        ));
    }
    if fgc != 1 && bgc != 1 {
        return Err(op_error(
            ctx,
            op,
            "feature_group_count and batch_group_count cannot both be greater than 1 (C23)",
        ));
    }
    let (ib, ifeat) = (l[d.in_batch as usize], l[d.in_feature as usize]);
    let (kin, kout) = (k[d.k_in as usize], k[d.k_out as usize]);
    if ib != DYNAMIC && ib % bgc != 0 {
        return Err(op_error(
            ctx,
            op,
            format!("input batch size {ib} is not a multiple of batch_group_count {bgc} (C10)"),
        ));
    }
    if ifeat != DYNAMIC && ifeat % fgc != 0 {
        return Err(op_error(
            ctx,
            op,
            format!(
                "input feature size {ifeat} is not a multiple of feature_group_count {fgc} (C11)"
            ),
        ));
    }
    if ifeat != DYNAMIC && kin != DYNAMIC && kin != ifeat / fgc {
        return Err(op_error(
            ctx,
            op,
            format!(
                "kernel input feature size {kin} must equal the input feature size {ifeat} / feature_group_count {fgc} (C14)"
            ),
        ));
    }
    if kout != DYNAMIC && (kout % bgc != 0 || kout % fgc != 0) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "kernel output feature size {kout} is not a multiple of the group counts (C15, C16)"
            ),
        ));
    }
    let mut inferred = vec![0i64; n];
    inferred[d.out_batch as usize] = if ib == DYNAMIC { DYNAMIC } else { ib / bgc };
    inferred[d.out_feature as usize] = kout;
    for j in 0..ns {
        inferred[d.out_spatial[j] as usize] = num_windows(
            l[d.in_spatial[j] as usize],
            pad[j].0,
            pad[j].1,
            lhs_dil[j],
            k[d.k_spatial[j] as usize],
            rhs_dil[j],
            stride[j],
        );
    }
    expect_shape(ctx, op, &inferred, "C25")
}

fn gather(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let (Some(a), Some(ind)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
        return Ok(());
    };
    let Some(d) = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "dimension_numbers"))
        .and_then(|x| super::attrs::GatherDims::of(ctx, x))
    else {
        return Err(op_error(
            ctx,
            op,
            "malformed dimension_numbers (expected #stablehlo.gather<...>)",
        ));
    };
    let sizes = i64_array_attr(ctx, op, "slice_sizes").unwrap_or_default();
    let (r, ir) = (a.len(), ind.len());
    let ivd = d.index_vector_dim;
    if d.offset_dims.len() + d.collapsed_slice_dims.len() + d.operand_batching_dims.len() != r {
        return Err(op_error(
            ctx,
            op,
            format!(
                "offset_dims, collapsed_slice_dims and operand_batching_dims must add up to the operand rank {r} (C1)"
            ),
        ));
    }
    if ivd < 0 || ivd as usize > ir {
        return Err(op_error(
            ctx,
            op,
            format!("index_vector_dim {ivd} is out of range [0, {ir}] (C2)"),
        ));
    }
    let index_size = if (ivd as usize) < ir {
        ind[ivd as usize]
    } else {
        1
    };
    if index_size != DYNAMIC && d.start_index_map.len() as i64 != index_size {
        return Err(op_error(
            ctx,
            op,
            format!(
                "start_index_map has {} entries but index vectors have {index_size} (C3)",
                d.start_index_map.len()
            ),
        ));
    }
    if !unique(&d.offset_dims) || !d.offset_dims.windows(2).all(|w| w[0] < w[1]) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "offset_dims {} must be unique and sorted (C4)",
                list(&d.offset_dims)
            ),
        ));
    }
    let collapsed_batch: Vec<i64> = d
        .collapsed_slice_dims
        .iter()
        .chain(&d.operand_batching_dims)
        .copied()
        .collect();
    if !unique(&collapsed_batch) {
        return Err(op_error(
            ctx,
            op,
            "collapsed_slice_dims and operand_batching_dims must be unique (C6)",
        ));
    }
    if !in_range(&d.collapsed_slice_dims, r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "collapsed_slice_dims {} out of range [0, {r}) (C8)",
                list(&d.collapsed_slice_dims)
            ),
        ));
    }
    if !in_range(&d.operand_batching_dims, r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "operand_batching_dims {} out of range [0, {r}) (C11)",
                list(&d.operand_batching_dims)
            ),
        ));
    }
    if !in_range(&d.start_indices_batching_dims, ir) || d.start_indices_batching_dims.contains(&ivd)
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "start_indices_batching_dims {} out of range or the index vector dimension (C14, C15)",
                list(&d.start_indices_batching_dims)
            ),
        ));
    }
    if d.operand_batching_dims.len() != d.start_indices_batching_dims.len() {
        return Err(op_error(
            ctx,
            op,
            "operand_batching_dims and start_indices_batching_dims must have the same size (C16)",
        ));
    }
    if !in_range(&d.start_index_map, r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "start_index_map {} out of range [0, {r}) (C19)",
                list(&d.start_index_map)
            ),
        ));
    }
    let map_batch: Vec<i64> = d
        .start_index_map
        .iter()
        .chain(&d.operand_batching_dims)
        .copied()
        .collect();
    if !unique(&map_batch) {
        return Err(op_error(
            ctx,
            op,
            "start_index_map and operand_batching_dims must be unique (C18)",
        ));
    }
    if sizes.len() != r {
        return Err(op_error(
            ctx,
            op,
            format!(
                "slice_sizes must have {r} elements, got {} (C20)",
                sizes.len()
            ),
        ));
    }
    for (i, s) in sizes.iter().enumerate() {
        if *s < 0 || (a[i] != DYNAMIC && *s > a[i]) {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "slice size {s} of dimension {i} is out of range [0, {}] (C21)",
                    a[i]
                ),
            ));
        }
    }
    for c in &collapsed_batch {
        if sizes[*c as usize] > 1 {
            return Err(op_error(
                ctx,
                op,
                format!(
                    "slice size of collapsed or batching dimension {c} must be at most 1 (C9, C12)"
                ),
            ));
        }
    }
    let batch: Vec<i64> = (0..ir)
        .filter(|i| *i as i64 != ivd)
        .map(|i| ind[i])
        .collect();
    let offsets: Vec<i64> = (0..r as i64)
        .filter(|i| !collapsed_batch.contains(i))
        .map(|i| sizes[i as usize])
        .collect();
    let rank = batch.len() + offsets.len();
    if !in_range(&d.offset_dims, rank) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "offset_dims {} out of range [0, {rank}) (C5)",
                list(&d.offset_dims)
            ),
        ));
    }
    let (mut bi, mut oi) = (batch.iter(), offsets.iter());
    let inferred: Vec<i64> = (0..rank as i64)
        .map(|i| {
            if d.offset_dims.contains(&i) {
                *oi.next().unwrap_or(&0)
            } else {
                *bi.next().unwrap_or(&0)
            }
        })
        .collect();
    expect_shape(ctx, op, &inferred, "C22")
}

fn scatter(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    if ops.len() < 3 || ops.len().is_multiple_of(2) {
        return Err(op_error(
            ctx,
            op,
            "expects N inputs, the scatter indices and N updates (C5)",
        ));
    }
    let n = (ops.len() - 1) / 2;
    let (Some(a), Some(ind), Some(u)) = (
        shape(ctx, ops[0]),
        shape(ctx, ops[n]),
        shape(ctx, ops[n + 1]),
    ) else {
        return Ok(());
    };
    let Some(d) = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "scatter_dimension_numbers"))
        .and_then(|x| super::attrs::ScatterDims::of(ctx, x))
    else {
        return Err(op_error(
            ctx,
            op,
            "malformed scatter_dimension_numbers (expected #stablehlo.scatter<...>)",
        ));
    };
    let (r, ir, ur) = (a.len(), ind.len(), u.len());
    if d.update_window_dims.len() + d.inserted_window_dims.len() + d.input_batching_dims.len() != r
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "update_window_dims, inserted_window_dims and input_batching_dims must add up to the input rank {r} (C2)"
            ),
        ));
    }
    if !in_range(&d.update_window_dims, ur) || !unique(&d.update_window_dims) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "update_window_dims {} must be unique and in [0, {ur}) (C7, C8)",
                list(&d.update_window_dims)
            ),
        ));
    }
    if !in_range(&d.inserted_window_dims, r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "inserted_window_dims {} out of range [0, {r}) (C11)",
                list(&d.inserted_window_dims)
            ),
        ));
    }
    if !in_range(&d.input_batching_dims, r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "input_batching_dims {} out of range [0, {r}) (C13)",
                list(&d.input_batching_dims)
            ),
        ));
    }
    if d.index_vector_dim < 0 || d.index_vector_dim as usize > ir {
        return Err(op_error(
            ctx,
            op,
            format!(
                "index_vector_dim {} is out of range [0, {ir}] (C22)",
                d.index_vector_dim
            ),
        ));
    }
    if !in_range(&d.scatter_indices_batching_dims, ir)
        || d.scatter_indices_batching_dims
            .contains(&d.index_vector_dim)
    {
        return Err(op_error(
            ctx,
            op,
            "scatter_indices_batching_dims out of range or the index vector dimension (C15, C16)",
        ));
    }
    if d.input_batching_dims.len() != d.scatter_indices_batching_dims.len() {
        return Err(op_error(
            ctx,
            op,
            "input_batching_dims and scatter_indices_batching_dims must have the same size (C17)",
        ));
    }
    if !in_range(&d.scatter_dims_to_operand_dims, r) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "scatter_dims_to_operand_dims {} out of range [0, {r}) (C21)",
                list(&d.scatter_dims_to_operand_dims)
            ),
        ));
    }
    let index_size = if (d.index_vector_dim as usize) < ir {
        ind[d.index_vector_dim as usize]
    } else {
        1
    };
    if index_size != DYNAMIC && d.scatter_dims_to_operand_dims.len() as i64 != index_size {
        return Err(op_error(
            ctx,
            op,
            format!(
                "scatter_dims_to_operand_dims has {} entries but index vectors have {index_size} (C19)",
                d.scatter_dims_to_operand_dims.len()
            ),
        ));
    }
    let batch_rank = if (d.index_vector_dim as usize) < ir {
        ir - 1
    } else {
        ir
    };
    if ur != batch_rank + d.update_window_dims.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "updates must have rank {} (C4)",
                batch_rank + d.update_window_dims.len()
            ),
        ));
    }
    let tys: Vec<Type> = ops[..n]
        .iter()
        .map(|v| scalar_of(ctx, ctx.value_type(*v)))
        .collect();
    let mut args = tys.clone();
    args.extend(tys.iter().copied());
    region_type(ctx, op, 0, &args, &tys, "C23")?;
    let ins: Vec<Type> = ops[..n].iter().map(|v| ctx.value_type(*v)).collect();
    results_are(ctx, op, &ins, "C24")
}

fn dynamic_slice(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let Some(a) = shape(ctx, ops[0]) else {
        return Ok(());
    };
    let sizes = i64_array_attr(ctx, op, "slice_sizes").unwrap_or_default();
    if sizes.len() != a.len() || ops.len() - 1 != a.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "expects {} start indices and slice sizes, got {} and {} (C2)",
                a.len(),
                ops.len() - 1,
                sizes.len()
            ),
        ));
    }
    if let Some(i) = (0..a.len()).find(|i| sizes[*i] < 0 || (a[*i] != DYNAMIC && sizes[*i] > a[*i]))
    {
        return Err(op_error(
            ctx,
            op,
            format!(
                "slice size {} of dimension {i} is out of range [0, {}] (C4)",
                sizes[i], a[i]
            ),
        ));
    }
    expect_shape(ctx, op, &sizes, "C5")
}

fn reduce_window(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    if ops.is_empty() || !ops.len().is_multiple_of(2) || ctx.num_results(op) != ops.len() / 2 {
        return Err(op_error(
            ctx,
            op,
            "requires as many init values and results as inputs (C1)",
        ));
    }
    let n = ops.len() / 2;
    let Some(a) = shape(ctx, ops[0]) else {
        return Ok(());
    };
    let r = a.len();
    let win = sized(ctx, op, "window_dimensions", r, 1, "C4", Some("C5"))?;
    let stride = sized(ctx, op, "window_strides", r, 1, "C6", Some("C7"))?;
    let bd = sized(ctx, op, "base_dilations", r, 1, "C8", Some("C9"))?;
    let wd = sized(ctx, op, "window_dilations", r, 1, "C10", Some("C11"))?;
    let pad = padding_pairs(ctx, op, r, "C12")?;
    let scalars: Vec<Type> = ops[n..].iter().map(|v| ctx.value_type(*v)).collect();
    let mut args = scalars.clone();
    args.extend(scalars.iter().copied());
    region_type(ctx, op, 0, &args, &scalars, "C13")?;
    let inferred: Vec<i64> = (0..r)
        .map(|i| num_windows(a[i], pad[i].0, pad[i].1, bd[i], win[i], wd[i], stride[i]))
        .collect();
    expect_shape(ctx, op, &inferred, "C15")
}

fn select_and_scatter(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let (Some(a), Some(src)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
        return Ok(());
    };
    let r = a.len();
    let win = sized(ctx, op, "window_dimensions", r, 1, "C4", Some("C5"))?;
    let stride = sized(ctx, op, "window_strides", r, 1, "C6", Some("C7"))?;
    let pad = padding_pairs(ctx, op, r, "C8")?;
    let windows: Vec<i64> = (0..r)
        .map(|i| num_windows(a[i], pad[i].0, pad[i].1, 1, win[i], 1, stride[i]))
        .collect();
    if !dims_compatible(&windows, &src) {
        return Err(op_error(
            ctx,
            op,
            format!(
                "source shape {} must be the number of windows {} (C2)",
                list(&src),
                list(&windows)
            ),
        ));
    }
    let e = scalar_of(ctx, ctx.value_type(ops[0]));
    let i1 = scalar_of(ctx, ctx.int_type(1));
    region_type(ctx, op, 0, &[e, e], &[i1], "C9")?;
    region_type(ctx, op, 1, &[e, e], &[e], "C10")?;
    Ok(())
}

fn sort(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    if ops.is_empty() {
        return Err(op_error(ctx, op, "expects at least one input (C1)"));
    }
    let tys: Vec<Type> = ops.iter().map(|v| ctx.value_type(*v)).collect();
    results_are(ctx, op, &tys, "C2")?;
    let shapes: Vec<Vec<i64>> = ops.iter().filter_map(|v| shape(ctx, *v)).collect();
    if shapes.windows(2).any(|w| !dims_compatible(&w[0], &w[1])) {
        return Err(op_error(
            ctx,
            op,
            "requires the same shape for all inputs (C3)",
        ));
    }
    let rank = shapes.first().map_or(0, Vec::len) as i64;
    let d = int_attr(ctx, op, "dimension").unwrap_or(-1);
    if d < -rank || d >= rank {
        return Err(op_error(
            ctx,
            op,
            format!("dimension {d} is out of range [{}, {rank}) (C4)", -rank),
        ));
    }
    let mut args = Vec::new();
    for t in &tys {
        let s = scalar_of(ctx, *t);
        args.push(s);
        args.push(s);
    }
    let i1 = scalar_of(ctx, ctx.int_type(1));
    region_type(ctx, op, 0, &args, &[i1], "C5")
}

#[cfg(test)]
mod trait_tests {
    use super::Traits;

    /// The ops that carry `SameOperandsAndResultElementType`: those MLIR's
    /// StableHLO gives the trait.
    #[test]
    fn same_element_type_ops() {
        use super::super::{BINARY_OPS, OTHER_OPS, UNARY_OPS};
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
