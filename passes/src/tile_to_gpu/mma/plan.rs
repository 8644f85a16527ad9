//! Planning which gemms run on matrix units: their warps' layout, the
//! epilogue kept on fragments, the padded and pipelined transfers feeding
//! them.

#[allow(clippy::wildcard_imports)]
use super::*;
/// Decides which gemms of kernel `k` run on matrix units of `kind` and
/// their warp grids (wgmma's taking the one gemm of a pipelined loop that
/// qualifies, which needs the shared memory around them planned): what
/// [`crate::tile_to_gpu::mma_layout`] writes into the tile types.
pub(in crate::tile_to_gpu) fn decide(ctx: &Context, k: Op, threads: i64, kind: Kind) -> Plan {
    let mut p = Plan::default();
    if kind == Kind::Off {
        return p;
    }
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if is_gemm(ctx, o)
            && let Some(w) = mma_warps(ctx, o, threads, kind)
        {
            p.gemms.insert(o, w);
        }
    });
    // Quad shuffles read mma.sync's fragment layout (wgmma keeps it too).
    if matches!(kind, Kind::Nvgpu | Kind::Wgmma) {
        rows::stack_row_gemms(ctx, k, &mut p.gemms, threads);
    }
    plan_epilogue(ctx, k, &mut p);
    let (_, adopted) = plan_shared(ctx, k, threads, kind, &mut p, true);
    // A gemm wgmma took has a new accumulator layout: the fragments read
    // from it are planned again.
    if !adopted.is_empty() {
        plan_epilogue(ctx, k, &mut p);
    }
    p
}

/// The plan of kernel `k` on matrix units of `kind`: its gemms and their
/// warp grids as their result types' layouts say ([`typed_warps`]) and
/// the epilogues around them planned.
pub(in crate::tile_to_gpu) fn plan(
    ctx: &Context,
    k: Op,
    threads: i64,
    kind: Kind,
) -> Result<Plan, Diagnostic> {
    let mut p = Plan::default();
    if kind == Kind::Off {
        return Ok(p);
    }
    let mut gemms = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if is_gemm(ctx, o) {
            gemms.push(o);
        }
    });
    for g in gemms {
        if let Some((w, wgmma)) = typed_warps(ctx, g, threads, kind)? {
            p.gemms.insert(g, w);
            if wgmma {
                p.wgmma.insert(g);
            }
        }
    }
    plan_epilogue(ctx, k, &mut p);
    Ok(p)
}

/// The shared-memory decisions of a kernel: how the transfers matrix
/// units read are stored and which loops pipeline them, what
/// [`crate::tile_to_gpu::shared_layout`] writes into the IR.
#[derive(Default)]
pub(in crate::tile_to_gpu) struct Shared {
    /// Transfers that only matrix-unit gemms read, and the layout of
    /// their shared tiles (padded, or swizzled for wgmma).
    pub(in crate::tile_to_gpu) layouts: HashMap<Op, Layout>,
    /// `tile.for`s whose transfers are software-pipelined with cp.async,
    /// and their stages.
    pub(in crate::tile_to_gpu) stages: HashMap<Op, i64>,
}

