//! The accuracy report of `auto-mixed-precision`: a function's results
//! after the pass against the f32 program's, both run by the reference
//! interpreter on the same random inputs (floats uniform in [-1, 1),
//! integers in [0, 4)). The generator is SplitMix64, a few lines written
//! here so that the report is the same on every machine and the pass needs
//! no random-number crate.

use crate::eqsat_fusion::cost::op_flops;
use aic::interp::{Interp, Tensor};
use aic::ir::{Context, Op, WalkOrder};
use aic::op_def::OpHandle;
use aic::types::{Type, TypeKind};
use aic_dialects::func;

/// The functions with bodies under `root` (or `root` itself).
pub fn functions(ctx: &Context, root: Op) -> Vec<Op> {
    let mut out = Vec::new();
    ctx.walk(root, WalkOrder::PreOrder, &mut |_, op| {
        if func::Func::is(ctx, op)
            && ctx
                .regions(op)
                .first()
                .is_some_and(|r| ctx.entry_block(*r).is_some())
        {
            out.push(op);
        }
    });
    out
}

/// SplitMix64.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// A random tensor of type `ty`, or `None` for types without elements the
/// interpreter holds.
pub fn random(u: &aic::Uniquer, ty: Type, rng: &mut SplitMix) -> Option<Tensor> {
    let (n, elem) = match u.type_kind(ty) {
        TypeKind::Tensor { shape, elem, .. } => {
            let n = shape
                .iter()
                .try_fold(1usize, |a, d| a.checked_mul(usize::try_from(*d).ok()?))?;
            (n, *elem)
        }
        _ => (1, ty),
    };
    match u.type_kind(elem) {
        TypeKind::Float(_) => Some(Tensor::from_f64s(u, ty, (0..n).map(|_| rng.unit()))),
        TypeKind::Integer { width: 1, .. } => Some(Tensor::from_i64s(
            u,
            ty,
            (0..n).map(|_| (rng.next_u64() & 1) as i64),
        )),
        TypeKind::Integer { .. } | TypeKind::Index => Some(Tensor::from_i64s(
            u,
            ty,
            (0..n).map(|_| (rng.next_u64() % 4) as i64),
        )),
        _ => None,
    }
}

/// The largest absolute error of `got` against `want` and that error
/// relative to `want`'s largest magnitude (over all results).
pub fn errors(got: &[Tensor], want: &[Tensor]) -> (f64, f64) {
    let (mut abs, mut scale) = (0.0f64, 0.0f64);
    for (g, w) in got.iter().zip(want) {
        let (gv, wv) = (g.to_f64s(), w.to_f64s());
        for (a, b) in gv.iter().zip(&wv) {
            let e = (a - b).abs();
            abs = if e.is_nan() { f64::NAN } else { abs.max(e) };
            scale = scale.max(b.abs());
        }
    }
    (abs, if scale > 0.0 { abs / scale } else { abs })
}

/// The operations of the ops of `f` as the cost model counts them.
pub fn flops(ctx: &Context, f: Op) -> f64 {
    let mut total = 0.0;
    ctx.walk(f, WalkOrder::PreOrder, &mut |_, op| {
        if ctx.num_results(op) == 1 {
            let kids: Vec<Type> = ctx
                .operands(op)
                .iter()
                .map(|v| ctx.value_type(*v))
                .collect();
            let out = ctx.value_type(ctx.result(op, 0));
            total += op_flops(ctx.uniquer(), ctx.op_name(op), &kids, Some(out));
        }
    });
    total
}

/// The report line of function `f` (in `ctx`, after the pass) against
/// `orig` (its f32 copy, alone in `octx`), on inputs drawn from `seed`;
/// not measured where the f32 program does more than `limit` operations.
pub fn compare(ctx: &Context, f: Op, octx: &Context, orig: Op, seed: u64, limit: f64) -> String {
    let name = aic::symbol::symbol_name(ctx, f).unwrap_or("?").to_string();
    let work = flops(octx, orig);
    if work > limit {
        return format!(
            "auto-mixed-precision: @{name}: accuracy not measured ({work:.3e} operations, over report-flops={limit:.0})"
        );
    }
    let Some((ins, _)) = func::function_type(ctx, f) else {
        return format!("auto-mixed-precision: @{name}: no signature");
    };
    let mut rng = SplitMix(seed);
    let Some(args) = ins
        .iter()
        .map(|t| random(ctx.uniquer(), *t, &mut rng))
        .collect::<Option<Vec<Tensor>>>()
    else {
        return format!(
            "auto-mixed-precision: @{name}: accuracy not measured (an argument the report cannot draw)"
        );
    };
    let want = Interp::new(octx).call(orig, args.clone());
    let got = Interp::new(ctx).call(f, args);
    match (got, want) {
        (Ok(got), Ok(want)) => {
            let (abs, rel) = errors(&got, &want);
            format!(
                "auto-mixed-precision: @{name}: largest error against f32 on random inputs (seed {seed}): {abs:.3e} absolute, {rel:.3e} relative to the largest result"
            )
        }
        (Err(e), _) | (_, Err(e)) => format!(
            "auto-mixed-precision: @{name}: accuracy not measured ({})",
            e.message
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_uniform_in_range_and_deterministic() {
        let mut a = SplitMix(7);
        let xs: Vec<f64> = (0..1000).map(|_| a.unit()).collect();
        assert!(xs.iter().all(|x| (-1.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f64>() / 1000.0;
        assert!(mean.abs() < 0.1, "{mean}");
        let mut b = SplitMix(7);
        assert_eq!(b.unit(), xs[0]);
    }

    #[test]
    fn errors_are_absolute_and_relative_to_the_largest_result() {
        let u = aic::Uniquer::default();
        let t = u.ty(TypeKind::Tensor {
            shape: [2].into_iter().collect(),
            elem: u.ty(TypeKind::Float(aic::float::FloatKind::F32)),
            encoding: None,
        });
        let want = Tensor::from_f64s(&u, t, [4.0, -8.0]);
        let got = Tensor::from_f64s(&u, t, [4.5, -8.0]);
        assert_eq!(errors(&[got], &[want]), (0.5, 0.0625));
    }
}
