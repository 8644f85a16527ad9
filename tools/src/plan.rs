//! The executable plan of a compiled module's host functions (see
//! [`aic_runtime::plan`]): each tensor value becomes a buffer, each `gpu.launch` a
//! launch step, each view (a reshape or bitcast) an alias of its source, each constant
//! a buffer uploaded once, each `stablehlo.while` a loop step and each
//! `stablehlo.case` or `stablehlo.if` a choice step, their regions nested step lists
//! (carried values and branch results copied between buffers); the runtime plans the
//! arena by liveness.
//!
//! A function holding any other tensor op gets no plan: the manifest lists those ops,
//! and `aic-run` runs the function in the interpreter with a warning that names them.

use aic::interp::tensor_of_attr;
use aic::ir::{Block, Context, Op, Value};
use aic::op_def::OpHandle;
use aic_dialects::{arith, func, gpu, graph, stablehlo};
use aic_runtime::collective::{Collective, Reduction};
use aic_runtime::plan::{
    Buffer, DimExpr, Dynamic, FuncPlan, HostOp, Interpreted, Plan, Source, Step, encode_hex,
};
use aic_runtime::{KernelInfo, Param};
use std::collections::HashMap;

use crate::compile::{elem_name, launch_kernel, to_bytes, top_ops};

/// What each host function of `m` runs as: its plan, or the ops that keep it in the
/// interpreter. Arguments at positions in `kept` are uploaded once and kept between
/// calls (weights); the others are passed per call.
pub fn plans(
    ctx: &Context,
    m: Op,
    kernels: &[KernelInfo],
    kept: &[usize],
) -> Result<Vec<FuncPlan>, String> {
    // A partitioned module's functions run on every device of its mesh.
    let devices = aic_dialects::sdy::layout::partitioned_devices(ctx, m).unwrap_or(1);
    let devices = u32::try_from(devices).map_err(|_| format!("{devices} devices"))?;
    top_ops::<func::Func>(ctx, m)
        .into_iter()
        .filter(|f| {
            ctx.regions(f.op())
                .first()
                .and_then(|r| ctx.entry_block(*r))
                .is_some()
        })
        .map(|f| plan_func(ctx, f.op(), kernels, kept, devices))
        .collect()
}

/// One line on a function's plan for `--verbose`: the planned arena against the sum
/// of the tensors' bytes, or the ops that keep the function in the interpreter.
pub fn remark(p: &FuncPlan) -> String {
    match p {
        FuncPlan::Planned(p) => {
            let all = aic_runtime::plan::preorder(&p.steps).unwrap_or_default();
            let count = |f: fn(&Step) -> bool| all.iter().filter(|s| f(s)).count();
            let launches = count(|s| matches!(s, Step::Launch { .. }));
            let collectives = count(|s| matches!(s, Step::Collective { .. }));
            let aliases = count(|s| matches!(s, Step::Alias { .. }));
            let copies = count(|s| matches!(s, Step::Copy { .. }));
            let loops = count(|s| matches!(s, Step::While { .. }));
            let choices = count(|s| matches!(s, Step::Case { .. }));
            let flow = if loops + choices + copies > 0 {
                format!(", {copies} copies, {loops} loops, {choices} choices")
            } else {
                String::new()
            };
            let share = if p.tensor_bytes == 0 {
                100.0
            } else {
                100.0 * p.arena_bytes as f64 / p.tensor_bytes as f64
            };
            format!(
                "remark: @{}: planned arena {} bytes for {} bytes of tensors ({share:.1}%): {} buffers, {launches} launches, {aliases} aliases{flow}{}",
                p.func,
                p.arena_bytes,
                p.tensor_bytes,
                p.buffers.len(),
                if p.devices > 1 {
                    format!(
                        ", {collectives} collectives on each of {} devices",
                        p.devices
                    )
                } else {
                    String::new()
                }
            )
        }
        FuncPlan::Interpreted(i) => {
            format!("remark: @{}: no plan: {}", i.func, host_ops_text(&i.ops))
        }
    }
}

