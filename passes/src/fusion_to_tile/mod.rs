//! `fusion-to-tile`: fused groups become tile kernels. Each group a
//! generator handles is replaced by a `tile.launch` of a `tile.kernel`
//! built for it (IR built in Rust from the group's body and a tile
//! configuration, not text templates); a group no generator handles stays
//! as it is, with a remark saying why (`aic-opt --aic-remarks`).
//!
//! Generators so far:
//! - GEMM: a matmul, or a convolution as an implicit GEMM (the input read
//!   through the im2col descriptor, never materialised; one group, NHWC or
//!   NCHW), (either matmul operand possibly transposed, read through a
//!   transposing descriptor; leading batch dims of A folded into M) with any
//!   chain of elementwise epilogue ops (bias adds, adds and products with
//!   other tensors of the output's shape, activations) and trailing
//!   reshapes/transposes (the store's descriptor), as a grid of BM x BN
//!   blocks running a K loop that stages A and B tiles into shared memory
//!   and accumulates with a block GEMM, then applies the epilogue with
//!   `tile.map` and stores with masks at the ragged edges;
//! - rows: an elementwise prologue, a softmax, layernorm, rmsnorm or
//!   reduction over the last dimension, and an elementwise epilogue, as
//!   blocks of whole rows;
//! - elementwise: a DAG of elementwise ops whose inputs enter directly or
//!   through broadcasts, transposes, reshapes and slices (descriptors on
//!   the loads);
//! - general (last, [`general`]): any other group, as a grid over its
//!   output's elements evaluating the group's DAG at their indices (views as
//!   descriptors, reductions and products as loops); `general-only=true`
//!   lowers every group with it.
//!
//! A kernel-sized graph op on its own (a matmul, a softmax) is first put in
//! a group of one; any other graph op computing tensors (an iota, a
//! transpose, a cast), but constants and reshapes, too, for the general
//! generator.
//!
//! Tile sizes and pipelining depth come from per-target heuristics
//! ([`Tuning::heuristic`]), clamped to the problem, unless the JSON tuning
//! cache given with `tuning=` has an entry for the target, template and
//! shape (`h100/gemm/MxNxK`), which an autotuner can fill. A GEMM kernel
//! whose tiles want a block size of their own (8 warps for H100's largest
//! f16 tiles) records it as the kernel's `threads`, which tile-to-gpu uses
//! instead of its option.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Block, Builder, Context, InsertPoint, Op, Value};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::coord::{self, Conv, Desc};
use aic_dialects::fusion::{self, FusionKind};
use aic_dialects::tile::{self, Space};
use std::collections::{HashMap, HashSet};

mod attention;
mod build;
mod elementwise;
mod gemm;
mod general;
mod groupnorm;
mod rows;
mod split;
mod tuning;
mod views;

use attention::attention;
use build::*;
use elementwise::elementwise;
use gemm::{gemm, is_gemm_op};
use general::general;
use groupnorm::groupnorm;
use rows::{is_row_op, rows};
pub use tuning::{Cache, Entry, Signature, Template, Tuning, read_cache, write_cache};
use views::{Node, Operand, Views, operand, unit_reshape};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "fusion-to-tile",
    name: "FusionToTile",
    summary: "Lower fusion groups to tile kernels launched on their inputs",
    anchor: None,
    options: &[
        OptSpec {
            name: "target",
            kind: OptKind::Enum(&["h100", "mi300", "trn1", "cpu"]),
            default: "h100",
            range: None,
            help: "Target whose tile-size heuristics to use",
        },
        OptSpec {
            name: "tuning",
            kind: OptKind::Str,
            default: "",
            range: None,
            help: "A JSON tuning cache overriding the heuristics: {\"h100/gemm/MxNxK\": {\"bm\": 64, \"bn\": 64, \"bk\": 32, \"stages\": 3, \"threads\": 128}} (threads optional: the block size the kernel records)",
        },
        OptSpec {
            name: "arch",
            kind: OptKind::Str,
            default: "",
            range: None,
            help: "The architecture compiled for (sm_90a, gfx942, host, ...): part of the tuning cache's keys (empty: the target's name)",
        },
        OptSpec {
            name: "wgmma",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Choose f16 GEMM tiles for Hopper's warpgroup MMA (tile-to-gpu mma=wgmma, sm_90a): 128-row blocks as two warpgroups, a K step of 64, 4 stages",
        },
        OptSpec {
            name: "reduce-chunk",
            kind: OptKind::UInt,
            default: "1024",
            range: Some((1, i32::MAX as i64)),
            help: "The fewest elements of a row one block of a split reduction reduces (a reduction to too few blocks spreads its rows over blocks and finishes in a second kernel)",
        },
        OptSpec {
            name: "general-only",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Lower every group with the general code generator alone (loop nests over the output's elements), as tests of it do",
        },
        OptSpec {
            name: "scalars",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Lower groups of scalars and graph ops computing scalars (loop tests and counters, branch numbers) to one-element kernels of the general generator, as executable plans need, where without it they stay the host program's arithmetic",
        },
        OptSpec {
            name: "total",
            kind: OptKind::Bool,
            default: "false",
            range: None,
            help: "Every tensor op must become a kernel (the compile pipelines' setting): a group or op no generator lowers is an error naming it and why, where without it the group stays, with a remark",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(FusionToTile {
            target: o.str("target").to_string(),
            tuning: o.str("tuning").to_string(),
            arch: o.str("arch").to_string(),
            reduce_chunk: o.int("reduce-chunk").max(1),
            wgmma: o.bool("wgmma"),
            general_only: o.bool("general-only"),
            total: o.bool("total"),
            scalars: o.bool("scalars"),
        })
    },
};

struct FusionToTile {
    target: String,
    tuning: String,
    arch: String,
    reduce_chunk: i64,
    wgmma: bool,
    general_only: bool,
    total: bool,
    scalars: bool,
}

/// What generators are configured with: the target, the fewest row
/// elements a block of a split reduction reduces, and the tuner (the
/// tuning cache, the heuristics).
struct Config<'a> {
    target: &'a str,
    reduce_chunk: i64,
    /// How GEMM and attention generators pick their tiles.
    tuner: tuning::Tuner<'a>,
    /// Whether the general generator takes groups of scalars too (the
    /// pass's `scalars`).
    scalars: bool,
}

