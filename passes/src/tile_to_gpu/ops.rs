//! The per-op lowering of tile ops in the blocked layout: one row per op
//! in [`Lower::rule`], each op's own method.
//!
//! The conversion framework (`aic::conversion`) replaces one value by one;
//! here a tile value becomes many (a thread's array of its elements, a
//! shared view, fragments) and its lowering depends on how the tile lives
//! ([`L`]), so the rows are methods of [`Lower`], which keeps that state.

use super::{Combine, L, Lower, Slice, TileType, body_of, combiner, err};
use aic::Diagnostic;
use aic::constraints::i64_array_attr;
use aic::dialect::OpSpec;
use aic::ir::{Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::arith;
use aic_dialects::arith::build as ab;
use aic_dialects::gpu::build as gb;
use aic_dialects::memref::build as mb;
use aic_dialects::tile;

/// How one tile op lowers.
type Rule<'c> = fn(&mut Lower<'c>, Op) -> Result<(), Diagnostic>;

impl<'c> Lower<'c> {
    /// How `op` lowers: one row per tile op.
    fn rule(&self, op: Op) -> Option<Rule<'c>> {
        let rules: [(&OpSpec, Rule<'c>); 12] = [
            (&tile::RETURN, Self::lower_return),
            (&tile::PROGRAM_ID, Self::lower_program_id),
            (&tile::IOTA, Self::lower_iota),
            (&tile::VALID, Self::lower_valid),
            (&tile::LOAD, Self::lower_load),
            (&tile::STORE, Self::lower_store),
            (&tile::MAP, Self::lower_map),
            (&tile::BROADCAST, Self::lower_broadcast),
            (&tile::REDUCE, Self::lower_reduce),
            (&tile::TRANSFER, Self::lower_transfer),
            (&tile::GEMM, Self::lower_gemm),
            (&tile::FOR, Self::lower_tile_for),
        ];
        let name = self.ctx.op_name(op);
        rules.iter().find(|(s, _)| s.name == name).map(|(_, r)| *r)
    }

    pub(super) fn lower_op_blocked(&mut self, op: Op) -> Result<(), Diagnostic> {
        match self.rule(op) {
            Some(rule) => rule(self, op),
            None => self.lower_other(op),
        }
    }

    /// `tile.return`: `gpu.return`.
    fn lower_return(&mut self, _: Op) -> Result<(), Diagnostic> {
        gb::return_(self);
        Ok(())
    }

    /// `tile.program_id`: the block's id along its axis.
    fn lower_program_id(&mut self, op: Op) -> Result<(), Diagnostic> {
        let id = tile::ProgramId::wrap(op).id(self.ctx);
        let axis = self.int(op, "axis").clamp(0, 2) as usize;
        let v = gb::block_id(self, aic_dialects::gpu::Dim::ALL[axis]);
        self.map.values.insert(id, v);
        Ok(())
    }

    /// `tile.iota`: each element's index along `dim`.
    fn lower_iota(&mut self, op: Op) -> Result<(), Diagnostic> {
        let r = tile::Iota::wrap(op).result(self.ctx);
        let dim = self.int(op, "dim") as usize;
        self.fill(op, r, &mut |s, _, e, t| {
            let idx = s.unravel(e, &t.shape);
            Ok(if matches!(s.ctx.type_kind(t.elem), TypeKind::Index) {
                idx[dim]
            } else {
                ab::cast::<arith::IndexCast>(s, idx[dim], t.elem)
            })
        })?;
        Ok(())
    }

    /// `tile.valid`: whether each element's index is in range.
    fn lower_valid(&mut self, op: Op) -> Result<(), Diagnostic> {
        let v = tile::Valid::wrap(op);
        let origin = self.scalars(v.origin(self.ctx));
        self.masked(op, v.result(self.ctx), None, origin)
    }

    /// `tile.load`: each element read where its index is in range, else
    /// zero (a load that a padded transfer reads straight from memory
    /// lowers with it).
    fn lower_load(&mut self, op: Op) -> Result<(), Diagnostic> {
        if self.mma.is_direct(op) {
            return Ok(());
        }
        let l = tile::Load::wrap(op);
        let buf = self.map.value(l.buffer(self.ctx));
        let origin = self.scalars(l.origin(self.ctx));
        self.masked(op, l.result(self.ctx), Some(buf), origin)
    }

