//! Hopper's tensor memory accelerator (TMA) and the mbarriers its copies
//! complete on (sm_90), with upstream MLIR's names:
//!
//! ```mlir
//! %d = nvgpu.tma.create.descriptor %arg1 {globalShape = array<i64: 4096, 1024>, globalStrides = array<i64: 1024, 1>}
//!     : memref<4194304xf16> -> !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
//! nvgpu.mbarrier.init %bars[%c0], %c1 : memref<4xi64, #gpu.address_space<workgroup>>
//! nvgpu.mbarrier.arrive.expect_tx %bars[%s], %bytes : memref<4xi64, #gpu.address_space<workgroup>>
//! nvgpu.tma.async.load %d[%row, %col], %bars[%s] to %ring[%at]
//!     : !nvgpu.tensormap.descriptor<...>, memref<4xi64, #gpu.address_space<workgroup>> -> memref<65536xf16, #gpu.address_space<workgroup>>
//! nvgpu.mbarrier.try_wait.parity %bars[%s], %parity, %ticks : memref<4xi64, #gpu.address_space<workgroup>>
//! ```
//!
//! A `!nvgpu.tensormap.descriptor` names a box of a 2-D global tensor: the
//! box is its `tensor` type (rows x columns, the columns contiguous), the
//! tensor the op's `globalShape` (rows, columns) and `globalStrides`
//! (elements from row to row, then 1) over the flat buffer it is created
//! from. `tma.async.load` copies the box whose first element is at
//! (`row`, `col`) of the tensor into shared memory at the index, rows after
//! rows, elements outside the tensor read as zero; with `swizzle_128b`
//! (rows of 128 bytes, the destination 1024-byte aligned) the 16-byte
//! chunk `c` of row `r` lands at chunk `c ^ (r % 8)`, wgmma's 128-byte
//! swizzle. The copy completes on the mbarrier: it counts its bytes
//! against the barrier's expected transaction bytes.
//!
//! Differences from upstream, as aic's kernels address flat buffers and
//! place everything in the kernel's shared memory: `tma.create.descriptor`
//! runs in the kernel on one of its buffer arguments (upstream runs it on
//! the host and passes the descriptor in), and the backend makes it a
//! kernel parameter (a CUtensorMap the runtime encodes through the
//! driver's `cuTensorMapEncodeTiled` from the description the bundle
//! carries); its box is the type's (no box operands). An mbarrier group is
//! a shared `memref<Nxi64>` view and an index (upstream's
//! `!nvgpu.mbarrier.group` from `nvgpu.mbarrier.create` is that memory);
//! the destination of a load is a shared view and an index like
//! `ldmatrix`'s; `mbarrier.arrive` gives no token (nothing reads one).
//! `mbarrier.try_wait.parity` waits until the barrier's
//! phase of that parity completes (upstream's lowering loops on the PTX
//! instruction too); `ticks` is the time hint of each try.

use crate::gpu::verify_in_kernel;
use aic::Diagnostic;
use aic::dialect::{OpSpec, TypeConstraint, tc};
use aic::ir::{Context, Op, Uniquer, Value};
use aic::op_def::OpHandle;
use aic::types::{DialectObject, DialectValue, Type, TypeKind};
use aic::verifier::op_error;

use aic::constraints::{I64_ARRAY, MEMREF, i64_array_attr};

/// `!nvgpu.tensormap.descriptor<tensor = memref<RxCxT, ..>, swizzle = ..,
/// l2promo = none, oob = zero, interleave = none>`: a TMA tensor map of
/// boxes of `tensor`'s shape.
#[derive(Debug, PartialEq, Eq, Hash, Clone, Copy)]
pub struct TensorMapDescriptor {
    /// The box as it lands in shared memory.
    pub tensor: Type,
    /// The swizzle of its rows in bytes: 0 (none), 32, 64 or 128.
    pub swizzle: i64,
}

const PREFIX: &str = "nvgpu.tensormap.descriptor<";

fn swizzle_word(s: i64) -> &'static str {
    match s {
        32 => "swizzle_32b",
        64 => "swizzle_64b",
        128 => "swizzle_128b",
        _ => "none",
    }
}

impl DialectValue for TensorMapDescriptor {
    fn print(&self, u: &Uniquer, out: &mut String) {
        out.push_str(PREFIX);
        out.push_str("tensor = ");
        aic::printer::write_type(u, self.tensor, out);
        out.push_str(", swizzle = ");
        out.push_str(swizzle_word(self.swizzle));
        out.push_str(", l2promo = none, oob = zero, interleave = none>");
    }
}

