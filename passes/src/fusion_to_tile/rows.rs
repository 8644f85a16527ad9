//! The row generator: softmax, layernorm, rmsnorm and reductions over the
//! last dimension with fused prologue and epilogue; [`RowOp`] is shared
//! with GEMMs whose epilogue normalises whole rows.

use super::*;
use aic_dialects::arith::{self, build as ab};
use aic_dialects::{graph, math};

/// The rows row op `o` reduces or normalises (its input), if `o` is a
/// row op the row generator handles: a softmax, layernorm, rmsnorm or
/// reduction.
pub(super) fn row_input(ctx: &Context, o: Op) -> Option<Value> {
    (graph::Softmax::of(ctx, o).map(|s| s.x(ctx)))
        .or_else(|| graph::Layernorm::of(ctx, o).map(|l| l.x(ctx)))
        .or_else(|| graph::Rmsnorm::of(ctx, o).map(|r| r.x(ctx)))
        .or_else(|| graph::Reduce::of(ctx, o).map(|r| r.x(ctx)))
}

/// Whether `o` is a row op: one the row generator handles, or a group norm
/// (whose generator splits its rows).
pub(super) fn is_row_op(ctx: &Context, o: Op) -> bool {
    row_input(ctx, o).is_some() || graph::Groupnorm::is(ctx, o)
}

/// A row op over the last dimension, as a kernel computes it on a tile of
/// whole rows.
pub(super) struct RowOp {
    /// `softmax`, `layernorm`, `rmsnorm`, or a reduction kind (`sum`,
    /// `max`, `min`, `mean`).
    pub(super) kind: String,
    /// The normalisations' epsilon.
    pub(super) eps: f64,
    /// The dims it reduces or normalises over, in order.
    pub(super) axes: Vec<usize>,
    /// The scale and shift vectors of a normalisation, read as broadcasts
    /// over the rows' shape.
    pub(super) params: Vec<Operand>,
}

impl RowOp {
    /// The row op `red` over values of shape `full`, if it reduces the last
    /// dimension and its parameters are vectors of it.
    pub(super) fn of(
        ctx: &Context,
        red: Op,
        known: (&[Value], &Views),
        full: &[i64],
        taken: &mut Vec<Op>,
    ) -> Result<RowOp, Skip> {
        let name = ctx.op_name(red);
        let rank = full.len() as i64;
        let last = rank - 1;
        let n = *full.last().ok_or("a scalar input")?;
        let norm = |a: i64| -> Result<usize, Skip> {
            let a = if a < 0 { a + rank } else { a };
            usize::try_from(a)
                .ok()
                .filter(|a| (*a as i64) < rank)
                .ok_or_else(|| format!("axis {a} out of range"))
        };
        let mut params = Vec::new();
        let mut axes = vec![last as usize];
        let mut eps = 1e-5;
        // A normalisation's scale and shift vectors and its epsilon.
        let mut norm_params = |vectors: &[Value], epsilon: Option<Attr>| -> Result<(), Skip> {
            for p in vectors {
                if shape(ctx, *p) != [n] {
                    return Err(format!(
                        "{name}'s scale is not a vector of the last dimension"
                    ));
                }
                let mut o = operand(ctx, *p, known, taken)?;
                o.compose(&Desc::broadcast(&[n], full, &[full.len() - 1]))?;
                params.push(o);
            }
            eps = graph::interp::epsilon(ctx, epsilon);
            Ok(())
        };
        let kind = if let Some(s) = graph::Softmax::of(ctx, red) {
            axes = vec![norm(s.axis(ctx).unwrap_or(-1))?];
            "softmax".to_string()
        } else if let Some(r) = graph::Reduce::of(ctx, red) {
            axes = r
                .axes(ctx)
                .unwrap_or_default()
                .into_iter()
                .map(norm)
                .collect::<Result<_, _>>()?;
            axes.sort_unstable();
            axes.dedup();
            if axes.is_empty() {
                return Err("a reduction over no dims".into());
            }
            r.kind(ctx)
                .ok_or("a reduction without a kind")?
                .keyword()
                .to_string()
        } else if let Some(l) = graph::Layernorm::of(ctx, red) {
            norm_params(&[l.gamma(ctx), l.beta(ctx)], l.epsilon(ctx))?;
            "layernorm".to_string()
        } else if let Some(r) = graph::Rmsnorm::of(ctx, red) {
            norm_params(&[r.gamma(ctx)], r.epsilon(ctx))?;
            "rmsnorm".to_string()
        } else {
            return Err(format!("{name} is not a row op"));
        };
        Ok(RowOp {
            kind,
            eps,
            axes,
            params,
        })
    }

