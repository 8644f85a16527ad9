//! aic's backends: bridges from aic's IR to other compilers. `mlir` hands text to
//! the real MLIR 22 through melior (conformance checks today, interop later).

pub mod mlir;
