//! The tile ops, each declared once with its verifier beside it (an
//! [`TileOp`] impl); their interpreters are in [`super::interp`].

use super::interp::{self, Run};
use super::types::{TILE, malformed_tile, tile_type};
use super::{CopyKind, DESC, Level, ReduceKind, Space, TileType};
use crate::coord::{self, Desc};
use crate::gpu::{enclosing, verify_launch};
use aic::Diagnostic;
use aic::constraints::{I64_ARRAY, I64_ATTR, MEMREF, TENSOR};
use aic::dialect::{OpSpec, Traits, ac, tc};
use aic::ir::{Context, Op, Region, Value};
use aic::op_def::OpHandle;
use aic::types::TypeKind;
use aic::verifier::op_error;

/// A tile op's own verification, beside its spec; [`verify`] runs the
/// checks every tile op shares first.
pub(super) trait TileOp: OpHandle {
    /// Whether the op must sit inside a `tile.kernel`.
    const IN_KERNEL: bool = true;
    /// The op's own checks.
    fn check(self, ctx: &Context) -> Result<(), Diagnostic>;
}

/// The verifier of tile op `H`: it sits inside a kernel (unless it is one or
/// launches one), its tile types are well-formed with layouts that fit, and
/// then its own checks hold.
fn verify<H: TileOp>(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: &str| op_error(ctx, op, m);
    if H::IN_KERNEL && enclosing(ctx, op, KERNEL.name).is_none() {
        return Err(err("must be inside a tile.kernel"));
    }
    for v in ctx.results(op).chain(ctx.operands(op).iter().copied()) {
        let ty = ctx.value_type(v);
        if malformed_tile(ctx.type_kind(ty)) {
            return Err(err(
                "malformed tile type: expected !tile.tile<SHAPExELEM(, shared)?(, LAYOUT)?>",
            ));
        }
        let Some(t) = tile_type(ctx.uniquer(), ty) else {
            continue;
        };
        if let Some(why) = t.layout.and_then(|l| l.misfit(&t.shape, t.space)) {
            return Err(err(&format!("bad layout: {why}")));
        }
    }
    H::wrap(op).check(ctx)
}

/// The spec of a tile op with its verifier and interpreter.
const fn op<H: TileOp + Run>(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        verify: Some(verify::<H>),
        interpret: Some(interp::run::<H>),
        ..OpSpec::new(name)
    }
}

/// An error on `op`.
fn fail(ctx: &Context, op: impl OpHandle, m: impl std::fmt::Display) -> Diagnostic {
    op_error(ctx, op.op(), m)
}

pub(super) fn tile_of(ctx: &Context, v: Value) -> Option<&TileType> {
    tile_type(ctx.uniquer(), ctx.value_type(v))
}

/// The descriptor of a load or store: the one written, or row-major over
/// the buffer.
pub(super) fn desc_of(
    ctx: &Context,
    desc: Option<aic::attributes::Attr>,
    buffer: Value,
) -> Result<Desc, String> {
    written_desc(ctx, desc).unwrap_or_else(|| {
        ctx.type_kind(ctx.value_type(buffer))
            .shape()
            .map(Desc::row_major)
            .ok_or_else(|| "the buffer has no shape".to_string())
    })
}

/// The descriptor written as `desc`, if one is.
pub(super) fn written_desc(
    ctx: &Context,
    desc: Option<aic::attributes::Attr>,
) -> Option<Result<Desc, String>> {
    Some(coord::desc_of(ctx.uniquer(), desc?).cloned())
}

/// Why a tile of rank `rank` cannot sit at an origin of `origin` indices
/// under `d`, if it cannot: the origin gives every index of `d`, and a tile
/// of lower rank covers the trailing dims (the leading indices pick, say, a
/// batch and a head).
fn misplaced(d: &Desc, origin: usize, rank: usize) -> Option<String> {
    (origin != d.upper.len() || rank > d.upper.len()).then(|| {
        format!(
            "a tile of rank {rank} at an origin of {origin} indices under a descriptor of rank {}",
            d.upper.len()
        )
    })
}

