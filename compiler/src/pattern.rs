//! Declarative rewrite patterns: MLIR's DRR (`Pat<(src), (result), [constraints]>`)
//! written in the rule syntax the e-graph reads (`passes/src/eqsat_fusion/*.rules`,
//! [`crate::eqsat`]), with named captures.
//!
//! A [`Pattern`] is one line of text, `name: source => result, ... if pred(?x), ...`,
//! and a table of [`Natives`]: the Rust functions the text names. Adding a
//! pattern is a `static` of a few lines:
//!
//! ```ignore
//! // add(add(x, c0), c1) -> add(x, c0 + c1)
//! static ADD_ADD: Pattern = Pattern::new(
//!     "AddAddConstant: (t.add (t.add ?x (const ?c0)) (const ?c1)) => (t.add ?x (const @sum(?c0, ?c1)) -> ?x)",
//!     NATIVES, // &[("sum", Native::Attr(sum)), ...]
//! );
//! ```
//!
//! The source tree, rooted at one op:
//! - `(op.name s ...)`: a value defined by an op of that name with exactly these
//!   operands (a nested op matches whichever of its results is the operand);
//!   `:attr ?a` among the operands captures the op's attribute `attr` (absent
//!   when the op does not carry it: the attribute's default);
//! - `?x`: any value, captured as `x`; a name used twice requires equal values;
//! - `(const ?c)`: a value defined by a constant-like op, capturing the value
//!   and the constant's attribute;
//! - `?e=(op.name ...)`: an op node that also captures the op and its value;
//! - `_`: any value, not captured.
//!
//! One result tree per result of the root, separated by commas:
//! - `?x`: a captured value;
//! - `(op.name d ... :attr A -> T)`: a new op (one result) before the root, its
//!   attributes (properties where the op declares them) and result type;
//! - `(const A -> T)`: a new constant, which the root op's dialect materialises.
//!
//! An attribute `A` is `?a` (a captured attribute, or a constant's value) or
//! `@f(?x, ...)`, a [`Native::Attr`] (`None`: leave the attribute out, or for a
//! constant, do not rewrite). A type `T` is `?x` (the captured value's type) or
//! `@f(?x, ...)`, a [`Native::Type`]; without `-> T`, the root's first result type.
//! `if p(?x, ...), ...` names [`Native::Pred`]s, all required. Natives see their
//! arguments through [`Args`].
//!
//! The text is read once, when the pattern is first used (`RewritePattern::root`
//! when a pattern set is built): names are resolved to slots there, and a bad
//! pattern (a syntax error, an unknown or unbound capture, a name bound twice,
//! an unknown native) is an error then ([`Pattern::check`]), never at match time.
//! Matching follows DRR: operands are matched positionally (commutative ops are
//! not tried both ways); the benefit is the number of ops in the source tree.
//! Nothing changes unless every constraint holds and every attribute, constant
//! and type of the result trees could be computed.

use crate::attributes::Attr;
use crate::ir::{Context, Op, OpState, Value};
use crate::rewrite::{RewritePattern, Rewriter, constant_value};
use crate::types::Type;
use smallvec::SmallVec;
use std::sync::OnceLock;

/// Captures per pattern.
pub const SLOTS: usize = 8;

/// A constraint on a match (`if p(?x)`).
pub type PredFn = fn(&Context, &Args) -> bool;
/// Computes an attribute from a match (`@f(?x)`; `None`: leave the attribute
/// out, or for a constant, do not rewrite).
pub type AttrFn = fn(&Context, &Args) -> Option<Attr>;
/// Computes a result type from a match (`-> @f(?x)`; `None`: do not rewrite).
pub type TypeFn = fn(&Context, &Args) -> Option<Type>;

/// A Rust function a pattern's text names.
#[derive(Clone, Copy, Debug)]
pub enum Native {
    /// A constraint, after `if`.
    Pred(PredFn),
    /// An attribute: a new op's attribute or a new constant's value.
    Attr(AttrFn),
    /// A new op's or constant's type, after `->`.
    Type(TypeFn),
}

