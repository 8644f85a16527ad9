//! The NKI Python `aic-translate --target=nki --emit=python` writes, run as
//! Python and compared with the reference interpreter (`aic-run
//! --interpret` on the source) on random inputs: the JAX fixtures, and
//! elementwise, row, reduction, GEMM and attention programs at awkward
//! shapes (partition counts not multiples of 128, free sizes over 512) on
//! trn1 and trn2.
//!
//! The kernels run with the real `neuronxcc.nki` where it is importable,
//! else with the NumPy stand-in in `tests/nki_numpy/` (run_kernels.py
//! makes and prints the choice). Without python3 and NumPy the tests say so
//! and pass without running anything (scripts/deps.sh installs NumPy).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether python3 with NumPy is here; says why not where it is not.
fn numpy() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIPPED: the NKI Python tests need python3 with numpy (pip install numpy)");
    }
    ok
}

/// A scratch folder of this process for check `tag`.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aic-nki-py-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Random inputs of `shapes` and element type `elem` (f32, f16 or bf16,
/// bf16 as aic writes it: two-byte voids) in `dir`, written by NumPy.
fn random_inputs(dir: &Path, shapes: &[Vec<i64>], elem: &str, seed: u64) -> Vec<PathBuf> {
    let paths: Vec<PathBuf> = (0..shapes.len())
        .map(|i| dir.join(format!("in{i}.npy")))
        .collect();
    let spec: Vec<String> = shapes
        .iter()
        .zip(&paths)
        .map(|(s, p)| {
            let dims: Vec<String> = s.iter().map(i64::to_string).collect();
            format!("{}={}", p.display(), dims.join("x"))
        })
        .collect();
    let script = r#"
import sys, numpy as np
elem, seed = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(seed)
for a in sys.argv[3:]:
    path, dims = a.rsplit("=", 1)
    shape = [int(d) for d in dims.split("x")] if dims else []
    x = (rng.random(shape) * 2 - 1).astype(np.float32)
    if elem == "f16":
        x = x.astype(np.float16)
    elif elem == "bf16":
        b = x.view(np.uint32).astype(np.uint64)
        b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
        x = b.view("V2")
    np.save(path, x)
"#;
    let out = Command::new("python3")
        .args(["-c", script, elem, &seed.to_string()])
        .args(&spec)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    paths
}

/// The tolerance aic-run --check uses for results of `elem`.
fn tolerance(elem: &str) -> f64 {
    match elem {
        "f16" => 2e-2,
        "bf16" => 8e-2,
        _ => 1e-4,
    }
}

/// Emits `file` as NKI Python for `arch`, runs `@main` with the kernels
/// on `inputs` and compares with the interpreter's results; the runner's
/// messages.
fn emitted_python_equals_interpreter(
    dir: &Path,
    file: &Path,
    inputs: &[PathBuf],
    arch: &str,
    tol: f64,
) -> String {
    let py = dir.join(format!("kernels_{arch}.py"));
    let t = Command::new(env!("CARGO_BIN_EXE_aic-translate"))
        .args(["--target=nki", &format!("--arch={arch}"), "--emit=python"])
        .arg(file)
        .arg("-o")
        .arg(&py)
        .output()
        .expect("aic-translate runs");
    assert!(
        t.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&t.stderr)
    );
    let want = dir.join("want");
    let r = Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .arg("--interpret")
        .arg(file)
        .arg("--entry=@main")
        .args(inputs.iter().map(|p| format!("--input={}", p.display())))
        .arg(format!("--output-dir={}", want.display()))
        .output()
        .expect("aic-run runs");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let mut expect: Vec<PathBuf> = std::fs::read_dir(&want)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let index = |p: &PathBuf| -> usize {
        let s = p.file_stem().unwrap().to_string_lossy();
        s.trim_start_matches("result").parse().unwrap_or(0)
    };
    expect.sort_by_key(index);
    let runner = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nki_numpy/run_kernels.py");
    let run = Command::new("python3")
        .arg(&runner)
        .arg(&py)
        .arg("main")
        .arg(tol.to_string())
        .arg("--inputs")
        .args(inputs)
        .arg("--expect")
        .args(&expect)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        run.status.success() && text.contains("check: ok"),
        "{} on {arch}: {text}",
        file.display()
    );
    text
}

