//! `eqsat-fusion`: equality saturation over graph ops with egg. Each maximal
//! run of pure single-result ops in a function body becomes an e-graph (see
//! `aic::eqsat`); rule sets rewrite it to saturation or to the limits
//! (`node-limit`, `iter-limit`, `time-limit-ms`); extraction picks, for every
//! value the rest of the program uses, the term of least modelled time on
//! `target` (see [`cost`]); the run is rebuilt from it.
//!
//! Rule sets are text in egg's pattern syntax beside this file
//! (`algebraic.rules`, `raising.rules`), loaded by name through the `rules`
//! option; the predicates and natives they name are in [`natives`]. The
//! `fusion` set is not text: it grows fused alternatives (`fusion.group`
//! nodes, see [`fuse`]) after saturation. With `report`, a summary per run
//! goes to standard error: iterations, e-nodes, e-classes, why it stopped (in
//! words), time, the modelled time, kernels and HBM bytes before and after,
//! the rules that fired (with how often), and the fusions chosen.

pub mod cost;
pub mod fuse;
pub mod horizontal;
pub mod natives;

use aic::eqsat::{self, Node, Types};
use aic::ir::{Builder, Context, InsertPoint, Op, OpState, Value};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::{Diagnostic, DialectRegistry};
use aic_dialects::fusion::{self, FusionKind};
use aic_dialects::graph;
use cost::{KernelTime, TARGETS, Target};
use egg::Rewrite;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// Set by `aic-opt --eqsat-report`: every `eqsat-fusion` run reports, as with
/// its `report` option.
pub static REPORT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Where reports go while [`capture_report`] runs (standard error otherwise).
static CAPTURED: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Runs `f` with every `eqsat-fusion` run reporting (as with `--eqsat-report`)
/// into the returned text instead of standard error: what aic's Python package
/// gives back as the report. Process-wide, as `REPORT` is.
pub fn capture_report<T>(f: impl FnOnce() -> T) -> (T, String) {
    let lock = || CAPTURED.lock().unwrap_or_else(|e| e.into_inner());
    let was = REPORT.swap(true, std::sync::atomic::Ordering::Relaxed);
    *lock() = Some(String::new());
    let r = f();
    let text = lock().take().unwrap_or_default();
    REPORT.store(was, std::sync::atomic::Ordering::Relaxed);
    (r, text)
}

/// One line of a report, to standard error or the text [`capture_report`] collects.
pub(crate) fn report_line(line: std::fmt::Arguments<'_>) {
    match CAPTURED.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        Some(text) => {
            text.push_str(&line.to_string());
            text.push('\n');
        }
        None => eprintln!("{line}"),
    }
}

/// The algebraic rule set.
pub const ALGEBRAIC: &str = include_str!("algebraic.rules");

/// The raising rule set.
pub const RAISING: &str = include_str!("raising.rules");

/// The fusion rule set (horizontal fusion; the rest of fusion is the growth
/// of [`fuse`], which the `fusion` set also turns on).
pub const FUSION: &str = include_str!("fusion.rules");

/// The rule sets by name, as `rules=` names them.
pub const RULE_SETS: &[(&str, &str)] = &[
    ("algebraic", ALGEBRAIC),
    ("raising", RAISING),
    ("fusion", FUSION),
];

