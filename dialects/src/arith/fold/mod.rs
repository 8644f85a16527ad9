//! Folders of the arith ops, matching MLIR 22's `ArithOps.cpp`: they fold exactly
//! where MLIR folds and refuse where it refuses (division by zero, signed overflow,
//! lossy float conversions, ...).
//!
//! Constants reach a folder as attributes: scalars (`IntegerAttr`, `FloatAttr`) or
//! splat dense elements, which MLIR's `constFoldBinaryOp`/`constFoldCastOp` fold
//! elementwise into a splat of the result type. Every folder therefore works on
//! the *element bits* of its constant operands ([`elem_bits`]) and builds its
//! result with [`make_const`], which picks scalar or splat from the result type;
//! this is the one "elementwise over splat" path shared by all ops. Non-splat
//! dense constants are not folded (MLIR folds them element by element).

mod cast;
pub(crate) mod float;
pub(crate) mod int;

pub use cast::{bitcast, constant_cast, extf, extsi, extui, truncf, trunci};
pub use float::{cmpf, float_binary, mulf_absorbs, negf};
pub use int::{
    addi_defs, addui_extended, andi_defs, cmpi, divsi_defs, divui_defs, int_binary, mul_extended,
    ori_defs, select, subi_defs, xori_defs,
};

use aic::attributes::{Attr, AttrKind, DenseData};
use aic::float::FloatKind;
use aic::ir::{Context, Op, Value};
use aic::rewrite::FoldResult;
use aic::types::{Signedness, Type, TypeKind};
use smallvec::SmallVec;

/// What a folder returns: one replacement per result, or `None`.
pub type Folded = Option<SmallVec<[FoldResult; 1]>>;

/// The element type of a scalar or of a vector/tensor, as folders see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// An integer of this many bits (`index` is 64 bits, as MLIR's `IndexType`).
    Int(u32),
    /// A float.
    Float(FloatKind),
}

impl Elem {
    /// The element kind of `ty` (itself, or the element of a shaped type).
    pub fn of(ctx: &Context, ty: Type) -> Option<Elem> {
        let e = ctx.type_kind(ty).element_type().unwrap_or(ty);
        match ctx.type_kind(e) {
            TypeKind::Integer { width, .. } => Some(Elem::Int(*width)),
            TypeKind::Index => Some(Elem::Int(64)),
            TypeKind::Float(k) => Some(Elem::Float(*k)),
            _ => None,
        }
    }
    /// Bits of one element.
    pub fn width(self) -> u32 {
        match self {
            Elem::Int(w) => w,
            Elem::Float(k) => k.bit_width(),
        }
    }
}

/// All ones in the low `w` bits.
pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Little-endian bytes to an integer.
fn read_le(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .rev()
        .fold(0u128, |acc, b| (acc << 8) | u128::from(*b))
}

/// The bit pattern (low `width` bits) of the element of a constant: a scalar
/// integer or float attribute, or a splat dense elements attribute. `None` for
/// anything else (non-splat dense, strings, resources).
pub fn elem_bits(ctx: &Context, a: Attr) -> Option<u128> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, ty } => {
            let w = Elem::of(ctx, *ty)?.width();
            Some((*value as u128) & mask(w))
        }
        AttrKind::Float { bits, .. } => Some(*bits),
        AttrKind::DenseElements {
            ty,
            data: DenseData::Raw { bytes, .. },
        } => {
            let e = Elem::of(ctx, *ty)?;
            let size = aic::printer::scalar_bytes(ctx, ctx.type_kind(*ty).element_type()?);
            // A one-element literal is stored unsplatted; it is a splat all the same.
            (bytes.len() == size).then(|| read_le(bytes) & mask(e.width()))
        }
        _ => None,
    }
}

/// Whether `a` is a scalar constant (not an elements attribute).
pub fn is_scalar(ctx: &Context, a: Attr) -> bool {
    matches!(
        ctx.attr_kind(a),
        AttrKind::Integer { .. } | AttrKind::Float { .. }
    )
}

/// A constant of type `ty` whose every element has the bit pattern `bits`: a
/// scalar attribute, or a splat for a statically shaped vector or tensor (`None`
/// for dynamic shapes, which no constant can have).
pub fn make_const(ctx: &Context, ty: Type, bits: u128) -> Option<Attr> {
    let tk = ctx.type_kind(ty);
    if let Some(elem) = tk.element_type() {
        if !matches!(tk, TypeKind::Vector { .. } | TypeKind::Tensor { .. }) {
            return None;
        }
        tk.num_elements()?;
        let size = aic::printer::scalar_bytes(ctx, elem);
        let e = Elem::of(ctx, elem)?;
        let v = bits & mask(e.width());
        let bytes: Box<[u8]> = (0..size).map(|i| (v >> (8 * i)) as u8).collect();
        return Some(ctx.attr(AttrKind::DenseElements {
            ty,
            data: DenseData::Raw { splat: true, bytes },
        }));
    }
    Some(match tk {
        TypeKind::Integer { width, signedness } => ctx.attr(AttrKind::Integer {
            value: aic::syntax::normalize_int(bits as i128, *width, *signedness),
            ty,
        }),
        TypeKind::Index => ctx.attr(AttrKind::Integer {
            value: aic::syntax::normalize_int(bits as i128, 64, Signedness::Signless),
            ty,
        }),
        TypeKind::Float(k) => ctx.attr(AttrKind::Float {
            bits: bits & mask(k.bit_width()),
            ty,
        }),
        _ => return None,
    })
}

/// A fold to one constant of `ty` (`None` where no constant of `ty` exists).
pub fn fold_to_const(ctx: &Context, ty: Type, bits: u128) -> Folded {
    Some(smallvec::smallvec![FoldResult::Attr(make_const(
        ctx, ty, bits
    )?)])
}

/// A fold to an existing value.
pub fn fold_to_value(v: Value) -> Folded {
    Some(smallvec::smallvec![FoldResult::Value(v)])
}

/// The type of result 0 of `op`.
pub fn result_type(ctx: &Context, op: Op) -> Type {
    ctx.value_type(ctx.result(op, 0))
}

/// A bit-enum attribute (fast-math, overflow flags) as its bits; absent
/// attributes are the empty set.
pub fn flags(ctx: &Context, a: Option<Attr>, e: &aic::dialect::BitEnum) -> u32 {
    a.and_then(|a| e.bits_of(ctx.attr_kind(a))).unwrap_or(0)
}