/// Plans the shared tiles and pipelines around the gemms of `p` (its
/// epilogue planned); with `adopt`, wgmma takes the gemms of pipelined
/// loops that qualify, else those `p` names as wgmma get their operands
/// swizzled where they qualify; gives the decisions and the wgmma gemms
/// whose operands it swizzled.
pub(in crate::tile_to_gpu) fn plan_shared(
    ctx: &Context,
    k: Op,
    threads: i64,
    kind: Kind,
    p: &mut Plan,
    adopt: bool,
) -> (Shared, Vec<Op>) {
    let mut shared = Shared::default();
    let mut swizzled = Vec::new();
    if kind == Kind::Off {
        return (shared, swizzled);
    }
    let mut transfers = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if let Some(t) = tile::Transfer::of(ctx, o) {
            transfers.push(t);
        }
    });
    for tr in transfers {
        let (t, r) = (tr.op(), tr.result(ctx));
        let Some(tt) = tile_type(ctx, r) else {
            continue;
        };
        let only_mma = ctx
            .uses(r)
            .iter()
            .all(|u| u.index < operands_read(ctx, u.op) && p.gemms.contains_key(&u.op));
        if tt.space == Space::Shared && tt.shape.len() == 2 && only_mma && !ctx.uses(r).is_empty() {
            let row = tt.shape[1] + pad(ctx, t);
            shared
                .layouts
                .insert(t, Layout::Padded { row, trans: false });
        }
    }
    let mut loops = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if tile::For::is(ctx, o) {
            loops.push(o);
        }
    });
    // cp.async is NVIDIA's.
    for l in loops
        .into_iter()
        .filter(|_| matches!(kind, Kind::Nvgpu | Kind::Wgmma))
    {
        let laid_out = |t: Op| shared.layouts.contains_key(&t);
        let attention = |pipe: &Pipe| {
            let body = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r));
            body.and_then(|b| crate::tile_to_gpu::wgmma_attention::gemms(ctx, b, pipe, p, threads))
                .is_some()
        };
        // Bounds known at run time only: a wgmma attention's loop.
        let pipe = pipeline(ctx, l, p, &laid_out, false)
            .or_else(|| {
                pipeline(ctx, l, p, &laid_out, kind == Kind::Wgmma).filter(|pipe| attention(pipe))
            })
            .filter(|pipe| pipe.depth >= 2);
        // Byte transfers that only wgmma can read are staged for it only.
        let body = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r));
        let pipe = pipe.filter(|pipe| {
            !byte_pipe(ctx, pipe)
                || (kind == Kind::Wgmma
                    && body
                        .and_then(|b| single_gemm(ctx, b, pipe))
                        .is_some_and(|g| {
                            crate::tile_to_gpu::wgmma::fits(ctx, g, pipe, threads)
                                && (adopt || p.wgmma.contains(&g))
                        }))
        });
        if let Some(pipe) = pipe {
            for c in pipe.copies.iter().filter(|c| c.trans) {
                let tt = tile_type(ctx, ctx.result(c.transfer, 0)).expect("a tile");
                let row = tt.shape[0] + pad(ctx, c.transfer);
                shared
                    .layouts
                    .insert(c.transfer, Layout::Padded { row, trans: true });
            }
            let body = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r));
            let single = body.and_then(|b| single_gemm(ctx, b, &pipe));
            if let Some(g) = single.filter(|_| kind == Kind::Wgmma) {
                let fits = crate::tile_to_gpu::wgmma::fits(ctx, g, &pipe, threads);
                if fits && (adopt || p.wgmma.contains(&g)) {
                    if adopt {
                        let (m, n) = tile_type(ctx, ctx.result(g, 0))
                            .map_or((0, 0), |t| (t.shape[0], t.shape[1]));
                        p.set_wgmma(g, crate::tile_to_gpu::wgmma::warps(m, n, threads));
                    }
                    crate::tile_to_gpu::wgmma::swizzle_operands(ctx, g, &pipe, &mut shared);
                    swizzled.push(g);
                }
            }
            // Attention's two gemms, both on wgmma.
            let attention = body
                .filter(|_| kind == Kind::Wgmma && single.is_none())
                .and_then(|b| crate::tile_to_gpu::wgmma_attention::gemms(ctx, b, &pipe, p, threads))
                .filter(|[g1, g2, _]| adopt || (p.wgmma.contains(g1) && p.wgmma.contains(g2)));
            if let Some(at) = attention {
                for g in &at[..2] {
                    if adopt {
                        let (m, n) = tile_type(ctx, ctx.result(*g, 0))
                            .map_or((0, 0), |t| (t.shape[0], t.shape[1]));
                        p.set_wgmma(*g, crate::tile_to_gpu::wgmma::warps(m, n, threads));
                    }
                    swizzled.push(*g);
                }
                crate::tile_to_gpu::wgmma_attention::swizzle_operands(ctx, at, &mut shared);
            }
            shared.stages.insert(l, pipe.depth);
        }
    }
    (shared, swizzled)
}

/// Whether pipeline `pipe` stages byte tiles (fp8 or i8) that only a wgmma
/// gemm can read from a ring: byte tiles other than the A and B of byte
/// gemms mma.sync gathers element by element (which read any shared view,
/// a ring's included) and a sparse gemm's positions.
pub(in crate::tile_to_gpu) fn byte_pipe(ctx: &Context, pipe: &Pipe) -> bool {
    pipe.copies
        .iter()
        .any(|c| c.chunk != CHUNK && !gathered_bytes(ctx, c.transfer))
}

/// Whether transfer `t`'s tile is read only where bytes are gathered or
/// loaded as words from any shared view: as A or B of byte gemms
/// (mma.sync's s8 and fp8 forms, [`super::s8_gemm_shape`]) or as a sparse
/// gemm's positions.
pub(in crate::tile_to_gpu) fn gathered_bytes(ctx: &Context, t: Op) -> bool {
    let uses = ctx.uses(ctx.result(t, 0));
    !uses.is_empty()
        && uses.iter().all(|u| {
            reads_positions(ctx, u.op, u.index)
                || (u.index < 2 && s8_gemm_shape(ctx, u.op).is_some())
        })
}

/// Whether operand `index` of `op` is a sparse gemm's positions.
fn reads_positions(ctx: &Context, op: Op, index: u32) -> bool {
    index == 2 && tile::SparseGemm::is(ctx, op)
}

/// Whether `op` is a gemm matrix units may run: `tile.gemm` or
/// `tile.sparse_gemm`.
pub(in crate::tile_to_gpu) fn is_gemm(ctx: &Context, op: Op) -> bool {
    tile::Gemm::is(ctx, op) || tile::SparseGemm::is(ctx, op)
}

/// How many leading operands of gemm `op` it reads from shared memory
/// (A and B; a sparse gemm's A, values and positions).
pub(in crate::tile_to_gpu) fn operands_read(ctx: &Context, op: Op) -> u32 {
    if tile::SparseGemm::is(ctx, op) { 3 } else { 2 }
}

/// The operand index of gemm `op`'s accumulator.
pub(in crate::tile_to_gpu) fn acc_operand(ctx: &Context, op: Op) -> usize {
    operands_read(ctx, op) as usize
}

/// Elements added to a row of transfer `t`'s padded shared tile: [`PAD`]
/// (16 bytes of f16), or 16 bytes of a byte tile that is gathered
/// ([`gathered_bytes`]), so that rows stay 16-byte aligned for cp.async.
fn pad(ctx: &Context, t: Op) -> i64 {
    let r = ctx.result(t, 0);
    match tile_type(ctx, r).and_then(|tt| chunk_of(ctx, tt.elem)) {
        Some(c) if gathered_bytes(ctx, t) => c,
        _ => PAD,
    }
}

