//! The `nvgpu` ops (NVIDIA only) and the `vector` ops on their fragments in
//! LLVM IR.
//!
//! A `vector<AxBxT>` is LLVM's flat `<A·B x T>` (row-major). Fragments go to
//! the NVVM intrinsics as they name them in LLVM 22:
//!
//! | op | intrinsic |
//! |---|---|
//! | `nvgpu.ldmatrix` (numTiles 1, 2, 4; transpose) | `llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16.p3`, whose `i32`s are the fragment's pairs of halves |
//! | `nvgpu.mma.sync` m16n8k16, f16 × f16 + f32 | `llvm.nvvm.mma.m16n8k16.row.col.f32.f32` (PTX `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`) |
//! | `nvgpu.mma.sync` m16n8k32, s8 × s8 + s32 | `llvm.nvvm.mma.m16n8k32.row.col.s8`, A, B and C as `i32`s of four bytes or one element (PTX `mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32`) |
//! | `nvgpu.mma.sync` m16n8k32, fp8 × fp8 + f32 (sm_89+) | `llvm.nvvm.mma.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32`, A and B as s8's `i32` words of four bytes, C four floats (PTX `mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32`; the module is then PTX ISA 8.4) |
//! | `nvgpu.mma.sp.sync` m16n8k32, f16/bf16 (2:4 A) + f32 | inline PTX `mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32`, sparsity selector 0 ([`sparse`]) |
//! | `nvgpu.mma.sync` m16n8k16, bf16 × bf16 + f32 | `llvm.nvvm.mma.m16n8k16.row.col.bf16`, A and B as `i32` pairs (PTX `mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`) |
//! | `nvgpu.device_async_copy` of 4, 8 or 16 bytes | `llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}.s` (PTX `cp.async`; `cg`, which bypasses L1, for 16 bytes with `bypassL1`), the source size `srcElements` bytes or all |
//! | `nvgpu.device_async_create_group` | `llvm.nvvm.cp.async.commit.group` |
//! | `nvgpu.device_async_wait` | `llvm.nvvm.cp.async.wait.group` of `numGroups` |
//! | `nvgpu.warpgroup.generate.descriptor` | the descriptor's bits computed from the shared address |
//! | `nvgpu.warpgroup.mma` (sm_90a) | inline PTX `wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T` (T `f16`, or `bf16` with `abType = bf16`), the accumulator's registers read and written (LLVM 22 has no intrinsic for it) |
//! | `nvgpu.warpgroup.mma.register_a` (sm_90a) | the same with A as `{a0, a1, a2, a3}`, its four `.b32` registers of two halves |
//! | `nvvm.wgmma.fence.aligned`, `.commit.group.sync.aligned`, `.wait.group.sync.aligned` (sm_90a) | `llvm.nvvm.wgmma.{fence,commit_group,wait_group}.sync.aligned` |
//! | `nvvm.fence.proxy` async.shared, cta | `llvm.nvvm.fence.proxy.async.shared_cta` |
//!
//! Tokens are `i32` zeros: the hardware counts a thread's groups itself.
//! The TMA and mbarrier ops are [`crate::tma`]'s.
//!
//! They need sm_80 or later (every NVIDIA architecture aic-llvm knows). On
//! the host they are emulated, so that a host run checks the fragment
//! layouts `tile-to-gpu{mma=nvgpu}` assumes: `ldmatrix` and `mma.sync`
//! exchange what each lane holds through the block's exchange slots
//! between two barriers (every lane of the warp runs them together), each
//! lane then picking its own elements as the PTX ISA lays them out;
//! `device_async_copy` copies at once (zero-filling past `srcElements`),
//! which the wait and the barrier after it then find done; `warpgroup.mma`
//! runs at once, each thread computing its accumulator elements from the
//! shared memory its descriptors name, decoded as the PTX ISA defines
//! them ([`host_wgmma`]); the fences and waits have nothing to order. On
//! AMDGPU `nvgpu` and `nvvm` ops are errors.

mod sparse;

use crate::emit::{Llvm, Lower};
use crate::fp8::Fp8;
use crate::ops::Emit;
use crate::target::Target;
use aic::float::FloatKind;
use aic::ir::Op;
use aic_dialects::{nvgpu, nvvm, vector};
use inkwell::AddressSpace;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValue, BasicValueEnum, FloatValue, IntValue, VectorValue};

/// The nvgpu, nvvm and vector ops this module translates ([`crate::ops`]).
pub(crate) const ROWS: &[(&str, Emit)] = &[
    (nvgpu::DEVICE_ASYNC_COPY.name, Emit::Op(device_async_copy)),
    (
        nvgpu::DEVICE_ASYNC_CREATE_GROUP.name,
        Emit::Op(create_group),
    ),
    (nvgpu::DEVICE_ASYNC_WAIT.name, Emit::Op(async_wait)),
    (
        nvvm::WGMMA_FENCE.name,
        Emit::Op(|l, op| wgmma_sync(l, op, Sync::Fence)),
    ),
    (
        nvvm::WGMMA_COMMIT.name,
        Emit::Op(|l, op| wgmma_sync(l, op, Sync::Commit)),
    ),
    (
        nvvm::WGMMA_WAIT.name,
        Emit::Op(|l, op| wgmma_sync(l, op, Sync::Wait)),
    ),
    (
        nvvm::FENCE_PROXY.name,
        Emit::Op(|l, op| wgmma_sync(l, op, Sync::FenceProxy)),
    ),
    (nvvm::SET_MAX_REGISTER.name, Emit::Op(set_max_register)),
    (
        nvvm::BARRIER.name,
        Emit::Op(|l, op| named_barrier(l, op, false)),
    ),
    (
        nvvm::BARRIER_ARRIVE.name,
        Emit::Op(|l, op| named_barrier(l, op, true)),
    ),
    (
        vector::FROM_ELEMENTS.name,
        Emit::Value(|l, op| from_elements(l, op)),
    ),
    (vector::EXTRACT.name, Emit::Value(|l, op| extract(l, op))),
    (
        nvgpu::LDMATRIX.name,
        Emit::Value(|l, op| match nvidia(l, op)? {
            true => host_ldmatrix(l, op),
            false => ldmatrix(l, op),
        }),
    ),
    (
        nvgpu::MMA_SYNC.name,
        Emit::Value(|l, op| match (nvidia(l, op)?, s8_mma(l, op)) {
            (true, true) => host_mma_sync_s8(l, op),
            (true, false) => host_mma_sync(l, op),
            (false, true) if fp8_mma(l, op).is_some() => mma_sync_fp8(l, op),
            (false, true) => mma_sync_s8(l, op),
            (false, false) => mma_sync(l, op),
        }),
    ),
    (
        nvgpu::sparse::MMA_SP_SYNC.name,
        Emit::Value(|l, op| match nvidia(l, op)? {
            true => sparse::host_mma_sp_sync(l, op),
            false => sparse::mma_sp_sync(l, op),
        }),
    ),
    (
        nvgpu::WARPGROUP_DESCRIPTOR.name,
        Emit::Value(|l, op| {
            nvidia(l, op)?;
            descriptor(l, op)
        }),
    ),
    (
        nvgpu::WARPGROUP_MMA.name,
        Emit::Value(|l, op| match nvidia(l, op)? {
            true => host_wgmma(l, op),
            false => wgmma(l, op),
        }),
    ),
    (
        nvgpu::WARPGROUP_MMA_REGISTER_A.name,
        Emit::Value(|l, op| match nvidia(l, op)? {
            true => host_wgmma(l, op),
            false => wgmma(l, op),
        }),
    ),
];

/// Checks that `op`, an NVIDIA op, is translated for NVPTX or the host;
/// whether it is the host.
fn nvidia(l: &Lower<'_, '_>, op: Op) -> Result<bool, String> {
    let host = matches!(l.target, Target::Host);
    if !host && !matches!(l.target, Target::Nvptx { .. }) {
        return Err(l.err(
            op,
            format!(
                "'{}' runs on NVIDIA tensor cores (--target=nvptx, or emulated on the host), not on {}",
                l.ir.op_name(op),
                l.target.name()
            ),
        ));
    }
    Ok(host)
}

