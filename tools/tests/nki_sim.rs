//! NKI kernels against the reference interpreter: each fusion-to-tile
//! generator the nki lowering takes (elementwise, rows, split reductions,
//! GEMM with an epilogue), lowered by `tile-to-nki` and run by
//! `aic-run --target=nki-sim --check` on random inputs at awkward shapes
//! (partition counts that are not multiples of 128, free sizes over 512),
//! on trn1 and trn2; and the errors of what does not fit.

#[allow(dead_code)]
mod common;
use common::rng::{Rng, ty};
use std::process::Command;

/// An .npy file of `shape` holding random values of `elem` (f32, f16 or
/// bf16), written by aic's own .npy writer.
fn npy(r: &mut Rng, shape: &[i64], elem: &str) -> Vec<u8> {
    let ctx = aic::Context::new(std::sync::Arc::new(aic_dialects::all_dialects()));
    let u = ctx.uniquer();
    let kind = match elem {
        "f16" => aic::float::FloatKind::F16,
        "bf16" => aic::float::FloatKind::BF16,
        _ => aic::float::FloatKind::F32,
    };
    let ty = u.ty(aic::types::TypeKind::Tensor {
        shape: shape.iter().copied().collect(),
        elem: u.ty(aic::types::TypeKind::Float(kind)),
        encoding: None,
    });
    let n: i64 = shape.iter().product();
    let values: Vec<f64> = (0..n).map(|_| r.value()).collect();
    let t = aic::interp::Tensor::from_f64s(u, ty, values);
    aic_tools::npy::write(&ctx, &t).expect("an .npy of floats")
}

/// A scratch folder of this process for check `tag`.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("aic-nki-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `@main` of `text` on nki-sim for `arch` with `--check` on random
/// inputs of `args`' shapes; gives aic-run's status and messages.
fn run(tag: &str, text: &str, args: &[Vec<i64>], elem: &str, arch: &str) -> (bool, String) {
    let dir = scratch(tag);
    let file = dir.join("t.mlir");
    std::fs::write(&file, text).unwrap();
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ tag.len() as u64 | 1);
    let inputs: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let path = dir.join(format!("arg{i}.npy"));
            std::fs::write(&path, npy(&mut r, s, elem)).unwrap();
            format!("--input={}", path.display())
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .arg("--target=nki-sim")
        .arg(format!("--arch={arch}"))
        .arg(&file)
        .arg("--entry=@main")
        .args(inputs)
        .arg("--check")
        .arg(format!("--output-dir={}", dir.join("out").display()))
        .output()
        .expect("aic-run runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.success(), err)
}

fn check(tag: &str, text: &str, args: &[Vec<i64>], elem: &str) {
    for arch in ["trn1", "trn2"] {
        let (ok, err) = run(&format!("{tag}-{arch}"), text, args, elem, arch);
        assert!(
            ok && err.contains("check: ok") && err.contains("MODELLED"),
            "{tag} ({elem}, {arch}): {err}\n{text}"
        );
    }
}

fn func(params: &[(&str, Vec<i64>)], result: &[i64], body: &str, elem: &str) -> String {
    let ps: Vec<String> = params
        .iter()
        .map(|(n, s)| format!("%{n}: {}", ty(s, elem)))
        .collect();
    format!(
        "func.func @main({}) -> {} {{\n{body}}}\n",
        ps.join(", "),
        ty(result, elem)
    )
}

#[test]
fn elementwise_kernels_equal_the_interpreter() {
    for (rows, cols, elem) in [(300, 700, "f32"), (7, 37, "f16"), (130, 513, "bf16")] {
        let x = ty(&[rows, cols], elem);
        let body = format!(
            "  %a = graph.mul %x, %y : {x}\n  %b = graph.tanh %a : {x}\n  %c = graph.sub %b, %x : {x}\n  %d = graph.max %c, %y : {x}\n  return %d : {x}\n"
        );
        let args = vec![("x", vec![rows, cols]), ("y", vec![rows, cols])];
        let shapes: Vec<Vec<i64>> = args.iter().map(|a| a.1.clone()).collect();
        check(
            &format!("ew-{rows}-{cols}"),
            &func(&args, &[rows, cols], &body, elem),
            &shapes,
            elem,
        );
    }
    let long = "func.func @main(%x: tensor<4099xf32>) -> tensor<4099xf32> {\n  %t = graph.tanh %x : tensor<4099xf32>\n  %e = graph.exp %t : tensor<4099xf32>\n  return %e : tensor<4099xf32>\n}\n";
    check("ew-1d", long, &[vec![4099]], "f32");
}

