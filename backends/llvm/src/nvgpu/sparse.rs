//! `nvgpu.mma.sp.sync` (m16n8k32, f16 or bf16 x the same + f32, sparsity
//! selector 0) in LLVM IR: inline PTX
//! `mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32` for NVPTX (A's and B's
//! four `.b32` registers of two halves, C's four f32s, the metadata
//! register), and on the host an emulation that reads the fragment and
//! metadata layouts from `aic_dialects::nvgpu::sparse`'s tables, like
//! `mma.sync`'s: A's compressed values and the metadata are exchanged first
//! and each lane builds the dense rows `g` and `g + 8` of A it needs (a
//! value where its group's code puts it, zero elsewhere); then B is
//! exchanged and the lane sums its elements of D over k < 32 in f32.

use super::{add, host_lane, mma_halves_of, vector, words};
use crate::emit::{Llvm, Lower};
use aic::ir::Op;
use aic_dialects::nvgpu::fragments::S32_C;
use aic_dialects::nvgpu::sparse::{SP_A, SP_B, metadata_at};
use inkwell::IntPredicate;
use inkwell::values::{BasicValue, BasicValueEnum, FloatValue};

/// The PTX element type of the op's A and B (`f16` or `bf16`).
fn ab_type<'ctx>(l: &Lower<'_, 'ctx>, op: Op) -> Result<inkwell::types::FloatType<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    mma_halves_of(l, a, b, c, 8).ok_or_else(|| {
        l.err(
            op,
            "nvgpu.mma.sp.sync is translated for f16 or bf16 fragments with an f32 accumulator only",
        )
    })
}

/// Inline PTX `mma.sp.sync.aligned.m16n8k32.row.col.f32.T.T.f32`, selector 0.
pub(super) fn mma_sp_sync<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
) -> Result<BasicValueEnum<'ctx>, String> {
    let half = ab_type(l, op)?;
    let t = if half == l.cx.bf16_type() {
        "bf16"
    } else {
        "f16"
    };
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let e = super::operand(l, op, 3)?;
    let f32 = l.f32();
    let i32t = l.i32();
    let mut args: Vec<inkwell::values::BasicMetadataValueEnum> = Vec::new();
    for w in words(l, a)?.into_iter().chain(words(l, b)?) {
        args.push(w.into());
    }
    for k in 0..4u64 {
        let at = i32t.const_int(k, false);
        args.push(l.b.build_extract_element(c, at, "").llvm()?.into());
    }
    args.push(e.into());
    let asm = format!(
        "mma.sp.sync.aligned.m16n8k32.row.col.f32.{t}.{t}.f32 {{$0, $1, $2, $3}}, {{$4, $5, $6, $7}}, {{$8, $9, $10, $11}}, {{$12, $13, $14, $15}}, $16, 0x0;"
    );
    let cons = "=f,=f,=f,=f,r,r,r,r,r,r,r,r,f,f,f,f,r";
    let ret = l.cx.struct_type(&[f32.into(); 4], false);
    let mut params: Vec<inkwell::types::BasicMetadataTypeEnum> = vec![i32t.into(); 8];
    params.extend([inkwell::types::BasicMetadataTypeEnum::from(f32); 4]);
    params.push(i32t.into());
    let fty = ret.fn_type(&params, false);
    let f =
        l.cx.create_inline_asm(fty, asm, cons.to_string(), true, false, None, false);
    let r =
        l.b.build_indirect_call(fty, f, &args, "")
            .llvm()?
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| l.err(op, "mma.sp returned nothing"))?
            .into_struct_value();
    let mut d = f32.vec_type(4).get_poison();
    for k in 0..4u32 {
        let x = l.b.build_extract_value(r, k, "").llvm()?;
        let at = i32t.const_int(u64::from(k), false);
        d = l.b.build_insert_element(d, x, at, "").llvm()?;
    }
    Ok(d.as_basic_value_enum())
}

