//! `spmd-partition`: a sharded program (Shardy's `sdy.sharding`s on a
//! function's arguments and results, `sdy.sharding_constraint`s,
//! `sdy.manual_computation`s) becomes the program one device runs, with
//! explicit StableHLO collectives, as Shardy's propagation and partitioner
//! (and GSPMD before them) make it for the shardings real models use.
//!
//! **Propagation** ([`propagate`]) runs first, as Shardy's: each op's
//! dimensions are grouped into *factors* (Shardy's sharding rules;
//! [`rules`]): an elementwise op's dimension `i` is one factor across its
//! operands and result, a `dot_general` has batch, free and contracting
//! factors, a `reduce` kept and reduced ones, a `transpose` or
//! `broadcast_in_dim` maps dimensions, and a `reshape` maps the major
//! dimension of each group of dimensions whose sizes multiply alike (so heads
//! split out of a sharded hidden dimension stay sharded). Shardings move
//! along factors in both directions (to users, and back to producers and to
//! the arguments the user left open) under Shardy's user and op priorities
//! until nothing changes; `sdy.sharding_group` members share one sharding.
//! Ops without a rule run replicated. A GSPMD export (`mhlo.sharding`
//! strings) is read as a Shardy one before ([`gspmd`]).
//!
//! **Partitioning** then makes each op local: each factor takes the axes of
//! the first operand that shards it, if no other factor of the op took them
//! and they divide the dimension, else what propagation found for it; each
//! operand is *resharded* to what the factors ask of it ([`reshard`]): a
//! pending partial sum (a contracting or reduced factor that was sharded)
//! becomes an `all_reduce`,
//! or a `reduce_scatter` when the target shards a dimension along the same
//! axes; axes moving from one dimension to another an `all_to_all`; axes a
//! dimension loses an `all_gather`; axes it gains a local `dynamic_slice` at
//! this device's offset (read from a table by `partition_id`; a
//! `broadcast_in_dim` is re-made at the local shape instead). The op's result
//! types become local. Results are resharded to the function's declared
//! result shardings (replicated where none is declared), constraints and
//! sharding group members to theirs.
//!
//! A `sdy.manual_computation`'s operands are resharded to its in-shardings
//! along the manual axes, its body is inlined as it is (it is per-device code
//! already), and its results carry its out-shardings. Inside such a body
//! nothing is partitioned; a nested manual computation's results are gathered
//! back along its axes.
//!
//! The module gets `mhlo.num_partitions` (the mesh's devices),
//! `mhlo.num_replicas = 1` and the unit attribute `aic.partitioned`; the
//! functions keep their arguments' and results' `sdy.sharding` (an open
//! argument's as propagation found it; now saying
//! which slice of the global value each device holds, which is how
//! [`aic_dialects::sdy::layout`] splits inputs and joins results) and the
//! `sdy.mesh` stays.

mod gspmd;
mod propagate;
mod reshard;
mod rules;

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Block, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::func;
use aic_dialects::sdy::{self, AxisRef, ManualComputation, Mesh, MeshOp, MeshRef, Sharding};
use std::collections::HashMap;

pub use reshard::Reduction;

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "spmd-partition",
    name: "SpmdPartition",
    summary: "Propagate Shardy shardings and partition into one per-device program with collectives",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Box::new(SpmdPartition),
};

/// The name of the unit attribute a partitioned module carries.
pub const PARTITIONED: &str = aic_dialects::sdy::layout::PARTITIONED;

struct SpmdPartition;

