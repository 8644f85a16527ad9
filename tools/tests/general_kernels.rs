//! fusion-to-tile's general code generator against the reference
//! interpreter on random programs: random DAGs of elementwise ops (casts,
//! compares and selects among them), reductions over random axes, views
//! (transposes, slices, broadcasts, reshapes, concats), softmax, layernorm,
//! rmsnorm and matrix products, at awkward shapes (1, 3, 7, 129), in f32
//! and f16. Each program is one `fusion.group`, lowered by the general
//! generator alone (`fusion-to-tile{general-only=true}`), compiled for the
//! host (`aic-run --target=host`, blocks of 1 and 32 threads) and its
//! results compared with the interpreter's on the group as written.

#[allow(dead_code)]
mod common;
use common::rng::{Rng, ty};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn ints(xs: &[i64]) -> String {
    let s: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("[{}]", s.join(", "))
}

/// A random program: inputs, the ops of its body (text), the values it
/// yields.
struct Program {
    elem: &'static str,
    inputs: Vec<Vec<i64>>,
    body: String,
    /// Every value so far: its name, shape, and whether it has the
    /// program's element type (not a cast's intermediate or a predicate).
    values: Vec<(String, Vec<i64>, bool)>,
    results: Vec<usize>,
}

impl Program {
    fn input(&mut self, shape: Vec<i64>) -> usize {
        let name = format!("%a{}", self.inputs.len());
        self.inputs.push(shape.clone());
        self.values.push((name, shape, true));
        self.values.len() - 1
    }

    /// Appends `op` giving a value of another element type.
    fn aux(&mut self, text: String, shape: Vec<i64>) -> usize {
        let v = self.op(text, shape);
        self.values[v].2 = false;
        v
    }

    /// The values of the program's element type.
    fn main(&self) -> Vec<usize> {
        (0..self.values.len())
            .filter(|v| self.values[*v].2)
            .collect()
    }

    /// Appends `op` (text after `= `) giving a value of `shape`.
    fn op(&mut self, text: String, shape: Vec<i64>) -> usize {
        let name = format!("%v{}", self.values.len());
        self.body += &format!("    {name} = {text}\n");
        self.values.push((name, shape, true));
        self.values.len() - 1
    }

    fn name(&self, v: usize) -> String {
        self.values[v].0.clone()
    }

    fn shape(&self, v: usize) -> Vec<i64> {
        self.values[v].1.clone()
    }

    fn t(&self, v: usize) -> String {
        ty(&self.values[v].1, self.elem)
    }