fn device_async_copy(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    if nvidia(l, op)? {
        host_async_copy(l, op)?;
    } else {
        async_copy(l, op)?;
    }
    let r = l.ir.result(op, 0);
    l.set_value(r, l.i32().const_zero().into());
    Ok(())
}

fn create_group(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    if !nvidia(l, op)? {
        l.call("llvm.nvvm.cp.async.commit.group", None, &[])?;
    }
    let r = l.ir.result(op, 0);
    l.set_value(r, l.i32().const_zero().into());
    Ok(())
}

fn async_wait(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    if !nvidia(l, op)? {
        let n = aic_dialects::nvgpu::num_groups(l.ir, op);
        let n = l.i32().const_int(n as u64, false);
        l.call("llvm.nvvm.cp.async.wait.group", None, &[n.into()])?;
    }
    Ok(())
}

fn operand<'ctx>(l: &Lower<'_, 'ctx>, op: Op, i: usize) -> Result<BasicValueEnum<'ctx>, String> {
    let v = *l
        .ir
        .operands(op)
        .get(i)
        .ok_or_else(|| l.err(op, format!("'{}' lacks operand {i}", l.ir.op_name(op))))?;
    l.val_of(op, v)
}

fn vector<'ctx>(l: &Lower<'_, 'ctx>, op: Op, i: usize) -> Result<VectorValue<'ctx>, String> {
    match operand(l, op, i)? {
        BasicValueEnum::VectorValue(v) => Ok(v),
        _ => Err(l.err(op, format!("operand {i} must be a vector"))),
    }
}

fn from_elements<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let ty = l.ty(op, l.ir.value_type(l.ir.result(op, 0)))?;
    let mut v = match ty {
        BasicTypeEnum::VectorType(t) => t.get_poison(),
        _ => return Err(l.err(op, "vector.from_elements must give a vector")),
    };
    for i in 0..l.ir.operands(op).len() {
        let x = operand(l, op, i)?;
        let at = l.i32().const_int(i as u64, false);
        v = l.b.build_insert_element(v, x, at, "").llvm()?;
    }
    Ok(v.into())
}

fn extract<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let src = <vector::Extract as aic::op_def::OpHandle>::wrap(op).source(l.ir);
    let shape =
        l.ir.type_kind(l.ir.value_type(src))
            .shape()
            .unwrap_or(&[])
            .to_vec();
    let pos = aic_dialects::vector::position(l.ir, op);
    let at = aic_dialects::vector::offset(&shape, &pos)
        .ok_or_else(|| l.err(op, format!("position {pos:?} outside the vector")))?;
    let v = vector(l, op, 0)?;
    let i = l.i32().const_int(at as u64, false);
    l.b.build_extract_element(v, i, "").llvm()
}

fn ldmatrix<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let ops = l.ir.operands(op).to_vec();
    if ops.len() != 2 {
        return Err(l.err(op, "nvgpu.ldmatrix on a rank-1 memref takes one index"));
    }
    let base = match l.val_of(op, ops[0])? {
        BasicValueEnum::PointerValue(p) => p,
        _ => return Err(l.err(op, "the source is not a buffer")),
    };
    let i = match l.val_of(op, ops[1])? {
        BasicValueEnum::IntValue(i) => i,
        _ => return Err(l.err(op, "the index must be an integer")),
    };
    let n = aic_dialects::nvgpu::num_tiles(l.ir, op);
    let trans = if aic_dialects::nvgpu::transpose(l.ir, op) {
        ".trans"
    } else {
        ""
    };
    let half = l.cx.f16_type();
    // SAFETY (LLVM semantics): the lane's row lies in the view, as the
    // kernel's contract requires.
    let p = unsafe { l.b.build_in_bounds_gep(half, base, &[i], "").llvm()? };
    let shared = l.cx.ptr_type(AddressSpace::from(3u16));
    if p.get_type() != shared {
        return Err(l.err(op, "nvgpu.ldmatrix reads shared memory only"));
    }
    let i32t = l.i32();
    let fields: Vec<BasicTypeEnum> = vec![i32t.into(); n as usize];
    let ret: BasicTypeEnum = if n == 1 {
        i32t.into()
    } else {
        l.cx.struct_type(&fields, false).into()
    };
    let name = format!("llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{n}{trans}.b16.p3");
    let r = l
        .call(&name, Some(ret), &[p.into()])?
        .ok_or_else(|| l.err(op, "ldmatrix returned nothing"))?;
    // The i32s, each a pair of halves, as the fragment <2n x half>.
    let words = i32t.vec_type(n as u32);
    let mut w = words.get_poison();
    for k in 0..n as u32 {
        let x = if n == 1 {
            r
        } else {
            l.b.build_extract_value(r.into_struct_value(), k, "")
                .llvm()?
        };
        let at = i32t.const_int(u64::from(k), false);
        w = l.b.build_insert_element(w, x, at, "").llvm()?;
    }
    let ty = l.ty(op, l.ir.value_type(l.ir.result(op, 0)))?;
    l.b.build_bit_cast(w, ty, "").llvm()
}

/// The `n` pairs of halves of a fragment `<2n x half>`, as `<2 x half>` each.
fn pairs<'ctx>(
    l: &Lower<'_, 'ctx>,
    v: VectorValue<'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>, String> {
    let n = v.get_type().get_size() / 2;
    let words = l.b.build_bit_cast(v, l.i32().vec_type(n), "").llvm()?;
    let pair = l.cx.f16_type().vec_type(2);
    (0..n)
        .map(|k| {
            let at = l.i32().const_int(u64::from(k), false);
            let x =
                l.b.build_extract_element(words.into_vector_value(), at, "")
                    .llvm()?;
            l.b.build_bit_cast(x, pair, "").llvm()
        })
        .collect()
}

/// The 16-bit float type of an `mma.sync`'s A and B fragments (f16 or
/// bf16, `<8 x T>` and `<4 x T>`) with an f32 accumulator, if they are such.
fn mma_halves<'ctx>(
    l: &Lower<'_, 'ctx>,
    a: VectorValue<'ctx>,
    b: VectorValue<'ctx>,
    c: VectorValue<'ctx>,
) -> Option<inkwell::types::FloatType<'ctx>> {
    mma_halves_of(l, a, b, c, 4)
}

/// [`mma_halves`] with B of `b_elems` halves (8 for `mma.sp`'s k32).
fn mma_halves_of<'ctx>(
    l: &Lower<'_, 'ctx>,
    a: VectorValue<'ctx>,
    b: VectorValue<'ctx>,
    c: VectorValue<'ctx>,
    b_elems: u32,
) -> Option<inkwell::types::FloatType<'ctx>> {
    let fits = |t: inkwell::types::FloatType<'ctx>| {
        a.get_type() == t.vec_type(8)
            && b.get_type() == t.vec_type(b_elems)
            && c.get_type() == l.f32().vec_type(4)
    };
    [l.cx.f16_type(), l.cx.bf16_type()]
        .into_iter()
        .find(|t| fits(*t))
}

/// The `n` pairs of 16-bit elements of a fragment `<2n x T>`, as `i32` each.
fn words<'ctx>(
    l: &Lower<'_, 'ctx>,
    v: VectorValue<'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>, String> {
    let n = v.get_type().get_size() / 2;
    let w = l.b.build_bit_cast(v, l.i32().vec_type(n), "").llvm()?;
    (0..n)
        .map(|k| {
            let at = l.i32().const_int(u64::from(k), false);
            l.b.build_extract_element(w.into_vector_value(), at, "")
                .llvm()
        })
        .collect()
}

