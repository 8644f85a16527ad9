//! The arena IR: operations, blocks, regions and values addressed by `u32` ids.
//!
//! A [`Context`] owns the arenas of one IR tree and shares a [`Uniquer`] (types,
//! attributes, identifiers) and a [`DialectRegistry`] with any other context
//! built from the same parts, so independent subtrees can be split into their own
//! contexts and processed on separate threads.

use crate::attributes::{Attr, Ident};
use crate::dialect::{DialectRegistry, OpSpec};
use crate::intern::FxBuild;
use crate::types::Type;
use smallvec::SmallVec;
use std::collections::HashMap;
use std::sync::Arc;

mod builder;
mod uniquer;
pub use builder::{Build, Builder};
pub use uniquer::Uniquer;

macro_rules! entity {
    ($($(#[$m:meta])* $name:ident;)*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(pub u32);
        impl $name {
            /// The arena index.
            pub fn index(self) -> usize { self.0 as usize }
        }
    )*};
}

entity! {
    /// An operation.
    Op;
    /// A basic block.
    Block;
    /// A region.
    Region;
    /// An SSA value: an operation result or a block argument.
    Value;
}

/// An operation's inherent name, interned (`"func.func"`).
pub type OpName = Ident;

/// The ordered attribute dictionary of an operation, kept sorted by name as MLIR does.
///
/// A small inline vector rather than a hash map: ops carry a handful of attributes,
/// for which a linear scan beats hashing, and the common case (up to two entries)
/// needs no heap allocation at all. Its methods mirror `IndexMap`'s names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttrDict(SmallVec<[(Ident, Attr); 2]>);

impl AttrDict {
    /// The value of `key`.
    pub fn get(&self, key: &Ident) -> Option<&Attr> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The value of `key`, mutably.
    pub fn get_mut(&mut self, key: &Ident) -> Option<&mut Attr> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// Whether `key` is present.
    pub fn contains_key(&self, key: &Ident) -> bool {
        self.get(key).is_some()
    }
    /// Set `key`, replacing in place or appending; returns the old value.
    pub fn insert(&mut self, key: Ident, value: Attr) -> Option<Attr> {
        match self.get_mut(&key) {
            Some(v) => Some(std::mem::replace(v, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }
    /// Insert a new `key` at position `index`.
    pub fn shift_insert(&mut self, index: usize, key: Ident, value: Attr) {
        self.0.insert(index, (key, value));
    }
    /// Remove `key`, keeping the order of the rest.
    pub fn shift_remove(&mut self, key: &Ident) -> Option<Attr> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(i).1)
    }
    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Ident, &Attr)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
    /// The keys in order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Ident> {
        self.0.iter().map(|(k, _)| k)
    }
    /// The entries as a slice.
    pub fn as_slice(&self) -> &[(Ident, Attr)] {
        &self.0
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Sort the entries with a comparator over (key, value, key, value).
    pub fn sort_unstable_by(
        &mut self,
        mut cmp: impl FnMut(&Ident, &Attr, &Ident, &Attr) -> std::cmp::Ordering,
    ) {
        self.0.sort_unstable_by(|a, b| cmp(&a.0, &a.1, &b.0, &b.1));
    }
}

impl FromIterator<(Ident, Attr)> for AttrDict {
    fn from_iter<I: IntoIterator<Item = (Ident, Attr)>>(iter: I) -> Self {
        AttrDict(iter.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a AttrDict {
    type Item = (&'a Ident, &'a Attr);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (Ident, Attr)>,
        fn(&'a (Ident, Attr)) -> (&'a Ident, &'a Attr),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

/// Where a value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result(Op, u32),
    /// Argument `index` of `block`.
    Arg(Block, u32),
    /// A forward reference made by the parser, not yet defined.
    Placeholder,
}

/// One use of a value or block: operand (or successor) `index` of `op`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Use {
    /// The user.
    pub op: Op,
    /// Operand or successor index within the user.
    pub index: u32,
}

/// Storage of a value.
#[derive(Clone, Debug)]
pub struct ValueData {
    /// The value's type.
    pub ty: Type,
    /// Its definition.
    pub def: ValueDef,
    /// Where it is used, unordered.
    pub uses: SmallVec<[Use; 2]>,
    /// Location of a block argument (results use their op's).
    pub loc: Option<Attr>,
}

/// Storage of an operation.
#[derive(Clone, Debug)]
pub struct OpData {
    /// The op name.
    pub name: OpName,
    /// The registered spec of the op, looked up once when the op is created.
    pub spec: Option<&'static OpSpec>,
    /// Operands in order.
    pub operands: SmallVec<[Value; 2]>,
    /// Where each operand's use sits in its value's use list, so that removing a
    /// use is O(1) however many uses the value has.
    use_slots: SmallVec<[u32; 2]>,
    /// First result id; results are allocated consecutively.
    pub first_result: u32,
    /// Number of results.
    pub num_results: u32,
    /// Successor blocks.
    pub successors: SmallVec<[Block; 1]>,
    /// Owned regions.
    pub regions: SmallVec<[Region; 1]>,
    /// Discardable attributes (`{...}`).
    pub attrs: AttrDict,
    /// Inherent attributes printed as properties (`<{...}>`): a dictionary attribute.
    pub props: Option<Attr>,
    /// Source location attribute.
    pub loc: Attr,
    /// Block that holds the op.
    pub parent: Option<Block>,
    prev: Option<Op>,
    next: Option<Op>,
    erased: bool,
}

/// Storage of a block.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Arguments.
    pub args: SmallVec<[Value; 2]>,
    /// Region that holds the block.
    pub parent: Option<Region>,
    first: Option<Op>,
    last: Option<Op>,
    prev: Option<Block>,
    next: Option<Block>,
    /// Uses of the block as a successor (predecessor edges).
    pub uses: SmallVec<[Use; 1]>,
}

/// Storage of a region.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    /// Op that owns the region.
    pub parent: Option<Op>,
    first: Option<Block>,
    last: Option<Block>,
}

/// Identifiers interned when a uniquer is created, so hot paths need no lookup.
pub mod known {
    use crate::attributes::Ident;
    /// `sym_name`
    pub const SYM_NAME: Ident = Ident(0);
    /// `sym_visibility`
    pub const SYM_VISIBILITY: Ident = Ident(1);
    /// `function_type`
    pub const FUNCTION_TYPE: Ident = Ident(2);
    /// `builtin.module`
    pub const MODULE: Ident = Ident(3);
    /// `arg_attrs`
    pub const ARG_ATTRS: Ident = Ident(4);
    /// `res_attrs`
    pub const RES_ATTRS: Ident = Ident(5);
    /// `callee`
    pub const CALLEE: Ident = Ident(6);
    pub(crate) const ALL: [&str; 7] = [
        "sym_name",
        "sym_visibility",
        "function_type",
        "builtin.module",
        "arg_attrs",
        "res_attrs",
        "callee",
    ];
}

/// Everything needed to create an operation.
#[derive(Clone, Debug)]
pub struct OpState {
    /// Op name.
    pub name: OpName,
    /// Operands.
    pub operands: SmallVec<[Value; 2]>,
    /// Result types.
    pub result_types: SmallVec<[Type; 2]>,
    /// Discardable attributes.
    pub attrs: AttrDict,
    /// Properties dictionary.
    pub props: Option<Attr>,
    /// Successors.
    pub successors: SmallVec<[Block; 1]>,
    /// Regions already built (by the parser), moved into the op.
    pub regions: SmallVec<[Region; 1]>,
    /// Number of additional empty regions to create.
    pub num_regions: usize,
    /// Location.
    pub loc: Attr,
}

impl OpState {
    /// A state with only a name and location.
    pub fn new(name: OpName, loc: Attr) -> Self {
        OpState {
            name,
            operands: SmallVec::new(),
            result_types: SmallVec::new(),
            attrs: AttrDict::default(),
            props: None,
            successors: SmallVec::new(),
            regions: SmallVec::new(),
            num_regions: 0,
            loc,
        }
    }
}

/// Where new operations go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InsertPoint {
    /// At the end of a block.
    End(Block),
    /// Before an op.
    Before(Op),
    /// Nowhere: ops are created detached.
    Detached,
}

/// Value and block correspondences while copying IR between contexts.
#[derive(Default)]
struct Transplant {
    values: HashMap<Value, Value, FxBuild>,
    blocks: HashMap<Block, Block, FxBuild>,
    /// Placeholders standing for values used before their definition was copied.
    pending: HashMap<Value, Value, FxBuild>,
}

/// Owner of one IR tree's arenas, sharing the uniquer and registry.
pub struct Context {
    uniq: Arc<Uniquer>,
    registry: Arc<DialectRegistry>,
    ops: Vec<OpData>,
    blocks: Vec<BlockData>,
    regions: Vec<RegionData>,
    values: Vec<ValueData>,
    /// Whether ops of unregistered dialects are accepted by the parser and verifier.
    pub allow_unregistered: bool,
    /// Optimisation remarks: which are wanted and those emitted (see
    /// [`Context::remark`]).
    pub(crate) remarks: crate::diagnostics::Remarks,
}

impl std::ops::Deref for Context {
    type Target = Uniquer;
    fn deref(&self) -> &Uniquer {
        &self.uniq
    }
}

impl Context {
    /// A fresh context over a registry.
    pub fn new(registry: Arc<DialectRegistry>) -> Self {
        Self::with_uniquer(Arc::new(Uniquer::default()), registry)
    }
    /// A context sharing the uniquer of another (for splitting work across threads).
    pub fn with_uniquer(uniq: Arc<Uniquer>, registry: Arc<DialectRegistry>) -> Self {
        Context {
            uniq,
            registry,
            ops: Vec::new(),
            blocks: Vec::new(),
            regions: Vec::new(),
            values: Vec::new(),
            allow_unregistered: false,
            remarks: Default::default(),
        }
    }
    /// The shared uniquer.
    pub fn uniquer(&self) -> &Arc<Uniquer> {
        &self.uniq
    }
    /// The dialect registry.
    pub fn registry(&self) -> &Arc<DialectRegistry> {
        &self.registry
    }
    /// Reserve arena space for roughly `ops` operations (the parser estimates from the file size).
    pub fn reserve(&mut self, ops: usize) {
        self.ops.reserve(ops);
        self.values.reserve(ops);
    }

    // ---- operations ----

    /// Create a detached operation with fresh results and empty regions.
    pub fn create_op(&mut self, st: OpState) -> Op {
        let op = Op(self.ops.len() as u32);
        let first_result = self.values.len() as u32;
        for (i, &ty) in st.result_types.iter().enumerate() {
            self.values.push(ValueData {
                ty,
                def: ValueDef::Result(op, i as u32),
                uses: SmallVec::new(),
                loc: None,
            });
        }
        let mut regions = st.regions;
        for &r in &regions {
            assert!(
                self.regions[r.index()].parent.is_none(),
                "region already has an owner"
            );
            self.regions[r.index()].parent = Some(op);
        }
        for _ in 0..st.num_regions {
            let r = Region(self.regions.len() as u32);
            self.regions.push(RegionData {
                parent: Some(op),
                ..Default::default()
            });
            regions.push(r);
        }
        let use_slots = st
            .operands
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let uses = &mut self.values[v.index()].uses;
                uses.push(Use {
                    op,
                    index: i as u32,
                });
                (uses.len() - 1) as u32
            })
            .collect();
        for (i, &b) in st.successors.iter().enumerate() {
            self.blocks[b.index()].uses.push(Use {
                op,
                index: i as u32,
            });
        }
        let spec = self.registry.lookup(st.name, &self.uniq);
        self.ops.push(OpData {
            name: st.name,
            spec,
            operands: st.operands,
            use_slots,
            first_result,
            num_results: st.result_types.len() as u32,
            successors: st.successors,
            regions,
            attrs: st.attrs,
            props: st.props,
            loc: st.loc,
            parent: None,
            prev: None,
            next: None,
            erased: false,
        });
        op
    }
    /// The storage of an op.
    pub fn op(&self, op: Op) -> &OpData {
        &self.ops[op.index()]
    }
    /// Mutable storage of an op (operand and successor lists must be changed through
    /// [`Context::set_operand`] and friends to keep use-lists right).
    pub fn op_mut(&mut self, op: Op) -> &mut OpData {
        &mut self.ops[op.index()]
    }
    /// The name of an op as text.
    pub fn op_name(&self, op: Op) -> &str {
        self.str(self.ops[op.index()].name)
    }
    /// The registered spec of an op, if its name is registered.
    pub fn op_spec(&self, op: Op) -> Option<&'static OpSpec> {
        self.ops[op.index()].spec
    }
    /// Operands of an op.
    pub fn operands(&self, op: Op) -> &[Value] {
        &self.ops[op.index()].operands
    }
    /// Results of an op.
    pub fn results(&self, op: Op) -> impl ExactSizeIterator<Item = Value> + use<> {
        let d = &self.ops[op.index()];
        (d.first_result..d.first_result + d.num_results).map(Value)
    }
    /// Result `i` of an op.
    pub fn result(&self, op: Op, i: usize) -> Value {
        let d = &self.ops[op.index()];
        assert!(i < d.num_results as usize, "result index out of range");
        Value(d.first_result + i as u32)
    }
    /// Number of results of an op.
    pub fn num_results(&self, op: Op) -> usize {
        self.ops[op.index()].num_results as usize
    }
    /// Regions of an op.
    pub fn regions(&self, op: Op) -> &[Region] {
        &self.ops[op.index()].regions
    }
    /// Successors of an op.
    pub fn successors(&self, op: Op) -> &[Block] {
        &self.ops[op.index()].successors
    }
    /// A discardable attribute by name.
    pub fn attr_of(&self, op: Op, name: Ident) -> Option<Attr> {
        self.ops[op.index()].attrs.get(&name).copied()
    }
    /// An inherent attribute (property) by name, falling back to the discardable dictionary.
    pub fn inherent_attr(&self, op: Op, name: Ident) -> Option<Attr> {
        let d = &self.ops[op.index()];
        d.props
            .and_then(|p| {
                self.dict_entries(p)
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| *v)
            })
            .or_else(|| d.attrs.get(&name).copied())
    }
    /// Set a discardable attribute, keeping the dictionary sorted by name.
    pub fn set_attr(&mut self, op: Op, name: Ident, value: Attr) {
        let uniq = self.uniq.clone();
        let attrs = &mut self.ops[op.index()].attrs;
        if let Some(v) = attrs.get_mut(&name) {
            *v = value;
            return;
        }
        let key = uniq.str(name);
        let pos = attrs
            .keys()
            .position(|k| uniq.str(*k) > key)
            .unwrap_or(attrs.len());
        attrs.shift_insert(pos, name, value);
    }
    /// Set an inherent attribute (an entry of the op's properties dictionary).
    pub fn set_inherent_attr(&mut self, op: Op, name: Ident, value: Attr) {
        let mut entries: Vec<(Ident, Attr)> = self.ops[op.index()]
            .props
            .map(|p| self.dict_entries(p).to_vec())
            .unwrap_or_default();
        match entries.iter_mut().find(|(k, _)| *k == name) {
            Some(e) => e.1 = value,
            None => entries.push((name, value)),
        }
        let dict = self.dict_attr(entries);
        self.ops[op.index()].props = Some(dict);
    }
    /// Remove an inherent attribute (a property); gives its value.
    pub fn remove_inherent_attr(&mut self, op: Op, name: Ident) -> Option<Attr> {
        let p = self.ops[op.index()].props?;
        let mut entries = self.dict_entries(p).to_vec();
        let at = entries.iter().position(|(k, _)| *k == name)?;
        let (_, v) = entries.remove(at);
        let props = (!entries.is_empty()).then(|| self.dict_attr(entries));
        self.ops[op.index()].props = props;
        Some(v)
    }
    /// Remove a discardable attribute.
    pub fn remove_attr(&mut self, op: Op, name: Ident) -> Option<Attr> {
        self.ops[op.index()].attrs.shift_remove(&name)
    }
    /// Replace operand `i` of `op`.
    pub fn set_operand(&mut self, op: Op, i: usize, v: Value) {
        self.remove_use(op, i);
        self.ops[op.index()].operands[i] = v;
        self.add_use(op, i);
    }
    /// Replace all operands of `op`.
    pub fn set_operands(&mut self, op: Op, new: &[Value]) {
        self.drop_operand_uses(op);
        self.ops[op.index()].operands = new.into();
        self.ops[op.index()].use_slots = SmallVec::from_elem(0, new.len());
        for i in 0..new.len() {
            self.add_use(op, i);
        }
    }
    /// Record operand `i` of `op` in its value's use list.
    fn add_use(&mut self, op: Op, i: usize) {
        let v = self.ops[op.index()].operands[i];
        let uses = &mut self.values[v.index()].uses;
        uses.push(Use {
            op,
            index: i as u32,
        });
        self.ops[op.index()].use_slots[i] = (uses.len() - 1) as u32;
    }
    /// Replace successor `i` of `op`.
    pub fn set_successor(&mut self, op: Op, i: usize, b: Block) {
        let old = self.ops[op.index()].successors[i];
        let u = Use {
            op,
            index: i as u32,
        };
        self.blocks[old.index()].uses.retain(|x| *x != u);
        self.ops[op.index()].successors[i] = b;
        self.blocks[b.index()].uses.push(u);
    }
    /// Take operand `i` of `op` out of its value's use list: a swap-remove, with
    /// the slot of the use moved into its place updated.
    fn remove_use(&mut self, op: Op, i: usize) {
        let v = self.ops[op.index()].operands[i];
        let slot = self.ops[op.index()].use_slots[i] as usize;
        let uses = &mut self.values[v.index()].uses;
        debug_assert_eq!(
            uses[slot],
            Use {
                op,
                index: i as u32
            }
        );
        uses.swap_remove(slot);
        if let Some(&moved) = uses.get(slot) {
            self.ops[moved.op.index()].use_slots[moved.index as usize] = slot as u32;
        }
    }
    fn drop_operand_uses(&mut self, op: Op) {
        for i in (0..self.ops[op.index()].operands.len()).rev() {
            self.remove_use(op, i);
        }
    }
    /// The block that holds `op`.
    pub fn parent_block(&self, op: Op) -> Option<Block> {
        self.ops[op.index()].parent
    }
    /// The op that (transitively) holds `op`, one level up.
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        self.block_owner(self.ops[op.index()].parent?)
    }
    /// The op whose region holds block `b`.
    pub fn block_owner(&self, b: Block) -> Option<Op> {
        self.blocks[b.index()]
            .parent
            .and_then(|r| self.regions[r.index()].parent)
    }
    /// Next op in the block.
    pub fn next_op(&self, op: Op) -> Option<Op> {
        self.ops[op.index()].next
    }
    /// Previous op in the block.
    pub fn prev_op(&self, op: Op) -> Option<Op> {
        self.ops[op.index()].prev
    }
    /// Whether `op` has been erased.
    pub fn is_erased(&self, op: Op) -> bool {
        self.ops[op.index()].erased
    }

    /// Insert a detached op at an insertion point.
    pub fn insert_op(&mut self, ip: InsertPoint, op: Op) {
        assert!(
            self.ops[op.index()].parent.is_none(),
            "op is already in a block"
        );
        match ip {
            InsertPoint::Detached => {}
            InsertPoint::End(b) => {
                let last = self.blocks[b.index()].last;
                self.ops[op.index()].prev = last;
                self.ops[op.index()].next = None;
                self.ops[op.index()].parent = Some(b);
                match last {
                    Some(l) => self.ops[l.index()].next = Some(op),
                    None => self.blocks[b.index()].first = Some(op),
                }
                self.blocks[b.index()].last = Some(op);
            }
            InsertPoint::Before(at) => {
                let b = self.ops[at.index()]
                    .parent
                    .expect("insertion point op is detached");
                let prev = self.ops[at.index()].prev;
                self.ops[op.index()].prev = prev;
                self.ops[op.index()].next = Some(at);
                self.ops[op.index()].parent = Some(b);
                self.ops[at.index()].prev = Some(op);
                match prev {
                    Some(p) => self.ops[p.index()].next = Some(op),
                    None => self.blocks[b.index()].first = Some(op),
                }
            }
        }
    }
    /// Append a detached op to a block.
    pub fn append_op(&mut self, block: Block, op: Op) {
        self.insert_op(InsertPoint::End(block), op);
    }
    /// Unlink an op from its block without destroying it.
    pub fn detach_op(&mut self, op: Op) {
        let Some(b) = self.ops[op.index()].parent else {
            return;
        };
        let (prev, next) = (self.ops[op.index()].prev, self.ops[op.index()].next);
        match prev {
            Some(p) => self.ops[p.index()].next = next,
            None => self.blocks[b.index()].first = next,
        }
        match next {
            Some(n) => self.ops[n.index()].prev = prev,
            None => self.blocks[b.index()].last = prev,
        }
        let d = &mut self.ops[op.index()];
        d.parent = None;
        d.prev = None;
        d.next = None;
    }
    /// Erase an op and everything nested in it. Its results must be unused
    /// (uses from inside the erased tree are fine).
    pub fn erase_op(&mut self, op: Op) {
        self.detach_op(op);
        let mut nested = Vec::new();
        self.walk(op, WalkOrder::PostOrder, &mut |_, o| nested.push(o));
        for &o in &nested {
            self.drop_operand_uses(o);
            let succs = std::mem::take(&mut self.ops[o.index()].successors);
            for (i, s) in succs.iter().enumerate() {
                let u = Use {
                    op: o,
                    index: i as u32,
                };
                self.blocks[s.index()].uses.retain(|x| *x != u);
            }
        }
        for &o in &nested {
            debug_assert!(
                self.results(o)
                    .all(|r| self.values[r.index()].uses.is_empty()),
                "erasing an op whose results are still used"
            );
            self.ops[o.index()].erased = true;
            self.ops[o.index()].operands.clear();
            self.ops[o.index()].use_slots.clear();
            self.ops[o.index()].attrs = AttrDict::default();
        }
    }

    // ---- values ----

    /// The type of a value.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v.index()].ty
    }
    /// Change the type of a value (used by conversions).
    pub fn set_value_type(&mut self, v: Value, ty: Type) {
        self.values[v.index()].ty = ty;
    }
    /// The definition of a value.
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v.index()].def
    }
    /// The op defining a value, if it is a result.
    pub fn defining_op(&self, v: Value) -> Option<Op> {
        match self.values[v.index()].def {
            ValueDef::Result(op, _) => Some(op),
            _ => None,
        }
    }
    /// The uses of a value.
    pub fn uses(&self, v: Value) -> &[Use] {
        &self.values[v.index()].uses
    }
    /// The storage of a value.
    pub fn value(&self, v: Value) -> &ValueData {
        &self.values[v.index()]
    }
    /// A value that is not yet defined (the parser's forward references).
    pub fn create_placeholder(&mut self, ty: Type) -> Value {
        let v = Value(self.values.len() as u32);
        self.values.push(ValueData {
            ty,
            def: ValueDef::Placeholder,
            uses: SmallVec::new(),
            loc: None,
        });
        v
    }
    /// Replace every use of `old` by `new`, in O(uses).
    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        if old == new {
            return;
        }
        let uses = std::mem::take(&mut self.values[old.index()].uses);
        let base = self.values[new.index()].uses.len();
        for (k, u) in uses.iter().enumerate() {
            let d = &mut self.ops[u.op.index()];
            d.operands[u.index as usize] = new;
            d.use_slots[u.index as usize] = (base + k) as u32;
        }
        self.values[new.index()].uses.extend(uses);
    }
    /// Replace the results of `op` by `new` values, then erase `op`.
    pub fn replace_op(&mut self, op: Op, new: &[Value]) {
        let results: Vec<Value> = self.results(op).collect();
        assert_eq!(results.len(), new.len(), "replacement arity differs");
        for (r, n) in results.into_iter().zip(new) {
            self.replace_all_uses(r, *n);
        }
        self.erase_op(op);
    }

    // ---- blocks and regions ----

    /// Create a detached block with arguments.
    pub fn create_block(&mut self, args: &[(Type, Option<Attr>)]) -> Block {
        let b = Block(self.blocks.len() as u32);
        self.blocks.push(BlockData::default());
        for &(ty, loc) in args {
            self.add_block_arg(b, ty, loc);
        }
        b
    }
    /// Append an argument to a block.
    pub fn add_block_arg(&mut self, b: Block, ty: Type, loc: Option<Attr>) -> Value {
        let v = Value(self.values.len() as u32);
        let idx = self.blocks[b.index()].args.len() as u32;
        self.values.push(ValueData {
            ty,
            def: ValueDef::Arg(b, idx),
            uses: SmallVec::new(),
            loc,
        });
        self.blocks[b.index()].args.push(v);
        v
    }
    /// The storage of a block.
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }
    /// Arguments of a block.
    pub fn block_args(&self, b: Block) -> &[Value] {
        &self.blocks[b.index()].args
    }
    /// Create a detached region (given to an op through [`OpState::regions`]).
    pub fn create_region(&mut self) -> Region {
        let r = Region(self.regions.len() as u32);
        self.regions.push(RegionData::default());
        r
    }
    /// Append a detached block to a region.
    pub fn append_block(&mut self, r: Region, b: Block) {
        assert!(
            self.blocks[b.index()].parent.is_none(),
            "block is already in a region"
        );
        let last = self.regions[r.index()].last;
        self.blocks[b.index()].prev = last;
        self.blocks[b.index()].parent = Some(r);
        match last {
            Some(l) => self.blocks[l.index()].next = Some(b),
            None => self.regions[r.index()].first = Some(b),
        }
        self.regions[r.index()].last = Some(b);
    }
    /// Erase blocks of one region together with their ops. Values they define may
    /// only be used inside these blocks (as in unreachable code), and the blocks
    /// may only be branched to from them.
    pub fn erase_blocks(&mut self, blocks: &[Block]) {
        let mut ops = Vec::new();
        for &b in blocks {
            for o in self.block_ops(b).collect::<Vec<_>>() {
                self.walk(o, WalkOrder::PreOrder, &mut |_, x| ops.push(x));
            }
        }
        // Cut every use edge first, so that erasing follows no order.
        for &o in &ops {
            self.drop_operand_uses(o);
            self.ops[o.index()].operands.clear();
            self.ops[o.index()].use_slots.clear();
            let succs = std::mem::take(&mut self.ops[o.index()].successors);
            for (i, s) in succs.iter().enumerate() {
                let u = Use {
                    op: o,
                    index: i as u32,
                };
                self.blocks[s.index()].uses.retain(|x| *x != u);
            }
        }
        for &b in blocks {
            for o in self.block_ops(b).collect::<Vec<_>>() {
                self.erase_op(o);
            }
            self.detach_block(b);
        }
    }
    /// Unlink a block from its region, keeping its ops and arguments.
    pub fn detach_block(&mut self, b: Block) {
        let Some(r) = self.blocks[b.index()].parent.take() else {
            return;
        };
        let (prev, next) = (self.blocks[b.index()].prev, self.blocks[b.index()].next);
        match prev {
            Some(p) => self.blocks[p.index()].next = next,
            None => self.regions[r.index()].first = next,
        }
        match next {
            Some(n) => self.blocks[n.index()].prev = prev,
            None => self.regions[r.index()].last = prev,
        }
        self.blocks[b.index()].prev = None;
        self.blocks[b.index()].next = None;
    }
    /// Move every block of `from` to the end of `to` (MLIR's `takeBody` when `to`
    /// is empty).
    pub fn move_region_blocks(&mut self, from: Region, to: Region) {
        let blocks: SmallVec<[Block; 4]> = self.region_blocks(from).collect();
        for b in blocks {
            self.detach_block(b);
            self.append_block(to, b);
        }
    }
    /// Move the ops of `b` to `at`, replacing uses of its arguments by `args`, and
    /// detach the emptied block (MLIR's `inlineBlockBefore` and `mergeBlocks`).
    pub fn inline_block(&mut self, b: Block, at: InsertPoint, args: &[Value]) {
        let old: SmallVec<[Value; 4]> = self.blocks[b.index()].args.iter().copied().collect();
        assert_eq!(old.len(), args.len(), "block argument count differs");
        for (o, n) in old.into_iter().zip(args) {
            self.replace_all_uses(o, *n);
        }
        let ops: Vec<Op> = self.block_ops(b).collect();
        for o in ops {
            self.detach_op(o);
            self.insert_op(at, o);
        }
        self.detach_block(b);
    }
    /// Give the last block of `r` the terminator `name` (no operands) unless it ends
    /// in a registered terminator already, creating the block if `r` has none
    /// (MLIR's `ensureTerminator` for `SingleBlockImplicitTerminator` ops).
    pub fn ensure_terminator(&mut self, r: Region, name: &str, loc: Attr) {
        let b = match self.regions[r.index()].last {
            Some(b) => b,
            None => {
                let b = self.create_block(&[]);
                self.append_block(r, b);
                b
            }
        };
        let terminated = self.last_op(b).is_some_and(|l| {
            self.op_spec(l)
                .is_some_and(|s| s.has(crate::dialect::Traits::TERMINATOR))
        });
        if !terminated {
            let st = OpState::new(self.ident(name), loc);
            let op = self.create_op(st);
            self.append_op(b, op);
        }
    }
    /// Whether `op` is `ancestor` or nested (at any depth) in one of its regions.
    pub fn is_ancestor(&self, ancestor: Op, mut op: Op) -> bool {
        loop {
            if op == ancestor {
                return true;
            }
            match self.parent_op(op) {
                Some(p) => op = p,
                None => return false,
            }
        }
    }
    /// The region that holds the definition of `v` (a block argument's block's
    /// region, or the region of the defining op's block).
    pub fn value_region(&self, v: Value) -> Option<Region> {
        let b = match self.value_def(v) {
            ValueDef::Result(op, _) => self.parent_block(op)?,
            ValueDef::Arg(b, _) => b,
            ValueDef::Placeholder => return None,
        };
        self.block_parent(b)
    }
    /// Whether `v` is defined outside `op` (not by it nor inside its regions).
    pub fn is_defined_outside(&self, v: Value, op: Op) -> bool {
        match self.value_def(v) {
            ValueDef::Result(d, _) => !self.is_ancestor(op, d),
            ValueDef::Arg(b, _) => self.block_owner(b).is_none_or(|p| !self.is_ancestor(op, p)),
            ValueDef::Placeholder => true,
        }
    }
    /// Ops of a block in order.
    pub fn block_ops(&self, b: Block) -> OpIter<'_> {
        OpIter {
            ctx: self,
            cur: self.blocks[b.index()].first,
        }
    }
    /// First op of a block.
    pub fn first_op(&self, b: Block) -> Option<Op> {
        self.blocks[b.index()].first
    }
    /// Last op of a block (its terminator, in a well-formed block).
    pub fn last_op(&self, b: Block) -> Option<Op> {
        self.blocks[b.index()].last
    }
    /// Region holding a block.
    pub fn block_parent(&self, b: Block) -> Option<Region> {
        self.blocks[b.index()].parent
    }
    /// Next block in the region.
    pub fn next_block(&self, b: Block) -> Option<Block> {
        self.blocks[b.index()].next
    }
    /// Blocks of a region in order.
    pub fn region_blocks(&self, r: Region) -> BlockIter<'_> {
        BlockIter {
            ctx: self,
            cur: self.regions[r.index()].first,
        }
    }
    /// Entry block of a region.
    pub fn entry_block(&self, r: Region) -> Option<Block> {
        self.regions[r.index()].first
    }
    /// Op owning a region.
    pub fn region_parent(&self, r: Region) -> Option<Op> {
        self.regions[r.index()].parent
    }
    /// Predecessor edges of a block.
    pub fn block_uses(&self, b: Block) -> &[Use] {
        &self.blocks[b.index()].uses
    }

    // ---- moving subtrees between contexts ----

    /// A copy of `op` and everything nested in it, alone in a fresh context that
    /// shares this one's uniquer and registry: work on it can run on another
    /// thread. Operands of `op` itself become placeholders of the same types (an
    /// isolated-from-above op's regions use nothing from outside). Linear in the
    /// size of the subtree. The copy wants the same remarks; those it records are
    /// collected with [`Context::take_remarks`].
    pub fn extract(&self, op: Op) -> (Context, Op) {
        let mut sub = Context::with_uniquer(self.uniq.clone(), self.registry.clone());
        sub.allow_unregistered = self.allow_unregistered;
        sub.remarks = self.remarks.settings();
        let d = &self.ops[op.index()];
        let mut st = OpState::new(d.name, d.loc);
        for &v in &d.operands {
            let p = sub.create_placeholder(self.value_type(v));
            st.operands.push(p);
        }
        st.result_types = self.results(op).map(|r| self.value_type(r)).collect();
        st.attrs = d.attrs.clone();
        st.props = d.props;
        st.num_regions = d.regions.len();
        let new = sub.create_op(st);
        let mut t = Transplant::default();
        for (&from, &to) in d.regions.iter().zip(&sub.ops[new.index()].regions.clone()) {
            sub.import_region(self, from, to, &mut t);
        }
        (sub, new)
    }

    /// Replace the regions, attributes and location of `op` by those of `sub_op`
    /// in `sub` (an [`Context::extract`]ed copy that was worked on).
    pub fn restore_extracted(&mut self, op: Op, sub: &Context, sub_op: Op) {
        let regions = self.ops[op.index()].regions.clone();
        for &r in &regions {
            let blocks: Vec<Block> = self.region_blocks(r).collect();
            self.erase_blocks(&blocks);
        }
        let mut t = Transplant::default();
        let from_regions = sub.ops[sub_op.index()].regions.clone();
        for (&from, &to) in from_regions.iter().zip(&regions) {
            self.import_region(sub, from, to, &mut t);
        }
        let d = &sub.ops[sub_op.index()];
        let (attrs, props, loc) = (d.attrs.clone(), d.props, d.loc);
        let o = &mut self.ops[op.index()];
        o.attrs = attrs;
        o.props = props;
        o.loc = loc;
    }

    /// Copy the blocks of region `from` of `src` into the empty region `to`.
    fn import_region(&mut self, src: &Context, from: Region, to: Region, t: &mut Transplant) {
        let blocks: Vec<Block> = src.region_blocks(from).collect();
        // Blocks first, so that branches and arguments can refer ahead.
        for &b in &blocks {
            let nb = self.create_block(&[]);
            for &a in src.block_args(b) {
                let na = self.add_block_arg(nb, src.value_type(a), src.value(a).loc);
                self.define_imported(t, a, na);
            }
            self.append_block(to, nb);
            t.blocks.insert(b, nb);
        }
        for &b in &blocks {
            let nb = t.blocks[&b];
            for o in src.block_ops(b) {
                let n = self.import_op(src, o, t);
                self.append_op(nb, n);
            }
        }
    }

    fn import_op(&mut self, src: &Context, op: Op, t: &mut Transplant) -> Op {
        let d = &src.ops[op.index()];
        let mut st = OpState::new(d.name, d.loc);
        for &v in &d.operands {
            let nv = self.imported_value(src, v, t);
            st.operands.push(nv);
        }
        st.result_types = src.results(op).map(|r| src.value_type(r)).collect();
        st.attrs = d.attrs.clone();
        st.props = d.props;
        st.successors = d.successors.iter().map(|b| t.blocks[b]).collect();
        st.num_regions = d.regions.len();
        let new = self.create_op(st);
        for (i, r) in src.results(op).enumerate() {
            let nr = self.result(new, i);
            self.define_imported(t, r, nr);
        }
        let new_regions = self.ops[new.index()].regions.clone();
        for (&from, &to) in d.regions.iter().zip(&new_regions) {
            self.import_region(src, from, to, t);
        }
        new
    }

    /// The copy of `v`, or a placeholder until its definition is copied (a use
    /// in a block listed before its dominating definition).
    fn imported_value(&mut self, src: &Context, v: Value, t: &mut Transplant) -> Value {
        if let Some(&n) = t.values.get(&v) {
            return n;
        }
        let p = self.create_placeholder(src.value_type(v));
        t.values.insert(v, p);
        t.pending.insert(v, p);
        p
    }

    fn define_imported(&mut self, t: &mut Transplant, old: Value, new: Value) {
        if let Some(p) = t.pending.remove(&old) {
            self.replace_all_uses(p, new);
        }
        t.values.insert(old, new);
    }

    // ---- walking ----

    /// Visit `root` and every op nested in it, without recursion (IR may nest deeply).
    /// The callback gets the nesting depth relative to `root`.
    pub fn walk(&self, root: Op, order: WalkOrder, f: &mut dyn FnMut(usize, Op)) {
        enum Item {
            Enter(Op, usize),
            Exit(Op, usize),
        }
        let mut stack = vec![Item::Enter(root, 0)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Exit(op, d) => f(d, op),
                Item::Enter(op, d) => {
                    if order == WalkOrder::PreOrder {
                        f(d, op);
                    } else {
                        stack.push(Item::Exit(op, d));
                    }
                    // Push children in reverse so they are visited in order.
                    let mark = stack.len();
                    for &r in &self.ops[op.index()].regions {
                        for b in self.region_blocks(r) {
                            for o in self.block_ops(b) {
                                stack.push(Item::Enter(o, d + 1));
                            }
                        }
                    }
                    stack[mark..].reverse();
                }
            }
        }
    }

    /// Clone an op (and its regions) with `map` translating operands and successors;
    /// values defined inside the clone are added to `map`.
    pub fn clone_op(&mut self, op: Op, map: &mut ValueMap) -> Op {
        let d = self.ops[op.index()].clone();
        let mut st = OpState::new(d.name, d.loc);
        st.operands = d.operands.iter().map(|v| map.value(*v)).collect();
        st.result_types = self
            .results(op)
            .map(|r| self.values[r.index()].ty)
            .collect();
        st.attrs = d.attrs.clone();
        st.props = d.props;
        st.successors = d.successors.iter().map(|b| map.block(*b)).collect();
        st.num_regions = d.regions.len();
        let new = self.create_op(st);
        for (i, r) in self.results(op).enumerate() {
            let nr = self.result(new, i);
            map.values.insert(r, nr);
        }
        let new_regions = self.ops[new.index()].regions.clone();
        for (r, nr) in d.regions.iter().zip(new_regions) {
            self.clone_region_into(*r, nr, map);
        }
        new
    }

    /// Clone the blocks of `from` into the empty region `to`.
    pub fn clone_region_into(&mut self, from: Region, to: Region, map: &mut ValueMap) {
        let blocks: Vec<Block> = self.region_blocks(from).collect();
        // Create every block first so branches to later blocks resolve.
        for &b in &blocks {
            let args: Vec<(Type, Option<Attr>)> = self.blocks[b.index()]
                .args
                .iter()
                .map(|a| (self.values[a.index()].ty, self.values[a.index()].loc))
                .collect();
            let nb = self.create_block(&args);
            for (a, na) in self.blocks[b.index()]
                .args
                .clone()
                .into_iter()
                .zip(self.blocks[nb.index()].args.clone())
            {
                map.values.insert(a, na);
            }
            map.blocks.insert(b, nb);
            self.append_block(to, nb);
        }
        for &b in &blocks {
            let nb = map.block(b);
            let ops: Vec<Op> = self.block_ops(b).collect();
            for o in ops {
                let no = self.clone_op(o, map);
                self.append_op(nb, no);
            }
        }
    }

    /// Number of ops ever created (including erased ones).
    pub fn num_ops_allocated(&self) -> usize {
        self.ops.len()
    }

    /// Replace op and block-argument locations by `map` (the parser's placeholders for
    /// location aliases defined after their use).
    pub fn remap_locations(&mut self, map: &std::collections::HashMap<Attr, Attr, FxBuild>) {
        for o in &mut self.ops {
            if let Some(&l) = map.get(&o.loc) {
                o.loc = l;
            }
        }
        for v in &mut self.values {
            if let Some(l) = v.loc.and_then(|l| map.get(&l)) {
                v.loc = Some(*l);
            }
        }
    }

    /// Number of blocks ever created, for side tables indexed by block.
    pub fn num_blocks_allocated(&self) -> usize {
        self.blocks.len()
    }
}

