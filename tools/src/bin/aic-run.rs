//! `aic-run --interpret FILE`: run functions of an MLIR file with aic's reference
//! interpreter.
//!
//! With `--entry @name` the function runs on inputs from `.npy` files
//! (`--input a.npy`, one per argument) or MLIR literals (`--args "[dense<1> :
//! tensor<2xi32>]"`); results are printed, or written as `result<i>.npy` into
//! `--output-dir`. Without `--entry` every public function without arguments runs
//! as a test (`PASS name` / `FAIL name: why`, then `N passed, N failed`), and
//! the exit status is 1 if any failed.
//!
//! `aic-run --target=host|cuda FILE --entry @f ...` runs compiled kernels
//! instead: a module at any level goes through the default pipeline, its
//! kernels are compiled (JIT for the host, PTX loaded through the CUDA
//! driver, found at run time), and the interpreter runs the rest of the
//! program, each launch going to its kernel. FILE may also be a bundle from
//! `aic-translate --emit=bundle` (with `--target=cuda`: what a GPU machine
//! without LLVM runs). `--check` compares the results with the reference
//! interpreter on the source.
//!
//! A compiled function runs as its executable plan (see `aic_runtime::plan`): its
//! tensors in one arena, its launches in order — on CUDA captured as one graph and
//! replayed — and no interpreter. A function whose host program still holds tensor
//! ops that are not kernels runs the old way, launches to kernels and those ops in the
//! interpreter, with a warning naming them. `--bench[=N]` times N runs after warm-up
//! (CUDA events around graph replays; a wall clock on the host) and each kernel;
//! `--trace FILE` writes a Chrome-trace JSON of one run's kernels.

