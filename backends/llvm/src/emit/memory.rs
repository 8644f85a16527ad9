//! Memory in LLVM IR: the shared-memory view and base, stack allocations,
//! and loads and stores of memref elements.

use super::*;

impl<'a, 'ctx> Lower<'a, 'ctx> {
    pub(super) fn shared_view(&mut self, op: Op) -> Result<(), String> {
        let t = self.result_type(op)?;
        let (n, elem) = flat_memref(self.ir, t).map_err(|m| self.err(op, m))?;
        let offset = int_attr(self.ir, op, "offset")
            .and_then(|o| u64::try_from(o).ok())
            .ok_or_else(|| self.err(op, "gpu.shared needs a byte offset"))?;
        let eb = elem_bytes(self.ir, elem).unwrap_or(1);
        if offset % eb != 0 {
            return Err(self.err(
                op,
                format!("gpu.shared offset {offset} is not a multiple of the element size {eb}"),
            ));
        }
        if offset + n * eb > self.shared_bytes {
            return Err(self.err(
                op,
                format!(
                    "the shared view ends at byte {} but the kernel has {} bytes of shared memory",
                    offset + n * eb,
                    self.shared_bytes
                ),
            ));
        }
        let base = self.shared_base()?;
        let i8t = self.cx.i8_type();
        // SAFETY (LLVM semantics, not Rust's): the view lies inside the block's
        // shared memory, checked just above.
        let p = unsafe {
            self.b
                .build_in_bounds_gep(
                    i8t,
                    base,
                    &[self.cx.i64_type().const_int(offset, false)],
                    "shared",
                )
                .llvm()?
        };
        self.set(op, p.into());
        Ok(())
    }

