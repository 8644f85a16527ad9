//! The back-to-back GEMM generator: attention `softmax(chain(Q Kᵀ)) V` with
//! FlashAttention's online softmax. A block owns `BM` query rows and walks
//! the keys `BN` at a time, keeping a running row maximum `m`, a running
//! denominator `l` and an unnormalised output `acc`, rescaled by
//! `exp(m_old - m_new)` as the maximum grows; the score matrix never leaves
//! registers and nothing of size `Sq x Sk` reaches memory. Each `exp(x - m)`
//! is `exp2(fma(x, log2 e, -m·log2 e))`, FlashAttention-2's form: one fma and
//! one `ex2` a score instead of the accurate `exp` (about ten instructions on
//! NVPTX); `m·log2 e` is rounded once a row, an error common to the row that
//! the normalisation cancels.

use super::gemm::{Problem, matmul_problem, matrix_view, operand_tile, store_desc};
use super::rows::RowOp;
use super::*;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::graph;

/// What the generator needs of an attention group.
struct Attention {
    /// `Q Kᵀ` as a GEMM: Q is A, K is B, the scores C.
    qk: Problem,
    /// Q over `[(batch,) Sq, D]`, computed on the fly (a bias, head-split
    /// views).
    q: Operand,
    /// K over `[(batch,) D, Sk]`.
    k: Operand,
    /// V over `[(batch,) Sk, Dv]`.
    v: Operand,
    /// The element types Q, K and V are kept in.
    elems: [Type; 3],
    /// The ops on the scores before the softmax (a scale, a mask).
    scores: Chain,
    /// Columns of the output.
    dv: i64,
    /// From `[(batch,) Sq, Dv]` to the output's logical shape.
    out_view: Desc,
    /// The epilogue on the output.
    epilogue: Chain,
    /// The output's buffer descriptor from `[(batch,) Sq, Dv]`.
    store: Desc,
}

/// Recognise `softmax(chain(Q Kᵀ)) V (+ epilogue)` among a group's ops, Q,
/// K and V possibly computed elementwise and viewed on the fly.
fn recognise(
    ctx: &Context,
    ops: &[Op],
    known: (&[Value], &Views),
    yields: &[Value],
) -> Result<Attention, Skip> {
    let mms: Vec<graph::Matmul> = ops
        .iter()
        .filter_map(|o| graph::Matmul::of(ctx, *o))
        .collect();
    let [mm1, mm2] = mms[..] else {
        return Err(NOT_MINE.into());
    };
    // P: the softmax's result, possibly through unit reshapes.
    let mut p = mm2.lhs(ctx);
    let mut taken = vec![mm1.op(), mm2.op()];
    while let Some((o, x)) = ctx
        .defining_op(p)
        .and_then(|o| Some((o, unit_reshape(ctx, o)?)))
    {
        taken.push(o);
        p = x;
    }
    let Some(sm) = graph::Softmax::defining(ctx, p).filter(|s| ops.contains(&s.op())) else {
        return Err(NOT_MINE.into());
    };
    let i1 = ops.iter().position(|o| *o == mm1.op()).expect("an op");
    let ism = ops.iter().position(|o| *o == sm.op()).ok_or(NOT_MINE)?;
    if ism < i1 {
        return Err(NOT_MINE.into());
    }
    let mut q = operand(ctx, mm1.lhs(ctx), known, &mut taken)?;
    let mut k = operand(ctx, mm1.rhs(ctx), known, &mut taken)?;
    let mut v = operand(ctx, mm2.rhs(ctx), known, &mut taken)?;
    let qk = matmul_problem(ctx, mm1)?;
    q.compose(&qk.a_view)?;
    k.compose(&qk.b_view)?;
    let sshape = shape(ctx, mm1.result(ctx));
    let (scores, _, cur, used) = read_chain(
        ctx,
        &ops[i1..],
        mm1.result(ctx),
        known,
        &sshape,
        false,
        &mut taken,
    )?;
    if ops[i1..].get(used) != Some(&sm.op()) || sm.x(ctx) != cur {
        return Err("the scores are not a chain into the softmax".into());
    }
    // The softmax over the keys.
    let cs = shape(ctx, cur);
    if RowOp::of(ctx, sm.op(), known, &cs, &mut taken)?.axes != [cs.len() - 1] {
        return Err("a softmax not over the keys".into());
    }
    taken.push(sm.op());
    let vshape = shape(ctx, mm2.rhs(ctx));
    let batched = qk.batch > 0;
    if batched != (vshape.len() > 2) || mm2.transpose_a(ctx).unwrap_or(false) {
        return Err("V's batch dims differ from the scores'".into());
    }
    let v_view = matrix_view(&vshape, mm2.transpose_b(ctx).unwrap_or(false), batched);
    let dv = v_view.upper[v_view.upper.len() - 1];
    if v_view.upper[v_view.upper.len() - 2] != qk.n {
        return Err("V's rows are not the keys".into());
    }
    v.compose(&v_view)?;
    let oshape = shape(ctx, mm2.result(ctx));
    let out_view = matrix_view(&oshape, false, batched);
    let (epilogue, tail, cur, used) =
        read_chain(ctx, ops, mm2.result(ctx), known, &oshape, true, &mut taken)?;
    if used < ops.len() {
        return Err(format!("{} is not an epilogue op", ctx.op_name(ops[used])));
    }
    if yields != [cur] {
        return Err("attention with several results".into());
    }
    if let Some(o) = ops.iter().find(|o| !taken.contains(o)) {
        return Err(format!("{} is not part of the attention", ctx.op_name(*o)));
    }
    Ok(Attention {
        scores,
        dv,
        store: store_desc(ctx, &out_view, &tail)?,
        out_view,
        epilogue,
        qk,
        q,
        k,
        v,
        elems: [
            float_elem(ctx, ctx.value_type(mm1.lhs(ctx)))?,
            float_elem(ctx, ctx.value_type(mm1.rhs(ctx)))?,
            float_elem(ctx, ctx.value_type(mm2.rhs(ctx)))?,
        ],
    })
}