use aic::interp::{Interp, Tensor, attr_of_tensor, tensor_of_attr};
use aic::op_def::OpHandle;
use aic::printer::attr_text;
use aic::syntax::{Aliases, parse_attribute, parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{AttrKind, Context, Op, SourceMap};
use aic_runtime::{FuncPlan, KernelInfo, Plan, Timings};
use aic_tools::npy;
use std::process::ExitCode;
use std::sync::Arc;

const HELP: &str = "OVERVIEW: aic reference interpreter

USAGE: aic-run --interpret [options] <input file>
       aic-run --target=host|cuda [--arch=sm_90] [--check] --entry=@name [options] <input file or bundle>
       aic-run --target=nki-sim [--arch=trn1|trn2] [--check] --entry=@name [options] <input file>

OPTIONS:
  --interpret               Run the file with the reference interpreter
  --target=<host|cuda|nki-sim>  Run compiled kernels: JIT on the host, PTX through the CUDA driver,
                            or NKI kernels on aic's NeuronCore simulator (--arch=trn1|trn2: the
                            nki dialect's semantics, and a MODELLED time per engine on stderr)
  --arch=<sm_90|...>        The GPU to compile for (cuda; default sm_90; sm_90a: GEMMs on wgmma)
  --check                   Also run the reference interpreter and compare (exit 1 on a mismatch)
  --model-only              With --target=nki-sim: only the modelled schedule, no run (large problems)
  --bench[=N]               Time N runs of the plan (default 100) after warm-up: the median run,
                            then each kernel's time, share and achieved TFLOP/s or GB/s; on CUDA
                            each run from a cold cache (256 MiB written first, as triton's
                            do_bench does), and a whole call's median (inputs in, graph, results out)
  --trace=<file>            Write a Chrome-trace JSON of one run's kernels
  --mma=<false|nvgpu|amdgpu|wgmma>  GEMMs on these matrix units (default: the target's; on the host,
                            another target's, their warp-collective ops emulated)
  --tuning=<file>           A JSON tuning cache for fusion-to-tile (tile sizes and stages per GEMM shape)
  --copy=<c>                How wgmma K loops fill their shared rings: cp_async (default), tma (Hopper's
                            bulk tensor copies on mbarriers, where the loads allow), tma_empty (stages
                            also freed by mbarriers) or tma_ws (a producer warpgroup issuing them)
  --persistent=<blocks>     With --copy=tma_ws: warp-specialised kernels run on at most this many
                            blocks, each looping over the grid's tiles (132 fills an H100's SMs)
  --dim-bounds=<NAME=N,...>  Bounds of the dynamic (`?`) dimensions (compiled runs): kernels compiled
                            once for every size up to N (rounded up to a power of two); each run takes
                            its arguments' own sizes
  --dim-buckets=<NAME=N,...>  Smaller bounds to compile copies for too (compiled runs); a call runs the
                    smallest copy its sizes fit (named on standard error)
  --split-input-file        Run each '// -----' chunk separately
  --entry=@name             Run this function (otherwise: every public function
                            without arguments, as a test)
  --devices=<0,1,...>       The CUDA devices a partitioned program (spmd-partition) runs on, one per
                            device of its mesh, with NCCL (default: 0 to the mesh's size - 1)
  --input=<file.npy>        An argument of the entry function (repeatable)
  --args=<[attr, ...]>      The arguments as MLIR literals: \"[dense<1> : tensor<2xi32>]\"
  --output-dir=<dir>        Write result i as result<i>.npy there instead of printing:
                            all results or none (an existing file is replaced only
                            when every result was written); result<N>.npy files of
                            an earlier run with more results are removed, no other
                            file is touched
  --max-steps=<n>           Stop the interpreter after n ops (default 1000000000; each test
                            function has its own), so that an endless loop ends with an error
  --max-memory=<bytes>      The most bytes one interpreted tensor may take (default: half of
                            the machine's memory); a larger one is an error naming its size
  --allow-unregistered-dialect  Accept ops of unknown dialects
  --help                    Show this help
";

#[derive(Default)]
struct Options {
    input: Option<String>,
    interpret: bool,
    split: bool,
    entry: Option<String>,
    inputs: Vec<String>,
    args: Option<String>,
    output_dir: Option<String>,
    allow_unregistered: bool,
    target: Option<String>,
    arch: Option<String>,
    check: bool,
    /// `--model-only`: nki-sim's modelled schedule without running the kernels.
    model_only: bool,
    threads: Option<i64>,
    warp: Option<i64>,
    mma: Option<String>,
    copy: Option<String>,
    persistent: Option<i64>,
    tuning: Option<String>,
    /// `--dim-bounds`: bounds of dynamic dims, `NAME=N`.
    dim_bounds: Vec<String>,
    /// `--dim-buckets`: smaller bounds compiled too, `NAME=N`.
    dim_buckets: Vec<String>,
    max_steps: Option<i64>,
    /// `--bench[=N]`: the runs to time.
    bench: Option<u32>,
    /// `--trace FILE`.
    trace: Option<String>,
    /// `--max-memory`, or its default (see [`default_max_memory`]).
    max_memory: u64,
    /// `--devices=0,1`: the CUDA devices a partitioned program runs on.
    devices: Option<Vec<i32>>,
}

/// `--bench` without a count.
const DEFAULT_BENCH_RUNS: u32 = 100;

/// Untimed runs before `--bench` times any.
const BENCH_WARMUP: u32 = 10;

/// `--max-steps` without the flag.
const DEFAULT_MAX_STEPS: u64 = 1_000_000_000;

/// An interpreter over `ctx` under the step and memory budgets of `o`.
fn interp<'c>(ctx: &'c Context, o: &Options) -> Interp<'c> {
    let mut it = Interp::new(ctx);
    it.budget = Some(o.max_steps.map_or(DEFAULT_MAX_STEPS, |n| n as u64));
    it.max_bytes = Some(o.max_memory);
    it
}

/// `--max-memory` without the flag: half of the machine's memory (`MemTotal`
/// of /proc/meminfo; 8 GiB where that cannot be read).
fn default_max_memory() -> u64 {
    let total_kib = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    });
    total_kib.map_or(8 << 30, |k| k.saturating_mul(1024) / 2)
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        max_memory: default_max_memory(),
        devices: None,
        ..Options::default()
    };
    let mut args = aic_tools::Args::new(std::env::args().skip(1));
    while let Some((flag, inline)) = args.next_arg() {
        let a = flag.clone();
        let mut value = |name: &str| args.value(name, inline.clone());
        match flag.as_str() {
            "--help" | "-h" => {
                print!("{HELP}{}", aic_tools::THREADS_HELP);
                std::process::exit(0);
            }
            "--interpret" => o.interpret = true,
            "--target" => o.target = Some(value("--target")?),
            "--arch" => o.arch = Some(value("--arch")?),
            "--check" => o.check = true,
            "--model-only" => o.model_only = true,
            "--bench" => {
                o.bench = Some(match &inline {
                    Some(n) => aic_tools::int_flag("--bench", n, 1, 1_000_000)? as u32,
                    None => DEFAULT_BENCH_RUNS,
                })
            }
            "--trace" => o.trace = Some(value("--trace")?),
            "--threads" => {
                o.threads = Some(aic_tools::pass_option_flag(
                    &aic_passes::tile_to_gpu::INFO,
                    "threads",
                    &value("--threads")?,
                )?)
            }
            "--warp" => {
                o.warp = Some(aic_tools::pass_option_flag(
                    &aic_passes::tile_to_gpu::INFO,
                    "warp",
                    &value("--warp")?,
                )?)
            }
            "--mma" => o.mma = Some(value("--mma")?),
            "--copy" => o.copy = Some(value("--copy")?),
            "--persistent" => {
                o.persistent = Some(aic_tools::int_flag(
                    "--persistent",
                    &value("--persistent")?,
                    1,
                    1 << 20,
                )?)
            }
            "--tuning" => o.tuning = Some(value("--tuning")?),
            "--dim-bounds" => o
                .dim_bounds
                .extend(value("--dim-bounds")?.split(',').map(str::to_string)),
            "--dim-buckets" => o
                .dim_buckets
                .extend(value("--dim-buckets")?.split(',').map(str::to_string)),
            "--split-input-file" => o.split = true,
            "--allow-unregistered-dialect" => o.allow_unregistered = true,
            "--entry" => o.entry = Some(value("--entry")?.trim_start_matches('@').to_string()),
            "--devices" => {
                let text = value("--devices")?;
                let list = text
                    .split(',')
                    .map(|d| aic_tools::int_flag("--devices", d.trim(), 0, 1023).map(|v| v as i32))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut sorted = list.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if sorted.len() != list.len() {
                    return Err(format!("--devices={text} names a device twice"));
                }
                o.devices = Some(list);
            }
            "--input" => o.inputs.push(value("--input")?),
            "--args" => o.args = Some(value("--args")?),
            "--output-dir" => o.output_dir = Some(value("--output-dir")?),
            "--max-steps" => {
                o.max_steps = Some(aic_tools::int_flag(
                    "--max-steps",
                    &value("--max-steps")?,
                    1,
                    i64::MAX,
                )?)
            }
            "--max-memory" => {
                o.max_memory =
                    aic_tools::int_flag("--max-memory", &value("--max-memory")?, 1, i64::MAX)?
                        as u64
            }
            f if f.starts_with('-') && f != "-" => return Err(format!("unknown option '{f}'")),
            _ => {
                if o.input.is_some() {
                    return Err("only one input file may be given".into());
                }
                o.input = Some(a);
            }
        }
    }
    if let Some(t) = &o.target {
        if t != "host" && t != "cuda" && t != "nki-sim" {
            return Err(format!(
                "unsupported target '{t}': expected host or cuda, or nki-sim"
            ));
        }
        if o.interpret {
            return Err("--interpret and --target exclude each other".into());
        }
        if o.entry.is_none() {
            return Err("--target needs --entry".into());
        }
    } else if !o.interpret {
        return Err("nothing to do: pass --interpret or --target (see --help)".into());
    }
    if o.model_only && o.target.as_deref() != Some("nki-sim") {
        return Err("--model-only needs --target=nki-sim".into());
    }
    if o.model_only && (o.check || o.output_dir.is_some()) {
        return Err("--model-only runs nothing to check or write".into());
    }
    if o.check && o.target.is_none() {
        return Err("--check needs --target".into());
    }
    if (o.bench.is_some() || o.trace.is_some()) && o.target.is_none() {
        return Err("--bench and --trace need --target".into());
    }
    if o.entry.is_none() && (!o.inputs.is_empty() || o.args.is_some()) {
        return Err("--input and --args need --entry".into());
    }
    Ok(o)
}

