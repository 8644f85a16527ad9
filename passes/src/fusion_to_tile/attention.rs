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

use super::gemm::{Problem, mark_tuned, matmul_problem, matrix_view, operand_tile, store_desc};
use super::rows::RowOp;
use super::tuning::{Signature, Template, Tuner, hopper_attention};
use super::views::{Source, view_desc};
use super::*;
use aic::interp::{Data, tensor_of_attr};
use aic_dialects::arith::{self, build as ab};
use aic_dialects::graph::{self, scalar::compute_type};
use aic_dialects::stablehlo::ComparisonDirection;

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
    /// The elementwise DAG on the scores before the softmax (a scale, an
    /// additive mask, a causal select, casts), its last node the softmax's
    /// input.
    scores: Vec<Score>,
    /// With a causal mask (keys past `query + c` score -inf), `c`: key
    /// blocks past a block's last query are skipped; and the mask's node
    /// (the select).
    causal: Option<(i64, usize)>,
    /// A positive constant scale `c` of the scores (`Q Kᵀ · c` or `/ 1/c`)
    /// that only order-preserving nodes follow (the causal select, widening
    /// casts), and its node: what `exp2`'s fma can take instead.
    scale: Option<(usize, f64)>,
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
    outer: &[Value],
    yields: &[Value],
) -> Result<Attention, Skip> {
    let mms: Vec<graph::Matmul> = ops
        .iter()
        .filter_map(|o| graph::Matmul::of(ctx, *o))
        .collect();
    let [mm1, mm2] = mms[..] else {
        return Err(NOT_MINE.into());
    };
    // P: the softmax's result, possibly through unit reshapes and a cast
    // to V's type (f32 softmax, f16 P V).
    let mut p = mm2.lhs(ctx);
    let mut taken = vec![mm1.op(), mm2.op()];
    let v_elem = float_elem(ctx, ctx.value_type(mm2.rhs(ctx)))?;
    while let Some((o, x)) = ctx.defining_op(p).and_then(|o| {
        let x = unit_reshape(ctx, o).or_else(|| {
            let c = graph::Cast::of(ctx, o)?;
            let to = float_elem(ctx, ctx.value_type(c.result(ctx))).ok()?;
            float_elem(ctx, ctx.value_type(c.x(ctx))).ok()?;
            (to == v_elem).then(|| c.x(ctx))
        })?;
        Some((o, x))
    }) {
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
    // The scores' DAG, in the softmax input's index space.
    let cur = sm.x(ctx);
    let cs = shape(ctx, cur);
    let s_view = matrix_view(&cs, false, qk.batch > 0);
    if s_view.upper != qk.c_view.upper {
        return Err("the softmax's input is not laid out as the scores".into());
    }
    let mut dag = ScoreReader {
        ctx,
        known,
        outer,
        mm: mm1.result(ctx),
        full: cs.clone(),
        nodes: Vec::new(),
        memo: Vec::new(),
    };
    let ident: Vec<Option<usize>> = (0..cs.len()).map(Some).collect();
    dag.visit(cur, &Desc::identity(&cs), Some(&ident), &mut taken)?;
    let mut scores = dag.nodes;
    for n in scores.iter_mut() {
        if let Score::Load(src, _) = n {
            src.desc = over(&src.desc, &s_view)?;
        }
    }
    let calc = compute_elem(ctx, float_elem(ctx, ctx.value_type(cur))?);
    if compute_elem(ctx, float_elem(ctx, ctx.value_type(yields[0]))?) != calc {
        return Err("scores computed in another type than the output".into());
    }
    let causal = causal_offset(ctx, &scores);
    let scale = folded_scale(ctx, &scores, causal.map(|(_, i)| i));
    // The softmax over the keys.
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
        scale,
        scores,
        causal,
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
    tuner: &Tuner<'_>,
    n_kernel: usize,
) -> Result<(), Skip> {
    let body = Body::of(ctx, group)?;
    let outer = ctx.operands(group).to_vec();
    let at = recognise(ctx, &body.ops, body.known(), &outer, &body.yields)?;
    let out_ty = ctx.value_type(body.yields[0]);
    let elem = float_elem(ctx, out_ty)?;
    let calc = compute_elem(ctx, elem);
    let (sq, sk, d) = (at.qk.m, at.qk.n, at.qk.k);
    // f16 or bf16: tensor-core tiles.
    let f16 = matches!(
        ctx.type_kind(at.elems[0]),
        TypeKind::Float(aic::float::FloatKind::F16 | aic::float::FloatKind::BF16)
    );
    // Hopper's form where wgmma can run both gemms (head dims of whole
    // 128-byte rows).
    let hopper = hopper_attention(tuner.wgmma, f16, d, at.dv);
    let sig = Signature {
        template: Template::Attention {
            dv: at.dv,
            causal: at.causal.is_some(),
        },
        batch: at.qk.batch,
        m: sq,
        n: sk,
        k: d,
        elem: aic::printer::type_text(ctx.uniquer(), at.elems[0]),
        siblings: 1,
        rows: false,
    };
    let (t, key) = tuner.pick(&sig);
    let loc = ctx.op(group).loc;
    let (kb, bufs) = kernel_block(ctx, group, &[out_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let out_buf = *bufs.last().expect("the output");
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    // Hopper's loop masks only the diagonal key blocks (opt-in with the
    // wgmma tiles).
    let k = Online::start(&mut e, &at, &buf, t, calc, hopper);
    let [_, l_fin, acc_fin] = k.key_loop(&mut e)?;
    // The output: the accumulator times the denominator's reciprocal (one
    // division a row, as FlashAttention normalises; within 1.5 ulp of the
    // quotient), the epilogue.
    let l_ty = e.ctx.value_type(l_fin);
    let inv = map(&mut e, &[l_fin], l_ty, calc, &mut |b, a| {
        let one = ab::number(b, 1.0, calc);
        ab::binary::<arith::DivF>(b, one, a[0])
    });
    let ibc = spread(&mut e, inv, k.o_t, &[0]);
    let mut out = map(&mut e, &[acc_fin, ibc], k.o_t, calc, &mut |b, a| {
        ab::binary::<arith::MulF>(b, a[0], a[1])
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
    let kernel = finish(
        ctx,
        group,
        func,
        kb,
        &format!("attention_{n_kernel}"),
        &grid,
        &[out_ty],
        loc,
    );
    mark_tuned(ctx, kernel, &key);
    super::gemm::write_kernel_tuning(ctx, kernel, &t);
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
    /// Hopper's form (with the wgmma tiles): causal key blocks below the
    /// diagonal run in a loop of their own, unmasked
    /// ([`Online::key_loop`]), and a constant scale of the scores is
    /// folded into `log2e` (`exp2(x·c·log2 e - m·c·log2 e)`, one fma a
    /// score, the row maxima taken of the unscaled scores).
    split: bool,
    /// The constants 0, -inf, log2 e and -log2 e of the compute type.
    zero: Value,
    ninf: Value,
    log2e: Value,
    neg_log2e: Value,
}

/// The block's first query row and its batch. Under a causal mask the
/// query blocks' work grows with their rows, so the blocks run heaviest
/// first (as FlashAttention orders them), the short ones filling the last
/// wave; and the batches go in groups of `G` (a divisor of the batch
/// count whose keys and values fit a few MiB: [`causal_group`]), so that
/// the blocks running at once read the keys and values of a few batches,
/// which stay in L2, instead of every batch's (b4 h16 s4096 d128 on the
/// H100 read 1.25 GB from DRAM in all). The `L`-th block of the grid
/// (`L = z · blocks + x`, the order the hardware starts them in) is the
/// `r = L mod (G · blocks)`-th of group `g = L / (G · blocks)`: query
/// block `blocks - 1 - r / G` of batch `g · G + r mod G`. Otherwise block
/// `x` of batch `z`.
fn block_origin(e: &mut Builder<'_>, at: &Attention, bm: i64) -> (Value, Option<Value>) {
    if at.causal.is_none() {
        let m0 = block_start(e, 0, bm);
        return (m0, (at.qk.batch > 0).then(|| program_id(e, 2)));
    }
    let blocks = (at.qk.m + bm - 1) / bm;
    let x = program_id(e, 0);
    let last = ab::index(e, blocks - 1);
    let bmc = ab::index(e, bm);
    if at.qk.batch <= 1 {
        let q = ab::binary::<arith::SubI>(e, last, x);
        let m0 = ab::binary::<arith::MulI>(e, q, bmc);
        return (m0, (at.qk.batch > 0).then(|| program_id(e, 2)));
    }
    let elem = aic_dialects::gpu::elem_bytes(e.ctx, at.elems[1]);
    let group = causal_group(at, elem);
    let z = program_id(e, 2);
    let nb = ab::index(e, blocks);
    let zl = ab::binary::<arith::MulI>(e, z, nb);
    let l = ab::binary::<arith::AddI>(e, zl, x);
    let per = ab::index(e, group * blocks);
    let g = ab::binary::<arith::DivUI>(e, l, per);
    let r = ab::binary::<arith::RemUI>(e, l, per);
    let cg = ab::index(e, group);
    let step = ab::binary::<arith::DivUI>(e, r, cg);
    let q = ab::binary::<arith::SubI>(e, last, step);
    let m0 = ab::binary::<arith::MulI>(e, q, bmc);
    let within = ab::binary::<arith::RemUI>(e, r, cg);
    let first = ab::binary::<arith::MulI>(e, g, cg);
    let b = ab::binary::<arith::AddI>(e, first, within);
    (m0, Some(b))
}

/// Bytes of keys and values a causal attention's group of batches reads
/// at most ([`block_origin`]): a few MiB, well inside an H100's 50 MiB L2
/// (and an MI300's 4 MiB a chiplet, mostly) with the next group's.
const CAUSAL_GROUP_BYTES: i64 = 8 << 20;

/// The batches of a causal attention's group ([`block_origin`]): the
/// largest divisor of the batch count whose batches' keys and values
/// (`elem` bytes an element) take at most [`CAUSAL_GROUP_BYTES`], at
/// least 1.
fn causal_group(at: &Attention, elem: i64) -> i64 {
    let per_batch = at.qk.n * (at.qk.k + at.dv) * elem;
    let most = (CAUSAL_GROUP_BYTES / per_batch.max(1)).max(1);
    (1..=most.min(at.qk.batch.max(1)))
        .rev()
        .find(|g| at.qk.batch % g == 0)
        .unwrap_or(1)
}

impl<'a> Online<'a> {
    /// The block's position, Q's tile staged, and the constants.
    fn start(
        e: &mut Builder<'_>,
        at: &'a Attention,
        buf: &'a dyn Fn(Value) -> Value,
        t: Tuning,
        calc: Type,
        split: bool,
    ) -> Online<'a> {
        let u = e.ctx.uniquer().clone();
        let reg = |shape: Vec<i64>| tile::plain_tile(&u, shape, calc, Space::Register);
        // The scale exp2's fma takes (Hopper's form), else 1.
        let folded = at.scale.filter(|_| split).map_or(1.0, |(_, c)| c);
        let (m0, pb) = block_origin(e, at, t.bm);
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
            split,
            ninf: ab::number(e, f64::NEG_INFINITY, calc),
            zero: ab::number(e, 0.0, calc),
            log2e: ab::number(e, std::f64::consts::LOG2_E * folded, calc),
            neg_log2e: ab::number(e, -std::f64::consts::LOG2_E * folded, calc),
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
    fn key_loop(&self, e: &mut Builder<'_>) -> Result<[Value; 3], Skip> {
        let (row_t, o_t) = (self.row_t, self.o_t);
        let m_init = spread(e, self.ninf, row_t, &[]);
        let l_init = spread(e, self.zero, row_t, &[]);
        let acc_init = spread(e, self.zero, o_t, &[]);
        let (csk, cbn) = (ab::index(e, self.at.qk.n), ab::index(e, self.t.bn));
        // Causal: no key past the block's last query `+ c` scores.
        let hi = match self.at.causal {
            Some((c, _)) => {
                let last = ab::index(e, self.t.bm + c);
                let end = ab::binary::<arith::AddI>(e, self.m0, last);
                ab::binary::<arith::MinSI>(e, end, csk)
            }
            None => csk,
        };
        let mut carried = [m_init, l_init, acc_init];
        let mut lo = self.c0;
        // With `split`, the key blocks wholly below the block's first query
        // `+ c` (and wholly before the end) first, without masks; then the
        // rest, masked: only the diagonal blocks and a ragged last one.
        if let (true, Some((c, _))) = (self.split, self.at.causal) {
            let (bn, sk) = (self.t.bn, self.at.qk.n);
            let first = ab::index(e, c + 1);
            let keep = ab::binary::<arith::AddI>(e, self.m0, first);
            let blocks = ab::binary::<arith::DivUI>(e, keep, cbn);
            let mid = ab::binary::<arith::MulI>(e, blocks, cbn);
            let whole = ab::index(e, sk / bn * bn);
            let mid = ab::binary::<arith::MinSI>(e, mid, whole);
            let mid = ab::binary::<arith::MinSI>(e, mid, hi);
            carried = self.loop_over(e, (lo, mid), carried, false)?;
            lo = mid;
        }
        self.loop_over(e, (lo, hi), carried, true)
    }

    /// The loop over keys `lo..hi`, `BN` at a time, from the carried
    /// values; `masked`: the scores' masks applied (else no key block it
    /// visits is masked).
    fn loop_over(
        &self,
        e: &mut Builder<'_>,
        (lo, hi): (Value, Value),
        inits: [Value; 3],
        masked: bool,
    ) -> Result<[Value; 3], Skip> {
        let (row_t, o_t, loc) = (self.row_t, self.o_t, e.loc);
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
            let next = self.step(&mut l, [la[0], la[1], la[2], la[3]], csk, masked)?;
            yield_(&mut l, &next);
        }
        let lo = for_loop(e, (lo, hi, cbn), &inits, &[row_t, row_t, o_t], lb);
        let r = lo.results(e.ctx);
        Ok([r[0], r[1], r[2]])
    }

    /// One step of the key loop at key `j`, from the running maxima `m_i`,
    /// denominators `l_i` and output `acc` (`csk` the number of keys):
    /// their next values.
    fn step(
        &self,
        l: &mut Builder<'_>,
        [j, m_i, l_i, acc]: [Value; 4],
        csk: Value,
        masked: bool,
    ) -> Result<[Value; 3], Skip> {
        let (at, t, calc) = (self.at, self.t, self.calc);
        let (s_t, row_t, o_t) = (self.s_t, self.row_t, self.o_t);
        let (bm, bn, d, sk) = (t.bm, t.bn, at.qk.k, at.qk.n);
        let [_, k_elem, v_elem] = at.elems;
        let kt = self.operand(l, &at.k, (d, sk), (self.c0, j), (d, bn), k_elem);
        let ks = stage(l, kt, &[d, bn], k_elem, t.stages);
        let z = spread(l, self.zero, s_t, &[]);
        let s = block_gemm(l, self.qs, ks, z, s_t);
        let mut s = self.scores(l, s, j, masked)?;
        if sk % bn != 0 && masked {
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
        let mut exp_diff = |b: &mut Builder<'_>, a: &[Value]| exp2_fma(b, a[0], log2e, a[1], true);
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
        Ok([m_new, l_new, acc_new])
    }

    /// The scores' DAG on the tile `s` of `Q Kᵀ` at key `j`: one map per
    /// op, each in its result's compute type (lowered by the op's
    /// [`graph::SEMANTICS`] row); constants are literals, indices iotas.
    fn scores(&self, l: &mut Builder<'_>, s: Value, j: Value, masked: bool) -> Result<Value, Skip> {
        let (bm, bn) = (self.t.bm, self.t.bn);
        let u = l.ctx.uniquer().clone();
        let index = u.ty(TypeKind::Index);
        let tile_of = |elem: Type| tile::plain_tile(&u, vec![bm, bn], elem, Space::Register);
        let at = self.origin(self.m0, j);
        // Each node's tile (none for a constant) and compute type.
        let mut tiles: Vec<(Option<Value>, Type)> = Vec::new();
        // Unmasked, the causal select passes its scores through, and what
        // only its predicate reads is not computed.
        let skip = self.at.causal.filter(|_| !masked).map(|(_, i)| i);
        let nodes = &self.at.scores;
        let mut live = vec![false; nodes.len()];
        if let Some(l) = live.last_mut() {
            *l = true;
        }
        for i in (0..nodes.len()).rev() {
            if let (true, Score::Op(_, args)) = (live[i], &nodes[i]) {
                let read = if Some(i) == skip {
                    &args[1..2]
                } else {
                    &args[..]
                };
                for a in read {
                    live[*a] = true;
                }
            }
        }
        // Hopper's form scales in exp2's fma (Online::exp2_scale).
        let folded = self.at.scale.filter(|_| self.split).map(|(i, _)| i);
        for (i, n) in nodes.iter().enumerate() {
            let t = match n {
                _ if !live[i] => (None, self.calc),
                Score::Op(_, args) if Some(i) == folded => {
                    let s = args.iter().find(|a| matches!(nodes[**a], Score::Scores));
                    tiles[*s.expect("the scores")]
                }
                Score::Op(_, args) if Some(i) == skip => tiles[args[1]],
                Score::Scores => (Some(s), self.calc),
                Score::Load(src, elem) => {
                    let c = compute_type(&u, *elem);
                    let buf = (self.buf)(src.input);
                    (Some(load(l, buf, &at, &[bm, bn], &src.desc, c)), c)
                }
                Score::Const(_, elem) => (None, compute_type(&u, *elem)),
                Score::Index { key, elem } => {
                    let c = compute_type(&u, *elem);
                    let io = iota(l, i64::from(*key), tile_of(index));
                    let base = if *key { j } else { self.m0 };
                    let t = map_typed(l, &[io], &[index], tile_of(c), &mut |b, a| {
                        let x = ab::binary::<arith::AddI>(b, a[0], base);
                        if c == index {
                            x
                        } else {
                            ab::cast::<arith::IndexCast>(b, x, c)
                        }
                    });
                    (Some(t), c)
                }
                Score::Op(op, args) => {
                    let row = graph::semantics(l.ctx.op_name(*op))
                        .and_then(|r| r.scalar)
                        .expect("checked when read");
                    let r_elem = float_or_int_elem(l.ctx, l.ctx.result(*op, 0));
                    let c = compute_type(&u, r_elem);
                    let (mut ins, mut elems) = (Vec::new(), Vec::new());
                    for a in args {
                        if let (Some(t), e) = tiles[*a] {
                            ins.push(t);
                            elems.push(e);
                        }
                    }
                    let nodes = &self.at.scores;
                    let mut failed = None;
                    let t = map_typed(l, &ins, &elems, tile_of(c), &mut |b, xs| {
                        let mut next = xs.iter();
                        let vals: Vec<Value> = args
                            .iter()
                            .map(|a| match (&nodes[*a], tiles[*a]) {
                                (Score::Const(v, _), (None, ty)) => v.emit(b, ty),
                                _ => *next.next().expect("a tile a node"),
                            })
                            .collect();
                        row(b, *op, &vals).unwrap_or_else(|why| {
                            failed = Some(why);
                            vals[0]
                        })
                    });
                    if let Some(why) = failed {
                        return Err(why);
                    }
                    (Some(t), c)
                }
            };
            tiles.push(t);
        }
        match tiles.last() {
            Some((Some(t), c)) if *c == self.calc => Ok(*t),
            _ => Err("the scores' last value is not a tile of the compute type".into()),
        }
    }
}

/// The element type of value `v` (of a tensor, or `v`'s own type).
fn float_or_int_elem(ctx: &Context, v: Value) -> Type {
    let t = ctx.value_type(v);
    ctx.type_kind(t).element_type().unwrap_or(t)
}

/// A scalar constant of the scores' DAG.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num {
    F(f64),
    I(i64),
}

impl Num {
    /// The constant as an `arith.constant` of `ty`.
    fn emit(self, b: &mut Builder<'_>, ty: Type) -> Value {
        let width = match b.ctx.type_kind(ty) {
            TypeKind::Integer { width, .. } => Some(*width),
            _ => None,
        };
        match (self, width) {
            (Num::I(v), Some(1)) => ab::int(b, i64::from(v != 0), ty),
            (Num::I(v), Some(_)) => ab::int(b, v, ty),
            (Num::I(v), None) => ab::number(b, v as f64, ty),
            (Num::F(v), _) => ab::number(b, v, ty),
        }
    }
}

/// A node of the scores' elementwise DAG, in the index space of the
/// softmax's input; nodes come after their operands.
#[derive(Clone, Debug)]
enum Score {
    /// `Q Kᵀ` itself.
    Scores,
    /// A group input read through a descriptor (from `[(batch,) Sq, Sk]`
    /// once read), of storage element type `elem`.
    Load(Source, Type),
    /// A single-element constant (a group input defined by
    /// `graph.constant`), of storage element type `elem`.
    Const(Num, Type),
    /// The query (or, with `key`, the key) index: an iota along that dim.
    Index { key: bool, elem: Type },
    /// An elementwise graph op on earlier nodes.
    Op(Op, Vec<usize>),
}

/// Reads the scores' DAG back from the softmax's input.
struct ScoreReader<'a> {
    ctx: &'a Context,
    known: (&'a [Value], &'a Views),
    /// The group's operands (what its inputs are outside it).
    outer: &'a [Value],
    /// `Q Kᵀ`.
    mm: Value,
    /// The softmax input's shape.
    full: Vec<i64>,
    nodes: Vec<Score>,
    memo: Vec<((Value, Desc), usize)>,
}

/// For each dim of a view's operand, the dim of the scores' index space it
/// follows (`None`: a unit dim, index 0), from those of the view's result
/// (`dims`); `None` where the view mixes dims (a reshape that is not only
/// of unit dims, a slice).
fn view_dims(ctx: &Context, o: Op, dims: &[Option<usize>]) -> Option<Vec<Option<usize>>> {
    if let Some(b) = graph::Broadcast::of(ctx, o) {
        let (xs, rs) = (shape(ctx, b.x(ctx)), shape(ctx, b.result(ctx)));
        let bd = b.dims(ctx)?;
        if bd.len() != xs.len() {
            return None;
        }
        let map = xs.iter().zip(&bd).map(|(n, j)| {
            let j = usize::try_from(*j).ok()?;
            Some(if *n == 1 && rs[j] != 1 { None } else { dims[j] })
        });
        map.collect()
    } else if let Some(t) = graph::Transpose::of(ctx, o) {
        let perm = t.perm(ctx)?;
        let mut out = vec![None; perm.len()];
        for (i, p) in perm.iter().enumerate() {
            *out.get_mut(usize::try_from(*p).ok()?)? = dims[i];
        }
        Some(out)
    } else if graph::Reshape::of(ctx, o).is_some() && unit_reshape(ctx, o).is_some() {
        let (xs, rs) = (shape(ctx, ctx.operands(o)[0]), shape(ctx, ctx.result(o, 0)));
        let mut big = rs.iter().zip(dims).filter(|(n, _)| **n != 1).map(|p| *p.1);
        Some(
            xs.iter()
                .map(|n| if *n == 1 { None } else { big.next().flatten() })
                .collect(),
        )
    } else if graph::Cast::of(ctx, o).is_some() {
        Some(dims.to_vec())
    } else {
        None
    }
}

impl ScoreReader<'_> {
    /// The node of `v`, read at `to` (from the softmax input's index space
    /// to `v`'s), whose dims follow those of the scores' as `dims` says.
    fn visit(
        &mut self,
        v: Value,
        to: &Desc,
        dims: Option<&[Option<usize>]>,
        taken: &mut Vec<Op>,
    ) -> Result<usize, Skip> {
        let key = (v, to.clone());
        if let Some((_, i)) = self.memo.iter().find(|(k, _)| *k == key) {
            return Ok(*i);
        }
        let ctx = self.ctx;
        let rank = self.full.len();
        let elem = float_or_int_elem(ctx, v);
        let vs = shape(ctx, v);
        let node = if v == self.mm {
            // Q Kᵀ, in order: only unit dims added or dropped.
            let d = dims.ok_or("the scores through a view that mixes dims")?;
            let on: Vec<usize> = d.iter().flatten().copied().collect();
            let covered = (0..rank).all(|t| self.full[t] == 1 || on.contains(&t));
            let whole = vs.iter().zip(d).all(|(n, x)| *n == 1 || x.is_some());
            if !on.windows(2).all(|w| w[0] < w[1]) || !covered || !whole {
                return Err("the scores seen through a view that reorders them".into());
            }
            Score::Scores
        } else if let Some(n) = self.leaf(v, elem, dims)? {
            n
        } else if let Some(p) = ctx.defining_op(v)
            && let Some((x, d)) = view_desc(ctx, p)
        {
            let to = d.compose(to).map_err(|e| e.to_string())?;
            let dims = dims.and_then(|ds| view_dims(ctx, p, ds));
            taken.push(p);
            let i = self.visit(x, &to, dims.as_deref(), taken)?;
            self.memo.push((key, i));
            return Ok(i);
        } else if self.known.0.contains(&v) {
            let desc = Desc::row_major(&vs)
                .compose(to)
                .map_err(|e| e.to_string())?;
            Score::Load(Source { input: v, desc }, elem)
        } else {
            let p = ctx.defining_op(v).ok_or("scores from outside the group")?;
            let name = ctx.op_name(p);
            if graph::semantics(name).and_then(|r| r.scalar).is_none() {
                return Err(format!("scores computed by {name}"));
            }
            let bias = graph::BiasAdd::is(ctx, p);
            let mut args = Vec::new();
            for (k, a) in ctx.operands(p).to_vec().into_iter().enumerate() {
                let s = shape(ctx, a);
                if bias && k == 1 && s != vs {
                    let r = vs.len();
                    let d = Desc::broadcast(&s, &vs, &[r.saturating_sub(1)]);
                    let to = d.compose(to).map_err(|e| e.to_string())?;
                    let dims: Option<Vec<Option<usize>>> =
                        dims.map(|ds| vec![ds.last().copied().flatten()]);
                    args.push(self.visit(a, &to, dims.as_deref(), taken)?);
                } else if s != vs {
                    return Err(format!("{name} of an operand of shape {s:?} on the scores"));
                } else {
                    args.push(self.visit(a, to, dims, taken)?);
                }
            }
            if !taken.contains(&p) {
                taken.push(p);
            }
            Score::Op(p, args)
        };
        self.nodes.push(node);
        let i = self.nodes.len() - 1;
        self.memo.push((key, i));
        Ok(i)
    }

    /// `v` as a constant or an index, if it is a group input defined by (or
    /// an op of the group that is) `graph.constant` of one element or
    /// `graph.iota`.
    fn leaf(
        &self,
        v: Value,
        elem: Type,
        dims: Option<&[Option<usize>]>,
    ) -> Result<Option<Score>, Skip> {
        let ctx = self.ctx;
        let def = match self.known.0.iter().position(|x| *x == v) {
            Some(i) => ctx.defining_op(self.outer[i]),
            None => ctx.defining_op(v),
        };
        let Some(d) = def else { return Ok(None) };
        if let Some(c) = graph::Constant::of(ctx, d) {
            let value = aic::constraints::op_attr(ctx, c.op(), "value");
            let t = value.and_then(|a| tensor_of_attr(ctx.uniquer(), a, ctx.value_type(v)));
            return Ok(match t {
                Some(t) if t.len() == 1 => match &t.data {
                    Data::Float(f) => Some(Score::Const(Num::F(f.first()), elem)),
                    Data::Int(n) => Some(Score::Const(Num::I(n.first()), elem)),
                    _ => None,
                },
                _ => None,
            });
        }
        if let Some(io) = graph::Iota::of(ctx, d) {
            let dim = usize::try_from(io.dim(ctx).ok_or("an iota without a dim")?)
                .map_err(|_| "an iota of a negative dim".to_string())?;
            let d = dims.ok_or("an index through a view that mixes dims")?;
            if !matches!(
                ctx.type_kind(compute_type(ctx.uniquer(), elem)),
                TypeKind::Integer { .. } | TypeKind::Index
            ) {
                return Err("an iota of floats on the scores".into());
            }
            let rank = self.full.len();
            return Ok(Some(match d.get(dim).copied().flatten() {
                None => Score::Const(Num::I(0), elem),
                Some(t) if t + 1 == rank => Score::Index { key: true, elem },
                Some(t) if t + 2 == rank => Score::Index { key: false, elem },
                Some(_) => return Err("an index along a batch dim of the scores".into()),
            }));
        }
        Ok(None)
    }
}

/// `a·query + b·key + c` of an integer node, if it is one.
fn linear(ctx: &Context, nodes: &[Score], i: usize) -> Option<[i64; 3]> {
    match &nodes[i] {
        Score::Index { key: false, .. } => Some([1, 0, 0]),
        Score::Index { key: true, .. } => Some([0, 1, 0]),
        Score::Const(Num::I(c), _) => Some([0, 0, *c]),
        Score::Op(op, args) => {
            let arg = |k: usize| linear(ctx, nodes, args[k]);
            let both = |f: fn(i64, i64) -> i64| -> Option<[i64; 3]> {
                let (x, y) = (arg(0)?, arg(1)?);
                Some([f(x[0], y[0]), f(x[1], y[1]), f(x[2], y[2])])
            };
            if graph::Add::is(ctx, *op) {
                both(|x, y| x + y)
            } else if graph::Sub::is(ctx, *op) {
                both(|x, y| x - y)
            } else if graph::Cast::is(ctx, *op)
                && matches!(
                    ctx.type_kind(float_or_int_elem(ctx, ctx.result(*op, 0))),
                    TypeKind::Integer { width, .. } if *width > 1
                )
            {
                arg(0)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `a·query + b·key + c >= 0` of a predicate node, if it is one.
fn half_plane(ctx: &Context, nodes: &[Score], i: usize) -> Option<[i64; 3]> {
    let Score::Op(op, args) = &nodes[i] else {
        return None;
    };
    if let Some(c) = graph::Compare::of(ctx, *op) {
        let (x, y) = (linear(ctx, nodes, args[0])?, linear(ctx, nodes, args[1])?);
        let d = [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
        let neg = [-d[0], -d[1], -d[2]];
        return match c.direction(ctx)? {
            ComparisonDirection::Ge => Some(d),
            ComparisonDirection::Gt => Some([d[0], d[1], d[2] - 1]),
            ComparisonDirection::Le => Some(neg),
            ComparisonDirection::Lt => Some([neg[0], neg[1], neg[2] - 1]),
            _ => None,
        };
    }
    if graph::Select::is(ctx, *op)
        && matches!(nodes[args[1]], Score::Const(Num::I(t), _) if t != 0)
        && matches!(nodes[args[2]], Score::Const(Num::I(0), _))
    {
        return half_plane(ctx, nodes, args[0]);
    }
    None
}

/// `c` and the select's node if the scores' DAG ends (up to float casts)
/// in `select(key <= query + c, x, -inf)` with `c >= 0` (every query keeps
/// key 0, so skipping the keys past `query + c` drops only zeros from the
/// softmax), possibly inside other selects to -inf (a dynamic sequence's
/// key mask, which the skipped keys would only drop again).
fn causal_offset(ctx: &Context, nodes: &[Score]) -> Option<(i64, usize)> {
    let mut i = nodes.len().checked_sub(1)?;
    while let Score::Op(op, args) = &nodes[i]
        && graph::Cast::is(ctx, *op)
    {
        i = args[0];
    }
    let Score::Op(op, args) = &nodes[i] else {
        return None;
    };
    let lowest = matches!(nodes[*args.get(2)?], Score::Const(Num::F(v), _) if v <= -65504.0);
    if !graph::Select::is(ctx, *op) || !lowest {
        return None;
    }
    match half_plane(ctx, nodes, args[0]) {
        Some([1, -1, c]) if c >= 0 => Some((c, i)),
        // Another mask to -inf around it (a dynamic sequence's keys past its
        // length): what the causal select drops stays dropped, so look inside.
        _ => causal_offset(ctx, &nodes[..=args[1]]),
    }
}

/// The node multiplying the scores by a positive constant `c` (`x · c`,
/// `c · x` or `x / (1/c)`), and `c`, if the scores are read by it alone and
/// it reaches the softmax through order-preserving nodes only (`select`, the
/// causal one at `causal`, of the scaled scores; casts to f32): the softmax
/// of `c·x` is then `exp2(x·c·log2 e - max(x)·c·log2 e)` over the row.
fn folded_scale(ctx: &Context, nodes: &[Score], causal: Option<usize>) -> Option<(usize, f64)> {
    let s = nodes.iter().position(|n| matches!(n, Score::Scores))?;
    let constant = |k: usize| match nodes[k] {
        Score::Const(Num::F(c), _) if c.is_finite() && c > 0.0 => Some(c),
        _ => None,
    };
    let (i, c) = nodes.iter().enumerate().find_map(|(i, n)| {
        let Score::Op(op, args) = n else { return None };
        match args[..] {
            [a, b] if graph::Mul::is(ctx, *op) && a == s => Some((i, constant(b)?)),
            [a, b] if graph::Mul::is(ctx, *op) && b == s => Some((i, constant(a)?)),
            [a, b] if graph::Div::is(ctx, *op) && a == s => Some((i, 1.0 / constant(b)?)),
            _ => None,
        }
    })?;
    // What reads the scaled scores (or the scores) must preserve order.
    let mut on = vec![false; nodes.len()];
    on[i] = true;
    for (j, n) in nodes.iter().enumerate().skip(i + 1) {
        let Score::Op(op, args) = n else { continue };
        if args.contains(&s) {
            return None;
        }
        if !args.iter().any(|a| on[*a]) {
            continue;
        }
        let widening = graph::Cast::is(ctx, *op)
            && matches!(
                ctx.type_kind(float_or_int_elem(ctx, ctx.result(*op, 0))),
                TypeKind::Float(aic::float::FloatKind::F32)
            );
        let masks = Some(j) == causal && !on[args[0]] && on[args[1]] && !on[args[2]];
        if !(widening || masks) {
            return None;
        }
        on[j] = true;
    }
    on.last().copied().unwrap_or(false).then_some((i, c))
}
