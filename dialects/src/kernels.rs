//! The tensor kernels of the reference interpreter that the StableHLO and graph
//! semantics share: index arithmetic over row-major shapes, elementwise scalar
//! functions, broadcast, transpose, slicing, concatenation, conversion between
//! element kinds, grouped reductions, `dot_general` and convolution. They know
//! tensors and element kinds, not ops: each dialect's interpreter reads its
//! op's attributes and calls them.
//!
//! They live in the dialects crate, beside the dialects that use them, because
//! they compute with the C library's functions as `math` folds with them
//! ([`crate::math::fold::libm`]) and run on StableHLO's dimension numbers.

use crate::arith::{self, scalar::Bits};
use crate::math::fold::libm;
use aic::interp::{Buffer, Data, Elem, IResult, InterpError, Ints, Tensor};
use aic::ir::{Context, Op};
use aic::types::{Signedness, Type};

/// The dimension numbers of a `dot_general` (`#stablehlo.dot<...>`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DotDims {
    /// Batch dimensions of the left operand.
    pub lhs_batch: Vec<i64>,
    /// Batch dimensions of the right operand.
    pub rhs_batch: Vec<i64>,
    /// Contracted dimensions of the left operand.
    pub lhs_contract: Vec<i64>,
    /// Contracted dimensions of the right operand.
    pub rhs_contract: Vec<i64>,
}

/// The dimension numbers of a convolution (`#stablehlo.conv<...>`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConvDims {
    /// Input batch dimension.
    pub in_batch: i64,
    /// Input feature dimension.
    pub in_feature: i64,
    /// Input spatial dimensions.
    pub in_spatial: Vec<i64>,
    /// Kernel input-feature dimension.
    pub k_in: i64,
    /// Kernel output-feature dimension.
    pub k_out: i64,
    /// Kernel spatial dimensions.
    pub k_spatial: Vec<i64>,
    /// Output batch dimension.
    pub out_batch: i64,
    /// Output feature dimension.
    pub out_feature: i64,
    /// Output spatial dimensions.
    pub out_spatial: Vec<i64>,
}

pub(crate) fn result_type(ctx: &Context, op: Op, i: usize) -> Type {
    ctx.value_type(ctx.result(op, i))
}

/// A tensor of result `i`'s type holding `data`.
pub(crate) fn out(ctx: &Context, op: Op, i: usize, data: Data) -> Tensor {
    Tensor::new(ctx, result_type(ctx, op, i), data)
}

pub(crate) fn elem_of(ctx: &Context, op: Op, t: Type) -> IResult<Elem> {
    Elem::of(ctx, t).ok_or_else(|| InterpError::at(op, "unsupported element type"))
}

pub(crate) fn result_elem(ctx: &Context, op: Op, i: usize) -> IResult<Elem> {
    elem_of(ctx, op, result_type(ctx, op, i))
}

/// The static shape of result `i` (dynamic shapes are not supported).
pub(crate) fn result_shape(ctx: &Context, op: Op, i: usize) -> IResult<Vec<i64>> {
    let s = ctx
        .type_kind(result_type(ctx, op, i))
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    if s.iter().any(|d| *d < 0) {
        return Err(InterpError::at(
            op,
            "dynamic shapes are not supported by the interpreter",
        ));
    }
    Ok(s)
}

pub(crate) fn strides(shape: &[i64]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1].max(0) as usize;
    }
    s
}

pub(crate) fn count(shape: &[i64]) -> usize {
    shape.iter().map(|d| (*d).max(0) as usize).product()
}

/// Call `f` with every multi-index of `shape` in row-major order.
pub(crate) fn for_each_index(shape: &[i64], mut f: impl FnMut(&[i64])) {
    if shape.iter().any(|d| *d <= 0) {
        return;
    }
    let mut idx = vec![0i64; shape.len()];
    loop {
        f(&idx);
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// Elements of `d` at `idx` (`None`: the first element of `fill`).
pub(crate) fn take(d: &Data, idx: &[Option<usize>], fill: Option<&Data>) -> Data {
    d.take(idx.iter().copied(), fill)
}

/// `f` of every multi-index of `shape` in row-major order, one at a time
/// (no vector of indices).
pub(crate) fn map_indices<'a, T>(
    shape: &'a [i64],
    mut f: impl FnMut(&[i64]) -> T + 'a,
) -> impl Iterator<Item = T> + 'a {
    let n = count(shape);
    let mut cur = vec![0i64; shape.len()];
    (0..n).map(move |k| {
        if k > 0 {
            for d in (0..cur.len()).rev() {
                cur[d] += 1;
                if cur[d] < shape[d] {
                    break;
                }
                cur[d] = 0;
            }
        }
        f(&cur)
    })
}

/// The linear index in a tensor of `shape` of the multi-index `idx`.
pub(crate) fn linear(idx: &[i64], st: &[usize]) -> usize {
    idx.iter().zip(st).map(|(i, s)| *i as usize * s).sum()
}