/// Lower one attention group.
pub(super) fn attention(
    ctx: &mut Context,
    group: Op,
    func: Op,
    (target, cache): (&str, &Cache),
    n_kernel: usize,
) -> Result<(), Skip> {
    let body = Body::of(ctx, group)?;
    let at = recognise(ctx, &body.ops, body.known(), &body.yields)?;
    let out_ty = ctx.value_type(body.yields[0]);
    let elem = float_elem(ctx, out_ty)?;
    let calc = compute_elem(ctx, elem);
    let (sq, sk, d) = (at.qk.m, at.qk.n, at.qk.k);
    let t = cache
        .get(&format!("{target}/attention/{sq}x{sk}x{d}"))
        .copied()
        .unwrap_or_else(|| {
            let f16 = matches!(
                ctx.type_kind(at.elems[0]),
                TypeKind::Float(aic::float::FloatKind::F16)
            );
            heuristic(target, at.qk.batch, (sq, sk, d), f16)
        });
    let loc = ctx.op(group).loc;
    let (kb, bufs) = kernel_block(ctx, group, &[out_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let out_buf = *bufs.last().expect("the output");
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let k = Online::start(&mut e, &at, &buf, t, calc);
    let [_, l_fin, acc_fin] = k.key_loop(&mut e);
    // The output: the accumulator over the denominator, the epilogue.
    let lbc = spread(&mut e, l_fin, k.o_t, &[0]);
    let mut out = map(&mut e, &[acc_fin, lbc], k.o_t, calc, &mut |b, a| {
        ab::binary::<arith::DivF>(b, a[0], a[1])
    });
    let o_at = k.origin(k.m0, k.c0);
    let r = At {
        bufs: &buf,
        view: &at.out_view,
        at: &o_at,
        shape: &[t.bm, at.dv],
        calc,
    };
    out = emit_chain(&mut e, &at.epilogue, out, &r);
    let shape = [t.bm, at.dv];
    store(&mut e, out, out_buf, &o_at, &shape, &at.store, calc, elem);
    ret(&mut e);
    let mut grid = vec![(sq + t.bm - 1) / t.bm, 1];
    if at.qk.batch > 0 {
        grid.push(at.qk.batch);
    }
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("attention_{n_kernel}"),
        &grid,
        &[out_ty],
        loc,
    );
    Ok(())
}

/// `(batch,) i, j`: an origin in batch `pb`, if batched.
fn origin(pb: Option<Value>, i: Value, j: Value) -> Vec<Value> {
    pb.into_iter().chain([i, j]).collect()
}

impl Attention {
    /// `[(batch,) rows, cols]`: an operand's index space.
    fn space(&self, rows: i64, cols: i64) -> Vec<i64> {
        let lead = (self.qk.batch > 0).then_some(self.qk.batch);
        lead.into_iter().chain([rows, cols]).collect()
    }
}

/// An attention kernel's online softmax: its tiles, and the values built
/// before the key loop that each step reads.
struct Online<'a> {
    at: &'a Attention,
    /// The kernel buffer of a group input.
    buf: &'a dyn Fn(Value) -> Value,
    t: Tuning,
    calc: Type,
    /// The scores' (`BM x BN`), the rows' (`BM`) and the output's
    /// (`BM x Dv`) register tile types.
    s_t: Type,
    row_t: Type,
    o_t: Type,
    /// The block's first query row, index 0, and its batch (grid axis 2).
    m0: Value,
    c0: Value,
    pb: Option<Value>,
    /// Q's tile, staged in shared memory.
    qs: Value,
    /// The constants 0, -inf, log2 e and -log2 e of the compute type.
    zero: Value,
    ninf: Value,
    log2e: Value,
    neg_log2e: Value,
}

