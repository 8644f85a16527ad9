//! The reference interpreter's core: runtime tensors, conversions to and from
//! constant attributes, and the executor that walks functions and regions.
//!
//! The framework knows no dialect. An op gets its meaning from its spec's
//! [`InterpretFn`] (beside each dialect); ops with regions run them through
//! [`Interp::run_region`]. Every value is a [`Tensor`]: scalars are rank-0
//! tensors that remember their scalar type.
//!
//! Elements are kept at their type's natural width (see [`Ints`],
//! [`Floats`], [`Complexes`]) and read and written as `i64` normalised to
//! their width (sign-extended for signless and signed types, zero-extended
//! for unsigned ones), `f64` holding a value exactly representable in the
//! element type (results are rounded to it as they are stored, after every
//! operation: computing in `f64` and rounding once is exact for `+ - * /`
//! and square root of every narrower format), and pairs of `f64`.

mod process;
mod store;
pub use process::{Extensions, Grid, Process, Queue};
pub use store::{Buffer, Complexes, Floats, IntLane, Ints};

use crate::attributes::{Attr, AttrKind, DenseData};
use crate::diagnostics::Diagnostic;
use crate::float::FloatKind;
use crate::ir::{Block, Context, Op, Region, Value};
use crate::types::{Signedness, Type, TypeKind};
use std::collections::HashMap;
use std::rc::Rc;

/// The kind of a tensor's elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// An integer of `width` bits.
    Int {
        /// Bits.
        width: u32,
        /// Signless, signed or unsigned.
        signedness: Signedness,
    },
    /// `index` (64-bit signed here).
    Index,
    /// A float format.
    Float(FloatKind),
    /// A complex number of two floats.
    Complex(FloatKind),
}

impl Elem {
    /// The element kind of a scalar or shaped type.
    pub fn of(ctx: &crate::ir::Uniquer, ty: Type) -> Option<Elem> {
        let scalar = match ctx.type_kind(ty) {
            TypeKind::Tensor { elem, .. } | TypeKind::Vector { elem, .. } => *elem,
            _ => ty,
        };
        Some(match ctx.type_kind(scalar) {
            TypeKind::Integer { width, signedness } if *width <= 64 => Elem::Int {
                width: *width,
                signedness: *signedness,
            },
            TypeKind::Index => Elem::Index,
            TypeKind::Float(k) => Elem::Float(*k),
            TypeKind::Complex(e) => match ctx.type_kind(*e) {
                TypeKind::Float(k) => Elem::Complex(*k),
                _ => return None,
            },
            // A quantized element is kept as its storage integer.
            TypeKind::Dialect(d) => return Elem::of(ctx, d.storage_type()?),
            _ => return None,
        })
    }
    /// `v` brought to this integer kind: wrapped to the width, then sign- or
    /// zero-extended.
    pub fn wrap(self, v: i128) -> i64 {
        match self {
            Elem::Int { width, signedness } => {
                if width >= 64 {
                    return v as i64;
                }
                let m = (1u64 << width) - 1;
                let u = (v as u64) & m;
                if signedness == Signedness::Unsigned {
                    u as i64
                } else {
                    let s = 64 - width;
                    ((u << s) as i64) >> s
                }
            }
            _ => v as i64,
        }
    }
    /// `x` rounded to this float kind (or the component kind of a complex).
    pub fn round(self, x: f64) -> f64 {
        match self {
            Elem::Float(k) | Elem::Complex(k) => round_to(k, x),
            _ => x,
        }
    }
    /// Bytes the interpreter keeps per element of this kind.
    pub fn storage_bytes(self) -> u64 {
        store::storage_bytes(self)
    }
    /// The float kind of a float or complex kind (`f64` for the others).
    pub fn float_kind(self) -> FloatKind {
        match self {
            Elem::Float(k) | Elem::Complex(k) => k,
            _ => FloatKind::F64,
        }
    }
    /// Whether the integer kind is unsigned.
    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            Elem::Int {
                signedness: Signedness::Unsigned,
                ..
            }
        )
    }
}