/// The rule set named `name`.
pub fn rule_set(name: &str) -> Option<&'static str> {
    RULE_SETS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "eqsat-fusion",
    name: "EqsatFusion",
    summary: "Rewrite graph ops by equality saturation and extract the cheapest program for a target",
    anchor: None,
    options: &[
        OptSpec {
            name: "node-limit",
            kind: OptKind::UInt,
            default: "100000",
            range: Some((1, i64::MAX)),
            help: "Stop growing an e-graph beyond this many e-nodes",
        },
        OptSpec {
            name: "iter-limit",
            kind: OptKind::UInt,
            default: "30",
            range: Some((0, i64::MAX)),
            help: "Stop after this many rewrite iterations",
        },
        OptSpec {
            name: "time-limit-ms",
            kind: OptKind::UInt,
            default: "60000",
            range: Some((0, 31_536_000_000)),
            help: "Safety net: stop saturating after this many milliseconds (the result then depends on the machine's speed; node-limit and iter-limit bound the work)",
        },
        OptSpec {
            name: "target",
            kind: OptKind::Enum(&["h100", "mi300", "trn1", "trn2", "cpu"]),
            default: "h100",
            range: None,
            help: "Cost model: h100, mi300, trn1, trn2 or cpu",
        },
        OptSpec {
            name: "sparse-gemm",
            kind: OptKind::Enum(&["auto", "true", "false"]),
            default: "auto",
            range: None,
            help: "Keep 2:4-sparse products compressed for tile.sparse_gemm (true), expand them to dense matmuls (false), or as the target does (auto)",
        },
        OptSpec {
            name: "wgmma",
            kind: OptKind::Enum(&["auto", "true", "false"]),
            default: "auto",
            range: None,
            help: "Whether f16/bf16/fp8 GEMMs run on warpgroup MMA, which pipelines plain operand loads only (fusion-to-tile's wgmma), or as the target does (auto: h100 yes)",
        },
        OptSpec {
            name: "rules",
            kind: OptKind::StrList,
            default: "algebraic,raising,fusion",
            range: None,
            help: "Rule sets to saturate with (algebraic, raising, fusion)",
        },
        OptSpec {
            name: "rule-files",
            kind: OptKind::StrList,
            default: "",
            range: None,
            help: "Further rule sets to saturate with, read from these .rules files",
        },
        OptSpec {
            name: "report",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Print a summary of every saturation to standard error",
        },
    ],
    create: |o: &PassOptions| {
        let mut target = TARGETS
            .iter()
            .copied()
            .find(|t| t.name == o.str("target"))
            .unwrap_or(TARGETS[0]);
        match o.str("wgmma") {
            "true" => target.wgmma = true,
            "false" => target.wgmma = false,
            _ => {}
        }
        Box::new(EqsatFusion {
            node_limit: o.int("node-limit") as usize,
            iter_limit: o.int("iter-limit") as usize,
            time_limit: Duration::from_millis(o.int("time-limit-ms") as u64),
            sparse_gemm: match o.str("sparse-gemm") {
                "true" => true,
                "false" => false,
                _ => target.sparse_gemm,
            },
            target,
            rules: o.list("rules").to_vec(),
            rule_files: o
                .list("rule-files")
                .iter()
                .filter(|f| !f.is_empty())
                .cloned()
                .collect(),
            report: o.bool("report"),
        })
    },
};

/// Raise JAX's decomposed idioms under `root` to graph ops (softmax,
/// normalisations, GeLU, means, bias adds) by saturating with the algebraic
/// and raising rule sets and extracting the cheapest program, without
/// fusing: what `stablehlo-to-graph{raise}` runs after lowering.
pub fn raise(ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
    let pass = EqsatFusion {
        node_limit: 100_000,
        iter_limit: 30,
        time_limit: Duration::from_millis(60_000),
        sparse_gemm: TARGETS[0].sparse_gemm,
        target: TARGETS[0],
        rules: vec!["algebraic".into(), "raising".into()],
        rule_files: Vec::new(),
        report: false,
    };
    pass.run(ctx, root)
}

struct EqsatFusion {
    node_limit: usize,
    iter_limit: usize,
    time_limit: Duration,
    /// Whether 2:4-sparse products stay compressed (see [`Target::sparse_gemm`]).
    sparse_gemm: bool,
    target: Target,
    rules: Vec<String>,
    rule_files: Vec<String>,
    report: bool,
}

/// Rewrite every `graph.split` under `root` as one `graph.slice` per result:
/// the e-graph holds single-result ops, and a slice is a view the kernels
/// reading it absorb (memory fusion). Whether anything changed.
fn splits_to_slices(ctx: &mut Context, root: Op) -> bool {
    let mut splits = Vec::new();
    ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
        if let Some(s) = graph::Split::of(ctx, op) {
            splits.push(s);
        }
    });
    let u = ctx.uniquer().clone();
    let mut changed = false;
    for split in splits {
        let (op, x) = (split.op(), split.x(ctx));
        let Some(shape) = ctx
            .type_kind(ctx.value_type(x))
            .shape()
            .map(<[i64]>::to_vec)
        else {
            continue;
        };
        let axis = split.axis(ctx);
        let Some(axis) = axis.map(|a| if a < 0 { a + shape.len() as i64 } else { a }) else {
            continue;
        };
        let results: Vec<Value> = ctx.results(op).collect();
        let sizes: Option<Vec<i64>> = results
            .iter()
            .map(|r| Some(ctx.type_kind(ctx.value_type(*r)).shape()?[axis as usize]))
            .collect();
        let Some(sizes) = sizes else {
            continue;
        };
        if sizes.iter().any(|s| *s < 0) || shape.iter().any(|s| *s < 0) {
            continue;
        }
        let mut from = 0;
        for (r, n) in results.iter().zip(sizes) {
            let [(_, start), (_, limit), (_, strides)] =
                natives::axis_slice(&u, &shape, axis as usize, from, from + n);
            from += n;
            let ty = ctx.value_type(*r);
            let s =
                graph::Slice::build(&mut Builder::before(ctx, op), x, start, limit, strides, ty);
            ctx.replace_all_uses(*r, s.result(ctx));
        }
        ctx.erase_op(op);
        changed = true;
    }
    changed
}

