//! `tile.sparse_gemm` on NVIDIA's sparse tensor cores:
//! `mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32` (T f16 or bf16,
//! sparsity selector 0; [`nvgpu::sparse::MmaSpSync`]).
//!
//! mma.sp takes its *left* operand 2:4 sparse along K; the sparse operand of
//! a `tile.sparse_gemm` is its right one (the weight `w`, `[K, N]`, given as
//! kept values and positions `[K/2, N]`). So each warp computes the product
//! transposed, `Cᵀ (N x M) = wᵀ (sparse, N x K) · aᵀ (K x M)`: the
//! instruction's A is 16 columns of the weight (its compressed 16 x 16 tile
//! of kept values), its B 8 rows of `a` (32 x 8), and its m16n8 accumulator
//! an 8 x 16 tile of C transposed. That is the accumulator layout
//! [`Unit::SparseT`] (`mma<8, 16, 32, wm, wn>` in the types): lane `l`
//! holds element `c` at `(2·(l%4) + c%2, l/4 + 8·(c/2))`, and the epilogues
//! and stores written for fragments run on it unchanged.
//!
//! Fragments come from the shared tiles by `ldmatrix`, whichever way each
//! tile is stored:
//! * the compressed weight tile has mma.sync's m16n8k16 A layout (rows the
//!   weight's columns n, columns the kept values h): `ldmatrix.x4` where the
//!   values tile is stored column after column (n-major, the usual case of
//!   a `transpose_b` weight, `[N, K/2]` in memory), `.trans` where it is
//!   stored row-major;
//! * each m8 tile of `a` over k32 is four 8 x 8 matrices along K, one
//!   `ldmatrix.x4` (`.trans` where `a` is stored column after column).
//!
//! The metadata register of a lane (`nvgpu::sparse::pack_metadata`'s
//! layout: lane `4g + t`, `t` 0 or 1, holds groups `4t..4t+3` of rows `g`
//! and `g + 8` of the 16-row tile, a 4-bit code `i0 | i1 << 2` each) is
//! packed in the kernel from the positions tile, the lanes `t` 2 and 3
//! computing their neighbours' (the instruction ignores them). The
//! positions must increase within a group, as `graph.sparse_matmul`
//! defines them.

use super::*;

/// K of one `mma.sp`.
pub(in super::super) const DEPTH: i64 = 32;

/// `(M, K, N)` of a 2-D `tile.sparse_gemm` mma.sp runs: A f16 or bf16
/// (`M x K`), values of A's type and i8 positions (`K/2 x N`), an f32
/// accumulator.
pub(in super::super) fn sparse_gemm_shape(ctx: &Context, gemm: Op) -> Option<(i64, i64, i64)> {
    let g = tile::SparseGemm::of(ctx, gemm)?;
    let (a, v, m, c) = (
        tile_type(ctx, g.a(ctx))?,
        tile_type(ctx, g.values(ctx))?,
        tile_type(ctx, g.meta(ctx))?,
        tile_type(ctx, g.acc(ctx))?,
    );
    let r = tile_type(ctx, g.result(ctx))?;
    half_kind(ctx, a.elem)?;
    let f32 = |t: &TileType| is_float(ctx, t.elem, FloatKind::F32) && t.shape.len() == 2;
    let i8 = matches!(ctx.type_kind(m.elem), TypeKind::Integer { width: 8, .. });
    if !(a.shape.len() == 2 && v.shape.len() == 2 && v.elem == a.elem && i8 && f32(&c) && f32(&r)) {
        return None;
    }
    let (mm, k, n) = (a.shape[0], a.shape[1], v.shape[1]);
    (2 * v.shape[0] == k && m.shape == v.shape && c.shape == [mm, n] && r.shape == [mm, n])
        .then_some((mm, k, n))
}

/// The warp grid of a sparse gemm mma.sp runs in blocks of `threads`.
pub(in super::super) fn sparse_warps(ctx: &Context, gemm: Op, threads: i64) -> Option<Warps> {
    let (m, k, n) = sparse_gemm_shape(ctx, gemm)?;
    if m % 8 != 0 || n % 16 != 0 || k % DEPTH != 0 {
        return None;
    }
    let w = Warps::choose(m, n, threads / 32, Unit::SparseT)?;
    // Fragments beyond a few hundred registers a lane would spill.
    (w.slots() <= 128).then_some(w)
}

