//! NKI Python from the `nki` dialect: `aic-translate --target=nki
//! --emit=python` writes one `@nki.jit` function per `nki.kernel` against
//! the documented `nki.language` (`nl`) and `nki.isa` (`nisa`) API, and a
//! host-side function per `func.func` that allocates the outputs of each
//! `nki.launch` and calls its kernel over its grid, in launch order.
//!
//! One function per op kind, dispatched on the op handles. DMA access
//! patterns (`#coord.desc`) become index expressions over `nl.arange`
//! tiles and the kernel's scalars, with a mask where elements can fall
//! outside the tensor or into padding. What this emitter cannot express is
//! an error at the op.
//!
//! Nothing of what it writes has run on Trainium: the test suite runs it
//! with a NumPy implementation of the subset it uses
//! (`tools/tests/nki_numpy/`).

use aic::Diagnostic;
use aic::attributes::{AttrKind, LocKind};
use aic::diagnostics::file_line_col;
use aic::float::FloatKind;
use aic::ir::{Context, Op, Region, Value};
use aic::op_def::OpHandle;
use aic::types::{Signedness, Type, TypeKind};
use aic::verifier::op_error;
use aic_dialects::coord::desc::Transform;
use aic_dialects::nki::{
    self, Act, Activation, AffineRange, AffineSelect, Alu, Bitcast, Copy, FreeBroadcast, Iota,
    Kernel, Launch, Load, Mask, Matmul, Memset, PartitionBroadcast, PartitionReduce, ProgramId,
    ReduceOp, Select, SequentialRange, Space, Store, TensorReduce, TensorScalar, TensorTensor,
    Transpose, Yield,
};
use aic_dialects::{arith, func, graph};
use std::collections::HashMap;

/// The Python of every kernel and host function of module `m`.
pub fn emit(ctx: &Context, m: Op) -> Result<String, Diagnostic> {
    let mut e = Emitter {
        ctx,
        names: HashMap::new(),
        out: String::new(),
        depth: 0,
        next: 0,
        kernel_loc: String::new(),
        helpers_written: false,
    };
    e.line("# NKI kernels written by aic-translate --target=nki --emit=python.");
    e.line("# Nothing here has run on Trainium: aic checks it with a NumPy");
    e.line("# implementation of the nki.language / nki.isa subset it uses.");
    e.line("import numpy as np");
    e.line("import neuronxcc.nki as nki");
    e.line("import neuronxcc.nki.language as nl");
    e.line("import neuronxcc.nki.isa as nisa");
    e.line("");
    e.line("try:  # how HBM arrays hold bf16 on the host");
    e.line("    from ml_dtypes import bfloat16 as BF16");
    e.line("except ImportError:  # NumPy has no bfloat16: bf16 values held in float32");
    e.line("    BF16 = np.float32");
    e.line("");
    let kernels = crate::compile::top_ops::<Kernel>(ctx, m);
    for k in &kernels {
        e.kernel(*k)?;
    }
    for f in crate::compile::top_ops::<func::Func>(ctx, m) {
        e.host(f)?;
    }
    Ok(e.out)
}

/// The emitter's state: the Python name of each value and the text so far.
struct Emitter<'c> {
    ctx: &'c Context,
    names: HashMap<Value, String>,
    out: String,
    depth: usize,
    next: usize,
    /// The location comment of the kernel being written: its ops' own
    /// are written only where they differ.
    kernel_loc: String,
    /// Whether the host helpers (`_host_div`, ...) are written.
    helpers_written: bool,
}

fn fail(ctx: &Context, op: Op, m: impl std::fmt::Display) -> Diagnostic {
    op_error(ctx, op, format!("cannot emit as NKI Python: {m}"))
}

/// `(a, b, c)` as Python writes a tuple.
fn tuple(xs: &[i64]) -> String {
    match xs {
        [x] => format!("({x},)"),
        _ => format!(
            "({})",
            xs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Whether an op is of a kind (a handle's `is`).
type IsOp = fn(&Context, Op) -> bool;

/// The NumPy dtype the host holds elements of `t` in.
fn host_dtype(ctx: &Context, t: Type) -> Option<&'static str> {
    Some(match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F32) => "np.float32",
        TypeKind::Float(FloatKind::F64) => "np.float64",
        TypeKind::Float(FloatKind::F16) => "np.float16",
        TypeKind::Float(FloatKind::BF16) => "BF16",
        TypeKind::Integer { width: 1, .. } => "np.bool_",
        TypeKind::Integer {
            width: 8,
            signedness: Signedness::Unsigned,
        } => "np.uint8",
        TypeKind::Integer { width: 8, .. } => "np.int8",
        TypeKind::Integer { width: 16, .. } => "np.int16",
        TypeKind::Integer {
            width: 32,
            signedness: Signedness::Unsigned,
        } => "np.uint32",
        TypeKind::Integer { width: 32, .. } => "np.int32",
        TypeKind::Integer { width: 64, .. } => "np.int64",
        _ => return None,
    })
}

/// Whether host block `b` (or a block under it) holds ops other than
/// launches, reshapes and returns: arithmetic the emitted host computes.
fn computes_on_host(ctx: &Context, b: aic::ir::Block) -> bool {
    ctx.block_ops(b).any(|op| {
        !(Launch::is(ctx, op) || graph::Reshape::is(ctx, op) || func::Return::is(ctx, op))
    })
}

/// A Python float literal of `v`.
fn float(v: f64) -> String {
    if v.is_nan() {
        "float('nan')".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "float('inf')"
        } else {
            "-float('inf')"
        }
        .into()
    } else {
        format!("{v:?}")
    }
}

/// The `nl` operator a reduction names.
fn reduce_name(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Add => "nl.add",
        ReduceOp::Max => "nl.max",
        ReduceOp::Min => "nl.min",
    }
}

/// An index expression: a constant, or Python code.
#[derive(Clone)]
enum Ix {
    Const(i64),
    Code(String),
}

impl Ix {
    fn text(&self) -> String {
        match self {
            Ix::Const(c) => c.to_string(),
            Ix::Code(s) => s.clone(),
        }
    }
    fn add(&self, o: &Ix) -> Ix {
        match (self, o) {
            (Ix::Const(a), Ix::Const(b)) => Ix::Const(a + b),
            (Ix::Const(0), x) | (x, Ix::Const(0)) => x.clone(),
            (a, Ix::Const(b)) if *b < 0 => Ix::Code(format!("{} - {}", a.text(), -b)),
            (a, b) => Ix::Code(format!("{} + {}", a.text(), b.text())),
        }
    }
    fn mul(&self, c: i64) -> Ix {
        match self {
            Ix::Const(a) => Ix::Const(a * c),
            _ if c == 0 => Ix::Const(0),
            x if c == 1 => x.clone(),
            Ix::Code(s) if s.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_') => {
                Ix::Code(format!("{s} * {c}"))
            }
            Ix::Code(s) => Ix::Code(format!("({s}) * {c}")),
        }
    }
}