    /// Result `r` of a load from `buf` (or of a valid, without one) at
    /// `origin`.
    fn masked(
        &mut self,
        op: Op,
        r: Value,
        buf: Option<Value>,
        origin: Vec<Value>,
    ) -> Result<(), Diagnostic> {
        let d = match buf {
            Some(b) => {
                let shape = self.buffers[&b].clone();
                self.desc(op, &shape)?
            }
            None => self.desc(op, &[])?,
        };
        self.fill(op, r, &mut |s, _, e, t| {
            let idx = s.unravel(e, &t.shape);
            let (off, ok) = s.locate(&d, &origin, &idx);
            let Some(b) = buf else { return Ok(ok) };
            let zero = ab::index(s, 0);
            let safe = ab::select(s, ok, off, zero);
            let x = mb::load(s, b, &[safe]);
            let z = ab::number(s, 0.0, t.elem);
            Ok(ab::select(s, ok, x, z))
        })?;
        Ok(())
    }

    /// `tile.store`: each element written where its index is in range.
    fn lower_store(&mut self, op: Op) -> Result<(), Diagnostic> {
        let st = tile::Store::wrap(op);
        let value = st.value(self.ctx);
        let buf = self.map.value(st.buffer(self.ctx));
        let origin = self.scalars(st.origin(self.ctx));
        let shape = self.buffers[&buf].clone();
        let d = self.desc(op, &shape)?;
        let (l, t) = self.tiles[&value].clone();
        let n: i64 = t.shape.iter().product();
        self.each(n, &mut |s, j, e| {
            let idx = s.unravel(e, &t.shape);
            let (off, ok) = s.locate(&d, &origin, &idx);
            let x = s.own(l, j, e);
            s.when(ok, &mut |s| {
                mb::store(s, x, buf, &[off]);
                Ok(())
            })
        })?;
        Ok(())
    }

    /// `tile.map`: its body run on each element (by every thread for replicated tiles, on a thread's rows for sliced ones).
    fn lower_map(&mut self, op: Op) -> Result<(), Diagnostic> {
        let m = tile::Map::wrap(op);
        let ctx = &*self.ctx;
        let operands = m.inputs(ctx).to_vec();
        let r = m.result(ctx);
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
        fill(self, op, r, &mut |s, j, e, _| {
            for (p, l) in params.iter().zip(&ins) {
                let x = s.own(*l, j, e);
                s.map.values.insert(*p, x);
            }
            let mut out = None;
            for o in &body_ops {
                if let Some(y) = tile::Yield::of(s.ctx, *o) {
                    out = y.values(s.ctx).first().map(|v| s.map.value(*v));
                } else {
                    let c = s.ctx.clone_op(*o, &mut s.map);
                    s.ctx.append_op(s.block, c);
                }
            }
            out.ok_or_else(|| err(s.ctx, op, "a map body yields nothing"))
        })?;
        Ok(())
    }

    /// `tile.broadcast`: of a scalar, a sliced tile back over its rows, a replicated tile, or any other through shared memory.
    fn lower_broadcast(&mut self, op: Op) -> Result<(), Diagnostic> {
        let b = tile::Broadcast::wrap(op);
        let ctx = &*self.ctx;
        let input = b.input(ctx);
        let r = b.result(ctx);
        let dims = i64_array_attr(ctx, op, "dims").unwrap_or_default();
        match self.tiles.get(&input).cloned() {
            None => {
                let x = self.map.value(input);
                self.fill(op, r, &mut |_, _, _, _| Ok(x))?;
            }
            Some((L::Sliced(arr, sl), _)) => {
                // Back over the rows it came from: slot q's row.
                let v = sl.v * sl.per;
                self.fill(op, r, &mut |s, j, _, _| {
                    let q = match s.const_index(j) {
                        Some(j) => ab::index(s, j / v),
                        None => {
                            let vc = ab::index(s, v);
                            ab::binary::<arith::DivUI>(s, j, vc)
                        }
                    };
                    Ok(mb::load(s, arr, &[q]))
                })?;
            }
            Some((L::Repl(arr), src)) => {
                self.fill(op, r, &mut |s, _, e, t| {
                    let lin = s.broadcast_source(e, &t.shape, &dims, &src.shape);
                    Ok(s.pick(arr, lin))
                })?;
            }
            Some((_, src)) => {
                let (view, ex) = self.readable(input)?;
                self.fill(op, r, &mut |s, _, e, t| {
                    let lin = s.broadcast_source(e, &t.shape, &dims, &src.shape);
                    Ok(mb::load(s, view, &[lin]))
                })?;
                self.release(ex);
            }
        }
        Ok(())
    }

