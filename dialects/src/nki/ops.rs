//! The nki ops, each declared once with its verifier beside it (an
//! [`NkiCheck`] impl); their interpreters are in [`super::interp`].

use super::interp::{self, Run};
use super::types::{NkiTile, TILE, malformed, nki_tile};
use super::{
    Act, Alu, Arch, Engine, MOVING_FREE, PARTITIONS, ReduceOp, STATIONARY_FREE, Space, engine_of,
};
use crate::coord::{self, Desc};
use crate::gpu::{elem_bytes, enclosing, verify_launch};
use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::constraints::{I64_ARRAY, I64_ATTR, MEMREF, TENSOR};
use aic::dialect::{AttrConstraint, AttrSyntax, OpSpec, Traits, ac, tc};
use aic::ir::{Context, Op, Region, Uniquer, Value};
use aic::op_def::{FromAttr, OpHandle};
use aic::types::{Type, TypeKind};
use aic::verifier::op_error;

/// A `#coord.desc<...>` access pattern of a DMA.
const DESC: AttrConstraint = AttrConstraint {
    desc: "tensor descriptor (#coord.desc<...>)",
    check: |a, _| coord::is_desc(a),
    syntax: AttrSyntax::Full,
};

/// An immediate (a scale, a bias, a scalar operand, a fill value): fp32,
/// or a 32-bit integer where an integer tile needs one fp32 cannot hold.
pub(super) const IMM: AttrConstraint = AttrConstraint {
    desc: "32-bit float or integer attribute",
    check: |a, u| match a {
        AttrKind::Float { ty, .. } => {
            matches!(
                u.type_kind(*ty),
                TypeKind::Float(aic::float::FloatKind::F32)
            )
        }
        AttrKind::Integer { ty, .. } => {
            matches!(u.type_kind(*ty), TypeKind::Integer { width: 32, .. })
        }
        _ => false,
    },
    syntax: AttrSyntax::Full,
};

/// The value of an immediate attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Imm(pub f64);

impl FromAttr for Imm {
    fn from_attr(ctx: &Context, a: Attr) -> Option<Imm> {
        match ctx.attr_kind(a) {
            AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
                TypeKind::Float(k) => Some(Imm(k.to_f64(*bits))),
                _ => None,
            },
            AttrKind::Integer { value, .. } => Some(Imm(*value as f64)),
            _ => None,
        }
    }
}

/// A flag attribute's value (`true`, a unit attribute, or a non-zero `i1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flag(pub bool);

impl FromAttr for Flag {
    fn from_attr(ctx: &Context, a: Attr) -> Option<Flag> {
        match ctx.attr_kind(a) {
            AttrKind::Bool(b) => Some(Flag(*b)),
            AttrKind::Unit => Some(Flag(true)),
            AttrKind::Integer { value, .. } => Some(Flag(*value != 0)),
            _ => None,
        }
    }
}

/// The immediate attribute for a tile of `elem` holding `v`: an `i32` one
/// where `elem` is an integer type and `v` a whole number fp32 would round
/// (beyond 2^24), else fp32.
pub fn imm_for(u: &Uniquer, elem: Type, v: f64) -> Attr {
    let exact_in_f32 = f64::from(v as f32) == v;
    let int = matches!(u.type_kind(elem), TypeKind::Integer { .. });
    let in_i32 = v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX);
    if int && !exact_in_f32 && v.fract() == 0.0 && in_i32 {
        let i32t = u.ty(TypeKind::Integer {
            width: 32,
            signedness: aic::types::Signedness::Signless,
        });
        return u.attr(AttrKind::Integer {
            value: v as i128,
            ty: i32t,
        });
    }
    imm(u, v)
}

/// The fp32 immediate attribute holding `v` (rounded to fp32).
pub fn imm(u: &Uniquer, v: f64) -> Attr {
    let f32t = u.ty(TypeKind::Float(aic::float::FloatKind::F32));
    u.attr(AttrKind::Float {
        bits: u128::from((v as f32).to_bits()),
        ty: f32t,
    })
}

/// An nki op's own verification, beside its spec; [`verify`] runs the
/// checks every nki op shares first.
pub(super) trait NkiCheck: OpHandle {
    /// Whether the op must sit inside an `nki.kernel`.
    const IN_KERNEL: bool = true;
    /// The op's own checks.
    fn check(self, ctx: &Context) -> Result<(), Diagnostic>;
}

/// The arch of the kernel `op` is in (trn1 outside one).
pub fn arch_of(ctx: &Context, op: Op) -> Arch {
    let k = if Kernel::is(ctx, op) {
        Some(op)
    } else {
        enclosing(ctx, op, KERNEL.name)
    };
    k.and_then(|k| Kernel::wrap(k).arch(ctx))
        .unwrap_or(Arch::Trn1)
}

/// Whether `t` is an element type NKI has a dtype for (`nl.float32`,
/// `nl.bfloat16`, `nl.float8_e4m3`, `nl.int32`, `nl.uint16`, `nl.bool_`, ...).
pub fn is_dtype(ctx: &Context, t: Type) -> bool {
    use aic::float::FloatKind as F;
    match ctx.type_kind(t) {
        TypeKind::Float(k) => matches!(
            k,
            F::F32 | F::F16 | F::BF16 | F::F8E4M3 | F::F8E4M3FN | F::F8E5M2
        ),
        TypeKind::Integer { width, .. } => matches!(width, 1 | 8 | 16 | 32),
        _ => false,
    }
}

