//! MLIR's textual syntax: the pest grammar and the lowering of its parse trees
//! to interned types, attributes and locations.
//!
//! The grammar is asked for one piece at a time (a type, an attribute, a
//! location); the op/region driver that sits on top calls these entry points at
//! its current position.

use crate::affine::{parse_affine_map, parse_integer_set};
use crate::attributes::{Attr, AttrKind, DenseData, LocKind};
use crate::diagnostics::Diagnostic;
use crate::float::{FloatKind, from_hex_bits, parse_decimal};
use crate::ir::Uniquer;
use crate::printer::scalar_bytes;
use crate::types::{DYNAMIC, Signedness, Type, TypeKind};
use pest::Parser as _;
use pest::iterators::Pair;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// The pest grammar of MLIR's syntax (`syntax/mlir.pest`).
#[derive(pest_derive::Parser)]
#[grammar = "syntax/mlir.pest"]
pub struct MlirGrammar;

pub mod parser;
pub use parser::parse_module;

/// Deepest nesting of types and attributes accepted; deeper input gets a diagnostic
/// instead of exhausting the stack.
pub const MAX_NESTING: usize = 512;

/// Stack size for threads that parse: pest's recursive descent uses large frames
/// (especially in debug builds), and input may nest up to [`MAX_NESTING`] deep.
pub const PARSER_STACK: usize = 512 << 20;

/// Run `f` on a thread with [`PARSER_STACK`] bytes of stack (virtual memory, only
/// touched pages are committed), so deeply nested input cannot overflow the stack.
pub fn with_parser_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, f)
            .expect("spawn parser thread")
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// Most types and attributes that uses of aliases may add to one input, beyond
/// [`ALIAS_EXPANSION_PER_BYTE`] per byte of it. Aliases share structure, so a few
/// lines (`#a1 = [#a0, #a0]`, `#a2 = [#a1, #a1]`, ...) can name an attribute that
/// has more elements than memory can hold once printed or walked in full; the
/// budget keeps what a parsed input holds linear in its size.
pub const ALIAS_EXPANSION_LIMIT: u64 = 1 << 22;

/// Types and attributes that alias uses may add per byte of input on top of
/// [`ALIAS_EXPANSION_LIMIT`], so that large inputs may use small aliases freely.
pub const ALIAS_EXPANSION_PER_BYTE: u64 = 16;

/// Alias definitions (`#name = ...`, `!name = ...`) visible while parsing.
#[derive(Default, Clone, Debug)]
pub struct Aliases {
    /// Attribute aliases by name (without `#`).
    pub attrs: HashMap<String, Attr>,
    /// Type aliases by name (without `!`).
    pub types: HashMap<String, Type>,
    /// What the uses of aliases have expanded to so far.
    ledger: ExpansionLedger,
}

/// Size and nesting of an attribute or type with every alias expanded.
#[derive(Clone, Copy, Debug)]
struct Extent {
    /// Types and attributes in the expanded tree (saturating).
    size: u64,
    /// Bracket nesting of its printed form (`[[1]]`: 2), as [`MAX_NESTING`] counts.
    depth: u32,
}

/// Extents of interned types and attributes (memoised: shared structure is measured
/// once) and the expansion that alias uses have added to the input.
#[derive(Default, Clone, Debug)]
struct ExpansionLedger {
    attrs: RefCell<HashMap<Attr, Extent>>,
    types: RefCell<HashMap<Type, Extent>>,
    /// Elements added by alias uses so far.
    spent: Cell<u64>,
    /// Allowance beyond [`ALIAS_EXPANSION_LIMIT`] (from the input's size).
    extra: Cell<u64>,
}

/// Why a use of an alias is refused.
enum Overdraft {
    /// The alias alone expands beyond the budget.
    Large(u64),
    /// The alias brings the input's expansion beyond the budget.
    Total(u64),
}

impl ExpansionLedger {
    fn limit(&self) -> u64 {
        ALIAS_EXPANSION_LIMIT.saturating_add(self.extra.get())
    }

    /// The extent of a value whose children print inside brackets (`bracketed`:
    /// `[a, b]`, `tuple<a>`) or beside it (`1 : i32`).
    fn combine(bracketed: bool, children: impl Iterator<Item = Extent>) -> Extent {
        let step = u32::from(bracketed);
        children.fold(Extent { size: 1, depth: 0 }, |acc, c| Extent {
            size: acc.size.saturating_add(c.size),
            depth: acc.depth.max(c.depth.saturating_add(step)),
        })
    }

    fn attr(&self, u: &Uniquer, a: Attr) -> Extent {
        if let Some(e) = self.attrs.borrow().get(&a) {
            return *e;
        }
        // Children not measured yet were written out in the input, so this recursion
        // is as deep as the input's bracket nesting at most.
        let t = |t: &Type| Child::T(*t);
        let at = |a: &Attr| Child::A(*a);
        let (bracketed, children): (bool, Vec<Child>) = match u.attr_kind(a) {
            AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => (false, vec![t(ty)]),
            AttrKind::String { ty, .. } => (false, ty.iter().map(t).collect()),
            AttrKind::Array(xs) => (true, xs.iter().map(at).collect()),
            AttrKind::Dict(es) => (true, es.iter().map(|(_, v)| at(v)).collect()),
            AttrKind::Type(ty)
            | AttrKind::DenseElements { ty, .. }
            | AttrKind::DenseResource { ty, .. } => (false, vec![t(ty)]),
            AttrKind::DenseArray { elem, .. } => (true, vec![t(elem)]),
            AttrKind::Location(l) => match l {
                LocKind::Name { child, .. } => (true, child.iter().map(at).collect()),
                LocKind::CallSite { callee, caller } => (true, vec![at(callee), at(caller)]),
                LocKind::Fused { metadata, locs } => {
                    (true, metadata.iter().chain(locs.iter()).map(at).collect())
                }
                LocKind::Unknown | LocKind::FileLineCol { .. } => (false, Vec::new()),
            },
            AttrKind::Unit
            | AttrKind::Bool(_)
            | AttrKind::SymbolRef { .. }
            | AttrKind::AffineMap(_)
            | AttrKind::IntegerSet(_)
            | AttrKind::Strided { .. }
            | AttrKind::Dialect(_)
            | AttrKind::Opaque(_) => (false, Vec::new()),
        };
        let e = Self::combine(bracketed, children.into_iter().map(|c| self.child(u, c)));
        self.attrs.borrow_mut().insert(a, e);
        e
    }

