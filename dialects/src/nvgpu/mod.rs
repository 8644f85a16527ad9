//! The `nvgpu` dialect: NVIDIA warp-level ops on register fragments, between
//! `gpu` kernels and NVVM intrinsics. `tile-to-gpu{mma=true}` writes it for
//! `tile.gemm`s that tensor cores can run; `backends/llvm` translates it for
//! NVPTX only.
//!
//! ```mlir
//! %a = nvgpu.ldmatrix %sa[%i] {numTiles = 4 : i32, transpose = false}
//!     : memref<2560xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
//! %b = nvgpu.ldmatrix %sb[%j] {numTiles = 2 : i32, transpose = true}
//!     : memref<2304xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
//! %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]}
//!     : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
//! ```
//!
//! Asynchronous copies (sm_80's `cp.async`) fill shared memory from global
//! memory without registers, in groups a thread waits on:
//!
//! ```mlir
//! %t = nvgpu.device_async_copy %g[%i], %s[%j], 8, %n {bypassL1}
//!     : memref<4096xf16> to memref<2560xf16, #gpu.address_space<workgroup>>
//! %grp = nvgpu.device_async_create_group %t
//! nvgpu.device_async_wait %grp {numGroups = 1 : i32}
//! ```
//!
//! `device_async_copy` copies `dstElements` elements (4, 8 or 16 bytes in
//! all) starting at the source index to the destination index, zero-filling
//! those past `srcElements` when given (0 reads nothing); both addresses
//! must be aligned to the copy's size. `device_async_create_group` commits
//! the thread's copies issued so far as one group (its tokens name them);
//! `device_async_wait` blocks until at most `numGroups` (default 0) of the
//! thread's groups are still in flight. Other threads' copies become
//! visible after a barrier.
//!
//! The names, attributes and fragment types are upstream MLIR's. One
//! difference: aic's kernels address flat (rank-1) buffers, so `ldmatrix`
//! takes one index, the element this lane's row starts at (upstream takes
//! one index per dimension of its memref); the op is the same for a rank-1
//! memref. Only the shapes and types the backend translates are accepted:
//! `ldmatrix` of 1, 2 or 4 8x8 tiles of 16-bit elements from shared memory,
//! and `mma.sync` of shape m16n8k16 on f16 or bf16 (A and B alike) with an
//! f32 accumulator, or of shape m16n8k32 on i8 (signed) with an i32
//! accumulator (`vector<4x4xi8>`, `vector<2x4xi8>`, `vector<2x2xi32>`; lane
//! layouts in [`fragments`]), or m16n8k32 on fp8 (`f8E4M3FN` / `f8E5M2`,
//! A and B each either, in the s8 byte layout) with an f32 accumulator
//! (`vector<2x2xf32>`; sm_89 and newer, PTX ISA 8.4).
//! Both are warp-collective (every lane of the warp runs them together), so
//! the interpreter, which runs one thread, has no semantics for them.
//!
//! Hopper's warpgroup MMA (sm_90a): a warpgroup (4 consecutive warps, the
//! first one's index a multiple of 4) multiplies a 64x16 A by a 16xN B,
//! both read by the tensor cores from shared memory through 64-bit matrix
//! descriptors, into an accumulator each thread holds N/2 elements of:
//!
//! ```mlir
//! %da = nvgpu.warpgroup.generate.descriptor %sa[%i] {leadingByteOffset = 16 : i64, strideByteOffset = 1024 : i64, swizzle = 128 : i64}
//!     : memref<16384xf16, #gpu.address_space<workgroup>> -> i64
//! %d = nvgpu.warpgroup.mma %da, %db, %c {transposeB} : vector<64xf32> -> vector<64xf32>
//! ```
//!
//! `generate.descriptor` encodes the matrix starting at the index (in the
//! layout the PTX ISA calls 128-byte swizzled: 8 rows of 128 bytes form
//! an atom whose 16-byte chunk `c` of row `r` lies at chunk `c ^ r`; the
//! atom 1024-byte aligned) with its two byte strides: start address >> 4
//! in bits 0-13, leadingByteOffset >> 4 in 16-29, strideByteOffset >> 4
//! in 32-45, the swizzle mode in 62-63 (1: 128 bytes). Upstream's op
//! takes a TMA tensor map and gives a `!nvgpu.warpgroup.descriptor` whose
//! memref type implies the strides; aic fills its tiles with cp.async (no
//! tensor map) and names the strides itself, so the op takes a shared
//! view and an index and gives the descriptor as the `i64` the
//! instruction reads. `warpgroup.mma` is one `wgmma.mma_async` of shape
//! m64nNk16, f16 x f16 + f32, or bf16 x bf16 + f32 with `abType = bf16`
//! (N = 2 x the accumulator's length, a
//! multiple of 8 up to 256), A K-major, B K-major or N-major with
//! `transposeB`; upstream's op spans a whole K loop of instructions on
//! `!nvgpu.warpgroup.accumulator` values and synchronises itself, aic's
//! is one instruction on the thread's `vector<N/2 x f32>` (in the m16n8
//! fragment layout per warp, repeated N/8 times) and leaves the
//! asynchrony to upstream's `nvvm.wgmma.*` ops (see `nvvm`): its result
//! is settled only after a `nvvm.wgmma.wait.group.sync.aligned` covering
//! it, and the shared memory it reads must not change until then.
//!
//! Hopper's tensor memory accelerator (`tma.create.descriptor`,
//! `tma.async.load`) and the mbarriers its copies complete on
//! (`mbarrier.init`, `.arrive`, `.arrive.expect_tx`, `.try_wait.parity`)
//! are in [`tma`]'s ops.
//!
//! `warpgroup.mma.register_a` is aic's own variant, PTX's wgmma with A
//! from registers (upstream's `nvgpu.warpgroup.mma` reads A through a
//! descriptor only): A is each thread's `vector<4x2xT>` (T f16, or bf16
//! with `abType = bf16`), the m16k16 A fragment of mma.sync for its
//! warp's 16 rows of the 64 (row `16·w + l/4 + 8·(i % 2)`, column
//! `2·(l % 4) + 8·(i / 2) + j` for element `[i][j]` of lane `l` of warp
//! `w`), B as in `warpgroup.mma`. FlashAttention-3 feeds the softmax's
//! probabilities to the second GEMM so, straight from the first one's
//! accumulator. The registers of A must not change until the wait either.
//!
//! ```mlir
//! %d = nvgpu.warpgroup.mma.register_a %a, %db, %c {transposeB}
//!     : vector<4x2xf16>, vector<32xf32> -> vector<32xf32>
//! ```