pub(crate) fn is_unsigned(e: Elem) -> bool {
    e.is_unsigned()
}

pub(crate) fn width(e: Elem) -> u32 {
    match e {
        Elem::Int { width, .. } => width,
        _ => 64,
    }
}

pub(crate) fn is_bool(e: Elem) -> bool {
    matches!(
        e,
        Elem::Int {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// The unsigned bits of an integer element.
pub(crate) fn bits(e: Elem, v: i64) -> u64 {
    let w = width(e);
    if w >= 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << w) - 1)
    }
}

/// An integer element as a mathematical value (`i128`).
pub(crate) fn value(e: Elem, v: i64) -> i128 {
    if is_unsigned(e) {
        i128::from(bits(e, v))
    } else if is_bool(e) {
        i128::from(v != 0)
    } else {
        i128::from(v)
    }
}

pub(crate) fn to_f64(e: Elem, v: i64) -> f64 {
    value(e, v) as f64
}

pub(crate) fn unsupported(op: Op, ctx: &Context, what: &str) -> InterpError {
    InterpError::at(
        op,
        format!("'{}' is not defined on {what}", ctx.op_name(op)),
    )
}

/// `convert` between element kinds, as the spec defines it.
pub(crate) fn convert(d: &Data, from: Elem, to: Elem) -> Data {
    let k = to.float_kind();
    match (d, to) {
        (Data::Int(v), Elem::Float(_)) => Data::from_f64s(k, v.iter().map(|x| to_f64(from, x))),
        (Data::Int(v), Elem::Complex(_)) => {
            Data::from_complex(k, v.iter().map(|x| (to_f64(from, x), 0.0)))
        }
        (Data::Int(v), _) => Data::from_i64s(
            to,
            v.iter().map(|x| {
                if is_bool(to) {
                    to.wrap(i128::from(x != 0))
                } else {
                    to.wrap(value(from, x))
                }
            }),
        ),
        (Data::Float(v), Elem::Float(_)) => Data::from_f64s(k, v.iter()),
        (Data::Float(v), Elem::Complex(_)) => Data::from_complex(k, v.iter().map(|x| (x, 0.0))),
        (Data::Float(v), _) => Data::from_i64s(to, v.iter().map(|x| float_to_int(x, to))),
        (Data::Complex(v), Elem::Complex(_)) => Data::from_complex(k, v.iter()),
        (Data::Complex(v), Elem::Float(_)) => Data::from_f64s(k, v.iter().map(|c| c.0)),
        (Data::Complex(v), _) => Data::from_i64s(to, v.iter().map(|c| float_to_int(c.0, to))),
        (Data::Tuple(t), _) => Data::Tuple(t.clone()),
    }
}

/// A float to an integer kind: truncated toward zero, saturating at the
/// type's bounds, NaN to zero; to `i1`, whether it is non-zero.
pub(crate) fn float_to_int(x: f64, to: Elem) -> i64 {
    if is_bool(to) {
        return to.wrap(i128::from(x != 0.0));
    }
    if x.is_nan() {
        return 0;
    }
    let w = width(to);
    let (lo, hi) = if is_unsigned(to) {
        (0i128, (1i128 << w) - 1)
    } else {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    };
    let t = x.trunc();
    let v = if t <= lo as f64 {
        lo
    } else if t >= hi as f64 {
        hi
    } else {
        t as i128
    };
    to.wrap(v)
}

/// Operand `i` brought to the result's element count (scalars broadcast).
pub(crate) fn at<B: Buffer + ?Sized>(v: &B, i: usize) -> B::Item {
    v.at(i)
}

