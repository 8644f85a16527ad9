//! The `check` dialect of StableHLO's interpreter tests: assertions on runtime
//! values, with StableHLO's syntax (`check.expect_eq_const %x, dense<...> :
//! tensor<2xi32>`, `check.expect_close %a, %b, max_ulp_difference = 3 : t, t`).
//! A failed check fails the function being run with a message saying where the
//! values differ.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind, Ident};
use aic::dialect::{AttrConstraint, AttrSyntax, CustomAsm, Dialect, OpSpec, tc};
use aic::interp::{Data, IResult, Interp, InterpError, Tensor, tensor_of_attr};
use aic::ir::{Op, OpState};
use aic::op_printer::OpPrinter;
use aic::syntax::parser::OpParser;
use aic::types::Type;

pub mod interpreter;

type R<T> = Result<T, Diagnostic>;

const ELEMENTS: AttrConstraint = AttrConstraint {
    desc: "constant vector/tensor attribute",
    check: |a, _| matches!(a, AttrKind::DenseElements { .. }),
    syntax: AttrSyntax::Full,
};

const ANY_ATTR: AttrConstraint = AttrConstraint {
    desc: "attribute",
    check: |_, _| true,
    syntax: AttrSyntax::Full,
};

/// How an op's trailing keyword options are written: name and whether it is a
/// float (`tolerance`) or an unsigned integer (`max_ulp_difference`).
type Opt = (&'static str, bool);

/// What a check op compares and how it is written: beside each op's spec, read
/// by the shared parser, printer and interpreter.
struct Form {
    /// The expected value is a `value` attribute, not a second operand.
    constant: bool,
    /// The trailing keyword options.
    options: &'static [Opt],
    /// The two operands' types are written apart (`: t, t`).
    two_types: bool,
    /// How the values are compared.
    compare: Compare,
}

/// How a check compares actual and expected elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Bit for bit (NaNs equal).
    Exact,
    /// Within a relative tolerance.
    Almost,
    /// Within a range of ULP distances.
    Ulp,
}

/// A check op's spec: its [`Form`] decides the syntax and the meaning.
macro_rules! check_spec {
    ($name:literal, $summary:literal, $form:expr) => {
        OpSpec {
            summary: $summary,
            custom: Some(CustomAsm {
                parse: |p, st| parse_check(p, st, &$form),
                print: |pr, op| print_check(pr, op, &$form),
            }),
            interpret: Some(|it, op, args| expect(it, op, args, &$form)),
            ..OpSpec::new($name)
        }
    };
}

const TOLERANCE: &[Opt] = &[("tolerance", true)];

aic::op! {
    /// `check.expect_eq`
    pub ExpectEq = EXPECT_EQ {
        operands: [lhs: one(tc::ANY), rhs: one(tc::ANY)],
        spec: check_spec!(
            "check.expect_eq",
            "Checks that the tensor operands are equal",
            Form { constant: false, options: &[], two_types: false, compare: Compare::Exact }
        ),
    }
}

aic::op! {
    /// `check.expect_eq_const`
    pub ExpectEqConst = EXPECT_EQ_CONST {
        operands: [lhs: one(tc::ANY)],
        attributes: [value: required(ELEMENTS)],
        spec: check_spec!(
            "check.expect_eq_const",
            "Checks the tensor operand is equal to some constant",
            Form { constant: true, options: &[], two_types: false, compare: Compare::Exact }
        ),
    }
}

aic::op! {
    /// `check.expect_almost_eq`
    pub ExpectAlmostEq = EXPECT_ALMOST_EQ {
        operands: [lhs: one(tc::ANY), rhs: one(tc::ANY)],
        attributes: [tolerance: optional(ANY_ATTR)],
        spec: check_spec!(
            "check.expect_almost_eq",
            "Checks that the tensor operands are almost equal",
            Form { constant: false, options: TOLERANCE, two_types: false, compare: Compare::Almost }
        ),
    }
}

aic::op! {
    /// `check.expect_almost_eq_const`
    pub ExpectAlmostEqConst = EXPECT_ALMOST_EQ_CONST {
        operands: [lhs: one(tc::ANY)],
        attributes: [value: required(ELEMENTS), tolerance: optional(ANY_ATTR)],
        spec: check_spec!(
            "check.expect_almost_eq_const",
            "Checks the tensor operand is almost equal to some constant",
            Form { constant: true, options: TOLERANCE, two_types: false, compare: Compare::Almost }
        ),
    }
}