/// The maximal runs of consecutive node ops in the bodies under `root`,
/// outside fusion groups (a group already formed, by an earlier run or by
/// hand, is one kernel; fusing inside it again would nest groups no
/// generator lowers).
pub(crate) fn runs(ctx: &Context, root: Op) -> Vec<Vec<Op>> {
    let mut out = Vec::new();
    ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
        let grouped = |o: Op| {
            std::iter::successors(Some(o), |o| ctx.parent_op(*o)).any(|o| fusion::Group::is(ctx, o))
        };
        if grouped(op) {
            return;
        }
        for &r in ctx.regions(op) {
            for b in ctx.region_blocks(r) {
                let mut cur = Vec::new();
                for o in ctx.block_ops(b) {
                    if eqsat::is_node_op(ctx, o) {
                        cur.push(o);
                    } else if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                }
                if !cur.is_empty() {
                    out.push(cur);
                }
            }
        }
    });
    out
}

impl EqsatFusion {
    /// The rules of the rule sets and files asked for; every op they name must be
    /// registered in `registry`.
    fn rewrites(&self, registry: &DialectRegistry) -> Result<Vec<Rewrite<Node, Types>>, String> {
        let known_op = |name: &str| registry.op(name).is_some();
        let mut all = Vec::new();
        for name in &self.rules {
            let text = rule_set(name).ok_or_else(|| format!("unknown rule set '{name}'"))?;
            all.extend(
                eqsat::parse_rules_with(text, &natives::NATIVES, &known_op)
                    .map_err(|e| format!("{name}.rules: {e}"))?,
            );
        }
        for path in &self.rule_files {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read rule file '{path}': {e}"))?;
            all.extend(
                eqsat::parse_rules_with(&text, &natives::NATIVES, &known_op)
                    .map_err(|e| format!("{path}: {e}"))?,
            );
        }
        Ok(all)
    }

