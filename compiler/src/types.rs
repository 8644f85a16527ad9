//! Builtin types, as MLIR spells them, interned in the [`Uniquer`](crate::Uniquer).

use crate::attributes::Attr;
use crate::float::FloatKind;
use crate::ir::Uniquer;
use smallvec::SmallVec;
use std::any::{Any, TypeId};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

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
    /// A type of a dialect that registered its types (`!tile.tile<16xf32>`): a Rust
    /// value of the dialect, read back with [`Uniquer::dialect_type`].
    Dialect(DialectType),
    /// A dialect type aic does not model (`!stablehlo.token`, `!t.ty<1, [2]>`):
    /// the text after `!`, kept verbatim so it round-trips.
    Opaque(Box<str>),
}

/// The value of a dialect type or attribute (`TileType`, a `#coord.desc`, an enum
/// keyword), as the dialect defines it in Rust. Equal values intern to one id.
pub trait DialectValue: Any + Eq + Hash + fmt::Debug + Send + Sync {
    /// Append the text after `!` or `#` (`tile.tile<16xf32>`), which the dialect's
    /// registered parser reads back to an equal value.
    fn print(&self, u: &Uniquer, out: &mut String);
    /// For a type whose values are stored as another type's (a quantized type
    /// as its storage integer): that type, which the interpreter keeps
    /// elements as. `None` for the rest.
    fn storage_type(&self) -> Option<Type> {
        None
    }
}

/// [`DialectValue`] made object-safe, for storing values of any dialect behind one
/// pointer: implemented for every `DialectValue`.
pub trait DynDialectValue: fmt::Debug + Send + Sync {
    /// The value, for downcasting.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is a value of the same Rust type and equal.
    fn dyn_eq(&self, other: &dyn DynDialectValue) -> bool;
    /// Hash the Rust type and the value.
    fn dyn_hash(&self, state: &mut dyn Hasher);
    /// See [`DialectValue::print`].
    fn print(&self, u: &Uniquer, out: &mut String);
    /// See [`DialectValue::storage_type`].
    fn storage_type(&self) -> Option<Type>;
}

impl<T: DialectValue> DynDialectValue for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn dyn_eq(&self, other: &dyn DynDialectValue) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn dyn_hash(&self, mut state: &mut dyn Hasher) {
        TypeId::of::<T>().hash(&mut state);
        self.hash(&mut state);
    }
    fn print(&self, u: &Uniquer, out: &mut String) {
        DialectValue::print(self, u, out)
    }
    fn storage_type(&self) -> Option<Type> {
        DialectValue::storage_type(self)
    }
}

/// A dialect value shared behind a pointer, with equality, hashing and printing
/// of the value it holds: the payload of [`TypeKind::Dialect`] and
/// [`AttrKind::Dialect`](crate::attributes::AttrKind::Dialect).
#[derive(Clone)]
pub struct DialectObject(Arc<dyn DynDialectValue>);

impl DialectObject {
    /// Wrap a dialect value.
    pub fn new<T: DialectValue>(v: T) -> Self {
        DialectObject(Arc::new(v))
    }
    /// The value, if it is a `T`.
    pub fn downcast<T: DialectValue>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }
    /// Append the value's text (after `!` or `#`).
    pub fn print(&self, u: &Uniquer, out: &mut String) {
        self.0.print(u, out)
    }
    /// See [`DialectValue::storage_type`].
    pub fn storage_type(&self) -> Option<Type> {
        self.0.storage_type()
    }
}

impl PartialEq for DialectObject {
    fn eq(&self, other: &Self) -> bool {
        self.0.dyn_eq(&*other.0)
    }
}

impl Eq for DialectObject {}

impl Hash for DialectObject {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.dyn_hash(state)
    }
}

impl fmt::Debug for DialectObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The value of a [`TypeKind::Dialect`] type.
pub type DialectType = DialectObject;

impl TypeKind {
    /// The dialect type of `v`.
    pub fn dialect<T: DialectValue>(v: T) -> Self {
        TypeKind::Dialect(DialectObject::new(v))
    }
    /// The dialect value of this type, if it is a `T`.
    pub fn dialect_value<T: DialectValue>(&self) -> Option<&T> {
        match self {
            TypeKind::Dialect(d) => d.downcast(),
            _ => None,
        }
    }
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
