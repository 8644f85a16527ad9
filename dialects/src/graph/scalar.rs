//! Each elementwise graph op on one element, as arith and math ops: what a
//! kernel generator emits for the op inside a `tile.map` body. One function
//! per op (its row in [`super::SEMANTICS`]), beside the op's interpreter hook.
//!
//! Kernels keep every value in its *compute type* ([`compute_type`]): narrow
//! floats (f16, bf16, the f8 formats) in f32, integers of any signedness as
//! the signless integers arith works on, everything else as it is. A lowering
//! takes its operands in their compute types and gives its result in the
//! compute type of its result's element type; the op itself tells the storage
//! types (for casts, signedness and rounding). A cast to a narrow float rounds
//! to that format and widens back, so that f16 storage computed in f32 gives
//! the values f16 arithmetic would where the program casts.

use crate::arith::build::{self as ab, CmpFPredicate, CmpIPredicate};
use crate::arith::{self, FASTMATH, FASTMATH_AFN, FASTMATH_ARCP};
use crate::math;
use crate::stablehlo::ComparisonDirection;
use aic::ir::{Builder, Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Signedness, Type, TypeKind};

/// How an elementwise op lowers on one element: the op (for its attributes
/// and storage types) and its operands in their compute types give its result
/// in its compute type, or why it cannot be lowered.
pub type ScalarFn = fn(&mut Builder<'_>, Op, &[Value]) -> Result<Value, String>;

/// The type kernels compute elements of type `elem` in: f32 for floats
/// narrower than 32 bits, the signless integer of the same width for signed
/// and unsigned integers, `elem` itself otherwise.
pub fn compute_type(u: &aic::ir::Uniquer, elem: Type) -> Type {
    match u.type_kind(elem) {
        TypeKind::Float(k) if k.bit_width() < 32 => {
            u.ty(TypeKind::Float(aic::float::FloatKind::F32))
        }
        TypeKind::Integer { width, signedness } if *signedness != Signedness::Signless => {
            u.int_type(*width)
        }
        _ => elem,
    }
}

/// Op `op` on one element: its scalar lowering ([`super::Semantics::scalar`])
/// applied to `xs` (its operands in their compute types), at `b`'s insertion
/// point. Integer division and remainder divide by one where the divisor is
/// zero (lanes past a tile's edge read zeros, and integer division by zero
/// traps or is undefined).
///
/// An op the program declares on a narrow float (its result f16, bf16 or an
/// f8 format) is computed here in f32, so only the narrow type's precision is
/// asked of it: its math functions are marked `fastmath<afn>` and its
/// divisions `fastmath<arcp>`, which targets may expand with approximate
/// quotients (NVPTX's `div.approx.f32`, within 2 f32 ulp where the narrow
/// type rounds at 2^-11 or coarser). An op declared in f32 keeps its flags.
pub fn lower(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let f = super::semantics(b.ctx.op_name(op))
        .and_then(|s| s.scalar)
        .ok_or_else(|| format!("{} is not elementwise", b.ctx.op_name(op)))?;
    let mut xs = xs.to_vec();
    let int = |b: &Builder<'_>, v: Value| {
        matches!(
            b.ctx.type_kind(b.ctx.value_type(v)),
            TypeKind::Integer { .. }
        )
    };
    if (super::Div::is(b.ctx, op) || super::Rem::is(b.ctx, op)) && xs.len() == 2 && int(b, xs[1]) {
        let ty = b.ctx.value_type(xs[1]);
        let (zero, one) = (ab::int(b, 0, ty), ab::int(b, 1, ty));
        let is_zero = ab::cmpi(b, CmpIPredicate::Eq, xs[1], zero);
        xs[1] = ab::select(b, is_zero, one, xs[1]);
    }
    let r = f(b, op, &xs)?;
    let narrow = matches!(
        b.ctx.type_kind(result_elem(b, op)),
        TypeKind::Float(k) if k.bit_width() < 32
    );
    if narrow {
        relax(b, r, &xs);
    }
    Ok(r)
}

