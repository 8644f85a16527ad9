//! aic's framework: the arena IR, interned types and attributes, diagnostics and
//! the dialect registry. It knows no dialect but `builtin` and links neither LLVM
//! nor MLIR, so it builds and tests quickly.

// pest without its `std` feature (which adds a stack probe to every rule call) refers to
// `crate::alloc` in generated code; our own nesting limits guard the stack instead.
extern crate alloc;

pub mod affine;
pub mod alias;
pub mod asm;
pub mod attributes;
pub mod builtin;
pub mod constraints;
pub mod conversion;
pub mod diagnostics;
pub mod dialect;
pub mod eqsat;
pub mod float;
pub mod intern;
pub mod interp;
pub mod ir;
pub mod op_def;
pub mod op_printer;
pub mod pass;
pub mod pattern;
pub mod printer;
pub mod rewrite;
pub mod shape;
pub mod symbol;
pub mod syntax;
pub mod types;
pub mod verifier;

pub use attributes::{Attr, AttrKind, Ident, LocKind};
pub use diagnostics::{Diagnostic, Severity, SourceMap, Where};
pub use dialect::{DialectRegistry, OpSpec, Traits};
pub use ir::{Block, Builder, Context, Op, OpState, Region, Uniquer, Value};
pub use types::{Type, TypeKind};
