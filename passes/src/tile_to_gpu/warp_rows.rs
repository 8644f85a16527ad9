//! `tile-warp-rows`: the layout decision of row kernels, written into their
//! tile types. A kernel of whole rows whose blocked layout would spread a
//! row over several warps (so that their partial results meet in shared
//! memory, behind a barrier) gets its row tiles laid out a warp per row
//! instead, `warp_rows<lanes, v, warps>`, when the block's warps divide its
//! rows: warp `w` holds rows `w`, `w + warps`, ... in runs of `v` at columns
//! `l * v`, `(lanes + l) * v`, ... of its lane `l`, and reduces them by
//! shuffles alone. `tile-to-gpu` follows the layout (and decides it itself
//! for kernels whose tiles carry no layout yet).

use super::{Slice, blocked_slice, err, vector, warp_of};
use aic::Diagnostic;
use aic::ir::{Context, Op, Value, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{OptKind, OptSpec, Pass, PassInfo, PassOptions};
use aic_dialects::tile::{self, Layout, Space, TileType};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "tile-warp-rows",
    name: "TileWarpRows",
    summary: "Lay out the row tiles of row kernels a warp per row where the blocked layout would spread a row over several warps",
    anchor: None,
    options: &[
        super::THREADS_OPTION,
        OptSpec {
            name: "warp",
            kind: OptKind::UInt,
            default: "0",
            range: Some((0, 64)),
            help: "Threads of a warp (0: no warps, no warp rows)",
        },
    ],
    create: |o: &PassOptions| {
        Box::new(TileWarpRows {
            threads: o.int("threads").max(1),
            warp: o.int("warp"),
        })
    },
};

struct TileWarpRows {
    threads: i64,
    warp: i64,
}

impl Pass for TileWarpRows {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut changed = false;
        for (k, threads) in super::kernels_and_threads(ctx, root, self.threads) {
            changed |= assign(ctx, k, threads, self.warp);
        }
        Ok(changed)
    }
}

/// The tile values of kernel `k`: its ops' results (a kernel's block
/// arguments are buffers, its nested blocks' scalars or loop-carried tiles,
/// which are results too).
fn tile_values(ctx: &Context, k: Op) -> Vec<(Value, TileType)> {
    let mut out = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        for r in ctx.results(o) {
            if let Some(t) = tile::tile_type(ctx.uniquer(), ctx.value_type(r)) {
                out.push((r, t.clone()));
            }
        }
    });
    out
}

/// Whether any tile of kernel `k` carries a layout already.
pub(super) fn has_layouts(ctx: &Context, k: Op) -> bool {
    let mut any = false;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        any |= ctx
            .results(o)
            .chain(ctx.operands(o).iter().copied())
            .filter_map(|v| tile::tile_type(ctx.uniquer(), ctx.value_type(v)))
            .any(|t| t.layout.is_some());
    });
    any
}

/// Whether kernel `k` has ops that keep the blocked layout: loops, gemms
/// or shared tiles.
fn blocked_only(ctx: &Context, k: Op) -> bool {
    let mut found = false;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        found |= tile::For::is(ctx, o) || tile::Gemm::is(ctx, o) || tile::Transfer::is(ctx, o);
    });
    found
}

/// The warp-row layout of the row tile `[R, N]` of kernel `k` (run by
/// `threads` threads in warps of `warp`), if its rows are better each held
/// by one warp than spread in the blocked layout: every reduction of `k` is
/// one along the rows of `[R, N]`, the blocked layout would spread a row
/// over several warps, the block's warps divide `R` and a warp's runs of
/// `v` divide `N`, and every tile of `R * N` elements is such a tile.
/// Kernels with loops, gemms or shared tiles keep the blocked layout.
fn decide(ctx: &Context, k: Op, threads: i64, warp: i64) -> Option<(Vec<i64>, Layout)> {
    let w = warp_of(threads, warp);
    if w == 0 || blocked_only(ctx, k) {
        return None;
    }
    let u = ctx.uniquer();
    let (mut row, mut simple) = (None::<Vec<i64>>, true);
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if let Some(red) = tile::Reduce::of(ctx, o) {
            let src = tile::tile_type(u, ctx.value_type(red.input(ctx)));
            match src {
                Some(s)
                    if s.shape.len() == 2
                        && red.axis(ctx) == Some(1)
                        && row.as_ref().is_none_or(|r| *r == s.shape) =>
                {
                    row = Some(s.shape.clone());
                }
                _ => simple = false,
            }
        }
    });
    let shape = row.filter(|_| simple)?;
    let (r, len) = (shape[0], shape[1]);
    let n = r * len;
    let v = vector(threads, n);
    let warps = threads / w;
    let spread = blocked_slice(threads, w, n, len).is_none_or(|sl| sl.group > w);
    let alike = tile_values(ctx, k)
        .iter()
        .all(|(_, t)| t.shape.iter().product::<i64>() != n || t.shape == shape);
    (spread && alike && r % warps == 0 && len % (w * v) == 0)
        .then_some((shape, Layout::WarpRows { lanes: w, v, warps }))
}

/// Decides kernel `k`'s layout (see [`decide`]) and writes it into the
/// types of its row tiles; whether it wrote any.
pub(super) fn assign(ctx: &mut Context, k: Op, threads: i64, warp: i64) -> bool {
    let Some((shape, layout)) = decide(ctx, k, threads, warp) else {
        return false;
    };
    let u = ctx.uniquer().clone();
    for (v, t) in tile_values(ctx, k) {
        if t.shape == shape {
            let ty = tile::make_tile(
                &u,
                &TileType {
                    layout: Some(layout),
                    ..t
                },
            );
            ctx.set_value_type(v, ty);
        }
    }
    true
}

