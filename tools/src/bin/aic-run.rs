//! `aic-run --interpret FILE`: run functions of an MLIR file with aic's reference
//! interpreter.
//!
//! With `--entry @name` the function runs on inputs from `.npy` files
//! (`--input a.npy`, one per argument) or MLIR literals (`--args "[dense<1> :
//! tensor<2xi32>]"`); results are printed, or written as `result<i>.npy` into
//! `--output-dir`. Without `--entry` every public function without arguments runs
//! as a test (`PASS name` / `FAIL name: why`, then `N passed, N failed`), and
//! the exit status is 1 if any failed.

use aic::interp::{Interp, Tensor, attr_of_tensor, tensor_of_attr};
use aic::printer::attr_text;
use aic::syntax::{Aliases, parse_attribute, parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{AttrKind, Context, Op, SourceMap};
use aic_tools::npy;
use std::process::ExitCode;
use std::sync::Arc;

const HELP: &str = "OVERVIEW: aic reference interpreter

USAGE: aic-run --interpret [options] <input file>

OPTIONS:
  --interpret               Run the file with the reference interpreter
  --split-input-file        Run each '// -----' chunk separately
  --entry=@name             Run this function (otherwise: every public function
                            without arguments, as a test)
  --input=<file.npy>        An argument of the entry function (repeatable)
  --args=<[attr, ...]>      The arguments as MLIR literals: \"[dense<1> : tensor<2xi32>]\"
  --output-dir=<dir>        Write result i as result<i>.npy there instead of printing
  --allow-unregistered-dialect  Accept ops of unknown dialects
  --help                    Show this help
";

#[derive(Default)]
struct Options {
    input: Option<String>,
    interpret: bool,
    split: bool,
    entry: Option<String>,
    inputs: Vec<String>,
    args: Option<String>,
    output_dir: Option<String>,
    allow_unregistered: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("missing value for {name}"))
        };
        match flag.as_str() {
            "--help" | "-h" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            "--interpret" => o.interpret = true,
            "--split-input-file" => o.split = true,
            "--allow-unregistered-dialect" => o.allow_unregistered = true,
            "--entry" => o.entry = Some(value("--entry")?.trim_start_matches('@').to_string()),
            "--input" => o.inputs.push(value("--input")?),
            "--args" => o.args = Some(value("--args")?),
            "--output-dir" => o.output_dir = Some(value("--output-dir")?),
            f if f.starts_with('-') && f != "-" => return Err(format!("unknown option '{f}'")),
            _ => {
                if o.input.is_some() {
                    return Err("only one input file may be given".into());
                }
                o.input = Some(a);
            }
        }
    }
    if !o.interpret {
        return Err("nothing to do: pass --interpret (see --help)".into());
    }
    if o.entry.is_none() && (!o.inputs.is_empty() || o.args.is_some()) {
        return Err("--input and --args need --entry".into());
    }
    Ok(o)
}

/// Functions of the module, by name.
fn functions(ctx: &Context, m: Op) -> Vec<(String, Op)> {
    let Some(body) = ctx.regions(m).first().and_then(|r| ctx.entry_block(*r)) else {
        return Vec::new();
    };
    ctx.block_ops(body)
        .filter(|f| ctx.op_name(*f) == "func.func")
        .filter_map(|f| Some((aic::symbol::symbol_name(ctx, f)?.to_string(), f)))
        .collect()
}

fn arg_types(ctx: &Context, f: Op) -> Vec<aic::Type> {
    aic_dialects::func::function_type(ctx, f)
        .map(|(ins, _)| ins)
        .unwrap_or_default()
}

/// Run every public function without arguments; (passed, failed).
fn run_tests(ctx: &Context, m: Op) -> (usize, usize) {
    let (mut pass, mut fail) = (0, 0);
    for (name, f) in functions(ctx, m) {
        let public = aic::symbol::visibility(ctx, f) != Some(aic::symbol::Visibility::Private);
        let has_body = ctx
            .regions(f)
            .first()
            .is_some_and(|r| ctx.entry_block(*r).is_some());
        if !public || !has_body || !arg_types(ctx, f).is_empty() {
            continue;
        }
        let mut it = Interp::new(ctx);
        match it.call(f, Vec::new()) {
            Ok(_) => {
                println!("PASS {name}");
                pass += 1;
            }
            Err(e) => {
                let at =
                    e.op.map(|o| format!(" (at '{}')", ctx.op_name(o)))
                        .unwrap_or_default();
                println!("FAIL {name}: {}{at}", e.message);
                fail += 1;
            }
        }
    }
    (pass, fail)
}

