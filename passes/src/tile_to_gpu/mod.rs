//! `tile-to-gpu`: every `tile.kernel` becomes a `gpu.kernel`, one thread's
//! program, and every `tile.launch` a `gpu.launch`.
//!
//! A block of `threads` threads runs each tile program (a kernel's own
//! `threads` attribute, where fusion-to-tile chose one for its tiles,
//! overrides the option). A register tile of
//! `n` elements is spread over the threads (Triton's blocked layout along
//! the row-major order): thread `t` owns runs of `v` neighbouring elements
//! starting at `t*v`, `(t + T)*v`, ... (`v` up to 8, as many as divide the
//! tile evenly, so that LLVM can move each run at once), kept in a private
//! array (`memref.alloca`) that LLVM promotes to
//! registers once the loops over it are unrolled. Element-wise work (loads,
//! stores, maps, iota, masks) needs no communication; an op that reads
//! elements other threads own (a broadcast of a tile, a reduction, the
//! operands of a GEMM) reads them from shared memory, where a register
//! tile is first written and a barrier waited on. `tile.transfer` to
//! shared memory owns a region of its own for the kernel's whole run;
//! exchanges share a scratch region after those. Loads are masked with a
//! select on a clamped offset (no branch), stores with `scf.if`; the
//! descriptors stay `coord.offset` ops for `coord-to-arith`.
//!
//! A thread's loops over its elements are unrolled when they are short (at
//! most [`UNROLL`] elements), so that its arrays are indexed by constants
//! and live in registers. With `warp=W` (the target's warp size; 0 for
//! none) a reduction to few results (at most [`REPLICATED`]) folds each
//! thread's partials across its warp with `gpu.shuffle`, the warps' sums
//! through shared memory, and leaves the results in every thread
//! (replicated), so that broadcasting them back needs no exchange.
//!
//! A row tile laid out `warp_rows<L, v, W>` (decided by [`warp_rows`],
//! `tile-warp-rows`, which this pass runs itself on kernels whose tiles
//! carry no layout yet) is held a warp per row: warp `w` holds rows `w`,
//! `w + W`, ... in runs of `v` at columns `l * v`, `(L + l) * v`, ... of its
//! lane `l` (of `L`, from `gpu.lane_id`), and reduces them by shuffles
//! alone.
//!
//! With `threads=1` the result is the tile program run element by element,
//! which the interpreter can execute; a backend runs any thread count.
//!
//! With `mma=true` or `mma=nvgpu` (NVIDIA sm_80 and later), the f16 gemms
//! that tensor cores can run become warps' `nvgpu.mma.sync` on fragments
//! (see [`mma`]; which ones, and their fragments, [`mma_layout`],
//! `tile-mma-layout`, writes into their types; how the shared tiles they
//! read are stored and which K loops cp.async pipelines,
//! [`shared_layout`], `tile-shared-layout`, writes into the IR; this pass
//! runs both itself on kernels that carry no such decision yet); with `mma=wgmma` (sm_90a), the one gemm of a pipelined
//! K loop becomes warpgroups' `nvgpu.warpgroup.mma` where it qualifies
//! (see [`wgmma`]), and so do both gemms of an attention's loop over the
//! keys (see [`wgmma_attention`]), the others mma.sync; with `mma=amdgpu` (gfx90a,
//! gfx942), wavefronts' `amdgpu.mfma` (see [`mfma`]).

mod mfma;
mod mma;
pub mod mma_layout;
mod ops;
mod reduce;
pub mod shared_layout;
mod tma;
pub(crate) use tma::copies_2d;
pub(crate) use tma::register_split;
pub mod warp_rows;
mod wgmma;
mod wgmma_attention;

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::conversion::Lowerings;
use aic::ir::{Block, Build, Builder, Context, InsertPoint, Op, OpState, Value, ValueMap};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::arith::{self};
use aic_dialects::coord::{self, Desc};
use aic_dialects::gpu::{self, AddressSpace, Dim, ShuffleMode, build as gb, elem_bytes};
use aic_dialects::memref::build as mb;
use aic_dialects::scf::build as sb;
use aic_dialects::tile::{self, Space, TileType};
use std::collections::HashMap;
use std::rc::Rc;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "tile-to-gpu",
    name: "TileToGpu",
    summary: "Lower tile kernels to gpu kernels: tiles spread over a block's threads, shared memory where threads exchange elements",
    anchor: None,
    options: &[
        OptSpec {
            name: "threads",
            kind: OptKind::UInt,
            default: "128",
            range: Some((1, 1024)),
            help: "Threads per block",
        },
        OptSpec {
            name: "warp",
            kind: OptKind::UInt,
            default: "0",
            range: Some((0, 64)),
            help: "Threads of a warp, for reductions by gpu.shuffle (0: through shared memory only)",
        },
        OptSpec {
            name: "mma",
            kind: OptKind::Enum(&["false", "true", "nvgpu", "amdgpu", "wgmma"]),
            default: "false",
            range: None,
            help: "Run f16 gemms (and bf16 ones on NVIDIA) on matrix units: NVIDIA tensor cores (nvgpu or true: nvgpu.mma.sync, sm_80 and later; wgmma: Hopper's nvgpu.warpgroup.mma where a pipelined loop's gemm qualifies, sm_90a) or AMD matrix cores (amdgpu: amdgpu.mfma, gfx90a and gfx942)",
        },
        COPY_OPTION,
        PERSISTENT_OPTION,
    ],
    create: |o: &PassOptions| {
        Box::new(TileToGpu {
            threads: o.int("threads").max(1),
            warp: o.int("warp"),
            mma: mma::Kind::parse(o.str("mma")),
            copy: tile::CopyKind::from_keyword(o.str("copy")).unwrap_or(tile::CopyKind::CpAsync),
            persistent: o.int("persistent"),
        })
    },
};

/// The `persistent` option of tile-to-gpu and tile-shared-layout: the
/// blocks a kernel whose loop they warp-specialise (`copy=tma_ws`) runs
/// on, each looping over the grid's tiles; 0 for a block a tile.
pub(crate) const PERSISTENT_OPTION: OptSpec = OptSpec {
    name: "persistent",
    kind: OptKind::UInt,
    default: "0",
    range: Some((0, 1 << 20)),
    help: "Blocks of a persistent kernel where a loop is warp-specialised (copy=tma_ws): each loops over the grid's tiles, the producer running ahead into the next tile while the consumers finish one; 0: a block a tile. Written as the tile.kernel's persistent attribute",
};

/// The `copy` option of tile-to-gpu and tile-shared-layout: how the rings
/// of pipelined wgmma loops are filled where no pass decided yet.
pub(crate) const COPY_OPTION: OptSpec = OptSpec {
    name: "copy",
    kind: OptKind::Enum(tile::CopyKind::KEYWORDS),
    default: "cp_async",
    range: None,
    help: "How pipelined wgmma K loops fill their shared rings: cp.async by every thread, or tma (Hopper's bulk tensor copies on mbarriers, sm_90a) where their loads are boxes of 2-D tensors, tma_empty the same with stages freed through mbarriers instead of block barriers, tma_ws a producer warpgroup issuing them (warp specialisation); written as the loop's copy attribute",
};

/// A thread's loops over at most this many of its elements are unrolled.
pub const UNROLL: i64 = 32;

/// Reductions to at most this many results leave them in every thread.
pub const REPLICATED: i64 = 16;