fn mma_sync<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let f32 = l.f32();
    let Some(half) = mma_halves(l, a, b, c) else {
        return Err(l.err(
            op,
            "nvgpu.mma.sync is translated for f16 or bf16 fragments with an f32 accumulator only",
        ));
    };
    // f16 pairs go as `<2 x half>`, bf16 pairs as the `i32` words LLVM's
    // bf16 intrinsic takes.
    let bf16 = half == l.cx.bf16_type();
    let mut args = if bf16 { words(l, a)? } else { pairs(l, a)? };
    args.extend(if bf16 { words(l, b)? } else { pairs(l, b)? });
    for k in 0..4 {
        let at = l.i32().const_int(k, false);
        args.push(l.b.build_extract_element(c, at, "").llvm()?);
    }
    let ret =
        l.cx.struct_type(&[f32.into(), f32.into(), f32.into(), f32.into()], false);
    let name = if bf16 {
        "llvm.nvvm.mma.m16n8k16.row.col.bf16"
    } else {
        "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
    };
    let r = l
        .call(name, Some(ret.as_basic_type_enum()), &args)?
        .ok_or_else(|| l.err(op, "mma returned nothing"))?
        .into_struct_value();
    let mut d = f32.vec_type(4).get_poison();
    for k in 0..4 {
        let x = l.b.build_extract_value(r, k, "").llvm()?;
        let at = l.i32().const_int(u64::from(k), false);
        d = l.b.build_insert_element(d, x, at, "").llvm()?;
    }
    Ok(d.as_basic_value_enum())
}

/// Whether `op` is `mma.sync`'s integer form, m16n8k32 s8 x s8 + s32 (the
/// verifier admits no other shape of it).
fn s8_mma(l: &Lower<'_, '_>, op: Op) -> bool {
    aic_dialects::nvgpu::mma_shape(l.ir, op) == [16, 8, 32]
}

/// The 32-bit words of `v` (a fragment of bytes or of 32-bit integers).
fn i32_words<'ctx>(
    l: &Lower<'_, 'ctx>,
    v: VectorValue<'ctx>,
) -> Result<Vec<BasicValueEnum<'ctx>>, String> {
    let bytes = v.get_type().get_size()
        * v.get_type()
            .get_element_type()
            .into_int_type()
            .get_bit_width()
        / 8;
    let n = bytes / 4;
    let w = l.b.build_bit_cast(v, l.i32().vec_type(n), "").llvm()?;
    (0..n)
        .map(|k| {
            let at = l.i32().const_int(u64::from(k), false);
            l.b.build_extract_element(w.into_vector_value(), at, "")
                .llvm()
        })
        .collect()
}

/// `mma.sync` m16n8k32 s8: A's four words, B's two, C's four elements.
fn mma_sync_s8<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let i32t = l.i32();
    let mut args = i32_words(l, a)?;
    args.extend(i32_words(l, b)?);
    args.extend(i32_words(l, c)?);
    let ret = l.cx.struct_type(&[i32t.into(); 4], false);
    let r = l
        .call(
            "llvm.nvvm.mma.m16n8k32.row.col.s8",
            Some(ret.as_basic_type_enum()),
            &args,
        )?
        .ok_or_else(|| l.err(op, "mma returned nothing"))?
        .into_struct_value();
    let mut d = i32t.vec_type(4).get_poison();
    for k in 0..4 {
        let x = l.b.build_extract_value(r, k, "").llvm()?;
        let at = i32t.const_int(u64::from(k), false);
        d = l.b.build_insert_element(d, x, at, "").llvm()?;
    }
    Ok(d.as_basic_value_enum())
}

/// The fp8 formats of an fp8 `mma.sync` (m16n8k32 on e4m3/e5m2 bytes).
fn fp8_mma(l: &Lower<'_, '_>, op: Op) -> Option<(Fp8, Fp8)> {
    let (a, b) = aic_dialects::nvgpu::mma_fp8(l.ir, op)?;
    let f = |k| match k {
        FloatKind::F8E5M2 => Fp8::E5M2,
        _ => Fp8::E4M3FN,
    };
    Some((f(a), f(b)))
}

/// `mma.sync` m16n8k32 on fp8 (sm_89+): A's four words and B's two, as
/// s8's, and C's four f32 elements (PTX
/// `mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32` and its e5m2 forms).
fn mma_sync_fp8<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let (fa, fb) = fp8_mma(l, op).ok_or_else(|| l.err(op, "not an fp8 mma.sync"))?;
    let name = |f| match f {
        Fp8::E4M3FN => "e4m3",
        Fp8::E5M2 => "e5m2",
    };
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let f32t = l.f32();
    let mut args = i32_words(l, a)?;
    args.extend(i32_words(l, b)?);
    for k in 0..4 {
        let at = l.i32().const_int(k, false);
        args.push(l.b.build_extract_element(c, at, "").llvm()?);
    }
    let ret = l.cx.struct_type(&[f32t.into(); 4], false);
    let r = l
        .call(
            &format!(
                "llvm.nvvm.mma.m16n8k32.row.col.f32.{}.{}.f32",
                name(fa),
                name(fb)
            ),
            Some(ret.as_basic_type_enum()),
            &args,
        )?
        .ok_or_else(|| l.err(op, "mma returned nothing"))?
        .into_struct_value();
    let mut d = f32t.vec_type(4).get_poison();
    for k in 0..4 {
        let x = l.b.build_extract_value(r, k, "").llvm()?;
        let at = l.i32().const_int(u64::from(k), false);
        d = l.b.build_insert_element(d, x, at, "").llvm()?;
    }
    Ok(d.as_basic_value_enum())
}

/// `mma.sync` m16n8k32 s8 (or fp8) on the host: each lane leaves A's 16 bytes in
/// its slots 0 and 1 and B's 8 in slot 2; lane `l` then sums its elements
/// of D over k < 32 in i32, reading A's and B's elements from the lanes
/// that hold them by the fragment tables (`nvgpu::fragments`). The tables
/// move with the lane's group: A's row `r + g` and D's are held `4·g`
/// lanes on from row `r`'s, B's column `n + 2·t` `8·t` lanes on.
fn host_mma_sync_s8<'ctx>(l: &mut Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    use aic_dialects::nvgpu::fragments::{S8_A, S8_B, S32_C};
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    let i32t = l.i32();
    let i8t = l.cx.i8_type();
    let part = |k: u64| -> Vec<_> {
        (8 * k..8 * k + 8)
            .map(|i| i32t.const_int(i, false))
            .collect()
    };
    for (k, v, idx) in [(0, a, part(0)), (1, a, part(1)), (2, b, part(0))] {
        let mask = inkwell::types::VectorType::const_vector(&idx);
        let p = l.b.build_shuffle_vector(v, v, mask, "").llvm()?;
        let mine = l.host_slot(k, tid)?;
        l.b.build_store(mine, p).llvm()?;
    }
    l.barrier()?;
    let (lane, warp) = host_lane(l, op)?;
    let i64t = l.cx.i64_type();
    let c4 = i64t.const_int(4, false);
    let t = l.b.build_int_unsigned_rem(lane, c4, "").llvm()?;
    // 4·g (this lane's group's first lane) and 8·t, from the warp's start.
    let group = l.b.build_int_sub(lane, t, "").llvm()?;
    let group = l.b.build_int_add(warp, group, "").llvm()?;
    let c8 = i64t.const_int(8, false);
    let t8 = l.b.build_int_mul(t, c8, "").llvm()?;
    let t8 = l.b.build_int_add(warp, t8, "").llvm()?;
    // fp8: the bytes decode to f32 and the products add up in f32 (in k
    // order; the tensor cores' order of addition is unspecified).
    let fp8 = fp8_mma(l, op);
    // Byte `e` of the fragment that lane `src` keeps from slot `s` on, as
    // i32 (s8) or as the f32 it encodes (fp8 format `f`).
    let element = |l: &mut Lower<'_, 'ctx>,
                   s: u64,
                   src,
                   e: u64,
                   f: Option<Fp8>|
     -> Result<BasicValueEnum<'ctx>, String> {
        let p = l.host_slot(s + e / 8, src)?;
        // SAFETY (LLVM semantics): a slot holds eight bytes.
        let p = unsafe {
            l.b.build_in_bounds_gep(i8t, p, &[i64t.const_int(e % 8, false)], "")
                .llvm()?
        };
        let x = l.b.build_load(i8t, p, "").llvm()?.into_int_value();
        Ok(match f {
            Some(f) => crate::fp8::decode(l, f, x)?.into(),
            None => l.b.build_int_s_extend(x, i32t, "").llvm()?.into(),
        })
    };
    let mut d = c;
    for ci in 0..S32_C.elems.len() {
        let at = i32t.const_int(ci as u64, false);
        let mut acc = l.b.build_extract_element(c, at, "").llvm()?;
        // Lane 0's element (group 0, t = 0); this lane's is g rows and 2t
        // columns on.
        let (r, n) = S32_C.at(0, ci);
        for k in 0..S8_A.cols {
            let holders = S8_A.holder(r, k).zip(S8_B.holder(k, n));
            let Some(((la, ea), (lb, eb))) = holders else {
                return Err(l.err(op, "an mma.sync fragment table does not cover its tile"));
            };
            let src_a = add(l, group, la as u64)?;
            let x = element(l, 0, src_a, ea as u64, fp8.map(|f| f.0))?;
            let src_b = add(l, t8, lb as u64)?;
            let y = element(l, 2, src_b, eb as u64, fp8.map(|f| f.1))?;
            acc = if fp8.is_some() {
                let p =
                    l.b.build_float_mul(x.into_float_value(), y.into_float_value(), "")
                        .llvm()?;
                l.b.build_float_add(acc.into_float_value(), p, "")
                    .llvm()?
                    .into()
            } else {
                let p =
                    l.b.build_int_mul(x.into_int_value(), y.into_int_value(), "")
                        .llvm()?;
                l.b.build_int_add(acc.into_int_value(), p, "")
                    .llvm()?
                    .into()
            };
        }
        d = l.b.build_insert_element(d, acc, at, "").llvm()?;
    }
    l.barrier()?;
    Ok(d.as_basic_value_enum())
}

