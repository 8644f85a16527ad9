//! The `func` dialect, with exactly MLIR's syntax: `func.func`, `func.return`, `func.call`.

use aic::attributes::{Attr, AttrKind, Ident};
use aic::dialect::{CustomAsm, Dialect, OpSpec, Traits, ac, tc};
use aic::ir::{Context, Op, OpState};
use aic::op_def::OpHandle;
use aic::op_printer::OpPrinter;
use aic::symbol::{self, SymbolTables};
use aic::syntax::parser::{Argument, OpParser};
use aic::types::{Type, TypeKind};
use aic::verifier::{op_error, quoted_type, quoted_types};
use aic::{Diagnostic, Where};

type R<T> = Result<T, Diagnostic>;

aic::op! {
    /// `func.func`: a function with a signature and an optional body.
    pub Func = FUNC {
        attributes: [
            sym_name: required(ac::SYMBOL_NAME),
            function_type: required(ac::FUNCTION_TYPE),
            sym_visibility: optional(ac::STRING),
            arg_attrs: optional(ac::DICT_ARRAY),
            res_attrs: optional(ac::DICT_ARRAY),
            no_inline: optional(ac::UNIT),
        ],
        regions: [body: any],
        spec: OpSpec {
            summary: "An operation with a name containing a single `SSACFG` region",
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::SYMBOL)
                .with(Traits::AFFINE_SCOPE),
            custom: Some(CustomAsm {
                parse: parse_func,
                print: print_func,
            }),
            verify: Some(verify_func),
            default_dialect: Some("func"),
            ..OpSpec::new("func.func")
        },
    }
}

aic::op! {
    /// `func.return`: returns values from the enclosing `func.func`.
    pub Return = RETURN {
        operands: [operands: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "Function return operation",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[FUNC.name],
            format: Some("attr-dict ($operands^ `:` type($operands))?"),
            verify: Some(verify_return),
            ..OpSpec::new("func.return")
        },
    }
}

aic::op! {
    /// `func.call`: a direct call to a `func.func` by symbol.
    pub Call = CALL {
        operands: [operands: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [
            callee: required(ac::FLAT_SYMBOL_REF),
            arg_attrs: optional(ac::DICT_ARRAY),
            res_attrs: optional(ac::DICT_ARRAY),
            no_inline: optional(ac::UNIT),
        ],
        spec: OpSpec {
            summary: "call operation",
            format: Some("$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)"),
            verify: Some(verify_call),
            verify_symbol_uses: Some(verify_call_symbol),
            interpret: Some(interpret_call),
            ..OpSpec::new("func.call")
        },
    }
}

/// The `func` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "func",
    description: "functions, calls and returns",
    ops: &[FUNC, RETURN, CALL],
    materialize_constant: None,
};

/// The function type of a `func.func` (`None` if the attribute is missing or wrong).
pub fn function_type(ctx: &Context, f: Op) -> Option<(Vec<Type>, Vec<Type>)> {
    let a = FUNC.attr(ctx, f, "function_type")?;
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => match ctx.type_kind(*t) {
            TypeKind::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
            _ => None,
        },
        _ => None,
    }
}

/// Sets function `f`'s `function_type` to its entry block's argument types
/// and the types its (single block's) terminator returns: after a pass has
/// changed the arguments or the values returned.
pub fn sync_function_type(ctx: &mut Context, f: Op) {
    let Some(block) = ctx
        .regions(f)
        .first()
        .and_then(|r| ctx.region_blocks(*r).next())
    else {
        return;
    };
    let ins: Vec<Type> = ctx
        .block_args(block)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let outs: Vec<Type> = ctx
        .block_ops(block)
        .last()
        .map(|r| ctx.operands(r).iter().map(|v| ctx.value_type(*v)).collect())
        .unwrap_or_default();
    let u = ctx.uniquer().clone();
    let ft = u.attr(AttrKind::Type(u.function_type(&ins, &outs)));
    ctx.set_inherent_attr(f, u.ident("function_type"), ft);
}

/// The `sym_name` of an op, if it has one.
fn sym_name(ctx: &Context, op: Op) -> Option<&str> {
    let id = ctx.find_ident("sym_name")?;
    ctx.attr_str(ctx.inherent_attr(op, id)?)
}