struct TileToGpu {
    threads: i64,
    warp: i64,
    mma: mma::Kind,
    /// How wgmma loops fill their rings where no pass decided yet.
    copy: tile::CopyKind,
    /// Blocks of a warp-specialised persistent kernel (0: not persistent).
    persistent: i64,
}

/// The `threads` option of the layout passes.
pub(crate) const THREADS_OPTION: OptSpec = OptSpec {
    name: "threads",
    kind: OptKind::UInt,
    default: "128",
    range: Some((1, 1024)),
    help: "Threads per block (a kernel's own threads attribute overrides it)",
};

/// The `mma` option of the layout passes, read as tile-to-gpu's.
pub(crate) const MMA_OPTION: OptSpec = OptSpec {
    name: "mma",
    kind: OptKind::Enum(&["false", "true", "nvgpu", "amdgpu", "wgmma"]),
    default: "false",
    range: None,
    help: "The matrix units, as tile-to-gpu's option of the name",
};

/// Every `tile.kernel` under `root`, with its block's threads: its own
/// `threads` attribute, else `default` (what the layout passes lay out for).
pub(crate) fn kernels_and_threads(ctx: &Context, root: Op, default: i64) -> Vec<(Op, i64)> {
    let mut kernels = Vec::new();
    ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if tile::Kernel::is(ctx, o) {
            kernels.push(o);
        }
    });
    kernels
        .into_iter()
        .map(|k| (k, tile::Kernel::wrap(k).threads(ctx).unwrap_or(default)))
        .collect()
}

impl Pass for TileToGpu {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let (mut kernels, mut launches) = (Vec::new(), Vec::new());
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(ctx, o) {
                kernels.push(o);
            } else if tile::Launch::is(ctx, o) {
                launches.push(o);
            }
        });
        for k in &kernels {
            // The lowering sizes buffers and loops with plain products of
            // dims: a kernel's shapes (from user IR too) are checked static
            // and addressable first, which bounds every such product.
            aic::shape::check_values(ctx, *k, "tile-to-gpu")?;
            // A kernel whose tiles chose their block size keeps it.
            let threads = tile::Kernel::wrap(*k).threads(ctx).unwrap_or(self.threads);
            if !warp_rows::has_layouts(ctx, *k) {
                warp_rows::assign(ctx, *k, threads, self.warp);
            }
            warp_rows::check(ctx, *k, threads, self.warp)?;
            if !mma_layout::has_layouts(ctx, *k) {
                mma_layout::assign(ctx, *k, threads, self.mma);
            }
            if !shared_layout::has_layouts(ctx, *k) {
                shared_layout::assign(ctx, *k, threads, self.mma)?;
                tma::mark(ctx, *k, threads, self.mma, self.copy, self.persistent)?;
                shared_layout::stage_stores(ctx, *k, threads);
            }
            lower_kernel(ctx, *k, threads, self.warp, self.mma)?;
        }
        for l in &launches {
            let launch = tile::Launch::wrap(*l);
            let inputs = launch.inputs(ctx).to_vec();
            let types: Vec<Type> = launch
                .outputs(ctx)
                .iter()
                .map(|r| ctx.value_type(*r))
                .collect();
            let kernel = launch
                .kernel(ctx)
                .ok_or_else(|| err(ctx, *l, "a launch without a kernel"))?;
            let loc = ctx.op(*l).loc;
            let mut b = Builder {
                ctx: &mut *ctx,
                ip: InsertPoint::Before(*l),
                loc,
            };
            let new = gpu::Launch::build(&mut b, &inputs, kernel, &types);
            let pairs: Vec<(Value, Value)> = launch
                .outputs(ctx)
                .into_iter()
                .zip(new.outputs(ctx))
                .collect();
            for (a, b) in pairs {
                ctx.replace_all_uses(a, b);
            }
            ctx.erase_op(*l);
        }
        Ok(!kernels.is_empty() || !launches.is_empty())
    }
}

/// How a tile value lives after lowering.
#[derive(Clone, Copy)]
enum L {
    /// Spread over the threads: each holds its elements in a private array.
    Dist(Value),
    /// In shared memory, element `e` at index `e`.
    Shared(Value),
    /// In every thread: element `e` at index `e` of a private array.
    Repl(Value),
    /// The results of a row reduction left where the rows were (Triton's
    /// slice layout): for each run `q` of its elements in the reduced tile,
    /// a thread holds the result of that run's row at index `q`.
    Sliced(Value, Slice),
}

/// Where a reduction's rows lay: the reduced tile of `n` elements spread in
/// runs of `v`, rows of `len` elements, each row held by `group`
/// neighbouring threads at once (a power of two), `per` neighbouring runs
/// of it in each of them; a thread's next row is `step` rows on.
///
/// In the blocked layout a row is one run of each thread of its group
/// (`per` 1, `step` the rows a block's threads cover at once); in a tile
/// of warp rows (see [`warp_rows`]) a warp holds whole rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Slice {
    n: i64,
    v: i64,
    len: i64,
    group: i64,
    per: i64,
    step: i64,
}

/// Lowers one kernel's ops into a gpu kernel body.
struct Lower<'c> {
    ctx: &'c mut Context,
    loc: Attr,
    /// Where ops go now.
    block: Block,
    /// Allocas go before this op (the first of the kernel), so that they
    /// are made once, not per loop iteration.
    entry: Op,
    threads: i64,
    /// Threads of a warp when reductions may shuffle (a divisor of
    /// `threads`), else 0.
    warp: i64,
    tid: Value,
    /// Tile values and how they live.
    tiles: HashMap<Value, (L, TileType)>,
    /// Scalars (and buffers) of the tile kernel and their counterparts.
    map: ValueMap,
    /// Buffers: the flat gpu buffer and the tile kernel's buffer shape.
    buffers: HashMap<Value, Vec<i64>>,
    /// Where each transfer's shared region starts (and each TMA loop's
    /// mbarriers, keyed by the loop).
    transfer_at: HashMap<Op, i64>,
    /// The shared memory exchanges go through.
    scratch: Scratch,
    /// The matrix units gemms may run on.
    kind: mma::Kind,
    /// The gemms tensor cores run.
    mma: mma::Plan,
    /// Accumulators in the fragment layout of tensor cores.
    frags: HashMap<Value, mma::Frag>,
    /// Shared tiles with padded rows (for ldmatrix): the view, row length,
    /// where the tile starts in the view (a pipeline's stage; 0 if `None`)
    /// and whether it is stored transposed.
    padded_tiles: HashMap<Value, mma::Padded>,
    /// How each tile op lowers (see [`ops`]).
    lowerings: Rc<Lowerings<'c, Lower<'c>>>,
    /// A warp-specialised kernel's producer warpgroup ([`tma`]): where its
    /// code goes, while everything else goes to the consumers' block.
    ws: Option<tma::Producer>,
    /// The kernel's body block (a `tile.return` there ends the kernel;
    /// nested, it ends the block it is in).
    top: Block,
    /// A persistent kernel's tile loop where ops go now (see
    /// [`Lower::persist`]): `tile.program_id` reads its tile.
    grid_loop: Option<Tiles>,
    /// A kernel whose two consumer groups take turns (`consumers = 2`,
    /// [`tma::Turns`]).
    turns: Option<tma::Turns>,
    /// The kernel's grid and its `group` (0 where it has none): which
    /// tile a block in launch order (or a persistent block's loop) takes.
    order: Order,
}

/// The order of a kernel's tiles: its grid, and `tile.kernel`'s `group`
/// (tiles taken `group` at a time down axis 0; 0: none).
#[derive(Clone, Copy)]
struct Order {
    grid: [i64; 3],
    group: i64,
}