aic::op! {
    /// `check.expect_close`
    pub ExpectClose = EXPECT_CLOSE {
        operands: [actual: one(tc::ANY), expected: one(tc::ANY)],
        attributes: [
            max_ulp_difference: optional(ANY_ATTR),
            min_ulp_difference: optional(ANY_ATTR),
        ],
        spec: check_spec!(
            "check.expect_close",
            "Checks the ULP distance of the operands",
            Form {
                constant: false,
                options: &[("max_ulp_difference", false), ("min_ulp_difference", false)],
                two_types: true,
                compare: Compare::Ulp,
            }
        ),
    }
}

/// The `check` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "check",
    description: "assertions for interpreter tests",
    ops: &[
        EXPECT_EQ,
        EXPECT_EQ_CONST,
        EXPECT_ALMOST_EQ,
        EXPECT_ALMOST_EQ_CONST,
        EXPECT_CLOSE,
        interpreter::EXPECT_SERIALIZED_EQ,
    ],
    materialize_constant: None,
};

// ---------------------------------------------------------------- syntax

fn parse_check(p: &mut OpParser<'_, '_>, st: &mut OpState, form: &Form) -> R<()> {
    let u = p.uniquer();
    let name = u.str(st.name).to_string();
    let mut props: Vec<(Ident, Attr)> = Vec::new();
    let lhs = p.parse_operand()?;
    p.expect_token(",")?;
    let mut rhs = None;
    let mut value_ty = None;
    if form.constant {
        let at = p.pos();
        let v = p.parse_attribute(None)?;
        let AttrKind::DenseElements { ty, .. } = u.attr_kind(v) else {
            return Err(p.error_at(at, "expected a dense elements attribute"));
        };
        value_ty = Some(*ty);
        props.push((u.ident("value"), v));
    } else {
        rhs = Some(p.parse_operand()?);
    }
    for (opt, float) in form.options {
        if p.eat_token(",") {
            p.expect_keyword(opt)?;
            p.expect_token("=")?;
            let a = if *float {
                let v = p.parse_float_literal()?;
                // StableHLO prints the tolerance with its type (`0.001 : f64`).
                if p.peek_text(": f64") {
                    p.expect_token(":")?;
                    p.expect_keyword("f64")?;
                }
                let f64t = u.ty(aic::types::TypeKind::Float(aic::float::FloatKind::F64));
                u.attr(AttrKind::Float {
                    bits: u128::from(v.to_bits()),
                    ty: f64t,
                })
            } else {
                let v = p.parse_integer()?;
                u.attr(AttrKind::Integer {
                    value: i128::from(v),
                    ty: u.int_type(64),
                })
            };
            props.push((u.ident(opt), a));
        }
    }
    let dict = p.parse_optional_attr_dict()?;
    let spec = p.context().registry().op(&name).expect("registered");
    aic::asm::split_attr_dict(&u, spec, dict, &mut props, st);
    let types: Vec<Type> = match value_ty {
        Some(t) => vec![t],
        None => {
            p.expect_token(":")?;
            let t = p.parse_type()?;
            if form.two_types {
                p.expect_token(",")?;
                vec![t, p.parse_type()?]
            } else {
                vec![t, t]
            }
        }
    };
    let l = p.resolve_operand(&lhs, types[0])?;
    st.operands.push(l);
    if let Some(r) = rhs {
        let v = p.resolve_operand(&r, types[1])?;
        st.operands.push(v);
    }
    if !props.is_empty() {
        st.props = Some(u.dict_attr(props));
    }
    Ok(())
}

fn print_check(pr: &mut OpPrinter<'_>, op: Op, form: &Form) {
    let ctx = pr.ctx();
    let spec = ctx.op_spec(op).expect("registered");
    let ops = ctx.operands(op).to_vec();
    pr.out.push(' ');
    pr.value(ops[0]);
    pr.out.push_str(", ");
    if form.constant {
        if let Some(v) = spec.attr(ctx, op, "value") {
            pr.attr(v);
        }
    } else {
        pr.value(ops[1]);
    }
    let mut elided = vec!["value"];
    for (opt, _) in form.options {
        if let Some(a) = spec.attr(ctx, op, opt) {
            pr.out.push_str(&format!(", {opt} = "));
            pr.attr_without_type(a);
        }
        elided.push(opt);
    }
    pr.attr_dict(op, &elided, false);
    if !form.constant {
        pr.out.push_str(" : ");
        pr.ty(ctx.value_type(ops[0]));
        if form.two_types {
            pr.out.push_str(", ");
            pr.ty(ctx.value_type(ops[1]));
        }
    }
}