/// "N tensor ops run on the host interpreter: a at f:1:2, b at f:3:4".
pub fn host_ops_text(ops: &[HostOp]) -> String {
    let list: Vec<String> = ops.iter().map(|o| o.to_string()).collect();
    format!(
        "{} tensor op{} run{} on the host interpreter: {}",
        ops.len(),
        if ops.len() == 1 { "" } else { "s" },
        if ops.len() == 1 { "s" } else { "" },
        list.join(", ")
    )
}

/// Where an op is, as `file:line:col` (empty without a file location).
fn location(ctx: &Context, op: Op) -> String {
    aic::diagnostics::file_line_col(ctx.uniquer(), ctx.op(op).loc)
        .map(|(f, l, c)| format!("{f}:{l}:{c}"))
        .unwrap_or_default()
}

/// Whether `op` only reinterprets its operand's bytes with another shape or element
/// type of the same width (a cast between integers of one width keeps the bits).
fn is_view(ctx: &Context, op: Op) -> bool {
    graph::Reshape::is(ctx, op)
        || stablehlo::Reshape::is(ctx, op)
        || stablehlo::BitcastConvert::is(ctx, op)
        || ((graph::Cast::is(ctx, op) || stablehlo::Convert::is(ctx, op))
            && same_width_integers(ctx, op))
}

/// Whether `op`'s one operand and one result hold integers of one width.
fn same_width_integers(ctx: &Context, op: Op) -> bool {
    let width = |v: Value| match ctx
        .type_kind(ctx.value_type(v))
        .element_type()
        .map(|e| ctx.type_kind(e))
    {
        Some(aic::types::TypeKind::Integer { width, .. }) => Some(*width),
        _ => None,
    };
    match (ctx.operands(op), ctx.results(op).next()) {
        ([a], Some(r)) => width(*a).is_some() && width(*a) == width(r),
        _ => false,
    }
}

/// Whether `op` is a constant the plan carries as bytes.
fn is_constant(ctx: &Context, op: Op) -> bool {
    graph::Constant::is(ctx, op) || stablehlo::Constant::is(ctx, op) || arith::Constant::is(ctx, op)
}

/// The buffers, in plan order, of one function, keyed by value.
struct Buffers<'c> {
    ctx: &'c Context,
    list: Vec<Buffer>,
    of: HashMap<Value, u32>,
    /// Each view's storage: the buffer it aliases, through every view.
    root: HashMap<u32, u32>,
}

impl Buffers<'_> {
    /// The buffer whose bytes `b` is: `b`, or what its views alias.
    fn root_of(&self, b: u32) -> u32 {
        self.root.get(&b).copied().unwrap_or(b)
    }

    /// A new buffer of `b`'s size, type and shape, a step writes.
    fn add_like(&mut self, b: u32) -> u32 {
        let mut like = self.list[b as usize].clone();
        like.source = Source::Step;
        self.list.push(like);
        (self.list.len() - 1) as u32
    }

    /// A new buffer for `v`, or why `v` cannot have one.
    fn add(&mut self, v: Value, source: Source) -> Result<u32, String> {
        let ty = self.ctx.value_type(v);
        let kd = self.ctx.type_kind(ty);
        let text = || aic::printer::type_text(self.ctx, ty);
        let (Some(elem), Some(shape)) = (kd.element_type(), kd.shape()) else {
            return Err(format!("{} is not a tensor", text()));
        };
        let elem = elem_name(self.ctx, elem);
        let elem_bytes = Param::elem_bytes(&elem)
            .ok_or_else(|| format!("{}: no buffer layout for {elem}", text()))?;
        let bytes = aic::shape::bytes(shape, elem_bytes)
            .map_err(|_| format!("{} has no static size in bytes", text()))?;
        let id = self.list.len() as u32;
        self.list.push(Buffer {
            offset: 0,
            bytes: bytes as u64,
            elem,
            shape: shape.to_vec(),
            source,
        });
        self.of.insert(v, id);
        Ok(id)
    }

    /// The buffer of `v`, which an earlier op defined.
    fn get(&self, v: Value) -> Result<u32, String> {
        self.of
            .get(&v)
            .copied()
            .ok_or_else(|| "an operand without a buffer".to_string())
    }
}

