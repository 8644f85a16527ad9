//! The bridge between aic's IR and egg's e-graphs, for equality saturation.
//!
//! - [`Node`] is one generic e-graph language for every dialect: an op name,
//!   the op's interned attribute dictionary and its operands. There is no
//!   per-op enum to maintain; a new op is usable in rules as soon as it exists.
//! - [`Types`] is the e-class analysis: every class carries its value's type,
//!   computed for new nodes by a caller-supplied [`InferFn`]. [`typed_rewrite`]
//!   turns a rule into one that does not apply where it would change a type.
//! - [`from_block`] turns the pure single-result ops of a block into an e-graph
//!   (everything else enters as an opaque input); [`to_ops`] builds ops back
//!   from an extracted term.
//! - [`parse_rules_with`] reads rule sets in egg's pattern syntax over op
//!   names, one per line (`name: lhs => rhs`, or `<=>` for both directions),
//!   so adding a rule is one line of text. A rule may be guarded by
//!   predicates (`if const(?c, 0.5)`) and its right side may be a native
//!   (`@softmax`): Rust code, named from the text, for what depends on
//!   attribute values. A dialect's pass supplies both in a [`Natives`] table.
//!
//! Patterns match op names; a pattern node matches any attributes and type
//! ([`Matcher`] compares nodes that way, where egg's matcher would look
//! bound subterms up by hash and miss them).

use crate::attributes::{Attr, AttrKind};
use crate::intern::FxBuild;
use crate::ir::{Block, Context, InsertPoint, Op, OpState, Uniquer, Value};
use crate::types::Type;
use egg::{Applier, DidMerge, EGraph, Id, Language, PatternAst, RecExpr, Rewrite, Symbol};
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

/// The op name of the leaves that stand for values from outside the e-graph.
pub const INPUT: &str = "aic.input";

/// Deepest parenthesis nesting of a rule's pattern: egg reads patterns, and
/// [`Matcher`] matches them, recursively, so deeper ones are refused up front.
pub const MAX_PATTERN_NESTING: usize = 256;

/// Most ops and variables one side of a rule may name: egg's checks of a
/// pattern's variables are quadratic in their number.
pub const MAX_PATTERN_SIZE: usize = 1024;

