//! fp8 GEMMs and `quantize{mode=fp8}` against references.
//!
//! * `f8E4M3FN` and `f8E5M2` `graph.matmul`s into f32 on random bytes
//!   (the largest finite values, subnormals and zeros included) at awkward
//!   shapes (M, N, K not multiples of the tiles; K not a multiple of
//!   mma.sync's 32, so K tails are zero-filled), plain, transposed and
//!   batched, compiled for the host (`aic-run --target=host`, which also
//!   checks the interpreter) with and without tensor cores (`--mma=nvgpu`:
//!   the warp's fp8 `mma.sync` m16n8k32 emulated on the host). Against an
//!   f64 product computed here the result is not exact, and need not be:
//!   each product of two fp8 values is exact in f32 (at most 4 + 4
//!   significant bits, exponents well inside f32's range), but the K
//!   additions round in f32, in an order the tensor cores do not specify.
//!   The tolerance is the classic bound of a sum of K terms in f32,
//!   `K * 2^-24 * sum |a_k b_k|` per element.
//! * An MLP (`x W1`, ReLU, `h W2`) under `quantize{mode=fp8}`, interpreted
//!   and compiled for the host, against a float64 reference of the same
//!   scheme (per-tensor e4m3 weights `amax / 448`, per-row activation scales
//!   `max(amax, 1e-5) / 448`, saturation, ties to even): within 1e-4 of the
//!   reference that takes the program's f32 steps (only the f32
//!   accumulation differs), within 1e-3 of the all-f64 one unless an
//!   activation lies within 1e-6 of a rounding tie; and the float MLP
//!   within 10% of its largest output (e4m3's 3-bit mantissa: the scheme's
//!   own error).
//!
//! Runs the binaries, so that this test links no LLVM itself.

use aic::SourceMap;
use aic::float::FloatKind;
use aic::interp::{Interp, Tensor};
use aic::ir::Context;
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic_passes::auto_mixed_precision::accuracy::SplitMix;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// A scratch folder of this process for `tag`.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aic-fp8-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An .npy file of `shape` holding `data` in numpy's type `descr`
/// (`|i1`, `<f4`), each element's little-endian bytes.
fn npy(shape: &[usize], descr: &str, bytes: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| format!("{d},")).collect();
    let mut head = format!(
        "{{'descr': '{descr}', 'fortran_order': False, 'shape': ({}), }}",
        dims.join(" ")
    );
    while (10 + head.len() + 1) % 64 != 0 {
        head.push(' ');
    }
    head.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((head.len() as u16).to_le_bytes());
    out.extend(head.as_bytes());
    out.extend(bytes);
    out
}

/// The data bytes of an .npy file (version 1) whose type is `descr`.
fn npy_data(file: &Path, descr: &str) -> Vec<u8> {
    let b = std::fs::read(file).unwrap();
    let len = u16::from_le_bytes([b[8], b[9]]) as usize;
    let head = String::from_utf8_lossy(&b[10..10 + len]);
    assert!(head.contains(descr), "{}: {head}", file.display());
    b[10 + len..].to_vec()
}

/// Runs `@main` of `file` on the host with `inputs` (.npy files), checked
/// against the interpreter (aic-run's tolerance, 1e-4 relative to 1 + |y|)
/// with `check`; gives result 0's data bytes.
fn run_host(
    file: &Path,
    inputs: &[PathBuf],
    extra: &[String],
    descr: &str,
    check: bool,
) -> Vec<u8> {
    let out_dir = file.with_extension("out");
    let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .arg("--target=host")
        .arg(file)
        .arg("--entry=@main")
        .args(inputs.iter().map(|p| format!("--input={}", p.display())))
        .args(extra)
        .args(check.then_some("--check"))
        .arg(format!("--output-dir={}", out_dir.display()))
        .output()
        .expect("aic-run runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && (!check || err.contains("check: ok")),
        "{} {extra:?}: {err}",
        file.display()
    );
    npy_data(&out_dir.join("result0.npy"), descr)
}

