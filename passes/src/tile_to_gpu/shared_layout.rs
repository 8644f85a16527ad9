//! `tile-shared-layout`: the shared memory of gemm kernels, decided and
//! written into the IR. A `tile.transfer` to shared memory that only
//! matrix-unit gemms read (their accumulators laid out by
//! [`super::mma_layout`]) gets its stored layout in its result type: rows
//! padded by 8 halves for ldmatrix, `padded<N + 8>`; a K loop whose
//! transfers cp.async can run ahead (see [`super::mma`]'s pipelines) gets
//! `stages = n` (the least depth its transfers ask for), and those of its
//! transfers that memory holds contiguous along the tile's rows are stored
//! transposed, `padded<M + 8, trans>`; the A and B of the one gemm of such
//! a loop on Hopper's warpgroup MMA are stored in wgmma's 128-byte
//! swizzle, `swizzle<3, 3, 3>` (`swizzle<3, 3, 3, trans>`), and so are an
//! attention loop's Q, K and V when both its gemms run on wgmma
//! ([`super::wgmma_attention`]; its loop may then have bounds known at
//! run time only, a causal attention's); with `copy=tma` (`tma_empty`) a
//! GEMM loop whose loads TMA can copy gets `copy = tma` (`tma_empty`; see
//! [`super::tma`]), its ring filled by bulk tensor copies. A store of a
//! tensor-core accumulator (mma.sync's or wgmma's fragments, or maps of
//! them) through memory that takes 16-byte runs along its rows, after the
//! K loops, gets `staged` ([`stage_stores`]): the lanes' 4-byte column
//! pairs, eight rows apart, go through the loops' rings, free by then, and
//! leave as whole runs. `tile-to-gpu`
//! lowers the transfers and loops as the IR says (and runs this pass
//! itself on kernels that carry no such decision yet).

use super::mma::{self, Kind, Pipe, Plan};
use super::{err, wgmma, wgmma_attention};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::ir::{Context, Op, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo, PassOptions};
use aic_dialects::coord::Desc;
use aic_dialects::gpu::elem_bytes;
use aic_dialects::tile::{self, Layout, TileType};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "tile-shared-layout",
    name: "TileSharedLayout",
    summary: "Lay out the shared tiles matrix-unit gemms read (padded rows, transposed storage, wgmma's swizzle) and pipeline their K loops with cp.async (stages), written into the IR",
    anchor: None,
    options: &[
        super::THREADS_OPTION,
        super::MMA_OPTION,
        super::COPY_OPTION,
        super::PERSISTENT_OPTION,
    ],
    create: |o: &PassOptions| {
        Box::new(TileSharedLayout {
            threads: o.int("threads").max(1),
            mma: Kind::parse(o.str("mma")),
            copy: tile::CopyKind::from_keyword(o.str("copy")).unwrap_or(tile::CopyKind::CpAsync),
            persistent: o.int("persistent"),
        })
    },
};

struct TileSharedLayout {
    threads: i64,
    mma: Kind,
    /// How wgmma loops fill their rings where TMA can (`copy`).
    copy: tile::CopyKind,
    /// Blocks of a warp-specialised persistent kernel (0: not persistent).
    persistent: i64,
}

impl Pass for TileSharedLayout {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut changed = false;
        for (k, threads) in super::kernels_and_threads(ctx, root, self.threads) {
            if has_layouts(ctx, k) {
                continue;
            }
            changed |= assign(ctx, k, threads, self.mma)?;
            changed |= super::tma::mark(ctx, k, threads, self.mma, self.copy, self.persistent)?;
            changed |= stage_stores(ctx, k, threads);
        }
        Ok(changed)
    }
}

/// The stored layout of transfer `t`'s shared tile, if a pass laid it out
/// for matrix units (padded or swizzled).
pub(super) fn stored(ctx: &Context, t: Op) -> Option<Layout> {
    let tt = mma::tile_type(ctx, ctx.result(t, 0))?;
    match tt.layout {
        Some(l @ (Layout::Padded { .. } | Layout::Swizzle { .. })) => Some(l),
        _ => None,
    }
}