/// The natives a pattern's text may name, by name.
pub type Natives = [(&'static str, Native)];

/// What a match captured, by slot.
#[derive(Clone, Debug)]
struct Match {
    root: Op,
    values: [Option<Value>; SLOTS],
    ops: [Option<Op>; SLOTS],
    attrs: [Option<Attr>; SLOTS],
}

/// A native's arguments: the captures named in its call, in order.
pub struct Args<'a> {
    m: &'a Match,
    slots: &'a [u8],
}

impl Args<'_> {
    /// The op the pattern matched at.
    pub fn root(&self) -> Op {
        self.m.root
    }
    /// The type of the root's first result.
    pub fn root_type(&self, ctx: &Context) -> Type {
        ctx.value_type(ctx.result(self.m.root, 0))
    }
    /// How many arguments there are.
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    /// The value of argument `i` (panics when the capture has none, an
    /// attribute capture: a bug in the pattern, not in the IR).
    pub fn value(&self, i: usize) -> Value {
        self.m.values[self.slots[i] as usize].expect("pattern passes a capture without a value")
    }
    /// The type of argument `i`'s value.
    pub fn type_of(&self, ctx: &Context, i: usize) -> Type {
        ctx.value_type(self.value(i))
    }
    /// The attribute of argument `i`: a constant's value, or an op attribute
    /// (`None` when the op does not carry it).
    pub fn attr(&self, i: usize) -> Option<Attr> {
        self.m.attrs[self.slots[i] as usize]
    }
    /// The op of argument `i`, a `?e=(...)` capture (see [`Args::value`]).
    pub fn op(&self, i: usize) -> Op {
        self.m.ops[self.slots[i] as usize].expect("pattern passes a capture without an op")
    }
}

/// A native call with its arguments resolved to slots.
#[derive(Debug)]
struct Call<F> {
    f: F,
    args: SmallVec<[u8; 2]>,
}

impl<F> Call<F> {
    fn args<'a>(&'a self, m: &'a Match) -> Args<'a> {
        Args {
            m,
            slots: &self.args,
        }
    }
}

/// A node of a source tree.
#[derive(Debug)]
enum Src {
    Any,
    Val(u8),
    Const(u8),
    Op {
        name: &'static str,
        bind: Option<u8>,
        operands: Vec<Src>,
        attrs: Vec<(&'static str, u8)>,
    },
}

/// An attribute of a result tree.
#[derive(Debug)]
enum AttrExpr {
    Capture(u8),
    Call(Call<AttrFn>),
}

/// A type of a result tree.
#[derive(Debug)]
enum TypeExpr {
    Root,
    Of(u8),
    Call(Call<TypeFn>),
}

/// A node of a result tree.
#[derive(Debug)]
enum Dst {
    Val(u8),
    Const {
        value: AttrExpr,
        ty: TypeExpr,
    },
    Op {
        name: &'static str,
        operands: Vec<Dst>,
        attrs: Vec<(&'static str, AttrExpr)>,
        ty: TypeExpr,
    },
}

/// A pattern's text, read.
#[derive(Debug)]
struct Rule {
    name: &'static str,
    root: &'static str,
    source: Src,
    guards: Vec<Call<PredFn>>,
    results: Vec<Dst>,
    benefit: u16,
}

/// A declarative rewrite pattern: its text and natives, read on first use.
#[derive(Debug)]
pub struct Pattern {
    text: &'static str,
    natives: &'static Natives,
    benefit: Option<u16>,
    rule: OnceLock<Result<Rule, String>>,
}

impl Pattern {
    /// The pattern `text` names, with the natives it may call. Its benefit is,
    /// as in DRR, the number of ops in its source tree.
    pub const fn new(text: &'static str, natives: &'static Natives) -> Pattern {
        Pattern {
            text,
            natives,
            benefit: None,
            rule: OnceLock::new(),
        }
    }
    /// This pattern with another benefit (a hand-written pattern's 1, say).
    pub const fn with_benefit(mut self, benefit: u16) -> Pattern {
        self.benefit = Some(benefit);
        self
    }
    /// Read the text (once): the error names the pattern and the problem.
    pub fn check(&self) -> Result<(), String> {
        self.read().as_ref().map(|_| ()).map_err(Clone::clone)
    }
    /// The name the text gives.
    pub fn name(&self) -> &'static str {
        self.rule().name
    }