impl TensorMapDescriptor {
    /// Reads the body after `!`; `None` where it is not one.
    pub(super) fn parse(u: &Uniquer, body: &str) -> Option<TensorMapDescriptor> {
        let inner = body.strip_prefix(PREFIX)?.strip_suffix('>')?;
        let rest = inner.strip_prefix("tensor = ")?;
        // The memref ends at its matching `>`.
        let mut depth = 0;
        let end = rest.char_indices().find_map(|(i, c)| {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
            None
        })?;
        let tensor = aic::syntax::parse_type(u, &Default::default(), &rest[..end]).ok()?;
        let fields = rest[end..].strip_prefix(", swizzle = ")?;
        let (sw, tail) = fields.split_once(',')?;
        let swizzle = [0, 32, 64, 128]
            .into_iter()
            .find(|s| swizzle_word(*s) == sw)?;
        (tail == " l2promo = none, oob = zero, interleave = none")
            .then_some(TensorMapDescriptor { tensor, swizzle })
    }

    /// The type.
    pub fn ty(self, u: &Uniquer) -> Type {
        u.ty(TypeKind::dialect(self))
    }

    /// The descriptor type `t` is, if it is one.
    pub fn of(ctx: &Context, t: Type) -> Option<TensorMapDescriptor> {
        ctx.type_kind(t)
            .dialect_value::<TensorMapDescriptor>()
            .copied()
    }

    /// The box: rows and columns.
    pub fn box_shape(self, ctx: &Context) -> Vec<i64> {
        ctx.type_kind(self.tensor)
            .shape()
            .map(<[i64]>::to_vec)
            .unwrap_or_default()
    }

    /// The element type of the box.
    pub fn elem(self, ctx: &Context) -> Option<Type> {
        ctx.type_kind(self.tensor).element_type()
    }

    /// The bytes one load of a box copies.
    pub fn box_bytes(self, ctx: &Context) -> i64 {
        let eb = self.elem(ctx).map_or(0, |e| crate::gpu::elem_bytes(ctx, e));
        self.box_shape(ctx).iter().product::<i64>() * eb
    }
}

/// Reads a tensor map descriptor type's text.
pub(super) fn parse_type(u: &Uniquer, body: &str) -> Option<DialectObject> {
    TensorMapDescriptor::parse(u, body).map(DialectObject::new)
}

const I1: TypeConstraint = TypeConstraint {
    desc: "i1",
    check: |t, _| matches!(t, TypeKind::Integer { width: 1, .. }),
    build: Some(|u| u.int_type(1)),
};

const TENSOR_MAP: TypeConstraint = TypeConstraint {
    desc: "!nvgpu.tensormap.descriptor",
    check: |t, _| t.dialect_value::<TensorMapDescriptor>().is_some(),
    build: None,
};

aic::op! {
    /// `nvgpu.tma.create.descriptor %buf {globalShape, globalStrides} : memref<N x T> -> !nvgpu.tensormap.descriptor<..>`.
    pub TmaCreateDescriptor = TMA_CREATE_DESCRIPTOR {
        operands: [tensor: one(MEMREF)],
        results: [tensor_map = "tensorMap": one(TENSOR_MAP)],
        attributes: [
            global_shape = "globalShape": required(I64_ARRAY) as Vec<i64>,
            global_strides = "globalStrides": required(I64_ARRAY) as Vec<i64>,
        ],
        spec: OpSpec {
            summary: "the TMA tensor map of a 2-D tensor over one of the kernel's buffers (a kernel parameter the runtime encodes)",
            traits: aic::dialect::Traits::PURE,
            format: Some("$tensor attr-dict `:` type($tensor) `->` type($tensorMap)"),
            verify: Some(verify_create_descriptor),
            interpret: Some(super::interpret),
            ..OpSpec::new("nvgpu.tma.create.descriptor")
        },
    }
}

aic::op! {
    /// `nvgpu.tma.async.load %d[%row, %col], %bars[%i] to %dst[%j] : D, B -> M`.
    pub TmaAsyncLoad = TMA_ASYNC_LOAD {
        operands: [
            tensor_map = "tensorMap": one(TENSOR_MAP),
            coordinates: variadic(tc::INDEX),
            barriers: one(MEMREF),
            mbar_id = "mbarId": one(tc::INDEX),
            dst: one(MEMREF),
            dst_index = "dstIndex": one(tc::INDEX),
        ],
        results: [],
        spec: OpSpec {
            summary: "starts a bulk tensor copy of a box from global to shared memory, completing on an mbarrier",
            format: Some(
                "$tensorMap `[` $coordinates `]` `,` $barriers `[` $mbarId `]` `to` $dst `[` $dstIndex `]` attr-dict `:` type($tensorMap) `,` type($barriers) `->` type($dst)",
            ),
            verify: Some(verify_async_load),
            interpret: Some(super::interpret),
            ..OpSpec::new("nvgpu.tma.async.load")
        },
    }
}