/// Refuse, in one linear scan, a side of a rule that nests deeper than
/// [`MAX_PATTERN_NESTING`] or names more than [`MAX_PATTERN_SIZE`] ops and variables.
fn check_pattern_shape(text: &str) -> Result<(), String> {
    let (mut depth, mut atoms, mut in_atom) = (0usize, 0usize, false);
    for b in text.bytes() {
        let delimiter = matches!(b, b'(' | b')' | b',' | b'=') || b.is_ascii_whitespace();
        if !delimiter && !in_atom {
            atoms += 1;
            if atoms > MAX_PATTERN_SIZE {
                return Err(format!(
                    "pattern has more than {MAX_PATTERN_SIZE} ops and variables"
                ));
            }
        }
        in_atom = !delimiter;
        match b {
            b'(' => {
                depth += 1;
                if depth > MAX_PATTERN_NESTING {
                    return Err(format!(
                        "pattern nests deeper than {MAX_PATTERN_NESTING} levels"
                    ));
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// A pattern in egg's syntax, checked by [`check_pattern_shape`] before egg reads it.
fn parse_pattern(text: &str) -> Result<egg::Pattern<Node>, String> {
    check_pattern_shape(text)?;
    text.trim().parse().map_err(|e| format!("{e:?}"))
}

/// The first op a pattern names that `known_op` does not know.
fn unknown_op<'p>(ast: &'p PatternAst<Node>, known_op: &dyn Fn(&str) -> bool) -> Option<&'p str> {
    ast.as_ref().iter().find_map(|n| match n {
        egg::ENodeOrVar::ENode(node) if !known_op(node.op.as_str()) => Some(node.op.as_str()),
        _ => None,
    })
}

/// An e-node: an op name, its attribute dictionary (`None` in patterns: any)
/// and its operands' e-classes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node {
    /// The op name (`graph.matmul`), or [`INPUT`].
    pub op: Symbol,
    /// The op's properties (inherent attributes) as one interned dictionary;
    /// for inputs, the input's index as an integer attribute.
    pub attrs: Option<Attr>,
    /// Operand e-classes.
    pub children: SmallVec<[Id; 3]>,
    /// The result type where the node came from the IR (`None` in patterns and
    /// in nodes rules build, whose type the analysis infers). Part of the
    /// node's identity: two ops with the same operands and properties but
    /// different result types (`reshape`, `broadcast`, `cast`) are different.
    pub ty: Option<Type>,
}

impl Language for Node {
    // Patterns leave attributes open, so they are not part of what egg's
    // matcher compares first; `matches` checks them.
    type Discriminant = (Symbol, usize);

    fn discriminant(&self) -> Self::Discriminant {
        (self.op, self.children.len())
    }

    fn matches(&self, other: &Self) -> bool {
        self.op == other.op
            && self.children.len() == other.children.len()
            && (self.attrs.is_none() || other.attrs.is_none() || self.attrs == other.attrs)
            && (self.ty.is_none() || other.ty.is_none() || self.ty == other.ty)
    }

    fn children(&self) -> &[Id] {
        &self.children
    }

    fn children_mut(&mut self) -> &mut [Id] {
        &mut self.children
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.attrs {
            Some(a) if self.op.as_str() == INPUT => write!(f, "{INPUT}#{}", a.0),
            _ => f.write_str(self.op.as_str()),
        }
    }
}

impl egg::FromOp for Node {
    type Error = std::convert::Infallible;

    fn from_op(op: &str, children: Vec<Id>) -> Result<Self, Self::Error> {
        Ok(Node {
            op: Symbol::from(op),
            attrs: None,
            children: children.into(),
            ty: None,
        })
    }
}

/// The type of a node's result from its op, attributes and operand types
/// (`None` if it cannot be inferred).
pub type InferFn = fn(&Uniquer, &str, Option<Attr>, &[Type]) -> Option<Type>;

/// The e-class analysis: each class's type.
pub struct Types {
    /// Where types and attributes live.
    pub uniquer: Arc<Uniquer>,
    /// Infers the types of nodes that rewrites create.
    pub infer: InferFn,
    /// How many unions joined classes of different types (a rule that is not
    /// type-preserving); [`typed_rewrite`] keeps this at zero.
    pub conflicts: usize,
}

impl egg::Analysis<Node> for Types {
    type Data = Option<Type>;

    fn make(egraph: &mut EGraph<Node, Self>, enode: &Node) -> Self::Data {
        if enode.op.as_str() == INPUT || enode.ty.is_some() {
            return enode.ty;
        }
        let kids: Option<Vec<Type>> = enode.children.iter().map(|c| egraph[*c].data).collect();
        let a = &egraph.analysis;
        (a.infer)(&a.uniquer, enode.op.as_str(), enode.attrs, &kids?)
    }

    fn merge(&mut self, a: &mut Self::Data, b: Self::Data) -> DidMerge {
        match (*a, b) {
            (None, Some(t)) => {
                *a = Some(t);
                DidMerge(true, false)
            }
            (Some(x), Some(y)) if x != y => {
                self.conflicts += 1;
                DidMerge(false, true)
            }
            (Some(_), None) => DidMerge(false, true),
            _ => DidMerge(false, false),
        }
    }
}

/// An e-graph over [`Node`] with [`Types`].
pub type Graph = EGraph<Node, Types>;

/// An egg runner over `egraph` (egg's default limits; set yours with its
/// `with_*` methods).
pub fn runner(egraph: Graph) -> egg::Runner<Node, Types> {
    let a = Types {
        uniquer: egraph.analysis.uniquer.clone(),
        infer: egraph.analysis.infer,
        conflicts: 0,
    };
    egg::Runner::new(a).with_egraph(egraph)
}

/// Why a saturation stopped, in words: `saturated`, `node limit (N e-nodes)`
/// (`node_limit`, the runner's limit: egg's reason carries the e-graph's
/// size, which overshoots it), `iteration limit (N)`, `time limit (safety
/// net; result may differ between runs)`, or egg's own reason.
pub fn stop_reason_words(reason: Option<&egg::StopReason>, node_limit: usize) -> String {
    match reason {
        None => "not run".into(),
        Some(egg::StopReason::Saturated) => "saturated".into(),
        Some(egg::StopReason::NodeLimit(_)) => format!("node limit ({node_limit} e-nodes)"),
        Some(egg::StopReason::IterationLimit(n)) => format!("iteration limit ({n})"),
        Some(egg::StopReason::TimeLimit(_)) => {
            "time limit (safety net; result may differ between runs)".into()
        }
        Some(egg::StopReason::Other(why)) => why.clone(),
    }
}

/// How often each rule applied over a run's iterations (new applications
/// only, as egg counts them), in the order the rules first fired.
pub fn rules_fired(iterations: &[egg::Iteration<()>]) -> Vec<(Symbol, usize)> {
    let mut out: Vec<(Symbol, usize)> = Vec::new();
    for it in iterations {
        for (name, n) in &it.applied {
            match out.iter_mut().find(|(r, _)| r == name) {
                Some((_, total)) => *total += n,
                None => out.push((*name, *n)),
            }
        }
    }
    out
}

/// [`rules_fired`] in words: `mul-one ×3, neg-neg ×1`, or `none`.
pub fn rules_fired_words(iterations: &[egg::Iteration<()>]) -> String {
    let fired = rules_fired(iterations);
    if fired.is_empty() {
        return "none".into();
    }
    fired
        .iter()
        .map(|(r, n)| format!("{r} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The type `pat` would have at `subst`, from the types of the classes its
/// variables are bound to.
fn pattern_type(egraph: &Graph, pat: &PatternAst<Node>, subst: &egg::Subst) -> Option<Type> {
    let mut types: Vec<Option<Type>> = Vec::with_capacity(pat.as_ref().len());
    for n in pat.as_ref() {
        let t = match n {
            egg::ENodeOrVar::Var(v) => egraph[subst[*v]].data,
            egg::ENodeOrVar::ENode(e) => {
                let kids: Option<Vec<Type>> =
                    e.children.iter().map(|c| types[usize::from(*c)]).collect();
                let a = &egraph.analysis;
                kids.and_then(|k| (a.infer)(&a.uniquer, e.op.as_str(), e.attrs, &k))
            }
        };
        types.push(t);
    }
    types.last().copied().flatten()
}

/// An applier that instantiates `rhs` only where its type is the matched
/// class's type.
#[derive(Debug)]
pub struct Typed {
    rhs: egg::Pattern<Node>,
}

impl Applier<Node, Types> for Typed {
    fn apply_one(
        &self,
        egraph: &mut Graph,
        eclass: Id,
        subst: &egg::Subst,
        searcher_ast: Option<&PatternAst<Node>>,
        rule_name: Symbol,
    ) -> Vec<Id> {
        let want = egraph[eclass].data;
        let got = pattern_type(egraph, &self.rhs.ast, subst);
        if want.is_some() && got != want {
            return Vec::new();
        }
        self.rhs
            .apply_one(egraph, eclass, subst, searcher_ast, rule_name)
    }

    fn vars(&self) -> Vec<egg::Var> {
        self.rhs.vars()
    }
}

/// A left-hand side: one egg pattern, or several bound to variables (a
/// multi-pattern, `?a = (op ?x ?p), ?b = (op ?x ?q)`, matching classes that
/// share the classes of their common variables: how siblings are found).
/// Matching walks e-classes and compares nodes with [`Language::matches`].
/// egg's own matcher looks up the subterms whose variables are already bound
/// by hash, which misses every node that came from the IR (those carry
/// attributes and a type that a pattern leaves open), so a pattern repeating
/// a variable (`(graph.mul ?x (graph.sigmoid ?x))`) would never match.
pub struct Matcher {
    pats: Vec<(Option<egg::Var>, PatternAst<Node>)>,
    vars: Vec<egg::Var>,
}

impl Matcher {
    /// The matcher of a pattern or multi-pattern in egg's syntax.
    pub fn parse(text: &str) -> Result<Matcher, String> {
        let one = |t: &str| -> Result<PatternAst<Node>, String> { Ok(parse_pattern(t)?.ast) };
        let text = text.trim();
        check_pattern_shape(text)?;
        let pats = if text.starts_with('?') && text.contains('=') {
            split_calls(text)
                .into_iter()
                .map(|part| {
                    let (v, p) = part
                        .split_once('=')
                        .ok_or_else(|| format!("expected '?var = pattern', got '{part}'"))?;
                    let v: egg::Var = v
                        .trim()
                        .parse()
                        .map_err(|_| format!("bad variable '{}'", v.trim()))?;
                    Ok((Some(v), one(p)?))
                })
                .collect::<Result<Vec<_>, String>>()?
        } else {
            vec![(None, one(text)?)]
        };
        let mut vars = Vec::new();
        for (b, ast) in &pats {
            for v in b.iter().chain(ast.as_ref().iter().filter_map(|n| match n {
                egg::ENodeOrVar::Var(v) => Some(v),
                _ => None,
            })) {
                if !vars.contains(v) {
                    vars.push(*v);
                }
            }
        }
        Ok(Matcher { pats, vars })
    }

    /// The bindings under which node `at` of `ast` matches class `class`,
    /// extending each of `substs`.
    fn at(
        g: &Graph,
        ast: &PatternAst<Node>,
        at: Id,
        class: Id,
        substs: Vec<egg::Subst>,
    ) -> Vec<egg::Subst> {
        let class = g.find(class);
        match &ast[at] {
            egg::ENodeOrVar::Var(v) => substs
                .into_iter()
                .filter_map(|s| bind(s, *v, class, g))
                .collect(),
            egg::ENodeOrVar::ENode(p) => {
                let mut out = Vec::new();
                for n in g[class].nodes.iter().filter(|n| p.matches(n)) {
                    let mut cur = substs.clone();
                    for (pc, nc) in p.children.iter().zip(&n.children) {
                        if cur.is_empty() {
                            break;
                        }
                        cur = Self::at(g, ast, *pc, *nc, cur);
                    }
                    out.extend(cur);
                }
                out
            }
        }
    }

    /// The bindings under which the whole of pattern `ast` (bound to `binder`)
    /// matches class `class`.
    fn whole(
        g: &Graph,
        binder: Option<egg::Var>,
        ast: &PatternAst<Node>,
        class: Id,
        substs: Vec<egg::Subst>,
    ) -> Vec<egg::Subst> {
        let substs = match binder {
            Some(v) => substs
                .into_iter()
                .filter_map(|s| bind(s, v, g.find(class), g))
                .collect(),
            None => substs,
        };
        let root = Id::from(ast.as_ref().len() - 1);
        Self::at(g, ast, root, class, substs)
    }

    /// The classes where a later pattern of a multi-pattern may match under
    /// `s`: the parents of a class its root's operands are bound to, else
    /// every class with its root's op.
    fn candidates(g: &Graph, ast: &PatternAst<Node>, s: &egg::Subst) -> Vec<Id> {
        let Some(egg::ENodeOrVar::ENode(root)) = ast.as_ref().last() else {
            return g.classes().map(|c| c.id).collect();
        };
        let bound = root.children.iter().find_map(|c| match &ast[*c] {
            egg::ENodeOrVar::Var(v) => s.get(*v).copied(),
            _ => None,
        });
        let mut out: Vec<Id> = match bound {
            Some(b) => g[b].parents().map(|p| g.find(p)).collect(),
            None => g
                .classes_for_op(&root.discriminant())
                .map(|ids| ids.collect())
                .unwrap_or_default(),
        };
        out.sort();
        out.dedup();
        out
    }
}

/// `s` with `v` bound to `class`, if that agrees with what `s` binds.
fn bind(mut s: egg::Subst, v: egg::Var, class: Id, g: &Graph) -> Option<egg::Subst> {
    match s.get(v) {
        Some(b) if g.find(*b) != class => None,
        Some(_) => Some(s),
        None => {
            s.insert(v, class);
            Some(s)
        }
    }
}

impl egg::Searcher<Node, Types> for Matcher {
    fn search_eclass_with_limit(
        &self,
        egraph: &Graph,
        eclass: Id,
        limit: usize,
    ) -> Option<egg::SearchMatches<'_, Node>> {
        let (b0, first) = &self.pats[0];
        let mut substs = Self::whole(egraph, *b0, first, eclass, vec![egg::Subst::default()]);
        for (b, ast) in &self.pats[1..] {
            let mut next = Vec::new();
            for s in substs {
                for c in Self::candidates(egraph, ast, &s) {
                    next.extend(Self::whole(egraph, *b, ast, c, vec![s.clone()]));
                }
            }
            substs = next;
        }
        substs.dedup();
        substs.truncate(limit);
        (!substs.is_empty()).then(|| egg::SearchMatches {
            eclass,
            substs,
            ast: (self.pats.len() == 1).then(|| std::borrow::Cow::Borrowed(&self.pats[0].1)),
        })
    }

    fn search_with_limit(&self, egraph: &Graph, limit: usize) -> Vec<egg::SearchMatches<'_, Node>> {
        let classes: Vec<Id> = match self.pats[0].1.as_ref().last() {
            Some(egg::ENodeOrVar::ENode(e)) => egraph
                .classes_for_op(&e.discriminant())
                .map(|ids| ids.collect())
                .unwrap_or_default(),
            _ => egraph.classes().map(|c| c.id).collect(),
        };
        let mut out = Vec::new();
        let mut left = limit;
        for c in classes {
            if left == 0 {
                break;
            }
            if let Some(m) = self.search_eclass_with_limit(egraph, c, left) {
                left -= m.substs.len();
                out.push(m);
            }
        }
        out
    }

    fn get_pattern_ast(&self) -> Option<&PatternAst<Node>> {
        (self.pats.len() == 1).then(|| &self.pats[0].1)
    }

    fn vars(&self) -> Vec<egg::Var> {
        self.vars.clone()
    }
}

/// A rewrite `lhs => rhs` that does not apply where it would change a type.
pub fn typed_rewrite(name: &str, lhs: &str, rhs: &str) -> Result<Rewrite<Node, Types>, String> {
    let l = Matcher::parse(lhs).map_err(|e| format!("{name}: {e}"))?;
    let r = parse_pattern(rhs).map_err(|e| format!("{name}: {e}"))?;
    Rewrite::new(name, l, Typed { rhs: r }).map_err(|e| format!("{name}: {e}"))
}

/// The bindings of a rule's pattern variables at one match, by name
/// (`b["?x"]`).
pub struct Bound<'a> {
    names: &'a [(String, egg::Var)],
    subst: &'a egg::Subst,
}

impl std::ops::Index<&str> for Bound<'_> {
    type Output = Id;
    /// The class bound to `name`. Rules are checked when they are read: a
    /// native names only variables its pattern binds (see [`Native::vars`]).
    fn index(&self, name: &str) -> &Id {
        let (_, v) = self
            .names
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no pattern variable {name} (checked when read)"));
        &self.subst[*v]
    }
}

/// The new nodes a Rust rule proposes for the matched class, given the class
/// and the bindings of its pattern's variables. It may add the inner nodes of
/// a larger term to the e-graph itself (with `ty: None`, so the analysis
/// infers their types) and propose the term's root.
pub type ProposeFn = fn(&mut Graph, Id, &Bound) -> Vec<Node>;

/// A right-hand side written in Rust, named in rule text as `@name`: for
/// rules that read or compute attributes.
#[derive(Clone, Copy)]
pub struct Native {
    /// The name rule text uses, without `@`.
    pub name: &'static str,
    /// The pattern variables it reads (each rule using it must bind them).
    pub vars: &'static [&'static str],
    /// Proposes the nodes.
    pub propose: ProposeFn,
}

