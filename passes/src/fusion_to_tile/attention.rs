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
    let mms: Vec<Op> = ops
        .iter()
        .copied()
        .filter(|o| ctx.op_name(*o) == "graph.matmul")
        .collect();
    let [mm1, mm2] = mms[..] else {
        return Err(NOT_MINE.into());
    };
    // P: the softmax's result, possibly through unit reshapes.
    let mut p = ctx.operands(mm2)[0];
    let mut taken = vec![mm1, mm2];
    while let Some(o) = ctx.defining_op(p).filter(|o| is_unit_reshape(ctx, *o)) {
        taken.push(o);
        p = ctx.operands(o)[0];
    }
    let Some(sm) = ctx
        .defining_op(p)
        .filter(|o| ctx.op_name(*o) == "graph.softmax" && ops.contains(o))
    else {
        return Err(NOT_MINE.into());
    };
    let i1 = ops.iter().position(|o| *o == mm1).expect("an op");
    let ism = ops.iter().position(|o| *o == sm).ok_or(NOT_MINE)?;
    if ism < i1 {
        return Err(NOT_MINE.into());
    }
    let mut q = operand(ctx, ctx.operands(mm1)[0], known, &mut taken)?;
    let mut k = operand(ctx, ctx.operands(mm1)[1], known, &mut taken)?;
    let mut v = operand(ctx, ctx.operands(mm2)[1], known, &mut taken)?;
    let qk = matmul_problem(ctx, mm1)?;
    q.compose(&qk.a_view)?;
    k.compose(&qk.b_view)?;
    let sshape = shape(ctx, ctx.result(mm1, 0));
    let (scores, _, cur, used) = read_chain(
        ctx,
        &ops[i1..],
        ctx.result(mm1, 0),
        known,
        &sshape,
        false,
        &mut taken,
    )?;
    if ops[i1..].get(used) != Some(&sm) || ctx.operands(sm)[0] != cur {
        return Err("the scores are not a chain into the softmax".into());
    }
    // The softmax over the keys.
    let cs = shape(ctx, cur);
    if RowOp::of(ctx, sm, known, &cs, &mut taken)?.axes != [cs.len() - 1] {
        return Err("a softmax not over the keys".into());
    }
    taken.push(sm);
    let vshape = shape(ctx, ctx.operands(mm2)[1]);
    let batched = qk.batch > 0;
    if batched != (vshape.len() > 2) || has(ctx, mm2, "transpose_a") {
        return Err("V's batch dims differ from the scores'".into());
    }
    let v_view = matrix_view(&vshape, has(ctx, mm2, "transpose_b"), batched);
    let dv = v_view.upper[v_view.upper.len() - 1];
    if v_view.upper[v_view.upper.len() - 2] != qk.n {
        return Err("V's rows are not the keys".into());
    }
    v.compose(&v_view)?;
    let oshape = shape(ctx, ctx.result(mm2, 0));
    let out_view = matrix_view(&oshape, false, batched);
    let (epilogue, tail, cur, used) = read_chain(
        ctx,
        ops,
        ctx.result(mm2, 0),
        known,
        &oshape,
        true,
        &mut taken,
    )?;
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
            float_elem(ctx, ctx.value_type(ctx.operands(mm1)[0]))?,
            float_elem(ctx, ctx.value_type(ctx.operands(mm1)[1]))?,
            float_elem(ctx, ctx.value_type(ctx.operands(mm2)[1]))?,
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
    let (bm, bn) = (t.bm, t.bn);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let (kb, bufs) = kernel_block(ctx, group, &[out_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let out_buf = *bufs.last().expect("the output");
    let [q_elem, k_elem, v_elem] = at.elems;
    let lead: Vec<i64> = (at.qk.batch > 0)
        .then_some(at.qk.batch)
        .into_iter()
        .collect();
    let space = |r: i64, c: i64| -> Vec<i64> { lead.iter().copied().chain([r, c]).collect() };
    let reg = |shape: Vec<i64>, el: Type| tile::plain_tile(&u, shape, el, Space::Register);
    let (s_t, row_t, o_t) = (
        reg(vec![bm, bn], calc),
        reg(vec![bm], calc),
        reg(vec![bm, at.dv], calc),
    );
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let m0 = e.block_start(0, bm);
    let pb = (at.qk.batch > 0).then(|| e.program_id(2));
    let origin = |i: Value, j: Value| -> Vec<Value> { pb.into_iter().chain([i, j]).collect() };
    let c0 = e.index(0);
    let q = operand_tile(
        &mut e,
        &buf,
        &at.q,
        (&space(sq, d), &origin(m0, c0), &[bm, d]),
        calc,
        q_elem,
    );
    let qs = e.stage(q, &[bm, d], q_elem, 1);
    let ninf = e.float(f64::NEG_INFINITY, calc);
    let zero = e.float(0.0, calc);
    let log2e = e.float(std::f64::consts::LOG2_E, calc);
    let neg_log2e = e.float(-std::f64::consts::LOG2_E, calc);
    let m_init = e.spread(ninf, row_t, &[]);
    let l_init = e.spread(zero, row_t, &[]);
    let acc_init = e.spread(zero, o_t, &[]);
    let (csk, cbn) = (e.index(sk), e.index(bn));
    let lb = e.ctx.create_block(&[
        (index, Some(loc)),
        (row_t, Some(loc)),
        (row_t, Some(loc)),
        (o_t, Some(loc)),
    ]);
    let la: Vec<Value> = e.ctx.block_args(lb).to_vec();
    {
        let mut l = e.inside(lb);
        let (j, m_i, l_i, acc) = (la[0], la[1], la[2], la[3]);
        let f = |name: &'static str| move |s: &mut B<'_>, a: &[Value]| s.val(name, a, calc, vec![]);
        let kt = operand_tile(
            &mut l,
            &buf,
            &at.k,
            (&space(d, sk), &origin(c0, j), &[d, bn]),
            calc,
            k_elem,
        );
        let ks = l.stage(kt, &[d, bn], k_elem, t.stages);
        let z = l.spread(zero, s_t, &[]);
        let mut s = l.gemm(qs, ks, z, s_t);
        let s_at = origin(m0, j);
        let r = At {
            bufs: &buf,
            view: &at.qk.c_view,
            at: &s_at,
            shape: &[bm, bn],
            calc,
        };
        s = emit_chain(&mut l, &at.scores, s, &r);
        if sk % bn != 0 {
            // Keys past the end score -inf: they add nothing to the softmax.
            let col = l.val(
                "tile.iota",
                &[],
                reg(vec![bm, bn], index),
                vec![("dim", l.i64_attr(1))],
            );
            s = map_typed(&mut l, &[s, col], &[calc, index], s_t, &mut |b, a| {
                let key = b.val("arith.addi", &[a[1], j], index, vec![]);
                let pred = b.i1();
                let slt = b.i64_attr(2);
                let inside = b.val("arith.cmpi", &[key, csk], pred, vec![("predicate", slt)]);
                b.val("arith.select", &[inside, a[0], ninf], calc, vec![])
            });
        }
        let mx = l.reduce_rows(s, tile::ReduceKind::Max, row_t);
        let m_new = map(&mut l, &[m_i, mx], row_t, calc, &mut f("arith.maximumf"));
        // -m·log2 e, once a row.
        let neg_ml = map(&mut l, &[m_new], row_t, calc, &mut |b, a| {
            b.val("arith.mulf", &[a[0], neg_log2e], calc, vec![])
        });
        let mb = l.spread(neg_ml, s_t, &[0]);
        // exp(x - m) = exp2(x·log2 e - m·log2 e): the probabilities, and the
        // rescaling of what came before.
        let mut exp_diff = |b: &mut B<'_>, a: &[Value]| {
            let x = b.val("math.fma", &[a[0], log2e, a[1]], calc, vec![]);
            b.val("math.exp2", &[x], calc, vec![])
        };
        let p = map(&mut l, &[s, mb], s_t, calc, &mut exp_diff);
        let alpha = map(&mut l, &[m_i, neg_ml], row_t, calc, &mut exp_diff);
        let ps = l.reduce_rows(p, tile::ReduceKind::Sum, row_t);
        let l_new = map(&mut l, &[l_i, alpha, ps], row_t, calc, &mut |b, a| {
            let x = b.val("arith.mulf", &[a[0], a[1]], calc, vec![]);
            b.val("arith.addf", &[x, a[2]], calc, vec![])
        });
        let ab = l.spread(alpha, o_t, &[0]);
        let scaled = map(&mut l, &[acc, ab], o_t, calc, &mut f("arith.mulf"));
        let vt = operand_tile(
            &mut l,
            &buf,
            &at.v,
            (&space(sk, at.dv), &origin(j, c0), &[bn, at.dv]),
            calc,
            v_elem,
        );
        let vs = l.stage(vt, &[bn, at.dv], v_elem, t.stages);
        let pv = convert(&mut l, p, &[bm, bn], calc, v_elem);
        let acc_new = l.gemm(pv, vs, scaled, o_t);
        l.op("tile.yield", &[m_new, l_new, acc_new], &[], vec![]);
    }
    let lo = e.region_op(
        "tile.for",
        &[c0, csk, cbn, m_init, l_init, acc_init],
        &[row_t, row_t, o_t],
        lb,
    );
    let (l_fin, acc_fin) = (e.ctx.result(lo, 1), e.ctx.result(lo, 2));
    let lbc = e.spread(l_fin, o_t, &[0]);
    let f = |name: &'static str| move |s: &mut B<'_>, a: &[Value]| s.val(name, a, calc, vec![]);
    let mut out = map(&mut e, &[acc_fin, lbc], o_t, calc, &mut f("arith.divf"));
    let o_at = origin(m0, c0);
    let r = At {
        bufs: &buf,
        view: &at.out_view,
        at: &o_at,
        shape: &[bm, at.dv],
        calc,
    };
    out = emit_chain(&mut e, &at.epilogue, out, &r);
    store(
        &mut e,
        out,
        out_buf,
        &o_at,
        &[bm, at.dv],
        &at.store,
        calc,
        elem,
    );
    e.op("tile.return", &[], &[], vec![]);
    let mut grid = vec![(sq + bm - 1) / bm, 1];
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
