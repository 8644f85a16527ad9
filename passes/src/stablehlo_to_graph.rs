//! `stablehlo-to-graph`: StableHLO ops become graph ops where the graph dialect
//! has them one for one: the elementwise ops, constants, `broadcast_in_dim`,
//! `reshape`, `transpose`, `slice`, `concatenate` and `convert`; `reduce` with
//! an `add`/`maximum`/`minimum` body from its identity becomes `graph.reduce`;
//! `dot_general` in matrix-product form (leading batch dimensions, one
//! contracted dimension at the end or next to it) becomes `graph.matmul` with
//! its transpose flags; 2-d `convolution` in NHWC/HWIO or NCHW/OIHW layout
//! becomes `graph.conv2d`; `chlo.erf`, `chlo.erfc` and `chlo.square` become
//! `graph.erf`, `graph.erfc` and a `graph.mul` of the operand by itself;
//! `compare` (unless in total order), `select`, `iota` and the logical ops
//! become their graph counterparts; `pad`, `dynamic_slice`,
//! `dynamic_update_slice`, `gather` and `scatter` (of one input, setting or
//! adding, maxing, minning) their graph ops of the same
//! attributes, `reduce_window` with an `add`/`maximum`/`minimum` body and no
//! base dilation `graph.reduce_window` (pooling, JAX's `cumsum`), `sort`
//! by an `LT`/`GT` comparator of its first operand (`jnp.sort`, `argsort`)
//! `graph.sort`.
//! Everything else stays as it is, so nothing is lost. The lowering is a
//! partial conversion (`aic::conversion`), one pattern per op rooted at its
//! handle. Raising idioms
//! (softmax, layernorm, GeLU, bias adds) is the e-graph's raising rules'
//! work: `eqsat-fusion` runs them by default, and the `raise` option runs
//! them here, after lowering, without fusing.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::constraints::i64_array_attr;
use aic::conversion::{
    ConversionPattern, ConversionPatterns, ConversionRewriter, ConversionTarget, Legality, Mode,
    OpConversion, TypeConverter, apply_conversion,
};
use aic::dialect::OpSpec;
use aic::interp::{Data, tensor_of_attr};
use aic::ir::{Context, Op, Region, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::graph::{ConvLayout, ReduceKind, ScatterKind};
use aic_dialects::stablehlo::attrs::{ConvDims, DotDims};
use aic_dialects::stablehlo::structured::{
    Convolution, DotGeneral, Gather, Reduce, ReduceWindow, Scatter, Sort as SortOp,
};
use aic_dialects::{chlo, graph, stablehlo as shlo};

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

/// Replace `op` by a `graph` op of `spec` with `operands`, attributes `attrs`
/// and `op`'s result types.
fn replace(
    rw: &mut ConversionRewriter<'_>,
    op: Op,
    spec: &'static OpSpec,
    operands: &[Value],
    attrs: &[(&str, Option<Attr>)],
) -> bool {
    let types: Vec<Type> = rw.ctx.results(op).map(|v| rw.ctx.value_type(v)).collect();
    let new = aic::op_def::build(&mut rw.before(op), spec, &[operands], attrs, &[&types]);
    let results: Vec<Value> = rw.ctx.results(new).collect();
    rw.replace_op(op, &results);
    true
}

/// The ops that become one graph op with the same operands: each pattern
/// names the StableHLO/CHLO handle, the graph op, and whether the graph op
/// takes floats only.
macro_rules! one_for_one {
    ($($P:ident: $H:ty => $graph:expr, $float_only:literal;)*) => {
        $(
            static $P: OpConversion<$H> = OpConversion::new(stringify!($P), |rw, h, operands| {
                let op = h.op();
                if $float_only && !is_float_tensor(rw.ctx, op) {
                    return false;
                }
                replace(rw, op, &$graph, operands, &[])
            });
        )*
        /// The one-for-one patterns.
        const ONE_FOR_ONE: &[&dyn ConversionPattern] = &[$(&$P),*];
    };
}

one_for_one! {
    ADD: shlo::Add => graph::ADD, false;
    SUBTRACT: shlo::Subtract => graph::SUB, false;
    MULTIPLY: shlo::Multiply => graph::MUL, false;
    DIVIDE: shlo::Divide => graph::DIV, false;
    MAXIMUM: shlo::Maximum => graph::MAX, false;
    MINIMUM: shlo::Minimum => graph::MIN, false;
    POWER: shlo::Power => graph::POW, false;
    EXPONENTIAL: shlo::Exponential => graph::EXP, true;
    LOG: shlo::Log => graph::LOG, true;
    TANH: shlo::Tanh => graph::TANH, true;
    SQRT: shlo::Sqrt => graph::SQRT, true;
    RSQRT: shlo::Rsqrt => graph::RSQRT, true;
    NEGATE: shlo::Negate => graph::NEG, true;
    ABS: shlo::Abs => graph::ABS, true;
    LOGISTIC: shlo::Logistic => graph::SIGMOID, true;
    CONVERT: shlo::Convert => graph::CAST, false;
    RESHAPE: shlo::Reshape => graph::RESHAPE, false;
    ERF: chlo::Erf => graph::ERF, true;
    ERFC: chlo::Erfc => graph::ERFC, true;
    SINE: shlo::Sine => graph::SIN, true;
    COSINE: shlo::Cosine => graph::COS, true;
    FLOOR: shlo::Floor => graph::FLOOR, true;
    CEIL: shlo::Ceil => graph::CEIL, true;
    LOG_PLUS_ONE: shlo::LogPlusOne => graph::LOG1P, true;
    EXPONENTIAL_MINUS_ONE: shlo::ExponentialMinusOne => graph::EXPM1, true;
    REMAINDER: shlo::Remainder => graph::REM, false;
    AND: shlo::And => graph::AND, false;
    OR: shlo::Or => graph::OR, false;
    XOR: shlo::Xor => graph::XOR, false;
    NOT: shlo::Not => graph::NOT, false;
    SELECT: shlo::Select => graph::SELECT, false;
}

/// `compare` with the comparison its operands' element type implies (the
/// default type, or FLOAT/SIGNED/UNSIGNED agreeing with the elements) becomes
/// `graph.compare`; TOTALORDER stays.
static COMPARE: OpConversion<shlo::Compare> = OpConversion::new("compare", |rw, c, operands| {
    use shlo::ComparisonType as T;
    let ctx = &*rw.ctx;
    let Some(dir) = c.comparison_direction(ctx) else {
        return false;
    };
    let elem = ctx.type_kind(ctx.value_type(c.lhs(ctx))).element_type();
    let implied = match elem.map(|e| ctx.type_kind(e)) {
        Some(TypeKind::Float(_)) => T::Float,
        Some(TypeKind::Integer { width: 1, .. })
        | Some(TypeKind::Integer {
            signedness: aic::types::Signedness::Unsigned,
            ..
        }) => T::Unsigned,
        Some(TypeKind::Integer { .. }) => T::Signed,
        _ => return false,
    };
    if c.compare_type(ctx).is_some_and(|t| t != implied) {
        return false;
    }
    let d = Some(dir.attr(ctx.uniquer()));
    replace(rw, c.op(), &graph::COMPARE, operands, &[("direction", d)])
});

/// `iota` becomes `graph.iota` along the same dimension.
static IOTA: OpConversion<shlo::Iota> = OpConversion::new("iota", |rw, i, _| {
    let Some(d) = i.iota_dimension(rw.ctx) else {
        return false;
    };
    let dim = Some(i64_attr(rw.ctx, d));
    replace(rw, i.op(), &graph::IOTA, &[], &[("dim", dim)])
});

static CONSTANT: OpConversion<shlo::Constant> = OpConversion::new("constant", |rw, c, _| {
    let Some(value) = c.value(rw.ctx) else {
        return false;
    };
    replace(rw, c.op(), &graph::CONSTANT, &[], &[("value", Some(value))])
});

/// `chlo.square` is `graph.mul` of the operand by itself.
static SQUARE: OpConversion<chlo::Square> = OpConversion::new("square", |rw, s, operands| {
    if !is_float_tensor(rw.ctx, s.op()) {
        return false;
    }
    replace(rw, s.op(), &graph::MUL, &[operands[0], operands[0]], &[])
});

static BROADCAST_IN_DIM: OpConversion<shlo::BroadcastInDim> =
    OpConversion::new("broadcast_in_dim", |rw, b, operands| {
        let Some(dims) = b.broadcast_dimensions(rw.ctx) else {
            return false;
        };
        let dims = rw.ctx.uniquer().i64_array(&dims);
        replace(
            rw,
            b.op(),
            &graph::BROADCAST,
            operands,
            &[("dims", Some(dims))],
        )
    });

static TRANSPOSE: OpConversion<shlo::Transpose> =
    OpConversion::new("transpose", |rw, t, operands| {
        let Some(perm) = t.permutation(rw.ctx) else {
            return false;
        };
        let perm = rw.ctx.uniquer().i64_array(&perm);
        replace(
            rw,
            t.op(),
            &graph::TRANSPOSE,
            operands,
            &[("perm", Some(perm))],
        )
    });

static SLICE: OpConversion<shlo::Slice> = OpConversion::new("slice", |rw, s, operands| {
    let ctx = &*rw.ctx;
    let (Some(start), Some(limit), Some(strides)) =
        (s.start_indices(ctx), s.limit_indices(ctx), s.strides(ctx))
    else {
        return false;
    };
    let u = ctx.uniquer();
    let attrs = [
        ("start", Some(u.i64_array(&start))),
        ("limit", Some(u.i64_array(&limit))),
        ("strides", Some(u.i64_array(&strides))),
    ];
    replace(rw, s.op(), &graph::SLICE, operands, &attrs)
});

static CONCATENATE: OpConversion<shlo::Concatenate> =
    OpConversion::new("concatenate", |rw, c, operands| {
        let Some(d) = c.dimension(rw.ctx) else {
            return false;
        };
        let axis = i64_attr(rw.ctx, d);
        replace(
            rw,
            c.op(),
            &graph::CONCAT,
            operands,
            &[("axis", Some(axis))],
        )
    });

/// The single binary op of a reduction body applied to its two arguments.
fn combiner(ctx: &Context, r: Region) -> Option<Op> {
    let b = ctx.entry_block(r)?;
    let ops: Vec<Op> = ctx.block_ops(b).collect();
    let [inner, ret] = ops[..] else { return None };
    let args = ctx.block_args(b);
    let o = ctx.operands(inner);
    let direct = o.len() == 2
        && args.len() == 2
        && ((o[0] == args[0] && o[1] == args[1]) || (o[0] == args[1] && o[1] == args[0]));
    (direct && ctx.operands(ret) == [ctx.result(inner, 0)]).then_some(inner)
}

/// `reduce` of one input with an `add`/`maximum`/`minimum` body from its
/// identity becomes `graph.reduce`.
static REDUCE: OpConversion<Reduce> = OpConversion::new("reduce", |rw, r, operands| {
    let ctx = &*rw.ctx;
    let Some((kind, axes)) = reduce_kind(ctx, r) else {
        return false;
    };
    let u = ctx.uniquer();
    let attrs = [
        ("kind", Some(kind.attr(u))),
        ("axes", Some(u.i64_array(&axes))),
    ];
    replace(rw, r.op(), &graph::REDUCE, &operands[..1], &attrs)
});

/// The reduce kind and axes of a `stablehlo.reduce` that `graph.reduce` expresses.
fn reduce_kind(ctx: &Context, r: Reduce) -> Option<(ReduceKind, Vec<i64>)> {
    let [_, init] = r.inputs_and_init_values(ctx) else {
        return None;
    };
    let inner = combiner(ctx, r.body(ctx))?;
    let kind = if shlo::Add::is(ctx, inner) {
        ReduceKind::Sum
    } else if shlo::Maximum::is(ctx, inner) {
        ReduceKind::Max
    } else if shlo::Minimum::is(ctx, inner) {
        ReduceKind::Min
    } else {
        return None;
    };
    // The init value must be the combiner's identity.
    let value = if let Some(c) = shlo::Constant::defining(ctx, *init) {
        c.value(ctx)?
    } else if let Some(d) = ctx.defining_op(*init)
        && ctx.op_name(d) == graph::CONSTANT.name
    {
        aic::constraints::op_attr(ctx, d, "value")?
    } else {
        return None;
    };
    let t = tensor_of_attr(ctx, value, ctx.value_type(*init))?;
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
    Some((kind, r.dimensions(ctx)?))
}

/// `pad` becomes `graph.pad` with the same paddings.
static PAD: OpConversion<shlo::Pad> = OpConversion::new("pad", |rw, p, operands| {
    let op = p.op();
    let names = ["edge_padding_low", "edge_padding_high", "interior_padding"];
    let attrs: Vec<(&str, Option<Attr>)> = names
        .iter()
        .map(|n| (*n, aic::constraints::op_attr(rw.ctx, op, n)))
        .collect();
    if attrs.iter().any(|(_, a)| a.is_none()) {
        return false;
    }
    replace(rw, op, &graph::PAD, operands, &attrs)
});

/// `dynamic_slice` becomes `graph.dynamic_slice`.
static DYNAMIC_SLICE: OpConversion<shlo::DynamicSlice> =
    OpConversion::new("dynamic_slice", |rw, d, operands| {
        let sizes = aic::constraints::op_attr(rw.ctx, d.op(), "slice_sizes");
        if sizes.is_none() {
            return false;
        }
        replace(
            rw,
            d.op(),
            &graph::DYNAMIC_SLICE,
            operands,
            &[("slice_sizes", sizes)],
        )
    });

/// `dynamic_update_slice` becomes `graph.dynamic_update_slice`.
static DYNAMIC_UPDATE_SLICE: OpConversion<shlo::DynamicUpdateSlice> =
    OpConversion::new("dynamic_update_slice", |rw, d, operands| {
        replace(rw, d.op(), &graph::DYNAMIC_UPDATE_SLICE, operands, &[])
    });

/// `gather` becomes `graph.gather` with the same dimension numbers.
static GATHER: OpConversion<Gather> = OpConversion::new("gather", |rw, g, operands| {
    let (dims, sizes) = (g.dimension_numbers(rw.ctx), g.slice_sizes(rw.ctx));
    if dims.is_none() || sizes.is_none() {
        return false;
    }
    let attrs = [("dimension_numbers", dims), ("slice_sizes", sizes)];
    replace(rw, g.op(), &graph::GATHER, operands, &attrs)
});

/// `scatter` of one input whose body returns the update (`.at[].set`) or
/// combines with `add`/`maximum`/`minimum` becomes `graph.scatter`.
static SCATTER: OpConversion<Scatter> = OpConversion::new("scatter", |rw, sc, operands| {
    let ctx = &*rw.ctx;
    let [_, _, _] = operands[..] else {
        return false;
    };
    let body = sc.update_computation(ctx);
    let Some(b) = ctx.entry_block(body) else {
        return false;
    };
    let args = ctx.block_args(b).to_vec();
    let ops: Vec<Op> = ctx.block_ops(b).collect();
    let kind = match (combiner(ctx, body), &ops[..]) {
        (Some(inner), _) if shlo::Add::is(ctx, inner) => ScatterKind::Add,
        (Some(inner), _) if shlo::Maximum::is(ctx, inner) => ScatterKind::Max,
        (Some(inner), _) if shlo::Minimum::is(ctx, inner) => ScatterKind::Min,
        (None, [ret]) if args.len() == 2 && ctx.operands(*ret) == [args[1]] => ScatterKind::Set,
        _ => return false,
    };
    let dims = sc.scatter_dimension_numbers(ctx);
    if dims.is_none() {
        return false;
    }
    let u = ctx.uniquer();
    let attrs = [
        ("kind", Some(kind.attr(u))),
        ("scatter_dimension_numbers", dims),
    ];
    replace(rw, sc.op(), &graph::SCATTER, operands, &attrs)
});

/// `sort` whose comparator is `LT` or `GT` of the first operand's pair (in
/// total order for floats, as `jnp.sort` and `jnp.argsort` export it)
/// becomes `graph.sort`, stable (a valid order for an unstable sort too).
static SORT: OpConversion<SortOp> = OpConversion::new("sort", |rw, so, operands| {
    use shlo::{ComparisonDirection as D, ComparisonType as T};
    let ctx = &*rw.ctx;
    let Some(inner) = ctx
        .entry_block(so.comparator(ctx))
        .and_then(|b| ctx.block_ops(b).next())
    else {
        return false;
    };
    let Some(c) = shlo::Compare::of(ctx, inner) else {
        return false;
    };
    let body = ctx
        .entry_block(so.comparator(ctx))
        .expect("a comparator block");
    let args = ctx.block_args(body).to_vec();
    let ops: Vec<Op> = ctx.block_ops(body).collect();
    if ops.len() != 2 || ctx.operands(ops[1]) != [c.result(ctx)] || args.len() < 2 {
        return false;
    }
    let (l, r) = (c.lhs(ctx), c.rhs(ctx));
    let swapped = if (l, r) == (args[0], args[1]) {
        false
    } else if (l, r) == (args[1], args[0]) {
        true
    } else {
        return false;
    };
    let descending = match c.comparison_direction(ctx) {
        Some(D::Lt) => swapped,
        Some(D::Gt) => !swapped,
        _ => return false,
    };
    let elem = ctx.type_kind(ctx.value_type(l)).element_type();
    let ok = match (elem.map(|e| ctx.type_kind(e)), c.compare_type(ctx)) {
        (Some(TypeKind::Float(_)), Some(T::TotalOrder)) => true,
        (
            Some(TypeKind::Integer {
                signedness: aic::types::Signedness::Unsigned,
                ..
            }),
            t,
        ) => matches!(t, None | Some(T::Unsigned)),
        (Some(TypeKind::Integer { width, .. }), t) if *width > 1 => {
            matches!(t, None | Some(T::Signed))
        }
        _ => false,
    };
    if !ok {
        return false;
    }
    let Some(rank) = operands
        .first()
        .and_then(|v| ctx.type_kind(ctx.value_type(*v)).shape().map(<[i64]>::len))
    else {
        return false;
    };
    let mut dim = so
        .dimension(ctx)
        .and_then(|a| aic::constraints::int_value(ctx.uniquer(), a))
        .unwrap_or(-1) as i64;
    if dim < 0 {
        dim += rank as i64;
    }
    let mut attrs = vec![("dimension", Some(i64_attr(ctx, dim)))];
    if descending {
        attrs.push(("descending", Some(ctx.uniquer().attr(AttrKind::Unit))));
    }
    replace(rw, so.op(), &graph::SORT, operands, &attrs)
});

/// `reduce_window` of one input with an `add`/`maximum`/`minimum` body and
/// no base dilation becomes `graph.reduce_window` (its init any value).
static REDUCE_WINDOW: OpConversion<ReduceWindow> =
    OpConversion::new("reduce_window", |rw, r, operands| {
        let ctx = &*rw.ctx;
        let op = r.op();
        let [x, init] = operands[..] else {
            return false;
        };
        let Some(inner) = combiner(ctx, r.body(ctx)) else {
            return false;
        };
        let kind = if shlo::Add::is(ctx, inner) {
            ReduceKind::Sum
        } else if shlo::Maximum::is(ctx, inner) {
            ReduceKind::Max
        } else if shlo::Minimum::is(ctx, inner) {
            ReduceKind::Min
        } else {
            return false;
        };
        let Some(rank) = ctx.type_kind(ctx.value_type(x)).shape().map(<[i64]>::len) else {
            return false;
        };
        let ints = |name: &str, default: i64, n: usize| {
            i64_array_attr(ctx, op, name).unwrap_or_else(|| vec![default; n])
        };
        let Some(window) = i64_array_attr(ctx, op, "window_dimensions") else {
            return false;
        };
        if ints("base_dilations", 1, rank).iter().any(|d| *d != 1) {
            return false;
        }
        let u = ctx.uniquer();
        let attrs = [
            ("kind", Some(kind.attr(u))),
            ("window_dimensions", Some(u.i64_array(&window))),
            (
                "window_strides",
                Some(u.i64_array(&ints("window_strides", 1, rank))),
            ),
            (
                "window_dilations",
                Some(u.i64_array(&ints("window_dilations", 1, rank))),
            ),
            ("padding", Some(u.i64_array(&ints("padding", 0, 2 * rank)))),
        ];
        replace(rw, op, &graph::REDUCE_WINDOW, &[x, init], &attrs)
    });

/// `dot_general` in matrix-product form becomes `graph.matmul`.
static DOT_GENERAL: OpConversion<DotGeneral> =
    OpConversion::new("dot_general", |rw, d, operands| {
        let Some((ta, tb)) = matmul_transposes(rw.ctx, d) else {
            return false;
        };
        let unit = rw.ctx.uniquer().attr(AttrKind::Unit);
        let mut attrs = Vec::new();
        if ta {
            attrs.push(("transpose_a", Some(unit)));
        }
        if tb {
            attrs.push(("transpose_b", Some(unit)));
        }
        replace(rw, d.op(), &graph::MATMUL, operands, &attrs)
    });

/// Whether `graph.matmul` expresses `d`, and with which transpose flags.
fn matmul_transposes(ctx: &Context, dot: DotGeneral) -> Option<(bool, bool)> {
    let d = DotDims::of(ctx, dot.dot_dimension_numbers(ctx)?)?;
    let rank = |v: Value| ctx.type_kind(ctx.value_type(v)).shape().map(<[i64]>::len);
    let (lr, rr) = (rank(dot.lhs(ctx))? as i64, rank(dot.rhs(ctx))? as i64);
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
    (lhs_ok && rhs_ok).then_some((ta, tb))
}

/// 2-d `convolution` in NHWC/HWIO or NCHW/OIHW layout becomes `graph.conv2d`.
static CONVOLUTION: OpConversion<Convolution> =
    OpConversion::new("convolution", |rw, c, operands| {
        let Some(attrs) = conv2d_attrs(rw.ctx, c) else {
            return false;
        };
        replace(rw, c.op(), &graph::CONV2D, operands, &attrs)
    });

/// The attributes of the `graph.conv2d` that expresses `c`, if one does.
fn conv2d_attrs(ctx: &Context, c: Convolution) -> Option<Vec<(&'static str, Option<Attr>)>> {
    let d = ConvDims::of(ctx, c.dimension_numbers(ctx)?)?;
    let layout = match d.compact().as_str() {
        "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]" => ConvLayout::Nhwc,
        "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]" => ConvLayout::Nchw,
        _ => return None,
    };
    let op = c.op();
    let all = |name: &str, want: i64| {
        i64_array_attr(ctx, op, name).is_none_or(|v| v.iter().all(|x| *x == want))
    };
    if !all("lhs_dilation", 1) || !all("window_reversal", 0) {
        return None;
    }
    if c.batch_group_count(ctx).unwrap_or(1) != 1 {
        return None;
    }
    let fgc = c.feature_group_count(ctx).unwrap_or(1);
    let strides = c.window_strides(ctx).unwrap_or_else(|| vec![1, 1]);
    let dil = c.rhs_dilation(ctx).unwrap_or_else(|| vec![1, 1]);
    let pad = i64_array_attr(ctx, op, "padding").unwrap_or_else(|| vec![0; 4]);
    if strides.len() != 2 || dil.len() != 2 || pad.len() != 4 {
        return None;
    }
    let u = ctx.uniquer();
    let mut attrs = vec![
        ("layout", Some(layout.attr(u))),
        ("strides", Some(u.i64_array(&strides))),
        ("dilations", Some(u.i64_array(&dil))),
        ("padding", Some(u.i64_array(&pad))),
    ];
    if fgc != 1 {
        attrs.push(("groups", Some(i64_attr(ctx, fgc))));
    }
    Some(attrs)
}

/// The dialect namespace of `op`.
fn dialect(ctx: &Context, op: Op) -> &str {
    let name = ctx.op_name(op);
    name.split('.').next().unwrap_or(name)
}

/// The number of graph ops in `root`.
fn graph_ops(ctx: &Context, root: Op) -> usize {
    let mut n = 0;
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
        n += usize::from(dialect(ctx, o) == graph::DIALECT.name);
    });
    n
}

