//! Building tile IR: the elementwise graph ops a kernel applies element by
//! element (one [`Epilogue`] row per op, with its scalar computation),
//! tile-level helpers over an [`aic::ir::Builder`], maps and elementwise
//! chains. Ops are created through their typed handles (`tile::Map::build`,
//! `arith::build::binary::<arith::AddF>`).

use super::*;
use aic::dialect::{OpSpec, Traits};
use aic::op_def::OpHandle;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::{graph, math};

/// A scalar builder of one operand.
type Unary = fn(&mut Builder<'_>, Value) -> Value;
/// A scalar builder of two operands, of the first one's type.
type Binary = fn(&mut Builder<'_>, Value, Value) -> Value;

/// How an epilogue op computes one element.
#[derive(Clone, Copy)]
enum Scalar {
    /// Of one operand (floats only).
    Unary(Unary),
    /// Of two operands: on floats, and on signless integers (signed
    /// arithmetic) where the op applies to them.
    Binary { float: Binary, int: Option<Binary> },
}

/// An elementwise graph op a kernel applies element by element: its spec
/// and its scalar computation.
pub(super) struct Epilogue {
    /// The graph op.
    pub(super) spec: &'static OpSpec,
    scalar: Scalar,
}

impl std::fmt::Debug for Epilogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.spec.name)
    }
}

/// The arith or math op `H` of `x` and `y`.
fn bin<H: OpHandle>(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    ab::binary::<H>(b, x, y)
}

/// The arith or math op `H` of `x`.
fn un<H: OpHandle>(b: &mut Builder<'_>, x: Value) -> Value {
    ab::unary::<H>(b, x)
}

/// `max(x, 0)`.
fn relu(b: &mut Builder<'_>, x: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let z = ab::number(b, 0.0, ty);
    ab::binary::<arith::MaximumF>(b, x, z)
}

/// `1 / (1 + exp(-x))`.
fn sigmoid(b: &mut Builder<'_>, x: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let n = ab::unary::<arith::NegF>(b, x);
    let e = ab::unary::<math::Exp>(b, n);
    let one = ab::number(b, 1.0, ty);
    let d = ab::binary::<arith::AddF>(b, one, e);
    ab::binary::<arith::DivF>(b, one, d)
}

/// `x * sigmoid(x)`.
fn silu(b: &mut Builder<'_>, x: Value) -> Value {
    let s = sigmoid(b, x);
    ab::binary::<arith::MulF>(b, x, s)
}

/// `x * (1 + erf(x / sqrt(2))) / 2`.
fn gelu(b: &mut Builder<'_>, x: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let r = ab::number(b, std::f64::consts::FRAC_1_SQRT_2, ty);
    let xs = ab::binary::<arith::MulF>(b, x, r);
    let e = ab::unary::<math::Erf>(b, xs);
    half_x_times_one_plus(b, x, e)
}

/// `x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2`.
fn gelu_tanh(b: &mut Builder<'_>, x: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let c = ab::number(b, (2.0 / std::f64::consts::PI).sqrt(), ty);
    let k = ab::number(b, 0.044_715, ty);
    let x2 = ab::binary::<arith::MulF>(b, x, x);
    let x3 = ab::binary::<arith::MulF>(b, x2, x);
    let kx3 = ab::binary::<arith::MulF>(b, k, x3);
    let inner = ab::binary::<arith::AddF>(b, x, kx3);
    let arg = ab::binary::<arith::MulF>(b, c, inner);
    // The formula is itself an approximation (to 1e-3), so its tanh may be
    // one too: targets pick a faster expansion.
    let afn = arith::FASTMATH.attr(b.ctx.uniquer(), arith::FASTMATH_AFN);
    let t = math::Tanh::build(b, arg, Some(afn), ty).result(b.ctx);
    half_x_times_one_plus(b, x, t)
}

/// `(0.5 * x) * (1 + t)`, GeLU's last steps.
fn half_x_times_one_plus(b: &mut Builder<'_>, x: Value, t: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let one = ab::number(b, 1.0, ty);
    let half = ab::number(b, 0.5, ty);
    let p = ab::binary::<arith::AddF>(b, one, t);
    let hx = ab::binary::<arith::MulF>(b, half, x);
    ab::binary::<arith::MulF>(b, hx, p)
}