/// Whether op `o` (a transfer, or a gemm whose B is one) stores its tile
/// in wgmma's swizzle.
fn stored_swizzled(ctx: &Context, o: Op) -> bool {
    let t = match tile::Gemm::of(ctx, o) {
        Some(g) => ctx.defining_op(g.b(ctx)),
        None => Some(o),
    };
    t.and_then(|t| stored(ctx, t))
        .is_some_and(|l| matches!(l, Layout::Swizzle { .. }))
}

/// Whether kernel `k` carries shared-memory decisions already: a laid-out
/// transfer or a pipelined loop.
pub(super) fn has_layouts(ctx: &Context, k: Op) -> bool {
    let mut any = false;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        any |= (tile::Transfer::is(ctx, o) && stored(ctx, o).is_some())
            || tile::For::of(ctx, o).is_some_and(|f| f.stages(ctx).is_some());
    });
    any
}

/// Decides the shared tiles and pipelines of kernel `k` around the gemms
/// its types put on matrix units of `kind` (blocks of `threads`) and
/// writes them into the IR; whether it wrote any.
pub(super) fn assign(
    ctx: &mut Context,
    k: Op,
    threads: i64,
    kind: Kind,
) -> Result<bool, Diagnostic> {
    let mut p = mma::plan(ctx, k, threads, kind)?;
    let (shared, _) = mma::plan_shared(ctx, k, threads, kind, &mut p, false);
    let changed = !shared.layouts.is_empty() || !shared.stages.is_empty();
    for (t, layout) in shared.layouts {
        let r = ctx.result(t, 0);
        let Some(tt) = tile::tile_type(ctx.uniquer(), ctx.value_type(r)).cloned() else {
            continue;
        };
        let ty = tile::make_tile(
            ctx.uniquer(),
            &TileType {
                layout: Some(layout),
                ..tt
            },
        );
        ctx.set_value_type(r, ty);
    }
    let (u, name) = (ctx.uniquer().clone(), ctx.ident("stages"));
    for (l, stages) in shared.stages {
        let a = u.attr(AttrKind::Integer {
            value: i128::from(stages),
            ty: u.int_type(64),
        });
        ctx.set_inherent_attr(l, name, a);
    }
    Ok(changed)
}

/// Marks the stores of kernel `k` (blocks of `threads`) that go through
/// shared memory (`staged`): a tensor-core accumulator's
/// ([`from_tensor_cores`]) whose memory takes runs of 16 bytes
/// ([`staged_run`]), where its staging tile (rows padded by a run) has
/// room ([`staging_fits`]); whether it marked any. A fragment's own stores
/// write each lane's 4-byte column pairs eight rows apart, and the
/// load-store queue held BERT's short-K GEMMs in their epilogues so (ncu:
/// `stall_lg` on `STG.E`), as it held a persistent 4096 x 4096 x 1024
/// GEMM's consumers (a third of their stall samples on its `STG.E`s).
pub(super) fn stage_stores(ctx: &mut Context, k: Op, threads: i64) -> bool {
    let mut stores = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if let Some(st) = tile::Store::of(ctx, o)
            && st.staged(ctx).is_none()
            && from_tensor_cores(ctx, st.value(ctx), 8)
            && staging_fits(ctx, k, st, threads)
        {
            stores.push(o);
        }
    });
    let (unit, name) = (ctx.uniquer().attr(AttrKind::Unit), ctx.ident("staged"));
    for &o in &stores {
        ctx.set_inherent_attr(o, name, unit);
    }
    !stores.is_empty()
}

/// Whether `v` is an accumulator of NVIDIA's tensor cores (mma.sync's
/// `mma<16, 8, ...>` or wgmma's fragments), or a map of one (an epilogue),
/// looking `depth` maps back: what `tile-to-gpu` holds as fragments.
fn from_tensor_cores(ctx: &Context, v: Value, depth: usize) -> bool {
    let tensor_cores = mma::tile_type(ctx, v).is_some_and(|t| {
        matches!(
            t.layout,
            Some(Layout::Wgmma { .. } | Layout::Mma { m: 16, n: 8, .. })
        )
    });
    tensor_cores
        || depth > 0
            && ctx
                .defining_op(v)
                .filter(|o| tile::Map::is(ctx, *o))
                .is_some_and(|o| {
                    ctx.operands(o)
                        .iter()
                        .any(|x| from_tensor_cores(ctx, *x, depth - 1))
                })
}

