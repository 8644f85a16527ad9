//! Differential tests of what `spmd-partition` now reads and makes:
//! backward propagation (shardings given only on results, on a later
//! constraint, on a row-parallel weight), user priorities, sharding groups,
//! GSPMD's `mhlo.sharding` strings, and local slices at a device's
//! partition id. Each program, for 2 and 4 partitions and shapes that are
//! not powers of two, runs on random inputs three ways: unpartitioned in the
//! interpreter (the reference), partitioned in the interpreter (one process
//! per device), and partitioned on the host target as a plan (one arena per
//! device, collectives in memory, no interpreter fallback). All three must
//! agree.

// Only `main_fn` and `mismatch` of the fixture tests' shared module are needed here.
#[allow(dead_code)]
mod common;
use aic::SourceMap;
use aic::interp::{Data, Interp, Tensor};
use aic::ir::{Context, Op, WalkOrder};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use common::main_fn;
use std::sync::Arc;

const RTOL: f64 = 1e-4;
const ATOL: f64 = 1e-5;

fn mismatch(got: &Tensor, want: &Tensor) -> Option<String> {
    common::mismatch(got, want, RTOL, ATOL)
}

/// Random floats in [-1, 1) for each of `tys`.
fn random_inputs(ctx: &Context, tys: &[aic::Type], seed: u64) -> Vec<Tensor> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    tys.iter()
        .map(|t| {
            let e = aic::interp::Elem::of(ctx, *t).expect("element type");
            let aic::interp::Elem::Float(k) = e else {
                panic!("float inputs only")
            };
            let n = ctx.type_kind(*t).num_elements().unwrap_or(1) as usize;
            let data = (0..n)
                .map(|_| (next() % 2000) as f64 / 1000.0 - 1.0)
                .collect::<Vec<_>>();
            Tensor::new(ctx, *t, Data::from_f64s(k, data))
        })
        .collect()
}

/// `template` with each `$NAME` of `vars` replaced.
fn fill(template: &str, vars: &[(&str, i64)]) -> String {
    let mut s = template.to_string();
    // Longest names first, so `$RR` is not read as `$R` then `R`.
    let mut vars = vars.to_vec();
    vars.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    for (k, v) in vars {
        s = s.replace(&format!("${k}"), &v.to_string());
    }
    s
}

/// A program: its name, its text for a mesh of `n` devices.
type Program = (&'static str, fn(i64) -> String);

fn mesh(n: i64) -> &'static str {
    if n == 2 {
        r#"sdy.mesh @m = <["x"=2]>"#
    } else {
        r#"sdy.mesh @m = <["x"=2, "y"=2]>"#
    }
}

/// `"x"` for two devices, `"x", "y"` for four: all devices along one dim.
fn all_axes(n: i64) -> &'static str {
    if n == 2 { r#""x""# } else { r#""x", "y""# }
}

