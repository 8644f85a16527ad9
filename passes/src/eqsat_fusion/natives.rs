//! What the rule sets' text may name besides patterns: the predicates of `if`
//! clauses and the native right-hand sides (`@name`) for rewrites that read
//! or compute attributes: composing broadcasts, recognising a mean, a softmax
//! or a normalisation from JAX's decomposition, folding transposes into a
//! matmul's flags, sinking broadcasts and folding scalar constants.
//!
//! A native proposes nodes for the matched class; the bridge adds only those
//! that keep the class's type. Each reads the e-graph through the small
//! queries at the top of this file (the nodes of an op in a class, the
//! sources a class broadcasts along some axes, the reductions in a class), so
//! a new idiom is a short walk over those.

use aic::attributes::{Attr, AttrKind};
use aic::constraints::i64_values;
use aic::dialect::OpSpec;
use aic::eqsat::{self, Arg, Bound, Graph, Native, Natives, Node};
use aic::interp::{Data, Elem, Tensor, attr_of_tensor, tensor_of_attr};
use aic::ir::Uniquer;
use aic::types::{Type, TypeKind};
use aic_dialects::graph::{self, ReduceKind};
use egg::{Id, Symbol};

/// The predicates and natives the pass's rule sets are read with.
pub const NATIVES: Natives<'static> = Natives {
    preds: &[
        ("const", is_const),
        ("integer", is_integer),
        ("float", is_float),
    ],
    builders: &[
        native("compose_broadcasts", compose_broadcasts),
        native("splat_broadcast", splat_broadcast),
        native("bias_add", bias_add),
        native("reduce_mean", reduce_mean),
        native("softmax", softmax),
        native("layernorm", layernorm),
        native("rmsnorm", rmsnorm),
        native("groupnorm", groupnorm),
        native("transposes", transposes),
        native("reshapes", reshapes),
        native("fold_transpose", fold_transpose),
        native("unfold_transpose", unfold_transpose),
        native("sink_broadcast", sink_broadcast),
        native("fold_constants", fold_constants),
        Native {
            name: "horizontal_gemm",
            vars: &["?a", "?b", "?x"],
            propose: horizontal_gemm,
        },
    ],
};

/// A native that reads the matched class (its pattern's variables only
/// decide where it is tried).
const fn native(name: &'static str, propose: eqsat::ProposeFn) -> Native {
    Native {
        name,
        vars: &[],
        propose,
    }
}

// ---- queries -------------------------------------------------------------

fn uniq(g: &Graph) -> &Uniquer {
    &g.analysis.uniquer
}

/// The nodes of op `op` in class `c`.
fn ops<'a>(g: &'a Graph, c: Id, op: &'static OpSpec) -> impl Iterator<Item = &'a Node> + 'a {
    g[c].nodes.iter().filter(move |n| n.op.as_str() == op.name)
}

/// The operand pairs of the `op` nodes in class `c` (both orders are there
/// for commutative ops once the commutativity rules ran).
fn pairs(g: &Graph, c: Id, op: &'static OpSpec) -> Vec<(Id, Id)> {
    ops(g, c, op)
        .filter(|n| n.children.len() == 2)
        .map(|n| (g.find(n.children[0]), g.find(n.children[1])))
        .collect()
}

/// The static shape of class `c`'s type.
fn shape(g: &Graph, c: Id) -> Option<Vec<i64>> {
    uniq(g).type_kind(g[c].data?).shape().map(<[i64]>::to_vec)
}

/// An integer-list property of a node.
fn ints(g: &Graph, n: &Node, name: &str) -> Option<Vec<i64>> {
    let u = uniq(g);
    i64_values(u, eqsat::prop(u, n, name)?)
}

/// The single value of class `c` if it is a scalar or splat constant, or a
/// broadcast of one.
fn scalar(g: &Graph, c: Id) -> Option<f64> {
    scalar_at(g, c, 4)
}

fn scalar_at(g: &Graph, c: Id, depth: usize) -> Option<f64> {
    let u = uniq(g);
    // Only the one element of a splat is decoded: a splat of a real-size
    // shape (a mask's fill of 8x16x1024x1024) is millions of elements.
    let one = g[c].data.and_then(|t| match u.type_kind(t) {
        TypeKind::Tensor { elem, .. } => Some(u.ty(TypeKind::Tensor {
            shape: Default::default(),
            elem: *elem,
            encoding: None,
        })),
        _ => None,
    });
    for n in ops(g, c, &graph::CONSTANT) {
        let t = one.and_then(|one| {
            let bytes = graph::fold::splat_bytes(u, eqsat::prop(u, n, "value")?)?;
            tensor_of_attr(u, graph::fold::splat(u, one, &bytes), one)
        });
        if let Some(Tensor {
            data: Data::Float(v),
            ..
        }) = t
            && !v.is_empty()
        {
            return Some(v.get(0));
        }
    }
    if depth == 0 {
        return None;
    }
    ops(g, c, &graph::BROADCAST).find_map(|n| scalar_at(g, n.children[0], depth - 1))
}