/// `x` rounded to the nearest value of `k` (exactly representable in `f64`).
pub fn round_to(k: FloatKind, x: f64) -> f64 {
    match k {
        FloatKind::F64 => x,
        FloatKind::F32 => x as f32 as f64,
        _ => k.to_f64(k.from_f64(x)),
    }
}

/// Element storage.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Integers and `index`.
    Int(Ints),
    /// Floats.
    Float(Floats),
    /// Complex numbers (real, imaginary).
    Complex(Complexes),
    /// The elements of a tuple value (`tuple<tensor<f32>, tensor<i32>>`).
    Tuple(Vec<Tensor>),
}

impl Data {
    /// Integer elements of kind `e` (wrapped to its width).
    pub fn from_i64s(e: Elem, values: impl IntoIterator<Item = i64>) -> Data {
        Data::Int(Ints::from_iter(e, values))
    }
    /// Float elements of kind `k` (each rounded to it).
    pub fn from_f64s(k: FloatKind, values: impl IntoIterator<Item = f64>) -> Data {
        Data::Float(Floats::from_iter(k, values))
    }
    /// Complex elements with components of kind `k` (each rounded to it).
    pub fn from_complex(k: FloatKind, values: impl IntoIterator<Item = (f64, f64)>) -> Data {
        Data::Complex(Complexes::from_iter(k, values))
    }
    /// `n` elements of kind `e`, element `i` being `f(i)` read as a value of
    /// the kind: an integer for integer kinds, a real for float kinds, a real
    /// part for complex kinds.
    pub fn from_fn(e: Elem, n: usize, mut f: impl FnMut(usize) -> f64) -> Data {
        match e {
            Elem::Int { .. } | Elem::Index => Data::Int(Ints::from_fn(e, n, |i| f(i) as i64)),
            Elem::Float(k) => Data::Float(Floats::from_fn(k, n, f)),
            Elem::Complex(k) => Data::Complex(Complexes::from_fn(k, n, |i| (f(i), 0.0))),
        }
    }
    /// No elements, in the storage of kind `e`.
    pub fn empty(e: Elem) -> Data {
        match e {
            Elem::Int { .. } | Elem::Index => Data::Int(Ints::empty(e)),
            Elem::Float(k) => Data::Float(Floats::empty(k)),
            Elem::Complex(k) => Data::Complex(Complexes::from_iter(k, [])),
        }
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Data::Int(v) => v.len(),
            Data::Float(v) => v.len(),
            Data::Complex(v) => v.len(),
            Data::Tuple(v) => v.len(),
        }
    }
    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes the elements take (those of a tuple's members summed).
    pub fn byte_len(&self) -> usize {
        match self {
            Data::Int(v) => v.byte_len(),
            Data::Float(v) => v.byte_len(),
            Data::Complex(v) => v.byte_len(),
            Data::Tuple(v) => v.iter().map(|t| t.data.byte_len()).sum(),
        }
    }
    /// Element `i` as an `f64` (integers converted, a complex's real part).
    pub fn f64_at(&self, i: usize) -> f64 {
        match self {
            Data::Int(v) => v.get(i) as f64,
            Data::Float(v) => v.get(i),
            Data::Complex(v) => v.get(i).0,
            Data::Tuple(_) => 0.0,
        }
    }
    /// The elements at `idx` in the same storage (`None`: the first element
    /// of `fill`, or zero).
    pub fn take(&self, idx: impl Iterator<Item = Option<usize>>, fill: Option<&Data>) -> Data {
        match (self, fill) {
            (Data::Int(v), f) => Data::Int(v.take(
                idx,
                match f {
                    Some(Data::Int(p)) => p.first(),
                    _ => 0,
                },
            )),
            (Data::Float(v), Some(Data::Float(p))) => Data::Float(v.take(idx, Some(p))),
            (Data::Float(v), _) => Data::Float(v.take(idx, None)),
            (Data::Complex(v), Some(Data::Complex(p))) => Data::Complex(v.take(idx, Some(p))),
            (Data::Complex(v), _) => Data::Complex(v.take(idx, None)),
            (Data::Tuple(v), _) => Data::Tuple(idx.flatten().map(|i| v[i].clone()).collect()),
        }
    }
    /// `self` followed by the elements of `more` (of the same kind).
    pub fn extend_from(&mut self, more: &Data) {
        match (self, more) {
            (Data::Int(a), Data::Int(b)) => a.extend_from(b),
            (Data::Float(a), Data::Float(b)) => a.extend_from(b),
            (Data::Complex(a), Data::Complex(b)) => a.extend_from(b),
            (Data::Tuple(a), Data::Tuple(b)) => a.extend(b.iter().cloned()),
            _ => {}
        }
    }
}

