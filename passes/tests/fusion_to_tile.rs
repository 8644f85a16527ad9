//! Differential test of `fusion-to-tile`: GEMM groups with epilogue chains,
//! fused by `eqsat-fusion` and turned into tile kernels, interpreted block
//! by block, equal the graph program on random inputs, for shapes that are
//! and are not multiples of the tiles, size 1, large K, transposed operands,
//! leading batch dims, and several targets' tile sizes.

use aic::interp::{Data, Interp, Tensor};
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use aic_dialects::coord::desc::sample::Rng;
use std::sync::Arc;

fn ty(s: &[i64]) -> String {
    let d: Vec<String> = s.iter().map(|x| x.to_string()).collect();
    format!("tensor<{}xf32>", d.join("x"))
}

/// A dense layer `act(x @ w + b) (+ r)` in graph ops, and its arguments'
/// shapes.
fn program(
    batch: &[i64],
    (m, n, k): (i64, i64, i64),
    tb: bool,
    act: &str,
    residual: bool,
) -> (String, Vec<Vec<i64>>) {
    let ws = if tb { vec![n, k] } else { vec![k, n] };
    let with = |v: &[i64]| [batch, v].concat();
    let (xs, os) = (with(&[m, k]), with(&[m, n]));
    let mut args = vec![xs.clone(), ws.clone(), vec![n]];
    let mut body = format!(
        "  %m = graph.matmul %a0, %a1{} : ({}, {}) -> {o}\n  %b = graph.bias_add %m, %a2 : ({o}, {}) -> {o}\n",
        if tb { " transpose_b" } else { "" },
        ty(&xs),
        ty(&ws),
        ty(&[n]),
        o = ty(&os)
    );
    let mut cur = "%b".to_string();
    if residual {
        args.push(os.clone());
        body += &format!("  %s = graph.add {cur}, %a3 : {}\n", ty(&os));
        cur = "%s".into();
    }
    body += &format!("  %y = graph.{act} {cur} : {}\n", ty(&os));
    let params: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, s)| format!("%a{i}: {}", ty(s)))
        .collect();
    (
        format!(
            "func.func @main({}) -> {o} {{\n{body}  return %y : {o}\n}}\n",
            params.join(", "),
            o = ty(&os)
        ),
        args,
    )
}

fn run(
    text: &str,
    pipeline: &str,
    args: &[Vec<i64>],
    seed: u64,
) -> Result<(Vec<f64>, String), String> {
    let (text, pipeline, args) = (text.to_string(), pipeline.to_string(), args.to_vec());
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let half = text.contains("f16");
        let id = sm.add("t.mlir", text);
        let m = parse_module(&mut ctx, &sm, id).map_err(|e| sm.render(ctx.uniquer(), &e))?;
        verify(&ctx, m).map_err(|e| sm.render(ctx.uniquer(), &e))?;
        let reg = aic_passes::all_passes();
        let pm = parse_pipeline(&pipeline, &reg).map_err(|e| format!("{e:?}"))?;
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, &mut ctx, m)
            .map_err(|e| e.message)?;
        let printed = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
        let body = ctx.entry_block(ctx.regions(m)[0]).expect("body");
        let f = ctx
            .block_ops(body)
            .find(|o| aic::symbol::symbol_name(&ctx, *o) == Some("main"))
            .expect("@main");
        let (ins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
        let mut r = Rng(seed);
        let inputs: Vec<Tensor> = ins
            .iter()
            .zip(&args)
            .map(|(t, s)| {
                let n: i64 = s.iter().product();
                let data: Vec<f64> = (0..n)
                    .map(|_| (r.next(2001) as f64 - 1000.0) / 500.0)
                    .collect();
                let int = aic::interp::Elem::of(ctx.uniquer(), *t)
                    .is_some_and(|e| !matches!(e, aic::interp::Elem::Float(_)));
                if int {
                    // Integers from -8 to 8.
                    let d = data.iter().map(|v: &f64| (v * 4.0).round() as i64);
                    Tensor::from_i64s(ctx.uniquer(), *t, d)
                } else {
                    Tensor::from_f64s(ctx.uniquer(), *t, data)
                }
            })
            .collect();
        let flat = |out: Vec<Tensor>| -> Vec<f64> {
            out.iter()
                .flat_map(|t| match &t.data {
                    Data::Int(v) => v.iter().map(|x| x as f64).collect(),
                    _ => t.to_f64s(),
                })
                .collect()
        };
        let out = flat(
            Interp::new(&ctx)
                .call(f, inputs.clone())
                .map_err(|e| e.message)?,
        );
        // Small cases only: the interpreter runs the gpu level op by op.
        let elements: i64 = args.iter().map(|s| s.iter().product::<i64>()).sum();
        if pipeline.contains("fusion-to-tile") && elements <= 1500 {
            // One level down: the kernels as one thread's program
            // (tile-to-gpu with one thread a block, which the interpreter
            // runs) give the tile kernels' values.
            let pm = parse_pipeline(
                "builtin.module(tile-to-gpu{threads=1},coord-to-arith,canonicalize)",
                &reg,
            )
            .map_err(|e| format!("{e:?}"))?;
            PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                .run(&pm, &mut ctx, m)
                .map_err(|e| e.message)?;
            verify(&ctx, m).map_err(|e| sm.render(ctx.uniquer(), &e))?;
            let gpu = flat(Interp::new(&ctx).call(f, inputs).map_err(|e| e.message)?);
            let tol = if half { 2e-2 } else { 1e-4 };
            close(
                &gpu,
                &out,
                tol,
                "gpu-level kernels against the tile kernels",
            );
        }
        Ok((out, printed))
    })
}