/// The arguments of the entry block of `r` (none if it has none).
fn entry_args(ctx: &Context, r: Region) -> Vec<Value> {
    ctx.entry_block(r)
        .map(|b| ctx.block_args(b).to_vec())
        .unwrap_or_default()
}

aic::op! {
    /// `tile.kernel @name grid = [..] (threads = n)? (copy = c)? (persistent = p)?
    /// (group = g)? (consumers = 2)? { ^bb0(buffers): ... }`: `threads`, where a kernel's
    /// tiles chose it, is the block size its lowering uses instead of the
    /// target's; `persistent`, that the grid's blocks (its tiles) run on at
    /// most `p` resident blocks, each taking the tiles `p` apart in the
    /// grid's order (`tile.program_id` gives the current tile's
    /// coordinates); `group`, the grid's order: blocks in launch order take
    /// `g` tiles down axis 0 before the next step along axis 1 (Triton's
    /// `GROUP_SIZE_M`), so that the blocks running at once share a GEMM's
    /// operand blocks in L2 (without it, axis 0 first all the way); neither
    /// changes what the kernel computes;
    /// `copy`, how its tuning chose to fill its pipelined loops' rings
    /// (the layout passes write it on the loops where it can be done, in
    /// place of their own `copy` option); `consumers = 2`, of a persistent
    /// kernel, that each block runs two blocks' worth of `threads` (two
    /// consumer groups of a warp-specialised kernel), each taking every
    /// other of the block's tiles and their K loops in turn (CUTLASS's
    /// ping-pong: one's epilogue runs while the other's K loop does).
    pub Kernel = KERNEL {
        attributes: [
            sym_name: required(ac::SYMBOL_NAME),
            grid: required(I64_ARRAY) as Vec<i64>,
            threads: optional(I64_ATTR) as i64,
            copy: optional(CopyKind::CONSTRAINT) as CopyKind,
            persistent: optional(I64_ATTR) as i64,
            group: optional(I64_ATTR) as i64,
            consumers: optional(I64_ATTR) as i64,
        ],
        regions: [body: sized],
        spec: OpSpec {
            summary: "a kernel over a grid of blocks, its arguments buffers",
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::SYMBOL)
                .with(Traits::SINGLE_BLOCK),
            format: Some(
                "$sym_name `grid` `=` $grid (`threads` `=` $threads^)? (`copy` `=` $copy^)? (`persistent` `=` $persistent^)? (`group` `=` $group^)? (`consumers` `=` $consumers^)? $body attr-dict",
            ),
            verify: Some(verify::<Kernel>),
            ..OpSpec::new("tile.kernel")
        },
    }
}

