//! What `aic-translate` and `aic-run --target` share: the default pipeline
//! from any level down to `gpu` kernels, the manifest of a compiled module,
//! tensors as the bytes kernels read, and running a program whose
//! launches go to compiled kernels while the interpreter runs the rest.
//!
//! Nothing here links LLVM: the GPU machine runs bundles with this alone.

use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::shape::ShapeError;
use aic::types::Type;
use aic_dialects::{func, gpu};
use aic_runtime::{KernelInfo, Launch, Param, TensorMapInfo};

/// The targets aic compiles for, with what each lowers with: the tile-size
/// heuristics of `fusion-to-tile`, the threads a block has and the threads
/// of a warp that reductions shuffle across (0: none).
pub const TARGETS: &[(&str, &str, i64, i64)] = &[
    ("nvptx", "h100", 128, 32),
    ("amdgpu", "mi300", 256, 64),
    ("host", "cpu", 1, 0),
];

/// The pass pipeline that takes a module at any level (StableHLO as JAX
/// exports it, graph, fusion groups, tile kernels) down to `gpu` kernels
/// for `target` (`nvptx`, `amdgpu`, `host`), blocks of `block` threads and
/// reductions shuffling across warps of `warp` (the target's own when
/// `None`).
pub fn default_pipeline(
    target: &str,
    block: Option<i64>,
    warp: Option<i64>,
) -> Result<String, String> {
    tuned_pipeline(target, block, warp, None)
}

/// [`default_pipeline`] with fusion-to-tile reading the JSON tuning cache
/// at path `tuning` (tile sizes and stages per GEMM shape).
pub fn tuned_pipeline(
    target: &str,
    block: Option<i64>,
    warp: Option<i64>,
    tuning: Option<&str>,
) -> Result<String, String> {
    matrix_pipeline(target, None, block, warp, None, tuning, Rings::default())
}

/// How pipelined wgmma loops may fill their shared rings (tile-to-gpu's
/// `copy` option): cp.async, or Hopper's TMA (freeing stages by block
/// barriers, or by empty mbarriers with `tma_empty`, or issued by a
/// producer warpgroup with `tma_ws`): `tile::CopyKind`'s keywords.
pub const RING_COPIES: &[&str] = aic_dialects::tile::CopyKind::KEYWORDS;

/// How a pipeline's wgmma K loops fill their rings: `copy` one of
/// [`RING_COPIES`] (`None`: cp.async), and with `tma_ws` `persistent`
/// blocks that loop over the grid's tiles (`None`: one block a tile).
#[derive(Clone, Copy, Debug, Default)]
pub struct Rings<'a> {
    pub copy: Option<&'a str>,
    pub persistent: Option<i64>,
}

/// The matrix units `tile-to-gpu` may run GEMMs on (its `mma` option).
pub const MATRIX_UNITS: &[&str] = &["false", "nvgpu", "amdgpu", "wgmma"];

/// The matrix units an architecture runs GEMMs on when they are not the
/// target's default: Hopper's warpgroup MMA on `sm_90a` (the only NVIDIA
/// target with wgmma; plain `sm_90` keeps mma.sync).
pub fn arch_units(target: &str, arch: Option<&str>) -> Option<&'static str> {
    (target == "nvptx" && arch == Some("sm_90a")).then_some("wgmma")
}

