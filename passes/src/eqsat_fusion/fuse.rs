//! Fusion in the e-graph. A fused kernel is one e-node, `fusion.group`, in the
//! e-class of the value it computes: its children are the kernel's external
//! inputs and its attribute is the fused body (see [`Body`]). Fusion grows by
//! merging: a consumer node and one producer node of an operand class become a
//! larger fused node, wherever the pair is legal ([`fusible`]). Extraction then
//! weighs every fused alternative against the unfused ops with the target's
//! kernel-time model, so the fusions kept are the ones the model prefers.

use aic::attributes::{Attr, AttrKind};
use aic::eqsat::{Graph, INPUT, Node};
use aic::ir::Uniquer;
use aic::types::Type;
use aic_dialects::fusion::{self, FusionKind};
use aic_dialects::graph::{self, Class};
use egg::{Id, Symbol};
use smallvec::SmallVec;
use std::collections::HashMap;

/// The op name of fused nodes.
pub const GROUP: &str = fusion::GROUP.name;

/// One op of a fused body: name, properties, operands (`< 0`: external input
/// `-1 - k`; `>= 0`: an earlier op of the body) and result type.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyOp {
    /// The op name.
    pub op: Symbol,
    /// Its properties.
    pub props: Option<Attr>,
    /// Its operands.
    pub args: Vec<i64>,
    /// Its result type.
    pub ty: Type,
}

/// A fused body: ops in order, the last one's result being the kernel's.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// The ops.
    pub ops: Vec<BodyOp>,
}

/// What an op contributes to a kernel, for the legality of fusing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A matrix product or convolution (the anchor of a GEMM kernel).
    Gemm,
    /// A reduction along some dimensions (reduce, softmax, normalisations).
    Reduction,
    /// An elementwise or data-movement op.
    Elementwise,
    /// Not fusible.
    Opaque,
}

/// The role of the op `op`, from its graph class ([`graph::semantics`]).
pub fn role(op: &str) -> Role {
    match graph::semantics(op).map(|s| s.class) {
        Some(Class::Contraction) => Role::Gemm,
        Some(Class::Reduction) => Role::Reduction,
        Some(Class::Elementwise | Class::View | Class::Partition) => Role::Elementwise,
        Some(Class::Constant | Class::Irregular) | None => Role::Opaque,
    }
}

/// The most compute ops a fused kernel with a GEMM may have (index-only
/// ops, which become address arithmetic, do not count): its epilogue runs
/// on accumulators that already fill the registers.
pub const MAX_BODY: usize = 12;

/// The most compute ops a fused kernel without a GEMM may have (an
/// elementwise DAG, a reduction with its prologue and epilogue): such a
/// kernel streams its tile through registers, a few per op, and every op
/// left out is a kernel of its own that writes and reads HBM again.
pub const MAX_STREAM_BODY: usize = 64;

/// The most ops of any kind a fused kernel without a GEMM may have.
pub const MAX_STREAM_OPS: usize = 160;

/// The rows of a GEMM's output one thread block owns, for the on-chip
/// capacity of fused kernels ([`Body::on_chip_bytes`]).
pub const TILE_M: i64 = crate::legality::ROW_BLOCK;

/// The rows of f16 B tiles, N wide, a GEMM chain's block stages besides its
/// rows of the first GEMM's result: the first GEMM's K steps (32 deep, 3
/// stages) and the second GEMM's column block (64), fusion-to-tile's tiles.
pub const CHAIN_STAGED_ROWS: i64 = 32 * 3 + 64;

/// The most ops of any kind a fused kernel may have.
pub const MAX_OPS: usize = 40;

/// Whether an op only moves or re-indexes data (free inside a kernel): a
/// graph op of class [`Class::View`].
pub fn is_index_only(op: &str) -> bool {
    graph::semantics(op).is_some_and(|s| s.class == Class::View)
}

