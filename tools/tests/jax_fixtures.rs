//! The reference interpreter against JAX on real models: every fixture that
//! `tools/export_jax_fixtures.py` exported (StableHLO text as JAX prints it,
//! `.npy` inputs and JAX's outputs) is parsed, verified, run from `@main` and
//! compared with JAX's outputs (floats within a relative and absolute
//! tolerance, integers exactly). Each fixture also round-trips through the
//! printer: printing, re-parsing and printing again gives the same text, in the
//! pretty and the generic form.

mod common;
use aic::interp::{Data, Interp, Tensor};
use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use common::main_fn;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const RTOL: f64 = 2e-4;
const ATOL: f64 = 2e-5;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jax")
}

fn fixtures() -> Vec<String> {
    common::fixture_names(&dir())
}

fn npys(name: &str, kind: &str) -> Vec<PathBuf> {
    common::npys(&dir(), name, kind)
}

fn parse(ctx: &mut Context, name: &str, text: String) -> aic::ir::Op {
    let mut sm = SourceMap::new();
    let f = sm.add(name, text);
    match parse_module(ctx, &sm, f).and_then(|m| verify(ctx, m).map(|()| m)) {
        Ok(m) => m,
        Err(d) => panic!("{name}: {}", sm.render(ctx.uniquer(), &d)),
    }
}

/// The largest violation of the tolerance (0 when within it), and where.
fn mismatch(got: &Tensor, want: &Tensor) -> Option<String> {
    if got.shape != want.shape {
        return Some(format!("shape {:?} != {:?}", got.shape, want.shape));
    }
    match (&got.data, &want.data) {
        (Data::Float(a), Data::Float(b)) => {
            a.iter().zip(b.iter()).enumerate().find_map(|(i, (x, y))| {
                let ok = (x.is_nan() && y.is_nan()) || (x - y).abs() <= ATOL + RTOL * y.abs();
                (!ok).then(|| format!("element {i}: {x} != {y}"))
            })
        }
        (Data::Int(a), Data::Int(b)) => a
            .iter()
            .zip(b.iter())
            .position(|(x, y)| x != y)
            .map(|i| format!("element {i}: {} != {}", a.get(i), b.get(i))),
        _ => Some("different element kinds".into()),
    }
}

