//! Cache hints for the buffers a kernel reads or writes once (`gpu.kernel`'s
//! `streaming` buffers). On NVPTX, once LLVM's optimisation has merged a
//! thread's neighbouring accesses into 16-byte ones, each such load and
//! store of a streaming buffer becomes one (inline PTX) that does not
//! allocate in L1 and marks its L2 lines first to evict: data that passes
//! through once then replaces itself in L2 rather than what L2 holds for
//! others, such as the dirty lines of earlier kernels, whose write-back
//! would otherwise share this kernel's memory bandwidth. LLVM has no such
//! hint of its own (its NVPTX backend ignores `!nontemporal`).

use inkwell::attributes::AttributeLoc;
use inkwell::builder::Builder;
use inkwell::context::Context as LContext;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{TargetData, TargetMachine};
use inkwell::types::{AnyType, AnyTypeEnum, BasicTypeEnum};
use inkwell::values::{
    AsValueRef, BasicValue, BasicValueEnum, FunctionValue, InstructionOpcode, InstructionValue,
    IntValue,
};

/// The parameter attribute of a buffer a kernel reads or writes once.
pub(crate) const STREAMING: &str = "aic-streaming";

/// The accesses rewritten: 16 bytes, as four 32-bit registers.
const BYTES: u64 = 16;

fn llvm<T>(r: Result<T, inkwell::builder::BuilderError>) -> Result<T, String> {
    r.map_err(|e| format!("aic-llvm: streaming hints: {e}"))
}

/// Rewrites the 16-byte loads and stores of every function's streaming
/// buffers in `m` with evict-first hints, after merging neighbouring
/// accesses as code generation would (LLVM's load-store vectoriser runs
/// there, after the optimisation pipeline).
pub(crate) fn hint(cx: &LContext, m: &Module<'_>, tm: &TargetMachine) -> Result<(), String> {
    let any = m.get_functions().any(|f| {
        (0..f.count_params()).any(|i| {
            f.get_string_attribute(AttributeLoc::Param(i), STREAMING)
                .is_some()
        })
    });
    if !any {
        return Ok(());
    }
    m.run_passes(
        "function(load-store-vectorizer)",
        tm,
        PassBuilderOptions::create(),
    )
    .map_err(|e| {
        format!(
            "aic-llvm: the load-store vectoriser failed: {}",
            e.to_string_lossy()
        )
    })?;
    let td = tm.get_target_data();
    let td = &td;
    let mut f = m.get_first_function();
    while let Some(func) = f {
        hint_function(cx, func, td)?;
        f = func.get_next_function();
    }
    Ok(())
}

/// The streaming parameter that `ptr` points into, through address
/// arithmetic, if any.
fn streaming_base(func: FunctionValue<'_>, ptr: BasicValueEnum<'_>, marked: &[u32]) -> bool {
    let mut v = ptr;
    loop {
        if marked.iter().any(|i| {
            func.get_nth_param(*i)
                .is_some_and(|p| p.as_value_ref() == v.as_value_ref())
        }) {
            return true;
        }
        let Some(inst) = v.as_instruction_value() else {
            return false;
        };
        if inst.get_opcode() != InstructionOpcode::GetElementPtr {
            return false;
        }
        match inst.get_operand(0).and_then(|o| o.value()) {
            Some(base) => v = base,
            None => return false,
        }
    }
}

fn hint_function(cx: &LContext, func: FunctionValue<'_>, td: &TargetData) -> Result<(), String> {
    let marked: Vec<u32> = (0..func.count_params())
        .filter(|i| {
            func.get_string_attribute(AttributeLoc::Param(*i), STREAMING)
                .is_some()
        })
        .collect();
    if marked.is_empty() {
        return Ok(());
    }
    let wide = |t: AnyTypeEnum<'_>| {
        BasicTypeEnum::try_from(t).is_ok_and(|t| td.get_store_size(&t) == BYTES)
    };
    let mut todo: Vec<InstructionValue<'_>> = Vec::new();
    for bb in func.get_basic_blocks() {
        let mut i = bb.get_first_instruction();
        while let Some(x) = i {
            i = x.get_next_instruction();
            let (ptr, ty) = match x.get_opcode() {
                InstructionOpcode::Load => (0, x.get_type()),
                InstructionOpcode::Store => {
                    let Some(v) = x.get_operand(0).and_then(|o| o.value()) else {
                        continue;
                    };
                    (1, v.get_type().as_any_type_enum())
                }
                _ => continue,
            };
            let aligned = x.get_alignment().is_ok_and(|a| u64::from(a) >= BYTES);
            let base = x.get_operand(ptr).and_then(|o| o.value());
            if aligned && wide(ty) && base.is_some_and(|p| streaming_base(func, p, &marked)) {
                todo.push(x);
            }
        }
    }
    let Some(entry) = func
        .get_first_basic_block()
        .and_then(|b| b.get_first_instruction())
    else {
        return Ok(());
    };
    if todo.is_empty() {
        return Ok(());
    }
    let b = cx.create_builder();
    b.position_before(&entry);
    let policy_ty = cx.i64_type().fn_type(&[], false);
    let policy_asm = cx.create_inline_asm(
        policy_ty,
        "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;".into(),
        "=l".into(),
        false,
        false,
        None,
        false,
    );
    let policy = llvm(b.build_indirect_call(policy_ty, policy_asm, &[], ""))?
        .try_as_basic_value()
        .basic()
        .ok_or("aic-llvm: createpolicy gave no value")?
        .into_int_value();
    for x in todo {
        b.position_before(&x);
        if x.get_opcode() == InstructionOpcode::Load {
            load(cx, &b, x, policy)?;
        } else {
            store(cx, &b, x, policy)?;
        }
    }
    Ok(())
}

