//! Kernels on the host CPU: each kernel is a function of one thread
//! (`@name(buffers..., shared, bx, by, bz, tx)`, internal) and an exported
//! wrapper `@name.grid(argv, shared, tx)` that runs every block of the grid in
//! order for thread `tx`. A block of `n` threads runs as `n` OS threads calling
//! the wrapper, kept in step by `aic_host_barrier` (each `gpu.barrier`, and
//! the end of every block, since the next block reuses the shared memory).
//! [`HostModule`] compiles them with LLVM's MCJIT and runs them.

use crate::KernelInfo;
use crate::emit::{
    HOST_BARRIER, HOST_NAMED_ARRIVE, HOST_NAMED_BARRIER, HOST_WARPGROUP_BARRIER, Kernel, Llvm,
    Lower,
};
use crate::target::Target;
use aic::ir::{Context, Op};
use inkwell::OptimizationLevel;
use inkwell::context::Context as LContext;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicMetadataTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, FunctionValue};
use inkwell::{AddressSpace, IntPredicate};
use std::cell::RefCell;
use std::collections::HashMap;
use std::mem::ManuallyDrop;
use std::sync::{Arc, Condvar, Mutex};

/// Adds `@<name>.grid(ptr argv, ptr shared, i64 tx)`, which loads the buffer
/// pointers from `argv` and calls `inner` for every block (z, y, x order),
/// waiting at the barrier after each block when the block has several threads.
pub(crate) fn wrapper<'ctx>(
    l: &Lower<'_, 'ctx>,
    k: &Kernel,
    inner: FunctionValue<'ctx>,
) -> Result<(), String> {
    let cx = l.cx;
    let ptr = cx.ptr_type(AddressSpace::default());
    let i64t = cx.i64_type();
    let params: [BasicMetadataTypeEnum; 3] = [ptr.into(), ptr.into(), i64t.into()];
    let fty = cx.void_type().fn_type(&params, false);
    let f = l.m.add_function(
        &format!("{}.grid", k.info.name),
        fty,
        Some(Linkage::External),
    );
    for (k, v) in [
        ("target-cpu", l.target.cpu()),
        ("target-features", l.target.features()),
    ] {
        f.add_attribute(
            inkwell::attributes::AttributeLoc::Function,
            cx.create_string_attribute(k, &v),
        );
    }
    let p = |i: u32| f.get_nth_param(i).expect("declared above");
    let (argv, shared, tx) = (
        p(0).into_pointer_value(),
        p(1).into_pointer_value(),
        p(2).into_int_value(),
    );
    let b = cx.create_builder();
    let entry = cx.append_basic_block(f, "entry");
    b.position_at_end(entry);
    let mut args: Vec<BasicMetadataValueEnum> = Vec::new();
    for i in 0..k.info.buffers.len() {
        // SAFETY (LLVM semantics): argv holds one pointer per buffer.
        let slot = unsafe {
            b.build_in_bounds_gep(ptr, argv, &[i64t.const_int(i as u64, false)], "")
                .llvm()?
        };
        args.push(b.build_load(ptr, slot, &format!("buf{i}")).llvm()?.into());
    }
    // The loop nest over z, y, x: (header, induction variable, exit) per level.
    let sizes = [k.info.grid[2], k.info.grid[1], k.info.grid[0]];
    let mut levels = Vec::new();
    for (d, n) in sizes.iter().enumerate() {
        let pre = b.get_insert_block().expect("positioned");
        let header = cx.append_basic_block(f, &format!("grid{d}"));
        let body = cx.append_basic_block(f, &format!("grid{d}.body"));
        let exit = cx.append_basic_block(f, &format!("grid{d}.end"));
        b.build_unconditional_branch(header).llvm()?;
        b.position_at_end(header);
        let iv = b.build_phi(i64t, "").llvm()?;
        iv.add_incoming(&[(&i64t.const_zero(), pre)]);
        let ivv = iv.as_basic_value().into_int_value();
        let go = b
            .build_int_compare(IntPredicate::ULT, ivv, i64t.const_int(*n, false), "")
            .llvm()?;
        b.build_conditional_branch(go, body, exit).llvm()?;
        b.position_at_end(body);
        levels.push((header, iv, exit));
    }
    let id = |d: usize| levels[d].1.as_basic_value().into_int_value();
    args.push(shared.into());
    for v in [id(2), id(1), id(0), tx] {
        args.push(v.into());
    }
    b.build_call(inner, &args, "").llvm()?;
    if k.info.block[0] > 1 {
        let bar = match l.m.get_function(HOST_BARRIER) {
            Some(f) => f,
            None => {
                l.m.add_function(HOST_BARRIER, cx.void_type().fn_type(&[], false), None)
            }
        };
        b.build_call(bar, &[], "").llvm()?;
    }
    for (header, iv, exit) in levels.iter().rev() {
        let ivv = iv.as_basic_value().into_int_value();
        let next = b
            .build_int_nuw_add(ivv, i64t.const_int(1, false), "")
            .llvm()?;
        let latch = b.get_insert_block().expect("positioned");
        b.build_unconditional_branch(*header).llvm()?;
        iv.add_incoming(&[(&next, latch)]);
        b.position_at_end(*exit);
    }
    b.build_return(None).llvm()?;
    Ok(())
}

