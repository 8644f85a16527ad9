//! The per-op lowering of tile ops in the blocked layout: one
//! [`OpLowering`] per way a tile op lowers, rooted at its handle, in the
//! table [`lowerings`] (`aic::conversion`'s out-of-place, 1:N lowerings).
//!
//! The lowering state is [`Lower`]: a tile value becomes many (a thread's
//! array of its elements, a shared view, fragments) and how it lives ([`L`])
//! is in `Lower::tiles`; the plans (tensor-core gemms, padded and direct
//! transfers, pipelines) decide which of an op's lowerings applies.

use super::{Combine, L, Lower, Slice, TileType, body_of, combiner, err, warp_rows};
use aic::Diagnostic;
use aic::conversion::{Lowerings, OpLowering};
use aic::ir::{Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::arith;
use aic_dialects::arith::build as ab;
use aic_dialects::gpu::build as gb;
use aic_dialects::memref::build as mb;
use aic_dialects::{tile, vector};

/// How tile ops lower: one row per way, the planned ways first.
pub(super) fn lowerings<'c>() -> Lowerings<'c, Lower<'c>> {
    let mut l = Lowerings::new();
    l.add(OpLowering::new("return", Lower::lower_return))
        .add(OpLowering::new("program-id", Lower::lower_program_id))
        .add(OpLowering::new("iota", Lower::lower_iota))
        .add(OpLowering::new("valid", Lower::lower_valid))
        .add(OpLowering::new("direct-load", Lower::lower_direct_load).with_benefit(2))
        .add(OpLowering::new("load", Lower::lower_load))
        .add(OpLowering::new("store", Lower::lower_store))
        .add(OpLowering::new("map", Lower::lower_map))
        .add(OpLowering::new("broadcast", Lower::lower_broadcast))
        .add(OpLowering::new("reduce", Lower::lower_reduce))
        .add(OpLowering::new("padded-transfer", Lower::lower_padded_transfer).with_benefit(2))
        .add(OpLowering::new("transfer", Lower::lower_transfer))
        .add(OpLowering::new(
            "convert-layout",
            Lower::lower_convert_layout,
        ))
        .add(OpLowering::new("mma-gemm", Lower::lower_mma_gemm).with_benefit(2))
        .add(OpLowering::new("gemm", Lower::lower_gemm))
        .add(OpLowering::new("sparse-gemm", Lower::lower_sparse_gemm))
        .add(OpLowering::new("pipelined-for", Lower::lower_pipelined_for).with_benefit(2))
        .add(OpLowering::new("for", Lower::lower_tile_for));
    l
}

impl<'c> Lower<'c> {
    /// `op` lowered by the first of its lowerings that applies, else
    /// copied (see [`Lower::lower_other`]).
    pub(super) fn lower_op_blocked(&mut self, op: Op) -> Result<(), Diagnostic> {
        let lowerings = self.lowerings.clone();
        match lowerings.lower(self, op) {
            Some(r) => r,
            None => self.lower_other(op),
        }
    }

    /// `tile.return`: `gpu.return`.
    fn lower_return(&mut self, _: tile::Return) -> Result<bool, Diagnostic> {
        if self.block != self.top {
            // A block inside the kernel (a warp-specialised kernel's
            // consumers', a persistent kernel's tile loop) ends; the
            // kernel's return follows it.
            aic_dialects::scf::build::yield_(self, &[]);
            return Ok(true);
        }
        gb::return_(self);
        Ok(true)
    }

    /// `tile.program_id`: the block's id along its axis, or, where the
    /// kernel is persistent or its tiles grouped, its tile's coordinate
    /// (see [`Lower::tile_coordinate`]).
    fn lower_program_id(&mut self, p: tile::ProgramId) -> Result<bool, Diagnostic> {
        let id = p.id(self.ctx);
        let axis = p.axis(self.ctx).unwrap_or(0).clamp(0, 2) as usize;
        let v = match self.grid_loop {
            Some(ti) => self.tile_coordinate(ti.t, axis),
            None if self.order.grouped() => {
                // The block's place in launch order (x fastest).
                let g = self.order.grid;
                let mut t = gb::block_id(self, aic_dialects::gpu::Dim::X);
                for (d, below) in [(1, g[0]), (2, g[0] * g[1])] {
                    let b = gb::block_id(self, aic_dialects::gpu::Dim::ALL[d]);
                    let s = ab::index(self, below);
                    let bs = ab::binary::<arith::MulI>(self, b, s);
                    t = ab::binary::<arith::AddI>(self, t, bs);
                }
                self.tile_coordinate(t, axis)
            }
            None => gb::block_id(self, aic_dialects::gpu::Dim::ALL[axis]),
        };
        self.map.values.insert(id, v);
        Ok(true)
    }

