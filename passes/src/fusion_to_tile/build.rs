//! Building tile IR: the elementwise graph ops a kernel applies element by
//! element (any graph op whose row in [`graph::SEMANTICS`] has a `scalar`
//! lowering, emitted on values in their compute types), tile-level helpers
//! over an [`aic::ir::Builder`], maps and elementwise chains. Ops are
//! created through their typed handles (`tile::Map::build`,
//! `arith::build::binary::<arith::AddF>`).
//!
//! Every value in a kernel keeps its own compute type
//! ([`graph::scalar::compute_type`] of its storage element type): loads
//! convert from storage to compute type, stores back, and a cast or compare
//! changes the type of the values after it.

use super::*;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::graph::scalar::{self, ScalarFn};
use aic_dialects::{graph, math};

/// The scalar lowering of `o`, if it is an elementwise graph op.
pub(super) fn scalar_fn(ctx: &Context, o: Op) -> Option<ScalarFn> {
    graph::semantics(ctx.op_name(o))?.scalar
}

/// Whether `o` is an elementwise graph op (one with a scalar lowering).
pub(super) fn is_elementwise(ctx: &Context, o: Op) -> bool {
    scalar_fn(ctx, o).is_some()
}

/// The element type of tile `t` (or of a tensor, or a scalar's type).
pub(super) fn elem_of(ctx: &Context, t: Value) -> Type {
    let ty = ctx.value_type(t);
    let k = ctx.type_kind(ty);
    k.dialect_value::<tile::TileType>()
        .map(|t| t.elem)
        .or_else(|| k.element_type())
        .unwrap_or(ty)
}

/// The storage element type of tensor value `v` (of the graph).
pub(super) fn storage_elem(ctx: &Context, v: Value) -> Type {
    let ty = ctx.value_type(v);
    ctx.type_kind(ty).element_type().unwrap_or(ty)
}

/// What an elementwise op reads for one operand inside a map body: a tile
/// (a map input) or a literal (an `arith.constant` in the body).
#[derive(Clone, Copy)]
pub(super) enum In {
    /// A map input, a tile of values in their compute type.
    Tile(Value),
    /// A splat constant: its attribute and storage element type.
    Lit(Attr, Type),
}

/// The literal `a` (a splat constant of storage type `elem`) in its compute
/// type, in a map body.
pub(super) fn literal(b: &mut Builder<'_>, a: Attr, elem: Type) -> Value {
    let u = b.ctx.uniquer().clone();
    let ct = scalar::compute_type(&u, elem);
    let t = aic::interp::tensor_of_attr(&u, a, elem).expect("a splat literal");
    match u.type_kind(ct) {
        TypeKind::Float(_) => ab::number(b, t.to_f64s()[0], ct),
        TypeKind::Integer { width: 1, .. } => ab::number(b, f64::from(t.first_int() != 0), ct),
        _ => ab::int(b, t.first_int(), ct),
    }
}

/// Apply elementwise graph op `op` to `args` in a map body: its scalar
/// lowering on values in their compute types ([`scalar::lower`]).
pub(super) fn apply(s: &mut Builder<'_>, op: Op, args: &[Value]) -> Value {
    // Checked when the group was read: every op given to a generator has
    // a lowering on its elements.
    scalar::lower(s, op, args).expect("a scalar lowering")
}

/// Why elementwise op `o` has no lowering on its elements, if it has
/// none: its lowering is tried on a scratch block, then dropped.
pub(super) fn check_lowering(ctx: &mut Context, o: Op) -> Result<(), Skip> {
    let f = scalar_fn(ctx, o).ok_or_else(|| format!("{} is not elementwise", ctx.op_name(o)))?;
    let u = ctx.uniquer().clone();
    let mut args = Vec::new();
    for x in ctx.operands(o).to_vec() {
        let e = storage_elem(ctx, x);
        if !matches!(
            u.type_kind(e),
            TypeKind::Float(_) | TypeKind::Integer { .. }
        ) {
            return Err(format!(
                "{} of elements of type {}",
                ctx.op_name(o),
                aic::printer::type_text(&u, e)
            ));
        }
        args.push((scalar::compute_type(&u, e), None));
    }
    let blk = ctx.create_block(&args);
    let xs = ctx.block_args(blk).to_vec();
    let loc = ctx.op(o).loc;
    let made = f(
        &mut Builder {
            ctx: &mut *ctx,
            ip: InsertPoint::End(blk),
            loc,
        },
        o,
        &xs,
    );
    ctx.erase_blocks(&[blk]);
    made.map(|_| ())
        .map_err(|why| format!("{}: {why}", ctx.op_name(o)))
}

