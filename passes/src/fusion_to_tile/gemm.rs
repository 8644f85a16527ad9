//! The GEMM generator: matmuls and convolutions (implicit GEMM) with
//! epilogue chains.

use super::*;

/// Where the GEMM's `[m, n]` result element goes in the buffer of the
/// group's result when reshapes and transposes follow it: the rows split
/// back into the batch dims, then each view applied to the index (a reshape
/// relinearises it, a transpose moves its dims), then the final buffer,
/// row-major. `None` when no view follows.
pub(super) fn store_view(
    ctx: &Context,
    oshape: &[i64],
    m: i64,
    n: i64,
    views: &[Op],
) -> Result<Option<Attr>, Skip> {
    if views.is_empty() {
        return Ok(None);
    }
    let step = |t, upper: Vec<usize>, lower: Vec<usize>| coord::Step { t, upper, lower };
    let r = oshape.len();
    let mut stages = vec![vec![
        step(
            coord::Transform::Merge {
                lens: oshape[..r - 1].to_vec(),
            },
            vec![0],
            (0..r - 1).collect(),
        ),
        step(coord::Transform::Pass, vec![1], vec![r - 1]),
    ]];
    let mut cur = oshape.to_vec();
    for &v in views {
        let to = shape(ctx, ctx.result(v, 0));
        if ctx.op_name(v) == "graph.reshape" {
            stages.push(vec![step(
                coord::Transform::Unmerge,
                (0..cur.len()).collect(),
                vec![0],
            )]);
            stages.push(vec![step(
                coord::Transform::Merge { lens: to.clone() },
                vec![0],
                (0..to.len()).collect(),
            )]);
        } else {
            let perm: Vec<usize> = ints(ctx, v, "perm")
                .into_iter()
                .map(|p| p as usize)
                .collect();
            if perm.is_empty() {
                return Err("a transpose without a permutation".into());
            }
            // Result dim i is input dim perm[i]: input dim j goes to where perm is j.
            stages.push(
                perm.iter()
                    .enumerate()
                    .map(|(i, p)| step(coord::Transform::Pass, vec![*p], vec![i]))
                    .collect(),
            );
        }
        cur = to;
    }
    let view = Desc {
        upper: vec![m, n],
        stages,
    };
    let d = Desc::row_major(&cur)
        .compose(&view)
        .map_err(|e| e.to_string())?;
    Ok(Some(coord::desc_attr(ctx.uniquer(), &d.simplify())))
}

/// A GEMM as the kernel sees it: its operands, its sizes, and how A, B and
/// C (with the residuals of C's shape) are addressed as `[M, K]`, `[K, N]`
/// and `[M, N]` (`None`: row-major as they are).
pub(super) struct Problem {
    pub(super) a: Value,
    pub(super) b: Value,
    pub(super) m: i64,
    pub(super) n: i64,
    pub(super) k: i64,
    pub(super) a_view: Option<Attr>,
    pub(super) b_view: Option<Attr>,
    pub(super) flat: Option<Attr>,
}

/// A matmul: transposed operands through transposing views, leading batch
/// dims of A (weights shared across them) folded into M.
pub(super) fn matmul_problem(ctx: &Context, mm: Op, gargs: &[Value]) -> Result<Problem, Skip> {
    let (a, b) = (ctx.operands(mm)[0], ctx.operands(mm)[1]);
    let (sa, sb) = (shape(ctx, a), shape(ctx, b));
    if sa.len() < 2 || sb.len() != 2 || !gargs.contains(&a) || !gargs.contains(&b) {
        return Err("not a GEMM of the group's inputs with a 2-d right operand".into());
    }
    let (ta, tb) = (has(ctx, mm, "transpose_a"), has(ctx, mm, "transpose_b"));
    // The rows of every batch, one after another, are one taller GEMM.
    let nb = sa.len() - 2;
    let batch = &sa[..nb];
    let (m1, k) = if ta {
        (sa[nb + 1], sa[nb])
    } else {
        (sa[nb], sa[nb + 1])
    };
    let m = batch.iter().product::<i64>() * m1;
    let n = if tb { sb[0] } else { sb[1] };
    let a_view = if nb == 0 && !ta {
        None
    } else {
        let (mpos, kpos) = if ta { (nb + 1, nb) } else { (nb, nb + 1) };
        let mut lens = batch.to_vec();
        lens.push(m1);
        let mut rows: Vec<usize> = (0..nb).collect();
        rows.push(mpos);
        let view = Desc {
            upper: vec![m, k],
            stages: vec![vec![
                coord::Step {
                    t: coord::Transform::Merge { lens },
                    upper: vec![0],
                    lower: rows,
                },
                coord::Step {
                    t: coord::Transform::Pass,
                    upper: vec![1],
                    lower: vec![kpos],
                },
            ]],
        };
        let d = Desc::row_major(&sa)
            .compose(&view)
            .map_err(|e| e.to_string())?;
        Some(coord::desc_attr(ctx.uniquer(), &d.simplify()))
    };
    let b_view = tb.then(|| {
        let d = Desc::row_major(&sb)
            .compose(&Desc::transpose(&sb, &[1, 0]))
            .expect("a transpose composes")
            .simplify();
        coord::desc_attr(ctx.uniquer(), &d)
    });
    // Outputs and residuals of [batch.., M, N] are the same memory as [M, N].
    let flat = (nb > 0).then(|| coord::desc_attr(ctx.uniquer(), &Desc::row_major(&[m, n])));
    Ok(Problem {
        a,
        b,
        m,
        n,
        k,
        a_view,
        b_view,
        flat,
    })
}

