//! Views: values of a group's body that only re-address a group input
//! (broadcasts, transposes, reshapes, slices, and chains of them). A kernel
//! never computes them; it reads the input through their descriptor.

use super::*;
use aic_dialects::graph;
use std::collections::HashMap;

/// A tensor the kernel reads: a group input and the descriptor from the
/// read value's shape to that input's (row-major) buffer.
#[derive(Clone, Debug)]
pub(super) struct Source {
    /// The group input (the kernel's buffer).
    pub(super) input: Value,
    /// From the read value's index space to the buffer.
    pub(super) desc: Desc,
}

/// The views among a group body's ops.
#[derive(Default)]
pub(super) struct Views {
    of: HashMap<Value, Source>,
    /// Group inputs that are splat constants: their value and storage
    /// element type (read as literals, never loaded).
    literals: HashMap<Value, (Attr, Type)>,
}

/// The operand view op `o` reads and the descriptor from its result's
/// index space to that operand's, if `o` is a view.
pub(super) fn view_desc(ctx: &Context, o: Op) -> Option<(Value, Desc)> {
    let usizes = |dims: Option<Vec<i64>>| -> Vec<usize> {
        dims.unwrap_or_default()
            .into_iter()
            .map(|d| d as usize)
            .collect()
    };
    if let Some(b) = graph::Broadcast::of(ctx, o) {
        let (x, r) = (b.x(ctx), b.result(ctx));
        let d = Desc::broadcast(&shape(ctx, x), &shape(ctx, r), &usizes(b.dims(ctx)));
        Some((x, d))
    } else if let Some(t) = graph::Transpose::of(ctx, o) {
        let x = t.x(ctx);
        Some((x, Desc::transpose(&shape(ctx, x), &usizes(t.perm(ctx)))))
    } else if let Some(r) = graph::Reshape::of(ctx, o) {
        let x = r.x(ctx);
        Some((x, Desc::reshape(&shape(ctx, x), &shape(ctx, r.result(ctx)))))
    } else if let Some(c) = graph::Cast::of(ctx, o)
        && ctx.value_type(c.x(ctx)) == ctx.value_type(c.result(ctx))
    {
        // A cast to the type it has is no computation.
        Some((c.x(ctx), Desc::identity(&shape(ctx, c.result(ctx)))))
    } else if let Some(sl) = graph::Slice::of(ctx, o) {
        let x = sl.x(ctx);
        let d = Desc::strided_slice(
            &shape(ctx, x),
            &sl.start(ctx).unwrap_or_default(),
            &sl.limit(ctx).unwrap_or_default(),
            &sl.strides(ctx).unwrap_or_default(),
        );
        Some((x, d))
    } else {
        None
    }
}

impl Views {
    /// The views among `ops` whose operand is a group input (of `inputs`)
    /// or another view.
    pub(super) fn of(ctx: &Context, ops: &[Op], inputs: &[Value]) -> Result<Views, Skip> {
        let mut v = Views::default();
        for &o in ops {
            let Some((x, d)) = view_desc(ctx, o) else {
                continue;
            };
            let Some(base) = v.source(ctx, inputs, x) else {
                continue;
            };
            let desc = base.desc.compose(&d).map_err(|e| e.to_string())?;
            v.of.insert(
                ctx.result(o, 0),
                Source {
                    input: base.input,
                    desc,
                },
            );
        }
        Ok(v)
    }

    /// Record that group input `input` is the splat constant `value` (of
    /// storage element type `elem`).
    pub(super) fn add_literal(&mut self, input: Value, value: Attr, elem: Type) {
        self.literals.insert(input, (value, elem));
    }

    /// The literal group input `input` is, if it is a splat constant.
    pub(super) fn literal(&self, input: Value) -> Option<(Attr, Type)> {
        self.literals.get(&input).copied()
    }

    /// Whether `v` is a view.
    pub(super) fn is_view(&self, v: Value) -> bool {
        self.of.contains_key(&v)
    }

    /// How `v` is read: a group input as it is, or a view of one.
    pub(super) fn source(&self, ctx: &Context, inputs: &[Value], v: Value) -> Option<Source> {
        if inputs.contains(&v) {
            return Some(Source {
                input: v,
                desc: Desc::row_major(&shape(ctx, v)),
            });
        }
        self.of.get(&v).cloned()
    }
}

/// The operand of `o` if `o` only renames dims: a reshape or broadcast
/// whose shapes agree once dims of size 1 are dropped (elements stay in
/// row-major order).
pub(super) fn unit_reshape(ctx: &Context, o: Op) -> Option<Value> {
    let squeeze = |s: Vec<i64>| -> Vec<i64> { s.into_iter().filter(|d| *d != 1).collect() };
    let (x, r) = if let Some(b) = graph::Broadcast::of(ctx, o) {
        // Only new unit dims, the old ones kept in order.
        let x = b.x(ctx);
        let dims = b.dims(ctx).unwrap_or_default();
        if dims.windows(2).any(|w| w[0] >= w[1]) || shape(ctx, x).len() != dims.len() {
            return None;
        }
        (x, b.result(ctx))
    } else {
        let r = graph::Reshape::of(ctx, o)?;
        (r.x(ctx), r.result(ctx))
    };
    (squeeze(shape(ctx, x)) == squeeze(shape(ctx, r))).then_some(x)
}

