//! `tile.gemm` on NVIDIA tensor cores (`tile-to-gpu{mma=true}`): warps run
//! `nvgpu.mma.sync` of shape m16n8k16 on fragments `nvgpu.ldmatrix` loads
//! from shared memory.
//!
//! Which gemms: f16 x f16 -> f32 with M, N, K multiples of 16, 8 and 16, in
//! a block of whole warps that tile the accumulator (a grid of `wm x wn`
//! warps, each owning a `M/wm x N/wn` block of `mt x nt` mma tiles). Any
//! other gemm keeps the SIMT loops.
//!
//! The accumulator lives in the mma fragment layout (a [`Frag`]): lane `l`
//! of warp `(wy, wx)` holds, in slot `(mi·nt + ni)·4 + c` of its private
//! array, element `(wy·M/wm + 16·mi + l/4 + 8·(c/2), wx·N/wn + 8·ni +
//! 2·(l%4) + c%2)`. It keeps that layout across a `tile.for` that yields
//! the gemm's result; any other op on it reads it in the blocked layout,
//! converted through shared memory ([`Lower::materialize`]).
//!
//! A (MxK) and B (KxN) are read from shared memory row-major: A by
//! `ldmatrix.x4` (one 16x16 tile), B by `ldmatrix.x4.trans` (16x16, two n8
//! tiles) or `.x2.trans`. A `tile.transfer` that only such gemms read
//! stores its rows 8 halves (16 bytes) apart more than their length, so
//! that the eight rows of an 8x8 matrix fall in distinct banks.

use super::{L, Lower, err};
use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::float::FloatKind;
use aic::ir::{Block, Context, Op, Value};
use aic::types::{Type, TypeKind};
use aic_dialects::tile::{self, Space, TileType};
use std::collections::HashMap;

/// Halves added to a row of a shared tile that ldmatrix reads.
const PAD: i64 = 8;

/// How a gemm's accumulator spreads over warps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Warps {
    /// Warps along M and along N.
    wm: i64,
    wn: i64,
    /// m16 tiles and n8 tiles per warp.
    mt: i64,
    nt: i64,
}

impl Warps {
    /// The warp grid for an `m x n` accumulator and `warps` warps: the one
    /// whose per-warp block is squarest (fewest fragment loads).
    fn choose(m: i64, n: i64, warps: i64) -> Option<Warps> {
        (1..=warps)
            .filter(|wm| warps % wm == 0)
            .map(|wm| (wm, warps / wm))
            .filter(|(wm, wn)| m % (16 * wm) == 0 && n % (8 * wn) == 0)
            .map(|(wm, wn)| Warps {
                wm,
                wn,
                mt: m / 16 / wm,
                nt: n / 8 / wn,
            })
            .min_by_key(|w| (w.mt * 16 - w.nt * 8).abs())
    }

    /// Accumulator elements each lane holds.
    fn slots(&self) -> i64 {
        self.mt * self.nt * 4
    }
}

/// What tensor cores run in a kernel, decided before lowering it.
#[derive(Default)]
pub(super) struct Plan {
    /// Gemms lowered to mma.sync and their warp grids.
    gemms: HashMap<Op, Warps>,
    /// Transfers that only those gemms read, with their padded row length.
    padded: HashMap<Op, i64>,
    /// Loads of a padded transfer's tile contiguous in memory along the
    /// tile's rows (a transposed operand): the transfer loads them itself,
    /// consecutive threads reading consecutive elements.
    direct: HashMap<Op, Op>,
}

/// An accumulator in the fragment layout.
#[derive(Clone)]
pub(super) struct Frag {
    /// The lane's private array of its elements.
    arr: Value,
    w: Warps,
    t: TileType,
    /// Where it was made (its blocked copy is kept for ops in this block only).
    block: Block,
}

fn is_float(ctx: &Context, t: Type, k: FloatKind) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(f) if *f == k)
}

fn tile_type(ctx: &Context, v: Value) -> Option<TileType> {
    tile::tile_type(ctx.uniquer(), ctx.value_type(v))
}

