//! The `gpu` dialect: kernels as one thread's program, the level between
//! `tile` and LLVM. `tile-to-gpu` writes it; `backends/llvm` translates it to
//! NVPTX, AMDGPU or host code.
//!
//! ```mlir
//! gpu.kernel @scale grid = [4, 1, 1] block = [32, 1, 1] shared = 0 {
//! ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
//!   %b = gpu.block_id x
//!   %t = gpu.thread_id x
//!   ...
//!   %v = memref.load %x[%i] : memref<64xf32>
//!   memref.store %v, %y[%i] : memref<64xf32>
//!   gpu.barrier
//!   gpu.return
//! }
//! %out = gpu.launch @scale(%in) : (tensor<64xf32>) -> tensor<64xf32>
//! ```
//!
//! Buffers are flat (one dim: a kernel addresses them by computed offsets);
//! `gpu.shuffle` exchanges a value between the threads of a warp (upstream's
//! form: `%v, %ok = gpu.shuffle xor %x, %offset, %width : f32`).
//! `gpu.shared` views the block's shared memory (LDS on AMD) at a byte
//! offset as a memref in `#gpu.address_space<workgroup>`, the kernel's
//! `shared` attribute being the bytes the block needs. `gpu.launch` runs a
//! kernel on tensors as `tile.launch` does. The interpreter runs kernels of
//! one thread per block (the form `tile-to-gpu` gives with `threads=1`);
//! more threads need a backend, since barriers interleave them.

use crate::graph::verify::ints;
use crate::stablehlo::{I64_ARRAY, I64_ATTR};
use crate::tile::{PROGRAM, enclosing, kernel_of, run_grid, verify_launch};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::dialect::{
    AttrConstraint, AttrSpec, AttrSyntax, Dialect, OpSpec, RegionSpec, Traits, TypeConstraint,
    ValueSpec, ac, enum_keyword, tc,
};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::types::Type;
use aic::types::TypeKind;
use aic::verifier::op_error;
use std::cell::Cell;

/// The memory space of shared memory, as upstream MLIR writes it.
pub const WORKGROUP: &str = "gpu.address_space<workgroup>";

/// The text before the keyword of `#gpu<dim x>`.
pub const DIM_PREFIX: &str = "gpu<dim ";
/// The dimensions of a grid or block.
pub const DIMS: &[&str] = &["x", "y", "z"];
const DIM: AttrConstraint = AttrConstraint {
    desc: "dimension (x, y, z)",
    check: |a, _| matches!(a, AttrKind::Opaque(t) if t.starts_with(DIM_PREFIX)),
    syntax: AttrSyntax::DialectEnum(DIM_PREFIX, DIMS),
};

const MEMREF: TypeConstraint = TypeConstraint {
    desc: "memref",
    check: |t, _| matches!(t, TypeKind::MemRef { .. }),
    build: None,
};

const TENSOR: TypeConstraint = TypeConstraint {
    desc: "tensor",
    check: |t, _| matches!(t, TypeKind::Tensor { .. }),
    build: None,
};

const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        verify: Some(verify),
        interpret: Some(interpret),
        ..OpSpec::new(name)
    }
}

/// `gpu.kernel @k grid = [x, y, z] block = [x, y, z] shared = BYTES {..}`.
pub const KERNEL: OpSpec = OpSpec {
    attributes: &[
        AttrSpec::required("sym_name", ac::SYMBOL_NAME),
        AttrSpec::required("grid", I64_ARRAY),
        AttrSpec::required("block", I64_ARRAY),
        AttrSpec::required("shared", I64_ATTR),
    ],
    regions: &[RegionSpec::sized("body")],
    traits: Traits::ISOLATED_FROM_ABOVE
        .with(Traits::SYMBOL)
        .with(Traits::SINGLE_BLOCK),
    format: Some(
        "$sym_name `grid` `=` $grid `block` `=` $block `shared` `=` $shared $body attr-dict",
    ),
    interpret: None,
    ..op(
        "gpu.kernel",
        "one thread's program, run by a grid of blocks of threads",
    )
};

/// `gpu.return`: ends a kernel.
pub const RETURN: OpSpec = OpSpec {
    traits: Traits::PURE
        .with(Traits::TERMINATOR)
        .with(Traits::RETURN_LIKE),
    parents: &["gpu.kernel"],
    format: Some("attr-dict"),
    verify: None,
    interpret: None,
    ..op("gpu.return", "ends a kernel")
};

