//! Dialect conversion: rewrite the ops a [`ConversionTarget`] calls illegal with
//! [`ConversionPattern`]s, converting types with a [`TypeConverter`].
//!
//! Patterns see their op's operands already remapped to the converted values (MLIR's
//! "adaptor"), and replace an op with values of converted types; where an
//! unconverted user still needs the original type, a source materialisation is
//! inserted (by default `builtin.unrealized_conversion_cast`, as MLIR does). Casts
//! that cancel out are folded away at the end. Every op the target does not call
//! legal is offered to the patterns (as in MLIR); a partial conversion fails when
//! an illegal op is left, a full conversion also when an op of unknown legality
//! is. Patterns are usually written against a typed handle ([`OpConversion`]) and
//! build their replacement with typed builders through
//! [`ConversionRewriter::before`].
//! When an op cannot be legalised the conversion fails with a diagnostic naming
//! it and the IR is rolled back to what it was before, as in MLIR (here by
//! restoring a copy of the root's regions taken at the start).
//!
//! A lowering that builds its result out of place and maps one value to many
//! (MLIR's 1:N conversions, `replaceOpWithMultiple` and adaptors with a value
//! range per operand) writes into a lowering state instead: [`Lowerings`] is a
//! table of [`Lowering`]s rooted at op kinds (usually [`OpLowering<H, S>`], a
//! function of the state `S` and the op's typed handle), tried by decreasing
//! benefit until one applies (`Ok(true)`); `S` is where ops are built (an
//! [`ir::Build`](crate::ir::Build)) and holds what the lowering shares: how each
//! original value lowered (to several values, and how they are laid out) and the
//! analyses that choose between an op's lowerings. `tile-to-gpu` is one: a tile
//! value becomes a thread's array, a shared view or fragments, and a planned
//! gemm, transfer or loop has a lowering of higher benefit that declines where
//! the plan does not apply.

use crate::diagnostics::{Diagnostic, Where};
use crate::intern::FxBuild;
use crate::ir::{Context, InsertPoint, Op, OpState, Value, ValueDef, WalkOrder};
use crate::types::Type;
use std::collections::{HashMap, HashSet};

/// Whether an op is legal.
#[derive(Clone, Copy)]
pub enum Legality {
    /// Always legal.
    Legal,
    /// Always illegal: must be converted.
    Illegal,
    /// Decided per op: `Some(legal)`, or `None` where the target says nothing
    /// about it (MLIR's dynamic legality callbacks returning `std::nullopt`).
    Dynamic(fn(&Context, Op) -> Option<bool>),
}

/// Which ops may remain after a conversion.
#[derive(Default)]
pub struct ConversionTarget {
    ops: HashMap<String, Legality>,
    dialects: HashMap<String, Legality>,
}

impl ConversionTarget {
    /// An empty target (every op of unknown legality).
    pub fn new() -> Self {
        Self::default()
    }
    /// Set the legality of an op by name.
    pub fn op(&mut self, name: &str, l: Legality) -> &mut Self {
        self.ops.insert(name.to_string(), l);
        self
    }
    /// Set the legality of the op kind of handle `H`.
    pub fn op_kind<H: crate::op_def::OpHandle>(&mut self, l: Legality) -> &mut Self {
        self.op(H::SPEC.name, l)
    }
    /// Set the legality of every op of a dialect (an op's own setting wins).
    pub fn dialect(&mut self, name: &str, l: Legality) -> &mut Self {
        self.dialects.insert(name.to_string(), l);
        self
    }
    /// `Some(legal)`, or `None` when the target says nothing about the op.
    pub fn is_legal(&self, ctx: &Context, op: Op) -> Option<bool> {
        let name = ctx.op_name(op);
        let dialect = name.split('.').next().unwrap_or(name);
        let l = self.ops.get(name).or_else(|| self.dialects.get(dialect))?;
        match l {
            Legality::Legal => Some(true),
            Legality::Illegal => Some(false),
            Legality::Dynamic(f) => f(ctx, op),
        }
    }
}

/// One type conversion rule: `Some(t2)` when it applies.
pub type TypeRule = fn(&Context, Type) -> Option<Type>;

