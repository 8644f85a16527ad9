//! Reductions of spread tiles (by warp shuffles, sliced where their rows
//! lie, by partials through shared memory) and the layouts they leave:
//! replicated and sliced tiles.

use super::{Combine, ElementOf, L, Lower, REPLICATED, Slice, blocked_slice, err, warp_rows};
use aic::Diagnostic;
use aic::ir::{Op, Value};
use aic::op_def::OpHandle;
use aic_dialects::arith;
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::memref::build as mb;
use aic_dialects::tile::{self, TileType};

impl Lower<'_> {
    /// This thread's partials of a reduction of spread tile `arr` (of type
    /// `src`) along `axis`: a private array of one per result element,
    /// starting at `init`, each of the thread's elements folded into its
    /// result's. With `by_select` (few results) every slot is written at a
    /// constant index, the element's own chosen by selects, so that the
    /// array stays in registers.
    pub(super) fn thread_partials(
        &mut self,
        arr: Value,
        src: &TileType,
        axis: usize,
        init: f64,
        combine: Combine,
        by_select: bool,
    ) -> Result<Value, Diagnostic> {
        let n: i64 = src.shape.iter().product();
        let rows = n / src.shape[axis];
        let mut out_shape = src.shape.clone();
        out_shape.remove(axis);
        let part = self.private(rows, src.elem);
        let first = ab::number(self, init, src.elem);
        if by_select {
            for i in 0..rows {
                let i = ab::index(self, i);
                mb::store(self, first, part, &[i]);
            }
        } else {
            let (lo, hi, one) = (
                ab::index(self, 0),
                ab::index(self, rows),
                ab::index(self, 1),
            );
            self.for_loop(lo, hi, one, &[], &mut |s, o, _| {
                mb::store(s, first, part, &[o]);
                Ok(Vec::new())
            })?;
        }
        self.each(n, warp_rows::rows_of(src), &mut |s, j, e| {
            let x = mb::load(s, arr, &[j]);
            let mut idx = s.unravel(e, &src.shape);
            idx.remove(axis);
            let o = s.ravel(&idx, &out_shape);
            if !by_select {
                let p = mb::load(s, part, &[o]);
                let y = combine.apply(s, p, x);
                mb::store(s, y, part, &[o]);
                return Ok(());
            }
            for i in 0..rows {
                let ic = ab::index(s, i);
                let p = mb::load(s, part, &[ic]);
                let y = combine.apply(s, p, x);
                let y = if rows == 1 {
                    y
                } else {
                    let mine = ab::cmpi(s, CmpIPredicate::Eq, o, ic);
                    ab::select(s, mine, y, p)
                };
                mb::store(s, y, part, &[ic]);
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
    pub(super) fn reduce_partials(
        &mut self,
        op: Op,
        r: Value,
        arr: Value,
        src: &TileType,
        axis: usize,
        init: f64,
        combine: Combine,
    ) -> Result<(), Diagnostic> {
        let t = self.threads;
        let rows = src.shape.iter().product::<i64>() / src.shape[axis];
        let part = self.thread_partials(arr, src, axis, init, combine, false)?;
        let view = self.scratch_view(rows * t, src.elem);
        let tid = self.tid;
        let (lo, hi, one) = (
            ab::index(self, 0),
            ab::index(self, rows),
            ab::index(self, 1),
        );
        self.for_loop(lo, hi, one, &[], &mut |s, o, _| {
            let tc = ab::index(s, t);
            let at = ab::binary::<arith::MulI>(s, o, tc);
            let at = ab::binary::<arith::AddI>(s, at, tid);
            let p = mb::load(s, part, &[o]);
            mb::store(s, p, view, &[at]);
            Ok(Vec::new())
        })?;
        self.barrier();
        self.fill(op, r, &mut |s, _, e, ty| {
            let init = ab::number(s, init, ty.elem);
            let (lo, hi, one) = (ab::index(s, 0), ab::index(s, t), ab::index(s, 1));
            let acc = s.for_loop(lo, hi, one, &[init], &mut |s, k, acc| {
                let tc = ab::index(s, t);
                let at = ab::binary::<arith::MulI>(s, e, tc);
                let at = ab::binary::<arith::AddI>(s, at, k);
                let x = mb::load(s, view, &[at]);
                Ok(vec![combine.apply(s, acc[0], x)])
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
    pub(super) fn reduce_warps(
        &mut self,
        r: Value,
        arr: Value,
        src: &TileType,
        axis: usize,
        init: f64,
        combine: Combine,
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
        let wc = ab::index(self, w);
        let lane = ab::binary::<arith::RemUI>(self, tid, wc);
        let warp = ab::binary::<arith::DivUI>(self, tid, wc);
        let zero = ab::index(self, 0);
        let leader = ab::cmpi(self, CmpIPredicate::Eq, lane, zero);
        for i in 0..rows {
            let ic = ab::index(self, i);
            let p = mb::load(self, part, &[ic]);
            let v = self.butterfly(p, w, combine);
            match view {
                None => mb::store(self, v, res, &[ic]),
                Some(view) => {
                    let base = ab::index(self, i * warps);
                    let at = ab::binary::<arith::AddI>(self, base, warp);
                    self.when(leader, &mut |s| {
                        mb::store(s, v, view, &[at]);
                        Ok(())
                    })?;
                }
            }
        }
        if let Some(view) = view {
            self.barrier();
            for i in 0..rows {
                let acc = self.fold(warps, combine, &mut |s, k| {
                    let at = ab::index(s, i * warps + k);
                    mb::load(s, view, &[at])
                });
                let ic = ab::index(self, i);
                mb::store(self, acc, res, &[ic]);
            }
            self.release(true);
        }
        let rt = TileType {
            shape: out_shape,
            layout: None,
            ..src.clone()
        };
        self.tiles.insert(r, (L::Repl(res), rt));
        Ok(())
    }

    /// A replicated tile for result `r` of `op`: every thread computes each
    /// of its elements, `f(e, e)` giving element `e` (a constant).
    pub(super) fn fill_replicated(
        &mut self,
        op: Op,
        r: Value,
        f: &mut ElementOf<'_, Self>,
    ) -> Result<(), Diagnostic> {
        let t = self.tile_of(op, r)?;
        let n: i64 = t.shape.iter().product();
        let arr = self.private(n, t.elem);
        for e in 0..n {
            let e = ab::index(self, e);
            let x = f(self, e, e, &t)?;
            mb::store(self, x, arr, &[e]);
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
    pub(super) fn shuffles(&self, src: &TileType, axis: usize) -> bool {
        let n: i64 = src.shape.iter().product();
        let len = src.shape[axis];
        let rows = n / len;
        let span = self.threads * self.vector(n);
        self.warp > 0
            && warp_rows::rows_of(src).is_none()
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
    pub(super) fn slice_of(&self, src: &TileType, axis: usize) -> Option<Slice> {
        let n: i64 = src.shape.iter().product();
        let len = src.shape[axis];
        if axis + 1 != src.shape.len() {
            return None;
        }
        warp_rows::rows_of(src)
            .filter(|sl| sl.len == len)
            .or_else(|| blocked_slice(self.threads, self.warp, n, len))
    }

    /// The rows a thread holds part of (the slots of a sliced tile).
    pub(super) fn runs(&self, sl: Slice) -> i64 {
        sl.n / (sl.len * sl.step)
    }

    /// The row of slot `q` of this thread.
    pub(super) fn slice_row(&mut self, sl: Slice, q: i64) -> Value {
        let step = sl.step;
        let tid = self.tid;
        let gc = ab::index(self, sl.group);
        let within = ab::binary::<arith::DivUI>(self, tid, gc);
        let base = ab::index(self, q * step);
        ab::binary::<arith::AddI>(self, base, within)
    }

    /// `tile.reduce` of spread tile `arr` along its last axis into `r`,
    /// sliced: each thread folds each run, and the group of lanes holding
    /// a row combines theirs by butterfly shuffles within the group (within
    /// each warp of it, then the warps' results through shared memory when
    /// a group spans several).
    pub(super) fn reduce_sliced(
        &mut self,
        r: Value,
        arr: Value,
        src: &TileType,
        sl: Slice,
        combine: Combine,
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
                        let j = ab::index(s, (q * sl.per + p) * sl.v + k);
                        mb::load(s, arr, &[j])
                    })
                })
                .collect();
            let run = self.pairwise(parts, combine);
            let v = self.butterfly(run, lanes, combine);
            let qc = ab::index(self, q);
            mb::store(self, v, out, &[qc]);
        }
        if let Some(view) = across {
            // The first lane of each warp leaves the warp's result at
            // (row, warp within the row's group); every thread folds its
            // rows' slots.
            let tid = self.tid;
            let (wc, gc, pc) = (
                ab::index(self, self.warp),
                ab::index(self, sl.group),
                ab::index(self, per_row),
            );
            let lane = ab::binary::<arith::RemUI>(self, tid, wc);
            let zero = ab::index(self, 0);
            let first = ab::cmpi(self, CmpIPredicate::Eq, lane, zero);
            let in_group = ab::binary::<arith::RemUI>(self, tid, gc);
            let which = ab::binary::<arith::DivUI>(self, in_group, wc);
            let mut rows = Vec::new();
            for q in 0..runs {
                let row = self.slice_row(sl, q);
                let base = ab::binary::<arith::MulI>(self, row, pc);
                let at = ab::binary::<arith::AddI>(self, base, which);
                let qc = ab::index(self, q);
                let x = mb::load(self, out, &[qc]);
                self.when(first, &mut |s| {
                    mb::store(s, x, view, &[at]);
                    Ok(())
                })?;
                rows.push(base);
            }
            self.barrier();
            for (q, base) in rows.into_iter().enumerate() {
                let acc = self.fold(per_row, combine, &mut |s, k| {
                    let kc = ab::index(s, k);
                    let at = ab::binary::<arith::AddI>(s, base, kc);
                    mb::load(s, view, &[at])
                });
                let qc = ab::index(self, q as i64);
                mb::store(self, acc, out, &[qc]);
            }
            self.release(true);
        }
        let mut shape = src.shape.clone();
        shape.pop();
        let rt = TileType {
            shape,
            layout: None,
            ..src.clone()
        };
        self.tiles.insert(r, (L::Sliced(out, sl), rt));
        Ok(())
    }

    /// A sliced tile for result `r` of `op` (a map of sliced tiles): `f(q,
    /// row)` gives the element of run `q`, which is row `row`.
    pub(super) fn fill_sliced(
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
            let qc = ab::index(self, q);
            let x = f(self, qc, row, &t)?;
            mb::store(self, x, out, &[qc]);
        }
        self.tiles.insert(r, (L::Sliced(out, sl), t));
        Ok(())
    }

    /// Whether `op` reads its sliced operands as they are: maps whose
    /// tile operands are all sliced alike, and broadcasts of a sliced tile
    /// back over its rows.
    pub(super) fn takes_sliced(&self, op: Op) -> bool {
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
        if tile::Map::is(ctx, op) {
            let first = ls.first().and_then(slice);
            return first.is_some() && ls.iter().all(|l| slice(l) == first);
        }
        let Some(b) = tile::Broadcast::of(ctx, op) else {
            return false;
        };
        let Some(sl) = ls.first().and_then(slice) else {
            return false;
        };
        let rank = self.tiles[&b.input(ctx)].1.shape.len() as i64;
        let dims = b.dims(ctx).unwrap_or_default();
        let out = tile::tile_type(ctx.uniquer(), ctx.value_type(b.result(ctx)));
        dims == (0..rank).collect::<Vec<_>>()
            && out.is_some_and(|o| {
                o.shape.iter().product::<i64>() == sl.n && o.shape.last() == Some(&sl.len)
            })
    }
}
