//! `sparsify{pattern=2:4}`: the constant weights of graph matrix products
//! that are 2:4 sparse along the contracted dimension (at most two nonzeros
//! in every four consecutive elements of K, per output channel) are stored
//! compressed, as NVIDIA's sparse tensor cores take them: the two kept
//! values of each group (`[K/2, N]`, in the weight's type) and their
//! positions in the group (metadata, `[K/2, N]` of i8, 0 to 3).
//!
//! A weight that is not 2:4 is an error at its constant, naming the first
//! group with more than two nonzeros, unless `prune=true`: then the two
//! largest magnitudes of each group are kept and the report (`report=true`)
//! tells how many elements were pruned and the relative norm they carried.
//!
//! The product becomes a `graph.sparse_matmul` of the activations with the
//! compressed weight, stored as `[N, K/2]` (`transpose_b`) whatever the
//! weight's layout: NVIDIA's sparse MMA takes the sparse operand as A,
//! row-major M x K with 2:4 along K, and W^T (N x K) is that operand, so a
//! tensor-core GEMM computes `C^T = W^T . X^T` reading the stored rows as
//! they are (X, row-major `[M, K]`, is B in `.col` layout as it stands).
//! Transposing a constant at compile time costs nothing at run time.
//!
//! [`expand_sparse_matmuls`] is the dense path: `eqsat-fusion` runs it first,
//! so until the GEMM generator lowers the op to `mma.sp` the compressed
//! weight is expanded before a dense `graph.matmul` (the program stores the
//! compressed form; it does not yet run faster).

use aic::interp::{Tensor, attr_of_tensor, tensor_of_attr};
use aic::ir::{Builder, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;
use aic_dialects::graph;
use aic_dialects::stablehlo::ComparisonDirection;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "sparsify",
    name: "Sparsify",
    summary: "Store 2:4-sparse constant matmul weights as values and metadata (pruning only when asked)",
    anchor: None,
    options: &[
        OptSpec {
            name: "pattern",
            kind: OptKind::Enum(&["2:4"]),
            default: "2:4",
            range: None,
            help: "The structured sparsity: 2:4 (two nonzeros in every four along K)",
        },
        OptSpec {
            name: "prune",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Prune weights that are not 2:4 (keep the two largest magnitudes of each group) instead of reporting an error",
        },
        OptSpec {
            name: "min-elements",
            kind: OptKind::UInt,
            default: "4096",
            range: Some((1, i64::MAX)),
            help: "Leave weights with fewer elements dense",
        },
        OptSpec {
            name: "report",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Print each compressed weight (and what was pruned) to standard error",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(Sparsify {
            prune: o.bool("prune"),
            min_elements: o.int("min-elements") as usize,
            report: o.bool("report"),
        })
    },
};

struct Sparsify {
    prune: bool,
    min_elements: usize,
    report: bool,
}

/// A weight compressed to 2:4.
#[derive(Debug, PartialEq)]
pub struct Compressed {
    /// The two kept values of each group, `[K/2, N]` row-major (group `g`'s
    /// two at rows `2g` and `2g + 1`).
    pub values: Vec<f64>,
    /// Their positions in the group, `[K/2, N]`.
    pub meta: Vec<i64>,
    /// Elements pruned (nonzeros dropped).
    pub pruned: usize,
    /// The norm of what was pruned relative to the weight's.
    pub pruned_norm: f64,
}