    /// One random op on existing values (adding inputs where it needs them).
    fn grow(&mut self, r: &mut Rng) {
        let main = self.main();
        let v = main[main.len() - 1 - r.below(main.len().min(3))];
        let (x, s, t) = (self.name(v), self.shape(v), self.t(v));
        let e = self.elem;
        match r.below(15) {
            0 | 1 => {
                let f = r.pick(&["tanh", "neg", "abs", "sigmoid", "relu", "sin", "silu"]);
                self.op(format!("graph.{f} {x} : {t}"), s);
            }
            2 | 3 => {
                // Another value of the shape, or this one.
                let w = main
                    .iter()
                    .rev()
                    .copied()
                    .find(|w| *w != v && self.shape(*w) == s)
                    .unwrap_or(v);
                let f = r.pick(&["add", "sub", "mul", "max", "min"]);
                let y = self.name(w);
                self.op(format!("graph.{f} {x}, {y} : {t}"), s);
            }
            4 => {
                // A cast through another float type and back.
                let other = if e == "f16" { "f32" } else { "f16" };
                let o = ty(&s, other);
                let c = self.aux(format!("graph.cast {x} : ({t}) -> {o}"), s.clone());
                let cn = self.name(c);
                self.op(format!("graph.cast {cn} : ({o}) -> {t}"), s);
            }
            5 => {
                // max by compare and select.
                let w = self.op(format!("graph.sin {x} : {t}"), s.clone());
                let wn = self.name(w);
                let b = ty(&s, "i1");
                let c = self.aux(
                    format!("graph.compare GT, {x}, {wn} : ({t}, {t}) -> {b}"),
                    s.clone(),
                );
                let cn = self.name(c);
                self.op(
                    format!("graph.select {cn}, {x}, {wn} : ({b}, {t}, {t}) -> {t}"),
                    s,
                );
            }
            6 if s.len() >= 2 => {
                let mut perm: Vec<i64> = (0..s.len() as i64).collect();
                for i in (1..perm.len()).rev() {
                    perm.swap(i, r.below(i + 1));
                }
                let out: Vec<i64> = perm.iter().map(|p| s[*p as usize]).collect();
                let o = ty(&out, e);
                self.op(
                    format!("graph.transpose {x}, perm = {} : ({t}) -> {o}", ints(&perm)),
                    out,
                );
            }
            7 => {
                let (mut start, mut limit, mut strides, mut out) = (vec![], vec![], vec![], vec![]);
                for d in &s {
                    let a = r.below(*d as usize) as i64;
                    let b = a + 1 + r.below((*d - a) as usize) as i64;
                    let st = 1 + r.below(2) as i64;
                    start.push(a);
                    limit.push(b);
                    strides.push(st);
                    out.push((b - a + st - 1) / st);
                }
                let ranges: Vec<String> = (0..s.len())
                    .map(|i| format!("{}:{}:{}", start[i], limit[i], strides[i]))
                    .collect();
                let o = ty(&out, e);
                self.op(
                    format!("graph.slice {x} [{}] : ({t}) -> {o}", ranges.join(", ")),
                    out,
                );
            }
            8 if !s.is_empty() => {
                let mut axes: Vec<i64> = (0..s.len() as i64).filter(|_| r.below(2) == 0).collect();
                if axes.is_empty() {
                    axes.push(r.below(s.len()) as i64);
                }
                let keep = r.below(2) == 0;
                let out: Vec<i64> = (0..s.len())
                    .filter_map(|i| match (axes.contains(&(i as i64)), keep) {
                        (false, _) => Some(s[i]),
                        (true, true) => Some(1),
                        (true, false) => None,
                    })
                    .collect();
                let k = r.pick(&["sum", "max", "min", "mean"]);
                let o = ty(&out, e);
                let kd = if keep { " keep_dims" } else { "" };
                self.op(
                    format!(
                        "graph.reduce {k} {x}, axes = {}{kd} : ({t}) -> {o}",
                        ints(&axes)
                    ),
                    out,
                );
            }
            9 if s.len() < 3 => {
                // A new dim of 1, 3 or 7 somewhere.
                let at = r.below(s.len() + 1);
                let mut out = s.clone();
                out.insert(at, r.pick(&[1, 3, 7]));
                let dims: Vec<i64> = (0..out.len() as i64).filter(|d| *d != at as i64).collect();
                let o = ty(&out, e);
                self.op(
                    format!("graph.broadcast {x}, dims = {} : ({t}) -> {o}", ints(&dims)),
                    out,
                );
            }
            10 if !s.is_empty() => {
                let axis = r.below(s.len());
                self.op(format!("graph.softmax {x}, axis = {axis} : {t}"), s);
            }
            11 if !s.is_empty() => {
                let g = s[s.len() - 1..].to_vec();
                let gi = self.input(g.clone());
                let gn = self.name(gi);
                let gt = ty(&g, e);
                if r.below(2) == 0 {
                    let bi = self.input(g);
                    let bn = self.name(bi);
                    self.op(
                        format!("graph.layernorm {x}, {gn}, {bn} : ({t}, {gt}, {gt}) -> {t}"),
                        s,
                    );
                } else {
                    self.op(format!("graph.rmsnorm {x}, {gn} : ({t}, {gt}) -> {t}"), s);
                }
            }
            12 if s.len() >= 2 => {
                let n = r.pick(&[1, 3, 7]);
                let k = s[s.len() - 1];
                let wi = self.input(vec![k, n]);
                let (wn, wt) = (self.name(wi), self.t(wi));
                let mut out = s.clone();
                *out.last_mut().unwrap() = n;
                let o = ty(&out, e);
                self.op(format!("graph.matmul {x}, {wn} : ({t}, {wt}) -> {o}"), out);
            }
            13 if !s.is_empty() => {
                let axis = r.below(s.len());
                let mut out = s.clone();
                out[axis] *= 2;
                let o = ty(&out, e);
                let y = self.op(format!("graph.exp {x} : {t}"), s.clone());
                let yn = self.name(y);
                self.op(
                    format!("graph.concat {x}, {yn}, axis = {axis} : ({t}, {t}) -> {o}"),
                    out,
                );
            }
            14 if s.len() >= 2 => {
                let mut out = s[..s.len() - 2].to_vec();
                out.push(s[s.len() - 2] * s[s.len() - 1]);
                let o = ty(&out, e);
                self.op(format!("graph.reshape {x} : ({t}) -> {o}"), out);
            }
            _ => {
                self.op(format!("graph.tanh {x} : {t}"), s);
            }
        }
    }

