//! The TMA and mbarrier ops of `nvgpu` (sm_90) in LLVM IR.
//!
//! | op | NVPTX |
//! |---|---|
//! | `nvgpu.tma.create.descriptor` | the kernel's tensor-map parameter (`.param .align 64 .b8 [128]`, `nvvm.grid_constant`, read in place through its generic address) |
//! | `nvgpu.tma.async.load` | inline PTX `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes` (coordinates column first) |
//! | `nvgpu.mbarrier.init` | inline PTX `mbarrier.init.shared::cta.b64` |
//! | `nvgpu.mbarrier.arrive.expect_tx` | inline PTX `mbarrier.arrive.expect_tx.shared::cta.b64` |
//! | `nvgpu.mbarrier.arrive` | inline PTX `mbarrier.arrive.shared::cta.b64` |
//! | `nvgpu.mbarrier.try_wait.parity` | inline PTX: a loop on `mbarrier.try_wait.parity.shared::cta.b64` with the suspend-time hint `ticks` |
//!
//! Shared addresses go to PTX as 32-bit offsets in the shared window.
//!
//! On the host the block's threads are OS threads, so the ops are
//! emulated for real ([`aic_host_mbarrier_init`] and its siblings, on the
//! barrier's 8 bytes in the block's shared memory): a TMA load copies its
//! box at once (zeros outside the tensor), swizzled as the descriptor says
//! relative to the block's shared memory (as wgmma's emulation reads it),
//! and completes its bytes on the mbarrier; an mbarrier counts arrivals
//! and expected transaction bytes, and a phase completes when both reach
//! zero. A load that delivers more bytes than its barrier expects, or a
//! wait that never ends (fewer bytes than expected), stops the process
//! with a message: both are code-generation bugs.

use crate::emit::{Llvm, Lower};
use crate::ops::Emit;
use crate::target::Target;
use aic::ir::Op;
use aic::op_def::OpHandle;
use aic_dialects::nvgpu;
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, IntValue, PointerValue};
use std::sync::atomic::{AtomicU64, Ordering};

/// The ops this module translates ([`crate::ops`]).
pub(crate) const ROWS: &[(&str, Emit)] = &[
    (
        nvgpu::TMA_CREATE_DESCRIPTOR.name,
        Emit::Value(create_descriptor),
    ),
    (nvgpu::TMA_ASYNC_LOAD.name, Emit::Op(async_load)),
    (
        nvgpu::MBARRIER_INIT.name,
        Emit::Op(|l, op| barrier_op(l, op, Bar::Init)),
    ),
    (
        nvgpu::MBARRIER_ARRIVE_EXPECT_TX.name,
        Emit::Op(|l, op| barrier_op(l, op, Bar::ExpectTx)),
    ),
    (nvgpu::MBARRIER_ARRIVE.name, Emit::Op(arrive)),
    (
        nvgpu::MBARRIER_TRY_WAIT_PARITY.name,
        Emit::Op(|l, op| barrier_op(l, op, Bar::Wait)),
    ),
];

/// Checks that `op` is translated for NVPTX sm_90 or later or the host;
/// whether it is the host.
fn hopper(l: &Lower<'_, '_>, op: Op) -> Result<bool, String> {
    match l.target {
        Target::Host => Ok(true),
        Target::Nvptx { .. } if l.target.arch().starts_with("sm_9") => Ok(false),
        _ => Err(l.err(
            op,
            format!(
                "'{}' needs Hopper's TMA (--target=nvptx --arch=sm_90a, or emulated on the host), not {}",
                l.ir.op_name(op),
                l.target.arch()
            ),
        )),
    }
}

fn int<'ctx>(l: &Lower<'_, 'ctx>, op: Op, v: aic::ir::Value) -> Result<IntValue<'ctx>, String> {
    match l.val_of(op, v)? {
        BasicValueEnum::IntValue(i) => Ok(i),
        _ => Err(l.err(op, "expected an integer")),
    }
}

