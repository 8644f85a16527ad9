//! Dynamic shapes on the host target: StableHLO that `jax.export` wrote for
//! symbolic batch (and sequence) dimensions (tools/tests/fixtures/jax_dynamic),
//! compiled for bounds (`--dim-bounds`) and run by `aic-run --target=host
//! --check` at several sizes, awkward ones included (1, 3, 17, 129; the bound
//! itself), each against the reference interpreter run at that size; and the
//! errors: a size above its bound, a missing bound, a static dim that does not
//! match. Sequence dims (attention over them, causal masks, a mean over one)
//! run padded in place with masked reductions. Runs the binary, so that
//! this test links no LLVM itself.

#[allow(dead_code)]
mod common;
use common::rng::Rng;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An .npy file of `shape` holding random f32 values scaled by `scale`,
/// written by aic's own .npy writer.
fn npy(r: &mut Rng, shape: &[i64], scale: f64) -> Vec<u8> {
    let ctx = aic::Context::new(std::sync::Arc::new(aic_dialects::all_dialects()));
    let u = ctx.uniquer();
    let ty = u.ty(aic::types::TypeKind::Tensor {
        shape: shape.iter().copied().collect(),
        elem: u.ty(aic::types::TypeKind::Float(aic::float::FloatKind::F32)),
        encoding: None,
    });
    let n: i64 = shape.iter().product();
    let values: Vec<f64> = (0..n).map(|_| r.value() * scale).collect();
    let t = aic::interp::Tensor::from_f64s(u, ty, values);
    aic_tools::npy::write(&ctx, &t).expect("an .npy of floats")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/jax_dynamic")
        .join(format!("{name}.mlir"))
}

/// Runs `@main` of fixture `name` compiled for `bounds` on random inputs of
/// `args`' shapes with `--check`; aic-run's status, standard error, and the
/// shape of the first result.
fn run(name: &str, bounds: &str, args: &[Vec<i64>], tag: &str) -> (bool, String, Vec<i64>) {
    run_with(name, bounds, "", args, tag)
}

/// [`run`] with `--dim-buckets` too (none when empty).
fn run_with(
    name: &str,
    bounds: &str,
    buckets: &str,
    args: &[Vec<i64>],
    tag: &str,
) -> (bool, String, Vec<i64>) {
    let dir = std::env::temp_dir().join(format!("aic-dyn-{}-{name}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ (tag.len() as u64 * 977) | 1);
    let inputs: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let path = dir.join(format!("arg{i}.npy"));
            // Weights small, so that deep models stay in range.
            let scale = if i == 0 { 1.0 } else { 0.2 };
            std::fs::write(&path, npy(&mut r, s, scale)).unwrap();
            format!("--input={}", path.display())
        })
        .collect();
    let out_dir = dir.join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .arg("--target=host")
        .args((!bounds.is_empty()).then(|| format!("--dim-bounds={bounds}")))
        .args((!buckets.is_empty()).then(|| format!("--dim-buckets={buckets}")))
        .arg(fixture(name))
        .arg("--entry=@main")
        .args(inputs)
        .arg("--check")
        .arg(format!("--output-dir={}", out_dir.display()))
        .output()
        .expect("aic-run runs");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let shape = std::fs::read(out_dir.join("result0.npy"))
        .ok()
        .map(|b| npy_shape(&b))
        .unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.success(), err, shape)
}

/// The shape in an .npy header.
fn npy_shape(b: &[u8]) -> Vec<i64> {
    let head = String::from_utf8_lossy(&b[10..b.len().min(200)]);
    let s = head.split("'shape': (").nth(1).unwrap_or("");
    s.split(')')
        .next()
        .unwrap_or("")
        .split(',')
        .filter_map(|x| x.trim().parse().ok())
        .collect()
}

fn check(name: &str, bounds: &str, args: &[Vec<i64>], want: &[i64]) {
    let tag = format!("{:?}", args[0]);
    let (ok, err, shape) = run(name, bounds, args, &tag);
    assert!(ok, "{name} at {:?}: {err}", args[0]);
    assert!(err.contains("check: ok"), "{name}: {err}");
    assert_eq!(shape, want, "{name} at {:?}: result shape", args[0]);
}

fn mlp_args(b: i64) -> Vec<Vec<i64>> {
    vec![vec![b, 16], vec![16, 32], vec![32], vec![32, 8], vec![8]]
}

#[test]
fn mlp_at_several_batches_of_one_bound() {
    for b in [1, 3, 17, 129, 256] {
        check("mlp", "b=256", &mlp_args(b), &[b, 8]);
    }
}

#[test]
fn softmax_rows_at_several_batches() {
    for b in [1, 3, 17, 129] {
        check("softmax", "b=200", &[vec![b, 10]], &[b, 10]);
    }
}

#[test]
fn layernorm_with_batch_and_sequence() {
    for (b, s) in [(1, 1), (3, 5), (2, 17), (4, 32)] {
        check(
            "layernorm",
            "b=4,s=32",
            &[vec![b, s, 16], vec![16], vec![16]],
            &[b, s, 16],
        );
    }
}

fn attention_args(b: i64) -> Vec<Vec<i64>> {
    let mut a = vec![vec![b, 8, 32]];
    for _ in 0..4 {
        a.push(vec![32, 32]);
        a.push(vec![32]);
    }
    a
}

#[test]
fn attention_with_a_dynamic_batch() {
    for b in [1, 3, 5] {
        check("attention", "b=8", &attention_args(b), &[b, 8, 32]);
    }
}

