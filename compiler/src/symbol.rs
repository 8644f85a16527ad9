//! Symbol tables, as MLIR's `SymbolTable`: ops with the `Symbol` trait are named by
//! their `sym_name` attribute inside the nearest enclosing op with the `SymbolTable`
//! trait, and referred to by symbol references (`@f`, nested `@m::@f`).

use crate::attributes::{Attr, AttrKind, Ident};
use crate::dialect::Traits;
use crate::intern::FxBuild;
use crate::ir::{Context, Op, known};
use std::collections::HashMap;

/// Who may refer to a symbol from outside its table (MLIR's `sym_visibility`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Visibility {
    /// Visible everywhere (the default).
    Public,
    /// Visible only inside the symbol table that holds it.
    Private,
    /// Visible to the parent symbol table and its nested tables.
    Nested,
}

/// The name an op defines in its symbol table, if it has one.
pub fn symbol_name(ctx: &Context, op: Op) -> Option<&str> {
    ctx.attr_str(ctx.inherent_attr(op, known::SYM_NAME)?)
}

/// The visibility of a symbol op; `None` when `sym_visibility` holds something else
/// than the three words MLIR allows.
pub fn visibility(ctx: &Context, op: Op) -> Option<Visibility> {
    let Some(a) = ctx.inherent_attr(op, known::SYM_VISIBILITY) else {
        return Some(Visibility::Public);
    };
    match ctx.attr_str(a)? {
        "public" => Some(Visibility::Public),
        "private" => Some(Visibility::Private),
        "nested" => Some(Visibility::Nested),
        _ => None,
    }
}

/// Whether `op` is a symbol table (has the trait, as far as the registry knows).
pub fn is_symbol_table(ctx: &Context, op: Op) -> bool {
    ctx.op_spec(op).is_some_and(|s| s.has(Traits::SYMBOL_TABLE))
}

/// The nearest symbol table that encloses `op` (not `op` itself).
pub fn nearest_symbol_table(ctx: &Context, op: Op) -> Option<Op> {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if is_symbol_table(ctx, p) {
            return Some(p);
        }
        cur = ctx.parent_op(p);
    }
    None
}

/// The symbol named `name` directly inside the symbol table `table` (a linear scan:
/// build a [`SymbolTable`] for repeated lookups).
pub fn lookup_symbol_in(ctx: &Context, table: Op, name: &str) -> Option<Op> {
    let block = ctx
        .regions(table)
        .first()
        .and_then(|r| ctx.entry_block(*r))?;
    ctx.block_ops(block)
        .find(|o| symbol_name(ctx, *o) == Some(name))
}

/// Resolve a symbol reference (`@f` or `@m::@f`) from `table`: the root names a
/// symbol of `table`, each nested name a symbol of the previous one's table.
pub fn resolve_in(ctx: &Context, table: Op, symref: Attr) -> Option<Op> {
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(symref) else {
        return None;
    };
    let mut cur = lookup_symbol_in(ctx, table, ctx.str(*root))?;
    for n in nested.iter() {
        if !is_symbol_table(ctx, cur) {
            return None;
        }
        cur = lookup_symbol_in(ctx, cur, ctx.str(*n))?;
    }
    Some(cur)
}

/// Resolve a symbol reference from the nearest symbol table that encloses `from`
/// and defines its root, walking outwards as MLIR's `lookupNearestSymbolFrom` does.
pub fn lookup_nearest_symbol_from(ctx: &Context, from: Op, symref: Attr) -> Option<Op> {
    let mut table = nearest_symbol_table(ctx, from);
    while let Some(t) = table {
        if let Some(op) = resolve_in(ctx, t, symref) {
            return Some(op);
        }
        table = nearest_symbol_table(ctx, t);
    }
    None
}

/// The symbol references (`@a`, `@a::@b`) inside attribute `a`, nested arrays and
/// dictionaries included, appended to `out` in the order they are written.
/// Walks with an explicit stack, so the attribute's nesting depth is no concern.
pub fn symbol_refs(ctx: &Context, a: Attr, out: &mut Vec<Attr>) {
    let mut stack = vec![a];
    while let Some(a) = stack.pop() {
        match ctx.attr_kind(a) {
            AttrKind::SymbolRef { .. } => out.push(a),
            AttrKind::Array(xs) => stack.extend(xs.iter().rev()),
            AttrKind::Dict(es) => stack.extend(es.iter().rev().map(|(_, v)| *v)),
            _ => {}
        }
    }
}

/// The symbols of one symbol-table op indexed by name, for repeated lookups.
pub struct SymbolTable {
    /// The symbol-table op.
    pub op: Op,
    symbols: HashMap<Ident, Op, FxBuild>,
}

impl SymbolTable {
    /// Index the symbols directly inside `op`; the first definition of a duplicated
    /// name wins (the verifier reports the duplicate).
    pub fn new(ctx: &Context, op: Op) -> Self {
        let mut symbols = HashMap::default();
        if let Some(block) = ctx.regions(op).first().and_then(|r| ctx.entry_block(*r)) {
            for o in ctx.block_ops(block) {
                if let Some(n) = symbol_name(ctx, o) {
                    symbols.entry(ctx.ident(n)).or_insert(o);
                }
            }
        }
        SymbolTable { op, symbols }
    }
    /// The symbol named `name`.
    pub fn lookup(&self, name: Ident) -> Option<Op> {
        self.symbols.get(&name).copied()
    }
    /// Number of distinct symbols.
    pub fn len(&self) -> usize {
        self.symbols.len()
    }
    /// Whether the table holds no symbols.
    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }
}