/// A runtime value: a tensor (or, with an empty shape and a scalar type, a scalar).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// The IR type (`tensor<2x3xf32>`, `f32`, `vector<4xi8>`, ...).
    pub ty: Type,
    /// Dimension sizes (empty for scalars and rank-0 tensors).
    pub shape: Vec<i64>,
    /// Elements in row-major order.
    pub data: Data,
}

impl Tensor {
    /// Element kind of the tensor's type.
    pub fn elem(&self, ctx: &crate::ir::Uniquer) -> Elem {
        Elem::of(ctx, self.ty).expect("tensor of a supported element type")
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// Whether the tensor has no elements.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// The first integer element (0 where there is none, or the tensor is
    /// not of integers): how scalar operands (indices, conditions) are read.
    pub fn first_int(&self) -> i64 {
        match &self.data {
            Data::Int(v) => v.first(),
            _ => 0,
        }
    }
    /// The integer elements as `i64`s (empty for other storage): a copy,
    /// for ops that compute over the whole tensor.
    pub fn to_i64s(&self) -> Vec<i64> {
        match &self.data {
            Data::Int(v) => v.to_vec(),
            _ => Vec::new(),
        }
    }
    /// The float elements as `f64`s (empty for other storage): a copy.
    pub fn to_f64s(&self) -> Vec<f64> {
        match &self.data {
            Data::Float(v) => v.to_vec(),
            _ => Vec::new(),
        }
    }
    /// The integer elements, if they are integers.
    pub fn as_ints(&self) -> Option<&Ints> {
        match &self.data {
            Data::Int(v) => Some(v),
            _ => None,
        }
    }
    /// The float elements, if they are floats.
    pub fn as_floats(&self) -> Option<&Floats> {
        match &self.data {
            Data::Float(v) => Some(v),
            _ => None,
        }
    }
    /// A tensor of type `ty` (of floats) with elements `values`, each
    /// rounded to the element type.
    pub fn from_f64s(
        ctx: &crate::ir::Uniquer,
        ty: Type,
        values: impl IntoIterator<Item = f64>,
    ) -> Tensor {
        let k = Elem::of(ctx, ty).map_or(FloatKind::F64, Elem::float_kind);
        Tensor::new(ctx, ty, Data::from_f64s(k, values))
    }
    /// A tensor of type `ty` (of integers or `index`) with elements
    /// `values`, each wrapped to the element type.
    pub fn from_i64s(
        ctx: &crate::ir::Uniquer,
        ty: Type,
        values: impl IntoIterator<Item = i64>,
    ) -> Tensor {
        let e = Elem::of(ctx, ty).unwrap_or(Elem::Index);
        Tensor::new(ctx, ty, Data::from_i64s(e, values))
    }
    /// A scalar (or one-element tensor) of type `ty` holding `v`.
    pub fn int_scalar(ctx: &crate::ir::Uniquer, ty: Type, v: i64) -> Tensor {
        Tensor::from_i64s(ctx, ty, [v])
    }
    /// A tensor of `ty` (whose shape it takes) with `data`.
    pub fn new(ctx: &crate::ir::Uniquer, ty: Type, data: Data) -> Tensor {
        let shape = ctx
            .type_kind(ty)
            .shape()
            .map(<[i64]>::to_vec)
            .unwrap_or_default();
        Tensor { ty, shape, data }
    }
}

/// Why a run stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpError {
    /// What went wrong ("unsupported op 'foo.bar'", "division by zero", ...).
    pub message: String,
    /// The op where it happened.
    pub op: Option<Op>,
}

