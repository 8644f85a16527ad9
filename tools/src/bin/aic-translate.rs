//! `aic-translate --target=nvptx|amdgpu|host --arch=ARCH --emit=llvm-ir|asm|obj|bundle FILE -o OUT`:
//! compiles a module at any level (StableHLO as JAX exports it, graph,
//! fusion groups, tile or gpu kernels) through the default pipeline to the
//! target. `--emit=asm` for nvptx is one PTX file holding every kernel;
//! `--emit=obj` for amdgpu is a linked code object (HSACO); `--emit=bundle`
//! is the binary with its manifest (kernels, launch sizes, shared memory,
//! buffers, the host-side program and the source), what `aic-run
//! --target=cuda` runs on a machine without LLVM.
//!
//! A bundle also carries each host function's executable plan (its buffers in one
//! arena planned by liveness, views as aliases, the launch steps), or, for a function
//! that still holds tensor ops that are not kernels, the names and locations of those
//! ops. `--verbose` reports each plan's arena against the sum of its tensors' bytes;
//! `--weights=I,J,...` marks arguments uploaded once and kept between calls.

use aic::syntax::with_parser_stack;
use std::process::ExitCode;

const HELP: &str = "OVERVIEW: aic translator: modules to LLVM IR, PTX, AMDGPU code objects, host objects and bundles

USAGE: aic-translate --target=<nvptx|amdgpu|host> [--arch=<arch>] [--threads=<n>] [--warp=<n>] [--tuning=<file>] [--copy=<cp_async|tma|tma_empty|tma_ws>] [--persistent=<blocks>] --emit=<llvm-ir|asm|obj|bundle> <input file> -o <output file>
       aic-translate --target=nki [--arch=trn1|trn2] --emit=<python|bundle> <input file> -o <output file>

