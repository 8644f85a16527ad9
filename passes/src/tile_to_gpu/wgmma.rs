//! `tile.gemm` on Hopper's warpgroup MMA (`tile-to-gpu{mma=wgmma}`,
//! sm_90a): the one gemm of a cp.async-pipelined K loop runs as
//! `nvgpu.warpgroup.mma` m64nNk16 instructions that read A and B straight
//! from the shared ring, with no fragment loads.
//!
//! Which gemms: those [`super::mma`] pipelines as a loop's only gemm
//! (f16 x f16 -> f32 or bf16 x bf16 -> f32, or fp8 x fp8 -> f32 with
//! `f8E4M3FN`/`f8E5M2` each either, its operands the loop's
//! staged transfers), in
//! blocks of whole warpgroups (128 threads) stacked along M, one m64 row
//! block each (M = 64 x warpgroups), N a multiple of 8 up to 256 (of 64
//! when B is N-major), a K step a multiple of a 128-byte run (64 halves,
//! 128 bytes), 3 stages or more. PTX's 8-bit forms (m64nNk32) take no
//! transpose, so an fp8 B must be K-major (`Copy::trans`: memory
//! contiguous along K). Other gemms keep mma.sync.
//!
//! An fp8 gemm is the f16 one in bytes: 16-byte copies of 16 elements,
//! 128-element runs (`swizzle<3, 4, 3>`), four k32 steps a run, the
//! descriptors' strides in bytes alike; `abType` names A's format and
//! `bType` B's where it differs.
//!
//! Shared tiles are stored in the 128-byte-swizzled layout the wgmma
//! descriptors describe: a tile of `lines` lines (A's rows; B's columns
//! when memory is contiguous along K, else its rows) of 64-element
//! (128-byte) runs, the runs of a longer line in further column blocks of
//! `lines x 64`; the 16-byte chunk `c` of line `r` lands at chunk `c ^ (r
//! % 8)` ([`Lower::swizzled_at`]), which cp.async writes directly. Each
//! ring stage starts on a 1024-byte boundary, where the swizzle pattern
//! repeats. A is K-major (stride byte offset 1024: eight 128-byte rows);
//! B is K-major (an N x K tile, read like A) or N-major (a K x N tile:
//! `transposeB`, 64-column atoms `K x 128` bytes apart, eight K rows 1024
//! bytes apart).
//!
//! The accumulator of warpgroup `g` (rows `64·g..64·g + 63`) is, per warp
//! `w` of it, the m16n8 fragment layout repeated N/8 times along N: the
//! [`Warps`] of mma.sync with a `warps x 1` grid, `mt = 1`, `nt = N/8`,
//! so the epilogue and the stores on fragments are mma.sync's.
//!
//! The loop keeps wgmma groups asynchronous: iteration `i` waits for its
//! stage's copies, fences them for the async proxy, syncs the block,
//! starts the copies of iteration `i + depth - 2` into the stage
//! iteration `i - 2` read (every warpgroup has waited for that one's
//! wgmmas), issues its k16 steps as one group and waits until at most
//! that group is in flight. The accumulator is a vector carried through
//! the loop, in registers.

use super::mma::{CHUNK, Pipe, Shared, Unit, Warps, tile_type};
use super::{Lower, err, int_attr};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::float::FloatKind;
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::arith;
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::memref::build as mb;
use aic_dialects::tile::{self, Layout, TileType};
use aic_dialects::vector;
use aic_dialects::{nvgpu, nvvm};

/// Elements of a 128-byte swizzled run of f16 or bf16 (one line of an atom).
pub(super) const RUN: i64 = 64;

/// The element types a wgmma gemm multiplies, if `gemm` is one wgmma
/// runs: f16 or bf16 (both alike, k16), or fp8 (`f8E4M3FN` / `f8E5M2`,
/// each either, k32), into f32; with the elements of a 16-byte chunk (8
/// or 16).
pub(super) fn gemm_types(ctx: &Context, gemm: Op) -> Option<(Type, Type, i64)> {
    let g = tile::Gemm::of(ctx, gemm)?;
    let (a, b) = (tile_type(ctx, g.a(ctx))?, tile_type(ctx, g.b(ctx))?);
    if super::mma::half_gemm_shape(ctx, gemm).is_some() {
        return Some((a.elem, b.elem, CHUNK));
    }
    let fp8 = |t: Type| {
        matches!(
            ctx.type_kind(t),
            TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2)
        )
    };
    (super::mma::s8_gemm_shape(ctx, gemm).is_some() && fp8(a.elem) && fp8(b.elem))
        .then_some((a.elem, b.elem, 16))
}

