//! The IR verifier: structure, op specs, traits, SSA dominance, isolation, symbol
//! tables and per-op hooks, with MLIR's diagnostics.
//!
//! It walks the IR with an explicit work stack (no recursion, so nesting depth is
//! bounded by memory, not the thread's stack) and checks each use once: a use in the
//! defining block compares two positions from a side table, a use across blocks asks
//! a dominator tree built on demand for that region only, so verifying is linear in
//! the size of the IR. It stops at the first failure, as MLIR's verifier does.

use crate::diagnostics::{Diagnostic, Where};
use crate::dialect::{Arity, BranchPoint, OpSpec, RegionBranch, Traits, ValueSpec, satisfies};
use crate::intern::FxBuild;
use crate::ir::{Block, Context, Op, Region, Value, ValueDef, known};
use crate::printer::type_text;
use crate::symbol;
use std::collections::HashMap;
use std::fmt::Display;

type R<T> = Result<T, Diagnostic>;

/// Verify `root` and everything nested in it; the first failure comes back as a
/// diagnostic (with notes pointing at related ops) located at the offending op.
pub fn verify(ctx: &Context, root: Op) -> Result<(), Diagnostic> {
    Verifier {
        ctx,
        order: vec![0; ctx.num_ops_allocated()],
        rpo: vec![UNREACHABLE; ctx.num_blocks_allocated()],
        doms: HashMap::default(),
        symbols: symbol::SymbolTables::default(),
    }
    .run(root)
}

/// `'name' op message` at the op's location: MLIR's `emitOpError`.
pub fn op_error(ctx: &Context, op: Op, msg: impl Display) -> Diagnostic {
    Diagnostic::error(format!("'{}' op {msg}", ctx.op_name(op))).at_loc(ctx.op(op).loc)
}

/// A type as MLIR streams it into a diagnostic: quoted (`'i32'`).
pub fn quoted_type(ctx: &Context, t: crate::types::Type) -> String {
    format!("'{}'", type_text(ctx.uniquer(), t))
}

/// Types as MLIR streams a type range into a diagnostic: `'i32', 'f32'`.
pub fn quoted_types(ctx: &Context, ts: &[crate::types::Type]) -> String {
    ts.iter()
        .map(|t| quoted_type(ctx, *t))
        .collect::<Vec<_>>()
        .join(", ")
}

const UNREACHABLE: u32 = u32::MAX;

/// Immediate dominators of one region's reachable blocks, by reverse-postorder number.
struct DomTree {
    idom: Vec<u32>,
}

struct Verifier<'c> {
    ctx: &'c Context,
    /// Position of each op within its block (larger is later); filled for a block's
    /// ops when its parent op is entered, before any of them is checked.
    order: Vec<u32>,
    /// Reverse-postorder number of each block in its region (for regions with a
    /// dominator tree), `UNREACHABLE` for blocks not reachable from the entry.
    rpo: Vec<u32>,
    doms: HashMap<Region, DomTree, FxBuild>,
    /// Symbol tables indexed on first use by ops' symbol-use checks (the IR does
    /// not change while it is verified).
    symbols: symbol::SymbolTables,
}

enum Item {
    Enter(Op),
    Exit(Op),
}