/// An operand computed on the fly from group inputs: loads through
/// descriptors, elementwise chains on them, concatenations (padded parts
/// summed) and views composed into every descriptor, all addressing the
/// operand's own index space. BERT's `reshape(transpose(q + bias))`, a
/// batch norm's per-channel scale, ViT's `concat(class token, patches)`.
#[derive(Clone, Debug)]
pub(super) enum Operand {
    /// A tensor read through a descriptor (zero where it is invalid).
    Load(Source),
    /// A splat constant (any view of it is the same number): its value and
    /// storage element type, a literal in the kernel.
    Splat(Attr, Type),
    /// An elementwise chain applied to an operand.
    Chain(Box<Operand>, Chain),
    /// An operand seen through a view that pads: zero where the view's
    /// descriptor (from this index space) says an index is invalid, since a
    /// chain may not map zero to zero.
    Masked(Box<Operand>, Desc),
    /// The sum of operands (the parts of a concatenation, each zero outside
    /// its part).
    Sum(Vec<Operand>),
    /// A DAG of elementwise ops in the operand's index space, in dependency
    /// order, the last node being the operand: values used several times
    /// (GIoU's box widths, a shared difference) are computed once.
    Dag(Vec<Node>),
}

/// A node of an [`Operand::Dag`].
#[derive(Clone, Debug)]
pub(super) enum Node {
    /// An operand computed otherwise (a load, a chain, a concatenation).
    Leaf(Operand),
    /// An elementwise graph op on earlier nodes (its operands in order).
    Op(Op, Vec<usize>),
}

/// Whether view `d` leaves some indices invalid.
fn pads(d: &Desc) -> bool {
    d.stages
        .iter()
        .flatten()
        .any(|s| matches!(s.t, coord::Transform::Pad { lo, hi } if lo > 0 || hi > 0))
}

impl Operand {
    /// This operand read through view `d` (from a new index space to this
    /// operand's).
    pub(super) fn compose(&mut self, d: &Desc) -> Result<(), Skip> {
        let c = |x: &Desc| x.compose(d).map_err(|e| e.to_string());
        match self {
            Operand::Load(s) => s.desc = c(&s.desc)?,
            Operand::Splat(..) => {}
            Operand::Chain(base, chain) => {
                base.compose(d)?;
                for st in chain.iter_mut() {
                    for a in &mut st.args {
                        if let Arg::Read(o) = a {
                            o.compose(d)?;
                        }
                    }
                }
                if pads(d) {
                    let inner = std::mem::replace(self, Operand::Sum(Vec::new()));
                    *self = Operand::Masked(Box::new(inner), d.clone());
                }
            }
            Operand::Masked(inner, m) => {
                inner.compose(d)?;
                *m = c(m)?;
            }
            Operand::Sum(parts) => {
                for p in parts {
                    p.compose(d)?;
                }
            }
            Operand::Dag(nodes) => {
                for n in nodes.iter_mut() {
                    if let Node::Leaf(o) = n {
                        o.compose(d)?;
                    }
                }
                if pads(d) {
                    let inner = std::mem::replace(self, Operand::Sum(Vec::new()));
                    *self = Operand::Masked(Box::new(inner), d.clone());
                }
            }
        }
        Ok(())
    }

    /// The source, if this operand is a plain load.
    pub(super) fn as_load(&self) -> Option<&Source> {
        match self {
            Operand::Load(s) => Some(s),
            _ => None,
        }
    }
}

/// `v` as an [`Operand`] of the group: views, concatenations and
/// elementwise ops back to group inputs; the ops it takes are added to
/// `taken`.
pub(super) fn operand(
    ctx: &Context,
    v: Value,
    known: (&[Value], &Views),
    taken: &mut Vec<Op>,
) -> Result<Operand, Skip> {
    let (inputs, views) = known;
    if let Some(root) = views.source(ctx, inputs, v) {
        if let Some((c, el)) = views.literal(root.input) {
            return Ok(Operand::Splat(c, el));
        }
        return Ok(Operand::Load(root));
    }
    let p = ctx
        .defining_op(v)
        .ok_or_else(|| "an operand that is not computed in the group".to_string())?;
    if let Some((x, d)) = view_desc(ctx, p) {
        let mut o = operand(ctx, x, known, taken)?;
        o.compose(&d)?;
        taken.push(p);
        return Ok(o);
    }
    if let Some(c) = graph::Concat::of(ctx, p) {
        let axis = usize::try_from(c.axis(ctx).unwrap_or(-1))
            .map_err(|_| "a concat without an axis".to_string())?;
        let total = shape(ctx, v)[axis];
        let mut before = 0;
        let mut parts = Vec::new();
        for x in c.inputs(ctx).to_vec() {
            let s = shape(ctx, x);
            let mut o = operand(ctx, x, known, taken)?;
            o.compose(&Desc::concat_part(&s, axis, before, total))?;
            before += s[axis];
            parts.push(o);
        }
        taken.push(p);
        return Ok(Operand::Sum(parts));
    }
    if !is_elementwise(ctx, p) {
        return Err(format!("an operand computed by {}", ctx.op_name(p)));
    }
    // A chain on one running value where it is one, a DAG otherwise.
    let before = taken.clone();
    chain_operand(ctx, v, known, taken).or_else(|why| {
        *taken = before;
        let mut dag = Dag {
            ctx,
            known,
            full: shape(ctx, v),
            nodes: Vec::new(),
            index: HashMap::new(),
        };
        dag.visit(v, taken).map_err(|_| why)?;
        Ok(Operand::Dag(dag.nodes))
    })
}

