//! The `stablehlo` dialect: StableHLO's ops with the pretty syntax JAX and XLA
//! print (`jax.jit(f).lower(...).as_text()`) and the generic form, type
//! inference and the spec's constraints as verifiers.
//!
//! The dialect is declared in parts (see `DialectRegistry::register`): this
//! module's [`DIALECT`] holds the elementwise, constant and shape ops;
//! [`structured::STRUCTURED`] holds the ops with dimension numbers, windows and
//! regions (dot_general, convolution, reduce, gather, scatter, sort, control flow).

pub mod structured;

use aic::dialect::{Dialect, OpSpec};

/// Elementwise, constant and shape ops.
pub const OPS: &[OpSpec] = &[];

/// The `stablehlo` dialect (first part).
pub static DIALECT: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};
