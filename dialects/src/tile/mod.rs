//! The `tile` dialect: kernels as programs over a grid of blocks, computing
//! on tiles (Composable Kernel's tile operators, Triton's blocks):
//!
//! ```mlir
//! tile.kernel @scale grid = [4] {
//! ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
//!   %p = tile.program_id 0 : index
//!   %c16 = arith.constant 16 : index
//!   %at = arith.muli %p, %c16 : index
//!   %t = tile.load %x[%at] : memref<64xf32> -> !tile.tile<16xf32>
//!   %u = tile.map %t : (!tile.tile<16xf32>) -> !tile.tile<16xf32> {
//!   ^bb0(%v: f32):
//!     %w = arith.addf %v, %v : f32
//!     tile.yield %w : f32
//!   }
//!   tile.store %u, %y[%at] : !tile.tile<16xf32>, memref<64xf32>
//!   tile.return
//! }
//! %out = tile.launch @scale(%in) : (tensor<64xf32>) -> tensor<64xf32>
//! ```
//!
//! Tile values have the type `!tile.tile<16x32xf16>` (registers) or
//! `!tile.tile<16x32xf16, shared>`. Loads and stores go through a
//! `#coord.desc` (row-major when left out) from the tile's origin, masked
//! where the descriptor says an index is invalid. `tile.gemm` accumulates a
//! product at an explicit level (block, warp or thread); `tile.map` carries
//! elementwise epilogues; `tile.for` is the K loop; `tile.transfer` stages a
//! tile into shared memory with a pipelining depth; `tile.convert_layout`
//! marks where a value changes layout (see [`Layout`]). `tile.launch` runs a
//! kernel on tensors: inputs become its first buffers, zeroed outputs the
//! rest, and every grid point runs the body in turn (the interpreter's
//! block-by-block execution).

mod interp;
mod ops;
mod types;

pub use ops::*;
pub use types::{Layout, SYNTAX, Space, TileType, make_tile, plain_tile, tile_type};

use crate::coord;
use aic::dialect::{AttrConstraint, AttrSyntax, Dialect};

aic::dialect_enum! {
    /// The level a GEMM runs at, `#tile<level block>`.
    pub enum Level = "tile<level ", "GEMM level (block, warp, thread)" {
        /// The whole block.
        Block = "block",
        /// One warp.
        Warp = "warp",
        /// One thread.
        Thread = "thread",
    }
}

aic::dialect_enum! {
    /// How `tile.reduce` combines, `#tile<kind sum>`.
    pub enum ReduceKind = "tile<kind ", "reduction kind (sum, max, min)" {
        /// The sum.
        Sum = "sum",
        /// The maximum.
        Max = "max",
        /// The minimum.
        Min = "min",
    }
}

aic::dialect_enum! {
    /// How a pipelined `tile.for` fills its shared ring, `#tile<copy tma>`:
    /// every thread's 16-byte `cp.async` copies (the default), or Hopper's
    /// tensor memory accelerator, one bulk tensor copy per tile and stage
    /// waited on through mbarriers (sm_90); `tma_empty` also frees each
    /// stage through an mbarrier of its own that the warps arrive on once
    /// they are done reading it, in place of a block barrier each
    /// iteration; `tma_ws` warp-specialises the kernel: a producer
    /// warpgroup of its own (128 threads beyond the kernel's `threads`)
    /// issues the copies, and the kernel's warpgroups only consume.
    pub enum CopyKind = "tile<copy ", "ring copy (cp_async, tma, tma_empty, tma_ws)" {
        /// Asynchronous 16-byte copies by every thread.
        CpAsync = "cp_async",
        /// Bulk tensor copies (TMA) with mbarriers.
        Tma = "tma",
        /// TMA with full and empty mbarriers per stage.
        TmaEmpty = "tma_empty",
        /// TMA issued by a producer warpgroup, full and empty mbarriers.
        TmaWs = "tma_ws",
    }
}

const DESC: AttrConstraint = AttrConstraint {
    desc: "tensor descriptor (#coord.desc<...>)",
    check: |a, _| coord::is_desc(a),
    syntax: AttrSyntax::Full,
};

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "tile",
    description: "tile kernels over a grid: loads and stores through descriptors, GEMM, map, reduce",
    ops: &[
        KERNEL,
        RETURN,
        LAUNCH,
        PROGRAM_ID,
        IOTA,
        VALID,
        LOAD,
        STORE,
        GEMM,
        SPARSE_GEMM,
        MAP,
        REDUCE,
        BROADCAST,
        TRANSFER,
        CONVERT_LAYOUT,
        FOR,
        YIELD,
    ],
    materialize_constant: None,
};

aic::op_kinds! {
    /// Every tile op as a typed handle, for lowerings that dispatch on the op.
    pub enum TileOp {
        Kernel, Return, Launch, ProgramId, Iota, Valid, Load, Store, Gemm, SparseGemm, Map, Reduce,
        Broadcast, Transfer, ConvertLayout, For, Yield,
    }
}