/// `gpu.thread_id x`: the thread's index in its block.
pub const THREAD_ID: OpSpec = OpSpec {
    results: &[ValueSpec::one("id", tc::INDEX)],
    attributes: &[AttrSpec::required("dimension", DIM)],
    traits: Traits::PURE,
    format: Some("$dimension attr-dict"),
    infer_results: Some(index_result),
    ..op("gpu.thread_id", "the thread's index in its block")
};

/// `gpu.lane_id upper_bound 32`: the thread's lane in its warp, upstream's
/// text. Here `upper_bound` is the warp's size, the lanes `tile-to-gpu`
/// shuffles across: the lane is the thread's index in its (one-dimensional)
/// block modulo it. Without it, the target's own warp (NVIDIA's 32, AMD's
/// 64); the host needs it.
pub const LANE_ID: OpSpec = OpSpec {
    results: &[ValueSpec::one("id", tc::INDEX)],
    attributes: &[AttrSpec::optional("upper_bound", I64_ATTR)],
    traits: Traits::PURE,
    format: Some("(`upper_bound` $upper_bound^)? attr-dict"),
    infer_results: Some(index_result),
    ..op("gpu.lane_id", "the thread's lane in its warp")
};

/// `gpu.block_id x`: the block's index in the grid.
pub const BLOCK_ID: OpSpec = OpSpec {
    results: &[ValueSpec::one("id", tc::INDEX)],
    attributes: &[AttrSpec::required("dimension", DIM)],
    traits: Traits::PURE,
    format: Some("$dimension attr-dict"),
    infer_results: Some(index_result),
    ..op("gpu.block_id", "the block's index in the grid")
};

/// `gpu.barrier`: waits for every thread of the block, its shared-memory
/// writes then visible to all.
pub const BARRIER: OpSpec = OpSpec {
    format: Some("attr-dict"),
    ..op("gpu.barrier", "a block-wide barrier")
};

/// The text before the keyword of `#gpu<shuffle_mode xor>`.
pub const SHUFFLE_PREFIX: &str = "gpu<shuffle_mode ";
/// The shuffle modes: which lane a thread reads (`xor`: its lane xor the
/// offset; `up`/`down`: the offset below/above; `idx`: the offset itself).
pub const SHUFFLE_MODES: &[&str] = &["xor", "up", "down", "idx"];
const SHUFFLE_MODE: AttrConstraint = AttrConstraint {
    desc: "shuffle mode (xor, up, down, idx)",
    check: |a, _| matches!(a, AttrKind::Opaque(t) if t.starts_with(SHUFFLE_PREFIX)),
    syntax: AttrSyntax::DialectEnum(SHUFFLE_PREFIX, SHUFFLE_MODES),
};

const SCALAR: TypeConstraint = TypeConstraint {
    desc: "integer or float",
    check: |t, _| matches!(t, TypeKind::Integer { .. } | TypeKind::Float(_)),
    build: None,
};

const I32: TypeConstraint = TypeConstraint {
    desc: "i32",
    check: |t, _| matches!(t, TypeKind::Integer { width: 32, .. }),
    build: Some(|u| u.int_type(32)),
};

const I1: TypeConstraint = TypeConstraint {
    desc: "i1",
    check: |t, _| matches!(t, TypeKind::Integer { width: 1, .. }),
    build: Some(|u| u.int_type(1)),
};

/// `%v, %ok = gpu.shuffle xor %x, %offset, %width : f32`: the value of `x`
/// in another lane of the thread's warp, and whether that lane lies in the
/// thread's segment of `width` lanes. Every lane of the warp must run it.
pub const SHUFFLE: OpSpec = OpSpec {
    operands: &[
        ValueSpec::one("value", SCALAR),
        ValueSpec::one("offset", I32),
        ValueSpec::one("width", I32),
    ],
    results: &[
        ValueSpec::one("shuffleResult", SCALAR),
        ValueSpec::one("valid", I1),
    ],
    attributes: &[AttrSpec::required("mode", SHUFFLE_MODE)],
    traits: Traits::PURE,
    format: Some("$mode $value `,` $offset `,` $width attr-dict `:` type($value)"),
    infer_results: Some(|u, ops, _| Some(vec![*ops.first()?, u.int_type(1)])),
    ..op("gpu.shuffle", "a value from another lane of the warp")
};