/// Marks the math functions computing `r` from `xs` `afn` and its float
/// divisions `arcp` (see [`lower`]), keeping their other flags.
fn relax(b: &mut Builder<'_>, r: Value, xs: &[Value]) {
    let name = b.ctx.ident("fastmath");
    let mut todo = vec![r];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = todo.pop() {
        if xs.contains(&v) {
            continue;
        }
        let Some(o) = b.ctx.defining_op(v) else {
            continue;
        };
        if !seen.insert(o) {
            continue;
        }
        todo.extend(b.ctx.operands(o).iter().copied());
        // Only ops whose spec has the flags (not math's integer ops).
        let Some(spec) = b
            .ctx
            .op_spec(o)
            .filter(|s| s.attributes.iter().any(|a| a.name == "fastmath"))
        else {
            continue;
        };
        let bit = if math::DIALECT.ops.iter().any(|m| std::ptr::eq(m, spec)) {
            FASTMATH_AFN
        } else if arith::DivF::is(b.ctx, o) {
            FASTMATH_ARCP
        } else {
            continue;
        };
        let u = b.ctx.uniquer().clone();
        let old = b
            .ctx
            .inherent_attr(o, name)
            .and_then(|a| FASTMATH.bits_of(u.attr_kind(a)))
            .unwrap_or(0);
        b.ctx
            .set_inherent_attr(o, name, FASTMATH.attr(&u, old | bit));
    }
}

/// What an element type is, for choosing float or integer ops.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Float,
    /// Integers; `unsigned` for `uiN` and `i1` (a predicate compares and
    /// converts as 0 and 1).
    Int {
        width: u32,
        unsigned: bool,
    },
}

fn kind(u: &aic::ir::Uniquer, elem: Type) -> Result<Kind, String> {
    match u.type_kind(elem) {
        TypeKind::Float(_) => Ok(Kind::Float),
        TypeKind::Integer { width, signedness } => Ok(Kind::Int {
            width: *width,
            unsigned: *signedness == Signedness::Unsigned || *width == 1,
        }),
        TypeKind::Index => Ok(Kind::Int {
            width: 64,
            unsigned: false,
        }),
        _ => Err(format!(
            "elements of type {} have no scalar lowering",
            aic::printer::type_text(u, elem)
        )),
    }
}

/// The element type of value `v` (a tensor or a scalar).
fn elem_of(b: &Builder<'_>, v: Value) -> Type {
    let t = b.ctx.value_type(v);
    b.ctx.type_kind(t).element_type().unwrap_or(t)
}

/// The storage element type of `op`'s operand `i`.
fn operand_elem(b: &Builder<'_>, op: Op, i: usize) -> Type {
    elem_of(b, b.ctx.operands(op)[i])
}

/// The storage element type of `op`'s result.
fn result_elem(b: &Builder<'_>, op: Op) -> Type {
    elem_of(b, b.ctx.result(op, 0))
}

/// The kind of `op`'s first operand's elements.
fn operand_kind(b: &Builder<'_>, op: Op) -> Result<Kind, String> {
    let e = operand_elem(b, op, 0);
    kind(b.ctx.uniquer(), e)
}

fn un<H: OpHandle>(b: &mut Builder<'_>, x: Value) -> Value {
    ab::unary::<H>(b, x)
}

fn bin<H: OpHandle>(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    ab::binary::<H>(b, x, y)
}

/// A float-only unary op `H` (the operand verifier admits only floats).
pub(super) fn float_unary<H: OpHandle>(
    b: &mut Builder<'_>,
    _: Op,
    xs: &[Value],
) -> Result<Value, String> {
    Ok(un::<H>(b, xs[0]))
}

/// `-x`.
pub(super) fn neg(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    Ok(match operand_kind(b, op)? {
        Kind::Float => un::<arith::NegF>(b, xs[0]),
        Kind::Int { .. } => {
            let ty = b.ctx.value_type(xs[0]);
            let z = ab::int(b, 0, ty);
            bin::<arith::SubI>(b, z, xs[0])
        }
    })
}

/// `|x|`.
pub(super) fn abs(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    Ok(match operand_kind(b, op)? {
        Kind::Float => un::<math::Absf>(b, xs[0]),
        Kind::Int { unsigned: true, .. } => xs[0],
        Kind::Int { .. } => un::<math::Absi>(b, xs[0]),
    })
}

