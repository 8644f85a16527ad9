//! `auto-mixed-precision{dtype=f16|bf16}`: an f32 graph program made
//! mixed-precision, each op's precision chosen by an e-graph's extraction.
//!
//! Each maximal run of graph ops (as `eqsat-fusion` finds them) becomes an
//! e-graph. For every f32 value `v` it gains a reduced-precision class
//! `low(v)` holding `cast(v)`; every op the precision table
//! (`graph::precision`) puts on the white (`Reduced`) or gray (`Follow`) list
//! gets a second form on the `low` classes of its operands, in `low` of its
//! result, and the f32 class gets `cast(low)`. Black-list ops (statistics,
//! reductions, transcendental functions) have only their f32 form, so their
//! reduced operands are cast up and they compute and accumulate in f32; a
//! reduced matrix product accumulates in f32 too (the tensor cores and the
//! interpreter's `dot`) and rounds its result once.
//!
//! Extraction picks, for the values the rest of the program reads, the
//! program of least modelled time ([`cost`]: bytes at each element width,
//! arithmetic at each precision's peak, casts at their bytes), counting a
//! shared value once, so a cast is placed only where it saves more than it
//! costs and a gray op follows its neighbours. A run whose choice is all f32
//! is left as it was.
//!
//! With `report` (or `aic-opt --eqsat-report`) each changed run reports its
//! ops by precision, its casts and its modelled time before and after, and
//! each function its accuracy ([`accuracy`]): the largest absolute and
//! relative error of its results against the f32 program's on random
//! inputs, both run by the reference interpreter.

pub mod accuracy;
pub mod cost;

use crate::eqsat_fusion::{REPORT, report_line, runs};
use aic::Diagnostic;
use aic::eqsat::{self, INPUT, Node};
use aic::float::FloatKind;
use aic::ir::{Context, InsertPoint, Op, OpState, Value};
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::graph::{self, precision::Precision};
use cost::Model;
use egg::{Id, Symbol};
use smallvec::SmallVec;
use std::collections::{HashMap, HashSet};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "auto-mixed-precision",
    name: "AutoMixedPrecision",
    summary: "Run white- and gray-list graph ops of f32 programs in f16 or bf16 where the cost model gains, keeping statistics and accumulation in f32",
    anchor: None,
    options: &[
        OptSpec {
            name: "dtype",
            kind: OptKind::Enum(&["f16", "bf16"]),
            default: "f16",
            range: None,
            help: "The reduced precision: f16 or bf16",
        },
        OptSpec {
            name: "target",
            kind: OptKind::Enum(&["h100", "mi300", "trn1", "cpu"]),
            default: "h100",
            range: None,
            help: "Cost model: h100, mi300, trn1 or cpu",
        },
        OptSpec {
            name: "report",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Print each run's choice and each function's error against the f32 program to standard error",
        },
        OptSpec {
            name: "report-flops",
            kind: OptKind::UInt,
            default: "1000000000",
            range: Some((0, i64::MAX)),
            help: "Measure the report's accuracy only for functions of at most this many operations (the interpreter runs both programs)",
        },
        OptSpec {
            name: "seed",
            kind: OptKind::UInt,
            default: "0",
            range: Some((0, i64::MAX)),
            help: "Seed of the report's random inputs",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(AutoMixedPrecision {
            reduced: if o.str("dtype") == "bf16" {
                FloatKind::BF16
            } else {
                FloatKind::F16
            },
            model: Model::of(o.str("target")),
            report: o.bool("report"),
            seed: o.int("seed") as u64,
            report_flops: o.int("report-flops") as f64,
        })
    },
};

struct AutoMixedPrecision {
    reduced: FloatKind,
    model: Model,
    report: bool,
    seed: u64,
    report_flops: f64,
}

/// Whether `t` is a ranked tensor of `k`.
fn is_tensor_of(u: &aic::Uniquer, t: Type, k: FloatKind) -> bool {
    matches!(u.type_kind(t), TypeKind::Tensor { elem, .. }
        if matches!(u.type_kind(*elem), TypeKind::Float(e) if *e == k))
}

/// `t` (a tensor type) with elements of `k`.
fn with_elem(u: &aic::Uniquer, t: Type, k: FloatKind) -> Type {
    match u.type_kind(t) {
        TypeKind::Tensor {
            shape, encoding, ..
        } => u.ty(TypeKind::Tensor {
            shape: shape.clone(),
            elem: u.ty(TypeKind::Float(k)),
            encoding: *encoding,
        }),
        _ => t,
    }
}

