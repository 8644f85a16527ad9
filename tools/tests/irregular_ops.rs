//! The general generator's irregular ops (`graph::Class::Irregular`) against
//! the reference interpreter: StableHLO programs as JAX exports them (gathers
//! as embedding lookups and column picks, dynamic slices and updates, pads
//! with negative and interior edges, window reductions as pooling and
//! `cumsum`), at awkward shapes (1, 7, 37, more elements than a block),
//! with out-of-range and negative indices (clamped), in f32, f16 and i32,
//! compiled for the host by `aic-run --target=host` (every tensor op a
//! kernel: the compile pipeline refuses anything else) and checked with
//! `--check` on random inputs, at 1 and 32 threads a block.

#[allow(dead_code)]
mod common;
use common::rng::{Rng, ty};
use std::process::Command;

fn ints(xs: &[i64]) -> String {
    let s: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]", s.join(", "))
}

/// A literal of `shape`: random values for floats, integers in
/// `[lo, hi]` for integer types.
fn literal(r: &mut Rng, shape: &[i64], elem: &str, (lo, hi): (i64, i64)) -> String {
    fn nest(r: &mut Rng, shape: &[i64], f: &mut dyn FnMut(&mut Rng) -> String) -> String {
        match shape.split_first() {
            None => f(r),
            Some((d, rest)) => {
                let items: Vec<String> = (0..*d).map(|_| nest(r, rest, f)).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }
    let float = elem.starts_with('f') || elem.starts_with("bf");
    let body = nest(r, shape, &mut |r| {
        if float {
            format!("{:.3}", r.int(-1000, 1000) as f64 / 1000.0)
        } else {
            r.int(lo, hi).to_string()
        }
    });
    format!("dense<{body}> : {}", ty(shape, elem))
}

/// Runs `@main` of `text` (arguments `args`: literals) compiled for the
/// host at 1 and 32 threads a block, checked against the interpreter.
fn check(what: &str, text: &str, args: &[String]) {
    let dir = std::env::temp_dir().join(format!("aic-irregular-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch dir");
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("{n}.mlir"));
    std::fs::write(&path, text).expect("writes the program");
    for threads in [1, 32] {
        let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
            .arg("--target=host")
            .arg("--check")
            .arg("--entry=@main")
            .arg(format!("--threads={threads}"))
            .arg(format!("--args=[{}]", args.join(", ")))
            .arg(&path)
            .output()
            .expect("aic-run runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && err.contains("check: ok"),
            "{what} ({threads} threads): {err}\n{text}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

/// `@main` of `params` (name, type) returning `body`'s last value.
fn func(params: &[(&str, String)], body: &str, result: &str, out: &str) -> String {
    let ps: Vec<String> = params.iter().map(|(n, t)| format!("%{n}: {t}")).collect();
    format!(
        "func.func @main({}) -> {out} {{\n{body}  return {result} : {out}\n}}\n",
        ps.join(", ")
    )
}

#[test]
fn gathers_equal_the_interpreter() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for (elem, v, h, batch) in [
        ("f32", 5, 7, vec![3]),
        ("f16", 37, 130, vec![2, 5]),
        ("i32", 1, 1, vec![4]),
        ("f32", 11, 1, vec![1]),
    ] {
        // Embedding lookups: rows of [v, h] at [..batch, 1] indices.
        let (xt, it) = (
            ty(&[v, h], elem),
            ty(&[batch.clone(), vec![1]].concat(), "i32"),
        );
        let rs = [batch.clone(), vec![h]].concat();
        let out = ty(&rs, elem);
        let nb = batch.len();
        let body = format!(
            "  %g = \"stablehlo.gather\"(%x, %i) <{{dimension_numbers = #stablehlo.gather<offset_dims = [{nb}], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = {nb}>, slice_sizes = array<i64: 1, {h}>}}> : ({xt}, {it}) -> {out}\n"
        );
        let text = func(&[("x", xt), ("i", it)], &body, "%g", &out);
        let args = [
            literal(&mut r, &[v, h], elem, (-50, 50)),
            literal(
                &mut r,
                &[batch.clone(), vec![1]].concat(),
                "i32",
                (-2, v + 2),
            ),
        ];
        check("embedding gather", &text, &args);
        // Column picks x[:, idx] with implicit index vectors: [rows, n].
        let n = batch.iter().product::<i64>();
        let (it, out) = (ty(&[n], "i32"), ty(&[h, n], elem));
        let xt = ty(&[h, v], elem);
        let body = format!(
            "  %g = \"stablehlo.gather\"(%x, %i) <{{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: {h}, 1>}}> : ({xt}, {it}) -> {out}\n"
        );
        let text = func(&[("x", xt), ("i", it)], &body, "%g", &out);
        let args = [
            literal(&mut r, &[h, v], elem, (-50, 50)),
            literal(&mut r, &[n], "i32", (-2, v + 2)),
        ];
        check("column gather", &text, &args);
    }
}

#[test]
fn dynamic_slices_equal_the_interpreter() {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    for (elem, xs, us) in [
        ("f32", vec![13, 9], vec![4, 9]),
        ("f16", vec![3, 5, 7], vec![2, 1, 7]),
        ("i32", vec![40, 33], vec![39, 2]),
        ("f32", vec![6], vec![6]),
    ] {
        let (xt, ut) = (ty(&xs, elem), ty(&us, elem));
        let it = ty(&[], "i32");
        let starts: Vec<String> = (0..xs.len()).map(|k| format!("%s{k}")).collect();
        let mut params = vec![("x", xt.clone()), ("u", ut.clone())];
        let names = ["s0", "s1", "s2"];
        for n in names.iter().take(xs.len()) {
            params.push((n, it.clone()));
        }
        let body = format!(
            "  %d = stablehlo.dynamic_slice %x, {}, sizes = {} : ({xt}, {}) -> {ut}\n  %a = stablehlo.add %d, %u : {ut}\n  %w = stablehlo.dynamic_update_slice %x, %a, {} : ({xt}, {ut}, {}) -> {xt}\n",
            starts.join(", "),
            ints(&us),
            vec![it.clone(); xs.len()].join(", "),
            starts.join(", "),
            vec![it.clone(); xs.len()].join(", "),
        );
        let text = func(&params, &body, "%w", &xt);
        let mut args = vec![
            literal(&mut r, &xs, elem, (-50, 50)),
            literal(&mut r, &us, elem, (-50, 50)),
        ];
        for d in &xs {
            args.push(literal(&mut r, &[], "i32", (-2, d + 1)));
        }
        check("dynamic slice and update", &text, &args);
    }
}

#[test]
fn pads_equal_the_interpreter() {
    let mut r = Rng(0x1234_5678_9abc_def1);
    for (elem, xs) in [
        ("f32", vec![1, 7]),
        ("f16", vec![4, 3, 2]),
        ("i32", vec![40, 33]),
        ("f32", vec![5]),
    ] {
        for _ in 0..3 {
            let n = xs.len();
            let int: Vec<i64> = (0..n).map(|_| r.int(0, 2)).collect();
            let lo: Vec<i64> = (0..n).map(|d| r.int(-(xs[d].min(2)), 3)).collect();
            let hi: Vec<i64> = (0..n).map(|d| r.int(-(xs[d].min(2)), 3)).collect();
            let rs: Vec<i64> = (0..n)
                .map(|d| lo[d] + hi[d] + xs[d] + (xs[d] - 1) * int[d])
                .collect();
            if rs.iter().any(|d| *d < 1) {
                continue;
            }
            let (xt, ot, vt) = (ty(&xs, elem), ty(&rs, elem), ty(&[], elem));
            let body = format!(
                "  %p = stablehlo.pad %x, %v, low = {}, high = {}, interior = {} : ({xt}, {vt}) -> {ot}\n",
                ints(&lo),
                ints(&hi),
                ints(&int)
            );
            let text = func(&[("x", xt), ("v", vt)], &body, "%p", &ot);
            let args = [
                literal(&mut r, &xs, elem, (-50, 50)),
                literal(&mut r, &[], elem, (-50, 50)),
            ];
            check("pad", &text, &args);
        }
    }
}

#[test]
fn window_reductions_equal_the_interpreter() {
    let mut r = Rng(0x0bad_cafe_dead_beef);
    let body = |how: &str, e: &str| {
        format!(
            "  ^bb0(%a: tensor<{e}>, %b: tensor<{e}>):\n    %c = stablehlo.{how} %a, %b : tensor<{e}>\n    stablehlo.return %c : tensor<{e}>\n"
        )
    };
    for (elem, xs) in [
        ("f32", vec![6, 11]),
        ("f16", vec![1, 37]),
        ("i32", vec![3, 9]),
    ] {
        let (xt, it) = (ty(&xs, elem), ty(&[], elem));
        // cumsum along the last dim, as JAX exports it.
        let n = xs[1];
        let text = func(
            &[("x", xt.clone())],
            &format!(
                "  %z = stablehlo.constant dense<0> : {it}\n  %c = \"stablehlo.reduce_window\"(%x, %z) <{{padding = dense<[[0, 0], [{}, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, {n}>}}> ({{\n{}  }}) : ({xt}, {it}) -> {xt}\n",
                n - 1,
                body("add", elem)
            ),
            "%c",
            &xt,
        );
        check("cumsum", &text, &[literal(&mut r, &xs, elem, (-50, 50))]);
        // Max pooling 2x3, strides 2, padded, from an init; sums dilated.
        for (how, init) in [("maximum", "-3"), ("add", "1"), ("minimum", "2")] {
            let (w, s, dil, pad) = ([2, 3], [2, r.int(1, 2)], [1, r.int(1, 2)], [[1, 0], [0, 2]]);
            let out: Vec<i64> = (0..2)
                .map(|d| {
                    let padded = xs[d] + pad[d][0] + pad[d][1];
                    let span = (w[d] - 1) * dil[d] + 1;
                    if padded < span {
                        0
                    } else {
                        (padded - span) / s[d] + 1
                    }
                })
                .collect();
            if out.iter().any(|d| *d < 1) {
                continue;
            }
            let ot = ty(&out, elem);
            let text = func(
                &[("x", xt.clone())],
                &format!(
                    "  %z = stablehlo.constant dense<{init}> : {it}\n  %c = \"stablehlo.reduce_window\"(%x, %z) <{{padding = dense<[[{}, {}], [{}, {}]]> : tensor<2x2xi64>, window_dimensions = array<i64: {}, {}>, window_strides = array<i64: {}, {}>, window_dilations = array<i64: {}, {}>}}> ({{\n{}  }}) : ({xt}, {it}) -> {ot}\n",
                    pad[0][0],
                    pad[0][1],
                    pad[1][0],
                    pad[1][1],
                    w[0],
                    w[1],
                    s[0],
                    s[1],
                    dil[0],
                    dil[1],
                    body(how, elem)
                ),
                "%c",
                &ot,
            );
            check("pooling", &text, &[literal(&mut r, &xs, elem, (-50, 50))]);
        }
    }
}

#[test]
fn scatters_equal_the_interpreter() {
    let mut r = Rng(0x5eed_5eed_1234_4321);
    let body = |how: &str, e: &str| match how {
        "set" => format!(
            "  ^bb0(%a: tensor<{e}>, %b: tensor<{e}>):\n    stablehlo.return %b : tensor<{e}>\n"
        ),
        _ => format!(
            "  ^bb0(%a: tensor<{e}>, %b: tensor<{e}>):\n    %c = stablehlo.{how} %a, %b : tensor<{e}>\n    stablehlo.return %c : tensor<{e}>\n"
        ),
    };
    for (elem, rows, width, n) in [
        ("f32", 5, 3, 4),
        ("f16", 37, 7, 9),
        ("i32", 3, 1, 6),
        ("f32", 40, 33, 2),
    ] {
        for how in ["set", "add", "maximum", "minimum"] {
            // Rows updated at [n, 1] indices (x.at[i].set(u) and friends),
            // duplicates and out-of-range ones among them.
            let (xt, it, ut) = (
                ty(&[rows, width], elem),
                ty(&[n, 1], "i32"),
                ty(&[n, width], elem),
            );
            let text = func(
                &[("x", xt.clone()), ("i", it.clone()), ("u", ut.clone())],
                &format!(
                    "  %s = \"stablehlo.scatter\"(%x, %i, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}}> ({{\n{}  }}) : ({xt}, {it}, {ut}) -> {xt}\n",
                    body(how, elem)
                ),
                "%s",
                &xt,
            );
            let args = [
                literal(&mut r, &[rows, width], elem, (-50, 50)),
                literal(&mut r, &[n, 1], "i32", (-1, rows)),
                literal(&mut r, &[n, width], elem, (-50, 50)),
            ];
            check("row scatter", &text, &args);
        }
        // Single elements at [n, 2] index pairs (x.at[i, j].add(u)).
        let (xt, it, ut) = (ty(&[rows, width], elem), ty(&[n, 2], "i32"), ty(&[n], elem));
        let text = func(
            &[("x", xt.clone()), ("i", it.clone()), ("u", ut.clone())],
            &format!(
                "  %s = \"stablehlo.scatter\"(%x, %i, %u) <{{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}}> ({{\n{}  }}) : ({xt}, {it}, {ut}) -> {xt}\n",
                body("add", elem)
            ),
            "%s",
            &xt,
        );
        let args = [
            literal(&mut r, &[rows, width], elem, (-50, 50)),
            literal(&mut r, &[n, 2], "i32", (0, rows.min(width))),
            literal(&mut r, &[n], elem, (-50, 50)),
        ];
        check("element scatter", &text, &args);
    }
}

#[test]
fn sorts_equal_the_interpreter() {
    let mut r = Rng(0xfeed_f00d_0123_4567);
    let cmp = |e: &str, dir: &str| {
        let total = if e.starts_with('i') {
            ""
        } else {
            ", TOTALORDER"
        };
        format!(
            "    %c = stablehlo.compare {dir}, %a, %b{total} : (tensor<{e}>, tensor<{e}>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n"
        )
    };
    for (elem, xs, dim) in [
        ("f32", vec![3, 7], 1),
        ("f16", vec![5, 2, 4], 0),
        ("i32", vec![1, 37], 1),
        ("f32", vec![40, 33], 1),
    ] {
        for dir in ["LT", "GT"] {
            // jnp.sort: the keys alone; jnp.argsort: the keys and an iota.
            let (xt, it) = (ty(&xs, elem), ty(&xs, "i32"));
            let text = func(
                &[("x", xt.clone())],
                &format!(
                    "  %s = \"stablehlo.sort\"(%x) <{{dimension = {dim} : i64}}> ({{\n  ^bb0(%a: tensor<{elem}>, %b: tensor<{elem}>):\n{}  }}) : ({xt}) -> {xt}\n  %i = stablehlo.iota dim = {dim} : {it}\n  %r:2 = \"stablehlo.sort\"(%s, %i) <{{dimension = {dim} : i64, is_stable = true}}> ({{\n  ^bb0(%a: tensor<{elem}>, %b: tensor<{elem}>, %p: tensor<i32>, %q: tensor<i32>):\n{}  }}) : ({xt}, {it}) -> ({xt}, {it})\n",
                    cmp(elem, dir),
                    cmp(elem, dir)
                ),
                "%r#1",
                &it,
            );
            // Few distinct keys: ties, which a stable sort keeps in order.
            check("sort", &text, &[literal(&mut r, &xs, elem, (-3, 3))]);
        }
    }
    // Infinities, NaNs and signed zeros in total order.
    let text = func(
        &[("x", ty(&[2, 6], "f32"))],
        "  %s = \"stablehlo.sort\"(%x) <{dimension = 1 : i64}> ({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n    stablehlo.return %c : tensor<i1>\n  }) : (tensor<2x6xf32>) -> tensor<2x6xf32>\n",
        "%s",
        &ty(&[2, 6], "f32"),
    );
    let args = ["dense<[[3.0, -1.0, 2.0, -0.0, 0.0, 2.0], [0x7FC00000, 1.0, 0xFF800000, 5.0, 0x7F800000, 0xFFC00000]]> : tensor<2x6xf32>".to_string()];
    check("sort of non-finite keys", &text, &args);
}