/// The warp grid of `gemm` if tensor cores can run it in blocks of `threads`.
fn mma_warps(ctx: &Context, gemm: Op, threads: i64) -> Option<Warps> {
    if threads % 32 != 0 {
        return None;
    }
    let ops = ctx.operands(gemm);
    let (a, b, c) = (
        tile_type(ctx, ops[0])?,
        tile_type(ctx, ops[1])?,
        tile_type(ctx, ops[2])?,
    );
    let r = tile_type(ctx, ctx.result(gemm, 0))?;
    let f16 = |t: &TileType| is_float(ctx, t.elem, FloatKind::F16) && t.shape.len() == 2;
    let f32 = |t: &TileType| is_float(ctx, t.elem, FloatKind::F32) && t.shape.len() == 2;
    if !(f16(&a) && f16(&b) && f32(&c) && f32(&r)) {
        return None;
    }
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    if b.shape[0] != k || c.shape != [m, n] || m % 16 != 0 || n % 8 != 0 || k % 16 != 0 {
        return None;
    }
    let w = Warps::choose(m, n, threads / 32)?;
    // Fragments beyond a few hundred registers a lane would spill.
    (w.slots() <= 128).then_some(w)
}

/// Which gemms of kernel `k` run on tensor cores and which transfers are
/// padded for them (nothing unless `enabled`).
pub(super) fn plan(ctx: &Context, k: Op, threads: i64, enabled: bool) -> Plan {
    let mut p = Plan::default();
    if !enabled {
        return p;
    }
    let mut transfers = Vec::new();
    ctx.walk(
        k,
        aic::ir::WalkOrder::PreOrder,
        &mut |_, o| match ctx.op_name(o) {
            "tile.gemm" => {
                if let Some(w) = mma_warps(ctx, o, threads) {
                    p.gemms.insert(o, w);
                }
            }
            "tile.transfer" => transfers.push(o),
            _ => {}
        },
    );
    for t in transfers {
        let r = ctx.result(t, 0);
        let Some(tt) = tile_type(ctx, r) else {
            continue;
        };
        let only_mma = ctx
            .uses(r)
            .iter()
            .all(|u| u.index < 2 && p.gemms.contains_key(&u.op));
        if tt.space == Space::Shared && tt.shape.len() == 2 && only_mma && !ctx.uses(r).is_empty() {
            p.padded.insert(t, tt.shape[1] + PAD);
            let src = ctx.operands(t)[0];
            if let Some(l) = ctx.defining_op(src)
                && ctx.op_name(l) == "tile.load"
                && ctx.uses(src).len() == 1
                && ctx.parent_block(l) == ctx.parent_block(t)
                && column_contiguous(ctx, l)
            {
                p.direct.insert(l, t);
            }
        }
    }
    p
}

/// Whether a 2-d `tile.load` reads memory contiguous along the tile's rows
/// (its dim 0), not its columns.
fn column_contiguous(ctx: &Context, load: Op) -> bool {
    let a = ctx
        .find_ident("desc")
        .and_then(|i| ctx.inherent_attr(load, i));
    let Some(Ok(d)) = a.map(|a| aic_dialects::coord::desc_of(ctx.uniquer(), a)) else {
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

impl Plan {
    /// The bytes of transfer `t`'s shared region, if padded.
    pub(super) fn transfer_bytes(&self, ctx: &Context, t: Op) -> Option<i64> {
        let stride = *self.padded.get(&t)?;
        let tt = tile_type(ctx, ctx.result(t, 0))?;
        Some(tt.shape[0] * stride * aic_dialects::gpu::elem_bytes(ctx, tt.elem))
    }

    /// Whether `load` is left to the transfer that reads its tile.
    pub(super) fn is_direct(&self, load: Op) -> bool {
        self.direct.contains_key(&load)
    }

    /// Whether `gemm` runs on tensor cores.
    pub(super) fn is_mma(&self, gemm: Op) -> bool {
        self.gemms.contains_key(&gemm)
    }

    /// The padded row length of transfer `t`'s shared tile.
    pub(super) fn padded(&self, t: Op) -> Option<i64> {
        self.padded.get(&t).copied()
    }
}

fn int_attr(u: &aic::ir::Uniquer, v: i64, ty: Type) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty,
    })
}