/// The plan of function `f`, or the ops that keep it from having one.
fn plan_func(
    ctx: &Context,
    f: Op,
    kernels: &[KernelInfo],
    kept: &[usize],
    devices: u32,
) -> Result<FuncPlan, String> {
    let name = aic::symbol::symbol_name(ctx, f)
        .unwrap_or_default()
        .to_string();
    let body = ctx
        .regions(f)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .expect("filtered to functions with bodies");
    let mut bufs = Buffers {
        ctx,
        list: Vec::new(),
        of: HashMap::new(),
        root: HashMap::new(),
    };
    let mut inputs = Vec::new();
    for (i, a) in ctx.block_args(body).iter().enumerate() {
        let source = Source::Input {
            arg: i as u32,
            kept: kept.contains(&i),
        };
        match bufs.add(*a, source) {
            Ok(b) => inputs.push(b),
            // A function of non-tensor arguments (scalars, indices) stays interpreted.
            Err(e) => {
                return Ok(FuncPlan::Interpreted(Interpreted {
                    func: name.clone(),
                    ops: vec![HostOp {
                        name: format!("argument {i} ({e})"),
                        loc: location(ctx, f),
                    }],
                }));
            }
        }
    }
    let mut steps = Vec::new();
    let outputs = match plan_block(ctx, body, &mut bufs, &mut steps, kernels, devices, &name)? {
        Ok(outputs) => outputs,
        Err(op) => return Ok(interpreted(ctx, f, name, op, devices)),
    };
    let mut plan = Plan::new_spmd(name, bufs.list, steps, inputs, outputs, devices)?;
    plan.dynamic = dynamic_of(ctx, f)?;
    Ok(FuncPlan::Planned(plan))
}

