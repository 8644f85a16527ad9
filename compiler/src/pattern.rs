//! Declarative rewrite patterns, MLIR's DRR (`Pat<(src), (result), [constraints]>`)
//! as data.
//!
//! A [`Pattern`] is a source tree ([`Src`]) rooted at one op name, constraint
//! functions over what it captured, and one result tree ([`Dst`]) per result of
//! the root. Captures live in numbered slots of a [`Match`]: a value (`Src::Val`,
//! which must equal the earlier capture when its slot is used twice), a constant
//! operand (`Src::Const`: the value and its attribute), an op (`Src::Op` with
//! `bind`: the op and the operand it defines), and op attributes by name.
//! Results reuse captured values, build new ops (attributes and result types
//! computed by small functions of the match) and new constants, which the root
//! op's dialect materialises. Adding a pattern is a `static` of a few lines:
//!
//! ```ignore
//! // add(add(x, c0), c1) -> add(x, c0 + c1)
//! static ADD_ADD: Pattern = Pattern::new(
//!     "AddAddConstant",
//!     op("t.add", &[op("t.add", &[Src::Val(0), Src::Const(1)]), Src::Const(2)]),
//!     &[Dst::op("t.add", &[Dst::Val(0), Dst::constant(sum_1_2, type_of::<0>)], type_of::<0>)],
//! );
//! ```
//!
//! Matching follows DRR: operands are matched positionally (commutative ops are
//! not tried both ways); a nested op matches whichever of its results is the
//! operand. Nothing changes unless every constraint holds and every attribute,
//! constant and type of the result trees could be computed.

use crate::attributes::Attr;
use crate::ir::{Context, Op, OpState, Value};
use crate::rewrite::{RewritePattern, Rewriter, constant_value};
use crate::types::Type;
use smallvec::SmallVec;

/// Capture slots per pattern.
pub const SLOTS: usize = 8;

/// What a match captured, by slot.
#[derive(Clone, Debug)]
pub struct Match {
    root: Op,
    values: [Option<Value>; SLOTS],
    ops: [Option<Op>; SLOTS],
    attrs: [Option<Attr>; SLOTS],
}

impl Match {
    fn new(root: Op) -> Match {
        Match {
            root,
            values: [None; SLOTS],
            ops: [None; SLOTS],
            attrs: [None; SLOTS],
        }
    }
    /// The op the pattern matched at.
    pub fn root(&self) -> Op {
        self.root
    }
    /// The value in `slot` (panics when the pattern binds none there: a bug in
    /// the pattern, not in the IR).
    pub fn value(&self, slot: u8) -> Value {
        self.values[slot as usize].expect("pattern reads an unbound value slot")
    }
    /// The op in `slot` (see [`Match::value`]).
    pub fn op(&self, slot: u8) -> Op {
        self.ops[slot as usize].expect("pattern reads an unbound op slot")
    }
    /// The attribute in `slot`: a constant's value, or an op attribute (`None`
    /// when the op does not carry it: the attribute's default).
    pub fn attr(&self, slot: u8) -> Option<Attr> {
        self.attrs[slot as usize]
    }
}

/// A node of a source tree.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    /// Any value, not captured.
    Any,
    /// Any value, captured in the slot; a slot used twice requires equal values.
    Val(u8),
    /// A value defined by a constant-like op: the value and the constant's
    /// attribute are captured in the slot.
    Const(u8),
    /// A value defined by an op of this name whose operands match.
    Op {
        /// The op name.
        name: &'static str,
        /// Slot for the op and the matched value.
        bind: Option<u8>,
        /// One source node per operand (the op must have exactly these many).
        operands: &'static [Src],
        /// Attributes of the op captured by name into slots.
        attrs: &'static [(&'static str, u8)],
    },
}

/// `name(operands...)`: an op node with no captures of its own.
pub const fn op(name: &'static str, operands: &'static [Src]) -> Src {
    Src::Op {
        name,
        bind: None,
        operands,
        attrs: &[],
    }
}

impl Src {
    /// This op node, also capturing the op (and its matched value) in `slot`.
    pub const fn bind(self, slot: u8) -> Src {
        match self {
            Src::Op {
                name,
                operands,
                attrs,
                ..
            } => Src::Op {
                name,
                bind: Some(slot),
                operands,
                attrs,
            },
            other => other,
        }
    }
    /// This op node, also capturing its attributes by name.
    pub const fn attrs(self, captures: &'static [(&'static str, u8)]) -> Src {
        match self {
            Src::Op {
                name,
                bind,
                operands,
                ..
            } => Src::Op {
                name,
                bind,
                operands,
                attrs: captures,
            },
            other => other,
        }
    }
}