    /// Saturate and rebuild one run; whether it changed.
    fn run_one(&self, ctx: &mut Context, ops: &[Op], rules: &[Rewrite<Node, Types>]) -> bool {
        let infer = aic_dialects::graph::verify::infer_type;
        let fb = eqsat::from_ops(ctx, ops, infer);
        let in_run: HashSet<Op> = ops.iter().copied().collect();
        // The values the rest of the program uses.
        let mut roots: Vec<(Value, egg::Id)> = Vec::new();
        for &op in ops {
            let r = ctx.result(op, 0);
            let used_outside = ctx.uses(r).iter().any(|u| !in_run.contains(&u.op));
            if used_outside {
                roots.push((r, fb.classes[&r]));
            }
        }
        if roots.is_empty() {
            return false;
        }
        let start = std::time::Instant::now();
        let runner = eqsat::runner(fb.egraph)
            .with_node_limit(self.node_limit)
            .with_iter_limit(self.iter_limit)
            .with_time_limit(self.time_limit)
            .run(rules);
        let mut runner = runner;
        let t_sat = start.elapsed();
        if matches!(runner.stop_reason, Some(egg::StopReason::TimeLimit(_))) {
            // Work limits decide what is explored; only the time limit makes the
            // result depend on the machine, so it is told.
            ctx.remark(
                ops[0],
                format_args!(
                    "saturation stopped at the time limit ({} ms) before its work limits; the result may differ between runs (lower node-limit or iter-limit)",
                    self.time_limit.as_millis()
                ),
            );
        }
        let cache = cost::Cache::default();
        let fusing = self.rules.iter().any(|r| r == "fusion");
        let (fused, fusion_hit_limit) = if fusing {
            let target = self.target;
            let mut best = |g: &aic::eqsat::Graph, n: &Node| {
                KernelTime {
                    egraph: g,
                    target,
                    cache: &cache,
                }
                .node_time(n)
            };
            fuse::grow(
                &mut runner.egraph,
                fuse::MAX_STREAM_BODY,
                self.node_limit,
                target.on_chip_bytes,
                &mut best,
                &cache,
                &roots.iter().map(|r| r.1).collect::<Vec<_>>(),
            )
        } else {
            (0, false)
        };
        let t_grow = start.elapsed();
        let egraph = &runner.egraph;
        let model = KernelTime {
            egraph,
            target: self.target,
            cache: &cache,
        };
        let report = self.report || REPORT.load(std::sync::atomic::Ordering::Relaxed);
        let mut before = Tally::default();
        if report {
            for &o in ops {
                let kids: Vec<aic::Type> =
                    ctx.operands(o).iter().map(|v| ctx.value_type(*v)).collect();
                let out = Some(ctx.value_type(ctx.result(o, 0)));
                before.add(&model, ctx.op_name(o), None, &kids, out);
            }
        }
        let classes: Vec<egg::Id> = roots.iter().map(|(_, c)| *c).collect();
        let best = eqsat::best_nodes_shared(egraph, &mut |n| model.node_time(n), &classes, 4);
        let eqsat::Extracted {
            expr,
            types,
            classes: of_class,
            at,
        } = eqsat::extract_all(egraph, &best, &classes);
        let mut after = Tally::default();
        let mut chosen = Vec::new();
        if report {
            for (i, (n, out)) in expr.as_ref().iter().zip(&types).enumerate() {
                let kids: Vec<aic::Type> = n
                    .children
                    .iter()
                    .filter_map(|c| types[usize::from(*c)])
                    .collect();
                // A view the rest of the program reads is materialised.
                let read_outside = at.contains(&egg::Id::from(i));
                let node = (!read_outside || !fuse::is_index_only(n.op.as_str())).then_some(n);
                after.add(&model, n.op.as_str(), node, &kids, *out);
                if n.op.as_str() == fuse::GROUP {
                    chosen.extend(fusion_line(&model, n, &kids));
                }
            }
        }
        let first = ops[0];
        let mut locs: HashMap<egg::Id, Vec<aic::Attr>> = HashMap::new();
        for &o in ops {
            let c = egraph.find(fb.classes[&ctx.result(o, 0)]);
            locs.entry(c).or_default().push(ctx.op(o).loc);
        }
        let origins = Origins {
            egraph,
            locs,
            fallback: ctx.op(first).loc,
        };
        let Some(values) = build(
            ctx, &expr, &types, &of_class, &fb.inputs, first, &origins, &model,
        ) else {
            // A node of unknown type: keep the run as it was.
            return false;
        };
        for ((old, _), idx) in roots.iter().zip(&at) {
            ctx.replace_all_uses(*old, values[usize::from(*idx)]);
        }
        for &op in ops.iter().rev() {
            ctx.erase_op(op);
        }
        // Built ops nothing reads (an outer copy of a value a group
        // computes itself).
        for (n, v) in expr.as_ref().iter().zip(&values).rev() {
            if n.op.as_str() != eqsat::INPUT
                && let Some(d) = ctx.defining_op(*v)
                && !ctx.is_erased(d)
                && !ops.contains(&d)
                && ctx.results(d).all(|r| ctx.uses(r).is_empty())
            {
                ctx.erase_op(d);
            }
        }
        if fusing {
            let mut built: Vec<Op> = Vec::new();
            for (n, v) in expr.as_ref().iter().zip(&values) {
                if n.op.as_str() != eqsat::INPUT
                    && let Some(d) = ctx.defining_op(*v)
                    && built.last() != Some(&d)
                {
                    built.push(d);
                }
            }
            for j in horizontal::fuse(ctx, &built, &self.target) {
                if report {
                    after.kernels -= j.kernels - 1;
                    after.seconds -= j.saving;
                    after.bytes -= j.bytes;
                    chosen.push(j.line);
                }
            }
        }
        if report {
            report_line(format_args!(
                "eqsat-fusion: {} ops, {} iterations, {} e-nodes ({} fused alternatives), {} e-classes, stop: {}{}, {:.3} ms (saturate {:.3}, fuse {:.3}); modelled time on {}: {:.3} us before, {:.3} us after; kernels: {} before, {} after; HBM bytes: {} before, {} after; rules fired: {}",
                ops.len(),
                runner.iterations.len(),
                runner.egraph.total_number_of_nodes(),
                fused,
                runner.egraph.number_of_classes(),
                eqsat::stop_reason_words(runner.stop_reason.as_ref(), self.node_limit),
                if fusion_hit_limit {
                    ", fusion growth stopped at the node limit"
                } else {
                    ""
                },
                start.elapsed().as_secs_f64() * 1e3,
                t_sat.as_secs_f64() * 1e3,
                (t_grow - t_sat).as_secs_f64() * 1e3,
                self.target.name,
                before.seconds * 1e6,
                after.seconds * 1e6,
                before.kernels,
                after.kernels,
                before.bytes,
                after.bytes,
                eqsat::rules_fired_words(&runner.iterations),
            ));
            for line in chosen {
                report_line(format_args!("  {line}"));
            }
        }
        true
    }
}