/// An integer binary op's meaning.
#[derive(Clone, Copy)]
pub(crate) enum IntOp {
    /// arith's row for the op (see [`crate::arith::scalar`]), whose result,
    /// wrapped to the element type, is StableHLO's too.
    Arith(&'static arith::scalar::IntRow),
    /// XLA's rule, on the element type's mathematical values ([`value`]).
    Xla(fn(Elem, i64, i64) -> i128),
}

/// A float binary op's meaning.
#[derive(Clone, Copy)]
pub(crate) enum FloatOp {
    /// arith's row for the op (see [`crate::arith::scalar`]).
    Arith(&'static arith::scalar::FloatRow),
    /// A function of its own.
    Own(fn(f64, f64) -> f64),
}

/// The scalar meaning of a binary elementwise op on each element kind
/// (`None` where the op does not take that kind).
pub(crate) struct Binary {
    pub(crate) int: Option<IntOp>,
    pub(crate) float: Option<FloatOp>,
    pub(crate) complex: Option<fn(C, C) -> C>,
}

impl Binary {
    /// The integer function (element type, operands), resolved once.
    pub(crate) fn int(&self) -> Option<impl Fn(Elem, i64, i64) -> i128 + Copy> {
        let f = match self.int? {
            IntOp::Arith(r) => Ok(r.f),
            IntOp::Xla(f) => Err(f),
        };
        Some(move |e: Elem, a: i64, b: i64| match f {
            Ok(g) => {
                let w = width(e);
                g(Bits::new(i128::from(a), w), Bits::new(i128::from(b), w)).unwrap_or(0)
            }
            Err(g) => g(e, a, b),
        })
    }
    /// The float function.
    pub(crate) fn float(&self) -> Option<fn(f64, f64) -> f64> {
        match self.float? {
            FloatOp::Arith(r) => Some(r.f),
            FloatOp::Own(f) => Some(f),
        }
    }
}

/// `add`: a predicate's sum is its `or`.
pub(crate) const ADD: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let (x, y) = (value(e, a), value(e, b));
        if is_bool(e) { x | y } else { x + y }
    })),
    float: Some(FloatOp::Arith(&arith::scalar::ADDF)),
    complex: Some(|a, b| (a.0 + b.0, a.1 + b.1)),
};
/// `subtract`.
pub(crate) const SUBTRACT: Binary = Binary {
    int: Some(IntOp::Arith(&arith::scalar::SUBI)),
    float: Some(FloatOp::Arith(&arith::scalar::SUBF)),
    complex: Some(|a, b| (a.0 - b.0, a.1 - b.1)),
};
/// `multiply`.
pub(crate) const MULTIPLY: Binary = Binary {
    int: Some(IntOp::Arith(&arith::scalar::MULI)),
    float: Some(FloatOp::Arith(&arith::scalar::MULF)),
    complex: Some(c_mul),
};
/// `divide`: XLA's `x / 0` is -1 (all ones); `MIN / -1` wraps.
pub(crate) const DIVIDE: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let (x, y) = (value(e, a), value(e, b));
        if y == 0 { -1 } else { x / y }
    })),
    float: Some(FloatOp::Arith(&arith::scalar::DIVF)),
    complex: Some(c_div),
};
/// `remainder`: XLA's `x % 0` is `x`; `MIN % -1` is 0.
pub(crate) const REMAINDER: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let (x, y) = (value(e, a), value(e, b));
        if y == 0 { x } else { x % y }
    })),
    float: Some(FloatOp::Arith(&arith::scalar::REMF)),
    complex: None,
};
/// `power`: integer powers by squaring (wrapping); negative exponents give
/// 0 except for the bases 1 and -1.
pub(crate) const POWER: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let (x, y) = (value(e, a), value(e, b));
        if y < 0 {
            match x {
                1 => 1,
                -1 => {
                    if y % 2 == 0 {
                        1
                    } else {
                        -1
                    }
                }
                _ => 0,
            }
        } else {
            let (mut base, mut exp, mut acc) = (x as i64, y as u64, 1i64);
            while exp > 0 {
                if exp & 1 == 1 {
                    acc = acc.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                exp >>= 1;
            }
            i128::from(acc)
        }
    })),
    float: Some(FloatOp::Own(|a, b| libm::pow(a, b))),
    complex: Some(|a, b| {
        if a == (0.0, 0.0) {
            return if b == (0.0, 0.0) {
                (1.0, 0.0)
            } else {
                (0.0, 0.0)
            };
        }
        c_exp(c_mul(b, c_log(a)))
    }),
};
/// `maximum` (on the element type's values; NaN propagates).
pub(crate) const MAXIMUM: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| value(e, a).max(value(e, b)))),
    float: Some(FloatOp::Arith(&arith::scalar::MAXIMUMF)),
    complex: Some(|a, b| if c_less(a, b) { b } else { a }),
};
/// `minimum` (on the element type's values; NaN propagates).
pub(crate) const MINIMUM: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| value(e, a).min(value(e, b)))),
    float: Some(FloatOp::Arith(&arith::scalar::MINIMUMF)),
    complex: Some(|a, b| if c_less(b, a) { b } else { a }),
};
/// `atan2`.
pub(crate) const ATAN2: Binary = Binary {
    int: None,
    float: Some(FloatOp::Own(|a, b| libm::atan2(a, b))),
    complex: Some(c_atan2),
};

/// `chlo.mulhi`: the upper half of the double-width product.
pub(crate) const MULHI: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        (value(e, a) * value(e, b)) >> width(e)
    })),
    float: None,
    complex: None,
};