#[test]
fn gemm_kernels_equal_the_graph_program() {
    let mut r = Rng(41);
    let shapes: [(i64, i64, i64); 6] = [
        (1, 1, 1),
        (7, 5, 3),
        (64, 64, 32),
        (65, 33, 17),
        (3, 70, 300),
        (40, 1, 9),
    ];
    let acts = ["relu", "gelu", "gelu_tanh", "sigmoid", "silu", "tanh"];
    let targets = ["h100", "mi300", "cpu"];
    let mut kernels = 0;
    for (i, (m, n, k)) in shapes.iter().enumerate() {
        for j in 0..3 {
            let act = acts[(i * 3 + j) % acts.len()];
            let (tb, residual) = (r.next(2) == 1, r.next(2) == 1);
            let target = targets[(i + j) % targets.len()];
            let batch: Vec<i64> = match j {
                0 => vec![],
                1 => vec![2],
                _ => vec![2, 3],
            };
            let (text, args) = program(&batch, (*m, *n, *k), tb, act, residual);
            let (want, _) =
                run(&text, "builtin.module()", &args, 7 + j as u64).expect("reference runs");
            let pipeline =
                format!("builtin.module(eqsat-fusion,fusion-to-tile{{target={target}}})");
            let (got, printed) = run(&text, &pipeline, &args, 7 + j as u64)
                .unwrap_or_else(|e| panic!("{m}x{n}x{k} {act} on {target}: {e}"));
            assert!(
                printed.contains("tile.launch"),
                "{m}x{n}x{k} {act}: no kernel made:\n{printed}"
            );
            assert!(
                !printed.contains("fusion.group"),
                "{m}x{n}x{k} {act}: a group is left:\n{printed}"
            );
            kernels += 1;
            close(
                &got,
                &want,
                1e-5,
                &format!("{m}x{n}x{k} {act} (transpose_b {tb}, residual {residual}) on {target}"),
            );
        }
    }
    assert_eq!(kernels, 18);
}

#[test]
fn groups_the_specialised_generators_decline_go_to_the_general_one() {
    // A softmax written out (a reduction broadcast back): no template
    // takes it; the general generator does, and it is still right.
    let text = "func.func @main(%a0: tensor<4x10xf32>) -> tensor<4x10xf32> {\n  %m = graph.reduce max %a0, axes = [1] : (tensor<4x10xf32>) -> tensor<4xf32>\n  %b = graph.broadcast %m, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>\n  %d = graph.sub %a0, %b : tensor<4x10xf32>\n  %e = graph.exp %d : tensor<4x10xf32>\n  return %e : tensor<4x10xf32>\n}\n";
    let args = vec![vec![4, 10]];
    let (want, _) = run(text, "builtin.module()", &args, 3).expect("runs");
    let (got, printed) = run(
        text,
        "builtin.module(eqsat-fusion,fusion-to-tile)",
        &args,
        3,
    )
    .expect("runs");
    assert!(
        printed.contains("tile.launch @general_0") && !printed.contains("fusion.group"),
        "{printed}"
    );
    assert_eq!(got, want);
}

#[test]
fn long_statistics_broadcast_back_and_gemms_among_other_ops_are_split() {
    // A group norm's statistics over 512 elements each, broadcast back:
    // the general generator would redo the sum for every element, so the
    // group is split (a reduction kernel, then elementwise ones).
    let norm = "func.func @main(%a0: tensor<2x512xf32>) -> tensor<2x512xf32> {\n  %s = graph.reduce sum %a0, axes = [1] : (tensor<2x512xf32>) -> tensor<2xf32>\n  %b = graph.broadcast %s, dims = [0] : (tensor<2xf32>) -> tensor<2x512xf32>\n  %d = graph.sub %a0, %b : tensor<2x512xf32>\n  %e = graph.exp %d : tensor<2x512xf32>\n  return %e : tensor<2x512xf32>\n}\n";
    // A GEMM whose epilogue swaps its halves (RoPE's rotate-half): no
    // template takes the group; split, the GEMM is a GEMM kernel, not
    // scalar loops.
    let rope = "func.func @main(%a0: tensor<8x16xf32>, %a1: tensor<16x8xf32>) -> tensor<8x8xf32> {\n  %m = graph.matmul %a0, %a1 : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>\n  %l = graph.slice %m [0:8, 0:4] : (tensor<8x8xf32>) -> tensor<8x4xf32>\n  %h = graph.slice %m [0:8, 4:8] : (tensor<8x8xf32>) -> tensor<8x4xf32>\n  %n = graph.neg %h : tensor<8x4xf32>\n  %c = graph.concat %n, %l, axis = 1 : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>\n  %y = graph.mul %m, %c : tensor<8x8xf32>\n  return %y : tensor<8x8xf32>\n}\n";
    for (text, args, kernel) in [
        (norm, vec![vec![2, 512]], "@rows_"),
        (rope, vec![vec![8, 16], vec![16, 8]], "@gemm_"),
    ] {
        let (want, _) = run(text, "builtin.module()", &args, 5).expect("runs");
        let (got, printed) = run(
            text,
            "builtin.module(eqsat-fusion,fusion-to-tile)",
            &args,
            5,
        )
        .expect("runs");
        let launches = printed.matches("tile.launch").count();
        assert!(
            launches > 1 && printed.contains(kernel) && !printed.contains("fusion.group"),
            "{printed}"
        );
        close(&got, &want, 1e-4, text);
    }
}

#[test]
fn trailing_reshapes_and_transposes_are_store_addressing() {
    // BERT's query projection: [2, 8, 32] x [32, 32] + bias, split into 4
    // heads of 8 and moved head-major: the kernel stores through a view.
    let text = "func.func @main(%a0: tensor<2x8x32xf32>, %a1: tensor<32x32xf32>, %a2: tensor<32xf32>) -> tensor<2x4x8x8xf32> {
  %m = graph.matmul %a0, %a1 : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
  %b = graph.bias_add %m, %a2 : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  %r = graph.reshape %b : (tensor<2x8x32xf32>) -> tensor<2x8x4x8xf32>
  %t = graph.transpose %r, perm = [0, 2, 1, 3] : (tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
  return %t : tensor<2x4x8x8xf32>
}
";
    let args = vec![vec![2, 8, 32], vec![32, 32], vec![32]];
    let (want, _) = run(text, "builtin.module()", &args, 5).expect("runs");
    for target in ["h100", "cpu"] {
        let pipeline = format!("builtin.module(eqsat-fusion,fusion-to-tile{{target={target}}})");
        let (got, printed) = run(text, &pipeline, &args, 5).expect("runs");
        assert!(
            printed.contains("tile.launch") && !printed.contains("fusion.group"),
            "{printed}"
        );
        assert!(
            printed.contains("tile.store") && printed.contains("merge<"),
            "{printed}"
        );
        close(&got, &want, 1e-5, target);
    }
}

