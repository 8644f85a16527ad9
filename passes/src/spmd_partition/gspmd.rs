//! A GSPMD-style export (`mhlo.sharding` strings on `@main`'s arguments
//! and results, `stablehlo.custom_call @Sharding` constraints, and the
//! module's `mhlo.num_partitions`) made a Shardy one before partitioning:
//! an `sdy.mesh` of the partitions ([`sdy::gspmd::mesh_for`]), each string
//! an `sdy.sharding` ([`sdy::gspmd::to_sharding`]), each `@Sharding` call
//! an `sdy.sharding_constraint`. A module with an `sdy.mesh` is Shardy's
//! already and left as it is. Strings that cannot be read are errors at
//! their op.

use super::{arg_dicts, fail, module_ops, static_shape};
use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Builder, Context, Op, WalkOrder};
use aic::op_def::OpHandle;
use aic_dialects::func;
use aic_dialects::sdy::{self, Mesh, MeshOp, MeshRef, gspmd};
use aic_dialects::stablehlo::structured::CustomCall;

const KEY: &str = "mhlo.sharding";

/// What `@Sharding` and GSPMD's shard_map calls are.
fn target(ctx: &Context, op: Op) -> Option<String> {
    CustomCall::of(ctx, op)?
        .call_target_name(ctx)
        .and_then(|a| ctx.attr_str(a))
        .map(str::to_string)
}

/// The `mhlo.sharding` string in an attribute dictionary.
fn string_in(ctx: &Context, dict: Option<Attr>) -> Option<String> {
    let key = ctx.find_ident(KEY)?;
    ctx.dict_entries(dict?)
        .iter()
        .find(|(k, _)| *k == key)
        .and_then(|(_, a)| ctx.attr_str(*a))
        .map(str::to_string)
}

