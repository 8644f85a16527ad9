//! Printing ops in MLIR's pretty (custom) and generic forms, with MLIR's SSA numbering.
//!
//! Numbering follows mlir-opt's `SSANameState`: each region is numbered whole, then
//! the regions of its ops are numbered from a stack (last pushed first); entry-block
//! arguments are `%argN`, other values `%N`, one number per multi-result op (`%3:2`,
//! used as `%3#1`); blocks are `^bbN` per region. In pretty form a region starts from
//! the counters its parent region had when it was pushed, so sibling functions
//! both start at `%0`/`%arg0`; in generic form ids are unique across the whole op.

use crate::alias::{AliasCollector, AliasTable};
use crate::attributes::{Attr, Ident};
use crate::ir::{Block, Context, Op, Region, Value, ValueDef};
use crate::printer::{
    AliasLookup, Pr, write_attr_in, write_attr_without_type_in, write_dict_entries_in,
    write_location, write_string, write_type_in,
};
use crate::types::{Type, TypeKind};
use std::fmt::Write;

/// How to print.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print `loc(...)` after every op and block argument.
    pub debuginfo: bool,
    /// Print every op in generic form (`--mlir-print-op-generic`).
    pub generic: bool,
}

const NONE: u32 = u32::MAX;
const ARG_BIT: u32 = 1 << 31;

const NAME_BIT: u32 = 1 << 30;

struct Names {
    values: Vec<u32>,
    blocks: Vec<u32>,
    /// Names that ops' [`crate::dialect::OpSpec::result_names`] chose, uniqued;
    /// `values` entries with `NAME_BIT` index this.
    names: Vec<String>,
    /// First result of each result group, for ops whose later results are named.
    groups: std::collections::HashMap<Op, Vec<u32>>,
    /// Names used per region scope, with the enclosing scope (MLIR's `usedNames`).
    scopes: Vec<(std::collections::HashSet<String>, Option<usize>)>,
}

