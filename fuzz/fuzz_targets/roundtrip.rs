//! Round-trip fuzzing of the parser, verifier and printer.
//!
//! For any input that parses and verifies, printing it must give text that parses
//! again and prints to the very same text, in both the generic and the pretty form.
//! Inputs that do not parse must be rejected with a diagnostic: any panic, stack
//! overflow or hang is a bug.

#![no_main]

use aic::op_printer::{PrintOptions, print_op};
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

/// Parse `text` into a fresh context and print it; `None` when it is rejected.
fn parse_print(text: &str, opts: PrintOptions) -> Option<String> {
    let mut ctx = Context::new(registry());
    ctx.allow_unregistered = true;
    let mut sm = SourceMap::new();
    let f = sm.add("fuzz.mlir", text.to_string());
    match parse_module(&mut ctx, &sm, f).and_then(|m| verify(&ctx, m).map(|()| m)) {
        Ok(m) => Some(print_op(&ctx, m, opts)),
        Err(d) => {
            // Rendering the diagnostic must not panic either.
            let _ = sm.render(ctx.uniquer(), &d);
            None
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    with_parser_stack(|| {
        for generic in [true, false] {
            let opts = PrintOptions {
                debuginfo: true,
                generic,
            };
            let Some(first) = parse_print(text, opts) else {
                return;
            };
            let second = parse_print(&first, opts)
                .unwrap_or_else(|| panic!("printed output does not parse again:\n{first}"));
            assert_eq!(first, second, "print(parse(print(parse(x)))) differs");
        }
    });
});
