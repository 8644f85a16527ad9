//! The op/region/block driver: walks the nesting structure of a file and asks the
//! grammar for one op header, type or attribute at a time.
//!
//! SSA names follow MLIR's rules: forward references become placeholders that the
//! definition replaces; names are scoped per region and, under an op that is
//! isolated from above, hidden from the enclosing regions.

use super::{Aliases, Lowerer, Rule, parse_rule};
use crate::attributes::{Attr, AttrKind, Ident, LocKind};
use crate::diagnostics::{Diagnostic, SourceMap};
use crate::dialect::Traits;
use crate::intern::FxBuild;
use crate::ir::{AttrDict, Block, Context, Op, OpState, Region, Value, ValueDef, known};
use crate::types::{Type, TypeKind};
use pest::iterators::Pair;
use smallvec::SmallVec;
use std::collections::HashMap;

mod interface;
mod locations;
mod types;

/// Deepest region nesting accepted.
pub const MAX_REGION_DEPTH: usize = 1000;

type R<T> = Result<T, Diagnostic>;

struct NameEntry {
    values: SmallVec<[Value; 1]>,
    defined: bool,
    first_use: usize,
}

/// Names borrow from the source text, so tracking them allocates nothing per use.
#[derive(Default)]
struct IsolatedScope<'s> {
    names: HashMap<&'s str, NameEntry, FxBuild>,
}

#[derive(Default)]
struct RegionScope<'s> {
    defined_here: Vec<&'s str>,
    blocks: HashMap<&'s str, (Block, bool, usize), FxBuild>,
}

/// Longest type or attribute text looked up in the caches; longer text is rare and
/// bounding the scan keeps a missing terminator from costing a walk over the file.
const CACHE_SCAN_LIMIT: usize = 256;
/// Entries kept per cache before it is cleared, bounding its memory.
const CACHE_CAPACITY: usize = 1 << 16;

/// Parses one file into a `builtin.module`.
pub struct OpParser<'s, 'c> {
    ctx: &'c mut Context,
    sm: &'s SourceMap,
    src: &'s str,
    pos: usize,
    file: usize,
    file_ident: Ident,
    aliases: Aliases,
    isolated: Vec<IsolatedScope<'s>>,
    regions: Vec<RegionScope<'s>>,
    /// Types and attributes by their exact source text: files repeat the same few
    /// spellings over and over, and a hash lookup is far cheaper than a grammar run.
    /// Each entry also holds what its alias uses added to the expansion budget
    /// ([`Aliases::spend_again`]), charged again on every hit.
    type_cache: HashMap<&'s str, (Type, u64), FxBuild>,
    attr_cache: HashMap<&'s str, (Attr, u64), FxBuild>,
    /// Nesting of parenthesised function types being read.
    type_nesting: usize,
    depth: usize,
    /// Default dialect of each enclosing custom op (`func` inside `func.func`).
    default_dialects: Vec<&'static str>,
    /// Whether the custom op being parsed is isolated from above.
    op_isolated: Vec<bool>,
    /// Names of the custom-syntax ops being parsed, innermost last.
    op_names: Vec<&'static str>,
    /// The properties of ops whose inherent attributes all take their defaults,
    /// by op name.
    default_props: std::collections::HashMap<String, Option<Attr>>,
    /// `loc(#name)` used before `#name` is defined (mlir-opt prints op locations'
    /// aliases after the module): a placeholder location per name, with the position
    /// of its first use, resolved at the end of the file.
    deferred_locs: HashMap<&'s str, (Attr, usize), FxBuild>,
}

/// An SSA use that has been read but not yet given a type.
#[derive(Clone, Debug)]
pub struct UnresolvedOperand<'s> {
    /// Name without the result number (`%x`).
    pub name: &'s str,
    /// Result number (`#1`).
    pub index: usize,
    /// Offset of the use in the file.
    pub at: usize,
}

