//! The `fusion` dialect: `fusion.group` holds a fused subgraph in a region that
//! is isolated from above (its inputs come in as block arguments), yields its
//! results with `fusion.yield`, and records the kind of fusion and the cost the
//! target model assigned:
//!
//! ```mlir
//! %0 = fusion.group vertical (%x = %a, %w = %b) {cost = 1.5e-06 : f64} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32> {
//!   %m = graph.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
//!   %r = graph.relu %m : tensor<8x4xf32>
//!   fusion.yield %r : tensor<8x4xf32>
//! }
//! ```
//!
//! A group runs in the interpreter by running its body, so a program before
//! and after fusion can be compared on the same inputs.

use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::dialect::{AttrConstraint, AttrSyntax, CustomAsm, Dialect, OpSpec, Traits, tc};
use aic::interp::{IResult, Interp, Tensor};
use aic::ir::{Context, Op, OpState, Value};
use aic::op_def::OpHandle;
use aic::op_printer::OpPrinter;
use aic::syntax::parser::{Argument, OpParser};
use aic::types::Type;
use aic::verifier::op_error;

type R<T> = Result<T, Diagnostic>;

aic::dialect_enum! {
    /// The kind of fusion a group records, `#fusion<kind vertical>`.
    pub enum FusionKind = "fusion<kind ", "fusion kind (vertical, horizontal, memory, b2b_gemm, reduction, elementwise)" {
        /// A producer fused into its consumer.
        Vertical = "vertical",
        /// Independent ops sharing inputs.
        Horizontal = "horizontal",
        /// Index-only ops (reshapes, transposes).
        Memory = "memory",
        /// Chained GEMMs.
        B2bGemm = "b2b_gemm",
        /// A reduction with its elementwise neighbours.
        Reduction = "reduction",
        /// Elementwise ops.
        Elementwise = "elementwise",
    }
}

/// The attributes of `fusion` as values: its enum.
pub static SYNTAX: aic::dialect::DialectSyntax = aic::dialect::DialectSyntax {
    dialect: "fusion",
    parse_type: None,
    parse_attr: Some(|_, body| Ok(FusionKind::parse_attr(body))),
};

const COST: AttrConstraint = AttrConstraint {
    desc: "float attribute (modelled seconds)",
    check: |a, _| matches!(a, AttrKind::Float { .. }),
    syntax: AttrSyntax::Full,
};

aic::op! {
    /// `fusion.group`.
    pub Group = GROUP {
        operands: [inputs: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [kind: required(FusionKind::CONSTRAINT) as FusionKind, cost: optional(COST)],
        regions: [body: sized],
        spec: OpSpec {
            summary: "a fused subgraph, isolated from above",
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::SINGLE_BLOCK)
                .with(Traits::RECURSIVE_MEMORY_EFFECTS),
            custom: Some(CustomAsm {
                parse: parse_group,
                print: print_group,
            }),
            verify_regions: Some(verify_group),
            implicit_terminator: None,
            interpret: Some(run_group),
            ..OpSpec::new("fusion.group")
        },
    }
}

aic::op! {
    /// `fusion.yield`: the results of a group.
    pub Yield = YIELD {
        operands: [results: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "yields the results of a fusion group",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[GROUP.name],
            format: Some("$results attr-dict (`:` type($results)^)?"),
            ..OpSpec::new("fusion.yield")
        },
    }
}

fn parse_group(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    let at = p.pos();
    let Some(kind) = FusionKind::from_keyword(p.parse_bare_word()) else {
        return Err(p.error_at(
            at,
            format!(
                "expected a fusion kind, one of: {}",
                FusionKind::KEYWORDS.join(", ")
            ),
        ));
    };
    let kind = kind.attr(&p.uniquer());
    let (names, inputs) = p.parse_assignment_list()?;
    let dict = p.parse_optional_attr_dict()?;
    p.expect_token(":")?;
    let fat = p.pos();
    let t = p.parse_type()?;
    let Some((ins, outs)) = p.function_type_parts(t) else {
        return Err(p.error_at(fat, "expected a function type"));
    };
    if ins.len() != inputs.len() {
        return Err(p.error_at(
            fat,
            format!("{} inputs but {} input types", inputs.len(), ins.len()),
        ));
    }
    for (u, ty) in inputs.iter().zip(&ins) {
        let v = p.resolve_operand(u, *ty)?;
        st.operands.push(v);
    }
    st.result_types.extend(outs);
    let args: Vec<Argument<'_>> = names
        .iter()
        .zip(&ins)
        .map(|(u, ty)| Argument::named(u, *ty))
        .collect();
    let body = p.parse_region(&args)?;
    st.regions.push(body);
    let u = p.uniquer();
    let mut props = vec![(u.ident("kind"), kind)];
    aic::asm::split_attr_dict(&u, &GROUP, dict, &mut props, st);
    st.props = Some(u.dict_attr(props));
    Ok(())
}

fn print_group(pr: &mut OpPrinter<'_>, op: Op) {
    let ctx = pr.ctx();
    let group = Group(op);
    let kind = group.kind(ctx).map_or("", FusionKind::keyword);
    pr.out.push(' ');
    pr.out.push_str(kind);
    pr.out.push_str(" (");
    let body = group.body(ctx);
    let args: Vec<Value> = ctx
        .entry_block(body)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default();
    let inputs: Vec<Value> = ctx.operands(op).to_vec();
    pr.assignments(&args, &inputs);
    pr.out.push(')');
    pr.attr_dict(op, &["kind"], false);
    pr.out.push_str(" : ");
    let ins: Vec<Type> = inputs.iter().map(|v| ctx.value_type(*v)).collect();
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    pr.functional_type(&ins, &outs);
    pr.out.push(' ');
    pr.region(body, false, true);
}

fn verify_group(ctx: &Context, op: Op) -> R<()> {
    let body = Group(op).body(ctx);
    let Some(b) = ctx.entry_block(body) else {
        return Err(op_error(ctx, op, "requires a body"));
    };
    let arg_types: Vec<Type> = ctx
        .block_args(b)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    let in_types: Vec<Type> = ctx
        .operands(op)
        .iter()
        .map(|v| ctx.value_type(*v))
        .collect();
    if arg_types != in_types {
        return Err(op_error(
            ctx,
            op,
            "requires the body's arguments to have the types of the inputs",
        ));
    }
    let Some(t) = ctx.last_op(b).filter(|t| Yield::is(ctx, *t)) else {
        return Err(op_error(
            ctx,
            op,
            "requires the body to end in 'fusion.yield'",
        ));
    };
    let yielded: Vec<Type> = ctx.operands(t).iter().map(|v| ctx.value_type(*v)).collect();
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    if yielded != outs {
        return Err(op_error(
            ctx,
            op,
            "requires 'fusion.yield' to yield values of the result types",
        ));
    }
    Ok(())
}

/// Run the body on the inputs.
fn run_group(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let body = Group(op).body(it.ctx);
    it.run_region(body, args.to_vec())
}

/// The `fusion` dialect.
pub static DIALECT: Dialect = Dialect {
    name: "fusion",
    description: "fused subgraphs chosen by equality saturation",
    ops: &[GROUP, YIELD],
    materialize_constant: None,
};
