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

pub mod build;

use crate::memref::store_as;
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::constraints::{I64_ARRAY, I64_ATTR, MEMREF, TENSOR, i64_array_attr};
use aic::dialect::{Dialect, OpSpec, Traits, TypeConstraint, ac, tc};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Value};
use aic::types::Type;
use aic::types::TypeKind;
use aic::verifier::op_error;
use std::cell::Cell;

/// The memory space of shared memory, as upstream MLIR writes it.
pub const WORKGROUP: &str = "gpu.address_space<workgroup>";

aic::dialect_enum! {
    /// A memref's memory space on a GPU, `#gpu.address_space<workgroup>`.
    pub enum AddressSpace = "gpu.address_space<", "GPU address space (global, workgroup, private)" {
        /// Device memory.
        Global = "global",
        /// The block's shared memory.
        Workgroup = "workgroup",
        /// The thread's own memory.
        Private = "private",
    }
}

aic::dialect_enum! {
    /// A dimension of a grid or block, `#gpu<dim x>`.
    pub enum Dim = "gpu<dim ", "dimension (x, y, z)" {
        /// The first.
        X = "x",
        /// The second.
        Y = "y",
        /// The third.
        Z = "z",
    }
}

aic::dialect_enum! {
    /// Which lane a `gpu.shuffle` reads, `#gpu<shuffle_mode xor>`: `xor`, its lane
    /// xor the offset; `up`/`down`, the offset below/above; `idx`, the offset itself.
    pub enum ShuffleMode = "gpu<shuffle_mode ", "shuffle mode (xor, up, down, idx)" {
        /// Lane xor offset.
        Xor = "xor",
        /// Lane minus offset.
        Up = "up",
        /// Lane plus offset.
        Down = "down",
        /// The offset.
        Idx = "idx",
    }
}

/// The attributes of `gpu` as values: its enums.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "gpu",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(AddressSpace::parse_attr(body)
            .or_else(|| Dim::parse_attr(body))
            .or_else(|| ShuffleMode::parse_attr(body)))
    }),
};

/// A gpu op that runs inside a kernel.
const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        verify: Some(verify_in_kernel),
        ..OpSpec::new(name)
    }
}

aic::op! {
    /// `gpu.kernel @k grid = [x, y, z] block = [x, y, z] shared = BYTES {..}`.
    pub Kernel = KERNEL {
        attributes: [
            sym_name: required(ac::SYMBOL_NAME),
            grid: required(I64_ARRAY) as Vec<i64>,
            block: required(I64_ARRAY) as Vec<i64>,
            shared: required(I64_ATTR) as i64,
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::SYMBOL)
                .with(Traits::SINGLE_BLOCK),
            format: Some(
                "$sym_name `grid` `=` $grid `block` `=` $block `shared` `=` $shared $body attr-dict",
            ),
            verify: Some(verify_kernel),
            ..op(
                "gpu.kernel",
                "one thread's program, run by a grid of blocks of threads",
            )
        },
    }
}

aic::op! {
    /// `gpu.return`: ends a kernel.
    pub Return = RETURN {
        spec: OpSpec {
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[KERNEL.name],
            format: Some("attr-dict"),
            verify: None,
            ..op("gpu.return", "ends a kernel")
        },
    }
}

aic::op! {
    /// `gpu.thread_id x`: the thread's index in its block.
    pub ThreadId = THREAD_ID {
        results: [id: one(tc::INDEX)],
        attributes: [dimension: required(Dim::CONSTRAINT) as Dim],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$dimension attr-dict"),
            infer_results: Some(index_result),
            interpret: Some(interpret_lane_zero),
            ..op("gpu.thread_id", "the thread's index in its block")
        },
    }
}

aic::op! {
    /// `gpu.lane_id upper_bound 32`: the thread's lane in its warp, upstream's
    /// text. Here `upper_bound` is the warp's size, the lanes `tile-to-gpu`
    /// shuffles across: the lane is the thread's index in its (one-dimensional)
    /// block modulo it. Without it, the target's own warp (NVIDIA's 32, AMD's
    /// 64); the host needs it.
    pub LaneId = LANE_ID {
        results: [id: one(tc::INDEX)],
        attributes: [upper_bound: optional(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("(`upper_bound` $upper_bound^)? attr-dict"),
            infer_results: Some(index_result),
            verify: Some(verify_lane_id),
            interpret: Some(interpret_lane_zero),
            ..op("gpu.lane_id", "the thread's lane in its warp")
        },
    }
}

aic::op! {
    /// `gpu.block_id x`: the block's index in the grid.
    pub BlockId = BLOCK_ID {
        results: [id: one(tc::INDEX)],
        attributes: [dimension: required(Dim::CONSTRAINT) as Dim],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$dimension attr-dict"),
            infer_results: Some(index_result),
            interpret: Some(interpret_block_id),
            ..op("gpu.block_id", "the block's index in the grid")
        },
    }
}

