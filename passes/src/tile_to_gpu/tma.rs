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
//! the tile's lines, a multiple of 8). A load with a leading batch index
//! (attention's `[batch·heads, tokens, d]`) reads the 2-D tensor of all
//! batches' rows where its boxes cannot reach into the next batch (see
//! [`global_of`]). Attention loops on wgmma take TMA warp-specialised
//! only (`tma_ws`, [`super::wgmma_attention`]).
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
//!
//! With `copy = tma_ws` the kernel is warp-specialised: its block has a
//! producer warpgroup beyond the kernel's `threads` (the consumers, whose
//! layouts are unchanged). Thread 0 makes the full and empty mbarriers
//! before the block splits; then the producer warpgroup gives registers
//! back (`nvvm.setmaxregister decrease`) and its first thread alone runs
//! the K loop's copies, waiting on each stage's empty mbarrier before
//! refilling it, as far ahead as the ring allows; the consumers take
//! registers (`increase`, where there are two consumer warpgroups: 40 and
//! 232 registers, as CUTLASS's cooperative kernels) and run the loop's
//! wgmmas on full mbarriers alone, each warp's lane 0 freeing a stage once
//! the wgmmas that read it are done. Everything after the loop (the
//! epilogue) is the consumers', so their block barriers are the named
//! barrier 1 of `threads` threads. The producer's copies compute their
//! origins (and the loop's bounds, where they are known at run time only)
//! again from the tile kernel's scalars ([`Lower::remat`]): the loop must
//! be directly in the kernel's body, and its loads' origins made of
//! region-free scalar ops of the kernel's arguments and the induction
//! variable. Several such loops one after another (a causal attention's
//! unmasked key blocks, then its diagonal: bounds known at run time, none
//! or more iterations) fill one ring: the producer copies for each in
//! turn, the fills numbered on from one loop to the next, and the
//! consumers wait for them so; no other kind of TMA loop may be beside
//! them, and a persistent kernel has one loop of constant bounds.
//!
//! A persistent kernel with `consumers = 2` runs two consumer groups of
//! the kernel's `threads` beside the producer, each taking every other
//! tile and running its K loop in turns with the other ([`Turns`]).

use super::mma::{self, Copy, Kind, Pipe, Warps, tile_type};
use super::wgmma::Steps;
use super::{Lower, err, shared_layout};
use aic::Diagnostic;
use aic::ir::{Context, Op, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use aic_dialects::arith;
use aic_dialects::arith::bounds::Span;
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::coord::Desc;
use aic_dialects::gpu::AddressSpace;
use aic_dialects::nvgpu::{self, TensorMapDescriptor};
use aic_dialects::nvvm;
use aic_dialects::tile::{self, CopyKind, TileType};

/// A staged transfer's ring in shared memory: its view, the elements of
/// a line, of a stage, and the tile.
pub(super) type RingView = (Value, i64, i64, TileType);

/// Elements of a box's row: 128 bytes of f16 or bf16.
const RUN: i64 = 64;

/// Threads of a warp-specialised kernel's producer warpgroup.
pub(super) const PRODUCER_THREADS: i64 = 128;

/// Registers a thread of the producer warpgroup keeps and a thread of the
/// consumers takes (`setmaxnreg`), by the number of consumer warpgroups:
/// two (384 threads, 168 registers each at launch) or three (512
/// threads, 128 at launch); the 64K registers of an SM between them.
/// Other blocks keep what they launch with.
pub(crate) fn register_split(consumer_threads: i64) -> Option<(i64, i64)> {
    match consumer_threads / PRODUCER_THREADS {
        _ if consumer_threads % PRODUCER_THREADS != 0 => None,
        2 => Some((40, 232)),
        3 => Some((32, 160)),
        _ => None,
    }
}

/// The block where a warp-specialised kernel's producer warpgroup's code
/// goes, the loops it copies for (one after another, on one ring) and
/// their mbarriers (full, then empty).
pub(super) struct Producer {
    pub(super) block: aic::ir::Block,
    /// The consumers' block.
    pub(super) consumers: aic::ir::Block,
    pub(super) loops: Vec<Op>,
    pub(super) bars: Value,
    /// The ring fills of the loops lowered so far: counted in the
    /// producer's block and in the consumers' (none yet: None).
    pub(super) made: Option<Value>,
    pub(super) taken: Option<Value>,
}

/// A ping-pong kernel's two consumer groups (`tile.kernel ... consumers =
/// 2`, each of the kernel's `threads`): this thread's group (0 or 1) and
/// its id in the whole block (the consumers' lowering sees its id in its
/// group). Group `g` takes every other tile of the block's, from its
/// `g`-th on, and the groups run their K loops in turns on named
/// barriers `2 + g` (two groups' threads): group 0's turns on barrier 2,
/// group 1's on barrier 3. A group waits for its turn before its loop and
/// gives the other its turn once it has issued the loop's wgmmas, so
/// that one group's epilogue runs while the other's K loop does, and a
/// group waits on ring fills only after the other has waited on every
/// fill before them (an mbarrier phase is told by its parity alone, so
/// no waiter may run more than a phase ahead). Each group's block
/// barrier is named barrier `5 + g` of its own threads.
pub(super) struct Turns {
    pub(super) group: Value,
    pub(super) block_tid: Value,
    /// Whether anything took scratch memory but a staged store's staging
    /// tiles (each group's its own, [`Lower::staged_store`]): the two
    /// groups would share it at once (an error).
    pub(super) shared_scratch: bool,
}

/// Named barriers of the consumer groups taking turns ([`Turns`]): group
/// `g`'s turns, and its own block barrier.
const TURN_BARRIER: i64 = 2;
const GROUP_BARRIER: i64 = 5;

/// What a TMA ring's stages are filled through: the tensor maps and ring
/// views (one per copy), the mbarriers and the bytes of a stage.
struct Stage<'a> {
    maps: &'a [Value],
    views: &'a [Value],
    bars: Value,
    bytes: i64,
}

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
    /// Rows of one batch where the load's first index is a batch (the
    /// box's row is `batch · rows + row`).
    pub(super) batch: Option<i64>,
}

impl Global {
    /// The tensor row and column of the box whose tile origin is
    /// `origin` (the load's, batch first where there is one).
    fn box_at(&self, s: &mut Lower<'_>, origin: &[Value]) -> (Value, Value) {
        let lead = usize::from(self.batch.is_some());
        let (row, col) = (
            origin[lead + self.line_dim],
            origin[lead + 1 - self.line_dim],
        );
        match self.batch {
            Some(rows) => (s.mul_add(origin[0], rows, row), col),
            None => (row, col),
        }
    }
}

