//! The elementwise generator: DAGs of elementwise ops over inputs read
//! through views.

use super::*;
use aic_dialects::arith::build as ab;
use std::collections::HashMap;

/// Lower one elementwise group: a DAG of elementwise ops over one output
/// shape whose inputs enter directly or through broadcasts, transposes,
/// reshapes and slices (read through descriptors), as blocks of rows of the
/// output viewed as `[R, N]` (rows longer than a block's share split into
/// column blocks). Narrow floats are computed in f32.
pub(super) fn elementwise(
    ctx: &mut Context,
    group: Op,
    func: Op,
    target: &str,
    n_kernel: usize,
) -> Result<(), Skip> {
    let body = Body::of(ctx, group)?;
    let [out] = body.yields[..] else {
        return Err(NOT_MINE.into());
    };
    let out_ty = ctx.value_type(out);
    let full = shape(ctx, out);
    let Some(&n) = full.last() else {
        return Err("a scalar result".into());
    };
    let rows_n: i64 = full[..full.len() - 1].iter().product();
    let elem = ctx
        .type_kind(out_ty)
        .element_type()
        .filter(|t| {
            matches!(
                ctx.type_kind(*t),
                TypeKind::Float(_) | TypeKind::Integer { .. }
            )
        })
        .ok_or("a result of neither floats nor integers")?;
    if !body.ops.iter().any(|o| ctx.result(*o, 0) == out) {
        return Err("a result that is not computed".into());
    }
    let as_rows = Desc::reshape(&full, &[rows_n, n]);
    // Every value read from memory, once, with its buffer descriptor over
    // `[R, N]`, or the literal it is.
    let mut reads: Vec<(Value, Value, Desc)> = Vec::new();
    let mut literals: HashMap<Value, (Attr, Type)> = HashMap::new();
    for &o in &body.ops {
        if !is_elementwise(ctx, o) {
            return Err(format!("{} is not an elementwise op", ctx.op_name(o)));
        }
        if shape(ctx, ctx.result(o, 0)) != full {
            return Err(format!(
                "{} of another shape than the result",
                ctx.op_name(o)
            ));
        }
        for (k, x) in ctx.operands(o).iter().enumerate() {
            if reads.iter().any(|(v, _, _)| v == x) || literals.contains_key(x) {
                continue;
            }
            let Some(src) = body.views.source(ctx, &body.inputs, *x) else {
                continue;
            };
            if let Some(lit) = body.views.literal(src.input) {
                literals.insert(*x, lit);
                continue;
            }
            let mut d = src.desc;
            let s = shape(ctx, *x);
            if s != full {
                // A bias vector is read along the last dim of every row, a
                // rank-0 operand everywhere.
                let bias = aic_dialects::graph::BiasAdd::is(ctx, o) && k == 1 && s == [n];
                let dims: &[usize] = if s.is_empty() {
                    &[]
                } else if bias {
                    &[full.len() - 1]
                } else {
                    return Err(format!(
                        "{} reads an input of another shape",
                        ctx.op_name(o)
                    ));
                };
                let over = Desc::broadcast(&s, &full, dims);
                d = d.compose(&over).map_err(|e| e.to_string())?;
            }
            let d = d.compose(&as_rows).map_err(|e| e.to_string())?;
            reads.push((*x, src.input, d.simplify()));
        }
    }
    // On a NeuronCore a block is a row a partition (128) of up to 512
    // columns: each instruction's fixed cost is paid over the 128 lanes.
    let (br, bn) = if target == "trn1" {
        (partition_rows(rows_n), n.min(PARTITION_COLUMNS))
    } else {
        (rows_per_block(rows_n, n), n.min(BLOCK_ELEMENTS))
    };
    // Elementwise rows need not stay whole: a row longer than a block's
    // share (a 1-D tensor is one row) spreads over blocks along a second
    // grid axis, or a single block would walk all of it.
    let loc = ctx.op(group).loc;
    let (kb, bufs) = kernel_block(ctx, group, &[out_ty], loc);
    let out_buf = *bufs.last().expect("the output");
    let mut e = Builder {
        ctx,
        ip: InsertPoint::End(kb),
        loc,
    };
    let r0 = block_start(&mut e, 0, br);
    let c0 = if bn < n {
        block_start(&mut e, 1, bn)
    } else {
        ab::index(&mut e, 0)
    };
    let mut tiles: HashMap<Value, In> = Default::default();
    for (v, src, d) in &reads {
        let buf = buffer(&body.inputs, &bufs, *src);
        let calc = compute_elem(e.ctx, storage_elem(e.ctx, *src));
        let t = load(&mut e, buf, &[r0, c0], &[br, bn], d, calc);
        tiles.insert(*v, In::Tile(t));
    }
    for (v, (a, el)) in &literals {
        tiles.insert(*v, In::Lit(*a, *el));
    }
    for &o in &body.ops {
        let res = e.ctx.result(o, 0);
        let xs: Vec<In> = e.ctx.operands(o).iter().map(|x| tiles[x]).collect();
        let t = emit_op(&mut e, o, &xs, &[br, bn]);
        tiles.insert(res, In::Tile(t));
    }
    let In::Tile(y) = tiles[&out] else {
        unreachable!("the result is computed by an op");
    };
    let calc = elem_of(e.ctx, y);
    let out_desc = Desc::row_major(&full)
        .compose(&as_rows)
        .map_err(|e| e.to_string())?
        .simplify();
    store(
        &mut e,
        y,
        out_buf,
        &[r0, c0],
        &[br, bn],
        &out_desc,
        calc,
        elem,
    );
    ret(&mut e);
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("elementwise_{n_kernel}"),
        &if bn < n {
            vec![(rows_n + br - 1) / br, (n + bn - 1) / bn]
        } else {
            vec![(rows_n + br - 1) / br]
        },
        &[out_ty],
        loc,
    );
    Ok(())
}