/// `max(x, 0)`; NaN stays NaN.
pub(super) fn relu(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let ty = b.ctx.value_type(xs[0]);
    Ok(match operand_kind(b, op)? {
        Kind::Float => {
            let z = ab::number(b, 0.0, ty);
            bin::<arith::MaximumF>(b, xs[0], z)
        }
        Kind::Int { unsigned: true, .. } => xs[0],
        Kind::Int { .. } => {
            let z = ab::int(b, 0, ty);
            bin::<arith::MaxSI>(b, xs[0], z)
        }
    })
}

/// `1 / (1 + exp(-x))`.
pub fn sigmoid_of(b: &mut Builder<'_>, x: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let n = un::<arith::NegF>(b, x);
    let e = un::<math::Exp>(b, n);
    let one = ab::number(b, 1.0, ty);
    let d = bin::<arith::AddF>(b, one, e);
    bin::<arith::DivF>(b, one, d)
}

pub(super) fn sigmoid(b: &mut Builder<'_>, _: Op, xs: &[Value]) -> Result<Value, String> {
    Ok(sigmoid_of(b, xs[0]))
}

/// `x * sigmoid(x)`.
pub(super) fn silu(b: &mut Builder<'_>, _: Op, xs: &[Value]) -> Result<Value, String> {
    let s = sigmoid_of(b, xs[0]);
    Ok(bin::<arith::MulF>(b, xs[0], s))
}

/// `x * (1 + erf(x / sqrt(2))) / 2`.
pub(super) fn gelu(b: &mut Builder<'_>, _: Op, xs: &[Value]) -> Result<Value, String> {
    let x = xs[0];
    let ty = b.ctx.value_type(x);
    let r = ab::number(b, std::f64::consts::FRAC_1_SQRT_2, ty);
    let xs = bin::<arith::MulF>(b, x, r);
    let e = un::<math::Erf>(b, xs);
    Ok(half_x_times_one_plus(b, x, e))
}

/// `x * sigmoid(2u)` with `u = sqrt(2/pi) (x + 0.044715 x^3)`, the tanh
/// approximation of GeLU (`(1 + tanh u) / 2` is `sigmoid(2u)`), computed
/// as `x / (1 + 2^(-2 log2(e) u))`: one exp2 and one division, and no
/// cancellation in `1 + tanh(u)` where `u` is negative (the tail keeps its
/// relative accuracy); `u` as `x (1 + 0.044715 x^2)` (an fma). The formula
/// is itself an approximation (to 1e-3), so its exp2 and division may be
/// approximate: `afn` (on NVPTX `ex2.approx.ftz` and `div.approx`; a
/// denominator of `2^126` and beyond gives the tail's zero either way).
fn x_sigmoid_2u(b: &mut Builder<'_>, x: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let c = -2.0 * std::f64::consts::LOG2_E * (2.0 / std::f64::consts::PI).sqrt();
    let (c, k, one) = (
        ab::number(b, c, ty),
        ab::number(b, 0.044_715, ty),
        ab::number(b, 1.0, ty),
    );
    let x2 = bin::<arith::MulF>(b, x, x);
    let p = math::Fma::build(b, k, x2, one, None, ty).result(b.ctx);
    let cx = bin::<arith::MulF>(b, c, x);
    let arg = bin::<arith::MulF>(b, cx, p);
    let afn = FASTMATH.attr(b.ctx.uniquer(), FASTMATH_AFN);
    let e = math::Exp2::build(b, arg, Some(afn), ty).result(b.ctx);
    let d = bin::<arith::AddF>(b, one, e);
    arith::DivF::build(b, x, d, Some(afn), ty).result(b.ctx)
}

/// `x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2` ([`x_sigmoid_2u`]).
pub(super) fn gelu_tanh(b: &mut Builder<'_>, _: Op, xs: &[Value]) -> Result<Value, String> {
    Ok(x_sigmoid_2u(b, xs[0]))
}

/// `x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3))` (AITemplate's FastGeLU,
/// [`x_sigmoid_2u`]).
pub(super) fn fast_gelu(b: &mut Builder<'_>, _: Op, xs: &[Value]) -> Result<Value, String> {
    Ok(x_sigmoid_2u(b, xs[0]))
}