/// [`tuned_pipeline`] with GEMMs on the matrix units `mma` names (one of
/// [`MATRIX_UNITS`]; `None`: the target's own, NVIDIA's tensor cores on
/// `nvptx` and AMD's matrix cores on `amdgpu`). Another target's units
/// run on the host through its emulation of their collective ops, so that
/// their lowering is tested without the GPU. `copy` (one of
/// [`RING_COPIES`]) is how wgmma loops fill their rings where TMA can.
pub fn matrix_pipeline(
    target: &str,
    arch: Option<&str>,
    block: Option<i64>,
    warp: Option<i64>,
    mma: Option<&str>,
    tuning: Option<&str>,
    rings: Rings<'_>,
) -> Result<String, String> {
    let persistent = match rings.persistent {
        Some(p) if p < 1 => return Err(format!("persistent blocks must be positive, not {p}")),
        Some(_) if rings.copy != Some("tma_ws") => {
            return Err("persistent kernels need --copy=tma_ws (a producer warpgroup)".into());
        }
        Some(p) => format!(" persistent={p}"),
        None => String::new(),
    };
    let copy = match rings.copy {
        Some(c) if !RING_COPIES.contains(&c) => {
            return Err(format!(
                "unknown ring copy '{c}': expected one of {}",
                RING_COPIES.join(", ")
            ));
        }
        Some(c) if c != "cp_async" => &format!(" copy={c}{persistent}"),
        _ => "",
    };
    if tuning.is_some_and(|t| t.contains(['}', ' ', ','])) {
        return Err("a tuning cache path may not contain '}', ',' or spaces".into());
    }
    let (_, tiles, threads, target_warp) =
        TARGETS.iter().find(|(t, ..)| *t == target).ok_or_else(|| {
            format!("unsupported target '{target}': expected one of nvptx, amdgpu, host")
        })?;
    let threads = block.unwrap_or(*threads);
    let warp = warp.unwrap_or(*target_warp);
    // Every NVIDIA architecture aic compiles for (sm_80 and later) has the
    // tensor cores mma.sync m16n8k16 runs on, every AMD one (gfx90a,
    // gfx942) the matrix cores of mfma.
    let mma = match mma {
        Some(m) if !MATRIX_UNITS.contains(&m) => {
            return Err(format!(
                "unknown matrix units '{m}': expected one of {}",
                MATRIX_UNITS.join(", ")
            ));
        }
        Some(m) => m,
        None if target == "nvptx" => "nvgpu",
        None if target == "amdgpu" => "amdgpu",
        None => "false",
    };
    // 2:4-sparse products run compressed (tile.sparse_gemm): on NVIDIA's
    // sparse tensor cores (mma.sp) or SIMT lanes; AMD's matrix cores have
    // no sparse form, so there the dense product of the expanded weight
    // runs.
    let sparse = if mma == "amdgpu" { "false" } else { "true" };
    // Wgmma's tiles are fusion-to-tile's choice too.
    let wgmma = if mma == "wgmma" { " wgmma=true" } else { "" };
    // eqsat-fusion forms only the groups those units run well.
    let eq_wgmma = mma == "wgmma";
    let mma = if mma == "false" {
        String::new()
    } else {
        format!(" mma={mma}")
    };
    let tuning = tuning.map(|t| format!(" tuning={t}")).unwrap_or_default();
    let arch = arch.unwrap_or(default_arch(target));
    if !arch.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(format!("unknown architecture '{arch}'"));
    }
    Ok(format!(
        "builtin.module(spmd-partition,stablehlo-to-graph,inline,canonicalize,eqsat-fusion{{sparse-gemm={sparse} wgmma={eq_wgmma}}},fusion-to-tile{{target={tiles} arch={arch}{tuning}{wgmma} total=true scalars=true}},dedup-kernels,tile-early-loads,tile-to-gpu{{threads={threads} warp={warp}{mma}{copy}}},coord-to-arith,canonicalize,cse)"
    ))
}

/// `pipeline` (a `builtin.module(...)` pipeline) with `dynamic-dims` first
/// when `bounds` (`NAME=N` items, `--dim-bounds`; `*=N` bounds every dim not
/// named) are given (then a `?` dim without one is an error naming it). Each bound is rounded up to a
/// power of two, the size *bucket* the kernels are compiled (and tuning-cache
/// entries keyed) for. Without bounds `pipeline` is kept as it is.
pub fn with_dim_bounds(pipeline: &str, bounds: &[String]) -> Result<String, String> {
    with_dim_buckets(pipeline, bounds, &[])
}

/// [`with_dim_bounds`] with `buckets` too (`NAME=N` items,
/// `--dim-buckets`): smaller bounds each public function is also compiled
/// for, one copy per combination, which the run time picks by the sizes of
/// a call (each rounded up to a power of two like the bounds).
pub fn with_dim_buckets(
    pipeline: &str,
    bounds: &[String],
    buckets: &[String],
) -> Result<String, String> {
    if bounds.iter().all(|b| b.trim().is_empty()) {
        if buckets.iter().any(|b| !b.trim().is_empty()) {
            return Err("--dim-buckets needs --dim-bounds".into());
        }
        return Ok(pipeline.to_string());
    }
    let parsed = aic_passes::dynamic_dims::parse_assignments(bounds, "--dim-bounds")?;
    let mut items = Vec::new();
    let mut default = String::new();
    for (name, n) in parsed {
        if name == "*" {
            let bucket = u64::try_from(n)
                .ok()
                .and_then(u64::checked_next_power_of_two)
                .ok_or_else(|| format!("--dim-bounds: *={n} is too large"))?;
            default = format!(" default-bound={bucket}");
            continue;
        }
        items.push(format!("{name}={}", bucket_of("--dim-bounds", &name, n)?));
    }
    let rest = pipeline
        .strip_prefix("builtin.module(")
        .ok_or_else(|| format!("not a module pipeline: {pipeline}"))?;
    let mut opts = match items.is_empty() {
        true => default.trim_start().to_string(),
        false => format!("bounds={}{default}", items.join(",")),
    };
    let mut ladder = Vec::new();
    for b in buckets.iter().filter(|b| !b.trim().is_empty()) {
        for (name, n) in
            aic_passes::dynamic_dims::parse_assignments(std::slice::from_ref(b), "--dim-buckets")?
        {
            ladder.push(format!("{name}={}", bucket_of("--dim-buckets", &name, n)?));
        }
    }
    if !ladder.is_empty() {
        opts = format!("{opts} buckets={}", ladder.join(","));
    }
    Ok(format!(
        "builtin.module(dynamic-dims{{{}}},{rest}",
        opts.trim()
    ))
}

