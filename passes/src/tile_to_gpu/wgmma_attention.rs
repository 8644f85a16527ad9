//! Attention's inner loop on Hopper's warpgroup MMA
//! (`tile-to-gpu{mma=wgmma}`, sm_90a), FlashAttention-3's form of the
//! FlashAttention-2 loop [`super::mma`] runs on mma.sync: both gemms of a
//! pipelined loop over the keys run as `nvgpu.warpgroup.mma` m64nNk16
//! instructions, in blocks of whole warpgroups (128 threads), one m64 row
//! block of queries each.
//!
//! Which loops: a cp.async-pipelined `tile.for` (see
//! [`super::mma::pipeline`]) of exactly two gemms and two staged
//! transfers, where
//! - the first, S = Q·Kᵀ, reads A from a shared tile staged once before
//!   the loop (Q, `M x D`, read only as such an A: the causal loop's
//!   unmasked blocks and its diagonal are two loops) and B from the ring
//!   of a transfer whose memory runs along D (K, a `D x BN` tile stored
//!   column after column: K-major for this product);
//! - the second, O += P·V, reads A from registers (P, the first
//!   accumulator's fragments converted to f16 or bf16, which
//!   [`super::mma`]'s row planning already feeds mma.sync so) and B from
//!   the other ring, stored row after row (V, `BN x Dv`: N-major B,
//!   `transposeB`);
//!
//! with M = 16 x the block's warps, D and Dv multiples of 64 up to 256,
//! BN a multiple of 16 up to 256, A and B of one half type. Other loops
//! keep mma.sync.
//!
//! Shared tiles are wgmma's 128-byte swizzle ([`super::wgmma`]): the
//! rings of K and V as the single-gemm loop stores its B, Q as its A
//! (`swizzle<3, 3, 3>`), Q written by the block's threads before the loop
//! and fenced for the async proxy. Each gemm is one group of k16 steps:
//! the first reads Q and K through descriptors
//! (`nvgpu.warpgroup.mma`), the second P from registers, a k16 step of P
//! being the A fragment two neighbouring n8 accumulator tiles make
//! (`nvgpu.warpgroup.mma.register_a`), and V N-major. The accumulators
//! are mma.sync's m16n8 fragments repeated along N ([`super::wgmma`]'s
//! layout; [`super::mma_layout`] writes `wgmma<64, N, 16>` into their
//! types), so the online softmax between the gemms (row maxima and sums
//! by quad shuffles, exp2 with the scale folded in, the rescaling of O)
//! is the mma.sync loop's, on the same fragments. Each iteration waits
//! for its stage's copies, fences them for the async proxy and syncs the
//! block before its first wgmma.
//!
//! Warp-specialised (`copy = tma_ws`, [`Lower::lower_attention_ws`]), a
//! producer warpgroup copies K and V by TMA and the consumers run the
//! loop rotated as FlashAttention-3 does: S_j's wgmmas, then the previous
//! iteration's P·V, the softmax while P·V runs; two consumer warpgroups
//! take turns issuing their wgmmas (ping-pong on named barriers 2 and 3).