/// Ops nested in a StableHLO op's regions (reduction bodies, comparators,
/// loop bodies) are legal: they belong to the op that holds them. Others
/// are offered to the patterns and stay where none converts them.
fn inside_stablehlo(ctx: &Context, op: Op) -> Option<bool> {
    let mut p = ctx.parent_op(op);
    while let Some(q) = p {
        if dialect(ctx, q) == shlo::DIALECT.name {
            return Some(true);
        }
        p = ctx.parent_op(q);
    }
    None
}

impl Pass for StablehloToGraph {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut target = ConversionTarget::new();
        target
            .dialect(graph::DIALECT.name, Legality::Legal)
            .dialect(shlo::DIALECT.name, Legality::Dynamic(inside_stablehlo))
            .dialect(chlo::DIALECT.name, Legality::Dynamic(inside_stablehlo));
        let mut patterns = ConversionPatterns::new();
        for p in ONE_FOR_ONE {
            patterns.add(*p);
        }
        for p in [
            &CONSTANT as &dyn ConversionPattern,
            &SQUARE,
            &BROADCAST_IN_DIM,
            &TRANSPOSE,
            &SLICE,
            &CONCATENATE,
            &REDUCE,
            &DOT_GENERAL,
            &CONVOLUTION,
            &COMPARE,
            &IOTA,
            &PAD,
            &DYNAMIC_SLICE,
            &DYNAMIC_UPDATE_SLICE,
            &GATHER,
            &REDUCE_WINDOW,
            &SCATTER,
            &SORT,
        ] {
            patterns.add(p);
        }
        let before = graph_ops(ctx, root);
        apply_conversion(
            ctx,
            root,
            &target,
            &patterns,
            &TypeConverter::new(),
            Mode::Partial,
        )?;
        let mut changed = graph_ops(ctx, root) != before;
        if self.raise {
            changed |= crate::eqsat_fusion::raise(ctx, root)?;
        }
        Ok(changed)
    }
}
