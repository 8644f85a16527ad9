//! `auto-mixed-precision` on random f32 programs (chains of GEMMs, bias
//! adds, activations, residual adds, transposes, softmax, layer norms and
//! sums at random widths): the result verifies, keeps its signature, runs
//! black-list ops in f32 and nothing but white- and gray-list ops and casts
//! in the reduced type, and its results, interpreted and compiled for the
//! host (`aic-run --target=host`, the binary, so that this test links no
//! LLVM), stay within a bound of the f32 program's on random inputs.

use aic::interp::{Interp, Tensor};
use aic::ir::{Context, Op, WalkOrder};
use aic::pass::pipeline::parse_pipeline;
use aic::pass::{Instrumentation, PassRunner};
use aic::syntax::{parse_module, with_parser_stack};
use aic::types::TypeKind;
use aic::verifier::verify;
use aic::{SourceMap, Type};

use aic_dialects::graph::precision::{Precision, precision};
use aic_passes::auto_mixed_precision::accuracy::{SplitMix, errors, random};
use std::process::Command;
use std::sync::Arc;

fn ty(s: &[i64]) -> String {
    let d: Vec<String> = s.iter().map(|x| x.to_string()).collect();
    format!("tensor<{}xf32>", d.join("x"))
}

/// A random chain on `[m, n]` values; its text and its arguments' shapes.
fn program(r: &mut SplitMix) -> (String, Vec<Vec<i64>>) {
    let pick = |r: &mut SplitMix, xs: &[i64]| xs[(r.next_u64() % xs.len() as u64) as usize];
    let widths = [16, 48, 64, 128, 256, 512];
    let m = pick(r, &[8, 33, 64, 128]);
    let mut shape = vec![m, pick(r, &widths)];
    let mut args = vec![shape.clone()];
    let mut body = String::new();
    let mut cur = "%a0".to_string();
    let layers = 3 + r.next_u64() % 5;
    for i in 0..layers {
        let o = ty(&shape);
        let arg = |args: &mut Vec<Vec<i64>>, s: Vec<i64>| {
            args.push(s);
            format!("%a{}", args.len() - 1)
        };
        let line = match r.next_u64() % 9 {
            0..=2 => {
                let n = pick(r, &widths);
                let w = arg(&mut args, vec![shape[1], n]);
                let out = vec![shape[0], n];
                let l = format!(
                    "graph.matmul {cur}, {w} : ({o}, {}) -> {}",
                    ty(&[shape[1], n]),
                    ty(&out)
                );
                shape = out;
                l
            }
            3 => {
                let b = arg(&mut args, vec![shape[1]]);
                format!(
                    "graph.bias_add {cur}, {b} : ({o}, {}) -> {o}",
                    ty(&[shape[1]])
                )
            }
            4 => {
                let act = ["relu", "gelu", "tanh", "silu"][(r.next_u64() % 4) as usize];
                format!("graph.{act} {cur} : {o}")
            }
            5 => {
                let y = arg(&mut args, shape.clone());
                format!("graph.add {cur}, {y} : {o}")
            }
            6 => format!("graph.softmax {cur} : {o}"),
            7 => {
                let g = arg(&mut args, vec![shape[1]]);
                let b = arg(&mut args, vec![shape[1]]);
                let v = ty(&[shape[1]]);
                format!("graph.layernorm {cur}, {g}, {b} : ({o}, {v}, {v}) -> {o}")
            }
            _ => {
                let out = vec![shape[1], shape[0]];
                let l = format!(
                    "graph.transpose {cur}, perm = [1, 0] : ({o}) -> {}",
                    ty(&out)
                );
                shape = out;
                l
            }
        };
        body += &format!("  %v{i} = {line}\n");
        cur = format!("%v{i}");
    }
    let mut result = ty(&shape);
    if r.next_u64().is_multiple_of(3) {
        body += &format!(
            "  %sum = graph.reduce sum {cur}, axes = [1] : ({result}) -> {}\n",
            ty(&[shape[0]])
        );
        cur = "%sum".into();
        result = ty(&[shape[0]]);
    }
    let params: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, s)| format!("%a{i}: {}", ty(s)))
        .collect();
    (
        format!(
            "func.func @main({}) -> {result} {{\n{body}  return {cur} : {result}\n}}\n",
            params.join(", ")
        ),
        args,
    )
}

fn elem_kind(ctx: &Context, t: Type) -> Option<aic::float::FloatKind> {
    match ctx.type_kind(t) {
        TypeKind::Tensor { elem, .. } => match ctx.type_kind(*elem) {
            TypeKind::Float(k) => Some(*k),
            _ => None,
        },
        _ => None,
    }
}

/// What one program gives: how many ops run in the reduced type, and the
/// largest (absolute, relative) error of the mixed program, interpreted and
/// compiled for the host, against the f32 program interpreted.
struct Outcome {
    text: String,
    reduced_ops: usize,
    interpreted: (f64, f64),
    compiled: (f64, f64),
}

