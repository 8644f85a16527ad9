//! `tile.gemm` of i8 A and B into an i32 accumulator on tensor cores:
//! `mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32`. The accumulator has
//! the f16 form's fragment layout (`mma<16, 8, 32, wm, wn>`: only the
//! instruction's depth differs), so epilogues, stores and loops carrying
//! it are the f16 path's. A's and B's fragments are gathered from their
//! shared tiles element by element at the places the PTX ISA's tables
//! give (`nvgpu::fragments`, the same tables the host emulation reads):
//! `ldmatrix` moves 16-bit elements and has no transposed byte form, so B
//! (K x N) could not be loaded by it anyway. Each k32 step is one mma per
//! m16 x n8 tile of the warp.
//!
//! The fp8 form, `mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32`
//! (and e5m2; sm_89+), has exactly these byte layouts for A and B and
//! f32's accumulator, so fp8 gemms (`f8E4M3FN`/`f8E5M2` A and B into f32)
//! take this path too, element types aside. On sm_90a (`mma=wgmma`) an
//! fp8 gemm whose B is K-major (memory contiguous along K) and that is a
//! pipelined loop's one gemm runs on wgmma's k32 form instead, at twice
//! the rate ([`crate::tile_to_gpu::wgmma`]); an N-major B stays here, as do
//! i8 gemms (wgmma's s8 form would need an i32 accumulator the wgmma path
//! does not carry).

use super::*;
use aic_dialects::nvgpu::fragments::{Fragment, S8_A, S8_B};

/// `(M, K, N)` of a 2-D `tile.gemm` of i8 A (M x K) and B (K x N) into an
/// i32 accumulator, the gemms mma.sync's s8 form runs, or of fp8 A and B
/// (`f8E4M3FN` / `f8E5M2`, each either) into f32, its fp8 form's.
pub(in super::super) fn s8_gemm_shape(ctx: &Context, gemm: Op) -> Option<(i64, i64, i64)> {
    let g = tile::Gemm::of(ctx, gemm)?;
    let (a, b, c) = (
        tile_type(ctx, g.a(ctx))?,
        tile_type(ctx, g.b(ctx))?,
        tile_type(ctx, g.acc(ctx))?,
    );
    let r = tile_type(ctx, g.result(ctx))?;
    let int = |t: &TileType, w: u32| {
        t.shape.len() == 2
            && matches!(ctx.type_kind(t.elem), TypeKind::Integer { width, .. } if *width == w)
    };
    let fp8 = |t: &TileType| {
        t.shape.len() == 2
            && matches!(
                ctx.type_kind(t.elem),
                TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2)
            )
    };
    let f32 = |t: &TileType| {
        t.shape.len() == 2 && matches!(ctx.type_kind(t.elem), TypeKind::Float(FloatKind::F32))
    };
    let s8 = int(&a, 8) && int(&b, 8) && int(&c, 32) && int(&r, 32);
    if !(s8 || (fp8(&a) && fp8(&b) && f32(&c) && f32(&r))) {
        return None;
    }
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    (b.shape[0] == k && c.shape == [m, n] && r.shape == [m, n]).then_some((m, k, n))
}

/// The depth of one mma.sync of `gemm`: 32 for i8 and fp8, 16 for f16 and bf16.
pub(in super::super) fn mma_depth(ctx: &Context, gemm: Op) -> i64 {
    if s8_gemm_shape(ctx, gemm).is_some() {
        S8_A.cols
    } else {
        16
    }
}