#[test]
fn row_kernels_equal_the_graph_program() {
    // A prologue (x * s + r), a row op over the last dimension, an
    // epilogue (relu), on row counts and lengths that are and are not
    // multiples of the block, including 1.
    let row_ops = [
        ("softmax", "graph.softmax %p : {t}"),
        (
            "layernorm",
            "graph.layernorm %p, %g, %b : ({t}, {v}, {v}) -> {t}",
        ),
        ("rmsnorm", "graph.rmsnorm %p, %g : ({t}, {v}) -> {t}"),
        ("sum", "graph.reduce sum %p, axes = [{last}] : ({t}) -> {o}"),
        ("max", "graph.reduce max %p, axes = [{last}] : ({t}) -> {o}"),
        (
            "mean",
            "graph.reduce mean %p, axes = [{last}] keep_dims : ({t}) -> {k}",
        ),
    ];
    let shapes: [&[i64]; 4] = [&[1, 1], &[5, 7], &[33, 64], &[2, 3, 9]];
    let mut kernels = 0;
    for (name, op) in row_ops {
        for s in shapes {
            let (rows, n) = (&s[..s.len() - 1], *s.last().unwrap());
            let t = ty(s);
            let v = ty(&[n]);
            let o = ty(rows);
            let k = ty(&[rows, &[1][..]].concat());
            let body = op
                .replace("{t}", &t)
                .replace("{v}", &v)
                .replace("{o}", &o)
                .replace("{k}", &k)
                .replace("{last}", &(s.len() - 1).to_string());
            let out = match name {
                "sum" | "max" => o.clone(),
                "mean" => k.clone(),
                _ => t.clone(),
            };
            let text = format!(
                "func.func @main(%x: {t}, %s: {t}, %r: {t}, %g: {v}, %b: {v}) -> {out} {{\n  %m = graph.mul %x, %s : {t}\n  %p = graph.add %m, %r : {t}\n  %y = {body}\n  %z = graph.relu %y : {out}\n  return %z : {out}\n}}\n"
            );
            let args = vec![s.to_vec(), s.to_vec(), s.to_vec(), vec![n], vec![n]];
            let (want, _) = run(&text, "builtin.module()", &args, 11).expect("reference runs");
            let (got, printed) = run(
                &text,
                "builtin.module(eqsat-fusion,fusion-to-tile)",
                &args,
                11,
            )
            .unwrap_or_else(|e| panic!("{name} {s:?}: {e}\n{text}"));
            assert!(
                printed.contains("tile.launch") && !printed.contains("fusion.group"),
                "{name} {s:?}: not all lowered:\n{printed}"
            );
            kernels += 1;
            assert_eq!(got.len(), want.len());
            close(&got, &want, 1e-5, &format!("{name} {s:?}"));
        }
    }
    assert_eq!(kernels, 24);
}

#[test]
fn elementwise_kernels_read_views_and_equal_the_graph_program() {
    // A DAG over [r, n]: x read directly, y through a transpose, a row
    // vector through a broadcast, z through a slice of a wider input.
    for (r, n) in [(1, 1), (5, 7), (33, 20), (17, 64)] {
        let (t, tt, w) = (ty(&[r, n]), ty(&[n, r]), ty(&[r, n + 3]));
        let v = ty(&[n]);
        let text = format!(
            "func.func @main(%x: {t}, %y: {tt}, %v: {v}, %z: {w}) -> {t} {{
  %yt = graph.transpose %y, perm = [1, 0] : ({tt}) -> {t}
  %vb = graph.broadcast %v, dims = [1] : ({v}) -> {t}
  %zs = graph.slice %z [0:{r}, 2:{e}] : ({w}) -> {t}
  %a = graph.mul %x, %yt : {t}
  %b = graph.sub %a, %vb : {t}
  %c = graph.tanh %b : {t}
  %d = graph.add %c, %zs : {t}
  %f = graph.mul %d, %x : {t}
  return %f : {t}
}}
",
            e = n + 2
        );
        let args = vec![vec![r, n], vec![n, r], vec![n], vec![r, n + 3]];
        let (want, _) = run(&text, "builtin.module()", &args, 13).expect("reference runs");
        let (got, printed) = run(
            &text,
            "builtin.module(eqsat-fusion,fusion-to-tile)",
            &args,
            13,
        )
        .unwrap_or_else(|e| panic!("{r}x{n}: {e}"));
        assert!(
            printed.contains("tile.launch") && !printed.contains("fusion.group"),
            "{r}x{n}: not lowered:\n{printed}"
        );
        close(&got, &want, 1e-5, &format!("{r}x{n}"));
    }
}