/// The verifier of nki op `H`: it sits inside a kernel (unless it is one or
/// launches one), its tiles are well-formed, its own checks hold, and its
/// tiles have at most 128 partitions, fit a partition of their memory (a
/// PSUM tile one bank) and are not PSUM tiles GpSimd would access.
fn verify<H: NkiCheck>(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: String| op_error(ctx, op, m);
    if H::IN_KERNEL && enclosing(ctx, op, KERNEL.name).is_none() {
        return Err(err("must be inside an nki.kernel".into()));
    }
    let spec = arch_of(ctx, op).spec();
    let gpsimd = engine_of(ctx, op) == Some(Engine::GpSimd);
    for v in ctx.results(op).chain(ctx.operands(op).iter().copied()) {
        if malformed(ctx.type_kind(ctx.value_type(v))) {
            return Err(err(
                "malformed tile type: expected !nki.tile<PxF...xELEM, sbuf|psum>".into(),
            ));
        }
    }
    H::wrap(op).check(ctx)?;
    let mut tiles = Vec::new();
    for v in ctx.results(op).chain(ctx.operands(op).iter().copied()) {
        let Some(t) = nki_tile(ctx.uniquer(), ctx.value_type(v)) else {
            continue;
        };
        if t.partitions() > PARTITIONS {
            return Err(err(format!(
                "a tile of {} partitions: the partition dimension is at most {PARTITIONS}",
                t.partitions()
            )));
        }
        if !is_dtype(ctx, t.elem) {
            return Err(err(format!(
                "tile elements are NKI dtypes (f32, f16, bf16, fp8, integers of 8, 16 or 32 bits, i1), not {}",
                aic::printer::type_text(ctx.uniquer(), t.elem)
            )));
        }
        if gpsimd && t.space == Space::Psum {
            return Err(err("the GpSimd engine cannot access PSUM".into()));
        }
        tiles.push(t);
    }
    for t in tiles {
        let bytes = t.free_bytes(elem_bytes(ctx, t.elem));
        let (room, what) = match t.space {
            Space::Sbuf => (spec.sbuf_partition_bytes, "an SBUF partition"),
            Space::Psum => (spec.psum_bank_bytes, "a PSUM bank"),
        };
        if bytes > room {
            return Err(err(format!(
                "a tile of {bytes} bytes per partition does not fit {what} of {} ({room} bytes)",
                spec.name
            )));
        }
    }
    Ok(())
}

/// The spec of an nki op with its verifier and interpreter.
const fn op<H: NkiCheck + Run>(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        verify: Some(verify::<H>),
        interpret: Some(interp::run::<H>),
        ..OpSpec::new(name)
    }
}

fn fail(ctx: &Context, op: impl OpHandle, m: impl std::fmt::Display) -> Diagnostic {
    op_error(ctx, op.op(), m)
}

/// The tile type of `v`.
pub(super) fn tile_of(ctx: &Context, v: Value) -> Option<&NkiTile> {
    nki_tile(ctx.uniquer(), ctx.value_type(v))
}

/// The tile types of `vs`, or an error on `op` naming `what`.
fn tiles<'c>(
    ctx: &'c Context,
    op: impl OpHandle,
    vs: &[Value],
    what: &str,
) -> Result<Vec<&'c NkiTile>, Diagnostic> {
    vs.iter()
        .map(|v| tile_of(ctx, *v).ok_or_else(|| fail(ctx, op, format!("{what} must be tiles"))))
        .collect()
}

fn is_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(_))
}

/// The descriptor of a DMA: the one written, or row-major over the buffer.
pub(super) fn desc_of(ctx: &Context, desc: Option<Attr>, buffer: Value) -> Result<Desc, String> {
    match desc {
        Some(a) => coord::desc_of(ctx.uniquer(), a).cloned(),
        None => ctx
            .type_kind(ctx.value_type(buffer))
            .shape()
            .map(Desc::row_major)
            .ok_or_else(|| "the buffer has no shape".to_string()),
    }
}

/// The arguments of the entry block of `r`.
fn entry_args(ctx: &Context, r: Region) -> Vec<Value> {
    ctx.entry_block(r)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default()
}

aic::op! {
    /// `nki.kernel @name grid = [..] arch = trn1 { ^bb0(hbm tensors): ... }`:
    /// one `@nki.jit` kernel, launched over `grid` programs.
    pub Kernel = KERNEL {
        attributes: [
            sym_name: required(ac::SYMBOL_NAME),
            grid: required(I64_ARRAY) as Vec<i64>,
            arch: required(Arch::CONSTRAINT) as Arch,
        ],
        regions: [body: sized],
        spec: OpSpec {
            summary: "an NKI kernel over a grid of programs, its arguments HBM tensors",
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::SYMBOL)
                .with(Traits::SINGLE_BLOCK),
            format: Some("$sym_name `grid` `=` $grid `arch` `=` $arch $body attr-dict"),
            verify: Some(verify::<Kernel>),
            verify_regions: Some(verify_capacity),
            ..OpSpec::new("nki.kernel")
        },
    }
}

impl NkiCheck for Kernel {
    const IN_KERNEL: bool = false;
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let grid = self.grid(ctx).unwrap_or_default();
        if grid.is_empty() || grid.len() > 3 || grid.iter().any(|g| *g < 1) {
            return Err(fail(
                ctx,
                self,
                format!("grid {grid:?} must have 1 to 3 positive sizes"),
            ));
        }
        if entry_args(ctx, self.body(ctx))
            .iter()
            .any(|a| !matches!(ctx.type_kind(ctx.value_type(*a)), TypeKind::MemRef { .. }))
        {
            return Err(fail(ctx, self, "arguments must be memref (HBM) tensors"));
        }
        Ok(())
    }
}

