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
//! - [`parse_rules`] reads rule sets in egg's pattern syntax over op names, one
//!   per line (`name: lhs => rhs`, or `<=>` for both directions), so adding a
//!   rule is one line of text.
//!
//! Patterns match op names; a pattern node matches any attributes. Rules whose
//! meaning depends on attribute values use conditions written in Rust.

use crate::attributes::{Attr, AttrKind};
use crate::ir::{Block, Context, InsertPoint, Op, OpState, Uniquer, Value};
use crate::types::Type;
use egg::{Applier, DidMerge, EGraph, Id, Language, PatternAst, RecExpr, Rewrite, Symbol};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// The op name of the leaves that stand for values from outside the e-graph.
pub const INPUT: &str = "aic.input";

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

/// A rewrite `lhs => rhs` that does not apply where it would change a type.
pub fn typed_rewrite(name: &str, lhs: &str, rhs: &str) -> Result<Rewrite<Node, Types>, String> {
    let l: egg::Pattern<Node> = lhs.parse().map_err(|e| format!("{name}: {e:?}"))?;
    let r: egg::Pattern<Node> = rhs.parse().map_err(|e| format!("{name}: {e:?}"))?;
    Rewrite::new(name, l, Typed { rhs: r }).map_err(|e| format!("{name}: {e}"))
}

/// The new nodes a Rust rule proposes for the matched class, given the class
/// and the bindings of its pattern's variables (in the pattern's order).
pub type ProposeFn = fn(&Graph, Id, &[Id]) -> Vec<Node>;

/// An applier written in Rust, for rules that read or compute attributes: it
/// adds the nodes `propose` returns to the matched class, each only if it has
/// the class's type (or carries none).
pub struct RustApplier {
    vars: Vec<egg::Var>,
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
        let bound: Vec<Id> = self.vars.iter().map(|v| subst[*v]).collect();
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
        self.vars.clone()
    }
}

/// A rule whose left side is a pattern (`(graph.add ?a ?b)`) and whose right
/// side is Rust code proposing nodes from the bound classes.
pub fn rust_rule(
    name: &str,
    lhs: &str,
    propose: ProposeFn,
) -> Result<Rewrite<Node, Types>, String> {
    let l: egg::Pattern<Node> = lhs.parse().map_err(|e| format!("{name}: {e:?}"))?;
    let vars = l.vars();
    Rewrite::new(name, l, RustApplier { vars, propose }).map_err(|e| format!("{name}: {e}"))
}

/// A property of a node (`None` if it has none of that name).
pub fn prop(u: &Uniquer, node: &Node, name: &str) -> Option<Attr> {
    let d = node.attrs?;
    u.dict_entries(d)
        .iter()
        .find(|(k, _)| u.str(*k) == name)
        .map(|(_, v)| *v)
}

/// Read a rule set: one rule per line, `name: lhs => rhs` (or `<=>` for both
/// directions, the reverse named `name-rev`); `#` starts a comment. Errors name
/// the line.
pub fn parse_rules(text: &str) -> Result<Vec<Rewrite<Node, Types>>, String> {
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
            out.push(typed_rewrite(name, l.trim(), r.trim()).map_err(at)?);
            out.push(typed_rewrite(&format!("{name}-rev"), r.trim(), l.trim()).map_err(at)?);
        } else if let Some((l, r)) = body.split_once("=>") {
            out.push(typed_rewrite(name, l.trim(), r.trim()).map_err(at)?);
        } else {
            return Err(at("expected '=>' or '<=>'".into()));
        }
    }
    Ok(out)
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

/// The cheapest node of every class and its total cost (its own `cost` plus
/// its operands' totals), by a worklist that revisits a class only when one of
/// its operands got cheaper: linear in the graph for acyclic choices, where a
/// pass-until-stable extraction is quadratic in its depth. `cost` must be
/// positive; on a tie the first node in class order wins.
pub fn best_nodes(egraph: &Graph, cost: &mut dyn FnMut(&Node) -> f64) -> HashMap<Id, (f64, Node)> {
    let mut best: HashMap<Id, (f64, Node)> = HashMap::new();
    let mut classes: Vec<Id> = egraph.classes().map(|c| c.id).collect();
    classes.sort();
    let mut queue: std::collections::VecDeque<Id> = classes.iter().copied().collect();
    let mut queued: std::collections::HashSet<Id> = classes.into_iter().collect();
    while let Some(c) = queue.pop_front() {
        queued.remove(&c);
        let class = &egraph[c];
        let mut pick: Option<(f64, &Node)> = None;
        for n in &class.nodes {
            let kids: Option<f64> = n
                .children
                .iter()
                .map(|k| best.get(&egraph.find(*k)).map(|b| b.0))
                .sum();
            let Some(kids) = kids else { continue };
            let total = cost(n) + kids;
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
    best
}

/// Extract the best term (by [`best_nodes`]' choice) of each class in `roots`
/// into one [`RecExpr`] that shares common subterms, with each node's e-class
/// type; returns the index of each root in it.
pub fn extract_all(
    egraph: &Graph,
    best: &HashMap<Id, (f64, Node)>,
    roots: &[Id],
) -> (RecExpr<Node>, Vec<Option<Type>>, Vec<Id>) {
    let mut expr = RecExpr::default();
    let mut types = Vec::new();
    let mut memo: HashMap<Id, Id> = HashMap::new();
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
            memo.insert(c, idx);
        }
        at.push(memo[&egraph.find(root)]);
    }
    (expr, types, at)
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
