//! aic's LLVM backend: `gpu`-level kernels (see `aic_dialects::gpu`) to LLVM IR
//! through inkwell, for NVIDIA GPUs (PTX), AMD GPUs (HSA code objects) and the
//! host CPU (assembly, objects, or a JIT that runs them: [`HostModule`]).
//!
//! A kernel is one thread's program over flat (rank-1) global buffers. What it
//! may contain: `gpu.thread_id`/`lane_id`/`block_id`/`barrier`/`shared`/`return`,
//! `memref.alloca`/`load`/`store` with one index, `scf.for`/`if`/`yield`, the
//! scalar `arith` ops and the `math` functions (on GPUs, those expanded in
//! src/math.rs, whose table gives their accuracy); on NVPTX the `nvgpu`
//! tensor-core ops and the `vector` ops on their fragments (src/nvgpu.rs);
//! on AMDGPU `amdgpu.mfma`, which the host emulates (src/amdgpu.rs);
//! anything else is an error naming the op and its location.
//!
//! Types: `index` is i64, `iN` is iN (up to 64 bits), f16, bf16, f32 and f64
//! keep their formats (the 16-bit ones are computed in f32); f8E4M3FN and
//! f8E5M2 values are their bytes, converted by `extf`/`truncf` (see the
//! `fp8` module). In memory an `i1`
//! takes one byte (0 or 1), every other element its natural little-endian size.
//!
//! Building needs LLVM 22: `LLVM_SYS_221_PREFIX` (set to `/usr/lib/llvm-22` by
//! the workspace's `.cargo/config.toml`). AMDGPU objects are linked with
//! `ld.lld` (`$AIC_LD_LLD`, `$LLVM_SYS_221_PREFIX/bin/ld.lld`, or on `PATH`).

// llvm-sys prefers a static LLVM when neither is on: say which to choose
// instead (both on, llvm-sys's build script says they exclude each other).
#[cfg(not(any(feature = "llvm-dynamic", feature = "llvm-static")))]
compile_error!(
    "aic-llvm links LLVM as chosen by one of its features: `llvm-dynamic` (the default) or `llvm-static`"
);

mod amdgpu;
mod arith;
mod emit;
mod fp8;
mod host;
mod math;
mod nvgpu;
mod ops;
mod target;
mod tma;

pub use host::HostModule;
pub use ops::translated_ops;
pub use target::Target;

use aic::ir::{Context, Op};
use inkwell::context::Context as LContext;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{FileType, TargetMachine};
use std::path::PathBuf;

/// What [`compile`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// LLVM IR text, after optimisation.
    LlvmIr,
    /// Assembly: one PTX file with every kernel on NVIDIA, GCN assembly on
    /// AMD, the host's assembly on the CPU.
    Asm,
    /// An object: the linked code object (HSACO, from `ld.lld -shared`) on
    /// AMD, a relocatable object on the host; NVIDIA has none (use PTX).
    Obj,
}

/// One kernel argument: a flat global buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferInfo {
    /// Number of elements.
    pub elements: u64,
    /// Bytes per element in memory (1 for `i1`, 8 for `index`).
    pub elem_bytes: u64,
}

/// What a runtime needs to launch a compiled kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    /// The symbol name (PTX `.entry`, AMDGPU kernel, host `<name>.grid`).
    pub name: String,
    /// Blocks along x, y, z.
    pub grid: [u64; 3],
    /// Threads per block along x, y, z.
    pub block: [u64; 3],
    /// Bytes of shared memory per block (dynamic shared memory on NVIDIA,
    /// passed at launch; static LDS on AMD).
    pub shared: u64,
    /// The buffers, in argument order.
    pub buffers: Vec<BufferInfo>,
    /// The TMA tensor maps the kernel takes after its buffers (NVPTX:
    /// each a `.param .align 64 .b8 [128]` the runtime encodes from the
    /// buffer it names; the host reads the buffers directly).
    pub tensor_maps: Vec<aic_dialects::nvgpu::TensorMapSpec>,
}

/// The kernels [`compile`] would translate, with their launch parameters,
/// checked against `target` (shared memory, block shape, names, buffers).
pub fn kernels(ctx: &Context, module: Op, target: &Target) -> Result<Vec<KernelInfo>, String> {
    Ok(emit::kernels(ctx, module, target)?
        .into_iter()
        .map(|k| k.info)
        .collect())
}

/// Whether `module` holds an fp8 `nvgpu.mma.sync` (which needs PTX ISA 8.4).
fn has_fp8_mma(ctx: &Context, module: Op) -> bool {
    let mut found = false;
    ctx.walk(module, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        use aic::op_def::OpHandle;
        found |= aic_dialects::nvgpu::MmaSync::is(ctx, o)
            && aic_dialects::nvgpu::mma_fp8(ctx, o).is_some();
    });
    found
}