    fn read(&self) -> &Result<Rule, String> {
        self.rule.get_or_init(|| read_rule(self.text, self.natives))
    }
    /// The rule; a pattern that does not read is a bug in the compiler's own
    /// patterns, which the test building every pattern catches.
    fn rule(&self) -> &Rule {
        match self.read() {
            Ok(r) => r,
            Err(e) => panic!("{e}"),
        }
    }
}

// ---------------------------------------------------------------- reading

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Open,
    Close,
    Comma,
    Eq,
    /// `=>`
    Then,
    /// `->`
    Arrow,
    Atom(&'static str),
}

fn tokens(s: &'static str) -> Vec<Tok> {
    let b = s.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        let next = b.get(i + 1).copied();
        let (tok, len) = match b[i] {
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'(' => (Tok::Open, 1),
            b')' => (Tok::Close, 1),
            b',' => (Tok::Comma, 1),
            b'=' if next == Some(b'>') => (Tok::Then, 2),
            b'=' => (Tok::Eq, 1),
            b'-' if next == Some(b'>') => (Tok::Arrow, 2),
            _ => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c.is_ascii_whitespace() || b"(),=".contains(&c))
                    .map_or(b.len(), |n| i + n);
                (Tok::Atom(&s[i..end]), end - i)
            }
        };
        out.push(tok);
        i += len;
    }
    out
}

/// What a capture holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// `?x`: a value.
    Value,
    /// `(const ?c)`: a value and its constant's attribute.
    Const,
    /// `?e=(...)`: an op and its value.
    Op,
    /// `:attr ?a`: an attribute.
    Attr,
}

/// What a use of a capture needs.
#[derive(Clone, Copy, PartialEq)]
enum Need {
    Value,
    Attr,
    Any,
}

