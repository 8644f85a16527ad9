//! Declarative assembly formats: MLIR's `assemblyFormat` strings
//! (`$lhs `,` $rhs attr-dict `:` type($result)`) compiled once per op into a list of
//! elements, then interpreted by the parser and the printer.
//!
//! Supported: literals and keywords, `` ` ` `` / ``` `` ``` spacing, `$operand`,
//! `$attribute`, `$region`, `$successor`, `operands`, `regions`, `successors`,
//! `type(…)` of operands/results (`operands`/`results` too), `functional-type(…, …)`,
//! `attr-dict`, `attr-dict-with-keyword`, `qualified(…)` and optional groups
//! `(… $anchor^ …)?` with an optional `: (…)` else branch. Types that the format
//! leaves out are inferred from `SameOperandsAndResultType`/`SameOperandsType`.

use crate::attributes::{Attr, AttrKind, Ident};
use crate::diagnostics::Diagnostic;
use crate::dialect::{Arity, AttrSyntax, OpSpec, Traits};
use crate::ir::{Block, Op, OpState, Region, Uniquer, Value};
use crate::op_printer::OpPrinter;
use crate::syntax::parser::{OpParser, UnresolvedOperand};
use crate::types::{Type, TypeKind};

type R<T> = Result<T, Diagnostic>;

/// Something a format element refers to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Var {
    /// Operand group `i` of the spec.
    Operand(usize),
    /// Result group `i`.
    Result(usize),
    /// Inherent attribute `i`.
    Attr(usize),
    /// Region `i`.
    Region(usize),
    /// Successor group `i` (the spec names successors by position only, so `0`).
    Successor(usize),
    /// All operands.
    Operands,
    /// All results.
    Results,
    /// All regions.
    Regions,
    /// All successors.
    Successors,
}

/// One element of a compiled format.
#[derive(Clone, Debug)]
pub enum Elem {
    /// A literal keyword or punctuation.
    Literal(&'static str),
    /// `` ` ` `` (true) or ``` `` ``` (false): force or suppress a space.
    Space(bool),
    /// An operand group, attribute, region or successor.
    Var(Var),
    /// `type(…)` of an operand or result group.
    Type(Var),
    /// `functional-type(inputs, results)`.
    FunctionalType(Var, Var),
    /// `attr-dict` (false) or `attr-dict-with-keyword` (true).
    AttrDict(bool),
    /// `custom<Name>(args)`: a directive of the op's spec (see [`Directive`]) over
    /// its arguments, each a `Var` or a `Type`.
    Custom(&'static Directive, Vec<Elem>),
    /// An optional group: printed when `anchor` is present.
    Optional {
        /// Elements of the group.
        then: Vec<Elem>,
        /// Elements printed when the anchor is absent.
        otherwise: Vec<Elem>,
        /// The variable whose presence decides.
        anchor: Var,
    },
}

/// A custom directive of assembly formats, MLIR's `custom<Name>(args)`: a piece of
/// hand-written syntax that several ops share (StableHLO's
/// `custom<SameOperandsAndResultType>(type($lhs), type($result))`). The arguments
/// are operand groups, attributes or `type(...)`s, reached by position through
/// [`Slots`] when parsing and [`PrintSlots`] when printing.
pub struct Directive {
    /// The name between `custom<` and `>`.
    pub name: &'static str,
    /// Parse the directive's text into its arguments.
    pub parse: for<'s, 'c, 'p, 'q, 'a> fn(&'p mut OpParser<'s, 'c>, &'q mut Slots<'a, 's>) -> R<()>,
    /// Print the directive's arguments.
    pub print: fn(&mut OpPrinter<'_>, &PrintSlots<'_>),
}

impl std::fmt::Debug for Directive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "custom<{}>", self.name)
    }
}

/// The arguments of a custom directive while parsing: what it parses goes into
/// the op's operand groups, attributes and types.
pub struct Slots<'a, 's> {
    spec: &'a OpSpec,
    args: &'a [Elem],
    out: &'a mut Parsed<'s>,
}

impl<'s> Slots<'_, 's> {
    fn var(&self, k: usize) -> Var {
        match &self.args[k] {
            Elem::Var(v) | Elem::Type(v) => *v,
            e => unreachable!("directive argument {e:?}"),
        }
    }
    /// Set the types of argument `k` (a `type(...)`).
    pub fn set_types(&mut self, k: usize, tys: Vec<Type>) {
        let v = self.var(k);
        set_types(self.out, v, tys);
    }
    /// Set argument `k` (an attribute).
    pub fn set_attr(&mut self, k: usize, a: Attr) {
        if let Var::Attr(i) = self.var(k) {
            self.out.attrs[i] = Some(a);
        }
    }
    /// Set the operands of argument `k` (an operand group).
    pub fn set_operands(&mut self, k: usize, ops: Vec<UnresolvedOperand<'s>>) {
        match self.var(k) {
            Var::Operand(i) => self.out.operands[i] = ops,
            Var::Operands => self.out.all_operands = Some(ops),
            _ => {}
        }
    }
    /// How many operands argument `k`'s group (or the type's group) has parsed.
    pub fn operand_count(&self, k: usize) -> usize {
        match self.var(k) {
            Var::Operand(i) => self.out.operands[i].len(),
            Var::Operands => self.out.all_operands.as_ref().map_or(0, Vec::len),
            _ => 0,
        }
    }
    /// Whether argument `k` is a single value (not optional or variadic).
    pub fn is_single(&self, k: usize) -> bool {
        type_arity(self.spec, self.var(k)) == Arity::One
    }
    /// Number of arguments.
    pub fn len(&self) -> usize {
        self.args.len()
    }
    /// Whether the directive has no arguments.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty()
    }
}

