//! The ring of a wgmma K loop filled by Hopper's tensor memory accelerator
//! (`tile.for ... copy = tma`, which `tile-shared-layout{copy=tma}`
//! writes): one thread starts, per stage and operand, bulk tensor copies
//! (`nvgpu.tma.async.load`) of `lines x 64` boxes straight into the
//! 128-byte-swizzled stage wgmma reads, each landing on the stage's
//! mbarrier; the block waits on that mbarrier's phase instead of on
//! cp.async groups.
//!
//! Which loops: those whose one gemm runs on wgmma ([`super::wgmma`]) and
//! whose staged loads each read a 2-D tensor TMA can describe: the tile's
//! element `(i, j)` at `i·s0 + j·s1` of the buffer with one of the strides
//! 1 (the tensor's columns; the tile's runs of 64 along it) and the other
//! a multiple of 16 bytes at least a row long (its rows; at most 256 of
//! the tile's lines, a multiple of 8).
//!
//! The loop: before it, thread 0 initialises one mbarrier per stage (one
//! arrival each) and fences them for the async proxy, and, after a block
//! barrier, starts stages 0 .. depth - 3;
//! iteration `i` waits for the phase `i / depth` (parity `(i / depth) % 2`)
//! of stage `i % depth`'s mbarrier, syncs the block (every warpgroup has
//! waited for iteration `i - 2`'s wgmmas, so that stage is free), thread 0
//! arrives on the mbarrier of iteration `i + depth - 2`'s stage expecting
//! the stage's bytes and starts its copies, and the warpgroups run their
//! wgmmas as [`super::wgmma`] does. Out-of-bounds boxes read zeros.
//!
//! With `copy = tma_empty` no block barrier frees the stages: each stage
//! has an empty mbarrier too (one arrival per warp), on which lane 0 of
//! each warp arrives once its wgmmas of the stage have completed (after
//! the next iteration's `wgmma.wait_group 1`), and thread 0 waits on it
//! before refilling the stage; the warps only wait on full mbarriers.

use super::mma::{self, Copy, Kind, Pipe, Warps, tile_type};
use super::wgmma::Steps;
use super::{Lower, err, shared_layout};
use aic::Diagnostic;
use aic::ir::{Context, Op, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use aic_dialects::arith;
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::gpu::AddressSpace;
use aic_dialects::nvgpu::{self, TensorMapDescriptor};
use aic_dialects::nvvm;
use aic_dialects::tile::{self, CopyKind, TileType};

/// Elements of a box's row: 128 bytes of f16 or bf16.
const RUN: i64 = 64;

/// How long each try of an mbarrier wait may suspend the thread (the
/// hint of `mbarrier.try_wait`, in nanoseconds).
const WAIT_TICKS: i64 = 10_000_000;

/// A staged transfer as TMA copies it: the 2-D tensor (rows, columns,
/// the row stride in elements) its load reads, which tile dim runs along
/// the tensor's rows (`line_dim`; the other runs along its columns), and
/// the tile's lines and elements per line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Global {
    pub(super) rows: i64,
    pub(super) cols: i64,
    pub(super) stride: i64,
    pub(super) line_dim: usize,
    pub(super) lines: i64,
    pub(super) run: i64,
}

/// The tensors a TMA loop's copies read, one per copy of its pipe.
pub(super) struct Ring {
    pub(super) globals: Vec<Global>,
    /// The loop.
    pub(super) l: Op,
    /// Whether the warps free stages through empty mbarriers
    /// (`tma_empty`) rather than a block barrier each iteration.
    pub(super) empty: bool,
}

/// Whether a loop's `copy` says TMA fills its ring.
pub(super) fn is_tma(copy: Option<CopyKind>) -> bool {
    matches!(copy, Some(CopyKind::Tma | CopyKind::TmaEmpty))
}