aic::op! {
    /// `gpu.barrier`: waits for every thread of the block, its shared-memory
    /// writes then visible to all.
    pub Barrier = BARRIER {
        spec: OpSpec {
            format: Some("attr-dict"),
            interpret: Some(|_, _, _| Ok(Vec::new())),
            ..op("gpu.barrier", "a block-wide barrier")
        },
    }
}

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

aic::op! {
    /// `%v, %ok = gpu.shuffle xor %x, %offset, %width : f32`: the value of `x`
    /// in another lane of the thread's warp, and whether that lane lies in the
    /// thread's segment of `width` lanes. Every lane of the warp must run it.
    pub Shuffle = SHUFFLE {
        operands: [value: one(SCALAR), offset: one(I32), width: one(I32)],
        results: [shuffle_result = "shuffleResult": one(SCALAR), valid: one(I1)],
        attributes: [mode: required(ShuffleMode::CONSTRAINT) as ShuffleMode],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$mode $value `,` $offset `,` $width attr-dict `:` type($value)"),
            infer_results: Some(|u, ops, _| Some(vec![*ops.first()?, u.int_type(1)])),
            interpret: Some(interpret_shuffle),
            ..op("gpu.shuffle", "a value from another lane of the warp")
        },
    }
}

aic::op! {
    /// `gpu.shared offset = BYTES : memref<N x T, #gpu.address_space<workgroup>>`.
    pub Shared = SHARED {
        results: [view: one(MEMREF)],
        attributes: [offset: required(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("`offset` `=` $offset attr-dict `:` type($view)"),
            verify: Some(verify_shared),
            interpret: Some(interpret_shared),
            ..op(
                "gpu.shared",
                "a view of the block's shared memory at a byte offset",
            )
        },
    }
}

aic::op! {
    /// `gpu.launch @k(%inputs) : (tensors) -> tensors`.
    pub Launch = LAUNCH {
        operands: [inputs: variadic(TENSOR)],
        results: [outputs: variadic(TENSOR)],
        attributes: [kernel: required(ac::FLAT_SYMBOL_REF)],
        spec: OpSpec {
            format: Some("$kernel `(` $inputs `)` attr-dict `:` functional-type($inputs, results)"),
            verify: Some(|ctx, op| verify_launch(ctx, op, KERNEL.name, true)),
            interpret: Some(interpret_launch),
            ..op(
                "gpu.launch",
                "runs a kernel on tensors: inputs, then zeroed outputs, as its buffers",
            )
        },
    }
}

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
    a.and_then(|a| Dim::of(ctx, a)).map_or(0, |d| d as usize)
}

/// The mode of a `gpu.shuffle`.
pub fn shuffle_mode(ctx: &Context, op: Op) -> ShuffleMode {
    let a = ctx
        .find_ident("mode")
        .and_then(|i| ctx.inherent_attr(op, i));
    a.and_then(|a| ShuffleMode::of(ctx, a))
        .unwrap_or(ShuffleMode::Xor)
}

/// Whether `ty` is a memref in shared memory.
pub fn is_shared(ctx: &Context, ty: Type) -> bool {
    match ctx.type_kind(ty) {
        TypeKind::MemRef {
            memory_space: Some(s),
            ..
        } => AddressSpace::of(ctx, *s) == Some(AddressSpace::Workgroup),
        _ => false,
    }
}