/// The tensors a TMA loop's copies read, one per copy of its pipe.
pub(super) struct Ring {
    pub(super) globals: Vec<Global>,
    /// The loop.
    pub(super) l: Op,
    /// Whether the warps free stages through empty mbarriers
    /// (`tma_empty`, `tma_ws`) rather than a block barrier each iteration.
    pub(super) empty: bool,
    /// Whether a producer warpgroup issues the copies (`tma_ws`).
    pub(super) ws: bool,
}

/// Whether a loop's `copy` says TMA fills its ring.
pub(super) fn is_tma(copy: Option<CopyKind>) -> bool {
    matches!(
        copy,
        Some(CopyKind::Tma | CopyKind::TmaEmpty | CopyKind::TmaWs)
    )
}

/// Whether scalar `v` of the tile kernel `k` can be computed again
/// elsewhere in the kernel ([`Lower::remat`]): a kernel argument, or the
/// result of a region-free op on no tiles whose operands can be (`iv`,
/// the loop's induction variable, stands for itself).
fn rematerializable(ctx: &Context, k: Op, v: Value, iv: Value) -> bool {
    if v == iv {
        return true;
    }
    let Some(d) = ctx.defining_op(v) else {
        let kernel_arg = ctx
            .regions(k)
            .first()
            .and_then(|r| ctx.entry_block(*r))
            .is_some_and(|b| ctx.block_args(b).contains(&v));
        return kernel_arg;
    };
    let u = ctx.uniquer();
    let tile_free = |x: Value| tile::tile_type(u, ctx.value_type(x)).is_none();
    ctx.regions(d).is_empty()
        && ctx.results(d).all(tile_free)
        && ctx.operands(d).iter().all(|x| tile_free(*x))
        && ctx
            .operands(d)
            .iter()
            .all(|x| rematerializable(ctx, k, *x, iv))
}

/// Whether loop `l` of tile kernel `k` can be warp-specialised (see the
/// module's doc): directly in the kernel's body, its bounds (where they
/// are known at run time only) and its staged loads' origins
/// rematerializable.
fn ws_fits(ctx: &Context, k: Op, l: Op, pipe: &Pipe) -> bool {
    let Some(iv) = ctx
        .regions(l)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .map(|b| ctx.block_args(b)[0])
    else {
        return false;
    };
    ctx.parent_op(l) == Some(k)
        && [pipe.lower, pipe.upper]
            .into_iter()
            .flatten()
            .all(|v| rematerializable(ctx, k, v, iv))
        && pipe.copies.iter().all(|c| {
            tile::Load::of(ctx, c.load).is_some_and(|ld| {
                ld.origin(ctx)
                    .iter()
                    .all(|v| rematerializable(ctx, k, *v, iv))
            })
        })
}

/// The loops of kernel `k` that the IR warp-specialises (`copy =
/// tma_ws`), in program order, one after another on one ring (none: an
/// empty list); an error where one says so but cannot be (another kind of
/// TMA loop beside them, nested in other ops, rings of unlike stages, a
/// persistent kernel of several loops or of run-time bounds). A copy
/// origin the producer cannot compute again is an error where it lowers it
/// ([`Lower::remat`]).
pub(super) fn warp_specialized(ctx: &Context, k: Op) -> Result<Vec<Op>, Diagnostic> {
    let mut ws = Vec::new();
    let mut tma = 0;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        let copy = tile::For::of(ctx, o).and_then(|f| f.copy(ctx));
        if is_tma(copy) {
            tma += 1;
        }
        if copy == Some(CopyKind::TmaWs) {
            ws.push(o);
        }
    });
    let Some(&l) = ws.first() else {
        return Ok(ws);
    };
    if tma > ws.len() {
        return Err(err(
            ctx,
            l,
            "a warp-specialised loop (copy = tma_ws) must be its kernel's only kind of TMA loop",
        ));
    }
    let stages = |l: Op| tile::For::of(ctx, l).and_then(|f| f.stages(ctx));
    for w in &ws {
        if ctx.parent_op(*w) != Some(k) {
            return Err(err(
                ctx,
                *w,
                "a warp-specialised loop (copy = tma_ws) must be directly in its kernel's body",
            ));
        }
        if stages(*w) != stages(l) {
            return Err(err(
                ctx,
                *w,
                "the warp-specialised loops (copy = tma_ws) of a kernel fill one ring: their stages must be alike",
            ));
        }
    }
    let bounded = |w: &Op| {
        tile::For::of(ctx, *w).is_some_and(|f| {
            [f.lower(ctx), f.upper(ctx)]
                .iter()
                .all(|v| arith::constant_int(ctx, *v).is_some())
        })
    };
    let persistent = tile::Kernel::of(ctx, k).is_some_and(|k| k.persistent(ctx).is_some());
    if persistent && (ws.len() > 1 || !bounded(&l)) {
        return Err(err(
            ctx,
            l,
            "a persistent warp-specialised kernel must have one loop of constant bounds (copy = tma_ws)",
        ));
    }
    Ok(ws)
}

/// The strides of descriptor `d` over its last two dims (rows, columns)
/// and, where `lead` is 1, its first (a batch), where its offsets are
/// those strides' sums (0 at the origin; checked at the corners and the
/// middle) and every index valid.
fn strides(d: &Desc, lead: usize) -> Option<(i64, i64, i64)> {
    let (u0, u1) = (*d.upper.get(lead)?, *d.upper.get(lead + 1)?);
    let batches = if lead == 1 { d.upper[0] } else { 1 };
    let at = |b: i64, i: i64, j: i64| {
        let idx = if lead == 1 { vec![b, i, j] } else { vec![i, j] };
        d.offset(&idx).filter(|(_, v)| *v).map(|(o, _)| o)
    };
    if d.upper.len() != lead + 2 || at(0, 0, 0)? != 0 || u0 < 2 || u1 < 2 {
        return None;
    }
    let (s0, s1) = (at(0, 1, 0)?, at(0, 0, 1)?);
    let sb = if batches > 1 { at(1, 0, 0)? } else { 0 };
    let corners = [
        (batches - 1, u0 - 1, u1 - 1),
        (batches / 2, u0 / 2, u1 / 2),
        (0, u0 - 1, 0),
        (0, 0, u1 - 1),
    ];
    corners
        .iter()
        .all(|&(b, i, j)| at(b, i, j) == Some(b * sb + i * s0 + j * s1))
        .then_some((s0, s1, sb))
}

/// Whether TMA's 2-D tensor maps can read a GEMM operand through
/// descriptor `d` (from its rows and columns to its buffer's elements of
/// halves, unbatched): offsets affine in the two ([`strides`]), one
/// stride 1 and the other whole 16 bytes and at least a line, as a
/// warp-specialised loop's copies need ([`global_of`]). Fusion-to-tile
/// asks it before giving a GEMM tiles whose consumers take turns.
pub(crate) fn copies_2d(d: &Desc) -> bool {
    tensor_lines(d, 0).is_some()
}

