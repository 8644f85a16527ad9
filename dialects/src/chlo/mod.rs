//! The `chlo` ops JAX emits next to StableHLO (`erf`, `erf_inv`, `tan`, `top_k`,
//! `lgamma`, `digamma`, `bessel_*`, ...), parsed and printed with their syntax.

use aic::dialect::{Dialect, OpSpec};

/// The chlo ops.
pub const OPS: &[OpSpec] = &[];

/// The `chlo` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "chlo",
    description: "client HLO ops JAX emits alongside StableHLO",
    ops: OPS,
    materialize_constant: None,
};
