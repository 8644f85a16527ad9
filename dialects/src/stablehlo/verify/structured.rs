//! The verifiers of the structured ops: `dot_general`, `convolution`,
//! `gather`, `scatter`, `dynamic_slice`, the window ops and `sort`.

use super::*;
use crate::stablehlo::attrs::{ConvDims, DotDims, GatherDims, ScatterDims};

/// `dot_general`.
pub fn dot_general(ctx: &Context, op: Op) -> R<()> {
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

/// `convolution`.
pub fn convolution(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let (Some(l), Some(k)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
        return Ok(());
    };
    let Some(d) = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "dimension_numbers"))
        .and_then(|a| ConvDims::of(ctx, a))
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

/// `gather`.
pub fn gather(ctx: &Context, op: Op) -> R<()> {
    let ops = ctx.operands(op);
    let (Some(a), Some(ind)) = (shape(ctx, ops[0]), shape(ctx, ops[1])) else {
        return Ok(());
    };
    let Some(d) = ctx
        .op_spec(op)
        .and_then(|s| s.attr(ctx, op, "dimension_numbers"))
        .and_then(|x| GatherDims::of(ctx, x))
    else {
        return Err(op_error(
            ctx,
            op,
            "malformed dimension_numbers (expected #stablehlo.gather<...>)",
        ));
    };
    let (r, ir) = (a.len(), ind.len());
    let collapsed_batch = gather_dims_in_range(ctx, op, d, r, &ind)?;
    let sizes = i64_array_attr(ctx, op, "slice_sizes").unwrap_or_default();
    gather_slice_sizes(ctx, op, &sizes, &a, &collapsed_batch)?;
    let ivd = d.index_vector_dim;
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

/// `gather`'s dimension numbers against the operand rank `r` and the start
/// indices' shape (C1-C4, C6, C8, C11, C14-C16, C18, C19); the collapsed and
/// operand batching dimensions.
fn gather_dims_in_range(
    ctx: &Context,
    op: Op,
    d: &GatherDims,
    r: usize,
    ind: &[i64],
) -> R<Vec<i64>> {
    let ir = ind.len();
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
    Ok(collapsed_batch)
}

/// `gather`'s slice sizes against the operand shape `a` (C9, C12, C20, C21).
fn gather_slice_sizes(
    ctx: &Context,
    op: Op,
    sizes: &[i64],
    a: &[i64],
    collapsed_batch: &[i64],
) -> R<()> {
    let r = a.len();
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
    for c in collapsed_batch {
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
    Ok(())
}

/// `scatter`.
pub fn scatter(ctx: &Context, op: Op) -> R<()> {
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
        .and_then(|x| ScatterDims::of(ctx, x))
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

/// `dynamic_slice`.
pub fn dynamic_slice(ctx: &Context, op: Op) -> R<()> {
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

/// `reduce_window`.
pub fn reduce_window(ctx: &Context, op: Op) -> R<()> {
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

/// `select_and_scatter`.
pub fn select_and_scatter(ctx: &Context, op: Op) -> R<()> {
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

/// `sort`.
pub fn sort(ctx: &Context, op: Op) -> R<()> {
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