/// The kernel's tiles fit on chip: walking its ops in program order, the
/// tiles live at any point (from their definition to their last use, a use
/// inside a loop keeping them to the loop's end) take at most the arch's
/// SBUF and PSUM bytes per partition. The op at which a memory overflows is
/// named.
fn verify_capacity(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let spec = arch_of(ctx, op).spec();
    let mut order: Vec<Op> = Vec::new();
    ctx.walk(op, aic::ir::WalkOrder::PreOrder, &mut |_, o| order.push(o));
    let index: std::collections::HashMap<Op, usize> =
        order.iter().enumerate().map(|(i, o)| (*o, i)).collect();
    // The last op index of each op's subtree.
    let mut end = vec![0usize; order.len()];
    for (i, o) in order.iter().enumerate().rev() {
        let mut e = i;
        ctx.walk(*o, aic::ir::WalkOrder::PreOrder, &mut |_, n| {
            e = e.max(index[&n]);
        });
        end[i] = e;
    }
    // (start, end, space, bytes, defining op) of every tile result.
    let mut lives = Vec::new();
    for (i, o) in order.iter().enumerate() {
        for r in ctx.results(*o) {
            let Some(t) = tile_of(ctx, r) else { continue };
            let home = ctx.parent_block(*o);
            let mut last = i;
            for u in ctx.uses(r) {
                // The user's ancestor in the defining block.
                let mut at = u.op;
                while ctx.parent_block(at) != home {
                    match ctx.parent_op(at) {
                        Some(p) => at = p,
                        None => break,
                    }
                }
                last = last.max(index.get(&at).map_or(i, |k| end[*k]));
            }
            let bytes = t.free_bytes(elem_bytes(ctx, t.elem));
            lives.push((i, last, t.space, bytes, *o));
        }
    }
    for (space, room, what) in [
        (Space::Sbuf, spec.sbuf_partition_bytes, "SBUF"),
        (Space::Psum, spec.psum_partition_bytes, "PSUM"),
    ] {
        for &(s, _, sp, _, at) in &lives {
            if sp != space {
                continue;
            }
            let live: i64 = lives
                .iter()
                .filter(|(s2, e2, sp2, _, _)| *sp2 == space && *s2 <= s && s <= *e2)
                .map(|l| l.3)
                .sum();
            if live > room {
                return Err(op_error(
                    ctx,
                    at,
                    format!(
                        "the tiles live here need {live} bytes per partition of {what}, more than {}'s {room}",
                        spec.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

aic::op! {
    /// `nki.return`: ends a kernel's body.
    pub Return = RETURN {
        spec: OpSpec {
            summary: "ends a kernel",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[KERNEL.name],
            format: Some("attr-dict"),
            ..OpSpec::new("nki.return")
        },
    }
}

aic::op! {
    /// `nki.launch @k(%inputs) : (tensors) -> tensors`: the host side, which
    /// allocates the outputs in HBM and runs the kernel's grid.
    pub Launch = LAUNCH {
        operands: [inputs: variadic(TENSOR)],
        results: [outputs: variadic(TENSOR)],
        attributes: [kernel: required(ac::FLAT_SYMBOL_REF)],
        spec: OpSpec {
            format: Some("$kernel `(` $inputs `)` attr-dict `:` functional-type($inputs, results)"),
            ..op::<Launch>(
                "nki.launch",
                "runs a kernel on tensors: inputs, then zeroed outputs, as its HBM tensors",
            )
        },
    }
}

impl NkiCheck for Launch {
    const IN_KERNEL: bool = false;
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        verify_launch(ctx, self.op(), KERNEL.name, false)
    }
}

aic::op! {
    /// `nki.program_id <axis> : index` (`nl.program_id`).
    pub ProgramId = PROGRAM_ID {
        results: [id: one(tc::INDEX)],
        attributes: [axis: required(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$axis attr-dict `:` type($id)"),
            ..op::<ProgramId>("nki.program_id", "the program's position along a grid axis")
        },
    }
}

impl NkiCheck for ProgramId {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let axis = self.axis(ctx).unwrap_or(-1);
        if !(0..3).contains(&axis) {
            return Err(fail(ctx, self, format!("axis {axis} must be 0, 1 or 2")));
        }
        Ok(())
    }
}

/// The checks of a loop's bounds.
fn check_bounds(
    ctx: &Context,
    op: impl OpHandle,
    (lower, upper, step): (Option<i64>, Option<i64>, Option<i64>),
) -> Result<(), Diagnostic> {
    let (l, u, s) = (lower.unwrap_or(0), upper.unwrap_or(0), step.unwrap_or(0));
    if s < 1 || u < l {
        return Err(fail(
            ctx,
            op,
            format!(
                "bounds {l} to {u} step {s}: the step must be positive and the range not reversed"
            ),
        ));
    }
    Ok(())
}

aic::op! {
    /// `nki.affine_range 0 to 8 step 1 { ^bb0(%i: index): ... nki.yield }`
    /// (`nl.affine_range`): iterations independent of each other, which the
    /// hardware may overlap.
    pub AffineRange = AFFINE_RANGE {
        attributes: [
            lower: required(I64_ATTR) as i64,
            upper: required(I64_ATTR) as i64,
            step: required(I64_ATTR) as i64,
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::SINGLE_BLOCK,
            format: Some("$lower `to` $upper `step` $step $body attr-dict"),
            ..op::<AffineRange>("nki.affine_range", "a loop of independent iterations")
        },
    }
}

impl NkiCheck for AffineRange {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_bounds(
            ctx,
            self,
            (self.lower(ctx), self.upper(ctx), self.step(ctx)),
        )?;
        let args = entry_args(ctx, self.body(ctx));
        if args.len() != 1 || !matches!(ctx.type_kind(ctx.value_type(args[0])), TypeKind::Index) {
            return Err(fail(
                ctx,
                self,
                "the body takes one index, the induction variable",
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `nki.sequential_range 0 to 8 step 1 (iter_args(%a : T) -> T)? { ... }`
    /// (`nl.sequential_range`): iterations in order, carrying values (a PSUM
    /// accumulator, row statistics).
    pub SequentialRange = SEQUENTIAL_RANGE {
        operands: [inits: variadic(tc::ANY)],
        results: [results: variadic(tc::ANY)],
        attributes: [
            lower: required(I64_ATTR) as i64,
            upper: required(I64_ATTR) as i64,
            step: required(I64_ATTR) as i64,
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::SINGLE_BLOCK,
            format: Some(
                "$lower `to` $upper `step` $step (`iter_args` `(` $inits^ `:` type($inits) `)` `->` type($results))? $body attr-dict",
            ),
            ..op::<SequentialRange>("nki.sequential_range", "a loop of ordered iterations carrying values")
        },
    }
}

impl NkiCheck for SequentialRange {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_bounds(
            ctx,
            self,
            (self.lower(ctx), self.upper(ctx), self.step(ctx)),
        )?;
        let args = entry_args(ctx, self.body(ctx));
        let inits = self.inits(ctx);
        let same = args.len() == inits.len() + 1
            && ctx.num_results(self.op()) == inits.len()
            && inits
                .iter()
                .zip(&args[1..])
                .zip(ctx.results(self.op()))
                .all(|((i, a), r)| {
                    ctx.value_type(*i) == ctx.value_type(*a)
                        && ctx.value_type(r) == ctx.value_type(*a)
                });
        if !same {
            return Err(fail(
                ctx,
                self,
                "the body takes the induction variable and one value per result, of the inits' types",
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `nki.yield`: the values a loop iteration gives.
    pub Yield = YIELD {
        operands: [values: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "ends a loop iteration",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[AFFINE_RANGE.name, SEQUENTIAL_RANGE.name],
            format: Some("($values^ `:` type($values))? attr-dict"),
            ..OpSpec::new("nki.yield")
        },
    }
}

/// The checks of a DMA of `tile` at `origin` of `buffer` through `desc`.
fn check_dma(
    ctx: &Context,
    op: impl OpHandle,
    buffer: Value,
    tile: Option<&NkiTile>,
    origin: &[Value],
    desc: Option<Attr>,
) -> Result<(), Diagnostic> {
    let err = |m: String| fail(ctx, op, m);
    let tile = tile.ok_or_else(|| err("expected a tile".into()))?;
    let d = desc_of(ctx, desc, buffer).map_err(|e| err(format!("bad descriptor: {e}")))?;
    let lower = d.lower().map_err(|e| err(format!("bad descriptor: {e}")))?;
    let bk = ctx.type_kind(ctx.value_type(buffer));
    let size = |s: &[i64]| {
        aic::shape::elements(s).map_err(|e| err(format!("bad buffer or descriptor: {e:?}")))
    };
    let buffer_len = bk.shape().map_or(Ok(0), size)?;
    if size(&lower)? != buffer_len {
        return Err(err(format!(
            "the descriptor addresses {} elements but the tensor has {buffer_len}",
            size(&lower)?
        )));
    }
    if origin.len() != d.upper.len() || tile.shape.len() > d.upper.len() {
        return Err(err(format!(
            "a tile of rank {} at an origin of {} indices under a descriptor of rank {}",
            tile.shape.len(),
            origin.len(),
            d.upper.len()
        )));
    }
    if bk.element_type() != Some(tile.elem) {
        return Err(err(
            "a DMA does not convert: the tile and the tensor have different element types".into(),
        ));
    }
    if tile.space != Space::Sbuf {
        return Err(err("DMA moves SBUF tiles".into()));
    }
    Ok(())
}

aic::op! {
    /// `nki.load %hbm[%origin] (through #coord.desc)? : memref -> tile`
    /// (`nl.load` with a mask): elements the descriptor marks invalid read 0.
    pub Load = LOAD {
        operands: [buffer: one(MEMREF), origin: variadic(tc::INDEX)],
        results: [result: one(TILE)],
        attributes: [desc: optional(DESC)],
        spec: OpSpec {
            format: Some(
                "$buffer `[` $origin `]` (`through` $desc^)? attr-dict `:` type($buffer) `->` type($result)",
            ),
            ..op::<Load>("nki.load", "DMA of a tile from HBM into SBUF, masked")
        },
    }
}

impl NkiCheck for Load {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let t = tile_of(ctx, self.result(ctx));
        check_dma(
            ctx,
            self,
            self.buffer(ctx),
            t,
            self.origin(ctx),
            self.desc(ctx),
        )
    }
}

aic::op! {
    /// `nki.store %t, %hbm[%origin] (through #coord.desc)? : tile, memref`
    /// (`nl.store` with a mask).
    pub Store = STORE {
        operands: [value: one(TILE), buffer: one(MEMREF), origin: variadic(tc::INDEX)],
        attributes: [desc: optional(DESC)],
        spec: OpSpec {
            format: Some(
                "$value `,` $buffer `[` $origin `]` (`through` $desc^)? attr-dict `:` type($value) `,` type($buffer)",
            ),
            ..op::<Store>("nki.store", "DMA of an SBUF tile to HBM, masked")
        },
    }
}

impl NkiCheck for Store {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let t = tile_of(ctx, self.value(ctx));
        check_dma(
            ctx,
            self,
            self.buffer(ctx),
            t,
            self.origin(ctx),
            self.desc(ctx),
        )
    }
}

aic::op! {
    /// `nki.matmul %stationary, %moving, %acc : S, M, A -> A`
    /// (`acc += nisa.nc_matmul(stationary, moving)`): `acc + stationary.T @
    /// moving` on the Tensor engine, contracting over the partitions, into
    /// an fp32 PSUM accumulator.
    pub Matmul = MATMUL {
        operands: [stationary: one(TILE), moving: one(TILE), acc: one(TILE)],
        results: [result: one(TILE)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$stationary `,` $moving `,` $acc attr-dict `:` type($stationary) `,` type($moving) `,` type($acc) `->` type($result)",
            ),
            ..op::<Matmul>("nki.matmul", "acc + stationary.T @ moving on the Tensor engine")
        },
    }
}

impl NkiCheck for Matmul {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let err = |m: String| fail(ctx, self, m);
        let [s, m, a, r] = tiles(
            ctx,
            self,
            &[
                self.stationary(ctx),
                self.moving(ctx),
                self.acc(ctx),
                self.result(ctx),
            ],
            "operands and result",
        )?[..] else {
            unreachable!("four values")
        };
        if s.shape.len() != 2 || m.shape.len() != 2 {
            return Err(err(
                "stationary and moving are [partition, free] tiles".into()
            ));
        }
        if s.partitions() != m.partitions() {
            return Err(err(format!(
                "stationary and moving contract over their partitions: {} and {}",
                s.partitions(),
                m.partitions()
            )));
        }
        if s.free() > STATIONARY_FREE {
            return Err(err(format!(
                "the stationary free size {} is over {STATIONARY_FREE}",
                s.free()
            )));
        }
        if m.free() > MOVING_FREE {
            return Err(err(format!(
                "the moving free size {} is over {MOVING_FREE}",
                m.free()
            )));
        }
        if s.space != Space::Sbuf || m.space != Space::Sbuf {
            return Err(err("the Tensor engine reads SBUF tiles".into()));
        }
        let narrow = |t: Type| {
            matches!(
                ctx.type_kind(t),
                TypeKind::Float(
                    aic::float::FloatKind::BF16
                        | aic::float::FloatKind::F16
                        | aic::float::FloatKind::F32
                )
            )
        };
        if s.elem != m.elem || !narrow(s.elem) {
            return Err(err(
                "stationary and moving are both bf16, fp16 or fp32".into()
            ));
        }
        let f32t = matches!(
            ctx.type_kind(a.elem),
            TypeKind::Float(aic::float::FloatKind::F32)
        );
        if a != r || a.space != Space::Psum || !f32t || a.shape != [s.free(), m.free()] {
            return Err(err(format!(
                "the accumulator and result are the same fp32 PSUM tile of [{}, {}]",
                s.free(),
                m.free()
            )));
        }
        Ok(())
    }
}

aic::op! {
    /// `nki.transpose %x : [P, F] -> [F, P]` (`nisa.nc_transpose` on the
    /// Tensor engine): the tile transposed into PSUM.
    pub Transpose = TRANSPOSE {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input attr-dict `:` type($input) `->` type($result)"),
            ..op::<Transpose>("nki.transpose", "partitions and free axis swapped, on the Tensor engine")
        },
    }
}

impl NkiCheck for Transpose {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let [x, r] = tiles(
            ctx,
            self,
            &[self.input(ctx), self.result(ctx)],
            "operand and result",
        )?[..] else {
            unreachable!("two values")
        };
        let ok = x.shape.len() == 2
            && x.space == Space::Sbuf
            && r.space == Space::Psum
            && r.shape == [x.shape[1], x.shape[0]]
            && r.elem == x.elem;
        if !ok {
            return Err(fail(
                ctx,
                self,
                "the result is the SBUF [P, F] tile as a PSUM [F, P] tile of its element type",
            ));
        }
        Ok(())
    }
}

/// The checks of an elementwise op from `inputs` to `result`: float tiles
/// of one shape (`inputs[1..]` may instead be per-partition scalars [P, 1]
/// where `scalars`).
fn check_elementwise(
    ctx: &Context,
    op: impl OpHandle,
    inputs: &[Value],
    result: Value,
    scalars: bool,
) -> Result<(), Diagnostic> {
    let r = tile_of(ctx, result).ok_or_else(|| fail(ctx, op, "the result must be a tile"))?;
    let ts = tiles(ctx, op, inputs, "operands")?;
    for (k, t) in ts.iter().enumerate() {
        let per_partition = scalars && k > 0 && t.free() == 1 && t.partitions() == r.partitions();
        if t.shape != r.shape && !per_partition {
            return Err(fail(
                ctx,
                op,
                format!(
                    "operand shape {:?} is not the result's {:?}",
                    t.shape, r.shape
                ),
            ));
        }
    }
    Ok(())
}

aic::op! {
    /// `nki.activation exp %x scale = 1.0 : f32 bias = 0.0 : f32 : T -> R`
    /// (`nisa.activation`): `func(x * scale + bias)` on the Scalar engine.
    pub Activation = ACTIVATION {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [
            func: required(Act::CONSTRAINT) as Act,
            scale: required(IMM) as Imm,
            bias: required(IMM) as Imm,
        ],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$func $input `scale` `=` $scale `bias` `=` $bias attr-dict `:` type($input) `->` type($result)",
            ),
            ..op::<Activation>("nki.activation", "func(x * scale + bias) on the Scalar engine")
        },
    }
}

impl NkiCheck for Activation {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_elementwise(ctx, self, &[self.input(ctx)], self.result(ctx), false)?;
        let r = tile_of(ctx, self.result(ctx)).expect("checked");
        if !is_float(ctx, r.elem) || r.space != Space::Sbuf {
            return Err(fail(ctx, self, "an activation writes a float SBUF tile"));
        }
        Ok(())
    }
}

/// The engines that may run the Vector engine's elementwise work.
fn vector_or_gpsimd(
    ctx: &Context,
    op: impl OpHandle,
    engine: Option<Engine>,
) -> Result<(), Diagnostic> {
    match engine {
        None | Some(Engine::Vector | Engine::GpSimd) => Ok(()),
        Some(e) => Err(fail(
            ctx,
            op,
            format!("runs on the vector or gpsimd engine, not {}", e.keyword()),
        )),
    }
}

aic::op! {
    /// `nki.tensor_tensor add %a, %b : A, B -> R` (`nisa.tensor_tensor`;
    /// with `%b` a [P, 1] tile, `nisa.tensor_scalar` with a per-partition
    /// operand).
    pub TensorTensor = TENSOR_TENSOR {
        operands: [lhs: one(TILE), rhs: one(TILE)],
        results: [result: one(TILE)],
        attributes: [
            kind = "op": required(Alu::CONSTRAINT) as Alu,
            engine: optional(Engine::CONSTRAINT) as Engine,
        ],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$op $lhs `,` $rhs (`engine` `=` $engine^)? attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)",
            ),
            ..op::<TensorTensor>("nki.tensor_tensor", "an elementwise operator of two tiles")
        },
    }
}