impl Verifier<'_> {
    fn run(&mut self, root: Op) -> R<()> {
        let ctx = self.ctx;
        let mut stack = vec![Item::Enter(root)];
        while let Some(item) = stack.pop() {
            let op = match item {
                Item::Exit(op) => {
                    self.on_exit(op)?;
                    continue;
                }
                Item::Enter(op) => op,
            };
            self.on_entrance(op, op != root)?;
            stack.push(Item::Exit(op));
            for &r in ctx.regions(op).iter().rev() {
                let blocks: smallvec::SmallVec<[Block; 4]> = ctx.region_blocks(r).collect();
                for &b in blocks.iter().rev() {
                    // Number from the end so that ops can be pushed in reverse.
                    let mut cur = ctx.last_op(b);
                    let mut n = u32::MAX;
                    while let Some(o) = cur {
                        self.order[o.index()] = n;
                        n -= 1;
                        stack.push(Item::Enter(o));
                        cur = ctx.prev_op(o);
                    }
                }
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ entrance

    fn on_entrance(&mut self, op: Op, check_uses: bool) -> R<()> {
        let ctx = self.ctx;
        match ctx.op_spec(op) {
            Some(spec) => self.verify_spec(op, spec)?,
            None => self.verify_unregistered(op)?,
        }
        if check_uses {
            for (i, &v) in ctx.operands(op).iter().enumerate() {
                self.check_use(op, i, v)?;
            }
        }
        for (i, &r) in ctx.regions(op).iter().enumerate() {
            self.verify_region(op, i, r)?;
        }
        Ok(())
    }

    fn verify_unregistered(&self, op: Op) -> R<()> {
        let ctx = self.ctx;
        if ctx.allow_unregistered {
            return Ok(());
        }
        let name = ctx.op_name(op);
        let dialect = name.split('.').next().unwrap_or(name);
        if ctx.registry().has_dialect(dialect) {
            return Err(Diagnostic::error(format!(
                "unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
            ))
            .at_loc(ctx.op(op).loc));
        }
        Err(op_error(
            ctx,
            op,
            "created with unregistered dialect. If this is intended, please call allowUnregisteredDialects() on the MLIRContext, or use -allow-unregistered-dialect with the MLIR opt tool used",
        ))
    }

    /// What MLIR's ODS-generated verifier and the op's traits check, in that order:
    /// counts, parent, terminator position, attributes, types, then the op's hook.
    fn verify_spec(&mut self, op: Op, spec: &'static OpSpec) -> R<()> {
        let ctx = self.ctx;
        let err = |m: String| Err(op_error(ctx, op, m));
        if let Some(m) = count_error(spec.operands, ctx.operands(op).len(), "operand") {
            return err(m);
        }
        if let Some(m) = count_error(spec.results, ctx.num_results(op), "result") {
            return err(m);
        }
        let nregions = ctx.regions(op).len();
        let variadic_regions = spec.regions.iter().any(|r| r.variadic);
        let fixed_regions = spec.regions.iter().filter(|r| !r.variadic).count();
        if variadic_regions && nregions < fixed_regions {
            return err(format!("expected {fixed_regions} or more regions"));
        }
        if !variadic_regions && nregions != fixed_regions {
            return err(match fixed_regions {
                0 => "requires zero regions".into(),
                1 => "requires one region".into(),
                n => format!("expected {n} regions"),
            });
        }
        let nsucc = ctx.successors(op).len();
        if let Some(n) = spec.successors
            && nsucc != n
        {
            let s = if n == 1 { "successor" } else { "successors" };
            return err(format!("requires {n} {s} but found {nsucc}"));
        }
        if spec.has(Traits::SINGLE_BLOCK) {
            for (i, r) in ctx.regions(op).iter().enumerate() {
                if ctx.region_blocks(*r).nth(1).is_some() {
                    return err(format!("expects region #{i} to have 0 or 1 blocks"));
                }
                if !spec.has(Traits::NO_TERMINATOR)
                    && ctx
                        .entry_block(*r)
                        .is_some_and(|b| ctx.first_op(b).is_none())
                {
                    return err("expects a non-empty block".into());
                }
            }
        }
        for (i, &r) in ctx.regions(op).iter().enumerate() {
            // A variadic group is last and takes every remaining region.
            let Some(rs) = spec
                .regions
                .get(i)
                .or(spec.regions.last().filter(|l| l.variadic))
            else {
                break;
            };
            if rs.single_block && ctx.region_blocks(r).count() != 1 {
                return err(format!(
                    "region #{i} ('{}') failed to verify constraint: region with 1 blocks",
                    rs.name
                ));
            }
        }
        if spec.has(Traits::NO_REGION_ARGUMENTS) {
            let regions = ctx.regions(op);
            for (i, &r) in regions.iter().enumerate() {
                if ctx
                    .entry_block(r)
                    .is_some_and(|b| !ctx.block_args(b).is_empty())
                {
                    return err(if regions.len() > 1 {
                        format!("region #{i} should have no arguments")
                    } else {
                        "region should have no arguments".into()
                    });
                }
            }
        }
        if !spec.parents.is_empty() {
            let parent = ctx.parent_op(op).map(|p| ctx.op_name(p));
            if !parent.is_some_and(|p| spec.parents.contains(&p)) {
                return err(match spec.parents {
                    [one] => format!("expects parent op '{one}'"),
                    many => format!("expects parent op to be one of '{}'", many.join(", ")),
                });
            }
        }
        if spec.has(Traits::TERMINATOR) && ctx.next_op(op).is_some() {
            return err("must be the last operation in the parent block".into());
        }
        self.verify_attributes(op, spec)?;
        self.verify_segments(op, spec)?;
        self.verify_types(op, spec)?;
        if spec.has(Traits::SYMBOL) {
            self.verify_symbol(op)?;
        }
        if let Some(hook) = spec.verify {
            hook(ctx, op)?;
        }
        if let Some(hook) = spec.verify_symbol_uses {
            hook(ctx, op, &mut self.symbols)?;
        }
        // After the hook, which carries the ODS predicates that MLIR checks first.
        if spec.has(Traits::ELEMENTWISE) {
            let types: Vec<_> = ctx
                .operands(op)
                .iter()
                .map(|v| ctx.value_type(*v))
                .collect();
            let rtypes: Vec<_> = ctx.results(op).map(|v| ctx.value_type(v)).collect();
            if let Some(m) = elementwise_error(ctx.uniquer(), &types, &rtypes) {
                return Err(op_error(ctx, op, m));
            }
        }
        Ok(())
    }

    fn verify_attributes(&self, op: Op, spec: &OpSpec) -> R<()> {
        let ctx = self.ctx;
        for a in spec.attributes {
            match spec.attr(ctx, op, a.name) {
                None if !a.optional => {
                    return Err(op_error(
                        ctx,
                        op,
                        format_args!("requires attribute '{}'", a.name),
                    ));
                }
                Some(v) if !(a.constraint.check)(ctx.attr_kind(v), ctx.uniquer()) => {
                    return Err(op_error(
                        ctx,
                        op,
                        format_args!(
                            "attribute '{}' failed to satisfy constraint: {}",
                            a.name, a.constraint.desc
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `operandSegmentSizes`/`resultSegmentSizes` where several groups are variadic.
    fn verify_segments(&self, op: Op, spec: &OpSpec) -> R<()> {
        let ctx = self.ctx;
        for (groups, n, attr, what) in [
            (
                spec.operands,
                ctx.operands(op).len(),
                "operandSegmentSizes",
                "operand",
            ),
            (
                spec.results,
                ctx.num_results(op),
                "resultSegmentSizes",
                "result",
            ),
        ] {
            if groups.iter().filter(|g| g.arity != Arity::One).count() < 2 {
                continue;
            }
            let Some(a) = spec.attr(ctx, op, attr) else {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!("requires attribute '{attr}'"),
                ));
            };
            let crate::attributes::AttrKind::DenseArray { values, .. } = ctx.attr_kind(a) else {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!(
                        "attribute '{attr}' failed to satisfy constraint: i32 dense array attribute"
                    ),
                ));
            };
            if values.len() != groups.len() {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!(
                        "'{attr}' attribute for specifying {what} segments must have {} elements, but got {}",
                        groups.len(),
                        values.len()
                    ),
                ));
            }
            let total: u64 = values.iter().map(|v| u64::from(*v as u32)).sum();
            if total != n as u64 {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!(
                        "{what} count ({n}) does not match with the total size ({total}) specified in attribute '{attr}'"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn verify_types(&self, op: Op, spec: &OpSpec) -> R<()> {
        let ctx = self.ctx;
        let operands = ctx.operands(op);
        let results: smallvec::SmallVec<[Value; 4]> = ctx.results(op).collect();
        for (groups, values, ranges, what) in [
            (
                spec.operands,
                operands,
                spec.operand_ranges(ctx, op),
                "operand",
            ),
            (
                spec.results,
                &results[..],
                spec.result_ranges(ctx, op),
                "result",
            ),
        ] {
            for (g, range) in groups.iter().zip(ranges) {
                if g.arity == Arity::Optional && range.len() > 1 {
                    return Err(op_error(
                        ctx,
                        op,
                        format_args!(
                            "{what} group starting at #{} requires 0 or 1 element, but found {}",
                            range.start,
                            range.len()
                        ),
                    ));
                }
                for i in range {
                    let t = ctx.value_type(values[i]);
                    if !satisfies(ctx.uniquer(), &g.ty, t) {
                        return Err(op_error(
                            ctx,
                            op,
                            format_args!(
                                "{what} #{i} must be {}, but got {}",
                                g.ty.desc,
                                quoted_type(ctx, t)
                            ),
                        ));
                    }
                }
            }
        }
        if spec.has(Traits::SAME_OPERANDS_AND_RESULT_TYPE) {
            let mut all = operands.iter().chain(&results).map(|v| ctx.value_type(*v));
            if let Some(first) = all.next()
                && all.any(|t| t != first)
            {
                return Err(op_error(
                    ctx,
                    op,
                    "requires the same type for all operands and results",
                ));
            }
        }
        if spec.has(Traits::SAME_OPERANDS_TYPE)
            && let Some((first, rest)) = operands.split_first()
            && rest
                .iter()
                .any(|v| ctx.value_type(*v) != ctx.value_type(*first))
        {
            return Err(op_error(
                ctx,
                op,
                "requires all operands to have the same type",
            ));
        }
        Ok(())
    }

    fn verify_symbol(&self, op: Op) -> R<()> {
        let ctx = self.ctx;
        if symbol::symbol_name(ctx, op).is_none() {
            return Err(op_error(ctx, op, "requires string attribute 'sym_name'"));
        }
        if symbol::visibility(ctx, op).is_none() {
            let got = ctx
                .inherent_attr(op, known::SYM_VISIBILITY)
                .map(|a| crate::printer::attr_text(ctx.uniquer(), a))
                .unwrap_or_default();
            return Err(op_error(
                ctx,
                op,
                format_args!(
                    "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got {got}"
                ),
            ));
        }
        if let Some(p) = ctx.parent_op(op)
            && ctx.op_spec(p).is_some()
            && !symbol::is_symbol_table(ctx, p)
        {
            return Err(op_error(
                ctx,
                op,
                "symbol's parent must have the SymbolTable trait",
            ));
        }
        Ok(())
    }

    /// Block structure of one region of `op` (terminators, predecessors, successors).
    fn verify_region(&self, op: Op, index: usize, r: Region) -> R<()> {
        let ctx = self.ctx;
        let spec = ctx.op_spec(op);
        let mut blocks = ctx.region_blocks(r);
        let Some(entry) = blocks.next() else {
            return Ok(());
        };
        let multi = blocks.next().is_some();
        if multi && spec.is_some_and(|s| s.has(Traits::GRAPH_REGION)) {
            return Err(op_error(
                ctx,
                op,
                format_args!("expects graph region #{index} to have 0 or 1 blocks"),
            ));
        }
        if !ctx.block_uses(entry).is_empty() {
            return Err(
                Diagnostic::error("entry block of region may not have predecessors")
                    .at_loc(ctx.op(op).loc),
            );
        }
        // MLIR's `mayBeValidWithoutTerminator`: a single block whose parent op might
        // have `NoTerminator` (unregistered ops might have any trait).
        let no_terminator_ok = !multi && spec.is_none_or(|s| s.has(Traits::NO_TERMINATOR));
        for b in ctx.region_blocks(r) {
            let Some(last) = ctx.last_op(b) else {
                if no_terminator_ok {
                    continue;
                }
                return Err(
                    Diagnostic::error("empty block: expect at least a terminator")
                        .at_loc(ctx.op(op).loc),
                );
            };
            for o in ctx.block_ops(b) {
                if o != last && !ctx.successors(o).is_empty() {
                    return Err(Diagnostic::error(
                        "operation with block successors must terminate its parent block",
                    )
                    .at_loc(ctx.op(o).loc));
                }
            }
            if ctx
                .successors(last)
                .iter()
                .any(|s| ctx.block_parent(*s) != Some(r))
            {
                return Err(op_error(
                    ctx,
                    last,
                    "branching to block of a different region",
                ));
            }
            if !no_terminator_ok
                && ctx
                    .op_spec(last)
                    .is_some_and(|s| !s.has(Traits::TERMINATOR))
            {
                return Err(Diagnostic::error(format!(
                    "block with no terminator, has \"{}\"",
                    ctx.op_name(last)
                ))
                .at_loc(ctx.op(last).loc));
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ exit

    fn on_exit(&self, op: Op) -> R<()> {
        if symbol::is_symbol_table(self.ctx, op) {
            self.verify_symbol_table(op)?;
        }
        let Some(spec) = self.ctx.op_spec(op) else {
            return Ok(());
        };
        if let Some(t) = spec.implicit_terminator {
            self.verify_implicit_terminator(op, t)?;
        }
        if let Some(hook) = spec.verify_regions {
            hook(self.ctx, op)?;
        }
        if let Some(rb) = spec.region_branch {
            self.verify_region_branch(op, rb)?;
        }
        Ok(())
    }

    /// MLIR's `SingleBlockImplicitTerminator`: every non-empty region is one
    /// block ending in `term`.
    fn verify_implicit_terminator(&self, op: Op, term: &str) -> R<()> {
        let ctx = self.ctx;
        for (i, &r) in ctx.regions(op).iter().enumerate() {
            let Some(b) = ctx.entry_block(r) else {
                continue;
            };
            if ctx.next_block(b).is_some() {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!("expects region #{i} to have 0 or 1 blocks"),
                ));
            }
            let Some(last) = ctx.last_op(b) else {
                return Err(op_error(ctx, op, "expects a non-empty block"));
            };
            if ctx.op_name(last) != term {
                return Err(op_error(
                    ctx,
                    op,
                    format_args!(
                        "expects regions to end with '{term}', found '{}'",
                        ctx.op_name(last)
                    ),
                )
                .with_note(
                    format!("in custom textual format, the absence of terminator implies '{term}'"),
                    Where::Loc(ctx.op(op).loc),
                ));
            }
        }
        Ok(())
    }

    /// MLIR's `RegionBranchOpInterface` verification: along every edge, the values
    /// forwarded match the inputs of the successor in number and type.
    fn verify_region_branch(&self, op: Op, rb: &RegionBranch) -> R<()> {
        let ctx = self.ctx;
        let name = |p: BranchPoint| match p {
            BranchPoint::Parent => "parent".to_string(),
            BranchPoint::Region(i) => format!("Region #{i}"),
        };
        let check = |from: String, at: Op, operands: &[Value], to: BranchPoint| -> R<()> {
            let inputs = rb.inputs(ctx, op, to);
            let fail = |m: String| {
                Err(op_error(
                    ctx,
                    op,
                    format_args!("along control flow edge from {from} to {}: {m}", name(to)),
                )
                .with_note("region branch point", Where::Loc(ctx.op(at).loc)))
            };
            if operands.len() != inputs.len() {
                return fail(format!(
                    "region branch point has {} operands, but region successor needs {} inputs",
                    operands.len(),
                    inputs.len()
                ));
            }
            for (i, (&o, &v)) in operands.iter().zip(&inputs).enumerate() {
                let (a, b) = (ctx.value_type(o), ctx.value_type(v));
                if a != b {
                    return fail(format!(
                        "successor operand type #{i} {} should match successor input type #{i} {}",
                        quoted_type(ctx, a),
                        quoted_type(ctx, b)
                    ));
                }
            }
            Ok(())
        };
        let nregions = ctx.regions(op).len();
        let none = vec![None; ctx.operands(op).len()];
        for to in (rb.successors)(ctx, op, BranchPoint::Parent, &none) {
            let range = (rb.entry_operands)(ctx, op, to);
            let operands = ctx.operands(op).get(range).unwrap_or_default().to_vec();
            check("parent".into(), op, &operands, to)?;
        }
        for i in 0..nregions {
            let r = ctx.regions(op)[i];
            for b in ctx.region_blocks(r) {
                let Some(term) = ctx.last_op(b) else { continue };
                let Some(range) = crate::dialect::forwarded_operands(ctx, term) else {
                    continue;
                };
                let operands = ctx.operands(term).get(range).unwrap_or_default().to_vec();
                let consts = vec![None; ctx.operands(term).len()];
                for to in (rb.successors)(ctx, op, BranchPoint::Region(i), &consts) {
                    check(
                        format!("Operation {}", ctx.op_name(term)),
                        term,
                        &operands,
                        to,
                    )?;
                }
            }
        }
        Ok(())
    }

    fn verify_symbol_table(&self, op: Op) -> R<()> {
        let ctx = self.ctx;
        let regions = ctx.regions(op);
        if regions.len() != 1 || ctx.region_blocks(regions[0]).count() != 1 {
            return Err(op_error(
                ctx,
                op,
                "Operations with a 'SymbolTable' must have exactly one block",
            ));
        }
        let block = ctx.entry_block(regions[0]).expect("one block");
        let mut seen: HashMap<&str, Op, FxBuild> = HashMap::default();
        for o in ctx.block_ops(block) {
            let Some(name) = symbol::symbol_name(ctx, o) else {
                continue;
            };
            if let Some(first) = seen.insert(name, o) {
                return Err(
                    Diagnostic::error(format!("redefinition of symbol named '{name}'"))
                        .at_loc(ctx.op(o).loc)
                        .with_note(
                            "see existing symbol definition here",
                            Where::Loc(ctx.op(first).loc),
                        ),
                );
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ dominance

    /// Operand `i` (`v`) of `user` must be visible there: not defined above an
    /// isolated-from-above op that encloses the use, and dominating the use in the
    /// region where the definition lives (unless that is a graph region).
    fn check_use(&mut self, user: Op, i: usize, v: Value) -> R<()> {
        let ctx = self.ctx;
        let (def_block, def_op) = match ctx.value_def(v) {
            ValueDef::Result(o, _) => match ctx.parent_block(o) {
                Some(b) => (b, Some(o)),
                None => return Err(self.dominance_error(user, i, v)),
            },
            ValueDef::Arg(b, _) => (b, None),
            ValueDef::Placeholder => {
                return Err(op_error(
                    ctx,
                    user,
                    format_args!("operand #{i} is an unresolved forward reference"),
                ));
            }
        };
        let Some(def_region) = ctx.block_parent(def_block) else {
            return Err(self.dominance_error(user, i, v));
        };
        // Climb from the user to its ancestor in the defining region.
        let mut anc = user;
        let anc_block = loop {
            let Some(b) = ctx.parent_block(anc) else {
                return Err(self.dominance_error(user, i, v));
            };
            let r = ctx
                .block_parent(b)
                .expect("blocks of a walked op are in a region");
            if r == def_region {
                break b;
            }
            let Some(p) = ctx.region_parent(r) else {
                return Err(self.dominance_error(user, i, v));
            };
            if ctx
                .op_spec(p)
                .is_some_and(|s| s.has(Traits::ISOLATED_FROM_ABOVE))
            {
                return Err(
                    op_error(ctx, user, "using value defined outside the region").with_note(
                        "required by region isolation constraints",
                        Where::Loc(ctx.op(p).loc),
                    ),
                );
            }
            anc = p;
        };
        // Graph regions (and regions of unregistered ops, which might be) need no dominance.
        let owner = ctx.region_parent(def_region);
        if owner.is_none_or(|o| ctx.op_spec(o).is_none_or(|s| s.has(Traits::GRAPH_REGION))) {
            return Ok(());
        }
        let ok = if anc_block == def_block {
            def_op.is_none_or(|d| self.order[d.index()] < self.order[anc.index()])
        } else {
            self.block_dominates(def_region, def_block, anc_block)
        };
        if ok {
            Ok(())
        } else {
            Err(self.dominance_error(user, i, v))
        }
    }

    /// Whether `a` dominates `b` (distinct blocks of region `r`); uses in unreachable
    /// blocks are exempt, as in MLIR.
    fn block_dominates(&mut self, r: Region, a: Block, b: Block) -> bool {
        if !self.doms.contains_key(&r) {
            let tree = self.build_dom_tree(r);
            self.doms.insert(r, tree);
        }
        let (na, mut nb) = (self.rpo[a.index()], self.rpo[b.index()]);
        if nb == UNREACHABLE {
            return true;
        }
        if na == UNREACHABLE {
            return false;
        }
        let idom = &self.doms[&r].idom;
        while nb > na {
            nb = idom[nb as usize];
        }
        nb == na
    }

    /// Cooper, Harvey and Kennedy's iterative dominator algorithm over reverse postorder.
    fn build_dom_tree(&mut self, r: Region) -> DomTree {
        let ctx = self.ctx;
        let succs = |b: Block| -> &[Block] { ctx.last_op(b).map_or(&[], |o| ctx.successors(o)) };
        let Some(entry) = ctx.entry_block(r) else {
            return DomTree { idom: Vec::new() };
        };
        // Iterative depth-first search for the postorder.
        let mut post: Vec<Block> = Vec::new();
        let mut visited: HashMap<Block, (), FxBuild> = HashMap::default();
        let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
        visited.insert(entry, ());
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            let s = succs(b);
            if *next < s.len() {
                let c = s[*next];
                *next += 1;
                if visited.insert(c, ()).is_none() {
                    stack.push((c, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        let rpo: Vec<Block> = post.into_iter().rev().collect();
        for (n, b) in rpo.iter().enumerate() {
            self.rpo[b.index()] = n as u32;
        }
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); rpo.len()];
        for (n, b) in rpo.iter().enumerate() {
            for s in succs(*b) {
                let m = self.rpo[s.index()];
                if m != UNREACHABLE {
                    preds[m as usize].push(n as u32);
                }
            }
        }
        let mut idom = vec![UNREACHABLE; rpo.len()];
        idom[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for n in 1..rpo.len() {
                let mut new = UNREACHABLE;
                for &p in &preds[n] {
                    if idom[p as usize] == UNREACHABLE {
                        continue;
                    }
                    new = if new == UNREACHABLE {
                        p
                    } else {
                        intersect(&idom, p, new)
                    };
                }
                if new != idom[n] {
                    idom[n] = new;
                    changed = true;
                }
            }
        }
        DomTree { idom }
    }

    fn dominance_error(&self, user: Op, i: usize, v: Value) -> Diagnostic {
        let ctx = self.ctx;
        let d = Diagnostic::error(format!("operand #{i} does not dominate this use"))
            .at_loc(ctx.op(user).loc);
        let user_block = ctx.parent_block(user);
        let user_region = user_block.and_then(|b| ctx.block_parent(b));
        let relation = |def_block: Option<Block>| {
            let def_region = def_block.and_then(|b| ctx.block_parent(b));
            if def_block == user_block {
                "the same block"
            } else if def_region == user_region {
                "the same region"
            } else if self.region_is_proper_ancestor(def_region, user_region) {
                "a parent region"
            } else if self.region_is_proper_ancestor(user_region, def_region) {
                "a child region"
            } else {
                "neither"
            }
        };
        match ctx.value_def(v) {
            ValueDef::Result(o, _) => {
                let rel = match relation(ctx.parent_block(o)) {
                    "neither" => " (op is neither in a parent nor in a child region)".to_string(),
                    r => format!(" (op in {r})"),
                };
                d.with_note(
                    format!("operand defined here{rel}"),
                    Where::Loc(ctx.op(o).loc),
                )
            }
            ValueDef::Arg(b, _) => {
                let index = ctx
                    .block_parent(b)
                    .and_then(|r| ctx.region_blocks(r).position(|x| x == b))
                    .unwrap_or(0);
                let rel = match relation(Some(b)) {
                    "neither" => "neither in a parent nor in a child region".to_string(),
                    r => format!("in {r}"),
                };
                let loc = ctx
                    .block_owner(b)
                    .map_or(Where::Nowhere, |p| Where::Loc(ctx.op(p).loc));
                d.with_note(
                    format!("operand defined as a block argument (block #{index} {rel})"),
                    loc,
                )
            }
            ValueDef::Placeholder => d,
        }
    }

    fn region_is_proper_ancestor(&self, a: Option<Region>, b: Option<Region>) -> bool {
        let ctx = self.ctx;
        let (Some(a), Some(mut cur)) = (a, b) else {
            return false;
        };
        loop {
            let Some(parent_block) = ctx.region_parent(cur).and_then(|op| ctx.parent_block(op))
            else {
                return false;
            };
            let Some(r) = ctx.block_parent(parent_block) else {
                return false;
            };
            if r == a {
                return true;
            }
            cur = r;
        }
    }
}

fn intersect(idom: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while a > b {
            a = idom[a as usize];
        }
        while b > a {
            b = idom[b as usize];
        }
    }
    a
}

/// MLIR's operand/result count traits (`ZeroOperands`, `OneResult`,
/// `NOperands<n>`, `AtLeastNOperands<n>`) as one check.
fn count_error(groups: &[ValueSpec], n: usize, what: &str) -> Option<String> {
    let fixed = groups.iter().filter(|g| g.arity == Arity::One).count();
    let variadic = groups.len() > fixed;
    if variadic {
        return (n < fixed).then(|| format!("expected {fixed} or more {what}s, but found {n}"));
    }
    if n == fixed {
        return None;
    }
    Some(match (fixed, what) {
        (0, _) => format!("requires zero {what}s"),
        (1, "operand") => "requires a single operand".into(),
        (1, _) => format!("requires one {what}"),
        // MLIR's `NResults` names no count found, unlike `NOperands`.
        (_, "result") => format!("expected {fixed} results"),
        _ => format!("expected {fixed} {what}s, but found {n}"),
    })
}

/// MLIR's `ElementwiseMappable` check: vectors and tensors map over their elements,
/// so the non-scalar operands and results must agree in shape and container kind.
fn elementwise_error(
    u: &crate::ir::Uniquer,
    operands: &[crate::types::Type],
    results: &[crate::types::Type],
) -> Option<&'static str> {
    use crate::types::TypeKind;
    let mappable = |t: &&crate::types::Type| {
        matches!(
            u.type_kind(**t),
            TypeKind::Vector { .. } | TypeKind::Tensor { .. } | TypeKind::UnrankedTensor(_)
        )
    };
    let ops: Vec<_> = operands.iter().filter(mappable).collect();
    let res: Vec<_> = results.iter().filter(mappable).collect();
    if ops.is_empty() && res.is_empty() {
        return None;
    }
    if ops.is_empty() {
        return Some("if a result is non-scalar, then at least one operand must be non-scalar");
    }
    if res.is_empty() {
        return Some(
            "if an operand is non-scalar, then there must be at least one non-scalar result",
        );
    }
    if res.len() != results.len() {
        return Some("if an operand is non-scalar, then all results must be non-scalar");
    }
    let all: Vec<&TypeKind> = ops.iter().chain(&res).map(|t| u.type_kind(**t)).collect();
    let kind = |k: &TypeKind| std::mem::discriminant(k);
    let same_kind = all.iter().all(|k| kind(k) == kind(all[0]));
    let shapes: Vec<&[i64]> = all.iter().filter_map(|k| k.shape()).collect();
    let compatible = shapes.iter().all(|s| {
        s.len() == shapes[0].len()
            && s.iter().zip(shapes[0]).all(|(a, b)| {
                *a == *b || *a == crate::types::DYNAMIC || *b == crate::types::DYNAMIC
            })
    }) && all
        .iter()
        .filter_map(|k| match k {
            TypeKind::Vector { scalable, .. } => Some(scalable),
            _ => None,
        })
        .all(|s| {
            Some(s)
                == all.iter().find_map(|k| match k {
                    TypeKind::Vector { scalable, .. } => Some(scalable),
                    _ => None,
                })
        });
    if !same_kind || !compatible {
        return Some("all non-scalar operands/results must have the same shape and base type");
    }
    None
}
