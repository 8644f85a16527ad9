//! `tile.gemm` on NVIDIA tensor cores (`tile-to-gpu{mma=true}`): warps run
//! `nvgpu.mma.sync` of shape m16n8k16 on fragments `nvgpu.ldmatrix` loads
//! from shared memory. AMD's MFMA (`mma=amdgpu`, see [`super::mfma`])
//! shares the plan, the warp grid and everything done to accumulators
//! here; only the instruction's [`Unit`] (its tile and lane layout) and
//! the gemm itself differ.
//!
//! Which gemms: f16 x f16 -> f32 or bf16 x bf16 -> f32 (mma.sync's .bf16
//! form, the same fragment layouts; MFMA f16 only) with M, N, K multiples
//! of 16, 8 and 16, in
//! a block of whole warps that tile the accumulator (a grid of `wm x wn`
//! warps, each owning a `M/wm x N/wn` block of `mt x nt` mma tiles). Any
//! other gemm keeps the SIMT loops.
//!
//! The accumulator lives in the mma fragment layout (a [`Frag`]): lane `l`
//! of warp `(wy, wx)` holds, in slot `(mi·nt + ni)·4 + c` of its private
//! array, element `(wy·M/wm + 16·mi + l/4 + 8·(c/2), wx·N/wn + 8·ni +
//! 2·(l%4) + c%2)`. It keeps that layout across a `tile.for` that yields
//! the gemm's result; maps run on it, reductions along N leave row vectors
//! in registers and a gemm reads it as A from registers ([`rows`]); any
//! other op on it reads it in the blocked layout, converted through shared
//! memory ([`Lower::materialize`]).
//!
//! A (MxK) and B (KxN) are read from shared memory row-major: A by
//! `ldmatrix.x4` (one 16x16 tile), B by `ldmatrix.x4.trans` (16x16, two n8
//! tiles) or `.x2.trans`. A `tile.transfer` that only such gemms read
//! stores its rows 8 halves (16 bytes) apart more than their length, so
//! that the eight rows of an 8x8 matrix fall in distinct banks: its type
//! says so, `padded<N + 8>` (decided by [`plan_shared`] for
//! [`super::shared_layout`], which also writes which K loops are
//! pipelined, `stages = n`).

use super::{L, Lower, err, int_attr, warp_rows};
use aic::Diagnostic;
use aic::attributes::AttrKind;
use aic::float::FloatKind;
use aic::ir::{Block, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::arith;
use aic_dialects::arith::build as ab;
use aic_dialects::coord::{Desc, Transform};
use aic_dialects::memref::build as mb;
use aic_dialects::nvgpu;
use aic_dialects::tile::{self, Layout, Space, TileOp, TileType};
use aic_dialects::vector;
use std::collections::HashMap;

mod pipeline;
mod plan;
mod rows;
mod s8;
mod sp;

pub(super) use s8::{mma_depth, s8_gemm_shape};
pub(super) use sp::sparse_gemm_shape;

/// Halves added to a row of a shared tile that ldmatrix reads.
const PAD: i64 = 8;

/// Which gemms `tile-to-gpu` runs on matrix units, and on which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// None: every gemm keeps the SIMT loops.
    Off,
    /// NVIDIA tensor cores (`nvgpu.mma.sync`).
    Nvgpu,
    /// AMD matrix cores (`amdgpu.mfma`).
    Amdgpu,
    /// Hopper's warpgroup MMA (`nvgpu.warpgroup.mma`, sm_90a) for the
    /// gemms of pipelined loops that qualify ([`super::wgmma`]), NVIDIA
    /// tensor cores' mma.sync for the others.
    Wgmma,
}

impl Kind {
    /// The kind an `mma` option names.
    pub(super) fn parse(option: &str) -> Kind {
        match option {
            "true" | "nvgpu" => Kind::Nvgpu,
            "amdgpu" => Kind::Amdgpu,
            "wgmma" => Kind::Wgmma,
            _ => Kind::Off,
        }
    }
}

/// The matrix instruction of a warp's tiles, and so its accumulator layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unit {
    /// `mma.sync` m16n8k16 (32 lanes): lane `l` holds element `c` of an
    /// m16n8 tile at `(l/4 + 8·(c/2), 2·(l%4) + c%2)`.
    MmaSync,
    /// `mfma` TxTx(256/T) (64 lanes): lane `l` holds element `c` of a TxT
    /// tile at `(4·(l/T) + 8·(c/4) + c%4, l%T)`.
    Mfma(i64),
    /// `mma.sp` m16n8k32 with its operands swapped (32 lanes,
    /// [`sp`]): the 2:4-sparse weight is the instruction's A, so it
    /// computes the accumulator transposed and lane `l` holds element `c`
    /// of an m8n16 tile at `(2·(l%4) + c%2, l/4 + 8·(c/2))`.
    SparseT,
}

impl Unit {
    /// Lanes of a warp (wavefront).
    pub(super) fn lanes(self) -> i64 {
        match self {
            Unit::MmaSync | Unit::SparseT => 32,
            Unit::Mfma(_) => aic_dialects::amdgpu::WAVEFRONT,
        }
    }

    /// Rows and columns of one instruction's accumulator tile.
    pub(super) fn tile(self) -> (i64, i64) {
        match self {
            Unit::MmaSync => (16, 8),
            Unit::Mfma(t) => (t, t),
            Unit::SparseT => (8, 16),
        }
    }

    /// Accumulator elements a lane holds per tile.
    fn per_tile(self) -> i64 {
        let (m, n) = self.tile();
        m * n / self.lanes()
    }

    /// Where within a tile element `c` of a lane lies from its element 0.
    fn element_at(self, c: i64) -> (i64, i64) {
        match self {
            Unit::MmaSync => (8 * (c / 2), c % 2),
            Unit::Mfma(_) => (8 * (c / 4) + c % 4, 0),
            Unit::SparseT => (c % 2, 8 * (c / 2)),
        }
    }
}

/// How a gemm's accumulator spreads over warps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Warps {
    /// Warps along M and along N.
    pub(super) wm: i64,
    pub(super) wn: i64,
    /// Instruction tiles per warp along M and along N.
    pub(super) mt: i64,
    pub(super) nt: i64,
    /// The instruction.
    pub(super) unit: Unit,
}

impl Warps {
    /// The warp grid for an `m x n` accumulator and `warps` warps of
    /// `unit`: the one whose per-warp block is squarest (fewest fragment
    /// loads).
    pub(super) fn choose(m: i64, n: i64, warps: i64, unit: Unit) -> Option<Warps> {
        let (tm, tn) = unit.tile();
        (1..=warps)
            .filter(|wm| warps % wm == 0)
            .map(|wm| (wm, warps / wm))
            .filter(|(wm, wn)| m % (tm * wm) == 0 && n % (tn * wn) == 0)
            .map(|(wm, wn)| Warps {
                wm,
                wn,
                mt: m / tm / wm,
                nt: n / tn / wn,
                unit,
            })
            .min_by_key(|w| (w.mt * tm - w.nt * tn).abs())
    }

    /// Accumulator elements each lane holds.
    pub(super) fn slots(&self) -> i64 {
        self.mt * self.nt * self.unit.per_tile()
    }
}

/// What tensor cores run in a kernel and the epilogue kept on their
/// fragments, planned before lowering it.
#[derive(Default)]
pub(super) struct Plan {
    /// Gemms lowered to mma.sync and their warp grids.
    gemms: HashMap<Op, Warps>,
    /// Maps computed on fragments (an accumulator's layout `Warps`), their
    /// results fragments too: every tile operand a fragment of the same
    /// layout or a value computed per element ([`Plan::deferred`] or not).
    epilogue: HashMap<Op, Warps>,
    /// Stores of fragments, each lane writing its elements directly.
    frag_stores: std::collections::HashSet<Op>,
    /// Pointwise ops (loads, valids, iotas, scalar broadcasts, maps of those) that
    /// only fragment maps read: computed per fragment element where read,
    /// not lowered in the blocked layout.
    deferred: std::collections::HashSet<Op>,
    /// Row vectors of fragments and gemms reading A from registers.
    rows: rows::Rows,
    /// Gemms on Hopper's warpgroup MMA ([`super::wgmma`]).
    wgmma: std::collections::HashSet<Op>,
}

