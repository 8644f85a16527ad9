//! The dialect registry and declarative op specs.
//!
//! An op is declared once as an [`OpSpec`] constant: operands, results,
//! attributes, regions, successors, traits, a verify hook and an assembly
//! format. Parsing, printing, verification and named accessors all follow from
//! the spec; only genuinely irregular syntax (`func.func`'s signature) needs a
//! hand-written [`CustomAsm`].

use crate::asm::Format;
use crate::attributes::{Attr, AttrKind, DialectAttr, Ident};
use crate::diagnostics::Diagnostic;
use crate::intern::FxBuild;
use crate::ir::{Context, Op, OpState, Uniquer, Value};
use crate::types::{DialectType, Type, TypeKind};
use smallvec::SmallVec;
use std::collections::HashMap;
use std::sync::Arc;

/// Op traits, as a bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Traits(pub u32);

impl Traits {
    /// No traits.
    pub const NONE: Traits = Traits(0);
    /// No side effects: CSE and DCE may remove or merge it.
    pub const PURE: Traits = Traits(1);
    /// Operands may be swapped.
    pub const COMMUTATIVE: Traits = Traits(1 << 1);
    /// Must be the last op of its block.
    pub const TERMINATOR: Traits = Traits(1 << 2);
    /// Regions may not use values defined outside the op.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(1 << 3);
    /// All operands and results have one type.
    pub const SAME_OPERANDS_AND_RESULT_TYPE: Traits = Traits(1 << 4);
    /// Defines a symbol through `sym_name`.
    pub const SYMBOL: Traits = Traits(1 << 5);
    /// Its region holds a symbol table.
    pub const SYMBOL_TABLE: Traits = Traits(1 << 6);
    /// Blocks of its regions need no terminator.
    pub const NO_TERMINATOR: Traits = Traits(1 << 7);
    /// Each region has at most one block.
    pub const SINGLE_BLOCK: Traits = Traits(1 << 8);
    /// Returns control (and values) to the parent op.
    pub const RETURN_LIKE: Traits = Traits(1 << 9);
    /// All operands have one type.
    pub const SAME_OPERANDS_TYPE: Traits = Traits(1 << 10);
    /// Regions are graph regions: no dominance requirement.
    pub const GRAPH_REGION: Traits = Traits(1 << 11);
    /// Regions have a symbol-visible, top-level scope (module-like).
    pub const AFFINE_SCOPE: Traits = Traits(1 << 12);
    /// Materialises the constant in its `value` attribute (MLIR's `ConstantLike`).
    pub const CONSTANT_LIKE: Traits = Traits(1 << 13);
    /// Applies elementwise to vectors and tensors (MLIR's `ElementwiseMappable`):
    /// non-scalar operands and results share one shape and container kind.
    pub const ELEMENTWISE: Traits = Traits(1 << 14);
    /// Reads and writes no memory (MLIR's `NoMemoryEffect`) but may not be
    /// speculatable (division by zero): removable when unused, and CSE-able.
    pub const NO_MEMORY_EFFECT: Traits = Traits(1 << 15);
    /// Its memory effects are those of the ops nested in its regions (MLIR's
    /// `RecursiveMemoryEffects`): with only effect-free ops inside it is removable.
    pub const RECURSIVE_MEMORY_EFFECTS: Traits = Traits(1 << 16);
    /// Speculatable when every op nested in it is (MLIR's `RecursivelySpeculatable`).
    pub const RECURSIVELY_SPECULATABLE: Traits = Traits(1 << 17);
    /// Entry blocks of its regions take no arguments (MLIR's `NoRegionArguments`).
    pub const NO_REGION_ARGUMENTS: Traits = Traits(1 << 18);
    /// A loop (MLIR's `LoopLikeOpInterface`): every region is a loop body, run
    /// any number of times, so values defined outside are invariant in it.
    pub const LOOP_LIKE: Traits = Traits(1 << 19);
    /// All operands and results have one element type (MLIR's
    /// `SameOperandsAndResultElementType`).
    pub const SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE: Traits = Traits(1 << 20);
    /// Only reads memory (MLIR's `MemRead` as its sole effect): two
    /// identical reads with no possible write between them give the same
    /// value (CSE merges them within a block).
    pub const READ_ONLY: Traits = Traits(1 << 21);
    /// Whether every trait in `other` is present.
    pub const fn has(self, other: Traits) -> bool {
        self.0 & other.0 == other.0
    }
    /// Union of two trait sets.
    pub const fn with(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
    /// Trait names in declaration order, for `--show-dialects` and docs.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [&str; 21] = [
            "Pure",
            "Commutative",
            "Terminator",
            "IsolatedFromAbove",
            "SameOperandsAndResultType",
            "Symbol",
            "SymbolTable",
            "NoTerminator",
            "SingleBlock",
            "ReturnLike",
            "SameOperandsType",
            "GraphRegion",
            "AffineScope",
            "ConstantLike",
            "Elementwise",
            "NoMemoryEffect",
            "RecursiveMemoryEffects",
            "RecursivelySpeculatable",
            "NoRegionArguments",
            "LoopLike",
            "SameOperandsAndResultElementType",
        ];
        (0..NAMES.len())
            .filter(|i| self.0 & (1 << i) != 0)
            .map(|i| NAMES[i])
            .collect()
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, rhs: Traits) -> Traits {
        self.with(rhs)
    }
}

/// A predicate over types with the wording MLIR's verifier uses for it.
#[derive(Clone, Copy)]
pub struct TypeConstraint {
    /// How the constraint reads in a diagnostic ("signless integer").
    pub desc: &'static str,
    /// The check.
    pub check: fn(&TypeKind, &Uniquer) -> bool,
    /// The one type the constraint allows, where there is one (MLIR's
    /// `BuildableType`): custom syntax may then leave it out.
    pub build: Option<fn(&Uniquer) -> Type>,
}

impl std::fmt::Debug for TypeConstraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.desc)
    }
}

/// Common type constraints.
pub mod tc {
    use super::TypeConstraint;
    use crate::types::TypeKind;
    /// Any type.
    pub const ANY: TypeConstraint = TypeConstraint {
        desc: "any type",
        check: |_, _| true,
        build: None,
    };
    /// `index`.
    pub const INDEX: TypeConstraint = TypeConstraint {
        desc: "index",
        check: |t, _| matches!(t, TypeKind::Index),
        build: Some(|u| u.ty(TypeKind::Index)),
    };
    /// A function type.
    pub const FUNCTION: TypeConstraint = TypeConstraint {
        desc: "function type",
        check: |t, _| matches!(t, TypeKind::Function { .. }),
        build: None,
    };
}