/// Signed integer division, masked lanes' zero divisors replaced by one:
/// lanes past the edge read a zero divisor, and integer division by zero is
/// undefined.
fn divsi(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    let ty = b.ctx.value_type(y);
    let (zero, one) = (ab::int(b, 0, ty), ab::int(b, 1, ty));
    let is_zero = ab::cmpi(b, ab::CmpIPredicate::Eq, y, zero);
    let y = ab::select(b, is_zero, one, y);
    ab::binary::<arith::DivSI>(b, x, y)
}

/// A row of [`EPILOGUE`] for an op of one operand.
const fn unary(spec: &'static OpSpec, f: Unary) -> Epilogue {
    Epilogue {
        spec,
        scalar: Scalar::Unary(f),
    }
}

/// A row of [`EPILOGUE`] for an op of two operands.
const fn binary(spec: &'static OpSpec, float: Binary, int: Option<Binary>) -> Epilogue {
    Epilogue {
        spec,
        scalar: Scalar::Binary { float, int },
    }
}

/// The epilogue ops a kernel applies element by element, one row per op.
pub(super) static EPILOGUE: &[Epilogue] = &[
    unary(&graph::RELU, relu),
    unary(&graph::NEG, un::<arith::NegF>),
    unary(&graph::ABS, un::<math::Absf>),
    unary(&graph::EXP, un::<math::Exp>),
    unary(&graph::LOG, un::<math::Log>),
    unary(&graph::TANH, un::<math::Tanh>),
    unary(&graph::SQRT, un::<math::Sqrt>),
    unary(&graph::RSQRT, un::<math::Rsqrt>),
    unary(&graph::SIGMOID, sigmoid),
    unary(&graph::SILU, silu),
    unary(&graph::GELU, gelu),
    unary(&graph::GELU_TANH, gelu_tanh),
    unary(&graph::ERF, un::<math::Erf>),
    binary(&graph::ADD, bin::<arith::AddF>, Some(bin::<arith::AddI>)),
    binary(&graph::SUB, bin::<arith::SubF>, Some(bin::<arith::SubI>)),
    binary(&graph::MUL, bin::<arith::MulF>, Some(bin::<arith::MulI>)),
    binary(&graph::DIV, bin::<arith::DivF>, Some(divsi)),
    binary(
        &graph::MAX,
        bin::<arith::MaximumF>,
        Some(bin::<arith::MaxSI>),
    ),
    binary(
        &graph::MIN,
        bin::<arith::MinimumF>,
        Some(bin::<arith::MinSI>),
    ),
    binary(
        &graph::BIAS_ADD,
        bin::<arith::AddF>,
        Some(bin::<arith::AddI>),
    ),
];

impl Epilogue {
    /// The row of `o`, if it is an epilogue op.
    pub(super) fn of(ctx: &Context, o: Op) -> Option<&'static Epilogue> {
        let name = ctx.op_name(o);
        EPILOGUE.iter().find(|e| e.spec.name == name)
    }

    /// The op's name (for messages).
    pub(super) fn name(&self) -> &'static str {
        self.spec.name
    }

    /// Whether this is the graph op `spec`.
    pub(super) fn is(&self, spec: &OpSpec) -> bool {
        self.spec.name == spec.name
    }

    /// Whether it takes a second operand.
    pub(super) fn binary(&self) -> bool {
        matches!(self.scalar, Scalar::Binary { .. })
    }

    /// Whether its operands may be swapped.
    pub(super) fn commutative(&self) -> bool {
        self.spec.has(Traits::COMMUTATIVE)
    }

    /// Whether it also applies to integers.
    pub(super) fn on_integers(&self) -> bool {
        matches!(self.scalar, Scalar::Binary { int: Some(_), .. })
    }

    /// Its scalar computation in a map body, of `x` (and `y`), of `x`'s
    /// type (on signless integers, signed arithmetic: only ops
    /// [`Epilogue::on_integers`] take them).
    pub(super) fn emit(&self, b: &mut Builder<'_>, x: Value, y: Option<Value>) -> Value {
        let int = matches!(
            b.ctx.type_kind(b.ctx.value_type(x)),
            TypeKind::Integer { .. }
        );
        match self.scalar {
            Scalar::Unary(f) => f(b, x),
            Scalar::Binary { float, int: i } => {
                let y = y.expect("a binary op has two operands");
                let f = if int {
                    i.expect("an op that applies to integers")
                } else {
                    float
                };
                f(b, x, y)
            }
        }
    }
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
    let kind = kind.attr(b.ctx.uniquer());
    let axis = i64_attr(b.ctx.uniquer(), 1);
    tile::Reduce::build(b, t, kind, axis, ty).result(b.ctx)
}