impl Body {
    /// The body of a single op node whose operands are external inputs.
    pub fn of_op(node: &Node, ty: Type) -> Body {
        Body {
            ops: vec![BodyOp {
                op: node.op,
                props: node.attrs,
                args: (0..node.children.len() as i64).map(|k| -1 - k).collect(),
                ty,
            }],
        }
    }

    /// How many ops of each role the body has.
    pub fn roles(&self) -> (usize, usize) {
        let g = self
            .ops
            .iter()
            .filter(|o| role(o.op.as_str()) == Role::Gemm)
            .count();
        let r = self
            .ops
            .iter()
            .filter(|o| role(o.op.as_str()) == Role::Reduction)
            .count();
        (g, r)
    }

    /// The on-chip bytes the kernel must hold: where a GEMM's result feeds a
    /// reduction (GEMM + layernorm, QK^T + softmax) or a second GEMM later in
    /// the body, a thread block keeps whole rows of it, [`TILE_M`] rows of N
    /// fp32 accumulators (a GEMM chain also its staged B tiles,
    /// [`CHAIN_STAGED_ROWS`]). Other kernels stream fixed-size tiles and fit any
    /// target. (Any later such op counts, a conservative reading of "feeds".)
    /// Rows too wide for a block's registers ([`crate::legality::whole_rows_fit`])
    /// fit no target: infinite.
    pub fn on_chip_bytes(&self, u: &Uniquer) -> f64 {
        let mut worst: f64 = 0.0;
        for (i, o) in self.ops.iter().enumerate() {
            if role(o.op.as_str()) != Role::Gemm {
                continue;
            }
            let holds_rows = self.ops[i + 1..]
                .iter()
                .any(|l| matches!(role(l.op.as_str()), Role::Gemm | Role::Reduction));
            let width = |t: Type| {
                u.type_kind(t)
                    .shape()
                    .and_then(|s| s.last().copied())
                    .unwrap_or(1)
                    .max(1)
            };
            // A softmax between two GEMMs is computed online (FlashAttention):
            // a block holds rows of the second GEMM's result, not the first's.
            let later = &self.ops[i + 1..];
            let next_gemm = later.iter().find(|l| role(l.op.as_str()) == Role::Gemm);
            let online = later.iter().any(|l| l.op.as_str() == graph::SOFTMAX.name);
            let n = match next_gemm {
                Some(g) if online => width(g.ty),
                _ => width(o.ty),
            };
            if holds_rows && !crate::legality::whole_rows_fit(n) {
                return f64::INFINITY;
            }
            // A GEMM chain (no online softmax) also stages the rows' B tiles
            // of both GEMMs, N wide, as the GEMM chain generator does.
            let staged = match next_gemm {
                Some(_) if !online => n * CHAIN_STAGED_ROWS * 2,
                _ => 0,
            };
            if holds_rows {
                worst = worst.max((TILE_M * n * 4 + staged) as f64);
            }
        }
        worst
    }

