//! The stripped attribute forms the `sdy` ops write (`<@mesh, [{"x"}]>`
//! without `#sdy.sharding`), as custom directives, and the custom assembly of
//! `sdy.manual_computation`. The grammar is [`super::attrs`]'s, read here
//! through the op parser's tokens.

use super::attrs::{self, Mesh, ShardingPerValue, Tokens};
use super::{MANUAL_COMPUTATION, ManualAxes, Sharding};
use aic::Diagnostic;
use aic::asm::Directive;
use aic::ir::{OpState, Value};
use aic::op_printer::OpPrinter;
use aic::syntax::parser::{Argument, OpParser};
use aic::types::Type;

type R<T> = Result<T, Diagnostic>;

/// [`Tokens`] read from the op parser; the first diagnostic it met is kept.
struct OpTokens<'p, 's, 'c> {
    p: &'p mut OpParser<'s, 'c>,
    first: Option<Diagnostic>,
    at: usize,
}

impl OpTokens<'_, '_, '_> {
    fn keep<T>(&mut self, r: R<T>) -> Result<T, String> {
        r.map_err(|d| {
            self.first.get_or_insert(d);
            String::new()
        })
    }
}

impl Tokens for OpTokens<'_, '_, '_> {
    fn eat(&mut self, tok: &str) -> bool {
        self.p.eat_token(tok)
    }
    fn priority(&mut self) -> Result<Option<i64>, String> {
        // The op parser reads a priority `p1` as one word.
        if self.p.peek_byte() != Some(b'p') {
            return Ok(None);
        }
        let at = self.p.pos();
        let w = self.p.parse_bare_word();
        match w.strip_prefix('p').and_then(|n| n.parse::<i64>().ok()) {
            Some(n) => Ok(Some(n)),
            None => {
                self.at = at;
                Err(format!("expected a priority 'p<N>', got '{w}'"))
            }
        }
    }
    fn string(&mut self) -> Result<String, String> {
        let r = self.p.parse_string();
        let b = self.keep(r)?;
        String::from_utf8(b).map_err(|_| "axis names must be UTF-8".to_string())
    }
    fn int(&mut self) -> Result<i64, String> {
        let r = self.p.parse_integer();
        self.keep(r)
    }
    fn symbol(&mut self) -> Result<String, String> {
        let r = self.p.parse_symbol_name();
        self.keep(r)
    }
    fn peek(&mut self, c: u8) -> bool {
        self.p.peek_byte() == Some(c)
    }
    fn expected(&mut self, what: &str) -> String {
        self.at = self.p.pos();
        format!("expected {what}")
    }
}