impl InterpError {
    /// An error at `op`.
    pub fn at(op: Op, message: impl Into<String>) -> Self {
        InterpError {
            message: message.into(),
            op: Some(op),
        }
    }
    /// The error as a diagnostic located at its op.
    pub fn diagnostic(&self, ctx: &Context) -> Diagnostic {
        let d = Diagnostic::error(self.message.clone());
        match self.op {
            Some(op) => d.at_loc(ctx.op(op).loc),
            None => d,
        }
    }
}

/// Result of running something.
pub type IResult<T> = Result<T, InterpError>;

/// An op's meaning: the results of `op` given its operand values. Ops with
/// regions run them through `interp`.
pub type InterpretFn = fn(&mut Interp<'_>, Op, &[Tensor]) -> IResult<Vec<Tensor>>;

/// Runs functions and regions over one context.
pub struct Interp<'c> {
    /// The IR.
    pub ctx: &'c Context,
    /// How many more ops may run (`None`: no limit); a run that uses them up
    /// stops with an error, so that a loop that never ends can be cut short.
    pub budget: Option<u64>,
    /// The most bytes one tensor may take (`None`: no limit): an op whose
    /// result would be larger stops with an error naming the size before
    /// anything is allocated.
    pub max_bytes: Option<u64>,
    /// Runs ops in place of their semantics where it answers `Some`: how a
    /// tool runs launches on compiled kernels while interpreting the rest.
    pub hook: Option<Box<Hook<'c>>>,
    env: HashMap<Value, Tensor>,
    depth: usize,
    /// Steps taken so far (for the message when the budget runs out).
    steps: u64,
    /// Where the values of each block that ran are last used.
    liveness: HashMap<Block, Rc<Liveness>>,
    /// Symbol tables for ops that look symbols up as they run (`func.call`):
    /// the IR does not change during a run, so each table is indexed once.
    pub symbols: crate::symbol::SymbolTables,
    /// Which process this run is (see [`Process`]): replica 0 of 1 unless
    /// a dialect's op (StableHLO's `interpreter.run_parallel`) starts several.
    pub process: Process,
    /// Per-run state of dialects' ops, one value per type.
    pub extensions: Extensions,
}

/// Where the values defined in one block (its arguments and the results of
/// its ops) are last needed, so that a run hands a value to its last user
/// without copying it and frees it as soon as nothing needs it: a chain of
/// ops on a large tensor holds about the tensors that are live.
///
/// Values of memref type are left alone: ops write buffers in place and
/// their owners read them after the region ran.
#[derive(Debug, Default)]
struct Liveness {
    /// Per op of the block, in order: per operand, whether that use is the
    /// value's last and only one in the op (so the op may take it).
    moves: Vec<Vec<bool>>,
    /// Per op of the block: the values to drop once it ran (last used
    /// inside its regions, several times by it, or never used).
    drop_after: Vec<Vec<Value>>,
    /// Block arguments that nothing uses.
    unused_args: Vec<Value>,
}