fn programs() -> Vec<Program> {
    vec![
        ("result_only", |n| {
            // Only the result is annotated: the GEMM's rows follow it back.
            fill(
                &format!(
                    r#"{}
func.func @main(%x: tensor<$Rx5xf32>, %w: tensor<5x3xf32>, %b: tensor<3xf32>) -> (tensor<$Rx3xf32> {{sdy.sharding = #sdy.sharding<@m, [{{{}}}, {{}}]>}}) {{
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<$Rx5xf32>, tensor<5x3xf32>) -> tensor<$Rx3xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<$Rx3xf32>
  %s = stablehlo.add %h, %bb : tensor<$Rx3xf32>
  %t = stablehlo.tanh %s : tensor<$Rx3xf32>
  return %t : tensor<$Rx3xf32>
}}"#,
                    mesh(n),
                    all_axes(n)
                ),
                &[("R", 3 * n)],
            )
        }),
        ("row_parallel_weight_only", |n| {
            // Only w2 is annotated: w1 becomes column-parallel backward.
            fill(
                &format!(
                    r#"{}
func.func @main(%x: tensor<3x5xf32>, %w1: tensor<5x$Fxf32>, %w2: tensor<$Fx5xf32> {{sdy.sharding = #sdy.sharding<@m, [{{{}}}, {{}}]>}}) -> tensor<3x5xf32> {{
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<3x5xf32>, tensor<5x$Fxf32>) -> tensor<3x$Fxf32>
  %a = stablehlo.tanh %h : tensor<3x$Fxf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<3x$Fxf32>, tensor<$Fx5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}}"#,
                    mesh(n),
                    all_axes(n)
                ),
                &[("F", 3 * n)],
            )
        }),
        ("priorities", |n| {
            fill(
                &format!(
                    r#"{}
func.func @main(%a: tensor<$Rx$Rxf32>) -> (tensor<$Rx$Rxf32> {{sdy.sharding = #sdy.sharding<@m, [{{"x"}}p1, {{}}]>}}, tensor<$Rx$Rxf32> {{sdy.sharding = #sdy.sharding<@m, [{{}}, {{"x"}}p0]>}}) {{
  %e = stablehlo.exponential %a : tensor<$Rx$Rxf32>
  %n = stablehlo.negate %e : tensor<$Rx$Rxf32>
  %m = stablehlo.abs %e : tensor<$Rx$Rxf32>
  return %n, %m : tensor<$Rx$Rxf32>, tensor<$Rx$Rxf32>
}}"#,
                    mesh(n)
                ),
                &[("R", 6)],
            )
        }),
        ("sharding_group", |n| {
            fill(
                &format!(
                    r#"{}
func.func @main(%a: tensor<$Rx3xf32> {{sdy.sharding = #sdy.sharding<@m, [{{{}}}, {{}}]>}}, %b: tensor<$Rx3xf32>, %c: tensor<$Rx3xf32>) -> tensor<$Rx3xf32> {{
  %e = stablehlo.exponential %b : tensor<$Rx3xf32>
  sdy.sharding_group %a group_id=0 : tensor<$Rx3xf32>
  sdy.sharding_group %e group_id=0 : tensor<$Rx3xf32>
  %s = stablehlo.add %e, %c : tensor<$Rx3xf32>
  %t = stablehlo.multiply %s, %a : tensor<$Rx3xf32>
  return %t : tensor<$Rx3xf32>
}}"#,
                    mesh(n),
                    all_axes(n)
                ),
                &[("R", 5 * n)],
            )
        }),
        ("constraint_slices_a_replicated_argument", |n| {
            // The argument is closed replicated: each device slices its
            // rows at an offset read by its partition id.
            fill(
                &format!(
                    r#"{}
func.func @main(%a: tensor<$Rx3xf32> {{sdy.sharding = #sdy.sharding<@m, [{{}}, {{}}]>}}) -> tensor<$Rx3xf32> {{
  %e = stablehlo.exponential %a : tensor<$Rx3xf32>
  %c = sdy.sharding_constraint %e <@m, [{{{}}}, {{}}]> : tensor<$Rx3xf32>
  %n = stablehlo.negate %c : tensor<$Rx3xf32>
  return %n : tensor<$Rx3xf32>
}}"#,
                    mesh(n),
                    all_axes(n)
                ),
                &[("R", 3 * n)],
            )
        }),
        ("reduction_result_only", |n| {
            // A row sum whose result alone is sharded: the rows of the
            // input follow it back through the reduce.
            fill(
                &format!(
                    r#"{}
func.func @main(%a: tensor<$Rx7xf32>) -> (tensor<$Rxf32> {{sdy.sharding = #sdy.sharding<@m, [{{{}}}]>}}) {{
  %e = stablehlo.exponential %a : tensor<$Rx7xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<$Rx7xf32>, tensor<f32>) -> tensor<$Rxf32>
  return %s : tensor<$Rxf32>
}}"#,
                    mesh(n),
                    all_axes(n)
                ),
                &[("R", 3 * n)],
            )
        }),
        ("gspmd_megatron", |n| {
            // GSPMD's strings: column- then row-parallel GEMMs.
            fill(
                r#"module attributes {mhlo.num_partitions = $N : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<3x5xf32> {mhlo.sharding = "{replicated}"}, %w1: tensor<5x$Fxf32> {mhlo.sharding = "{devices=[1,$N]<=[$N]}"}, %w2: tensor<$Fx5xf32> {mhlo.sharding = "{devices=[$N,1]<=[$N]}"}) -> (tensor<3x5xf32> {mhlo.sharding = "{replicated}"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<3x5xf32>, tensor<5x$Fxf32>) -> tensor<3x$Fxf32>
    %a = stablehlo.tanh %h : tensor<3x$Fxf32>
    %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<3x$Fxf32>, tensor<$Fx5xf32>) -> tensor<3x5xf32>
    return %y : tensor<3x5xf32>
  }
}"#,
                &[("N", n), ("F", 3 * n)],
            )
        }),
        ("gspmd_transposed_and_partially_replicated", |n| {
            // Rows over every device, columns over half of them
            // (replicated along the rest), and a constraint.
            let (cols, reps) = if n == 2 { (2, 1) } else { (2, 2) };
            let tile = if reps == 1 {
                format!("{{devices=[1,{cols}]<=[{n}]}}")
            } else {
                format!(
                    "{{devices=[1,{cols},{reps}]<=[{reps},{cols}]T(1,0) last_tile_dim_replicate}}"
                )
            };
            fill(
                &format!(
                    r#"module attributes {{mhlo.num_partitions = $N : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func public @main(%x: tensor<$Rx3xf32> {{mhlo.sharding = "{{devices=[$N,1]<=[$N]}}"}}, %w: tensor<3x$Cxf32> {{mhlo.sharding = "{tile}"}}) -> (tensor<$Rx$Cxf32> {{mhlo.sharding = "{{devices=[1,$N]<=[$N]}}"}}) {{
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<$Rx3xf32>, tensor<3x$Cxf32>) -> tensor<$Rx$Cxf32>
    %c = stablehlo.custom_call @Sharding(%h) {{mhlo.sharding = "{{replicated}}"}} : (tensor<$Rx$Cxf32>) -> tensor<$Rx$Cxf32>
    %t = stablehlo.sine %c : tensor<$Rx$Cxf32>
    return %t : tensor<$Rx$Cxf32>
  }}
}}"#
                ),
                &[("N", n), ("R", 5 * n), ("C", if n == 2 { 6 } else { 12 })],
            )
        }),
    ]
}

