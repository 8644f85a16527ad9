//! `aic._aic`: the native half of aic's Python package.
//!
//! The Python half (`python/aic/__init__.py`) takes arrays through DLPack, checks
//! them against the compiled signature and hands this module one C-contiguous
//! buffer per argument; this module compiles (the same [`Translate`] pipeline as
//! `aic-translate --emit=bundle`), keeps the compiled module as its bundle, and runs
//! it on the runtime `aic-run --target` uses: the function's executable plan over a
//! host arena with JIT-compiled kernels, or over a CUDA arena replayed as a graph.
//! A function without a plan (a host program that still holds tensor ops, such as a
//! `stablehlo.while`) runs as `aic-run` runs it: its launches on the kernels, the
//! rest on the interpreter.
//!
//! Every error a caller can cause is a Python exception (`aic.CompileError` with
//! the compiler's diagnostics, `aic.RunError`); a panic inside the compiler is
//! caught and raised as `aic.Error`, never unwinding into Python.

use aic::interp::Tensor;
use aic::op_def::OpHandle;
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, Op, SourceMap};
use aic_dialects::func;
use aic_llvm::HostModule;
use aic_runtime::{Bundle, Cuda, DevicePlan, FuncPlan, KernelInfo, Plan};
use aic_tools::translate::Translate;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use std::panic::{AssertUnwindSafe, catch_unwind};

mod dlpack;
use std::sync::Arc;

create_exception!(
    _aic,
    Error,
    PyException,
    "Any error of aic: the base of CompileError and RunError."
);
create_exception!(
    _aic,
    CompileError,
    Error,
    "The compiler rejected the module: the message holds its diagnostics."
);
create_exception!(
    _aic,
    RunError,
    Error,
    "A compiled function could not run (no CUDA driver, a kernel failed, ...)."
);

/// Runs `f`, turning a panic into `aic.Error` (an internal error: a bug of aic).
fn guarded<T>(what: &str, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        let why = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("a panic");
        Err(Error::new_err(format!(
            "internal error of aic while {what}: {why} (please report it)"
        )))
    })
}

/// The bundle target a Python target names: an LLVM target (`host`,
/// `nvptx`, `amdgpu`), or `nki-sim` (NKI kernels on aic's NeuronCore
/// simulator).
fn bundle_target(target: &str) -> PyResult<&'static str> {
    match target {
        "host" => Ok("host"),
        "cuda" => Ok("nvptx"),
        "amdgpu" => Ok("amdgpu"),
        "nki-sim" => Ok("nki-sim"),
        t => Err(CompileError::new_err(format!(
            "unsupported target '{t}': expected 'host', 'cuda', 'amdgpu' or 'nki-sim'"
        ))),
    }
}

/// The bundle of `text` compiled for NKI (`--arch` trn1 or trn2) and run on
/// the simulator: its host program holds the `nki.kernel`s themselves (the
/// nki dialect's semantics are the simulator), its binary the NKI Python
/// that `aic-translate --target=nki` writes; no plans, no LLVM kernels.
fn nki_bundle(
    name: &str,
    text: String,
    arch: Option<&str>,
    tuning: Option<&str>,
) -> Result<(Bundle, (Context, Op)), String> {
    let arch = arch.unwrap_or("trn1");
    if arch != "trn1" && arch != "trn2" {
        return Err(format!(
            "unsupported arch '{arch}' for target 'nki-sim': expected trn1 or trn2"
        ));
    }
    let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
    let m = parse(&mut ctx, name, text.clone())?;
    let pipeline = aic_tools::compile::nki_pipeline(Some(arch), tuning)?;
    aic_tools::compile::run_pipeline(&mut ctx, m, &pipeline)?;
    let python =
        aic_tools::nki_python::emit(&ctx, m).map_err(|d| aic_tools::compile::located(&ctx, &d))?;
    let host = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
    let manifest = aic_runtime::bundle::Manifest {
        version: aic_runtime::bundle::MANIFEST_VERSION,
        target: "nki-sim".into(),
        arch: arch.into(),
        kernels: Vec::new(),
        host,
        launches: Vec::new(),
        source: text,
        plans: Vec::new(),
    };
    let bundle = Bundle {
        manifest,
        binary: python.into_bytes(),
    };
    Ok((bundle, (ctx, m)))
}

/// Parses and verifies `text` as module `name`.
fn parse(ctx: &mut Context, name: &str, text: String) -> Result<Op, String> {
    let mut sm = SourceMap::new();
    let f = sm.add(name, text);
    parse_module(ctx, &sm, f)
        .and_then(|m| verify(ctx, m).map(|()| m))
        .map_err(|d| sm.render(ctx.uniquer(), &d).trim_end().to_string())
}

/// The public functions with bodies of module `m`, by name.
fn functions(ctx: &Context, m: Op) -> Vec<(String, Op)> {
    aic_tools::compile::top_ops::<func::Func>(ctx, m)
        .into_iter()
        .map(|f| f.op())
        .filter(|f| {
            aic::symbol::visibility(ctx, *f) != Some(aic::symbol::Visibility::Private)
                && ctx
                    .regions(*f)
                    .first()
                    .is_some_and(|r| ctx.entry_block(*r).is_some())
        })
        .filter_map(|f| Some((aic::symbol::symbol_name(ctx, f)?.to_string(), f)))
        .collect()
}

/// The element type names and shapes of `tys` (tensors; a scalar has shape `[]`).
fn signature(ctx: &Context, tys: &[aic::Type]) -> Vec<(String, Vec<i64>)> {
    tys.iter()
        .map(|t| {
            let kd = ctx.type_kind(*t);
            let elem = kd.element_type().unwrap_or(*t);
            (
                aic_tools::compile::elem_name(ctx, elem),
                kd.shape().map(<[i64]>::to_vec).unwrap_or_default(),
            )
        })
        .collect()
}