// ---------------------------------------------------------------- func.func syntax

fn parse_func(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    let mut props: Vec<(Ident, Attr)> = Vec::new();
    let u = p.uniquer();
    for vis in ["private", "public", "nested"] {
        if p.eat_keyword(vis) {
            props.push((u.ident("sym_visibility"), u.string_attr(vis)));
            break;
        }
    }
    let name = p.parse_symbol_name()?;
    let u = p.uniquer();
    props.push((u.ident("sym_name"), u.string_attr(&name)));
    // Arguments: all named (`%a: i32`) when there is a body, or all plain types.
    p.expect_token("(")?;
    let mut args: Vec<Argument> = Vec::new();
    let mut arg_types = Vec::new();
    let mut arg_attrs: Vec<Option<Attr>> = Vec::new();
    let mut named: Option<bool> = None;
    if !p.eat_token(")") {
        loop {
            let at = p.pos();
            let is_named = p.peek_byte() == Some(b'%');
            match named {
                Some(n) if n != is_named => {
                    return Err(p.error_at(
                        at,
                        if n {
                            "expected SSA identifier"
                        } else {
                            "expected type instead of SSA identifier"
                        },
                    ));
                }
                _ => named = Some(is_named),
            }
            if is_named {
                let a = p.parse_argument()?;
                arg_types.push(a.ty);
                arg_attrs.push(a.attrs);
                args.push(a);
            } else {
                arg_types.push(p.parse_type()?);
                let d = p.parse_optional_attr_dict()?;
                arg_attrs.push((!d.is_empty()).then(|| p.uniquer().dict_attr(d)));
            }
            if !p.eat_token(",") {
                break;
            }
        }
        p.expect_token(")")?;
    }
    let mut result_types = Vec::new();
    let mut result_attrs: Vec<Option<Attr>> = Vec::new();
    if p.eat_token("->") {
        if p.eat_token("(") {
            if !p.eat_token(")") {
                loop {
                    result_types.push(p.parse_type()?);
                    let d = p.parse_optional_attr_dict()?;
                    result_attrs.push((!d.is_empty()).then(|| p.uniquer().dict_attr(d)));
                    if !p.eat_token(",") {
                        break;
                    }
                }
                p.expect_token(")")?;
            }
        } else {
            result_types.push(p.parse_type()?);
            result_attrs.push(None);
        }
    }
    let u = p.uniquer();
    let fty = u.function_type(&arg_types, &result_types);
    props.push((u.ident("function_type"), u.attr(AttrKind::Type(fty))));
    for (key, attrs) in [("arg_attrs", &arg_attrs), ("res_attrs", &result_attrs)] {
        if attrs.iter().any(Option::is_some) {
            let empty = u.dict_attr(Vec::new());
            let list = attrs.iter().map(|a| a.unwrap_or(empty)).collect();
            props.push((u.ident(key), u.attr(AttrKind::Array(list))));
        }
    }
    let dict_at = p.pos();
    if p.eat_keyword("attributes") {
        let dict = p.parse_optional_attr_dict()?;
        if let Some((k, _)) = dict
            .iter()
            .find(|(k, _)| matches!(u.str(*k), "sym_visibility" | "sym_name" | "function_type"))
        {
            return Err(p.error_at(
                dict_at,
                format!(
                    "'{}' is an inferred attribute and should not be specified in the explicit attribute dictionary",
                    u.str(*k)
                ),
            ));
        }
        aic::asm::split_attr_dict(&u, &FUNC, dict, &mut props, st);
    }
    if p.peek_byte() == Some(b'{') {
        let at = p.pos();
        let body = p.parse_region(&args)?;
        if p.context().entry_block(body).is_none() {
            return Err(p.error_at(at, "expected non-empty function body"));
        }
        st.regions.push(body);
    } else {
        st.num_regions = 1;
    }
    st.props = Some(p.uniquer().dict_attr(props));
    Ok(())
}