/// Bytes between the 8-line groups of an atom (its size).
const ATOM_BYTES: i64 = 1024;

/// Whether `gemm`, the single gemm of pipelined loop `pipe`, can run as a
/// wgmma gemm of a block of `threads` (see the module's doc).
pub(super) fn fits(ctx: &Context, gemm: Op, pipe: &Pipe, threads: i64) -> bool {
    let Some(g) = tile::Gemm::of(ctx, gemm) else {
        return false;
    };
    let (ga, gb) = (g.a(ctx), g.b(ctx));
    let (Some(a), Some(b)) = (tile_type(ctx, ga), tile_type(ctx, gb)) else {
        return false;
    };
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    let copy = |v: Value| pipe.copy_of(ctx, v).map(|i| &pipe.copies[i]);
    let (Some(ca), Some(cb)) = (copy(ga), copy(gb)) else {
        return false;
    };
    let Some((_, _, chunk)) = gemm_types(ctx, gemm) else {
        return false;
    };
    // 128-byte runs: 64 halves or 128 bytes; 8-bit B K-major only.
    let run = 8 * chunk;
    let byte = chunk != CHUNK;
    threads % 128 == 0
        && pipe.depth >= 3
        && row_blocks(m, n, threads).is_some()
        && n % 8 == 0
        && n <= 256
        && k % run == 0
        && ca.transfer != cb.transfer
        && !ca.trans
        && (cb.trans || (!byte && n % run == 0))
}

/// The m64 row blocks each warpgroup of a block of `threads` runs for an
/// `m x n` accumulator: one (M = 64 x warpgroups), or two (M = 128 x
/// warpgroups) where a thread's share of the accumulator stays within 128
/// registers (a 128 x 128 tile a warpgroup); `None` otherwise.
pub(super) fn row_blocks(m: i64, n: i64, threads: i64) -> Option<i64> {
    let warps = threads / 32;
    if threads % 128 != 0 || m % (16 * warps) != 0 {
        return None;
    }
    match m / (16 * warps) {
        1 => Some(1),
        2 if m * n <= 128 * threads => Some(2),
        _ => None,
    }
}

/// The accumulator layout of a wgmma gemm of `m x n` in a block of
/// `threads`: mma.sync's fragments, the warps stacked along M, each warp
/// `mt` ([`row_blocks`]) m16 blocks of consecutive rows.
pub(super) fn warps(m: i64, n: i64, threads: i64) -> Warps {
    Warps {
        wm: threads / 32,
        wn: 1,
        mt: row_blocks(m, n, threads).unwrap_or(1),
        nt: n / 8,
        unit: Unit::MmaSync,
    }
}

/// The slot, in the fragments of `w`, of register `r` of row block `mi`'s
/// wgmma accumulator. With one row block they are the same. With two,
/// block `mi` reads A's 8-row groups `2j + mi` (a stride byte offset of
/// two atoms), so that its rows `16w + q + 8h` of warp `w` are the tile's
/// `32w + 16h + 8mi + q`: mma.sync's block `h`, half `mi`.
pub(super) fn wgmma_slot(w: Warps, mi: i64, r: i64) -> i64 {
    if w.mt == 1 {
        return r;
    }
    let (j, h, c) = (r / 4, (r % 4) / 2, r % 2);
    (h * w.nt + j) * 4 + 2 * mi + c
}

/// The swizzle of a shared tile wgmma reads: 128-byte runs (2^3 units
/// of 16 bytes: 8 halves, `swizzle<3, 3, 3>`, or 16 bytes of an 8-bit
/// type, `swizzle<3, 4, 3>`; `chunk` the unit's elements) in 8-line
/// groups, line `r`'s unit `c` stored at `c ^ (r % 8)`; `trans` where the
/// tile is stored column after column.
pub(super) fn swizzle(trans: bool, chunk: i64) -> Layout {
    Layout::Swizzle {
        b: 3,
        m: if chunk == CHUNK { 3 } else { 4 },
        s: 3,
        trans,
    }
}

/// Records the transfers of wgmma gemm `gemm`'s A and B, copies of
/// pipelined loop `pipe`, as stored swizzled, unpadded.
pub(super) fn swizzle_operands(ctx: &Context, gemm: Op, pipe: &Pipe, shared: &mut Shared) {
    let Some(g) = tile::Gemm::of(ctx, gemm) else {
        return;
    };
    let copy = |v: Value| pipe.copy_of(ctx, v).map(|i| &pipe.copies[i]);
    for c in [copy(g.a(ctx)), copy(g.b(ctx))].into_iter().flatten() {
        shared.layouts.insert(c.transfer, swizzle(c.trans, c.chunk));
    }
}

