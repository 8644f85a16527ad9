//! Row vectors of tensor-core fragments: reductions along N of an
//! accumulator held as fragments, the maps and loop carries of their
//! results, their broadcasts back over fragments, and fragments read as a
//! gemm's A operand straight from registers (FlashAttention-2's inner loop
//! on what the tile IR says, not on a recognised pattern).
//!
//! A lane of warp `wy` of a grid with one warp along N (`wn = 1`) holds, in
//! each m16 tile `mi`, rows `wy·M/wm + 16·mi + l/4` and that plus 8 of
//! every n8 tile: a row lies in the lane's quad (lanes `4·(l/4)` to
//! `4·(l/4) + 3`). A reduction along N folds the lane's own slots of each
//! row, then the quad's by `gpu.shuffle xor` 1 and 2, and leaves every
//! lane of the quad the result of its rows: a row vector sliced from the
//! fragment layout, slot `2·mi + h` holding row `16·mi + l/4 + 8·h` (of
//! the warp's block). Maps of such vectors stay there, loops carry them
//! there, and a broadcast back over the rows is read slot by slot by
//! fragment maps. The accumulator layout of two neighbouring n8 tiles is
//! the layout of an m16k16 A fragment, so a gemm whose A is a fragment of
//! a grid with the same rows reads it from registers.

use super::{Frag, Lane, Plan, Unit, Warps, tile_type};
use crate::tile_to_gpu::{Lower, combiner, err};
use aic::Diagnostic;
use aic::ir::{Block, Context, Op, Value, ValueDef};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::arith;
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::memref::build as mb;
use aic_dialects::tile;
use aic_dialects::tile::{TileOp, TileType};
use aic_dialects::vector;
use std::collections::{HashMap, HashSet};

/// The row-vector part of a kernel's tensor-core plan.
#[derive(Default)]
pub(in crate::tile_to_gpu) struct Rows {
    /// Reductions along N of fragments, kept as row vectors.
    pub(super) reduces: HashMap<Op, Warps>,
    /// Maps whose tile operands are all row vectors of one layout.
    pub(super) maps: HashMap<Op, Warps>,
    /// Broadcasts of a row vector over its rows (result to source), read
    /// slot by slot by fragment maps.
    pub(super) bcasts: HashMap<Value, Value>,
    /// Those broadcasts only fragment maps read: not lowered on their own.
    pub(super) bcasts_only_frag: HashSet<Op>,
    /// Loop-carried row vectors: the loop body and the carried value's index.
    pub(super) carried: HashMap<(Block, usize), Warps>,
    /// Gemms reading their A operand from fragments in registers.
    pub(super) a_regs: HashSet<Op>,
}

impl Warps {
    /// The grid of `warps` warps stacked along M (one along N, so that a
    /// row stays within one warp) for an `m x n` accumulator, if it fits.
    fn stacked(m: i64, n: i64, warps: i64) -> Option<Warps> {
        let w = Warps {
            wm: warps,
            wn: 1,
            mt: m / 16 / warps.max(1),
            nt: n / 8,
            unit: Unit::MmaSync,
        };
        (m % (16 * warps) == 0 && n % 8 == 0 && w.mt > 0 && w.slots() <= 128).then_some(w)
    }

    /// Slots a lane holds of a tile of type `t` in this layout: a row
    /// vector's two rows per m16 tile, else the accumulator's.
    pub(super) fn slots_of(&self, t: &TileType) -> i64 {
        if t.shape.len() == 1 {
            2 * self.mt
        } else {
            self.slots()
        }
    }

    /// The row-vector slot holding the row of fragment slot `s`.
    fn row_slot(&self, s: i64) -> i64 {
        let (tile, c) = (s / 4, s % 4);
        2 * (tile / self.nt) + c / 2
    }

    /// Whether a lane holds the same rows in both layouts.
    fn same_rows(&self, o: &Warps) -> bool {
        (self.wm, self.wn, self.mt) == (o.wm, o.wn, o.mt)
    }
}

