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
//! A kernel of whole rows whose blocked layout would spread a row over
//! several warps (so that their partial results meet in shared memory,
//! behind a barrier) lays its row tile out a warp per row instead, when the
//! block's `W` warps divide its rows: warp `w` holds rows `w`, `w + W`, ...
//! in runs of `v` at columns `l * v`, `(L + l) * v`, ... of its lane `l` (of
//! `L`, from `gpu.lane_id`), and reduces them by shuffles alone.
//!
//! With `threads=1` the result is the tile program run element by element,
//! which the interpreter can execute; a backend runs any thread count.
//!
//! With `mma=true` or `mma=nvgpu` (NVIDIA sm_80 and later), the f16 gemms
//! that tensor cores can run become warps' `nvgpu.mma.sync` on fragments
//! (see [`mma`]); with `mma=wgmma` (sm_90a), the one gemm of a pipelined
//! K loop becomes warpgroups' `nvgpu.warpgroup.mma` where it qualifies
//! (see [`wgmma`]), the others mma.sync; with `mma=amdgpu` (gfx90a,
//! gfx942), wavefronts' `amdgpu.mfma` (see [`mfma`]).

mod mfma;
mod mma;
mod wgmma;

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::constraints::i64_array_attr;
use aic::ir::{Block, Builder, Context, InsertPoint, Op, OpState, Value, ValueMap};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::arith::CMPI_PREDICATES;
use aic_dialects::coord::{self, Desc};
use aic_dialects::gpu::{AddressSpace, elem_bytes};
use aic_dialects::tile::{self, Space, TileType};
use std::collections::HashMap;

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
            help: "Run f16 gemms on matrix units: NVIDIA tensor cores (nvgpu or true: nvgpu.mma.sync, sm_80 and later; wgmma: Hopper's nvgpu.warpgroup.mma where a pipelined loop's gemm qualifies, sm_90a) or AMD matrix cores (amdgpu: amdgpu.mfma, gfx90a and gfx942)",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(TileToGpu {
            threads: o.int("threads").max(1),
            warp: o.int("warp"),
            mma: match o.str("mma") {
                "true" | "nvgpu" => mma::Kind::Nvgpu,
                "amdgpu" => mma::Kind::Amdgpu,
                "wgmma" => mma::Kind::Wgmma,
                _ => mma::Kind::Off,
            },
        })
    },
};

/// A thread's loops over at most this many of its elements are unrolled.
pub const UNROLL: i64 = 32;

/// Reductions to at most this many results leave them in every thread.
pub const REPLICATED: i64 = 16;

struct TileToGpu {
    threads: i64,
    warp: i64,
    mma: mma::Kind,
}

impl Pass for TileToGpu {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let (mut kernels, mut launches) = (Vec::new(), Vec::new());
        ctx.walk(
            root,
            aic::ir::WalkOrder::PreOrder,
            &mut |_, o| match ctx.op_name(o) {
                "tile.kernel" => kernels.push(o),
                "tile.launch" => launches.push(o),
                _ => {}
            },
        );
        for k in &kernels {
            // The lowering sizes buffers and loops with plain products of
            // dims: a kernel's shapes (from user IR too) are checked static
            // and addressable first, which bounds every such product.
            aic::shape::check_values(ctx, *k, "tile-to-gpu")?;
            // A kernel whose tiles chose their block size keeps it.
            let threads = aic::constraints::int_attr(ctx, *k, "threads").unwrap_or(self.threads);
            lower_kernel(ctx, *k, threads, self.warp, self.mma)?;
        }
        for l in &launches {
            let mut st = OpState::new(ctx.ident("gpu.launch"), ctx.op(*l).loc);
            st.operands = ctx.operands(*l).iter().copied().collect();
            st.result_types = ctx.results(*l).map(|r| ctx.value_type(r)).collect();
            st.props = ctx.op(*l).props;
            let loc = ctx.op(*l).loc;
            let new = Builder {
                ctx: &mut *ctx,
                ip: InsertPoint::Before(*l),
                loc,
            }
            .insert(st);
            let pairs: Vec<(Value, Value)> = ctx.results(*l).zip(ctx.results(new)).collect();
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
/// (`per` 1, `step` the rows a block's threads cover at once); in a kernel
/// of warp rows (see [`Lower::plan_warp_rows`]) a warp holds whole rows.
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
    /// Where each transfer's shared region starts.
    transfer_at: HashMap<Op, i64>,
    /// The shared memory exchanges go through.
    scratch: Scratch,
    /// The row tile of a kernel whose rows each lie in one warp.
    warp_rows: Option<Slice>,
    /// The gemms tensor cores run.
    mma: mma::Plan,
    /// Accumulators in the fragment layout of tensor cores.
    frags: HashMap<Value, mma::Frag>,
    /// Shared tiles with padded rows (for ldmatrix): the view, row length,
    /// where the tile starts in the view (a pipeline's stage; 0 if `None`)
    /// and whether it is stored transposed.
    padded_tiles: HashMap<Value, mma::Padded>,
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
        if ctx.op_name(o) == "tile.transfer" {
            transfers.push(o);
        }
    });
    let plan = mma::plan(ctx, k, threads, mma);
    for t in transfers {
        let r = ctx.result(t, 0);
        let tt = tile::tile_type(&u, ctx.value_type(r)).ok_or_else(|| err(ctx, t, "not a tile"))?;
        if tt.space == Space::Shared {
            if plan.is_swizzled(t) {
                // A swizzle pattern's start (see wgmma).
                top = (top + 1023) / 1024 * 1024;
            }
            transfer_at.insert(t, top);
            let bytes = plan
                .transfer_bytes(ctx, t)
                .unwrap_or_else(|| tile_bytes(ctx, tt));
            top = align(top + bytes);
        }
    }
    let tid_op = Builder {
        ctx: &mut *ctx,
        ip: InsertPoint::End(gb),
        loc,
    }
    .create_with_props(
        "gpu.thread_id",
        &[],
        &[u.ty(TypeKind::Index)],
        &[("dimension", aic_dialects::gpu::Dim::X.attr(&u))],
    );
    let tid = ctx.result(tid_op, 0);
    let mut l = Lower {
        ctx,
        loc,
        block: gb,
        entry: tid_op,
        threads,
        warp: if warp > 1 && threads % warp == 0 {
            warp
        } else {
            0
        },
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
        mma: plan,
        frags: HashMap::new(),
        padded_tiles: HashMap::new(),
        warp_rows: None,
    };
    l.warp_rows = l.plan_warp_rows(k);
    l.block_ops(body)?;
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
    let mut grid = i64_array_attr(ctx, k, "grid").unwrap_or_default();
    grid.resize(3, 1);
    let r = ctx.create_region();
    ctx.append_block(r, gb);
    let mut st = OpState::new(ctx.ident("gpu.kernel"), loc);
    st.regions.push(r);
    st.props = Some(u.dict_attr(vec![
        (u.ident("sym_name"), u.string_attr(&name)),
        (u.ident("grid"), u.i64_array(&grid)),
        (u.ident("block"), u.i64_array(&[threads, 1, 1])),
        (u.ident("shared"), int_attr(&u, shared, u.int_type(64))),
    ]));
    Builder {
        ctx: &mut *ctx,
        ip: InsertPoint::Before(k),
        loc,
    }
    .insert(st);
    ctx.erase_op(k);
    Ok(())
}