/// The slice of a tile of type `t` laid out in warp rows, if it is.
pub(super) fn rows_of(t: &TileType) -> Option<Slice> {
    let Some(Layout::WarpRows { lanes, v, warps }) = t.layout else {
        return None;
    };
    let len = *t.shape.get(1)?;
    Some(Slice {
        n: t.shape.iter().product(),
        v,
        len,
        group: lanes,
        per: len / (lanes * v),
        step: warps,
    })
}

/// Checks that the warp rows of kernel `k`, if any, are ones its lowering
/// (by `threads` threads in warps of `warp`) can follow: one row tile, its
/// lanes a warp and its warps the block's, runs as long as the blocked
/// layout's, every tile of its size laid out alike, and no loops, gemms or
/// shared tiles.
pub(super) fn check(ctx: &Context, k: Op, threads: i64, warp: i64) -> Result<(), Diagnostic> {
    let tiles = tile_values(ctx, k);
    let Some((at, row)) = tiles.iter().find(|(_, t)| rows_of(t).is_some()) else {
        return Ok(());
    };
    let fail = |m: String| Err(err(ctx, ctx.defining_op(*at).unwrap_or(k), m));
    let Some(Layout::WarpRows { lanes, v, warps }) = row.layout else {
        unreachable!("rows_of found warp rows");
    };
    let n: i64 = row.shape.iter().product();
    let w = warp_of(threads, warp);
    if lanes != w || lanes * warps != threads || v != vector(threads, n) {
        return fail(format!(
            "warp_rows<{lanes}, {v}, {warps}> does not fit blocks of {threads} threads in warps of {w} (runs of {})",
            vector(threads, n)
        ));
    }
    if blocked_only(ctx, k) {
        return fail("warp rows in a kernel with loops, gemms or shared tiles".into());
    }
    if let Some((_, t)) = tiles.iter().find(|(_, t)| {
        t.space == Space::Register
            && t.shape.iter().product::<i64>() == n
            && (t.layout != row.layout || t.shape != row.shape)
    }) {
        return fail(format!(
            "a tile of {:?} laid out otherwise beside warp rows of {:?}: every tile of {n} elements must be laid out alike",
            t.shape, row.shape
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A kernel reducing and scaling rows of a `[rows, cols]` tile.
    fn row_kernel(rows: i64, cols: i64) -> String {
        let t = format!("!tile.tile<{rows}x{cols}xf32>");
        format!(
            "tile.kernel @k grid = [1] {{
^bb0(%x: memref<{rows}x{cols}xf32>):
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : memref<{rows}x{cols}xf32> -> {t}
  %s = tile.reduce sum %t, axis = 1 : {t} -> !tile.tile<{rows}xf32>
  %b = tile.broadcast %s, dims = [0] : !tile.tile<{rows}xf32> -> {t}
  tile.store %b, %x[%c0, %c0] : {t}, memref<{rows}x{cols}xf32>
  tile.return
}}"
        )
    }

    /// The layouts of the kernel's tile values after [`assign`], in order.
    fn layouts(text: &str, threads: i64, warp: i64) -> Vec<Option<Layout>> {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", text.to_string());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
        let mut kernels = Vec::new();
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(&ctx, o) {
                kernels.push(o);
            }
        });
        let k = kernels[0];
        let had = has_layouts(&ctx, k);
        let changed = assign(&mut ctx, k, threads, warp);
        assert_eq!(changed, has_layouts(&ctx, k) && !had);
        check(&ctx, k, threads, warp).expect("tile-to-gpu can follow what was decided");
        aic::verifier::verify(&ctx, m).expect("verifies");
        tile_values(&ctx, k)
            .into_iter()
            .map(|(_, t)| t.layout)
            .collect()
    }

    #[test]
    fn rows_spread_over_warps_go_a_warp_each() {
        let rows = Some(Layout::WarpRows {
            lanes: 32,
            v: 8,
            warps: 2,
        });
        // Rows of 512 in runs of 8 span 64 lanes: a warp each instead; the
        // reduced tile keeps no layout.
        assert_eq!(layouts(&row_kernel(4, 512), 64, 32), [rows, None, rows]);
        // Rows of 64 in runs of 8 fit 8 lanes: blocked.
        assert_eq!(layouts(&row_kernel(16, 64), 64, 32), [None, None, None]);
        // No warps, or warps that do not divide the rows: blocked.
        assert_eq!(layouts(&row_kernel(4, 512), 64, 0), [None, None, None]);
        assert_eq!(layouts(&row_kernel(3, 1024), 64, 32), [None, None, None]);
    }

    #[test]
    fn a_layout_that_does_not_fit_the_block_is_an_error() {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", row_kernel(4, 512));
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
        let mut k = None;
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(&ctx, o) {
                k = Some(o);
            }
        });
        let k = k.expect("a kernel");
        assert!(assign(&mut ctx, k, 64, 32));
        assert!(check(&ctx, k, 64, 32).is_ok());
        let e = check(&ctx, k, 128, 32).expect_err("two warps are not four");
        assert!(format!("{e:?}").contains("does not fit blocks of 128 threads"));
    }
}