/// How an attribute of a constraint is written inside a declarative assembly format.
#[derive(Clone, Copy, Debug, Default)]
pub enum AttrSyntax {
    /// Printed and parsed as a full attribute (`5 : i32`, `"s"`, `[1, 2]`).
    #[default]
    Full,
    /// The type is fixed by the constraint, so it is left out (`5` for an `I64Attr`).
    WithoutType(fn(&Uniquer) -> Type),
    /// A string attribute written as a symbol name (`@foo`), MLIR's `SymbolNameAttr`.
    SymbolName,
    /// An integer attribute (of the given type) written as one of these keywords,
    /// the keyword's index being the value (MLIR's enum attributes).
    Enum(fn(&Uniquer) -> Type, &'static [&'static str]),
    /// A dialect bit-enum attribute (`#arith.fastmath<nnan,ninf>`) written without
    /// its `#dialect.mnemonic` prefix (`<nnan,ninf>`), as MLIR prints an attribute of
    /// the op's own dialect.
    BitEnum(&'static BitEnum),
    /// A dense array attribute (`array<i64: 1, 2>`) written as its elements, `[1, 2]`.
    DenseArray(fn(&Uniquer) -> Type),
    /// A keyword enum attribute of a dialect ([`crate::dialect_enum!`],
    /// `#graph<reduce sum>`) written as its keyword (`sum`).
    Keyword(EnumSyntax),
}

/// How a keyword enum attribute ([`crate::dialect_enum!`]) is written in custom
/// assembly: its keyword alone. Made by the macro, for [`AttrSyntax::Keyword`].
#[derive(Clone, Copy, Debug)]
pub struct EnumSyntax {
    /// The keywords, in the enum's declaration order.
    pub keywords: &'static [&'static str],
    /// The attribute of the case with the keyword at this index.
    pub attr: fn(&Uniquer, usize) -> Attr,
    /// The index of the case an attribute holds, if it holds one of this enum.
    pub index: fn(&AttrKind) -> Option<usize>,
}

/// Declares a keyword enum attribute of a dialect (MLIR's `EnumAttr` printed as
/// `#dialect<mnemonic keyword>`): the Rust enum, its keyword table, its value as a
/// typed dialect attribute ([`crate::types::DialectValue`]), the
/// [`AttrConstraint`] `CONSTRAINT` for op specs (written as the bare keyword in
/// an op's custom assembly), [`crate::op_def::FromAttr`] so op handles read it
/// typed (`kind: required(ReduceKind::CONSTRAINT) as ReduceKind`), a builder
/// (`ReduceKind::Sum.attr(u)`), and `parse_attr` for the dialect's
/// [`DialectSyntax`] to read the generic form.
///
/// ```
/// aic::dialect_enum! {
///     /// How a reduction combines.
///     pub enum ReduceKind = "graph<reduce ", "reduce kind" {
///         Sum = "sum",
///         Max = "max",
///     }
/// }
/// let u = aic::Uniquer::default();
/// let a = ReduceKind::Max.attr(&u);
/// assert_eq!(ReduceKind::of(&u, a), Some(ReduceKind::Max));
/// assert_eq!(ReduceKind::from_keyword("sum"), Some(ReduceKind::Sum));
/// ```
///
/// The string after `=` is the attribute's text after `#` up to the keyword (with
/// its separator: `"graph<reduce "`, `"gpu.address_space<"`); the next one is how
/// the constraint reads in a diagnostic.
#[macro_export]
macro_rules! dialect_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident = $prefix:literal, $desc:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $kw:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every case, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The keyword of each case, in declaration order.
            pub const KEYWORDS: &'static [&'static str] = &[$($kw),+];
            /// The constraint of an op attribute holding one; custom assembly writes
            /// the keyword alone.
            pub const CONSTRAINT: $crate::dialect::AttrConstraint = $crate::dialect::AttrConstraint {
                desc: $desc,
                check: |a, _| a.dialect_value::<$name>().is_some(),
                syntax: $crate::dialect::AttrSyntax::Keyword($crate::dialect::EnumSyntax {
                    keywords: $name::KEYWORDS,
                    attr: |u, i| $name::ALL[i].attr(u),
                    index: |a| a.dialect_value::<$name>().map(|v| *v as usize),
                }),
            };
            /// The case's keyword.
            pub fn keyword(self) -> &'static str {
                $name::KEYWORDS[self as usize]
            }
            /// The case with keyword `w`.
            pub fn from_keyword(w: &str) -> Option<$name> {
                $name::KEYWORDS.iter().position(|k| *k == w).map(|i| $name::ALL[i])
            }
            /// The attribute holding this case.
            pub fn attr(self, u: &$crate::ir::Uniquer) -> $crate::attributes::Attr {
                u.attr($crate::attributes::AttrKind::dialect(self))
            }
            /// The case `a` holds, if it is an attribute of this enum.
            pub fn of(u: &$crate::ir::Uniquer, a: $crate::attributes::Attr) -> Option<$name> {
                u.dialect_attr::<$name>(a).copied()
            }
            /// The value of the attribute text after `#` (`graph<reduce sum>`), for
            /// the dialect's [`DialectSyntax`]($crate::dialect::DialectSyntax);
            /// `None` when it is not one of this enum's.
            pub fn parse_attr(body: &str) -> Option<$crate::attributes::DialectAttr> {
                let w = body.strip_prefix($prefix)?.strip_suffix('>')?;
                $name::from_keyword(w).map($crate::types::DialectObject::new)
            }
        }

        impl $crate::types::DialectValue for $name {
            fn print(&self, _: &$crate::ir::Uniquer, out: &mut String) {
                out.push_str($prefix);
                out.push_str(self.keyword());
                out.push('>');
            }
        }

        impl $crate::op_def::FromAttr for $name {
            fn from_attr(ctx: &$crate::ir::Context, a: $crate::attributes::Attr) -> Option<$name> {
                $name::of(ctx, a)
            }
        }
    };
}