impl Liveness {
    fn of(ctx: &Context, b: Block) -> Liveness {
        let ops: Vec<Op> = ctx.block_ops(b).collect();
        let pos: HashMap<Op, usize> = ops.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let mut l = Liveness {
            moves: ops
                .iter()
                .map(|o| vec![false; ctx.operands(*o).len()])
                .collect(),
            drop_after: vec![Vec::new(); ops.len()],
            unused_args: Vec::new(),
        };
        let defined = ctx.block_args(b).iter().map(|a| (*a, None)).chain(
            ops.iter()
                .enumerate()
                .flat_map(|(i, o)| ctx.results(*o).map(move |r| (r, Some(i)))),
        );
        'values: for (v, def) in defined {
            if matches!(ctx.type_kind(ctx.value_type(v)), TypeKind::MemRef { .. }) {
                continue;
            }
            // The last op of the block that needs `v`, and its uses there.
            let mut last: Option<(usize, usize, Option<usize>)> = None;
            for u in ctx.uses(v) {
                let mut o = u.op;
                while ctx.parent_block(o) != Some(b) {
                    match ctx.parent_op(o) {
                        Some(p) => o = p,
                        None => continue 'values,
                    }
                }
                let Some(&p) = pos.get(&o) else {
                    continue 'values;
                };
                let direct = (o == u.op && ctx.operands(o).get(u.index as usize) == Some(&v))
                    .then_some(u.index as usize);
                last = match last {
                    Some((q, _, _)) if q > p => last,
                    Some((q, n, _)) if q == p => Some((p, n + 1, None)),
                    _ => Some((p, 1, direct)),
                };
            }
            match (last, def) {
                (Some((p, 1, Some(k))), _) => l.moves[p][k] = true,
                (Some((p, _, _)), _) => l.drop_after[p].push(v),
                (None, Some(i)) => l.drop_after[i].push(v),
                (None, None) => l.unused_args.push(v),
            }
        }
        l
    }
}

/// See [`Interp::hook`]: the results of `op` on its operand values, or
/// `None` to run its semantics.
pub type Hook<'c> = dyn FnMut(&Context, Op, &[Tensor]) -> Option<IResult<Vec<Tensor>>> + 'c;

/// Calls nested deeper than this are reported instead of overflowing the stack.
const MAX_DEPTH: usize = 256;

impl<'c> Interp<'c> {
    /// An interpreter over `ctx`.
    pub fn new(ctx: &'c Context) -> Self {
        Interp {
            ctx,
            budget: None,
            hook: None,
            max_bytes: None,
            env: HashMap::new(),
            depth: 0,
            steps: 0,
            liveness: HashMap::new(),
            symbols: crate::symbol::SymbolTables::default(),
            process: Process::default(),
            extensions: Extensions::default(),
        }
    }

    /// Run the body of a function-like op (its first region) on `args`; the
    /// operands of the terminator that ends it are the results.
    pub fn call(&mut self, func: Op, args: Vec<Tensor>) -> IResult<Vec<Tensor>> {
        let Some(&body) = self.ctx.regions(func).first() else {
            return Err(InterpError::at(func, "function has no body"));
        };
        if self.ctx.entry_block(body).is_none() {
            return Err(InterpError::at(func, "cannot run a function declaration"));
        }
        if self.depth >= MAX_DEPTH {
            return Err(InterpError::at(func, "calls nested too deeply"));
        }
        self.depth += 1;
        // A call gets its own values (recursion reuses the same SSA values).
        let saved = std::mem::take(&mut self.env);
        let r = self.run_region(body, args);
        self.env = saved;
        self.depth -= 1;
        r
    }

    /// Replace the value of `v`: how ops that write to a buffer (a memref
    /// argument of a kernel) record the write.
    pub fn set_value(&mut self, v: Value, t: Tensor) {
        self.env.insert(v, t);
    }

    /// The current value of `v`, without copying it (how ops read buffers).
    pub fn value_ref(&self, v: Value) -> Option<&Tensor> {
        self.env.get(&v)
    }

    /// The current value of `v`, to change in place (a store into one element
    /// of a large buffer, without copying it).
    pub fn value_mut(&mut self, v: Value) -> Option<&mut Tensor> {
        self.env.get_mut(&v)
    }