/// A tile of `shape` applying elementwise op `op` to `args` (tiles and
/// literals), its result in the compute type of the op's result.
pub(super) fn emit_op(e: &mut Builder<'_>, op: Op, args: &[In], shape: &[i64]) -> Value {
    let u = e.ctx.uniquer().clone();
    let out = scalar::compute_type(&u, storage_elem(e.ctx, e.ctx.result(op, 0)));
    let ty = tile::plain_tile(&u, shape.to_vec(), out, Space::Register);
    let tiles: Vec<Value> = args
        .iter()
        .filter_map(|a| match a {
            In::Tile(t) => Some(*t),
            In::Lit(..) => None,
        })
        .collect();
    if tiles.is_empty() {
        // Literals only: the value is one number, spread over the tile.
        let mut xs = Vec::new();
        for a in args {
            if let In::Lit(c, el) = a {
                xs.push(literal(e, *c, *el));
            }
        }
        let v = apply(e, op, &xs);
        return spread(e, v, ty, &[]);
    }
    let elems: Vec<Type> = tiles.iter().map(|t| elem_of(e.ctx, *t)).collect();
    let args = args.to_vec();
    map_typed(e, &tiles, &elems, ty, &mut |s, m| {
        let mut next = m.iter();
        let xs: Vec<Value> = args
            .iter()
            .map(|a| match a {
                In::Tile(_) => *next.next().expect("a map argument"),
                In::Lit(c, el) => literal(s, *c, *el),
            })
            .collect();
        apply(s, op, &xs)
    })
}

/// A builder at the end of `block` (a loop or map body) with `b`'s context
/// and location.
pub(super) fn inside<'a>(b: &'a mut Builder<'_>, block: Block) -> Builder<'a> {
    Builder {
        ctx: &mut *b.ctx,
        ip: InsertPoint::End(block),
        loc: b.loc,
    }
}

/// The `i64` attribute `v`.
pub(super) fn i64_attr(u: &aic::ir::Uniquer, v: i64) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: u.int_type(64),
    })
}

/// The `i1` type (masks, comparisons).
pub(super) fn i1(u: &aic::ir::Uniquer) -> Type {
    u.int_type(1)
}

/// `tile.program_id axis`.
pub(super) fn program_id(b: &mut Builder<'_>, axis: i64) -> Value {
    let index = b.ctx.uniquer().ty(TypeKind::Index);
    let a = i64_attr(b.ctx.uniquer(), axis);
    tile::ProgramId::build(b, a, index).id(b.ctx)
}

/// `tile.program_id axis * size`: where this block's tile starts along
/// grid axis `axis`.
pub(super) fn block_start(b: &mut Builder<'_>, axis: i64, size: i64) -> Value {
    let p = program_id(b, axis);
    let c = ab::index(b, size);
    ab::binary::<arith::MulI>(b, p, c)
}

/// `tile.broadcast x, dims = dims` to the tile type `ty` (a scalar with no
/// dims).
pub(super) fn spread(b: &mut Builder<'_>, x: Value, ty: Type, dims: &[i64]) -> Value {
    let d = b.ctx.uniquer().i64_array(dims);
    tile::Broadcast::build(b, x, d, ty).result(b.ctx)
}

/// `tile.reduce kind t, axis = 1` to the row tile type `ty`.
pub(super) fn reduce_rows(
    b: &mut Builder<'_>,
    t: Value,
    kind: tile::ReduceKind,
    ty: Type,
) -> Value {
    reduce_axis(b, t, kind, 1, ty)
}

