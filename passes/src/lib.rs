//! aic's passes: transforms and conversions, one module per pass named after its
//! `aic-opt` flag (`canonicalize`, `cse`, `stablehlo-to-graph`, ...).
//!
//! The pass manager and the first passes arrive with the pass-manager issue; this
//! crate holds its place in the layering `tools -> {passes, backends} -> dialects ->
//! compiler`, so that passes never reach into tools or backends.
