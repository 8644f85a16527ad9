//! Property test: every rewrite of the algebraic, raising and fusion rule sets, and every fused
//! alternative, keeps types. The JAX fixtures are lowered to graph ops, each
//! run becomes an e-graph, it is saturated and fusion grown; afterwards no
//! union joined classes of different types, and every node whose type can be
//! inferred has its class's type.

use aic::eqsat::{self, INPUT};
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use aic_passes::eqsat_fusion::natives::NATIVES;
use aic_passes::eqsat_fusion::{ALGEBRAIC, FUSION, RAISING, cost, fuse};
use std::path::Path;
use std::sync::Arc;

#[test]
fn rewrites_and_fusions_preserve_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/tests/fixtures/jax");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 9);
    let mut classes_checked = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        classes_checked += with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let id = sm.add(&name, text);
            let m = parse_module(&mut ctx, &sm, id).expect("fixture parses");
            let reg = aic_passes::all_passes();
            let pm = parse_pipeline(
                "builtin.module(stablehlo-to-graph,inline,canonicalize)",
                &reg,
            )
            .expect("pipeline");
            PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                .run(&pm, &mut ctx, m)
                .expect("lowering");
            let dialects = ctx.registry().clone();
            let known_op = |op: &str| dialects.op(op).is_some();
            let mut rules =
                eqsat::parse_rules_with(ALGEBRAIC, &NATIVES, &known_op).expect("rules parse");
            rules.extend(
                eqsat::parse_rules_with(RAISING, &NATIVES, &known_op).expect("raising rules parse"),
            );
            rules.extend(
                eqsat::parse_rules_with(FUSION, &NATIVES, &known_op).expect("fusion rules parse"),
            );
            let mut checked = 0;
            let mut blocks = Vec::new();
            ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
                if ctx.op_name(op) == "func.func" {
                    blocks.extend(ctx.regions(op).first().and_then(|r| ctx.entry_block(*r)));
                }
            });
            for b in blocks {
                let fb = eqsat::from_block(&ctx, b, aic_dialects::graph::verify::infer_type);
                let mut egraph = eqsat::runner(fb.egraph)
                    .with_iter_limit(10)
                    .run(&rules)
                    .egraph;
                let cache = cost::Cache::default();
                let target = cost::TARGETS[0];
                let mut best = |g: &eqsat::Graph, n: &eqsat::Node| {
                    cost::KernelTime {
                        egraph: g,
                        target,
                        cache: &cache,
                    }
                    .node_time(n)
                };
                let (_, hit) = fuse::grow(
                    &mut egraph,
                    4,
                    50_000,
                    target.on_chip_bytes,
                    &mut best,
                    &cache,
                    &[],
                );
                assert!(!hit, "{name}: growth hit the node limit");
                assert_eq!(
                    egraph.analysis.conflicts, 0,
                    "{name}: a union joined different types"
                );
                let u = egraph.analysis.uniquer.clone();
                for class in egraph.classes() {
                    let Some(t) = class.data else { continue };
                    for n in &class.nodes {
                        if n.op.as_str() == INPUT {
                            continue;
                        }
                        if let Some(nt) = n.ty {
                            assert_eq!(nt, t, "{name}: {n} has another type than its class");
                        }
                        if n.op.as_str() == fuse::GROUP {
                            let body = fuse::Body::from_attr(&u, n.attrs.expect("body"))
                                .expect("body decodes");
                            assert_eq!(
                                body.ops.last().map(|o| o.ty),
                                Some(t),
                                "{name}: fused body type"
                            );
                            continue;
                        }
                        let kids: Option<Vec<aic::Type>> =
                            n.children.iter().map(|c| egraph[*c].data).collect();
                        if let Some(inferred) = kids.and_then(|k| {
                            aic_dialects::graph::verify::infer_type(&u, n.op.as_str(), n.attrs, &k)
                        }) {
                            assert_eq!(inferred, t, "{name}: {n} infers another type");
                        }
                        checked += 1;
                    }
                }
            }
            checked
        });
    }
    assert!(
        classes_checked > 500,
        "only {classes_checked} nodes checked"
    );
}