impl Lower<'_> {
    /// `tile.gemm` of i8 on tensor cores (see the module's comment).
    pub(in super::super) fn s8_gemm(&mut self, op: Op, w: Warps) -> Result<(), Diagnostic> {
        let g = tile::Gemm::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "a tensor-core gemm that is not a gemm"))?;
        let (ga, gb, gacc) = (g.a(self.ctx), g.b(self.ctx), g.acc(self.ctx));
        let r = g.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let kk = self.tile_of(op, ga)?.shape[1];
        let out = self.frag_alloca(w, &t);
        self.write_frag(gacc, w, &t, out)?;
        let (pa, ea) = self.gemm_operand(ga)?;
        let (pb, eb) = self.gemm_operand(gb)?;
        let u = self.ctx.uniquer().clone();
        // i8 / i8 / i32, or the fp8 formats of A and B and f32.
        let (ta, tb, tc) = (
            self.tile_of(op, ga)?.elem,
            self.tile_of(op, gb)?.elem,
            t.elem,
        );
        let vec = |shape: &[i64], elem: Type| {
            u.ty(TypeKind::Vector {
                shape: shape.into(),
                scalable: shape.iter().map(|_| false).collect(),
                elem,
            })
        };
        let (va, vb, vc) = (vec(&[4, 4], ta), vec(&[2, 4], tb), vec(&[2, 2], tc));
        let Lane { lane, wy, wx } = self.lane(w);
        let c4 = ab::index(self, 4);
        let group = ab::binary::<arith::DivUI>(self, lane, c4);
        let thread = ab::binary::<arith::RemUI>(self, lane, c4);
        let z = ab::index(self, 0);
        // This lane's origin in A (rows of its warp's block, k from 0) and
        // in B (k from 0, columns of its warp's block).
        let a_row = self.mul_add(wy, w.mt * 16, z);
        let a0 = self.frag_start(&S8_A, &pa, (group, thread), (a_row, z));
        let b_col = self.mul_add(wx, w.nt * 8, z);
        let b0 = self.frag_start(&S8_B, &pb, (group, thread), (z, b_col));
        let shape = self.mma_shape(S8_A.cols);
        for ks in 0..kk / S8_A.cols {
            let k = ks * S8_A.cols;
            let fa: Vec<Value> = (0..w.mt)
                .map(|mi| self.gather(&S8_A, &pa, a0, (16 * mi, k), va, ta))
                .collect();
            let fb: Vec<Value> = (0..w.nt)
                .map(|ni| self.gather(&S8_B, &pb, b0, (k, 8 * ni), vb, tb))
                .collect();
            for (mi, a) in fa.iter().enumerate() {
                for (ni, b) in fb.iter().enumerate() {
                    let tile = mi as i64 * w.nt + ni as i64;
                    self.mma_on_slots(out, tile, (vc, tc), &mut |s, c| {
                        nvgpu::MmaSync::build(s, *a, *b, c, shape, vc).res(s.ctx)
                    });
                }
            }
        }
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

    /// The index in `p`'s view of this lane's element 0 of fragment `f`
    /// (lane `(group, thread)`) of the operand tile at `(row, col)`.
    fn frag_start(
        &mut self,
        f: &Fragment,
        p: &Padded,
        (group, thread): (Value, Value),
        (row, col): (Value, Value),
    ) -> Value {
        let r = self.mul_add(group, f.group.0, row);
        let r = self.mul_add(thread, f.thread.0, r);
        let c = self.mul_add(group, f.group.1, col);
        let c = self.mul_add(thread, f.thread.1, c);
        self.padded_at(p, r, c)
    }

    /// This lane's fragment `f` of the operand tile `(dr, dc)` on from the
    /// one whose element 0 is at `start`, as a vector of type `ty`.
    fn gather(
        &mut self,
        f: &Fragment,
        p: &Padded,
        start: Value,
        (dr, dc): (i64, i64),
        ty: Type,
        elem: Type,
    ) -> Value {
        let el: Vec<Value> = f
            .elems
            .iter()
            .map(|(r, c)| {
                let off = ab::index(self, p.offset(dr + r, dc + c));
                let at = ab::binary::<arith::AddI>(self, start, off);
                let x = mb::load(self, p.view, &[at]);
                debug_assert_eq!(self.ctx.value_type(x), elem);
                x
            })
            .collect();
        vector::FromElements::build(self, &el, ty).result(self.ctx)
    }
}