    /// Run the single block of region `r` with `args` as its arguments; the
    /// operands of its terminator come back.
    pub fn run_region(&mut self, r: Region, args: Vec<Tensor>) -> IResult<Vec<Tensor>> {
        let ctx = self.ctx;
        self.charge(ctx.region_parent(r))?;
        let Some(b) = ctx.entry_block(r) else {
            return Ok(Vec::new());
        };
        if ctx.next_block(b).is_some() {
            let at = ctx.region_parent(r);
            return Err(InterpError {
                message: "regions with several blocks are not supported".into(),
                op: at,
            });
        }
        let params = ctx.block_args(b);
        if params.len() != args.len() {
            return Err(InterpError {
                message: format!(
                    "region expects {} arguments, got {}",
                    params.len(),
                    args.len()
                ),
                op: ctx.region_parent(r),
            });
        }
        let live = match self.liveness.get(&b) {
            Some(l) => l.clone(),
            None => {
                let l = Rc::new(Liveness::of(ctx, b));
                self.liveness.insert(b, l.clone());
                l
            }
        };
        for (p, a) in params.iter().zip(args) {
            self.env.insert(*p, a);
        }
        for v in &live.unused_args {
            self.env.remove(v);
        }
        let mut cur = ctx.first_op(b);
        let mut i = 0;
        while let Some(op) = cur {
            let next = ctx.next_op(op);
            let is_terminator = next.is_none()
                && ctx
                    .op_spec(op)
                    .is_some_and(|s| s.has(crate::dialect::Traits::TERMINATOR));
            let moves = live.moves.get(i).map_or(&[][..], Vec::as_slice);
            if is_terminator {
                return ctx
                    .operands(op)
                    .iter()
                    .enumerate()
                    .map(|(k, v)| self.take_or_copy(op, *v, moves.get(k) == Some(&true)))
                    .collect();
            }
            self.exec_moving(op, moves)?;
            for v in live.drop_after.get(i).into_iter().flatten() {
                self.env.remove(v);
            }
            cur = next;
            i += 1;
        }
        Ok(Vec::new())
    }

    /// The value of `v` for its use by `at`: moved out of the environment
    /// where `last` says nothing needs it after, otherwise copied.
    fn take_or_copy(&mut self, at: Op, v: Value, last: bool) -> IResult<Tensor> {
        if last {
            self.env
                .remove(&v)
                .ok_or_else(|| InterpError::at(at, "use of a value that was not computed"))
        } else {
            self.value(at, v)
        }
    }

    /// The current value of `v` (used by `at`).
    pub fn value(&self, at: Op, v: Value) -> IResult<Tensor> {
        self.env
            .get(&v)
            .cloned()
            .ok_or_else(|| InterpError::at(at, "use of a value that was not computed"))
    }

    /// Use one step of the budget (running an op or entering a region); `at`
    /// is the op that holds the step (the loop whose body runs).
    fn charge(&mut self, at: Option<Op>) -> IResult<()> {
        if let Some(b) = &mut self.budget {
            if *b == 0 {
                return Err(InterpError {
                    message: format!(
                        "interpreter stopped after {} steps (--max-steps)",
                        self.steps
                    ),
                    op: at,
                });
            }
            *b -= 1;
        }
        self.steps += 1;
        Ok(())
    }

    /// Run one op: its interpret hook on its operand values, results recorded.
    pub fn exec(&mut self, op: Op) -> IResult<()> {
        self.exec_moving(op, &[])
    }