/// The BERT fixtures' arguments for activations of `[b, t, 32]`.
fn bert_args(b: i64, t: i64) -> Vec<Vec<i64>> {
    let mut args = vec![vec![b, t, 32]];
    for _ in 0..4 {
        args.push(vec![32, 32]);
        args.push(vec![32]);
    }
    args.extend([vec![32], vec![32], vec![32, 64], vec![64], vec![64, 32]]);
    args.extend([vec![32], vec![32], vec![32]]);
    args
}

#[test]
fn bert_layer_with_a_dynamic_batch() {
    for b in [1, 3] {
        check("bert_layer", "b=4", &bert_args(b, 8), &[b, 8, 32]);
    }
}

#[test]
fn sizes_outside_the_bounds_are_errors() {
    let (ok, err, _) = run("mlp", "b=16", &mlp_args(17), "over");
    assert!(!ok);
    assert!(
        err.contains("dimension 0 ('b') is 17, above its bound 16"),
        "{err}"
    );
    let mut bad = mlp_args(3);
    bad[1] = vec![15, 32];
    let (ok, err, _) = run("mlp", "b=16", &bad, "static");
    assert!(!ok);
    assert!(err.contains("15"), "{err}");
}

#[test]
fn a_missing_bound_is_an_error() {
    let (ok, err, _) = run("mlp", "s=4", &mlp_args(3), "nobound");
    assert!(!ok);
    assert!(err.contains("dynamic dimension 'b' has no bound"), "{err}");
    let (ok, err, _) = run("mlp", "", &mlp_args(3), "nobounds");
    assert!(!ok);
    assert!(
        err.contains("give each a bound (--dim-bounds=NAME=N"),
        "{err}"
    );
}

/// Attention over a dynamic sequence: tensors padded in place, the keys
/// past the sequence's length masked in the softmax and the P V product.
#[test]
fn attention_over_a_dynamic_sequence() {
    for t in [1, 5, 8, 13] {
        let mut args = attention_args(2);
        args[0] = vec![2, t, 32];
        check("attention_seq", "s=16", &args, &[2, t, 32]);
    }
}

/// A BERT layer of dynamic batch and sequence, at sizes of each below and
/// at the bounds.
#[test]
fn bert_layer_with_a_dynamic_batch_and_sequence() {
    for (b, t) in [(1, 1), (3, 5), (2, 7), (4, 8)] {
        check("bert_layer_seq", "b=4,s=8", &bert_args(b, t), &[b, t, 32]);
    }
}

/// Causal attention written with einsums over [B, S, heads, d], a causal
/// mask of iotas, and a mean over the sequence (its length as a value).
#[test]
fn causal_einsum_attention_with_a_dynamic_sequence() {
    let w = vec![16, 16];
    for (b, t) in [(1, 1), (2, 3), (3, 8), (1, 11)] {
        check(
            "causal_seq",
            "b=4,s=16",
            &[vec![b, t, 16], w.clone(), w.clone(), w.clone()],
            &[b, t, 16],
        );
    }
}

/// The model suite's GPT-2 block (small, f32) with a dynamic batch and
/// sequence: its fused QKV split by `real_dynamic_slice`, causal attention.
#[test]
fn gpt2_block_with_a_dynamic_batch_and_sequence() {
    let mut args = vec![vec![0, 0, 64], vec![64], vec![64], vec![64, 192], vec![192]];
    args.extend([vec![64, 64], vec![64], vec![64], vec![64]]);
    args.extend([vec![64, 128], vec![128], vec![128, 64], vec![64]]);
    for (b, t) in [(1, 1), (2, 5), (3, 16)] {
        args[0] = vec![b, t, 64];
        check("gpt2_block_seq", "b=4,s=16", &args, &[b, t, 64]);
    }
}

/// The model suite's Llama block (small, f32): RoPE's halves sliced by
/// `dynamic_gather`s of the slice form, positions from an iota over the
/// sequence, grouped-query attention, SwiGLU.
#[test]
fn llama_block_with_a_dynamic_batch_and_sequence() {
    let mut args = vec![vec![0, 0, 128], vec![128], vec![128, 128], vec![128, 64]];
    args.extend([vec![128, 64], vec![128, 128], vec![128], vec![128, 192]]);
    args.extend([vec![128, 192], vec![192, 128]]);
    for (b, t) in [(1, 1), (1, 7), (2, 16)] {
        args[0] = vec![b, t, 128];
        check("llama_block_seq", "b=4,s=16", &args, &[b, t, 128]);
    }
}

/// Buckets: the layer norm compiled for b <= 4, s <= 32 and copies for
/// b <= 1 and s <= 8; each call runs the smallest copy its sizes fit, which
/// aic-run names, and equals the interpreter.
#[test]
fn buckets_run_the_smallest_copy_the_sizes_fit() {
    for (b, t, copy) in [
        (1, 3, Some("main__b1_s8")),
        (1, 17, Some("main__b1_s32")),
        (3, 8, Some("main__b4_s8")),
        (2, 30, None),
    ] {
        let args = [vec![b, t, 16], vec![16], vec![16]];
        let (ok, err, shape) = run_with(
            "layernorm",
            "b=4,s=32",
            "b=1,s=8",
            &args,
            &format!("bk{b}x{t}"),
        );
        assert!(ok && err.contains("check: ok"), "{b}x{t}: {err}");
        assert_eq!(shape, vec![b, t, 16]);
        match copy {
            Some(c) => assert!(
                err.contains(&format!("runs as bucket @{c}")),
                "{b}x{t}: {err}"
            ),
            None => assert!(!err.contains("runs as bucket"), "{b}x{t}: {err}"),
        }
    }
}