/// `(0.5 * x) * (1 + t)`, GeLU's last steps.
fn half_x_times_one_plus(b: &mut Builder<'_>, x: Value, t: Value) -> Value {
    let ty = b.ctx.value_type(x);
    let one = ab::number(b, 1.0, ty);
    let half = ab::number(b, 0.5, ty);
    let p = bin::<arith::AddF>(b, one, t);
    let hx = bin::<arith::MulF>(b, half, x);
    bin::<arith::MulF>(b, hx, p)
}

/// A binary op: `float` on floats, `signed`/`unsigned` on integers (`None`
/// where the op has no integer meaning).
fn binary(
    b: &mut Builder<'_>,
    op: Op,
    xs: &[Value],
    float: Option<fn(&mut Builder<'_>, Value, Value) -> Value>,
    signed: Option<fn(&mut Builder<'_>, Value, Value) -> Value>,
    unsigned: Option<fn(&mut Builder<'_>, Value, Value) -> Value>,
) -> Result<Value, String> {
    let f = match operand_kind(b, op)? {
        Kind::Float => float,
        Kind::Int {
            unsigned: false, ..
        } => signed,
        Kind::Int { unsigned: true, .. } => unsigned,
    };
    let f = f.ok_or_else(|| {
        format!(
            "{} has no scalar lowering on these elements",
            b.ctx.op_name(op)
        )
    })?;
    Ok(f(b, xs[0], xs[1]))
}

pub(super) fn add(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let i = Some(bin::<arith::AddI> as fn(&mut Builder<'_>, Value, Value) -> Value);
    binary(b, op, xs, Some(bin::<arith::AddF>), i, i)
}

pub(super) fn sub(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let i = Some(bin::<arith::SubI> as fn(&mut Builder<'_>, Value, Value) -> Value);
    binary(b, op, xs, Some(bin::<arith::SubF>), i, i)
}

pub(super) fn mul(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let i = Some(bin::<arith::MulI> as fn(&mut Builder<'_>, Value, Value) -> Value);
    binary(b, op, xs, Some(bin::<arith::MulF>), i, i)
}

pub(super) fn div(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    binary(
        b,
        op,
        xs,
        Some(bin::<arith::DivF>),
        Some(bin::<arith::DivSI>),
        Some(bin::<arith::DivUI>),
    )
}

pub(super) fn rem(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    binary(
        b,
        op,
        xs,
        Some(bin::<arith::RemF>),
        Some(bin::<arith::RemSI>),
        Some(bin::<arith::RemUI>),
    )
}

pub(super) fn max(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    binary(
        b,
        op,
        xs,
        Some(bin::<arith::MaximumF>),
        Some(bin::<arith::MaxSI>),
        Some(bin::<arith::MaxUI>),
    )
}

pub(super) fn min(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    binary(
        b,
        op,
        xs,
        Some(bin::<arith::MinimumF>),
        Some(bin::<arith::MinSI>),
        Some(bin::<arith::MinUI>),
    )
}

pub(super) fn pow(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    binary(b, op, xs, Some(bin::<math::Powf>), None, None)
}

fn and_(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let i = Some(bin::<arith::AndI> as fn(&mut Builder<'_>, Value, Value) -> Value);
    binary(b, op, xs, None, i, i)
}

fn or_(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let i = Some(bin::<arith::OrI> as fn(&mut Builder<'_>, Value, Value) -> Value);
    binary(b, op, xs, None, i, i)
}

fn xor_(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let i = Some(bin::<arith::XOrI> as fn(&mut Builder<'_>, Value, Value) -> Value);
    binary(b, op, xs, None, i, i)
}

pub(super) const AND: ScalarFn = and_;
pub(super) const OR: ScalarFn = or_;
pub(super) const XOR: ScalarFn = xor_;

/// Bitwise not (logical not on `i1`): `x xor all-ones`.
pub(super) fn not(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    match operand_kind(b, op)? {
        Kind::Int { .. } => {
            let ty = b.ctx.value_type(xs[0]);
            let ones = ab::int(b, -1, ty);
            Ok(bin::<arith::XOrI>(b, xs[0], ones))
        }
        Kind::Float => Err("graph.not of floats".into()),
    }
}

/// `graph.compare`: `i1`, NaN compares unequal (ordered predicates, `une`
/// for NE, as StableHLO's default comparison).
pub(super) fn compare(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    use ComparisonDirection as D;
    let dir = super::Compare::wrap(op)
        .direction(b.ctx)
        .ok_or("graph.compare without a direction")?;
    Ok(match operand_kind(b, op)? {
        Kind::Float => {
            let p = match dir {
                D::Eq => CmpFPredicate::Oeq,
                D::Ne => CmpFPredicate::Une,
                D::Lt => CmpFPredicate::Olt,
                D::Le => CmpFPredicate::Ole,
                D::Gt => CmpFPredicate::Ogt,
                D::Ge => CmpFPredicate::Oge,
            };
            ab::cmpf(b, p, xs[0], xs[1])
        }
        Kind::Int { unsigned, .. } => {
            let p = match (dir, unsigned) {
                (D::Eq, _) => CmpIPredicate::Eq,
                (D::Ne, _) => CmpIPredicate::Ne,
                (D::Lt, false) => CmpIPredicate::Slt,
                (D::Le, false) => CmpIPredicate::Sle,
                (D::Gt, false) => CmpIPredicate::Sgt,
                (D::Ge, false) => CmpIPredicate::Sge,
                (D::Lt, true) => CmpIPredicate::Ult,
                (D::Le, true) => CmpIPredicate::Ule,
                (D::Gt, true) => CmpIPredicate::Ugt,
                (D::Ge, true) => CmpIPredicate::Uge,
            };
            ab::cmpi(b, p, xs[0], xs[1])
        }
    })
}

/// `graph.select %pred, %a, %b`.
pub(super) fn select(b: &mut Builder<'_>, _: Op, xs: &[Value]) -> Result<Value, String> {
    Ok(ab::select(b, xs[0], xs[1], xs[2]))
}

/// `graph.cast`: StableHLO's `convert` from the operand's storage type to
/// the result's, on values in their compute types.
pub(super) fn cast(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    let (from, to) = (operand_elem(b, op, 0), result_elem(b, op));
    convert(b, xs[0], from, to)
}

/// Convert `x` (in the compute type of storage type `from`) to the value
/// storage type `to` holds, in `to`'s compute type.
pub fn convert(b: &mut Builder<'_>, x: Value, from: Type, to: Type) -> Result<Value, String> {
    let u = b.ctx.uniquer().clone();
    let (cf, ct) = (compute_type(&u, from), compute_type(&u, to));
    let bits = |t: Type| match u.type_kind(t) {
        TypeKind::Float(k) => k.bit_width(),
        _ => 0,
    };
    Ok(match (kind(&u, from)?, kind(&u, to)?) {
        (Kind::Float, Kind::Float) => {
            if from == to {
                x
            } else if ct == to {
                // To a compute type (f32, f64): widen or narrow directly.
                if bits(cf) < bits(ct) {
                    ab::cast::<arith::ExtF>(b, x, ct)
                } else if bits(cf) > bits(ct) {
                    ab::cast::<arith::TruncF>(b, x, ct)
                } else {
                    x
                }
            } else {
                // To a narrow float: round to it, then widen back. A
                // narrower-to-wider narrow cast (f8 -> f16) is exact.
                if bits(from) < bits(to) && cf == ct {
                    x
                } else {
                    let narrow = if bits(cf) > bits(to) {
                        ab::cast::<arith::TruncF>(b, x, to)
                    } else {
                        x
                    };
                    ab::cast::<arith::ExtF>(b, narrow, ct)
                }
            }
        }
        (Kind::Int { unsigned, width }, Kind::Float) => {
            let direct = if width == 1 || unsigned {
                ab::cast::<arith::UIToFP>(b, x, to)
            } else {
                ab::cast::<arith::SIToFP>(b, x, to)
            };
            if ct == to {
                direct
            } else {
                ab::cast::<arith::ExtF>(b, direct, ct)
            }
        }
        (Kind::Float, Kind::Int { width: 1, .. }) => {
            let z = ab::number(b, 0.0, cf);
            ab::cmpf(b, CmpFPredicate::Une, x, z)
        }
        (Kind::Float, Kind::Int { unsigned, .. }) => {
            if unsigned {
                ab::cast::<arith::FPToUI>(b, x, ct)
            } else {
                ab::cast::<arith::FPToSI>(b, x, ct)
            }
        }
        (Kind::Int { .. }, Kind::Int { width: 1, .. }) => {
            let z = ab::int(b, 0, cf);
            ab::cmpi(b, CmpIPredicate::Ne, x, z)
        }
        (
            Kind::Int {
                width: wf,
                unsigned,
            },
            Kind::Int { width: wt, .. },
        ) => {
            if wf == wt {
                x
            } else if wf > wt {
                ab::cast::<arith::TruncI>(b, x, ct)
            } else if unsigned {
                ab::cast::<arith::ExtUI>(b, x, ct)
            } else {
                ab::cast::<arith::ExtSI>(b, x, ct)
            }
        }
    })
}

/// `graph.bias_add`: the sum (the bias's repetition is in how it is read).
pub(super) fn bias_add(b: &mut Builder<'_>, op: Op, xs: &[Value]) -> Result<Value, String> {
    add(b, op, xs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::ir::{Context, InsertPoint};
    use aic::types::TypeKind;

    #[test]
    fn compute_types_widen_narrow_floats_and_drop_signedness() {
        let ctx = Context::new(std::sync::Arc::new(crate::all_dialects()));
        let u = ctx.uniquer();
        let f = |k| u.ty(TypeKind::Float(k));
        use aic::float::FloatKind::*;
        assert_eq!(compute_type(u, f(F16)), f(F32));
        assert_eq!(compute_type(u, f(BF16)), f(F32));
        assert_eq!(compute_type(u, f(F32)), f(F32));
        assert_eq!(compute_type(u, f(F64)), f(F64));
        let ui8 = u.ty(TypeKind::Integer {
            width: 8,
            signedness: Signedness::Unsigned,
        });
        assert_eq!(compute_type(u, ui8), u.int_type(8));
        assert_eq!(compute_type(u, u.int_type(1)), u.int_type(1));
    }

    /// The ops a conversion emits, by name, for `from -> to` on one value.
    fn convert_ops(from: Type, to: Type, ctx: &mut Context) -> Vec<String> {
        let u = ctx.uniquer().clone();
        let cf = compute_type(&u, from);
        let blk = ctx.create_block(&[(cf, None)]);
        let x = ctx.block_args(blk)[0];
        let loc = u.unknown_loc();
        let mut b = Builder {
            ctx: &mut *ctx,
            ip: InsertPoint::End(blk),
            loc,
        };
        let y = convert(&mut b, x, from, to).unwrap();
        assert_eq!(ctx.value_type(y), compute_type(&u, to));
        ctx.block_ops(blk)
            .map(|o| ctx.op_name(o).to_string())
            .collect()
    }

    #[test]
    fn casts_round_through_narrow_floats_and_skip_exact_widenings() {
        let mut ctx = Context::new(std::sync::Arc::new(crate::all_dialects()));
        let u = ctx.uniquer().clone();
        use aic::float::FloatKind::*;
        let (f16, bf16, f32, i32, i1) = (
            u.ty(TypeKind::Float(F16)),
            u.ty(TypeKind::Float(BF16)),
            u.ty(TypeKind::Float(F32)),
            u.int_type(32),
            u.int_type(1),
        );
        // f16 -> f32 is exact: nothing to emit.
        assert!(convert_ops(f16, f32, &mut ctx).is_empty());
        // f32 -> f16 rounds to f16 and widens back.
        assert_eq!(
            convert_ops(f32, f16, &mut ctx),
            ["arith.truncf", "arith.extf"]
        );
        // f16 -> bf16: both computed in f32, rounded to bf16.
        assert_eq!(
            convert_ops(f16, bf16, &mut ctx),
            ["arith.truncf", "arith.extf"]
        );
        assert_eq!(
            convert_ops(i32, f16, &mut ctx),
            ["arith.sitofp", "arith.extf"]
        );
        assert_eq!(convert_ops(i1, f32, &mut ctx), ["arith.uitofp"]);
        assert_eq!(
            convert_ops(f32, i1, &mut ctx),
            ["arith.constant", "arith.cmpf"]
        );
        assert_eq!(convert_ops(f16, i32, &mut ctx), ["arith.fptosi"]);
        assert_eq!(convert_ops(i1, i32, &mut ctx), ["arith.extui"]);
    }
}