struct Reader {
    toks: Vec<Tok>,
    pos: usize,
    captures: Vec<(&'static str, Kind)>,
    natives: &'static Natives,
}

impl Reader {
    fn peek(&self) -> Option<Tok> {
        self.toks.get(self.pos).copied()
    }
    fn next(&mut self) -> Result<Tok, String> {
        let t = self.peek().ok_or("unexpected end of the pattern")?;
        self.pos += 1;
        Ok(t)
    }
    fn expect(&mut self, want: Tok) -> Result<(), String> {
        match self.next()? {
            t if t == want => Ok(()),
            t => Err(format!("expected {want:?}, found {t:?}")),
        }
    }
    fn atom(&mut self) -> Result<&'static str, String> {
        match self.next()? {
            Tok::Atom(a) => Ok(a),
            t => Err(format!("expected a name, found {t:?}")),
        }
    }
    fn var(&mut self) -> Result<&'static str, String> {
        let a = self.atom()?;
        match a.strip_prefix('?') {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(format!("expected a capture '?name', found '{a}'")),
        }
    }

    /// The slot of a new capture (or of a value or constant captured again).
    fn bind(&mut self, name: &'static str, kind: Kind) -> Result<u8, String> {
        if let Some(i) = self.captures.iter().position(|(n, _)| *n == name) {
            let repeatable = matches!(kind, Kind::Value | Kind::Const);
            return if self.captures[i].1 == kind && repeatable {
                Ok(i as u8)
            } else {
                Err(format!("?{name} is bound twice"))
            };
        }
        if self.captures.len() == SLOTS {
            return Err(format!("more than {SLOTS} captures"));
        }
        self.captures.push((name, kind));
        Ok((self.captures.len() - 1) as u8)
    }
    /// The slot of a bound capture, which must hold what `need` asks for.
    fn lookup(&self, name: &str, need: Need) -> Result<u8, String> {
        let i = self
            .captures
            .iter()
            .position(|(n, _)| *n == name)
            .ok_or_else(|| format!("?{name} is not bound by the source"))?;
        let kind = self.captures[i].1;
        let ok = match need {
            Need::Value => kind != Kind::Attr,
            Need::Attr => matches!(kind, Kind::Attr | Kind::Const),
            Need::Any => true,
        };
        if ok {
            Ok(i as u8)
        } else if need == Need::Value {
            Err(format!("?{name} is an attribute, not a value"))
        } else {
            Err(format!("?{name} is not an attribute or a constant"))
        }
    }

    fn src(&mut self) -> Result<Src, String> {
        match self.next()? {
            Tok::Atom("_") => Ok(Src::Any),
            Tok::Atom(a) if a.starts_with('?') => {
                self.pos -= 1;
                let name = self.var()?;
                if self.peek() == Some(Tok::Eq) {
                    self.pos += 1;
                    let slot = self.bind(name, Kind::Op)?;
                    self.expect(Tok::Open)?;
                    self.src_op(Some(slot))
                } else {
                    Ok(Src::Val(self.bind(name, Kind::Value)?))
                }
            }
            Tok::Open if self.peek() == Some(Tok::Atom("const")) => {
                self.pos += 1;
                let name = self.var()?;
                self.expect(Tok::Close)?;
                Ok(Src::Const(self.bind(name, Kind::Const)?))
            }
            Tok::Open => self.src_op(None),
            t => Err(format!("expected a source node, found {t:?}")),
        }
    }
    /// An op node after its `(`.
    fn src_op(&mut self, bind: Option<u8>) -> Result<Src, String> {
        let name = self.atom()?;
        let (mut operands, mut attrs) = (Vec::new(), Vec::new());
        loop {
            match self.peek() {
                Some(Tok::Close) => {
                    self.pos += 1;
                    break;
                }
                Some(Tok::Atom(a)) if a.starts_with(':') => {
                    self.pos += 1;
                    let v = self.var()?;
                    attrs.push((&a[1..], self.bind(v, Kind::Attr)?));
                }
                _ => operands.push(self.src()?),
            }
        }
        Ok(Src::Op {
            name,
            bind,
            operands,
            attrs,
        })
    }

    /// `name(?x, ...)` (`@name` outside guards), its native and argument slots.
    fn call(&mut self, name: &str, what: &str) -> Result<(Native, SmallVec<[u8; 2]>), String> {
        let native = self
            .natives
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
            .ok_or_else(|| format!("unknown {what} '{name}'"))?;
        self.expect(Tok::Open)?;
        let mut args = SmallVec::new();
        if self.peek() == Some(Tok::Close) {
            self.pos += 1;
            return Ok((native, args));
        }
        loop {
            let v = self.var()?;
            args.push(self.lookup(v, Need::Any)?);
            match self.next()? {
                Tok::Comma => continue,
                Tok::Close => return Ok((native, args)),
                t => Err(format!("expected ',' or ')', found {t:?}"))?,
            }
        }
    }
    fn native(&mut self) -> Result<(&'static str, Native, SmallVec<[u8; 2]>), String> {
        let a = self.atom()?;
        let name = a
            .strip_prefix('@')
            .ok_or_else(|| format!("expected '?capture' or '@native(...)', found '{a}'"))?;
        let (f, args) = self.call(name, "native")?;
        Ok((name, f, args))
    }
    fn attr_expr(&mut self) -> Result<AttrExpr, String> {
        if let Some(Tok::Atom(a)) = self.peek()
            && let Some(v) = a.strip_prefix('?')
        {
            self.pos += 1;
            return Ok(AttrExpr::Capture(self.lookup(v, Need::Attr)?));
        }
        match self.native()? {
            (_, Native::Attr(f), args) => Ok(AttrExpr::Call(Call { f, args })),
            (name, ..) => Err(format!("'@{name}' does not compute an attribute")),
        }
    }
    /// `-> T`, or the root's type without one.
    fn type_expr(&mut self) -> Result<TypeExpr, String> {
        if self.peek() != Some(Tok::Arrow) {
            return Ok(TypeExpr::Root);
        }
        self.pos += 1;
        if let Some(Tok::Atom(a)) = self.peek()
            && let Some(v) = a.strip_prefix('?')
        {
            self.pos += 1;
            return Ok(TypeExpr::Of(self.lookup(v, Need::Value)?));
        }
        match self.native()? {
            (_, Native::Type(f), args) => Ok(TypeExpr::Call(Call { f, args })),
            (name, ..) => Err(format!("'@{name}' does not compute a type")),
        }
    }
    fn dst(&mut self) -> Result<Dst, String> {
        match self.next()? {
            Tok::Atom(a) if a.starts_with('?') => Ok(Dst::Val(self.lookup(&a[1..], Need::Value)?)),
            Tok::Open if self.peek() == Some(Tok::Atom("const")) => {
                self.pos += 1;
                let value = self.attr_expr()?;
                let ty = self.type_expr()?;
                self.expect(Tok::Close)?;
                Ok(Dst::Const { value, ty })
            }
            Tok::Open => {
                let name = self.atom()?;
                let (mut operands, mut attrs) = (Vec::new(), Vec::new());
                loop {
                    match self.peek() {
                        Some(Tok::Close | Tok::Arrow) => break,
                        Some(Tok::Atom(a)) if a.starts_with(':') => {
                            self.pos += 1;
                            attrs.push((&a[1..], self.attr_expr()?));
                        }
                        _ => operands.push(self.dst()?),
                    }
                }
                let ty = self.type_expr()?;
                self.expect(Tok::Close)?;
                Ok(Dst::Op {
                    name,
                    operands,
                    attrs,
                    ty,
                })
            }
            t => Err(format!("expected a result node, found {t:?}")),
        }
    }
}