/// A convolution as an implicit GEMM: A the input through the im2col
/// descriptor (no buffer), B the filter, C the output, all through
/// coordinate views (one group; NHWC, or NCHW without a bias).
pub(super) fn conv_problem(ctx: &Context, conv: Op, gargs: &[Value]) -> Result<Problem, Skip> {
    let (x, w) = (ctx.operands(conv)[0], ctx.operands(conv)[1]);
    if !gargs.contains(&x) || !gargs.contains(&w) {
        return Err("a convolution of computed values".into());
    }
    let attr = |n: &str| ctx.find_ident(n).and_then(|i| ctx.inherent_attr(conv, i));
    let groups = attr("groups")
        .and_then(|a| aic_dialects::stablehlo::attrs::int(ctx.uniquer(), a))
        .unwrap_or(1);
    if groups != 1 {
        return Err("grouped convolutions are not generated yet".into());
    }
    let nchw = attr("layout").and_then(|a| {
        aic::dialect::enum_keyword(ctx.uniquer(), a, aic_dialects::graph::LAYOUT_PREFIX)
    }) == Some("NCHW");
    let (xs, ws) = (shape(ctx, x), shape(ctx, w));
    let (st, di, pa) = (
        ints(ctx, conv, "strides"),
        ints(ctx, conv, "dilations"),
        ints(ctx, conv, "padding"),
    );
    if xs.len() != 4 || ws.len() != 4 || st.len() != 2 || di.len() != 2 || pa.len() != 4 {
        return Err("a convolution of unexpected rank".into());
    }
    let (filter, out_channels) = if nchw {
        ([ws[2], ws[3]], ws[0])
    } else {
        ([ws[0], ws[1]], ws[3])
    };
    let c = Conv {
        nchw,
        input: [xs[0], xs[1], xs[2], xs[3]],
        filter,
        out_channels,
        strides: [st[0], st[1]],
        dilations: [di[0], di[1]],
        pads: [pa[0], pa[1], pa[2], pa[3]],
        groups: 1,
    };
    let (a, b, cd) = (
        Desc::conv_a(&c, 0),
        Desc::conv_b(&c, 0),
        Desc::conv_c(&c, 0),
    );
    let u = ctx.uniquer();
    Ok(Problem {
        a: x,
        b: w,
        m: a.upper[0],
        n: b.upper[1],
        k: a.upper[1],
        a_view: Some(coord::desc_attr(u, &a.simplify())),
        b_view: Some(coord::desc_attr(u, &b.simplify())),
        flat: Some(coord::desc_attr(u, &cd.simplify())),
    })
}