/// The sources class `b` broadcasts along `axes` of its shape: `broadcast(s)`
/// with `s` either the shape without those axes or with them set to 1.
fn spread(g: &Graph, b: Id, axes: &[usize]) -> Vec<Id> {
    let Some(out) = shape(g, b) else {
        return Vec::new();
    };
    let kept: Vec<i64> = (0..out.len() as i64)
        .filter(|i| !axes.contains(&(*i as usize)))
        .collect();
    let dropped: Vec<i64> = kept.iter().map(|i| out[*i as usize]).collect();
    let ones: Vec<i64> = (0..out.len())
        .map(|i| if axes.contains(&i) { 1 } else { out[i] })
        .collect();
    let all: Vec<i64> = (0..out.len() as i64).collect();
    let mut found = Vec::new();
    for n in ops(g, b, &graph::BROADCAST) {
        let (s, d) = (g.find(n.children[0]), ints(g, n, "dims"));
        let sh = shape(g, s);
        let ok = (d.as_ref() == Some(&kept) && sh.as_ref() == Some(&dropped))
            || (d.as_ref() == Some(&all) && sh.as_ref() == Some(&ones));
        if ok && !found.contains(&s) {
            found.push(s);
        }
    }
    found
}

/// The sources of class `b` that are vectors over `axes` broadcast onto them
/// (how a scale or shift of the trailing dimensions enters).
fn along(g: &Graph, b: Id, axes: &[usize]) -> Vec<Id> {
    let Some(out) = shape(g, b) else {
        return Vec::new();
    };
    let want: Vec<i64> = axes.iter().map(|a| *a as i64).collect();
    let sizes: Vec<i64> = axes.iter().map(|a| out[*a]).collect();
    ops(g, b, &graph::BROADCAST)
        .filter(|n| ints(g, n, "dims").as_ref() == Some(&want))
        .map(|n| g.find(n.children[0]))
        .filter(|s| shape(g, *s).as_ref() == Some(&sizes))
        .collect()
}

/// The reduction of a node: its kind, sorted non-negative axes and whether it
/// keeps the reduced dimensions.
fn reduction(g: &Graph, n: &Node) -> Option<(ReduceKind, Vec<usize>, bool)> {
    if n.op.as_str() != graph::REDUCE.name {
        return None;
    }
    let u = uniq(g);
    let kind = ReduceKind::of(u, eqsat::prop(u, n, "kind")?)?;
    let rank = shape(g, n.children[0])?.len() as i64;
    let mut axes: Vec<usize> = ints(g, n, "axes")?
        .into_iter()
        .map(|a| usize::try_from(if a < 0 { a + rank } else { a }).ok())
        .collect::<Option<_>>()?;
    axes.sort_unstable();
    Some((kind, axes, eqsat::prop(u, n, "keep_dims").is_some()))
}

/// Whether class `c` holds a `kind` reduction of `x` over `axes`.
fn reduces(g: &Graph, c: Id, kind: ReduceKind, x: Id, axes: &[usize]) -> bool {
    g[c].nodes.iter().any(|n| {
        reduction(g, n).is_some_and(|(k, a, _)| k == kind && a == axes)
            && g.find(n.children[0]) == g.find(x)
    })
}

/// The inputs `x` of which class `c` holds a `kind` reduction over `axes`.
fn reduced(g: &Graph, c: Id, kind: ReduceKind, axes: &[usize]) -> Vec<Id> {
    g[c].nodes
        .iter()
        .filter(|n| reduction(g, n).is_some_and(|(k, a, _)| k == kind && a == axes))
        .map(|n| g.find(n.children[0]))
        .collect()
}

// ---- building ------------------------------------------------------------

/// A node of `op` with properties `props`, operands `children` and type `ty`.
fn node(
    g: &Graph,
    op: &OpSpec,
    props: Vec<(&str, Attr)>,
    children: &[Id],
    ty: Option<Type>,
) -> Node {
    let u = uniq(g);
    Node {
        op: Symbol::from(op.name),
        attrs: (!props.is_empty())
            .then(|| u.dict_attr(props.into_iter().map(|(k, v)| (u.ident(k), v)).collect())),
        children: children.iter().copied().collect(),
        ty,
    }
}

fn i64_attr(u: &Uniquer, v: i64) -> Attr {
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: u.int_type(64),
    })
}

fn f32_attr(u: &Uniquer, v: f64) -> Attr {
    u.attr(AttrKind::Float {
        bits: u128::from((v as f32).to_bits()),
        ty: u.ty(TypeKind::Float(aic::float::FloatKind::F32)),
    })
}

/// A node standing for class `x` itself: proposing it merges the matched
/// class with `x` (how a native says "this is `x`").
fn same_as(g: &Graph, x: Id) -> Node {
    g[x].nodes[0].clone()
}

// ---- predicates ------------------------------------------------------------

/// `const(?c, v)`: class `?c` is a scalar constant (or a broadcast of one)
/// equal to `v` up to float rounding (`-inf` and `inf` exactly): to `v`
/// rounded to the class's element type (GeLU's `0.7978845608` is
/// `0.797852` in f16).
fn is_const(g: &Graph, args: &[Arg]) -> bool {
    let [Arg::Class(c), Arg::Num(v)] = args else {
        return false;
    };
    let rounded = match g[*c].data.and_then(|t| Elem::of(uniq(g), t)) {
        Some(Elem::Float(k)) => match Data::from_f64s(k, [*v]) {
            Data::Float(f) => f.get(0),
            _ => *v,
        },
        _ => *v,
    };
    scalar(g, *c).is_some_and(|x| {
        if v.is_infinite() {
            x == *v
        } else {
            (x - v).abs() <= 1e-6 * v.abs().max(1.0) || x == rounded
        }
    })
}