/// The partitioned module's text, the unpartitioned run's results, the
/// partitioned interpreter run's, the entry's global types and the
/// partitioned argument types.
struct Runs {
    text: String,
    inputs: Vec<Tensor>,
    want: Vec<Tensor>,
    interp: Vec<Tensor>,
    ctx: Context,
    local_args: Vec<Vec<i64>>,
    collectives: Vec<String>,
}

fn collectives(ctx: &Context, m: Op) -> Vec<String> {
    let mut out = Vec::new();
    ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
        let n = ctx.op_name(o);
        if n.starts_with("stablehlo.all_") || n == "stablehlo.reduce_scatter" {
            out.push(n.trim_start_matches("stablehlo.").to_string());
        }
    });
    out
}

fn run(name: &str, text: String, seed: u64) -> Result<Runs, String> {
    let name = name.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let file = sm.add(&name, text);
        let m = parse_module(&mut ctx, &sm, file)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .map_err(|d| sm.render(ctx.uniquer(), &d))?;
        let f = main_fn(&ctx, m);
        let (ins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
        let inputs = random_inputs(&ctx, &ins, seed);
        let want = Interp::new(&ctx)
            .call(f, inputs.clone())
            .map_err(|e| format!("unpartitioned: {}", e.message))?;
        aic_tools::compile::run_pipeline(
            &mut ctx,
            m,
            "builtin.module(inline,spmd-partition,canonicalize)",
        )
        .map_err(|e| format!("partitioning: {e}"))?;
        verify(&ctx, m).map_err(|d| d.message)?;
        let f = main_fn(&ctx, m);
        let interp =
            aic_dialects::sdy::layout::run_partitioned(&Interp::new(&ctx), f, inputs.clone())
                .map_err(|e| format!("partitioned: {}", e.message))?;
        let local_args = aic_dialects::func::function_type(&ctx, f)
            .expect("signature")
            .0
            .iter()
            .map(|t| {
                ctx.type_kind(*t)
                    .shape()
                    .map(<[i64]>::to_vec)
                    .unwrap_or_default()
            })
            .collect();
        let text = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
        let collectives = collectives(&ctx, m);
        Ok(Runs {
            text,
            inputs,
            want,
            interp,
            ctx,
            local_args,
            collectives,
        })
    })
}

