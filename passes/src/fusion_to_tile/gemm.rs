//! The GEMM generator: matmuls (batched or not, operands transposed or
//! read through views, A possibly computed by an elementwise prologue) and
//! convolutions as implicit GEMMs, with any elementwise epilogue, a row
//! normalisation over whole output rows (GEMM + layernorm), trailing
//! reshapes/transposes as store addressing, and several GEMMs sharing A in
//! one kernel (horizontal fusion: A is loaded once per K step).

use super::rows::{RowOp, row_input};
use super::tuning::Tuner;
use super::*;
use crate::legality::{self, Side};
use aic_dialects::arith;
use aic_dialects::arith::build as ab;
use aic_dialects::graph;

/// An op the GEMM generator computes as a GEMM.
#[derive(Clone, Copy)]
enum GemmOp {
    /// A matmul.
    Matmul(graph::Matmul),
    /// A convolution, an implicit GEMM.
    Conv(graph::Conv2d),
    /// A matmul with a 2:4-sparse weight given compressed (values and
    /// positions): a K loop of `tile.sparse_gemm`.
    Sparse(graph::SparseMatmul),
}

impl GemmOp {
    /// `o` as a GEMM, if it is one.
    fn of(ctx: &Context, o: Op) -> Option<GemmOp> {
        (graph::Matmul::of(ctx, o).map(GemmOp::Matmul))
            .or_else(|| graph::Conv2d::of(ctx, o).map(GemmOp::Conv))
            .or_else(|| graph::SparseMatmul::of(ctx, o).map(GemmOp::Sparse))
    }

    /// The op.
    fn op(self) -> Op {
        match self {
            GemmOp::Matmul(m) => m.op(),
            GemmOp::Conv(c) => c.op(),
            GemmOp::Sparse(s) => s.op(),
        }
    }

    /// Whether it is a convolution.
    fn is_conv(self) -> bool {
        matches!(self, GemmOp::Conv(_))
    }

    /// Its A: a matmul's lhs, a convolution's input.
    fn a(self, ctx: &Context) -> Value {
        match self {
            GemmOp::Matmul(m) => m.lhs(ctx),
            GemmOp::Conv(c) => c.input(ctx),
            GemmOp::Sparse(s) => s.lhs(ctx),
        }
    }

    /// Its B: a matmul's rhs, a convolution's filter, a sparse product's
    /// kept values (`[K/2, N]` through its view).
    fn b(self, ctx: &Context) -> Value {
        match self {
            GemmOp::Matmul(m) => m.rhs(ctx),
            GemmOp::Conv(c) => c.filter(ctx),
            GemmOp::Sparse(s) => s.values(ctx),
        }
    }

    /// A sparse product's positions (through B's view).
    fn meta(self, ctx: &Context) -> Option<Value> {
        match self {
            GemmOp::Sparse(s) => Some(s.meta(ctx)),
            _ => None,
        }
    }

    /// Its C.
    fn result(self, ctx: &Context) -> Value {
        match self {
            GemmOp::Matmul(m) => m.result(ctx),
            GemmOp::Conv(c) => c.result(ctx),
            GemmOp::Sparse(s) => s.result(ctx),
        }
    }

    /// The GEMM it computes.
    fn problem(self, ctx: &Context) -> Result<Problem, Skip> {
        match self {
            GemmOp::Matmul(m) => matmul_problem(ctx, m),
            GemmOp::Conv(c) => conv_problem(ctx, c),
            GemmOp::Sparse(s) => sparse_problem(ctx, s),
        }
    }
}

/// Whether `o` is an op the GEMM generator computes as a GEMM.
pub(super) fn is_gemm_op(ctx: &Context, o: Op) -> bool {
    GemmOp::of(ctx, o).is_some()
}

/// A GEMM as the kernel sees it: its sizes and how `[M, K]`, `[K, N]` and
/// `[M, N]` (with a leading batch index when batched) are views of its
/// operands' and result's logical shapes.
pub(super) struct Problem {
    /// Batches (a grid axis), or 0 when the GEMM is not batched.
    pub(super) batch: i64,
    /// Rows of C.
    pub(super) m: i64,
    /// Columns of C.
    pub(super) n: i64,
    /// The reduction depth.
    pub(super) k: i64,
    /// From `[(batch,) M, K]` to A's logical shape.
    pub(super) a_view: Desc,
    /// From `[(batch,) K, N]` to B's logical shape.
    pub(super) b_view: Desc,
    /// From `[(batch,) M, N]` to C's logical shape: what epilogue operands
    /// and the store compose with.
    pub(super) c_view: Desc,
}

/// A view of a tensor of `shape` = `[batch.., r, c]` (`[batch.., c, r]`
/// when `swap`) as a matrix `[R, C]`: with `batched`, the batch dims merge
/// into a leading index `[B, r, c]`; otherwise they merge into the rows.
pub(super) fn matrix_view(shape: &[i64], swap: bool, batched: bool) -> Desc {
    let step = |t, upper: Vec<usize>, lower: Vec<usize>| coord::Step { t, upper, lower };
    let nb = shape.len() - 2;
    let (rp, cp) = if swap { (nb + 1, nb) } else { (nb, nb + 1) };
    let batch = &shape[..nb];
    let (r, c) = (shape[rp], shape[cp]);
    let b: i64 = batch.iter().product();
    if batched {
        Desc {
            upper: vec![b, r, c],
            stages: vec![vec![
                step(
                    coord::Transform::Merge {
                        lens: batch.to_vec(),
                    },
                    vec![0],
                    (0..nb).collect(),
                ),
                step(coord::Transform::Pass, vec![1], vec![rp]),
                step(coord::Transform::Pass, vec![2], vec![cp]),
            ]],
        }
    } else {
        let mut lens = batch.to_vec();
        lens.push(r);
        let mut rows: Vec<usize> = (0..nb).collect();
        rows.push(rp);
        Desc {
            upper: vec![b * r, c],
            stages: vec![vec![
                step(coord::Transform::Merge { lens }, vec![0], rows),
                step(coord::Transform::Pass, vec![1], vec![cp]),
            ]],
        }
    }
}

