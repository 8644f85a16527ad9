//! The uniquer: interned types, attributes and identifiers.

use super::known;
use crate::attributes::{Attr, AttrKind, Ident, LocKind};
use crate::intern::{Interner, StrInterner};
use crate::types::{Type, TypeKind};

/// Interned types, attributes and identifiers, shared by every context of one session.
pub struct Uniquer {
    types: Interner<TypeKind>,
    attrs: Interner<AttrKind>,
    idents: StrInterner,
    /// Whether an attribute that always prints by alias (`affine_map`) was interned,
    /// so printers can skip looking for aliases in the common case.
    aliased: std::sync::atomic::AtomicBool,
}

impl Default for Uniquer {
    fn default() -> Self {
        let u = Uniquer {
            types: Interner::default(),
            attrs: Interner::default(),
            idents: StrInterner::default(),
            aliased: std::sync::atomic::AtomicBool::new(false),
        };
        for (i, s) in known::ALL.iter().enumerate() {
            let id = u.idents.intern(s);
            debug_assert_eq!(id as usize, i);
        }
        u
    }
}

impl Uniquer {
    /// Intern a type.
    pub fn ty(&self, kind: TypeKind) -> Type {
        if crate::alias::type_always_aliased(&kind) {
            self.note_aliased_attr();
        }
        Type(self.types.intern(kind))
    }
    /// The structure of a type.
    pub fn type_kind(&self, t: Type) -> &TypeKind {
        self.types.get(t.0)
    }
    /// The value of a dialect type, if `t` is one of Rust type `T`.
    pub fn dialect_type<T: crate::types::DialectValue>(&self, t: Type) -> Option<&T> {
        self.type_kind(t).dialect_value()
    }
    /// The value of a dialect attribute, if `a` is one of Rust type `T`.
    pub fn dialect_attr<T: crate::types::DialectValue>(&self, a: Attr) -> Option<&T> {
        self.attr_kind(a).dialect_value()
    }
    /// Intern an attribute.
    pub fn attr(&self, kind: AttrKind) -> Attr {
        if crate::alias::always_aliased(&kind) {
            self.aliased
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Attr(self.attrs.intern(kind))
    }
    /// A fused location, canonicalised as MLIR's `FusedLoc::get` does: unknown
    /// locations are dropped, nested fusions with the same metadata flattened,
    /// duplicates removed, and a lone location without metadata stands for itself.
    pub fn fused_loc(&self, metadata: Option<Attr>, locs: &[Attr]) -> Attr {
        let mut kept: smallvec::SmallVec<[Attr; 2]> = smallvec::SmallVec::new();
        let add = |l: Attr, kept: &mut smallvec::SmallVec<[Attr; 2]>| {
            if !kept.contains(&l) {
                kept.push(l);
            }
        };
        for &l in locs {
            match self.attr_kind(l) {
                AttrKind::Location(LocKind::Fused {
                    metadata: m,
                    locs: inner,
                }) if *m == metadata => {
                    for &i in inner.iter() {
                        add(i, &mut kept);
                    }
                }
                AttrKind::Location(LocKind::Unknown) => {}
                _ => add(l, &mut kept),
            }
        }
        match (kept.len(), metadata) {
            (0, None) => self.unknown_loc(),
            (0, Some(_)) => {
                let unknown = self.unknown_loc();
                self.attr(AttrKind::Location(LocKind::Fused {
                    metadata,
                    locs: smallvec::smallvec![unknown],
                }))
            }
            (1, None) => kept[0],
            _ => self.attr(AttrKind::Location(LocKind::Fused {
                metadata,
                locs: kept,
            })),
        }
    }
    /// Record that an attribute printing by alias is in use (a location used as an
    /// attribute value, which `attr` cannot tell from an op's location).
    pub fn note_aliased_attr(&self) {
        self.aliased
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
    /// Whether any attribute that prints by alias has been interned.
    pub fn has_aliased_attrs(&self) -> bool {
        self.aliased.load(std::sync::atomic::Ordering::Relaxed)
    }
    /// The structure of an attribute.
    pub fn attr_kind(&self, a: Attr) -> &AttrKind {
        self.attrs.get(a.0)
    }
    /// Intern an identifier.
    pub fn ident(&self, s: &str) -> Ident {
        Ident(self.idents.intern(s))
    }
    /// Find an identifier without interning it.
    pub fn find_ident(&self, s: &str) -> Option<Ident> {
        self.idents.find(s).map(Ident)
    }
    /// The text of an identifier.
    pub fn str(&self, i: Ident) -> &str {
        self.idents.get(i.0)
    }
    /// `loc(unknown)`
    pub fn unknown_loc(&self) -> Attr {
        self.attr(AttrKind::Location(LocKind::Unknown))
    }
    /// A signless integer type.
    pub fn int_type(&self, width: u32) -> Type {
        self.ty(TypeKind::int(width))
    }
    /// A ranked tensor type of `shape` and element type `elem`, without an
    /// encoding.
    pub fn tensor_type(&self, shape: &[i64], elem: Type) -> Type {
        self.ty(TypeKind::Tensor {
            shape: shape.iter().copied().collect(),
            elem,
            encoding: None,
        })
    }
    /// A function type.
    pub fn function_type(&self, inputs: &[Type], results: &[Type]) -> Type {
        self.ty(TypeKind::Function {
            inputs: inputs.into(),
            results: results.into(),
        })
    }
    /// An `array<i64: ...>` attribute.
    pub fn i64_array(&self, values: &[i64]) -> Attr {
        self.attr(AttrKind::DenseArray {
            elem: self.int_type(64),
            values: values.iter().map(|x| *x as u64).collect(),
        })
    }
    /// A flat symbol reference attribute, `@name`.
    pub fn flat_symbol_ref(&self, name: &str) -> Attr {
        self.attr(AttrKind::SymbolRef {
            root: self.ident(name),
            nested: Default::default(),
        })
    }
    /// A string attribute.
    pub fn string_attr(&self, s: &str) -> Attr {
        self.attr(AttrKind::String {
            value: s.as_bytes().into(),
            ty: None,
        })
    }
    /// A sorted dictionary attribute.
    pub fn dict_attr(&self, mut entries: Vec<(Ident, Attr)>) -> Attr {
        entries.sort_by(|a, b| self.str(a.0).cmp(self.str(b.0)));
        self.attr(AttrKind::Dict(entries.into()))
    }
    /// The entries of a dictionary attribute (empty for any other attribute).
    pub fn dict_entries(&self, a: Attr) -> &[(Ident, Attr)] {
        match self.attr_kind(a) {
            AttrKind::Dict(e) => e,
            _ => &[],
        }
    }
    /// The text of a string attribute, if it is valid UTF-8.
    pub fn attr_str(&self, a: Attr) -> Option<&str> {
        match self.attr_kind(a) {
            AttrKind::String { value, .. } => std::str::from_utf8(value).ok(),
            _ => None,
        }
    }
}
