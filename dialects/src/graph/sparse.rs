//! `graph.sparse_matmul`: a matrix product whose weight is 2:4 sparse along
//! the contracted dimension K and stored compressed, as `sparsify` leaves it
//! and NVIDIA's sparse tensor cores (`mma.sp`) read it: the two kept values of
//! each group of four (`values`, `[K/2, N]`, or `[N, K/2]` with `transpose_b`)
//! and their positions in the group (`meta`, the same shape, `i8` 0 to 3, the
//! two of a group in increasing order: the only index pairs `mma.sp` takes).
//!
//! Its meaning (the interpreter) is the dense product with the expanded
//! weight; [`expand`] is that weight, one home for what a group means, which
//! `sparsify`'s dense fallback and the host emulation of `mma.sp` agree with.

use super::interp::single;
use super::op;
use super::shapes::{Query, Shapes};
use crate::kernels::{DotDims, dot, result_elem};
use crate::stablehlo::TENSOR;
use aic::dialect::{OpSpec, ac};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::Op;
use aic::op_def::OpHandle;
use aic::types::DYNAMIC;

aic::op! {
    /// `graph.sparse_matmul`: `[..., M, K] x 2:4([K, N]) -> [..., M, N]`, the
    /// weight given compressed as `values` and `meta` (`[K/2, N]` each, or
    /// `[N, K/2]` with `transpose_b`; `meta` of `i8`).
    pub SparseMatmul = SPARSE_MATMUL {
        operands: [lhs: one(TENSOR), values: one(TENSOR), meta: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [
            transpose_b: optional(ac::UNIT) as bool,
        ],
        spec: OpSpec {
            format: Some(
                "$lhs `,` $values `,` $meta (`transpose_b` $transpose_b^)? attr-dict `:` functional-type(operands, results)",
            ),
            interpret: Some(interpret),
            ..op(
                "graph.sparse_matmul",
                "matrix product with a 2:4-sparse weight stored as values and metadata",
            )
        },
    }
}

/// The shape rule: `[..., M, K] x [K/2, N] x [K/2, N] -> [..., M, N]` (the
/// weight's two operands `[N, K/2]` with `transpose_b`), K a multiple of 4.
pub fn shapes(q: &Query<'_>, shapes: &[Vec<i64>]) -> Shapes {
    let (a, v, m) = (&shapes[0], &shapes[1], &shapes[2]);
    if a.len() < 2 {
        return Err("lhs must have rank at least 2".into());
    }
    if v.len() != 2 || m.len() != 2 {
        return Err("values and metadata must have rank 2".into());
    }
    if v != m {
        return Err(format!(
            "values [{}] and metadata [{}] must have one shape",
            join(v),
            join(m)
        ));
    }
    let (half, n) = if q.has("transpose_b") {
        (v[1], v[0])
    } else {
        (v[0], v[1])
    };
    let k = a[a.len() - 1];
    if k != DYNAMIC && k % 4 != 0 {
        return Err(format!(
            "contracted dimension {k} must be a multiple of 4 (2:4 groups)"
        ));
    }
    if k != DYNAMIC && half != DYNAMIC && half * 2 != k {
        return Err(format!(
            "values hold {half} rows of the contracted dimension, not half of {k}"
        ));
    }
    let mut r = a[..a.len() - 1].to_vec();
    r.push(n);
    Ok(Some(vec![r]))
}

fn join(s: &[i64]) -> String {
    s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// The dense `[K, N]` weight of compressed `values` and `meta` (`[K/2, N]`
/// row-major; rows `2g` and `2g + 1` are group `g`'s two), or the first
/// `(row, column)` whose pair of positions is not two increasing ones in 0..4.
pub fn expand(
    values: &[f64],
    meta: &[i64],
    k: usize,
    n: usize,
) -> Result<Vec<f64>, (usize, usize)> {
    let mut w = vec![0.0; k * n];
    for g in 0..k / 4 {
        for c in 0..n {
            let (p0, p1) = (meta[2 * g * n + c], meta[(2 * g + 1) * n + c]);
            if !(0 <= p0 && p0 < p1 && p1 < 4) {
                return Err((2 * g, c));
            }
            w[(4 * g + p0 as usize) * n + c] = values[2 * g * n + c];
            w[(4 * g + p1 as usize) * n + c] = values[(2 * g + 1) * n + c];
        }
    }
    Ok(w)
}

/// The interpreter: the dense product with the expanded weight.
fn interpret(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let er = result_elem(ctx, op, 0)?;
    let (x, v, m) = (&args[0], &args[1], &args[2]);
    let tb = SparseMatmul::of(ctx, op).is_some_and(|s| s.transpose_b(ctx).is_some());
    let (half, n) = if tb {
        (v.shape[1] as usize, v.shape[0] as usize)
    } else {
        (v.shape[0] as usize, v.shape[1] as usize)
    };
    let k = 2 * half;
    let (mut vals, mut meta) = (v.to_f64s(), m.to_i64s());
    if tb {
        vals = (0..half * n)
            .map(|i| vals[(i % n) * half + i / n])
            .collect();
        meta = (0..half * n)
            .map(|i| meta[(i % n) * half + i / n])
            .collect();
    }
    let w = expand(&vals, &meta, k, n).map_err(|(r, c)| {
        let (r, c) = if tb { (c, r) } else { (r, c) };
        InterpError::at(
            op,
            format!(
                "metadata at [{r}, {c}] and the next row of its group are not two increasing positions in 0..4"
            ),
        )
    })?;
    let wty = ctx.uniquer().ty(aic::types::TypeKind::Tensor {
        shape: [k as i64, n as i64].into_iter().collect(),
        elem: crate::stablehlo::verify::elem(ctx, v.ty),
        encoding: None,
    });
    let wt = Tensor::from_f64s(ctx.uniquer(), wty, w);
    let la = x.shape.len() as i64;
    let d = DotDims {
        lhs_batch: vec![],
        rhs_batch: vec![],
        lhs_contract: vec![la - 1],
        rhs_contract: vec![0],
    };
    single(ctx, op, dot(ctx, x, &wt, &d, er))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_places_each_value_at_its_position() {
        // K = 8, N = 1: group 0 keeps positions 1, 3; group 1 keeps 0, 2.
        let w = expand(&[5.0, 6.0, 7.0, 8.0], &[1, 3, 0, 2], 8, 1).expect("valid");
        assert_eq!(w, vec![0.0, 5.0, 0.0, 6.0, 7.0, 0.0, 8.0, 0.0]);
        // Positions must increase within a group, and stay below 4.
        assert_eq!(expand(&[1.0, 2.0], &[2, 2], 4, 1), Err((0, 0)));
        assert_eq!(expand(&[1.0, 2.0], &[3, 1], 4, 1), Err((0, 0)));
        assert_eq!(expand(&[1.0, 2.0], &[0, 4], 4, 1), Err((0, 0)));
    }
}