impl Pass for SpmdPartition {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, module: Op) -> Result<bool, Diagnostic> {
        let u = ctx.uniquer().clone();
        if ctx.attr_of(module, u.ident(PARTITIONED)).is_some() {
            return Ok(false);
        }
        // A GSPMD export (`mhlo.sharding` strings) is read as a Shardy one.
        gspmd::import(ctx, module)?;
        let Some((mesh_name, mesh)) = module_mesh(ctx, module)? else {
            return Ok(false);
        };
        // Partitioned code is straight-line: calls (JAX keeps custom-JVP
        // functions such as `relu` as calls) are inlined first.
        let options =
            PassOptions::new(crate::inline::INFO.options, &[]).map_err(|m| fail(ctx, module, m))?;
        (crate::inline::INFO.create)(&options).run(ctx, module)?;
        let funcs: Vec<Op> = module_ops(ctx, module)
            .into_iter()
            .filter(|o| func::Func::is(ctx, *o))
            .collect();
        let mut channels = 0;
        for f in funcs {
            if ctx.regions(f).is_empty() || ctx.entry_block(ctx.regions(f)[0]).is_none() {
                continue;
            }
            let entry = ctx.entry_block(ctx.regions(f)[0]).expect("checked above");
            let mut p = Partitioner {
                mesh: &mesh,
                mesh_name: &mesh_name,
                found: HashMap::new(),
                dist: HashMap::new(),
                cache: HashMap::new(),
                channels,
                entry,
                pid: None,
            };
            p.function(ctx, f)?;
            channels = p.channels;
        }
        let i32t = u.int_type(32);
        let int = |v: i64| {
            u.attr(AttrKind::Integer {
                value: i128::from(v),
                ty: i32t,
            })
        };
        ctx.set_attr(module, u.ident("mhlo.num_partitions"), int(mesh.devices()));
        ctx.set_attr(module, u.ident("mhlo.num_replicas"), int(1));
        ctx.set_attr(module, u.ident(PARTITIONED), u.attr(AttrKind::Unit));
        Ok(true)
    }
}

fn module_ops(ctx: &Context, module: Op) -> Vec<Op> {
    ctx.regions(module)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .map(|b| ctx.block_ops(b).collect())
        .unwrap_or_default()
}

/// The one mesh of the module (all meshes must agree), if it has one with
/// more than one device, and its name.
fn module_mesh(ctx: &Context, module: Op) -> Result<Option<(String, Mesh)>, Diagnostic> {
    let mut found: Option<(Op, Mesh)> = None;
    for o in module_ops(ctx, module) {
        let Some(m) = MeshOp::of(ctx, o).and_then(|m| m.mesh(ctx)) else {
            continue;
        };
        if m.devices() <= 1 {
            continue;
        }
        match &found {
            None => found = Some((o, m)),
            Some((_, first)) if first.axes == m.axes && first.ids() == m.ids() => {}
            Some(_) => {
                return Err(aic::verifier::op_error(
                    ctx,
                    o,
                    "spmd-partition supports one mesh per module: this one differs from the first",
                ));
            }
        }
    }
    Ok(found.map(|(o, m)| {
        let name = MeshOp(o)
            .sym_name(ctx)
            .and_then(|a| ctx.attr_str(a))
            .unwrap_or_default()
            .to_string();
        (name, m)
    }))
}

/// How a value is laid out over the devices: the global shape, the axes
/// each dimension is split along (major first), and a pending reduction
/// along some axes (each device holding a partial value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dist {
    /// The global shape.
    pub global: Vec<i64>,
    /// Axes per dimension.
    pub dims: Vec<Vec<String>>,
    /// Axes along which the devices hold partial values, and how they combine.
    pub partial: Option<(Vec<String>, Reduction)>,
}

impl Dist {
    /// Replicated, of shape `global`.
    pub fn replicated(global: &[i64]) -> Dist {
        Dist {
            global: global.to_vec(),
            dims: vec![Vec::new(); global.len()],
            partial: None,
        }
    }
    /// One device's shape.
    pub fn local(&self, mesh: &Mesh) -> Vec<i64> {
        self.global
            .iter()
            .zip(&self.dims)
            .map(|(n, axes)| n / shards(mesh, axes))
            .collect()
    }
}

/// How many shards `axes` split a dimension into.
pub fn shards(mesh: &Mesh, axes: &[String]) -> i64 {
    axes.iter()
        .map(|a| mesh.axis_size(a).unwrap_or(1))
        .product()
}

/// A sharding's axes per dimension (only the axes `keep` selects), checked
/// against the global shape: every axis a whole axis of the mesh, every
/// dimension divisible.
fn dims_of(
    mesh: &Mesh,
    s: &Sharding,
    global: &[i64],
    keep: &dyn Fn(&AxisRef) -> bool,
) -> Result<Vec<Vec<String>>, String> {
    if s.dims.len() != global.len() {
        return Err(format!(
            "a sharding of {} dimensions for a tensor of rank {}",
            s.dims.len(),
            global.len()
        ));
    }
    let mut out = Vec::new();
    for (d, (ds, n)) in s.dims.iter().zip(global).enumerate() {
        let mut axes = Vec::new();
        for a in ds.axes.iter().filter(|a| keep(a)) {
            if a.sub.is_some() {
                return Err(format!(
                    "sub-axis {:?}:({}){} is not supported yet by spmd-partition",
                    a.name,
                    a.sub.map_or(0, |s| s.0),
                    a.sub.map_or(0, |s| s.1)
                ));
            }
            if mesh.axis_size(&a.name).is_none() {
                return Err(format!("axis {:?} is not in the mesh", a.name));
            }
            axes.push(a.name.clone());
        }
        let k = shards(mesh, &axes);
        if *n < 0 {
            return Err(format!(
                "dimension {d} is dynamic: a sharded tensor needs static sizes"
            ));
        }
        if n % k != 0 {
            return Err(format!(
                "dimension {d} of size {n} cannot be split into {k} shards along {axes:?}: the sharding does not divide it"
            ));
        }
        out.push(axes);
    }
    Ok(out)
}

