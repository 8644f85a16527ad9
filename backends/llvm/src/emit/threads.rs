//! GPU threads in LLVM IR: thread, block and lane ids, shuffles across a
//! warp (NVPTX, AMDGPU, and the host's emulation through exchange slots),
//! barriers and fences.

use super::*;

impl<'a, 'ctx> Lower<'a, 'ctx> {
    /// `gpu.thread_id` / `gpu.block_id` as an i64 (index).
    pub(super) fn id(&mut self, op: Op, thread: bool) -> Result<IntValue<'ctx>, String> {
        let d = aic_dialects::gpu::dim_of(self.ir, op);
        let i64t = self.cx.i64_type();
        // A dimension of size one has only index 0: no need to ask the hardware.
        let size = if thread { self.block[d] } else { self.grid[d] };
        if size == 1 {
            return Ok(i64t.const_zero());
        }
        if let Some(h) = &self.host {
            return Ok(if thread { h.thread } else { h.block[d] });
        }
        let axis = ["x", "y", "z"][d];
        let intrinsic = match (self.target, thread) {
            (Target::Nvptx { .. }, true) => format!("llvm.nvvm.read.ptx.sreg.tid.{axis}"),
            (Target::Nvptx { .. }, false) => format!("llvm.nvvm.read.ptx.sreg.ctaid.{axis}"),
            (_, true) => format!("llvm.amdgcn.workitem.id.{axis}"),
            (_, false) => format!("llvm.amdgcn.workgroup.id.{axis}"),
        };
        let v = self
            .call(&intrinsic, Some(self.i32().into()), &[])?
            .expect("returns i32")
            .into_int_value();
        // The launch fixes the id's range: saying so lets LLVM fold the
        // bounds checks and row indices that follow from it (an element
        // `j * T + tid` with `tid < T` lies in a known row).
        let bound = self.i32().const_int(size, false);
        let inside = self
            .b
            .build_int_compare(inkwell::IntPredicate::ULT, v, bound, "")
            .llvm()?;
        self.call("llvm.assume", None, &[inside.into()])?;
        self.b.build_int_z_extend(v, i64t, "").llvm()
    }

    /// `gpu.lane_id` as an i64 (index): NVPTX's lane register for warps of
    /// 32 in one-dimensional blocks (a value of its own, whose range LLVM
    /// knows, so that a lane's offsets are not folded into the thread
    /// index's bits), else the thread index modulo the warp.
    pub(super) fn lane_id(&mut self, op: Op) -> Result<IntValue<'ctx>, String> {
        let bound = int_attr(self.ir, op, "upper_bound");
        let width = match (bound, self.target) {
            (Some(b), _) => b,
            (None, Target::Nvptx { .. }) => 32,
            (None, Target::Amdgpu { .. }) => 64,
            (None, Target::Host) => {
                return Err("gpu.lane_id needs upper_bound (the warp) on the host".into());
            }
        };
        let flat = self.block[1] == 1 && self.block[2] == 1;
        if matches!(self.target, Target::Nvptx { .. }) && width == 32 && flat {
            let v = self
                .call(
                    "llvm.nvvm.read.ptx.sreg.laneid",
                    Some(self.i32().into()),
                    &[],
                )?
                .expect("returns i32")
                .into_int_value();
            return self.b.build_int_z_extend(v, self.cx.i64_type(), "").llvm();
        }
        let tid = self.id(op, true)?;
        let w = self.cx.i64_type().const_int(width as u64, false);
        self.b.build_int_unsigned_rem(tid, w, "").llvm()
    }

    /// `gpu.shuffle`: NVPTX's `shfl.sync`, AMDGPU's `ds_bpermute` (lanes of
    /// a wavefront), or on the host an exchange through memory; on the
    /// GPUs on the value's bits as 32-bit pieces (narrower values widened,
    /// 64-bit ones in two halves).
    pub(super) fn shuffle(&mut self, op: Op) -> Result<(), String> {
        let mode = aic_dialects::gpu::shuffle_mode(self.ir, op);
        let x = self.operand(op, 0)?;
        let (off, width) = (self.int_operand(op, 1)?, self.int_operand(op, 2)?);
        let (got, valid) = match self.target {
            Target::Host => self.host_shuffle(x, off, width, mode)?,
            Target::Nvptx { .. } => self.nvptx_shuffle(x, off, width, mode)?,
            Target::Amdgpu { .. } => self.amdgpu_shuffle(x, off, width, mode)?,
        };
        self.set(op, got);
        self.set_value(self.ir.result(op, 1), valid.into());
        Ok(())
    }

    /// The lane a thread at `lane` (of `width`-lane segments) reads in
    /// `mode` with `off`, as an index of the same width as `lane`, and
    /// whether it lies in the thread's segment (else the thread's own).
    fn shuffle_source(
        &self,
        lane: IntValue<'ctx>,
        off: IntValue<'ctx>,
        width: IntValue<'ctx>,
        mode: ShuffleMode,
    ) -> Result<(IntValue<'ctx>, IntValue<'ctx>), String> {
        let t = lane.get_type();
        let off = self.b.build_int_z_extend_or_bit_cast(off, t, "").llvm()?;
        let width = self.b.build_int_z_extend_or_bit_cast(width, t, "").llvm()?;
        let within = self.b.build_int_unsigned_rem(lane, width, "").llvm()?;
        let seg = self.b.build_int_sub(lane, within, "").llvm()?;
        let src = match mode {
            ShuffleMode::Xor => self.b.build_xor(within, off, "").llvm()?,
            ShuffleMode::Down => self.b.build_int_add(within, off, "").llvm()?,
            // Below lane 0 wraps to a huge lane, outside the segment.
            ShuffleMode::Up => self.b.build_int_sub(within, off, "").llvm()?,
            ShuffleMode::Idx => off,
        };
        let valid = self
            .b
            .build_int_compare(IntPredicate::ULT, src, width, "")
            .llvm()?;
        let src = self
            .b
            .build_select(valid, src, within, "")
            .llvm()?
            .into_int_value();
        Ok((self.b.build_int_add(seg, src, "").llvm()?, valid))
    }

    /// `x`'s bits as 32-bit pieces (one, or two for 64-bit values), and the
    /// integer type of its bits.
    fn pieces(
        &self,
        x: BasicValueEnum<'ctx>,
    ) -> Result<(Vec<IntValue<'ctx>>, IntType<'ctx>), String> {
        let i32t = self.i32();
        let (bits, width_bits) = self.to_bits(x)?;
        let pieces = if width_bits == 64 {
            let hi = self
                .b
                .build_right_shift(bits, bits.get_type().const_int(32, false), false, "")
                .llvm()?;
            vec![
                self.b.build_int_truncate(bits, i32t, "").llvm()?,
                self.b.build_int_truncate(hi, i32t, "").llvm()?,
            ]
        } else {
            vec![
                self.b
                    .build_int_z_extend_or_bit_cast(bits, i32t, "")
                    .llvm()?,
            ]
        };
        Ok((pieces, bits.get_type()))
    }

    /// The value of `x`'s type whose bits are `got` (see `pieces`).
    fn join(
        &self,
        got: &[IntValue<'ctx>],
        bt: IntType<'ctx>,
        x: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, String> {
        let joined = if got.len() == 2 {
            let lo = self.b.build_int_z_extend(got[0], bt, "").llvm()?;
            let hi = self.b.build_int_z_extend(got[1], bt, "").llvm()?;
            let hi = self
                .b
                .build_left_shift(hi, bt.const_int(32, false), "")
                .llvm()?;
            self.b.build_or(lo, hi, "").llvm()?
        } else {
            self.b
                .build_int_truncate_or_bit_cast(got[0], bt, "")
                .llvm()?
        };
        Ok(match x {
            BasicValueEnum::FloatValue(f) => {
                self.b.build_bit_cast(joined, f.get_type(), "").llvm()?
            }
            _ => joined.into(),
        })
    }

    fn nvptx_shuffle(
        &mut self,
        x: BasicValueEnum<'ctx>,
        off: IntValue<'ctx>,
        width: IntValue<'ctx>,
        mode: ShuffleMode,
    ) -> Result<(BasicValueEnum<'ctx>, IntValue<'ctx>), String> {
        let i32t = self.i32();
        // shfl.sync's c operand: the segment mask above bit 8 and, but for
        // `up`, the highest lane of a segment.
        let seg = self
            .b
            .build_int_sub(i32t.const_int(32, false), width, "")
            .llvm()?;
        let seg = self
            .b
            .build_left_shift(seg, i32t.const_int(8, false), "")
            .llvm()?;
        let c = if mode == ShuffleMode::Up {
            seg
        } else {
            self.b.build_or(seg, i32t.const_int(31, false), "").llvm()?
        };
        let kind = match mode {
            ShuffleMode::Xor => "bfly",
            other => other.keyword(),
        };
        let name = format!("llvm.nvvm.shfl.sync.{kind}.i32p");
        let ret = self
            .cx
            .struct_type(&[i32t.into(), self.cx.bool_type().into()], false);
        let mask = i32t.const_all_ones();
        let (pieces, bt) = self.pieces(x)?;
        let mut got = Vec::new();
        let mut valid = None;
        for p in pieces {
            let r = self
                .call(
                    &name,
                    Some(ret.into()),
                    &[mask.into(), p.into(), off.into(), c.into()],
                )?
                .expect("returns a pair")
                .into_struct_value();
            got.push(
                self.b
                    .build_extract_value(r, 0, "")
                    .llvm()?
                    .into_int_value(),
            );
            valid = Some(
                self.b
                    .build_extract_value(r, 1, "")
                    .llvm()?
                    .into_int_value(),
            );
        }
        Ok((self.join(&got, bt, x)?, valid.expect("one piece at least")))
    }

    /// On AMD GPUs: the source lane in the wavefront (`mbcnt` gives a
    /// thread's lane), read with `ds_bpermute`, which addresses lanes in
    /// bytes.
    fn amdgpu_shuffle(
        &mut self,
        x: BasicValueEnum<'ctx>,
        off: IntValue<'ctx>,
        width: IntValue<'ctx>,
        mode: ShuffleMode,
    ) -> Result<(BasicValueEnum<'ctx>, IntValue<'ctx>), String> {
        let i32t = self.i32();
        let all = i32t.const_all_ones();
        let lo = self
            .call(
                "llvm.amdgcn.mbcnt.lo",
                Some(i32t.into()),
                &[all.into(), i32t.const_zero().into()],
            )?
            .expect("returns i32")
            .into_int_value();
        let lane = self
            .call(
                "llvm.amdgcn.mbcnt.hi",
                Some(i32t.into()),
                &[all.into(), lo.into()],
            )?
            .expect("returns i32")
            .into_int_value();
        let (at, valid) = self.shuffle_source(lane, off, width, mode)?;
        let addr = self
            .b
            .build_left_shift(at, i32t.const_int(2, false), "")
            .llvm()?;
        let (pieces, bt) = self.pieces(x)?;
        let mut got = Vec::new();
        for p in pieces {
            let r = self
                .call(
                    "llvm.amdgcn.ds.bpermute",
                    Some(i32t.into()),
                    &[addr.into(), p.into()],
                )?
                .expect("returns i32")
                .into_int_value();
            got.push(r);
        }
        Ok((self.join(&got, bt, x)?, valid))
    }

    /// On the host, whose threads have no warps: each thread writes its
    /// value's bits to its slot after the block's shared memory (see
    /// [`host_slots`]), waits for its warpgroup (the block where that is
    /// not made of warpgroups), reads its source lane's slot and waits
    /// again: every thread of the warpgroup runs the shuffle, which a
    /// warp-specialised kernel's producer warpgroup does not.
    fn host_shuffle(
        &mut self,
        x: BasicValueEnum<'ctx>,
        off: IntValue<'ctx>,
        width: IntValue<'ctx>,
        mode: ShuffleMode,
    ) -> Result<(BasicValueEnum<'ctx>, IntValue<'ctx>), String> {
        let i64t = self.cx.i64_type();
        let tid = self.host.as_ref().expect("host parameters").thread;
        let (at, valid) = self.shuffle_source(tid, off, width, mode)?;
        let (bits, _) = self.to_bits(x)?;
        let wide = self
            .b
            .build_int_z_extend_or_bit_cast(bits, i64t, "")
            .llvm()?;
        let mine = self.host_slot(0, tid)?;
        self.b.build_store(mine, wide).llvm()?;
        self.host_barrier(super::HOST_WARPGROUP_BARRIER)?;
        let theirs = self.host_slot(0, at)?;
        let got = self.b.build_load(i64t, theirs, "").llvm()?.into_int_value();
        self.host_barrier(super::HOST_WARPGROUP_BARRIER)?;
        let got = self
            .b
            .build_int_truncate_or_bit_cast(got, bits.get_type(), "")
            .llvm()?;
        Ok((self.join(&[got], bits.get_type(), x)?, valid))
    }

    /// On the host, this thread's index in its block.
    pub(crate) fn host_thread(&self) -> Option<IntValue<'ctx>> {
        self.host.as_ref().map(|h| h.thread)
    }

    /// On the host, the address of exchange slot `k` (below
    /// [`HOST_SLOTS`]) of thread `t` of the block (see [`host_slots`]).
    pub(crate) fn host_slot(
        &mut self,
        k: u64,
        t: IntValue<'ctx>,
    ) -> Result<PointerValue<'ctx>, String> {
        let i64t = self.cx.i64_type();
        let base = self.shared_base()?;
        let first = host_slots(self.shared_bytes) + 8 * k * self.threads;
        // SAFETY (LLVM semantics): HOST_SLOTS slots for every thread follow the
        // block's shared memory in the host's buffer (HostModule::run sizes
        // it), and `t` is a thread of the block.
        unsafe {
            let slots = self
                .b
                .build_in_bounds_gep(self.cx.i8_type(), base, &[i64t.const_int(first, false)], "")
                .llvm()?;
            self.b.build_in_bounds_gep(i64t, slots, &[t], "").llvm()
        }
    }

    /// A scalar's bits as an integer, and how many there are.
    fn to_bits(&self, x: BasicValueEnum<'ctx>) -> Result<(IntValue<'ctx>, u32), String> {
        match x {
            BasicValueEnum::IntValue(i) => Ok((i, i.get_type().get_bit_width())),
            BasicValueEnum::FloatValue(f) => {
                let t = f.get_type();
                let (w, it) = if t == self.cx.f64_type() {
                    (64, self.cx.i64_type())
                } else if t == self.cx.f32_type() {
                    (32, self.cx.i32_type())
                } else {
                    (16, self.cx.i16_type())
                };
                let b = self.b.build_bit_cast(f, it, "").llvm()?;
                Ok((b.into_int_value(), w))
            }
            _ => Err("aic-llvm: gpu.shuffle of a value that is neither integer nor float".into()),
        }
    }

    /// `gpu.barrier`: the block's threads wait for each other, and see
    /// each other's writes to shared memory after it.
    pub(crate) fn barrier(&mut self) -> Result<(), String> {
        // One thread per block has nobody to wait for.
        if self.threads <= 1 {
            return Ok(());
        }
        match self.target {
            Target::Nvptx { .. } => {
                let zero = self.i32().const_zero().into();
                self.call("llvm.nvvm.barrier.cta.sync.aligned.all", None, &[zero])?;
            }
            Target::Amdgpu { .. } => {
                // s_barrier alone orders no memory: LDS writes before it must be
                // released to, and reads after it acquire from, the workgroup.
                self.fence(inkwell::AtomicOrdering::Release)?;
                self.call("llvm.amdgcn.s.barrier", None, &[])?;
                self.fence(inkwell::AtomicOrdering::Acquire)?;
            }
            Target::Host => self.host_barrier(HOST_BARRIER)?,
        }
        Ok(())
    }

    /// A call of the host's barrier function `name` (convergent: LLVM may
    /// not move it across control flow), declared on first use.
    pub(crate) fn host_barrier(&mut self, name: &str) -> Result<(), String> {
        self.host_barrier_of(name, &[])
    }

    /// A call of the host's barrier function `name` on the 32-bit
    /// integers `args` (convergent), declared on first use.
    pub(crate) fn host_barrier_of(
        &mut self,
        name: &str,
        args: &[inkwell::values::IntValue<'ctx>],
    ) -> Result<(), String> {
        let f = match self.m.get_function(name) {
            Some(f) => f,
            None => {
                let params: Vec<inkwell::types::BasicMetadataTypeEnum> =
                    args.iter().map(|a| a.get_type().into()).collect();
                let f =
                    self.m
                        .add_function(name, self.cx.void_type().fn_type(&params, false), None);
                let conv = Attribute::get_named_enum_kind_id("convergent");
                f.add_attribute(
                    AttributeLoc::Function,
                    self.cx.create_enum_attribute(conv, 0),
                );
                f
            }
        };
        let args: Vec<inkwell::values::BasicMetadataValueEnum> =
            args.iter().map(|a| (*a).into()).collect();
        self.b.build_call(f, &args, "").llvm()?;
        Ok(())
    }

    /// `fence syncscope("workgroup") <ordering>`, which inkwell cannot build.
    fn fence(&self, ordering: inkwell::AtomicOrdering) -> Result<(), String> {
        use llvm_sys::core::{LLVMBuildFenceSyncScope, LLVMGetSyncScopeID};
        let scope = "workgroup";
        if self.b.get_insert_block().is_none() {
            return Err("aic-llvm: internal error: fence without a position".into());
        }
        // SAFETY: the builder and context are live, the builder is positioned
        // (checked just above), and the strings outlive the calls.
        unsafe {
            let id = LLVMGetSyncScopeID(self.cx.raw(), scope.as_ptr().cast(), scope.len());
            LLVMBuildFenceSyncScope(self.b.as_mut_ptr(), ordering.into(), id, c"".as_ptr());
        }
        Ok(())
    }
}