/// The 2-D tensor TMA reads copy `c`'s tile from, if it can (see the
/// module's doc).
pub(super) fn global_of(ctx: &Context, c: &Copy) -> Option<Global> {
    let ld = tile::Load::of(ctx, c.load)?;
    let tt = tile_type(ctx, ld.result(ctx))?;
    if ld.origin(ctx).len() != 2 || tt.shape.len() != 2 || mma::half_kind(ctx, tt.elem).is_none() {
        return None;
    }
    let d = &c.desc;
    let [u0, u1] = d.upper[..] else {
        return None;
    };
    let at = |i: i64, j: i64| d.offset(&[i, j]).filter(|(_, v)| *v).map(|(o, _)| o);
    if at(0, 0)? != 0 || u0 < 2 || u1 < 2 {
        return None;
    }
    let (s0, s1) = (at(1, 0)?, at(0, 1)?);
    for (i, j) in [(u0 - 1, u1 - 1), (u0 / 2, u1 / 2), (u0 - 1, 0), (0, u1 - 1)] {
        if at(i, j)? != i * s0 + j * s1 {
            return None;
        }
    }
    let (line_dim, stride) = match (s0, s1) {
        (s, 1) => (0, s),
        (1, s) => (1, s),
        _ => return None,
    };
    let run_dim = 1 - line_dim;
    let (rows, cols) = (d.upper[line_dim], d.upper[run_dim]);
    let n: i64 = ctx
        .type_kind(ctx.value_type(ld.buffer(ctx)))
        .shape()
        .map_or(0, |s| s.iter().product());
    let (lines, run) = (tt.shape[line_dim], tt.shape[run_dim]);
    let fits = stride >= cols
        && (stride * 2) % 16 == 0
        && (rows - 1) * stride + cols <= n
        && c.trans == (run_dim == 0)
        && (8..=256).contains(&lines)
        && lines % 8 == 0
        && run % RUN == 0;
    fits.then_some(Global {
        rows,
        cols,
        stride,
        line_dim,
        lines,
        run,
    })
}

/// The loop of `gemm` (the one gemm of pipelined loop `pipe`) if the IR
/// says TMA fills its ring, with the tensors it reads; an error where it
/// says so of a loop TMA cannot copy.
pub(super) fn ring_of(ctx: &Context, gemm: Op, pipe: &Pipe) -> Result<Option<Ring>, Diagnostic> {
    let l = ctx.parent_op(gemm);
    let Some((l, copy)) = l.and_then(|l| Some((l, tile::For::of(ctx, l)?.copy(ctx)))) else {
        return Ok(None);
    };
    if !is_tma(copy) {
        return Ok(None);
    }
    let empty = copy == Some(CopyKind::TmaEmpty);
    let globals: Option<Vec<Global>> = pipe.copies.iter().map(|c| global_of(ctx, c)).collect();
    match globals {
        Some(globals) => Ok(Some(Ring { globals, l, empty })),
        None => Err(err(
            ctx,
            l,
            "a loop copied by TMA whose loads are not boxes of 2-D tensors TMA can read",
        )),
    }
}

/// Writes `copy` (a TMA kind) on the pipelined loops of kernel `k`
/// (blocks of `threads`, matrix units `kind`) whose one gemm runs on wgmma
/// and whose copies TMA can run; whether it wrote any.
pub(super) fn mark(
    ctx: &mut Context,
    k: Op,
    threads: i64,
    kind: Kind,
    copy: CopyKind,
) -> Result<bool, Diagnostic> {
    if kind != Kind::Wgmma || !is_tma(Some(copy)) {
        return Ok(false);
    }
    let p = mma::plan(ctx, k, threads, kind)?;
    let mut loops = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if tile::For::of(ctx, o).is_some_and(|f| f.stages(ctx).is_some()) {
            loops.push(o);
        }
    });
    let mut marked = Vec::new();
    for l in loops {
        let Some(pipe) = shared_layout::pipe_of(ctx, l, &p, threads, kind)? else {
            continue;
        };
        let Some(body) = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r)) else {
            continue;
        };
        let wgmma = mma::single_gemm(ctx, body, &pipe).is_some_and(|g| p.is_wgmma(g));
        if wgmma && pipe.copies.iter().all(|c| global_of(ctx, c).is_some()) {
            marked.push(l);
        }
    }
    let (u, name) = (ctx.uniquer().clone(), ctx.ident("copy"));
    for l in &marked {
        ctx.set_inherent_attr(*l, name, copy.attr(&u));
    }
    Ok(!marked.is_empty())
}

