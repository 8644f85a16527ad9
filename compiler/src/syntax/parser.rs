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
use crate::ir::{AttrDict, Block, Context, Op, OpState, Region, Value, ValueDef, known};
use crate::types::{Type, TypeKind};
use pest::iterators::Pair;
use std::collections::HashMap;

/// Deepest region nesting accepted.
pub const MAX_REGION_DEPTH: usize = 1000;

type R<T> = Result<T, Diagnostic>;

struct NameEntry {
    values: Vec<Value>,
    defined: bool,
    first_use: usize,
}

#[derive(Default)]
struct IsolatedScope {
    names: HashMap<String, NameEntry>,
}

#[derive(Default)]
struct RegionScope {
    defined_here: Vec<String>,
    blocks: HashMap<String, (Block, bool, usize)>,
}

/// Parses one file into a `builtin.module`.
pub struct OpParser<'s, 'c> {
    ctx: &'c mut Context,
    sm: &'s SourceMap,
    src: &'s str,
    pos: usize,
    file: usize,
    file_ident: Ident,
    aliases: Aliases,
    isolated: Vec<IsolatedScope>,
    regions: Vec<RegionScope>,
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
        aliases: Aliases::default(),
        isolated: vec![IsolatedScope::default()],
        regions: vec![RegionScope::default()],
    };
    p.parse_top_level()
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
    fn error_here(&self, msg: impl Into<String>) -> Diagnostic {
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
                    let op = self.parse_op(0)?;
                    self.ctx.append_op(body, op);
                }
            }
        }
        self.finish_region_scope()?;
        self.finish_isolated_scope()?;
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
        let mut low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start);
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
    fn parse_op(&mut self, depth: usize) -> R<Op> {
        self.skip_trivia();
        let start = self.pos;
        let mut groups: Vec<(String, usize, usize)> = Vec::new();
        if self.peek() == Some(b'%') {
            let p = self.rule(Rule::op_results)?;
            for r in p.into_inner() {
                let span_start = start + r.as_span().start();
                let mut it = r.into_inner();
                let name = it.next().expect("name").as_str().to_string();
                let count = match it.next() {
                    Some(n) => n
                        .as_str()
                        .parse::<usize>()
                        .ok()
                        .filter(|&c| c > 0 && c < 1 << 20)
                        .ok_or_else(|| {
                            Diagnostic::error("invalid result count").at_span(
                                self.file,
                                span_start,
                                span_start + 1,
                            )
                        })?,
                    None => 1,
                };
                groups.push((name, count, span_start));
            }
        }
        let op = match self.peek() {
            Some(b'"') => self.parse_generic_op(start, depth)?,
            _ => {
                let name_end = self.src[self.pos..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "_$.".contains(c)))
                    .map_or(self.src.len(), |i| self.pos + i);
                let name = &self.src[self.pos..name_end];
                return Err(if name.is_empty() {
                    self.error_here("expected operation name in quotes")
                } else {
                    Diagnostic::error(format!("custom op '{name}' is unknown"))
                        .at_span(self.file, self.pos, name_end)
                        .with_hint(
                            "write the op in generic form: \"dialect.op\"(...) : (...) -> (...)",
                        )
                });
            }
        };
        let n = self.ctx.num_results(op);
        let bound: usize = groups.iter().map(|g| g.1).sum();
        if !groups.is_empty() && bound != n {
            return Err(Diagnostic::error(format!(
                "operation defines {n} results but was provided {bound} to bind"
            ))
            .at_span(self.file, start, start + 1));
        }
        let mut next = 0;
        for (name, count, at) in groups {
            let vals: Vec<Value> = (next..next + count)
                .map(|i| self.ctx.result(op, i))
                .collect();
            next += count;
            self.define(&name, vals, at)?;
        }
        Ok(op)
    }

    fn parse_generic_op(&mut self, start: usize, depth: usize) -> R<Op> {
        let head_start = self.pos;
        let head = self.rule(Rule::generic_head)?;
        let mut name = String::new();
        let mut uses: Vec<(String, usize, usize)> = Vec::new();
        let mut succ_names: Vec<(String, usize)> = Vec::new();
        let mut props = None;
        for part in head.into_inner() {
            match part.as_rule() {
                Rule::string => {
                    let low =
                        Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, head_start);
                    name = String::from_utf8_lossy(&low.string_bytes(&part)?).into_owned();
                }
                Rule::value_use_list => {
                    for u in part.into_inner() {
                        let at = head_start + u.as_span().start();
                        let mut it = u.into_inner();
                        let n = it.next().expect("value name").as_str().to_string();
                        let idx = match it.next() {
                            Some(i) => i.as_str().parse::<usize>().map_err(|_| {
                                Diagnostic::error("result number too large").at_span(
                                    self.file,
                                    at,
                                    at + 1,
                                )
                            })?,
                            None => 0,
                        };
                        uses.push((n, idx, at));
                    }
                }
                Rule::successor_list => {
                    for s in part.into_inner() {
                        succ_names.push((s.as_str().to_string(), head_start + s.as_span().start()));
                    }
                }
                Rule::properties => {
                    let a = part.into_inner().next().expect("property attribute");
                    let mut low =
                        Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, head_start);
                    props = Some(low.attr(a)?);
                }
                _ => {}
            }
        }
        let name_id = self.ctx.ident(&name);
        let spec = self.ctx.registry().op(&name);
        if spec.is_none() && !self.ctx.allow_unregistered {
            let dialect = name.split_once('.').map_or(name.as_str(), |(d, _)| d);
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
        let isolated = spec.is_some_and(|s| s.has(Traits::ISOLATED_FROM_ABOVE));
        // Regions: `({...}, {...})`.
        let mut regions = smallvec::SmallVec::<[Region; 1]>::new();
        self.skip_trivia();
        if self.src[self.pos..].starts_with('(') {
            let save = self.pos;
            self.pos += 1;
            if self.peek() == Some(b'{') {
                if depth >= MAX_REGION_DEPTH {
                    return Err(self.error_here(format!(
                        "regions nested deeper than {MAX_REGION_DEPTH} levels"
                    )));
                }
                loop {
                    regions.push(self.parse_region(isolated, depth + 1)?);
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect(")")?;
            } else {
                self.pos = save;
            }
        }
        self.skip_trivia();
        let tail_start = self.pos;
        let tail = self.rule(Rule::generic_tail)?;
        let mut attrs = AttrDict::default();
        let mut fn_ty = None;
        let mut loc = None;
        for part in tail.into_inner() {
            let mut low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, tail_start);
            match part.as_rule() {
                Rule::dict_attr => {
                    let d = low.attr(part)?;
                    attrs = self.ctx.dict_entries(d).iter().copied().collect();
                }
                Rule::function_type => {
                    fn_ty = Some((low.ty(part.clone())?, tail_start + part.as_span().start()))
                }
                Rule::trailing_loc => loc = Some(low.loc(part)?),
                _ => {}
            }
        }
        let (fn_ty, fn_at) = fn_ty.expect("grammar requires a function type");
        let TypeKind::Function { inputs, results } = self.ctx.type_kind(fn_ty).clone() else {
            unreachable!("function_type lowers to a function type")
        };
        if inputs.len() != uses.len() {
            return Err(Diagnostic::error(format!(
                "expected {} operand type{} but had {}",
                uses.len(),
                if uses.len() == 1 { "" } else { "s" },
                inputs.len()
            ))
            .at_span(self.file, fn_at, fn_at + 1));
        }
        let mut operands = smallvec::SmallVec::<[Value; 2]>::new();
        for ((n, idx, at), ty) in uses.iter().zip(inputs.iter()) {
            operands.push(self.resolve(n, *idx, *ty, *at)?);
        }
        let successors = succ_names
            .iter()
            .map(|(n, at)| self.block_ref(n, *at))
            .collect();
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
        let mut st = OpState::new(name_id, loc.unwrap_or_else(|| self.loc_at(start)));
        st.operands = operands;
        st.result_types = results.iter().copied().collect();
        st.attrs = attrs;
        st.props = props;
        st.successors = successors;
        st.regions = regions;
        Ok(self.ctx.create_op(st))
    }

    fn parse_region(&mut self, isolated: bool, depth: usize) -> R<Region> {
        self.expect("{")?;
        let region = self.ctx.create_region();
        self.regions.push(RegionScope::default());
        if isolated {
            self.isolated.push(IsolatedScope::default());
        }
        let mut current: Option<Block> = None;
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
                    let op = self.parse_op(depth)?;
                    self.ctx.append_op(b, op);
                }
            }
        }
        self.finish_region_scope()?;
        if isolated {
            self.finish_isolated_scope()?;
        }
        Ok(region)
    }

    fn parse_block_label(&mut self) -> R<Block> {
        let start = self.pos;
        let p = self.rule(Rule::block_label)?;
        let mut it = p.into_inner();
        let name = it.next().expect("block name").as_str().to_string();
        let block = self.block_ref(&name, start);
        let scope = self.regions.last_mut().expect("inside a region");
        let entry = scope
            .blocks
            .get_mut(&name)
            .expect("block_ref registered it");
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
        for arg in it {
            let at = start + arg.as_span().start();
            let mut parts = arg.into_inner();
            let vname = parts.next().expect("arg name").as_str().to_string();
            let tp = parts.next().expect("arg type");
            let mut low = Lowerer::new(self.ctx.uniquer(), &self.aliases, self.file, start);
            let ty = low.ty(tp)?;
            let loc = parts.next().map(|l| low.loc(l)).transpose()?;
            let loc = Some(loc.unwrap_or_else(|| self.loc_at(at)));
            let v = self.ctx.add_block_arg(block, ty, loc);
            self.define(&vname, vec![v], at)?;
        }
        Ok(block)
    }

    fn block_ref(&mut self, name: &str, at: usize) -> Block {
        if let Some(e) = self.regions.last().and_then(|s| s.blocks.get(name)) {
            return e.0;
        }
        let b = self.ctx.create_block(&[]);
        self.regions
            .last_mut()
            .expect("inside a region")
            .blocks
            .insert(name.to_string(), (b, false, at));
        b
    }

    fn define(&mut self, name: &str, values: Vec<Value>, at: usize) -> R<()> {
        let scope = self.isolated.last_mut().expect("scope");
        if let Some(entry) = scope.names.get_mut(name) {
            if entry.defined {
                return Err(
                    Diagnostic::error(format!("redefinition of SSA value '{name}'")).at_span(
                        self.file,
                        at,
                        at + name.len(),
                    ),
                );
            }
            // Replace forward-reference placeholders.
            let old = std::mem::take(&mut entry.values);
            entry.values = values.clone();
            entry.defined = true;
            for (i, ph) in old.into_iter().enumerate() {
                let Some(&real) = values.get(i) else {
                    return Err(Diagnostic::error(format!(
                        "use of undefined result #{i} of '{name}'"
                    ))
                    .at_span(self.file, at, at + name.len()));
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
                        crate::diagnostics::Where::Nowhere,
                    ));
                }
                self.ctx.replace_all_uses(ph, real);
            }
        } else {
            scope.names.insert(
                name.to_string(),
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
            .push(name.to_string());
        Ok(())
    }

    fn resolve(&mut self, name: &str, idx: usize, ty: Type, at: usize) -> R<Value> {
        let entry = self
            .isolated
            .last_mut()
            .expect("scope")
            .names
            .entry(name.to_string())
            .or_insert(NameEntry {
                values: Vec::new(),
                defined: false,
                first_use: at,
            });
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
            .at_span(self.file, at, at + name.len()));
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
        let mut undefined: Vec<(&String, &NameEntry)> =
            scope.names.iter().filter(|(_, e)| !e.defined).collect();
        undefined.sort_by_key(|(_, e)| e.first_use);
        if let Some((name, e)) = undefined.first() {
            return Err(
                Diagnostic::error(format!("use of undeclared SSA value name '{name}'")).at_span(
                    self.file,
                    e.first_use,
                    e.first_use + name.len(),
                ),
            );
        }
        Ok(())
    }
}