/// `tile.reduce kind t, axis = axis` to the tile type `ty`.
pub(super) fn reduce_axis(
    b: &mut Builder<'_>,
    t: Value,
    kind: tile::ReduceKind,
    axis: i64,
    ty: Type,
) -> Value {
    let kind = kind.attr(b.ctx.uniquer());
    let axis = i64_attr(b.ctx.uniquer(), axis);
    tile::Reduce::build(b, t, kind, axis, ty).result(b.ctx)
}

/// A block-level `tile.gemm a x b + acc` of accumulator type `ty`.
pub(super) fn block_gemm(b: &mut Builder<'_>, x: Value, y: Value, acc: Value, ty: Type) -> Value {
    let level = tile::Level::Block.attr(b.ctx.uniquer());
    tile::Gemm::build(b, x, y, acc, level, ty).result(b.ctx)
}

/// `tile.sparse_gemm x, values, meta, acc` at the block level.
pub(super) fn block_sparse_gemm(
    b: &mut Builder<'_>,
    x: Value,
    (values, meta): (Value, Value),
    acc: Value,
    ty: Type,
) -> Value {
    let level = tile::Level::Block.attr(b.ctx.uniquer());
    tile::SparseGemm::build(b, x, values, meta, acc, level, ty).result(b.ctx)
}

/// `tile` (of `shape` and `elem`) staged into shared memory, `depth` deep.
pub(super) fn stage(
    b: &mut Builder<'_>,
    tile: Value,
    shape: &[i64],
    elem: Type,
    depth: i64,
) -> Value {
    let u = b.ctx.uniquer().clone();
    let st = tile::plain_tile(&u, shape.to_vec(), elem, Space::Shared);
    let space = Space::Shared.attr(&u);
    let depth = i64_attr(&u, depth);
    tile::Transfer::build(b, tile, space, depth, st).result(b.ctx)
}

/// `tile.valid at through desc`: which elements of a tile of `shape` at
/// `at` the descriptor maps in range.
pub(super) fn valid(b: &mut Builder<'_>, at: &[Value], shape: &[i64], desc: &Desc) -> Value {
    let u = b.ctx.uniquer().clone();
    let mt = tile::plain_tile(&u, shape.to_vec(), i1(&u), Space::Register);
    tile::Valid::build(b, at, coord::desc_attr(&u, desc), mt).result(b.ctx)
}

/// `tile.iota dim = dim` of the tile type `ty`.
pub(super) fn iota(b: &mut Builder<'_>, dim: i64, ty: Type) -> Value {
    let d = i64_attr(b.ctx.uniquer(), dim);
    tile::Iota::build(b, d, ty).result(b.ctx)
}

/// A `tile.for lo to hi step step` carrying `inits`, its body `body`
/// (whose arguments are the induction variable and the carried values).
pub(super) fn for_loop(
    b: &mut Builder<'_>,
    (lo, hi, step): (Value, Value, Value),
    inits: &[Value],
    results: &[Type],
    body: Block,
) -> tile::For {
    let f = tile::For::build(b, lo, hi, step, inits, None, None, results);
    let r = f.body(b.ctx);
    b.ctx.append_block(r, body);
    f
}

/// `tile.return`.
pub(super) fn ret(b: &mut Builder<'_>) {
    tile::Return::build(b);
}

/// `tile.yield values`.
pub(super) fn yield_(b: &mut Builder<'_>, values: &[Value]) {
    tile::Yield::build(b, values);
}

/// An operand of a chain step.
#[derive(Clone, Debug)]
pub(super) enum Arg {
    /// The running value itself.
    Running,
    /// An earlier value of the chain: 0 its start, `k` the result of its
    /// step `k - 1` (an epilogue that reads a value twice, as GeLU's
    /// `x * (1 + tanh(c * (x + a * x^3)))` does, is a DAG over its values).
    Earlier(usize),
    /// An operand read (or computed on the fly) in the running value's
    /// index space (a bias vector through a broadcast).
    Read(Operand),
}

/// One step of an elementwise chain: an elementwise graph op and its
/// operands in order.
#[derive(Clone, Debug)]
pub(super) struct Step {
    /// The graph op.
    pub(super) op: Op,
    /// Its operands.
    pub(super) args: Vec<Arg>,
}

/// An elementwise chain on a running value (each step may also read the
/// chain's earlier values: a DAG in program order).
pub(super) type Chain = Vec<Step>;