/// How a 2-D tensor map reads through descriptor `d` (its last two dims,
/// after `lead` batch dims, [`strides`]): the dim along which its lines
/// step (the other has stride 1, a box's runs), the lines' stride, and
/// the batches' stride; where the lines are whole 16 bytes of halves
/// apart and at least a line long.
fn tensor_lines(d: &Desc, lead: usize) -> Option<(usize, i64, i64)> {
    let (s0, s1, sb) = strides(d, lead)?;
    let (line_dim, stride) = match (s0, s1) {
        (s, 1) => (0, s),
        (1, s) => (1, s),
        _ => return None,
    };
    let cols = d.upper[lead + 1 - line_dim];
    (stride >= cols && (stride * 2) % 16 == 0).then_some((line_dim, stride, sb))
}

/// The 2-D tensor TMA reads copy `c`'s tile (of pipelined loop `pipe`)
/// from, if it can (see the module's doc). A load with one leading
/// (batch) index, a 2-D tile of a 3-D tensor whose batches follow each
/// other (attention's `[batch·heads, tokens, d]`), reads the 2-D tensor of
/// all batches' rows, where a box must not reach into the next batch: the
/// batch's rows a multiple of the box's lines, and the box's first row a
/// multiple of them too, below the batch's rows (a constant, or the
/// loop's induction variable over known bounds).
pub(super) fn global_of(ctx: &Context, c: &Copy, pipe: &Pipe) -> Option<Global> {
    let ld = tile::Load::of(ctx, c.load)?;
    let tt = tile_type(ctx, ld.result(ctx))?;
    let origin = ld.origin(ctx);
    let lead = origin.len().checked_sub(2).filter(|l| *l <= 1)?;
    if tt.shape.len() != 2 || mma::half_kind(ctx, tt.elem).is_none() {
        return None;
    }
    let d = &c.desc;
    let (line_dim, stride, sb) = tensor_lines(d, lead)?;
    let batches = if lead == 1 { d.upper[0] } else { 1 };
    let run_dim = 1 - line_dim;
    let (batch_rows, cols) = (d.upper[lead + line_dim], d.upper[lead + run_dim]);
    let n: i64 = ctx
        .type_kind(ctx.value_type(ld.buffer(ctx)))
        .shape()
        .map_or(0, |s| s.iter().product());
    let (lines, run) = (tt.shape[line_dim], tt.shape[run_dim]);
    let rows = batches * batch_rows;
    // Batches one after another: row `b·batch_rows + i` of the 2-D tensor.
    let folded = batches == 1 || sb == batch_rows * stride;
    let in_batch =
        lead == 0 || boxes_in_batch(ctx, origin[lead + line_dim], lines, batch_rows, pipe);
    let fits = folded
        && in_batch
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
        batch: (lead == 1).then_some(batch_rows),
    })
}

/// Whether the boxes of `lines` rows whose first row is `first` stay
/// within a batch of `batch_rows` rows, which `lines` divides: `first`
/// (a scalar, or the induction variable of pipelined loop `pipe`, over
/// its bounds) always a multiple of `lines` in `0..batch_rows`, as far as
/// the index arithmetic computing it shows ([`index_span`]).
fn boxes_in_batch(ctx: &Context, first: Value, lines: i64, batch_rows: i64, pipe: &Pipe) -> bool {
    if batch_rows % lines != 0 {
        return false;
    }
    let is_iv = pipe
        .copies
        .first()
        .and_then(|c| ctx.parent_block(c.load))
        .is_some_and(|b| ctx.block_args(b).first() == Some(&first));
    let span = if is_iv {
        let bound = |v: Option<Value>, c: i64| match v {
            Some(v) => index_span(ctx, v),
            None => Some(Span::constant(c)),
        };
        let from = bound(pipe.lower, pipe.lb);
        let end = bound(pipe.upper, pipe.lb + pipe.n * pipe.step);
        from.zip(end)
            .filter(|_| pipe.step > 0)
            .map(|(f, e)| Span::stepping(f, pipe.step, e))
    } else {
        index_span(ctx, first)
    };
    span.is_some_and(|s| s.lo >= 0 && s.hi < batch_rows && s.divisible_by(lines))
}

/// What the index arithmetic computing scalar `v` of a tile kernel says
/// of it ([`arith::bounds`]), a block's `tile.program_id` along an axis
/// being in `0..` that axis's grid size.
fn index_span(ctx: &Context, v: Value) -> Option<Span> {
    let leaf = |x: Value| {
        let p = ctx
            .defining_op(x)
            .and_then(|o| tile::ProgramId::of(ctx, o))?;
        let axis = usize::try_from(p.axis(ctx)?).ok()?;
        let mut k = ctx.parent_op(p.op());
        while let Some(o) = k.filter(|o| tile::Kernel::of(ctx, *o).is_none()) {
            k = ctx.parent_op(o);
        }
        let grid = tile::Kernel::of(ctx, k?)?.grid(ctx)?;
        let n = grid.get(axis).copied().unwrap_or(1);
        (n > 0).then(|| Span::range(0, n - 1))
    };
    arith::bounds::span(ctx, v, &leaf)
}

/// The loop of `gemm` (the one gemm of pipelined loop `pipe`) if the IR
/// says TMA fills its ring, with the tensors it reads; an error where it
/// says so of a loop TMA cannot copy.
pub(super) fn ring_of(ctx: &Context, gemm: Op, pipe: &Pipe) -> Result<Option<Ring>, Diagnostic> {
    match ctx.parent_op(gemm) {
        Some(l) => loop_ring(ctx, l, pipe),
        None => Ok(None),
    }
}

/// Pipelined loop `l` (`pipe`) if the IR says TMA fills its ring, with
/// the tensors it reads; an error where it says so of a loop TMA cannot
/// copy.
pub(super) fn loop_ring(ctx: &Context, l: Op, pipe: &Pipe) -> Result<Option<Ring>, Diagnostic> {
    let Some(copy) = tile::For::of(ctx, l).map(|f| f.copy(ctx)) else {
        return Ok(None);
    };
    if !is_tma(copy) {
        return Ok(None);
    }
    let ws = copy == Some(CopyKind::TmaWs);
    let empty = ws || copy == Some(CopyKind::TmaEmpty);
    let globals: Option<Vec<Global>> = pipe
        .copies
        .iter()
        .map(|c| global_of(ctx, c, pipe))
        .collect();
    match globals {
        Some(globals) => Ok(Some(Ring {
            globals,
            l,
            empty,
            ws,
        })),
        None => Err(err(
            ctx,
            l,
            "a loop copied by TMA whose loads are not boxes of 2-D tensors TMA can read",
        )),
    }
}