    /// This body with its input `j` replaced by its own op `p`, which
    /// computes the same value (extraction can fuse a value's producer into
    /// one of its readers and leave another reader on the outer copy: a
    /// GEMM would run twice). Inputs above `j` move down by one; ops are
    /// reordered so each follows its operands. `None` where `p` itself
    /// reads input `j`.
    pub fn reuse_inner(&self, j: usize, p: usize) -> Option<Body> {
        let target = |a: i64| -> i64 {
            match usize::try_from(-1 - a) {
                Ok(i) if a < 0 && i == j => p as i64,
                Ok(i) if a < 0 && i > j => a + 1,
                _ => a,
            }
        };
        let args: Vec<Vec<i64>> = self
            .ops
            .iter()
            .map(|o| o.args.iter().map(|a| target(*a)).collect())
            .collect();
        // Post-order from the root: operands first. `state` 1 on the
        // stack, 2 placed; a cycle (p reading input j) gives up.
        let n = self.ops.len();
        let mut state = vec![0u8; n];
        let mut order: Vec<usize> = Vec::with_capacity(n);
        let mut stack: Vec<(usize, usize)> = vec![(n.checked_sub(1)?, 0)];
        state[n - 1] = 1;
        while let Some((o, k)) = stack.pop() {
            match args[o].get(k).and_then(|a| usize::try_from(*a).ok()) {
                Some(d) => {
                    stack.push((o, k + 1));
                    match state[d] {
                        0 => {
                            state[d] = 1;
                            stack.push((d, 0));
                        }
                        1 => return None,
                        _ => {}
                    }
                }
                None if k < args[o].len() => stack.push((o, k + 1)),
                None => {
                    state[o] = 2;
                    order.push(o);
                }
            }
        }
        let mut new_index = vec![0i64; n];
        for (i, o) in order.iter().enumerate() {
            new_index[*o] = i as i64;
        }
        let ops = order
            .iter()
            .map(|o| BodyOp {
                args: args[*o]
                    .iter()
                    .map(|a| if *a >= 0 { new_index[*a as usize] } else { *a })
                    .collect(),
                ..self.ops[*o].clone()
            })
            .collect();
        Some(Body { ops })
    }

    /// Whether the body is the first half of attention: a GEMM, then a
    /// softmax of its result, then at most elementwise ops (the cast of an
    /// f32 softmax back to the operands' f16), no second GEMM yet.
    pub fn softmax_after_gemm(&self) -> bool {
        let Some(sm) = self
            .ops
            .iter()
            .rposition(|o| o.op.as_str() == graph::SOFTMAX.name)
        else {
            return false;
        };
        self.ops[..sm]
            .iter()
            .any(|o| role(o.op.as_str()) == Role::Gemm)
            && self.ops[sm + 1..]
                .iter()
                .all(|o| role(o.op.as_str()) == Role::Elementwise)
    }

    /// Whether some GEMM of the body reads (directly or not) another's
    /// result: back-to-back GEMMs rather than side-by-side ones.
    fn chained_gemms(&self) -> bool {
        let mut after_gemm = vec![false; self.ops.len()];
        for (i, o) in self.ops.iter().enumerate() {
            let fed = o
                .args
                .iter()
                .any(|a| usize::try_from(*a).is_ok_and(|j| after_gemm[j]));
            if fed && role(o.op.as_str()) == Role::Gemm {
                return true;
            }
            after_gemm[i] = fed || role(o.op.as_str()) == Role::Gemm;
        }
        false
    }

    /// The kind of fusion the body is.
    pub fn kind(&self) -> FusionKind {
        match self.roles() {
            (2.., _) if !self.chained_gemms() => FusionKind::Horizontal,
            (2.., _) => FusionKind::B2bGemm,
            (1, _) => FusionKind::Vertical,
            (0, 1..) => FusionKind::Reduction,
            _ if self.ops.iter().all(|o| is_index_only(o.op.as_str())) => FusionKind::Memory,
            _ => FusionKind::Elementwise,
        }
    }

    /// The body as an interned attribute (the fused node's properties).
    pub fn to_attr(&self, u: &Uniquer) -> Attr {
        let i64t = u.int_type(64);
        let entries: Vec<Attr> = self
            .ops
            .iter()
            .map(|o| {
                let parts = [
                    u.string_attr(o.op.as_str()),
                    o.props.unwrap_or_else(|| u.attr(AttrKind::Unit)),
                    u.attr(AttrKind::DenseArray {
                        elem: i64t,
                        values: o.args.iter().map(|a| *a as u64).collect(),
                    }),
                    u.attr(AttrKind::Type(o.ty)),
                ];
                u.attr(AttrKind::Array(parts.into()))
            })
            .collect();
        u.attr(AttrKind::Array(entries.into()))
    }