/// What a generator says of a group whose shape it does not recognise.
const NOT_MINE: &str = "no generator handles this group's ops";

/// A generator: lowers a group of a function to a kernel, or says why not.
type Generator = fn(&mut Context, Op, Op, &Config<'_>, usize) -> Result<(), Skip>;

/// The generators, tried in order.
const GENERATORS: &[Generator] = &[
    |c, g, f, k, i| attention(c, g, f, &k.tuner, i),
    |c, g, f, k, i| gemm(c, g, f, &k.tuner, i),
    |c, g, f, k, i| rows(c, g, f, (k.reduce_chunk, k.target), i),
    |c, g, f, _, i| groupnorm(c, g, f, i),
    |c, g, f, k, i| elementwise(c, g, f, k.target, i),
    |c, g, f, k, i| general(c, g, f, i, k.scalars),
];

/// Why a group is left alone.
type Skip = String;

/// Whether every value of `group` (its results, its body's arguments, the
/// group's inputs, and the values its body computes) has a static shape
/// whose element count fits an `i64`, so that the generators' products of
/// dims cannot overflow.
fn sized(ctx: &Context, group: Op) -> Result<(), Skip> {
    aic::shape::check_values(ctx, group, "fusion-to-tile").map_err(|d| d.message)
}

/// A group's body as a generator reads it.
struct Body {
    /// The body's arguments, the group's inputs in order.
    inputs: Vec<Value>,
    /// The views of inputs among its ops (free: read through descriptors).
    views: Views,
    /// Its other ops, in program order.
    ops: Vec<Op>,
    /// The values it yields, the group's results in order.
    yields: Vec<Value>,
}

/// The splat constant `v` (a group operand) is, possibly through
/// broadcasts and reshapes: its value attribute and element type.
fn splat_constant(ctx: &Context, mut v: Value) -> Option<(Attr, Type)> {
    use aic_dialects::graph;
    loop {
        let o = ctx.defining_op(v)?;
        if let Some(b) = graph::Broadcast::of(ctx, o) {
            v = b.x(ctx);
        } else if let Some(r) = graph::Reshape::of(ctx, o) {
            v = r.x(ctx);
        } else {
            let c = graph::Constant::of(ctx, o)?;
            let a = c.value(ctx)?;
            let one = match ctx.uniquer().attr_kind(a) {
                AttrKind::DenseElements {
                    data: aic::attributes::DenseData::Raw { splat, .. },
                    ..
                } => *splat || shape(ctx, v).iter().product::<i64>() == 1,
                _ => false,
            };
            let elem = build::storage_elem(ctx, v);
            let numeric = matches!(
                ctx.type_kind(elem),
                TypeKind::Float(_) | TypeKind::Integer { .. }
            );
            return (one && numeric).then_some((a, elem));
        }
    }
}

impl Body {
    /// The body of `group`; every elementwise op in it must have a lowering
    /// on its elements (tried here).
    fn of(ctx: &mut Context, group: Op) -> Result<Body, Skip> {
        let b = ctx
            .regions(group)
            .first()
            .and_then(|r| ctx.entry_block(*r))
            .expect("a group has a body");
        let inputs = ctx.block_args(b).to_vec();
        let (mut all, mut yields) = (Vec::new(), Vec::new());
        for o in ctx.block_ops(b) {
            if let Some(y) = fusion::Yield::of(ctx, o) {
                yields = y.results(ctx).to_vec();
            } else {
                all.push(o);
            }
        }
        for &o in &all {
            if build::is_elementwise(ctx, o) {
                build::check_lowering(ctx, o)?;
            }
        }
        let mut views = Views::of(ctx, &all, &inputs)?;
        for (i, x) in ctx.operands(group).to_vec().into_iter().enumerate() {
            if let Some((a, elem)) = splat_constant(ctx, x) {
                views.add_literal(inputs[i], a, elem);
            }
        }
        all.retain(|o| !views.is_view(ctx.result(*o, 0)));
        Ok(Body {
            inputs,
            views,
            ops: all,
            yields,
        })
    }

    /// What [`operand`] and [`read_chain`] look operands up in.
    fn known(&self) -> (&[Value], &Views) {
        (&self.inputs, &self.views)
    }
}

/// The kernel buffer standing for group input `v`: a kernel's buffers are
/// the group's `inputs` in order, then its results.
fn buffer(inputs: &[Value], bufs: &[Value], v: Value) -> Value {
    bufs[inputs.iter().position(|x| *x == v).expect("a group input")]
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.type_kind(ctx.value_type(v))
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default()
}

/// The body block of a kernel for `group`: one memref buffer per group
/// input, then one per result, of types `out_tys`. Returns the block and
/// its buffers.
fn kernel_block(ctx: &mut Context, group: Op, out_tys: &[Type], loc: Attr) -> (Block, Vec<Value>) {
    let mut types: Vec<(Type, Option<Attr>)> = ctx
        .operands(group)
        .iter()
        .map(|v| (memref_of(ctx, ctx.value_type(*v)), Some(loc)))
        .collect();
    types.extend(out_tys.iter().map(|t| (memref_of(ctx, *t), Some(loc))));
    let kb = ctx.create_block(&types);
    let bufs = ctx.block_args(kb).to_vec();
    (kb, bufs)
}

/// The float element type of `ty`, or why a generator does not take it.
fn float_elem(ctx: &Context, ty: Type) -> Result<Type, Skip> {
    let elem = ctx.type_kind(ty).element_type().ok_or("no element type")?;
    if matches!(ctx.type_kind(elem), TypeKind::Float(_)) {
        Ok(elem)
    } else {
        Err("integer element types are not generated yet".into())
    }
}

/// Rows per block of the row and elementwise generators: as many as make
/// about [`BLOCK_ELEMENTS`] elements (one for wider rows), at most 16, a
/// power of two, and no more than there are rows. Small blocks keep a
/// thread's share of a row in registers and give the GPU many blocks;
/// two rows of 1024 a block measured best on the H100 (softmax over
/// 65536 x 1024: 0.0949 ms, against 0.0987 at one row and 0.0948 at four).
fn rows_per_block(rows: i64, row: i64) -> i64 {
    let fit = (BLOCK_ELEMENTS / row.max(1)).clamp(1, 16) as u64;
    let fit = 1i64 << (63 - fit.leading_zeros());
    fit.min((rows.max(1) as u64).next_power_of_two() as i64)
}

/// Rows per block of the row generator on a NeuronCore (`trn1`): one per
/// partition, 128, or as many as there are (a power of two), whatever the
/// row's length (it is all in SBUF either way).
fn partition_rows(rows: i64) -> i64 {
    128.min((rows.max(1) as u64).next_power_of_two() as i64)
}

/// The elements a block of the row and elementwise generators aims at.
const BLOCK_ELEMENTS: i64 = 2048;

/// The columns of an elementwise block on a NeuronCore (of 128 rows): 2 KiB
/// of f32 a partition per tile, so that a group's live tiles fit SBUF.
const PARTITION_COLUMNS: i64 = 512;

/// The memref type of a tensor type.
fn memref_of(ctx: &Context, t: Type) -> Type {
    let k = ctx.type_kind(t);
    let (shape, elem) = (
        k.shape().map(<[i64]>::to_vec).unwrap_or_default(),
        k.element_type().unwrap_or(t),
    );
    ctx.uniquer().ty(TypeKind::MemRef {
        shape: shape.into(),
        elem,
        layout: None,
        memory_space: None,
    })
}

/// Put a single op into a `fusion.group` of its own; gives the group.
fn wrap(ctx: &mut Context, op: Op) -> Op {
    let mut ins: Vec<Value> = Vec::new();
    for v in ctx.operands(op).to_vec() {
        if !ins.contains(&v) {
            ins.push(v);
        }
    }
    let outs: Vec<Value> = ctx.results(op).collect();
    let g = group_of(ctx, &[op], &ins, &ins, &outs, op);
    for (i, old) in outs.iter().enumerate() {
        let new = ctx.result(g, i);
        ctx.replace_all_uses(*old, new);
    }
    ctx.erase_op(op);
    g
}

/// A `fusion.group` inserted before `at` holding copies of `ops` (in
/// order): the values `ins` they read from elsewhere are its block's
/// arguments, its operands `operands` (one each), and it yields the copies
/// of `outs`; its kind is that of its ops (vertical with a GEMM, reduction
/// with a row op). Gives the group; the ops themselves stay.
fn group_of(
    ctx: &mut Context,
    ops: &[Op],
    ins: &[Value],
    operands: &[Value],
    outs: &[Value],
    at: Op,
) -> Op {
    let loc = ctx.op(ops[0]).loc;
    let types: Vec<(Type, Option<Attr>)> = ins
        .iter()
        .map(|v| (ctx.value_type(*v), Some(loc)))
        .collect();
    let b = ctx.create_block(&types);
    let args = ctx.block_args(b).to_vec();
    let mut map = aic::ir::ValueMap::default();
    for (v, a) in ins.iter().zip(&args) {
        map.values.insert(*v, *a);
    }
    for &o in ops {
        let c = ctx.clone_op(o, &mut map);
        ctx.append_op(b, c);
    }
    let res: Vec<Value> = outs.iter().map(|v| map.value(*v)).collect();
    let mut end = Builder {
        ctx: &mut *ctx,
        ip: InsertPoint::End(b),
        loc,
    };
    fusion::Yield::build(&mut end, &res);
    let kind = if ops.iter().any(|o| is_gemm_op(ctx, *o)) {
        FusionKind::Vertical
    } else if ops.iter().any(|o| is_row_op(ctx, *o)) {
        FusionKind::Reduction
    } else {
        FusionKind::Elementwise
    }
    .attr(ctx.uniquer());
    let tys: Vec<Type> = outs.iter().map(|r| ctx.value_type(*r)).collect();
    let g = fusion::Group::build(&mut Builder::before(ctx, at), operands, kind, None, &tys);
    let r = g.body(ctx);
    ctx.append_block(r, b);
    g.op()
}

/// Wrap kernel body `kb` into `tile.kernel @name grid` before `func` and
/// replace `group` by a launch of it; gives the kernel.
#[allow(clippy::too_many_arguments)]
fn finish(
    ctx: &mut Context,
    group: Op,
    func: Op,
    kb: Block,
    name: &str,
    grid: &[i64],
    out_tys: &[Type],
    loc: Attr,
) -> Op {
    finish_with(ctx, (group, func, kb), (name, grid), &[], out_tys, loc)
}

/// [`finish`] for the last of several kernels of a group: its launch takes
/// `extra` (what the kernels before it made, buffers after the group's
/// inputs in its body) after the group's operands.
fn finish_with(
    ctx: &mut Context,
    (group, func, kb): (Op, Op, Block),
    (name, grid): (&str, &[i64]),
    extra: &[Value],
    out_tys: &[Type],
    loc: Attr,
) -> Op {
    let (kb, mut args) = prune(ctx, group, kb);
    args.extend_from_slice(extra);
    let kernel = add_kernel(ctx, func, kb, name, grid, loc);
    let launch = add_launch(ctx, group, &args, name, out_tys, loc);
    for i in 0..out_tys.len() {
        let (old, new) = (ctx.result(group, i), ctx.result(launch, i));
        ctx.replace_all_uses(old, new);
    }
    ctx.erase_op(group);
    kernel
}

/// Whether a kernel may compute input `v` rather than read it: a splat
/// constant (a literal) or an iota (its indices).
fn computed_input(ctx: &Context, v: Value) -> bool {
    splat_constant(ctx, v).is_some()
        || ctx
            .defining_op(v)
            .is_some_and(|o| aic_dialects::graph::Iota::is(ctx, o))
}

/// Kernel body `kb` of `group` without the buffers of inputs it computes
/// and never reads (splat constants the kernel writes as numbers, a causal
/// mask's iotas attention computes from its indices), and the launch's
/// arguments: the group's other operands.
fn prune(ctx: &mut Context, group: Op, kb: Block) -> (Block, Vec<Value>) {
    let ins = ctx.operands(group).to_vec();
    let old = ctx.block_args(kb).to_vec();
    let drop: Vec<bool> = (0..old.len())
        .map(|i| i < ins.len() && computed_input(ctx, ins[i]) && ctx.uses(old[i]).is_empty())
        .collect();
    if !drop.contains(&true) {
        return (kb, ins);
    }
    let loc = Some(ctx.op(group).loc);
    let kept: Vec<(Type, Option<Attr>)> = old
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|(v, _)| (ctx.value_type(*v), loc))
        .collect();
    let nb = ctx.create_block(&kept);
    let new = ctx.block_args(nb).to_vec();
    let mut next = new.iter();
    let map: Vec<Value> = old
        .iter()
        .zip(&drop)
        .map(|(v, d)| {
            if *d {
                *v
            } else {
                *next.next().expect("a kept argument")
            }
        })
        .collect();
    ctx.inline_block(kb, InsertPoint::End(nb), &map);
    let args = ins
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|(v, _)| *v)
        .collect();
    (nb, args)
}