/// Read `name: source => result, ... if pred(?x), ...`.
fn read_rule(text: &'static str, natives: &'static Natives) -> Result<Rule, String> {
    let (name, body) = text
        .split_once(':')
        .ok_or_else(|| format!("pattern '{text}': expected 'name: source => result'"))?;
    let name = name.trim();
    let at = |e: String| format!("pattern '{name}': {e}");
    let mut r = Reader {
        toks: tokens(body),
        pos: 0,
        captures: Vec::new(),
        natives,
    };
    let source = r.src().map_err(at)?;
    let Src::Op { name: root, .. } = source else {
        return Err(at("the source must be an op".into()));
    };
    r.expect(Tok::Then).map_err(at)?;
    let mut results = vec![r.dst().map_err(at)?];
    while r.peek() == Some(Tok::Comma) {
        r.pos += 1;
        results.push(r.dst().map_err(at)?);
    }
    let mut guards = Vec::new();
    if r.peek() == Some(Tok::Atom("if")) {
        r.pos += 1;
        loop {
            let pred = r.atom().map_err(at)?;
            match r.call(pred, "predicate").map_err(at)? {
                (Native::Pred(f), args) => guards.push(Call { f, args }),
                _ => return Err(at(format!("'{pred}' is not a predicate"))),
            }
            if r.peek() != Some(Tok::Comma) {
                break;
            }
            r.pos += 1;
        }
    }
    if let Some(t) = r.peek() {
        return Err(at(format!("unexpected {t:?} after the pattern")));
    }
    Ok(Rule {
        name,
        root,
        benefit: count_ops(&source),
        source,
        guards,
        results,
    })
}

/// The number of op nodes in a source tree.
fn count_ops(src: &Src) -> u16 {
    match src {
        Src::Op { operands, .. } => 1 + operands.iter().map(count_ops).sum::<u16>(),
        _ => 0,
    }
}

// ---------------------------------------------------------------- matching

