//! Sharded JAX programs (`tools/export_sharded_fixtures.py`: `jax.jit` over
//! a mesh with `NamedSharding`s, and `jax.shard_map`; 2 and 4 partitions)
//! against JAX: the unpartitioned program in the interpreter (a
//! `manual_computation` runs once per device), and the per-device program
//! that `inline,spmd-partition,canonicalize` makes, run as one interpreter
//! process per device with in-memory collectives, must both give JAX's
//! outputs; the partitioned programs hold the collectives Megatron-style
//! tensor parallelism needs and no more.

mod common;
use aic::SourceMap;
use aic::interp::{Data, Interp, Tensor};
use aic::ir::{Context, Op, WalkOrder};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use common::main_fn;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const RTOL: f64 = 2e-4;
const ATOL: f64 = 5e-5;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sharded")
}

fn fixtures() -> Vec<String> {
    common::fixture_names(&dir())
}

fn npys(name: &str, kind: &str) -> Vec<PathBuf> {
    common::npys(&dir(), name, kind)
}

fn mismatch(got: &Tensor, want: &Tensor) -> Option<String> {
    common::mismatch(got, want, RTOL, ATOL)
}

/// Collectives in the partitioned program, by name.
fn collectives(ctx: &Context, m: Op) -> Vec<String> {
    let mut out = Vec::new();
    ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
        let n = ctx.op_name(o);
        if [
            "stablehlo.all_reduce",
            "stablehlo.all_gather",
            "stablehlo.reduce_scatter",
            "stablehlo.all_to_all",
            "stablehlo.collective_permute",
        ]
        .contains(&n)
        {
            out.push(n.trim_start_matches("stablehlo.").to_string());
        }
    });
    out.sort();
    out
}

/// JAX's outputs, the unpartitioned run's, the partitioned run's, and the
/// partitioned program's collectives.
type Runs = (Vec<Tensor>, Vec<Tensor>, Vec<Tensor>, Vec<String>);

/// The partitioned module of fixture `name`, as text.
fn partitioned_text(name: &str) -> String {
    let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
    let name = name.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let file = sm.add(&name, text);
        let m = parse_module(&mut ctx, &sm, file).unwrap();
        aic_tools::compile::run_pipeline(
            &mut ctx,
            m,
            "builtin.module(inline,spmd-partition,canonicalize)",
        )
        .unwrap();
        aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default())
    })
}

fn run(name: &str) -> Result<Runs, String> {
    let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
    let name = name.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let file = sm.add(&name, text);
        let m = parse_module(&mut ctx, &sm, file)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .map_err(|d| sm.render(ctx.uniquer(), &d))?;
        let f = main_fn(&ctx, m);
        let (ins, outs) = aic_dialects::func::function_type(&ctx, f).expect("signature");
        let read = |p: &PathBuf, t| aic_tools::npy::read(&ctx, &std::fs::read(p).unwrap(), t);
        let inputs: Vec<Tensor> = npys(&name, "in")
            .iter()
            .zip(&ins)
            .map(|(p, t)| read(p, *t))
            .collect::<Result<_, _>>()?;
        let want: Vec<Tensor> = npys(&name, "out")
            .iter()
            .zip(&outs)
            .map(|(p, t)| read(p, *t))
            .collect::<Result<_, _>>()?;
        let unsharded = Interp::new(&ctx)
            .call(f, inputs.clone())
            .map_err(|e| format!("unpartitioned: {}", e.message))?;
        aic_tools::compile::run_pipeline(
            &mut ctx,
            m,
            "builtin.module(inline,spmd-partition,canonicalize)",
        )?;
        verify(&ctx, m).map_err(|d| d.message)?;
        let f = main_fn(&ctx, m);
        let it = Interp::new(&ctx);
        let sharded = aic_dialects::sdy::layout::run_partitioned(&it, f, inputs)
            .map_err(|e| format!("partitioned: {}", e.message))?;
        Ok((want, unsharded, sharded, collectives(&ctx, m)))
    })
}