    /// The function: one group over the inputs yielding the results.
    fn text(&self) -> String {
        let e = self.elem;
        let params: Vec<String> = (0..self.inputs.len())
            .map(|i| format!("%p{i}: {}", ty(&self.inputs[i], e)))
            .collect();
        let binds: Vec<String> = (0..self.inputs.len())
            .map(|i| format!("%a{i} = %p{i}"))
            .collect();
        let in_tys: Vec<String> = self.inputs.iter().map(|s| ty(s, e)).collect();
        let outs: Vec<String> = self.results.iter().map(|v| self.t(*v)).collect();
        let names: Vec<String> = self.results.iter().map(|v| self.name(*v)).collect();
        format!(
            "func.func @main({}) -> ({}) {{\n  %r:{} = fusion.group elementwise ({}) : ({}) -> ({}) {{\n{}    fusion.yield {} : {}\n  }}\n  return {} : {}\n}}\n",
            params.join(", "),
            outs.join(", "),
            self.results.len(),
            binds.join(", "),
            in_tys.join(", "),
            outs.join(", "),
            self.body,
            names.join(", "),
            outs.join(", "),
            (0..self.results.len())
                .map(|i| format!("%r#{i}"))
                .collect::<Vec<_>>()
                .join(", "),
            outs.join(", "),
        )
    }
}

/// A random program of `ops` ops over one or two inputs of awkward shapes.
fn program(r: &mut Rng, elem: &'static str, ops: usize) -> Program {
    let mut p = Program {
        elem,
        inputs: Vec::new(),
        body: String::new(),
        values: Vec::new(),
        results: Vec::new(),
    };
    let dims = [1, 3, 7, 129];
    let rank = 1 + r.below(3);
    let mut shape: Vec<i64> = (0..rank).map(|_| r.pick(&dims)).collect();
    // At most two dims of 129.
    if shape.iter().filter(|d| **d == 129).count() > 1 {
        shape[0] = 7;
    }
    p.input(shape.clone());
    if r.below(2) == 0 {
        p.input(shape);
    }
    for _ in 0..ops {
        p.grow(r);
    }
    // A scalar result (groups of scalars stay host arithmetic) spread.
    let v = p.values.len() - 1;
    if p.shape(v).is_empty() {
        let (x, t) = (p.name(v), p.t(v));
        let o = ty(&[3], elem);
        p.op(
            format!("graph.broadcast {x}, dims = [] : ({t}) -> {o}"),
            vec![3],
        );
    }
    // The last value, and sometimes an earlier computed one too.
    let last = p.values.len() - 1;
    p.results.push(last);
    let first = p.inputs.len();
    let earlier: Vec<usize> = p
        .main()
        .into_iter()
        .filter(|v| (first..last).contains(v))
        .collect();
    if !earlier.is_empty() && r.below(2) == 0 {
        p.results.push(r.pick(&earlier));
    }
    p
}