/// Functions of the module, by name.
fn functions(ctx: &Context, m: Op) -> Vec<(String, Op)> {
    let Some(body) = ctx.regions(m).first().and_then(|r| ctx.entry_block(*r)) else {
        return Vec::new();
    };
    ctx.block_ops(body)
        .filter(|f| aic_dialects::func::Func::is(ctx, *f))
        .filter_map(|f| Some((aic::symbol::symbol_name(ctx, f)?.to_string(), f)))
        .collect()
}

fn arg_types(ctx: &Context, f: Op) -> Vec<aic::Type> {
    aic_dialects::func::function_type(ctx, f)
        .map(|(ins, _)| ins)
        .unwrap_or_default()
}

/// Run every public function without arguments; (passed, failed).
fn run_tests(ctx: &Context, m: Op, o: &Options) -> (usize, usize) {
    let (mut pass, mut fail) = (0, 0);
    for (name, f) in functions(ctx, m) {
        let public = aic::symbol::visibility(ctx, f) != Some(aic::symbol::Visibility::Private);
        let has_body = ctx
            .regions(f)
            .first()
            .is_some_and(|r| ctx.entry_block(*r).is_some());
        if !public || !has_body || !arg_types(ctx, f).is_empty() {
            continue;
        }
        let mut it = interp(ctx, o);
        match it.call(f, Vec::new()) {
            Ok(_) => {
                println!("PASS {name}");
                pass += 1;
            }
            Err(e) => {
                let at =
                    e.op.map(|o| format!(" (at '{}')", ctx.op_name(o)))
                        .unwrap_or_default();
                println!("FAIL {name}: {}{at}", e.message);
                fail += 1;
            }
        }
    }
    (pass, fail)
}

/// An entry function `f` with `?` dimensions refined to its `inputs`' shapes
/// (`dynamic-dims{shapes=...}`), so the interpreter runs it static.
fn refine(ctx: &mut Context, m: Op, f: Op, inputs: &[Tensor]) -> Result<(), String> {
    if !arg_types(ctx, f).iter().any(|t| has_dynamic_dims(ctx, *t)) {
        return Ok(());
    }
    let shapes: Vec<String> = inputs
        .iter()
        .map(|t| match t.shape.as_slice() {
            [] => "()".to_string(),
            s => s.iter().map(i64::to_string).collect::<Vec<_>>().join("x"),
        })
        .collect();
    let pipeline = format!(
        "builtin.module(dynamic-dims{{shapes={}}})",
        shapes.join(",")
    );
    aic_tools::compile::run_pipeline(ctx, m, &pipeline)
}

/// Whether shaped type `ty` has a `?` dimension.
fn has_dynamic_dims(ctx: &Context, ty: aic::types::Type) -> bool {
    ctx.type_kind(ty)
        .shape()
        .is_some_and(|s| s.contains(&aic::types::DYNAMIC))
}

/// Shaped type `ty` with `shape`.
fn with_shape(ctx: &Context, ty: aic::Type, shape: &[i64]) -> aic::Type {
    match ctx.type_kind(ty) {
        aic::types::TypeKind::Tensor { elem, encoding, .. } => {
            ctx.uniquer().ty(aic::types::TypeKind::Tensor {
                shape: shape.iter().copied().collect(),
                elem: *elem,
                encoding: *encoding,
            })
        }
        _ => ty,
    }
}

/// The argument types of compiled `f` with `?` where `d` has a dynamic dim.
fn dynamic_arg_types(ctx: &Context, f: Op, d: &aic_runtime::plan::Dynamic) -> Vec<aic::Type> {
    arg_types(ctx, f)
        .iter()
        .zip(&d.args)
        .map(|(t, dims)| {
            let shape: Vec<i64> = ctx
                .type_kind(*t)
                .shape()
                .unwrap_or_default()
                .iter()
                .zip(dims)
                .map(|(n, e)| {
                    if e.syms.is_empty() {
                        *n
                    } else {
                        aic::types::DYNAMIC
                    }
                })
                .collect();
            with_shape(ctx, *t, &shape)
        })
        .collect()
}

fn entry_inputs(ctx: &Context, o: &Options, f: Op) -> Result<Vec<Tensor>, String> {
    // A partitioned module's entry takes each device's slices: its inputs are
    // the global values.
    let types = if partitioned(ctx, f).is_some() {
        aic_dialects::sdy::layout::global_arg_types(ctx, f)
    } else {
        arg_types(ctx, f)
    };
    entry_inputs_of(ctx, o, &types)
}

