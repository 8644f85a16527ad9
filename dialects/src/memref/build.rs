//! Building memref ops: the builder for lowerings that emit `memref`
//! (through any [`Build`]), on top of the ops' typed handles.
//!
//! ```ignore
//! use aic_dialects::memref::build as mb;
//! let a = mb::alloca(b, ty);
//! let x = mb::load(b, buf, &[i]);
//! mb::store(b, x, a, &[j]);
//! ```

use super::{Alloca, Load, Store};
use aic::ir::{Build, Value};
use aic::types::Type;

/// `memref.alloca() : ty`: a private array of the running thread.
pub fn alloca(b: &mut impl Build, ty: Type) -> Value {
    Alloca::build(b, ty).memref(b.context())
}

/// `memref.load %m[indices]`: the element, of `m`'s element type.
///
/// # Panics
/// If `m` is not a memref.
pub fn load(b: &mut impl Build, m: Value, indices: &[Value]) -> Value {
    let ctx = b.context();
    let elem = ctx
        .type_kind(ctx.value_type(m))
        .element_type()
        .expect("memref.load of a memref");
    Load::build(b, m, indices, elem).result(b.context())
}

/// `memref.store %v, %m[indices]`.
pub fn store(b: &mut impl Build, v: Value, m: Value, indices: &[Value]) {
    Store::build(b, v, m, indices);
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::ir::{Builder, Context};
    use aic::op_printer::{PrintOptions, print_op};
    use aic::types::TypeKind;
    use std::sync::Arc;

    #[test]
    fn built_ops_verify_and_print() {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        let mut sm = aic::SourceMap::new();
        // The index comes parsed: memref may not import arith (the layering).
        let file = sm.add("c.mlir", "%c2 = arith.constant 2 : index\n".to_string());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("an empty module");
        let block = ctx.entry_block(ctx.regions(m)[0]).expect("a body");
        let f32t = ctx.ty(TypeKind::Float(aic::float::FloatKind::F32));
        let ty = ctx.uniquer().ty(TypeKind::MemRef {
            shape: [4].as_slice().into(),
            elem: f32t,
            layout: None,
            memory_space: None,
        });
        let i = ctx.result(ctx.block_ops(block).next().expect("the constant"), 0);
        let mut b = Builder::at_end(&mut ctx, block);
        let a = alloca(&mut b, ty);
        let x = load(&mut b, a, &[i]);
        assert_eq!(b.ctx.value_type(x), f32t);
        store(&mut b, x, a, &[i]);
        aic::verifier::verify(&ctx, m).expect("built ops verify");
        let text = print_op(&ctx, m, PrintOptions::default());
        for want in [
            "%alloca = memref.alloca() : memref<4xf32>",
            "%0 = memref.load %alloca[%c2] : memref<4xf32>",
            "memref.store %0, %alloca[%c2] : memref<4xf32>",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
    }
}