/// `integer(?x)`: class `?x` holds integers (where reassociation is exact).
fn is_integer(g: &Graph, args: &[Arg]) -> bool {
    let [Arg::Class(c)] = args else {
        return false;
    };
    g[*c]
        .data
        .and_then(|t| Elem::of(uniq(g), t))
        .is_some_and(|e| matches!(e, Elem::Int { .. } | Elem::Index))
}

/// `float(?x)`: class `?x` holds floating-point values.
fn is_float(g: &Graph, args: &[Arg]) -> bool {
    let [Arg::Class(c)] = args else {
        return false;
    };
    g[*c]
        .data
        .and_then(|t| Elem::of(uniq(g), t))
        .is_some_and(|e| matches!(e, Elem::Float(_)))
}

// ---- raising ---------------------------------------------------------------

/// `broadcast(broadcast(x, inner), outer)` is `broadcast(x, outer ∘ inner)`.
fn compose_broadcasts(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let mut out = Vec::new();
    for n in ops(g, class, &graph::BROADCAST) {
        let Some(outer) = ints(g, n, "dims") else {
            continue;
        };
        for p in ops(g, n.children[0], &graph::BROADCAST) {
            let Some(inner) = ints(g, p, "dims") else {
                continue;
            };
            let composed: Option<Vec<i64>> = inner
                .iter()
                .map(|d| outer.get(usize::try_from(*d).ok()?).copied())
                .collect();
            if let Some(c) = composed {
                let dims = uniq(g).i64_array(&c);
                out.push(node(
                    g,
                    &graph::BROADCAST,
                    vec![("dims", dims)],
                    &[p.children[0]],
                    ty,
                ));
            }
        }
    }
    out
}

/// A splat constant of rank above 0 (what canonicalisation folds a
/// broadcast of a scalar constant to) is the broadcast of its rank-0
/// constant: the form the raising rules match, and the one a kernel reads
/// as one element.
fn splat_broadcast(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let Some(ty) = g[class].data else {
        return Vec::new();
    };
    let u = uniq(g);
    let elem = match u.type_kind(ty) {
        TypeKind::Tensor { shape, elem, .. } if !shape.is_empty() => *elem,
        _ => return Vec::new(),
    };
    let scalar_ty = u.ty(TypeKind::Tensor {
        shape: Default::default(),
        elem,
        encoding: None,
    });
    let dims = u.i64_array(&[]);
    let scalars: Vec<Node> = ops(g, class, &graph::CONSTANT)
        .filter_map(|n| eqsat::prop(u, n, "value"))
        .filter_map(|a| graph::fold::splat_bytes(u, a))
        .map(|bytes| graph::fold::splat(u, scalar_ty, &bytes))
        .map(|value| {
            node(
                g,
                &graph::CONSTANT,
                vec![("value", value)],
                &[],
                Some(scalar_ty),
            )
        })
        .collect();
    let mut out = Vec::new();
    for scalar in scalars {
        let c = g.add(scalar);
        out.push(node(
            g,
            &graph::BROADCAST,
            vec![("dims", dims)],
            &[c],
            Some(ty),
        ));
    }
    out
}

/// `add(a, broadcast(v, [r-1]))` with `v` a vector of the last dimension is
/// `bias_add(a, v)`.
fn bias_add(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let Some(r) = shape(g, class).map(|s| s.len()) else {
        return Vec::new();
    };
    if r == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (a, b) in pairs(g, class, &graph::ADD) {
        for v in along(g, b, &[r - 1]) {
            out.push(node(g, &graph::BIAS_ADD, vec![], &[a, v], ty));
        }
    }
    out
}

/// A `graph.reduce` of `kind` over `axes` (keeping them if `keep`).
fn reduce_node(
    g: &Graph,
    kind: ReduceKind,
    x: Id,
    axes: &[usize],
    keep: bool,
    ty: Option<Type>,
) -> Node {
    let u = uniq(g);
    let axes: Vec<i64> = axes.iter().map(|a| *a as i64).collect();
    let mut props = vec![("kind", kind.attr(u)), ("axes", u.i64_array(&axes))];
    if keep {
        props.push(("keep_dims", u.attr(AttrKind::Unit)));
    }
    node(g, &graph::REDUCE, props, &[x], ty)
}