/// A static ranked tensor's shape.
pub fn static_shape(ctx: &Context, t: Type) -> Option<Vec<i64>> {
    match ctx.type_kind(t) {
        TypeKind::Tensor { shape, .. } if shape.iter().all(|d| *d >= 0) => Some(shape.to_vec()),
        _ => None,
    }
}

/// `t` with shape `shape`.
pub fn with_shape(ctx: &Context, t: Type, shape: &[i64]) -> Type {
    match ctx.type_kind(t).clone() {
        TypeKind::Tensor { elem, encoding, .. } => ctx.uniquer().ty(TypeKind::Tensor {
            shape: shape.iter().copied().collect(),
            elem,
            encoding,
        }),
        _ => t,
    }
}

/// The state of partitioning one function.
pub(crate) struct Partitioner<'m> {
    pub(crate) mesh: &'m Mesh,
    /// The mesh's symbol, for the shardings written on arguments.
    mesh_name: &'m str,
    /// What propagation found for the values of the function.
    found: propagate::Found,
    /// Layout of the values of partitioned code (absent: replicated, unchanged).
    pub(crate) dist: HashMap<Value, Dist>,
    /// Reshards already made: (value, target dims) to the local value.
    pub(crate) cache: HashMap<(Value, Vec<Vec<String>>), Value>,
    /// Channel ids handed out.
    pub(crate) channels: i64,
    /// The function's entry block.
    pub(crate) entry: Block,
    /// This device's partition id as an `i32` scalar, made once at the entry.
    pub(crate) pid: Option<Value>,
}

/// The `sdy.sharding` in a dictionary of argument or result attributes.
fn sharding_in(ctx: &Context, dict: Option<Attr>) -> Option<Sharding> {
    let d = dict?;
    let key = ctx.find_ident("sdy.sharding")?;
    ctx.dict_entries(d)
        .iter()
        .find(|(k, _)| *k == key)
        .and_then(|(_, a)| Sharding::of(ctx, *a).cloned())
}

fn arg_dicts(ctx: &Context, f: Op, name: &str) -> Vec<Option<Attr>> {
    let Some(a) = aic::constraints::op_attr(ctx, f, name) else {
        return Vec::new();
    };
    match ctx.attr_kind(a) {
        AttrKind::Array(v) => v.iter().map(|x| Some(*x)).collect(),
        _ => Vec::new(),
    }
}

fn fail(ctx: &Context, op: Op, m: impl Into<String>) -> Diagnostic {
    aic::verifier::op_error(ctx, op, m.into())
}