#[test]
fn interpreter_matches_jax_on_every_fixture() {
    let names = fixtures();
    assert!(names.len() >= 9, "fixtures missing: {names:?}");
    let mut failures = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
        let name2 = name.clone();
        let r = with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let m = parse(&mut ctx, &name2, text);
            let f = main_fn(&ctx, m);
            let (ins, outs) = aic_dialects::func::function_type(&ctx, f).expect("signature");
            let inputs: Vec<Tensor> = npys(&name2, "in")
                .iter()
                .zip(&ins)
                .map(|(p, t)| aic_tools::npy::read(&ctx, &std::fs::read(p).unwrap(), *t).unwrap())
                .collect();
            assert_eq!(inputs.len(), ins.len(), "{name2}: inputs");
            let expected: Vec<Tensor> = npys(&name2, "out")
                .iter()
                .zip(&outs)
                .map(|(p, t)| aic_tools::npy::read(&ctx, &std::fs::read(p).unwrap(), *t).unwrap())
                .collect();
            assert_eq!(expected.len(), outs.len(), "{name2}: outputs");
            let got = Interp::new(&ctx)
                .call(f, inputs)
                .map_err(|e| format!("{name2}: {}", e.message))?;
            for (i, (g, w)) in got.iter().zip(&expected).enumerate() {
                if let Some(m) = mismatch(g, w) {
                    return Err(format!("{name2}: result {i}: {m}"));
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn fixtures_round_trip_through_the_printer() {
    for name in fixtures() {
        let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
        with_parser_stack(move || {
            for generic in [false, true] {
                let opts = PrintOptions {
                    generic,
                    ..PrintOptions::default()
                };
                let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
                let m = parse(&mut ctx, &name, text.clone());
                let once = print_op(&ctx, m, opts);
                let mut ctx2 = Context::new(Arc::new(aic_dialects::all_dialects()));
                let m2 = parse(&mut ctx2, &name, once.clone());
                let twice = print_op(&ctx2, m2, opts);
                assert_eq!(once, twice, "{name} (generic: {generic})");
            }
        });
    }
}

#[test]
fn a_wrong_result_is_caught() {
    // The comparison must be able to fail: a perturbed output is reported.
    let ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
    let u = ctx.uniquer();
    let ty = u.ty(aic::types::TypeKind::Tensor {
        shape: [2].into_iter().collect(),
        elem: u.ty(aic::types::TypeKind::Float(aic::float::FloatKind::F32)),
        encoding: None,
    });
    let a = Tensor::from_f64s(&ctx, ty, [1.0, 2.0]);
    let b = Tensor::from_f64s(&ctx, ty, [1.0, 2.01]);
    assert!(mismatch(&a, &a).is_none());
    assert!(mismatch(&a, &b).unwrap().contains("element 1"));
}

#[test]
fn fixtures_print_exactly_as_jax_printed_them() {
    // JAX's text is what stablehlo-opt prints, so printing it back must
    // reproduce it byte for byte (JAX leaves out the final newline).
    for name in fixtures() {
        let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
        with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let m = parse(&mut ctx, &name, text.clone());
            let printed = print_op(&ctx, m, PrintOptions::default());
            assert_eq!(printed.trim_end(), text.trim_end(), "{name}");
        });
    }
}

/// Run `pipeline` on the fixture `name` and interpret `@main` on its inputs;
/// the number of ops left in the `stablehlo` dialect comes back too.
fn run_after(
    name: &str,
    pipeline: &'static str,
) -> Result<(Vec<Tensor>, Vec<Tensor>, usize), String> {
    let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
    let name = name.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let m = parse(&mut ctx, &name, text);
        let reg = aic_passes::all_passes();
        let pm =
            aic::pass::pipeline::parse_pipeline(pipeline, &reg).map_err(|e| format!("{e:?}"))?;
        let inst = aic::pass::Instrumentation::default();
        let mut sink = std::io::sink();
        aic::pass::PassRunner::new(&inst, &mut sink)
            .run(&pm, &mut ctx, m)
            .map_err(|d| format!("{name}: {}", d.message))?;
        verify(&ctx, m).map_err(|d| format!("{name}: {}", d.message))?;
        let mut left = 0;
        ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            let n = ctx.op_name(o);
            left += usize::from(n.starts_with("stablehlo.") && n != "stablehlo.return");
        });
        let f = main_fn(&ctx, m);
        let (ins, outs) = aic_dialects::func::function_type(&ctx, f).expect("signature");
        let read = |kind: &str, tys: &[aic::Type]| -> Vec<Tensor> {
            npys(&name, kind)
                .iter()
                .zip(tys)
                .map(|(p, t)| aic_tools::npy::read(&ctx, &std::fs::read(p).unwrap(), *t).unwrap())
                .collect()
        };
        let (inputs, expected) = (read("in", &ins), read("out", &outs));
        let got = Interp::new(&ctx)
            .call(f, inputs)
            .map_err(|e| format!("{name}: {}", e.message))?;
        Ok((got, expected, left))
    })
}