#[test]
fn row_kernels_equal_the_interpreter() {
    for (rows, cols) in [(5, 130), (300, 600), (1, 1)] {
        let x = ty(&[rows, cols], "f32");
        let v = ty(&[cols], "f32");
        let body = format!(
            "  %y = graph.layernorm %x, %g, %b : ({x}, {v}, {v}) -> {x}\n  %s = graph.softmax %y, axis = 1 : {x}\n  %r = graph.rmsnorm %s, %g : ({x}, {v}) -> {x}\n  return %r : {x}\n"
        );
        let args = vec![
            ("x", vec![rows, cols]),
            ("g", vec![cols]),
            ("b", vec![cols]),
        ];
        let shapes: Vec<Vec<i64>> = args.iter().map(|a| a.1.clone()).collect();
        check(
            &format!("rows-{rows}-{cols}"),
            &func(&args, &[rows, cols], &body, "f32"),
            &shapes,
            "f32",
        );
    }
}

#[test]
fn reductions_equal_the_interpreter() {
    // A whole-tensor sum in two kernels (per block, then the blocks), each
    // row of the first spread over the partitions; and row sums and maxima.
    let body = "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 1] : (tensor<96x1000xf32>, tensor<f32>) -> tensor<f32>\n  return %s : tensor<f32>\n";
    let text = format!("func.func @main(%x: tensor<96x1000xf32>) -> tensor<f32> {{\n{body}}}\n");
    check("sum-all", &text, &[vec![96, 1000]], "f32");
    let text = "func.func @main(%x: tensor<200x777xf32>) -> tensor<200xf32> {\n  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>\n  %m = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<200x777xf32>, tensor<f32>) -> tensor<200xf32>\n  return %m : tensor<200xf32>\n}\n";
    check("row-max", text, &[vec![200, 777]], "f32");
}

#[test]
fn gemm_kernels_with_epilogues_equal_the_interpreter() {
    for (m, n, k, elem) in [
        (200, 300, 96, "f32"),
        (130, 700, 200, "bf16"),
        (1, 5, 3, "f32"),
    ] {
        let a = ty(&[m, k], elem);
        let b = ty(&[k, n], elem);
        let c = ty(&[n], elem);
        let r = ty(&[m, n], elem);
        let text = format!(
            "func.func @main(%a: {a}, %b: {b}, %c: {c}) -> {r} {{\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({a}, {b}) -> {r}\n  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : ({c}) -> {r}\n  %2 = stablehlo.add %0, %1 : {r}\n  %3 = stablehlo.tanh %2 : {r}\n  return %3 : {r}\n}}\n"
        );
        check(
            &format!("gemm-{m}-{n}-{k}"),
            &text,
            &[vec![m, k], vec![k, n], vec![n]],
            elem,
        );
    }
}

#[test]
fn attention_equals_the_interpreter() {
    // FlashAttention: scores in PSUM, row statistics carried as [P, 1]
    // columns, key blocks of 128 (P·V contracts over them on the
    // partitions); 200 keys leave a partial block.
    for (b, sq, sk, d) in [(2, 16, 200, 8), (1, 130, 40, 64)] {
        let (q, k, sc) = (
            ty(&[b, sq, d], "f32"),
            ty(&[b, sk, d], "f32"),
            ty(&[b, sq, sk], "f32"),
        );
        let text = format!(
            "func.func @main(%q: {q}, %k: {k}, %v: {k}, %s: tensor<f32>) -> {q} {{\n  %sb = graph.broadcast %s, dims = [] : (tensor<f32>) -> {sc}\n  %qk = graph.matmul %q, %k transpose_b : ({q}, {k}) -> {sc}\n  %x = graph.mul %qk, %sb : {sc}\n  %p = graph.softmax %x, axis = 2 : {sc}\n  %o = graph.matmul %p, %v : ({sc}, {k}) -> {q}\n  return %o : {q}\n}}\n"
        );
        check(
            &format!("attention-{sq}-{sk}"),
            &text,
            &[vec![b, sq, d], vec![b, sk, d], vec![b, sk, d], vec![]],
            "f32",
        );
    }
}