/// A bit-set enum attribute of a dialect, MLIR's `I32BitEnumAttr` wrapped in an
/// `EnumAttr` with the assembly format `` `<` $value `>` ``. Its attributes hold a
/// [`BitEnumValue`] (the bits), printed in canonical keyword order.
#[derive(Debug)]
pub struct BitEnum {
    /// `dialect.mnemonic`, the text after `#` and before `<`.
    pub attr: &'static str,
    /// The keyword of the empty set.
    pub none: &'static str,
    /// Single-bit cases, in declaration order.
    pub bits: &'static [(&'static str, u32)],
    /// Named groups of bits, printed instead of their members when all are set.
    pub groups: &'static [(&'static str, u32)],
    /// Printed between keywords (`","` or `", "`).
    pub separator: &'static str,
}

impl BitEnum {
    /// The keywords for `v`, MLIR's `stringifyEnum` with `printBitEnumPrimaryGroups`.
    pub fn keywords(&self, v: u32) -> String {
        if v == 0 {
            return self.none.to_string();
        }
        let mut words = Vec::new();
        let mut rest = v;
        for (name, mask) in self.groups {
            if rest & mask == *mask {
                words.push(*name);
                rest &= !mask;
            }
        }
        for (name, bit) in self.bits {
            if rest & bit != 0 {
                words.push(*name);
            }
        }
        words.join(self.separator)
    }
    /// The value of one keyword.
    pub fn keyword_value(&self, w: &str) -> Option<u32> {
        if w == self.none {
            return Some(0);
        }
        self.bits
            .iter()
            .chain(self.groups)
            .find(|(n, _)| *n == w)
            .map(|(_, b)| *b)
    }
    /// The attribute holding `bits`.
    pub fn attr(&'static self, u: &Uniquer, bits: u32) -> Attr {
        u.attr(AttrKind::dialect(BitEnumValue { spec: self, bits }))
    }
    /// The bits of an attribute of this enum, if it is one.
    pub fn bits_of(&self, a: &AttrKind) -> Option<u32> {
        a.dialect_value::<BitEnumValue>()
            .filter(|v| v.spec.attr == self.attr)
            .map(|v| v.bits)
    }
    /// The value of the attribute text after `#` (`arith.fastmath<nnan,ninf>`, any
    /// keyword order), for the dialect's [`DialectSyntax`]; `None` when it is not
    /// one of this enum's.
    pub fn parse_attr(&'static self, body: &str) -> Option<DialectAttr> {
        let body = body
            .strip_prefix(self.attr)?
            .strip_prefix('<')?
            .strip_suffix('>')?;
        let bits = body
            .split(',')
            .try_fold(0, |acc, w| Some(acc | self.keyword_value(w.trim())?))?;
        Some(crate::types::DialectObject::new(BitEnumValue {
            spec: self,
            bits,
        }))
    }
    /// Every keyword, for diagnostics.
    pub fn all_keywords(&self) -> Vec<&'static str> {
        std::iter::once(self.none)
            .chain(self.bits.iter().chain(self.groups).map(|(n, _)| *n))
            .collect()
    }
}

/// The value of a [`BitEnum`] attribute: the enum and the bits set.
#[derive(Clone, Copy, Debug)]
pub struct BitEnumValue {
    /// The enum.
    pub spec: &'static BitEnum,
    /// The bits set.
    pub bits: u32,
}

impl PartialEq for BitEnumValue {
    fn eq(&self, other: &Self) -> bool {
        self.spec.attr == other.spec.attr && self.bits == other.bits
    }
}

impl Eq for BitEnumValue {}

impl std::hash::Hash for BitEnumValue {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.spec.attr.hash(state);
        self.bits.hash(state);
    }
}

impl crate::types::DialectValue for BitEnumValue {
    fn print(&self, _: &Uniquer, out: &mut String) {
        out.push_str(self.spec.attr);
        out.push('<');
        out.push_str(&self.spec.keywords(self.bits));
        out.push('>');
    }
}

/// A predicate over attributes.
#[derive(Clone, Copy)]
pub struct AttrConstraint {
    /// How the constraint reads in a diagnostic ("string attribute").
    pub desc: &'static str,
    /// The check.
    pub check: fn(&AttrKind, &Uniquer) -> bool,
    /// How the attribute is written in custom assembly.
    pub syntax: AttrSyntax,
}

impl std::fmt::Debug for AttrConstraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.desc)
    }
}

/// Common attribute constraints.
pub mod ac {
    use super::AttrConstraint;
    use crate::attributes::AttrKind;
    use crate::types::TypeKind;
    /// Any attribute.
    pub const ANY: AttrConstraint = AttrConstraint {
        desc: "any attribute",
        check: |_, _| true,
        syntax: super::AttrSyntax::Full,
    };
    /// A symbol's own name: a string attribute written `@name` in custom assembly.
    pub const SYMBOL_NAME: AttrConstraint = AttrConstraint {
        desc: "string attribute",
        check: |a, _| matches!(a, AttrKind::String { .. }),
        syntax: super::AttrSyntax::SymbolName,
    };
    /// A string attribute.
    pub const STRING: AttrConstraint = AttrConstraint {
        desc: "string attribute",
        check: |a, _| matches!(a, AttrKind::String { .. }),
        syntax: super::AttrSyntax::Full,
    };
    /// `@sym` without nested references.
    pub const FLAT_SYMBOL_REF: AttrConstraint = AttrConstraint {
        desc: "flat symbol reference attribute",
        check: |a, _| matches!(a, AttrKind::SymbolRef { nested, .. } if nested.is_empty()),
        syntax: super::AttrSyntax::Full,
    };
    /// A `TypeAttr` holding a function type.
    pub const FUNCTION_TYPE: AttrConstraint = AttrConstraint {
        desc: "type attribute of function type",
        check: |a, u| matches!(a, AttrKind::Type(t) if matches!(u.type_kind(*t), TypeKind::Function { .. })),
        syntax: super::AttrSyntax::Full,
    };
    /// An array of dictionary attributes.
    pub const DICT_ARRAY: AttrConstraint = AttrConstraint {
        desc: "Array of dictionary attributes",
        check: |a, u| matches!(a, AttrKind::Array(xs) if xs.iter().all(|x| matches!(u.attr_kind(*x), AttrKind::Dict(_)))),
        syntax: super::AttrSyntax::Full,
    };
    /// A unit attribute.
    pub const UNIT: AttrConstraint = AttrConstraint {
        desc: "unit attribute",
        check: |a, _| matches!(a, AttrKind::Unit),
        syntax: super::AttrSyntax::Full,
    };
}