/// The arguments of a custom directive while printing.
pub struct PrintSlots<'a> {
    spec: &'a OpSpec,
    args: &'a [Elem],
    op: Op,
}

impl PrintSlots<'_> {
    fn var(&self, k: usize) -> Var {
        match &self.args[k] {
            Elem::Var(v) | Elem::Type(v) => *v,
            e => unreachable!("directive argument {e:?}"),
        }
    }
    /// The op being printed.
    pub fn op(&self) -> Op {
        self.op
    }
    /// The types of argument `k`.
    pub fn types(&self, pr: &OpPrinter, k: usize) -> Vec<Type> {
        types_of(pr, self.spec, self.op, self.var(k))
    }
    /// The value of argument `k` (an attribute), if set.
    pub fn attr(&self, pr: &OpPrinter, k: usize) -> Option<Attr> {
        match self.var(k) {
            Var::Attr(i) => self
                .spec
                .attr(pr.ctx(), self.op, self.spec.attributes[i].name),
            _ => None,
        }
    }
    /// The operands of argument `k` (an operand group).
    pub fn operands(&self, pr: &OpPrinter, k: usize) -> Vec<Value> {
        let ctx = pr.ctx();
        match self.var(k) {
            Var::Operand(i) => {
                let r = self.spec.operand_ranges(ctx, self.op)[i].clone();
                ctx.operands(self.op)[r].to_vec()
            }
            Var::Operands => ctx.operands(self.op).to_vec(),
            _ => Vec::new(),
        }
    }
    /// Number of arguments.
    pub fn len(&self) -> usize {
        self.args.len()
    }
    /// Whether the directive has no arguments.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty()
    }
}

/// A compiled assembly format.
#[derive(Clone, Debug)]
pub struct Format {
    /// Top-level elements.
    pub elems: Vec<Elem>,
}

struct Compiler<'a> {
    spec: &'a OpSpec,
    text: &'static str,
    pos: usize,
}

impl Format {
    /// Compile `text` against `spec`; the error names the problem and its offset.
    pub fn compile(spec: &OpSpec, text: &'static str) -> Result<Format, String> {
        let mut c = Compiler { spec, text, pos: 0 };
        let elems = c.elements(false)?;
        c.skip_ws();
        if c.pos < text.len() {
            return Err(format!(
                "unexpected '{}' at offset {}",
                &text[c.pos..],
                c.pos
            ));
        }
        Ok(Format { elems })
    }
}

impl Compiler<'_> {
    fn skip_ws(&mut self) {
        while self.text[self.pos..].starts_with([' ', '\n', '\t']) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, s: &str) -> Result<(), String> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(format!("expected '{s}' at offset {}", self.pos))
        }
    }
    fn word(&mut self) -> &'static str {
        self.skip_ws();
        let rest = &self.text[self.pos..];
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        self.pos += n;
        &rest[..n]
    }

    /// Elements up to a `)` (inside groups) or the end.
    fn elements(&mut self, in_group: bool) -> Result<Vec<Elem>, String> {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            if self.pos >= self.text.len() || (in_group && self.text[self.pos..].starts_with(')')) {
                return Ok(out);
            }
            out.push(self.element()?);
        }
    }

    fn element(&mut self) -> Result<Elem, String> {
        self.skip_ws();
        let t = self.text;
        if let Some(rest) = t[self.pos..].strip_prefix('`') {
            let end = rest
                .find('`')
                .ok_or_else(|| format!("unterminated literal at offset {}", self.pos))?;
            let lit = &rest[..end];
            self.pos += end + 2;
            return Ok(match lit {
                "" => Elem::Space(false),
                " " => Elem::Space(true),
                _ => Elem::Literal(lit),
            });
        }
        if self.eat("$") {
            let name = self.word();
            return Ok(Elem::Var(self.var(name)?));
        }
        if self.eat("(") {
            return self.optional_group();
        }
        let start = self.pos;
        match self.word() {
            "attr-dict" => Ok(Elem::AttrDict(false)),
            "attr-dict-with-keyword" => Ok(Elem::AttrDict(true)),
            "operands" => Ok(Elem::Var(Var::Operands)),
            "regions" => Ok(Elem::Var(Var::Regions)),
            "successors" => Ok(Elem::Var(Var::Successors)),
            "type" => {
                self.expect("(")?;
                let v = self.type_arg()?;
                self.expect(")")?;
                Ok(Elem::Type(v))
            }
            "functional-type" => {
                self.expect("(")?;
                let a = self.type_arg()?;
                self.expect(",")?;
                let b = self.type_arg()?;
                self.expect(")")?;
                Ok(Elem::FunctionalType(a, b))
            }
            "custom" => {
                self.expect("<")?;
                let name = self.word();
                let dir = self
                    .spec
                    .directives
                    .iter()
                    .find(|d| d.name == name)
                    .ok_or_else(|| format!("unknown custom directive '{name}'"))?;
                self.expect(">")?;
                self.expect("(")?;
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        self.skip_ws();
                        let e = if self.eat("$") {
                            let name = self.word();
                            Elem::Var(self.var(name)?)
                        } else {
                            match self.word() {
                                "type" => {
                                    self.expect("(")?;
                                    let v = self.type_arg()?;
                                    self.expect(")")?;
                                    Elem::Type(v)
                                }
                                "operands" => Elem::Var(Var::Operands),
                                w => return Err(format!("bad custom directive argument '{w}'")),
                            }
                        };
                        args.push(e);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(Elem::Custom(dir, args))
            }
            // Builtin types and attributes print the same qualified or not.
            "qualified" => {
                self.expect("(")?;
                let e = self.element()?;
                self.expect(")")?;
                Ok(e)
            }
            "" => Err(format!(
                "unexpected '{}' at offset {start}",
                &t[start..].chars().next().unwrap_or(' ')
            )),
            w => Err(format!("unknown directive '{w}' at offset {start}")),
        }
    }

    fn type_arg(&mut self) -> Result<Var, String> {
        if self.eat("$") {
            let name = self.word();
            return self.var(name);
        }
        match self.word() {
            "operands" => Ok(Var::Operands),
            "results" => Ok(Var::Results),
            w => Err(format!("expected a type target, found '{w}'")),
        }
    }

    fn var(&self, name: &str) -> Result<Var, String> {
        let s = self.spec;
        if let Some(i) = s.operands.iter().position(|v| v.name == name) {
            return Ok(Var::Operand(i));
        }
        if let Some(i) = s.results.iter().position(|v| v.name == name) {
            return Ok(Var::Result(i));
        }
        if let Some(i) = s.attributes.iter().position(|a| a.name == name) {
            return Ok(Var::Attr(i));
        }
        if let Some(i) = s.regions.iter().position(|r| r.name == name) {
            return Ok(Var::Region(i));
        }
        Err(format!(
            "'{name}' is not an operand, result, attribute or region"
        ))
    }

    fn optional_group(&mut self) -> Result<Elem, String> {
        let mut anchor = None;
        let mut then = Vec::new();
        loop {
            self.skip_ws();
            if self.eat(")") {
                break;
            }
            let e = self.element()?;
            if self.eat("^") {
                anchor = match &e {
                    Elem::Var(v) | Elem::Type(v) => Some(*v),
                    _ => return Err("only a variable or type(...) can anchor a group".into()),
                };
            }
            then.push(e);
        }
        let mut otherwise = Vec::new();
        if self.eat(":") {
            self.expect("(")?;
            otherwise = self.elements(true)?;
            self.expect(")")?;
        }
        self.expect("?")?;
        let anchor = anchor.ok_or("optional group without an anchor ('^')")?;
        if then.is_empty() {
            return Err("empty optional group".into());
        }
        Ok(Elem::Optional {
            then,
            otherwise,
            anchor,
        })
    }
}

