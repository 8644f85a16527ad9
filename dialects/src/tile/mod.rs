//! The `tile` dialect: kernels as programs over a grid of blocks, computing
//! on tiles (Composable Kernel's tile operators, Triton's blocks):
//!
//! ```mlir
//! tile.kernel @scale grid = [4] {
//! ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
//!   %p = tile.program_id 0 : index
//!   %c16 = arith.constant 16 : index
//!   %at = arith.muli %p, %c16 : index
//!   %t = tile.load %x[%at] : memref<64xf32> -> !tile.tile<16xf32>
//!   %u = tile.map %t : (!tile.tile<16xf32>) -> !tile.tile<16xf32> {
//!   ^bb0(%v: f32):
//!     %w = arith.addf %v, %v : f32
//!     tile.yield %w : f32
//!   }
//!   tile.store %u, %y[%at] : !tile.tile<16xf32>, memref<64xf32>
//!   tile.return
//! }
//! %out = tile.launch @scale(%in) : (tensor<64xf32>) -> tensor<64xf32>
//! ```
//!
//! Tile values have the type `!tile.tile<16x32xf16>` (registers) or
//! `!tile.tile<16x32xf16, shared>`. Loads and stores go through a
//! `#coord.desc` (row-major when left out) from the tile's origin, masked
//! where the descriptor says an index is invalid. `tile.gemm` accumulates a
//! product at an explicit level (block, warp or thread); `tile.map` carries
//! elementwise epilogues; `tile.for` is the K loop; `tile.transfer` stages a
//! tile into shared memory with a pipelining depth. `tile.launch` runs a
//! kernel on tensors: inputs become its first buffers, zeroed outputs the
//! rest, and every grid point runs the body in turn (the interpreter's
//! block-by-block execution).

use crate::coord::desc::row_major_indices;
use crate::coord::{self, Desc};
use crate::gpu::{PROGRAM, enclosing, kernel_of, run_grid, verify_launch};
use crate::memref::{get, row_major_offset, store_as};
use aic::Diagnostic;
use aic::constraints::{I64_ARRAY, I64_ATTR, MEMREF, TENSOR, i64_array_attr, int_attr};
use aic::dialect::DialectSyntax;
use aic::dialect::{AttrConstraint, AttrSyntax, Dialect, OpSpec, Traits, TypeConstraint, ac, tc};
use aic::interp::{Data, Elem, IResult, Interp, InterpError, Tensor};
use aic::ir::{Context, Op, Uniquer, Value};
use aic::types::{DialectObject, DialectValue, Type, TypeKind};
use aic::verifier::op_error;
use std::cell::Cell;
use std::fmt::Write as _;

aic::dialect_enum! {
    /// Where a tile lives, `#tile<space shared>`.
    pub enum Space = "tile<space ", "tile space (register, shared)" {
        /// Registers (the default).
        Register = "register",
        /// Shared memory (LDS on AMD).
        Shared = "shared",
    }
}

/// A tile type: shape, element type, space and, optionally, how its
/// elements are laid out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileType {
    /// The tile's shape.
    pub shape: Vec<i64>,
    /// The element type.
    pub elem: Type,
    /// Where it lives.
    pub space: Space,
    /// How the elements are distributed (None: left to the backend).
    pub layout: Option<Layout>,
}

/// How a tile's elements are laid out; the interpreter ignores it (a layout
/// never changes a value), the verifier checks it fits the tile, and a
/// backend follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Register fragments of an `m x n x k` matrix instruction (mma/wgmma on
    /// NVIDIA, MFMA on AMD): `mma<16, 8, 16>`.
    Mma {
        /// Rows of one fragment.
        m: i64,
        /// Columns of one fragment.
        n: i64,
        /// The instruction's depth.
        k: i64,
    },
    /// Shared memory with CuTe's XOR swizzle, `swizzle<b, m, s>`: 2^b rows
    /// of 2^m-element units, the row bits shifted by s, to avoid bank
    /// conflicts.
    Swizzle {
        /// Bits of the row index XOR-ed in.
        b: i64,
        /// Bits of the unit.
        m: i64,
        /// The shift.
        s: i64,
    },
}

impl Layout {
    fn parse(text: &str) -> Option<Layout> {
        let (name, rest) = text.split_once('<')?;
        let nums: Vec<i64> = rest
            .strip_suffix('>')?
            .split(',')
            .map(|p| p.trim().parse().ok())
            .collect::<Option<_>>()?;
        match (name.trim(), nums.as_slice()) {
            ("mma", &[m, n, k]) if m > 0 && n > 0 && k > 0 => Some(Layout::Mma { m, n, k }),
            ("swizzle", &[b, m, s]) if b >= 0 && m >= 0 && s >= 0 => {
                Some(Layout::Swizzle { b, m, s })
            }
            _ => None,
        }
    }