/// How a loaded module's kernels run.
enum Kernels {
    /// JIT-compiled for this CPU.
    Host(HostModule),
    /// PTX on the GPU, loaded at the first call (so that compiling for CUDA needs
    /// no GPU); boxed, as a loaded plan is several times a host module's size.
    Cuda(Option<Box<CudaKernels>>),
    /// An AMD GPU code object: compiled and saved, run nowhere (aic's runtime
    /// drives no AMD GPU).
    Amdgpu,
    /// NKI kernels, run by the nki dialect's semantics (the simulator) in the
    /// interpreter, with the cost model's schedule for this architecture.
    NkiSim(aic_dialects::nki::Arch),
}

/// The GPU side of a module: fields drop in order, the plan's arena and graph
/// before the module that holds its functions.
struct CudaKernels {
    plan: Option<DevicePlan<'static>>,
    /// The buckets' plans on the device, each prepared at its first call.
    buckets: Vec<Option<DevicePlan<'static>>>,
    module: aic_runtime::Module<'static>,
    cuda: &'static Cuda,
}

impl CudaKernels {
    /// The module of `binary` on the GPU, loaded at the first CUDA call
    /// (the function's own plan, `plan`, prepared beside it, whichever of
    /// the function and its buckets runs first) and kept.
    fn loaded<'s>(
        slot: &'s mut Option<Box<CudaKernels>>,
        binary: &[u8],
        plan: Option<&Plan>,
        infos: &[KernelInfo],
    ) -> Result<&'s mut CudaKernels, String> {
        if slot.is_none() {
            let cuda = cuda()?;
            let module = cuda.load_module(binary).map_err(|e| e.to_string())?;
            let dp = match plan {
                Some(p) => {
                    Some(DevicePlan::new(cuda, &module, p, infos).map_err(|e| e.to_string())?)
                }
                None => None,
            };
            *slot = Some(Box::new(CudaKernels {
                plan: dp,
                buckets: Vec::new(),
                module,
                cuda,
            }));
        }
        Ok(slot.as_mut().expect("loaded above"))
    }

    /// The device plan of bucket `k` of `plans` (the function's copies for
    /// smaller bounds), prepared at its first call.
    fn bucket(
        &mut self,
        k: usize,
        plans: &[Plan],
        infos: &[KernelInfo],
    ) -> Result<&mut DevicePlan<'static>, String> {
        let plan = plans.get(k).ok_or("no such bucket")?;
        if self.buckets.len() < plans.len() {
            self.buckets.resize_with(plans.len(), || None);
        }
        if self.buckets[k].is_none() {
            let dp =
                DevicePlan::new(self.cuda, &self.module, plan, infos).map_err(|e| e.to_string())?;
            self.buckets[k] = Some(dp);
        }
        Ok(self.buckets[k].as_mut().expect("prepared above"))
    }
}

/// Runs `plan` on the host, its launches on `hm`'s JIT-compiled kernels.
fn run_host_plan(
    hm: &mut HostModule,
    plan: &Plan,
    infos: &[KernelInfo],
    inputs: &[&[u8]],
) -> Result<Vec<Vec<u8>>, String> {
    let mut launch = |k: &KernelInfo, bufs: &mut [Vec<u8>]| {
        let mut s: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
        hm.run(&k.name, &mut s)
    };
    plan.run_host(infos, inputs, &mut launch, &mut |_| {})
}

thread_local! {
    /// The CUDA driver, opened once per thread that runs a CUDA module (a
    /// module is bound to the thread that loaded it) and kept for the process.
    static CUDA: std::cell::OnceCell<&'static Cuda> = const { std::cell::OnceCell::new() };
}

/// The CUDA driver and device 0's context, opened on first use.
fn cuda() -> Result<&'static Cuda, String> {
    CUDA.with(|c| {
        if let Some(c) = c.get() {
            return Ok(*c);
        }
        let opened: &'static Cuda = Box::leak(Box::new(Cuda::load().map_err(|e| {
            format!("cannot run a CUDA module: {e} (compile with target='host' to run on the CPU)")
        })?));
        Ok(*c.get_or_init(|| opened))
    })
}

/// A compiled module, ready to run one of its functions.
///
/// Not `Send` (LLVM's JIT and the CUDA context belong to the thread that made
/// them): Python may call it only from the thread that compiled or loaded it.
#[pyclass(unsendable, module = "aic._aic")]
struct Compiled {
    bundle: Bundle,
    ctx: Context,
    func: Op,
    entry: String,
    target: String,
    plan: Option<Plan>,
    /// A function of dynamic dims' copies compiled for smaller bounds: each
    /// one's plan, in the order of its plan's `dynamic.buckets`.
    buckets: Vec<Plan>,
    /// Why the function has no plan (the ops the interpreter runs).
    unplanned: Option<String>,
    inputs: Vec<(String, Vec<i64>)>,
    outputs: Vec<(String, Vec<i64>)>,
    kernels: Kernels,
    /// A partitioned function's plan on the GPUs of its mesh, loaded at its
    /// first CUDA call and kept.
    mesh: Option<Box<CudaMesh>>,
}

/// A partitioned function on the GPUs of its mesh: the plan (its arenas,
/// streams and NCCL communicators) drops before the modules that hold its
/// kernels.
struct CudaMesh {
    plan: aic_runtime::MultiDevicePlan<'static>,
    _modules: Vec<aic_runtime::Module<'static>>,
}

