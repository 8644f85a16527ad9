//! aic's dialects, one module per dialect. A dialect declares its ops as
//! [`aic::OpSpec`] data (operands, results, attributes, traits, assembly format);
//! only irregular syntax and verification are written by hand.

pub mod amdgpu;
pub mod arith;
pub mod check;
pub mod chlo;
pub mod coord;
pub mod func;
pub mod fusion;
pub mod gpu;
pub mod graph;
pub mod math;
pub mod memref;
pub mod nvgpu;
pub mod nvvm;
pub mod scf;
pub mod stablehlo;
pub mod tile;
pub mod vector;

use aic::DialectRegistry;

/// Every dialect this crate defines, for tools that accept them all.
pub fn register_all(registry: &mut DialectRegistry) {
    registry.register(&func::DIALECT);
    registry.register(&arith::DIALECT);
    registry.register(&math::DIALECT);
    registry.register(&scf::DIALECT);
    registry.register(&stablehlo::DIALECT);
    registry.register(&stablehlo::BINARY);
    registry.register(&stablehlo::SHAPE);
    registry.register(&stablehlo::structured::STRUCTURED);
    registry.add_semantics("stablehlo", stablehlo::interp::semantics);
    registry.register(&chlo::DIALECT);
    registry.register(&chlo::OTHERS);
    registry.add_semantics("chlo", stablehlo::interp::semantics);
    registry.register(&check::DIALECT);
    registry.register(&graph::DIALECT);
    registry.register(&graph::BINARY);
    registry.register(&graph::OTHERS);
    registry.register(&fusion::DIALECT);
    registry.register(&coord::DIALECT);
    registry.add_syntax(&coord::SYNTAX);
    registry.register(&tile::DIALECT);
    registry.add_syntax(&tile::SYNTAX);
    registry.register(&memref::DIALECT);
    registry.register(&gpu::DIALECT);
    registry.register(&vector::DIALECT);
    registry.register(&nvgpu::DIALECT);
    registry.register(&nvvm::DIALECT);
    registry.register(&amdgpu::DIALECT);
}

/// A registry with `builtin` and every dialect of this crate.
pub fn all_dialects() -> DialectRegistry {
    let mut r = DialectRegistry::new();
    register_all(&mut r);
    r
}
