//! Constraints and attribute readers that several dialects share: the integer
//! and array attributes (MLIR's `I64Attr`, `DenseI64ArrayAttr`, ...) and the
//! plain shaped types, beside the framework's own [`tc`](crate::dialect::tc) and
//! [`ac`](crate::dialect::ac); and one reader for each way an op's attribute is
//! read by name, so dialects, passes and backends read attributes alike.

use crate::attributes::{Attr, AttrKind, DenseData};
use crate::dialect::{AttrConstraint, AttrSyntax, TypeConstraint};
use crate::ir::{Context, Op, Uniquer};
use crate::types::{Signedness, Type, TypeKind};

// ---------------------------------------------------------------- type constraints

/// Any memref.
pub const MEMREF: TypeConstraint = TypeConstraint {
    desc: "memref",
    check: |t, _| matches!(t, TypeKind::MemRef { .. }),
    build: None,
};

/// Any ranked tensor.
pub const TENSOR: TypeConstraint = TypeConstraint {
    desc: "tensor",
    check: |t, _| matches!(t, TypeKind::Tensor { .. }),
    build: None,
};

/// Any vector.
pub const VECTOR: TypeConstraint = TypeConstraint {
    desc: "vector",
    check: |t, _| matches!(t, TypeKind::Vector { .. }),
    build: None,
};

// ---------------------------------------------------------------- attribute constraints

fn i64_type(u: &Uniquer) -> Type {
    u.int_type(64)
}

fn i32_type(u: &Uniquer) -> Type {
    u.int_type(32)
}

