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