/// Compress `w` (`[k, n]` row-major, groups of four along k) to 2:4; with
/// `prune`, the two largest magnitudes of a group with more nonzeros are
/// kept, else such a group is `Err((row, column, nonzeros))`.
pub fn compress_2_4(
    w: &[f64],
    k: usize,
    n: usize,
    prune: bool,
) -> Result<Compressed, (usize, usize, usize)> {
    let mut values = vec![0.0; k / 2 * n];
    let mut meta = vec![0i64; k / 2 * n];
    let (mut pruned, mut lost, mut total) = (0usize, 0.0f64, 0.0f64);
    for g in 0..k / 4 {
        for c in 0..n {
            let at = |p: usize| w[(4 * g + p) * n + c];
            let nonzero: Vec<usize> = (0..4).filter(|p| at(*p) != 0.0).collect();
            total += (0..4).map(|p| at(p) * at(p)).sum::<f64>();
            let mut keep: Vec<usize> = if nonzero.len() <= 2 {
                nonzero.clone()
            } else if prune {
                let mut by: Vec<usize> = nonzero.clone();
                // Largest magnitudes first; the lower position on a tie.
                by.sort_by(|a, b| at(*b).abs().total_cmp(&at(*a).abs()).then(a.cmp(b)));
                for p in &by[2..] {
                    pruned += 1;
                    lost += at(*p) * at(*p);
                }
                by.truncate(2);
                by
            } else {
                return Err((4 * g, c, nonzero.len()));
            };
            // Two distinct positions, in order (a zero fills in).
            for p in 0..4 {
                if keep.len() < 2 && !keep.contains(&p) {
                    keep.push(p);
                }
            }
            keep.sort_unstable();
            for (j, p) in keep.iter().enumerate() {
                values[(2 * g + j) * n + c] = at(*p);
                meta[(2 * g + j) * n + c] = *p as i64;
            }
        }
    }
    let pruned_norm = if total > 0.0 {
        (lost / total).sqrt()
    } else {
        0.0
    };
    Ok(Compressed {
        values,
        meta,
        pruned,
        pruned_norm,
    })
}

impl Sparsify {
    /// Compress the weight of `mm` if it qualifies; its report line.
    fn weight(
        &self,
        ctx: &mut Context,
        mm: graph::Matmul,
    ) -> Result<Option<String>, aic::Diagnostic> {
        let rhs = mm.rhs(ctx);
        if mm.transpose_a(ctx).is_some() {
            return Ok(None);
        }
        let Some(c) = graph::Constant::defining(ctx, rhs) else {
            return Ok(None);
        };
        let ty = ctx.value_type(rhs);
        let (shape, elem) = match ctx.type_kind(ty) {
            TypeKind::Tensor { shape, elem, .. }
                if matches!(ctx.type_kind(*elem), TypeKind::Float(_)) =>
            {
                (shape.to_vec(), *elem)
            }
            _ => return Ok(None),
        };
        let [rows, cols] = shape[..] else {
            return Ok(None);
        };
        let tb = mm.transpose_b(ctx).is_some();
        // Groups run along K: rows of [K, N], columns of a transposed [N, K].
        let (k, n) = if tb {
            (cols as usize, rows as usize)
        } else {
            (rows as usize, cols as usize)
        };
        if k * n < self.min_elements || k % 4 != 0 {
            return Ok(None);
        }
        let u = ctx.uniquer().clone();
        let Some(value) = graph::CONSTANT.attr(ctx, c.op(), "value") else {
            return Ok(None);
        };
        let Some(t) = tensor_of_attr(&u, value, ty) else {
            return Ok(None);
        };
        let mut w = t.to_f64s();
        if tb {
            // As [K, N].
            w = (0..k * n).map(|i| w[(i % n) * k + i / n]).collect();
        }
        let z = match compress_2_4(&w, k, n, self.prune) {
            Ok(z) => z,
            Err((row, col, nz)) => {
                let (r, c2) = if tb { (col, row) } else { (row, col) };
                return Err(op_error(
                    ctx,
                    c.op(),
                    format!(
                        "weight is not 2:4 sparse: the group of K elements {row}..{} of output channel {col} (from element [{r}, {c2}]) has {nz} nonzeros (sparsify{{prune=true}} keeps the two largest)",
                        row + 4,
                    ),
                ));
            }
        };
        let loc = ctx.op(mm.op()).loc;
        let i8t = u.int_type(8);
        let (k2, n) = (k as i64 / 2, n as i64);
        // Stored as [N, K/2] whatever the weight's layout: the rows of W^T,
        // 2:4 along K, which is what `mma.sp`'s sparse operand A reads.
        let tr = |x: &[f64]| -> Vec<f64> {
            (0..(k2 * n) as usize)
                .map(|i| x[(i % k2 as usize) * n as usize + i / k2 as usize])
                .collect()
        };
        let m: Vec<f64> = z.meta.iter().map(|x| *x as f64).collect();
        let (vals, meta) = (
            tr(&z.values),
            tr(&m).iter().map(|x| *x as i64).collect::<Vec<_>>(),
        );
        let stored = [n, k2];
        let vty = u.tensor_type(&stored, elem);
        let mty = u.tensor_type(&stored, i8t);
        let vattr = attr_of_tensor(&u, &Tensor::from_f64s(&u, vty, vals));
        let mattr = attr_of_tensor(&u, &Tensor::from_i64s(&u, mty, meta));
        let out = ctx.result(mm.op(), 0);
        let rty = ctx.value_type(out);
        let lhs = mm.lhs(ctx);
        let mut b = Builder::before(ctx, mm.op());
        b.loc = loc;
        let v = graph::Constant::build(&mut b, vattr, vty).result(b.ctx);
        let m = graph::Constant::build(&mut b, mattr, mty).result(b.ctx);
        let unit = u.attr(aic::attributes::AttrKind::Unit);
        let y = graph::SparseMatmul::build(&mut b, lhs, v, m, Some(unit), rty).result(b.ctx);
        ctx.replace_all_uses(out, y);
        ctx.erase_op(mm.op());
        if ctx.uses(rhs).is_empty() {
            ctx.erase_op(c.op());
        }
        Ok(Some(format!(
            "sparsify: {rows}x{cols} weight of a matmul compressed to 2:4 ({}x{} values and metadata); {} elements pruned ({:.3e} of its norm)",
            stored[0], stored[1], z.pruned, z.pruned_norm
        )))
    }
}

