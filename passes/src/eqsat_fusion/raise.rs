//! Raising rules written in Rust, for the idioms whose recognition depends on
//! attribute values: chains of broadcasts compose into one, and an add of a
//! vector broadcast along the last dimension is a `graph.bias_add`. Each rule
//! proposes nodes for the matched class; the bridge adds them only where they
//! keep its type.

use aic::eqsat::{self, Graph, Node, Types};
use aic::types::Type;
use aic_dialects::stablehlo::attrs::i64s;
use egg::{Id, Rewrite, Symbol};

fn shape(egraph: &Graph, t: Option<Type>) -> Option<Vec<i64>> {
    egraph
        .analysis
        .uniquer
        .type_kind(t?)
        .shape()
        .map(<[i64]>::to_vec)
}

fn dims(egraph: &Graph, n: &Node) -> Option<Vec<i64>> {
    let u = &egraph.analysis.uniquer;
    i64s(u, eqsat::prop(u, n, "dims")?)
}

fn broadcast(egraph: &Graph, x: Id, d: &[i64], ty: Option<Type>) -> Node {
    let u = &egraph.analysis.uniquer;
    let arr = u.attr(aic::AttrKind::DenseArray {
        elem: u.int_type(64),
        values: d.iter().map(|v| *v as u64).collect(),
    });
    Node {
        op: Symbol::from("graph.broadcast"),
        attrs: Some(u.dict_attr(vec![(u.ident("dims"), arr)])),
        children: [x].into_iter().collect(),
        ty,
    }
}

/// `broadcast(broadcast(x, inner), outer)` is `broadcast(x, outer ∘ inner)`.
fn compose_broadcasts(egraph: &Graph, class: Id, vars: &[Id]) -> Vec<Node> {
    let mid = egraph.find(vars[0]);
    let ty = egraph[class].data;
    let mut out = Vec::new();
    for n in &egraph[class].nodes {
        if n.op.as_str() != "graph.broadcast" || egraph.find(n.children[0]) != mid {
            continue;
        }
        let Some(outer) = dims(egraph, n) else {
            continue;
        };
        for p in &egraph[mid].nodes {
            if p.op.as_str() != "graph.broadcast" {
                continue;
            }
            let Some(inner) = dims(egraph, p) else {
                continue;
            };
            let composed: Option<Vec<i64>> = inner
                .iter()
                .map(|d| outer.get(usize::try_from(*d).ok()?).copied())
                .collect();
            if let Some(c) = composed {
                out.push(broadcast(egraph, p.children[0], &c, ty));
            }
        }
    }
    out
}

/// `add(a, broadcast(v, [r-1]))` with `v` a vector of the last dimension is
/// `bias_add(a, v)`.
fn bias_add(egraph: &Graph, class: Id, vars: &[Id]) -> Vec<Node> {
    let (a, b) = (vars[0], egraph.find(vars[1]));
    let ty = egraph[class].data;
    let Some(r) = shape(egraph, ty) else {
        return Vec::new();
    };
    let Some(last) = r.last().copied() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for n in &egraph[b].nodes {
        if n.op.as_str() != "graph.broadcast" || dims(egraph, n) != Some(vec![r.len() as i64 - 1]) {
            continue;
        }
        let v = n.children[0];
        if shape(egraph, egraph[v].data) != Some(vec![last]) {
            continue;
        }
        out.push(Node {
            op: Symbol::from("graph.bias_add"),
            attrs: None,
            children: [a, v].into_iter().collect(),
            ty,
        });
    }
    out
}

/// The raising rules.
pub fn rules() -> Vec<Rewrite<Node, Types>> {
    [
        eqsat::rust_rule(
            "compose-broadcasts",
            "(graph.broadcast ?m)",
            compose_broadcasts,
        ),
        eqsat::rust_rule("raise-bias-add", "(graph.add ?a ?b)", bias_add),
    ]
    .into_iter()
    .map(|r| r.expect("raising rules are well formed"))
    .collect()
}