    /// [`Interp::exec`], taking operand `k` out of the environment where
    /// `moves[k]` (its last use) instead of copying it.
    fn exec_moving(&mut self, op: Op, moves: &[bool]) -> IResult<()> {
        let ctx = self.ctx;
        self.charge(Some(ctx.parent_op(op).unwrap_or(op)))?;
        if let Some(limit) = self.max_bytes {
            for r in ctx.results(op) {
                check_size(ctx, ctx.value_type(r), limit).map_err(|m| {
                    InterpError::at(op, format!("'{}' result: {m}", ctx.op_name(op)))
                })?;
            }
        }
        let f = ctx.op_spec(op).and_then(|s| s.interpret);
        // Buffers (memrefs) pass by reference: an op reads one through
        // `value_ref` and writes through `value_mut`, so that an element
        // access does not copy the buffer.
        let args: Vec<Tensor> = ctx
            .operands(op)
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let ty = ctx.value_type(*v);
                if matches!(ctx.type_kind(ty), crate::types::TypeKind::MemRef { .. }) {
                    self.value_ref(*v)
                        .map(|_| Tensor {
                            ty,
                            shape: Vec::new(),
                            data: Data::Float(Floats::F64(Vec::new())),
                        })
                        .ok_or_else(|| InterpError::at(op, "use of a value that was not computed"))
                } else {
                    self.take_or_copy(op, *v, moves.get(k) == Some(&true))
                }
            })
            .collect::<IResult<_>>()?;
        let hooked = self.hook.as_mut().and_then(|h| h(ctx, op, &args));
        let results = match (hooked, f) {
            (Some(r), _) => r?,
            (None, Some(f)) => f(self, op, &args)?,
            (None, None) => {
                return Err(InterpError::at(
                    op,
                    format!("unsupported op '{}'", ctx.op_name(op)),
                ));
            }
        };
        if results.len() != ctx.num_results(op) {
            return Err(InterpError::at(
                op,
                format!(
                    "'{}' produced {} values for {} results",
                    ctx.op_name(op),
                    results.len(),
                    ctx.num_results(op)
                ),
            ));
        }
        for (r, t) in ctx.results(op).zip(results) {
            // A result whose element count does not fit its type would make later
            // ops index out of bounds: stop here instead.
            let want = ctx.type_kind(ctx.value_type(r)).num_elements();
            if let Some(n) = want
                && !matches!(t.data, Data::Tuple(_))
                && n as usize != t.len()
            {
                return Err(InterpError::at(
                    op,
                    format!(
                        "'{}' produced {} elements for a result of {n}",
                        ctx.op_name(op),
                        t.len()
                    ),
                ));
            }
            self.env.insert(r, t);
        }
        Ok(())
    }
}

/// Bytes the interpreter needs for a value of type `ty` (`None` for types
/// without a static size).
pub fn storage_bytes(ctx: &crate::ir::Uniquer, ty: Type) -> Option<u128> {
    let kind = ctx.type_kind(ty);
    let elem = match kind {
        TypeKind::MemRef { elem, .. } => Elem::of(ctx, *elem)?,
        _ => Elem::of(ctx, ty)?,
    };
    let n = kind.shape().map_or(Some(1u128), |s| {
        s.iter().try_fold(1u128, |acc, &d| {
            (d >= 0).then(|| acc.saturating_mul(d as u128))
        })
    })?;
    Some(n.saturating_mul(u128::from(elem.storage_bytes())))
}

