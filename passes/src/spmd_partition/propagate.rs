//! Sharding propagation, as Shardy does it: the user's shardings (function
//! arguments and results, `sdy.sharding_constraint`s, manual computations'
//! in- and out-shardings) flow along each op's factors ([`super::rules`]) in
//! both directions, forward to users and backward to producers and
//! arguments, until nothing changes.
//!
//! Conflicts are resolved by Shardy's hierarchy (its `propagation.md`):
//!
//! 1. **User priorities**: a dimension sharding `{"x"}p<N>` takes part from
//!    iteration `N` on, lowest first; one without a priority from the last
//!    iteration. Until then nothing overrides it.
//! 2. **Op priorities**: within an iteration, the pass-through ops
//!    (elementwise ops, reshapes, constraints, sharding groups and the
//!    function's results) are propagated to a fixed point first, then every
//!    op.
//! 3. **Basic propagation**: along each factor, the longest major axes
//!    compatible with every tensor's (each one's axes a prefix of them, or
//!    they of it) go to the open dimensions that have a prefix of them, each
//!    cut before an axis the tensor already uses elsewhere and to the
//!    longest part that divides the dimension.
//!
//! Ops are visited in program order, so the result is deterministic.
//! `sdy.sharding_group`s are pass-through ops over all members of a group
//! (groups sharing a value merge): members given different shardings
//! before propagation, or left different after it, are an error at the
//! group op.

use super::rules;
use super::{dims_of, fail, sharding_in, static_shape};
use aic::Diagnostic;
use aic::attributes::Attr;
use aic::ir::{Block, Context, Op, Value};
use aic::op_def::OpHandle;
use aic_dialects::func;
use aic_dialects::sdy::{self, AxisRef, ManualComputation, Mesh, Sharding};
use std::collections::{BTreeSet, HashMap};

/// The last iteration: dimension shardings without a priority.
const LAST: i64 = i64::MAX;

/// One dimension of a tensor during propagation.
#[derive(Clone, Debug)]
struct Dim {
    axes: Vec<String>,
    /// Whether propagation may add axes.
    open: bool,
    /// A user sharding's priority (`LAST` without one); `None`: inferred.
    user: Option<i64>,
}

/// A value (or a function result's or manual operand's required sharding).
#[derive(Clone, Debug)]
struct Tensor {
    shape: Vec<i64>,
    dims: Vec<Dim>,
    /// Axes the tensor is explicitly replicated along.
    replicated: Vec<String>,
}

/// An op's sharding rule over tensors: per factor, the dimension in each.
struct Rule {
    tensors: Vec<usize>,
    factors: Vec<Vec<Option<usize>>>,
    pass_through: bool,
}

/// What propagation found: axes per dimension of each value of the
/// function's body.
pub(crate) type Found = HashMap<Value, Vec<Vec<String>>>;

struct State<'m> {
    mesh: &'m Mesh,
    tensors: Vec<Tensor>,
    of: HashMap<Value, usize>,
    rules: Vec<Rule>,
}