    fn text(self) -> String {
        match self {
            Layout::Mma { m, n, k } => format!("mma<{m}, {n}, {k}>"),
            Layout::Swizzle { b, m, s } => format!("swizzle<{b}, {m}, {s}>"),
        }
    }

    /// Why this layout does not fit a tile of `shape` in `space`, if it
    /// does not.
    pub fn misfit(self, shape: &[i64], space: Space) -> Option<String> {
        match self {
            Layout::Mma { m, n, .. } => {
                if space != Space::Register {
                    return Some("an mma layout is for register tiles".into());
                }
                let fits = shape.len() == 2 && shape[0] % m == 0 && shape[1] % n == 0;
                (!fits).then(|| format!("{shape:?} is not a whole number of {m}x{n} fragments"))
            }
            Layout::Swizzle { .. } => {
                (space != Space::Shared).then(|| "a swizzle is for shared tiles".into())
            }
        }
    }
}

/// Split `text` at the commas outside angle brackets.
fn top_level_parts(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[start..].trim());
    parts
}

/// The tile type `t` is, if it is one.
pub fn tile_type(u: &Uniquer, t: Type) -> Option<&TileType> {
    u.dialect_type(t)
}

impl TileType {
    /// Reads the body of `!tile.tile<16x8xf16(, shared)?(, LAYOUT)?>` (after `!`);
    /// `None` if it is not a well-formed tile type.
    fn parse(u: &Uniquer, text: &str) -> Option<TileType> {
        let body = text.strip_prefix("tile.tile<")?.strip_suffix('>')?;
        let parts = top_level_parts(body);
        let (dims, rest) = parts.split_first()?;
        let (mut space, mut layout) = (Space::Register, None);
        for (i, p) in rest.iter().enumerate() {
            match *p {
                "register" if i == 0 => space = Space::Register,
                "shared" if i == 0 => space = Space::Shared,
                _ if layout.is_none() && i + 1 == rest.len() => layout = Some(Layout::parse(p)?),
                _ => return None,
            }
        }
        // `16x8xindex`: sizes, each followed by an `x`, then the element type
        // (which may itself hold an `x`).
        let mut shape = Vec::new();
        let mut elem_text = *dims;
        while let Some((d, rest)) = elem_text.split_once('x') {
            let Ok(d) = d.parse::<i64>() else { break };
            shape.push(d);
            elem_text = rest;
        }
        if shape.is_empty() || shape.iter().any(|d| *d < 1) {
            return None;
        }
        let elem = aic::syntax::parse_type(u, &Default::default(), elem_text).ok()?;
        Some(TileType {
            shape,
            elem,
            space,
            layout,
        })
    }
}

impl DialectValue for TileType {
    fn print(&self, u: &Uniquer, out: &mut String) {
        out.push_str("tile.tile<");
        for d in &self.shape {
            let _ = write!(out, "{d}x");
        }
        aic::printer::write_type(u, self.elem, out);
        if self.space == Space::Shared {
            out.push_str(", shared");
        }
        if let Some(l) = self.layout {
            let _ = write!(out, ", {}", l.text());
        }
        out.push('>');
    }
}

/// The types and attributes of `tile` (and of `coord`, whose descriptors tile ops
/// take) as values.
pub static SYNTAX: DialectSyntax = DialectSyntax {
    dialect: "tile",
    // A malformed `!tile.tile<...>` stays opaque text for the op verifier to
    // report, naming the op that uses it.
    parse_type: Some(|u, body| Ok(TileType::parse(u, body).map(DialectObject::new))),
    parse_attr: Some(|_, body| {
        Ok(Level::parse_attr(body)
            .or_else(|| Space::parse_attr(body))
            .or_else(|| ReduceKind::parse_attr(body)))
    }),
};

/// The type of a tile of `shape` and `elem` in `space`, its layout left to
/// the backend.
pub fn plain_tile(u: &Uniquer, shape: Vec<i64>, elem: Type, space: Space) -> Type {
    make_tile(
        u,
        &TileType {
            shape,
            elem,
            space,
            layout: None,
        },
    )
}

/// The type of a tile.
pub fn make_tile(u: &Uniquer, t: &TileType) -> Type {
    u.ty(TypeKind::dialect(t.clone()))
}