/// Elements of the runs a staged store `st` copies, 16 bytes (8 halves,
/// 4 floats), where memory takes them ([`mma::takes_runs`]) and the
/// tile's runs are shared evenly by `threads`.
pub(super) fn staged_run(ctx: &Context, st: tile::Store, threads: i64) -> Option<i64> {
    let t = mma::tile_type(ctx, st.value(ctx))?;
    let [m, n] = t.shape[..] else {
        return None;
    };
    let eb = elem_bytes(ctx, t.elem);
    let v = 16 / eb;
    let buf = st.buffer(ctx);
    let d = match st.desc(ctx) {
        Some(a) => aic_dialects::coord::desc_of(ctx.uniquer(), a).ok()?.clone(),
        None => Desc::row_major(ctx.type_kind(ctx.value_type(buf)).shape()?),
    };
    let last = *st.origin(ctx).last()?;
    let fits = matches!(eb, 2 | 4)
        && d.upper.len() >= 2
        && (m * n) % (threads * v) == 0
        && mma::takes_runs(ctx, (buf, last), &d, n, v);
    fits.then_some(v)
}

/// The shared tile a staged store goes through: `rows` of the stored
/// tile's, `stride` elements apart, copied out in runs of `run`.
pub(super) struct Staging {
    pub(super) run: i64,
    pub(super) rows: i64,
    pub(super) stride: i64,
}

/// The staging tile of staged store `st` ([`staged_run`]'s runs): its rows
/// padded by a run, so that the lanes' pairs of eight rows fall in
/// distinct banks.
pub(super) fn staging(ctx: &Context, st: tile::Store, threads: i64) -> Option<Staging> {
    let run = staged_run(ctx, st, threads)?;
    let t = mma::tile_type(ctx, st.value(ctx))?;
    Some(Staging {
        run,
        rows: t.shape[0],
        stride: t.shape[1] + run,
    })
}

/// Whether staged store `st` of kernel `k` may stage: memory takes its
/// runs ([`staged_run`]), and its staging tile ([`staging`]) has room. A
/// kernel's stores stage in the rings of its finished K loops where they
/// are free ([`rings_free_at`]) and hold the tile; a persistent kernel's
/// producer refills the rings for the next tile while the consumers store
/// one, so its stores (in the kernel's own block) stage in a region of
/// their own, the scratch region beside the rings, where the block's
/// shared memory holds both (a 128 x 256 GEMM's rings in 3 stages, not 4).
pub(super) fn staging_fits(ctx: &Context, k: Op, st: tile::Store, threads: i64) -> bool {
    let (Some(sg), Some(t)) = (
        staging(ctx, st, threads),
        mma::tile_type(ctx, st.value(ctx)),
    ) else {
        return false;
    };
    let mut rings = 0;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if tile::Transfer::is(ctx, o) {
            rings += transfer_bytes(ctx, o).unwrap_or_else(|| {
                mma::tile_type(ctx, ctx.result(o, 0)).map_or(0, |t| super::tile_bytes(ctx, &t))
            });
        }
    });
    let bytes = sg.rows * sg.stride * elem_bytes(ctx, t.elem);
    let kernel = tile::Kernel::of(ctx, k);
    if kernel.is_some_and(|k| k.persistent(ctx).is_some()) {
        // Beside the rings: their 1024-byte alignment (swizzles; none
        // where the rings are whole kilobytes) and up to 16 stages' full
        // and empty mbarriers, in a Hopper block (a persistent kernel is
        // warp-specialised: TMA, wgmma); a staging tile for each group of
        // consumers taking turns.
        let groups = kernel.and_then(|k| k.consumers(ctx)).unwrap_or(1);
        let align = if rings % 1024 == 0 { 0 } else { 1024 };
        return ctx.parent_op(st.op()) == Some(k)
            && rings + align + 256 + groups * bytes <= crate::legality::HOPPER_SHARED;
    }
    bytes <= rings && rings_free_at(ctx, st.op())
}

