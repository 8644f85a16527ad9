//! The `amdgpu` ops in LLVM IR: on AMDGPU the intrinsics, on the host an
//! emulation of the wavefront through memory.
//!
//! | op | AMDGPU | host |
//! |---|---|---|
//! | `amdgpu.mfma` 32x32x8, 16x16x16 (f16 × f16 + f32) | `llvm.amdgcn.mfma.f32.{32x32x8,16x16x16}f16` (`v_mfma_f32_…f16`), `cbsz = abid = blgp = 0` | every lane leaves its A and B in its exchange slots, the block waits, each lane computes its own elements of D from the slots of its wavefront's lanes, the block waits again |
//!
//! The host emulation spells out the instructions' lane layouts (as AMD's
//! CDNA ISA and its matrix instruction calculator give them) independently
//! of `tile-to-gpu`, which places the data by them: with T = M = N, lane
//! `l` holds A's `(l % T, 4·(l / T) + i)` and B's `(4·(l / T) + i, l % T)`,
//! and D's element `r` at `(8·(r / 4) + 4·(l / T) + r % 4, l % T)`. So a
//! host run of a kernel checks the layouts the lowering assumes.

use crate::emit::{Llvm, Lower};
use crate::ops::Emit;
use crate::target::Target;
use aic::ir::Op;
use aic_dialects::amdgpu::{Instruction, WAVEFRONT};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, FloatValue, VectorValue};

/// The amdgpu ops this module translates ([`crate::ops`]).
pub(crate) const ROWS: &[(&str, Emit)] = &[(aic_dialects::amdgpu::MFMA.name, Emit::Value(mfma_op))];

/// `amdgpu.mfma`: on AMD matrix cores, or emulated on the host.
fn mfma_op<'ctx>(l: &mut Lower<'_, 'ctx>, op: Op) -> Result<BasicValueEnum<'ctx>, String> {
    let ins = aic_dialects::amdgpu::instruction_of(l.ir, op)
        .ok_or_else(|| l.err(op, "an mfma of a shape aic does not translate"))?;
    match l.target {
        Target::Amdgpu { .. } => mfma(l, op, ins),
        Target::Host => host_mfma(l, op, ins),
        Target::Nvptx { .. } => Err(l.err(
            op,
            "'amdgpu.mfma' runs on AMD matrix cores (--target=amdgpu) or emulated on the host, not on nvptx",
        )),
    }
}

fn vector<'ctx>(l: &Lower<'_, 'ctx>, op: Op, i: usize) -> Result<VectorValue<'ctx>, String> {
    let v = l.ir.operands(op)[i];
    match l.val_of(op, v)? {
        BasicValueEnum::VectorValue(v) => Ok(v),
        _ => Err(l.err(op, format!("operand {i} must be a vector"))),
    }
}

/// The intrinsic, with no lane broadcasts (`cbsz`, `abid`, `blgp` 0).
fn mfma<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    ins: &Instruction,
) -> Result<BasicValueEnum<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let zero = l.i32().const_zero().into();
    let ret: BasicTypeEnum = c.get_type().into();
    l.call(
        ins.intrinsic,
        Some(ret),
        &[a.into(), b.into(), c.into(), zero, zero, zero],
    )?
    .ok_or_else(|| l.err(op, "mfma returned nothing"))
}

/// The emulation: A and B through exchange slots 0 and 1 (8 bytes, four
/// halves, a lane), D's elements each a sum over K in f32.
fn host_mfma<'ctx>(
    l: &mut Lower<'_, 'ctx>,
    op: Op,
    ins: &Instruction,
) -> Result<BasicValueEnum<'ctx>, String> {
    let (a, b, c) = (vector(l, op, 0)?, vector(l, op, 1)?, vector(l, op, 2)?);
    let tid = l.host_thread().ok_or_else(|| l.err(op, "no host thread"))?;
    let i64t = l.cx.i64_type();
    let k = |v: u64| i64t.const_int(v, false);
    let (mine_a, mine_b) = (l.host_slot(0, tid)?, l.host_slot(1, tid)?);
    l.b.build_store(mine_a, a).llvm()?;
    l.b.build_store(mine_b, b).llvm()?;
    l.barrier()?;
    let lanes = k(WAVEFRONT as u64);
    let lane = l.b.build_int_unsigned_rem(tid, lanes, "").llvm()?;
    let wave = l.b.build_int_sub(tid, lane, "").llvm()?;
    let t = ins.m as u64;
    let ct = k(t);
    // Which group of T lanes this is (the rows of D it holds), its column.
    let group = l.b.build_int_unsigned_div(lane, ct, "").llvm()?;
    let col = l.b.build_int_unsigned_rem(lane, ct, "").llvm()?;
    let row0 = l.b.build_int_mul(group, k(4), "").llvm()?;
    let half = l.cx.f16_type();
    let f32t = l.f32();
    // Element `i` of the fragment in slot `s` of lane `wave + at`.
    let element =
        |l: &mut Lower<'_, 'ctx>, s: u64, at, i: u64| -> Result<FloatValue<'ctx>, String> {
            let lane = l.b.build_int_add(wave, at, "").llvm()?;
            let p = l.host_slot(s, lane)?;
            // SAFETY (LLVM semantics): a slot holds four halves.
            let p = unsafe { l.b.build_in_bounds_gep(half, p, &[k(i)], "").llvm()? };
            let x = l.b.build_load(half, p, "").llvm()?.into_float_value();
            l.b.build_float_ext(x, f32t, "").llvm()
        };
    let mut d = c;
    for r in 0..ins.cd as u64 {
        let row = l.b.build_int_add(row0, k(8 * (r / 4) + r % 4), "").llvm()?;
        let at_r = k(r);
        let mut acc =
            l.b.build_extract_element(c, at_r, "")
                .llvm()?
                .into_float_value();
        for kk in 0..ins.k as u64 {
            // A's (row, kk) and B's (kk, col) are in lanes row + T·(kk/4)
            // and col + T·(kk/4), element kk % 4.
            let shift = k(t * (kk / 4));
            let la = l.b.build_int_add(row, shift, "").llvm()?;
            let lb = l.b.build_int_add(col, shift, "").llvm()?;
            let x = element(l, 0, la, kk % 4)?;
            let y = element(l, 1, lb, kk % 4)?;
            let p = l.b.build_float_mul(x, y, "").llvm()?;
            acc = l.b.build_float_add(acc, p, "").llvm()?;
        }
        d = l.b.build_insert_element(d, acc, at_r, "").llvm()?;
    }
    // Until every lane has read the slots, which the next exchange reuses.
    l.barrier()?;
    Ok(d.into())
}