/// An argument of a predicate in a rule's `if` clause: a pattern variable's
/// class or a number.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// The class bound to a variable.
    Class(Id),
    /// A number (`0.5`, `-inf`).
    Num(f64),
}

/// A predicate named in a rule's `if` clause (`const(?c, 0.5)`).
pub type PredFn = fn(&Graph, &[Arg]) -> bool;

/// What rule text may name besides patterns: predicates for `if` clauses and
/// native right-hand sides. The framework defines none (it knows no dialect).
#[derive(Clone, Copy, Default)]
pub struct Natives<'a> {
    /// Predicates by name.
    pub preds: &'a [(&'static str, PredFn)],
    /// Native right-hand sides.
    pub builders: &'a [Native],
}

/// An applier written in Rust, for rules that read or compute attributes: it
/// adds the nodes `propose` returns to the matched class, each only if it has
/// the class's type (or carries none). A proposed node that is already in
/// another class merges that class with the matched one (how a native says
/// "this is the same value as ?y").
pub struct RustApplier {
    names: Vec<(String, egg::Var)>,
    propose: ProposeFn,
}

impl Applier<Node, Types> for RustApplier {
    fn apply_one(
        &self,
        egraph: &mut Graph,
        eclass: Id,
        subst: &egg::Subst,
        _: Option<&PatternAst<Node>>,
        _: Symbol,
    ) -> Vec<Id> {
        let bound = Bound {
            names: &self.names,
            subst,
        };
        let want = egraph[eclass].data;
        let mut changed = Vec::new();
        for node in (self.propose)(egraph, eclass, &bound) {
            if node.ty.is_some() && node.ty != want {
                continue;
            }
            if egraph.lookup(node.clone()) == Some(egraph.find(eclass)) {
                continue;
            }
            let id = egraph.add(node);
            if egraph[id].data.is_some() && egraph[id].data != want {
                continue;
            }
            if egraph.union(eclass, id) {
                changed.push(eclass);
            }
        }
        changed
    }

    fn vars(&self) -> Vec<egg::Var> {
        self.names.iter().map(|(_, v)| *v).collect()
    }
}

/// A rule whose left side is a pattern (`(graph.add ?a ?b)`) and whose right
/// side is Rust code proposing nodes from the bound classes.
pub fn rust_rule(
    name: &str,
    lhs: &str,
    propose: ProposeFn,
) -> Result<Rewrite<Node, Types>, String> {
    let l = Matcher::parse(lhs).map_err(|e| format!("{name}: {e}"))?;
    let names = l.vars.iter().map(|v| (v.to_string(), *v)).collect();
    Rewrite::new(name, l, RustApplier { names, propose }).map_err(|e| format!("{name}: {e}"))
}

/// The conjunction of a rule's `if` predicates.
struct Guard {
    preds: Vec<(PredFn, Vec<GuardArg>)>,
}

enum GuardArg {
    Var(egg::Var),
    Num(f64),
}

