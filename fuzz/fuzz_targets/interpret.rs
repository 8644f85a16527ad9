//! Fuzzing of the reference interpreter: for any input that parses and verifies,
//! every public function without arguments runs (with a step budget, and only
//! when no value has more than a few thousand elements). A run may fail with an
//! error, never with a panic, stack overflow or hang.

#![no_main]

use aic::interp::Interp;
use aic::syntax::{parse_module, with_parser_stack};
use aic::verifier::verify;
use aic::{Context, SourceMap};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn registry() -> Arc<aic::dialect::DialectRegistry> {
    static REG: OnceLock<Arc<aic::dialect::DialectRegistry>> = OnceLock::new();
    REG.get_or_init(|| Arc::new(aic_dialects::all_dialects()))
        .clone()
}

/// Whether every value in the module is small enough to run quickly.
fn small(ctx: &Context, m: aic::Op) -> bool {
    let mut ok = true;
    ctx.walk(m, aic::ir::WalkOrder::PreOrder, &mut |_, op| {
        for v in ctx.results(op) {
            let n = ctx.type_kind(ctx.value_type(v)).num_elements().unwrap_or(0);
            ok &= n <= 4096;
        }
    });
    ok
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    with_parser_stack(|| {
        let mut ctx = Context::new(registry());
        let mut sm = SourceMap::new();
        let f = sm.add("fuzz.mlir", text.to_string());
        let Ok(m) = parse_module(&mut ctx, &sm, f).and_then(|m| verify(&ctx, m).map(|()| m)) else {
            return;
        };
        if !small(&ctx, m) {
            return;
        }
        let Some(body) = ctx.regions(m).first().and_then(|r| ctx.entry_block(*r)) else {
            return;
        };
        let funcs: Vec<aic::Op> = ctx
            .block_ops(body)
            .filter(|f| ctx.op_name(*f) == "func.func")
            .collect();
        for f in funcs {
            let takes_args = ctx
                .regions(f)
                .first()
                .and_then(|r| ctx.entry_block(*r))
                .is_none_or(|b| !ctx.block_args(b).is_empty());
            if takes_args {
                continue;
            }
            let mut it = Interp::new(&ctx);
            it.budget = Some(20_000);
            let _ = it.call(f, Vec::new());
        }
    });
});