/// Symbol tables indexed on first use, for many lookups over IR whose symbols do
/// not change meanwhile (MLIR's `SymbolTableCollection`): each lookup costs the
/// nesting depth instead of a scan of the table.
#[derive(Default)]
pub struct SymbolTables {
    tables: HashMap<Op, SymbolTable, FxBuild>,
}

impl SymbolTables {
    /// The symbol named `name` directly inside the symbol table `table`.
    pub fn lookup_in(&mut self, ctx: &Context, table: Op, name: Ident) -> Option<Op> {
        self.tables
            .entry(table)
            .or_insert_with(|| SymbolTable::new(ctx, table))
            .lookup(name)
    }

    /// [`resolve_in`] through the cached tables.
    pub fn resolve_in(&mut self, ctx: &Context, table: Op, symref: Attr) -> Option<Op> {
        let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(symref) else {
            return None;
        };
        let mut cur = self.lookup_in(ctx, table, *root)?;
        for n in nested.iter() {
            if !is_symbol_table(ctx, cur) {
                return None;
            }
            cur = self.lookup_in(ctx, cur, *n)?;
        }
        Some(cur)
    }

    /// [`lookup_nearest_symbol_from`] through the cached tables.
    pub fn lookup_nearest_symbol_from(
        &mut self,
        ctx: &Context,
        from: Op,
        symref: Attr,
    ) -> Option<Op> {
        let mut table = nearest_symbol_table(ctx, from);
        while let Some(t) = table {
            if let Some(op) = self.resolve_in(ctx, t, symref) {
                return Some(op);
            }
            table = nearest_symbol_table(ctx, t);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse_attribute, parse_module, with_parser_stack};
    use crate::{DialectRegistry, SourceMap};
    use std::sync::Arc;

    #[test]
    fn symbol_refs_are_found_in_written_order_at_any_depth() {
        with_parser_stack(|| {
            let ctx = Context::new(Arc::new(DialectRegistry::new()));
            let aliases = crate::syntax::Aliases::default();
            let u = ctx.uniquer();
            let a = parse_attribute(u, &aliases, "[@a, {k = [[@b::@c]], n = 1}, 2, @d]").unwrap();
            let mut refs = Vec::new();
            symbol_refs(&ctx, a, &mut refs);
            let want: Vec<Attr> = ["@a", "@b::@c", "@d"]
                .iter()
                .map(|t| parse_attribute(u, &aliases, t).unwrap())
                .collect();
            assert_eq!(refs, want);
            // Deeper than any recursion would like.
            let mut nested = parse_attribute(u, &aliases, "@x").unwrap();
            for _ in 0..100_000 {
                nested = u.attr(AttrKind::Array(vec![nested].into()));
            }
            refs.clear();
            symbol_refs(&ctx, nested, &mut refs);
            assert_eq!(refs.len(), 1);
        })
    }

    #[test]
    fn nested_references_resolve_through_tables() {
        with_parser_stack(|| {
            let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
            ctx.allow_unregistered = true;
            let mut sm = SourceMap::new();
            let text = r#"
                module @outer {
                  module @m {
                    "t.sym"() <{sym_name = "f", sym_visibility = "private"}> : () -> ()
                  }
                  "t.sym"() <{sym_name = "g"}> : () -> ()
                  "t.user"() : () -> ()
                }
            "#;
            let f = sm.add("s.mlir", text.into());
            let top = parse_module(&mut ctx, &sm, f).expect("parses");
            let mut ops = Vec::new();
            ctx.walk(top, crate::ir::WalkOrder::PreOrder, &mut |_, o| ops.push(o));
            let user = *ops.iter().find(|o| ctx.op_name(**o) == "t.user").unwrap();
            let aliases = Default::default();
            let mf = parse_attribute(ctx.uniquer(), &aliases, "@m::@f").unwrap();
            let g = parse_attribute(ctx.uniquer(), &aliases, "@g").unwrap();
            let nope = parse_attribute(ctx.uniquer(), &aliases, "@m::@nope").unwrap();
            let found = lookup_nearest_symbol_from(&ctx, user, mf).expect("finds @m::@f");
            assert_eq!(ctx.op_name(found), "t.sym");
            assert_eq!(visibility(&ctx, found), Some(Visibility::Private));
            let found_g = lookup_nearest_symbol_from(&ctx, user, g).expect("finds @g");
            assert_eq!(visibility(&ctx, found_g), Some(Visibility::Public));
            assert!(lookup_nearest_symbol_from(&ctx, user, nope).is_none());
            let table = SymbolTable::new(&ctx, nearest_symbol_table(&ctx, user).unwrap());
            assert_eq!(table.len(), 2);
            assert_eq!(table.lookup(ctx.ident("g")), Some(found_g));
        });
    }
}
