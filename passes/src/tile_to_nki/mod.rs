//! `tile-to-nki{arch=trn1|trn2}`: tile kernels to NKI kernels for a
//! NeuronCore.
//!
//! Each `tile.kernel` becomes an `nki.kernel` over the same grid (NKI's
//! SPMD programs) and each `tile.launch` an `nki.launch`. A tile value
//! becomes an on-chip tile with its first dimension on the partitions: a
//! `[R, C]` tile is an SBUF `[R, C]` tile (R at most 128: a generator picks
//! the rows); a row vector of `C` (a column reduction, a bias) is `[1, C]`,
//! a column of `R` (a row reduction) `[R, 1]`, whichever its producer or
//! reader asks for ([`Form`]). Per op:
//!
//! - loads and stores are DMAs through the same descriptor (a vector's
//!   descriptor reshaped to its 2-D form); a PSUM tile is copied to SBUF
//!   before it is stored;
//! - a `tile.map` body becomes one instruction per scalar op on whole
//!   tiles: arithmetic and comparisons on the Vector engine
//!   (`tensor_tensor`, or `tensor_scalar` with an immediate, an index the
//!   program computed, or a per-partition column), functions on the Scalar engine (`activation`,
//!   `exp2` as `exp` with scale ln 2), `select`, conversions as copies;
//! - `tile.reduce` along the columns is a Vector `tensor_reduce`, along the
//!   rows a GpSimd `partition_reduce`; broadcasts of a column along the
//!   free axis or of a row across partitions are `free_broadcast` and
//!   `partition_broadcast`; a broadcast constant is a `memset`;
//! - `tile.gemm a, b, acc` is `acc += matmul(transpose(a), b)`: A is turned
//!   to `[K, M]` on the Tensor engine (through PSUM, copied back to SBUF),
//!   B is the moving operand, and the accumulator (with the loop-carried
//!   values and the constant it starts from) lives in PSUM in fp32;
//! - `tile.for` with constant bounds is an `nki.sequential_range`;
//!   transfers and layout changes are the same tile; index arithmetic is
//!   copied.
//!
//! A validity mask (`tile.valid`) is an `nki.mask` over the same view.
//! Anything else (tiles of rank 3 or more, a vector both as a row and a
//! column, two scalars computed at run time combined inside a map, a
//! matmul over more than 128 rows or 512 columns) is an error at the op.
//! Each kernel is verified once the launches are converted, so tiles that
//! do not fit SBUF or PSUM are reported at the op that overflows.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Block, Builder, Context, InsertPoint, Op, Value, ValueMap};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;
use aic_dialects::arith;
use aic_dialects::coord::{self, Desc};
use aic_dialects::math;
use aic_dialects::nki::{self, Act, Alu, Arch, ReduceOp, Space, imm, make_nki_tile};
use aic_dialects::tile::{self, TileOp, tile_type};
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static INFO: PassInfo = PassInfo {
    flag: "tile-to-nki",
    name: "TileToNki",
    summary: "Lower tile kernels to NKI kernels: SBUF/PSUM tiles with the partition dimension first, DMA, Tensor/Vector/Scalar/GpSimd instructions",
    anchor: None,
    options: &[OptSpec {
        name: "arch",
        kind: OptKind::Enum(&["trn1", "trn2"]),
        default: "trn1",
        range: None,
        help: "The NeuronCore generation (trn1: NeuronCore-v2, trn2: NeuronCore-v3)",
    }],
    create: |o: &PassOptions| {
        Box::new(TileToNki {
            arch: if o.str("arch") == "trn2" {
                Arch::Trn2
            } else {
                Arch::Trn1
            },
        })
    },
};

struct TileToNki {
    arch: Arch,
}

impl Pass for TileToNki {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let (mut kernels, mut launches) = (Vec::new(), Vec::new());
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(ctx, o) {
                kernels.push(o);
            } else if tile::Launch::is(ctx, o) {
                launches.push(o);
            }
        });
        let mut made = Vec::new();
        for k in &kernels {
            aic::shape::check_values(ctx, *k, "tile-to-nki")?;
            made.push(lower_kernel(ctx, *k, self.arch)?);
        }
        for l in &launches {
            let launch = tile::Launch::wrap(*l);
            let inputs = launch.inputs(ctx).to_vec();
            let outs = launch.outputs(ctx);
            let types: Vec<Type> = outs.iter().map(|r| ctx.value_type(*r)).collect();
            let kernel = launch
                .kernel(ctx)
                .ok_or_else(|| op_error(ctx, *l, "a launch without a kernel"))?;
            let loc = ctx.op(*l).loc;
            let mut b = Builder {
                ctx: &mut *ctx,
                ip: InsertPoint::Before(*l),
                loc,
            };
            let new = nki::Launch::build(&mut b, &inputs, kernel, &types);
            let pairs: Vec<(Value, Value)> = outs.into_iter().zip(new.outputs(ctx)).collect();
            for (a, b) in pairs {
                ctx.replace_all_uses(a, b);
            }
            ctx.erase_op(*l);
        }
        for k in &kernels {
            ctx.erase_op(*k);
        }
        // Each kernel's tiles fit the arch (checked here to name the op
        // that overflows rather than the pipeline's step).
        for k in made {
            aic::verifier::verify(ctx, k)?;
        }
        Ok(!kernels.is_empty() || !launches.is_empty())
    }
}

/// How a tile of the tile kernel sits on the partitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// A `[R, C]` tile: R partitions of C.
    Matrix,
    /// A vector of n as one partition, `[1, n]`.
    Row,
    /// A vector of n as n partitions of one, `[n, 1]`.
    Col,
}

/// A lowered tile: its nki value and form.
#[derive(Clone, Copy, Debug)]
struct Nt {
    v: Value,
    form: Form,
}

/// An operand inside a map body: a tile or an immediate.
#[derive(Clone, Copy, Debug)]
enum Arg {
    Tile(Nt),
    Imm(f64),
    /// An index the program computed (outside the map), in the nki kernel.
    Index(Value),
}

struct Lower<'c> {
    ctx: &'c mut Context,
    loc: Attr,
    block: Block,
    /// Scalars and buffers of the tile kernel and their counterparts.
    map: ValueMap,
    tiles: HashMap<Value, Nt>,
    /// Tile values that live in PSUM (GEMM accumulators and what carries
    /// them).
    psum: HashSet<Value>,
    /// Rank-1 tile values read as rows across partitions (`[1, n]`) or as
    /// columns (`[n, 1]`), where a reader decided.
    wants: HashMap<Value, Form>,
    /// The kernel's entry block, where constants go.
    entry: Block,
    /// In a kernel of single rows (`[1, N]` tiles, a GPU generator's row
    /// reduction), each row spread over the partitions: `[128, N / 128]`.
    split: Option<i64>,
    zero: Option<Value>,
}