/// Elementwise op `o` as a step on the running value, the last of the
/// chain's values `vals` (of shape `now`; `fwd` the view from the chain's
/// shape to `now`): operands among `vals` read as they are, its other
/// operands computed from group inputs ([`operand`]), of the running shape,
/// rank 0, or bias vectors over its last dimension. The running value comes
/// first in a commutative op.
pub(super) fn chain_step(
    ctx: &Context,
    o: Op,
    vals: &[Value],
    (now, fwd): (&[i64], Option<&Desc>),
    known: (&[Value], &Views),
    taken: &mut Vec<Op>,
) -> Result<Step, Skip> {
    let name = ctx.op_name(o);
    let cur = *vals.last().expect("a chain starts from a value");
    let mut args = Vec::new();
    for (k, x) in ctx.operands(o).to_vec().into_iter().enumerate() {
        if x == cur {
            args.push(Arg::Running);
            continue;
        }
        if let Some(j) = vals.iter().position(|v| *v == x) {
            args.push(Arg::Earlier(j));
            continue;
        }
        let mut op = operand(ctx, x, known, taken)?;
        let s = shape(ctx, x);
        if s == now {
        } else if s.is_empty() {
            op.compose(&Desc::broadcast(&s, now, &[]))?;
        } else if graph::BiasAdd::is(ctx, o) && k == 1 && now.last().is_some_and(|n| s == [*n]) {
            op.compose(&Desc::broadcast(&s, now, &[now.len() - 1]))?;
        } else {
            return Err(format!("{name}'s other operand has shape {s:?}"));
        }
        if let Some(f) = fwd {
            op.compose(f)?;
        }
        args.push(Arg::Read(op));
    }
    if !args
        .iter()
        .any(|a| matches!(a, Arg::Running | Arg::Earlier(_)))
    {
        return Err(format!("{name} is not applied to the running value"));
    }
    let commutative = ctx
        .op_spec(o)
        .is_some_and(|s| s.has(aic::dialect::Traits::COMMUTATIVE));
    if commutative && matches!(args[..], [Arg::Read(_), Arg::Running]) {
        args.swap(0, 1);
    }
    Ok(Step { op: o, args })
}

/// Read the elementwise ops among `ops` (in program order) that apply in
/// turn to `cur` (of shape `full`), skipping ops that do not read it; their
/// other operands are computed from group inputs ([`chain_step`], the ops
/// that takes added to `taken`). Casts and compares change the running
/// value's type. Reshapes that only add or drop unit dims are read
/// through; with `views_ok`, trailing reshapes and transposes too. Returns
/// the chain, the trailing views, the last value and the index of the
/// first op that reads `cur` and is not read (`ops.len()` when none).
pub(super) fn read_chain(
    ctx: &Context,
    ops: &[Op],
    mut cur: Value,
    known: (&[Value], &Views),
    full: &[i64],
    views_ok: bool,
    taken: &mut Vec<Op>,
) -> Result<(Chain, Vec<Op>, Value, usize), Skip> {
    let mut chain = Chain::new();
    // The chain's values so far (its start, then each step's result).
    let mut vals = vec![cur];
    let mut views: Vec<Op> = Vec::new();
    // After reshapes that only add or drop unit dims, the running value's
    // shape, and the view from `full` to it.
    let mut now = full.to_vec();
    let mut fwd: Option<Desc> = None;
    for (i, &o) in ops.iter().enumerate() {
        if taken.contains(&o)
            || !ctx
                .operands(o)
                .iter()
                .any(|x| *x == cur || vals.contains(x))
        {
            continue;
        }
        if !ctx.operands(o).contains(&cur) {
            // A later op reads an earlier value of the chain: a DAG, whose
            // values other than the last only its own steps may read.
            if !views.is_empty() || !is_elementwise(ctx, o) {
                return Err(format!(
                    "{} reads an epilogue value that is not its last",
                    ctx.op_name(o)
                ));
            }
        }
        if views.is_empty() && unit_reshape(ctx, o) == Some(cur) {
            taken.push(o);
            cur = ctx.result(o, 0);
            // The same elements: the reshaped value is the same chain value.
            *vals.last_mut().expect("a chain value") = cur;
            now = shape(ctx, cur);
            fwd = Some(Desc::reshape(&now, full));
            continue;
        }
        let viewed = graph::Reshape::of(ctx, o)
            .map(|r| r.x(ctx))
            .or_else(|| graph::Transpose::of(ctx, o).map(|t| t.x(ctx)));
        if views_ok && viewed == Some(cur) {
            taken.push(o);
            views.push(o);
            cur = ctx.result(o, 0);
            continue;
        }
        if !is_elementwise(ctx, o) {
            inner_values_stay(ctx, &vals, &chain)?;
            return Ok((chain, views, cur, i));
        }
        if !views.is_empty() {
            return Err(format!(
                "{} after a reshape or transpose of the result",
                ctx.op_name(o)
            ));
        }
        if shape(ctx, ctx.result(o, 0)) != now {
            return Err(format!("{} broadcasts the running value", ctx.op_name(o)));
        }
        chain.push(chain_step(
            ctx,
            o,
            &vals,
            (&now, fwd.as_ref()),
            known,
            taken,
        )?);
        taken.push(o);
        cur = ctx.result(o, 0);
        vals.push(cur);
    }
    inner_values_stay(ctx, &vals, &chain)?;
    Ok((chain, views, cur, ops.len()))
}

