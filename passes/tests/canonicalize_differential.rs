//! Differential test against the real `mlir-opt-22 --canonicalize`: seeded random
//! functions of integer arith ops over awkward constants (0, ±1, min, max) of
//! i1/i8/i16/i32/i64/index must canonicalise to the same IR. Constants may be
//! hoisted in a different order than MLIR's (its OperationFolder's order is not
//! reproduced yet), so lines are compared as multisets; everything else (which
//! ops fold, to what, what stays) must agree. Skipped with a note when mlir-opt
//! is not installed.

use aic::op_printer::{PrintOptions, print_op};
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

// floordivsi is left out: MLIR refuses some folds on intermediate overflow in ways
// not reproduced yet.
const OPS: &[&str] = &[
    "addi",
    "subi",
    "muli",
    "andi",
    "ori",
    "xori",
    "maxsi",
    "minsi",
    "maxui",
    "minui",
    "divsi",
    "divui",
    "remsi",
    "remui",
    "ceildivsi",
    "ceildivui",
    "shli",
    "shrsi",
    "shrui",
];
const TYPES: &[(&str, u32)] = &[
    ("i1", 1),
    ("i8", 8),
    ("i16", 16),
    ("i32", 32),
    ("i64", 64),
    ("index", 64),
];

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn function(rng: &mut Rng) -> String {
    let &(ty, w) = rng.pick(TYPES);
    let min = if w == 1 { -1 } else { -(1i128 << (w - 1)) };
    let max = if w == 1 { 0 } else { (1i128 << (w - 1)) - 1 };
    let values = [0, 1, -1, 2, 3, 7, -8, min, max];
    let mut s = format!("func.func @f() -> {ty} {{\n");
    let mut names = Vec::new();
    for i in 0..3 {
        let v = *rng.pick(&values);
        if w == 1 {
            s += &format!("  %c{i} = arith.constant {}\n", v != 0);
        } else {
            s += &format!("  %c{i} = arith.constant {v} : {ty}\n");
        }
        names.push(format!("%c{i}"));
    }
    for i in 0..3 {
        let (a, b) = (rng.pick(&names).clone(), rng.pick(&names).clone());
        s += &format!("  %v{i} = arith.{} {a}, {b} : {ty}\n", rng.pick(OPS));
        names.push(format!("%v{i}"));
    }
    s + &format!("  return {} : {ty}\n}}\n", names.last().expect("values"))
}

fn aic_canonicalize(text: &str) -> String {
    let text = text.to_string();
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let f = sm.add("d.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("generated text parses");
        let reg = aic_passes::all_passes();
        let pm = parse_pipeline("builtin.module(canonicalize)", &reg).expect("pipeline");
        let inst = Instrumentation::default();
        let mut sink = std::io::sink();
        PassRunner::new(&inst, &mut sink)
            .run(&pm, &mut ctx, m)
            .expect("canonicalize succeeds");
        print_op(&ctx, m, PrintOptions::default())
    })
}

fn mlir_opt() -> Option<String> {
    ["mlir-opt-22", "/usr/lib/llvm-22/bin/mlir-opt", "mlir-opt"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
        .map(str::to_string)
}

#[test]
fn canonicalize_agrees_with_mlir_opt() {
    let Some(mlir) = mlir_opt() else {
        eprintln!("mlir-opt not found: differential test skipped");
        return;
    };
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let funcs: Vec<String> = (0..300).map(|_| function(&mut rng)).collect();
    let mut child = Command::new(&mlir)
        .args(["--canonicalize", "--split-input-file", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mlir-opt runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(funcs.join("// -----\n").as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("mlir-opt finishes");
    assert!(out.status.success(), "mlir-opt failed");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let theirs: Vec<&str> = text.split("// -----\n").collect();
    assert_eq!(theirs.len(), funcs.len());
    let norm = |s: &str| {
        let mut v: Vec<String> = s
            .lines()
            .map(str::to_string)
            .filter(|l| !l.is_empty())
            .collect();
        v.sort();
        v
    };
    let (mut exact, mut mismatches) = (0, Vec::new());
    for (f, t) in funcs.iter().zip(&theirs) {
        let ours = aic_canonicalize(f);
        if ours.trim_end() == t.trim_end() {
            exact += 1;
        } else if norm(&ours) != norm(t) {
            mismatches.push(format!("{f}--- aic\n{ours}--- mlir-opt\n{t}"));
        }
    }
    eprintln!(
        "{} functions: {exact} identical, {} equal up to constant order",
        funcs.len(),
        funcs.len() - exact - mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