/// Translates every `gpu.kernel` of `module` (the `builtin.module` op) for
/// `target` and returns the bytes `emit` asks for: LLVM IR text after
/// optimisation, assembly (one PTX file with every kernel for NVPTX), or an
/// object (for AMDGPU the linked code object from `ld.lld -shared`; NVPTX has
/// no object output).
pub fn compile(ctx: &Context, module: Op, target: &Target, emit: Emit) -> Result<Vec<u8>, String> {
    if matches!(target, Target::Nvptx { .. }) && emit == Emit::Obj {
        return Err("aic-llvm: nvptx has no object output: use asm (PTX)".into());
    }
    let kernels = emit::kernels(ctx, module, target)?;
    // Host objects may be linked into shared libraries.
    let pic = matches!(target, Target::Host);
    let tm = if has_fp8_mma(ctx, module) {
        target.machine_with(pic, &target.fp8_mma_features()?)?
    } else {
        target.machine(pic)?
    };
    let cx = LContext::create();
    let m = new_module(&cx, &tm, "aic");
    {
        let mut lower = emit::Lower::new(ctx, &cx, &m, target);
        for k in &kernels {
            let f = lower.kernel(k)?;
            if matches!(target, Target::Host) {
                host::wrapper(&lower, k, f)?;
            }
        }
    }
    optimize(&m, &tm)?;
    match emit {
        Emit::LlvmIr => Ok(m.print_to_string().to_bytes().to_vec()),
        Emit::Asm => machine_code(&tm, &m, FileType::Assembly),
        Emit::Obj => {
            let obj = machine_code(&tm, &m, FileType::Object)?;
            match target {
                Target::Amdgpu { .. } => link_hsaco(&obj),
                _ => Ok(obj),
            }
        }
    }
}

/// An empty module for `tm`'s triple and data layout (which places allocas
/// in the target's private address space).
pub(crate) fn new_module<'ctx>(cx: &'ctx LContext, tm: &TargetMachine, name: &str) -> Module<'ctx> {
    let m = cx.create_module(name);
    m.set_triple(&tm.get_triple());
    m.set_data_layout(&tm.get_target_data().get_data_layout());
    m
}

/// Verifies the module, runs LLVM's O3 pipeline for the target, and verifies again.
pub(crate) fn optimize(m: &Module<'_>, tm: &TargetMachine) -> Result<(), String> {
    m.verify().map_err(|e| {
        format!(
            "aic-llvm: LLVM rejects the translated module: {}",
            e.to_string_lossy()
        )
    })?;
    m.run_passes("default<O3>", tm, PassBuilderOptions::create())
        .map_err(|e| {
            format!(
                "aic-llvm: LLVM's optimisation pipeline failed: {}",
                e.to_string_lossy()
            )
        })?;
    m.verify().map_err(|e| {
        format!(
            "aic-llvm: LLVM rejects the optimised module: {}",
            e.to_string_lossy()
        )
    })
}

fn machine_code(tm: &TargetMachine, m: &Module<'_>, ft: FileType) -> Result<Vec<u8>, String> {
    tm.write_to_memory_buffer(m, ft)
        .map(|b| b.as_slice().to_vec())
        .map_err(|e| {
            format!(
                "aic-llvm: LLVM code generation failed: {}",
                e.to_string_lossy()
            )
        })
}

/// `ld.lld`: `$AIC_LD_LLD`, the LLVM that aic-llvm was built with, LLVM 22's
/// usual place, or `ld.lld-22`/`ld.lld` on `PATH`.
fn find_lld() -> Result<PathBuf, String> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("AIC_LD_LLD") {
        candidates.push(p.into());
    }
    for prefix in [
        std::env::var("LLVM_SYS_221_PREFIX").ok(),
        option_env!("LLVM_SYS_221_PREFIX").map(String::from),
        Some("/usr/lib/llvm-22".into()),
    ]
    .into_iter()
    .flatten()
    {
        candidates.push(PathBuf::from(prefix).join("bin").join("ld.lld"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            candidates.push(dir.join("ld.lld-22"));
            candidates.push(dir.join("ld.lld"));
        }
    }
    candidates.into_iter().find(|p| p.is_file()).ok_or_else(|| {
        "aic-llvm: ld.lld not found (it links AMDGPU code objects): set AIC_LD_LLD, or install lld-22 (/usr/lib/llvm-22/bin/ld.lld)".into()
    })
}

/// Links an AMDGPU ELF object into a code object (`ld.lld -shared`).
fn link_hsaco(obj: &[u8]) -> Result<Vec<u8>, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let lld = find_lld()?;
    let dir = std::env::temp_dir().join(format!(
        "aic-llvm-{}-{}",
        std::process::id(),
        SEQ.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("aic-llvm: {}: {e}", dir.display()))?;
    let run = || -> Result<Vec<u8>, String> {
        let (input, output) = (dir.join("kernels.o"), dir.join("kernels.hsaco"));
        std::fs::write(&input, obj).map_err(|e| format!("aic-llvm: {}: {e}", input.display()))?;
        let out = std::process::Command::new(&lld)
            .arg("-shared")
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .output()
            .map_err(|e| format!("aic-llvm: cannot run {}: {e}", lld.display()))?;
        if !out.status.success() {
            return Err(format!(
                "aic-llvm: {} -shared failed: {}",
                lld.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        std::fs::read(&output).map_err(|e| format!("aic-llvm: {}: {e}", output.display()))
    };
    let r = run();
    let _ = std::fs::remove_dir_all(&dir);
    r
}
