//! Building gpu ops: the builder for lowerings that emit the `gpu` dialect
//! (through any [`Build`]), on top of the ops' typed handles. Ids are
//! `index`; a dimension or shuffle mode is its typed enum ([`Dim`],
//! [`ShuffleMode`]).
//!
//! ```ignore
//! use aic_dialects::gpu::build as gb;
//! let tid = gb::thread_id(b, Dim::X);
//! gb::barrier(b);
//! let (v, _) = gb::shuffle(b, ShuffleMode::Xor, v, offset, width);
//! ```

use super::{Barrier, BlockId, Dim, LaneId, Return, Shared, Shuffle, ShuffleMode, ThreadId};
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Build, Value};
use aic::types::{Type, TypeKind};

fn index_type(b: &impl Build) -> Type {
    b.context().ty(TypeKind::Index)
}

fn i64_attr(b: &impl Build, v: i64) -> Attr {
    let u = b.context().uniquer();
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: u.int_type(64),
    })
}

/// `gpu.thread_id dim`: the thread's index in its block along `dim`.
pub fn thread_id(b: &mut impl Build, dim: Dim) -> Value {
    let ty = index_type(b);
    let dim = dim.attr(b.context().uniquer());
    ThreadId::build(b, dim, ty).id(b.context())
}

/// `gpu.block_id dim`: the block's index in the grid along `dim`.
pub fn block_id(b: &mut impl Build, dim: Dim) -> Value {
    let ty = index_type(b);
    let dim = dim.attr(b.context().uniquer());
    BlockId::build(b, dim, ty).id(b.context())
}

/// `gpu.lane_id upper_bound lanes`: the thread's lane in its warp of
/// `lanes` (the target's own warp when `None`).
pub fn lane_id(b: &mut impl Build, lanes: Option<i64>) -> Value {
    let ty = index_type(b);
    let bound = lanes.map(|n| i64_attr(b, n));
    LaneId::build(b, bound, ty).id(b.context())
}

/// `gpu.barrier`: waits for every thread of the block.
pub fn barrier(b: &mut impl Build) {
    Barrier::build(b);
}

/// `gpu.return`: ends a kernel.
pub fn return_(b: &mut impl Build) {
    Return::build(b);
}

/// `gpu.shuffle mode %v, %offset, %width`: the value of `v` in another lane
/// (of `v`'s type), and whether that lane lies in the thread's segment.
pub fn shuffle(
    b: &mut impl Build,
    mode: ShuffleMode,
    v: Value,
    offset: Value,
    width: Value,
) -> (Value, Value) {
    let ty = b.context().value_type(v);
    let i1 = b.context().int_type(1);
    let mode = mode.attr(b.context().uniquer());
    let s = Shuffle::build(b, v, offset, width, mode, ty, i1);
    let ctx = b.context();
    (s.shuffle_result(ctx), s.valid(ctx))
}

/// `gpu.shared offset = bytes : ty`: a view of the block's shared memory
/// `bytes` into it, as the memref `ty`.
pub fn shared(b: &mut impl Build, bytes: i64, ty: Type) -> Value {
    let at = i64_attr(b, bytes);
    Shared::build(b, at, ty).view(b.context())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::AddressSpace;
    use aic::ir::{Builder, Context, InsertPoint};
    use aic::op_printer::{PrintOptions, print_op};
    use std::sync::Arc;

    #[test]
    fn built_ops_verify_and_print() {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        let mut sm = aic::SourceMap::new();
        // Constants come parsed: gpu may not import arith (the layering).
        let src = "gpu.kernel @k grid = [1, 1, 1] block = [32, 1, 1] shared = 64 {\n\
                   %one = arith.constant 1.0 : f32\n\
                   %off = arith.constant 1 : i32\n\
                   %width = arith.constant 32 : i32\n}\n";
        let file = sm.add("k.mlir", src.to_string());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("a kernel");
        let module_body = ctx.entry_block(ctx.regions(m)[0]).expect("a body");
        let k = ctx.block_ops(module_body).next().expect("the kernel");
        let body = ctx.entry_block(ctx.regions(k)[0]).expect("a kernel body");
        let consts: Vec<Value> = ctx.block_ops(body).map(|o| ctx.result(o, 0)).collect();
        let (one, off, width) = (consts[0], consts[1], consts[2]);
        let u = ctx.uniquer().clone();
        let f32t = u.ty(TypeKind::Float(aic::float::FloatKind::F32));
        let view_ty = u.ty(TypeKind::MemRef {
            shape: [16].as_slice().into(),
            elem: f32t,
            layout: None,
            memory_space: Some(AddressSpace::Workgroup.attr(&u)),
        });
        let loc = ctx.unknown_loc();
        let mut b = Builder {
            ctx: &mut ctx,
            ip: InsertPoint::End(body),
            loc,
        };
        thread_id(&mut b, Dim::X);
        block_id(&mut b, Dim::X);
        lane_id(&mut b, Some(32));
        lane_id(&mut b, None);
        barrier(&mut b);
        let view = shared(&mut b, 0, view_ty);
        assert_eq!(b.ctx.value_type(view), view_ty);
        let (v, ok) = shuffle(&mut b, ShuffleMode::Xor, one, off, width);
        assert_eq!(b.ctx.value_type(v), f32t);
        assert_eq!(b.ctx.value_type(ok), u.int_type(1));
        return_(&mut b);
        aic::verifier::verify(&ctx, m).expect("built ops verify");
        let text = print_op(&ctx, m, PrintOptions::default());
        for want in [
            "gpu.thread_id x",
            "gpu.block_id x",
            "gpu.lane_id upper_bound 32",
            "= gpu.lane_id\n",
            "gpu.barrier",
            "gpu.shared offset = 0 : memref<16xf32, #gpu.address_space<workgroup>>",
            "gpu.shuffle xor %cst, %c1_i32, %c32_i32 : f32",
            "gpu.return",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
    }
}
