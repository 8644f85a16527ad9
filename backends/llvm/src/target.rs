//! The machines aic-llvm compiles for: NVIDIA GPUs (NVPTX → PTX), AMD GPUs
//! (AMDGPU → HSA code objects) and the host CPU (object code or a JIT).

use inkwell::OptimizationLevel;
use inkwell::targets::{
    CodeModel, InitializationConfig, RelocMode, Target as LlvmTarget, TargetMachine, TargetTriple,
};
use std::fmt;

/// The NVIDIA architectures aic-llvm knows, with the PTX ISA version each is
/// compiled for: the lowest LLVM 22 accepts for the architecture, so that the
/// PTX loads on the oldest driver that can run it (the GPU machines run CUDA 13,
/// which reads up to PTX 9.0).
const NVPTX: &[(&str, &str)] = &[
    ("sm_80", "+ptx70"),
    ("sm_86", "+ptx71"),
    ("sm_89", "+ptx78"),
    ("sm_90", "+ptx78"),
    ("sm_90a", "+ptx80"),
];

/// The AMD architectures aic-llvm knows.
const AMDGPU: &[&str] = &["gfx90a", "gfx942"];

/// A machine to compile kernels for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// An NVIDIA GPU through LLVM's NVPTX backend; `arch` is the `sm_XX` name.
    Nvptx {
        /// The compute capability, such as `sm_90`.
        arch: String,
    },
    /// An AMD GPU through LLVM's AMDGPU backend; `arch` is the `gfxNNN` name.
    Amdgpu {
        /// The GPU architecture, such as `gfx942`.
        arch: String,
    },
    /// The CPU this process runs on (its triple, CPU name and features).
    Host,
}