impl egg::Condition<Node, Types> for Guard {
    fn check(&self, egraph: &mut Graph, _: Id, subst: &egg::Subst) -> bool {
        self.preds.iter().all(|(f, args)| {
            let args: Vec<Arg> = args
                .iter()
                .map(|a| match a {
                    GuardArg::Var(v) => Arg::Class(subst[*v]),
                    GuardArg::Num(x) => Arg::Num(*x),
                })
                .collect();
            f(egraph, &args)
        })
    }
}

/// A property of a node (`None` if it has none of that name).
pub fn prop(u: &Uniquer, node: &Node, name: &str) -> Option<Attr> {
    let d = node.attrs?;
    u.dict_entries(d)
        .iter()
        .find(|(k, _)| u.str(*k) == name)
        .map(|(_, v)| *v)
}

/// Read a rule set with no natives, accepting any op name (see [`parse_rules_with`]).
pub fn parse_rules(text: &str) -> Result<Vec<Rewrite<Node, Types>>, String> {
    parse_rules_with(text, &Natives::default(), &|_| true)
}

/// An error naming the first op of `lhs` or `rhs` that `known_op` does not know
/// ([`INPUT`] is always known).
fn check_ops(
    name: &str,
    lhs: &Matcher,
    rhs: Option<&PatternAst<Node>>,
    known_op: &dyn Fn(&str) -> bool,
) -> Result<(), String> {
    let known = |op: &str| op == INPUT || known_op(op);
    let found = lhs
        .pats
        .iter()
        .map(|(_, ast)| ast)
        .chain(rhs)
        .find_map(|ast| unknown_op(ast, &known));
    match found {
        Some(op) => Err(format!("rule '{name}': unknown op '{op}'")),
        None => Ok(()),
    }
}

/// Read a rule set: one rule per line, `#` starting a comment. A rule is
/// `name: lhs => rhs`, or `name: lhs <=> rhs` for both directions (the
/// reverse named `name-rev`). The right side is a pattern or `@native`, and
/// may be followed by `if pred(?v, 0.5), ...`: the rule applies where every
/// predicate holds. Every op the patterns name must satisfy `known_op` (a
/// dialect registry's lookup, say). Errors name the line. Reading is linear in
/// the text: patterns nesting deeper than [`MAX_PATTERN_NESTING`] are refused.
pub fn parse_rules_with(
    text: &str,
    natives: &Natives,
    known_op: &dyn Fn(&str) -> bool,
) -> Result<Vec<Rewrite<Node, Types>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |m: String| format!("line {}: {m}", i + 1);
        let (name, body) = line
            .split_once(':')
            .ok_or_else(|| at("expected 'name: lhs => rhs'".into()))?;
        let name = name.trim();
        if let Some((l, r)) = body.split_once("<=>") {
            let fwd = typed_rewrite(name, l.trim(), r.trim()).map_err(at)?;
            let lhs = Matcher::parse(l).map_err(|e| at(format!("{name}: {e}")))?;
            let rhs = Matcher::parse(r).map_err(|e| at(format!("{name}: {e}")))?;
            check_ops(name, &lhs, None, known_op).map_err(at)?;
            check_ops(name, &rhs, None, known_op).map_err(at)?;
            out.push(fwd);
            out.push(typed_rewrite(&format!("{name}-rev"), r.trim(), l.trim()).map_err(at)?);
            continue;
        }
        let (l, r) = body
            .split_once("=>")
            .ok_or_else(|| at("expected '=>' or '<=>'".into()))?;
        let (r, cond) = match r.split_once(" if ") {
            Some((r, c)) => (r.trim(), Some(c.trim())),
            None => (r.trim(), None),
        };
        out.push(rule(name, l.trim(), r, cond, natives, known_op).map_err(at)?);
    }
    Ok(out)
}