/// The address of `buf`, an operand of `op`.
fn buffer_ptr<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    buf: aic::ir::Value,
) -> Result<inkwell::values::PointerValue<'ctx>, String> {
    match l.val_of(op, buf)? {
        BasicValueEnum::PointerValue(p) => Ok(p),
        _ => Err(l.err(op, "not a buffer")),
    }
}

/// The address of element `idx` (one index) of `buf`, an operand of `op`.
fn element_ptr<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    buf: aic::ir::Value,
    idx: &[aic::ir::Value],
) -> Result<inkwell::values::PointerValue<'ctx>, String> {
    let base = buffer_ptr(l, op, buf)?;
    let [i] = idx else {
        return Err(l.err(op, "nvgpu copies address rank-1 memrefs, with one index"));
    };
    let i = match l.val_of(op, *i)? {
        BasicValueEnum::IntValue(i) => i,
        _ => return Err(l.err(op, "the index must be an integer")),
    };
    let elem = l.ir.type_kind(l.ir.value_type(buf)).element_type();
    let elem = l.ty(op, elem.ok_or_else(|| l.err(op, "not a memref"))?)?;
    // SAFETY (LLVM semantics): the kernel's contract keeps copies inside
    // their buffers.
    unsafe { l.b.build_in_bounds_gep(elem, base, &[i], "").llvm() }
}

fn async_copy(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    let (src, si, dst, di, src_elems) = aic_dialects::nvgpu::copy_operands(l.ir, op);
    let s = element_ptr(l, op, src, &si)?;
    let d = element_ptr(l, op, dst, &di)?;
    if d.get_type() != l.cx.ptr_type(AddressSpace::from(3u16))
        || s.get_type() != l.cx.ptr_type(AddressSpace::from(1u16))
    {
        return Err(l.err(op, "cp.async copies from global to shared memory only"));
    }
    let n = aic_dialects::nvgpu::dst_elements(l.ir, op);
    let elem = l.ir.type_kind(l.ir.value_type(dst)).element_type();
    let elem = elem.ok_or_else(|| l.err(op, "not a memref"))?;
    let width = aic_dialects::gpu::elem_bytes(l.ir, elem);
    let bytes = n * width;
    if ![4, 8, 16].contains(&bytes) {
        return Err(l.err(op, format!("cp.async copies 4, 8 or 16 bytes, not {bytes}")));
    }
    let size = match src_elems {
        Some(v) => match l.val_of(op, v)? {
            BasicValueEnum::IntValue(e) => {
                let b = l.i32();
                let e = l.b.build_int_truncate_or_bit_cast(e, b, "").llvm()?;
                let c = b.const_int(width as u64, false);
                l.b.build_int_mul(e, c, "").llvm()?
            }
            _ => return Err(l.err(op, "srcElements must be an integer")),
        },
        None => l.i32().const_int(bytes as u64, false),
    };
    let cache = if bytes == 16 && aic_dialects::nvgpu::bypass_l1(l.ir, op) {
        "cg"
    } else {
        "ca"
    };
    let name = format!("llvm.nvvm.cp.async.{cache}.shared.global.{bytes}.s");
    l.call(&name, None, &[d.into(), s.into(), size.into()])?;
    Ok(())
}

/// Whether the target is NVIDIA's sm_90a, the one with wgmma.
fn sm90a(l: &Lower<'_, '_>) -> bool {
    matches!(l.target, Target::Nvptx { .. }) && l.target.arch() == "sm_90a"
}

/// The wgmma synchronisation ops and the proxy fence.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sync {
    Fence,
    Commit,
    Wait,
    FenceProxy,
}

/// A wgmma synchronisation op or the proxy fence; on the host, a wait is
/// a barrier of the warpgroup and the others are nothing.
fn wgmma_sync(l: &mut Lower<'_, '_>, op: Op, s: Sync) -> Result<(), String> {
    if nvidia(l, op)? {
        // The threads of a warpgroup leave a wait together, as on the GPU
        // (`.sync.aligned`): what one thread does after it (an mbarrier
        // arrival for its warp, say) may speak for the others.
        if s == Sync::Wait && l.threads > 1 {
            l.host_barrier(crate::emit::HOST_WARPGROUP_BARRIER)?;
        }
        return Ok(());
    }
    if s != Sync::FenceProxy && !sm90a(l) {
        return Err(l.err(
            op,
            format!(
                "'{}' needs --arch=sm_90a, not {}",
                l.ir.op_name(op),
                l.target.arch()
            ),
        ));
    }
    match s {
        Sync::Fence => {
            l.call("llvm.nvvm.wgmma.fence.sync.aligned", None, &[])?;
        }
        Sync::Commit => {
            l.call("llvm.nvvm.wgmma.commit_group.sync.aligned", None, &[])?;
        }
        Sync::Wait => {
            let n = aic_dialects::nvvm::group(l.ir, op);
            let n = l.cx.i64_type().const_int(n as u64, false);
            l.call("llvm.nvvm.wgmma.wait_group.sync.aligned", None, &[n.into()])?;
        }
        Sync::FenceProxy => {
            l.call("llvm.nvvm.fence.proxy.async.shared_cta", None, &[])?;
        }
    }
    Ok(())
}