/// `tile.kernel @name grid` holding kernel body `kb`, before `func`.
fn add_kernel(ctx: &mut Context, func: Op, kb: Block, name: &str, grid: &[i64], loc: Attr) -> Op {
    let u = ctx.uniquer().clone();
    let mut at = Builder {
        ctx: &mut *ctx,
        ip: InsertPoint::Before(func),
        loc,
    };
    let k = tile::Kernel::build(
        &mut at,
        u.string_attr(name),
        u.i64_array(grid),
        None,
        None,
        None,
        None,
        None,
    );
    let r = k.body(ctx);
    ctx.append_block(r, kb);
    k.op()
}

/// A `tile.launch @name(args)` giving `out_tys`, before `at`.
fn add_launch(
    ctx: &mut Context,
    at: Op,
    args: &[Value],
    name: &str,
    out_tys: &[Type],
    loc: Attr,
) -> Op {
    let u = ctx.uniquer().clone();
    let sym = u.flat_symbol_ref(name);
    let mut b = Builder {
        ctx: &mut *ctx,
        ip: InsertPoint::Before(at),
        loc,
    };
    tile::Launch::build(&mut b, args, sym, out_tys).op()
}

/// The groups under `root` with the function (a child of `root`) holding each.
fn groups_of(ctx: &Context, root: Op) -> Vec<(Op, Op)> {
    let mut groups = Vec::new();
    ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
        if fusion::Group::is(ctx, o) {
            let mut f = o;
            while let Some(p) = ctx.parent_op(f) {
                if p == root {
                    break;
                }
                f = p;
            }
            groups.push((o, f));
        }
    });
    groups
}