/// `NAME=N` of `flag` as the pass takes it: N rounded up to a power of two
/// (the bucket), or an error naming a bad name or a bound too large.
fn bucket_of(flag: &str, name: &str, n: i64) -> Result<i64, String> {
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return Err(format!("{flag}: bad name '{name}'"));
    }
    u64::try_from(n)
        .ok()
        .and_then(u64::checked_next_power_of_two)
        .and_then(|b| i64::try_from(b).ok())
        .ok_or_else(|| format!("{flag}: {name}={n} is too large"))
}

/// The NeuronCore generations `--target=nki-sim` and `aic-translate
/// --target=nki` compile for.
pub const NKI_ARCHS: &[&str] = &["trn1", "trn2"];

/// The pipeline to NKI kernels for `arch` (trn1 or trn2): the GPU
/// pipeline's fusion with the trn1 cost model and tile sizes, then
/// `tile-to-nki`.
pub fn nki_pipeline(arch: Option<&str>, tuning: Option<&str>) -> Result<String, String> {
    let arch = arch.unwrap_or("trn1");
    if !NKI_ARCHS.contains(&arch) {
        return Err(format!(
            "unknown NeuronCore architecture '{arch}': expected one of {}",
            NKI_ARCHS.join(", ")
        ));
    }
    if tuning.is_some_and(|t| t.contains(['}', ' ', ','])) {
        return Err("a tuning cache path may not contain '}', ',' or spaces".into());
    }
    let tuning = tuning.map(|t| format!(" tuning={t}")).unwrap_or_default();
    // A split reduction's blocks reduce at least 8192 elements ([128, 64]
    // tiles): each instruction's fixed cost is paid over 64 columns, not 8.
    Ok(format!(
        "builtin.module(spmd-partition,stablehlo-to-graph,inline,canonicalize,eqsat-fusion{{target={arch}}},fusion-to-tile{{target=trn1 arch={arch}{tuning} total=true reduce-chunk=8192}},dedup-kernels,canonicalize,cse,coord-to-arith,canonicalize,tile-to-nki{{arch={arch}}})"
    ))
}

/// The architecture a target compiles for when none is named (what
/// aic-llvm picks): `sm_90`, `gfx942`, `native` (the host).
pub fn default_arch(target: &str) -> &'static str {
    match target {
        "nvptx" => "sm_90",
        "amdgpu" => "gfx942",
        _ => "native",
    }
}

/// What shape errors of compiled modules name as what cannot size them.
const CODEGEN: &str = "code generation";

/// Whether a public function of `m` has `?` dimensions in its signature.
pub fn has_dynamic_signature(ctx: &Context, m: Op) -> bool {
    top_ops::<aic_dialects::func::Func>(ctx, m).iter().any(|f| {
        aic::symbol::visibility(ctx, f.op()) == Some(aic::symbol::Visibility::Public)
            && aic_dialects::func::function_type(ctx, f.op()).is_some_and(|(ins, outs)| {
                ins.iter().chain(&outs).any(|t| {
                    ctx.type_kind(*t)
                        .shape()
                        .is_some_and(|s| s.contains(&aic::types::DYNAMIC))
                })
            })
    })
}