thread_local! {
    /// Contexts of each set of CUDA devices a mesh ran on, and NCCL, opened
    /// once per thread and kept for the process (as [`cuda`]'s device 0).
    static DEVICES: std::cell::RefCell<std::collections::HashMap<Vec<i32>, &'static [Cuda]>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    static NCCL: std::cell::OnceCell<&'static aic_runtime::Nccl> = const { std::cell::OnceCell::new() };
}

impl CudaMesh {
    /// `plan` loaded on CUDA devices `0..n` of its mesh, `ptx` in each.
    fn load(plan: &Plan, ptx: &[u8], kernels: &[KernelInfo]) -> Result<CudaMesh, String> {
        let ordinals = aic_tools::compile::mesh_devices(plan, None)?;
        let cudas = DEVICES.with(|d| -> Result<&'static [Cuda], String> {
            if let Some(c) = d.borrow().get(&ordinals) {
                return Ok(*c);
            }
            let opened = ordinals
                .iter()
                .map(|o| Cuda::load_device(*o))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            let leaked: &'static [Cuda] = Box::leak(opened.into_boxed_slice());
            d.borrow_mut().insert(ordinals.clone(), leaked);
            Ok(leaked)
        })?;
        let nccl = NCCL.with(|n| -> Result<&'static aic_runtime::Nccl, String> {
            if let Some(n) = n.get() {
                return Ok(*n);
            }
            let opened = aic_runtime::Nccl::load().map_err(|e| e.to_string())?;
            Ok(*n.get_or_init(|| Box::leak(Box::new(opened))))
        })?;
        let modules = aic_tools::compile::load_on_devices(cudas, ptx)?;
        let plan =
            aic_runtime::MultiDevicePlan::new(cudas, &modules, &ordinals, nccl, plan, kernels)
                .map_err(|e| e.to_string())?;
        Ok(CudaMesh {
            plan,
            _modules: modules,
        })
    }
}

impl Compiled {
    /// Makes `bundle`'s function `entry` (or `main`, or the only public function)
    /// runnable; `lowered` is the bundle's host module when the caller holds it
    /// already (otherwise it is parsed from the manifest).
    fn load(
        bundle: Bundle,
        lowered: Option<(Context, Op)>,
        entry: Option<String>,
    ) -> Result<Compiled, String> {
        let target = match bundle.manifest.target.as_str() {
            "host" => "host",
            "nvptx" => "cuda",
            "amdgpu" => "amdgpu",
            "nki-sim" => "nki-sim",
            t => {
                return Err(format!(
                    "the bundle is for target '{t}': aic's Python package loads host, nvptx, amdgpu and nki-sim bundles"
                ));
            }
        };
        bundle.manifest.validate_plans()?;
        let (ctx, m) = match lowered {
            Some(l) => l,
            None => {
                let host = bundle.manifest.host.clone();
                with_parser_stack(move || {
                    let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
                    parse(&mut ctx, "<bundle>", host).map(|m| (ctx, m))
                })?
            }
        };
        let funcs = functions(&ctx, m);
        let (entry, func) = match entry {
            Some(e) => {
                let e = e.trim_start_matches('@').to_string();
                let f = funcs.iter().find(|(n, _)| *n == e).map(|(_, f)| *f);
                let f = f.ok_or_else(|| {
                    let names: Vec<String> = funcs.iter().map(|(n, _)| format!("@{n}")).collect();
                    format!(
                        "no public function named '@{e}' (the module has: {})",
                        names.join(", ")
                    )
                })?;
                (e, f)
            }
            None => match funcs.iter().find(|(n, _)| n == "main") {
                Some((n, f)) => (n.clone(), *f),
                None if funcs.len() == 1 => funcs[0].clone(),
                None => {
                    return Err(format!(
                        "the module has {} public functions and none is @main: name one with entry=",
                        funcs.len()
                    ));
                }
            },
        };
        let (ins, outs) = func::function_type(&ctx, func)
            .ok_or_else(|| format!("@{entry} has no function type"))?;
        // A partitioned function (spmd-partition) takes and returns the global
        // values; each device's slices stay inside.
        let partitioned = aic_dialects::sdy::layout::partitioned_devices(&ctx, m).is_some();
        let (ins, outs) = if partitioned {
            (
                aic_dialects::sdy::layout::global_arg_types(&ctx, func),
                aic_dialects::sdy::layout::global_result_types(&ctx, func),
            )
        } else {
            (ins, outs)
        };
        let (plan, unplanned) = match bundle.manifest.plan(&entry) {
            Some(FuncPlan::Planned(p)) => {
                p.validate(&bundle.manifest.kernels)?;
                (Some(p.clone()), None)
            }
            Some(FuncPlan::Interpreted(i)) => (None, Some(aic_tools::plan::host_ops_text(&i.ops))),
            None => (None, Some("the bundle has no plan for it".to_string())),
        };
        let kernels = match target {
            "host" => Kernels::Host(HostModule::new(&ctx, m)?),
            "amdgpu" => Kernels::Amdgpu,
            "nki-sim" if bundle.manifest.arch == "trn2" => {
                Kernels::NkiSim(aic_dialects::nki::Arch::Trn2)
            }
            "nki-sim" => Kernels::NkiSim(aic_dialects::nki::Arch::Trn1),
            _ => Kernels::Cuda(None),
        };
        let mut buckets = Vec::new();
        for (name, _) in plan
            .iter()
            .flat_map(|p| p.dynamic.iter())
            .flat_map(|d| &d.buckets)
        {
            match bundle.manifest.plan(name) {
                Some(FuncPlan::Planned(p)) => {
                    p.validate(&bundle.manifest.kernels)?;
                    buckets.push(p.clone());
                }
                _ => return Err(format!("@{entry}'s bucket @{name} has no plan")),
            }
        }
        Ok(Compiled {
            buckets,
            inputs: signature(&ctx, &ins),
            outputs: signature(&ctx, &outs),
            bundle,
            ctx,
            func,
            entry,
            target: target.to_string(),
            plan,
            unplanned,
            kernels,
            mesh: None,
        })
    }