    /// The start of the block's shared memory.
    pub(crate) fn shared_base(&mut self) -> Result<PointerValue<'ctx>, String> {
        if let Some(p) = self.shared_base {
            return Ok(p);
        }
        let space = AddressSpace::from(self.spaces.shared);
        let p = match self.target {
            Target::Host => self.host.as_ref().expect("host parameters").shared,
            Target::Nvptx { .. } => {
                // Dynamic shared memory: one unsized symbol for the module,
                // sized by the runtime at launch.
                let g = match self.m.get_global(NVPTX_SHARED) {
                    Some(g) => g,
                    None => {
                        let g = self.m.add_global(
                            self.cx.i8_type().array_type(0),
                            Some(space),
                            NVPTX_SHARED,
                        );
                        g.set_linkage(Linkage::External);
                        // wgmma's 128-byte swizzle repeats every 1024
                        // bytes of the shared address, and tiles placed
                        // at multiples of that from here start a pattern.
                        g.set_alignment(1024);
                        g
                    }
                };
                g.as_pointer_value()
            }
            Target::Amdgpu { .. } => {
                // LDS is allocated statically per kernel: the code object
                // records its size (group_segment_fixed_size).
                let ty = self.cx.i8_type().array_type(self.shared_bytes as u32);
                let g = self
                    .m
                    .add_global(ty, Some(space), &format!("{}.shared", self.kernel));
                g.set_linkage(Linkage::Internal);
                g.set_initializer(&ty.get_poison());
                g.set_alignment(16);
                g.as_pointer_value()
            }
        };
        self.shared_base = Some(p);
        Ok(p)
    }

    pub(super) fn alloca(&mut self, op: Op) -> Result<(), String> {
        let t = self.result_type(op)?;
        let (n, elem) = flat_memref(self.ir, t).map_err(|m| self.err(op, m))?;
        if aic_dialects::gpu::is_shared(self.ir, t) {
            return Err(self.err(op, "memref.alloca in shared memory: use gpu.shared"));
        }
        let st = self.storage_ty(op, elem)?;
        let n = u32::try_from(n)
            .map_err(|_| self.err(op, format!("a private array of {n} elements is too large")))?;
        let arr = st.array_type(n);
        // Allocas all sit in the entry block (so they are static and promote to
        // registers); IRBuilder puts them in the data layout's alloca address
        // space (5, private, on AMDGPU).
        let p = self.allocas.build_alloca(arr, "private").llvm()?;
        if let Some(i) = p.as_instruction() {
            let _ = i.set_alignment(16);
        }
        self.set(op, p.into());
        Ok(())
    }

    /// The address of element `index` of memref operand `m`, its element's
    /// aic and storage types, and the alignment to access it with.
    fn element(
        &self,
        op: Op,
        m: usize,
        index: usize,
    ) -> Result<(PointerValue<'ctx>, Type, BasicTypeEnum<'ctx>, u32), String> {
        let mv = *self
            .ir
            .operands(op)
            .get(m)
            .ok_or_else(|| self.err(op, "missing memref"))?;
        let t = self.ir.value_type(mv);
        let (_, elem) = flat_memref(self.ir, t).map_err(|e| self.err(op, e))?;
        let n_idx = self.ir.operands(op).len() - index;
        if n_idx != 1 {
            return Err(self.err(
                op,
                format!(
                    "'{}' with {n_idx} indices: only one index (rank-1 memrefs) is supported",
                    self.ir.op_name(op)
                ),
            ));
        }
        let base = match self.val_of(op, mv)? {
            BasicValueEnum::PointerValue(p) => p,
            _ => return Err(self.err(op, "the memref is not a buffer")),
        };
        let i = self.int_operand(op, index)?;
        let st = self.storage_ty(op, elem)?;
        // SAFETY (LLVM semantics): indices within the memref, as the kernel's
        // own contract (and the interpreter's bounds checks) require.
        let p = unsafe { self.b.build_in_bounds_gep(st, base, &[i], "").llvm()? };
        // The host's buffers are caller-provided byte slices with no alignment
        // promise (and x86 loads do not care); GPU buffers and views are
        // naturally aligned (cudaMalloc/hipMalloc, checked view offsets).
        let align = if self.target.is_gpu() {
            elem_bytes(self.ir, elem).unwrap_or(1) as u32
        } else {
            1
        };
        Ok((p, elem, st, align))
    }

    pub(super) fn load(&mut self, op: Op) -> Result<(), String> {
        let (p, elem, st, align) = self.element(op, 0, 1)?;
        let v = self.b.build_load(st, p, "").llvm()?;
        if let Some(i) = v.as_instruction_value() {
            let _ = i.set_alignment(align);
        }
        let want = self.ty(op, elem)?;
        let v = if want != st {
            // i1 is a byte in memory.
            let z = self.b.build_int_compare(
                IntPredicate::NE,
                v.into_int_value(),
                self.cx.i8_type().const_zero(),
                "",
            );
            z.llvm()?.into()
        } else {
            v
        };
        self.set(op, v);
        Ok(())
    }

    pub(super) fn store(&mut self, op: Op) -> Result<(), String> {
        let (p, _, st, align) = self.element(op, 1, 2)?;
        let mut v = self.operand(op, 0)?;
        if v.get_type() != st {
            v = self
                .b
                .build_int_z_extend(v.into_int_value(), st.into_int_type(), "")
                .llvm()?
                .into();
        }
        let s = self.b.build_store(p, v).llvm()?;
        let _ = s.set_alignment(align);
        Ok(())
    }

    /// The pointer, vector type and alignment of a `vector.load` (value
    /// operand `m` = 0) or `vector.store` (`m` = 1): the first element's
    /// address, aligned as the op's `alignment` promises on GPUs (the
    /// host's buffers promise nothing).
    fn vector_access(
        &self,
        op: Op,
        m: usize,
        vector: Type,
    ) -> Result<(PointerValue<'ctx>, BasicTypeEnum<'ctx>, u32), String> {
        let (p, elem, st, align) = self.element(op, m, m + 1)?;
        if st != self.ty(op, elem)? {
            return Err(self.err(op, "vectors of i1 are not loaded or stored whole"));
        }
        let vt = self.ty(op, vector)?;
        let promised = int_attr(self.ir, op, "alignment")
            .and_then(|a| u32::try_from(a).ok())
            .unwrap_or(align);
        let align = if self.target.is_gpu() {
            promised.max(align)
        } else {
            1
        };
        Ok((p, vt, align))
    }

    pub(crate) fn vector_load(&mut self, op: Op) -> Result<(), String> {
        let t = self.ir.value_type(self.ir.result(op, 0));
        let (p, vt, align) = self.vector_access(op, 0, t)?;
        let v = self.b.build_load(vt, p, "").llvm()?;
        if let Some(i) = v.as_instruction_value() {
            let _ = i.set_alignment(align);
        }
        self.set(op, v);
        Ok(())
    }

    pub(crate) fn vector_store(&mut self, op: Op) -> Result<(), String> {
        let t = self.ir.value_type(self.ir.operands(op)[0]);
        let (p, _, align) = self.vector_access(op, 1, t)?;
        let v = self.operand(op, 0)?;
        let s = self.b.build_store(p, v).llvm()?;
        let _ = s.set_alignment(align);
        Ok(())
    }
}
