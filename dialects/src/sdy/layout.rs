//! What a sharding means for a tensor's elements: each dimension split into
//! equal, contiguous shards along its axes (major axis first), the device at
//! mesh position `p` holding shard `DimSharding::shard_of(mesh, p)` of each
//! dimension. [`local_shape`] is one device's shape, [`shard`] its slice and
//! [`unshard`] the whole tensor again from its devices' slices. Only the axes
//! a `keep` predicate selects count (a manual computation's manual axes; all
//! of them for a partitioned program).
//!
//! `sdy.manual_computation` runs here: at the top of a run, one process per
//! device of the mesh (the partitions of a [`Grid`]), each running the body on
//! its slices of the operands, the results put together from the devices'
//! slices; inside a run that already has a process per device (a nested
//! manual computation, or a partitioned program), each process slices its own
//! operands and the results are gathered from the processes that differ only
//! along the manual axes.

use super::{AxisRef, ManualComputation, Mesh, Sharding, fail, mesh_of};
use crate::kernels::{count, map_indices, strides};
use aic::interp::{Data, Grid, IResult, Interp, InterpError, Process, Tensor};
use aic::ir::{Context, Op};
use aic::types::{Type, TypeKind};
use std::collections::HashMap;
use std::sync::Arc;

/// The unit attribute of a module that `spmd-partition` made per-device:
/// its functions take and return each device's slices, their arguments' and
/// results' `sdy.sharding` saying which.
pub const PARTITIONED: &str = "aic.partitioned";

/// Which axes count.
pub type Keep<'a> = &'a dyn Fn(&AxisRef) -> bool;

/// The stack each device's process runs on (as `interpreter.run_parallel`).
const PROCESS_STACK: usize = 64 << 20;

/// How many shards each dimension is split into.
pub fn shard_counts(s: &Sharding, mesh: &Mesh, keep: Keep<'_>) -> Vec<i64> {
    s.dims
        .iter()
        .map(|d| {
            d.axes
                .iter()
                .filter(|a| keep(a))
                .map(|a| a.size(mesh).unwrap_or(1))
                .product()
        })
        .collect()
}

/// The shard of each dimension that the device at mesh position `pos` holds.
fn shard_coords(s: &Sharding, mesh: &Mesh, keep: Keep<'_>, pos: i64) -> Vec<i64> {
    s.dims
        .iter()
        .map(|d| {
            let mut k = 0;
            for a in d.axes.iter().filter(|a| keep(a)) {
                k = k * a.size(mesh).unwrap_or(1) + a.coord(mesh, pos).unwrap_or(0);
            }
            k
        })
        .collect()
}

/// One device's shape of a tensor of shape `global`: an error when a
/// dimension is dynamic or not divisible by its shards.
pub fn local_shape(
    global: &[i64],
    s: &Sharding,
    mesh: &Mesh,
    keep: Keep<'_>,
) -> Result<Vec<i64>, String> {
    if global.len() != s.dims.len() {
        return Err(format!(
            "the sharding has {} dimensions, the tensor rank {}",
            s.dims.len(),
            global.len()
        ));
    }
    global
        .iter()
        .zip(shard_counts(s, mesh, keep))
        .enumerate()
        .map(|(d, (n, k))| {
            if *n < 0 {
                Err(format!(
                    "dimension {d} is dynamic: a sharded tensor needs static sizes"
                ))
            } else if n % k != 0 {
                Err(format!(
                    "dimension {d} of size {n} is split into {k} shards, which does not divide it"
                ))
            } else {
                Ok(n / k)
            }
        })
        .collect()
}

/// [`local_shape`] as a type: the same tensor type with the local shape.
pub fn local_type(
    ctx: &Context,
    global: Type,
    s: &Sharding,
    mesh: &Mesh,
    keep: Keep<'_>,
) -> Result<Type, String> {
    let TypeKind::Tensor {
        shape,
        elem,
        encoding,
    } = ctx.type_kind(global).clone()
    else {
        return Err("a sharding needs a ranked tensor".into());
    };
    let local = local_shape(&shape, s, mesh, keep)?;
    Ok(ctx.uniquer().ty(TypeKind::Tensor {
        shape: local.into_iter().collect(),
        elem,
        encoding,
    }))
}