impl<'c> Emitter<'c> {
    fn line(&mut self, s: &str) {
        if s.is_empty() {
            self.out.push('\n');
            return;
        }
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// A fresh Python name starting with `stem`.
    fn fresh(&mut self, stem: &str) -> String {
        self.next += 1;
        format!("{stem}{}", self.next)
    }

    /// Names `v` with a fresh name of `stem` and gives it.
    fn bind(&mut self, v: Value, stem: &str) -> String {
        let n = self.fresh(stem);
        self.names.insert(v, n.clone());
        n
    }

    fn name(&self, op: Op, v: Value) -> Result<String, Diagnostic> {
        self.names.get(&v).cloned().ok_or_else(|| {
            fail(
                self.ctx,
                op,
                "uses a value defined outside what was emitted",
            )
        })
    }

    /// `# file:line:col` of `op`: where it came from, every source op of a
    /// fused location (the ops fusion merged into it) named once.
    fn loc(&self, op: Op) -> String {
        let u = self.ctx.uniquer();
        let mut found: Vec<String> = Vec::new();
        let mut todo = vec![self.ctx.op(op).loc];
        while let Some(l) = todo.pop() {
            match u.attr_kind(l) {
                AttrKind::Location(LocKind::Fused { locs, .. }) => {
                    todo.extend(locs.iter().rev().copied());
                }
                _ => {
                    if let Some((f, line, col)) = file_line_col(u, l) {
                        let first = found.is_empty();
                        let text = if first {
                            format!("{f}:{line}:{col}")
                        } else {
                            format!("{line}:{col}")
                        };
                        if !found.contains(&text) && found.len() < 8 {
                            found.push(text);
                        }
                    }
                }
            }
        }
        if found.is_empty() {
            String::new()
        } else {
            format!("  # {}", found.join(", "))
        }
    }

    /// The `nl` dtype of element type `t`.
    fn dtype(&self, op: Op, t: Type) -> Result<&'static str, Diagnostic> {
        Ok(match self.ctx.type_kind(t) {
            TypeKind::Float(FloatKind::F32) => "nl.float32",
            TypeKind::Float(FloatKind::F16) => "nl.float16",
            TypeKind::Float(FloatKind::BF16) => "nl.bfloat16",
            TypeKind::Integer { width: 32, .. } => "nl.int32",
            TypeKind::Integer { width: 16, .. } => "nl.int16",
            TypeKind::Integer { width: 8, .. } => "nl.int8",
            TypeKind::Integer { width: 1, .. } => "nl.uint8",
            _ => return Err(fail(self.ctx, op, "an element type NKI has no dtype for")),
        })
    }

    /// The tile type of `v`.
    fn tile(&self, op: Op, v: Value) -> Result<nki::NkiTile, Diagnostic> {
        nki::nki_tile(self.ctx.uniquer(), self.ctx.value_type(v))
            .cloned()
            .ok_or_else(|| fail(self.ctx, op, "expected a tile"))
    }

    /// The tile result's name and dtype, bound.
    fn result(&mut self, op: Op, v: Value) -> Result<(String, &'static str), Diagnostic> {
        let t = self.tile(op, v)?;
        let d = self.dtype(op, t.elem)?;
        Ok((self.bind(v, "t"), d))
    }