#[test]
fn convolutions_are_implicit_gemm_kernels() {
    // conv2d + bias + relu (NHWC) and conv2d + residual + relu (NCHW) on
    // random geometry: the kernel reads the input through the im2col
    // descriptor, never materialising it.
    let mut r = Rng(53);
    let (mut made, mut grouped) = (0, 0);
    while made < 18 {
        let nchw = made % 2 == 1;
        // Every third a grouped one (depthwise when a group has one channel).
        let groups = if made % 3 == 2 { 1 + r.next(3) } else { 1 };
        let (n, h, w, c, ko) = (
            1 + r.next(2),
            3 + r.next(5),
            3 + r.next(5),
            groups * (1 + r.next(3)),
            groups * (1 + r.next(4)),
        );
        let (kh, kw) = (1 + r.next(3), 1 + r.next(3));
        let (sh, sw, dh, dw) = (1 + r.next(2), 1 + r.next(2), 1 + r.next(2), 1 + r.next(2));
        let p: Vec<i64> = (0..4).map(|_| r.next(2)).collect();
        let span = |len: i64, k: i64, s: i64, d: i64, lo: i64, hi: i64| {
            let (padded, span) = (len + lo + hi, d * (k - 1) + 1);
            (padded >= span).then(|| (padded - span) / s + 1)
        };
        let (Some(ho), Some(wo)) = (
            span(h, kh, sh, dh, p[0], p[1]),
            span(w, kw, sw, dw, p[2], p[3]),
        ) else {
            continue;
        };
        made += 1;
        grouped += usize::from(groups > 1);
        let cg = c / groups;
        let (xs, ws, os) = if nchw {
            (vec![n, c, h, w], vec![ko, cg, kh, kw], vec![n, ko, ho, wo])
        } else {
            (vec![n, h, w, c], vec![kh, kw, cg, ko], vec![n, ho, wo, ko])
        };
        let (tx, tw, to) = (ty(&xs), ty(&ws), ty(&os));
        let conv = format!(
            "graph.conv2d %x, %w, layout = {}, strides = [{sh}, {sw}], dilations = [{dh}, {dw}], padding = [{}, {}, {}, {}], groups = {groups} : ({tx}, {tw}) -> {to}",
            if nchw { "NCHW" } else { "NHWC" },
            p[0],
            p[1],
            p[2],
            p[3]
        );
        let (extra, args_tail, second) = if nchw {
            (
                format!("%e: {to}"),
                os.clone(),
                format!("graph.add %c, %e : {to}"),
            )
        } else {
            (
                format!("%e: {}", ty(&[ko])),
                vec![ko],
                format!("graph.bias_add %c, %e : ({to}, {}) -> {to}", ty(&[ko])),
            )
        };
        let text = format!(
            "func.func @main(%x: {tx}, %w: {tw}, {extra}) -> {to} {{\n  %c = {conv}\n  %d = {second}\n  %y = graph.relu %d : {to}\n  return %y : {to}\n}}\n"
        );
        let args = vec![xs.clone(), ws.clone(), args_tail];
        let (want, _) = run(&text, "builtin.module()", &args, 17).expect("reference runs");
        let (got, printed) = run(
            &text,
            "builtin.module(eqsat-fusion,fusion-to-tile)",
            &args,
            17,
        )
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(
            printed.contains("tile.launch")
                && !printed.contains("fusion.group")
                && !printed.contains("graph.conv2d"),
            "not lowered:\n{printed}"
        );
        close(&got, &want, 1e-5, &text);
    }
    assert!(grouped >= 3, "only {grouped} grouped convolutions");
}

/// `got` equals `want` within `tol` (absolute and relative), element by
/// element.
fn close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol + tol * w.abs(),
            "{what}: element {i}: {g} != {w}"
        );
    }
}

/// A tensor type of `elem`.
fn tty(s: &[i64], elem: &str) -> String {
    let d: Vec<String> = s.iter().map(|x| format!("{x}x")).collect();
    format!("tensor<{}{elem}>", d.concat())
}

/// A function of graph ops from its parameters (names and shapes), body
/// lines and results, and the shapes of the arguments it takes.
fn func(
    params: &[(&str, Vec<i64>)],
    body: &str,
    results: &[(&str, Vec<i64>)],
    elem: &str,
) -> (String, Vec<Vec<i64>>) {
    let ps: Vec<String> = params
        .iter()
        .map(|(n, s)| format!("%{n}: {}", tty(s, elem)))
        .collect();
    let rs: Vec<String> = results.iter().map(|(_, s)| tty(s, elem)).collect();
    let vs: Vec<String> = results.iter().map(|(n, _)| format!("%{n}")).collect();
    let text = format!(
        "func.func @main({}) -> ({}) {{\n{body}  return {} : {}\n}}\n",
        ps.join(", "),
        rs.join(", "),
        vs.join(", "),
        rs.join(", ")
    );
    (text, params.iter().map(|(_, s)| s.clone()).collect())
}

/// Run `text` as it is and through `eqsat-fusion,fusion-to-tile` on
/// `target`; the lowered program must launch a kernel whose name starts
/// with `kernel`, keep no group, and give the same values within `tol`.
fn lowered_equals_graph(
    text: &str,
    args: &[Vec<i64>],
    target: &str,
    kernel: &str,
    tol: f64,
    what: &str,
) {
    let (want, _) =
        run(text, "builtin.module()", args, 11).unwrap_or_else(|e| panic!("{what}: {e}"));
    let pipeline = format!("builtin.module(eqsat-fusion,fusion-to-tile{{target={target}}})");
    let (got, printed) = run(text, &pipeline, args, 11).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        printed.contains(&format!("tile.kernel @{kernel}")) && !printed.contains("fusion.group"),
        "{what} on {target}: no {kernel} kernel, or a group left:\n{printed}"
    );
    close(&got, &want, tol, &format!("{what} on {target}"));
}

/// fp32 and fp16 tolerances: fp16 kernels compute in f32 and round once;
/// the reference rounds after every op.
const TOL: [(&str, f64); 2] = [("f32", 1e-5), ("f16", 2e-2)];