// ---------------------------------------------------------------- the barrier

/// A barrier that a failed thread start can break, so that the threads
/// already waiting return instead of waiting forever. A thread that has
/// finished the kernel leaves it (as a warp that has exited no longer
/// counts at a GPU's block barrier): a warp-specialised kernel's producer
/// warpgroup ends before its consumers meet.
struct HostBarrier {
    state: Mutex<BarrierState>,
    cv: Condvar,
}

/// A [`HostBarrier`]'s state: threads arrived, generation (completed
/// phases), broken, threads still running.
type BarrierState = (usize, u64, bool, usize);

impl HostBarrier {
    fn new(threads: usize) -> Self {
        HostBarrier {
            state: Mutex::new((0, 0, false, threads)),
            cv: Condvar::new(),
        }
    }

    /// The threads it waits for.
    fn threads(&self) -> usize {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).3
    }

    /// Arrives and waits until every thread has arrived.
    fn wait(&self) {
        let (mut s, generation) = self.count_in();
        if let Some(generation) = generation {
            while s.1 == generation && !s.2 {
                s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// Counts the calling thread's arrival: completes the phase (releasing
    /// the waiting threads) where it is the last. Gives the lock, and the
    /// phase still to wait out where other threads are to come (none where
    /// the barrier is broken or this arrival completed it).
    fn count_in(&self) -> (std::sync::MutexGuard<'_, BarrierState>, Option<u64>) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if s.2 {
            return (s, None);
        }
        s.0 += 1;
        if s.0 >= s.3 {
            s.0 = 0;
            s.1 += 1;
            self.cv.notify_all();
            return (s, None);
        }
        let generation = s.1;
        (s, Some(generation))
    }

    /// The calling thread has finished: the barrier no longer waits for
    /// it, and releases the others if they were waiting only for it.
    fn leave(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.3 = s.3.saturating_sub(1);
        if s.0 > 0 && s.0 >= s.3 {
            s.0 = 0;
            s.1 += 1;
            self.cv.notify_all();
        }
    }

    /// Arrives without waiting: completes the barrier's phase where this
    /// is its last arrival.
    fn arrive(&self) {
        let _ = self.count_in();
    }

    fn break_all(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.2 = true;
        self.cv.notify_all();
    }
}

/// A block's named barriers (`nvvm.barrier id = .. number_of_threads =
/// ..`), made on first use with the thread count the first arrival gives.
#[derive(Default)]
struct NamedBarriers {
    barriers: Mutex<HashMap<i32, Arc<HostBarrier>>>,
}

impl NamedBarriers {
    fn get(&self, id: i32, threads: usize) -> Arc<HostBarrier> {
        let mut m = self.barriers.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(id)
            .or_insert_with(|| Arc::new(HostBarrier::new(threads)))
            .clone()
    }

    fn break_all(&self) {
        let m = self.barriers.lock().unwrap_or_else(|e| e.into_inner());
        m.values().for_each(|b| b.break_all());
    }
}

thread_local! {
    /// The barrier of the block the current thread runs in.
    static BARRIER: RefCell<Option<Arc<HostBarrier>>> = const { RefCell::new(None) };
    /// The barrier of the current thread's warpgroup.
    static WARPGROUP: RefCell<Option<Arc<HostBarrier>>> = const { RefCell::new(None) };
    /// The named barriers of the block the current thread runs in.
    static NAMED: RefCell<Option<Arc<NamedBarriers>>> = const { RefCell::new(None) };
}

/// Threads of a warpgroup.
const WARPGROUP_THREADS: usize = 128;

/// `aic_host_barrier`, called by JIT-compiled kernels: waits for the other
/// threads of the calling thread's block.
extern "C" fn aic_host_barrier() {
    let b = BARRIER.with(|c| c.borrow().clone());
    if let Some(b) = b {
        b.wait();
    }
}

/// `aic_host_warpgroup_barrier`: waits for the other threads of the
/// calling thread's warpgroup.
extern "C" fn aic_host_warpgroup_barrier() {
    let b = WARPGROUP.with(|c| c.borrow().clone());
    if let Some(b) = b {
        b.wait();
    }
}

/// The calling thread's block's named barrier `id` of `threads` threads
/// (none outside a block). Threads disagreeing on a barrier's count is a
/// code-generation bug, which stops the process.
fn named_barrier(id: i32, threads: i32) -> Option<Arc<HostBarrier>> {
    let named = NAMED.with(|c| c.borrow().clone())?;
    let n = usize::try_from(threads).unwrap_or(0);
    let b = named.get(id, n);
    if b.threads() != n {
        eprintln!(
            "aic-llvm: named barrier {id} reached for {n} threads after {} were given",
            b.threads()
        );
        std::process::abort();
    }
    Some(b)
}

/// `aic_host_named_barrier(id, threads)`: waits at the block's named
/// barrier `id` until `threads` threads have arrived.
extern "C" fn aic_host_named_barrier(id: i32, threads: i32) {
    if let Some(b) = named_barrier(id, threads) {
        b.wait();
    }
}

/// `aic_host_named_arrive(id, threads)`: arrives at the block's named
/// barrier `id` of `threads` threads without waiting.
extern "C" fn aic_host_named_arrive(id: i32, threads: i32) {
    if let Some(b) = named_barrier(id, threads) {
        b.arrive();
    }
}

/// The compiler-rt helper LLVM calls to round f32 to bfloat16 where the
/// processor has no instruction for it (x86 without AVX512-BF16): code
/// generation introduces the call (for a `select` of bfloat values, say),
/// and Debian 12's libgcc has no such function, so the JIT maps it here.
const TRUNC_SF_BF2: &str = "__truncsfbf2";

/// f32 to bfloat16, rounding to nearest even (a NaN stays a quiet NaN). The
/// bfloat16 is returned as `__bf16` is, in the low 16 bits of the float
/// return register, so an `f32` whose low bits hold it serves.
extern "C" fn aic_truncsfbf2(x: f32) -> f32 {
    f32::from_bits(u32::from(bf16_bits(x)))
}

/// The bfloat16 bits nearest `x` (ties to even).
fn bf16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let h = if x.is_nan() {
        (b >> 16) | 0x40
    } else {
        (b + 0x7fff + ((b >> 16) & 1)) >> 16
    };
    h as u16
}