/// The values a tile value is computed from through maps, broadcasts,
/// reductions and loop carries, down to gemms: the gemms reached.
fn source_gemms(ctx: &Context, v: Value, seen: &mut HashSet<Value>, out: &mut Vec<Op>) {
    if !seen.insert(v) || tile_type(ctx, v).is_none() {
        return;
    }
    let (def, i) = match ctx.value_def(v) {
        ValueDef::Result(d, i) => (d, i as usize),
        ValueDef::Arg(b, idx) => {
            // A loop's carried value: its init and what the body yields.
            let idx = idx as usize;
            let l = ctx.block_parent(b).and_then(|r| ctx.region_parent(r));
            let Some(l) = l.and_then(|l| tile::For::of(ctx, l)).filter(|_| idx > 0) else {
                return;
            };
            if let Some(init) = l.inits(ctx).get(idx - 1) {
                source_gemms(ctx, *init, seen, out);
            }
            if let Some(y) = ctx
                .block_ops(b)
                .last()
                .and_then(|y| tile::Yield::of(ctx, y))
                && let Some(x) = y.values(ctx).get(idx - 1)
            {
                source_gemms(ctx, *x, seen, out);
            }
            return;
        }
        ValueDef::Placeholder => return,
    };
    match TileOp::of(ctx, def) {
        Some(TileOp::Gemm(_)) => out.push(def),
        Some(TileOp::Map(_) | TileOp::Broadcast(_) | TileOp::Reduce(_)) => {
            for x in ctx.operands(def).to_vec() {
                source_gemms(ctx, x, seen, out);
            }
        }
        Some(TileOp::For(f)) => {
            let body = ctx.entry_block(f.body(ctx));
            if let Some(y) = body
                .and_then(|b| ctx.block_ops(b).last())
                .and_then(|y| tile::Yield::of(ctx, y))
                && let Some(x) = y.values(ctx).get(i)
            {
                source_gemms(ctx, *x, seen, out);
            }
        }
        _ => {}
    }
}

/// Gives the tensor-core gemms of kernel `k` whose results' rows are
/// reduced, and those whose A or C operand comes from such rows, warp
/// grids stacked along M (where their accumulators fit), so that a row
/// stays in one warp and one lane holds the same rows in all of them.
pub(super) fn stack_row_gemms(ctx: &Context, k: Op, gemms: &mut HashMap<Op, Warps>, threads: i64) {
    let mut ops = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| ops.push(o));
    let sources = |v: Value| {
        let mut out = Vec::new();
        source_gemms(ctx, v, &mut HashSet::new(), &mut out);
        out
    };
    let mut rowed: HashSet<Op> = HashSet::new();
    for &o in &ops {
        if let Some(red) = tile::Reduce::of(ctx, o)
            && tile_type(ctx, red.input(ctx)).is_some_and(|t| t.shape.len() == 2)
            && red.axis(ctx) == Some(1)
        {
            rowed.extend(sources(red.input(ctx)));
        }
    }
    rowed.retain(|g| gemms.contains_key(g));
    if rowed.is_empty() {
        return;
    }
    // Gemms fed by the reduced rows (an output rescaled by them, the
    // probabilities as A) share their rows.
    loop {
        let more: Vec<Op> = gemms
            .keys()
            .filter(|g| !rowed.contains(*g))
            .filter_map(|g| tile::Gemm::of(ctx, *g))
            .filter(|g| {
                [g.a(ctx), g.acc(ctx)]
                    .iter()
                    .any(|v| sources(*v).iter().any(|s| rowed.contains(s)))
            })
            .map(|g| g.op())
            .collect();
        if more.is_empty() {
            break;
        }
        rowed.extend(more);
    }
    for g in rowed {
        let Some(t) = tile_type(ctx, ctx.result(g, 0)) else {
            continue;
        };
        if let Some(w) = Warps::stacked(t.shape[0], t.shape[1], threads / 32) {
            gemms.insert(g, w);
        }
    }
}

/// Fragment values of a kernel's plan as it is worked out: accumulators
/// (and maps of them), row vectors and broadcasts of row vectors.
#[derive(Default)]
pub(super) struct Held {
    pub(super) frag: HashMap<Value, Warps>,
    pub(super) rows: HashMap<Value, Warps>,
    pub(super) bcast: HashMap<Value, Warps>,
}