    /// Tile `t`'s coordinate along `axis`, `t` counting the grid's tiles
    /// in the kernel's order: axis 0 fastest, or, grouped (`group = g`),
    /// `g` tiles down axis 0 at a time before the next along axis 1 (the
    /// last group shorter where `g` does not divide axis 0), each plane of
    /// axis 2 in turn.
    fn tile_coordinate(&mut self, t: Value, axis: usize) -> Value {
        let g = self.order.grid;
        if !self.order.grouped() || axis == 2 {
            // t = t0 + g0 (t1 + g1 t2).
            let below: i64 = g[..axis].iter().product();
            let d = ab::index(self, below);
            let q = ab::binary::<arith::DivUI>(self, t, d);
            if axis == 2 {
                return q;
            }
            let n = ab::index(self, g[axis]);
            return ab::binary::<arith::RemUI>(self, q, n);
        }
        let group = self.order.group;
        let plane = ab::index(self, g[0] * g[1]);
        let r = ab::binary::<arith::RemUI>(self, t, plane);
        // The group's tiles: `group` rows by every column.
        let per = ab::index(self, group * g[1]);
        let which = ab::binary::<arith::DivUI>(self, r, per);
        let within = ab::binary::<arith::RemUI>(self, r, per);
        let gc = ab::index(self, group);
        let first = ab::binary::<arith::MulI>(self, which, gc);
        // Its height: `group`, but the rows left in the last one.
        let height = if g[0] % group == 0 {
            gc
        } else {
            let rows = ab::index(self, g[0]);
            let left = ab::binary::<arith::SubI>(self, rows, first);
            ab::binary::<arith::MinSI>(self, left, gc)
        };
        if axis == 0 {
            let down = ab::binary::<arith::RemUI>(self, within, height);
            ab::binary::<arith::AddI>(self, first, down)
        } else {
            ab::binary::<arith::DivUI>(self, within, height)
        }
    }

    /// `tile.iota`: each element's index along `dim`.
    fn lower_iota(&mut self, i: tile::Iota) -> Result<bool, Diagnostic> {
        let r = i.result(self.ctx);
        let dim = i.dim(self.ctx).unwrap_or(0) as usize;
        self.fill(i.op(), r, &mut |s, _, e, t| {
            let idx = s.unravel(e, &t.shape);
            Ok(if matches!(s.ctx.type_kind(t.elem), TypeKind::Index) {
                idx[dim]
            } else {
                ab::cast::<arith::IndexCast>(s, idx[dim], t.elem)
            })
        })?;
        Ok(true)
    }

    /// `tile.valid`: whether each element's index is in range.
    fn lower_valid(&mut self, v: tile::Valid) -> Result<bool, Diagnostic> {
        let origin = self.scalars(v.origin(self.ctx));
        self.masked(v.op(), v.result(self.ctx), None, origin)?;
        Ok(true)
    }

    /// A `tile.load` that a padded transfer reads straight from memory:
    /// nothing here, it lowers with the transfer.
    fn lower_direct_load(&mut self, l: tile::Load) -> Result<bool, Diagnostic> {
        Ok(super::shared_layout::is_direct(self.ctx, l.op()))
    }

    /// `tile.load`: each element read where its index is in range, else
    /// zero.
    fn lower_load(&mut self, l: tile::Load) -> Result<bool, Diagnostic> {
        let buf = self.map.value(l.buffer(self.ctx));
        let origin = self.scalars(l.origin(self.ctx));
        if self.vector_load(l, buf, &origin)? {
            return Ok(true);
        }
        self.masked(l.op(), l.result(self.ctx), Some(buf), origin)?;
        Ok(true)
    }