OPTIONS:
  --target=<t>      nvptx (NVIDIA), amdgpu (AMD) or host (this machine's CPU); nki (NKI Python for NeuronCores, --arch=trn1|trn2)
  --arch=<a>        sm_80, sm_86, sm_89, sm_90, sm_90a (nvptx; default sm_90; sm_90a runs f16 GEMMs on wgmma); gfx90a, gfx942 (amdgpu; default gfx942)
  --copy=<c>        How wgmma K loops fill their shared rings: cp_async (default), tma (Hopper's bulk tensor copies on mbarriers, where the loads allow), tma_empty (stages also freed by mbarriers) or tma_ws (a producer warpgroup issuing them)
  --persistent=<n>  With --copy=tma_ws: warp-specialised kernels run on at most n blocks, each looping over the grid's tiles (132 fills an H100's SMs)
  --emit=<kind>     llvm-ir, asm (PTX for nvptx), obj (a linked code object for amdgpu) or bundle
  -o <file>         Where to write it ('-' for standard output)
  --tuning=<file>   A JSON tuning cache for fusion-to-tile: tile sizes and stages by target/gemm/MxNxK
  --weights=<i,j,...>  Arguments that are weights: a bundle's plan uploads them once and keeps them
  --verbose         Report each host function's planned arena (remarks on standard error)
  --dim-bounds=<NAME=N,...>  Bounds of the dynamic (`?`) dimensions: kernels compiled once, for every size up to N rounded up to a power of two
  --dim-buckets=<NAME=N,...>  Smaller bounds to compile copies for too (every combination with the bounds); a call runs the smallest copy its sizes fit
  --help            Show this help
";

struct Options {
    input: String,
    target: String,
    arch: Option<String>,
    copy: Option<String>,
    persistent: Option<i64>,
    emit: String,
    output: String,
    threads: Option<i64>,
    warp: Option<i64>,
    tuning: Option<String>,
    weights: Vec<usize>,
    verbose: bool,
    dim_bounds: Vec<String>,
    dim_buckets: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let (mut input, mut target, mut arch, mut emit, mut output) = (None, None, None, None, None);
    let (mut threads, mut warp, mut tuning) = (None, None, None);
    let (mut weights, mut verbose) = (Vec::new(), false);
    let (mut copy, mut persistent) = (None, None);
    let mut dim_bounds = Vec::new();
    let mut dim_buckets = Vec::new();
    let mut args = aic_tools::Args::new(std::env::args().skip(1));
    while let Some((flag, inline)) = args.next_arg() {
        let a = flag.clone();
        let mut value = |name: &str| args.value(name, inline.clone());
        match flag.as_str() {
            "--help" | "-h" => {
                print!("{HELP}{}", aic_tools::THREADS_HELP);
                std::process::exit(0);
            }
            "--target" => target = Some(value("--target")?),
            "--arch" => arch = Some(value("--arch")?),
            "--copy" => copy = Some(value("--copy")?),
            "--persistent" => {
                persistent = Some(aic_tools::int_flag(
                    "--persistent",
                    &value("--persistent")?,
                    1,
                    1 << 20,
                )?)
            }
            "--emit" => emit = Some(value("--emit")?),
            "-o" => output = Some(value("-o")?),
            "--threads" => {
                threads = Some(aic_tools::pass_option_flag(
                    &aic_passes::tile_to_gpu::INFO,
                    "threads",
                    &value("--threads")?,
                )?)
            }
            "--tuning" => tuning = Some(value("--tuning")?),
            "--verbose" => verbose = true,
            "--dim-bounds" => {
                dim_bounds.extend(value("--dim-bounds")?.split(',').map(str::to_string))
            }
            "--dim-buckets" => {
                dim_buckets.extend(value("--dim-buckets")?.split(',').map(str::to_string))
            }
            "--weights" => {
                for w in value("--weights")?.split(',').filter(|w| !w.is_empty()) {
                    weights.push(
                        aic_tools::int_flag("--weights", w, 0, i64::from(u32::MAX))? as usize,
                    );
                }
            }
            "--warp" => {
                warp = Some(aic_tools::pass_option_flag(
                    &aic_passes::tile_to_gpu::INFO,
                    "warp",
                    &value("--warp")?,
                )?)
            }
            f if f.starts_with('-') && f != "-" => return Err(format!("unknown option '{f}'")),
            _ => {
                if input.is_some() {
                    return Err("only one input file may be given".into());
                }
                input = Some(a);
            }
        }
    }
    let emit = emit.unwrap_or_else(|| "asm".into());
    if target.as_deref() == Some("nki") {
        if !["python", "bundle"].contains(&emit.as_str()) {
            return Err(format!(
                "unsupported --emit '{emit}' for --target=nki: expected python or bundle"
            ));
        }
    } else if !["llvm-ir", "asm", "obj", "bundle"].contains(&emit.as_str()) {
        return Err(format!(
            "unsupported --emit '{emit}': expected llvm-ir, asm, obj or bundle"
        ));
    }
    Ok(Options {
        input: input.unwrap_or_else(|| "-".into()),
        target: target.ok_or("--target is required (nvptx, amdgpu or host)")?,
        arch,
        copy,
        persistent,
        emit,
        output: output.unwrap_or_else(|| "-".into()),
        threads,
        warp,
        tuning,
        weights,
        verbose,
        dim_bounds,
        dim_buckets,
    })
}

fn translate(o: &Options, text: String) -> Result<Vec<u8>, String> {
    aic_tools::translate::Translate {
        target: o.target.clone(),
        arch: o.arch.clone(),
        emit: o.emit.clone(),
        threads: o.threads,
        warp: o.warp,
        tuning: o.tuning.clone(),
        copy: o.copy.clone(),
        persistent: o.persistent,
        weights: o.weights.clone(),
        verbose: o.verbose,
        dim_bounds: o.dim_bounds.clone(),
        dim_buckets: o.dim_buckets.clone(),
    }
    .run(&o.input, text)
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("aic-translate: {e}");
            return ExitCode::from(1);
        }
    };
    let text = match aic_tools::read_text(&o.input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("aic-translate: {e}");
            return ExitCode::from(1);
        }
    };
    let out = with_parser_stack(move || translate(&o, text).map(|b| (b, o.output)));
    match out {
        Ok((bytes, path)) => match aic_tools::output::write_file(&path, &bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("aic-translate: {e}");
                ExitCode::from(1)
            }
        },
        Err(e) => {
            eprintln!("aic-translate: {e}");
            ExitCode::from(1)
        }
    }
}