/// Converts types; rules added later are tried first, as in MLIR. A type no rule
/// converts is kept.
#[derive(Default)]
pub struct TypeConverter {
    rules: Vec<TypeRule>,
}

impl TypeConverter {
    /// A converter that keeps every type.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a rule.
    pub fn add(&mut self, rule: TypeRule) -> &mut Self {
        self.rules.push(rule);
        self
    }
    /// The converted type.
    pub fn convert(&self, ctx: &Context, t: Type) -> Type {
        self.rules.iter().rev().find_map(|r| r(ctx, t)).unwrap_or(t)
    }
}

/// A rewrite of one op into legal ops.
pub trait ConversionPattern: Send + Sync {
    /// Op name the pattern converts, `None` for any op.
    fn root(&self) -> Option<&'static str>;
    /// Higher benefit is tried first.
    fn benefit(&self) -> u16 {
        1
    }
    /// Convert `op`, whose operands remapped to converted values are `operands`;
    /// `true` when it replaced or erased the op through `rw`.
    fn match_and_rewrite(
        &self,
        rw: &mut ConversionRewriter<'_>,
        op: Op,
        operands: &[Value],
    ) -> bool;
}

/// A conversion pattern rooted at one op kind, written as a function of its
/// typed handle and its remapped operands.
pub struct OpConversion<H> {
    /// Name, for debugging and documentation.
    pub name: &'static str,
    /// Benefit.
    pub benefit: u16,
    /// The conversion: `true` when it replaced or erased the op.
    pub apply: fn(&mut ConversionRewriter<'_>, H, &[Value]) -> bool,
}

impl<H> OpConversion<H> {
    /// A pattern of benefit 1.
    pub const fn new(
        name: &'static str,
        apply: fn(&mut ConversionRewriter<'_>, H, &[Value]) -> bool,
    ) -> Self {
        OpConversion {
            name,
            benefit: 1,
            apply,
        }
    }
}

impl<H: crate::op_def::OpHandle + Send + Sync> ConversionPattern for OpConversion<H> {
    fn root(&self) -> Option<&'static str> {
        Some(H::SPEC.name)
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn match_and_rewrite(
        &self,
        rw: &mut ConversionRewriter<'_>,
        op: Op,
        operands: &[Value],
    ) -> bool {
        (self.apply)(rw, H::wrap(op), operands)
    }
}

/// A [`Build`](crate::ir::Build) that creates ops through a
/// [`ConversionRewriter`] before an op, with that op's location.
pub struct ConversionBuilder<'r, 'c> {
    /// The rewriter.
    pub rw: &'r mut ConversionRewriter<'c>,
    before: Op,
}

impl crate::ir::Build for ConversionBuilder<'_, '_> {
    fn context(&self) -> &Context {
        self.rw.ctx
    }
    fn location(&self) -> crate::attributes::Attr {
        self.rw.ctx.op(self.before).loc
    }
    fn insert_state(&mut self, st: OpState) -> Op {
        self.rw.create_before(self.before, st)
    }
}

/// Edits the IR for conversion patterns.
pub struct ConversionRewriter<'c> {
    /// The IR.
    pub ctx: &'c mut Context,
    /// The type converter in use.
    pub types: &'c TypeConverter,
    casts: &'c mut HashSet<Op>,
    done: bool,
}

impl<'c> ConversionRewriter<'c> {
    /// A builder that creates ops before `op` through this rewriter.
    pub fn before(&mut self, op: Op) -> ConversionBuilder<'_, 'c> {
        ConversionBuilder {
            rw: self,
            before: op,
        }
    }
}

impl ConversionRewriter<'_> {
    /// Create an op before `before`.
    pub fn create_before(&mut self, before: Op, st: OpState) -> Op {
        let op = self.ctx.create_op(st);
        self.ctx.insert_op(InsertPoint::Before(before), op);
        op
    }
    /// Replace `op`'s results by `new` (possibly of converted types) and erase it.
    /// Users that are not converted get a cast back to the type they expect.
    pub fn replace_op(&mut self, op: Op, new: &[Value]) {
        let results: Vec<Value> = self.ctx.results(op).collect();
        for (r, &n) in results.iter().zip(new) {
            let (from, to) = (self.ctx.value_type(n), self.ctx.value_type(*r));
            let replacement = if from == to || self.ctx.uses(*r).is_empty() {
                n
            } else {
                self.cast(op, n, to)
            };
            self.ctx.replace_all_uses(*r, replacement);
        }
        self.ctx.erase_op(op);
        self.done = true;
    }
    /// Erase `op`, whose results must be unused.
    pub fn erase_op(&mut self, op: Op) {
        self.ctx.erase_op(op);
        self.done = true;
    }
    /// A source materialisation: `value` cast to type `to`, before `at`.
    fn cast(&mut self, at: Op, value: Value, to: Type) -> Value {
        let c =
            crate::builtin::UnrealizedConversionCast::build(&mut self.before(at), &[value], &[to]);
        self.casts.insert(c.0);
        self.ctx.result(c.0, 0)
    }
}

