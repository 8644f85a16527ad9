//! `stablehlo-to-graph`: StableHLO ops become graph ops where the graph dialect
//! has them one for one: the elementwise ops, constants, `broadcast_in_dim`,
//! `reshape`, `transpose`, `slice`, `concatenate` and `convert`; `reduce` with
//! an `add`/`maximum`/`minimum` body from its identity becomes `graph.reduce`,
//! one of values and their iota by JAX's `argmax`/`argmin` reducer two (the
//! extreme, then the smallest index holding it); integer `abs` and `sign`
//! become compares, selects and arithmetic; `dot_general` in matrix-product form (leading batch dimensions, one
//! contracted dimension at the end or next to it) becomes `graph.matmul` with
//! its transpose flags; 2-d `convolution` in NHWC/HWIO or NCHW/OIHW layout
//! becomes `graph.conv2d` (a result in the other layout through a
//! transpose); `chlo.erf`, `chlo.erfc` and `chlo.square` become
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
    ROUND_NEAREST_EVEN: shlo::RoundNearestEven => graph::ROUND_EVEN, true;
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

/// A splat `graph.constant` of tensor type `ty` holding `v`, before `op`.
fn splat_constant(rw: &mut ConversionRewriter<'_>, op: Op, ty: Type, v: i64) -> Value {
    let u = rw.ctx.uniquer().clone();
    let Some(elem) = u.type_kind(ty).element_type() else {
        unreachable!("a constant of a tensor type");
    };
    let one = u.ty(TypeKind::Tensor {
        shape: Default::default(),
        elem,
        encoding: None,
    });
    let t = if matches!(u.type_kind(elem), TypeKind::Float(_)) {
        aic::interp::Tensor::from_f64s(&u, one, [v as f64])
    } else {
        aic::interp::Tensor::from_i64s(&u, one, [v])
    };
    let AttrKind::DenseElements {
        data: aic::attributes::DenseData::Raw { bytes, .. },
        ..
    } = u.attr_kind(aic::interp::attr_of_tensor(&u, &t)).clone()
    else {
        unreachable!("a dense attribute of numbers");
    };
    let value = graph::fold::splat(&u, ty, &bytes);
    let c = aic::op_def::build(
        &mut rw.before(op),
        &graph::CONSTANT,
        &[],
        &[("value", Some(value))],
        &[&[ty]],
    );
    rw.ctx.result(c, 0)
}

/// The signless integer element type of `v`'s tensor type, if it has one.
fn signless_elem(ctx: &Context, v: Value) -> Option<Type> {
    let e = ctx.type_kind(ctx.value_type(v)).element_type()?;
    matches!(
        ctx.type_kind(e),
        TypeKind::Integer { signedness: aic::types::Signedness::Signless, width } if *width > 1
    )
    .then_some(e)
}

/// `abs` of signless integers is `max(x, 0 - x)` (the most negative value
/// stays itself, as StableHLO's wraps).
static INT_ABS: OpConversion<shlo::Abs> = OpConversion::new("int_abs", |rw, a, operands| {
    let op = a.op();
    let Some(_) = signless_elem(rw.ctx, operands[0]) else {
        return false;
    };
    let x = operands[0];
    let t = rw.ctx.value_type(x);
    let zero = splat_constant(rw, op, t, 0);
    let neg = aic::op_def::build(&mut rw.before(op), &graph::SUB, &[&[zero, x]], &[], &[&[t]]);
    let neg = rw.ctx.result(neg, 0);
    replace(rw, op, &graph::MAX, &[x, neg], &[])
});