fn print_func(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    pr.out.push(' ');
    if let Some(v) = FUNC
        .attr(ctx, op, "sym_visibility")
        .and_then(|a| ctx.attr_str(a))
    {
        pr.out.push_str(v);
        pr.out.push(' ');
    }
    pr.symbol_name(sym_name(ctx, op).unwrap_or_default());
    let (ins, outs) = function_type(ctx, op).unwrap_or_default();
    let dicts = |name: &str| -> Option<Vec<Attr>> {
        let a = FUNC.attr(ctx, op, name)?;
        match ctx.attr_kind(a) {
            AttrKind::Array(xs) => Some(xs.to_vec()),
            _ => None,
        }
    };
    let arg_attrs = dicts("arg_attrs");
    let res_attrs = dicts("res_attrs");
    let body = ctx.regions(op).first().copied();
    let entry = body.and_then(|r| ctx.entry_block(r));
    pr.out.push('(');
    for (i, t) in ins.iter().enumerate() {
        if i > 0 {
            pr.out.push_str(", ");
        }
        let attrs = arg_attrs
            .as_ref()
            .and_then(|a| a.get(i))
            .map(|d| ctx.dict_entries(*d).to_vec())
            .unwrap_or_default();
        match entry.and_then(|b| ctx.block_args(b).get(i).copied()) {
            Some(arg) => {
                pr.value(arg);
                pr.out.push_str(": ");
                pr.ty(ctx.value_type(arg));
                pr.attr_entries(&attrs, &[], false);
                pr.optional_location(ctx.value(arg).loc);
            }
            None => {
                pr.ty(*t);
                pr.attr_entries(&attrs, &[], false);
            }
        }
    }
    pr.out.push(')');
    if !outs.is_empty() {
        pr.out.push_str(" -> ");
        let first_has_attrs = res_attrs
            .as_ref()
            .and_then(|a| a.first())
            .is_some_and(|d| !ctx.dict_entries(*d).is_empty());
        let parens = outs.len() > 1
            || matches!(ctx.type_kind(outs[0]), TypeKind::Function { .. })
            || first_has_attrs;
        if parens {
            pr.out.push('(');
        }
        for (i, t) in outs.iter().enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.ty(*t);
            if let Some(d) = res_attrs.as_ref().and_then(|a| a.get(i)) {
                let entries = ctx.dict_entries(*d).to_vec();
                pr.attr_entries(&entries, &[], false);
            }
        }
        if parens {
            pr.out.push(')');
        }
    }
    pr.attr_dict(
        op,
        &[
            "sym_visibility",
            "function_type",
            "arg_attrs",
            "res_attrs",
            "sym_name",
        ],
        true,
    );
    if entry.is_some() {
        pr.out.push(' ');
        pr.region(body.expect("has an entry block"), false, true);
    }
}

// ---------------------------------------------------------------- verification

/// Compare `got` against `want`: a count mismatch or the first differing pair is
/// reported with the message the caller words.
fn check_types(
    got: &[Type],
    want: &[Type],
    count: impl FnOnce() -> Diagnostic,
    mismatch: impl FnOnce(usize, Type, Type) -> Diagnostic,
) -> R<()> {
    if got.len() != want.len() {
        return Err(count());
    }
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(i) => Err(mismatch(i, got[i], want[i])),
        None => Ok(()),
    }
}

fn value_types(ctx: &Context, vs: &[aic::Value]) -> Vec<Type> {
    vs.iter().map(|v| ctx.value_type(*v)).collect()
}

fn verify_func(ctx: &Context, op: Op) -> R<()> {
    let Some((ins, _)) = function_type(ctx, op) else {
        return Ok(());
    };
    let Some(entry) = ctx.entry_block(Func(op).body(ctx)) else {
        // A declaration: only private ones may leave out the body.
        if symbol::visibility(ctx, op) == Some(symbol::Visibility::Public) {
            return Err(op_error(
                ctx,
                op,
                "symbol declaration cannot have public visibility",
            ));
        }
        return Ok(());
    };
    check_types(
        &value_types(ctx, ctx.block_args(entry)),
        &ins,
        || {
            op_error(
                ctx,
                op,
                format_args!(
                    "entry block must have {} arguments to match function signature",
                    ins.len()
                ),
            )
        },
        |i, got, want| {
            op_error(
                ctx,
                op,
                format_args!(
                    "type of entry block argument #{i}({}) must match the type of the corresponding argument in function signature({})",
                    quoted_type(ctx, got),
                    quoted_type(ctx, want)
                ),
            )
        },
    )
}