impl State<'_> {
    fn open(&mut self, v: Option<Value>, shape: Vec<i64>) -> usize {
        let dims = vec![
            Dim {
                axes: Vec::new(),
                open: true,
                user: None,
            };
            shape.len()
        ];
        self.tensors.push(Tensor {
            shape,
            dims,
            replicated: Vec::new(),
        });
        let t = self.tensors.len() - 1;
        if let Some(v) = v {
            self.of.insert(v, t);
        }
        t
    }

    /// A tensor holding user sharding `s`, whose axes per dimension (those the
    /// caller keeps) are `dims`.
    fn user(
        &mut self,
        v: Option<Value>,
        shape: Vec<i64>,
        s: &Sharding,
        dims: Vec<Vec<String>>,
    ) -> usize {
        let t = self.open(v, shape);
        let tensor = &mut self.tensors[t];
        for ((d, axes), ds) in tensor.dims.iter_mut().zip(dims).zip(&s.dims) {
            *d = Dim {
                axes,
                open: ds.open,
                user: Some(ds.priority.unwrap_or(LAST)),
            };
        }
        tensor.replicated = s.replicated.iter().map(|a| a.name.clone()).collect();
        t
    }

    fn identity(&mut self, a: usize, b: usize, pass_through: bool) {
        let rank = self.tensors[a].shape.len();
        self.rules.push(Rule {
            tensors: vec![a, b],
            factors: (0..rank).map(|d| vec![Some(d), Some(d)]).collect(),
            pass_through,
        });
    }

    /// Propagate along one rule at `level`; whether anything changed.
    fn step(&mut self, r: usize, level: i64) -> bool {
        let mut changed = false;
        let rule = &self.rules[r];
        let visible = |d: &Dim| d.user.is_none_or(|p| p <= level);
        for f in &rule.factors {
            let entries: Vec<(usize, usize)> = rule
                .tensors
                .iter()
                .zip(f)
                .filter_map(|(t, d)| Some((*t, (*d)?)))
                .collect();
            let cands: Vec<Vec<String>> = entries
                .iter()
                .map(|(t, d)| &self.tensors[*t].dims[*d])
                .filter(|d| visible(d))
                .map(|d| d.axes.clone())
                .collect();
            let best = compatible_major(&cands);
            if best.is_empty() {
                continue;
            }
            for (t, d) in &entries {
                let tensor = &self.tensors[*t];
                let dim = &tensor.dims[*d];
                if !dim.open || !visible(dim) {
                    continue;
                }
                // Cut before an axis the tensor uses elsewhere, then to
                // what divides the dimension.
                let elsewhere = |a: &String| {
                    tensor.replicated.contains(a)
                        || tensor
                            .dims
                            .iter()
                            .enumerate()
                            .any(|(k, o)| k != *d && o.axes.contains(a))
                };
                let mut take: Vec<String> =
                    best.iter().take_while(|a| !elsewhere(a)).cloned().collect();
                while !take.is_empty() && tensor.shape[*d] % super::shards(self.mesh, &take) != 0 {
                    take.pop();
                }
                if take.len() > dim.axes.len() && take.starts_with(&dim.axes) {
                    self.tensors[*t].dims[*d].axes = take;
                    changed = true;
                }
            }
        }
        changed
    }

    fn run(&mut self) {
        let mut levels: BTreeSet<i64> = self
            .tensors
            .iter()
            .flat_map(|t| t.dims.iter().filter_map(|d| d.user))
            .collect();
        levels.insert(LAST);
        for level in levels {
            for pass_through_only in [true, false] {
                loop {
                    let mut changed = false;
                    for r in 0..self.rules.len() {
                        if !pass_through_only || self.rules[r].pass_through {
                            changed |= self.step(r, level);
                        }
                    }
                    if !changed {
                        break;
                    }
                }
            }
        }
    }
}

/// The longest axes compatible with every candidate (Shardy's "longest
/// compatible major sharding axes"): a prefix of one of them that every
/// other is a prefix of or has as a prefix; the first such of the longest.
fn compatible_major(cands: &[Vec<String>]) -> Vec<String> {
    let fits = |p: &[String]| {
        cands.iter().all(|o| {
            let n = p.len().min(o.len());
            p[..n] == o[..n]
        })
    };
    let mut best: &[String] = &[];
    for c in cands {
        for k in (best.len() + 1..=c.len()).rev() {
            if fits(&c[..k]) {
                best = &c[..k];
                break;
            }
        }
    }
    best.to_vec()
}