fn mixed(text: &str, dtype: &str, seed: u64, tag: &str) -> Result<Outcome, String> {
    let (text, dtype, tag) = (text.to_string(), dtype.to_string(), tag.to_string());
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        let mut sm = SourceMap::new();
        let id = sm.add("t.mlir", text.clone());
        let m = parse_module(&mut ctx, &sm, id).map_err(|e| sm.render(ctx.uniquer(), &e))?;
        verify(&ctx, m).map_err(|e| sm.render(ctx.uniquer(), &e))?;
        let f = first_func(&ctx, m);
        let (octx, of) = ctx.extract(f);
        let signature = aic_dialects::func::function_type(&ctx, f).ok_or("signature")?;
        let reg = aic_passes::all_passes();
        let pm = parse_pipeline(
            &format!("builtin.module(auto-mixed-precision{{dtype={dtype}}})"),
            &reg,
        )
        .map_err(|e| format!("{e:?}"))?;
        PassRunner::new(&Instrumentation::default(), &mut std::io::sink())
            .run(&pm, &mut ctx, m)
            .map_err(|e| sm.render(ctx.uniquer(), &e))?;
        verify(&ctx, m).map_err(|e| sm.render(ctx.uniquer(), &e))?;
        let f = first_func(&ctx, m);
        let printed = aic::op_printer::print_op(&ctx, m, aic::op_printer::PrintOptions::default());
        if aic_dialects::func::function_type(&ctx, f).as_ref() != Some(&signature) {
            return Err(format!("the signature changed:\n{printed}"));
        }
        // Structure: black ops in f32, reduced values only from white and
        // gray ops or casts, no op mixing both.
        let reduced = if dtype == "bf16" {
            aic::float::FloatKind::BF16
        } else {
            aic::float::FloatKind::F16
        };
        let mut reduced_ops = 0;
        let mut bad = Vec::new();
        ctx.walk(f, WalkOrder::PreOrder, &mut |_, op| {
            let name = ctx.op_name(op);
            if !name.starts_with("graph.") || name == "graph.cast" {
                return;
            }
            let kinds: Vec<_> = ctx
                .operands(op)
                .iter()
                .map(|v| ctx.value_type(*v))
                .chain(ctx.results(op).map(|r| ctx.value_type(r)))
                .map(|t| elem_kind(&ctx, t))
                .collect();
            if !kinds.contains(&Some(reduced)) {
                return;
            }
            if precision(name) == Precision::F32 {
                bad.push(format!("{name} in {dtype}"));
            } else if kinds.contains(&Some(aic::float::FloatKind::F32)) {
                bad.push(format!("{name} mixes f32 and {dtype}"));
            } else {
                reduced_ops += 1;
            }
        });
        if !bad.is_empty() {
            return Err(format!("{}:\n{printed}", bad.join("; ")));
        }
        let mut rng = SplitMix(seed);
        let inputs: Vec<Tensor> = signature
            .0
            .iter()
            .map(|t| random(ctx.uniquer(), *t, &mut rng).expect("f32 inputs"))
            .collect();
        let want = Interp::new(&octx)
            .call(of, inputs.clone())
            .map_err(|e| e.message)?;
        let got = Interp::new(&ctx)
            .call(f, inputs.clone())
            .map_err(|e| e.message)?;
        // The same inputs through the host compilation of the mixed program.
        let dir = std::env::temp_dir().join(format!("aic-amp-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let file = dir.join("t.mlir");
        std::fs::write(&file, &printed).map_err(|e| e.to_string())?;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_aic-run"));
        cmd.arg("--target=host").arg(&file).arg("--entry=@main");
        for (i, t) in inputs.iter().enumerate() {
            let path = dir.join(format!("arg{i}.npy"));
            std::fs::write(&path, aic_tools::npy::write(&ctx, t)?).map_err(|e| e.to_string())?;
            cmd.arg(format!("--input={}", path.display()));
        }
        let out_dir = dir.join("out");
        let out = cmd
            .arg(format!("--output-dir={}", out_dir.display()))
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "aic-run: {}\n{printed}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let compiled: Vec<Tensor> = want
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let bytes = std::fs::read(out_dir.join(format!("result{i}.npy")))
                    .map_err(|e| e.to_string())?;
                aic_tools::npy::read(&ctx, &bytes, w.ty)
            })
            .collect::<Result<_, String>>()?;
        let _ = std::fs::remove_dir_all(&dir);
        Ok(Outcome {
            text: printed,
            reduced_ops,
            interpreted: errors(&got, &want),
            compiled: errors(&compiled, &want),
        })
    })
}

/// Random programs in f16 and bf16: the structure holds, the error is
/// bounded by a few roundings of the reduced type relative to the largest
/// result, and some programs do run GEMMs in the reduced type.
#[test]
fn random_programs_stay_close_to_f32() {
    let mut total_reduced = 0;
    for seed in 0..12u64 {
        let mut r = SplitMix(seed * 7919 + 1);
        let (text, _) = program(&mut r);
        for (dtype, bound) in [("f16", 4e-3), ("bf16", 3e-2)] {
            let o = mixed(&text, dtype, seed, &format!("{seed}-{dtype}"))
                .unwrap_or_else(|e| panic!("seed {seed} {dtype}: {e}\n{text}"));
            total_reduced += o.reduced_ops;
            eprintln!(
                "seed {seed} {dtype}: {} ops reduced; relative error {:.2e} interpreted, {:.2e} compiled",
                o.reduced_ops, o.interpreted.1, o.compiled.1
            );
            for (what, (abs, rel)) in [("interpreted", o.interpreted), ("compiled", o.compiled)] {
                assert!(
                    rel <= bound,
                    "seed {seed} {dtype} {what}: error {abs:e} absolute, {rel:e} relative > {bound}\n{text}\n{}",
                    o.text
                );
            }
        }
    }
    assert!(
        total_reduced > 0,
        "no program ran anything in reduced precision"
    );
}

fn first_func(ctx: &Context, m: Op) -> Op {
    let mut f = None;
    ctx.walk(m, WalkOrder::PreOrder, &mut |_, op| {
        if f.is_none() && ctx.op_name(op) == "func.func" {
            f = Some(op);
        }
    });
    f.expect("a function")
}