/// Whether the shared regions of the transfers are free at `op`: it lies
/// in its kernel's own block after every loop holding a transfer (a
/// pipelined loop waits for its copies past the last iteration before it
/// ends) and after every reader of a transfer outside loops (an
/// attention's Q, read in its key loop), and no loop's ring is filled by
/// TMA (whose mbarriers the rings' region does not include).
pub(super) fn rings_free_at(ctx: &Context, op: Op) -> bool {
    let Some(top) = ctx.parent_block(op) else {
        return false;
    };
    let Some(k) = ctx.parent_op(op).filter(|k| tile::Kernel::is(ctx, *k)) else {
        return false;
    };
    let order: Vec<Op> = ctx.block_ops(top).collect();
    let Some(here) = order.iter().position(|o| *o == op) else {
        return false;
    };
    let mut free = true;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if tile::For::of(ctx, o).is_some_and(|f| super::tma::is_tma(f.copy(ctx))) {
            free = false;
        }
        if !tile::Transfer::is(ctx, o) {
            return;
        }
        // The op of the kernel's block holding `x` (`x` itself there).
        let outer = |x: Op| {
            let mut a = x;
            while ctx.parent_block(a) != Some(top) {
                a = ctx.parent_op(a)?;
            }
            Some(a)
        };
        let before = |x: Op| {
            outer(x).is_some_and(|a| order.iter().position(|y| *y == a).is_some_and(|i| i < here))
        };
        // A loop's transfer dies with its loop; another with its last reader.
        free &= match outer(o) {
            Some(a) if a != o => before(a),
            Some(_) => ctx.uses(ctx.result(o, 0)).iter().all(|u| before(u.op)),
            None => false,
        };
    });
    free
}

/// Elements from one line of transfer `t`'s stored tile to the next (a row,
/// or a column where stored transposed), whether stored transposed and
/// whether swizzled; `None` where no pass laid it out.
pub(super) fn lines(ctx: &Context, t: Op) -> Option<(i64, bool, bool)> {
    let shape = mma::tile_type(ctx, ctx.result(t, 0))?.shape;
    match stored(ctx, t)? {
        Layout::Padded { row, trans } => Some((row, trans, false)),
        Layout::Swizzle { trans, .. } => {
            Some((if trans { shape[0] } else { shape[1] }, trans, true))
        }
        _ => None,
    }
}

/// The stages of the pipelined loop transfer `t` is a copy of, if it is.
fn stages_of(ctx: &Context, t: Op) -> Option<i64> {
    let block = ctx.parent_block(t)?;
    let l = ctx.region_parent(ctx.block_parent(block)?)?;
    tile::For::of(ctx, l)?.stages(ctx)
}

/// The bytes of laid-out transfer `t`'s shared region (its ring, where a
/// pipeline stages it).
pub(super) fn transfer_bytes(ctx: &Context, t: Op) -> Option<i64> {
    let (stride, trans, _) = lines(ctx, t)?;
    let tt = mma::tile_type(ctx, ctx.result(t, 0))?;
    let n = if trans { tt.shape[1] } else { tt.shape[0] };
    let depth = stages_of(ctx, t).unwrap_or(1);
    Some(depth * n * stride * aic_dialects::gpu::elem_bytes(ctx, tt.elem))
}

/// Whether `load` is left to the transfer that reads its tile: its one
/// reader a padded transfer in its block that no pipeline stages, the
/// memory contiguous along the tile's rows (a transposed operand), or
/// one in wgmma's swizzle ([`is_chunked`]).
pub(super) fn is_direct(ctx: &Context, load: Op) -> bool {
    let Some(l) = tile::Load::of(ctx, load) else {
        return false;
    };
    let uses = ctx.uses(l.result(ctx));
    let [u] = uses[..] else {
        return false;
    };
    let once = tile::Transfer::is(ctx, u.op)
        && stages_of(ctx, u.op).is_none()
        && ctx.parent_block(load) == ctx.parent_block(u.op);
    if !once {
        return false;
    }
    match stored(ctx, u.op) {
        Some(Layout::Padded { .. }) => mma::column_contiguous(ctx, l),
        Some(Layout::Swizzle { .. }) => is_chunked(ctx, l),
        _ => false,
    }
}