// ---------------------------------------------------------------- parsing

/// What a format has parsed so far, before operands are resolved.
struct Parsed<'s> {
    operands: Vec<Vec<UnresolvedOperand<'s>>>,
    operand_types: Vec<Option<Vec<Type>>>,
    result_types: Vec<Option<Vec<Type>>>,
    all_operands: Option<Vec<UnresolvedOperand<'s>>>,
    all_operand_types: Option<Vec<Type>>,
    all_result_types: Option<Vec<Type>>,
    attrs: Vec<Option<Attr>>,
    regions: Vec<Vec<Region>>,
    successors: Vec<Block>,
    dict: Vec<(Ident, Attr)>,
}

fn is_unit_attr(spec: &OpSpec, v: Var) -> bool {
    matches!(v, Var::Attr(i) if spec.attributes[i].constraint.desc == crate::dialect::ac::UNIT.desc)
}

/// Parse the op body described by `fmt` into `st` (everything after the op name).
pub fn parse<'s>(p: &mut OpParser<'s, '_>, spec: &OpSpec, fmt: &Format, st: &mut OpState) -> R<()> {
    let mut parsed = Parsed {
        operands: vec![Vec::new(); spec.operands.len()],
        operand_types: vec![None; spec.operands.len()],
        result_types: vec![None; spec.results.len()],
        all_operands: None,
        all_operand_types: None,
        all_result_types: None,
        attrs: vec![None; spec.attributes.len()],
        regions: vec![Vec::new(); spec.regions.len()],
        successors: Vec::new(),
        dict: Vec::new(),
    };
    let start = p.pos();
    parse_elems(p, spec, &fmt.elems, &mut parsed)?;
    finish(p, spec, parsed, st, start)
}

fn parse_elems<'s>(
    p: &mut OpParser<'s, '_>,
    spec: &OpSpec,
    elems: &[Elem],
    out: &mut Parsed<'s>,
) -> R<()> {
    for e in elems {
        parse_elem(p, spec, e, out)?;
    }
    Ok(())
}

