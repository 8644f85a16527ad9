//! Shardy (`sdy`), the sharding dialect JAX exports: meshes (`sdy.mesh`),
//! tensor shardings (`#sdy.sharding<@mesh, [{"x"}, {}]>` on function
//! arguments and results, and on `sdy.sharding_constraint`), sharding groups,
//! and `sdy.manual_computation` (a `shard_map` body written per device, with
//! explicit collectives). Syntax as Shardy prints it.
//!
//! The attributes are typed values ([`attrs`]); what a sharding means for a
//! tensor's elements (which device holds which slice) is [`layout`]; the
//! interpreter gives `manual_computation` its meaning by running the body
//! once per device of the mesh, each a process of a [`aic::interp::Grid`], so
//! a `shard_map` export runs unpartitioned. `spmd-partition`
//! (`passes/src/spmd_partition`) turns a sharded program into the per-device
//! one.

pub mod attrs;
pub mod gspmd;
pub mod layout;
mod syntax;

pub use attrs::{AxisRef, DimSharding, ManualAxes, Mesh, MeshRef, Sharding, ShardingPerValue};

use aic::Diagnostic;
use aic::constraints::{I64_ATTR, TENSOR};
use aic::dialect::{CustomAsm, Dialect, OpSpec, Traits, ac, tc};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op};
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use aic::verifier::op_error;

aic::op! {
    /// `sdy.mesh @name = <["x"=2, "y"=2]>`: a named mesh of devices.
    pub MeshOp = MESH {
        attributes: [
            sym_name: required(ac::SYMBOL_NAME),
            mesh: required(Mesh::CONSTRAINT) as Mesh,
        ],
        spec: OpSpec {
            summary: "Named mesh",
            traits: Traits::SYMBOL,
            parents: &["builtin.module"],
            format: Some("$sym_name `=` custom<StrippedMesh>($mesh) attr-dict"),
            directives: syntax::DIRECTIVES,
            verify: Some(verify_mesh),
            ..OpSpec::new("sdy.mesh")
        },
    }
}

aic::op! {
    /// `sdy.sharding_constraint %x <@mesh, [...]> : T`: how `%x` (or its uses
    /// through this op) should be sharded. The identity on values.
    pub ShardingConstraint = SHARDING_CONSTRAINT {
        operands: [input: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [sharding: required(Sharding::CONSTRAINT) as Sharding],
        spec: OpSpec {
            summary: "Constrains a tensor to the specified sharding",
            traits: Traits::ELEMENTWISE.with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
            format: Some("$input custom<StrippedSharding>($sharding) attr-dict `:` type($result)"),
            directives: syntax::DIRECTIVES,
            verify: Some(verify_constraint),
            interpret: Some(identity),
            ..OpSpec::new("sdy.sharding_constraint")
        },
    }
}

aic::op! {
    /// `sdy.reshard %x <@mesh, [...]> : T`: `%x` moved to another sharding
    /// (propagation's output; partitioning makes it collectives).
    pub Reshard = RESHARD {
        operands: [input: one(TENSOR)],
        results: [result: one(TENSOR)],
        attributes: [sharding: required(Sharding::CONSTRAINT) as Sharding],
        spec: OpSpec {
            summary: "Reshards a tensor to a different sharding",
            traits: Traits::PURE
                .with(Traits::ELEMENTWISE)
                .with(Traits::SAME_OPERANDS_AND_RESULT_TYPE),
            format: Some("$input custom<StrippedSharding>($sharding) attr-dict `:` type($result)"),
            directives: syntax::DIRECTIVES,
            verify: Some(verify_constraint),
            interpret: Some(identity),
            ..OpSpec::new("sdy.reshard")
        },
    }
}

aic::op! {
    /// `sdy.sharding_group %x group_id=N : T`: tensors of one group share a
    /// sharding.
    pub ShardingGroup = SHARDING_GROUP {
        operands: [input: one(TENSOR)],
        attributes: [group_id: required(I64_ATTR) as i64],
        spec: OpSpec {
            summary: "Constrains tensors in the group to have the same sharding.",
            format: Some("$input `group_id` `` `=` `` $group_id attr-dict `:` type($input)"),
            interpret: Some(nothing),
            ..OpSpec::new("sdy.sharding_group")
        },
    }
}

aic::op! {
    /// `sdy.return`: ends the region of an `sdy` op.
    pub Return = RETURN {
        operands: [values = "results": variadic(tc::ANY)],
        spec: OpSpec {
            summary: "Terminates the regions of sdy ops",
            traits: Traits::PURE.with(Traits::TERMINATOR).with(Traits::RETURN_LIKE),
            format: Some("attr-dict ($results^ `:` type($results))?"),
            ..OpSpec::new("sdy.return")
        },
    }
}

aic::op! {
    /// `sdy.manual_computation(%x) in_shardings=[...] out_shardings=[...]
    /// manual_axes={...} (%a: local T) { ... } : (global) -> (global)`: a
    /// body written per device along the manual axes.
    pub ManualComputation = MANUAL_COMPUTATION {
        operands: [tensors: variadic(TENSOR)],
        results: [results: variadic(TENSOR)],
        attributes: [
            in_shardings: required(ShardingPerValue::CONSTRAINT) as ShardingPerValue,
            out_shardings: required(ShardingPerValue::CONSTRAINT) as ShardingPerValue,
            manual_axes: required(ManualAxes::CONSTRAINT) as ManualAxes,
        ],
        regions: [body: sized],
        spec: OpSpec {
            summary: "Multi-device parallelism operation with manual collectives",
            traits: Traits::RECURSIVE_MEMORY_EFFECTS
                .with(Traits::ISOLATED_FROM_ABOVE)
                .with(Traits::SINGLE_BLOCK),
            custom: Some(CustomAsm {
                parse: syntax::parse_manual_computation,
                print: syntax::print_manual_computation,
            }),
            verify: Some(verify_manual_computation),
            interpret: Some(layout::interpret_manual_computation),
            ..OpSpec::new("sdy.manual_computation")
        },
    }
}

const OPS: &[OpSpec] = &[
    MESH,
    SHARDING_CONSTRAINT,
    RESHARD,
    SHARDING_GROUP,
    RETURN,
    MANUAL_COMPUTATION,
];

/// The `sdy` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "sdy",
    description: "Shardy: meshes, tensor shardings and manual computations",
    ops: OPS,
    materialize_constant: None,
};