/// The spec's order on complex numbers: by real part, then imaginary part (a
/// NaN component compares false, so the first operand is kept).
fn c_less(a: C, b: C) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// `atan2(y, x)` on complex numbers: `-i log((x + iy) / sqrt(x² + y²))`.
fn c_atan2(y: C, x: C) -> C {
    let i_y = (-y.1, y.0);
    let z = (x.0 + i_y.0, x.1 + i_y.1);
    let x2 = c_mul(x, x);
    let y2 = c_mul(y, y);
    let r = c_sqrt((x2.0 + y2.0, x2.1 + y2.1));
    let l = c_log(c_div(z, r));
    (l.1, -l.0)
}
/// `and`.
pub(crate) const AND: Binary = Binary {
    int: Some(IntOp::Arith(&arith::scalar::ANDI)),
    float: None,
    complex: None,
};
/// `or`.
pub(crate) const OR: Binary = Binary {
    int: Some(IntOp::Arith(&arith::scalar::ORI)),
    float: None,
    complex: None,
};
/// `xor`.
pub(crate) const XOR: Binary = Binary {
    int: Some(IntOp::Arith(&arith::scalar::XORI)),
    float: None,
    complex: None,
};
/// `shift_left`: shifting by the width or more gives 0.
pub(crate) const SHIFT_LEFT: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let s = bits(e, b);
        if s >= u64::from(width(e)) {
            0
        } else {
            i128::from(bits(e, a) << s)
        }
    })),
    float: None,
    complex: None,
};
/// `shift_right_logical`: shifting by the width or more gives 0.
pub(crate) const SHIFT_RIGHT_LOGICAL: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let s = bits(e, b);
        if s >= u64::from(width(e)) {
            0
        } else {
            i128::from(bits(e, a) >> s)
        }
    })),
    float: None,
    complex: None,
};
/// `shift_right_arithmetic`: shifting by the width or more fills with the sign.
pub(crate) const SHIFT_RIGHT_ARITHMETIC: Binary = Binary {
    int: Some(IntOp::Xla(|e, a, b| {
        let w = width(e);
        let s = bits(e, b).min(u64::from(w) - 1);
        if is_unsigned(e) {
            // The sign bit of the unsigned pattern fills in.
            let sv = (bits(e, a) << (64 - w)) as i64 >> (64 - w);
            i128::from(sv >> s)
        } else {
            i128::from(a >> s)
        }
    })),
    float: None,
    complex: None,
};

/// A reduction combiner with a typed fast path ([`fold_floats`], [`fold_ints`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Combiner {
    /// [`ADD`].
    Add,
    /// [`MULTIPLY`].
    Multiply,
    /// [`MAXIMUM`].
    Maximum,
    /// [`MINIMUM`].
    Minimum,
    /// [`AND`].
    And,
    /// [`OR`].
    Or,
    /// [`XOR`].
    Xor,
}

/// Operand dimension `k` of `a` becomes result dimension `dims[k]` (size 1
/// stretches): `broadcast_in_dim`'s and `graph.broadcast`'s meaning.
pub(crate) fn broadcast_to(ctx: &Context, op: Op, a: &Tensor, dims: &[i64]) -> IResult<Tensor> {
    let shape = result_shape(ctx, op, 0)?;
    broadcast_onto(ctx, op, a, dims, &shape)
}

/// [`broadcast_to`] onto a given shape (`dynamic_broadcast_in_dim`'s).
pub(crate) fn broadcast_onto(
    ctx: &Context,
    op: Op,
    a: &Tensor,
    dims: &[i64],
    shape: &[i64],
) -> IResult<Tensor> {
    let st = strides(&a.shape);
    remap_to(ctx, op, shape, a, None, |i| {
        Some(
            dims.iter()
                .enumerate()
                .map(|(k, d)| {
                    if a.shape[k] == 1 {
                        0
                    } else {
                        i[*d as usize] as usize * st[k]
                    }
                })
                .sum(),
        )
    })
}

/// Result dimension `j` is operand dimension `perm[j]`.
pub(crate) fn permute(ctx: &Context, op: Op, a: &Tensor, perm: &[i64]) -> IResult<Tensor> {
    let st = strides(&a.shape);
    remap(ctx, op, a, None, |i| {
        Some(
            perm.iter()
                .enumerate()
                .map(|(j, p)| i[j] as usize * st[*p as usize])
                .sum(),
        )
    })
}

/// The elements at `start + i * step` in every dimension.
pub(crate) fn strided_slice(
    ctx: &Context,
    op: Op,
    a: &Tensor,
    start: &[i64],
    step: &[i64],
) -> IResult<Tensor> {
    let st = strides(&a.shape);
    remap(ctx, op, a, None, |i| {
        Some(
            (0..i.len())
                .map(|k| (start[k] + i[k] * step[k]) as usize * st[k])
                .sum(),
        )
    })
}

/// The elements of several tensors one after the other.
pub(crate) fn concat_data(parts: &[&Data]) -> Data {
    let Some((first, rest)) = parts.split_first() else {
        return Data::Int(Ints::I64(Vec::new()));
    };
    let mut all = (*first).clone();
    for d in rest {
        all.extend_from(d);
    }
    all
}