pub mod fragments;
pub mod sparse;
mod tma;
pub use tma::*;

use crate::gpu::verify_in_kernel;
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::dialect::{AttrConstraint, AttrSyntax, Dialect, OpSpec, Traits, TypeConstraint, ac, tc};
use aic::float::FloatKind;
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;

use aic::constraints::{
    BOOL_ATTR, I32_ATTR, I64_ATTR, MEMREF, VECTOR, int_attr, op_attr_kind as attr_kind,
};

const I64: TypeConstraint = TypeConstraint {
    desc: "i64",
    check: |t, _| matches!(t, TypeKind::Integer { width: 64, .. }),
    build: Some(|u| u.int_type(64)),
};

/// `!nvgpu.device.async.token`, what an asynchronous copy or group gives.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct AsyncToken;

/// The text of [`AsyncToken`] after `!`.
const TOKEN_TYPE: &str = "nvgpu.device.async.token";

impl aic::types::DialectValue for AsyncToken {
    fn print(&self, _: &aic::ir::Uniquer, out: &mut String) {
        out.push_str(TOKEN_TYPE);
    }
}

/// The types of `nvgpu` as values.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "nvgpu",
    parse_type: Some(|u, body| {
        Ok(if body == TOKEN_TYPE {
            Some(aic::types::DialectObject::new(AsyncToken))
        } else {
            tma::parse_type(u, body)
        })
    }),
    parse_attr: None,
};

const TOKEN: TypeConstraint = TypeConstraint {
    desc: "device async token",
    check: |t, _| t.dialect_value::<AsyncToken>().is_some(),
    build: Some(token_type),
};

/// The token type.
pub fn token_type(u: &aic::ir::Uniquer) -> Type {
    u.ty(TypeKind::dialect(AsyncToken))
}

fn index_type(u: &aic::ir::Uniquer) -> Type {
    u.ty(TypeKind::Index)
}

/// An index attribute written without its type.
const INDEX_ATTR: AttrConstraint = AttrConstraint {
    desc: "index attribute",
    check: |a, u| matches!(a, AttrKind::Integer { ty, .. } if matches!(u.type_kind(*ty), TypeKind::Index)),
    syntax: AttrSyntax::WithoutType(index_type),
};

