//! A pipeline nested 8,000 deep (as mlir-opt-22 accepts) parses, runs and is
//! dropped without exhausting the stack.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn pipeline_nested_8000_deep_runs() {
    let depth = 8_000;
    let pipeline = format!(
        "{}cse{}",
        "builtin.module(".repeat(depth),
        ")".repeat(depth)
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_aic-opt"))
        .arg(format!("--pass-pipeline={pipeline}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"func.func @f() {\n  return\n}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("func.func @f()"));
}
