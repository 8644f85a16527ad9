//! Views through coordinates: the graph dialect's data movement (transpose,
//! strided slice, broadcast, concat, reshape) and conv2d as an implicit GEMM
//! are descriptors; reading the input buffers through them gives what the
//! graph interpreter computes, on random shapes.

use aic::interp::{Interp, Tensor};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use aic_dialects::coord::desc::row_major_indices;
use aic_dialects::coord::desc::sample::Rng;
use aic_dialects::coord::{Conv, Desc};
use std::sync::Arc;

fn ty(shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("tensor<{}xf32>", dims.join("x"))
}

/// Run `@f` of `text` on `inputs` (shape and data each); the result's data.
fn run(text: String, inputs: Vec<(Vec<i64>, Vec<f64>)>) -> Vec<f64> {
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("t.mlir", text);
        let m = parse_module(&mut ctx, &sm, id)
            .and_then(|m| verify(&ctx, m).map(|()| m))
            .unwrap_or_else(|e| panic!("{}", sm.render(ctx.uniquer(), &e)));
        let body = ctx.entry_block(ctx.regions(m)[0]).expect("body");
        let f = ctx.block_ops(body).next().expect("@f");
        let u = ctx.uniquer().clone();
        let f32t = u.ty(aic::types::TypeKind::Float(aic::float::FloatKind::F32));
        let args = inputs
            .into_iter()
            .map(|(shape, data)| {
                let t = u.ty(aic::types::TypeKind::Tensor {
                    shape: shape.into(),
                    elem: f32t,
                    encoding: None,
                });
                Tensor::from_f64s(&u, t, data)
            })
            .collect();
        let out = Interp::new(&ctx).call(f, args).expect("runs");
        out[0].to_f64s()
    })
}

/// The view `d` of `data`, padding reading 0.
fn gather(d: &Desc, data: &[f64]) -> Vec<f64> {
    row_major_indices(&d.upper)
        .iter()
        .map(|i| match d.offset(i).expect("inside") {
            (o, true) => data[o as usize],
            (_, false) => 0.0,
        })
        .collect()
}

fn iota(shape: &[i64]) -> Vec<f64> {
    (0..shape.iter().product::<i64>())
        .map(|i| (i + 1) as f64)
        .collect()
}

fn shape(r: &mut Rng, rank: usize) -> Vec<i64> {
    (0..rank).map(|_| 1 + r.next(4)).collect()
}

#[test]
fn data_movement_is_addressing() {
    let mut r = Rng(23);
    for _ in 0..40 {
        let rank = 1 + r.next(3) as usize;
        let x = shape(&mut r, rank);
        let data = iota(&x);
        // A view of x: reading x through its descriptor gives what the
        // interpreter computes for the op.
        let view = |d: &Desc, op: String, what: &str| {
            let text = format!(
                "func.func @f(%x: {t}) -> {u} {{\n  %r = {op} : ({t}) -> {u}\n  return %r : {u}\n}}",
                t = ty(&x),
                u = ty(&d.upper),
            );
            let got = run(text, vec![(x.clone(), data.clone())]);
            assert_eq!(gather(d, &data), got, "{what} of {x:?}");
        };
        // transpose
        let mut perm: Vec<usize> = (0..rank).collect();
        for i in (1..rank).rev() {
            perm.swap(i, r.next(i as u64 + 1) as usize);
        }
        let d = Desc::transpose(&x, &perm);
        let p: Vec<String> = perm.iter().map(|v| v.to_string()).collect();
        let op = format!("graph.transpose %x, perm = [{}]", p.join(", "));
        view(&d, op, &format!("transpose {perm:?}"));
        // strided slice
        let start: Vec<i64> = x.iter().map(|l| r.next(*l as u64)).collect();
        let limit: Vec<i64> = x
            .iter()
            .zip(&start)
            .map(|(l, s)| s + 1 + r.next((l - s) as u64))
            .collect();
        let strides: Vec<i64> = x.iter().map(|_| 1 + r.next(2)).collect();
        let d = Desc::strided_slice(&x, &start, &limit, &strides);
        let ranges: Vec<String> = (0..rank)
            .map(|i| format!("{}:{}:{}", start[i], limit[i], strides[i]))
            .collect();
        view(
            &d,
            format!("graph.slice %x [{}]", ranges.join(", ")),
            "slice",
        );
        // broadcast into one more leading dim, size-1 dims stretched
        let mut upper = vec![1 + r.next(3)];
        upper.extend(x.iter().map(|l| if *l == 1 { 1 + r.next(3) } else { *l }));
        let dims: Vec<usize> = (1..=rank).collect();
        let d = Desc::broadcast(&x, &upper, &dims);
        let ds: Vec<String> = dims.iter().map(|v| v.to_string()).collect();
        let op = format!("graph.broadcast %x, dims = [{}]", ds.join(", "));
        view(&d, op, "broadcast");
        // concat of x and y along an axis: each read through its part
        let axis = r.next(rank as u64) as usize;
        let mut y = x.clone();
        y[axis] = 1 + r.next(3);
        let ydata: Vec<f64> = iota(&y).iter().map(|v| -v).collect();
        let total = x[axis] + y[axis];
        let (dx, dy) = (
            Desc::concat_part(&x, axis, 0, total),
            Desc::concat_part(&y, axis, x[axis], total),
        );
        let both: Vec<f64> = gather(&dx, &data)
            .iter()
            .zip(gather(&dy, &ydata))
            .map(|(a, b)| a + b)
            .collect();
        let text = format!(
            "func.func @f(%x: {t}, %y: {v}) -> {u} {{\n  %r = graph.concat %x, %y, axis = {axis} : ({t}, {v}) -> {u}\n  return %r : {u}\n}}",
            t = ty(&x),
            v = ty(&y),
            u = ty(&dx.upper),
        );
        assert_eq!(
            both,
            run(text, vec![(x.clone(), data.clone()), (y, ydata)]),
            "concat of {x:?}"
        );
        // reshape to the element count split differently
        let n: i64 = x.iter().product();
        let to = if n % 2 == 0 { vec![2, n / 2] } else { vec![n] };
        let d = Desc::reshape(&x, &to);
        view(&d, "graph.reshape %x".to_string(), "reshape");
        // simplified, every view reads the same
        for d in [
            Desc::transpose(&x, &perm),
            Desc::reshape(&x, &to),
            dx.clone(),
        ] {
            let full = Desc::row_major(&x).compose(&d).expect("composes");
            assert_eq!(gather(&full.simplify(), &data), gather(&full, &data));
        }
    }
}