    /// `tile.load` by runs of one aligned vector each, where
    /// [`Lower::vector_width`] allows (a run is wholly inside the buffer's
    /// range or wholly outside, so one test masks it); whether it was.
    fn vector_load(
        &mut self,
        l: tile::Load,
        buf: Value,
        origin: &[Value],
    ) -> Result<bool, Diagnostic> {
        let (op, r) = (l.op(), l.result(self.ctx));
        let shape = self.buffers[&buf].clone();
        let d = self.desc(op, &shape)?;
        let t = self.tile_of(op, r)?;
        let last = l.origin(self.ctx).last().copied();
        let Some(v) = last.and_then(|o| self.vector_width(l.buffer(self.ctx), o, &d, &t)) else {
            return Ok(false);
        };
        let n: i64 = t.shape.iter().product();
        let arr = self.alloca(n, t.elem);
        let (vt, align) = self.vector_of(v, t.elem);
        // The thread's array is aligned to its elements only.
        let (_, elem_align) = self.vector_of(1, t.elem);
        self.each_run(n, warp_rows::rows_of(&t), v, &mut |s, j, e| {
            let idx = s.unravel(e, &t.shape);
            let (off, ok) = s.locate(&d, origin, &idx);
            let zero = ab::index(s, 0);
            let safe = ab::select(s, ok, off, zero);
            let x = vector::Load::build(s, buf, &[safe], Some(align), vt).result(s.ctx);
            // The run masked and kept whole: a vector load read only by
            // element extracts is split into scalar loads by LLVM's
            // vector combining, which then cannot prove the pieces'
            // alignment (an attention's Q tile read 2 bytes a load).
            let z = ab::number(s, 0.0, t.elem);
            let zs = vec![z; v as usize];
            let zv = vector::FromElements::build(s, &zs, vt).result(s.ctx);
            let y = ab::select(s, ok, x, zv);
            vector::Store::build(s, y, arr, &[j], Some(elem_align));
            Ok(())
        })?;
        self.tiles.insert(r, (L::Dist(arr), t));
        Ok(true)
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
    fn lower_store(&mut self, st: tile::Store) -> Result<bool, Diagnostic> {
        let op = st.op();
        let value = st.value(self.ctx);
        let buf = self.map.value(st.buffer(self.ctx));
        let origin = self.scalars(st.origin(self.ctx));
        let shape = self.buffers[&buf].clone();
        let d = self.desc(op, &shape)?;
        let (l, t) = self.tiles[&value].clone();
        let n: i64 = t.shape.iter().product();
        let last = st.origin(self.ctx).last().copied();
        let width = last.and_then(|o| self.vector_width(st.buffer(self.ctx), o, &d, &t));
        if let (L::Dist(arr), Some(v)) = (l, width) {
            // Runs of `v` stored as one aligned vector each.
            self.each_run(n, warp_rows::rows_of(&t), v, &mut |s, j, e| {
                let idx = s.unravel(e, &t.shape);
                let (off, ok) = s.locate(&d, &origin, &idx);
                let xs: Vec<Value> = (0..v)
                    .map(|k| {
                        let jk = s.plus(j, k);
                        mb::load(s, arr, &[jk])
                    })
                    .collect();
                s.store_run(ok, &xs, buf, off)
            })?;
            return Ok(true);
        }
        self.each(n, warp_rows::rows_of(&t), &mut |s, j, e| {
            let idx = s.unravel(e, &t.shape);
            let (off, ok) = s.locate(&d, &origin, &idx);
            let x = s.own(l, j, e);
            s.when(ok, &mut |s| {
                mb::store(s, x, buf, &[off]);
                Ok(())
            })
        })?;
        Ok(true)
    }

    /// `tile.map`: its body run on each element (by every thread for replicated tiles, on a thread's rows for sliced ones).
    fn lower_map(&mut self, m: tile::Map) -> Result<bool, Diagnostic> {
        let op = m.op();
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
        Ok(true)
    }

    /// `tile.broadcast`: of a scalar, a sliced tile back over its rows, a replicated tile, or any other through shared memory.
    fn lower_broadcast(&mut self, b: tile::Broadcast) -> Result<bool, Diagnostic> {
        let op = b.op();
        let ctx = &*self.ctx;
        let input = b.input(ctx);
        let r = b.result(ctx);
        let dims = b.dims(ctx).unwrap_or_default();
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
        Ok(true)
    }

    /// `tile.reduce`: by warp shuffles, sliced, by partials through shared memory, or element by element from shared memory.
    fn lower_reduce(&mut self, red: tile::Reduce) -> Result<bool, Diagnostic> {
        let op = red.op();
        let (input, r) = (red.input(self.ctx), red.result(self.ctx));
        let axis = red.axis(self.ctx).unwrap_or(0) as usize;
        let kind = red.kind(self.ctx).unwrap_or(tile::ReduceKind::Sum);
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
        Ok(true)
    }

    /// A `tile.transfer` tensor cores read: to its shared region, padded
    /// for ldmatrix.
    fn lower_padded_transfer(&mut self, tr: tile::Transfer) -> Result<bool, Diagnostic> {
        let op = tr.op();
        let Some((stride, _, _)) = super::shared_layout::lines(self.ctx, op) else {
            return Ok(false);
        };
        let at = self.transfer_at[&op];
        self.padded_transfer(op, at, stride)?;
        Ok(true)
    }

    /// `tile.transfer`: to its shared region, or a copy in registers.
    fn lower_transfer(&mut self, tr: tile::Transfer) -> Result<bool, Diagnostic> {
        let op = tr.op();
        let input = tr.input(self.ctx);
        let r = tr.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let (l, it) = self.tiles[&input].clone();
        let n: i64 = t.shape.iter().product();
        match self.transfer_at.get(&op).copied() {
            Some(at) => {
                let view = self.shared_view(at, n, t.elem);
                // Until every thread has read what the last transfer
                // left here (the previous loop iteration's tile).
                self.barrier();
                self.copy_into(l, &it, view, true)?;
                self.barrier();
                self.tiles.insert(r, (L::Shared(view), t));
            }
            None => self.fill(op, r, &mut |s, j, e, _| Ok(s.own(l, j, e)))?,
        }
        Ok(true)
    }

    /// `tile.convert_layout`: the input as it is where the result's
    /// layout distributes its elements alike (the same warp rows, or
    /// blocked; fragments the op reads were spread blocked before it), else
    /// each thread reading its elements of the result from where every
    /// thread can read the input. Shared tiles change layout only where
    /// their lowering stores them alike.
    fn lower_convert_layout(&mut self, c: tile::ConvertLayout) -> Result<bool, Diagnostic> {
        let op = c.op();
        let (input, r) = (c.input(self.ctx), c.result(self.ctx));
        let (it, t) = (self.tile_of(op, input)?, self.tile_of(op, r)?);
        let (l, _) = self.tiles[&input].clone();
        let alike = warp_rows::rows_of(&it) == warp_rows::rows_of(&t);
        match l {
            L::Shared(_) if it.layout != t.layout => Err(err(
                self.ctx,
                op,
                "converting a shared tile between layouts (use tile.transfer from registers)",
            )),
            L::Shared(_) | L::Repl(_) => {
                self.tiles.insert(r, (l, t));
                Ok(true)
            }
            L::Dist(_) | L::Sliced(..) if alike => {
                self.tiles.insert(r, (l, t));
                Ok(true)
            }
            L::Dist(_) | L::Sliced(..) => {
                let (view, ex) = self.readable(input)?;
                self.fill(op, r, &mut |s, _, e, _| Ok(mb::load(s, view, &[e])))?;
                self.release(ex);
                Ok(true)
            }
        }
    }

    /// A `tile.gemm` planned for tensor cores (see [`super::mma`]).
    fn lower_mma_gemm(&mut self, g: tile::Gemm) -> Result<bool, Diagnostic> {
        if !self.mma.is_mma(g.op()) {
            return Ok(false);
        }
        self.mma_gemm(g.op())?;
        Ok(true)
    }

    /// `tile.gemm`: each thread's sums over k from shared memory.
    fn lower_gemm(&mut self, g: tile::Gemm) -> Result<bool, Diagnostic> {
        let op = g.op();
        let (ga, gb_, gacc) = (g.a(self.ctx), g.b(self.ctx), g.acc(self.ctx));
        let (a, b) = (self.tile_of(op, ga)?, self.tile_of(op, gb_)?);
        let r = g.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let (acc, at) = self.tiles[&gacc].clone();
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
        self.copy_into(acc, &at, sums, false)?;
        let rows = warp_rows::rows_of(&t);
        let (lo, hi, one) = (ab::index(self, 0), ab::index(self, kk), ab::index(self, 1));
        self.for_loop(lo, hi, one, &[], &mut |s, k, _| {
            s.each(n, rows, &mut |s, j, e| {
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
        Ok(true)
    }

    /// `tile.sparse_gemm`: each thread's sums over the kept values, K/2
    /// steps from shared memory, each reading A at its value's position
    /// (`4 (r / 2) + meta[r, col]`).
    fn lower_sparse_gemm(&mut self, g: tile::SparseGemm) -> Result<bool, Diagnostic> {
        let op = g.op();
        if self.mma.is_mma(op) {
            self.sparse_mma_gemm(op)?;
            return Ok(true);
        }
        let (ga, gv, gm, gacc) = (
            g.a(self.ctx),
            g.values(self.ctx),
            g.meta(self.ctx),
            g.acc(self.ctx),
        );
        let (a, v) = (self.tile_of(op, ga)?, self.tile_of(op, gv)?);
        let r = g.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let (acc, at) = self.tiles[&gacc].clone();
        let (av, ea) = self.readable(ga)?;
        let (vv, ev) = self.readable(gv)?;
        let (mv, em) = self.readable(gm)?;
        let (kk, half, nn) = (a.shape[1], v.shape[0], v.shape[1]);
        let float = matches!(self.ctx.type_kind(t.elem), TypeKind::Float(_));
        let (mul, add) = if float {
            (Combine::MulF, Combine::AddF)
        } else {
            (Combine::MulI, Combine::AddI)
        };
        let n: i64 = t.shape.iter().product();
        let sums = self.alloca(n, t.elem);
        self.copy_into(acc, &at, sums, false)?;
        let rows = warp_rows::rows_of(&t);
        let index = self.ctx.uniquer().ty(TypeKind::Index);
        let (lo, hi, one) = (
            ab::index(self, 0),
            ab::index(self, half),
            ab::index(self, 1),
        );
        self.for_loop(lo, hi, one, &[], &mut |s, h, _| {
            s.each(n, rows, &mut |s, j, e| {
                let idx = s.unravel(e, &t.shape);
                let (i, col) = (idx[0], idx[1]);
                let na = ab::index(s, nn);
                let iv = ab::binary::<arith::MulI>(s, h, na);
                let iv = ab::binary::<arith::AddI>(s, iv, col);
                let y = mb::load(s, vv, &[iv]);
                let p = mb::load(s, mv, &[iv]);
                let p = ab::cast::<arith::IndexCast>(s, p, index);
                // Group h / 2 starts at K index 4 (h / 2) = 2 (h - h % 2).
                let two = ab::index(s, 2);
                let odd = ab::binary::<arith::RemUI>(s, h, two);
                let even = ab::binary::<arith::SubI>(s, h, odd);
                let base = ab::binary::<arith::MulI>(s, even, two);
                let kcol = ab::binary::<arith::AddI>(s, base, p);
                let ka = ab::index(s, kk);
                let ia = ab::binary::<arith::MulI>(s, i, ka);
                let ia = ab::binary::<arith::AddI>(s, ia, kcol);
                let x = mb::load(s, av, &[ia]);
                let (x, y) = (s.convert(x, t.elem), s.convert(y, t.elem));
                let prod = mul.apply(s, x, y);
                let sum = mb::load(s, sums, &[j]);
                let sum = add.apply(s, sum, prod);
                mb::store(s, sum, sums, &[j]);
                Ok(())
            })?;
            Ok(Vec::new())
        })?;
        self.tiles.insert(r, (L::Dist(sums), t));
        self.release(ea || ev || em);
        Ok(true)
    }

    /// A `tile.for` of `stages` (see [`super::shared_layout`]): a pipeline
    /// (see [`super::mma`]).
    fn lower_pipelined_for(&mut self, f: tile::For) -> Result<bool, Diagnostic> {
        let pipe = super::shared_layout::pipe_of(self.ctx, f.op(), &self.mma, self.kind)?;
        let Some(p) = pipe else {
            return Ok(false);
        };
        self.lower_pipelined(f.op(), &p)?;
        Ok(true)
    }

    /// `tile.for`: an `scf.for` (see [`Lower::lower_for`]).
    fn lower_tile_for(&mut self, f: tile::For) -> Result<bool, Diagnostic> {
        self.lower_for(f.op())?;
        Ok(true)
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

    /// `x` as `ty` (float extension or truncation, integer sign extension;
    /// other integers kept).
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
            // A widened product's i8 operands, signed, into its i32 sums.
            (TypeKind::Integer { width: a, .. }, TypeKind::Integer { width: b, .. }) if a < b => {
                ab::cast::<arith::ExtSI>(self, x, ty)
            }
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
                    self.copy_into(l, &t, arr, false)?;
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
                                s.copy_into(l, t, *arr, false)?;
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
