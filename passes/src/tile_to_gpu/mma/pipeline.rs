//! Pipelined K loops on tensor cores: asynchronous copies of the next
//! stages while the current one's mma.sync run (see [`Lower::lower_pipelined`]).

use super::{MmaOperands, Padded, Pipe, Warps, int_attr, single_gemm};
use crate::tile_to_gpu::{Lower, body_of, err, shared_layout};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::ir::{Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::arith;
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::coord::Desc;
use aic_dialects::memref::build as mb;
use aic_dialects::nvgpu;
use aic_dialects::tile::{self, TileOp, TileType};
use aic_dialects::vector;

impl Lower<'_> {
    /// Pipelined loop `pipe`'s lower bound: a constant, or the loop's own
    /// run-time bound.
    fn pipe_lower(&mut self, pipe: &Pipe) -> Value {
        match pipe.lower {
            Some(v) => self.map.value(v),
            None => ab::index(self, pipe.lb),
        }
    }

    /// Copy `i`'s tile in stage `slot` of its ring (`rings`: each copy's
    /// view, line length, stage size and tile), as the loop body's gemms
    /// read it.
    pub(in crate::tile_to_gpu) fn stage_tile(
        &mut self,
        pipe: &Pipe,
        rings: &[(Value, i64, i64, TileType)],
        i: usize,
        slot: Value,
    ) -> Padded {
        let (view, stride, size, _) = rings[i];
        let size = ab::index(self, size);
        Padded {
            view,
            stride,
            base: Some(ab::binary::<arith::MulI>(self, slot, size)),
            trans: pipe.copies[i].trans,
        }
    }

    /// Every staged transfer of `pipe` read from stage `slot` of its ring
    /// (see [`Lower::stage_tile`]) by the ops lowered next.
    pub(in crate::tile_to_gpu) fn set_stage(
        &mut self,
        pipe: &Pipe,
        rings: &[(Value, i64, i64, TileType)],
        slot: Value,
    ) {
        for (i, c) in pipe.copies.iter().enumerate() {
            let padded = self.stage_tile(pipe, rings, i, slot);
            let r = self.ctx.result(c.transfer, 0);
            self.padded_tiles.insert(r, padded);
        }
    }

    /// A `tile.for` whose transfers are pipelined ([`Pipe`]): before the
    /// loop, copies for the first `depth - 1` iterations start, a group
    /// each; iteration `i` waits until its group has landed (at most
    /// `depth - 2` younger in flight), a barrier makes every thread's
    /// copies visible and frees the buffer iteration `i - 1` read, the
    /// copies for iteration `i + depth - 1` start into that buffer (reading
    /// nothing, zero-filling, past the last iteration), and the gemms run
    /// on buffer `i % depth`. The accumulators stay fragments throughout.
    /// A loop of one gemm loads its fragments a step ahead instead
    /// ([`Lower::lower_prefetched`]).
    pub(in crate::tile_to_gpu) fn lower_pipelined(
        &mut self,
        op: Op,
        pipe: &Pipe,
    ) -> Result<(), Diagnostic> {
        let ctx = &*self.ctx;
        let body = body_of(ctx, op, "a loop")?;
        let bargs = ctx.block_args(body).to_vec();
        let inits = tile::For::of(ctx, op)
            .ok_or_else(|| err(ctx, op, "a pipeline that is not a loop"))?
            .inits(ctx)
            .to_vec();
        let results: Vec<Value> = ctx.results(op).collect();
        let body_ops: Vec<Op> = ctx.block_ops(body).collect();
        let mut carried = Vec::new();
        for (i, v) in inits.iter().enumerate() {
            let c = self.carry_frag(body, i, *v)?.ok_or_else(|| {
                err(
                    self.ctx,
                    op,
                    "a pipelined loop carries accumulators and row vectors only",
                )
            })?;
            carried.push(c);
        }
        // Each transfer's ring of `depth` buffers.
        let (mut rings, mut swizzle) = (Vec::new(), Vec::new());
        for c in &pipe.copies {
            let t = self.tile_of(c.transfer, self.ctx.result(c.transfer, 0))?;
            let (stride, _, swizzled) = shared_layout::lines(self.ctx, c.transfer)
                .ok_or_else(|| err(self.ctx, c.transfer, "a staged tile no pass laid out"))?;
            let lines = if c.trans { t.shape[1] } else { t.shape[0] };
            let at = self.transfer_at[&c.transfer];
            let view = self.shared_view(at, pipe.depth * lines * stride, t.elem);
            rings.push((view, stride, lines * stride, t));
            swizzle.push(swizzled);
        }
        let u = self.ctx.uniquer().clone();
        let token = aic_dialects::nvgpu::token_type(&u);
        let i32t = u.int_type(32);
        // Starts the copies of iteration `it` into buffer `it % depth`,
        // only where `live`; gives the group.
        let issue = |s: &mut Self, it: Value, live: Option<Value>| -> Result<Value, Diagnostic> {
            let (d, lb, st) = (
                ab::index(s, pipe.depth),
                s.pipe_lower(pipe),
                ab::index(s, pipe.step),
            );
            let slot = ab::binary::<arith::RemUI>(s, it, d);
            let ivv = ab::binary::<arith::MulI>(s, it, st);
            let ivv = ab::binary::<arith::AddI>(s, ivv, lb);
            let mut tokens = Vec::new();
            for ((c, (view, stride, size, t)), swizzled) in
                pipe.copies.iter().zip(&rings).zip(&swizzle)
            {
                let ld = tile::Load::wrap(c.load);
                let buf = s.map.value(ld.buffer(s.ctx));
                // The origin at iteration `it`: the induction variable
                // (or a multiple or quotient of it, plan::scaled_iv) there.
                let mut origin = Vec::new();
                for v in ld.origin(s.ctx).to_vec() {
                    origin.push(match super::plan::scaled_iv(s.ctx, v, bargs[0]) {
                        Some((1, 1)) => ivv,
                        Some((mul, div)) => {
                            let m = ab::index(s, mul);
                            let x = ab::binary::<arith::MulI>(s, ivv, m);
                            let d = ab::index(s, div);
                            ab::binary::<arith::DivUI>(s, x, d)
                        }
                        None => s.map.value(v),
                    });
                }
                let csize = ab::index(s, *size);
                let base = ab::binary::<arith::MulI>(s, slot, csize);
                let (rows, cols) = (t.shape[0], t.shape[1]);
                let lines = if c.trans { cols } else { rows };
                let chunks = Chunks {
                    buf,
                    desc: &c.desc,
                    origin: &origin,
                    shape: (rows, cols),
                    chunk: c.chunk,
                    trans: c.trans,
                    live,
                    view: *view,
                };
                s.copy_chunks(&chunks, &mut tokens, &mut |s, line, within| {
                    let at = if *swizzled {
                        s.swizzled_at(line, within, lines, c.chunk)
                    } else {
                        s.mul_add(line, *stride, within)
                    };
                    ab::binary::<arith::AddI>(s, at, base)
                });
            }
            Ok(nvgpu::DeviceAsyncCreateGroup::build(s, &tokens, token).async_token(s.ctx))
        };
        let known = pipe.upper.is_none() && pipe.lower.is_none();
        // mma.sync's byte gemms gather their fragments in the body's
        // lowering (the prefetched loop loads f16 fragments by ldmatrix).
        let single = single_gemm(self.ctx, body, pipe).filter(|g| {
            known && (self.mma.is_wgmma(*g) || super::s8_gemm_shape(self.ctx, *g).is_none())
        });
        if let Some(gemm) = single.filter(|g| self.mma.is_wgmma(*g)) {
            return self.lower_wgmma(gemm, pipe, (&rings, &carried[0], &results), &issue);
        }
        if let Some(ring) = crate::tile_to_gpu::tma::loop_ring(self.ctx, op, pipe)? {
            if !ring.ws {
                return Err(err(
                    self.ctx,
                    op,
                    "an attention loop copied by TMA must be warp-specialised (copy = tma_ws)",
                ));
            }
            return self.lower_attention_ws(op, pipe, &ring, &rings, &carried, &results);
        }
        // wgmma gemms (an attention's) read the ring through the async
        // proxy; their loops may share rings with an earlier one, whose
        // last reads every thread has done after this barrier.
        let wgmma = body_ops.iter().any(|o| self.mma.is_wgmma(*o));
        if wgmma {
            self.barrier();
        }
        // The trips counted from a run-time bound.
        let trips = match (pipe.lower, pipe.upper) {
            (None, None) => None,
            (lb, ub) => {
                let (lb, ub) = (lb.map(|v| self.map.value(v)), ub.map(|v| self.map.value(v)));
                Some(self.pipe_trips(pipe, lb, ub).1)
            }
        };
        let mut group = None;
        for it in 0..(pipe.depth - 1) {
            let itv = ab::index(self, it);
            let live = match trips {
                Some(n) => Some(ab::cmpi(self, CmpIPredicate::Ult, itv, n)),
                None if it < pipe.n => None,
                None => Some(ab::int(self, 0, u.int_type(1))),
            };
            group = Some(issue(self, itv, live)?);
        }
        let group = group.expect("depth >= 2");
        let wait_n = u.attr(AttrKind::Integer {
            value: i128::from(pipe.depth - 2),
            ty: i32t,
        });
        if let Some(gemm) = single.filter(|_| known) {
            return self.lower_prefetched(
                gemm,
                pipe,
                (&rings, &carried[0], &results),
                group,
                &issue,
            );
        }
        let lo = ab::index(self, 0);
        let hi = trips.unwrap_or_else(|| ab::index(self, pipe.n));
        let one = ab::index(self, 1);
        let out = self.for_loop(lo, hi, one, &[group], &mut |s, it, g| {
            nvgpu::DeviceAsyncWait::build(s, g[0], Some(wait_n));
            s.fence_for_wgmma(wgmma);
            s.barrier();
            let ahead = ab::index(s, pipe.depth - 1);
            let next = ab::binary::<arith::AddI>(s, it, ahead);
            let n = trips.unwrap_or_else(|| ab::index(s, pipe.n));
            let live = ab::cmpi(s, CmpIPredicate::Ult, next, n);
            let g = issue(s, next, Some(live))?;
            let (d, lb, st) = (
                ab::index(s, pipe.depth),
                s.pipe_lower(pipe),
                ab::index(s, pipe.step),
            );
            let slot = ab::binary::<arith::RemUI>(s, it, d);
            let iv = ab::binary::<arith::MulI>(s, it, st);
            let iv = ab::binary::<arith::AddI>(s, iv, lb);
            s.map.values.insert(bargs[0], iv);
            s.set_stage(pipe, &rings, slot);
            for ((a, (arr, w, t)), _) in bargs[1..].iter().zip(&carried).zip(&inits) {
                s.set_frag(*a, *arr, *w, t);
            }
            for o in &body_ops {
                match TileOp::of(s.ctx, *o) {
                    _ if pipe.copies.iter().any(|c| c.load == *o || c.transfer == *o) => {}
                    Some(TileOp::Yield(y)) => {
                        let vals = y.values(s.ctx).to_vec();
                        for (v, (arr, w, t)) in vals.iter().zip(&carried) {
                            s.yield_frag(*v, *arr, *w, t)?;
                        }
                    }
                    _ => s.lower_op(*o)?,
                }
            }
            s.settle();
            Ok(vec![g])
        })?;
        // Copies past the last iteration (zero-fills) land before the
        // shared memory is used again.
        nvgpu::DeviceAsyncWait::build(self, out[0], Some(int_attr(&u, 0, i32t)));
        for (r, (arr, w, t)) in results.iter().zip(&carried) {
            self.set_frag(*r, *arr, *w, t);
        }
        Ok(())
    }

    /// A pipelined loop of one gemm whose fragments are loaded a k16 step
    /// ahead of its mma: the last step's mma runs on fragments loaded
    /// before the barrier, and the next stage's first fragments load while
    /// it runs. At the end of iteration `i` (before its last mma) the block
    /// waits for stage `i + 1`, syncs (every read of stage `i` is done),
    /// starts the copies for iteration `i + depth` into stage `i`'s buffer
    /// and loads stage `i + 1`'s first fragments, carried into the next
    /// iteration in a private array. The prologue's copies, waits and
    /// barrier are those of [`Lower::lower_pipelined`], one stage ahead.
    #[allow(clippy::type_complexity)]
    fn lower_prefetched(
        &mut self,
        gemm: Op,
        pipe: &Pipe,
        (rings, carried, results): (
            &[(Value, i64, i64, TileType)],
            &(Value, Warps, TileType),
            &[Value],
        ),
        group: Value,
        issue: &dyn Fn(&mut Self, Value, Option<Value>) -> Result<Value, Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let (acc, w, t) = carried.clone();
        let g = tile::Gemm::wrap(gemm);
        let (ga, gb_) = (g.a(self.ctx), g.b(self.ctx));
        let kk = self.tile_of(gemm, ga)?.shape[1];
        let ring_of = |s: &Self, v: Value| pipe.copy_of(s.ctx, v).expect("a pipelined operand");
        let (ia, ib) = (ring_of(self, ga), ring_of(self, gb_));
        let padded = |i: usize| Padded {
            view: rings[i].0,
            stride: rings[i].1,
            base: None,
            trans: pipe.copies[i].trans,
        };
        let g = self.mma_operands(gemm, w, Some(padded(ia)), padded(ib))?;
        let u = self.ctx.uniquer().clone();
        let i32t = u.int_type(32);
        let groups = |n: i64| int_attr(&u, n, i32t);
        // Where stage `it`'s A and B start in their rings.
        let stage = |s: &mut Self, it: Value| {
            let d = ab::index(s, pipe.depth);
            let slot = ab::binary::<arith::RemUI>(s, it, d);
            let (sa, sb) = (ab::index(s, rings[ia].2), ab::index(s, rings[ib].2));
            (
                Some(ab::binary::<arith::MulI>(s, slot, sa)),
                Some(ab::binary::<arith::MulI>(s, slot, sb)),
            )
        };
        // Waits for stage `it + 1`, syncs, starts iteration `it + depth`'s
        // copies and loads stage `it + 1`'s first fragments.
        let turn = |s: &mut Self, it: Value, tok: Value| -> Result<_, Diagnostic> {
            nvgpu::DeviceAsyncWait::build(s, tok, Some(groups(pipe.depth - 2)));
            s.barrier();
            let d = ab::index(s, pipe.depth);
            let ahead = ab::binary::<arith::AddI>(s, it, d);
            let n = ab::index(s, pipe.n);
            let live = ab::cmpi(s, CmpIPredicate::Ult, ahead, n);
            let tok = issue(s, ahead, Some(live))?;
            let one = ab::index(s, 1);
            let next = ab::binary::<arith::AddI>(s, it, one);
            let bases = stage(s, next);
            let zero = ab::index(s, 0);
            Ok((tok, s.mma_load(&g, bases, zero)))
        };
        // Iteration -1's turn: stage 0 and iteration depth - 1's copies.
        let minus1 = ab::index(self, -1);
        let (group, first) = turn(self, minus1, group)?;
        let f16 = g.f16;
        let held = (w.mt * 8 + w.nt * 4) as usize;
        let stash = self.private(held as i64, f16);
        self.stash_frags(&first, stash, f16);
        let (lo, hi, one) = (
            ab::index(self, 0),
            ab::index(self, pipe.n),
            ab::index(self, 1),
        );
        let steps = kk / 16;
        let out = self.for_loop(lo, hi, one, &[group], &mut |s, it, tok| {
            let mut cur = s.unstash_frags(&g, stash);
            let bases = stage(s, it);
            let mut tok = tok[0];
            for k in 0..steps {
                let next = if k + 1 < steps {
                    let at = ab::index(s, 16 * (k + 1));
                    s.mma_load(&g, bases, at)
                } else {
                    let (t, f) = turn(s, it, tok)?;
                    tok = t;
                    s.stash_frags(&f, stash, f16);
                    f
                };
                s.mma_step(&g, &cur.0, &cur.1, acc);
                cur = next;
            }
            Ok(vec![tok])
        })?;
        nvgpu::DeviceAsyncWait::build(self, out[0], Some(groups(0)));
        self.set_frag(results[0], acc, w, &t);
        Ok(())
    }

    /// Fragments into private array `arr` (A's 8 halves each, then B's 4).
    /// `f16` is their element type (f16 or bf16).
    fn stash_frags(&mut self, (fa, fb): &(Vec<Value>, Vec<Value>), arr: Value, f16: Type) {
        let mut at = 0;
        for (v, rows) in fa.iter().map(|v| (v, 4)).chain(fb.iter().map(|v| (v, 2))) {
            for e in 0..rows * 2 {
                let x = self.extract(*v, &[e / 2, e % 2], f16);
                let i = ab::index(self, at);
                mb::store(self, x, arr, &[i]);
                at += 1;
            }
        }
    }

    /// The fragments [`Lower::stash_frags`] put in `arr`.
    fn unstash_frags(&mut self, g: &MmaOperands, arr: Value) -> (Vec<Value>, Vec<Value>) {
        let mut at = 0;
        let mut take = |s: &mut Self, n: i64, ty: Type| {
            let el: Vec<Value> = (at..at + n)
                .map(|i| {
                    let i = ab::index(s, i);
                    mb::load(s, arr, &[i])
                })
                .collect();
            at += n;
            vector::FromElements::build(s, &el, ty).result(s.ctx)
        };
        let fa = (0..g.w.mt).map(|_| take(self, 8, g.types[0])).collect();
        let fb = (0..g.w.nt).map(|_| take(self, 4, g.types[1])).collect();
        (fa, fb)
    }
}