    /// Whether the function is partitioned for several devices.
    fn partitioned(&self) -> bool {
        let mut top = self.func;
        while let Some(p) = self.ctx.parent_op(top) {
            top = p;
        }
        aic_dialects::sdy::layout::partitioned_devices(&self.ctx, top).is_some()
    }

    /// Runs a partitioned function: on the host, every device of its mesh in
    /// this process with in-memory collectives; on GPUs, not yet from Python.
    fn run_partitioned(&mut self, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, String> {
        let (ctx, func) = (&self.ctx, self.func);
        let Some(plan) = &self.plan else {
            return Err(format!(
                "@{} is partitioned for several devices, which compiled code runs only as a plan, and it has none: {}",
                self.entry,
                self.unplanned.clone().unwrap_or_default()
            ));
        };
        let tys = aic_dialects::sdy::layout::global_arg_types(ctx, func);
        let ts = tensors_of(ctx, &tys, &self.inputs, inputs)?;
        let infos = &self.bundle.manifest.kernels;
        let outs = match &self.kernels {
            Kernels::Host(hm) => {
                let mut launch = |k: &KernelInfo, bufs: &mut [Vec<u8>]| {
                    let mut s: Vec<&mut [u8]> = bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
                    hm.run(&k.name, &mut s)
                };
                aic_tools::compile::run_host_spmd(ctx, func, plan, infos, ts, &mut launch)?
            }
            // One GPU per device of the mesh (CUDA devices 0..n), the
            // collectives through NCCL, as aic-run --devices runs it; the
            // plan is loaded at the first call and kept.
            Kernels::Cuda(_) => {
                if self.mesh.is_none() {
                    let m = CudaMesh::load(plan, &self.bundle.binary, infos)?;
                    self.mesh = Some(Box::new(m));
                }
                let mesh = self.mesh.as_ref().expect("loaded above");
                let (per_device, ids) = aic_tools::compile::split_for_devices(ctx, func, &ts)?;
                aic_tools::compile::run_on_mesh(ctx, func, &mesh.plan, &per_device, &ids)?
            }
            Kernels::Amdgpu | Kernels::NkiSim(_) => {
                return Err(format!(
                    "@{} is partitioned for several devices, which the {} target does not run",
                    self.entry, self.target
                ));
            }
        };
        Ok(outs
            .iter()
            .map(|t| aic_tools::compile::to_bytes(ctx, t))
            .collect())
    }

    /// Runs the function on `inputs` (one buffer of the right size per argument,
    /// checked by the caller and again here): the results' bytes.
    fn run_bytes(&mut self, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, String> {
        if inputs.len() != self.inputs.len() {
            return Err(format!(
                "@{} takes {} arguments, {} given",
                self.entry,
                self.inputs.len(),
                inputs.len()
            ));
        }
        let infos = &self.bundle.manifest.kernels;
        let (ctx, func) = (&self.ctx, self.func);
        let tensors = || {
            let tys = func::function_type(ctx, func)
                .map(|(ins, _)| ins)
                .unwrap_or_default();
            tensors_of(ctx, &tys, &self.inputs, inputs)
        };
        // Results the interpreter computed, as bytes.
        let bytes = |outs: Vec<Tensor>| -> Vec<Vec<u8>> {
            outs.iter()
                .map(|t| aic_tools::compile::to_bytes(ctx, t))
                .collect()
        };
        if let Kernels::Amdgpu = self.kernels {
            return Err(amdgpu_cannot_run(&self.entry));
        }
        if self.plan.as_ref().is_some_and(|p| p.devices > 1) || self.partitioned() {
            return self.run_partitioned(inputs);
        }
        match (&mut self.kernels, &self.plan) {
            (Kernels::Host(hm), Some(plan)) => run_host_plan(hm, plan, infos, inputs),
            (Kernels::Host(hm), None) => {
                let outs = aic_tools::compile::run_compiled(
                    ctx,
                    func,
                    tensors()?,
                    infos,
                    &mut |k, bufs| {
                        let mut s: Vec<&mut [u8]> =
                            bufs.iter_mut().map(|b| b.as_mut_slice()).collect();
                        hm.run(&k.name, &mut s)
                    },
                )
                .map_err(|e| interp_error(ctx, e))?;
                Ok(bytes(outs))
            }
            // The NKI kernels run by their dialect's semantics, in the
            // interpreter that runs the host program around them.
            (Kernels::NkiSim(_), _) => {
                let outs = aic::interp::Interp::new(ctx)
                    .call(func, tensors()?)
                    .map_err(|e| interp_error(ctx, e))?;
                Ok(bytes(outs))
            }
            (Kernels::Amdgpu, _) => Err(amdgpu_cannot_run(&self.entry)),
            (Kernels::Cuda(slot), plan) => {
                let ck = CudaKernels::loaded(slot, &self.bundle.binary, plan.as_ref(), infos)?;
                let cu = |e: aic_runtime::CudaError| e.to_string();
                match &mut ck.plan {
                    Some(dp) => {
                        dp.upload(inputs, true).map_err(cu)?;
                        dp.run().map_err(cu)?;
                        dp.outputs().map_err(cu)
                    }
                    None => {
                        let (cuda, module) = (ck.cuda, &ck.module);
                        let outs = aic_tools::compile::run_compiled(
                            ctx,
                            func,
                            tensors()?,
                            infos,
                            &mut |k, bufs| cuda.run_kernel(module, k, bufs).map_err(cu),
                        )
                        .map_err(|e| interp_error(ctx, e))?;
                        Ok(bytes(outs))
                    }
                }
            }
        }
    }
}

impl Compiled {
    /// Runs bucket `k` (a copy compiled for smaller bounds, see
    /// [`Plan::bucket_for`]) on `inputs`, padded to its buffers: the results'
    /// bytes.
    fn run_bucket(&mut self, k: usize, inputs: &[&[u8]]) -> Result<Vec<Vec<u8>>, String> {
        let plan = self.buckets.get(k).ok_or("no such bucket")?;
        plan.check_inputs(inputs)?;
        let infos = &self.bundle.manifest.kernels;
        match &mut self.kernels {
            Kernels::Host(hm) => run_host_plan(hm, plan, infos, inputs),
            Kernels::Amdgpu | Kernels::NkiSim(_) => Err(format!(
                "@{}: the {} target compiles no bucketed copies",
                self.entry, self.target
            )),
            Kernels::Cuda(slot) => {
                let cu = |e: aic_runtime::CudaError| e.to_string();
                let main = self.plan.as_ref();
                let ck = CudaKernels::loaded(slot, &self.bundle.binary, main, infos)?;
                let dp = ck.bucket(k, &self.buckets, infos)?;
                dp.upload(inputs, true).map_err(cu)?;
                dp.run().map_err(cu)?;
                dp.outputs().map_err(cu)
            }
        }
    }
}

/// Why an amdgpu function does not run here.
fn amdgpu_cannot_run(entry: &str) -> String {
    format!(
        "@{entry} is compiled for an AMD GPU (an HSACO code object in the bundle), which aic's runtime does not drive: save it (Function.save) for a HIP host, or compile with target='host' or 'cuda' to run it"
    )
}

/// `inputs` as tensors of types `tys` (whose element types and shapes are
/// `sig`), each checked for its size in bytes.
fn tensors_of(
    ctx: &Context,
    tys: &[aic::Type],
    sig: &[(String, Vec<i64>)],
    inputs: &[&[u8]],
) -> Result<Vec<Tensor>, String> {
    tys.iter()
        .zip(sig)
        .zip(inputs)
        .enumerate()
        .map(|(i, ((ty, (elem, shape)), b))| {
            let want = aic_runtime::Param {
                elem: elem.clone(),
                shape: shape.clone(),
                bytes: 0,
                output: false,
            }
            .dense_bytes();
            if want != Some(b.len() as u64) {
                return Err(format!(
                    "argument {i} is {} bytes, {} takes {}",
                    b.len(),
                    aic::printer::type_text(ctx, *ty),
                    want.map_or("an unknown number of".into(), |w| w.to_string())
                ));
            }
            Ok(aic_tools::compile::from_bytes(ctx, *ty, b))
        })
        .collect()
}

/// An interpreter error, with the op it stopped at.
fn interp_error(ctx: &Context, e: aic::interp::InterpError) -> String {
    let at =
        e.op.map(|o| format!(" (at '{}')", ctx.op_name(o)))
            .unwrap_or_default();
    format!("{}{at}", e.message)
}

/// A buffer of a Python object (NumPy array, `bytes`, ...) seen as C-contiguous
/// bytes, released on drop.
struct Bytes {
    view: Box<pyo3::ffi::Py_buffer>,
}

impl Bytes {
    /// The bytes of `obj`, which must export a C-contiguous buffer.
    fn of(obj: &Bound<'_, PyAny>, i: usize) -> PyResult<Bytes> {
        let mut view: Box<pyo3::ffi::Py_buffer> = Box::new(unsafe { std::mem::zeroed() });
        // SAFETY: `view` is a zeroed Py_buffer that Python fills; on success it is
        // released exactly once, in `drop`.
        let rc = unsafe {
            pyo3::ffi::PyObject_GetBuffer(obj.as_ptr(), &mut *view, pyo3::ffi::PyBUF_C_CONTIGUOUS)
        };
        if rc != 0 {
            let cause = PyErr::take(obj.py());
            let e = pyo3::exceptions::PyValueError::new_err(format!(
                "argument {i}: not a C-contiguous buffer"
            ));
            e.set_cause(obj.py(), cause);
            return Err(e);
        }
        Ok(Bytes { view })
    }

    fn as_slice(&self) -> &[u8] {
        if self.view.len == 0 {
            return &[];
        }
        // SAFETY: a successful PyObject_GetBuffer gives `len` readable bytes at
        // `buf`, alive until the buffer is released.
        unsafe { std::slice::from_raw_parts(self.view.buf as *const u8, self.view.len as usize) }
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        // SAFETY: the buffer was obtained by `of` and is released once; the GIL is
        // held (Bytes never leaves the call that made it).
        unsafe { pyo3::ffi::PyBuffer_Release(&mut *self.view) };
    }
}

#[pymethods]
impl Compiled {
    /// Runs the function on `args` (objects exporting C-contiguous buffers of
    /// exactly each argument's bytes: the Python wrapper checks dtypes and shapes)
    /// and returns each result's bytes.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        args: Vec<Bound<'py, PyAny>>,
    ) -> PyResult<Vec<Bound<'py, PyByteArray>>> {
        let held: Vec<Bytes> = args
            .iter()
            .enumerate()
            .map(|(i, a)| Bytes::of(a, i))
            .collect::<PyResult<_>>()?;
        let slices: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
        let outs = guarded("running a compiled function", || {
            self.run_bytes(&slices).map_err(RunError::new_err)
        })?;
        Ok(outs.iter().map(|o| PyByteArray::new(py, o)).collect())
    }

