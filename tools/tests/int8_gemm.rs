//! int8 GEMMs and `quantize{mode=int8-dynamic}` against references.
//!
//! * i8 x i8 -> i32 `graph.matmul`s on random bytes (the extremes -128 and
//!   127 included) at awkward shapes (M, N, K not multiples of the tiles;
//!   K not a multiple of mma.sync's 32, so K tails are zero-filled),
//!   plain, transposed and batched, compiled for the host (`aic-run
//!   --target=host`) with and without tensor cores (`--mma=nvgpu`: the
//!   warp's `mma.sync` m16n8k32 emulated on the host), at blocks of one and
//!   of 128 threads: the results equal, exactly, both the interpreter's and
//!   an i64 product computed here.
//! * An MLP (`x W1`, ReLU, `h W2`) under `quantize{mode=int8-dynamic}`:
//!   interpreted and compiled for the host, it equals a float64 reference
//!   of the same scheme (torchao's: per-row activation scales clamped at
//!   1e-5 / 127, per-channel weight scales, ties to even) within 1e-4
//!   relative to 1 + |y| (the program's f32 scales and products against
//!   f64), unless an activation lies within 1e-6 of a rounding tie, which
//!   f32 and f64 may send to different levels; the same reference with
//!   the program's f32 steps within 1e-5 always; and the float MLP within
//!   5% of its largest output (the scheme's own error).
//!
//! Runs the binaries, so that this test links no LLVM itself.