/// Computes an attribute from a match (`None`: leave the attribute out, or for
/// a constant, do not rewrite).
pub type AttrFn = fn(&Context, &Match) -> Option<Attr>;
/// Computes a result type from a match (`None`: do not rewrite).
pub type TypeFn = fn(&Context, &Match) -> Option<Type>;
/// A constraint on a match.
pub type ConstraintFn = fn(&Context, &Match) -> bool;

/// A node of a result tree.
#[derive(Clone, Copy, Debug)]
pub enum Dst {
    /// A captured value.
    Val(u8),
    /// A new constant materialised by the root op's dialect.
    Const {
        /// The constant's value.
        value: AttrFn,
        /// Its type.
        ty: TypeFn,
    },
    /// A new op (with one result) before the root.
    Op {
        /// The op name.
        name: &'static str,
        /// Its operands.
        operands: &'static [Dst],
        /// Its attributes, by name: properties where the op declares them.
        attrs: &'static [(&'static str, AttrFn)],
        /// Its result type.
        ty: TypeFn,
    },
}

impl Dst {
    /// A new op without attributes.
    pub const fn op(name: &'static str, operands: &'static [Dst], ty: TypeFn) -> Dst {
        Dst::Op {
            name,
            operands,
            attrs: &[],
            ty,
        }
    }
    /// A new op with attributes.
    pub const fn op_with(
        name: &'static str,
        operands: &'static [Dst],
        attrs: &'static [(&'static str, AttrFn)],
        ty: TypeFn,
    ) -> Dst {
        Dst::Op {
            name,
            operands,
            attrs,
            ty,
        }
    }
    /// A new constant.
    pub const fn constant(value: AttrFn, ty: TypeFn) -> Dst {
        Dst::Const { value, ty }
    }
}

/// The type of the value in slot `S`.
pub fn type_of<const S: u8>(ctx: &Context, m: &Match) -> Option<Type> {
    Some(ctx.value_type(m.value(S)))
}

/// The type of the root's first result.
pub fn root_type(ctx: &Context, m: &Match) -> Option<Type> {
    Some(ctx.value_type(ctx.result(m.root(), 0)))
}

/// The attribute captured in slot `S`, passed through unchanged.
pub fn attr_of<const S: u8>(_: &Context, m: &Match) -> Option<Attr> {
    m.attr(S)
}

/// Constraint: the values in slots `A` and `B` have the same type.
pub fn same_type<const A: u8, const B: u8>(ctx: &Context, m: &Match) -> bool {
    ctx.value_type(m.value(A)) == ctx.value_type(m.value(B))
}

/// A declarative rewrite pattern.
#[derive(Debug)]
pub struct Pattern {
    /// A name for debugging (the DRR def's).
    pub name: &'static str,
    /// The source tree; its root must be an op node.
    pub source: Src,
    /// Conditions on the captures, all required.
    pub constraints: &'static [ConstraintFn],
    /// What replaces each result of the root.
    pub results: &'static [Dst],
    /// Patterns with higher benefit are tried first.
    pub benefit: u16,
}

impl Pattern {
    /// A pattern without constraints whose benefit is, as in DRR, the number of
    /// ops in its source tree.
    pub const fn new(name: &'static str, source: Src, results: &'static [Dst]) -> Pattern {
        Pattern {
            name,
            source,
            constraints: &[],
            results,
            benefit: count_ops(&source),
        }
    }
    /// This pattern with another benefit (a hand-written pattern's 1, say).
    pub const fn with_benefit(mut self, benefit: u16) -> Pattern {
        self.benefit = benefit;
        self
    }
    /// This pattern with constraints.
    pub const fn when(mut self, constraints: &'static [ConstraintFn]) -> Pattern {
        self.constraints = constraints;
        self
    }

    /// Match the source tree at `root`, returning the captures.
    pub fn matches(&self, ctx: &Context, root: Op) -> Option<Match> {
        let mut m = Match::new(root);
        let Src::Op { .. } = self.source else {
            return None;
        };
        match_op(ctx, &self.source, root, ctx.results(root).next(), &mut m)?;
        self.constraints.iter().all(|c| c(ctx, &m)).then_some(m)
    }
}

/// The number of op nodes in a source tree.
const fn count_ops(src: &Src) -> u16 {
    match src {
        Src::Op { operands, .. } => {
            let mut n = 1;
            let mut i = 0;
            while i < operands.len() {
                n += count_ops(&operands[i]);
                i += 1;
            }
            n
        }
        _ => 0,
    }
}