impl NkiCheck for TensorTensor {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        vector_or_gpsimd(ctx, self, self.engine(ctx))?;
        let values = [self.lhs(ctx), self.rhs(ctx), self.result(ctx)];
        check_integer_alu(ctx, self, self.kind(ctx), &values, None)?;
        check_elementwise(
            ctx,
            self,
            &[self.lhs(ctx), self.rhs(ctx)],
            self.result(ctx),
            true,
        )
    }
}

aic::op! {
    /// `nki.tensor_scalar multiply %x, 2.0 : f32 (plus %i)? : T -> R`
    /// (`nisa.tensor_scalar`): `x op s`, or `s op x` with
    /// `{reverse = true}`, where `s` is the immediate plus, if given, an
    /// index the program computed (a loop's or program's position).
    pub TensorScalar = TENSOR_SCALAR {
        operands: [input: one(TILE), dynamic: optional(tc::INDEX)],
        results: [result: one(TILE)],
        attributes: [
            kind = "op": required(Alu::CONSTRAINT) as Alu,
            scalar: required(IMM) as Imm,
            reverse: optional(aic::constraints::BOOL_ATTR) as Flag,
            engine: optional(Engine::CONSTRAINT) as Engine,
        ],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$op $input `,` $scalar (`plus` $dynamic^)? (`engine` `=` $engine^)? attr-dict `:` type($input) `->` type($result)",
            ),
            ..op::<TensorScalar>("nki.tensor_scalar", "an elementwise operator of a tile and a scalar")
        },
    }
}