    /// `tile.reduce`: by warp shuffles, sliced, by partials through shared memory, or element by element from shared memory.
    fn lower_reduce(&mut self, op: Op) -> Result<(), Diagnostic> {
        let red = tile::Reduce::wrap(op);
        let (input, r) = (red.input(self.ctx), red.result(self.ctx));
        let axis = self.int(op, "axis") as usize;
        let kind = self.reduce_kind(op);
        let src = self.tile_of(op, input)?;
        let float = matches!(self.ctx.type_kind(src.elem), TypeKind::Float(_));
        let (init, combine) = combiner(kind, float);
        let n: i64 = src.shape.iter().product();
        let rows = n / src.shape[axis];
        let (l, _) = self.tiles[&input].clone();
        match l {
            // Few results, threads in warps: partials folded across
            // each warp by shuffles, results in every thread.
            L::Dist(arr) if self.shuffles(&src, axis) => {
                self.reduce_warps(r, arr, &src, axis, init, combine)?;
            }
            // Rows within a warp's reach: the results stay where
            // the rows were.
            L::Dist(arr) if self.slice_of(&src, axis).is_some() => {
                let sl = self.slice_of(&src, axis).expect("just checked");
                self.reduce_sliced(r, arr, &src, sl, combine)?;
            }
            // Fewer partial results than elements: each thread
            // reduces what it holds, then threads combine the
            // partials (rows x threads of them) through shared memory.
            L::Dist(arr) if rows * self.threads < n => {
                self.reduce_partials(op, r, arr, &src, axis, init, combine)?;
            }
            _ => {
                let (view, ex) = self.readable(input)?;
                self.fill(op, r, &mut |s, _, e, t| {
                    let idx = s.unravel(e, &t.shape);
                    let init = ab::number(s, init, t.elem);
                    let (lo, hi, one) = (
                        ab::index(s, 0),
                        ab::index(s, src.shape[axis]),
                        ab::index(s, 1),
                    );
                    let shape = src.shape.clone();
                    let r = s.for_loop(lo, hi, one, &[init], &mut |s, k, acc| {
                        let mut at = idx.clone();
                        at.insert(axis, k);
                        let lin = s.ravel(&at, &shape);
                        let x = mb::load(s, view, &[lin]);
                        Ok(vec![combine.apply(s, acc[0], x)])
                    })?;
                    Ok(r[0])
                })?;
                self.release(ex);
            }
        }
        Ok(())
    }

    /// `tile.transfer`: to its shared region (padded for ldmatrix where tensor cores read it), or a copy in registers.
    fn lower_transfer(&mut self, op: Op) -> Result<(), Diagnostic> {
        if let Some(stride) = self.mma.padded(op) {
            let at = self.transfer_at[&op];
            return self.padded_transfer(op, at, stride);
        }
        let tr = tile::Transfer::wrap(op);
        let input = tr.input(self.ctx);
        let r = tr.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let (l, _) = self.tiles[&input].clone();
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
        Ok(())
    }