// ---------------------------------------------------------------- C library

macro_rules! libm_table {
    ($($name:ident $namef:ident $($two:ident)?;)*) => {
        // The C library functions host kernels call, linked here so that the
        // JIT gets their addresses from us rather than from a symbol search
        // that may not find libm.
        #[link(name = "m")]
        unsafe extern "C" {
            $(
                fn $name(x: f64 $(, $two: f64)?) -> f64;
                fn $namef(x: f32 $(, $two: f32)?) -> f32;
            )*
        }
        /// (symbol, address) of every C library function a host module may call.
        fn libm_symbols() -> Vec<(&'static str, usize)> {
            vec![$(
                (stringify!($name), $name as *const () as usize),
                (stringify!($namef), $namef as *const () as usize),
            )*]
        }
    };
}

libm_table! {
    exp expf; exp2 exp2f; expm1 expm1f; log logf; log2 log2f; log10 log10f; log1p log1pf;
    tanh tanhf; sinh sinhf; cosh coshf; erf erff; erfc erfcf; sin sinf; cos cosf; tan tanf;
    asin asinf; acos acosf; atan atanf; asinh asinhf; acosh acoshf; atanh atanhf; cbrt cbrtf;
    pow powf y; atan2 atan2f y; fmod fmodf y;
}