#[test]
fn convolution_is_an_implicit_gemm() {
    let mut r = Rng(29);
    let mut cases = 0;
    while cases < 30 {
        let groups = 1 + r.next(2);
        let (n, h, w) = (1 + r.next(2), 2 + r.next(4), 2 + r.next(4));
        let (c, k) = (groups * (1 + r.next(2)), groups * (1 + r.next(2)));
        let conv = Conv {
            nchw: r.next(2) == 1,
            input: [0; 4],
            filter: [1 + r.next(3), 1 + r.next(3)],
            out_channels: k,
            strides: [1 + r.next(2), 1 + r.next(2)],
            dilations: [1 + r.next(2), 1 + r.next(2)],
            pads: [r.next(2), r.next(2), r.next(2), r.next(2)],
            groups,
        };
        let conv = Conv {
            input: if conv.nchw {
                [n, c, h, w]
            } else {
                [n, h, w, c]
            },
            ..conv
        };
        let [ho, wo] = conv.out();
        if ho < 1 || wo < 1 {
            continue;
        }
        cases += 1;
        let [kh, kw] = conv.filter;
        let cg = c / groups;
        let fshape = if conv.nchw {
            vec![k, cg, kh, kw]
        } else {
            vec![kh, kw, cg, k]
        };
        let oshape = if conv.nchw {
            vec![n, k, ho, wo]
        } else {
            vec![n, ho, wo, k]
        };
        let x = iota(&conv.input);
        let f: Vec<f64> = iota(&fshape).iter().map(|v| (v % 5.0) - 2.0).collect();
        // GEMM per group through the three descriptors.
        let mut out = vec![0.0; oshape.iter().product::<i64>() as usize];
        for g in 0..groups {
            let (a, b, cd) = (
                Desc::conv_a(&conv, g),
                Desc::conv_b(&conv, g),
                Desc::conv_c(&conv, g),
            );
            let (m, kk, nn) = (a.upper[0], a.upper[1], b.upper[1]);
            for i in 0..m {
                for j in 0..nn {
                    let mut acc = 0.0;
                    for t in 0..kk {
                        let (ao, av) = a.offset(&[i, t]).expect("inside");
                        let (bo, _) = b.offset(&[t, j]).expect("inside");
                        if av {
                            acc += x[ao as usize] * f[bo as usize];
                        }
                    }
                    let (co, _) = cd.offset(&[i, j]).expect("inside");
                    out[co as usize] = acc;
                }
            }
        }
        let layout = if conv.nchw { "NCHW" } else { "NHWC" };
        let l = |v: &[i64]| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let text = format!(
            "func.func @f(%x: {t}, %w: {v}) -> {u} {{\n  %r = graph.conv2d %x, %w, layout = {layout}, strides = [{s}], dilations = [{d}], padding = [{p}], groups = {groups} : ({t}, {v}) -> {u}\n  return %r : {u}\n}}",
            t = ty(&conv.input),
            v = ty(&fshape),
            u = ty(&oshape),
            s = l(&conv.strides),
            d = l(&conv.dilations),
            p = l(&conv.pads),
        );
        let want = run(
            text,
            vec![
                (conv.input.to_vec(), x.clone()),
                (fshape.clone(), f.clone()),
            ],
        );
        assert_eq!(out, want, "{conv:?}");
    }
}