/// Whether `t` is spelled as a tile type the tile parser could not read, which the
/// verifier reports as malformed.
fn malformed_tile(t: &TypeKind) -> bool {
    matches!(t, TypeKind::Opaque(s) if s.starts_with("tile.tile<"))
}

const TILE: TypeConstraint = TypeConstraint {
    desc: "tile",
    check: |t, _| t.dialect_value::<TileType>().is_some() || malformed_tile(t),
    build: None,
};

aic::dialect_enum! {
    /// The level a GEMM runs at, `#tile<level block>`.
    pub enum Level = "tile<level ", "GEMM level (block, warp, thread)" {
        /// The whole block.
        Block = "block",
        /// One warp.
        Warp = "warp",
        /// One thread.
        Thread = "thread",
    }
}

aic::dialect_enum! {
    /// How `tile.reduce` combines, `#tile<kind sum>`.
    pub enum ReduceKind = "tile<kind ", "reduction kind (sum, max, min)" {
        /// The sum.
        Sum = "sum",
        /// The maximum.
        Max = "max",
        /// The minimum.
        Min = "min",
    }
}

const DESC: AttrConstraint = AttrConstraint {
    desc: "tensor descriptor (#coord.desc<...>)",
    check: |a, _| coord::is_desc(a),
    syntax: AttrSyntax::Full,
};

const fn op(name: &'static str, summary: &'static str) -> OpSpec {
    OpSpec {
        summary,
        verify: Some(verify),
        interpret: Some(interpret),
        ..OpSpec::new(name)
    }
}

aic::op! {
    /// `tile.kernel @name grid = [..] (threads = n)? { ^bb0(buffers): ... }`:
    /// `threads`, where a kernel's tiles chose it, is the block size its
    /// lowering uses instead of the target's.
    pub Kernel = KERNEL {
        attributes: [
            sym_name: required(ac::SYMBOL_NAME),
            grid: required(I64_ARRAY),
            threads: optional(I64_ATTR),
        ],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::ISOLATED_FROM_ABOVE
                .with(Traits::SYMBOL)
                .with(Traits::SINGLE_BLOCK),
            format: Some("$sym_name `grid` `=` $grid (`threads` `=` $threads^)? $body attr-dict"),
            interpret: None,
            ..op(
                "tile.kernel",
                "a kernel over a grid of blocks, its arguments buffers",
            )
        },
    }
}

aic::op! {
    /// `tile.return`: ends a kernel's body.
    pub Return = RETURN {
        spec: OpSpec {
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &["tile.kernel"],
            format: Some("attr-dict"),
            verify: None,
            interpret: None,
            ..op("tile.return", "ends a kernel")
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
            ..op(
                "tile.launch",
                "runs a kernel on tensors: inputs, then zeroed outputs, as its buffers",
            )
        },
    }
}

aic::op! {
    /// `tile.program_id <axis> : index`.
    pub ProgramId = PROGRAM_ID {
        results: [id: one(tc::INDEX)],
        attributes: [axis: required(I64_ATTR)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$axis attr-dict `:` type($id)"),
            ..op("tile.program_id", "the block's position along a grid axis")
        },
    }
}

aic::op! {
    /// `tile.iota dim = 1 : !tile.tile<16x64xindex>`: each element's position
    /// along `dim` (Triton's `arange`), for masks and index arithmetic.
    pub Iota = IOTA {
        results: [result: one(TILE)],
        attributes: [dim: required(I64_ATTR)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("`dim` `=` $dim attr-dict `:` type($result)"),
            ..op("tile.iota", "each element's position along a dimension")
        },
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
            ..op("tile.valid", "which indices a descriptor maps in range")
        },
    }
}

aic::op! {
    /// `tile.load %buf[%origin] (through #coord.desc)? : memref -> tile`.
    pub Load = LOAD {
        operands: [buffer: one(MEMREF), origin: variadic(tc::INDEX)],
        results: [result: one(TILE)],
        attributes: [desc: optional(DESC)],
        spec: OpSpec {
            format: Some(
                "$buffer `[` $origin `]` (`through` $desc^)? attr-dict `:` type($buffer) `->` type($result)",
            ),
            ..op(
                "tile.load",
                "reads a tile from a buffer through a descriptor, masked",
            )
        },
    }
}

aic::op! {
    /// `tile.store %t, %buf[%origin] (through #coord.desc)? : tile, memref`.
    pub Store = STORE {
        operands: [value: one(TILE), buffer: one(MEMREF), origin: variadic(tc::INDEX)],
        attributes: [desc: optional(DESC)],
        spec: OpSpec {
            format: Some(
                "$value `,` $buffer `[` $origin `]` (`through` $desc^)? attr-dict `:` type($value) `,` type($buffer)",
            ),
            ..op(
                "tile.store",
                "writes a tile to a buffer through a descriptor, masked",
            )
        },
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
            ..op("tile.gemm", "acc + a x b at a block, warp or thread level")
        },
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
            ..op(
                "tile.map",
                "an elementwise function of tiles, element by element",
            )
        },
    }
}