// ---------------------------------------------------------------- the JIT

/// Every kernel of a module compiled for the host CPU and kept callable.
///
/// Not `Send`: LLVM's execution engine belongs to the thread that made it
/// (the kernels' own threads are started by [`HostModule::run`]).
pub struct HostModule {
    engine: ManuallyDrop<ExecutionEngine<'static>>,
    module: ManuallyDrop<Module<'static>>,
    /// Owned (leaked at creation, freed in `drop` after the engine and module
    /// that borrow it).
    context: &'static LContext,
    kernels: Vec<(KernelInfo, usize)>,
}

impl HostModule {
    /// Compiles every `gpu.kernel` of `module` (a `builtin.module`) for this
    /// machine: translation, LLVM's O3 pipeline, and machine code by MCJIT.
    pub fn new(ir: &Context, module: Op) -> Result<HostModule, String> {
        let target = Target::Host;
        let kernels = crate::emit::kernels(ir, module, &target)?;
        for k in &kernels {
            if k.info.block[0] > 1024 {
                return Err(format!(
                    "aic-llvm: kernel @{}: a block of {} threads is more than the 1024 the host runs",
                    k.info.name, k.info.block[0]
                ));
            }
        }
        let tm = target.machine(false)?;
        let context: &'static LContext = Box::leak(Box::new(LContext::create()));
        let built = (|| {
            let m = crate::new_module(context, &tm, "aic_host");
            {
                let mut lower = Lower::new(ir, context, &m, &target);
                for k in &kernels {
                    let f = lower.kernel(k)?;
                    wrapper(&lower, k, f)?;
                }
            }
            crate::optimize(&m, &tm)?;
            // Declared so that the JIT can map it (see `TRUNC_SF_BF2`).
            if m.get_function(TRUNC_SF_BF2).is_none() {
                let ty = context
                    .bf16_type()
                    .fn_type(&[context.f32_type().into()], false);
                m.add_function(TRUNC_SF_BF2, ty, Some(Linkage::External));
            }
            let engine = m
                .create_jit_execution_engine(OptimizationLevel::Aggressive)
                .map_err(|e| format!("aic-llvm: cannot create the host JIT: {e}"))?;
            Ok::<_, String>((m, engine))
        })();
        let (m, engine) = match built {
            Ok(x) => x,
            Err(e) => {
                // SAFETY: everything borrowing the context was dropped with
                // the closure's locals.
                unsafe { drop(Box::from_raw(context as *const LContext as *mut LContext)) };
                return Err(e);
            }
        };
        let mut hm = HostModule {
            engine: ManuallyDrop::new(engine),
            module: ManuallyDrop::new(m),
            context,
            kernels: Vec::new(),
        };
        hm.link();
        for k in kernels {
            let sym = format!("{}.grid", k.info.name);
            let addr = hm
                .engine
                .get_function_address(&sym)
                .map_err(|e| format!("aic-llvm: the host JIT has no '{sym}': {e}"))?;
            hm.kernels.push((k.info, addr));
        }
        Ok(hm)
    }

