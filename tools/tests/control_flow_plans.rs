//! Plans with control flow, run as a bundle carries them: a module compiled
//! for the host target (`aic-translate --target=host --emit=bundle`), its
//! manifest read back and validated, `@main`'s plan run over a host arena
//! with the bundle's host program JIT-compiled for its kernels, no
//! interpreter at run time. Every JAX fixture is checked against JAX's
//! outputs; programs of loops and choices against the reference interpreter
//! on random trip counts and branch numbers (out of range included).
#![cfg(feature = "llvm")]

mod common;
use aic::SourceMap;
use aic::interp::{Data, Interp, Tensor};
use aic::ir::{Context, Op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::types::Type;
use aic::verifier::verify;
use aic_runtime::KernelInfo;
use aic_runtime::bundle::Bundle;
use aic_runtime::plan::{FuncPlan, Plan, Step, preorder};
use aic_tools::compile::{from_bytes, to_bytes};
use common::rng::Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn parse(ctx: &mut Context, name: &str, text: String) -> Op {
    let mut sm = SourceMap::new();
    let f = sm.add(name, text);
    match parse_module(ctx, &sm, f).and_then(|m| verify(ctx, m).map(|()| m)) {
        Ok(m) => m,
        Err(d) => panic!("{name}: {}", sm.render(ctx.uniquer(), &d)),
    }
}

/// A module compiled to a host bundle and loaded as a runner would: the
/// validated plan of `@main` and the JIT-compiled host program.
struct Loaded {
    plan: Plan,
    kernels: Vec<KernelInfo>,
    host: aic_llvm::HostModule,
}

impl Loaded {
    fn new(name: &str, text: &str) -> Loaded {
        let bytes = aic_tools::translate::Translate {
            target: "host".into(),
            emit: "bundle".into(),
            ..Default::default()
        }
        .run(name, text.to_string())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let bundle = Bundle::from_bytes(&bytes).unwrap();
        bundle.manifest.validate_plans().unwrap();
        let plan = match bundle.manifest.plan("main") {
            Some(FuncPlan::Planned(p)) => p.clone(),
            other => panic!("{name}: @main is not planned: {other:#?}"),
        };
        let mut hctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let hm = parse(&mut hctx, "<bundle>", bundle.manifest.host.clone());
        let host = aic_llvm::HostModule::new(&hctx, hm).unwrap();
        Loaded {
            plan,
            kernels: bundle.manifest.kernels.clone(),
            host,
        }
    }

    /// The plan run on `inputs` (bytes per argument).
    fn run(&self, inputs: &[Vec<u8>]) -> Vec<Vec<u8>> {
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let mut launch = |k: &KernelInfo, bufs: &mut [Vec<u8>]| {
            let mut s: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
            self.host.run(&k.name, &mut s)
        };
        self.plan
            .run_host(&self.kernels, &refs, &mut launch, &mut |_| {})
            .unwrap()
    }
}

/// Where `got` differs from `want`: floats beyond `atol + rtol · |want|`,
/// integers at all.
fn differs(got: &Tensor, want: &Tensor, rtol: f64, atol: f64) -> Option<String> {
    if got.shape != want.shape {
        return Some(format!("shape {:?} != {:?}", got.shape, want.shape));
    }
    match (&got.data, &want.data) {
        (Data::Int(a), Data::Int(b)) => (0..a.len())
            .find(|i| a.get(*i) != b.get(*i))
            .map(|i| format!("element {i}: {} != {}", a.get(i), b.get(i))),
        _ => common::mismatch(got, want, rtol, atol),
    }
}

/// `@main`'s argument and result types.
fn signature(ctx: &Context, m: Op) -> (Vec<Type>, Vec<Type>) {
    aic_dialects::func::function_type(ctx, common::main_fn(ctx, m)).expect("a signature")
}

fn jax_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jax")
}