/// A tile copied by cp.async in chunks of `chunk` elements (16 bytes) from
/// `buf` (through `desc` at `origin`) into shared view `view`: its
/// `(rows, cols)`, whether memory runs along its rows (`trans`, chunks
/// down a column) and, where given, whether the copy is live at all.
pub(in crate::tile_to_gpu) struct Chunks<'a> {
    pub(in crate::tile_to_gpu) buf: Value,
    pub(in crate::tile_to_gpu) desc: &'a Desc,
    pub(in crate::tile_to_gpu) origin: &'a [Value],
    pub(in crate::tile_to_gpu) shape: (i64, i64),
    pub(in crate::tile_to_gpu) chunk: i64,
    pub(in crate::tile_to_gpu) trans: bool,
    pub(in crate::tile_to_gpu) live: Option<Value>,
    pub(in crate::tile_to_gpu) view: Value,
}

impl Lower<'_> {
    /// Starts the copies of `c`, the block's threads taking its chunks in
    /// rounds (the last round may be partial: threads past the last chunk
    /// copy it again, the same bytes to the same place); a chunk out of
    /// range or not live reads nothing and zero-fills. `place(line,
    /// within)` gives a chunk's index in the view (line: the tile's row,
    /// or its column where `trans`; within: the element of the line it
    /// starts at). Pushes each copy's token.
    pub(in crate::tile_to_gpu) fn copy_chunks(
        &mut self,
        c: &Chunks<'_>,
        tokens: &mut Vec<Value>,
        place: &mut dyn FnMut(&mut Self, Value, Value) -> Value,
    ) {
        let u = self.ctx.uniquer().clone();
        let token = nvgpu::token_type(&u);
        let (rows, cols) = c.shape;
        let runs = if c.trans {
            rows / c.chunk
        } else {
            cols / c.chunk
        };
        let total = rows * cols / c.chunk;
        let threads = self.threads;
        for j in 0..(total + threads - 1) / threads {
            let cj = ab::index(self, j * threads);
            let mut ch = ab::binary::<arith::AddI>(self, self.tid, cj);
            if (j + 1) * threads > total {
                let last = ab::index(self, total - 1);
                ch = ab::binary::<arith::MinUI>(self, ch, last);
            }
            let cr = ab::index(self, runs);
            let line = ab::binary::<arith::DivUI>(self, ch, cr);
            let q = ab::binary::<arith::RemUI>(self, ch, cr);
            let c8 = ab::index(self, c.chunk);
            let within = ab::binary::<arith::MulI>(self, q, c8);
            let (row, col) = if c.trans {
                (within, line)
            } else {
                (line, within)
            };
            let (off, mut ok) = self.locate(c.desc, c.origin, &[row, col]);
            if let Some(l) = c.live {
                ok = ab::binary::<arith::AndI>(self, ok, l);
            }
            let zero = ab::index(self, 0);
            let safe = ab::select(self, ok, off, zero);
            let n = ab::select(self, ok, c8, zero);
            let at = place(self, line, within);
            let tk = nvgpu::DeviceAsyncCopy::build(
                self,
                c.buf,
                &[safe],
                c.view,
                &[at],
                Some(n),
                int_attr(&u, c.chunk, u.ty(TypeKind::Index)),
                Some(u.attr(AttrKind::Unit)),
                token,
            )
            .async_token(self.ctx);
            tokens.push(tk);
        }
    }
}