/// `args` joined along dimension `d` into result 0 of `op`.
pub(crate) fn concat_along(ctx: &Context, op: Op, args: &[Tensor], d: usize) -> IResult<Tensor> {
    let datas: Vec<&Data> = args.iter().map(|t| &t.data).collect();
    let merged = concat_data(&datas);
    let mut offsets = Vec::new();
    let mut acc = 0;
    for t in args {
        offsets.push(acc);
        acc += t.len();
    }
    let sts: Vec<Vec<usize>> = args.iter().map(|t| strides(&t.shape)).collect();
    let shape = result_shape(ctx, op, 0)?;
    let mut local = Vec::new();
    let idx = map_indices(&shape, |i| {
        let mut pos = i[d];
        let mut k = 0;
        while k + 1 < args.len() && pos >= args[k].shape[d] {
            pos -= args[k].shape[d];
            k += 1;
        }
        local.clear();
        local.extend_from_slice(i);
        local[d] = pos;
        Some(offsets[k] + linear(&local, &sts[k]))
    });
    Ok(out(ctx, op, 0, merged.take(idx, None)))
}

/// A tensor's elements as `f64` (integers by value), for typed inner loops.
pub(crate) fn as_f64(t: &Tensor, e: Elem) -> Vec<f64> {
    match &t.data {
        Data::Float(v) => v.to_vec(),
        Data::Int(v) => v.iter().map(|x| to_f64(e, x)).collect(),
        _ => Vec::new(),
    }
}

/// Finish a numeric result computed in `f64` (floats), `i128` (integers) or complex.
pub(crate) enum Acc {
    F(Vec<f64>),
    I(Vec<i128>),
    C(Vec<C>),
}

pub(crate) fn finish(er: Elem, acc: Acc) -> Data {
    let k = er.float_kind();
    match acc {
        Acc::F(v) => match er {
            Elem::Float(_) => Data::from_f64s(k, v),
            _ => Data::from_i64s(er, v.into_iter().map(|x| float_to_int(x, er))),
        },
        Acc::I(v) => match er {
            Elem::Float(_) => Data::from_f64s(k, v.into_iter().map(|x| x as f64)),
            _ => Data::from_i64s(er, v.into_iter().map(|x| er.wrap(x))),
        },
        Acc::C(v) => Data::from_complex(k, v),
    }
}

/// Offsets into a tensor of strides `st` for every multi-index over `dims` of `shape`.
pub(crate) fn offsets(shape: &[i64], st: &[usize], dims: &[i64]) -> Vec<usize> {
    let sub: Vec<i64> = dims.iter().map(|d| shape[*d as usize]).collect();
    let mut out = Vec::with_capacity(count(&sub));
    if dims.is_empty() {
        out.push(0);
        return out;
    }
    for_each_index(&sub, |i| {
        out.push(
            i.iter()
                .zip(dims)
                .map(|(x, d)| *x as usize * st[*d as usize])
                .sum(),
        );
    });
    out
}

/// `dot_general`'s computation: result elements in the order batch, lhs free,
/// rhs free dimensions, of element kind `er`.
pub(crate) fn dot(ctx: &Context, l: &Tensor, r: &Tensor, d: &DotDims, er: Elem) -> Data {
    let free = |rank: usize, a: &[i64], b: &[i64]| -> Vec<i64> {
        (0..rank as i64)
            .filter(|i| !a.contains(i) && !b.contains(i))
            .collect()
    };
    let (lf, rf) = (
        free(l.shape.len(), &d.lhs_batch, &d.lhs_contract),
        free(r.shape.len(), &d.rhs_batch, &d.rhs_contract),
    );
    let (sl, sr) = (strides(&l.shape), strides(&r.shape));
    let (ob_l, ob_r) = (
        offsets(&l.shape, &sl, &d.lhs_batch),
        offsets(&r.shape, &sr, &d.rhs_batch),
    );
    let (of_l, of_r) = (offsets(&l.shape, &sl, &lf), offsets(&r.shape, &sr, &rf));
    let (oc_l, oc_r) = (
        offsets(&l.shape, &sl, &d.lhs_contract),
        offsets(&r.shape, &sr, &d.rhs_contract),
    );
    let (el, erh) = (l.elem(ctx), r.elem(ctx));
    let n = ob_l.len() * of_l.len() * of_r.len();
    let acc = match (&l.data, &r.data) {
        (Data::Complex(x), Data::Complex(y)) => {
            let (x, y) = (x.to_vec(), y.to_vec());
            let mut o = Vec::with_capacity(n);
            for (bl, br) in ob_l.iter().zip(&ob_r) {
                for fl in &of_l {
                    for fr in &of_r {
                        let (mut re, mut im) = (0.0, 0.0);
                        for (cl, cr) in oc_l.iter().zip(&oc_r) {
                            let p = c_mul(x[bl + fl + cl], y[br + fr + cr]);
                            re += p.0;
                            im += p.1;
                        }
                        o.push((re, im));
                    }
                }
            }
            Acc::C(o)
        }
        (Data::Int(x), Data::Int(y)) if !matches!(er, Elem::Float(_)) => {
            let mut o = Vec::with_capacity(n);
            let (x, y): (Vec<i128>, Vec<i128>) = (
                x.iter().map(|v| value(el, v)).collect(),
                y.iter().map(|v| value(erh, v)).collect(),
            );
            for (bl, br) in ob_l.iter().zip(&ob_r) {
                for fl in &of_l {
                    for fr in &of_r {
                        let mut s = 0i128;
                        for (cl, cr) in oc_l.iter().zip(&oc_r) {
                            s = s.wrapping_add(x[bl + fl + cl].wrapping_mul(y[br + fr + cr]));
                        }
                        o.push(s);
                    }
                }
            }
            Acc::I(o)
        }
        _ => {
            let (x, y) = (as_f64(l, el), as_f64(r, erh));
            // Both operands gathered once into [batch, free, contracting] order, so
            // the inner loop is a dot product of two contiguous rows.
            let k = oc_l.len();
            let gather = |v: &[f64], ob: &[usize], of: &[usize], oc: &[usize]| -> Vec<f64> {
                let mut m = Vec::with_capacity(ob.len() * of.len() * oc.len());
                for b in ob {
                    for f in of {
                        m.extend(oc.iter().map(|c| v[b + f + c]));
                    }
                }
                m
            };
            let (lm, rm) = (
                gather(&x, &ob_l, &of_l, &oc_l),
                gather(&y, &ob_r, &of_r, &oc_r),
            );
            let (nl, nr) = (of_l.len(), of_r.len());
            let mut o = Vec::with_capacity(n);
            for b in 0..ob_l.len() {
                for i in 0..nl {
                    let row = &lm[(b * nl + i) * k..][..k];
                    for j in 0..nr {
                        let col = &rm[(b * nr + j) * k..][..k];
                        o.push(row.iter().zip(col).fold(0.0, |s, (p, q)| s + p * q));
                    }
                }
            }
            Acc::F(o)
        }
    };
    finish(er, acc)
}

