//! What the fixture tests share: the fixtures of a folder (`NAME.mlir` with
//! its `NAME.inK.npy` / `NAME.outK.npy`) and the `@main` of a module.

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
