//! The row generator: softmax, layernorm, rmsnorm and reductions over the
//! last dimension with fused prologue and epilogue.

use super::*;

/// The reductions the row generator handles (over the last dimension).
pub(super) const ROW_OPS: &[&str] = &[
    "graph.softmax",
    "graph.layernorm",
    "graph.rmsnorm",
    "graph.reduce",
];

/// Lower one row-reduction group: an elementwise prologue, a softmax,
/// layernorm, rmsnorm or reduction over the last dimension, and an
/// elementwise epilogue, as a grid of blocks of whole rows (each block
/// holds `BR` rows of `N` in registers; rows past the end are masked).
pub(super) fn rows(ctx: &mut Context, group: Op, func: Op, n_kernel: usize) -> Result<(), Skip> {
    let (gb, ops) = body_ops(ctx, group);
    let gargs: Vec<Value> = ctx.block_args(gb).to_vec();
    let r = ops
        .iter()
        .position(|o| ROW_OPS.contains(&ctx.op_name(*o)))
        .ok_or("no row reduction")?;
    let red = ops[r];
    let rname = ctx.op_name(red).to_string();
    let x0 = if r == 0 {
        ctx.operands(red)[0]
    } else {
        ctx.operands(ops[0])[0]
    };
    if !gargs.contains(&x0) {
        return Err("the rows do not come from a group input".into());
    }
    let full = shape(ctx, x0);
    let Some(&n) = full.last() else {
        return Err("a scalar input".into());
    };
    let rows_n: i64 = full[..full.len() - 1].iter().product();
    let (pro, _, cur, used) = read_chain(ctx, &ops[..r], x0, &gargs, &full, n, false)?;
    if used < r || ctx.operands(red)[0] != cur {
        return Err("the prologue is not a chain into the reduction".into());
    }
    let last = full.len() as i64 - 1;
    let attr = |name: &str| ctx.find_ident(name).and_then(|i| ctx.inherent_attr(red, i));
    let kind = match rname.as_str() {
        "graph.softmax" => {
            let axis = attr("axis")
                .and_then(|a| aic_dialects::stablehlo::attrs::int(ctx.uniquer(), a))
                .unwrap_or(-1);
            if axis != -1 && axis != last {
                return Err("a softmax not over the last dimension".into());
            }
            "softmax".to_string()
        }
        "graph.reduce" => {
            let axes = ints(ctx, red, "axes");
            if axes != [last] && axes != [-1] {
                return Err("a reduction not over the last dimension alone".into());
            }
            attr("kind")
                .and_then(|a| {
                    aic::dialect::enum_keyword(ctx.uniquer(), a, aic_dialects::graph::REDUCE_PREFIX)
                })
                .ok_or("a reduction without a kind")?
                .to_string()
        }
        other => {
            for p in &ctx.operands(red)[1..] {
                if !gargs.contains(p) || shape(ctx, *p) != [n] {
                    return Err(format!(
                        "{other}'s scale is not a vector of the last dimension"
                    ));
                }
            }
            other.trim_start_matches("graph.").to_string()
        }
    };
    let eps = attr("epsilon")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Float { bits, ty } => match ctx.type_kind(*ty) {
                TypeKind::Float(k) => Some(k.to_f64(*bits)),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or(1e-5);
    let rshape = shape(ctx, ctx.result(red, 0));
    let (epi, _, _, used) = read_chain(
        ctx,
        &ops[r + 1..],
        ctx.result(red, 0),
        &gargs,
        &rshape,
        n,
        false,
    )?;
    if used < ops.len() - r - 1 {
        return Err(format!(
            "{} is not an epilogue op",
            ctx.op_name(ops[r + 1 + used])
        ));
    }
    let reduces = matches!(kind.as_str(), "sum" | "max" | "min" | "mean");
    if reduces && epi.iter().any(|(_, o)| o.is_some_and(|(_, bias)| bias)) {
        return Err("a bias after a reduction".into());
    }
    let out_ty = ctx.value_type(ctx.result(*ops.last().expect("ops"), 0));
    let elem = float_elem(ctx, out_ty)?;
    let br = rows_per_block(rows_n);
    let loc = ctx.op(group).loc;
    let u = ctx.uniquer().clone();
    let index = u.ty(TypeKind::Index);
    let (kb, bufs) = kernel_block(ctx, group, out_ty, loc);
    let buf_of = |v: Value| bufs[gargs.iter().position(|x| *x == v).expect("a group input")];
    let out_buf = *bufs.last().expect("the output");
    let tile_t = |shape: Vec<i64>| tile::plain_tile(&u, shape, elem, Space::Register);
    let (row_t, col_t, one_t) = (tile_t(vec![br, n]), tile_t(vec![n]), tile_t(vec![br]));
    let flat2 = coord::desc_attr(&u, &Desc::row_major(&[rows_n, n]));
    let flat1 = coord::desc_attr(&u, &Desc::row_major(&[rows_n]));
    let mut e = B {
        ctx,
        block: kb,
        loc,
    };
    let p = e.val("tile.program_id", &[], index, vec![("axis", e.i64_attr(0))]);
    let cbr = e.index(br);
    let r0 = e.val("arith.muli", &[p, cbr], index, vec![]);
    let c0 = e.index(0);
    let x = e.val(
        "tile.load",
        &[buf_of(x0), r0, c0],
        row_t,
        vec![("desc", flat2)],
    );
    let mut full_operand = |e: &mut B<'_>, v: Value, bias: bool| {
        if bias {
            let ld = e.val("tile.load", &[buf_of(v), c0], col_t, vec![]);
            e.val("tile.broadcast", &[ld], row_t, vec![("dims", e.i64s(&[1]))])
        } else {
            e.val(
                "tile.load",
                &[buf_of(v), r0, c0],
                row_t,
                vec![("desc", flat2)],
            )
        }
    };
    let v = emit_chain(&mut e, &pro, x, row_t, elem, &mut full_operand);
    let sum = aic::dialect::enum_attr(&u, tile::KIND_PREFIX, "sum");
    let reduce = |e: &mut B<'_>, t: Value, k: &str| {
        let kind = aic::dialect::enum_attr(&u, tile::KIND_PREFIX, k);
        let axis = e.i64_attr(1);
        e.val(
            "tile.reduce",
            &[t],
            one_t,
            vec![("kind", kind), ("axis", axis)],
        )
    };
    let spread = |e: &mut B<'_>, t: Value| {
        e.val("tile.broadcast", &[t], row_t, vec![("dims", e.i64s(&[0]))])
    };
    let inv_n = 1.0 / n as f64;
    let f = |name: &'static str| move |s: &mut B<'_>, a: &[Value]| s.val(name, a, elem, vec![]);
    let scaled = |e: &mut B<'_>, t: Value| {
        map(e, &[t], one_t, elem, &mut |s, a| {
            let c = s.float(inv_n, elem);
            s.val("arith.mulf", &[a[0], c], elem, vec![])
        })
    };
    let inv_std = |e: &mut B<'_>, t: Value| {
        map(e, &[t], one_t, elem, &mut |s, a| {
            let c = s.float(eps, elem);
            let y = s.val("arith.addf", &[a[0], c], elem, vec![]);
            s.val("math.rsqrt", &[y], elem, vec![])
        })
    };
    let result = match kind.as_str() {
        "softmax" => {
            let m = reduce(&mut e, v, "max");
            let mb = spread(&mut e, m);
            let d = map(&mut e, &[v, mb], row_t, elem, &mut f("arith.subf"));
            let ex = map(&mut e, &[d], row_t, elem, &mut f("math.exp"));
            let sm = e.val(
                "tile.reduce",
                &[ex],
                one_t,
                vec![("kind", sum), ("axis", e.i64_attr(1))],
            );
            let sb = spread(&mut e, sm);
            map(&mut e, &[ex, sb], row_t, elem, &mut f("arith.divf"))
        }
        "layernorm" | "rmsnorm" => {
            let (centred, sq_of) = if kind == "layernorm" {
                let s1 = reduce(&mut e, v, "sum");
                let mean = scaled(&mut e, s1);
                let mb = spread(&mut e, mean);
                let xc = map(&mut e, &[v, mb], row_t, elem, &mut f("arith.subf"));
                (xc, xc)
            } else {
                (v, v)
            };
            let sq = map(&mut e, &[sq_of, sq_of], row_t, elem, &mut f("arith.mulf"));
            let ss = reduce(&mut e, sq, "sum");
            let var = scaled(&mut e, ss);
            let rs = inv_std(&mut e, var);
            let rb = spread(&mut e, rs);
            let nrm = map(&mut e, &[centred, rb], row_t, elem, &mut f("arith.mulf"));
            let scale = ctx_operand(&e, red, 1);
            let g = full_operand(&mut e, scale, true);
            let mut y = map(&mut e, &[nrm, g], row_t, elem, &mut f("arith.mulf"));
            if kind == "layernorm" {
                let shift = ctx_operand(&e, red, 2);
                let b = full_operand(&mut e, shift, true);
                y = map(&mut e, &[y, b], row_t, elem, &mut f("arith.addf"));
            }
            y
        }
        k => {
            let t = reduce(&mut e, v, if k == "mean" { "sum" } else { k });
            if k == "mean" { scaled(&mut e, t) } else { t }
        }
    };
    let (res_t, res_desc) = if reduces {
        (one_t, flat1)
    } else {
        (row_t, flat2)
    };
    let mut reduced_operand = |e: &mut B<'_>, v: Value, _: bool| {
        let t = if reduces { one_t } else { row_t };
        let at: Vec<Value> = if reduces {
            vec![buf_of(v), r0]
        } else {
            vec![buf_of(v), r0, c0]
        };
        let d = if reduces {
            coord::desc_attr(&u, &Desc::row_major(&[rows_n]))
        } else {
            flat2
        };
        e.val("tile.load", &at, t, vec![("desc", d)])
    };
    let y = emit_chain(&mut e, &epi, result, res_t, elem, &mut reduced_operand);
    let at: Vec<Value> = if reduces {
        vec![y, out_buf, r0]
    } else {
        vec![y, out_buf, r0, c0]
    };
    e.op("tile.store", &at, &[], vec![("desc", res_desc)]);
    e.op("tile.return", &[], &[], vec![]);
    finish(
        ctx,
        group,
        func,
        kb,
        &format!("rows_{n_kernel}"),
        &[(rows_n + br - 1) / br],
        out_ty,
        loc,
    );
    Ok(())
}