/// Plans op `o` if it makes or maps row vectors (a reduction along N of a
/// fragment of a grid with one warp along N, a map of row vectors, a
/// broadcast of one over its rows); gives whether it did.
pub(super) fn plan_row_op(ctx: &Context, o: Op, held: &mut Held, p: &mut Plan) -> bool {
    let Some(r) = ctx.results(o).next() else {
        return false;
    };
    let Some(rt) = tile_type(ctx, r) else {
        return false;
    };
    match TileOp::of(ctx, o) {
        Some(TileOp::Reduce(red)) => {
            let Some(w) = held.frag.get(&red.input(ctx)).copied() else {
                return false;
            };
            // The quad shuffles read mma.sync's layout (MFMA keeps the
            // blocked path).
            if w.unit != Unit::MmaSync
                || w.wn != 1
                || red.axis(ctx) != Some(1)
                || rt.shape.len() != 1
            {
                return false;
            }
            held.rows.insert(r, w);
            p.rows.reduces.insert(o, w);
            true
        }
        Some(TileOp::Map(m)) if rt.shape.len() == 1 => {
            let operands = m.inputs(ctx);
            let Some(w) = operands.first().and_then(|v| held.rows.get(v)).copied() else {
                return false;
            };
            if !operands.iter().all(|v| held.rows.get(v) == Some(&w)) {
                return false;
            }
            held.rows.insert(r, w);
            p.rows.maps.insert(o, w);
            true
        }
        Some(TileOp::Broadcast(b)) => {
            let input = b.input(ctx);
            let Some(w) = held.rows.get(&input).copied() else {
                return false;
            };
            let src = tile_type(ctx, input).expect("a row vector");
            let dims = b.dims(ctx).unwrap_or_default();
            if dims != [0] || rt.shape.len() != 2 || rt.shape[0] != src.shape[0] {
                return false;
            }
            held.bcast.insert(r, w);
            p.rows.bcasts.insert(r, input);
            true
        }
        _ => false,
    }
}

/// Whether a fragment map of layout `w` can read the broadcast row vectors
/// among `operands`: their lanes hold the same rows.
pub(super) fn bcasts_fit(held: &Held, operands: &[Value], w: Warps) -> bool {
    operands
        .iter()
        .filter_map(|v| held.bcast.get(v))
        .all(|b| b.same_rows(&w))
}

/// The row vectors loops carry, as the last pass over a kernel found them:
/// first (`carried` empty) a guess, each loop value that the body yields
/// as a map of row vectors; then those of `carried` the body still yields
/// as row vectors of the same layout.
pub(super) fn carries(
    ctx: &Context,
    ops: &[Op],
    held: &Held,
    carried: &HashMap<(Block, usize), Warps>,
) -> HashMap<(Block, usize), Warps> {
    let mut out = HashMap::new();
    for &o in ops {
        if !tile::For::is(ctx, o) {
            continue;
        }
        let Some(body) = ctx.regions(o).first().and_then(|r| ctx.entry_block(*r)) else {
            continue;
        };
        let Some(y) = ctx
            .block_ops(body)
            .last()
            .and_then(|y| tile::Yield::of(ctx, y))
        else {
            continue;
        };
        for (i, v) in y.values(ctx).iter().enumerate() {
            let w = if carried.is_empty() {
                rows_under(ctx, *v, held, 8)
            } else {
                held.rows.get(v).copied()
            };
            let one_d = tile_type(ctx, *v).is_some_and(|t| t.shape.len() == 1);
            if let Some(w) = w.filter(|_| one_d)
                && (carried.is_empty() || carried.get(&(body, i)) == Some(&w))
            {
                out.insert((body, i), w);
            }
        }
    }
    out
}

/// The layout of a row vector `v` is a map of (looking `depth` ops back).
fn rows_under(ctx: &Context, v: Value, held: &Held, depth: usize) -> Option<Warps> {
    if let Some(w) = held.rows.get(&v) {
        return Some(*w);
    }
    let m = tile::Map::defining(ctx, v)?;
    if depth == 0 {
        return None;
    }
    m.inputs(ctx)
        .iter()
        .find_map(|x| rows_under(ctx, *x, held, depth - 1))
}

/// The planning steps after the fragments are known: gemms read A from
/// registers where it is an f16 fragment with their rows, and broadcasts
/// that only fragment maps read are not lowered on their own.
pub(super) fn finish(ctx: &Context, ops: &[Op], held: &Held, p: &mut Plan) {
    for &o in ops {
        if let Some(w) = p.gemms.get(&o)
            && let Some(g) = tile::Gemm::of(ctx, o)
            && let Some(a) = held.frag.get(&g.a(ctx))
            && a.same_rows(w)
            && w.wn == 1
            && w.unit == Unit::MmaSync
            && tile_type(ctx, g.a(ctx)).is_some_and(|t| super::half_kind(ctx, t.elem).is_some())
        {
            p.rows.a_regs.insert(o);
        }
    }
    for r in p.rows.bcasts.keys() {
        if ctx.uses(*r).iter().all(|u| p.epilogue.contains_key(&u.op)) {
            p.rows
                .bcasts_only_frag
                .insert(ctx.defining_op(*r).expect("a broadcast"));
        }
    }
}