impl TileOp for Kernel {
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
        // The optional counts, each positive where given.
        for (name, v, what) in [
            ("threads", self.threads(ctx), "positive"),
            (
                "persistent",
                self.persistent(ctx),
                "a positive number of blocks",
            ),
            ("group", self.group(ctx), "a positive number of tiles"),
        ] {
            if let Some(v) = v.filter(|v| *v < 1) {
                return Err(fail(ctx, self, format!("{name} {v} must be {what}")));
            }
        }
        if let Some(c) = self.consumers(ctx) {
            if c != 2 {
                return Err(fail(
                    ctx,
                    self,
                    format!("consumers {c} must be 2 (two groups taking turns)"),
                ));
            }
            if self.persistent(ctx).is_none() {
                return Err(fail(
                    ctx,
                    self,
                    "consumers taking turns need a persistent kernel (persistent = p)",
                ));
            }
        }
        if entry_args(ctx, self.body(ctx))
            .iter()
            .any(|a| !matches!(ctx.type_kind(ctx.value_type(*a)), TypeKind::MemRef { .. }))
        {
            return Err(fail(ctx, self, "arguments must be memref buffers"));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.return`: ends a kernel's body.
    pub Return = RETURN {
        spec: OpSpec {
            summary: "ends a kernel",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[KERNEL.name],
            format: Some("attr-dict"),
            ..OpSpec::new("tile.return")
        },
    }
}

aic::op! {
    /// `tile.launch @k(%inputs) : (tensors) -> tensors`.
    pub Launch = LAUNCH {
        operands: [inputs: variadic(TENSOR)],
        results: [outputs: variadic(TENSOR)],
        attributes: [kernel: required(ac::FLAT_SYMBOL_REF)],
        spec: OpSpec {
            format: Some("$kernel `(` $inputs `)` attr-dict `:` functional-type($inputs, results)"),
            ..op::<Launch>(
                "tile.launch",
                "runs a kernel on tensors: inputs, then zeroed outputs, as its buffers",
            )
        },
    }
}

impl TileOp for Launch {
    const IN_KERNEL: bool = false;
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        verify_launch(ctx, self.op(), KERNEL.name, false)
    }
}

aic::op! {
    /// `tile.program_id <axis> : index`.
    pub ProgramId = PROGRAM_ID {
        results: [id: one(tc::INDEX)],
        attributes: [axis: required(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$axis attr-dict `:` type($id)"),
            ..op::<ProgramId>("tile.program_id", "the block's position along a grid axis")
        },
    }
}

impl TileOp for ProgramId {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let axis = self.axis(ctx).unwrap_or(-1);
        if !(0..3).contains(&axis) {
            return Err(fail(ctx, self, format!("axis {axis} must be 0, 1 or 2")));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.iota dim = 1 : !tile.tile<16x64xindex>`: each element's position
    /// along `dim` (Triton's `arange`), for masks and index arithmetic.
    pub Iota = IOTA {
        results: [result: one(TILE)],
        attributes: [dim: required(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("`dim` `=` $dim attr-dict `:` type($result)"),
            ..op::<Iota>("tile.iota", "each element's position along a dimension")
        },
    }
}

impl TileOp for Iota {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let r = tile_of(ctx, self.result(ctx))
            .ok_or_else(|| fail(ctx, self, "result must be a tile"))?;
        let dim = self.dim(ctx).unwrap_or(-1);
        if !(0..r.shape.len() as i64).contains(&dim) {
            return Err(fail(
                ctx,
                self,
                format!(
                    "dim {dim} out of range for a tile of rank {}",
                    r.shape.len()
                ),
            ));
        }
        if !matches!(
            ctx.type_kind(r.elem),
            TypeKind::Index | TypeKind::Integer { .. }
        ) {
            return Err(fail(
                ctx,
                self,
                "an iota's elements are indices or integers",
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.valid %origin through #coord.desc : !tile.tile<..xi1>`: where a
    /// load through the descriptor would read (true) or be masked (false); a
    /// value computed from padded or concatenated data is zeroed with it.
    pub Valid = VALID {
        operands: [origin: variadic(tc::INDEX)],
        results: [result: one(TILE)],
        attributes: [desc: required(DESC)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$origin `through` $desc attr-dict `:` type($result)"),
            ..op::<Valid>("tile.valid", "which indices a descriptor maps in range")
        },
    }
}

impl TileOp for Valid {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let err = |m: String| fail(ctx, self, m);
        let r =
            tile_of(ctx, self.result(ctx)).ok_or_else(|| err("result must be a tile".into()))?;
        let d = written_desc(ctx, self.desc(ctx))
            .ok_or_else(|| err("needs a descriptor".into()))?
            .map_err(|e| err(format!("bad descriptor: {e}")))?;
        d.lower().map_err(|e| err(format!("bad descriptor: {e}")))?;
        if let Some(why) = misplaced(&d, self.origin(ctx).len(), r.shape.len()) {
            return Err(err(why));
        }
        if !matches!(ctx.type_kind(r.elem), TypeKind::Integer { width: 1, .. }) {
            return Err(err("a validity tile has i1 elements".into()));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.load %buf[%origin] (through #coord.desc)? : memref -> tile`.
    pub Load = LOAD {
        operands: [buffer: one(MEMREF), origin: variadic(tc::INDEX)],
        results: [result: one(TILE)],
        attributes: [desc: optional(DESC)],
        spec: OpSpec {
            traits: Traits::READ_ONLY,
            format: Some(
                "$buffer `[` $origin `]` (`through` $desc^)? attr-dict `:` type($buffer) `->` type($result)",
            ),
            ..op::<Load>(
                "tile.load",
                "reads a tile from a buffer through a descriptor, masked",
            )
        },
    }
}

impl TileOp for Load {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let tile = tile_of(ctx, self.result(ctx));
        check_access(
            ctx,
            self,
            self.buffer(ctx),
            tile,
            self.origin(ctx),
            self.desc(ctx),
        )
    }
}

/// The checks of a load or store of `tile` at `origin` in `buffer`, through
/// the descriptor `desc` (row-major when absent).
fn check_access(
    ctx: &Context,
    op: impl OpHandle,
    buffer: Value,
    tile: Option<&TileType>,
    origin: &[Value],
    desc: Option<aic::attributes::Attr>,
) -> Result<(), Diagnostic> {
    let err = |m: String| fail(ctx, op, m);
    let tile = tile.ok_or_else(|| err("expected a tile type".into()))?;
    let d = desc_of(ctx, desc, buffer).map_err(|e| err(format!("bad descriptor: {e}")))?;
    let lower = d.lower().map_err(|e| err(format!("bad descriptor: {e}")))?;
    let bk = ctx.type_kind(ctx.value_type(buffer));
    let size = |s: &[i64]| {
        aic::shape::elements(s).map_err(|e| err(format!("bad buffer or descriptor: {e:?}")))
    };
    let buffer_len = bk.shape().map_or(Ok(0), size)?;
    let addressed = size(&lower)?;
    if addressed != buffer_len {
        return Err(err(format!(
            "the descriptor addresses {} elements but the buffer has {buffer_len}",
            addressed
        )));
    }
    if let Some(why) = misplaced(&d, origin.len(), tile.shape.len()) {
        return Err(err(why));
    }
    if bk.element_type() != Some(tile.elem) {
        return Err(err(
            "the tile and the buffer have different element types".into()
        ));
    }
    if tile.space != Space::Register {
        return Err(err("loads and stores move register tiles".into()));
    }
    Ok(())
}

aic::op! {
    /// `tile.store %t, %buf[%origin] (through #coord.desc)? (staged)? : tile, memref`.
    /// `staged`, where a pass decided it (`tile-shared-layout`), says a
    /// matrix unit's accumulator reaches memory through the shared rings
    /// of the kernel's finished K loops, in 16-byte runs (a tile the
    /// lowering does not hold as fragments is stored as it would be
    /// without it).
    pub Store = STORE {
        operands: [value: one(TILE), buffer: one(MEMREF), origin: variadic(tc::INDEX)],
        attributes: [desc: optional(DESC), staged: optional(ac::UNIT) as bool],
        spec: OpSpec {
            format: Some(
                "$value `,` $buffer `[` $origin `]` (`through` $desc^)? (`staged` $staged^)? attr-dict `:` type($value) `,` type($buffer)",
            ),
            ..op::<Store>(
                "tile.store",
                "writes a tile to a buffer through a descriptor, masked",
            )
        },
    }
}

impl TileOp for Store {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let tile = tile_of(ctx, self.value(ctx));
        check_access(
            ctx,
            self,
            self.buffer(ctx),
            tile,
            self.origin(ctx),
            self.desc(ctx),
        )
    }
}

aic::op! {
    /// `tile.gemm %a, %b, %acc level = block : A, B -> C`.
    pub Gemm = GEMM {
        operands: [a: one(TILE), b: one(TILE), acc: one(TILE)],
        results: [result: one(TILE)],
        attributes: [level: required(Level::CONSTRAINT) as Level],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$a `,` $b `,` $acc `level` `=` $level attr-dict `:` type($a) `,` type($b) `,` type($acc) `->` type($result)",
            ),
            ..op::<Gemm>("tile.gemm", "acc + a x b at a block, warp or thread level")
        },
    }
}

impl TileOp for Gemm {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let tiles = (
            tile_of(ctx, self.a(ctx)),
            tile_of(ctx, self.b(ctx)),
            tile_of(ctx, self.acc(ctx)),
            tile_of(ctx, self.result(ctx)),
        );
        let (Some(a), Some(b), Some(acc), Some(r)) = tiles else {
            return Err(fail(ctx, self, "operands and result must be tiles"));
        };
        let ok = a.shape.len() == 2
            && b.shape.len() == 2
            && a.shape[1] == b.shape[0]
            && acc.shape == [a.shape[0], b.shape[1]];
        if !ok {
            return Err(fail(
                ctx,
                self,
                format!(
                    "shapes {:?} x {:?} + {:?} do not form a matrix product",
                    a.shape, b.shape, acc.shape
                ),
            ));
        }
        if r != acc || acc.space != Space::Register {
            return Err(fail(
                ctx,
                self,
                "the accumulator and result must be the same register tile",
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.sparse_gemm %a, %values, %meta, %acc level = block : A, V, M, C
    /// -> C`: `acc + a x w` with `w` (`[K, N]`) 2:4 sparse along K, given as
    /// its kept `values` (`[K/2, N]`, rows `2g` and `2g + 1` group `g`'s two)
    /// and their positions in the group (`meta`, integers 0 to 3, of the same
    /// shape): `graph.sparse_matmul`'s compressed weight, a tile of it.
    pub SparseGemm = SPARSE_GEMM {
        operands: [a: one(TILE), values: one(TILE), meta: one(TILE), acc: one(TILE)],
        results: [result: one(TILE)],
        attributes: [level: required(Level::CONSTRAINT) as Level],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some(
                "$a `,` $values `,` $meta `,` $acc `level` `=` $level attr-dict `:` type($a) `,` type($values) `,` type($meta) `,` type($acc) `->` type($result)",
            ),
            ..op::<SparseGemm>(
                "tile.sparse_gemm",
                "acc + a x w, w 2:4 sparse along K given as values and positions",
            )
        },
    }
}

impl TileOp for SparseGemm {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let tiles = (
            tile_of(ctx, self.a(ctx)),
            tile_of(ctx, self.values(ctx)),
            tile_of(ctx, self.meta(ctx)),
            tile_of(ctx, self.acc(ctx)),
            tile_of(ctx, self.result(ctx)),
        );
        let (Some(a), Some(v), Some(m), Some(acc), Some(r)) = tiles else {
            return Err(fail(ctx, self, "operands and result must be tiles"));
        };
        let ok = a.shape.len() == 2
            && v.shape.len() == 2
            && a.shape[1] % 4 == 0
            && a.shape[1] == 2 * v.shape[0]
            && acc.shape == [a.shape[0], v.shape[1]];
        if !ok {
            return Err(fail(
                ctx,
                self,
                format!(
                    "shapes {:?} x 2:4{:?} + {:?} do not form a 2:4-sparse matrix product (A's K a multiple of 4, twice the values' rows)",
                    a.shape, v.shape, acc.shape
                ),
            ));
        }
        if m.shape != v.shape || !matches!(ctx.type_kind(m.elem), TypeKind::Integer { .. }) {
            return Err(fail(
                ctx,
                self,
                "the metadata must be an integer tile of the values' shape",
            ));
        }
        if r != acc || acc.space != Space::Register {
            return Err(fail(
                ctx,
                self,
                "the accumulator and result must be the same register tile",
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.map %tiles : (tiles) -> tile { ^bb0(scalars): ... tile.yield }`.
    pub Map = MAP {
        operands: [inputs: variadic(TILE)],
        results: [result: one(TILE)],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::PURE.with(Traits::SINGLE_BLOCK),
            format: Some("$inputs attr-dict `:` functional-type($inputs, results) $body"),
            ..op::<Map>(
                "tile.map",
                "an elementwise function of tiles, element by element",
            )
        },
    }
}

impl TileOp for Map {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let err = |m: String| fail(ctx, self, m);
        let r =
            tile_of(ctx, self.result(ctx)).ok_or_else(|| err("result must be a tile".into()))?;
        let inputs = self.inputs(ctx);
        let args = entry_args(ctx, self.body(ctx));
        if args.len() != inputs.len() {
            return Err(err(format!(
                "{} inputs but the body takes {} elements",
                inputs.len(),
                args.len()
            )));
        }
        for (v, a) in inputs.iter().zip(&args) {
            let t = tile_of(ctx, *v).ok_or_else(|| err("inputs must be tiles".into()))?;
            if t.shape != r.shape {
                return Err(err(format!(
                    "input shape {:?} is not the result's {:?}",
                    t.shape, r.shape
                )));
            }
            if ctx.value_type(*a) != t.elem {
                return Err(err(
                    "body arguments must be the inputs' element types".into()
                ));
            }
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.reduce sum %t, axis = 1 : tile -> tile`.
    pub Reduce = REDUCE {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [kind: required(ReduceKind::CONSTRAINT) as ReduceKind, axis: required(I64_ATTR) as i64],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$kind $input `,` `axis` `=` $axis attr-dict `:` type($input) `->` type($result)"),
            ..op::<Reduce>("tile.reduce", "reduces a tile along an axis")
        },
    }
}

impl TileOp for Reduce {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let (Some(t), Some(r)) = (
            tile_of(ctx, self.input(ctx)),
            tile_of(ctx, self.result(ctx)),
        ) else {
            return Err(fail(ctx, self, "operand and result must be tiles"));
        };
        let axis = self.axis(ctx).unwrap_or(-1);
        let mut want = t.shape.clone();
        if !(0..want.len() as i64).contains(&axis) || want.len() < 2 {
            return Err(fail(
                ctx,
                self,
                format!(
                    "axis {axis} out of range for a tile of rank {}",
                    t.shape.len()
                ),
            ));
        }
        want.remove(axis as usize);
        if r.shape != want || r.elem != t.elem {
            return Err(fail(
                ctx,
                self,
                format!("reducing {:?} along {axis} gives {want:?}", t.shape),
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.broadcast %t, dims = [..] : T -> tile` (a scalar with `dims = []`).
    pub Broadcast = BROADCAST {
        operands: [input: one(tc::ANY)],
        results: [result: one(TILE)],
        attributes: [dims: required(I64_ARRAY) as Vec<i64>],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input `,` `dims` `=` $dims attr-dict `:` type($input) `->` type($result)"),
            ..op::<Broadcast>(
                "tile.broadcast",
                "a tile or scalar broadcast to a larger tile",
            )
        },
    }
}

impl TileOp for Broadcast {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let r = tile_of(ctx, self.result(ctx))
            .ok_or_else(|| fail(ctx, self, "result must be a tile"))?;
        let input = self.input(ctx);
        let (shape, elem) = match tile_of(ctx, input) {
            Some(t) => (t.shape.clone(), t.elem),
            None => (Vec::new(), ctx.value_type(input)),
        };
        let dims = self.dims(ctx).unwrap_or_default();
        let ok = dims.len() == shape.len()
            && dims.iter().zip(&shape).all(|(d, l)| {
                usize::try_from(*d)
                    .ok()
                    .and_then(|d| r.shape.get(d))
                    .is_some_and(|rl| rl == l || *l == 1)
            });
        if !ok || elem != r.elem {
            return Err(fail(
                ctx,
                self,
                format!("cannot broadcast {shape:?} to {:?} along {dims:?}", r.shape),
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.transfer %t to shared depth = 2 : tile -> tile`.
    pub Transfer = TRANSFER {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [space: required(Space::CONSTRAINT) as Space, depth: required(I64_ATTR) as i64],
        spec: OpSpec {
            format: Some(
                "$input `to` $space `depth` `=` $depth attr-dict `:` type($input) `->` type($result)",
            ),
            ..op::<Transfer>(
                "tile.transfer",
                "stages a tile into another space, pipelined `depth` deep",
            )
        },
    }
}

impl TileOp for Transfer {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let (Some(t), Some(r)) = (
            tile_of(ctx, self.input(ctx)),
            tile_of(ctx, self.result(ctx)),
        ) else {
            return Err(fail(ctx, self, "operand and result must be tiles"));
        };
        let space = self.space(ctx).unwrap_or(Space::Register);
        if t.shape != r.shape || t.elem != r.elem || r.space != space {
            return Err(fail(
                ctx,
                self,
                "the result must be the same tile in the named space",
            ));
        }
        if self.depth(ctx).unwrap_or(0) < 1 {
            return Err(fail(ctx, self, "depth must be at least 1"));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.convert_layout %t : tile -> tile`: the same elements in
    /// another layout (Triton's `convert_layout`), where a value leaves the
    /// layout a pass decided for it (an accumulator's fragments read
    /// blocked, say); the lowering moves the data, the value stays.
    pub ConvertLayout = CONVERT_LAYOUT {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input attr-dict `:` type($input) `->` type($result)"),
            ..op::<ConvertLayout>(
                "tile.convert_layout",
                "the same tile in another layout",
            )
        },
    }
}

impl TileOp for ConvertLayout {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let (Some(t), Some(r)) = (
            tile_of(ctx, self.input(ctx)),
            tile_of(ctx, self.result(ctx)),
        ) else {
            return Err(fail(ctx, self, "operand and result must be tiles"));
        };
        if t.shape != r.shape || t.elem != r.elem || t.space != r.space {
            return Err(fail(
                ctx,
                self,
                "the result must be the same tile in the same space, only its layout changed",
            ));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.for %lb to %ub step %s (iter_args(%init))? (stages = n)? : types { ^bb0(%iv, iters): ... }`:
    /// `stages`, where a pass pipelined the loop, is how many iterations'
    /// transfers are in flight at once (a ring of that many shared buffers
    /// per transfer); `copy`, where a pass chose how the ring is filled
    /// (absent: cp.async), `tma` for Hopper's bulk tensor copies.
    pub For = FOR {
        operands: [
            lower: one(tc::INDEX),
            upper: one(tc::INDEX),
            step: one(tc::INDEX),
            inits: variadic(tc::ANY),
        ],
        results: [results: variadic(tc::ANY)],
        attributes: [
            stages: optional(I64_ATTR) as i64,
            copy: optional(CopyKind::CONSTRAINT) as CopyKind,
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::SINGLE_BLOCK,
            format: Some(
                "$lower `to` $upper `step` $step (`iter_args` `(` $inits^ `:` type($inits) `)` `->` type($results))? (`stages` `=` $stages^)? (`copy` `=` $copy^)? $body attr-dict",
            ),
            ..op::<For>("tile.for", "a loop carrying values (the K loop)")
        },
    }
}

impl TileOp for For {
    fn check(self, ctx: &Context) -> Result<(), Diagnostic> {
        let args = entry_args(ctx, self.body(ctx));
        let inits = self.inits(ctx);
        if args.len() != inits.len() + 1 || ctx.num_results(self.op()) != inits.len() {
            return Err(fail(
                ctx,
                self,
                "the body takes the induction variable and one value per result",
            ));
        }
        if let Some(s) = self.stages(ctx)
            && s < 2
        {
            return Err(fail(ctx, self, format!("stages {s} must be at least 2")));
        }
        if self.copy(ctx).is_some() && self.stages(ctx).is_none() {
            return Err(fail(ctx, self, "a ring copy kind on a loop without stages"));
        }
        Ok(())
    }
}

aic::op! {
    /// `tile.yield`: the values a map element or loop iteration gives.
    pub Yield = YIELD {
        operands: [values: variadic(tc::ANY)],
        spec: OpSpec {
            summary: "yields from a map element or a loop iteration",
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &[MAP.name, FOR.name],
            format: Some("($values^ `:` type($values))? attr-dict"),
            ..OpSpec::new("tile.yield")
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// `text` parsed, then `f` of the context, the module and its verification.
    fn with_module<T>(text: &str, f: impl FnOnce(&Context, Op, Result<(), Diagnostic>) -> T) -> T {
        let mut ctx = Context::new(Arc::new(crate::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", text.to_string());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
        let v = aic::verifier::verify(&ctx, m);
        f(&ctx, m, v)
    }

    fn ops(ctx: &Context, m: Op) -> Vec<Op> {
        let mut out = Vec::new();
        ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, o| out.push(o));
        out
    }

    const KERNEL_TEXT: &str = "tile.kernel @k grid = [4] threads = 64 {
^bb0(%x: memref<64xf32>):
  %p = tile.program_id 0 : index
  %t = tile.load %x[%p] : memref<64xf32> -> !tile.tile<16xf32>
  tile.store %t, %x[%p] : !tile.tile<16xf32>, memref<64xf32>
  tile.return
}";

    #[test]
    fn handles_read_groups_and_typed_attributes() {
        with_module(KERNEL_TEXT, |ctx, m, v| {
            v.expect("verifies");
            let all = ops(ctx, m);
            let k = all
                .iter()
                .find_map(|o| Kernel::of(ctx, *o))
                .expect("a kernel");
            assert_eq!(k.grid(ctx), Some(vec![4]));
            assert_eq!(k.threads(ctx), Some(64));
            let p = all
                .iter()
                .find_map(|o| ProgramId::of(ctx, *o))
                .expect("an id");
            assert_eq!(p.axis(ctx), Some(0));
            let l = all.iter().find_map(|o| Load::of(ctx, *o)).expect("a load");
            assert_eq!(l.origin(ctx), &[p.id(ctx)]);
            assert!(l.desc(ctx).is_none());
            let s = all
                .iter()
                .find_map(|o| Store::of(ctx, *o))
                .expect("a store");
            assert_eq!(s.value(ctx), l.result(ctx));
            assert_eq!(s.buffer(ctx), l.buffer(ctx));
        });
    }

    #[test]
    fn each_op_runs_its_own_checks_after_the_shared_ones() {
        let bad_axis = KERNEL_TEXT.replace("program_id 0", "program_id 3");
        with_module(&bad_axis, |_, _, v| {
            let e = v.expect_err("axis 3 is rejected").to_string();
            assert!(e.contains("axis 3 must be 0, 1 or 2"), "{e}");
        });
        let outside = "func.func @f() -> index {
  %p = tile.program_id 0 : index
  return %p : index
}";
        with_module(outside, |_, _, v| {
            let e = v.expect_err("outside a kernel").to_string();
            assert!(e.contains("must be inside a tile.kernel"), "{e}");
        });
        let no_buffers = "tile.kernel @k grid = [1] {
^bb0(%x: index):
  tile.return
}";
        with_module(no_buffers, |_, _, v| {
            let e = v.expect_err("index argument").to_string();
            assert!(e.contains("arguments must be memref buffers"), "{e}");
        });
    }

    #[test]
    fn terminators_have_no_hooks_and_the_rest_verify_and_run() {
        for spec in super::super::DIALECT.ops {
            let terminator = [RETURN.name, YIELD.name].contains(&spec.name);
            assert_eq!(spec.verify.is_none(), terminator, "{}", spec.name);
            let runs = !terminator && spec.name != KERNEL.name;
            assert_eq!(spec.interpret.is_some(), runs, "{}", spec.name);
        }
    }
}