    /// Whether the result has one value per row (a reduction) rather than
    /// the rows' shape.
    pub(super) fn reduces(&self) -> bool {
        matches!(self.kind.as_str(), "sum" | "max" | "min" | "mean")
    }

    /// The op on the rows of tile `v` (`[R, N]` at `at`, every column a
    /// real one: tiles hold whole rows), parameters read at `at`. Gives a
    /// tile of `[R, N]`, or `[R]` for a reduction.
    pub(super) fn emit(&self, e: &mut Builder<'_>, v: Value, at: &At<'_>) -> Value {
        let (r, n, elem) = (at.shape[0], at.shape[1], at.calc);
        let u = e.ctx.uniquer().clone();
        let (row_t, one_t) = (
            tile::plain_tile(&u, vec![r, n], elem, Space::Register),
            tile::plain_tile(&u, vec![r], elem, Space::Register),
        );
        let reduce =
            |e: &mut Builder<'_>, t: Value, k: tile::ReduceKind| reduce_rows(e, t, k, one_t);
        let spread = |e: &mut Builder<'_>, t: Value| spread(e, t, row_t, &[0]);
        let inv_n = 1.0 / n as f64;
        let mut mul = |s: &mut Builder<'_>, a: &[Value]| ab::binary::<arith::MulF>(s, a[0], a[1]);
        let mut add = |s: &mut Builder<'_>, a: &[Value]| ab::binary::<arith::AddF>(s, a[0], a[1]);
        let scaled = |e: &mut Builder<'_>, t: Value| {
            map(e, &[t], one_t, elem, &mut |s, a| {
                let c = ab::number(s, inv_n, elem);
                ab::binary::<arith::MulF>(s, a[0], c)
            })
        };
        let eps = self.eps;
        let inv_std = |e: &mut Builder<'_>, t: Value| {
            map(e, &[t], one_t, elem, &mut |s, a| {
                let c = ab::number(s, eps, elem);
                let y = ab::binary::<arith::AddF>(s, a[0], c);
                ab::unary::<math::Rsqrt>(s, y)
            })
        };
        match self.kind.as_str() {
            "softmax" => {
                // exp(x - m) = exp2(x·log2 e - m·log2 e): one fma an element;
                // and a row's sum inverted once, not divided by per element.
                let m = reduce(e, v, tile::ReduceKind::Max);
                let neg_ml = map(e, &[m], one_t, elem, &mut |s, a| {
                    let c = ab::number(s, -std::f64::consts::LOG2_E, elem);
                    ab::binary::<arith::MulF>(s, a[0], c)
                });
                let mb = spread(e, neg_ml);
                let ex = map(e, &[v, mb], row_t, elem, &mut |s, a| {
                    let c = ab::number(s, std::f64::consts::LOG2_E, elem);
                    exp2_fma(s, a[0], c, a[1], false)
                });
                let sm = reduce(e, ex, tile::ReduceKind::Sum);
                let inv = map(e, &[sm], one_t, elem, &mut |s, a| {
                    let one = ab::number(s, 1.0, elem);
                    ab::binary::<arith::DivF>(s, one, a[0])
                });
                let ib = spread(e, inv);
                map(e, &[ex, ib], row_t, elem, &mut mul)
            }
            "layernorm" | "rmsnorm" => {
                let centred = if self.kind == "layernorm" {
                    let s1 = reduce(e, v, tile::ReduceKind::Sum);
                    let mean = scaled(e, s1);
                    let mb = spread(e, mean);
                    map(e, &[v, mb], row_t, elem, &mut |s, a| {
                        ab::binary::<arith::SubF>(s, a[0], a[1])
                    })
                } else {
                    v
                };
                let sq = map(e, &[centred, centred], row_t, elem, &mut mul);
                let ss = reduce(e, sq, tile::ReduceKind::Sum);
                let var = scaled(e, ss);
                let rs = inv_std(e, var);
                let rb = spread(e, rs);
                let mut y = map(e, &[centred, rb], row_t, elem, &mut mul);
                // The scale, then the shift.
                for (i, p) in self.params.iter().enumerate() {
                    let t = at.read(e, p);
                    y = if i == 0 {
                        map(e, &[y, t], row_t, elem, &mut mul)
                    } else {
                        map(e, &[y, t], row_t, elem, &mut add)
                    };
                }
                y
            }
            k => {
                // `mean` is a sum, scaled.
                let t = reduce(
                    e,
                    v,
                    tile::ReduceKind::from_keyword(k).unwrap_or(tile::ReduceKind::Sum),
                );
                if k == "mean" { scaled(e, t) } else { t }
            }
        }
    }
}