/// Parses `text`, optionally runs `pipeline` on it, and calls its first
/// function with `args` (built from its argument types) in the interpreter;
/// gives the printed module and the results.
fn interpret(
    text: &str,
    pipeline: Option<&str>,
    args: impl FnOnce(&aic::ir::Uniquer, &[aic::Type]) -> Vec<Tensor> + Send + 'static,
) -> (String, Vec<Tensor>) {
    let text = text.to_string();
    let pipeline = pipeline.map(str::to_string);
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("t.mlir", text);
        let m = parse_module(&mut ctx, &sm, id).expect("parses");
        if let Some(p) = pipeline {
            let reg = aic_passes::all_passes();
            let pm = parse_pipeline(&p, &reg).expect("pipeline");
            PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                .run(&pm, &mut ctx, m)
                .expect("runs");
        }
        aic::verifier::verify(&ctx, m).expect("verifies");
        let f = ctx
            .block_ops(ctx.entry_block(ctx.regions(m)[0]).unwrap())
            .find(|o| <aic_dialects::func::Func as aic::op_def::OpHandle>::is(&ctx, *o))
            .unwrap();
        let (ins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
        let a = args(ctx.uniquer(), &ins);
        let got = Interp::new(&ctx).call(f, a).expect("runs");
        let printed = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
        (printed, got)
    })
}

fn ty(shape: &[usize], elem: &str) -> String {
    let d: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
    format!("tensor<{}x{elem}>", d.join("x"))
}

/// The largest of `|a - b| / (1 + |b|)`.
fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .fold(0.0f64, |e, (x, y)| e.max((x - y).abs() / (1.0 + y.abs())))
}

/// Random finite bytes of fp8 format `kind`, one in 8 an extreme (the
/// largest finite magnitude, a subnormal or zero), as their f64 values.
fn fp8_values(r: &mut SplitMix, kind: FloatKind, n: usize) -> Vec<f64> {
    let max = kind.to_f64(kind.from_f64(if kind == FloatKind::F8E4M3FN {
        448.0
    } else {
        57344.0
    }));
    (0..n)
        .map(|_| {
            loop {
                let v = match r.next_u64() % 24 {
                    0 => max,
                    1 => -max,
                    2 => kind.to_f64(1 + r.next_u64() as u128 % 3),
                    3 => 0.0,
                    _ => kind.to_f64((r.next_u64() % 256) as u128),
                };
                // Keep the sums' magnitudes readable: most values are small.
                if v.is_finite() && (v.abs() <= 64.0 || r.next_u64().is_multiple_of(8)) {
                    break v;
                }
            }
        })
        .collect()
}