aic::op! {
    /// `nvgpu.mbarrier.init %bars[%i], %count : memref<Nxi64, workgroup>`.
    pub MbarrierInit = MBARRIER_INIT {
        operands: [barriers: one(MEMREF), mbar_id = "mbarId": one(tc::INDEX), count: one(tc::INDEX)],
        results: [],
        spec: OpSpec {
            summary: "initialises an mbarrier in shared memory for count arrivals, phase 0",
            format: Some("$barriers `[` $mbarId `]` `,` $count attr-dict `:` type($barriers)"),
            verify: Some(verify_barrier_op),
            interpret: Some(super::interpret),
            ..OpSpec::new("nvgpu.mbarrier.init")
        },
    }
}

aic::op! {
    /// `nvgpu.mbarrier.arrive.expect_tx %bars[%i], %txcount : memref<Nxi64, workgroup>`.
    pub MbarrierArriveExpectTx = MBARRIER_ARRIVE_EXPECT_TX {
        operands: [barriers: one(MEMREF), mbar_id = "mbarId": one(tc::INDEX), txcount: one(tc::INDEX)],
        results: [],
        spec: OpSpec {
            summary: "adds txcount bytes to the mbarrier's expected transactions and arrives on it",
            format: Some("$barriers `[` $mbarId `]` `,` $txcount attr-dict `:` type($barriers)"),
            verify: Some(verify_barrier_op),
            interpret: Some(super::interpret),
            ..OpSpec::new("nvgpu.mbarrier.arrive.expect_tx")
        },
    }
}

aic::op! {
    /// `nvgpu.mbarrier.arrive %bars[%i] : memref<Nxi64, workgroup>`.
    pub MbarrierArrive = MBARRIER_ARRIVE {
        operands: [barriers: one(MEMREF), mbar_id = "mbarId": one(tc::INDEX)],
        results: [],
        spec: OpSpec {
            summary: "arrives on an mbarrier",
            format: Some("$barriers `[` $mbarId `]` attr-dict `:` type($barriers)"),
            verify: Some(verify_barrier_op),
            interpret: Some(super::interpret),
            ..OpSpec::new("nvgpu.mbarrier.arrive")
        },
    }
}

aic::op! {
    /// `nvgpu.mbarrier.try_wait.parity %bars[%i], %parity, %ticks : memref<Nxi64, workgroup>`.
    pub MbarrierTryWaitParity = MBARRIER_TRY_WAIT_PARITY {
        operands: [
            barriers: one(MEMREF),
            mbar_id = "mbarId": one(tc::INDEX),
            phase_parity = "phaseParity": one(I1),
            ticks: one(tc::INDEX),
        ],
        results: [],
        spec: OpSpec {
            summary: "waits until the mbarrier's phase of the parity given has completed",
            format: Some(
                "$barriers `[` $mbarId `]` `,` $phaseParity `,` $ticks attr-dict `:` type($barriers)",
            ),
            verify: Some(verify_barrier_op),
            interpret: Some(super::interpret),
            ..OpSpec::new("nvgpu.mbarrier.try_wait.parity")
        },
    }
}

/// Checks that `bars` is a shared `memref<Nxi64>`.
fn check_barriers(ctx: &Context, bars: Value) -> Result<(), String> {
    let t = ctx.value_type(bars);
    let k = ctx.type_kind(t);
    let ok = crate::gpu::is_shared(ctx, t)
        && k.shape().is_some_and(|s| s.len() == 1)
        && k.element_type()
            .is_some_and(|e| matches!(ctx.type_kind(e), TypeKind::Integer { width: 64, .. }));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "mbarriers must be a memref<Nxi64> in #{}",
            crate::gpu::WORKGROUP
        ))
    }
}

fn verify_barrier_op(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    check_barriers(ctx, ctx.operands(op)[0]).map_err(|m| op_error(ctx, op, m))
}