/// Appends the steps of `block` (a function's body, or a region of its
/// control flow) to `steps`: the buffers its terminator returns, or the
/// first op the plan cannot hold.
fn plan_block(
    ctx: &Context,
    block: Block,
    bufs: &mut Buffers<'_>,
    steps: &mut Vec<Step>,
    kernels: &[KernelInfo],
    devices: u32,
    name: &str,
) -> Result<Result<Vec<u32>, Op>, String> {
    use stablehlo::structured::{Case, If, Return, While};
    let fail = |op: Op, why: String| {
        format!(
            "@{name}: {} at {}: {why}",
            ctx.op_name(op),
            location(ctx, op)
        )
    };
    for op in ctx.block_ops(block) {
        if let Some(l) = gpu::Launch::of(ctx, op) {
            let kernel = launch_kernel(ctx, l.op());
            let mut args = Vec::new();
            for v in ctx.operands(op) {
                args.push(bufs.get(*v).map_err(|e| fail(op, e))?);
            }
            for r in ctx.results(op) {
                args.push(bufs.add(r, Source::Step).map_err(|e| fail(op, e))?);
            }
            if !kernels.iter().any(|k| k.name == kernel) {
                return Err(fail(op, format!("no compiled kernel '{kernel}'")));
            }
            steps.push(Step::Launch { kernel, args });
        } else if is_view(ctx, op) && ctx.operands(op).len() == 1 {
            let of = bufs.get(ctx.operands(op)[0]).map_err(|e| fail(op, e))?;
            let r = ctx.results(op).next().expect("a view has one result");
            let view = bufs.add(r, Source::Step).map_err(|e| fail(op, e))?;
            if bufs.list[view as usize].bytes != bufs.list[of as usize].bytes {
                return Ok(Err(op));
            }
            bufs.root.insert(view, bufs.root_of(of));
            steps.push(Step::Alias { view, of });
        } else if is_constant(ctx, op) {
            let r = ctx.results(op).next().expect("a constant has one result");
            let ty = ctx.value_type(r);
            let value = aic::rewrite::constant_value(ctx, op)
                .and_then(|a| tensor_of_attr(ctx.uniquer(), a, ty));
            let added = value.ok_or_else(String::new).and_then(|t| {
                let hex = encode_hex(&to_bytes(ctx, &t));
                bufs.add(r, Source::Constant { hex })
            });
            if added.is_err() {
                return Ok(Err(op));
            }
        } else if stablehlo::structured::PartitionId::is(ctx, op) {
            // A per-device constant each runner writes into its arena (its
            // `ui32` bytes as the `i32` the plan's buffers know).
            let r = ctx.result(op, 0);
            bufs.of.insert(r, bufs.list.len() as u32);
            bufs.list.push(Buffer {
                offset: 0,
                bytes: 4,
                elem: "i32".into(),
                shape: Vec::new(),
                source: Source::PartitionId,
            });
        } else if func::Return::is(ctx, op) || Return::is(ctx, op) {
            let mut yields = Vec::new();
            for v in ctx.operands(op) {
                yields.push(bufs.get(*v).map_err(|e| fail(op, e))?);
            }
            return Ok(Ok(yields));
        } else if let Some(w) = While::of(ctx, op) {
            // The carried values are the loop's results' buffers: the
            // initial values copied in, the test and the body reading them
            // as their arguments, the body's results copied back.
            let mut carried = Vec::new();
            for (init, r) in ctx.operands(op).iter().zip(ctx.results(op)) {
                let from = bufs.get(*init).map_err(|e| fail(op, e))?;
                let to = bufs.add(r, Source::Step).map_err(|e| fail(op, e))?;
                steps.push(Step::Copy { from, to });
                carried.push(to);
            }
            let mut regions = Vec::new();
            for region in [w.cond(ctx), w.body(ctx)] {
                let b = ctx
                    .entry_block(region)
                    .ok_or_else(|| fail(op, "a region without a block".into()))?;
                for (a, c) in ctx.block_args(b).iter().zip(&carried) {
                    bufs.of.insert(*a, *c);
                }
                let mut inner = Vec::new();
                match plan_block(ctx, b, bufs, &mut inner, kernels, devices, name)? {
                    Ok(yields) => regions.push((inner, yields)),
                    Err(host) => return Ok(Err(host)),
                }
            }
            let (body, yields) = regions.pop().expect("two regions");
            let (cond, test) = regions.pop().expect("two regions");
            let [pred] = test[..] else {
                return Err(fail(op, "a loop test of more than one value".into()));
            };
            let mut body = body;
            carry(bufs, &mut body, &yields, &carried);
            steps.push(Step::While { cond, pred, body });
        } else if If::is(ctx, op) || Case::is(ctx, op) {
            // Each branch copies its results into the choice's result
            // buffers; an `if` is a choice by its predicate (0 or 1) of its
            // false branch, then its true branch.
            let index = bufs.get(ctx.operands(op)[0]).map_err(|e| fail(op, e))?;
            let mut results = Vec::new();
            for r in ctx.results(op) {
                results.push(bufs.add(r, Source::Step).map_err(|e| fail(op, e))?);
            }
            let regions: Vec<aic::ir::Region> = match If::of(ctx, op) {
                Some(i) => vec![i.false_branch(ctx), i.true_branch(ctx)],
                None => ctx.regions(op).to_vec(),
            };
            let mut branches = Vec::new();
            for region in regions {
                let b = ctx
                    .entry_block(region)
                    .ok_or_else(|| fail(op, "a branch without a block".into()))?;
                let mut inner = Vec::new();
                let yields = match plan_block(ctx, b, bufs, &mut inner, kernels, devices, name)? {
                    Ok(yields) => yields,
                    Err(host) => return Ok(Err(host)),
                };
                for (from, to) in yields.into_iter().zip(&results) {
                    inner.push(Step::Copy { from, to: *to });
                }
                branches.push(inner);
            }
            steps.push(Step::Case { index, branches });
        } else if let Some((c, groups)) = collective(ctx, op, devices) {
            let input = bufs.get(ctx.operands(op)[0]).map_err(|e| fail(op, e))?;
            let r = ctx.result(op, 0);
            let output = bufs.add(r, Source::Step).map_err(|e| fail(op, e))?;
            steps.push(Step::Collective {
                op: c,
                input,
                output,
                groups,
            });
        } else {
            return Ok(Err(op));
        }
    }
    Err(format!("@{name}: a block without a terminator"))
}