/// The dense fallback of `graph.sparse_matmul` (for targets and shapes the
/// sparse tensor-core path does not take): the weight expanded before a
/// `graph.matmul`, for each position `p` of a group
/// `select(meta0 == p, value0, select(meta1 == p, value1, 0))` (an
/// elementwise kernel of its own, not the GEMM's prologue).
pub fn expand_sparse_matmuls(ctx: &mut Context, root: Op) -> bool {
    let mut found = Vec::new();
    ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
        if let Some(s) = graph::SparseMatmul::of(ctx, op) {
            found.push(s);
        }
    });
    let changed = !found.is_empty();
    for s in found {
        expand_one(ctx, s);
    }
    changed
}

fn expand_one(ctx: &mut Context, sm: graph::SparseMatmul) {
    let u = ctx.uniquer().clone();
    let (x, v, m) = (sm.lhs(ctx), sm.values(ctx), sm.meta(ctx));
    let tb = sm.transpose_b(ctx).is_some();
    let vt = ctx.value_type(v);
    let (stored, elem) = match ctx.type_kind(vt) {
        TypeKind::Tensor { shape, elem, .. } => (shape.to_vec(), *elem),
        _ => return,
    };
    let (k2, n) = if tb {
        (stored[1], stored[0])
    } else {
        (stored[0], stored[1])
    };
    let kq = k2 / 2;
    let ty = if tb {
        u.tensor_type(&[n, 2 * k2], elem)
    } else {
        u.tensor_type(&[2 * k2, n], elem)
    };
    let i8t = u.int_type(8);
    let i1t = u.int_type(1);
    let out = ctx.result(sm.op(), 0);
    let rty = ctx.value_type(out);
    let loc = ctx.op(sm.op()).loc;
    // Groups as [K/4, 2, N] (or [N, K/4, 2]), expanded to [K/4, 4, N].
    let (grouped, one, four, axis): (Vec<i64>, Vec<i64>, Vec<i64>, usize) = if tb {
        (vec![n, kq, 2], vec![n, kq, 1], vec![n, kq, 4], 2)
    } else {
        (vec![kq, 2, n], vec![kq, 1, n], vec![kq, 4, n], 1)
    };
    let mut b = Builder::before(ctx, sm.op());
    b.loc = loc;
    let v = graph::Reshape::build(&mut b, v, u.tensor_type(&grouped, elem)).result(b.ctx);
    let m = graph::Reshape::build(&mut b, m, u.tensor_type(&grouped, i8t)).result(b.ctx);
    let all: Vec<i64> = (0..3).collect();
    let part = |b: &mut Builder<'_>, x: Value, j: i64, e: Type| -> Value {
        let mut start = vec![0i64; 3];
        let mut limit = grouped.clone();
        start[axis] = j;
        limit[axis] = j + 1;
        let s = graph::Slice::build(
            b,
            x,
            u.i64_array(&start),
            u.i64_array(&limit),
            u.i64_array(&[1, 1, 1]),
            u.tensor_type(&one, e),
        )
        .result(b.ctx);
        graph::Broadcast::build(b, s, u.i64_array(&all), u.tensor_type(&four, e)).result(b.ctx)
    };
    let (v0, v1) = (part(&mut b, v, 0, elem), part(&mut b, v, 1, elem));
    let (m0, m1) = (part(&mut b, m, 0, i8t), part(&mut b, m, 1, i8t));
    let dim = u.attr(aic::AttrKind::Integer {
        value: axis as i128,
        ty: u.int_type(64),
    });
    let pos = graph::Iota::build(&mut b, dim, u.tensor_type(&four, i8t)).result(b.ctx);
    let fty = u.tensor_type(&four, elem);
    let zero = attr_of_tensor(
        &u,
        &Tensor::from_f64s(&u, fty, std::iter::repeat_n(0.0, (4 * kq * n) as usize)),
    );
    let zero = graph::Constant::build(&mut b, zero, fty).result(b.ctx);
    let bty = u.tensor_type(&four, i1t);
    let eq = ComparisonDirection::Eq.attr(&u);
    let at1 = graph::Compare::build(&mut b, m1, pos, eq, bty).result(b.ctx);
    let at0 = graph::Compare::build(&mut b, m0, pos, eq, bty).result(b.ctx);
    let w1 = graph::Select::build(&mut b, at1, v1, zero, fty).result(b.ctx);
    let w0 = graph::Select::build(&mut b, at0, v0, w1, fty).result(b.ctx);
    let dense = graph::Reshape::build(&mut b, w0, ty).result(b.ctx);
    let unit = u.attr(aic::attributes::AttrKind::Unit);
    let y = graph::Matmul::build(&mut b, x, dense, None, tb.then_some(unit), rty).result(b.ctx);
    ctx.replace_all_uses(out, y);
    ctx.erase_op(sm.op());
}

