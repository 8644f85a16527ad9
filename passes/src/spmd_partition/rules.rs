//! Sharding rules: an op's dimensions grouped into factors, and the choice
//! of axes for each (see the pass's documentation).

use super::{Dist, Reduction, shards, static_shape};
use aic::dialect::Traits;
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;
use aic_dialects::sdy::Mesh;
use aic_dialects::stablehlo::attrs::DotDims;
use aic_dialects::stablehlo::structured::{DotGeneral, Reduce};
use aic_dialects::stablehlo::{BroadcastInDim, Concatenate, Reshape, Transpose};
use std::collections::HashSet;

/// What partitioning an op asks: each operand's axes per dimension, and
/// each result's layout.
pub(crate) struct Plan {
    pub operands: Vec<Vec<Vec<String>>>,
    pub results: Vec<Dist>,
}

/// One factor: the dimension it is in each operand and result (if any), its
/// size, and how it combines when it is in no result (a contraction or a
/// reduction).
#[derive(Debug)]
struct Factor {
    operands: Vec<Option<usize>>,
    results: Vec<Option<usize>>,
    size: i64,
    reduce: Option<Reduction>,
}

/// How a `reduce` body combines, if it is one binary op of its arguments.
fn reduction_of(ctx: &Context, op: Op) -> Option<Reduction> {
    let block = ctx.entry_block(*ctx.regions(op).first()?)?;
    let ops: Vec<Op> = ctx.block_ops(block).collect();
    let [inner, ret] = ops[..] else { return None };
    let args = ctx.block_args(block);
    if ctx.operands(inner) != args || ctx.operands(ret) != [ctx.result(inner, 0)] {
        return None;
    }
    Reduction::of_op(ctx, inner)
}

fn factors(ctx: &Context, op: Op, shapes: &[Vec<i64>], outs: &[Vec<i64>]) -> Option<Vec<Factor>> {
    let n = shapes.len();
    let spec = ctx.op_spec(op)?;
    let mut fs = Vec::new();
    let one = |operands: Vec<Option<usize>>, result: Option<usize>, size: i64| Factor {
        operands,
        results: vec![result],
        size,
        reduce: None,
    };
    if let Some(b) = BroadcastInDim::of(ctx, op) {
        let dims = b.broadcast_dimensions(ctx)?;
        let out = &outs[0];
        for (r, size) in out.iter().enumerate() {
            let from = dims
                .iter()
                .position(|d| *d as usize == r)
                .filter(|k| shapes[0][*k] == *size);
            fs.push(one(vec![from], Some(r), *size));
        }
    } else if let Some(t) = Transpose::of(ctx, op) {
        let perm = t.permutation(ctx)?;
        for (r, p) in perm.iter().enumerate() {
            fs.push(one(vec![Some(*p as usize)], Some(r), outs[0][r]));
        }
    } else if let Some(c) = Concatenate::of(ctx, op) {
        let dim = c.dimension(ctx)? as usize;
        for (r, size) in outs[0].iter().enumerate() {
            if r != dim {
                fs.push(one(vec![Some(r); n], Some(r), *size));
            }
        }
    } else if let Some(d) = DotGeneral::of(ctx, op) {
        let a = d.dot_dimension_numbers(ctx)?;
        let dd = DotDims::of(ctx, a)?;
        let (lhs, rhs) = (&shapes[0], &shapes[1]);
        let mut r = 0;
        for (l, rr) in dd.lhs_batch.iter().zip(&dd.rhs_batch) {
            fs.push(one(
                vec![Some(*l as usize), Some(*rr as usize)],
                Some(r),
                lhs[*l as usize],
            ));
            r += 1;
        }
        for k in 0..lhs.len() as i64 {
            if !dd.lhs_batch.contains(&k) && !dd.lhs_contract.contains(&k) {
                fs.push(one(vec![Some(k as usize), None], Some(r), lhs[k as usize]));
                r += 1;
            }
        }
        for k in 0..rhs.len() as i64 {
            if !dd.rhs_batch.contains(&k) && !dd.rhs_contract.contains(&k) {
                fs.push(one(vec![None, Some(k as usize)], Some(r), rhs[k as usize]));
                r += 1;
            }
        }
        for (l, rr) in dd.lhs_contract.iter().zip(&dd.rhs_contract) {
            fs.push(Factor {
                operands: vec![Some(*l as usize), Some(*rr as usize)],
                results: vec![None],
                size: lhs[*l as usize],
                reduce: Some(Reduction::Sum),
            });
        }
    } else if let Some(red) = Reduce::of(ctx, op) {
        // One input and its init value.
        if n != 2 || outs.len() != 1 {
            return None;
        }
        let dims = red.dimensions(ctx)?;
        let kind = reduction_of(ctx, op);
        let mut r = 0;
        for (k, size) in shapes[0].iter().enumerate() {
            if dims.contains(&(k as i64)) {
                fs.push(Factor {
                    operands: vec![Some(k), None],
                    results: vec![None],
                    size: *size,
                    reduce: kind,
                });
            } else {
                fs.push(one(vec![Some(k), None], Some(r), *size));
                r += 1;
            }
        }
    } else if spec.has(Traits::ELEMENTWISE)
        && matches!(spec.dialect(), "stablehlo" | "chlo")
        && outs.iter().all(|o| o.len() == outs[0].len())
    {
        let rank = outs.first()?.len();
        for d in 0..rank {
            fs.push(Factor {
                operands: shapes
                    .iter()
                    .map(|s| (s.len() == rank).then_some(d))
                    .collect(),
                results: vec![Some(d); outs.len()],
                size: outs[0][d],
                reduce: None,
            });
        }
    } else {
        return None;
    }
    Some(fs)
}