/// Runs `pipeline` on module `m`, whose shapes must be static and
/// addressable (compiled code sizes every buffer from its type) once a
/// leading `dynamic-dims` pass (see [`with_dim_bounds`]) has run.
pub fn run_pipeline(ctx: &mut Context, m: Op, pipeline: &str) -> Result<(), String> {
    let reg = aic_passes::all_passes();
    let mut pipeline = pipeline.to_string();
    if let Some(rest) = pipeline.strip_prefix("builtin.module(dynamic-dims{")
        && let Some(end) = rest.find('}')
    {
        let first = format!("builtin.module(dynamic-dims{{{}}})", &rest[..end]);
        let pm = parse_pipeline(&first, &reg).map_err(|e| format!("{e:?}"))?;
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, ctx, m)
            .map_err(|d| located(ctx, &d))?;
        let after = rest[end + 1..].trim_start_matches(',');
        if after == ")" {
            return aic::shape::check_values(ctx, m, CODEGEN).map_err(|d| located(ctx, &d));
        }
        pipeline = format!("builtin.module({after}");
    }
    aic::shape::check_values(ctx, m, CODEGEN).map_err(|d| {
        let d = match has_dynamic_signature(ctx, m) {
            true => d.with_note(
                "a public function has dynamic (`?`) dimensions: give each a bound (--dim-bounds=NAME=N; aic.compile(..., dim_bounds=...)) to compile it once for every size up to it",
                aic::Where::Nowhere,
            ),
            false => d,
        };
        located(ctx, &d)
    })?;
    let pm = parse_pipeline(&pipeline, &reg).map_err(|e| format!("{e:?}"))?;
    PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
        .run(&pm, ctx, m)
        .map_err(|d| located(ctx, &d))?;
    Ok(())
}

/// Diagnostic `d` as one line per diagnostic (its notes after it), each
/// prefixed with `file:line:col: ` where it points into a file.
pub fn located(ctx: &Context, d: &aic::Diagnostic) -> String {
    let at = match d.at {
        aic::Where::Loc(l) => aic::diagnostics::file_line_col(ctx.uniquer(), l)
            .map(|(f, line, col)| format!("{f}:{line}:{col}: ")),
        _ => None,
    };
    let mut text = format!("{}{}", at.unwrap_or_default(), d.message);
    for n in &d.notes {
        text.push('\n');
        text.push_str(&located(ctx, n));
    }
    text
}

/// The name of an element type as the manifest writes it (`f32`, `f16`,
/// `bf16`, `i1`, `i32`, ...).
pub fn elem_name(ctx: &Context, t: Type) -> String {
    aic::printer::type_text(ctx, t)
}

/// The ops of `m`'s body of kind `H`.
pub fn top_ops<H: OpHandle>(ctx: &Context, m: Op) -> Vec<H> {
    let Some(body) = ctx.regions(m).first().and_then(|r| ctx.entry_block(*r)) else {
        return Vec::new();
    };
    ctx.block_ops(body).filter_map(|o| H::of(ctx, o)).collect()
}