/// A matmul: transposed operands through transposing views; with a 2-d
/// B, leading batch dims of A fold into M (the weights are shared); with
/// equal batch dims on both, a batched GEMM.
pub(super) fn matmul_problem(ctx: &Context, mm: graph::Matmul) -> Result<Problem, Skip> {
    let (sa, sb) = (shape(ctx, mm.lhs(ctx)), shape(ctx, mm.rhs(ctx)));
    let ta = mm.transpose_a(ctx).unwrap_or(false);
    let tb = mm.transpose_b(ctx).unwrap_or(false);
    if sa.len() < 2 || sb.len() < 2 {
        return Err("a matmul of vectors".into());
    }
    let nb = sa.len() - 2;
    let batched = sb.len() > 2;
    if batched && (sb.len() != sa.len() || sa[..nb] != sb[..nb]) {
        return Err("a batched matmul whose batch dims differ".into());
    }
    let oshape = shape(ctx, mm.result(ctx));
    let a_view = matrix_view(&sa, ta, batched);
    let b_view = matrix_view(&sb, tb, batched);
    let c_view = matrix_view(&oshape, false, batched);
    let dims = |d: &Desc| d.upper[d.upper.len() - 2..].to_vec();
    let ((m, k), n) = ((dims(&a_view)[0], dims(&a_view)[1]), dims(&b_view)[1]);
    Ok(Problem {
        batch: if batched { a_view.upper[0] } else { 0 },
        m,
        n,
        k,
        a_view,
        b_view,
        c_view,
    })
}

/// A 2:4-sparse product: A the lhs (leading dims folded into M), B its
/// compressed weight's values and positions, both through one view `[K/2,
/// N]` (transposing where they are stored `[N, K/2]`).
fn sparse_problem(ctx: &Context, sm: graph::SparseMatmul) -> Result<Problem, Skip> {
    let (sa, sv) = (shape(ctx, sm.lhs(ctx)), shape(ctx, sm.values(ctx)));
    if sa.len() < 2 || sv.len() != 2 {
        return Err("a sparse product of vectors".into());
    }
    let tb = sm.transpose_b(ctx).is_some();
    let a_view = matrix_view(&sa, false, false);
    let b_view = matrix_view(&sv, tb, false);
    let c_view = matrix_view(&shape(ctx, sm.result(ctx)), false, false);
    let (m, k, n) = (a_view.upper[0], a_view.upper[1], b_view.upper[1]);
    if k != 2 * b_view.upper[0] || k % 4 != 0 {
        return Err("a sparse product whose K is not twice its values' rows".into());
    }
    Ok(Problem {
        batch: 0,
        m,
        n,
        k,
        a_view,
        b_view,
        c_view,
    })
}

/// A convolution as an implicit GEMM: A the input through the im2col view
/// (no buffer; padding reads as zero), B the filter, C the output, all
/// through coordinate views (NHWC or NCHW); grouped (and depthwise)
/// convolutions are batched GEMMs over the groups.
fn conv_problem(ctx: &Context, conv: graph::Conv2d) -> Result<Problem, Skip> {
    let groups = conv.groups(ctx).unwrap_or(1);
    let nchw = conv.layout(ctx) == Some(graph::ConvLayout::Nchw);
    let (xs, ws) = (shape(ctx, conv.input(ctx)), shape(ctx, conv.filter(ctx)));
    let (st, di, pa) = (
        conv.strides(ctx).unwrap_or_default(),
        conv.dilations(ctx).unwrap_or_default(),
        conv.padding(ctx).unwrap_or_default(),
    );
    if xs.len() != 4 || ws.len() != 4 || st.len() != 2 || di.len() != 2 || pa.len() != 4 {
        return Err("a convolution of unexpected rank".into());
    }
    let (filter, out_channels) = if nchw {
        ([ws[2], ws[3]], ws[0])
    } else {
        ([ws[0], ws[1]], ws[3])
    };
    let c = Conv {
        nchw,
        input: [xs[0], xs[1], xs[2], xs[3]],
        filter,
        out_channels,
        strides: [st[0], st[1]],
        dilations: [di[0], di[1]],
        pads: [pa[0], pa[1], pa[2], pa[3]],
        groups,
    };
    if groups == 1 {
        let (a_view, b_view) = (Desc::conv_a_view(&c, 0), Desc::conv_b_view(&c, 0));
        let (m, k, n) = (a_view.upper[0], a_view.upper[1], b_view.upper[1]);
        return Ok(Problem {
            batch: 0,
            m,
            n,
            k,
            a_view,
            b_view,
            c_view: Desc::conv_c_view(&c, 0),
        });
    }
    // Groups are a batch: one GEMM of the group's channels per grid slice.
    let [a_view, b_view, c_view] = Desc::conv_views(&c);
    let (m, k, n) = (a_view.upper[1], a_view.upper[2], b_view.upper[2]);
    Ok(Problem {
        batch: groups,
        m,
        n,
        k,
        a_view,
        b_view,
        c_view,
    })
}

/// The buffer descriptor of a result stored through `c_view` (`[(batch,)
/// M, N]` to the GEMM's output shape) when reshapes and transposes follow:
/// each view applied to the index in turn (a reshape relinearises it, a
/// transpose moves its dims), then the final buffer, row-major.
pub(super) fn store_desc(ctx: &Context, c_view: &Desc, views: &[Op]) -> Result<Desc, Skip> {
    let step = |t, upper: Vec<usize>, lower: Vec<usize>| coord::Step { t, upper, lower };
    let mut stages = c_view.stages.clone();
    let mut cur = c_view.lower().map_err(|e| e.to_string())?;
    for &v in views {
        let to = shape(ctx, ctx.result(v, 0));
        if graph::Reshape::is(ctx, v) {
            stages.push(vec![step(
                coord::Transform::Unmerge,
                (0..cur.len()).collect(),
                vec![0],
            )]);
            stages.push(vec![step(
                coord::Transform::Merge { lens: to.clone() },
                vec![0],
                (0..to.len()).collect(),
            )]);
        } else {
            let perm: Vec<usize> = graph::Transpose::of(ctx, v)
                .and_then(|t| t.perm(ctx))
                .unwrap_or_default()
                .into_iter()
                .map(|p| p as usize)
                .collect();
            if perm.len() != cur.len() {
                return Err("a transpose without a permutation".into());
            }
            // Result dim i is input dim perm[i].
            stages.push(
                perm.iter()
                    .enumerate()
                    .map(|(i, p)| step(coord::Transform::Pass, vec![*p], vec![i]))
                    .collect(),
            );
        }
        cur = to;
    }
    let view = Desc {
        upper: c_view.upper.clone(),
        stages,
    };
    over(&Desc::row_major(&cur), &view)
}