/// Appends to a loop's `body` the copies of its results (`yields`) into
/// the `carried` buffers, as one parallel assignment: a result that is
/// (a view of) its own carried buffer needs none; one that is (a view of)
/// another carried buffer goes through a temporary first, so that no copy
/// overwrites what a later one reads.
fn carry(bufs: &mut Buffers<'_>, body: &mut Vec<Step>, yields: &[u32], carried: &[u32]) {
    let mut sources = Vec::new();
    for (y, c) in yields.iter().zip(carried) {
        let root = bufs.root_of(*y);
        if root == *c {
            sources.push(None);
        } else if carried.contains(&root) {
            let tmp = bufs.add_like(*c);
            body.push(Step::Copy { from: *y, to: tmp });
            sources.push(Some(tmp));
        } else {
            sources.push(Some(*y));
        }
    }
    for (from, to) in sources.into_iter().zip(carried) {
        if let Some(from) = from {
            body.push(Step::Copy { from, to: *to });
        }
    }
}

/// The dynamic dimensions `dynamic-dims` recorded on function `f`, if any.
fn dynamic_of(ctx: &Context, f: Op) -> Result<Option<Box<Dynamic>>, String> {
    let Some(sig) = aic_passes::dynamic_dims::signature(ctx, f)? else {
        return Ok(None);
    };
    let conv = |all: Vec<Vec<aic_passes::dynamic_dims::Dim>>| -> Vec<Vec<DimExpr>> {
        all.into_iter()
            .map(|ds| {
                ds.into_iter()
                    .map(|d| DimExpr {
                        coef: d.coef,
                        syms: d.syms,
                    })
                    .collect()
            })
            .collect()
    };
    Ok(Some(Box::new(Dynamic {
        bounds: sig.bounds.into_iter().collect(),
        args: conv(sig.args),
        results: conv(sig.results),
        sizes: sig.sizes,
        in_place: sig.in_place,
        buckets: sig
            .buckets
            .into_iter()
            .map(|(f, b)| (f, b.into_iter().collect()))
            .collect(),
    })))
}