/// Lowers tile kernel `k` into an `nki.kernel` of the same name just
/// before it.
fn lower_kernel(ctx: &mut Context, k: Op, arch: Arch) -> Result<Op, Diagnostic> {
    let tk = tile::Kernel::wrap(k);
    let name = tk
        .sym_name(ctx)
        .ok_or_else(|| op_error(ctx, k, "a kernel without a name"))?;
    let grid = tk.grid(ctx).unwrap_or_default();
    let body = tk.body(ctx);
    let tb = ctx
        .entry_block(body)
        .ok_or_else(|| op_error(ctx, k, "a kernel without a body"))?;
    let loc = ctx.op(k).loc;
    let args: Vec<(Type, Option<Attr>)> = ctx
        .block_args(tb)
        .iter()
        .map(|a| (ctx.value_type(*a), Some(loc)))
        .collect();
    let nb = ctx.create_block(&args);
    let u = ctx.uniquer().clone();
    let mut b = Builder {
        ctx: &mut *ctx,
        ip: InsertPoint::Before(k),
        loc,
    };
    let nk = nki::Kernel::build(&mut b, name, u.i64_array(&grid), arch.attr(&u));
    let r = nk.body(ctx);
    ctx.append_block(r, nb);
    // Keep the kernel's attributes (its kind, flops, tuning key).
    let attrs: Vec<(aic::Ident, Attr)> = ctx
        .op(k)
        .attrs
        .iter()
        .map(|(n, a)| (*n, *a))
        .filter(|(n, _)| !["sym_name", "grid", "threads"].contains(&ctx.uniquer().str(*n)))
        .collect();
    for (n, a) in attrs {
        ctx.set_attr(nk.op(), n, a);
    }
    let mut map = ValueMap::default();
    for (a, na) in ctx
        .block_args(tb)
        .to_vec()
        .into_iter()
        .zip(ctx.block_args(nb).to_vec())
    {
        map.values.insert(a, na);
    }
    let mut l = Lower {
        ctx,
        loc,
        block: nb,
        map,
        tiles: HashMap::new(),
        psum: HashSet::new(),
        wants: HashMap::new(),
        entry: nb,
        split: None,
        zero: None,
    };
    l.plan(k);
    l.lower_block(tb)?;
    Ok(nk.op())
}