impl Order {
    /// Whether the order is grouped (more than one tile of a group and
    /// more than one group, over more than one column).
    fn grouped(&self) -> bool {
        self.group > 1 && self.group < self.grid[0] && self.grid[1] > 1
    }
}

/// The loop of a persistent kernel's blocks over the grid's tiles (the
/// kernel's [`Order`]): the current tile's index `t` (in the grid's
/// order), this block's first (`first`, its block id) and the blocks
/// (`step`).
#[derive(Clone, Copy)]
struct Tiles {
    t: Value,
    first: Value,
    step: i64,
}

/// The scratch region for exchanges: two banks used in turn, so that the
/// reads of one exchange need no barrier of their own before the next
/// exchange writes (the other bank); its barrier orders them before the
/// bank is written again.
struct Scratch {
    /// Where the region starts (after the transfers' regions).
    start: i64,
    /// The bytes of the current bank in use now.
    used: i64,
    /// The most bytes each bank ever held.
    most: [i64; 2],
    /// The bank views are made in.
    bank: usize,
    /// Banks whose last views threads may still be reading.
    dirty: [bool; 2],
    /// The views in the second bank, whose offsets move past the first
    /// bank once its size is known.
    second: Vec<Op>,
}

/// Builds a loop body from the induction variable and iteration values,
/// giving what it yields.
type LoopBody<'a, S> = dyn FnMut(&mut S, Value, &[Value]) -> Result<Vec<Value>, Diagnostic> + 'a;

/// Gives a tile's element from its slot, its position and the tile's type.
type ElementOf<'a, S> =
    dyn FnMut(&mut S, Value, Value, &TileType) -> Result<Value, Diagnostic> + 'a;

fn align(v: i64) -> i64 {
    (v + 15) / 16 * 16
}

/// The entry block of `op`'s first region (a kernel's, map's or loop's
/// body), or an error naming `what` lacks one.
fn body_of(ctx: &Context, op: Op, what: &str) -> Result<Block, Diagnostic> {
    ctx.regions(op)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .ok_or_else(|| err(ctx, op, format!("{what} without a body")))
}

fn err(ctx: &Context, op: Op, m: impl Into<String>) -> Diagnostic {
    aic::verifier::op_error(ctx, op, format!("tile-to-gpu: {}", m.into()))
}

fn lower_kernel(
    ctx: &mut Context,
    k: Op,
    threads: i64,
    warp: i64,
    mma: mma::Kind,
) -> Result<(), Diagnostic> {
    let loc = ctx.op(k).loc;
    let u = ctx.uniquer().clone();
    let body = body_of(ctx, k, "a kernel")?;
    let params = ctx.block_args(body).to_vec();
    // Buffers become flat: a kernel addresses them by computed offsets.
    let flat: Vec<(Type, Option<Attr>)> = params
        .iter()
        .map(|p| {
            let kd = ctx.type_kind(ctx.value_type(*p));
            let n: i64 = kd.shape().map_or(1, |s| s.iter().product());
            let elem = kd.element_type().unwrap_or(ctx.value_type(*p));
            let t = u.ty(TypeKind::MemRef {
                shape: [n].as_slice().into(),
                elem,
                layout: None,
                memory_space: None,
            });
            (t, Some(loc))
        })
        .collect();
    let gb = ctx.create_block(&flat);
    let mut map = ValueMap::default();
    let mut buffers = HashMap::new();
    for (old, new) in params.iter().zip(ctx.block_args(gb).to_vec()) {
        map.values.insert(*old, new);
        let shape = ctx
            .type_kind(ctx.value_type(*old))
            .shape()
            .map(<[i64]>::to_vec)
            .unwrap_or_default();
        buffers.insert(new, shape);
    }
    // Shared regions of the transfers, for the kernel's whole run.
    let mut transfer_at = HashMap::new();
    let mut top: i64 = 0;
    let mut transfers = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if tile::Transfer::is(ctx, o) {
            transfers.push(o);
        }
    });
    let ws_loops = tma::warp_specialized(ctx, k)?;
    let plan = mma::plan(ctx, k, threads, mma)?;
    shared_layout::check(ctx, k, &plan, threads, mma)?;
    // A wgmma attention's loops share their rings (see wgmma_attention).
    let shared_with = wgmma_attention::shared_rings(ctx, &transfers, &plan);
    for t in transfers {
        let r = ctx.result(t, 0);
        let tt = tile::tile_type(&u, ctx.value_type(r)).ok_or_else(|| err(ctx, t, "not a tile"))?;
        if let Some(at) = shared_with
            .get(&t)
            .and_then(|e| transfer_at.get(e))
            .copied()
        {
            transfer_at.insert(t, at);
        } else if tt.space == Space::Shared {
            if shared_layout::lines(ctx, t).is_some_and(|(_, _, swizzled)| swizzled) {
                // A swizzle pattern's start (see wgmma).
                top = (top + 1023) / 1024 * 1024;
            }
            transfer_at.insert(t, top);
            let bytes =
                shared_layout::transfer_bytes(ctx, t).unwrap_or_else(|| tile_bytes(ctx, tt));
            top = align(top + bytes);
        }
    }
    // The mbarriers of loops whose rings TMA fills, one per stage (two
    // where the warps free stages through mbarriers too).
    let mut tma_loops = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        let f = tile::For::of(ctx, o);
        let copy = f.and_then(|f| f.copy(ctx));
        if let Some(stages) = f.filter(|_| tma::is_tma(copy)).and_then(|f| f.stages(ctx)) {
            let sets = if matches!(copy, Some(tile::CopyKind::TmaEmpty | tile::CopyKind::TmaWs)) {
                2
            } else {
                1
            };
            tma_loops.push((o, sets * stages));
        }
    });
    for (l, bars) in tma_loops {
        transfer_at.insert(l, top);
        top = align(top + 8 * bars);
    }
    let tid = gpu::build::thread_id(
        &mut Builder {
            ctx: &mut *ctx,
            ip: InsertPoint::End(gb),
            loc,
        },
        Dim::X,
    );
    let tid_op = ctx.defining_op(tid).expect("an op's result");
    let order = {
        let kernel = tile::Kernel::wrap(k);
        let mut g = kernel.grid(ctx).unwrap_or_default();
        g.resize(3, 1);
        Order {
            grid: [g[0], g[1], g[2]],
            group: kernel.group(ctx).unwrap_or(0),
        }
    };
    let mut l = Lower {
        ctx,
        loc,
        block: gb,
        entry: tid_op,
        threads,
        warp: warp_of(threads, warp),
        tid,
        tiles: HashMap::new(),
        map,
        buffers,
        transfer_at,
        scratch: Scratch {
            start: top,
            used: 0,
            most: [0; 2],
            bank: 0,
            dirty: [false; 2],
            second: Vec::new(),
        },
        kind: mma,
        mma: plan,
        frags: HashMap::new(),
        padded_tiles: HashMap::new(),
        lowerings: Rc::new(ops::lowerings()),
        ws: None,
        top: gb,
        grid_loop: None,
        turns: None,
        order,
    };
    // A warp-specialised kernel: its consumers' code, everything the tile
    // kernel says, in one block; its producer's in another.
    let consumers = tile::Kernel::wrap(k).consumers(l.ctx).unwrap_or(1);
    if !ws_loops.is_empty() {
        l.split_warps(ws_loops, consumers)?;
    } else if consumers > 1 {
        return Err(err(
            l.ctx,
            k,
            "consumers taking turns (consumers = 2) need a warp-specialised loop (copy = tma_ws)",
        ));
    }
    let mut grid = l.order.grid.to_vec();
    let persistent = tile::Kernel::wrap(k).persistent(l.ctx);
    let outer = l.block;
    let blocks = persistent.map(|p| l.persist(p, true));
    l.block_ops(body)?;
    l.block = outer;
    l.grid_loop = None;
    if let Some(b) = blocks {
        l.last_turn(k, b)?;
    }
    let ws = l.ws.is_some();
    if ws {
        l.join_warps(gb);
    } else if persistent.is_some() {
        gb::return_(&mut l);
    }
    if let Some(b) = blocks {
        grid = vec![b, 1, 1];
    }
    let block_threads = threads * consumers + if ws { tma::PRODUCER_THREADS } else { 0 };
    let sc = &l.scratch;
    let shared = sc.start + sc.most[0] + sc.most[1];
    let (first, second) = (sc.most[0], std::mem::take(&mut l.scratch.second));
    let ctx = l.ctx;
    let offset = ctx.ident("offset");
    for v in second {
        let at = ctx
            .inherent_attr(v, offset)
            .and_then(|a| aic::constraints::int_value(ctx.uniquer(), a))
            .unwrap_or(0);
        let a = int_attr(ctx.uniquer(), at + first, u.int_type(64));
        ctx.set_inherent_attr(v, offset, a);
    }
    // The gpu kernel, in place of the tile kernel.
    let name = aic::symbol::symbol_name(ctx, k)
        .unwrap_or("kernel")
        .to_string();
    let kernel = gpu::Kernel::build(
        &mut Builder {
            ctx: &mut *ctx,
            ip: InsertPoint::Before(k),
            loc,
        },
        u.string_attr(&name),
        u.i64_array(&grid),
        u.i64_array(&[block_threads, 1, 1]),
        int_attr(&u, shared, u.int_type(64)),
    );
    let r = kernel.body(ctx);
    ctx.append_block(r, gb);
    // What fusion-to-tile said of the kernel (its kind and arithmetic, for
    // the bundle's per-kernel table) stays with it.
    for n in [KIND_ATTR, FLOPS_ATTR, TUNE_ATTR] {
        let i = ctx.ident(n);
        if let Some(a) = ctx.attr_of(k, i) {
            ctx.set_attr(kernel.op(), i, a);
        }
    }
    ctx.erase_op(k);
    Ok(())
}