/// `div(sum(x, A), N)` with `N` the number of elements summed is `mean(x, A)`;
/// also with the sum's dimensions kept by a broadcast (JAX's `keepdims`).
fn reduce_mean(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let mut out = Vec::new();
    let count = |x: Id, axes: &[usize]| -> Option<f64> {
        let s = shape(g, x)?;
        Some(axes.iter().map(|a| s[*a] as f64).product())
    };
    for (s, n) in pairs(g, class, &graph::DIV) {
        let Some(n) = scalar(g, n) else {
            continue;
        };
        for r in &g[s].nodes {
            if let Some((ReduceKind::Sum, axes, keep)) = reduction(g, r)
                && count(r.children[0], &axes) == Some(n)
            {
                out.push(reduce_node(
                    g,
                    ReduceKind::Mean,
                    r.children[0],
                    &axes,
                    keep,
                    ty,
                ));
            }
        }
        let Some(rank) = shape(g, s).map(|s| s.len()) else {
            continue;
        };
        // The axes a sum kept by a broadcast was over: one axis, all of
        // them, or those the broadcasts in `s` put back (a group norm's
        // `(1, 2, 4)`).
        let mut candidates: Vec<Vec<usize>> = (0..rank)
            .map(|a| vec![a])
            .chain([(0..rank).collect()])
            .collect();
        for b in ops(g, s, &graph::BROADCAST) {
            if let Some(dims) = ints(g, b, "dims") {
                let axes: Vec<usize> = (0..rank).filter(|a| !dims.contains(&(*a as i64))).collect();
                if !axes.is_empty() && !candidates.contains(&axes) {
                    candidates.push(axes);
                }
            }
        }
        let kept = shape(g, class);
        for axes in candidates {
            // A mean with its axes kept has extent 1 there: a sum broadcast
            // back to the full shape (mean = sum / n spread over the rows)
            // is not that mean but its broadcast, which this rule does not
            // build.
            if !kept
                .as_ref()
                .is_some_and(|k| axes.iter().all(|a| k.get(*a) == Some(&1)))
            {
                continue;
            }
            for m in spread(g, s, &axes) {
                for x in reduced(g, m, ReduceKind::Sum, &axes) {
                    if shape(g, x).map(|s| s.len()) == Some(rank) && count(x, &axes) == Some(n) {
                        out.push(reduce_node(g, ReduceKind::Mean, x, &axes, true, ty));
                    }
                }
            }
        }
    }
    out
}