impl Names {
    fn compute(ctx: &Context, root: Op, unique: bool) -> Names {
        let mut n = Names {
            values: Vec::new(),
            blocks: Vec::new(),
            names: Vec::new(),
            groups: Default::default(),
            scopes: vec![(Default::default(), None)],
        };
        // Generic form numbers everything, as mlir-opt does.
        let named = !unique;
        let (mut next_value, mut next_arg, mut conflict) = (0u32, 0u32, 0u32);
        n.number_results(ctx, root, &mut next_value, named, 0, &mut conflict);
        let mut stack: Vec<(Region, u32, u32, u32, usize)> = ctx
            .regions(root)
            .iter()
            .rev()
            .map(|&r| (r, next_value, next_arg, conflict, 0))
            .collect();
        while let Some((r, saved_value, saved_arg, saved_conflict, parent)) = stack.pop() {
            if !unique {
                (next_value, next_arg, conflict) = (saved_value, saved_arg, saved_conflict);
            }
            let scope = n.scopes.len();
            n.scopes.push((Default::default(), Some(parent)));
            let mut nested = Vec::new();
            // Entry-block argument names the parent op chooses (MLIR's
            // `getAsmBlockArgumentNames`).
            let arg_names: Vec<Option<String>> = if named {
                ctx.region_parent(r)
                    .and_then(|p| {
                        let f = ctx.op_spec(p)?.region_arg_names?;
                        let k = ctx.regions(p).iter().position(|x| *x == r)?;
                        Some(f(ctx, p, k))
                    })
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            for (bi, b) in ctx.region_blocks(r).enumerate() {
                n.set_block(b, bi as u32);
                let entry = bi == 0;
                for (ai, &a) in ctx.block_args(b).iter().enumerate() {
                    if entry && let Some(Some(name)) = arg_names.get(ai) {
                        let name = n.unique_name(name, scope, &mut conflict);
                        n.set_value(a, NAME_BIT | n.names.len() as u32);
                        n.names.push(name);
                    } else if entry {
                        n.set_value(a, next_arg | ARG_BIT);
                        next_arg += 1;
                    } else {
                        n.set_value(a, next_value);
                        next_value += 1;
                    }
                }
                for op in ctx.block_ops(b) {
                    n.number_results(ctx, op, &mut next_value, named, scope, &mut conflict);
                    nested.extend(ctx.regions(op).iter().copied());
                }
            }
            stack.extend(
                nested
                    .into_iter()
                    .map(|r| (r, next_value, next_arg, conflict, scope)),
            );
        }
        n.scopes = Vec::new();
        n
    }
    fn number_results(
        &mut self,
        ctx: &Context,
        op: Op,
        next: &mut u32,
        named: bool,
        scope: usize,
        conflict: &mut u32,
    ) {
        let count = ctx.num_results(op);
        if count == 0 {
            return;
        }
        let mut groups = vec![0u32];
        if named && let Some(f) = ctx.op_spec(op).and_then(|s| s.result_names) {
            for (i, name) in f(ctx, op).into_iter().enumerate().take(count) {
                let Some(name) = name else { continue };
                let v = ctx.result(op, i);
                if name.is_empty() {
                    self.set_value(v, *next);
                    *next += 1;
                } else {
                    let name = self.unique_name(&name, scope, conflict);
                    self.set_value(v, NAME_BIT | self.names.len() as u32);
                    self.names.push(name);
                }
                if i > 0 {
                    groups.push(i as u32);
                }
            }
        }
        let first = ctx.result(op, 0);
        if self.values.get(first.index()).is_none_or(|id| *id == NONE) {
            self.set_value(first, *next);
            *next += 1;
        }
        if groups.len() > 1 {
            groups.sort_unstable();
            self.groups.insert(op, groups);
        }
    }
    /// MLIR's `uniqueValueName`: sanitize, then add `_N` on a clash in scope.
    fn unique_name(&mut self, name: &str, scope: usize, conflict: &mut u32) -> String {
        let mut clean = String::new();
        if name.starts_with(|c: char| c.is_ascii_digit()) {
            clean.push('_');
        }
        for c in name.bytes() {
            if c.is_ascii_alphanumeric() || b"$._-".contains(&c) {
                clean.push(c as char);
            } else if c == b' ' {
                clean.push('_');
            } else {
                let _ = write!(clean, "{c:X}");
            }
        }
        let used = |s: &Self, n: &str| {
            let mut at = Some(scope);
            while let Some(i) = at {
                if s.scopes[i].0.contains(n) {
                    return true;
                }
                at = s.scopes[i].1;
            }
            false
        };
        let mut out = clean.clone();
        if used(self, &out) {
            loop {
                out = format!("{clean}_{conflict}");
                *conflict += 1;
                if !used(self, &out) {
                    break;
                }
            }
        }
        self.scopes[scope].0.insert(out.clone());
        out
    }
    /// The result group holding result `i` of `op`: its first result and size.
    fn group(&self, ctx: &Context, op: Op, i: usize) -> Option<(usize, usize)> {
        let g = self.groups.get(&op)?;
        let k = g.partition_point(|s| *s as usize <= i) - 1;
        let start = g[k] as usize;
        let end = g.get(k + 1).map_or(ctx.num_results(op), |e| *e as usize);
        Some((start, end - start))
    }
    fn set_value(&mut self, v: Value, id: u32) {
        if self.values.len() <= v.index() {
            self.values.resize(v.index() + 1, NONE);
        }
        self.values[v.index()] = id;
    }
    fn set_block(&mut self, b: Block, id: u32) {
        if self.blocks.len() <= b.index() {
            self.blocks.resize(b.index() + 1, NONE);
        }
        self.blocks[b.index()] = id;
    }
    fn block(&self, b: Block) -> u32 {
        self.blocks.get(b.index()).copied().unwrap_or(NONE)
    }
}

/// Prints ops; custom printers and declarative formats use its methods.
pub struct OpPrinter<'c> {
    ctx: &'c Context,
    names: Names,
    opts: PrintOptions,
    indent: usize,
    /// Default dialect of each enclosing region's op, for eliding prefixes.
    default_dialects: Vec<&'static str>,
    /// Where finished text goes when streaming (see [`print_op_to`]).
    sink: Option<&'c mut dyn std::io::Write>,
    /// The first error the sink reported.
    sink_error: Option<std::io::Error>,
    /// In the collecting walk that precedes printing (see [`crate::alias`]): where
    /// attributes and types go instead of into the text.
    collector: Option<AliasCollector<'c>>,
    /// Aliases to print nested attributes by.
    aliases: Option<AliasTable>,
    /// Collecting, just after the name of an argument of one of the regions of the
    /// op being printed: MLIR's alias walk does not visit the attributes of region
    /// arguments (`%arg0: i32 {a = ...}`), so the next [`Self::attr_entries`] is
    /// not visited.
    after_block_arg: bool,
    /// The op whose custom printer is running.
    current: Option<Op>,
    /// The text printed so far (and not yet handed to the sink).
    pub out: String,
}