impl Lower<'_> {
    /// Lowers `op` if the plan keeps it on row vectors; `None` otherwise.
    pub(in crate::tile_to_gpu) fn lower_rows(&mut self, op: Op) -> Option<Result<(), Diagnostic>> {
        if let Some(w) = self.mma.rows.reduces.get(&op).copied() {
            let red = tile::Reduce::of(self.ctx, op)?;
            return Some(self.frag_reduce(red, w));
        }
        if let Some(w) = self.mma.rows.maps.get(&op).copied() {
            return Some(self.row_map(op, w));
        }
        self.mma
            .rows
            .bcasts_only_frag
            .contains(&op)
            .then_some(Ok(()))
    }

    /// A row reduction of a fragment: the lane folds its slots of each
    /// row, then its quad by butterfly shuffles (xor 2, 1).
    fn frag_reduce(&mut self, red: tile::Reduce, w: Warps) -> Result<(), Diagnostic> {
        let (op, src) = (red.op(), red.input(self.ctx));
        let f: Frag = self
            .frags
            .get(&src)
            .cloned()
            .ok_or_else(|| err(self.ctx, op, "a row reduction of no fragment"))?;
        let r = red.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let kind = red.kind(self.ctx).unwrap_or(tile::ReduceKind::Sum);
        let float = matches!(self.ctx.type_kind(t.elem), TypeKind::Float(_));
        let (_, combine) = combiner(kind, float);
        let out = self.frag_alloca(w, &t);
        let fw = f.w;
        for q in 0..w.slots_of(&t) {
            let (mi, h) = (q / 2, q % 2);
            // Pairwise, so that the fold is log2(2·nt) ops deep, not 2·nt.
            let xs: Vec<Value> = (0..2 * fw.nt)
                .map(|k| {
                    let i = ab::index(self, (mi * fw.nt + k / 2) * 4 + 2 * h + k % 2);
                    mb::load(self, f.arr, &[i])
                })
                .collect();
            let x = self.pairwise(xs, combine);
            let x = self.butterfly(x, 4, combine);
            let i = ab::index(self, q);
            mb::store(self, x, out, &[i]);
        }
        self.set_frag(r, out, w, &t);
        Ok(())
    }

    /// A map of row vectors, slot by slot.
    fn row_map(&mut self, op: Op, w: Warps) -> Result<(), Diagnostic> {
        let ops = self.ctx.operands(op).to_vec();
        let r = self.ctx.result(op, 0);
        let t = self.tile_of(op, r)?;
        let mut arrs = Vec::new();
        for v in &ops {
            let f = self
                .frags
                .get(v)
                .ok_or_else(|| err(self.ctx, op, "a row map of no row vector"))?;
            arrs.push(f.arr);
        }
        let out = self.frag_alloca(w, &t);
        for q in 0..w.slots_of(&t) {
            let i = ab::index(self, q);
            let args: Vec<Value> = arrs.iter().map(|a| mb::load(self, *a, &[i])).collect();
            let x = self.map_body(op, &args)?;
            mb::store(self, x, out, &[i]);
        }
        self.set_frag(r, out, w, &t);
        Ok(())
    }

    /// Gives the broadcast row vectors among `operands` fragments of
    /// layout `w` (each slot its row's value; copies LLVM removes).
    pub(super) fn bcast_rows(&mut self, operands: &[Value], w: Warps) -> Result<(), Diagnostic> {
        for v in operands {
            let Some(src) = self.mma.rows.bcasts.get(v).copied() else {
                continue;
            };
            if self.frags.get(v).is_some_and(|f| f.w == w) {
                continue;
            }
            let rf = self
                .frags
                .get(&src)
                .cloned()
                .ok_or_else(|| Diagnostic::error("a broadcast of no row vector"))?;
            let t = tile_type(self.ctx, *v).expect("a tile");
            let arr = self.frag_alloca(w, &t);
            for s in 0..w.slots() {
                let i = ab::index(self, w.row_slot(s));
                let x = mb::load(self, rf.arr, &[i]);
                let j = ab::index(self, s);
                mb::store(self, x, arr, &[j]);
            }
            self.set_frag(*v, arr, w, &t);
        }
        Ok(())
    }

    /// The row (in the tile) of this lane's row-vector slot `q`.
    fn row_of(&mut self, w: Warps, q: i64) -> Value {
        let Lane { lane, wy, .. } = self.lane(w);
        let c4 = ab::index(self, 4);
        let g = ab::binary::<arith::DivUI>(self, lane, c4);
        let at = self.mul_add(wy, w.mt * 16, g);
        let d = ab::index(self, 16 * (q / 2) + 8 * (q % 2));
        ab::binary::<arith::AddI>(self, at, d)
    }

    /// Writes row vector `v` into the slots `arr` of layout `w`: copied
    /// from a row vector, filled from a broadcast scalar, else each slot's
    /// row read from where every thread can read it.
    pub(super) fn write_rows(&mut self, v: Value, w: Warps, arr: Value) -> Result<(), Diagnostic> {
        let t = tile_type(self.ctx, v).ok_or_else(|| Diagnostic::error("not a tile"))?;
        let n = w.slots_of(&t);
        if let Some(f) = self.frags.get(&v).cloned() {
            if !f.w.same_rows(&w) {
                self.materialize_frag(v)?;
            } else {
                for q in 0..n {
                    let i = ab::index(self, q);
                    let x = mb::load(self, f.arr, &[i]);
                    mb::store(self, x, arr, &[i]);
                }
                return Ok(());
            }
        }
        if let Some(x) = self.scalar_source(v) {
            for q in 0..n {
                let i = ab::index(self, q);
                mb::store(self, x, arr, &[i]);
            }
            return Ok(());
        }
        let (view, ex) = self.readable(v)?;
        for q in 0..n {
            let row = self.row_of(w, q);
            let x = mb::load(self, view, &[row]);
            let i = ab::index(self, q);
            mb::store(self, x, arr, &[i]);
        }
        self.release(ex);
        Ok(())
    }

    /// Gives row vector `v` (a [`Frag`] of a 1-d tile) a blocked copy: the
    /// first lane of each quad writes its rows to shared memory, every
    /// thread reads the elements it owns.
    pub(super) fn materialize_rows(&mut self, v: Value, f: &Frag) -> Result<(), Diagnostic> {
        let n = f.t.shape[0];
        let view = self.scratch_view(n, f.t.elem);
        let Lane { lane, wx, .. } = self.lane(f.w);
        let c4 = ab::index(self, 4);
        let q = ab::binary::<arith::RemUI>(self, lane, c4);
        let zero = ab::index(self, 0);
        let first = ab::cmpi(self, CmpIPredicate::Eq, q, zero);
        let col0 = ab::cmpi(self, CmpIPredicate::Eq, wx, zero);
        let first = ab::binary::<arith::AndI>(self, first, col0);
        for s in 0..f.w.slots_of(&f.t) {
            let row = self.row_of(f.w, s);
            let i = ab::index(self, s);
            let x = mb::load(self, f.arr, &[i]);
            self.when(first, &mut |s| {
                mb::store(s, x, view, &[row]);
                Ok(())
            })?;
        }
        self.read_back_blocked(v, view, n, &f.t)
    }

    /// The array a loop whose body is `body` carries its `i`th value in,
    /// if the plan carries it as a row vector, holding `init` on entry.
    pub(super) fn carry_rows(
        &mut self,
        body: Block,
        i: usize,
        init: Value,
    ) -> Result<Option<(Value, Warps, TileType)>, Diagnostic> {
        let Some(w) = self.mma.rows.carried.get(&(body, i)).copied() else {
            return Ok(None);
        };
        let t = tile_type(self.ctx, init).ok_or_else(|| Diagnostic::error("not a tile"))?;
        let arr = self.frag_alloca(w, &t);
        self.write_rows(init, w, arr)?;
        Ok(Some((arr, w, t)))
    }

    /// A gemm's A fragment (m16k16, `vector<4x2xf16>`) for m16 tile `mi`
    /// and k16 step `ks` from fragment `a`: registers 0-1 are n8 tile
    /// `2·ks`'s slots, 2-3 tile `2·ks + 1`'s.
    pub(in crate::tile_to_gpu) fn a_from_regs(
        &mut self,
        a: &Frag,
        mi: i64,
        ks: i64,
        ty: Type,
    ) -> Value {
        let mut el = Vec::new();
        for ni in [2 * ks, 2 * ks + 1] {
            for c in 0..4 {
                let i = ab::index(self, (mi * a.w.nt + ni) * 4 + c);
                el.push(mb::load(self, a.arr, &[i]));
            }
        }
        vector::FromElements::build(self, &el, ty).result(self.ctx)
    }
}