/// Whether pipelined loop `pipe` (body `body`) is an attention's on
/// wgmma ([`super::wgmma_attention`]).
fn attention_fits(
    ctx: &Context,
    body: aic::ir::Block,
    pipe: &Pipe,
    p: &mma::Plan,
    threads: i64,
) -> bool {
    super::wgmma_attention::gemms(ctx, body, pipe, p, threads)
        .is_some_and(|[g1, g2, _]| p.is_wgmma(g1) && p.is_wgmma(g2))
}

/// Writes `copy` (a TMA kind) on the pipelined loops of kernel `k`
/// (blocks of `threads`, matrix units `kind`) whose one gemm runs on wgmma
/// and whose copies TMA can run; whether it changed any. A kernel whose loop
/// it warp-specialises becomes persistent on `persistent` blocks where
/// that is not 0. A kernel that says how its loops copy (`tile.kernel ...
/// copy = c`, its tuning's choice, written by fusion-to-tile) takes that,
/// and its own `persistent`, in place of `copy` and `persistent`; where it
/// cannot be done the loops fall back as the option's would (`tma_ws` to
/// `tma`, attention's to cp.async), and a kernel not warp-specialised is
/// not persistent.
pub(super) fn mark(
    ctx: &mut Context,
    k: Op,
    threads: i64,
    kind: Kind,
    copy: CopyKind,
    persistent: i64,
) -> Result<bool, Diagnostic> {
    // The tuning's choice, where fusion-to-tile wrote one.
    let kernel = tile::Kernel::of(ctx, k);
    let chosen = kernel.and_then(|h| h.copy(ctx));
    let chosen_blocks = kernel.and_then(|h| h.persistent(ctx));
    let (copy, persistent) = match chosen {
        Some(c) => (c, chosen_blocks.unwrap_or(0)),
        None => (copy, persistent),
    };
    let (u, name) = (ctx.uniquer().clone(), ctx.ident("copy"));
    let p_name = ctx.ident("persistent");
    let c_name = ctx.ident("consumers");
    let mut changed = false;
    // A persistent kernel the tuning chose that is not warp-specialised
    // (nor are its consumers groups taking turns).
    let not_persistent = |ctx: &mut Context| {
        let c = ctx.remove_inherent_attr(k, c_name).is_some();
        ctx.remove_inherent_attr(k, p_name).is_some() || c
    };
    if kind != Kind::Wgmma || !is_tma(Some(copy)) {
        if chosen.is_some() {
            changed |= not_persistent(ctx);
        }
        return Ok(changed);
    }
    let mut loops = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if tile::For::of(ctx, o).is_some_and(|f| f.stages(ctx).is_some()) {
            loops.push(o);
        }
    });
    let p = mma::plan(ctx, k, threads, kind)?;
    let (mut marked, mut attention) = (Vec::new(), Vec::new());
    let mut ws_ok = true;
    // A loop whose bounds are known at run time only.
    let mut dynamic = false;
    for l in loops {
        let Some(pipe) = shared_layout::pipe_of(ctx, l, &p, kind)? else {
            continue;
        };
        let Some(body) = ctx.regions(l).first().and_then(|r| ctx.entry_block(*r)) else {
            continue;
        };
        let wgmma = mma::single_gemm(ctx, body, &pipe).is_some_and(|g| p.is_wgmma(g));
        let boxes = pipe
            .copies
            .iter()
            .all(|c| global_of(ctx, c, &pipe).is_some());
        let known = pipe.upper.is_none() && pipe.lower.is_none();
        let fits = if wgmma && boxes && known {
            marked.push(l);
            true
        } else if boxes && attention_fits(ctx, body, &pipe, &p, threads) {
            attention.push(l);
            true
        } else {
            false
        };
        if fits {
            ws_ok &= ws_fits(ctx, k, l, &pipe);
            dynamic |= !known;
        }
    }
    // A kernel warp-specialises one loop, or attention's loops one after
    // another (a causal mask's unmasked key blocks, then its diagonal) on
    // one ring of stages; others keep TMA from every thread's block.
    // Attention's loops take TMA only warp-specialised.
    let stages = |l: &Op| tile::For::of(ctx, *l).and_then(|f| f.stages(ctx));
    let chain = marked.is_empty()
        && attention.len() > 1
        && attention.iter().all(|l| stages(l) == stages(&attention[0]));
    let copy = match copy {
        CopyKind::TmaWs if !(ws_ok && (marked.len() + attention.len() == 1 || chain)) => {
            CopyKind::Tma
        }
        c => c,
    };
    if copy == CopyKind::TmaWs {
        marked.append(&mut attention);
    }
    let ws = copy == CopyKind::TmaWs && !marked.is_empty();
    // A persistent kernel's loops run as many times for every tile.
    let persists = ws && !dynamic;
    if chosen.is_some() && !persists {
        changed |= not_persistent(ctx);
    }
    for l in &marked {
        ctx.set_inherent_attr(*l, name, copy.attr(&u));
        changed = true;
    }
    if persists && persistent > 0 {
        ctx.set_inherent_attr(k, p_name, super::int_attr(&u, persistent, u.int_type(64)));
        changed = true;
    }
    Ok(changed)
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
        v0: &[Value],
        results: &[Value],
    ) -> Result<(), Diagnostic> {
        if ring.ws {
            return self.lower_wgmma_ws(pipe, ring, st, carried, v0, results);
        }
        let u = self.ctx.uniquer().clone();
        let i64t = u.int_type(64);
        let body = super::body_of(self.ctx, ring.l, "a loop")?;
        let iv = self.ctx.block_args(body)[0];
        let (maps, stage_bytes) = self.tensor_maps(pipe, ring, st.rings);
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
        self.init_bars(bars, depth, ring.empty)?;
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
                    s.wait_free(bars, depth, it, slot)?;
                }
                let ivv = ab::binary::<arith::MulI>(s, it, step);
                let ivv = ab::binary::<arith::AddI>(s, ivv, lb);
                let origins: Vec<Vec<Value>> = pipe
                    .copies
                    .iter()
                    .map(|c| {
                        let ld = tile::Load::wrap(c.load);
                        ld.origin(s.ctx)
                            .iter()
                            .map(|v| if *v == iv { ivv } else { s.map.value(*v) })
                            .collect()
                    })
                    .collect();
                let views: Vec<Value> = st.rings.iter().map(|r| r.0).collect();
                let stage = Stage {
                    maps: &maps,
                    views: &views,
                    bars,
                    bytes: stage_bytes,
                };
                s.start_stage(ring, st.rings, &stage, slot, &origins);
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
        let out = self.for_loop(lo, hi, one, v0, &mut |s, it, args| {
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
            let v = s.wgmma_steps(st, slot, args);
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
            Ok(v)
        })?;
        self.wgmma_wait(0);
        self.wgmma_finish(&out, carried, results);
        Ok(())
    }

    /// One tensor map per copy of `ring` (made here), and the bytes a
    /// stage's copies bring.
    fn tensor_maps(&mut self, pipe: &Pipe, ring: &Ring, rings: &[RingView]) -> (Vec<Value>, i64) {
        let u = self.ctx.uniquer().clone();
        let mut maps = Vec::new();
        let mut stage_bytes = 0;
        for (g, c) in ring.globals.iter().zip(&pipe.copies) {
            let ld = tile::Load::wrap(c.load);
            let buf = self.map.value(ld.buffer(self.ctx));
            let elem = rings[0].3.elem;
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
        (maps, stage_bytes)
    }

    /// Splits the block of a warp-specialised kernel (see the module's
    /// doc) before its ops lower: thread 0 makes the full and empty
    /// mbarriers of `loops`' ring (the first loop's) for the whole block;
    /// then the producer warpgroup's block and the consumers' block, where
    /// lowering goes on.
    pub(super) fn split_warps(&mut self, loops: Vec<Op>, consumers: i64) -> Result<(), Diagnostic> {
        let l = *loops
            .first()
            .ok_or_else(|| err(self.ctx, self.entry, "no warp-specialised loop"))?;
        let u = self.ctx.uniquer().clone();
        let i64t = u.int_type(64);
        let depth = tile::For::of(self.ctx, l)
            .and_then(|f| f.stages(self.ctx))
            .ok_or_else(|| err(self.ctx, l, "a warp-specialised loop without stages"))?;
        let at = *self
            .transfer_at
            .get(&l)
            .ok_or_else(|| err(self.ctx, l, "a TMA loop without mbarriers"))?;
        let bars = self.shared_view(at, 2 * depth, i64t);
        self.init_bars(bars, depth, true)?;
        let regs = register_split(self.threads * consumers);
        let set_regs = |s: &mut Self, action: nvvm::SetMaxRegisterAction, n: i64| {
            let a = action.attr(&u);
            let n = super::int_attr(&u, n, u.int_type(32));
            nvvm::SetMaxRegister::build(s, a, n);
        };
        let block_tid = self.tid;
        let groups = consumers;
        let consumers = ab::index(self, self.threads * groups);
        let producer = ab::cmpi(self, CmpIPredicate::Uge, self.tid, consumers);
        let pb = self.ctx.create_block(&[]);
        aic_dialects::scf::build::if_then(&mut self.b(), producer, pb);
        self.within(pb, |s| {
            if let Some((producer, _)) = regs {
                set_regs(s, nvvm::SetMaxRegisterAction::Decrease, producer);
            }
        });
        let consumer = ab::cmpi(self, CmpIPredicate::Ult, self.tid, consumers);
        let cb = self.ctx.create_block(&[]);
        aic_dialects::scf::build::if_then(&mut self.b(), consumer, cb);
        self.block = cb;
        if let Some((_, consumer)) = regs {
            set_regs(self, nvvm::SetMaxRegisterAction::Increase, consumer);
        }
        if groups == 2 {
            let t = ab::index(self, self.threads);
            let group = ab::binary::<arith::DivUI>(self, block_tid, t);
            self.tid = ab::binary::<arith::RemUI>(self, block_tid, t);
            self.turns = Some(Turns {
                group,
                block_tid,
                shared_scratch: false,
            });
            // Group 1 lets group 0 take the first turn (arrives on group
            // 0's turns' barrier, 2); group 0 arrives on its own block
            // barrier, of its threads alone (at once complete), so that
            // neither branches on its group.
            let zero = ab::index(self, 0);
            self.group_barrier(zero, group, false);
        }
        self.ws = Some(Producer {
            block: pb,
            consumers: cb,
            loops,
            bars,
            made: None,
            taken: None,
        });
        Ok(())
    }

    /// Ends a warp-specialised kernel's two blocks and the kernel (`gb`,
    /// its body), after its ops have lowered.
    pub(super) fn join_warps(&mut self, gb: aic::ir::Block) {
        if let Some(p) = self.ws.take() {
            for b in [p.block, p.consumers] {
                let ended = self
                    .ctx
                    .block_ops(b)
                    .last()
                    .is_some_and(|o| aic_dialects::scf::Yield::of(self.ctx, o).is_some());
                if !ended {
                    self.within(b, |s| aic_dialects::scf::build::yield_(s, &[]));
                }
            }
        }
        self.block = gb;
        aic_dialects::gpu::build::return_(self);
    }

    /// The consumers' block barrier in a warp-specialised kernel: named
    /// barrier 1 of the kernel's `threads`.
    pub(super) fn consumer_barrier(&mut self) {
        if let Some(g) = self.turns.as_ref().map(|t| t.group) {
            let zero = ab::index(self, 0);
            return self.group_barrier(g, zero, true);
        }
        let i32t = self.ctx.uniquer().int_type(32);
        let id = ab::int(self, 1, i32t);
        let n = ab::int(self, self.threads, i32t);
        nvvm::Barrier::build(self, id, n);
    }

    /// Where consumer groups take turns ([`Turns`]), a named barrier of
    /// group `of` (0 or 1): with `turns` 0, its block barrier (`5 + of`,
    /// its threads); with `turns` 1, its turns' barrier (`2 + of`, both
    /// groups' threads); both indices, so that no group branches. A wait
    /// where `wait`, else an arrival.
    fn group_barrier(&mut self, of: Value, turns: Value, wait: bool) {
        if self.turns.is_none() {
            return;
        }
        let i32t = self.ctx.uniquer().int_type(32);
        // id = 5 + of - 3·turns, threads = t + t·turns.
        let base = self.mul_add(turns, -(GROUP_BARRIER - TURN_BARRIER), of);
        let at = ab::index(self, GROUP_BARRIER);
        let id = ab::binary::<arith::AddI>(self, base, at);
        let t = ab::index(self, self.threads);
        let n = self.mul_add(turns, self.threads, t);
        let id = ab::cast::<arith::IndexCast>(self, id, i32t);
        let n = ab::cast::<arith::IndexCast>(self, n, i32t);
        if wait {
            nvvm::Barrier::build(self, id, n);
        } else {
            nvvm::BarrierArrive::build(self, id, n);
        }
    }

    /// Group `g`'s wait for its turn to run a K loop (barrier `2 + g`).
    fn take_tile_turn(&mut self) {
        if let Some(g) = self.turns.as_ref().map(|t| t.group) {
            let one = ab::index(self, 1);
            self.group_barrier(g, one, true);
        }
    }

    /// Group `g` gives the other group its turn (arrives on the other's
    /// turns' barrier, `3 - g`).
    fn give_tile_turn(&mut self) {
        let Some(g) = self.turns.as_ref().map(|t| t.group) else {
            return;
        };
        let i32t = self.ctx.uniquer().int_type(32);
        let at = ab::index(self, TURN_BARRIER + 1);
        let id = ab::binary::<arith::SubI>(self, at, g);
        let id = ab::cast::<arith::IndexCast>(self, id, i32t);
        let n = ab::int(self, 2 * self.threads, i32t);
        nvvm::BarrierArrive::build(self, id, n);
    }

    /// After a persistent kernel's tile loop, where groups take turns: the
    /// turns given that no loop took, waited for, so that every barrier's
    /// arrivals match its waits when the block ends. Of the block's `T`
    /// tiles group 0 runs `ceil(T/2)` loops and group 1 `floor(T/2)`;
    /// barrier 2 has group 1's first arrival and one after each of its
    /// loops, barrier 3 one after each of group 0's: group `g` waits once
    /// more on its turns' barrier where `T + g` is even, else on its own
    /// barrier (no wait at all); `blocks` the kernel's blocks. An error
    /// (of tile kernel `k`) where the groups took scratch memory, which
    /// they would share.
    pub(super) fn last_turn(&mut self, k: Op, blocks: i64) -> Result<(), Diagnostic> {
        let Some(g) = self.turns.as_ref().map(|t| t.group) else {
            return Ok(());
        };
        if self.turns.as_ref().is_some_and(|t| t.shared_scratch) {
            return Err(err(
                self.ctx,
                k,
                "consumer groups taking turns (consumers = 2) exchange nothing through shared memory but their staged stores",
            ));
        }
        let total: i64 = self.order.grid.iter().product();
        // T = ceil((total - b) / blocks) for block b.
        let b = aic_dialects::gpu::build::block_id(self, aic_dialects::gpu::Dim::X);
        let hi = ab::index(self, total + blocks - 1);
        let left = ab::binary::<arith::SubI>(self, hi, b);
        let bl = ab::index(self, blocks);
        let tiles = ab::binary::<arith::DivUI>(self, left, bl);
        let (one, two) = (ab::index(self, 1), ab::index(self, 2));
        let tg = ab::binary::<arith::AddI>(self, tiles, g);
        let odd = ab::binary::<arith::RemUI>(self, tg, two);
        let even = ab::binary::<arith::SubI>(self, one, odd);
        self.group_barrier(g, even, true);
        Ok(())
    }

    /// Scalar `v` of the tile kernel computed again where ops go now, from
    /// the kernel's arguments and `m`'s values (the induction variable's
    /// value there, what was computed again before): the producer
    /// warpgroup cannot see the consumers' values.
    fn remat(&mut self, v: Value, m: &mut aic::ir::ValueMap) -> Result<Value, Diagnostic> {
        if let Some(x) = m.values.get(&v) {
            return Ok(*x);
        }
        let Some(d) = self.ctx.defining_op(v) else {
            // A kernel argument: the gpu kernel's, visible everywhere.
            return Ok(self.map.value(v));
        };
        if !self.ctx.regions(d).is_empty() {
            return Err(err(
                self.ctx,
                d,
                "a warp-specialised loop's copy origin computed by an op with regions",
            ));
        }
        for x in self.ctx.operands(d).to_vec() {
            let y = self.remat(x, m)?;
            m.values.insert(x, y);
        }
        // Lowered as it was for the consumers (a `tile.program_id` becomes
        // a block id), its operands the values `m` gives.
        let scoped = aic::ir::ValueMap {
            values: m.values.clone(),
            blocks: Default::default(),
        };
        let saved = std::mem::replace(&mut self.map, scoped);
        let r = self.lower_op_blocked(d);
        let scoped = std::mem::replace(&mut self.map, saved);
        r?;
        for x in self.ctx.results(d).collect::<Vec<_>>() {
            m.values.insert(x, scoped.value(x));
        }
        Ok(m.value(v))
    }

    /// The warp-specialised loop (see the module's doc): the producer's
    /// copies in its block, the consumers' wgmmas here.
    fn lower_wgmma_ws(
        &mut self,
        pipe: &Pipe,
        ring: &Ring,
        st: &Steps<'_>,
        carried: (Value, Warps, TileType),
        v0: &[Value],
        results: &[Value],
    ) -> Result<(), Diagnostic> {
        let bars = self.produce(pipe, ring, st.rings)?;
        let depth = pipe.depth;
        // The consumers: fill `base + it` of the ring is iteration `it`.
        let (_, hi, base) = self.consume(pipe);
        let (lo, one) = (ab::index(self, 0), ab::index(self, 1));
        let free = |s: &mut Self, g: Value, when: Option<Value>| s.free_stage(bars, depth, g, when);
        self.take_tile_turn();
        let out = self.for_loop(lo, hi, one, v0, &mut |s, it, args| {
            let g = ab::binary::<arith::AddI>(s, base, it);
            let slot = s.wait_full(bars, depth, g);
            let v = s.wgmma_steps(st, slot, args);
            s.wgmma_wait(1);
            // Iteration it - 1's wgmmas are done: its stage is free.
            let one = ab::index(s, 1);
            let after = ab::cmpi(s, CmpIPredicate::Uge, it, one);
            let prev = ab::binary::<arith::SubI>(s, g, one);
            free(s, prev, Some(after))?;
            Ok(v)
        })?;
        // Its wgmmas issued (and every fill waited on), the other group
        // may run its loop while this one's finish.
        self.give_tile_turn();
        self.wgmma_wait(0);
        // The last iteration's stage too: a persistent kernel's producer
        // fills it for a later tile.
        if pipe.n > 0 {
            let last = ab::index(self, pipe.n - 1);
            let last = ab::binary::<arith::AddI>(self, base, last);
            free(self, last, None)?;
        }
        self.wgmma_finish(&out, carried, results);
        Ok(())
    }

    /// The producer warpgroup's code for warp-specialised loop `ring.l`
    /// (pipelined as `pipe`, its rings `rings`): its first thread copies
    /// every iteration's tiles, stage after stage as the consumers free
    /// them, its fills numbered on from the kernel's loops lowered before
    /// (in a persistent kernel, for every tile of the block, in its own
    /// tile loop). Gives the ring's mbarriers.
    pub(super) fn produce(
        &mut self,
        pipe: &Pipe,
        ring: &Ring,
        rings: &[RingView],
    ) -> Result<Value, Diagnostic> {
        let (pb, bars, made) = self
            .ws
            .as_ref()
            .filter(|p| p.loops.contains(&ring.l))
            .map(|p| (p.block, p.bars, p.made))
            .ok_or_else(|| {
                err(
                    self.ctx,
                    ring.l,
                    "a warp-specialised loop of another kernel",
                )
            })?;
        let body = super::body_of(self.ctx, ring.l, "a loop")?;
        let iv = self.ctx.block_args(body)[0];
        let depth = pipe.depth;
        let threads = self.threads;
        let consumer_tiles = self.grid_loop;
        // The loop's bounds, computed again in the producer's block.
        let mut known = aic::ir::ValueMap::default();
        let (lower, trips) = self.within(pb, |s| -> Result<_, Diagnostic> {
            let lower = pipe.lower.map(|v| s.remat(v, &mut known)).transpose()?;
            let upper = pipe.upper.map(|v| s.remat(v, &mut known)).transpose()?;
            Ok(s.pipe_trips(pipe, lower, upper))
        })?;
        let base = match made {
            Some(m) => m,
            None => self.within(pb, |s| ab::index(s, 0)),
        };
        let next = self.within(pb, |s| ab::binary::<arith::AddI>(s, base, trips));
        if let Some(p) = self.ws.as_mut() {
            p.made = Some(next);
        }
        // The producer: its first thread copies every iteration's tiles
        // (of every tile of a persistent kernel's, in its own tile loop).
        // The block's thread id (the consumers' lowering may see its id in
        // its group) and the first producer thread's.
        let (tid, first) = match self.turns.as_ref() {
            Some(t) => (t.block_tid, 2 * threads),
            None => (self.tid, threads),
        };
        self.within(pb, |s| -> Result<(), Diagnostic> {
            let lead = ab::index(s, first);
            let lead = ab::cmpi(s, CmpIPredicate::Eq, tid, lead);
            s.when(lead, &mut |s| {
                let (maps, stage_bytes) = s.tensor_maps(pipe, ring, rings);
                // The rings' views, made again here.
                let mut views = Vec::new();
                for r in rings {
                    let d = s.ctx.defining_op(r.0).ok_or_else(|| {
                        err(s.ctx, ring.l, "a ring view that is not a shared view")
                    })?;
                    let c = s.ctx.clone_op(d, &mut aic::ir::ValueMap::default());
                    s.ctx.append_op(s.block, c);
                    views.push(s.ctx.result(c, 0));
                }
                let copies = |s: &mut Self| -> Result<(), Diagnostic> {
                    // A persistent kernel's loop (constant bounds) runs
                    // `n` fills a tile.
                    let base = match consumer_tiles {
                        Some(_) => s.tile_first_fill(pipe),
                        None => base,
                    };
                    let (lo, one) = (ab::index(s, 0), ab::index(s, 1));
                    s.for_loop(lo, trips, one, &[], &mut |s, it, _| {
                        let g = ab::binary::<arith::AddI>(s, base, it);
                        let d = ab::index(s, depth);
                        let slot = ab::binary::<arith::RemUI>(s, g, d);
                        // The stage is free once every consumer warp has
                        // read it, `depth` fills before.
                        s.wait_free(bars, depth, g, slot)?;
                        let step = ab::index(s, pipe.step);
                        let ivv = ab::binary::<arith::MulI>(s, it, step);
                        let ivv = ab::binary::<arith::AddI>(s, ivv, lower);
                        let mut m = aic::ir::ValueMap {
                            values: known.values.clone(),
                            blocks: Default::default(),
                        };
                        m.values.insert(iv, ivv);
                        let mut origins = Vec::new();
                        for c in &pipe.copies {
                            let ld = tile::Load::wrap(c.load);
                            let mut origin = Vec::new();
                            for v in ld.origin(s.ctx).to_vec() {
                                origin.push(s.remat(v, &mut m)?);
                            }
                            origins.push(origin);
                        }
                        let stage = Stage {
                            maps: &maps,
                            views: &views,
                            bars,
                            bytes: stage_bytes,
                        };
                        s.start_stage(ring, rings, &stage, slot, &origins);
                        Ok(vec![])
                    })?;
                    Ok(())
                };
                match consumer_tiles {
                    // The producer's own loop over the block's tiles.
                    Some(ti) => {
                        let outer = s.block;
                        s.persist(ti.step, false);
                        let r = copies(s);
                        aic_dialects::scf::build::yield_(s, &[]);
                        s.block = outer;
                        s.grid_loop = consumer_tiles;
                        r
                    }
                    None => copies(s),
                }
            })
        })?;
        Ok(bars)
    }

    /// Pipelined loop `pipe`'s first induction value and its number of
    /// iterations, given its run-time bounds where it has them (as values
    /// where ops go now).
    pub(super) fn pipe_trips(
        &mut self,
        pipe: &Pipe,
        lower: Option<Value>,
        upper: Option<Value>,
    ) -> (Value, Value) {
        let lb = lower.unwrap_or_else(|| ab::index(self, pipe.lb));
        if lower.is_none() && upper.is_none() {
            return (lb, ab::index(self, pipe.n));
        }
        let ub = upper.unwrap_or_else(|| ab::index(self, pipe.lb + pipe.n * pipe.step));
        let span = ab::binary::<arith::SubI>(self, ub, lb);
        let zero = ab::index(self, 0);
        let span = ab::binary::<arith::MaxSI>(self, span, zero);
        let up = ab::index(self, pipe.step - 1);
        let span = ab::binary::<arith::AddI>(self, span, up);
        let st = ab::index(self, pipe.step);
        (lb, ab::binary::<arith::DivUI>(self, span, st))
    }

    /// The consumers' view of warp-specialised loop `pipe`: its first
    /// induction value, its iterations and the ring fill of its first
    /// iteration (numbered on from the kernel's loops lowered before; in
    /// a persistent kernel `tiles_done · n`). The fills after it are
    /// counted from here on.
    pub(super) fn consume(&mut self, pipe: &Pipe) -> (Value, Value, Value) {
        let lower = pipe.lower.map(|v| self.map.value(v));
        let upper = pipe.upper.map(|v| self.map.value(v));
        let (lb, trips) = self.pipe_trips(pipe, lower, upper);
        let base = match self.ws.as_ref().and_then(|p| p.taken) {
            Some(t) => t,
            None => self.tile_first_fill(pipe),
        };
        let next = ab::binary::<arith::AddI>(self, base, trips);
        if let Some(p) = self.ws.as_mut() {
            p.taken = Some(next);
        }
        (lb, trips, base)
    }

    /// The ring fill of warp-specialised loop `pipe`'s first iteration in
    /// this block's current tile: `tiles_done · n` (a persistent kernel's
    /// loop has constant bounds; 0 in a block of one tile).
    fn tile_first_fill(&mut self, pipe: &Pipe) -> Value {
        let done = self.tiles_done();
        let n = ab::index(self, pipe.n);
        ab::binary::<arith::MulI>(self, done, n)
    }

    /// Waits for fill `g` of a ring of `depth` stages (its full
    /// mbarrier's phase `g / depth`); gives the stage.
    pub(super) fn wait_full(&mut self, bars: Value, depth: i64, g: Value) -> Value {
        let d = ab::index(self, depth);
        let slot = ab::binary::<arith::RemUI>(self, g, d);
        let phase = ab::binary::<arith::DivUI>(self, g, d);
        let parity = self.parity(phase);
        let ticks = ab::index(self, WAIT_TICKS);
        nvgpu::MbarrierTryWaitParity::build(self, bars, slot, parity, ticks);
        slot
    }

    /// Lane 0 of each consumer warp frees fill `g`'s stage (arrives on its
    /// empty mbarrier), where `when` holds.
    pub(super) fn free_stage(
        &mut self,
        bars: Value,
        depth: i64,
        g: Value,
        when: Option<Value>,
    ) -> Result<(), Diagnostic> {
        let (c32, zero) = (ab::index(self, 32), ab::index(self, 0));
        let lane = ab::binary::<arith::RemUI>(self, self.tid, c32);
        let mut go = ab::cmpi(self, CmpIPredicate::Eq, lane, zero);
        if let Some(w) = when {
            go = ab::binary::<arith::AndI>(self, go, w);
        }
        self.when(go, &mut |s| {
            let d = ab::index(s, depth);
            let slot = ab::binary::<arith::RemUI>(s, g, d);
            let at = ab::binary::<arith::AddI>(s, slot, d);
            nvgpu::MbarrierArrive::build(s, bars, at);
            Ok(())
        })
    }

    /// Thread 0 makes a TMA ring's mbarriers, `depth` full ones (one
    /// arrival: the copies' issuer) and, where `empty`, `depth` empty ones
    /// (an arrival per consumer warp), fenced for the copy engine's proxy;
    /// then the block meets.
    fn init_bars(&mut self, bars: Value, depth: i64, empty: bool) -> Result<(), Diagnostic> {
        let u = self.ctx.uniquer().clone();
        let zero = ab::index(self, 0);
        let first = ab::cmpi(self, CmpIPredicate::Eq, self.tid, zero);
        let warps = self.threads / 32;
        self.when(first, &mut |s| {
            let one = ab::index(s, 1);
            for i in 0..depth {
                let i = ab::index(s, i);
                nvgpu::MbarrierInit::build(s, bars, i, one);
            }
            let nw = ab::index(s, warps);
            for i in (0..depth).filter(|_| empty) {
                let i = ab::index(s, depth + i);
                nvgpu::MbarrierInit::build(s, bars, i, nw);
            }
            let kind = nvvm::ProxyKind::AsyncShared.attr(&u);
            nvvm::FenceProxy::build(s, kind, Some(nvvm::SharedSpace::Cta.attr(&u)));
            Ok(())
        })?;
        self.barrier();
        Ok(())
    }

    /// Waits until stage `slot` of fill `g` is free: every consumer warp
    /// has read it for fill `g - depth` (the empty mbarrier's phase
    /// `g / depth - 1`); the first `depth` fills find it free.
    fn wait_free(
        &mut self,
        bars: Value,
        depth: i64,
        g: Value,
        slot: Value,
    ) -> Result<(), Diagnostic> {
        let d = ab::index(self, depth);
        let used = ab::cmpi(self, CmpIPredicate::Uge, g, d);
        self.when(used, &mut |s| {
            let d = ab::index(s, depth);
            let phase = ab::binary::<arith::DivUI>(s, g, d);
            let one = ab::index(s, 1);
            let phase = ab::binary::<arith::SubI>(s, phase, one);
            let parity = s.parity(phase);
            let at = ab::binary::<arith::AddI>(s, slot, d);
            let ticks = ab::index(s, WAIT_TICKS);
            nvgpu::MbarrierTryWaitParity::build(s, bars, at, parity, ticks);
            Ok(())
        })
    }

    /// Starts stage `slot`'s copies: arms its full mbarrier for the
    /// stage's bytes, then copy `i`'s box at `origins[i]` (its load's
    /// origin) into the stage of ring view `i`, 64 columns a copy.
    fn start_stage(
        &mut self,
        ring: &Ring,
        rings: &[RingView],
        stage: &Stage<'_>,
        slot: Value,
        origins: &[Vec<Value>],
    ) {
        let bytes = ab::index(self, stage.bytes);
        nvgpu::MbarrierArriveExpectTx::build(self, stage.bars, slot, bytes);
        for ((((g, map), view), r), origin) in ring
            .globals
            .iter()
            .zip(stage.maps)
            .zip(stage.views)
            .zip(rings)
            .zip(origins)
        {
            let (row, col0) = g.box_at(self, origin);
            let size = ab::index(self, r.2);
            let base = ab::binary::<arith::MulI>(self, slot, size);
            for blk in 0..g.run / RUN {
                let dc = ab::index(self, blk * RUN);
                let col = ab::binary::<arith::AddI>(self, col0, dc);
                let off = ab::index(self, blk * g.lines * RUN);
                let dst = ab::binary::<arith::AddI>(self, base, off);
                nvgpu::TmaAsyncLoad::build(self, *map, &[row, col], stage.bars, slot, *view, dst);
            }
        }
    }

    /// Whether phase `phase` (an index) is odd, as an `i1`.
    fn parity(&mut self, phase: Value) -> Value {
        let (two, zero) = (ab::index(self, 2), ab::index(self, 0));
        let p = ab::binary::<arith::RemUI>(self, phase, two);
        ab::cmpi(self, CmpIPredicate::Ne, p, zero)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TMA reads a row-major operand whose rows are whole 16 bytes apart;
    /// not one whose rows are 200 or 8 bytes apart.
    #[test]
    fn operands_tma_copies_are_affine_with_16_byte_rows() {
        assert!(copies_2d(&Desc::row_major(&[8192, 1024])));
        assert!(copies_2d(&Desc::row_major(&[3, 1000])));
        assert!(!copies_2d(&Desc::row_major(&[64, 100])));
        assert!(!copies_2d(&Desc::row_major(&[64, 4])));
    }

    /// `setmaxnreg` counts are multiples of 8 in 24..=256, and a block's
    /// warpgroups must fit an SM's 64K registers together: an increase
    /// beyond what the decreases free waits forever (a 24/168 split of
    /// three consumer warpgroups, 67584 registers, hung on an H200).
    #[test]
    fn register_splits_fit_the_register_file() {
        for consumers in 1..=4 {
            let threads = consumers * PRODUCER_THREADS;
            let Some((producer, consumer)) = register_split(threads) else {
                assert!(!(2..=3).contains(&consumers), "{consumers} warpgroups");
                continue;
            };
            for n in [producer, consumer] {
                assert!(n % 8 == 0 && (24..=256).contains(&n), "{n}");
            }
            let total = producer * PRODUCER_THREADS + consumer * threads;
            assert!(total <= 65_536, "{consumers} warpgroups: {total} registers");
            // Nothing left over that a larger consumer count could take.
            assert!(65_536 - total < 8 * threads, "{consumers}: {total}");
        }
        assert_eq!(register_split(200), None);
    }
}