/// Kernels, modelled seconds and HBM bytes of a program, for the report.
#[derive(Default)]
struct Tally {
    kernels: usize,
    seconds: f64,
    bytes: f64,
}

impl Tally {
    /// Count one op with operands of types `kids` and result type `out`:
    /// `group` is its node in the fused program (`None` for the original
    /// program, where every op is a kernel); there, index-only ops are views
    /// and cost nothing.
    fn add(
        &mut self,
        model: &KernelTime<'_>,
        op: &str,
        group: Option<&Node>,
        kids: &[aic::Type],
        out: Option<aic::Type>,
    ) {
        if group.is_some() && fuse::is_index_only(op) {
            // A view between kernels of the fused program: its readers
            // fold it into their accessors.
            return;
        }
        self.seconds += match group {
            Some(n) if op == fuse::GROUP => model.node_time_of(n, kids),
            _ => model.op_time(op, kids, out),
        };
        if is_kernel(op) {
            self.kernels += 1;
            self.bytes += model.traffic(kids, out);
        }
    }
}

/// The report's line for a chosen fusion: its kind, its ops, and its
/// modelled time against the same ops as separate kernels.
fn fusion_line(model: &KernelTime<'_>, n: &Node, kids: &[aic::Type]) -> Option<String> {
    let body = model.cache.body(&model.egraph.analysis.uniquer, n.attrs?)?;
    let fused = model.node_time_of(n, kids);
    let mut unfused = 0.0;
    for o in &body.ops {
        let args: Vec<aic::Type> = o
            .args
            .iter()
            .map(|a| match usize::try_from(*a) {
                Ok(j) => Some(body.ops.get(j)?.ty),
                Err(_) => kids.get((-1 - *a) as usize).copied(),
            })
            .collect::<Option<_>>()?;
        unfused += model.op_time(o.op.as_str(), &args, Some(o.ty));
    }
    let names: Vec<&str> = body.ops.iter().map(|o| short_name(o.op.as_str())).collect();
    Some(format!(
        "fused {} [{}]: {:.3} us, unfused {:.3} us, saving {:.3} us",
        body.kind().keyword(),
        names.join(" "),
        fused * 1e6,
        unfused * 1e6,
        (unfused - fused) * 1e6
    ))
}

/// Whether an op is a kernel of its own (constants and inputs are data).
fn is_kernel(op: &str) -> bool {
    op != eqsat::INPUT && op != graph::CONSTANT.name
}

/// A graph op's name without the dialect's (the reports' words).
fn short_name(op: &str) -> &str {
    op.strip_prefix(graph::DIALECT.name)
        .and_then(|r| r.strip_prefix('.'))
        .unwrap_or(op)
}