    fn ty(&self, u: &Uniquer, t: Type) -> Extent {
        if let Some(e) = self.types.borrow().get(&t) {
            return *e;
        }
        let ty = |t: &Type| Child::T(*t);
        let at = |a: &Attr| Child::A(*a);
        let children: Vec<Child> = match u.type_kind(t) {
            TypeKind::Complex(e) | TypeKind::UnrankedTensor(e) => vec![ty(e)],
            TypeKind::Tensor { elem, encoding, .. } => std::iter::once(ty(elem))
                .chain(encoding.iter().map(at))
                .collect(),
            TypeKind::MemRef {
                elem,
                layout,
                memory_space,
                ..
            } => std::iter::once(ty(elem))
                .chain(layout.iter().chain(memory_space.iter()).map(at))
                .collect(),
            TypeKind::UnrankedMemRef { elem, memory_space } => std::iter::once(ty(elem))
                .chain(memory_space.iter().map(at))
                .collect(),
            TypeKind::Vector { elem, .. } => vec![ty(elem)],
            TypeKind::Tuple(ts) => ts.iter().map(ty).collect(),
            TypeKind::Function { inputs, results } => {
                inputs.iter().chain(results.iter()).map(ty).collect()
            }
            TypeKind::Integer { .. }
            | TypeKind::Index
            | TypeKind::Float(_)
            | TypeKind::None
            | TypeKind::Dialect(_)
            | TypeKind::Opaque(_) => Vec::new(),
        };
        // Every type with children prints them in brackets (`tuple<...>`, `(...) -> ...`).
        let e = Self::combine(true, children.into_iter().map(|c| self.child(u, c)));
        self.types.borrow_mut().insert(t, e);
        e
    }

    fn child(&self, u: &Uniquer, c: Child) -> Extent {
        match c {
            Child::A(a) => self.attr(u, a),
            Child::T(t) => self.ty(u, t),
        }
    }

    /// Record a use of an alias that expands to `e`.
    fn spend(&self, e: Extent) -> Result<(), Overdraft> {
        let limit = self.limit();
        if e.size > limit {
            return Err(Overdraft::Large(limit));
        }
        let spent = self.spent.get().saturating_add(e.size);
        if spent > limit {
            return Err(Overdraft::Total(limit));
        }
        self.spent.set(spent);
        Ok(())
    }
}

/// A type or attribute inside another.
#[derive(Clone, Copy)]
enum Child {
    A(Attr),
    T(Type),
}

impl Aliases {
    /// No aliases yet, for an input of `len` bytes: alias uses may add
    /// [`ALIAS_EXPANSION_PER_BYTE`] elements per byte on top of [`ALIAS_EXPANSION_LIMIT`].
    pub fn for_input(len: usize) -> Self {
        let a = Aliases::default();
        a.ledger
            .extra
            .set((len as u64).saturating_mul(ALIAS_EXPANSION_PER_BYTE));
        a
    }

    /// Elements that alias uses have added so far (see [`ALIAS_EXPANSION_LIMIT`]).
    pub fn expansion(&self) -> u64 {
        self.ledger.spent.get()
    }

    /// Record that the input repeats uses of aliases that added `n` elements when
    /// first read (a spelling read again from a cache): the error, if that goes
    /// beyond the budget, has no alias to name.
    pub fn spend_again(&self, n: u64) -> Result<(), String> {
        self.ledger.spend(Extent { size: n, depth: 1 }).map_err(
            |(Overdraft::Large(limit) | Overdraft::Total(limit))| {
                format!("the aliases used so far expand to more than {limit} elements")
            },
        )
    }

    /// An error when `a`, read with aliases in it, nests deeper than [`MAX_NESTING`]
    /// once they are expanded (as it would print).
    fn check_attr_nesting(&self, u: &Uniquer, a: Attr) -> Result<(), String> {
        nesting_message(self.ledger.attr(u, a))
    }

    /// [`Aliases::check_attr_nesting`] for a type.
    fn check_type_nesting(&self, u: &Uniquer, t: Type) -> Result<(), String> {
        nesting_message(self.ledger.ty(u, t))
    }

    /// Record a use of the attribute alias `#name` (value `a`); an error when its
    /// expansion nests too deep or goes beyond the input's budget.
    pub fn spend_attr(&self, u: &Uniquer, name: &str, a: Attr) -> Result<(), String> {
        let e = self.ledger.attr(u, a);
        self.ledger
            .spend(e)
            .map_err(|o| overdraft_message("attribute", '#', name, o))
    }

    /// [`Aliases::spend_attr`] for the type alias `!name` (value `t`).
    pub fn spend_type(&self, u: &Uniquer, name: &str, t: Type) -> Result<(), String> {
        let e = self.ledger.ty(u, t);
        self.ledger
            .spend(e)
            .map_err(|o| overdraft_message("type", '!', name, o))
    }
}

fn nesting_message(e: Extent) -> Result<(), String> {
    if e.depth as usize > MAX_NESTING {
        return Err(format!(
            "nesting deeper than {MAX_NESTING} levels once aliases are expanded"
        ));
    }
    Ok(())
}

fn overdraft_message(what: &str, sigil: char, name: &str, o: Overdraft) -> String {
    match o {
        Overdraft::Large(limit) => {
            format!("{what} alias '{sigil}{name}' expands to more than {limit} elements")
        }
        Overdraft::Total(limit) => format!(
            "{what} alias '{sigil}{name}' makes the aliases used so far expand to more than {limit} elements"
        ),
    }
}

