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
        .filter(|t| match ctx.type_kind(*t) {
            TypeKind::Float(_) => true,
            TypeKind::Integer { width, .. } => *width > 1,
            _ => false,
        })
        .ok_or("a result of neither floats nor integers")?;
    let int = matches!(ctx.type_kind(elem), TypeKind::Integer { .. });
    let calc = compute_elem(ctx, elem);
    let as_rows = Desc::reshape(&full, &[rows_n, n]);
    // Every value read from memory, once, with its buffer descriptor over `[R, N]`.
    let mut reads: Vec<(Value, Value, Desc)> = Vec::new();
    for &o in &body.ops {
        let Some(ep) = Epilogue::of(ctx, o)
            .filter(|ep| !int || ep.on_integers())
            .filter(|_| ctx.value_type(ctx.result(o, 0)) == out_ty)
        else {
            return Err(format!(
                "{} is not an elementwise op of the result's type",
                ctx.op_name(o)
            ));
        };
        for x in ctx.operands(o) {
            if reads.iter().any(|(v, _, _)| v == x) {
                continue;
            }
            let Some(src) = body.views.source(ctx, &body.inputs, *x) else {
                continue;
            };
            let mut d = src.desc;
            if shape(ctx, *x) != full {
                // A bias vector is read along the last dim of every row.
                if !ep.is(&aic_dialects::graph::BIAS_ADD) || shape(ctx, *x) != [n] {
                    return Err(format!("{} reads an input of another shape", ep.name()));
                }
                let over = Desc::broadcast(&[n], &full, &[full.len() - 1]);
                d = d.compose(&over).map_err(|e| e.to_string())?;
            }
            let d = d.compose(&as_rows).map_err(|e| e.to_string())?;
            reads.push((*x, src.input, d.simplify()));
        }
    }
    let br = rows_per_block(rows_n, n);
    // Elementwise rows need not stay whole: a row longer than a block's
    // share (a 1-D tensor is one row) spreads over blocks along a second
    // grid axis, or a single block would walk all of it.
    let bn = n.min(BLOCK_ELEMENTS);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let (kb, bufs) = kernel_block(ctx, group, &[out_ty], loc);
    let out_buf = *bufs.last().expect("the output");
    let row_t = tile::plain_tile(&u, vec![br, bn], calc, Space::Register);
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
    let mut tiles: HashMap<Value, Value> = Default::default();
    for (v, src, d) in &reads {
        let buf = buffer(&body.inputs, &bufs, *src);
        let t = load(&mut e, buf, &[r0, c0], &[br, bn], d, calc);
        tiles.insert(*v, t);
    }
    for &o in &body.ops {
        let res = e.ctx.result(o, 0);
        let ep = Epilogue::of(e.ctx, o).expect("checked");
        let xs: Vec<Value> = e.ctx.operands(o).iter().map(|x| tiles[x]).collect();
        let t = map(&mut e, &xs, row_t, calc, &mut |s, a| {
            ep.emit(s, a[0], a.get(1).copied())
        });
        tiles.insert(res, t);
    }
    let y = tiles[&out];
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