/// Conversion patterns grouped by root, by decreasing benefit.
#[derive(Default)]
pub struct ConversionPatterns {
    by_root: HashMap<&'static str, Vec<&'static dyn ConversionPattern>, FxBuild>,
    any: Vec<&'static dyn ConversionPattern>,
}

impl ConversionPatterns {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a pattern.
    pub fn add(&mut self, p: &'static dyn ConversionPattern) -> &mut Self {
        let list = match p.root() {
            Some(r) => self.by_root.entry(r).or_default(),
            None => &mut self.any,
        };
        list.push(p);
        list.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
        self
    }
}

/// How strict a conversion is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Illegal ops must be converted; ops of unknown legality may stay.
    Partial,
    /// Every op must end up legal.
    Full,
}

/// Convert the ops nested in `root` (pre-order, parents before their bodies).
pub fn apply_conversion(
    ctx: &mut Context,
    root: Op,
    target: &ConversionTarget,
    patterns: &ConversionPatterns,
    types: &TypeConverter,
    mode: Mode,
) -> Result<(), Diagnostic> {
    let mut map = crate::ir::ValueMap::default();
    let backup = ctx.clone_op(root, &mut map);
    let result = convert_ops(ctx, root, target, patterns, types, mode);
    if result.is_err() {
        restore(ctx, root, backup);
    } else {
        ctx.erase_op(backup);
    }
    result
}

/// Put the regions and attributes of `backup` (a detached copy of `root`) back
/// into `root`, dropping what the conversion made of them.
fn restore(ctx: &mut Context, root: Op, backup: Op) {
    let regions: Vec<_> = ctx
        .regions(root)
        .iter()
        .copied()
        .zip(ctx.regions(backup).iter().copied())
        .collect();
    for (r, b) in regions {
        let blocks: Vec<_> = ctx.region_blocks(r).collect();
        ctx.erase_blocks(&blocks);
        ctx.move_region_blocks(b, r);
    }
    let (attrs, props) = (ctx.op(backup).attrs.clone(), ctx.op(backup).props);
    ctx.op_mut(root).attrs = attrs;
    ctx.op_mut(root).props = props;
    ctx.erase_op(backup);
}

fn convert_ops(
    ctx: &mut Context,
    root: Op,
    target: &ConversionTarget,
    patterns: &ConversionPatterns,
    types: &TypeConverter,
    mode: Mode,
) -> Result<(), Diagnostic> {
    let mut casts: HashSet<Op> = HashSet::new();
    let mut ops = Vec::new();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, o| {
        if o != root {
            ops.push(o);
        }
    });
    for op in ops {
        if ctx.is_erased(op) || casts.contains(&op) {
            continue;
        }
        let legal = target.is_legal(ctx, op);
        if legal == Some(true) {
            continue;
        }
        // Ops of unknown legality are offered to the patterns too; only a
        // full conversion requires them converted.
        let must_convert = match mode {
            Mode::Partial => legal == Some(false),
            Mode::Full => true,
        };
        // The adaptor: operands seen through the casts this conversion inserted.
        let operands: Vec<Value> = ctx
            .operands(op)
            .iter()
            .map(|&v| match ctx.value_def(v) {
                ValueDef::Result(d, 0) if casts.contains(&d) => ctx.operands(d)[0],
                _ => v,
            })
            .collect();
        let name = ctx.op_name(op).to_string();
        let candidates: Vec<&'static dyn ConversionPattern> = patterns
            .by_root
            .get(name.as_str())
            .into_iter()
            .flatten()
            .chain(patterns.any.iter())
            .copied()
            .collect();
        let mut converted = false;
        for p in candidates {
            let mut rw = ConversionRewriter {
                ctx,
                types,
                casts: &mut casts,
                done: false,
            };
            if p.match_and_rewrite(&mut rw, op, &operands) && rw.done {
                converted = true;
                break;
            }
        }
        if !converted && must_convert {
            return Err(
                Diagnostic::error(format!("failed to legalize operation '{name}'"))
                    .at_loc(ctx.op(op).loc)
                    .with_note(
                        if mode == Mode::Full {
                            "the target does not mark it legal and no pattern converted it"
                        } else {
                            "it is illegal for the target and no pattern converted it"
                        },
                        Where::Nowhere,
                    ),
            );
        }
    }
    // Casts nobody uses any more go; the rest stay for a later reconciliation.
    for c in casts {
        if !ctx.is_erased(c) && ctx.uses(ctx.result(c, 0)).is_empty() {
            ctx.erase_op(c);
        }
    }
    Ok(())
}

