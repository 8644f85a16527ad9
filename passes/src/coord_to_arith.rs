//! `coord-to-arith`: every `coord.offset` becomes the arith ops that compute
//! its descriptor's offset and validity (the index arithmetic a kernel runs),
//! after simplifying the descriptor. Each transform emits its formula:
//! `pad` a subtraction and a range check, `embed` a sum of products,
//! `merge` divisions and remainders, `unmerge` a row-major linearisation,
//! `freeze` a constant; the last stage's coordinate is linearised into the
//! offset, and validity is the conjunction of the upper-range and padding
//! checks.
//!
//! The lowering is one conversion pattern rooted at [`coord::Offset`], run as
//! a partial conversion in which `coord.offset` is illegal; it builds its
//! arith ops through [`aic_dialects::arith::build`].

use aic::Diagnostic;
use aic::conversion::{
    ConversionPatterns, ConversionRewriter, ConversionTarget, Legality, Mode, OpConversion,
    TypeConverter, apply_conversion,
};
use aic::ir::{Build, Context, Op, Value};
use aic::op_def::OpHandle;
use aic::pass::{Pass, PassInfo, PassOptions};
use aic_dialects::arith::build::{self as ab, CmpIPredicate};
use aic_dialects::arith::{AddI, AndI, DivSI, MulI, RemSI, SubI};
use aic_dialects::coord::{self, Desc, Step, Transform};

/// The registered pass.
pub static INFO: PassInfo = PassInfo {
    flag: "coord-to-arith",
    name: "CoordToArith",
    summary: "Lower coord.offset to the arith ops computing the offset and validity",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Box::new(CoordToArith),
};

struct CoordToArith;

/// `coord.offset` to arith.
static LOWER_OFFSET: OpConversion<coord::Offset> = OpConversion::new("LowerOffset", lower_offset);

/// `a * k`, the multiplication left out where `k` is 1.
fn mul_const(b: &mut impl Build, a: Value, k: i64) -> Value {
    if k == 1 {
        return a;
    }
    let c = ab::index(b, k);
    ab::binary::<MulI>(b, a, c)
}

/// `a + b`, or `b` where there is no `a`.
fn add(b: &mut impl Build, a: Option<Value>, v: Value) -> Value {
    match a {
        Some(a) => ab::binary::<AddI>(b, a, v),
        None => v,
    }
}

/// `0 <= v < len`, and-ed into `valid`.
fn in_range(b: &mut impl Build, valid: Option<Value>, v: Value, len: i64) -> Value {
    let zero = ab::index(b, 0);
    let n = ab::index(b, len);
    let lo = ab::cmpi(b, CmpIPredicate::Sge, v, zero);
    let hi = ab::cmpi(b, CmpIPredicate::Slt, v, n);
    let both = ab::binary::<AndI>(b, lo, hi);
    match valid {
        Some(x) => ab::binary::<AndI>(b, x, both),
        None => both,
    }
}

/// The lower coordinate step `s` gives from the upper values `up` of
/// lengths `ul`, into lower dims of lengths `low_lens`; a padding's range
/// check is and-ed into `valid`.
fn lower_step(
    b: &mut impl Build,
    s: &Step,
    up: &[Value],
    ul: &[i64],
    low_lens: &[i64],
    valid: &mut Option<Value>,
) -> Vec<Value> {
    match &s.t {
        Transform::Pass => vec![up[0]],
        Transform::Pad { lo, .. } => {
            let v = if *lo == 0 {
                up[0]
            } else {
                let c = ab::index(b, *lo);
                ab::binary::<SubI>(b, up[0], c)
            };
            *valid = Some(in_range(b, *valid, v, low_lens[s.lower[0]]));
            vec![v]
        }
        Transform::Slice { begin, .. } => {
            let c = ab::index(b, *begin);
            vec![ab::binary::<AddI>(b, up[0], c)]
        }
        Transform::Embed {
            strides, offset, ..
        } => {
            let mut sum = None;
            for (u, s) in up.iter().zip(strides) {
                if *s != 0 {
                    let t = mul_const(b, *u, *s);
                    sum = Some(add(b, sum, t));
                }
            }
            if *offset != 0 || sum.is_none() {
                let c = ab::index(b, *offset);
                sum = Some(add(b, sum, c));
            }
            vec![sum.expect("a term")]
        }
        Transform::Merge { lens } => {
            let mut rest = up[0];
            let mut out = vec![up[0]; lens.len()];
            for (i, l) in lens.iter().enumerate().rev() {
                if i == 0 {
                    out[0] = rest;
                    break;
                }
                let c = ab::index(b, *l);
                out[i] = ab::binary::<RemSI>(b, rest, c);
                rest = ab::binary::<DivSI>(b, rest, c);
            }
            out
        }
        Transform::Unmerge | Transform::Vectorize { .. } => {
            let mut v = up[0];
            for (u, l) in up.iter().zip(ul).skip(1) {
                let m = mul_const(b, v, *l);
                v = ab::binary::<AddI>(b, m, *u);
            }
            vec![v]
        }
        Transform::Freeze { value, .. } => vec![ab::index(b, *value)],
        Transform::Broadcast => Vec::new(),
    }
}