fn verify_return(ctx: &Context, op: Op) -> R<()> {
    let Some(f) = ctx.parent_op(op).filter(|f| Func::is(ctx, *f)) else {
        return Ok(());
    };
    let Some((_, results)) = function_type(ctx, f) else {
        return Ok(());
    };
    let name = sym_name(ctx, f).unwrap_or_default();
    let operands = value_types(ctx, Return(op).operands(ctx));
    check_types(
        &operands,
        &results,
        || {
            op_error(
                ctx,
                op,
                format_args!(
                    "has {} operands, but enclosing function (@{name}) returns {}",
                    operands.len(),
                    results.len()
                ),
            )
        },
        |i, got, want| {
            op_error(
                ctx,
                op,
                format_args!(
                    "type of return operand {i} ({}) doesn't match function result type ({}) in function @{name}",
                    quoted_type(ctx, got),
                    quoted_type(ctx, want)
                ),
            )
        },
    )
}

fn verify_call(ctx: &Context, op: Op) -> R<()> {
    if Call(op).callee(ctx).is_none() {
        return Err(op_error(
            ctx,
            op,
            "requires a 'callee' symbol reference attribute",
        ));
    }
    Ok(())
}

/// The callee exists, is a `func.func` and takes and returns the call's types.
fn verify_call_symbol(ctx: &Context, op: Op, symbols: &mut SymbolTables) -> R<()> {
    let call = Call(op);
    let Some(callee) = call.callee(ctx) else {
        return Ok(());
    };
    // Symbol uses are checked against an enclosing symbol table; a function
    // verified on its own (copied out to run passes in parallel) has none, as
    // with MLIR's symbol-use verification at the table.
    if symbol::nearest_symbol_table(ctx, op).is_none() {
        return Ok(());
    }
    let Some(f) = symbols
        .lookup_nearest_symbol_from(ctx, op, callee)
        .filter(|f| Func::is(ctx, *f))
    else {
        let name = match ctx.attr_kind(callee) {
            AttrKind::SymbolRef { root, .. } => ctx.str(*root).to_string(),
            _ => String::new(),
        };
        return Err(op_error(
            ctx,
            op,
            format_args!("'{name}' does not reference a valid function"),
        ));
    };
    let Some((ins, outs)) = function_type(ctx, f) else {
        return Ok(());
    };
    check_types(
        &value_types(ctx, call.operands(ctx)),
        &ins,
        || op_error(ctx, op, "incorrect number of operands for callee"),
        |i, got, want| {
            op_error(
                ctx,
                op,
                format_args!(
                    "operand type mismatch: expected operand type {}, but provided {} for operand number {i}",
                    quoted_type(ctx, want),
                    quoted_type(ctx, got)
                ),
            )
        },
    )?;
    let got: Vec<Type> = call
        .results(ctx)
        .iter()
        .map(|r| ctx.value_type(*r))
        .collect();
    check_types(
        &got,
        &outs,
        || op_error(ctx, op, "incorrect number of results for callee"),
        |i, _, _| {
            let loc = Where::Loc(ctx.op(op).loc);
            op_error(ctx, op, format_args!("result type mismatch at index {i}"))
                .with_note(
                    format!("      op result types: {}", quoted_types(ctx, &got)),
                    loc,
                )
                .with_note(
                    format!("function result types: {}", quoted_types(ctx, &outs)),
                    loc,
                )
        },
    )
}

/// `func.call`: run the callee's body on the operands.
fn interpret_call(
    it: &mut aic::interp::Interp<'_>,
    op: Op,
    args: &[aic::interp::Tensor],
) -> aic::interp::IResult<Vec<aic::interp::Tensor>> {
    let ctx = it.ctx;
    let f = Call(op)
        .callee(ctx)
        .and_then(|c| it.symbols.lookup_nearest_symbol_from(ctx, op, c))
        .ok_or_else(|| aic::interp::InterpError::at(op, "call of an unknown function"))?;
    it.call(f, args.to_vec())
}