impl NkiCheck for TensorScalar {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        vector_or_gpsimd(ctx, self, self.engine(ctx))?;
        let values = [self.input(ctx), self.result(ctx)];
        let scalar = self.scalar(ctx).map(|s| s.0);
        check_integer_alu(ctx, self, self.kind(ctx), &values, scalar)?;
        check_elementwise(ctx, self, &[self.input(ctx)], self.result(ctx), false)
    }
}

/// The dtype rule of the integer operators (bitwise logic and shifts): the
/// tiles hold integers (or booleans) and an immediate is a whole number.
fn check_integer_alu(
    ctx: &Context,
    op: impl OpHandle,
    alu: Option<Alu>,
    values: &[Value],
    scalar: Option<f64>,
) -> Result<(), Diagnostic> {
    let integer_op = matches!(
        alu,
        Some(Alu::BitwiseAnd | Alu::BitwiseOr | Alu::BitwiseXor | Alu::LeftShift | Alu::RightShift)
    );
    if !integer_op {
        return Ok(());
    }
    for v in values {
        let t = tile_of(ctx, *v);
        if t.is_some_and(|t| !matches!(ctx.type_kind(t.elem), TypeKind::Integer { .. })) {
            return Err(fail(
                ctx,
                op,
                format!(
                    "{} needs integer tiles, not {}",
                    alu.map(|a| a.keyword()).unwrap_or_default(),
                    aic::printer::type_text(ctx.uniquer(), t.expect("a tile").elem)
                ),
            ));
        }
    }
    if scalar.is_some_and(|s| s.fract() != 0.0) {
        return Err(fail(
            ctx,
            op,
            "an integer operator's immediate must be a whole number",
        ));
    }
    Ok(())
}

