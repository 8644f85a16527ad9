//! `quantize{mode=int8-weight}` on random GEMMs with constant weights
//! (awkward shapes, plain and transposed, f32 and f16): the quantized
//! program's results stay within the per-channel rounding bound of the
//! float program's (both interpreted), and the quantized program compiled
//! for the host (`aic-run --target=host --check`, the binary) equals its
//! interpretation.

mod host_check;

use aic::SourceMap;
use aic::interp::{Interp, Tensor};
use aic::ir::{Context, WalkOrder};
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic_passes::auto_mixed_precision::accuracy::{SplitMix, random};
use host_check::{host_check, rows_arg};
use std::sync::Arc;

/// A GEMM `x[m, k] @ w` with `w` a constant (`[k, n]`, or `[n, k]`
/// transposed) of random values in [-1, 1).
fn program(r: &mut SplitMix, m: usize, k: usize, n: usize, tb: bool, elem: &str) -> String {
    let (rows, cols) = if tb { (n, k) } else { (k, n) };
    let w: Vec<String> = (0..rows)
        .map(|_| {
            let row: Vec<String> = (0..cols).map(|_| format!("{:.4}", r.unit())).collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    format!(
        "func.func @main(%x: tensor<{m}x{k}x{elem}>) -> tensor<{m}x{n}x{elem}> {{\n  %w = graph.constant dense<[{}]> : tensor<{rows}x{cols}x{elem}>\n  %y = graph.matmul %x, %w{} : (tensor<{m}x{k}x{elem}>, tensor<{rows}x{cols}x{elem}>) -> tensor<{m}x{n}x{elem}>\n  return %y : tensor<{m}x{n}x{elem}>\n}}\n",
        w.join(", "),
        if tb { " transpose_b" } else { "" }
    )
}

/// The quantized text, how many i8 constants it holds, and the largest
/// difference of its interpreted results from the float program's.
fn quantized(text: &str, seed: u64) -> (String, usize, f64) {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("t.mlir", text);
        let m = parse_module(&mut ctx, &sm, id).expect("parses");
        let f = ctx
            .block_ops(ctx.entry_block(ctx.regions(m)[0]).unwrap())
            .next()
            .unwrap();
        let (octx, of) = ctx.extract(f);
        let reg = aic_passes::all_passes();
        let pm =
            parse_pipeline("builtin.module(quantize{min-elements=1})", &reg).expect("pipeline");
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, &mut ctx, m)
            .expect("quantizes");
        verify(&ctx, m).expect("verifies");
        let mut i8s = 0;
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, op| {
            let is_i8 = |t: aic::Type| {
                matches!(ctx.type_kind(t), aic::types::TypeKind::Tensor { elem, .. }
                    if matches!(ctx.type_kind(*elem), aic::types::TypeKind::Integer { width: 8, .. }))
            };
            if ctx.op_name(op) == "graph.constant" && is_i8(ctx.value_type(ctx.result(op, 0))) {
                i8s += 1;
            }
        });
        let (ins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
        let mut rng = SplitMix(seed);
        let args: Vec<_> = ins
            .iter()
            .map(|t| random(ctx.uniquer(), *t, &mut rng).expect("floats"))
            .collect();
        let want = Interp::new(&octx).call(of, args.clone()).expect("runs");
        let got = Interp::new(&ctx).call(f, args).expect("runs");
        let err = got[0]
            .to_f64s()
            .iter()
            .zip(want[0].to_f64s())
            .fold(0.0f64, |e, (a, b)| e.max((a - b).abs()));
        let printed = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
        (printed, i8s, err)
    })
}