    /// Maps the external functions the module calls (the barrier and the C
    /// library's math) to their addresses here. Others that LLVM's library-call
    /// simplification may introduce (ldexpf, ...) the JIT finds in the process.
    fn link(&self) {
        let libm = libm_symbols();
        for f in self.module.get_functions() {
            if f.count_basic_blocks() > 0 {
                continue;
            }
            let name = f.get_name().to_string_lossy().into_owned();
            if name == HOST_BARRIER {
                self.engine
                    .add_global_mapping(&f, aic_host_barrier as *const () as usize);
            } else if name == HOST_WARPGROUP_BARRIER {
                self.engine
                    .add_global_mapping(&f, aic_host_warpgroup_barrier as *const () as usize);
            } else if name == HOST_NAMED_BARRIER {
                self.engine
                    .add_global_mapping(&f, aic_host_named_barrier as *const () as usize);
            } else if name == HOST_NAMED_ARRIVE {
                self.engine
                    .add_global_mapping(&f, aic_host_named_arrive as *const () as usize);
            } else if name == TRUNC_SF_BF2 {
                self.engine
                    .add_global_mapping(&f, aic_truncsfbf2 as *const () as usize);
            } else if let Some((_, a)) = crate::tma::host_functions()
                .into_iter()
                .find(|(n, _)| *n == name)
            {
                self.engine.add_global_mapping(&f, a);
            } else if let Some((_, a)) = libm.iter().find(|(n, _)| *n == name) {
                self.engine.add_global_mapping(&f, *a);
            }
        }
    }

    /// The kernels, as compiled.
    pub fn kernels(&self) -> impl Iterator<Item = &KernelInfo> {
        self.kernels.iter().map(|(k, _)| k)
    }