/// The address of element `i` of shared or global buffer `buf`.
fn element<'ctx>(
    l: &Lower<'_, 'ctx>,
    op: Op,
    buf: aic::ir::Value,
    i: aic::ir::Value,
) -> Result<PointerValue<'ctx>, String> {
    let base = match l.val_of(op, buf)? {
        BasicValueEnum::PointerValue(p) => p,
        _ => return Err(l.err(op, "not a buffer")),
    };
    let i = int(l, op, i)?;
    let elem = l.ir.type_kind(l.ir.value_type(buf)).element_type();
    let elem = l.ty(op, elem.ok_or_else(|| l.err(op, "not a memref"))?)?;
    // SAFETY (LLVM semantics): the index lies in the view, as the op's
    // contract requires.
    unsafe { l.b.build_in_bounds_gep(elem, base, &[i], "").llvm() }
}

/// A shared address as PTX's 32-bit offset in the shared window.
fn shared32<'ctx>(l: &Lower<'_, 'ctx>, p: PointerValue<'ctx>) -> Result<IntValue<'ctx>, String> {
    let x = l.b.build_ptr_to_int(p, l.cx.i64_type(), "").llvm()?;
    l.b.build_int_truncate(x, l.i32(), "").llvm()
}

/// An i64 as i32.
fn to32<'ctx>(l: &Lower<'_, 'ctx>, x: IntValue<'ctx>) -> Result<IntValue<'ctx>, String> {
    l.b.build_int_truncate_or_bit_cast(x, l.i32(), "").llvm()
}

/// Inline PTX `asm` with `constraints`, on `args`, returning nothing.
fn asm<'ctx>(
    l: &Lower<'_, 'ctx>,
    text: &str,
    constraints: &str,
    args: &[BasicMetadataValueEnum<'ctx>],
) -> Result<(), String> {
    let params: Vec<BasicMetadataTypeEnum> = args
        .iter()
        .map(|a| match a {
            BasicMetadataValueEnum::IntValue(i) => i.get_type().into(),
            BasicMetadataValueEnum::PointerValue(p) => p.get_type().into(),
            _ => l.i32().into(),
        })
        .collect();
    let fty = l.cx.void_type().fn_type(&params, false);
    let f = l.cx.create_inline_asm(
        fty,
        text.to_string(),
        format!("{constraints},~{{memory}}"),
        true,
        false,
        None,
        false,
    );
    l.b.build_indirect_call(fty, f, args, "").llvm()?;
    Ok(())
}

/// `tma.create.descriptor`: the tensor-map parameter (NVPTX), or on the
/// host the buffer itself (the emulated load reads the tensor's shape
/// from the op).
fn create_descriptor<'ctx>(
    l: &mut Lower<'_, 'ctx>,
    op: Op,
) -> Result<BasicValueEnum<'ctx>, String> {
    if hopper(l, op)? {
        let d = nvgpu::TmaCreateDescriptor::wrap(op);
        return l.val_of(op, d.tensor(l.ir));
    }
    let p = *l
        .tensor_maps
        .get(&op)
        .ok_or_else(|| l.err(op, "a tensor map that is not a kernel parameter"))?;
    Ok(p.into())
}

fn async_load(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    let host = hopper(l, op)?;
    let ld = nvgpu::TmaAsyncLoad::wrap(op);
    let ir = l.ir;
    let coords = ld.coordinates(ir).to_vec();
    let (row, col) = (int(l, op, coords[0])?, int(l, op, coords[1])?);
    let dst = element(l, op, ld.dst(ir), ld.dst_index(ir))?;
    let bar = element(l, op, ld.barriers(ir), ld.mbar_id(ir))?;
    let map = l.val_of(op, ld.tensor_map(ir))?;
    if !host {
        let (d, b) = (shared32(l, dst)?, shared32(l, bar)?);
        let m =
            l.b.build_ptr_to_int(map.into_pointer_value(), l.cx.i64_type(), "")
                .llvm()?;
        let (c, r) = (to32(l, col)?, to32(l, row)?);
        return asm(
            l,
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];",
            "r,l,r,r,r",
            &[d.into(), m.into(), c.into(), r.into(), b.into()],
        );
    }
    // The host: the tensor's shape from the descriptor op.
    let def = ir
        .defining_op(ld.tensor_map(ir))
        .ok_or_else(|| l.err(op, "a tensor map no tma.create.descriptor made"))?;
    let spec =
        nvgpu::tensor_map_spec(ir, def).ok_or_else(|| l.err(op, "a malformed tensor map"))?;
    let i64t = l.cx.i64_type();
    let c = |v: i64| BasicMetadataValueEnum::from(i64t.const_int(v as u64, true));
    let shared = l.shared_base()?;
    let args = [
        shared.into(),
        dst.into(),
        map.into(),
        bar.into(),
        c(spec.shape[0]),
        c(spec.shape[1]),
        c(spec.row_stride),
        c(spec.elem_bytes),
        c(spec.box_shape[0]),
        c(spec.box_shape[1]),
        c(spec.swizzle),
        row.into(),
        col.into(),
    ];
    host_call(l, "aic_host_tma_load", &args)
}