/// How many values an operand or result group holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arity {
    /// Exactly one.
    One,
    /// Zero or one.
    Optional,
    /// Any number.
    Variadic,
}

/// A named operand or result group.
#[derive(Clone, Copy, Debug)]
pub struct ValueSpec {
    /// Name used in accessors and assembly formats.
    pub name: &'static str,
    /// Arity.
    pub arity: Arity,
    /// Type constraint.
    pub ty: TypeConstraint,
}

impl ValueSpec {
    /// One value.
    pub const fn one(name: &'static str, ty: TypeConstraint) -> Self {
        ValueSpec {
            name,
            arity: Arity::One,
            ty,
        }
    }
    /// Any number of values.
    pub const fn variadic(name: &'static str, ty: TypeConstraint) -> Self {
        ValueSpec {
            name,
            arity: Arity::Variadic,
            ty,
        }
    }
    /// Zero or one value.
    pub const fn optional(name: &'static str, ty: TypeConstraint) -> Self {
        ValueSpec {
            name,
            arity: Arity::Optional,
            ty,
        }
    }
}

/// An inherent attribute.
#[derive(Clone, Copy, Debug)]
pub struct AttrSpec {
    /// Attribute name.
    pub name: &'static str,
    /// Constraint.
    pub constraint: AttrConstraint,
    /// Whether it may be absent.
    pub optional: bool,
    /// The value an absent attribute takes (MLIR's `DefaultValuedAttr`): parsers
    /// fill it in and custom formats leave it out.
    pub default: Option<fn(&Uniquer) -> Attr>,
}

impl AttrSpec {
    /// A required inherent attribute.
    pub const fn required(name: &'static str, constraint: AttrConstraint) -> Self {
        AttrSpec {
            name,
            constraint,
            optional: false,
            default: None,
        }
    }
    /// An optional inherent attribute.
    pub const fn optional(name: &'static str, constraint: AttrConstraint) -> Self {
        AttrSpec {
            name,
            constraint,
            optional: true,
            default: None,
        }
    }
    /// An attribute with a default value (MLIR's `DefaultValuedAttr`).
    pub const fn defaulted(
        name: &'static str,
        constraint: AttrConstraint,
        default: fn(&Uniquer) -> Attr,
    ) -> Self {
        AttrSpec {
            name,
            constraint,
            optional: true,
            default: Some(default),
        }
    }
}

/// A named region (or variadic region list).
#[derive(Clone, Copy, Debug)]
pub struct RegionSpec {
    /// Name used in assembly formats.
    pub name: &'static str,
    /// Whether this stands for any number of regions.
    pub variadic: bool,
    /// Whether the region must hold exactly one block (MLIR's `SizedRegion<1>`).
    pub single_block: bool,
}

impl RegionSpec {
    /// One region with any number of blocks.
    pub const fn any(name: &'static str) -> Self {
        RegionSpec {
            name,
            variadic: false,
            single_block: false,
        }
    }
    /// One region with exactly one block.
    pub const fn sized(name: &'static str) -> Self {
        RegionSpec {
            name,
            variadic: false,
            single_block: true,
        }
    }
    /// Any number of regions.
    pub const fn variadic(name: &'static str) -> Self {
        RegionSpec {
            name,
            variadic: true,
            single_block: false,
        }
    }
    /// Any number of regions, each with exactly one block.
    pub const fn variadic_sized(name: &'static str) -> Self {
        RegionSpec {
            name,
            variadic: true,
            single_block: true,
        }
    }
}

/// An op's extra verification hook.
pub type VerifyFn = fn(&Context, Op) -> Result<(), Diagnostic>;

/// Verification of the symbols an op refers to (MLIR's
/// `SymbolUserOpInterface::verifySymbolUses`): lookups go through symbol tables
/// that the verifier indexes once per verification, so that a module of many calls
/// verifies in linear time.
pub type VerifySymbolUsesFn =
    fn(&Context, Op, &mut crate::symbol::SymbolTables) -> Result<(), Diagnostic>;

