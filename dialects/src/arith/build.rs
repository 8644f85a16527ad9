//! Building arith ops: the one builder that lowerings emitting arith use
//! (through any [`Build`]: a `Builder`, or a rewriter at an op), on top of
//! the ops' typed handles. Results take their operands' type; constants
//! are typed by the type they are asked for.
//!
//! ```ignore
//! use aic_dialects::arith::{self, build as ab};
//! let four = ab::index(b, 4);
//! let at = ab::binary::<arith::MulI>(b, row, four);
//! let inside = ab::cmpi(b, ab::CmpIPredicate::Slt, at, len);
//! ```

use super::types::i1_same_shape;
use super::{CMPF_PREDICATES, CMPI_PREDICATES, CmpF, CmpI, Constant, Select};
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Build, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};

/// `arith.cmpi` predicates (MLIR's `CmpIPredicate`), in value order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpIPredicate {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Signed less than.
    Slt,
    /// Signed less or equal.
    Sle,
    /// Signed greater than.
    Sgt,
    /// Signed greater or equal.
    Sge,
    /// Unsigned less than.
    Ult,
    /// Unsigned less or equal.
    Ule,
    /// Unsigned greater than.
    Ugt,
    /// Unsigned greater or equal.
    Uge,
}

impl CmpIPredicate {
    /// Every predicate, in value order.
    pub const ALL: [CmpIPredicate; 10] = [
        Self::Eq,
        Self::Ne,
        Self::Slt,
        Self::Sle,
        Self::Sgt,
        Self::Sge,
        Self::Ult,
        Self::Ule,
        Self::Ugt,
        Self::Uge,
    ];
    /// The predicate's keyword (`slt`).
    pub fn keyword(self) -> &'static str {
        CMPI_PREDICATES[self as usize]
    }
}

/// `arith.cmpf` predicates (MLIR's `CmpFPredicate`), in value order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpFPredicate {
    /// Always false.
    False,
    /// Ordered and equal.
    Oeq,
    /// Ordered and greater than.
    Ogt,
    /// Ordered and greater or equal.
    Oge,
    /// Ordered and less than.
    Olt,
    /// Ordered and less or equal.
    Ole,
    /// Ordered and not equal.
    One,
    /// Ordered (no NaN).
    Ord,
    /// Unordered or equal.
    Ueq,
    /// Unordered or greater than.
    Ugt,
    /// Unordered or greater or equal.
    Uge,
    /// Unordered or less than.
    Ult,
    /// Unordered or less or equal.
    Ule,
    /// Unordered or not equal.
    Une,
    /// Unordered (either NaN).
    Uno,
    /// Always true.
    True,
}

impl CmpFPredicate {
    /// The predicate's keyword (`olt`).
    pub fn keyword(self) -> &'static str {
        CMPF_PREDICATES[self as usize]
    }
}

/// `arith.constant` holding `value`, of type `ty`.
pub fn constant(b: &mut impl Build, value: Attr, ty: Type) -> Value {
    let c = Constant::build(b, value, ty);
    c.result(b.context())
}

/// The integer `v` of `ty` (an integer or `index` type).
pub fn int(b: &mut impl Build, v: i64, ty: Type) -> Value {
    let a = b.context().attr(AttrKind::Integer {
        value: i128::from(v),
        ty,
    });
    constant(b, a, ty)
}

/// The `index` constant `v`.
pub fn index(b: &mut impl Build, v: i64) -> Value {
    let ty = b.context().ty(TypeKind::Index);
    int(b, v, ty)
}

/// The number `v` as a constant of `ty`: a float type takes it rounded to
/// its format, `i1` its truth (`v != 0`), other integers its integer part.
pub fn number(b: &mut impl Build, v: f64, ty: Type) -> Value {
    let u = b.context().uniquer().clone();
    let a = match u.type_kind(ty) {
        TypeKind::Float(k) => u.attr(AttrKind::Float {
            bits: k.from_f64(v),
            ty,
        }),
        TypeKind::Integer { width: 1, .. } => u.attr(AttrKind::Integer {
            value: i128::from(v != 0.0),
            ty,
        }),
        _ => u.attr(AttrKind::Integer {
            value: v as i64 as i128,
            ty,
        }),
    };
    constant(b, a, ty)
}

/// The binary arith op `H` (`AddI`, `MulF`, `MaxNumF`, …) of `x` and `y`,
/// of `x`'s type, with its flags at their defaults.
pub fn binary<H: OpHandle>(b: &mut impl Build, x: Value, y: Value) -> Value {
    debug_assert_eq!(H::SPEC.operands.len(), 2, "{} is not binary", H::SPEC.name);
    let ty = b.context().value_type(x);
    let op = aic::op_def::build(b, H::SPEC, &[&[x], &[y]], &[], &[&[ty]]);
    b.context().result(op, 0)
}