fn entry_inputs_of(ctx: &Context, o: &Options, types: &[aic::Type]) -> Result<Vec<Tensor>, String> {
    let types = types.to_vec();
    for (i, ty) in types.iter().enumerate() {
        // A dynamic dimension takes its size from the `--input` file.
        if has_dynamic_dims(ctx, *ty) && o.args.is_none() {
            continue;
        }
        aic::shape::check_type(ctx, *ty, "aic-run's arguments")
            .map_err(|e| format!("argument {i}: {e}"))?;
    }
    let mut out = Vec::new();
    if let Some(text) = &o.args {
        let a = parse_attribute(ctx.uniquer(), &Aliases::default(), text)
            .map_err(|d| format!("--args: {}", d.message))?;
        let AttrKind::Array(items) = ctx.attr_kind(a).clone() else {
            return Err("--args: expected a list '[...]' of literals".into());
        };
        for (i, it) in items.iter().enumerate() {
            let ty = *types
                .get(i)
                .ok_or_else(|| format!("--args: more values than the {} arguments", types.len()))?;
            aic::interp::check_size(ctx, ty, o.max_memory)
                .map_err(|e| format!("--args: value {i}: {e}"))?;
            let t = tensor_of_attr(ctx, *it, ty).ok_or_else(|| {
                format!(
                    "--args: value {i} does not fit argument {i} of type {}",
                    aic::printer::type_text(ctx, ty)
                )
            })?;
            let lit_ty = match ctx.attr_kind(*it) {
                AttrKind::DenseElements { ty, .. }
                | AttrKind::Integer { ty, .. }
                | AttrKind::Float { ty, .. } => *ty,
                _ => ty,
            };
            if lit_ty != ty {
                return Err(format!(
                    "--args: value {i} has type {}, argument {i} is {}",
                    aic::printer::type_text(ctx, lit_ty),
                    aic::printer::type_text(ctx, ty)
                ));
            }
            out.push(t);
        }
    }
    for (k, path) in o.inputs.iter().enumerate() {
        let i = out.len();
        let ty = *types.get(i).ok_or_else(|| {
            format!(
                "--input {path}: more inputs than the {} arguments",
                types.len()
            )
        })?;
        let bytes = std::fs::read(path).map_err(|e| format!("--input {path}: {e}"))?;
        let t = npy::read(ctx, &bytes, ty)
            .map_err(|e| format!("--input {path} (argument {i}): {e}"))?;
        let _ = k;
        out.push(t);
    }
    if out.len() != types.len() {
        return Err(format!(
            "the entry function takes {} arguments, {} given",
            types.len(),
            out.len()
        ));
    }
    Ok(out)
}

fn run_entry(ctx: &mut Context, m: Op, o: &Options, name: &str) -> Result<(), String> {
    let f = entry_of(ctx, m, name)?;
    let inputs = entry_inputs(ctx, o, f)?;
    refine(ctx, m, f, &inputs)?;
    let ctx = &*ctx;
    let mut it = interp(ctx, o);
    let results = if partitioned(ctx, f).is_some() {
        aic_dialects::sdy::layout::run_partitioned(&it, f, inputs)
    } else {
        it.call(f, inputs)
    }
    .map_err(|e| interp_error(ctx, e))?;
    emit_results(ctx, o, &results)
}

/// The devices of the module holding `f`, if `spmd-partition` made it
/// per-device.
fn partitioned(ctx: &Context, f: Op) -> Option<i64> {
    let mut top = f;
    while let Some(p) = ctx.parent_op(top) {
        top = p;
    }
    aic_dialects::sdy::layout::partitioned_devices(ctx, top)
}

/// Prints results, or writes them as `result<i>.npy` into `--output-dir`.
fn emit_results(ctx: &Context, o: &Options, results: &[Tensor]) -> Result<(), String> {
    match &o.output_dir {
        Some(dir) => {
            // All results or none: every result has a dtype, and every file is
            // streamed from its tensor (no second copy of a large result) into a
            // temporary file beside its target before any replaces one.
            for (i, r) in results.iter().enumerate() {
                if aic::interp::Elem::of(ctx, r.ty)
                    .and_then(npy::dtype)
                    .is_none()
                {
                    return Err(format!("result {i}: no .npy dtype for this element type"));
                }
            }
            std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
            let dir = std::path::Path::new(dir);
            let mut outs = Vec::with_capacity(results.len());
            for (i, r) in results.iter().enumerate() {
                let path = dir.join(format!("result{i}.npy")).display().to_string();
                let fail = |e: String| format!("{path}: {e}");
                let mut out =
                    aic_tools::output::Output::create(&path).map_err(|e| fail(e.to_string()))?;
                npy::write_to(ctx, r, &mut out)
                    .and_then(|()| std::io::Write::flush(&mut out).map_err(|e| e.to_string()))
                    .map_err(fail)?;
                outs.push((path, out));
            }
            for (path, out) in outs {
                out.commit().map_err(|e| format!("{path}: {e}"))?;
            }
            remove_stale_results(dir, results.len())?;
        }
        None => {
            for r in results {
                let a = attr_of_tensor(ctx, r);
                println!("{}", attr_text(ctx, a));
            }
        }
    }
    Ok(())
}

