//! `coord-to-arith`: every `coord.offset` becomes the arith ops that compute
//! its descriptor's offset and validity (the index arithmetic a kernel runs),
//! after simplifying the descriptor. Each transform emits its formula:
//! `pad` a subtraction and a range check, `embed` a sum of products,
//! `merge` divisions and remainders, `unmerge` a row-major linearisation,
//! `freeze` a constant; the last stage's coordinate is linearised into the
//! offset, and validity is the conjunction of the upper-range and padding
//! checks.

use aic::Diagnostic;
use aic::attributes::{Attr, AttrKind};
use aic::ir::{Builder, Context, InsertPoint, Op, Value};
use aic::pass::{Pass, PassInfo, PassOptions};
use aic::types::{Type, TypeKind};
use aic_dialects::coord::{self, Transform};

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

/// Emits arith ops before one op.
struct Emit<'c> {
    ctx: &'c mut Context,
    at: Op,
    loc: Attr,
    index: Type,
    i1: Type,
}

impl Emit<'_> {
    fn op(&mut self, name: &str, args: &[Value], ty: Type, props: Vec<(&str, Attr)>) -> Value {
        let op = Builder {
            ctx: &mut *self.ctx,
            ip: InsertPoint::Before(self.at),
            loc: self.loc,
        }
        .create_with_props(name, args, &[ty], &props);
        self.ctx.result(op, 0)
    }

    fn constant(&mut self, v: i64) -> Value {
        let a = self.ctx.uniquer().attr(AttrKind::Integer {
            value: i128::from(v),
            ty: self.index,
        });
        self.op("arith.constant", &[], self.index, vec![("value", a)])
    }

    fn bin(&mut self, name: &str, a: Value, b: Value) -> Value {
        let ty = self.ctx.value_type(a);
        self.op(name, &[a, b], ty, vec![])
    }

    /// `a * k + b` with the constant folded away where it is 0 or 1.
    fn mul_const(&mut self, a: Value, k: i64) -> Value {
        if k == 1 {
            return a;
        }
        let c = self.constant(k);
        self.bin("arith.muli", a, c)
    }

    fn add(&mut self, a: Option<Value>, b: Value) -> Value {
        match a {
            Some(a) => self.bin("arith.addi", a, b),
            None => b,
        }
    }

    fn cmp(&mut self, pred: &str, a: Value, b: Value) -> Value {
        let i = aic_dialects::arith::CMPI_PREDICATES
            .iter()
            .position(|p| *p == pred)
            .expect("a predicate") as i128;
        let u = self.ctx.uniquer().clone();
        let p = u.attr(AttrKind::Integer {
            value: i,
            ty: u.int_type(64),
        });
        self.op("arith.cmpi", &[a, b], self.i1, vec![("predicate", p)])
    }

    /// `0 <= v < len`, and-ed into `valid`.
    fn in_range(&mut self, valid: Option<Value>, v: Value, len: i64) -> Value {
        let zero = self.constant(0);
        let n = self.constant(len);
        let lo = self.cmp("sge", v, zero);
        let hi = self.cmp("slt", v, n);
        let both = self.bin("arith.andi", lo, hi);
        match valid {
            Some(x) => self.bin("arith.andi", x, both),
            None => both,
        }
    }
}

/// Replace one `coord.offset` by arith ops.
fn lower(ctx: &mut Context, op: Op) -> Result<(), Diagnostic> {
    let a = ctx
        .find_ident("desc")
        .and_then(|i| ctx.inherent_attr(op, i))
        .ok_or_else(|| Diagnostic::error("coord.offset without a descriptor"))?;
    let d = coord::desc_of(ctx.uniquer(), a)
        .map_err(Diagnostic::error)?
        .simplify();
    let lens = d.lens().map_err(Diagnostic::error)?;
    let loc = ctx.op(op).loc;
    let index = ctx.uniquer().ty(TypeKind::Index);
    let i1 = ctx.uniquer().int_type(1);
    let idx: Vec<Value> = ctx.operands(op).to_vec();
    let mut e = Emit {
        ctx,
        at: op,
        loc,
        index,
        i1,
    };
    let mut valid: Option<Value> = None;
    for (v, l) in idx.iter().zip(&d.upper) {
        valid = Some(e.in_range(valid, *v, *l));
    }
    let mut cur = idx;
    let mut cur_lens = d.upper.clone();
    for (stage, low_lens) in d.stages.iter().zip(&lens) {
        let mut next: Vec<Option<Value>> = vec![None; low_lens.len()];
        for s in stage {
            let up: Vec<Value> = s.upper.iter().map(|i| cur[*i]).collect();
            let ul: Vec<i64> = s.upper.iter().map(|i| cur_lens[*i]).collect();
            let low: Vec<Value> = match &s.t {
                Transform::Pass => vec![up[0]],
                Transform::Pad { lo, .. } => {
                    let v = if *lo == 0 {
                        up[0]
                    } else {
                        let c = e.constant(*lo);
                        e.bin("arith.subi", up[0], c)
                    };
                    valid = Some(e.in_range(valid, v, low_lens[s.lower[0]]));
                    vec![v]
                }
                Transform::Slice { begin, .. } => {
                    let c = e.constant(*begin);
                    vec![e.bin("arith.addi", up[0], c)]
                }
                Transform::Embed {
                    strides, offset, ..
                } => {
                    let mut sum = None;
                    for (u, s) in up.iter().zip(strides) {
                        if *s != 0 {
                            let t = e.mul_const(*u, *s);
                            sum = Some(e.add(sum, t));
                        }
                    }
                    if *offset != 0 || sum.is_none() {
                        let c = e.constant(*offset);
                        sum = Some(e.add(sum, c));
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
                        let c = e.constant(*l);
                        out[i] = e.bin("arith.remsi", rest, c);
                        rest = e.bin("arith.divsi", rest, c);
                    }
                    out
                }
                Transform::Unmerge | Transform::Vectorize { .. } => {
                    let mut v = up[0];
                    for (u, l) in up.iter().zip(&ul).skip(1) {
                        let m = e.mul_const(v, *l);
                        v = e.bin("arith.addi", m, *u);
                    }
                    vec![v]
                }
                Transform::Freeze { value, .. } => vec![e.constant(*value)],
                Transform::Broadcast => Vec::new(),
            };
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
                let m = e.mul_const(o, *l);
                e.bin("arith.addi", m, *v)
            }
        });
    }
    let off = match off {
        Some(o) => o,
        None => e.constant(0),
    };
    let valid = match valid {
        Some(v) => v,
        None => {
            let u = e.ctx.uniquer().clone();
            let t = u.attr(AttrKind::Integer { value: 1, ty: i1 });
            e.op("arith.constant", &[], i1, vec![("value", t)])
        }
    };
    let r0 = ctx.result(op, 0);
    let r1 = ctx.result(op, 1);
    ctx.replace_all_uses(r0, off);
    ctx.replace_all_uses(r1, valid);
    ctx.erase_op(op);
    Ok(())
}

impl Pass for CoordToArith {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }
    fn run(&self, ctx: &mut Context, root: Op) -> Result<bool, Diagnostic> {
        let mut ops = Vec::new();
        ctx.walk(root, aic::ir::WalkOrder::PreOrder, &mut |_, o| {
            if ctx.op_name(o) == "coord.offset" {
                ops.push(o);
            }
        });
        let changed = !ops.is_empty();
        for op in ops {
            lower(ctx, op)?;
        }
        Ok(changed)
    }
}