/// One `=>` rule of [`parse_rules_with`].
fn rule(
    name: &str,
    lhs: &str,
    rhs: &str,
    cond: Option<&str>,
    natives: &Natives,
    known_op: &dyn Fn(&str) -> bool,
) -> Result<Rewrite<Node, Types>, String> {
    let l = Matcher::parse(lhs).map_err(|e| format!("{name}: {e}"))?;
    let bound = l.vars.clone();
    let var = |t: &str| -> Result<egg::Var, String> {
        let v: egg::Var = t
            .parse()
            .map_err(|_| format!("{name}: bad variable '{t}'"))?;
        if bound.contains(&v) {
            Ok(v)
        } else {
            Err(format!("{name}: {t} is not bound by the left side"))
        }
    };
    let guard = match cond {
        None => None,
        Some(c) => Some(Guard {
            preds: split_calls(c)
                .into_iter()
                .map(|call| {
                    let (f, args) = call
                        .strip_suffix(')')
                        .and_then(|c| c.split_once('('))
                        .ok_or_else(|| format!("{name}: expected 'pred(args)', got '{call}'"))?;
                    let f = f.trim();
                    let pred = natives
                        .preds
                        .iter()
                        .find(|(n, _)| *n == f)
                        .map(|(_, p)| *p)
                        .ok_or_else(|| format!("{name}: unknown predicate '{f}'"))?;
                    let args = args
                        .split(',')
                        .map(str::trim)
                        .map(|a| {
                            if a.starts_with('?') {
                                var(a).map(GuardArg::Var)
                            } else {
                                a.parse::<f64>()
                                    .map(GuardArg::Num)
                                    .map_err(|_| format!("{name}: bad argument '{a}'"))
                            }
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok((pred, args))
                })
                .collect::<Result<Vec<_>, String>>()?,
        }),
    };
    let names: Vec<(String, egg::Var)> = bound.iter().map(|v| (v.to_string(), *v)).collect();
    if let Some(native) = rhs.strip_prefix('@') {
        let n = natives
            .builders
            .iter()
            .find(|b| b.name == native)
            .ok_or_else(|| format!("{name}: unknown native '@{native}'"))?;
        for v in n.vars {
            var(v)?;
        }
        check_ops(name, &l, None, known_op)?;
        let app = RustApplier {
            names,
            propose: n.propose,
        };
        return guarded(name, l, guard, app);
    }
    let r = parse_pattern(rhs).map_err(|e| format!("{name}: {e}"))?;
    check_ops(name, &l, Some(&r.ast), known_op)?;
    guarded(name, l, guard, Typed { rhs: r })
}

/// The rewrite `lhs => app`, under `guard` if there is one.
fn guarded(
    name: &str,
    lhs: Matcher,
    guard: Option<Guard>,
    app: impl Applier<Node, Types> + Send + Sync + 'static,
) -> Result<Rewrite<Node, Types>, String> {
    match guard {
        Some(condition) => Rewrite::new(
            name,
            lhs,
            egg::ConditionalApplier {
                condition,
                applier: app,
            },
        ),
        None => Rewrite::new(name, lhs, app),
    }
    .map_err(|e| format!("{name}: {e}"))
}

/// `a(x, y), b(z)` split at the commas outside parentheses.
fn split_calls(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// A block as an e-graph: its pure, single-result, region-free ops become
/// nodes; the values they use from elsewhere (block arguments, results of
/// other ops) become [`INPUT`] leaves.
pub struct FromBlock {
    /// The e-graph.
    pub egraph: Graph,
    /// The values the inputs stand for, by input index.
    pub inputs: Vec<Value>,
    /// The e-class of each value computed by a node.
    pub classes: HashMap<Value, Id>,
    /// The ops that became nodes, in block order.
    pub ops: Vec<Op>,
}

/// Whether `op` can be a node: pure, one result, no regions, not a terminator.
pub fn is_node_op(ctx: &Context, op: Op) -> bool {
    ctx.num_results(op) == 1
        && ctx.regions(op).is_empty()
        && ctx.op_spec(op).is_some_and(|s| {
            s.has(crate::dialect::Traits::PURE) && !s.has(crate::dialect::Traits::TERMINATOR)
        })
}

/// Build the e-graph of the node ops of `block` (see [`FromBlock`]).
pub fn from_block(ctx: &Context, block: Block, infer: InferFn) -> FromBlock {
    let ops: Vec<Op> = ctx
        .block_ops(block)
        .filter(|o| is_node_op(ctx, *o))
        .collect();
    from_ops(ctx, &ops, infer)
}

/// Build the e-graph of `ops` (node ops, in an order where definitions come
/// before uses); the values they use from elsewhere become inputs.
pub fn from_ops(ctx: &Context, ops: &[Op], infer: InferFn) -> FromBlock {
    let u = ctx.uniquer().clone();
    let mut egraph = Graph::new(Types {
        uniquer: u.clone(),
        infer,
        conflicts: 0,
    });
    let mut inputs = Vec::new();
    let mut classes: HashMap<Value, Id> = HashMap::new();
    let i64t = u.int_type(64);
    let mut class_of = |egraph: &mut Graph, classes: &mut HashMap<Value, Id>, v: Value| -> Id {
        if let Some(c) = classes.get(&v) {
            return *c;
        }
        let idx = inputs.len();
        inputs.push(v);
        let a = u.attr(AttrKind::Integer {
            value: idx as i128,
            ty: i64t,
        });
        let id = egraph.add(Node {
            op: Symbol::from(INPUT),
            attrs: Some(a),
            children: SmallVec::new(),
            ty: Some(ctx.value_type(v)),
        });
        classes.insert(v, id);
        id
    };
    for &op in ops {
        let children: SmallVec<[Id; 3]> = ctx
            .operands(op)
            .iter()
            .map(|v| class_of(&mut egraph, &mut classes, *v))
            .collect();
        let r = ctx.result(op, 0);
        let node = Node {
            op: Symbol::from(ctx.op_name(op)),
            attrs: ctx.op(op).props,
            children,
            ty: Some(ctx.value_type(r)),
        };
        let id = egraph.add(node);
        classes.insert(r, id);
    }
    egraph.rebuild();
    FromBlock {
        egraph,
        inputs,
        classes,
        ops: ops.to_vec(),
    }
}

/// Build the ops of an extracted term before `at`: inputs map to the values
/// they stand for, every other node becomes an op whose result type is its
/// e-class's type (`types[i]` for node `i` of `expr`). Returns the value of
/// every node of `expr`, or the first node whose type is unknown.
pub fn to_ops(
    ctx: &mut Context,
    expr: &RecExpr<Node>,
    types: &[Option<Type>],
    inputs: &[Value],
    at: InsertPoint,
    loc: Attr,
) -> Result<Vec<Value>, usize> {
    let mut values: Vec<Value> = Vec::with_capacity(expr.as_ref().len());
    for (i, n) in expr.as_ref().iter().enumerate() {
        if n.op.as_str() == INPUT {
            let idx = match n.attrs.map(|a| ctx.attr_kind(a).clone()) {
                Some(AttrKind::Integer { value, .. }) => value as usize,
                _ => return Err(i),
            };
            values.push(*inputs.get(idx).ok_or(i)?);
            continue;
        }
        let ty = types.get(i).copied().flatten().ok_or(i)?;
        let name = ctx.ident(n.op.as_str());
        let mut st = OpState::new(name, loc);
        st.operands
            .extend(n.children.iter().map(|c| values[usize::from(*c)]));
        st.result_types.push(ty);
        st.props = n.attrs;
        let op = ctx.create_op(st);
        ctx.insert_op(at, op);
        values.push(ctx.result(op, 0));
    }
    Ok(values)
}

/// An extraction's choice: each class's best total and node. Hashed with
/// [`FxBuild`]: extraction looks classes up millions of times on a large
/// model, and SipHash was a fifth of its time.
pub type Choice = HashMap<Id, (f64, Node), FxBuild>;

/// A set of classes, hashed as [`Choice`] is.
pub type IdSet = HashSet<Id, FxBuild>;

/// The cheapest node of every class and its total cost (its own `cost` plus
/// its operands' totals), by a worklist that revisits a class only when one of
/// its operands got cheaper: linear in the graph for acyclic choices, where a
/// pass-until-stable extraction is quadratic in its depth. `cost` must be
/// positive; on a tie the first node in class order wins.
pub fn best_nodes(egraph: &Graph, cost: &mut dyn FnMut(&Node) -> f64) -> Choice {
    best_nodes_paid(egraph, cost, &IdSet::default())
}

/// [`best_nodes`] where the classes in `paid` cost their consumers nothing
/// (their values are computed anyway).
fn best_nodes_paid(egraph: &Graph, cost: &mut dyn FnMut(&Node) -> f64, paid: &IdSet) -> Choice {
    let mut best: Choice = Choice::default();
    let mut classes: Vec<Id> = egraph.classes().map(|c| c.id).collect();
    classes.sort();
    relax(egraph, cost, paid, &mut best, classes);
    best
}

/// The worklist of [`best_nodes`], from the classes `start`: a class whose
/// best total drops sends its parents round again.
fn relax(
    egraph: &Graph,
    cost: &mut dyn FnMut(&Node) -> f64,
    paid: &IdSet,
    best: &mut Choice,
    start: Vec<Id>,
) {
    let mut queue: std::collections::VecDeque<Id> = start.iter().copied().collect();
    let mut queued: IdSet = start.into_iter().collect();
    // Each node's own cost, computed once however often its class is visited.
    let mut own: HashMap<Id, Vec<f64>, FxBuild> = HashMap::default();
    while let Some(c) = queue.pop_front() {
        queued.remove(&c);
        let class = &egraph[c];
        let costs = own
            .entry(c)
            .or_insert_with(|| class.nodes.iter().map(&mut *cost).collect());
        let mut pick: Option<(f64, &Node)> = None;
        for (n, own_cost) in class.nodes.iter().zip(costs.iter()) {
            let kids: Option<f64> = n
                .children
                .iter()
                .map(|k| {
                    let k = egraph.find(*k);
                    let b = best.get(&k).map(|b| b.0);
                    if paid.contains(&k) { b.map(|_| 0.0) } else { b }
                })
                .sum();
            let Some(kids) = kids else { continue };
            let total = own_cost + kids;
            if pick.is_none_or(|(b, _)| total < b) {
                pick = Some((total, n));
            }
        }
        let Some((total, n)) = pick else { continue };
        if best.get(&c).is_none_or(|(b, _)| total < *b) {
            best.insert(c, (total, n.clone()));
            for p in class.parents() {
                let p = egraph.find(p);
                if queued.insert(p) {
                    queue.push_back(p);
                }
            }
        }
    }
}

/// The cheapest nodes for the values `roots`, counting shared values once.
/// [`best_nodes`] prices a class as a tree, so a value two consumers use is
/// paid twice and a consumer that recomputes it inside itself looks as cheap
/// as one that reads it. Starting from that choice, each round makes the
/// values the current program computes free to their consumers and chooses
/// again; a round is kept only if the program it gives (an acyclic one) is
/// cheaper counting each node once. The choice is then improved by
/// [`swap_nodes`].
pub fn best_nodes_shared(
    egraph: &Graph,
    cost: &mut dyn FnMut(&Node) -> f64,
    roots: &[Id],
    rounds: usize,
) -> Choice {
    // Every node's cost once: the rounds and the swaps price nodes again and again.
    let mut memo: HashMap<Node, f64, FxBuild> = HashMap::default();
    let mut cost = |n: &Node| match memo.get(n) {
        Some(c) => *c,
        None => *memo.entry(n.clone()).or_insert(cost(n)),
    };
    let mut best = best_nodes(egraph, &mut cost);
    let Some((mut total, mut used)) = dag_cost(egraph, &best, roots, &mut cost) else {
        return best;
    };
    for _ in 0..rounds {
        let next = best_nodes_paid(egraph, &mut cost, &used);
        match dag_cost(egraph, &next, roots, &mut cost) {
            Some((t, u)) if t < total * (1.0 - 1e-9) => {
                (best, total, used) = (next, t, u);
            }
            _ => break,
        }
    }
    swap_nodes(egraph, &mut cost, roots, &mut best, total, used);
    best
}

/// The most programs [`swap_nodes`] prices.
const SWAP_TRIES: usize = 20_000;

/// Improves the choice `best` (of program cost `total`, computing the
/// classes `used`) one class at a time: a class of the program takes
/// another of its nodes where the program that gives, each node counted
/// once, is cheaper. The rounds of [`best_nodes_shared`] reprice every
/// class against what the current program computes, so they keep a value
/// that only the current program needs: a bias added by a kernel of its
/// own to a GEMM's result, which both readers of the sum would rather take
/// from one GEMM that adds it, costs a kernel more than choosing that GEMM
/// for the sum, after which nothing reads the bare GEMM. Sweeps until no
/// swap helps, at most [`SWAP_TRIES`] programs priced. Only a class whose
/// node reads a computed value nothing else reads is tried: a swap
/// elsewhere drops no value, and one that is cheaper by itself the rounds
/// have taken already.
fn swap_nodes(
    egraph: &Graph,
    cost: &mut dyn FnMut(&Node) -> f64,
    roots: &[Id],
    best: &mut Choice,
    mut total: f64,
    mut used: IdSet,
) {
    let mut tries = 0;
    loop {
        let mut improved = false;
        // How many classes of the program read each class (roots once more).
        let mut readers: HashMap<Id, usize, FxBuild> = HashMap::default();
        for r in roots {
            *readers.entry(egraph.find(*r)).or_default() += 1;
        }
        for c in &used {
            if let Some((_, n)) = best.get(c) {
                let mut kids: Vec<Id> = n.children.iter().map(|k| egraph.find(*k)).collect();
                kids.sort();
                kids.dedup();
                for k in kids {
                    *readers.entry(k).or_default() += 1;
                }
            }
        }
        let mut classes: Vec<Id> = used
            .iter()
            .copied()
            .filter(|c| {
                best.get(c).is_some_and(|(_, n)| {
                    n.children.iter().any(|k| {
                        let k = egraph.find(*k);
                        readers.get(&k) == Some(&1)
                            && best.get(&k).is_some_and(|(_, kn)| !kn.children.is_empty())
                    })
                })
            })
            .collect();
        classes.sort();
        for c in classes {
            if !used.contains(&c) {
                continue;
            }
            let Some((keep_total, keep)) = best.get(&c).cloned() else {
                continue;
            };
            for n in &egraph[c].nodes {
                if *n == keep
                    || n.children
                        .iter()
                        .any(|k| !best.contains_key(&egraph.find(*k)))
                {
                    continue;
                }
                if tries >= SWAP_TRIES {
                    return;
                }
                tries += 1;
                best.insert(c, (keep_total, n.clone()));
                match dag_cost(egraph, best, roots, cost) {
                    Some((t, u)) if t < total * (1.0 - 1e-9) => {
                        (total, used) = (t, u);
                        improved = true;
                        break;
                    }
                    _ => {
                        best.insert(c, (keep_total, keep.clone()));
                    }
                }
            }
        }
        if !improved {
            return;
        }
    }
}

/// The cost of the program `best` chooses for `roots`, each class counted
/// once, and the classes it computes; `None` if the choice is cyclic or
/// misses a class.
fn dag_cost(
    egraph: &Graph,
    best: &Choice,
    roots: &[Id],
    cost: &mut dyn FnMut(&Node) -> f64,
) -> Option<(f64, IdSet)> {
    // 1: on the current path, 2: done.
    let mut state: HashMap<Id, u8, FxBuild> = HashMap::default();
    let mut total = 0.0;
    for &root in roots {
        let mut stack = vec![(egraph.find(root), false)];
        while let Some((c, expanded)) = stack.pop() {
            if expanded {
                state.insert(c, 2);
                total += cost(&best.get(&c)?.1);
                continue;
            }
            match state.get(&c) {
                Some(2) => continue,
                Some(_) => return None,
                None => {}
            }
            state.insert(c, 1);
            stack.push((c, true));
            for k in best.get(&c)?.1.children() {
                let k = egraph.find(*k);
                match state.get(&k) {
                    Some(2) => {}
                    Some(_) => return None,
                    None => stack.push((k, false)),
                }
            }
        }
    }
    Some((total, state.into_keys().collect()))
}

/// A term extracted from an e-graph.
pub struct Extracted {
    /// The nodes, operands before users, common subterms shared.
    pub expr: RecExpr<Node>,
    /// Each node's e-class type.
    pub types: Vec<Option<Type>>,
    /// Each node's e-class.
    pub classes: Vec<Id>,
    /// The index in `expr` of each root.
    pub at: Vec<Id>,
}

/// Extract the best term (by [`best_nodes`]' choice) of each class in `roots`
/// into one [`RecExpr`] that shares common subterms.
pub fn extract_all(egraph: &Graph, best: &Choice, roots: &[Id]) -> Extracted {
    let mut expr = RecExpr::default();
    let mut types = Vec::new();
    let mut classes = Vec::new();
    let mut memo: HashMap<Id, Id, FxBuild> = HashMap::default();
    // Iterative post-order over classes, so deep graphs cannot overflow the stack.
    let mut at = Vec::with_capacity(roots.len());
    for &root in roots {
        let mut stack = vec![(egraph.find(root), false)];
        while let Some((c, expanded)) = stack.pop() {
            if memo.contains_key(&c) {
                continue;
            }
            let node = &best[&c].1;
            if !expanded {
                stack.push((c, true));
                for k in node.children() {
                    let k = egraph.find(*k);
                    if !memo.contains_key(&k) {
                        stack.push((k, false));
                    }
                }
                continue;
            }
            let n = node.clone().map_children(|k| memo[&egraph.find(k)]);
            let idx = expr.add(n);
            types.push(egraph[c].data);
            classes.push(c);
            memo.insert(c, idx);
        }
        at.push(memo[&egraph.find(root)]);
    }
    Extracted {
        expr,
        types,
        classes,
        at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::DialectRegistry;
    use crate::types::TypeKind;

    /// Every node keeps the type of its first operand (enough for elementwise
    /// test ops), except `t.pair`, which has no inferable type.
    fn same_as_first(_: &Uniquer, op: &str, _: Option<Attr>, kids: &[Type]) -> Option<Type> {
        if op == "t.pair" {
            return None;
        }
        kids.first().copied()
    }

    fn graph() -> (Graph, Id, Id) {
        let ctx = Context::new(Arc::new(DialectRegistry::new()));
        let u = ctx.uniquer().clone();
        let f32t = u.ty(TypeKind::Float(crate::float::FloatKind::F32));
        let i32t = u.int_type(32);
        let mut g = Graph::new(Types {
            uniquer: u.clone(),
            infer: same_as_first,
            conflicts: 0,
        });
        let leaf = |g: &mut Graph, k: i128, t: Type| {
            let a = u.attr(AttrKind::Integer { value: k, ty: i32t });
            g.add(Node {
                op: Symbol::from(INPUT),
                attrs: Some(a),
                children: SmallVec::new(),
                ty: Some(t),
            })
        };
        let x = leaf(&mut g, 0, f32t);
        let y = leaf(&mut g, 1, i32t);
        (g, x, y)
    }

    #[test]
    fn rules_parse_from_text_and_rewrite() {
        let rules = parse_rules(
            "# double negation\nneg-neg: (t.neg (t.neg ?x)) => ?x\nadd-comm: (t.add ?a ?b) <=> (t.add ?b ?a)\n",
        )
        .unwrap();
        assert_eq!(rules.len(), 3);
        let (mut g, x, _) = graph();
        let n1 = g.add(Node::from_op_str("t.neg", &[x]));
        let n2 = g.add(Node::from_op_str("t.neg", &[n1]));
        let runner = runner(g).run(&rules);
        assert_eq!(runner.egraph.find(n2), runner.egraph.find(x));
        assert!(parse_rules("bad line").unwrap_err().contains("line 1"));
        assert!(parse_rules("r: (t.a ?x)").unwrap_err().contains("'=>'"));
    }

    #[test]
    fn deep_patterns_are_refused_in_linear_time() {
        let deep = |n: usize| format!("{}?x{}", "(t.neg ".repeat(n), ")".repeat(n));
        let start = std::time::Instant::now();
        for text in [
            format!("# deep\n\nr: {} => ?x\n", deep(100_000)),
            format!("r: (t.neg ?x) => {}\n", deep(100_000)),
            format!("r: {} <=> ?x\n", deep(100_000)),
            format!("r: ?a = {}, ?b = (t.neg ?x) => ?x\n", deep(100_000)),
        ] {
            let e = parse_rules(&text).expect_err("too deep");
            assert!(e.contains("r: pattern nests deeper than 256 levels"), "{e}");
            assert!(e.starts_with("line "), "{e}");
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        // At the limit, on a test thread's stack.
        let rules = parse_rules(&format!("r: {} => {}\n", deep(255), deep(255))).unwrap();
        assert_eq!(rules.len(), 1);
    }

    #[test]
    fn wide_patterns_and_long_files_read_in_linear_time() {
        let start = std::time::Instant::now();
        let wide = |n: usize| {
            format!(
                "r: (t.f{}) => ?x0\n",
                (0..n).map(|i| format!(" ?x{i}")).collect::<String>()
            )
        };
        assert_eq!(parse_rules(&wide(1_000)).unwrap().len(), 1);
        let e = parse_rules(&wide(100_000)).expect_err("too wide");
        assert!(e.contains("more than 1024 ops and variables"), "{e}");
        let parts = (0..100_000)
            .map(|i| format!("?a{i} = (t.neg ?x{i})"))
            .collect::<Vec<_>>()
            .join(", ");
        let e = parse_rules(&format!("r: {parts} => ?x0")).expect_err("too many parts");
        assert!(e.contains("more than 1024 ops and variables"), "{e}");
        let many = "r: (t.neg (t.neg ?x)) => ?x\n".repeat(10_000);
        assert_eq!(parse_rules(&many).unwrap().len(), 10_000);
        assert!(
            start.elapsed() < std::time::Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn rules_naming_unknown_ops_are_refused_at_load_time() {
        let known = |op: &str| op.starts_with("graph.") && op != "graph.frobnicate";
        let text = "# rules\nok: (graph.neg (graph.neg ?x)) => ?x\nfold-foo: (graph.frobnicate ?x) => ?x\n";
        let e = parse_rules_with(text, &Natives::default(), &known).expect_err("unknown op");
        assert_eq!(e, "line 3: rule 'fold-foo': unknown op 'graph.frobnicate'");
        for (text, op) in [
            ("r: (graph.neg ?x) => (t.frob ?x)", "t.frob"),
            ("r: (graph.neg ?x) <=> (t.neg ?x)", "t.neg"),
            ("r: ?a = (graph.neg ?x), ?b = (t.pair ?x) => ?x", "t.pair"),
        ] {
            let e = parse_rules_with(text, &Natives::default(), &known).expect_err("unknown op");
            assert_eq!(e, format!("line 1: rule 'r': unknown op '{op}'"));
        }
        // Inputs are always known; the pure entry point knows every op.
        parse_rules_with(
            "r: (graph.neg aic.input) => aic.input",
            &Natives::default(),
            &known,
        )
        .unwrap();
        assert_eq!(parse_rules(text).unwrap().len(), 2);
    }

    #[test]
    fn typed_rules_do_not_change_types() {
        // `(t.cast ?x) => ?x` would merge an i32 class into an f32 one.
        let rules = parse_rules("drop-cast: (t.cast ?x) => ?x").unwrap();
        let (mut g, x, y) = graph();
        let c = g.add(Node::from_op_str("t.cast", &[y]));
        let f32t = g[x].data;
        g[c].data = f32t;
        let runner = runner(g).run(&rules);
        assert_ne!(runner.egraph.find(c), runner.egraph.find(y));
        assert_eq!(runner.egraph.analysis.conflicts, 0);
    }

    #[test]
    fn repeated_variables_match_typed_nodes() {
        // Nodes from the IR carry a type that patterns leave open; a pattern
        // naming ?x twice must still match them.
        let rules = parse_rules("silu: (t.mul ?x (t.sig ?x)) => (t.silu ?x)").unwrap();
        let (mut g, x, _) = graph();
        let t = g[x].data;
        let typed = |op: &str, kids: &[Id]| Node {
            ty: t,
            ..Node::from_op_str(op, kids)
        };
        let s = g.add(typed("t.sig", &[x]));
        let m = g.add(typed("t.mul", &[x, s]));
        let runner = runner(g).run(&rules);
        let silu = runner.egraph.lookup(Node::from_op_str("t.silu", &[x]));
        assert_eq!(
            silu.map(|c| runner.egraph.find(c)),
            Some(runner.egraph.find(m))
        );
    }

    /// `first(?x)`: the class is input 0.
    fn is_first(g: &Graph, args: &[Arg]) -> bool {
        matches!(args, [Arg::Class(c)] if g[*c].nodes.iter().any(|n| n.op.as_str() == INPUT
            && n.attrs.is_some_and(|a| matches!(g.analysis.uniquer.attr_kind(a), AttrKind::Integer { value: 0, .. }))))
    }

    /// `@swap`: `(t.pair a b)` is `(t.pair b a)`.
    fn swap(_: &mut Graph, _: Id, b: &Bound) -> Vec<Node> {
        vec![Node::from_op_str("t.pair", &[b["?b"], b["?a"]])]
    }

    const NATIVES: Natives<'static> = Natives {
        preds: &[("first", is_first)],
        builders: &[Native {
            name: "swap",
            vars: &["?a", "?b"],
            propose: swap,
        }],
    };

    #[test]
    fn guards_and_natives() {
        let rules = parse_rules_with(
            "drop: (t.neg ?x) => ?x if first(?x)\nswap: (t.pair ?a ?b) => @swap",
            &NATIVES,
            &|_| true,
        )
        .unwrap();
        let (mut g, x, y) = graph();
        let nx = g.add(Node::from_op_str("t.neg", &[x]));
        let ny = g.add(Node::from_op_str("t.neg", &[y]));
        let p = g.add(Node::from_op_str("t.pair", &[x, y]));
        let r = runner(g).run(&rules);
        let e = &r.egraph;
        assert_eq!(e.find(nx), e.find(x), "guard holds for input 0");
        assert_ne!(e.find(ny), e.find(y), "guard fails for input 1");
        let q = e.lookup(Node::from_op_str("t.pair", &[y, x]));
        assert_eq!(q.map(|c| e.find(c)), Some(e.find(p)));
    }

    #[test]
    fn rule_text_errors_name_the_problem() {
        let err = |t: &str| parse_rules_with(t, &NATIVES, &|_| true).unwrap_err();
        assert!(err("r: (t.a ?x) => ?x if nope(?x)").contains("unknown predicate 'nope'"));
        assert!(err("r: (t.a ?x) => @nope").contains("unknown native '@nope'"));
        assert!(err("r: (t.a ?x) => ?x if first(?y)").contains("?y is not bound"));
        assert!(err("r: (t.a ?x) => @swap").contains("?a is not bound"));
        assert!(err("r: (t.a ?x) => ?x if first(?x, zz)").contains("bad argument 'zz'"));
        assert!(err("\n\nr: (t.a ?x) => ?x if first").contains("line 3"));
    }

    #[test]
    fn shared_values_are_paid_once() {
        // `a` is costly and used twice: by `c`, and by `b`, which also has a
        // fused alternative that recomputes `a` inside it. Priced as trees,
        // the fused `b` looks cheaper; counting `a` once, reading it is.
        let (mut g, x, _) = graph();
        let a = g.add(Node::from_op_str("t.costly", &[x]));
        let b = g.add(Node::from_op_str("t.use", &[a]));
        let fused = g.add(Node::from_op_str("t.fused", &[x]));
        g.union(b, fused);
        let c = g.add(Node::from_op_str("t.other", &[a]));
        g.rebuild();
        let mut cost = |n: &Node| match n.op.as_str() {
            "t.costly" => 10.0,
            "t.fused" => 10.5,
            INPUT => 0.0,
            _ => 1.0,
        };
        let (b, c) = (g.find(b), g.find(c));
        let tree = best_nodes(&g, &mut cost);
        assert_eq!(tree[&b].1.op.as_str(), "t.fused");
        let shared = best_nodes_shared(&g, &mut cost, &[b, c], 4);
        assert_eq!(shared[&b].1.op.as_str(), "t.use");
        let total = |best: &Choice, cost: &mut dyn FnMut(&Node) -> f64| {
            dag_cost(&g, best, &[b, c], cost).unwrap().0
        };
        assert_eq!(total(&tree, &mut cost), 21.5);
        assert_eq!(total(&shared, &mut cost), 12.0);
    }

    #[test]
    fn swaps_drop_a_value_only_the_current_choice_reads() {
        // `s` is `t.cheap(m)` (3 on top of `m`, 10) or `t.fused(x)` (10.01),
        // and `r` reads it. Started where the program computes `m` and
        // `t.cheap`, repricing with `m` already paid keeps `t.cheap` (3
        // against 10.01); taking `t.fused` drops `m`, 14 -> 11.01. `m`'s
        // other node reads `s`: choosing it would close a cycle.
        let (mut g, x, _) = graph();
        let m = g.add(Node::from_op_str("t.costly", &[x]));
        let s = g.add(Node::from_op_str("t.cheap", &[m]));
        let fused = g.add(Node::from_op_str("t.fused", &[x]));
        g.union(s, fused);
        let back = g.add(Node::from_op_str("t.back", &[s]));
        g.union(m, back);
        let r = g.add(Node::from_op_str("t.use", &[s]));
        g.rebuild();
        let mut cost = |n: &Node| match n.op.as_str() {
            "t.costly" => 10.0,
            "t.cheap" => 3.0,
            "t.fused" => 10.01,
            "t.back" => 0.5,
            INPUT => 0.0,
            _ => 1.0,
        };
        let (x, m, s, r) = (g.find(x), g.find(m), g.find(s), g.find(r));
        let node = |op: &str, kids: &[Id]| Node::from_op_str(op, kids);
        let mut best: Choice = Choice::default();
        best.insert(x, (0.0, g[x].nodes[0].clone()));
        best.insert(m, (10.0, node("t.costly", &[x])));
        best.insert(s, (13.0, node("t.cheap", &[m])));
        best.insert(r, (14.0, node("t.use", &[s])));
        let (total, used) = dag_cost(&g, &best, &[r], &mut cost).unwrap();
        assert_eq!(total, 14.0);
        // The rounds alone stay: with `m` paid, `t.cheap` is the cheaper node of `s`.
        let paid = best_nodes_paid(&g, &mut cost, &used);
        assert_eq!(paid[&s].1.op.as_str(), "t.cheap");
        swap_nodes(&g, &mut cost, &[r], &mut best, total, used);
        assert_eq!(best[&s].1.op.as_str(), "t.fused");
        let (after, used) = dag_cost(&g, &best, &[r], &mut cost).unwrap();
        assert!((after - 11.01).abs() < 1e-9, "{after}");
        assert!(
            !used.contains(&m),
            "nothing reads the costly value any more"
        );
    }

    #[test]
    fn multi_patterns_match_siblings() {
        // `?a` and `?b` must share ?x: the two uses of x pair up (in both
        // orders), the use of y pairs with nothing.
        let rules =
            parse_rules("pair: ?a = (t.use ?x ?p), ?b = (t.use ?x ?q) => (t.pair ?a ?b)").unwrap();
        let (mut g, x, y) = graph();
        let p = g.add(Node::from_op_str("t.p", &[]));
        let q = g.add(Node::from_op_str("t.q", &[]));
        let a = g.add(Node::from_op_str("t.use", &[x, p]));
        let b = g.add(Node::from_op_str("t.use", &[x, q]));
        let c = g.add(Node::from_op_str("t.use", &[y, p]));
        let r = runner(g).with_iter_limit(1).run(&rules);
        let e = &r.egraph;
        let has = |l: Id, r: Id| e.lookup(Node::from_op_str("t.pair", &[l, r])).is_some();
        assert!(has(a, b) && has(b, a));
        assert!(!has(a, c) && !has(c, a) && !has(b, c));
        assert!(parse_rules("bad: ?a = (t.x, ?b => ?a").is_err());
    }

    #[test]
    fn random_rule_text_never_panics() {
        // Rule text is user input (`rule-files`): any line either reads or
        // is an error.
        let tokens = [
            "r:", "(", ")", "t.a", "t.b", "?x", "?y", "=>", "<=>", " if ", "first(", ",", "@swap",
            "@nope", "?a =", "0.5", "-inf", "#", "\n", " ", "=",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let (mut ok, mut err) = (0, 0);
        for _ in 0..3000 {
            let mut line = String::new();
            for _ in 0..(seed % 12 + 1) {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                line.push_str(tokens[(seed >> 33) as usize % tokens.len()]);
            }
            match parse_rules_with(&line, &NATIVES, &|_| true) {
                Ok(_) => ok += 1,
                Err(_) => err += 1,
            }
        }
        assert!(ok > 0 && err > 0, "{ok} read, {err} rejected");
    }

    impl Node {
        fn from_op_str(op: &str, kids: &[Id]) -> Node {
            Node {
                op: Symbol::from(op),
                attrs: None,
                children: kids.iter().copied().collect(),
                ty: None,
            }
        }
    }
}

#[cfg(test)]
mod report_words {
    use super::stop_reason_words;
    use egg::StopReason;

    #[test]
    fn stop_reasons_read_as_words() {
        assert_eq!(
            stop_reason_words(Some(&StopReason::Saturated), 9),
            "saturated"
        );
        // egg's node count overshoots the limit; the words name the limit.
        assert_eq!(
            stop_reason_words(Some(&StopReason::NodeLimit(12)), 9),
            "node limit (9 e-nodes)"
        );
        assert_eq!(
            stop_reason_words(Some(&StopReason::IterationLimit(30)), 9),
            "iteration limit (30)"
        );
        assert_eq!(
            stop_reason_words(Some(&StopReason::TimeLimit(1.0)), 9),
            "time limit (safety net; result may differ between runs)"
        );
    }
}