/// A `tile.for` whose loads of gemm operands run ahead of its gemms: a ring
/// of `depth` shared buffers per transfer, filled by asynchronous 16-byte
/// copies `depth - 1` iterations before the gemm reads them.
#[derive(Clone)]
pub(super) struct Pipe {
    pub(super) depth: i64,
    /// Iterations, and the loop's constant bounds (`n` is 0 where the
    /// upper bound is `upper`, known at run time only).
    pub(super) n: i64,
    pub(super) lb: i64,
    pub(super) step: i64,
    /// The loop's upper bound where it is not a constant (an attention
    /// loop that skips causally masked key blocks), and its lower bound
    /// where that is not (the masked loop after the unmasked one; `lb` is
    /// then 0).
    pub(super) upper: Option<Value>,
    pub(super) lower: Option<Value>,
    pub(super) copies: Vec<Copy>,
}

impl Pipe {
    /// The index of the copy whose transfer's tile is `v`, if `v` is staged
    /// through this pipeline.
    pub(super) fn copy_of(&self, ctx: &Context, v: Value) -> Option<usize> {
        self.copies
            .iter()
            .position(|c| ctx.result(c.transfer, 0) == v)
    }
}

/// One transfer of a pipelined loop and the load it copies.
#[derive(Clone)]
pub(super) struct Copy {
    pub(super) load: Op,
    pub(super) transfer: Op,
    /// Memory is contiguous along the tile's rows (dim 0), so the shared
    /// tile is stored transposed (column after column), each copy a run of
    /// 8 rows of one column.
    pub(super) trans: bool,
    pub(super) desc: Desc,
    /// Elements of one 16-byte copy: [`CHUNK`] of f16 or bf16, 16 of a
    /// byte type.
    pub(super) chunk: i64,
}

/// A shared tile ldmatrix reads: its view, row length (of the stored
/// layout), first element in the view (`None`: 0) and whether it is stored
/// transposed (column after column).
#[derive(Clone, Copy)]
pub(super) struct Padded {
    pub(super) view: Value,
    pub(super) stride: i64,
    pub(super) base: Option<Value>,
    pub(super) trans: bool,
}

impl Padded {
    /// How far the element at (`row`, `col`) of the tile lies from its
    /// element (0, 0) in the view.
    pub(super) fn offset(&self, row: i64, col: i64) -> i64 {
        if self.trans {
            col * self.stride + row
        } else {
            row * self.stride + col
        }
    }
}

/// What a lane loads a tensor-core gemm's fragments with
/// ([`Lower::mma_operands`]).
pub(super) struct MmaOperands {
    w: Warps,
    /// The shared views of A (none when A comes from registers) and B.
    views: (Option<Value>, Value),
    /// B's row length as stored.
    sb: i64,
    /// Whether B's fragments are read by ldmatrix.trans (B stored K x N).
    b_trans: bool,
    /// This lane's ldmatrix address in A per m16 tile, in B per pair of n8
    /// tiles, at k = 0.
    a_base: Vec<Value>,
    b_base: Vec<Value>,
    /// The fragment types: A's, B's, two B fragments', the accumulator's.
    types: [Type; 4],
    /// A's and B's element type (f16 or bf16).
    f16: Type,
    f32: Type,
}

/// An accumulator in the fragment layout.
#[derive(Clone)]
pub(super) struct Frag {
    /// The lane's private array of its elements.
    arr: Value,
    w: Warps,
    t: TileType,
    /// Where it was made (its blocked copy is kept for ops in this block only).
    block: Block,
}

impl Frag {
    /// The lane's private array.
    pub(super) fn arr(&self) -> Value {
        self.arr
    }

    /// The same fragments kept in array `arr` (a copy's).
    pub(super) fn in_array(&self, arr: Value) -> Frag {
        Frag {
            arr,
            ..self.clone()
        }
    }

    /// The fragments' layout and tile.
    pub(super) fn layout(&self) -> (Warps, &TileType) {
        (self.w, &self.t)
    }
}

fn is_float(ctx: &Context, t: Type, k: FloatKind) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Float(f) if *f == k)
}

pub(super) fn tile_type(ctx: &Context, v: Value) -> Option<TileType> {
    tile::tile_type(ctx.uniquer(), ctx.value_type(v)).cloned()
}

/// The warp grid of `gemm` if tensor cores can run it in blocks of `threads`.
fn mma_warps(ctx: &Context, gemm: Op, threads: i64, kind: Kind) -> Option<Warps> {
    if kind == Kind::Amdgpu {
        return super::mfma::mfma_warps(ctx, gemm, threads);
    }
    // Wgmma starts from mma.sync's choice ([`super::wgmma::adopt`]).
    if threads % 32 != 0 {
        return None;
    }
    if tile::SparseGemm::is(ctx, gemm) {
        return sp::sparse_warps(ctx, gemm, threads);
    }
    let (m, k, n) = half_gemm_shape(ctx, gemm)
        .map(|(m, k, n, _)| (m, k, n))
        .or_else(|| s8_gemm_shape(ctx, gemm))?;
    if m % 16 != 0 || n % 8 != 0 || k % mma_depth(ctx, gemm) != 0 {
        return None;
    }
    let w = Warps::choose(m, n, threads / 32, Unit::MmaSync)?;
    // Fragments beyond a few hundred registers a lane would spill.
    (w.slots() <= 128).then_some(w)
}

/// `(M, K, N)` of a 2-D `tile.gemm` of f16 A (M x K) and B (K x N) into an
/// f32 accumulator, the gemms AMD's matrix units run.
pub(super) fn f16_gemm_shape(ctx: &Context, gemm: Op) -> Option<(i64, i64, i64)> {
    let (m, k, n, half) = half_gemm_shape(ctx, gemm)?;
    (half == FloatKind::F16).then_some((m, k, n))
}

/// `(M, K, N)` and the element type of a 2-D `tile.gemm` of A (M x K) and
/// B (K x N) both f16 or both bf16 into an f32 accumulator, the gemms
/// NVIDIA's tensor cores run.
pub(super) fn half_gemm_shape(ctx: &Context, gemm: Op) -> Option<(i64, i64, i64, FloatKind)> {
    let g = tile::Gemm::of(ctx, gemm)?;
    let (a, b, c) = (
        tile_type(ctx, g.a(ctx))?,
        tile_type(ctx, g.b(ctx))?,
        tile_type(ctx, g.acc(ctx))?,
    );
    let r = tile_type(ctx, g.result(ctx))?;
    let half = half_kind(ctx, a.elem)?;
    let f32 = |t: &TileType| is_float(ctx, t.elem, FloatKind::F32) && t.shape.len() == 2;
    if !(a.shape.len() == 2 && b.shape.len() == 2 && b.elem == a.elem && f32(&c) && f32(&r)) {
        return None;
    }
    let (m, k, n) = (a.shape[0], a.shape[1], b.shape[1]);
    (b.shape[0] == k && c.shape == [m, n] && r.shape == [m, n]).then_some((m, k, n, half))
}

/// The kind of `t` if it is a 16-bit float tensor cores multiply (f16 or
/// bf16).
pub(super) fn half_kind(ctx: &Context, t: Type) -> Option<FloatKind> {
    match ctx.type_kind(t) {
        TypeKind::Float(f @ (FloatKind::F16 | FloatKind::BF16)) => Some(*f),
        _ => None,
    }
}

pub(super) use plan::{
    CHUNK, Shared, acc_operand, byte_pipe, chunk_of, column_contiguous, const_int, contiguous_dim,
    decide, is_gemm, load_desc, operands_read, pipeline, plan, plan_shared, takes_runs,
};

/// The layout of an accumulator in the fragments of `w`: wgmma's (of N
/// `n`) where `wgmma`, else the instruction's (mma.sync's of depth
/// `depth`: 16, or 32 for i8) with the warp grid.
pub(super) fn layout_of(w: Warps, wgmma: bool, n: i64, depth: i64) -> Layout {
    let (m, fn_) = w.unit.tile();
    let k = match w.unit {
        Unit::MmaSync => depth,
        Unit::Mfma(t) => 256 / t,
        Unit::SparseT => sp::DEPTH,
    };
    if wgmma {
        Layout::Wgmma { n }
    } else {
        Layout::Mma {
            m,
            n: fn_,
            k,
            wm: w.wm,
            wn: w.wn,
        }
    }
}