/// Lower one row-reduction group: a softmax, layernorm, rmsnorm or
/// reduction over the last dimension of an operand computed on the fly (an
/// elementwise prologue, views, concatenations), and an elementwise
/// epilogue, as a grid of blocks of whole rows (each block holds `BR` rows
/// of `N` in registers; rows past the end are masked). Narrow floats are
/// computed in f32.
pub(super) fn rows(
    ctx: &mut Context,
    group: Op,
    func: Op,
    (reduce_chunk, target): (i64, &str),
    n_kernel: usize,
) -> Result<(), Skip> {
    let body = Body::of(ctx, group)?;
    let ops = &body.ops;
    let (red, x0) = ops
        .iter()
        .find_map(|o| Some((*o, row_input(ctx, *o)?)))
        .ok_or(NOT_MINE)?;
    if ctx.results(group).count() != 1 {
        return Err("a row reduction with several results".into());
    }
    let known = body.known();
    let mut taken = vec![red];
    let x = operand(ctx, x0, known, &mut taken)?;
    let full = shape(ctx, x0);
    if full.is_empty() {
        return Err("a scalar input".into());
    }
    let row = RowOp::of(ctx, red, known, &full, &mut taken)?;
    // Rows are the kept dims, columns the reduced ones: a transposing view
    // when they are not the trailing dims.
    let kept: Vec<usize> = (0..full.len()).filter(|d| !row.axes.contains(d)).collect();
    let perm: Vec<usize> = kept.iter().chain(&row.axes).copied().collect();
    let rows_n: i64 = kept.iter().map(|d| full[*d]).product();
    let n: i64 = row.axes.iter().map(|d| full[*d]).product();
    let rshape = shape(ctx, ctx.result(red, 0));
    let (epi, _, cur, used) = read_chain(
        ctx,
        ops,
        ctx.result(red, 0),
        known,
        &rshape,
        false,
        &mut taken,
    )?;
    if used < ops.len() {
        return Err(format!("{} is not an epilogue op", ctx.op_name(ops[used])));
    }
    if let Some(o) = ops.iter().find(|o| !taken.contains(o)) {
        return Err(format!(
            "{} is neither prologue, row op nor epilogue",
            ctx.op_name(*o)
        ));
    }
    let out_ty = ctx.value_type(cur);
    let elem = storage_elem(ctx, cur);
    // The row op computes in its input's compute type.
    let calc = compute_elem(ctx, float_elem(ctx, ctx.value_type(x0))?);
    let br = if target == "trn1" {
        partition_rows(rows_n)
    } else {
        rows_per_block(rows_n, n)
    };
    let loc = ctx.op(group).loc;
    let (kb, bufs) = kernel_block(ctx, group, &[out_ty], loc);
    let buf = |v: Value| buffer(&body.inputs, &bufs, v);
    let out_buf = *bufs.last().expect("the output");
    // The rows' index space `[R, N]` (and `[R]` after a reduction) as views
    // of the full shapes.
    let moved: Vec<i64> = perm.iter().map(|d| full[*d]).collect();
    let as_rows = Desc::transpose(&full, &perm)
        .compose(&Desc::reshape(&moved, &[rows_n, n]))
        .map_err(|e| e.to_string())?;
    let as_reduced = Desc::reshape(&rshape, &[rows_n]);
    let reduces = row.reduces();
    if let Some((chunk, parts)) = split(reduces, rows_n, n, br, reduce_chunk) {
        let stages = Split {
            kind: row.kind.clone(),
            rows_n,
            n,
            br,
            chunk,
            parts,
            calc,
            elem,
        };
        let ends = (&epi, cur, &rshape[..], &as_reduced);
        return stages.emit(ctx, (group, func, n_kernel), &body, &x, &as_rows, ends);
    }
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let r0 = block_start(&mut e, 0, br);
    let c0 = ab::index(&mut e, 0);
    let full_at = [r0, c0];
    let whole = At {
        bufs: &buf,
        view: &as_rows,
        at: &full_at,
        shape: &[br, n],
        calc,
    };
    let v = whole.read(&mut e, &x);
    let result = row.emit(&mut e, v, &whole);
    let (res_shape, res_view, res_at) = if reduces {
        (vec![br], &as_reduced, vec![r0])
    } else {
        (vec![br, n], &as_rows, vec![r0, c0])
    };
    let reduced = At {
        bufs: &buf,
        view: res_view,
        at: &res_at,
        shape: &res_shape,
        calc,
    };
    let y = emit_chain(&mut e, &epi, result, &reduced);
    // The result may differ from the row op's by unit dims.
    let to = shape(e.ctx, cur);
    let to_result = Desc::reshape(&to, &rshape)
        .compose(res_view)
        .map_err(|e| e.to_string())?;
    let out_desc = over(&Desc::row_major(&to), &to_result)?;
    let y_elem = elem_of(e.ctx, y);
    store(
        &mut e, y, out_buf, &res_at, &res_shape, &out_desc, y_elem, elem,
    );
    ret(&mut e);
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("rows_{n_kernel}"),
        &[(rows_n + br - 1) / br],
        &[out_ty],
        loc,
    );
    Ok(())
}

