//! Building tile IR: the op builder, scalar epilogue computations, maps and
//! elementwise chains.

use super::*;

/// The epilogue ops a GEMM kernel applies element by element, and whether
/// each takes a second operand.
pub(super) const EPILOGUE: &[(&str, bool)] = &[
    ("graph.relu", false),
    ("graph.neg", false),
    ("graph.abs", false),
    ("graph.exp", false),
    ("graph.log", false),
    ("graph.tanh", false),
    ("graph.sqrt", false),
    ("graph.rsqrt", false),
    ("graph.sigmoid", false),
    ("graph.silu", false),
    ("graph.gelu", false),
    ("graph.gelu_tanh", false),
    ("graph.erf", false),
    ("graph.add", true),
    ("graph.sub", true),
    ("graph.mul", true),
    ("graph.div", true),
    ("graph.max", true),
    ("graph.min", true),
    ("graph.bias_add", true),
];

/// Builds ops at the end of a block.
pub(super) struct B<'c> {
    pub(super) ctx: &'c mut Context,
    pub(super) block: Block,
    pub(super) loc: Attr,
}

impl B<'_> {
    /// The framework's builder at the end of this block.
    pub(super) fn at_end(&mut self) -> Builder<'_> {
        Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::End(self.block),
            loc: self.loc,
        }
    }

    pub(super) fn op(
        &mut self,
        name: &str,
        args: &[Value],
        results: &[Type],
        props: Vec<(&str, Attr)>,
    ) -> Op {
        self.at_end().create_with_props(name, args, results, &props)
    }

    pub(super) fn val(
        &mut self,
        name: &str,
        args: &[Value],
        ty: Type,
        props: Vec<(&str, Attr)>,
    ) -> Value {
        let op = self.op(name, args, &[ty], props);
        self.ctx.result(op, 0)
    }

    /// An op of `name` with one region holding `body`, at the end of the
    /// block.
    pub(super) fn region_op(
        &mut self,
        name: &str,
        args: &[Value],
        results: &[Type],
        body: Block,
    ) -> Op {
        let r = self.ctx.create_region();
        self.ctx.append_block(r, body);
        let mut st = OpState::new(self.ctx.ident(name), self.loc);
        st.operands.extend(args.iter().copied());
        st.result_types.extend(results.iter().copied());
        st.regions.push(r);
        self.at_end().insert(st)
    }

    pub(super) fn index(&mut self, v: i64) -> Value {
        let u = self.ctx.uniquer().clone();
        let t = u.ty(TypeKind::Index);
        let a = u.attr(AttrKind::Integer {
            value: i128::from(v),
            ty: t,
        });
        self.val("arith.constant", &[], t, vec![("value", a)])
    }

    pub(super) fn float(&mut self, v: f64, ty: Type) -> Value {
        let u = self.ctx.uniquer().clone();
        let k = match u.type_kind(ty) {
            TypeKind::Float(k) => *k,
            _ => aic::float::FloatKind::F32,
        };
        let a = u.attr(AttrKind::Float {
            bits: k.from_f64(v),
            ty,
        });
        self.val("arith.constant", &[], ty, vec![("value", a)])
    }

    pub(super) fn i64_attr(&self, v: i64) -> Attr {
        let u = self.ctx.uniquer();
        u.attr(AttrKind::Integer {
            value: i128::from(v),
            ty: u.int_type(64),
        })
    }

    pub(super) fn i64s(&self, v: &[i64]) -> Attr {
        self.ctx.uniquer().i64_array(v)
    }

    /// A builder at the end of `block` (a loop or map body) with this one's
    /// context and location.
    pub(super) fn inside(&mut self, block: Block) -> B<'_> {
        B {
            ctx: &mut *self.ctx,
            block,
            loc: self.loc,
        }
    }

    /// `tile.program_id axis * size`: where this block's tile starts along
    /// grid axis `axis`.
    pub(super) fn block_start(&mut self, axis: i64, size: i64) -> Value {
        let p = self.program_id(axis);
        let c = self.index(size);
        let index = self.ctx.uniquer().ty(TypeKind::Index);
        self.val("arith.muli", &[p, c], index, vec![])
    }

    /// `tile.program_id axis`.
    pub(super) fn program_id(&mut self, axis: i64) -> Value {
        let index = self.ctx.uniquer().ty(TypeKind::Index);
        let a = self.i64_attr(axis);
        self.val("tile.program_id", &[], index, vec![("axis", a)])
    }

    /// `tile.broadcast x, dims = dims` to the tile type `ty` (a scalar with
    /// no dims).
    pub(super) fn spread(&mut self, x: Value, ty: Type, dims: &[i64]) -> Value {
        let d = self.i64s(dims);
        self.val("tile.broadcast", &[x], ty, vec![("dims", d)])
    }

    /// `tile.reduce kind t, axis = 1` to the row tile type `ty`.
    pub(super) fn reduce_rows(&mut self, t: Value, kind: tile::ReduceKind, ty: Type) -> Value {
        let kind = kind.attr(self.ctx.uniquer());
        let axis = self.i64_attr(1);
        self.val(
            "tile.reduce",
            &[t],
            ty,
            vec![("kind", kind), ("axis", axis)],
        )
    }

    /// A block-level `tile.gemm a x b + acc` of accumulator type `ty`.
    pub(super) fn gemm(&mut self, a: Value, b: Value, acc: Value, ty: Type) -> Value {
        let level = tile::Level::Block.attr(self.ctx.uniquer());
        self.val("tile.gemm", &[a, b, acc], ty, vec![("level", level)])
    }

    /// `tile` (of `shape` and `elem`) staged into shared memory, `depth`
    /// deep.
    pub(super) fn stage(&mut self, tile: Value, shape: &[i64], elem: Type, depth: i64) -> Value {
        let u = self.ctx.uniquer().clone();
        let st = tile::plain_tile(&u, shape.to_vec(), elem, Space::Shared);
        let space = Space::Shared.attr(&u);
        let depth = self.i64_attr(depth);
        self.val(
            "tile.transfer",
            &[tile],
            st,
            vec![("space", space), ("depth", depth)],
        )
    }

    /// The `i1` type (masks, comparisons).
    pub(super) fn i1(&self) -> Type {
        self.ctx.uniquer().ty(TypeKind::Integer {
            width: 1,
            signedness: aic::types::Signedness::Signless,
        })
    }

    /// The scalar computation of an epilogue op in a map body (on signless
    /// integers, signed arithmetic; those ops are [`INT_OPS`], all binary).
    pub(super) fn scalar(&mut self, op: &str, x: Value, y: Option<Value>, ty: Type) -> Value {
        let f = |b: &mut B<'_>, n: &str, a: &[Value]| b.val(n, a, ty, vec![]);
        if matches!(self.ctx.type_kind(ty), TypeKind::Integer { .. }) {
            let name = match op {
                "graph.sub" => "arith.subi",
                "graph.mul" => "arith.muli",
                "graph.div" => "arith.divsi",
                "graph.max" => "arith.maxsi",
                "graph.min" => "arith.minsi",
                _ => "arith.addi",
            };
            let mut y = y.unwrap_or(x);
            if name == "arith.divsi" {
                // Masked lanes past the edge read a zero divisor, and integer
                // division by zero is undefined: divide those by one.
                let u = self.ctx.uniquer().clone();
                let c = |b: &mut B<'_>, v: i128| {
                    let a = u.attr(AttrKind::Integer { value: v, ty });
                    b.val("arith.constant", &[], ty, vec![("value", a)])
                };
                let (zero, one) = (c(self, 0), c(self, 1));
                let i1 = self.i1();
                let eq = self.i64_attr(0);
                let is_zero = self.val("arith.cmpi", &[y, zero], i1, vec![("predicate", eq)]);
                y = self.val("arith.select", &[is_zero, one, y], ty, vec![]);
            }
            return f(self, name, &[x, y]);
        }
        match (op, y) {
            ("graph.add" | "graph.bias_add", Some(y)) => f(self, "arith.addf", &[x, y]),
            ("graph.sub", Some(y)) => f(self, "arith.subf", &[x, y]),
            ("graph.mul", Some(y)) => f(self, "arith.mulf", &[x, y]),
            ("graph.div", Some(y)) => f(self, "arith.divf", &[x, y]),
            ("graph.max", Some(y)) => f(self, "arith.maximumf", &[x, y]),
            ("graph.min", Some(y)) => f(self, "arith.minimumf", &[x, y]),
            ("graph.relu", _) => {
                let z = self.float(0.0, ty);
                f(self, "arith.maximumf", &[x, z])
            }
            ("graph.neg", _) => f(self, "arith.negf", &[x]),
            ("graph.abs", _) => f(self, "math.absf", &[x]),
            ("graph.exp", _) => f(self, "math.exp", &[x]),
            ("graph.log", _) => f(self, "math.log", &[x]),
            ("graph.tanh", _) => f(self, "math.tanh", &[x]),
            ("graph.erf", _) => f(self, "math.erf", &[x]),
            ("graph.sqrt", _) => f(self, "math.sqrt", &[x]),
            ("graph.rsqrt", _) => f(self, "math.rsqrt", &[x]),
            ("graph.sigmoid" | "graph.silu", _) => {
                let n = f(self, "arith.negf", &[x]);
                let e = f(self, "math.exp", &[n]);
                let one = self.float(1.0, ty);
                let d = f(self, "arith.addf", &[one, e]);
                let s = f(self, "arith.divf", &[one, d]);
                if op == "graph.silu" {
                    f(self, "arith.mulf", &[x, s])
                } else {
                    s
                }
            }
            ("graph.gelu", _) => {
                // x * (1 + erf(x / sqrt(2))) / 2
                let r = self.float(std::f64::consts::FRAC_1_SQRT_2, ty);
                let xs = f(self, "arith.mulf", &[x, r]);
                let e = f(self, "math.erf", &[xs]);
                let one = self.float(1.0, ty);
                let half = self.float(0.5, ty);
                let p = f(self, "arith.addf", &[one, e]);
                let hx = f(self, "arith.mulf", &[half, x]);
                f(self, "arith.mulf", &[hx, p])
            }
            _ => {
                // gelu_tanh: x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2
                let c = self.float((2.0 / std::f64::consts::PI).sqrt(), ty);
                let k = self.float(0.044_715, ty);
                let x2 = f(self, "arith.mulf", &[x, x]);
                let x3 = f(self, "arith.mulf", &[x2, x]);
                let kx3 = f(self, "arith.mulf", &[k, x3]);
                let inner = f(self, "arith.addf", &[x, kx3]);
                let arg = f(self, "arith.mulf", &[c, inner]);
                // The formula is itself an approximation (to 1e-3), so its
                // tanh may be one too: targets pick a faster expansion.
                let afn = aic_dialects::arith::FASTMATH
                    .attr(self.ctx.uniquer(), aic_dialects::arith::FASTMATH_AFN);
                let t = self.val("math.tanh", &[arg], ty, vec![("fastmath", afn)]);
                let one = self.float(1.0, ty);
                let half = self.float(0.5, ty);
                let p = f(self, "arith.addf", &[one, t]);
                let hx = f(self, "arith.mulf", &[half, x]);
                f(self, "arith.mulf", &[hx, p])
            }
        }
    }
}