#[test]
fn every_jax_fixture_runs_as_a_host_bundle_plan_equal_to_jax() {
    let dir = jax_dir();
    let names = common::fixture_names(&dir);
    assert!(names.contains(&"control_flow".to_string()), "{names:?}");
    for name in names {
        let dir = dir.clone();
        with_parser_stack(move || {
            let text = std::fs::read_to_string(dir.join(format!("{name}.mlir"))).unwrap();
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let m = parse(&mut ctx, &name, text.clone());
            let (ins, outs) = signature(&ctx, m);
            let read = |kind: &str, tys: &[Type]| -> Vec<Tensor> {
                let files = common::npys(&dir, &name, kind);
                assert_eq!(files.len(), tys.len(), "{name}: {kind} files");
                files
                    .iter()
                    .zip(tys)
                    .map(|(p, t)| {
                        aic_tools::npy::read(&ctx, &std::fs::read(p).unwrap(), *t).unwrap()
                    })
                    .collect()
            };
            let inputs: Vec<Vec<u8>> = read("in", &ins).iter().map(|t| to_bytes(&ctx, t)).collect();
            let want = read("out", &outs);
            let loaded = Loaded::new(&name, &text);
            let got = loaded.run(&inputs);
            for (i, ((g, w), ty)) in got.iter().zip(&want).zip(&outs).enumerate() {
                let g = from_bytes(&ctx, *ty, g);
                if let Some(d) = differs(&g, w, 2e-4, 2e-5) {
                    panic!("{name}: result {i}: {d}");
                }
            }
        });
    }
}

/// A loop whose trip count is an argument, carrying a counter, two values
/// swapped each iteration and a sum; then a three-way choice by another
/// argument (one branch yielding a value from outside it), and an `if` on
/// its sign.
const LOOP_AND_CHOICES: &str = r#"
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>, %n: tensor<i32>, %k: tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i32>, tensor<8xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %c0, %x = %a, %y = %b, %s = %b) : tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %h = stablehlo.constant dense<5.000000e-01> : tensor<8xf32>
    %t = stablehlo.multiply %x, %h : tensor<8xf32>
    %u = stablehlo.add %s, %t : tensor<8xf32>
    stablehlo.return %j, %y, %x, %u : tensor<i32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  %c = "stablehlo.case"(%k) ({
    %e = stablehlo.exponential %r#1 : tensor<8xf32>
    stablehlo.return %e : tensor<8xf32>
  }, {
    %d = stablehlo.subtract %r#1, %r#2 : tensor<8xf32>
    stablehlo.return %d : tensor<8xf32>
  }, {
    stablehlo.return %r#3 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %pk = stablehlo.compare GT, %k, %z, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %f = "stablehlo.if"(%pk) ({
    %m = stablehlo.negate %c : tensor<8xf32>
    stablehlo.return %m : tensor<8xf32>
  }, {
    stablehlo.return %c : tensor<8xf32>
  }) : (tensor<i1>) -> tensor<8xf32>
  return %c, %f, %r#0, %r#3 : tensor<8xf32>, tensor<8xf32>, tensor<i32>, tensor<8xf32>
}
"#;

/// Nested loops: `for i in 0..n { for j in 0..i { v = v * 0.5 + w } }`,
/// the inner trip count the outer counter.
const NESTED_LOOPS: &str = r#"
func.func @main(%v0: tensor<2x3xf32>, %w: tensor<2x3xf32>, %n: tensor<i32>, %k: tensor<i32>) -> (tensor<2x3xf32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %v0, %cnt = %k) : tensor<i32>, tensor<2x3xf32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %q:3 = stablehlo.while(%j = %z, %u = %v, %c = %cnt) : tensor<i32>, tensor<2x3xf32>, tensor<i32>
    cond {
      %p2 = stablehlo.compare LT, %j, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p2 : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j2 = stablehlo.add %j, %one : tensor<i32>
      %c2 = stablehlo.add %c, %one : tensor<i32>
      %h = stablehlo.constant dense<5.000000e-01> : tensor<2x3xf32>
      %t = stablehlo.multiply %u, %h : tensor<2x3xf32>
      %u2 = stablehlo.add %t, %w : tensor<2x3xf32>
      stablehlo.return %j2, %u2, %c2 : tensor<i32>, tensor<2x3xf32>, tensor<i32>
    }
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %q#1, %q#2 : tensor<i32>, tensor<2x3xf32>, tensor<i32>
  }
  return %r#1, %r#2 : tensor<2x3xf32>, tensor<i32>
}
"#;