/// Whether the ops of `group` that loop over elements (contractions,
/// reductions, irregular ops) read, through the group's other ops, what
/// another of them computes, or spread a looped value over more elements,
/// or hold a contraction among other ops: loops the general generator would
/// nest (split, each op gets the kernel its own generator makes).
fn nested_loops(ctx: &Context, group: Op) -> bool {
    let Some(b) = ctx.regions(group).first().and_then(|r| ctx.entry_block(*r)) else {
        return false;
    };
    let ops: Vec<Op> = ctx
        .block_ops(b)
        .filter(|o| !fusion::Yield::is(ctx, *o))
        .collect();
    nested_in(ctx, &ops)
}

/// [`nested_loops`] of the ops `ops` (in program order; what they read
/// from elsewhere is their input).
fn nested_in(ctx: &Context, ops: &[Op]) -> bool {
    use aic_dialects::graph::{self, Class};
    let looping = |o: Op| {
        graph::semantics(ctx.op_name(o)).is_some_and(|s| {
            matches!(
                s.class,
                Class::Contraction | Class::Reduction | Class::Irregular
            )
        })
    };
    // The values computed, within the group, from a looping op.
    // The values computed from a looping op, with the longest loop behind
    // each (the elements a reduction folds into one).
    let mut looped: HashMap<Value, i64> = HashMap::new();
    let elements = |v: Value| shape(ctx, v).iter().product::<i64>().max(1);
    // A contraction among other ops: the general generator's loops would run
    // it on scalars (a GEMM with a RoPE epilogue); alone, it is a GEMM kernel.
    let contraction =
        |o: Op| graph::semantics(ctx.op_name(o)).is_some_and(|s| s.class == Class::Contraction);
    let computing = ops.len();
    // Nor group norms: their generator takes them with an elementwise
    // prologue and epilogue, the general generator not at all.
    if computing > 1
        && ops
            .iter()
            .any(|o| contraction(*o) || graph::Groupnorm::is(ctx, *o))
    {
        return true;
    }
    for &o in ops {
        let behind = ctx
            .operands(o)
            .iter()
            .filter_map(|v| looped.get(v).copied())
            .max();
        if looping(o) && behind.is_some() {
            return true;
        }
        // A long loop's result spread over more elements (a group norm's
        // statistics over 40,960 elements, broadcast back over them): each
        // element would redo the loop. Short ones (a 10-wide row) are
        // cheaper recomputed than written.
        if behind.is_some_and(|n| n > SPREAD_LOOP)
            && graph::Broadcast::is(ctx, o)
            && ctx.operands(o).first().map(|v| elements(*v)) < ctx.results(o).next().map(elements)
        {
            return true;
        }
        let own = if looping(o) {
            let input = ctx.operands(o).first().map_or(1, |v| elements(*v));
            let out = ctx.results(o).next().map_or(1, elements);
            Some((input / out).max(1))
        } else {
            None
        };
        if let Some(n) = own.max(behind) {
            for r in ctx.results(o) {
                looped.insert(r, n);
            }
        }
    }
    false
}

