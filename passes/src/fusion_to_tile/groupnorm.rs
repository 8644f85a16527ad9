//! The group-norm generator: a `graph.groupnorm` with an elementwise
//! prologue on its input and an elementwise epilogue, as two kernels over
//! the groups' elements split into chunks.
//!
//! A group of a batch element is a row of `S·C/G` elements (`S` the
//! positions), read through a view that puts the group's channels of every
//! position side by side (`[N, S, G, C/G]` transposed to `[N, G, S, C/G]`).
//! One block per row would leave a GPU mostly idle (Stable Diffusion's 64
//! rows of 40,960 elements) and each element of a row must wait for the
//! row's statistics, so:
//!
//! 1. `groupnorm_K_stats`, a grid of rows x chunks: each block reduces one
//!    chunk of a row to its mean and its sum of squared deviations from that
//!    mean (two passes over registers), stored as partials `[parts, rows]`;
//! 2. `groupnorm_K`, the same grid: each block combines its row's partials
//!    (Chan's parallel variance: the mean of the chunk means, and the chunks'
//!    squared deviations plus `chunk · Σ (mean_i - mean)²`), then normalises
//!    its chunk, scales and shifts each channel, applies the epilogue and
//!    stores it.
//!
//! Chunks divide the row exactly, so every partial counts the same number of
//! elements.

use super::*;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::{graph, math};

/// The most elements of a row one block normalises (a divisor of the row
/// at most this, and at least [`MIN_CHUNK`], is taken).
const CHUNK: i64 = 2048;

/// The fewest elements of a chunk worth a block of their own.
const MIN_CHUNK: i64 = 256;

/// The chunk rows of `n` elements are split into: the largest divisor of
/// `n` in `[MIN_CHUNK, CHUNK]`, or the whole row.
fn chunk_of(n: i64) -> i64 {
    if n <= CHUNK {
        return n;
    }
    (MIN_CHUNK..=CHUNK).rev().find(|d| n % d == 0).unwrap_or(n)
}