#[test]
fn attention_kernels_equal_the_graph_program() {
    // softmax(Q Kᵀ * s (+ mask)) V with FlashAttention's online softmax:
    // key counts that are not multiples of the block (masked to -inf),
    // size 1, no batch, one and two batch dims.
    // (batch dims, Sq, Sk, D, Dv, with a mask, target)
    type Case<'a> = (&'a [i64], i64, i64, i64, i64, bool, &'a str);
    let cases: [Case; 5] = [
        (&[], 1, 1, 1, 1, false, "h100"),
        (&[2], 5, 70, 8, 3, true, "h100"),
        (&[2, 3], 33, 17, 16, 16, false, "cpu"),
        (&[1], 64, 64, 32, 32, true, "mi300"),
        (&[], 9, 100, 4, 5, false, "cpu"),
    ];
    for (batch, sq, sk, d, dv, mask, target) in cases {
        for (elem, tol) in TOL {
            let with = |v: &[i64]| [batch, v].concat();
            let (q, k, v, s, o) = (
                with(&[sq, d]),
                with(&[sk, d]),
                with(&[sk, dv]),
                with(&[sq, sk]),
                with(&[sq, dv]),
            );
            let t = |x: &[i64]| tty(x, elem);
            let mut body = format!(
                "  %sb = graph.broadcast %sc, dims = [] : ({}) -> {S}\n  %qk = graph.matmul %q, %k transpose_b : ({}, {}) -> {S}\n  %x = graph.mul %qk, %sb : {S}\n",
                t(&[]),
                t(&q),
                t(&k),
                S = t(&s)
            );
            let mut params = vec![
                ("q", q.clone()),
                ("k", k.clone()),
                ("v", v.clone()),
                ("sc", vec![]),
            ];
            let mut cur = "%x";
            if mask {
                params.push(("mask", s.clone()));
                body += &format!("  %y = graph.add %x, %mask : {}\n", t(&s));
                cur = "%y";
            }
            body += &format!(
                "  %p = graph.softmax {cur}, axis = {} : {S}\n  %o = graph.matmul %p, %v : ({S}, {}) -> {}\n",
                s.len() - 1,
                t(&v),
                t(&o),
                S = t(&s)
            );
            let (text, args) = func(&params, &body, &[("o", o.clone())], elem);
            let what = format!("attention {batch:?} {sq}x{sk}x{d}x{dv} mask {mask} {elem}");
            lowered_equals_graph(&text, &args, target, "attention", tol, &what);
        }
    }
}

#[test]
fn gemms_with_prologues_row_epilogues_and_batches_equal_the_graph_program() {
    for (elem, tol) in TOL {
        let t = |x: &[i64]| tty(x, elem);
        // BERT's FFN2: bias + GeLU on A, GEMM, bias, residual, layernorm over
        // whole rows.
        let (x, w, o) = (vec![2, 5, 12], vec![12, 7], vec![2, 5, 7]);
        let body = format!(
            "  %a = graph.bias_add %x, %b1 : ({X}, {}) -> {X}\n  %g = graph.gelu %a : {X}\n  %m = graph.matmul %g, %w : ({X}, {}) -> {O}\n  %c = graph.bias_add %m, %b2 : ({O}, {N}) -> {O}\n  %r = graph.add %res, %c : {O}\n  %l = graph.layernorm %r, %gam, %bet : ({O}, {N}, {N}) -> {O}\n",
            t(&[12]),
            t(&w),
            X = t(&x),
            O = t(&o),
            N = t(&[7])
        );
        let params = [
            ("x", x.clone()),
            ("b1", vec![12]),
            ("w", w.clone()),
            ("b2", vec![7]),
            ("res", o.clone()),
            ("gam", vec![7]),
            ("bet", vec![7]),
        ];
        let (text, args) = func(&params, &body, &[("l", o.clone())], elem);
        for target in ["h100", "cpu"] {
            lowered_equals_graph(&text, &args, target, "gemm", tol, &format!("ffn2 {elem}"));
        }
        // BERT's output projection: heads moved back and merged (views on A).
        let (h, o2) = (vec![2, 3, 5, 4], vec![2, 5, 12]);
        let body = format!(
            "  %t = graph.transpose %h, perm = [0, 2, 1, 3] : ({}) -> {}\n  %r = graph.reshape %t : ({}) -> {X}\n  %m = graph.matmul %r, %w : ({X}, {}) -> {X}\n  %y = graph.relu %m : {X}\n",
            t(&h),
            t(&[2, 5, 3, 4]),
            t(&[2, 5, 3, 4]),
            t(&[12, 12]),
            X = t(&o2)
        );
        let params = [("h", h.clone()), ("w", vec![12, 12])];
        let (text, args) = func(&params, &body, &[("y", o2.clone())], elem);
        lowered_equals_graph(
            &text,
            &args,
            "h100",
            "gemm",
            tol,
            &format!("out-proj {elem}"),
        );
        // A batched GEMM (both operands batched) with B transposed.
        for (b, m, n, k) in [(3, 5, 4, 7), (1, 1, 1, 1), (2, 70, 33, 40)] {
            let (a, bb, c) = (vec![b, m, k], vec![b, n, k], vec![b, m, n]);
            let body = format!(
                "  %m = graph.matmul %a, %b transpose_b : ({}, {}) -> {C}\n  %y = graph.tanh %m : {C}\n",
                t(&a),
                t(&bb),
                C = t(&c)
            );
            let params = [("a", a.clone()), ("b", bb.clone())];
            let (text, args) = func(&params, &body, &[("y", c.clone())], elem);
            lowered_equals_graph(
                &text,
                &args,
                "h100",
                "gemm",
                tol,
                &format!("batched {b}x{m}x{n}x{k} {elem}"),
            );
        }
    }
}

#[test]
fn sibling_gemms_share_one_kernel() {
    // Q, K and V projections of one input: one kernel with three results
    // (A loaded once per K step), each with its bias and head split.
    for (elem, tol) in TOL {
        let t = |x: &[i64]| tty(x, elem);
        let (x, o) = (vec![2, 9, 16], vec![2, 9, 16]);
        let mut body = String::new();
        let mut params = vec![("x", x.clone())];
        let names = [("q", "wq", "bq"), ("k", "wk", "bk"), ("v", "wv", "bv")];
        for (r, w, b) in names {
            body += &format!(
                "  %m{r} = graph.matmul %x, %{w} : ({X}, {}) -> {X}\n  %{r} = graph.bias_add %m{r}, %{b} : ({X}, {}) -> {X}\n",
                t(&[16, 16]),
                t(&[16]),
                X = t(&o)
            );
            params.push((w, vec![16, 16]));
            params.push((b, vec![16]));
        }
        let (text, args) = func(
            &params,
            &body,
            &[("q", o.clone()), ("k", o.clone()), ("v", o.clone())],
            elem,
        );
        let (want, _) = run(&text, "builtin.module()", &args, 11).expect("runs");
        let (got, printed) = run(
            &text,
            "builtin.module(eqsat-fusion,fusion-to-tile)",
            &args,
            11,
        )
        .expect("runs");
        assert_eq!(printed.matches("tile.launch").count(), 1, "{printed}");
        assert_eq!(printed.matches("tile.gemm").count(), 3, "{printed}");
        close(&got, &want, tol, &format!("siblings {elem}"));
    }
}