/// The longest loop whose result the general generator may recompute for
/// every element it is broadcast to ([`nested_loops`]).
const SPREAD_LOOP: i64 = 256;

/// `group`'s ops back in its function, in groups of consecutive ops whose
/// loops do not nest ([`nested_in`]) where the group holds only
/// reductions, elementwise ops and views, else each op in a group of its
/// own (constants and reshapes stay the host's); gives those groups with
/// the function holding them. A reduction
/// broadcast back over its rows and used there (int8-dynamic's per-row
/// scales, an unraised softmax over long rows) so becomes a rows kernel
/// and an elementwise kernel after it, where each op alone would be a
/// kernel. Broadcasts of the group's inputs (splat constants) move to
/// their first use first, so that they join the stage that reads them.
fn split(ctx: &mut Context, group: Op) -> Vec<(Op, Op)> {
    let b = ctx
        .regions(group)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .expect("a group has a body");
    let ops: Vec<Op> = ctx
        .block_ops(b)
        .filter(|o| !fusion::Yield::is(ctx, *o))
        .collect();
    let args = ctx.operands(group).to_vec();
    ctx.inline_block(b, InsertPoint::Before(group), &args);
    // The yield came along: its operands are the group's results.
    let y = ctx
        .prev_op(group)
        .filter(|o| fusion::Yield::is(ctx, *o))
        .expect("the group's yield, inlined before it");
    let ys = ctx.operands(y).to_vec();
    for (i, v) in ys.into_iter().enumerate() {
        let old = ctx.result(group, i);
        ctx.replace_all_uses(old, v);
    }
    let func = {
        let mut f = group;
        while let Some(p) = ctx.parent_op(f) {
            if aic_dialects::func::Func::is(ctx, p) {
                f = p;
                break;
            }
            f = p;
        }
        f
    };
    ctx.erase_op(y);
    ctx.erase_op(group);
    let host = |ctx: &Context, o: Op| {
        aic_dialects::graph::Constant::is(ctx, o)
            || aic_dialects::graph::Reshape::is(ctx, o)
            || ctx.results(o).all(|r| shape(ctx, r).is_empty())
    };
    // Broadcasts of values from before the group move to their first user.
    let inside: HashSet<Op> = ops.iter().copied().collect();
    for &o in &ops {
        let from_before = ctx
            .operands(o)
            .iter()
            .all(|v| ctx.defining_op(*v).is_none_or(|d| !inside.contains(&d)));
        if !aic_dialects::graph::Broadcast::is(ctx, o) || !from_before {
            continue;
        }
        let users: Vec<Op> = ctx
            .results(o)
            .flat_map(|r| ctx.uses(r))
            .map(|u| u.op)
            .collect();
        let first = ops.iter().copied().find(|x| users.contains(x));
        if let Some(f) = first
            && users.iter().all(|u| inside.contains(u))
        {
            ctx.detach_op(o);
            ctx.insert_op(InsertPoint::Before(f), o);
        }
    }
    // The ops in their order now, cut into stages.
    let mut order: Vec<Op> = Vec::new();
    if let Some(&first) = ops.first() {
        let mut at = Some(first);
        // The first of them in the block: walk back while inside.
        while let Some(p) = at
            .and_then(|o| ctx.prev_op(o))
            .filter(|p| inside.contains(p))
        {
            at = Some(p);
        }
        while let Some(o) = at.filter(|o| inside.contains(o)) {
            order.push(o);
            at = ctx.next_op(o);
        }
    }
    // Stages only of reductions, elementwise ops and views: a group holding
    // a contraction, a group norm or an irregular op splits into its ops,
    // each the kernel of its own generator, as before stages.
    let staged = order.iter().all(|o| {
        aic_dialects::graph::semantics(ctx.op_name(*o)).is_some_and(|s| {
            matches!(
                s.class,
                aic_dialects::graph::Class::Reduction
                    | aic_dialects::graph::Class::Elementwise
                    | aic_dialects::graph::Class::View
                    | aic_dialects::graph::Class::Constant
            )
        }) && !aic_dialects::graph::Groupnorm::is(ctx, *o)
    });
    let mut stages: Vec<Vec<Op>> = Vec::new();
    let mut cur: Vec<Op> = Vec::new();
    for o in order {
        if host(ctx, o) {
            if !cur.is_empty() {
                stages.push(std::mem::take(&mut cur));
            }
            continue;
        }
        cur.push(o);
        if !staged {
            stages.push(std::mem::take(&mut cur));
            continue;
        }
        if cur.len() > 1 && nested_in(ctx, &cur) {
            cur.pop();
            stages.push(std::mem::replace(&mut cur, vec![o]));
        }
    }
    if !cur.is_empty() {
        stages.push(cur);
    }
    stages
        .into_iter()
        .map(|st| {
            let g = match st[..] {
                [one] => wrap(ctx, one),
                _ => wrap_ops(ctx, &st),
            };
            (g, func)
        })
        .collect()
}

