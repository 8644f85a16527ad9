//! `stablehlo-to-graph`: StableHLO ops become graph ops where the graph dialect
//! has them one for one: the elementwise ops, constants, `broadcast_in_dim`,
//! `reshape`, `transpose`, `slice`, `concatenate` and `convert`; `reduce` with
//! an `add`/`maximum`/`minimum` body from its identity becomes `graph.reduce`;
//! `dot_general` in matrix-product form (leading batch dimensions, one
//! contracted dimension at the end or next to it) becomes `graph.matmul` with
//! its transpose flags; 2-d `convolution` in NHWC/HWIO or NCHW/OIHW layout
//! becomes `graph.conv2d`; `chlo.erf`, `chlo.erfc` and `chlo.square` become
//! `graph.erf`, `graph.erfc` and a `graph.mul` of the operand by itself.
//! Everything else stays as it is, so nothing is lost. Raising idioms
//! (softmax, layernorm, GeLU, bias adds) is the e-graph's raising rules'
//! work: `eqsat-fusion` runs them by default, and the `raise` option runs
//! them here, after lowering, without fusing.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind, Ident};
use aic::constraints::{i64_array_attr, int_attr, op_attr};
use aic::interp::{Data, tensor_of_attr};
use aic::ir::{Context, InsertPoint, Op, OpState, Region, WalkOrder};
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::TypeKind;
use aic_dialects::graph::{ConvLayout, ReduceKind};
use aic_dialects::stablehlo::attrs::{ConvDims, DotDims};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "stablehlo-to-graph",
    name: "StablehloToGraph",
    summary: "Lower StableHLO ops to graph ops where they map one for one",
    anchor: None,
    options: &[OptSpec {
        name: "raise",
        kind: OptKind::Bool,
        default: "false",
        range: None,
        help: "Raise decomposed idioms (softmax, layernorm, GeLU, means, bias adds) to graph ops",
    }],
    create: |o: &PassOptions| {
        Box::new(StablehloToGraph {
            raise: o.bool("raise"),
        })
    },
};

struct StablehloToGraph {
    raise: bool,
}

/// StableHLO's elementwise ops and their graph names; `true` for the ones the
/// graph dialect has on floats only.
const ELEMENTWISE: &[(&str, &str, bool)] = &[
    ("stablehlo.add", "graph.add", false),
    ("stablehlo.subtract", "graph.sub", false),
    ("stablehlo.multiply", "graph.mul", false),
    ("stablehlo.divide", "graph.div", false),
    ("stablehlo.maximum", "graph.max", false),
    ("stablehlo.minimum", "graph.min", false),
    ("stablehlo.power", "graph.pow", false),
    ("stablehlo.exponential", "graph.exp", true),
    ("stablehlo.log", "graph.log", true),
    ("stablehlo.tanh", "graph.tanh", true),
    ("stablehlo.sqrt", "graph.sqrt", true),
    ("stablehlo.rsqrt", "graph.rsqrt", true),
    ("stablehlo.negate", "graph.neg", true),
    ("stablehlo.abs", "graph.abs", true),
    ("stablehlo.logistic", "graph.sigmoid", true),
    ("stablehlo.convert", "graph.cast", false),
    ("stablehlo.reshape", "graph.reshape", false),
    ("chlo.erf", "graph.erf", true),
    ("chlo.erfc", "graph.erfc", true),
];

fn i64_array(ctx: &Context, v: &[i64]) -> Attr {
    ctx.uniquer().i64_array(v)
}

fn i64_attr(ctx: &Context, v: i64) -> Attr {
    let u = ctx.uniquer();
    u.attr(AttrKind::Integer {
        value: i128::from(v),
        ty: u.int_type(64),
    })
}

fn is_float_tensor(ctx: &Context, op: Op) -> bool {
    let t = ctx.value_type(ctx.result(op, 0));
    ctx.type_kind(t)
        .element_type()
        .is_some_and(|e| matches!(ctx.type_kind(e), TypeKind::Float(_)))
}

/// What `op` becomes: the graph op name, which operands it keeps (by index) and
/// its properties.
type Lowering = (&'static str, Vec<usize>, Vec<(&'static str, Attr)>);

