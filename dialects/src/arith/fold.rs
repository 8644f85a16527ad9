//! Folders of the integer binary ops: constant folding with wrap-around at the
//! type's width, and the identities MLIR folds (`x + 0`, `x * 1`, `x ^ x`, ...).
//! Division and shifts do not fold where MLIR refuses: by zero, signed overflow,
//! shift amounts not below the width. Scalars only (not splats) for now.

use aic::attributes::{Attr, AttrKind};
use aic::ir::{Context, Op};
use aic::rewrite::FoldResult;
use aic::syntax::normalize_int;
use aic::types::{Signedness, TypeKind};
use smallvec::{SmallVec, smallvec};

type Folded = Option<SmallVec<[FoldResult; 1]>>;

/// Two's-complement view of a value of `w` bits.
#[derive(Clone, Copy)]
struct Bits {
    u: u128,
    s: i128,
    w: u32,
}

impl Bits {
    fn new(v: i128, w: u32) -> Bits {
        let mask = if w >= 128 {
            u128::MAX
        } else {
            (1u128 << w) - 1
        };
        let u = (v as u128) & mask;
        let s = if w >= 128 || w == 0 {
            v
        } else {
            ((u << (128 - w)) as i128) >> (128 - w)
        };
        Bits { u, s, w }
    }
    fn min_signed(self) -> bool {
        self.w > 0 && self.u == 1u128 << (self.w - 1)
    }
}

/// Constant-fold `name` on `a` and `b`; `None` where MLIR does not fold.
fn fold_consts(name: &str, a: Bits, b: Bits) -> Option<i128> {
    let w = a.w;
    Some(match name {
        "arith.addi" => a.u.wrapping_add(b.u) as i128,
        "arith.subi" => a.u.wrapping_sub(b.u) as i128,
        "arith.muli" => a.u.wrapping_mul(b.u) as i128,
        "arith.andi" => (a.u & b.u) as i128,
        "arith.ori" => (a.u | b.u) as i128,
        "arith.xori" => (a.u ^ b.u) as i128,
        "arith.maxsi" => a.s.max(b.s),
        "arith.minsi" => a.s.min(b.s),
        "arith.maxui" => a.u.max(b.u) as i128,
        "arith.minui" => a.u.min(b.u) as i128,
        "arith.divui" if b.u != 0 => (a.u / b.u) as i128,
        "arith.remui" if b.u != 0 => (a.u % b.u) as i128,
        "arith.ceildivui" if b.u != 0 => (a.u / b.u + u128::from(!a.u.is_multiple_of(b.u))) as i128,
        // min % -1 is 0; only the quotients overflow.
        "arith.remsi" if b.s != 0 => {
            if b.s == -1 {
                0
            } else {
                a.s % b.s
            }
        }
        // MLIR computes these through negations and sums and refuses on any overflow.
        "arith.ceildivsi" | "arith.floordivsi"
            if b.s != 0 && !a.min_signed() && !b.min_signed() && !floor_overflows(name, a, b) =>
        {
            let (q, r) = (a.s / b.s, a.s % b.s);
            if name == "arith.ceildivsi" {
                q + i128::from(r != 0 && (r > 0) == (b.s > 0))
            } else {
                q - i128::from(r != 0 && (r < 0) != (b.s < 0))
            }
        }
        "arith.divsi" if b.s != 0 && !(a.min_signed() && b.s == -1) => a.s / b.s,
        "arith.shli" if b.u < u128::from(w) => (a.u << b.u) as i128,
        "arith.shrui" if b.u < u128::from(w) => (a.u >> b.u) as i128,
        "arith.shrsi" if b.u < u128::from(w) => a.s >> b.u,
        _ => return None,
    })
}

/// Whether MLIR's floordivsi fold overflows in its intermediate sums: `-a + b - 1`
/// for a negative `a` and positive `b`, `a - b - 1` for a positive `a` and negative `b`.
fn floor_overflows(name: &str, a: Bits, b: Bits) -> bool {
    if name != "arith.floordivsi" || a.s == 0 {
        return false;
    }
    let max = signed_max(a.w);
    match (a.s > 0, b.s > 0) {
        (false, true) => -a.s + b.s - 1 > max,
        (true, false) => a.s - b.s - 1 > max,
        _ => false,
    }
}