/// Build the ops of `expr` before `at`: inputs map to their values, fused
/// nodes become `fusion.group` ops holding their bodies, the others become ops
/// of their e-class's type. The value of every node, or `None` if a type is
/// unknown.
#[allow(clippy::too_many_arguments)]
fn build(
    ctx: &mut Context,
    expr: &egg::RecExpr<Node>,
    types: &[Option<aic::Type>],
    classes: &[egg::Id],
    inputs: &[Value],
    at: Op,
    origins: &Origins<'_>,
    model: &KernelTime<'_>,
) -> Option<Vec<Value>> {
    let mut values: Vec<Value> = Vec::with_capacity(expr.as_ref().len());
    for (i, n) in expr.as_ref().iter().enumerate() {
        let args: Vec<Value> = n.children.iter().map(|c| values[usize::from(*c)]).collect();
        if n.op.as_str() == eqsat::INPUT {
            let idx = match n.attrs.map(|a| ctx.attr_kind(a).clone()) {
                Some(aic::AttrKind::Integer { value, .. }) => value as usize,
                _ => return None,
            };
            values.push(*inputs.get(idx)?);
            continue;
        }
        let u = ctx.uniquer().clone();
        if n.op.as_str() == fuse::GROUP {
            let mut body = fuse::Body::from_attr(&u, n.attrs?)?;
            let mut args = args;
            let mut kid_classes: Vec<egg::Id> = n
                .children
                .iter()
                .map(|c| classes[usize::from(*c)])
                .collect();
            // An input the body also computes itself is read from the
            // body's own copy (the outer one, now unread, is erased).
            let mut op_classes = origins.body_classes(&body, &kid_classes);
            while let Some((j, p)) = kid_classes.iter().enumerate().find_map(|(j, c)| {
                let c = origins.egraph.find(*c);
                let p = op_classes
                    .iter()
                    .position(|oc| oc.is_some_and(|oc| origins.egraph.find(oc) == c))?;
                Some((j, p))
            }) {
                let Some(b) = body.reuse_inner(j, p) else {
                    break;
                };
                body = b;
                args.remove(j);
                kid_classes.remove(j);
                op_classes = origins.body_classes(&body, &kid_classes);
            }
            let kids: Vec<aic::Type> = args.iter().map(|v| ctx.value_type(*v)).collect();
            let cost = model.kernel_time(&body, &kids);
            let op_locs: Vec<aic::Attr> = op_classes
                .iter()
                .map(|c| origins.of(&u, c.as_slice()))
                .collect();
            let all: Vec<egg::Id> = op_classes
                .into_iter()
                .flatten()
                .chain([classes[i]])
                .collect();
            let loc = origins.of(&u, &all);
            values.push(build_group(ctx, &body, &args, at, loc, &op_locs, cost));
            continue;
        }
        let ty = types.get(i).copied().flatten()?;
        let loc = origins.of(&u, &[classes[i]]);
        let mut st = OpState::new(ctx.ident(n.op.as_str()), loc);
        st.operands.extend(args);
        st.result_types.push(ty);
        st.props = n.attrs;
        let op = ctx.create_op(st);
        ctx.insert_op(InsertPoint::Before(at), op);
        values.push(ctx.result(op, 0));
    }
    Some(values)
}

/// Where the ops extraction builds come from: the locations of the original
/// ops in each e-class, so a rewritten or fused op carries the fused
/// locations of the ops it stands for.
struct Origins<'a> {
    egraph: &'a eqsat::Graph,
    locs: HashMap<egg::Id, Vec<aic::Attr>>,
    fallback: aic::Attr,
}

impl Origins<'_> {
    /// The fused location of the original ops in `classes` (the run's
    /// first op's where there are none).
    fn of(&self, u: &aic::Uniquer, classes: &[egg::Id]) -> aic::Attr {
        let mut all: Vec<aic::Attr> = Vec::new();
        for c in classes {
            for l in self.locs.get(&self.egraph.find(*c)).into_iter().flatten() {
                if !all.contains(l) {
                    all.push(*l);
                }
            }
        }
        if all.is_empty() {
            self.fallback
        } else {
            u.fused_loc(None, &all)
        }
    }

    /// The e-class of each op of a fused body whose inputs are the classes
    /// `kids` (empty where the op is not a node of the e-graph).
    fn body_classes(&self, body: &fuse::Body, kids: &[egg::Id]) -> Vec<Option<egg::Id>> {
        fuse::body_classes(self.egraph, body, kids)
    }
}