/// Which maps and stores of a kernel run on the fragments of tensor-core
/// accumulators, which pointwise ops only they read, and which row vectors
/// of fragments stay in registers ([`rows`]).
pub(in crate::tile_to_gpu) fn plan_epilogue(ctx: &Context, k: Op, p: &mut Plan) {
    let mut ops = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| ops.push(o));
    // Buffers some store writes: loads of them are not moved.
    let written: Vec<Value> = ops
        .iter()
        .filter_map(|o| tile::Store::of(ctx, *o))
        .map(|s| s.buffer(ctx))
        .collect();
    // Fragments and their layouts (row vectors and their broadcasts too);
    // pointwise values.
    let (mut held, mut point): (rows::Held, std::collections::HashSet<Value>);
    let registers = |v: Value| {
        tile_type(ctx, v).is_some_and(|t| t.space != Space::Shared && t.shape.len() == 2)
    };
    // Planned again until the row vectors loops carry settle (a loop's
    // body reads what its last iteration yielded): none, then a guess,
    // then what the guess kept.
    let mut carried = HashMap::new();
    loop {
        (held, point) = Default::default();
        (p.epilogue, p.frag_stores) = Default::default();
        p.rows = rows::Rows {
            carried: carried.clone(),
            ..Default::default()
        };
        for &o in &ops {
            if rows::plan_row_op(ctx, o, &mut held, p) {
                continue;
            }
            let operands = ctx.operands(o);
            match TileOp::of(ctx, o) {
                Some(TileOp::Gemm(_) | TileOp::SparseGemm(_)) => {
                    if let Some(w) = p.gemms.get(&o) {
                        held.frag.insert(ctx.result(o, 0), *w);
                    }
                }
                Some(TileOp::For(_)) => {
                    let Some(body) = ctx.regions(o).first().and_then(|r| ctx.entry_block(*r))
                    else {
                        continue;
                    };
                    let Some(y) = ctx
                        .block_ops(body)
                        .last()
                        .and_then(|y| tile::Yield::of(ctx, y))
                    else {
                        continue;
                    };
                    let args = ctx.block_args(body);
                    for (i, v) in y.values(ctx).iter().enumerate() {
                        let w = ctx.defining_op(*v).and_then(|g| p.gemms.get(&g));
                        if let Some(w) = w
                            && i < ctx.results(o).count()
                        {
                            held.frag.insert(ctx.result(o, i), *w);
                            held.frag.insert(args[i + 1], *w);
                        }
                        if let Some(w) = p.rows.carried.get(&(body, i)) {
                            held.rows.insert(ctx.result(o, i), *w);
                            held.rows.insert(args[i + 1], *w);
                        }
                    }
                }
                Some(TileOp::Load(_) | TileOp::Valid(_) | TileOp::Iota(_)) => {
                    let r = ctx.result(o, 0);
                    let stored =
                        tile::Load::of(ctx, o).is_some_and(|l| written.contains(&l.buffer(ctx)));
                    if registers(r) && !stored {
                        point.insert(r);
                    }
                }
                Some(TileOp::Broadcast(b)) => {
                    let r = b.result(ctx);
                    if registers(r) && tile_type(ctx, b.input(ctx)).is_none() {
                        point.insert(r);
                    }
                }
                Some(TileOp::Map(_)) => {
                    let r = ctx.result(o, 0);
                    let Some(rt) = tile_type(ctx, r).filter(|_| registers(r)) else {
                        continue;
                    };
                    let same = |v: &Value| tile_type(ctx, *v).is_some_and(|t| t.shape == rt.shape);
                    if operands.is_empty() || !operands.iter().all(same) {
                        continue;
                    }
                    let here = ctx.parent_block(o);
                    let mut w = None;
                    let mut ok = true;
                    for v in operands {
                        if let Some(fw) = held.frag.get(v) {
                            let local = match ctx.value_def(*v) {
                                aic::ir::ValueDef::Result(d, _) => ctx.parent_block(d) == here,
                                aic::ir::ValueDef::Arg(b, _) => Some(b) == here,
                                aic::ir::ValueDef::Placeholder => false,
                            };
                            ok &= local && w.is_none_or(|w| w == *fw);
                            w = Some(*fw);
                        } else {
                            ok &= point.contains(v) || held.bcast.contains_key(v);
                        }
                    }
                    match (ok, w) {
                        (true, Some(w)) if rows::bcasts_fit(&held, operands, w) => {
                            held.frag.insert(r, w);
                            p.epilogue.insert(o, w);
                        }
                        (true, None) if !operands.iter().any(|v| held.bcast.contains_key(v)) => {
                            point.insert(r);
                        }
                        _ => {}
                    }
                }
                Some(TileOp::Store(st)) if held.frag.contains_key(&st.value(ctx)) => {
                    p.frag_stores.insert(o);
                }
                _ => {}
            }
        }
        let next = rows::carries(ctx, &ops, &held, &carried);
        if next == carried {
            break;
        }
        carried = next;
    }
    rows::finish(ctx, &ops, &held, p);
    // Users come after their operands: decide them first.
    for &o in ops.iter().rev() {
        let Some(r) = ctx.results(o).next() else {
            continue;
        };
        if !point.contains(&r) || ctx.uses(r).is_empty() {
            continue;
        }
        let only_frag = ctx
            .uses(r)
            .iter()
            .all(|u| p.epilogue.contains_key(&u.op) || p.deferred.contains(&u.op));
        if only_frag {
            p.deferred.insert(o);
        }
    }
}

/// Elements an asynchronous copy moves (16 bytes of f16).
pub(in crate::tile_to_gpu) const CHUNK: i64 = 8;