aic::op! {
    /// `tile.reduce sum %t, axis = 1 : tile -> tile`.
    pub Reduce = REDUCE {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [kind: required(ReduceKind::CONSTRAINT) as ReduceKind, axis: required(I64_ATTR)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$kind $input `,` `axis` `=` $axis attr-dict `:` type($input) `->` type($result)"),
            ..op("tile.reduce", "reduces a tile along an axis")
        },
    }
}

aic::op! {
    /// `tile.broadcast %t, dims = [..] : T -> tile` (a scalar with `dims = []`).
    pub Broadcast = BROADCAST {
        operands: [input: one(tc::ANY)],
        results: [result: one(TILE)],
        attributes: [dims: required(I64_ARRAY)],
        spec: OpSpec {
            traits: Traits::PURE,
            format: Some("$input `,` `dims` `=` $dims attr-dict `:` type($input) `->` type($result)"),
            ..op(
                "tile.broadcast",
                "a tile or scalar broadcast to a larger tile",
            )
        },
    }
}

aic::op! {
    /// `tile.transfer %t to shared depth = 2 : tile -> tile`.
    pub Transfer = TRANSFER {
        operands: [input: one(TILE)],
        results: [result: one(TILE)],
        attributes: [space: required(Space::CONSTRAINT) as Space, depth: required(I64_ATTR)],
        spec: OpSpec {
            format: Some(
                "$input `to` $space `depth` `=` $depth attr-dict `:` type($input) `->` type($result)",
            ),
            ..op(
                "tile.transfer",
                "stages a tile into another space, pipelined `depth` deep",
            )
        },
    }
}

aic::op! {
    /// `tile.for %lb to %ub step %s (iter_args(%init))? : types { ^bb0(%iv, iters): ... }`.
    pub For = FOR {
        operands: [
            lower: one(tc::INDEX),
            upper: one(tc::INDEX),
            step: one(tc::INDEX),
            inits: variadic(tc::ANY),
        ],
        results: [results: variadic(tc::ANY)],
        regions: [body: sized],
        spec: OpSpec {
            traits: Traits::SINGLE_BLOCK,
            format: Some(
                "$lower `to` $upper `step` $step (`iter_args` `(` $inits^ `:` type($inits) `)` `->` type($results))? $body attr-dict",
            ),
            ..op("tile.for", "a loop carrying values (the K loop)")
        },
    }
}

aic::op! {
    /// `tile.yield`: the values a map element or loop iteration gives.
    pub Yield = YIELD {
        operands: [values: variadic(tc::ANY)],
        spec: OpSpec {
            traits: Traits::PURE
                .with(Traits::TERMINATOR)
                .with(Traits::RETURN_LIKE),
            parents: &["tile.map", "tile.for"],
            format: Some("($values^ `:` type($values))? attr-dict"),
            verify: None,
            interpret: None,
            ..op(
                "tile.yield",
                "yields from a map element or a loop iteration",
            )
        },
    }
}

/// The dialect.
pub static DIALECT: Dialect = Dialect {
    name: "tile",
    description: "tile kernels over a grid: loads and stores through descriptors, GEMM, map, reduce",
    ops: &[
        KERNEL, RETURN, LAUNCH, PROGRAM_ID, IOTA, VALID, LOAD, STORE, GEMM, MAP, REDUCE, BROADCAST,
        TRANSFER, FOR, YIELD,
    ],
    materialize_constant: None,
};

// ---- verification ----------------------------------------------------------

fn word<T: aic::op_def::FromAttr>(ctx: &Context, op: Op, name: &str) -> Option<T> {
    let a = ctx
        .find_ident(name)
        .and_then(|i| ctx.inherent_attr(op, i))?;
    T::from_attr(ctx, a)
}

fn tile_of(ctx: &Context, v: Value) -> Option<&TileType> {
    tile_type(ctx.uniquer(), ctx.value_type(v))
}

/// The descriptor of a load or store: the one written, or row-major over
/// the buffer.
fn desc_of(ctx: &Context, op: Op, buffer: Value) -> Result<Desc, String> {
    written_desc(ctx, op).unwrap_or_else(|| {
        ctx.type_kind(ctx.value_type(buffer))
            .shape()
            .map(Desc::row_major)
            .ok_or_else(|| "the buffer has no shape".to_string())
    })
}