fn lower(ctx: &Context, op: Op) -> Option<Lowering> {
    let name = ctx.op_name(op);
    if let Some((_, g, float_only)) = ELEMENTWISE.iter().find(|(s, _, _)| *s == name) {
        if *float_only && !is_float_tensor(ctx, op) {
            return None;
        }
        let n = ctx.operands(op).len();
        return Some((g, (0..n).collect(), Vec::new()));
    }
    let v = |x: &[i64]| i64_array(ctx, x);
    Some(match name {
        "stablehlo.constant" => (
            "graph.constant",
            vec![],
            vec![("value", op_attr(ctx, op, "value")?)],
        ),
        "chlo.square" if is_float_tensor(ctx, op) => ("graph.mul", vec![0, 0], vec![]),
        "stablehlo.broadcast_in_dim" => (
            "graph.broadcast",
            vec![0],
            vec![("dims", v(&i64_array_attr(ctx, op, "broadcast_dimensions")?))],
        ),
        "stablehlo.transpose" => (
            "graph.transpose",
            vec![0],
            vec![("perm", v(&i64_array_attr(ctx, op, "permutation")?))],
        ),
        "stablehlo.slice" => (
            "graph.slice",
            vec![0],
            vec![
                ("start", v(&i64_array_attr(ctx, op, "start_indices")?)),
                ("limit", v(&i64_array_attr(ctx, op, "limit_indices")?)),
                ("strides", v(&i64_array_attr(ctx, op, "strides")?)),
            ],
        ),
        "stablehlo.concatenate" => {
            let d = int_attr(ctx, op, "dimension")?;
            (
                "graph.concat",
                (0..ctx.operands(op).len()).collect(),
                vec![("axis", i64_attr(ctx, d))],
            )
        }
        "stablehlo.reduce" => return lower_reduce(ctx, op),
        "stablehlo.dot_general" => return lower_dot(ctx, op),
        "stablehlo.convolution" => return lower_conv(ctx, op),
        _ => return None,
    })
}

/// The single binary op of a reduction body applied to its two arguments.
fn combiner(ctx: &Context, r: Region) -> Option<&str> {
    let b = ctx.entry_block(r)?;
    let ops: Vec<Op> = ctx.block_ops(b).collect();
    let [inner, ret] = ops[..] else { return None };
    let args = ctx.block_args(b);
    let o = ctx.operands(inner);
    let direct = o.len() == 2
        && args.len() == 2
        && ((o[0] == args[0] && o[1] == args[1]) || (o[0] == args[1] && o[1] == args[0]));
    (direct && ctx.operands(ret) == [ctx.result(inner, 0)]).then(|| ctx.op_name(inner))
}

fn lower_reduce(ctx: &Context, op: Op) -> Option<Lowering> {
    if ctx.operands(op).len() != 2 {
        return None;
    }
    let kind = match combiner(ctx, *ctx.regions(op).first()?)? {
        "stablehlo.add" => ReduceKind::Sum,
        "stablehlo.maximum" => ReduceKind::Max,
        "stablehlo.minimum" => ReduceKind::Min,
        _ => return None,
    };
    // The init value must be the combiner's identity.
    let init = ctx.defining_op(ctx.operands(op)[1])?;
    if !matches!(ctx.op_name(init), "stablehlo.constant" | "graph.constant") {
        return None;
    }
    let t = tensor_of_attr(
        ctx,
        op_attr(ctx, init, "value")?,
        ctx.value_type(ctx.result(init, 0)),
    )?;
    let identity = match (&t.data, kind) {
        (Data::Float(v), ReduceKind::Sum) => v.first() == 0.0,
        (Data::Float(v), ReduceKind::Max) => v.first() == f64::NEG_INFINITY,
        (Data::Float(v), ReduceKind::Min) => v.first() == f64::INFINITY,
        (Data::Int(v), ReduceKind::Sum) => v.first() == 0,
        _ => false,
    };
    if !identity {
        return None;
    }
    Some((
        "graph.reduce",
        vec![0],
        vec![
            ("kind", kind.attr(ctx.uniquer())),
            (
                "axes",
                i64_array(ctx, &i64_array_attr(ctx, op, "dimensions")?),
            ),
        ],
    ))
}

