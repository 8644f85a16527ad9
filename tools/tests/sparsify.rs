//! `sparsify{pattern=2:4}` on random GEMMs with 2:4 constant weights
//! (awkward M and N, K a multiple of 4, plain and transposed, f32 and f16):
//! the compressed program (one `graph.sparse_matmul`) computes exactly what the dense one does (the
//! expansion restores every element), interpreted and compiled for the host
//! (`aic-run --target=host --check`, the binary).

use aic::interp::Interp;
use aic::ir::WalkOrder;
use aic::op_def::OpHandle;
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use aic_passes::auto_mixed_precision::accuracy::{SplitMix, random};
use std::process::Command;
use std::sync::Arc;

/// `x[m, k] @ w` with `w` a random 2:4 constant (`[k, n]`, or `[n, k]`
/// transposed); a group may hold fewer than two nonzeros.
fn program(r: &mut SplitMix, m: usize, k: usize, n: usize, tb: bool, elem: &str) -> String {
    program_with(r, (m, k, n), tb, elem, false)
}

/// [`program`], with `epilogue` a bias added and a ReLU after the product.
fn program_with(
    r: &mut SplitMix,
    (m, k, n): (usize, usize, usize),
    tb: bool,
    elem: &str,
    epilogue: bool,
) -> String {
    // [k, n] row-major.
    let mut w = vec![0.0f64; k * n];
    for g in 0..k / 4 {
        for c in 0..n {
            let keep = (r.next_u64() % 3) as usize;
            for _ in 0..keep {
                let p = (r.next_u64() % 4) as usize;
                w[(4 * g + p) * n + c] = (r.unit() * 1000.0).round() / 1000.0;
            }
        }
    }
    let rows: Vec<Vec<f64>> = if tb {
        (0..n)
            .map(|c| (0..k).map(|i| w[i * n + c]).collect())
            .collect()
    } else {
        w.chunks(n).map(<[f64]>::to_vec).collect()
    };
    let text: Vec<String> = rows
        .iter()
        .map(|row| {
            let v: Vec<String> = row.iter().map(|x| format!("{x}")).collect();
            format!("[{}]", v.join(", "))
        })
        .collect();
    let (wr, wc) = if tb { (n, k) } else { (k, n) };
    if epilogue {
        let bias: Vec<String> = (0..n)
            .map(|_| format!("{}", (r.unit() * 100.0).round() / 100.0))
            .collect();
        let ty = format!("tensor<{m}x{n}x{elem}>");
        return format!(
            "func.func @main(%x: tensor<{m}x{k}x{elem}>) -> {ty} {{\n  %w = graph.constant dense<[{}]> : tensor<{wr}x{wc}x{elem}>\n  %y = graph.matmul %x, %w{} : (tensor<{m}x{k}x{elem}>, tensor<{wr}x{wc}x{elem}>) -> {ty}\n  %b = graph.constant dense<[{}]> : tensor<{n}x{elem}>\n  %bb = graph.broadcast %b, dims = [1] : (tensor<{n}x{elem}>) -> {ty}\n  %s = graph.add %y, %bb : {ty}\n  %z = graph.relu %s : {ty}\n  return %z : {ty}\n}}\n",
            text.join(", "),
            if tb { " transpose_b" } else { "" },
            bias.join(", ")
        );
    }
    format!(
        "func.func @main(%x: tensor<{m}x{k}x{elem}>) -> tensor<{m}x{n}x{elem}> {{\n  %w = graph.constant dense<[{}]> : tensor<{wr}x{wc}x{elem}>\n  %y = graph.matmul %x, %w{} : (tensor<{m}x{k}x{elem}>, tensor<{wr}x{wc}x{elem}>) -> tensor<{m}x{n}x{elem}>\n  return %y : tensor<{m}x{n}x{elem}>\n}}\n",
        text.join(", "),
        if tb { " transpose_b" } else { "" }
    )
}