/// The address operand `i` of `x` as an i64.
fn address<'ctx>(
    cx: &'ctx LContext,
    b: &Builder<'ctx>,
    x: InstructionValue<'ctx>,
    i: u32,
) -> Result<IntValue<'ctx>, String> {
    let p = x
        .get_operand(i)
        .and_then(|o| o.value())
        .ok_or("aic-llvm: an access without an address")?
        .into_pointer_value();
    llvm(b.build_ptr_to_int(p, cx.i64_type(), ""))
}

fn load<'ctx>(
    cx: &'ctx LContext,
    b: &Builder<'ctx>,
    x: InstructionValue<'ctx>,
    policy: IntValue<'ctx>,
) -> Result<(), String> {
    let i32t = cx.i32_type();
    let ty = BasicTypeEnum::try_from(x.get_type()).map_err(|_| "aic-llvm: a load of no value")?;
    let regs = cx.struct_type(&[i32t.into(); 4], false);
    let fty = regs.fn_type(&[cx.i64_type().into(), cx.i64_type().into()], false);
    let asm = cx.create_inline_asm(
        fty,
        "ld.global.L1::no_allocate.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [$4], $5;".into(),
        "=r,=r,=r,=r,l,l".into(),
        false,
        false,
        None,
        false,
    );
    let at = address(cx, b, x, 0)?;
    let s = llvm(b.build_indirect_call(fty, asm, &[at.into(), policy.into()], ""))?
        .try_as_basic_value()
        .basic()
        .ok_or("aic-llvm: a load gave no value")?
        .into_struct_value();
    let mut v = i32t.vec_type(4).get_undef();
    for k in 0..4 {
        let e = llvm(b.build_extract_value(s, k, ""))?;
        v = llvm(b.build_insert_element(v, e, i32t.const_int(u64::from(k), false), ""))?;
    }
    let cast = llvm(b.build_bit_cast(v, ty, ""))?;
    let inst = cast
        .as_instruction_value()
        .ok_or("aic-llvm: a cast folded away")?;
    x.replace_all_uses_with(&inst);
    x.erase_from_basic_block();
    Ok(())
}

fn store<'ctx>(
    cx: &'ctx LContext,
    b: &Builder<'ctx>,
    x: InstructionValue<'ctx>,
    policy: IntValue<'ctx>,
) -> Result<(), String> {
    let i32t = cx.i32_type();
    let v = x
        .get_operand(0)
        .and_then(|o| o.value())
        .ok_or("aic-llvm: a store of no value")?;
    let v = llvm(b.build_bit_cast(v, i32t.vec_type(4), ""))?.into_vector_value();
    let at = address(cx, b, x, 1)?;
    let mut args = vec![at.into()];
    for k in 0..4u64 {
        args.push(llvm(b.build_extract_element(v, i32t.const_int(k, false), ""))?.into());
    }
    args.push(policy.into());
    let i64t = cx.i64_type();
    let fty = cx.void_type().fn_type(
        &[
            i64t.into(),
            i32t.into(),
            i32t.into(),
            i32t.into(),
            i32t.into(),
            i64t.into(),
        ],
        false,
    );
    let asm = cx.create_inline_asm(
        fty,
        "st.global.L1::no_allocate.L2::cache_hint.v4.b32 [$0], {$1, $2, $3, $4}, $5;".into(),
        "l,r,r,r,r,l,~{memory}".into(),
        true,
        false,
        None,
        false,
    );
    llvm(b.build_indirect_call(fty, asm, &args, ""))?;
    x.erase_from_basic_block();
    Ok(())
}