use aic::SourceMap;
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
    let dir = std::env::temp_dir().join(format!("aic-int8-{}-{tag}", std::process::id()));
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
/// against the interpreter; gives result 0's data bytes.
fn run_host(file: &Path, inputs: &[PathBuf], extra: &[String], descr: &str) -> Vec<u8> {
    let out_dir = file.with_extension("out");
    let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .arg("--target=host")
        .arg(file)
        .arg("--entry=@main")
        .args(inputs.iter().map(|p| format!("--input={}", p.display())))
        .args(extra)
        .arg("--check")
        .arg(format!("--output-dir={}", out_dir.display()))
        .output()
        .expect("aic-run runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.contains("check: ok"),
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

/// Random bytes, one in 16 an extreme (-128 or 127).
fn bytes(r: &mut SplitMix, n: usize) -> Vec<i8> {
    (0..n)
        .map(|_| match r.next_u64() % 16 {
            0 => -128,
            1 => 127,
            _ => (r.next_u64() % 256) as u8 as i8,
        })
        .collect()
}

fn ty(shape: &[usize], elem: &str) -> String {
    let d: Vec<String> = shape.iter().map(|x| x.to_string()).collect();
    format!("tensor<{}x{elem}>", d.join("x"))
}

#[test]
fn int8_gemms_on_the_host_equal_the_interpreter_exactly() {
    // (batch, m, k, n, transpose_b)
    let cases: &[(usize, usize, usize, usize, bool)] = &[
        (0, 1, 1, 1, false),
        (0, 37, 70, 45, false),
        (0, 16, 32, 8, false),
        (0, 64, 96, 64, false),
        (0, 130, 100, 72, true),
        (0, 5, 33, 9, true),
        (0, 128, 256, 96, false),
        (3, 16, 40, 24, false),
        (2, 33, 65, 17, false),
    ];
    for (i, &(batch, m, k, n, tb)) in cases.iter().enumerate() {
        let lead: Vec<usize> = (batch > 0).then_some(batch).into_iter().collect();
        let sa = [&lead[..], &[m, k]].concat();
        let sb = [&lead[..], &if tb { [n, k] } else { [k, n] }].concat();
        let sc = [&lead[..], &[m, n]].concat();
        let op = if batch > 0 {
            "graph.batch_matmul"
        } else {
            "graph.matmul"
        };
        let text = format!(
            "func.func @main(%a: {ta}, %b: {tb_}) -> {tc} {{\n  %y = {op} %a, %b{t} : ({ta}, {tb_}) -> {tc}\n  return %y : {tc}\n}}\n",
            ta = ty(&sa, "i8"),
            tb_ = ty(&sb, "i8"),
            tc = ty(&sc, "i32"),
            t = if tb { " transpose_b" } else { "" },
        );
        let mut r = SplitMix(900 + i as u64);
        let a = bytes(&mut r, sa.iter().product());
        let b = bytes(&mut r, sb.iter().product());
        // The product in i64, here.
        let mut want = Vec::new();
        for bi in 0..batch.max(1) {
            for row in 0..m {
                for col in 0..n {
                    let s: i64 = (0..k)
                        .map(|kk| {
                            let x = a[(bi * m + row) * k + kk] as i64;
                            let y = if tb {
                                b[(bi * n + col) * k + kk]
                            } else {
                                b[(bi * k + kk) * n + col]
                            } as i64;
                            x * y
                        })
                        .sum();
                    want.push(s);
                }
            }
        }
        let (ia, ib) = (a.clone(), b.clone());
        let (_, got) = interpret(&text, None, move |u, ins| {
            vec![
                Tensor::from_i64s(u, ins[0], ia.iter().map(|x| *x as i64)),
                Tensor::from_i64s(u, ins[1], ib.iter().map(|x| *x as i64)),
            ]
        });
        assert_eq!(got[0].to_i64s(), want, "case {i}: the interpreter\n{text}");
        let dir = scratch(&format!("gemm{i}"));
        let file = dir.join("g.mlir");
        std::fs::write(&file, &text).unwrap();
        let inputs = vec![dir.join("a.npy"), dir.join("b.npy")];
        let raw = |v: &[i8]| v.iter().map(|x| *x as u8).collect::<Vec<u8>>();
        std::fs::write(&inputs[0], npy(&sa, "|i1", &raw(&a))).unwrap();
        std::fs::write(&inputs[1], npy(&sb, "|i1", &raw(&b))).unwrap();
        for mma in ["false", "nvgpu"] {
            for threads in [1, 128] {
                let extra = vec![format!("--mma={mma}"), format!("--threads={threads}")];
                let data = run_host(&file, &inputs, &extra, "<i4");
                let host: Vec<i64> = data
                    .chunks(4)
                    .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i64)
                    .collect();
                assert_eq!(host, want, "case {i} {extra:?}\n{text}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The int8-dynamic scheme on `x` (`[m, k]`) times `w` (`[k, n]`): the
/// result, and whether some `x / s_row` lay within 1e-6 of a rounding tie.
/// With `f32`, the scales, the division and the scaling back are f32
/// operations (each correctly rounded), as the program computes them;
/// without, all is f64.
fn dynamic_linear(
    x: &[f64],
    w: &[f64],
    (m, k, n): (usize, usize, usize),
    f32: bool,
) -> (Vec<f64>, bool) {
    let r = |v: f64| if f32 { v as f32 as f64 } else { v };
    let (qw, sw, _) = aic_passes::quantize::quantize_per_channel(w, k, n, 1).expect("finite");
    let mut near_tie = false;
    let mut y = vec![0.0; m * n];
    for i in 0..m {
        let row = &x[i * k..(i + 1) * k];
        let amax = row.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let s = r(amax.max(r(aic_passes::quantize::ACTIVATION_EPS)) / 127.0);
        let q: Vec<f64> = row
            .iter()
            .map(|v| {
                let t = r(v / s);
                near_tie |= ((t - t.trunc()).abs() - 0.5).abs() < 1e-6;
                t.round_ties_even().clamp(-127.0, 127.0)
            })
            .collect();
        for j in 0..n {
            let acc: f64 = (0..k).map(|kk| q[kk] * qw[kk * n + j] as f64).sum();
            y[i * n + j] = r(r(acc * s) * r(sw[j]));
        }
    }
    (y, near_tie)
}

/// The MLP of the scheme: `dynamic_linear`, ReLU, `dynamic_linear`.
fn dynamic_mlp(
    x: &[f64],
    (w1, w2): (&[f64], &[f64]),
    (m, k, h, n): (usize, usize, usize, usize),
    f32: bool,
) -> (Vec<f64>, bool) {
    let (a, tie1) = dynamic_linear(x, w1, (m, k, h), f32);
    let relu: Vec<f64> = a.iter().map(|v| v.max(0.0)).collect();
    let (y, tie2) = dynamic_linear(&relu, w2, (m, h, n), f32);
    (y, tie1 || tie2)
}

/// The largest of `|a - b| / (1 + |b|)`.
fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .fold(0.0f64, |e, (x, y)| e.max((x - y).abs() / (1.0 + y.abs())))
}

#[test]
fn int8_dynamic_mlp_equals_a_float64_reference_of_its_scheme() {
    // (m, k, hidden, n)
    for (case, &(m, k, h, n)) in [
        (4usize, 40usize, 24usize, 8usize),
        (9, 33, 70, 17),
        (16, 64, 96, 32),
    ]
    .iter()
    .enumerate()
    {
        let mut r = SplitMix(300 + case as u64);
        let mut vals = |len: usize| -> Vec<f64> {
            (0..len)
                .map(|_| format!("{:.4}", r.unit()).parse::<f32>().unwrap() as f64)
                .collect()
        };
        let w1 = vals(k * h);
        let w2 = vals(h * n);
        // Exactly f32 values (3 times an f32 is exact but for rounding).
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
        // The references: the scheme in f64, and with the program's f32
        // steps (x as the program reads it, in f32).
        let x32: Vec<f64> = x.iter().map(|v| *v as f32 as f64).collect();
        let (want, near_tie) = dynamic_mlp(&x32, (&w1, &w2), (m, k, h, n), false);
        let (want32, _) = dynamic_mlp(&x32, (&w1, &w2), (m, k, h, n), true);
        // The float MLP, for the scheme's own error.
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
            Some("builtin.module(quantize{mode=int8-dynamic min-elements=1})"),
            move |u, ins| vec![Tensor::from_f64s(u, ins[0], xi.iter().copied())],
        );
        let int8_products = printed
            .lines()
            .filter(|l| l.contains("graph.matmul") && l.contains("xi32>"))
            .count();
        assert_eq!(int8_products, 2, "both products in int8\n{printed}");
        let got = got[0].to_f64s();
        let scale = want.iter().fold(0.0f64, |a, v| a.max(v.abs())).max(1.0);
        // The program's f32 steps: the same levels, the same roundings.
        let err32 = rel_err(&got, &want32);
        assert!(
            err32 <= 1e-5,
            "case {case}: interpreted int8-dynamic MLP off its f32-step reference by {err32}\n{printed}"
        );
        // The float64 scheme: 1e-4, unless an activation lies within 1e-6
        // of a rounding tie, which f32 and f64 may send to different levels.
        let err = rel_err(&got, &want);
        assert!(
            err <= 1e-4 || near_tie,
            "case {case}: interpreted int8-dynamic MLP off its float64 reference by {err}\n{printed}"
        );
        // The scheme's error against the float MLP: each activation and
        // weight off by at most half its step; relative to the output's scale.
        let qerr = got
            .iter()
            .zip(&float)
            .fold(0.0f64, |e, (g, f)| e.max((g - f).abs()))
            / scale;
        assert!(
            qerr < 0.05,
            "case {case}: quantization error {qerr}\n{printed}"
        );
        assert!(qerr > 0.0, "case {case}: quantization changed nothing");
        // Compiled for the host (with and without tensor cores): the
        // interpreter's result.
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
                &[format!("--mma={mma}")],
                "<f4",
            );
            let host: Vec<f64> = data
                .chunks(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                .collect();
            let err = host
                .iter()
                .zip(&got)
                .fold(0.0f64, |e, (a, b)| e.max((a - b).abs() / (1.0 + b.abs())));
            assert!(
                err <= 1e-5,
                "case {case} mma={mma}: host off the interpreter by {err}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