// ---------------------------------------------------------------- meaning

fn number(ctx: &aic::Context, a: Option<Attr>, default: f64) -> f64 {
    match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Float { bits, ty }) => match ctx.type_kind(*ty) {
            aic::types::TypeKind::Float(k) => k.to_f64(*bits),
            _ => default,
        },
        Some(AttrKind::Integer { value, .. }) => *value as f64,
        _ => default,
    }
}

/// Every check op: compare the operand with the expected value, failing the run
/// with the first mismatching element.
fn expect(it: &mut Interp<'_>, op: Op, args: &[Tensor], form: &Form) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let spec = ctx.op_spec(op).expect("registered");
    let actual = &args[0];
    let expected = if form.constant {
        let v = spec.attr(ctx, op, "value").expect("verified");
        tensor_of_attr(ctx, v, actual.ty)
            .ok_or_else(|| InterpError::at(op, "unsupported expected value"))?
    } else {
        args[1].clone()
    };
    compare(ctx, op, form, actual, &expected)?;
    Ok(Vec::new())
}

/// Compares `actual` with `expected` as `form` says, failing at `op` with the
/// first mismatching element.
fn compare(
    ctx: &aic::Context,
    op: Op,
    form: &Form,
    actual: &Tensor,
    expected: &Tensor,
) -> IResult<()> {
    let spec = ctx.op_spec(op).expect("registered");
    let name = spec.name;
    if actual.shape != expected.shape {
        return Err(InterpError::at(
            op,
            format!("shapes differ: {:?} vs {:?}", actual.shape, expected.shape),
        ));
    }
    let almost = form.compare == Compare::Almost;
    let tol = number(ctx, spec.attr(ctx, op, "tolerance"), 1e-4);
    let (max_ulp, min_ulp) = (
        number(ctx, spec.attr(ctx, op, "max_ulp_difference"), 1.0),
        number(ctx, spec.attr(ctx, op, "min_ulp_difference"), 0.0),
    );
    let elem = actual.elem(ctx);
    let mismatch = |i: usize, a: String, b: String| {
        Err(InterpError::at(
            op,
            format!("{name} failed at element {i}: got {a}, expected {b}"),
        ))
    };
    match (&actual.data, &expected.data) {
        (Data::Int(a), Data::Int(b)) => {
            for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                if x != y {
                    return mismatch(i, x.to_string(), y.to_string());
                }
            }
        }
        (Data::Float(a), Data::Float(b)) => {
            for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                let ok = if form.compare == Compare::Ulp {
                    let d = ulp_distance(elem, x, y);
                    d.is_some_and(|d| (min_ulp..=max_ulp).contains(&(d as f64)))
                } else if almost {
                    (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= tol * y.abs().max(1.0)
                } else {
                    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
                };
                if !ok {
                    return mismatch(i, x.to_string(), y.to_string());
                }
            }
        }
        (Data::Complex(a), Data::Complex(b)) => {
            for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                let close = |p: f64, q: f64| {
                    p == q
                        || (p.is_nan() && q.is_nan())
                        || (almost && (p - q).abs() <= tol * q.abs().max(1.0))
                };
                if !(close(x.0, y.0) && close(x.1, y.1)) {
                    return mismatch(i, format!("{x:?}"), format!("{y:?}"));
                }
            }
        }
        _ => return Err(InterpError::at(op, "operands of different element kinds")),
    }
    Ok(())
}

/// How many values of the element format lie between `a` and `b`; `Some(0)`
/// for equal or both-NaN values, `None` when only one is non-finite.
fn ulp_distance(elem: aic::interp::Elem, a: f64, b: f64) -> Option<u64> {
    if a.is_nan() && b.is_nan() || a == b {
        return Some(0);
    }
    if !a.is_finite() || !b.is_finite() {
        return None;
    }
    let aic::interp::Elem::Float(k) = elem else {
        return None;
    };
    // Order-preserving integers of the bit patterns.
    let key = |x: f64| -> i128 {
        let bits = k.from_f64(x) as i128;
        let sign = 1i128 << (k.bit_width() - 1);
        if bits & sign != 0 {
            -(bits & (sign - 1))
        } else {
            bits
        }
    };
    Some((key(a) - key(b)).unsigned_abs() as u64)
}
