//! Translation of `gpu.kernel` ops into LLVM IR functions: the kernel's entry
//! point on a GPU, or on the host an internal function per thread plus an
//! exported wrapper that walks the grid (see [`crate::host`]).

use crate::target::Target;
use crate::{BufferInfo, KernelInfo};
use aic::constraints::int_attr;
use aic::float::FloatKind;
use aic::ir::{Context, Op, Region, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::gpu::ShuffleMode;
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context as LContext;
use inkwell::module::{Linkage, Module};
use inkwell::types::{
    AnyType, BasicMetadataTypeEnum, BasicType, BasicTypeEnum, FloatType, IntType,
};
use inkwell::values::{
    BasicMetadataValueEnum, BasicValue, BasicValueEnum, FloatValue, FunctionValue, IntValue,
    PointerValue,
};
use inkwell::{AddressSpace, FloatPredicate, IntPredicate};
use std::collections::HashMap;

use crate::ops::Emit;
use aic_dialects::{gpu, memref, scf, vector};

mod find;
mod memory;
mod threads;

use find::{elem_bytes, flat_memref};
pub(crate) use find::{kernels, loc_text};

/// LLVM's calling convention number of `ptx_kernel` (LLVM 22 marks NVPTX
/// kernels by calling convention, no longer by `nvvm.annotations`).
const PTX_KERNEL: u32 = 71;
/// LLVM's calling convention number of `amdgpu_kernel`.
const AMDGPU_KERNEL: u32 = 91;
/// The module-level symbol of NVPTX dynamic shared memory.
const NVPTX_SHARED: &str = "aic_shared";
/// The host's barrier, resolved by the JIT to a Rust function.
pub(crate) const HOST_BARRIER: &str = "aic_host_barrier";
/// The host's barrier of a warpgroup (128 threads, or the whole block when
/// it is smaller or not made of warpgroups): what `.sync.aligned` wgmma
/// waits imply on the GPU, where a warpgroup's threads run them together.
pub(crate) const HOST_WARPGROUP_BARRIER: &str = "aic_host_warpgroup_barrier";
/// The host's named barriers (`nvvm.barrier`): `(id: i32, threads: i32)`.
pub(crate) const HOST_NAMED_BARRIER: &str = "aic_host_named_barrier";
/// The host's arrival on a named barrier (`nvvm.barrier.arrive`): `(id:
/// i32, threads: i32)`.
pub(crate) const HOST_NAMED_ARRIVE: &str = "aic_host_named_arrive";

/// The scf, gpu and memref ops this module translates ([`crate::ops`]).
pub(crate) const ROWS: &[(&str, Emit)] = &[
    (scf::FOR.name, Emit::Op(|l, op| l.scf_for(op))),
    (scf::IF.name, Emit::Op(|l, op| l.scf_if(op))),
    (
        gpu::THREAD_ID.name,
        Emit::Value(|l, op| Ok(l.id(op, true)?.into())),
    ),
    (
        gpu::BLOCK_ID.name,
        Emit::Value(|l, op| Ok(l.id(op, false)?.into())),
    ),
    (
        gpu::LANE_ID.name,
        Emit::Value(|l, op| Ok(l.lane_id(op)?.into())),
    ),
    (gpu::BARRIER.name, Emit::Op(|l, _| l.barrier())),
    (gpu::SHUFFLE.name, Emit::Op(|l, op| l.shuffle(op))),
    (gpu::SHARED.name, Emit::Op(|l, op| l.shared_view(op))),
    (memref::ALLOCA.name, Emit::Op(|l, op| l.alloca(op))),
    (memref::LOAD.name, Emit::Op(|l, op| l.load(op))),
    (memref::STORE.name, Emit::Op(|l, op| l.store(op))),
    (vector::LOAD.name, Emit::Op(|l, op| l.vector_load(op))),
    (vector::STORE.name, Emit::Op(|l, op| l.vector_store(op))),
];

/// Turns an inkwell builder error (a misuse of the builder, so a bug here,
/// never the user's) into this crate's error text.
/// The alignment in bytes a GPU kernel assumes of its buffers; launchers
/// pass whole allocations, which are aligned more than this.
pub const BUFFER_ALIGN: u64 = 16;

/// Where, on the host, the 8-byte slots through which a block's threads
/// exchange values start: after the kernel's `shared` bytes, 16-byte
/// aligned. Each thread has [`HOST_SLOTS`], slot `k` of every thread
/// after the block's slots `k - 1`: `gpu.shuffle` uses slot 0,
/// `amdgpu.mfma` slots 0 and 1 (A and B), `nvgpu.mma.sync` 0 to 2.
pub fn host_slots(shared: u64) -> u64 {
    shared.div_ceil(16) * 16
}

/// Exchange slots each thread has on the host (see [`host_slots`]).
pub const HOST_SLOTS: u64 = 4;

pub(crate) trait Llvm<T> {
    /// The value, or the error as text.
    fn llvm(self) -> Result<T, String>;
}

impl<T> Llvm<T> for Result<T, BuilderError> {
    fn llvm(self) -> Result<T, String> {
        self.map_err(|e| format!("aic-llvm: internal error building LLVM IR: {e}"))
    }
}

/// A kernel found in the input, with the op it came from.
pub(crate) struct Kernel {
    /// What callers need to know to run it.
    pub info: KernelInfo,
    /// The `gpu.kernel` op.
    pub op: Op,
}

/// The address spaces of a target's memories.
#[derive(Clone, Copy)]
pub(crate) struct Spaces {
    /// Kernel arguments (global memory).
    pub global: u16,
    /// The block's shared memory (LDS).
    pub shared: u16,
}

impl Spaces {
    fn of(t: &Target) -> Spaces {
        match t {
            Target::Nvptx { .. } | Target::Amdgpu { .. } => Spaces {
                global: 1,
                shared: 3,
            },
            Target::Host => Spaces {
                global: 0,
                shared: 0,
            },
        }
    }
}

/// What one kernel's translation needs beyond the module: the values of the
/// host function's extra parameters.
struct HostParams<'ctx> {
    shared: PointerValue<'ctx>,
    block: [IntValue<'ctx>; 3],
    thread: IntValue<'ctx>,
}

/// Translates kernels into one LLVM module.
pub(crate) struct Lower<'a, 'ctx> {
    /// The aic IR being translated.
    pub ir: &'a Context,
    /// The LLVM context the module lives in.
    pub cx: &'ctx LContext,
    /// The module receiving the kernels.
    pub m: &'a Module<'ctx>,
    /// Builds the kernel's code at the current point.
    pub b: Builder<'ctx>,
    /// Builds allocas at the end of the entry block, which holds nothing else
    /// until the kernel is complete, so every alloca is static.
    pub(crate) allocas: Builder<'ctx>,
    /// The machine the module is for.
    pub target: &'a Target,
    spaces: Spaces,
    /// Whether the host converts f16 natively (x86 F16C or any AArch64): LLVM
    /// would otherwise call compiler-rt helpers the JIT cannot resolve.
    host_f16: bool,
    /// Per kernel.
    kernel: String,
    kernel_op: Option<Op>,
    pub(crate) threads: u64,
    block: [u64; 3],
    grid: [u64; 3],
    shared_bytes: u64,
    vals: HashMap<Value, BasicValueEnum<'ctx>>,
    shared_base: Option<PointerValue<'ctx>>,
    /// The tensor-map parameter of each `nvgpu.tma.create.descriptor` of
    /// the kernel (NVPTX).
    pub(crate) tensor_maps: HashMap<Op, PointerValue<'ctx>>,
    host: Option<HostParams<'ctx>>,
}

impl<'a, 'ctx> Lower<'a, 'ctx> {
    /// A translator into `m`, whose triple and data layout are already set.
    pub fn new(
        ir: &'a Context,
        cx: &'ctx LContext,
        m: &'a Module<'ctx>,
        target: &'a Target,
    ) -> Self {
        let host_f16 = match target {
            Target::Host => {
                let triple = target.triple();
                !(triple.starts_with("x86_64") || triple.starts_with("i686"))
                    || target.features().split(',').any(|f| f == "+f16c")
            }
            _ => true,
        };
        Lower {
            ir,
            cx,
            m,
            b: cx.create_builder(),
            allocas: cx.create_builder(),
            target,
            spaces: Spaces::of(target),
            host_f16,
            kernel: String::new(),
            kernel_op: None,
            threads: 1,
            block: [1; 3],
            grid: [1; 3],
            shared_bytes: 0,
            vals: HashMap::new(),
            shared_base: None,
            tensor_maps: HashMap::new(),
            host: None,
        }
    }

    // ------------------------------------------------------------ errors

    /// An error about `op`, naming the kernel and the op's location.
    pub fn err(&self, op: Op, msg: impl std::fmt::Display) -> String {
        let at = loc_text(self.ir, op).map_or(String::new(), |l| format!(" (at {l})"));
        format!("aic-llvm: {msg} in kernel @{}{at}", self.kernel)
    }

    pub fn err_cannot(&self, op: Op) -> String {
        let at = loc_text(self.ir, op).map_or(String::new(), |l| format!(" (at {l})"));
        format!(
            "aic-llvm: cannot translate '{}' in kernel @{}{at}",
            self.ir.op_name(op),
            self.kernel
        )
    }

    // ------------------------------------------------------------ types

    /// The LLVM type of a scalar: index is i64, floats keep their format.
    pub fn ty(&self, op: Op, t: Type) -> Result<BasicTypeEnum<'ctx>, String> {
        let cx = self.cx;
        Ok(match self.ir.type_kind(t) {
            TypeKind::Index => cx.i64_type().into(),
            TypeKind::Integer { width, .. } if *width >= 1 && *width <= 64 => cx
                .custom_width_int_type(std::num::NonZeroU32::new(*width).expect("width >= 1"))
                .map_err(|e| self.err(op, e))?
                .into(),
            TypeKind::Float(FloatKind::F16) => {
                if !self.host_f16 {
                    return Err(self.err(
                        op,
                        "f16 needs a host CPU with F16C (half-precision conversions)",
                    ));
                }
                cx.f16_type().into()
            }
            TypeKind::Float(FloatKind::BF16) => cx.bf16_type().into(),
            // fp8 values are their bytes (LLVM has no 8-bit float): crate::fp8.
            TypeKind::Float(FloatKind::F8E4M3FN | FloatKind::F8E5M2) => cx.i8_type().into(),
            TypeKind::Float(FloatKind::F32) => cx.f32_type().into(),
            TypeKind::Float(FloatKind::F64) => cx.f64_type().into(),
            // nvgpu's asynchronous-copy tokens name nothing at run time
            // (cp.async groups are counted per thread): an i32 kept at 0.
            t if t
                .dialect_value::<aic_dialects::nvgpu::AsyncToken>()
                .is_some() =>
            {
                cx.i32_type().into()
            }
            // Register fragments (nvgpu's operands): flat, row-major.
            TypeKind::Vector { shape, elem, .. } if !shape.is_empty() => {
                let n = u32::try_from(shape.iter().product::<i64>()).unwrap_or(0);
                match self.ty(op, *elem)? {
                    BasicTypeEnum::FloatType(f) if n > 0 => f.vec_type(n).into(),
                    BasicTypeEnum::IntType(i) if n > 0 => i.vec_type(n).into(),
                    _ => return Err(self.err(op, "a vector of an unsupported shape or element")),
                }
            }
            _ => {
                return Err(self.err(
                    op,
                    format!(
                        "type '{}' is not supported (integers up to 64 bits, index, f8E4M3FN, f8E5M2, f16, bf16, f32, f64)",
                        aic::printer::type_text(self.ir.uniquer(), t)
                    ),
                ));
            }
        })
    }

    /// The type a scalar has in memory: `i1` takes a byte, as buffers hold it.
    fn storage_ty(&self, op: Op, t: Type) -> Result<BasicTypeEnum<'ctx>, String> {
        let ty = self.ty(op, t)?;
        Ok(match ty {
            BasicTypeEnum::IntType(i) if i.get_bit_width() == 1 => self.cx.i8_type().into(),
            _ => ty,
        })
    }

    /// LLVM's `float`.
    pub fn f32(&self) -> FloatType<'ctx> {
        self.cx.f32_type()
    }

    /// LLVM's `i32`.
    pub fn i32(&self) -> IntType<'ctx> {
        self.cx.i32_type()
    }

    /// Whether `t` is one of the 16-bit float formats, which aic-llvm computes in f32.
    pub fn is_narrow(&self, t: FloatType<'ctx>) -> bool {
        t == self.cx.f16_type() || t == self.cx.bf16_type()
    }

    // ------------------------------------------------------------ values

    pub fn val_of(&self, op: Op, v: Value) -> Result<BasicValueEnum<'ctx>, String> {
        self.vals.get(&v).copied().ok_or_else(|| {
            self.err(
                op,
                format!(
                    "'{}' uses a value defined outside the kernel or not yet translated",
                    self.ir.op_name(op)
                ),
            )
        })
    }

    pub(crate) fn operand(&self, op: Op, i: usize) -> Result<BasicValueEnum<'ctx>, String> {
        let v =
            *self.ir.operands(op).get(i).ok_or_else(|| {
                self.err(op, format!("'{}' lacks operand {i}", self.ir.op_name(op)))
            })?;
        self.val_of(op, v)
    }

    pub(crate) fn int_operand(&self, op: Op, i: usize) -> Result<IntValue<'ctx>, String> {
        match self.operand(op, i)? {
            BasicValueEnum::IntValue(v) => Ok(v),
            _ => Err(self.err(
                op,
                format!(
                    "operand {i} of '{}' must be an integer",
                    self.ir.op_name(op)
                ),
            )),
        }
    }

    pub(crate) fn float_operand(&self, op: Op, i: usize) -> Result<FloatValue<'ctx>, String> {
        match self.operand(op, i)? {
            BasicValueEnum::FloatValue(v) => Ok(v),
            _ => Err(self.err(
                op,
                format!("operand {i} of '{}' must be a float", self.ir.op_name(op)),
            )),
        }
    }

    pub(crate) fn result_type(&self, op: Op) -> Result<Type, String> {
        if self.ir.num_results(op) == 0 {
            return Err(self.err(op, format!("'{}' has no result", self.ir.op_name(op))));
        }
        Ok(self.ir.value_type(self.ir.result(op, 0)))
    }

    pub(crate) fn set(&mut self, op: Op, v: BasicValueEnum<'ctx>) {
        self.set_value(self.ir.result(op, 0), v);
    }

    /// Records the translation of value `r`.
    pub fn set_value(&mut self, r: Value, v: BasicValueEnum<'ctx>) {
        self.vals.insert(r, v);
    }

    // ------------------------------------------------------------ calls

    /// A call of function `name` (an LLVM intrinsic such as `llvm.sqrt.f32`,
    /// or an external symbol), declared on first use.
    pub fn call(
        &self,
        name: &str,
        ret: Option<BasicTypeEnum<'ctx>>,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<Option<BasicValueEnum<'ctx>>, String> {
        let f = match self.m.get_function(name) {
            Some(f) => f,
            None => {
                let params: Vec<BasicMetadataTypeEnum> =
                    args.iter().map(|a| a.get_type().into()).collect();
                let fty = match ret {
                    Some(r) => r.fn_type(&params, false),
                    None => self.cx.void_type().fn_type(&params, false),
                };
                self.m.add_function(name, fty, None)
            }
        };
        let args: Vec<BasicMetadataValueEnum> = args.iter().map(|a| (*a).into()).collect();
        let c = self.b.build_call(f, &args, "").llvm()?;
        Ok(c.try_as_basic_value().basic())
    }

    /// A call of an intrinsic or function returning a float like its first argument.
    pub fn fcall(&self, name: &str, args: &[FloatValue<'ctx>]) -> Result<FloatValue<'ctx>, String> {
        let ret = args[0].get_type().as_basic_type_enum();
        let a: Vec<BasicValueEnum> = args.iter().map(|x| x.as_basic_value_enum()).collect();
        self.call(name, Some(ret), &a)?
            .map(|v| v.into_float_value())
            .ok_or_else(|| format!("aic-llvm: internal error: {name} returned nothing"))
    }

    /// `x / y`, where `approx` says the quotient need not be exactly
    /// rounded: it is rounded back to f16 or bf16 afterwards, or the op's
    /// fast-math flags allow it (`arcp`, `afn`). On NVPTX such an f32
    /// quotient takes `div.approx.f32` (within 2 ulp, far below half an ulp
    /// of a narrow type) instead of the IEEE division, which ptxas expands to
    /// some 40 instructions: in a GEMM's GeLU epilogue that division cost as
    /// much as the K loop. Other quotients stay exactly rounded.
    pub fn fdiv(
        &self,
        x: FloatValue<'ctx>,
        y: FloatValue<'ctx>,
        approx: bool,
    ) -> Result<FloatValue<'ctx>, String> {
        if approx && matches!(self.target, Target::Nvptx { .. }) && x.get_type() == self.f32() {
            self.fcall("llvm.nvvm.div.approx.f", &[x, y])
        } else {
            self.b.build_float_div(x, y, "").llvm()
        }
    }

    /// Whether `op`'s `#arith.fastmath` flags include one of `flags` (bits
    /// of [`aic_dialects::arith::FASTMATH`]).
    pub fn fastmath_has(&self, op: Op, flags: u32) -> bool {
        let ir = self.ir;
        ir.find_ident("fastmath")
            .and_then(|i| ir.inherent_attr(op, i))
            .and_then(|a| aic_dialects::arith::FASTMATH.bits_of(ir.attr_kind(a)))
            .is_some_and(|v| v & flags != 0)
    }

    /// The suffix of an overloaded intrinsic for a float type (`f32`).
    pub fn fsuffix(&self, t: FloatType<'ctx>) -> &'static str {
        if t == self.cx.f16_type() {
            "f16"
        } else if t == self.cx.bf16_type() {
            "bf16"
        } else if t == self.cx.f64_type() {
            "f64"
        } else {
            "f32"
        }
    }

    // ------------------------------------------------------------ narrow floats

    /// `x` in f32 if it is a 16-bit float (the format aic-llvm computes those in),
    /// with the format to return to.
    pub fn widen(
        &self,
        x: FloatValue<'ctx>,
    ) -> Result<(FloatValue<'ctx>, Option<FloatType<'ctx>>), String> {
        let t = x.get_type();
        if self.is_narrow(t) {
            Ok((self.b.build_float_ext(x, self.f32(), "").llvm()?, Some(t)))
        } else {
            Ok((x, None))
        }
    }

    /// `x` (f32 or f64) rounded to `to` (to nearest, ties to even).
    pub fn narrow(
        &self,
        x: FloatValue<'ctx>,
        to: Option<FloatType<'ctx>>,
    ) -> Result<FloatValue<'ctx>, String> {
        let Some(to) = to else { return Ok(x) };
        if x.get_type() == to {
            return Ok(x);
        }
        let b = &self.b;
        let bf16 = to == self.cx.bf16_type();
        let via_f32 =
            x.get_type() == self.cx.f64_type() && (bf16 || matches!(self.target, Target::Host));
        // The host has no instruction from f64 to the 16-bit formats and the JIT
        // cannot resolve compiler-rt's helpers, so f64 rounds to f32 first
        // (a double rounding, off by one unit in the last place in rare ties).
        let x = if via_f32 {
            b.build_float_trunc(x, self.f32(), "").llvm()?
        } else {
            x
        };
        if bf16 && matches!(self.target, Target::Host) {
            // f32 -> bf16 rounding to nearest even in integer code: x86 has no
            // instruction for it and LLVM would call __truncsfbf2.
            let i32t = self.i32();
            let bits = b.build_bit_cast(x, i32t, "").llvm()?.into_int_value();
            let lsb = b
                .build_and(
                    b.build_right_shift(bits, i32t.const_int(16, false), false, "")
                        .llvm()?,
                    i32t.const_int(1, false),
                    "",
                )
                .llvm()?;
            let bias = b
                .build_int_add(lsb, i32t.const_int(0x7fff, false), "")
                .llvm()?;
            let rounded = b.build_int_add(bits, bias, "").llvm()?;
            let hi = b
                .build_right_shift(rounded, i32t.const_int(16, false), false, "")
                .llvm()?;
            let hi = b.build_int_truncate(hi, self.cx.i16_type(), "").llvm()?;
            let nan = b
                .build_float_compare(FloatPredicate::UNO, x, x, "")
                .llvm()?;
            let h = b
                .build_select(nan, self.cx.i16_type().const_int(0x7fc0, false), hi, "")
                .llvm()?;
            return Ok(b.build_bit_cast(h, to, "").llvm()?.into_float_value());
        }
        b.build_float_trunc(x, to, "").llvm()
    }

    // ------------------------------------------------------------ kernels

    /// Adds `k` to the module: its GPU entry point, or on the host its
    /// per-thread function (the wrapper is [`crate::host::wrapper`]'s).
    pub fn kernel(&mut self, k: &Kernel) -> Result<FunctionValue<'ctx>, String> {
        self.kernel = k.info.name.clone();
        self.kernel_op = Some(k.op);
        self.block = k.info.block;
        self.grid = k.info.grid;
        self.threads = k.info.block.iter().product();
        self.shared_bytes = k.info.shared;
        self.vals.clear();
        self.shared_base = None;
        self.host = None;
        let cx = self.cx;
        let gptr = cx.ptr_type(AddressSpace::from(self.spaces.global));
        let n = k.info.buffers.len();
        let mut params: Vec<BasicMetadataTypeEnum> = vec![gptr.into(); n];
        let host = matches!(self.target, Target::Host);
        // NVPTX: the TMA tensor maps, each a 128-byte parameter passed by
        // value that the kernel reads in place (`nvvm.grid_constant`).
        let maps = if matches!(self.target, Target::Nvptx { .. }) {
            k.info.tensor_maps.len()
        } else {
            0
        };
        params.extend(vec![
            BasicMetadataTypeEnum::from(
                cx.ptr_type(AddressSpace::default())
            );
            maps
        ]);
        if host {
            params.push(cx.ptr_type(AddressSpace::default()).into());
            params.extend([BasicMetadataTypeEnum::from(cx.i64_type()); 4]);
        }
        let fty = cx.void_type().fn_type(&params, false);
        let linkage = if host { Some(Linkage::Internal) } else { None };
        let f = self.m.add_function(&k.info.name, fty, linkage);
        let noalias = cx.create_enum_attribute(Attribute::get_named_enum_kind_id("noalias"), 0);
        for i in 0..n {
            // The buffers are distinct allocations. Threads of a block must
            // communicate through shared memory (which is never noalias), not
            // through these buffers, as with CUDA's __restrict__.
            f.add_attribute(AttributeLoc::Param(i as u32), noalias);
        }
        for j in 0..maps {
            let at = AttributeLoc::Param((n + j) as u32);
            let map = cx.i8_type().array_type(128).as_any_type_enum();
            let byval = Attribute::get_named_enum_kind_id("byval");
            f.add_attribute(at, cx.create_type_attribute(byval, map));
            let align = Attribute::get_named_enum_kind_id("align");
            f.add_attribute(at, cx.create_enum_attribute(align, 64));
            f.add_attribute(at, cx.create_string_attribute("nvvm.grid_constant", ""));
        }
        self.tensor_maps.clear();
        let creates = aic_dialects::nvgpu::tensor_maps(self.ir, k.op);
        for (j, (o, _)) in creates.iter().enumerate().take(maps) {
            let p = f.get_nth_param((n + j) as u32).expect("declared above");
            p.set_name(&format!("tensor_map{j}"));
            self.tensor_maps.insert(*o, p.into_pointer_value());
        }
        if self.target.is_gpu() {
            // Buffers are whole device allocations (aligned to at least 256
            // bytes by the CUDA and HIP allocators): 16 is what lets LLVM
            // merge a thread's neighbouring accesses into vector ones.
            let align =
                cx.create_enum_attribute(Attribute::get_named_enum_kind_id("align"), BUFFER_ALIGN);
            for i in 0..n {
                f.add_attribute(AttributeLoc::Param(i as u32), align);
            }
        }
        let str_attr = |k: &str, v: &str| {
            f.add_attribute(AttributeLoc::Function, cx.create_string_attribute(k, v))
        };
        match self.target {
            Target::Nvptx { .. } => {
                f.set_call_conventions(PTX_KERNEL);
                let [x, y, z] = self.block;
                str_attr("nvvm.reqntid", &format!("{x},{y},{z}"));
            }
            Target::Amdgpu { .. } => {
                f.set_call_conventions(AMDGPU_KERNEL);
                str_attr(
                    "amdgpu-flat-work-group-size",
                    &format!("1,{}", self.threads),
                );
                str_attr("uniform-work-group-size", "true");
            }
            Target::Host => {
                str_attr("target-cpu", &self.target.cpu());
                str_attr("target-features", &self.target.features());
                let p = |i: usize| f.get_nth_param(i as u32).expect("declared above");
                self.host = Some(HostParams {
                    shared: p(n).into_pointer_value(),
                    block: [
                        p(n + 1).into_int_value(),
                        p(n + 2).into_int_value(),
                        p(n + 3).into_int_value(),
                    ],
                    thread: p(n + 4).into_int_value(),
                });
            }
        }
        let entry = cx.append_basic_block(f, "entry");
        let start = cx.append_basic_block(f, "start");
        self.allocas.position_at_end(entry);
        self.b.position_at_end(start);
        let body = self
            .ir
            .regions(k.op)
            .first()
            .and_then(|r| self.ir.entry_block(*r))
            .ok_or_else(|| format!("aic-llvm: kernel @{} has no body", k.info.name))?;
        for (i, a) in self.ir.block_args(body).iter().enumerate() {
            let p = f.get_nth_param(i as u32).expect("one parameter per buffer");
            p.set_name(&format!("arg{i}"));
            self.vals.insert(*a, p);
        }
        let mut returned = false;
        for op in self.ir.block_ops(body).collect::<Vec<_>>() {
            if returned {
                return Err(self.err(op, "ops after gpu.return"));
            }
            if gpu::Return::is(self.ir, op) {
                self.b.build_return(None).llvm()?;
                returned = true;
            } else {
                self.op(op)?;
            }
        }
        if !returned {
            return Err(format!(
                "aic-llvm: kernel @{} does not end with gpu.return",
                k.info.name
            ));
        }
        self.allocas.build_unconditional_branch(start).llvm()?;
        Ok(f)
    }

    // ------------------------------------------------------------ regions

    /// Translates the single block of `r` with `args` as its arguments and
    /// returns the values its `scf.yield` yields (none for an empty region).
    fn region(
        &mut self,
        op: Op,
        r: Region,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<Vec<BasicValueEnum<'ctx>>, String> {
        let blocks: Vec<_> = self.ir.region_blocks(r).collect();
        if blocks.is_empty() {
            return Ok(Vec::new());
        }
        if blocks.len() > 1 {
            return Err(self.err(
                op,
                format!("'{}' with more than one block", self.ir.op_name(op)),
            ));
        }
        let block = blocks[0];
        let bargs = self.ir.block_args(block).to_vec();
        if bargs.len() != args.len() {
            return Err(self.err(op, "region arguments do not match"));
        }
        for (a, v) in bargs.iter().zip(args) {
            self.vals.insert(*a, *v);
        }
        let mut yielded = Vec::new();
        for o in self.ir.block_ops(block).collect::<Vec<_>>() {
            if scf::Yield::is(self.ir, o) {
                for i in 0..self.ir.operands(o).len() {
                    yielded.push(self.operand(o, i)?);
                }
            } else {
                self.op(o)?;
            }
        }
        Ok(yielded)
    }

    fn no_memref_results(&self, op: Op) -> Result<(), String> {
        for r in self.ir.results(op) {
            if matches!(
                self.ir.type_kind(self.ir.value_type(r)),
                TypeKind::MemRef { .. }
            ) {
                return Err(self.err(
                    op,
                    format!(
                        "'{}' yielding a memref is not supported",
                        self.ir.op_name(op)
                    ),
                ));
            }
        }
        Ok(())
    }

    fn scf_for(&mut self, op: Op) -> Result<(), String> {
        self.no_memref_results(op)?;
        let (lb, ub, step) = (
            self.int_operand(op, 0)?,
            self.int_operand(op, 1)?,
            self.int_operand(op, 2)?,
        );
        let n = self.ir.operands(op).len();
        let mut inits = Vec::new();
        for i in 3..n {
            inits.push(self.operand(op, i)?);
        }
        let unsigned = aic_dialects::scf::FOR
            .attr(self.ir, op, "unsignedCmp")
            .is_some();
        let body_region = self.ir.regions(op)[0];
        let f = self.current_fn()?;
        let pre = self.b.get_insert_block().expect("positioned");
        let header = self.cx.append_basic_block(f, "for.header");
        let body = self.cx.append_basic_block(f, "for.body");
        let exit = self.cx.append_basic_block(f, "for.exit");
        self.b.build_unconditional_branch(header).llvm()?;
        self.b.position_at_end(header);
        let iv = self.b.build_phi(lb.get_type(), "iv").llvm()?;
        iv.add_incoming(&[(&lb, pre)]);
        let mut phis = Vec::new();
        for v in &inits {
            let p = self.b.build_phi(v.get_type(), "").llvm()?;
            p.add_incoming(&[(v as &dyn BasicValue, pre)]);
            phis.push(p);
        }
        let ivv = iv.as_basic_value().into_int_value();
        let pred = if unsigned {
            IntPredicate::ULT
        } else {
            IntPredicate::SLT
        };
        let go = self.b.build_int_compare(pred, ivv, ub, "").llvm()?;
        self.b.build_conditional_branch(go, body, exit).llvm()?;
        self.b.position_at_end(body);
        let mut args = vec![ivv.as_basic_value_enum()];
        args.extend(phis.iter().map(|p| p.as_basic_value()));
        let next = self.region(op, body_region, &args)?;
        if next.len() != phis.len() {
            return Err(self.err(
                op,
                "scf.for yields a different number of values than it carries",
            ));
        }
        // The loop ends when the induction variable reaches the bound, so
        // (like the interpreter, which stops at a wrap) it is taken not to
        // wrap: this lets LLVM count the trips.
        let stepped = if unsigned {
            self.b.build_int_nuw_add(ivv, step, "iv.next").llvm()?
        } else {
            self.b.build_int_nsw_add(ivv, step, "iv.next").llvm()?
        };
        let latch = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(header).llvm()?;
        iv.add_incoming(&[(&stepped, latch)]);
        for (p, v) in phis.iter().zip(&next) {
            p.add_incoming(&[(v as &dyn BasicValue, latch)]);
        }
        self.b.position_at_end(exit);
        for (i, p) in phis.iter().enumerate() {
            let r = self.ir.result(op, i);
            self.vals.insert(r, p.as_basic_value());
        }
        Ok(())
    }

    fn scf_if(&mut self, op: Op) -> Result<(), String> {
        self.no_memref_results(op)?;
        let cond = self.int_operand(op, 0)?;
        let regions = self.ir.regions(op).to_vec();
        let f = self.current_fn()?;
        let then_bb = self.cx.append_basic_block(f, "if.then");
        let else_bb = self.cx.append_basic_block(f, "if.else");
        let merge = self.cx.append_basic_block(f, "if.end");
        self.b
            .build_conditional_branch(cond, then_bb, else_bb)
            .llvm()?;
        self.b.position_at_end(then_bb);
        let tv = self.region(op, regions[0], &[])?;
        let then_end = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(merge).llvm()?;
        self.b.position_at_end(else_bb);
        let ev = match regions.get(1) {
            Some(r) => self.region(op, *r, &[])?,
            None => Vec::new(),
        };
        let else_end = self.b.get_insert_block().expect("positioned");
        self.b.build_unconditional_branch(merge).llvm()?;
        self.b.position_at_end(merge);
        let n = self.ir.num_results(op);
        if tv.len() != n || ev.len() != n {
            return Err(self.err(op, "scf.if branches must yield one value per result"));
        }
        for i in 0..n {
            let p = self.b.build_phi(tv[i].get_type(), "").llvm()?;
            p.add_incoming(&[(&tv[i] as &dyn BasicValue, then_end), (&ev[i], else_end)]);
            let r = self.ir.result(op, i);
            self.vals.insert(r, p.as_basic_value());
        }
        Ok(())
    }

    fn current_fn(&self) -> Result<FunctionValue<'ctx>, String> {
        self.b
            .get_insert_block()
            .and_then(|b| b.get_parent())
            .ok_or_else(|| "aic-llvm: internal error: the builder is not in a function".into())
    }

    // ------------------------------------------------------------ ops

    fn op(&mut self, op: Op) -> Result<(), String> {
        crate::ops::emit(self, op)
    }
}
