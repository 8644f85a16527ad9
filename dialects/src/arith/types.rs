//! The arith dialect's type constraints, worded as MLIR words them.

use aic::dialect::TypeConstraint;
use aic::ir::Uniquer;
use aic::types::{Signedness, Type, TypeKind};

fn signless_int(t: &TypeKind) -> bool {
    matches!(
        t,
        TypeKind::Integer {
            signedness: Signedness::Signless,
            ..
        }
    )
}

fn signless_int_or_index(t: &TypeKind) -> bool {
    signless_int(t) || matches!(t, TypeKind::Index)
}

fn float(t: &TypeKind) -> bool {
    matches!(t, TypeKind::Float(_))
}

fn bool_(t: &TypeKind) -> bool {
    matches!(
        t,
        TypeKind::Integer {
            width: 1,
            signedness: Signedness::Signless
        }
    )
}

/// MLIR's `TypeOrValueSemanticsContainer`: the scalar, or a vector or tensor of it.
fn or_container(t: &TypeKind, u: &Uniquer, scalar: fn(&TypeKind) -> bool) -> bool {
    scalar(t)
        || match t {
            TypeKind::Vector { elem, .. }
            | TypeKind::Tensor { elem, .. }
            | TypeKind::UnrankedTensor(elem) => scalar(u.type_kind(*elem)),
            _ => false,
        }
}

/// A memref (ranked or not) whose elements satisfy `scalar`.
fn memref_of(t: &TypeKind, u: &Uniquer, scalar: fn(&TypeKind) -> bool) -> bool {
    match t {
        TypeKind::MemRef { elem, .. } | TypeKind::UnrankedMemRef { elem, .. } => {
            scalar(u.type_kind(*elem))
        }
        _ => false,
    }
}

/// `SignlessIntegerOrIndexLike`.
pub const SIGNLESS_INT_OR_INDEX_LIKE: TypeConstraint = TypeConstraint {
    desc: "signless-integer-like",
    check: |t, u| or_container(t, u, signless_int_or_index),
    build: None,
};

/// `SignlessFixedWidthIntegerLike`: no `index`.
pub const SIGNLESS_FIXED_WIDTH_INT_LIKE: TypeConstraint = TypeConstraint {
    desc: "signless-fixed-width-integer-like",
    check: |t, u| or_container(t, u, signless_int),
    build: None,
};

/// `FloatLike`.
pub const FLOAT_LIKE: TypeConstraint = TypeConstraint {
    desc: "floating-point-like",
    check: |t, u| or_container(t, u, float),
    build: None,
};

/// `BoolLike`.
pub const BOOL_LIKE: TypeConstraint = TypeConstraint {
    desc: "bool-like",
    check: |t, u| or_container(t, u, bool_),
    build: None,
};

/// `index_cast`'s operand and result.
pub const INDEX_CAST: TypeConstraint = TypeConstraint {
    desc: "signless-integer-like or memref of signless-integer",
    check: |t, u| {
        or_container(t, u, signless_int_or_index) || memref_of(t, u, signless_int_or_index)
    },
    build: None,
};

/// `bitcast`'s operand and result.
pub const BITCAST: TypeConstraint = TypeConstraint {
    desc: "signless-integer-or-float-like or memref of signless-integer or float",
    check: |t, u| {
        or_container(t, u, signless_int)
            || or_container(t, u, float)
            || memref_of(t, u, |k| signless_int(k) || float(k))
    },
    build: None,
};

/// The element type of a shaped type, or the type itself.
pub fn element_or_self(u: &Uniquer, t: Type) -> Type {
    u.type_kind(t).element_type().unwrap_or(t)
}

/// MLIR's `getI1SameShape`: `i1`, or a vector/tensor of `i1` shaped like `t`.
pub fn i1_same_shape(u: &Uniquer, t: Type) -> Type {
    let i1 = u.int_type(1);
    match u.type_kind(t).clone() {
        TypeKind::Vector {
            shape, scalable, ..
        } => u.ty(TypeKind::Vector {
            shape,
            scalable,
            elem: i1,
        }),
        TypeKind::Tensor {
            shape, encoding, ..
        } => u.ty(TypeKind::Tensor {
            shape,
            elem: i1,
            encoding,
        }),
        TypeKind::UnrankedTensor(_) => u.ty(TypeKind::UnrankedTensor(i1)),
        TypeKind::MemRef {
            shape,
            layout,
            memory_space,
            ..
        } => u.ty(TypeKind::MemRef {
            shape,
            elem: i1,
            layout,
            memory_space,
        }),
        _ => i1,
    }
}

/// Bit width of an integer or float type (`index` has none).
pub fn int_or_float_width(u: &Uniquer, t: Type) -> Option<u32> {
    match u.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Float(k) => Some(k.bit_width()),
        _ => None,
    }
}