/// A kernel's kind (`"gemm"`, `"attention"`, ...), set by fusion-to-tile.
pub const KIND_ATTR: &str = "aic.kind";
/// A kernel's arithmetic in operations, set by fusion-to-tile.
pub const FLOPS_ATTR: &str = "aic.flops";
/// The tuning-cache key a kernel's tile sizes come from (what an autotuner
/// varies and measures it by), set by fusion-to-tile.
pub const TUNE_ATTR: &str = "aic.tune";

/// The arith op combining two values: of a reduction, or a gemm's
/// products and sums.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Combine {
    AddF,
    MaximumF,
    MinimumF,
    MulF,
    AddI,
    MaxSI,
    MinSI,
    MulI,
}

impl Combine {
    /// `x` combined with `y`.
    fn apply(self, b: &mut impl Build, x: Value, y: Value) -> Value {
        match self {
            Combine::AddF => ab::binary::<arith::AddF>(b, x, y),
            Combine::MaximumF => ab::binary::<arith::MaximumF>(b, x, y),
            Combine::MinimumF => ab::binary::<arith::MinimumF>(b, x, y),
            Combine::MulF => ab::binary::<arith::MulF>(b, x, y),
            Combine::AddI => ab::binary::<arith::AddI>(b, x, y),
            Combine::MaxSI => ab::binary::<arith::MaxSI>(b, x, y),
            Combine::MinSI => ab::binary::<arith::MinSI>(b, x, y),
            Combine::MulI => ab::binary::<arith::MulI>(b, x, y),
        }
    }
}

/// `tile.reduce` kinds: the start and combining op of floats and integers.
fn combiner(kind: tile::ReduceKind, float: bool) -> (f64, Combine) {
    use tile::ReduceKind::{Max, Min, Sum};
    match (kind, float) {
        (Sum, true) => (0.0, Combine::AddF),
        (Max, true) => (f64::NEG_INFINITY, Combine::MaximumF),
        (Min, true) => (f64::INFINITY, Combine::MinimumF),
        (Sum, false) => (0.0, Combine::AddI),
        (Max, false) => (i64::MIN as f64, Combine::MaxSI),
        (Min, false) => (i64::MAX as f64, Combine::MinSI),
    }
}

/// Threads of a warp when reductions may shuffle: `warp` when it divides
/// `threads`, else 0.
fn warp_of(threads: i64, warp: i64) -> i64 {
    if warp > 1 && threads % warp == 0 {
        warp
    } else {
        0
    }
}

/// How many neighbouring elements of a tile of `n` a thread of `threads`
/// owns together in the blocked layout: 8 (16 bytes of f16, which loads
/// and stores move at once) when every thread gets whole runs of them, else
/// fewer, down to 1.
fn vector(threads: i64, n: i64) -> i64 {
    [8, 4, 2]
        .into_iter()
        .find(|v| threads > 1 && n % (threads * v) == 0)
        .unwrap_or(1)
}

/// How a reduction of rows of `len` of a tile of `n` in the blocked layout
/// of `threads` threads (in warps of `warp`, 0 for none) leaves its results
/// where its rows lie, if it can.
fn blocked_slice(threads: i64, warp: i64, n: i64, len: i64) -> Option<Slice> {
    let (t, v) = (threads, vector(threads, n));
    let fits = warp > 0 && n % (t * v) == 0 && len % v == 0 && (t * v) % len == 0 && n > len;
    let group = len / v.max(1);
    (fits && group > 0 && group & (group - 1) == 0).then(|| Slice {
        n,
        v,
        len,
        group,
        per: 1,
        step: t * v / len,
    })
}

fn tile_bytes(ctx: &Context, t: &TileType) -> i64 {
    t.shape.iter().product::<i64>() * elem_bytes(ctx, t.elem)
}

fn int_attr(u: &aic::ir::Uniquer, v: i64, ty: Type) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty,
    })
}

/// The index of each dim of a row-major position.
fn strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// Ops are built where the lowering inserts now (the end of its block).
impl Build for Lower<'_> {
    fn context(&self) -> &Context {
        self.ctx
    }
    fn location(&self) -> Attr {
        self.loc
    }
    fn insert_state(&mut self, st: OpState) -> Op {
        self.b().insert(st)
    }
}