/// A StableHLO collective of one operand among the partitions of a
/// partitioned program (`channel_handle` set; `use_global_device_ids` where
/// the op has it, so its groups name devices) as a plan step, with its
/// groups (all devices when `replica_groups` is empty); `None` for any
/// other op or form.
fn collective(ctx: &Context, op: Op, devices: u32) -> Option<(Collective, Vec<Vec<u32>>)> {
    use stablehlo::collective::{AllGather, AllReduce, AllToAll, CollectivePermute, ReduceScatter};
    if ctx.operands(op).len() != 1 || ctx.num_results(op) != 1 {
        return None;
    }
    let attr = |n: &str| aic::constraints::op_attr(ctx, op, n);
    attr("channel_handle")?;
    let global = attr("use_global_device_ids").is_some();
    let int = |n: &str| match attr(n).map(|a| ctx.attr_kind(a)) {
        Some(aic::attributes::AttrKind::Integer { value, .. }) => u32::try_from(*value).ok(),
        _ => None,
    };
    // A dense integer attribute's shape and elements.
    let ints = |n: &str| -> Option<(Vec<i64>, Vec<i64>)> {
        let a = attr(n)?;
        let aic::attributes::AttrKind::DenseElements { ty, .. } = ctx.attr_kind(a) else {
            return None;
        };
        let t = tensor_of_attr(ctx.uniquer(), a, *ty)?;
        Some((t.shape.clone(), t.to_i64s()))
    };
    let reduction = || {
        let block = ctx.entry_block(*ctx.regions(op).first()?)?;
        let ops: Vec<Op> = ctx.block_ops(block).collect();
        let [inner, _] = ops[..] else { return None };
        if stablehlo::Add::is(ctx, inner) {
            Some(Reduction::Sum)
        } else if stablehlo::Maximum::is(ctx, inner) {
            Some(Reduction::Max)
        } else if stablehlo::Minimum::is(ctx, inner) {
            Some(Reduction::Min)
        } else {
            None
        }
    };
    let c = if AllReduce::is(ctx, op) && global {
        Collective::AllReduce {
            reduction: reduction()?,
        }
    } else if AllGather::is(ctx, op) && global {
        Collective::AllGather {
            dim: int("all_gather_dim")?,
        }
    } else if ReduceScatter::is(ctx, op) && global {
        Collective::ReduceScatter {
            dim: int("scatter_dimension")?,
            reduction: reduction()?,
        }
    } else if AllToAll::is(ctx, op) {
        Collective::AllToAll {
            split_dim: int("split_dimension")?,
            concat_dim: int("concat_dimension")?,
        }
    } else if CollectivePermute::is(ctx, op) {
        let (_, flat) = ints("source_target_pairs")?;
        let pairs = flat
            .chunks_exact(2)
            .map(|p| Some([u32::try_from(p[0]).ok()?, u32::try_from(p[1]).ok()?]))
            .collect::<Option<Vec<_>>>()?;
        let all: Vec<u32> = (0..devices).collect();
        return Some((Collective::CollectivePermute { pairs }, vec![all]));
    } else {
        return None;
    };
    let (shape, flat) = ints("replica_groups")?;
    let groups: Vec<Vec<u32>> = if flat.is_empty() {
        vec![(0..devices).collect()]
    } else {
        let width = usize::try_from(*shape.get(1)?).ok()?;
        flat.chunks(width)
            .map(|g| g.iter().map(|d| u32::try_from(*d).ok()).collect())
            .collect::<Option<_>>()?
    };
    Some((c, groups))
}

