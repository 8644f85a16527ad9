//! aic's runtime: the part of aic that runs on a GPU machine without LLVM or MLIR.
//!
//! The compiler writes each compiled module as a [`Bundle`] — a JSON [`Manifest`] (the
//! kernels, their launch geometry and arguments, and the host launch sequence) plus the
//! binary (PTX, an AMDGPU code object, or a host object). This crate reads bundles and
//! runs their PTX kernels through the CUDA driver API, which [`Cuda::load`] opens at run
//! time: the crate links neither LLVM, MLIR nor CUDA, so it builds on a machine without
//! a GPU and runs as a plain binary on one with only the NVIDIA driver installed.

pub mod bundle;
pub mod collective;
pub mod cuda;
pub mod device;
pub mod multi;
pub mod nccl;
pub mod plan;

pub use bundle::{
    Bundle, BundleError, KernelInfo, Launch, MANIFEST_VERSION, Manifest, Param, TensorMapInfo,
};
pub use cuda::{Cuda, CudaError, DeviceBuffer, Module};
pub use device::{Arg, DevicePlan, Timings};
pub use multi::{MultiDevicePlan, MultiError, MultiTimings};
pub use nccl::{Nccl, NcclError};
pub use plan::{FuncPlan, Plan};