/// Removes `result<N>.npy` for every `N >= count` in `dir`: the results an earlier
/// run with more results left there (no other file is touched).
fn remove_stale_results(dir: &std::path::Path, count: usize) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let stale = name
            .to_str()
            .and_then(|n| n.strip_prefix("result"))
            .and_then(|n| n.strip_suffix(".npy"))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .filter(|n| n.len() == 1 || !n.starts_with('0'))
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| n >= count);
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            std::fs::remove_file(entry.path())
                .map_err(|e| format!("{}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Parses and verifies `text` as module `name`.
fn parse(ctx: &mut Context, name: &str, text: String) -> Result<Op, String> {
    let mut sm = SourceMap::new();
    let f = sm.add(name, text);
    parse_module(ctx, &sm, f)
        .and_then(|m| verify(ctx, m).map(|()| m))
        .map_err(|d| sm.render(ctx.uniquer(), &d).trim_end().to_string())
}

fn entry_of(ctx: &Context, m: Op, name: &str) -> Result<Op, String> {
    functions(ctx, m)
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| f)
        .ok_or_else(|| format!("no function named '@{name}'"))
}

fn interp_error(ctx: &Context, e: aic::interp::InterpError) -> String {
    let at =
        e.op.map(|o| format!(" (at '{}')", ctx.op_name(o)))
            .unwrap_or_default();
    format!("{}{at}", e.message)
}

/// `--target`: compile (or read a bundle), run with launches on the kernels,
/// and with `--check` compare with the reference interpreter.
fn run_target(o: &Options, path: &str, bytes: Vec<u8>) -> Result<(), String> {
    let target = o.target.clone().expect("checked");
    let entry = o.entry.clone().expect("checked");
    let registry = Arc::new(aic_dialects::all_dialects());
    let mut ctx = Context::new(registry.clone());
    ctx.allow_unregistered = o.allow_unregistered;
    let (source, m, infos, binary, plans) = if bytes.starts_with(aic_runtime::bundle::MAGIC) {
        let b = aic_runtime::Bundle::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        if target != "cuda" || b.manifest.target != "nvptx" {
            return Err(format!(
                "{path} is a bundle for {}: aic-run runs nvptx bundles with --target=cuda (run the source for other targets)",
                b.manifest.target
            ));
        }
        let m = parse(&mut ctx, path, b.manifest.host.clone())?;
        (
            b.manifest.source,
            m,
            b.manifest.kernels,
            Some(b.binary),
            b.manifest.plans,
        )
    } else {
        let text =
            String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text nor a bundle"))?;
        let m = parse(&mut ctx, path, text.clone())?;
        let llvm_target = if target == "cuda" { "nvptx" } else { "host" };
        let pipeline = aic_tools::compile::matrix_pipeline(
            llvm_target,
            o.arch.as_deref(),
            o.threads,
            o.warp,
            o.mma.as_deref().or(aic_tools::compile::arch_units(
                llvm_target,
                o.arch.as_deref(),
            )),
            o.tuning.as_deref(),
            aic_tools::compile::Rings {
                copy: o.copy.as_deref(),
                persistent: o.persistent,
            },
        )?;
        let pipeline =
            aic_tools::compile::with_dim_buckets(&pipeline, &o.dim_bounds, &o.dim_buckets)?;
        aic_tools::compile::run_pipeline(&mut ctx, m, &pipeline)?;
        let infos = aic_tools::compile::kernel_infos(&ctx, m)?;
        let binary = if target == "cuda" {
            Some(compile_ptx(&ctx, m, o.arch.as_deref())?)
        } else {
            None
        };
        let plans = aic_tools::plan::plans(&ctx, m, &infos, &[])?;
        (text, m, infos, binary, plans)
    };
    let mut f = entry_of(&ctx, m, &entry)?;
    let mut planned: Vec<aic_runtime::plan::Plan> = plans
        .iter()
        .filter_map(|p| match p {
            FuncPlan::Planned(p) => Some(p.clone()),
            _ => None,
        })
        .collect();
    let plan = match plans.into_iter().find(|p| p.func() == entry) {
        Some(FuncPlan::Planned(p)) => Some(p),
        Some(FuncPlan::Interpreted(i)) => {
            eprintln!(
                "aic-run: warning: @{entry}: {}",
                aic_tools::plan::host_ops_text(&i.ops)
            );
            None
        }
        None => {
            eprintln!(
                "aic-run: warning: @{entry} has no plan (a version-1 bundle): its host program runs on the host interpreter"
            );
            None
        }
    };
    if plan.is_none() && partitioned(&ctx, f).is_some() {
        return Err(format!(
            "@{entry} is partitioned for several devices, which compiled code runs only as a plan, and it has none (see the warning above); --interpret runs it"
        ));
    }
    if plan.is_none() && (o.bench.is_some() || o.trace.is_some()) {
        return Err(format!(
            "--bench and --trace time a plan, and @{entry} has none"
        ));
    }
    if o.devices.is_some()
        && !plan
            .as_ref()
            .is_some_and(|p| p.devices > 1 && binary.is_some())
    {
        return Err(
            "--devices runs a partitioned program (spmd-partition) with --target=cuda".into(),
        );
    }
    // A plan of dynamic dims takes its arguments at their own shapes, padded
    // to the bounds it was compiled for, and gives its results cut to theirs.
    let dynamic = plan.as_ref().and_then(|p| p.dynamic.clone());
    if dynamic.is_none() && aic_passes::dynamic_dims::signature(&ctx, f).is_ok_and(|s| s.is_some())
    {
        return Err(format!(
            "@{entry} has dynamic dimensions and no plan: they run only as a plan"
        ));
    }
    let mut plan = plan;
    let (inputs, binding) = match (&dynamic, &plan) {
        (Some(d), Some(p)) => {
            let ty = dynamic_arg_types(&ctx, f, d);
            let inputs = entry_inputs_of(&ctx, o, &ty)?;
            // A bucket compiled for smaller bounds that the sizes fit runs
            // instead: its plan and its function.
            let shapes: Vec<Vec<i64>> = inputs.iter().map(|t| t.shape.clone()).collect();
            let p = match p.bucket_for(&shapes)? {
                Some(name) => {
                    let name = name.to_string();
                    let i = planned
                        .iter()
                        .position(|q| q.func == name)
                        .ok_or_else(|| format!("@{entry}'s bucket @{name} has no plan"))?;
                    eprintln!("aic-run: @{entry} runs as bucket @{name}");
                    f = entry_of(&ctx, m, &name)?;
                    plan = Some(planned.swap_remove(i));
                    plan.as_ref().expect("just set")
                }
                None => p,
            };
            let bytes: Vec<Vec<u8>> = inputs
                .iter()
                .map(|t| aic_tools::compile::to_bytes(&ctx, t))
                .collect();
            let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
            let shapes: Vec<Vec<i64>> = inputs.iter().map(|t| t.shape.clone()).collect();
            let (padded, binding) = p.pad_inputs(&refs, &shapes)?;
            let padded = arg_types(&ctx, f)
                .iter()
                .zip(&padded)
                .map(|(t, b)| aic_tools::compile::from_bytes(&ctx, *t, b))
                .collect();
            (padded, Some(binding))
        }
        _ => (entry_inputs(&ctx, o, f)?, None),
    };
    let (results, table) = match (plan, binary) {
        (Some(p), Some(ptx)) if p.devices > 1 => {
            run_cuda_devices(&ctx, f, &p, inputs, &infos, &ptx, o)?
        }
        (Some(p), Some(ptx)) => run_cuda_plan(&ctx, f, &p, inputs, &infos, &ptx, o)?,
        (Some(p), None) => run_host_plan(&ctx, m, f, &p, inputs, &infos, o)?,
        (None, Some(ptx)) => (run_cuda(&ctx, f, inputs, &infos, &ptx)?, None),
        (None, None) => (run_host(&ctx, m, f, inputs, &infos)?, None),
    };
    let results = match binding {
        Some(b) => {
            let bytes = results
                .iter()
                .map(|t| aic_tools::compile::to_bytes(&ctx, t))
                .collect();
            b.trim_outputs(bytes)
                .iter()
                .zip(&b.output_shapes)
                .zip(&results)
                .map(|((bytes, shape), t)| {
                    let ty = with_shape(&ctx, t.ty, shape);
                    aic_tools::compile::from_bytes(&ctx, ty, bytes)
                })
                .collect()
        }
        None => results,
    };
    emit_results(&ctx, o, &results)?;
    if let Some(table) = table {
        print!("{table}");
    }
    if o.check {
        if source.is_empty() {
            return Err("--check: the bundle keeps no source".into());
        }
        let what = "the compiled kernels";
        check_against_source(o, registry, path, source, &entry, &ctx, &results, what)?;
    }
    Ok(())
}

/// `--target=nki-sim`: compile to NKI kernels for `--arch` (trn1 or trn2),
/// run them with the nki dialect's semantics, report the cost model's
/// modelled time per engine, and with `--check` compare with the
/// reference interpreter of the source.
fn run_nki_sim(o: &Options, path: &str, bytes: Vec<u8>) -> Result<(), String> {
    let entry = o.entry.clone().expect("checked");
    let registry = Arc::new(aic_dialects::all_dialects());
    let mut ctx = Context::new(registry.clone());
    ctx.allow_unregistered = o.allow_unregistered;
    let text = String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))?;
    let m = parse(&mut ctx, path, text.clone())?;
    let pipeline = aic_tools::compile::nki_pipeline(o.arch.as_deref(), o.tuning.as_deref())?;
    aic_tools::compile::run_pipeline(&mut ctx, m, &pipeline)?;
    let f = entry_of(&ctx, m, &entry)?;
    let results = if o.model_only {
        Vec::new()
    } else {
        let inputs = entry_inputs(&ctx, o, f)?;
        let results = interp(&ctx, o)
            .call(f, inputs)
            .map_err(|e| interp_error(&ctx, e))?;
        emit_results(&ctx, o, &results)?;
        results
    };
    let arch = if o.arch.as_deref() == Some("trn2") {
        aic_dialects::nki::Arch::Trn2
    } else {
        aic_dialects::nki::Arch::Trn1
    };
    let costs = aic_dialects::nki::sim::Costs::of(arch);
    let report = aic_dialects::nki::sim::model(&ctx, f, costs)?;
    eprint!("{}", report.text(&costs));
    if o.check {
        let what = "the NKI kernels";
        check_against_source(o, registry, path, text, &entry, &ctx, &results, what)?;
    }
    Ok(())
}