/// A node of `op` with properties `attrs`, operands `kids` and type `ty`.
fn node(op: &str, attrs: Option<aic::Attr>, kids: &[Id], ty: Type) -> Node {
    Node {
        op: Symbol::from(op),
        attrs,
        children: kids.iter().copied().collect::<SmallVec<_>>(),
        ty: Some(ty),
    }
}

/// The e-graph of one run with its reduced-precision alternatives.
struct Alternatives {
    graph: eqsat::Graph,
    /// The reduced class of each f32 class (canonical ids before rebuilding).
    low: HashMap<Id, Id>,
    reduced: FloatKind,
}

impl Alternatives {
    /// The reduced-precision class of the f32 class `c`: `cast(c)`, and, where
    /// `c` is itself a cast up of a value of the reduced type, that value
    /// (the round trip is exact).
    fn low(&mut self, c: Id) -> Id {
        let c = self.graph.find(c);
        if let Some(l) = self.low.get(&c) {
            return *l;
        }
        let u = self.graph.analysis.uniquer.clone();
        let t = self.graph[c].data.expect("f32 classes are typed");
        let lt = with_elem(&u, t, self.reduced);
        let l = self.graph.add(node(graph::CAST.name, None, &[c], lt));
        let exact: Vec<Id> = self.graph[c]
            .nodes
            .iter()
            .filter(|n| n.op.as_str() == graph::CAST.name)
            .map(|n| n.children[0])
            .filter(|k| self.graph[*k].data == Some(lt))
            .collect();
        let mut l = l;
        for k in exact {
            self.graph.union(l, k);
            l = self.graph.find(l);
        }
        self.low.insert(c, l);
        l
    }
}