impl Lower<'_> {
    /// The element offset, in a swizzled tile of `lines` lines, of the
    /// 16-byte chunk (of `chunk` elements: 8 halves, 16 bytes) starting at
    /// element `within` of line `line`.
    pub(super) fn swizzled_at(
        &mut self,
        line: Value,
        within: Value,
        lines: i64,
        chunk: i64,
    ) -> Value {
        let run_len = 8 * chunk;
        let (run, cc, c8) = (
            ab::index(self, run_len),
            ab::index(self, chunk),
            ab::index(self, 8),
        );
        let block = ab::binary::<arith::DivUI>(self, within, run);
        let w = ab::binary::<arith::RemUI>(self, within, run);
        let unit = ab::binary::<arith::DivUI>(self, w, cc);
        let r8 = ab::binary::<arith::RemUI>(self, line, c8);
        let unit = ab::binary::<arith::XOrI>(self, unit, r8);
        let zero = ab::index(self, 0);
        let at = self.mul_add(block, lines * run_len, zero);
        let at = self.mul_add(line, run_len, at);
        self.mul_add(unit, chunk, at)
    }

    /// A descriptor of the swizzled matrix at element `at` of `view`.
    fn descriptor(&mut self, view: Value, at: Value, lbo: i64, sbo: i64) -> Value {
        let u = self.ctx.uniquer().clone();
        let i64t = u.int_type(64);
        let a = |v: i64| int_attr(&u, v, i64t);
        nvgpu::WarpgroupDescriptor::build(self, view, &[at], a(lbo), a(sbo), a(128), i64t)
            .descriptor(self.ctx)
    }

    /// A descriptor of the swizzled matrix at element `at` of `view`, its
    /// leading byte offset `lbo`, 8-line groups an atom apart.
    pub(super) fn wgmma_descriptor(&mut self, view: Value, at: Value, lbo: i64) -> Value {
        self.descriptor(view, at, lbo, ATOM_BYTES)
    }

    /// `nvvm.wgmma.wait.group.sync.aligned n`.
    pub(super) fn wgmma_wait(&mut self, n: i64) {
        let u = self.ctx.uniquer().clone();
        let g = int_attr(&u, n, u.int_type(64));
        nvvm::WgmmaWait::build(self, g);
    }

    /// The pipelined loop of wgmma gemm `gemm` (see the module's doc):
    /// `rings` are the transfers' rings (view, line length, stage size,
    /// tile), `carried` the accumulator's fragment array, `issue` starts
    /// an iteration's copies.
    #[allow(clippy::type_complexity)]
    pub(super) fn lower_wgmma(
        &mut self,
        gemm: Op,
        pipe: &Pipe,
        (rings, carried, results): (
            &[(Value, i64, i64, TileType)],
            &(Value, Warps, TileType),
            &[Value],
        ),
        issue: &dyn Fn(&mut Self, Value, Option<Value>) -> Result<Value, Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let (acc, w, t) = carried.clone();
        let g = tile::Gemm::wrap(gemm);
        let (Some(ia), Some(ib)) = (
            pipe.copy_of(self.ctx, g.a(self.ctx)),
            pipe.copy_of(self.ctx, g.b(self.ctx)),
        ) else {
            return Err(err(self.ctx, gemm, "a wgmma gemm of unstaged operands"));
        };
        let (m, kk) = (rings[ia].3.shape[0], rings[ia].3.shape[1]);
        let n = t.shape[1];
        let k_major_b = pipe.copies[ib].trans;
        let u = self.ctx.uniquer().clone();
        let i1 = u.int_type(1);
        let f32 = u.ty(TypeKind::Float(FloatKind::F32));
        // bf16 matrices say so (`abType = bf16`); f16 is the default;
        // fp8 ones name A's format and B's where it differs (`bType`).
        let (elem, elem_b) = (rings[ia].3.elem, rings[ib].3.elem);
        let chunk = super::mma::chunk_of(self.ctx, elem).unwrap_or(CHUNK);
        let byte = chunk != CHUNK;
        let ab_type = (byte || super::mma::half_kind(self.ctx, elem) == Some(FloatKind::BF16))
            .then(|| u.attr(AttrKind::Type(elem)));
        let b_type = (byte && elem_b != elem).then(|| u.attr(AttrKind::Type(elem_b)));
        let run = 8 * chunk;
        let mt = w.mt;
        let len = w.slots() / mt;
        let vty = u.ty(TypeKind::Vector {
            shape: [len].as_slice().into(),
            scalable: [false].as_slice().into(),
            elem: f32,
        });
        // Stages 0 .. depth - 3 before the loop (TMA's after its
        // mbarriers are made).
        let mut group = None;
        let tma = super::tma::ring_of(self.ctx, gemm, pipe)?.is_some();
        for it in (0..pipe.depth - 2).filter(|_| !tma) {
            let itv = ab::index(self, it);
            let live = (it >= pipe.n).then(|| ab::int(self, 0, i1));
            group = Some(issue(self, itv, live)?);
        }
        let v0 = self.acc_vectors(acc, w, vty);
        // This warpgroup's rows of A: 64·mt·g lines of the first column
        // block.
        let c128 = ab::index(self, 128);
        let g = ab::binary::<arith::DivUI>(self, self.tid, c128);
        let zero = ab::index(self, 0);
        let a_rows = self.mul_add(g, 64 * mt * run, zero);
        let proxy_kind = aic_dialects::nvvm::ProxyKind::AsyncShared.attr(&u);
        let proxy_space = aic_dialects::nvvm::SharedSpace::Cta.attr(&u);
        let wait_n = int_attr(&u, pipe.depth - 3, u.int_type(32));
        let (lo, hi, one) = (
            ab::index(self, 0),
            ab::index(self, pipe.n),
            ab::index(self, 1),
        );
        let steps = Steps {
            rings,
            ia,
            ib,
            m,
            kk,
            n,
            mt,
            k_major_b,
            a_rows,
            ab_type,
            b_type,
            run,
            vty,
        };
        if let Some(tma) = super::tma::ring_of(self.ctx, gemm, pipe)? {
            return self.lower_wgmma_tma(pipe, &tma, &steps, (acc, w, t), &v0, results);
        }
        let group = group.expect("depth >= 3");
        let mut inits = v0;
        inits.push(group);
        let out = self.for_loop(lo, hi, one, &inits, &mut |s, it, args| {
            let (vs, tok) = args.split_at(mt as usize);
            nvgpu::DeviceAsyncWait::build(s, tok[0], Some(wait_n));
            nvvm::FenceProxy::build(s, proxy_kind, Some(proxy_space));
            s.barrier();
            let ahead = ab::index(s, pipe.depth - 2);
            let next = ab::binary::<arith::AddI>(s, it, ahead);
            let nn = ab::index(s, pipe.n);
            let live = ab::cmpi(s, CmpIPredicate::Ult, next, nn);
            let tok = issue(s, next, Some(live))?;
            let d = ab::index(s, pipe.depth);
            let slot = ab::binary::<arith::RemUI>(s, it, d);
            let mut v = s.wgmma_steps(&steps, slot, vs);
            s.wgmma_wait(1);
            v.push(tok);
            Ok(v)
        })?;
        self.wgmma_wait(0);
        let none = int_attr(&u, 0, u.int_type(32));
        let (vs, tok) = out.split_at(mt as usize);
        nvgpu::DeviceAsyncWait::build(self, tok[0], Some(none));
        self.wgmma_finish(vs, (acc, w, t), results);
        Ok(())
    }

    /// Stores the loop's final accumulators `vs` (one a row block) into
    /// the fragment array `acc` (layout `w`, tile `t`), the gemm's result.
    pub(super) fn wgmma_finish(
        &mut self,
        vs: &[Value],
        (acc, w, t): (Value, Warps, TileType),
        results: &[Value],
    ) {
        let f32 = self.ctx.uniquer().ty(TypeKind::Float(FloatKind::F32));
        let len = w.slots() / w.mt;
        for (mi, v) in vs.iter().enumerate() {
            for r in 0..len {
                let x = self.extract(*v, &[r], f32);
                let i = ab::index(self, wgmma_slot(w, mi as i64, r));
                mb::store(self, x, acc, &[i]);
            }
        }
        self.set_frag(results[0], acc, w, &t);
    }

    /// The accumulators of layout `w` in array `arr` as the vectors (of
    /// type `vty`) each row block's wgmmas accumulate into.
    pub(super) fn acc_vectors(
        &mut self,
        arr: Value,
        w: Warps,
        vty: aic::types::Type,
    ) -> Vec<Value> {
        let len = w.slots() / w.mt;
        (0..w.mt)
            .map(|mi| {
                let el: Vec<Value> = (0..len)
                    .map(|r| {
                        let i = ab::index(self, wgmma_slot(w, mi, r));
                        mb::load(self, arr, &[i])
                    })
                    .collect();
                vector::FromElements::build(self, &el, vty).result(self.ctx)
            })
            .collect()
    }

    /// The `len` f32 of accumulator array `arr` as a vector of type `vty`,
    /// what wgmma accumulates into.
    pub(super) fn acc_vector(&mut self, arr: Value, len: i64, vty: aic::types::Type) -> Value {
        let el: Vec<Value> = (0..len)
            .map(|s| {
                let i = ab::index(self, s);
                mb::load(self, arr, &[i])
            })
            .collect();
        vector::FromElements::build(self, &el, vty).result(self.ctx)
    }

    /// Stores accumulator vector `v` (its wgmmas waited for) in array
    /// `arr`, element `s` at `s`.
    pub(super) fn store_acc(&mut self, v: Value, arr: Value, len: i64) {
        let f32 = self.ctx.uniquer().ty(TypeKind::Float(FloatKind::F32));
        for s in 0..len {
            let x = self.extract(v, &[s], f32);
            let i = ab::index(self, s);
            mb::store(self, x, arr, &[i]);
        }
    }

    /// One iteration's wgmmas on ring stage `slot`: its k16 steps (k32
    /// of fp8), each row block's, as one committed group on accumulators
    /// `vs` (one a row block); gives the new accumulators.
    pub(super) fn wgmma_steps(&mut self, st: &Steps<'_>, slot: Value, vs: &[Value]) -> Vec<Value> {
        let u = self.ctx.uniquer().clone();
        let (rings, ia, ib) = (st.rings, st.ia, st.ib);
        let (m, kk, n) = (st.m, st.kk, st.n);
        let (sa, sb) = (rings[ia].2, rings[ib].2);
        let k_major_b = st.k_major_b;
        let base_a = self.mul_add(slot, sa, st.a_rows);
        let zero = ab::index(self, 0);
        let base_b = self.mul_add(slot, sb, zero);
        nvvm::WgmmaFence::build(self);
        let mut vs = vs.to_vec();
        let run = st.run;
        // One instruction: 32 bytes of K (16 halves, 32 fp8 elements).
        let depth = if run == RUN { 16 } else { 32 };
        for k in (0..kk).step_by(depth as usize) {
            let within = k % run;
            // Row block `mi` reads A's 8-line groups `mt·j + mi`.
            let das: Vec<Value> = (0..st.mt)
                .map(|mi| {
                    let at_a = ab::index(self, (k / run) * m * run + within + mi * 8 * run);
                    let at_a = ab::binary::<arith::AddI>(self, base_a, at_a);
                    self.descriptor(rings[ia].0, at_a, 16, st.mt * ATOM_BYTES)
                })
                .collect();
            let (at_b, lbo) = if k_major_b {
                ((k / run) * n * run + within, 16)
            } else {
                (k * RUN, kk * 2 * RUN)
            };
            let at_b = ab::index(self, at_b);
            let at_b = ab::binary::<arith::AddI>(self, base_b, at_b);
            let db = self.descriptor(rings[ib].0, at_b, lbo, ATOM_BYTES);
            for (v, da) in vs.iter_mut().zip(das) {
                let transpose_b = (!k_major_b).then(|| u.attr(AttrKind::Unit));
                *v = nvgpu::WarpgroupMma::build(
                    self,
                    da,
                    db,
                    *v,
                    transpose_b,
                    st.ab_type,
                    st.b_type,
                    st.vty,
                )
                .matrix_d(self.ctx);
            }
        }
        nvvm::WgmmaCommit::build(self);
        vs
    }
}

/// What one iteration's wgmmas read ([`Lower::wgmma_steps`]): the rings
/// (view, line length, stage size, tile), A's and B's among them, the
/// gemm's M, K step and N, whether B is K-major, this warpgroup's first element of A in a
/// stage, the element type attribute and the accumulator's vector type.
pub(super) struct Steps<'a> {
    pub(super) rings: &'a [(Value, i64, i64, TileType)],
    pub(super) ia: usize,
    pub(super) ib: usize,
    pub(super) m: i64,
    pub(super) kk: i64,
    pub(super) n: i64,
    /// Row blocks of 64 a warpgroup ([`row_blocks`]).
    pub(super) mt: i64,
    pub(super) k_major_b: bool,
    pub(super) a_rows: Value,
    pub(super) ab_type: Option<aic::attributes::Attr>,
    /// B's fp8 format where it differs from A's.
    pub(super) b_type: Option<aic::attributes::Attr>,
    /// Elements of a 128-byte run (64 halves, 128 bytes).
    pub(super) run: i64,
    pub(super) vty: aic::types::Type,
}