/// The descriptor written on `op`, if one is.
fn written_desc(ctx: &Context, op: Op) -> Option<Result<Desc, String>> {
    let a = ctx
        .find_ident("desc")
        .and_then(|i| ctx.inherent_attr(op, i))?;
    Some(coord::desc_of(ctx.uniquer(), a).cloned())
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

fn verify(ctx: &Context, op: Op) -> Result<(), Diagnostic> {
    let err = |m: String| op_error(ctx, op, m);
    let name = ctx.op_name(op);
    if name != "tile.kernel" && name != "tile.launch" && enclosing(ctx, op, "tile.kernel").is_none()
    {
        return Err(err("must be inside a tile.kernel".into()));
    }
    let operands = ctx.operands(op);
    for v in ctx.results(op).chain(operands.iter().copied()) {
        let ty = ctx.value_type(v);
        if malformed_tile(ctx.type_kind(ty)) {
            return Err(err(
                "malformed tile type: expected !tile.tile<SHAPExELEM(, shared)?(, LAYOUT)?>".into(),
            ));
        }
        let Some(t) = tile_type(ctx.uniquer(), ty) else {
            continue;
        };
        if let Some(why) = t.layout.and_then(|l| l.misfit(&t.shape, t.space)) {
            return Err(err(format!("bad layout: {why}")));
        }
    }
    let result_tile = || ctx.results(op).next().and_then(|r| tile_of(ctx, r));
    match name {
        "tile.kernel" => {
            let grid = i64_array_attr(ctx, op, "grid").unwrap_or_default();
            if grid.is_empty() || grid.len() > 3 || grid.iter().any(|g| *g < 1) {
                return Err(err(format!(
                    "grid {grid:?} must have 1 to 3 positive sizes"
                )));
            }
            if let Some(t) = int_attr(ctx, op, "threads")
                && t < 1
            {
                return Err(err(format!("threads {t} must be positive")));
            }
            let b = ctx.regions(op).first().and_then(|r| ctx.entry_block(*r));
            if let Some(b) = b
                && ctx
                    .block_args(b)
                    .iter()
                    .any(|a| !matches!(ctx.type_kind(ctx.value_type(*a)), TypeKind::MemRef { .. }))
            {
                return Err(err("arguments must be memref buffers".into()));
            }
        }
        "tile.program_id" => {
            let axis = int_attr(ctx, op, "axis").unwrap_or(-1);
            if !(0..3).contains(&axis) {
                return Err(err(format!("axis {axis} must be 0, 1 or 2")));
            }
        }
        "tile.iota" => {
            let r = result_tile().ok_or_else(|| err("result must be a tile".into()))?;
            let dim = int_attr(ctx, op, "dim").unwrap_or(-1);
            if !(0..r.shape.len() as i64).contains(&dim) {
                return Err(err(format!(
                    "dim {dim} out of range for a tile of rank {}",
                    r.shape.len()
                )));
            }
            if !matches!(
                ctx.type_kind(r.elem),
                TypeKind::Index | TypeKind::Integer { .. }
            ) {
                return Err(err("an iota's elements are indices or integers".into()));
            }
        }
        "tile.valid" => {
            let r = result_tile().ok_or_else(|| err("result must be a tile".into()))?;
            let d = written_desc(ctx, op)
                .ok_or_else(|| err("needs a descriptor".into()))?
                .map_err(|e| err(format!("bad descriptor: {e}")))?;
            d.lower().map_err(|e| err(format!("bad descriptor: {e}")))?;
            if let Some(why) = misplaced(&d, operands.len(), r.shape.len()) {
                return Err(err(why));
            }
            if !matches!(ctx.type_kind(r.elem), TypeKind::Integer { width: 1, .. }) {
                return Err(err("a validity tile has i1 elements".into()));
            }
        }
        "tile.load" | "tile.store" => {
            let (buffer, tile, origin) = if name == "tile.load" {
                (operands[0], result_tile(), &operands[1..])
            } else {
                (operands[1], tile_of(ctx, operands[0]), &operands[2..])
            };
            let tile = tile.ok_or_else(|| err("expected a tile type".into()))?;
            let d = desc_of(ctx, op, buffer).map_err(|e| err(format!("bad descriptor: {e}")))?;
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
        }
        "tile.gemm" => {
            let (a, b, acc) = (
                tile_of(ctx, operands[0]),
                tile_of(ctx, operands[1]),
                tile_of(ctx, operands[2]),
            );
            let (Some(a), Some(b), Some(acc), Some(r)) = (a, b, acc, result_tile()) else {
                return Err(err("operands and result must be tiles".into()));
            };
            let ok = a.shape.len() == 2
                && b.shape.len() == 2
                && a.shape[1] == b.shape[0]
                && acc.shape == [a.shape[0], b.shape[1]];
            if !ok {
                return Err(err(format!(
                    "shapes {:?} x {:?} + {:?} do not form a matrix product",
                    a.shape, b.shape, acc.shape
                )));
            }
            if r != acc || acc.space != Space::Register {
                return Err(err(
                    "the accumulator and result must be the same register tile".into(),
                ));
            }
        }
        "tile.map" => {
            let r = result_tile().ok_or_else(|| err("result must be a tile".into()))?;
            let b = ctx.regions(op).first().and_then(|x| ctx.entry_block(*x));
            let args = b.map(|b| ctx.block_args(b).to_vec()).unwrap_or_default();
            if args.len() != operands.len() {
                return Err(err(format!(
                    "{} inputs but the body takes {} elements",
                    operands.len(),
                    args.len()
                )));
            }
            for (v, a) in operands.iter().zip(&args) {
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
        }
        "tile.reduce" => {
            let (Some(t), Some(r)) = (tile_of(ctx, operands[0]), result_tile()) else {
                return Err(err("operand and result must be tiles".into()));
            };
            let axis = int_attr(ctx, op, "axis").unwrap_or(-1);
            let mut want = t.shape.clone();
            if !(0..want.len() as i64).contains(&axis) || want.len() < 2 {
                return Err(err(format!(
                    "axis {axis} out of range for a tile of rank {}",
                    t.shape.len()
                )));
            }
            want.remove(axis as usize);
            if r.shape != want || r.elem != t.elem {
                return Err(err(format!(
                    "reducing {:?} along {axis} gives {want:?}",
                    t.shape
                )));
            }
        }
        "tile.broadcast" => {
            let r = result_tile().ok_or_else(|| err("result must be a tile".into()))?;
            let (shape, elem) = match tile_of(ctx, operands[0]) {
                Some(t) => (t.shape.clone(), t.elem),
                None => (Vec::new(), ctx.value_type(operands[0])),
            };
            let dims = i64_array_attr(ctx, op, "dims").unwrap_or_default();
            let ok = dims.len() == shape.len()
                && dims.iter().zip(&shape).all(|(d, l)| {
                    usize::try_from(*d)
                        .ok()
                        .and_then(|d| r.shape.get(d))
                        .is_some_and(|rl| rl == l || *l == 1)
                });
            if !ok || elem != r.elem {
                return Err(err(format!(
                    "cannot broadcast {shape:?} to {:?} along {dims:?}",
                    r.shape
                )));
            }
        }
        "tile.transfer" => {
            let (Some(t), Some(r)) = (tile_of(ctx, operands[0]), result_tile()) else {
                return Err(err("operand and result must be tiles".into()));
            };
            let space = word(ctx, op, "space").unwrap_or(Space::Register);
            if t.shape != r.shape || t.elem != r.elem || r.space != space {
                return Err(err(
                    "the result must be the same tile in the named space".into()
                ));
            }
            if int_attr(ctx, op, "depth").unwrap_or(0) < 1 {
                return Err(err("depth must be at least 1".into()));
            }
        }
        "tile.for" => {
            let b = ctx.regions(op).first().and_then(|x| ctx.entry_block(*x));
            let args = b.map(|b| ctx.block_args(b).to_vec()).unwrap_or_default();
            let inits = &operands[3..];
            if args.len() != inits.len() + 1 || ctx.results(op).count() != inits.len() {
                return Err(err(
                    "the body takes the induction variable and one value per result".into(),
                ));
            }
        }
        "tile.launch" => verify_launch(ctx, op, "tile.kernel", false)?,
        _ => {}
    }
    Ok(())
}

// ---- interpretation ----------------------------------------------------------

fn index_of(shape: &[i64], idx: &[i64]) -> usize {
    row_major_offset(shape, idx) as usize
}

/// Where each element of a tile of `shape` at `origin` is under `d`, in
/// row-major order: its offset and whether it is valid. A tile of lower rank
/// covers the trailing dims.
fn locate_tile(d: &Desc, origin: &[i64], shape: &[i64]) -> Result<Vec<(i64, bool)>, String> {
    let lead = origin.len() - shape.len();
    row_major_indices(shape)
        .iter()
        .map(|e| {
            let mut at = origin.to_vec();
            for (a, i) in at[lead..].iter_mut().zip(e) {
                *a += i;
            }
            d.locate(&at)
        })
        .collect()
}

fn tile_value(ty: Type, shape: Vec<i64>, data: Data) -> Tensor {
    Tensor { ty, shape, data }
}

/// `values` stored as integers of `elem`.
fn ints_as(u: &Uniquer, elem: Type, values: impl IntoIterator<Item = i64>) -> Data {
    Data::from_i64s(Elem::of(u, elem).unwrap_or(Elem::Index), values)
}

fn interpret(it: &mut Interp<'_>, op: Op, args: &[Tensor]) -> IResult<Vec<Tensor>> {
    let ctx = it.ctx;
    let u = ctx.uniquer().clone();
    let fail = |m: String| InterpError::at(op, m);
    let result_ty = || ctx.results(op).next().map(|r| ctx.value_type(r));
    let idx = |t: &Tensor| t.first_int();
    match ctx.op_name(op) {
        "tile.program_id" => {
            let axis = int_attr(ctx, op, "axis").unwrap_or(0) as usize;
            let p = PROGRAM.with(Cell::get)[axis.min(2)];
            Ok(vec![Tensor::int_scalar(&u, u.ty(TypeKind::Index), p)])
        }
        "tile.iota" => {
            let ty = result_ty().expect("a result");
            let t = tile_type(&u, ty).ok_or_else(|| fail("not a tile".into()))?;
            let dim = int_attr(ctx, op, "dim").unwrap_or(0) as usize;
            let out = row_major_indices(&t.shape).into_iter().map(|e| e[dim]);
            let data = ints_as(&u, t.elem, out);
            Ok(vec![tile_value(ty, t.shape.clone(), data)])
        }
        "tile.valid" => {
            let ty = result_ty().expect("a result");
            let t = tile_type(&u, ty).ok_or_else(|| fail("not a tile".into()))?;
            let d = written_desc(ctx, op)
                .ok_or_else(|| fail("no descriptor".into()))?
                .map_err(fail)?;
            let origin: Vec<i64> = args.iter().map(idx).collect();
            let out = locate_tile(&d, &origin, &t.shape)
                .map_err(fail)?
                .into_iter()
                .map(|(_, ok)| i64::from(ok));
            let data = ints_as(&u, t.elem, out);
            Ok(vec![tile_value(ty, t.shape.clone(), data)])
        }
        "tile.load" => {
            let ty = result_ty().expect("a result");
            let t = tile_type(&u, ty).ok_or_else(|| fail("not a tile".into()))?;
            let d = desc_of(ctx, op, ctx.operands(op)[0]).map_err(fail)?;
            let origin: Vec<i64> = args[1..].iter().map(idx).collect();
            let buf = it
                .value_ref(ctx.operands(op)[0])
                .ok_or_else(|| fail("a buffer that was not computed".into()))?;
            let out = locate_tile(&d, &origin, &t.shape)
                .map_err(fail)?
                .into_iter()
                .map(|(off, ok)| {
                    if ok {
                        get(&buf.data, off as usize)
                    } else {
                        0.0
                    }
                })
                .collect::<Vec<f64>>();
            Ok(vec![tile_value(
                ty,
                t.shape.clone(),
                store_as(&u, t.elem, out),
            )])
        }
        "tile.store" => {
            let buffer = ctx.operands(op)[1];
            let t = tile_of(ctx, ctx.operands(op)[0]).ok_or_else(|| fail("not a tile".into()))?;
            let d = desc_of(ctx, op, buffer).map_err(fail)?;
            let origin: Vec<i64> = args[2..].iter().map(idx).collect();
            let places = locate_tile(&d, &origin, &t.shape).map_err(fail)?;
            let buf = it
                .value_mut(buffer)
                .ok_or_else(|| fail("a buffer that was not computed".into()))?;
            let e = Elem::of(&u, ctx.type_kind(buf.ty).element_type().unwrap_or(t.elem));
            for (k, (off, ok)) in places.into_iter().enumerate() {
                if !ok {
                    continue;
                }
                let x = get(&args[0].data, k);
                match (&mut buf.data, e) {
                    (Data::Float(v), Some(_)) => v.set(off as usize, x),
                    (Data::Int(v), Some(e)) => v.set(off as usize, e.wrap(x as i128)),
                    _ => return Err(fail("unsupported element type".into())),
                }
            }
            Ok(Vec::new())
        }
        "tile.gemm" => {
            let (a, b, acc) = (&args[0], &args[1], &args[2]);
            let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
            let elem = tile_of(ctx, ctx.operands(op)[2]).expect("verified").elem;
            let mut out = Vec::with_capacity((m * n) as usize);
            for i in 0..m {
                for j in 0..n {
                    let mut s = get(&acc.data, (i * n + j) as usize);
                    for t in 0..k {
                        s +=
                            get(&a.data, (i * k + t) as usize) * get(&b.data, (t * n + j) as usize);
                    }
                    out.push(s);
                }
            }
            Ok(vec![tile_value(
                acc.ty,
                acc.shape.clone(),
                store_as(&u, elem, out),
            )])
        }
        "tile.map" => {
            let ty = result_ty().expect("a result");
            let t = tile_type(&u, ty).ok_or_else(|| fail("not a tile".into()))?;
            let region = ctx.regions(op)[0];
            let b = ctx
                .entry_block(region)
                .ok_or_else(|| fail("no body".into()))?;
            let arg_types: Vec<Type> = ctx
                .block_args(b)
                .iter()
                .map(|a| ctx.value_type(*a))
                .collect();
            let n = t.shape.iter().product::<i64>() as usize;
            let mut out = Vec::with_capacity(n);
            for e in 0..n {
                let scalars = args
                    .iter()
                    .zip(&arg_types)
                    .map(|(a, ty)| {
                        let v = get(&a.data, e);
                        Tensor::new(&u, *ty, store_as(&u, *ty, vec![v]))
                    })
                    .collect();
                let r = it.run_region(region, scalars)?;
                out.push(r.first().map_or(0.0, |x| get(&x.data, 0)));
            }
            Ok(vec![tile_value(
                ty,
                t.shape.clone(),
                store_as(&u, t.elem, out),
            )])
        }
        "tile.reduce" => {
            let ty = result_ty().expect("a result");
            let t = tile_type(&u, ty).ok_or_else(|| fail("not a tile".into()))?;
            let axis = int_attr(ctx, op, "axis").unwrap_or(0) as usize;
            let kind = word(ctx, op, "kind").unwrap_or(ReduceKind::Sum);
            let x = &args[0];
            let mut out = Vec::new();
            for e in row_major_indices(&t.shape) {
                let mut acc: Option<f64> = None;
                for j in 0..x.shape[axis] {
                    let mut at = e.clone();
                    at.insert(axis, j);
                    let v = get(&x.data, index_of(&x.shape, &at));
                    acc = Some(match (acc, kind) {
                        (None, _) => v,
                        (Some(a), ReduceKind::Max) => a.max(v),
                        (Some(a), ReduceKind::Min) => a.min(v),
                        (Some(a), _) => a + v,
                    });
                }
                out.push(acc.unwrap_or(0.0));
            }
            Ok(vec![tile_value(
                ty,
                t.shape.clone(),
                store_as(&u, t.elem, out),
            )])
        }
        "tile.broadcast" => {
            let ty = result_ty().expect("a result");
            let t = tile_type(&u, ty).ok_or_else(|| fail("not a tile".into()))?;
            let dims: Vec<usize> = i64_array_attr(ctx, op, "dims")
                .unwrap_or_default()
                .iter()
                .map(|d| *d as usize)
                .collect();
            let x = &args[0];
            let out = row_major_indices(&t.shape)
                .iter()
                .map(|e| {
                    let at: Vec<i64> = dims
                        .iter()
                        .zip(&x.shape)
                        .map(|(d, l)| if *l == 1 { 0 } else { e[*d] })
                        .collect();
                    get(&x.data, index_of(&x.shape, &at))
                })
                .collect::<Vec<f64>>();
            Ok(vec![tile_value(
                ty,
                t.shape.clone(),
                store_as(&u, t.elem, out),
            )])
        }
        "tile.transfer" => {
            let ty = result_ty().expect("a result");
            Ok(vec![Tensor {
                ty,
                ..args[0].clone()
            }])
        }
        "tile.for" => {
            let (lb, ub, step) = (idx(&args[0]), idx(&args[1]), idx(&args[2]));
            if step < 1 {
                return Err(fail(format!("step {step} must be positive")));
            }
            let region = ctx.regions(op)[0];
            let mut carried: Vec<Tensor> = args[3..].to_vec();
            let mut iv = lb;
            while iv < ub {
                let mut a = vec![Tensor::int_scalar(&u, u.ty(TypeKind::Index), iv)];
                a.extend(carried);
                carried = it.run_region(region, a)?;
                iv += step;
            }
            Ok(carried)
        }
        "tile.launch" => {
            let k = kernel_of(ctx, op, "tile.kernel")
                .ok_or_else(|| fail("names no tile.kernel".into()))?;
            run_grid(it, op, k, args)
        }
        other => Err(fail(format!("no semantics for {other}"))),
    }
}