/// The slice of `t` the device at mesh position `pos` holds, of type `ty`.
pub fn shard(t: &Tensor, ty: Type, s: &Sharding, mesh: &Mesh, keep: Keep<'_>, pos: i64) -> Tensor {
    let local = local_shape(&t.shape, s, mesh, keep).unwrap_or_else(|_| t.shape.clone());
    let at = shard_coords(s, mesh, keep, pos);
    let st = strides(&t.shape);
    let idx = map_indices(&local, |i| {
        Some(
            i.iter()
                .zip(&local)
                .zip(&at)
                .zip(&st)
                .map(|(((x, n), k), s)| ((k * n + x) as usize) * s)
                .sum(),
        )
    });
    Tensor {
        ty,
        shape: local.clone(),
        data: t.data.take(idx, None),
    }
}

/// The whole tensor of type `ty` and shape `global` from the slices `parts`
/// of the devices at the mesh positions `pos` (each shard taken from the
/// first device holding it); `None` when a shard has no device.
pub fn unshard(
    parts: &[Tensor],
    pos: &[i64],
    ty: Type,
    global: &[i64],
    s: &Sharding,
    mesh: &Mesh,
    keep: Keep<'_>,
) -> Option<Tensor> {
    let local = local_shape(global, s, mesh, keep).ok()?;
    let per = count(&local);
    let mut owner: HashMap<Vec<i64>, usize> = HashMap::new();
    for (k, p) in pos.iter().enumerate() {
        owner.entry(shard_coords(s, mesh, keep, *p)).or_insert(k);
    }
    let ls = strides(&local);
    let mut missing = false;
    let idx: Vec<Option<usize>> = map_indices(global, |i| {
        let coords: Vec<i64> = i.iter().zip(&local).map(|(x, n)| x / n).collect();
        let Some(k) = owner.get(&coords) else {
            missing = true;
            return None;
        };
        let off: usize = i
            .iter()
            .zip(&local)
            .zip(&ls)
            .map(|((x, n), s)| ((x % n) as usize) * s)
            .sum();
        Some(k * per + off)
    })
    .collect();
    if missing {
        return None;
    }
    let refs: Vec<&Data> = parts.iter().map(|p| &p.data).collect();
    let all = crate::kernels::concat_data(&refs);
    Some(Tensor {
        ty,
        shape: global.to_vec(),
        data: all.take(idx.into_iter(), None),
    })
}

/// A manual computation's mesh, in and out shardings and manual axes.
type Manual = (Mesh, Vec<Sharding>, Vec<Sharding>, Vec<String>);

/// The mesh of a manual computation (its shardings all name one).
fn manual_mesh(ctx: &Context, op: Op) -> IResult<Manual> {
    let mc = ManualComputation(op);
    let (Some(ins), Some(outs), Some(manual)) = (
        mc.in_shardings(ctx),
        mc.out_shardings(ctx),
        mc.manual_axes(ctx),
    ) else {
        return Err(fail(op, "malformed manual computation"));
    };
    let first = ins
        .0
        .first()
        .or(outs.0.first())
        .ok_or_else(|| fail(op, "a manual computation without operands or results"))?;
    let mesh = mesh_of(ctx, op, &first.mesh).ok_or_else(|| fail(op, "unknown mesh"))?;
    Ok((mesh, ins.0, outs.0, manual.0))
}