/// An error naming the size where a value of type `ty` would take more than
/// `limit` bytes (how `--max-memory` stops a huge tensor before the
/// allocator aborts).
pub fn check_size(ctx: &crate::ir::Uniquer, ty: Type, limit: u64) -> Result<(), String> {
    match storage_bytes(ctx, ty) {
        Some(bytes) if bytes > u128::from(limit) => Err(format!(
            "{} needs {bytes} bytes, more than the interpreter's limit of {limit} bytes (--max-memory)",
            crate::printer::type_text(ctx, ty)
        )),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------- attributes

/// The tensor a constant attribute stands for, with type `ty` (`Integer`,
/// `Float` and dense elements, splat or not).
pub fn tensor_of_attr(ctx: &crate::ir::Uniquer, a: Attr, ty: Type) -> Option<Tensor> {
    let elem = Elem::of(ctx, ty)?;
    let n = match ctx.type_kind(ty).shape() {
        Some(s) => usize::try_from(crate::shape::elements(s).ok()?).ok()?,
        None => 1,
    };
    // The bits of element `i`, read from the attribute where they are needed
    // (a splat is one value however large the tensor).
    let (splat, bytes, w): (u128, &[u8], usize) = match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => (*value as u128, &[], 0),
        AttrKind::Float { bits, .. } => (*bits, &[], 0),
        AttrKind::DenseElements {
            ty: aty,
            data: DenseData::Raw { splat, bytes },
        } => {
            let et = ctx.type_kind(*aty).element_type()?;
            let w = crate::printer::scalar_bytes(ctx, et);
            if w == 0 {
                return None;
            }
            if !*splat && bytes.len() / w == n {
                (0, &bytes[..], w)
            } else if (*splat || bytes.len() / w == 1) && bytes.len() >= w {
                (le_bits(&bytes[..w]), &[], 0)
            } else {
                return None;
            }
        }
        _ => return None,
    };
    let get = |i: usize| -> u128 {
        if w == 0 {
            splat
        } else {
            le_bits(&bytes[i * w..(i + 1) * w])
        }
    };
    let data = match elem {
        Elem::Int { .. } => Data::Int(Ints::try_from_fn(elem, n, |i| elem.wrap(get(i) as i128))?),
        Elem::Index => Data::Int(Ints::try_from_fn(elem, n, |i| get(i) as i64)?),
        Elem::Float(k) => Data::Float(Floats::try_from_bits(k, n, get)?),
        Elem::Complex(k) => {
            let half = k.bit_width();
            let m = (1u128 << half) - 1;
            Data::Complex(Complexes::try_from_bits(k, n, |i| {
                let b = get(i);
                (b & m, (b >> half) & m)
            })?)
        }
    };
    Some(Tensor::new(ctx, ty, data))
}

/// A little-endian scalar's bits.
fn le_bits(chunk: &[u8]) -> u128 {
    chunk
        .iter()
        .rev()
        .fold(0u128, |acc, b| (acc << 8) | u128::from(*b))
}

/// The attribute a tensor prints as: `dense<...> : tensor<...>` for shaped
/// types, an integer or float attribute for scalars.
pub fn attr_of_tensor(ctx: &crate::ir::Uniquer, t: &Tensor) -> Attr {
    let elem = t.elem(ctx);
    // The bits of element `i`, computed where they are written (no vector
    // of 16-byte values beside the tensor).
    let count = match (&t.data, elem) {
        (Data::Int(_), _)
        | (Data::Float(_), Elem::Float(_))
        | (Data::Complex(_), Elem::Complex(_)) => t.len(),
        _ => 0,
    };
    let bit = |i: usize| -> u128 {
        match (&t.data, elem) {
            (Data::Int(v), Elem::Int { width, .. }) => {
                (v.get(i) as u128)
                    & if width >= 128 {
                        u128::MAX
                    } else {
                        (1u128 << width) - 1
                    }
            }
            (Data::Int(v), _) => v.get(i) as u64 as u128,
            (Data::Float(v), Elem::Float(k)) => v.bits(k, i),
            (Data::Complex(v), Elem::Complex(k)) => {
                let (re, im) = v.get(i);
                k.from_f64(re) | (k.from_f64(im) << k.bit_width())
            }
            _ => 0,
        }
    };
    let shaped = ctx.type_kind(t.ty).shape().is_some();
    if !shaped {
        let b = if count > 0 { bit(0) } else { 0 };
        return match elem {
            Elem::Float(_) => ctx.attr(AttrKind::Float { bits: b, ty: t.ty }),
            Elem::Int { width, signedness } => ctx.attr(AttrKind::Integer {
                value: crate::syntax::normalize_int(t.first_int() as i128, width, signedness),
                ty: t.ty,
            }),
            Elem::Index => ctx.attr(AttrKind::Integer {
                value: t.first_int() as i128,
                ty: t.ty,
            }),
            Elem::Complex(_) => ctx.attr(AttrKind::Integer {
                value: b as i128,
                ty: t.ty,
            }),
        };
    }
    let et = ctx.type_kind(t.ty).element_type().expect("shaped");
    let w = crate::printer::scalar_bytes(ctx, et);
    let splat = count > 1 && (1..count).all(|i| bit(i) == bit(0));
    let take = if splat { 1 } else { count };
    let mut bytes = Vec::with_capacity(take * w);
    for i in 0..take {
        bytes.extend_from_slice(&bit(i).to_le_bytes()[..w]);
    }
    ctx.attr(AttrKind::DenseElements {
        ty: t.ty,
        data: DenseData::Raw {
            splat,
            bytes: bytes.into(),
        },
    })
}
