//! The part of upstream MLIR's `nvvm` dialect that Hopper's warpgroup
//! matrix multiplies need around `nvgpu.warpgroup.mma`, in upstream syntax:
//!
//! ```mlir
//! nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//! nvvm.wgmma.fence.aligned
//! %d = nvgpu.warpgroup.mma %da, %db, %c : vector<64xf32> -> vector<64xf32>
//! nvvm.wgmma.commit.group.sync.aligned
//! nvvm.wgmma.wait.group.sync.aligned 1
//! nvvm.setmaxregister increase 232
//! nvvm.barrier id = %c1 number_of_threads = %c256
//! ```
//!
//! `wgmma.fence.aligned` orders this warpgroup's register and shared
//! memory accesses before the `wgmma`s after it; `commit.group` makes the
//! warpgroup's `wgmma`s issued since the last commit one group;
//! `wait.group N` waits until at most `N` of its groups are pending (their
//! accumulators, and the shared memory they read, are settled only
//! then). `fence.proxy` with kind `async.shared` and space `cta` orders
//! this thread's ordinary (generic proxy) writes to shared memory, such as
//! cp.async's, before reads of the async proxy (the tensor cores'); a
//! barrier after it then extends that to the block. Only these kinds are
//! accepted. `setmaxregister` moves registers between a block's
//! warpgroups; `barrier` with an id and a thread count is a named barrier
//! of part of the block (a warp-specialised kernel's consumers). All are warpgroup- or thread-level synchronisation with no
//! meaning for the interpreter's one thread.

use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::dialect::{Dialect, OpSpec};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::verifier::op_error;

use crate::gpu::verify_in_kernel;
use aic::constraints::op_attr_kind as attr_kind;
use aic::constraints::{I32_ATTR, I64_ATTR};

aic::dialect_enum! {
    /// The proxy a `nvvm.fence.proxy` orders against, `#nvvm.proxy_kind<async.shared>`
    /// (upstream's `ProxyKind`); aic translates `async.shared`.
    pub enum ProxyKind = "nvvm.proxy_kind<", "proxy kind" {
        /// An alias proxy.
        Alias = "alias",
        /// All async proxies.
        Async = "async",
        /// The async proxy of global memory.
        AsyncGlobal = "async.global",
        /// The async proxy of shared memory.
        AsyncShared = "async.shared",
        /// The tensor-map proxy.
        TensorMap = "tensormap",
        /// The generic proxy.
        Generic = "generic",
    }
}

aic::dialect_enum! {
    /// The shared memory a fence covers, `#nvvm.shared_space<cta>` (upstream's
    /// `SharedSpace`); aic translates `cta`.
    pub enum SharedSpace = "nvvm.shared_space<", "shared space" {
        /// The block's.
        Cta = "cta",
        /// The cluster's.
        Cluster = "cluster",
    }
}

/// The attributes of `nvvm` as values: its enums.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "nvvm",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(ProxyKind::parse_attr(body)
            .or_else(|| SharedSpace::parse_attr(body))
            .or_else(|| SetMaxRegisterAction::parse_attr(body)))
    }),
};

aic::dialect_enum! {
    /// What `nvvm.setmaxregister` does to the warpgroup's registers
    /// (upstream's `SetMaxRegisterAction`), written bare: `increase`.
    pub enum SetMaxRegisterAction = "nvvm.action<", "register action (increase, decrease)" {
        /// Take registers from the block's pool (`setmaxnreg.inc`).
        Increase = "increase",
        /// Give registers back to the pool (`setmaxnreg.dec`).
        Decrease = "decrease",
    }
}

aic::op! {
    /// `nvvm.setmaxregister increase|decrease N`: the warpgroup's threads
    /// may hold at most `N` registers each from now on (PTX
    /// `setmaxnreg.{inc,dec}.sync.aligned.u32`, sm_90a). A warp-specialised
    /// kernel's producer warpgroup gives registers back; its consumer
    /// warpgroups, holding the accumulators, take them.
    pub SetMaxRegister = SET_MAX_REGISTER {
        attributes: [
            action: required(SetMaxRegisterAction::CONSTRAINT) as SetMaxRegisterAction,
            reg_count = "regCount": required(I32_ATTR),
        ],
        spec: OpSpec {
            summary: "sets the most registers each thread of the warpgroup holds",
            format: Some("$action $regCount attr-dict"),
            verify: Some(verify_set_max_register),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.setmaxregister")
        },
    }
}

aic::op! {
    /// `nvvm.barrier id = %id number_of_threads = %n`: the named barrier
    /// `%id` (0 to 15) for `%n` threads, whole warps (PTX `bar.sync id,
    /// n`). A warp-specialised kernel's consumer warpgroups meet on one
    /// while its producer runs on. aic's subset takes both operands.
    pub Barrier = BARRIER {
        operands: [barrier_id = "barrierId": one(I32), number_of_threads = "numberOfThreads": one(I32)],
        results: [],
        spec: OpSpec {
            summary: "a named barrier: waits for the given number of the block's threads",
            format: Some("`id` `=` $barrierId `number_of_threads` `=` $numberOfThreads attr-dict"),
            verify: Some(verify_in_kernel),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.barrier")
        },
    }
}