fn ty(shape: &[i64], elem: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{}{elem}>", dims.concat())
}

/// `text`'s `@main` on random inputs of `shapes`, as NKI Python for trn1
/// and trn2, against the interpreter.
fn check(tag: &str, text: &str, shapes: &[Vec<i64>], elem: &str) {
    let dir = scratch(tag);
    let file = dir.join("t.mlir");
    std::fs::write(&file, text).unwrap();
    let inputs = random_inputs(&dir, shapes, elem, tag.len() as u64);
    for arch in ["trn1", "trn2"] {
        emitted_python_equals_interpreter(&dir, &file, &inputs, arch, tolerance(elem));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn elementwise_kernels_as_python_equal_the_interpreter() {
    if !numpy() {
        return;
    }
    for (rows, cols, elem) in [(300, 700, "f32"), (7, 37, "f16"), (130, 513, "bf16")] {
        let x = ty(&[rows, cols], elem);
        let text = format!(
            "func.func @main(%x: {x}, %y: {x}) -> {x} {{\n  %a = graph.mul %x, %y : {x}\n  %b = graph.tanh %a : {x}\n  %c = graph.sub %b, %x : {x}\n  %d = graph.max %c, %y : {x}\n  return %d : {x}\n}}\n"
        );
        check(
            &format!("ew-{rows}-{cols}-{elem}"),
            &text,
            &[vec![rows, cols], vec![rows, cols]],
            elem,
        );
    }
    let long = "func.func @main(%x: tensor<4099xf32>) -> tensor<4099xf32> {\n  %t = graph.tanh %x : tensor<4099xf32>\n  %e = graph.exp %t : tensor<4099xf32>\n  return %e : tensor<4099xf32>\n}\n";
    check("ew-1d", long, &[vec![4099]], "f32");
}

#[test]
fn row_and_reduction_kernels_as_python_equal_the_interpreter() {
    if !numpy() {
        return;
    }
    for (rows, cols) in [(5, 130), (300, 600), (1, 1)] {
        let x = ty(&[rows, cols], "f32");
        let v = ty(&[cols], "f32");
        let text = format!(
            "func.func @main(%x: {x}, %g: {v}, %b: {v}) -> {x} {{\n  %y = graph.layernorm %x, %g, %b : ({x}, {v}, {v}) -> {x}\n  %s = graph.softmax %y, axis = 1 : {x}\n  %r = graph.rmsnorm %s, %g : ({x}, {v}) -> {x}\n  return %r : {x}\n}}\n"
        );
        check(
            &format!("rows-{rows}-{cols}"),
            &text,
            &[vec![rows, cols], vec![cols], vec![cols]],
            "f32",
        );
    }
    let sum = "func.func @main(%x: tensor<96x1000xf32>) -> tensor<f32> {\n  %c = stablehlo.constant dense<0.0> : tensor<f32>\n  %s = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0, 1] : (tensor<96x1000xf32>, tensor<f32>) -> tensor<f32>\n  return %s : tensor<f32>\n}\n";
    check("sum-all", sum, &[vec![96, 1000]], "f32");
    let max = "func.func @main(%x: tensor<200x777xf32>) -> tensor<200xf32> {\n  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>\n  %m = stablehlo.reduce(%x init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<200x777xf32>, tensor<f32>) -> tensor<200xf32>\n  return %m : tensor<200xf32>\n}\n";
    check("row-max", max, &[vec![200, 777]], "f32");
}

#[test]
fn gemm_and_attention_kernels_as_python_equal_the_interpreter() {
    if !numpy() {
        return;
    }
    for (m, n, k, elem) in [
        (200, 300, 96, "f32"),
        (130, 700, 200, "bf16"),
        (1, 5, 3, "f32"),
    ] {
        let (a, b, c, r) = (
            ty(&[m, k], elem),
            ty(&[k, n], elem),
            ty(&[n], elem),
            ty(&[m, n], elem),
        );
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
    let (b, sq, sk, d) = (2, 16, 200, 8);
    let (q, k, sc) = (
        ty(&[b, sq, d], "f32"),
        ty(&[b, sk, d], "f32"),
        ty(&[b, sq, sk], "f32"),
    );
    let text = format!(
        "func.func @main(%q: {q}, %k: {k}, %v: {k}, %s: tensor<f32>) -> {q} {{\n  %sb = graph.broadcast %s, dims = [] : (tensor<f32>) -> {sc}\n  %qk = graph.matmul %q, %k transpose_b : ({q}, {k}) -> {sc}\n  %x = graph.mul %qk, %sb : {sc}\n  %p = graph.softmax %x, axis = 2 : {sc}\n  %o = graph.matmul %p, %v : ({sc}, {k}) -> {q}\n  return %o : {q}\n}}\n"
    );
    check(
        "attention",
        &text,
        &[vec![b, sq, d], vec![b, sk, d], vec![b, sk, d], vec![]],
        "f32",
    );
}

#[test]
fn jax_fixtures_as_python_equal_the_interpreter() {
    if !numpy() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jax");
    for name in [
        "mlp",
        "softmax",
        "layernorm",
        "giou_loss",
        "bert_layer",
        "resnet_bottleneck",
        "vit_block",
        // Integer logic, argmax, a total-order sort, gathers and scatters.
        "reductions_misc",
        // A while loop and a case on the host around kernel launches.
        "control_flow",
    ] {
        let inputs: Vec<PathBuf> = (0..)
            .map(|i| dir.join(format!("{name}.in{i}.npy")))
            .take_while(|p| p.exists())
            .collect();
        let out = scratch(&format!("fixture-{name}"));
        emitted_python_equals_interpreter(
            &out,
            &dir.join(format!("{name}.mlir")),
            &inputs,
            "trn1",
            1e-4,
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn what_the_emitter_cannot_express_is_an_error_at_the_op() {
    // A scalar erf the host would compute: the emitted host writes
    // arithmetic, comparisons and selects in NumPy, not special functions.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jax");
    let scratch = scratch("erf-on-host");
    let file = scratch.join("t.mlir");
    std::fs::write(
        &file,
        "func.func @main(%x: tensor<f32>) -> tensor<f32> {\n  %e = chlo.erf %x : tensor<f32> -> tensor<f32>\n  return %e : tensor<f32>\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_aic-translate"))
        .args(["--target=nki", "--emit=python"])
        .arg(&file)
        .args(["-o", "-"])
        .output()
        .expect("aic-translate runs");
    let _ = std::fs::remove_dir_all(&scratch);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("t.mlir:2:")
            && err.contains("cannot emit as NKI Python: graph.erf on the host"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing written on an error");
    // A wrong --emit for nki is refused before anything runs.
    let bad = Command::new(env!("CARGO_BIN_EXE_aic-translate"))
        .args(["--target=nki", "--emit=asm"])
        .arg(dir.join("mlp.mlir"))
        .args(["-o", "-"])
        .output()
        .expect("aic-translate runs");
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected python or bundle"));
}

#[test]
fn the_bundle_holds_the_python_and_its_kernels() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jax");
    let out = Command::new(env!("CARGO_BIN_EXE_aic-translate"))
        .args(["--target=nki", "--arch=trn2", "--emit=bundle"])
        .arg(dir.join("mlp.mlir"))
        .args(["-o", "-"])
        .output()
        .expect("aic-translate runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["target"], "nki");
    assert_eq!(v["arch"], "trn2");
    let names: Vec<&str> = v["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["gemm_0", "gemm_1"]);
    let py = v["python"].as_str().unwrap();
    assert!(py.contains("@nki.jit\ndef gemm_0(") && py.contains("nisa.nc_matmul("));
    assert!(py.find("gemm_0[").unwrap() < py.find("gemm_1[").unwrap());
}