fn lower_dot(ctx: &Context, op: Op) -> Option<Lowering> {
    let d = DotDims::of(ctx, op_attr(ctx, op, "dot_dimension_numbers")?)?;
    let rank = |i: usize| {
        ctx.type_kind(ctx.value_type(ctx.operands(op)[i]))
            .shape()
            .map(<[i64]>::len)
    };
    let (lr, rr) = (rank(0)? as i64, rank(1)? as i64);
    let nb = d.lhs_batch.len() as i64;
    let leading: Vec<i64> = (0..nb).collect();
    if d.lhs_batch != leading
        || d.rhs_batch != leading
        || d.lhs_contract.len() != 1
        || d.rhs_contract.len() != 1
        || lr < 2
        || rr < 2
    {
        return None;
    }
    let (lc, rc) = (d.lhs_contract[0], d.rhs_contract[0]);
    let (ta, tb) = if nb > 0 {
        if lr != nb + 2 || rr != nb + 2 {
            return None;
        }
        (lc == nb, rc == nb + 1)
    } else {
        if rr != 2 || (lr > 2 && lc != lr - 1) {
            return None;
        }
        (lr == 2 && lc == 0, rc == 1)
    };
    // The contracted dimensions must be the matrix ones.
    let lhs_ok = lc == if ta { lr - 2 } else { lr - 1 };
    let rhs_ok = rc == if tb { rr - 1 } else { rr - 2 };
    if !lhs_ok || !rhs_ok {
        return None;
    }
    let unit = ctx.uniquer().attr(AttrKind::Unit);
    let mut props = Vec::new();
    if ta {
        props.push(("transpose_a", unit));
    }
    if tb {
        props.push(("transpose_b", unit));
    }
    Some(("graph.matmul", vec![0, 1], props))
}

fn lower_conv(ctx: &Context, op: Op) -> Option<Lowering> {
    let d = ConvDims::of(ctx, op_attr(ctx, op, "dimension_numbers")?)?;
    let layout = match d.compact().as_str() {
        "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]" => ConvLayout::Nhwc,
        "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]" => ConvLayout::Nchw,
        _ => return None,
    };
    let all = |name: &str, want: i64| {
        i64_array_attr(ctx, op, name).is_none_or(|v| v.iter().all(|x| *x == want))
    };
    if !all("lhs_dilation", 1) || !all("window_reversal", 0) {
        return None;
    }
    let bgc = int_attr(ctx, op, "batch_group_count");
    if bgc.unwrap_or(1) != 1 {
        return None;
    }
    let fgc = int_attr(ctx, op, "feature_group_count").unwrap_or(1);
    let strides = i64_array_attr(ctx, op, "window_strides").unwrap_or_else(|| vec![1, 1]);
    let dil = i64_array_attr(ctx, op, "rhs_dilation").unwrap_or_else(|| vec![1, 1]);
    let pad = i64_array_attr(ctx, op, "padding").unwrap_or_else(|| vec![0; 4]);
    if strides.len() != 2 || dil.len() != 2 || pad.len() != 4 {
        return None;
    }
    let mut props = vec![
        ("layout", layout.attr(ctx.uniquer())),
        ("strides", i64_array(ctx, &strides)),
        ("dilations", i64_array(ctx, &dil)),
        ("padding", i64_array(ctx, &pad)),
    ];
    if fgc != 1 {
        props.push(("groups", i64_attr(ctx, fgc)));
    }
    Some(("graph.conv2d", vec![0, 1], props))
}

impl Pass for StablehloToGraph {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut ops = Vec::new();
        // Ops inside StableHLO ops' regions (reduction bodies, comparators,
        // loop bodies) stay StableHLO: they belong to the op that holds them.
        let inside_stablehlo = |o: Op| {
            let mut p = ctx.parent_op(o);
            while let Some(q) = p {
                if ctx.op_name(q).starts_with("stablehlo.") {
                    return true;
                }
                p = ctx.parent_op(q);
            }
            false
        };
        ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
            let n = ctx.op_name(o);
            if (n.starts_with("stablehlo.") || n.starts_with("chlo.")) && !inside_stablehlo(o) {
                ops.push(o);
            }
        });
        let mut changed = false;
        for op in ops {
            let Some((name, keep, props)) = lower(ctx, op) else {
                continue;
            };
            let loc = ctx.op(op).loc;
            let mut st = OpState::new(ctx.ident(name), loc);
            let operands = ctx.operands(op).to_vec();
            st.operands.extend(keep.iter().map(|i| operands[*i]));
            st.result_types
                .extend(ctx.results(op).map(|v| ctx.value_type(v)));
            let u = ctx.uniquer().clone();
            let mut entries: Vec<(Ident, Attr)> =
                props.into_iter().map(|(k, v)| (u.ident(k), v)).collect();
            if let Some(spec) = ctx.registry().op(name) {
                aic::asm::add_defaults(&u, spec, &mut entries);
            }
            st.props = Some(u.dict_attr(entries));
            let new = ctx.create_op(st);
            ctx.insert_op(InsertPoint::Before(op), new);
            let olds: Vec<_> = ctx.results(op).collect();
            let news: Vec<_> = ctx.results(new).collect();
            for (o, n) in olds.into_iter().zip(news) {
                ctx.replace_all_uses(o, n);
            }
            ctx.erase_op(op);
            changed = true;
        }
        if self.raise {
            changed |= crate::eqsat_fusion::raise(ctx, root)?;
        }
        Ok(changed)
    }
}