/// What a grammar rule is called in "expected ..." messages.
fn describe(r: Rule) -> &'static str {
    match r {
        // MLIR's word: where a type fails to start, a function type would have
        // started with '(' and been read as such.
        Rule::type_ | Rule::non_fn_type => "non-function type",
        Rule::attribute => "attribute",
        Rule::location | Rule::loc_inner => "location",
        Rule::value_use | Rule::value_id => "SSA value",
        Rule::caret_id => "block name",
        Rule::string => "string literal",
        Rule::int_lit | Rule::dec_int => "integer literal",
        Rule::float_lit => "float literal",
        Rule::bare_id => "identifier",
        Rule::dims => "dimension list",
        Rule::dialect_body => "'<'",
        Rule::dense_literal | Rule::tensor_lit => "dense elements literal",
        Rule::scalar_lit => "scalar literal",
        Rule::function_type => "function type",
        Rule::dict_attr => "attribute dictionary",
        _ => "token",
    }
}

/// Run one grammar rule at the start of `text`; `base` is `text`'s offset in its file
/// so that spans point into the file.
pub fn parse_rule(
    rule: Rule,
    text: &str,
    file: usize,
    base: usize,
) -> Result<Pair<'_, Rule>, Diagnostic> {
    if let Some(at) = too_deep(text) {
        return Err(
            Diagnostic::error(format!("nesting deeper than {MAX_NESTING} levels")).at_span(
                file,
                base + at,
                base + at + 1,
            ),
        );
    }
    match MlirGrammar::parse(rule, text) {
        Ok(mut pairs) => Ok(pairs.next().expect("a successful parse yields its rule")),
        Err(e) => {
            let pos = match e.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((s, _)) => s,
            };
            let msg = match &e.variant {
                pest::error::ErrorVariant::ParsingError { positives, .. } => {
                    let mut names: Vec<&str> = positives.iter().map(|r| describe(*r)).collect();
                    names.sort_unstable();
                    names.dedup();
                    // "token" stands for rules without a user-facing name; drop it when a named one is there.
                    if names.len() > 1 {
                        names.retain(|n| *n != "token");
                    }
                    if names.is_empty() {
                        format!("expected {}", describe(rule))
                    } else {
                        format!("expected {}", names.join(" or "))
                    }
                }
                pest::error::ErrorVariant::CustomError { message } => message.clone(),
            };
            Err(Diagnostic::error(msg).at_span(file, base + pos, base + pos + 1))
        }
    }
}

/// Offset where bracket nesting first exceeds [`MAX_NESTING`], scanning the line that
/// starts `text` (up to a bracket that closes an outer one). Stopping at the line end
/// keeps the cost proportional to the piece rather than to the nested regions that
/// follow an op header; multi-line literals are still bounded by the lowering's own
/// depth limit and the parser thread's large stack.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'(' | b'{' | b'<' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
            }
            b']' | b')' | b'}' | b'>' => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
            }
            b'\n' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Turns parse trees into interned values, reporting problems with spans.
pub struct Lowerer<'a> {
    /// Where values are interned.
    pub u: &'a Uniquer,
    /// Aliases in scope.
    pub aliases: &'a Aliases,
    /// File id for spans.
    pub file: usize,
    /// Offset of the parsed text in its file.
    pub base: usize,
    /// Type for a top-level integer or float literal written without `: type`.
    pub type_hint: Option<Type>,
    /// The dialects whose types and attributes are read as values; without it
    /// every dialect type and attribute stays opaque text.
    pub registry: Option<&'a crate::dialect::DialectRegistry>,
    depth: usize,
}

type R<T> = Result<T, Diagnostic>;

impl<'a> Lowerer<'a> {
    /// A lowerer for text starting at `base` in `file`.
    pub fn new(u: &'a Uniquer, aliases: &'a Aliases, file: usize, base: usize) -> Self {
        Lowerer {
            u,
            aliases,
            file,
            base,
            type_hint: None,
            registry: None,
            depth: 0,
        }
    }

    /// Read dialect types and attributes through `registry`'s parsers.
    pub fn with_registry(mut self, registry: &'a crate::dialect::DialectRegistry) -> Self {
        self.registry = Some(registry);
        self
    }

    fn err(&self, p: &Pair<'_, Rule>, msg: impl Into<String>) -> Diagnostic {
        let s = p.as_span();
        Diagnostic::error(msg).at_span(self.file, self.base + s.start(), self.base + s.end())
    }

    fn enter(&mut self, p: &Pair<'_, Rule>) -> R<()> {
        // Each textual level passes through a few rules, hence the factor; the text scan
        // in `parse_rule` is the limit users see, this one guards hand-built trees.
        self.depth += 1;
        if self.depth > 4 * MAX_NESTING {
            // Point at where the too-deep level starts; its whole span is the rest of the nest.
            let at = self.base + p.as_span().start();
            return Err(
                Diagnostic::error(format!("nesting deeper than {MAX_NESTING} levels")).at_span(
                    self.file,
                    at,
                    at + 1,
                ),
            );
        }
        Ok(())
    }

    /// Lower a `type_` (or any type rule) pair.
    pub fn ty(&mut self, p: Pair<'_, Rule>) -> R<Type> {
        let (top, before) = (self.depth == 0, self.aliases.expansion());
        let span = p.clone();
        self.enter(&p)?;
        let r = self.ty_inner(p);
        self.depth -= 1;
        let t = r?;
        // See `attr`.
        if top && self.aliases.expansion() != before {
            self.aliases
                .check_type_nesting(self.u, t)
                .map_err(|m| self.err(&span, m))?;
        }
        Ok(t)
    }