/// Text buffered before it is handed to a streaming sink.
const FLUSH_BYTES: usize = 1 << 16;

impl<'c> OpPrinter<'c> {
    /// A printer numbering values below `root`.
    pub fn new(ctx: &'c Context, root: Op, opts: PrintOptions) -> Self {
        OpPrinter {
            ctx,
            names: Names::compute(ctx, root, opts.generic),
            opts,
            indent: 0,
            default_dialects: vec!["builtin"],
            sink: None,
            sink_error: None,
            collector: None,
            aliases: None,
            after_block_arg: false,
            current: None,
            out: String::new(),
        }
    }

    /// How attributes and types are printed: with this module's aliases.
    fn pr(&self) -> Pr<'_> {
        Pr {
            u: self.ctx.uniquer(),
            aliases: self.aliases.as_ref().map(|t| t as &dyn AliasLookup),
        }
    }

    /// Hand buffered text to the sink once enough has accumulated, so printing a
    /// large module never holds its whole text in memory.
    fn maybe_flush(&mut self, force: bool) {
        if self.out.len() < FLUSH_BYTES && !force {
            return;
        }
        if self.collector.is_some() {
            // The collecting walk's text is never shown.
            self.out.clear();
            return;
        }
        if let Some(w) = self.sink.as_mut() {
            if self.sink_error.is_none()
                && let Err(e) = w.write_all(self.out.as_bytes())
            {
                self.sink_error = Some(e);
            }
            self.out.clear();
        }
    }

    /// The context being printed.
    pub fn ctx(&self) -> &'c Context {
        self.ctx
    }

    /// The options in effect.
    pub fn options(&self) -> PrintOptions {
        self.opts
    }

    /// Print a value's name (`%0`, `%arg1`, `%2#1`).
    pub fn value(&mut self, v: Value) {
        if self.collector.is_some() {
            let ctx = self.ctx;
            self.after_block_arg = match ctx.value_def(v) {
                ValueDef::Arg(b, _) => {
                    self.current.is_some()
                        && ctx.block_parent(b).and_then(|r| ctx.region_parent(r)) == self.current
                }
                _ => false,
            };
        }
        self.value_name(v, true);
    }

    /// `%inner = %outer, ...` (the body of MLIR's assignment lists), pairing
    /// `inner` and `outer` up to the shorter.
    pub fn assignments(&mut self, inner: &[Value], outer: &[Value]) {
        for (i, (a, v)) in inner.iter().zip(outer).enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(*a);
            self.out.push_str(" = ");
            self.value(*v);
        }
    }
    /// Print values separated by commas.
    pub fn values(&mut self, vs: &[Value]) {
        self.comma_list(vs, Self::value);
    }

    /// Print a value's name; `use_suffix` adds `#i` for results of multi-result ops.
    fn value_name(&mut self, v: Value, use_suffix: bool) {
        let ctx = self.ctx;
        let (base, suffix) = match ctx.value_def(v) {
            ValueDef::Result(op, i) => match self.names.group(ctx, op, i as usize) {
                Some((start, len)) => (
                    ctx.result(op, start),
                    (use_suffix && len > 1).then_some(i - start as u32),
                ),
                None if use_suffix && ctx.num_results(op) > 1 => (ctx.result(op, 0), Some(i)),
                None => (v, None),
            },
            _ => (v, None),
        };
        let id = self.names.values.get(base.index()).copied().unwrap_or(NONE);
        if id == NONE {
            self.out.push_str("<<UNKNOWN SSA VALUE>>");
        } else if id & ARG_BIT == 0 && id & NAME_BIT != 0 {
            self.out.push('%');
            self.out
                .push_str(&self.names.names[(id & !NAME_BIT) as usize]);
        } else if id & ARG_BIT != 0 {
            let _ = write!(self.out, "%arg{}", id & !ARG_BIT);
        } else {
            let _ = write!(self.out, "%{id}");
        }
        if let Some(i) = suffix {
            let _ = write!(self.out, "#{i}");
        }
    }

    /// Print `items` separated by `", "` (MLIR's `interleaveComma`).
    pub fn comma_list<T: Copy>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, T)) {
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            f(self, x);
        }
    }

    /// Print a type.
    pub fn ty(&mut self, t: Type) {
        if let Some(c) = self.collector.as_mut() {
            c.visit_type(t);
            return;
        }
        let mut out = std::mem::take(&mut self.out);
        write_type_in(self.pr(), t, &mut out);
        self.out = out;
    }

    /// Print types separated by commas.
    pub fn types(&mut self, ts: &[Type]) {
        self.comma_list(ts, Self::ty);
    }

    /// `(ins) -> outs`, with parentheses around the results unless there is exactly
    /// one that is not itself a function type.
    pub fn functional_type(&mut self, ins: &[Type], outs: &[Type]) {
        self.out.push('(');
        self.types(ins);
        self.out.push_str(") -> ");
        self.result_types(outs);
    }

    /// Result types as MLIR writes them after `->`.
    pub fn result_types(&mut self, outs: &[Type]) {
        let bare = outs.len() == 1
            && !matches!(
                self.ctx.uniquer().type_kind(outs[0]),
                TypeKind::Function { .. }
            );
        if !bare {
            self.out.push('(');
        }
        self.types(outs);
        if !bare {
            self.out.push(')');
        }
    }

    /// Print an attribute.
    pub fn attr(&mut self, a: Attr) {
        self.after_block_arg = false;
        if let Some(c) = self.collector.as_mut() {
            c.visit_attr(a, false);
            return;
        }
        let mut out = std::mem::take(&mut self.out);
        write_attr_in(self.pr(), a, false, &mut out);
        self.out = out;
    }

    /// Print an attribute whose type the syntax implies (`5` rather than `5 : i64`).
    pub fn attr_without_type(&mut self, a: Attr) {
        self.after_block_arg = false;
        if let Some(c) = self.collector.as_mut() {
            c.visit_attr(a, false);
            return;
        }
        let mut out = std::mem::take(&mut self.out);
        write_attr_without_type_in(self.pr(), a, &mut out);
        self.out = out;
    }

    /// `@name`, quoted when it is not a bare identifier.
    pub fn symbol_name(&mut self, name: &str) {
        self.out.push('@');
        let bare = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_$.".contains(c));
        if bare {
            self.out.push_str(name);
        } else {
            write_string(name.as_bytes(), &mut self.out);
        }
    }

    /// Print ` {a = 1, b}` for `entries` minus `elided`; nothing when none remain.
    /// With `keyword`, the dictionary is introduced by ` attributes`.
    pub fn attr_entries(&mut self, entries: &[(Ident, Attr)], elided: &[&str], keyword: bool) {
        let unvisited = std::mem::take(&mut self.after_block_arg);
        let u = self.ctx.uniquer();
        let mut kept: Vec<(Ident, Attr)> = entries
            .iter()
            .filter(|(k, _)| !elided.contains(&u.str(*k)))
            .copied()
            .collect();
        if kept.is_empty() {
            return;
        }
        kept.sort_by(|a, b| u.str(a.0).cmp(u.str(b.0)));
        if unvisited && self.collector.is_some() {
            // Printed, never visited (see `after_block_arg`).
            return;
        }
        self.out
            .push_str(if keyword { " attributes {" } else { " {" });
        self.dict_entries(&kept);
        self.out.push('}');
    }

    /// `a = 1, b` (visited in order when collecting aliases).
    fn dict_entries(&mut self, entries: &[(Ident, Attr)]) {
        if let Some(c) = self.collector.as_mut() {
            for (_, v) in entries {
                c.visit_attr(*v, false);
            }
            return;
        }
        let mut out = std::mem::take(&mut self.out);
        write_dict_entries_in(self.pr(), entries, &mut out);
        self.out = out;
    }

    /// The attribute dictionary of `op` in custom form: inherent attributes (from
    /// properties) and discardable ones together, minus those the syntax printed.
    pub fn attr_dict(&mut self, op: Op, elided: &[&str], keyword: bool) {
        let ctx = self.ctx;
        let mut all: Vec<(Ident, Attr)> = Vec::new();
        if let Some(p) = ctx.op(op).props {
            all.extend_from_slice(ctx.dict_entries(p));
        }
        all.extend(ctx.op(op).attrs.iter().map(|(k, v)| (*k, *v)));
        self.attr_entries(&all, elided, keyword);
    }

    /// A successor block name.
    pub fn successor(&mut self, b: Block) {
        let _ = write!(self.out, "^bb{}", self.names.block(b));
    }

    /// ` loc(...)` after a block or region argument when locations are printed:
    /// always in full, as MLIR prints argument locations.
    pub fn optional_location(&mut self, loc: Option<Attr>) {
        if self.opts.debuginfo
            && let Some(l) = loc
        {
            if let Some(c) = self.collector.as_mut() {
                c.visit_attr(l, false);
                return;
            }
            self.out.push(' ');
            let mut out = std::mem::take(&mut self.out);
            write_location(self.pr(), l, false, &mut out);
            self.out = out;
        }
    }

    /// Print `op` at the current indentation (no trailing newline).
    pub fn op(&mut self, op: Op) {
        let ctx = self.ctx;
        self.after_block_arg = false;
        if self.opts.debuginfo
            && let Some(c) = self.collector.as_mut()
        {
            // An op's location is visited first and may be defined after the module.
            c.visit_attr(ctx.op(op).loc, true);
        }
        let n = ctx.num_results(op);
        if n > 0 {
            let starts: Vec<usize> = match self.names.groups.get(&op) {
                Some(g) => g.iter().map(|s| *s as usize).collect(),
                None => vec![0],
            };
            for (k, &start) in starts.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                self.value_name(ctx.result(op, start), false);
                let len = starts.get(k + 1).unwrap_or(&n) - start;
                if len > 1 {
                    let _ = write!(self.out, ":{len}");
                }
            }
            self.out.push_str(" = ");
        }
        let spec = ctx.op_spec(op);
        let format = spec.and_then(|s| ctx.registry().format(s.name));
        match spec {
            Some(spec) if !self.opts.generic && (spec.custom.is_some() || format.is_some()) => {
                let name = spec.name;
                let dd = self.default_dialects.last().copied().unwrap_or("");
                match name.strip_prefix(dd).and_then(|r| r.strip_prefix('.')) {
                    Some(short) if !dd.is_empty() && !short.contains('.') => {
                        self.out.push_str(short)
                    }
                    _ => self.out.push_str(name),
                }
                self.default_dialects
                    .push(spec.default_dialect.unwrap_or(""));
                let outer = self.current.replace(op);
                if let Some(c) = spec.custom {
                    (c.print)(self, op);
                } else if let Some(f) = format {
                    crate::asm::print(self, spec, f, op);
                }
                self.current = outer;
                self.default_dialects.pop();
            }
            _ if self.collector.is_some() => self.generic_visit(op),
            _ => self.generic_body(op),
        }
        if self.opts.debuginfo && self.collector.is_none() {
            self.out.push(' ');
            let mut out = std::mem::take(&mut self.out);
            write_location(self.pr(), ctx.op(op).loc, true, &mut out);
            self.out = out;
        }
    }

    /// What MLIR's alias walk visits of a generic op, in its order: regions first,
    /// then operand and result types, then attributes.
    fn generic_visit(&mut self, op: Op) {
        let ctx = self.ctx;
        for &r in ctx.regions(op) {
            self.region_with(r, true, true, true);
        }
        for &v in ctx.operands(op) {
            self.ty(ctx.value_type(v));
        }
        for v in ctx.results(op) {
            self.ty(ctx.value_type(v));
        }
        // MLIR visits `getAttrs()`: for a registered op its inherent attributes
        // (properties) merged with the discardable ones, sorted by name; an
        // unregistered op's properties are not visited at all.
        let mut attrs: Vec<_> = ctx.op(op).attrs.iter().map(|(k, v)| (*k, *v)).collect();
        if let (Some(_), Some(p)) = (ctx.op_spec(op), ctx.op(op).props) {
            let u = ctx.uniquer();
            attrs.extend_from_slice(ctx.dict_entries(p));
            attrs.sort_by(|a, b| u.str(a.0).cmp(u.str(b.0)));
        }
        self.dict_entries(&attrs);
    }

    fn generic_body(&mut self, op: Op) {
        let ctx = self.ctx;
        write_string(ctx.op_name(op).as_bytes(), &mut self.out);
        self.out.push('(');
        self.comma_list(ctx.operands(op), Self::value);
        self.out.push(')');
        let succs = ctx.successors(op);
        if !succs.is_empty() {
            self.out.push('[');
            self.comma_list(succs, Self::successor);
            self.out.push(']');
        }
        if let Some(p) = ctx.op(op).props {
            self.out.push_str(" <");
            self.attr(p);
            self.out.push('>');
        }
        let regions = ctx.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            self.default_dialects.push(
                ctx.op_spec(op)
                    .and_then(|s| s.default_dialect)
                    .unwrap_or(""),
            );
            self.comma_list(regions, |p, r| p.region_with(r, true, true, true));
            self.default_dialects.pop();
            self.out.push(')');
        }
        let attrs: Vec<_> = ctx.op(op).attrs.iter().map(|(k, v)| (*k, *v)).collect();
        if !attrs.is_empty() {
            self.out.push_str(" {");
            self.dict_entries(&attrs);
            self.out.push('}');
        }
        let ins: Vec<Type> = ctx
            .operands(op)
            .iter()
            .map(|v| ctx.value_type(*v))
            .collect();
        let outs: Vec<Type> = ctx.results(op).map(|r| ctx.value_type(r)).collect();
        self.out.push_str(" : ");
        self.functional_type(&ins, &outs);
    }

    /// A line break indented to the current nesting (MLIR's `printNewline`).
    pub fn newline(&mut self) {
        self.out.push('\n');
        push_indent(&mut self.out, self.indent);
    }

    /// Print a region: `{`, its blocks, `}`. The entry block's header is printed when
    /// `entry_args` is set and it has arguments; with `terminators` false a trailing
    /// terminator is left out (ops whose syntax implies it).
    pub fn region(&mut self, r: Region, entry_args: bool, terminators: bool) {
        self.region_with(r, entry_args, terminators, false)
    }

    fn region_with(&mut self, r: Region, entry_args: bool, terminators: bool, empty_block: bool) {
        let ctx = self.ctx;
        self.after_block_arg = false;
        self.out.push_str("{\n");
        let indent = self.indent;
        self.indent += 2;
        for (i, b) in ctx.region_blocks(r).enumerate() {
            let header = i > 0
                || (entry_args && !ctx.block_args(b).is_empty())
                || (empty_block && ctx.first_op(b).is_none());
            if header {
                self.block_header(b, i == 0, indent);
            }
            let skip = ctx.last_op(b).filter(|&l| {
                !terminators
                    && ctx
                        .op_spec(l)
                        .is_some_and(|s| s.has(crate::dialect::Traits::TERMINATOR))
            });
            for op in ctx.block_ops(b) {
                if Some(op) == skip {
                    break;
                }
                push_indent(&mut self.out, self.indent);
                self.op(op);
                self.out.push('\n');
                self.maybe_flush(false);
            }
        }
        self.indent = indent;
        push_indent(&mut self.out, indent);
        self.out.push('}');
    }

    fn block_header(&mut self, b: Block, entry: bool, indent: usize) {
        let ctx = self.ctx;
        push_indent(&mut self.out, indent);
        self.successor(b);
        let args = ctx.block_args(b);
        if !args.is_empty() {
            self.out.push('(');
            self.comma_list(args, |p, a| {
                p.value(a);
                p.out.push_str(": ");
                p.ty(ctx.value_type(a));
                p.optional_location(ctx.value(a).loc);
            });
            self.out.push(')');
        }
        self.out.push(':');
        let mut preds: Vec<u32> = ctx
            .block_uses(b)
            .iter()
            .filter_map(|use_| ctx.parent_block(use_.op))
            .map(|p| self.names.block(p))
            .collect();
        if preds.is_empty() {
            if !entry {
                self.out.push_str("  // no predecessors");
            }
        } else {
            preds.sort_unstable();
            if preds.iter().all(|p| *p == preds[0]) {
                let _ = write!(self.out, "  // pred: ^bb{}", preds[0]);
            } else {
                let list: Vec<String> = preds.iter().map(|p| format!("^bb{p}")).collect();
                let _ = write!(self.out, "  // {} preds: {}", preds.len(), list.join(", "));
            }
        }
        self.out.push('\n');
    }
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// The aliases MLIR would print for `op`: a collecting walk in printing order, taken
/// only when the IR may hold aliased attributes (or locations are printed).
fn collect_aliases(ctx: &Context, op: Op, opts: PrintOptions) -> Option<AliasTable> {
    if !opts.debuginfo && !ctx.uniquer().has_aliased_attrs() {
        return None;
    }
    let mut p = OpPrinter::new(ctx, op, opts);
    p.collector = Some(AliasCollector::new(ctx.uniquer()));
    p.op(op);
    let table = p.collector.take().expect("collecting").finish();
    (!table.is_empty()).then_some(table)
}