/// `setmaxregister`: `setmaxnreg.{inc,dec}.sync.aligned.u32` on sm_90a;
/// nothing on the host, whose threads have no register file to share.
fn set_max_register(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    if nvidia(l, op)? {
        return Ok(());
    }
    if !sm90a(l) {
        return Err(l.err(
            op,
            format!(
                "'nvvm.setmaxregister' needs --arch=sm_90a, not {}",
                l.target.arch()
            ),
        ));
    }
    let s = nvvm::SetMaxRegister(op);
    let way = match s.action(l.ir) {
        Some(nvvm::SetMaxRegisterAction::Increase) => "inc",
        _ => "dec",
    };
    let n = nvvm::reg_count(l.ir, op);
    let n = l.i32().const_int(n as u64, false);
    l.call(
        &format!("llvm.nvvm.setmaxnreg.{way}.sync.aligned.u32"),
        None,
        &[n.into()],
    )?;
    Ok(())
}

/// A named barrier: `bar.sync id, n` (`barrier.cta.sync.aligned.count`),
/// or where `arrive` `bar.arrive id, n` (`barrier.cta.arrive.aligned.count`);
/// on the host the block's named barrier `id` of `n` threads, waited at or
/// arrived on.
fn named_barrier(l: &mut Lower<'_, '_>, op: Op, arrive: bool) -> Result<(), String> {
    let host = nvidia(l, op)?;
    let (id, n) = (l.int_operand(op, 0)?, l.int_operand(op, 1)?);
    if host {
        let f = if arrive {
            crate::emit::HOST_NAMED_ARRIVE
        } else {
            crate::emit::HOST_NAMED_BARRIER
        };
        return l.host_barrier_of(f, &[id, n]);
    }
    let way = if arrive { "arrive" } else { "sync" };
    l.call(
        &format!("llvm.nvvm.barrier.cta.{way}.aligned.count"),
        None,
        &[id.into(), n.into()],
    )?;
    Ok(())
}

/// `warpgroup.generate.descriptor`: the matrix's shared address (on the
/// host, its offset from the block's shared memory) and strides, each
/// `(x & 0x3FFFF) >> 4`, at bits 0, 16 and 32, and the swizzle mode (1:
/// 128 bytes) at bit 62.
///
/// The low word is built as the buffer's part (its address and the leading
/// offset: the same for every descriptor of the buffer, computed once where
/// LLVM hoists it) plus the index's bytes >> 4, in 32 bits; the high word is
/// a constant. A loop's descriptors then cost a shift and an add each
/// instead of four 64-bit operations (the whole address masked, shifted and
/// or-ed). Exact: wgmma's matrices start at multiples of 16 bytes in shared
/// memory of at most 2^18 bytes, so the sum never carries past bit 13.
fn descriptor<'ctx>(l: &mut Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let ops = l.ir.operands(op).to_vec();
    let base = buffer_ptr(l, op, ops[0])?;
    let at = element_ptr(l, op, ops[0], &ops[1..])?;
    let (i32t, i64t) = (l.i32(), l.cx.i64_type());
    let c64 = |v: u64| i64t.const_int(v, false);
    let c32 = |v: u64| i32t.const_int(v, false);
    let mut addr = l.b.build_ptr_to_int(base, i64t, "").llvm()?;
    // The index's bytes (LLVM folds the difference to index · width).
    let at = l.b.build_ptr_to_int(at, i64t, "").llvm()?;
    let bytes = l.b.build_int_sub(at, addr, "").llvm()?;
    if matches!(l.target, Target::Host) {
        let shared = l.shared_base()?;
        let shared = l.b.build_ptr_to_int(shared, i64t, "").llvm()?;
        addr = l.b.build_int_sub(addr, shared, "").llvm()?;
    }
    let enc = |v: i64| ((v as u64) & 0x3FFFF) >> 4;
    let nv = aic_dialects::nvgpu::int;
    let (lbo, sbo) = (
        enc(nv(l.ir, op, "leadingByteOffset")),
        enc(nv(l.ir, op, "strideByteOffset")),
    );
    // The buffer's part of the low word.
    let start = l.b.build_and(addr, c64(0x3FFFF), "").llvm()?;
    let start = l.b.build_right_shift(start, c64(4), false, "").llvm()?;
    let start = l.b.build_int_truncate(start, i32t, "").llvm()?;
    let lo_base = l.b.build_or(start, c32(lbo << 16), "").llvm()?;
    // Plus the index's bytes >> 4.
    let bytes = l.b.build_int_truncate(bytes, i32t, "").llvm()?;
    let off = l.b.build_right_shift(bytes, c32(4), false, "").llvm()?;
    let lo = l.b.build_int_nuw_add(lo_base, off, "").llvm()?;
    let lo = l.b.build_int_z_extend(lo, i64t, "").llvm()?;
    let hi = (sbo << 32) | (1 << 62);
    Ok(l.b.build_or(lo, c64(hi), "").llvm()?.into())
}

/// `warpgroup.mma` as inline PTX: the accumulator's N/2 registers as
/// outputs tied to the inputs (what "+f" means), then the descriptors;
/// scale-d 1 (accumulate), A and B unscaled, A K-major, B N-major with
/// `transposeB`. `warpgroup.mma.register_a` passes A as its four
/// registers of two halves each (`{a0, a1, a2, a3}`, PTX's form without
/// A's transpose immediate).
fn wgmma<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    if !sm90a(l) {
        return Err(l.err(
            op,
            format!(
                "'{}' needs --arch=sm_90a, not {}",
                l.ir.op_name(op),
                l.target.arch()
            ),
        ));
    }
    let c = vector(l, op, 2)?;
    let k = c.get_type().get_size();
    let n = aic_dialects::nvgpu::wgmma_n(l.ir, op);
    let reg_a = aic_dialects::nvgpu::wgmma_register_a(l.ir, op);
    let db = operand(l, op, 1)?;
    let f32 = l.f32();
    let i32t = l.i32();
    let regs: Vec<String> = (0..k).map(|i| format!("${i}")).collect();
    let tb = u8::from(aic_dialects::nvgpu::transpose_b(l.ir, op));
    // The types of A and B (fp8's k32 form, or f16/bf16's k16).
    let name = |f: FloatKind| match f {
        FloatKind::F8E5M2 => "e5m2",
        _ => "e4m3",
    };
    let (kk, type_a, type_b) = match aic_dialects::nvgpu::wgmma_fp8(l.ir, op) {
        Some((a, b)) => (32, name(a), name(b)),
        None if aic_dialects::nvgpu::wgmma_bf16(l.ir, op) => (16, "bf16", "bf16"),
        None => (16, "f16", "f16"),
    };
    // A's operands (four i32 pairs of halves, or the descriptor), then B's.
    let mut a_args: Vec<inkwell::values::BasicMetadataValueEnum> = Vec::new();
    let (a_text, a_cons, imm) = if reg_a {
        let a = vector(l, op, 0)?;
        let pairs = l.b.build_bit_cast(a, i32t.vec_type(4), "").llvm()?;
        for i in 0..4u64 {
            let at = i32t.const_int(i, false);
            let x = l.b.build_extract_element(pairs.into_vector_value(), at, "");
            a_args.push(x.llvm()?.into());
        }
        let text = format!("{{${}, ${}, ${}, ${}}}", k, k + 1, k + 2, k + 3);
        (text, vec!["r"; 4], format!(", {tb}"))
    } else {
        a_args.push(operand(l, op, 0)?.into());
        // The 8-bit forms take no transpose immediates.
        let imm = if kk == 32 {
            String::new()
        } else {
            format!(", 0, {tb}")
        };
        (format!("${k}"), vec!["l"], imm)
    };
    let b_at = k + a_args.len() as u32;
    // A zero accumulator (a gemm's first k step) is not read: scale-d 0
    // makes D = A·B, and its registers need no zeros moved into them.
    let fresh = c.is_null();
    let scale_d = u8::from(!fresh);
    let asm = format!(
        "{{\n.reg .pred p;\nsetp.ne.b32 p, {scale_d}, 0;\nwgmma.mma_async.sync.aligned.m64n{n}k{kk}.f32.{type_a}.{type_b} {{{}}}, {a_text}, ${b_at}, p, 1, 1{imm};\n}}",
        regs.join(", "),
    );
    let mut cons: Vec<String> = (0..k).map(|_| "=f".to_string()).collect();
    cons.extend(a_cons.iter().map(|c| c.to_string()));
    cons.push("l".to_string());
    cons.extend((0..k).map(|i| i.to_string()));
    let fields: Vec<BasicTypeEnum> = (0..k).map(|_| f32.into()).collect();
    let ret = l.cx.struct_type(&fields, false);
    let mut params: Vec<inkwell::types::BasicMetadataTypeEnum> = if reg_a {
        vec![i32t.into(); 4]
    } else {
        vec![l.cx.i64_type().into()]
    };
    params.push(l.cx.i64_type().into());
    params.extend((0..k).map(|_| inkwell::types::BasicMetadataTypeEnum::from(f32)));
    let fty = ret.fn_type(&params, false);
    let f =
        l.cx.create_inline_asm(fty, asm, cons.join(","), true, false, None, false);
    let mut args = a_args;
    args.push(db.into());
    for i in 0..k {
        let at = l.i32().const_int(u64::from(i), false);
        let x = if fresh {
            f32.get_poison().into()
        } else {
            l.b.build_extract_element(c, at, "").llvm()?
        };
        args.push(x.into());
    }
    let r =
        l.b.build_indirect_call(fty, f, &args, "")
            .llvm()?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| l.err(op, "wgmma returned nothing"))?
            .into_struct_value();
    let mut d = c.get_type().get_poison();
    for i in 0..k {
        let x = l.b.build_extract_value(r, i, "").llvm()?;
        let at = l.i32().const_int(u64::from(i), false);
        d = l.b.build_insert_element(d, x, at, "").llvm()?;
    }
    Ok(d.into())
}