    /// Runs a function of dynamic dimensions on `args` of `shapes`: each
    /// argument padded to its bound's buffer, the results cut to their
    /// shapes; the results' bytes and shapes.
    #[allow(clippy::type_complexity)]
    fn run_shaped<'py>(
        &mut self,
        py: Python<'py>,
        args: Vec<Bound<'py, PyAny>>,
        shapes: Vec<Vec<i64>>,
    ) -> PyResult<(Vec<Bound<'py, PyByteArray>>, Vec<Vec<i64>>)> {
        let held: Vec<Bytes> = args
            .iter()
            .enumerate()
            .map(|(i, a)| Bytes::of(a, i))
            .collect::<PyResult<_>>()?;
        let slices: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
        let (outs, shapes) = guarded("running a compiled function", || {
            let plan = self
                .plan
                .as_ref()
                .ok_or_else(|| RunError::new_err(format!("@{} has no plan", self.entry)))?;
            // The smallest bucket the sizes fit, else the function itself.
            let bucket = plan
                .bucket_for(&shapes)
                .map_err(RunError::new_err)?
                .map(str::to_string);
            let k = bucket.and_then(|n| self.buckets.iter().position(|p| p.func == n));
            let plan = k.map_or(plan, |k| &self.buckets[k]);
            let (padded, binding) = plan
                .pad_inputs(&slices, &shapes)
                .map_err(RunError::new_err)?;
            let refs: Vec<&[u8]> = padded.iter().map(Vec::as_slice).collect();
            let outs = match k {
                Some(k) => self.run_bucket(k, &refs),
                None => self.run_bytes(&refs),
            }
            .map_err(RunError::new_err)?;
            Ok((binding.trim_outputs(outs), binding.output_shapes))
        })?;
        Ok((
            outs.iter().map(|o| PyByteArray::new(py, o)).collect(),
            shapes,
        ))
    }

    /// Runs the function on the CUDA device with its arguments where they
    /// are: `args[i]` is a device tensor read through DLPack where
    /// `on_device[i]` (no copy through the host), else a host buffer; the
    /// results stay on the device, as `DeviceArray`s. A device argument is
    /// an object with `__dlpack__` (asked to order its writes before the
    /// legacy default stream, which the call then waits for) or a DLPack
    /// capsule the caller took, having put the streams its writes are on in
    /// `streams` (`CUstream` handles; 0: the legacy default stream). `shapes`
    /// are the arguments' shapes (a function of dynamic dimensions runs the
    /// bucket they fit). An argument the function cannot take is a
    /// `ValueError`.
    #[pyo3(signature = (args, on_device, shapes, streams = Vec::new()))]
    fn run_device<'py>(
        &mut self,
        py: Python<'py>,
        args: Vec<Bound<'py, PyAny>>,
        on_device: Vec<bool>,
        shapes: Vec<Vec<i64>>,
        streams: Vec<u64>,
    ) -> PyResult<Vec<Bound<'py, dlpack::DeviceArray>>> {
        let (outs, out_shapes) = guarded("running a compiled function", || {
            let run_err = |e: String| RunError::new_err(e);
            let Some(main) = self.plan.as_ref() else {
                return Err(RunError::new_err(format!(
                    "@{} runs partly on the interpreter ({}), which takes host arrays only",
                    self.entry,
                    self.unplanned.as_deref().unwrap_or("no plan")
                )));
            };
            if args.len() != on_device.len() || args.len() != shapes.len() {
                return Err(RunError::new_err("one flag and one shape per argument"));
            }
            let Kernels::Cuda(slot) = &mut self.kernels else {
                return Err(RunError::new_err(format!(
                    "@{} is compiled for the host: device arrays need target='cuda'",
                    self.entry
                )));
            };
            let dynamic = main.dynamic.is_some();
            let k = if dynamic {
                let name = main.bucket_for(&shapes).map_err(run_err)?;
                name.and_then(|n| self.buckets.iter().position(|p| p.func == n))
            } else {
                None
            };
            let infos = &self.bundle.manifest.kernels;
            let ck = CudaKernels::loaded(slot, &self.bundle.binary, Some(main), infos)
                .map_err(run_err)?;
            let dp = match k {
                Some(k) => ck.bucket(k, &self.buckets, infos).map_err(run_err)?,
                None => ck
                    .plan
                    .as_mut()
                    .ok_or_else(|| run_err("no device plan".into()))?,
            };
            let mut streams = streams;
            // Each argument held for the call: a device tensor's capsule, or
            // a host array's buffer.
            enum Held<'py> {
                Device(dlpack::Borrowed<'py>),
                Host(Bytes),
            }
            let mut held = Vec::with_capacity(args.len());
            for (i, (a, dev)) in args.iter().zip(&on_device).enumerate() {
                if !*dev {
                    held.push(Held::Host(Bytes::of(a, i)?));
                    continue;
                }
                let elem = self.inputs.get(i).map_or("", |(e, _)| e.as_str());
                let (b, on_default) = dlpack::borrow(a, i, elem, 0)?;
                if on_default && !streams.contains(&0) {
                    streams.push(0);
                }
                if b.shape != shapes[i] {
                    return Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "argument {i}: DLPack gives shape {:?}, its .shape says {:?}",
                        b.shape, shapes[i]
                    )));
                }
                held.push(Held::Device(b));
            }
            let placed: Vec<aic_runtime::Arg<'_>> = held
                .iter()
                .map(|h| match h {
                    Held::Device(b) => aic_runtime::Arg::Device(b.ptr),
                    Held::Host(b) => aic_runtime::Arg::Host(b.as_slice()),
                })
                .collect();
            // SAFETY: the streams are the producers' own (the caller's word,
            // or the legacy default stream).
            unsafe { dp.follow_streams(&streams) }.map_err(|e| RunError::new_err(e.to_string()))?;
            // SAFETY: each device address is a DLPack tensor of the checked shape
            // and dtype, kept alive by its capsule (in `held`) until after the
            // call, which waits for its copies.
            let r = unsafe { dp.call(&placed, dynamic.then_some(shapes.as_slice())) };
            drop(placed);
            drop(held);
            r.map_err(|e| RunError::new_err(e.to_string()))
        })?;
        outs.into_iter()
            .zip(out_shapes)
            .zip(&self.outputs)
            .map(|((b, shape), (elem, _))| {
                Bound::new(py, dlpack::DeviceArray::new(b, shape, elem.clone(), 0))
            })
            .collect()
    }

    /// The results' shapes for arguments of `shapes` (checked against the
    /// dims: static ones equal, each size from 1 to its bound); an error
    /// (`RunError`) naming the argument and dim otherwise.
    fn bind(&self, shapes: Vec<Vec<i64>>) -> PyResult<Vec<Vec<i64>>> {
        let plan = self
            .plan
            .as_ref()
            .ok_or_else(|| RunError::new_err(format!("@{} has no plan", self.entry)))?;
        plan.bind(&shapes)
            .map(|b| b.output_shapes)
            .map_err(RunError::new_err)
    }

    /// The dynamic dimensions of the function, or `None`: each size's bound
    /// (by name), and each argument's and result's dims (`"b"`, `"16"`,
    /// `"4*b*s"`).
    #[getter]
    #[allow(clippy::type_complexity)]
    fn dynamic(&self) -> Option<(Vec<(String, i64)>, Vec<Vec<String>>, Vec<Vec<String>>)> {
        let d = self.plan.as_ref()?.dynamic.as_ref()?;
        let text = |all: &[Vec<aic_runtime::plan::DimExpr>]| {
            all.iter()
                .map(|ds| ds.iter().map(|d| d.to_string()).collect())
                .collect()
        };
        Some((d.bounds.clone(), text(&d.args), text(&d.results)))
    }

    /// The function's arguments: (element type, shape) each; not the size
    /// arguments a function of dynamic dimensions takes after them, which
    /// the run fills from the arguments' shapes.
    #[getter]
    fn inputs(&self) -> Vec<(String, Vec<i64>)> {
        let sizes = self
            .plan
            .as_ref()
            .and_then(|p| p.dynamic.as_ref())
            .map_or(0, |d| d.sizes.len());
        self.inputs[..self.inputs.len().saturating_sub(sizes)].to_vec()
    }

    /// The function's results: (element type, shape) each.
    #[getter]
    fn outputs(&self) -> Vec<(String, Vec<i64>)> {
        self.outputs.clone()
    }

    /// The function that runs.
    #[getter]
    fn entry(&self) -> String {
        self.entry.clone()
    }

    /// `host` or `cuda`.
    #[getter]
    fn target(&self) -> String {
        self.target.clone()
    }

    /// The architecture compiled for (`native`, `sm_90`, ...).
    #[getter]
    fn arch(&self) -> String {
        self.bundle.manifest.arch.clone()
    }

    /// The kernels' names, as compiled.
    #[getter]
    fn kernels(&self) -> Vec<String> {
        self.bundle
            .manifest
            .kernels
            .iter()
            .map(|k| k.name.clone())
            .collect()
    }

    /// Why the function runs partly on the interpreter (the ops that are not
    /// kernels), or None when it runs as its plan.
    #[getter]
    fn unplanned(&self) -> Option<String> {
        self.unplanned.clone()
    }

    /// The module's host program after compilation (MLIR text).
    #[getter]
    fn host_ir(&self) -> String {
        self.bundle.manifest.host.clone()
    }

    /// For target `nki-sim`: the cost model's schedule of one run of the
    /// function's NKI kernels on the NeuronCore it was compiled for (modelled
    /// time per engine and per kernel, as `aic-run --target=nki-sim` prints);
    /// `None` for other targets.
    #[getter]
    fn nki_model(&self) -> PyResult<Option<String>> {
        let Kernels::NkiSim(arch) = self.kernels else {
            return Ok(None);
        };
        let costs = aic_dialects::nki::sim::Costs::of(arch);
        aic_dialects::nki::sim::model(&self.ctx, self.func, costs)
            .map(|r| Some(r.text(&costs)))
            .map_err(RunError::new_err)
    }

    /// The bundle's bytes, as `aic-translate --emit=bundle` writes them.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.bundle.to_bytes())
    }

    /// Writes the bundle to `path` (atomically: a temporary file renamed over it).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        aic_tools::output::write_file(&path.to_string_lossy(), &self.bundle.to_bytes())
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
    }
}