impl Lower<'_> {
    fn b(&mut self) -> Builder<'_> {
        Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::End(self.block),
            loc: self.loc,
        }
    }

    fn index_ty(&self) -> Type {
        self.ctx.uniquer().ty(TypeKind::Index)
    }

    fn memref(&self, n: i64, elem: Type, shared: bool) -> Type {
        let u = self.ctx.uniquer();
        u.ty(TypeKind::MemRef {
            shape: [n].as_slice().into(),
            elem,
            layout: None,
            memory_space: shared.then(|| AddressSpace::Workgroup.attr(u)),
        })
    }

    fn barrier(&mut self) {
        if self.ws.is_some() {
            // The consumers only: the producer warpgroup runs on.
            self.consumer_barrier();
        } else if self.threads > 1 {
            gb::barrier(self);
        }
        self.scratch.dirty = [false; 2];
    }

    /// A thread's private array for its elements of a tile of `n`.
    fn alloca(&mut self, n: i64, elem: Type) -> Value {
        let per = (n + self.threads - 1) / self.threads;
        self.private(per, elem)
    }

    /// A thread's private array of `n` elements.
    fn private(&mut self, n: i64, elem: Type) -> Value {
        let ty = self.memref(n, elem, false);
        let mut at_entry = Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::Before(self.entry),
            loc: self.loc,
        };
        mb::alloca(&mut at_entry, ty)
    }

    fn shared_view(&mut self, offset: i64, n: i64, elem: Type) -> Value {
        let ty = self.memref(n, elem, true);
        gb::shared(self, offset, ty)
    }

    /// Makes the rest of the kernel the body of a persistent kernel's loop
    /// over the tiles of its grid (`tile.kernel`'s `persistent = blocks`):
    /// block `b` of `min(blocks, tiles)` takes tiles `b`, `b + blocks`,
    /// ...; gives that number of blocks. Where consumer groups take turns
    /// (`turn`, and the kernel's [`tma::Turns`]), group `g` takes every
    /// other of them, from `b + g·blocks` on.
    fn persist(&mut self, blocks: i64, turn: bool) -> i64 {
        let total: i64 = self.order.grid.iter().product();
        let step = blocks.min(total);
        let first = gb::block_id(self, Dim::X);
        let hi = ab::index(self, total);
        let (start, st) = match self.turns.as_ref().filter(|_| turn).map(|t| t.group) {
            Some(g) => (self.mul_add(g, step, first), ab::index(self, 2 * step)),
            None => (first, ab::index(self, step)),
        };
        let index = self.index_ty();
        let body = self.ctx.create_block(&[(index, Some(self.loc))]);
        let t = self.ctx.block_args(body)[0];
        sb::for_loop(&mut self.b(), start, hi, st, &[], body);
        self.block = body;
        self.grid_loop = Some(Tiles { t, first, step });
        step
    }

    /// The tiles this block has done before the current one, in a
    /// persistent kernel (0 otherwise).
    fn tiles_done(&mut self) -> Value {
        match self.grid_loop {
            Some(ti) => {
                let d = ab::binary::<arith::SubI>(self, ti.t, ti.first);
                let st = ab::index(self, ti.step);
                ab::binary::<arith::DivUI>(self, d, st)
            }
            None => ab::index(self, 0),
        }
    }

    /// Runs `f` with ops going to `b`.
    fn within<R>(&mut self, b: Block, f: impl FnOnce(&mut Self) -> R) -> R {
        let old = std::mem::replace(&mut self.block, b);
        let r = f(self);
        self.block = old;
        r
    }

    /// `scf.for %i = lb to ub step s iter_args(inits)` with `f` building the
    /// body from the induction variable and the iteration values, returning
    /// what it yields; gives the loop's results.
    fn for_loop(
        &mut self,
        lb: Value,
        ub: Value,
        step: Value,
        inits: &[Value],
        f: &mut LoopBody<'_, Self>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let index = self.index_ty();
        let mut args = vec![(index, Some(self.loc))];
        args.extend(
            inits
                .iter()
                .map(|v| (self.ctx.value_type(*v), Some(self.loc))),
        );
        let body = self.ctx.create_block(&args);
        let bargs = self.ctx.block_args(body).to_vec();
        let yields = self.within(body, |s| f(s, bargs[0], &bargs[1..]))?;
        self.within(body, |s| sb::yield_(s, &yields));
        Ok(sb::for_loop(&mut self.b(), lb, ub, step, inits, body))
    }

    /// `scf.if %c { f }` (no results).
    fn when(
        &mut self,
        c: Value,
        f: &mut dyn FnMut(&mut Self) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let then = self.ctx.create_block(&[]);
        self.within(then, |s| f(s))?;
        self.within(then, |s| sb::yield_(s, &[]));
        sb::if_then(&mut self.b(), c, then);
        Ok(())
    }

    /// For each element of a tile of `n` this thread owns: `f(j, e)` with
    /// `j` its slot in the thread's array and `e` its row-major position;
    /// `rows` where the tile is laid out in warp rows, else blocked.
    fn each(
        &mut self,
        n: i64,
        rows: Option<Slice>,
        f: &mut dyn FnMut(&mut Self, Value, Value) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let t = self.threads;
        let per = (n + t - 1) / t;
        let tid = self.tid;
        let v = self.vector(n);
        let mut body = |s: &mut Self, j: Value| -> Result<(), Diagnostic> {
            let e = if t == 1 {
                j
            } else if let Some(sl) = rows {
                s.row_position(sl, j)
            } else if let Some(j) = s.const_index(j) {
                // ((j / v) * t + tid) * v + j % v, the constant part folded.
                let tv = ab::index(s, v);
                let base = ab::binary::<arith::MulI>(s, tid, tv);
                let k = ab::index(s, (j / v) * t * v + j % v);
                ab::binary::<arith::AddI>(s, base, k)
            } else {
                let (tc, vc) = (ab::index(s, t), ab::index(s, v));
                let jq = ab::binary::<arith::DivUI>(s, j, vc);
                let jr = ab::binary::<arith::RemUI>(s, j, vc);
                let jt = ab::binary::<arith::MulI>(s, jq, tc);
                let jt = ab::binary::<arith::AddI>(s, jt, tid);
                let jt = ab::binary::<arith::MulI>(s, jt, vc);
                ab::binary::<arith::AddI>(s, jt, jr)
            };
            if n % t == 0 {
                f(s, j, e)
            } else {
                let nc = ab::index(s, n);
                let inside = ab::cmpi(s, CmpIPredicate::Ult, e, nc);
                s.when(inside, &mut |s| f(s, j, e))
            }
        };
        if t > 1 && per <= UNROLL {
            for j in 0..per {
                let j = ab::index(self, j);
                body(self, j)?;
            }
            return Ok(());
        }
        let (lo, hi, one) = (ab::index(self, 0), ab::index(self, per), ab::index(self, 1));
        self.for_loop(lo, hi, one, &[], &mut |s, j, _| {
            body(s, j)?;
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// The type of a vector of `v` elements of `elem` and the alignment
    /// attribute of its accesses (its size in bytes).
    fn vector_of(&self, v: i64, elem: Type) -> (Type, Attr) {
        let u = self.ctx.uniquer();
        let t = u.ty(TypeKind::Vector {
            shape: vec![v].into(),
            scalable: vec![false].into(),
            elem,
        });
        let bytes = v * elem_bytes(self.ctx, elem);
        (t, int_attr(u, bytes, u.int_type(64)))
    }

    /// Stores `xs`, neighbouring elements, into `buf` from `off` where
    /// `ok`: one element, or one vector aligned to its size (the caller
    /// knows the run lies in one aligned chunk).
    fn store_run(
        &mut self,
        ok: Value,
        xs: &[Value],
        buf: Value,
        off: Value,
    ) -> Result<(), Diagnostic> {
        self.when(ok, &mut |s| {
            s.put_run(xs, buf, off);
            Ok(())
        })
    }

    /// Stores `xs`, neighbouring elements, into `buf` from `off`: one
    /// element, or one vector aligned to its size.
    fn put_run(&mut self, xs: &[Value], buf: Value, off: Value) {
        if let [x] = xs[..] {
            mb::store(self, x, buf, &[off]);
        } else {
            let elem = self.ctx.value_type(xs[0]);
            let (vt, align) = self.vector_of(xs.len() as i64, elem);
            let x = aic_dialects::vector::FromElements::build(self, xs, vt).result(self.ctx);
            aic_dialects::vector::Store::build(self, x, buf, &[off], Some(align));
        }
    }

    /// `j + k`, folded where `j` is a constant.
    fn plus(&mut self, j: Value, k: i64) -> Value {
        match self.const_index(j) {
            Some(c) => ab::index(self, c + k),
            None if k == 0 => j,
            None => {
                let kc = ab::index(self, k);
                ab::binary::<arith::AddI>(self, j, kc)
            }
        }
    }

    /// The width of the runs of neighbouring elements a thread owns of a
    /// tile of `n` in its layout (`rows`, or blocked) that [`Self::each_run`]
    /// walks: 2, 4 or 8 (a 16-byte access of f16 at most), or `None` where
    /// the threads' slots are not whole runs.
    fn run_width(&self, n: i64, rows: Option<Slice>) -> Option<i64> {
        let t = self.threads;
        let v = match rows {
            Some(sl) => sl.v,
            None => self.vector(n),
        };
        (t > 1 && n % t == 0 && matches!(v, 2 | 4 | 8) && (n / t) % v == 0).then_some(v)
    }

    /// For each run of `v` ([`Self::run_width`]) neighbouring elements this
    /// thread owns of a tile of `n` in its layout: `f(j, e)` with the
    /// run's first slot `j` and position `e` (slots `j + k` are positions
    /// `e + k`).
    fn each_run(
        &mut self,
        n: i64,
        rows: Option<Slice>,
        v: i64,
        f: &mut dyn FnMut(&mut Self, Value, Value) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let (t, runs) = (self.threads, n / self.threads / v);
        let tid = self.tid;
        let mut body = |s: &mut Self, q: Value| -> Result<(), Diagnostic> {
            let j = match s.const_index(q) {
                Some(q) => ab::index(s, q * v),
                None => {
                    let vc = ab::index(s, v);
                    ab::binary::<arith::MulI>(s, q, vc)
                }
            };
            let e = match rows {
                Some(sl) => s.row_position(sl, j),
                None => {
                    // (q * t + tid) * v, the constant part folded.
                    let vc = ab::index(s, v);
                    let base = ab::binary::<arith::MulI>(s, tid, vc);
                    let k = match s.const_index(q) {
                        Some(q) => ab::index(s, q * t * v),
                        None => {
                            let tv = ab::index(s, t * v);
                            ab::binary::<arith::MulI>(s, q, tv)
                        }
                    };
                    ab::binary::<arith::AddI>(s, base, k)
                }
            };
            f(s, j, e)
        };
        if runs <= UNROLL {
            for q in 0..runs {
                let q = ab::index(self, q);
                body(self, q)?;
            }
            return Ok(());
        }
        let (lo, hi, one) = (
            ab::index(self, 0),
            ab::index(self, runs),
            ab::index(self, 1),
        );
        self.for_loop(lo, hi, one, &[], &mut |s, q, _| {
            body(s, q)?;
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// The width of the vector accesses a load or store of tile `t` from
    /// or to `buffer` at `origin` (the last dim's) through view `d` may make: the run width of
    /// the tile's layout ([`Self::run_width`]) where memory is contiguous in
    /// aligned runs of [`mma::CHUNK`] along the tile's last dim (the view's
    /// last; [`mma::takes_runs`]), the tile's rows are whole runs,
    /// the origin along it a multiple of the width, the elements whole
    /// bytes and the buffer at least a run long. Each run then lies inside
    /// one aligned chunk, at an offset that is a multiple of the width.
    fn vector_width(&self, buffer: Value, origin: Value, d: &Desc, t: &TileType) -> Option<i64> {
        let n: i64 = t.shape.iter().product();
        let v = self.run_width(n, warp_rows::rows_of(t))?;
        let bytes = match self.ctx.type_kind(t.elem) {
            TypeKind::Float(k) => k.bit_width() % 8 == 0,
            TypeKind::Integer { width, .. } => width % 8 == 0,
            _ => false,
        };
        let runs = t.shape.len() <= d.upper.len()
            && mma::takes_runs(self.ctx, (buffer, origin), d, *t.shape.last()?, v);
        (bytes && runs).then_some(v)
    }

    /// The position of slot `j` of this thread in the row tile of a kernel
    /// of warp rows `sl`: run `j / v` is run `p` of the thread's row slot
    /// `s`; lane `l` of warp `w` holds row `s * step + w`, columns from
    /// `(p * group + l) * v`. The lane is the warp's own (`gpu.lane_id`),
    /// not the thread index's low bits, so that LLVM keeps a run's
    /// addresses visibly consecutive (folded into the thread index, a run
    /// whose offset sets every bit of the warp index loses that, and its
    /// loads and stores their vectorisation).
    fn row_position(&mut self, sl: Slice, j: Value) -> Value {
        let tid = self.tid;
        let gc = ab::index(self, sl.group);
        let warp = ab::binary::<arith::DivUI>(self, tid, gc);
        let lane = gb::lane_id(self, Some(sl.group));
        let (lc, vc) = (ab::index(self, sl.len), ab::index(self, sl.v));
        let row = ab::binary::<arith::MulI>(self, warp, lc);
        let col = ab::binary::<arith::MulI>(self, lane, vc);
        let base = ab::binary::<arith::AddI>(self, row, col);
        let (row_step, run_step) = (sl.step * sl.len, sl.group * sl.v);
        let off = match self.const_index(j) {
            Some(j) => {
                let (q, k) = (j / sl.v, j % sl.v);
                ab::index(self, (q / sl.per) * row_step + (q % sl.per) * run_step + k)
            }
            None => {
                let (pc, rs, ps) = (
                    ab::index(self, sl.per),
                    ab::index(self, row_step),
                    ab::index(self, run_step),
                );
                let q = ab::binary::<arith::DivUI>(self, j, vc);
                let k = ab::binary::<arith::RemUI>(self, j, vc);
                let s = ab::binary::<arith::DivUI>(self, q, pc);
                let p = ab::binary::<arith::RemUI>(self, q, pc);
                let s = ab::binary::<arith::MulI>(self, s, rs);
                let p = ab::binary::<arith::MulI>(self, p, ps);
                let sp = ab::binary::<arith::AddI>(self, s, p);
                ab::binary::<arith::AddI>(self, sp, k)
            }
        };
        ab::binary::<arith::AddI>(self, base, off)
    }

    /// How many neighbouring elements of a tile of `n` a thread owns
    /// together in the blocked layout (see [`vector`]).
    fn vector(&self, n: i64) -> i64 {
        vector(self.threads, n)
    }

    /// The index of position `e` along each dim of `shape`.
    fn unravel(&mut self, e: Value, shape: &[i64]) -> Vec<Value> {
        let st = strides(shape);
        (0..shape.len())
            .map(|d| {
                let q = if st[d] == 1 {
                    e
                } else {
                    let c = ab::index(self, st[d]);
                    ab::binary::<arith::DivUI>(self, e, c)
                };
                if d == 0 {
                    q
                } else {
                    let c = ab::index(self, shape[d]);
                    ab::binary::<arith::RemUI>(self, q, c)
                }
            })
            .collect()
    }

    /// The row-major position of `idx` in `shape`.
    fn ravel(&mut self, idx: &[Value], shape: &[i64]) -> Value {
        let st = strides(shape);
        let mut acc: Option<Value> = None;
        for (i, s) in idx.iter().zip(st) {
            let term = if s == 1 {
                *i
            } else {
                let c = ab::index(self, s);
                ab::binary::<arith::MulI>(self, *i, c)
            };
            acc = Some(match acc {
                Some(a) => ab::binary::<arith::AddI>(self, a, term),
                None => term,
            });
        }
        acc.unwrap_or_else(|| ab::index(self, 0))
    }

    /// `f(0) combine f(1) combine ... f(n - 1)` (`n` at least 1).
    fn fold(
        &mut self,
        n: i64,
        combine: Combine,
        f: &mut dyn FnMut(&mut Self, i64) -> Value,
    ) -> Value {
        let mut acc = f(self, 0);
        for k in 1..n {
            let x = f(self, k);
            acc = combine.apply(self, acc, x);
        }
        acc
    }

    /// `xs` (at least one) combined pairwise, so that the fold is
    /// log2(n) ops deep rather than n.
    pub(super) fn pairwise(&mut self, mut xs: Vec<Value>, combine: Combine) -> Value {
        while xs.len() > 1 {
            xs = xs
                .chunks(2)
                .map(|p| match p {
                    [a, b] => combine.apply(self, *a, *b),
                    _ => p[0],
                })
                .collect();
        }
        xs[0]
    }

    /// `v` combined over each aligned group of `lanes` lanes of a warp by
    /// butterfly shuffles (offsets `lanes/2` down to 1): every lane of a
    /// group gets the group's result.
    fn butterfly(&mut self, v: Value, lanes: i64, combine: Combine) -> Value {
        let u = self.ctx.uniquer().clone();
        let i32t = u.int_type(32);
        let width = ab::number(self, lanes as f64, i32t);
        let (mut v, mut off) = (v, lanes / 2);
        while off > 0 {
            let oc = ab::number(self, off as f64, i32t);
            let (y, _) = gb::shuffle(self, ShuffleMode::Xor, v, oc, width);
            v = combine.apply(self, v, y);
            off /= 2;
        }
        v
    }

    /// The row-major position in a broadcast's source (of `src` shape,
    /// its dims going to `dims` of the result) of the result's element at
    /// position `e` (of `shape`).
    fn broadcast_source(&mut self, e: Value, shape: &[i64], dims: &[i64], src: &[i64]) -> Value {
        let idx = self.unravel(e, shape);
        let zero = ab::index(self, 0);
        let at: Vec<Value> = dims
            .iter()
            .zip(src)
            .map(|(d, l)| if *l == 1 { zero } else { idx[*d as usize] })
            .collect();
        self.ravel(&at, src)
    }

    /// Copies this thread's elements of a tile of type `t` held as `l` into
    /// `dst`: at their positions (a shared view every thread fills) or at
    /// their slots (the thread's own array).
    fn copy_into(
        &mut self,
        l: L,
        t: &TileType,
        dst: Value,
        at_position: bool,
    ) -> Result<(), Diagnostic> {
        let n: i64 = t.shape.iter().product();
        self.each(n, warp_rows::rows_of(t), &mut |s, j, e| {
            let x = s.own(l, j, e);
            mb::store(s, x, dst, &[if at_position { e } else { j }]);
            Ok(())
        })
    }

    /// This thread's element `(j, e)` of a tile.
    fn own(&mut self, l: L, j: Value, e: Value) -> Value {
        match l {
            L::Dist(a) => mb::load(self, a, &[j]),
            L::Shared(v) => mb::load(self, v, &[e]),
            L::Repl(a) => self.pick(a, e),
            // Only where a thread's slots are runs (maps of sliced tiles).
            L::Sliced(a, _) => mb::load(self, a, &[j]),
        }
    }

    /// Element `e` of a replicated tile's array `a`: a load at a constant
    /// index, or a chain of selects over its few elements, so that the
    /// array stays in registers.
    fn pick(&mut self, a: Value, e: Value) -> Value {
        if let Some(c) = self.const_index(e) {
            let i = ab::index(self, c);
            return mb::load(self, a, &[i]);
        }
        let n = self
            .ctx
            .type_kind(self.ctx.value_type(a))
            .shape()
            .map_or(1, |s| s[0]);
        let i0 = ab::index(self, 0);
        let mut x = mb::load(self, a, &[i0]);
        for k in 1..n {
            let i = ab::index(self, k);
            let y = mb::load(self, a, &[i]);
            let is = ab::cmpi(self, CmpIPredicate::Eq, e, i);
            x = ab::select(self, is, y, x);
        }
        x
    }

    /// The value of `v` when it is an index constant.
    fn const_index(&self, v: Value) -> Option<i64> {
        arith::constant_int(self.ctx, v)
    }

    /// A view in which every thread can read every element of tile `v`,
    /// and whether it had to be written there (then a barrier must follow
    /// its last read before the scratch is reused).
    fn readable(&mut self, v: Value) -> Result<(Value, bool), Diagnostic> {
        let (l, t) = self.tiles[&v].clone();
        match l {
            L::Shared(view) => Ok((view, false)),
            L::Sliced(..) => {
                self.materialize(v)?;
                self.readable(v)
            }
            L::Dist(_) | L::Repl(_) => {
                let n: i64 = t.shape.iter().product();
                let view = self.scratch_view(n, t.elem);
                self.copy_into(l, &t, view, true)?;
                self.barrier();
                Ok((view, true))
            }
        }
    }

    /// A view of `n` elements in the scratch region, after those in use.
    /// Where consumer groups take turns, the two groups would share it at
    /// once: an error at the kernel's end ([`Lower::last_turn`]).
    fn scratch_view(&mut self, n: i64, elem: Type) -> Value {
        if let Some(t) = self.turns.as_mut() {
            t.shared_scratch = true;
        }
        self.scratch_claim(n, elem)
    }

    /// [`Lower::scratch_view`] for a view each consumer group taking turns
    /// uses a part of its own (a staged store's staging tiles).
    fn scratch_claim(&mut self, n: i64, elem: Type) -> Value {
        if self.scratch.dirty[self.scratch.bank] {
            self.barrier();
        }
        let bytes = n * elem_bytes(self.ctx, elem);
        let sc = &mut self.scratch;
        let at = sc.start + sc.used;
        sc.used = align(sc.used + bytes);
        sc.most[sc.bank] = sc.most[sc.bank].max(sc.used);
        let second = sc.bank == 1;
        let v = self.shared_view(at, n, elem);
        if second {
            let op = self.ctx.defining_op(v).expect("a gpu.shared op");
            self.scratch.second.push(op);
        }
        v
    }

    /// Turns tile `v`, if held as tensor-core fragments or sliced, into a
    /// spread one. Sliced: the first thread of each
    /// row's group writes the row's result to shared memory, and every
    /// thread reads the elements it owns.
    fn materialize(&mut self, v: Value) -> Result<(), Diagnostic> {
        self.materialize_frag(v)?;
        let Some((L::Sliced(arr, sl), t)) = self.tiles.get(&v).cloned() else {
            return Ok(());
        };
        let n: i64 = t.shape.iter().product();
        let view = self.scratch_view(n, t.elem);
        let tid = self.tid;
        let gc = ab::index(self, sl.group);
        let lane = ab::binary::<arith::RemUI>(self, tid, gc);
        let zero = ab::index(self, 0);
        let first = ab::cmpi(self, CmpIPredicate::Eq, lane, zero);
        for q in 0..self.runs(sl) {
            let row = self.slice_row(sl, q);
            let qc = ab::index(self, q);
            let x = mb::load(self, arr, &[qc]);
            self.when(first, &mut |s| {
                mb::store(s, x, view, &[row]);
                Ok(())
            })?;
        }
        self.barrier();
        let out = self.alloca(n, t.elem);
        self.each(n, warp_rows::rows_of(&t), &mut |s, j, e| {
            let x = mb::load(s, view, &[e]);
            mb::store(s, x, out, &[j]);
            Ok(())
        })?;
        self.release(true);
        self.tiles.insert(v, (L::Dist(out), t));
        Ok(())
    }

    /// Tile `v` (a loop's argument or result) as the array `arr` carrying
    /// it: fragments of layout `frag`, sliced as `sl`, or spread.
    fn bind_carried(
        &mut self,
        v: Value,
        arr: Value,
        t: &TileType,
        frag: Option<mma::Warps>,
        sl: Option<Slice>,
    ) {
        match (frag, sl) {
            (Some(w), _) => self.set_frag(v, arr, w, t),
            (None, Some(sl)) => {
                self.tiles.insert(v, (L::Sliced(arr, sl), t.clone()));
            }
            (None, None) => {
                self.tiles.insert(v, (L::Dist(arr), t.clone()));
            }
        }
    }

    /// The slice of the row reduction in loop body `body` whose result
    /// (through maps, looking `depth` ops back) tile `v` is, if any.
    fn reduced_in(&self, body: Block, v: Value, depth: usize) -> Option<Slice> {
        let ctx = &*self.ctx;
        let d = ctx.defining_op(v)?;
        if depth == 0 || ctx.parent_block(d) != Some(body) {
            return None;
        }
        if let Some(red) = tile::Reduce::of(ctx, d) {
            let src = tile::tile_type(ctx.uniquer(), ctx.value_type(red.input(ctx)))?;
            let axis = red.axis(ctx).unwrap_or(0) as usize;
            return self.slice_of(src, axis);
        }
        tile::Map::of(ctx, d)?
            .inputs(ctx)
            .iter()
            .find_map(|x| self.reduced_in(body, *x, depth - 1))
    }

    /// Writes tile `v` into `dst`, sliced as `sl`: copied when it already
    /// is, else read from where every thread can read it.
    fn write_sliced(&mut self, v: Value, sl: Slice, dst: Value) -> Result<(), Diagnostic> {
        let runs = self.runs(sl);
        if let Some((L::Sliced(a, s2), _)) = self.tiles.get(&v).cloned()
            && s2 == sl
        {
            if a != dst {
                for q in 0..runs {
                    let qc = ab::index(self, q);
                    let x = mb::load(self, a, &[qc]);
                    mb::store(self, x, dst, &[qc]);
                }
            }
            return Ok(());
        }
        let (view, ex) = self.readable(v)?;
        for q in 0..runs {
            let row = self.slice_row(sl, q);
            let qc = ab::index(self, q);
            let x = mb::load(self, view, &[row]);
            mb::store(self, x, dst, &[qc]);
        }
        self.release(ex);
        Ok(())
    }

    /// Ends the reads of scratch views: threads wait until all have read
    /// before the scratch is written again.
    ///
    /// The wait is deferred to the next use of the bank (or the end of a
    /// loop's body, or its start): the next exchange writes the other bank,
    /// and its barrier orders these reads before this bank is written
    /// again, so back-to-back reductions cost one barrier each.
    fn release(&mut self, exchanged: bool) {
        let sc = &mut self.scratch;
        if exchanged {
            sc.dirty[sc.bank] = true;
            sc.bank ^= 1;
        }
        sc.used = 0;
    }

    /// Waits for the block if scratch reads are still unordered with what
    /// comes next.
    fn settle(&mut self) {
        if self.scratch.dirty.contains(&true) {
            self.barrier();
        }
    }

    fn tile_of(&self, op: Op, v: Value) -> Result<TileType, Diagnostic> {
        tile::tile_type(self.ctx.uniquer(), self.ctx.value_type(v))
            .cloned()
            .ok_or_else(|| err(self.ctx, op, "expected a tile"))
    }

    /// A new register tile for result `r` of `op`, filled by `f(j, e)`
    /// giving each owned element.
    fn fill(&mut self, op: Op, r: Value, f: &mut ElementOf<'_, Self>) -> Result<(), Diagnostic> {
        let t = self.tile_of(op, r)?;
        let n: i64 = t.shape.iter().product();
        let arr = self.alloca(n, t.elem);
        self.each(n, warp_rows::rows_of(&t), &mut |s, j, e| {
            let x = f(s, j, e, &t)?;
            mb::store(s, x, arr, &[j]);
            Ok(())
        })?;
        self.tiles.insert(r, (L::Dist(arr), t));
        Ok(())
    }

    fn block_ops(&mut self, b: Block) -> Result<(), Diagnostic> {
        let ops: Vec<Op> = self.ctx.block_ops(b).collect();
        for o in ops {
            self.lower_op(o)?;
        }
        Ok(())
    }

    /// The descriptor of a load, store or valid, the buffer's row-major
    /// order when none is written.
    fn desc(&self, op: Op, shape: &[i64]) -> Result<Desc, Diagnostic> {
        let a = self
            .ctx
            .find_ident("desc")
            .and_then(|i| self.ctx.inherent_attr(op, i));
        match a {
            Some(a) => coord::desc_of(self.ctx.uniquer(), a)
                .cloned()
                .map_err(|e| err(self.ctx, op, e)),
            None => Ok(Desc::row_major(shape)),
        }
    }

    /// `coord.offset` of the element at `idx` of a tile at `origin`.
    fn locate(&mut self, d: &Desc, origin: &[Value], idx: &[Value]) -> (Value, Value) {
        let lead = origin.len() - idx.len();
        let mut at = origin[..lead].to_vec();
        for (o, i) in origin[lead..].iter().zip(idx) {
            at.push(ab::binary::<arith::AddI>(self, *o, *i));
        }
        let u = self.ctx.uniquer().clone();
        let o = coord::Offset::build(
            self,
            &at,
            coord::desc_attr(&u, d),
            u.ty(TypeKind::Index),
            u.int_type(1),
        );
        (o.offset(self.ctx), o.valid(self.ctx))
    }

    fn scalars(&self, vs: &[Value]) -> Vec<Value> {
        vs.iter().map(|v| self.map.value(*v)).collect()
    }

    fn lower_op(&mut self, op: Op) -> Result<(), Diagnostic> {
        // The epilogue of tensor-core gemms, on their fragments.
        if self.mma.is_deferred(op) {
            return Ok(());
        }
        if let Some(w) = self.mma.epilogue(op) {
            return self.frag_map(op, w);
        }
        if self.convert_frag(op) {
            return Ok(());
        }
        if let Some(r) = self.lower_rows(op) {
            return r;
        }
        if self.mma.is_frag_store(op) {
            return self.frag_store(op);
        }
        // Accumulators of tensor-core gemms, read in the blocked layout.
        let temporary = self.materialize_operands(op)?;
        // Sliced operands of ops that do not read them so, spread for this
        // op only (the copy is made where the op is, perhaps in a loop the
        // value was not made in).
        let mut sliced = Vec::new();
        if !self.takes_sliced(op) {
            for v in self.ctx.operands(op).to_vec() {
                if let Some(old @ (L::Sliced(..), _)) = self.tiles.get(&v).cloned() {
                    self.materialize(v)?;
                    sliced.push((v, old));
                }
            }
        }
        self.lower_op_blocked(op)?;
        for v in temporary {
            self.tiles.remove(&v);
        }
        for (v, old) in sliced {
            self.tiles.insert(v, old);
        }
        Ok(())
    }
}