fn parse_elem<'s>(
    p: &mut OpParser<'s, '_>,
    spec: &OpSpec,
    e: &Elem,
    out: &mut Parsed<'s>,
) -> R<()> {
    match e {
        Elem::Literal(l) => p.expect_token(l),
        Elem::Space(_) => Ok(()),
        Elem::Var(v) => parse_var(p, spec, *v, out),
        Elem::Type(v) => {
            let tys = match type_arity(spec, *v) {
                Arity::One => vec![p.parse_type()?],
                Arity::Optional => p.parse_optional_type()?.into_iter().collect(),
                Arity::Variadic => p.parse_type_list()?,
            };
            set_types(out, *v, tys);
            Ok(())
        }
        Elem::FunctionalType(a, b) => {
            let at = p.pos();
            let t = p.parse_type()?;
            let Some((ins, outs)) = p.function_type_parts(t) else {
                return Err(
                    p.error_at(at, "invalid kind of type specified: expected function type")
                );
            };
            set_types(out, *a, ins);
            set_types(out, *b, outs);
            Ok(())
        }
        Elem::Custom(dir, args) => {
            let mut slots = Slots { spec, args, out };
            (dir.parse)(p, &mut slots)
        }
        Elem::AttrDict(keyword) => {
            if !*keyword || p.eat_keyword("attributes") {
                out.dict.extend(p.parse_optional_attr_dict()?);
            }
            Ok(())
        }
        Elem::Optional {
            then,
            otherwise,
            anchor,
        } => {
            let present = match &then[0] {
                Elem::Literal(l) => p.eat_token(l),
                Elem::Var(Var::Operand(_) | Var::Operands) => p.peek_byte() == Some(b'%'),
                Elem::Var(Var::Region(_) | Var::Regions) => p.peek_byte() == Some(b'{'),
                Elem::Var(Var::Successor(_) | Var::Successors) => p.peek_byte() == Some(b'^'),
                Elem::Var(Var::Attr(i)) => attr_starts(p, spec, *i),
                Elem::Type(_) | Elem::FunctionalType(..) => p.type_starts(),
                _ => false,
            };
            if present {
                let first_done = matches!(then[0], Elem::Literal(_));
                let rest = if first_done { &then[1..] } else { &then[..] };
                // A unit attribute anchor is written as the group's presence alone.
                let unit_anchor = is_unit_attr(spec, *anchor);
                for e in rest {
                    if !(unit_anchor && matches!(e, Elem::Var(v) if v == anchor)) {
                        parse_elem(p, spec, e, out)?;
                    }
                }
                if is_unit_attr(spec, *anchor)
                    && let Var::Attr(i) = anchor
                    && out.attrs[*i].is_none()
                {
                    out.attrs[*i] = Some(p.unit_attr());
                }
            } else {
                parse_elems(p, spec, otherwise, out)?;
            }
            Ok(())
        }
    }
}

fn attr_starts(p: &mut OpParser, spec: &OpSpec, i: usize) -> bool {
    match spec.attributes[i].constraint.syntax {
        AttrSyntax::SymbolName => p.peek_byte() == Some(b'@'),
        AttrSyntax::Enum(_, words) => words.iter().any(|w| p.peek_keyword(w)),
        AttrSyntax::BitEnum(_) => p.peek_byte() == Some(b'<'),
        AttrSyntax::DenseArray(_) => p.peek_byte() == Some(b'['),
        AttrSyntax::Keyword(e) => e.keywords.iter().any(|w| p.peek_keyword(w)),
        _ => p.attribute_starts(),
    }
}

fn parse_var<'s>(p: &mut OpParser<'s, '_>, spec: &OpSpec, v: Var, out: &mut Parsed<'s>) -> R<()> {
    match v {
        Var::Operand(i) => {
            out.operands[i] = match spec.operands[i].arity {
                Arity::One => vec![p.parse_operand()?],
                Arity::Optional => p.parse_optional_operand()?.into_iter().collect(),
                Arity::Variadic => p.parse_operand_list()?,
            }
        }
        Var::Operands => out.all_operands = Some(p.parse_operand_list()?),
        Var::Attr(i) => {
            let a = &spec.attributes[i];
            let at = p.pos();
            let attr = match a.constraint.syntax {
                // A string in an op's syntax takes no type (`probe_id = "a" : t`),
                // as MLIR's formats parse a `StrAttr`.
                AttrSyntax::Full if p.peek_byte() == Some(b'"') => {
                    let value = p.parse_string()?;
                    p.uniquer().attr(AttrKind::String {
                        value: value.into(),
                        ty: None,
                    })
                }
                AttrSyntax::Full => p.parse_attribute(None)?,
                AttrSyntax::WithoutType(ty) => {
                    let u = p.uniquer();
                    let t = ty(&u);
                    // A bare integer takes the constraint's type; a `:` after it
                    // belongs to the op (`dim = 0 : tensor<4xi32>`), as in MLIR.
                    let int_like =
                        matches!(u.type_kind(t), TypeKind::Integer { .. } | TypeKind::Index);
                    if int_like
                        && (p.peek_byte().is_some_and(|b| b.is_ascii_digit()) || p.peek_text("-"))
                    {
                        let v = p.parse_integer()?;
                        u.attr(AttrKind::Integer {
                            value: i128::from(v),
                            ty: t,
                        })
                    } else {
                        p.parse_attribute(Some(t))?
                    }
                }
                AttrSyntax::SymbolName => {
                    let name = p.parse_symbol_name()?;
                    p.uniquer().string_attr(&name)
                }
                AttrSyntax::Enum(ty, words) => {
                    let w = p.parse_bare_word();
                    let Some(k) = words.iter().position(|x| *x == w) else {
                        return Err(p.error_at(
                            at,
                            format!("expected {} to be one of: {}", a.name, words.join(", ")),
                        ));
                    };
                    let t = ty(&p.uniquer());
                    p.uniquer().attr(AttrKind::Integer {
                        value: k as i128,
                        ty: t,
                    })
                }
                AttrSyntax::DenseArray(ty) => {
                    let t = ty(&p.uniquer());
                    p.expect_token("[")?;
                    let mut values = Vec::new();
                    if !p.eat_token("]") {
                        loop {
                            values.push(p.parse_integer()? as u64);
                            if p.eat_token("]") {
                                break;
                            }
                            p.expect_token(",")?;
                        }
                    }
                    p.uniquer().attr(AttrKind::DenseArray {
                        elem: t,
                        values: values.into(),
                    })
                }
                AttrSyntax::Keyword(e) => {
                    let w = p.parse_bare_word();
                    let Some(k) = e.keywords.iter().position(|x| *x == w) else {
                        return Err(p.error_at(
                            at,
                            format!(
                                "expected {} to be one of: {}",
                                a.name,
                                e.keywords.join(", ")
                            ),
                        ));
                    };
                    (e.attr)(&p.uniquer(), k)
                }
                AttrSyntax::BitEnum(e) => {
                    p.expect_token("<")?;
                    let mut v = 0;
                    loop {
                        let at = p.pos();
                        let w = p.parse_bare_word();
                        let Some(b) = e.keyword_value(w) else {
                            return Err(p.error_at(
                                at,
                                format!(
                                    "expected {} to be one of: {}",
                                    a.name,
                                    e.all_keywords().join(", ")
                                ),
                            ));
                        };
                        v |= b;
                        if !p.eat_token(",") {
                            break;
                        }
                    }
                    p.expect_token(">")?;
                    e.attr(&p.uniquer(), v)
                }
            };
            out.attrs[i] = Some(attr);
        }
        Var::Region(i) => {
            out.regions[i] = if spec.regions[i].variadic {
                let mut rs = Vec::new();
                if p.peek_byte() == Some(b'{') {
                    loop {
                        rs.push(p.parse_region(&[])?);
                        if !p.eat_token(",") {
                            break;
                        }
                    }
                }
                rs
            } else {
                let r = p.parse_region(&[])?;
                // Like MLIR's generated parsers for single-block ops without a
                // terminator: `{}` still holds its (empty) block.
                if spec.has(Traits::SINGLE_BLOCK) && spec.has(Traits::NO_TERMINATOR) {
                    let ctx = p.context();
                    if ctx.entry_block(r).is_none() {
                        let b = ctx.create_block(&[]);
                        ctx.append_block(r, b);
                    }
                }
                vec![r]
            }
        }
        Var::Regions => {
            let mut rs = Vec::new();
            if p.peek_byte() == Some(b'{') {
                loop {
                    rs.push(p.parse_region(&[])?);
                    if !p.eat_token(",") {
                        break;
                    }
                }
            }
            for (i, r) in rs.into_iter().enumerate() {
                if let Some(slot) = out
                    .regions
                    .get_mut(i.min(spec.regions.len().saturating_sub(1)))
                {
                    slot.push(r);
                }
            }
        }
        Var::Successor(_) | Var::Successors => {
            if p.peek_byte() == Some(b'^') {
                loop {
                    out.successors.push(p.parse_successor()?);
                    if !p.eat_token(",") {
                        break;
                    }
                }
            }
        }
        Var::Result(_) | Var::Results => unreachable!("results appear only inside type()"),
    }
    Ok(())
}