/// What the manifest says of each `gpu.kernel` of `m`: launch sizes,
/// shared memory and the buffers in argument order (inputs, then outputs:
/// as many outputs as its launches have results). A kernel argument that is
/// not a static buffer whose bytes a kernel can address (2^63) is an error.
pub fn kernel_infos(ctx: &Context, m: Op) -> Result<Vec<KernelInfo>, String> {
    let launches = launches(ctx, m);
    top_ops::<gpu::Kernel>(ctx, m)
        .into_iter()
        .map(|kernel| {
            let k = kernel.op();
            let name = aic::symbol::symbol_name(ctx, k)
                .unwrap_or_default()
                .to_string();
            let outputs = launches
                .iter()
                .find(|l| l.kernel == name)
                .map_or(0, |l| l.outputs.len());
            let dims = |a: &str| aic_dialects::gpu::dims3(ctx, k, a).map(|v| v as u32);
            let shared = kernel.shared(ctx).unwrap_or(0) as u32;
            let body = ctx.entry_block(kernel.body(ctx));
            let args = body.map(|b| ctx.block_args(b).to_vec()).unwrap_or_default();
            let n = args.len();
            let params = args
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let ty = ctx.value_type(*a);
                    let kd = ctx.type_kind(ty);
                    let text = || aic::printer::type_text(ctx, ty);
                    let fail = |m: String| format!("kernel @{name}: argument {i}: {m}");
                    let (Some(elem), Some(shape)) = (kd.element_type(), kd.shape()) else {
                        return Err(fail(format!("{} is not a buffer", text())));
                    };
                    let elem_name = elem_name(ctx, elem);
                    let elem_bytes = Param::elem_bytes(&elem_name).unwrap_or(8);
                    let bytes = aic::shape::bytes(shape, elem_bytes).map_err(|e| match e {
                        ShapeError::Dynamic => fail(e.message(&text(), CODEGEN)),
                        ShapeError::Overflow => fail(format!(
                            "{} has more bytes than a kernel buffer can address (2^63)",
                            text()
                        )),
                    })?;
                    Ok(Param {
                        elem: elem_name,
                        shape: shape.to_vec(),
                        bytes: bytes as u64,
                        output: i + outputs >= n,
                    })
                })
                .collect::<Result<_, String>>()?;
            // What the passes may say of the kernel: its kind and its flops.
            let attr = |n: &str| ctx.find_ident(n).and_then(|i| ctx.attr_of(k, i));
            let kind = attr("aic.kind")
                .and_then(|a| ctx.uniquer().attr_str(a))
                .map(str::to_string);
            let flops = attr("aic.flops").and_then(|a| match ctx.attr_kind(a) {
                aic::AttrKind::Integer { value, .. } => u64::try_from(*value).ok(),
                _ => None,
            });
            let tune = attr("aic.tune")
                .and_then(|a| ctx.uniquer().attr_str(a))
                .map(str::to_string);
            let tensor_maps = aic_dialects::nvgpu::tensor_maps(ctx, k)
                .into_iter()
                .map(|(_, t)| {
                    let t = t.ok_or_else(|| {
                        format!("kernel @{name}: a malformed nvgpu.tma.create.descriptor")
                    })?;
                    Ok(TensorMapInfo {
                        buffer: t.buffer as u32,
                        shape: t.shape.map(|d| d as u64),
                        row_stride: t.row_stride as u64,
                        elem_bytes: t.elem_bytes as u32,
                        box_shape: t.box_shape.map(|d| d as u32),
                        swizzle: t.swizzle as u32,
                    })
                })
                .collect::<Result<_, String>>()?;
            Ok(KernelInfo {
                name,
                grid: dims("grid"),
                block: dims("block"),
                shared_bytes: shared,
                params,
                kind,
                flops,
                tune,
                tensor_maps,
            })
        })
        .collect()
}

/// Every `gpu.launch` of `m`'s functions, in program order. A launch's
/// operands are named `argI` (the function's argument I), `launchK.J`
/// (result J of launch K of the same function), `const:ATTR` (a constant's
/// value, as MLIR writes it) or `op:NAME` (a value some other op computes,
/// which the interpreter must run).
pub fn launches(ctx: &Context, m: Op) -> Vec<Launch> {
    let mut out = Vec::new();
    for f in top_ops::<func::Func>(ctx, m) {
        let f = f.op();
        let func = aic::symbol::symbol_name(ctx, f)
            .unwrap_or_default()
            .to_string();
        let args: Vec<aic::ir::Value> = ctx
            .regions(f)
            .first()
            .and_then(|r| ctx.entry_block(*r))
            .map(|b| ctx.block_args(b).to_vec())
            .unwrap_or_default();
        let mut made: Vec<Vec<aic::ir::Value>> = Vec::new();
        ctx.walk(f, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if !gpu::Launch::is(ctx, o) {
                return;
            }
            let k = made.len();
            let name = |v: &aic::ir::Value| {
                if let Some(i) = args.iter().position(|a| a == v) {
                    return format!("arg{i}");
                }
                for (l, rs) in made.iter().enumerate() {
                    if let Some(j) = rs.iter().position(|r| r == v) {
                        return format!("launch{l}.{j}");
                    }
                }
                let def = ctx.defining_op(*v);
                // A constant travels as its value, for runners that read
                // only the launches.
                let value = def.and_then(|d| aic::rewrite::constant_value(ctx, d));
                match (def, value) {
                    (_, Some(a)) => format!("const:{}", aic::printer::attr_text(ctx, a)),
                    (Some(d), None) => format!("op:{}", ctx.op_name(d)),
                    (None, None) => "op:?".into(),
                }
            };
            let inputs = ctx.operands(o).iter().map(name).collect();
            out.push(Launch {
                func: func.clone(),
                kernel: launch_kernel(ctx, o),
                inputs,
                outputs: (0..ctx.num_results(o))
                    .map(|j| format!("launch{k}.{j}"))
                    .collect(),
            });
            made.push(ctx.results(o).collect());
        });
    }
    out
}