/// The warp grid of `gemm`, on matrix units of `kind` in blocks of
/// `threads`, as its result type's layout says (and whether it is
/// wgmma's), `None` where it carries no matrix layout; an error where the
/// layout does not fit the gemm, the block or the matrix units.
pub(super) fn typed_warps(
    ctx: &Context,
    gemm: Op,
    threads: i64,
    kind: Kind,
) -> Result<Option<(Warps, bool)>, Diagnostic> {
    let Some(t) = tile_type(ctx, ctx.result(gemm, 0)) else {
        return Ok(None);
    };
    let Some(l @ (Layout::Mma { .. } | Layout::Wgmma { .. })) = t.layout else {
        return Ok(None);
    };
    let (rows, cols) = (t.shape[0], t.shape.get(1).copied().unwrap_or(0));
    let nvidia = matches!(kind, Kind::Nvgpu | Kind::Wgmma);
    let found = match l {
        // mma.sync m16n8: k16 for f16/bf16, k32 for byte elements; mma.sp
        // with the sparse weight as its A: m8n16 of the tile, k32.
        Layout::Mma { m, n, k, wm, wn } if nvidia && wm * wn * 32 == threads => {
            let unit = match (m, n, k) {
                (16, 8, 16) if half_gemm_shape(ctx, gemm).is_some() => Some(Unit::MmaSync),
                (16, 8, 32) if s8_gemm_shape(ctx, gemm).is_some() => Some(Unit::MmaSync),
                (8, 16, sp::DEPTH) if sparse_gemm_shape(ctx, gemm).is_some() => Some(Unit::SparseT),
                _ => None,
            };
            unit.map(|unit| {
                let warps = Warps {
                    wm,
                    wn,
                    mt: rows / m / wm,
                    nt: cols / n / wn,
                    unit,
                };
                (warps, false)
            })
        }
        Layout::Mma { m, n, k, wm, wn }
            if kind == Kind::Amdgpu
                && m == n
                && k == 256 / m
                && aic_dialects::amdgpu::instruction(m, n, k).is_some()
                && f16_gemm_shape(ctx, gemm).is_some()
                && wm * wn * aic_dialects::amdgpu::WAVEFRONT == threads =>
        {
            Some((
                Warps {
                    wm,
                    wn,
                    mt: rows / m / wm,
                    nt: cols / n / wn,
                    unit: Unit::Mfma(m),
                },
                false,
            ))
        }
        Layout::Wgmma { n }
            if kind == Kind::Wgmma
                && super::wgmma::gemm_types(ctx, gemm).is_some()
                && super::wgmma::row_blocks(rows, n, threads).is_some() =>
        {
            Some((super::wgmma::warps(rows, n, threads), true))
        }
        _ => None,
    };
    found.map(Some).ok_or_else(|| {
        let mut text = String::new();
        aic::printer::write_type(ctx.uniquer(), ctx.value_type(ctx.result(gemm, 0)), &mut text);
        err(
            ctx,
            gemm,
            format!("the gemm's layout ({text}) does not fit this gemm on these matrix units in blocks of {threads} threads"),
        )
    })
}

impl Plan {
    /// The fragment layout of map `op`, if it runs on fragments.
    pub(super) fn epilogue(&self, op: Op) -> Option<Warps> {
        self.epilogue.get(&op).copied()
    }

    /// Whether `op` stores a fragment.
    pub(super) fn is_frag_store(&self, op: Op) -> bool {
        self.frag_stores.contains(&op)
    }

    /// Whether `op` is computed where fragment maps read it, not lowered.
    pub(super) fn is_deferred(&self, op: Op) -> bool {
        self.deferred.contains(&op)
    }

    /// The gemms on matrix units and their accumulators' layouts.
    pub(super) fn gemm_layouts(&self, ctx: &Context) -> Vec<(Op, Layout)> {
        self.gemms
            .iter()
            .map(|(g, w)| {
                let n = tile_type(ctx, ctx.result(*g, 0)).map_or(0, |t| t.shape[1]);
                (
                    *g,
                    layout_of(*w, self.wgmma.contains(g), n, mma_depth(ctx, *g)),
                )
            })
            .collect()
    }

    /// Whether `gemm` runs on tensor cores.
    pub(super) fn is_mma(&self, gemm: Op) -> bool {
        self.gemms.contains_key(&gemm)
    }

    /// Whether `gemm` runs on Hopper's warpgroup MMA.
    pub(super) fn is_wgmma(&self, gemm: Op) -> bool {
        self.wgmma.contains(&gemm)
    }

    /// The warp grid of `gemm`'s accumulator, if tensor cores run it.
    pub(super) fn warps(&self, gemm: Op) -> Option<Warps> {
        self.gemms.get(&gemm).copied()
    }

    /// Whether `gemm` reads its A from registers (fragments with its
    /// rows, as attention's P).
    pub(super) fn reads_a_from_registers(&self, gemm: Op) -> bool {
        self.rows.a_regs.contains(&gemm)
    }

    /// Records `gemm` as a wgmma gemm with accumulator layout `w`.
    pub(super) fn set_wgmma(&mut self, gemm: Op, w: Warps) {
        self.gemms.insert(gemm, w);
        self.wgmma.insert(gemm);
    }
}

/// A lane's coordinates: its lane, and its warp's row and column in the grid.
pub(super) struct Lane {
    pub(super) lane: Value,
    pub(super) wy: Value,
    pub(super) wx: Value,
}