/// `sdy.manual_computation`: see the module's documentation.
pub fn interpret_manual_computation(
    it: &mut Interp<'_>,
    op: Op,
    args: &[Tensor],
) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let (mesh, ins, outs, manual) = manual_mesh(ctx, op)?;
    let keep = |a: &AxisRef| manual.contains(&a.name);
    let region = ctx.regions(op)[0];
    let block = ctx
        .entry_block(region)
        .ok_or_else(|| fail(op, "a manual computation without a body"))?;
    let arg_types: Vec<Type> = ctx
        .block_args(block)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let devices = mesh.devices();
    let ids = mesh.ids();
    let local_args = |pos: i64| -> Vec<Tensor> {
        args.iter()
            .zip(&ins)
            .zip(&arg_types)
            .map(|((t, s), ty)| shard(t, *ty, s, &mesh, &keep, pos))
            .collect()
    };
    let result_types: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    let gather = |parts: Vec<Vec<Tensor>>, pos: &[i64]| -> IResult<Vec<Tensor>> {
        (0..outs.len())
            .map(|k| {
                let ty = result_types[k];
                let TypeKind::Tensor { shape, .. } = ctx.type_kind(ty) else {
                    return Err(fail(op, "a result that is not a ranked tensor"));
                };
                let slices: Vec<Tensor> = parts.iter().map(|p| p[k].clone()).collect();
                unshard(&slices, pos, ty, shape, &outs[k], &mesh, &keep)
                    .ok_or_else(|| fail(op, format!("result #{k} has shards no device holds")))
            })
            .collect()
    };
    if it.process.grid.is_none() && it.process.count() == 1 {
        // The top of a run: one process per device.
        let grid = Arc::new(Grid::default());
        let (budget, max_bytes) = (it.budget, it.max_bytes);
        let jobs: Vec<(i64, Vec<Tensor>)> = (0..devices).map(|p| (p, local_args(p))).collect();
        let outs: Vec<IResult<Vec<Tensor>>> = std::thread::scope(|s| {
            let handles: Vec<_> = jobs
                .into_iter()
                .map(|(p, inputs)| {
                    let grid = grid.clone();
                    let partition = ids[p as usize] as usize;
                    std::thread::Builder::new()
                        .stack_size(PROCESS_STACK)
                        .spawn_scoped(s, move || {
                            let mut sub = Interp::new(ctx);
                            sub.budget = budget;
                            sub.max_bytes = max_bytes;
                            sub.process = Process {
                                replica: 0,
                                partition,
                                replicas: 1,
                                partitions: devices as usize,
                                grid: Some(grid),
                            };
                            sub.run_region(region, inputs)
                        })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(h) => h.join().unwrap_or_else(|_| {
                        Err(InterpError::at(op, "a device's process panicked"))
                    }),
                    Err(e) => Err(InterpError::at(op, format!("cannot start a process: {e}"))),
                })
                .collect()
        });
        let parts: Vec<Vec<Tensor>> = outs.into_iter().collect::<IResult<_>>()?;
        let pos: Vec<i64> = (0..devices).collect();
        return gather(parts, &pos);
    }
    // Inside a run with a process per device.
    let p = &it.process;
    if p.replicas != 1 || p.partitions as i64 != devices {
        return Err(fail(
            op,
            format!(
                "a manual computation over {devices} devices in a run of {} replicas of {} partitions",
                p.replicas, p.partitions
            ),
        ));
    }
    let me = ids
        .iter()
        .position(|d| *d as usize == p.partition)
        .ok_or_else(|| fail(op, "this partition is not a device of the mesh"))? as i64;
    let mine = it.run_region(region, local_args(me))?;
    if mine.is_empty() {
        return Ok(mine);
    }
    // The processes that differ from this one only along the manual axes.
    let free: Vec<usize> = (0..mesh.axes.len())
        .filter(|k| !manual.contains(&mesh.axes[*k].0))
        .collect();
    let pos: Vec<i64> = (0..devices)
        .filter(|q| {
            free.iter()
                .all(|k| mesh.coord(*q, *k) == mesh.coord(me, *k))
        })
        .collect();
    let group: Vec<usize> = pos.iter().map(|q| ids[*q as usize] as usize).collect();
    let parts = crate::stablehlo::collective::exchange(it, op, &group, mine)?;
    gather(parts, &pos)
}