/// Elements of type `t` a 16-byte asynchronous copy moves, for the types
/// pipelines stage: 8 of f16 or bf16, 16 of fp8 (`f8E4M3FN`, `f8E5M2`)
/// or i8.
pub(in crate::tile_to_gpu) fn chunk_of(ctx: &Context, t: Type) -> Option<i64> {
    if super::half_kind(ctx, t).is_some() {
        return Some(CHUNK);
    }
    match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2) => Some(16),
        TypeKind::Integer { width: 8, .. } => Some(16),
        _ => None,
    }
}

pub(in crate::tile_to_gpu) use aic_dialects::arith::constant_int as const_int;

/// Whether `buffer` through view `d` takes aligned runs of `v` elements of
/// a tile whose rows are `last` long, stored or loaded at `origin` along
/// the view's last dim: memory contiguous in aligned chunks along that dim
/// ([`contiguous_dim`]), the origin a multiple of `v`, the rows whole runs,
/// and the buffer at least a run long (a masked-off run is read at offset
/// 0 instead). Each run then lies inside one aligned chunk.
pub(in crate::tile_to_gpu) fn takes_runs(
    ctx: &Context,
    (buffer, origin): (Value, Value),
    d: &Desc,
    last: i64,
    v: i64,
) -> bool {
    let rank = d.upper.len();
    let held = ctx
        .type_kind(ctx.value_type(buffer))
        .shape()
        .is_some_and(|s| s.iter().product::<i64>() >= v);
    rank >= 1
        && contiguous_dim(d) == Some(rank - 1)
        && last % v == 0
        && held
        // No loop's induction variable: the buffer is never an origin.
        && multiple_of(ctx, origin, v, (buffer, 1, 1))
}

/// `v` as `iv · mul / div` for loop induction variable `iv` (itself, or
/// one `arith.muli` or `arith.divui` of it by a constant): an origin a
/// pipeline's copies compute from the iteration they fetch.
pub(in crate::tile_to_gpu) fn scaled_iv(ctx: &Context, v: Value, iv: Value) -> Option<(i64, i64)> {
    if v == iv {
        return Some((1, 1));
    }
    let d = ctx.defining_op(v)?;
    if let Some(div) = arith::DivUI::of(ctx, d)
        && div.lhs(ctx) == iv
    {
        return const_int(ctx, div.rhs(ctx))
            .filter(|c| *c > 0)
            .map(|c| (1, c));
    }
    let mul = arith::MulI::of(ctx, d)?;
    let (x, y) = (mul.lhs(ctx), mul.rhs(ctx));
    let c = if x == iv {
        const_int(ctx, y)
    } else if y == iv {
        const_int(ctx, x)
    } else {
        None
    };
    c.map(|c| (c, 1))
}

/// Whether index `v` is a multiple of `m` whatever its run-time value
/// (`iv`, the loop's induction variable, stepping from `lb` by `step`).
pub(in crate::tile_to_gpu) fn multiple_of(
    ctx: &Context,
    v: Value,
    m: i64,
    iv: (Value, i64, i64),
) -> bool {
    if v == iv.0 {
        return iv.1 % m == 0 && iv.2 % m == 0;
    }
    if let Some(c) = const_int(ctx, v) {
        return c % m == 0;
    }
    let Some(d) = ctx.defining_op(v) else {
        return false;
    };
    if let Some(div) = arith::DivUI::of(ctx, d)
        && let Some(c) = const_int(ctx, div.rhs(ctx)).filter(|c| *c > 0)
    {
        return multiple_of(ctx, div.lhs(ctx), m * c, iv);
    }
    if let Some(mul) = arith::MulI::of(ctx, d) {
        [mul.lhs(ctx), mul.rhs(ctx)]
            .iter()
            .any(|x| multiple_of(ctx, *x, m, iv))
    } else if let Some(add) = arith::AddI::of(ctx, d) {
        [add.lhs(ctx), add.rhs(ctx)]
            .iter()
            .all(|x| multiple_of(ctx, *x, m, iv))
    } else {
        false
    }
}

/// The view `load` reads its buffer through: its descriptor, or the
/// buffer's row-major layout where it has none. None for a buffer of no
/// static shape or a descriptor that does not parse.
pub(in crate::tile_to_gpu) fn load_desc(ctx: &Context, load: tile::Load) -> Option<Desc> {
    match load.desc(ctx) {
        Some(a) => aic_dialects::coord::desc_of(ctx.uniquer(), a).ok().cloned(),
        None => {
            let buffer = load.buffer(ctx);
            let shape = ctx.type_kind(ctx.value_type(buffer)).shape()?.to_vec();
            Some(Desc::row_major(&shape))
        }
    }
}