impl Rule {
    /// Match the source tree at `root`, returning the captures.
    fn matches(&self, ctx: &Context, root: Op) -> Option<Match> {
        let mut m = Match {
            root,
            values: [None; SLOTS],
            ops: [None; SLOTS],
            attrs: [None; SLOTS],
        };
        match_op(ctx, &self.source, root, ctx.results(root).next(), &mut m)?;
        self.guards
            .iter()
            .all(|g| (g.f)(ctx, &g.args(&m)))
            .then_some(m)
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
    for (attr, slot) in attrs {
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

// ---------------------------------------------------------------- building

fn attr(ctx: &Context, m: &Match, a: &AttrExpr) -> Option<Attr> {
    match a {
        AttrExpr::Capture(s) => m.attrs[*s as usize],
        AttrExpr::Call(c) => (c.f)(ctx, &c.args(m)),
    }
}

fn ty(ctx: &Context, m: &Match, t: &TypeExpr) -> Option<Type> {
    match t {
        TypeExpr::Root => Some(ctx.value_type(ctx.result(m.root, 0))),
        TypeExpr::Of(s) => Some(ctx.value_type(m.values[*s as usize]?)),
        TypeExpr::Call(c) => (c.f)(ctx, &c.args(m)),
    }
}

/// Whether every constant and type of `d` can be computed.
fn ready(ctx: &Context, m: &Match, d: &Dst) -> bool {
    match d {
        Dst::Val(_) => true,
        Dst::Const { value, ty: t } => attr(ctx, m, value).is_some() && ty(ctx, m, t).is_some(),
        Dst::Op {
            operands, ty: t, ..
        } => ty(ctx, m, t).is_some() && operands.iter().all(|o| ready(ctx, m, o)),
    }
}

/// Build `d` before the root, returning its value.
fn build(rw: &mut Rewriter<'_>, m: &Match, d: &Dst) -> Option<Value> {
    let root = m.root;
    let loc = rw.ctx.op(root).loc;
    let st = match d {
        Dst::Val(s) => return m.values[*s as usize],
        Dst::Const { value, ty: t } => {
            let (value, t) = (attr(rw.ctx, m, value)?, ty(rw.ctx, m, t)?);
            let dialect = rw.ctx.op_name(root).split('.').next()?.to_string();
            let registry = rw.ctx.registry().clone();
            let d = registry.dialects().iter().find(|d| d.name == dialect)?;
            (d.materialize_constant?)(rw.ctx, value, t, loc)?
        }
        Dst::Op {
            name,
            operands,
            attrs,
            ty: t,
        } => {
            let mut vals: SmallVec<[Value; 2]> = SmallVec::new();
            for o in operands {
                vals.push(build(rw, m, o)?);
            }
            let mut st = OpState::new(rw.ctx.ident(name), loc);
            st.operands = vals;
            st.result_types.push(ty(rw.ctx, m, t)?);
            let spec = rw.ctx.registry().op(name);
            let mut props = Vec::new();
            for (name, a) in attrs {
                let Some(a) = attr(rw.ctx, m, a) else {
                    continue;
                };
                let id = rw.ctx.ident(name);
                if spec.is_some_and(|s| s.attributes.iter().any(|x| x.name == *name)) {
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
        Some(self.rule().root)
    }
    fn benefit(&self) -> u16 {
        self.benefit.unwrap_or_else(|| self.rule().benefit)
    }
    fn match_and_rewrite(&self, rw: &mut Rewriter<'_>, op: Op) -> bool {
        let rule = self.rule();
        let Some(m) = rule.matches(rw.ctx, op) else {
            return false;
        };
        if rule.results.len() != rw.ctx.num_results(op)
            || !rule.results.iter().all(|d| ready(rw.ctx, &m, d))
        {
            return false;
        }
        let mut new = Vec::with_capacity(rule.results.len());
        for d in &rule.results {
            match build(rw, &m, d) {
                Some(v) => new.push(v),
                None => return false,
            }
        }
        rw.replace_op(op, &new);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yes(_: &Context, _: &Args) -> bool {
        true
    }
    fn none(_: &Context, _: &Args) -> Option<Attr> {
        None
    }
    fn no_type(_: &Context, _: &Args) -> Option<Type> {
        None
    }
    static NATIVES: &Natives = &[
        ("yes", Native::Pred(yes)),
        ("none", Native::Attr(none)),
        ("no_type", Native::Type(no_type)),
    ];

    fn read(text: &'static str) -> Result<Rule, String> {
        read_rule(text, NATIVES)
    }

    #[test]
    fn names_resolve_to_slots_once() {
        let r = read(
            "N: (t.a ?e=(t.b ?x (const ?c) :f ?fl) ?x _) => (t.c ?x (const @none(?c) -> ?x) :f ?fl -> @no_type(?e)), ?c if yes(?x, ?c), yes()",
        )
        .unwrap();
        assert_eq!((r.name, r.root, r.benefit), ("N", "t.a", 2));
        let Src::Op { operands, .. } = &r.source else {
            panic!("{r:?}")
        };
        // `?e` is slot 0, `?x` 1 (both uses), `?c` 2, `?fl` 3.
        assert!(
            matches!(&operands[0], Src::Op { bind: Some(0), attrs, .. } if attrs == &[("f", 3)])
        );
        assert!(matches!(operands[1], Src::Val(1)));
        assert!(matches!(operands[2], Src::Any));
        assert!(matches!(r.results[1], Dst::Val(2)));
        assert_eq!(r.guards.len(), 2);
        assert_eq!(&r.guards[0].args[..], &[1, 2]);
        let Dst::Op { attrs, ty, .. } = &r.results[0] else {
            panic!("{r:?}")
        };
        assert!(matches!(attrs[..], [("f", AttrExpr::Capture(3))]));
        assert!(matches!(ty, TypeExpr::Call(c) if c.args[..] == [0]));
    }

    #[test]
    fn bad_patterns_are_refused_when_read() {
        for (text, error) in [
            ("N: (t.a ?x) => ?y", "?y is not bound by the source"),
            ("N: (t.a ?x) => (t.b ?x) if yes(?z)", "?z is not bound"),
            ("N: (t.a ?x (const ?x)) => ?x", "?x is bound twice"),
            (
                "N: (t.a ?e=(t.b ?x) ?e=(t.b ?x)) => ?x",
                "?e is bound twice",
            ),
            ("N: (t.a ?x :f ?a) => ?a", "?a is an attribute, not a value"),
            ("N: (t.a ?x) => (t.b :f ?x)", "?x is not an attribute"),
            (
                "N: (t.a ?x) => ?x if maybe(?x)",
                "unknown predicate 'maybe'",
            ),
            ("N: (t.a ?x) => ?x if none(?x)", "'none' is not a predicate"),
            (
                "N: (t.a ?x) => (const @yes(?x))",
                "'@yes' does not compute an attribute",
            ),
            (
                "N: (t.a ?x) => (t.b -> @none())",
                "'@none' does not compute a type",
            ),
            ("N: ?x => ?x", "the source must be an op"),
            ("N: (t.a ?x) ?x", "expected Then"),
            ("N: (t.a ?x) => ?x ?x", "unexpected Atom(\"?x\")"),
            ("N: (t.a ?x => ?x", "expected a source node"),
            ("(t.a ?x) => ?x", "expected 'name: source => result'"),
            (
                "N: (t.a ?a ?b ?c ?d ?e ?f ?g ?h ?i) => ?a",
                "more than 8 captures",
            ),
        ] {
            let e = read(text).expect_err(text);
            assert!(e.contains(error), "{text}: {e}");
            assert!(e.starts_with("pattern '"), "{e}");
        }
    }

    #[test]
    fn check_reports_and_benefit_overrides() {
        let bad = Pattern::new("N: (t.a ?x) => ?y", NATIVES);
        assert!(bad.check().unwrap_err().contains("?y"));
        let p = Pattern::new("N: (t.a (t.b ?x)) => ?x", NATIVES);
        assert_eq!(p.check(), Ok(()));
        assert_eq!((p.name(), p.root(), p.benefit()), ("N", Some("t.a"), 2));
        assert_eq!(p.with_benefit(7).benefit(), 7);
    }
}