impl Lower<'_> {
    pub(super) fn lane(&mut self, w: Warps) -> Lane {
        let tid = self.tid;
        let lanes = ab::index(self, w.unit.lanes());
        let lane = ab::binary::<arith::RemUI>(self, tid, lanes);
        let warp = ab::binary::<arith::DivUI>(self, tid, lanes);
        let wn = ab::index(self, w.wn);
        let wy = ab::binary::<arith::DivUI>(self, warp, wn);
        let wx = ab::binary::<arith::RemUI>(self, warp, wn);
        Lane { lane, wy, wx }
    }

    /// `a * c + b` for a constant `c`.
    pub(super) fn mul_add(&mut self, a: Value, c: i64, b: Value) -> Value {
        let c = ab::index(self, c);
        let p = ab::binary::<arith::MulI>(self, a, c);
        ab::binary::<arith::AddI>(self, p, b)
    }

    /// The offset of this lane's slot 0 in a row-major `_ x n` tile, slot
    /// `s`'s being this plus [`frag_offset`].
    fn frag_base(&mut self, w: Warps, n: i64) -> Value {
        let (row, col) = self.frag_origin(w);
        self.mul_add(row, n, col)
    }

    /// This lane's (row, col) of slot 0, slot `s`'s being these plus
    /// [`slot_at`].
    fn frag_origin(&mut self, w: Warps) -> (Value, Value) {
        let Lane { lane, wy, wx } = self.lane(w);
        let (tm, tn) = w.unit.tile();
        // The lane's row and column within its first tile: (l/4, 2·(l%4)),
        // (4·(l/T), l%T) or, mma.sp's transposed, (2·(l%4), l/4).
        let d = ab::index(
            self,
            match w.unit {
                Unit::MmaSync | Unit::SparseT => 4,
                Unit::Mfma(t) => t,
            },
        );
        let q = ab::binary::<arith::DivUI>(self, lane, d);
        let m = ab::binary::<arith::RemUI>(self, lane, d);
        let r = match w.unit {
            Unit::MmaSync => q,
            Unit::Mfma(_) => {
                let c4 = ab::index(self, 4);
                ab::binary::<arith::MulI>(self, q, c4)
            }
            Unit::SparseT => ab::binary::<arith::AddI>(self, m, m),
        };
        let row = self.mul_add(wy, w.mt * tm, r);
        let c = match w.unit {
            Unit::MmaSync => ab::binary::<arith::AddI>(self, m, m),
            Unit::Mfma(_) => m,
            Unit::SparseT => q,
        };
        let col = self.mul_add(wx, w.nt * tn, c);
        (row, col)
    }

    /// The (row, col) of this lane's slot `s`.
    fn slot_coords(&mut self, w: Warps, origin: (Value, Value), s: i64) -> (Value, Value) {
        let (dr, dc) = slot_at(w, s);
        let (r, c) = (ab::index(self, dr), ab::index(self, dc));
        (
            ab::binary::<arith::AddI>(self, origin.0, r),
            ab::binary::<arith::AddI>(self, origin.1, c),
        )
    }

    /// Whether `v`, a pointwise value (not a fragment), is the same at
    /// every row of a column: a load through a view that ignores the
    /// tile's rows, an iota along the columns, a broadcast scalar, or a map
    /// of such values.
    fn row_free(&self, v: Value) -> bool {
        if self.frags.contains_key(&v) {
            return false;
        }
        let Some(d) = self.ctx.defining_op(v) else {
            return false;
        };
        match TileOp::of(self.ctx, d) {
            Some(TileOp::Load(l)) => {
                let buf = self.map.value(l.buffer(self.ctx));
                let Some(shape) = self.buffers.get(&buf) else {
                    return false;
                };
                let rank = l.origin(self.ctx).len();
                rank >= 2
                    && self
                        .desc(d, shape)
                        .is_ok_and(|desc| plan::ignores_dim(&desc, rank - 2))
            }
            Some(TileOp::Iota(i)) => i.dim(self.ctx).unwrap_or(0) == 1,
            Some(TileOp::Broadcast(b)) => tile_type(self.ctx, b.input(self.ctx)).is_none(),
            Some(TileOp::Map(m)) => m.inputs(self.ctx).iter().all(|x| self.row_free(*x)),
            _ => false,
        }
    }

    /// Element (`row`, `col`) of `v`, a fragment (its slot `slot`) or a
    /// pointwise value the plan allows computing anywhere.
    fn point(&mut self, v: Value, slot: i64, row: Value, col: Value) -> Result<Value, Diagnostic> {
        if let Some(f) = self.frags.get(&v) {
            let arr = f.arr;
            let i = ab::index(self, slot);
            return Ok(mb::load(self, arr, &[i]));
        }
        let d = self
            .ctx
            .defining_op(v)
            .ok_or_else(|| Diagnostic::error("a fragment map reads a block argument"))?;
        let t = self.tile_of(d, v)?;
        match TileOp::of(self.ctx, d) {
            Some(TileOp::Load(l)) => {
                let buf = self.map.value(l.buffer(self.ctx));
                let origin = self.scalars(l.origin(self.ctx));
                let shape = self.buffers[&buf].clone();
                let desc = self.desc(d, &shape)?;
                let (off, ok) = self.locate(&desc, &origin, &[row, col]);
                let zero = ab::index(self, 0);
                let safe = ab::select(self, ok, off, zero);
                let x = mb::load(self, buf, &[safe]);
                let z = ab::number(self, 0.0, t.elem);
                Ok(ab::select(self, ok, x, z))
            }
            Some(TileOp::Valid(va)) => {
                let origin = self.scalars(va.origin(self.ctx));
                let desc = self.desc(d, &[])?;
                Ok(self.locate(&desc, &origin, &[row, col]).1)
            }
            Some(TileOp::Broadcast(b)) => Ok(self.map.value(b.input(self.ctx))),
            Some(TileOp::Iota(i)) => {
                let at = if i.dim(self.ctx).unwrap_or(0) == 0 {
                    row
                } else {
                    col
                };
                Ok(if matches!(self.ctx.type_kind(t.elem), TypeKind::Index) {
                    at
                } else {
                    ab::cast::<arith::IndexCast>(self, at, t.elem)
                })
            }
            Some(TileOp::Map(m)) => {
                let ops = m.inputs(self.ctx).to_vec();
                let mut args = Vec::new();
                for x in &ops {
                    args.push(self.point(*x, slot, row, col)?);
                }
                self.map_body(d, &args)
            }
            _ => Err(err(
                self.ctx,
                d,
                format!("'{}' is not pointwise", self.ctx.op_name(d)),
            )),
        }
    }

    /// The body of map `op` on scalars `args`, inlined; gives its yield.
    fn map_body(&mut self, op: Op, args: &[Value]) -> Result<Value, Diagnostic> {
        let body = self
            .ctx
            .regions(op)
            .first()
            .and_then(|r| self.ctx.entry_block(*r))
            .ok_or_else(|| err(self.ctx, op, "a map without a body"))?;
        let params = self.ctx.block_args(body).to_vec();
        for (p, x) in params.iter().zip(args) {
            self.map.values.insert(*p, *x);
        }
        let body_ops: Vec<Op> = self.ctx.block_ops(body).collect();
        for o in body_ops {
            if let Some(y) = tile::Yield::of(self.ctx, o) {
                let x = y
                    .values(self.ctx)
                    .first()
                    .copied()
                    .ok_or_else(|| err(self.ctx, op, "a map body yields nothing"))?;
                return Ok(self.map.value(x));
            }
            let c = self.ctx.clone_op(o, &mut self.map);
            self.ctx.append_op(self.block, c);
        }
        Err(err(self.ctx, op, "a map body yields nothing"))
    }

    /// `tile.map` on fragments of layout `w`: each lane computes its
    /// slots, reading fragment operands slot by slot and computing the
    /// others at the slot's (row, col); the result is a fragment.
    pub(super) fn frag_map(&mut self, op: Op, w: Warps) -> Result<(), Diagnostic> {
        let ops = self.ctx.operands(op).to_vec();
        self.bcast_rows(&ops, w)?;
        for v in &ops {
            if let Some(f) = self.frags.get(v)
                && f.w != w
            {
                return Err(err(self.ctx, op, "fragment operands of different layouts"));
            }
        }
        let r = self.ctx.result(op, 0);
        let t = self.tile_of(op, r)?;
        let arr = self.frag_alloca(w, &t);
        let origin = self.frag_origin(w);
        // Operands that are the same down a column (a bias along the keys
        // broadcast over the queries) are computed once a column, at the
        // lane's first row: the slots of its other rows reuse them. A row
        // past the tensor's end then sees its column's value where a load
        // would give zero, which nothing reads: such rows are never stored,
        // and fragments reduce along rows only.
        let free: Vec<bool> = ops.iter().map(|v| self.row_free(*v)).collect();
        let mut columns: HashMap<(Value, i64), Value> = HashMap::new();
        for s in 0..w.slots() {
            let (row, col) = self.slot_coords(w, origin, s);
            let dc = slot_at(w, s).1;
            let mut args = Vec::new();
            for (v, free) in ops.iter().zip(&free) {
                if !*free {
                    args.push(self.point(*v, s, row, col)?);
                    continue;
                }
                let x = match columns.get(&(*v, dc)) {
                    Some(x) => *x,
                    None => {
                        let x = self.point(*v, s, origin.0, col)?;
                        columns.insert((*v, dc), x);
                        x
                    }
                };
                args.push(x);
            }
            let x = self.map_body(op, &args)?;
            let i = ab::index(self, s);
            mb::store(self, x, arr, &[i]);
        }
        self.set_frag(r, arr, w, &t);
        Ok(())
    }

    /// `tile.store` of a fragment: each lane writes its slots where they go
    /// (those inside the buffer).
    pub(super) fn frag_store(&mut self, op: Op) -> Result<(), Diagnostic> {
        let st = tile::Store::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "a fragment store that is not a store"))?;
        let f = self
            .frags
            .get(&st.value(self.ctx))
            .cloned()
            .ok_or_else(|| err(self.ctx, op, "a fragment store of no fragment"))?;
        let buf = self.map.value(st.buffer(self.ctx));
        let at = self.scalars(st.origin(self.ctx));
        let shape = self.buffers[&buf].clone();
        let d = self.desc(op, &shape)?;
        if self.staged_store(st, &f, (buf, &at), &d)? {
            return Ok(());
        }
        let paired = paired_store(self.ctx, st, &d, f.w);
        self.frag_runs(&f, paired, &mut |s, (row, col), xs| {
            let (off, ok) = s.locate(&d, &at, &[row, col]);
            let xs = xs(s);
            s.store_run(ok, &xs, buf, off)
        })
    }

    /// For each of this lane's runs of fragment `f`'s slots (a pair of
    /// neighbouring columns where `pairs`, else one slot): `put` with the
    /// run's (row, col) in the tile and a loader of its values.
    fn frag_runs(
        &mut self,
        f: &Frag,
        pairs: bool,
        put: &mut PutRun<'_, Self>,
    ) -> Result<(), Diagnostic> {
        let (origin, slots) = (self.frag_origin(f.w), f.w.slots());
        let mut s = 0;
        while s < slots {
            let at = self.slot_coords(f.w, origin, s);
            let (r0, c0) = slot_at(f.w, s);
            let k = if pairs && s + 1 < slots && slot_at(f.w, s + 1) == (r0, c0 + 1) {
                2
            } else {
                1
            };
            let load = |l: &mut Self| -> Vec<Value> {
                (s..s + k)
                    .map(|i| {
                        let i = ab::index(l, i);
                        mb::load(l, f.arr, &[i])
                    })
                    .collect()
            };
            put(self, at, &load)?;
            s += k;
        }
        Ok(())
    }

    /// A `staged` `tile.store` of a fragment (`tile-shared-layout` decided
    /// it, [`super::shared_layout::stage_stores`]): after a barrier (every
    /// thread past its last read of the finished loops' rings, or of the
    /// last tile's staging) the lanes write their neighbouring column pairs
    /// into a row-major staging tile at the rings' offset 0 (a persistent
    /// kernel's in the scratch region, beside the rings its producer is
    /// refilling), rows padded by one run so that the eight rows of a
    /// warp's pairs hit distinct banks; after a second barrier each thread
    /// copies runs of 16 bytes to memory, consecutive threads consecutive
    /// runs. Whether `st` was staged.
    fn staged_store(
        &mut self,
        st: tile::Store,
        f: &Frag,
        (buf, at): (Value, &[Value]),
        d: &Desc,
    ) -> Result<bool, Diagnostic> {
        if st.staged(self.ctx).is_none() {
            return Ok(false);
        }
        let sg = super::shared_layout::staging(self.ctx, st, self.threads);
        let (Some(sg), &[m, n], Unit::MmaSync) = (sg, &f.t.shape[..], f.w.unit) else {
            return Err(err(
                self.ctx,
                st.op(),
                "a staged store of fragments other than tensor cores' whose memory takes 16-byte runs",
            ));
        };
        let (v, stride) = (sg.run, sg.stride);
        self.barrier();
        let own = self.grid_loop.is_some();
        // Consumer groups taking turns stage in tiles of their own: group
        // `g`'s `g` tiles into a view of both.
        let groups = if self.turns.is_some() { 2 } else { 1 };
        let view = if own {
            self.scratch_claim(groups * m * stride, f.t.elem)
        } else {
            self.shared_view(0, m * stride, f.t.elem)
        };
        let zero = ab::index(self, 0);
        let base = match self.turns.as_ref().map(|t| t.group) {
            Some(g) => self.mul_add(g, m * stride, zero),
            None => zero,
        };
        self.frag_runs(f, true, &mut |s, (row, col), xs| {
            let xs = xs(s);
            let off = s.row_offset(row, stride, col);
            let off = ab::binary::<arith::AddI>(s, off, base);
            s.put_run(&xs, view, off);
            Ok(())
        })?;
        self.barrier();
        let (vt, align) = self.vector_of(v, f.t.elem);
        let shape = [m, n];
        self.each_run(m * n, None, v, &mut |s, _, e| {
            let idx = s.unravel(e, &shape);
            let soff = s.row_offset(idx[0], stride, idx[1]);
            let soff = ab::binary::<arith::AddI>(s, soff, base);
            let x = vector::Load::build(s, view, &[soff], Some(align), vt).result(s.ctx);
            let xs: Vec<Value> = (0..v).map(|k| s.extract(x, &[k], f.t.elem)).collect();
            let (off, ok) = s.locate(d, at, &idx);
            s.store_run(ok, &xs, buf, off)
        })?;
        // The staging tile is read before anything reuses the rings (or
        // the scratch region).
        self.barrier();
        if own {
            self.release(false);
        }
        Ok(true)
    }

    /// `row * stride + col`.
    fn row_offset(&mut self, row: Value, stride: i64, col: Value) -> Value {
        let sc = ab::index(self, stride);
        let r = ab::binary::<arith::MulI>(self, row, sc);
        ab::binary::<arith::AddI>(self, r, col)
    }

    /// layout of `w`.
    pub(super) fn write_frag(
        &mut self,
        v: Value,
        w: Warps,
        t: &TileType,
        arr: Value,
    ) -> Result<(), Diagnostic> {
        if t.shape.len() == 1 {
            return self.write_rows(v, w, arr);
        }
        if let Some(f) = self.frags.get(&v).cloned() {
            if f.w == w {
                for s in 0..w.slots() {
                    let i = ab::index(self, s);
                    let x = mb::load(self, f.arr, &[i]);
                    mb::store(self, x, arr, &[i]);
                }
                return Ok(());
            }
            self.materialize_frag(v)?;
        }
        // A broadcast scalar (the zero a gemm usually starts from).
        if let Some(x) = self.scalar_source(v) {
            for s in 0..w.slots() {
                let i = ab::index(self, s);
                mb::store(self, x, arr, &[i]);
            }
            return Ok(());
        }
        let (view, ex) = self.readable(v)?;
        let n = t.shape[1];
        let base = self.frag_base(w, n);
        for s in 0..w.slots() {
            let off = frag_offset(w, n, s);
            let c = ab::index(self, off);
            let at = ab::binary::<arith::AddI>(self, base, c);
            let x = mb::load(self, view, &[at]);
            let i = ab::index(self, s);
            mb::store(self, x, arr, &[i]);
        }
        self.release(ex);
        Ok(())
    }

    /// The scalar tile `v` broadcasts, if it is a broadcast of one.
    fn scalar_source(&self, v: Value) -> Option<Value> {
        let src = tile::Broadcast::defining(self.ctx, v)?.input(self.ctx);
        (!self.tiles.contains_key(&src)).then(|| self.map.value(src))
    }

    /// The zero `v` broadcasts, if it is a constant ±0.
    pub(super) fn zero_source(&self, v: Value) -> Option<Value> {
        let x = self.scalar_source(v)?;
        (arith::constant_number(self.ctx, x) == Some(0.0)).then_some(x)
    }

    /// Gives `v`, an accumulator in the fragment layout, a blocked copy in
    /// `tiles`: the lanes write their fragments to shared memory and read
    /// back the elements they own in the blocked layout.
    pub(super) fn materialize_frag(&mut self, v: Value) -> Result<(), Diagnostic> {
        let Some(f) = self.frags.get(&v).cloned() else {
            return Ok(());
        };
        if self.tiles.contains_key(&v) {
            return Ok(());
        }
        if f.t.shape.len() == 1 {
            return self.materialize_rows(v, &f);
        }
        let (m, n) = (f.t.shape[0], f.t.shape[1]);
        let view = self.scratch_view(m * n, f.t.elem);
        let base = self.frag_base(f.w, n);
        for s in 0..f.w.slots() {
            let i = ab::index(self, s);
            let x = mb::load(self, f.arr, &[i]);
            let c = ab::index(self, frag_offset(f.w, n, s));
            let at = ab::binary::<arith::AddI>(self, base, c);
            mb::store(self, x, view, &[at]);
        }
        self.read_back_blocked(v, view, m * n, &f.t)
    }

    /// After every lane stored its elements of `v` (of type `t`) in shared
    /// `view`, row-major over `n` elements: `v` in the blocked layout, each
    /// thread reading its own.
    pub(super) fn read_back_blocked(
        &mut self,
        v: Value,
        view: Value,
        n: i64,
        t: &TileType,
    ) -> Result<(), Diagnostic> {
        self.barrier();
        let arr = self.alloca(n, t.elem);
        self.each(n, None, &mut |s, j, e| {
            let x = mb::load(s, view, &[e]);
            mb::store(s, x, arr, &[j]);
            Ok(())
        })?;
        self.release(true);
        self.tiles.insert(v, (L::Dist(arr), t.clone()));
        Ok(())
    }

    /// Gives every operand of `op` held only as fragments a blocked copy
    /// (except a tensor-core gemm's accumulator, read as fragments); gives
    /// the values whose copy is for this op only, to be dropped after it.
    pub(super) fn materialize_operands(&mut self, op: Op) -> Result<Vec<Value>, Diagnostic> {
        // A pipelined loop carries fragments as fragments (Lower::carry_frag):
        // the causal diagonal's loop starts from the unmasked loop's.
        if tile::For::of(self.ctx, op).is_some_and(|f| f.stages(self.ctx).is_some()) {
            return Ok(Vec::new());
        }
        // A tensor-core gemm reads its accumulator (and A, when the plan
        // says so) as fragments.
        let (mma, a_regs) = (self.mma.is_mma(op), self.mma.rows.a_regs.contains(&op));
        let acc = acc_operand(self.ctx, op);
        let skip = |i: usize| mma && (i == acc || (i == 0 && a_regs));
        let mut temporary = Vec::new();
        for (i, v) in self.ctx.operands(op).to_vec().into_iter().enumerate() {
            if skip(i) || self.tiles.contains_key(&v) {
                continue;
            }
            if let Some(f) = self.frags.get(&v) {
                if f.block != self.block {
                    temporary.push(v);
                }
                self.materialize_frag(v)?;
            }
        }
        Ok(temporary)
    }

    /// `tile.transfer` of a tile only tensor-core gemms read into its shared
    /// region at byte `at`, rows `stride` elements apart.
    pub(super) fn padded_transfer(
        &mut self,
        op: Op,
        at: i64,
        stride: i64,
    ) -> Result<(), Diagnostic> {
        let tr = tile::Transfer::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "a padded transfer that is not a transfer"))?;
        let r = tr.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let src = tr.input(self.ctx);
        let (rows, cols) = (t.shape[0], t.shape[1]);
        let view = self.shared_view(at, rows * stride, t.elem);
        // wgmma's A (an attention's Q) in its swizzle, rows the lines.
        let swizzled =
            super::shared_layout::lines(self.ctx, op).is_some_and(|(_, _, swizzled)| swizzled);
        let place = |s: &mut Self, row: Value, col: Value| {
            if swizzled {
                // The chunk's start, then the element within it.
                let chunk = s.swizzled_at(row, col, rows, CHUNK);
                let c8 = ab::index(s, CHUNK);
                let within = ab::binary::<arith::RemUI>(s, col, c8);
                ab::binary::<arith::AddI>(s, chunk, within)
            } else {
                s.mul_add(row, stride, col)
            }
        };
        let direct = tile::Load::defining(self.ctx, src)
            .filter(|l| super::shared_layout::is_direct(self.ctx, l.op()));
        let padded = Padded {
            view,
            stride,
            base: None,
            trans: false,
        };
        if let Some(ld) = direct.filter(|_| swizzled) {
            self.chunked_transfer(ld, view, (rows, cols))?;
            self.padded_tiles.insert(r, padded);
            return Ok(());
        }
        if let Some(ld) = direct {
            // Straight from memory, thread t reading element t of a column.
            let load = ld.op();
            let buf = self.map.value(ld.buffer(self.ctx));
            let origin = self.scalars(ld.origin(self.ctx));
            let shape = self.buffers[&buf].clone();
            let d = self.desc(load, &shape)?;
            self.barrier();
            self.each(rows * cols, None, &mut |s, _, e| {
                let c = ab::index(s, rows);
                let row = ab::binary::<arith::RemUI>(s, e, c);
                let col = ab::binary::<arith::DivUI>(s, e, c);
                let (off, ok) = s.locate(&d, &origin, &[row, col]);
                let zero = ab::index(s, 0);
                let safe = ab::select(s, ok, off, zero);
                let x = mb::load(s, buf, &[safe]);
                let z = ab::number(s, 0.0, t.elem);
                let x = ab::select(s, ok, x, z);
                let at = place(s, row, col);
                mb::store(s, x, view, &[at]);
                Ok(())
            })?;
            self.fence_for_wgmma(swizzled);
            self.barrier();
            self.padded_tiles.insert(r, padded);
            return Ok(());
        }
        let (l, st) = self.tiles[&src].clone();
        // Until every thread has read what the last transfer left here.
        self.barrier();
        self.each(rows * cols, warp_rows::rows_of(&st), &mut |s, j, e| {
            let x = s.own(l, j, e);
            let c = ab::index(s, cols);
            let row = ab::binary::<arith::DivUI>(s, e, c);
            let col = ab::binary::<arith::RemUI>(s, e, c);
            let at = place(s, row, col);
            mb::store(s, x, view, &[at]);
            Ok(())
        })?;
        self.fence_for_wgmma(swizzled);
        self.barrier();
        self.padded_tiles.insert(r, padded);
        Ok(())
    }

    /// wgmma's A staged once (an attention's Q), `rows x cols` from load
    /// `ld` ([`super::shared_layout::is_chunked`]) into `view` in wgmma's
    /// swizzle: 16-byte chunks copied by cp.async straight into their
    /// swizzled places (rows past the end zero-filled), no register or
    /// element-wise round trip; waited for, fenced for the async proxy and
    /// synced before wgmma reads it. Threads past the last chunk of a
    /// partial round copy it again.
    fn chunked_transfer(
        &mut self,
        ld: tile::Load,
        view: Value,
        (rows, cols): (i64, i64),
    ) -> Result<(), Diagnostic> {
        let u = self.ctx.uniquer().clone();
        let buf = self.map.value(ld.buffer(self.ctx));
        let origin = self.scalars(ld.origin(self.ctx));
        let shape = self.buffers[&buf].clone();
        let d = self.desc(ld.op(), &shape)?;
        let token = nvgpu::token_type(&u);
        // Until every thread has read what the last transfer left here.
        self.barrier();
        let mut tokens = Vec::new();
        let chunks = pipeline::Chunks {
            buf,
            desc: &d,
            origin: &origin,
            shape: (rows, cols),
            chunk: CHUNK,
            trans: false,
            live: None,
            view,
        };
        self.copy_chunks(&chunks, &mut tokens, &mut |s, line, within| {
            s.swizzled_at(line, within, rows, CHUNK)
        });
        let group =
            nvgpu::DeviceAsyncCreateGroup::build(self, &tokens, token).async_token(self.ctx);
        let none = int_attr(&u, 0, u.int_type(32));
        nvgpu::DeviceAsyncWait::build(self, group, Some(none));
        self.fence_for_wgmma(true);
        self.barrier();
        Ok(())
    }

    /// Where wgmma reads what this block's threads wrote to shared memory
    /// (`swizzled`): each thread's writes fenced for the async proxy
    /// (`nvvm.fence.proxy async.shared, cta`) before the barrier.
    pub(super) fn fence_for_wgmma(&mut self, swizzled: bool) {
        if swizzled {
            let u = self.ctx.uniquer().clone();
            let kind = aic_dialects::nvvm::ProxyKind::AsyncShared.attr(&u);
            let space = aic_dialects::nvvm::SharedSpace::Cta.attr(&u);
            aic_dialects::nvvm::FenceProxy::build(self, kind, Some(space));
        }
    }

    /// A shared view of gemm operand `v` (row-major, rows `stride` apart)
    /// and whether it was written to scratch for this.
    pub(super) fn gemm_operand(&mut self, v: Value) -> Result<(Padded, bool), Diagnostic> {
        if let Some(p) = self.padded_tiles.get(&v).copied() {
            return Ok((p, false));
        }
        let cols = self.tiles[&v].1.shape[1];
        let (view, ex) = self.readable(v)?;
        let p = Padded {
            view,
            stride: cols,
            base: None,
            trans: false,
        };
        Ok((p, ex))
    }

    /// Records fragment array `arr` (layout `w`, type `t`), made in this
    /// block, as value `r`'s.
    pub(super) fn add_frag(&mut self, r: Value, arr: Value, w: Warps, t: TileType) {
        let block = self.block;
        self.frags.insert(r, Frag { arr, w, t, block });
    }

    /// A new fragment array for an accumulator of type `t`.
    pub(super) fn frag_alloca(&mut self, w: Warps, t: &TileType) -> Value {
        self.private(w.slots_of(t), t.elem)
    }

    /// `tile.gemm` on tensor cores.
    pub(super) fn mma_gemm(&mut self, op: Op) -> Result<(), Diagnostic> {
        // The one gemm of a pipelined wgmma loop is lowered with its loop;
        // those lowered here are an attention loop's.
        if self.mma.is_wgmma(op) {
            return self.wgmma_attention_gemm(op);
        }
        let w = self.mma.gemms[&op];
        if let Unit::Mfma(_) = w.unit {
            return self.mfma_gemm(op, w);
        }
        if s8_gemm_shape(self.ctx, op).is_some() {
            return self.s8_gemm(op, w);
        }
        let g = tile::Gemm::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "a tensor-core gemm that is not a gemm"))?;
        let (ga, gb_, gacc) = (g.a(self.ctx), g.b(self.ctx), g.acc(self.ctx));
        let r = g.result(self.ctx);
        let t = self.tile_of(op, r)?;
        let kk = self.tile_of(op, ga)?.shape[1];
        let out = self.frag_alloca(w, &t);
        self.write_frag(gacc, w, &t, out)?;
        // A from registers: a fragment with this gemm's rows.
        let a_regs = match self.frags.get(&ga) {
            Some(f) if self.mma.rows.a_regs.contains(&op) => Some(f.clone()),
            _ => None,
        };
        let (pa, ea) = match a_regs {
            Some(_) => (None, false),
            None => {
                let (pa, ea) = self.gemm_operand(ga)?;
                (Some(pa), ea)
            }
        };
        let (pb, eb) = self.gemm_operand(gb_)?;
        let g = self.mma_operands(op, w, pa, pb)?;
        // The k16 steps unrolled: fragment loads of one step can overlap the
        // mma of the previous, and A's registers are picked by constant slots.
        for ks in 0..kk / 16 {
            let k = ab::index(self, ks * 16);
            let regs: Option<Vec<Value>> = a_regs.as_ref().map(|f| {
                (0..w.mt)
                    .map(|mi| self.a_from_regs(f, mi, ks, g.types[0]))
                    .collect()
            });
            let (fa, fb) = self.mma_load(&g, (pa.and_then(|p| p.base), pb.base), k);
            self.mma_step(&g, &regs.unwrap_or(fa), &fb, out);
        }
        self.release(ea || eb);
        let block = self.block;
        self.frags.insert(
            r,
            Frag {
                arr: out,
                w,
                t,
                block,
            },
        );
        Ok(())
    }

    /// Where this lane's ldmatrix rows start in gemm `op`'s shared A and B
    /// (at k = 0 of the tiles' first element), and the fragment types.
    fn mma_operands(
        &mut self,
        op: Op,
        w: Warps,
        pa: Option<Padded>,
        pb: Padded,
    ) -> Result<MmaOperands, Diagnostic> {
        if pa.is_some_and(|pa| pa.trans) {
            return Err(err(self.ctx, op, "a transposed shared A is not supported"));
        }
        let (wm_rows, wn_cols) = (w.mt * 16, w.nt * 8);
        let sb = pb.stride;
        let u = self.ctx.uniquer().clone();
        // A's and B's element type (f16 or bf16), which the fragments hold.
        let gb = tile::Gemm::of(self.ctx, op)
            .ok_or_else(|| err(self.ctx, op, "a tensor-core gemm that is not a gemm"))?
            .b(self.ctx);
        let f16 = self.tile_of(op, gb)?.elem;
        let f32 = u.ty(TypeKind::Float(FloatKind::F32));
        let vec = |shape: &[i64], elem: Type| {
            u.ty(TypeKind::Vector {
                shape: shape.into(),
                scalable: shape.iter().map(|_| false).collect(),
                elem,
            })
        };
        // Where this lane's rows start, at k = 0: A's row of each m16 tile
        // (lanes 0-15 columns 0-7, lanes 16-31 columns 8-15), B's row of
        // each pair of n8 tiles (likewise: columns n, then n + 8).
        let Lane { lane, wy, wx } = self.lane(w);
        let (c16, c8) = (ab::index(self, 16), ab::index(self, 8));
        let l16 = ab::binary::<arith::RemUI>(self, lane, c16);
        let half = ab::binary::<arith::DivUI>(self, lane, c16);
        let half8 = ab::binary::<arith::MulI>(self, half, c8);
        let row0 = self.mul_add(wy, wm_rows, l16);
        let a_base: Vec<Value> = match pa {
            Some(pa) => {
                let row = self.mul_add(row0, pa.stride, half8);
                (0..w.mt)
                    .map(|mi| {
                        let c = ab::index(self, mi * 16 * pa.stride);
                        ab::binary::<arith::AddI>(self, row, c)
                    })
                    .collect()
            }
            // A read from registers (a_from_regs).
            None => Vec::new(),
        };
        let b_row = if pb.trans {
            // B stored N x K: lane l addresses column n (its matrix's row)
            // wx·N/wn + 16·p + 8·(l/16) + l%8, at k + 8·((l/8)%2).
            let (c8, c2) = (ab::index(self, 8), ab::index(self, 2));
            let l8 = ab::binary::<arith::RemUI>(self, lane, c8);
            let q = ab::binary::<arith::DivUI>(self, lane, c8);
            let kh = ab::binary::<arith::RemUI>(self, q, c2);
            let kh8 = ab::binary::<arith::MulI>(self, kh, c8);
            let n0 = self.mul_add(wx, wn_cols, half8);
            let n0 = ab::binary::<arith::AddI>(self, n0, l8);
            self.mul_add(n0, sb, kh8)
        } else {
            let col0 = self.mul_add(wx, wn_cols, half8);
            let csb = ab::index(self, sb);
            let r = ab::binary::<arith::MulI>(self, l16, csb);
            ab::binary::<arith::AddI>(self, r, col0)
        };
        let b_base: Vec<Value> = (0..(w.nt + 1) / 2)
            .map(|p| {
                let c = ab::index(self, if pb.trans { p * 16 * sb } else { p * 16 });
                ab::binary::<arith::AddI>(self, b_row, c)
            })
            .collect();
        Ok(MmaOperands {
            w,
            views: (pa.map(|p| p.view), pb.view),
            sb,
            b_trans: !pb.trans,
            a_base,
            b_base,
            types: [
                vec(&[4, 2], f16),
                vec(&[2, 2], f16),
                vec(&[4, 2], f16),
                vec(&[2, 2], f32),
            ],
            f16,
            f32,
        })
    }

    /// This lane's A fragments (one per m16 tile) and B fragments (one per
    /// n8 tile) of the k16 step at `k`, the tiles starting at `bases` in
    /// their views.
    fn mma_load(
        &mut self,
        g: &MmaOperands,
        bases: (Option<Value>, Option<Value>),
        k: Value,
    ) -> (Vec<Value>, Vec<Value>) {
        let u = self.ctx.uniquer().clone();
        let i32t = u.int_type(32);
        let [va, vb, vb4, _] = g.types;
        let ldm = |s: &mut Self, view: Value, at: Value, n: i64, trans: bool, ty: Type| {
            let tr = u.attr(AttrKind::Bool(trans));
            nvgpu::Ldmatrix::build(s, view, &[at], int_attr(&u, n, i32t), tr, ty).res(s.ctx)
        };
        let ka = match bases.0 {
            Some(b) => ab::binary::<arith::AddI>(self, b, k),
            None => k,
        };
        let frags_a: Vec<Value> = match g.views.0 {
            Some(av) => g
                .a_base
                .iter()
                .map(|b| {
                    let at = ab::binary::<arith::AddI>(self, *b, ka);
                    ldm(self, av, at, 4, false, va)
                })
                .collect(),
            None => Vec::new(),
        };
        let mut kb = if g.b_trans {
            let csb = ab::index(self, g.sb);
            ab::binary::<arith::MulI>(self, k, csb)
        } else {
            k
        };
        if let Some(b) = bases.1 {
            kb = ab::binary::<arith::AddI>(self, kb, b);
        }
        let mut frags_b = Vec::new();
        for (p, b) in g.b_base.iter().enumerate() {
            let at = ab::binary::<arith::AddI>(self, *b, kb);
            if 2 * p as i64 + 1 < g.w.nt {
                // Two n8 tiles: registers 0-1 the first's, 2-3 the second's.
                let x = ldm(self, g.views.1, at, 4, g.b_trans, vb4);
                let el: Vec<Value> = (0..8)
                    .map(|i| self.extract(x, &[i / 2, i % 2], g.f16))
                    .collect();
                frags_b.push(vector::FromElements::build(self, &el[..4], vb).result(self.ctx));
                frags_b.push(vector::FromElements::build(self, &el[4..], vb).result(self.ctx));
            } else {
                frags_b.push(ldm(self, g.views.1, at, 2, g.b_trans, vb));
            }
        }
        (frags_a, frags_b)
    }

    /// One k16 step of every mma tile of this lane's warp into `out`.
    fn mma_step(&mut self, g: &MmaOperands, fa: &[Value], fb: &[Value], out: Value) {
        let shape = self.mma_shape(16);
        let vc = g.types[3];
        for (mi, a) in fa.iter().enumerate() {
            for (ni, b) in fb.iter().enumerate() {
                let tile = mi as i64 * g.w.nt + ni as i64;
                self.mma_on_slots(out, tile, (vc, g.f32), &mut |s, c| {
                    nvgpu::MmaSync::build(s, *a, *b, c, shape, vc).res(s.ctx)
                });
            }
        }
    }

    /// The `mmaShape` attribute `[16, 8, k]` of NVIDIA's warp MMAs.
    pub(super) fn mma_shape(&self, k: i64) -> aic::attributes::Attr {
        let u = self.ctx.uniquer();
        u.attr(AttrKind::Array(
            [16, 8, k]
                .iter()
                .map(|v| int_attr(u, *v, u.int_type(64)))
                .collect(),
        ))
    }

    /// One warp MMA on m16n8 tile `tile` of accumulator array `out` (its
    /// slots `4·tile ..`): the four slots read as `vc` (a `vector<2x2x>` of
    /// `elem`), `mma` building the instruction on them, its result written
    /// back.
    pub(super) fn mma_on_slots(
        &mut self,
        out: Value,
        tile: i64,
        (vc, elem): (Type, Type),
        mma: &mut dyn FnMut(&mut Self, Value) -> Value,
    ) {
        let idx: Vec<Value> = (0..4).map(|c| ab::index(self, 4 * tile + c)).collect();
        let c: Vec<Value> = idx.iter().map(|i| mb::load(self, out, &[*i])).collect();
        let c = vector::FromElements::build(self, &c, vc).result(self.ctx);
        let d = mma(self, c);
        for (e, i) in idx.iter().enumerate() {
            let e = e as i64;
            let x = self.extract(d, &[e / 2, e % 2], elem);
            mb::store(self, x, out, &[*i]);
        }
    }

    /// The offset in `p`'s view of the element at (`row`, `col`) of its
    /// tile, the view's base (a ring's stage) included.
    pub(super) fn padded_at(&mut self, p: &Padded, row: Value, col: Value) -> Value {
        let at = if p.trans {
            self.mul_add(col, p.stride, row)
        } else {
            self.mul_add(row, p.stride, col)
        };
        match p.base {
            Some(b) => ab::binary::<arith::AddI>(self, at, b),
            None => at,
        }
    }

    pub(super) fn extract(&mut self, v: Value, pos: &[i64], elem: Type) -> Value {
        let p = self.ctx.uniquer().i64_array(pos);
        vector::Extract::build(self, v, p, elem).result(self.ctx)
    }

    /// The fragment array a `tile.for` carries its `i`th value in, if the
    /// loop yields a tensor-core gemm's accumulator there (so that it stays
    /// in registers, in the fragment layout, across iterations), holding
    /// `init` on entry.
    pub(super) fn carry_frag(
        &mut self,
        body: Block,
        i: usize,
        init: Value,
    ) -> Result<Option<(Value, Warps, TileType)>, Diagnostic> {
        if let Some(c) = self.carry_rows(body, i, init)? {
            return Ok(Some(c));
        }
        let Some(y) = self
            .ctx
            .block_ops(body)
            .last()
            .and_then(|y| tile::Yield::of(self.ctx, y))
        else {
            return Ok(None);
        };
        let Some(v) = y.values(self.ctx).get(i).copied() else {
            return Ok(None);
        };
        let Some(g) = self.ctx.defining_op(v) else {
            return Ok(None);
        };
        let Some(w) = self.mma.gemms.get(&g).copied() else {
            return Ok(None);
        };
        let t = tile_type(self.ctx, v).ok_or_else(|| err(self.ctx, g, "not a tile"))?;
        let arr = self.frag_alloca(w, &t);
        self.write_frag(init, w, &t, arr)?;
        Ok(Some((arr, w, t)))
    }

    /// Records that `v` is held as fragments in `arr`.
    /// A `tile.convert_layout` of fragments into a matrix layout: the same
    /// fragments (a gemm reading them in another layout moves them itself);
    /// whether `op` was one.
    pub(super) fn convert_frag(&mut self, op: Op) -> bool {
        let Some(c) = tile::ConvertLayout::of(self.ctx, op) else {
            return false;
        };
        let (i, r) = (c.input(self.ctx), c.result(self.ctx));
        let matrix = tile_type(self.ctx, r).is_some_and(|t| {
            matches!(
                t.layout,
                Some(tile::Layout::Mma { .. } | tile::Layout::Wgmma { .. })
            )
        });
        match self.frags.get(&i).cloned() {
            Some(f) if matrix => {
                self.frags.insert(r, f);
                true
            }
            _ => false,
        }
    }

    pub(super) fn set_frag(&mut self, v: Value, arr: Value, w: Warps, t: &TileType) {
        let block = self.block;
        self.frags.insert(
            v,
            Frag {
                arr,
                w,
                t: t.clone(),
                block,
            },
        );
    }

    /// The end of a loop iteration: `v` into the fragment array `arr`.
    pub(super) fn yield_frag(
        &mut self,
        v: Value,
        arr: Value,
        w: Warps,
        t: &TileType,
    ) -> Result<(), Diagnostic> {
        if self.frags.get(&v).is_some_and(|f| f.arr == arr) {
            return Ok(());
        }
        self.write_frag(v, w, t, arr)
    }
}