fn one_of(items: impl Iterator<Item = &'static str>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

impl Target {
    /// Reads a target as tools name it: `target` is `nvptx`, `amdgpu` or
    /// `host`; `arch` picks the GPU (default `sm_90` and `gfx942`; the host
    /// takes none or `native`). Anything else is an error listing what is
    /// supported.
    pub fn parse(target: &str, arch: Option<&str>) -> Result<Target, String> {
        let bad_arch = |a: &str, list: String| {
            format!("unsupported arch '{a}' for {target}: expected one of {list}")
        };
        match target {
            "nvptx" => {
                let a = arch.unwrap_or("sm_90");
                if NVPTX.iter().any(|(n, _)| *n == a) {
                    Ok(Target::Nvptx { arch: a.into() })
                } else {
                    Err(bad_arch(a, one_of(NVPTX.iter().map(|(n, _)| *n))))
                }
            }
            "amdgpu" => {
                let a = arch.unwrap_or("gfx942");
                if AMDGPU.contains(&a) {
                    Ok(Target::Amdgpu { arch: a.into() })
                } else {
                    Err(bad_arch(a, one_of(AMDGPU.iter().copied())))
                }
            }
            "host" => match arch {
                None | Some("native") => Ok(Target::Host),
                Some(a) => Err(bad_arch(a, "native".into())),
            },
            other => Err(format!(
                "unsupported target '{other}': expected one of nvptx, amdgpu, host"
            )),
        }
    }

    /// The target's name as [`Target::parse`] reads it: `nvptx`, `amdgpu` or `host`.
    pub fn name(&self) -> &'static str {
        match self {
            Target::Nvptx { .. } => "nvptx",
            Target::Amdgpu { .. } => "amdgpu",
            Target::Host => "host",
        }
    }

    /// The architecture: `sm_90`, `gfx942`, or `native` for the host.
    pub fn arch(&self) -> &str {
        match self {
            Target::Nvptx { arch } | Target::Amdgpu { arch } => arch,
            Target::Host => "native",
        }
    }

    /// The most shared memory (LDS on AMD) one block may use, in bytes: what a
    /// kernel's `shared` attribute is checked against. On NVIDIA GPUs this is
    /// the opt-in dynamic maximum, which the runtime must request at launch
    /// beyond 48 KiB; the host has no limit beyond memory.
    pub fn max_shared_bytes(&self) -> u64 {
        match self {
            Target::Nvptx { arch } => match arch.as_str() {
                "sm_80" => 166_912,
                "sm_86" | "sm_89" => 101_376,
                _ => 232_448,
            },
            Target::Amdgpu { .. } => 65_536,
            Target::Host => u64::from(u32::MAX),
        }
    }

    /// The LLVM target triple.
    pub fn triple(&self) -> String {
        match self {
            Target::Nvptx { .. } => "nvptx64-nvidia-cuda".into(),
            Target::Amdgpu { .. } => "amdgcn-amd-amdhsa".into(),
            Target::Host => TargetMachine::get_default_triple()
                .as_str()
                .to_string_lossy()
                .into_owned(),
        }
    }

    /// The LLVM CPU name: the GPU architecture, or the host's CPU.
    pub fn cpu(&self) -> String {
        match self {
            Target::Nvptx { arch } | Target::Amdgpu { arch } => arch.clone(),
            Target::Host => TargetMachine::get_host_cpu_name().to_string(),
        }
    }

    /// The LLVM feature string: the PTX ISA version on NVIDIA, the host's
    /// features (F16C, AVX, ...) on the CPU.
    pub fn features(&self) -> String {
        match self {
            Target::Nvptx { arch } => NVPTX
                .iter()
                .find(|(n, _)| n == arch)
                .map_or("", |(_, f)| f)
                .into(),
            Target::Amdgpu { .. } => String::new(),
            Target::Host => TargetMachine::get_host_cpu_features().to_string(),
        }
    }

    /// Whether this is a GPU (kernels run as real threads of real blocks).
    pub fn is_gpu(&self) -> bool {
        !matches!(self, Target::Host)
    }

    /// An LLVM target machine for this target, optimising aggressively;
    /// `pic` asks for position-independent code (host objects).
    pub(crate) fn machine(&self, pic: bool) -> Result<TargetMachine, String> {
        self.machine_with(pic, &self.features())
    }

    /// The feature string for a module with fp8 `mma.sync`s: PTX ISA 8.4,
    /// the first with `mma...e4m3`/`e5m2` (sm_89 and newer only). Other
    /// modules keep [`Target::features`]' lowest version.
    pub(crate) fn fp8_mma_features(&self) -> Result<String, String> {
        match self {
            Target::Nvptx { arch } if matches!(arch.as_str(), "sm_89" | "sm_90" | "sm_90a") => {
                Ok("+ptx84".into())
            }
            Target::Nvptx { arch } => Err(format!(
                "aic-llvm: fp8 mma.sync needs sm_89 or newer, not {arch}"
            )),
            _ => Ok(self.features()),
        }
    }

    /// [`Target::machine`] with the LLVM feature string `features`.
    pub(crate) fn machine_with(&self, pic: bool, features: &str) -> Result<TargetMachine, String> {
        let config = InitializationConfig::default();
        match self {
            Target::Nvptx { .. } => LlvmTarget::initialize_nvptx(&config),
            Target::Amdgpu { .. } => LlvmTarget::initialize_amd_gpu(&config),
            Target::Host => LlvmTarget::initialize_native(&config)
                .map_err(|e| format!("aic-llvm: cannot initialise the host target: {e}"))?,
        }
        let triple = TargetTriple::create(&self.triple());
        let target = LlvmTarget::from_triple(&triple).map_err(|e| {
            format!(
                "aic-llvm: LLVM has no backend for {} ({}): {e}",
                self.triple(),
                self.name()
            )
        })?;
        let reloc = if pic {
            RelocMode::PIC
        } else {
            RelocMode::Default
        };
        target
            .create_target_machine(
                &triple,
                &self.cpu(),
                features,
                OptimizationLevel::Aggressive,
                reloc,
                CodeModel::Default,
            )
            .ok_or_else(|| {
                format!(
                    "aic-llvm: LLVM cannot create a target machine for {} (cpu {})",
                    self.triple(),
                    self.cpu()
                )
            })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.arch())
    }
}
