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
mod kernels;
pub mod math;
pub mod memref;
pub mod nki;
pub mod nvgpu;
pub mod nvvm;
pub mod quant;
pub mod scf;
pub mod sdy;
pub mod stablehlo;
pub mod tile;
pub mod vector;

use aic::DialectRegistry;

/// Every dialect this crate defines, for tools that accept them all.
pub fn register_all(registry: &mut DialectRegistry) {
    registry.register(&func::DIALECT);
    registry.register(&arith::DIALECT);
    registry.add_syntax(&arith::SYNTAX);
    registry.register(&math::DIALECT);
    registry.register(&scf::DIALECT);
    registry.register(&stablehlo::DIALECT);
    registry.add_syntax(&stablehlo::SYNTAX);
    registry.register(&stablehlo::BINARY);
    registry.register(&stablehlo::SHAPE);
    registry.register(&stablehlo::structured::STRUCTURED);
    registry.register(&stablehlo::linalg::LINALG);
    registry.register(&stablehlo::dynamic::DYNAMIC_OPS);
    registry.register(&stablehlo::collective::COLLECTIVES);
    registry.register(&stablehlo::quantize::QUANTIZATION);
    registry.add_syntax(&quant::SYNTAX);
    registry.register(&sdy::DIALECT);
    registry.add_syntax(&sdy::SYNTAX);
    registry.register(&chlo::DIALECT);
    registry.register(&chlo::OTHERS);
    registry.add_syntax(&chlo::SYNTAX);
    registry.register(&check::DIALECT);
    registry.register(&check::interpreter::DIALECT);
    registry.register(&graph::DIALECT);
    registry.register(&graph::BINARY);
    registry.register(&graph::OTHERS);
    registry.add_syntax(&graph::SYNTAX);
    registry.register(&fusion::DIALECT);
    registry.add_syntax(&fusion::SYNTAX);
    registry.register(&coord::DIALECT);
    registry.add_syntax(&coord::SYNTAX);
    registry.register(&tile::DIALECT);
    registry.add_syntax(&tile::SYNTAX);
    registry.register(&nki::DIALECT);
    registry.add_syntax(&nki::SYNTAX);
    registry.register(&memref::DIALECT);
    registry.register(&gpu::DIALECT);
    registry.add_syntax(&gpu::SYNTAX);
    registry.register(&vector::DIALECT);
    registry.register(&nvgpu::DIALECT);
    registry.add_syntax(&nvgpu::SYNTAX);
    registry.register(&nvvm::DIALECT);
    registry.add_syntax(&nvvm::SYNTAX);
    registry.register(&amdgpu::DIALECT);
    registry.add_syntax(&amdgpu::SYNTAX);
}

/// A registry with `builtin` and every dialect of this crate.
pub fn all_dialects() -> DialectRegistry {
    let mut r = DialectRegistry::new();
    register_all(&mut r);
    r
}

#[cfg(test)]
mod tests {
    use aic::ir::Uniquer;
    use aic::types::TypeKind;

    /// Every dialect type and attribute registered as a value reads back from its
    /// printed text to the same interned value.
    #[test]
    fn dialect_values_round_trip_through_the_registry() {
        let reg = super::all_dialects();
        let u = Uniquer::default();
        for text in [
            "tile.tile<16x8xf16>",
            "tile.tile<4xindex, shared, swizzle<3, 4, 3>>",
            "tile.tile<16x8xf32, mma<16, 8, 16>>",
            "nvgpu.device.async.token",
        ] {
            let t = reg.parse_dialect_type(&u, text).unwrap().expect("a value");
            assert!(matches!(u.type_kind(t), TypeKind::Dialect(_)), "{text}");
            assert_eq!(aic::printer::type_text(&u, t), format!("!{text}"));
            assert_eq!(reg.parse_dialect_type(&u, text).unwrap(), Some(t));
        }
        let t = reg
            .parse_dialect_type(&u, "tile.tile<4xindex, shared>")
            .unwrap()
            .unwrap();
        let tt = crate::tile::tile_type(&u, t).expect("a tile");
        assert_eq!(
            (tt.shape.as_slice(), tt.space),
            (&[4][..], crate::tile::Space::Shared)
        );
        assert_eq!(crate::tile::make_tile(&u, tt), t);
        // Malformed text stays opaque, for the op verifier to name the op.
        assert_eq!(
            reg.parse_dialect_type(&u, "tile.tile<8xf32, blocked>"),
            Ok(None)
        );

        let text = "coord.desc<[4, 4] | embed<16: 4, 1> [0, 1] -> [0]>";
        let a = reg.parse_dialect_attr(&u, text).unwrap().expect("a value");
        assert_eq!(aic::printer::attr_text(&u, a), format!("#{text}"));
        let d = crate::coord::desc_of(&u, a).expect("a descriptor");
        assert_eq!(d.upper, vec![4, 4]);
        assert_eq!(crate::coord::desc_attr(&u, d), a);
        assert_eq!(
            reg.parse_dialect_attr(&u, "coord.desc<[4] | twist [0] -> [0]>"),
            Ok(None)
        );
    }
}