fn literal(r: &mut Rng, shape: &[i64], elem: &str) -> String {
    fn nest(r: &mut Rng, shape: &[i64]) -> String {
        match shape.split_first() {
            None => format!("{:.3}", r.value()),
            Some((d, rest)) => {
                let items: Vec<String> = (0..*d).map(|_| nest(r, rest)).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }
    format!("dense<{}> : {}", nest(r, shape), ty(shape, elem))
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().expect("the tool runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{what}: {err}");
    err
}

/// The results `aic-run` wrote into `dir` (of `shapes` and `elem`), as f64s.
fn results(dir: &Path, shapes: &[Vec<i64>], elem: &str) -> Vec<Vec<f64>> {
    let ctx = aic::Context::new(Arc::new(aic_dialects::all_dialects()));
    let u = ctx.uniquer();
    let kind = if elem == "f16" {
        aic::float::FloatKind::F16
    } else {
        aic::float::FloatKind::F32
    };
    let e = u.ty(aic::types::TypeKind::Float(kind));
    shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let bytes = std::fs::read(dir.join(format!("result{i}.npy"))).expect("a result");
            let ty = u.ty(aic::types::TypeKind::Tensor {
                shape: s.iter().copied().collect(),
                elem: e,
                encoding: None,
            });
            aic_tools::npy::read(&ctx, &bytes, ty)
                .expect("an npy")
                .to_f64s()
        })
        .collect()
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("aic-general-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Program `p` lowered by the general generator alone and compiled for the
/// host equals the interpreter on the group as written.
fn check(p: &Program, seed: u64) {
    let dir = scratch(&seed.to_string());
    let src = dir.join("p.mlir");
    std::fs::write(&src, p.text()).unwrap();
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let lits: Vec<String> = p
        .inputs
        .iter()
        .map(|s| literal(&mut r, s, p.elem))
        .collect();
    let args = format!("--args=[{}]", lits.join(", "));
    let what = format!("seed {seed}:\n{}", p.text());
    let refdir = dir.join("ref");
    run(
        Command::new(env!("CARGO_BIN_EXE_aic-run"))
            .arg("--interpret")
            .arg(&src)
            .arg("--entry=@main")
            .arg(&args)
            .arg(format!("--output-dir={}", refdir.display())),
        &what,
    );
    let lowered = dir.join("l.mlir");
    run(
        Command::new(env!("CARGO_BIN_EXE_aic-opt"))
            .arg(&src)
            .arg("--fusion-to-tile=general-only=true")
            .arg("-o")
            .arg(&lowered),
        &what,
    );
    let text = std::fs::read_to_string(&lowered).unwrap();
    assert!(
        text.contains("tile.launch @general_") && !text.contains("fusion.group"),
        "{what}\n{text}"
    );
    let shapes: Vec<Vec<i64>> = p.results.iter().map(|v| p.shape(*v)).collect();
    let want = results(&refdir, &shapes, p.elem);
    let tol = if p.elem == "f16" { 3e-2 } else { 2e-3 };
    for threads in [1, 32] {
        let out = dir.join(format!("host{threads}"));
        run(
            Command::new(env!("CARGO_BIN_EXE_aic-run"))
                .arg("--target=host")
                .arg(&lowered)
                .arg("--entry=@main")
                .arg(&args)
                .arg(format!("--threads={threads}"))
                .arg(format!("--output-dir={}", out.display())),
            &what,
        );
        let got = results(&out, &shapes, p.elem);
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.len(), w.len(), "{what}");
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                let same = (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * (1.0 + b.abs());
                assert!(
                    same,
                    "{what}\nresult {k} element {i}: {a} against the interpreter's {b} ({threads} threads)\n{text}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_programs_lowered_by_the_general_generator_equal_the_interpreter() {
    let mut seed = 0;
    for elem in ["f32", "f16"] {
        for i in 0..12u64 {
            seed += 1;
            let mut r = Rng(0x5DEE_CE66_D1CE_u64.wrapping_mul(seed) | 1);
            let p = program(&mut r, elem, 3 + (i as usize % 5));
            check(&p, seed);
        }
    }
}