/// The values of a chain other than its last are read by its own steps
/// only (the kernel computes them in registers and stores only the last).
fn inner_values_stay(ctx: &Context, vals: &[Value], chain: &Chain) -> Result<(), Skip> {
    let inner = vals
        .get(1..vals.len().saturating_sub(1))
        .unwrap_or_default();
    for v in inner {
        if let Some(u) = ctx
            .uses(*v)
            .iter()
            .find(|u| !chain.iter().any(|st| st.op == u.op))
        {
            return Err(format!(
                "an epilogue value read by {} besides its last",
                ctx.op_name(u.op)
            ));
        }
    }
    Ok(())
}

/// Where a generator reads operand tiles: the kernel's buffers (by group
/// input), the tile's index space as a view of the operands' logical shape,
/// the tile's origin and shape, and the element type the generator's own
/// op computes in (operands are read in their own compute types).
pub(super) struct At<'a> {
    /// The kernel buffer of a group input.
    pub(super) bufs: &'a dyn Fn(Value) -> Value,
    /// From the tile's index space to the operands' logical shape.
    pub(super) view: &'a Desc,
    /// The tile's origin.
    pub(super) at: &'a [Value],
    /// The tile's shape.
    pub(super) shape: &'a [i64],
    /// The element type the generator's op computes in.
    pub(super) calc: Type,
}