/// The attributes of `sdy` as values (see [`attrs`]).
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "sdy",
    parse_type: None,
    parse_attr: Some(attrs::parse_attr),
};

// ---------------------------------------------------------------- meshes

/// The mesh a sharding refers to, seen from `at`: an inline mesh, or the
/// `sdy.mesh` of that name in the top-level module.
pub fn mesh_of(ctx: &Context, at: Op, m: &MeshRef) -> Option<Mesh> {
    match m {
        MeshRef::Inline(m) => Some(m.clone()),
        MeshRef::Symbol(name) => {
            let mut top = at;
            while let Some(p) = ctx.parent_op(top) {
                top = p;
            }
            find_mesh(ctx, top, name)
        }
    }
}

/// The `sdy.mesh @name` directly inside `module`.
pub fn find_mesh(ctx: &Context, module: Op, name: &str) -> Option<Mesh> {
    let region = *ctx.regions(module).first()?;
    let block = ctx.entry_block(region)?;
    ctx.block_ops(block).find_map(|o| {
        let m = MeshOp::of(ctx, o)?;
        let sym = m.sym_name(ctx).and_then(|a| ctx.attr_str(a))?;
        (sym == name).then(|| m.mesh(ctx)).flatten()
    })
}

fn verify_mesh(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let Some(m) = MeshOp(op).mesh(ctx) else {
        return Ok(());
    };
    if m.device_ids.is_empty() {
        return Ok(());
    }
    let n = m.devices();
    if m.axes.is_empty() && m.device_ids.len() == 1 {
        if m.device_ids[0] < 0 {
            return Err(op_error(ctx, op, "device id must be non-negative"));
        }
        return Ok(());
    }
    if m.device_ids.len() as i64 != n {
        return Err(op_error(
            ctx,
            op,
            format!(
                "number of device ids ({}) must match the mesh's {n} devices",
                m.device_ids.len()
            ),
        ));
    }
    let mut sorted = m.device_ids.clone();
    sorted.sort_unstable();
    if sorted.iter().enumerate().any(|(i, d)| *d != i as i64) {
        return Err(op_error(
            ctx,
            op,
            "device ids must be a permutation of 0 to the number of devices",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------- shardings

/// Check `s` against the tensor type `ty` it shards, seen from `op`: the mesh
/// exists, the rank matches, every axis is the mesh's and used once. The
/// error names what is wrong (`what` says which sharding).
pub fn check_sharding(
    ctx: &Context,
    op: Op,
    s: &Sharding,
    ty: aic::types::Type,
    what: &str,
) -> Result<Mesh, String> {
    let Some(mesh) = mesh_of(ctx, op, &s.mesh) else {
        let MeshRef::Symbol(name) = &s.mesh else {
            unreachable!("an inline mesh is always found")
        };
        return Err(format!("{what} refers to an unknown mesh @{name}"));
    };
    if let TypeKind::Tensor { shape, .. } = ctx.type_kind(ty)
        && shape.len() != s.dims.len()
    {
        return Err(format!(
            "{what} has {} dimension shardings, but its tensor has rank {}",
            s.dims.len(),
            shape.len()
        ));
    }
    let mut seen: Vec<&AxisRef> = Vec::new();
    for a in s
        .used_axes()
        .chain(s.replicated.iter())
        .chain(s.unreduced.iter())
    {
        let Some(size) = mesh.axis_size(&a.name) else {
            return Err(format!("{what} names axis {:?}, not in the mesh", a.name));
        };
        if let Some((pre, sub)) = a.sub
            && size % (pre * sub) != 0
        {
            return Err(format!(
                "{what}: sub-axis {:?}:({pre}){sub} does not divide the axis's size {size}",
                a.name
            ));
        }
        if seen
            .iter()
            .any(|b| b.name == a.name && (b.sub.is_none() || a.sub.is_none() || b.sub == a.sub))
        {
            return Err(format!("{what} uses axis {:?} more than once", a.name));
        }
        seen.push(a);
    }
    Ok(mesh)
}

fn verify_constraint(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let Some(s) = ShardingConstraint(op).sharding(ctx) else {
        return Ok(());
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    check_sharding(ctx, op, &s, ty, "sharding")
        .map(|_| ())
        .map_err(|m| op_error(ctx, op, m))
}

fn verify_manual_computation(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let mc = ManualComputation(op);
    let (Some(ins), Some(outs), Some(manual)) = (
        mc.in_shardings(ctx),
        mc.out_shardings(ctx),
        mc.manual_axes(ctx),
    ) else {
        return Ok(());
    };
    let err = |m: String| op_error(ctx, op, m);
    let operands = mc.tensors(ctx);
    if ins.0.len() != operands.len() {
        return Err(err(format!(
            "has {} in_shardings for {} operands",
            ins.0.len(),
            operands.len()
        )));
    }
    let results: Vec<_> = ctx.results(op).collect();
    if outs.0.len() != results.len() {
        return Err(err(format!(
            "has {} out_shardings for {} results",
            outs.0.len(),
            results.len()
        )));
    }
    let Some(block) = ctx.regions(op).first().and_then(|r| ctx.entry_block(*r)) else {
        return Ok(());
    };
    let args = ctx.block_args(block).to_vec();
    if args.len() != operands.len() {
        return Err(err(format!(
            "body has {} arguments for {} operands",
            args.len(),
            operands.len()
        )));
    }
    let locals: Vec<aic::types::Type> = match ctx.block_ops(block).last() {
        Some(t) if Return::is(ctx, t) => {
            ctx.operands(t).iter().map(|v| ctx.value_type(*v)).collect()
        }
        _ => return Err(err("body must end with 'sdy.return'".into())),
    };
    if locals.len() != results.len() {
        return Err(err(format!(
            "body returns {} values for {} results",
            locals.len(),
            results.len()
        )));
    }
    let pairs = operands
        .iter()
        .map(|v| ctx.value_type(*v))
        .zip(args.iter().map(|a| ctx.value_type(*a)))
        .zip(ins.0.iter())
        .map(|(p, s)| ("operand", p, s))
        .chain(
            results
                .iter()
                .map(|v| ctx.value_type(*v))
                .zip(locals.iter().copied())
                .zip(outs.0.iter())
                .map(|(p, s)| ("result", p, s)),
        );
    let mut counts = [0usize; 2];
    for (what, (global, local), s) in pairs {
        let k = usize::from(what == "result");
        let i = counts[k];
        counts[k] += 1;
        let mesh =
            check_sharding(ctx, op, s, global, &format!("{what} #{i}'s sharding")).map_err(err)?;
        for a in &manual.0 {
            if mesh.axis_size(a).is_none() {
                return Err(err(format!("manual axis {a:?} is not in the mesh")));
            }
        }
        let want = layout::local_type(ctx, global, s, &mesh, &|a| manual.0.contains(&a.name))
            .map_err(|m| err(format!("{what} #{i}: {m}")))?;
        if want != local {
            return Err(err(format!(
                "{what} #{i}: the body's type {} is not the local type {} of {} under its sharding",
                aic::verifier::quoted_type(ctx, local),
                aic::verifier::quoted_type(ctx, want),
                aic::verifier::quoted_type(ctx, global)
            )));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- semantics

fn identity(_: &mut Interp<'_>, _: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    Ok(args.to_vec())
}

fn nothing(_: &mut Interp<'_>, _: Op, _: &[Tensor]) -> IResult<Vec<Tensor>> {
    Ok(Vec::new())
}

/// An interpreter error at `op`.
pub(crate) fn fail(op: Op, m: impl Into<String>) -> InterpError {
    InterpError::at(op, m)
}