/// The element type of a warpgroup MMA's A and B, `abType = bf16` (absent:
/// f16), or an 8-bit float (`f8E4M3FN`, `f8E5M2`) of the k32 form.
const HALF_TYPE: AttrConstraint = AttrConstraint {
    desc: "type attribute of f16, bf16, f8E4M3FN or f8E5M2",
    check: |a, u| {
        matches!(a, AttrKind::Type(t) if matches!(
            u.type_kind(*t),
            TypeKind::Float(FloatKind::F16 | FloatKind::BF16 | FloatKind::F8E4M3FN | FloatKind::F8E5M2)
        ))
    },
    syntax: AttrSyntax::Full,
};

/// B's element type of an 8-bit warpgroup MMA where it differs from A's
/// (`bType = f8E5M2` with `abType = f8E4M3FN`).
const FP8_TYPE: AttrConstraint = AttrConstraint {
    desc: "type attribute of f8E4M3FN or f8E5M2",
    check: |a, u| matches!(a, AttrKind::Type(t) if matches!(u.type_kind(*t), TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2))),
    syntax: AttrSyntax::Full,
};

/// An array of integers, `[16, 8, 16]`.
pub(crate) const INT_ARRAY: AttrConstraint = AttrConstraint {
    desc: "array of integers",
    check: |a, u| matches!(a, AttrKind::Array(xs) if xs.iter().all(|x| matches!(u.attr_kind(*x), AttrKind::Integer { .. }))),
    syntax: AttrSyntax::Full,
};

aic::op! {
    /// `nvgpu.ldmatrix %m[%i] {numTiles = N : i32, transpose = B} : memref<..> -> vector<Nx2xT>`.
    pub Ldmatrix = LDMATRIX {
        operands: [src_memref = "srcMemref": one(MEMREF), indices: variadic(tc::INDEX)],
        results: [res: one(VECTOR)],
        attributes: [num_tiles = "numTiles": required(I32_ATTR), transpose: required(BOOL_ATTR)],
        spec: OpSpec {
            summary: "each lane loads its fragment of N 8x8 matrices of 16-bit elements from shared memory",
            format: Some("$srcMemref `[` $indices `]` attr-dict `:` type($srcMemref) `->` type($res)"),
            verify: Some(verify_ldmatrix),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.ldmatrix")
        },
    }
}

aic::op! {
    /// `nvgpu.mma.sync(%a, %b, %c) {mmaShape = [m, n, k]} : (A, B, C) -> C`.
    pub MmaSync = MMA_SYNC {
        operands: [
            matrix_a = "matrixA": one(VECTOR),
            matrix_b = "matrixB": one(VECTOR),
            matrix_c = "matrixC": one(VECTOR),
        ],
        results: [res: one(VECTOR)],
        attributes: [mma_shape = "mmaShape": required(INT_ARRAY)],
        spec: OpSpec {
            summary: "a warp's matrix multiply-accumulate on tensor cores, each lane holding fragments",
            traits: Traits::PURE,
            format: Some(
                "`(` $matrixA `,` $matrixB `,` $matrixC `)` attr-dict `:` `(` type($matrixA) `,` type($matrixB) `,` type($matrixC) `)` `->` type($res)",
            ),
            verify: Some(verify_mma_sync),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.mma.sync")
        },
    }
}

aic::op! {
    /// `nvgpu.device_async_copy %src[%i], %dst[%j], N (, %n)? {bypassL1}? : S to D`.
    pub DeviceAsyncCopy = DEVICE_ASYNC_COPY {
        operands: [
            src: one(MEMREF),
            src_indices = "srcIndices": variadic(tc::INDEX),
            dst: one(MEMREF),
            dst_indices = "dstIndices": variadic(tc::INDEX),
            src_elements = "srcElements": optional(tc::INDEX),
        ],
        results: [async_token = "asyncToken": one(TOKEN)],
        attributes: [
            dst_elements = "dstElements": required(INDEX_ATTR),
            bypass_l1 = "bypassL1": optional(ac::UNIT),
        ],
        spec: OpSpec {
            summary: "starts an asynchronous copy of a few elements from global to shared memory",
            infer_results: Some(|u, _, _| Some(vec![token_type(u)])),
            format: Some(
                "$src `[` $srcIndices `]` `,` $dst `[` $dstIndices `]` `,` $dstElements (`,` $srcElements^)? attr-dict `:` type($src) `to` type($dst)",
            ),
            verify: Some(verify_device_async_copy),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.device_async_copy")
        },
    }
}

