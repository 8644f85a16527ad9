//! The group-norm generator: a `graph.groupnorm` with an elementwise
//! prologue on its input and an elementwise epilogue, as three kernels that
//! read the input channels-last as it lies, `[N·S, C]` (`S` the positions):
//!
//! 1. `groupnorm_K_stats`, a grid of batch elements x chunks of `P`
//!    positions: each block reduces its `[P, C]` tile (rows of whole,
//!    contiguous channels) over the positions to each channel's chunk mean
//!    and squared deviations from it (two passes over registers), stored as
//!    partials `[N, S/P, C]`;
//! 2. `groupnorm_K_scale`, a grid of batch elements x groups: each block
//!    combines its group's partials (Chan's parallel variance over pieces of
//!    `P` elements: the mean of the piece means, the pieces' squared
//!    deviations plus `P · Σ (mean_i - mean)²`) and folds the statistics into
//!    a per-channel scale `gamma · rstd` and shift `beta - mean · scale`,
//!    `[N, C]`;
//! 3. `groupnorm_K`, the first kernel's grid: `x · scale + shift` on each
//!    `[P, C]` tile, the epilogue, the store.
//!
//! Every load and store walks whole rows of channels; the only per-element
//! addressing is the tile's own. A first version read each group's elements
//! as a row (channels of a group side by side over the positions) and spent
//! 48 us on Stable Diffusion's 2x64x64x320 in index arithmetic and scattered
//! two-byte accesses, against 8 for its statistics.

use super::*;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::{graph, math};

/// The fewest elements a block of the first and last kernels should take.
const MIN_BLOCK: i64 = 1024;

/// The most partial values of one group the second kernel's block combines.
const MAX_PIECES: i64 = 8192;

/// The positions `P` a block takes, out of `s`, with `c` channels in groups
/// of `cg`: a divisor of `s`, the smallest with at most [`MAX_PIECES`]
/// pieces a group and at least [`MIN_BLOCK`] elements a block (or `s`).
fn positions(s: i64, c: i64, cg: i64) -> i64 {
    (1..=s)
        .filter(|p| s % p == 0)
        .find(|p| (s / p) * cg <= MAX_PIECES && p * c >= MIN_BLOCK.min(s * c))
        .unwrap_or(s)
}

