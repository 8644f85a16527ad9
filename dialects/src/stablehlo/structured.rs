//! StableHLO's structured ops: dot_general and dot, convolution, reduce (with the
//! compact `applies` form), reduce_window, select_and_scatter, gather, scatter,
//! sort, while, if, case, map, custom_call, composite, tuples and the rest that
//! carry dimension numbers, windows or regions.

use aic::dialect::{Dialect, OpSpec};

/// The structured ops.
pub const OPS: &[OpSpec] = &[];

/// The second part of the `stablehlo` dialect.
pub static STRUCTURED: Dialect = Dialect {
    name: "stablehlo",
    description: "StableHLO: the portable ML compute op set",
    ops: OPS,
    materialize_constant: None,
};
