//! Compiling a module for a target: what `aic-translate` writes and what
//! `aic-tune` compiles each round of candidates with. Needs LLVM (the
//! `llvm` feature).

use aic::ir::Op;
use aic::op_def::OpHandle;
use aic::syntax::parse_module;
use aic::verifier::verify;
use aic::{Context, SourceMap};
use aic_llvm::{Emit, Target};
use aic_runtime::bundle::{MANIFEST_VERSION, Manifest};
use aic_runtime::{Bundle, FuncPlan, KernelInfo};
use std::sync::Arc;

use crate::compile::{
    arch_units, kernel_infos, launches, matrix_pipeline, run_pipeline, with_dim_buckets,
};

/// How to compile: the target and architecture, what to emit, block and
/// warp sizes, the tuning cache, which arguments are weights.
#[derive(Clone, Debug, Default)]
pub struct Translate {
    /// `nvptx`, `amdgpu` or `host`.
    pub target: String,
    /// `sm_90a`, `gfx942`, ... (`None`: the target's default).
    pub arch: Option<String>,
    /// `llvm-ir`, `asm`, `obj` or `bundle`.
    pub emit: String,
    /// Threads a block (`None`: the target's).
    pub threads: Option<i64>,
    /// Threads a warp (`None`: the target's).
    pub warp: Option<i64>,
    /// A JSON tuning cache's path.
    pub tuning: Option<String>,
    /// How wgmma loops fill their rings (one of
    /// [`crate::compile::RING_COPIES`]; `None`: cp.async).
    pub copy: Option<String>,
    /// Blocks of a persistent warp-specialised kernel (`--persistent`).
    pub persistent: Option<i64>,
    /// Arguments a bundle's plan uploads once and keeps.
    pub weights: Vec<usize>,
    /// Report each host function's plan on standard error.
    pub verbose: bool,
    /// Bounds of dynamic dimensions, `NAME=N` (see
    /// [`crate::compile::with_dim_bounds`]).
    pub dim_bounds: Vec<String>,
    /// Smaller bounds to compile copies for (see
    /// [`crate::compile::with_dim_buckets`]).
    pub dim_buckets: Vec<String>,
}

impl Translate {
    /// Parses and verifies `text` (read from `name`, which diagnostics
    /// point into) and runs the default pipeline down to kernels: the
    /// context, the module and its kernels.
    pub fn lower(&self, name: &str, text: &str) -> Result<(Context, Op, Vec<KernelInfo>), String> {
        let target = Target::parse(&self.target, self.arch.as_deref())?;
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add(name, text.to_string());
        let m = parse_module(&mut ctx, &sm, id)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .map_err(|d| sm.render(ctx.uniquer(), &d).trim_end().to_string())?;
        let pipeline = matrix_pipeline(
            &self.target,
            Some(target.arch()),
            self.threads,
            self.warp,
            arch_units(&self.target, self.arch.as_deref()),
            self.tuning.as_deref(),
            crate::compile::Rings {
                copy: self.copy.as_deref(),
                persistent: self.persistent,
            },
        )?;
        let pipeline = with_dim_buckets(&pipeline, &self.dim_bounds, &self.dim_buckets)?;
        run_pipeline(&mut ctx, m, &pipeline)?;
        let infos = kernel_infos(&ctx, m)?;
        Ok((ctx, m, infos))
    }

    /// Compiles `text` (read from `name`, which diagnostics point into) and
    /// gives the bytes to write: LLVM IR, assembly, an object, or a bundle.
    pub fn run(&self, name: &str, text: String) -> Result<Vec<u8>, String> {
        if self.target == "nki" {
            return self.nki(name, &text);
        }
        let (ctx, m, infos) = self.lower(name, &text)?;
        let plans = self.plans(&ctx, m, &infos)?;
        let binary = self.binary(&ctx, m)?;
        if self.emit != "bundle" {
            return Ok(binary);
        }
        Ok(self
            .package(&ctx, m, infos, plans, text, binary)?
            .to_bytes())
    }