/// `sign` of floats and signless integers is `select(x > 0, 1, select(x <
/// 0, -1, x))` (zeros and NaNs stay themselves).
static SIGN: OpConversion<shlo::Sign> = OpConversion::new("sign", |rw, sg, operands| {
    use shlo::ComparisonDirection as D;
    let op = sg.op();
    let x = operands[0];
    let ctx = &*rw.ctx;
    let t = ctx.value_type(x);
    let Some(elem) = ctx.type_kind(t).element_type() else {
        return false;
    };
    let float = matches!(ctx.type_kind(elem), TypeKind::Float(_));
    if !float && signless_elem(ctx, x).is_none() {
        return false;
    }
    let Some(shape) = ctx.type_kind(t).shape().map(<[i64]>::to_vec) else {
        return false;
    };
    let u = ctx.uniquer().clone();
    let pt = u.ty(TypeKind::Tensor {
        shape: shape.into_iter().collect(),
        elem: u.int_type(1),
        encoding: None,
    });
    let zero = splat_constant(rw, op, t, 0);
    let one = splat_constant(rw, op, t, 1);
    let minus = splat_constant(rw, op, t, -1);
    let cmp = |rw: &mut ConversionRewriter<'_>, d: D| {
        let c = aic::op_def::build(
            &mut rw.before(op),
            &graph::COMPARE,
            &[&[x, zero]],
            &[("direction", Some(d.attr(&u)))],
            &[&[pt]],
        );
        rw.ctx.result(c, 0)
    };
    let (pos, neg) = (cmp(rw, D::Gt), cmp(rw, D::Lt));
    let inner = aic::op_def::build(
        &mut rw.before(op),
        &graph::SELECT,
        &[&[neg, minus, x]],
        &[],
        &[&[t]],
    );
    let inner = rw.ctx.result(inner, 0);
    replace(rw, op, &graph::SELECT, &[pos, one, inner], &[])
});

/// `iota` becomes `graph.iota` along the same dimension.
static IOTA: OpConversion<shlo::Iota> = OpConversion::new("iota", |rw, i, _| {
    let Some(d) = i.iota_dimension(rw.ctx) else {
        return false;
    };
    let dim = Some(i64_attr(rw.ctx, d));
    replace(rw, i.op(), &graph::IOTA, &[], &[("dim", dim)])
});

/// Whether every operand and result of `op` has a static shape: a dynamic op
/// whose shapes are all known is its static namesake (its shape operand
/// says what the types already say).
fn all_static(ctx: &Context, op: Op) -> bool {
    ctx.operands(op)
        .iter()
        .copied()
        .chain(ctx.results(op))
        .all(|v| {
            ctx.type_kind(ctx.value_type(v))
                .shape()
                .is_some_and(|s| s.iter().all(|d| *d >= 0))
        })
}

/// `dynamic_iota` with a static result becomes `graph.iota`.
static DYNAMIC_IOTA: OpConversion<shlo::dynamic::DynamicIota> =
    OpConversion::new("dynamic_iota", |rw, i, _| {
        let (Some(d), true) = (i.iota_dimension(rw.ctx), all_static(rw.ctx, i.op())) else {
            return false;
        };
        let dim = Some(i64_attr(rw.ctx, d));
        replace(rw, i.op(), &graph::IOTA, &[], &[("dim", dim)])
    });

/// `dynamic_reshape` with static shapes becomes `graph.reshape`.
static DYNAMIC_RESHAPE: OpConversion<shlo::dynamic::DynamicReshape> =
    OpConversion::new("dynamic_reshape", |rw, r, operands| {
        if !all_static(rw.ctx, r.op()) {
            return false;
        }
        replace(rw, r.op(), &graph::RESHAPE, &operands[..1], &[])
    });