/// `i1`, a bool.
fn is_bool(k: &TypeKind) -> bool {
    matches!(
        k,
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// `array<i64: ...>` written `[..]`.
pub const I64_ARRAY: AttrConstraint = AttrConstraint {
    desc: "i64 dense array attribute",
    check: |a, _| matches!(a, AttrKind::DenseArray { .. }),
    syntax: AttrSyntax::DenseArray(i64_type),
};

/// A 64-bit integer written without its type.
pub const I64_ATTR: AttrConstraint = AttrConstraint {
    desc: "64-bit signless integer attribute",
    check: |a, u| matches!(a, AttrKind::Integer { ty, .. } if matches!(u.type_kind(*ty), TypeKind::Integer { width: 64, .. })),
    syntax: AttrSyntax::WithoutType(i64_type),
};

/// A 32-bit integer written without its type.
pub const I32_ATTR: AttrConstraint = AttrConstraint {
    desc: "32-bit signless integer attribute",
    check: |a, u| matches!(a, AttrKind::Integer { ty, .. } if matches!(u.type_kind(*ty), TypeKind::Integer { width: 32, .. })),
    syntax: AttrSyntax::WithoutType(i32_type),
};

/// A bool attribute (`true`, or an `i1` integer).
pub const BOOL_ATTR: AttrConstraint = AttrConstraint {
    desc: "bool attribute",
    check: |a, u| match a {
        AttrKind::Bool(_) => true,
        AttrKind::Integer { ty, .. } => is_bool(u.type_kind(*ty)),
        _ => false,
    },
    syntax: AttrSyntax::Full,
};

// ---------------------------------------------------------------- attribute readers

/// An integer attribute's value (its low 64 bits, as MLIR's `getInt`).
pub fn int_value(u: &Uniquer, a: Attr) -> Option<i64> {
    match u.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(*value as i64),
        _ => None,
    }
}

/// Integers of an `array<i64: ...>` (or any integer dense array), a dense
/// integer elements attribute, or an array of integer or bool attributes.
pub fn i64_values(u: &Uniquer, a: Attr) -> Option<Vec<i64>> {
    match u.attr_kind(a) {
        AttrKind::DenseArray { values, elem } => {
            let w = match u.type_kind(*elem) {
                TypeKind::Integer { width, .. } => *width,
                _ => 64,
            };
            Some(
                values
                    .iter()
                    .map(|v| {
                        if w >= 64 {
                            *v as i64
                        } else if w == 1 {
                            (*v & 1) as i64
                        } else {
                            let s = 64 - w;
                            ((*v << s) as i64) >> s
                        }
                    })
                    .collect(),
            )
        }
        AttrKind::DenseElements {
            ty,
            data: DenseData::Raw { splat, bytes },
        } => {
            let et = u.type_kind(*ty).element_type()?;
            let w = crate::printer::scalar_bytes(u, et);
            let n = u.type_kind(*ty).num_elements()? as usize;
            if w == 0 || w > 8 {
                return None;
            }
            let get = |i: usize| {
                let chunk = &bytes[i * w..(i + 1) * w];
                let v = chunk
                    .iter()
                    .rev()
                    .fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
                let s = 64 - 8 * w as u32;
                if s == 0 {
                    v as i64
                } else {
                    ((v << s) as i64) >> s
                }
            };
            Some(
                (0..n)
                    .map(|i| if *splat { get(0) } else { get(i) })
                    .collect(),
            )
        }
        AttrKind::Array(items) => items
            .iter()
            .map(|x| match u.attr_kind(*x) {
                AttrKind::Integer { value, .. } => Some(*value as i64),
                AttrKind::Bool(b) => Some(i64::from(*b)),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `op`'s attribute `name`: its inherent attribute (property), else its
/// discardable one.
pub fn op_attr(ctx: &Context, op: Op, name: &str) -> Option<Attr> {
    ctx.find_ident(name).and_then(|i| ctx.inherent_attr(op, i))
}

/// The kind of `op`'s attribute `name`, if it has one.
pub fn op_attr_kind<'a>(ctx: &'a Context, op: Op, name: &str) -> Option<&'a AttrKind> {
    op_attr(ctx, op, name).map(|a| ctx.attr_kind(a))
}

/// The value of `op`'s integer attribute `name` (see [`int_value`]).
pub fn int_attr(ctx: &Context, op: Op, name: &str) -> Option<i64> {
    int_value(ctx.uniquer(), op_attr(ctx, op, name)?)
}

/// The integers of `op`'s array attribute `name` (see [`i64_values`]).
pub fn i64_array_attr(ctx: &Context, op: Op, name: &str) -> Option<Vec<i64>> {
    i64_values(ctx.uniquer(), op_attr(ctx, op, name)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DialectRegistry;
    use crate::ir::OpState;
    use std::sync::Arc;

    #[test]
    fn readers_take_integers_and_arrays_by_name() {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        let u = ctx.uniquer().clone();
        let i64t = u.int_type(64);
        let five = u.attr(AttrKind::Integer { value: 5, ty: i64t });
        let arr = u.i64_array(&[1, -2, 3]);
        let op = ctx.create_op(OpState::new(u.ident("test.op"), u.unknown_loc()));
        ctx.set_attr(op, u.ident("n"), five);
        ctx.set_attr(op, u.ident("dims"), arr);
        assert_eq!(int_attr(&ctx, op, "n"), Some(5));
        assert_eq!(i64_array_attr(&ctx, op, "dims"), Some(vec![1, -2, 3]));
        // The wrong kind, or no attribute, reads as nothing.
        assert_eq!(int_attr(&ctx, op, "dims"), None);
        assert_eq!(i64_array_attr(&ctx, op, "n"), None);
        assert_eq!(int_attr(&ctx, op, "missing"), None);
        assert!(matches!(
            op_attr_kind(&ctx, op, "n"),
            Some(AttrKind::Integer { value: 5, .. })
        ));
    }

    #[test]
    fn constraints_check_width_and_kind() {
        let u = Uniquer::default();
        let i32t = u.int_type(32);
        let seven = u.attr(AttrKind::Integer { value: 7, ty: i32t });
        let k = u.attr_kind(seven);
        assert!((I32_ATTR.check)(k, &u));
        assert!(!(I64_ATTR.check)(k, &u));
        assert!(!(BOOL_ATTR.check)(k, &u));
        let arr = u.i64_array(&[1]);
        assert!((I64_ARRAY.check)(u.attr_kind(arr), &u));
        assert_eq!(i64_values(&u, arr), Some(vec![1]));
    }
}