impl Lower<'_> {
    fn b(&mut self) -> Builder<'_> {
        Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::End(self.block),
            loc: self.loc,
        }
    }

    fn err(&self, op: Op, m: impl std::fmt::Display) -> Diagnostic {
        op_error(self.ctx, op, format!("cannot lower to nki: {m}"))
    }

    /// Decides what lives in PSUM and how vectors sit, before lowering.
    fn plan(&mut self, k: Op) {
        let ctx = &*self.ctx;
        let mut ops = Vec::new();
        ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| ops.push(o));
        let mut work: Vec<Value> = ops
            .iter()
            .filter_map(|o| tile::Gemm::of(ctx, *o))
            .flat_map(|g| [g.acc(ctx), g.result(ctx)])
            .collect();
        while let Some(v) = work.pop() {
            if !self.psum.insert(v) {
                continue;
            }
            // A loop's carried value: its init, block argument, result and
            // yielded value.
            let mut also = Vec::new();
            if let Some(f) = ctx.defining_op(v).and_then(|d| tile::For::of(ctx, d)) {
                let i = ctx.results(f.op()).position(|r| r == v).unwrap_or(0);
                also.push(f.inits(ctx)[i]);
            }
            for u in ctx.uses(v) {
                if let Some(f) = tile::For::of(ctx, u.op) {
                    let i = u.index as usize - 3;
                    also.push(ctx.result(f.op(), i));
                    if let Some(b) = ctx.entry_block(f.body(ctx)) {
                        also.push(ctx.block_args(b)[i + 1]);
                    }
                }
                if tile::Yield::is(ctx, u.op)
                    && let Some(f) = ctx.parent_op(u.op).and_then(|p| tile::For::of(ctx, p))
                {
                    let i = u.index as usize;
                    also.push(ctx.result(f.op(), i));
                    if let Some(b) = ctx.entry_block(f.body(ctx)) {
                        also.push(ctx.block_args(b)[i + 1]);
                    }
                }
            }
            if let aic::ir::ValueDef::Arg(blk, i) = ctx.value(v).def
                && let Some(f) = ctx.block_owner(blk).and_then(|p| tile::For::of(ctx, p))
                && i > 0
            {
                also.push(f.inits(ctx)[i as usize - 1]);
                also.push(ctx.result(f.op(), i as usize - 1));
            }
            work.extend(also);
        }
        self.split = single_rows(ctx, &ops);
        // How each vector sits: a reduction's result as its axis says, a
        // broadcast's input as the broadcast reads it; then the same form
        // for the vectors a map combines and a loop carries (its init,
        // argument, yielded value and result), until nothing changes.
        let vector = |v: Value| {
            tile_type(ctx.uniquer(), ctx.value_type(v)).is_some_and(|t| t.shape.len() == 1)
        };
        let mut groups: Vec<Vec<Value>> = Vec::new();
        for o in &ops {
            if let Some(bc) = tile::Broadcast::of(ctx, *o) {
                let dims = bc.dims(ctx).unwrap_or_default();
                let r = tile_type(ctx.uniquer(), ctx.value_type(bc.result(ctx)));
                if r.is_some_and(|r| r.shape.len() == 2) && dims.len() == 1 {
                    let form = if dims[0] == 0 { Form::Col } else { Form::Row };
                    self.wants.insert(bc.input(ctx), form);
                }
            } else if let Some(rd) = tile::Reduce::of(ctx, *o) {
                let form = if rd.axis(ctx) == Some(1) {
                    Form::Col
                } else {
                    Form::Row
                };
                self.wants.insert(rd.result(ctx), form);
            } else if let Some(m) = tile::Map::of(ctx, *o) {
                let mut g: Vec<Value> = m.inputs(ctx).to_vec();
                g.push(m.result(ctx));
                groups.push(g);
            } else if let Some(f) = tile::For::of(ctx, *o) {
                let body = ctx.entry_block(f.body(ctx));
                let yielded = body
                    .and_then(|b| ctx.block_ops(b).last())
                    .map(|y| ctx.operands(y).to_vec())
                    .unwrap_or_default();
                for (i, init) in f.inits(ctx).iter().enumerate() {
                    let mut g = vec![*init, ctx.result(f.op(), i)];
                    g.extend(body.map(|b| ctx.block_args(b)[i + 1]));
                    g.extend(yielded.get(i).copied());
                    groups.push(g);
                }
            }
        }
        loop {
            let mut changed = false;
            for g in &groups {
                let g: Vec<Value> = g.iter().copied().filter(|v| vector(*v)).collect();
                let Some(f) = g.iter().find_map(|v| self.wants.get(v).copied()) else {
                    continue;
                };
                for v in g {
                    if let std::collections::hash_map::Entry::Vacant(e) = self.wants.entry(v) {
                        e.insert(f);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn lower_block(&mut self, tb: Block) -> Result<(), Diagnostic> {
        let ops: Vec<Op> = self.ctx.block_ops(tb).collect();
        for o in ops {
            self.loc = self.ctx.op(o).loc;
            self.lower_op(o)?;
        }
        Ok(())
    }

    /// The nki tile type of tile value `v` in `form`.
    fn nki_type(
        &self,
        at: Op,
        v: Value,
        form: Form,
        elem: Option<Type>,
    ) -> Result<Type, Diagnostic> {
        let ctx = &*self.ctx;
        let t = tile_type(ctx.uniquer(), ctx.value_type(v))
            .ok_or_else(|| self.err(at, "not a tile"))?;
        let shape = match (t.shape.as_slice(), form) {
            ([1, c], Form::Matrix) if self.split.is_some_and(|f| f * nki::PARTITIONS == *c) => {
                vec![nki::PARTITIONS, *c / nki::PARTITIONS]
            }
            ([r, c], Form::Matrix) => vec![*r, *c],
            ([n], Form::Row) => vec![1, *n],
            ([n], Form::Col) => vec![*n, 1],
            (s, _) => {
                return Err(self.err(
                    at,
                    format!("a tile of shape {s:?}: only matrices and vectors map to partitions"),
                ));
            }
        };
        if shape[0] > nki::PARTITIONS {
            return Err(self.err(
                at,
                format!(
                    "a tile of {} rows: at most {} partitions, and the lowering does not split tiles",
                    shape[0],
                    nki::PARTITIONS
                ),
            ));
        }
        let mut elem = elem.unwrap_or(t.elem);
        // NKI's integers are 32 bits at most: indices and 64-bit integers
        // (counts, positions) are computed in i32.
        if matches!(
            ctx.type_kind(elem),
            TypeKind::Index | TypeKind::Integer { width: 64, .. }
        ) {
            elem = ctx.uniquer().ty(TypeKind::Integer {
                width: 32,
                signedness: aic::types::Signedness::Signless,
            });
        }
        let space = if self.psum.contains(&v) {
            Space::Psum
        } else {
            Space::Sbuf
        };
        Ok(make_nki_tile(ctx.uniquer(), shape, elem, space))
    }

    /// The form a value of `shape` takes where nothing else decides.
    fn default_form(&self, v: Value) -> Form {
        let ctx = &*self.ctx;
        match tile_type(ctx.uniquer(), ctx.value_type(v)).map(|t| t.shape.len()) {
            Some(1) => self.wants.get(&v).copied().unwrap_or(Form::Row),
            _ => Form::Matrix,
        }
    }

    fn tile(&self, at: Op, v: Value) -> Result<Nt, Diagnostic> {
        self.tiles
            .get(&v)
            .copied()
            .ok_or_else(|| self.err(at, "a tile value with no lowering"))
    }

    fn zero(&mut self) -> Value {
        if let Some(z) = self.zero {
            return z;
        }
        let first = self.ctx.block_ops(self.entry).next();
        let ip = first.map_or(InsertPoint::End(self.entry), InsertPoint::Before);
        let mut b = Builder {
            ctx: &mut *self.ctx,
            ip,
            loc: self.loc,
        };
        let z = arith::build::index(&mut b, 0);
        self.zero = Some(z);
        z
    }

    /// `nt` in SBUF (copied out of PSUM if it is there).
    fn in_sbuf(&mut self, nt: Nt) -> Nt {
        let ty = self.ctx.value_type(nt.v);
        let t = nki::nki_tile(self.ctx.uniquer(), ty)
            .expect("an nki tile")
            .clone();
        if t.space == Space::Sbuf {
            return nt;
        }
        let sty = make_nki_tile(self.ctx.uniquer(), t.shape, t.elem, Space::Sbuf);
        let v = nki::Copy::build(&mut self.b(), nt.v, None, sty).result(self.ctx);
        Nt { v, form: nt.form }
    }

    /// `nt` as a tile of type `ty` (copied where it differs).
    fn as_type(&mut self, nt: Nt, ty: Type) -> Nt {
        if self.ctx.value_type(nt.v) == ty {
            return nt;
        }
        let v = nki::Copy::build(&mut self.b(), nt.v, None, ty).result(self.ctx);
        Nt { v, form: nt.form }
    }

    /// The origin and descriptor of a DMA of a tile in `form` at `origin`
    /// through `d` over the tile kernel's buffer `buffer`.
    fn dma_view(
        &mut self,
        at: Op,
        form: Form,
        origin: &[Value],
        desc: Option<Attr>,
        buffer: Value,
    ) -> Result<(Vec<Value>, Option<Attr>), Diagnostic> {
        let mut o: Vec<Value> = origin.iter().map(|v| self.map.value(*v)).collect();
        if form == Form::Matrix && self.split.is_none() {
            return Ok((o, desc));
        }
        let d = match desc {
            Some(a) => coord::desc_of(self.ctx.uniquer(), a)
                .cloned()
                .map_err(|e| self.err(at, e))?,
            None => {
                let s = self.ctx.type_kind(self.ctx.value_type(buffer)).shape();
                Desc::row_major(s.ok_or_else(|| self.err(at, "an unshaped buffer"))?)
            }
        };
        let upper = d.upper.clone();
        let n = *upper.last().ok_or_else(|| self.err(at, "a rank-0 view"))?;
        let mut split = upper[..upper.len() - 1].to_vec();
        let z = self.zero();
        if form == Form::Matrix {
            // A row of the split kernel: the last dim as [n / f, f], the
            // origin's column divided by f.
            let f = self.split.expect("a split kernel");
            split.extend([n / f, f]);
            let last = o.pop().expect("an origin");
            let ity = self.ctx.value_type(last);
            let mut b = self.b();
            let fv = arith::build::index(&mut b, f);
            let q = arith::DivUI::build(&mut b, last, fv, None, ity).result(b.ctx);
            o.extend([q, z]);
        } else if form == Form::Row {
            split.extend([1, n]);
            o.insert(o.len() - 1, z);
        } else {
            split.extend([n, 1]);
            o.push(z);
        }
        let d = d
            .compose(&Desc::reshape(&upper, &split))
            .map_err(|e| self.err(at, e))?
            .simplify();
        Ok((o, Some(coord::desc_attr(self.ctx.uniquer(), &d))))
    }

    fn lower_op(&mut self, o: Op) -> Result<(), Diagnostic> {
        let Some(op) = TileOp::of(self.ctx, o) else {
            return self.copy_scalar_op(o);
        };
        match op {
            TileOp::Return(_) => {
                nki::Return::build(&mut self.b());
            }
            TileOp::ProgramId(p) => {
                let axis = i64_attr(self.ctx.uniquer(), p.axis(self.ctx).unwrap_or(0));
                let ty = self.ctx.uniquer().ty(TypeKind::Index);
                let v = nki::ProgramId::build(&mut self.b(), axis, ty).id(self.ctx);
                self.map.values.insert(p.id(self.ctx), v);
            }
            TileOp::Load(l) => {
                let r = l.result(self.ctx);
                let form = self.default_form(r);
                let ty = self.nki_type(o, r, form, None)?;
                let ty = self.sbuf(ty);
                let origin = l.origin(self.ctx).to_vec();
                let (desc, buffer) = (l.desc(self.ctx), l.buffer(self.ctx));
                let (origin, desc) = self.dma_view(o, form, &origin, desc, buffer)?;
                let buf = self.map.value(l.buffer(self.ctx));
                let v = nki::Load::build(&mut self.b(), buf, &origin, desc, ty).result(self.ctx);
                let nt = Nt { v, form };
                let nt = self.placed(o, r, nt)?;
                self.tiles.insert(r, nt);
            }
            TileOp::Store(s) => {
                let nt = self.tile(o, s.value(self.ctx))?;
                let nt = self.in_sbuf(nt);
                let origin = s.origin(self.ctx).to_vec();
                let (desc, buffer) = (s.desc(self.ctx), s.buffer(self.ctx));
                let (origin, desc) = self.dma_view(o, nt.form, &origin, desc, buffer)?;
                let buf = self.map.value(s.buffer(self.ctx));
                nki::Store::build(&mut self.b(), nt.v, buf, &origin, desc);
            }
            TileOp::Transfer(t) => {
                let nt = self.tile(o, t.input(self.ctx))?;
                self.tiles.insert(t.result(self.ctx), nt);
            }
            TileOp::ConvertLayout(t) => {
                let nt = self.tile(o, t.input(self.ctx))?;
                self.tiles.insert(t.result(self.ctx), nt);
            }
            TileOp::Iota(i) => {
                let r = i.result(self.ctx);
                let form = self.default_form(r);
                let ty = self.nki_type(o, r, form, None)?;
                let dim = i.dim(self.ctx).unwrap_or(0);
                let dim = if form == Form::Col {
                    0
                } else if form == Form::Row {
                    1
                } else {
                    dim
                };
                let d = i64_attr(self.ctx.uniquer(), dim);
                let v = nki::Iota::build(&mut self.b(), d, ty).result(self.ctx);
                self.tiles.insert(r, Nt { v, form });
            }
            TileOp::Broadcast(bc) => self.broadcast(o, bc)?,
            TileOp::Reduce(rd) => self.reduce(o, rd)?,
            TileOp::Map(m) => self.map_op(o, m)?,
            TileOp::Gemm(g) => self.gemm(o, g)?,
            TileOp::SparseGemm(_) => {
                return Err(self.err(
                    o,
                    "a 2:4-sparse GEMM on a NeuronCore (its tensor engine has no sparse form)",
                ));
            }
            TileOp::For(f) => self.for_loop(o, f)?,
            TileOp::Yield(y) => {
                let vals = y.values(self.ctx).to_vec();
                let mut out = Vec::new();
                for v in vals {
                    out.push(self.tile(o, v)?.v);
                }
                nki::Yield::build(&mut self.b(), &out);
            }
            TileOp::Valid(va) => {
                let r = va.result(self.ctx);
                let form = self.default_form(r);
                let ty = self.nki_type(o, r, form, None)?;
                let ty = self.sbuf(ty);
                let origin = va.origin(self.ctx).to_vec();
                let desc = va.desc(self.ctx);
                let (origin, desc) = self.dma_view(o, form, &origin, desc, r)?;
                let desc =
                    desc.ok_or_else(|| self.err(o, "a validity mask without a descriptor"))?;
                let v = nki::Mask::build(&mut self.b(), &origin, desc, ty).result(self.ctx);
                self.tiles.insert(r, Nt { v, form });
            }
            TileOp::Kernel(_) | TileOp::Launch(_) => {
                return Err(self.err(o, "a kernel or launch inside a kernel"));
            }
        }
        Ok(())
    }

    /// `ty` in SBUF.
    fn sbuf(&self, ty: Type) -> Type {
        let t = nki::nki_tile(self.ctx.uniquer(), ty)
            .expect("an nki tile")
            .clone();
        make_nki_tile(self.ctx.uniquer(), t.shape, t.elem, Space::Sbuf)
    }

    /// `nt` moved into the memory tile value `v` of the tile kernel lives in.
    fn placed(&mut self, at: Op, v: Value, nt: Nt) -> Result<Nt, Diagnostic> {
        let want = self.nki_type(at, v, nt.form, None)?;
        Ok(self.as_type(nt, want))
    }

    /// Index arithmetic and constants, copied.
    fn copy_scalar_op(&mut self, o: Op) -> Result<(), Diagnostic> {
        if !scalar_arith(self.ctx, o) {
            let name = self.ctx.op_name(o);
            return Err(self.err(o, format!("{name} has no nki lowering")));
        }
        let n = self.ctx.clone_op(o, &mut self.map);
        self.ctx.insert_op(InsertPoint::End(self.block), n);
        Ok(())
    }

    /// The constant value `v` holds, if an `arith.constant` makes it.
    fn constant(&self, v: Value) -> Option<f64> {
        arith::constant_number(self.ctx, v)
    }

    fn memset(&mut self, ty: Type, value: f64) -> Value {
        let elem = nki::nki_tile(self.ctx.uniquer(), ty).expect("a tile").elem;
        let a = nki::imm_for(self.ctx.uniquer(), elem, value);
        nki::Memset::build(&mut self.b(), a, None, ty).result(self.ctx)
    }

    /// The element type of nki tile value `v`.
    fn elem(&self, v: Value) -> Type {
        nki::nki_tile(self.ctx.uniquer(), self.ctx.value_type(v))
            .expect("an nki tile")
            .elem
    }

    /// A tile of `ty` holding the index `i` the program computed: zeros
    /// plus `i` on the Vector engine.
    fn filled(&mut self, ty: Type, i: Value) -> Value {
        let zero = self.memset(ty, 0.0);
        let u = self.ctx.uniquer().clone();
        let add = Alu::Add.attr(&u);
        nki::TensorScalar::build(
            &mut self.b(),
            zero,
            Some(i),
            add,
            imm(&u, 0.0),
            None,
            None,
            ty,
        )
        .result(self.ctx)
    }

    fn broadcast(&mut self, o: Op, bc: tile::Broadcast) -> Result<(), Diagnostic> {
        let r = bc.result(self.ctx);
        let input = bc.input(self.ctx);
        let dims = bc.dims(self.ctx).unwrap_or_default();
        if dims.is_empty() {
            let x = self
                .constant(input)
                .ok_or_else(|| self.err(o, "a broadcast of a scalar computed at run time"))?;
            let form = self.default_form(r);
            let ty = self.nki_type(o, r, form, None)?;
            let v = self.memset(ty, x);
            self.tiles.insert(r, Nt { v, form });
            return Ok(());
        }
        let nt = self.tile(o, input)?;
        let nt = self.in_sbuf(nt);
        let form = if dims.len() == 1 && self.default_form(r) != Form::Matrix {
            nt.form
        } else {
            Form::Matrix
        };
        let ty = self.nki_type(o, r, form, None)?;
        let ty = self.sbuf(ty);
        let it = nki::nki_tile(self.ctx.uniquer(), self.ctx.value_type(nt.v))
            .expect("a tile")
            .clone();
        let rt = nki::nki_tile(self.ctx.uniquer(), ty)
            .expect("a tile")
            .clone();
        let mut v = nt.v;
        if it.partitions() != rt.partitions() {
            if it.partitions() != 1 {
                return Err(self.err(o, "a broadcast across partitions of more than one row"));
            }
            let mut s = rt.shape.clone();
            s[1..].clone_from_slice(&it.shape[1..]);
            let mid = make_nki_tile(self.ctx.uniquer(), s, it.elem, Space::Sbuf);
            v = nki::PartitionBroadcast::build(&mut self.b(), v, mid).result(self.ctx);
        }
        if it.free() != rt.free() {
            if it.free() != 1 {
                return Err(self.err(
                    o,
                    format!(
                        "a broadcast of {:?} to {:?}: a vector would have to turn from row to column",
                        it.shape, rt.shape
                    ),
                ));
            }
            v = nki::FreeBroadcast::build(&mut self.b(), v, ty).result(self.ctx);
        }
        let nt = self.placed(o, r, Nt { v, form })?;
        self.tiles.insert(r, nt);
        Ok(())
    }

    fn reduce(&mut self, o: Op, rd: tile::Reduce) -> Result<(), Diagnostic> {
        let x = self.tile(o, rd.input(self.ctx))?;
        let r = rd.result(self.ctx);
        if x.form != Form::Matrix {
            return Err(self.err(o, "a reduction of a vector"));
        }
        let kind = match rd.kind(self.ctx) {
            Some(tile::ReduceKind::Max) => ReduceOp::Max,
            Some(tile::ReduceKind::Min) => ReduceOp::Min,
            _ => ReduceOp::Add,
        };
        let k = kind.attr(self.ctx.uniquer());
        let (form, v) = if rd.axis(self.ctx) == Some(1) && self.split.is_some() {
            // The row's partials per partition, then across partitions.
            let t = nki::nki_tile(self.ctx.uniquer(), self.ctx.value_type(x.v))
                .expect("a tile")
                .clone();
            let mid = make_nki_tile(
                self.ctx.uniquer(),
                vec![t.partitions(), 1],
                t.elem,
                Space::Sbuf,
            );
            let part = nki::TensorReduce::build(&mut self.b(), x.v, k, mid).result(self.ctx);
            let ty = self.nki_type(o, r, Form::Row, None)?;
            let ty = self.sbuf(ty);
            (
                Form::Row,
                nki::PartitionReduce::build(&mut self.b(), part, k, ty).result(self.ctx),
            )
        } else if rd.axis(self.ctx) == Some(1) {
            let ty = self.nki_type(o, r, Form::Col, None)?;
            let ty = self.sbuf(ty);
            (
                Form::Col,
                nki::TensorReduce::build(&mut self.b(), x.v, k, ty).result(self.ctx),
            )
        } else {
            let x = self.in_sbuf(x);
            let ty = self.nki_type(o, r, Form::Row, None)?;
            let ty = self.sbuf(ty);
            (
                Form::Row,
                nki::PartitionReduce::build(&mut self.b(), x.v, k, ty).result(self.ctx),
            )
        };
        let nt = self.placed(o, r, Nt { v, form })?;
        self.tiles.insert(r, nt);
        Ok(())
    }

    fn gemm(&mut self, o: Op, g: tile::Gemm) -> Result<(), Diagnostic> {
        let a = self.tile(o, g.a(self.ctx))?;
        let b = self.tile(o, g.b(self.ctx))?;
        let acc = self.tile(o, g.acc(self.ctx))?;
        let a = self.in_sbuf(a);
        let b = self.in_sbuf(b);
        let at = nki::nki_tile(self.ctx.uniquer(), self.ctx.value_type(a.v))
            .expect("a tile")
            .clone();
        let bt = nki::nki_tile(self.ctx.uniquer(), self.ctx.value_type(b.v))
            .expect("a tile")
            .clone();
        let (m, kd) = (at.shape[0], at.shape[1]);
        let n = bt.shape[1];
        if kd > nki::PARTITIONS || m > nki::STATIONARY_FREE || n > nki::MOVING_FREE {
            return Err(self.err(
                o,
                format!(
                    "a {m}x{n}x{kd} step: matmul takes at most {} rows, {} columns and a depth of {}",
                    nki::STATIONARY_FREE,
                    nki::MOVING_FREE,
                    nki::PARTITIONS
                ),
            ));
        }
        if at.elem != bt.elem {
            return Err(self.err(o, "a GEMM of two element types"));
        }
        let u = self.ctx.uniquer().clone();
        let pt = make_nki_tile(&u, vec![kd, m], at.elem, Space::Psum);
        let t = nki::Transpose::build(&mut self.b(), a.v, pt).result(self.ctx);
        let st = make_nki_tile(&u, vec![kd, m], at.elem, Space::Sbuf);
        let s = nki::Copy::build(&mut self.b(), t, None, st).result(self.ctx);
        let r = g.result(self.ctx);
        let f32t = u.ty(TypeKind::Float(aic::float::FloatKind::F32));
        let accty = make_nki_tile(&u, vec![m, n], f32t, Space::Psum);
        let acc = self.as_type(acc, accty);
        let v = nki::Matmul::build(&mut self.b(), s, b.v, acc.v, accty).result(self.ctx);
        let nt = self.placed(
            o,
            r,
            Nt {
                v,
                form: Form::Matrix,
            },
        )?;
        self.tiles.insert(r, nt);
        Ok(())
    }

    fn for_loop(&mut self, o: Op, f: tile::For) -> Result<(), Diagnostic> {
        let bound = |v: Value| {
            self.constant(self.map.value(v))
                .or_else(|| self.constant(v))
        };
        let (lo, hi, st) = (
            bound(f.lower(self.ctx)),
            bound(f.upper(self.ctx)),
            bound(f.step(self.ctx)),
        );
        let (Some(lo), Some(hi), Some(st)) = (lo, hi, st) else {
            return Err(self.err(o, "a loop whose bounds are not constants"));
        };
        let inits = f.inits(self.ctx).to_vec();
        let mut nts = Vec::new();
        for v in &inits {
            nts.push(self.tile(o, *v)?);
        }
        let results: Vec<Value> = self.ctx.results(o).collect();
        let tb = self
            .ctx
            .entry_block(f.body(self.ctx))
            .ok_or_else(|| self.err(o, "a loop without a body"))?;
        let targs = self.ctx.block_args(tb).to_vec();
        // The carried values' types: the results' (the memory the plan put
        // them in).
        let mut tys = Vec::new();
        let mut init_vs = Vec::new();
        for (k, nt) in nts.iter().enumerate() {
            let ty = self.nki_type(o, results[k], nt.form, None)?;
            let nt = self.as_type(*nt, ty);
            tys.push(ty);
            init_vs.push(nt.v);
        }
        let index = self.ctx.uniquer().ty(TypeKind::Index);
        let mut args: Vec<(Type, Option<Attr>)> = vec![(index, Some(self.loc))];
        args.extend(tys.iter().map(|t| (*t, Some(self.loc))));
        let nb = self.ctx.create_block(&args);
        let nargs = self.ctx.block_args(nb).to_vec();
        let (a, b, c) = (
            i64_attr(self.ctx.uniquer(), lo as i64),
            i64_attr(self.ctx.uniquer(), hi as i64),
            i64_attr(self.ctx.uniquer(), st as i64),
        );
        let sr = nki::SequentialRange::build(&mut self.b(), &init_vs, a, b, c, &tys);
        let r = sr.body(self.ctx);
        self.ctx.append_block(r, nb);
        self.map.values.insert(targs[0], nargs[0]);
        for (k, nt) in nts.iter().enumerate() {
            self.tiles.insert(
                targs[k + 1],
                Nt {
                    v: nargs[k + 1],
                    form: nt.form,
                },
            );
        }
        let outer = self.block;
        self.block = nb;
        // Yielded values take the carried types.
        let ops: Vec<Op> = self.ctx.block_ops(tb).collect();
        for op in ops {
            self.loc = self.ctx.op(op).loc;
            if let Some(y) = tile::Yield::of(self.ctx, op) {
                let mut out = Vec::new();
                for (k, v) in y.values(self.ctx).to_vec().into_iter().enumerate() {
                    let nt = self.tile(op, v)?;
                    out.push(self.as_type(nt, tys[k]).v);
                }
                nki::Yield::build(&mut self.b(), &out);
            } else {
                self.lower_op(op)?;
            }
        }
        self.block = outer;
        for (k, res) in results.iter().enumerate() {
            let v = self.ctx.result(sr.op(), k);
            self.tiles.insert(
                *res,
                Nt {
                    v,
                    form: nts[k].form,
                },
            );
        }
        Ok(())
    }

    fn map_op(&mut self, o: Op, m: tile::Map) -> Result<(), Diagnostic> {
        let r = m.result(self.ctx);
        let inputs = m.inputs(self.ctx).to_vec();
        let body = self
            .ctx
            .entry_block(m.body(self.ctx))
            .ok_or_else(|| self.err(o, "a map without a body"))?;
        let mut env: HashMap<Value, Arg> = HashMap::new();
        let mut form = None;
        for (i, a) in inputs.iter().zip(self.ctx.block_args(body).to_vec()) {
            let nt = self.tile(o, *i)?;
            if form.is_some_and(|f| f != nt.form) {
                return Err(self.err(o, "a map of a row vector and a column vector"));
            }
            form = Some(nt.form);
            env.insert(a, Arg::Tile(nt));
        }
        let form = form.unwrap_or_else(|| self.default_form(r));
        let ops: Vec<Op> = self.ctx.block_ops(body).collect();
        for bo in ops {
            if let Some(y) = tile::Yield::of(self.ctx, bo) {
                let v = y.values(self.ctx)[0];
                let arg = self.arg(bo, &env, v)?;
                let ty = self.nki_type(o, r, form, None)?;
                let nt = match arg {
                    Arg::Tile(nt) => self.as_type(nt, ty),
                    Arg::Imm(x) => Nt {
                        v: self.memset(ty, x),
                        form,
                    },
                    Arg::Index(i) => {
                        let ty = self.sbuf(ty);
                        Nt {
                            v: self.filled(ty, i),
                            form,
                        }
                    }
                };
                self.tiles.insert(r, nt);
                return Ok(());
            }
            self.loc = self.ctx.op(bo).loc;
            let res = self.ctx.result(bo, 0);
            let out = self.scalar_op(bo, &env, r, form)?;
            env.insert(res, out);
        }
        Err(self.err(o, "a map body without a yield"))
    }

    /// The operand `v` of a map body op.
    fn arg(&self, at: Op, env: &HashMap<Value, Arg>, v: Value) -> Result<Arg, Diagnostic> {
        if let Some(a) = env.get(&v) {
            return Ok(*a);
        }
        if let Some(c) = self.constant(v) {
            return Ok(Arg::Imm(c));
        }
        let index = matches!(self.ctx.type_kind(self.ctx.value_type(v)), TypeKind::Index);
        match self.map.values.get(&v) {
            Some(n) if index => Ok(Arg::Index(*n)),
            _ => Err(self.err(at, "a map reading a scalar computed at run time")),
        }
    }

    /// One scalar op of a map body on whole tiles of the map's result `r`.
    fn scalar_op(
        &mut self,
        bo: Op,
        env: &HashMap<Value, Arg>,
        r: Value,
        form: Form,
    ) -> Result<Arg, Diagnostic> {
        let ctx = &*self.ctx;
        let res_elem = ctx.value_type(ctx.result(bo, 0));
        let operands = ctx.operands(bo).to_vec();
        let mut args = Vec::new();
        for v in &operands {
            args.push(self.arg(bo, env, *v)?);
        }
        let runtime_scalar = args.iter().any(|a| matches!(a, Arg::Index(_)))
            && !args.iter().any(|a| matches!(a, Arg::Tile(_)));
        if runtime_scalar {
            return self.index_scalar_op(bo, &operands, &args);
        }
        let ty = self.nki_type(bo, r, form, Some(res_elem))?;
        let ty = self.sbuf(ty);
        let alu = binary_alu(ctx, bo);
        if let Some(op) = alu {
            return self.binary(bo, op, args[0], args[1], ty);
        }
        if let Some((f, scale)) = activation(ctx, bo) {
            return Ok(match args[0] {
                Arg::Index(_) => return Err(self.err(bo, RUN_TIME_TILE)),
                Arg::Imm(x) => Arg::Imm(f.apply(x * scale)),
                Arg::Tile(nt) => {
                    let u = self.ctx.uniquer().clone();
                    let fa = f.attr(&u);
                    let v = nki::Activation::build(
                        &mut self.b(),
                        nt.v,
                        fa,
                        imm(&u, scale),
                        imm(&u, 0.0),
                        ty,
                    )
                    .result(self.ctx);
                    Arg::Tile(Nt { v, form: nt.form })
                }
            });
        }
        if arith::NegF::is(ctx, bo) {
            return self.binary(bo, Alu::Multiply, args[0], Arg::Imm(-1.0), ty);
        }
        if let Some(c) = arith::CmpF::of(ctx, bo) {
            // The predicates IEEE comparisons do not give directly: the
            // unordered ones are `uno | ordered`, `one` is `ord & ne`, where
            // `uno` is `x != x | y != y` (NaN is unequal to itself).
            use arith::build::CmpFPredicate as P;
            let p = c.predicate(ctx).unwrap_or(-1);
            let is = |q: P| p == q as i64;
            let (nan_test, join) = if is(P::Ord) || is(P::One) {
                (Alu::IsEqual, Alu::Min)
            } else {
                (Alu::NotEqual, Alu::Max)
            };
            let x = self.binary(bo, nan_test, args[0], args[0], ty)?;
            let y = self.binary(bo, nan_test, args[1], args[1], ty)?;
            let nan = self.binary(bo, join, x, y, ty)?;
            let ordered = [
                (P::Ueq, Alu::IsEqual),
                (P::Ugt, Alu::IsGt),
                (P::Uge, Alu::IsGe),
                (P::Ult, Alu::IsLt),
                (P::Ule, Alu::IsLe),
                (P::One, Alu::NotEqual),
            ];
            if is(P::Uno) || is(P::Ord) {
                return Ok(nan);
            }
            if let Some((_, alu)) = ordered.iter().find(|(q, _)| is(*q)) {
                let cmp = self.binary(bo, *alu, args[0], args[1], ty)?;
                return self.binary(bo, join, nan, cmp, ty);
            }
            return Err(self.err(bo, "a float comparison nki has no instruction for"));
        }
        if arith::RemSI::is(ctx, bo) {
            // a - b·trunc(a / b): the quotient truncates in the integer
            // result type, as remsi's sign follows the dividend.
            let q = self.binary(bo, Alu::Divide, args[0], args[1], ty)?;
            let p = self.binary(bo, Alu::Multiply, q, args[1], ty)?;
            return self.binary(bo, Alu::Subtract, args[0], p, ty);
        }
        if math::Fma::is(ctx, bo) {
            let p = self.binary(bo, Alu::Multiply, args[0], args[1], ty)?;
            return self.binary(bo, Alu::Add, p, args[2], ty);
        }
        if arith::Select::is(ctx, bo) {
            let mut tiles = Vec::new();
            for a in &args {
                tiles.push(match a {
                    Arg::Tile(nt) => self.in_sbuf(*nt).v,
                    Arg::Imm(_) | Arg::Index(_) => {
                        let t = nki::nki_tile(self.ctx.uniquer(), ty)
                            .expect("a tile")
                            .clone();
                        let ety = if tiles.is_empty() {
                            make_nki_tile(self.ctx.uniquer(), t.shape, t.elem, Space::Sbuf)
                        } else {
                            ty
                        };
                        match a {
                            Arg::Imm(x) => self.memset(ety, *x),
                            Arg::Index(i) => self.filled(ety, *i),
                            Arg::Tile(_) => unreachable!("handled above"),
                        }
                    }
                });
            }
            let v = nki::Select::build(&mut self.b(), tiles[0], tiles[1], tiles[2], None, ty)
                .result(self.ctx);
            return Ok(Arg::Tile(Nt { v, form }));
        }
        if arith::Bitcast::is(ctx, bo) {
            let from = ctx.value_type(operands[0]);
            return Ok(match args[0] {
                Arg::Index(_) => return Err(self.err(bo, RUN_TIME_TILE)),
                Arg::Imm(x) => Arg::Imm(
                    nki::reinterpret(ctx.type_kind(from), ctx.type_kind(res_elem), x)
                        .ok_or_else(|| self.err(bo, "a bitcast between widths"))?,
                ),
                Arg::Tile(nt) => {
                    let x = self.in_sbuf(nt).v;
                    let v = nki::Bitcast::build(&mut self.b(), x, ty).result(self.ctx);
                    Arg::Tile(Nt { v, form: nt.form })
                }
            });
        }
        let width = |t: Type| match ctx.type_kind(t) {
            TypeKind::Integer { width, .. } => Some(*width),
            _ => None,
        };
        if arith::ShRUI::is(ctx, bo) {
            // A logical shift by a constant s of a w-bit integer: the
            // arithmetic shift with the top s bits cleared.
            let (Some(w), Arg::Imm(s)) = (width(res_elem), args[1]) else {
                return Err(self.err(bo, "a logical shift by an amount computed at run time"));
            };
            if s <= 0.0 {
                return Ok(args[0]);
            }
            if s >= f64::from(w) {
                return Ok(Arg::Imm(0.0));
            }
            let shifted = self.binary(bo, Alu::RightShift, args[0], args[1], ty)?;
            let mask = ((1u64 << (w - s as u32)) - 1) as f64;
            return self.binary(bo, Alu::BitwiseAnd, shifted, Arg::Imm(mask), ty);
        }
        if arith::ExtUI::is(ctx, bo) || arith::UIToFP::is(ctx, bo) {
            // The operand's bits as an unsigned number: kept by a mask of
            // its width (booleans are 0 or 1 already).
            let src = ctx.value_type(operands[0]);
            let w = width(src).unwrap_or(1);
            let x = if w > 1 && w < 53 {
                let int_ty = self.nki_type(bo, r, form, Some(src))?;
                let int_ty = self.sbuf(int_ty);
                let mask = Arg::Imm(((1u64 << w) - 1) as f64);
                self.binary(bo, Alu::BitwiseAnd, args[0], mask, int_ty)?
            } else {
                args[0]
            };
            return Ok(match x {
                Arg::Index(i) => Arg::Index(i),
                Arg::Imm(x) => Arg::Imm(round_to(self.ctx, res_elem, x)),
                Arg::Tile(nt) => Arg::Tile(self.as_type(nt, ty)),
            });
        }
        let conversion = arith::ExtF::is(ctx, bo)
            || arith::TruncF::is(ctx, bo)
            || arith::SIToFP::is(ctx, bo)
            || arith::ExtSI::is(ctx, bo)
            || arith::FPToSI::is(ctx, bo)
            || arith::IndexCast::is(ctx, bo);
        if conversion {
            return Ok(match args[0] {
                Arg::Index(i) => Arg::Index(i),
                Arg::Imm(x) => Arg::Imm(round_to(ctx, res_elem, x)),
                Arg::Tile(nt) => Arg::Tile(self.as_type(nt, ty)),
            });
        }
        Err(self.err(
            bo,
            format!("{} has no nki instruction", self.ctx.op_name(bo)),
        ))
    }

    /// A map body op on scalars the program computed (loop positions and
    /// the like) and constants, computed once as index arithmetic beside
    /// the instructions; a comparison's flag becomes an index of 0 or 1.
    fn index_scalar_op(
        &mut self,
        bo: Op,
        operands: &[Value],
        args: &[Arg],
    ) -> Result<Arg, Diagnostic> {
        let index = self.ctx.uniquer().ty(TypeKind::Index);
        let all_index = operands
            .iter()
            .all(|v| *self.ctx.type_kind(self.ctx.value_type(*v)) == TypeKind::Index);
        if !all_index || !scalar_arith(self.ctx, bo) {
            return Err(self.err(bo, "an operator of two scalars computed at run time"));
        }
        let mut map = ValueMap::default();
        for (v, a) in operands.iter().zip(args) {
            let nv = match a {
                Arg::Index(i) => *i,
                Arg::Imm(x) => arith::build::index(&mut self.b(), *x as i64),
                Arg::Tile(_) => unreachable!("no tiles here"),
            };
            map.values.insert(*v, nv);
        }
        let n = self.ctx.clone_op(bo, &mut map);
        self.ctx.insert_op(InsertPoint::End(self.block), n);
        let res = self.ctx.result(n, 0);
        Ok(Arg::Index(
            match self.ctx.type_kind(self.ctx.value_type(res)) {
                TypeKind::Index => res,
                TypeKind::Integer { width: 1, .. } => {
                    arith::build::cast::<arith::IndexCastUI>(&mut self.b(), res, index)
                }
                _ => return Err(self.err(bo, "an operator of two scalars computed at run time")),
            },
        ))
    }

    /// `a op b` as a Vector instruction (`tensor_tensor`, or `tensor_scalar`
    /// with an immediate), or folded where both are immediates.
    fn binary(&mut self, at: Op, op: Alu, a: Arg, b: Arg, ty: Type) -> Result<Arg, Diagnostic> {
        let u = self.ctx.uniquer().clone();
        let o = op.attr(&u);
        let (v, form) = match (a, b) {
            (Arg::Imm(x), Arg::Imm(y)) => {
                let elem = nki::nki_tile(&u, ty).expect("a tile").elem;
                return Ok(Arg::Imm(round_to(self.ctx, elem, op.apply(x, y))));
            }
            (Arg::Tile(x), Arg::Imm(y)) => {
                let s = nki::imm_for(&u, self.elem(x.v), y);
                (
                    nki::TensorScalar::build(&mut self.b(), x.v, None, o, s, None, None, ty)
                        .result(self.ctx),
                    x.form,
                )
            }
            (Arg::Tile(x), Arg::Index(i)) => (
                nki::TensorScalar::build(
                    &mut self.b(),
                    x.v,
                    Some(i),
                    o,
                    imm(&u, 0.0),
                    None,
                    None,
                    ty,
                )
                .result(self.ctx),
                x.form,
            ),
            (Arg::Index(i), Arg::Tile(y)) => {
                let t = nki::TensorScalar::build(
                    &mut self.b(),
                    y.v,
                    Some(i),
                    o,
                    imm(&u, 0.0),
                    None,
                    None,
                    ty,
                );
                let flag = u.attr(AttrKind::Bool(true));
                let name = u.ident("reverse");
                self.ctx.set_attr(OpHandle::op(t), name, flag);
                (t.result(self.ctx), y.form)
            }
            (Arg::Index(_), _) | (_, Arg::Index(_)) => {
                return Err(self.err(at, "an operator of two scalars computed at run time"));
            }
            (Arg::Imm(x), Arg::Tile(y)) => {
                let s = nki::imm_for(&u, self.elem(y.v), x);
                let t = nki::TensorScalar::build(&mut self.b(), y.v, None, o, s, None, None, ty);
                let flag = u.attr(AttrKind::Bool(true));
                let name = u.ident("reverse");
                self.ctx.set_attr(OpHandle::op(t), name, flag);
                (t.result(self.ctx), y.form)
            }
            (Arg::Tile(x), Arg::Tile(y)) => {
                if x.form != y.form {
                    return Err(self.err(at, "an operator of a row vector and a column vector"));
                }
                (
                    nki::TensorTensor::build(&mut self.b(), x.v, y.v, o, None, ty).result(self.ctx),
                    x.form,
                )
            }
        };
        Ok(Arg::Tile(Nt { v, form }))
    }
}

/// The free size per partition a kernel of single rows spreads them at:
/// where every matrix tile is one row of the same `N` (a multiple of 128,
/// at least 256), no GEMM, iota or reduction across rows reads them, and
/// every access puts the row's first column at a multiple of `N` (a block
/// start) of a view whose rows are whole runs of `N / 128`, so the row
/// splits into 128 runs of `N / 128`.
fn single_rows(ctx: &Context, ops: &[Op]) -> Option<i64> {
    let mut n = None;
    for o in ops {
        for v in ctx.results(*o).chain(ctx.operands(*o).iter().copied()) {
            let Some(t) = tile_type(ctx.uniquer(), ctx.value_type(v)) else {
                continue;
            };
            match t.shape.as_slice() {
                [1, c] if n.is_none_or(|m| m == *c) => n = Some(*c),
                [1] => {}
                _ => return None,
            }
        }
        let matrix = |v: Value| {
            tile_type(ctx.uniquer(), ctx.value_type(v)).is_some_and(|t| t.shape.len() == 2)
        };
        // An access's column origin and the length of its view's rows.
        let access = |origin: &[Value], desc: Option<Attr>, buffer: Value| {
            let len = match desc {
                Some(a) => coord::desc_of(ctx.uniquer(), a)
                    .ok()
                    .and_then(|d| d.upper.last().copied()),
                None => ctx
                    .type_kind(ctx.value_type(buffer))
                    .shape()
                    .and_then(|s| s.last().copied()),
            };
            (origin.last().copied(), len)
        };
        let (column, len) = match TileOp::of(ctx, *o) {
            Some(TileOp::Gemm(_) | TileOp::SparseGemm(_) | TileOp::Iota(_)) => return None,
            Some(TileOp::Reduce(r)) if r.axis(ctx) != Some(1) => return None,
            Some(TileOp::Load(l)) if matrix(l.result(ctx)) => {
                access(l.origin(ctx), l.desc(ctx), l.buffer(ctx))
            }
            Some(TileOp::Store(s)) if matrix(s.value(ctx)) => {
                access(s.origin(ctx), s.desc(ctx), s.buffer(ctx))
            }
            Some(TileOp::Valid(v)) if matrix(v.result(ctx)) => {
                access(v.origin(ctx), v.desc(ctx), v.result(ctx))
            }
            _ => (None, None),
        };
        if let (Some(c), Some(n)) = (column, n) {
            let f = n / nki::PARTITIONS;
            let rows_split = len.is_some_and(|l| f > 0 && l % f == 0);
            if !block_start(ctx, c, n) || !rows_split {
                return None;
            }
        }
    }
    let n = n?;
    (n % nki::PARTITIONS == 0 && n >= 2 * nki::PARTITIONS).then_some(n / nki::PARTITIONS)
}

/// Whether index `v` is a multiple of `n`: a constant one, or a product
/// with a constant multiple of `n`.
fn block_start(ctx: &Context, v: Value, n: i64) -> bool {
    if let Some(c) = arith::constant_int(ctx, v) {
        return c % n == 0;
    }
    arith::MulI::defining(ctx, v).is_some_and(|m| {
        [m.lhs(ctx), m.rhs(ctx)]
            .iter()
            .any(|x| arith::constant_int(ctx, *x).is_some_and(|c| c % n == 0))
    })
}

/// Why a map's value that is a run-time scalar cannot be used where a
/// whole tile is.
const RUN_TIME_TILE: &str = "a scalar computed at run time used as a whole tile";

/// The `i64` attribute `v`.
fn i64_attr(u: &aic::ir::Uniquer, v: i64) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: u.int_type(64),
    })
}