/// What `op(x, c)` folds to for a constant right operand `c`: the left operand
/// (`Some(None)`), a constant (`Some(Some(v))`), or nothing.
fn fold_right_identity(name: &str, c: Bits) -> Option<Option<i128>> {
    let ones = c.u == Bits::new(-1, c.w).u;
    match (name, c.u) {
        ("arith.addi" | "arith.subi" | "arith.ori" | "arith.xori", 0) => Some(None),
        ("arith.shli" | "arith.shrui" | "arith.shrsi", 0) => Some(None),
        (
            "arith.muli" | "arith.divsi" | "arith.divui" | "arith.ceildivsi" | "arith.ceildivui"
            | "arith.floordivsi",
            1,
        ) => Some(None),
        ("arith.muli" | "arith.andi", 0) => Some(Some(0)),
        ("arith.remsi" | "arith.remui", 1) => Some(Some(0)),
        ("arith.andi", _) if ones => Some(None),
        ("arith.ori", _) if ones => Some(Some(-1)),
        // Extremes of the signed and unsigned orders.
        ("arith.maxui" | "arith.minui", _) if c.u == 0 || ones => {
            if (name == "arith.maxui") == (c.u == 0) {
                Some(None)
            } else {
                Some(Some(c.s))
            }
        }
        ("arith.maxsi" | "arith.minsi", _) if c.min_signed() || c.s == signed_max(c.w) => {
            let is_max = c.s == signed_max(c.w);
            if (name == "arith.minsi") == is_max {
                Some(None)
            } else {
                Some(Some(c.s))
            }
        }
        _ => None,
    }
}

/// The largest signed value of `w` bits (0 for i1, whose values are 0 and -1).
fn signed_max(w: u32) -> i128 {
    if w == 0 { 0 } else { (1i128 << (w - 1)) - 1 }
}

/// What `op(x, x)` folds to: `x` (`Some(None)`) or a constant.
fn fold_same_operands(name: &str) -> Option<Option<i128>> {
    match name {
        "arith.andi" | "arith.ori" | "arith.maxsi" | "arith.maxui" | "arith.minsi"
        | "arith.minui" => Some(None),
        "arith.subi" | "arith.xori" => Some(Some(0)),
        _ => None,
    }
}

/// The folding hook of every integer binary op.
pub fn int_binary(ctx: &mut Context, op: Op, consts: &[Option<Attr>]) -> Folded {
    let ty = ctx.value_type(ctx.result(op, 0));
    let (w, signedness) = match ctx.type_kind(ty) {
        TypeKind::Integer { width, signedness } => (*width, *signedness),
        TypeKind::Index => (64, Signedness::Signless),
        _ => return None,
    };
    let name = ctx.op_spec(op)?.name;
    let int = |a: Option<Attr>| match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => Some(Bits::new(*value, w)),
        _ => None,
    };
    let (a, b) = (int(consts[0]), int(consts[1]));
    let make = |ctx: &Context, v: i128| {
        FoldResult::Attr(ctx.attr(AttrKind::Integer {
            value: normalize_int(v, w, signedness),
            ty,
        }))
    };
    let lhs = ctx.operands(op)[0];
    // As in MLIR's folders, identities on the right operand come first, then
    // constant folding, then `op(x, x)`.
    let outcome = b
        .and_then(|c| fold_right_identity(name, c))
        .or_else(|| match (a, b) {
            (Some(a), Some(b)) => fold_consts(name, a, b).map(Some),
            _ => None,
        })
        .or_else(|| {
            (lhs == ctx.operands(op)[1])
                .then(|| fold_same_operands(name))
                .flatten()
        })?;
    Some(smallvec![match outcome {
        None => FoldResult::Value(lhs),
        Some(v) => make(ctx, v),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_and_refuses_like_mlir() {
        let b = |v| Bits::new(v, 8);
        assert_eq!(
            fold_consts("arith.addi", b(127), b(1)).map(|v| Bits::new(v, 8).s),
            Some(-128)
        );
        assert_eq!(fold_consts("arith.divsi", b(-128), b(-1)), None);
        assert_eq!(fold_consts("arith.divui", b(5), b(0)), None);
        assert_eq!(fold_consts("arith.shli", b(1), b(8)), None);
        assert_eq!(fold_consts("arith.floordivsi", b(-7), b(2)), Some(-4));
        assert_eq!(fold_consts("arith.ceildivsi", b(7), b(2)), Some(4));
        assert_eq!(
            fold_consts("arith.maxui", b(-1), b(1)).map(|v| Bits::new(v, 8).u),
            Some(255)
        );
        assert_eq!(fold_consts("arith.shrsi", b(-8), b(1)), Some(-4));
    }
}