/// A lane's coordinates: its lane, and its warp's row and column in the grid.
struct Lane {
    lane: Value,
    wy: Value,
    wx: Value,
}

impl Lower<'_> {
    fn lane(&mut self, w: Warps) -> Lane {
        let tid = self.tid;
        let c32 = self.index(32);
        let lane = self.bin("arith.remui", tid, c32);
        let warp = self.bin("arith.divui", tid, c32);
        let wn = self.index(w.wn);
        let wy = self.bin("arith.divui", warp, wn);
        let wx = self.bin("arith.remui", warp, wn);
        Lane { lane, wy, wx }
    }

    /// `a * c + b` for a constant `c`.
    fn mul_add(&mut self, a: Value, c: i64, b: Value) -> Value {
        let c = self.index(c);
        let p = self.bin("arith.muli", a, c);
        self.bin("arith.addi", p, b)
    }

    /// The offset of this lane's slot 0 in a row-major `_ x n` tile, slot
    /// `s`'s being this plus [`frag_offset`].
    fn frag_base(&mut self, w: Warps, n: i64) -> Value {
        let Lane { lane, wy, wx } = self.lane(w);
        let c4 = self.index(4);
        let g = self.bin("arith.divui", lane, c4);
        let q = self.bin("arith.remui", lane, c4);
        let row = self.mul_add(wy, w.mt * 16, g);
        let two_q = self.bin("arith.addi", q, q);
        let col = self.mul_add(wx, w.nt * 8, two_q);
        self.mul_add(row, n, col)
    }

    /// Writes the fragments of `v` (a tile of type `t`) into `arr`, in the
    /// layout of `w`.
    fn write_frag(
        &mut self,
        v: Value,
        w: Warps,
        t: &TileType,
        arr: Value,
    ) -> Result<(), Diagnostic> {
        if let Some(f) = self.frags.get(&v).cloned() {
            if f.w == w {
                for s in 0..w.slots() {
                    let i = self.index(s);
                    let x = self.load(f.arr, i);
                    self.store(x, arr, i);
                }
                return Ok(());
            }
            self.materialize_frag(v)?;
        }
        // A broadcast scalar (the zero a gemm usually starts from).
        let d = self.ctx.defining_op(v);
        if let Some(d) = d.filter(|d| self.ctx.op_name(*d) == "tile.broadcast") {
            let src = self.ctx.operands(d)[0];
            if !self.tiles.contains_key(&src) {
                let x = self.map.value(src);
                for s in 0..w.slots() {
                    let i = self.index(s);
                    self.store(x, arr, i);
                }
                return Ok(());
            }
        }
        let (view, ex) = self.readable(v)?;
        let n = t.shape[1];
        let base = self.frag_base(w, n);
        for s in 0..w.slots() {
            let off = frag_offset(w, n, s);
            let c = self.index(off);
            let at = self.bin("arith.addi", base, c);
            let x = self.load(view, at);
            let i = self.index(s);
            self.store(x, arr, i);
        }
        self.release(ex);
        Ok(())
    }

    /// Gives `v`, an accumulator in the fragment layout, a blocked copy in
    /// `tiles`: the lanes write their fragments to shared memory and read
    /// back the elements they own in the blocked layout.
    pub(super) fn materialize_frag(&mut self, v: Value) -> Result<(), Diagnostic> {
        let Some(f) = self.frags.get(&v).cloned() else {
            return Ok(());
        };
        if self.tiles.contains_key(&v) {
            return Ok(());
        }
        let (m, n) = (f.t.shape[0], f.t.shape[1]);
        let view = self.scratch_view(m * n, f.t.elem);
        let base = self.frag_base(f.w, n);
        for s in 0..f.w.slots() {
            let i = self.index(s);
            let x = self.load(f.arr, i);
            let c = self.index(frag_offset(f.w, n, s));
            let at = self.bin("arith.addi", base, c);
            self.store(x, view, at);
        }
        self.barrier();
        let arr = self.alloca(m * n, f.t.elem);
        self.each(m * n, &mut |s, j, e| {
            let x = s.load(view, e);
            s.store(x, arr, j);
            Ok(())
        })?;
        self.release(true);
        self.tiles.insert(v, (L::Dist(arr), f.t.clone()));
        Ok(())
    }

    /// Gives every operand of `op` held only as fragments a blocked copy
    /// (except a tensor-core gemm's accumulator, read as fragments); gives
    /// the values whose copy is for this op only, to be dropped after it.
    pub(super) fn materialize_operands(&mut self, op: Op) -> Result<Vec<Value>, Diagnostic> {
        let skip = if self.mma.is_mma(op) { 2 } else { usize::MAX };
        let mut temporary = Vec::new();
        for (i, v) in self.ctx.operands(op).to_vec().into_iter().enumerate() {
            if i == skip || self.tiles.contains_key(&v) {
                continue;
            }
            if let Some(f) = self.frags.get(&v) {
                if f.block != self.block {
                    temporary.push(v);
                }
                self.materialize_frag(v)?;
            }
        }
        Ok(temporary)
    }

    /// `tile.transfer` of a tile only tensor-core gemms read into its shared
    /// region at byte `at`, rows `stride` elements apart.
    pub(super) fn padded_transfer(
        &mut self,
        op: Op,
        at: i64,
        stride: i64,
    ) -> Result<(), Diagnostic> {
        let r = self.ctx.result(op, 0);
        let t = self.tile_of(op, r)?;
        let src = self.ctx.operands(op)[0];
        let (rows, cols) = (t.shape[0], t.shape[1]);
        let view = self.shared_view(at, rows * stride, t.elem);
        let direct = self.ctx.defining_op(src).filter(|l| self.mma.is_direct(*l));
        if let Some(load) = direct {
            // Straight from memory, thread t reading element t of a column.
            let ops = self.ctx.operands(load).to_vec();
            let buf = self.map.value(ops[0]);
            let origin = self.scalars(&ops[1..]);
            let shape = self.buffers[&buf].clone();
            let d = self.desc(load, &shape)?;
            self.barrier();
            self.each(rows * cols, &mut |s, _, e| {
                let c = s.index(rows);
                let row = s.bin("arith.remui", e, c);
                let col = s.bin("arith.divui", e, c);
                let (off, ok) = s.locate(&d, &origin, &[row, col]);
                let zero = s.index(0);
                let safe = s.select(ok, off, zero);
                let x = s.load(buf, safe);
                let z = s.constant(0.0, t.elem);
                let x = s.select(ok, x, z);
                let at = s.mul_add(row, stride, col);
                s.store(x, view, at);
                Ok(())
            })?;
            self.barrier();
            self.padded_tiles.insert(r, (view, stride));
            return Ok(());
        }
        let (l, _) = self.tiles[&src].clone();
        // Until every thread has read what the last transfer left here.
        self.barrier();
        self.each(rows * cols, &mut |s, j, e| {
            let x = s.own(l, j, e);
            let c = s.index(cols);
            let row = s.bin("arith.divui", e, c);
            let col = s.bin("arith.remui", e, c);
            let at = s.mul_add(row, stride, col);
            s.store(x, view, at);
            Ok(())
        })?;
        self.barrier();
        self.padded_tiles.insert(r, (view, stride));
        Ok(())
    }

    /// A shared view of gemm operand `v` (row-major, rows `stride` apart)
    /// and whether it was written to scratch for this.
    fn gemm_operand(&mut self, v: Value) -> Result<(Value, i64, bool), Diagnostic> {
        if let Some((view, stride)) = self.padded_tiles.get(&v).copied() {
            return Ok((view, stride, false));
        }
        let cols = self.tiles[&v].1.shape[1];
        let (view, ex) = self.readable(v)?;
        Ok((view, cols, ex))
    }

    /// A new fragment array for an accumulator of type `t`.
    pub(super) fn frag_alloca(&mut self, w: Warps, t: &TileType) -> Value {
        let ty = self.memref(w.slots(), t.elem, false);
        let o = aic::ir::Builder {
            ctx: &mut *self.ctx,
            ip: aic::ir::InsertPoint::Before(self.entry),
            loc: self.loc,
        }
        .create_with_props("memref.alloca", &[], &[ty], &[]);
        self.ctx.result(o, 0)
    }

    /// `tile.gemm` on tensor cores.
    pub(super) fn mma_gemm(&mut self, op: Op) -> Result<(), Diagnostic> {
        let w = self.mma.gemms[&op];
        let ops = self.ctx.operands(op).to_vec();
        let r = self.ctx.result(op, 0);
        let t = self.tile_of(op, r)?;
        let a = self.tile_of(op, ops[0])?;
        let (kk, wm_rows, wn_cols) = (a.shape[1], w.mt * 16, w.nt * 8);
        let out = self.frag_alloca(w, &t);
        self.write_frag(ops[2], w, &t, out)?;
        let (av, sa, ea) = self.gemm_operand(ops[0])?;
        let (bv, sb, eb) = self.gemm_operand(ops[1])?;
        let u = self.ctx.uniquer().clone();
        let f16 = u.ty(TypeKind::Float(FloatKind::F16));
        let f32 = t.elem;
        let vec = |shape: &[i64], elem: Type| {
            u.ty(TypeKind::Vector {
                shape: shape.into(),
                scalable: shape.iter().map(|_| false).collect(),
                elem,
            })
        };
        let (va, vb, vc) = (vec(&[4, 2], f16), vec(&[2, 2], f16), vec(&[2, 2], f32));
        let vb4 = vec(&[4, 2], f16);
        // Where this lane's rows start, at k = 0: A's row of each m16 tile
        // (lanes 0-15 columns 0-7, lanes 16-31 columns 8-15), B's row of
        // each pair of n8 tiles (likewise: columns n, then n + 8).
        let Lane { lane, wy, wx } = self.lane(w);
        let (c16, c8) = (self.index(16), self.index(8));
        let l16 = self.bin("arith.remui", lane, c16);
        let half = self.bin("arith.divui", lane, c16);
        let half8 = self.bin("arith.muli", half, c8);
        let row0 = self.mul_add(wy, wm_rows, l16);
        let a_base: Vec<Value> = (0..w.mt)
            .map(|mi| {
                let c = self.index(mi * 16 * sa);
                let row = self.mul_add(row0, sa, half8);
                self.bin("arith.addi", row, c)
            })
            .collect();
        let col0 = self.mul_add(wx, wn_cols, half8);
        let csb = self.index(sb);
        let b_row = self.bin("arith.muli", l16, csb);
        let b_base: Vec<Value> = (0..(w.nt + 1) / 2)
            .map(|p| {
                let c = self.index(p * 16);
                let col = self.bin("arith.addi", col0, c);
                self.bin("arith.addi", b_row, col)
            })
            .collect();
        let i32t = u.int_type(32);
        let ldm = |s: &mut Self, view: Value, at: Value, n: i64, trans: bool, ty: Type| {
            let tr = u.attr(AttrKind::Bool(trans));
            s.val(
                "nvgpu.ldmatrix",
                &[view, at],
                ty,
                &[("numTiles", int_attr(&u, n, i32t)), ("transpose", tr)],
            )
        };
        let shape = u.attr(AttrKind::Array(
            [16, 8, 16]
                .iter()
                .map(|v| int_attr(&u, *v, u.int_type(64)))
                .collect(),
        ));
        let (lo, hi, step) = (self.index(0), self.index(kk), self.index(16));
        self.for_loop(lo, hi, step, &[], &mut |s, k, _| {
            let frags_a: Vec<Value> = a_base
                .iter()
                .map(|b| {
                    let at = s.bin("arith.addi", *b, k);
                    ldm(s, av, at, 4, false, va)
                })
                .collect();
            let csb = s.index(sb);
            let kb = s.bin("arith.muli", k, csb);
            let mut frags_b = Vec::new();
            for (p, b) in b_base.iter().enumerate() {
                let at = s.bin("arith.addi", *b, kb);
                if 2 * p as i64 + 1 < w.nt {
                    // Two n8 tiles: registers 0-1 the first's, 2-3 the second's.
                    let x = ldm(s, bv, at, 4, true, vb4);
                    let el: Vec<Value> =
                        (0..8).map(|i| s.extract(x, &[i / 2, i % 2], f16)).collect();
                    frags_b.push(s.val("vector.from_elements", &el[..4], vb, &[]));
                    frags_b.push(s.val("vector.from_elements", &el[4..], vb, &[]));
                } else {
                    frags_b.push(ldm(s, bv, at, 2, true, vb));
                }
            }
            for (mi, fa) in frags_a.iter().enumerate() {
                for (ni, fb) in frags_b.iter().enumerate() {
                    let slot = (mi as i64 * w.nt + ni as i64) * 4;
                    let idx: Vec<Value> = (0..4).map(|c| s.index(slot + c)).collect();
                    let c: Vec<Value> = idx.iter().map(|i| s.load(out, *i)).collect();
                    let c = s.val("vector.from_elements", &c, vc, &[]);
                    let d = s.val("nvgpu.mma.sync", &[*fa, *fb, c], vc, &[("mmaShape", shape)]);
                    for (e, i) in idx.iter().enumerate() {
                        let e = e as i64;
                        let x = s.extract(d, &[e / 2, e % 2], f32);
                        s.store(x, out, *i);
                    }
                }
            }
            Ok(Vec::new())
        })?;
        self.release(ea || eb);
        let block = self.block;
        self.frags.insert(
            r,
            Frag {
                arr: out,
                w,
                t,
                block,
            },
        );
        Ok(())
    }

    fn extract(&mut self, v: Value, pos: &[i64], elem: Type) -> Value {
        let p = self.ctx.uniquer().i64_array(pos);
        self.val("vector.extract", &[v], elem, &[("static_position", p)])
    }

    /// The fragment array a `tile.for` carries its `i`th value in, if the
    /// loop yields a tensor-core gemm's accumulator there (so that it stays
    /// in registers, in the fragment layout, across iterations), holding
    /// `init` on entry.
    pub(super) fn carry_frag(
        &mut self,
        body: Block,
        i: usize,
        init: Value,
    ) -> Result<Option<(Value, Warps, TileType)>, Diagnostic> {
        let Some(y) = self.ctx.block_ops(body).last() else {
            return Ok(None);
        };
        let Some(v) = self.ctx.operands(y).get(i).copied() else {
            return Ok(None);
        };
        let Some(g) = self.ctx.defining_op(v) else {
            return Ok(None);
        };
        let Some(w) = self.mma.gemms.get(&g).copied() else {
            return Ok(None);
        };
        let t = tile_type(self.ctx, v).ok_or_else(|| err(self.ctx, g, "not a tile"))?;
        let arr = self.frag_alloca(w, &t);
        self.write_frag(init, w, &t, arr)?;
        Ok(Some((arr, w, t)))
    }

    /// Records that `v` is held as fragments in `arr`.
    pub(super) fn set_frag(&mut self, v: Value, arr: Value, w: Warps, t: &TileType) {
        let block = self.block;
        self.frags.insert(
            v,
            Frag {
                arr,
                w,
                t: t.clone(),
                block,
            },
        );
    }

    /// The end of a loop iteration: `v` into the fragment array `arr`.
    pub(super) fn yield_frag(
        &mut self,
        v: Value,
        arr: Value,
        w: Warps,
        t: &TileType,
    ) -> Result<(), Diagnostic> {
        if self.frags.get(&v).is_some_and(|f| f.arr == arr) {
            return Ok(());
        }
        self.write_frag(v, w, t, arr)
    }
}

/// The offset of slot `s` from slot 0 in a row-major `_ x n` tile.
fn frag_offset(w: Warps, n: i64, s: i64) -> i64 {
    let (tile, c) = (s / 4, s % 4);
    let (mi, ni) = (tile / w.nt, tile % w.nt);
    (mi * 16 + 8 * (c / 2)) * n + ni * 8 + c % 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_grids() {
        let w = Warps::choose(64, 64, 4).unwrap();
        assert_eq!((w.wm, w.wn, w.mt, w.nt), (2, 2, 2, 4));
        let w = Warps::choose(16, 64, 4).unwrap();
        assert_eq!((w.wm, w.wn, w.mt, w.nt), (1, 4, 1, 2));
        assert!(Warps::choose(16, 8, 4).is_none());
        assert_eq!(frag_offset(w, 64, 0), 0);
        assert_eq!(frag_offset(w, 64, 3), 8 * 64 + 1);
        assert_eq!(frag_offset(w, 64, 5), 8 + 1);
    }
}
