//! `tile-mma-layout`: the matrix-unit decision of gemm kernels, written
//! into their tile types. A gemm that matrix units run (see
//! [`super::mma`], [`super::wgmma`], [`super::mfma`]) gets its
//! accumulator's fragment layout in the type of its result, and so of the
//! whole accumulator chain: the gemm's accumulator operand, the loop's
//! carried value (its block argument and result) and the value it starts
//! from (a scalar broadcast takes the layout itself; anything else is read
//! through a `tile.convert_layout`). mma.sync's fragments by a `wm x wn`
//! grid of warps are `mma<16, 8, 16, wm, wn>`, MFMA's `mma<T, T, 256/T,
//! wm, wn>`, Hopper's warpgroup MMA's `wgmma<64, N, 16>` (the one gemm of
//! a pipelined K loop, or both of an attention loop's,
//! [`super::wgmma_attention`]). `tile-to-gpu`
//! runs each gemm as its layout says (and decides it itself, running this
//! pass, for kernels whose gemms carry no matrix layout yet).

use super::mma::{self, Kind};
use aic::Diagnostic;
use aic::ir::{Builder, Context, InsertPoint, Op, ValueDef, WalkOrder};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::types::Type;
use aic_dialects::tile::{self, Layout, TileType};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "tile-mma-layout",
    name: "TileMmaLayout",
    summary: "Lay out the accumulators of gemms that matrix units run in their fragments (mma.sync, wgmma, MFMA), written into the tile types of the accumulator chain",
    anchor: None,
    options: &[super::THREADS_OPTION, super::MMA_OPTION],
    create: |o: &PassOptions| {
        Box::new(TileMmaLayout {
            threads: o.int("threads").max(1),
            mma: Kind::parse(o.str("mma")),
        })
    },
};

struct TileMmaLayout {
    threads: i64,
    mma: Kind,
}

impl Pass for TileMmaLayout {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut changed = false;
        for (k, threads) in super::kernels_and_threads(ctx, root, self.threads) {
            if has_layouts(ctx, k) {
                continue;
            }
            changed |= assign(ctx, k, threads, self.mma);
        }
        Ok(changed)
    }
}

/// Whether a gemm of kernel `k` carries a matrix layout already.
pub(super) fn has_layouts(ctx: &Context, k: Op) -> bool {
    let mut any = false;
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if mma::is_gemm(ctx, o) {
            any |= matches!(
                tile::tile_type(ctx.uniquer(), ctx.value_type(ctx.result(o, 0)))
                    .and_then(|t| t.layout),
                Some(Layout::Mma { .. } | Layout::Wgmma { .. })
            );
        }
    });
    any
}