/// `x` rounded to `elem` (a float type; integers as they are).
fn round_to(ctx: &Context, elem: Type, x: f64) -> f64 {
    match ctx.type_kind(elem) {
        TypeKind::Float(k) => k.to_f64(k.from_f64(x)),
        TypeKind::Integer { .. } => x.trunc(),
        _ => x,
    }
}

/// Whether `o` is an `arith` op without regions: scalar arithmetic the nki
/// kernel computes as it is (copied beside the instructions).
fn scalar_arith(ctx: &Context, o: Op) -> bool {
    ctx.op_spec(o)
        .is_some_and(|s| s.dialect() == arith::DIALECT.name)
        && ctx.regions(o).is_empty()
}

/// Whether an op is of a kind (a handle's `is`).
type IsOp = fn(&Context, Op) -> bool;

/// The Vector engine operator of a binary map op, if it is one.
fn binary_alu(ctx: &Context, o: Op) -> Option<Alu> {
    use arith::build::CmpFPredicate as P;
    let table: [(IsOp, Alu); 20] = [
        (arith::AddF::is, Alu::Add),
        (arith::SubF::is, Alu::Subtract),
        (arith::MulF::is, Alu::Multiply),
        (arith::DivF::is, Alu::Divide),
        (arith::MaximumF::is, Alu::Max),
        (arith::MinimumF::is, Alu::Min),
        (arith::MaxNumF::is, Alu::Max),
        (arith::MinNumF::is, Alu::Min),
        (math::Powf::is, Alu::Pow),
        (arith::AddI::is, Alu::Add),
        (arith::SubI::is, Alu::Subtract),
        (arith::MulI::is, Alu::Multiply),
        (arith::AndI::is, Alu::BitwiseAnd),
        (arith::OrI::is, Alu::BitwiseOr),
        (arith::XOrI::is, Alu::BitwiseXor),
        (arith::ShLI::is, Alu::LeftShift),
        (arith::ShRSI::is, Alu::RightShift),
        (arith::MaxSI::is, Alu::Max),
        (arith::MinSI::is, Alu::Min),
        // An integer result truncates the quotient toward zero, as divsi.
        (arith::DivSI::is, Alu::Divide),
    ];
    if let Some((_, a)) = table.iter().find(|(is, _)| is(ctx, o)) {
        return Some(*a);
    }
    if let Some(c) = arith::CmpF::of(ctx, o) {
        let p = c.predicate(ctx)?;
        // Those an IEEE comparison gives as it is (false with a NaN, but
        // `une` true); the others are composed in `scalar_op`.
        let ps = [
            (P::Oeq, Alu::IsEqual),
            (P::Une, Alu::NotEqual),
            (P::Ogt, Alu::IsGt),
            (P::Oge, Alu::IsGe),
            (P::Olt, Alu::IsLt),
            (P::Ole, Alu::IsLe),
        ];
        return ps.iter().find(|(q, _)| *q as i64 == p).map(|(_, a)| *a);
    }
    if let Some(c) = arith::CmpI::of(ctx, o) {
        // eq, ne, slt, sle, sgt, sge (the unsigned ones compare the same
        // non-negative indices).
        return match c.predicate(ctx)? {
            0 => Some(Alu::IsEqual),
            1 => Some(Alu::NotEqual),
            2 | 6 => Some(Alu::IsLt),
            3 | 7 => Some(Alu::IsLe),
            4 | 8 => Some(Alu::IsGt),
            5 | 9 => Some(Alu::IsGe),
            _ => None,
        };
    }
    None
}

/// The Scalar engine function (and input scale) of a unary map op.
fn activation(ctx: &Context, o: Op) -> Option<(Act, f64)> {
    let table: [(IsOp, Act, f64); 10] = [
        (math::Erf::is, Act::Erf, 1.0),
        (math::Exp::is, Act::Exp, 1.0),
        (math::Exp2::is, Act::Exp, std::f64::consts::LN_2),
        (math::Log::is, Act::Log, 1.0),
        (math::Tanh::is, Act::Tanh, 1.0),
        (math::Sqrt::is, Act::Sqrt, 1.0),
        (math::Rsqrt::is, Act::Rsqrt, 1.0),
        (math::Absf::is, Act::Abs, 1.0),
        (math::Sin::is, Act::Sin, 1.0),
        (math::Cos::is, Act::Cos, 1.0),
    ];
    table
        .iter()
        .find(|(is, _, _)| is(ctx, o))
        .map(|(_, f, s)| (*f, *s))
}