#[test]
fn int8_weights_stay_within_their_rounding_and_compile_for_the_host() {
    let cases: &[(usize, usize, usize, bool, &str)] = &[
        (1, 16, 8, false, "f32"),
        (7, 33, 19, false, "f32"),
        (16, 64, 48, true, "f32"),
        (5, 17, 40, true, "f32"),
        (32, 64, 64, false, "f16"),
    ];
    for (i, &(m, k, n, tb, elem)) in cases.iter().enumerate() {
        let mut r = SplitMix(100 + i as u64);
        let text = program(&mut r, m, k, n, tb, elem);
        let (q, i8s, err) = quantized(&text, i as u64);
        assert_eq!(i8s, 1, "one i8 weight\n{q}");
        // |x| < 1 and each weight is off by at most half its channel's
        // scale (at most 1/127 / 2): k such terms; f16 adds its rounding.
        let bound = k as f64 / 254.0 + if elem == "f16" { 0.05 } else { 1e-6 };
        assert!(err <= bound, "case {i}: error {err} > {bound}\n{q}");
        assert!(err > 0.0, "case {i}: quantization changed nothing\n{q}");
        let dir = std::env::temp_dir().join(format!("aic-quantize-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("q.mlir");
        std::fs::write(&file, &q).unwrap();
        let rows: Vec<String> = (0..m)
            .map(|_| {
                let row: Vec<String> = (0..k).map(|_| format!("{:.3}", r.unit())).collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        let (ok, stderr) = host_check(&file, &[], &rows_arg(&rows, (m, k, elem)));
        assert!(ok, "case {i}: {stderr}\n{q}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `stablehlo-legalize-quant-to-math` against the interpreter's quantized
/// semantics: programs quantizing activations (per tensor, with zero
/// points), moving them, dequantizing, and contracting with per-channel
/// int8 weights (hybrid) or fully quantized operands (i32 results), at a
/// few shapes; the lowered program, interpreted and compiled for the host,
/// gives what the quantized one gives, up to one step of a scale where a
/// division lands on a tie.
#[test]
fn quantized_stablehlo_lowers_to_what_the_interpreter_computes() {
    for (i, &(m, k, n)) in [(2usize, 4usize, 3usize), (5, 16, 7), (1, 33, 9)]
        .iter()
        .enumerate()
    {
        let mut r = SplitMix(500 + i as u64);
        let scales: Vec<String> = (0..n)
            .map(|_| format!("{:.4}", 0.01 + (r.unit() + 1.0) / 40.0))
            .collect();
        let wq = format!("!quant.uniform<i8:f32:1, {{{}}}>", scales.join(","));
        let xq = "!quant.uniform<i8:f32, 0.02:-5>";
        let (sx, sy) = (0.02f64, 0.02f64 * 0.5);
        let _ = sx;
        let text = format!(
            "func.func @main(%x: tensor<{m}x{k}xf32>, %w: tensor<{k}x{n}x{wq}>) -> (tensor<{m}x{n}xf32>, tensor<{m}x{k}xf32>, tensor<{m}x{m}xf32>) {{
  %q = stablehlo.uniform_quantize %x : (tensor<{m}x{k}xf32>) -> tensor<{m}x{k}x{xq}>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<{m}x{k}x{xq}>) -> tensor<{k}x{m}x{xq}>
  %d = stablehlo.uniform_dequantize %q : (tensor<{m}x{k}x{xq}>) -> tensor<{m}x{k}xf32>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<{m}x{k}xf32>, tensor<{k}x{n}x{wq}>) -> tensor<{m}x{n}xf32>
  %z = stablehlo.dot_general %q, %t, contracting_dims = [1] x [0] : (tensor<{m}x{k}x{xq}>, tensor<{k}x{m}x{xq}>) -> tensor<{m}x{m}x!quant.uniform<i32:f32, {sy}:0>>
  %zd = stablehlo.uniform_dequantize %z : (tensor<{m}x{m}x!quant.uniform<i32:f32, {sy}:0>>) -> tensor<{m}x{m}xf32>
  return %y, %d, %zd : tensor<{m}x{n}xf32>, tensor<{m}x{k}xf32>, tensor<{m}x{m}xf32>
}}
"
        );
        let xs: Vec<f64> = (0..m * k).map(|_| 2.0 * r.unit()).collect();
        let ws: Vec<i64> = (0..k * n)
            .map(|_| (r.next_u64() % 255) as i64 - 127)
            .collect();
        let (got, want, lowered) = {
            let (text, xs, ws) = (text.clone(), xs.clone(), ws.clone());
            with_parser_stack(move || {
                let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
                let mut sm = SourceMap::new();
                let id = sm.add("q.mlir", text);
                let module = parse_module(&mut ctx, &sm, id).expect("parses");
                verify(&ctx, module).expect("verifies");
                let f = ctx
                    .block_ops(ctx.entry_block(ctx.regions(module)[0]).unwrap())
                    .next()
                    .unwrap();
                let (octx, of) = ctx.extract(f);
                let (ins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
                let u = ctx.uniquer().clone();
                let args = vec![
                    Tensor::from_f64s(&u, ins[0], xs.iter().copied()),
                    Tensor::from_i64s(&u, ins[1], ws.iter().copied()),
                ];
                let want = Interp::new(&octx)
                    .call(of, args.clone())
                    .expect("runs quantized");
                let reg = aic_passes::all_passes();
                let pm = parse_pipeline("builtin.module(stablehlo-legalize-quant-to-math)", &reg)
                    .expect("pipeline");
                PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                    .run(&pm, &mut ctx, module)
                    .expect("lowers");
                verify(&ctx, module).expect("verifies");
                let (lins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
                let largs = vec![
                    Tensor::from_f64s(&u, lins[0], xs.iter().copied()),
                    Tensor::from_i64s(&u, lins[1], ws.iter().copied()),
                ];
                let got = Interp::new(&ctx).call(f, largs).expect("runs lowered");
                let printed = aic::op_printer::print_op(
                    &ctx,
                    module,
                    aic::op_printer::PrintOptions::default(),
                );
                (got, want, printed)
            })
        };
        assert!(!lowered.contains("quant.uniform"), "{lowered}");
        // One step of the activations' scale (0.02) where x / scale lands on
        // a tie, times |w| <= 127 * the largest scale, over k terms.
        let bounds = [1e-4, 0.02 + 1e-6, (k as f64) * 2.0 * 0.02 * 2.0 + 1e-6];
        for (o, ((g, w), bound)) in got.iter().zip(&want).zip(bounds).enumerate() {
            let err = g
                .to_f64s()
                .iter()
                .zip(w.to_f64s())
                .fold(0.0f64, |e, (a, b)| e.max((a - b).abs() / (1.0 + b.abs())));
            assert!(
                err <= bound,
                "case {i} result {o}: error {err} > {bound}\n{text}\n{lowered}"
            );
        }
        let dir = std::env::temp_dir().join(format!("aic-quant-lower-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("l.mlir");
        std::fs::write(&file, &lowered).unwrap();
        let lit = |v: Vec<String>, rows: usize| -> String {
            let cols = v.len() / rows;
            let rs: Vec<String> = v
                .chunks(cols)
                .map(|c| format!("[{}]", c.join(", ")))
                .collect();
            format!("[{}]", rs.join(", "))
        };
        let args = format!(
            "[dense<{}> : tensor<{m}x{k}xf32>, dense<{}> : tensor<{k}x{n}xi8>]",
            lit(xs.iter().map(|x| format!("{x:e}")).collect(), m),
            lit(ws.iter().map(|w| w.to_string()).collect(), k)
        );
        let (ok, stderr) = host_check(&file, &[], &args);
        assert!(ok, "case {i}: {stderr}\n{lowered}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
