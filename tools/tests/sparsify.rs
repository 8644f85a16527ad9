//! `sparsify{pattern=2:4}` on random GEMMs with 2:4 constant weights
//! (awkward M and N, K a multiple of 4, plain and transposed, f32 and f16):
//! the compressed program (one `graph.sparse_matmul`) computes exactly what the dense one does (the
//! expansion restores every element), interpreted and compiled for the host
//! (`aic-run --target=host --check`, the binary).

mod host_check;

use aic::interp::Interp;
use aic::ir::WalkOrder;
use aic::op_def::OpHandle;
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use aic_passes::auto_mixed_precision::accuracy::{SplitMix, random};
use host_check::{host_check, rows_arg};
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
        let (ok, stderr) = host_check(&file, &[], &rows_arg(&rows, (m, k, elem)));
        assert!(ok, "case {i}: {stderr}\n{sparse}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `sparsify` then the host target on awkward shapes (M, N and K not
/// multiples of the GEMM's tiles, K a multiple of 4), a bias and ReLU
/// epilogue: the sparse product stays compressed through eqsat-fusion and
/// fusion-to-tile (one kernel: a `tile.sparse_gemm` K loop with the
/// epilogue, no dense `tile.gemm`), and the host run matches the
/// interpreter (one thread a block: the compressed kernel on SIMT lanes,
/// with or without `--mma`).
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
            let (ok, stderr) = host_check(
                &file,
                &[format!("--mma={mma}")],
                &rows_arg(&rows, (m, k, elem)),
            );
            assert!(ok, "case {i} mma={mma}: {stderr}\n{sparse}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The kernels of `file` after the host pipeline's passes with tensor
/// cores (`--mma=nvgpu`, blocks of 128 threads, `tuning`): how many
/// `nvgpu.mma.sp.sync` ops they hold, and whether any reads the positions
/// as 32-bit words (a shared view of i32, the pipelined layout).
fn sparse_mma_ops(file: &std::path::Path, tuning: Option<&std::path::Path>) -> (usize, bool) {
    let text = std::fs::read_to_string(file).unwrap();
    let tuning = tuning.map(|t| format!(" tuning={}", t.display()));
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("s.mlir", text);
        let module = parse_module(&mut ctx, &sm, id).expect("parses");
        let reg = aic_passes::all_passes();
        let p = format!(
            "builtin.module(eqsat-fusion,fusion-to-tile{{target=cpu arch=native{} total=true scalars=true}},tile-to-gpu{{threads=128 warp=32 mma=nvgpu}})",
            tuning.unwrap_or_default()
        );
        let pm = parse_pipeline(&p, &reg).expect("pipeline");
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, &mut ctx, module)
            .expect("lowers");
        let (mut n, mut words) = (0, false);
        ctx.walk(module, WalkOrder::PreOrder, &mut |_, op| {
            n += usize::from(aic_dialects::nvgpu::sparse::MmaSpSync::is(&ctx, op));
            if aic_dialects::gpu::Shared::is(&ctx, op) {
                let t = ctx.value_type(ctx.result(op, 0));
                words |= aic::printer::type_text(ctx.uniquer(), t).contains("xi32,");
            }
        });
        (n, words)
    })
}

/// 2:4-sparse GEMMs of f16 and bf16 on NVIDIA's sparse tensor cores
/// (`mma.sp`, the weight as the instruction's sparse A, each warp computing
/// the product transposed), emulated on the host (`--mma=nvgpu`, blocks of
/// 128 threads) at awkward shapes (M, N, K not multiples of the tiles, K a
/// multiple of 4 but not of mma.sp's 32, the tails zero-filled), plain and
/// transposed weights: with the host's own tiles (the positions read byte
/// by byte from unpipelined shared tiles) and with a tuning cache of
/// 64 x 64 x 64 blocks, three stages (cp.async rings, the positions stored
/// column after column and read as words where the weight is stored
/// transposed, `[N, K/2]`, as `sparsify` stores it). The kernels hold mma.sp ops and
/// the host run matches the interpreter (a wrong position code moves a
/// value to another row of the product: errors of the order of the values,
/// far above the tolerance of the f16 result's rounding).
#[test]
fn sparse_gemms_run_on_emulated_sparse_tensor_cores() {
    let cases: &[(usize, usize, usize, bool, &str)] = &[
        (70, 96, 48, true, "f16"),
        (33, 164, 80, false, "f16"),
        (100, 128, 72, true, "bf16"),
        (9, 64, 40, true, "f16"),
    ];
    for (i, &(m, k, n, tb, elem)) in cases.iter().enumerate() {
        let mut r = SplitMix(800 + i as u64);
        let text = program_with(&mut r, (m, k, n), tb, elem, true);
        let sparse = with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let id = sm.add("s.mlir", text);
            let module = parse_module(&mut ctx, &sm, id).expect("parses");
            let reg = aic_passes::all_passes();
            let pm =
                parse_pipeline("builtin.module(sparsify{min-elements=1})", &reg).expect("pipeline");
            PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
                .run(&pm, &mut ctx, module)
                .expect("compresses");
            aic::op_printer::print_op(&ctx, module, aic::op_printer::PrintOptions::default())
        });
        let dir = std::env::temp_dir().join(format!("aic-mma-sp-{}-{i}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("s.mlir");
        std::fs::write(&file, &sparse).unwrap();
        let tuning = dir.join("tuning.json");
        std::fs::write(
            &tuning,
            format!(
                "{{\"cpu/native/sparse_gemm/0x{m}x{n}x{k}/{elem}\": {{\"bm\": 64, \"bn\": 64, \"bk\": 64, \"stages\": 3, \"threads\": 128}}}}"
            ),
        )
        .unwrap();
        let rows: Vec<String> = (0..m)
            .map(|_| {
                let row: Vec<String> = (0..k)
                    .map(|_| format!("{:.3}", r.unit() * 2.0 - 1.0))
                    .collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        for tuned in [false, true] {
            let (ops, words) = sparse_mma_ops(&file, tuned.then_some(tuning.as_path()));
            assert!(ops > 0, "case {i} tuned={tuned}: no mma.sp\n{sparse}");
            // Staged column after column: a weight stored [N, K/2].
            assert_eq!(words, tuned && tb, "case {i}: positions read as words");
            let mut extra: Vec<String> = ["--mma=nvgpu", "--threads=128", "--warp=32"]
                .map(String::from)
                .to_vec();
            if tuned {
                extra.push(format!("--tuning={}", tuning.display()));
            }
            let (ok, stderr) = host_check(&file, &extra, &rows_arg(&rows, (m, k, elem)));
            assert!(ok, "case {i} tuned={tuned}: {stderr}\n{sparse}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