/// Hand-written custom assembly for ops whose syntax a declarative format cannot
/// express (`func.func`'s signature). The parser is called after the op name and
/// fills the state; the printer is called after the op name has been printed.
#[derive(Clone, Copy)]
pub struct CustomAsm {
    /// Parse everything after the op name (the trailing location is handled by the caller).
    pub parse:
        fn(&mut crate::syntax::parser::OpParser<'_, '_>, &mut OpState) -> Result<(), Diagnostic>,
    /// Print everything after the op name.
    pub print: fn(&mut crate::op_printer::OpPrinter<'_>, Op),
}

/// The declarative definition of an op.
#[derive(Clone, Copy)]
pub struct OpSpec {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Operand groups.
    pub operands: &'static [ValueSpec],
    /// Result groups.
    pub results: &'static [ValueSpec],
    /// Inherent attributes (stored as properties).
    pub attributes: &'static [AttrSpec],
    /// Regions.
    pub regions: &'static [RegionSpec],
    /// Number of successors, `None` for variadic.
    pub successors: Option<usize>,
    /// Traits.
    pub traits: Traits,
    /// Ops this one must be nested directly in (MLIR's `HasParent`), empty for any.
    pub parents: &'static [&'static str],
    /// Extra verification after the spec's checks.
    pub verify: Option<VerifyFn>,
    /// Verification of the symbols the op refers to, after `verify`.
    pub verify_symbol_uses: Option<VerifySymbolUsesFn>,
    /// Declarative assembly format, MLIR's syntax (`$lhs, $rhs attr-dict : type($result)`).
    pub format: Option<&'static str>,
    /// Hand-written syntax, used instead of `format` when set.
    pub custom: Option<CustomAsm>,
    /// Folding hook (MLIR's `fold`): the values the op's results fold to.
    pub fold: Option<crate::rewrite::FoldFn>,
    /// Canonicalisation patterns rooted at this op.
    pub canonicalize: &'static [&'static dyn crate::rewrite::RewritePattern],
    /// Dialect whose prefix may be omitted for ops nested in this op's regions.
    pub default_dialect: Option<&'static str>,
    /// Result types from operand types and inherent attributes, for formats that
    /// leave them out (MLIR's `InferTypeOpInterface`); `None` if they cannot be inferred.
    pub infer_results: Option<InferResultsFn>,
    /// The type of an operand group the format leaves out, from the types it
    /// gives (MLIR's `TypesMatchWith`: `memref.store`'s value has the memref's
    /// element type): called with the group's index and each group's written
    /// types, `None` where not written: the operand groups', then the result
    /// groups' (`vector.from_elements` takes its elements' from its result).
    pub infer_operand: Option<InferOperandFn>,
    /// Names the pretty printer gives results instead of numbers (MLIR's
    /// `getAsmResultNames`): one entry per result, `None` to keep the number.
    pub result_names: Option<ResultNamesFn>,
    /// The terminator the custom syntax leaves implicit (MLIR's
    /// `SingleBlockImplicitTerminator`): added by the parser where a region's block
    /// does not end in a terminator, and required by the verifier.
    pub implicit_terminator: Option<&'static str>,
    /// Verification after the ops nested in the regions are verified (MLIR's
    /// `verifyRegions`).
    pub verify_regions: Option<VerifyFn>,
    /// How control flows between the op and its regions (MLIR's
    /// `RegionBranchOpInterface`): used by the verifier, SCCP and LICM.
    pub region_branch: Option<&'static RegionBranch>,
    /// For a terminator that passes values to a region successor or back to the
    /// parent (MLIR's `RegionBranchTerminatorOpInterface`): which operands it
    /// forwards. Return-like terminators without it forward all operands.
    pub forwarded_operands: Option<fn(&Context, Op) -> std::ops::Range<usize>>,
    /// The op's meaning for the reference interpreter.
    pub interpret: Option<crate::interp::InterpretFn>,
    /// Names the pretty printer gives the entry-block arguments of region `i`
    /// (MLIR's `getAsmBlockArgumentNames`): one entry per argument, `None` to
    /// keep the number.
    pub region_arg_names: Option<RegionArgNamesFn>,
    /// Custom directives its format may use (`custom<Name>(...)`).
    pub directives: &'static [crate::asm::Directive],
}

/// A point control flows from or to in a region-branching op: the op itself
/// (entry from outside, or exit to its results) or one of its regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchPoint {
    /// The op: entering it from outside, or leaving to its results.
    Parent,
    /// Region `i` of the op.
    Region(usize),
}

/// See [`RegionBranch::successors`].
pub type SuccessorsFn =
    fn(&Context, Op, BranchPoint, &[Option<Attr>]) -> SmallVec<[BranchPoint; 2]>;

/// The control flow of a region-branching op (MLIR's `RegionBranchOpInterface`).
pub struct RegionBranch {
    /// Where control may go from `from` (the op's entry, or the terminators of a
    /// region), given the constant values of the operands of the branch point (the
    /// op's operands for `Parent`, the terminator's for a region; `None` where not
    /// constant). Constants may narrow the set; without them it is every possibility.
    pub successors: SuccessorsFn,
    /// The entry-block arguments of region `i` that receive the forwarded values;
    /// the others (induction variables) are defined by the op itself.
    pub region_inputs: fn(&Context, Op, usize) -> std::ops::Range<usize>,
    /// The operands of the op forwarded on entry to `to` (a region, or straight to
    /// the results when the regions may be skipped).
    pub entry_operands: fn(&Context, Op, BranchPoint) -> std::ops::Range<usize>,
    /// Whether the values terminators pass back to the op become its results
    /// (`false` where results are made otherwise, as `scf.parallel`'s reductions).
    pub forwards_results: bool,
}

impl RegionBranch {
    /// The values that receive what is forwarded to `to`: results for the parent,
    /// region inputs for a region.
    pub fn inputs(&self, ctx: &Context, op: Op, to: BranchPoint) -> SmallVec<[Value; 4]> {
        match to {
            BranchPoint::Parent if self.forwards_results => ctx.results(op).collect(),
            BranchPoint::Parent => SmallVec::new(),
            BranchPoint::Region(i) => {
                let Some(b) = ctx.regions(op).get(i).and_then(|r| ctx.entry_block(*r)) else {
                    return SmallVec::new();
                };
                let args = ctx.block_args(b);
                let range = (self.region_inputs)(ctx, op, i);
                args.get(range)
                    .map(|a| a.iter().copied().collect())
                    .unwrap_or_default()
            }
        }
    }
}

/// The operands a region terminator forwards to its successor (see
/// [`OpSpec::forwarded_operands`]); `None` when `term` forwards nothing it knows of.
pub fn forwarded_operands(ctx: &Context, term: Op) -> Option<std::ops::Range<usize>> {
    let spec = ctx.op_spec(term)?;
    if let Some(f) = spec.forwarded_operands {
        return Some(f(ctx, term));
    }
    spec.has(Traits::RETURN_LIKE)
        .then(|| 0..ctx.operands(term).len())
}

/// See [`OpSpec::infer_results`].
pub type InferResultsFn = fn(&Uniquer, &[Type], &[(Ident, Attr)]) -> Option<Vec<Type>>;

/// See [`OpSpec::infer_operand`].
pub type InferOperandFn = fn(&Uniquer, usize, &[Option<Vec<Type>>]) -> Option<Type>;

/// See [`OpSpec::result_names`].
pub type ResultNamesFn = fn(&Context, Op) -> Vec<Option<String>>;

/// See [`OpSpec::region_arg_names`]: names for the entry-block arguments of region `i`.
pub type RegionArgNamesFn = fn(&Context, Op, usize) -> Vec<Option<String>>;

impl std::fmt::Debug for OpSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpSpec({})", self.name)
    }
}