/// What [`Lower::frag_runs`] calls for each run of a lane's slots: with
/// the run's (row, col) in the tile and a loader of its values.
type PutRun<'a, S> =
    dyn FnMut(&mut S, (Value, Value), &dyn Fn(&mut S) -> Vec<Value>) -> Result<(), Diagnostic> + 'a;

/// The one gemm of pipelined loop `body`, if it is all the loop computes:
/// its A and B the pipe's transfers, its accumulator the loop's only
/// carried value, which it yields.
pub(super) fn single_gemm(ctx: &Context, body: Block, pipe: &Pipe) -> Option<Op> {
    let gemms: Vec<tile::Gemm> = ctx
        .block_ops(body)
        .filter_map(|o| tile::Gemm::of(ctx, o))
        .collect();
    let [gemm] = gemms[..] else {
        return None;
    };
    let staged = |v: Value| pipe.copy_of(ctx, v).is_some();
    let args = ctx.block_args(body);
    let y = tile::Yield::of(ctx, ctx.block_ops(body).last()?)?;
    let ok = staged(gemm.a(ctx))
        && staged(gemm.b(ctx))
        && args.len() == 2
        && gemm.acc(ctx) == args[1]
        && y.values(ctx) == [gemm.result(ctx)];
    ok.then_some(gemm.op())
}

