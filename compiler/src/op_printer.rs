//! Printing whole ops in MLIR's generic form, with MLIR's SSA numbering.
//!
//! Numbering follows mlir-opt's `SSANameState`: regions are numbered from a
//! stack (last pushed first); entry-block arguments are `%argN`, other values `%N`,
//! one number per multi-result op (`%3:2`, used as `%3#1`); blocks are `^bbN` per
//! region. In generic form ids are unique across the whole op, as mlir-opt does.

use crate::ir::{Block, Context, Op, Region, Value, ValueDef};
use crate::printer::{location_text, write_attr, write_dict_entries, write_string, write_type};
use std::fmt::Write;

/// How to print.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print `loc(...)` after every op and block argument.
    pub debuginfo: bool,
}

const NONE: u32 = u32::MAX;
const ARG_BIT: u32 = 1 << 31;

struct Names {
    values: Vec<u32>,
    blocks: Vec<u32>,
}

impl Names {
    fn compute(ctx: &Context, root: Op) -> Names {
        let mut n = Names {
            values: Vec::new(),
            blocks: Vec::new(),
        };
        let (mut next_value, mut next_arg) = (0u32, 0u32);
        let mut stack: Vec<Region> = ctx.regions(root).iter().rev().copied().collect();
        n.number_results(ctx, root, &mut next_value);
        // Generic form prints unique ids, so counters are never restored.
        while let Some(r) = stack.pop() {
            let mut nested = Vec::new();
            for (bi, b) in ctx.region_blocks(r).enumerate() {
                n.set_block(b, bi as u32);
                let entry = bi == 0;
                for &a in ctx.block_args(b) {
                    if entry {
                        n.set_value(a, next_arg | ARG_BIT);
                        next_arg += 1;
                    } else {
                        n.set_value(a, next_value);
                        next_value += 1;
                    }
                }
                for op in ctx.block_ops(b) {
                    n.number_results(ctx, op, &mut next_value);
                    nested.extend(ctx.regions(op).iter().copied());
                }
            }
            stack.extend(nested);
        }
        n
    }
    fn number_results(&mut self, ctx: &Context, op: Op, next: &mut u32) {
        if let Some(first) = ctx.results(op).next() {
            self.set_value(first, *next);
            *next += 1;
        }
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

/// Prints ops in generic form.
pub struct OpPrinter<'c> {
    ctx: &'c Context,
    names: Names,
    opts: PrintOptions,
    /// The text printed so far.
    pub out: String,
}

impl<'c> OpPrinter<'c> {
    /// A printer numbering values below `root`.
    pub fn new(ctx: &'c Context, root: Op, opts: PrintOptions) -> Self {
        OpPrinter {
            ctx,
            names: Names::compute(ctx, root),
            opts,
            out: String::new(),
        }
    }

    fn value(&mut self, v: Value) {
        self.value_name(v, true);
    }

    /// Print a value's name; `use_suffix` adds `#i` for results of multi-result ops.
    fn value_name(&mut self, v: Value, use_suffix: bool) {
        let ctx = self.ctx;
        let (base, suffix) = match ctx.value_def(v) {
            ValueDef::Result(op, i) if use_suffix && ctx.num_results(op) > 1 => {
                (ctx.result(op, 0), Some(i))
            }
            _ => (v, None),
        };
        let id = self.names.values.get(base.index()).copied().unwrap_or(NONE);
        if id == NONE {
            self.out.push_str("<<UNKNOWN SSA VALUE>>");
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
    fn comma_list<T: Copy>(&mut self, items: &[T], mut f: impl FnMut(&mut Self, T)) {
        for (i, &x) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            f(self, x);
        }
    }

    fn block_name(&mut self, b: Block) {
        let _ = write!(self.out, "^bb{}", self.names.block(b));
    }

    /// Print `op` at the given indentation (no trailing newline).
    pub fn op(&mut self, op: Op, indent: usize) {
        let ctx = self.ctx;
        let u = ctx.uniquer();
        let n = ctx.num_results(op);
        if n > 0 {
            self.value_name(ctx.result(op, 0), false);
            if n > 1 {
                let _ = write!(self.out, ":{n}");
            }
            self.out.push_str(" = ");
        }
        write_string(ctx.op_name(op).as_bytes(), &mut self.out);
        self.out.push('(');
        self.comma_list(ctx.operands(op), Self::value);
        self.out.push(')');
        let succs = ctx.successors(op);
        if !succs.is_empty() {
            self.out.push('[');
            self.comma_list(succs, Self::block_name);
            self.out.push(']');
        }
        if let Some(p) = ctx.op(op).props {
            self.out.push_str(" <");
            write_attr(u, p, false, &mut self.out);
            self.out.push('>');
        }
        let regions = ctx.regions(op);
        if !regions.is_empty() {
            self.out.push_str(" (");
            self.comma_list(regions, |p, r| p.region(r, indent));
            self.out.push(')');
        }
        let attrs: Vec<_> = ctx.op(op).attrs.iter().map(|(k, v)| (*k, *v)).collect();
        if !attrs.is_empty() {
            self.out.push_str(" {");
            write_dict_entries(u, &attrs, &mut self.out);
            self.out.push('}');
        }
        self.out.push_str(" : (");
        self.comma_list(ctx.operands(op), |p, v| {
            write_type(u, ctx.value_type(v), &mut p.out)
        });
        self.out.push_str(") -> ");
        let rts: Vec<_> = ctx.results(op).map(|r| ctx.value_type(r)).collect();
        let fn_result = rts.len() == 1
            && !matches!(u.type_kind(rts[0]), crate::types::TypeKind::Function { .. });
        if !fn_result {
            self.out.push('(');
        }
        self.comma_list(&rts, |p, t| write_type(u, t, &mut p.out));
        if !fn_result {
            self.out.push(')');
        }
        if self.opts.debuginfo {
            self.out.push(' ');
            self.out.push_str(&location_text(u, ctx.op(op).loc));
        }
    }

    fn region(&mut self, r: Region, indent: usize) {
        let ctx = self.ctx;
        self.out.push_str("{\n");
        for (i, b) in ctx.region_blocks(r).enumerate() {
            // The entry block's header is printed when it has arguments or no ops.
            let header = i > 0 || !ctx.block_args(b).is_empty() || ctx.first_op(b).is_none();
            if header {
                self.block_header(b, i == 0, indent);
            }
            for op in ctx.block_ops(b) {
                push_indent(&mut self.out, indent + 2);
                self.op(op, indent + 2);
                self.out.push('\n');
            }
        }
        push_indent(&mut self.out, indent);
        self.out.push('}');
    }

    fn block_header(&mut self, b: Block, entry: bool, indent: usize) {
        let ctx = self.ctx;
        let u = ctx.uniquer();
        push_indent(&mut self.out, indent);
        self.block_name(b);
        let args = ctx.block_args(b);
        if !args.is_empty() {
            self.out.push('(');
            self.comma_list(args, |p, a| {
                p.value(a);
                p.out.push_str(": ");
                write_type(u, ctx.value_type(a), &mut p.out);
                if p.opts.debuginfo
                    && let Some(l) = ctx.value(a).loc
                {
                    p.out.push(' ');
                    p.out.push_str(&location_text(u, l));
                }
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

/// Print `op` (usually a module) in generic form, ending with a newline.
pub fn print_generic(ctx: &Context, op: Op, opts: PrintOptions) -> String {
    let mut p = OpPrinter::new(ctx, op, opts);
    p.op(op, 0);
    p.out.push('\n');
    p.out
}