/// One GEMM of a group and what follows it up to a group result.
struct Branch {
    /// Which operand of the group's yield it computes.
    result: usize,
    /// The GEMM's B, over `[(batch,) K, N]` (a sparse product's values,
    /// over `[K/2, N]`).
    b: Operand,
    /// A sparse product's positions (over `[K/2, N]`) and their type.
    meta: Option<(Operand, Type)>,
    /// Columns of its C.
    n: i64,
    /// The elementwise epilogue.
    chain: Chain,
    /// A row normalisation over whole rows, and the chain after it.
    row: Option<(RowOp, Chain)>,
    /// From `[(batch,) M, N]` to its C's logical shape.
    c_view: Desc,
    /// The result's buffer descriptor from `[(batch,) M, N]`.
    store: Desc,
}

/// What follows a GEMM's result `r` among `ops`: an elementwise chain,
/// possibly a row normalisation over the last dim and a chain after it,
/// trailing views; and the last value.
#[allow(clippy::type_complexity)]
fn downstream(
    ctx: &Context,
    r: Value,
    ops: &[Op],
    known: (&[Value], &Views),
    taken: &mut Vec<Op>,
) -> Result<(Chain, Option<(RowOp, Chain)>, Vec<Op>, Value), Skip> {
    let oshape = shape(ctx, r);
    let (chain, mut tail, mut cur, used) = read_chain(ctx, ops, r, known, &oshape, true, taken)?;
    let mut row = None;
    if used < ops.len() {
        let red = ops[used];
        if row_input(ctx, red) != Some(cur) || !tail.is_empty() || shape(ctx, cur) != oshape {
            return Err(format!("{} is not an epilogue op", ctx.op_name(red)));
        }
        let op = RowOp::of(ctx, red, known, &oshape, taken)?;
        if op.axes != [oshape.len() - 1] {
            return Err(format!("{} not over the last dim", ctx.op_name(red)));
        }
        if op.reduces() {
            return Err("a reduction of a GEMM's rows".into());
        }
        taken.push(red);
        let (after, t2, c2, u2) =
            read_chain(ctx, ops, ctx.result(red, 0), known, &oshape, true, taken)?;
        if u2 < ops.len() {
            return Err(format!("{} is not an epilogue op", ctx.op_name(ops[u2])));
        }
        (tail, cur) = (t2, c2);
        row = Some((op, after));
    }
    Ok((chain, row, tail, cur))
}

