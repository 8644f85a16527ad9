//! aic's passes: transforms and conversions, one module per pass named after its
//! `aic-opt` flag (`cse`, `symbol-dce`, later `canonicalize`, `stablehlo-to-graph`, ...).
//! Each module declares a [`aic::pass::PassInfo`]; [`register_all`] makes them known.

pub mod auto_mixed_precision;
pub mod canonicalize;
pub mod coord_to_arith;
pub mod cse;
pub mod dedup_kernels;
pub mod dynamic_dims;
pub mod eqsat_fusion;
pub mod fusion_to_tile;
pub mod inline;
pub mod legality;
pub mod loop_invariant_code_motion;
pub mod quantize;
pub mod sccp;
pub mod sparsify;
pub mod spmd_partition;
pub mod stablehlo_legalize_quant_to_math;
pub mod stablehlo_to_graph;
pub mod symbol_dce;
pub mod tile_early_loads;
pub mod tile_to_gpu;
pub mod tile_to_nki;

use aic::pass::PassRegistry;

/// Register every pass of this crate.
pub fn register_all(reg: &mut PassRegistry) {
    reg.register(&canonicalize::INFO);
    reg.register(&cse::INFO);
    reg.register(&inline::INFO);
    reg.register(&loop_invariant_code_motion::INFO);
    reg.register(&sccp::INFO);
    reg.register(&symbol_dce::INFO);
    reg.register(&dynamic_dims::INFO);
    reg.register(&stablehlo_legalize_quant_to_math::INFO);
    reg.register(&stablehlo_to_graph::INFO);
    reg.register(&spmd_partition::INFO);
    reg.register(&eqsat_fusion::INFO);
    reg.register(&auto_mixed_precision::INFO);
    reg.register(&quantize::INFO);
    reg.register(&sparsify::INFO);
    reg.register(&coord_to_arith::INFO);
    reg.register(&fusion_to_tile::INFO);
    reg.register(&dedup_kernels::INFO);
    reg.register(&tile_early_loads::INFO);
    reg.register(&tile_to_gpu::warp_rows::INFO);
    reg.register(&tile_to_gpu::mma_layout::INFO);
    reg.register(&tile_to_gpu::shared_layout::INFO);
    reg.register(&tile_to_gpu::INFO);
    reg.register(&tile_to_nki::INFO);
}

/// A registry with every pass of this crate.
pub fn all_passes() -> PassRegistry {
    let mut r = PassRegistry::new();
    register_all(&mut r);
    r
}