/// Lower one GEMM + epilogue group: the kernel (inserted before `func`)
/// and the launch replacing the group.
pub(super) fn gemm(
    ctx: &mut Context,
    group: Op,
    func: Op,
    target: &str,
    cache: &Cache,
    n_kernel: usize,
) -> Result<(), Skip> {
    let (gb, ops) = body_ops(ctx, group);
    let gargs: Vec<Value> = ctx.block_args(gb).to_vec();
    let Some((&mm, epi)) = ops.split_first() else {
        return Err("empty body".into());
    };
    let p = match ctx.op_name(mm) {
        "graph.matmul" => matmul_problem(ctx, mm, &gargs)?,
        "graph.conv2d" => conv_problem(ctx, mm, &gargs)?,
        other => return Err(format!("starts with {other}, not a matmul")),
    };
    let Problem {
        a,
        b,
        m,
        n,
        k,
        a_view,
        b_view,
        flat,
    } = p;
    let oshape = shape(ctx, ctx.result(mm, 0));
    let out_ty = ctx.value_type(ctx.result(mm, 0));
    let elem = float_elem(ctx, out_ty)?;
    let (chain, views, _, used) =
        read_chain(ctx, epi, ctx.result(mm, 0), &gargs, &oshape, n, true)?;
    if used < epi.len() {
        return Err(format!("{} is not an epilogue op", ctx.op_name(epi[used])));
    }
    if ctx.op_name(mm) == "graph.conv2d" {
        let nchw = ctx
            .find_ident("layout")
            .and_then(|i| ctx.inherent_attr(mm, i))
            .and_then(|a| {
                aic::dialect::enum_keyword(ctx.uniquer(), a, aic_dialects::graph::LAYOUT_PREFIX)
            })
            == Some("NCHW");
        if !views.is_empty() {
            return Err("views after a convolution".into());
        }
        // A bias adds along the last dim, the width in NCHW: not the GEMM's columns.
        if nchw && chain.iter().any(|(_, o)| o.is_some_and(|(_, bias)| bias)) {
            return Err("a bias over an NCHW convolution's width".into());
        }
    }
    let store_view = store_view(ctx, &oshape, m, n, &views)?;
    let tuning = cache
        .get(&format!("{target}/gemm/{m}x{n}x{k}"))
        .copied()
        .unwrap_or_else(|| Tuning::heuristic(target, m, n, k));
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let final_ty = ctx.value_type(ctx.result(*ops.last().expect("ops"), 0));
    let (kb, bufs) = kernel_block(ctx, group, final_ty, loc);
    let buf_of = |v: Value| bufs[gargs.iter().position(|x| *x == v).expect("a group input")];
    let out_buf = *bufs.last().expect("the output");
    let tile_t = |shape: Vec<i64>, space: Space| tile::plain_tile(&u, shape, elem, space);
    let acc_t = tile_t(vec![tuning.bm, tuning.bn], Space::Register);
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let pm = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(0))]);
    let pn = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(1))]);
    let (cbm, cbn) = (e.index(tuning.bm), e.index(tuning.bn));
    let m0 = e.val("arith.muli", &[pm, cbm], index, vec![]);
    let n0 = e.val("arith.muli", &[pn, cbn], index, vec![]);
    let zero = e.float(0.0, elem);
    let acc0 = e.val(
        "tile.broadcast",
        &[zero],
        acc_t,
        vec![("dims", e.i64s(&[]))],
    );
    let (c0, ck, cbk) = (e.index(0), e.index(k), e.index(tuning.bk));
    // The K loop.
    let lb = e
        .ctx
        .create_block(&[(index, Some(loc)), (acc_t, Some(loc))]);
    let (kv, acc_i) = (e.ctx.block_args(lb)[0], e.ctx.block_args(lb)[1]);
    {
        let mut l = B {
            ctx: e.ctx,
            block: lb,
            loc,
        };
        let load = |l: &mut B<'_>,
                    buf: Value,
                    at: [Value; 2],
                    rows: i64,
                    cols: i64,
                    desc: Option<Attr>| {
            let t = tile_t(vec![rows, cols], Space::Register);
            let props = desc.map(|d| vec![("desc", d)]).unwrap_or_default();
            let ld = l.val("tile.load", &[buf, at[0], at[1]], t, props);
            let st = tile_t(vec![rows, cols], Space::Shared);
            let space = aic::dialect::enum_attr(&u, tile::SPACE_PREFIX, "shared");
            let depth = l.i64_attr(tuning.stages);
            l.val(
                "tile.transfer",
                &[ld],
                st,
                vec![("space", space), ("depth", depth)],
            )
        };
        let sa_t = load(&mut l, buf_of(a), [m0, kv], tuning.bm, tuning.bk, a_view);
        let sb_t = load(&mut l, buf_of(b), [kv, n0], tuning.bk, tuning.bn, b_view);
        let level = aic::dialect::enum_attr(&u, tile::LEVEL_PREFIX, "block");
        let r = l.val(
            "tile.gemm",
            &[sa_t, sb_t, acc_i],
            acc_t,
            vec![("level", level)],
        );
        l.op("tile.yield", &[r], &[], vec![]);
    }
    let f = e.region_op("tile.for", &[c0, ck, cbk, acc0], &[acc_t], lb);
    let mut value = e.ctx.result(f, 0);
    // The epilogue, one map per op.
    let bias_t = tile_t(vec![tuning.bn], Space::Register);
    let mut other = |e: &mut B<'_>, v: Value, bias: bool| {
        if bias {
            let ld = e.val("tile.load", &[buf_of(v), n0], bias_t, vec![]);
            e.val("tile.broadcast", &[ld], acc_t, vec![("dims", e.i64s(&[1]))])
        } else {
            let props = flat.map(|d| vec![("desc", d)]).unwrap_or_default();
            e.val("tile.load", &[buf_of(v), m0, n0], acc_t, props)
        }
    };
    value = emit_chain(&mut e, &chain, value, acc_t, elem, &mut other);
    let store_desc = if store_view.is_some() {
        store_view
    } else {
        flat
    };
    let props = store_desc.map(|d| vec![("desc", d)]).unwrap_or_default();
    e.op("tile.store", &[value, out_buf, m0, n0], &[], props);
    e.op("tile.return", &[], &[], vec![]);
    let grid = [
        (m + tuning.bm - 1) / tuning.bm,
        (n + tuning.bn - 1) / tuning.bn,
    ];
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("gemm_{n_kernel}"),
        &grid,
        final_ty,
        loc,
    );
    Ok(())
}