/// Lower one GEMM group: the kernel (inserted before `func`) and the launch
/// replacing the group.
pub(super) fn gemm(
    ctx: &mut Context,
    group: Op,
    func: Op,
    tuner: &Tuner<'_>,
    n_kernel: usize,
) -> Result<(), Skip> {
    let body = Body::of(ctx, group)?;
    let (ops, known, yields) = (&body.ops, body.known(), &body.yields);
    let mms: Vec<GemmOp> = ops.iter().filter_map(|o| GemmOp::of(ctx, *o)).collect();
    let Some(&first) = mms.first() else {
        return Err(NOT_MINE.into());
    };
    let a_val = first.a(ctx);
    if let [GemmOp::Matmul(mm1), GemmOp::Matmul(mm2)] = mms[..]
        && mm2.lhs(ctx) != a_val
    {
        let chain = gemm_chain(ctx, (mm1, mm2), &body, tuner)?;
        emit_chain_kernel(ctx, (group, func, n_kernel), &body.inputs, chain);
        return Ok(());
    }
    if mms
        .iter()
        .any(|m| m.a(ctx) != a_val || m.is_conv() != first.is_conv())
    {
        return Err("GEMMs that do not share their A operand".into());
    }
    let sparse = mms.iter().filter(|m| m.meta(ctx).is_some()).count();
    if !legality::sparse_gemms_fit(mms.len(), sparse) {
        return Err("a 2:4-sparse product beside another GEMM".into());
    }
    // Ops computed on the fly as operands, and the GEMMs and epilogues.
    let mut taken: Vec<Op> = mms.iter().map(|m| m.op()).collect();
    let mut a = operand(ctx, a_val, known, &mut taken)?;
    let mut p = first.problem(ctx)?;
    let half = |v: Value| {
        ctx.type_kind(ctx.value_type(v))
            .element_type()
            .is_some_and(|e| {
                matches!(
                    ctx.type_kind(e),
                    TypeKind::Float(aic::float::FloatKind::F16 | aic::float::FloatKind::BF16)
                )
            })
    };
    // fp8 GEMMs (e4m3/e5m2 A into f32) run on wgmma's k32 form too.
    let fp8 = |v: Value| {
        ctx.type_kind(ctx.value_type(v))
            .element_type()
            .is_some_and(|e| {
                matches!(
                    ctx.type_kind(e),
                    TypeKind::Float(
                        aic::float::FloatKind::F8E4M3FN | aic::float::FloatKind::F8E5M2
                    )
                )
            })
    };
    let (half_result, fp8_a) = (half(first.result(ctx)), fp8(first.a(ctx)));
    let wgmma_sized = tuner.wgmma && !first.is_conv() && (half_result || fp8_a);
    // A prologue routes its operand through registers and unpipelines the
    // K loop of a copy ring ([`legality::prologue_fits`]). Declined, the
    // group is split ([`super::split`]): the prologue's ops become kernels
    // of their own and the GEMM pipelines.
    let ring = legality::fills_ring(tuner.wgmma, first.is_conv(), half_result, fp8_a);
    let rows = p.batch.max(1) * p.m;
    if a.as_load().is_none() && !legality::prologue_fits(Side::A, rows, p.k, ring) {
        return Err(format!(
            "a prologue on A of a GEMM of {rows} rows and a K loop of {} ({}; it would not pipeline)",
            p.k,
            if ring { "a copy ring" } else { "a few rows" }
        ));
    }
    // Sibling GEMMs run on generic tiles (no warpgroup-MMA layout holds
    // several accumulators): a Llama block's K and V projections took 171 us
    // so, against about 60 as two warpgroup-MMA GEMMs reading A twice.
    // Declined, the group is split into one GEMM (with its epilogue) each.
    if wgmma_sized && mms.len() > 1 {
        return Err(
            "sibling GEMMs on warpgroup MMA (each runs faster as a GEMM of its own)".into(),
        );
    }
    a.compose(&p.a_view)?;
    let mut branches = Vec::new();
    for &mm in &mms {
        let q = mm.problem(ctx)?;
        if (q.batch, q.m, q.k) != (p.batch, p.m, p.k) {
            return Err("sibling GEMMs of different shapes".into());
        }
        let mut b = operand(ctx, mm.b(ctx), known, &mut taken)?;
        if b.as_load().is_none() && !legality::prologue_fits(Side::B, rows, q.k, ring) {
            return Err(format!(
                "a prologue on B of a GEMM of {rows} rows and a K loop of {} on a copy ring (it would not pipeline)",
                q.k
            ));
        }
        b.compose(&q.b_view)?;
        let meta = match mm.meta(ctx) {
            Some(v) => {
                let mut o = operand(ctx, v, known, &mut taken)?;
                o.compose(&q.b_view)?;
                Some((o, storage_elem(ctx, v)))
            }
            None => None,
        };
        let (chain, row, tail, cur) = downstream(ctx, mm.result(ctx), ops, known, &mut taken)?;
        let result = yields
            .iter()
            .position(|y| *y == cur)
            .ok_or("a GEMM's value is used inside the group and is not its result")?;
        branches.push(Branch {
            result,
            b,
            meta,
            n: q.n,
            chain,
            row,
            store: store_desc(ctx, &q.c_view, &tail)?,
            c_view: q.c_view,
        });
    }
    if let Some(o) = ops.iter().find(|o| !taken.contains(o)) {
        return Err(format!(
            "{} is neither prologue, GEMM nor epilogue",
            ctx.op_name(*o)
        ));
    }
    if branches.len() != yields.len() {
        return Err("results that are not GEMMs' epilogues".into());
    }
    branches.sort_by_key(|b| b.result);
    p.n = branches.iter().map(|b| b.n).max().unwrap_or(p.n);
    let whole_rows = branches.iter().any(|b| b.row.is_some());
    if whole_rows && branches.iter().any(|b| b.n != p.n) {
        return Err("row normalisations after sibling GEMMs of different widths".into());
    }
    let out_tys: Vec<Type> = yields.iter().map(|y| ctx.value_type(*y)).collect();
    // The accumulator: the compute type of the GEMM's result.
    let (calc, storage) = gemm_elems(ctx, first.result(ctx), a_val, first.b(ctx))?;
    let elem = |t: Type| aic::printer::type_text(ctx.uniquer(), t);
    let sig = Signature {
        template: if first.is_conv() {
            Template::Conv
        } else if sparse > 0 {
            Template::SparseGemm
        } else {
            Template::Gemm
        },
        batch: p.batch,
        m: p.m,
        n: p.n,
        k: p.k,
        elem: if storage.0 == storage.1 {
            elem(storage.0)
        } else {
            format!("{}x{}", elem(storage.0), elem(storage.1))
        },
        siblings: branches.len() as i64,
        rows: whole_rows,
    };
    let (mut tuning, key) = tuner.pick(&sig);
    // The heuristic's consumer groups taking turns need a warp-specialised
    // loop, so TMA copies of both operands: where a view keeps them from
    // it (GPT-2's attention output read with its heads merged), the
    // cooperative tiles instead (a cache's choice stands).
    let tma = |o: &Operand| {
        o.as_load()
            .is_some_and(|s| crate::tile_to_gpu::copies_2d(&s.desc))
    };
    if tuning.consumers > 1
        && !tuner.cached(&sig)
        && !(tma(&a) && branches.iter().all(|br| tma(&br.b)))
    {
        tuning = Tuning::heuristic_wgmma(tuner.target, p.batch, p.m, p.n, p.k);
    }
    if whole_rows && !crate::legality::whole_rows_fit(p.n) {
        return Err(format!(
            "a row normalisation of {}-wide GEMM rows (a block's registers hold rows up to 256 wide)",
            p.n
        ));
    }
    if whole_rows {
        // A block holds whole rows to normalise them.
        tuning.bn = p.n;
    }
    if sparse > 0 && tuning.bk % 4 != 0 {
        return Err(format!(
            "a 2:4-sparse product on K steps of {} (not whole groups of four)",
            tuning.bk
        ));
    }
    // Split-K where the tuning asks for it and it fits this GEMM (a cache
    // entry that does not fit is an error before any kernel is made:
    // [`Tuner::check`]; a legacy entry's is dropped).
    if tuning.split > 1 && sig.split_fits(&tuning).is_err() {
        tuning.split = 0;
    }
    if let [br] = &branches[..]
        && tuning.split > 1
    {
        emit_split(
            ctx,
            (group, func, n_kernel),
            &body.inputs,
            &p,
            &a,
            br,
            (tuning, &key),
            (calc, storage, out_tys[0]),
        )?;
        return Ok(());
    }
    emit(
        ctx,
        (group, func, n_kernel),
        &body.inputs,
        &p,
        &a,
        &branches,
        (tuning, &key),
        (calc, storage, &out_tys),
    );
    Ok(())
}

/// The view of `[split, rows, K/split]` (slice, row, place in the slice)
/// as `[rows, K]` where `k_last` (A's `[M, K]`), else of `[split, K/split,
/// cols]` as `[K, cols]` (B's `[K, N]`): slice `s` is `K` from `s·K/split`
/// on, one dim unmerged from the two.
fn k_slices(split: i64, rows_or_cols: i64, k: i64, k_last: bool) -> Desc {
    let step = |t, upper: Vec<usize>, lower: Vec<usize>| coord::Step { t, upper, lower };
    let ks = k / split;
    if k_last {
        Desc {
            upper: vec![split, rows_or_cols, ks],
            stages: vec![vec![
                step(coord::Transform::Pass, vec![1], vec![0]),
                step(coord::Transform::Unmerge, vec![0, 2], vec![1]),
            ]],
        }
    } else {
        Desc {
            upper: vec![split, ks, rows_or_cols],
            stages: vec![vec![
                step(coord::Transform::Unmerge, vec![0, 1], vec![0]),
                step(coord::Transform::Pass, vec![2], vec![1]),
            ]],
        }
    }
}