/// The window parameters of a convolution, one entry per spatial dimension
/// (padding: low and high for each).
pub(crate) struct ConvWindow {
    pub stride: Vec<i64>,
    pub padding: Vec<i64>,
    pub lhs_dil: Vec<i64>,
    pub rhs_dil: Vec<i64>,
    pub rev: Vec<i64>,
    pub fgc: i64,
    pub bgc: i64,
}

/// StableHLO's convolution of `x` with `k` into a result of shape `oshape`.
pub(crate) fn conv(
    ctx: &Context,
    x: &Tensor,
    k: &Tensor,
    d: &ConvDims,
    w: &ConvWindow,
    oshape: &[i64],
    er: Elem,
) -> Data {
    let ns = d.in_spatial.len();
    let (stride, padding, lhs_dil, rhs_dil, rev) =
        (&w.stride, &w.padding, &w.lhs_dil, &w.rhs_dil, &w.rev);
    let (fgc, bgc) = (w.fgc.max(1), w.bgc.max(1));
    let (sx, sk, so) = (strides(&x.shape), strides(&k.shape), strides(oshape));
    let (xe, ke) = (x.elem(ctx), k.elem(ctx));
    let (xv, kv) = (as_f64(x, xe), as_f64(k, ke));
    let out_batch = oshape[d.out_batch as usize];
    let out_feat = oshape[d.out_feature as usize];
    let kin = k.shape[d.k_in as usize];
    let ksp: Vec<i64> = d.k_spatial.iter().map(|s| k.shape[*s as usize]).collect();
    let insp: Vec<i64> = d.in_spatial.iter().map(|s| x.shape[*s as usize]).collect();
    let osp: Vec<i64> = d.out_spatial.iter().map(|s| oshape[*s as usize]).collect();
    let feat_per_group = (out_feat / fgc).max(1);
    let feat_per_bgroup = (out_feat / bgc).max(1);
    let mut o = vec![0.0f64; count(oshape)];
    // Kernel spatial offsets and positions, computed once.
    let mut kpos: Vec<Vec<i64>> = Vec::new();
    for_each_index(&ksp, |i| kpos.push(i.to_vec()));
    if ksp.is_empty() {
        kpos.push(Vec::new());
    }
    let mut opos: Vec<Vec<i64>> = Vec::new();
    for_each_index(&osp, |i| opos.push(i.to_vec()));
    if osp.is_empty() {
        opos.push(Vec::new());
    }
    for b in 0..out_batch {
        for of in 0..out_feat {
            let g = of / feat_per_group;
            let bg = of / feat_per_bgroup;
            let ib = bg * out_batch + b;
            for op_ in &opos {
                let mut s = 0.0;
                for kp in &kpos {
                    // Input position in the dilated, padded input.
                    let mut xoff = ib as usize * sx[d.in_batch as usize];
                    let mut koff = 0usize;
                    let mut valid = true;
                    for j in 0..ns {
                        let p = op_[j] * stride[j] + kp[j] * rhs_dil[j] - padding[2 * j];
                        if p < 0 || p % lhs_dil[j] != 0 {
                            valid = false;
                            break;
                        }
                        let q = p / lhs_dil[j];
                        if q >= insp[j] {
                            valid = false;
                            break;
                        }
                        xoff += q as usize * sx[d.in_spatial[j] as usize];
                        let kk = if rev[j] != 0 {
                            ksp[j] - 1 - kp[j]
                        } else {
                            kp[j]
                        };
                        koff += kk as usize * sk[d.k_spatial[j] as usize];
                    }
                    if !valid {
                        continue;
                    }
                    koff += of as usize * sk[d.k_out as usize];
                    let (xs, ks) = (sx[d.in_feature as usize], sk[d.k_in as usize]);
                    let base = (g * kin) as usize;
                    for ki in 0..kin as usize {
                        s += xv[xoff + (base + ki) * xs] * kv[koff + ki * ks];
                    }
                }
                let mut oi = b as usize * so[d.out_batch as usize]
                    + of as usize * so[d.out_feature as usize];
                for j in 0..ns {
                    oi += op_[j] as usize * so[d.out_spatial[j] as usize];
                }
                o[oi] = s;
            }
        }
    }
    finish(er, Acc::F(o))
}