/// Decides which gemms of kernel `k` matrix units of `kind` run (blocks of
/// `threads`) and writes their layouts into the accumulator chains;
/// whether it wrote any.
pub(super) fn assign(ctx: &mut Context, k: Op, threads: i64, kind: Kind) -> bool {
    let plan = mma::decide(ctx, k, threads, kind);
    let mut layouts = plan.gemm_layouts(ctx);
    // In program order, so that what is written does not depend on a
    // hash map's.
    let mut order = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| order.push(o));
    layouts.sort_by_key(|(g, _)| order.iter().position(|o| o == g));
    for (g, layout) in &layouts {
        let r = ctx.result(*g, 0);
        let Some(t) = tile::tile_type(ctx.uniquer(), ctx.value_type(r)).cloned() else {
            continue;
        };
        let ty = tile::make_tile(
            ctx.uniquer(),
            &TileType {
                layout: Some(*layout),
                ..t
            },
        );
        ctx.set_value_type(r, ty);
        give(ctx, *g, mma::acc_operand(ctx, *g), ty);
    }
    // A loop yielding fragments for a value it carries otherwise carries
    // them (from its start on), where it carries no other fragments.
    let mut loops = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if tile::For::is(ctx, o) {
            loops.push(o);
        }
    });
    for f in loops {
        let body = ctx.regions(f).first().and_then(|r| ctx.entry_block(*r));
        let Some(y) = body
            .and_then(|b| ctx.last_op(b))
            .filter(|y| tile::Yield::is(ctx, *y))
        else {
            continue;
        };
        for n in 0..ctx.results(f).count().min(ctx.operands(y).len()) {
            let (yielded, had) = (
                ctx.value_type(ctx.operands(y)[n]),
                ctx.value_type(ctx.result(f, n)),
            );
            if yielded != had && fragments(ctx, yielded) && !fragments(ctx, had) {
                carry(ctx, f, n, yielded);
            }
        }
    }
    // Where a laid-out value meets a type tied to another layout (a gemm
    // off matrix units accumulating onto it, a loop carrying it otherwise),
    // it is read through a conversion.
    let mut ties = Vec::new();
    ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
        if mma::is_gemm(ctx, o) {
            ties.push((
                o,
                mma::acc_operand(ctx, o),
                ctx.value_type(ctx.result(o, 0)),
            ));
        } else if let Some(f) = tile::For::of(ctx, o)
            && let Some(y) = ctx
                .entry_block(f.body(ctx))
                .and_then(|b| ctx.last_op(b))
                .filter(|y| tile::Yield::is(ctx, *y))
        {
            for (i, r) in ctx.results(o).enumerate() {
                ties.push((y, i, ctx.value_type(r)));
            }
        }
    });
    for (user, i, ty) in ties {
        if ctx.operands(user).len() > i && ctx.value_type(ctx.operands(user)[i]) != ty {
            give(ctx, user, i, ty);
        }
    }
    !layouts.is_empty()
}

/// Whether `ty` is a tile type with a matrix layout.
fn fragments(ctx: &Context, ty: Type) -> bool {
    matches!(
        tile::tile_type(ctx.uniquer(), ty).and_then(|t| t.layout),
        Some(Layout::Mma { .. } | Layout::Wgmma { .. })
    )
}

/// Gives operand `i` of `user` the type `ty` (the same tile in a matrix
/// layout): a loop's carried value takes it through the loop (its block
/// argument, result, start and what it yields), a value an op computes
/// (a scalar broadcast, a map, a load) takes it itself; a gemm's result,
/// or a value laid out otherwise already, is read through a
/// `tile.convert_layout` before `user`.
fn give(ctx: &mut Context, user: Op, i: usize, ty: Type) {
    let v = ctx.operands(user)[i];
    let had = ctx.value_type(v);
    if had == ty {
        return;
    }
    let carried = match ctx.value_def(v) {
        ValueDef::Arg(b, a) if a > 0 => ctx
            .block_owner(b)
            .filter(|f| tile::For::is(ctx, *f))
            .map(|f| (f, a as usize - 1)),
        ValueDef::Result(d, r) if tile::For::is(ctx, d) => Some((d, r as usize)),
        _ => None,
    };
    let computed = ctx
        .defining_op(v)
        .is_some_and(|d| !mma::is_gemm(ctx, d) && !tile::For::is(ctx, d));
    if fragments(ctx, had) || !(carried.is_some() || computed) {
        let loc = ctx.op(user).loc;
        let mut b = Builder {
            ctx: &mut *ctx,
            ip: InsertPoint::Before(user),
            loc,
        };
        let c = tile::ConvertLayout::build(&mut b, v, ty).result(ctx);
        ctx.set_operand(user, i, c);
        return;
    }
    ctx.set_value_type(v, ty);
    if let Some((f, n)) = carried {
        carry(ctx, f, n, ty);
    }
}