/// `v`, computed in the group by an elementwise op, as a chain of
/// elementwise ops on one running value.
fn chain_operand(
    ctx: &Context,
    v: Value,
    known: (&[Value], &Views),
    taken: &mut Vec<Op>,
) -> Result<Operand, Skip> {
    let (inputs, views) = known;
    let p = ctx.defining_op(v).expect("a computed value");
    // A value read twice: its ops are taken (a DAG computes it once instead).
    if taken.contains(&p) {
        return Err(format!("{} read twice", ctx.op_name(p)));
    }
    // The running value is the operand not read from memory as it is.
    let xs = ctx.operands(p).to_vec();
    let run = xs
        .iter()
        .copied()
        .find(|x| views.source(ctx, inputs, *x).is_none())
        .unwrap_or(xs[0]);
    let now = shape(ctx, run);
    if shape(ctx, v) != now {
        return Err(format!("{} broadcasts its operand", ctx.op_name(p)));
    }
    let base = operand(ctx, run, known, taken)?;
    let step = chain_step(ctx, p, &[run], (&now, None), known, taken)?;
    taken.push(p);
    Ok(match base {
        Operand::Chain(b, mut c) => {
            c.push(step);
            Operand::Chain(b, c)
        }
        b => Operand::Chain(Box::new(b), vec![step]),
    })
}

/// An elementwise DAG operand being read back from a group body.
struct Dag<'a> {
    ctx: &'a Context,
    known: (&'a [Value], &'a Views),
    /// The operand's shape: every op node has it.
    full: Vec<i64>,
    nodes: Vec<Node>,
    /// The node of each value read so far.
    index: HashMap<Value, usize>,
}

impl Dag<'_> {
    /// The node of `x`: an elementwise op of the operand's shape on the
    /// nodes of its operands, or a leaf read as an [`operand`] of its own
    /// (a bias vector of `bias_add` broadcast along the last dim).
    fn visit(&mut self, x: Value, taken: &mut Vec<Op>) -> Result<usize, Skip> {
        if let Some(i) = self.index.get(&x) {
            return Ok(*i);
        }
        let ctx = self.ctx;
        let (inputs, views) = self.known;
        let computed = ctx
            .defining_op(x)
            .filter(|_| views.source(ctx, inputs, x).is_none())
            .filter(|p| is_elementwise(ctx, *p))
            .filter(|_| shape(ctx, x) == self.full);
        let node = match computed {
            Some(p) => {
                let mut args = Vec::new();
                for (k, a) in ctx.operands(p).to_vec().into_iter().enumerate() {
                    let s = shape(ctx, a);
                    let bias = graph::BiasAdd::is(ctx, p) && k == 1;
                    if s != self.full && (s.is_empty() || bias) {
                        let n = *self.full.last().ok_or("a scalar bias_add")?;
                        if !s.is_empty() && s != [n] {
                            return Err(format!("bias_add of a bias of shape {s:?}"));
                        }
                        let mut o = operand(ctx, a, self.known, taken)?;
                        let rank = self.full.len();
                        let dims: &[usize] = if s.is_empty() { &[] } else { &[rank - 1] };
                        o.compose(&Desc::broadcast(&s, &self.full, dims))?;
                        self.nodes.push(Node::Leaf(o));
                        args.push(self.nodes.len() - 1);
                    } else {
                        args.push(self.visit(a, taken)?);
                    }
                }
                if !taken.contains(&p) {
                    taken.push(p);
                }
                Node::Op(p, args)
            }
            None => {
                let s = shape(ctx, x);
                if s != self.full {
                    return Err(format!(
                        "an operand of shape {s:?} in a DAG of {:?}",
                        self.full
                    ));
                }
                Node::Leaf(operand(ctx, x, self.known, taken)?)
            }
        };
        self.nodes.push(node);
        let i = self.nodes.len() - 1;
        self.index.insert(x, i);
        Ok(i)
    }
}