/// Traversal order of [`Context::walk`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WalkOrder {
    /// Parents before children.
    PreOrder,
    /// Children before parents.
    PostOrder,
}

/// Value and block translation used when cloning.
#[derive(Default, Debug)]
pub struct ValueMap {
    /// Value translation.
    pub values: std::collections::HashMap<Value, Value, FxBuild>,
    /// Block translation.
    pub blocks: std::collections::HashMap<Block, Block, FxBuild>,
}

impl ValueMap {
    /// Translate a value (unmapped values map to themselves).
    pub fn value(&self, v: Value) -> Value {
        self.values.get(&v).copied().unwrap_or(v)
    }
    /// Translate a block (unmapped blocks map to themselves).
    pub fn block(&self, b: Block) -> Block {
        self.blocks.get(&b).copied().unwrap_or(b)
    }
}

/// Iterator over the ops of a block.
pub struct OpIter<'a> {
    ctx: &'a Context,
    cur: Option<Op>,
}

impl Iterator for OpIter<'_> {
    type Item = Op;
    fn next(&mut self) -> Option<Op> {
        let c = self.cur?;
        self.cur = self.ctx.ops[c.index()].next;
        Some(c)
    }
}

/// Iterator over the blocks of a region.
pub struct BlockIter<'a> {
    ctx: &'a Context,
    cur: Option<Block>,
}

impl Iterator for BlockIter<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        let c = self.cur?;
        self.cur = self.ctx.blocks[c.index()].next;
        Some(c)
    }
}