/// `--check`: runs `entry` of `source` (parsed afresh) in the reference
/// interpreter and compares with `results`, computed in `ctx` by `what`;
/// prints the verdict, an error where they differ beyond the tolerance.
#[allow(clippy::too_many_arguments)]
fn check_against_source(
    o: &Options,
    registry: Arc<aic::DialectRegistry>,
    path: &str,
    source: String,
    entry: &str,
    ctx: &Context,
    results: &[Tensor],
    what: &str,
) -> Result<(), String> {
    let mut rctx = Context::new(registry);
    rctx.allow_unregistered = o.allow_unregistered;
    let rm = parse(&mut rctx, path, source)?;
    let rf = entry_of(&rctx, rm, entry)?;
    let rin = entry_inputs(&rctx, o, rf)?;
    refine(&mut rctx, rm, rf, &rin)?;
    let want = interp(&rctx, o)
        .call(rf, rin)
        .map_err(|e| interp_error(&rctx, e))?;
    let (err, out, at) = aic_tools::compile::max_error(results, &want);
    let tol = check_tolerance(ctx, results);
    let verdict = if err <= tol { "ok" } else { "MISMATCH" };
    eprintln!(
        "check: {verdict}: largest difference {err:.3e} (relative to 1 + |reference|; tolerance {tol:e}) at result {out}, element {at}"
    );
    if err > tol {
        return Err(format!("{what} differ from the reference interpreter"));
    }
    Ok(())
}

/// The tensors `f` returns, from their bytes.
fn results_of(ctx: &Context, f: Op, outs: Vec<Vec<u8>>) -> Vec<Tensor> {
    let types = aic_dialects::func::function_type(ctx, f)
        .map(|(_, outs)| outs)
        .unwrap_or_default();
    types
        .iter()
        .zip(outs)
        .map(|(ty, b)| aic_tools::compile::from_bytes(ctx, *ty, &b))
        .collect()
}

/// `--bench` and `--trace`: writes the trace, and returns the table to print after
/// the results, for `what` ran.
fn report(
    o: &Options,
    what: &str,
    kernels: &[KernelInfo],
    t: &Timings,
) -> Result<Option<String>, String> {
    if let Some(path) = &o.trace {
        let json = aic_tools::bench::trace_json(kernels, t);
        aic_tools::output::write_file(path, json.as_bytes())
            .map_err(|e| format!("--trace: {e}"))?;
    }
    Ok(o.bench
        .map(|_| aic_tools::bench::table(what, kernels, t, BENCH_WARMUP)))
}

