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
//! | `nvgpu.device_async_copy` of 4, 8 or 16 bytes | `llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}.s` (PTX `cp.async`; `cg`, which bypasses L1, for 16 bytes with `bypassL1`), the source size `srcElements` bytes or all |
//! | `nvgpu.device_async_create_group` | `llvm.nvvm.cp.async.commit.group` |
//! | `nvgpu.device_async_wait` | `llvm.nvvm.cp.async.wait.group` of `numGroups` |
//!
//! Tokens are `i32` zeros: the hardware counts a thread's groups itself.
//!
//! They need sm_80 or later (every NVIDIA architecture aic-llvm knows); on
//! AMDGPU and the host, `nvgpu` ops are errors.

use crate::emit::{Llvm, Lower};
use crate::target::Target;
use aic::ir::Op;
use inkwell::AddressSpace;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValue, BasicValueEnum, VectorValue};

/// Translates `op`, an `nvgpu.*` or `vector.*` op named `name`.
pub(crate) fn op(l: &mut Lower<'_, '_>, op: Op, name: &str) -> Result<(), String> {
    if name.starts_with("nvgpu.") && !matches!(l.target, Target::Nvptx { .. }) {
        return Err(l.err(
            op,
            format!(
                "'{name}' runs on NVIDIA tensor cores only (--target=nvptx), not on {}",
                l.target.name()
            ),
        ));
    }
    match name {
        "nvgpu.device_async_copy" => {
            async_copy(l, op)?;
            let r = l.ir.result(op, 0);
            l.set_value(r, l.i32().const_zero().into());
            return Ok(());
        }
        "nvgpu.device_async_create_group" => {
            l.call("llvm.nvvm.cp.async.commit.group", None, &[])?;
            let r = l.ir.result(op, 0);
            l.set_value(r, l.i32().const_zero().into());
            return Ok(());
        }
        "nvgpu.device_async_wait" => {
            let n = aic_dialects::nvgpu::num_groups(l.ir, op);
            let n = l.i32().const_int(n as u64, false);
            l.call("llvm.nvvm.cp.async.wait.group", None, &[n.into()])?;
            return Ok(());
        }
        _ => {}
    }
    let v = match name {
        "vector.from_elements" => from_elements(l, op)?,
        "vector.extract" => extract(l, op)?,
        "nvgpu.ldmatrix" => ldmatrix(l, op)?,
        "nvgpu.mma.sync" => mma_sync(l, op)?,
        _ => return Err(l.err_cannot(op)),
    };
    let r = l.ir.result(op, 0);
    l.set_value(r, v);
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
    let src = l.ir.operands(op)[0];
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

fn mma_sync<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let f16 = l.cx.f16_type();
    let f32 = l.f32();
    if a.get_type() != f16.vec_type(8)
        || b.get_type() != f16.vec_type(4)
        || c.get_type() != f32.vec_type(4)
    {
        return Err(l.err(
            op,
            "nvgpu.mma.sync is translated for f16 fragments with an f32 accumulator only",
        ));
    }
    let mut args = pairs(l, a)?;
    args.extend(pairs(l, b)?);
    for k in 0..4 {
        let at = l.i32().const_int(k, false);
        args.push(l.b.build_extract_element(c, at, "").llvm()?);
    }
    let ret =
        l.cx.struct_type(&[f32.into(), f32.into(), f32.into(), f32.into()], false);
    let r = l
        .call(
            "llvm.nvvm.mma.m16n8k16.row.col.f32.f32",
            Some(ret.as_basic_type_enum()),
            &args,
        )?
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

/// The address of element `idx` (one index) of `buf`, an operand of `op`.
fn element_ptr<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    buf: aic::ir::Value,
    idx: &[aic::ir::Value],
) -> Result<inkwell::values::PointerValue<'ctx>, String> {
    let base = match l.val_of(op, buf)? {
        BasicValueEnum::PointerValue(p) => p,
        _ => return Err(l.err(op, "not a buffer")),
    };
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