/// The host emulation (see the module's comment). Slots: A's eight halves
/// in 0 and 1, the metadata word in 2; then, after a barrier, B's eight in
/// 0 and 1.
pub(super) fn host_mma_sp_sync<'ctx>(
    l: &mut Lower<'_, 'ctx>,
    op: Op,
) -> Result<BasicValueEnum<'ctx>, String> {
    let half = ab_type(l, op)?;
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let e = super::operand(l, op, 3)?.into_int_value();
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    let (f32, i32t, i64t) = (l.f32(), l.i32(), l.cx.i64_type());
    let part = |k: u64| -> Vec<_> {
        (4 * k..4 * k + 4)
            .map(|i| i32t.const_int(i, false))
            .collect()
    };
    let store_halves = |l: &mut Lower<'_, 'ctx>, v| -> Result<(), String> {
        for k in 0..2u64 {
            let mask = inkwell::types::VectorType::const_vector(&part(k));
            let p = l.b.build_shuffle_vector(v, v, mask, "").llvm()?;
            let mine = l.host_slot(k, tid)?;
            l.b.build_store(mine, p).llvm()?;
        }
        Ok(())
    };
    store_halves(l, a)?;
    let mine = l.host_slot(2, tid)?;
    l.b.build_store(mine, e).llvm()?;
    l.barrier()?;
    let (lane, warp) = host_lane(l, op)?;
    let c4 = i64t.const_int(4, false);
    let t = l.b.build_int_unsigned_rem(lane, c4, "").llvm()?;
    // Lane 4·g, the first of this lane's group (A's rows g and g + 8).
    let group = l.b.build_int_sub(lane, t, "").llvm()?;
    let group = l.b.build_int_add(warp, group, "").llvm()?;
    // Element `e` (of eight) of the halves lane `src` left in slots 0 and 1, in f32.
    let element = |l: &mut Lower<'_, 'ctx>, src, e: u64| -> Result<FloatValue<'ctx>, String> {
        let p = l.host_slot(e / 4, src)?;
        // SAFETY (LLVM semantics): a slot holds four halves.
        let p = unsafe {
            l.b.build_in_bounds_gep(half, p, &[i64t.const_int(e % 4, false)], "")
                .llvm()?
        };
        let x = l.b.build_load(half, p, "").llvm()?.into_float_value();
        l.b.build_float_ext(x, f32, "").llvm()
    };
    let zero = f32.const_float(0.0);
    let c3 = i32t.const_int(3, false);
    // dense[h][k]: row g + 8·h of the dense A, k < 32.
    let mut dense: [Vec<FloatValue<'ctx>>; 2] = [Vec::new(), Vec::new()];
    for (h, row) in dense.iter_mut().enumerate() {
        let r = 8 * h as i64;
        for chunk in 0..8usize {
            let mut v = Vec::new();
            for j in 0..2 {
                let Some((la, ea)) = SP_A.holder(r, (2 * chunk + j) as i64) else {
                    return Err(l.err(op, "the mma.sp fragment table does not cover its tile"));
                };
                let src = add(l, group, la as u64)?;
                v.push(element(l, src, ea as u64)?);
            }
            let (ml, at) = metadata_at(r as usize, chunk);
            let src = add(l, group, ml as u64)?;
            let p = l.host_slot(2, src)?;
            let word = l.b.build_load(i32t, p, "").llvm()?.into_int_value();
            let sh = i32t.const_int(4 * at as u64, false);
            let code = l.b.build_right_shift(word, sh, false, "").llvm()?;
            let i0 = l.b.build_and(code, c3, "").llvm()?;
            let two = i32t.const_int(2, false);
            let i1 = l.b.build_right_shift(code, two, false, "").llvm()?;
            let i1 = l.b.build_and(i1, c3, "").llvm()?;
            for pos in 0..4u64 {
                let at = i32t.const_int(pos, false);
                let is1 = l.b.build_int_compare(IntPredicate::EQ, i1, at, "").llvm()?;
                let x1 = l.b.build_select(is1, v[1], zero, "").llvm()?;
                let is0 = l.b.build_int_compare(IntPredicate::EQ, i0, at, "").llvm()?;
                let x =
                    l.b.build_select(is0, v[0], x1.into_float_value(), "")
                        .llvm()?;
                row.push(x.into_float_value());
            }
        }
    }
    l.barrier()?;
    store_halves(l, b)?;
    l.barrier()?;
    // 8·t: B's column n + 2t is held 8·t lanes on from column n's.
    let c8 = i64t.const_int(8, false);
    let t8 = l.b.build_int_mul(t, c8, "").llvm()?;
    let t8 = l.b.build_int_add(warp, t8, "").llvm()?;
    let mut d = c;
    for ci in 0..S32_C.elems.len() {
        let at = i32t.const_int(ci as u64, false);
        let mut acc =
            l.b.build_extract_element(c, at, "")
                .llvm()?
                .into_float_value();
        // Lane 0's element; this lane's is g rows and 2t columns on.
        let (r, n) = S32_C.at(0, ci);
        for k in 0..SP_B.rows {
            let Some((lb, eb)) = SP_B.holder(k, n) else {
                return Err(l.err(op, "the mma.sp fragment table does not cover its tile"));
            };
            let src = add(l, t8, lb as u64)?;
            let y = element(l, src, eb as u64)?;
            let x = dense[(r / 8) as usize][k as usize];
            let p = l.b.build_float_mul(x, y, "").llvm()?;
            acc = l.b.build_float_add(acc, p, "").llvm()?;
        }
        d = l.b.build_insert_element(d, acc, at, "").llvm()?;
    }
    l.barrier()?;
    Ok(d.as_basic_value_enum())
}