impl Lower<'_> {
    /// The pipelined wgmma loop of `pipe` with its ring filled by TMA (see
    /// the module's doc): `st` what its wgmmas read, `carried` the
    /// accumulator's array, layout and tile, `v0` its first value.
    pub(super) fn lower_wgmma_tma(
        &mut self,
        pipe: &Pipe,
        ring: &Ring,
        st: &Steps<'_>,
        carried: (Value, Warps, TileType),
        v0: Value,
        results: &[Value],
    ) -> Result<(), Diagnostic> {
        let u = self.ctx.uniquer().clone();
        let i64t = u.int_type(64);
        let body = super::body_of(self.ctx, ring.l, "a loop")?;
        let iv = self.ctx.block_args(body)[0];
        // One tensor map per copy, made where the loop starts.
        let mut maps = Vec::new();
        let mut stage_bytes = 0;
        for (g, c) in ring.globals.iter().zip(&pipe.copies) {
            let ld = tile::Load::wrap(c.load);
            let buf = self.map.value(ld.buffer(self.ctx));
            let elem = st.rings[0].3.elem;
            let tensor = u.ty(TypeKind::MemRef {
                shape: [g.lines, RUN].as_slice().into(),
                elem,
                layout: None,
                memory_space: Some(AddressSpace::Workgroup.attr(&u)),
            });
            let ty = TensorMapDescriptor {
                tensor,
                swizzle: 128,
            }
            .ty(&u);
            let shape = u.i64_array(&[g.rows, g.cols]);
            let strides = u.i64_array(&[g.stride, 1]);
            maps.push(
                nvgpu::TmaCreateDescriptor::build(self, buf, shape, strides, ty)
                    .tensor_map(self.ctx),
            );
            stage_bytes += g.lines * g.run * aic_dialects::gpu::elem_bytes(self.ctx, elem);
        }
        let at = *self
            .transfer_at
            .get(&ring.l)
            .ok_or_else(|| err(self.ctx, ring.l, "a TMA loop without mbarriers"))?;
        // Full mbarriers, then (tma_empty) empty ones.
        let sets = if ring.empty { 2 } else { 1 };
        let bars = self.shared_view(at, sets * pipe.depth, i64t);
        let zero = ab::index(self, 0);
        let first = ab::cmpi(self, CmpIPredicate::Eq, self.tid, zero);
        let depth = pipe.depth;
        let warps = self.threads / 32;
        self.when(first, &mut |s| {
            let one = ab::index(s, 1);
            for i in 0..depth {
                let i = ab::index(s, i);
                nvgpu::MbarrierInit::build(s, bars, i, one);
            }
            // An empty stage: every warp has arrived.
            let nw = ab::index(s, warps);
            for i in (0..depth).filter(|_| ring.empty) {
                let i = ab::index(s, depth + i);
                nvgpu::MbarrierInit::build(s, bars, i, nw);
            }
            // The initialised barriers, for the copy engine's proxy.
            let kind = nvvm::ProxyKind::AsyncShared.attr(&u);
            nvvm::FenceProxy::build(s, kind, Some(nvvm::SharedSpace::Cta.attr(&u)));
            Ok(())
        })?;
        self.barrier();
        // Thread 0 starts iteration `it`'s copies into its stage, only where
        // `live`.
        let issue = |s: &mut Self, it: Value, live: Option<Value>| -> Result<(), Diagnostic> {
            let go = match live {
                Some(l) => ab::binary::<arith::AndI>(s, first, l),
                None => first,
            };
            s.when(go, &mut |s| {
                let (d, lb, step) = (
                    ab::index(s, pipe.depth),
                    ab::index(s, pipe.lb),
                    ab::index(s, pipe.step),
                );
                let slot = ab::binary::<arith::RemUI>(s, it, d);
                if ring.empty {
                    // The stage is free once every warp has read it, the
                    // iteration `depth` before (phase it / depth - 1).
                    let used = ab::cmpi(s, CmpIPredicate::Uge, it, d);
                    s.when(used, &mut |s| {
                        let d = ab::index(s, depth);
                        let phase = ab::binary::<arith::DivUI>(s, it, d);
                        let one = ab::index(s, 1);
                        let phase = ab::binary::<arith::SubI>(s, phase, one);
                        let parity = s.parity(phase);
                        let at = ab::binary::<arith::AddI>(s, slot, d);
                        let ticks = ab::index(s, WAIT_TICKS);
                        nvgpu::MbarrierTryWaitParity::build(s, bars, at, parity, ticks);
                        Ok(())
                    })?;
                }
                let ivv = ab::binary::<arith::MulI>(s, it, step);
                let ivv = ab::binary::<arith::AddI>(s, ivv, lb);
                let bytes = ab::index(s, stage_bytes);
                nvgpu::MbarrierArriveExpectTx::build(s, bars, slot, bytes);
                for (((g, c), map), r) in ring
                    .globals
                    .iter()
                    .zip(&pipe.copies)
                    .zip(&maps)
                    .zip(st.rings)
                {
                    let ld = tile::Load::wrap(c.load);
                    let origin: Vec<Value> = ld
                        .origin(s.ctx)
                        .iter()
                        .map(|v| if *v == iv { ivv } else { s.map.value(*v) })
                        .collect();
                    let row = origin[g.line_dim];
                    let stage = ab::index(s, r.2);
                    let base = ab::binary::<arith::MulI>(s, slot, stage);
                    for blk in 0..g.run / RUN {
                        let dc = ab::index(s, blk * RUN);
                        let col = ab::binary::<arith::AddI>(s, origin[1 - g.line_dim], dc);
                        let off = ab::index(s, blk * g.lines * RUN);
                        let dst = ab::binary::<arith::AddI>(s, base, off);
                        nvgpu::TmaAsyncLoad::build(s, *map, &[row, col], bars, slot, r.0, dst);
                    }
                }
                Ok(())
            })
        };
        for it in 0..pipe.depth - 2 {
            let itv = ab::index(self, it);
            let live = (it >= pipe.n).then(|| ab::int(self, 0, u.int_type(1)));
            issue(self, itv, live)?;
        }
        let (lo, hi, one) = (
            ab::index(self, 0),
            ab::index(self, pipe.n),
            ab::index(self, 1),
        );
        let out = self.for_loop(lo, hi, one, &[v0], &mut |s, it, args| {
            let d = ab::index(s, pipe.depth);
            let slot = ab::binary::<arith::RemUI>(s, it, d);
            let phase = ab::binary::<arith::DivUI>(s, it, d);
            let parity = s.parity(phase);
            let ticks = ab::index(s, WAIT_TICKS);
            nvgpu::MbarrierTryWaitParity::build(s, bars, slot, parity, ticks);
            if !ring.empty {
                s.barrier();
            }
            let ahead = ab::index(s, pipe.depth - 2);
            let next = ab::binary::<arith::AddI>(s, it, ahead);
            let nn = ab::index(s, pipe.n);
            let live = ab::cmpi(s, CmpIPredicate::Ult, next, nn);
            issue(s, next, Some(live))?;
            let v = s.wgmma_steps(st, slot, args[0]);
            s.wgmma_wait(1);
            if ring.empty {
                // Iteration it - 1's wgmmas are done: lane 0 of each warp
                // frees its stage.
                let (c32, zero, one) = (ab::index(s, 32), ab::index(s, 0), ab::index(s, 1));
                let lane = ab::binary::<arith::RemUI>(s, s.tid, c32);
                let lane0 = ab::cmpi(s, CmpIPredicate::Eq, lane, zero);
                let after = ab::cmpi(s, CmpIPredicate::Uge, it, one);
                let go = ab::binary::<arith::AndI>(s, lane0, after);
                s.when(go, &mut |s| {
                    let (d, one) = (ab::index(s, depth), ab::index(s, 1));
                    let prev = ab::binary::<arith::SubI>(s, it, one);
                    let slot = ab::binary::<arith::RemUI>(s, prev, d);
                    let at = ab::binary::<arith::AddI>(s, slot, d);
                    nvgpu::MbarrierArrive::build(s, bars, at);
                    Ok(())
                })?;
            }
            Ok(vec![v])
        })?;
        self.wgmma_wait(0);
        self.wgmma_finish(out[0], carried, results);
        Ok(())
    }

    /// Whether phase `phase` (an index) is odd, as an `i1`.
    fn parity(&mut self, phase: Value) -> Value {
        let (two, zero) = (ab::index(self, 2), ab::index(self, 0));
        let p = ab::binary::<arith::RemUI>(self, phase, two);
        ab::cmpi(self, CmpIPredicate::Ne, p, zero)
    }
}