    /// Read a body back from [`Body::to_attr`]'s attribute.
    pub fn from_attr(u: &Uniquer, a: Attr) -> Option<Body> {
        let AttrKind::Array(entries) = u.attr_kind(a) else {
            return None;
        };
        let ops = entries
            .iter()
            .map(|e| {
                let AttrKind::Array(p) = u.attr_kind(*e) else {
                    return None;
                };
                let [name, props, args, ty] = p[..] else {
                    return None;
                };
                let op = Symbol::from(u.attr_str(name)?);
                let props = (!matches!(u.attr_kind(props), AttrKind::Unit)).then_some(props);
                let AttrKind::DenseArray { values, .. } = u.attr_kind(args) else {
                    return None;
                };
                let AttrKind::Type(ty) = u.attr_kind(ty) else {
                    return None;
                };
                Some(BodyOp {
                    op,
                    props,
                    args: values.iter().map(|v| *v as i64).collect(),
                    ty: *ty,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Body { ops })
    }
}

/// The body and result type of a node: fused nodes carry theirs, an op node
/// is a body of one op.
pub fn body_of(
    egraph: &Graph,
    class: Id,
    node: &Node,
    cache: &super::cost::Cache,
) -> Option<std::rc::Rc<Body>> {
    let u = &egraph.analysis.uniquer;
    if node.op.as_str() == GROUP {
        return cache.body(u, node.attrs?);
    }
    if role(node.op.as_str()) == Role::Opaque || node.op.as_str() == INPUT {
        return None;
    }
    Some(std::rc::Rc::new(Body::of_op(node, egraph[class].data?)))
}

/// How many ops of a body are computation (index-only ops are addressing).
fn compute_ops(b: &Body) -> usize {
    b.ops
        .iter()
        .filter(|o| !is_index_only(o.op.as_str()))
        .count()
}

/// Whether a body stays within the size limits of a kernel: [`MAX_BODY`]
/// compute ops and [`MAX_OPS`] ops with a GEMM, [`MAX_STREAM_BODY`] and
/// [`MAX_STREAM_OPS`] without.
pub fn within_limits(b: &Body) -> bool {
    let (max_compute, max_ops) = if b.roles().0 == 0 {
        (MAX_STREAM_BODY, MAX_STREAM_OPS)
    } else {
        (MAX_BODY, MAX_OPS)
    };
    compute_ops(b) <= max_compute && b.ops.len() <= max_ops
}

/// Whether a producer body may be fused into a consumer body: at most one GEMM
/// and one reduction per kernel, a reduction never feeds a GEMM's operands
/// inside a kernel (except the attention pattern, a GEMM after a softmax), and
/// the body stays small.
pub fn fusible(producer: &Body, consumer: &Body) -> bool {
    let (pg, pr) = producer.roles();
    let (cg, cr) = consumer.roles();
    let compute = compute_ops;
    let (max_compute, max_ops) = if pg + cg == 0 {
        (MAX_STREAM_BODY, MAX_STREAM_OPS)
    } else {
        (MAX_BODY, MAX_OPS)
    };
    if compute(producer) + compute(consumer) > max_compute
        || producer.ops.len() + consumer.ops.len() > max_ops
    {
        return false;
    }
    let sparse = |b: &Body| {
        b.ops
            .iter()
            .filter(|o| o.op.as_str() == graph::SPARSE_MATMUL.name)
            .count()
    };
    if !crate::legality::sparse_gemms_fit(pg + cg, sparse(producer) + sparse(consumer)) {
        return false;
    }
    let root = role(consumer.ops.last().map_or("", |o| o.op.as_str()));
    // An elementwise producer is a prologue of any kernel: it runs where
    // the consumer loads its operand.
    if pg == 0 && pr == 0 {
        return true;
    }
    match (pg + cg, pr + cr) {
        // GEMM epilogues, prologues and elementwise chains.
        (0 | 1, 0) => true,
        // A reduction with elementwise prologue and epilogue.
        (0, 1) => true,
        // Attention: GEMM, (scale/mask), softmax, GEMM.
        (2, 1) => pg == 1 && root == Role::Gemm,
        (1, 1) => pg == 1 && cr == 1 && root != Role::Gemm,
        _ => false,
    }
}

/// Who reads each class in the program extraction would build now (the
/// best node of every class reachable from `roots`): the classes whose best
/// node has it as an operand, and the class itself where the run's result
/// is read beyond the run (no consumer's body holds its own input).
pub fn live_readers(
    egraph: &Graph,
    choice: &aic::eqsat::Choice,
    roots: &[Id],
) -> HashMap<Id, Vec<Id>> {
    let mut out: HashMap<Id, Vec<Id>> = HashMap::new();
    let mut seen: std::collections::HashSet<Id> = Default::default();
    let mut stack: Vec<Id> = Vec::new();
    for r in roots {
        let r = egraph.find(*r);
        out.entry(r).or_default().push(r);
        stack.push(r);
    }
    while let Some(c) = stack.pop() {
        if !seen.insert(c) {
            continue;
        }
        let Some((_, n)) = choice.get(&c) else {
            continue;
        };
        for k in &n.children {
            let k = egraph.find(*k);
            let e = out.entry(k).or_default();
            if !e.contains(&c) {
                e.push(c);
            }
            stack.push(k);
        }
    }
    out
}

/// Whether fusing `producer` (of class `kid`) into `consumer` (of class
/// `c`, operand classes `kids`) would compute a GEMM or reduction twice:
/// the producer's value has other readers than the consumer's own ops, each
/// of which would need the value too. Elementwise producers may be
/// recomputed (they are cheaper than a round trip through memory), as XLA
/// duplicates them.
pub fn duplicates_work(
    egraph: &Graph,
    (producer, kid): (&Body, Id),
    (consumer, c, kids): (&Body, Id, &[Id]),
    readers: &HashMap<Id, Vec<Id>>,
) -> bool {
    let (g, r) = producer.roles();
    if g + r == 0 {
        return false;
    }
    let Some(rs) = readers.get(&kid) else {
        return false;
    };
    if rs.len() <= 1 {
        return false;
    }
    let inside = body_classes(egraph, consumer, kids);
    rs.iter().any(|x| *x != c && !inside.contains(&Some(*x)))
}

/// The e-class of each op of `body` whose inputs are the classes `kids`
/// (`None` where the op is not a node of the e-graph).
pub fn body_classes(egraph: &Graph, body: &Body, kids: &[Id]) -> Vec<Option<Id>> {
    let mut out: Vec<Option<Id>> = Vec::with_capacity(body.ops.len());
    for o in &body.ops {
        let args: Option<Vec<Id>> = o
            .args
            .iter()
            .map(|a| match usize::try_from(*a) {
                Ok(j) => out[j],
                Err(_) => kids.get((-1 - *a) as usize).copied(),
            })
            .collect();
        let class = args.and_then(|args| {
            let lookup = |ty| {
                egraph.lookup(Node {
                    op: o.op,
                    attrs: o.props,
                    children: args.iter().copied().collect(),
                    ty,
                })
            };
            lookup(Some(o.ty)).or_else(|| lookup(None))
        });
        out.push(class);
    }
    out
}

/// The fused node of `consumer` (with operand classes `cons_kids`) with
/// `producer` (operand classes `prod_kids`) substituted for external input `k`.
pub fn merge(
    u: &Uniquer,
    consumer: &Body,
    cons_kids: &[Id],
    k: usize,
    producer: &Body,
    prod_kids: &[Id],
) -> (Node, Body) {
    // External inputs of the merged kernel: the consumer's (but `k`), then the
    // producer's, each class once.
    let mut kids: Vec<Id> = Vec::new();
    let index = |c: Id, kids: &mut Vec<Id>| -> i64 {
        let i = kids.iter().position(|x| *x == c).unwrap_or_else(|| {
            kids.push(c);
            kids.len() - 1
        });
        -1 - i as i64
    };
    let mut ops: Vec<BodyOp> = Vec::new();
    for o in &producer.ops {
        let args = o
            .args
            .iter()
            .map(|a| {
                if *a < 0 {
                    index(prod_kids[(-1 - a) as usize], &mut kids)
                } else {
                    *a
                }
            })
            .collect();
        ops.push(BodyOp { args, ..o.clone() });
    }
    let root = ops.len() as i64 - 1;
    let shift = ops.len() as i64;
    for o in &consumer.ops {
        let args = o
            .args
            .iter()
            .map(|a| {
                if *a >= 0 {
                    a + shift
                } else if (-1 - a) as usize == k {
                    root
                } else {
                    index(cons_kids[(-1 - a) as usize], &mut kids)
                }
            })
            .collect();
        ops.push(BodyOp { args, ..o.clone() });
    }
    let (body, kids) = canonical(Body { ops }, kids);
    let node = Node {
        op: Symbol::from(GROUP),
        attrs: Some(body.to_attr(u)),
        children: kids.into_iter().collect::<SmallVec<[Id; 3]>>(),
        ty: body.ops.last().map(|o| o.ty),
    };
    (node, body)
}

/// The same kernel in one canonical form, so that fusions reached in
/// different orders are one e-node: identical ops computed once, external
/// inputs ordered by e-class, ops in a dependency order that follows it.
fn canonical(body: Body, kids: Vec<Id>) -> (Body, Vec<Id>) {
    // External inputs sorted by class.
    let mut order: Vec<usize> = (0..kids.len()).collect();
    order.sort_by_key(|i| kids[*i]);
    let mut new_index = vec![0i64; kids.len()];
    for (n, i) in order.iter().enumerate() {
        new_index[*i] = -1 - n as i64;
    }
    let kids: Vec<Id> = order.iter().map(|i| kids[*i]).collect();
    // Rebuild the ops, merging identical ones (same op, properties, operands).
    let mut ops: Vec<BodyOp> = Vec::new();
    let mut remap: Vec<i64> = Vec::with_capacity(body.ops.len());
    for o in body.ops {
        let args: Vec<i64> = o
            .args
            .iter()
            .map(|a| {
                if *a < 0 {
                    new_index[(-1 - a) as usize]
                } else {
                    remap[*a as usize]
                }
            })
            .collect();
        let op = BodyOp { args, ..o };
        let at = ops.iter().position(|x| *x == op).unwrap_or_else(|| {
            ops.push(op);
            ops.len() - 1
        });
        remap.push(at as i64);
    }
    // Only what the root needs, in order.
    let root = *remap.last().expect("a body has ops") as usize;
    let mut live = vec![false; ops.len()];
    live[root] = true;
    for i in (0..ops.len()).rev() {
        if live[i] {
            for a in &ops[i].args {
                if *a >= 0 {
                    live[*a as usize] = true;
                }
            }
        }
    }
    let mut pos = vec![0i64; ops.len()];
    let mut out = Vec::new();
    for (i, o) in ops.into_iter().enumerate() {
        if live[i] {
            pos[i] = out.len() as i64;
            let args = o
                .args
                .iter()
                .map(|a| if *a < 0 { *a } else { pos[*a as usize] })
                .collect();
            out.push(BodyOp { args, ..o });
        }
    }
    (Body { ops: out }, kids)
}

/// The op nodes of class `c`, one per op, properties and set of operands:
/// the commuted forms the algebraic rules add (`add(b, a)` beside `add(a,
/// b)`) fuse to the same kernels, so growth takes each once.
fn plain_nodes(egraph: &Graph, c: Id) -> Vec<Node> {
    let mut seen: std::collections::HashSet<(Symbol, Option<Attr>, SmallVec<[Id; 3]>)> =
        Default::default();
    egraph[c]
        .nodes
        .iter()
        .filter(|n| n.op.as_str() != GROUP)
        .filter(|n| {
            let mut kids = n.children.clone();
            kids.sort();
            seen.insert((n.op, n.attrs, kids))
        })
        .cloned()
        .collect()
}

/// Record a fused node's body in the cache, so pricing it need not decode
/// the attribute just encoded.
fn remember(cache: &super::cost::Cache, node: &Node, body: Body) {
    if let Some(a) = node.attrs {
        cache
            .bodies
            .borrow_mut()
            .entry(a)
            .or_insert_with(|| std::rc::Rc::new(body));
    }
}

/// How many views in a row fusion growth sees through in one step.
const VIEW_DEPTH: usize = 4;

/// The most sibling kernels one horizontal kernel joins (see
/// [`super::horizontal`]).
pub const MAX_SIBLINGS: usize = 4;

/// Grow fused alternatives for up to `rounds` rounds (or until `node_limit`):
/// in each round, the best node of every class (by `best`, the current
/// extraction) and its op nodes try to take the best node of each operand
/// class; every legal merge is added to the class. Choosing from the best
/// nodes keeps growth linear in the graph rather than in the ways to combine
/// ops. A merge whose kernel would hold more than `on_chip` bytes on chip is
/// not made. Returns how many fused nodes were added, and whether growth
/// stopped at the node limit.
pub fn grow(
    egraph: &mut Graph,
    rounds: usize,
    node_limit: usize,
    on_chip: f64,
    cost: &mut dyn FnMut(&Graph, &Node) -> f64,
    cache: &super::cost::Cache,
    roots: &[Id],
) -> (usize, bool) {
    let u = egraph.analysis.uniquer.clone();
    let mut added = 0;
    // Merges already made: the same pair in a later round gives the same node.
    let mut tried: std::collections::HashSet<(Node, usize, Node)> = Default::default();
    // Classes that gained nodes or changed their best node last round: only
    // merges next to them can be new (`None`: the first round, all).
    let mut dirty: Option<std::collections::HashSet<Id>> = None;
    let mut last: std::collections::HashMap<Id, Node> = Default::default();
    for _ in 0..rounds {
        let choice = {
            let g: &Graph = egraph;
            aic::eqsat::best_nodes(g, &mut |n| cost(g, n))
        };
        if let Some(d) = dirty.as_mut() {
            for (c, (_, n)) in &choice {
                if last.get(c) != Some(n) {
                    d.insert(*c);
                }
            }
        }
        let readers = live_readers(egraph, &choice, roots);
        let mut new: Vec<(Id, Node)> = Vec::new();
        let mut classes: Vec<Id> = egraph.classes().map(|c| c.id).collect();
        classes.sort();
        for c in classes {
            if let Some(d) = &dirty {
                let near = d.contains(&c)
                    || egraph[c]
                        .nodes
                        .iter()
                        .any(|n| n.children.iter().any(|k| d.contains(&egraph.find(*k))));
                if !near {
                    continue;
                }
            }
            let mut consumers: Vec<Node> = plain_nodes(egraph, c);
            if let Some((_, b)) = choice.get(&c)
                && b.op.as_str() == GROUP
            {
                consumers.push(b.clone());
            }
            for n in &consumers {
                let Some(cb) = body_of(egraph, c, n, cache) else {
                    continue;
                };
                for (k, kid) in n.children.iter().enumerate() {
                    let kid = egraph.find(*kid);
                    if kid == c {
                        continue;
                    }
                    // The producer's best node, and its plain op nodes (a
                    // smaller body may fit where the best one does not).
                    let mut producers: Vec<Node> =
                        choice.get(&kid).map(|b| b.1.clone()).into_iter().collect();
                    producers.extend(plain_nodes(egraph, kid));
                    producers.extend(
                        egraph[kid]
                            .nodes
                            .iter()
                            .filter(|n| n.op.as_str() == GROUP)
                            .filter(|n| {
                                body_of(egraph, kid, n, cache)
                                    .is_some_and(|b| b.on_chip_bytes(&u) > on_chip)
                            })
                            .cloned(),
                    );
                    for p in &producers {
                        if !tried.insert((n.clone(), k, p.clone())) {
                            continue;
                        }
                        let Some(pb) = body_of(egraph, kid, p, cache) else {
                            continue;
                        };
                        let (node, body) = if fusible(&pb, &cb) {
                            if duplicates_work(egraph, (&pb, kid), (&cb, c, &n.children), &readers)
                            {
                                continue;
                            }
                            merge(&u, &cb, &n.children, k, &pb, &p.children)
                        } else {
                            // A producer whose GEMM (or reduction) the consumer
                            // already computes on another path (GeLU's two
                            // reads of one GEMM) merges into one computation
                            // of it.
                            let (node, body) = merge(&u, &cb, &n.children, k, &pb, &p.children);
                            if body.roles() != cb.roles() || !within_limits(&body) {
                                continue;
                            }
                            (node, body)
                        };
                        if node.children.contains(&c) {
                            continue;
                        }
                        // A GEMM whose rows a softmax reduces holds whole rows,
                        // which may not fit on chip; it stays (at an infinite
                        // cost) as the step to attention, where a second GEMM
                        // makes the softmax online.
                        if body.on_chip_bytes(&u) > on_chip && !body.softmax_after_gemm() {
                            continue;
                        }
                        // A view (reshape, transpose, ...) is free between
                        // kernels, so it is never the better choice alone:
                        // see through it to what it views, in this round.
                        let mut through = Vec::new();
                        if p.op.as_str() != GROUP && is_index_only(p.op.as_str()) {
                            through.push((node.clone(), body.clone(), p.children[0], VIEW_DEPTH));
                        }
                        remember(cache, &node, body);
                        while let Some((vn, vb, src, depth)) = through.pop() {
                            let src = egraph.find(src);
                            let Some(k2) = vn.children.iter().position(|x| egraph.find(*x) == src)
                            else {
                                continue;
                            };
                            let mut qs: Vec<Node> =
                                choice.get(&src).map(|b| b.1.clone()).into_iter().collect();
                            qs.extend(plain_nodes(egraph, src));
                            for q in &qs {
                                let Some(qb) = body_of(egraph, src, q, cache) else {
                                    continue;
                                };
                                if !fusible(&qb, &vb)
                                    || duplicates_work(
                                        egraph,
                                        (&qb, src),
                                        (&vb, c, &vn.children),
                                        &readers,
                                    )
                                {
                                    continue;
                                }
                                let (m, mb) = merge(&u, &vb, &vn.children, k2, &qb, &q.children);
                                if m.children.contains(&c) || mb.on_chip_bytes(&u) > on_chip {
                                    continue;
                                }
                                if depth > 1
                                    && q.op.as_str() != GROUP
                                    && is_index_only(q.op.as_str())
                                {
                                    through.push((m.clone(), mb.clone(), q.children[0], depth - 1));
                                }
                                remember(cache, &m, mb);
                                new.push((c, m));
                            }
                        }
                        new.push((c, node));
                    }
                }
            }
        }
        let mut grew = false;
        // Counted here: egg counts by walking every class.
        let mut nodes = egraph.total_number_of_nodes();
        let mut gained = Vec::new();
        for (c, node) in new {
            if nodes >= node_limit {
                egraph.rebuild();
                return (added, true);
            }
            if egraph.lookup(node.clone()).is_some() {
                continue;
            }
            let id = egraph.add(node);
            egraph.union(c, id);
            gained.push(c);
            nodes += 1;
            added += 1;
            grew = true;
        }
        egraph.rebuild();
        if !grew {
            break;
        }
        dirty = Some(gained.iter().map(|c| egraph.find(*c)).collect());
        last = choice
            .into_iter()
            .map(|(c, (_, n))| (egraph.find(c), n))
            .collect();
    }
    (added, false)
}