/// The partitioned program run by `aic-run --target=host`, its results.
fn host(name: &str, r: &Runs) -> Result<Vec<Tensor>, String> {
    let tmp = std::env::temp_dir().join(format!("aic-propagation-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
    let src = tmp.join("p.mlir");
    std::fs::write(&src, &r.text).map_err(|e| e.to_string())?;
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_aic-run"));
    cmd.arg("--target=host").arg("--entry=@main");
    for (i, t) in r.inputs.iter().enumerate() {
        let p = tmp.join(format!("in{i}.npy"));
        std::fs::write(&p, aic_tools::npy::write(&r.ctx, t)?).map_err(|e| e.to_string())?;
        cmd.arg(format!("--input={}", p.display()));
    }
    let out = tmp.join("out");
    cmd.arg(format!("--output-dir={}", out.display())).arg(&src);
    let o = cmd.output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    let result = if !o.status.success() {
        Err(format!("aic-run failed: {stderr}"))
    } else if stderr.contains("warning") {
        Err(format!("ran without a plan: {stderr}"))
    } else {
        r.want
            .iter()
            .enumerate()
            .map(|(k, w)| {
                let bytes =
                    std::fs::read(out.join(format!("result{k}.npy"))).map_err(|e| e.to_string())?;
                aic_tools::npy::read(&r.ctx, &bytes, w.ty)
            })
            .collect()
    };
    std::fs::remove_dir_all(&tmp).ok();
    result
}

#[test]
fn partitioned_programs_equal_the_unpartitioned_one_in_the_interpreter_and_on_the_host() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for n in [2, 4] {
        for (seed, (name, program)) in programs().into_iter().enumerate() {
            let label = format!("{name} ({n} partitions)");
            let r = match run(name, program(n), seed as u64 + 17 * n as u64) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{label}: {e}"));
                    continue;
                }
            };
            let host = host(&format!("{name}-{n}"), &r);
            for (what, got) in [("interpreter", Ok(r.interp.clone())), ("host", host)] {
                match got {
                    Err(e) => failures.push(format!("{label}: {what}: {e}")),
                    Ok(got) => {
                        if got.len() != r.want.len() {
                            failures.push(format!("{label}: {what}: {} results", got.len()));
                        }
                        for (k, (g, w)) in got.iter().zip(&r.want).enumerate() {
                            if let Some(m) = mismatch(g, w) {
                                failures.push(format!("{label}: {what} result {k}: {m}"));
                            }
                        }
                    }
                }
            }
            runs += 1;
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(runs, 2 * programs().len());
}

#[test]
fn backward_propagation_shards_what_the_user_left_open() {
    for n in [2, 4] {
        let p = |name: &str| {
            let (_, f) = programs().into_iter().find(|(k, _)| *k == name).unwrap();
            run(name, f(n), 1).unwrap()
        };
        // The rows of %x follow the result: each device holds 3 of them,
        // and nothing is exchanged.
        let r = p("result_only");
        assert_eq!(r.local_args[0], vec![3, 5], "{}", r.text);
        assert!(r.collectives.is_empty(), "{}", r.text);
        // w1 becomes column-parallel: one all_reduce, as Megatron's.
        let r = p("row_parallel_weight_only");
        assert_eq!(r.local_args[1], vec![5, 3], "{}", r.text);
        assert_eq!(r.collectives, vec!["all_reduce"], "{}", r.text);
        // The reduce's input rows follow its result.
        let r = p("reduction_result_only");
        assert_eq!(r.local_args[0], vec![3, 7], "{}", r.text);
        assert!(r.collectives.is_empty(), "{}", r.text);
        // Group members share the sharded argument's sharding.
        let r = p("sharding_group");
        assert_eq!(r.local_args, vec![vec![5, 3]; 3], "{}", r.text);
        let r = p("gspmd_megatron");
        assert_eq!(r.collectives, vec!["all_reduce"], "{}", r.text);
    }
}

#[test]
fn a_wrong_result_is_caught() {
    // The comparison can fail: a perturbed result is reported.
    let (name, f) = programs().remove(0);
    let mut r = run(name, f(2), 3).unwrap();
    assert!(mismatch(&r.interp[0], &r.want[0]).is_none());
    if let Data::Float(x) = &mut r.interp[0].data {
        let v = x.get(4);
        x.set(4, v + 1e-3);
    }
    assert!(mismatch(&r.interp[0], &r.want[0]).is_some());
}