impl<'a> Online<'a> {
    /// The block's position, Q's tile staged, and the constants.
    fn start(
        e: &mut Builder<'_>,
        at: &'a Attention,
        buf: &'a dyn Fn(Value) -> Value,
        t: Tuning,
        calc: Type,
    ) -> Online<'a> {
        let u = e.ctx.uniquer().clone();
        let reg = |shape: Vec<i64>| tile::plain_tile(&u, shape, calc, Space::Register);
        let m0 = block_start(e, 0, t.bm);
        let pb = (at.qk.batch > 0).then(|| program_id(e, 2));
        let c0 = ab::index(e, 0);
        let (d, q_elem) = (at.qk.k, at.elems[0]);
        let q = operand_tile(
            e,
            buf,
            &at.q,
            (&at.space(at.qk.m, d), &origin(pb, m0, c0), &[t.bm, d]),
            calc,
            q_elem,
        );
        Online {
            at,
            buf,
            t,
            calc,
            s_t: reg(vec![t.bm, t.bn]),
            row_t: reg(vec![t.bm]),
            o_t: reg(vec![t.bm, at.dv]),
            m0,
            c0,
            pb,
            qs: stage(e, q, &[t.bm, d], q_elem, 1),
            ninf: ab::number(e, f64::NEG_INFINITY, calc),
            zero: ab::number(e, 0.0, calc),
            log2e: ab::number(e, std::f64::consts::LOG2_E, calc),
            neg_log2e: ab::number(e, -std::f64::consts::LOG2_E, calc),
        }
    }

    /// `(batch,) i, j`: an origin in the block's batch.
    fn origin(&self, i: Value, j: Value) -> Vec<Value> {
        origin(self.pb, i, j)
    }

    /// The tile of `o` (over `[(batch,) rows, cols]`) of `shape` at `(i,
    /// j)`, in `elem`.
    fn operand(
        &self,
        e: &mut Builder<'_>,
        o: &Operand,
        (rows, cols): (i64, i64),
        (i, j): (Value, Value),
        (r, c): (i64, i64),
        elem: Type,
    ) -> Value {
        let (space, origin) = (self.at.space(rows, cols), self.origin(i, j));
        operand_tile(e, self.buf, o, (&space, &origin, &[r, c]), self.calc, elem)
    }

    /// The loop over the keys, `BN` at a time, carrying the row maxima, the
    /// denominators and the unnormalised output; gives their final values.
    fn key_loop(&self, e: &mut Builder<'_>) -> [Value; 3] {
        let (row_t, o_t, loc) = (self.row_t, self.o_t, e.loc);
        let m_init = spread(e, self.ninf, row_t, &[]);
        let l_init = spread(e, self.zero, row_t, &[]);
        let acc_init = spread(e, self.zero, o_t, &[]);
        let (csk, cbn) = (ab::index(e, self.at.qk.n), ab::index(e, self.t.bn));
        let index = e.ctx.uniquer().ty(TypeKind::Index);
        let lb = e.ctx.create_block(&[
            (index, Some(loc)),
            (row_t, Some(loc)),
            (row_t, Some(loc)),
            (o_t, Some(loc)),
        ]);
        let la: Vec<Value> = e.ctx.block_args(lb).to_vec();
        {
            let mut l = inside(e, lb);
            let next = self.step(&mut l, [la[0], la[1], la[2], la[3]], csk);
            yield_(&mut l, &next);
        }
        let inits = [m_init, l_init, acc_init];
        let lo = for_loop(e, (self.c0, csk, cbn), &inits, &[row_t, row_t, o_t], lb);
        let r = lo.results(e.ctx);
        [r[0], r[1], r[2]]
    }

    /// One step of the key loop at key `j`, from the running maxima `m_i`,
    /// denominators `l_i` and output `acc` (`csk` the number of keys):
    /// their next values.
    fn step(&self, l: &mut Builder<'_>, [j, m_i, l_i, acc]: [Value; 4], csk: Value) -> [Value; 3] {
        let (at, t, calc) = (self.at, self.t, self.calc);
        let (s_t, row_t, o_t) = (self.s_t, self.row_t, self.o_t);
        let (bm, bn, d, sk) = (t.bm, t.bn, at.qk.k, at.qk.n);
        let [_, k_elem, v_elem] = at.elems;
        let kt = self.operand(l, &at.k, (d, sk), (self.c0, j), (d, bn), k_elem);
        let ks = stage(l, kt, &[d, bn], k_elem, t.stages);
        let z = spread(l, self.zero, s_t, &[]);
        let mut s = block_gemm(l, self.qs, ks, z, s_t);
        let s_at = self.origin(self.m0, j);
        let r = At {
            bufs: self.buf,
            view: &at.qk.c_view,
            at: &s_at,
            shape: &[bm, bn],
            calc,
        };
        s = emit_chain(l, &at.scores, s, &r);
        if sk % bn != 0 {
            // Keys past the end score -inf: they add nothing to the softmax.
            let index = l.ctx.uniquer().ty(TypeKind::Index);
            let col_t = tile::plain_tile(l.ctx.uniquer(), vec![bm, bn], index, Space::Register);
            let col = iota(l, 1, col_t);
            let ninf = self.ninf;
            s = map_typed(l, &[s, col], &[calc, index], s_t, &mut |b, a| {
                let key = ab::binary::<arith::AddI>(b, a[1], j);
                let inside = ab::cmpi(b, ab::CmpIPredicate::Slt, key, csk);
                ab::select(b, inside, a[0], ninf)
            });
        }
        let mx = reduce_rows(l, s, tile::ReduceKind::Max, row_t);
        let m_new = map(l, &[m_i, mx], row_t, calc, &mut |b, a| {
            ab::binary::<arith::MaximumF>(b, a[0], a[1])
        });
        // -m·log2 e, once a row.
        let neg_log2e = self.neg_log2e;
        let neg_ml = map(l, &[m_new], row_t, calc, &mut |b, a| {
            ab::binary::<arith::MulF>(b, a[0], neg_log2e)
        });
        let mb = spread(l, neg_ml, s_t, &[0]);
        // exp(x - m) = exp2(x·log2 e - m·log2 e): the probabilities, and the
        // rescaling of what came before.
        let log2e = self.log2e;
        let mut exp_diff = |b: &mut Builder<'_>, a: &[Value]| exp2_fma(b, a[0], log2e, a[1]);
        let p = map(l, &[s, mb], s_t, calc, &mut exp_diff);
        let alpha = map(l, &[m_i, neg_ml], row_t, calc, &mut exp_diff);
        let ps = reduce_rows(l, p, tile::ReduceKind::Sum, row_t);
        let l_new = map(l, &[l_i, alpha, ps], row_t, calc, &mut |b, a| {
            let x = ab::binary::<arith::MulF>(b, a[0], a[1]);
            ab::binary::<arith::AddF>(b, x, a[2])
        });
        let alpha_bc = spread(l, alpha, o_t, &[0]);
        let scaled = map(l, &[acc, alpha_bc], o_t, calc, &mut |b, a| {
            ab::binary::<arith::MulF>(b, a[0], a[1])
        });
        let vt = self.operand(l, &at.v, (sk, at.dv), (j, self.c0), (bn, at.dv), v_elem);
        let vs = stage(l, vt, &[bn, at.dv], v_elem, t.stages);
        let pv = convert(l, p, &[bm, bn], calc, v_elem);
        let acc_new = block_gemm(l, pv, vs, scaled, o_t);
        [m_new, l_new, acc_new]
    }
}

/// Blocks that H100's 132 SMs should get at least, two each, before an
/// attention takes 128 queries a block.
const H100_BLOCKS: i64 = 2 * 132;

/// The built-in choice for an attention of `batch` heads, `sq` queries, `sk`
/// keys and head dim `d` (Q in f16 or not): on h100 with f16 (the
/// tensor-core loop), 128 queries a block in 2 stages where the grid still
/// gives every SM two blocks, 128 keys a step for head dims up to 64 (the
/// scores and the output then fill a lane's registers), else 64 (b4 h16
/// s4096 d64 on an H100: 0.954 ms at 128 x 128, 1.006 at 128 x 64 (1.039
/// in 3 stages), 1.193 at 64 x 64 in 3 stages); elsewhere
/// [`Tuning::heuristic`].
fn heuristic(target: &str, batch: i64, (sq, sk, d): (i64, i64, i64), f16: bool) -> Tuning {
    let base = Tuning::heuristic(target, sq, sk, d);
    if target == "h100" && f16 && batch.max(1) * ((sq + 127) / 128) >= H100_BLOCKS {
        Tuning {
            bm: 128,
            bn: if d <= 64 { 128 } else { 64 },
            stages: 2,
            ..base
        }
    } else {
        base
    }
}
