//! Attribute aliases as mlir-opt prints them: `#map = affine_map<...>`,
//! `#set = affine_set<...>` and, with `--mlir-print-debuginfo`, `#loc = loc(...)`.
//!
//! MLIR walks the IR once in printing order before printing ("alias initialiser"),
//! collecting every aliasable attribute with the depth of the aliases nested in it
//! and whether it is only used by op locations (then its definition is *deferred* to
//! the end of the output). Aliases are then ordered by depth, then name, then first
//! use, and numbered per name (`#map`, `#map1`, ...). This module reproduces that:
//! the op printer runs in collecting mode and reports every attribute and type it
//! would print to an [`AliasCollector`], whose [`AliasTable`] then drives printing.

use crate::attributes::{Attr, AttrKind, LocKind};
use crate::intern::FxBuild;
use crate::ir::Uniquer;
use crate::printer::{AliasLookup, Pr, write_alias_definition, write_type_definition};
use crate::types::{Type, TypeKind};
use std::collections::HashMap;

/// Alias name an attribute gets from the builtin dialect, if any.
fn alias_base(kind: &AttrKind) -> Option<&'static str> {
    match kind {
        AttrKind::AffineMap(_) => Some("map"),
        AttrKind::IntegerSet(_) => Some("set"),
        AttrKind::Location(_) => Some("loc"),
        _ => None,
    }
}

/// Alias name a type gets from the builtin dialect: tuples of more than 16 types.
fn type_alias_base(kind: &TypeKind) -> Option<&'static str> {
    match kind {
        TypeKind::Tuple(ts) if ts.len() > 16 => Some("tuple"),
        _ => None,
    }
}

/// Whether an attribute kind is aliased whenever it is printed (locations are only
/// visited when locations are printed), so that printing can skip the collecting
/// walk for IR that has none.
pub fn always_aliased(kind: &AttrKind) -> bool {
    matches!(kind, AttrKind::AffineMap(_) | AttrKind::IntegerSet(_))
}

/// Whether a type kind is aliased whenever it is printed (see [`always_aliased`]).
pub fn type_always_aliased(kind: &TypeKind) -> bool {
    type_alias_base(kind).is_some()
}

/// An attribute or a type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Sym {
    Attr(Attr),
    Type(Type),
}

struct Node {
    sym: Sym,
    base: Option<&'static str>,
    /// MLIR's alias depth: 1 for an aliased value with nothing aliased inside, one
    /// more than its deepest child for a value with aliases inside, 0 otherwise.
    depth: u32,
    deferrable: bool,
    children: Vec<u32>,
}

/// Collects the attributes and types the printer would print, in printing order
/// (MLIR's `AliasInitializer`).
pub struct AliasCollector<'u> {
    u: &'u Uniquer,
    /// Node of each attribute and type id seen (`u32::MAX`: none yet).
    attr_nodes: Vec<u32>,
    type_nodes: Vec<u32>,
    nodes: Vec<Node>,
}