/// Make the GSPMD export `module` a Shardy one (see the module's
/// documentation).
pub(crate) fn import(ctx: &mut Context, module: Op) -> Result<(), Diagnostic> {
    let top = module_ops(ctx, module);
    if top.iter().any(|o| MeshOp::is(ctx, *o)) {
        return Ok(());
    }
    let funcs: Vec<Op> = top
        .iter()
        .copied()
        .filter(|o| func::Func::is(ctx, *o))
        .collect();
    let mut all = Vec::new();
    ctx.walk(module, WalkOrder::PreOrder, &mut |_, o| all.push(o));
    let calls: Vec<Op> = all
        .into_iter()
        .filter(|o| target(ctx, *o).is_some_and(|t| t == "Sharding" || t.starts_with("SPMD")))
        .collect();
    let strings = funcs.iter().any(|f| {
        ["arg_attrs", "res_attrs"]
            .iter()
            .flat_map(|n| arg_dicts(ctx, *f, n))
            .any(|d| string_in(ctx, d).is_some())
    });
    if !strings && calls.is_empty() {
        return Ok(());
    }
    let partitions = ctx
        .find_ident("mhlo.num_partitions")
        .and_then(|n| ctx.attr_of(module, n))
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
            _ => None,
        });
    let Some(n) = partitions else {
        return Err(fail(
            ctx,
            module,
            "mhlo.sharding attributes need the module's mhlo.num_partitions (how many devices to partition for)",
        ));
    };
    if n <= 1 {
        return Ok(());
    }
    let mesh = gspmd::mesh_for(n);
    let taken: Vec<String> = top
        .iter()
        .filter_map(|o| aic::symbol::symbol_name(ctx, *o).map(str::to_string))
        .collect();
    let name = std::iter::once("mesh".to_string())
        .chain((0..).map(|k| format!("mesh_{k}")))
        .find(|c| !taken.contains(c))
        .expect("an unused name");
    let mesh_ref = MeshRef::Symbol(name.clone());
    for f in funcs {
        for (what, key) in [("argument", "arg_attrs"), ("result", "res_attrs")] {
            let dicts = arg_dicts(ctx, f, key);
            if dicts.iter().all(|d| string_in(ctx, *d).is_none()) {
                continue;
            }
            let types = func::function_type(ctx, f)
                .map(|(i, o)| if key == "arg_attrs" { i } else { o })
                .unwrap_or_default();
            let mut out = Vec::new();
            for (i, d) in dicts.iter().enumerate() {
                let Some(text) = string_in(ctx, *d) else {
                    out.push(d.expect("a dictionary per value"));
                    continue;
                };
                let s = types
                    .get(i)
                    .and_then(|t| static_shape(ctx, *t))
                    .ok_or_else(|| "the value is not a static tensor".to_string())
                    .and_then(|shape| read(&text, shape.len(), &mesh, &mesh_ref))
                    .map_err(|m| {
                        fail(ctx, f, format!("{what} #{i}: mhlo.sharding {text:?}: {m}"))
                    })?;
                out.push(replace(ctx, d.expect("a string in it"), s));
            }
            let u = ctx.uniquer().clone();
            ctx.set_inherent_attr(f, u.ident(key), u.attr(AttrKind::Array(out.into())));
        }
    }
    for op in calls {
        let t = target(ctx, op).unwrap_or_default();
        if t != "Sharding" {
            return Err(fail(
                ctx,
                op,
                format!(
                    "custom_call @{t} (GSPMD's form of shard_map) is not supported: export with Shardy, whose sdy.manual_computation spmd-partition reads"
                ),
            ));
        }
        let text = aic::constraints::op_attr(ctx, op, KEY)
            .and_then(|a| ctx.attr_str(a))
            .map(str::to_string)
            .ok_or_else(|| {
                fail(
                    ctx,
                    op,
                    "custom_call @Sharding without an mhlo.sharding string",
                )
            })?;
        let (input, result) = match (ctx.operands(op), ctx.num_results(op)) {
            ([x], 1) => (*x, ctx.result(op, 0)),
            _ => return Err(fail(ctx, op, "custom_call @Sharding takes one value")),
        };
        let ty = ctx.value_type(result);
        let s = static_shape(ctx, ty)
            .ok_or_else(|| "the value is not a static tensor".to_string())
            .and_then(|shape| read(&text, shape.len(), &mesh, &mesh_ref))
            .map_err(|m| fail(ctx, op, format!("mhlo.sharding {text:?}: {m}")))?;
        let a = s.attr(ctx.uniquer());
        let mut b = Builder::before(ctx, op);
        let c = sdy::ShardingConstraint::build(&mut b, input, a, ty);
        let new = ctx.result(c.op(), 0);
        ctx.replace_all_uses(result, new);
        ctx.erase_op(op);
    }
    let u = ctx.uniquer().clone();
    let body = ctx
        .entry_block(ctx.regions(module)[0])
        .expect("a module has a body");
    let mut b = match ctx.first_op(body) {
        Some(first) => Builder::before(ctx, first),
        None => Builder::at_end(ctx, body),
    };
    MeshOp::build(&mut b, u.string_attr(&name), Mesh::attr(mesh, &u));
    Ok(())
}

fn read(text: &str, rank: usize, mesh: &Mesh, mesh_ref: &MeshRef) -> Result<sdy::Sharding, String> {
    gspmd::to_sharding(&gspmd::parse(text)?, rank, mesh, mesh_ref.clone())
}

/// `dict` with its `mhlo.sharding` replaced by `sdy.sharding = s`.
fn replace(ctx: &Context, dict: Attr, s: sdy::Sharding) -> Attr {
    let u = ctx.uniquer();
    let (old, new) = (u.ident(KEY), u.ident("sdy.sharding"));
    let mut entries: Vec<_> = ctx
        .dict_entries(dict)
        .iter()
        .copied()
        .filter(|(k, _)| *k != old && *k != new)
        .collect();
    entries.push((new, s.attr(u)));
    u.dict_attr(entries)
}