/// A GEMM whose K loop runs in `t.split` slices ([`Tuning::split`]): a
/// first kernel, the GEMM batched over the slices (A's `[M, K]` read as
/// `[split, M, K/split]`, B's `[K, N]` as `[split, K/split, N]`), stores
/// each slice's product in the accumulator's type to partials `[split, M,
/// N]`; a second (`splitk_*`), on blocks of rows of C, sums a tile's
/// partials, applies the branch's epilogue and stores C. Both kernels
/// carry the GEMM's tuning key, so that aic-tune times them together.
#[allow(clippy::too_many_arguments)]
fn emit_split(
    ctx: &mut Context,
    (group, func, n_kernel): (Op, Op, usize),
    inputs: &[Value],
    p: &Problem,
    a: &Operand,
    br: &Branch,
    (t, key): (Tuning, &str),
    (calc, (a_elem, b_elem), out_ty): (Type, (Type, Type), Type),
) -> Result<(), Skip> {
    let (split, m, n) = (t.split, p.m, p.n);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let mut sa = a.clone();
    sa.compose(&k_slices(split, m, p.k, true))?;
    let mut sb = br.b.clone();
    sb.compose(&k_slices(split, n, p.k, false))?;
    let sliced = Problem {
        batch: split,
        m,
        n,
        k: p.k / split,
        a_view: Desc::identity(&[split, m, p.k / split]),
        b_view: Desc::identity(&[split, p.k / split, n]),
        c_view: Desc::identity(&[split, m, n]),
    };
    let parts_shape = [split, m, n];
    let part_ty = u.ty(TypeKind::Tensor {
        shape: parts_shape.to_vec().into(),
        elem: calc,
        encoding: None,
    });
    // The partial products: the sliced GEMM, its accumulator stored as
    // it is.
    let parts = Branch {
        result: 0,
        b: sb,
        meta: None,
        n,
        chain: Chain::new(),
        row: None,
        c_view: Desc::identity(&parts_shape),
        store: Desc::row_major(&parts_shape),
    };
    let (kb, grid) = gemm_kernel(
        ctx,
        group,
        inputs,
        (&sliced, t),
        &sa,
        &[parts],
        (calc, (a_elem, b_elem), &[part_ty]),
    );
    let first = format!("gemm_{n_kernel}");
    let (kb, args) = prune(ctx, group, kb);
    let k1 = add_kernel(ctx, func, kb, &first, &grid, loc);
    mark_tuned(ctx, k1, key);
    write_kernel_tuning(ctx, k1, &t);
    let l1 = add_launch(ctx, group, &args, &first, &[part_ty], loc);
    let partials = ctx.result(l1, 0);
    // The sums and the epilogue, on blocks of rows of C (as an elementwise
    // kernel's).
    let (kb, bufs) = kernel_block(ctx, group, &[part_ty, out_ty], loc);
    let buf = |v: Value| buffer(inputs, &bufs, v);
    let (part_buf, out_buf) = (bufs[bufs.len() - 2], bufs[bufs.len() - 1]);
    let out_elem = u.type_kind(out_ty).element_type().unwrap_or(calc);
    let (bm, bn) = (rows_per_block(m, n), n.min(BLOCK_ELEMENTS));
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let r0 = block_start(&mut e, 0, bm);
    let c0 = if bn < n {
        block_start(&mut e, 1, bn)
    } else {
        ab::index(&mut e, 0)
    };
    let at = [r0, c0];
    let parts = Desc::row_major(&parts_shape);
    let mut tiles = Vec::new();
    for s in 0..split {
        // Slice `s` of the partials as `[M, N]`.
        let step = |t, upper: Vec<usize>, lower: Vec<usize>| coord::Step { t, upper, lower };
        let one = Desc {
            upper: vec![m, n],
            stages: vec![vec![
                step(
                    coord::Transform::Freeze {
                        value: s,
                        len: split,
                    },
                    vec![],
                    vec![0],
                ),
                step(coord::Transform::Pass, vec![0], vec![1]),
                step(coord::Transform::Pass, vec![1], vec![2]),
            ]],
        };
        let d = over(&parts, &one)?;
        tiles.push(load(&mut e, part_buf, &at, &[bm, bn], &d, calc));
    }
    let tile_t = tile::plain_tile(&u, vec![bm, bn], calc, Space::Register);
    let sum = map(&mut e, &tiles, tile_t, calc, &mut |b, xs| {
        xs[1..]
            .iter()
            .fold(xs[0], |acc, x| ab::binary::<arith::AddF>(b, acc, *x))
    });
    let r = At {
        bufs: &buf,
        view: &br.c_view,
        at: &at,
        shape: &[bm, bn],
        calc,
    };
    let value = emit_chain(&mut e, &br.chain, sum, &r);
    let own = elem_of(e.ctx, value);
    store(
        &mut e,
        value,
        out_buf,
        &at,
        &[bm, bn],
        &br.store,
        own,
        out_elem,
    );
    ret(&mut e);
    let mut grid = vec![(m + bm - 1) / bm];
    if bn < n {
        grid.push((n + bn - 1) / bn);
    }
    let name = format!("splitk_{n_kernel}");
    let k2 = finish_with(
        ctx,
        (group, func, kb),
        (&name, &grid),
        &[partials],
        &[out_ty],
        loc,
    );
    mark_tuned(ctx, k2, key);
    // Its arithmetic: the partials' sums (the GEMM's is the first's).
    let i = ctx.ident(crate::tile_to_gpu::FLOPS_ATTR);
    let flops = u.attr(AttrKind::Integer {
        value: i128::from((split - 1) * m * n),
        ty: u.int_type(64),
    });
    ctx.set_attr(k2, i, flops);
    Ok(())
}

/// A GEMM's accumulator type (the compute type of its result) and A's and
/// B's storage types: float products, or a widened product of
/// [`graph::widened_product`] (i8 x i8 into i32, accumulated exactly).
fn gemm_elems(
    ctx: &Context,
    result: Value,
    a: Value,
    b: Value,
) -> Result<(Type, (Type, Type)), Skip> {
    let elem = |v: Value| storage_elem(ctx, v);
    let (r, ea, eb) = (elem(result), elem(a), elem(b));
    if ea == eb && graph::widened_product(ctx.uniquer(), ea) == Some(r) {
        return Ok((compute_elem(ctx, r), (ea, eb)));
    }
    let calc = compute_elem(ctx, float_elem(ctx, ctx.value_type(result))?);
    let storage = (
        float_elem(ctx, ctx.value_type(a))?,
        float_elem(ctx, ctx.value_type(b))?,
    );
    Ok((calc, storage))
}