/// Gives the `n`th value loop `f` carries the type `ty`: its block
/// argument and result, its start and what the body yields for it.
fn carry(ctx: &mut Context, f: Op, n: usize, ty: Type) {
    let Some(body) = ctx.regions(f).first().and_then(|r| ctx.entry_block(*r)) else {
        return;
    };
    let arg = ctx.block_args(body)[n + 1];
    ctx.set_value_type(arg, ty);
    ctx.set_value_type(ctx.result(f, n), ty);
    // The start (after the bounds and the step).
    give(ctx, f, 3 + n, ty);
    if let Some(y) = ctx.last_op(body).filter(|y| tile::Yield::is(ctx, *y)) {
        give(ctx, y, n, ty);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A kernel whose f16 gemm accumulates onto a loaded tile, an f32 gemm
    /// (off matrix units) onto its result, and a second f16 gemm onto the
    /// f32 gemm's.
    const KERNEL: &str = "tile.kernel @k grid = [1] {
^bb0(%a: memref<32x32xf16>, %f: memref<32x32xf32>, %out: memref<32x32xf32>):
  %c0 = arith.constant 0 : index
  %ta = tile.load %a[%c0, %c0] : memref<32x32xf16> -> !tile.tile<32x32xf16>
  %sa = tile.transfer %ta to shared depth = 1 : !tile.tile<32x32xf16> -> !tile.tile<32x32xf16, shared>
  %tf = tile.load %f[%c0, %c0] : memref<32x32xf32> -> !tile.tile<32x32xf32>
  %sf = tile.transfer %tf to shared depth = 1 : !tile.tile<32x32xf32> -> !tile.tile<32x32xf32, shared>
  %acc = tile.load %f[%c0, %c0] : memref<32x32xf32> -> !tile.tile<32x32xf32>
  %d = tile.gemm %sa, %sa, %acc level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %e = tile.gemm %sf, %sf, %d level = block : !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  %g = tile.gemm %sa, %sa, %e level = block : !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf16, shared>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
  tile.store %g, %out[%c0, %c0] : !tile.tile<32x32xf32>, memref<32x32xf32>
  tile.return
}";

    #[test]
    fn accumulators_take_the_layout_or_are_converted() {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", KERNEL.to_string());
        let m = aic::syntax::parse_module(&mut ctx, &sm, file).expect("parses");
        let mut k = None;
        ctx.walk(m, WalkOrder::PreOrder, &mut |_, o| {
            if tile::Kernel::is(&ctx, o) {
                k = Some(o);
            }
        });
        let k = k.expect("a kernel");
        assert!(!has_layouts(&ctx, k));
        assert!(assign(&mut ctx, k, 128, Kind::Nvgpu));
        assert!(has_layouts(&ctx, k));
        aic::verifier::verify(&ctx, m).expect("verifies");
        let layout = |v| tile::tile_type(ctx.uniquer(), ctx.value_type(v)).and_then(|t| t.layout);
        let mut gemms = Vec::new();
        let mut converts = Vec::new();
        ctx.walk(k, WalkOrder::PreOrder, &mut |_, o| {
            if let Some(g) = tile::Gemm::of(&ctx, o) {
                gemms.push(g);
            } else if let Some(c) = tile::ConvertLayout::of(&ctx, o) {
                converts.push(c);
            }
        });
        let frag = Some(Layout::Mma {
            m: 16,
            n: 8,
            k: 16,
            wm: 2,
            wn: 2,
        });
        // The loaded accumulator takes the layout itself.
        assert_eq!(layout(gemms[0].acc(&ctx)), frag);
        assert!(tile::Load::defining(&ctx, gemms[0].acc(&ctx)).is_some());
        // The f32 gemm stays blocked: it reads the first gemm's fragments
        // through a conversion, and the f16 gemm accumulating onto its
        // result reads that through another.
        assert_eq!(layout(gemms[1].result(&ctx)), None);
        assert_eq!(layout(gemms[2].result(&ctx)), frag);
        let [back, into] = converts[..] else {
            panic!("two conversions, not {}", converts.len());
        };
        assert_eq!(back.input(&ctx), gemms[0].result(&ctx));
        assert_eq!(back.result(&ctx), gemms[1].acc(&ctx));
        assert_eq!(layout(back.result(&ctx)), None);
        assert_eq!(into.input(&ctx), gemms[1].result(&ctx));
        assert_eq!(into.result(&ctx), gemms[2].acc(&ctx));
    }
}