/// The checks of a reduction of `input` to `result` whose shape is `want`.
fn check_reduce(
    ctx: &Context,
    op: impl OpHandle,
    input: Value,
    result: Value,
    want: impl Fn(&NkiTile) -> Vec<i64>,
) -> Result<(), Diagnostic> {
    let [x, r] = tiles(ctx, op, &[input, result], "operand and result")?[..] else {
        unreachable!("two values")
    };
    let w = want(x);
    if r.shape != w || r.space != Space::Sbuf {
        return Err(fail(
            ctx,
            op,
            format!("reducing {:?} gives an SBUF tile of {w:?}", x.shape),
        ));
    }
    Ok(())
}

aic::op! {
    /// `nki.tensor_reduce add %x : [P, F..] -> [P, 1]` (`nisa.tensor_reduce`
    /// over the free axes, keeping a free dimension of 1) on the Vector
    /// engine, accumulating in fp32.
    pub TensorReduce = TENSOR_REDUCE {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [kind = "op": required(ReduceOp::CONSTRAINT) as ReduceOp],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$op $input attr-dict `:` type($input) `->` type($result)"),
            ..op::<TensorReduce>("nki.tensor_reduce", "a reduction along the free axes")
        },
    }
}

impl NkiCheck for TensorReduce {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_reduce(ctx, self, self.input(ctx), self.result(ctx), |x| {
            vec![x.partitions(), 1]
        })
    }
}

