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

    /// The scalar computation of an epilogue op in a map body.
    pub(super) fn scalar(&mut self, op: &str, x: Value, y: Option<Value>, ty: Type) -> Value {
        let f = |b: &mut B<'_>, n: &str, a: &[Value]| b.val(n, a, ty, vec![]);
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
                let t = f(self, "math.tanh", &[arg]);
                let one = self.float(1.0, ty);
                let half = self.float(0.5, ty);
                let p = f(self, "arith.addf", &[one, t]);
                let hx = f(self, "arith.mulf", &[half, x]);
                f(self, "arith.mulf", &[hx, p])
            }
        }
    }
}

/// An elementwise chain on a running value: each step's op and its other
/// operand, if any (a group input, and whether it is a bias vector over the
/// last dimension).
pub(super) type Chain = Vec<(&'static str, Option<(Value, bool)>)>;

/// Read the elementwise ops of `ops` that apply in turn to `cur` (of shape
/// `full`, last dimension `n`), their other operands being group inputs of
/// the full shape or bias vectors; with `views_ok`, trailing reshapes and
/// transposes too. Returns the chain, the views, the last value and how
/// many ops were read (the first op not read ends it).
pub(super) fn read_chain(
    ctx: &Context,
    ops: &[Op],
    mut cur: Value,
    gargs: &[Value],
    full: &[i64],
    n: i64,
    views_ok: bool,
) -> Result<(Chain, Vec<Op>, Value, usize), Skip> {
    let ty = ctx.value_type(cur);
    let mut chain = Chain::new();
    let mut views: Vec<Op> = Vec::new();
    for (i, &o) in ops.iter().enumerate() {
        let name = ctx.op_name(o);
        if views_ok
            && matches!(name, "graph.reshape" | "graph.transpose")
            && ctx.operands(o)[0] == cur
        {
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
                    chain.push((name, Some((other, false))));
                } else if !gargs.contains(&other) {
                    return Err(format!("{name} reads a value computed outside the chain"));
                } else {
                    let s = shape(ctx, other);
                    let bias = name == "graph.bias_add";
                    if (bias && s != [n]) || (!bias && s != full) {
                        return Err(format!("{name}'s other operand has shape {s:?}"));
                    }
                    // Non-commutative ops with the chain on the right keep their order.
                    if *y == cur && matches!(name, "graph.sub" | "graph.div") {
                        return Err(format!("{name} with the running value on the right"));
                    }
                    chain.push((name, Some((other, bias))));
                }
            }
            _ => return Err(format!("{name} is not applied to the running value")),
        }
        cur = ctx.result(o, 0);
    }
    Ok((chain, views, cur, ops.len()))
}

/// A `tile.map` of `inputs` (tiles of `ty`) applying `f` to their elements.
pub(super) fn map(
    e: &mut B<'_>,
    inputs: &[Value],
    ty: Type,
    elem: Type,
    f: &mut dyn FnMut(&mut B<'_>, &[Value]) -> Value,
) -> Value {
    let loc = e.loc;
    let mb = e.ctx.create_block(&vec![(elem, Some(loc)); inputs.len()]);
    let margs: Vec<Value> = e.ctx.block_args(mb).to_vec();
    {
        let mut s = B {
            ctx: e.ctx,
            block: mb,
            loc,
        };
        let r = f(&mut s, &margs);
        s.op("tile.yield", &[r], &[], vec![]);
    }
    let mo = e.region_op("tile.map", inputs, &[ty], mb);
    e.ctx.result(mo, 0)
}

/// Apply `chain` to the tile `value`, one map per op; `other` gives the
/// tile of an op's other operand.
pub(super) fn emit_chain(
    e: &mut B<'_>,
    chain: &Chain,
    mut value: Value,
    ty: Type,
    elem: Type,
    other: &mut dyn FnMut(&mut B<'_>, Value, bool) -> Value,
) -> Value {
    for (name, o) in chain {
        let mut inputs = vec![value];
        if let Some((v, bias)) = o {
            inputs.push(other(e, *v, *bias));
        }
        value = map(e, &inputs, ty, elem, &mut |s, a| {
            s.scalar(name, a[0], a.get(1).copied(), elem)
        });
    }
    value
}