#[test]
fn two_four_weights_compress_exactly_and_compile_for_the_host() {
    let cases: &[(usize, usize, usize, bool, &str)] = &[
        (3, 8, 5, false, "f32"),
        (7, 36, 19, false, "f32"),
        (5, 20, 33, true, "f32"),
        (16, 64, 48, false, "f16"),
    ];
    for (i, &(m, k, n, tb, elem)) in cases.iter().enumerate() {
        let mut r = SplitMix(900 + i as u64);
        let text = program(&mut r, m, k, n, tb, elem);
        let (sparse, meta, same) = {
            let text = text.clone();
            with_parser_stack(move || {
                let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
                let mut sm = SourceMap::new();
                let id = sm.add("s.mlir", text);
                let module = parse_module(&mut ctx, &sm, id).expect("parses");
                let f = ctx
                    .block_ops(ctx.entry_block(ctx.regions(module)[0]).unwrap())
                    .next()
                    .unwrap();
                let (octx, of) = ctx.extract(f);
                let reg = aic_passes::all_passes();
                let pm = parse_pipeline("builtin.module(sparsify{min-elements=1})", &reg)
                    .expect("pipeline");
                PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                    .run(&pm, &mut ctx, module)
                    .expect("compresses");
                verify(&ctx, module).expect("verifies");
                let mut meta = 0;
                ctx.walk(module, WalkOrder::PreOrder, &mut |_, op| {
                    if aic_dialects::graph::SparseMatmul::is(&ctx, op) {
                        meta += 1;
                    }
                });
                let (ins, _) = aic_dialects::func::function_type(&ctx, f).expect("signature");
                let mut rng = SplitMix(i as u64);
                let args: Vec<_> = ins
                    .iter()
                    .map(|t| random(ctx.uniquer(), *t, &mut rng).expect("floats"))
                    .collect();
                let want = Interp::new(&octx).call(of, args.clone()).expect("runs");
                let got = Interp::new(&ctx).call(f, args).expect("runs");
                let printed = aic::op_printer::print_op(
                    &ctx,
                    module,
                    aic::op_printer::PrintOptions::default(),
                );
                (printed, meta, got == want)
            })
        };
        assert_eq!(meta, 1, "case {i}: one sparse product\n{sparse}");
        assert!(
            same,
            "case {i}: the compressed program differs\n{text}\n{sparse}"
        );
        let dir = std::env::temp_dir().join(format!("aic-sparsify-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("s.mlir");
        std::fs::write(&file, &sparse).unwrap();
        let rows: Vec<String> = (0..m)
            .map(|_| {
                let row: Vec<String> = (0..k).map(|_| format!("{:.3}", r.unit())).collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
            .arg("--target=host")
            .arg(&file)
            .arg("--entry=@main")
            .arg(format!(
                "--args=[dense<[{}]> : tensor<{m}x{k}x{elem}>]",
                rows.join(", ")
            ))
            .arg("--check")
            .output()
            .expect("aic-run runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.contains("check: ok"),
            "case {i}: {stderr}\n{sparse}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `sparsify` then the host target on awkward shapes (M, N and K not
/// multiples of the GEMM's tiles, K a multiple of 4), a bias and ReLU
/// epilogue: the sparse product stays compressed through eqsat-fusion and
/// fusion-to-tile (one kernel: a `tile.sparse_gemm` K loop with the
/// epilogue, no dense `tile.gemm`), and the host run matches the
/// interpreter: without matrix units (the compressed kernel, SIMT) and with
/// emulated tensor cores (`--mma=nvgpu`, where the compile pipeline expands
/// the product to a dense one: no `mma.sp` lowering yet).
#[test]
fn sparse_gemms_run_compressed_on_the_host() {
    let cases: &[(usize, usize, usize, bool, &str)] = &[
        (37, 100, 45, true, "f32"),
        (70, 68, 33, true, "f16"),
        (5, 132, 130, false, "f32"),
        (1, 36, 7, true, "bf16"),
    ];
    for (i, &(m, k, n, tb, elem)) in cases.iter().enumerate() {
        let mut r = SplitMix(700 + i as u64);
        let text = program_with(&mut r, (m, k, n), tb, elem, true);
        let (sparse, kernels) = {
            let text = text.clone();
            with_parser_stack(move || {
                let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
                let mut sm = SourceMap::new();
                let id = sm.add("s.mlir", text);
                let module = parse_module(&mut ctx, &sm, id).expect("parses");
                let reg = aic_passes::all_passes();
                let run = |ctx: &mut Context, p: &str| {
                    let pm = parse_pipeline(p, &reg).expect("pipeline");
                    PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                        .run(&pm, ctx, module)
                        .expect("runs");
                };
                run(&mut ctx, "builtin.module(sparsify{min-elements=1})");
                let printed = aic::op_printer::print_op(
                    &ctx,
                    module,
                    aic::op_printer::PrintOptions::default(),
                );
                run(&mut ctx, "builtin.module(eqsat-fusion,fusion-to-tile)");
                verify(&ctx, module).expect("verifies");
                let (mut kernels, mut sparse_gemms, mut gemms) = (0, 0, 0);
                ctx.walk(module, WalkOrder::PreOrder, &mut |_, op| {
                    kernels += usize::from(aic_dialects::tile::Kernel::is(&ctx, op));
                    sparse_gemms += usize::from(aic_dialects::tile::SparseGemm::is(&ctx, op));
                    gemms += usize::from(aic_dialects::tile::Gemm::is(&ctx, op));
                });
                (printed, (kernels, sparse_gemms, gemms))
            })
        };
        assert_eq!(
            kernels,
            (1, 1, 0),
            "case {i}: one kernel of one sparse GEMM with its epilogue\n{sparse}"
        );
        let dir = std::env::temp_dir().join(format!("aic-sparse-gemm-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("s.mlir");
        std::fs::write(&file, &sparse).unwrap();
        let rows: Vec<String> = (0..m)
            .map(|_| {
                let row: Vec<String> = (0..k).map(|_| format!("{:.3}", r.unit())).collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        for mma in ["false", "nvgpu"] {
            let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
                .arg("--target=host")
                .arg(format!("--mma={mma}"))
                .arg(&file)
                .arg("--entry=@main")
                .arg(format!(
                    "--args=[dense<[{}]> : tensor<{m}x{k}x{elem}>]",
                    rows.join(", ")
                ))
                .arg("--check")
                .output()
                .expect("aic-run runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stderr.contains("check: ok"),
                "case {i} mma={mma}: {stderr}\n{sparse}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