    fn ty_inner(&mut self, p: Pair<'_, Rule>) -> R<Type> {
        let u = self.u;
        match p.as_rule() {
            Rule::type_ => {
                let inner = p.into_inner().next().expect("type has one child");
                self.ty(inner)
            }
            Rule::integer_type => {
                let t = p.as_str();
                let (sign, digits) = if let Some(d) = t.strip_prefix("si") {
                    (Signedness::Signed, d)
                } else if let Some(d) = t.strip_prefix("ui") {
                    (Signedness::Unsigned, d)
                } else {
                    (Signedness::Signless, &t[1..])
                };
                match digits.parse::<u32>() {
                    Ok(w) if w <= 16_777_215 => Ok(u.ty(TypeKind::Integer {
                        width: w,
                        signedness: sign,
                    })),
                    _ => Err(self.err(&p, "integer bitwidth is limited to 16777215 bits")),
                }
            }
            Rule::float_type => Ok(u.ty(TypeKind::Float(
                FloatKind::from_keyword(p.as_str()).expect("grammar keyword"),
            ))),
            Rule::index_type => Ok(u.ty(TypeKind::Index)),
            Rule::none_type => Ok(u.ty(TypeKind::None)),
            Rule::complex_type => {
                let e = self.ty(p.into_inner().next().expect("complex element"))?;
                Ok(u.ty(TypeKind::Complex(e)))
            }
            Rule::tuple_type => {
                let ts = p.into_inner().map(|x| self.ty(x)).collect::<R<_>>()?;
                Ok(u.ty(TypeKind::Tuple(ts)))
            }
            Rule::function_type => {
                let mut it = p.into_inner();
                let ins = it
                    .next()
                    .expect("inputs")
                    .into_inner()
                    .map(|x| self.ty(x))
                    .collect::<R<_>>()?;
                let out = it.next().expect("results");
                let results = if out.as_rule() == Rule::type_list_parens {
                    out.into_inner().map(|x| self.ty(x)).collect::<R<_>>()?
                } else {
                    [self.ty(out)?].into_iter().collect()
                };
                Ok(u.ty(TypeKind::Function {
                    inputs: ins,
                    results,
                }))
            }
            Rule::tensor_type | Rule::memref_type | Rule::vector_type => self.shaped(p),
            Rule::dialect_type => {
                let reg = self.registry;
                self.alias_or_opaque(
                    &p,
                    &self.aliases.types,
                    |t| match reg.map(|r| r.parse_dialect_type(u, t)).transpose()? {
                        Some(Some(v)) => Ok(v),
                        _ => Ok(u.ty(TypeKind::Opaque(t.into()))),
                    },
                    |name, t| self.aliases.spend_type(u, name, t),
                )
            }
            r => Err(self.err(&p, format!("expected type, found {r:?}"))),
        }
    }

    /// `!name` / `#name` without a dot or body refers to an alias; anything else is a
    /// dialect type or attribute, read by its dialect's registered parser or kept
    /// verbatim; a parser's error is reported at the type or attribute.
    fn alias_or_opaque<T: Copy>(
        &self,
        p: &Pair<'_, Rule>,
        aliases: &HashMap<String, T>,
        dialect: impl FnOnce(&str) -> Result<T, String>,
        spend: impl FnOnce(&str, T) -> Result<(), String>,
    ) -> R<T> {
        let text = &p.as_str()[1..];
        if text.contains(['.', '<']) {
            return dialect(text).map_err(|m| self.err(p, m));
        }
        let v = aliases
            .get(text)
            .copied()
            .ok_or_else(|| self.err(p, format!("undefined symbol alias id '{text}'")))?;
        spend(text, v).map_err(|m| self.err(p, m))?;
        Ok(v)
    }

    fn shaped(&mut self, p: Pair<'_, Rule>) -> R<Type> {
        let u = self.u;
        let kind = p.as_rule();
        let mut it = p.clone().into_inner().peekable();
        let first = it.next().expect("shaped type body");
        if first.as_rule() == Rule::unranked {
            let elem = self.ty(it.next().expect("element type"))?;
            let extra = it.next().map(|a| self.attr(a)).transpose()?;
            return Ok(match kind {
                Rule::tensor_type => u.ty(TypeKind::UnrankedTensor(elem)),
                _ => u.ty(TypeKind::UnrankedMemRef {
                    elem,
                    memory_space: extra,
                }),
            });
        }
        let mut shape = smallvec::SmallVec::<[i64; 4]>::new();
        let mut scalable = smallvec::SmallVec::<[bool; 4]>::new();
        for d in first.into_inner() {
            let (text, sc) = match d.as_rule() {
                Rule::scalable_dim => (
                    d.into_inner().next().expect("dim").as_str().to_string(),
                    true,
                ),
                _ => (d.as_str().to_string(), false),
            };
            if sc && kind != Rule::vector_type {
                return Err(self.err(&p, "scalable dimensions are only allowed in vector types"));
            }
            let v = if text == "?" {
                if kind == Rule::vector_type {
                    return Err(self.err(&p, "vector types must have static shape"));
                }
                DYNAMIC
            } else {
                text.parse::<i64>()
                    .map_err(|_| self.err(&p, "dimension size too large"))?
            };
            shape.push(v);
            scalable.push(sc);
        }
        let elem = self.ty(it.next().expect("element type"))?;
        let rest = it.map(|a| self.attr(a)).collect::<R<Vec<_>>>()?;
        Ok(match kind {
            Rule::tensor_type => u.ty(TypeKind::Tensor {
                shape,
                elem,
                encoding: rest.first().copied(),
            }),
            Rule::vector_type => u.ty(TypeKind::Vector {
                shape,
                scalable,
                elem,
            }),
            _ => {
                if rest.len() > 2 {
                    return Err(self.err(&p, "memref takes at most a layout and a memory space"));
                }
                // A single trailing attribute is a layout if it is one, else a memory space.
                let is_layout = |a: &Attr| {
                    matches!(
                        u.attr_kind(*a),
                        AttrKind::AffineMap(_) | AttrKind::Strided { .. }
                    )
                };
                let (layout, memory_space) = match rest.as_slice() {
                    [] => (None, None),
                    [a] if is_layout(a) => (Some(*a), None),
                    [a] => (None, Some(*a)),
                    [a, b] => (Some(*a), Some(*b)),
                    _ => unreachable!(),
                };
                u.ty(TypeKind::MemRef {
                    shape,
                    elem,
                    layout,
                    memory_space,
                })
            }
        })
    }

    /// Lower an `attribute` (or any attribute rule) pair.
    pub fn attr(&mut self, p: Pair<'_, Rule>) -> R<Attr> {
        let (top, before) = (self.depth == 0, self.aliases.expansion());
        let span = p.clone();
        self.enter(&p)?;
        let r = self.attr_inner(p);
        self.depth -= 1;
        let a = r?;
        // The text's own nesting is bounded as it is read; aliases can nest deeper.
        if top && self.aliases.expansion() != before {
            self.aliases
                .check_attr_nesting(self.u, a)
                .map_err(|m| self.err(&span, m))?;
        }
        Ok(a)
    }