/// The unary arith op `H` (`NegF`) of `x`, of `x`'s type.
pub fn unary<H: OpHandle>(b: &mut impl Build, x: Value) -> Value {
    debug_assert_eq!(H::SPEC.operands.len(), 1, "{} is not unary", H::SPEC.name);
    let ty = b.context().value_type(x);
    let op = aic::op_def::build(b, H::SPEC, &[&[x]], &[], &[&[ty]]);
    b.context().result(op, 0)
}

/// The cast `H` (`IndexCast`, `ExtF`, `SIToFP`, …) of `x` to `to`.
pub fn cast<H: OpHandle>(b: &mut impl Build, x: Value, to: Type) -> Value {
    debug_assert_eq!(H::SPEC.operands.len(), 1, "{} is not a cast", H::SPEC.name);
    let op = aic::op_def::build(b, H::SPEC, &[&[x]], &[], &[&[to]]);
    b.context().result(op, 0)
}

fn predicate(b: &impl Build, p: usize) -> Attr {
    let u = b.context().uniquer();
    u.attr(AttrKind::Integer {
        value: p as i128,
        ty: u.int_type(64),
    })
}

/// `arith.cmpi pred, x, y`: `i1` of `x`'s shape.
pub fn cmpi(b: &mut impl Build, pred: CmpIPredicate, x: Value, y: Value) -> Value {
    let ty = i1_same_shape(b.context().uniquer(), b.context().value_type(x));
    let p = predicate(b, pred as usize);
    let c = CmpI::build(b, x, y, p, ty);
    c.result(b.context())
}

/// `arith.cmpf pred, x, y`: `i1` of `x`'s shape.
pub fn cmpf(b: &mut impl Build, pred: CmpFPredicate, x: Value, y: Value) -> Value {
    let ty = i1_same_shape(b.context().uniquer(), b.context().value_type(x));
    let p = predicate(b, pred as usize);
    let c = CmpF::build(b, x, y, p, None, ty);
    c.result(b.context())
}

/// `arith.select c, x, y`, of `x`'s type.
pub fn select(b: &mut impl Build, c: Value, x: Value, y: Value) -> Value {
    let ty = b.context().value_type(x);
    let s = Select::build(b, c, x, y, ty);
    s.result(b.context())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{AddI, IndexCast, MulF, NegF};
    use aic::ir::{Builder, Context};
    use aic::op_printer::{PrintOptions, print_op};
    use std::sync::Arc;

    #[test]
    fn predicates_follow_the_keyword_tables() {
        for (i, p) in CmpIPredicate::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
            assert_eq!(p.keyword(), CMPI_PREDICATES[i]);
        }
        assert_eq!(CmpIPredicate::Uge.keyword(), "uge");
        assert_eq!(CmpFPredicate::True as usize, CMPF_PREDICATES.len() - 1);
        assert_eq!(CmpFPredicate::Olt.keyword(), "olt");
        assert_eq!(CmpFPredicate::Uno.keyword(), "uno");
    }

    #[test]
    fn built_ops_verify_and_print_as_mlir_writes_them() {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("empty.mlir", String::new());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("an empty module");
        let block = ctx.entry_block(ctx.regions(m)[0]).expect("a body");
        let f32t = ctx.ty(TypeKind::Float(aic::float::FloatKind::F32));
        let i32t = ctx.int_type(32);
        let mut b = Builder::at_end(&mut ctx, block);
        let i = index(&mut b, 7);
        let j = binary::<AddI>(&mut b, i, i);
        let k = cast::<IndexCast>(&mut b, j, i32t);
        let x = number(&mut b, 1.5, f32t);
        let y = binary::<MulF>(&mut b, x, x);
        let z = unary::<NegF>(&mut b, y);
        let lt = cmpf(&mut b, CmpFPredicate::Olt, y, z);
        let t = number(&mut b, 3.0, i32t);
        let ge = cmpi(&mut b, CmpIPredicate::Sge, k, t);
        let both = binary::<crate::arith::AndI>(&mut b, lt, ge);
        select(&mut b, both, y, z);
        aic::verifier::verify(&ctx, m).expect("built ops verify");
        let text = print_op(&ctx, m, PrintOptions::default());
        for want in [
            "%c7 = arith.constant 7 : index",
            "arith.addi %c7, %c7 : index",
            "arith.index_cast %0 : index to i32",
            "%cst = arith.constant 1.500000e+00 : f32",
            "arith.mulf %cst, %cst : f32",
            "arith.negf %2 : f32",
            "arith.cmpf olt, %2, %3 : f32",
            "%c3_i32 = arith.constant 3 : i32",
            "arith.cmpi sge, %1, %c3_i32 : i32",
            "arith.andi %4, %5 : i1",
            "arith.select %6, %2, %3 : f32",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
    }
}