/// A plan's results, and the `--bench` table to print after them.
type PlanRun = (Vec<Tensor>, Option<String>);

/// Runs `plan` on the GPU (then times it for `--bench`/`--trace`).
fn run_cuda_plan(
    ctx: &Context,
    f: Op,
    plan: &Plan,
    inputs: Vec<Tensor>,
    infos: &[KernelInfo],
    ptx: &[u8],
    o: &Options,
) -> Result<PlanRun, String> {
    let bytes: Vec<Vec<u8>> = inputs
        .iter()
        .map(|t| aic_tools::compile::to_bytes(ctx, t))
        .collect();
    let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    let cuda = aic_runtime::Cuda::load().map_err(|e| e.to_string())?;
    let module = cuda.load_module(ptx).map_err(|e| e.to_string())?;
    let mut dp =
        aic_runtime::DevicePlan::new(&cuda, &module, plan, infos).map_err(|e| e.to_string())?;
    let cu = |e: aic_runtime::CudaError| e.to_string();
    dp.upload(&refs, true).map_err(cu)?;
    dp.run().map_err(cu)?;
    let outs = dp.outputs().map_err(cu)?;
    let mut table = None;
    if o.bench.is_some() || o.trace.is_some() {
        let t = dp
            .bench(&refs, BENCH_WARMUP, o.bench.unwrap_or(1))
            .map_err(cu)?;
        let kernels: Vec<KernelInfo> = dp.kernels().cloned().collect();
        // A plan with loops or branches replays a graph per straight-line
        // stretch, choosing on the host between them.
        let how = if plan.has_control_flow() {
            "CUDA graphs of its straight stretches, loops and branches on the host"
        } else {
            "a CUDA graph"
        };
        let what = format!(
            "@{} on {} ({how} of {} kernels, arena {} bytes)",
            plan.func,
            cuda.device_name().map_err(cu)?,
            kernels.len(),
            plan.arena_bytes
        );
        table = report(o, &what, &kernels, &t)?;
        if let (Some(table), Some(n)) = (&mut table, o.bench) {
            let ms = aic_tools::bench::time_device_calls(&mut dp, &refs, (BENCH_WARMUP, n))
                .map_err(cu)?;
            table.push_str(&aic_tools::bench::call_line(ms));
        }
    }
    Ok((results_of(ctx, f, outs), table))
}

/// Runs the partitioned `plan` on one GPU per device of its mesh (`--devices`,
/// or the first ones), its collectives through NCCL; `--bench` reports the
/// median run and the share of it in collectives.
fn run_cuda_devices(
    ctx: &Context,
    f: Op,
    plan: &Plan,
    inputs: Vec<Tensor>,
    infos: &[KernelInfo],
    ptx: &[u8],
    o: &Options,
) -> Result<PlanRun, String> {
    let run = aic_tools::compile::run_cuda_spmd(
        ctx,
        f,
        plan,
        (infos, ptx),
        inputs,
        o.devices.as_deref(),
        o.bench.map(|reps| (BENCH_WARMUP, reps.max(1))),
    )?;
    let table = run.bench.map(|(ms, coll)| {
        format!(
            "@{} on {} GPUs (CUDA devices {:?}, {}): median {ms:.4} ms a run, {coll:.4} ms ({:.1}%) in collectives on device 0\n",
            plan.func,
            run.ordinals.len(),
            run.ordinals,
            run.nccl,
            if ms > 0.0 { 100.0 * coll / ms } else { 0.0 }
        )
    });
    Ok((run.results, table))
}

/// How far compiled results may be from the interpreter's, relative to
/// 1 + |reference|: 1e-4 for f32 and wider; for narrower results, a few
/// units in the last place of the coarsest format among them (the interpreter
/// rounds every op to it, kernels only at their ends): 2e-2 for f16 (20 units
/// of 2^-10), 8e-2 for bf16 (10 units of 2^-7), 0.5 for the 8-bit formats.
fn check_tolerance(ctx: &Context, results: &[Tensor]) -> f64 {
    results
        .iter()
        .filter_map(|t| {
            let e = ctx.type_kind(t.ty).element_type()?;
            match ctx.type_kind(e) {
                aic::types::TypeKind::Float(k) => Some(match k.bit_width() {
                    w if w >= 32 => 1e-4,
                    16 if *k == aic::float::FloatKind::F16 => 2e-2,
                    16 => 8e-2,
                    _ => 0.5,
                }),
                _ => None,
            }
        })
        .fold(1e-4, f64::max)
}

fn run_cuda(
    ctx: &Context,
    f: Op,
    inputs: Vec<Tensor>,
    infos: &[aic_runtime::KernelInfo],
    ptx: &[u8],
) -> Result<Vec<Tensor>, String> {
    if infos.is_empty() {
        // No kernels (a program the interpreter runs alone): no GPU needed.
        return aic_tools::compile::run_compiled(ctx, f, inputs, infos, &mut |k, _| {
            Err(format!("no compiled kernel '{}'", k.name))
        })
        .map_err(|e| interp_error(ctx, e));
    }
    let cuda = aic_runtime::Cuda::load().map_err(|e| e.to_string())?;
    let module = cuda.load_module(ptx).map_err(|e| e.to_string())?;
    aic_tools::compile::run_compiled(ctx, f, inputs, infos, &mut |k, bufs| {
        cuda.run_kernel(&module, k, bufs).map_err(|e| e.to_string())
    })
    .map_err(|e| interp_error(ctx, e))
}

#[cfg(feature = "llvm")]
fn compile_ptx(ctx: &Context, m: Op, arch: Option<&str>) -> Result<Vec<u8>, String> {
    let t = aic_llvm::Target::parse("nvptx", arch)?;
    aic_llvm::compile(ctx, m, &t, aic_llvm::Emit::Asm)
}