/// How many blocks a reduction should run on at least: a few per
/// multiprocessor of a large GPU (132 on an H100), so that all of them
/// stream their share of the input.
const SPREAD_BLOCKS: i64 = 256;

/// Whether a reduction of `rows_n` rows of `n` in blocks of `br` rows runs
/// on too few blocks to use the GPU, and if so, the columns of the rows one
/// block reduces (a power of two, at least `min_chunk`) and how many such
/// parts a row has: an output that is tiny against its input (a mean over
/// everything, a sum over the batch) spreads over many blocks.
fn split(reduces: bool, rows_n: i64, n: i64, br: i64, min_chunk: i64) -> Option<(i64, i64)> {
    let row_blocks = (rows_n + br - 1) / br;
    if !reduces || row_blocks * 4 >= SPREAD_BLOCKS {
        return None;
    }
    let want = (SPREAD_BLOCKS + row_blocks - 1) / row_blocks;
    let chunk = (((n + want - 1) / want).max(1) as u64)
        .next_power_of_two()
        .max(min_chunk.max(1) as u64) as i64;
    let parts = (n + chunk - 1) / chunk;
    (parts > 1).then_some((chunk, parts))
}

/// A reduction split over blocks: a first kernel on a grid of row blocks x
/// `parts` reduces `chunk` columns of `br` rows each (with the prologue;
/// columns past the end count as the reduction's identity) to partial
/// results `[parts, rows_n]` in the compute type; a second kernel on the
/// row blocks reduces the partials of each row, scales a mean, applies the
/// epilogue and stores the result.
struct Split {
    kind: String,
    rows_n: i64,
    n: i64,
    br: i64,
    chunk: i64,
    parts: i64,
    calc: Type,
    elem: Type,
}

