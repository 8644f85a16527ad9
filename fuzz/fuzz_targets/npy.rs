//! Fuzzing of `.npy` inputs (`aic-run --input=FILE`): any bytes are read as a
//! tensor of the argument's type or rejected with an error, never a panic or
//! an allocation the input's size does not justify. The first byte of the
//! input picks the argument type; a tensor that reads writes back to an
//! `.npy` that reads to the same tensor.

#![no_main]

use aic::syntax::{parse_module, with_parser_stack};
use aic::{Context, SourceMap};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn registry() -> Arc<aic::dialect::DialectRegistry> {
    static REG: OnceLock<Arc<aic::dialect::DialectRegistry>> = OnceLock::new();
    REG.get_or_init(|| Arc::new(aic_dialects::all_dialects()))
        .clone()
}

/// Argument types an entry function may take.
const TYPES: &[&str] = &[
    "tensor<2x3xf32>",
    "tensor<4xf16>",
    "tensor<3xbf16>",
    "tensor<2x2xi8>",
    "tensor<5xi1>",
    "tensor<2xui16>",
    "tensor<i64>",
    "tensor<0x3xf64>",
    "f32",
    "tensor<2xcomplex<f32>>",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let ty_text = TYPES[pick as usize % TYPES.len()];
    with_parser_stack(|| {
        let mut ctx = Context::new(registry());
        let mut sm = SourceMap::new();
        let text = format!("func.func private @f(%a: {ty_text})\n");
        let f = sm.add("fuzz.mlir", text);
        let m = parse_module(&mut ctx, &sm, f).expect("the fixed declaration parses");
        let func = ctx
            .regions(m)
            .first()
            .and_then(|r| ctx.entry_block(*r))
            .and_then(|b| ctx.block_ops(b).next())
            .expect("one function");
        let (inputs, _) = aic_dialects::func::function_type(&ctx, func).expect("a function type");
        let ty = inputs[0];
        if let Ok(t) = aic_tools::npy::read(&ctx, bytes, ty) {
            let written = aic_tools::npy::write(&ctx, &t).expect("a read tensor writes");
            let again = aic_tools::npy::read(&ctx, &written, ty).expect("a written .npy reads");
            assert_eq!(t.shape, again.shape);
            assert_eq!(t.len(), again.len());
        }
    });
});