aic::op! {
    /// `nvgpu.device_async_create_group %t...`.
    pub DeviceAsyncCreateGroup = DEVICE_ASYNC_CREATE_GROUP {
        operands: [input_tokens = "inputTokens": variadic(TOKEN)],
        results: [async_token = "asyncToken": one(TOKEN)],
        spec: OpSpec {
            summary: "commits the thread's asynchronous copies issued so far as one group",
            infer_results: Some(|u, _, _| Some(vec![token_type(u)])),
            format: Some("$inputTokens attr-dict"),
            verify: Some(verify_in_kernel),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.device_async_create_group")
        },
    }
}

aic::op! {
    /// `nvgpu.device_async_wait %g {numGroups = N : i32}`.
    pub DeviceAsyncWait = DEVICE_ASYNC_WAIT {
        operands: [async_dependencies = "asyncDependencies": one(TOKEN)],
        results: [],
        attributes: [num_groups = "numGroups": optional(I32_ATTR)],
        spec: OpSpec {
            summary: "waits until at most numGroups of the thread's copy groups are in flight",
            format: Some("$asyncDependencies attr-dict"),
            verify: Some(verify_device_async_wait),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.device_async_wait")
        },
    }
}

aic::op! {
    /// `nvgpu.warpgroup.generate.descriptor %m[%i] {..} : memref<..> -> i64`.
    pub WarpgroupDescriptor = WARPGROUP_DESCRIPTOR {
        operands: [tensor: one(MEMREF), indices: variadic(tc::INDEX)],
        results: [descriptor: one(I64)],
        attributes: [
            leading_byte_offset = "leadingByteOffset": required(I64_ATTR),
            stride_byte_offset = "strideByteOffset": required(I64_ATTR),
            swizzle: required(I64_ATTR),
        ],
        spec: OpSpec {
            summary: "the wgmma matrix descriptor of a 128-byte-swizzled f16 or bf16 matrix in shared memory",
            traits: Traits::PURE,
            format: Some("$tensor `[` $indices `]` attr-dict `:` type($tensor) `->` type($descriptor)"),
            verify: Some(verify_warpgroup_descriptor),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.warpgroup.generate.descriptor")
        },
    }
}

aic::op! {
    /// `nvgpu.warpgroup.mma %da, %db, %c {abType = T}? {bType = T}? {transposeB}? : vector<Kxf32> -> vector<Kxf32>`.
    pub WarpgroupMma = WARPGROUP_MMA {
        operands: [
            descriptor_a = "descriptorA": one(I64),
            descriptor_b = "descriptorB": one(I64),
            matrix_c = "matrixC": one(VECTOR),
        ],
        results: [matrix_d = "matrixD": one(VECTOR)],
        attributes: [
            transpose_b = "transposeB": optional(ac::UNIT),
            ab_type = "abType": optional(HALF_TYPE),
            b_type = "bType": optional(FP8_TYPE),
        ],
        spec: OpSpec {
            summary: "a warpgroup's asynchronous m64nNk16 (k32 on fp8) matrix multiply-accumulate from shared memory",
            format: Some(
                "$descriptorA `,` $descriptorB `,` $matrixC attr-dict `:` type($matrixC) `->` type($matrixD)",
            ),
            verify: Some(verify_warpgroup_mma),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.warpgroup.mma")
        },
    }
}