use super::Lower;
use super::mma::{CHUNK, Pipe, Plan, Shared, tile_type};
use super::wgmma::{RUN, swizzle};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::float::FloatKind;
use aic::ir::{Block, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::tile::{self, Space};
use aic_dialects::{nvgpu, nvvm, vector};

/// The two gemms of attention loop body `body` pipelined as `pipe`, and
/// Q's transfer, if wgmma can run them in blocks of `threads` (see the
/// module's doc); `p` plans the gemms on tensor cores, P read from
/// registers.
pub(super) fn gemms(
    ctx: &Context,
    body: Block,
    pipe: &Pipe,
    p: &Plan,
    threads: i64,
) -> Option<[Op; 3]> {
    let gemms: Vec<tile::Gemm> = ctx
        .block_ops(body)
        .filter_map(|o| tile::Gemm::of(ctx, o))
        .collect();
    let [g1, g2] = gemms[..] else {
        return None;
    };
    if threads % 128 != 0 || pipe.copies.len() != 2 || !p.is_mma(g1.op()) || !p.is_mma(g2.op()) {
        return None;
    }
    let m = 16 * (threads / 32);
    let copy = |v: Value| pipe.copy_of(ctx, v).map(|i| &pipe.copies[i]);
    let (k, v) = (copy(g1.b(ctx))?, copy(g2.b(ctx))?);
    // Q: a shared tile transferred outside the loop, read only as the A
    // of S's gemms (one a loop where the causal diagonal has its own).
    let q = tile::Transfer::defining(ctx, g1.a(ctx))?;
    let q_uses = ctx.uses(q.result(ctx));
    let q_only = q_uses
        .iter()
        .all(|u| u.index == 0 && tile::Gemm::is(ctx, u.op));
    let outside = ctx.parent_block(q.op()) != Some(body);
    let (qt, kt, vt) = (
        tile_type(ctx, q.result(ctx))?,
        tile_type(ctx, g1.b(ctx))?,
        tile_type(ctx, g2.b(ctx))?,
    );
    let pt = tile_type(ctx, g2.a(ctx))?;
    let half = super::mma::half_kind(ctx, qt.elem)?;
    let same = [kt.elem, vt.elem, pt.elem]
        .iter()
        .all(|e| super::mma::half_kind(ctx, *e) == Some(half));
    let (d, bn, dv) = (qt.shape[1], kt.shape[1], vt.shape[1]);
    let fits = |x: i64| x % RUN == 0 && x <= 256;
    let shapes = qt.shape[0] == m
        && pt.shape == [m, bn]
        && kt.shape[0] == d
        && vt.shape[0] == bn
        && fits(d)
        && fits(dv)
        && bn % 16 == 0
        && bn <= 256;
    (q_only
        && outside
        && qt.space == Space::Shared
        && same
        && shapes
        && k.trans
        && !v.trans
        && p.reads_a_from_registers(g2.op()))
    .then_some([g1.op(), g2.op(), q.op()])
}

/// Records the tiles attention loop `gemms` (S's and O's gemms and Q's
/// transfer) reads from shared memory as stored in wgmma's swizzle: Q
/// and K's ring as A and K-major B, V's ring N-major.
pub(super) fn swizzle_operands(ctx: &Context, [g1, g2, q]: [Op; 3], shared: &mut Shared) {
    shared.layouts.insert(q, swizzle(false, CHUNK));
    for (g, trans) in [(g1, true), (g2, false)] {
        if let Some(t) = tile::Gemm::of(ctx, g).and_then(|g| ctx.defining_op(g.b(ctx))) {
            shared.layouts.insert(t, swizzle(trans, CHUNK));
        }
    }
}

/// The staged transfers of a wgmma attention's loop (a loop whose gemms
/// are wgmma's) that can take the shared region of their like in an
/// earlier such loop of the same block, their rings' sizes alike (the
/// causal diagonal's loop after the unmasked blocks'): each mapped to the
/// earlier one, in `transfers` (program order). The later loop syncs the
/// block before its first copies ([`Lower::lower_pipelined`]).
pub(super) fn shared_rings(
    ctx: &Context,
    transfers: &[Op],
    plan: &Plan,
) -> std::collections::HashMap<Op, Op> {
    use std::collections::HashMap;
    // Each staged loop of wgmma gemms and its transfers, in order.
    let mut loops: Vec<(Op, Vec<Op>)> = Vec::new();
    for t in transfers {
        let Some(l) = ctx
            .parent_op(*t)
            .filter(|l| tile::For::of(ctx, *l).is_some_and(|f| f.stages(ctx).is_some()))
        else {
            continue;
        };
        let wgmma = ctx
            .regions(l)
            .first()
            .and_then(|r| ctx.entry_block(*r))
            .is_some_and(|b| ctx.block_ops(b).any(|o| plan.is_wgmma(o)));
        if !wgmma {
            continue;
        }
        match loops.last_mut() {
            Some((last, ts)) if *last == l => ts.push(*t),
            _ => loops.push((l, vec![*t])),
        }
    }
    let like = |a: Op, b: Op| {
        ctx.value_type(ctx.result(a, 0)) == ctx.value_type(ctx.result(b, 0))
            && super::shared_layout::transfer_bytes(ctx, a)
                == super::shared_layout::transfer_bytes(ctx, b)
    };
    let mut out = HashMap::new();
    for i in 1..loops.len() {
        let (l, ts) = &loops[i];
        let earlier = loops[..i].iter().rev().find(|(e, es)| {
            ctx.parent_block(*e) == ctx.parent_block(*l)
                && es.len() == ts.len()
                && es.iter().zip(ts).all(|(a, b)| like(*a, *b))
        });
        if let Some((_, es)) = earlier {
            for (a, b) in es.iter().zip(ts) {
                // The region's owner: the first loop's transfer.
                let owner = out.get(a).copied().unwrap_or(*a);
                out.insert(*b, owner);
            }
        }
    }
    out
}

/// An attention gemm's wgmmas issued and not yet waited for: their
/// accumulator vector, the array it lands in, and the result's layout.
pub(super) struct Issued {
    v: Value,
    out: Value,
    r: Value,
    w: super::mma::Warps,
    t: tile::TileType,
}

/// What an attention gemm reads, where it is not what its operands say
/// now (a warp-specialised loop's P·V issued an iteration late): A's
/// fragments, B's stage and the accumulator's array.
pub(super) struct Late {
    a: super::mma::Frag,
    b: super::mma::Padded,
    acc: Value,
}

impl Lower<'_> {
    /// A gemm of an attention loop on wgmma (see the module's doc): one
    /// group of k16 steps on the accumulator as a vector, waited for
    /// before its result is read.
    pub(super) fn wgmma_attention_gemm(&mut self, op: Op) -> Result<(), Diagnostic> {
        let i = self.attention_issue(op, None)?;
        self.wgmma_wait(0);
        self.attention_land(i);
        Ok(())
    }

    /// Stores issued gemm `i`'s accumulator (its wgmmas waited for) in its
    /// array, the gemm's result.
    pub(super) fn attention_land(&mut self, i: Issued) {
        self.store_acc(i.v, i.out, i.w.slots());
        self.add_frag(i.r, i.out, i.w, i.t);
    }

    /// Issues attention gemm `op`'s wgmmas and commits them as a group:
    /// on its operands, or on what `late` says.
    pub(super) fn attention_issue(
        &mut self,
        op: Op,
        late: Option<Late>,
    ) -> Result<Issued, Diagnostic> {
        let ctx = &*self.ctx;
        let g = tile::Gemm::of(ctx, op)
            .ok_or_else(|| super::err(ctx, op, "a wgmma gemm that is not a gemm"))?;
        let (ga, gb, gacc, r) = (g.a(ctx), g.b(ctx), g.acc(ctx), g.result(ctx));
        let w = self.mma.warps(op).expect("a tensor-core gemm");
        let t = self.tile_of(op, r)?;
        let at = self.tile_of(op, ga)?;
        let (m, kk, n) = (at.shape[0], at.shape[1], t.shape[1]);
        let fresh = late.is_none();
        let (out, a_regs, pb) = match late {
            Some(l) => (l.acc, Some(l.a), l.b),
            None => {
                let out = self.frag_alloca(w, &t);
                self.write_frag(gacc, w, &t, out)?;
                let a_regs = if self.mma.reads_a_from_registers(op) {
                    let f = self.frags.get(&ga).cloned();
                    Some(f.ok_or_else(|| super::err(self.ctx, op, "P is not in registers"))?)
                } else {
                    None
                };
                (out, a_regs, self.gemm_operand(gb)?.0)
            }
        };
        let pa = match a_regs {
            Some(_) => None,
            None => Some(self.gemm_operand(ga)?.0),
        };
        let u = self.ctx.uniquer().clone();
        let f32 = u.ty(TypeKind::Float(FloatKind::F32));
        let bt = self.tile_of(op, gb)?;
        let ab_type = (super::mma::half_kind(self.ctx, bt.elem) == Some(FloatKind::BF16))
            .then(|| u.attr(AttrKind::Type(bt.elem)));
        let len = w.slots();
        let vty = u.ty(TypeKind::Vector {
            shape: [len].as_slice().into(),
            scalable: [false].as_slice().into(),
            elem: f32,
        });
        let a_ty = u.ty(TypeKind::Vector {
            shape: [4, 2].as_slice().into(),
            scalable: [false, false].as_slice().into(),
            elem: bt.elem,
        });
        // S starts from zero each key block: a constant accumulator, which
        // the first wgmma does not read (scale-d 0).
        let mut v = match fresh.then(|| self.zero_source(gacc)).flatten() {
            Some(x) => {
                vector::FromElements::build(self, &vec![x; len as usize], vty).result(self.ctx)
            }
            None => self.acc_vector(out, len, vty),
        };
        // This warpgroup's 64 rows of A (Q).
        let zero = ab::index(self, 0);
        let a_rows = match pa {
            Some(_) => {
                let c128 = ab::index(self, 128);
                let wg = ab::binary::<arith::DivUI>(self, self.tid, c128);
                self.mul_add(wg, 64 * RUN, zero)
            }
            None => zero,
        };
        let base = |s: &mut Self, b: Option<Value>, at: i64| {
            let c = ab::index(s, at);
            match b {
                Some(b) => ab::binary::<arith::AddI>(s, b, c),
                None => c,
            }
        };
        // K-major B (K stored N x K) or N-major B (V stored K x N).
        let k_major_b = pb.trans;
        let transpose_b = (!k_major_b).then(|| u.attr(AttrKind::Unit));
        let kb = bt.shape[0];
        nvvm::WgmmaFence::build(self);
        for k in (0..kk).step_by(16) {
            let (at_b, lbo) = if k_major_b {
                ((k / RUN) * n * RUN + k % RUN, 16)
            } else {
                (k * RUN, kb * 2 * RUN)
            };
            let at_b = base(self, pb.base, at_b);
            let db = self.wgmma_descriptor(pb.view, at_b, lbo);
            v = match (&a_regs, pa) {
                (Some(f), _) => {
                    let a = self.a_from_regs(f, 0, k / 16, a_ty);
                    nvgpu::WarpgroupMmaRegisterA::build(self, a, db, v, transpose_b, ab_type, vty)
                        .matrix_d(self.ctx)
                }
                (None, Some(pa)) => {
                    let at_a = base(self, pa.base, (k / RUN) * m * RUN + k % RUN);
                    let at_a = ab::binary::<arith::AddI>(self, at_a, a_rows);
                    let da = self.wgmma_descriptor(pa.view, at_a, 16);
                    nvgpu::WarpgroupMma::build(self, da, db, v, transpose_b, ab_type, None, vty)
                        .matrix_d(self.ctx)
                }
                (None, None) => unreachable!("A is in registers or shared"),
            };
        }
        nvvm::WgmmaCommit::build(self);
        Ok(Issued { v, out, r, w, t })
    }
}