/// A named, typed argument as written in signatures: `%arg0: i32 {attrs} loc(...)`.
#[derive(Clone, Debug)]
pub struct Argument<'s> {
    /// The SSA name.
    pub name: &'s str,
    /// Offset of the name.
    pub at: usize,
    /// Its type.
    pub ty: Type,
    /// Attribute dictionary, if written.
    pub attrs: Option<Attr>,
    /// Location, if written.
    pub loc: Option<Attr>,
}

impl<'s> Argument<'s> {
    /// An argument named by an operand-like `%name` (as in `%iv = %lb`), typed
    /// separately.
    pub fn named(u: &UnresolvedOperand<'s>, ty: Type) -> Self {
        Argument {
            name: u.name,
            at: u.at,
            ty,
            attrs: None,
            loc: None,
        }
    }
}

/// Parse file `file` of `sm` into a module. Top-level ops other than a single
/// `builtin.module` are wrapped in an implicit module, as MLIR does.
pub fn parse_module(ctx: &mut Context, sm: &SourceMap, file: usize) -> R<Op> {
    let src = sm.text(file);
    let file_ident = ctx.ident(sm.name(file));
    // Rough op count from the size, so the arenas grow once.
    ctx.reserve(src.len() / 64);
    let mut p = OpParser {
        ctx,
        sm,
        src,
        pos: 0,
        file,
        file_ident,
        aliases: Aliases::for_input(src.len()),
        isolated: vec![IsolatedScope::default()],
        regions: vec![RegionScope::default()],
        type_cache: HashMap::default(),
        attr_cache: HashMap::default(),
        type_nesting: 0,
        depth: 0,
        default_dialects: vec!["builtin"],
        op_isolated: Vec::new(),
        op_names: Vec::new(),
        default_props: std::collections::HashMap::new(),
        deferred_locs: HashMap::default(),
    };
    p.parse_top_level().map_err(|mut d| {
        // Like MLIR, an error at the end of the input points just past the last
        // token rather than at the (empty) line after it.
        let end = src.trim_end().len();
        if let crate::diagnostics::Where::Span { file: f, start, .. } = d.at
            && f == file
            && start >= end
        {
            d.at = crate::diagnostics::Where::Span {
                file,
                start: end,
                end,
            };
        }
        d
    })
}