fn type_arity(spec: &OpSpec, v: Var) -> Arity {
    match v {
        Var::Operand(i) => spec.operands[i].arity,
        Var::Result(i) => spec.results[i].arity,
        _ => Arity::Variadic,
    }
}

fn set_types(out: &mut Parsed<'_>, v: Var, tys: Vec<Type>) {
    match v {
        Var::Operand(i) => out.operand_types[i] = Some(tys),
        Var::Result(i) => out.result_types[i] = Some(tys),
        Var::Operands => out.all_operand_types = Some(tys),
        Var::Results => out.all_result_types = Some(tys),
        _ => {}
    }
}

/// Resolve operands against their types and fill the op state.
fn finish<'s>(
    p: &mut OpParser<'s, '_>,
    spec: &OpSpec,
    mut x: Parsed<'s>,
    st: &mut OpState,
    start: usize,
) -> R<()> {
    // Operands: either by group or all at once.
    let uses: Vec<UnresolvedOperand<'s>> = match x.all_operands.take() {
        Some(all) => all,
        None => x.operands.iter().flatten().cloned().collect(),
    };
    let group_sizes: Vec<usize> = x.operands.iter().map(Vec::len).collect();
    // Types of operands, group by group, inferred where the format leaves them out.
    let same_type = spec.has(Traits::SAME_OPERANDS_AND_RESULT_TYPE);
    let known: Option<Type> = x
        .operand_types
        .iter()
        .chain(x.result_types.iter())
        .flatten()
        .flatten()
        .copied()
        .next()
        .or(x.all_result_types.as_ref().and_then(|v| v.first().copied()));
    let operand_types: Vec<Type> = match x.all_operand_types.take() {
        Some(all) => all,
        None => {
            let mut tys = Vec::new();
            for (g, given) in x.operand_types.iter().enumerate() {
                match given {
                    Some(t) => tys.extend(t.iter().copied()),
                    None => {
                        let n = x.operands[g].len();
                        let inferable = same_type || spec.has(Traits::SAME_OPERANDS_TYPE);
                        let built = spec.operands[g].ty.build.map(|b| b(&p.uniquer()));
                        let written: Vec<Option<Vec<Type>>> = x
                            .operand_types
                            .iter()
                            .chain(&x.result_types)
                            .cloned()
                            .collect();
                        let matched = spec
                            .infer_operand
                            .and_then(|f| f(&p.uniquer(), g, &written));
                        match known.filter(|_| inferable).or(built).or(matched) {
                            Some(t) => tys.extend(std::iter::repeat_n(t, n)),
                            None if n == 0 => {}
                            None => {
                                return Err(p.error_at(
                                    start,
                                    format!(
                                        "cannot infer the type of operand group '{}'",
                                        spec.operands[g].name
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
            tys
        }
    };
    if operand_types.len() != uses.len() {
        return Err(p.error_at(
            start,
            format!(
                "{} operands present, but expected {}",
                uses.len(),
                operand_types.len()
            ),
        ));
    }
    for (u, t) in uses.iter().zip(&operand_types) {
        let v: Value = p.resolve_operand(u, *t)?;
        st.operands.push(v);
    }
    let given_results = x.all_result_types.is_some()
        || x.result_types
            .iter()
            .zip(spec.results)
            .all(|(t, g)| t.is_some() || g.arity == Arity::Variadic);
    let inferred = match spec.infer_results {
        Some(infer) if !given_results => {
            let mut attrs: Vec<(Ident, Attr)> = Vec::new();
            for (a, v) in spec.attributes.iter().zip(&x.attrs) {
                if let Some(v) = v {
                    attrs.push((p.uniquer().ident(a.name), *v));
                }
            }
            attrs.extend(x.dict.iter().copied());
            match infer(&p.uniquer(), &operand_types, &attrs) {
                Some(t) => Some(t),
                None => return Err(p.error_at(start, "failed to infer returned types")),
            }
        }
        _ => None,
    };
    let result_types: Vec<Type> = match x.all_result_types.take().or(inferred) {
        Some(all) => all,
        None => {
            let mut tys = Vec::new();
            for (g, given) in x.result_types.iter().enumerate() {
                match given {
                    Some(t) => tys.extend(t.iter().copied()),
                    None if same_type && spec.results[g].arity == Arity::One => {
                        let t = known.ok_or_else(|| {
                            p.error_at(start, "cannot infer the result type".to_string())
                        })?;
                        tys.push(t);
                    }
                    None if spec.results[g].arity == Arity::One => {
                        return Err(p.error_at(
                            start,
                            format!("cannot infer the type of result '{}'", spec.results[g].name),
                        ));
                    }
                    None => {}
                }
            }
            tys
        }
    };
    st.result_types.extend(result_types);
    let mut inherent: Vec<(Ident, Attr)> = Vec::new();
    for (a, v) in spec.attributes.iter().zip(x.attrs) {
        if let Some(v) = v {
            inherent.push((p.uniquer().ident(a.name), v));
        }
    }
    let variadic_groups = spec
        .operands
        .iter()
        .filter(|g| g.arity != Arity::One)
        .count();
    if variadic_groups > 1 && x.all_operand_types.is_none() {
        let u = p.uniquer();
        let i32t = u.int_type(32);
        let sizes = u.attr(AttrKind::DenseArray {
            elem: i32t,
            values: group_sizes.iter().map(|&n| n as u64).collect(),
        });
        inherent.push((u.ident("operandSegmentSizes"), sizes));
    }
    let u = p.uniquer();
    split_attr_dict(&u, spec, x.dict, &mut inherent, st);
    if inherent.is_empty() {
        // The common case (only defaults): one interned dictionary per op kind.
        st.props = p.default_props(spec);
    } else {
        add_defaults(&u, spec, &mut inherent);
        st.props = Some(u.dict_attr(inherent));
    }
    st.regions.extend(x.regions.into_iter().flatten());
    st.successors.extend(x.successors);
    Ok(())
}

/// Give absent attributes that have a default their default value, as MLIR's
/// properties of a `DefaultValuedAttr` hold it whether or not it was written.
pub fn add_defaults(u: &Uniquer, spec: &OpSpec, inherent: &mut Vec<(Ident, Attr)>) {
    for a in spec.attributes {
        if let Some(d) = a.default {
            let k = u.ident(a.name);
            if !inherent.iter().any(|(n, _)| *n == k) {
                inherent.push((k, d(u)));
            }
        }
    }
}

/// Distribute a parsed attribute dictionary: the op's inherent attributes (those its
/// spec declares) join `inherent`, to become properties as MLIR does; the rest are
/// discardable attributes, kept sorted by name as MLIR keeps them.
pub fn split_attr_dict(
    u: &Uniquer,
    spec: &OpSpec,
    dict: Vec<(Ident, Attr)>,
    inherent: &mut Vec<(Ident, Attr)>,
    st: &mut OpState,
) {
    for (k, v) in dict {
        if spec.attributes.iter().any(|a| a.name == u.str(k)) {
            inherent.retain(|(n, _)| *n != k);
            inherent.push((k, v));
        } else {
            st.attrs.insert(k, v);
        }
    }
    st.attrs
        .sort_unstable_by(|a, _, b, _| u.str(*a).cmp(u.str(*b)));
}

// ---------------------------------------------------------------- printing

/// Spacing state of MLIR's generated printers: it advances with the format's
/// elements, whether or not an optional group is printed.
struct Spacing {
    space: bool,
    last_punct: bool,
}

/// Print the body of `op` (after its name) as `fmt` describes.
pub fn print(pr: &mut OpPrinter<'_>, spec: &OpSpec, fmt: &Format, op: Op) {
    let mut s = Spacing {
        space: true,
        last_punct: false,
    };
    let mut elided: Vec<&str> = used_attrs(spec, &fmt.elems);
    // As MLIR's generated printers do, `attr-dict` leaves out default-valued
    // attributes that hold their default.
    let u = pr.ctx().uniquer().clone();
    elided.extend(spec.attributes.iter().filter_map(|a| {
        let default = a.default?;
        (spec.attr(pr.ctx(), op, a.name) == Some(default(&u))).then_some(a.name)
    }));
    print_elems(pr, spec, &fmt.elems, op, &mut s, true, &elided);
}

fn used_attrs(spec: &OpSpec, elems: &[Elem]) -> Vec<&'static str> {
    let mut out = vec!["operandSegmentSizes", "resultSegmentSizes"];
    for e in elems {
        match e {
            Elem::Var(Var::Attr(i)) => out.push(spec.attributes[*i].name),
            Elem::Custom(_, args) => out.extend(used_attrs(spec, args)),
            Elem::Optional {
                then, otherwise, ..
            } => {
                out.extend(used_attrs(spec, then));
                out.extend(used_attrs(spec, otherwise));
            }
            _ => {}
        }
    }
    out
}

fn space_before(lit: &str, last_punct: bool) -> bool {
    if lit.len() != 1 && lit != "->" {
        return true;
    }
    let c = lit.as_bytes()[0];
    if last_punct {
        !b">)}],".contains(&c)
    } else {
        !b"<>(){}[],".contains(&c)
    }
}

fn print_elems(
    pr: &mut OpPrinter,
    spec: &OpSpec,
    elems: &[Elem],
    op: Op,
    s: &mut Spacing,
    emit: bool,
    elided: &[&str],
) {
    for e in elems {
        match e {
            Elem::Literal(l) => {
                if emit {
                    if s.space && space_before(l, s.last_punct) {
                        pr.out.push(' ');
                    }
                    pr.out.push_str(l);
                }
                s.space = l.len() != 1 || !b"<({[".contains(&l.as_bytes()[0]);
                let c = l.as_bytes()[0];
                s.last_punct = c != b'_' && !c.is_ascii_alphabetic();
            }
            Elem::Space(sp) => {
                if emit && *sp {
                    pr.out.push(' ');
                }
                s.last_punct = !*sp;
                s.space = false;
            }
            Elem::AttrDict(keyword) => {
                if emit {
                    pr.attr_dict(op, elided, *keyword);
                }
                s.last_punct = false;
            }
            Elem::Optional {
                then,
                otherwise,
                anchor,
            } => {
                let present = emit && is_present(pr, spec, op, *anchor);
                let unit_anchor = is_unit_attr(spec, *anchor);
                for t in then {
                    if unit_anchor && matches!(t, Elem::Var(v) if v == anchor) {
                        continue;
                    }
                    print_elems(pr, spec, std::slice::from_ref(t), op, s, present, elided);
                }
                print_elems(pr, spec, otherwise, op, s, emit && !present, elided);
            }
            // An empty operand group prints nothing, not even its space.
            Elem::Var(v @ (Var::Operand(_) | Var::Operands)) if !is_present(pr, spec, op, *v) => {}
            _ => {
                if emit {
                    if s.space {
                        pr.out.push(' ');
                    }
                    print_value_elem(pr, spec, e, op);
                }
                s.last_punct = false;
                s.space = true;
            }
        }
    }
}

fn is_present(pr: &OpPrinter, spec: &OpSpec, op: Op, v: Var) -> bool {
    let ctx = pr.ctx();
    match v {
        Var::Operand(i) => !spec.operand_ranges(ctx, op)[i].is_empty(),
        Var::Result(i) => !spec.result_ranges(ctx, op)[i].is_empty(),
        Var::Attr(i) => {
            let a = &spec.attributes[i];
            spec.attr(ctx, op, a.name)
                .is_some_and(|v| a.default.is_none_or(|d| d(ctx.uniquer()) != v))
        }
        Var::Region(i) => ctx
            .regions(op)
            .get(i)
            .is_some_and(|r| ctx.entry_block(*r).is_some()),
        Var::Successor(_) | Var::Successors => !ctx.successors(op).is_empty(),
        Var::Operands => !ctx.operands(op).is_empty(),
        Var::Results => ctx.num_results(op) > 0,
        Var::Regions => !ctx.regions(op).is_empty(),
    }
}

fn types_of(pr: &OpPrinter, spec: &OpSpec, op: Op, v: Var) -> Vec<Type> {
    let ctx = pr.ctx();
    match v {
        Var::Operand(i) => {
            let r = spec.operand_ranges(ctx, op)[i].clone();
            ctx.operands(op)[r]
                .iter()
                .map(|v| ctx.value_type(*v))
                .collect()
        }
        Var::Result(i) => spec.result_ranges(ctx, op)[i]
            .clone()
            .map(|k| ctx.value_type(ctx.result(op, k)))
            .collect(),
        Var::Operands => ctx
            .operands(op)
            .iter()
            .map(|v| ctx.value_type(*v))
            .collect(),
        Var::Results => ctx.results(op).map(|v| ctx.value_type(v)).collect(),
        _ => Vec::new(),
    }
}

fn print_value_elem(pr: &mut OpPrinter, spec: &OpSpec, e: &Elem, op: Op) {
    let ctx = pr.ctx();
    match e {
        Elem::Var(Var::Operand(i)) => {
            let r = spec.operand_ranges(ctx, op)[*i].clone();
            let vals: Vec<Value> = ctx.operands(op)[r].to_vec();
            pr.values(&vals);
        }
        Elem::Var(Var::Operands) => {
            let vals: Vec<Value> = ctx.operands(op).to_vec();
            pr.values(&vals);
        }
        Elem::Var(Var::Attr(i)) => {
            let a = &spec.attributes[*i];
            let Some(v) = spec.attr(ctx, op, a.name) else {
                return;
            };
            match a.constraint.syntax {
                AttrSyntax::Full => pr.attr(v),
                AttrSyntax::WithoutType(_) => pr.attr_without_type(v),
                AttrSyntax::SymbolName => {
                    let name = ctx.attr_str(v).unwrap_or_default().to_string();
                    pr.symbol_name(&name)
                }
                AttrSyntax::Enum(_, words) => match ctx.attr_kind(v) {
                    AttrKind::Integer { value, .. } if (*value as usize) < words.len() => {
                        pr.out.push_str(words[*value as usize])
                    }
                    _ => pr.attr(v),
                },
                AttrSyntax::BitEnum(e) => match e.bits_of(ctx.attr_kind(v)) {
                    Some(bits) => {
                        pr.out.push('<');
                        pr.out.push_str(&e.keywords(bits));
                        pr.out.push('>');
                    }
                    None => pr.attr(v),
                },
                AttrSyntax::DenseArray(_) => match ctx.attr_kind(v) {
                    AttrKind::DenseArray { values, .. } => {
                        let items: Vec<String> =
                            values.iter().map(|x| (*x as i64).to_string()).collect();
                        pr.out.push('[');
                        pr.out.push_str(&items.join(", "));
                        pr.out.push(']');
                    }
                    _ => pr.attr(v),
                },
                AttrSyntax::Keyword(e) => match (e.index)(ctx.attr_kind(v)) {
                    Some(k) => pr.out.push_str(e.keywords[k]),
                    None => pr.attr(v),
                },
            }
        }
        Elem::Var(Var::Region(i)) => {
            let rs: Vec<Region> = if spec.regions[*i].variadic {
                ctx.regions(op)[*i..].to_vec()
            } else {
                ctx.regions(op).get(*i).copied().into_iter().collect()
            };
            for (k, r) in rs.into_iter().enumerate() {
                if k > 0 {
                    pr.out.push_str(", ");
                }
                pr.region(r, true, true);
            }
        }
        Elem::Var(Var::Regions) => {
            let rs: Vec<Region> = ctx.regions(op).to_vec();
            for (k, r) in rs.into_iter().enumerate() {
                if k > 0 {
                    pr.out.push_str(", ");
                }
                pr.region(r, true, true);
            }
        }
        Elem::Var(Var::Successor(_) | Var::Successors) => {
            let ss: Vec<Block> = ctx.successors(op).to_vec();
            for (k, b) in ss.into_iter().enumerate() {
                if k > 0 {
                    pr.out.push_str(", ");
                }
                pr.successor(b);
            }
        }
        Elem::Type(v) => {
            let tys = types_of(pr, spec, op, *v);
            pr.types(&tys);
        }
        Elem::FunctionalType(a, b) => {
            let ins = types_of(pr, spec, op, *a);
            let outs = types_of(pr, spec, op, *b);
            pr.functional_type(&ins, &outs);
        }
        Elem::Custom(dir, args) => {
            let slots = PrintSlots { spec, args, op };
            (dir.print)(pr, &slots);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{AttrSpec, RegionSpec, ValueSpec, ac, tc};

    const SPEC: OpSpec = OpSpec {
        operands: &[
            ValueSpec::one("lhs", tc::ANY),
            ValueSpec::variadic("rest", tc::ANY),
        ],
        results: &[ValueSpec::one("result", tc::ANY)],
        attributes: &[
            AttrSpec::optional("flag", ac::UNIT),
            AttrSpec::required("name", ac::SYMBOL_NAME),
        ],
        regions: &[RegionSpec::any("body")],
        ..OpSpec::new("t.op")
    };

    #[test]
    fn formats_compile_to_elements() {
        let f = Format::compile(
            &SPEC,
            "$name `(` $lhs (`,` $rest^)? `)` (`flag` $flag^)? attr-dict `:` functional-type(operands, results) $body",
        )
        .unwrap();
        assert!(matches!(f.elems[0], Elem::Var(Var::Attr(1))));
        assert!(matches!(f.elems[1], Elem::Literal("(")));
        assert!(matches!(
            &f.elems[3],
            Elem::Optional { anchor: Var::Operand(1), then, .. } if then.len() == 2
        ));
        assert!(matches!(
            f.elems[8],
            Elem::FunctionalType(Var::Operands, Var::Results)
        ));
        assert!(matches!(f.elems[9], Elem::Var(Var::Region(0))));
    }

    #[test]
    fn malformed_formats_are_rejected_with_a_reason() {
        for (text, want) in [
            ("$nope", "'nope' is not an operand"),
            ("(`x` $lhs)?", "without an anchor"),
            ("type($lhs", "expected ')'"),
            ("`unterminated", "unterminated literal"),
            ("frob", "unknown directive 'frob'"),
            ("attr-dict )", "unexpected ')'"),
        ] {
            let err = Format::compile(&SPEC, text).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    static FLAGS: crate::dialect::BitEnum = crate::dialect::BitEnum {
        attr: "t.flags",
        none: "none",
        bits: &[("a", 1), ("b", 2)],
        groups: &[],
        separator: ",",
    };

    fn no_flags(u: &Uniquer) -> Attr {
        FLAGS.attr(u, 0)
    }

    const FLAG_SPEC: OpSpec = OpSpec {
        operands: &[ValueSpec::one("x", tc::ANY)],
        attributes: &[AttrSpec::defaulted(
            "flags",
            crate::dialect::AttrConstraint {
                desc: "flags",
                check: |a, _| FLAGS.bits_of(a).is_some(),
                syntax: AttrSyntax::BitEnum(&FLAGS),
            },
            no_flags,
        )],
        ..OpSpec::new("t.flagged")
    };

    #[test]
    fn bit_enum_attributes_anchor_optional_groups() {
        let f = Format::compile(
            &FLAG_SPEC,
            "$x (`flags` `` $flags^)? attr-dict `:` type($x)",
        )
        .unwrap();
        assert!(matches!(
            &f.elems[1],
            Elem::Optional { anchor: Var::Attr(0), then, .. }
                if matches!(then[..], [Elem::Literal("flags"), Elem::Space(false), Elem::Var(Var::Attr(0))])
        ));
        assert!(used_attrs(&FLAG_SPEC, &f.elems).contains(&"flags"));
    }

    #[test]
    fn spacing_follows_mlir_punctuation_rules() {
        assert!(!space_before(",", false));
        assert!(!space_before(")", true));
        assert!(space_before("->", false));
        assert!(space_before("to", true));
        assert!(space_before(":", false));
        assert!(!space_before("(", false));
    }
}
