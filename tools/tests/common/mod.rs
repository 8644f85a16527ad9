//! What the fixture tests share: the fixtures of a folder (`NAME.mlir` with
//! its `NAME.inK.npy` / `NAME.outK.npy`) and the `@main` of a module.

use aic::interp::{Data, Tensor};
use aic::ir::{Context, Op};
use std::path::{Path, PathBuf};

/// The fixture names (`.mlir` file stems) in `dir`, sorted.
pub fn fixture_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("fixture directory")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "mlir").then(|| p.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    names
}

/// Fixture `name`'s `.npy` files of `kind` (`in`, `out`) in `dir`, in order.
pub fn npys(dir: &Path, name: &str, kind: &str) -> Vec<PathBuf> {
    (0..)
        .map(|i| dir.join(format!("{name}.{kind}{i}.npy")))
        .take_while(|p| p.exists())
        .collect()
}

/// The `@main` function of module `m`.
pub fn main_fn(ctx: &Context, m: Op) -> Op {
    let body = ctx.entry_block(ctx.regions(m)[0]).expect("module body");
    ctx.block_ops(body)
        .find(|f| aic::symbol::symbol_name(ctx, *f) == Some("main"))
        .expect("a @main function")
}

/// Where float tensor `got` differs from `want` by more than `atol + rtol ·
/// |want|` (or in shape, or is not floats), said; `None` where it agrees.
/// (Not every test crate including this module compares tensors.)
#[allow(dead_code)]
pub fn mismatch(got: &Tensor, want: &Tensor, rtol: f64, atol: f64) -> Option<String> {
    if got.shape != want.shape {
        return Some(format!("shape {:?} != {:?}", got.shape, want.shape));
    }
    match (&got.data, &want.data) {
        (Data::Float(a), Data::Float(b)) => {
            a.iter().zip(b.iter()).enumerate().find_map(|(i, (x, y))| {
                let ok = (x - y).abs() <= atol + rtol * y.abs();
                (!ok).then(|| format!("element {i}: {x} != {y}"))
            })
        }
        _ => Some("not floats".into()),
    }
}
/// Seeded random numbers and tensor types (not every test uses them).
#[allow(dead_code)]
pub mod rng;