/// Whether wgmma's A staged once (an attention's Q, stored in wgmma's
/// swizzle) can be copied from `load`'s memory in 16-byte chunks
/// (cp.async straight into the swizzle): 16-bit elements, the memory
/// in whole aligned chunks along the tile's columns, the columns'
/// origin a constant multiple of a chunk. Rows may run past the end
/// (zero-filled).
pub(super) fn is_chunked(ctx: &Context, load: tile::Load) -> bool {
    let Some(t) = mma::tile_type(ctx, load.result(ctx)) else {
        return false;
    };
    let Some(desc) = mma::load_desc(ctx, load) else {
        return false;
    };
    let rank = desc.upper.len();
    let origin = load.origin(ctx);
    let col = origin.last().and_then(|v| mma::const_int(ctx, *v));
    t.shape.len() == 2
        && mma::chunk_of(ctx, t.elem) == Some(mma::CHUNK)
        && t.shape[1] % mma::CHUNK == 0
        && rank >= 2
        && origin.len() == rank
        && col.is_some_and(|c| c % mma::CHUNK == 0)
        && mma::contiguous_dim(&desc) == Some(rank - 1)
}

/// The pipeline of loop `l` as the IR says (its `stages`, its transfers'
/// stored layouts), if it has stages; an error where its transfers cannot
/// be pipelined so.
pub(super) fn pipe_of(
    ctx: &Context,
    l: Op,
    p: &Plan,
    kind: Kind,
) -> Result<Option<Pipe>, Diagnostic> {
    let Some(stages) = tile::For::of(ctx, l).and_then(|f| f.stages(ctx)) else {
        return Ok(None);
    };
    let laid_out = |t: Op| stored(ctx, t).is_some();
    let pipe = matches!(kind, Kind::Nvgpu | Kind::Wgmma)
        .then(|| mma::pipeline(ctx, l, p, &laid_out, kind == Kind::Wgmma))
        .flatten();
    let Some(mut pipe) = pipe else {
        return Err(err(
            ctx,
            l,
            format!(
                "a loop of {stages} stages whose transfers cp.async cannot pipeline on these matrix units"
            ),
        ));
    };
    for c in &pipe.copies {
        let Some((stride, trans, swizzled)) = lines(ctx, c.transfer) else {
            continue;
        };
        // Each row (or column) of a ring starts on a 16-byte copy.
        if !swizzled && stride % c.chunk != 0 {
            return Err(err(
                ctx,
                c.transfer,
                format!(
                    "a staged tile whose lines ({stride} elements) are not whole 16-byte copies of {} elements",
                    c.chunk
                ),
            ));
        }
        if trans != c.trans {
            let how = if c.trans { "columns" } else { "rows" };
            return Err(err(
                ctx,
                c.transfer,
                format!("a staged tile whose memory runs along its {how} is stored the other way"),
            ));
        }
    }
    // Byte tiles only wgmma reads are staged for the loop's one gemm on
    // wgmma only.
    if mma::byte_pipe(ctx, &pipe) {
        let body = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r));
        let single = body.and_then(|b| mma::single_gemm(ctx, b, &pipe));
        if !single.is_some_and(|g| p.is_wgmma(g)) {
            return Err(err(
                ctx,
                l,
                "a pipelined loop of 8-bit tiles whose one gemm is not on wgmma",
            ));
        }
    }
    pipe.depth = stages;
    Ok(Some(pipe))
}