/// The pipeline of loop `l`, if it is one: constant bounds; a body with
/// gemms on tensor cores, whose loads that transfers read are each read
/// only by a transfer laid out for matrix units, yielding their accumulators or row vectors
/// of fragments (any other op runs in the body as it would unpipelined);
/// every load a transfer reads at an origin of the induction
/// variable and values from outside, affine in memory with 16-byte runs
/// along one of its tile's dims (the columns for A), its transfer of f16
/// in whole 16-byte chunks (the last round of the block's threads may be
/// partial). Its `depth` is the least its transfers ask for.
pub(in crate::tile_to_gpu) fn pipeline(
    ctx: &Context,
    l: Op,
    p: &Plan,
    laid_out: &dyn Fn(Op) -> bool,
    dynamic: bool,
) -> Option<Pipe> {
    let f = tile::For::of(ctx, l)?;
    let step = const_int(ctx, f.step(ctx))?;
    // With `dynamic`, bounds known at run time only.
    let (lb, lower) = match const_int(ctx, f.lower(ctx)) {
        Some(lb) => (lb, None),
        None if dynamic => (0, Some(f.lower(ctx))),
        None => return None,
    };
    let (n, upper) = match const_int(ctx, f.upper(ctx)) {
        Some(ub) if ub > lb && lower.is_none() => ((ub - lb + step - 1) / step, None),
        _ if dynamic => (0, Some(f.upper(ctx))),
        _ => return None,
    };
    if step <= 0 {
        return None;
    }
    let body = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r))?;
    let iv = ctx.block_args(body)[0];
    let inside = |v: Value| {
        ctx.defining_op(v)
            .is_some_and(|d| ctx.parent_block(d) == Some(body))
            || ctx.block_args(body).contains(&v)
    };
    let mut copies = Vec::new();
    let mut depth = i64::MAX;
    let mut gemms = 0;
    for o in ctx.block_ops(body) {
        match TileOp::of(ctx, o) {
            Some(TileOp::Gemm(_) | TileOp::SparseGemm(_)) if p.gemms.contains_key(&o) => gemms += 1,
            Some(TileOp::Yield(y)) => {
                let carried = y.values(ctx).iter().enumerate().all(|(i, v)| {
                    ctx.defining_op(*v)
                        .is_some_and(|d| p.gemms.contains_key(&d))
                        || p.rows.carried.contains_key(&(body, i))
                });
                if !carried {
                    return None;
                }
            }
            Some(TileOp::Load(_)) => {
                let r = ctx.result(o, 0);
                let uses = ctx.uses(r);
                let transferred = uses.iter().any(|u| tile::Transfer::is(ctx, u.op));
                if transferred && !matches!(uses[..], [u] if laid_out(u.op)) {
                    return None;
                }
            }
            Some(TileOp::Transfer(tr)) => {
                let ld = tile::Load::defining(ctx, tr.input(ctx))?;
                let load = ld.op();
                if ctx.parent_block(load) != Some(body) {
                    return None;
                }
                let (buffer, origin) = (ld.buffer(ctx), ld.origin(ctx));
                if inside(buffer)
                    || origin
                        .iter()
                        .any(|v| inside(*v) && scaled_iv(ctx, *v, iv).is_none())
                {
                    return None;
                }
                let tt = tile_type(ctx, ctx.result(o, 0))?;
                let chunk = chunk_of(ctx, tt.elem)?;
                let (rows, cols) = (tt.shape[0], tt.shape[1]);
                // A tile of fewer whole chunks than a round of threads, or
                // not whole rounds (three warpgroups' blocks): the last round
                // is partial (the lowering's threads past the last chunk copy
                // it again).
                if rows * cols % chunk != 0 {
                    return None;
                }
                let desc = load_desc(ctx, ld)?;
                // Byte chunks: affine views only.
                let cd = if chunk == CHUNK {
                    contiguous_dim(&desc)?
                } else {
                    affine_chunk_dim(&desc, chunk)?
                };
                let rank = desc.upper.len();
                // The tile's dims are the descriptor's last two.
                let trans = match cd {
                    d if d == rank - 1 => false,
                    d if d + 2 == rank => true,
                    _ => return None,
                };
                let used_as = ctx.uses(ctx.result(o, 0)).iter().map(|u| u.index).max()?;
                // A sparse gemm reads any of its operands stored transposed.
                let sparse = ctx
                    .uses(ctx.result(o, 0))
                    .iter()
                    .all(|u| tile::SparseGemm::is(ctx, u.op));
                let ext = if trans { rows } else { cols };
                // A run-time lower bound proves no multiple.
                let lb_known = if lower.is_some() { 1 } else { lb };
                if ext % chunk != 0
                    || (trans && used_as != 1 && !sparse)
                    || !multiple_of(ctx, origin[cd], chunk, (iv, lb_known, step))
                {
                    return None;
                }
                depth = depth.min(tr.depth(ctx).unwrap_or(0));
                copies.push(Copy {
                    load,
                    transfer: o,
                    trans,
                    desc,
                    chunk,
                });
            }
            Some(TileOp::For(_)) => return None,
            _ => {}
        }
    }
    // A loop of one gemm pipelines its known trips only.
    let trips_known = (upper.is_none() && lower.is_none()) || gemms > 1;
    (gemms > 0 && !copies.is_empty() && trips_known).then_some(Pipe {
        depth,
        n,
        lb,
        step,
        upper,
        lower,
        copies,
    })
}

/// The dim of a descriptor along which memory is contiguous in aligned runs
/// of [`CHUNK`] elements, where the descriptor is affine (pass-throughs,
/// embeddings, unmerges, frozen dims and slices only, but for merges of
/// leading dims (batch and heads) first): stride 1 along it, every other
/// stride and the base offset multiples of the chunk, its length whole
/// chunks (so a chunk is wholly inside or outside).
pub(in crate::tile_to_gpu) fn chunk_dim(d: &Desc) -> Option<usize> {
    chunk_dim_by(d, CHUNK, true)
}

/// The dim along which memory is contiguous in aligned runs of [`CHUNK`]:
/// [`chunk_dim`] where the stages show it, else [`chunk_dim_probed`].
pub(in crate::tile_to_gpu) fn contiguous_dim(d: &Desc) -> Option<usize> {
    chunk_dim(d).or_else(|| chunk_dim_probed(d))
}

/// [`chunk_dim`] for chunks of `chunk` elements (16 of a byte type),
/// affine descriptors only.
pub(in crate::tile_to_gpu) fn affine_chunk_dim(d: &Desc, chunk: i64) -> Option<usize> {
    chunk_dim_by(d, chunk, false)
}