impl OpSpec {
    /// A spec with only a name; fill the rest with struct update syntax.
    pub const fn new(name: &'static str) -> Self {
        OpSpec {
            name,
            summary: "",
            operands: &[],
            results: &[],
            attributes: &[],
            regions: &[],
            successors: Some(0),
            traits: Traits::NONE,
            parents: &[],
            verify: None,
            verify_symbol_uses: None,
            format: None,
            custom: None,
            fold: None,
            canonicalize: &[],
            default_dialect: None,
            infer_results: None,
            infer_operand: None,
            result_names: None,
            implicit_terminator: None,
            verify_regions: None,
            region_branch: None,
            forwarded_operands: None,
            interpret: None,
            region_arg_names: None,
            directives: &[],
        }
    }
    /// The dialect prefix of the name.
    pub fn dialect(&self) -> &'static str {
        self.name.split_once('.').map_or(self.name, |(d, _)| d)
    }
    /// Whether the op has `t`.
    pub fn has(&self, t: Traits) -> bool {
        self.traits.has(t)
    }
    /// The values of the operand group `name` of `op`.
    pub fn operand_group<'c>(&self, ctx: &'c Context, op: Op, name: &str) -> &'c [Value] {
        let ranges = self.operand_ranges(ctx, op);
        let i = self
            .operands
            .iter()
            .position(|s| s.name == name)
            .expect("no such operand group");
        &ctx.operands(op)[ranges[i].clone()]
    }
    /// The inherent attribute `name` of `op`.
    pub fn attr(&self, ctx: &Context, op: Op, name: &str) -> Option<Attr> {
        ctx.find_ident(name).and_then(|i| ctx.inherent_attr(op, i))
    }
    /// Index ranges of each operand group for `n` actual operands.
    pub fn operand_ranges(&self, ctx: &Context, op: Op) -> Vec<std::ops::Range<usize>> {
        group_ranges(
            self.operands,
            ctx.operands(op).len(),
            segment_sizes(ctx, op, self.operands, "operandSegmentSizes"),
        )
    }
    /// Index ranges of each result group.
    pub fn result_ranges(&self, ctx: &Context, op: Op) -> Vec<std::ops::Range<usize>> {
        group_ranges(
            self.results,
            ctx.num_results(op),
            segment_sizes(ctx, op, self.results, "resultSegmentSizes"),
        )
    }
}

fn segment_sizes(ctx: &Context, op: Op, groups: &[ValueSpec], name: &str) -> Option<Vec<usize>> {
    // Only several variadic groups need the attribute (and looking it up by
    // name costs a hash per op).
    if groups.iter().filter(|g| g.arity != Arity::One).count() < 2 {
        return None;
    }
    let a = ctx.inherent_attr(op, ctx.find_ident(name)?)?;
    match ctx.attr_kind(a) {
        AttrKind::DenseArray { values, .. } => {
            Some(values.iter().map(|v| *v as u32 as usize).collect())
        }
        _ => None,
    }
}

/// Split `n` values among groups: fixed groups take one, a single variadic group
/// takes the rest; several variadic groups need explicit segment sizes.
pub fn group_ranges(
    groups: &[ValueSpec],
    n: usize,
    segments: Option<Vec<usize>>,
) -> Vec<std::ops::Range<usize>> {
    if let Some(seg) = segments.filter(|s| s.len() == groups.len() && s.iter().sum::<usize>() == n)
    {
        let mut start = 0;
        return seg
            .iter()
            .map(|&len| {
                let r = start..start + len;
                start += len;
                r
            })
            .collect();
    }
    let fixed = groups.iter().filter(|g| g.arity == Arity::One).count();
    let flexible = groups.len() - fixed;
    let spare = n.saturating_sub(fixed);
    let mut start = 0;
    groups
        .iter()
        .map(|g| {
            let len = match g.arity {
                Arity::One => 1,
                _ if flexible == 1 => spare,
                _ => 0,
            };
            let r = start..(start + len).min(n);
            start += len;
            r
        })
        .collect()
}

/// A dialect: a namespace of ops.
pub struct Dialect {
    /// Namespace (`func`).
    pub name: &'static str,
    /// One-line description.
    pub description: &'static str,
    /// Its ops.
    pub ops: &'static [OpSpec],
    /// Builds the op that materialises a folded constant of this dialect's ops
    /// (MLIR's `materializeConstant`): the state of a constant-like op holding
    /// `value` of type `ty`, or `None` when the dialect cannot.
    pub materialize_constant: Option<crate::rewrite::MaterializeFn>,
}

/// Reads the text of a dialect type after `!` (`tile.tile<16xf32>`) into its value:
/// `Ok(None)` keeps text the dialect does not model as an opaque type, `Err` is a
/// diagnostic at the type.
pub type ParseTypeFn = fn(&Uniquer, &str) -> Result<Option<DialectType>, String>;

/// Reads the text of a dialect attribute after `#` (`coord.desc<...>`,
/// `tile<level warp>`) into its value, as [`ParseTypeFn`] does for types.
pub type ParseAttrFn = fn(&Uniquer, &str) -> Result<Option<DialectAttr>, String>;

/// The types and attributes a dialect defines as Rust values (MLIR's
/// `Dialect::parseType` / `parseAttribute`): the generic parser hands the text of
/// `!name.…` and `#name.…` / `#name<…>` to them. Their values print themselves
/// ([`crate::types::DialectValue`]).
#[derive(Debug)]
pub struct DialectSyntax {
    /// The dialect namespace (`tile`).
    pub dialect: &'static str,
    /// The parser of its types.
    pub parse_type: Option<ParseTypeFn>,
    /// The parser of its attributes.
    pub parse_attr: Option<ParseAttrFn>,
}

/// The dialect namespace of the text after `!` or `#`: up to the first `.` or `<`.
fn namespace(body: &str) -> &str {
    body.split(['.', '<']).next().unwrap_or(body)
}

/// All dialects known to a tool.
#[derive(Default)]
pub struct DialectRegistry {
    dialects: Vec<&'static Dialect>,
    ops: HashMap<&'static str, (&'static OpSpec, Option<Arc<Format>>), FxBuild>,
    syntax: Vec<&'static DialectSyntax>,
}