aic::op! {
    /// `nvvm.barrier.arrive id = %id number_of_threads = %n`: arrives on
    /// named barrier `%id` of `%n` threads without waiting (PTX
    /// `bar.arrive id, n`): the threads that `nvvm.barrier` on it wait for
    /// the arrivals. Warpgroups take turns through a pair of them
    /// (FlashAttention-3's ping-pong).
    pub BarrierArrive = BARRIER_ARRIVE {
        operands: [barrier_id = "barrierId": one(I32), number_of_threads = "numberOfThreads": one(I32)],
        results: [],
        spec: OpSpec {
            summary: "arrives on a named barrier without waiting",
            format: Some("`id` `=` $barrierId `number_of_threads` `=` $numberOfThreads attr-dict"),
            verify: Some(verify_in_kernel),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.barrier.arrive")
        },
    }
}

/// A signless 32-bit integer operand.
const I32: aic::dialect::TypeConstraint = aic::dialect::TypeConstraint {
    desc: "i32",
    check: |t, _| matches!(t, aic::types::TypeKind::Integer { width: 32, .. }),
    build: Some(|u| u.int_type(32)),
};

aic::op! {
    /// `nvvm.wgmma.fence.aligned`.
    pub WgmmaFence = WGMMA_FENCE {
        spec: OpSpec {
            summary: "orders the warpgroup's register and shared-memory accesses before the wgmmas after it",
            format: Some("attr-dict"),
            verify: Some(verify_in_kernel),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.wgmma.fence.aligned")
        },
    }
}

aic::op! {
    /// `nvvm.wgmma.commit.group.sync.aligned`.
    pub WgmmaCommit = WGMMA_COMMIT {
        spec: OpSpec {
            summary: "commits the warpgroup's wgmmas issued since the last commit as one group",
            format: Some("attr-dict"),
            verify: Some(verify_in_kernel),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.wgmma.commit.group.sync.aligned")
        },
    }
}

aic::op! {
    /// `nvvm.wgmma.wait.group.sync.aligned N`.
    pub WgmmaWait = WGMMA_WAIT {
        attributes: [group: required(I64_ATTR)],
        spec: OpSpec {
            summary: "waits until at most `group` of the warpgroup's wgmma groups are pending",
            format: Some("attr-dict $group"),
            verify: Some(verify_wgmma_wait),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.wgmma.wait.group.sync.aligned")
        },
    }
}

aic::op! {
    /// `nvvm.fence.proxy {kind = .., space = ..}`.
    pub FenceProxy = FENCE_PROXY {
        attributes: [kind: required(ProxyKind::CONSTRAINT) as ProxyKind, space: optional(SharedSpace::CONSTRAINT) as SharedSpace],
        spec: OpSpec {
            summary: "orders this thread's memory accesses of one proxy before those of another",
            format: Some("attr-dict"),
            verify: Some(verify_fence_proxy),
            interpret: Some(interpret),
            ..OpSpec::new("nvvm.fence.proxy")
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "nvvm",
    description: "NVVM synchronisation of Hopper's warpgroup MMA (wgmma fence, commit, wait), proxy fences, named barriers and register reallocation",
    ops: &[
        WGMMA_FENCE,
        WGMMA_COMMIT,
        WGMMA_WAIT,
        FENCE_PROXY,
        SET_MAX_REGISTER,
        BARRIER,
        BARRIER_ARRIVE,
    ],
    materialize_constant: None,
};

/// `group` of a `wgmma.wait.group`.
pub fn group(ctx: &Context, op: Op) -> i64 {
    match attr_kind(ctx, op, "group") {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(*value).unwrap_or(-1),
        _ => -1,
    }
}

fn verify_wgmma_wait(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    if group(ctx, op) < 0 {
        return Err(op_error(ctx, op, "group must not be negative"));
    }
    Ok(())
}

/// `regCount` of a `setmaxregister`.
pub fn reg_count(ctx: &Context, op: Op) -> i64 {
    match attr_kind(ctx, op, "regCount") {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(*value).unwrap_or(-1),
        _ => -1,
    }
}

fn verify_set_max_register(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let n = reg_count(ctx, op);
    if !(24..=256).contains(&n) || n % 8 != 0 {
        return Err(op_error(
            ctx,
            op,
            format!("regCount must be a multiple of 8 from 24 to 256, not {n}"),
        ));
    }
    Ok(())
}

fn verify_fence_proxy(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    verify_in_kernel(ctx, op)?;
    let err = |m: String| op_error(ctx, op, m);
    let f = FenceProxy(op);
    if f.kind(ctx) != Some(ProxyKind::AsyncShared) || f.space(ctx) != Some(SharedSpace::Cta) {
        return Err(err(
            "only kind #nvvm.proxy_kind<async.shared> with space #nvvm.shared_space<cta> is supported".into(),
        ));
    }
    Ok(())
}

fn interpret(_: &mut Interp<'_>, op: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    Err(InterpError::at(
        op,
        "nvvm synchronisation is warpgroup-collective and the interpreter runs one thread: compile for nvptx",
    ))
}