/// [`chunk_dim`] in chunks of `chunk` elements; `separable`: a
/// descriptor that is not affine may still be separable (in [`CHUNK`]s).
fn chunk_dim_by(d: &Desc, chunk: i64, separable: bool) -> Option<usize> {
    let rank = d.upper.len();
    let lead = rank.saturating_sub(2);
    let merges_lead = |s: &aic_dialects::coord::Step| {
        matches!(s.t, Transform::Merge { .. }) && s.upper.iter().all(|u| *u < lead)
    };
    let affine = d.stages.iter().enumerate().all(|(i, st)| {
        st.iter().all(|s| {
            matches!(
                s.t,
                Transform::Pass
                    | Transform::Embed { .. }
                    | Transform::Unmerge
                    | Transform::Freeze { .. }
                    | Transform::Slice { .. }
            ) || (i == 0 && merges_lead(s))
        })
    });
    if rank < 2 {
        return None;
    }
    if !affine {
        return separable
            .then(|| separable_chunk_dim(&d.simplify()))
            .flatten();
    }
    let loc = d.locator().ok()?;
    let at = |idx: &[i64]| loc.locate(idx).ok().map(|(o, _)| o);
    let o = at(&vec![0; rank])?;
    let strides: Vec<i64> = (0..rank)
        .map(|k| {
            let mut idx = vec![0; rank];
            idx[k] = 1;
            at(&idx).map(|x| x - o)
        })
        .collect::<Option<_>>()?;
    // Affine at one more point.
    let probe: Vec<i64> = (0..rank)
        .map(|k| (k as i64 + 2).min(d.upper[k] - 1).max(0))
        .collect();
    let lin: i64 = o + probe.iter().zip(&strides).map(|(i, s)| i * s).sum::<i64>();
    if at(&probe)? != lin || o % chunk != 0 {
        return None;
    }
    let cd = strides.iter().position(|s| *s == 1)?;
    let ok = strides
        .iter()
        .enumerate()
        .all(|(k, s)| k == cd || s % chunk == 0)
        && d.upper[cd] % chunk == 0;
    // A merged leading dim is affine piecewise only: every one of its
    // indices must move by whole chunks.
    let merged = d
        .stages
        .first()
        .into_iter()
        .flatten()
        .filter(|s| merges_lead(s));
    let whole = merged.flat_map(|s| s.upper.iter()).all(|&k| {
        d.upper[k] <= 1 << 16
            && (0..d.upper[k]).all(|v| {
                let mut idx = vec![0; rank];
                idx[k] = v;
                at(&idx).is_some_and(|x| (x - o) % chunk == 0)
            })
    });
    (ok && whole).then_some(cd)
}

/// [`chunk_dim`] for a descriptor that is not affine but separable: its
/// stages but the last map each dim on its own (passes and merges reading
/// one dim each) and its last is one embed, so the offset is a sum of one
/// function per upper dim (rows of `[batch, seq]` and columns of `[heads,
/// head_dim]`, as attention's output is read by the next GEMM). Memory is
/// contiguous in aligned chunks along the dim whose function steps by 1
/// when that function walks runs of [`CHUNK`] from aligned starts and every
/// other moves by whole chunks, which is checked at every index of every
/// dim (each up to 2^16).
fn separable_chunk_dim(d: &Desc) -> Option<usize> {
    let rank = d.upper.len();
    let (last, rest) = d.stages.split_last()?;
    let [e] = &last[..] else { return None };
    let per_dim = rest
        .iter()
        .flatten()
        .all(|s| s.upper.len() == 1 && matches!(s.t, Transform::Pass | Transform::Merge { .. }));
    if !matches!(e.t, Transform::Embed { .. }) || !per_dim || d.upper.iter().any(|l| *l > 1 << 16) {
        return None;
    }
    let zero = vec![0; rank];
    let loc = d.locator().ok()?;
    let o = loc.locate(&zero).ok()?.0;
    let f = |k: usize, i: i64| {
        let mut idx = zero.clone();
        idx[k] = i;
        loc.locate(&idx).ok().map(|(x, _)| x - o)
    };
    let cd = (0..rank).find(|k| d.upper[*k] > 1 && f(*k, 1) == Some(1))?;
    if o % CHUNK != 0 || d.upper[cd] % CHUNK != 0 {
        return None;
    }
    for k in 0..rank {
        for i in 0..d.upper[k] {
            let v = f(k, i)?;
            let ok = if k == cd {
                let start = f(k, i - i % CHUNK)?;
                start % CHUNK == 0 && v == start + i % CHUNK
            } else {
                v % CHUNK == 0
            };
            if !ok {
                return None;
            }
        }
    }
    Some(cd)
}

/// [`chunk_dim`] for any descriptor, checked by probing where its stages
/// do not show it affine (the head reshape of grouped-query attention:
/// heads merged, split and broadcast; a convolution's im2col view, padded):
/// the copies locate each chunk through the descriptor and zero-fill the
/// chunks it marks invalid, so what must hold is that along one of the
/// tile's dims (of whole chunks) every aligned run of [`CHUNK`] elements
/// is wholly invalid (padding) or wholly valid, contiguous and starting on
/// a chunk, at every index of each dim (the others 0; 2^14 indices of a
/// longer dim, its ends and evenly between) and at points mixing all dims.
pub(in crate::tile_to_gpu) fn chunk_dim_probed(d: &Desc) -> Option<usize> {
    // The planning asks again for the same views: a pure function's
    // answers, remembered (a bounded memo, not a decision).
    thread_local! {
        static PROBED: std::cell::RefCell<HashMap<Desc, Option<usize>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    if let Some(cd) = PROBED.with(|m| m.borrow().get(d).copied()) {
        return cd;
    }
    let cd = probe_chunk_dim(d);
    PROBED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 1024 {
            m.clear();
        }
        m.insert(d.clone(), cd);
    });
    cd
}