/// The consecutive ops `ops` of a function in a group of their own (its
/// inputs what they read from before them, its results what is read after
/// them), replacing them; gives the group.
fn wrap_ops(ctx: &mut Context, ops: &[Op]) -> Op {
    let set: HashSet<Op> = ops.iter().copied().collect();
    let mut ins: Vec<Value> = Vec::new();
    for &o in ops {
        for v in ctx.operands(o).to_vec() {
            if ctx.defining_op(v).is_none_or(|d| !set.contains(&d)) && !ins.contains(&v) {
                ins.push(v);
            }
        }
    }
    let outs: Vec<Value> = ops
        .iter()
        .flat_map(|o| ctx.results(*o).collect::<Vec<_>>())
        .filter(|r| ctx.uses(*r).iter().any(|u| !set.contains(&u.op)))
        .collect();
    let g = group_of(ctx, ops, &ins, &ins, &outs, ops[0]);
    for (i, old) in outs.iter().enumerate() {
        let new = ctx.result(g, i);
        ctx.replace_all_uses(*old, new);
    }
    for &o in ops.iter().rev() {
        ctx.erase_op(o);
    }
    g
}

/// The error of a group no generator lowers (with `total`): at its op
/// when it holds one, naming the op and why.
fn not_lowered(ctx: &Context, group: Op, why: &str) -> Diagnostic {
    let ops: Vec<Op> = ctx
        .regions(group)
        .first()
        .and_then(|r| ctx.entry_block(*r))
        .map(|b| {
            ctx.block_ops(b)
                .filter(|o| !fusion::Yield::is(ctx, *o))
                .collect()
        })
        .unwrap_or_default();
    match ops[..] {
        [one] => aic::verifier::op_error(
            ctx,
            one,
            format!("cannot be compiled: no kernel generator lowers it: {why}"),
        ),
        _ => {
            let names: Vec<&str> = ops.iter().map(|o| ctx.op_name(*o)).collect();
            aic::verifier::op_error(
                ctx,
                group,
                format!(
                    "cannot be compiled: no kernel generator lowers the group of {}: {why}",
                    names.join(", ")
                ),
            )
        }
    }
}

/// Whether `op`, left in a host function after code generation, is the
/// host program's (not a tensor op a kernel must compute): it computes no
/// tensor of rank 1 or more, or it is a kernel launch, a constant, a view
/// of its operand's bytes (a reshape or bitcast), a collective (a step of
/// the launch plan between devices), a call, or control flow
/// (a loop or conditional holding the host program).
fn host_program_op(ctx: &Context, op: Op) -> bool {
    use aic_dialects::{func, graph, stablehlo as shlo};
    let tensors = ctx
        .results(op)
        .any(|r| !matches!(ctx.type_kind(ctx.value_type(r)).shape(), None | Some([])));
    !tensors
        || tile::Launch::is(ctx, op)
        || graph::Constant::is(ctx, op)
        || shlo::Constant::is(ctx, op)
        || graph::Reshape::is(ctx, op)
        || shlo::Reshape::is(ctx, op)
        || shlo::BitcastConvert::is(ctx, op)
        || func::Call::is(ctx, op)
        || shlo::collective::is_collective(ctx, op)
        || shlo::structured::While::is(ctx, op)
        || shlo::structured::If::is(ctx, op)
        || shlo::structured::Case::is(ctx, op)
        || ctx.op_name(op).starts_with("scf.")
}

/// The errors of tensor ops left in the host functions under `root` that
/// no generator lowered (with `total`), in the functions' bodies and the
/// bodies of their control flow: each names the op, where it is, and why.
fn left_on_the_host(ctx: &Context, root: Op) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let body = ctx.regions(root).first().and_then(|r| ctx.entry_block(*r));
    for f in body
        .map(|b| ctx.block_ops(b).collect::<Vec<_>>())
        .unwrap_or_default()
    {
        if aic_dialects::func::Func::is(ctx, f) {
            left_in(ctx, f, &mut errors);
        }
    }
    errors
}

/// [`left_on_the_host`] for the blocks of `holder` (a function or a loop or
/// conditional of the host program).
fn left_in(ctx: &Context, holder: Op, errors: &mut Vec<Diagnostic>) {
    use aic_dialects::stablehlo::structured as control;
    for &r in ctx.regions(holder) {
        for b in ctx.region_blocks(r) {
            for op in ctx.block_ops(b) {
                let flow = control::While::is(ctx, op)
                    || control::If::is(ctx, op)
                    || control::Case::is(ctx, op);
                if flow {
                    left_in(ctx, op, errors);
                }
                if fusion::Group::is(ctx, op)
                    || host_program_op(ctx, op)
                    || control::Return::is(ctx, op)
                {
                    continue;
                }
                let why = if aic_dialects::graph::semantics(ctx.op_name(op)).is_some() {
                    "no generator takes it"
                } else {
                    "no graph op expresses it (stablehlo-to-graph left it)"
                };
                errors.push(aic::verifier::op_error(
                    ctx,
                    op,
                    format!("cannot be compiled: no kernel generator lowers it: {why}"),
                ));
            }
        }
    }
}