/// A kernel's `grid` or `block` as three sizes.
pub fn dims3(ctx: &Context, k: Op, name: &str) -> [i64; 3] {
    let mut g = [1i64; 3];
    for (i, v) in i64_array_attr(ctx, k, name)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .take(3)
    {
        g[i] = *v;
    }
    g
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

/// Every gpu op but the kernel and the launch runs inside a `gpu.kernel`, and
/// so do the nvgpu and nvvm ops (their verifiers start with this check).
pub fn verify_in_kernel(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    if enclosing(ctx, op, KERNEL.name).is_none() {
        return Err(op_error(ctx, op, "must be inside a gpu.kernel"));
    }
    Ok(())
}

fn verify_kernel(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: String| op_error(ctx, op, m);
    let k = Kernel(op);
    for (attr, v) in [("grid", k.grid(ctx)), ("block", k.block(ctx))] {
        let v = v.unwrap_or_default();
        if v.len() != 3 || v.iter().any(|g| *g < 1) {
            return Err(err(format!("{attr} {v:?} must be three positive sizes")));
        }
    }
    if k.shared(ctx).unwrap_or(-1) < 0 {
        return Err(err("shared must be a byte count".into()));
    }
    if let Some(b) = ctx.entry_block(k.body(ctx)) {
        for a in ctx.block_args(b) {
            let t = ctx.type_kind(ctx.value_type(*a));
            if !matches!(t, TypeKind::MemRef { .. }) || t.shape().is_none_or(|s| s.len() != 1) {
                return Err(err("arguments must be flat (rank-1) memref buffers".into()));
            }
        }
    }
    Ok(())
}

fn verify_lane_id(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    if LaneId(op).upper_bound(ctx).is_some_and(|b| b < 1) {
        return Err(op_error(
            ctx,
            op,
            "upper_bound must be a positive lane count",
        ));
    }
    Ok(())
}

fn verify_shared(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let shared = Shared(op);
    let ty = ctx.value_type(shared.view(ctx));
    if !is_shared(ctx, ty) {
        return Err(err(format!("the view must be a memref in #{WORKGROUP}")));
    }
    let offset = shared.offset(ctx).unwrap_or(-1);
    if offset < 0 {
        return Err(err("offset must be a byte count".into()));
    }
    let kernel = enclosing(ctx, op, KERNEL.name).map(Kernel);
    let total = kernel.and_then(|k| k.shared(ctx)).unwrap_or(0);
    let elem = ctx.type_kind(ty).element_type().expect("a memref");
    // Shapes and offsets from user IR: an overflow is past the end.
    let bytes = ctx.type_kind(ty).shape().map_or(Ok(0), |s| {
        aic::shape::bytes(s, u64::try_from(elem_bytes(ctx, elem)).unwrap_or(u64::MAX))
    });
    let end = bytes
        .and_then(|b| aic::shape::add(offset, b))
        .unwrap_or(i64::MAX);
    if end > total {
        return Err(err(format!(
            "the view ends at byte {end} but the kernel has {total} bytes of shared memory"
        )));
    }
    Ok(())
}

fn index(it: &Interp<'_>, v: i64) -> Tensor {
    let u = it.ctx.uniquer();
    Tensor::int_scalar(u, u.ty(TypeKind::Index), v)
}

/// `gpu.thread_id`, `gpu.lane_id`: the interpreter's blocks have one thread.
fn interpret_lane_zero(it: &mut Interp<'_>, _: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    Ok(vec![index(it, 0)])
}

fn interpret_block_id(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    let at = PROGRAM.with(Cell::get)[dim_of(it.ctx, op)];
    Ok(vec![index(it, at)])
}

fn interpret_shuffle(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let u = it.ctx.uniquer().clone();
    // The interpreter's blocks have one thread, lane 0, the only lane
    // there is to read.
    let off = args[1].first_int();
    let width = args[2].first_int();
    let src = match shuffle_mode(it.ctx, op) {
        ShuffleMode::Up => -off,
        ShuffleMode::Xor | ShuffleMode::Down | ShuffleMode::Idx => off,
    };
    let ok = src == 0 && width > 0;
    let valid = Tensor::int_scalar(&u, u.int_type(1), i64::from(ok));
    Ok(vec![args[0].clone(), valid])
}

fn interpret_shared(it: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ty = it.ctx.value_type(Shared(op).view(it.ctx));
    let zeros = crate::memref::zeros(it.ctx.uniquer(), ty);
    Ok(vec![
        zeros.ok_or_else(|| InterpError::at(op, "no element type"))?,
    ])
}

fn interpret_launch(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let fail = |m: String| InterpError::at(op, m);
    let k = kernel_of(it.ctx, op, KERNEL.name).ok_or_else(|| fail("names no gpu.kernel".into()))?;
    let threads: i64 = dims3(it.ctx, k, "block").iter().product();
    if threads != 1 {
        return Err(fail(format!(
            "the interpreter runs gpu kernels of one thread per block, and this one has {threads}: compile it (aic-run --target=host) or lower with tile-to-gpu{{threads=1}}"
        )));
    }
    run_grid(it, op, k, args)
}

// ---- kernels and launches (shared with `tile`) ------------------------------------

/// The closest op named `name` that `op` is nested in.
pub fn enclosing(ctx: &Context, op: Op, name: &str) -> Option<Op> {
    let mut p = ctx.parent_op(op);
    while let Some(q) = p {
        if ctx.op_name(q) == name {
            return Some(q);
        }
        p = ctx.parent_op(q);
    }
    None
}

/// The kernel op (named `kind`) a launch names, looked up through the
/// enclosing symbol tables.
pub fn kernel_of(ctx: &Context, op: Op, kind: &str) -> Option<Op> {
    let a = ctx
        .find_ident("kernel")
        .and_then(|i| ctx.inherent_attr(op, i))?;
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(a) else {
        return None;
    };
    let name = ctx.uniquer().str(*root).to_string();
    let mut p = ctx.parent_op(op);
    while let Some(q) = p {
        for r in ctx.regions(q) {
            for b in ctx.region_blocks(*r) {
                if let Some(k) = ctx.block_ops(b).find(|k| {
                    ctx.op_name(*k) == kind
                        && aic::symbol::symbol_name(ctx, *k) == Some(name.as_str())
                }) {
                    return Some(k);
                }
            }
        }
        p = ctx.parent_op(q);
    }
    None
}

/// Checks that launch `op` names a kernel op called `kind` whose buffers
/// its inputs, then results, match in order and element type, and in shape
/// (`flat`: in element count, the kernel's buffers being flat).
pub fn verify_launch(ctx: &Context, op: Op, kind: &str, flat: bool) -> Result<(), Diagnostic> {
    let k =
        kernel_of(ctx, op, kind).ok_or_else(|| op_error(ctx, op, format!("names no {kind}")))?;
    let b = ctx
        .regions(k)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .ok_or_else(|| op_error(ctx, op, "the kernel has no body"))?;
    let params: Vec<Type> = ctx
        .block_args(b)
        .iter()
        .map(|a| ctx.value_type(*a))
        .collect();
    let given: Vec<Type> = ctx
        .operands(op)
        .iter()
        .copied()
        .chain(ctx.results(op))
        .map(|v| ctx.value_type(v))
        .collect();
    let same = |t: Type, m: Type| {
        let (tk, mk) = (ctx.type_kind(t), ctx.type_kind(m));
        let size = if flat {
            tk.num_elements() == mk.num_elements()
        } else {
            tk.shape() == mk.shape()
        };
        size && tk.element_type() == mk.element_type()
    };
    if params.len() != given.len() || params.iter().zip(&given).any(|(m, t)| !same(*t, *m)) {
        let size = if flat { "size" } else { "shape" };
        return Err(op_error(
            ctx,
            op,
            format!(
                "inputs and results must match the kernel's buffers in order, {size} and element type"
            ),
        ));
    }
    Ok(())
}

thread_local! {
    /// The grid point the kernel being interpreted runs at.
    pub static PROGRAM: Cell<[i64; 3]> = const { Cell::new([0; 3]) };
}

/// Runs kernel `k` (a `tile.kernel` or `gpu.kernel`, whose body reads
/// `program_id`/`block_id` from [`PROGRAM`]) for launch `op` on `args`:
/// inputs, then zeroed outputs, as its buffers, block by block in grid
/// order; the outputs come back as the launch's results.
pub fn run_grid(it: &mut Interp<'_>, op: Op, k: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let fail = |m: String| InterpError::at(op, m);
    let region = ctx.regions(k)[0];
    let b = ctx
        .entry_block(region)
        .ok_or_else(|| fail("no body".into()))?;
    let params: Vec<Value> = ctx.block_args(b).to_vec();
    let mut bufs: Vec<Tensor> = args
        .iter()
        .zip(&params)
        .map(|(t, p)| Tensor {
            ty: ctx.value_type(*p),
            shape: shape_of(ctx, ctx.value_type(*p), &t.shape),
            data: t.data.clone(),
        })
        .collect();
    for p in &params[args.len()..] {
        let ty = ctx.value_type(*p);
        let n: i64 = ctx.type_kind(ty).shape().map_or(1, |s| s.iter().product());
        let elem = ctx.type_kind(ty).element_type().expect("a memref");
        bufs.push(Tensor::new(
            &u,
            ty,
            store_as(&u, elem, vec![0.0; n as usize]),
        ));
    }
    let grid = i64_array_attr(ctx, k, "grid").unwrap_or_default();
    let mut g = [1i64; 3];
    for (i, v) in grid.iter().enumerate().take(3) {
        g[i] = *v;
    }
    // Block by block, in grid order.
    for z in 0..g[2] {
        for y in 0..g[1] {
            for x in 0..g[0] {
                PROGRAM.with(|p| p.set([x, y, z]));
                it.run_region(region, bufs.clone())?;
                for (buf, p) in bufs.iter_mut().zip(&params) {
                    if let Ok(v) = it.value(op, *p) {
                        *buf = v;
                    }
                }
            }
        }
    }
    Ok(bufs[args.len()..]
        .iter()
        .zip(ctx.results(op))
        .map(|(t, r)| Tensor {
            ty: ctx.value_type(r),
            shape: shape_of(ctx, ctx.value_type(r), &t.shape),
            data: t.data.clone(),
        })
        .collect())
}

/// The static shape of `ty`, or `default`.
fn shape_of(ctx: &Context, ty: Type, default: &[i64]) -> Vec<i64> {
    ctx.type_kind(ty)
        .shape()
        .map_or_else(|| default.to_vec(), |s| s.to_vec())
}