/// `dynamic_broadcast_in_dim` with static shapes becomes `graph.broadcast`.
static DYNAMIC_BROADCAST_IN_DIM: OpConversion<shlo::dynamic::DynamicBroadcastInDim> =
    OpConversion::new("dynamic_broadcast_in_dim", |rw, b, operands| {
        let (Some(dims), true) = (b.broadcast_dimensions(rw.ctx), all_static(rw.ctx, b.op()))
        else {
            return false;
        };
        let dims = rw.ctx.uniquer().i64_array(&dims);
        replace(
            rw,
            b.op(),
            &graph::BROADCAST,
            &operands[..1],
            &[("dims", Some(dims))],
        )
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

/// The value `v` canonicalises the way JAX's sort comparator does, if it
/// does: `select(x != x, NaN, select(x == 0, 0, x))` of `x`.
fn canonicalised(ctx: &Context, v: Value) -> Option<Value> {
    use shlo::ComparisonDirection as D;
    let constant = |v: Value| -> Option<f64> {
        let c = shlo::Constant::defining(ctx, v)?;
        let t = tensor_of_attr(ctx, c.value(ctx)?, ctx.value_type(v))?;
        match &t.data {
            Data::Float(f) if t.len() == 1 => Some(f.first()),
            _ => None,
        }
    };
    let outer = shlo::Select::defining(ctx, v)?;
    let isnan = shlo::Compare::defining(ctx, outer.pred(ctx))?;
    let x = isnan.lhs(ctx);
    let is_nan = isnan.comparison_direction(ctx) == Some(D::Ne)
        && isnan.rhs(ctx) == x
        && constant(outer.on_true(ctx)).is_some_and(f64::is_nan);
    let inner = shlo::Select::defining(ctx, outer.on_false(ctx))?;
    let iszero = shlo::Compare::defining(ctx, inner.pred(ctx))?;
    let is_zero = iszero.comparison_direction(ctx) == Some(D::Eq)
        && iszero.lhs(ctx) == x
        && constant(iszero.rhs(ctx)) == Some(0.0)
        && constant(inner.on_true(ctx)) == Some(0.0)
        && inner.on_false(ctx) == x;
    (is_nan && is_zero).then_some(x)
}

/// `sort` whose comparator is `LT` or `GT` of the first operand's pair in
/// total order (for floats; as `jnp.sort` and `jnp.argsort` export it, the
/// keys canonicalised first) becomes `graph.sort`, stable (a valid order
/// for an unstable sort too).
static SORT: OpConversion<SortOp> = OpConversion::new("sort", |rw, so, operands| {
    use shlo::{ComparisonDirection as D, ComparisonType as T};
    let ctx = &*rw.ctx;
    let Some(body) = ctx.entry_block(so.comparator(ctx)) else {
        return false;
    };
    let args = ctx.block_args(body).to_vec();
    let Some(ret) = ctx.block_ops(body).last() else {
        return false;
    };
    let Some(c) = ctx
        .operands(ret)
        .first()
        .and_then(|v| shlo::Compare::defining(ctx, *v))
    else {
        return false;
    };
    if ctx.operands(ret).len() != 1 || args.len() < 2 {
        return false;
    }
    let (mut l, mut r) = (c.lhs(ctx), c.rhs(ctx));
    let canonical = match (canonicalised(ctx, l), canonicalised(ctx, r)) {
        (Some(a), Some(b)) => {
            (l, r) = (a, b);
            true
        }
        _ => false,
    };
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
        .unwrap_or(-1);
    if dim < 0 {
        dim += rank as i64;
    }
    let mut attrs = vec![("dimension", Some(i64_attr(ctx, dim)))];
    let unit = ctx.uniquer().attr(AttrKind::Unit);
    if descending {
        attrs.push(("descending", Some(unit)));
    }
    if canonical {
        attrs.push(("canonical", Some(unit)));
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

/// Whether the two-input reducer `r` is JAX's `argmax` (`Gt`) or `argmin`
/// (`Lt`): the value kept where it compares so with the other (or is NaN),
/// the index kept there or, on ties, the smaller.
fn arg_reducer(ctx: &Context, r: Region) -> Option<shlo::ComparisonDirection> {
    use shlo::ComparisonDirection as D;
    let b = ctx.entry_block(r)?;
    let [l0, l1, r0, r1] = ctx.block_args(b)[..] else {
        return None;
    };
    let ret = ctx.block_ops(b).last()?;
    let [v0, v1] = ctx.operands(ret)[..] else {
        return None;
    };
    let cmp = |v: Value, d: D, x: Value, y: Value| {
        shlo::Compare::defining(ctx, v).is_some_and(|c| {
            c.comparison_direction(ctx) == Some(d) && c.lhs(ctx) == x && c.rhs(ctx) == y
        })
    };
    let both = |v: Value, f: &dyn Fn(Value, Value) -> bool, or: bool| -> bool {
        let ops = match (shlo::Or::defining(ctx, v), shlo::And::defining(ctx, v)) {
            (Some(o), _) if or => [o.lhs(ctx), o.rhs(ctx)],
            (_, Some(a)) if !or => [a.lhs(ctx), a.rhs(ctx)],
            _ => return false,
        };
        f(ops[0], ops[1]) || f(ops[1], ops[0])
    };
    let s0 = shlo::Select::defining(ctx, v0)?;
    let s1 = shlo::Select::defining(ctx, v1)?;
    if (
        s0.on_true(ctx),
        s0.on_false(ctx),
        s1.on_true(ctx),
        s1.on_false(ctx),
    ) != (l0, r0, l1, r1)
    {
        return None;
    }
    let p = s0.pred(ctx);
    let dir = [D::Gt, D::Lt].into_iter().find(|d| {
        cmp(p, *d, l0, r0) || both(p, &|a, b| cmp(a, *d, l0, r0) && cmp(b, D::Ne, l0, l0), true)
    })?;
    let tie = |a: Value, b: Value| {
        a == p
            && both(
                b,
                &|e, l| cmp(e, D::Eq, l0, r0) && cmp(l, D::Lt, l1, r1),
                false,
            )
    };
    both(s1.pred(ctx), &tie, true).then_some(dir)
}

/// A `reduce` of values and their iota along one dim from (the identity,
/// 0) by JAX's `argmax`/`argmin` reducer becomes the max (min) `graph.reduce`
/// and the smallest index where the values equal it (or are NaN): a
/// `graph.reduce min` of the iota selected there.
static ARG_REDUCE: OpConversion<Reduce> = OpConversion::new("arg_reduce", |rw, r, operands| {
    use shlo::ComparisonDirection as D;
    let ctx = &*rw.ctx;
    let op = r.op();
    let [x, iota, init, zero] = operands[..] else {
        return false;
    };
    let Some(dir) = arg_reducer(ctx, r.body(ctx)) else {
        return false;
    };
    let Some(dims) = r.dimensions(ctx) else {
        return false;
    };
    let [d] = dims[..] else { return false };
    let along = |v: Value| {
        shlo::Iota::defining(ctx, v).is_some_and(|i| i.iota_dimension(ctx) == Some(d))
            || graph::Iota::defining(ctx, v).is_some_and(|i| i.dim(ctx) == Some(d))
    };
    let value = |v: Value| -> Option<aic::interp::Tensor> {
        let a = if let Some(c) = shlo::Constant::defining(ctx, v) {
            c.value(ctx)?
        } else {
            graph::Constant::defining(ctx, v)?.value(ctx)?
        };
        tensor_of_attr(ctx, a, ctx.value_type(v))
    };
    let (Some(i0), Some(z)) = (value(init), value(zero)) else {
        return false;
    };
    let identity = match (&i0.data, dir) {
        (Data::Float(v), D::Gt) => v.first() == f64::NEG_INFINITY,
        (Data::Float(v), _) => v.first() == f64::INFINITY,
        _ => false,
    };
    if !along(iota) || !identity || !matches!(&z.data, Data::Int(v) if v.first() == 0) {
        return false;
    }
    let xt = ctx.value_type(x);
    let Some(xs) = ctx.type_kind(xt).shape().map(<[i64]>::to_vec) else {
        return false;
    };
    let n = xs.get(d as usize).copied().unwrap_or(1);
    let (t0, t1) = (
        ctx.value_type(ctx.result(op, 0)),
        ctx.value_type(ctx.result(op, 1)),
    );
    let u = ctx.uniquer().clone();
    let kind = if dir == D::Gt {
        ReduceKind::Max
    } else {
        ReduceKind::Min
    };
    let axes = Some(u.i64_array(&[d]));
    let kept: Vec<i64> = (0..xs.len() as i64).filter(|k| *k != d).collect();
    let pt = u.ty(TypeKind::Tensor {
        shape: xs.iter().copied().collect(),
        elem: u.int_type(1),
        encoding: None,
    });
    let build = |rw: &mut ConversionRewriter<'_>,
                 spec: &'static OpSpec,
                 ins: &[Value],
                 attrs: &[(&str, Option<Attr>)],
                 ty: Type| {
        let o = aic::op_def::build(&mut rw.before(op), spec, &[ins], attrs, &[&[ty]]);
        rw.ctx.result(o, 0)
    };
    let m = build(
        rw,
        &graph::REDUCE,
        &[x],
        &[("kind", Some(kind.attr(&u))), ("axes", axes)],
        t0,
    );
    let mb = build(
        rw,
        &graph::BROADCAST,
        &[m],
        &[("dims", Some(u.i64_array(&kept)))],
        xt,
    );
    let dirs = |d: D| Some(d.attr(&u));
    let eq = build(
        rw,
        &graph::COMPARE,
        &[x, mb],
        &[("direction", dirs(D::Eq))],
        pt,
    );
    let nan = build(
        rw,
        &graph::COMPARE,
        &[x, x],
        &[("direction", dirs(D::Ne))],
        pt,
    );
    let hit = build(rw, &graph::OR, &[eq, nan], &[], pt);
    let it_t = rw.ctx.value_type(iota);
    let big = splat_constant(rw, op, it_t, n);
    let sel = build(rw, &graph::SELECT, &[hit, iota, big], &[], it_t);
    let idx = build(
        rw,
        &graph::REDUCE,
        &[sel],
        &[("kind", Some(ReduceKind::Min.attr(&u))), ("axes", axes)],
        t1,
    );
    rw.replace_op(op, &[m, idx]);
    true
});

/// `dot_general` in matrix-product form becomes `graph.matmul`.
static DOT_GENERAL: OpConversion<DotGeneral> =
    OpConversion::new("dot_general", |rw, d, operands| {
        let Some((ta, tb)) = matmul_transposes(rw.ctx, d) else {
            return vector_dot(rw, d, operands) || general_dot(rw, d, operands);
        };
        let attrs = transpose_flags(rw.ctx.uniquer(), ta, tb);
        replace(rw, d.op(), &graph::MATMUL, operands, &attrs)
    });

/// `graph.matmul`'s transpose attributes.
fn transpose_flags(u: &aic::ir::Uniquer, ta: bool, tb: bool) -> Vec<(&'static str, Option<Attr>)> {
    let unit = u.attr(AttrKind::Unit);
    [("transpose_a", ta), ("transpose_b", tb)]
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| (name, Some(unit)))
        .collect()
}

/// Replaces the `dot_general` `op` by `graph.matmul(a, b)` (with the
/// transpose flags) of result type `mm_t`, reshaped to `op`'s result type
/// where that differs.
fn matmul_into(
    rw: &mut ConversionRewriter<'_>,
    op: Op,
    (a, b): (Value, Value),
    (ta, tb): (bool, bool),
    mm_t: Type,
) -> bool {
    let attrs = transpose_flags(rw.ctx.uniquer(), ta, tb);
    let mm = aic::op_def::build(
        &mut rw.before(op),
        &graph::MATMUL,
        &[&[a, b]],
        &attrs,
        &[&[mm_t]],
    );
    let mut x = rw.ctx.result(mm, 0);
    let r = rw.ctx.value_type(rw.ctx.result(op, 0));
    if mm_t != r {
        let back = aic::op_def::build(&mut rw.before(op), &graph::RESHAPE, &[&[x]], &[], &[&[r]]);
        x = rw.ctx.result(back, 0);
    }
    rw.replace_op(op, &[x]);
    true
}

/// A `dot_general`'s dimension numbers and its operands' shapes.
fn dot_shapes(
    ctx: &Context,
    d: DotGeneral,
    operands: &[Value],
) -> Option<(DotDims, Vec<i64>, Vec<i64>)> {
    let dims = DotDims::of(ctx, d.dot_dimension_numbers(ctx)?)?.clone();
    let shape = |v: Value| {
        ctx.type_kind(ctx.value_type(v))
            .shape()
            .map(<[i64]>::to_vec)
    };
    Some((dims, shape(operands[0])?, shape(operands[1])?))
}

/// A `dot_general` without batch dimensions with a vector operand
/// (matrix-vector, vector-matrix, or a dot product), contracting one
/// dimension: the vector reshaped to a matrix of one row or column, a
/// `graph.matmul`, and its result reshaped to the dot's.
fn vector_dot(rw: &mut ConversionRewriter<'_>, d: DotGeneral, operands: &[Value]) -> bool {
    let ctx = &*rw.ctx;
    let Some((dims, ls, rs)) = dot_shapes(ctx, d, operands) else {
        return false;
    };
    let (lr, rr) = (ls.len(), rs.len());
    let plain = dims.lhs_batch.is_empty()
        && dims.rhs_batch.is_empty()
        && dims.lhs_contract.len() == 1
        && dims.rhs_contract.len() == 1
        && (lr == 1 || rr == 1)
        && lr <= 2
        && rr <= 2;
    if !plain {
        return false;
    }
    let (lc, rc) = (dims.lhs_contract[0] as usize, dims.rhs_contract[0] as usize);
    let op = d.op();
    let r = ctx.value_type(ctx.result(op, 0));
    let Some(elem) = ctx.type_kind(r).element_type() else {
        return false;
    };
    let u = rw.ctx.uniquer().clone();
    let elem_of = |v: Value| rw.ctx.type_kind(rw.ctx.value_type(v)).element_type();
    let (Some(le), Some(re)) = (elem_of(operands[0]), elem_of(operands[1])) else {
        return false;
    };
    // lhs as [M, K] (a vector is one row), rhs as [K, N] (a column).
    let (a, ta, m) = if lr == 1 {
        let t = u.tensor_type(&[1, ls[0]], le);
        let v = aic::op_def::build(
            &mut rw.before(op),
            &graph::RESHAPE,
            &[&operands[..1]],
            &[],
            &[&[t]],
        );
        (rw.ctx.result(v, 0), false, 1)
    } else {
        (operands[0], lc == 0, ls[1 - lc])
    };
    let (b, tb, n) = if rr == 1 {
        let t = u.tensor_type(&[rs[0], 1], re);
        let v = aic::op_def::build(
            &mut rw.before(op),
            &graph::RESHAPE,
            &[&operands[1..]],
            &[],
            &[&[t]],
        );
        (rw.ctx.result(v, 0), false, 1)
    } else {
        (operands[1], rc == 1, rs[1 - rc])
    };
    matmul_into(rw, op, (a, b), (ta, tb), u.tensor_type(&[m, n], elem))
}

/// Any other `dot_general` (einsum's `bqhd,bkhd->bhqk`: batch dims that do
/// not lead, several free or contracted dims): the lhs transposed to
/// `[batch, free, contracted]` and the rhs to `[batch, contracted, free]`,
/// each reshaped to one matrix a batch, a batched `graph.matmul`, and its
/// `[batch, M, N]` reshaped to the dot's result (batch, lhs free, rhs free:
/// the same order). Fusion takes the transposes and reshapes as views of
/// the GEMM's operands.
fn general_dot(rw: &mut ConversionRewriter<'_>, d: DotGeneral, operands: &[Value]) -> bool {
    let ctx = &*rw.ctx;
    let Some((dims, ls, rs)) = dot_shapes(ctx, d, operands) else {
        return false;
    };
    let op = d.op();
    let elem_of = |v: Value| ctx.type_kind(ctx.value_type(v)).element_type();
    let (Some(elem), Some(le), Some(re)) = (
        elem_of(ctx.result(op, 0)),
        elem_of(operands[0]),
        elem_of(operands[1]),
    ) else {
        return false;
    };
    let free = |n: usize, batch: &[i64], con: &[i64]| -> Vec<i64> {
        (0..n as i64)
            .filter(|x| !batch.contains(x) && !con.contains(x))
            .collect()
    };
    let lf = free(ls.len(), &dims.lhs_batch, &dims.lhs_contract);
    let rf = free(rs.len(), &dims.rhs_batch, &dims.rhs_contract);
    let size = |s: &[i64], ds: &[i64]| ds.iter().map(|x| s[*x as usize]).product::<i64>();
    let batch: Vec<i64> = dims.lhs_batch.iter().map(|x| ls[*x as usize]).collect();
    let (m, k, n) = (
        size(&ls, &lf),
        size(&ls, &dims.lhs_contract),
        size(&rs, &rf),
    );
    if k != size(&rs, &dims.rhs_contract) {
        return false;
    }
    let u = rw.ctx.uniquer().clone();
    // `x` permuted by `perm` and reshaped to `to`, each step only if needed.
    let arrange = |rw: &mut ConversionRewriter<'_>,
                   x: Value,
                   s: &[i64],
                   perm: Vec<i64>,
                   to: Vec<i64>,
                   e: Type| {
        let mut v = x;
        if perm.iter().enumerate().any(|(i, p)| *p != i as i64) {
            let ps: Vec<i64> = perm.iter().map(|p| s[*p as usize]).collect();
            let t = u.tensor_type(&ps, e);
            let o = aic::op_def::build(
                &mut rw.before(op),
                &graph::TRANSPOSE,
                &[&[v]],
                &[("perm", Some(u.i64_array(&perm)))],
                &[&[t]],
            );
            v = rw.ctx.result(o, 0);
        }
        if rw.ctx.type_kind(rw.ctx.value_type(v)).shape() != Some(to.as_slice()) {
            let t = u.tensor_type(&to, e);
            let o = aic::op_def::build(&mut rw.before(op), &graph::RESHAPE, &[&[v]], &[], &[&[t]]);
            v = rw.ctx.result(o, 0);
        }
        v
    };
    let with = |head: &[i64], tail: &[i64]| [head, tail].concat();
    // Each operand as a matrix either way round (a transpose flag for the
    // other): the way that needs no transpose, else the one that keeps the
    // innermost dim innermost (a cheap view), else the plain one.
    let pick = |rank: usize, batch: &[i64], plain: [&[i64]; 2], flipped: [&[i64]; 2]| {
        let p = [batch, plain[0], plain[1]].concat();
        let q = [batch, flipped[0], flipped[1]].concat();
        let identity = |x: &[i64]| x.iter().enumerate().all(|(i, v)| *v == i as i64);
        let inner = |x: &[i64]| x.last() == Some(&(rank as i64 - 1));
        if identity(&p) || (!identity(&q) && (inner(&p) || !inner(&q))) {
            (p, false)
        } else {
            (q, true)
        }
    };
    let (lp, ta) = pick(
        ls.len(),
        &dims.lhs_batch,
        [&lf, &dims.lhs_contract],
        [&dims.lhs_contract, &lf],
    );
    let (rp, tb) = pick(
        rs.len(),
        &dims.rhs_batch,
        [&dims.rhs_contract, &rf],
        [&rf, &dims.rhs_contract],
    );
    let a = arrange(
        rw,
        operands[0],
        &ls,
        lp,
        with(&batch, &if ta { [k, m] } else { [m, k] }),
        le,
    );
    let b = arrange(
        rw,
        operands[1],
        &rs,
        rp,
        with(&batch, &if tb { [n, k] } else { [k, n] }),
        re,
    );
    let mm_t = u.tensor_type(&with(&batch, &[m, n]), elem);
    matmul_into(rw, op, (a, b), (ta, tb), mm_t)
}

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

/// 2-d `convolution` in NHWC/HWIO or NCHW/OIHW layout becomes `graph.conv2d`
/// (its result in the other layout: transposed after, as ViT's patch
/// embedding writes NCHW into NHWC).
static CONVOLUTION: OpConversion<Convolution> =
    OpConversion::new("convolution", |rw, c, operands| {
        let Some((attrs, out)) = conv2d_attrs(rw.ctx, c) else {
            return false;
        };
        let op = c.op();
        let Some(perm) = out else {
            return replace(rw, op, &graph::CONV2D, operands, &attrs);
        };
        // The result in the conv's own layout, then transposed.
        let r = rw.ctx.value_type(rw.ctx.result(op, 0));
        let (Some(shape), Some(elem)) = (
            rw.ctx.type_kind(r).shape().map(<[i64]>::to_vec),
            rw.ctx.type_kind(r).element_type(),
        ) else {
            return false;
        };
        // Result dim `perm[i]` of the conv is dim `i` here.
        let mut own = vec![0; shape.len()];
        for (i, p) in perm.iter().enumerate() {
            own[*p as usize] = shape[i];
        }
        let u = rw.ctx.uniquer().clone();
        let t = u.ty(TypeKind::Tensor {
            shape: own.into_iter().collect(),
            elem,
            encoding: None,
        });
        let conv = aic::op_def::build(
            &mut rw.before(op),
            &graph::CONV2D,
            &[operands],
            &attrs,
            &[&[t]],
        );
        let x = rw.ctx.result(conv, 0);
        let tr = aic::op_def::build(
            &mut rw.before(op),
            &graph::TRANSPOSE,
            &[&[x]],
            &[("perm", Some(u.i64_array(&perm)))],
            &[&[r]],
        );
        let res = rw.ctx.result(tr, 0);
        rw.replace_op(op, &[res]);
        true
    });

/// The transpose from an NCHW result to NHWC.
const NCHW_TO_NHWC: [i64; 4] = [0, 2, 3, 1];
/// The transpose from an NHWC result to NCHW.
const NHWC_TO_NCHW: [i64; 4] = [0, 3, 1, 2];

/// The attributes of the `graph.conv2d` that expresses `c`, if one does,
/// and the transpose of its result into `c`'s (where the result's layout is
/// the other one).
#[allow(clippy::type_complexity)]
fn conv2d_attrs(
    ctx: &Context,
    c: Convolution,
) -> Option<(Vec<(&'static str, Option<Attr>)>, Option<[i64; 4]>)> {
    let d = ConvDims::of(ctx, c.dimension_numbers(ctx)?)?;
    let (layout, out) = match d.compact().as_str() {
        "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]" => (ConvLayout::Nhwc, None),
        "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]" => (ConvLayout::Nchw, None),
        "[b, 0, 1, f]x[0, 1, i, o]->[b, f, 0, 1]" => (ConvLayout::Nhwc, Some(NHWC_TO_NCHW)),
        "[b, f, 0, 1]x[o, i, 0, 1]->[b, 0, 1, f]" => (ConvLayout::Nchw, Some(NCHW_TO_NHWC)),
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
    Some((attrs, out))
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

/// Ops nested in a StableHLO op's regions (reduction bodies, comparators)
/// are legal: they belong to the op that holds them. The bodies of control
/// flow (`while`, `if`, `case`) are program like a function's, converted
/// as it is, but for their terminators. Others are offered to the patterns
/// and stay where none converts them.
fn inside_stablehlo(ctx: &Context, op: Op) -> Option<bool> {
    let control = |q: Op| {
        shlo::structured::While::is(ctx, q)
            || shlo::structured::If::is(ctx, q)
            || shlo::structured::Case::is(ctx, q)
    };
    let mut p = ctx.parent_op(op);
    while let Some(q) = p {
        if control(q) {
            return shlo::structured::Return::is(ctx, op).then_some(true);
        }
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
            &INT_ABS,
            &SIGN,
            &SQUARE,
            &BROADCAST_IN_DIM,
            &TRANSPOSE,
            &SLICE,
            &CONCATENATE,
            &REDUCE,
            &ARG_REDUCE,
            &DOT_GENERAL,
            &CONVOLUTION,
            &COMPARE,
            &IOTA,
            &DYNAMIC_IOTA,
            &DYNAMIC_RESHAPE,
            &DYNAMIC_BROADCAST_IN_DIM,
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
