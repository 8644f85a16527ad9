//! The `coord` dialect: tensor descriptors as chains of coordinate
//! transforms (Composable Kernel's tensor coordinate transformation, see
//! [`desc`]), held by the attribute `#coord.desc<...>`, and `coord.offset`,
//! which computes the memory offset and validity of a logical index:
//!
//! ```mlir
//! %off, %ok = coord.offset %i, %j through #coord.desc<[6, 4] | pass [0] -> [1], pass [1] -> [0] | embed<6, 1> [0, 1] -> [0]> : index, i1
//! ```
//!
//! The verifier rejects descriptors whose lengths do not fit (an
//! out-of-range slice, a merge of the wrong size, a dim read twice) and
//! index lists of the wrong rank; canonicalisation simplifies the
//! descriptor; the interpreter evaluates it; `coord-to-arith` lowers it to
//! arith ops.

pub mod desc;

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::dialect::{AttrConstraint, AttrSyntax, Dialect, DialectSyntax, OpSpec, Traits, tc};
use aic::interp::{IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Uniquer};
use aic::op_def::OpHandle;
use aic::rewrite::FoldResult;
use aic::types::{DialectObject, DialectValue, TypeKind};
use aic::verifier::op_error;
pub use desc::{Conv, Desc, Step, Transform};
use smallvec::SmallVec;

/// The text `#coord.desc<...>` holds after `#`, up to the body.
pub const DESC_PREFIX: &str = "coord.desc<";

/// The descriptor an attribute holds, or why it is not one.
pub fn desc_of(u: &Uniquer, a: Attr) -> Result<&Desc, String> {
    match u.attr_kind(a) {
        AttrKind::Dialect(d) => d.downcast().ok_or_else(not_a_desc),
        // A descriptor the parser could not read stays text (see `SYNTAX`): its
        // error is reported here, by the verifier of the op holding it.
        AttrKind::Opaque(text) => Err(match desc_text(text) {
            Some(body) => body.parse::<Desc>().err().unwrap_or_else(|| {
                "a descriptor kept as text: the coord dialect's syntax is not registered".into()
            }),
            None => not_a_desc(),
        }),
        _ => Err(not_a_desc()),
    }
}

fn not_a_desc() -> String {
    "expected a #coord.desc<...> attribute".into()
}

/// The body of `coord.desc<BODY>`.
fn desc_text(text: &str) -> Option<&str> {
    text.strip_prefix(DESC_PREFIX)?.strip_suffix('>')
}

/// The attribute holding `d`.
pub fn desc_attr(u: &Uniquer, d: &Desc) -> Attr {
    u.attr(AttrKind::dialect(d.clone()))
}

impl DialectValue for Desc {
    fn print(&self, _: &Uniquer, out: &mut String) {
        use std::fmt::Write as _;
        let _ = write!(out, "{DESC_PREFIX}{self}>");
    }
}

/// `#coord.desc<...>` as a [`Desc`] value. A descriptor that does not read stays
/// opaque text for the verifier of the op holding it to report, naming the op.
pub static SYNTAX: DialectSyntax = DialectSyntax {
    dialect: "coord",
    parse_type: None,
    parse_attr: Some(|_, body| {
        Ok(desc_text(body)
            .and_then(|b| b.parse::<Desc>().ok())
            .map(DialectObject::new))
    }),
};

/// Whether `a` is a descriptor attribute, or text spelled as one (which the
/// verifier reports as malformed).
pub fn is_desc(a: &AttrKind) -> bool {
    a.dialect_value::<Desc>().is_some()
        || matches!(a, AttrKind::Opaque(t) if t.starts_with(DESC_PREFIX))
}

const DESC: AttrConstraint = AttrConstraint {
    desc: "tensor descriptor (#coord.desc<...>)",
    check: |a, _| is_desc(a),
    syntax: AttrSyntax::Full,
};

const I1: aic::dialect::TypeConstraint = aic::dialect::TypeConstraint {
    desc: "i1",
    check: |t, _| matches!(t, TypeKind::Integer { width: 1, .. }),
    build: Some(|u| u.int_type(1)),
};

aic::op! {
    /// `coord.offset`: the element offset of an upper index under a descriptor,
    /// and whether the index is valid (inside the upper lengths and not in
    /// padding).
    pub Offset = OFFSET {
        operands: [indices: variadic(tc::INDEX)],
        results: [offset: one(tc::INDEX), valid: one(I1)],
        attributes: [desc: required(DESC)],
        spec: OpSpec {
            summary: "element offset and validity of an index under a tensor descriptor",
            traits: Traits::PURE,
            format: Some("$indices `through` $desc attr-dict `:` type($offset) `,` type($valid)"),
            verify: Some(verify_offset),
            fold: Some(fold_offset),
            interpret: Some(run_offset),
            ..OpSpec::new("coord.offset")
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "coord",
    description: "tensor descriptors: coordinate transforms from logical indices to memory",
    ops: &[OFFSET],
    materialize_constant: None,
};

fn desc_of_op(ctx: &Context, op: Op) -> Option<&Desc> {
    desc_of(ctx.uniquer(), Offset::wrap(op).desc(ctx)?).ok()
}

fn verify_offset(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let o = Offset::wrap(op);
    let Some(a) = o.desc(ctx) else {
        return Err(op_error(ctx, op, "requires a 'desc' attribute"));
    };
    let d =
        desc_of(ctx.uniquer(), a).map_err(|e| op_error(ctx, op, format!("bad descriptor: {e}")))?;
    d.lens()
        .map_err(|e| op_error(ctx, op, format!("bad descriptor: {e}")))?;
    let n = o.indices(ctx).len();
    if n != d.upper.len() {
        return Err(op_error(
            ctx,
            op,
            format!(
                "has {n} indices but the descriptor's upper space has rank {}",
                d.upper.len()
            ),
        ));
    }
    Ok(())
}

/// Canonicalisation: the descriptor simplified (in place).
fn fold_offset(ctx: &mut Context, op: Op, _: &[Option<Attr>]) -> Option<SmallVec<[FoldResult; 1]>> {
    let d = desc_of_op(ctx, op)?;
    let s = d.simplify();
    if s == *d {
        return None;
    }
    let u = ctx.uniquer().clone();
    let name = ctx.ident("desc");
    ctx.set_inherent_attr(op, name, desc_attr(&u, &s));
    Some(ctx.results(op).map(FoldResult::Value).collect())
}

fn run_offset(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let d = desc_of_op(ctx, op).ok_or_else(|| InterpError::at(op, "bad descriptor"))?;
    let idx: Vec<i64> = args.iter().map(|t| t.first_int()).collect();
    let (off, ok) = d
        .locate(&idx)
        .map_err(|e| InterpError::at(op, format!("bad descriptor: {e}")))?;
    let u = ctx.uniquer();
    Ok(vec![
        Tensor::int_scalar(u, u.ty(TypeKind::Index), off),
        Tensor::int_scalar(u, u.int_type(1), i64::from(ok)),
    ])
}