/// `gpu.shared offset = BYTES : memref<N x T, #gpu.address_space<workgroup>>`.
pub const SHARED: OpSpec = OpSpec {
    results: &[ValueSpec::one("view", MEMREF)],
    attributes: &[AttrSpec::required("offset", I64_ATTR)],
    traits: Traits::PURE,
    format: Some("`offset` `=` $offset attr-dict `:` type($view)"),
    ..op(
        "gpu.shared",
        "a view of the block's shared memory at a byte offset",
    )
};

/// `gpu.launch @k(%inputs) : (tensors) -> tensors`.
pub const LAUNCH: OpSpec = OpSpec {
    operands: &[ValueSpec::variadic("inputs", TENSOR)],
    results: &[ValueSpec::variadic("outputs", TENSOR)],
    attributes: &[AttrSpec::required("kernel", ac::FLAT_SYMBOL_REF)],
    format: Some("$kernel `(` $inputs `)` attr-dict `:` functional-type($inputs, results)"),
    ..op(
        "gpu.launch",
        "runs a kernel on tensors: inputs, then zeroed outputs, as its buffers",
    )
};

fn index_result(
    u: &aic::ir::Uniquer,
    _: &[Type],
    _: &[(aic::Ident, aic::Attr)],
) -> Option<Vec<Type>> {
    Some(vec![u.ty(TypeKind::Index)])
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "gpu",
    description: "per-thread kernels: thread and block ids, barriers, warp shuffles, shared memory, launches",
    ops: &[
        KERNEL, RETURN, THREAD_ID, LANE_ID, BLOCK_ID, BARRIER, SHUFFLE, SHARED, LAUNCH,
    ],
    materialize_constant: None,
};

/// The axis (0, 1, 2) of a `thread_id`/`block_id`.
pub fn dim_of(ctx: &Context, op: Op) -> usize {
    let a = ctx
        .find_ident("dimension")
        .and_then(|i| ctx.inherent_attr(op, i));
    let w = a.and_then(|a| enum_keyword(ctx.uniquer(), a, DIM_PREFIX));
    DIMS.iter().position(|d| Some(*d) == w).unwrap_or(0)
}

/// The mode of a `gpu.shuffle` (`xor`, `up`, `down`, `idx`).
pub fn shuffle_mode(ctx: &Context, op: Op) -> &'static str {
    let a = ctx
        .find_ident("mode")
        .and_then(|i| ctx.inherent_attr(op, i));
    let w = a.and_then(|a| enum_keyword(ctx.uniquer(), a, SHUFFLE_PREFIX));
    SHUFFLE_MODES
        .iter()
        .find(|m| Some(**m) == w)
        .copied()
        .unwrap_or("xor")
}

/// Whether `ty` is a memref in shared memory.
pub fn is_shared(ctx: &Context, ty: Type) -> bool {
    match ctx.type_kind(ty) {
        TypeKind::MemRef {
            memory_space: Some(s),
            ..
        } => {
            matches!(ctx.attr_kind(*s), AttrKind::Opaque(t) if &**t == WORKGROUP)
        }
        _ => false,
    }
}

/// A kernel's `grid` or `block` as three sizes.
pub fn dims3(ctx: &Context, k: Op, name: &str) -> [i64; 3] {
    let mut g = [1i64; 3];
    for (i, v) in ints(ctx, k, name).iter().enumerate().take(3) {
        g[i] = *v;
    }
    g
}

/// The kind of `op`'s inherent attribute `name`, if it has one (what the
/// target dialects' accessors read).
pub fn attr_kind<'a>(ctx: &'a Context, op: Op, name: &str) -> Option<&'a AttrKind> {
    let a = ctx
        .find_ident(name)
        .and_then(|i| ctx.inherent_attr(op, i))?;
    Some(ctx.attr_kind(a))
}

fn attr_int(ctx: &Context, op: Op, name: &str) -> Option<i64> {
    let a = ctx
        .find_ident(name)
        .and_then(|i| ctx.inherent_attr(op, i))?;
    crate::stablehlo::attrs::int(ctx.uniquer(), a)
}

/// The bytes of one element of `ty` in memory.
pub fn elem_bytes(ctx: &Context, ty: Type) -> i64 {
    match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } => i64::from(width.div_ceil(8)),
        TypeKind::Index => 8,
        TypeKind::Float(k) => i64::from(k.bit_width() / 8),
        _ => 8,
    }
}