// ------------------------------------------------------------ host emulation

/// This thread's lane in its warp of 32, and the warp's first thread.
fn host_lane<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
) -> Result<(IntValue<'ctx>, IntValue<'ctx>), String> {
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    let c32 = l.cx.i64_type().const_int(32, false);
    let lane = l.b.build_int_unsigned_rem(tid, c32, "").llvm()?;
    Ok((lane, l.b.build_int_sub(tid, lane, "").llvm()?))
}

/// `a + c` for a constant `c`.
fn add<'ctx>(l: &Lower<'_, 'ctx>, a: IntValue<'ctx>, c: u64) -> Result<IntValue<'ctx>, String> {
    let c = l.cx.i64_type().const_int(c, false);
    l.b.build_int_add(a, c, "").llvm()
}

/// `ldmatrix`: each lane leaves the address of the row it names in its
/// slot 0; lanes `8·m..8·m + 8` name matrix `m`'s rows. Lane `l` then
/// takes, of each matrix, row `l / 4`'s elements `2·(l % 4) + j`, or with
/// `transpose` column `l / 4`'s.
fn host_ldmatrix<'ctx>(l: &mut Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let ops = l.ir.operands(op).to_vec();
    let at = element_ptr(l, op, ops[0], &ops[1..])?;
    let i64t = l.cx.i64_type();
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    let word = l.b.build_ptr_to_int(at, i64t, "").llvm()?;
    let mine = l.host_slot(0, tid)?;
    l.b.build_store(mine, word).llvm()?;
    l.barrier()?;
    let (lane, warp) = host_lane(l, op)?;
    let c4 = i64t.const_int(4, false);
    let (g, q) = (
        l.b.build_int_unsigned_div(lane, c4, "").llvm()?,
        l.b.build_int_unsigned_rem(lane, c4, "").llvm()?,
    );
    let q2 = l.b.build_int_add(q, q, "").llvm()?;
    let ty = l.ty(op, l.ir.value_type(l.ir.result(op, 0)))?;
    let BasicTypeEnum::VectorType(vt) = ty else {
        return Err(l.err(op, "ldmatrix gives a vector"));
    };
    let elem = vt.get_element_type();
    let trans = aic_dialects::nvgpu::transpose(l.ir, op);
    let mut v = vt.get_poison();
    for m in 0..aic_dialects::nvgpu::num_tiles(l.ir, op) as u64 {
        for j in 0..2 {
            // The lane naming the row, and the element of that row.
            let (row, col) = if trans {
                (add(l, q2, j)?, g)
            } else {
                (g, add(l, q2, j)?)
            };
            let src = l.b.build_int_add(warp, row, "").llvm()?;
            let src = add(l, src, 8 * m)?;
            let slot = l.host_slot(0, src)?;
            let word = l.b.build_load(i64t, slot, "").llvm()?.into_int_value();
            let p = l.b.build_int_to_ptr(word, at.get_type(), "").llvm()?;
            // SAFETY (LLVM semantics): the lanes name rows of 8 elements
            // inside the view, as the op's contract requires.
            let p = unsafe { l.b.build_in_bounds_gep(elem, p, &[col], "").llvm()? };
            let x = l.b.build_load(elem, p, "").llvm()?;
            let k = l.i32().const_int(2 * m + j, false);
            v = l.b.build_insert_element(v, x, k, "").llvm()?;
        }
    }
    l.barrier()?;
    Ok(v.into())
}

/// `mma.sync` m16n8k16: each lane leaves A's 8 halves in its slots 0 and
/// 1 and B's 4 in slot 2; lane `l` (group `g = l / 4`, `t = l % 4`) then
/// sums its elements of D, `(g + 8·(c / 2), 2·t + c % 2)`, over k, reading
/// A's `(r, k)` from lane `4·(r % 8) + (k % 8) / 2`, element `2·(r / 8 +
/// 2·(k / 8)) + k % 2`, and B's `(k, n)` from lane `4·n + (k % 8) / 2`,
/// element `2·(k / 8) + k % 2`.
fn host_mma_sync<'ctx>(l: &mut Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let f32 = l.f32();
    let Some(f16) = mma_halves(l, a, b, c) else {
        return Err(l.err(
            op,
            "nvgpu.mma.sync is emulated for f16 or bf16 fragments with an f32 accumulator only",
        ));
    };
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    let i32t = l.i32();
    let half = |k: u64| -> Vec<_> {
        (4 * k..4 * k + 4)
            .map(|i| i32t.const_int(i, false))
            .collect()
    };
    for (k, v, idx) in [(0, a, half(0)), (1, a, half(1)), (2, b, half(0))] {
        let mask = inkwell::types::VectorType::const_vector(&idx);
        let part = l.b.build_shuffle_vector(v, v, mask, "").llvm()?;
        let mine = l.host_slot(k, tid)?;
        l.b.build_store(mine, part).llvm()?;
    }
    l.barrier()?;
    let (lane, warp) = host_lane(l, op)?;
    let i64t = l.cx.i64_type();
    let c4 = i64t.const_int(4, false);
    let t = l.b.build_int_unsigned_rem(lane, c4, "").llvm()?;
    // Lane 4·g, the first of this lane's group (A's rows g and g + 8).
    let group = l.b.build_int_sub(lane, t, "").llvm()?;
    let group = l.b.build_int_add(warp, group, "").llvm()?;
    let t2 = l.b.build_int_add(t, t, "").llvm()?;
    // Element `e` of the fragment that `src`'s slot `s` holds, in f32.
    let element =
        |l: &mut Lower<'_, 'ctx>, s: u64, src, e: u64| -> Result<FloatValue<'ctx>, String> {
            let p = l.host_slot(s, src)?;
            // SAFETY (LLVM semantics): a slot holds four halves.
            let p = unsafe {
                l.b.build_in_bounds_gep(f16, p, &[i64t.const_int(e, false)], "")
                    .llvm()?
            };
            let x = l.b.build_load(f16, p, "").llvm()?.into_float_value();
            l.b.build_float_ext(x, f32, "").llvm()
        };
    let mut d = c;
    for ci in 0..4u64 {
        let at = i32t.const_int(ci, false);
        let mut acc =
            l.b.build_extract_element(c, at, "")
                .llvm()?
                .into_float_value();
        // Column n = 2·t + c % 2: B's lanes 4·n + ..., from the warp's start.
        let n = add(l, t2, ci % 2)?;
        let bl = l.b.build_int_mul(n, c4, "").llvm()?;
        let bl = l.b.build_int_add(warp, bl, "").llvm()?;
        for k in 0..16u64 {
            let ea = 2 * (ci / 2 + 2 * (k / 8)) + k % 2;
            let la = add(l, group, (k % 8) / 2)?;
            let x = element(l, ea / 4, la, ea % 4)?;
            let lb = add(l, bl, (k % 8) / 2)?;
            let y = element(l, 2, lb, 2 * (k / 8) + k % 2)?;
            let p = l.b.build_float_mul(x, y, "").llvm()?;
            acc = l.b.build_float_add(acc, p, "").llvm()?;
        }
        d = l.b.build_insert_element(d, acc, at, "").llvm()?;
    }
    l.barrier()?;
    Ok(d.as_basic_value_enum())
}