/// `tile.reduce` kinds: the combining op of floats and integers.
fn combiner(kind: tile::ReduceKind, float: bool) -> (f64, &'static str) {
    use tile::ReduceKind::{Max, Min, Sum};
    match (kind, float) {
        (Sum, true) => (0.0, "arith.addf"),
        (Max, true) => (f64::NEG_INFINITY, "arith.maximumf"),
        (Min, true) => (f64::INFINITY, "arith.minimumf"),
        (Sum, false) => (0.0, "arith.addi"),
        (Max, false) => (i64::MIN as f64, "arith.maxsi"),
        (Min, false) => (i64::MAX as f64, "arith.minsi"),
    }
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

impl Lower<'_> {
    fn b(&mut self) -> Builder<'_> {
        Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::End(self.block),
            loc: self.loc,
        }
    }

    fn op(&mut self, name: &str, args: &[Value], results: &[Type], props: &[(&str, Attr)]) -> Op {
        self.b().create_with_props(name, args, results, props)
    }

    fn val(&mut self, name: &str, args: &[Value], ty: Type, props: &[(&str, Attr)]) -> Value {
        let o = self.op(name, args, &[ty], props);
        self.ctx.result(o, 0)
    }

    fn index_ty(&self) -> Type {
        self.ctx.uniquer().ty(TypeKind::Index)
    }

    fn index(&mut self, v: i64) -> Value {
        let t = self.index_ty();
        let a = int_attr(self.ctx.uniquer(), v, t);
        self.val("arith.constant", &[], t, &[("value", a)])
    }

    /// The constant `v` of type `ty` (a float or an integer).
    fn constant(&mut self, v: f64, ty: Type) -> Value {
        let u = self.ctx.uniquer().clone();
        let a = match u.type_kind(ty) {
            TypeKind::Float(k) => u.attr(AttrKind::Float {
                bits: k.from_f64(v),
                ty,
            }),
            TypeKind::Integer { width: 1, .. } => int_attr(&u, i64::from(v != 0.0), ty),
            _ => int_attr(&u, v as i64, ty),
        };
        self.val("arith.constant", &[], ty, &[("value", a)])
    }

    fn bin(&mut self, name: &str, a: Value, b: Value) -> Value {
        let ty = self.ctx.value_type(a);
        self.val(name, &[a, b], ty, &[])
    }

    fn cmpi(&mut self, pred: &str, a: Value, b: Value) -> Value {
        let i = CMPI_PREDICATES
            .iter()
            .position(|p| *p == pred)
            .expect("a predicate") as i64;
        let u = self.ctx.uniquer().clone();
        let i1 = u.int_type(1);
        self.val(
            "arith.cmpi",
            &[a, b],
            i1,
            &[("predicate", int_attr(&u, i, u.int_type(64)))],
        )
    }

    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.ctx.value_type(a);
        self.val("arith.select", &[c, a, b], ty, &[])
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

    fn load(&mut self, m: Value, i: Value) -> Value {
        let elem = self
            .ctx
            .type_kind(self.ctx.value_type(m))
            .element_type()
            .expect("a memref");
        self.val("memref.load", &[m, i], elem, &[])
    }

    fn store(&mut self, v: Value, m: Value, i: Value) {
        self.op("memref.store", &[v, m, i], &[], &[]);
    }

    fn barrier(&mut self) {
        if self.threads > 1 {
            self.op("gpu.barrier", &[], &[], &[]);
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
        let o = Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::Before(self.entry),
            loc: self.loc,
        }
        .create_with_props("memref.alloca", &[], &[ty], &[]);
        self.ctx.result(o, 0)
    }

    fn shared_view(&mut self, offset: i64, n: i64, elem: Type) -> Value {
        let ty = self.memref(n, elem, true);
        let u = self.ctx.uniquer().clone();
        self.val(
            "gpu.shared",
            &[],
            ty,
            &[("offset", int_attr(&u, offset, u.int_type(64)))],
        )
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
        self.within(body, |s| s.op("scf.yield", &yields, &[], &[]));
        let r = self.ctx.create_region();
        self.ctx.append_block(r, body);
        let mut st = OpState::new(self.ctx.ident("scf.for"), self.loc);
        st.operands = [lb, ub, step].iter().chain(inits).copied().collect();
        st.result_types = inits.iter().map(|v| self.ctx.value_type(*v)).collect();
        st.regions.push(r);
        let o = self.b().insert(st);
        Ok(self.ctx.results(o).collect())
    }

    /// `scf.if %c { f }` (no results).
    fn when(
        &mut self,
        c: Value,
        f: &mut dyn FnMut(&mut Self) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let then = self.ctx.create_block(&[]);
        self.within(then, |s| f(s))?;
        self.within(then, |s| s.op("scf.yield", &[], &[], &[]));
        let (r, e) = (self.ctx.create_region(), self.ctx.create_region());
        self.ctx.append_block(r, then);
        let mut st = OpState::new(self.ctx.ident("scf.if"), self.loc);
        st.operands = [c].as_slice().into();
        st.regions.push(r);
        st.regions.push(e);
        self.b().insert(st);
        Ok(())
    }

    /// For each element of a tile of `n` this thread owns: `f(j, e)` with
    /// `j` its slot in the thread's array and `e` its row-major position.
    fn each(
        &mut self,
        n: i64,
        f: &mut dyn FnMut(&mut Self, Value, Value) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let t = self.threads;
        let per = (n + t - 1) / t;
        let tid = self.tid;
        let v = self.vector(n);
        let rows = self.warp_rows.filter(|sl| sl.n == n);
        let mut body = |s: &mut Self, j: Value| -> Result<(), Diagnostic> {
            let e = if t == 1 {
                j
            } else if let Some(sl) = rows {
                s.row_position(sl, j)
            } else if let Some(j) = s.const_index(j) {
                // ((j / v) * t + tid) * v + j % v, the constant part folded.
                let tv = s.index(v);
                let base = s.bin("arith.muli", tid, tv);
                let k = s.index((j / v) * t * v + j % v);
                s.bin("arith.addi", base, k)
            } else {
                let (tc, vc) = (s.index(t), s.index(v));
                let jq = s.bin("arith.divui", j, vc);
                let jr = s.bin("arith.remui", j, vc);
                let jt = s.bin("arith.muli", jq, tc);
                let jt = s.bin("arith.addi", jt, tid);
                let jt = s.bin("arith.muli", jt, vc);
                s.bin("arith.addi", jt, jr)
            };
            if n % t == 0 {
                f(s, j, e)
            } else {
                let nc = s.index(n);
                let inside = s.cmpi("ult", e, nc);
                s.when(inside, &mut |s| f(s, j, e))
            }
        };
        if t > 1 && per <= UNROLL {
            for j in 0..per {
                let j = self.index(j);
                body(self, j)?;
            }
            return Ok(());
        }
        let (lo, hi, one) = (self.index(0), self.index(per), self.index(1));
        self.for_loop(lo, hi, one, &[], &mut |s, j, _| {
            body(s, j)?;
            Ok(Vec::new())
        })?;
        Ok(())
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
        let gc = self.index(sl.group);
        let warp = self.bin("arith.divui", tid, gc);
        let u = self.ctx.uniquer().clone();
        let ty = self.index_ty();
        let bound = int_attr(&u, sl.group, u.int_type(64));
        let lane = self.val("gpu.lane_id", &[], ty, &[("upper_bound", bound)]);
        let (lc, vc) = (self.index(sl.len), self.index(sl.v));
        let row = self.bin("arith.muli", warp, lc);
        let col = self.bin("arith.muli", lane, vc);
        let base = self.bin("arith.addi", row, col);
        let (row_step, run_step) = (sl.step * sl.len, sl.group * sl.v);
        let off = match self.const_index(j) {
            Some(j) => {
                let (q, k) = (j / sl.v, j % sl.v);
                self.index((q / sl.per) * row_step + (q % sl.per) * run_step + k)
            }
            None => {
                let (pc, rs, ps) = (
                    self.index(sl.per),
                    self.index(row_step),
                    self.index(run_step),
                );
                let q = self.bin("arith.divui", j, vc);
                let k = self.bin("arith.remui", j, vc);
                let s = self.bin("arith.divui", q, pc);
                let p = self.bin("arith.remui", q, pc);
                let s = self.bin("arith.muli", s, rs);
                let p = self.bin("arith.muli", p, ps);
                let sp = self.bin("arith.addi", s, p);
                self.bin("arith.addi", sp, k)
            }
        };
        self.bin("arith.addi", base, off)
    }

    /// How many neighbouring elements of a tile of `n` a thread owns
    /// together: 8 (16 bytes of f16, which loads and stores move at once)
    /// when every thread gets whole runs of them, else fewer, down to 1.
    fn vector(&self, n: i64) -> i64 {
        let t = self.threads;
        [8, 4, 2]
            .into_iter()
            .find(|v| t > 1 && n % (t * v) == 0)
            .unwrap_or(1)
    }

    /// The index of position `e` along each dim of `shape`.
    fn unravel(&mut self, e: Value, shape: &[i64]) -> Vec<Value> {
        let st = strides(shape);
        (0..shape.len())
            .map(|d| {
                let q = if st[d] == 1 {
                    e
                } else {
                    let c = self.index(st[d]);
                    self.bin("arith.divui", e, c)
                };
                if d == 0 {
                    q
                } else {
                    let c = self.index(shape[d]);
                    self.bin("arith.remui", q, c)
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
                let c = self.index(s);
                self.bin("arith.muli", *i, c)
            };
            acc = Some(match acc {
                Some(a) => self.bin("arith.addi", a, term),
                None => term,
            });
        }
        acc.unwrap_or_else(|| self.index(0))
    }

    /// `f(0) combine f(1) combine ... f(n - 1)` (`n` at least 1).
    fn fold(&mut self, n: i64, combine: &str, f: &mut dyn FnMut(&mut Self, i64) -> Value) -> Value {
        let mut acc = f(self, 0);
        for k in 1..n {
            let x = f(self, k);
            acc = self.bin(combine, acc, x);
        }
        acc
    }

    /// `xs` (at least one) combined pairwise, so that the fold is
    /// log2(n) ops deep rather than n.
    pub(super) fn pairwise(&mut self, mut xs: Vec<Value>, combine: &str) -> Value {
        while xs.len() > 1 {
            xs = xs
                .chunks(2)
                .map(|p| match p {
                    [a, b] => self.bin(combine, *a, *b),
                    _ => p[0],
                })
                .collect();
        }
        xs[0]
    }

    /// `v` combined over each aligned group of `lanes` lanes of a warp by
    /// butterfly shuffles (offsets `lanes/2` down to 1): every lane of a
    /// group gets the group's result.
    fn butterfly(&mut self, v: Value, lanes: i64, combine: &str) -> Value {
        let u = self.ctx.uniquer().clone();
        let i32t = u.int_type(32);
        let xor = aic_dialects::gpu::ShuffleMode::Xor.attr(&u);
        let width = self.constant(lanes as f64, i32t);
        let elem = self.ctx.value_type(v);
        let (mut v, mut off) = (v, lanes / 2);
        while off > 0 {
            let oc = self.constant(off as f64, i32t);
            let sh = self.op(
                "gpu.shuffle",
                &[v, oc, width],
                &[elem, u.int_type(1)],
                &[("mode", xor)],
            );
            let y = self.ctx.result(sh, 0);
            v = self.bin(combine, v, y);
            off /= 2;
        }
        v
    }

    /// The row-major position in a broadcast's source (of `src` shape,
    /// its dims going to `dims` of the result) of the result's element at
    /// position `e` (of `shape`).
    fn broadcast_source(&mut self, e: Value, shape: &[i64], dims: &[i64], src: &[i64]) -> Value {
        let idx = self.unravel(e, shape);
        let zero = self.index(0);
        let at: Vec<Value> = dims
            .iter()
            .zip(src)
            .map(|(d, l)| if *l == 1 { zero } else { idx[*d as usize] })
            .collect();
        self.ravel(&at, src)
    }

    /// Copies this thread's elements of a tile of `n` held as `l` into
    /// `dst`: at their positions (a shared view every thread fills) or at
    /// their slots (the thread's own array).
    fn copy_into(&mut self, l: L, n: i64, dst: Value, at_position: bool) -> Result<(), Diagnostic> {
        self.each(n, &mut |s, j, e| {
            let x = s.own(l, j, e);
            s.store(x, dst, if at_position { e } else { j });
            Ok(())
        })
    }

    /// This thread's element `(j, e)` of a tile.
    fn own(&mut self, l: L, j: Value, e: Value) -> Value {
        match l {
            L::Dist(a) => self.load(a, j),
            L::Shared(v) => self.load(v, e),
            L::Repl(a) => self.pick(a, e),
            // Only where a thread's slots are runs (maps of sliced tiles).
            L::Sliced(a, _) => self.load(a, j),
        }
    }

    /// Element `e` of a replicated tile's array `a`: a load at a constant
    /// index, or a chain of selects over its few elements, so that the
    /// array stays in registers.
    fn pick(&mut self, a: Value, e: Value) -> Value {
        if let Some(c) = self.const_index(e) {
            let i = self.index(c);
            return self.load(a, i);
        }
        let n = self
            .ctx
            .type_kind(self.ctx.value_type(a))
            .shape()
            .map_or(1, |s| s[0]);
        let i0 = self.index(0);
        let mut x = self.load(a, i0);
        for k in 1..n {
            let i = self.index(k);
            let y = self.load(a, i);
            let is = self.cmpi("eq", e, i);
            x = self.select(is, y, x);
        }
        x
    }

    /// The value of `v` when it is an index constant.
    fn const_index(&self, v: Value) -> Option<i64> {
        let d = self.ctx.defining_op(v)?;
        if self.ctx.op_name(d) != "arith.constant" {
            return None;
        }
        let a = self.ctx.inherent_attr(d, self.ctx.find_ident("value")?)?;
        match self.ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
            _ => None,
        }
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
                self.copy_into(l, n, view, true)?;
                self.barrier();
                Ok((view, true))
            }
        }
    }

    /// A view of `n` elements in the scratch region, after those in use.
    fn scratch_view(&mut self, n: i64, elem: Type) -> Value {
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

    /// This thread's partials of a reduction of spread tile `arr` (of type
    /// `src`) along `axis`: a private array of one per result element,
    /// starting at `init`, each of the thread's elements folded into its
    /// result's. With `by_select` (few results) every slot is written at a
    /// constant index, the element's own chosen by selects, so that the
    /// array stays in registers.
    fn thread_partials(
        &mut self,
        arr: Value,
        src: &TileType,
        axis: usize,
        init: f64,
        combine: &str,
        by_select: bool,
    ) -> Result<Value, Diagnostic> {
        let n: i64 = src.shape.iter().product();
        let rows = n / src.shape[axis];
        let mut out_shape = src.shape.clone();
        out_shape.remove(axis);
        let part = self.private(rows, src.elem);
        let first = self.constant(init, src.elem);
        if by_select {
            for i in 0..rows {
                let i = self.index(i);
                self.store(first, part, i);
            }
        } else {
            let (lo, hi, one) = (self.index(0), self.index(rows), self.index(1));
            self.for_loop(lo, hi, one, &[], &mut |s, o, _| {
                s.store(first, part, o);
                Ok(Vec::new())
            })?;
        }
        self.each(n, &mut |s, j, e| {
            let x = s.load(arr, j);
            let mut idx = s.unravel(e, &src.shape);
            idx.remove(axis);
            let o = s.ravel(&idx, &out_shape);
            if !by_select {
                let p = s.load(part, o);
                let y = s.bin(combine, p, x);
                s.store(y, part, o);
                return Ok(());
            }
            for i in 0..rows {
                let ic = s.index(i);
                let p = s.load(part, ic);
                let y = s.bin(combine, p, x);
                let y = if rows == 1 {
                    y
                } else {
                    let mine = s.cmpi("eq", o, ic);
                    s.select(mine, y, p)
                };
                s.store(y, part, ic);
            }
            Ok(())
        })?;
        Ok(part)
    }

    /// `tile.reduce` of a spread tile `arr` (of type `src`) along `axis` into
    /// `r`: each thread folds the elements it holds into one partial per
    /// result element, the partials go to shared memory (result-major, a
    /// thread's at its index), and the thread holding a result element
    /// folds that element's partials.
    #[allow(clippy::too_many_arguments)]
    fn reduce_partials(
        &mut self,
        op: Op,
        r: Value,
        arr: Value,
        src: &TileType,
        axis: usize,
        init: f64,
        combine: &str,
    ) -> Result<(), Diagnostic> {
        let t = self.threads;
        let rows = src.shape.iter().product::<i64>() / src.shape[axis];
        let part = self.thread_partials(arr, src, axis, init, combine, false)?;
        let view = self.scratch_view(rows * t, src.elem);
        let tid = self.tid;
        let (lo, hi, one) = (self.index(0), self.index(rows), self.index(1));
        self.for_loop(lo, hi, one, &[], &mut |s, o, _| {
            let tc = s.index(t);
            let at = s.bin("arith.muli", o, tc);
            let at = s.bin("arith.addi", at, tid);
            let p = s.load(part, o);
            s.store(p, view, at);
            Ok(Vec::new())
        })?;
        self.barrier();
        self.fill(op, r, &mut |s, _, e, ty| {
            let init = s.constant(init, ty.elem);
            let (lo, hi, one) = (s.index(0), s.index(t), s.index(1));
            let acc = s.for_loop(lo, hi, one, &[init], &mut |s, k, acc| {
                let tc = s.index(t);
                let at = s.bin("arith.muli", e, tc);
                let at = s.bin("arith.addi", at, k);
                let x = s.load(view, at);
                Ok(vec![s.bin(combine, acc[0], x)])
            })?;
            Ok(acc[0])
        })?;
        self.release(true);
        Ok(())
    }

    /// `tile.reduce` of a spread tile `arr` (of type `src`) along `axis` into
    /// `r`, a replicated tile of few elements: each thread folds what it
    /// holds into one partial per result (constant slots, chosen by
    /// selects), the lanes of each warp combine their partials by
    /// butterfly shuffles, and the warps' sums meet in shared memory, where
    /// every thread reads and folds them.
    fn reduce_warps(
        &mut self,
        r: Value,
        arr: Value,
        src: &TileType,
        axis: usize,
        init: f64,
        combine: &str,
    ) -> Result<(), Diagnostic> {
        let (t, w) = (self.threads, self.warp);
        let warps = t / w;
        let rows = src.shape.iter().product::<i64>() / src.shape[axis];
        let mut out_shape = src.shape.clone();
        out_shape.remove(axis);
        let elem = src.elem;
        let part = self.thread_partials(arr, src, axis, init, combine, true)?;
        let res = self.private(rows, elem);
        let view = (warps > 1).then(|| self.scratch_view(rows * warps, elem));
        let tid = self.tid;
        let wc = self.index(w);
        let lane = self.bin("arith.remui", tid, wc);
        let warp = self.bin("arith.divui", tid, wc);
        let zero = self.index(0);
        let leader = self.cmpi("eq", lane, zero);
        for i in 0..rows {
            let ic = self.index(i);
            let p = self.load(part, ic);
            let v = self.butterfly(p, w, combine);
            match view {
                None => self.store(v, res, ic),
                Some(view) => {
                    let base = self.index(i * warps);
                    let at = self.bin("arith.addi", base, warp);
                    self.when(leader, &mut |s| {
                        s.store(v, view, at);
                        Ok(())
                    })?;
                }
            }
        }
        if let Some(view) = view {
            self.barrier();
            for i in 0..rows {
                let acc = self.fold(warps, combine, &mut |s, k| {
                    let at = s.index(i * warps + k);
                    s.load(view, at)
                });
                let ic = self.index(i);
                self.store(acc, res, ic);
            }
            self.release(true);
        }
        let rt = TileType {
            shape: out_shape,
            ..src.clone()
        };
        self.tiles.insert(r, (L::Repl(res), rt));
        Ok(())
    }

    /// A replicated tile for result `r` of `op`: every thread computes each
    /// of its elements, `f(e, e)` giving element `e` (a constant).
    fn fill_replicated(
        &mut self,
        op: Op,
        r: Value,
        f: &mut ElementOf<'_, Self>,
    ) -> Result<(), Diagnostic> {
        let t = self.tile_of(op, r)?;
        let n: i64 = t.shape.iter().product();
        let arr = self.private(n, t.elem);
        for e in 0..n {
            let e = self.index(e);
            let x = f(self, e, e, &t)?;
            self.store(x, arr, e);
        }
        self.tiles.insert(r, (L::Repl(arr), t));
        Ok(())
    }

    /// Whether a reduction of a spread tile of type `src` along `axis` goes
    /// by warp shuffles: warps are on, the results are few, and every run
    /// of a thread's neighbouring elements lies in one row whose index does
    /// not depend on the thread beyond what LLVM folds (the rows are whole
    /// multiples of what the block holds at once), so each thread folds its
    /// elements into partials at constant slots.
    fn shuffles(&self, src: &TileType, axis: usize) -> bool {
        let n: i64 = src.shape.iter().product();
        let len = src.shape[axis];
        let rows = n / len;
        let span = self.threads * self.vector(n);
        self.warp > 0
            && self.warp_rows.is_none_or(|sl| sl.n != n)
            && rows <= REPLICATED
            && rows < n
            && axis + 1 == src.shape.len()
            && len % span == 0
    }

    /// How a reduction of spread tile `src` along `axis` can leave its
    /// results where its rows lie: warps are on, the reduced axis is the
    /// last, every run of a thread's elements lies in one row, and a row
    /// spans a power-of-two group of neighbouring threads (within a warp,
    /// or whole warps).
    fn slice_of(&self, src: &TileType, axis: usize) -> Option<Slice> {
        let n: i64 = src.shape.iter().product();
        let len = src.shape[axis];
        if let Some(sl) = self.warp_rows
            && sl.n == n
            && sl.len == len
            && axis + 1 == src.shape.len()
        {
            return Some(sl);
        }
        self.blocked_slice(n, len)
            .filter(|_| axis + 1 == src.shape.len())
    }

    /// How a reduction of rows of `len` of a spread tile of `n` in the
    /// blocked layout leaves its results where its rows lie, if it can.
    fn blocked_slice(&self, n: i64, len: i64) -> Option<Slice> {
        let t = self.threads;
        let v = self.vector(n);
        let fits =
            self.warp > 0 && n % (t * v) == 0 && len % v == 0 && (t * v) % len == 0 && n > len;
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

    /// The row tile `[R, N]` of kernel `k` if its rows are better each
    /// held by one warp than spread in the blocked layout: every reduction
    /// of `k` is one along the rows of `[R, N]`, the blocked layout would
    /// spread a row over several warps (their results meeting in shared
    /// memory, behind a barrier), the block's warps divide `R` and a warp's
    /// runs of `v` divide `N`, and every tile of `R * N` elements is such
    /// a tile. Each warp then holds rows `w`, `w + W`, ... and reduces them
    /// by shuffles alone. Kernels with loops, gemms or shared tiles keep
    /// the blocked layout.
    fn plan_warp_rows(&self, k: Op) -> Option<Slice> {
        let (t, w) = (self.threads, self.warp);
        if w == 0 {
            return None;
        }
        let ctx = &*self.ctx;
        let u = ctx.uniquer();
        let axis = ctx.find_ident("axis");
        let (mut row, mut simple) = (None::<Vec<i64>>, true);
        let mut shapes = Vec::new();
        ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            match ctx.op_name(o) {
                "tile.for" | "tile.gemm" | "tile.transfer" => simple = false,
                "tile.reduce" => {
                    let src = tile::tile_type(u, ctx.value_type(ctx.operands(o)[0]));
                    let a = axis
                        .and_then(|i| ctx.inherent_attr(o, i))
                        .and_then(|a| aic::constraints::int_value(u, a));
                    match src {
                        Some(s)
                            if s.shape.len() == 2
                                && a == Some(1)
                                && row.as_ref().is_none_or(|r| *r == s.shape) =>
                        {
                            row = Some(s.shape.clone());
                        }
                        _ => simple = false,
                    }
                }
                _ => {}
            }
            shapes.extend(
                ctx.results(o)
                    .filter_map(|r| tile::tile_type(u, ctx.value_type(r)))
                    .map(|t| t.shape.clone()),
            );
        });
        let shape = row.filter(|_| simple)?;
        let (r, len) = (shape[0], shape[1]);
        let n = r * len;
        let v = self.vector(n);
        let warps = t / w;
        let spread = self.blocked_slice(n, len).is_none_or(|sl| sl.group > w);
        let alike = shapes
            .iter()
            .all(|s| s.iter().product::<i64>() != n || *s == shape);
        (spread && alike && r % warps == 0 && len % (w * v) == 0).then_some(Slice {
            n,
            v,
            len,
            group: w,
            per: len / (w * v),
            step: warps,
        })
    }

    /// The rows a thread holds part of (the slots of a sliced tile).
    fn runs(&self, sl: Slice) -> i64 {
        sl.n / (sl.len * sl.step)
    }

    /// The row of slot `q` of this thread.
    fn slice_row(&mut self, sl: Slice, q: i64) -> Value {
        let step = sl.step;
        let tid = self.tid;
        let gc = self.index(sl.group);
        let within = self.bin("arith.divui", tid, gc);
        let base = self.index(q * step);
        self.bin("arith.addi", base, within)
    }

    /// `tile.reduce` of spread tile `arr` along its last axis into `r`,
    /// sliced: each thread folds each run, and the group of lanes holding
    /// a row combines theirs by butterfly shuffles within the group (within
    /// each warp of it, then the warps' results through shared memory when
    /// a group spans several).
    fn reduce_sliced(
        &mut self,
        r: Value,
        arr: Value,
        src: &TileType,
        sl: Slice,
        combine: &str,
    ) -> Result<(), Diagnostic> {
        let runs = self.runs(sl);
        let elem = src.elem;
        let out = self.private(runs, elem);
        let lanes = sl.group.min(self.warp);
        // Warps a row spans, and a shared slot per row and warp for them.
        let per_row = sl.group / lanes;
        let across = (per_row > 1).then(|| {
            let rows = sl.n / sl.len;
            self.scratch_view(rows * per_row, elem)
        });
        for q in 0..runs {
            // Each run in turn, the runs of a row pairwise (where a warp
            // holds several runs of a row).
            let parts: Vec<Value> = (0..sl.per)
                .map(|p| {
                    self.fold(sl.v, combine, &mut |s, k| {
                        let j = s.index((q * sl.per + p) * sl.v + k);
                        s.load(arr, j)
                    })
                })
                .collect();
            let run = self.pairwise(parts, combine);
            let v = self.butterfly(run, lanes, combine);
            let qc = self.index(q);
            self.store(v, out, qc);
        }
        if let Some(view) = across {
            // The first lane of each warp leaves the warp's result at
            // (row, warp within the row's group); every thread folds its
            // rows' slots.
            let tid = self.tid;
            let (wc, gc, pc) = (
                self.index(self.warp),
                self.index(sl.group),
                self.index(per_row),
            );
            let lane = self.bin("arith.remui", tid, wc);
            let zero = self.index(0);
            let first = self.cmpi("eq", lane, zero);
            let in_group = self.bin("arith.remui", tid, gc);
            let which = self.bin("arith.divui", in_group, wc);
            let mut rows = Vec::new();
            for q in 0..runs {
                let row = self.slice_row(sl, q);
                let base = self.bin("arith.muli", row, pc);
                let at = self.bin("arith.addi", base, which);
                let qc = self.index(q);
                let x = self.load(out, qc);
                self.when(first, &mut |s| {
                    s.store(x, view, at);
                    Ok(())
                })?;
                rows.push(base);
            }
            self.barrier();
            for (q, base) in rows.into_iter().enumerate() {
                let acc = self.fold(per_row, combine, &mut |s, k| {
                    let kc = s.index(k);
                    let at = s.bin("arith.addi", base, kc);
                    s.load(view, at)
                });
                let qc = self.index(q as i64);
                self.store(acc, out, qc);
            }
            self.release(true);
        }
        let mut shape = src.shape.clone();
        shape.pop();
        let rt = TileType {
            shape,
            ..src.clone()
        };
        self.tiles.insert(r, (L::Sliced(out, sl), rt));
        Ok(())
    }

    /// A sliced tile for result `r` of `op` (a map of sliced tiles): `f(q,
    /// row)` gives the element of run `q`, which is row `row`.
    fn fill_sliced(
        &mut self,
        op: Op,
        r: Value,
        f: &mut ElementOf<'_, Self>,
    ) -> Result<(), Diagnostic> {
        let t = self.tile_of(op, r)?;
        let Some(L::Sliced(_, sl)) = self
            .ctx
            .operands(op)
            .first()
            .and_then(|v| self.tiles.get(v))
            .map(|x| x.0)
        else {
            return Err(err(self.ctx, op, "expected a sliced operand"));
        };
        let runs = self.runs(sl);
        let out = self.private(runs, t.elem);
        for q in 0..runs {
            let row = self.slice_row(sl, q);
            let qc = self.index(q);
            let x = f(self, qc, row, &t)?;
            self.store(x, out, qc);
        }
        self.tiles.insert(r, (L::Sliced(out, sl), t));
        Ok(())
    }

    /// Whether `op` reads its sliced operands as they are: maps whose
    /// tile operands are all sliced alike, and broadcasts of a sliced tile
    /// back over its rows.
    fn takes_sliced(&self, op: Op) -> bool {
        let ctx = &*self.ctx;
        let ls: Vec<Option<L>> = ctx
            .operands(op)
            .iter()
            .map(|v| self.tiles.get(v).map(|x| x.0))
            .collect();
        let slice = |l: &Option<L>| match l {
            Some(L::Sliced(_, sl)) => Some(*sl),
            _ => None,
        };
        match ctx.op_name(op) {
            "tile.map" => {
                let first = ls.first().and_then(slice);
                first.is_some() && ls.iter().all(|l| slice(l) == first)
            }
            "tile.broadcast" => {
                let Some(sl) = ls.first().and_then(slice) else {
                    return false;
                };
                let rank = self.tiles[&ctx.operands(op)[0]].1.shape.len() as i64;
                let dims = i64_array_attr(ctx, op, "dims").unwrap_or_default();
                let out = ctx
                    .results(op)
                    .next()
                    .and_then(|r| tile::tile_type(ctx.uniquer(), ctx.value_type(r)));
                dims == (0..rank).collect::<Vec<_>>()
                    && out.is_some_and(|o| {
                        o.shape.iter().product::<i64>() == sl.n && o.shape.last() == Some(&sl.len)
                    })
            }
            _ => false,
        }
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
        let gc = self.index(sl.group);
        let lane = self.bin("arith.remui", tid, gc);
        let zero = self.index(0);
        let first = self.cmpi("eq", lane, zero);
        for q in 0..self.runs(sl) {
            let row = self.slice_row(sl, q);
            let qc = self.index(q);
            let x = self.load(arr, qc);
            self.when(first, &mut |s| {
                s.store(x, view, row);
                Ok(())
            })?;
        }
        self.barrier();
        let out = self.alloca(n, t.elem);
        self.each(n, &mut |s, j, e| {
            let x = s.load(view, e);
            s.store(x, out, j);
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
        match ctx.op_name(d) {
            "tile.reduce" => {
                let src = tile::tile_type(ctx.uniquer(), ctx.value_type(ctx.operands(d)[0]))?;
                let axis = self.int(d, "axis") as usize;
                self.slice_of(src, axis)
            }
            "tile.map" => ctx
                .operands(d)
                .iter()
                .find_map(|x| self.reduced_in(body, *x, depth - 1)),
            _ => None,
        }
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
                    let qc = self.index(q);
                    let x = self.load(a, qc);
                    self.store(x, dst, qc);
                }
            }
            return Ok(());
        }
        let (view, ex) = self.readable(v)?;
        for q in 0..runs {
            let row = self.slice_row(sl, q);
            let qc = self.index(q);
            let x = self.load(view, row);
            self.store(x, dst, qc);
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

    /// The kind of reduction `op`.
    fn reduce_kind(&self, op: Op) -> tile::ReduceKind {
        let ctx = &*self.ctx;
        tile::Reduce::of(ctx, op)
            .and_then(|r| r.kind(ctx))
            .unwrap_or(tile::ReduceKind::Sum)
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
        self.each(n, &mut |s, j, e| {
            let x = f(s, j, e, &t)?;
            s.store(x, arr, j);
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
            at.push(self.bin("arith.addi", *o, *i));
        }
        let u = self.ctx.uniquer().clone();
        let o = self.op(
            "coord.offset",
            &at,
            &[u.ty(TypeKind::Index), u.int_type(1)],
            &[("desc", coord::desc_attr(&u, d))],
        );
        (self.ctx.result(o, 0), self.ctx.result(o, 1))
    }

    fn scalars(&self, vs: &[Value]) -> Vec<Value> {
        vs.iter().map(|v| self.map.value(*v)).collect()
    }

    fn int(&self, op: Op, name: &str) -> i64 {
        aic::constraints::int_attr(self.ctx, op, name).unwrap_or(0)
    }

    fn lower_op(&mut self, op: Op) -> Result<(), Diagnostic> {
        // The epilogue of tensor-core gemms, on their fragments.
        if self.mma.is_deferred(op) {
            return Ok(());
        }
        if let Some(w) = self.mma.epilogue(op) {
            return self.frag_map(op, w);
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

    fn lower_op_blocked(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = &*self.ctx;
        let name = ctx.op_name(op).to_string();
        let operands = ctx.operands(op).to_vec();
        let result = ctx.results(op).next();
        match name.as_str() {
            "tile.return" => {
                self.op("gpu.return", &[], &[], &[]);
            }
            "tile.program_id" => {
                let axis = self.int(op, "axis").clamp(0, 2) as usize;
                let u = self.ctx.uniquer().clone();
                let dim = aic_dialects::gpu::Dim::ALL[axis].attr(&u);
                let ty = self.index_ty();
                let v = self.val("gpu.block_id", &[], ty, &[("dimension", dim)]);
                self.map.values.insert(result.expect("a result"), v);
            }
            "tile.iota" => {
                let dim = self.int(op, "dim") as usize;
                self.fill(op, result.expect("a result"), &mut |s, _, e, t| {
                    let idx = s.unravel(e, &t.shape);
                    Ok(if matches!(s.ctx.type_kind(t.elem), TypeKind::Index) {
                        idx[dim]
                    } else {
                        s.val("arith.index_cast", &[idx[dim]], t.elem, &[])
                    })
                })?;
            }
            // Read by the padded transfer of its tile, straight from memory.
            "tile.load" if self.mma.is_direct(op) => {}
            "tile.valid" | "tile.load" => {
                let is_load = name == "tile.load";
                let (buf, origin) = if is_load {
                    (
                        Some(self.map.value(operands[0])),
                        self.scalars(&operands[1..]),
                    )
                } else {
                    (None, self.scalars(&operands))
                };
                let d = match buf {
                    Some(b) => {
                        let shape = self.buffers[&b].clone();
                        self.desc(op, &shape)?
                    }
                    None => self.desc(op, &[])?,
                };
                self.fill(op, result.expect("a result"), &mut |s, _, e, t| {
                    let idx = s.unravel(e, &t.shape);
                    let (off, ok) = s.locate(&d, &origin, &idx);
                    let Some(b) = buf else { return Ok(ok) };
                    let zero = s.index(0);
                    let safe = s.select(ok, off, zero);
                    let x = s.load(b, safe);
                    let z = s.constant(0.0, t.elem);
                    Ok(s.select(ok, x, z))
                })?;
            }
            "tile.store" => {
                let buf = self.map.value(operands[1]);
                let origin = self.scalars(&operands[2..]);
                let shape = self.buffers[&buf].clone();
                let d = self.desc(op, &shape)?;
                let (l, t) = self.tiles[&operands[0]].clone();
                let n: i64 = t.shape.iter().product();
                self.each(n, &mut |s, j, e| {
                    let idx = s.unravel(e, &t.shape);
                    let (off, ok) = s.locate(&d, &origin, &idx);
                    let x = s.own(l, j, e);
                    s.when(ok, &mut |s| {
                        s.store(x, buf, off);
                        Ok(())
                    })
                })?;
            }
            "tile.map" => {
                let ins: Vec<L> = operands.iter().map(|v| self.tiles[v].0).collect();
                let body = body_of(ctx, op, "a map")?;
                let params = ctx.block_args(body).to_vec();
                let body_ops: Vec<Op> = ctx.block_ops(body).collect();
                // Maps of replicated tiles are computed by every thread.
                let sliced = match ins.first() {
                    Some(L::Sliced(_, sl)) => Some(*sl),
                    _ => None,
                };
                let fill = if !ins.is_empty() && ins.iter().all(|l| matches!(l, L::Repl(_))) {
                    Self::fill_replicated
                } else if sliced.is_some() {
                    Self::fill_sliced
                } else {
                    Self::fill
                };
                fill(self, op, result.expect("a result"), &mut |s, j, e, _| {
                    for (p, l) in params.iter().zip(&ins) {
                        let x = s.own(*l, j, e);
                        s.map.values.insert(*p, x);
                    }
                    let mut out = None;
                    for o in &body_ops {
                        if s.ctx.op_name(*o) == "tile.yield" {
                            out = Some(s.map.value(s.ctx.operands(*o)[0]));
                        } else {
                            let c = s.ctx.clone_op(*o, &mut s.map);
                            s.ctx.append_op(s.block, c);
                        }
                    }
                    out.ok_or_else(|| err(s.ctx, op, "a map body yields nothing"))
                })?;
            }
            "tile.broadcast" => {
                let r = result.expect("a result");
                let dims = i64_array_attr(ctx, op, "dims").unwrap_or_default();
                match self.tiles.get(&operands[0]).cloned() {
                    None => {
                        let x = self.map.value(operands[0]);
                        self.fill(op, r, &mut |_, _, _, _| Ok(x))?;
                    }
                    Some((L::Sliced(arr, sl), _)) => {
                        // Back over the rows it came from: slot q's row.
                        let v = sl.v * sl.per;
                        self.fill(op, r, &mut |s, j, _, _| {
                            let q = match s.const_index(j) {
                                Some(j) => s.index(j / v),
                                None => {
                                    let vc = s.index(v);
                                    s.bin("arith.divui", j, vc)
                                }
                            };
                            Ok(s.load(arr, q))
                        })?;
                    }
                    Some((L::Repl(arr), src)) => {
                        self.fill(op, r, &mut |s, _, e, t| {
                            let lin = s.broadcast_source(e, &t.shape, &dims, &src.shape);
                            Ok(s.pick(arr, lin))
                        })?;
                    }
                    Some((_, src)) => {
                        let (view, ex) = self.readable(operands[0])?;
                        self.fill(op, r, &mut |s, _, e, t| {
                            let lin = s.broadcast_source(e, &t.shape, &dims, &src.shape);
                            Ok(s.load(view, lin))
                        })?;
                        self.release(ex);
                    }
                }
            }
            "tile.reduce" => {
                let axis = self.int(op, "axis") as usize;
                let kind = self.reduce_kind(op);
                let src = self.tile_of(op, operands[0])?;
                let float = matches!(self.ctx.type_kind(src.elem), TypeKind::Float(_));
                let (init, combine) = combiner(kind, float);
                let n: i64 = src.shape.iter().product();
                let rows = n / src.shape[axis];
                let (l, _) = self.tiles[&operands[0]].clone();
                match l {
                    // Few results, threads in warps: partials folded across
                    // each warp by shuffles, results in every thread.
                    L::Dist(arr) if self.shuffles(&src, axis) => {
                        let r = result.expect("a result");
                        self.reduce_warps(r, arr, &src, axis, init, combine)?;
                    }
                    // Rows within a warp's reach: the results stay where
                    // the rows were.
                    L::Dist(arr) if self.slice_of(&src, axis).is_some() => {
                        let sl = self.slice_of(&src, axis).expect("just checked");
                        let r = result.expect("a result");
                        self.reduce_sliced(r, arr, &src, sl, combine)?;
                    }
                    // Fewer partial results than elements: each thread
                    // reduces what it holds, then threads combine the
                    // partials (rows x threads of them) through shared memory.
                    L::Dist(arr) if rows * self.threads < n => {
                        let r = result.expect("a result");
                        self.reduce_partials(op, r, arr, &src, axis, init, combine)?;
                    }
                    _ => {
                        let (view, ex) = self.readable(operands[0])?;
                        self.fill(op, result.expect("a result"), &mut |s, _, e, t| {
                            let idx = s.unravel(e, &t.shape);
                            let init = s.constant(init, t.elem);
                            let (lo, hi, one) = (s.index(0), s.index(src.shape[axis]), s.index(1));
                            let shape = src.shape.clone();
                            let r = s.for_loop(lo, hi, one, &[init], &mut |s, k, acc| {
                                let mut at = idx.clone();
                                at.insert(axis, k);
                                let lin = s.ravel(&at, &shape);
                                let x = s.load(view, lin);
                                Ok(vec![s.bin(combine, acc[0], x)])
                            })?;
                            Ok(r[0])
                        })?;
                        self.release(ex);
                    }
                }
            }
            "tile.transfer" if self.mma.padded(op).is_some() => {
                let stride = self.mma.padded(op).expect("padded");
                let at = self.transfer_at[&op];
                self.padded_transfer(op, at, stride)?;
            }
            "tile.transfer" => {
                let r = result.expect("a result");
                let t = self.tile_of(op, r)?;
                let (l, _) = self.tiles[&operands[0]].clone();
                let n: i64 = t.shape.iter().product();
                match self.transfer_at.get(&op).copied() {
                    Some(at) => {
                        let view = self.shared_view(at, n, t.elem);
                        // Until every thread has read what the last transfer
                        // left here (the previous loop iteration's tile).
                        self.barrier();
                        self.copy_into(l, n, view, true)?;
                        self.barrier();
                        self.tiles.insert(r, (L::Shared(view), t));
                    }
                    None => self.fill(op, r, &mut |s, j, e, _| Ok(s.own(l, j, e)))?,
                }
            }
            "tile.gemm" if self.mma.is_mma(op) => self.mma_gemm(op)?,
            "tile.gemm" => {
                let (a, b) = (
                    self.tile_of(op, operands[0])?,
                    self.tile_of(op, operands[1])?,
                );
                let r = result.expect("a result");
                let t = self.tile_of(op, r)?;
                let (acc, _) = self.tiles[&operands[2]].clone();
                let (av, ea) = self.readable(operands[0])?;
                let (bv, eb) = self.readable(operands[1])?;
                let (kk, nn) = (a.shape[1], b.shape[1]);
                let float = matches!(self.ctx.type_kind(t.elem), TypeKind::Float(_));
                let (mul, add) = if float {
                    ("arith.mulf", "arith.addf")
                } else {
                    ("arith.muli", "arith.addi")
                };
                // k outermost: a thread's sums stay in its (register)
                // array while it walks k, reading A and B once per step.
                let n: i64 = t.shape.iter().product();
                let sums = self.alloca(n, t.elem);
                self.copy_into(acc, n, sums, false)?;
                let (lo, hi, one) = (self.index(0), self.index(kk), self.index(1));
                self.for_loop(lo, hi, one, &[], &mut |s, k, _| {
                    s.each(n, &mut |s, j, e| {
                        let idx = s.unravel(e, &t.shape);
                        let (i, col) = (idx[0], idx[1]);
                        let ka = s.index(kk);
                        let ia = s.bin("arith.muli", i, ka);
                        let ia = s.bin("arith.addi", ia, k);
                        let na = s.index(nn);
                        let ib = s.bin("arith.muli", k, na);
                        let ib = s.bin("arith.addi", ib, col);
                        let x = s.load(av, ia);
                        let y = s.load(bv, ib);
                        let (x, y) = (s.convert(x, t.elem), s.convert(y, t.elem));
                        let p = s.bin(mul, x, y);
                        let sum = s.load(sums, j);
                        let sum = s.bin(add, sum, p);
                        s.store(sum, sums, j);
                        Ok(())
                    })?;
                    Ok(Vec::new())
                })?;
                self.tiles.insert(r, (L::Dist(sums), t));
                self.release(ea || eb);
            }
            "tile.for" => match self.mma.pipe(op) {
                Some(p) => self.lower_pipelined(op, &p)?,
                None => self.lower_for(op)?,
            },
            _ => {
                // An op this pass does not know, on tiles or giving one.
                if operands.iter().any(|v| self.tiles.contains_key(v))
                    || ctx
                        .results(op)
                        .any(|r| tile::tile_type(ctx.uniquer(), ctx.value_type(r)).is_some())
                {
                    return Err(err(ctx, op, format!("cannot lower '{name}' on tiles")));
                }
                let c = self.ctx.clone_op(op, &mut self.map);
                self.ctx.append_op(self.block, c);
            }
        }
        Ok(())
    }

    /// `x` as `ty` (float extension or truncation; integers kept).
    fn convert(&mut self, x: Value, ty: Type) -> Value {
        let from = self.ctx.value_type(x);
        if from == ty {
            return x;
        }
        match (self.ctx.type_kind(from), self.ctx.type_kind(ty)) {
            (TypeKind::Float(a), TypeKind::Float(b)) if a.bit_width() < b.bit_width() => {
                self.val("arith.extf", &[x], ty, &[])
            }
            (TypeKind::Float(_), TypeKind::Float(_)) => self.val("arith.truncf", &[x], ty, &[]),
            _ => x,
        }
    }

    /// `tile.for`: an `scf.for` whose scalar iteration values are its own;
    /// a tile carried through the loop lives in one array, copied into at
    /// the end of each iteration.
    fn lower_for(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = &*self.ctx;
        let operands = ctx.operands(op).to_vec();
        let (lb, ub, step) = (
            self.map.value(operands[0]),
            self.map.value(operands[1]),
            self.map.value(operands[2]),
        );
        let inits = operands[3..].to_vec();
        let body = body_of(ctx, op, "a loop")?;
        let bargs = ctx.block_args(body).to_vec();
        let results: Vec<Value> = ctx.results(op).collect();
        let body_ops: Vec<Op> = ctx.block_ops(body).collect();
        // A carried tile that a row reduction in the body gives is carried
        // sliced, as the reduction leaves it.
        let yielded: Vec<Value> = body_ops
            .iter()
            .find(|o| ctx.op_name(**o) == "tile.yield")
            .map(|o| ctx.operands(*o).to_vec())
            .unwrap_or_default();
        // Carried tiles: one array each, holding the init first; a
        // tensor-core gemm's accumulator as its fragments.
        let mut carried: Vec<Option<(Value, TileType)>> = Vec::new();
        let mut frag_carried = Vec::new();
        let mut slices: Vec<Option<Slice>> = Vec::new();
        let mut scalar_inits = Vec::new();
        for (i, v) in inits.iter().enumerate() {
            let frag = if self.tiles.contains_key(v) {
                self.carry_frag(body, i, *v)?
            } else {
                None
            };
            frag_carried.push(frag.as_ref().map(|(_, w, _)| *w));
            let sl = yielded
                .get(i)
                .and_then(|y| self.reduced_in(body, *y, 8))
                .filter(|_| self.tiles.contains_key(v) && frag.is_none());
            slices.push(sl);
            if let Some((arr, _, t)) = frag {
                carried.push(Some((arr, t)));
                continue;
            }
            match self.tiles.get(v).cloned() {
                Some((_, t)) if sl.is_some() => {
                    let sl = sl.expect("just checked");
                    let arr = self.private(self.runs(sl), t.elem);
                    self.write_sliced(*v, sl, arr)?;
                    carried.push(Some((arr, t)));
                }
                Some((l, t)) => {
                    let n: i64 = t.shape.iter().product();
                    let arr = self.alloca(n, t.elem);
                    self.copy_into(l, n, arr, false)?;
                    carried.push(Some((arr, t)));
                }
                None => {
                    carried.push(None);
                    scalar_inits.push(self.map.value(*v));
                }
            }
        }
        // Scratch reads before the loop and at the end of its body must be
        // ordered before the body's first writes, which come after them.
        self.settle();
        let outs = self.for_loop(lb, ub, step, &scalar_inits, &mut |s, iv, iters| {
            s.map.values.insert(bargs[0], iv);
            let mut it = iters.iter();
            for (((a, c), f), sl) in bargs[1..]
                .iter()
                .zip(&carried)
                .zip(&frag_carried)
                .zip(&slices)
            {
                match c {
                    Some((arr, t)) => s.bind_carried(*a, *arr, t, *f, *sl),
                    None => {
                        s.map.values.insert(*a, *it.next().expect("one per scalar"));
                    }
                }
            }
            let mut yields = Vec::new();
            for o in &body_ops {
                if s.ctx.op_name(*o) != "tile.yield" {
                    s.lower_op(*o)?;
                    continue;
                }
                let vals = s.ctx.operands(*o).to_vec();
                for (((v, c), f), sl) in vals.iter().zip(&carried).zip(&frag_carried).zip(&slices) {
                    match c {
                        Some((arr, t)) if f.is_some() => {
                            s.yield_frag(*v, *arr, f.expect("a fragment layout"), t)?;
                        }
                        Some((arr, _)) if sl.is_some() => {
                            s.write_sliced(*v, sl.expect("just checked"), *arr)?;
                        }
                        Some((arr, t)) => {
                            s.materialize(*v)?;
                            let (l, _) = s.tiles[v].clone();
                            if !matches!(l, L::Dist(a) if a == *arr) {
                                let n: i64 = t.shape.iter().product();
                                s.copy_into(l, n, *arr, false)?;
                            }
                        }
                        None => yields.push(s.map.value(*v)),
                    }
                }
            }
            s.settle();
            Ok(yields)
        })?;
        let mut outs = outs.into_iter();
        for (((r, c), f), sl) in results.iter().zip(&carried).zip(&frag_carried).zip(&slices) {
            match c {
                Some((arr, t)) => self.bind_carried(*r, *arr, t, *f, *sl),
                None => {
                    self.map
                        .values
                        .insert(*r, outs.next().expect("one per scalar"));
                }
            }
        }
        Ok(())
    }
}
