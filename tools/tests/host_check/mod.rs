//! Running a program's `@main` on the host against the interpreter
//! (`aic-run --target=host --check`), as the tests of the precision
//! passes do.

use std::process::Command;

/// Runs `@main` of `file` on the host (`aic-run --target=host`, with
/// `extra` flags) on `args` (MLIR literals, `aic-run --args`), checked
/// against the interpreter: whether it ran and matched, and what aic-run
/// said.
pub fn host_check(file: &std::path::Path, extra: &[String], args: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .arg("--target=host")
        .args(extra)
        .arg(file)
        .arg("--entry=@main")
        .arg(format!("--args={args}"))
        .arg("--check")
        .output()
        .expect("aic-run runs");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    (out.status.success() && stderr.contains("check: ok"), stderr)
}

/// The `--args` of one `[m, k]` argument of `elem` whose rows are `rows`.
pub fn rows_arg(rows: &[String], (m, k, elem): (usize, usize, &str)) -> String {
    format!("[dense<[{}]> : tensor<{m}x{k}x{elem}>]", rows.join(", "))
}