/// The number of devices a partitioned module runs on (`None`: the module
/// is not partitioned).
pub fn partitioned_devices(ctx: &Context, module: Op) -> Option<i64> {
    ctx.find_ident(PARTITIONED)
        .and_then(|n| ctx.attr_of(module, n))?;
    let n = ctx
        .find_ident("mhlo.num_partitions")
        .and_then(|n| ctx.attr_of(module, n))?;
    match ctx.attr_kind(n) {
        aic::attributes::AttrKind::Integer { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// The sharding of each argument (`res = false`) or result of `func`, from
/// its `sdy.sharding` attributes (`None`: replicated).
pub fn signature_shardings(ctx: &Context, func: Op, res: bool) -> Vec<Option<Sharding>> {
    let name = if res { "res_attrs" } else { "arg_attrs" };
    let key = ctx.find_ident("sdy.sharding");
    let Some(a) = aic::constraints::op_attr(ctx, func, name) else {
        return Vec::new();
    };
    let aic::attributes::AttrKind::Array(dicts) = ctx.attr_kind(a) else {
        return Vec::new();
    };
    dicts
        .iter()
        .map(|d| {
            let k = key?;
            ctx.dict_entries(*d)
                .iter()
                .find(|(n, _)| *n == k)
                .and_then(|(_, s)| Sharding::of(ctx, *s).cloned())
        })
        .collect()
}

/// A partitioned function's mesh positions: the device id of each (in
/// position order) and the number of devices.
fn devices_of(ctx: &Context, func: Op) -> IResult<(i64, Vec<i64>)> {
    let mut top = func;
    while let Some(p) = ctx.parent_op(top) {
        top = p;
    }
    let devices = partitioned_devices(ctx, top)
        .ok_or_else(|| fail(func, "not a partitioned module (run spmd-partition first)"))?;
    let ids = signature_shardings(ctx, func, false)
        .into_iter()
        .chain(signature_shardings(ctx, func, true))
        .flatten()
        .find_map(|s| mesh_of(ctx, func, &s.mesh))
        .map_or_else(|| (0..devices).collect(), |m| m.ids());
    if ids.len() as i64 != devices {
        return Err(fail(
            func,
            format!(
                "a mesh of {} devices in a module partitioned for {devices}",
                ids.len()
            ),
        ));
    }
    Ok((devices, ids))
}

/// The sharding and mesh of `s`, checked against the partition count.
fn sharding_mesh(
    ctx: &Context,
    func: Op,
    s: Option<Sharding>,
    devices: i64,
) -> IResult<Option<(Sharding, Mesh)>> {
    let Some(s) = s else { return Ok(None) };
    let m = mesh_of(ctx, func, &s.mesh).ok_or_else(|| fail(func, "unknown mesh"))?;
    if m.devices() != devices {
        return Err(fail(
            func,
            format!(
                "a mesh of {} devices in a module partitioned for {devices}",
                m.devices()
            ),
        ));
    }
    Ok(Some((s, m)))
}

/// The arguments of each mesh position (in position order) for the global
/// `inputs` of the partitioned function `func`, each split by its sharding,
/// and the device id of each position.
pub fn split_inputs(
    ctx: &Context,
    func: Op,
    inputs: &[Tensor],
) -> IResult<(Vec<Vec<Tensor>>, Vec<i64>)> {
    let (devices, ids) = devices_of(ctx, func)?;
    let args = ctx
        .regions(func)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default();
    if args.len() != inputs.len() {
        return Err(fail(
            func,
            format!("{} inputs for {} arguments", inputs.len(), args.len()),
        ));
    }
    let arg_sh = signature_shardings(ctx, func, false);
    let all = |_: &AxisRef| true;
    let mut per_device: Vec<Vec<Tensor>> = vec![Vec::new(); devices as usize];
    for (k, (t, a)) in inputs.iter().zip(&args).enumerate() {
        let ty = ctx.value_type(*a);
        match sharding_mesh(ctx, func, arg_sh.get(k).cloned().flatten(), devices)? {
            Some((s, m)) => {
                let want = local_shape(&t.shape, &s, &m, &all)
                    .map_err(|e| fail(func, format!("argument #{k}: {e}")))?;
                let have = match ctx.type_kind(ty) {
                    TypeKind::Tensor { shape, .. } => shape.to_vec(),
                    _ => Vec::new(),
                };
                if want != have {
                    return Err(fail(
                        func,
                        format!(
                            "argument #{k}: a global shape {:?} whose slices {want:?} are not the argument's {have:?}",
                            t.shape
                        ),
                    ));
                }
                for (p, dev) in per_device.iter_mut().enumerate() {
                    dev.push(shard(t, ty, &s, &m, &all, p as i64));
                }
            }
            None => {
                for dev in per_device.iter_mut() {
                    dev.push(t.clone());
                }
            }
        }
    }
    Ok((per_device, ids))
}

/// The global results of the partitioned function `func` from each mesh
/// position's results (in position order), joined by their shardings (a
/// result without one is replicated: position 0's).
pub fn join_results(ctx: &Context, func: Op, parts: Vec<Vec<Tensor>>) -> IResult<Vec<Tensor>> {
    let (devices, _) = devices_of(ctx, func)?;
    let res_sh = signature_shardings(ctx, func, true);
    let all = |_: &AxisRef| true;
    let pos: Vec<i64> = (0..devices).collect();
    let n = parts.first().map_or(0, Vec::len);
    (0..n)
        .map(|k| {
            let slices: Vec<Tensor> = parts.iter().map(|p| p[k].clone()).collect();
            match sharding_mesh(ctx, func, res_sh.get(k).cloned().flatten(), devices)? {
                Some((s, m)) => {
                    let local = &slices[0];
                    let global: Vec<i64> = local
                        .shape
                        .iter()
                        .zip(shard_counts(&s, &m, &all))
                        .map(|(n, c)| n * c)
                        .collect();
                    let ty = match ctx.type_kind(local.ty) {
                        TypeKind::Tensor { elem, encoding, .. } => {
                            ctx.uniquer().ty(TypeKind::Tensor {
                                shape: global.iter().copied().collect(),
                                elem: *elem,
                                encoding: *encoding,
                            })
                        }
                        _ => local.ty,
                    };
                    unshard(&slices, &pos, ty, &global, &s, &m, &all).ok_or_else(|| {
                        fail(func, format!("result #{k} has shards no device holds"))
                    })
                }
                None => Ok(slices[0].clone()),
            }
        })
        .collect()
}

/// Run the per-device function `func` of a partitioned module in the
/// interpreter: its global `inputs` split ([`split_inputs`]), one process
/// per mesh position (partition = that position's device id) meeting in one
/// [`Grid`], the results joined ([`join_results`]).
pub fn run_partitioned(it: &Interp<'_>, func: Op, inputs: Vec<Tensor>) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let (per_device, ids) = split_inputs(ctx, func, &inputs)?;
    let devices = ids.len();
    let grid = Arc::new(Grid::default());
    let (budget, max_bytes) = (it.budget, it.max_bytes);
    let outs: Vec<IResult<Vec<Tensor>>> = std::thread::scope(|s| {
        let handles: Vec<_> = per_device
            .into_iter()
            .enumerate()
            .map(|(p, inputs)| {
                let grid = grid.clone();
                let partition = ids[p] as usize;
                std::thread::Builder::new()
                    .stack_size(PROCESS_STACK)
                    .spawn_scoped(s, move || {
                        let mut sub = Interp::new(ctx);
                        sub.budget = budget;
                        sub.max_bytes = max_bytes;
                        sub.process = Process {
                            replica: 0,
                            partition,
                            replicas: 1,
                            partitions: devices,
                            grid: Some(grid),
                        };
                        sub.call(func, inputs)
                    })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Err(InterpError::at(func, "a device's process panicked"))),
                Err(e) => Err(InterpError::at(
                    func,
                    format!("cannot start a process: {e}"),
                )),
            })
            .collect()
    });
    let parts: Vec<Vec<Tensor>> = outs.into_iter().collect::<IResult<_>>()?;
    join_results(ctx, func, parts)
}

/// The global type of each argument of a partitioned function: its local
/// type with each dimension times its shards.
pub fn global_arg_types(ctx: &Context, func: Op) -> Vec<Type> {
    let Some(block) = ctx.regions(func).first().and_then(|r| ctx.entry_block(*r)) else {
        return Vec::new();
    };
    let shardings = signature_shardings(ctx, func, false);
    let all = |_: &AxisRef| true;
    ctx.block_args(block)
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let ty = ctx.value_type(*a);
            let Some(s) = shardings.get(k).cloned().flatten() else {
                return ty;
            };
            let (
                Some(m),
                TypeKind::Tensor {
                    shape,
                    elem,
                    encoding,
                },
            ) = (mesh_of(ctx, func, &s.mesh), ctx.type_kind(ty))
            else {
                return ty;
            };
            if shape.len() != s.dims.len() {
                return ty;
            }
            let counts = shard_counts(&s, &m, &all);
            ctx.uniquer().ty(TypeKind::Tensor {
                shape: shape.iter().zip(counts).map(|(n, c)| n * c).collect(),
                elem: *elem,
                encoding: *encoding,
            })
        })
        .collect()
}

/// The global type of each result of a partitioned function (as
/// [`global_arg_types`]).
pub fn global_result_types(ctx: &Context, func: Op) -> Vec<Type> {
    let Some((_, outs)) = crate::func::function_type(ctx, func) else {
        return Vec::new();
    };
    let shardings = signature_shardings(ctx, func, true);
    let all = |_: &AxisRef| true;
    outs.iter()
        .enumerate()
        .map(|(k, ty)| {
            let Some(s) = shardings.get(k).cloned().flatten() else {
                return *ty;
            };
            let (
                Some(m),
                TypeKind::Tensor {
                    shape,
                    elem,
                    encoding,
                },
            ) = (mesh_of(ctx, func, &s.mesh), ctx.type_kind(*ty))
            else {
                return *ty;
            };
            if shape.len() != s.dims.len() {
                return *ty;
            }
            let counts = shard_counts(&s, &m, &all);
            ctx.uniquer().ty(TypeKind::Tensor {
                shape: shape.iter().zip(counts).map(|(n, c)| n * c).collect(),
                elem: *elem,
                encoding: *encoding,
            })
        })
        .collect()
}