#[test]
fn fp8_gemms_on_the_host_match_an_f64_product_within_f32_summation_error() {
    // (batch, m, k, n, transpose_b)
    let cases: &[(usize, usize, usize, usize, bool)] = &[
        (0, 1, 1, 1, false),
        (0, 37, 70, 45, false),
        (0, 16, 32, 8, false),
        (0, 130, 100, 72, true),
        (0, 5, 33, 9, true),
        (0, 64, 96, 64, false),
        (3, 16, 40, 24, false),
    ];
    for (i, &(batch, m, k, n, tb)) in cases.iter().enumerate() {
        for (kind, name) in [
            (FloatKind::F8E4M3FN, "f8E4M3FN"),
            (FloatKind::F8E5M2, "f8E5M2"),
        ] {
            let lead: Vec<usize> = (batch > 0).then_some(batch).into_iter().collect();
            let sa = [&lead[..], &[m, k]].concat();
            let sb = [&lead[..], &if tb { [n, k] } else { [k, n] }].concat();
            let sc = [&lead[..], &[m, n]].concat();
            let op = if batch > 0 {
                "graph.batch_matmul"
            } else {
                "graph.matmul"
            };
            // f32 inputs (.npy has no fp8), cast exactly to fp8 in the program.
            let text = format!(
                "func.func @main(%x: {fa}, %w: {fb}) -> {tc} {{\n  %a = graph.cast %x : ({fa}) -> {ta}\n  %b = graph.cast %w : ({fb}) -> {tb_}\n  %y = {op} %a, %b{t} : ({ta}, {tb_}) -> {tc}\n  return %y : {tc}\n}}\n",
                fa = ty(&sa, "f32"),
                fb = ty(&sb, "f32"),
                ta = ty(&sa, name),
                tb_ = ty(&sb, name),
                tc = ty(&sc, "f32"),
                t = if tb { " transpose_b" } else { "" },
            );
            let mut r = SplitMix(1900 + 10 * i as u64 + u64::from(kind == FloatKind::F8E5M2));
            let a = fp8_values(&mut r, kind, sa.iter().product());
            let b = fp8_values(&mut r, kind, sb.iter().product());
            // The product in f64 (exact here), and each element's bound.
            let mut want = Vec::new();
            let mut bound = Vec::new();
            for bi in 0..batch.max(1) {
                for row in 0..m {
                    for col in 0..n {
                        let terms: Vec<f64> = (0..k)
                            .map(|kk| {
                                let x = a[(bi * m + row) * k + kk];
                                let y = if tb {
                                    b[(bi * n + col) * k + kk]
                                } else {
                                    b[(bi * k + kk) * n + col]
                                };
                                x * y
                            })
                            .collect();
                        want.push(terms.iter().sum::<f64>());
                        let mag: f64 = terms.iter().map(|t| t.abs()).sum();
                        bound.push(k as f64 * 2f64.powi(-24) * mag);
                    }
                }
            }
            let (ia, ib) = (a.clone(), b.clone());
            let (_, got) = interpret(&text, None, move |u, ins| {
                vec![
                    Tensor::from_f64s(u, ins[0], ia.iter().copied()),
                    Tensor::from_f64s(u, ins[1], ib.iter().copied()),
                ]
            });
            for (e, ((g, w), bd)) in got[0].to_f64s().iter().zip(&want).zip(&bound).enumerate() {
                assert!(
                    (g - w).abs() <= *bd,
                    "case {i} {name}: interpreter element {e} = {g}, f64 {w}, bound {bd}\n{text}"
                );
            }
            let dir = scratch(&format!("gemm{i}{name}"));
            let file = dir.join("g.mlir");
            std::fs::write(&file, &text).unwrap();
            let inputs = vec![dir.join("a.npy"), dir.join("b.npy")];
            let f4 = |v: &[f64]| {
                v.iter()
                    .flat_map(|x| (*x as f32).to_le_bytes())
                    .collect::<Vec<u8>>()
            };
            std::fs::write(&inputs[0], npy(&sa, "<f4", &f4(&a))).unwrap();
            std::fs::write(&inputs[1], npy(&sb, "<f4", &f4(&b))).unwrap();
            for (mma, threads) in [("false", 1), ("nvgpu", 1), ("nvgpu", 128)] {
                let extra = vec![format!("--mma={mma}"), format!("--threads={threads}")];
                // Not aic-run's --check: its fixed tolerance does not hold
                // where large products cancel; the bound below does.
                let data = run_host(&file, &inputs, &extra, "<f4", false);
                let host: Vec<f64> = data
                    .chunks(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                    .collect();
                assert_eq!(host.len(), want.len());
                for (e, ((h, w), bd)) in host.iter().zip(&want).zip(&bound).enumerate() {
                    assert!(
                        (h - w).abs() <= *bd,
                        "case {i} {name} {extra:?}: element {e} = {h}, f64 {w}, bound {bd}\n{text}"
                    );
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// The fp8 scheme on `x` (`[m, k]`) times `w` (`[k, n]`): the result, and
/// whether some `x / s_row` lay within 1e-6 (relative) of a rounding tie
/// between two e4m3 values. With `f32`, the scales, the division and the
/// scaling back are f32 operations, as the program computes them.
fn fp8_linear(
    x: &[f64],
    w: &[f64],
    (m, k, n): (usize, usize, usize),
    f32: bool,
) -> (Vec<f64>, bool) {
    let e4m3 = FloatKind::F8E4M3FN;
    let r = |v: f64| if f32 { v as f32 as f64 } else { v };
    let (qw, sw, _) = aic_passes::quantize::quantize_fp8_per_tensor(w).expect("finite");
    let max = aic_passes::quantize::E4M3_MAX;
    let mut near_tie = false;
    let mut y = vec![0.0; m * n];
    for i in 0..m {
        let row = &x[i * k..(i + 1) * k];
        let amax = row.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let s = r(amax.max(r(aic_passes::quantize::ACTIVATION_EPS)) / max);
        let q: Vec<f64> = row
            .iter()
            .map(|v| {
                let t = r(v / s).clamp(-max, max);
                let q = e4m3.to_f64(e4m3.from_f64(t));
                // Distance to the other neighbour: a tie if t is halfway.
                let up = e4m3.to_f64(e4m3.from_f64(t * (1.0 + 1e-6)));
                let down = e4m3.to_f64(e4m3.from_f64(t * (1.0 - 1e-6)));
                near_tie |= up != q || down != q;
                q
            })
            .collect();
        for j in 0..n {
            let acc: f64 = (0..k).map(|kk| q[kk] * qw[kk * n + j]).sum();
            y[i * n + j] = r(r(acc * s) * r(sw));
        }
    }
    (y, near_tie)
}

/// The MLP of the scheme: `fp8_linear`, ReLU, `fp8_linear`.
fn fp8_mlp(
    x: &[f64],
    (w1, w2): (&[f64], &[f64]),
    (m, k, h, n): (usize, usize, usize, usize),
    f32: bool,
) -> (Vec<f64>, bool) {
    let (a, tie1) = fp8_linear(x, w1, (m, k, h), f32);
    let relu: Vec<f64> = a.iter().map(|v| v.max(0.0)).collect();
    let (y, tie2) = fp8_linear(&relu, w2, (m, h, n), f32);
    (y, tie1 || tie2)
}

#[test]
fn fp8_mlp_equals_a_float64_reference_of_its_scheme() {
    // (m, k, hidden, n)
    for (case, &(m, k, h, n)) in [
        (4usize, 40usize, 24usize, 8usize),
        (9, 33, 70, 17),
        (16, 64, 96, 32),
    ]
    .iter()
    .enumerate()
    {
        let mut r = SplitMix(700 + case as u64);
        let mut vals = |len: usize| -> Vec<f64> {
            (0..len)
                .map(|_| format!("{:.4}", r.unit()).parse::<f32>().unwrap() as f64)
                .collect()
        };
        let w1 = vals(k * h);
        let w2 = vals(h * n);
        let x: Vec<f64> = vals(m * k)
            .iter()
            .map(|v| (3.0 * v) as f32 as f64)
            .collect();
        let lit = |v: &[f64], cols: usize| -> String {
            let rows: Vec<String> = v
                .chunks(cols)
                .map(|c| {
                    let e: Vec<String> = c.iter().map(|x| format!("{:?}", *x as f32)).collect();
                    format!("[{}]", e.join(", "))
                })
                .collect();
            format!("[{}]", rows.join(", "))
        };
        let text = format!(
            "func.func @main(%x: tensor<{m}x{k}xf32>) -> tensor<{m}x{n}xf32> {{
  %w1 = graph.constant dense<{}> : tensor<{k}x{h}xf32>
  %w2 = graph.constant dense<{}> : tensor<{h}x{n}xf32>
  %a = graph.matmul %x, %w1 : (tensor<{m}x{k}xf32>, tensor<{k}x{h}xf32>) -> tensor<{m}x{h}xf32>
  %r = graph.relu %a : tensor<{m}x{h}xf32>
  %y = graph.matmul %r, %w2 : (tensor<{m}x{h}xf32>, tensor<{h}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %y : tensor<{m}x{n}xf32>
}}
",
            lit(&w1, h),
            lit(&w2, n)
        );
        let (want, near_tie) = fp8_mlp(&x, (&w1, &w2), (m, k, h, n), false);
        let (want32, _) = fp8_mlp(&x, (&w1, &w2), (m, k, h, n), true);
        let float: Vec<f64> = {
            let mut hid = vec![0.0; m * h];
            for i in 0..m {
                for j in 0..h {
                    hid[i * h + j] = (0..k)
                        .map(|kk| x[i * k + kk] * w1[kk * h + j])
                        .sum::<f64>()
                        .max(0.0);
                }
            }
            (0..m * n)
                .map(|e| {
                    let (i, j) = (e / n, e % n);
                    (0..h).map(|kk| hid[i * h + kk] * w2[kk * n + j]).sum()
                })
                .collect()
        };
        let xi = x.clone();
        let (printed, got) = interpret(
            &text,
            Some("builtin.module(quantize{mode=fp8 min-elements=1})"),
            move |u, ins| vec![Tensor::from_f64s(u, ins[0], xi.iter().copied())],
        );
        let fp8_products = printed
            .lines()
            .filter(|l| l.contains("graph.matmul") && l.contains("xf8E4M3FN>, tensor"))
            .count();
        assert_eq!(fp8_products, 2, "both products in fp8\n{printed}");
        let got = got[0].to_f64s();
        let scale = want.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(1.0);
        let err32 = rel_err(&got, &want32);
        assert!(
            err32 <= 1e-4,
            "case {case}: interpreted fp8 MLP off its f32-step reference by {err32}\n{printed}"
        );
        let err = rel_err(&got, &want);
        assert!(
            err <= 1e-3 || near_tie,
            "case {case}: interpreted fp8 MLP off its float64 reference by {err}"
        );
        let qerr = got
            .iter()
            .zip(&float)
            .fold(0.0f64, |e, (g, f)| e.max((g - f).abs()))
            / scale;
        assert!(qerr < 0.1, "case {case}: quantization error {qerr}");
        assert!(qerr > 0.0, "case {case}: quantization changed nothing");
        let dir = scratch(&format!("mlp{case}"));
        let file = dir.join("q.mlir");
        std::fs::write(&file, &printed).unwrap();
        let xin = dir.join("x.npy");
        let xb: Vec<u8> = x.iter().flat_map(|v| (*v as f32).to_le_bytes()).collect();
        std::fs::write(&xin, npy(&[m, k], "<f4", &xb)).unwrap();
        for mma in ["false", "nvgpu"] {
            let data = run_host(
                &file,
                std::slice::from_ref(&xin),
                &[format!("--mma={mma}"), "--threads=128".to_string()],
                "<f4",
                true,
            );
            let host: Vec<f64> = data
                .chunks(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                .collect();
            let err = rel_err(&host, &got);
            assert!(
                err <= 1e-4,
                "case {case} mma={mma}: host off the interpreter by {err}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The IR `aic-opt` makes of `file` with the host's matrix pipeline on
/// `mma` in blocks of `threads`, tiles from `tuning`.
fn host_ir(file: &Path, mma: &str, threads: i64, tuning: &Path) -> String {
    let tuning = tuning.to_str().unwrap();
    let pipeline = aic_tools::compile::matrix_pipeline(
        "host",
        None,
        Some(threads),
        Some(32),
        Some(mma),
        Some(tuning),
        aic_tools::compile::Rings::default(),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_aic-opt"))
        .arg(file)
        .arg(format!("--pass-pipeline={pipeline}"))
        .output()
        .expect("aic-opt runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// fp8 GEMMs on Hopper's warpgroup MMA, emulated on the host
/// (`--mma=wgmma`: wgmma m64nNk32 reading 128-byte-swizzled byte tiles
/// through descriptors the host decodes): fp8 A and B given as bytes
/// (.npy `|V1`), B as `[N, K]` with `transpose_b` (K-major, what the 8-bit
/// forms need), at awkward shapes (M and K partial blocks, N not a
/// multiple of 64), one and two warpgroups, against an f64 product within
/// f32 summation error; each compiled onto `nvgpu.warpgroup.mma` (checked
/// in its IR). B given `[K, N]` (N-major) keeps mma.sync, and is as right.
#[test]
fn fp8_wgmma_gemms_on_the_host_match_an_f64_product() {
    // (m, k, n, transpose_b, format, tuning: bm, bn, bk, stages, threads)
    type Case = (usize, usize, usize, bool, FloatKind, [usize; 5]);
    let cases: &[Case] = &[
        (
            100,
            272,
            80,
            true,
            FloatKind::F8E4M3FN,
            [64, 80, 128, 3, 128],
        ),
        (
            150,
            256,
            96,
            true,
            FloatKind::F8E5M2,
            [128, 96, 128, 4, 256],
        ),
        (
            64,
            384,
            64,
            false,
            FloatKind::F8E4M3FN,
            [64, 64, 128, 3, 128],
        ),
    ];
    for (i, &(m, k, n, tb, kind, [bm, bn, bk, stages, threads])) in cases.iter().enumerate() {
        let name = if kind == FloatKind::F8E4M3FN {
            "f8E4M3FN"
        } else {
            "f8E5M2"
        };
        let sb = if tb { [n, k] } else { [k, n] };
        let text = format!(
            "func.func @main(%a: {ta}, %b: {tb_}) -> {tc} {{\n  %y = graph.matmul %a, %b{t} : ({ta}, {tb_}) -> {tc}\n  return %y : {tc}\n}}\n",
            ta = ty(&[m, k], name),
            tb_ = ty(&sb, name),
            tc = ty(&[m, n], "f32"),
            t = if tb { " transpose_b" } else { "" },
        );
        let mut r = SplitMix(2300 + i as u64);
        let a = fp8_values(&mut r, kind, m * k);
        let b = fp8_values(&mut r, kind, k * n);
        let mut want = Vec::new();
        let mut bound = Vec::new();
        for row in 0..m {
            for col in 0..n {
                let terms: Vec<f64> = (0..k)
                    .map(|kk| {
                        let y = if tb { b[col * k + kk] } else { b[kk * n + col] };
                        a[row * k + kk] * y
                    })
                    .collect();
                want.push(terms.iter().sum::<f64>());
                let mag: f64 = terms.iter().map(|t| t.abs()).sum();
                bound.push(k as f64 * 2f64.powi(-24) * mag);
            }
        }
        let dir = scratch(&format!("wgmma{i}"));
        let file = dir.join("g.mlir");
        std::fs::write(&file, &text).unwrap();
        let tuning = dir.join("tuning.json");
        std::fs::write(
            &tuning,
            format!(
                r#"{{"cpu/gemm/{m}x{n}x{k}": {{"bm": {bm}, "bn": {bn}, "bk": {bk}, "stages": {stages}, "threads": {threads}}}}}"#
            ),
        )
        .unwrap();
        let bytes = |v: &[f64]| -> Vec<u8> { v.iter().map(|x| kind.from_f64(*x) as u8).collect() };
        let inputs = vec![dir.join("a.npy"), dir.join("b.npy")];
        std::fs::write(&inputs[0], npy(&[m, k], "|V1", &bytes(&a))).unwrap();
        std::fs::write(&inputs[1], npy(&sb, "|V1", &bytes(&b))).unwrap();
        let ir = host_ir(&file, "wgmma", threads as i64, &tuning);
        let on_wgmma = ir.contains("nvgpu.warpgroup.mma");
        assert_eq!(
            on_wgmma, tb,
            "case {i}: wgmma only where B is K-major\n{ir}"
        );
        if tb {
            assert!(ir.contains(&format!("abType = {name}")), "case {i}\n{ir}");
        }
        let extra = vec![
            "--mma=wgmma".to_string(),
            format!("--threads={threads}"),
            format!("--tuning={}", tuning.display()),
        ];
        let data = run_host(&file, &inputs, &extra, "<f4", false);
        let host: Vec<f64> = data
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
            .collect();
        assert_eq!(host.len(), want.len());
        for (e, ((h, w), bd)) in host.iter().zip(&want).zip(&bound).enumerate() {
            assert!(
                (h - w).abs() <= *bd,
                "case {i} {name}: element {e} = {h}, f64 {w}, bound {bd}\n{text}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