#[test]
fn attention_reads_biased_head_split_operands() {
    // BERT-base as PyTorch exports it: Q, K and V come in as [1, S, H*D]
    // with their biases still to add, are split into heads by views (K
    // straight into Kᵀ), and unit reshapes sit around the softmax; the
    // kernel adds the biases on the loaded tiles and reads through the
    // views.
    let (s, h, d) = (9, 2, 4);
    let hd = h * d;
    for (elem, tol) in TOL {
        let t = |x: &[i64]| tty(x, elem);
        let split = |n: &str, x: &str, perm: &str, to: &[i64]| {
            let mid: Vec<i64> = match perm {
                "[0, 2, 3, 1]" => vec![1, h, d, s],
                _ => vec![1, h, s, d],
            };
            format!(
                "  %{n}b = graph.bias_add %{x}, %b{x} : ({I}, {}) -> {I}\n  %{n}r = graph.reshape %{n}b : ({I}) -> {R}\n  %{n}t = graph.transpose %{n}r, perm = {perm} : ({R}) -> {M}\n  %{n} = graph.reshape %{n}t : ({M}) -> {}\n",
                t(&[hd]),
                t(to),
                I = t(&[1, s, hd]),
                R = t(&[1, s, h, d]),
                M = t(&mid)
            )
        };
        let mut body = split("q", "xq", "[0, 2, 1, 3]", &[h, s, d]);
        body += &split("k", "xk", "[0, 2, 3, 1]", &[h, d, s]);
        body += &split("v", "xv", "[0, 2, 1, 3]", &[h, s, d]);
        body += &format!(
            "  %sc = graph.broadcast %c, dims = [] : ({}) -> {S4}\n  %qk = graph.matmul %q, %k : ({}, {}) -> {S3}\n  %u = graph.broadcast %qk, dims = [1, 2, 3] : ({S3}) -> {S4}\n  %x = graph.mul %u, %sc : {S4}\n  %p = graph.softmax %x, axis = 3 : {S4}\n  %p3 = graph.reshape %p : ({S4}) -> {S3}\n  %o = graph.matmul %p3, %v : ({S3}, {V}) -> {V}\n",
            t(&[]),
            t(&[h, s, d]),
            t(&[h, d, s]),
            S3 = t(&[h, s, s]),
            S4 = t(&[1, h, s, s]),
            V = t(&[h, s, d])
        );
        let params = [
            ("xq", vec![1, s, hd]),
            ("bxq", vec![hd]),
            ("xk", vec![1, s, hd]),
            ("bxk", vec![hd]),
            ("xv", vec![1, s, hd]),
            ("bxv", vec![hd]),
            ("c", vec![]),
        ];
        let (text, args) = func(&params, &body, &[("o", vec![h, s, d])], elem);
        for target in ["h100", "cpu"] {
            lowered_equals_graph(
                &text,
                &args,
                target,
                "attention",
                tol,
                &format!("bert-base attention {elem}"),
            );
        }
    }
}

#[test]
fn computed_operands_are_zero_where_their_views_pad() {
    // A prologue that does not map zero to zero (sigmoid(x + b)) on the
    // input of a padded convolution: the padding reads zero, not
    // sigmoid(0); and a layernorm over a concatenation (a class token
    // before the patches) whose second part is exp(p + bias).
    for (elem, tol) in TOL {
        let t = |x: &[i64]| tty(x, elem);
        let (x, w, o) = (vec![1, 3, 5, 5], vec![4, 3, 3, 3], vec![1, 4, 5, 5]);
        let body = format!(
            "  %br = graph.reshape %b : ({}) -> {B1}\n  %bb = graph.broadcast %br, dims = [0, 1, 2, 3] : ({B1}) -> {X}\n  %a = graph.add %x, %bb : {X}\n  %r = graph.sigmoid %a : {X}\n  %c = graph.conv2d %r, %w, layout = NCHW, strides = [1, 1], dilations = [1, 1], padding = [1, 1, 1, 1] : ({X}, {}) -> {O}\n  %y = graph.tanh %c : {O}\n",
            t(&[3]),
            t(&w),
            B1 = t(&[1, 3, 1, 1]),
            X = t(&x),
            O = t(&o)
        );
        let params = [("x", x.clone()), ("b", vec![3]), ("w", w.clone())];
        let (text, args) = func(&params, &body, &[("y", o.clone())], elem);
        lowered_equals_graph(
            &text,
            &args,
            "h100",
            "gemm",
            tol,
            &format!("padded conv prologue {elem}"),
        );
        let body = format!(
            "  %pb = graph.bias_add %p, %bias : ({P}, {V}) -> {P}\n  %pe = graph.exp %pb : {P}\n  %c = graph.concat %cls, %pe, axis = 1 : ({}, {P}) -> {C}\n  %l = graph.layernorm %c, %g, %be : ({C}, {V}, {V}) -> {C}\n",
            t(&[2, 1, 8]),
            P = t(&[2, 6, 8]),
            V = t(&[8]),
            C = t(&[2, 7, 8])
        );
        let params = [
            ("cls", vec![2, 1, 8]),
            ("p", vec![2, 6, 8]),
            ("bias", vec![8]),
            ("g", vec![8]),
            ("be", vec![8]),
        ];
        let (text, args) = func(&params, &body, &[("l", vec![2, 7, 8])], elem);
        lowered_equals_graph(
            &text,
            &args,
            "h100",
            "rows",
            tol,
            &format!("concat layernorm {elem}"),
        );
    }
}