impl Lower<'_> {
    /// Attention loop `op` (pipelined as `pipe`, its rings `rings`)
    /// warp-specialised (`copy = tma_ws`): the producer warpgroup copies
    /// each key block's K and V with TMA ([`Lower::produce`]); the
    /// consumers wait for a stage's full mbarrier and run the body on it,
    /// with no block barrier, and free a stage once the wgmmas reading it
    /// are done. `carried` are the loop's fragment arrays (accumulator and
    /// row vectors), `results` the loop's results.
    ///
    /// The loop is rotated as FlashAttention-3's consumers run it
    /// (intra-warpgroup pipelining): iteration `j` issues S_j = Q·K_jᵀ and
    /// then the previous iteration's O += P_{j-1}·V_{j-1}, waits for S_j
    /// alone and runs the softmax while P·V is on the tensor cores; it
    /// waits for P·V just before O is rescaled. The first iteration is
    /// peeled (no P·V before it), the last P·V issued after the loop, and
    /// P kept for the next iteration in an array of its own. Two consumer
    /// warpgroups (not one, not three, where taking turns measured slower)
    /// take turns issuing (FlashAttention-3's ping-pong): each
    /// waits on its own named barrier before its wgmmas and arrives on the
    /// other's after them, so that one's softmax runs while the other's
    /// wgmmas do; before the loop the second arrives on the first's (the
    /// first goes first), and after its last wgmmas on barrier 4, which the
    /// first's arrival before the loop completes. The barriers' ids are
    /// computed from the warpgroup, with no branch on it: ptxas serialises
    /// every wgmma of a kernel whose warpgroup arrivals it would place in a
    /// divergent path (it did so for causal attention at head dim 128).
    pub(super) fn lower_attention_ws(
        &mut self,
        op: Op,
        pipe: &Pipe,
        ring: &super::tma::Ring,
        rings: &[super::tma::RingView],
        carried: &[(Value, super::mma::Warps, tile::TileType)],
        results: &[Value],
    ) -> Result<(), Diagnostic> {
        let body = super::body_of(self.ctx, op, "a loop")?;
        let bargs = self.ctx.block_args(body).to_vec();
        let body_ops: Vec<Op> = self.ctx.block_ops(body).collect();
        let gemms: Vec<Op> = body_ops
            .iter()
            .copied()
            .filter(|o| tile::Gemm::is(self.ctx, *o))
            .collect();
        let [g1, g2] = gemms[..] else {
            return Err(super::err(
                self.ctx,
                op,
                "an attention loop without its two gemms",
            ));
        };
        let pv = tile::Gemm::wrap(g2);
        // The carried value P·V accumulates into (O).
        let yielded = body_ops
            .iter()
            .find_map(|o| match tile::TileOp::of(self.ctx, *o) {
                Some(tile::TileOp::Yield(y)) => Some(y.values(self.ctx).to_vec()),
                _ => None,
            })
            .unwrap_or_default();
        let o_at = yielded
            .iter()
            .position(|v| *v == pv.result(self.ctx))
            .ok_or_else(|| super::err(self.ctx, g2, "an attention loop that does not carry P·V"))?;
        let (o_arr, o_w, _) = carried[o_at].clone();
        let o_arg = bargs[1 + o_at];
        let v_copy = pipe
            .copy_of(self.ctx, pv.b(self.ctx))
            .ok_or_else(|| super::err(self.ctx, g2, "V is not staged"))?;
        let bars = self.produce(pipe, ring, rings)?;
        let depth = pipe.depth;
        // Iteration `it` is fill `first + it` of the ring.
        let (lb, trips, first) = self.consume(pipe);
        let pingpong = self.threads == 2 * super::tma::PRODUCER_THREADS;
        // V's stage of fill `g`.
        let v_stage = |s: &mut Self, g: Value| {
            let d = ab::index(s, depth);
            let slot = ab::binary::<arith::RemUI>(s, g, d);
            s.stage_tile(pipe, rings, v_copy, slot)
        };
        // The body's values: lowered twice (the peeled iteration, then the
        // loop's), each time afresh, none of the first lowering's kept.
        let body_values: Vec<Value> = body_ops
            .iter()
            .flat_map(|o| self.ctx.results(*o).collect::<Vec<_>>())
            .collect();
        // P, kept for the next iteration's P·V.
        let kept: std::cell::RefCell<Option<super::mma::Frag>> = Default::default();
        // Iteration `it`; `late`: P·V of the iteration before is to issue.
        let iteration =
            |s: &mut Self, it: Value, late: bool| -> Result<(), Diagnostic> {
                for v in &body_values {
                    s.tiles.remove(v);
                    s.frags.remove(v);
                    s.padded_tiles.remove(v);
                }
                let g = ab::binary::<arith::AddI>(s, first, it);
                let slot = s.wait_full(bars, depth, g);
                let step = ab::index(s, pipe.step);
                let iv = ab::binary::<arith::MulI>(s, it, step);
                let iv = ab::binary::<arith::AddI>(s, iv, lb);
                s.map.values.insert(bargs[0], iv);
                s.set_stage(pipe, rings, slot);
                for (a, (arr, w, t)) in bargs[1..].iter().zip(carried) {
                    s.set_frag(*a, *arr, *w, t);
                }
                let one = ab::index(s, 1);
                let prev = ab::binary::<arith::SubI>(s, g, one);
                let mut pending: Option<Issued> = None;
                for o in &body_ops {
                    if pipe.copies.iter().any(|c| c.load == *o || c.transfer == *o) {
                        continue;
                    }
                    // P·V of the iteration before is done before O is read.
                    let reads_o = s.ctx.operands(*o).contains(&o_arg) || *o == g2;
                    if let Some(i) = pending.take_if(|_| reads_o) {
                        s.wgmma_wait(0);
                        s.store_acc(i.v, o_arr, o_w.slots());
                        s.free_stage(bars, depth, prev, None)?;
                    }
                    match tile::TileOp::of(s.ctx, *o) {
                        _ if *o == g1 => {
                            s.take_turn(pingpong);
                            let sj = s.attention_issue(g1, None)?;
                            if late {
                                let a = kept
                                    .borrow()
                                    .clone()
                                    .ok_or_else(|| super::err(s.ctx, g2, "P was not kept"))?;
                                let b = v_stage(s, prev);
                                let l = Late { a, b, acc: o_arr };
                                pending = Some(s.attention_issue(g2, Some(l))?);
                            }
                            s.give_turn(pingpong, false);
                            s.wgmma_wait(i64::from(late));
                            s.attention_land(sj);
                        }
                        _ if *o == g2 => {
                            // Issued in the next iteration (or after the loop):
                            // O is, until then, the rescaled accumulator.
                            let acc =
                                s.frags.get(&pv.acc(s.ctx)).cloned().ok_or_else(|| {
                                    super::err(s.ctx, g2, "O is not in fragments")
                                })?;
                            let p =
                                s.frags.get(&pv.a(s.ctx)).cloned().ok_or_else(|| {
                                    super::err(s.ctx, g2, "P is not in registers")
                                })?;
                            let (pw, pt) = p.layout();
                            let (pw, pt) = (pw, pt.clone());
                            let old = kept.borrow().clone();
                            let k = match old {
                                Some(k) => k,
                                None => p.in_array(s.frag_alloca(pw, &pt)),
                            };
                            s.write_frag(pv.a(s.ctx), pw, &pt, k.arr())?;
                            *kept.borrow_mut() = Some(k);
                            let (aw, at) = acc.layout();
                            let (aw, at) = (aw, at.clone());
                            s.add_frag(pv.result(s.ctx), acc.arr(), aw, at);
                        }
                        Some(tile::TileOp::Yield(y)) => {
                            let vals = y.values(s.ctx).to_vec();
                            for (v, (arr, w, t)) in vals.iter().zip(carried) {
                                s.yield_frag(*v, *arr, *w, t)?;
                            }
                        }
                        _ => s.lower_op(*o)?,
                    }
                }
                if pending.is_some() {
                    return Err(super::err(s.ctx, g2, "O is never rescaled"));
                }
                s.settle();
                Ok(())
            };
        // The loop, where it runs at all (its bounds may be known at run
        // time only): the first iteration peeled, the rest, the last P·V.
        let mut run = |s: &mut Self| -> Result<(), Diagnostic> {
            // Two consumer warpgroups take turns issuing their wgmmas
            // (named barriers 2, 3 and 4, FlashAttention-3's ping-pong): the
            // second lets the first go first.
            s.start_turns(pingpong);
            let zero = ab::index(s, 0);
            iteration(s, zero, false)?;
            let one = ab::index(s, 1);
            s.for_loop(one, trips, one, &[], &mut |s, it, _| {
                iteration(s, it, true)?;
                Ok(vec![])
            })?;
            // The last P·V.
            let one = ab::index(s, 1);
            let last = ab::binary::<arith::SubI>(s, trips, one);
            let last = ab::binary::<arith::AddI>(s, first, last);
            let a = kept
                .borrow()
                .clone()
                .ok_or_else(|| super::err(s.ctx, g2, "P was not kept"))?;
            let b = v_stage(s, last);
            s.take_turn(pingpong);
            let i = s.attention_issue(g2, Some(Late { a, b, acc: o_arr }))?;
            s.give_turn(pingpong, true);
            s.wgmma_wait(0);
            s.store_acc(i.v, o_arr, o_w.slots());
            s.free_stage(bars, depth, last, None)
        };
        match (pipe.lower, pipe.upper) {
            (None, None) if pipe.n == 0 => {}
            (None, None) => run(self)?,
            _ => {
                let zero = ab::index(self, 0);
                let some = ab::cmpi(self, arith::build::CmpIPredicate::Ugt, trips, zero);
                self.when(some, &mut run)?;
            }
        }
        for (r, (arr, w, t)) in results.iter().zip(carried) {
            self.set_frag(*r, *arr, *w, t);
        }
        Ok(())
    }

    /// An arrival of this warpgroup (`w`, 0 or 1) of the two consumer
    /// warpgroups on named barrier `at + by · w` (of both warpgroups'
    /// threads); a wait where `wait`.
    fn turn_barrier(&mut self, at: i64, by: i64, wait: bool) {
        let i32t = self.ctx.uniquer().int_type(32);
        let c128 = ab::index(self, 128);
        let wg = ab::binary::<arith::DivUI>(self, self.tid, c128);
        let by = ab::index(self, by);
        let off = ab::binary::<arith::MulI>(self, wg, by);
        let at = ab::index(self, at);
        let id = ab::binary::<arith::AddI>(self, at, off);
        let id = ab::cast::<arith::IndexCast>(self, id, i32t);
        let n = ab::int(self, 2 * 128, i32t);
        if wait {
            nvvm::Barrier::build(self, id, n);
        } else {
            nvvm::BarrierArrive::build(self, id, n);
        }
    }

    /// Before a loop's first turn: the second consumer warpgroup lets the
    /// first go first (arrives on barrier 2, the first's turn); the first
    /// arrives on barrier 4, which the second's last turn completes
    /// ([`Lower::give_turn`]). No branch on the warpgroup: ptxas serialises
    /// wgmmas whose warpgroup arrival it would place in a divergent path.
    fn start_turns(&mut self, pingpong: bool) {
        if pingpong {
            self.turn_barrier(4, -2, false);
        }
    }

    /// Waits for this warpgroup's turn to issue wgmmas (`pingpong`: two
    /// consumer warpgroups): warpgroup `w` on named barrier `2 + w`.
    fn take_turn(&mut self, pingpong: bool) {
        if pingpong {
            self.turn_barrier(2, 1, true);
        }
    }

    /// Gives the other consumer warpgroup its turn (warpgroup `w` arrives
    /// on barrier `3 - w`); `last`, after this warpgroup's last wgmmas, the
    /// first does so and the second arrives on barrier 4 instead, with the
    /// first's arrival from before the loop ([`Lower::start_turns`]): each
    /// barrier's arrivals then match its waits, loop after loop.
    fn give_turn(&mut self, pingpong: bool, last: bool) {
        if !pingpong {
            return;
        }
        if last {
            self.turn_barrier(3, 1, false);
        } else {
            self.turn_barrier(3, -1, false);
        }
    }
}