#[test]
fn partitioned_programs_equal_jax_and_the_unpartitioned_run() {
    let names = fixtures();
    assert!(names.len() >= 10, "fixtures missing: {names:?}");
    let mut failures = Vec::new();
    for name in &names {
        match run(name) {
            Err(e) => failures.push(format!("{name}: {e}")),
            Ok((want, unsharded, sharded, _)) => {
                for (what, got) in [("unpartitioned", &unsharded), ("partitioned", &sharded)] {
                    if got.len() != want.len() {
                        failures.push(format!("{name}: {what}: {} results", got.len()));
                    }
                    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                        if let Some(m) = mismatch(g, w) {
                            failures.push(format!("{name}: {what} result {k}: {m}"));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn tensor_parallel_blocks_need_one_all_reduce_per_row_parallel_gemm() {
    for (name, want) in [
        ("llama_mlp_tp2", vec!["all_reduce"]),
        ("llama_mlp_dp2_tp2", vec!["all_reduce"]),
        ("gpt_block_tp2", vec!["all_reduce", "all_reduce"]),
        ("gpt_block_tp4", vec!["all_reduce", "all_reduce"]),
        ("gpt_block_dp2_tp2", vec!["all_reduce", "all_reduce"]),
        ("seq_layernorm_sp4", vec![]),
        ("data_parallel_loss_dp4", vec!["all_reduce"]),
    ] {
        let (_, _, _, got) = run(name).unwrap();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn a_wrong_partition_is_caught() {
    // The comparison can fail: a perturbed result is reported.
    let (want, _, mut sharded, _) = run("llama_mlp_tp2").unwrap();
    assert!(mismatch(&sharded[0], &want[0]).is_none());
    if let Data::Float(f) = &mut sharded[0].data {
        let x = f.get(3);
        f.set(3, x + 1.0);
    }
    assert!(mismatch(&sharded[0], &want[0]).is_some());
}

#[test]
fn the_host_target_runs_partitioned_plans_with_in_memory_collectives() {
    // Compiled kernels, one arena per device, the all-reduces as plan steps.
    let tmp = std::env::temp_dir().join(format!("aic-sharded-host-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for name in ["llama_mlp_tp2", "gpt_block_tp4", "gpt_block_shmap_tp4"] {
        let src = tmp.join(format!("{name}.mlir"));
        std::fs::write(&src, partitioned_text(name)).unwrap();
        let out = tmp.join(name);
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_aic-run"));
        cmd.arg("--target=host").arg("--entry=@main");
        for p in npys(name, "in") {
            cmd.arg(format!("--input={}", p.display()));
        }
        cmd.arg(format!("--output-dir={}", out.display())).arg(&src);
        let r = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert!(r.status.success(), "{name}: {stderr}");
        assert!(
            !stderr.contains("warning"),
            "{name} ran without a plan: {stderr}"
        );
        // The global result types, from the unpartitioned fixture.
        let text = std::fs::read_to_string(dir().join(format!("{name}.mlir"))).unwrap();
        let (ctx, outs) = with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let file = sm.add("fixture", text);
            let m = parse_module(&mut ctx, &sm, file).unwrap();
            let f = main_fn(&ctx, m);
            let outs = aic_dialects::func::function_type(&ctx, f).unwrap().1;
            (ctx, outs)
        });
        for (k, (want, ty)) in npys(name, "out").iter().zip(&outs).enumerate() {
            let w = aic_tools::npy::read(&ctx, &std::fs::read(want).unwrap(), *ty).unwrap();
            let got = std::fs::read(out.join(format!("result{k}.npy"))).unwrap();
            let g = aic_tools::npy::read(&ctx, &got, *ty).unwrap();
            assert!(mismatch(&g, &w).is_none(), "{name}: {:?}", mismatch(&g, &w));
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
}