/// `text`'s plan against the interpreter on `draws` random calls: float
/// arguments in [-2, 2), the first integer argument in `n` and the second
/// in `k`.
fn differential(name: &str, text: &'static str, n: (i64, i64), k: (i64, i64), draws: usize) {
    let name = name.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let m = parse(&mut ctx, &name, text.to_string());
        let (ins, outs) = signature(&ctx, m);
        let loaded = Loaded::new(&name, text);
        let steps = preorder(&loaded.plan.steps).unwrap();
        assert!(
            steps.iter().any(|s| matches!(s, Step::While { .. })),
            "{name}: {:#?}",
            loaded.plan
        );
        let f = common::main_fn(&ctx, m);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for draw in 0..draws {
            let mut ints = [n, k].into_iter();
            let args: Vec<Tensor> = ins
                .iter()
                .map(|ty| {
                    let count: i64 = ctx.type_kind(*ty).shape().map_or(1, |s| s.iter().product());
                    if ctx.type_kind(*ty).shape().is_some_and(|s| s.is_empty()) {
                        let (lo, hi) = ints.next().expect("two integer arguments");
                        Tensor::from_i64s(&ctx, *ty, [rng.int(lo, hi)])
                    } else {
                        let vals: Vec<f64> = (0..count)
                            .map(|_| rng.int(-2000, 1999) as f64 / 1000.0)
                            .collect();
                        Tensor::from_f64s(&ctx, *ty, vals)
                    }
                })
                .collect();
            let want = Interp::new(&ctx)
                .call(f, args.clone())
                .unwrap_or_else(|e| panic!("{name}: {}", e.message));
            let bytes: Vec<Vec<u8>> = args.iter().map(|t| to_bytes(&ctx, t)).collect();
            let got = loaded.run(&bytes);
            for (i, ((g, w), ty)) in got.iter().zip(&want).zip(&outs).enumerate() {
                let g = from_bytes(&ctx, *ty, g);
                if let Some(d) = differs(&g, w, 1e-5, 1e-6) {
                    let scalars: Vec<String> = args
                        .iter()
                        .filter(|a| a.shape.is_empty())
                        .map(|a| format!("{:?}", a.to_i64s()))
                        .collect();
                    panic!("{name}, draw {draw} (integers {scalars:?}): result {i}: {d}");
                }
            }
        }
    });
}

#[test]
fn loops_and_choices_equal_the_interpreter_on_random_trip_counts_and_branches() {
    // Trip counts from none (and negative) to 7; branch numbers from -3
    // (out of range: the last branch) to 5 (out of range too).
    differential(
        "loop_and_choices.mlir",
        LOOP_AND_CHOICES,
        (-2, 7),
        (-3, 5),
        24,
    );
}

#[test]
fn nested_loops_equal_the_interpreter() {
    differential("nested_loops.mlir", NESTED_LOOPS, (-1, 5), (-100, 100), 10);
}

#[test]
fn a_wrong_result_is_caught() {
    // The comparison can fail: a perturbed loop result is reported.
    with_parser_stack(|| {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let m = parse(&mut ctx, "t.mlir", LOOP_AND_CHOICES.to_string());
        let (_, outs) = signature(&ctx, m);
        let a = Tensor::from_f64s(&ctx, outs[0], vec![1.0; 8]);
        let mut b = a.clone();
        if let Data::Float(f) = &mut b.data {
            f.set(3, 1.001);
        }
        assert!(differs(&a, &a, 1e-5, 1e-6).is_none());
        assert!(differs(&b, &a, 1e-5, 1e-6).is_some());
        let i = Tensor::from_i64s(&ctx, outs[2], [3]);
        let j = Tensor::from_i64s(&ctx, outs[2], [4]);
        assert!(differs(&i, &j, 1e-5, 1e-6).is_some());
    });
}

#[test]
fn aic_run_runs_the_control_flow_and_scalar_loss_fixtures_with_no_interpreter() {
    // JAX's loop and switch, and a data-parallel loss whose all-reduced sum
    // is divided on one element: both plans, no op left to the interpreter.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for (dir, name) in [
        ("jax", "control_flow"),
        ("sharded", "data_parallel_loss_dp4"),
    ] {
        let dir = root.join(dir);
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_aic-run"));
        cmd.arg("--target=host")
            .arg(dir.join(format!("{name}.mlir")))
            .arg("--entry=@main")
            .arg("--check");
        for p in common::npys(&dir, name, "in") {
            cmd.arg(format!("--input={}", p.display()));
        }
        let out = cmd.output().expect("aic-run runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && err.contains("check: ok"),
            "{name}: {err}"
        );
        assert!(!err.contains("interpreter"), "{name}: {err}");
    }
}