aic::op! {
    /// `nki.partition_reduce add %x : [P, F..] -> [1, F..]`
    /// (`nisa.tensor_partition_reduce`) on the GpSimd engine.
    pub PartitionReduce = PARTITION_REDUCE {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [kind = "op": required(ReduceOp::CONSTRAINT) as ReduceOp],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$op $input attr-dict `:` type($input) `->` type($result)"),
            ..op::<PartitionReduce>("nki.partition_reduce", "a reduction across partitions")
        },
    }
}

impl NkiCheck for PartitionReduce {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_reduce(ctx, self, self.input(ctx), self.result(ctx), |x| {
            let mut s = x.shape.clone();
            s[0] = 1;
            s
        })
    }
}

/// The checks of a broadcast of `input` to `result`, `input` having size 1
/// along `along` (partitions or free).
fn check_broadcast(
    ctx: &Context,
    op: impl OpHandle,
    input: Value,
    result: Value,
    partitions: bool,
) -> Result<(), Diagnostic> {
    let [x, r] = tiles(ctx, op, &[input, result], "operand and result")?[..] else {
        unreachable!("two values")
    };
    let ok = if partitions {
        x.partitions() == 1 && x.shape[1..] == r.shape[1..]
    } else {
        x.free() == 1 && x.partitions() == r.partitions()
    };
    if !ok || r.space != Space::Sbuf || x.elem != r.elem {
        let what = if partitions {
            "[1, F] to [P, F]"
        } else {
            "[P, 1] to [P, F]"
        };
        return Err(fail(
            ctx,
            op,
            format!(
                "broadcasts {what} into SBUF, not {:?} to {:?}",
                x.shape, r.shape
            ),
        ));
    }
    Ok(())
}

aic::op! {
    /// `nki.partition_broadcast %x : [1, F] -> [P, F]`: one partition's row
    /// copied to every partition (GpSimd).
    pub PartitionBroadcast = PARTITION_BROADCAST {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input attr-dict `:` type($input) `->` type($result)"),
            ..op::<PartitionBroadcast>("nki.partition_broadcast", "a row copied to every partition")
        },
    }
}

impl NkiCheck for PartitionBroadcast {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_broadcast(ctx, self, self.input(ctx), self.result(ctx), true)
    }
}

aic::op! {
    /// `nki.free_broadcast %x : [P, 1] -> [P, F]`: each partition's scalar
    /// along the free axis (a Vector engine copy, `x.broadcast_to`).
    pub FreeBroadcast = FREE_BROADCAST {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input attr-dict `:` type($input) `->` type($result)"),
            ..op::<FreeBroadcast>("nki.free_broadcast", "each partition's scalar along the free axis")
        },
    }
}

impl NkiCheck for FreeBroadcast {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        check_broadcast(ctx, self, self.input(ctx), self.result(ctx), false)
    }
}

aic::op! {
    /// `nki.iota dim = 0 : tile` (`nisa.iota`): each element's index along
    /// `dim` (0: the partition, 1...: a free dimension), on GpSimd.
    pub Iota = IOTA {
        results: [result: one(TILE)],
        attributes: [dim: required(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("`dim` `=` $dim attr-dict `:` type($result)"),
            ..op::<Iota>("nki.iota", "each element's index along a dimension")
        },
    }
}

impl NkiCheck for Iota {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let r = tile_of(ctx, self.result(ctx))
            .ok_or_else(|| fail(ctx, self, "the result must be a tile"))?;
        let dim = self.dim(ctx).unwrap_or(-1);
        if !(0..r.shape.len() as i64).contains(&dim) || r.space != Space::Sbuf {
            return Err(fail(
                ctx,
                self,
                format!("dim {dim} of an SBUF tile of rank {}", r.shape.len()),
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `nki.select %pred, %a, %b : P, A, B -> R` (`nl.where`): `a` where
    /// `pred` is non-zero, else `b`.
    pub Select = SELECT {
        operands: [pred: one(TILE), on_true: one(TILE), on_false: one(TILE)],
        results: [result: one(TILE)],
        attributes: [engine: optional(Engine::CONSTRAINT) as Engine],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$pred `,` $on_true `,` $on_false (`engine` `=` $engine^)? attr-dict `:` type($pred) `,` type($on_true) `,` type($on_false) `->` type($result)",
            ),
            ..op::<Select>("nki.select", "elementwise choice by a predicate tile")
        },
    }
}

impl NkiCheck for Select {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        vector_or_gpsimd(ctx, self, self.engine(ctx))?;
        let ins = [self.pred(ctx), self.on_true(ctx), self.on_false(ctx)];
        check_elementwise(ctx, self, &ins, self.result(ctx), false)
    }
}

aic::op! {
    /// `nki.affine_select %x where [a, b, c] else -inf : T -> T`
    /// (`nisa.affine_select`): `x` where `a * partition + b * free + c >= 0`
    /// (`free` the flat index along the free axes), else the fill value.
    pub AffineSelect = AFFINE_SELECT {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [coeffs: required(I64_ARRAY) as Vec<i64>, fill: required(IMM) as Imm],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$input `where` $coeffs `else` $fill attr-dict `:` type($input) `->` type($result)",
            ),
            ..op::<AffineSelect>("nki.affine_select", "keeps elements an affine condition of their indices holds for")
        },
    }
}

