//! `tile.gemm` on AMD matrix cores (`tile-to-gpu{mma=amdgpu}`, gfx90a and
//! gfx942): 64-lane wavefronts run `amdgpu.mfma` 32x32x8 or 16x16x16 on
//! f16 fragments each lane reads from shared memory (LDS).
//!
//! Which gemms: f16 x f16 -> f32 in blocks of whole wavefronts that tile
//! the accumulator with the instruction's TxT tiles (M, N multiples of T,
//! K of 256/T); 32x32x8 where the wavefront grid allows it (half the
//! instructions per flop of 16x16x16's), else 16x16x16. Any other gemm
//! keeps the SIMT loops.
//!
//! Everything but the gemm is [`super::mma`]'s: the plan, the wavefront
//! grid ([`Warps`] with [`Unit::Mfma`]), and the accumulator kept in the
//! instruction's C/D layout across the K loop, its epilogue computed on
//! the fragments and stored by each lane, or read in the blocked layout
//! through shared memory. Only A and B differ from NVIDIA's: MFMA takes
//! them from registers, so each lane reads its four halves of A (row
//! `l % T`, k `4·(l / T)..+4`) and of B (the same k, column `l % T`) from
//! the shared tiles with plain loads.

use super::mma::{Lane, Unit, Warps, f16_gemm_shape};
use super::{Lower, err};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::float::FloatKind;
use aic::ir::{Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::amdgpu;
use aic_dialects::arith;
use aic_dialects::arith::build as ab;
use aic_dialects::memref::build as mb;
use aic_dialects::tile;
use aic_dialects::vector;

/// The wavefront grid of `gemm` if matrix cores can run it in blocks of
/// `threads`.
pub(super) fn mfma_warps(ctx: &Context, gemm: Op, threads: i64) -> Option<Warps> {
    let lanes = amdgpu::WAVEFRONT;
    if threads % lanes != 0 {
        return None;
    }
    let (m, k, n) = f16_gemm_shape(ctx, gemm)?;
    amdgpu::INSTRUCTIONS
        .iter()
        .filter(|i| k % i.k == 0)
        .find_map(|i| Warps::choose(m, n, threads / lanes, Unit::Mfma(i.m)))
        // Accumulators beyond a few hundred registers a lane would spill.
        .filter(|w| w.slots() <= 128)
}

impl Lower<'_> {
    /// `tile.gemm` on matrix cores: the accumulator into fragments, then
    /// per step of the instruction's K, each lane's A of each of its M
    /// tiles and B of each of its N tiles from shared memory, and an
    /// `amdgpu.mfma` per pair.
    pub(super) fn mfma_gemm(&mut self, op: Op, w: Warps) -> Result<(), Diagnostic> {
        let Unit::Mfma(t) = w.unit else {
            return Err(err(self.ctx, op, "not an MFMA gemm"));
        };
        let ins = amdgpu::instruction(t, t, 256 / t)
            .ok_or_else(|| err(self.ctx, op, format!("no MFMA of tile {t}")))?;
        let g = tile::Gemm::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "an MFMA gemm that is not a gemm"))?;
        let r = g.result(self.ctx);
        let rt = self.tile_of(op, r)?;
        let kk = self.tile_of(op, g.a(self.ctx))?.shape[1];
        let out = self.frag_alloca(w, &rt);
        self.write_frag(g.acc(self.ctx), w, &rt, out)?;
        let (pa, ea) = self.gemm_operand(g.a(self.ctx))?;
        let (pb, eb) = self.gemm_operand(g.b(self.ctx))?;
        if pa.trans || pb.trans {
            return Err(err(
                self.ctx,
                op,
                "a transposed shared operand is not supported",
            ));
        }
        let (sa, sb) = (pa.stride, pb.stride);
        let u = self.ctx.uniquer().clone();
        let f16 = u.ty(TypeKind::Float(FloatKind::F16));
        let vec = |n: i64, elem: Type| {
            u.ty(TypeKind::Vector {
                shape: [n].as_slice().into(),
                scalable: [false].as_slice().into(),
                elem,
            })
        };
        let (vab, vcd) = (vec(ins.ab, f16), vec(ins.cd, rt.elem));
        // This lane's row of A (column of B) in its first tile, and the
        // first of its k: (l % T, 4·(l / T)).
        let Lane { lane, wy, wx } = self.lane(w);
        let ct = ab::index(self, t);
        let lt = ab::binary::<arith::RemUI>(self, lane, ct);
        let q = ab::binary::<arith::DivUI>(self, lane, ct);
        let c4 = ab::index(self, ins.ab);
        let k0 = ab::binary::<arith::MulI>(self, q, c4);
        let row = self.mul_add(wy, w.mt * t, lt);
        let mut a_at = self.mul_add(row, sa, k0);
        let col = self.mul_add(wx, w.nt * t, lt);
        let mut b_at = self.mul_add(k0, sb, col);
        for (at, base) in [(&mut a_at, pa.base), (&mut b_at, pb.base)] {
            if let Some(b) = base {
                *at = ab::binary::<arith::AddI>(self, *at, b);
            }
        }
        let ai32 = |v: i64| {
            u.attr(AttrKind::Integer {
                value: i128::from(v),
                ty: u.int_type(32),
            })
        };
        let (mm, nn, kk_) = (ai32(ins.m), ai32(ins.n), ai32(ins.k));
        let blgp = amdgpu::PermB::None.attr(&u);
        // A fragment: `ins.ab` halves `step` apart from `at`.
        let frag = |s: &mut Self, view: Value, at: Value, step: i64| {
            let el: Vec<Value> = (0..ins.ab)
                .map(|i| {
                    let c = ab::index(s, i * step);
                    let e = ab::binary::<arith::AddI>(s, at, c);
                    mb::load(s, view, &[e])
                })
                .collect();
            vector::FromElements::build(s, &el, vab).result(s.ctx)
        };
        let (lo, hi, step) = (
            ab::index(self, 0),
            ab::index(self, kk),
            ab::index(self, ins.k),
        );
        self.for_loop(lo, hi, step, &[], &mut |s, k, _| {
            let frags_a: Vec<Value> = (0..w.mt)
                .map(|mi| {
                    let c = ab::index(s, mi * t * sa);
                    let at = ab::binary::<arith::AddI>(s, a_at, c);
                    let at = ab::binary::<arith::AddI>(s, at, k);
                    frag(s, pa.view, at, 1)
                })
                .collect();
            let csb = ab::index(s, sb);
            let kb = ab::binary::<arith::MulI>(s, k, csb);
            let frags_b: Vec<Value> = (0..w.nt)
                .map(|ni| {
                    let c = ab::index(s, ni * t);
                    let at = ab::binary::<arith::AddI>(s, b_at, c);
                    let at = ab::binary::<arith::AddI>(s, at, kb);
                    frag(s, pb.view, at, sb)
                })
                .collect();
            for (mi, fa) in frags_a.iter().enumerate() {
                for (ni, fb) in frags_b.iter().enumerate() {
                    let slot = (mi as i64 * w.nt + ni as i64) * ins.cd;
                    let idx: Vec<Value> = (0..ins.cd).map(|c| ab::index(s, slot + c)).collect();
                    let c: Vec<Value> = idx.iter().map(|i| mb::load(s, out, &[*i])).collect();
                    let c = vector::FromElements::build(s, &c, vcd).result(s.ctx);
                    let d = amdgpu::Mfma::build(
                        s,
                        *fa,
                        *fb,
                        c,
                        mm,
                        nn,
                        kk_,
                        None,
                        None,
                        None,
                        Some(blgp),
                        None,
                        None,
                        None,
                        None,
                        vcd,
                    )
                    .dest_d(s.ctx);
                    for (e, i) in idx.iter().enumerate() {
                        let x = s.extract(d, &[e as i64], rt.elem);
                        mb::store(s, x, out, &[*i]);
                    }
                }
            }
            Ok(Vec::new())
        })?;
        self.release(ea || eb);
        self.set_frag(r, out, w, &rt);
        Ok(())
    }
}