/// A `fusion.group` of `kind` with modelled `cost` on `inputs`, its body
/// `block` (whose arguments stand for the inputs, and which ends in a
/// `fusion.yield` of values of `results`' types), inserted before `at`.
pub fn build_group_op(
    ctx: &mut Context,
    (at, loc): (Op, aic::Attr),
    kind: FusionKind,
    cost: f64,
    inputs: &[Value],
    block: aic::ir::Block,
    results: &[aic::Type],
) -> fusion::Group {
    let u = ctx.uniquer().clone();
    let f64t = u.ty(aic::TypeKind::Float(aic::float::FloatKind::F64));
    let cost = u.attr(aic::AttrKind::Float {
        bits: u128::from(cost.to_bits()),
        ty: f64t,
    });
    let kind = kind.attr(&u);
    let mut b = Builder::before(ctx, at);
    b.loc = loc;
    let g = fusion::Group::build(&mut b, inputs, kind, Some(cost), results);
    let body = g.body(ctx);
    ctx.append_block(body, block);
    g
}

/// Append a `fusion.yield` of `values` at location `loc` to `block`.
pub fn append_yield(ctx: &mut Context, block: aic::ir::Block, loc: aic::Attr, values: &[Value]) {
    let mut b = Builder::at_end(ctx, block);
    b.loc = loc;
    fusion::Yield::build(&mut b, values);
}

/// A `fusion.group` computing `body` on `args`, inserted before `at`.
fn build_group(
    ctx: &mut Context,
    body: &fuse::Body,
    args: &[Value],
    at: Op,
    loc: aic::Attr,
    op_locs: &[aic::Attr],
    cost: f64,
) -> Value {
    let arg_types: Vec<(aic::Type, Option<aic::Attr>)> = args
        .iter()
        .map(|v| (ctx.value_type(*v), Some(loc)))
        .collect();
    let block = ctx.create_block(&arg_types);
    let bargs: Vec<Value> = ctx.block_args(block).to_vec();
    let mut vals: Vec<Value> = Vec::new();
    for (j, o) in body.ops.iter().enumerate() {
        let op_loc = op_locs.get(j).copied().unwrap_or(loc);
        let mut st = OpState::new(ctx.ident(o.op.as_str()), op_loc);
        st.operands.extend(o.args.iter().map(|a| {
            if *a < 0 {
                bargs[(-1 - a) as usize]
            } else {
                vals[*a as usize]
            }
        }));
        st.result_types.push(o.ty);
        st.props = o.props;
        let op = ctx.create_op(st);
        ctx.append_op(block, op);
        vals.push(ctx.result(op, 0));
    }
    let root = *vals.last().expect("a body has ops");
    append_yield(ctx, block, loc, &[root]);
    let ty = body.ops.last().expect("a body has ops").ty;
    let g = build_group_op(ctx, (at, loc), body.kind(), cost, args, block, &[ty]);
    g.results(ctx)[0]
}

impl Pass for EqsatFusion {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let rules = self.rewrites(ctx.registry()).map_err(Diagnostic::error)?;
        let mut changed = splits_to_slices(ctx, root);
        // 2:4-sparse products stay compressed where the target's GEMMs take
        // them (`tile.sparse_gemm`); elsewhere they run densely.
        if !self.sparse_gemm {
            changed |= crate::sparsify::expand_sparse_matmuls(ctx, root);
        }
        for run in runs(ctx, root) {
            changed |= self.run_one(ctx, &run, &rules);
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod report_tests {
    use aic::pass::pipeline::parse_pipeline;
    use aic::pass::{Instrumentation, PassRunner};
    use aic::syntax::parse_module;
    use aic::{Context, SourceMap};
    use std::sync::Arc;

    /// Runs eqsat-fusion on a matmul with a bias and a relu.
    fn fuse() {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let f = sm.add(
            "t.mlir",
            r#"
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %bb = graph.broadcast %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %a = graph.add %m, %bb : tensor<4x16xf32>
  %r = graph.relu %a : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
"#
            .to_string(),
        );
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let reg = crate::all_passes();
        let pm = parse_pipeline("builtin.module(eqsat-fusion)", &reg).expect("pipeline");
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, &mut ctx, m)
            .expect("fuses");
    }

    #[test]
    fn a_captured_report_is_returned_and_reporting_ends_with_it() {
        let ((), text) = super::capture_report(fuse);
        assert!(text.starts_with("eqsat-fusion: 4 ops"), "{text}");
        assert!(text.contains("kernels: "), "{text}");
        assert!(!super::REPORT.load(std::sync::atomic::Ordering::Relaxed));
        let ((), none) = super::capture_report(|| ());
        assert_eq!(none, "");
    }
}