#[cfg(feature = "llvm")]
fn run_host(
    ctx: &Context,
    m: Op,
    f: Op,
    inputs: Vec<Tensor>,
    infos: &[aic_runtime::KernelInfo],
) -> Result<Vec<Tensor>, String> {
    let hm = aic_llvm::HostModule::new(ctx, m)?;
    aic_tools::compile::run_compiled(ctx, f, inputs, infos, &mut |k, bufs| {
        let mut slices: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        hm.run(&k.name, &mut slices)
    })
    .map_err(|e| interp_error(ctx, e))
}

/// Runs `plan` over a host arena, its kernels JIT-compiled (then times it with a
/// wall clock for `--bench`/`--trace`).
#[cfg(feature = "llvm")]
fn run_host_plan(
    ctx: &Context,
    m: Op,
    f: Op,
    plan: &Plan,
    inputs: Vec<Tensor>,
    infos: &[KernelInfo],
    o: &Options,
) -> Result<PlanRun, String> {
    plan.validate(infos)?;
    let hm = aic_llvm::HostModule::new(ctx, m)?;
    let mut launch = |k: &KernelInfo, bufs: &mut [Vec<u8>]| {
        let mut slices: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        hm.run(&k.name, &mut slices)
    };
    if plan.devices > 1 {
        // A partitioned plan: every device of the mesh in one process, the
        // collectives in memory.
        if o.bench.is_some() || o.trace.is_some() {
            return Err(
                "--bench and --trace time one device's plan; this one is partitioned".into(),
            );
        }
        let results = aic_tools::compile::run_host_spmd(ctx, f, plan, infos, inputs, &mut launch)?;
        return Ok((results, None));
    }
    let bytes: Vec<Vec<u8>> = inputs
        .iter()
        .map(|t| aic_tools::compile::to_bytes(ctx, t))
        .collect();
    let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    let outs = plan.run_host(infos, &refs, &mut launch, &mut |_| {})?;
    let mut table = None;
    if o.bench.is_some() || o.trace.is_some() {
        let kernels: Vec<KernelInfo> = plan.launches(infos).map(|(k, _)| k.clone()).collect();
        let t = aic_tools::bench::time_host_plan(
            plan,
            infos,
            &refs,
            &mut launch,
            (BENCH_WARMUP, o.bench.unwrap_or(1)),
        )?;
        let what = format!(
            "@{} on the host (wall clock, {} launches, arena {} bytes)",
            plan.func,
            kernels.len(),
            plan.arena_bytes
        );
        table = report(o, &what, &kernels, &t)?;
    }
    Ok((results_of(ctx, f, outs), table))
}

#[cfg(not(feature = "llvm"))]
#[allow(clippy::too_many_arguments)]
fn run_host_plan(
    _: &Context,
    _: Op,
    _: Op,
    _: &Plan,
    _: Vec<Tensor>,
    _: &[KernelInfo],
    _: &Options,
) -> Result<PlanRun, String> {
    Err(NO_LLVM.into())
}

#[cfg(not(feature = "llvm"))]
const NO_LLVM: &str = "this aic-run was built without LLVM (feature 'llvm'): it runs bundles only (make one with aic-translate --emit=bundle)";

#[cfg(not(feature = "llvm"))]
fn compile_ptx(_: &Context, _: Op, _: Option<&str>) -> Result<Vec<u8>, String> {
    Err(NO_LLVM.into())
}

#[cfg(not(feature = "llvm"))]
fn run_host(
    _: &Context,
    _: Op,
    _: Op,
    _: Vec<Tensor>,
    _: &[aic_runtime::KernelInfo],
) -> Result<Vec<Tensor>, String> {
    Err(NO_LLVM.into())
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("aic-run: {e}");
            return ExitCode::from(1);
        }
    };
    let path = o.input.clone().unwrap_or_else(|| "-".into());
    if o.target.is_some() {
        let nki = o.target.as_deref() == Some("nki-sim");
        let r = aic_tools::read_bytes(&path).and_then(|b| {
            with_parser_stack(move || {
                if nki {
                    run_nki_sim(&o, &path, b)
                } else {
                    run_target(&o, &path, b)
                }
            })
        });
        return match r {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("aic-run: {e}");
                ExitCode::from(1)
            }
        };
    }
    let text = match aic_tools::read_text(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("aic-run: {e}");
            return ExitCode::from(1);
        }
    };
    let chunks = if o.split {
        aic_tools::split_input(&text)
    } else {
        vec![(0, 0, text)]
    };
    let registry = Arc::new(aic_dialects::all_dialects());
    let (mut passed, mut failed, mut ok) = (0, 0, true);
    for (line_offset, _col, chunk) in chunks {
        let padded = format!("{}{chunk}", "\n".repeat(line_offset));
        let registry = registry.clone();
        let name = path.clone();
        let o = &o;
        let r = with_parser_stack(move || {
            let mut ctx = Context::new(registry);
            ctx.allow_unregistered = o.allow_unregistered;
            let mut sm = SourceMap::new();
            let f = sm.add(&name, padded);
            let m = match parse_module(&mut ctx, &sm, f).and_then(|m| verify(&ctx, m).map(|()| m)) {
                Ok(m) => m,
                Err(d) => {
                    eprint!("{}", sm.render(ctx.uniquer(), &d));
                    return Err(());
                }
            };
            match &o.entry {
                Some(e) => run_entry(&mut ctx, m, o, e).map(|()| (0, 0)).map_err(|e| {
                    eprintln!("aic-run: {e}");
                }),
                None => Ok(run_tests(&ctx, m, o)),
            }
        });
        match r {
            Ok((p, f)) => {
                passed += p;
                failed += f;
            }
            Err(()) => ok = false,
        }
    }
    if o.entry.is_none() {
        println!("{passed} passed, {failed} failed");
    }
    if ok && failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
