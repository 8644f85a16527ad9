//! Builtin attributes (including locations), as MLIR spells them, interned in the
//! [`Uniquer`](crate::Uniquer).

use crate::affine::{AffineMap, IntegerSet};
use crate::types::{DialectObject, DialectValue, Type};
use smallvec::SmallVec;

/// An interned attribute: two attributes are equal exactly when their ids are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Attr(pub u32);

/// An interned identifier (attribute name, symbol name, file name, op name).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Ident(pub u32);

/// Storage of a dense elements attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum DenseData {
    /// Little-endian element bytes, `elem_bytes` per scalar (complex: two scalars);
    /// one element when `splat`. i1 is stored one byte per element.
    Raw {
        /// Whether every element equals the single stored one.
        splat: bool,
        /// The element bytes.
        bytes: Box<[u8]>,
    },
    /// `dense<["a", "b"]>` with a string element type.
    Strings {
        /// Whether every element equals the single stored one.
        splat: bool,
        /// The strings (raw bytes; MLIR strings may hold any byte).
        values: Box<[Box<[u8]>]>,
    },
}

/// A source location, MLIR's location attributes.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum LocKind {
    /// `loc(unknown)`
    Unknown,
    /// `loc("file":line:col)`, or a range `"file":l:c to l2:c2`.
    FileLineCol {
        /// File name.
        file: Ident,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
        /// End of a range location, `(line, col)`.
        end: Option<(u32, u32)>,
    },
    /// `loc("name")` or `loc("name"(child))`
    Name {
        /// The name.
        name: Ident,
        /// The wrapped child location.
        child: Option<Attr>,
    },
    /// `loc(callsite(callee at caller))`
    CallSite {
        /// Location of the callee.
        callee: Attr,
        /// Location of the caller.
        caller: Attr,
    },
    /// `loc(fused<#meta>[a, b])`
    Fused {
        /// Optional metadata attribute.
        metadata: Option<Attr>,
        /// Fused locations.
        locs: SmallVec<[Attr; 2]>,
    },
}

/// The structure of an attribute.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    /// `unit`: presence-only attribute.
    Unit,
    /// `true` / `false`
    Bool(bool),
    /// `42 : i32`. The value holds the integer's bits for its width, sign-extended
    /// for signless/signed types and zero-extended for unsigned ones.
    Integer {
        /// The value.
        value: i128,
        /// An integer or index type.
        ty: Type,
    },
    /// `1.0 : f32`, stored as the float type's bit pattern.
    Float {
        /// Bit pattern in the type's format.
        bits: u128,
        /// A float type.
        ty: Type,
    },
    /// `"text"` with an optional `: type`. MLIR strings may hold arbitrary bytes.
    String {
        /// The bytes.
        value: Box<[u8]>,
        /// Optional type.
        ty: Option<Type>,
    },
    /// `[a, b]`
    Array(Box<[Attr]>),
    /// `{a = 1, b}` kept sorted by name, as MLIR's DictionaryAttr does.
    Dict(Box<[(Ident, Attr)]>),
    /// A type used as an attribute (`i32`, `tensor<2xf32>`).
    Type(Type),
    /// `@root::@nested`
    SymbolRef {
        /// Root symbol.
        root: Ident,
        /// Nested references.
        nested: Box<[Ident]>,
    },
    /// `dense<...> : tensor<...>`
    DenseElements {
        /// A shaped type with static shape.
        ty: Type,
        /// The values.
        data: DenseData,
    },
    /// `dense_resource<handle> : type`
    DenseResource {
        /// Resource name.
        handle: Ident,
        /// Shaped type.
        ty: Type,
    },
    /// `array<i64: 1, 2>`: element bit patterns (i1 as 0/1, floats as bits).
    DenseArray {
        /// Element type.
        elem: Type,
        /// Values as bit patterns.
        values: Box<[u64]>,
    },
    /// `affine_map<...>`
    AffineMap(AffineMap),
    /// `affine_set<...>`
    IntegerSet(IntegerSet),
    /// `strided<[s0, s1], offset: o>` memref layout, [`crate::types::DYNAMIC`] for `?`.
    Strided {
        /// Offset.
        offset: i64,
        /// Strides.
        strides: Box<[i64]>,
    },
    /// A location.
    Location(LocKind),
    /// An attribute of a dialect that registered its attributes (`#coord.desc<...>`,
    /// `#tile<level warp>`): a Rust value of the dialect, read back with
    /// [`Uniquer::dialect_attr`](crate::ir::Uniquer::dialect_attr).
    Dialect(DialectAttr),
    /// A dialect attribute aic does not model (`#stablehlo.conv<...>`): the text after `#`, verbatim.
    Opaque(Box<str>),
}

/// The value of an [`AttrKind::Dialect`] attribute.
pub type DialectAttr = DialectObject;

impl AttrKind {
    /// The dialect attribute of `v`.
    pub fn dialect<T: DialectValue>(v: T) -> Self {
        AttrKind::Dialect(DialectObject::new(v))
    }
    /// The dialect value of this attribute, if it is a `T`.
    pub fn dialect_value<T: DialectValue>(&self) -> Option<&T> {
        match self {
            AttrKind::Dialect(d) => d.downcast(),
            _ => None,
        }
    }
    /// Whether this attribute is a location.
    pub fn is_location(&self) -> bool {
        matches!(self, AttrKind::Location(_))
    }
}