/// Calls host function `name` (void) on `args`.
fn host_call<'ctx>(
    l: &Lower<'_, 'ctx>,
    name: &str,
    args: &[BasicMetadataValueEnum<'ctx>],
) -> Result<(), String> {
    let vals: Vec<BasicValueEnum> = args
        .iter()
        .map(|a| match a {
            BasicMetadataValueEnum::IntValue(i) => (*i).into(),
            BasicMetadataValueEnum::PointerValue(p) => (*p).into(),
            _ => l.i32().const_zero().into(),
        })
        .collect();
    l.call(name, None, &vals)?;
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bar {
    Init,
    ExpectTx,
    Wait,
}

/// `mbarrier.arrive`.
fn arrive(l: &mut Lower<'_, '_>, op: Op) -> Result<(), String> {
    let host = hopper(l, op)?;
    let ops = l.ir.operands(op).to_vec();
    let bar = element(l, op, ops[0], ops[1])?;
    if host {
        return host_call(l, "aic_host_mbarrier_arrive", &[bar.into()]);
    }
    let b = shared32(l, bar)?;
    asm(
        l,
        "mbarrier.arrive.shared::cta.b64 _, [$0];",
        "r",
        &[b.into()],
    )
}

fn barrier_op(l: &mut Lower<'_, '_>, op: Op, which: Bar) -> Result<(), String> {
    let host = hopper(l, op)?;
    let ops = l.ir.operands(op).to_vec();
    let bar = element(l, op, ops[0], ops[1])?;
    let x = int(l, op, ops[2])?;
    let i64t = l.cx.i64_type();
    if host {
        let x = l.b.build_int_z_extend_or_bit_cast(x, i64t, "").llvm()?;
        let name = match which {
            Bar::Init => "aic_host_mbarrier_init",
            Bar::ExpectTx => "aic_host_mbarrier_arrive_expect_tx",
            Bar::Wait => "aic_host_mbarrier_wait",
        };
        return host_call(l, name, &[bar.into(), x.into()]);
    }
    let b = shared32(l, bar)?;
    let x = l.b.build_int_z_extend_or_bit_cast(x, i64t, "").llvm()?;
    let x = to32(l, x)?;
    match which {
        Bar::Init => asm(
            l,
            "mbarrier.init.shared::cta.b64 [$0], $1;",
            "r,r",
            &[b.into(), x.into()],
        ),
        Bar::ExpectTx => asm(
            l,
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;",
            "r,r",
            &[b.into(), x.into()],
        ),
        Bar::Wait => {
            let ticks = int(l, op, ops[3])?;
            let ticks = to32(l, ticks)?;
            asm(
                l,
                "{\n.reg .pred aic_done;\naic_wait:\nmbarrier.try_wait.parity.shared::cta.b64 aic_done, [$0], $1, $2;\n@!aic_done bra aic_wait;\n}",
                "r,r,r",
                &[b.into(), x.into(), ticks.into()],
            )
        }
    }
}

// ------------------------------------------------------------ host emulation

/// The host functions the module may call, by name, with their addresses.
pub(crate) fn host_functions() -> [(&'static str, usize); 5] {
    [
        (
            "aic_host_mbarrier_arrive",
            aic_host_mbarrier_arrive as *const () as usize,
        ),
        ("aic_host_tma_load", aic_host_tma_load as *const () as usize),
        (
            "aic_host_mbarrier_init",
            aic_host_mbarrier_init as *const () as usize,
        ),
        (
            "aic_host_mbarrier_arrive_expect_tx",
            aic_host_mbarrier_arrive_expect_tx as *const () as usize,
        ),
        (
            "aic_host_mbarrier_wait",
            aic_host_mbarrier_wait as *const () as usize,
        ),
    ]
}

/// An mbarrier's state in its 8 bytes: arrivals per phase (bits 0-15),
/// arrivals still pending (16-31), transaction bytes still expected
/// (32-62), the phase's parity (63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mbar {
    count: u64,
    pending: u64,
    tx: u64,
    phase: u64,
}

impl Mbar {
    fn of(w: u64) -> Mbar {
        Mbar {
            count: w & 0xFFFF,
            pending: (w >> 16) & 0xFFFF,
            tx: (w >> 32) & 0x7FFF_FFFF,
            phase: w >> 63,
        }
    }

    fn word(self) -> u64 {
        self.count | (self.pending << 16) | (self.tx << 32) | (self.phase << 63)
    }

    /// The phase completes when nothing is pending: the next one starts.
    fn settle(mut self) -> Mbar {
        if self.pending == 0 && self.tx == 0 {
            self.phase ^= 1;
            self.pending = self.count;
        }
        self
    }
}

/// Stops the process over a broken barrier protocol (a compiler bug).
fn fatal(m: String) -> ! {
    eprintln!("aic-llvm host emulation: {m}");
    std::process::abort()
}

/// Changes the mbarrier at `bar` by `f`, atomically.
fn update(bar: *mut u64, f: impl Fn(Mbar) -> Result<Mbar, String>) {
    // SAFETY: `bar` is an 8-byte-aligned word of the block's shared memory
    // that the block's threads only change through these functions.
    let a = unsafe { AtomicU64::from_ptr(bar) };
    let mut cur = a.load(Ordering::Acquire);
    loop {
        let next = f(Mbar::of(cur)).unwrap_or_else(|m| fatal(m)).word();
        match a.compare_exchange_weak(cur, next, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return,
            Err(c) => cur = c,
        }
    }
}

/// `mbarrier.init`: `count` arrivals a phase, phase 0.
extern "C" fn aic_host_mbarrier_init(bar: *mut u64, count: i64) {
    let count = count.clamp(0, 0xFFFF) as u64;
    update(bar, |_| {
        Ok(Mbar {
            count,
            pending: count,
            tx: 0,
            phase: 0,
        })
    });
}

/// `mbarrier.arrive.expect_tx`: `tx` more bytes expected, one arrival.
extern "C" fn aic_host_mbarrier_arrive_expect_tx(bar: *mut u64, tx: i64) {
    update(bar, |m| {
        if m.pending == 0 {
            return Err("an arrival on an mbarrier with none pending".into());
        }
        Ok(Mbar {
            tx: m.tx + tx as u64,
            pending: m.pending - 1,
            ..m
        }
        .settle())
    });
}

/// `mbarrier.arrive`: one arrival.
extern "C" fn aic_host_mbarrier_arrive(bar: *mut u64) {
    aic_host_mbarrier_arrive_expect_tx(bar, 0);
}

/// Completes `bytes` transaction bytes on the mbarrier.
fn complete_tx(bar: *mut u64, bytes: u64) {
    update(bar, |m| {
        if bytes > m.tx {
            return Err(format!(
                "a TMA copy of {bytes} bytes completes on an mbarrier expecting {} more",
                m.tx
            ));
        }
        Ok(Mbar {
            tx: m.tx - bytes,
            ..m
        }
        .settle())
    });
}

/// `mbarrier.try_wait.parity` in a loop: until the phase of `parity` has
/// completed (the current phase's parity differs).
extern "C" fn aic_host_mbarrier_wait(bar: *mut u64, parity: i64) {
    // SAFETY: as in `update`.
    let a = unsafe { AtomicU64::from_ptr(bar) };
    let start = std::time::Instant::now();
    loop {
        let m = Mbar::of(a.load(Ordering::Acquire));
        if m.phase != (parity as u64 & 1) {
            return;
        }
        if start.elapsed().as_secs() > 60 {
            fatal(format!(
                "an mbarrier's phase never completed: {} arrivals and {} transaction bytes still expected",
                m.pending, m.tx
            ));
        }
        std::thread::yield_now();
    }
}

/// `tma.async.load` at once: the box at (`row`, `col`) of the tensor of
/// `rows x cols` (row stride `stride` elements of `eb` bytes) at `src`,
/// `box_rows x box_cols`, rows after rows into `dst`, each byte's 16-byte
/// chunk moved by the swizzle as its offset from `shared` says; zeros
/// outside the tensor. Then its bytes complete on `bar`.
#[allow(clippy::too_many_arguments)]
extern "C" fn aic_host_tma_load(
    shared: *mut u8,
    dst: *mut u8,
    src: *const u8,
    bar: *mut u64,
    rows: i64,
    cols: i64,
    stride: i64,
    eb: i64,
    box_rows: i64,
    box_cols: i64,
    swizzle: i64,
    row: i64,
    col: i64,
) {
    let base = dst as usize - shared as usize;
    let (eb_u, line) = (eb as usize, (box_cols * eb) as usize);
    for r in 0..box_rows {
        for c in 0..box_cols {
            let (gr, gc) = (row + r, col + c);
            let inside = (0..rows).contains(&gr) && (0..cols).contains(&gc);
            let at = base + r as usize * line + c as usize * eb_u;
            let at = match swizzle {
                128 => at ^ (((at >> 7) & 7) << 4),
                64 => at ^ (((at >> 7) & 3) << 4),
                32 => at ^ (((at >> 7) & 1) << 4),
                _ => at,
            };
            for b in 0..eb_u {
                let x = if inside {
                    // SAFETY: (gr, gc) lies in the tensor, which lies in
                    // the buffer (the descriptor's verifier checks it).
                    unsafe { *src.add((gr * stride + gc) as usize * eb_u + b) }
                } else {
                    0
                };
                // SAFETY: the box lies in the destination view, inside
                // the block's shared memory.
                unsafe { *shared.add(at + b) = x };
            }
        }
    }
    complete_tx(bar, (box_rows * box_cols * eb) as u64);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mbarrier_phases_complete_when_arrivals_and_bytes_are_in() {
        let mut w = 0u64;
        let bar = &mut w as *mut u64;
        aic_host_mbarrier_init(bar, 1);
        assert_eq!(Mbar::of(w).phase, 0);
        aic_host_mbarrier_arrive_expect_tx(bar, 256);
        // Arrived, but the bytes are not in: still phase 0.
        assert_eq!(Mbar::of(w).phase, 0);
        assert_eq!(Mbar::of(w).tx, 256);
        complete_tx(bar, 128);
        assert_eq!(Mbar::of(w).phase, 0);
        complete_tx(bar, 128);
        let m = Mbar::of(w);
        assert_eq!((m.phase, m.pending, m.tx), (1, 1, 0));
        // Waiting on the completed phase's parity returns at once.
        aic_host_mbarrier_wait(bar, 0);
        // Two arrivals a phase: the second completes it.
        aic_host_mbarrier_init(bar, 2);
        aic_host_mbarrier_arrive(bar);
        assert_eq!(Mbar::of(w).phase, 0);
        aic_host_mbarrier_arrive(bar);
        assert_eq!(Mbar::of(w).phase, 1);
    }

    #[test]
    fn a_tma_load_swizzles_its_box_and_zero_fills_outside() {
        // A 10 x 64 tensor of u16 (row-major), a 8 x 64 box at row 4.
        let src: Vec<u16> = (0..640).map(|i| i as u16).collect();
        let mut shared = vec![0u16; 8 * 64 + 8];
        let mut w = 0u64;
        let bar = &mut w as *mut u64;
        aic_host_mbarrier_init(bar, 1);
        aic_host_mbarrier_arrive_expect_tx(bar, 8 * 64 * 2);
        let sp = shared.as_mut_ptr().cast::<u8>();
        aic_host_tma_load(
            sp,
            sp,
            src.as_ptr().cast(),
            bar,
            10,
            64,
            64,
            2,
            8,
            64,
            128,
            4,
            0,
        );
        assert_eq!(Mbar::of(w).phase, 1);
        for r in 0..8usize {
            for c in 0..64usize {
                let chunk = (c / 8) ^ (r % 8);
                let got = shared[r * 64 + chunk * 8 + c % 8];
                let want = if r + 4 < 10 {
                    ((r + 4) * 64 + c) as u16
                } else {
                    0
                };
                assert_eq!(got, want, "({r}, {c})");
            }
        }
    }
}