/// Compiles MLIR `text` (StableHLO as JAX exports it, or any level of aic's
/// lowering) for `target` (`host`, `cuda`, `amdgpu` or `nki-sim`) and loads
/// function `entry`.
#[pyfunction]
#[pyo3(signature = (text, target = "host", arch = None, tuning = None, entry = None, name = "<input>", dim_bounds = None, dim_buckets = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, each optional
fn compile(
    text: String,
    target: &str,
    arch: Option<String>,
    tuning: Option<String>,
    entry: Option<String>,
    name: &str,
    dim_bounds: Option<Vec<String>>,
    dim_buckets: Option<Vec<String>>,
) -> PyResult<Compiled> {
    let llvm = bundle_target(target)?;
    if let Some(t) = &tuning
        && !std::path::Path::new(t).is_file()
    {
        return Err(CompileError::new_err(format!(
            "tuning cache '{t}': no such file"
        )));
    }
    if llvm == "nki-sim" {
        if dim_bounds.as_ref().is_some_and(|b| !b.is_empty()) {
            return Err(CompileError::new_err(
                "target 'nki-sim' compiles static shapes only: dynamic dimensions need target 'host' or 'cuda'",
            ));
        }
        return guarded("compiling", || {
            let name = name.to_string();
            let (bundle, lowered) = with_parser_stack(move || {
                nki_bundle(&name, text, arch.as_deref(), tuning.as_deref())
            })
            .map_err(CompileError::new_err)?;
            Compiled::load(bundle, Some(lowered), entry).map_err(CompileError::new_err)
        });
    }
    guarded("compiling", || {
        let t = Translate {
            target: llvm.to_string(),
            arch,
            emit: "bundle".into(),
            tuning,
            dim_bounds: dim_bounds.unwrap_or_default(),
            dim_buckets: dim_buckets.unwrap_or_default(),
            ..Translate::default()
        };
        let name = name.to_string();
        let (bundle, lowered) = with_parser_stack(move || {
            let (ctx, m, infos) = t.lower(&name, &text)?;
            let plans = t.plans(&ctx, m, &infos)?;
            // Host kernels are JIT-compiled when loaded, from the host module
            // the manifest keeps: the bundle needs no object. PTX for CUDA,
            // a linked code object for an AMD GPU.
            let binary = if llvm == "host" {
                Vec::new()
            } else {
                t.binary(&ctx, m)?
            };
            let b = t.package(&ctx, m, infos, plans, text, binary)?;
            Ok::<_, String>((b, (ctx, m)))
        })
        .map_err(CompileError::new_err)?;
        Compiled::load(bundle, Some(lowered), entry).map_err(CompileError::new_err)
    })
}