fn capture(slot: &mut Option<Value>, v: Value) -> Option<()> {
    match slot {
        Some(old) if *old != v => None,
        _ => {
            *slot = Some(v);
            Some(())
        }
    }
}

fn match_op(ctx: &Context, src: &Src, op: Op, value: Option<Value>, m: &mut Match) -> Option<()> {
    let Src::Op {
        name,
        bind,
        operands,
        attrs,
    } = src
    else {
        return None;
    };
    if ctx.op_name(op) != *name || ctx.operands(op).len() != operands.len() {
        return None;
    }
    if let Some(s) = bind {
        m.ops[*s as usize] = Some(op);
        if let Some(v) = value {
            capture(&mut m.values[*s as usize], v)?;
        }
    }
    for (attr, slot) in *attrs {
        m.attrs[*slot as usize] = ctx.find_ident(attr).and_then(|i| ctx.inherent_attr(op, i));
    }
    for (s, &v) in operands.iter().zip(ctx.operands(op)) {
        match_value(ctx, s, v, m)?;
    }
    Some(())
}

fn match_value(ctx: &Context, src: &Src, v: Value, m: &mut Match) -> Option<()> {
    match src {
        Src::Any => Some(()),
        Src::Val(s) => capture(&mut m.values[*s as usize], v),
        Src::Const(s) => {
            let c = constant_value(ctx, ctx.defining_op(v)?)?;
            capture(&mut m.values[*s as usize], v)?;
            m.attrs[*s as usize] = Some(c);
            Some(())
        }
        Src::Op { .. } => match_op(ctx, src, ctx.defining_op(v)?, Some(v), m),
    }
}

/// Whether every constant and type of `d` can be computed.
fn ready(ctx: &Context, m: &Match, d: &Dst) -> bool {
    match d {
        Dst::Val(_) => true,
        Dst::Const { value, ty } => value(ctx, m).is_some() && ty(ctx, m).is_some(),
        Dst::Op { operands, ty, .. } => {
            ty(ctx, m).is_some() && operands.iter().all(|o| ready(ctx, m, o))
        }
    }
}

/// Build `d` before `root`, returning its value.
fn build(rw: &mut Rewriter<'_>, m: &Match, d: &Dst) -> Option<Value> {
    let root = m.root();
    let loc = rw.ctx.op(root).loc;
    let st = match d {
        Dst::Val(s) => return Some(m.value(*s)),
        Dst::Const { value, ty } => {
            let (value, ty) = (value(rw.ctx, m)?, ty(rw.ctx, m)?);
            let dialect = rw.ctx.op_name(root).split('.').next()?.to_string();
            let registry = rw.ctx.registry().clone();
            let d = registry.dialects().iter().find(|d| d.name == dialect)?;
            (d.materialize_constant?)(rw.ctx, value, ty, loc)?
        }
        Dst::Op {
            name,
            operands,
            attrs,
            ty,
        } => {
            let mut vals: SmallVec<[Value; 2]> = SmallVec::new();
            for o in *operands {
                vals.push(build(rw, m, o)?);
            }
            let mut st = OpState::new(rw.ctx.ident(name), loc);
            st.operands = vals;
            st.result_types.push(ty(rw.ctx, m)?);
            let spec = rw.ctx.registry().op(name);
            let mut props = Vec::new();
            for (attr, f) in *attrs {
                let Some(a) = f(rw.ctx, m) else { continue };
                let id = rw.ctx.ident(attr);
                if spec.is_some_and(|s| s.attributes.iter().any(|x| x.name == *attr)) {
                    props.push((id, a));
                } else {
                    st.attrs.insert(id, a);
                }
            }
            if !props.is_empty() {
                st.props = Some(rw.ctx.dict_attr(props));
            }
            st
        }
    };
    let op = rw.create_before(root, st);
    rw.ctx.results(op).next()
}

impl RewritePattern for Pattern {
    fn root(&self) -> Option<&'static str> {
        match self.source {
            Src::Op { name, .. } => Some(name),
            _ => None,
        }
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool {
        let Some(m) = self.matches(rw.ctx, op) else {
            return false;
        };
        if self.results.len() != rw.ctx.num_results(op)
            || !self.results.iter().all(|d| ready(rw.ctx, &m, d))
        {
            return false;
        }
        let mut new = Vec::with_capacity(self.results.len());
        for d in self.results {
            match build(rw, &m, d) {
                Some(v) => new.push(v),
                None => return false,
            }
        }
        rw.replace_op(op, &new);
        true
    }
}