/// The groups of input elements a reduction combines, one per output element:
/// every `outer` offset plus every `inner` offset (`reduce`), or explicit
/// lists where `None` stands for the init value (windows with padding).
pub(crate) enum Groups {
    Product {
        outer: Vec<usize>,
        inner: Vec<usize>,
    },
    Lists(Vec<Vec<Option<usize>>>),
}

impl Groups {
    /// The number of groups.
    pub(crate) fn len(&self) -> usize {
        match self {
            Groups::Product { outer, .. } => outer.len(),
            Groups::Lists(l) => l.len(),
        }
    }
    /// The elements of group `g`.
    pub(crate) fn members(&self, g: usize) -> Vec<Option<usize>> {
        match self {
            Groups::Product { outer, inner } => inner.iter().map(|i| Some(outer[g] + i)).collect(),
            Groups::Lists(l) => l[g].clone(),
        }
    }
}

/// Fold every group of `v` from `init` with `step`, in element order; `step`
/// is a concrete closure, so each combiner gets its own loop.
pub(crate) fn fold_groups<T: Copy, B: Buffer<Item = T> + ?Sized>(
    groups: &Groups,
    v: &B,
    init: T,
    step: impl Fn(T, T) -> T,
) -> Vec<T> {
    match groups {
        Groups::Product { outer, inner } => outer
            .iter()
            .map(|o| inner.iter().fold(init, |acc, i| step(acc, v.item(o + i))))
            .collect(),
        Groups::Lists(l) => l
            .iter()
            .map(|g| {
                g.iter()
                    .fold(init, |acc, i| step(acc, i.map_or(init, |i| v.item(i))))
            })
            .collect(),
    }
}

/// `fold_groups` with the float combiner `c` and rounding to `e`, chosen
/// once outside the loops.
pub(crate) fn fold_floats(
    c: Combiner,
    e: Elem,
    groups: &Groups,
    v: &(impl Buffer<Item = f64> + ?Sized),
    init: f64,
) -> Option<Vec<f64>> {
    macro_rules! with_round {
        ($f:expr) => {{
            let f = $f;
            Some(match e {
                Elem::Float(aic::float::FloatKind::F64) => fold_groups(groups, v, init, f),
                Elem::Float(aic::float::FloatKind::F32) => {
                    fold_groups(groups, v, init, |a, b| f(a, b) as f32 as f64)
                }
                _ => fold_groups(groups, v, init, |a, b| e.round(f(a, b))),
            })
        }};
    }
    match c {
        Combiner::Add => with_round!(|a: f64, b: f64| a + b),
        Combiner::Multiply => with_round!(|a: f64, b: f64| a * b),
        Combiner::Maximum => with_round!(MAXIMUM.float()?),
        Combiner::Minimum => with_round!(MINIMUM.float()?),
        _ => None,
    }
}

/// `fold_groups` with the integer combiner `c`, wrapping to `e`; `None`
/// for predicates and unsigned 64-bit min/max (which take the general path).
pub(crate) fn fold_ints(
    c: Combiner,
    e: Elem,
    groups: &Groups,
    v: &(impl Buffer<Item = i64> + ?Sized),
    init: i64,
) -> Option<Vec<i64>> {
    if is_bool(e)
        || (width(e) == 64 && is_unsigned(e) && matches!(c, Combiner::Maximum | Combiner::Minimum))
    {
        return None;
    }
    macro_rules! with_wrap {
        ($f:expr) => {{
            let f = $f;
            Some(match e {
                Elem::Int { width: 64, .. } | Elem::Index => fold_groups(groups, v, init, f),
                Elem::Int {
                    width: 32,
                    signedness,
                } if signedness != Signedness::Unsigned => {
                    fold_groups(groups, v, init, |a, b| f(a, b) as i32 as i64)
                }
                _ => fold_groups(groups, v, init, |a, b| e.wrap(i128::from(f(a, b)))),
            })
        }};
    }
    match c {
        Combiner::Add => with_wrap!(|a: i64, b: i64| a.wrapping_add(b)),
        Combiner::Multiply => with_wrap!(|a: i64, b: i64| a.wrapping_mul(b)),
        Combiner::Maximum => with_wrap!(|a: i64, b: i64| a.max(b)),
        Combiner::Minimum => with_wrap!(|a: i64, b: i64| a.min(b)),
        Combiner::And => with_wrap!(|a: i64, b: i64| a & b),
        Combiner::Or => with_wrap!(|a: i64, b: i64| a | b),
        Combiner::Xor => with_wrap!(|a: i64, b: i64| a ^ b),
    }
}