impl Lower<'_> {
    /// `tile.sparse_gemm` on sparse tensor cores (see the module's comment).
    pub(in super::super) fn sparse_mma_gemm(&mut self, op: Op) -> Result<(), Diagnostic> {
        let w = self.mma.gemms[&op];
        let g = tile::SparseGemm::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "a sparse tensor-core gemm that is not one"))?;
        let (ga, gv, gm, gacc) = (
            g.a(self.ctx),
            g.values(self.ctx),
            g.meta(self.ctx),
            g.acc(self.ctx),
        );
        let r = g.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let (kk, half) = (self.tile_of(op, ga)?.shape[1], self.tile_of(op, gv)?.elem);
        let out = self.frag_alloca(w, &t);
        self.write_frag(gacc, w, &t, out)?;
        let (pa, ea) = self.gemm_operand(ga)?;
        let (pv, ev) = self.gemm_operand(gv)?;
        let (pm, em) = self.gemm_operand(gm)?;
        let u = self.ctx.uniquer().clone();
        let (i32t, f32) = (u.int_type(32), u.ty(TypeKind::Float(FloatKind::F32)));
        let vec = |shape: &[i64], elem: Type| {
            u.ty(TypeKind::Vector {
                shape: shape.into(),
                scalable: shape.iter().map(|_| false).collect(),
                elem,
            })
        };
        let (vf, vc) = (vec(&[4, 2], half), vec(&[2, 2], f32));
        let Lane { lane, wy, wx } = self.lane(w);
        let c = |s: &mut Self, v: i64| ab::index(s, v);
        let (c4, c8, c16) = (c(self, 4), c(self, 8), c(self, 16));
        let group = ab::binary::<arith::DivUI>(self, lane, c4);
        let l8 = ab::binary::<arith::RemUI>(self, lane, c8);
        let j = ab::binary::<arith::DivUI>(self, lane, c8);
        let l16 = ab::binary::<arith::RemUI>(self, lane, c16);
        let hi = ab::binary::<arith::DivUI>(self, lane, c16);
        // The warp's first row of C (M) and column (N).
        let z = c(self, 0);
        let m0 = self.mul_add(wy, w.mt * 8, z);
        let n0 = self.mul_add(wx, w.nt * 16, z);
        // a's ldmatrix address of this lane at k = 0 of the warp's first m8
        // tile: row m0 + l%8 at k 8·(l/8) (row-major), or row k = l at
        // column m0 (column after column).
        let a0 = if pa.trans {
            self.padded_at(&pa, m0, lane)
        } else {
            let row = ab::binary::<arith::AddI>(self, m0, l8);
            let k = ab::binary::<arith::MulI>(self, j, c8);
            self.padded_at(&pa, row, k)
        };
        // The values' ldmatrix address at h = 0 of the warp's first n16
        // tile: column n0 + l%16 at h 8·(l/16) (stored column after column),
        // or matrix l/8's row h = 8·(l/16) + l%8 at column n0 + 8·((l/8)%2)
        // (row-major, read transposed).
        let v0 = if pv.trans {
            let n = ab::binary::<arith::AddI>(self, n0, l16);
            let h = ab::binary::<arith::MulI>(self, hi, c8);
            self.padded_at(&pv, h, n)
        } else {
            let h = self.mul_add(hi, 8, l8);
            let c2 = c(self, 2);
            let odd = ab::binary::<arith::RemUI>(self, j, c2);
            let n = self.mul_add(odd, 8, n0);
            self.padded_at(&pv, h, n)
        };
        // The positions this lane packs: columns n0 + g and n0 + g + 8, at
        // h 8·(t%2) on (groups 4·(t%2) ..).
        let thread = ab::binary::<arith::RemUI>(self, lane, c4);
        let c2 = c(self, 2);
        let tpair = ab::binary::<arith::RemUI>(self, thread, c2);
        let hm = ab::binary::<arith::MulI>(self, tpair, c8);
        let nm = ab::binary::<arith::AddI>(self, n0, group);
        let meta0 = self.padded_at(&pm, hm, nm);
        // Positions stored column after column, rows a multiple of four
        // bytes long: read as 32-bit words (four positions each) through
        // a word view of the transfer's region.
        let region = self
            .ctx
            .defining_op(gm)
            .filter(|t| tile::Transfer::is(self.ctx, *t))
            .and_then(|t| {
                let at = self.transfer_at.get(&t).copied()?;
                Some((
                    at,
                    super::super::shared_layout::transfer_bytes(self.ctx, t)?,
                ))
            })
            .filter(|_| pm.trans && pm.stride % 4 == 0);
        let words = region.map(|(at, bytes)| {
            let view = self.shared_view(at, bytes / 4, i32t);
            let c4 = ab::index(self, 4);
            (view, ab::binary::<arith::DivUI>(self, meta0, c4))
        });
        let shape = self.mma_shape(DEPTH);
        let ldm = |s: &mut Self, view: Value, at: i64, base: Value, trans: bool| {
            let off = ab::index(s, at);
            let at = ab::binary::<arith::AddI>(s, base, off);
            let tr = u.attr(AttrKind::Bool(trans));
            nvgpu::Ldmatrix::build(s, view, &[at], int_attr(&u, 4, i32t), tr, vf).res(s.ctx)
        };
        // One k32 step's fragments: the weight's (one per n16 tile), a's
        // (one per m8 tile) and the metadata registers (one per n16 tile).
        let load = |s: &mut Self, ks: i64| -> [Vec<Value>; 3] {
            let (k, h) = (ks * DEPTH, ks * DEPTH / 2);
            let fw = (0..w.nt)
                .map(|ni| ldm(s, pv.view, pv.offset(h, 16 * ni), v0, !pv.trans))
                .collect();
            let fa = (0..w.mt)
                .map(|mi| ldm(s, pa.view, pa.offset(8 * mi, k), a0, pa.trans))
                .collect();
            let meta = (0..w.nt)
                .map(|ni| match words {
                    Some((view, start)) => s.metadata_words(view, start, &pm, (16 * ni, h)),
                    None => s.metadata(&pm, meta0, (16 * ni, h)),
                })
                .collect();
            [fw, fa, meta]
        };
        // Each step's fragments load before the previous step's mma.sp
        // issue, so that the shared-memory latency hides behind them.
        let steps = kk / DEPTH;
        let mut next = Some(load(self, 0));
        for ks in 0..steps {
            let [fw, fa, meta] = next.take().expect("loaded a step ahead");
            if ks + 1 < steps {
                next = Some(load(self, ks + 1));
            }
            for (mi, b) in fa.iter().enumerate() {
                for (ni, a) in fw.iter().enumerate() {
                    let tile = mi as i64 * w.nt + ni as i64;
                    self.mma_on_slots(out, tile, (vc, f32), &mut |s, acc| {
                        nvgpu::sparse::MmaSpSync::build(s, *a, *b, acc, meta[ni], shape, vc)
                            .res(s.ctx)
                    });
                }
            }
        }
        self.release(ea || ev || em);
        self.add_frag(r, out, w, t);
        Ok(())
    }

    /// [`Lower::metadata`] from positions stored column after column, read
    /// as words: `view` the word view, `start` this lane's first word, `p`
    /// the positions' tile (stored column after column). Each word holds the positions of two groups
    /// (bytes `p0 p1 p2 p3`, each 0 to 3): `t = w | w >> 6` puts `p0 | p1 <<
    /// 2` in bits 0-3 and `p2 | p3 << 2` in bits 16-19; masked and folded
    /// (`t | t >> 12`) they are the byte of two codes.
    fn metadata_words(
        &mut self,
        view: Value,
        start: Value,
        p: &Padded,
        (dn, h): (i64, i64),
    ) -> Value {
        let i32t = self.ctx.uniquer().int_type(32);
        let k = |s: &mut Self, v: i64| ab::int(s, v, i32t);
        let mut halves = Vec::new();
        for half in 0..2 {
            let mut codes: Option<Value> = None;
            for word in 0..2 {
                let off = p.offset(h, dn + 8 * half) / 4 + word;
                let off = ab::index(self, off);
                let at = ab::binary::<arith::AddI>(self, start, off);
                let w = mb::load(self, view, &[at]);
                let c6 = k(self, 6);
                let t = ab::binary::<arith::ShRUI>(self, w, c6);
                let t = ab::binary::<arith::OrI>(self, w, t);
                let mask = k(self, 0x000F_000F);
                let t = ab::binary::<arith::AndI>(self, t, mask);
                let c12 = k(self, 12);
                let f = ab::binary::<arith::ShRUI>(self, t, c12);
                let t = ab::binary::<arith::OrI>(self, t, f);
                let ff = k(self, 0xFF);
                let byte = ab::binary::<arith::AndI>(self, t, ff);
                codes = Some(match codes {
                    None => byte,
                    Some(c) => {
                        let c8 = k(self, 8);
                        let b = ab::binary::<arith::ShLI>(self, byte, c8);
                        ab::binary::<arith::OrI>(self, c, b)
                    }
                });
            }
            halves.push(codes.expect("two words"));
        }
        let c16 = k(self, 16);
        let hi = ab::binary::<arith::ShLI>(self, halves[1], c16);
        ab::binary::<arith::OrI>(self, halves[0], hi)
    }

    /// This lane's `.b32` metadata register for the n16 tile `dn` columns
    /// on and the k32 step whose kept values start at `h`: the positions at
    /// `start` (this lane's first, column n0 + g at h 8·(t%2)) and on, two
    /// a group, packed into 4-bit codes, column `n0 + g`'s four groups in
    /// codes 0-3 and column `n0 + g + 8`'s in 4-7.
    fn metadata(&mut self, p: &Padded, start: Value, (dn, h): (i64, i64)) -> Value {
        let i32t = self.ctx.uniquer().int_type(32);
        let mut reg: Option<Value> = None;
        for half in 0..2 {
            for q in 0..8 {
                // Kept value q of this lane's eight in column n0 + g + 8·half.
                let off = ab::index(self, p.offset(h + q, dn + 8 * half));
                let at = ab::binary::<arith::AddI>(self, start, off);
                let x = mb::load(self, p.view, &[at]);
                let x = ab::cast::<arith::ExtUI>(self, x, i32t);
                let three = ab::int(self, 3, i32t);
                let x = ab::binary::<arith::AndI>(self, x, three);
                // Group q / 2 of the lane's four (code 4·half + q/2), its
                // position q % 2.
                let bit = 4 * (4 * half + q / 2) + 2 * (q % 2);
                let x = if bit > 0 {
                    let sh = ab::int(self, bit, i32t);
                    ab::binary::<arith::ShLI>(self, x, sh)
                } else {
                    x
                };
                reg = Some(match reg {
                    Some(r) => ab::binary::<arith::OrI>(self, r, x),
                    None => x,
                });
            }
        }
        reg.expect("sixteen positions")
    }
}