/// A block-level `tile.gemm a x b + acc` of accumulator type `ty`.
pub(super) fn block_gemm(b: &mut Builder<'_>, x: Value, y: Value, acc: Value, ty: Type) -> Value {
    let level = tile::Level::Block.attr(b.ctx.uniquer());
    tile::Gemm::build(b, x, y, acc, level, ty).result(b.ctx)
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
    let f = tile::For::build(b, lo, hi, step, inits, results);
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

/// The other operand of a chain step.
#[derive(Clone, Debug)]
pub(super) enum Other {
    /// The running value itself (`x * x`).
    Same,
    /// An operand read (or computed on the fly) in the running value's
    /// index space (a bias vector through a broadcast).
    Read(Operand),
}

/// An elementwise chain on a running value: each step's op and its other
/// operand, if it has one.
pub(super) type Chain = Vec<(&'static Epilogue, Option<Other>)>;

/// Read the elementwise ops among `ops` (in program order) that apply in
/// turn to `cur` (of shape `full`), skipping ops that do not read it; their
/// other operands are computed from group inputs ([`operand`], the ops that
/// takes added to `taken`), of the running shape or bias vectors over its
/// last dimension. Reshapes that only add or drop unit dims are read
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
    let mut ty = ctx.value_type(cur);
    let mut chain = Chain::new();
    let mut views: Vec<Op> = Vec::new();
    // After reshapes that only add or drop unit dims, the running value's
    // shape, and the view from `full` to it.
    let mut now = full.to_vec();
    let mut fwd: Option<Desc> = None;
    for (i, &o) in ops.iter().enumerate() {
        if !ctx.operands(o).contains(&cur) || taken.contains(&o) {
            continue;
        }
        if views.is_empty() && unit_reshape(ctx, o) == Some(cur) {
            taken.push(o);
            cur = ctx.result(o, 0);
            ty = ctx.value_type(cur);
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
        let Some(ep) = Epilogue::of(ctx, o) else {
            return Ok((chain, views, cur, i));
        };
        let name = ep.name();
        if !views.is_empty() {
            return Err(format!("{name} after a reshape or transpose of the result"));
        }
        if ctx.value_type(ctx.result(o, 0)) != ty {
            return Err(format!("{name} changes the type"));
        }
        match (ep.binary(), ctx.operands(o)) {
            (false, [x]) if *x == cur => chain.push((ep, None)),
            (true, [x, y]) if *x == cur || (*y == cur && !ep.is(&graph::BIAS_ADD)) => {
                let other = if *x == cur { *y } else { *x };
                if other == cur {
                    chain.push((ep, Some(Other::Same)));
                } else {
                    // Non-commutative ops with the chain on the right keep their order.
                    if *y == cur && !ep.commutative() {
                        return Err(format!("{name} with the running value on the right"));
                    }
                    let mut op = operand(ctx, other, known, taken)?;
                    let s = shape(ctx, other);
                    let bias = ep.is(&graph::BIAS_ADD);
                    if bias && now.last().is_some_and(|n| s == [*n]) {
                        op.compose(&Desc::broadcast(&s, &now, &[now.len() - 1]))?;
                    } else if s != now {
                        return Err(format!("{name}'s other operand has shape {s:?}"));
                    }
                    if let Some(f) = &fwd {
                        op.compose(f)?;
                    }
                    chain.push((ep, Some(Other::Read(op))));
                }
            }
            _ => return Err(format!("{name} is not applied to the running value")),
        }
        taken.push(o);
        cur = ctx.result(o, 0);
    }
    Ok((chain, views, cur, ops.len()))
}

/// Where a generator reads operand tiles: the kernel's buffers (by group
/// input), the tile's index space as a view of the operands' logical shape,
/// the tile's origin and shape, and the element type computed in.
pub(super) struct At<'a> {
    /// The kernel buffer of a group input.
    pub(super) bufs: &'a dyn Fn(Value) -> Value,
    /// From the tile's index space to the operands' logical shape.
    pub(super) view: &'a Desc,
    /// The tile's origin.
    pub(super) at: &'a [Value],
    /// The tile's shape.
    pub(super) shape: &'a [i64],
    /// The element type computed in.
    pub(super) calc: Type,
}

impl At<'_> {
    /// The register tile type of values computed here.
    pub(super) fn ty(&self, u: &aic::ir::Uniquer) -> Type {
        tile::plain_tile(u, self.shape.to_vec(), self.calc, Space::Register)
    }

    /// The tile of operand `o` here: loads through descriptors, chains as
    /// maps, masks where a padding view says so, sums of parts.
    pub(super) fn read(&self, e: &mut Builder<'_>, o: &Operand) -> Value {
        let u = e.ctx.uniquer().clone();
        let ty = self.ty(&u);
        match o {
            Operand::Load(s) => {
                let d = over(&s.desc, self.view).expect("shapes agree");
                load(e, (self.bufs)(s.input), self.at, self.shape, &d, self.calc)
            }
            Operand::Chain(base, chain) => {
                let t = self.read(e, base);
                emit_chain(e, chain, t, self)
            }
            Operand::Masked(inner, m) => {
                let t = self.read(e, inner);
                let d = over(m, self.view).expect("shapes agree");
                let ok = valid(e, self.at, self.shape, &d);
                let calc = self.calc;
                map_typed(e, &[t, ok], &[calc, i1(&u)], ty, &mut |b, a| {
                    let z = ab::number(b, 0.0, calc);
                    ab::select(b, a[1], a[0], z)
                })
            }
            Operand::Sum(parts) => {
                let mut acc: Option<Value> = None;
                for p in parts {
                    let t = self.read(e, p);
                    acc = Some(match acc {
                        None => t,
                        Some(a) => map(e, &[a, t], ty, self.calc, &mut |b, x| {
                            ab::binary::<arith::AddF>(b, x[0], x[1])
                        }),
                    });
                }
                acc.expect("a concat has parts")
            }
            Operand::Dag(nodes) => {
                let calc = self.calc;
                let mut tiles: Vec<Value> = Vec::with_capacity(nodes.len());
                for n in nodes {
                    let t = match n {
                        Node::Leaf(o) => self.read(e, o),
                        Node::Op(ep, args) => {
                            let xs: Vec<Value> = args.iter().map(|i| tiles[*i]).collect();
                            map(e, &xs, ty, calc, &mut |s, a| {
                                ep.emit(s, a[0], a.get(1).copied())
                            })
                        }
                    };
                    tiles.push(t);
                }
                *tiles.last().expect("a DAG has nodes")
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
/// operands at `at`.
pub(super) fn emit_chain(
    e: &mut Builder<'_>,
    chain: &Chain,
    mut value: Value,
    at: &At<'_>,
) -> Value {
    let u = e.ctx.uniquer().clone();
    let (ty, elem) = (at.ty(&u), at.calc);
    for (ep, o) in chain {
        let mut inputs = vec![value];
        match o {
            Some(Other::Same) => inputs.push(value),
            Some(Other::Read(op)) => inputs.push(at.read(e, op)),
            None => {}
        }
        value = map(e, &inputs, ty, elem, &mut |s, a| {
            ep.emit(s, a[0], a.get(1).copied())
        });
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
    tile::Store::build(e, v, buf, at, desc_prop(&u, bt, desc));
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

/// The element type kernels compute in for `elem`: f32 for narrower floats
/// (accumulating f16 or bf16 loses too much), `elem` otherwise.
pub(super) fn compute_elem(ctx: &Context, elem: Type) -> Type {
    let u = ctx.uniquer();
    match u.type_kind(elem) {
        TypeKind::Float(k) if k.bit_width() < 32 => {
            u.ty(TypeKind::Float(aic::float::FloatKind::F32))
        }
        _ => elem,
    }
}

/// `exp2(fma(x, c, y))`: `exp(x - m)` as `exp2(x·log2 e - m·log2 e)`, with
/// `c = log2 e` and `y = -m·log2 e` (FlashAttention-2's form).
pub(super) fn exp2_fma(b: &mut Builder<'_>, x: Value, c: Value, y: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let f = math::Fma::build(b, x, c, y, None, ty).result(b.ctx);
    ab::unary::<math::Exp2>(b, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::op_printer::{PrintOptions, print_op};
    use std::sync::Arc;

    #[test]
    fn every_epilogue_row_names_a_registered_graph_op_once() {
        let reg = aic_dialects::all_dialects();
        for (i, e) in EPILOGUE.iter().enumerate() {
            assert!(reg.op(e.name()).is_some(), "{} is not registered", e.name());
            assert!(e.name().starts_with("graph."), "{e:?}");
            assert!(
                EPILOGUE[..i].iter().all(|x| x.name() != e.name()),
                "{e:?} twice"
            );
            // Only binary ops have an integer form, and the op's arity is
            // its row's.
            assert!(!e.on_integers() || e.binary(), "{e:?}");
            assert_eq!(
                e.spec.operands.len(),
                if e.binary() { 2 } else { 1 },
                "{e:?}"
            );
        }
        assert!(EPILOGUE.iter().any(|e| e.is(&graph::BIAS_ADD)));
        assert!(!EPILOGUE.iter().any(|e| e.is(&graph::POW)));
    }

    /// Each row's scalar computation on `ty`, in a module that verifies,
    /// printed.
    fn emitted(ty: impl Fn(&Context) -> Type, integers: bool) -> String {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("empty.mlir", String::new());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("an empty module");
        let block = ctx.entry_block(ctx.regions(m)[0]).expect("a body");
        let ty = ty(&ctx);
        let mut b = Builder::at_end(&mut ctx, block);
        let (x, y) = (ab::number(&mut b, 3.0, ty), ab::number(&mut b, 2.0, ty));
        for e in EPILOGUE.iter().filter(|e| !integers || e.on_integers()) {
            let r = e.emit(&mut b, x, e.binary().then_some(y));
            assert_eq!(b.ctx.value_type(r), ty, "{e:?}");
        }
        aic::verifier::verify(&ctx, m).expect("built ops verify");
        print_op(&ctx, m, PrintOptions::default())
    }

    #[test]
    fn epilogue_rows_build_verifying_float_ops() {
        let text = emitted(|c| c.ty(TypeKind::Float(aic::float::FloatKind::F32)), false);
        for want in [
            "arith.maximumf %cst, %cst_1 : f32",
            "arith.negf %cst : f32",
            "math.absf %cst : f32",
            "math.rsqrt %cst : f32",
            "math.erf",
            "math.tanh %",
            "fastmath<afn> : f32",
            "arith.minimumf %cst, %cst_0 : f32",
            "arith.divf %cst, %cst_0 : f32",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
        assert!(!text.contains("arith.addi"), "{text}");
    }

    #[test]
    fn epilogue_rows_on_integers_are_signed_and_divide_safely() {
        let text = emitted(|c| c.int_type(32), true);
        for want in [
            "arith.addi %c3_i32, %c2_i32 : i32",
            "arith.subi %c3_i32, %c2_i32 : i32",
            "arith.muli %c3_i32, %c2_i32 : i32",
            "arith.cmpi eq, %c2_i32, %c0_i32 : i32",
            "arith.select",
            "arith.divsi %c3_i32, ",
            "arith.maxsi %c3_i32, %c2_i32 : i32",
            "arith.minsi %c3_i32, %c2_i32 : i32",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
        assert!(!text.contains("arith.addf"), "{text}");
    }
}