impl FusionToTile {
    /// Lower `groups`, numbering kernels from `n_kernel` on: each by the
    /// first generator that takes it (the general generator alone with
    /// `general`); a group none takes stays, with a remark.
    fn generate(
        &self,
        ctx: &mut Context,
        groups: Vec<(Op, Op)>,
        general: bool,
        config: &Config<'_>,
        n_kernel: &mut usize,
        failed: &mut Vec<Diagnostic>,
    ) -> bool {
        let mut changed = false;
        for (g, f) in groups {
            let i = *n_kernel;
            *n_kernel += 1;
            // Generators size buffers and descriptors from the group's
            // shapes with plain arithmetic: every shape in the group is
            // checked static and addressable first. Then each generator in
            // turn until one lowers it (the general generator, last, takes
            // what the specialised ones decline).
            let generators = if general {
                &GENERATORS[GENERATORS.len() - 1..]
            } else {
                GENERATORS
            };
            // The kernels already there, to tell the new ones after.
            let module = ctx.parent_block(f);
            let before: HashSet<Op> = module
                .map(|b| {
                    ctx.block_ops(b)
                        .filter(|o| tile::Kernel::is(ctx, *o))
                        .collect()
                })
                .unwrap_or_default();
            let flops = group_flops(ctx, g);
            let made = sized(ctx, g).and_then(|()| {
                // The last reason given (the general generator's) is the
                // one reported.
                let mut why = NOT_MINE.to_string();
                // The first specialised generator's reason for declining a
                // group the general generator then lowers: a remark, as
                // loops are slower than the template would be.
                let mut declined: Option<String> = None;
                let last = generators.len() - 1;
                for (k, generate) in generators.iter().enumerate() {
                    // A group only the general generator would take, whose
                    // loops nest (a product over a normalisation over a
                    // convolution), is split into its ops instead: each
                    // element would recompute the inner loops.
                    if k == last && !general && nested_loops(ctx, g) {
                        // Around its contractions where it holds any (see
                        // [`split`]), else into its ops.
                        let ops = match split::split_levels(ctx, g) {
                            Some(parts) => parts.into_iter().map(|p| (p, f)).collect(),
                            None => split(ctx, g),
                        };
                        changed |= self.generate(ctx, ops, false, config, n_kernel, failed);
                        return Ok(true);
                    }
                    match generate(ctx, g, f, config, i) {
                        Ok(()) => {
                            if let Some(w) = declined.filter(|_| k + 1 == generators.len()) {
                                ctx.remark(
                                    g,
                                    format_args!("lowered by the general generator: {w}"),
                                );
                            }
                            return Ok(false);
                        }
                        Err(w) if w == NOT_MINE => {}
                        Err(w) => {
                            declined.get_or_insert_with(|| w.clone());
                            why = w;
                        }
                    }
                }
                Err(why)
            });
            match made {
                // Split into ops, each its own kernel marked as it was made.
                Ok(true) => changed = true,
                Ok(false) => {
                    changed = true;
                    if let Some(b) = module {
                        let new: Vec<Op> = ctx
                            .block_ops(b)
                            .filter(|o| tile::Kernel::is(ctx, *o) && !before.contains(o))
                            .collect();
                        for k in new {
                            mark_kernel(ctx, k, flops);
                        }
                    }
                }
                // Groups of scalars are the host program's arithmetic.
                Err(why) if self.total && ctx.results(g).any(|r| !shape(ctx, r).is_empty()) => {
                    failed.push(not_lowered(ctx, g, &why))
                }
                Err(why) => ctx.remark(
                    g,
                    format_args!("group left as it is (the interpreter still runs it): {why}"),
                ),
            }
        }
        changed
    }
}