impl Split {
    /// Build both kernels and replace `group` (of function `func`, the
    /// `n_kernel`th) by their launches. `x` is the reduced operand, read
    /// through `as_rows` (`[rows_n, n]`); `ends` the epilogue, the value it
    /// ends in, the reduction's result shape and its view as `[rows_n]`.
    fn emit(
        &self,
        ctx: &mut Context,
        (group, func, n_kernel): (Op, Op, usize),
        body: &Body,
        x: &Operand,
        as_rows: &Desc,
        (epi, cur, rshape, as_reduced): (&Chain, Value, &[i64], &Desc),
    ) -> Result<(), Skip> {
        let (br, calc) = (self.br, self.calc);
        let u = ctx.uniquer().clone();
        let loc = ctx.op(group).loc;
        let part_ty = u.ty(TypeKind::Tensor {
            shape: vec![self.parts, self.rows_n].into(),
            elem: calc,
            encoding: None,
        });
        let one_t = tile::plain_tile(&u, vec![br], calc, Space::Register);
        // The first stage: partial results.
        let (kb, bufs) = kernel_block(ctx, group, &[part_ty], loc);
        let buf = |v: Value| buffer(&body.inputs, &bufs, v);
        let part_buf = *bufs.last().expect("the partials");
        let mut e = Builder {
            ctx,
            ip: InsertPoint::End(kb),
            loc,
        };
        let r0 = block_start(&mut e, 0, br);
        let c0 = block_start(&mut e, 1, self.chunk);
        let tile_shape = [br, self.chunk];
        let at = [r0, c0];
        let tile_at = At {
            bufs: &buf,
            view: as_rows,
            at: &at,
            shape: &tile_shape,
            calc,
        };
        let v = tile_at.read(&mut e, x);
        let row_t = tile_at.ty(&u);
        let in_range = Desc::row_major(&[self.rows_n, self.n]);
        let ok = valid(&mut e, &at, &tile_shape, &in_range);
        let (kind, identity) = match self.kind.as_str() {
            "max" => (tile::ReduceKind::Max, f64::NEG_INFINITY),
            "min" => (tile::ReduceKind::Min, f64::INFINITY),
            _ => (tile::ReduceKind::Sum, 0.0),
        };
        let v = map_typed(&mut e, &[v, ok], &[calc, i1(&u)], row_t, &mut |b, a| {
            let z = ab::number(b, identity, calc);
            ab::select(b, a[1], a[0], z)
        });
        let p = reduce_rows(&mut e, v, kind, one_t);
        let j = program_id(&mut e, 1);
        let parts_desc = Desc::row_major(&[self.parts, self.rows_n]);
        store(
            &mut e,
            p,
            part_buf,
            &[j, r0],
            &[br],
            &parts_desc,
            calc,
            calc,
        );
        ret(&mut e);
        let row_blocks = (self.rows_n + br - 1) / br;
        let first = format!("rows_{n_kernel}_parts");
        let (kb, args) = prune(ctx, group, kb);
        add_kernel(ctx, func, kb, &first, &[row_blocks, self.parts], loc);
        let l1 = add_launch(ctx, group, &args, &first, &[part_ty], loc);
        let partials = ctx.result(l1, 0);
        // The second stage: each row's partials, the mean's scale, the
        // epilogue. Its buffers: the group's inputs, the partials, the
        // result.
        let out_ty = ctx.value_type(cur);
        let (kb, bufs) = kernel_block(ctx, group, &[part_ty, out_ty], loc);
        let buf = |v: Value| buffer(&body.inputs, &bufs, v);
        let (part_buf, out_buf) = (bufs[bufs.len() - 2], bufs[bufs.len() - 1]);
        let mut e = Builder {
            ctx,
            ip: InsertPoint::End(kb),
            loc,
        };
        let r0 = block_start(&mut e, 0, br);
        let c0 = ab::index(&mut e, 0);
        let as_parts = Desc::transpose(&[self.parts, self.rows_n], &[1, 0]);
        let t = load(
            &mut e,
            part_buf,
            &[r0, c0],
            &[br, self.parts],
            &as_parts,
            calc,
        );
        let mut t = reduce_rows(&mut e, t, kind, one_t);
        if self.kind == "mean" {
            let inv_n = 1.0 / self.n as f64;
            t = map(&mut e, &[t], one_t, calc, &mut |s, a| {
                let c = ab::number(s, inv_n, calc);
                ab::binary::<arith::MulF>(s, a[0], c)
            });
        }
        let res_at = [r0];
        let reduced = At {
            bufs: &buf,
            view: as_reduced,
            at: &res_at,
            shape: &[br],
            calc,
        };
        let y = emit_chain(&mut e, epi, t, &reduced);
        let to = shape(e.ctx, cur);
        let to_result = Desc::reshape(&to, rshape)
            .compose(as_reduced)
            .map_err(|e| e.to_string())?;
        let out_desc = over(&Desc::row_major(&to), &to_result)?;
        let y_elem = elem_of(e.ctx, y);
        store(
            &mut e,
            y,
            out_buf,
            &res_at,
            &[br],
            &out_desc,
            y_elem,
            self.elem,
        );
        ret(&mut e);
        let second = format!("rows_{n_kernel}");
        finish_with(
            ctx,
            (group, func, kb),
            (&second, &[row_blocks]),
            &[partials],
            &[out_ty],
            loc,
        );
        Ok(())
    }
}