impl DialectRegistry {
    /// A registry holding `builtin` only.
    pub fn new() -> Self {
        let mut r = DialectRegistry::default();
        r.register(&crate::builtin::DIALECT);
        r
    }
    /// Add a dialect. Registering the same dialect twice is a no-op.
    ///
    /// A dialect may be declared in parts (several `Dialect`s with one name, as a
    /// large dialect's op families in separate modules): the first part is the
    /// dialect, later parts add their ops. Registering the same part twice does
    /// nothing.
    pub fn register(&mut self, d: &'static Dialect) {
        if self.dialects.iter().any(|x| std::ptr::eq(*x, d)) {
            return;
        }
        if !self.dialects.iter().any(|x| x.name == d.name) {
            self.dialects.push(d);
        }
        for spec in d.ops {
            // A malformed format is a bug in the dialect, caught by its first test.
            let format = spec.format.map(|f| {
                Arc::new(
                    Format::compile(spec, f)
                        .unwrap_or_else(|e| panic!("bad assembly format of '{}': {e}", spec.name)),
                )
            });
            self.ops.insert(spec.name, (spec, format));
        }
    }
    /// Let the generic parser read the types and attributes of a dialect as values
    /// (see [`DialectSyntax`]). A dialect may add several; each is asked in turn.
    pub fn add_syntax(&mut self, s: &'static DialectSyntax) {
        if !self.syntax.iter().any(|x| std::ptr::eq(*x, s)) {
            self.syntax.push(s);
        }
    }
    /// The type `!body`, as a value of its dialect's registered syntax; `Ok(None)`
    /// when no registered parser models it (the caller keeps it opaque).
    pub fn parse_dialect_type(&self, u: &Uniquer, body: &str) -> Result<Option<Type>, String> {
        let ns = namespace(body);
        for s in self.syntax.iter().filter(|s| s.dialect == ns) {
            if let Some(v) = s.parse_type.map(|f| f(u, body)).transpose()?.flatten() {
                return Ok(Some(u.ty(TypeKind::Dialect(v))));
            }
        }
        Ok(None)
    }
    /// The attribute `#body`, as [`parse_dialect_type`](Self::parse_dialect_type).
    pub fn parse_dialect_attr(&self, u: &Uniquer, body: &str) -> Result<Option<Attr>, String> {
        let ns = namespace(body);
        for s in self.syntax.iter().filter(|s| s.dialect == ns) {
            if let Some(v) = s.parse_attr.map(|f| f(u, body)).transpose()?.flatten() {
                return Ok(Some(u.attr(AttrKind::Dialect(v))));
            }
        }
        Ok(None)
    }
    /// Registered dialects in registration order.
    pub fn dialects(&self) -> &[&'static Dialect] {
        &self.dialects
    }
    /// Whether a dialect namespace is registered.
    pub fn has_dialect(&self, name: &str) -> bool {
        self.dialects.iter().any(|d| d.name == name)
    }
    /// The spec of an op by name.
    pub fn op(&self, name: &str) -> Option<&'static OpSpec> {
        self.ops.get(name).map(|e| e.0)
    }
    /// The compiled declarative assembly format of an op, if it has one.
    pub fn format(&self, name: &str) -> Option<&Arc<Format>> {
        self.ops.get(name).and_then(|e| e.1.as_ref())
    }
    /// The spec of an op by interned name.
    pub fn lookup(&self, name: Ident, uniq: &Uniquer) -> Option<&'static OpSpec> {
        self.op(uniq.str(name))
    }
}

/// Shared check used by verifiers and formats: does `ty` satisfy `c`?
pub fn satisfies(uniq: &Uniquer, c: &TypeConstraint, ty: Type) -> bool {
    (c.check)(uniq.type_kind(ty), uniq)
}

#[cfg(test)]
mod tests {
    use super::BitEnum;
    use crate::attributes::AttrKind;

    static FLAGS: BitEnum = BitEnum {
        attr: "t.flags",
        none: "none",
        bits: &[("a", 1), ("b", 2), ("c", 4)],
        groups: &[("ab", 3)],
        separator: ", ",
    };

    #[test]
    fn bit_enums_print_groups_first_then_bits_in_order() {
        assert_eq!(FLAGS.keywords(0), "none");
        assert_eq!(FLAGS.keywords(4 | 1), "a, c");
        assert_eq!(FLAGS.keywords(7), "ab, c");
        let u = crate::ir::Uniquer::default();
        let read = |s: &str| {
            FLAGS
                .parse_attr(s)
                .and_then(|v| FLAGS.bits_of(&AttrKind::Dialect(v)))
        };
        assert_eq!(read("t.flags<c,a>"), Some(5));
        assert_eq!(read("t.flags<ab, none>"), Some(3));
        assert_eq!(read("t.flags<d>"), None);
        assert_eq!(read("u.flags<a>"), None);
        // Any keyword order is one attribute, printed canonically.
        let a = u.attr(AttrKind::Dialect(
            FLAGS.parse_attr("t.flags<c,b,a>").unwrap(),
        ));
        assert_eq!(a, FLAGS.attr(&u, 7));
        assert_eq!(FLAGS.bits_of(u.attr_kind(a)), Some(7));
        let mut out = String::new();
        crate::types::DialectValue::print(
            u.attr_kind(a)
                .dialect_value::<super::BitEnumValue>()
                .unwrap(),
            &u,
            &mut out,
        );
        assert_eq!(out, "t.flags<ab, c>");
        assert_eq!(FLAGS.bits_of(&AttrKind::Opaque("t.flags<a>".into())), None);
    }

    crate::dialect_enum! {
        /// An enum for the tests.
        pub enum Mode = "t<mode ", "test mode (fast, slow)" {
            /// Fast.
            Fast = "fast",
            /// Slow.
            Slow = "slow",
        }
    }

    #[test]
    fn dialect_enums_build_read_print_and_parse_typed_attributes() {
        let u = crate::ir::Uniquer::default();
        let a = Mode::Slow.attr(&u);
        assert_eq!(Mode::of(&u, a), Some(Mode::Slow));
        assert_eq!(Mode::of(&u, u.string_attr("slow")), None);
        assert_eq!(Mode::Fast.keyword(), "fast");
        assert_eq!(Mode::from_keyword("slow"), Some(Mode::Slow));
        assert_eq!(Mode::from_keyword("medium"), None);
        assert!((Mode::CONSTRAINT.check)(u.attr_kind(a), &u));
        assert!(!(Mode::CONSTRAINT.check)(
            &AttrKind::Opaque("t<mode slow>".into()),
            &u
        ));
        let mut out = String::new();
        crate::types::DialectValue::print(&Mode::Slow, &u, &mut out);
        assert_eq!(out, "t<mode slow>");
        let parsed = Mode::parse_attr("t<mode slow>").expect("parses");
        assert_eq!(u.attr(AttrKind::Dialect(parsed)), a);
        assert!(Mode::parse_attr("t<mode medium>").is_none());
        assert!(Mode::parse_attr("t<kind slow>").is_none());
        let super::AttrSyntax::Keyword(s) = Mode::CONSTRAINT.syntax else {
            panic!("keyword syntax")
        };
        assert_eq!((s.index)(u.attr_kind((s.attr)(&u, 1))), Some(1));
        assert_eq!(s.keywords, ["fast", "slow"]);
    }