fn verify_create_descriptor(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let d = TmaCreateDescriptor(op);
    let src = d.tensor(ctx);
    let st = ctx.value_type(src);
    if crate::gpu::is_shared(ctx, st) {
        return Err(err("the tensor must be a global buffer".into()));
    }
    let is_arg = ctx.defining_op(src).is_none();
    if !is_arg {
        return Err(err(
            "the tensor must be an argument of the kernel (its tensor map is a kernel parameter)"
                .into(),
        ));
    }
    let map = TensorMapDescriptor::of(ctx, ctx.value_type(d.tensor_map(ctx)))
        .ok_or_else(|| err("the result must be a tensor map descriptor".into()))?;
    let elem = ctx.type_kind(st).element_type();
    if map.elem(ctx) != elem {
        return Err(err(
            "the box and the tensor have different element types".into()
        ));
    }
    let eb = elem.map_or(0, |e| crate::gpu::elem_bytes(ctx, e));
    let bx = map.box_shape(ctx);
    let shape = i64_array_attr(ctx, op, "globalShape").unwrap_or_default();
    let strides = i64_array_attr(ctx, op, "globalStrides").unwrap_or_default();
    if bx.len() != 2 || shape.len() != 2 || strides.len() != 2 {
        return Err(err(
            "a tensor map of a 2-D tensor: a 2-D box, globalShape and globalStrides".into(),
        ));
    }
    if bx.iter().any(|b| !(1..=256).contains(b)) {
        return Err(err(format!("box {bx:?}: each side from 1 to 256")));
    }
    if map.swizzle != 0 && bx[1] * eb > map.swizzle {
        return Err(err(format!(
            "a box row of {} bytes is longer than its swizzle ({} bytes)",
            bx[1] * eb,
            map.swizzle
        )));
    }
    if strides[1] != 1 || strides[0] < shape[1] || (strides[0] * eb) % 16 != 0 {
        return Err(err(format!(
            "globalStrides {strides:?}: columns contiguous, rows at least a row apart and a multiple of 16 bytes"
        )));
    }
    let n: i64 = ctx.type_kind(st).shape().map_or(0, |s| s.iter().product());
    if shape.iter().any(|s| *s < 1) || (shape[0] - 1) * strides[0] + shape[1] > n {
        return Err(err(format!(
            "globalShape {shape:?} does not fit the buffer of {n} elements"
        )));
    }
    Ok(())
}

fn verify_async_load(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let l = TmaAsyncLoad(op);
    check_barriers(ctx, l.barriers(ctx)).map_err(err)?;
    let map = TensorMapDescriptor::of(ctx, ctx.value_type(l.tensor_map(ctx)))
        .ok_or_else(|| err("not a tensor map".into()))?;
    if l.coordinates(ctx).len() != 2 {
        return Err(err("two coordinates (row, column) of a 2-D tensor".into()));
    }
    let dt = ctx.value_type(l.dst(ctx));
    if !crate::gpu::is_shared(ctx, dt) {
        return Err(err(format!(
            "the destination must be a memref in #{}",
            crate::gpu::WORKGROUP
        )));
    }
    if ctx.type_kind(dt).element_type() != map.elem(ctx) {
        return Err(err("the destination's elements are not the box's".into()));
    }
    Ok(())
}

/// A tensor map a kernel takes as a parameter: what the runtime encodes
/// (`cuTensorMapEncodeTiled`) from the buffer it passes as argument
/// `buffer`. The kernel's tensor maps follow its buffers as parameters, in
/// the order of their `tma.create.descriptor` ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMapSpec {
    /// The kernel argument (buffer) the tensor lies in.
    pub buffer: usize,
    /// The tensor's rows and columns (columns contiguous).
    pub shape: [i64; 2],
    /// Elements from one row to the next.
    pub row_stride: i64,
    /// Bytes per element.
    pub elem_bytes: i64,
    /// The box: rows and columns.
    pub box_shape: [i64; 2],
    /// The swizzle in bytes (0: none).
    pub swizzle: i64,
}

/// The tensor map `tma.create.descriptor` op `op` makes, if it is well
/// formed and its tensor is an argument of its kernel.
pub fn tensor_map_spec(ctx: &Context, op: Op) -> Option<TensorMapSpec> {
    let d = TmaCreateDescriptor::of(ctx, op)?;
    let k = crate::gpu::enclosing(ctx, op, crate::gpu::KERNEL.name)?;
    let body = ctx.regions(k).first().and_then(|r| ctx.entry_block(*r))?;
    let buffer = ctx
        .block_args(body)
        .iter()
        .position(|a| *a == d.tensor(ctx))?;
    let map = TensorMapDescriptor::of(ctx, ctx.value_type(d.tensor_map(ctx)))?;
    let shape = i64_array_attr(ctx, op, "globalShape")?;
    let strides = i64_array_attr(ctx, op, "globalStrides")?;
    let bx = map.box_shape(ctx);
    Some(TensorMapSpec {
        buffer,
        shape: [*shape.first()?, *shape.get(1)?],
        row_stride: *strides.first()?,
        elem_bytes: crate::gpu::elem_bytes(ctx, map.elem(ctx)?),
        box_shape: [*bx.first()?, *bx.get(1)?],
        swizzle: map.swizzle,
    })
}

/// The `tma.create.descriptor` ops of kernel `k` (a `gpu.kernel`) in
/// order, each with its tensor map (`None` where the op is malformed,
/// which the verifier reports).
pub fn tensor_maps(ctx: &Context, k: Op) -> Vec<(Op, Option<TensorMapSpec>)> {
    let mut out = Vec::new();
    ctx.walk(k, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if TmaCreateDescriptor::is(ctx, o) {
            out.push((o, tensor_map_spec(ctx, o)));
        }
    });
    out
}