fn entry_inputs(ctx: &Context, o: &Options, f: Op) -> Result<Vec<Tensor>, String> {
    let types = arg_types(ctx, f);
    let mut out = Vec::new();
    if let Some(text) = &o.args {
        let a = parse_attribute(ctx.uniquer(), &Aliases::default(), text)
            .map_err(|d| format!("--args: {}", d.message))?;
        let AttrKind::Array(items) = ctx.attr_kind(a).clone() else {
            return Err("--args: expected a list '[...]' of literals".into());
        };
        for (i, it) in items.iter().enumerate() {
            let ty = *types
                .get(i)
                .ok_or_else(|| format!("--args: more values than the {} arguments", types.len()))?;
            let t = tensor_of_attr(ctx, *it, ty).ok_or_else(|| {
                format!(
                    "--args: value {i} does not fit argument {i} of type {}",
                    aic::printer::type_text(ctx, ty)
                )
            })?;
            let lit_ty = match ctx.attr_kind(*it) {
                AttrKind::DenseElements { ty, .. }
                | AttrKind::Integer { ty, .. }
                | AttrKind::Float { ty, .. } => *ty,
                _ => ty,
            };
            if lit_ty != ty {
                return Err(format!(
                    "--args: value {i} has type {}, argument {i} is {}",
                    aic::printer::type_text(ctx, lit_ty),
                    aic::printer::type_text(ctx, ty)
                ));
            }
            out.push(t);
        }
    }
    for (k, path) in o.inputs.iter().enumerate() {
        let i = out.len();
        let ty = *types.get(i).ok_or_else(|| {
            format!(
                "--input {path}: more inputs than the {} arguments",
                types.len()
            )
        })?;
        let bytes = std::fs::read(path).map_err(|e| format!("--input {path}: {e}"))?;
        let t = npy::read(ctx, &bytes, ty)
            .map_err(|e| format!("--input {path} (argument {i}): {e}"))?;
        let _ = k;
        out.push(t);
    }
    if out.len() != types.len() {
        return Err(format!(
            "the entry function takes {} arguments, {} given",
            types.len(),
            out.len()
        ));
    }
    Ok(out)
}

fn run_entry(ctx: &Context, m: Op, o: &Options, name: &str) -> Result<(), String> {
    let f = functions(ctx, m)
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| f)
        .ok_or_else(|| format!("no function named '@{name}'"))?;
    let inputs = entry_inputs(ctx, o, f)?;
    let mut it = Interp::new(ctx);
    let results = it.call(f, inputs).map_err(|e| {
        let at =
            e.op.map(|o| format!(" (at '{}')", ctx.op_name(o)))
                .unwrap_or_default();
        format!("{}{at}", e.message)
    })?;
    match &o.output_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: {e}"))?;
            for (i, r) in results.iter().enumerate() {
                let bytes = npy::write(ctx, r).map_err(|e| format!("result {i}: {e}"))?;
                let path = std::path::Path::new(dir).join(format!("result{i}.npy"));
                std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        None => {
            for r in &results {
                let a = attr_of_tensor(ctx, r);
                println!("{}", attr_text(ctx, a));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("aic-run: {e}");
            return ExitCode::from(1);
        }
    };
    let path = o.input.clone().unwrap_or_else(|| "-".into());
    let text = if path == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("aic-run: <stdin>: {e}");
            return ExitCode::from(1);
        }
        s
    } else {
        match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("aic-run: {path}: {e}");
                return ExitCode::from(1);
            }
        }
    };
    let chunks = if o.split {
        aic_tools::split_input(&text)
    } else {
        vec![(0, 0, text)]
    };
    let registry = Arc::new(aic_dialects::all_dialects());
    let (mut passed, mut failed, mut ok) = (0, 0, true);
    for (line_offset, _col, chunk) in chunks {
        let padded = format!("{}{chunk}", "\n".repeat(line_offset));
        let registry = registry.clone();
        let name = path.clone();
        let o = &o;
        let r = with_parser_stack(move || {
            let mut ctx = Context::new(registry);
            ctx.allow_unregistered = o.allow_unregistered;
            let mut sm = SourceMap::new();
            let f = sm.add(&name, padded);
            let m = match parse_module(&mut ctx, &sm, f).and_then(|m| verify(&ctx, m).map(|()| m)) {
                Ok(m) => m,
                Err(d) => {
                    eprint!("{}", sm.render(ctx.uniquer(), &d));
                    return Err(());
                }
            };
            match &o.entry {
                Some(e) => run_entry(&ctx, m, o, e).map(|()| (0, 0)).map_err(|e| {
                    eprintln!("aic-run: {e}");
                }),
                None => Ok(run_tests(&ctx, m)),
            }
        });
        match r {
            Ok((p, f)) => {
                passed += p;
                failed += f;
            }
            Err(()) => ok = false,
        }
    }
    if o.entry.is_none() {
        println!("{passed} passed, {failed} failed");
    }
    if ok && failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