#[test]
fn reductions_over_any_dims_read_rows_through_a_transposing_view() {
    // The kept dims become rows and the reduced ones columns: GIoU's mean
    // over everything, a reduction over the leading dim, one over a middle
    // dim, and a softmax over the first axis.
    let cases: [(&[i64], &str, &str); 5] = [
        (
            &[8, 4],
            "graph.reduce mean %e, axes = [0, 1] : ({t}) -> tensor<f32>",
            "tensor<f32>",
        ),
        (
            &[5, 7],
            "graph.reduce sum %e, axes = [0] : ({t}) -> tensor<7xf32>",
            "tensor<7xf32>",
        ),
        (
            &[2, 3, 9],
            "graph.reduce max %e, axes = [1] : ({t}) -> tensor<2x9xf32>",
            "tensor<2x9xf32>",
        ),
        (
            &[2, 3, 9],
            "graph.reduce sum %e, axes = [0, 2] keep_dims : ({t}) -> tensor<1x3x1xf32>",
            "tensor<1x3x1xf32>",
        ),
        (
            &[6, 5],
            "graph.softmax %e, axis = 0 : {t}",
            "tensor<6x5xf32>",
        ),
    ];
    for (s, op, out) in cases {
        let t = tty(s, "f32");
        let text = format!(
            "func.func @main(%x: {t}, %y: {t}) -> {out} {{\n  %d = graph.sub %x, %y : {t}\n  %e = graph.exp %d : {t}\n  %r = {}\n  return %r : {out}\n}}\n",
            op.replace("{t}", &t)
        );
        let args = vec![s.to_vec(), s.to_vec()];
        lowered_equals_graph(&text, &args, "h100", "rows", 1e-5, &format!("{s:?} {op}"));
    }
}

#[test]
fn integer_elementwise_groups_use_integer_arithmetic() {
    // Division truncates toward zero (divsi), max/min are signed; the
    // divisor is a broadcast scalar kept away from zero by max with 1.
    let t = tty(&[3, 7], "i32");
    let text = format!(
        "func.func @main(%x: {t}, %y: {t}, %s: tensor<i32>) -> {t} {{\n  %b = graph.broadcast %s, dims = [] : (tensor<i32>) -> {t}\n  %one = graph.constant dense<1> : {t}\n  %d = graph.max %b, %one : {t}\n  %q = graph.div %x, %d : {t}\n  %m = graph.min %q, %y : {t}\n  %p = graph.mul %m, %x : {t}\n  %z = graph.sub %p, %y : {t}\n  return %z : {t}\n}}\n"
    );
    let args = vec![vec![3, 7], vec![3, 7], vec![]];
    for seed in [3, 4, 5] {
        let (want, _) = run(&text, "builtin.module()", &args, seed).expect("runs");
        let (got, printed) = run(
            &text,
            "builtin.module(eqsat-fusion,fusion-to-tile)",
            &args,
            seed,
        )
        .expect("runs");
        assert!(
            printed.contains("arith.divsi") && !printed.contains("fusion.group"),
            "{printed}"
        );
        assert_eq!(got, want, "seed {seed}");
    }
}

#[test]
fn row_elementwise_and_conv_kernels_hold_in_f16() {
    // The f16 forms of the other generators (computed in f32, rounded at
    // the store), against the graph program within the f16 tolerance.
    let (elem, tol) = TOL[1];
    let t = |x: &[i64]| tty(x, elem);
    for s in [vec![1, 1], vec![5, 7], vec![33, 64], vec![2, 3, 9]] {
        let n = *s.last().expect("dims");
        let body = format!(
            "  %m = graph.mul %x, %y : {T}\n  %l = graph.layernorm %m, %g, %b : ({T}, {V}, {V}) -> {T}\n  %s = graph.softmax %l, axis = {} : {T}\n",
            s.len() - 1,
            T = t(&s),
            V = t(&[n])
        );
        let params = [
            ("x", s.clone()),
            ("y", s.clone()),
            ("g", vec![n]),
            ("b", vec![n]),
        ];
        let (text, args) = func(&params, &body, &[("s", s.clone())], elem);
        lowered_equals_graph(
            &text,
            &args,
            "h100",
            "rows",
            tol,
            &format!("rows {s:?} f16"),
        );
        let body = format!(
            "  %tr = graph.transpose %z, perm = [1, 0] : ({}) -> {T}\n  %a = graph.add %x, %tr : {T}\n  %e = graph.tanh %a : {T}\n",
            t(&[s[1], s[0]]),
            T = t(&s[..2])
        );
        let params = [("x", s[..2].to_vec()), ("z", vec![s[1], s[0]])];
        let (text, args) = func(&params, &body, &[("e", s[..2].to_vec())], elem);
        lowered_equals_graph(
            &text,
            &args,
            "h100",
            "elementwise",
            tol,
            &format!("elementwise {s:?} f16"),
        );
    }
    let (x, w, o) = (vec![1, 6, 6, 4], vec![3, 3, 2, 4], vec![1, 3, 3, 4]);
    let body = format!(
        "  %c = graph.conv2d %x, %w, layout = NHWC, strides = [2, 2], dilations = [1, 1], padding = [1, 1, 1, 1], groups = 2 : ({}, {}) -> {O}\n  %y = graph.bias_add %c, %b : ({O}, {}) -> {O}\n",
        t(&x),
        t(&w),
        t(&[4]),
        O = t(&o)
    );
    let params = [("x", x.clone()), ("w", w.clone()), ("b", vec![4])];
    let (text, args) = func(&params, &body, &[("y", o.clone())], elem);
    lowered_equals_graph(&text, &args, "h100", "gemm", tol, "grouped conv f16");
}

