//! The `builtin` dialect's ops: `builtin.module` and `builtin.unrealized_conversion_cast`.

use crate::diagnostics::Diagnostic;
use crate::dialect::{Dialect, OpSpec, Traits, ac, tc};
use crate::ir::{Context, Op, Value};
use crate::op_def::OpHandle;
use crate::rewrite::FoldResult;
use crate::types::Type;

crate::op! {
    /// `builtin.module`: a top-level container of symbols.
    pub Module = MODULE {
        attributes: [
            sym_name: optional(ac::SYMBOL_NAME),
            sym_visibility: optional(ac::STRING),
        ],
        regions: [body_region = "bodyRegion": sized],
        spec: OpSpec {
            summary: "A top level container operation",
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
        },
    }
}

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

crate::op! {
    /// `builtin.unrealized_conversion_cast`: a placeholder cast left by partial conversions.
    pub UnrealizedConversionCast = UNREALIZED_CONVERSION_CAST {
        operands: [inputs: variadic(tc::ANY)],
        results: [outputs: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "An unrealized conversion from one set of types to another",
            traits: Traits::PURE,
            format: Some("($inputs^ `:` type($inputs))? `to` type($outputs) attr-dict"),
            fold: Some(fold_cast),
            ..OpSpec::new("builtin.unrealized_conversion_cast")
        },
    }
}

/// MLIR's folds of `unrealized_conversion_cast`: a cast to the types it already has
/// is its inputs, and a cast that undoes the cast producing all its inputs is that
/// cast's inputs.
fn fold_cast(
    ctx: &mut Context,
    op: Op,
    _: &[Option<crate::Attr>],
) -> Option<smallvec::SmallVec<[FoldResult; 1]>> {
    let ins: Vec<Value> = ctx.operands(op).to_vec();
    let types = |ctx: &Context, vs: &mut dyn Iterator<Item = Value>| -> Vec<Type> {
        vs.map(|v| ctx.value_type(v)).collect()
    };
    let out_types = types(ctx, &mut ctx.results(op));
    if types(ctx, &mut ins.iter().copied()) == out_types {
        return Some(ins.into_iter().map(FoldResult::Value).collect());
    }
    let producer = ctx.defining_op(*ins.first()?)?;
    if !UnrealizedConversionCast::is(ctx, producer)
        || ctx.results(producer).collect::<Vec<_>>() != ins
        || types(ctx, &mut ctx.operands(producer).iter().copied()) != out_types
    {
        return None;
    }
    Some(
        ctx.operands(producer)
            .iter()
            .map(|v| FoldResult::Value(*v))
            .collect(),
    )
}

/// The builtin dialect.
pub static DIALECT: Dialect = Dialect {
    name: "builtin",
    description: "types, attributes and the module op that every tool knows",
    ops: &[MODULE, UNREALIZED_CONVERSION_CAST],
    materialize_constant: None,
};