aic::op! {
    /// `nvgpu.warpgroup.mma.register_a %a, %db, %c {abType = bf16}? {transposeB}? : vector<4x2xT>, vector<Kxf32> -> vector<Kxf32>`.
    pub WarpgroupMmaRegisterA = WARPGROUP_MMA_REGISTER_A {
        operands: [
            matrix_a = "matrixA": one(VECTOR),
            descriptor_b = "descriptorB": one(I64),
            matrix_c = "matrixC": one(VECTOR),
        ],
        results: [matrix_d = "matrixD": one(VECTOR)],
        attributes: [
            transpose_b = "transposeB": optional(ac::UNIT),
            ab_type = "abType": optional(HALF_TYPE),
        ],
        spec: OpSpec {
            summary: "a warpgroup's asynchronous m64nNk16 matrix multiply-accumulate, A from registers, B from shared memory",
            format: Some(
                "$matrixA `,` $descriptorB `,` $matrixC attr-dict `:` type($matrixA) `,` type($matrixC) `->` type($matrixD)",
            ),
            verify: Some(verify_warpgroup_mma),
            interpret: Some(interpret),
            ..OpSpec::new("nvgpu.warpgroup.mma.register_a")
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "nvgpu",
    description: "NVIDIA warp-level fragments (ldmatrix, mma.sync on tensor cores), warpgroup MMA, asynchronous copies to shared memory (cp.async, TMA) and mbarriers",
    ops: &[
        LDMATRIX,
        MMA_SYNC,
        sparse::MMA_SP_SYNC,
        DEVICE_ASYNC_COPY,
        DEVICE_ASYNC_CREATE_GROUP,
        DEVICE_ASYNC_WAIT,
        WARPGROUP_DESCRIPTOR,
        WARPGROUP_MMA,
        TMA_CREATE_DESCRIPTOR,
        TMA_ASYNC_LOAD,
        MBARRIER_INIT,
        MBARRIER_ARRIVE_EXPECT_TX,
        MBARRIER_ARRIVE,
        MBARRIER_TRY_WAIT_PARITY,
        WARPGROUP_MMA_REGISTER_A,
    ],
    materialize_constant: None,
};

/// `numTiles` of an `ldmatrix`.
pub fn num_tiles(ctx: &Context, op: Op) -> i64 {
    match attr_kind(ctx, op, "numTiles") {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(*value).unwrap_or(0),
        _ => 0,
    }
}

/// `transpose` of an `ldmatrix`.
pub fn transpose(ctx: &Context, op: Op) -> bool {
    match attr_kind(ctx, op, "transpose") {
        Some(AttrKind::Bool(b)) => *b,
        Some(AttrKind::Integer { value, .. }) => *value != 0,
        _ => false,
    }
}

/// `dstElements` of a `device_async_copy`.
pub fn dst_elements(ctx: &Context, op: Op) -> i64 {
    match attr_kind(ctx, op, "dstElements") {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(*value).unwrap_or(0),
        _ => 0,
    }
}

/// `numGroups` of a `device_async_wait` (0 when absent).
pub fn num_groups(ctx: &Context, op: Op) -> i64 {
    match attr_kind(ctx, op, "numGroups") {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(*value).unwrap_or(0),
        _ => 0,
    }
}

/// Whether a `device_async_copy` bypasses L1 (`bypassL1`).
pub fn bypass_l1(ctx: &Context, op: Op) -> bool {
    attr_kind(ctx, op, "bypassL1").is_some()
}

/// A `device_async_copy`'s operands: source, its indices, destination, its
/// indices and the source elements (if given).
pub fn copy_operands(
    ctx: &Context,
    op: Op,
) -> (
    aic::ir::Value,
    Vec<aic::ir::Value>,
    aic::ir::Value,
    Vec<aic::ir::Value>,
    Option<aic::ir::Value>,
) {
    let g = |n: &str| DEVICE_ASYNC_COPY.operand_group(ctx, op, n).to_vec();
    (
        g("src")[0],
        g("srcIndices"),
        g("dst")[0],
        g("dstIndices"),
        g("srcElements").first().copied(),
    )
}

/// An integer attribute of `op` (0 when absent).
pub fn int(ctx: &Context, op: Op, name: &str) -> i64 {
    int_attr(ctx, op, name).unwrap_or(0)
}

/// Whether a `warpgroup.mma` reads B N-major (`transposeB`).
pub fn transpose_b(ctx: &Context, op: Op) -> bool {
    attr_kind(ctx, op, "transposeB").is_some()
}

/// Whether a `warpgroup.mma` multiplies bf16 matrices (`abType = bf16`),
/// not f16 ones.
pub fn wgmma_bf16(ctx: &Context, op: Op) -> bool {
    matches!(attr_kind(ctx, op, "abType"), Some(AttrKind::Type(t)) if is_float(ctx, *t, FloatKind::BF16))
}

/// The fp8 formats of A and B of an 8-bit `warpgroup.mma` (m64nNk32:
/// `abType` f8E4M3FN or f8E5M2, B's `bType` where it differs), `None` for
/// the 16-bit forms.
pub fn wgmma_fp8(ctx: &Context, op: Op) -> Option<(FloatKind, FloatKind)> {
    let kind = |name: &str| match attr_kind(ctx, op, name) {
        Some(AttrKind::Type(t)) => match ctx.type_kind(*t) {
            TypeKind::Float(f @ (FloatKind::F8E4M3FN | FloatKind::F8E5M2)) => Some(*f),
            _ => None,
        },
        _ => None,
    };
    let a = kind("abType")?;
    Some((a, kind("bType").unwrap_or(a)))
}

/// The K of one `warpgroup.mma`: 32 bytes of fp8, 16 halves otherwise.
pub fn wgmma_k(ctx: &Context, op: Op) -> i64 {
    if wgmma_fp8(ctx, op).is_some() { 32 } else { 16 }
}

/// Whether a warpgroup MMA reads A from registers
/// (`warpgroup.mma.register_a`), not through a descriptor.
pub fn wgmma_register_a(ctx: &Context, op: Op) -> bool {
    WarpgroupMmaRegisterA::is(ctx, op)
}

/// The N of a `warpgroup.mma` or `warpgroup.mma.register_a` (twice its accumulator's length per thread).
pub fn wgmma_n(ctx: &Context, op: Op) -> i64 {
    // matrixC is operand 2 of both forms.
    let t = ctx.value_type(ctx.operands(op)[2]);
    vector_of(ctx, t).map_or(0, |(s, _)| 2 * s.iter().product::<i64>())
}

/// `mmaShape` of an `mma.sync`.
pub fn mma_shape(ctx: &Context, op: Op) -> Vec<i64> {
    match attr_kind(ctx, op, "mmaShape") {
        Some(AttrKind::Array(xs)) => xs
            .iter()
            .filter_map(|x| match ctx.attr_kind(*x) {
                AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The fp8 formats of an `mma.sync`'s A and B when it is the fp8 form
/// (m16n8k32, `f8E4M3FN` or `f8E5M2` each, f32 accumulator; sm_89+).
pub fn mma_fp8(ctx: &Context, op: Op) -> Option<(FloatKind, FloatKind)> {
    let fp8 = |i: usize| {
        let (_, e) = vector_of(ctx, ctx.value_type(*ctx.operands(op).get(i)?))?;
        match ctx.type_kind(e) {
            TypeKind::Float(k @ (FloatKind::F8E4M3FN | FloatKind::F8E5M2)) => Some(*k),
            _ => None,
        }
    };
    Some((fp8(0)?, fp8(1)?))
}

/// The shape and element of a vector type.
pub(crate) fn vector_of(ctx: &Context, t: Type) -> Option<(Vec<i64>, Type)> {
    match ctx.type_kind(t) {
        TypeKind::Vector { shape, elem, .. } => Some((shape.to_vec(), *elem)),
        _ => None,
    }
}

pub(crate) fn is_float(ctx: &Context, t: Type, k: FloatKind) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(f) if *f == k)
}

/// The element type of `memref`, the `what` an op reads: a memref in
/// workgroup memory indexed by `indices`, one per dim.
fn shared_matrix(
    ctx: &Context,
    memref: aic::Value,
    indices: &[aic::Value],
    what: &str,
) -> Result<Type, String> {
    let src = ctx.value_type(memref);
    if !crate::gpu::is_shared(ctx, src) {
        return Err(format!(
            "the {what} must be a memref in #{}",
            crate::gpu::WORKGROUP
        ));
    }
    let k = ctx.type_kind(src);
    let rank = k.shape().map_or(0, <[i64]>::len);
    let indices = indices.len();
    if indices != rank {
        return Err(format!("{indices} indices for a memref of rank {rank}"));
    }
    Ok(k.element_type().expect("a memref"))
}

fn verify_ldmatrix(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let text = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let l = Ldmatrix(op);
    let elem = shared_matrix(ctx, l.src_memref(ctx), l.indices(ctx), "source").map_err(err)?;
    if !is_float(ctx, elem, FloatKind::F16) && !is_float(ctx, elem, FloatKind::BF16) {
        return Err(err(format!(
            "loads 16-bit elements (f16, bf16), not {}",
            text(elem)
        )));
    }
    let n = num_tiles(ctx, op);
    if ![1, 2, 4].contains(&n) {
        return Err(err(format!("numTiles must be 1, 2 or 4, not {n}")));
    }
    let res = ctx.value_type(ctx.result(op, 0));
    if vector_of(ctx, res) != Some((vec![n, 2], elem)) {
        return Err(err(format!(
            "the result must be vector<{n}x2x{}>, not {}",
            text(elem),
            text(res)
        )));
    }
    Ok(())
}

fn verify_device_async_copy(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let (src, si, dst, di, _) = copy_operands(ctx, op);
    let (st, dt) = (ctx.value_type(src), ctx.value_type(dst));
    if !crate::gpu::is_shared(ctx, dt) {
        return Err(err(format!(
            "the destination must be a memref in #{}",
            crate::gpu::WORKGROUP
        )));
    }
    if crate::gpu::is_shared(ctx, st) {
        return Err(err("the source must be a global memref".into()));
    }
    for (t, idx, what) in [(st, &si, "source"), (dt, &di, "destination")] {
        let rank = ctx.type_kind(t).shape().map_or(0, <[i64]>::len);
        if idx.len() != rank {
            return Err(err(format!(
                "{} {what} indices for a memref of rank {rank}",
                idx.len()
            )));
        }
    }
    let (se, de) = (
        ctx.type_kind(st).element_type(),
        ctx.type_kind(dt).element_type(),
    );
    if se != de {
        return Err(err("source and destination element types differ".into()));
    }
    let bits = de
        .and_then(|e| match ctx.type_kind(e) {
            TypeKind::Float(f) => Some(i64::from(f.bit_width())),
            TypeKind::Integer { width, .. } => Some(i64::from(*width)),
            _ => None,
        })
        .unwrap_or(0);
    let bytes = dst_elements(ctx, op) * bits / 8;
    if ![4, 8, 16].contains(&bytes) {
        return Err(err(format!(
            "copies 4, 8 or 16 bytes, not {bytes} ({} elements of {bits} bits)",
            dst_elements(ctx, op)
        )));
    }
    Ok(())
}

fn verify_warpgroup_descriptor(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let text = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let d = WarpgroupDescriptor(op);
    let elem = shared_matrix(ctx, d.tensor(ctx), d.indices(ctx), "matrix").map_err(err)?;
    let fp8 = is_float(ctx, elem, FloatKind::F8E4M3FN) || is_float(ctx, elem, FloatKind::F8E5M2);
    if !is_float(ctx, elem, FloatKind::F16) && !is_float(ctx, elem, FloatKind::BF16) && !fp8 {
        return Err(err(format!(
            "describes f16, bf16 or fp8 (f8E4M3FN, f8E5M2) matrices, not {}",
            text(elem)
        )));
    }
    if int(ctx, op, "swizzle") != 128 {
        return Err(err(format!(
            "swizzle {} is not supported: only 128",
            int(ctx, op, "swizzle")
        )));
    }
    for n in ["leadingByteOffset", "strideByteOffset"] {
        let v = int(ctx, op, n);
        if v % 16 != 0 || !(0..1 << 18).contains(&v) {
            return Err(err(format!(
                "{n} must be a multiple of 16 below 2^18, not {v}"
            )));
        }
    }
    Ok(())
}

fn verify_warpgroup_mma(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let text = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let c = ctx.value_type(ctx.operands(op)[2]);
    let d = ctx.value_type(ctx.result(op, 0));
    let n = wgmma_n(ctx, op);
    // The 8-bit forms read both matrices K-major (no transpose for 8-bit
    // types) and A from shared memory; bType only beside an fp8 abType.
    let fp8 = wgmma_fp8(ctx, op).is_some();
    if fp8 && transpose_b(ctx, op) {
        return Err(err(
            "reads 8-bit B K-major only: transposeB is for 16-bit types".into(),
        ));
    }
    if fp8 && WarpgroupMmaRegisterA::is(ctx, op) {
        return Err(err("takes A from registers in 16-bit types only".into()));
    }
    if !fp8 && attr_kind(ctx, op, "bType").is_some() {
        return Err(err("bType needs an fp8 abType".into()));
    }
    if let Some(a) = WarpgroupMmaRegisterA::of(ctx, op) {
        // A's fragment: this thread's 8 elements of its warp's m16k16
        // slice, in mma.sync's A layout, of abType (f16 by default).
        let t = ctx.value_type(a.matrix_a(ctx));
        let want = if wgmma_bf16(ctx, op) {
            FloatKind::BF16
        } else {
            FloatKind::F16
        };
        if !vector_of(ctx, t).is_some_and(|(s, e)| s == [4, 2] && is_float(ctx, e, want)) {
            return Err(err(format!(
                "expects A as vector<4x2x{}> (abType), not {}",
                if want == FloatKind::BF16 {
                    "bf16"
                } else {
                    "f16"
                },
                text(t)
            )));
        }
    }
    let f32 =
        vector_of(ctx, c).is_some_and(|(s, e)| s.len() == 1 && is_float(ctx, e, FloatKind::F32));
    if !f32 || n % 8 != 0 || !(8..=256).contains(&n) || c != d {
        return Err(err(format!(
            "expects an accumulator vector<Kxf32> of K = N/2 for N a multiple of 8 from 8 to 256, and a result of its type, not {} -> {}",
            text(c),
            text(d)
        )));
    }
    Ok(())
}

fn verify_device_async_wait(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    if num_groups(ctx, op) < 0 {
        return Err(err("numGroups must not be negative".into()));
    }
    Ok(())
}

fn verify_mma_sync(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let text = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let shape = mma_shape(ctx, op);
    let t: Vec<Type> = ctx
        .operands(op)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let res = ctx.value_type(ctx.result(op, 0));
    let fp8_a = vector_of(ctx, t[0])
        .is_some_and(|(_, e)| matches!(ctx.type_kind(e), TypeKind::Float(k) if k.bit_width() == 8));
    if shape == [16, 8, 32] && fp8_a {
        // The fp8 form: A and B in s8's byte layout, each e4m3 or e5m2;
        // C and D f32 in the m16n8 layout (see [`fragments`]).
        let fp8 = |v: Option<(Vec<i64>, Type)>, s: &[i64]| {
            v.is_some_and(|(sh, e)| {
                sh == s
                    && matches!(
                        ctx.type_kind(e),
                        TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2)
                    )
            })
        };
        let is = |v: Option<(Vec<i64>, Type)>, s: &[i64], k: FloatKind| {
            v.is_some_and(|(sh, e)| sh == s && is_float(ctx, e, k))
        };
        if !(fp8(vector_of(ctx, t[0]), &[4, 4])
            && fp8(vector_of(ctx, t[1]), &[2, 4])
            && is(vector_of(ctx, t[2]), &[2, 2], FloatKind::F32)
            && t[2] == res)
        {
            return Err(err(format!(
                "mmaShape [16, 8, 32] on floats expects (vector<4x4xT>, vector<2x4xU>, vector<2x2xf32>) -> vector<2x2xf32> for T, U f8E4M3FN or f8E5M2, not ({}, {}, {}) -> {}",
                text(t[0]),
                text(t[1]),
                text(t[2]),
                text(res)
            )));
        }
        return Ok(());
    }
    if shape == [16, 8, 32] {
        // The integer form, s8 x s8 into s32 (see [`fragments`]).
        let int = |v: Option<(Vec<i64>, Type)>, s: &[i64], w: u32| {
            v.is_some_and(|(sh, e)| {
                sh == s
                    && matches!(ctx.type_kind(e), TypeKind::Integer { width, .. } if *width == w)
            })
        };
        if !(int(vector_of(ctx, t[0]), &[4, 4], 8)
            && int(vector_of(ctx, t[1]), &[2, 4], 8)
            && int(vector_of(ctx, t[2]), &[2, 2], 32)
            && t[2] == res)
        {
            return Err(err(format!(
                "mmaShape [16, 8, 32] expects (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>, not ({}, {}, {}) -> {}",
                text(t[0]),
                text(t[1]),
                text(t[2]),
                text(res)
            )));
        }
        return Ok(());
    }
    if shape != [16, 8, 16] {
        return Err(err(format!(
            "mmaShape {shape:?} is not supported: only [16, 8, 16] (f16, bf16) and [16, 8, 32] (i8), or fp8 at [16, 8, 32]"
        )));
    }
    let is = |v: Option<(Vec<i64>, Type)>, s: &[i64], k: FloatKind| {
        v.is_some_and(|(sh, e)| sh == s && is_float(ctx, e, k))
    };
    let ab = |k| is(vector_of(ctx, t[0]), &[4, 2], k) && is(vector_of(ctx, t[1]), &[2, 2], k);
    if !(ab(FloatKind::F16) || ab(FloatKind::BF16))
        || !is(vector_of(ctx, t[2]), &[2, 2], FloatKind::F32)
        || t[2] != res
    {
        return Err(err(format!(
            "expects (vector<4x2xT>, vector<2x2xT>, vector<2x2xf32>) -> vector<2x2xf32> for T f16 or bf16, not ({}, {}, {}) -> {}",
            text(t[0]),
            text(t[1]),
            text(t[2]),
            text(res)
        )));
    }
    Ok(())
}

pub(crate) fn interpret(_: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    Err(InterpError::at(
        op,
        "nvgpu ops are warp-collective or asynchronous and the interpreter runs one thread: compile for nvptx",
    ))
}