/// `device_async_copy` at once: element `i` of `dstElements` is the
/// source's below `srcElements` (all when absent), else zero; a skipped
/// element reads the destination instead, which is in bounds.
fn host_async_copy(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    let (src, si, dst, di, src_elems) = aic_dialects::nvgpu::copy_operands(l.ir, op);
    let s = element_ptr(l, op, src, &si)?;
    let d = element_ptr(l, op, dst, &di)?;
    let n = aic_dialects::nvgpu::dst_elements(l.ir, op) as u64;
    let elem = l.ir.type_kind(l.ir.value_type(dst)).element_type();
    let elem = l.ty(op, elem.ok_or_else(|| l.err(op, "not a memref"))?)?;
    let limit = match src_elems {
        Some(v) => match l.val_of(op, v)? {
            BasicValueEnum::IntValue(e) => Some(e),
            _ => return Err(l.err(op, "srcElements must be an integer")),
        },
        None => None,
    };
    let i64t = l.cx.i64_type();
    for i in 0..n {
        let at = i64t.const_int(i, false);
        // SAFETY (LLVM semantics): the copy lies in both buffers, as the
        // op's contract requires (reads past srcElements are redirected).
        let (ps, pd) = unsafe {
            (
                l.b.build_in_bounds_gep(elem, s, &[at], "").llvm()?,
                l.b.build_in_bounds_gep(elem, d, &[at], "").llvm()?,
            )
        };
        let x = match limit {
            None => l.b.build_load(elem, ps, "").llvm()?,
            Some(e) => {
                let e = l.b.build_int_z_extend_or_bit_cast(e, i64t, "").llvm()?;
                let ok =
                    l.b.build_int_compare(inkwell::IntPredicate::ULT, at, e, "")
                        .llvm()?;
                let p = l.b.build_select(ok, ps, pd, "").llvm()?;
                let x = l.b.build_load(elem, p.into_pointer_value(), "").llvm()?;
                let zero = elem.const_zero();
                l.b.build_select(ok, x, zero, "").llvm()?
            }
        };
        l.b.build_store(pd, x).llvm()?;
    }
    Ok(())
}