/// Whether store `st` of fragments of layout `w` through view `d`
/// writes a lane's two neighbouring columns (mma.sync's and wgmma's `c0,
/// c1`, at an even column) as one aligned two-element vector: memory is
/// contiguous in aligned runs of [`CHUNK`] along the tile's columns (the
/// view's last dim; [`plan::contiguous_dim`]) and the store's origin
/// there is even, so each pair lies in one run at an even offset; and the
/// view is not affine. Through an affine view (a plain row-major result)
/// LLVM sees the pair's addresses consecutive and aligned and merges the
/// two stores itself, and it then also keeps each store next to the
/// epilogue arithmetic that computes it; with explicit vectors it
/// gathered a GeLU epilogue's stores at the end, and the BERT and GPT-2
/// FFN GEMMs ran 19% slower on the H100. Through a view that splits the
/// columns (attention's heads) it cannot see them consecutive.
fn paired_store(ctx: &Context, st: tile::Store, d: &Desc, w: Warps) -> bool {
    let rank = d.upper.len();
    let origin = st.origin(ctx);
    let Some(&col) = origin.last() else {
        return false;
    };
    let not_a_loop = (st.buffer(ctx), 1, 1);
    w.unit == Unit::MmaSync
        && rank >= 2
        && origin.len() == rank
        && plan::affine_chunk_dim(d, CHUNK).is_none()
        && plan::contiguous_dim(d) == Some(rank - 1)
        && plan::multiple_of(ctx, col, 2, not_a_loop)
}