    /// A dialect value for the tests: `!t.pair<a, b>` / `#t.pair<a, b>`.
    #[derive(Debug, PartialEq, Eq, Hash)]
    struct Pair(i64, i64);

    impl crate::types::DialectValue for Pair {
        fn print(&self, _: &crate::ir::Uniquer, out: &mut String) {
            out.push_str(&format!("t.pair<{}, {}>", self.0, self.1));
        }
    }

    fn parse_pair(body: &str) -> Result<Option<crate::types::DialectObject>, String> {
        let Some(inner) = body.strip_prefix("t.pair<") else {
            return Ok(None);
        };
        let nums: Vec<i64> = inner
            .strip_suffix('>')
            .into_iter()
            .flat_map(|b| b.split(','))
            .map(|x| x.trim().parse::<i64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("malformed pair '{body}'"))?;
        match nums[..] {
            [a, b] => Ok(Some(crate::types::DialectObject::new(Pair(a, b)))),
            _ => Err(format!("malformed pair '{body}'")),
        }
    }

    static PAIRS: super::DialectSyntax = super::DialectSyntax {
        dialect: "t",
        parse_type: Some(|_, body| parse_pair(body)),
        parse_attr: Some(|_, body| parse_pair(body)),
    };

    /// Parses `text` as a module with the `t` pair syntax registered.
    fn parse(text: &str) -> Result<(crate::ir::Context, crate::ir::Op), crate::Diagnostic> {
        let mut reg = super::DialectRegistry::new();
        reg.add_syntax(&PAIRS);
        let mut ctx = crate::ir::Context::new(std::sync::Arc::new(reg));
        ctx.allow_unregistered = true;
        let mut sm = crate::diagnostics::SourceMap::new();
        let f = sm.add("t.mlir", text.to_string());
        let m = crate::syntax::with_parser_stack(|| crate::syntax::parse_module(&mut ctx, &sm, f))?;
        Ok((ctx, m))
    }

    fn first_op(ctx: &crate::ir::Context, m: crate::ir::Op) -> crate::ir::Op {
        let body = ctx.entry_block(ctx.regions(m)[0]).expect("module body");
        ctx.block_ops(body).next().expect("an op")
    }

    const PAIR_OP: &str =
        "\"t.a\"() {p = #t.pair<1, 2>, q = #t.pair<1,2>, o = #t.other<x>} : () -> !t.pair<3, 4>\n";

    #[test]
    fn registered_dialect_values_parse_intern_print_and_downcast() {
        let (ctx, m) = parse(PAIR_OP).expect("parses");
        let op = first_op(&ctx, m);
        let attr = |n: &str| ctx.attr_of(op, ctx.ident(n)).expect("attribute");
        // Equal values intern to one attribute, whatever the spacing of their text.
        assert_eq!(attr("p"), attr("q"));
        assert_eq!(ctx.dialect_attr::<Pair>(attr("p")), Some(&Pair(1, 2)));
        assert_eq!(ctx.attr(AttrKind::dialect(Pair(1, 2))), attr("p"));
        assert_ne!(ctx.attr(AttrKind::dialect(Pair(2, 1))), attr("p"));
        let ty = ctx.value_type(ctx.result(op, 0));
        assert_eq!(ctx.dialect_type::<Pair>(ty), Some(&Pair(3, 4)));
        assert_eq!(
            ctx.ty(crate::types::TypeKind::dialect(Pair(3, 4))),
            ty,
            "a built type is the parsed one"
        );
        // A value of another Rust type is not a `Pair`.
        assert_eq!(
            ctx.dialect_type::<Pair>(ctx.ty(crate::types::TypeKind::Index)),
            None
        );
        // Text the dialect does not model, and unregistered dialects, stay opaque.
        assert!(matches!(ctx.attr_kind(attr("o")), AttrKind::Opaque(t) if &**t == "t.other<x>"));
        assert_eq!(crate::printer::type_text(&ctx, ty), "!t.pair<3, 4>");
        let printed = crate::op_printer::print_op(&ctx, op, Default::default());
        assert!(
            printed.contains("{o = #t.other<x>, p = #t.pair<1, 2>, q = #t.pair<1, 2>}"),
            "{printed}"
        );
        // The printed text reads back to the same values.
        let (ctx2, m2) = parse(&printed).expect("reparses");
        let op2 = first_op(&ctx2, m2);
        let again = crate::op_printer::print_op(&ctx2, op2, Default::default());
        assert_eq!(again, printed);
    }

    #[test]
    fn unregistered_dialects_stay_opaque() {
        let text = "\"t.a\"() {p = #u.pair<1, 2>} : () -> !u.pair<3, 4>\n";
        let (ctx, m) = parse(text).expect("parses");
        let op = first_op(&ctx, m);
        let p = ctx.attr_of(op, ctx.ident("p")).expect("attribute");
        assert!(matches!(ctx.attr_kind(p), AttrKind::Opaque(t) if &**t == "u.pair<1, 2>"));
        let ty = ctx.value_type(ctx.result(op, 0));
        assert!(
            matches!(ctx.type_kind(ty), crate::types::TypeKind::Opaque(t) if &**t == "u.pair<3, 4>")
        );
    }

    #[test]
    fn a_malformed_registered_type_is_an_error_at_the_type() {
        let text = "\"t.a\"() : () -> !t.pair<3>\n";
        let e = parse(text).err().expect("fails");
        assert_eq!(e.message, "malformed pair 't.pair<3>'");
        let start = text.find("!t.pair").unwrap();
        assert!(
            matches!(e.at, crate::diagnostics::Where::Span { start: s, end, .. } if s == start && end == start + "!t.pair<3>".len()),
            "{:?}",
            e.at
        );
        let text = "\"t.a\"() {p = #t.pair<x, 1>} : () -> ()\n";
        let e = parse(text).err().expect("fails");
        assert_eq!(e.message, "malformed pair 't.pair<x, 1>'");
    }
}