impl Pass for Sparsify {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, aic::Diagnostic> {
        crate::quantize::rewrite_matmuls(ctx, root, self.report, &mut |ctx, mm| {
            self.weight(ctx, mm)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [8, 2]: column 0 is 2:4, column 1 has three nonzeros in its first group.
    const W: [f64; 16] = [
        0.0, 1.0, //
        2.0, -3.0, //
        0.0, 0.5, //
        -4.0, 0.0, //
        5.0, 0.0, //
        0.0, 0.0, //
        0.0, 6.0, //
        0.0, 0.0, //
    ];

    #[test]
    fn two_four_weights_compress_and_others_need_pruning() {
        assert_eq!(compress_2_4(&W, 8, 2, false), Err((0, 1, 3)));
        let z = compress_2_4(&W, 8, 2, true).expect("pruned");
        // Column 1, group 0: 1.0, -3.0, 0.5 -> keeps -3.0 (pos 1) and 1.0 (pos 0).
        assert_eq!(z.values, vec![2.0, 1.0, -4.0, -3.0, 5.0, 0.0, 0.0, 6.0]);
        assert_eq!(z.meta, vec![1, 0, 3, 1, 0, 0, 1, 2]);
        assert_eq!(z.pruned, 1);
        assert!((z.pruned_norm - (0.25f64 / 91.25).sqrt()).abs() < 1e-12);
        // Expanding gives the pruned weight.
        for g in 0..2 {
            for c in 0..2 {
                for p in 0..4 {
                    let mut x = 0.0;
                    for j in 0..2 {
                        if z.meta[(2 * g + j) * 2 + c] == p as i64 {
                            x = z.values[(2 * g + j) * 2 + c];
                        }
                    }
                    let want = if (g, c, p) == (0, 1, 2) {
                        0.0
                    } else {
                        W[(4 * g + p) * 2 + c]
                    };
                    assert_eq!(x, want, "group {g} column {c} position {p}");
                }
            }
        }
    }
}