impl AutoMixedPrecision {
    /// Add the alternatives of `ops`' white and gray ops and choose; whether
    /// the run changed, and its report line.
    fn run_one(&self, ctx: &mut Context, ops: &[Op]) -> (bool, Option<String>) {
        let u = ctx.uniquer().clone();
        let fb = eqsat::from_ops(ctx, ops, graph::verify::infer_type);
        let in_run: HashSet<Op> = ops.iter().copied().collect();
        let roots: Vec<(Value, Id)> = ops
            .iter()
            .map(|&o| ctx.result(o, 0))
            .filter(|r| ctx.uses(*r).iter().any(|x| !in_run.contains(&x.op)))
            .map(|r| (r, fb.classes[&r]))
            .collect();
        if roots.is_empty() {
            return (false, None);
        }
        let mut alt = Alternatives {
            graph: fb.egraph,
            low: HashMap::new(),
            reduced: self.reduced,
        };
        let mut locs: HashMap<Id, aic::Attr> = HashMap::new();
        for &op in ops {
            let r = ctx.result(op, 0);
            let t = ctx.value_type(r);
            let c = fb.classes[&r];
            locs.entry(c).or_insert(ctx.op(op).loc);
            let name = ctx.op_name(op);
            if graph::precision::precision(name) == Precision::F32
                || !is_tensor_of(&u, t, FloatKind::F32)
            {
                continue;
            }
            // Float operands must be f32 (a program already mixed is left as
            // it is); others (indices, conditions) are read as they are.
            let mut kids: Vec<Id> = Vec::new();
            let mut ok = true;
            for v in ctx.operands(op) {
                let vt = ctx.value_type(*v);
                let class = fb.classes[v];
                if is_tensor_of(&u, vt, FloatKind::F32) {
                    kids.push(alt.low(class));
                } else if matches!(u.type_kind(cost::element(&u, vt)), TypeKind::Float(_)) {
                    ok = false;
                } else {
                    kids.push(class);
                }
            }
            if !ok {
                continue;
            }
            let lt = with_elem(&u, t, self.reduced);
            let n = alt.graph.add(node(name, ctx.op(op).props, &kids, lt));
            let l = alt.low(c);
            alt.graph.union(l, n);
            let n = alt.graph.find(n);
            let up = alt.graph.add(node(graph::CAST.name, None, &[n], t));
            alt.graph.union(c, up);
        }
        alt.graph.rebuild();
        let g = &alt.graph;
        let lows: HashSet<Id> = alt.low.values().map(|l| g.find(*l)).collect();
        let low_of: HashMap<Id, Id> = alt
            .low
            .iter()
            .map(|(c, l)| (g.find(*l), g.find(*c)))
            .collect();
        let classes: Vec<Id> = roots.iter().map(|(_, c)| *c).collect();
        let model = self.model;
        let best = eqsat::best_nodes_shared(g, &mut |n| model.node_time(g, n), &classes, 4);
        let ex = eqsat::extract_all(g, &best, &classes);
        let uses_reduced = ex.classes.iter().any(|c| lows.contains(&g.find(*c)));
        if !uses_reduced {
            return (false, None);
        }
        // The report's figures, before anything moves.
        let report = (self.report || REPORT.load(std::sync::atomic::Ordering::Relaxed)).then(|| {
            let before: f64 = ops
                .iter()
                .map(|&o| {
                    let kids: Vec<Type> =
                        ctx.operands(o).iter().map(|v| ctx.value_type(*v)).collect();
                    model.op_time(&u, ctx.op_name(o), &kids, ctx.value_type(ctx.result(o, 0)))
                })
                .sum();
            let after: f64 = ex
                .expr
                .as_ref()
                .iter()
                .map(|n| model.node_time(g, n))
                .sum();
            let (mut reduced, mut kept, mut casts) = (Vec::new(), Vec::new(), 0usize);
            for (n, c) in ex.expr.as_ref().iter().zip(&ex.classes) {
                let name = n.op.as_str();
                if name == INPUT {
                    continue;
                }
                let short = name.strip_prefix("graph.").unwrap_or(name);
                let is_low = lows.contains(&g.find(*c));
                // A cast the pass added: between a reduced class and an f32 one.
                let is_cast = name == graph::CAST.name
                    && n.children.first().is_some_and(|k| {
                        let k = g.find(ex.classes[usize::from(*k)]);
                        is_low != lows.contains(&k)
                    });
                if is_cast {
                    casts += 1;
                } else if is_low {
                    reduced.push(short.to_string());
                } else {
                    kept.push(short.to_string());
                }
            }
            format!(
                "auto-mixed-precision: {} ops, {} e-nodes, {} e-classes; {} in {}: [{}]; f32: [{}]; casts: {casts}; modelled time on {}: {:.3} us before, {:.3} us after",
                ops.len(),
                g.total_number_of_nodes(),
                g.number_of_classes(),
                reduced.len(),
                self.reduced.keyword(),
                reduced.join(" "),
                kept.join(" "),
                model.target.name,
                before * 1e6,
                after * 1e6,
            )
        });
        // Rebuild before the run's first op, each op at the location of the
        // op it stands for (a reduced op or a cast at its f32 twin's).
        let fallback = ctx.op(ops[0]).loc;
        let loc_of = |c: Id| -> aic::Attr {
            let c = g.find(c);
            let f32c = low_of.get(&c).copied().unwrap_or(c);
            locs.iter()
                .find(|(k, _)| g.find(**k) == f32c)
                .map_or(fallback, |(_, l)| *l)
        };
        let mut values: Vec<Value> = Vec::with_capacity(ex.expr.as_ref().len());
        for (i, n) in ex.expr.as_ref().iter().enumerate() {
            if n.op.as_str() == INPUT {
                let idx = match n.attrs.map(|a| ctx.attr_kind(a).clone()) {
                    Some(aic::AttrKind::Integer { value, .. }) => value as usize,
                    _ => return (false, None),
                };
                values.push(fb.inputs[idx]);
                continue;
            }
            let Some(ty) = ex.types[i] else {
                return (false, None);
            };
            let mut st = OpState::new(ctx.ident(n.op.as_str()), loc_of(ex.classes[i]));
            st.operands
                .extend(n.children.iter().map(|k| values[usize::from(*k)]));
            st.result_types.push(ty);
            st.props = n.attrs;
            let op = ctx.create_op(st);
            ctx.insert_op(InsertPoint::Before(ops[0]), op);
            values.push(ctx.result(op, 0));
        }
        for ((old, _), at) in roots.iter().zip(&ex.at) {
            ctx.replace_all_uses(*old, values[usize::from(*at)]);
        }
        for &op in ops.iter().rev() {
            ctx.erase_op(op);
        }
        (true, report)
    }
}

impl Pass for AutoMixedPrecision {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let report = self.report || REPORT.load(std::sync::atomic::Ordering::Relaxed);
        // The f32 functions, kept for the accuracy report.
        let originals = if report {
            accuracy::functions(ctx, root)
                .into_iter()
                .map(|f| (f, ctx.extract(f)))
                .collect()
        } else {
            Vec::new()
        };
        let mut changed = false;
        for run in runs(ctx, root) {
            let (c, line) = self.run_one(ctx, &run);
            changed |= c;
            if let Some(line) = line {
                report_line(format_args!("{line}"));
            }
        }
        for (f, (octx, of)) in originals {
            report_line(format_args!(
                "{}",
                accuracy::compare(ctx, f, &octx, of, self.seed, self.report_flops)
            ));
        }
        Ok(changed)
    }
}