impl Partitioner<'_> {
    fn function(&mut self, ctx: &mut Context, f: Op) -> Result<(), Diagnostic> {
        let block = ctx
            .entry_block(ctx.regions(f)[0])
            .expect("checked by the caller");
        let arg_dicts = arg_dicts(ctx, f, "arg_attrs");
        let res_dicts = arg_dicts_res(ctx, f);
        self.found = propagate::propagate(ctx, f, block, self.mesh, &arg_dicts, &res_dicts)?;
        // Arguments: local types by their propagated shardings, which the
        // signature then records.
        let args: Vec<Value> = ctx.block_args(block).to_vec();
        let mut dicts = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let ty = ctx.value_type(*a);
            let dict = arg_dicts.get(i).copied().flatten();
            let Some(global) = static_shape(ctx, ty) else {
                dicts.push(dict);
                continue;
            };
            let dims = self
                .found
                .get(a)
                .cloned()
                .unwrap_or_else(|| vec![Vec::new(); global.len()]);
            dicts.push(self.record(ctx, dict, &dims));
            let d = Dist {
                global,
                dims,
                partial: None,
            };
            let local = with_shape(ctx, ty, &d.local(self.mesh));
            ctx.set_value_type(*a, local);
            self.dist.insert(*a, d);
        }
        if dicts.iter().any(Option::is_some) {
            let u = ctx.uniquer().clone();
            let empty = u.dict_attr(Vec::new());
            let list: Vec<Attr> = dicts.iter().map(|d| d.unwrap_or(empty)).collect();
            ctx.set_inherent_attr(
                f,
                u.ident("arg_attrs"),
                u.attr(AttrKind::Array(list.into())),
            );
        }
        self.block(ctx, block, true, &res_dicts)?;
        // The signature follows the arguments and the returned values.
        func::sync_function_type(ctx, f);
        Ok(())
    }

    /// `dict` (an argument's attributes) with its `sdy.sharding` saying
    /// `dims` when propagation sharded an argument the user left open.
    fn record(&self, ctx: &Context, dict: Option<Attr>, dims: &[Vec<String>]) -> Option<Attr> {
        let declared = sharding_in(ctx, dict);
        let same = declared.as_ref().is_some_and(|s| {
            s.dims
                .iter()
                .zip(dims)
                .all(|(d, axes)| d.axes.iter().map(|a| &a.name).eq(axes.iter()))
        });
        if same || (declared.is_none() && dims.iter().all(Vec::is_empty)) {
            return dict;
        }
        let u = ctx.uniquer();
        let mut s = declared.unwrap_or_else(|| {
            Sharding::replicated(MeshRef::Symbol(self.mesh_name.to_string()), dims.len())
        });
        for (d, axes) in s.dims.iter_mut().zip(dims) {
            d.axes = axes.iter().map(|a| AxisRef::axis(a)).collect();
        }
        let key = u.ident("sdy.sharding");
        let mut entries: Vec<(aic::attributes::Ident, Attr)> = dict
            .map(|d| ctx.dict_entries(d).to_vec())
            .unwrap_or_default()
            .into_iter()
            .filter(|(k, _)| *k != key)
            .collect();
        entries.push((key, s.attr(u)));
        Some(u.dict_attr(entries))
    }

    /// Partition the ops of `block` (`auto`: partitioned code; otherwise a
    /// manual body, left as it is but for nested manual computations and
    /// sdy's markers).
    fn block(
        &mut self,
        ctx: &mut Context,
        block: Block,
        auto: bool,
        res_dicts: &[Option<Attr>],
    ) -> Result<(), Diagnostic> {
        let ops: Vec<Op> = ctx.block_ops(block).collect();
        for op in ops {
            if let Some(c) = sdy::ShardingConstraint::of(ctx, op) {
                let input = c.input(ctx);
                let out = ctx.result(op, 0);
                let new = if auto {
                    let s = c.sharding(ctx).expect("verified");
                    self.constrain(ctx, op, input, &s)?
                } else {
                    input
                };
                ctx.replace_all_uses(out, new);
                ctx.erase_op(op);
            } else if let Some(c) = sdy::Reshard::of(ctx, op) {
                let input = c.input(ctx);
                let out = ctx.result(op, 0);
                let new = if auto {
                    let s = c.sharding(ctx).expect("verified");
                    self.constrain(ctx, op, input, &s)?
                } else {
                    input
                };
                ctx.replace_all_uses(out, new);
                ctx.erase_op(op);
            } else if let Some(g) = sdy::ShardingGroup::of(ctx, op) {
                if auto {
                    self.group(ctx, op, g.input(ctx))?;
                }
                ctx.erase_op(op);
            } else if ManualComputation::is(ctx, op) {
                self.manual(ctx, op, auto)?;
            } else if !auto {
                continue;
            } else if func::Return::is(ctx, op) {
                let vals: Vec<Value> = ctx.operands(op).to_vec();
                for (i, v) in vals.iter().enumerate() {
                    let Some(global) = static_shape_of(ctx, &self.dist, *v) else {
                        continue;
                    };
                    let dims = match sharding_in(ctx, res_dicts.get(i).copied().flatten()) {
                        Some(s) => dims_of(self.mesh, &s, &global, &|_| true)
                            .map_err(|m| fail(ctx, op, format!("result #{i}: {m}")))?,
                        None => vec![Vec::new(); global.len()],
                    };
                    let local = self.reshard(ctx, op, *v, &dims)?;
                    ctx.set_operand(op, i, local);
                }
            } else if func::Call::is(ctx, op) {
                return Err(fail(
                    ctx,
                    op,
                    "spmd-partition cannot partition a call it could not inline",
                ));
            } else {
                self.op(ctx, op)?;
            }
        }
        Ok(())
    }

    /// `input` resharded as `s` asks (open dimensions without axes keep
    /// theirs).
    fn constrain(
        &mut self,
        ctx: &mut Context,
        op: Op,
        input: Value,
        s: &Sharding,
    ) -> Result<Value, Diagnostic> {
        let Some(global) = static_shape_of(ctx, &self.dist, input) else {
            return Ok(input);
        };
        let mut dims = dims_of(self.mesh, s, &global, &|_| true).map_err(|m| fail(ctx, op, m))?;
        let cur = self.dist_of(ctx, input);
        for (d, ds) in s.dims.iter().enumerate() {
            if ds.open && ds.axes.is_empty() {
                let taken: Vec<&String> = dims.iter().flatten().collect();
                if cur.dims[d].iter().all(|a| !taken.contains(&a)) {
                    dims[d] = cur.dims[d].clone();
                }
            }
        }
        self.reshard(ctx, op, input, &dims)
    }

    /// Inline a manual computation's body (see the module's documentation).
    fn manual(&mut self, ctx: &mut Context, op: Op, auto: bool) -> Result<(), Diagnostic> {
        let mc = ManualComputation(op);
        let (ins, outs, manual) = (
            mc.in_shardings(ctx).expect("verified"),
            mc.out_shardings(ctx).expect("verified"),
            mc.manual_axes(ctx).expect("verified"),
        );
        let keep = |a: &AxisRef| manual.0.contains(&a.name);
        for s in ins.0.iter().chain(outs.0.iter()) {
            let same = match &s.mesh {
                MeshRef::Symbol(_) => sdy::mesh_of(ctx, op, &s.mesh),
                MeshRef::Inline(m) => Some(m.clone()),
            };
            if same.is_some_and(|m| m.axes != self.mesh.axes) {
                return Err(fail(ctx, op, "a manual computation over another mesh"));
            }
        }
        let operands: Vec<Value> = ctx.operands(op).to_vec();
        let mut locals = Vec::new();
        for (i, (v, s)) in operands.iter().zip(&ins.0).enumerate() {
            let global = static_shape_of(ctx, &self.dist, *v)
                .ok_or_else(|| fail(ctx, op, format!("operand #{i} needs a static shape")))?;
            let dims = dims_of(self.mesh, s, &global, &keep)
                .map_err(|m| fail(ctx, op, format!("operand #{i}: {m}")))?;
            locals.push(self.reshard(ctx, op, *v, &dims)?);
        }
        let region = ctx.regions(op)[0];
        let body = ctx.entry_block(region).expect("verified");
        // Partition the body first (nested manual computations, markers).
        self.block(ctx, body, false, &[])?;
        let ret = ctx.block_ops(body).last().expect("verified");
        let returned: Vec<Value> = ctx.operands(ret).to_vec();
        ctx.erase_op(ret);
        ctx.inline_block(body, aic::ir::InsertPoint::Before(op), &locals);
        let results: Vec<Value> = ctx.results(op).collect();
        for (k, ((r, v), s)) in results.iter().zip(&returned).zip(&outs.0).enumerate() {
            let global = static_shape(ctx, ctx.value_type(*r))
                .ok_or_else(|| fail(ctx, op, format!("result #{k} needs a static shape")))?;
            let dims = dims_of(self.mesh, s, &global, &keep)
                .map_err(|m| fail(ctx, op, format!("result #{k}: {m}")))?;
            let d = Dist {
                global: global.clone(),
                dims,
                partial: None,
            };
            let new = if auto {
                self.dist.insert(*v, d);
                *v
            } else {
                // Gathered back along the manual axes for the enclosing body.
                self.dist.insert(*v, d);
                let rep = vec![Vec::new(); global.len()];
                let g = self.reshard(ctx, op, *v, &rep)?;
                self.dist.remove(&g);
                g
            };
            ctx.replace_all_uses(*r, new);
        }
        ctx.erase_op(op);
        Ok(())
    }

    /// A member of a sharding group takes the group's sharding from here on.
    fn group(&mut self, ctx: &mut Context, op: Op, v: Value) -> Result<(), Diagnostic> {
        let Some(want) = self.found.get(&v).cloned() else {
            return Ok(());
        };
        let new = self.reshard(ctx, op, v, &want)?;
        if new == v {
            return Ok(());
        }
        let mut later = Vec::new();
        let mut next = ctx.next_op(op);
        while let Some(o) = next {
            ctx.walk(o, aic::ir::WalkOrder::PreOrder, &mut |_, x| later.push(x));
            next = ctx.next_op(o);
        }
        for o in later {
            for (i, x) in ctx.operands(o).to_vec().into_iter().enumerate() {
                if x == v {
                    ctx.set_operand(o, i, new);
                }
            }
        }
        Ok(())
    }

    /// The layout of `v` (replicated if partitioning never saw it).
    pub(crate) fn dist_of(&self, ctx: &Context, v: Value) -> Dist {
        self.dist.get(&v).cloned().unwrap_or_else(|| {
            Dist::replicated(&static_shape(ctx, ctx.value_type(v)).unwrap_or_default())
        })
    }

    /// Partition one op of partitioned code.
    fn op(&mut self, ctx: &mut Context, op: Op) -> Result<(), Diagnostic> {
        let operands: Vec<Value> = ctx.operands(op).to_vec();
        let results: Vec<Value> = ctx.results(op).collect();
        let tensors = |vs: &[Value]| {
            vs.iter()
                .all(|v| static_shape_of(ctx, &self.dist, *v).is_some())
        };
        let plan = if tensors(&operands) && tensors(&results) && ctx.regions(op).is_empty()
            || aic_dialects::stablehlo::structured::Reduce::is(ctx, op)
        {
            let dists: Vec<Dist> = operands.iter().map(|v| self.dist_of(ctx, *v)).collect();
            let hints: Vec<Option<Vec<Vec<String>>>> = operands
                .iter()
                .chain(&results)
                .map(|v| self.found.get(v).cloned())
                .collect();
            rules::plan(ctx, op, self.mesh, &dists, &hints)
        } else {
            None
        };
        let Some(plan) = plan else {
            return self.replicated(ctx, op);
        };
        for (i, (v, want)) in operands.iter().zip(&plan.operands).enumerate() {
            let local = self.reshard(ctx, op, *v, want)?;
            ctx.set_operand(op, i, local);
        }
        for (r, d) in results.iter().zip(plan.results) {
            let ty = ctx.value_type(*r);
            ctx.set_value_type(*r, with_shape(ctx, ty, &d.local(self.mesh)));
            self.dist.insert(*r, d);
        }
        Ok(())
    }

    /// Run `op` on replicated values: every operand, and every value its
    /// regions use from outside, gathered.
    fn replicated(&mut self, ctx: &mut Context, op: Op) -> Result<(), Diagnostic> {
        let operands: Vec<Value> = ctx.operands(op).to_vec();
        for (i, v) in operands.iter().enumerate() {
            if self.dist.contains_key(v) {
                let rep = vec![Vec::new(); self.dist[v].global.len()];
                let local = self.reshard(ctx, op, *v, &rep)?;
                ctx.set_operand(op, i, local);
            }
        }
        let mut inner = Vec::new();
        for r in ctx.regions(op).to_vec() {
            for b in ctx.region_blocks(r).collect::<Vec<_>>() {
                for o in ctx.block_ops(b).collect::<Vec<_>>() {
                    ctx.walk(o, aic::ir::WalkOrder::PreOrder, &mut |_, x| inner.push(x));
                }
            }
        }
        for o in inner {
            let vals: Vec<Value> = ctx.operands(o).to_vec();
            for (i, v) in vals.iter().enumerate() {
                if self.dist.contains_key(v) && !ctx.is_defined_outside(*v, op) {
                    continue;
                }
                if self.dist.contains_key(v) {
                    let rep = vec![Vec::new(); self.dist[v].global.len()];
                    let local = self.reshard(ctx, op, *v, &rep)?;
                    ctx.set_operand(o, i, local);
                }
            }
        }
        Ok(())
    }
}

fn arg_dicts_res(ctx: &Context, f: Op) -> Vec<Option<Attr>> {
    arg_dicts(ctx, f, "res_attrs")
}

/// The global shape of `v`: its layout's, or its type's.
fn static_shape_of(ctx: &Context, dist: &HashMap<Value, Dist>, v: Value) -> Option<Vec<i64>> {
    match dist.get(&v) {
        Some(d) => Some(d.global.clone()),
        None => static_shape(ctx, ctx.value_type(v)),
    }
}