    fn opt_type(&mut self, p: Option<Pair<'_, Rule>>) -> R<Option<Type>> {
        match p.and_then(|x| x.into_inner().next()) {
            Some(t) => Ok(Some(self.ty(t)?)),
            None => Ok(None),
        }
    }

    fn attr_inner(&mut self, p: Pair<'_, Rule>) -> R<Attr> {
        let u = self.u;
        match p.as_rule() {
            Rule::attribute => {
                let inner = p.into_inner().next().expect("attribute has one child");
                self.attr(inner)
            }
            Rule::unit_attr => Ok(u.attr(AttrKind::Unit)),
            // MLIR's BoolAttr is an i1 IntegerAttr, so `true` and `1 : i1` are one attribute.
            Rule::bool_attr => Ok(u.attr(AttrKind::Integer {
                value: i128::from(p.as_str() == "true"),
                ty: u.int_type(1),
            })),
            Rule::int_attr => {
                let mut it = p.clone().into_inner();
                let lit = it.next().expect("literal");
                let hint = self.type_hint.take();
                let ty = self
                    .opt_type(it.next())?
                    .or(hint)
                    .unwrap_or_else(|| u.int_type(64));
                if let TypeKind::Float(k) = u.type_kind(ty) {
                    let text = lit.as_str();
                    return match text.strip_prefix("0x") {
                        Some(hex) => from_hex_bits(*k, hex)
                            .map(|bits| u.attr(AttrKind::Float { bits, ty }))
                            .ok_or_else(|| {
                                self.err(&lit, "hexadecimal float constant out of range for type")
                            }),
                        None => Err(self
                            .err(
                                &lit,
                                "unexpected decimal integer literal for a floating point value",
                            )
                            .with_hint("add a trailing dot to make the literal a float")),
                    };
                }
                let value = self.int_value(&lit, ty)?;
                Ok(u.attr(AttrKind::Integer { value, ty }))
            }
            Rule::float_attr => {
                let mut it = p.into_inner();
                let lit = it.next().expect("literal");
                let hint = self.type_hint.take();
                let ty = self
                    .opt_type(it.next())?
                    .or(hint)
                    .unwrap_or_else(|| u.ty(TypeKind::Float(FloatKind::F64)));
                let TypeKind::Float(k) = u.type_kind(ty) else {
                    return Err(self.err(&lit, "floating point value not valid for specified type"));
                };
                let bits = parse_decimal(*k, lit.as_str())
                    .ok_or_else(|| self.err(&lit, "invalid float literal"))?;
                Ok(u.attr(AttrKind::Float { bits, ty }))
            }
            Rule::string_attr => {
                let mut it = p.into_inner();
                let s = it.next().expect("string");
                let value = self.string_bytes(&s)?;
                let ty = self.opt_type(it.next())?;
                Ok(u.attr(AttrKind::String {
                    value: value.into(),
                    ty,
                }))
            }
            Rule::array_attr => {
                let xs = p.into_inner().map(|x| self.attr(x)).collect::<R<_>>()?;
                Ok(u.attr(AttrKind::Array(xs)))
            }
            Rule::dict_attr => {
                let mut entries = Vec::new();
                for e in p.into_inner() {
                    let mut it = e.clone().into_inner();
                    let k = it.next().expect("key");
                    let key = if k.as_rule() == Rule::string {
                        String::from_utf8_lossy(&self.string_bytes(&k)?).into_owned()
                    } else {
                        k.as_str().to_string()
                    };
                    let v = match it.next() {
                        Some(v) => self.attr(v)?,
                        None => u.attr(AttrKind::Unit),
                    };
                    let id = u.ident(&key);
                    if entries.iter().any(|(k2, _)| *k2 == id) {
                        return Err(
                            self.err(&e, format!("duplicate key '{key}' in dictionary attribute"))
                        );
                    }
                    entries.push((id, v));
                }
                Ok(u.dict_attr(entries))
            }
            Rule::symbol_ref => {
                let mut parts = Vec::new();
                for part in p.into_inner() {
                    let inner = part.into_inner().next().expect("symbol name");
                    let name = if inner.as_rule() == Rule::string {
                        String::from_utf8_lossy(&self.string_bytes(&inner)?).into_owned()
                    } else {
                        inner.as_str().to_string()
                    };
                    parts.push(u.ident(&name));
                }
                Ok(u.attr(AttrKind::SymbolRef {
                    root: parts[0],
                    nested: parts[1..].into(),
                }))
            }
            Rule::type_ => {
                let t = self.ty(p)?;
                Ok(u.attr(AttrKind::Type(t)))
            }
            Rule::affine_map_attr | Rule::affine_set_attr => {
                let body = p.clone().into_inner().next().expect("body");
                let text = &body.as_str()[1..body.as_str().len() - 1];
                let start = self.base + body.as_span().start() + 1;
                let to_diag = |e: crate::affine::AffineError| {
                    Diagnostic::error(e.message).at_span(
                        self.file,
                        start + e.offset,
                        start + e.offset + 1,
                    )
                };
                if p.as_rule() == Rule::affine_map_attr {
                    Ok(u.attr(AttrKind::AffineMap(
                        parse_affine_map(text).map_err(to_diag)?,
                    )))
                } else {
                    Ok(u.attr(AttrKind::IntegerSet(
                        parse_integer_set(text).map_err(to_diag)?,
                    )))
                }
            }
            Rule::strided_attr => {
                let dims: Vec<Pair<'_, Rule>> = p.clone().into_inner().collect();
                let has_offset = p.as_str().contains("offset");
                let val = |d: &Pair<'_, Rule>| -> R<i64> {
                    if d.as_str() == "?" {
                        Ok(DYNAMIC)
                    } else {
                        d.as_str()
                            .parse()
                            .map_err(|_| self.err(d, "stride too large"))
                    }
                };
                let (strides, offset) = if has_offset {
                    (&dims[..dims.len() - 1], val(dims.last().expect("offset"))?)
                } else {
                    (&dims[..], 0)
                };
                let strides = strides.iter().map(val).collect::<R<_>>()?;
                Ok(u.attr(AttrKind::Strided { offset, strides }))
            }
            Rule::dense_resource_attr => {
                let mut it = p.into_inner();
                let handle = u.ident(it.next().expect("handle").as_str());
                let ty = self.ty(it.next().expect("type"))?;
                Ok(u.attr(AttrKind::DenseResource { handle, ty }))
            }
            Rule::dense_array_attr => self.dense_array(p),
            Rule::dense_attr => self.dense(p),
            Rule::location => {
                // A location used as an attribute value prints by alias even
                // without debug info, as in MLIR.
                self.u.note_aliased_attr();
                self.loc(p)
            }
            Rule::dialect_attr => {
                let reg = self.registry;
                self.alias_or_opaque(
                    &p,
                    &self.aliases.attrs,
                    |t| match reg.map(|r| r.parse_dialect_attr(u, t)).transpose()? {
                        Some(Some(v)) => Ok(v),
                        _ => Ok(u.attr(AttrKind::Opaque(t.into()))),
                    },
                    |name, a| self.aliases.spend_attr(u, name, a),
                )
            }
            r => Err(self.err(&p, format!("expected attribute, found {r:?}"))),
        }
    }

    /// Decode a string literal's escapes (`\n \t \" \\ \XX`).
    pub fn string_bytes(&self, p: &Pair<'_, Rule>) -> R<Vec<u8>> {
        let s = p.as_str();
        let body = &s.as_bytes()[1..s.len() - 1];
        let mut out = Vec::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            if body[i] != b'\\' {
                out.push(body[i]);
                i += 1;
                continue;
            }
            let next = body.get(i + 1).copied();
            match next {
                Some(b'n') => out.push(b'\n'),
                Some(b't') => out.push(b'\t'),
                Some(b'"') => out.push(b'"'),
                Some(b'\\') => out.push(b'\\'),
                Some(h)
                    if h.is_ascii_hexdigit()
                        && body.get(i + 2).is_some_and(u8::is_ascii_hexdigit) =>
                {
                    let hex = std::str::from_utf8(&body[i + 1..i + 3]).expect("ascii");
                    out.push(u8::from_str_radix(hex, 16).expect("hex digits"));
                    i += 1;
                }
                _ => return Err(self.err(p, "unknown escape in string literal")),
            }
            i += 2;
        }
        Ok(out)
    }

    /// Parse an integer literal for `ty`, checking that it fits.
    fn int_value(&self, lit: &Pair<'_, Rule>, ty: Type) -> R<i128> {
        let text = lit.as_str();
        let (neg, mag) = match text.strip_prefix('-') {
            Some(m) => (true, m),
            None => (false, text),
        };
        let parsed = match mag.strip_prefix("0x") {
            Some(h) => u128::from_str_radix(h, 16),
            None => mag.parse::<u128>(),
        };
        let too_large = || self.err(lit, "integer constant out of range for attribute");
        let mag = parsed.map_err(|_| too_large())?;
        let (width, signedness) = match self.u.type_kind(ty) {
            TypeKind::Integer { width, signedness } => (*width, *signedness),
            TypeKind::Index => (64, Signedness::Signless),
            _ => return Err(self.err(lit, "integer literal not valid for specified type")),
        };
        if neg && signedness == Signedness::Unsigned {
            return Err(self.err(
                lit,
                "negative integer literal not valid for unsigned integer type",
            ));
        }
        if width > 128 {
            return match (neg, i128::try_from(mag)) {
                (false, Ok(v)) => Ok(v),
                (true, Ok(v)) => Ok(-v),
                (true, Err(_)) if mag == 1u128 << 127 => Ok(i128::MIN),
                _ => {
                    Err(too_large().with_hint("aic stores integer attributes in at most 128 bits"))
                }
            };
        }
        // Signless values may be written signed or unsigned (-1 and 255 are both i8).
        let fits = if neg {
            width > 0 && mag <= 1u128 << (width - 1)
        } else {
            width == 128 || mag < 1u128 << width
        };
        if !fits {
            return Err(too_large());
        }
        let raw = if neg {
            (mag as i128).wrapping_neg()
        } else {
            mag as i128
        };
        Ok(normalize_int(raw, width, signedness))
    }

    fn scalar_bits(&self, lit: &Pair<'_, Rule>, elem: Type) -> R<Vec<u8>> {
        let u = self.u;
        let nbytes = scalar_bytes(u, elem);
        let inner = if lit.as_rule() == Rule::scalar_lit {
            lit.clone().into_inner().next().expect("scalar")
        } else {
            lit.clone()
        };
        let bits: u128 = match (u.type_kind(elem), inner.as_rule()) {
            (TypeKind::Integer { width: 1, .. }, Rule::bool_attr) => {
                u128::from(inner.as_str() == "true")
            }
            (TypeKind::Integer { .. } | TypeKind::Index, Rule::int_lit) => {
                self.int_value(&inner, elem)? as u128
            }
            (TypeKind::Float(k), Rule::float_lit) => parse_decimal(*k, inner.as_str())
                .ok_or_else(|| self.err(&inner, "invalid float literal"))?,
            (TypeKind::Float(k), Rule::int_lit) => {
                let t = inner.as_str();
                match t.strip_prefix("0x") {
                    Some(h) => from_hex_bits(*k, h)
                        .ok_or_else(|| self.err(&inner, "hexadecimal float out of range"))?,
                    None => parse_decimal(*k, &format!("{t}.0"))
                        .ok_or_else(|| self.err(&inner, "invalid literal"))?,
                }
            }
            _ => {
                return Err(self.err(
                    &inner,
                    format!(
                        "expected a literal of element type '{}'",
                        crate::printer::type_text(u, elem)
                    ),
                ));
            }
        };
        Ok(bits.to_le_bytes()[..nbytes.min(16)].to_vec())
    }

    fn dense(&mut self, p: Pair<'_, Rule>) -> R<Attr> {
        let u = self.u;
        let pairs: Vec<Pair<'_, Rule>> = p.clone().into_inner().collect();
        let ty_pair = pairs.last().expect("type").clone();
        let ty = self.ty(ty_pair.clone())?;
        let tk = u.type_kind(ty).clone();
        let (Some(shape), Some(elem)) = (tk.shape().map(<[i64]>::to_vec), tk.element_type()) else {
            return Err(self.err(&ty_pair, "dense elements need a shaped type"));
        };
        let Some(n) = tk.num_elements() else {
            return Err(self.err(&ty_pair, "dense elements attribute requires a static shape"));
        };
        let lit = pairs
            .first()
            .filter(|x| x.as_rule() == Rule::dense_literal)
            .and_then(|l| l.clone().into_inner().next());
        let Some(lit) = lit else {
            if n != 0 {
                return Err(self.err(&p, "empty dense literal for a non-empty shape"));
            }
            return Ok(u.attr(AttrKind::DenseElements {
                ty,
                data: DenseData::Raw {
                    splat: false,
                    bytes: [][..].into(),
                },
            }));
        };
        let esize = scalar_bytes(u, elem);
        let is_string_elem = esize == 0;
        if lit.as_rule() == Rule::string && !is_string_elem {
            // `dense<"0x...">`: raw little-endian element bytes.
            let text = lit.as_str().trim_matches('"');
            let hex = text
                .strip_prefix("0x")
                .ok_or_else(|| self.err(&lit, "expected a hex string \"0x...\""))?;
            if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(self.err(&lit, "malformed hex string"));
            }
            let bytes: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                .collect();
            let is_i1 = matches!(u.type_kind(elem), TypeKind::Integer { width: 1, .. });
            // MLIR packs `i1` eight to a byte (least significant bit first); one
            // byte of 0x00 or 0xFF is a splat.
            let bytes = if is_i1
                && bytes.len() as u64 == n.div_ceil(8)
                && !(bytes.len() == 1 && (bytes[0] == 0 || bytes[0] == 0xff))
            {
                (0..n as usize)
                    .map(|i| (bytes[i / 8] >> (i % 8)) & 1)
                    .collect()
            } else if is_i1 && bytes.len() == 1 && n != 1 {
                vec![u8::from(bytes[0] != 0)]
            } else {
                bytes
            };
            let splat = bytes.len() == esize && n != 1;
            if !splat && bytes.len() as u64 != n * esize as u64 {
                return Err(self.err(
                    &lit,
                    format!(
                        "hex data has {} bytes, expected {}",
                        bytes.len(),
                        n * esize as u64
                    ),
                ));
            }
            return Ok(u.attr(AttrKind::DenseElements {
                ty,
                data: DenseData::Raw {
                    splat,
                    bytes: bytes.into(),
                },
            }));
        }
        // Flatten the nested literal, recording the shape it spells.
        let mut flat = Vec::new();
        let mut lit_shape = Vec::new();
        self.flatten(&lit, 0, &mut lit_shape, &mut flat)?;
        let splat = lit_shape.is_empty();
        if !splat && lit_shape.iter().map(|&d| d as i64).collect::<Vec<_>>() != shape {
            return Err(self.err(
                &lit,
                format!(
                    "inferred shape of elements literal ([{}]) does not match type ([{}])",
                    join(&lit_shape),
                    join(&shape)
                ),
            ));
        }
        if is_string_elem {
            let values = flat
                .iter()
                .map(|s| {
                    let inner = s.clone().into_inner().next().unwrap_or_else(|| s.clone());
                    if inner.as_rule() != Rule::string {
                        return Err(self.err(s, "expected string literal"));
                    }
                    Ok(self.string_bytes(&inner)?.into_boxed_slice())
                })
                .collect::<R<Vec<_>>>()?;
            return Ok(u.attr(AttrKind::DenseElements {
                ty,
                data: DenseData::Strings {
                    splat,
                    values: values.into(),
                },
            }));
        }
        let mut bytes = Vec::with_capacity(flat.len() * esize);
        for s in &flat {
            match (u.type_kind(elem), s.as_rule()) {
                (TypeKind::Complex(ce), Rule::complex_lit) => {
                    for part in s.clone().into_inner() {
                        bytes.extend(self.scalar_bits(&part, *ce)?);
                    }
                }
                (TypeKind::Complex(_), _) => {
                    return Err(self.err(s, "expected complex literal (re, im)"));
                }
                (_, Rule::complex_lit) => {
                    return Err(self.err(s, "complex literal for a non-complex element type"));
                }
                _ => bytes.extend(self.scalar_bits(s, elem)?),
            }
        }
        Ok(u.attr(AttrKind::DenseElements {
            ty,
            data: DenseData::Raw {
                splat: splat && n != 1,
                bytes: bytes.into(),
            },
        }))
    }

    fn flatten<'i>(
        &self,
        p: &Pair<'i, Rule>,
        dim: usize,
        shape: &mut Vec<usize>,
        out: &mut Vec<Pair<'i, Rule>>,
    ) -> R<()> {
        if dim > MAX_NESTING {
            return Err(self.err(p, "dense literal nested too deeply"));
        }
        let inner = if p.as_rule() == Rule::tensor_lit {
            p.clone().into_inner().next().expect("lit")
        } else {
            p.clone()
        };
        if inner.as_rule() != Rule::dense_list {
            if dim < shape.len() {
                return Err(self.err(
                    p,
                    "tensor literal is invalid; ranks are not consistent between elements",
                ));
            }
            out.push(inner);
            return Ok(());
        }
        let items: Vec<Pair<'i, Rule>> = inner.clone().into_inner().collect();
        if dim == shape.len() {
            if dim > 0 && !out.is_empty() {
                return Err(self.err(
                    p,
                    "tensor literal is invalid; ranks are not consistent between elements",
                ));
            }
            shape.push(items.len());
        } else if shape[dim] != items.len() {
            return Err(self.err(
                p,
                "tensor literal is invalid; ranks are not consistent between elements",
            ));
        }
        for it in &items {
            self.flatten(it, dim + 1, shape, out)?;
        }
        if items.is_empty() && dim + 1 < shape.len() {
            return Err(self.err(
                p,
                "tensor literal is invalid; ranks are not consistent between elements",
            ));
        }
        Ok(())
    }

    fn dense_array(&mut self, p: Pair<'_, Rule>) -> R<Attr> {
        let u = self.u;
        let mut it = p.clone().into_inner();
        let elem = self.ty(it.next().expect("element type"))?;
        let ok = matches!(
            u.type_kind(elem),
            TypeKind::Integer {
                width: 1 | 8 | 16 | 32 | 64,
                ..
            } | TypeKind::Float(FloatKind::F32 | FloatKind::F64)
        );
        if !ok {
            return Err(self.err(
                &p,
                "expected integer or float type of width 1, 8, 16, 32 or 64 in array<...>",
            ));
        }
        let mut values = Vec::new();
        for lit in it {
            let b = self.scalar_bits(&lit, elem)?;
            let mut w = [0u8; 8];
            w[..b.len().min(8)].copy_from_slice(&b[..b.len().min(8)]);
            values.push(u64::from_le_bytes(w));
        }
        Ok(u.attr(AttrKind::DenseArray {
            elem,
            values: values.into(),
        }))
    }

    /// Lower a `location` or `loc_inner` pair.
    pub fn loc(&mut self, p: Pair<'_, Rule>) -> R<Attr> {
        self.enter(&p)?;
        let r = self.loc_inner(p);
        self.depth -= 1;
        r
    }

    fn loc_inner(&mut self, p: Pair<'_, Rule>) -> R<Attr> {
        let u = self.u;
        let loc = |k| u.attr(AttrKind::Location(k));
        match p.as_rule() {
            Rule::location | Rule::loc_inner | Rule::trailing_loc => {
                let inner = p.into_inner().next().expect("location body");
                self.loc(inner)
            }
            Rule::loc_unknown => Ok(loc(LocKind::Unknown)),
            Rule::loc_callsite => {
                let mut it = p.into_inner();
                let callee = self.loc(it.next().expect("callee"))?;
                let caller = self.loc(it.next().expect("caller"))?;
                Ok(loc(LocKind::CallSite { callee, caller }))
            }
            Rule::loc_fused => {
                let mut metadata = None;
                let mut locs = smallvec::SmallVec::new();
                for x in p.into_inner() {
                    if x.as_rule() == Rule::attribute {
                        metadata = Some(self.attr(x)?);
                    } else {
                        locs.push(self.loc(x)?);
                    }
                }
                let locs: smallvec::SmallVec<[Attr; 2]> = locs;
                Ok(u.fused_loc(metadata, &locs))
            }
            Rule::loc_file => {
                let mut it = p.clone().into_inner();
                let file = String::from_utf8_lossy(&self.string_bytes(&it.next().expect("file"))?)
                    .into_owned();
                let nums = it
                    .map(|n| n.as_str().parse::<u32>())
                    .collect::<Result<Vec<_>, _>>();
                let nums = nums.map_err(|_| self.err(&p, "line or column number too large"))?;
                let end = match nums.len() {
                    3 => Some((nums[0], nums[2])),
                    4 => Some((nums[2], nums[3])),
                    _ => None,
                };
                Ok(loc(LocKind::FileLineCol {
                    file: u.ident(&file),
                    line: nums[0],
                    col: nums[1],
                    end,
                }))
            }
            Rule::loc_name => {
                let mut it = p.into_inner();
                let name = String::from_utf8_lossy(&self.string_bytes(&it.next().expect("name"))?)
                    .into_owned();
                let child = it.next().map(|c| self.loc(c)).transpose()?;
                Ok(loc(LocKind::Name {
                    name: u.ident(&name),
                    child,
                }))
            }
            Rule::attr_alias => {
                let name = &p.as_str()[1..];
                let a = self.aliases.attrs.get(name).copied();
                match a {
                    Some(a) if u.attr_kind(a).is_location() => {
                        self.aliases
                            .spend_attr(u, name, a)
                            .map_err(|m| self.err(&p, m))?;
                        Ok(a)
                    }
                    Some(_) => Err(self.err(&p, format!("alias '#{name}' is not a location"))),
                    None => Err(self.err(&p, format!("undefined symbol alias id '{name}'"))),
                }
            }
            r => Err(self.err(&p, format!("expected location, found {r:?}"))),
        }
    }
}