#[test]
fn lowering_to_graph_keeps_every_fixture_correct() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for name in fixtures() {
        match run_after(&name, "builtin.module(stablehlo-to-graph,canonicalize)") {
            Ok((got, want, left)) => {
                report.push(format!("{name}: {left} stablehlo ops left"));
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    if let Some(m) = mismatch(g, w) {
                        failures.push(format!("{name}: result {i}: {m}"));
                    }
                }
            }
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
    // Equality saturation on the lowered graphs keeps them correct too.
    for name in fixtures() {
        match run_after(
            &name,
            "builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,canonicalize)",
        ) {
            Ok((got, want, _)) => {
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    if let Some(m) = mismatch(g, w) {
                        failures.push(format!("{name} after eqsat-fusion: result {i}: {m}"));
                    }
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // The dense models lower completely.
    for name in [
        "mlp",
        "softmax",
        "layernorm",
        "bert_layer",
        "resnet_bottleneck",
    ] {
        assert!(
            report
                .iter()
                .any(|r| r == &format!("{name}: 0 stablehlo ops left")),
            "{name} did not lower completely: {report:?}"
        );
    }
}

/// Random inputs of `tys`: floats uniform in [-2, 2), integers in [0, 4).
fn random_inputs(ctx: &Context, tys: &[aic::Type], seed: u64) -> Vec<Tensor> {
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    tys.iter()
        .map(|t| {
            let e = aic::interp::Elem::of(ctx, *t).expect("element type");
            let n = ctx.type_kind(*t).num_elements().unwrap_or(1) as usize;
            let data = match e {
                aic::interp::Elem::Float(k) => Data::from_f64s(
                    k,
                    (0..n)
                        .map(|_| (next() % 4000) as f64 / 1000.0 - 2.0)
                        .collect::<Vec<_>>(),
                ),
                _ => Data::from_i64s(e, (0..n).map(|_| (next() % 4) as i64).collect::<Vec<_>>()),
            };
            Tensor::new(ctx, *t, data)
        })
        .collect()
}

#[test]
fn fused_programs_agree_with_the_originals_on_random_inputs() {
    // Differential: each fixture as exported and after lowering, inlining and
    // fusion (with the default rule sets, without raising, and lowered to tile kernels), interpreted on the same
    // random inputs.
    let pipelines = [
        "builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,canonicalize)",
        "builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion{rules=algebraic,fusion},canonicalize)",
        "builtin.module(stablehlo-to-graph,inline,canonicalize,eqsat-fusion,fusion-to-tile,canonicalize)",
    ];
    let mut failures = Vec::new();
    let mut runs = 0;
    for (name, pipeline) in fixtures()
        .into_iter()
        .flat_map(|n| pipelines.iter().map(move |p| (n.clone(), *p)))
    {
        let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
        let name2 = name.clone();
        let r: Result<usize, String> = with_parser_stack(move || {
            let reg = Arc::new(aic_dialects::all_dialects());
            let mut a = Context::new(reg.clone());
            let ma = parse(&mut a, &name2, text.clone());
            let mut b = Context::new(reg);
            let mb = parse(&mut b, &name2, text);
            let passes = aic_passes::all_passes();
            let pm = aic::pass::pipeline::parse_pipeline(pipeline, &passes)
                .map_err(|e| format!("{e:?}"))?;
            let inst = aic::pass::Instrumentation::default();
            aic::pass::PassRunner::new(&inst, &mut std::io::sink())
                .run(&pm, &mut b, mb)
                .map_err(|d| d.message)?;
            let (fa, fb) = (main_fn(&a, ma), main_fn(&b, mb));
            let (ins, _) = aic_dialects::func::function_type(&a, fa).expect("signature");
            let mut n = 0;
            for seed in 1..=3u64 {
                let args = random_inputs(&a, &ins, seed * 0x9e37_79b9);
                let want = Interp::new(&a)
                    .call(fa, args.clone())
                    .map_err(|e| e.message)?;
                let got = Interp::new(&b).call(fb, args).map_err(|e| e.message)?;
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    if let Some(m) = mismatch(g, w) {
                        return Err(format!("{name2} seed {seed} result {i}: {m}"));
                    }
                }
                n += 1;
            }
            Ok(n)
        });
        match r {
            Ok(n) => runs += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(runs, 3 * pipelines.len() * fixtures().len());
}