/// A printer for `op` with its aliases, their definitions already in its text.
fn printer_for<'c>(ctx: &'c Context, op: Op, opts: PrintOptions) -> OpPrinter<'c> {
    let mut p = OpPrinter::new(ctx, op, opts);
    if let Some(table) = collect_aliases(ctx, op, opts) {
        table.write_definitions(ctx.uniquer(), false, &mut p.out);
        p.aliases = Some(table);
    }
    p
}

/// End the printed op: a newline, then the aliases defined after it.
fn finish(p: &mut OpPrinter<'_>) {
    p.out.push('\n');
    if let Some(t) = p.aliases.take() {
        t.write_definitions(p.ctx.uniquer(), true, &mut p.out);
    }
}

/// Print `op` (usually a module), ending with a newline, with MLIR's aliases.
pub fn print_op(ctx: &Context, op: Op, opts: PrintOptions) -> String {
    let mut p = printer_for(ctx, op, opts);
    p.op(op);
    finish(&mut p);
    p.out
}

/// Print `op`, ending with a newline, to `w` as the text is produced.
pub fn print_op_to(
    ctx: &Context,
    op: Op,
    opts: PrintOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut p = printer_for(ctx, op, opts);
    p.sink = Some(w);
    p.op(op);
    finish(&mut p);
    p.maybe_flush(true);
    p.sink_error.map_or(Ok(()), Err)
}

/// Print `op` in generic form, ending with a newline.
pub fn print_generic(ctx: &Context, op: Op, opts: PrintOptions) -> String {
    print_op(
        ctx,
        op,
        PrintOptions {
            generic: true,
            ..opts
        },
    )
}