impl At<'_> {
    /// The register tile type of values computed here in `calc`.
    pub(super) fn ty(&self, u: &aic::ir::Uniquer) -> Type {
        tile::plain_tile(u, self.shape.to_vec(), self.calc, Space::Register)
    }

    /// Operand `o` as an elementwise op reads it: a literal where it is a
    /// splat constant, its tile otherwise.
    pub(super) fn input(&self, e: &mut Builder<'_>, o: &Operand) -> In {
        match o {
            Operand::Splat(c, el) => In::Lit(*c, *el),
            _ => In::Tile(self.read(e, o)),
        }
    }

    /// The tile of operand `o` here, in its compute type: loads through
    /// descriptors, chains as maps, masks where a padding view says so,
    /// sums of parts, literals spread.
    pub(super) fn read(&self, e: &mut Builder<'_>, o: &Operand) -> Value {
        let u = e.ctx.uniquer().clone();
        match o {
            Operand::Load(s) => {
                let d = over(&s.desc, self.view).expect("shapes agree");
                let buf = (self.bufs)(s.input);
                let calc = scalar::compute_type(&u, storage_elem(e.ctx, s.input));
                load(e, buf, self.at, self.shape, &d, calc)
            }
            Operand::Splat(c, el) => {
                let x = literal(e, *c, *el);
                let ct = e.ctx.value_type(x);
                let ty = tile::plain_tile(&u, self.shape.to_vec(), ct, Space::Register);
                spread(e, x, ty, &[])
            }
            Operand::Chain(base, chain) => {
                let t = self.read(e, base);
                emit_chain(e, chain, t, self)
            }
            Operand::Masked(inner, m) => {
                let t = self.read(e, inner);
                let d = over(m, self.view).expect("shapes agree");
                let ok = valid(e, self.at, self.shape, &d);
                let el = elem_of(e.ctx, t);
                let ty = e.ctx.value_type(t);
                map_typed(e, &[t, ok], &[el, i1(&u)], ty, &mut |b, a| {
                    let z = ab::number(b, 0.0, el);
                    ab::select(b, a[1], a[0], z)
                })
            }
            Operand::Sum(parts) => {
                let mut acc: Option<Value> = None;
                for p in parts {
                    let t = self.read(e, p);
                    acc = Some(match acc {
                        None => t,
                        Some(a) => {
                            let el = elem_of(e.ctx, a);
                            let ty = e.ctx.value_type(a);
                            let float = matches!(u.type_kind(el), TypeKind::Float(_));
                            map(e, &[a, t], ty, el, &mut |b, x| {
                                if float {
                                    ab::binary::<arith::AddF>(b, x[0], x[1])
                                } else {
                                    ab::binary::<arith::AddI>(b, x[0], x[1])
                                }
                            })
                        }
                    });
                }
                acc.expect("a concat has parts")
            }
            Operand::Dag(nodes) => {
                let mut ins: Vec<In> = Vec::with_capacity(nodes.len());
                for n in nodes {
                    let t = match n {
                        Node::Leaf(o) => self.input(e, o),
                        Node::Op(op, args) => {
                            let xs: Vec<In> = args.iter().map(|i| ins[*i]).collect();
                            In::Tile(emit_op(e, *op, &xs, self.shape))
                        }
                    };
                    ins.push(t);
                }
                match *ins.last().expect("a DAG has nodes") {
                    In::Tile(t) => t,
                    In::Lit(c, el) => self.read(e, &Operand::Splat(c, el)),
                }
            }
        }
    }
}

/// `d` composed with `top` and simplified.
pub(super) fn over(d: &Desc, top: &Desc) -> Result<Desc, Skip> {
    Ok(d.compose(top).map_err(|e| e.to_string())?.simplify())
}