/// Lower a group holding one `graph.groupnorm` (its input possibly computed
/// by elementwise ops and views of group inputs, its result possibly
/// followed by an elementwise epilogue) as the two kernels above.
pub(super) fn groupnorm(
    ctx: &mut Context,
    group: Op,
    func: Op,
    n_kernel: usize,
) -> Result<(), Skip> {
    let body = Body::of(ctx, group)?;
    let ops = &body.ops;
    let gn = ops
        .iter()
        .find_map(|o| graph::Groupnorm::of(ctx, *o))
        .ok_or(NOT_MINE)?;
    if ctx.results(group).count() != 1 {
        return Err("a group norm with several results".into());
    }
    let known = body.known();
    let mut taken = vec![gn.op()];
    let x0 = gn.x(ctx);
    let full = shape(ctx, x0);
    let r = full.len();
    let groups = gn.groups(ctx).unwrap_or(0);
    let &c = full.last().ok_or("a scalar input")?;
    if r < 2 || groups <= 0 || c % groups != 0 {
        return Err("a group norm whose groups do not divide its channels".into());
    }
    let x = operand(ctx, x0, known, &mut taken)?;
    // Scale and shift, vectors of the channels, read along the last dim.
    let mut param = |v: Value| -> Result<Operand, Skip> {
        if shape(ctx, v) != [c] {
            return Err("a group norm's scale or shift is not a vector of its channels".into());
        }
        let mut o = operand(ctx, v, known, &mut taken)?;
        o.compose(&Desc::broadcast(&[c], &full, &[r - 1]))?;
        Ok(o)
    };
    let gamma = param(gn.gamma(ctx))?;
    let beta = param(gn.beta(ctx))?;
    let (epi, _, cur, used) =
        read_chain(ctx, ops, gn.result(ctx), known, &full, false, &mut taken)?;
    if used < ops.len() {
        return Err(format!("{} is not an epilogue op", ctx.op_name(ops[used])));
    }
    if let Some(o) = ops.iter().find(|o| !taken.contains(o)) {
        return Err(format!(
            "{} is neither prologue, group norm nor epilogue",
            ctx.op_name(*o)
        ));
    }
    if shape(ctx, cur) != full {
        return Err("an epilogue that changes the group norm's shape".into());
    }
    let eps = graph::interp::epsilon(ctx, gn.epsilon(ctx));
    let calc = compute_elem(ctx, float_elem(ctx, ctx.value_type(x0))?);
    let elem = storage_elem(ctx, cur);
    let out_ty = ctx.value_type(cur);

    // Rows of the groups' elements: [N, S, G, C/G] -> [N, G, S, C/G].
    let (batch, cg) = (full[0], c / groups);
    let s: i64 = full[1..r - 1].iter().product();
    let (rows_n, n) = (batch * groups, s * cg);
    let err = |e: String| -> Skip { e };
    let as_rows = Desc::reshape(&full, &[batch, s, groups, cg])
        .compose(&Desc::transpose(&[batch, s, groups, cg], &[0, 2, 1, 3]))
        .and_then(|d| d.compose(&Desc::reshape(&[batch, groups, s, cg], &[rows_n, n])))
        .map_err(err)?;
    let chunk = chunk_of(n);
    let parts = n / chunk;
    let grid = [rows_n, parts];

    let u = ctx.uniquer().clone();
    let loc = ctx.op(group).loc;
    let part_ty = u.ty(TypeKind::Tensor {
        shape: vec![parts, rows_n].into(),
        elem: calc,
        encoding: None,
    });
    let one_t = tile::plain_tile(&u, vec![1], calc, Space::Register);
    let row_t = tile::plain_tile(&u, vec![1, chunk], calc, Space::Register);
    let tile_shape = [1, chunk];

    // 1. Each chunk's mean and squared deviations from it.
    let (kb, bufs) = kernel_block(ctx, group, &[part_ty, part_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let (mean_buf, dev_buf) = (bufs[bufs.len() - 2], bufs[bufs.len() - 1]);
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let r0 = block_start(&mut e, 0, 1);
    let c0 = block_start(&mut e, 1, chunk);
    let at = [r0, c0];
    let tile_at = At {
        bufs: &buf,
        view: &as_rows,
        at: &at,
        shape: &tile_shape,
        calc,
    };
    let v = tile_at.read(&mut e, &x);
    let sum = reduce_rows(&mut e, v, tile::ReduceKind::Sum, one_t);
    let inv_chunk = 1.0 / chunk as f64;
    let mean = map(&mut e, &[sum], one_t, calc, &mut |b, a| {
        let k = ab::number(b, inv_chunk, calc);
        ab::binary::<arith::MulF>(b, a[0], k)
    });
    let mb = spread(&mut e, mean, row_t, &[0]);
    let sq = map(&mut e, &[v, mb], row_t, calc, &mut |b, a| {
        let d = ab::binary::<arith::SubF>(b, a[0], a[1]);
        ab::binary::<arith::MulF>(b, d, d)
    });
    let dev = reduce_rows(&mut e, sq, tile::ReduceKind::Sum, one_t);
    let j = program_id(&mut e, 1);
    let parts_desc = Desc::row_major(&[parts, rows_n]);
    for (t, b) in [(mean, mean_buf), (dev, dev_buf)] {
        store(&mut e, t, b, &[j, r0], &[1], &parts_desc, calc, calc);
    }
    ret(&mut e);
    let stats = format!("groupnorm_{n_kernel}_stats");
    let (kb, args) = prune(ctx, group, kb);
    add_kernel(ctx, func, kb, &stats, &grid, loc);
    let l1 = add_launch(ctx, group, &args, &stats, &[part_ty, part_ty], loc);
    let (means, devs) = (ctx.result(l1, 0), ctx.result(l1, 1));

    // 2. The row's statistics from its partials; the chunk normalised,
    // scaled, shifted, through the epilogue, stored.
    let (kb, bufs) = kernel_block(ctx, group, &[part_ty, part_ty, out_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let k = bufs.len();
    let (mean_buf, dev_buf, out_buf) = (bufs[k - 3], bufs[k - 2], bufs[k - 1]);
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let r0 = block_start(&mut e, 0, 1);
    let c0 = block_start(&mut e, 1, chunk);
    let zero = ab::index(&mut e, 0);
    let at = [r0, c0];
    let tile_at = At {
        bufs: &buf,
        view: &as_rows,
        at: &at,
        shape: &tile_shape,
        calc,
    };
    let as_parts = Desc::transpose(&[parts, rows_n], &[1, 0]);
    let parts_t = tile::plain_tile(&u, vec![1, parts], calc, Space::Register);
    let pm = load(&mut e, mean_buf, &[r0, zero], &[1, parts], &as_parts, calc);
    let pd = load(&mut e, dev_buf, &[r0, zero], &[1, parts], &as_parts, calc);
    let inv_parts = 1.0 / parts as f64;
    let sm = reduce_rows(&mut e, pm, tile::ReduceKind::Sum, one_t);
    let mean = map(&mut e, &[sm], one_t, calc, &mut |b, a| {
        let k = ab::number(b, inv_parts, calc);
        ab::binary::<arith::MulF>(b, a[0], k)
    });
    let mb = spread(&mut e, mean, parts_t, &[0]);
    let spread_sq = map(&mut e, &[pm, mb], parts_t, calc, &mut |b, a| {
        let d = ab::binary::<arith::SubF>(b, a[0], a[1]);
        ab::binary::<arith::MulF>(b, d, d)
    });
    let between = reduce_rows(&mut e, spread_sq, tile::ReduceKind::Sum, one_t);
    let within = reduce_rows(&mut e, pd, tile::ReduceKind::Sum, one_t);
    let (chunk_f, inv_n) = (chunk as f64, 1.0 / n as f64);
    let rstd = map(&mut e, &[within, between], one_t, calc, &mut |b, a| {
        let k = ab::number(b, chunk_f, calc);
        let t = ab::binary::<arith::MulF>(b, a[1], k);
        let m2 = ab::binary::<arith::AddF>(b, a[0], t);
        let k = ab::number(b, inv_n, calc);
        let var = ab::binary::<arith::MulF>(b, m2, k);
        let k = ab::number(b, eps, calc);
        let var = ab::binary::<arith::AddF>(b, var, k);
        ab::unary::<math::Rsqrt>(b, var)
    });
    let v = tile_at.read(&mut e, &x);
    let mb = spread(&mut e, mean, row_t, &[0]);
    let rb = spread(&mut e, rstd, row_t, &[0]);
    let gt = tile_at.read(&mut e, &gamma);
    let bt = tile_at.read(&mut e, &beta);
    let y = map(&mut e, &[v, mb, rb, gt, bt], row_t, calc, &mut |b, a| {
        let d = ab::binary::<arith::SubF>(b, a[0], a[1]);
        let y = ab::binary::<arith::MulF>(b, d, a[2]);
        let y = ab::binary::<arith::MulF>(b, y, a[3]);
        ab::binary::<arith::AddF>(b, y, a[4])
    });
    let y = emit_chain(&mut e, &epi, y, &tile_at);
    let out_desc = over(&Desc::row_major(&full), &as_rows)?;
    let y_elem = elem_of(e.ctx, y);
    store(
        &mut e,
        y,
        out_buf,
        &at,
        &tile_shape,
        &out_desc,
        y_elem,
        elem,
    );
    ret(&mut e);
    let name = format!("groupnorm_{n_kernel}");
    let (kb, mut args) = prune(ctx, group, kb);
    add_kernel(ctx, func, kb, &name, &grid, loc);
    args.extend([means, devs]);
    let l2 = add_launch(ctx, group, &args, &name, &[out_ty], loc);
    let (old, new) = (ctx.result(group, 0), ctx.result(l2, 0));
    ctx.replace_all_uses(old, new);
    ctx.erase_op(group);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::chunk_of;

    #[test]
    fn chunks_divide_rows() {
        // Stable Diffusion's 64x64 positions of 10 channels a group.
        assert_eq!(chunk_of(40960), 2048);
        // Short rows stay whole; rows with no divisor in range too.
        assert_eq!(chunk_of(640), 640);
        assert_eq!(chunk_of(4099), 4099);
        for n in [2049, 3000, 6144, 40960, 1 << 20] {
            let k = chunk_of(n);
            assert_eq!(n % k, 0, "{n}");
            assert!(k <= n);
        }
    }
}