#[test]
fn what_cannot_be_lowered_is_an_error_at_the_op() {
    // A row of 60000 fp32 needs 240000 bytes of a partition: more than
    // trn1's SBUF (192 KiB) holds.
    let text = "func.func @main(%x: tensor<2x60000xf32>) -> tensor<2x60000xf32> {\n  %s = graph.softmax %x, axis = 1 : tensor<2x60000xf32>\n  return %s : tensor<2x60000xf32>\n}\n";
    let (ok, err) = run("too-big", text, &[vec![2, 60000]], "f32", "trn1");
    assert!(!ok, "{err}");
    assert!(err.contains("t.mlir:2:"), "the error names the op: {err}");
    assert!(
        err.contains("does not fit an SBUF partition of trn1"),
        "{err}"
    );
}

#[test]
fn jax_fixtures_through_nki_sim_equal_the_interpreter() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jax");
    // Every fixture lowers whole (integer logic, a total-order sort and
    // control flow around kernels included).
    for name in [
        "mlp",
        "softmax",
        "layernorm",
        "giou_loss",
        "bert_layer",
        "control_flow",
        "resnet_bottleneck",
        "vit_block",
        "reductions_misc",
    ] {
        let inputs: Vec<String> = (0..)
            .map(|i| dir.join(format!("{name}.in{i}.npy")))
            .take_while(|p| p.exists())
            .map(|p| format!("--input={}", p.display()))
            .collect();
        let out = scratch(&format!("fixture-{name}"));
        let run = Command::new(env!("CARGO_BIN_EXE_aic-run"))
            .arg("--target=nki-sim")
            .arg(dir.join(format!("{name}.mlir")))
            .arg("--entry=@main")
            .args(&inputs)
            .arg("--check")
            .arg(format!("--output-dir={}", out.display()))
            .output()
            .expect("aic-run runs");
        let err = String::from_utf8_lossy(&run.stderr);
        let _ = std::fs::remove_dir_all(&out);
        assert!(
            run.status.success() && err.contains("check: ok"),
            "{name}: {err}"
        );
    }
}

/// The modelled time `aic-run --target=nki-sim --model-only` reports for
/// `file` on `arch` with the tuning cache `tuning` (none: the heuristic).
fn modelled_us(file: &std::path::Path, arch: &str, tuning: Option<&std::path::Path>) -> f64 {
    let mut c = Command::new(env!("CARGO_BIN_EXE_aic-run"));
    c.args(["--target=nki-sim", "--model-only", "--entry=@main"])
        .arg(format!("--arch={arch}"))
        .arg(file);
    if let Some(t) = tuning {
        c.arg(format!("--tuning={}", t.display()));
    }
    let out = c.output().expect("aic-run runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // "modelled time: 0.123 ms (...)" on the report's second line.
    let line = err
        .lines()
        .find(|l| l.contains("modelled time"))
        .unwrap_or_else(|| panic!("no modelled time: {err}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|w| *w == "time:").unwrap();
    let v: f64 = words[i + 1].parse().unwrap();
    match words[i + 2] {
        "ms" => v * 1e3,
        "us" => v,
        "s" => v * 1e6,
        u => panic!("unit {u}: {line}"),
    }
}

#[test]
fn aic_tune_keeps_the_candidate_of_least_modelled_time_per_arch() {
    // A GEMM of several candidates: aic-tune models each round and writes,
    // keyed by the arch, the fastest; compiled with that cache the module
    // is modelled no slower than with the heuristic's tiles.
    let dir = scratch("tune");
    let file = dir.join("t.mlir");
    std::fs::write(
        &file,
        "func.func @main(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16>\n  return %0 : tensor<256x1024xbf16>\n}\n",
    )
    .unwrap();
    for arch in ["trn1", "trn2"] {
        let cache = dir.join(format!("{arch}.json"));
        let out = Command::new(env!("CARGO_BIN_EXE_aic-tune"))
            .arg(&file)
            .args(["--target=nki-sim", &format!("--arch={arch}"), "-o"])
            .arg(&cache)
            .output()
            .expect("aic-tune runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{arch}: {err}");
        assert!(
            err.contains(&format!("modelled by nki-sim, {arch}")),
            "{err}"
        );
        let text = std::fs::read_to_string(&cache).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let (key, e) = v.as_object().unwrap().iter().next().unwrap();
        assert!(key.starts_with(&format!("trn1/{arch}/gemm/")), "{key}");
        let (us, heuristic) = (
            e["us"].as_f64().unwrap(),
            e["heuristic_us"].as_f64().unwrap(),
        );
        assert!(e["tried"].as_u64().unwrap() > 4, "{text}");
        assert!(us <= heuristic, "{text}");
        let tuned = modelled_us(&file, arch, Some(&cache));
        let plain = modelled_us(&file, arch, None);
        assert!(
            tuned <= plain * 1.0001,
            "{arch}: tuned {tuned} us, heuristic {plain} us"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