/// Function `f` (named `func`) without a plan: `first` and every op of its
/// body or of its loops' and choices' regions the plan cannot hold (not a
/// launch, a view, a constant of known bytes, a collective, control flow nor
/// a return) are what the interpreter runs.
fn interpreted(ctx: &Context, f: Op, func: String, first: Op, devices: u32) -> FuncPlan {
    use stablehlo::structured::{Case, If, Return, While};
    fn walk(ctx: &Context, holder: Op, first: Op, devices: u32, ops: &mut Vec<HostOp>) {
        for &r in ctx.regions(holder) {
            for b in ctx.region_blocks(r) {
                for op in ctx.block_ops(b) {
                    let flow = While::is(ctx, op) || If::is(ctx, op) || Case::is(ctx, op);
                    let planned = gpu::Launch::is(ctx, op)
                        || stablehlo::structured::PartitionId::is(ctx, op)
                        || is_view(ctx, op)
                        || is_constant(ctx, op)
                        || func::Return::is(ctx, op)
                        || Return::is(ctx, op)
                        || flow
                        || collective(ctx, op, devices).is_some();
                    if op == first || !planned {
                        ops.push(HostOp {
                            name: ctx.op_name(op).to_string(),
                            loc: location(ctx, op),
                        });
                    }
                    if flow {
                        walk(ctx, op, first, devices, ops);
                    }
                }
            }
        }
    }
    let mut ops = Vec::new();
    walk(ctx, f, first, devices, &mut ops);
    FuncPlan::Interpreted(Interpreted { func, ops })
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::syntax::{parse_module, with_parser_stack};
    use aic::{SourceMap, verifier::verify};
    use std::sync::Arc;

    /// `text` through the host target's pipeline, then planned.
    fn compile(text: &str, kept: &[usize]) -> Vec<FuncPlan> {
        let text = text.to_string();
        let kept = kept.to_vec();
        with_parser_stack(move || {
            let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
            let mut sm = SourceMap::new();
            let id = sm.add("t.mlir", text);
            let m = parse_module(&mut ctx, &sm, id).unwrap();
            verify(&ctx, m).unwrap();
            let p = crate::compile::default_pipeline("host", None, None).unwrap();
            crate::compile::run_pipeline(&mut ctx, m, &p).unwrap();
            let infos = crate::compile::kernel_infos(&ctx, m).unwrap();
            plans(&ctx, m, &infos, &kept).unwrap()
        })
    }

    #[test]
    fn kernels_and_views_become_a_plan() {
        let plans = compile(
            r#"
func.func @main(%x: tensor<32xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r = graph.reshape %x : (tensor<32xf32>) -> tensor<4x8xf32>
  %m = graph.matmul %r, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = graph.softmax %m, axis = 1 : tensor<4x8xf32>
  return %s, %r : tensor<4x8xf32>, tensor<4x8xf32>
}
"#,
            &[1],
        );
        let [FuncPlan::Planned(p)] = plans.as_slice() else {
            panic!("{plans:#?}")
        };
        assert_eq!(p.func, "main");
        assert_eq!(p.inputs.len(), 2);
        assert_eq!(p.buffers[1].source, Source::Input { arg: 1, kept: true });
        let aliases: Vec<_> = p
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Alias { view, of } => Some((*view, *of)),
                _ => None,
            })
            .collect();
        assert_eq!(aliases.len(), 1, "{p:#?}");
        let (view, of) = aliases[0];
        assert_eq!(
            p.buffers[view as usize].offset,
            p.buffers[of as usize].offset
        );
        assert_eq!(p.buffers[view as usize].shape, vec![4, 8]);
        assert_eq!(p.outputs.len(), 2);
        // The returned view is read from its source's bytes: no copy.
        assert_eq!(p.outputs[1], view);
    }

    #[test]
    fn a_partition_id_is_a_per_device_constant_of_the_plan() {
        // A replicated argument returned sharded: each device slices its
        // part at an offset read by its partition id.
        let plans = compile(
            r#"
sdy.mesh @m = <["x"=2]>
func.func @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) {
  %e = stablehlo.exponential %a : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}
"#,
            &[],
        );
        let [FuncPlan::Planned(p)] = plans.as_slice() else {
            panic!("{plans:#?}")
        };
        assert_eq!(p.devices, 2);
        let ids: Vec<&Buffer> = p
            .buffers
            .iter()
            .filter(|b| b.source == Source::PartitionId)
            .collect();
        assert_eq!(ids.len(), 1, "{p:#?}");
        assert_eq!((ids[0].bytes, ids[0].elem.as_str()), (4, "i32"));
        // Each device's arena starts with its own id there.
        for d in 0..2u32 {
            let c = p.arena_constants(d).unwrap();
            assert!(
                c.contains(&(ids[0].offset, d.to_le_bytes().to_vec())),
                "{c:?}"
            );
        }
    }

    #[test]
    fn tensor_ops_left_on_the_host_are_named() {
        // A scalar op no graph op expresses is the host program's: the
        // function gets no plan, and the op is named.
        let plans = compile(
            r#"
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %e = stablehlo.exponential %x : tensor<4xf32>
  %c = stablehlo.custom_call @foo(%n) : (tensor<i32>) -> tensor<i32>
  return %e, %c : tensor<4xf32>, tensor<i32>
}
"#,
            &[],
        );
        let [FuncPlan::Interpreted(i)] = plans.as_slice() else {
            panic!("{plans:#?}")
        };
        assert_eq!(i.ops.len(), 1, "{i:#?}");
        assert_eq!(i.ops[0].name, "stablehlo.custom_call");
        assert!(i.ops[0].loc.starts_with("t.mlir:4:"), "{:?}", i.ops[0]);
    }

    /// Every step of `p`, nested ones included.
    fn all_steps(p: &Plan) -> Vec<&Step> {
        aic_runtime::plan::preorder(&p.steps).unwrap()
    }

    #[test]
    fn loops_become_plan_steps_with_kernels_for_their_scalars() {
        let plans = compile(
            r#"
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c, %v = %x) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %w = stablehlo.exponential %v : tensor<4xf32>
    stablehlo.return %j, %w : tensor<i32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
"#,
            &[],
        );
        let [FuncPlan::Planned(p)] = plans.as_slice() else {
            panic!("{plans:#?}")
        };
        // The initial values copied into the carried buffers, then the loop.
        let [
            Step::Copy { from: i0, to: i },
            Step::Copy { from: x, to: v },
            Step::While { cond, pred, body },
        ] = p.steps.as_slice()
        else {
            panic!("{p:#?}")
        };
        assert_eq!(*x, p.inputs[0]);
        assert!(matches!(
            p.buffers[*i0 as usize].source,
            Source::Constant { .. }
        ));
        // The compare is a kernel writing the test; the counter's add and
        // the exponential are kernels, their results copied back.
        let [Step::Launch { args, .. }] = cond.as_slice() else {
            panic!("{cond:#?}")
        };
        assert_eq!(args.last(), Some(pred));
        assert_eq!(p.buffers[*pred as usize].elem, "i1");
        let launches = body
            .iter()
            .filter(|s| matches!(s, Step::Launch { .. }))
            .count();
        assert_eq!(launches, 2, "{body:#?}");
        let copied: Vec<u32> = body
            .iter()
            .filter_map(|s| match s {
                Step::Copy { to, .. } => Some(*to),
                _ => None,
            })
            .collect();
        assert_eq!(copied, vec![*i, *v]);
        assert_eq!(p.outputs, vec![*v]);
    }

    #[test]
    fn swapped_carried_values_go_through_a_temporary() {
        // (a, b) = (b, a): copying b into a first would lose a.
        let plans = compile(
            r#"
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c, %x = %a, %y = %b) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %y, %x : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>
}
"#,
            &[],
        );
        let [FuncPlan::Planned(p)] = plans.as_slice() else {
            panic!("{plans:#?}")
        };
        let Some(Step::While { body, .. }) = p.steps.last() else {
            panic!("{p:#?}")
        };
        let copies: Vec<(u32, u32)> = body
            .iter()
            .filter_map(|s| match s {
                Step::Copy { from, to } => Some((*from, *to)),
                _ => None,
            })
            .collect();
        let [x, y] = p.outputs[..] else { panic!() };
        // Both swapped values saved first, then the three carried buffers
        // written.
        assert_eq!(copies.len(), 5, "{copies:?}");
        let (t1, t2) = (copies[0].1, copies[1].1);
        assert_eq!(copies[0].0, y);
        assert_eq!(copies[1].0, x);
        assert_eq!(&copies[3..], &[(t1, x), (t2, y)]);
        assert!(all_steps(p).len() > copies.len());
    }

    #[test]
    fn the_control_flow_fixture_is_planned() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/jax/control_flow.mlir"),
        )
        .unwrap();
        let plans = compile(&text, &[]);
        let [FuncPlan::Planned(p)] = plans.as_slice() else {
            panic!("{plans:#?}")
        };
        let steps = all_steps(p);
        let count = |f: fn(&Step) -> bool| steps.iter().filter(|s| f(s)).count();
        assert_eq!(count(|s| matches!(s, Step::While { .. })), 1);
        assert_eq!(count(|s| matches!(s, Step::Case { .. })), 1);
        // The loop's compare and scalar adds, the case index's compare and
        // cast: kernels like the rest (7 since extraction's swaps fuse one
        // scalar kernel more).
        assert_eq!(count(|s| matches!(s, Step::Launch { .. })), 7, "{p:#?}");
        let r = remark(&plans[0]);
        assert!(
            r.contains("7 launches") && r.contains("1 loops, 1 choices"),
            "{r}"
        );
    }
}