    /// `tile.gemm`: on tensor cores where planned, else each thread's sums over k from shared memory.
    fn lower_gemm(&mut self, op: Op) -> Result<(), Diagnostic> {
        if self.mma.is_mma(op) {
            return self.mma_gemm(op);
        }
        let g = tile::Gemm::wrap(op);
        let (ga, gb_, gacc) = (g.a(self.ctx), g.b(self.ctx), g.acc(self.ctx));
        let (a, b) = (self.tile_of(op, ga)?, self.tile_of(op, gb_)?);
        let r = g.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let (acc, _) = self.tiles[&gacc].clone();
        let (av, ea) = self.readable(ga)?;
        let (bv, eb) = self.readable(gb_)?;
        let (kk, nn) = (a.shape[1], b.shape[1]);
        let float = matches!(self.ctx.type_kind(t.elem), TypeKind::Float(_));
        let (mul, add) = if float {
            (Combine::MulF, Combine::AddF)
        } else {
            (Combine::MulI, Combine::AddI)
        };
        // k outermost: a thread's sums stay in its (register)
        // array while it walks k, reading A and B once per step.
        let n: i64 = t.shape.iter().product();
        let sums = self.alloca(n, t.elem);
        self.copy_into(acc, n, sums, false)?;
        let (lo, hi, one) = (ab::index(self, 0), ab::index(self, kk), ab::index(self, 1));
        self.for_loop(lo, hi, one, &[], &mut |s, k, _| {
            s.each(n, &mut |s, j, e| {
                let idx = s.unravel(e, &t.shape);
                let (i, col) = (idx[0], idx[1]);
                let ka = ab::index(s, kk);
                let ia = ab::binary::<arith::MulI>(s, i, ka);
                let ia = ab::binary::<arith::AddI>(s, ia, k);
                let na = ab::index(s, nn);
                let ib = ab::binary::<arith::MulI>(s, k, na);
                let ib = ab::binary::<arith::AddI>(s, ib, col);
                let x = mb::load(s, av, &[ia]);
                let y = mb::load(s, bv, &[ib]);
                let (x, y) = (s.convert(x, t.elem), s.convert(y, t.elem));
                let p = mul.apply(s, x, y);
                let sum = mb::load(s, sums, &[j]);
                let sum = add.apply(s, sum, p);
                mb::store(s, sum, sums, &[j]);
                Ok(())
            })?;
            Ok(Vec::new())
        })?;
        self.tiles.insert(r, (L::Dist(sums), t));
        self.release(ea || eb);
        Ok(())
    }

    /// `tile.for`: pipelined where planned, else an `scf.for`.
    fn lower_tile_for(&mut self, op: Op) -> Result<(), Diagnostic> {
        match self.mma.pipe(op) {
            Some(p) => self.lower_pipelined(op, &p),
            None => self.lower_for(op),
        }
    }

    /// An op this pass does not know: copied, unless it is on tiles or gives one.
    fn lower_other(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = &*self.ctx;
        if ctx.operands(op).iter().any(|v| self.tiles.contains_key(v))
            || ctx
                .results(op)
                .any(|r| tile::tile_type(ctx.uniquer(), ctx.value_type(r)).is_some())
        {
            return Err(err(
                ctx,
                op,
                format!("cannot lower '{}' on tiles", ctx.op_name(op)),
            ));
        }
        let c = self.ctx.clone_op(op, &mut self.map);
        self.ctx.append_op(self.block, c);
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
                ab::cast::<arith::ExtF>(self, x, ty)
            }
            (TypeKind::Float(_), TypeKind::Float(_)) => ab::cast::<arith::TruncF>(self, x, ty),
            _ => x,
        }
    }

    /// `tile.for`: an `scf.for` whose scalar iteration values are its own;
    /// a tile carried through the loop lives in one array, copied into at
    /// the end of each iteration.
    fn lower_for(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = &*self.ctx;
        let f = tile::For::wrap(op);
        let (lb, ub, step) = (
            self.map.value(f.lower(ctx)),
            self.map.value(f.upper(ctx)),
            self.map.value(f.step(ctx)),
        );
        let inits = f.inits(ctx).to_vec();
        let body = body_of(ctx, op, "a loop")?;
        let bargs = ctx.block_args(body).to_vec();
        let results: Vec<Value> = ctx.results(op).collect();
        let body_ops: Vec<Op> = ctx.block_ops(body).collect();
        // A carried tile that a row reduction in the body gives is carried
        // sliced, as the reduction leaves it.
        let yielded: Vec<Value> = body_ops
            .iter()
            .find_map(|o| tile::Yield::of(ctx, *o))
            .map(|y| y.values(ctx).to_vec())
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
                let Some(y) = tile::Yield::of(s.ctx, *o) else {
                    s.lower_op(*o)?;
                    continue;
                };
                let vals = y.values(s.ctx).to_vec();
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