#[test]
fn gemm_chains_keep_whole_rows_between_the_gemms() {
    // Out-projection + bias + residual + layernorm, then FFN1 + bias + GeLU,
    // as eqsat fuses them (written as the group here): the normalised rows
    // stay in registers as the second GEMM's A; its 70 columns are walked
    // in blocks, the last one ragged.
    for (elem, tol) in TOL {
        for target in ["h100", "cpu"] {
            let t = |x: &[i64]| tty(x, elem);
            let (x, o) = (t(&[2, 9, 16]), t(&[2, 9, 70]));
            let (v, w1, w2, v2) = (t(&[16]), t(&[16, 16]), t(&[16, 70]), t(&[70]));
            let text = format!(
                "func.func @main(%x: {x}, %w1: {w1}, %b1: {v}, %res: {x}, %g: {v}, %be: {v}, %w2: {w2}, %b2: {v2}) -> {o} {{
  %0 = fusion.group b2b_gemm (%a0 = %x, %a1 = %w1, %a2 = %b1, %a3 = %res, %a4 = %g, %a5 = %be, %a6 = %w2, %a7 = %b2) : ({x}, {w1}, {v}, {x}, {v}, {v}, {w2}, {v2}) -> {o} {{
    %m = graph.matmul %a0, %a1 : ({x}, {w1}) -> {x}
    %b = graph.bias_add %m, %a2 : ({x}, {v}) -> {x}
    %r = graph.add %a3, %b : {x}
    %l = graph.layernorm %r, %a4, %a5 : ({x}, {v}, {v}) -> {x}
    %f = graph.matmul %l, %a6 : ({x}, {w2}) -> {o}
    %c = graph.bias_add %f, %a7 : ({o}, {v2}) -> {o}
    %y = graph.gelu %c : {o}
    fusion.yield %y : {o}
  }}
  return %0 : {o}
}}
"
            );
            let args = vec![
                vec![2, 9, 16],
                vec![16, 16],
                vec![16],
                vec![2, 9, 16],
                vec![16],
                vec![16],
                vec![16, 70],
                vec![70],
            ];
            let what = format!("gemm chain {elem} on {target}");
            let (want, _) = run(&text, "builtin.module()", &args, 9).expect("runs");
            let pipeline = format!("builtin.module(fusion-to-tile{{target={target}}})");
            let (got, printed) =
                run(&text, &pipeline, &args, 9).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                printed.contains("tile.kernel @gemm_chain") && !printed.contains("fusion.group"),
                "{what}:\n{printed}"
            );
            close(&got, &want, tol, &what);
        }
    }
}

#[test]
fn reductions_to_few_rows_split_over_blocks_and_equal_the_graph_program() {
    // A reduction whose output is tiny against its input (GIoU's mean over
    // everything, a sum over a long leading dim) runs as a first kernel of
    // partial results over many blocks and a second one finishing them.
    // Blocks of 4 columns (`reduce-chunk=4`) split these small sizes the way
    // 1024 splits large ones: a row of 1 stays whole, 7 is one full and one
    // ragged part, 1003 (17 x 59) ends in a part of 3; max and min must
    // ignore the columns past the end (the values are shifted below zero so
    // that a zero there would be the max). Sizes stay small enough that the
    // gpu level is interpreted too.
    let cases: [(&[i64], &str, &str); 9] = [
        (&[1], "mean %e, axes = [0]", "tensor<f32>"),
        (&[7], "mean %e, axes = [0]", "tensor<f32>"),
        (&[7], "max %e, axes = [0]", "tensor<f32>"),
        (&[17, 59], "mean %e, axes = [0, 1]", "tensor<f32>"),
        (&[17, 59], "sum %e, axes = [0, 1]", "tensor<f32>"),
        (&[17, 59], "max %e, axes = [1, 0]", "tensor<f32>"),
        (&[17, 59], "min %e, axes = [0, 1]", "tensor<f32>"),
        (&[103, 3], "sum %e, axes = [0]", "tensor<3xf32>"),
        (
            &[3, 5, 31],
            "mean %e, axes = [0, 2] keep_dims",
            "tensor<1x5x1xf32>",
        ),
    ];
    for (s, op, out) in cases {
        let t = tty(s, "f32");
        let text = format!(
            "func.func @main(%x: {t}) -> {out} {{\n  %c = graph.constant dense<5.0> : tensor<f32>\n  %b = graph.broadcast %c, dims = [] : (tensor<f32>) -> {t}\n  %m = graph.mul %x, %x : {t}\n  %e0 = graph.sub %m, %b : {t}\n  %e = graph.div %e0, %b : {t}\n  %r = graph.reduce {op} : ({t}) -> {out}\n  %z = graph.exp %r : {out}\n  return %z : {out}\n}}\n"
        );
        let args = vec![s.to_vec()];
        let what = format!("{s:?} {op}");
        let (want, _) =
            run(&text, "builtin.module()", &args, 13).unwrap_or_else(|e| panic!("{what}: {e}"));
        let pipeline = "builtin.module(eqsat-fusion,fusion-to-tile{reduce-chunk=4})";
        let (got, printed) =
            run(&text, pipeline, &args, 13).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert!(
            !printed.contains("fusion.group"),
            "{what}: a group left:\n{printed}"
        );
        let n: i64 = s.iter().product::<i64>() / want.len() as i64;
        assert_eq!(
            printed.contains("_parts"),
            n > 4,
            "{what}: split only rows longer than a chunk:\n{printed}"
        );
        close(&got, &want, 1e-5, &what);
    }
    // By default a chunk is 1024 columns: a long row splits, rows that fill
    // the GPU on their own do not.
    let long = "func.func @main(%x: tensor<4x2000xf32>) -> tensor<4xf32> {\n  %r = graph.reduce sum %x, axes = [1] : (tensor<4x2000xf32>) -> tensor<4xf32>\n  return %r : tensor<4xf32>\n}\n";
    let (want, _) = run(long, "builtin.module()", &[vec![4, 2000]], 5).expect("reference runs");
    let (got, printed) = run(
        long,
        "builtin.module(eqsat-fusion,fusion-to-tile)",
        &[vec![4, 2000]],
        5,
    )
    .expect("lowers");
    // Two parts of each row (1024 and 976 columns), one row a block.
    assert!(printed.contains("grid = [4, 2]"), "{printed}");
    close(&got, &want, 1e-4, "4x2000 sum");
}