/// The groups of dimensions of a reshape from `a` to `b` whose sizes
/// multiply alike, each as its ranges of operand and result dimensions.
fn reshape_groups(
    a: &[i64],
    b: &[i64],
) -> Option<Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>> {
    if a.contains(&0) || b.contains(&0) {
        return None;
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < a.len() || j < b.len() {
        let (i0, j0) = (i, j);
        let (mut pa, mut pb) = (1i64, 1i64);
        if i < a.len() {
            pa = a[i];
            i += 1;
        }
        if j < b.len() {
            pb = b[j];
            j += 1;
        }
        while pa != pb {
            if pa < pb && i < a.len() {
                pa *= a[i];
                i += 1;
            } else if pb < pa && j < b.len() {
                pb *= b[j];
                j += 1;
            } else {
                return None;
            }
        }
        out.push((i0..i, j0..j));
    }
    Some(out)
}

fn reshape_plan(
    mesh: &Mesh,
    d: &Dist,
    out: &[i64],
    hints: &[Option<Vec<Vec<String>>>],
) -> Option<Plan> {
    let a = &d.global;
    let groups = reshape_groups(a, out)?;
    let mut want = vec![Vec::new(); a.len()];
    let mut res = vec![Vec::new(); out.len()];
    for (ra, rb) in groups {
        let Some(ma) = ra.clone().find(|k| a[*k] > 1) else {
            continue;
        };
        let Some(mb) = rb.clone().find(|k| out[*k] > 1) else {
            continue;
        };
        // The operand's axes, else what propagation found for either side.
        let hinted = [(0, ma), (1, mb)]
            .into_iter()
            .filter_map(|(k, dim)| Some(hints.get(k)?.as_ref()?[dim].clone()));
        let fits = |axes: &Vec<String>| {
            let k = shards(mesh, axes);
            !axes.is_empty() && a[ma] % k == 0 && out[mb] % k == 0
        };
        if let Some(axes) = std::iter::once(d.dims[ma].clone())
            .chain(hinted)
            .find(|axes| fits(axes))
        {
            want[ma] = axes.clone();
            res[mb] = axes;
        }
    }
    Some(Plan {
        operands: vec![want],
        results: vec![Dist {
            global: out.to_vec(),
            dims: res,
            partial: None,
        }],
    })
}

/// The factors of `op` for propagation (see [`super::propagate`]): per
/// factor, its dimension in each operand and then each result; and whether
/// the op passes shardings through unchanged (elementwise ops and reshapes,
/// which Shardy's op-priority propagation visits first). `None`: the op has
/// no rule (it runs replicated).
pub(crate) fn op_factors(ctx: &Context, op: Op) -> Option<(Vec<Vec<Option<usize>>>, bool)> {
    let ty = |v| static_shape(ctx, ctx.value_type(v));
    let shapes: Vec<Vec<i64>> = ctx
        .operands(op)
        .iter()
        .map(|v| ty(*v))
        .collect::<Option<_>>()?;
    let outs: Vec<Vec<i64>> = ctx.results(op).map(ty).collect::<Option<_>>()?;
    if !ctx.regions(op).is_empty() && !Reduce::is(ctx, op) {
        return None;
    }
    if Reshape::is(ctx, op) {
        let (a, b) = (shapes.first()?, outs.first()?);
        let groups = reshape_groups(a, b)?;
        let fs = groups
            .into_iter()
            .filter_map(|(ra, rb)| {
                let ma = ra.clone().find(|k| a[*k] > 1)?;
                let mb = rb.clone().find(|k| b[*k] > 1)?;
                Some(vec![Some(ma), Some(mb)])
            })
            .collect();
        return Some((fs, true));
    }
    let fs = factors(ctx, op, &shapes, &outs)?;
    let through = ctx.op_spec(op).is_some_and(|s| s.has(Traits::ELEMENTWISE));
    let table = fs
        .into_iter()
        .map(|f| f.operands.into_iter().chain(f.results).collect())
        .collect();
    Some((table, through))
}

/// The plan of `op` given its operands' layouts, or `None` to run it
/// replicated. `hints` are the propagated axes per dimension of each operand
/// and then each result (see [`super::propagate`]): a factor no operand
/// shards (and that is not a contraction or reduction) takes the first
/// hint's axes that are free and divide it.
pub(crate) fn plan(
    ctx: &Context,
    op: Op,
    mesh: &Mesh,
    dists: &[Dist],
    hints: &[Option<Vec<Vec<String>>>],
) -> Option<Plan> {
    let outs: Vec<Vec<i64>> = ctx
        .results(op)
        .map(|v| static_shape(ctx, ctx.value_type(v)))
        .collect::<Option<_>>()?;
    if Reshape::is(ctx, op) {
        return reshape_plan(mesh, &dists[0], &outs[0], hints);
    }
    let shapes: Vec<Vec<i64>> = dists.iter().map(|d| d.global.clone()).collect();
    let fs = factors(ctx, op, &shapes, &outs)?;
    let mut used: HashSet<String> = HashSet::new();
    let mut chosen: Vec<Vec<String>> = Vec::new();
    let mut partial: Option<(Vec<String>, Reduction)> = None;
    for f in &fs {
        let mut pick = Vec::new();
        for (k, dim) in f.operands.iter().enumerate() {
            let Some(d) = dim else { continue };
            let axes = &dists[k].dims[*d];
            if axes.is_empty()
                || axes.iter().any(|a| used.contains(a))
                || f.size % shards(mesh, axes) != 0
            {
                continue;
            }
            let reduces = f.results.iter().all(Option::is_none);
            if reduces {
                let Some(kind) = f.reduce else { continue };
                if partial.as_ref().is_some_and(|p| p.1 != kind) {
                    continue;
                }
            }
            pick = axes.clone();
            break;
        }
        used.extend(pick.iter().cloned());
        if !pick.is_empty() && f.results.iter().all(Option::is_none) {
            let kind = f.reduce.expect("checked above");
            let p = partial.get_or_insert_with(|| (Vec::new(), kind));
            p.0.extend(pick.iter().cloned());
        }
        chosen.push(pick);
    }
    // Factors no operand shards take what propagation found for them.
    for (f, pick) in fs.iter().zip(chosen.iter_mut()) {
        if !pick.is_empty() || f.results.iter().all(Option::is_none) {
            continue;
        }
        let dims = f.operands.iter().chain(&f.results);
        for (hint, dim) in hints.iter().zip(dims) {
            let (Some(h), Some(d)) = (hint, dim) else {
                continue;
            };
            let axes = &h[*d];
            if !axes.is_empty()
                && axes.iter().all(|a| !used.contains(a))
                && f.size % shards(mesh, axes) == 0
            {
                used.extend(axes.iter().cloned());
                *pick = axes.clone();
                break;
            }
        }
    }
    let operands = shapes
        .iter()
        .enumerate()
        .map(|(k, s)| {
            (0..s.len())
                .map(|d| {
                    fs.iter()
                        .zip(&chosen)
                        .find(|(f, _)| f.operands[k] == Some(d))
                        .map(|(_, c)| c.clone())
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect();
    let results = outs
        .iter()
        .enumerate()
        .map(|(r, s)| Dist {
            global: s.clone(),
            dims: (0..s.len())
                .map(|d| {
                    fs.iter()
                        .zip(&chosen)
                        .find(|(f, _)| f.results[r.min(f.results.len() - 1)] == Some(d))
                        .map(|(_, c)| c.clone())
                        .unwrap_or_default()
                })
                .collect(),
            partial: partial.clone(),
        })
        .collect();
    Some(Plan { operands, results })
}

#[cfg(test)]
mod tests {
    use super::reshape_groups;

    #[test]
    fn reshape_groups_pair_dimensions_whose_sizes_multiply_alike() {
        let g = reshape_groups(&[2, 8, 32], &[2, 8, 4, 8]).unwrap();
        assert_eq!(g, vec![(0..1, 0..1), (1..2, 1..2), (2..3, 2..4)]);
        let g = reshape_groups(&[2, 8, 4, 8], &[16, 32]).unwrap();
        assert_eq!(g, vec![(0..2, 0..1), (2..4, 1..2)]);
        let g = reshape_groups(&[1, 8], &[8]).unwrap();
        assert_eq!(g, vec![(0..2, 0..1)]);
        // One group: its major dimensions split alike when both divide.
        let g = reshape_groups(&[6, 4], &[4, 6]).unwrap();
        assert_eq!(g, vec![(0..2, 0..2)]);
    }
}
