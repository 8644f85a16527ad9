//! No tool loses a file: a failing run leaves its output target (a device, a file,
//! a link, the input itself) as it was, and a successful one replaces it whole.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const BAD: &str = "func.func @f() {\n  %0 = arith.addi %zz, %zz : i32\n  return\n}\n";
const GOOD: &str = "func.func @g() {\n  return\n}\n";

/// A fresh scratch directory for test `name`.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("aic-outputs-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// Runs aic-opt on `input` with `-o out` (and `extra` flags); returns whether it
/// succeeded.
fn aic_opt(input: &Path, out: &Path, extra: &[&str]) -> bool {
    Command::new(env!("CARGO_BIN_EXE_aic-opt"))
        .arg(input)
        .arg("-o")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
        .status
        .success()
}

/// The names in `dir`, sorted (no temporary file may be left behind).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn failing_run_keeps_a_device_node() {
    let d = scratch("device");
    let bad = d.join("bad.mlir");
    fs::write(&bad, BAD).unwrap();
    let dev = d.join("fake");
    let made = Command::new("mknod")
        .args(["-m", "666"])
        .arg(&dev)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("skipped: mknod is not permitted here");
        return;
    }
    assert!(!aic_opt(&bad, &dev, &[]));
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata(&dev).unwrap().file_type().is_char_device());
    assert_eq!(names(&d), ["bad.mlir", "fake"]);
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn failing_run_keeps_files_links_and_the_input() {
    let d = scratch("files");
    let bad = d.join("bad.mlir");
    fs::write(&bad, BAD).unwrap();
    let existing = d.join("existing.txt");
    fs::write(&existing, "keep me\n").unwrap();
    let link = d.join("link");
    std::os::unix::fs::symlink("existing.txt", &link).unwrap();
    // (c) an existing file, (b) a link to it, (d) the input itself.
    assert!(!aic_opt(&bad, &existing, &[]));
    assert!(!aic_opt(&bad, &link, &[]));
    assert!(!aic_opt(&bad, &bad, &[]));
    assert_eq!(fs::read_to_string(&existing).unwrap(), "keep me\n");
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(fs::read_to_string(&bad).unwrap(), BAD);
    assert_eq!(names(&d), ["bad.mlir", "existing.txt", "link"]);
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn successful_run_through_a_link_keeps_the_link() {
    let d = scratch("link");
    let good = d.join("good.mlir");
    fs::write(&good, GOOD).unwrap();
    let target = d.join("target.txt");
    fs::write(&target, "old\n").unwrap();
    let link = d.join("link");
    std::os::unix::fs::symlink("target.txt", &link).unwrap();
    assert!(aic_opt(&good, &link, &[]));
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(
        fs::read_to_string(&target)
            .unwrap()
            .contains("func.func @g()")
    );
    assert_eq!(names(&d), ["good.mlir", "link", "target.txt"]);
    fs::remove_dir_all(&d).unwrap();
}

#[test]
fn split_input_failure_in_a_later_chunk_keeps_the_old_output() {
    let d = scratch("split");
    let input = d.join("in.mlir");
    fs::write(&input, format!("{GOOD}// -----\n{BAD}")).unwrap();
    let out = d.join("out.mlir");
    fs::write(&out, "old\n").unwrap();
    assert!(!aic_opt(&input, &out, &["--split-input-file"]));
    assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(names(&d), ["in.mlir", "out.mlir"]);
    fs::remove_dir_all(&d).unwrap();
}

const TWO_RESULTS: &str = "func.func @f() -> (tensor<2xf32>, tensor<2xf8E4M3FNUZ>) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<[1.0, 2.0]> : tensor<2xf8E4M3FNUZ>
  return %a, %b : tensor<2xf32>, tensor<2xf8E4M3FNUZ>
}
func.func @g() -> tensor<2xf32> {
  %a = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  return %a : tensor<2xf32>
}
";

fn aic_run(input: &Path, entry: &str, dir: &Path) -> bool {
    Command::new(env!("CARGO_BIN_EXE_aic-run"))
        .args(["--interpret", &format!("--entry=@{entry}")])
        .arg(input)
        .arg(format!("--output-dir={}", dir.display()))
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn aic_run_output_dir_is_all_or_none() {
    let d = scratch("run");
    let input = d.join("in.mlir");
    fs::write(&input, TWO_RESULTS).unwrap();
    let out = d.join("out");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("result0.npy"), "old0").unwrap();
    fs::write(out.join("result1.npy"), "old1").unwrap();
    fs::write(out.join("result2.npy"), "old2").unwrap();
    fs::write(out.join("notes.txt"), "mine").unwrap();
    // The f8E4M3FNUZ second result has no .npy dtype: nothing changes.
    assert!(!aic_run(&input, "f", &out));
    assert_eq!(
        names(&out),
        ["notes.txt", "result0.npy", "result1.npy", "result2.npy"]
    );
    assert_eq!(fs::read_to_string(out.join("result0.npy")).unwrap(), "old0");
    // One result: result0 replaced, the earlier run's result1 and result2 removed,
    // other files kept.
    assert!(aic_run(&input, "g", &out));
    assert_eq!(names(&out), ["notes.txt", "result0.npy"]);
    assert!(
        fs::read(out.join("result0.npy"))
            .unwrap()
            .starts_with(b"\x93NUMPY")
    );
    assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
    fs::remove_dir_all(&d).unwrap();
}