/// A `tile.map` of `inputs` (tiles of `ty`) applying `f` to their elements
/// (all of type `elem`).
pub(super) fn map(
    e: &mut Builder<'_>,
    inputs: &[Value],
    ty: Type,
    elem: Type,
    f: &mut dyn FnMut(&mut Builder<'_>, &[Value]) -> Value,
) -> Value {
    map_typed(e, inputs, &vec![elem; inputs.len()], ty, f)
}

/// A `tile.map` of `inputs` whose elements have the types `elems`.
pub(super) fn map_typed(
    e: &mut Builder<'_>,
    inputs: &[Value],
    elems: &[Type],
    ty: Type,
    f: &mut dyn FnMut(&mut Builder<'_>, &[Value]) -> Value,
) -> Value {
    let loc = e.loc;
    let args: Vec<(Type, Option<Attr>)> = elems.iter().map(|t| (*t, Some(loc))).collect();
    let mb = e.ctx.create_block(&args);
    let margs: Vec<Value> = e.ctx.block_args(mb).to_vec();
    {
        let mut s = inside(e, mb);
        let r = f(&mut s, &margs);
        yield_(&mut s, &[r]);
    }
    let m = tile::Map::build(e, inputs, ty);
    let r = m.body(e.ctx);
    e.ctx.append_block(r, mb);
    m.result(e.ctx)
}

/// The tile `t` (of `shape`) with its `from` elements converted to `to`
/// (`arith.extf` or `arith.truncf`), or `t` itself when they agree.
pub(super) fn convert(e: &mut Builder<'_>, t: Value, shape: &[i64], from: Type, to: Type) -> Value {
    if from == to {
        return t;
    }
    let u = e.ctx.uniquer().clone();
    let bits = |t: Type| match u.type_kind(t) {
        TypeKind::Float(k) => k.bit_width(),
        _ => 0,
    };
    let widen = bits(to) > bits(from);
    let ty = tile::plain_tile(&u, shape.to_vec(), to, Space::Register);
    map_typed(e, &[t], &[from], ty, &mut |s, a| {
        if widen {
            ab::cast::<arith::ExtF>(s, a[0], to)
        } else {
            ab::cast::<arith::TruncF>(s, a[0], to)
        }
    })
}

/// Apply `chain` to the tile `value`, one map per op, reading other
/// operands at `at`; each result in its own compute type.
pub(super) fn emit_chain(
    e: &mut Builder<'_>,
    chain: &Chain,
    mut value: Value,
    at: &At<'_>,
) -> Value {
    let mut vals = vec![value];
    for st in chain {
        let mut ins = Vec::with_capacity(st.args.len());
        for a in &st.args {
            ins.push(match a {
                Arg::Running => In::Tile(value),
                Arg::Earlier(j) => In::Tile(vals[*j]),
                Arg::Read(o) => at.input(e, o),
            });
        }
        value = emit_op(e, st.op, &ins, at.shape);
        vals.push(value);
    }
    value
}

/// A register tile of `shape` read from buffer `buf` at `at` through
/// `desc` (left off the op when it is the buffer's own row-major order),
/// its elements converted to `calc`.
pub(super) fn load(
    e: &mut Builder<'_>,
    buf: Value,
    at: &[Value],
    shape: &[i64],
    desc: &Desc,
    calc: Type,
) -> Value {
    let u = e.ctx.uniquer().clone();
    let bt = e.ctx.value_type(buf);
    let elem = u.type_kind(bt).element_type().expect("a memref");
    let t = tile::plain_tile(&u, shape.to_vec(), elem, Space::Register);
    let ld = tile::Load::build(e, buf, at, desc_prop(&u, bt, desc), t).result(e.ctx);
    convert(e, ld, shape, elem, calc)
}

/// Store the tile `value` (of `shape`, elements `calc`) to buffer `buf` (of
/// elements `elem`) at `at` through `desc`.
#[allow(clippy::too_many_arguments)]
pub(super) fn store(
    e: &mut Builder<'_>,
    value: Value,
    buf: Value,
    at: &[Value],
    shape: &[i64],
    desc: &Desc,
    calc: Type,
    elem: Type,
) {
    let u = e.ctx.uniquer().clone();
    let v = convert(e, value, shape, calc, elem);
    let bt = e.ctx.value_type(buf);
    tile::Store::build(e, v, buf, at, desc_prop(&u, bt, desc), None);
}

/// The `desc` attribute of a load or store of a buffer of type `bt`: none
/// for the buffer's own row-major order.
fn desc_prop(u: &aic::ir::Uniquer, bt: Type, desc: &Desc) -> Option<Attr> {
    let own = u
        .type_kind(bt)
        .shape()
        .is_some_and(|s| *desc == Desc::row_major(s));
    (!own).then(|| coord::desc_attr(u, desc))
}

/// The element type kernels compute in for `elem`
/// ([`scalar::compute_type`]: f32 for narrower floats, accumulating f16 or
/// bf16 loses too much).
pub(super) fn compute_elem(ctx: &Context, elem: Type) -> Type {
    scalar::compute_type(ctx.uniquer(), elem)
}

/// `exp2(fma(x, c, y))`: `exp(x - m)` as `exp2(x·log2 e - m·log2 e)`, with
/// `c = log2 e` and `y = -m·log2 e` (FlashAttention-2's form). `approx`
/// marks the exp2 `fastmath<afn>`, which lets NVPTX flush results below
/// f32's normal range (2^-126) to zero: one `ex2.approx.ftz` instead of
/// four instructions. Online softmax may: each result is a weight in sums
/// that also hold the row maximum's weight `exp2(0) = 1` (the denominator,
/// and P·V's rows before they are divided by it), where 2^-126 is far below
/// f32's rounding.
pub(super) fn exp2_fma(b: &mut Builder<'_>, x: Value, c: Value, y: Value, approx: bool) -> Value {
    let ty = b.ctx.value_type(x);
    let f = math::Fma::build(b, x, c, y, None, ty).result(b.ctx);
    let afn = approx.then(|| arith::FASTMATH.attr(b.ctx.uniquer(), arith::FASTMATH_AFN));
    math::Exp2::build(b, f, afn, ty).result(b.ctx)
}