/// A per-op lowering into a lowering state `S` (see [`Lowerings`]).
pub trait Lowering<S> {
    /// Op name the lowering is rooted at.
    fn root(&self) -> &'static str;
    /// Higher benefit is tried first.
    fn benefit(&self) -> u16 {
        1
    }
    /// Lower `op` into `s`: `Ok(true)` when it did, `Ok(false)` when it does
    /// not apply (the next lowering of the op is tried), an error when it
    /// applies and fails.
    fn lower(&self, s: &mut S, op: Op) -> Result<bool, Diagnostic>;
}

/// A lowering rooted at one op kind, written as a function of the state and
/// the op's typed handle.
pub struct OpLowering<H, S> {
    /// Name, for debugging and documentation.
    pub name: &'static str,
    /// Benefit.
    pub benefit: u16,
    /// The lowering: `Ok(true)` when it lowered the op, `Ok(false)` when it
    /// does not apply.
    pub apply: fn(&mut S, H) -> Result<bool, Diagnostic>,
}

impl<H, S> OpLowering<H, S> {
    /// A lowering of benefit 1.
    pub const fn new(name: &'static str, apply: fn(&mut S, H) -> Result<bool, Diagnostic>) -> Self {
        OpLowering {
            name,
            benefit: 1,
            apply,
        }
    }
    /// The same lowering with benefit `benefit`.
    pub const fn with_benefit(mut self, benefit: u16) -> Self {
        self.benefit = benefit;
        self
    }
}

impl<H: crate::op_def::OpHandle, S> Lowering<S> for OpLowering<H, S> {
    fn root(&self) -> &'static str {
        H::SPEC.name
    }
    fn benefit(&self) -> u16 {
        self.benefit
    }
    fn lower(&self, s: &mut S, op: Op) -> Result<bool, Diagnostic> {
        (self.apply)(s, H::wrap(op))
    }
}

/// The lowerings of a 1:N, out-of-place conversion, grouped by root, by
/// decreasing benefit; `'p` bounds what they borrow (their state type's
/// lifetimes).
pub struct Lowerings<'p, S> {
    by_root: HashMap<&'static str, Vec<Box<dyn Lowering<S> + 'p>>, FxBuild>,
}

impl<S> Default for Lowerings<'_, S> {
    fn default() -> Self {
        Lowerings {
            by_root: HashMap::default(),
        }
    }
}

impl<'p, S: crate::ir::Build> Lowerings<'p, S> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a lowering.
    pub fn add(&mut self, l: impl Lowering<S> + 'p) -> &mut Self {
        let list = self.by_root.entry(l.root()).or_default();
        list.push(Box::new(l));
        list.sort_by_key(|l| std::cmp::Reverse(l.benefit()));
        self
    }
    /// Lower `op` into `s` with the first of its lowerings that applies;
    /// `None` when none does (the caller decides what an op no lowering
    /// takes becomes).
    pub fn lower(&self, s: &mut S, op: Op) -> Option<Result<(), Diagnostic>> {
        let list = self.by_root.get(s.context().op_name(op))?;
        for l in list {
            match l.lower(s, op) {
                Ok(true) => return Some(Ok(())),
                Ok(false) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        None
    }
}
