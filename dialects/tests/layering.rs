//! The layering of the dialects crate: which of its modules may import which.
//! Every `dialects/src/<module>/**.rs` (and `dialects/src/<module>.rs`) is read;
//! each `crate::<other>` it names (in a path or a `use crate::{...}` group) is an
//! edge, and an edge the table below does not allow fails this test with the
//! file, the line and the edge.
//!
//! Upstream-shaped dialects lean only on the framework and on each other as in
//! MLIR; our dialects lean on upstream ones and downward on each other
//! (`chlo` → `stablehlo` → `graph`... read the table).

use std::collections::BTreeSet;
use std::path::Path;

/// The dialects MLIR has, whose Rust twins must not know ours.
const UPSTREAM: &[&str] = &[
    "func", "arith", "math", "scf", "memref", "vector", "gpu", "nvgpu", "nvvm", "amdgpu", "quant",
];

/// Each module of the crate and the modules it may import, besides itself and
/// (for our dialects) every upstream one.
const ALLOWED: &[(&str, &[&str])] = &[
    // Upstream-shaped: as the MLIR dialects depend on each other.
    ("func", &[]),
    ("arith", &[]),
    ("math", &["arith"]),
    ("scf", &["arith"]),
    ("memref", &[]),
    ("vector", &[]),
    ("gpu", &["memref"]),
    ("nvgpu", &["gpu"]),
    ("nvvm", &["gpu"]),
    ("amdgpu", &["gpu"]),
    ("quant", &[]),
    // The interpreter's shared tensor kernels: upstream only.
    ("kernels", &[]),
    // Ours, top to bottom.
    ("check", &[]),
    ("chlo", &["stablehlo"]),
    ("stablehlo", &["kernels"]),
    ("graph", &["stablehlo", "kernels"]),
    ("sdy", &["stablehlo", "kernels"]),
    ("fusion", &["graph"]),
    ("tile", &["coord"]),
    ("nki", &["coord"]),
    ("coord", &[]),
];

/// Whether module `from` may import module `to`.
fn allowed(from: &str, to: &str) -> Result<bool, String> {
    let Some((_, may)) = ALLOWED.iter().find(|(m, _)| *m == from) else {
        return Err(format!(
            "module `{from}` is not in the layering table of dialects/tests/layering.rs: add it"
        ));
    };
    Ok(from == to || may.contains(&to) || (!UPSTREAM.contains(&from) && UPSTREAM.contains(&to)))
}

/// The modules of the crate that `text` names, with their 1-based lines: every
/// `crate::<name>` and every top-level name of a `use crate::{...}` group.
/// Comments are skipped.
fn imports(text: &str) -> Vec<(usize, String)> {
    // Drop line comments (doc comments included), keeping line breaks.
    let code: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find("crate::") {
        let at = from + i;
        from = at + "crate::".len();
        // `aic_dialects::crate::` cannot occur; a longer path ending in
        // `crate` (`my_crate::`) is not ours.
        if code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a, b::{c, d}, e}`: the top-level names.
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if c.is_whitespace() => {}
                    _ if start && depth == 0 => {
                        start = false;
                        let name = ident(&group[k..]);
                        if !name.is_empty() && name != "self" {
                            out.push((line_of(from + 1 + k), name));
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.push((line_of(at), name));
            }
        }
    }
    out
}

/// The module a source file belongs to (`gpu` for `gpu/mod.rs` and
/// `gpu/x/y.rs`, `kernels` for `kernels.rs`); `None` for `lib.rs`.
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable source folder") {
        let p = e.expect("a folder entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every forbidden edge in `files` (path relative to `dialects/src`, text), as
/// one message each.
fn violations(files: &[(std::path::PathBuf, String)]) -> Vec<String> {
    let modules: BTreeSet<String> = files.iter().filter_map(|(p, _)| module_of(p)).collect();
    let mut bad = Vec::new();
    for (rel, text) in files {
        let Some(from) = module_of(rel) else {
            continue;
        };
        for (line, to) in imports(text) {
            if !modules.contains(&to) {
                continue; // not a module of the crate (a macro path, say)
            }
            match allowed(&from, &to) {
                Ok(true) => {}
                Ok(false) => bad.push(format!(
                    "dialects/src/{}:{line}: `{from}` imports `crate::{to}`, which the layering forbids",
                    rel.display()
                )),
                Err(e) => bad.push(e),
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

#[test]
fn dialects_import_only_what_the_layering_allows() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let files: Vec<_> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("under src").to_path_buf();
            (
                rel,
                std::fs::read_to_string(p).expect("a readable source file"),
            )
        })
        .collect();
    assert!(files.len() > 20, "found the dialects' sources");
    let bad = violations(&files);
    assert!(
        bad.is_empty(),
        "{} forbidden import(s) between dialects:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_scanner_finds_forbidden_edges() {
    let gpu = "//! crate::tile in a comment is no import\n\
               use crate::memref::zeros;\n\
               use crate::{\n    memref,\n    tile::{enclosing, run_grid},\n    self,\n};\n\
               fn f() { let x = crate::stablehlo::I64_ATTR; }\n";
    assert_eq!(
        imports(gpu),
        vec![
            (2, "memref".to_string()),
            (4, "memref".to_string()),
            (5, "tile".to_string()),
            (8, "stablehlo".to_string()),
        ]
    );
    let files = vec![
        ("gpu/mod.rs".into(), gpu.to_string()),
        ("memref/mod.rs".into(), String::new()),
        (
            "tile/mod.rs".into(),
            "use crate::gpu::PROGRAM;\n".to_string(),
        ),
        ("stablehlo/mod.rs".into(), String::new()),
    ];
    assert_eq!(
        violations(&files),
        vec![
            "dialects/src/gpu/mod.rs:5: `gpu` imports `crate::tile`, which the layering forbids",
            "dialects/src/gpu/mod.rs:8: `gpu` imports `crate::stablehlo`, which the layering forbids",
        ]
    );
    // A module the table does not know is an error too.
    let files = vec![("newdialect/mod.rs".into(), "use crate::gpu::x;".to_string())];
    let files = [files, vec![("gpu/mod.rs".into(), String::new())]].concat();
    assert_eq!(
        violations(&files),
        vec![
            "module `newdialect` is not in the layering table of dialects/tests/layering.rs: add it"
        ]
    );
}
