//! Builtin types, as MLIR spells them, interned in the [`Uniquer`](crate::Uniquer).

use crate::attributes::Attr;
use crate::float::FloatKind;
use smallvec::SmallVec;

/// An interned type: two types are equal exactly when their ids are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Type(pub u32);

/// The sentinel MLIR uses for a dynamic dimension (`?`) in shapes.
pub const DYNAMIC: i64 = i64::MIN;

/// Signedness semantics of an integer type: `i32` is signless, `si32` signed, `ui32` unsigned.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    /// `iN`
    Signless,
    /// `siN`
    Signed,
    /// `uiN`
    Unsigned,
}

/// The structure of a type. Nested types and attributes are ids into the same uniquer.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    /// `iN`, `siN`, `uiN` for any width up to MLIR's limit of 2^24.
    Integer {
        /// Bit width.
        width: u32,
        /// Signedness semantics.
        signedness: Signedness,
    },
    /// `index`
    Index,
    /// Every builtin float type (`f32`, `bf16`, `f8E4M3FN`, ...).
    Float(FloatKind),
    /// `none`
    None,
    /// `complex<T>`
    Complex(Type),
    /// `tensor<4x?xf32, #enc>`: ranked tensor, [`DYNAMIC`] for `?`.
    Tensor {
        /// Dimension sizes.
        shape: SmallVec<[i64; 4]>,
        /// Element type.
        elem: Type,
        /// Optional encoding attribute.
        encoding: Option<Attr>,
    },
    /// `tensor<*xf32>`
    UnrankedTensor(Type),
    /// `memref<4x?xf32, layout, space>`
    MemRef {
        /// Dimension sizes.
        shape: SmallVec<[i64; 4]>,
        /// Element type.
        elem: Type,
        /// Layout (affine map or strided), absent for the identity layout.
        layout: Option<Attr>,
        /// Memory space attribute.
        memory_space: Option<Attr>,
    },
    /// `memref<*xf32, space>`
    UnrankedMemRef {
        /// Element type.
        elem: Type,
        /// Memory space attribute.
        memory_space: Option<Attr>,
    },
    /// `vector<[4]x8xf32>`: `scalable[i]` marks `[4]`-style dimensions.
    Vector {
        /// Dimension sizes.
        shape: SmallVec<[i64; 4]>,
        /// Which dimensions are scalable.
        scalable: SmallVec<[bool; 4]>,
        /// Element type.
        elem: Type,
    },
    /// `tuple<i32, f32>`
    Tuple(SmallVec<[Type; 4]>),
    /// `(i32, f32) -> (f32)`
    Function {
        /// Argument types.
        inputs: SmallVec<[Type; 4]>,
        /// Result types.
        results: SmallVec<[Type; 2]>,
    },
    /// A dialect type aic does not model (`!stablehlo.token`, `!t.ty<1, [2]>`):
    /// the text after `!`, kept verbatim so it round-trips.
    Opaque(Box<str>),
}

impl TypeKind {
    /// Signless integer of `width` bits.
    pub fn int(width: u32) -> Self {
        TypeKind::Integer {
            width,
            signedness: Signedness::Signless,
        }
    }
    /// Shape of a shaped type (ranked tensor, memref, vector), if it has one.
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeKind::Tensor { shape, .. }
            | TypeKind::MemRef { shape, .. }
            | TypeKind::Vector { shape, .. } => Some(shape),
            _ => None,
        }
    }
    /// Element type of a shaped or complex type.
    pub fn element_type(&self) -> Option<Type> {
        match self {
            TypeKind::Tensor { elem, .. }
            | TypeKind::UnrankedTensor(elem)
            | TypeKind::MemRef { elem, .. }
            | TypeKind::UnrankedMemRef { elem, .. }
            | TypeKind::Vector { elem, .. }
            | TypeKind::Complex(elem) => Some(*elem),
            _ => None,
        }
    }
    /// Whether this is an integer or index type.
    pub fn is_integer_like(&self) -> bool {
        matches!(self, TypeKind::Integer { .. } | TypeKind::Index)
    }
    /// Whether this is a float type.
    pub fn is_float(&self) -> bool {
        matches!(self, TypeKind::Float(_))
    }
    /// Number of elements of a statically shaped type, or `None` if dynamic or unshaped.
    pub fn num_elements(&self) -> Option<u64> {
        let shape = self.shape()?;
        shape.iter().try_fold(1u64, |acc, &d| {
            if d < 0 {
                None
            } else {
                acc.checked_mul(d as u64)
            }
        })
    }
}