/// [`chunk_dim_probed`] without the memo.
fn probe_chunk_dim(d: &Desc) -> Option<usize> {
    let rank = d.upper.len();
    if rank < 2 || d.upper.iter().any(|n| *n < 1 || *n > 1 << 24) {
        return None;
    }
    // The indices of a dim of `n` probed: all of them up to 2^14, else
    // the first and last 2^11 and 2^13 spread evenly between.
    let probes = |n: i64| -> Vec<i64> {
        const ALL: i64 = 1 << 14;
        const ENDS: i64 = 1 << 11;
        if n <= ALL {
            return (0..n).collect();
        }
        let mid = ALL - 2 * ENDS;
        (0..ENDS)
            .chain((0..mid).map(|i| ENDS + i * (n - 2 * ENDS) / mid))
            .chain(n - ENDS..n)
            .collect()
    };
    // Where an element is, `None` where it is padding.
    let loc = d.locator().ok()?;
    let at = |idx: &[i64]| loc.locate(idx).ok().map(|(o, ok)| ok.then_some(o));
    // Whether the chunk holding `idx` along `cd` is padding (`Some(false)`)
    // or contiguous and aligned (`Some(true)`); `None`: neither.
    let chunk = |cd: usize, idx: &mut Vec<i64>| -> Option<bool> {
        idx[cd] -= idx[cd] % CHUNK;
        let Some(base) = at(idx)? else {
            for _ in 1..CHUNK {
                idx[cd] += 1;
                at(idx)?.is_none().then_some(())?;
            }
            return Some(false);
        };
        for j in 1..CHUNK {
            idx[cd] += 1;
            (at(idx)? == Some(base + j)).then_some(())?;
        }
        (base % CHUNK == 0).then_some(true)
    };
    // Every probe a whole chunk, at least one of them memory.
    let fits = |cd: usize| -> Option<()> {
        if d.upper[cd] % CHUNK != 0 {
            return None;
        }
        let mut any = false;
        for k in 0..rank {
            for i in probes(d.upper[k]) {
                let mut idx = vec![0; rank];
                idx[k] = i;
                any |= chunk(cd, &mut idx)?;
            }
        }
        // Points mixing the dims (a fixed pseudo-random walk).
        let mut walk = Walk::default();
        for _ in 0..256 {
            any |= chunk(cd, &mut walk.point(&d.upper))?;
        }
        any.then_some(())
    };
    [rank - 1, rank - 2]
        .into_iter()
        .find(|cd| fits(*cd).is_some())
}

/// Whether the view `d` reads the same element (and the same padding)
/// whatever its index along `dim`: a bias along the keys broadcast over an
/// attention's queries, a row of a mask. Probed like [`chunk_dim_probed`]:
/// every index of `dim` (2^14 spread over a longer one) against index 0 at
/// the ends and a fixed walk of the other dims, and mixed points.
pub(in crate::tile_to_gpu) fn ignores_dim(d: &Desc, dim: usize) -> bool {
    thread_local! {
        static PROBED: std::cell::RefCell<HashMap<(Desc, usize), bool>> =
            std::cell::RefCell::new(HashMap::new());
    }
    if let Some(b) = PROBED.with(|m| m.borrow().get(&(d.clone(), dim)).copied()) {
        return b;
    }
    let b = probe_ignores_dim(d, dim);
    PROBED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 1024 {
            m.clear();
        }
        m.insert((d.clone(), dim), b);
    });
    b
}

/// [`ignores_dim`] without the memo.
fn probe_ignores_dim(d: &Desc, dim: usize) -> bool {
    let rank = d.upper.len();
    if dim >= rank || d.upper.iter().any(|n| *n < 1 || *n > 1 << 24) {
        return false;
    }
    let Ok(loc) = d.locator() else {
        return false;
    };
    let same = |idx: &mut Vec<i64>| -> bool {
        let here = loc.locate(idx).ok();
        let i = idx[dim];
        idx[dim] = 0;
        let first = loc.locate(idx).ok();
        idx[dim] = i;
        here.is_some() && here == first
    };
    let n = d.upper[dim];
    let along: Vec<i64> = if n <= 1 << 14 {
        (0..n).collect()
    } else {
        (0..1 << 14).map(|i| i * n / (1 << 14)).collect()
    };
    let mut walk = Walk::default();
    // Along `dim` at the other dims' first and last indices and at a walk.
    let mut bases = vec![vec![0; rank], d.upper.iter().map(|n| n - 1).collect()];
    for _ in 0..8 {
        bases.push(walk.point(&d.upper));
    }
    for base in &bases {
        for &i in &along {
            let mut idx = base.clone();
            idx[dim] = i;
            if !same(&mut idx) {
                return false;
            }
        }
    }
    (0..256).all(|_| same(&mut walk.point(&d.upper)))
}

/// The fixed pseudo-random walk over a view's indices that the probes
/// ([`chunk_dim_probed`], [`ignores_dim`]) mix the dims with: an LCG, the
/// same points every run.
struct Walk(u64);

impl Default for Walk {
    fn default() -> Walk {
        Walk(0x9E37_79B9_7F4A_7C15)
    }
}