/// Checks that the shared layouts and stages of kernel `k` fit what they
/// lay out: laid-out transfers read only as A or B of matrix-unit gemms,
/// transposed or swizzled ones staged by a pipeline (but an attention's
/// Q, which wgmma reads as A), swizzles wgmma's and read by wgmma gemms,
/// every wgmma gemm the one gemm of a pipeline whose operands are
/// swizzled or one of a wgmma attention loop's two.
pub(super) fn check(
    ctx: &Context,
    k: Op,
    p: &Plan,
    threads: i64,
    kind: Kind,
) -> Result<(), Diagnostic> {
    let mut ops = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| ops.push(o));
    for &o in &ops {
        if tile::For::is(ctx, o) {
            pipe_of(ctx, o, p, kind)?;
        }
        if let Some(st) = tile::Store::of(ctx, o).filter(|st| st.staged(ctx).is_some())
            && !staging_fits(ctx, k, st, threads)
        {
            return Err(err(
                ctx,
                o,
                "a staged store whose memory does not take 16-byte runs, or whose staging tile the free rings of finished K loops (a persistent kernel's: the shared memory beside its rings) do not hold",
            ));
        }
        let Some(l) = tile::Transfer::of(ctx, o).and_then(|_| stored(ctx, o)) else {
            continue;
        };
        let r = ctx.result(o, 0);
        let swizzled = matches!(l, Layout::Swizzle { .. });
        let readers_fit = ctx.uses(r).iter().all(|u| {
            u.index < mma::operands_read(ctx, u.op)
                && p.is_mma(u.op)
                && (!swizzled || p.is_wgmma(u.op))
        });
        if !readers_fit || ctx.uses(r).is_empty() {
            let what = if swizzled {
                "wgmma gemms"
            } else {
                "matrix-unit gemms"
            };
            return Err(err(
                ctx,
                o,
                format!(
                    "a laid-out shared tile read other than as A or B of {what} (or a sparse gemm's values and positions)"
                ),
            ));
        }
        // 16-byte units: 8 halves (swizzle<3, 3, 3>), 16 bytes (<3, 4, 3>).
        let chunk = mma::tile_type(ctx, r).and_then(|t| mma::chunk_of(ctx, t.elem));
        if let Layout::Swizzle { trans, .. } = l
            && chunk.is_none_or(|c| l != wgmma::swizzle(trans, c))
        {
            return Err(err(
                ctx,
                o,
                "a swizzle other than wgmma's 128-byte swizzle (<3, 3, 3> of 16-bit elements, <3, 4, 3> of 8-bit ones)",
            ));
        }
        let trans = lines(ctx, o).is_some_and(|(_, t, _)| t);
        // An attention's Q, staged once: wgmma reads it as A.
        let wgmma_a = !trans && ctx.uses(r).iter().all(|u| u.index == 0 && p.is_wgmma(u.op));
        if (trans || (swizzled && !wgmma_a)) && stages_of(ctx, o).is_none() {
            return Err(err(
                ctx,
                o,
                "a transposed or swizzled shared tile that no pipeline stages",
            ));
        }
    }
    for &g in ops.iter().filter(|g| p.is_wgmma(**g)) {
        let block = ctx.parent_block(g);
        let l = ctx.parent_op(g);
        let pipe = match l {
            Some(l) => pipe_of(ctx, l, p, kind)?,
            None => None,
        };
        let ok = pipe.is_some_and(|pipe| {
            let attention = block
                .and_then(|b| wgmma_attention::gemms(ctx, b, &pipe, p, threads))
                .is_some_and(|at| {
                    at[..2].contains(&g) && at.iter().all(|o| stored_swizzled(ctx, *o))
                });
            if attention {
                return true;
            }
            let single = block.and_then(|b| mma::single_gemm(ctx, b, &pipe)) == Some(g);
            let swizzled = pipe
                .copies
                .iter()
                .all(|c| matches!(stored(ctx, c.transfer), Some(Layout::Swizzle { .. })));
            single && swizzled && wgmma::fits(ctx, g, &pipe, threads)
        });
        if !ok {
            return Err(err(
                ctx,
                g,
                "a wgmma layout on a gemm that is not the one gemm of a pipelined loop",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A K loop of one f16 gemm, B read through a descriptor contiguous
    /// along K (so stored transposed when pipelined).
    const KERNEL: &str = "tile.kernel @k grid = [1] {
^bb0(%a: memref<64x128xf16>, %b: memref<64x128xf16>, %out: memref<64x64xf32>):
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero, dims = [] : f32 -> !tile.tile<64x64xf32>
  %acc = tile.for %c0 to %c128 step %c64 iter_args(%init : !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
  ^bb0(%kk: index, %c: !tile.tile<64x64xf32>):
    %ta = tile.load %a[%c0, %kk] : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sa = tile.transfer %ta to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %tb = tile.load %b[%kk, %c0] through #coord.desc<[128, 64] | embed<8192: 1, 128> [0, 1] -> [0]> : memref<64x128xf16> -> !tile.tile<64x64xf16>
    %sb = tile.transfer %tb to shared depth = 3 : !tile.tile<64x64xf16> -> !tile.tile<64x64xf16, shared>
    %d = tile.gemm %sa, %sb, %c level = block : !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf16, shared>, !tile.tile<64x64xf32> -> !tile.tile<64x64xf32>
    tile.yield %d : !tile.tile<64x64xf32>
  }
  tile.store %acc, %out[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  tile.return
}";

    fn parse(ctx: &mut Context) -> Op {
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", KERNEL.to_string());
        aic::syntax::parse_module(ctx, &sm, file).expect("parses")
    }

    fn ops(ctx: &Context, m: Op) -> (Op, Op, Vec<Op>) {
        let (mut k, mut l, mut transfers) = (None, None, Vec::new());
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(ctx, o) {
                k = Some(o);
            } else if tile::For::is(ctx, o) {
                l = Some(o);
            } else if tile::Transfer::is(ctx, o) {
                transfers.push(o);
            }
        });
        (k.expect("a kernel"), l.expect("a loop"), transfers)
    }

    #[test]
    fn pipelined_operands_are_padded_transposed_or_swizzled() {
        for (kind, a, b) in [
            (
                Kind::Nvgpu,
                Layout::Padded {
                    row: 72,
                    trans: false,
                },
                Layout::Padded {
                    row: 72,
                    trans: true,
                },
            ),
            (
                Kind::Wgmma,
                wgmma::swizzle(false, mma::CHUNK),
                wgmma::swizzle(true, mma::CHUNK),
            ),
        ] {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let m = parse(&mut ctx);
            let (k, l, transfers) = ops(&ctx, m);
            // Without matrix layouts on the gemms, nothing to decide.
            assert!(!assign(&mut ctx, k, 128, kind).expect("assigns"));
            assert!(!has_layouts(&ctx, k));
            assert!(super::super::mma_layout::assign(&mut ctx, k, 128, kind));
            assert!(assign(&mut ctx, k, 128, kind).expect("assigns"));
            assert!(has_layouts(&ctx, k));
            aic::verifier::verify(&ctx, m).expect("verifies");
            assert_eq!(tile::For::wrap(l).stages(&ctx), Some(3));
            assert_eq!(stored(&ctx, transfers[0]), Some(a));
            assert_eq!(stored(&ctx, transfers[1]), Some(b));
            // The lowering reads the pipeline back from the IR.
            let p = mma::plan(&ctx, k, 128, kind).expect("plans");
            check(&ctx, k, &p, 128, kind).expect("fits");
            let pipe = pipe_of(&ctx, l, &p, kind).expect("fits").expect("a pipe");
            assert_eq!(pipe.depth, 3);
            let trans: Vec<bool> = pipe.copies.iter().map(|c| c.trans).collect();
            assert_eq!(trans, [false, true]);
            // Stages are the IR's, not the transfers' depths.
            let two = ctx.uniquer().attr(AttrKind::Integer {
                value: 2,
                ty: ctx.uniquer().int_type(64),
            });
            let name = ctx.ident("stages");
            ctx.set_inherent_attr(l, name, two);
            let pipe = pipe_of(&ctx, l, &p, kind).expect("fits").expect("a pipe");
            assert_eq!(pipe.depth, 2);
            // B stored row after row, its memory running along its rows: an error.
            let r = ctx.result(transfers[1], 0);
            let tt = mma::tile_type(&ctx, r).expect("a tile");
            let rows = tile::make_tile(
                ctx.uniquer(),
                &TileType {
                    layout: Some(Layout::Padded {
                        row: 72,
                        trans: false,
                    }),
                    ..tt
                },
            );
            ctx.set_value_type(r, rows);
            assert!(pipe_of(&ctx, l, &p, kind).is_err());
        }
    }

    #[test]
    fn amd_matrix_units_pad_without_pipelines() {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let m = parse(&mut ctx);
        let (k, l, transfers) = ops(&ctx, m);
        assert!(super::super::mma_layout::assign(
            &mut ctx,
            k,
            128,
            Kind::Amdgpu
        ));
        assert!(assign(&mut ctx, k, 128, Kind::Amdgpu).expect("assigns"));
        assert_eq!(tile::For::wrap(l).stages(&ctx), None);
        for t in transfers {
            let padded = Layout::Padded {
                row: 72,
                trans: false,
            };
            assert_eq!(stored(&ctx, t), Some(padded));
            assert_eq!(transfer_bytes(&ctx, t), Some(64 * 72 * 2));
        }
    }
}