fn verify(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: String| op_error(ctx, op, m);
    let name = ctx.op_name(op);
    if name != "gpu.kernel" && name != "gpu.launch" && enclosing(ctx, op, "gpu.kernel").is_none() {
        return Err(err("must be inside a gpu.kernel".into()));
    }
    match name {
        "gpu.kernel" => {
            for attr in ["grid", "block"] {
                let v = ints(ctx, op, attr);
                if v.len() != 3 || v.iter().any(|g| *g < 1) {
                    return Err(err(format!("{attr} {v:?} must be three positive sizes")));
                }
            }
            if attr_int(ctx, op, "shared").unwrap_or(-1) < 0 {
                return Err(err("shared must be a byte count".into()));
            }
            let b = ctx.regions(op).first().and_then(|r| ctx.entry_block(*r));
            if let Some(b) = b {
                for a in ctx.block_args(b) {
                    let k = ctx.type_kind(ctx.value_type(*a));
                    if !matches!(k, TypeKind::MemRef { .. })
                        || k.shape().is_none_or(|s| s.len() != 1)
                    {
                        return Err(err("arguments must be flat (rank-1) memref buffers".into()));
                    }
                }
            }
        }
        "gpu.lane_id" if attr_int(ctx, op, "upper_bound").is_some_and(|b| b < 1) => {
            return Err(err("upper_bound must be a positive lane count".into()));
        }
        "gpu.shared" => {
            let r = ctx.results(op).next().expect("one result");
            if !is_shared(ctx, ctx.value_type(r)) {
                return Err(err(format!("the view must be a memref in #{WORKGROUP}")));
            }
            if attr_int(ctx, op, "offset").unwrap_or(-1) < 0 {
                return Err(err("offset must be a byte count".into()));
            }
            let k = enclosing(ctx, op, "gpu.kernel");
            let total = k.and_then(|k| attr_int(ctx, k, "shared")).unwrap_or(0);
            let ty = ctx.value_type(r);
            let elem = ctx.type_kind(ty).element_type().expect("a memref");
            // Shapes and offsets from user IR: an overflow is past the end.
            let bytes = ctx.type_kind(ty).shape().map_or(Ok(0), |s| {
                aic::shape::bytes(s, u64::try_from(elem_bytes(ctx, elem)).unwrap_or(u64::MAX))
            });
            let end = bytes
                .and_then(|b| aic::shape::add(attr_int(ctx, op, "offset").unwrap_or(0), b))
                .unwrap_or(i64::MAX);
            if end > total {
                return Err(err(format!(
                    "the view ends at byte {end} but the kernel has {total} bytes of shared memory"
                )));
            }
        }
        "gpu.launch" => verify_launch(ctx, op, "gpu.kernel", true)?,
        _ => {}
    }
    Ok(())
}

fn interpret(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let fail = |m: String| InterpError::at(op, m);
    let index = |v: i64| Tensor::int_scalar(&u, u.ty(TypeKind::Index), v);
    match ctx.op_name(op) {
        "gpu.thread_id" | "gpu.lane_id" => Ok(vec![index(0)]),
        "gpu.block_id" => Ok(vec![index(PROGRAM.with(Cell::get)[dim_of(ctx, op)])]),
        "gpu.barrier" => Ok(Vec::new()),
        "gpu.shuffle" => {
            // The interpreter's blocks have one thread, lane 0, the only
            // lane there is to read.
            let off = args[1].first_int();
            let width = args[2].first_int();
            let src = match shuffle_mode(ctx, op) {
                "up" => -off,
                "xor" | "down" | "idx" => off,
                _ => -1,
            };
            let ok = src == 0 && width > 0;
            let valid = Tensor::int_scalar(&u, u.int_type(1), i64::from(ok));
            Ok(vec![args[0].clone(), valid])
        }
        "gpu.shared" => {
            let ty = ctx.value_type(ctx.result(op, 0));
            let zeros = crate::memref::zeros(&u, ty);
            Ok(vec![zeros.ok_or_else(|| fail("no element type".into()))?])
        }
        "gpu.launch" => {
            let k = kernel_of(ctx, op, "gpu.kernel")
                .ok_or_else(|| fail("names no gpu.kernel".into()))?;
            let threads: i64 = dims3(ctx, k, "block").iter().product();
            if threads != 1 {
                return Err(fail(format!(
                    "the interpreter runs gpu kernels of one thread per block, and this one has {threads}: compile it (aic-run --target=host) or lower with tile-to-gpu{{threads=1}}"
                )));
            }
            run_grid(it, op, k, args)
        }
        other => Err(fail(format!("no semantics for {other}"))),
    }
}