/// Lower a group holding one `graph.groupnorm` (its input possibly computed
/// by elementwise ops and views of group inputs, its result possibly
/// followed by an elementwise epilogue) as the three kernels above.
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
    let mut param = |v: Value| -> Result<Operand, Skip> {
        if shape(ctx, v) != [c] {
            return Err("a group norm's scale or shift is not a vector of its channels".into());
        }
        operand(ctx, v, known, &mut taken)
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

    let (batch, cg) = (full[0], c / groups);
    let s: i64 = full[1..r - 1].iter().product();
    let p = positions(s, c, cg);
    let parts = s / p;
    // The input (and output) as rows of channels.
    let as_rows = Desc::reshape(&full, &[batch * s, c]);
    let u = ctx.uniquer().clone();
    let loc = ctx.op(group).loc;
    let tensor = |shape: Vec<i64>| {
        u.ty(TypeKind::Tensor {
            shape: shape.into(),
            elem: calc,
            encoding: None,
        })
    };
    let part_ty = tensor(vec![batch, parts, c]);
    let chan_ty = tensor(vec![batch, c]);
    let tile_of = |shape: Vec<i64>| tile::plain_tile(&u, shape, calc, Space::Register);
    let (block_t, chan_t) = (tile_of(vec![p, c]), tile_of(vec![c]));
    let block = [p, c];
    let grid = [batch, parts];

    // 1. Each channel's chunk mean and squared deviations.
    let (kb, bufs) = kernel_block(ctx, group, &[part_ty, part_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let (mean_buf, dev_buf) = (bufs[bufs.len() - 2], bufs[bufs.len() - 1]);
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let (row0, j) = block_rows(&mut e, s, p);
    let zero = ab::index(&mut e, 0);
    let at = [row0, zero];
    let tile_at = At {
        bufs: &buf,
        view: &as_rows,
        at: &at,
        shape: &block,
        calc,
    };
    let v = tile_at.read(&mut e, &x);
    let sum = reduce_axis(&mut e, v, tile::ReduceKind::Sum, 0, chan_t);
    let inv_p = 1.0 / p as f64;
    let mean = map(&mut e, &[sum], chan_t, calc, &mut |b, a| {
        let k = ab::number(b, inv_p, calc);
        ab::binary::<arith::MulF>(b, a[0], k)
    });
    let mb = spread(&mut e, mean, block_t, &[1]);
    let sq = map(&mut e, &[v, mb], block_t, calc, &mut |b, a| {
        let d = ab::binary::<arith::SubF>(b, a[0], a[1]);
        ab::binary::<arith::MulF>(b, d, d)
    });
    let dev = reduce_axis(&mut e, sq, tile::ReduceKind::Sum, 0, chan_t);
    let n0 = program_id(&mut e, 0);
    let parts_desc = Desc::row_major(&[batch, parts, c]);
    for (t, b) in [(mean, mean_buf), (dev, dev_buf)] {
        store(&mut e, t, b, &[n0, j, zero], &[c], &parts_desc, calc, calc);
    }
    ret(&mut e);
    let stats = format!("groupnorm_{n_kernel}_stats");
    let (kb, args) = prune(ctx, group, kb);
    add_kernel(ctx, func, kb, &stats, &grid, loc);
    let l1 = add_launch(ctx, group, &args, &stats, &[part_ty, part_ty], loc);
    let (means, devs) = (ctx.result(l1, 0), ctx.result(l1, 1));

    // 2. Each group's statistics from its pieces, as a scale and shift of
    // each of its channels.
    let (kb, bufs) = kernel_block(ctx, group, &[part_ty, part_ty, chan_ty, chan_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let k = bufs.len();
    let (mean_buf, dev_buf, scale_buf, shift_buf) =
        (bufs[k - 4], bufs[k - 3], bufs[k - 2], bufs[k - 1]);
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let n0 = program_id(&mut e, 0);
    let g0 = program_id(&mut e, 1);
    let zero = ab::index(&mut e, 0);
    let gs = ab::index(&mut e, groups);
    let ng = ab::binary::<arith::MulI>(&mut e, n0, gs);
    let ng = ab::binary::<arith::AddI>(&mut e, ng, g0);
    // The partials [N, S/P, G, C/G] as rows of a group's pieces.
    let pieces = parts * cg;
    let as_group = Desc::reshape(&[batch, parts, c], &[batch, parts, groups, cg])
        .compose(&Desc::transpose(&[batch, parts, groups, cg], &[0, 2, 1, 3]))
        .and_then(|d| {
            d.compose(&Desc::reshape(
                &[batch, groups, parts, cg],
                &[batch * groups, pieces],
            ))
        })?;
    let row_t = tile_of(vec![1, pieces]);
    let one_t = tile_of(vec![1]);
    let pm = load(&mut e, mean_buf, &[ng, zero], &[1, pieces], &as_group, calc);
    let pd = load(&mut e, dev_buf, &[ng, zero], &[1, pieces], &as_group, calc);
    let inv_pieces = 1.0 / pieces as f64;
    let sm = reduce_axis(&mut e, pm, tile::ReduceKind::Sum, 1, one_t);
    let gmean = map(&mut e, &[sm], one_t, calc, &mut |b, a| {
        let k = ab::number(b, inv_pieces, calc);
        ab::binary::<arith::MulF>(b, a[0], k)
    });
    let mb = spread(&mut e, gmean, row_t, &[0]);
    let between = map(&mut e, &[pm, mb], row_t, calc, &mut |b, a| {
        let d = ab::binary::<arith::SubF>(b, a[0], a[1]);
        ab::binary::<arith::MulF>(b, d, d)
    });
    let between = reduce_axis(&mut e, between, tile::ReduceKind::Sum, 1, one_t);
    let within = reduce_axis(&mut e, pd, tile::ReduceKind::Sum, 1, one_t);
    let (p_f, inv_n) = (p as f64, 1.0 / (s * cg) as f64);
    let rstd = map(&mut e, &[within, between], one_t, calc, &mut |b, a| {
        let k = ab::number(b, p_f, calc);
        let t = ab::binary::<arith::MulF>(b, a[1], k);
        let m2 = ab::binary::<arith::AddF>(b, a[0], t);
        let k = ab::number(b, inv_n, calc);
        let var = ab::binary::<arith::MulF>(b, m2, k);
        let k = ab::number(b, eps, calc);
        let var = ab::binary::<arith::AddF>(b, var, k);
        ab::unary::<math::Rsqrt>(b, var)
    });
    // gamma and beta of the group's channels, [1, C/G] at [g, 0] of [G, C/G].
    let as_channels = Desc::reshape(&[c], &[groups, cg]);
    let chans = [g0, zero];
    let chan_at = At {
        bufs: &buf,
        view: &as_channels,
        at: &chans,
        shape: &[1, cg],
        calc,
    };
    let gt = chan_at.read(&mut e, &gamma);
    let bt = chan_at.read(&mut e, &beta);
    let cg_t = tile_of(vec![1, cg]);
    let mean_b = spread(&mut e, gmean, cg_t, &[0]);
    let rstd_b = spread(&mut e, rstd, cg_t, &[0]);
    let scale = map(&mut e, &[gt, rstd_b], cg_t, calc, &mut |b, a| {
        ab::binary::<arith::MulF>(b, a[0], a[1])
    });
    let shift = map(&mut e, &[bt, mean_b, scale], cg_t, calc, &mut |b, a| {
        let m = ab::binary::<arith::MulF>(b, a[1], a[2]);
        ab::binary::<arith::SubF>(b, a[0], m)
    });
    let as_chan_rows = Desc::reshape(&[batch, c], &[batch * groups, cg]);
    for (t, b) in [(scale, scale_buf), (shift, shift_buf)] {
        store(
            &mut e,
            t,
            b,
            &[ng, zero],
            &[1, cg],
            &as_chan_rows,
            calc,
            calc,
        );
    }
    ret(&mut e);
    let scaling = format!("groupnorm_{n_kernel}_scale");
    let (kb, mut args) = prune(ctx, group, kb);
    add_kernel(ctx, func, kb, &scaling, &[batch, groups], loc);
    args.extend([means, devs]);
    let l2 = add_launch(ctx, group, &args, &scaling, &[chan_ty, chan_ty], loc);
    let (scales, shifts) = (ctx.result(l2, 0), ctx.result(l2, 1));

    // 3. x · scale + shift, the epilogue, the store.
    let (kb, bufs) = kernel_block(ctx, group, &[chan_ty, chan_ty, out_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let k = bufs.len();
    let (scale_buf, shift_buf, out_buf) = (bufs[k - 3], bufs[k - 2], bufs[k - 1]);
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let (row0, _) = block_rows(&mut e, s, p);
    let zero = ab::index(&mut e, 0);
    let n0 = program_id(&mut e, 0);
    let at = [row0, zero];
    let tile_at = At {
        bufs: &buf,
        view: &as_rows,
        at: &at,
        shape: &block,
        calc,
    };
    let v = tile_at.read(&mut e, &x);
    let chan_desc = Desc::row_major(&[batch, c]);
    let sc = load(&mut e, scale_buf, &[n0, zero], &[c], &chan_desc, calc);
    let sh = load(&mut e, shift_buf, &[n0, zero], &[c], &chan_desc, calc);
    let sc = spread(&mut e, sc, block_t, &[1]);
    let sh = spread(&mut e, sh, block_t, &[1]);
    let y = map(&mut e, &[v, sc, sh], block_t, calc, &mut |b, a| {
        let y = ab::binary::<arith::MulF>(b, a[0], a[1]);
        ab::binary::<arith::AddF>(b, y, a[2])
    });
    let y = emit_chain(&mut e, &epi, y, &tile_at);
    let out_desc = over(&Desc::row_major(&full), &as_rows)?;
    let y_elem = elem_of(e.ctx, y);
    store(&mut e, y, out_buf, &at, &block, &out_desc, y_elem, elem);
    ret(&mut e);
    let name = format!("groupnorm_{n_kernel}");
    let (kb, mut args) = prune(ctx, group, kb);
    add_kernel(ctx, func, kb, &name, &grid, loc);
    args.extend([scales, shifts]);
    let l3 = add_launch(ctx, group, &args, &name, &[out_ty], loc);
    let (old, new) = (ctx.result(group, 0), ctx.result(l3, 0));
    ctx.replace_all_uses(old, new);
    ctx.erase_op(group);
    Ok(())
}

/// On a grid of batch elements x chunks of `p` of the `s` positions: the
/// block's first row of `[N·S, C]` and its chunk.
fn block_rows(e: &mut Builder<'_>, s: i64, p: i64) -> (Value, Value) {
    let n0 = program_id(e, 0);
    let j = program_id(e, 1);
    let (ks, kp) = (ab::index(e, s), ab::index(e, p));
    let a = ab::binary::<arith::MulI>(e, n0, ks);
    let b = ab::binary::<arith::MulI>(e, j, kp);
    (ab::binary::<arith::AddI>(e, a, b), j)
}

#[cfg(test)]
mod tests {
    use super::positions;

    #[test]
    fn blocks_take_whole_divisors_of_the_positions() {
        // Stable Diffusion's 64x64 positions of 320 channels in groups of
        // 10: 4 positions a block (1,280 elements), 1,024 chunks of 10
        // pieces a group (10,240 to combine, over the cap) -> 8 positions.
        assert_eq!(positions(4096, 320, 10), 8);
        // Few positions: all of them in one block.
        assert_eq!(positions(3, 8, 2), 3);
        for (s, c, cg) in [
            (4096, 320, 10),
            (35, 12, 4),
            (1 << 16, 64, 2),
            (1024, 1280, 40),
        ] {
            let p = positions(s, c, cg);
            assert_eq!(s % p, 0, "{s}");
            assert!((s / p) * cg <= super::MAX_PIECES || p == s, "{s} {c}");
        }
    }
}