impl Walk {
    /// The next index into a view of extents `upper`.
    fn point(&mut self, upper: &[i64]) -> Vec<i64> {
        upper
            .iter()
            .map(|n| {
                self.0 = self
                    .0
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                ((self.0 >> 33) % *n as u64) as i64
            })
            .collect()
    }
}

/// Whether a 2-d `tile.load` reads memory contiguous along the tile's rows
/// (its dim 0), not its columns.
pub(in crate::tile_to_gpu) fn column_contiguous(ctx: &Context, load: tile::Load) -> bool {
    let Some(Ok(d)) = load
        .desc(ctx)
        .map(|a| aic_dialects::coord::desc_of(ctx.uniquer(), a))
    else {
        return false;
    };
    let rank = d.upper.len();
    if rank < 2 {
        return false;
    }
    let at = |dim: Option<usize>| {
        let mut idx = vec![0; rank];
        if let Some(k) = dim {
            idx[k] = 1;
        }
        d.offset(&idx).map(|(o, _)| o)
    };
    let (o, r, c) = (at(None), at(Some(rank - 2)), at(Some(rank - 1)));
    matches!((o, r, c), (Some(o), Some(r), Some(c)) if r - o == 1 && c - o != 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// K of grouped-query attention as JAX writes it: 2 K heads broadcast
    /// to 2 query heads each and reshaped to 4 heads. The stages (a merge
    /// after an unmerge, a broadcast) do not show it affine; probing finds
    /// whole contiguous chunks along the head dim. A view whose chunks
    /// start off a chunk (a slice from column 4) or that has no contiguous
    /// dim (every other column) has none.
    #[test]
    fn grouped_query_views_are_probed() {
        let kv = [1, 2, 136, 64];
        let kv5 = [1, 2, 2, 136, 64];
        let heads = [1, 4, 136, 64];
        let gqa = Desc::row_major(&kv)
            .compose(&Desc::broadcast(&kv, &kv5, &[0, 1, 3, 4]))
            .and_then(|d| d.compose(&Desc::reshape(&kv5, &heads)))
            .expect("composes");
        assert_eq!(chunk_dim(&gqa), None);
        assert_eq!(chunk_dim_probed(&gqa), Some(3));
        // Its transpose (K as a D x Sk tile): contiguous along the rows.
        let t = gqa
            .compose(&Desc::transpose(&heads, &[0, 1, 3, 2]))
            .expect("composes");
        assert_eq!(chunk_dim_probed(&t), Some(2));
        let off = Desc::row_major(&kv)
            .compose(&Desc::slice(&kv, &[0, 0, 0, 4], &[1, 2, 136, 56]))
            .expect("composes");
        assert_eq!(chunk_dim_probed(&off), None);
        let every_other = Desc::row_major(&kv)
            .compose(&Desc::strided_slice(&kv, &[0; 4], &kv, &[1, 1, 1, 2]))
            .expect("composes");
        assert_eq!(chunk_dim_probed(&every_other), None);
    }

    /// BERT's padding mask, `[B, S]` broadcast to the scores `[B·H, Sq,
    /// Sk]`, is the same at every query (dim 1) but not at every key; a
    /// bias of N broadcast over a GEMM's rows likewise; a row-major
    /// tensor reads another element at each row, and a slice of a
    /// broadcast that pads its first row (rows past the tensor read
    /// padding, the others memory) is not the same at every row.
    #[test]
    fn broadcast_rows_are_ignored_dims() {
        let mask = [8, 512];
        let scores = [8, 12, 512, 512];
        let d = Desc::row_major(&mask)
            .compose(&Desc::broadcast(&mask, &scores, &[0, 3]))
            .and_then(|d| d.compose(&Desc::reshape(&scores, &[96, 512, 512])))
            .expect("composes");
        assert!(ignores_dim(&d, 1));
        assert!(!ignores_dim(&d, 2));
        assert!(!ignores_dim(&d, 0));
        let bias = Desc::row_major(&[768])
            .compose(&Desc::broadcast(&[768], &[4096, 768], &[1]))
            .expect("composes");
        assert!(ignores_dim(&bias, 0));
        assert!(!ignores_dim(&bias, 1));
        assert!(!ignores_dim(&Desc::row_major(&[64, 64]), 0));
        let padded = bias
            .compose(&Desc::concat_part(&[4096, 768], 0, 1, 4097))
            .expect("composes");
        assert!(!ignores_dim(&padded, 0));
    }

    /// A padded 3x3 convolution's A (im2col of an NHWC input, `[M, K]`
    /// with K = (kh, kw, c)): padding breaks the affine stages, but along
    /// K each chunk of 8 channels is wholly padding or contiguous while
    /// the channels are whole chunks; with 12 channels a chunk straddles
    /// two filter taps, and there is no chunk dim.
    #[test]
    fn padded_im2col_views_are_probed() {
        let a = |c: i64| {
            let conv = aic_dialects::coord::Conv {
                nchw: false,
                input: [2, 5, 6, c],
                filter: [3, 3],
                out_channels: 16,
                strides: [1, 1],
                dilations: [1, 1],
                pads: [1, 1, 1, 1],
                groups: 1,
            };
            Desc::conv_a_view(&conv, 0)
        };
        let padded = a(16);
        assert_eq!(padded.upper, vec![60, 144]);
        assert!(padded.locate(&[0, 0]).is_ok_and(|(_, ok)| !ok));
        assert_eq!(chunk_dim(&padded), None);
        assert_eq!(chunk_dim_probed(&padded), Some(1));
        assert_eq!(chunk_dim_probed(&a(12)), None);
    }
}