impl NkiCheck for AffineSelect {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        if self.coeffs(ctx).map(|c| c.len()) != Some(3) {
            return Err(fail(ctx, self, "coeffs are [partition, free, constant]"));
        }
        check_elementwise(ctx, self, &[self.input(ctx)], self.result(ctx), false)
    }
}

aic::op! {
    /// `nki.mask %origin through #coord.desc : tile`: 1 where a DMA of the
    /// tile at `origin` through the descriptor reads in bounds, else 0 (the
    /// predicate NKI's `mask=` expressions compute from iotas and the
    /// program's indices, on GpSimd).
    pub Mask = MASK {
        operands: [origin: variadic(tc::INDEX)],
        results: [result: one(TILE)],
        attributes: [desc: required(DESC)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$origin `through` $desc attr-dict `:` type($result)"),
            ..op::<Mask>("nki.mask", "which elements of an access pattern are in bounds")
        },
    }
}

impl NkiCheck for Mask {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let err = |m: String| fail(ctx, self, m);
        let r = tile_of(ctx, self.result(ctx))
            .ok_or_else(|| err("the result must be a tile".into()))?;
        let d = desc_of(ctx, self.desc(ctx), self.result(ctx))
            .map_err(|e| err(format!("bad descriptor: {e}")))?;
        d.lower().map_err(|e| err(format!("bad descriptor: {e}")))?;
        let n = self.origin(ctx).len();
        if n != d.upper.len() || r.shape.len() > n || r.space != Space::Sbuf {
            return Err(err(format!(
                "an SBUF tile of rank {} at an origin of {n} indices under a descriptor of rank {}",
                r.shape.len(),
                d.upper.len()
            )));
        }
        Ok(())
    }
}

aic::op! {
    /// `nki.copy %x : T -> R` (`nisa.tensor_copy`): the same elements in
    /// another element type or memory (PSUM to SBUF).
    pub Copy = COPY {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [engine: optional(Engine::CONSTRAINT) as Engine],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input (`engine` `=` $engine^)? attr-dict `:` type($input) `->` type($result)"),
            ..op::<Copy>("nki.copy", "a tile copied, converting its elements")
        },
    }
}

impl NkiCheck for Copy {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        match self.engine(ctx) {
            None | Some(Engine::Vector | Engine::GpSimd | Engine::Scalar) => {}
            Some(e) => {
                return Err(fail(
                    ctx,
                    self,
                    format!(
                        "copies run on the vector, scalar or gpsimd engine, not {}",
                        e.keyword()
                    ),
                ));
            }
        }
        check_elementwise(ctx, self, &[self.input(ctx)], self.result(ctx), false)
    }
}

aic::op! {
    /// `nki.bitcast %x : T -> R` (`tile.view(dtype)`): the same bits seen
    /// as another element type of the same width, in place; no engine
    /// runs it.
    pub Bitcast = BITCAST {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input attr-dict `:` type($input) `->` type($result)"),
            ..op::<Bitcast>("nki.bitcast", "a tile's bits as another element type")
        },
    }
}

impl NkiCheck for Bitcast {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let [x, r] = tiles(
            ctx,
            self,
            &[self.input(ctx), self.result(ctx)],
            "operand and result",
        )?[..] else {
            unreachable!("two values")
        };
        if x.shape != r.shape || x.space != r.space {
            return Err(fail(
                ctx,
                self,
                "a bitcast keeps the tile's shape and memory",
            ));
        }
        let (a, b) = (elem_bits(ctx, x.elem), elem_bits(ctx, r.elem));
        if a.is_none() || a != b {
            return Err(fail(
                ctx,
                self,
                "a bitcast is between element types of one width",
            ));
        }
        Ok(())
    }
}

/// The width of a scalar element type in bits.
fn elem_bits(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Float(k) => Some(k.bit_width()),
        TypeKind::Integer { width, .. } => Some(*width),
        _ => None,
    }
}

aic::op! {
    /// `nki.memset 0.0 : f32 : tile` (`nisa.memset`, `nl.zeros`): a tile of
    /// one value.
    pub Memset = MEMSET {
        results: [result: one(TILE)],
        attributes: [value: required(IMM) as Imm, engine: optional(Engine::CONSTRAINT) as Engine],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$value (`engine` `=` $engine^)? attr-dict `:` type($result)"),
            ..op::<Memset>("nki.memset", "a tile of one value")
        },
    }
}

impl NkiCheck for Memset {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        vector_or_gpsimd(ctx, self, self.engine(ctx))?;
        if tile_of(ctx, self.result(ctx)).is_none() {
            return Err(fail(ctx, self, "the result must be a tile"));
        }
        Ok(())
    }
}