/// The offset and validity of the upper index `idx` under `d` (of stage
/// lengths `lens`).
fn offset_of(b: &mut impl Build, d: &Desc, lens: &[Vec<i64>], idx: Vec<Value>) -> (Value, Value) {
    let mut valid: Option<Value> = None;
    for (v, l) in idx.iter().zip(&d.upper) {
        valid = Some(in_range(b, valid, *v, *l));
    }
    let mut cur = idx;
    let mut cur_lens = d.upper.clone();
    for (stage, low_lens) in d.stages.iter().zip(lens) {
        let mut next: Vec<Option<Value>> = vec![None; low_lens.len()];
        for s in stage {
            let up: Vec<Value> = s.upper.iter().map(|i| cur[*i]).collect();
            let ul: Vec<i64> = s.upper.iter().map(|i| cur_lens[*i]).collect();
            let low = lower_step(b, s, &up, &ul, low_lens, &mut valid);
            for (d, v) in s.lower.iter().zip(low) {
                next[*d] = Some(v);
            }
        }
        cur = next
            .into_iter()
            .map(|v| v.expect("every lower dim written"))
            .collect();
        cur_lens = low_lens.clone();
    }
    let mut off: Option<Value> = None;
    for (v, l) in cur.iter().zip(&cur_lens) {
        off = Some(match off {
            None => *v,
            Some(o) => {
                let m = mul_const(b, o, *l);
                ab::binary::<AddI>(b, m, *v)
            }
        });
    }
    let off = match off {
        Some(o) => o,
        None => ab::index(b, 0),
    };
    let valid = match valid {
        Some(v) => v,
        None => {
            let i1 = b.context().int_type(1);
            ab::int(b, 1, i1)
        }
    };
    (off, valid)
}

/// Replace one `coord.offset` by arith ops; a descriptor that does not read
/// or whose lengths do not fit (which the verifier rejects) is left alone,
/// for the conversion to report.
fn lower_offset(rw: &mut ConversionRewriter<'_>, o: coord::Offset, indices: &[Value]) -> bool {
    let ctx = &*rw.ctx;
    let Some(d) = o
        .desc(ctx)
        .and_then(|a| coord::desc_of(ctx.uniquer(), a).ok())
    else {
        return false;
    };
    let d = d.simplify();
    let Ok(lens) = d.lens() else {
        return false;
    };
    let (off, valid) = offset_of(&mut rw.before(o.op()), &d, &lens, indices.to_vec());
    rw.replace_op(o.op(), &[off, valid]);
    true
}

impl Pass for CoordToArith {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut any = false;
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            any |= coord::Offset::is(ctx, o);
        });
        if !any {
            return Ok(false);
        }
        let mut target = ConversionTarget::new();
        target.op_kind::<coord::Offset>(Legality::Illegal);
        let mut patterns = ConversionPatterns::new();
        patterns.add(&LOWER_OFFSET);
        let types = TypeConverter::new();
        apply_conversion(ctx, root, &target, &patterns, &types, Mode::Partial)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aic::op_printer::{PrintOptions, print_op};
    use std::sync::Arc;

    fn module(ctx: &mut Context, text: &str) -> Op {
        let mut sm = aic::SourceMap::new();
        let file = sm.add("t.mlir", text.to_string());
        aic::syntax::parse_module(ctx, &sm, file).expect("parses")
    }

    fn offset_through(desc: &str) -> String {
        format!(
            "func.func @f(%i: index, %j: index) -> (index, i1) {{
  %o, %v = coord.offset %i, %j through #coord.desc<{desc}> : index, i1
  return %o, %v : index, i1
}}"
        )
    }

    #[test]
    fn offsets_become_arith_and_a_second_run_changes_nothing() {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let m = module(
            &mut ctx,
            &offset_through(
                "[6, 4] | merge<2, 3> [0] -> [0, 1], pass [1] -> [2] | unmerge [0, 1, 2] -> [0]",
            ),
        );
        assert!(CoordToArith.run(&mut ctx, m).expect("lowers"));
        aic::verifier::verify(&ctx, m).expect("verifies");
        let text = print_op(&ctx, m, PrintOptions::default());
        assert!(!text.contains("coord.offset"), "{text}");
        for want in [
            "arith.cmpi sge",
            "arith.cmpi slt",
            "arith.andi",
            "arith.remsi",
            "arith.divsi",
        ] {
            assert!(text.contains(want), "no `{want}` in\n{text}");
        }
        assert!(!CoordToArith.run(&mut ctx, m).expect("nothing to do"));
    }

    #[test]
    fn a_descriptor_that_does_not_fit_fails_the_conversion_and_keeps_the_ir() {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        // A merge of 2x4 cannot take a dim of 6 (the verifier says so; the
        // pass is run here on IR it has not seen).
        let m = module(
            &mut ctx,
            &offset_through("[6, 4] | merge<2, 4> [0] -> [0, 1], pass [1] -> [2]"),
        );
        let before = print_op(&ctx, m, PrintOptions::default());
        let e = CoordToArith
            .run(&mut ctx, m)
            .expect_err("cannot lower")
            .to_string();
        assert!(
            e.contains("failed to legalize operation 'coord.offset'"),
            "{e}"
        );
        assert_eq!(print_op(&ctx, m, PrintOptions::default()), before);
    }
}
