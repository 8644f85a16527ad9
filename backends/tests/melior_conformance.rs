//! Conformance with real MLIR 22 (through melior): every lit-test chunk and corpus
//! file that aic accepts and that uses only upstream dialects is printed by aic in
//! pretty and generic form; MLIR must parse and verify both, and MLIR's own generic
//! print of them must equal aic's, byte for byte (with and without locations).
//!
//! This is the one test binary that links MLIR.

use aic::op_printer::{PrintOptions, print_op};
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use aic_backends::mlir::{context, mlir_roundtrip};
use melior::ir::Module;
use melior::ir::operation::{OperationLike, OperationPrintingFlags};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Dialects MLIR itself knows, so that the comparison is meaningful.
const UPSTREAM: &[&str] = &["builtin", "func", "arith", "math", "scf"];

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "Output") {
                mlir_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "mlir") {
            out.push(p);
        }
    }
}

/// aic's prints of a chunk (generic, pretty, generic with locations), or `None`
/// when aic rejects it or it uses a dialect MLIR would not know.
fn aic_prints(name: &str, text: &str) -> Option<(String, String, String)> {
    let (name, text) = (name.to_string(), text.to_string());
    with_parser_stack(move || {
        let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add(&name, text);
        let m = parse_module(&mut ctx, &sm, f).ok()?;
        verify(&ctx, m).ok()?;
        let mut upstream = true;
        ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
            let n = ctx.op_name(op);
            upstream &= UPSTREAM.iter().any(|d| n.split('.').next() == Some(d));
        });
        if !upstream {
            return None;
        }
        let generic = PrintOptions {
            generic: true,
            debuginfo: false,
        };
        let located = PrintOptions {
            generic: true,
            debuginfo: true,
        };
        Some((
            print_op(&ctx, m, generic),
            print_op(&ctx, m, PrintOptions::default()),
            print_op(&ctx, m, located),
        ))
    })
}

#[test]
fn mlir_accepts_and_reprints_what_aic_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    mlir_files(&root.join("lit_tests"), &mut files);
    mlir_files(&root.join("backends/tests/corpus"), &mut files);
    files.sort();
    let ctx = context(false);
    let (mut checked, mut failures) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        for (i, chunk) in text.split("// -----").enumerate() {
            let where_ = format!("{} chunk {i}", file.display());
            let Some((generic, pretty, located)) = aic_prints("input.mlir", chunk) else {
                continue;
            };
            checked += 1;
            for (form, printed) in [("pretty", &pretty), ("generic", &generic)] {
                match mlir_roundtrip(&ctx, printed) {
                    // Both end with a newline except for the trailing one mlir-opt adds.
                    Ok(m) if m.generic.trim_end() == generic.trim_end() => {}
                    Ok(m) => failures.push(format!(
                        "{where_}: MLIR's generic print of aic's {form} form differs:\n--- aic\n{generic}--- MLIR\n{}",
                        m.generic
                    )),
                    Err(e) => failures.push(format!(
                        "{where_}: MLIR rejects aic's {form} form: {e}\n{printed}"
                    )),
                }
            }
            // With locations (and their aliases) MLIR must print what aic printed.
            match Module::parse(&ctx, &located) {
                None => failures.push(format!(
                    "{where_}: MLIR rejects aic's located form\n{located}"
                )),
                Some(m) => {
                    let flags = OperationPrintingFlags::new()
                        .print_generic_operation_form()
                        .enable_debug_info(true, false);
                    let again = m
                        .as_operation()
                        .to_string_with_flags(flags)
                        .unwrap_or_default();
                    if again.trim_end() != located.trim_end() {
                        failures.push(format!(
                            "{where_}: MLIR's located print differs:\n--- aic\n{located}--- MLIR\n{again}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} chunks differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The corpus alone has more than this; fewer means files went missing.
    assert!(checked >= 20, "only {checked} chunks were checked");
    eprintln!("{checked} chunks agree with MLIR 22");
}