/// The tile of `o` (precomposed to the tile's index space) at `at`, in the
/// element type `store` (a plain load reads it as it is; a computed
/// operand is computed in `calc` and converted).
pub(super) fn operand_tile(
    e: &mut Builder<'_>,
    bufs: &dyn Fn(Value) -> Value,
    o: &Operand,
    (upper, at, shape): (&[i64], &[Value], &[i64]),
    calc: Type,
    store: Type,
) -> Value {
    if let Some(src) = o.as_load() {
        return load(e, bufs(src.input), at, shape, &src.desc.simplify(), store);
    }
    // A computed operand is zero outside its bounds (a load in it reads
    // zero there, but a splat or `exp` of it does not): a K tail where both
    // operands are nonzero would add to the product.
    let masked = Operand::Masked(Box::new(o.clone()), Desc::identity(upper));
    let o = &masked;
    let view = Desc::identity(upper);
    let r = At {
        bufs,
        view: &view,
        at,
        shape,
        calc,
    };
    let t = r.read(e, o);
    let own = elem_of(e.ctx, t);
    convert(e, t, shape, own, store)
}

/// Build the kernel of a GEMM group and launch it.
#[allow(clippy::too_many_arguments)]
fn emit(
    ctx: &mut Context,
    (group, func, n_kernel): (Op, Op, usize),
    inputs: &[Value],
    p: &Problem,
    a: &Operand,
    branches: &[Branch],
    (t, key): (Tuning, &str),
    (calc, elems, out_tys): (Type, (Type, Type), &[Type]),
) {
    let loc = ctx.op(group).loc;
    let (kb, grid) = gemm_kernel(
        ctx,
        group,
        inputs,
        (p, t),
        a,
        branches,
        (calc, elems, out_tys),
    );
    let kernel = finish(
        ctx,
        group,
        func,
        kb,
        &format!("gemm_{n_kernel}"),
        &grid,
        out_tys,
        loc,
    );
    mark_tuned(ctx, kernel, key);
    write_kernel_tuning(ctx, kernel, &t);
}

/// The body of a GEMM kernel of `group` with `p`'s K loop in tiles `t`
/// and each branch's epilogue and store (into the buffer of its result's
/// place among `out_tys`), and its grid.
fn gemm_kernel(
    ctx: &mut Context,
    group: Op,
    inputs: &[Value],
    (p, t): (&Problem, Tuning),
    a: &Operand,
    branches: &[Branch],
    (calc, (a_elem, b_elem), out_tys): (Type, (Type, Type), &[Type]),
) -> (Block, Vec<i64>) {
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let (kb, bufs) = kernel_block(ctx, group, out_tys, loc);
    let buf = |v: Value| buffer(inputs, &bufs, v);
    let res_elems: Vec<Type> = out_tys
        .iter()
        .map(|t| u.type_kind(*t).element_type().unwrap_or(calc))
        .collect();
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let m0 = block_start(&mut e, 0, t.bm);
    let n0 = block_start(&mut e, 1, t.bn);
    let pb = (p.batch > 0).then(|| program_id(&mut e, 2));
    let at = |i: Value, j: Value| -> Vec<Value> { pb.into_iter().chain([i, j]).collect() };
    let bs: Vec<BOperand<'_>> = branches
        .iter()
        .map(|b| (&b.b, b.meta.as_ref().map(|(o, t)| (o, *t)), b.n))
        .collect();
    let accs = k_loop(
        &mut e,
        &buf,
        (p, t),
        a,
        &bs,
        (pb, m0, n0),
        (calc, a_elem, b_elem),
    );
    let c_shape = [t.bm, t.bn];
    let c_at = at(m0, n0);
    for (br, acc) in branches.iter().zip(accs) {
        let mut value = acc;
        let r = At {
            bufs: &buf,
            view: &br.c_view,
            at: &c_at,
            shape: &c_shape,
            calc,
        };
        value = emit_chain(&mut e, &br.chain, value, &r);
        if let Some((op, after)) = &br.row {
            value = op.emit(&mut e, value, &r);
            value = emit_chain(&mut e, after, value, &r);
        }
        let out = bufs[inputs.len() + br.result];
        let own = elem_of(e.ctx, value);
        store(
            &mut e,
            value,
            out,
            &c_at,
            &c_shape,
            &br.store,
            own,
            res_elems[br.result],
        );
    }
    ret(&mut e);
    let mut grid = vec![(p.m + t.bm - 1) / t.bm, (p.n + t.bn - 1) / t.bn];
    if p.batch > 0 {
        grid.push(p.batch);
    }
    (kb, grid)
}