/// `exp(x - max(x, a)) / sum(exp(..), a)`, the maximum and the sum
/// broadcast back along `a`, is `softmax(x, a)`.
fn softmax(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let Some(rank) = shape(g, class).map(|s| s.len()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (e, b) in pairs(g, class, &graph::DIV) {
        for a in 0..rank {
            let summed = spread(g, b, &[a])
                .into_iter()
                .any(|s| reduces(g, s, ReduceKind::Sum, e, &[a]));
            if !summed {
                continue;
            }
            for ex in ops(g, e, &graph::EXP) {
                for (x, mb) in pairs(g, ex.children[0], &graph::SUB) {
                    if spread(g, mb, &[a])
                        .into_iter()
                        .any(|m| reduces(g, m, ReduceKind::Max, x, &[a]))
                    {
                        let axis = i64_attr(uniq(g), a as i64);
                        out.push(node(g, &graph::SOFTMAX, vec![("axis", axis)], &[x], ty));
                    }
                }
            }
        }
    }
    out
}

/// The epsilons with which class `b` is `broadcast(root(mean(mul(x, x), A) +
/// eps))` along `A`, for the `x` that `is_x` accepts (`root` being
/// `graph.rsqrt` or `graph.sqrt`).
fn deviation(
    g: &Graph,
    b: Id,
    axes: &[usize],
    root: &'static OpSpec,
    is_x: impl Fn(Id) -> bool,
) -> Vec<f64> {
    let mut out = Vec::new();
    for rs in spread(g, b, axes) {
        for rq in ops(g, rs, root) {
            for (v, e) in pairs(g, rq.children[0], &graph::ADD) {
                let Some(eps) = scalar(g, e) else {
                    continue;
                };
                for sq in reduced(g, v, ReduceKind::Mean, axes) {
                    if pairs(g, sq, &graph::MUL)
                        .into_iter()
                        .any(|(p, q)| p == q && is_x(p))
                    {
                        out.push(eps);
                    }
                }
            }
        }
    }
    out
}

/// The `(x, eps)` for which class `n` is `x / sqrt(mean(x^2, A) + eps)`,
/// written `x * rsqrt(..)` (JAX) or `x / sqrt(..)` (PyTorch, Hugging Face).
fn normalised(g: &Graph, n: Id, axes: &[usize]) -> Vec<(Id, f64)> {
    let mut out = Vec::new();
    for (op, root) in [(&graph::MUL, &graph::RSQRT), (&graph::DIV, &graph::SQRT)] {
        for (x, b) in pairs(g, n, op) {
            out.extend(
                deviation(g, b, axes, root, |c| c == x)
                    .into_iter()
                    .map(|e| (x, e)),
            );
        }
    }
    out
}

/// The trailing axes of rank `rank` that a scale of `k` dimensions covers.
fn trailing(rank: usize, k: usize) -> Vec<usize> {
    (rank - k..rank).collect()
}

/// `(x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) * gamma + beta`, over
/// the trailing dimensions gamma and beta span, is `layernorm(x, gamma, beta)`.
fn layernorm(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let Some(rank) = shape(g, class).map(|s| s.len()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in 1..=rank {
        let axes = trailing(rank, k);
        for (p, bb) in pairs(g, class, &graph::ADD) {
            for beta in along(g, bb, &axes) {
                for (q, gb) in pairs(g, p, &graph::MUL) {
                    for gamma in along(g, gb, &axes) {
                        for (xc, eps) in normalised(g, q, &axes) {
                            for (x, mb) in pairs(g, xc, &graph::SUB) {
                                let centred = spread(g, mb, &axes)
                                    .into_iter()
                                    .any(|m| reduces(g, m, ReduceKind::Mean, x, &axes));
                                if centred {
                                    let props = vec![("epsilon", f32_attr(uniq(g), eps))];
                                    let kids = [x, gamma, beta];
                                    out.push(node(g, &graph::LAYERNORM, props, &kids, ty));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// `reshape((x5 - mean(x5)) / sqrt(mean((x5 - mean(x5))^2) + eps)) * gamma +
/// beta`, where `x5` is `x` (`[N, ..., C]`) reshaped to `[N, ..., G, C/G]`
/// and the means are over every dim but the batch and the group, with
/// `gamma` and `beta` vectors of the channels, is `groupnorm(x, gamma, beta)`
/// with `G` groups (how JAX and Flax write a channels-last group norm).
fn groupnorm(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let Some(full) = shape(g, class) else {
        return Vec::new();
    };
    let r = full.len();
    if r < 2 {
        return Vec::new();
    }
    let c = full[r - 1];
    let last = [r - 1];
    let mut out = Vec::new();
    for (p, bb) in pairs(g, class, &graph::ADD) {
        for beta in along(g, bb, &last) {
            for (q, gb) in pairs(g, p, &graph::MUL) {
                for gamma in along(g, gb, &last) {
                    let grouped: Vec<Id> = ops(g, q, &graph::RESHAPE)
                        .map(|n| g.find(n.children[0]))
                        .collect();
                    for y5 in grouped {
                        let Some(s5) = shape(g, y5) else { continue };
                        if s5.len() != r + 1
                            || s5[..r - 1] != full[..r - 1]
                            || s5[r - 1] * s5[r] != c
                        {
                            continue;
                        }
                        let groups = s5[r - 1];
                        let axes: Vec<usize> = (1..r - 1).chain([r]).collect();
                        for (xc, eps) in normalised(g, y5, &axes) {
                            for (x5, mb) in pairs(g, xc, &graph::SUB) {
                                let centred = spread(g, mb, &axes)
                                    .into_iter()
                                    .any(|m| reduces(g, m, ReduceKind::Mean, x5, &axes));
                                if !centred {
                                    continue;
                                }
                                let xs: Vec<Id> = ops(g, x5, &graph::RESHAPE)
                                    .map(|n| g.find(n.children[0]))
                                    .filter(|x| shape(g, *x).as_ref() == Some(&full))
                                    .collect();
                                for x in xs {
                                    let props = vec![
                                        ("groups", i64_attr(uniq(g), groups)),
                                        ("epsilon", f32_attr(uniq(g), eps)),
                                    ];
                                    out.push(node(
                                        g,
                                        &graph::GROUPNORM,
                                        props,
                                        &[x, gamma, beta],
                                        ty,
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// `x / sqrt(mean(x^2) + eps) * gamma` over the trailing dimensions gamma
/// spans is `rmsnorm(x, gamma)`.
fn rmsnorm(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let Some(rank) = shape(g, class).map(|s| s.len()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in 1..=rank {
        let axes = trailing(rank, k);
        for (q, gb) in pairs(g, class, &graph::MUL) {
            for gamma in along(g, gb, &axes) {
                for (x, eps) in normalised(g, q, &axes) {
                    let props = vec![("epsilon", f32_attr(uniq(g), eps))];
                    out.push(node(g, &graph::RMSNORM, props, &[x, gamma], ty));
                }
            }
        }
    }
    out
}

// ---- algebraic -------------------------------------------------------------

/// `transpose(transpose(x, p), q)` is `transpose(x, p∘q)`, or `x` itself when
/// that is the identity.
fn transposes(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let mut out = Vec::new();
    for n in ops(g, class, &graph::TRANSPOSE) {
        let Some(q) = ints(g, n, "perm") else {
            continue;
        };
        for p in ops(g, n.children[0], &graph::TRANSPOSE) {
            let Some(pp) = ints(g, p, "perm") else {
                continue;
            };
            let Some(c): Option<Vec<i64>> = q
                .iter()
                .map(|i| pp.get(usize::try_from(*i).ok()?).copied())
                .collect()
            else {
                continue;
            };
            let x = g.find(p.children[0]);
            if c.iter().enumerate().all(|(i, d)| *d == i as i64) {
                out.push(same_as(g, x));
            } else {
                let perm = uniq(g).i64_array(&c);
                out.push(node(g, &graph::TRANSPOSE, vec![("perm", perm)], &[x], ty));
            }
        }
    }
    out
}

/// `reshape(reshape(x))` is `reshape(x)`, or `x` itself when the shapes agree.
fn reshapes(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let mut out = Vec::new();
    for n in ops(g, class, &graph::RESHAPE) {
        for p in ops(g, n.children[0], &graph::RESHAPE) {
            let x = g.find(p.children[0]);
            if g[x].data == ty {
                out.push(same_as(g, x));
            } else {
                out.push(node(g, &graph::RESHAPE, vec![], &[x], ty));
            }
        }
    }
    out
}

/// The matmul flag for operand `i`.
const FLAGS: [&str; 2] = ["transpose_a", "transpose_b"];

/// Whether a transpose node swaps the last two dimensions and nothing else.
fn swaps_last_two(g: &Graph, n: &Node) -> bool {
    let Some(p) = ints(g, n, "perm") else {
        return false;
    };
    let r = p.len();
    r >= 2
        && p.iter().enumerate().all(|(i, d)| match i {
            _ if i == r - 2 => *d == r as i64 - 1,
            _ if i == r - 1 => *d == r as i64 - 2,
            _ => *d == i as i64,
        })
}

/// A matmul node with flag `i` toggled and operand `i` replaced by `x`.
fn retarget(g: &Graph, mm: &Node, i: usize, x: Id) -> Node {
    let u = uniq(g);
    let mut props: Vec<(&str, Attr)> = Vec::new();
    for f in FLAGS {
        let on = eqsat::prop(u, mm, f).is_some();
        if on != (f == FLAGS[i]) {
            props.push((f, u.attr(AttrKind::Unit)));
        }
    }
    let mut kids: Vec<Id> = mm.children.to_vec();
    kids[i] = x;
    node(g, &graph::MATMUL, props, &kids, mm.ty)
}

/// `matmul(transpose(a), b)` (the last two dimensions swapped) is `matmul(a,
/// b, transpose_a)`; likewise for `b`; a flag already set is cleared.
fn fold_transpose(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let mut out = Vec::new();
    for mm in ops(g, class, &graph::MATMUL) {
        for i in 0..2 {
            for t in ops(g, mm.children[i], &graph::TRANSPOSE) {
                if swaps_last_two(g, t) {
                    out.push(retarget(g, mm, i, t.children[0]));
                }
            }
        }
    }
    out
}

/// `matmul(a, b, transpose_a)` is `matmul(transpose(a), b)`; likewise for `b`.
fn unfold_transpose(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let mut todo = Vec::new();
    for mm in ops(g, class, &graph::MATMUL) {
        for (i, f) in FLAGS.iter().enumerate() {
            if eqsat::prop(uniq(g), mm, f).is_some() {
                todo.push((mm.clone(), i));
            }
        }
    }
    let mut out = Vec::new();
    for (mm, i) in todo {
        let Some(r) = shape(g, mm.children[i]).map(|s| s.len()) else {
            continue;
        };
        let mut perm: Vec<i64> = (0..r as i64).collect();
        perm.swap(r - 1, r - 2);
        let perm = uniq(g).i64_array(&perm);
        let t = node(
            g,
            &graph::TRANSPOSE,
            vec![("perm", perm)],
            &[mm.children[i]],
            None,
        );
        let t = g.add(t);
        if g[t].data.is_some() {
            out.push(retarget(g, &mm, i, t));
        }
    }
    out
}

/// An elementwise op of broadcasts of the same dimensions is the broadcast of
/// the op on the smaller operands (less work, and the op's constants meet).
fn sink_broadcast(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let ty = g[class].data;
    let mut todo = Vec::new();
    for n in &g[class].nodes {
        let kids: Vec<Vec<&Node>> = n
            .children
            .iter()
            .map(|c| ops(g, *c, &graph::BROADCAST).collect())
            .collect();
        match kids.as_slice() {
            [a] => todo.extend(a.iter().map(|b| (n.clone(), vec![b.children[0]], b.attrs))),
            [a, b] => {
                for x in a {
                    for y in b.iter().filter(|y| {
                        y.attrs == x.attrs && g[y.children[0]].data == g[x.children[0]].data
                    }) {
                        todo.push((n.clone(), vec![x.children[0], y.children[0]], x.attrs));
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (n, srcs, dims) in todo {
        let inner = g.add(Node {
            op: n.op,
            attrs: n.attrs,
            children: srcs.into_iter().collect(),
            ty: None,
        });
        if g[inner].data.is_some() {
            out.push(Node {
                op: Symbol::from(graph::BROADCAST.name),
                attrs: dims,
                children: [inner].into_iter().collect(),
                ty,
            });
        }
    }
    out
}

// ---- horizontal fusion -----------------------------------------------------

/// The most sibling GEMMs one horizontal GEMM joins.
const MAX_SIBLINGS: usize = 4;

/// The weights a weight class concatenates along `axis` (itself if it is
/// not a concatenation).
fn parts(g: &Graph, w: Id, axis: i64) -> Vec<Id> {
    let w = g.find(w);
    ops(g, w, &graph::CONCAT)
        .find(|n| eqsat::prop(uniq(g), n, "axis").and_then(|a| int_of(g, a)) == Some(axis))
        .map(|n| n.children.iter().map(|c| g.find(*c)).collect())
        .unwrap_or_else(|| vec![w])
}

fn int_of(g: &Graph, a: Attr) -> Option<i64> {
    match uniq(g).attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// Two GEMMs of one operand `x`, `a = matmul(x, w1)` and `b = matmul(x,
/// w2)` with the same flags, are one GEMM of `x` and the weights side by
/// side: `a` and `b` are slices of `matmul(x, concat(w1, w2))` along N (Q/K/V
/// projections become one GEMM). Weights join in class order and at most
/// [`MAX_SIBLINGS`] at a time, so the siblings of a layer give one
/// concatenation per subset, not one per order.
fn horizontal_gemm(g: &mut Graph, _: Id, b: &Bound) -> Vec<Node> {
    let (a, bb, x) = (g.find(b["?a"]), g.find(b["?b"]), g.find(b["?x"]));
    if a == bb {
        return Vec::new();
    }
    let pick = |c: Id| -> Vec<Node> {
        ops(g, c, &graph::MATMUL)
            .filter(|n| g.find(n.children[0]) == x)
            .cloned()
            .collect()
    };
    let mut todo = Vec::new();
    for n1 in pick(a) {
        for n2 in pick(bb).into_iter().filter(|n2| n2.attrs == n1.attrs) {
            let (w1, w2) = (n1.children[1], n2.children[1]);
            let (Some(s1), Some(s2)) = (shape(g, w1), shape(g, w2)) else {
                continue;
            };
            let r = s1.len();
            if r < 2 || s2.len() != r {
                continue;
            }
            let axis = if eqsat::prop(uniq(g), &n1, "transpose_b").is_some() {
                r - 2
            } else {
                r - 1
            };
            let same_elsewhere = (0..r).all(|d| d == axis || s1[d] == s2[d]);
            let (p1, p2) = (parts(g, w1, axis as i64), parts(g, w2, axis as i64));
            let ordered = p1.iter().max() < p2.iter().min();
            if same_elsewhere && ordered && p1.len() + p2.len() <= MAX_SIBLINGS {
                todo.push((n1.clone(), [p1, p2].concat(), axis));
            }
        }
    }
    let (Some(ta), Some(tb)) = (shape(g, a), shape(g, bb)) else {
        return Vec::new();
    };
    let (Some(&na), Some(&nb)) = (ta.last(), tb.last()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (mm, weights, axis) in todo {
        let u = uniq(g);
        let cat = node(
            g,
            &graph::CONCAT,
            vec![("axis", i64_attr(u, axis as i64))],
            &weights,
            None,
        );
        let w = g.add(cat);
        let y = g.add(Node {
            children: [x, w].into_iter().collect(),
            ty: None,
            ..mm
        });
        let Some(ty) = shape(g, y) else {
            continue;
        };
        let slice = |g: &Graph, from: i64, to: i64, t: Option<Type>| {
            let props = axis_slice(uniq(g), &ty, ty.len() - 1, from, to).to_vec();
            node(g, &graph::SLICE, props, &[y], t)
        };
        let second = slice(g, na, na + nb, g[bb].data);
        let second = g.add(second);
        if g[second].data == g[bb].data {
            g.union(bb, second);
        }
        out.push(slice(g, 0, na, g[a].data));
    }
    out
}

/// The properties of the `graph.slice` of a tensor of `shape` that keeps
/// `from..to` of dim `axis` and all of the others.
pub fn axis_slice(
    u: &Uniquer,
    shape: &[i64],
    axis: usize,
    from: i64,
    to: i64,
) -> [(&'static str, Attr); 3] {
    let mut start = vec![0; shape.len()];
    let mut limit = shape.to_vec();
    start[axis] = from;
    limit[axis] = to;
    [
        ("start", u.i64_array(&start)),
        ("limit", u.i64_array(&limit)),
        ("strides", u.i64_array(&vec![1; shape.len()])),
    ]
}

/// The binary ops `fold_constants` folds (by their interpreter's meaning,
/// [`graph::float_binary`]).
const FOLDED: [&OpSpec; 6] = [
    &graph::ADD,
    &graph::SUB,
    &graph::MUL,
    &graph::DIV,
    &graph::MAX,
    &graph::MIN,
];

/// The `f64` meaning of the binary op `op` if `fold_constants` folds it.
fn binary(op: &str) -> Option<fn(f64, f64) -> f64> {
    FOLDED
        .iter()
        .any(|s| s.name == op)
        .then(|| graph::float_binary(op))
        .flatten()
}

/// An op of scalar float constants is the constant it computes (rounded to
/// the element type, as the op would round it).
fn fold_constants(g: &mut Graph, class: Id, _: &Bound) -> Vec<Node> {
    let Some(ty) = g[class].data else {
        return Vec::new();
    };
    let u = uniq(g);
    if !shape(g, class).is_some_and(|s| s.is_empty())
        || !matches!(Elem::of(u, ty), Some(Elem::Float(_)))
    {
        return Vec::new();
    }
    let direct = |c: Id| scalar_at(g, c, 0);
    let mut out = Vec::new();
    for n in &g[class].nodes {
        let v = match (binary(n.op.as_str()), n.children.as_slice()) {
            (Some(f), [a, b]) => direct(*a).zip(direct(*b)).map(|(a, b)| f(a, b)),
            (None, [a]) if n.op.as_str() == graph::NEG.name => direct(*a).map(|a| -a),
            _ => None,
        };
        if let Some(v) = v {
            let k =
                aic::interp::Elem::of(u, ty).map_or(aic::float::FloatKind::F64, |e| e.float_kind());
            let t = Tensor::new(u, ty, Data::from_f64s(k, [v]));
            let value = attr_of_tensor(u, &t);
            out.push(node(
                g,
                &graph::CONSTANT,
                vec![("value", value)],
                &[],
                Some(ty),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eqsat_fusion::{ALGEBRAIC, FUSION, RAISING};
    use aic::op_def::OpHandle;
    use aic::syntax::{parse_module, with_parser_stack};
    use aic::{Context, SourceMap};
    use std::sync::Arc;

    /// The ops in the class of the function's returned value after
    /// saturating its body with the algebraic and raising rules.
    fn ops_of_result(text: &str) -> Vec<String> {
        ops_of_result_with(text, &[ALGEBRAIC, RAISING])
    }

    /// The same, with the rule sets `sets`.
    fn ops_of_result_with(text: &str, sets: &[&'static str]) -> Vec<String> {
        let sets = sets.to_vec();
        let text = text.to_string();
        with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let id = sm.add("t.mlir", text);
            let m = parse_module(&mut ctx, &sm, id).expect("parses");
            let mut block = None;
            ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
                if let Some(f) = aic_dialects::func::Func::of(&ctx, op) {
                    block = ctx.entry_block(f.body(&ctx));
                }
            });
            let b = block.expect("a function");
            let ret = ctx.block_ops(b).last().expect("return");
            let ret = aic_dialects::func::Return::of(&ctx, ret).expect("a return");
            let v = *ret.operands(&ctx).first().expect("a returned value");
            let fb = eqsat::from_block(&ctx, b, aic_dialects::graph::verify::infer_type);
            let root = fb.classes[&v];
            let rules: Vec<_> = sets
                .iter()
                .flat_map(|t| eqsat::parse_rules_with(t, &NATIVES, &|_| true).expect("rules parse"))
                .collect();
            let g = eqsat::runner(fb.egraph)
                .with_iter_limit(20)
                .run(&rules)
                .egraph;
            let mut names: Vec<String> = g[root]
                .nodes
                .iter()
                .map(|n| n.op.as_str().to_string())
                .collect();
            names.sort();
            names.dedup();
            names
        })
    }

    #[test]
    fn huge_splat_constants_are_read_as_one_element() {
        // A splat of 2^32 elements is one value to the rules' predicates:
        // its one element is decoded, not gigabytes of them.
        with_parser_stack(|| {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let id = sm.add(
                "t.mlir",
                "func.func @f() -> tensor<4096x1024x1024xf16> {
  %n = graph.constant dense<6.400000e+01> : tensor<4096x1024x1024xf16>
  return %n : tensor<4096x1024x1024xf16>
}"
                .to_string(),
            );
            let m = parse_module(&mut ctx, &sm, id).expect("parses");
            let mut block = None;
            ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
                if let Some(f) = aic_dialects::func::Func::of(&ctx, op) {
                    block = ctx.entry_block(f.body(&ctx));
                }
            });
            let b = block.expect("a function");
            let n = ctx.result(ctx.block_ops(b).next().expect("an op"), 0);
            let fb = eqsat::from_block(&ctx, b, aic_dialects::graph::verify::infer_type);
            assert_eq!(scalar(&fb.egraph, fb.classes[&n]), Some(64.0));
        });
    }

    #[test]
    fn f16_gelu_tanh_is_raised() {
        // GeLU-tanh as JAX exports it in f16: its constants are sqrt(2/pi)
        // and 0.044715 rounded to f16 (0.797852, 0.0447083).
        let ops = ops_of_result(
            "func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %h = graph.constant dense<5.000000e-01> : tensor<f16>
  %hb = graph.broadcast %h, dims = [] : (tensor<f16>) -> tensor<4x8xf16>
  %o = graph.constant dense<1.000000e+00> : tensor<f16>
  %ob = graph.broadcast %o, dims = [] : (tensor<f16>) -> tensor<4x8xf16>
  %k = graph.constant dense<4.470830e-02> : tensor<f16>
  %kb = graph.broadcast %k, dims = [] : (tensor<f16>) -> tensor<4x8xf16>
  %c = graph.constant dense<7.978520e-01> : tensor<f16>
  %cb = graph.broadcast %c, dims = [] : (tensor<f16>) -> tensor<4x8xf16>
  %s = graph.mul %x, %x : tensor<4x8xf16>
  %q = graph.mul %x, %s : tensor<4x8xf16>
  %kq = graph.mul %kb, %q : tensor<4x8xf16>
  %a = graph.add %x, %kq : tensor<4x8xf16>
  %ca = graph.mul %cb, %a : tensor<4x8xf16>
  %t = graph.tanh %ca : tensor<4x8xf16>
  %u = graph.add %ob, %t : tensor<4x8xf16>
  %v = graph.mul %hb, %u : tensor<4x8xf16>
  %r = graph.mul %x, %v : tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}",
        );
        assert!(ops.contains(&graph::GELU_TANH.name.to_string()), "{ops:?}");
    }

    #[test]
    fn gelu_erfc_is_raised() {
        let ops = ops_of_result(
            "func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %h = graph.constant dense<5.000000e-01> : tensor<f32>
  %hb = graph.broadcast %h, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %a = graph.mul %hb, %x : tensor<4x8xf32>
  %n = graph.neg %x : tensor<4x8xf32>
  %s = graph.constant dense<0.707106769> : tensor<f32>
  %sb = graph.broadcast %s, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %m = graph.mul %n, %sb : tensor<4x8xf32>
  %e = graph.erfc %m : tensor<4x8xf32>
  %r = graph.mul %a, %e : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}",
        );
        assert!(ops.contains(&graph::GELU.name.to_string()), "{ops:?}");
    }

    #[test]
    fn sibling_gemms_are_slices_of_one() {
        // The first of two GEMMs of x is also the first slice of the GEMM of
        // x and both weights side by side.
        let ops = ops_of_result_with(
            "func.func @f(%x: tensor<4x8xf32>, %a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %p = graph.matmul %x, %a : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %q = graph.matmul %x, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %r = graph.add %p, %q : tensor<4x16xf32>
  return %p : tensor<4x16xf32>
}",
            &[FUSION],
        );
        assert!(ops.contains(&graph::SLICE.name.to_string()), "{ops:?}");
    }
}