    /// The plans of a module [`Translate::lower`] gave (reported on standard
    /// error with `verbose`), once every kernel's shared memory fits the
    /// architecture.
    pub fn plans(
        &self,
        ctx: &Context,
        m: Op,
        infos: &[KernelInfo],
    ) -> Result<Vec<FuncPlan>, String> {
        let target = Target::parse(&self.target, self.arch.as_deref())?;
        for k in infos {
            if u64::from(k.shared_bytes) > target.max_shared_bytes() {
                return Err(format!(
                    "kernel '{}' needs {} bytes of shared memory but {} allows {} a block",
                    k.name,
                    k.shared_bytes,
                    target.arch(),
                    target.max_shared_bytes()
                ));
            }
        }
        let plans = crate::plan::plans(ctx, m, infos, &self.weights)?;
        if self.verbose {
            for p in &plans {
                eprintln!("{}", crate::plan::remark(p));
            }
        }
        Ok(plans)
    }

    /// What LLVM makes of a lowered module: what `emit` names (a bundle holds
    /// the target's assembly for `nvptx`, an object otherwise).
    pub fn binary(&self, ctx: &Context, m: Op) -> Result<Vec<u8>, String> {
        let target = Target::parse(&self.target, self.arch.as_deref())?;
        let emit = match self.emit.as_str() {
            "llvm-ir" => Emit::LlvmIr,
            "asm" => Emit::Asm,
            "obj" => Emit::Obj,
            _ => match self.target.as_str() {
                "nvptx" => Emit::Asm,
                _ => Emit::Obj,
            },
        };
        aic_llvm::compile(ctx, m, &target, emit)
    }

    /// The bundle of a lowered module: its kernels, host program, launches,
    /// plans and `source` (the text it was compiled from), with `binary`.
    pub fn package(
        &self,
        ctx: &Context,
        m: Op,
        kernels: Vec<KernelInfo>,
        plans: Vec<FuncPlan>,
        source: String,
        binary: Vec<u8>,
    ) -> Result<Bundle, String> {
        let target = Target::parse(&self.target, self.arch.as_deref())?;
        let host = aic::op_printer::print_op(ctx, m, aic::op_printer::PrintOptions::default());
        Ok(Bundle {
            manifest: Manifest {
                version: MANIFEST_VERSION,
                target: self.target.clone(),
                arch: target.arch().to_string(),
                kernels,
                host,
                launches: launches(ctx, m),
                source,
                plans,
            },
            binary,
        })
    }
}

impl Translate {
    /// `--target=nki`: the module through `tile-to-nki` for `--arch`
    /// (trn1 or trn2), then NKI Python (`--emit=python`), or with
    /// `--emit=bundle` a JSON manifest holding the Python, the kernels and
    /// their grids in launch order.
    pub fn nki(&self, name: &str, text: &str) -> Result<Vec<u8>, String> {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add(name, text.to_string());
        let m = parse_module(&mut ctx, &sm, id)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .map_err(|d| sm.render(ctx.uniquer(), &d).trim_end().to_string())?;
        let pipeline = crate::compile::nki_pipeline(self.arch.as_deref(), self.tuning.as_deref())?;
        run_pipeline(&mut ctx, m, &pipeline)?;
        let python =
            crate::nki_python::emit(&ctx, m).map_err(|d| crate::compile::located(&ctx, &d))?;
        match self.emit.as_str() {
            "python" => Ok(python.into_bytes()),
            "bundle" => {
                let kernels: Vec<serde_json::Value> =
                    crate::compile::top_ops::<aic_dialects::nki::Kernel>(&ctx, m)
                        .into_iter()
                        .map(|k| {
                            serde_json::json!({
                                "name": aic::symbol::symbol_name(&ctx, k.op()).unwrap_or_default(),
                                "grid": k.grid(&ctx).unwrap_or_default(),
                            })
                        })
                        .collect();
                let manifest = serde_json::json!({
                    "target": "nki",
                    "arch": self.arch.clone().unwrap_or_else(|| "trn1".into()),
                    "note": "NKI Python written by aic; nothing of it has run on Trainium",
                    "kernels": kernels,
                    "python": python,
                    "source": text,
                });
                serde_json::to_vec_pretty(&manifest).map_err(|e| e.to_string())
            }
            e => Err(format!(
                "unsupported --emit '{e}' for --target=nki: expected python or bundle"
            )),
        }
    }
}