    /// One `@nki.jit` function for kernel `k`: its arguments are the HBM
    /// tensors, inputs then outputs (the host allocates the outputs).
    fn kernel(&mut self, k: Kernel) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let name = aic::symbol::symbol_name(ctx, k.op())
            .unwrap_or_default()
            .to_string();
        let body = k.body(ctx);
        let block = ctx
            .entry_block(body)
            .ok_or_else(|| fail(ctx, k.op(), "a kernel without a body"))?;
        let args: Vec<String> = ctx
            .block_args(block)
            .to_vec()
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let n = format!("hbm{i}");
                self.names.insert(a, n.clone());
                n
            })
            .collect();
        let grid = k.grid(ctx).unwrap_or_default();
        let arch = k.arch(ctx).map_or("trn1", |a| a.keyword());
        self.kernel_loc = self.loc(k.op());
        let from = self.kernel_loc.trim_start_matches("  # ").to_string();
        self.line("@nki.jit");
        self.line(&format!("def {name}({}):", args.join(", ")));
        self.depth += 1;
        self.line(&format!(
            "\"\"\"Kernel {name} for {arch}, launched over a grid of {grid:?} programs."
        ));
        if !from.is_empty() {
            self.line("");
            self.line(&format!("The fused source ops: {from}."));
        }
        self.line("\"\"\"");
        self.region(body)?;
        self.kernel_loc.clear();
        self.depth -= 1;
        self.line("");
        self.line("");
        Ok(())
    }

    /// The ops of `r`'s entry block, terminator excepted.
    fn region(&mut self, r: Region) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let Some(b) = ctx.entry_block(r) else {
            return Ok(());
        };
        let ops: Vec<Op> = ctx.block_ops(b).collect();
        for op in ops {
            self.op(op)?;
        }
        Ok(())
    }

    /// One kernel op, dispatched on its handle.
    fn op(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        if nki::Return::is(ctx, op) || Yield::is(ctx, op) {
            return Ok(());
        }
        if let Some(o) = arith::Constant::of(ctx, op) {
            return self.constant(o);
        }
        if let Some(o) = ProgramId::of(ctx, op) {
            let n = self.bind(o.id(ctx), "pid");
            let axis = o.axis(ctx).unwrap_or(0);
            return self.emit_line(op, format!("{n} = nl.program_id({axis})"));
        }
        if let Some(o) = AffineRange::of(ctx, op) {
            return self.affine_range(o);
        }
        if let Some(o) = SequentialRange::of(ctx, op) {
            return self.sequential_range(o);
        }
        if let Some(o) = Load::of(ctx, op) {
            return self.load(o);
        }
        if let Some(o) = Store::of(ctx, op) {
            return self.store(o);
        }
        if let Some(o) = Matmul::of(ctx, op) {
            return self.matmul(o);
        }
        if let Some(o) = Transpose::of(ctx, op) {
            return self.transpose(o);
        }
        if let Some(o) = Activation::of(ctx, op) {
            return self.activation(o);
        }
        if let Some(o) = TensorTensor::of(ctx, op) {
            return self.tensor_tensor(o);
        }
        if let Some(o) = TensorScalar::of(ctx, op) {
            return self.tensor_scalar(o);
        }
        if let Some(o) = TensorReduce::of(ctx, op) {
            return self.tensor_reduce(o);
        }
        if let Some(o) = FreeBroadcast::of(ctx, op) {
            return self.broadcast(op, o.input(ctx), o.result(ctx));
        }
        if let Some(o) = PartitionBroadcast::of(ctx, op) {
            return self.broadcast(op, o.input(ctx), o.result(ctx));
        }
        if let Some(o) = Iota::of(ctx, op) {
            return self.iota(o);
        }
        if let Some(o) = Select::of(ctx, op) {
            return self.select(o);
        }
        if let Some(o) = AffineSelect::of(ctx, op) {
            return self.affine_select(o);
        }
        if let Some(o) = Mask::of(ctx, op) {
            return self.mask(o);
        }
        if let Some(o) = Copy::of(ctx, op) {
            return self.copy(o);
        }
        if let Some(o) = Memset::of(ctx, op) {
            return self.memset(o);
        }
        if let Some(o) = Bitcast::of(ctx, op) {
            let x = self.name(o.op(), o.input(ctx))?;
            let (n, d) = self.result(o.op(), o.result(ctx))?;
            return self.emit_line(o.op(), format!("{n} = {x}.view({d})"));
        }
        if let Some(o) = PartitionReduce::of(ctx, op) {
            return self.partition_reduce(o);
        }
        self.index_op(op)
    }

    fn emit_line(&mut self, op: Op, s: String) -> Result<(), Diagnostic> {
        let mut l = self.loc(op);
        if l == self.kernel_loc {
            l.clear();
        }
        self.line(&format!("{s}{l}"));
        Ok(())
    }

    /// `arith.constant`: index and integer constants are inlined, floats
    /// too.
    fn constant(&mut self, o: arith::Constant) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let Some(value) = o.value(ctx) else {
            return Err(fail(ctx, o.op(), "a constant without a value"));
        };
        let text = match ctx.attr_kind(value) {
            AttrKind::Integer { value, .. } => value.to_string(),
            AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
                TypeKind::Float(k) => float(k.to_f64(*bits)),
                _ => return Err(fail(ctx, o.op(), "a float constant of no float type")),
            },
            _ => return Err(fail(ctx, o.op(), "only scalar constants")),
        };
        for r in ctx.results(o.op()) {
            self.names.insert(r, text.clone());
        }
        Ok(())
    }

    /// Index arithmetic on the kernel's scalars (program ids, loop
    /// variables).
    fn index_op(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let operands = ctx.operands(op).to_vec();
        let results: Vec<Value> = ctx.results(op).collect();
        let binary = |f: &dyn Fn(&str, &str) -> String| -> Option<String> {
            let a = self.names.get(operands.first()?)?;
            let b = self.names.get(operands.get(1)?)?;
            Some(f(a, b))
        };
        let expr = if arith::AddI::is(ctx, op) {
            binary(&|a, b| format!("{a} + {b}"))
        } else if arith::SubI::is(ctx, op) {
            binary(&|a, b| format!("{a} - {b}"))
        } else if arith::MulI::is(ctx, op) {
            binary(&|a, b| format!("{a} * {b}"))
        } else if arith::DivSI::is(ctx, op)
            || arith::DivUI::is(ctx, op)
            || arith::FloorDivSI::is(ctx, op)
        {
            // Indices are not negative here: truncation is flooring.
            binary(&|a, b| format!("{a} // {b}"))
        } else if arith::CeilDivSI::is(ctx, op) || arith::CeilDivUI::is(ctx, op) {
            binary(&|a, b| format!("-((-{a}) // {b})"))
        } else if arith::RemSI::is(ctx, op) || arith::RemUI::is(ctx, op) {
            binary(&|a, b| format!("{a} % {b}"))
        } else if arith::MinSI::is(ctx, op) || arith::MinUI::is(ctx, op) {
            binary(&|a, b| format!("min({a}, {b})"))
        } else if arith::MaxSI::is(ctx, op) || arith::MaxUI::is(ctx, op) {
            binary(&|a, b| format!("max({a}, {b})"))
        } else if let Some(c) = arith::CmpI::of(ctx, op) {
            // A flag as the integer 0 or 1 (what index_castui then keeps).
            let sign = match c.predicate(ctx) {
                Some(0) => "==",
                Some(1) => "!=",
                Some(2 | 6) => "<",
                Some(3 | 7) => "<=",
                Some(4 | 8) => ">",
                Some(5 | 9) => ">=",
                _ => return Err(fail(ctx, op, "an unknown arith.cmpi predicate")),
            };
            binary(&|a, b| format!("int({a} {sign} {b})"))
        } else if arith::IndexCastUI::is(ctx, op) || arith::IndexCast::is(ctx, op) {
            operands.first().and_then(|a| self.names.get(a)).cloned()
        } else {
            return Err(fail(
                ctx,
                op,
                format!("{} has no NKI Python form", ctx.op_name(op)),
            ));
        };
        let (Some(expr), [r]) = (expr, &results[..]) else {
            return Err(fail(ctx, op, "expected two named operands and one result"));
        };
        let n = self.bind(*r, "i");
        self.emit_line(op, format!("{n} = {expr}"))
    }

    /// A loop's header and body; `carried` are the names of the values it
    /// carries, bound to the body's block arguments after the induction
    /// variable.
    fn body(
        &mut self,
        op: Op,
        header: &str,
        body: Region,
        carried: &[String],
    ) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let b = ctx
            .entry_block(body)
            .ok_or_else(|| fail(ctx, op, "a loop without a body"))?;
        let args = ctx.block_args(b).to_vec();
        let iv = self.bind(args[0], "k");
        for (a, n) in args[1..].iter().zip(carried) {
            self.names.insert(*a, n.clone());
        }
        self.emit_line(op, header.replace("{iv}", &iv))?;
        self.depth += 1;
        self.region(body)?;
        // The yield: the carried names take the yielded values.
        let term = ctx.block_ops(b).last();
        if let Some(y) = term.and_then(|t| Yield::of(ctx, t)) {
            for (n, v) in carried.iter().zip(y.values(ctx).to_vec()) {
                let now = self.name(y.op(), v)?;
                if &now != n {
                    self.line(&format!("{n} = {now}"));
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn bounds(lower: Option<i64>, upper: Option<i64>, step: Option<i64>) -> String {
        match (lower.unwrap_or(0), upper.unwrap_or(0), step.unwrap_or(1)) {
            (0, u, 1) => format!("{u}"),
            (l, u, 1) => format!("{l}, {u}"),
            (l, u, s) => format!("{l}, {u}, {s}"),
        }
    }

    /// `nki.affine_range` as `for k in nl.affine_range(..)`.
    fn affine_range(&mut self, o: AffineRange) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let b = Self::bounds(o.lower(ctx), o.upper(ctx), o.step(ctx));
        self.body(
            o.op(),
            &format!("for {{iv}} in nl.affine_range({b}):"),
            o.body(ctx),
            &[],
        )
    }

    /// `nki.sequential_range`: the carried values live in variables set
    /// before the loop and at the end of each iteration.
    fn sequential_range(&mut self, o: SequentialRange) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let mut carried = Vec::new();
        for (i, r) in o.inits(ctx).to_vec().into_iter().zip(ctx.results(o.op())) {
            let init_name = self.name(o.op(), i)?;
            let n = self.bind(r, "acc");
            // A matmul adds into its accumulator in place: an init that
            // anything else reads is copied.
            if ctx.uses(i).len() > 1 && nki::nki_tile(ctx.uniquer(), ctx.value_type(i)).is_some() {
                let t = self.tile(o.op(), i)?;
                let d = self.dtype(o.op(), t.elem)?;
                self.line(&format!("{n} = nisa.tensor_copy({init_name}, dtype={d})"));
            } else {
                self.line(&format!("{n} = {init_name}"));
            }
            carried.push(n);
        }
        let b = Self::bounds(o.lower(ctx), o.upper(ctx), o.step(ctx));
        self.body(
            o.op(),
            &format!("for {{iv}} in nl.sequential_range({b}):"),
            o.body(ctx),
            &carried,
        )
    }

    /// The index expression and mask of a DMA of `shape` at `origin`
    /// through the op's descriptor: declares the `nl.arange` index tiles
    /// and gives (flat offset expression, mask conditions).
    fn access(
        &mut self,
        op: Op,
        desc: &aic_dialects::coord::Desc,
        origin: &[Value],
        shape: &[i64],
    ) -> Result<(String, Vec<String>), Diagnostic> {
        let ctx = self.ctx;
        let bad = |m: String| fail(ctx, op, m);
        let lens = desc
            .lens()
            .map_err(|e| bad(format!("bad descriptor: {e}")))?;
        let rank = shape.len();
        let lead = origin.len() - rank;
        let mut aranges = Vec::new();
        for (j, n) in shape.iter().enumerate() {
            let v = self.fresh("ix");
            let slots: Vec<&str> = (0..rank)
                .map(|k| if k == j { ":" } else { "None" })
                .collect();
            self.line(&format!("{v} = nl.arange({n})[{}]", slots.join(", ")));
            aranges.push(v);
        }
        let mut valid = Vec::new();
        // The temporaries named on the way: (name, its expression).
        let mut temps: Vec<(String, String)> = Vec::new();
        let mut cur: Vec<Ix> = Vec::new();
        for (k, o) in origin.iter().enumerate() {
            let base = self.name(op, *o)?;
            let base = base.parse::<i64>().map_or(Ix::Code(base), Ix::Const);
            if k < lead {
                cur.push(base);
                continue;
            }
            let j = k - lead;
            let ix = base.add(&Ix::Code(aranges[j].clone()));
            let within = matches!(base, Ix::Const(b) if b + shape[j] <= desc.upper[k]);
            if !within {
                valid.push(format!("{} < {}", ix.text(), desc.upper[k]));
            }
            cur.push(ix);
        }
        let mut cur_lens = desc.upper.clone();
        for (stage, low_lens) in desc.stages.iter().zip(&lens) {
            let mut next = vec![Ix::Const(0); low_lens.len()];
            for s in stage {
                let up: Vec<Ix> = s.upper.iter().map(|d| cur[*d].clone()).collect();
                let ul: Vec<i64> = s.upper.iter().map(|d| cur_lens[*d]).collect();
                let outs: Vec<Ix> = match &s.t {
                    Transform::Pass => vec![up[0].clone()],
                    Transform::Pad { lo, .. } => {
                        let l = up[0].add(&Ix::Const(-lo));
                        let len = low_lens[s.lower[0]];
                        let t = self.fresh("pad");
                        self.line(&format!("{t} = {}", l.text()));
                        temps.push((t.clone(), l.text()));
                        valid.push(format!("{t} >= 0"));
                        valid.push(format!("{t} < {len}"));
                        vec![Ix::Code(t)]
                    }
                    Transform::Slice { begin, .. } => vec![up[0].add(&Ix::Const(*begin))],
                    Transform::Embed {
                        strides, offset, ..
                    } => {
                        let mut acc = Ix::Const(*offset);
                        for (u, st) in up.iter().zip(strides) {
                            acc = acc.add(&u.mul(*st));
                        }
                        vec![acc]
                    }
                    Transform::Merge { lens } => {
                        let t = self.fresh("m");
                        self.line(&format!("{t} = {}", up[0].text()));
                        temps.push((t.clone(), up[0].text()));
                        let mut outs = Vec::new();
                        let mut div = 1i64;
                        for (k, l) in lens.iter().enumerate().rev() {
                            let q = if div == 1 {
                                t.clone()
                            } else {
                                // `//` and `%` bind alike, left to right.
                                format!("{t} // {div}")
                            };
                            outs.push(match (*l, k) {
                                (1, _) => Ix::Const(0),
                                // The outermost needs no remainder: the
                                // upper index is within the product.
                                (_, 0) if div == 1 => Ix::Code(t.clone()),
                                (_, 0) => Ix::Code(q),
                                _ => Ix::Code(format!("{q} % {l}")),
                            });
                            div *= l;
                        }
                        outs.reverse();
                        outs
                    }
                    Transform::Unmerge | Transform::Vectorize { .. } => {
                        let mut acc = Ix::Const(0);
                        let mut stride = 1i64;
                        for (u, l) in up.iter().zip(&ul).rev() {
                            acc = acc.add(&u.mul(stride));
                            stride *= l;
                        }
                        vec![acc]
                    }
                    Transform::Freeze { value, .. } => vec![Ix::Const(*value)],
                    Transform::Broadcast => Vec::new(),
                };
                for (d, v) in s.lower.iter().zip(outs) {
                    next[*d] = v;
                }
            }
            cur = next;
            cur_lens = low_lens.clone();
        }
        let mut flat = Ix::Const(0);
        let mut stride = 1i64;
        for (c, l) in cur.iter().zip(&cur_lens).rev() {
            flat = flat.add(&c.mul(stride));
            stride *= l;
        }
        // A dim every index reads the same element of still takes the
        // tile's shape: broadcast the offset to it.
        let text = flat.text();
        let words = |t: &str| -> Vec<String> {
            t.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .map(str::to_string)
                .collect()
        };
        // The names the offset reads, through the temporaries it names.
        let mut used = words(&text);
        for (name, expr) in temps.iter().rev() {
            if used.contains(name) {
                used.extend(words(expr));
            }
        }
        let zeros: Vec<String> = aranges
            .iter()
            .filter(|a| !used.contains(a))
            .map(|a| format!("0 * {a}"))
            .collect();
        let flat = if zeros.is_empty() {
            text
        } else {
            format!("{text} + {}", zeros.join(" + "))
        };
        Ok((flat, valid))
    }

    /// `mask=(a) & (b)`, or nothing.
    fn mask_arg(valid: &[String]) -> String {
        if valid.is_empty() {
            String::new()
        } else {
            let cs: Vec<String> = valid.iter().map(|c| format!("({c})")).collect();
            format!(", mask={}", cs.join(" & "))
        }
    }

    /// The flat view of HBM tensor `buffer` DMA index into.
    fn flat(&self, op: Op, buffer: Value) -> Result<String, Diagnostic> {
        let n = self.name(op, buffer)?;
        let len: i64 = self
            .ctx
            .type_kind(self.ctx.value_type(buffer))
            .shape()
            .map_or(1, |s| s.iter().product());
        Ok(format!("{n}.reshape(({len},))"))
    }

    fn desc(
        &self,
        op: Op,
        desc: Option<aic::attributes::Attr>,
        buffer: Value,
    ) -> Result<aic_dialects::coord::Desc, Diagnostic> {
        let ctx = self.ctx;
        match desc {
            Some(a) => aic_dialects::coord::desc_of(ctx.uniquer(), a).cloned(),
            None => ctx
                .type_kind(ctx.value_type(buffer))
                .shape()
                .map(aic_dialects::coord::Desc::row_major)
                .ok_or_else(|| "the buffer has no shape".to_string()),
        }
        .map_err(|e| fail(ctx, op, e))
    }

    /// `nki.load`: `nl.load(tensor[index], mask=...)`; masked elements
    /// read as zero.
    fn load(&mut self, o: Load) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let t = self.tile(o.op(), o.result(ctx))?;
        let d = self.desc(o.op(), o.desc(ctx), o.buffer(ctx))?;
        let (ix, valid) = self.access(o.op(), &d, o.origin(ctx), &t.shape)?;
        let src = self.flat(o.op(), o.buffer(ctx))?;
        let (n, _) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!("{n} = nl.load({src}[{ix}]{})", Self::mask_arg(&valid)),
        )
    }

    /// `nki.store`: `nl.store(tensor[index], value=tile, mask=...)`.
    fn store(&mut self, o: Store) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let t = self.tile(o.op(), o.value(ctx))?;
        let d = self.desc(o.op(), o.desc(ctx), o.buffer(ctx))?;
        let (ix, valid) = self.access(o.op(), &d, o.origin(ctx), &t.shape)?;
        let dst = self.flat(o.op(), o.buffer(ctx))?;
        let v = self.name(o.op(), o.value(ctx))?;
        self.emit_line(
            o.op(),
            format!("nl.store({dst}[{ix}], value={v}{})", Self::mask_arg(&valid)),
        )
    }

    /// `nki.matmul`: `acc += nisa.nc_matmul(stationary, moving)`. The
    /// result takes the accumulator's PSUM tile where the matmul is its
    /// only use, in the block that defines it; otherwise the accumulator is
    /// copied first (a zeroed tile a loop starts from each iteration).
    fn matmul(&mut self, o: Matmul) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let acc = o.acc(ctx);
        let home = match ctx.value_def(acc) {
            aic::ir::ValueDef::Result(d, _) => ctx.parent_block(d),
            aic::ir::ValueDef::Arg(b, _) => Some(b),
            aic::ir::ValueDef::Placeholder => None,
        };
        let alone = ctx.uses(acc).len() == 1 && home == ctx.parent_block(o.op());
        let (s, m, a) = (
            self.name(o.op(), o.stationary(ctx))?,
            self.name(o.op(), o.moving(ctx))?,
            self.name(o.op(), acc)?,
        );
        let a = if alone {
            self.names.insert(o.result(ctx), a.clone());
            a
        } else {
            let (n, d) = self.result(o.op(), o.result(ctx))?;
            self.line(&format!("{n} = nisa.tensor_copy({a}, dtype={d})"));
            n
        };
        self.emit_line(o.op(), format!("{a} += nisa.nc_matmul({s}, {m})"))
    }

    /// `nki.transpose`: `nisa.nc_transpose` on the Tensor engine.
    fn transpose(&mut self, o: Transpose) -> Result<(), Diagnostic> {
        let x = self.name(o.op(), o.input(self.ctx))?;
        let (n, _) = self.result(o.op(), o.result(self.ctx))?;
        self.emit_line(o.op(), format!("{n} = nisa.nc_transpose({x})"))
    }

    fn act_name(a: Act) -> &'static str {
        match a {
            Act::Copy => "nl.copy",
            Act::Exp => "nl.exp",
            Act::Log => "nl.log",
            Act::Tanh => "nl.tanh",
            Act::Sqrt => "nl.sqrt",
            Act::Rsqrt => "nl.rsqrt",
            Act::Sigmoid => "nl.sigmoid",
            Act::Relu => "nl.relu",
            Act::Abs => "nl.abs",
            Act::Sin => "nl.sin",
            Act::Cos => "nl.cos",
            Act::Square => "nl.square",
            Act::Reciprocal => "nl.reciprocal",
            Act::Negative => "nl.negative",
            Act::Erf => "nl.erf",
        }
    }

    fn alu_name(a: Alu) -> &'static str {
        match a {
            Alu::Add => "nl.add",
            Alu::Subtract => "nl.subtract",
            Alu::Multiply => "nl.multiply",
            Alu::Divide => "nl.divide",
            Alu::Max => "nl.maximum",
            Alu::Min => "nl.minimum",
            Alu::IsEqual => "nl.equal",
            Alu::NotEqual => "nl.not_equal",
            Alu::IsGt => "nl.greater",
            Alu::IsGe => "nl.greater_equal",
            Alu::IsLt => "nl.less",
            Alu::IsLe => "nl.less_equal",
            Alu::Pow => "nl.power",
            Alu::BitwiseAnd => "nl.bitwise_and",
            Alu::BitwiseOr => "nl.bitwise_or",
            Alu::BitwiseXor => "nl.bitwise_xor",
            Alu::LeftShift => "nl.left_shift",
            Alu::RightShift => "nl.right_shift",
        }
    }

    /// `nki.activation`: `nisa.activation(op, data, bias, scale)`, a
    /// non-zero bias as a per-partition column.
    fn activation(&mut self, o: Activation) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let f = o
            .func(ctx)
            .ok_or_else(|| fail(ctx, o.op(), "no function"))?;
        let x = self.name(o.op(), o.input(ctx))?;
        let scale = o.scale(ctx).map_or(1.0, |s| s.0);
        let bias = o.bias(ctx).map_or(0.0, |b| b.0);
        let t = self.tile(o.op(), o.input(ctx))?;
        let bias = if bias == 0.0 {
            "None".to_string()
        } else {
            let b = self.fresh("bias");
            self.line(&format!(
                "{b} = nl.full(({}, 1), {}, dtype=nl.float32, buffer=nl.sbuf)",
                t.partitions(),
                float(bias)
            ));
            b
        };
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!(
                "{n} = nisa.activation(op={}, data={x}, bias={bias}, scale={}, dtype={d})",
                Self::act_name(f),
                float(scale)
            ),
        )
    }

    /// `nki.tensor_tensor`: `nisa.tensor_tensor`, or `nisa.tensor_scalar`
    /// where the right operand is one column per partition.
    fn tensor_tensor(&mut self, o: TensorTensor) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let op = o
            .kind(ctx)
            .ok_or_else(|| fail(ctx, o.op(), "no operator"))?;
        let (a, b) = (
            self.name(o.op(), o.lhs(ctx))?,
            self.name(o.op(), o.rhs(ctx))?,
        );
        let (ta, tb) = (
            self.tile(o.op(), o.lhs(ctx))?,
            self.tile(o.op(), o.rhs(ctx))?,
        );
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        let f = Self::alu_name(op);
        let line = if ta.shape == tb.shape {
            format!("{n} = nisa.tensor_tensor({a}, {b}, op={f}, dtype={d})")
        } else {
            format!("{n} = nisa.tensor_scalar({a}, op0={f}, operand0={b}, dtype={d})")
        };
        self.emit_line(o.op(), line)
    }

    /// `nki.tensor_scalar`: `nisa.tensor_scalar` with a constant operand
    /// (plus an index the program computed).
    fn tensor_scalar(&mut self, o: TensorScalar) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let op = o
            .kind(ctx)
            .ok_or_else(|| fail(ctx, o.op(), "no operator"))?;
        let x = self.name(o.op(), o.input(ctx))?;
        let s = float(o.scalar(ctx).map_or(0.0, |s| s.0));
        let s = match o.dynamic(ctx) {
            Some(v) => format!("{s} + {}", self.name(o.op(), v)?),
            None => s,
        };
        let rev = if o.reverse(ctx).is_some_and(|f| f.0) {
            ", reverse0=True"
        } else {
            ""
        };
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!(
                "{n} = nisa.tensor_scalar({x}, op0={}, operand0={s}{rev}, dtype={d})",
                Self::alu_name(op)
            ),
        )
    }

    /// `nki.tensor_reduce`: `nisa.tensor_reduce` over every free axis,
    /// keeping one column.
    fn tensor_reduce(&mut self, o: TensorReduce) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let op = o
            .kind(ctx)
            .ok_or_else(|| fail(ctx, o.op(), "no operator"))?;
        let x = self.name(o.op(), o.input(ctx))?;
        let t = self.tile(o.op(), o.input(ctx))?;
        if t.shape.len() != 2 {
            return Err(fail(
                ctx,
                o.op(),
                "a reduction of a tile of several free axes to one column",
            ));
        }
        let f = reduce_name(op);
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!(
                "{n} = nisa.tensor_reduce(op={f}, data={x}, axis=(1,), dtype={d}, keepdims=True)"
            ),
        )
    }

    /// `nki.partition_reduce`: the tile transposed on the Tensor engine,
    /// reduced along the free axis (in partition order, in fp32), and
    /// transposed back to one partition.
    fn partition_reduce(&mut self, o: PartitionReduce) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let op = o
            .kind(ctx)
            .ok_or_else(|| fail(ctx, o.op(), "no operator"))?;
        let t = self.tile(o.op(), o.input(ctx))?;
        if t.shape.len() != 2 || t.shape[1] > nki::PARTITIONS {
            return Err(fail(
                ctx,
                o.op(),
                format!(
                    "a reduction across partitions of a {:?} tile: NKI transposes at most {} columns",
                    t.shape,
                    nki::PARTITIONS
                ),
            ));
        }
        let x = self.name(o.op(), o.input(ctx))?;
        let f = reduce_name(op);
        let (tt, col) = (self.fresh("t"), self.fresh("t"));
        self.line(&format!("{tt} = nisa.nc_transpose({x})"));
        self.line(&format!(
            "{col} = nisa.tensor_reduce(op={f}, data={tt}, axis=(1,), dtype=nl.float32, keepdims=True)"
        ));
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!("{n} = nisa.tensor_copy(nisa.nc_transpose({col}), dtype={d})"),
        )
    }

    /// `nki.free_broadcast` and `nki.partition_broadcast`:
    /// `nl.broadcast_to`.
    fn broadcast(&mut self, op: Op, input: Value, result: Value) -> Result<(), Diagnostic> {
        let x = self.name(op, input)?;
        let t = self.tile(op, result)?;
        let (n, _) = self.result(op, result)?;
        self.emit_line(
            op,
            format!("{n} = nl.broadcast_to({x}, shape={})", tuple(&t.shape)),
        )
    }

    /// `nki.iota`: `nisa.iota` of the index along one dimension.
    fn iota(&mut self, o: Iota) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let t = self.tile(o.op(), o.result(ctx))?;
        let dim = o.dim(ctx).unwrap_or(0) as usize;
        let rank = t.shape.len();
        let terms: Vec<String> = t
            .shape
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let slots: Vec<&str> = (0..rank)
                    .map(|j| if j == k { ":" } else { "None" })
                    .collect();
                let c = if k == dim { "" } else { "0 * " };
                format!("{c}nl.arange({n})[{}]", slots.join(", "))
            })
            .collect();
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!("{n} = nisa.iota({}, dtype={d})", terms.join(" + ")),
        )
    }

    /// `nki.select`: `nl.where`.
    fn select(&mut self, o: Select) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let (p, a, b) = (
            self.name(o.op(), o.pred(ctx))?,
            self.name(o.op(), o.on_true(ctx))?,
            self.name(o.op(), o.on_false(ctx))?,
        );
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(o.op(), format!("{n} = nl.where({p}, {a}, {b}, dtype={d})"))
    }

    /// `nki.affine_select`: `nisa.affine_select` on an affine condition of
    /// the partition and free index.
    fn affine_select(&mut self, o: AffineSelect) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let t = self.tile(o.op(), o.input(ctx))?;
        if t.shape.len() != 2 {
            return Err(fail(
                ctx,
                o.op(),
                "an affine select of a tile of rank over 2",
            ));
        }
        let c = o.coeffs(ctx).unwrap_or_default();
        let x = self.name(o.op(), o.input(ctx))?;
        let fill = float(o.fill(ctx).map_or(0.0, |f| f.0));
        let (p, f) = (t.shape[0], t.shape[1]);
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!(
                "{n} = nisa.affine_select(pred=({} * nl.arange({p})[:, None] + {} * nl.arange({f})[None, :] + {} >= 0), on_true_tile={x}, on_false_value={fill}, dtype={d})",
                c[0], c[1], c[2]
            ),
        )
    }

    /// `nki.mask`: the validity of an access pattern as a 0/1 tile.
    fn mask(&mut self, o: Mask) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let t = self.tile(o.op(), o.result(ctx))?;
        let d = self.desc(o.op(), o.desc(ctx), o.result(ctx))?;
        let (ix, valid) = self.access(o.op(), &d, o.origin(ctx), &t.shape)?;
        let cond = if valid.is_empty() {
            "True".to_string()
        } else {
            valid
                .iter()
                .map(|c| format!("({c})"))
                .collect::<Vec<_>>()
                .join(" & ")
        };
        let (n, dt) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!("{n} = nl.where(({cond}) & ({ix} >= 0), 1, 0, dtype={dt})"),
        )
    }

    /// `nki.copy`: `nisa.tensor_copy`, converting to the result's dtype.
    fn copy(&mut self, o: Copy) -> Result<(), Diagnostic> {
        let x = self.name(o.op(), o.input(self.ctx))?;
        let (n, d) = self.result(o.op(), o.result(self.ctx))?;
        self.emit_line(o.op(), format!("{n} = nisa.tensor_copy({x}, dtype={d})"))
    }

    /// `nki.memset`: `nl.full` in SBUF or PSUM.
    fn memset(&mut self, o: Memset) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let t = self.tile(o.op(), o.result(ctx))?;
        let v = float(o.value(ctx).map_or(0.0, |v| v.0));
        let buf = match t.space {
            Space::Sbuf => "nl.sbuf",
            Space::Psum => "nl.psum",
        };
        let (n, d) = self.result(o.op(), o.result(ctx))?;
        self.emit_line(
            o.op(),
            format!(
                "{n} = nl.full({}, {v}, dtype={d}, buffer={buf})",
                tuple(&t.shape)
            ),
        )
    }

    /// The host side of `f`: allocates each launch's outputs (zeroed) and
    /// runs its kernel over its grid, in order; reshapes between kernels
    /// are NumPy reshapes.
    fn host(&mut self, f: func::Func) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let name = aic::symbol::symbol_name(ctx, f.op())
            .unwrap_or_default()
            .to_string();
        let Some(body) = ctx.regions(f.op()).first().copied() else {
            return Ok(());
        };
        let Some(b) = ctx.entry_block(body) else {
            return Ok(());
        };
        let args: Vec<String> = ctx
            .block_args(b)
            .to_vec()
            .into_iter()
            .enumerate()
            .map(|(i, a)| {
                let n = format!("arg{i}");
                self.names.insert(a, n.clone());
                n
            })
            .collect();
        if !self.helpers_written && computes_on_host(ctx, b) {
            self.host_helpers();
        }
        self.line(&format!(
            "def {name}({}):{}",
            args.join(", "),
            self.loc(f.op())
        ));
        self.depth += 1;
        self.line(
            "\"\"\"The host side: allocates outputs in HBM and runs the kernels in order.\"\"\"",
        );
        self.host_block(b)?;
        self.depth -= 1;
        self.line("");
        self.line("");
        Ok(())
    }

    /// The ops of host block `b` (a function's, a loop's or a branch's);
    /// gives the names of what its terminator (other than `func.return`,
    /// written as the return) yields.
    fn host_block(&mut self, b: aic::ir::Block) -> Result<Vec<String>, Diagnostic> {
        use aic_dialects::stablehlo::structured as control;
        let ctx = self.ctx;
        let ops: Vec<Op> = ctx.block_ops(b).collect();
        for op in ops {
            if let Some(l) = Launch::of(ctx, op) {
                self.launch(l)?;
            } else if let Some(r) = graph::Reshape::of(ctx, op) {
                let x = self.name(op, r.x(ctx))?;
                let shape = ctx
                    .type_kind(ctx.value_type(r.result(ctx)))
                    .shape()
                    .map(<[i64]>::to_vec)
                    .unwrap_or_default();
                let n = self.bind(r.result(ctx), "h");
                self.emit_line(op, format!("{n} = {x}.reshape({})", tuple(&shape)))?;
            } else if func::Return::is(ctx, op) {
                let vs = self.names_of(op, ctx.operands(op))?;
                let text = match &vs[..] {
                    [v] => v.clone(),
                    _ => format!("({})", vs.join(", ")),
                };
                self.line(&format!("return {text}"));
            } else if control::Return::is(ctx, op) || aic_dialects::fusion::Yield::is(ctx, op) {
                return self.names_of(op, ctx.operands(op));
            } else if let Some(w) = control::While::of(ctx, op) {
                self.host_while(w)?;
            } else if control::If::is(ctx, op) || control::Case::is(ctx, op) {
                self.host_branches(op)?;
            } else if aic_dialects::fusion::Group::is(ctx, op) {
                // A group the host computes (scalars): its body, inline.
                let body = ctx
                    .regions(op)
                    .first()
                    .and_then(|r| ctx.entry_block(*r))
                    .ok_or_else(|| fail(ctx, op, "a group without a body"))?;
                for (a, v) in ctx
                    .block_args(body)
                    .to_vec()
                    .into_iter()
                    .zip(ctx.operands(op).to_vec())
                {
                    let n = self.name(op, v)?;
                    self.names.insert(a, n);
                }
                let outs = self.host_block(body)?;
                for (r, n) in ctx.results(op).zip(outs) {
                    self.names.insert(r, n);
                }
            } else {
                self.host_op(op)?;
            }
        }
        Ok(Vec::new())
    }

    fn names_of(&self, op: Op, vs: &[Value]) -> Result<Vec<String>, Diagnostic> {
        vs.iter().map(|v| self.name(op, *v)).collect()
    }

    /// `stablehlo.while`: the carried values in names the condition and the
    /// body share, `while True:` with the condition's test and the body's
    /// new values.
    fn host_while(
        &mut self,
        w: aic_dialects::stablehlo::structured::While,
    ) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let op = w.op();
        let blocks: Vec<aic::ir::Block> = ctx
            .regions(op)
            .iter()
            .filter_map(|r| ctx.entry_block(*r))
            .collect();
        let [cond, body] = blocks[..] else {
            return Err(fail(ctx, op, "a while without a condition and a body"));
        };
        let inits = self.names_of(op, ctx.operands(op))?;
        let carried: Vec<String> = (0..inits.len()).map(|_| self.fresh("w")).collect();
        for (c, i) in carried.iter().zip(&inits) {
            self.emit_line(op, format!("{c} = {i}"))?;
        }
        for b in [cond, body] {
            for (a, c) in ctx.block_args(b).iter().zip(&carried) {
                self.names.insert(*a, c.clone());
            }
        }
        self.line("while True:");
        self.depth += 1;
        let test = self.host_block(cond)?;
        let [t] = &test[..] else {
            return Err(fail(ctx, op, "a while condition yields one flag"));
        };
        self.line(&format!("if not bool({t}):"));
        self.line("    break");
        let next = self.host_block(body)?;
        if next.len() != carried.len() {
            return Err(fail(ctx, op, "a while body yields its carried values"));
        }
        if !carried.is_empty() {
            self.line(&format!("{} = {}", carried.join(", "), next.join(", ")));
        }
        self.depth -= 1;
        for (r, c) in ctx.results(op).zip(carried) {
            self.names.insert(r, c);
        }
        Ok(())
    }

    /// `stablehlo.if` and `stablehlo.case`: one Python branch per region,
    /// each binding the op's results (case's index out of range takes the
    /// last branch, as StableHLO says).
    fn host_branches(&mut self, op: Op) -> Result<(), Diagnostic> {
        use aic_dialects::stablehlo::structured as control;
        let ctx = self.ctx;
        let x = self.name(op, ctx.operands(op)[0])?;
        let regions = ctx.regions(op).to_vec();
        let results: Vec<String> = ctx.results(op).map(|_| self.fresh("c")).collect();
        let last = regions.len().saturating_sub(1);
        for (k, r) in regions.iter().enumerate() {
            let head = if control::If::is(ctx, op) {
                if k == 0 {
                    format!("if bool({x}):")
                } else {
                    "else:".to_string()
                }
            } else if k == last {
                "else:".to_string()
            } else {
                format!("{} int({x}) == {k}:", if k == 0 { "if" } else { "elif" })
            };
            if regions.len() == 1 {
                self.line("if True:");
            } else {
                self.line(&head);
            }
            self.depth += 1;
            let b = ctx
                .entry_block(*r)
                .ok_or_else(|| fail(ctx, op, "a branch without a block"))?;
            let outs = self.host_block(b)?;
            for (n, o) in results.iter().zip(&outs) {
                self.line(&format!("{n} = {o}"));
            }
            if results.is_empty() {
                self.line("pass");
            }
            self.depth -= 1;
        }
        for (r, n) in ctx.results(op).zip(results) {
            self.names.insert(r, n);
        }
        Ok(())
    }

    /// A graph op on the host (scalar arithmetic, a constant) as NumPy,
    /// its result held in its own dtype.
    fn host_op(&mut self, op: Op) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let unsupported = || {
            fail(
                ctx,
                op,
                format!(
                    "{} on the host: kernel launches, views, constants, scalar arithmetic and control flow are emitted",
                    ctx.op_name(op)
                ),
            )
        };
        let [r] = ctx.results(op).collect::<Vec<_>>()[..] else {
            return Err(unsupported());
        };
        let rt = ctx.value_type(r);
        let elem = ctx.type_kind(rt).element_type().ok_or_else(unsupported)?;
        let d = host_dtype(ctx, elem).ok_or_else(unsupported)?;
        let expr = if let Some(c) = graph::Constant::of(ctx, op) {
            let t = c
                .value(ctx)
                .and_then(|a| aic::interp::tensor_of_attr(ctx.uniquer(), a, rt))
                .ok_or_else(unsupported)?;
            let n = t.shape.iter().product::<i64>() as usize;
            let literal = |v: f64| match ctx.type_kind(elem) {
                TypeKind::Integer { width: 1, .. } => {
                    if v != 0.0 { "True" } else { "False" }.to_string()
                }
                TypeKind::Integer { .. } => format!("{}", v as i64),
                _ => float(v),
            };
            let vals: Vec<String> = (0..n).map(|i| literal(t.data.f64_at(i))).collect();
            match &vals[..] {
                [v] if t.shape.is_empty() => v.clone(),
                _ => format!(
                    "np.array([{}]).reshape({})",
                    vals.join(", "),
                    tuple(&t.shape)
                ),
            }
        } else {
            let xs = self.names_of(op, ctx.operands(op))?;
            let unary: &[(IsOp, &str)] = &[
                (graph::Exp::is, "np.exp"),
                (graph::Log::is, "np.log"),
                (graph::Tanh::is, "np.tanh"),
                (graph::Sqrt::is, "np.sqrt"),
                (graph::Neg::is, "np.negative"),
                (graph::Abs::is, "np.abs"),
                (graph::Floor::is, "np.floor"),
                (graph::Ceil::is, "np.ceil"),
                (graph::Sin::is, "np.sin"),
                (graph::Cos::is, "np.cos"),
                (graph::Not::is, "np.invert"),
            ];
            let binary: &[(IsOp, &str)] = &[
                (graph::Add::is, "np.add"),
                (graph::Sub::is, "np.subtract"),
                (graph::Mul::is, "np.multiply"),
                (graph::Div::is, "_host_div"),
                (graph::Rem::is, "_host_rem"),
                (graph::Max::is, "np.maximum"),
                (graph::Min::is, "np.minimum"),
                (graph::Pow::is, "np.power"),
                (graph::And::is, "np.bitwise_and"),
                (graph::Or::is, "np.bitwise_or"),
                (graph::Xor::is, "np.bitwise_xor"),
            ];
            if let Some((_, f)) = unary.iter().find(|(is, _)| is(ctx, op)) {
                format!("{f}({})", xs[0])
            } else if let Some((_, f)) = binary.iter().find(|(is, _)| is(ctx, op)) {
                format!("{f}({}, {})", xs[0], xs[1])
            } else if let Some(c) = graph::Compare::of(ctx, op) {
                use aic_dialects::stablehlo::ComparisonDirection as D;
                let f = match c.direction(ctx).ok_or_else(unsupported)? {
                    D::Eq => "np.equal",
                    D::Ne => "np.not_equal",
                    D::Ge => "np.greater_equal",
                    D::Gt => "np.greater",
                    D::Le => "np.less_equal",
                    D::Lt => "np.less",
                };
                format!("{f}({}, {})", xs[0], xs[1])
            } else if graph::Select::is(ctx, op) {
                format!("np.where({}, {}, {})", xs[0], xs[1], xs[2])
            } else if graph::Cast::is(ctx, op) {
                xs[0].clone()
            } else {
                return Err(unsupported());
            }
        };
        let n = self.bind(r, "h");
        self.emit_line(op, format!("{n} = np.asarray({expr}).astype({d})"))
    }

    /// The host's helpers for what NumPy writes otherwise than StableHLO
    /// means: integer division truncating toward zero, and its remainder.
    fn host_helpers(&mut self) {
        self.helpers_written = true;
        for l in [
            "def _host_div(a, b):",
            "    \"\"\"a / b as StableHLO divides: integers truncate toward zero.\"\"\"",
            "    a, b = np.asarray(a), np.asarray(b)",
            "    if np.issubdtype(a.dtype, np.integer):",
            "        q = np.abs(a) // np.abs(b)",
            "        return np.where((a < 0) != (b < 0), -q, q)",
            "    return a / b",
            "",
            "",
            "def _host_rem(a, b):",
            "    \"\"\"The remainder of _host_div, with the dividend's sign.\"\"\"",
            "    a, b = np.asarray(a), np.asarray(b)",
            "    if np.issubdtype(a.dtype, np.integer):",
            "        return a - _host_div(a, b) * b",
            "    return np.fmod(a, b)",
            "",
            "",
        ] {
            self.line(l);
        }
    }

    /// One `nki.launch`: zeroed outputs, then `kernel[grid](inputs, outputs)`.
    fn launch(&mut self, l: Launch) -> Result<(), Diagnostic> {
        let ctx = self.ctx;
        let op = l.op();
        let kernel = aic_dialects::gpu::kernel_of(ctx, op, nki::KERNEL.name)
            .ok_or_else(|| fail(ctx, op, "names no nki.kernel"))?;
        let kname = aic::symbol::symbol_name(ctx, kernel)
            .unwrap_or_default()
            .to_string();
        let grid = Kernel::wrap(kernel).grid(ctx).unwrap_or_default();
        let mut names: Vec<String> = l
            .inputs(ctx)
            .iter()
            .map(|v| self.name(op, *v))
            .collect::<Result<_, _>>()?;
        for r in ctx.results(op) {
            let k = ctx.type_kind(ctx.value_type(r));
            let shape = k.shape().map(<[i64]>::to_vec).unwrap_or_default();
            let elem = k
                .element_type()
                .ok_or_else(|| fail(ctx, op, "an output without an element type"))?;
            let d = host_dtype(ctx, elem)
                .ok_or_else(|| fail(ctx, op, "an output of a dtype the host cannot allocate"))?;
            let n = self.bind(r, "out");
            self.line(&format!("{n} = np.zeros({}, dtype={d})", tuple(&shape)));
            names.push(n);
        }
        let g: Vec<String> = grid.iter().map(i64::to_string).collect();
        self.emit_line(
            op,
            format!("{kname}[{}]({})", g.join(", "), names.join(", ")),
        )
    }
}
