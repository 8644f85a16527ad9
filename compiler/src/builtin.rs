//! The `builtin` dialect's ops: `builtin.module` and `builtin.unrealized_conversion_cast`.

use crate::diagnostics::Diagnostic;
use crate::dialect::{Dialect, OpSpec, RegionSpec, Traits, ValueSpec, ac, tc};
use crate::ir::{Context, Op};

/// `builtin.module`: a top-level container of symbols.
pub const MODULE: OpSpec = OpSpec {
    summary: "A top level container operation",
    attributes: &[
        crate::dialect::AttrSpec::optional("sym_name", ac::SYMBOL_NAME),
        crate::dialect::AttrSpec::optional("sym_visibility", ac::STRING),
    ],
    regions: &[RegionSpec::sized("bodyRegion")],
    traits: Traits::ISOLATED_FROM_ABOVE
        .with(Traits::NO_TERMINATOR)
        .with(Traits::SINGLE_BLOCK)
        .with(Traits::SYMBOL_TABLE)
        .with(Traits::GRAPH_REGION)
        .with(Traits::AFFINE_SCOPE),
    format: Some("($sym_name^)? attr-dict-with-keyword $bodyRegion"),
    default_dialect: Some("builtin"),
    verify: Some(verify_module),
    ..OpSpec::new("builtin.module")
};

/// Discardable attributes on a module must name their dialect (`test.flag`), so that
/// tools can tell whose they are.
fn verify_module(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    for (k, _) in &ctx.op(op).attrs {
        let name = ctx.str(*k);
        if !name.contains('.') {
            return Err(Diagnostic::error(format!(
                "'builtin.module' op can only contain attributes with dialect-prefixed names, found: '{name}'"
            ))
            .at_loc(ctx.op(op).loc));
        }
    }
    Ok(())
}

/// `builtin.unrealized_conversion_cast`: a placeholder cast left by partial conversions.
pub const UNREALIZED_CONVERSION_CAST: OpSpec = OpSpec {
    summary: "An unrealized conversion from one set of types to another",
    operands: &[ValueSpec::variadic("inputs", tc::ANY)],
    results: &[ValueSpec::variadic("outputs", tc::ANY)],
    traits: Traits::PURE,
    format: Some("($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"),
    ..OpSpec::new("builtin.unrealized_conversion_cast")
};

/// The builtin dialect.
pub static DIALECT: Dialect = Dialect {
    name: "builtin",
    description: "types, attributes and the module op that every tool knows",
    ops: &[MODULE, UNREALIZED_CONVERSION_CAST],
};