impl<'u> AliasCollector<'u> {
    /// An empty collector.
    pub fn new(u: &'u Uniquer) -> Self {
        AliasCollector {
            u,
            attr_nodes: Vec::new(),
            type_nodes: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// Record a use of `a`; `deferrable` for op locations, whose aliases may be
    /// defined after the module. Returns the node of `a`.
    pub fn visit_attr(&mut self, a: Attr, deferrable: bool) -> u32 {
        let sym = Sym::Attr(a);
        if let Some(&n) = self
            .attr_nodes
            .get(a.0 as usize)
            .filter(|n| **n != u32::MAX)
        {
            if !deferrable {
                self.mark_non_deferrable(n);
            }
            return n;
        }
        let u = self.u;
        let kind = u.attr_kind(a);
        let n = self.push(sym, alias_base(kind), deferrable);
        let mut children = Vec::new();
        match kind {
            AttrKind::Array(xs) => {
                for x in xs.iter() {
                    children.push(self.visit_attr(*x, deferrable));
                }
            }
            AttrKind::Dict(entries) => {
                for (_, v) in entries.iter() {
                    children.push(self.visit_attr(*v, deferrable));
                }
            }
            AttrKind::Type(t)
            | AttrKind::DenseElements { ty: t, .. }
            | AttrKind::DenseResource { ty: t, .. }
            | AttrKind::String { ty: Some(t), .. } => {
                children.push(self.visit_type_in(*t, deferrable))
            }
            AttrKind::Location(l) => match l {
                LocKind::Name { child: Some(c), .. }
                    if !matches!(u.attr_kind(*c), AttrKind::Location(LocKind::Unknown)) =>
                {
                    children.push(self.visit_attr(*c, deferrable))
                }
                LocKind::CallSite { callee, caller } => {
                    children.push(self.visit_attr(*callee, deferrable));
                    children.push(self.visit_attr(*caller, deferrable));
                }
                LocKind::Fused { metadata, locs } => {
                    if let Some(m) = metadata {
                        children.push(self.visit_attr(*m, deferrable));
                    }
                    for l in locs.iter() {
                        children.push(self.visit_attr(*l, deferrable));
                    }
                }
                _ => {}
            },
            _ => {}
        }
        self.finish_node(n, children);
        n
    }

    /// Record a use of type `t` (its layouts, encodings and nested types).
    pub fn visit_type(&mut self, t: Type) -> u32 {
        self.visit_type_in(t, false)
    }

    fn visit_type_in(&mut self, t: Type, deferrable: bool) -> u32 {
        let sym = Sym::Type(t);
        if let Some(&n) = self
            .type_nodes
            .get(t.0 as usize)
            .filter(|n| **n != u32::MAX)
        {
            if !deferrable {
                self.mark_non_deferrable(n);
            }
            return n;
        }
        let kind = self.u.type_kind(t);
        let n = self.push(sym, type_alias_base(kind), deferrable);
        let mut children = Vec::new();
        match kind {
            TypeKind::Tensor { elem, encoding, .. } => {
                children.push(self.visit_type_in(*elem, deferrable));
                if let Some(e) = encoding {
                    children.push(self.visit_attr(*e, deferrable));
                }
            }
            TypeKind::MemRef {
                elem,
                layout,
                memory_space,
                ..
            } => {
                children.push(self.visit_type_in(*elem, deferrable));
                // MLIR visits the layout unless it is the identity map.
                let layout = layout.filter(
                    |l| !matches!(self.u.attr_kind(*l), AttrKind::AffineMap(m) if m.is_identity()),
                );
                for a in [layout, *memory_space].into_iter().flatten() {
                    children.push(self.visit_attr(a, deferrable));
                }
            }
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                children.push(self.visit_type_in(*elem, deferrable));
                if let Some(m) = memory_space {
                    children.push(self.visit_attr(*m, deferrable));
                }
            }
            TypeKind::Complex(e) | TypeKind::UnrankedTensor(e) => {
                children.push(self.visit_type_in(*e, deferrable))
            }
            TypeKind::Vector { elem, .. } => children.push(self.visit_type_in(*elem, deferrable)),
            TypeKind::Tuple(ts) => {
                for t in ts.iter() {
                    children.push(self.visit_type_in(*t, deferrable));
                }
            }
            TypeKind::Function { inputs, results } => {
                for t in inputs.iter().chain(results.iter()) {
                    children.push(self.visit_type_in(*t, deferrable));
                }
            }
            _ => {}
        }
        self.finish_node(n, children);
        n
    }

    fn push(&mut self, sym: Sym, base: Option<&'static str>, deferrable: bool) -> u32 {
        let n = self.nodes.len() as u32;
        self.nodes.push(Node {
            sym,
            base,
            depth: u32::from(base.is_some()),
            deferrable,
            children: Vec::new(),
        });
        let (ids, i) = match sym {
            Sym::Attr(a) => (&mut self.attr_nodes, a.0 as usize),
            Sym::Type(t) => (&mut self.type_nodes, t.0 as usize),
        };
        if ids.len() <= i {
            ids.resize(i + 1, u32::MAX);
        }
        ids[i] = n;
        n
    }

    fn finish_node(&mut self, n: u32, children: Vec<u32>) {
        let inner = children
            .iter()
            .map(|c| self.nodes[*c as usize].depth)
            .max()
            .unwrap_or(0);
        let node = &mut self.nodes[n as usize];
        if inner > 0 {
            node.depth = inner + 1;
        }
        node.children = children;
    }

    /// A use outside op locations: the alias (and those inside it) must be defined
    /// before the module.
    fn mark_non_deferrable(&mut self, n: u32) {
        let mut stack = vec![n];
        while let Some(n) = stack.pop() {
            let node = &mut self.nodes[n as usize];
            if !node.deferrable {
                continue;
            }
            node.deferrable = false;
            stack.extend(node.children.iter().copied());
        }
    }

    /// Order and name the aliases: by depth, types before attributes, then name,
    /// then first use; numbered per name.
    pub fn finish(self) -> AliasTable {
        let mut aliased: Vec<&Node> = self.nodes.iter().filter(|n| n.base.is_some()).collect();
        // Stable: first use decides among equals.
        aliased.sort_by_key(|n| (n.depth, !matches!(n.sym, Sym::Type(_)), n.base));
        let mut counts: HashMap<&'static str, u32> = HashMap::new();
        let mut table = AliasTable::default();
        for n in aliased {
            let base = n.base.expect("aliased");
            let c = counts.entry(base).or_insert(0);
            let name = if *c == 0 {
                base.to_string()
            } else {
                format!("{base}{c}")
            };
            *c += 1;
            match n.sym {
                Sym::Attr(a) => {
                    table.names.insert(a, name);
                }
                Sym::Type(t) => {
                    table.type_names.insert(t, name);
                }
            }
            table.order.push((n.sym, n.deferrable));
        }
        table
    }
}

/// Aliases chosen for one printed module.
#[derive(Default)]
pub struct AliasTable {
    names: HashMap<Attr, String, FxBuild>,
    type_names: HashMap<Type, String, FxBuild>,
    order: Vec<(Sym, bool)>,
}

impl AliasLookup for AliasTable {
    fn alias(&self, a: Attr) -> Option<&str> {
        self.names.get(&a).map(String::as_str)
    }
    fn type_alias(&self, t: Type) -> Option<&str> {
        self.type_names.get(&t).map(String::as_str)
    }
}

impl AliasTable {
    /// Whether no attribute got an alias.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Append `#name = definition` lines: those printed before the module
    /// (`deferred == false`) or after it.
    pub fn write_definitions(&self, u: &Uniquer, deferred: bool, out: &mut String) {
        let p = Pr {
            u,
            aliases: Some(self),
        };
        for &(sym, d) in &self.order {
            if d != deferred {
                continue;
            }
            match sym {
                Sym::Attr(a) => {
                    out.push('#');
                    out.push_str(&self.names[&a]);
                    out.push_str(" = ");
                    write_alias_definition(p, a, out);
                }
                Sym::Type(t) => {
                    out.push('!');
                    out.push_str(&self.type_names[&t]);
                    out.push_str(" = ");
                    write_type_definition(p, t, out);
                }
            }
            out.push('\n');
        }
    }
}