/// `warpgroup.mma` m64nNk16 on the host: thread `t` of its warpgroup (warp
/// `w = t / 32 % 4`, lane `l`) adds to its element `i` of D, at row
/// `16·w + l/4 + 8·(i/2 % 2)` and column `8·(i/4) + 2·(l%4) + i%2`, the products
/// of A's row and B's column over k < 16, each element read where the
/// descriptors place it. A descriptor (PTX ISA, "matrix descriptor") holds
/// the start address, the leading and the stride byte offsets, each >> 4,
/// in bits 0-13, 16-29 and 32-45, and the swizzle mode in 62-63. With
/// 128-byte swizzling the matrix is made of atoms of 8 rows of 128 bytes
/// (rows along the strided dim); K-major (A; B without transposeB): row
/// `r` of the M or N dim is at `(r / 8)·SBO + (r % 8)·128`, k at `2·k`
/// within it (the leading offset unused); N-major (B with transposeB):
/// columns n run along the 128-byte rows, 64 to an atom, atoms `LBO`
/// apart, k at `(k / 8)·SBO + (k % 8)·128`. The swizzle then moves the
/// 16-byte chunk of each address: bits 4-6 are xor-ed with bits 7-9 (the
/// row within the 1024-byte pattern). `warpgroup.mma.register_a` reads
/// A from its warp's registers instead, exchanged as `mma.sync`'s are
/// ([`host_mma_sync`]): each thread leaves its 8 halves in its slots 0
/// and 1, and A's `(r, k)` is element `2·(r % 16 / 8 + 2·(k / 8)) + k %
/// 2` of lane `4·(r % 8) + (k % 8) / 2` of warp `r / 16` (this thread's).
fn host_wgmma<'ctx>(l: &mut Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let c = vector(l, op, 2)?;
    let k = u64::from(c.get_type().get_size());
    let reg_a = aic_dialects::nvgpu::wgmma_register_a(l.ir, op);
    let db = operand(l, op, 1)?.into_int_value();
    // A register A's descriptor is unused: a zero stands in.
    let da = if reg_a {
        l.cx.i64_type().const_zero()
    } else {
        operand(l, op, 0)?.into_int_value()
    };
    let trans_b = aic_dialects::nvgpu::transpose_b(l.ir, op);
    let i64t = l.cx.i64_type();
    let f32 = l.f32();
    let f16 = if aic_dialects::nvgpu::wgmma_bf16(l.ir, op) {
        l.cx.bf16_type()
    } else {
        l.cx.f16_type()
    };
    // fp8 (k32): bytes decoded to f32; else k16 of 2-byte halves.
    let fp8 = aic_dialects::nvgpu::wgmma_fp8(l.ir, op).map(|(a, b)| {
        let f = |k| match k {
            FloatKind::F8E5M2 => Fp8::E5M2,
            _ => Fp8::E4M3FN,
        };
        (f(a), f(b))
    });
    let (depth, bytes) = if fp8.is_some() {
        (32u64, 1u64)
    } else {
        (16, 2)
    };
    let cst = |v: u64| i64t.const_int(v, false);
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    if reg_a {
        let a = vector(l, op, 0)?;
        let i32t = l.i32();
        for s in 0..2u64 {
            let idx: Vec<_> = (4 * s..4 * s + 4)
                .map(|i| i32t.const_int(i, false))
                .collect();
            let mask = inkwell::types::VectorType::const_vector(&idx);
            let part = l.b.build_shuffle_vector(a, a, mask, "").llvm()?;
            let mine = l.host_slot(s, tid)?;
            l.b.build_store(mine, part).llvm()?;
        }
        // The warpgroup's threads only (wgmma is the warpgroup's): a
        // warp-specialised kernel's producer warpgroup does not come.
        l.host_barrier(crate::emit::HOST_WARPGROUP_BARRIER)?;
    }
    let base = l.shared_base()?;
    // The accumulator in memory, updated element by element in a loop.
    let acc = l.allocas.build_alloca(c.get_type(), "").llvm()?;
    l.b.build_store(acc, c).llvm()?;
    // A descriptor's field: `(d >> at) & 0x3FFF`, in bytes (<< 4).
    let field = |l: &Lower<'_, 'ctx>, d: IntValue<'ctx>, at: u64| -> Result<_, String> {
        let x = l.b.build_right_shift(d, cst(at), false, "").llvm()?;
        let x = l.b.build_and(x, cst(0x3FFF), "").llvm()?;
        l.b.build_left_shift(x, cst(4), "").llvm()
    };
    let (start_a, sbo_a) = (field(l, da, 0)?, field(l, da, 32)?);
    let (start_b, lbo_b, sbo_b) = (field(l, db, 0)?, field(l, db, 16)?, field(l, db, 32)?);
    let bin = |l: &Lower<'_, 'ctx>, f: &str, a: IntValue<'ctx>, b: IntValue<'ctx>| {
        match f {
            "+" => l.b.build_int_add(a, b, ""),
            "*" => l.b.build_int_mul(a, b, ""),
            "/" => l.b.build_int_unsigned_div(a, b, ""),
            "%" => l.b.build_int_unsigned_rem(a, b, ""),
            _ => l.b.build_xor(a, b, ""),
        }
        .llvm()
    };
    let lane = bin(l, "%", tid, cst(32))?;
    let warp = bin(l, "/", tid, cst(32))?;
    let w = bin(l, "%", warp, cst(4))?;
    // The swizzled byte of `addr` in the block's shared memory.
    let swizzled = |l: &Lower<'_, 'ctx>, addr: IntValue<'ctx>| -> Result<_, String> {
        let row = l.b.build_right_shift(addr, cst(7), false, "").llvm()?;
        let row = l.b.build_and(row, cst(7), "").llvm()?;
        let row = l.b.build_left_shift(row, cst(4), "").llvm()?;
        let addr = l.b.build_xor(addr, row, "").llvm()?;
        // SAFETY (LLVM semantics): the descriptors name matrices inside the
        // block's shared memory, as the op's contract requires.
        unsafe {
            l.b.build_in_bounds_gep(l.cx.i8_type(), base, &[addr], "")
                .llvm()
        }
    };
    // for i in 0..k: the loop's blocks.
    let f =
        l.b.get_insert_block()
            .and_then(|b| b.get_parent())
            .ok_or_else(|| l.err(op, "no function"))?;
    let pre = l.b.get_insert_block().expect("a block");
    let (head, done) = (
        l.cx.append_basic_block(f, "wgmma"),
        l.cx.append_basic_block(f, "wgmma.done"),
    );
    l.b.build_unconditional_branch(head).llvm()?;
    l.b.position_at_end(head);
    let i = l.b.build_phi(i64t, "").llvm()?;
    i.add_incoming(&[(&cst(0), pre)]);
    let iv = i.as_basic_value().into_int_value();
    // Row and column of element i.
    let q = bin(l, "/", iv, cst(2))?;
    let q = bin(l, "%", q, cst(2))?;
    let row = bin(l, "*", w, cst(16))?;
    let g = bin(l, "/", lane, cst(4))?;
    let row = bin(l, "+", row, g)?;
    let q8 = bin(l, "*", q, cst(8))?;
    let row = bin(l, "+", row, q8)?;
    let col = bin(l, "/", iv, cst(4))?;
    let col = bin(l, "*", col, cst(8))?;
    let t4 = bin(l, "%", lane, cst(4))?;
    let t2 = bin(l, "*", t4, cst(2))?;
    let col = bin(l, "+", col, t2)?;
    let odd = bin(l, "%", iv, cst(2))?;
    let col = bin(l, "+", col, odd)?;
    // Where row r of a K-major operand starts: (r / 8)·SBO + (r % 8)·128.
    let k_major = |l: &Lower<'_, 'ctx>, start, r, sbo| -> Result<IntValue<'ctx>, String> {
        let r8 = bin(l, "/", r, cst(8))?;
        let at = bin(l, "*", r8, sbo)?;
        let at = bin(l, "+", start, at)?;
        let rr = bin(l, "%", r, cst(8))?;
        let rr = bin(l, "*", rr, cst(128))?;
        bin(l, "+", at, rr)
    };
    let a_row = k_major(l, start_a, row, sbo_a)?;
    let b_line = if trans_b {
        // Column n: atom n / 64 (LBO apart), byte 2·(n % 64) of a row
        // (16-bit types only: the 8-bit forms have no transposeB).
        let atom = bin(l, "/", col, cst(64))?;
        let at = bin(l, "*", atom, lbo_b)?;
        let at = bin(l, "+", start_b, at)?;
        let nn = bin(l, "%", col, cst(64))?;
        let nn = bin(l, "*", nn, cst(2))?;
        bin(l, "+", at, nn)?
    } else {
        k_major(l, start_b, col, sbo_b)?
    };
    // SAFETY (LLVM semantics): i < k, the accumulator's length.
    let slot = unsafe { l.b.build_in_bounds_gep(f32, acc, &[iv], "").llvm()? };
    let mut sum = l.b.build_load(f32, slot, "").llvm()?.into_float_value();
    // Register A: the first lane of this row's quad group in its warp.
    let quad = if reg_a {
        let g4 = bin(l, "*", g, cst(4))?;
        let first = l.b.build_int_sub(tid, lane, "").llvm()?;
        Some(bin(l, "+", first, g4)?)
    } else {
        None
    };
    // An element's value as f32: a half widened, an fp8 byte decoded.
    let load = |l: &mut Lower<'_, 'ctx>, p, which: usize| -> Result<FloatValue<'ctx>, String> {
        match fp8 {
            Some((fa, fb)) => {
                let f = if which == 0 { fa } else { fb };
                let x =
                    l.b.build_load(l.cx.i8_type(), p, "")
                        .llvm()?
                        .into_int_value();
                crate::fp8::decode(l, f, x)
            }
            None => {
                let x = l.b.build_load(f16, p, "").llvm()?.into_float_value();
                l.b.build_float_ext(x, f32, "").llvm()
            }
        }
    };
    for kk in 0..depth {
        let a_at = bin(l, "+", a_row, cst(kk * bytes))?;
        let x = match quad {
            Some(first) => {
                // Element 2·(q + 2·(k / 8)) + k % 2, q = 1 for rows g + 8.
                let ev = bin(l, "*", q, cst(2))?;
                let ev = bin(l, "+", ev, cst(4 * (kk / 8) + kk % 2))?;
                let src = bin(l, "+", first, cst((kk % 8) / 2))?;
                let slot = l.b.build_int_unsigned_div(ev, cst(4), "").llvm()?;
                let within = bin(l, "%", ev, cst(4))?;
                let (p0, p1) = (l.host_slot(0, src)?, l.host_slot(1, src)?);
                let one =
                    l.b.build_int_compare(inkwell::IntPredicate::NE, slot, cst(0), "")
                        .llvm()?;
                let p =
                    l.b.build_select(one, p1, p0, "")
                        .llvm()?
                        .into_pointer_value();
                // SAFETY (LLVM semantics): a slot holds four halves.
                let p = unsafe { l.b.build_in_bounds_gep(f16, p, &[within], "").llvm()? };
                let x = l.b.build_load(f16, p, "").llvm()?.into_float_value();
                l.b.build_float_ext(x, f32, "").llvm()?
            }
            None => {
                let pa = swizzled(l, a_at)?;
                load(l, pa, 0)?
            }
        };
        let b_at = if trans_b {
            let kb = bin(l, "*", cst(kk / 8), sbo_b)?;
            let kb = bin(l, "+", kb, cst((kk % 8) * 128))?;
            bin(l, "+", b_line, kb)?
        } else {
            bin(l, "+", b_line, cst(kk * bytes))?
        };
        let pb = swizzled(l, b_at)?;
        let y = load(l, pb, 1)?;
        let p = l.b.build_float_mul(x, y, "").llvm()?;
        sum = l.b.build_float_add(sum, p, "").llvm()?;
    }
    l.b.build_store(slot, sum).llvm()?;
    let next = bin(l, "+", iv, cst(1))?;
    let more =
        l.b.build_int_compare(inkwell::IntPredicate::ULT, next, cst(k), "")
            .llvm()?;
    let end = l.b.get_insert_block().expect("a block");
    i.add_incoming(&[(&next, end)]);
    l.b.build_conditional_branch(more, head, done).llvm()?;
    l.b.position_at_end(done);
    let d = l.b.build_load(c.get_type(), acc, "").llvm()?;
    if reg_a {
        // Every thread has read its warp's A before a slot changes again.
        l.host_barrier(crate::emit::HOST_WARPGROUP_BARRIER)?;
    }
    Ok(d)
}