/// The kernel a launch names.
pub fn launch_kernel(ctx: &Context, op: Op) -> String {
    ctx.find_ident("kernel")
        .and_then(|i| ctx.inherent_attr(op, i))
        .and_then(|a| match ctx.attr_kind(a) {
            aic::AttrKind::SymbolRef { root, .. } => Some(ctx.uniquer().str(*root).to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The bytes of `t` as a kernel reads them: its elements in row-major
/// order, little-endian (f16/bf16 as their bits, i1 as one byte).
pub fn to_bytes(ctx: &Context, t: &Tensor) -> Vec<u8> {
    let elem = ctx.type_kind(t.ty).element_type().unwrap_or(t.ty);
    let e = Elem::of(ctx.uniquer(), elem);
    let n = t.len();
    let mut out = Vec::with_capacity(n * 4);
    for i in 0..n {
        let (f, k) = match &t.data {
            Data::Float(v) => (v.get(i), v.get(i) as i64),
            Data::Int(v) => (v.get(i) as f64, v.get(i)),
            _ => (0.0, 0),
        };
        match e {
            Some(Elem::Float(fk)) => {
                let bits = fk.from_f64(f);
                let w = (fk.bit_width() / 8) as usize;
                out.extend_from_slice(&bits.to_le_bytes()[..w]);
            }
            Some(Elem::Int { width, .. }) => {
                let w = width.div_ceil(8) as usize;
                // The element's bits, zero above its width (`i1` true is 1).
                let k = if width < 64 {
                    k & ((1 << width) - 1)
                } else {
                    k
                };
                out.extend_from_slice(&k.to_le_bytes()[..w]);
            }
            _ => out.extend_from_slice(&k.to_le_bytes()),
        }
    }
    out
}

/// The tensor of type `ty` whose elements `bytes` holds (see [`to_bytes`]).
pub fn from_bytes(ctx: &Context, ty: Type, bytes: &[u8]) -> Tensor {
    let kd = ctx.type_kind(ty);
    let elem = kd.element_type().unwrap_or(ty);
    let data = match Elem::of(ctx.uniquer(), elem) {
        Some(Elem::Float(fk)) => {
            let w = (fk.bit_width() / 8) as usize;
            Data::from_f64s(
                fk,
                bytes.chunks(w).map(|c| {
                    let mut b = [0u8; 16];
                    b[..w].copy_from_slice(c);
                    fk.to_f64(u128::from_le_bytes(b))
                }),
            )
        }
        Some(e @ Elem::Int { width, .. }) => {
            let w = width.div_ceil(8) as usize;
            Data::from_i64s(
                e,
                bytes.chunks(w).map(|c| {
                    let mut b = [0u8; 16];
                    b[..w].copy_from_slice(c);
                    let raw = u128::from_le_bytes(b);
                    // Sign- or zero-extend from the element's width.
                    let shift = 128 - width.max(1);
                    let v = if e.is_unsigned() {
                        raw as i128
                    } else {
                        ((raw << shift) as i128) >> shift
                    };
                    v as i64
                }),
            )
        }
        _ => Data::from_i64s(
            Elem::Index,
            bytes
                .chunks(8)
                .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))),
        ),
    };
    Tensor::new(ctx.uniquer(), ty, data)
}

pub use aic_runtime::plan::Launcher;

/// Calls `f` on `inputs` with the interpreter, every `gpu.launch` going to
/// `launch` with the kernel's entry of `infos`.
pub fn run_compiled(
    ctx: &Context,
    f: Op,
    inputs: Vec<Tensor>,
    infos: &[KernelInfo],
    launch: &mut Launcher<'_>,
) -> IResult<Vec<Tensor>> {
    let mut it = Interp::new(ctx);
    it.hook = Some(Box::new(move |ctx: &Context, op: Op, args: &[Tensor]| {
        if !gpu::Launch::is(ctx, op) {
            return None;
        }
        let name = launch_kernel(ctx, op);
        let Some(k) = infos.iter().find(|k| k.name == name) else {
            return Some(Err(InterpError::at(
                op,
                format!("no compiled kernel '{name}'"),
            )));
        };
        let mut bufs: Vec<Vec<u8>> = Vec::new();
        for (i, p) in k.params.iter().enumerate() {
            if i < args.len() {
                bufs.push(to_bytes(ctx, &args[i]));
            } else {
                bufs.push(vec![0; p.bytes as usize]);
            }
        }
        if let Err(e) = launch(k, &mut bufs) {
            return Some(Err(InterpError::at(op, e)));
        }
        let outs = ctx
            .results(op)
            .zip(&bufs[args.len()..])
            .map(|(r, b)| from_bytes(ctx, ctx.value_type(r), b))
            .collect();
        Some(Ok(outs))
    }));
    it.call(f, inputs)
}

/// The largest difference between `got` and `want`, relative to
/// `1 + |want|`, and where it is (output, element).
pub fn max_error(got: &[Tensor], want: &[Tensor]) -> (f64, usize, usize) {
    let mut worst = (0.0, 0, 0);
    for (o, (g, w)) in got.iter().zip(want).enumerate() {
        let vals = |t: &Tensor| -> Vec<f64> {
            match &t.data {
                Data::Float(v) => v.to_vec(),
                Data::Int(v) => v.iter().map(|x| x as f64).collect(),
                _ => Vec::new(),
            }
        };
        let (gv, wv) = (vals(g), vals(w));
        if gv.len() != wv.len() {
            return (f64::INFINITY, o, 0);
        }
        for (i, (a, b)) in gv.iter().zip(&wv).enumerate() {
            // Equal values (infinities too) and NaNs against NaNs agree.
            let d = if a == b || (a.is_nan() && b.is_nan()) {
                0.0
            } else {
                (a - b).abs() / (1.0 + b.abs())
            };
            if d > worst.0 || d.is_nan() {
                worst = (if d.is_nan() { f64::INFINITY } else { d }, o, i);
            }
        }
    }
    worst
}

/// Each device's buffers' bytes, by device id.
pub type PerDevice = Vec<Vec<Vec<u8>>>;

/// The global `inputs` of partitioned function `f` split by its arguments'
/// shardings: each device's argument bytes, by device id, and the device id
/// of each mesh position (what [`join_from_devices`] takes back).
pub fn split_for_devices(
    ctx: &Context,
    f: Op,
    inputs: &[Tensor],
) -> Result<(PerDevice, Vec<i64>), String> {
    let located_interp = |e: aic::interp::InterpError| located(ctx, &e.diagnostic(ctx));
    let (per_position, ids) =
        aic_dialects::sdy::layout::split_inputs(ctx, f, inputs).map_err(located_interp)?;
    let mut per_device: PerDevice = vec![Vec::new(); ids.len()];
    for (p, ins) in per_position.iter().enumerate() {
        per_device[ids[p] as usize] = ins.iter().map(|t| to_bytes(ctx, t)).collect();
    }
    Ok((per_device, ids))
}

/// Each device's result bytes `outs` (by device id) of partitioned function
/// `f` joined by its results' shardings into the global results.
pub fn join_from_devices(
    ctx: &Context,
    f: Op,
    ids: &[i64],
    outs: &[Vec<Vec<u8>>],
) -> Result<Vec<Tensor>, String> {
    let types = aic_dialects::func::function_type(ctx, f)
        .map(|(_, outs)| outs)
        .unwrap_or_default();
    let parts: Vec<Vec<Tensor>> = ids
        .iter()
        .map(|id| {
            types
                .iter()
                .zip(&outs[*id as usize])
                .map(|(ty, b)| from_bytes(ctx, *ty, b))
                .collect()
        })
        .collect();
    aic_dialects::sdy::layout::join_results(ctx, f, parts)
        .map_err(|e| located(ctx, &e.diagnostic(ctx)))
}

/// The CUDA devices a plan partitioned over `plan.devices` runs on:
/// `devices`, or `0..n`; an error where their number differs from the
/// mesh's or one is not present.
pub fn mesh_devices(plan: &aic_runtime::Plan, devices: Option<&[i32]>) -> Result<Vec<i32>, String> {
    let n = plan.devices as usize;
    let ordinals: Vec<i32> = match devices {
        Some(d) if d.len() != n => {
            return Err(format!(
                "@{} is partitioned over a mesh of {n} devices, but {} devices were named",
                plan.func,
                d.len()
            ));
        }
        Some(d) => d.to_vec(),
        None => (0..n as i32).collect(),
    };
    let present = aic_runtime::cuda::device_count().map_err(|e| e.to_string())?;
    if let Some(missing) = ordinals.iter().find(|d| **d >= present) {
        return Err(format!(
            "@{} needs {n} GPUs (its mesh has {n} devices), but CUDA device {missing} is not present: this machine has {present}",
            plan.func
        ));
    }
    Ok(ordinals)
}

/// `ptx` loaded on each of `cudas`, each made current in turn.
pub fn load_on_devices<'c>(
    cudas: &'c [aic_runtime::Cuda],
    ptx: &[u8],
) -> Result<Vec<aic_runtime::Module<'c>>, String> {
    cudas
        .iter()
        .map(|c| {
            c.make_current()?;
            c.load_module(ptx)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// One step of partitioned function `f` on the loaded plan `mp`: each
/// device's inputs `per_device` (from [`split_for_devices`], whose `ids`
/// these are) uploaded, the plan run, the results joined.
pub fn run_on_mesh(
    ctx: &Context,
    f: Op,
    mp: &aic_runtime::MultiDevicePlan<'_>,
    per_device: &PerDevice,
    ids: &[i64],
) -> Result<Vec<Tensor>, String> {
    let refs: Vec<Vec<&[u8]>> = per_device
        .iter()
        .map(|d| d.iter().map(Vec::as_slice).collect())
        .collect();
    mp.upload(&refs).map_err(|e| e.to_string())?;
    mp.run().map_err(|e| e.to_string())?;
    let outs = mp.outputs().map_err(|e| e.to_string())?;
    join_from_devices(ctx, f, ids, &outs)
}

/// What [`run_cuda_spmd`] ran: the joined results, on which CUDA devices
/// with which NCCL, and with `bench` the median run and the median time in
/// collectives on the first device (ms).
pub struct CudaSpmdRun {
    pub results: Vec<Tensor>,
    pub ordinals: Vec<i32>,
    pub nccl: String,
    pub bench: Option<(f64, f64)>,
}

/// Run the partitioned `plan` of function `f` on one GPU per device of its
/// mesh (`devices`, or CUDA devices `0..n`), each loading `ptx` (whose
/// kernels are `kernels`), the
/// collectives through NCCL ([`aic_runtime::MultiDevicePlan`]): the global
/// `inputs` split by the arguments' shardings, each device's results
/// joined by the results'. With `bench` (warm-up runs, timed runs), also
/// times the whole step. What aic-run's `--devices` and the Python
/// package's CUDA calls share.
pub fn run_cuda_spmd(
    ctx: &Context,
    f: Op,
    plan: &aic_runtime::Plan,
    (kernels, ptx): (&[aic_runtime::KernelInfo], &[u8]),
    inputs: Vec<Tensor>,
    devices: Option<&[i32]>,
    bench: Option<(u32, u32)>,
) -> Result<CudaSpmdRun, String> {
    let ordinals = mesh_devices(plan, devices)?;
    let nccl = aic_runtime::Nccl::load().map_err(|e| e.to_string())?;
    let cudas = ordinals
        .iter()
        .map(|d| aic_runtime::Cuda::load_device(*d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let modules = load_on_devices(&cudas, ptx)?;
    let mp = aic_runtime::MultiDevicePlan::new(&cudas, &modules, &ordinals, &nccl, plan, kernels)
        .map_err(|e| e.to_string())?;
    let (per_device, ids) = split_for_devices(ctx, f, &inputs)?;
    let results = run_on_mesh(ctx, f, &mp, &per_device, &ids)?;
    let refs: Vec<Vec<&[u8]>> = per_device
        .iter()
        .map(|d| d.iter().map(Vec::as_slice).collect())
        .collect();
    let bench = match bench {
        Some((warmup, reps)) => {
            let mut t = mp.bench(&refs, warmup, reps).map_err(|e| e.to_string())?;
            Some((
                aic_runtime::cuda::median(&mut t.runs),
                aic_runtime::cuda::median(&mut t.collectives),
            ))
        }
        None => None,
    };
    Ok(CudaSpmdRun {
        results,
        ordinals,
        nccl: format!("NCCL {} from {}", nccl.version, nccl.path),
        bench,
    })
}

/// Run the partitioned `plan` of function `f` on the host, every device of
/// its mesh in lockstep with in-memory collectives
/// ([`aic_runtime::Plan::run_host_spmd`]): the global `inputs` split by the
/// arguments' shardings, each device's results joined by the results'.
pub fn run_host_spmd(
    ctx: &Context,
    f: Op,
    plan: &aic_runtime::Plan,
    kernels: &[aic_runtime::KernelInfo],
    inputs: Vec<Tensor>,
    launch: &mut aic_runtime::plan::Launcher<'_>,
) -> Result<Vec<Tensor>, String> {
    let (per_device, ids) = split_for_devices(ctx, f, &inputs)?;
    let refs: Vec<Vec<&[u8]>> = per_device
        .iter()
        .map(|d| d.iter().map(Vec::as_slice).collect())
        .collect();
    let outs = plan.run_host_spmd(kernels, &refs, launch, &mut |_| {})?;
    join_from_devices(ctx, f, &ids, &outs)
}
