//! The part of upstream MLIR's `nvvm` dialect that Hopper's warpgroup
//! matrix multiplies need around `nvgpu.warpgroup.mma`, in upstream syntax:
//!
//! ```mlir
//! nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//! nvvm.wgmma.fence.aligned
//! %d = nvgpu.warpgroup.mma %da, %db, %c : vector<64xf32> -> vector<64xf32>
//! nvvm.wgmma.commit.group.sync.aligned
//! nvvm.wgmma.wait.group.sync.aligned 1
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
//! accepted. All are warpgroup- or thread-level synchronisation with no
//! meaning for the interpreter's one thread.

use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::dialect::{Dialect, OpSpec};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::verifier::op_error;

use crate::gpu::verify_in_kernel;
use aic::constraints::I64_ATTR;
use aic::constraints::op_attr_kind as attr_kind;

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
        Ok(ProxyKind::parse_attr(body).or_else(|| SharedSpace::parse_attr(body)))
    }),
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
    description: "NVVM synchronisation of Hopper's warpgroup MMA (wgmma fence, commit, wait) and proxy fences",
    ops: &[WGMMA_FENCE, WGMMA_COMMIT, WGMMA_WAIT, FENCE_PROXY],
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
