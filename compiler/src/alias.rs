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
use crate::printer::{AliasLookup, Pr, write_alias_definition};
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

/// Whether an attribute kind is aliased whenever it is printed (locations are only
/// visited when locations are printed), so that printing can skip the collecting
/// walk for IR that has none.
pub fn always_aliased(kind: &AttrKind) -> bool {
    matches!(kind, AttrKind::AffineMap(_) | AttrKind::IntegerSet(_))
}

struct Node {
    attr: Attr,
    base: Option<&'static str>,
    depth: u32,
    deferrable: bool,
    children: Vec<u32>,
}

/// Collects the attributes the printer would print, in printing order.
pub struct AliasCollector<'u> {
    u: &'u Uniquer,
    attrs: HashMap<Attr, u32, FxBuild>,
    types: HashMap<Type, (u32, Vec<u32>), FxBuild>,
    nodes: Vec<Node>,
}

impl<'u> AliasCollector<'u> {
    /// An empty collector.
    pub fn new(u: &'u Uniquer) -> Self {
        AliasCollector {
            u,
            attrs: HashMap::default(),
            types: HashMap::default(),
            nodes: Vec::new(),
        }
    }

    /// Record a use of `a`; `deferrable` for op locations, whose aliases may be
    /// defined after the module. Returns the node of `a`.
    pub fn visit_attr(&mut self, a: Attr, deferrable: bool) -> u32 {
        if let Some(&n) = self.attrs.get(&a) {
            if !deferrable {
                self.mark_non_deferrable(n);
            }
            return n;
        }
        let u = self.u;
        let kind = u.attr_kind(a);
        let n = self.nodes.len() as u32;
        self.nodes.push(Node {
            attr: a,
            base: alias_base(kind),
            depth: 0,
            deferrable,
            children: Vec::new(),
        });
        self.attrs.insert(a, n);
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
            AttrKind::Type(t) | AttrKind::DenseElements { ty: t, .. } => {
                children.extend(self.visit_type(*t))
            }
            AttrKind::Location(l) => match l {
                LocKind::Name { child: Some(c), .. } => {
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
        let inner = children
            .iter()
            .map(|c| self.nodes[*c as usize].depth)
            .max()
            .unwrap_or(0);
        let node = &mut self.nodes[n as usize];
        node.depth = if node.base.is_some() {
            inner + 1
        } else {
            inner
        };
        node.children = children;
        n
    }

    /// Record a use of type `t` (its layouts, encodings and nested types); returns
    /// the nodes of the attributes directly inside it.
    pub fn visit_type(&mut self, t: Type) -> Vec<u32> {
        if let Some((_, children)) = self.types.get(&t) {
            let children = children.clone();
            for c in &children {
                self.mark_non_deferrable(*c);
            }
            return children;
        }
        let mut children = Vec::new();
        match self.u.type_kind(t) {
            TypeKind::Tensor { elem, encoding, .. } => {
                children.extend(self.visit_type(*elem));
                if let Some(e) = encoding {
                    children.push(self.visit_attr(*e, false));
                }
            }
            TypeKind::MemRef {
                elem,
                layout,
                memory_space,
                ..
            } => {
                children.extend(self.visit_type(*elem));
                for a in [layout, memory_space].into_iter().flatten() {
                    children.push(self.visit_attr(*a, false));
                }
            }
            TypeKind::UnrankedMemRef { elem, memory_space } => {
                children.extend(self.visit_type(*elem));
                if let Some(m) = memory_space {
                    children.push(self.visit_attr(*m, false));
                }
            }
            TypeKind::Complex(e) | TypeKind::UnrankedTensor(e) => {
                children.extend(self.visit_type(*e))
            }
            TypeKind::Vector { elem, .. } => children.extend(self.visit_type(*elem)),
            TypeKind::Tuple(ts) => {
                for t in ts.iter() {
                    children.extend(self.visit_type(*t));
                }
            }
            TypeKind::Function { inputs, results } => {
                for t in inputs.iter().chain(results.iter()) {
                    children.extend(self.visit_type(*t));
                }
            }
            _ => {}
        }
        self.types.insert(t, (0, children.clone()));
        children
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

    /// Order and name the aliases.
    pub fn finish(self) -> AliasTable {
        let mut aliased: Vec<&Node> = self.nodes.iter().filter(|n| n.base.is_some()).collect();
        // Stable: first use decides among equals.
        aliased.sort_by(|a, b| (a.depth, a.base).cmp(&(b.depth, b.base)));
        let mut counts: HashMap<&'static str, u32> = HashMap::new();
        let mut names = HashMap::default();
        let mut order = Vec::with_capacity(aliased.len());
        for n in aliased {
            let base = n.base.expect("aliased");
            let c = counts.entry(base).or_insert(0);
            let name = if *c == 0 {
                base.to_string()
            } else {
                format!("{base}{c}")
            };
            *c += 1;
            names.insert(n.attr, name);
            order.push((n.attr, n.deferrable));
        }
        AliasTable { names, order }
    }
}

/// Aliases chosen for one printed module.
#[derive(Default)]
pub struct AliasTable {
    names: HashMap<Attr, String, FxBuild>,
    order: Vec<(Attr, bool)>,
}

impl AliasLookup for AliasTable {
    fn alias(&self, a: Attr) -> Option<&str> {
        self.names.get(&a).map(String::as_str)
    }
}

impl AliasTable {
    /// Whether no attribute got an alias.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Append `#name = definition` lines: those printed before the module
    /// (`deferred == false`) or after it.
    pub fn write_definitions(&self, u: &Uniquer, deferred: bool, out: &mut String) {
        let p = Pr {
            u,
            aliases: Some(self),
        };
        for &(a, d) in &self.order {
            if d != deferred {
                continue;
            }
            out.push('#');
            out.push_str(&self.names[&a]);
            out.push_str(" = ");
            write_alias_definition(p, a, out);
            out.push('\n');
        }
    }
}