/// A GEMM's B as the K loop reads it: its operand, a sparse product's
/// positions (and their type), and its columns.
type BOperand<'a> = (&'a Operand, Option<(&'a Operand, Type)>, i64);

/// The K loop of GEMMs sharing A: per K step, A's tile loaded (and
/// computed) once and staged into shared memory, then each B's tile and a
/// block GEMM into its accumulator; a sparse product's B is its values'
/// and positions' tiles (`BK/2 x BN` each) and a `tile.sparse_gemm`. Gives
/// the accumulators (`BM x BN`, in `calc`).
fn k_loop(
    e: &mut Builder<'_>,
    buf: &dyn Fn(Value) -> Value,
    (p, t): (&Problem, Tuning),
    a: &Operand,
    bs: &[BOperand<'_>],
    (pb, m0, n0): (Option<Value>, Value, Value),
    (calc, a_elem, b_elem): (Type, Type, Type),
) -> Vec<Value> {
    let u = e.ctx.uniquer().clone();
    let loc = e.loc;
    let index = u.ty(TypeKind::Index);
    let acc_t = tile::plain_tile(&u, vec![t.bm, t.bn], calc, Space::Register);
    let at = |i: Value, j: Value| -> Vec<Value> { pb.into_iter().chain([i, j]).collect() };
    let lead: Vec<i64> = (p.batch > 0).then_some(p.batch).into_iter().collect();
    let space = |r: i64, c: i64| -> Vec<i64> { lead.iter().copied().chain([r, c]).collect() };
    let zero = ab::number(e, 0.0, calc);
    let acc0 = spread(e, zero, acc_t, &[]);
    let (c0, ck, cbk) = (ab::index(e, 0), ab::index(e, p.k), ab::index(e, t.bk));
    let mut largs = vec![(index, Some(loc))];
    largs.extend(bs.iter().map(|_| (acc_t, Some(loc))));
    let lb = e.ctx.create_block(&largs);
    let la: Vec<Value> = e.ctx.block_args(lb).to_vec();
    {
        let mut l = inside(e, lb);
        let kv = la[0];
        let a_shape = [t.bm, t.bk];
        let a_at = at(m0, kv);
        let a_space = space(p.m, p.k);
        let a_tile = operand_tile(&mut l, buf, a, (&a_space, &a_at, &a_shape), calc, a_elem);
        let sa = stage(&mut l, a_tile, &a_shape, a_elem, t.stages);
        let mut accs = Vec::new();
        for (i, (b, meta, n)) in bs.iter().enumerate() {
            if let Some((meta, meta_elem)) = meta {
                // K/2 rows of values and positions from K step kv on.
                let two = ab::index(&mut l, 2);
                let kh = ab::binary::<arith::DivUI>(&mut l, kv, two);
                let h_shape = [t.bk / 2, t.bn];
                let h_space = space(p.k / 2, *n);
                let h_at = at(kh, n0);
                let vt = operand_tile(&mut l, buf, b, (&h_space, &h_at, &h_shape), calc, b_elem);
                let sv = stage(&mut l, vt, &h_shape, b_elem, t.stages);
                let mt = operand_tile(
                    &mut l,
                    buf,
                    meta,
                    (&h_space, &h_at, &h_shape),
                    *meta_elem,
                    *meta_elem,
                );
                let sm = stage(&mut l, mt, &h_shape, *meta_elem, t.stages);
                accs.push(block_sparse_gemm(&mut l, sa, (sv, sm), la[i + 1], acc_t));
                continue;
            }
            let b_shape = [t.bk, t.bn];
            let b_space = space(p.k, *n);
            let bt = operand_tile(
                &mut l,
                buf,
                b,
                (&b_space, &at(kv, n0), &b_shape),
                calc,
                b_elem,
            );
            let sb = stage(&mut l, bt, &b_shape, b_elem, t.stages);
            accs.push(block_gemm(&mut l, sa, sb, la[i + 1], acc_t));
        }
        yield_(&mut l, &accs);
    }
    let inits = vec![acc0; bs.len()];
    let f = for_loop(e, (c0, ck, cbk), &inits, &vec![acc_t; bs.len()], lb);
    f.results(e.ctx).into_iter().collect()
}

/// Two GEMMs in a row, the second reading the first's (normalised) rows:
/// `(LN(A1 B1 + ...) B2) + ...` (a transformer's out-projection, layernorm
/// and FFN1 as eqsat fused them).
struct GemmChain {
    p1: Problem,
    p2: Problem,
    a: Operand,
    b1: Operand,
    b2: Operand,
    first: (Chain, Option<(RowOp, Chain)>),
    second: Chain,
    store: Desc,
    /// The first GEMM's tiles (its block as wide as its rows).
    tuning: Tuning,
    /// Its tuning-cache key.
    key: String,
    /// The second GEMM's column block.
    bn2: i64,
    elems: [Type; 4],
    calc: Type,
    out_ty: Type,
}

/// Recognise a GEMM chain among a group's `ops`.
/// The most shared memory a GEMM chain's block may need (an H100 block has
/// 227 KB).
const CHAIN_MAX_SHARED: i64 = 200 * 1024;

fn gemm_chain(
    ctx: &Context,
    (mm1, mm2): (graph::Matmul, graph::Matmul),
    body: &Body,
    tuner: &Tuner<'_>,
) -> Result<GemmChain, Skip> {
    let (ops, known, yields) = (&body.ops, body.known(), &body.yields);
    let mut taken = vec![mm1.op(), mm2.op()];
    let (p1, p2) = (matmul_problem(ctx, mm1)?, matmul_problem(ctx, mm2)?);
    if p1.batch > 0 || p2.batch > 0 || p2.m != p1.m || p2.k != p1.n {
        return Err("GEMMs in a row of unexpected shapes".into());
    }
    let mut a = operand(ctx, mm1.lhs(ctx), known, &mut taken)?;
    a.compose(&p1.a_view)?;
    let mut b1 = operand(ctx, mm1.rhs(ctx), known, &mut taken)?;
    b1.compose(&p1.b_view)?;
    let mut b2 = operand(ctx, mm2.rhs(ctx), known, &mut taken)?;
    b2.compose(&p2.b_view)?;
    let (chain1, row1, tail1, h) = downstream(ctx, mm1.result(ctx), ops, known, &mut taken)?;
    if h != mm2.lhs(ctx) || !tail1.is_empty() {
        return Err("GEMMs that neither share A nor follow each other".into());
    }
    let (chain2, row2, tail2, cur) = downstream(ctx, mm2.result(ctx), ops, known, &mut taken)?;
    if row2.is_some() {
        return Err("a row op after the second of two GEMMs".into());
    }
    if *yields != [cur] {
        return Err("GEMMs in a row with several results".into());
    }
    if let Some(o) = ops.iter().find(|o| !taken.contains(o)) {
        return Err(format!("{} is not part of the GEMMs", ctx.op_name(*o)));
    }
    let out_ty = ctx.value_type(cur);
    let elem = storage_elem(ctx, cur);
    let calc = compute_elem(ctx, float_elem(ctx, ctx.value_type(mm1.result(ctx)))?);
    let el = |v: Value| float_elem(ctx, ctx.value_type(v));
    let sig = Signature {
        template: Template::GemmChain { n2: p2.n },
        batch: 0,
        m: p1.m,
        n: p1.n,
        k: p1.k,
        elem: aic::printer::type_text(ctx.uniquer(), elem),
        siblings: 1,
        rows: false,
    };
    let (mut tuning, key) = tuner.pick(&sig);
    // The first GEMM's block holds whole rows (the second's K) in shared
    // memory, and so do its staged B tiles and the second GEMM's B tile:
    // no chain where they would not fit a block (a BERT encoder's
    // FFN-to-next-layer chain needed 483 KB of the H100's 227 KB).
    if !crate::legality::whole_rows_fit(p1.n) {
        return Err(format!(
            "GEMMs in a row whose first GEMM's {}-wide rows a block's registers cannot hold",
            p1.n
        ));
    }
    let bytes = aic::printer::scalar_bytes(ctx.uniquer(), storage_elem(ctx, mm2.lhs(ctx))) as i64;
    let need = bytes.max(2) * p1.n * (tuning.bm + tuning.bk * tuning.stages.max(1) + tuning.bn);
    if need > CHAIN_MAX_SHARED {
        return Err(format!(
            "GEMMs in a row whose {}-wide rows need {need} bytes of shared memory a block",
            p1.n
        ));
    }
    let bn2 = tuning.bn;
    tuning.bn = p1.n;
    let store = store_desc(ctx, &p2.c_view, &tail2)?;
    Ok(GemmChain {
        elems: [
            el(mm1.lhs(ctx))?,
            el(mm1.rhs(ctx))?,
            el(mm2.rhs(ctx))?,
            elem,
        ],
        p1,
        p2,
        a,
        b1,
        b2,
        first: (chain1, row1),
        second: chain2,
        store,
        tuning,
        key,
        bn2,
        calc,
        out_ty,
    })
}

/// The kernel of a GEMM chain: a block of rows runs the first GEMM's K
/// loop, its epilogue and normalisation in registers, then walks the
/// second GEMM's columns, one block GEMM with the whole rows as A per
/// column block, its epilogue and a store.
fn emit_chain_kernel(
    ctx: &mut Context,
    (group, func, n_kernel): (Op, Op, usize),
    inputs: &[Value],
    g: GemmChain,
) {
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let (kb, bufs) = kernel_block(ctx, group, &[g.out_ty], loc);
    let buf = |v: Value| buffer(inputs, &bufs, v);
    let out_buf = *bufs.last().expect("the output");
    let [a_elem, b1_elem, b2_elem, elem] = g.elems;
    let (t, bn2) = (g.tuning, g.bn2);
    let (bm, n1, n2) = (t.bm, g.p1.n, g.p2.n);
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let m0 = block_start(&mut e, 0, bm);
    let c0 = ab::index(&mut e, 0);
    let accs = k_loop(
        &mut e,
        &buf,
        (&g.p1, t),
        &g.a,
        &[(&g.b1, None, n1)],
        (None, m0, c0),
        (g.calc, a_elem, b1_elem),
    );
    let first_at = [m0, c0];
    let r1 = At {
        bufs: &buf,
        view: &g.p1.c_view,
        at: &first_at,
        shape: &[bm, n1],
        calc: g.calc,
    };
    let mut h = emit_chain(&mut e, &g.first.0, accs[0], &r1);
    if let Some((op, after)) = &g.first.1 {
        h = op.emit(&mut e, h, &r1);
        h = emit_chain(&mut e, after, h, &r1);
    }
    let h_elem = elem_of(e.ctx, h);
    let h = convert(&mut e, h, &[bm, n1], h_elem, b2_elem);
    let (cn2, cbn2) = (ab::index(&mut e, n2), ab::index(&mut e, bn2));
    let lb = e.ctx.create_block(&[(index, Some(loc))]);
    let n0 = e.ctx.block_args(lb)[0];
    {
        let mut l = inside(&mut e, lb);
        let w = operand_tile(
            &mut l,
            &buf,
            &g.b2,
            (&[n1, n2], &[c0, n0], &[n1, bn2]),
            g.calc,
            b2_elem,
        );
        let ws = stage(&mut l, w, &[n1, bn2], b2_elem, t.stages);
        let acc_t = tile::plain_tile(&u, vec![bm, bn2], g.calc, Space::Register);
        let zero = ab::number(&mut l, 0.0, g.calc);
        let z = spread(&mut l, zero, acc_t, &[]);
        let acc = block_gemm(&mut l, h, ws, z, acc_t);
        let at = [m0, n0];
        let r2 = At {
            bufs: &buf,
            view: &g.p2.c_view,
            at: &at,
            shape: &[bm, bn2],
            calc: g.calc,
        };
        let y = emit_chain(&mut l, &g.second, acc, &r2);
        let y_elem = elem_of(l.ctx, y);
        store(&mut l, y, out_buf, &at, &[bm, bn2], &g.store, y_elem, elem);
        yield_(&mut l, &[]);
    }
    for_loop(&mut e, (c0, cn2, cbn2), &[], &[], lb);
    ret(&mut e);
    let kernel = finish(
        ctx,
        group,
        func,
        kb,
        &format!("gemm_chain_{n_kernel}"),
        &[(g.p1.m + bm - 1) / bm],
        &[g.out_ty],
        loc,
    );
    mark_tuned(ctx, kernel, &g.key);
}

/// Say on `kernel` which tuning-cache entry its tiles come from.
pub(super) fn mark_tuned(ctx: &mut Context, kernel: Op, key: &str) {
    let u = ctx.uniquer().clone();
    let i = ctx.ident(crate::tile_to_gpu::TUNE_ATTR);
    ctx.set_attr(kernel, i, u.string_attr(key));
}

/// Writes what tuning `t` decides beyond the tile sizes on tile kernel
/// `kernel` (GEMM or attention): its block size (`threads`, where not the
/// target's), how its pipelined loops fill their rings (`copy`, which the
/// layout passes carry to the loops), persistent, its block count, its
/// tiles' order (`group`) and its groups of consumers (`consumers`).
pub(super) fn write_kernel_tuning(ctx: &mut Context, kernel: Op, t: &super::tuning::Tuning) {
    let u = ctx.uniquer().clone();
    let int = |v: i64| {
        u.attr(AttrKind::Integer {
            value: i128::from(v),
            ty: u.int_type(64),
        })
    };
    if t.threads > 0 {
        let threads = ctx.ident("threads");
        ctx.set_inherent_attr(kernel, threads, int(t.threads));
    }
    if let Some(copy) = t.copy {
        let name = ctx.ident("copy");
        ctx.set_inherent_attr(kernel, name, copy.attr(&u));
    }
    if t.persistent > 0 {
        let p = ctx.ident("persistent");
        ctx.set_inherent_attr(kernel, p, int(t.persistent));
    }
    if t.group > 0 {
        let g = ctx.ident("group");
        ctx.set_inherent_attr(kernel, g, int(t.group));
    }
    if t.consumers > 1 && t.persistent > 0 {
        let c = ctx.ident("consumers");
        ctx.set_inherent_attr(kernel, c, int(t.consumers));
    }
}