impl Pass for FusionToTile {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        // A kernel-sized graph op left on its own (a matmul, a softmax, an
        // add of tensors) is a group of one.
        let mut alone = Vec::new();
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            let inside = ctx.parent_op(o).is_some_and(|p| fusion::Group::is(ctx, p));
            // Elementwise ops too (not those of rank 0: scalars are
            // arithmetic, not kernels).
            let elementwise = build::is_elementwise(ctx, o)
                && ctx
                    .results(o)
                    .next()
                    .is_some_and(|r| !shape(ctx, r).is_empty());
            // Any other graph op computing tensors of rank 1 and more (an
            // iota, a transpose, a cast) gets a kernel from the general
            // generator, but constants (data) and reshapes (aliases of
            // their operand's buffer) stay.
            let other = aic_dialects::graph::semantics(ctx.op_name(o)).is_some()
                && !aic_dialects::graph::Constant::is(ctx, o)
                && !aic_dialects::graph::Reshape::is(ctx, o)
                && ctx.num_results(o) > 0
                && ctx.results(o).all(|r| !shape(ctx, r).is_empty());
            if !inside && (is_gemm_op(ctx, o) || is_row_op(ctx, o) || elementwise) {
                alone.push((o, false));
            } else if !inside && other {
                alone.push((o, true));
            }
        });
        // The ops only the general generator takes (views, casts, iota,
        // ...) go straight to it, after the groups: a group's generator may
        // read such an op as what it is (attention computes a causal mask's
        // iotas from its indices), which a kernel in between would hide.
        let mut later = Vec::new();
        for (o, general) in alone {
            if general {
                later.push(o);
            } else {
                wrap(ctx, o);
            }
        }
        let cache = if self.tuning.is_empty() {
            Cache::new()
        } else {
            let text = std::fs::read_to_string(&self.tuning).map_err(|e| {
                Diagnostic::error(format!("cannot read tuning cache '{}': {e}", self.tuning))
            })?;
            read_cache(&text).map_err(|e| Diagnostic::error(format!("{}: {e}", self.tuning)))?
        };
        let config = Config {
            target: &self.target,
            reduce_chunk: self.reduce_chunk,
            scalars: self.scalars,
            tuner: tuning::Tuner {
                target: &self.target,
                arch: if self.arch.is_empty() {
                    &self.target
                } else {
                    &self.arch
                },
                wgmma: self.wgmma,
                cache: &cache,
            },
        };
        config
            .tuner
            .check()
            .map_err(|e| Diagnostic::error(format!("{}: {e}", self.tuning)))?;
        let mut changed = false;
        let mut n_kernel = 0;
        let mut failed = Vec::new();
        let groups = groups_of(ctx, root);
        changed |= self.generate(
            ctx,
            groups,
            self.general_only,
            &config,
            &mut n_kernel,
            &mut failed,
        );
        // Then those ops, where something still reads them (last users
        // first: an iota only attention kernels computed from their indices
        // goes, as pure ops nothing reads do).
        let mut general_only = Vec::new();
        for o in later.into_iter().rev() {
            if ctx.results(o).any(|r| !ctx.uses(r).is_empty()) {
                general_only.push(wrap(ctx, o));
            } else {
                ctx.erase_op(o);
                changed = true;
            }
        }
        let groups = groups_of(ctx, root)
            .into_iter()
            .filter(|(g, _)| general_only.contains(g))
            .collect();
        changed |= self.generate(ctx, groups, true, &config, &mut n_kernel, &mut failed);
        // Then, with `scalars`, every graph op left computing scalars only (a
        // loop counter's add, a condition's compare, a split group's final
        // reduction) that the general generator takes gets a one-element
        // kernel too, in program order and numbered after everything else
        // (so that the other kernels keep their numbers). One it does not
        // take stays as it was (the cast of a partition id's ui32 to i32 is
        // a view in the plan).
        let mut scalars = Vec::new();
        if self.scalars {
            ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
                let inside = ctx.parent_op(o).is_some_and(|p| fusion::Group::is(ctx, p));
                if !inside
                    && aic_dialects::graph::semantics(ctx.op_name(o)).is_some()
                    && !aic_dialects::graph::Constant::is(ctx, o)
                    && !aic_dialects::graph::Reshape::is(ctx, o)
                    && ctx.num_results(o) > 0
                    && ctx.results(o).all(|r| shape(ctx, r).is_empty())
                    && general::takes(ctx, o)
                {
                    scalars.push(o);
                }
            });
        }
        let scalar_groups: Vec<Op> = scalars.into_iter().map(|o| wrap(ctx, o)).collect();
        let groups = groups_of(ctx, root)
            .into_iter()
            .filter(|(g, _)| scalar_groups.contains(g))
            .collect();
        changed |= self.generate(ctx, groups, true, &config, &mut n_kernel, &mut failed);
        if self.total {
            failed.extend(left_on_the_host(ctx, root));
        }
        // In source order.
        failed.sort_by_key(|d| match d.at {
            aic::Where::Loc(l) => aic::diagnostics::file_line_col(ctx.uniquer(), l),
            _ => None,
        });
        if let Some(mut first) = failed.first().cloned() {
            first.notes.extend(failed.into_iter().skip(1));
            return Err(first);
        }
        Ok(changed)
    }
}

/// The arithmetic of a group (or lone op) `g`: its graph ops' operations
/// as the cost model counts them (`2·M·N·K` for a matrix product).
fn group_flops(ctx: &Context, g: Op) -> f64 {
    let u = ctx.uniquer().clone();
    let flops_of = |o: Op| {
        let kids: Vec<Type> = ctx.operands(o).iter().map(|v| ctx.value_type(*v)).collect();
        let out = ctx.results(o).next().map(|r| ctx.value_type(r));
        crate::eqsat_fusion::cost::op_flops(&u, ctx.op_name(o), &kids, out)
    };
    match fusion::Group::of(ctx, g) {
        Some(grp) => {
            let body = grp.body(ctx);
            ctx.region_blocks(body)
                .flat_map(|b| ctx.block_ops(b).collect::<Vec<_>>())
                .map(flops_of)
                .sum()
        }
        None => flops_of(g),
    }
}

/// Say on kernel `k` what it is: its kind (its name without the number)
/// and, where it does arithmetic, its operations.
fn mark_kernel(ctx: &mut Context, k: Op, flops: f64) {
    let u = ctx.uniquer().clone();
    let name = aic::symbol::symbol_name(ctx, k).unwrap_or("").to_string();
    let kind = name.split('_').next().unwrap_or("").to_string();
    let i = ctx.ident(crate::tile_to_gpu::KIND_ATTR);
    ctx.set_attr(k, i, u.string_attr(&kind));
    let i = ctx.ident(crate::tile_to_gpu::FLOPS_ATTR);
    // A generator that made several kernels of a group may say whose
    // arithmetic is whose (a split-K GEMM's sums).
    if flops >= 1.0 && ctx.attr_of(k, i).is_none() {
        let a = u.attr(AttrKind::Integer {
            value: flops as i128,
            ty: u.int_type(64),
        });
        ctx.set_attr(k, i, a);
    }
}