impl<'s> OpParser<'s, '_> {
    fn skip_trivia(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < b.len() {
            match b[self.pos] {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b'/' if b.get(self.pos + 1) == Some(&b'/') => {
                    while self.pos < b.len() && b[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_trivia();
        self.src.as_bytes().get(self.pos).copied()
    }
    fn eat(&mut self, s: &str) -> bool {
        self.skip_trivia();
        if self.src[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    /// An error at the current position.
    pub fn error_here(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(msg).at_span(self.file, self.pos, (self.pos + 1).min(self.src.len()))
    }
    fn expect(&mut self, s: &str) -> R<()> {
        if self.eat(s) {
            Ok(())
        } else {
            let found = if self.pos >= self.src.len() {
                "end of file".to_string()
            } else {
                "other text".into()
            };
            Err(self.error_here(format!("expected '{s}', found {found}")))
        }
    }
    fn rule(&mut self, rule: Rule) -> R<Pair<'s, Rule>> {
        self.skip_trivia();
        let src: &'s str = self.src;
        let p = parse_rule(rule, &src[self.pos..], self.file, self.pos)?;
        let base = self.pos;
        self.pos = base + p.as_span().end();
        Ok(p)
    }
    fn loc_at(&self, offset: usize) -> Attr {
        let (line, col) = self.sm.line_col(self.file, offset);
        self.ctx.attr(AttrKind::Location(LocKind::FileLineCol {
            file: self.file_ident,
            line: line as u32,
            col: col as u32,
            end: None,
        }))
    }

    fn parse_top_level(&mut self) -> R<Op> {
        let module_region = self.ctx.create_region();
        let body = self.ctx.create_block(&[]);
        self.ctx.append_block(module_region, body);
        loop {
            match self.peek() {
                None => break,
                Some(b'#') | Some(b'!') => self.parse_alias_def()?,
                Some(b'{') if self.src[self.pos..].starts_with("{-#") => {
                    let end = self.src[self.pos..]
                        .find("#-}")
                        .ok_or_else(|| self.error_here("unterminated file metadata '{-#'"))?;
                    self.pos += end + 3;
                }
                Some(_) => {
                    let op = self.parse_op()?;
                    self.ctx.append_op(body, op);
                }
            }
        }
        self.finish_region_scope()?;
        self.finish_isolated_scope()?;
        self.resolve_deferred_locs()?;
        let ops: Vec<Op> = self.ctx.block_ops(body).collect();
        if let [single] = ops[..]
            && self.ctx.op(single).name == known::MODULE
        {
            self.ctx.detach_op(single);
            return Ok(single);
        }
        // MLIR gives the implicit module the location `file:0:0`.
        let loc = self.ctx.attr(AttrKind::Location(LocKind::FileLineCol {
            file: self.file_ident,
            line: 0,
            col: 0,
            end: None,
        }));
        let mut st = OpState::new(known::MODULE, loc);
        st.regions.push(module_region);
        Ok(self.ctx.create_op(st))
    }

    fn parse_alias_def(&mut self) -> R<()> {
        let start = self.pos;
        let p = self.rule(Rule::alias_def)?;
        let mut it = p.clone().into_inner();
        let name_pair = it.next().expect("alias name");
        let is_attr = name_pair.as_rule() == Rule::attr_alias_name;
        let name = name_pair.as_str()[1..].to_string();
        let value = it.next().expect("alias value");
        let mut low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
            .with_registry(self.ctx.registry());
        if is_attr {
            let a = if value.as_rule() == Rule::type_ {
                let t = low.ty(value)?;
                self.ctx.attr(AttrKind::Type(t))
            } else {
                low.attr(value)?
            };
            if self.aliases.attrs.insert(name.clone(), a).is_some() {
                return Err(Diagnostic::error(format!(
                    "redefinition of attribute alias id '{name}'"
                ))
                .at_span(self.file, start, start + name.len() + 1));
            }
        } else {
            let t = match value.as_rule() {
                Rule::type_ => low.ty(value)?,
                _ => match self.ctx.attr_kind(low.attr(value)?) {
                    AttrKind::Type(t) => *t,
                    _ => {
                        return Err(Diagnostic::error("expected a type")
                            .at_span(self.file, start, self.pos));
                    }
                },
            };
            if self.aliases.types.insert(name.clone(), t).is_some() {
                return Err(
                    Diagnostic::error(format!("redefinition of type alias id '{name}'")).at_span(
                        self.file,
                        start,
                        start + name.len() + 1,
                    ),
                );
            }
        }
        Ok(())
    }

    /// Parse one op (with its result list) and return it detached.
    fn parse_op(&mut self) -> R<Op> {
        self.skip_trivia();
        let start = self.pos;
        let mut groups: SmallVec<[(&'s str, usize, usize); 1]> = SmallVec::new();
        if self.peek() == Some(b'%') {
            loop {
                let at = self.pos();
                let name = self.scan_sigil_id(b'%')?;
                let mut count = 1;
                if self.src.as_bytes().get(self.pos) == Some(&b':') {
                    self.pos += 1;
                    let digits = self.scan_digits();
                    count = digits
                        .parse::<usize>()
                        .ok()
                        .filter(|&c| c > 0 && c < 1 << 20)
                        .ok_or_else(|| self.error_at(at, "invalid result count"))?;
                }
                groups.push((name, count, at));
                if !self.eat_token(",") {
                    break;
                }
            }
            self.expect_token("=")?;
        }
        let op = match self.peek() {
            Some(b'"') => self.parse_generic_op()?,
            _ => self.parse_custom_op()?,
        };
        let n = self.ctx.num_results(op);
        let bound: usize = groups.iter().map(|g| g.1).sum();
        if !groups.is_empty() && bound != n {
            let msg = if n == 0 {
                "cannot name an operation with no results".to_string()
            } else {
                format!("operation defines {n} results but was provided {bound} to bind")
            };
            return Err(Diagnostic::error(msg).at_span(self.file, start, start + 1));
        }
        let mut next = 0;
        for (name, count, at) in groups {
            let vals: SmallVec<[Value; 1]> = (next..next + count)
                .map(|i| self.ctx.result(op, i))
                .collect();
            next += count;
            self.define(name, vals, at)?;
        }
        Ok(op)
    }

    /// `%name`/`^name` (sigil included) at the cursor, without skipping whitespace inside.
    fn scan_sigil_id(&mut self, sigil: u8) -> R<&'s str> {
        self.skip_trivia();
        let src: &'s str = self.src;
        let b = src.as_bytes();
        let start = self.pos;
        if b.get(start) != Some(&sigil) {
            let what = if sigil == b'%' {
                "SSA value"
            } else {
                "block name"
            };
            return Err(self.error_here(format!("expected {what}")));
        }
        let mut i = start + 1;
        match b.get(i) {
            Some(c) if c.is_ascii_digit() => {
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            Some(c) if c.is_ascii_alphabetic() || b"$._-".contains(c) => {
                while b
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || b"$._-".contains(c))
                {
                    i += 1;
                }
            }
            _ => {
                return Err(self.error_at(start, "expected valid identifier after the sigil"));
            }
        }
        self.pos = i;
        Ok(&src[start..i])
    }

    fn scan_digits(&mut self) -> &'s str {
        let src: &'s str = self.src;
        let start = self.pos;
        let n = src.as_bytes()[start..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        self.pos += n;
        &src[start..start + n]
    }

    /// A string literal; the common escape-free case is read directly.
    fn parse_string_literal(&mut self) -> R<std::borrow::Cow<'s, str>> {
        self.skip_trivia();
        let src: &'s str = self.src;
        let rest = &src.as_bytes()[self.pos..];
        if rest.first() == Some(&b'"')
            && let Some(end) = rest[1..]
                .iter()
                .position(|&c| matches!(c, b'"' | b'\\' | b'\n'))
            && rest[1 + end] == b'"'
        {
            let s = &src[self.pos + 1..self.pos + 1 + end];
            self.pos += end + 2;
            return Ok(std::borrow::Cow::Borrowed(s));
        }
        let start = self.pos;
        let p = self.rule(Rule::string)?;
        let low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start)
            .with_registry(self.ctx.registry());
        Ok(std::borrow::Cow::Owned(
            String::from_utf8_lossy(&low.string_bytes(&p)?).into_owned(),
        ))
    }

    fn parse_custom_op(&mut self) -> R<Op> {
        let name_start = self.pos;
        let name_len = self.src[name_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_$.".contains(c)))
            .unwrap_or(self.src.len() - name_start);
        let raw = &self.src[name_start..name_start + name_len];
        if raw.is_empty() || !raw.as_bytes()[0].is_ascii_alphabetic() && raw.as_bytes()[0] != b'_' {
            let at = self.end_of_previous_token();
            return Err(
                Diagnostic::error("expected operation name in quotes").at_span(self.file, at, at)
            );
        }
        let reg = self.ctx.registry().clone();
        let mut spec = reg.op(raw);
        let mut tried = None;
        if spec.is_none() && !raw.contains('.') {
            let d = self.default_dialects.last().copied().unwrap_or("");
            let full = format!("{d}.{raw}");
            spec = reg.op(&full);
            tried = Some(full);
        }
        let Some(spec) = spec else {
            let also = tried
                .map(|t| format!(" (tried '{t}' as well)"))
                .unwrap_or_default();
            return Err(Diagnostic::error(format!("custom op '{raw}' is unknown{also}"))
                .at_span(self.file, name_start, name_start + name_len)
                .with_hint("ops without a registered syntax can be written in generic form: \"dialect.op\"(...) : (...) -> (...)"));
        };
        self.pos = name_start + name_len;
        let loc = self.loc_at(name_start);
        let mut st = OpState::new(self.ctx.ident(spec.name), loc);
        self.default_dialects
            .push(spec.default_dialect.unwrap_or(""));
        self.op_isolated.push(spec.has(Traits::ISOLATED_FROM_ABOVE));
        self.op_names.push(spec.name);
        if let Some(custom) = spec.custom {
            (custom.parse)(self, &mut st)?;
        } else if let Some(fmt) = reg.format(spec.name) {
            crate::asm::parse(self, spec, fmt, &mut st)?;
        } else {
            return Err(Diagnostic::error(format!(
                "'{}' has no custom assembly format",
                spec.name
            ))
            .at_span(self.file, name_start, name_start + name_len)
            .with_hint("write it in generic form: \"dialect.op\"(...) : (...) -> (...)"));
        }
        self.op_isolated.pop();
        self.op_names.pop();
        self.default_dialects.pop();
        if let Some(t) = spec.implicit_terminator {
            for &r in &st.regions {
                self.ctx.ensure_terminator(r, t, st.loc);
            }
        }
        if let Some(l) = self.parse_optional_location()? {
            st.loc = l;
        }
        Ok(self.ctx.create_op(st))
    }

    fn parse_generic_op(&mut self) -> R<Op> {
        let head_start = self.pos;
        let name = self.parse_string_literal()?;
        let name_id = self.ctx.ident(&name);
        let spec = self.ctx.registry().op(&name);
        if spec.is_none() && !self.ctx.allow_unregistered {
            let dialect = name.split_once('.').map_or(&*name, |(d, _)| d);
            let msg = if self.ctx.registry().has_dialect(dialect) {
                format!(
                    "unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
                )
            } else {
                "operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used".to_string()
            };
            return Err(Diagnostic::error(msg).at_span(
                self.file,
                head_start,
                head_start + name.len() + 2,
            ));
        }
        self.expect_token("(")?;
        let uses = self.parse_operand_list()?;
        self.expect_token(")")?;
        let mut successors = SmallVec::<[Block; 1]>::new();
        if self.eat_token("[") {
            loop {
                let at = self.pos();
                let n = self.scan_sigil_id(b'^')?;
                successors.push(self.block_ref(n, at));
                if !self.eat_token(",") {
                    break;
                }
            }
            self.expect_token("]")?;
        }
        let mut props = None;
        if self.eat_token("<") {
            props = Some(self.parse_attribute(None)?);
            self.expect_token(">")?;
        }
        let isolated = spec.is_some_and(|s| s.has(Traits::ISOLATED_FROM_ABOVE));
        // Regions: `({...}, {...})`.
        let mut regions = SmallVec::<[Region; 1]>::new();
        if self.peek() == Some(b'(') {
            let save = self.pos;
            self.pos += 1;
            if self.peek() == Some(b'{') {
                loop {
                    regions.push(self.region_impl(isolated, &[])?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
            } else {
                self.pos = save;
            }
        }
        let mut attrs = AttrDict::default();
        if self.peek() == Some(b'{') {
            attrs = self.parse_optional_attr_dict()?.into_iter().collect();
        }
        self.expect_token(":")?;
        let fn_at = self.pos();
        let fn_ty = self.parse_type()?;
        let Some((inputs, results)) = self.function_type_parts(fn_ty) else {
            return Err(self.error_at(fn_at, "expected function type"));
        };
        let loc = self.parse_optional_location()?;
        if inputs.len() != uses.len() {
            return Err(Diagnostic::error(format!(
                "expected {} operand type{} but had {}",
                uses.len(),
                if uses.len() == 1 { "" } else { "s" },
                inputs.len()
            ))
            .at_span(self.file, fn_at, fn_at + 1));
        }
        let mut operands = SmallVec::<[Value; 2]>::new();
        for (u, ty) in uses.iter().zip(inputs.iter()) {
            operands.push(self.resolve(u.name, u.index, *ty, u.at)?);
        }
        // Registered ops keep inherent attributes as properties, as MLIR 22 does.
        if let Some(spec) = spec
            && props.is_none()
            && !spec.attributes.is_empty()
        {
            let mut inherent = Vec::new();
            for a in spec.attributes {
                if let Some(id) = self.ctx.find_ident(a.name)
                    && let Some(v) = attrs.shift_remove(&id)
                {
                    inherent.push((id, v));
                }
            }
            if !inherent.is_empty() {
                props = Some(self.ctx.dict_attr(inherent));
            }
        }
        if let Some(spec) = spec
            && spec.attributes.iter().any(|a| a.default.is_some())
        {
            let u = self.ctx.uniquer();
            let mut entries = match props {
                Some(p) => match u.attr_kind(p) {
                    AttrKind::Dict(e) => Some(e.to_vec()),
                    _ => None,
                },
                None => Some(Vec::new()),
            };
            if let Some(e) = entries.as_mut() {
                crate::asm::add_defaults(u, spec, e);
                // No inherent attribute at all stays no properties (`<{}>` is not
                // what MLIR prints for them).
                if !(e.is_empty() && props.is_none()) {
                    props = Some(u.dict_attr(std::mem::take(e)));
                }
            }
        }
        let mut st = OpState::new(name_id, loc.unwrap_or_else(|| self.loc_at(head_start)));
        st.operands = operands;
        st.result_types = results.iter().copied().collect();
        st.attrs = attrs;
        st.props = props;
        st.successors = successors;
        st.regions = regions;
        Ok(self.ctx.create_op(st))
    }

    fn region_impl(&mut self, isolated: bool, args: &[Argument<'s>]) -> R<Region> {
        if self.depth >= MAX_REGION_DEPTH {
            return Err(self.error_here(format!(
                "regions nested deeper than {MAX_REGION_DEPTH} levels"
            )));
        }
        self.expect_token("{")?;
        self.depth += 1;
        let region = self.ctx.create_region();
        self.regions.push(RegionScope::default());
        if isolated {
            self.isolated.push(IsolatedScope::default());
        }
        let mut current: Option<Block> = None;
        if !args.is_empty() {
            if self.peek() == Some(b'^') {
                return Err(self.error_here("invalid block name in region with named arguments"));
            }
            let b = self.ctx.create_block(&[]);
            self.ctx.append_block(region, b);
            for (i, a) in args.iter().enumerate() {
                if let Some(prev) = args[..i].iter().find(|p| p.name == a.name) {
                    return Err(Diagnostic::error(format!(
                        "region entry argument '{}' is already in use",
                        a.name
                    ))
                    .at_span(self.file, a.at, a.at + a.name.len())
                    .with_note(
                        "previously referenced here",
                        self.span_where(prev.at, prev.at + prev.name.len()),
                    ));
                }
                let loc = Some(a.loc.unwrap_or_else(|| self.loc_at(a.at)));
                let v = self.ctx.add_block_arg(b, a.ty, loc);
                self.define(a.name, smallvec::smallvec![v], a.at)?;
            }
            current = Some(b);
        }
        loop {
            match self.peek() {
                None => return Err(self.error_here("expected '}' to end the region")),
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                Some(b'^') => {
                    let b = self.parse_block_label()?;
                    self.ctx.append_block(region, b);
                    current = Some(b);
                }
                Some(_) => {
                    let b = match current {
                        Some(b) => b,
                        None => {
                            let b = self.ctx.create_block(&[]);
                            self.ctx.append_block(region, b);
                            current = Some(b);
                            b
                        }
                    };
                    let op = self.parse_op()?;
                    self.ctx.append_op(b, op);
                }
            }
        }
        self.finish_region_scope()?;
        if isolated {
            self.finish_isolated_scope()?;
        }
        self.depth -= 1;
        Ok(region)
    }

    fn parse_block_label(&mut self) -> R<Block> {
        let start = self.pos;
        let name = self.scan_sigil_id(b'^')?;
        let block = self.block_ref(name, start);
        let scope = self.regions.last_mut().expect("inside a region");
        let entry = scope.blocks.get_mut(name).expect("block_ref registered it");
        if entry.1 {
            return Err(
                Diagnostic::error(format!("redefinition of block '{name}'")).at_span(
                    self.file,
                    start,
                    start + name.len(),
                ),
            );
        }
        entry.1 = true;
        if self.eat_token("(") && !self.eat_token(")") {
            loop {
                let at = self.pos();
                let vname = self.scan_sigil_id(b'%')?;
                self.expect_token(":")?;
                let ty = self.parse_type()?;
                let loc = self.parse_optional_location()?;
                let loc = Some(loc.unwrap_or_else(|| self.loc_at(at)));
                let v = self.ctx.add_block_arg(block, ty, loc);
                self.define(vname, smallvec::smallvec![v], at)?;
                if !self.eat_token(",") {
                    break;
                }
            }
            self.expect_token(")")?;
        }
        self.expect_token(":")?;
        Ok(block)
    }

    /// A byte range of the file being parsed, for notes.
    fn span_where(&self, start: usize, end: usize) -> crate::diagnostics::Where {
        crate::diagnostics::Where::Span {
            file: self.file,
            start,
            end,
        }
    }

    fn block_ref(&mut self, name: &'s str, at: usize) -> Block {
        if let Some(e) = self.regions.last().and_then(|s| s.blocks.get(name)) {
            return e.0;
        }
        let b = self.ctx.create_block(&[]);
        self.regions
            .last_mut()
            .expect("inside a region")
            .blocks
            .insert(name, (b, false, at));
        b
    }

    fn define(&mut self, name: &'s str, values: SmallVec<[Value; 1]>, at: usize) -> R<()> {
        let scope = self.isolated.last_mut().expect("scope");
        if let Some(entry) = scope.names.get_mut(name) {
            if entry.defined {
                let prev = entry.first_use;
                return Err(
                    Diagnostic::error(format!("redefinition of SSA value '{name}'"))
                        .at_span(self.file, at, at + name.len())
                        .with_note(
                            "previously defined here",
                            self.span_where(prev, prev + name.len()),
                        ),
                );
            }
            // Replace forward-reference placeholders.
            let old = std::mem::take(&mut entry.values);
            let first_use = std::mem::replace(&mut entry.first_use, at);
            entry.values = values.clone();
            entry.defined = true;
            for (i, ph) in old.into_iter().enumerate() {
                // Forward references to `%x#2` also make placeholders for #0 and #1;
                // only those actually used must match the definition.
                if self.ctx.uses(ph).is_empty() {
                    continue;
                }
                let Some(&real) = values.get(i) else {
                    return Err(Diagnostic::error(format!(
                        "use of undeclared SSA value name '{name}#{i}': '{name}' has {} result{}",
                        values.len(),
                        if values.len() == 1 { "" } else { "s" }
                    ))
                    .at_span(self.file, first_use, first_use + name.len()));
                };
                if ph == real || self.ctx.value_def(ph) != ValueDef::Placeholder {
                    continue;
                }
                let (a, b) = (self.ctx.value_type(ph), self.ctx.value_type(real));
                if a != b {
                    return Err(Diagnostic::error(format!(
                        "definition of SSA value '{name}#{i}' has type '{}'",
                        crate::printer::type_text(self.ctx.uniquer(), b)
                    ))
                    .at_span(self.file, at, at + name.len())
                    .with_note(
                        format!(
                            "previously used here with type '{}'",
                            crate::printer::type_text(self.ctx.uniquer(), a)
                        ),
                        self.span_where(first_use, first_use + name.len()),
                    ));
                }
                self.ctx.replace_all_uses(ph, real);
            }
        } else {
            scope.names.insert(
                name,
                NameEntry {
                    values,
                    defined: true,
                    first_use: at,
                },
            );
        }
        self.regions
            .last_mut()
            .expect("region scope")
            .defined_here
            .push(name);
        Ok(())
    }

    fn resolve(&mut self, name: &'s str, idx: usize, ty: Type, at: usize) -> R<Value> {
        let entry = self
            .isolated
            .last_mut()
            .expect("scope")
            .names
            .entry(name)
            .or_insert(NameEntry {
                values: SmallVec::new(),
                defined: false,
                first_use: at,
            });
        let prior_at = entry.first_use;
        let v = if entry.defined {
            let Some(&v) = entry.values.get(idx) else {
                return Err(Diagnostic::error(format!(
                    "reference to invalid result number: '{name}' has {} result{}",
                    entry.values.len(),
                    if entry.values.len() == 1 { "" } else { "s" }
                ))
                .at_span(self.file, at, at + name.len()));
            };
            v
        } else {
            // A forward reference: placeholders stand in until the definition replaces them.
            let have = entry.values.len();
            entry
                .values
                .extend((have..=idx).map(|_| self.ctx.create_placeholder(ty)));
            entry.values[idx]
        };
        let prior = self.ctx.value_type(v);
        if prior != ty {
            let u = self.ctx.uniquer();
            return Err(Diagnostic::error(format!(
                "use of value '{name}' expects different type than prior uses: '{}' vs '{}'",
                crate::printer::type_text(u, ty),
                crate::printer::type_text(u, prior)
            ))
            .at_span(self.file, at, at + name.len())
            .with_note(
                "prior use here",
                self.span_where(prior_at, prior_at + name.len()),
            ));
        }
        Ok(v)
    }

    fn finish_region_scope(&mut self) -> R<()> {
        let scope = self.regions.pop().expect("region scope");
        for (name, (_, defined, at)) in &scope.blocks {
            if !defined {
                return Err(
                    Diagnostic::error(format!("reference to an undefined block '{name}'")).at_span(
                        self.file,
                        *at,
                        *at + name.len(),
                    ),
                );
            }
        }
        // Names defined here go out of scope, so sibling regions may reuse them.
        let iso = self.isolated.last_mut().expect("scope");
        for n in scope.defined_here {
            iso.names.remove(&n);
        }
        Ok(())
    }

    fn finish_isolated_scope(&mut self) -> R<()> {
        let scope = self.isolated.pop().expect("isolated scope");
        let mut undefined: Vec<(&'s str, NameEntry)> = scope
            .names
            .into_iter()
            .filter(|(_, e)| !e.defined)
            .collect();
        undefined.sort_by_key(|(_, e)| e.first_use);
        if self.isolated.is_empty() {
            if let Some((name, e)) = undefined.first() {
                return Err(Diagnostic::error(format!(
                    "use of undeclared SSA value name '{name}'"
                ))
                .at_span(self.file, e.first_use, e.first_use + name.len()));
            }
            return Ok(());
        }
        // As in MLIR, names used but not defined inside an isolated region refer to
        // the enclosing scope; the verifier then reports the isolation violation
        // with a better message than "undeclared" would be.
        for (name, e) in undefined {
            let parent = self.isolated.last_mut().expect("enclosing scope");
            match parent.names.get_mut(name) {
                None => {
                    parent.names.insert(name, e);
                }
                Some(p) => {
                    let mut pairs = Vec::new();
                    for (i, ph) in e.values.iter().enumerate() {
                        match p.values.get(i) {
                            Some(&v) => pairs.push((*ph, v)),
                            None if p.defined => {}
                            None => p.values.push(*ph),
                        }
                    }
                    for (ph, v) in pairs {
                        if self.ctx.uses(ph).is_empty() {
                            continue;
                        }
                        let (a, b) = (self.ctx.value_type(ph), self.ctx.value_type(v));
                        if a != b {
                            let u = self.ctx.uniquer();
                            return Err(Diagnostic::error(format!(
                                "use of value '{name}' expects different type than prior uses: '{}' vs '{}'",
                                crate::printer::type_text(u, a),
                                crate::printer::type_text(u, b)
                            ))
                            .at_span(self.file, e.first_use, e.first_use + name.len()));
                        }
                        self.ctx.replace_all_uses(ph, v);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Where a `//` comment starts in a line, ignoring `//` inside string literals.
fn comment_start(line: &[u8]) -> Option<usize> {
    let mut in_string = false;
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'/' if !in_string && line.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}