    /// Runs kernel `name` over its whole grid on `buffers` (one byte slice per
    /// kernel argument, in order, each holding the argument's elements in
    /// their natural little-endian layout: inputs filled, outputs zeroed by
    /// the caller). Threads of a block (`block[0] > 1`) run as that many OS
    /// threads sharing one shared-memory buffer; `gpu.barrier` waits for all
    /// of them. Grid, block and shared-memory size are the kernel's own.
    pub fn run(&self, name: &str, buffers: &mut [&mut [u8]]) -> Result<(), String> {
        let (info, addr) = self
            .kernels
            .iter()
            .find(|(k, _)| k.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = self.kernels.iter().map(|(k, _)| k.name.as_str()).collect();
                format!(
                    "aic-llvm: no kernel @{name} in the host module (it has: {})",
                    names.join(", ")
                )
            })?;
        if buffers.len() != info.buffers.len() {
            return Err(format!(
                "aic-llvm: kernel @{name} takes {} buffers, {} given",
                info.buffers.len(),
                buffers.len()
            ));
        }
        for (i, (buf, want)) in buffers.iter().zip(&info.buffers).enumerate() {
            let need = want.elements * want.elem_bytes;
            if (buf.len() as u64) < need {
                return Err(format!(
                    "aic-llvm: kernel @{name}: buffer {i} has {} bytes but needs {need} ({} elements of {} bytes)",
                    buf.len(),
                    want.elements,
                    want.elem_bytes
                ));
            }
        }
        let argv: Vec<*mut u8> = buffers.iter_mut().map(|b| b.as_mut_ptr()).collect();
        // 16-byte aligned, as on the GPUs; then the 8-byte slots through
        // which threads exchange values (crate::emit::host_slots).
        let threads = info.block[0] as usize;
        let slots = crate::emit::HOST_SLOTS as usize * threads;
        let words = crate::emit::host_slots(info.shared) as usize / 16 + slots.div_ceil(2);
        let mut shared = vec![0u128; words.max(1)];
        // SAFETY: `addr` is the JIT's address of `@<name>.grid`, whose LLVM
        // signature is `void (ptr, ptr, i64)` with the C calling convention;
        // the engine (owned by self) outlives this call.
        let grid: extern "C" fn(*const *mut u8, *mut u8, i64) =
            unsafe { std::mem::transmute(*addr) };
        if threads == 1 {
            grid(argv.as_ptr(), shared.as_mut_ptr().cast(), 0);
            return Ok(());
        }
        let barrier = Arc::new(HostBarrier::new(threads));
        // Warpgroups where the block is made of them, else the block.
        let groups: Vec<Arc<HostBarrier>> = if threads.is_multiple_of(WARPGROUP_THREADS) {
            (0..threads / WARPGROUP_THREADS)
                .map(|_| Arc::new(HostBarrier::new(WARPGROUP_THREADS)))
                .collect()
        } else {
            vec![Arc::new(HostBarrier::new(threads))]
        };
        let group_threads = threads.div_ceil(groups.len());
        let named = Arc::new(NamedBarriers::default());
        // Raw pointers are not Send; the buffers outlive the scoped threads
        // and each thread touches what the kernel's program says.
        let (argv_at, shared_at) = (argv.as_ptr() as usize, shared.as_mut_ptr() as usize);
        let mut failed = None;
        std::thread::scope(|s| {
            for tx in 0..threads {
                let b = barrier.clone();
                let g = groups[tx / group_threads].clone();
                let nb = named.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("aic-{name}-{tx}"))
                    .spawn_scoped(s, move || {
                        BARRIER.with(|c| *c.borrow_mut() = Some(b));
                        WARPGROUP.with(|c| *c.borrow_mut() = Some(g));
                        NAMED.with(|c| *c.borrow_mut() = Some(nb));
                        grid(argv_at as *const *mut u8, shared_at as *mut u8, tx as i64);
                        BARRIER.with(|c| c.borrow_mut().take().map(|b| b.leave()));
                        WARPGROUP.with(|c| c.borrow_mut().take().map(|b| b.leave()));
                        NAMED.with(|c| *c.borrow_mut() = None);
                    });
                if let Err(e) = spawned {
                    // Release the threads already waiting for this one.
                    barrier.break_all();
                    groups.iter().for_each(|g| g.break_all());
                    named.break_all();
                    failed = Some(format!(
                        "aic-llvm: kernel @{name}: cannot start thread {tx} of {threads}: {e}"
                    ));
                    break;
                }
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Drop for HostModule {
    fn drop(&mut self) {
        // SAFETY: the engine and module borrow the context; they go first, and
        // nothing else refers to the context, which `new` leaked from a Box.
        unsafe {
            ManuallyDrop::drop(&mut self.engine);
            ManuallyDrop::drop(&mut self.module);
            drop(Box::from_raw(
                self.context as *const LContext as *mut LContext,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bf16_bits;

    #[test]
    fn bfloat16_rounding_is_to_nearest_even() {
        assert_eq!(bf16_bits(1.0), 0x3f80);
        assert_eq!(bf16_bits(-2.5), 0xc020);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even 1.
        assert_eq!(bf16_bits(1.0 + 1.0 / 256.0), 0x3f80);
        // Just above halfway rounds up.
        assert_eq!(bf16_bits(f32::from_bits(0x3f80_8001)), 0x3f81);
        // 1 + 3 * 2^-8 is halfway between odd 0x3f81 and even 0x3f82: up.
        assert_eq!(bf16_bits(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(bf16_bits(f32::INFINITY), 0x7f80);
        let nan = bf16_bits(f32::NAN);
        assert_eq!(nan & 0x7f80, 0x7f80);
        assert_ne!(nan & 0x7f, 0);
        // The largest finite f32 rounds to infinity, as IEEE says.
        assert_eq!(bf16_bits(f32::MAX), 0x7f80);
    }
}