/// Loads a bundle (its bytes) that `Compiled.save`/`to_bytes` or
/// `aic-translate --emit=bundle` wrote, and function `entry` of it.
#[pyfunction]
#[pyo3(signature = (data, entry = None))]
fn load(data: &[u8], entry: Option<String>) -> PyResult<Compiled> {
    guarded("loading a bundle", || {
        let b = Bundle::from_bytes(data).map_err(|e| CompileError::new_err(e.to_string()))?;
        Compiled::load(b, None, entry).map_err(CompileError::new_err)
    })
}

/// Parses and verifies `text`, runs pass `pipeline` on it (`aic-opt`'s
/// `--pass-pipeline` syntax) and returns the printed result, the optimisation
/// remarks of the passes (rendered as `aic-opt --aic-remarks` prints them) and,
/// with `eqsat_report`, what every eqsat-fusion run reports (`--eqsat-report`).
#[pyfunction]
#[pyo3(signature = (text, pipeline, eqsat_report = false, name = "<input>"))]
fn opt(
    text: String,
    pipeline: String,
    eqsat_report: bool,
    name: &str,
) -> PyResult<(String, String, String)> {
    let name = name.to_string();
    guarded("optimising", || {
        with_parser_stack(move || {
            let reg = aic_passes::all_passes();
            let pm = aic::pass::pipeline::parse_pipeline(&pipeline, &reg)
                .map_err(|e| format!("invalid pipeline '{pipeline}': {e:?}"))?;
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            ctx.set_remarks(aic::pass::PassFilter::All);
            let mut sm = SourceMap::new();
            let f = sm.add(&name, text);
            let render = |ctx: &Context, d: &aic::Diagnostic| sm.render(ctx.uniquer(), d);
            let m = parse_module(&mut ctx, &sm, f)
                .and_then(|m| verify(&ctx, m).map(|()| m))
                .map_err(|d| render(&ctx, &d).trim_end().to_string())?;
            let run = |ctx: &mut Context| {
                aic::pass::PassRunner::new(
                    &aic::pass::Instrumentation::default(),
                    &mut std::io::sink(),
                )
                .run(&pm, ctx, m)
            };
            let (r, report) = if eqsat_report {
                aic_passes::eqsat_fusion::capture_report(|| run(&mut ctx))
            } else {
                (run(&mut ctx), String::new())
            };
            let remarks: String = ctx.take_remarks().iter().map(|d| render(&ctx, d)).collect();
            r.map_err(|d| {
                format!("{remarks}{}", render(&ctx, &d))
                    .trim_end()
                    .to_string()
            })?;
            let out = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
            Ok::<_, String>((out, remarks, report))
        })
        .map_err(CompileError::new_err)
    })
}

/// The default pipeline `compile` runs for `target` (`host`, `cuda`,
/// `amdgpu` or `nki-sim`).
#[pyfunction]
#[pyo3(signature = (target = "host", arch = None))]
fn default_pipeline(target: &str, arch: Option<String>) -> PyResult<String> {
    let llvm = bundle_target(target)?;
    if llvm == "nki-sim" {
        return aic_tools::compile::nki_pipeline(arch.as_deref(), None)
            .map_err(CompileError::new_err);
    }
    aic_tools::compile::matrix_pipeline(
        llvm,
        arch.as_deref(),
        None,
        None,
        aic_tools::compile::arch_units(llvm, arch.as_deref()),
        None,
        aic_tools::compile::Rings::default(),
    )
    .map_err(CompileError::new_err)
}

/// The native module.
#[pymodule]
fn _aic(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add("RunError", m.py().get_type::<RunError>())?;
    m.add_class::<Compiled>()?;
    m.add_class::<dlpack::DeviceArray>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(opt, m)?)?;
    m.add_function(wrap_pyfunction!(default_pipeline, m)?)?;
    Ok(())
}
