//! The model suite (`bench/models`, exported from JAX as users write the
//! models) at its small sizes, compiled for the host and run on seeded random
//! inputs with `aic-run --target=host --check`: the compiled program must equal
//! the reference interpreter on every model, in f16 and bf16. Which models still
//! leave tensor ops to the interpreter at run time (aic-run's warning) is
//! printed; no model may leave any.

use aic::interp::Tensor;
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/models/stablehlo")
}

fn small_models() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("bench/models/stablehlo")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.contains(".small.") && n.ends_with(".mlir"))
        })
        .collect();
    v.sort();
    v
}

/// A seeded generator (xorshift64*): the inputs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// Write seeded inputs for `@main` of `path` into `out`; their paths.
fn inputs(path: &Path, out: &Path, seed: u64) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    let out = out.to_path_buf();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let f = sm.add(&name, text);
        let m = parse_module(&mut ctx, &sm, f).expect("the model parses");
        let body = ctx.entry_block(ctx.regions(m)[0]).unwrap();
        let main = ctx
            .block_ops(body)
            .find(|o| aic::symbol::symbol_name(&ctx, *o) == Some("main"))
            .expect("@main");
        let (ins, _) = aic_dialects::func::function_type(&ctx, main).unwrap();
        let mut rng = Rng(seed.max(1));
        let u = ctx.uniquer();
        ins.iter()
            .enumerate()
            .map(|(i, &ty)| {
                let k = u.type_kind(ty);
                let shape = k.shape().unwrap_or(&[]).to_vec();
                let n: i64 = shape.iter().product();
                let elem = k.element_type().unwrap_or(ty);
                let t = if matches!(u.type_kind(elem), aic::types::TypeKind::Integer { .. }) {
                    // A padding mask: mostly ones.
                    Tensor::from_i64s(u, ty, (0..n).map(|_| i64::from(rng.unit() > -0.6)))
                } else {
                    // Weights (rank >= 2) small, so that activations stay O(1).
                    let scale = if shape.len() >= 2 && i > 0 { 0.2 } else { 1.0 };
                    Tensor::from_f64s(u, ty, (0..n).map(|_| rng.unit() * scale))
                };
                let p = out.join(format!("arg{i}.npy"));
                std::fs::write(&p, aic_tools::npy::write(&ctx, &t).unwrap()).unwrap();
                p
            })
            .collect()
    })
}

#[test]
fn every_small_model_compiled_for_the_host_equals_the_interpreter() {
    let models = small_models();
    assert!(models.len() >= 14, "models missing: {models:?}");
    let tmp = std::env::temp_dir().join(format!("aic-model-suite-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for (k, path) in models.iter().enumerate() {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let d = tmp.join(&stem);
        std::fs::create_dir_all(&d).unwrap();
        let args = inputs(path, &d, 0x5eed + k as u64);
        let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
            .args(["--target=host", "--check", "--entry=@main"])
            .args(args.iter().map(|p| format!("--input={}", p.display())))
            .arg(format!("--output-dir={}", d.join("out").display()))
            .arg(path)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() || !text.contains("check: ok") {
            failures.push(format!("{stem}: {text}"));
            continue;
        }
        let host_ops = text
            .lines()
            .find(|l| l.contains("run on the host interpreter"))
            .map(|l| {
                let ops = l.split("@main: ").nth(1).unwrap_or(l);
                ops.split(": ").next().unwrap_or(ops).to_string()
            });
        if let Some(ops) = &host_ops {
            failures.push(format!("{stem}: expected no interpreted ops, got {ops}"));
        }
        report.push(format!(
            "{stem}: {}",
            host_ops.as_deref().unwrap_or("every tensor op compiled")
        ));
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}