fn join<T: std::fmt::Display>(xs: &[T]) -> String {
    xs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Canonical storage of an integer of `width` bits: sign-extended unless unsigned or i1.
pub fn normalize_int(raw: i128, width: u32, signedness: Signedness) -> i128 {
    if width == 0 || width >= 128 {
        return raw;
    }
    let sh = 128 - width;
    // i1 holds 0 or 1 (a bool), not 0 or -1.
    if signedness == Signedness::Unsigned || width == 1 {
        (((raw as u128) << sh) >> sh) as i128
    } else {
        (raw << sh) >> sh
    }
}

/// Parse a whole string as one type (used by tests and tools; the op parser uses [`Lowerer`]).
pub fn parse_type(u: &Uniquer, aliases: &Aliases, text: &str) -> R<Type> {
    let p = parse_rule(Rule::type_, text, 0, 0)?;
    expect_end(text, p.as_span().end())?;
    Lowerer::new(u, aliases, 0, 0).ty(p)
}

/// Parse a whole string as one attribute.
pub fn parse_attribute(u: &Uniquer, aliases: &Aliases, text: &str) -> R<Attr> {
    let p = parse_rule(Rule::attribute, text, 0, 0)?;
    expect_end(text, p.as_span().end())?;
    Lowerer::new(u, aliases, 0, 0).attr(p)
}

fn expect_end(text: &str, end: usize) -> R<()> {
    let rest = &text[end..];
    let trimmed = rest.trim_start();
    if trimmed.is_empty() {
        return Ok(());
    }
    let at = end + (rest.len() - trimmed.len());
    Err(Diagnostic::error("unexpected text after the end").at_span(0, at, at + 1))
}