/// Run `f` over the op parser's tokens, turning its error into a diagnostic.
fn with_tokens<T>(
    p: &mut OpParser<'_, '_>,
    f: impl FnOnce(&mut OpTokens<'_, '_, '_>) -> Result<T, String>,
) -> R<T> {
    let at = p.pos();
    let mut t = OpTokens { p, first: None, at };
    match f(&mut t) {
        Ok(v) => Ok(v),
        Err(m) => Err(match t.first {
            Some(d) => d,
            None => {
                let at = t.at.max(at);
                t.p.error_at(at, m)
            }
        }),
    }
}

/// `custom<StrippedMesh>($mesh)`: `<["x"=2]>`.
pub const STRIPPED_MESH: Directive = Directive {
    name: "StrippedMesh",
    parse: |p, s| {
        let m = with_tokens(p, |t| attrs::parse_mesh(t))?;
        s.set_attr(0, m.attr(&p.uniquer()));
        Ok(())
    },
    print: |pr, s| {
        let Some(a) = s.attr(pr, 0) else { return };
        match Mesh::of(pr.ctx(), a) {
            Some(m) => m.clone().print_body(&mut pr.out),
            None => pr.attr(a),
        }
    },
};

/// `custom<StrippedSharding>($sharding)`: `<@mesh, [{"x"}, {}]>`.
pub const STRIPPED_SHARDING: Directive = Directive {
    name: "StrippedSharding",
    parse: |p, s| {
        let v = with_tokens(p, |t| attrs::parse_sharding(t))?;
        s.set_attr(0, v.attr(&p.uniquer()));
        Ok(())
    },
    print: |pr, s| {
        let Some(a) = s.attr(pr, 0) else { return };
        match Sharding::of(pr.ctx(), a) {
            Some(v) => v.clone().print_body(&mut pr.out),
            None => pr.attr(a),
        }
    },
};

/// The directives of the `sdy` ops' formats.
pub const DIRECTIVES: &[Directive] = &[STRIPPED_MESH, STRIPPED_SHARDING];

/// `sdy.manual_computation`, after the op name.
pub fn parse_manual_computation(p: &mut OpParser<'_, '_>, st: &mut OpState) -> R<()> {
    p.expect_token("(")?;
    let mut operands = Vec::new();
    if !p.eat_token(")") {
        loop {
            operands.push(p.parse_operand()?);
            if p.eat_token(")") {
                break;
            }
            p.expect_token(",")?;
        }
    }
    let u = p.uniquer();
    p.expect_keyword("in_shardings")?;
    p.expect_token("=")?;
    let ins = with_tokens(p, |t| attrs::parse_sharding_list(t))?;
    p.expect_keyword("out_shardings")?;
    p.expect_token("=")?;
    let outs = with_tokens(p, |t| attrs::parse_sharding_list(t))?;
    p.expect_keyword("manual_axes")?;
    p.expect_token("=")?;
    let manual = with_tokens(p, |t| attrs::parse_manual_axes(t))?;
    p.expect_token("(")?;
    let mut args: Vec<Argument<'_>> = Vec::new();
    if !p.eat_token(")") {
        loop {
            args.push(p.parse_argument()?);
            if p.eat_token(")") {
                break;
            }
            p.expect_token(",")?;
        }
    }
    let region = p.parse_region(&args)?;
    let dict = p.parse_optional_attr_dict()?;
    p.expect_token(":")?;
    let at = p.pos();
    let fty = p.parse_type()?;
    let Some((ins_t, outs_t)) = p.function_type_parts(fty) else {
        return Err(p.error_at(at, "expected a function type"));
    };
    if ins_t.len() != operands.len() {
        return Err(p.error_at(
            at,
            format!(
                "{} operands present, but expected {}",
                operands.len(),
                ins_t.len()
            ),
        ));
    }
    for (o, t) in operands.iter().zip(&ins_t) {
        let v = p.resolve_operand(o, *t)?;
        st.operands.push(v);
    }
    st.result_types.extend(outs_t.iter().copied());
    st.regions.push(region);
    let mut props = vec![
        (u.ident("in_shardings"), ins.attr(&u)),
        (u.ident("out_shardings"), outs.attr(&u)),
        (u.ident("manual_axes"), manual.attr(&u)),
    ];
    aic::asm::split_attr_dict(&u, &MANUAL_COMPUTATION, dict, &mut props, st);
    props.sort_by(|a, b| u.str(a.0).cmp(u.str(b.0)));
    st.props = Some(u.dict_attr(props));
    Ok(())
}

/// Print `sdy.manual_computation` after its name.
pub fn print_manual_computation(pr: &mut OpPrinter<'_>, op: aic::ir::Op) {
    let ctx = pr.ctx();
    let ops: Vec<Value> = ctx.operands(op).to_vec();
    pr.out.push('(');
    pr.values(&ops);
    pr.out.push(')');
    let spec = &MANUAL_COMPUTATION;
    let get = |name| spec.attr(ctx, op, name);
    for (kw, name) in [
        ("in_shardings", "in_shardings"),
        ("out_shardings", "out_shardings"),
    ] {
        pr.out.push_str(&format!(" {kw}="));
        match get(name).and_then(|a| ShardingPerValue::of(ctx, a)) {
            Some(v) => v.clone().print_body(&mut pr.out),
            None => pr.out.push_str("[]"),
        }
    }
    pr.out.push_str(" manual_axes=");
    match get("manual_axes").and_then(|a| ManualAxes::of(ctx, a)) {
        Some(v) => v.clone().print_body(&mut pr.out),
        None => pr.out.push_str("{}"),
    }
    pr.out.push_str(" (");
    let region = ctx.regions(op)[0];
    if let Some(b) = ctx.entry_block(region) {
        let args: Vec<Value> = ctx.block_args(b).to_vec();
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                pr.out.push_str(", ");
            }
            pr.value(*a);
            pr.out.push_str(": ");
            pr.ty(ctx.value_type(*a));
        }
    }
    pr.out.push_str(") ");
    pr.region(region, false, true);
    pr.attr_dict(op, &["in_shardings", "out_shardings", "manual_axes"], false);
    pr.out.push_str(" : ");
    let ins: Vec<Type> = ops.iter().map(|v| ctx.value_type(*v)).collect();
    let outs: Vec<Type> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
    pr.functional_type(&ins, &outs);
}