/// The offset of slot `s` from slot 0 in a row-major `_ x n` tile.
fn frag_offset(w: Warps, n: i64, s: i64) -> i64 {
    let (r, c) = slot_at(w, s);
    r * n + c
}

/// The (row, col) of slot `s` from slot 0's.
fn slot_at(w: Warps, s: i64) -> (i64, i64) {
    let per = w.unit.per_tile();
    let (tile, c) = (s / per, s % per);
    let (mi, ni) = (tile / w.nt, tile % w.nt);
    let (tm, tn) = w.unit.tile();
    let (dr, dc) = w.unit.element_at(c);
    (mi * tm + dr, ni * tn + dc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_grids() {
        let w = Warps::choose(64, 64, 4, Unit::MmaSync).unwrap();
        assert_eq!((w.wm, w.wn, w.mt, w.nt), (2, 2, 2, 4));
        let w = Warps::choose(16, 64, 4, Unit::MmaSync).unwrap();
        assert_eq!((w.wm, w.wn, w.mt, w.nt), (1, 4, 1, 2));
        assert!(Warps::choose(16, 8, 4, Unit::MmaSync).is_none());
        assert_eq!(frag_offset(w, 64, 0), 0);
        assert_eq!(frag_offset(w, 64, 3), 8 * 64 + 1);
        assert_eq!(frag_offset(w, 64, 5), 8 + 1);
    }

    #[test]
    fn sparse_fragments_are_mma_sync_transposed() {
        // mma.sp's D (16 x 8) is an 8 x 16 tile of C: lane l's element c of
        // D at (l/4 + 8(c/2), 2(l%4) + c%2) is C's at the transpose.
        let w = Warps::choose(64, 64, 4, Unit::SparseT).unwrap();
        assert_eq!((w.wm, w.wn, w.mt, w.nt), (2, 2, 4, 2));
        for c in 0..4 {
            let (dr, dc) = Unit::MmaSync.element_at(c);
            assert_eq!(Unit::SparseT.element_at(c), (dc, dr));
        }
        assert_eq!(frag_offset(w, 64, 2), 8);
        assert_eq!(frag_offset(w, 64, 4), 16);
        assert_eq!(frag_offset(w, 64, 8), 8 * 64);
        assert!(Warps::choose(8, 32, 4, Unit::SparseT).is_none());
    }
}
