//! The elementwise generator: DAGs of elementwise ops over inputs read
//! through views.

use super::*;

/// Lower one elementwise group: a DAG of elementwise ops over one output
/// shape whose inputs enter directly or through broadcasts, transposes,
/// reshapes and slices (read through descriptors), as blocks of rows of the
/// output viewed as `[R, N]`.
pub(super) fn elementwise(
    ctx: &mut Context,
    group: Op,
    func: Op,
    n_kernel: usize,
) -> Result<(), Skip> {
    let (gb, ops) = body_ops(ctx, group);
    let gargs: Vec<Value> = ctx.block_args(gb).to_vec();
    let out = ctx.result(*ops.last().ok_or("empty body")?, 0);
    let out_ty = ctx.value_type(out);
    let full = shape(ctx, out);
    let Some(&n) = full.last() else {
        return Err("a scalar result".into());
    };
    let rows_n: i64 = full[..full.len() - 1].iter().product();
    let elem = float_elem(ctx, out_ty)?;
    // Views of inputs (chains of broadcasts, transposes, reshapes and
    // slices): each view value, the input it reads, and its descriptor.
    let as_rows = Desc::reshape(&full, &[rows_n, n]);
    let mut views: std::collections::HashMap<Value, (Value, Desc)> = Default::default();
    let mut reads: Vec<(Value, Value, Desc)> = Vec::new();
    for &o in &ops {
        let name = ctx.op_name(o);
        let x = ctx.operands(o).first().copied();
        let base = x.and_then(|x| {
            if gargs.contains(&x) {
                Some((x, Desc::row_major(&shape(ctx, x))))
            } else {
                views.get(&x).cloned()
            }
        });
        if let (Some((src, parent)), Some(x)) = (base, x) {
            let (from, to) = (shape(ctx, x), shape(ctx, ctx.result(o, 0)));
            let view = match name {
                "graph.broadcast" => {
                    let dims: Vec<usize> = ints(ctx, o, "dims")
                        .into_iter()
                        .map(|d| d as usize)
                        .collect();
                    Some(Desc::broadcast(&from, &to, &dims))
                }
                "graph.transpose" => {
                    let perm: Vec<usize> = ints(ctx, o, "perm")
                        .into_iter()
                        .map(|d| d as usize)
                        .collect();
                    Some(Desc::transpose(&from, &perm))
                }
                "graph.reshape" => Some(Desc::reshape(&from, &to)),
                "graph.slice" => Some(Desc::strided_slice(
                    &from,
                    &ints(ctx, o, "start"),
                    &ints(ctx, o, "limit"),
                    &ints(ctx, o, "strides"),
                )),
                _ => None,
            };
            if let Some(v) = view {
                let d = parent.compose(&v).map_err(|e| e.to_string())?;
                views.insert(ctx.result(o, 0), (src, d));
                continue;
            }
        }
        let known = EPILOGUE.iter().any(|(e, _)| *e == name) && name != "graph.bias_add";
        if !known || ctx.value_type(ctx.result(o, 0)) != out_ty {
            return Err(format!(
                "{name} is not an elementwise op of the result's type"
            ));
        }
        for x in ctx.operands(o) {
            if reads.iter().any(|(v, _, _)| v == x) {
                continue;
            }
            let (src, d) = if gargs.contains(x) {
                (*x, Desc::row_major(&shape(ctx, *x)))
            } else if let Some((src, d)) = views.get(x) {
                (*src, d.clone())
            } else {
                continue;
            };
            if shape(ctx, *x) != full {
                return Err(format!("{name} reads an input of another shape"));
            }
            let d = d.compose(&as_rows).map_err(|e| e.to_string())?;
            reads.push((*x, src, d.simplify()));
        }
    }
    let br = rows_per_block(rows_n);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let (kb, bufs) = kernel_block(ctx, group, out_ty, loc);
    let out_buf = *bufs.last().expect("the output");
    let row_t = tile::plain_tile(&u, vec![br, n], elem, Space::Register);
    let flat = coord::desc_attr(&u, &Desc::row_major(&[rows_n, n]));
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let p = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(0))]);
    let cbr = e.index(br);
    let r0 = e.val("arith.muli", &[p, cbr], index, vec![]);
    let c0 = e.index(0);
    let mut tiles: std::collections::HashMap<Value, Value> = Default::default();
    for (v, src, d) in &reads {
        let buf = bufs[gargs.iter().position(|x| x == src).expect("a group input")];
        let t = e.val(
            "tile.load",
            &[buf, r0, c0],
            row_t,
            vec![("desc", coord::desc_attr(&u, d))],
        );
        tiles.insert(*v, t);
    }
    for &o in &ops {
        let res = e.ctx.result(o, 0);
        if tiles.contains_key(&res) || views.contains_key(&res) {
            continue;
        }
        let name: &'static str = EPILOGUE
            .iter()
            .find(|(x, _)| *x == e.ctx.op_name(o))
            .map(|(x, _)| *x)
            .expect("checked");
        let xs: Vec<Value> = e.ctx.operands(o).iter().map(|x| tiles[x]).collect();
        let t = map(&mut e, &xs, row_t, elem, &mut |s, a| {
            s.scalar(name, a[0], a.get(1).copied(), elem)
        });
        tiles.insert(res, t);
    }
    let y = tiles[&out];
    e.op(
        "tile.store",
        &[y, out_buf, r0, c0],
        &[],
        vec![("desc", flat)],
    );
    e.op("tile.return", &[], &[], vec![]);
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("elementwise_{n_kernel}"),
        &[(rows_n + br - 1) / br],
        out_ty,
        loc,
    );
    Ok(())
}