/// Propagate the shardings of function `f` (its body `block`, over `mesh`).
/// Errors name the op: a user sharding that does not fit its tensor, a
/// sharding group whose members cannot share one sharding.
pub(crate) fn propagate(
    ctx: &Context,
    f: Op,
    block: Block,
    mesh: &Mesh,
    arg_dicts: &[Option<Attr>],
    res_dicts: &[Option<Attr>],
) -> Result<Found, Diagnostic> {
    let mut st = State {
        mesh,
        tensors: Vec::new(),
        of: HashMap::new(),
        rules: Vec::new(),
    };
    let all = |_: &AxisRef| true;
    for (i, a) in ctx.block_args(block).iter().enumerate() {
        let Some(shape) = static_shape(ctx, ctx.value_type(*a)) else {
            continue;
        };
        match sharding_in(ctx, arg_dicts.get(i).copied().flatten()) {
            Some(s) => {
                let dims = dims_of(mesh, &s, &shape, &all)
                    .map_err(|m| fail(ctx, f, format!("argument #{i}: {m}")))?;
                st.user(Some(*a), shape, &s, dims);
            }
            None => {
                st.open(Some(*a), shape);
            }
        }
    }
    // Sharding groups: id to (first group op, members).
    let mut groups: Vec<(Vec<i64>, Op, Vec<Value>)> = Vec::new();
    for op in ctx.block_ops(block) {
        if let Some(g) = sdy::ShardingGroup::of(ctx, op) {
            let (id, v) = (g.group_id(ctx).expect("verified"), g.input(ctx));
            // Groups sharing a value merge.
            let hit: Vec<usize> = (0..groups.len())
                .filter(|k| groups[*k].0.contains(&id) || groups[*k].2.contains(&v))
                .collect();
            let mut merged = (vec![id], op, vec![v]);
            for k in hit.into_iter().rev() {
                let (ids, first, vs) = groups.remove(k);
                merged.0.extend(ids);
                merged.1 = first;
                merged.2.splice(0..0, vs.into_iter().filter(|x| *x != v));
            }
            groups.push(merged);
            continue;
        }
        let results: Vec<Value> = ctx.results(op).collect();
        if let Some(c) = sdy::ShardingConstraint::of(ctx, op) {
            let (input, out) = (c.input(ctx), results[0]);
            let Some(shape) = static_shape(ctx, ctx.value_type(out)) else {
                continue;
            };
            let s = c.sharding(ctx).expect("verified");
            let dims = dims_of(mesh, &s, &shape, &all).map_err(|m| fail(ctx, op, m))?;
            let t = st.user(Some(out), shape, &s, dims);
            if let Some(i) = st.of.get(&input).copied() {
                st.identity(i, t, true);
            }
        } else if let Some(c) = sdy::Reshard::of(ctx, op) {
            // A reshard's result is what it says, and nothing flows across.
            let Some(shape) = static_shape(ctx, ctx.value_type(results[0])) else {
                continue;
            };
            let s = c.sharding(ctx).expect("verified");
            let dims = dims_of(mesh, &s, &shape, &all).map_err(|m| fail(ctx, op, m))?;
            let t = st.user(Some(results[0]), shape, &s, dims);
            st.tensors[t].dims.iter_mut().for_each(|d| d.open = false);
        } else if let Some(mc) = ManualComputation::of(ctx, op) {
            // In-shardings are constraints on the operands, out-shardings
            // the results' (along the manual axes; errors are the
            // partitioner's to report).
            let (ins, outs, manual) = (
                mc.in_shardings(ctx).expect("verified"),
                mc.out_shardings(ctx).expect("verified"),
                mc.manual_axes(ctx).expect("verified"),
            );
            let keep = |a: &AxisRef| manual.0.contains(&a.name);
            for (v, s) in ctx.operands(op).iter().zip(&ins.0) {
                let Some(i) = st.of.get(v).copied() else {
                    continue;
                };
                let shape = st.tensors[i].shape.clone();
                if let Ok(dims) = dims_of(mesh, s, &shape, &keep) {
                    let t = st.user(None, shape, s, dims);
                    st.tensors[t].dims.iter_mut().for_each(|d| d.open = false);
                    st.identity(i, t, true);
                }
            }
            for (v, s) in results.iter().zip(&outs.0) {
                let Some(shape) = static_shape(ctx, ctx.value_type(*v)) else {
                    continue;
                };
                let dims = dims_of(mesh, s, &shape, &keep)
                    .unwrap_or_else(|_| vec![Vec::new(); shape.len()]);
                let t = st.user(Some(*v), shape, s, dims);
                st.tensors[t].dims.iter_mut().for_each(|d| d.open = false);
            }
        } else if func::Return::is(ctx, op) {
            for (i, v) in ctx.operands(op).iter().enumerate() {
                let (Some(s), Some(t)) = (
                    sharding_in(ctx, res_dicts.get(i).copied().flatten()),
                    st.of.get(v).copied(),
                ) else {
                    continue;
                };
                let shape = st.tensors[t].shape.clone();
                let dims = dims_of(mesh, &s, &shape, &all)
                    .map_err(|m| fail(ctx, op, format!("result #{i}: {m}")))?;
                let r = st.user(None, shape, &s, dims);
                st.identity(t, r, true);
            }
        } else {
            for v in &results {
                if let Some(shape) = static_shape(ctx, ctx.value_type(*v)) {
                    st.open(Some(*v), shape);
                }
            }
            let Some((factors, pass_through)) = rules::op_factors(ctx, op) else {
                continue;
            };
            let tensors: Option<Vec<usize>> = ctx
                .operands(op)
                .iter()
                .chain(&results)
                .map(|v| st.of.get(v).copied())
                .collect();
            if let Some(tensors) = tensors {
                st.rules.push(Rule {
                    tensors,
                    factors,
                    pass_through,
                });
            }
        }
    }
    // A group is a pass-through op over its members, which must agree.
    let mut members = Vec::new();
    for (ids, op, vs) in &groups {
        let ts: Vec<usize> = vs.iter().filter_map(|v| st.of.get(v).copied()).collect();
        let Some(first) = ts.first().copied() else {
            continue;
        };
        let shape = &st.tensors[first].shape;
        if ts.iter().any(|t| &st.tensors[*t].shape != shape) {
            return Err(fail(
                ctx,
                *op,
                format!("the members of sharding group {} differ in shape", ids[0]),
            ));
        }
        let users: Vec<&Vec<Dim>> = ts
            .iter()
            .map(|t| &st.tensors[*t].dims)
            .filter(|ds| ds.iter().any(|d| d.user.is_some()))
            .collect();
        let axes = |ds: &Vec<Dim>| ds.iter().map(|d| d.axes.clone()).collect::<Vec<_>>();
        if users.windows(2).any(|w| axes(w[0]) != axes(w[1])) {
            return Err(fail(
                ctx,
                *op,
                format!(
                    "the members of sharding group {} have different shardings before propagation",
                    ids[0]
                ),
            ));
        }
        let rank = shape.len();
        st.rules.push(Rule {
            tensors: ts.clone(),
            factors: (0..rank).map(|d| vec![Some(d); ts.len()]).collect(),
            pass_through: true,
        });
        members.push((ids[0], *op, ts));
    }
    st.run();
    for (id, op, ts) in members {
        let axes = |t: usize| -> Vec<Vec<String>> {
            st.tensors[t].dims.iter().map(|d| d.axes.clone()).collect()
        };
        if ts.iter().any(|t| axes(*t) != axes(ts[0])) {
            return Err(fail(
                ctx,
                op,
                format!(
                    "the members of sharding group {id} cannot share one sharding: {:?} and {:?}",
                    axes(ts[0]),
                    ts.iter()
                        .map(|t| axes(*t))
                        .find(|a| *a != axes(ts[0]))
                        .unwrap_or_default()
                ),
            ));
        }
    }
    Ok(st
        .of
        .iter()
        .map(|(v, t)| {
            (
                *v,
                st.tensors[*t].dims.iter().map(|d| d.axes.clone()).collect(),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::compatible_major;

    fn v(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_longest_compatible_major_axes_win() {
        // Shardy's example: F0 ["a"], ["a","b"], [] gives ["a","b"]; F1
        // ["c","d"], ["c","e"] gives ["c"]; F2 ["f"], ["g"] nothing.
        assert_eq!(
            compatible_major(&[v(&["a"]), v(&["a", "b"]), v(&[])]),
            v(&["a", "b"])
        );
        assert_eq!(
            compatible_major(&[v(&["c", "d"]), v(&["c", "e"])]),
            v(&["c"])
        );
        assert_eq!(compatible_major(&[v(&["f"]), v(&["g"])]), v(&[]));
        assert_eq!(compatible_major(&[]), v(&[]));
    }
}