/// Build a result by mapping each output index to an input index (or padding).
pub(crate) fn remap(
    ctx: &Context,
    op: Op,
    src: &Tensor,
    fill: Option<&Tensor>,
    f: impl FnMut(&[i64]) -> Option<usize>,
) -> IResult<Tensor> {
    let shape = result_shape(ctx, op, 0)?;
    remap_to(ctx, op, &shape, src, fill, f)
}

/// [`remap`] onto `shape` (result 0's, or its runtime shape where the type
/// has dynamic dimensions; a static type must agree).
pub(crate) fn remap_to(
    ctx: &Context,
    op: Op,
    shape: &[i64],
    src: &Tensor,
    fill: Option<&Tensor>,
    mut f: impl FnMut(&[i64]) -> Option<usize>,
) -> IResult<Tensor> {
    let data = src
        .data
        .take(map_indices(shape, &mut f), fill.map(|t| &t.data));
    shaped(ctx, op, shape, data)
}

/// That a result of the runtime `shape` (sizes an operand gave, not its
/// type) with elements of `e` may be made: no negative size, no overflow, and
/// within the interpreter's memory budget `max_bytes`.
pub(crate) fn check_shape(op: Op, shape: &[i64], e: Elem, max_bytes: Option<u64>) -> IResult<()> {
    let bad = |why: String| {
        Err(InterpError::at(
            op,
            format!("a result of shape {shape:?} {why}"),
        ))
    };
    if shape.iter().any(|d| *d < 0) {
        return bad("has a negative size".into());
    }
    let bytes = shape
        .iter()
        .try_fold(e.storage_bytes(), |acc, d| acc.checked_mul(*d as u64));
    match (bytes, max_bytes) {
        (None, _) => bad("is too large".into()),
        (Some(b), Some(limit)) if b > limit => bad(format!(
            "needs {b} bytes, more than the interpreter's limit of {limit} bytes (--max-memory)"
        )),
        _ => Ok(()),
    }
}

/// Result 0 of `op` with `data` of the runtime `shape`: its type's static
/// dimensions must agree with it.
pub(crate) fn shaped(ctx: &Context, op: Op, shape: &[i64], data: Data) -> IResult<Tensor> {
    let ty = result_type(ctx, op, 0);
    let declared = ctx
        .type_kind(ty)
        .shape()
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    let fits =
        declared.len() == shape.len() && declared.iter().zip(shape).all(|(d, s)| *d < 0 || d == s);
    if !fits {
        return Err(InterpError::at(
            op,
            format!("the result's shape is {shape:?}, its type says {declared:?}"),
        ));
    }
    Ok(Tensor {
        ty,
        shape: shape.to_vec(),
        data,
    })
}

pub(crate) type C = (f64, f64);

pub(crate) fn c_mul(a: C, b: C) -> C {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

pub(crate) fn c_div(a: C, b: C) -> C {
    let d = b.0 * b.0 + b.1 * b.1;
    ((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
}

pub(crate) fn c_exp(a: C) -> C {
    let m = a.0.exp();
    (m * a.1.cos(), m * a.1.sin())
}

pub(crate) fn c_sqrt(a: C) -> C {
    let r = a.0.hypot(a.1);
    let re = ((r + a.0) / 2.0).sqrt();
    let im = ((r - a.0) / 2.0).sqrt().copysign(a.1);
    (re, im)
}

pub(crate) fn c_log(a: C) -> C {
    (a.0.hypot(a.1).ln(), a.1.atan2(a.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_division_follows_xla() {
        let i32e = Elem::Int {
            width: 32,
            signedness: Signedness::Signless,
        };
        let int_binary = |b: &Binary, e, x, y| Some(b.int()?(e, x, y));
        assert_eq!(int_binary(&DIVIDE, i32e, 7, 0), Some(-1));
        assert_eq!(int_binary(&REMAINDER, i32e, 7, 0), Some(7));
        assert_eq!(
            i32e.wrap(int_binary(&DIVIDE, i32e, i64::from(i32::MIN), -1).unwrap()),
            i64::from(i32::MIN)
        );
        assert_eq!(int_binary(&SHIFT_LEFT, i32e, 1, 32), Some(0));
        assert_eq!(int_binary(&POWER, i32e, 2, -1), Some(0));
    }
}