/// The epilogue ops that also apply to integers.
pub(super) const INT_OPS: &[&str] = &[
    "graph.add",
    "graph.bias_add",
    "graph.sub",
    "graph.mul",
    "graph.div",
    "graph.max",
    "graph.min",
];

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
pub(super) type Chain = Vec<(&'static str, Option<Other>)>;

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
        let name = ctx.op_name(o);
        if !ctx.operands(o).contains(&cur) || taken.contains(&o) {
            continue;
        }
        if views.is_empty() && ctx.operands(o)[0] == cur && is_unit_reshape(ctx, o) {
            taken.push(o);
            cur = ctx.result(o, 0);
            ty = ctx.value_type(cur);
            now = shape(ctx, cur);
            fwd = Some(Desc::reshape(&now, full));
            continue;
        }
        if views_ok
            && matches!(name, "graph.reshape" | "graph.transpose")
            && ctx.operands(o)[0] == cur
        {
            taken.push(o);
            views.push(o);
            cur = ctx.result(o, 0);
            continue;
        }
        let Some(&(name, binary)) = EPILOGUE.iter().find(|(n, _)| *n == name) else {
            return Ok((chain, views, cur, i));
        };
        if !views.is_empty() {
            return Err(format!("{name} after a reshape or transpose of the result"));
        }
        if ctx.value_type(ctx.result(o, 0)) != ty {
            return Err(format!("{name} changes the type"));
        }
        match (binary, ctx.operands(o)) {
            (false, [x]) if *x == cur => chain.push((name, None)),
            (true, [x, y]) if *x == cur || (*y == cur && name != "graph.bias_add") => {
                let other = if *x == cur { *y } else { *x };
                if other == cur {
                    chain.push((name, Some(Other::Same)));
                } else {
                    // Non-commutative ops with the chain on the right keep their order.
                    if *y == cur && matches!(name, "graph.sub" | "graph.div") {
                        return Err(format!("{name} with the running value on the right"));
                    }
                    let mut op = operand(ctx, other, known, taken)?;
                    let s = shape(ctx, other);
                    let bias = name == "graph.bias_add";
                    if bias && now.last().is_some_and(|n| s == [*n]) {
                        op.compose(&Desc::broadcast(&s, &now, &[now.len() - 1]))?;
                    } else if s != now {
                        return Err(format!("{name}'s other operand has shape {s:?}"));
                    }
                    if let Some(f) = &fwd {
                        op.compose(f)?;
                    }
                    chain.push((name, Some(Other::Read(op))));
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
    pub(super) fn read(&self, e: &mut B<'_>, o: &Operand) -> Value {
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
                let i1 = e.i1();
                let mt = tile::plain_tile(&u, self.shape.to_vec(), i1, Space::Register);
                let ok = e.val(
                    "tile.valid",
                    self.at,
                    mt,
                    vec![("desc", coord::desc_attr(&u, &d))],
                );
                let calc = self.calc;
                map_typed(e, &[t, ok], &[calc, i1], ty, &mut |b, a| {
                    let z = b.float(0.0, calc);
                    b.val("arith.select", &[a[1], a[0], z], calc, vec![])
                })
            }
            Operand::Sum(parts) => {
                let mut acc: Option<Value> = None;
                for p in parts {
                    let t = self.read(e, p);
                    acc = Some(match acc {
                        None => t,
                        Some(a) => map(e, &[a, t], ty, self.calc, &mut |b, x| {
                            b.val("arith.addf", x, self.calc, vec![])
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
                        Node::Op(name, args) => {
                            let xs: Vec<Value> = args.iter().map(|i| tiles[*i]).collect();
                            map(e, &xs, ty, calc, &mut |s, a| {
                                s.scalar(name, a[0], a.get(1).copied(), calc)
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
    e: &mut B<'_>,
    inputs: &[Value],
    ty: Type,
    elem: Type,
    f: &mut dyn FnMut(&mut B<'_>, &[Value]) -> Value,
) -> Value {
    map_typed(e, inputs, &vec![elem; inputs.len()], ty, f)
}

/// A `tile.map` of `inputs` whose elements have the types `elems`.
pub(super) fn map_typed(
    e: &mut B<'_>,
    inputs: &[Value],
    elems: &[Type],
    ty: Type,
    f: &mut dyn FnMut(&mut B<'_>, &[Value]) -> Value,
) -> Value {
    let loc = e.loc;
    let args: Vec<(Type, Option<Attr>)> = elems.iter().map(|t| (*t, Some(loc))).collect();
    let mb = e.ctx.create_block(&args);
    let margs: Vec<Value> = e.ctx.block_args(mb).to_vec();
    {
        let mut s = e.inside(mb);
        let r = f(&mut s, &margs);
        s.op("tile.yield", &[r], &[], vec![]);
    }
    let mo = e.region_op("tile.map", inputs, &[ty], mb);
    e.ctx.result(mo, 0)
}

/// The tile `t` (of `shape`) with its `from` elements converted to `to`
/// (`arith.extf` or `arith.truncf`), or `t` itself when they agree.
pub(super) fn convert(e: &mut B<'_>, t: Value, shape: &[i64], from: Type, to: Type) -> Value {
    if from == to {
        return t;
    }
    let u = e.ctx.uniquer().clone();
    let bits = |t: Type| match u.type_kind(t) {
        TypeKind::Float(k) => k.bit_width(),
        _ => 0,
    };
    let op = if bits(to) > bits(from) {
        "arith.extf"
    } else {
        "arith.truncf"
    };
    let ty = tile::plain_tile(&u, shape.to_vec(), to, Space::Register);
    map_typed(e, &[t], &[from], ty, &mut |s, a| {
        s.val(op, &[a[0]], to, vec![])
    })
}

/// Apply `chain` to the tile `value`, one map per op, reading other
/// operands at `at`.
pub(super) fn emit_chain(e: &mut B<'_>, chain: &Chain, mut value: Value, at: &At<'_>) -> Value {
    let u = e.ctx.uniquer().clone();
    let (ty, elem) = (at.ty(&u), at.calc);
    for (name, o) in chain {
        let mut inputs = vec![value];
        match o {
            Some(Other::Same) => inputs.push(value),
            Some(Other::Read(op)) => inputs.push(at.read(e, op)),
            None => {}
        }
        value = map(e, &inputs, ty, elem, &mut |s, a| {
            s.scalar(name, a[0], a.get(1).copied(), elem)
        });
    }
    value
}

/// A register tile of `shape` read from buffer `buf` at `at` through
/// `desc` (left off the op when it is the buffer's own row-major order),
/// its elements converted to `calc`.
pub(super) fn load(
    e: &mut B<'_>,
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
    let mut args = vec![buf];
    args.extend_from_slice(at);
    let ld = e.val("tile.load", &args, t, desc_prop(&u, bt, desc));
    convert(e, ld, shape, elem, calc)
}

/// Store the tile `value` (of `shape`, elements `calc`) to buffer `buf` (of
/// elements `elem`) at `at` through `desc`.
#[allow(clippy::too_many_arguments)]
pub(super) fn store(
    e: &mut B<'_>,
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
    let mut args = vec![v, buf];
    args.extend_from_slice(at);
    let bt = e.ctx.value_type(buf);
    e.op("tile.store", &args, &[], desc_prop(&u, bt, desc));
}

/// The `desc` property of a load or store of a buffer of type `bt`: none
/// for the buffer's own row-major order.
fn desc_prop(u: &aic::ir::Uniquer, bt: Type, desc: &Desc) -> Vec<(&'static str, Attr)> {
    let own = u
        .type_kind(bt)
        .shape()
        .is_some_and(|s| *desc == Desc::row_major(s));
    if own {
        Vec::new()
    } else {
        vec![("desc", coord::desc_attr(u, desc))]
    }
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
